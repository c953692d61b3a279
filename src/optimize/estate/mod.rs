//! Estate plans ([`optimize_estate`]): for each host SKU, the estate's AVS clusters sized
//! from compute ([`crate::sizing::size_estate`]: each private cloud's first cluster holding
//! the management reservation; for AV64 in a Gen 1 private cloud an added first cluster of
//! another SKU, [`seed`]), the same estate on vSAN alone, and each cluster's designs
//! ([`choices`]: for each way the cluster can be sized, as another cluster, as its private
//! cloud's first or moved to a first-cluster SKU, ANF for all at the fewest hosts whose
//! datastores meet its targets and the hybrid split of [`hybrid`], on that SKU's raw
//! capacity, price and performance system); the estate's three designs ([`designs`]: each
//! with its own first clusters) with the ExpressRoute gateways ANF needs ([`gateway`]);
//! the SKU is compared on its cheapest design (or `design`), and the chosen SKU's design
//! planned: each cluster's ANF side ([`super::optimize_per_cluster`]), its Standard,
//! Premium and Ultra datastores a share of a pool shared with the other clusters' (whole
//! GiB, `OptimizeOptions::shared_pool`), the pools shared across clusters and rounded up to
//! whole TiB once each ([`pools`]), the reservations bought once for the estate on the
//! shared pools' hot TiB. Every SKU's total is an alternative; hosts are priced per
//! cluster SKU.
//!
//! The estate's ANF cost is the sum of the clusters' plans (less what the estate's
//! reservations save): each cluster's plan is the cheapest for its VMs, hosts and targets
//! with its share priced per GiB, and each shared pool's rounding up to whole TiB is billed
//! to its members in proportion to their quotas ([`pools`]); a design whose split costs
//! less with a pool per cluster (whole TiB each) is planned so ([`designs`]). Without a
//! reservation or peak months the designs and SKUs are compared on the clusters' costs
//! with the pools' rounding added (the figure planning gives) and only the chosen one is
//! planned; with them every costed SKU's ANF designs are planned (the hybrid's split and
//! the way its pools are sized chosen pay as you go) and compared on their planned costs.

mod added;
mod alternatives;
mod assemble;
mod baseline;
mod choices;
mod cost;
mod designs;
mod gateway;
mod hybrid;
mod levels;
mod oracle;
mod outcome;
mod point;
mod pools;
mod rows;
mod seed;
mod sku;
mod sources;
mod utilisation;
mod vsan_alone;
mod vsan_perf;
mod warnings;

pub(super) use levels::reserved_levels;
pub use sku::EstateOptions;

use super::milp::round_cents;
use super::reserve::purchases;
use super::threads::in_threads;
use super::{OptimizeError, OptimizeOptions, optimize_per_cluster};
use crate::catalog::{Catalog, RegionPrices, ReservationTerm};
use crate::demand::{Demand, ExclusionReason};
use crate::perf::PerfModel;
use crate::plan::{Design, EstatePlan, GatewayLine};
use crate::sizing::{EstateSizing, SizingError, VmGroups, fitting_no_host, size_groups};
use crate::vsan::VsanError;
use crate::vsan::{HostSku, VsanCatalog};
use alternatives::sku_alternatives;
use choices::{ClusterChoice, cluster_choices};
use cost::{Costing, Pooling};
use designs::{design_costs, design_sizing, design_split, pick};
use sku::{SkuEstate, Storage, total};
use vsan_alone::vsan_alone_of;

/// A SKU's clusters' designs costed and kept ([`apply_choices`]), or why not.
type CostResult = Result<(), OptimizeError>;

/// Every SKU tried, and the costs of those priced (by index into them).
type SizedAndCosted = (Vec<Tried>, Vec<(usize, CostResult)>);

/// A SKU tried: its estate, or why it cannot hold the estate.
enum Tried {
    Feasible(Box<SkuEstate>),
    Infeasible(String, OptimizeError),
}

/// The cheapest estate plan for `demand`. The VMs larger than one host of every candidate
/// SKU are excluded first (with a warning); every SKU is sized; the designs of the SKUs
/// with a host price are costed (their totals decide), or, when no SKU has a price, the
/// ANF design of the SKU with the fewest hosts.
///
/// # Errors
/// [`OptimizeError::Sizing`] for sizing settings out of range, an unknown `host_sku`, every
/// VM too large for every candidate SKU, or (when no SKU can hold the estate) the first VM
/// too large for a host; [`OptimizeError::Invalid`] for a `design` that needs the vSAN
/// comparison without it; any error of [`optimize_per_cluster`] when no SKU's clusters can
/// be planned.
pub fn optimize_estate(
    demand: &Demand,
    catalog: &Catalog,
    vsan_catalog: &VsanCatalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    estate: &EstateOptions,
) -> Result<EstatePlan, OptimizeError> {
    check_design(estate)?;
    // The clusters' Standard, Premium and Ultra datastores share pools ([`pools`]); a
    // design whose split costs less with a pool per cluster is planned so.
    let shared = OptimizeOptions {
        shared_pool: true,
        ..options.clone()
    };
    let options = &shared;
    let (skus, forced) = candidate_skus(vsan_catalog, estate)?;
    // With `host_sku` the VMs larger than its hosts are excluded; the other SKUs are sized
    // and costed on the same VMs only to count the savings against the cheapest vSAN alone
    // and ANF for all ([`baseline`]).
    let choosable: Vec<&HostSku> = match forced {
        Some(i) => skus.get(i).copied().into_iter().collect(),
        None => skus.clone(),
    };
    let reduced = without_oversized_vms(demand, &choosable, vsan_catalog, estate)?;
    let demand = reduced.as_ref().map_or(demand, |(d, _)| d);
    // The targets and the required capacity are checked before any SKU is sized.
    super::run::base_targets(demand, &demand.options.io_profile)?;
    let peak = options
        .peak
        .as_ref()
        .map_or((0.0, 0.0), |p| (p.iops, p.throughput_mibps));
    let targets = vsan_perf::VsanTargets::of(
        demand,
        model,
        (peak, estate.targets_from_perf),
        (estate.sizing.ha_hosts, data_factor(demand)),
    );
    let gateway = gateway::gateway_line(estate.existing_er_gateways)?;
    let ctx = StorageContext {
        vsan_catalog,
        demand,
        catalog,
        prices: catalog.region(&options.region)?,
        model,
        options,
        estate,
        targets,
    };
    // Each SKU sized and, where its hosts are priced, its clusters costed: ANF for all
    // (raised to the hosts their datastores need) and the hybrid's cheapest split; the
    // SKU's design picked on those costs.
    let (mut tried, costs) = ctx.size_and_cost_in_parallel(skus)?;
    settle_costs(&mut tried, costs, &ctx, &gateway)?;
    if options.reservation != ReservationTerm::None || options.peak.is_some() {
        let jobs = anf_designs(&tried);
        let results = ctx.plan_in_parallel(&tried, &jobs);
        apply_storage(&mut tried, results)?;
        recost(&mut tried, &ctx, &gateway);
    }
    plan_chosen(&mut tried, &ctx, &gateway, forced)?;
    let may_choose = |i: usize| forced.is_none_or(|f| f == i);
    if !tried
        .iter()
        .enumerate()
        .any(|(i, t)| may_choose(i) && costed(t))
    {
        for i in sized(&tried).into_iter().filter(|&i| may_choose(i)) {
            let costs = ctx.cost_in_parallel(&tried, &[i]);
            apply_costs(&mut tried, costs, &ctx, &gateway)?;
            plan_chosen(&mut tried, &ctx, &gateway, forced)?;
            if costed(&tried[i]) {
                break;
            }
        }
    }
    let Some(chosen) = choose(&tried, forced) else {
        return Err(first_error(tried, forced));
    };
    if let Some(Tried::Feasible(e)) = tried.get(chosen)
        && let Some(err) = forced_refusal(e, estate.design)
    {
        return Err(err);
    }
    let alternatives = sku_alternatives(&tried, (chosen, forced), &ctx);
    let baselines =
        baseline::Baselines::of(tried.iter().enumerate().filter_map(|(i, t)| match t {
            Tried::Feasible(e) => Some((i == chosen, &**e)),
            Tried::Infeasible(..) => None,
        }));
    let Some(Tried::Feasible(best)) = tried.into_iter().nth(chosen) else {
        return Err(OptimizeError::Solver("chosen SKU lost".into()));
    };
    let mut plan = assemble::assemble(
        (demand, catalog, vsan_catalog),
        options,
        estate,
        (*best, baselines),
        (alternatives, gateway),
    )?;
    if let Some((_, warning)) = reduced {
        plan.warnings.insert(0, warning);
    }
    Ok(plan)
}

/// A forced vSAN-alone or hybrid design needs the vSAN settings.
///
/// # Errors
/// [`OptimizeError::Invalid`] naming `design`.
fn check_design(estate: &EstateOptions) -> Result<(), OptimizeError> {
    match estate.design {
        Some(d @ (Design::Vsan | Design::Hybrid)) if estate.vsan.is_none() => {
            Err(OptimizeError::Invalid {
                option: "design",
                value: d.to_string(),
                expected: "anf without `vsan_comparison` (vSAN alone and the hybrid need                            the vSAN settings)"
                    .into(),
            })
        }
        _ => Ok(()),
    }
}

/// The chosen SKU's design planned, when it puts data on ANF and is not planned yet.
///
/// # Errors
/// Errors of the plan other than infeasibility (which makes the SKU infeasible).
fn plan_chosen(
    tried: &mut [Tried],
    ctx: &StorageContext,
    gateway: &GatewayLine,
    forced: Option<usize>,
) -> Result<(), OptimizeError> {
    while let Some(best) = choose(tried, forced) {
        let Some(Tried::Feasible(e)) = tried.get(best) else {
            return Ok(());
        };
        if e.planned.contains_key(&e.design) || design_split(ctx, e, e.design).is_none() {
            return Ok(());
        }
        let job = [(best, e.design)];
        let results = ctx.plan_in_parallel(tried, &job);
        apply_storage(tried, results)?;
        recost(tried, ctx, gateway);
        if matches!(tried.get(best), Some(Tried::Feasible(_))) {
            return Ok(());
        }
    }
    Ok(())
}

/// Every costed SKU's designs that put data on ANF (ANF for all, and the hybrid unless it
/// is vSAN alone).
fn anf_designs(tried: &[Tried]) -> Vec<(usize, Design)> {
    let mut jobs = Vec::new();
    for (i, t) in tried.iter().enumerate() {
        let Tried::Feasible(e) = t else { continue };
        for d in [Design::Anf, Design::Hybrid] {
            if e.cost(d).is_some_and(|c| c.feasible && c.vms_anf > 0) {
                jobs.push((i, d));
            }
        }
    }
    jobs
}

/// The demand without the VMs no candidate SKU's host can run (excluded as
/// [`ExclusionReason::ExceedsAvsHost`], with the warning naming them), or `None` when
/// every VM fits some SKU. With targets from the per-VM figures, the targets are those of
/// the VMs left.
///
/// # Errors
/// [`SizingError::NoHostFits`] when no VM is left.
fn without_oversized_vms(
    demand: &Demand,
    skus: &[&HostSku],
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
) -> Result<Option<(Demand, crate::inventory::Warning)>, OptimizeError> {
    let basis = estate.sizing.memory_basis;
    let too_large = fitting_no_host(demand, skus, &vsan_catalog.limits, basis);
    if too_large.vms.is_empty() {
        return Ok(None);
    }
    if too_large.vms.len() == demand.placed.len() {
        return Err(too_large.error().into());
    }
    let mut reduced = demand.exclude_placed(&too_large.vms, ExclusionReason::ExceedsAvsHost);
    if estate.targets_from_perf {
        reduced.options.iops = 0.0;
        reduced.options.throughput_mibps = 0.0;
        reduced.targets_from_perf();
    }
    Ok(Some((reduced, too_large.warning())))
}

/// The SKUs to try: every SKU of the catalog, and the index of `host_sku` among them when
/// it is given (the only one that may be chosen).
///
/// # Errors
/// An unknown `host_sku`.
fn candidate_skus<'a>(
    vsan_catalog: &'a VsanCatalog,
    estate: &EstateOptions,
) -> Result<(Vec<&'a HostSku>, Option<usize>), OptimizeError> {
    let all: Vec<&HostSku> = vsan_catalog.hosts.iter().collect();
    let Some(sku) = &estate.host_sku else {
        return Ok((all, None));
    };
    let host = crate::sizing::find_sku(vsan_catalog, sku)?;
    let forced = all.iter().position(|h| h.sku == host.sku);
    Ok((all, forced))
}

/// The feasible SKUs not yet costed, by fewest hosts (the priced ones were costed as
/// they were sized, [`StorageContext::size_and_cost_in_parallel`]).
fn sized(tried: &[Tried]) -> Vec<usize> {
    let mut out: Vec<(u32, usize)> = tried
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tried::Feasible(e) if e.choices.is_none() => Some((e.sizing.hosts, i)),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.into_iter().map(|(_, i)| i).collect()
}

/// Whether the SKU is costed (its design's figures known).
fn costed(t: &Tried) -> bool {
    matches!(t, Tried::Feasible(e) if e.costs.is_some())
}

/// The start of the optimizer's warning for a plan without targets.
const NO_TARGET: &str = "no IOPS or MiB/s target was given";

/// One SKU sized (hosts, clusters, private clouds, vSAN alone and the host prices), or
/// why no estate can be built on it. A SKU that cannot be a private cloud's first cluster
/// (AV64 in a Gen 1 private cloud) gets an added first cluster of the cheapest priced
/// first-cluster SKU in each private cloud ([`seed`]); each design may move one of its
/// clusters there instead.
fn size_sku(
    (demand, groups): (&Demand, &VmGroups),
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    targets: &vsan_perf::VsanTargets,
    host: &HostSku,
) -> Result<Tried, OptimizeError> {
    let mut sizing = match size_groups(demand, groups, host, &vsan_catalog.limits, &estate.sizing) {
        Ok(s) => s,
        Err(e @ SizingError::VmTooLarge(_)) => {
            return Ok(Tried::Infeasible(host.sku.clone(), e.into()));
        }
        Err(e) => return Err(e.into()),
    };
    let prices = seed::sku_prices(host, vsan_catalog, estate);
    if !host.can_be_first() {
        let seed = seed::seed_cluster(host, vsan_catalog, estate, &prices);
        sizing.set_first_fallback(seed);
        sizing.assign_private_clouds(&vsan_catalog.limits);
    }
    // Before its designs are costed (never, without a host price), vSAN alone's first
    // clusters are those its hosts grow least with.
    let on = (demand, vsan_catalog, estate);
    let (vsan_alone, vsan_alone_refused) =
        match vsan_alone_of(on, targets, &sizing, host.can_be_first())? {
            Ok(v) => (v.unzip(), None),
            Err(e) => (Default::default(), Some(e)),
        };
    let (vsan_alone, vsan_alone_sizing) = vsan_alone;
    Ok(Tried::Feasible(Box::new(SkuEstate {
        vsan_alone_refused,
        sizing,
        choices: None,
        costs: None,
        design: Design::Anf,
        planned: Default::default(),
        vsan_alone,
        vsan_alone_sizing,
        host_usd_per_hour: prices.get(&host.sku).copied(),
        prices,
        first_cluster_skus: host.first_cluster_skus().map(str::to_string).collect(),
    })))
}

/// What every SKU's storage plan shares.
#[derive(Clone, Copy)]
struct StorageContext<'a> {
    /// Host SKUs, vSAN policies and the AVS cluster and private-cloud limits.
    vsan_catalog: &'a VsanCatalog,
    demand: &'a Demand,
    catalog: &'a Catalog,
    /// The plan region's ANF prices.
    prices: &'a RegionPrices,
    model: &'a PerfModel,
    options: &'a OptimizeOptions,
    estate: &'a EstateOptions,
    /// What the designs' vSAN sides carry, and how they are checked.
    targets: vsan_perf::VsanTargets<'a>,
}

/// A planned design: the SKU, the design, its ANF side's plan (`None`: nothing on ANF).
type PlanResult = (usize, Design, Result<Option<Storage>, OptimizeError>);

impl StorageContext<'_> {
    /// The AVS limits and the hours in a month, for the designs' costs.
    fn costing(&self) -> Costing<'_> {
        Costing {
            limits: &self.vsan_catalog.limits,
            hours: self.catalog.limits.hours_per_month,
        }
    }

    /// The ANF sides of `jobs` (SKU index, design), one thread per job (they are
    /// independent; the results come back in `jobs`' order).
    fn plan_in_parallel(&self, tried: &[Tried], jobs: &[(usize, Design)]) -> Vec<PlanResult> {
        let feasible: Vec<(usize, Design, &SkuEstate)> = jobs
            .iter()
            .filter_map(|&(i, d)| match tried.get(i) {
                Some(Tried::Feasible(e)) => Some((i, d, &**e)),
                _ => None,
            })
            .collect();
        let keys: Vec<(usize, Design)> = feasible.iter().map(|(i, d, _)| (*i, *d)).collect();
        keys.into_iter()
            .zip(in_threads(feasible, |(_, d, e)| self.plan(e, d)))
            .map(|((i, d), r)| (i, d, r))
            .collect()
    }

    /// Every candidate SKU sized (in catalog order) and, for each whose hosts are
    /// priced, each cluster's designs ([`cluster_choices`]) and its vSAN alone on them
    /// ([`apply_choices`]), in SKU order: one job per
    /// SKU on the worker threads ([`in_threads`]; the SKUs are independent), the SKUs
    /// with a price at the term first, as their costing is the longer work: a worker
    /// costs one while another sizes the rest.
    ///
    /// # Errors
    /// A SKU's sizing error other than a VM too large for its hosts.
    fn size_and_cost_in_parallel(
        &self,
        skus: Vec<&HostSku>,
    ) -> Result<SizedAndCosted, OptimizeError> {
        let (demand, estate) = (self.demand, self.estate);
        let hours = self.catalog.limits.hours_per_month;
        // The VMs' loads and groups are the same for every SKU.
        let groups = VmGroups::of(demand, &estate.sizing);
        let groups = &groups;
        let priced = |h: &HostSku| estate.host_prices.price(&h.sku, estate.host_term).is_some();
        let mut order: Vec<(usize, &HostSku)> = skus.into_iter().enumerate().collect();
        order.sort_by_key(|(_, h)| !priced(h));
        let job = |(_, host): (usize, &HostSku)| {
            self.options.stop.check()?;
            let mut t = size_sku(
                (demand, groups),
                self.vsan_catalog,
                estate,
                &self.targets,
                host,
            )?;
            let cost = match &mut t {
                Tried::Feasible(e) if e.hosts_usd_per_month(hours).is_some() => {
                    let choices = cluster_choices(self, (&e.sizing, &e.prices));
                    Some(choices.and_then(|c| apply_choices(e, c, self)))
                }
                _ => None,
            };
            Ok((t, cost))
        };
        let keys: Vec<usize> = order.iter().map(|(i, _)| *i).collect();
        let mut done: Vec<(usize, (Tried, Option<CostResult>))> = keys
            .into_iter()
            .zip(in_threads(order, job))
            .map(|(i, r)| r.map(|x| (i, x)))
            .collect::<Result<_, _>>()?;
        done.sort_by_key(|(i, _)| *i);
        let mut tried = Vec::with_capacity(done.len());
        let mut costs = Vec::new();
        for (i, (t, cost)) in done {
            tried.push(t);
            if let Some(c) = cost {
                costs.push((i, c));
            }
        }
        Ok((tried, costs))
    }

    /// Each cluster's designs of the SKUs `tried[i]` for `i` in `which`, one thread per
    /// SKU.
    fn cost_in_parallel(
        &self,
        tried: &[Tried],
        which: &[usize],
    ) -> Vec<(usize, Result<Vec<ClusterChoice>, OptimizeError>)> {
        let feasible: Vec<(usize, &SkuEstate)> = which
            .iter()
            .filter_map(|&i| match tried.get(i) {
                Some(Tried::Feasible(e)) => Some((i, &**e)),
                _ => None,
            })
            .collect();
        let indices: Vec<usize> = feasible.iter().map(|(i, _)| *i).collect();
        indices
            .into_iter()
            .zip(in_threads(feasible, |(_, e)| {
                cluster_choices(self, (&e.sizing, &e.prices))
            }))
            .collect()
    }

    /// What sharing a design's pools needs.
    fn pooling(&self) -> Pooling<'_> {
        Pooling {
            limits: &self.catalog.limits,
            prices: self.prices,
        }
    }

    /// The storage plan of the ANF side of one SKU's `design` (`None` when it puts
    /// nothing on ANF): its clusters planned with shares of shared pools, or with a pool
    /// each where that costs the split less ([`cost::DesignCost::pool_sizing`]), their
    /// pools shared ([`pools::share_pools`]) and the estate's reservations bought on the
    /// shared pools' hot TiB.
    fn plan(&self, e: &SkuEstate, design: Design) -> Result<Option<Storage>, OptimizeError> {
        self.options.stop.check()?;
        let Some(split) = design_split(self, e, design) else {
            return Ok(None);
        };
        let shared = e
            .cost(design)
            .and_then(|c| c.pool_sizing)
            .is_none_or(|p| p.shared());
        let options = OptimizeOptions {
            shared_pool: shared,
            ..self.options.clone()
        };
        let mut plans = optimize_per_cluster(&split, self.catalog, self.model, &options, None)?;
        if !self.estate.targets_from_perf {
            // The estate warns once when no target is given.
            for c in &mut plans.clusters {
                c.plan
                    .warnings
                    .retain(|w| !w.message.starts_with(NO_TARGET));
            }
        } else {
            for c in &mut plans.clusters {
                for w in c
                    .plan
                    .warnings
                    .iter_mut()
                    .filter(|w| w.message.starts_with(NO_TARGET))
                {
                    w.message = "no VM of this cluster has per-VM performance figures (the \
                                 estate's targets are their sums): it is sized for capacity \
                                 only"
                        .into();
                }
            }
        }
        let pools = pools::share_pools(&mut plans, &self.catalog.limits, self.prices);
        let hot = pools::hot_tiers(&pools, &plans);
        let region = self.prices.region.as_str();
        plans.reservations = purchases(
            hot.into_iter().map(|h| (region, h)),
            self.catalog,
            self.options.reservation,
        )?;
        let savings: f64 = plans
            .reservations
            .iter()
            .map(|r| r.savings_usd_per_month)
            .sum();
        let t = &mut plans.total;
        t.cost_usd_per_month = round_cents(
            plans
                .clusters
                .iter()
                .map(|c| c.plan.totals.cost_usd_per_month)
                .sum::<f64>()
                - savings,
        );
        t.reservation_savings_usd_per_month = round_cents(savings);
        t.pool_size_tib = pools.iter().map(|p| p.size_tib).sum();
        Ok(Some(Storage { plans, pools }))
    }
}

/// Stores each SKU's cluster designs, its vSAN alone (on the vSAN design's own first
/// clusters), its designs' costs and the design it is compared on; a SKU whose clusters
/// cannot meet the targets with every VM on ANF becomes infeasible.
///
/// # Errors
/// Any other error of a cluster's cost, or of vSAN alone.
fn apply_costs(
    tried: &mut [Tried],
    results: Vec<(usize, Result<Vec<ClusterChoice>, OptimizeError>)>,
    ctx: &StorageContext,
    gateway: &GatewayLine,
) -> Result<(), OptimizeError> {
    let mut applied = Vec::with_capacity(results.len());
    for (i, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        applied.push((i, result.and_then(|c| apply_choices(e, c, ctx))));
    }
    settle_costs(tried, applied, ctx, gateway)
}

/// `e`'s clusters' designs `choices` kept, and its vSAN alone worked out on them (the
/// hosts vSAN alone needs, or why it cannot hold the estate).
///
/// # Errors
/// A defect of the vSAN comparison.
fn apply_choices(
    e: &mut SkuEstate,
    choices: Vec<ClusterChoice>,
    ctx: &StorageContext,
) -> Result<(), OptimizeError> {
    e.choices = Some(choices);
    let sizing = design_sizing(e, Design::Vsan, ctx.costing());
    let on = (ctx.demand, ctx.vsan_catalog, ctx.estate);
    let ((alone, grown), refused) = match vsan_alone_of(on, &ctx.targets, &sizing, false)? {
        Ok(v) => (v.unzip(), None),
        Err(err) => (Default::default(), Some(err)),
    };
    (e.vsan_alone, e.vsan_alone_sizing, e.vsan_alone_refused) = (alone, grown, refused);
    Ok(())
}

/// The SKUs `tried[i]` whose designs were costed ([`apply_choices`]) or could not be: one
/// whose datastores cannot meet a target is infeasible; the designs' costs worked out
/// ([`recost`]).
///
/// # Errors
/// A costing error other than a target that cannot be met.
fn settle_costs(
    tried: &mut [Tried],
    results: Vec<(usize, Result<(), OptimizeError>)>,
    ctx: &StorageContext,
    gateway: &GatewayLine,
) -> Result<(), OptimizeError> {
    for (i, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        match result {
            Ok(()) => {}
            Err(err @ (OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_))) => {
                let sku = e.sizing.sku.clone();
                tried[i] = Tried::Infeasible(sku, err);
            }
            Err(err) => return Err(err),
        }
    }
    recost(tried, ctx, gateway);
    // A SKU on which no design can be built (its datastores cannot meet a cluster's
    // targets, and vSAN alone is not compared or cannot hold a VM) is infeasible.
    for t in tried.iter_mut() {
        let Tried::Feasible(e) = t else { continue };
        let Some(costs) = &e.costs else { continue };
        if costs.iter().any(|c| c.feasible) {
            continue;
        }
        if let Some(err) = anf_refusal(e) {
            let err = with_vsan_refusal(err, e.vsan_alone_refused.as_ref());
            *t = Tried::Infeasible(e.sizing.sku.clone(), err);
        }
    }
    Ok(())
}

/// Why ANF for all cannot be built on `e`: the first cluster's datastores that cannot meet
/// its targets.
fn anf_refusal(e: &SkuEstate) -> Option<OptimizeError> {
    refusal(e, Design::Anf)
}

/// Why `design` cannot be built on `e`: the first cluster refused (ANF for all's
/// datastores, or the hybrid's splits, that cannot meet its targets).
fn refusal(e: &SkuEstate, design: Design) -> Option<OptimizeError> {
    let choices = e.choices.as_ref()?;
    choices
        .iter()
        .find_map(|c| c.other().and_then(|v| v.refused(design)))
        .map(|r| r.error())
}

/// An ANF refusal with vSAN alone's beside it, when vSAN alone cannot be built either (a
/// VM whose data no one cluster holds): no design can, and the message says both.
fn with_vsan_refusal(err: OptimizeError, vsan: Option<&VsanError>) -> OptimizeError {
    match vsan {
        Some(v) => err.with_detail(&format!("; and vSAN alone cannot be built: {v}")),
        None => err,
    }
}

/// When `design` forces a design the chosen SKU `e` cannot build, why: ANF for all's
/// datastores that cannot meet a cluster's targets, the hybrid's cluster that no split
/// lets meet them, or vSAN alone's VM that no cluster holds.
fn forced_refusal(e: &SkuEstate, design: Option<Design>) -> Option<OptimizeError> {
    let d = design?;
    if e.cost(d).is_none_or(|c| c.feasible) {
        return None;
    }
    match d {
        Design::Vsan => e.vsan_alone_refused.clone().map(OptimizeError::Vsan),
        Design::Anf => anf_refusal(e),
        Design::Hybrid => refusal(e, Design::Hybrid),
    }
}

/// Every costed SKU's designs' costs (with the planned ANF costs where planned) and the
/// design it is compared on.
fn recost(tried: &mut [Tried], ctx: &StorageContext, gateway: &GatewayLine) {
    for t in tried.iter_mut() {
        if let Tried::Feasible(e) = t {
            e.costs = design_costs(e, (gateway, ctx.pooling()), ctx.costing());
            if let Some(costs) = &e.costs {
                e.design = pick(costs, ctx.estate.design);
            }
        }
    }
}

/// Stores each planned design's storage plan; a SKU whose design cannot meet the targets
/// becomes infeasible.
///
/// # Errors
/// Any other error of a storage plan.
fn apply_storage(tried: &mut [Tried], results: Vec<PlanResult>) -> Result<(), OptimizeError> {
    for (i, design, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        match result {
            Ok(Some(s)) => {
                e.planned.insert(design, s);
            }
            Ok(None) => {}
            Err(err @ (OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_))) => {
                let sku = e.sizing.sku.clone();
                tried[i] = Tried::Infeasible(sku, err);
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// Growth and snapshot reserve: the data vSAN holds per GiB placed.
fn data_factor(demand: &Demand) -> f64 {
    let o = &demand.options;
    (1.0 + o.growth_pct / 100.0) * (1.0 + o.snapshot_reserve_pct / 100.0)
}

/// The index of the cluster named `name` in `sizing`.
fn cluster_index(sizing: &EstateSizing, name: &str) -> Option<usize> {
    sizing.clusters.iter().position(|c| c.name == name)
}

/// The index of the chosen SKU: the lowest total of its design among priced SKUs (ties:
/// fewer hosts, then catalog order); without any price, the fewest hosts; only `forced`
/// when given. `None` when none is costed.
fn choose(tried: &[Tried], forced: Option<usize>) -> Option<usize> {
    let feasible = tried.iter().enumerate().filter_map(|(i, t)| match t {
        Tried::Feasible(e) if e.costs.is_some() && forced.is_none_or(|f| f == i) => Some((i, e)),
        _ => None,
    });
    let key = |e: &SkuEstate| {
        let hosts = e.cost(e.design).map_or(e.sizing.hosts, |c| c.hosts);
        (total(e).unwrap_or(f64::INFINITY), hosts)
    };
    feasible
        .min_by(|(_, a), (_, b)| {
            let (ta, ha) = key(a);
            let (tb, hb) = key(b);
            ta.total_cmp(&tb).then(ha.cmp(&hb))
        })
        .map(|(i, _)| i)
}

/// When every SKU tried failed because some VM is larger than one of its hosts (each VM
/// fitting some SKU, or none would have been left), the error naming each SKU's VM and the
/// way out: `host_sku`, which excludes the VMs larger than its hosts.
fn no_sku_holds_every_vm(tried: &[Tried]) -> Option<OptimizeError> {
    let mut parts = Vec::new();
    for t in tried {
        match t {
            Tried::Infeasible(sku, OptimizeError::Sizing(SizingError::VmTooLarge(v))) => {
                parts.push(format!(
                    "{sku}: '{}' needs {}",
                    crate::numbers::clip(&v.vm),
                    v.need
                ));
            }
            _ => return None,
        }
    }
    if parts.len() < 2 {
        return None;
    }
    Some(OptimizeError::Sizing(SizingError::NoHostFits(format!(
        "no single host SKU holds every VM, though each fits one: {}; choose one \
         with --host-sku SKU (the VMs larger than its hosts are then excluded, each with its \
         reason)",
        parts.join("; ")
    ))))
}

/// The error when no SKU can hold the estate: the SKU given's reason; else where every
/// SKU misses the same target, the reason of the SKU that comes closest (the most
/// reachable, the earliest of equals), so the message names the most that can be reached;
/// else the first SKU's reason.
fn first_error(tried: Vec<Tried>, forced: Option<usize>) -> OptimizeError {
    if let Some(f) = forced {
        return match tried.into_iter().nth(f) {
            Some(Tried::Infeasible(_, e)) => e,
            _ => OptimizeError::Solver("the host SKU given was not costed".into()),
        };
    }
    if let Some(e) = no_sku_holds_every_vm(&tried) {
        return e;
    }
    let errors: Vec<OptimizeError> = tried
        .into_iter()
        .filter_map(|t| match t {
            Tried::Infeasible(_, e) => Some(e),
            Tried::Feasible(_) => None,
        })
        .collect();
    let missed = |e: &OptimizeError| match e {
        OptimizeError::Infeasible {
            target, reachable, ..
        } => Some((*target, *reachable)),
        _ => None,
    };
    // Every SKU missed the same target: the one that came closest.
    let at = errors
        .iter()
        .map(missed)
        .collect::<Option<Vec<_>>>()
        .filter(|m| m.windows(2).all(|w| w[0].0 == w[1].0))
        .and_then(|m| (0..m.len()).reduce(|b, i| if m[i].1 > m[b].1 { i } else { b }))
        .unwrap_or(0);
    errors
        .into_iter()
        .nth(at)
        .unwrap_or_else(|| OptimizeError::Solver("no host SKU to try".into()))
}

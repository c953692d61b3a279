//! Estate plans ([`optimize_estate`]): for each host SKU, the estate's AVS clusters sized
//! from compute ([`crate::sizing::size_estate`]), each cluster's datastores planned with
//! its own hosts and VMs ([`super::optimize_per_cluster`]), its Standard, Premium and
//! Ultra datastores as a share of a pool shared with the other clusters' (whole GiB,
//! `OptimizeOptions::shared_pool`), the pools shared across clusters and rounded up to
//! whole TiB once each ([`pools`]), the reservations bought once for the estate on the
//! shared pools' hot TiB, the hosts priced, and the same estate on vSAN alone. The SKU
//! with the lowest total (hosts + ANF) is the plan; every SKU's total is an alternative.
//!
//! The estate's cost is the sum of the clusters' plans (less what the estate's
//! reservations save): each cluster's plan is the cheapest for its VMs, hosts and targets
//! with its pool share priced per GiB, and each shared pool's rounding up to whole TiB is
//! billed to its members in proportion to their quotas ([`pools`]).

mod assemble;
mod levels;
mod pools;
mod sku;
mod utilisation;
mod warnings;

pub(super) use levels::reserved_levels;
pub use sku::EstateOptions;

use super::milp::round_cents;
use super::one_cluster::cluster_cost;
use super::reserve::purchases;
use super::run::Cheapest;
use super::threads::in_threads;
use super::{OptimizeError, OptimizeOptions, optimize_per_cluster};
use crate::catalog::{Catalog, ReservationTerm};
use crate::demand::{ClusterDemand, ClusterDemands, Demand, ExclusionReason};
use crate::perf::PerfModel;
use crate::plan::{ClusterPlans, EstatePlan, EstatePool, SkuAlternative};
use crate::sizing::{
    Driver, EstateSizing, SizingError, VmGroups, fitting_no_host, size_groups, vsan_alone,
};
use crate::vsan::{HostSku, VsanCatalog};
use sku::{SkuEstate, hosts_cost, total};

/// One SKU's storage plan: its clusters' plans and the estate's shared pools.
type Storage = (ClusterPlans, Vec<EstatePool>);

/// A SKU tried: its estate, or why it cannot hold the estate.
enum Tried {
    Feasible(Box<SkuEstate>),
    Infeasible(String, OptimizeError),
}

/// The cheapest estate plan for `demand`. The VMs larger than one host of every candidate
/// SKU are excluded first (with a warning); every SKU is sized; the storage of the SKUs
/// with a host price is planned (their totals decide), or, when no SKU has a price, that of
/// the SKU with the fewest hosts.
///
/// # Errors
/// [`OptimizeError::Sizing`] for sizing settings out of range, an unknown `host_sku`, every
/// VM too large for every candidate SKU, or (when no SKU can hold the estate) the first VM
/// too large for a host; any error of [`optimize_per_cluster`] when no SKU's clusters can
/// be planned.
pub fn optimize_estate(
    demand: &Demand,
    catalog: &Catalog,
    vsan_catalog: &VsanCatalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    estate: &EstateOptions,
) -> Result<EstatePlan, OptimizeError> {
    // The clusters' Standard, Premium and Ultra datastores share pools ([`pools`]).
    let shared = OptimizeOptions {
        shared_pool: true,
        ..options.clone()
    };
    let options = &shared;
    let skus = candidate_skus(vsan_catalog, estate)?;
    let reduced = without_oversized_vms(demand, &skus, vsan_catalog, estate)?;
    let demand = reduced.as_ref().map_or(demand, |(d, _)| d);
    // The targets and the required capacity are checked before any SKU is sized.
    super::run::base_targets(demand, &demand.options.io_profile)?;
    let mut tried = size_in_parallel(demand, vsan_catalog, estate, skus)?;
    let ctx = StorageContext {
        vsan_limits: vsan_catalog.limits,
        demand,
        catalog,
        model,
        options,
        estate,
    };
    let priced = sized(&tried, true);
    let hours = catalog.limits.hours_per_month;
    // Each priced SKU's clusters costed (and raised to the hosts their datastores need).
    // Without a reservation or time phases the estate's ANF cost is the sum of the
    // clusters' costs: the SKUs are compared on it and only the cheapest is planned.
    let costs = ctx.cost_in_parallel(&mut tried, &priced);
    apply_costs(&mut tried, costs)?;
    if options.reservation == ReservationTerm::None && options.peak.is_none() {
        if let Some(best) = choose(&tried, hours) {
            let results = ctx.plan_in_parallel(&tried, &[best]);
            apply_storage(&mut tried, results)?;
        }
    } else {
        let costed = sized_costed(&tried);
        let results = ctx.plan_in_parallel(&tried, &costed);
        apply_storage(&mut tried, results)?;
    }
    if !tried.iter().any(has_storage) {
        for i in sized(&tried, false) {
            let costs = ctx.cost_in_parallel(&mut tried, &[i]);
            apply_costs(&mut tried, costs)?;
            let results = ctx.plan_in_parallel(&tried, &[i]);
            apply_storage(&mut tried, results)?;
            if has_storage(&tried[i]) {
                break;
            }
        }
    }
    // Only a SKU whose storage is planned can be the plan (the others' costs are
    // worked out the same way but not built).
    let Some(chosen) = choose_planned(&tried, hours) else {
        return Err(first_error(tried));
    };
    let alternatives = sku_alternatives(&tried, chosen, hours, estate);
    let Some(Tried::Feasible(best)) = tried.into_iter().nth(chosen) else {
        return Err(OptimizeError::Solver("chosen SKU lost".into()));
    };
    let mut plan = assemble::assemble(
        demand,
        catalog,
        vsan_catalog,
        options,
        estate,
        *best,
        alternatives,
    )?;
    if let Some((_, warning)) = reduced {
        plan.warnings.insert(0, warning);
    }
    Ok(plan)
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

/// Every candidate SKU sized, one thread per SKU (they are independent), in catalog order.
fn size_in_parallel(
    demand: &Demand,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    skus: Vec<&HostSku>,
) -> Result<Vec<Tried>, OptimizeError> {
    // The VMs' loads and groups are the same for every SKU.
    let groups = VmGroups::of(demand, &estate.sizing);
    let groups = &groups;
    in_threads(skus, |host| {
        size_sku(demand, groups, vsan_catalog, estate, host)
    })
    .into_iter()
    .collect()
}

/// The SKUs to try: `host_sku`, or every SKU of the catalog.
fn candidate_skus<'a>(
    vsan_catalog: &'a VsanCatalog,
    estate: &EstateOptions,
) -> Result<Vec<&'a HostSku>, OptimizeError> {
    let Some(sku) = &estate.host_sku else {
        return Ok(vsan_catalog.hosts.iter().collect());
    };
    Ok(vec![crate::sizing::find_sku(vsan_catalog, sku)?])
}

/// The feasible SKUs without a storage plan: those with a host price (`priced`, in
/// catalog order), or all of them by fewest hosts.
fn sized(tried: &[Tried], priced: bool) -> Vec<usize> {
    let mut out: Vec<(u32, usize)> = tried
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tried::Feasible(e)
                if e.storage.is_none() && (!priced || e.host_usd_per_hour.is_some()) =>
            {
                Some((e.sizing.hosts, i))
            }
            _ => None,
        })
        .collect();
    if !priced {
        out.sort_unstable();
    }
    out.into_iter().map(|(_, i)| i).collect()
}

/// The SKUs costed but not planned.
fn sized_costed(tried: &[Tried]) -> Vec<usize> {
    tried
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tried::Feasible(e) if e.storage.is_none() && e.anf_costed_usd_per_month.is_some() => {
                Some(i)
            }
            _ => None,
        })
        .collect()
}

fn has_storage(t: &Tried) -> bool {
    matches!(t, Tried::Feasible(e) if e.storage.is_some())
}

/// The start of the optimizer's warning for a plan without targets.
const NO_TARGET: &str = "no IOPS or MiB/s target was given";

/// One SKU sized (hosts, clusters, private clouds, vSAN alone and the host price), or why
/// no estate can be built on it.
fn size_sku(
    demand: &Demand,
    groups: &VmGroups,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    host: &HostSku,
) -> Result<Tried, OptimizeError> {
    let sizing = match size_groups(demand, groups, host, &vsan_catalog.limits, &estate.sizing) {
        Ok(s) => s,
        Err(e @ SizingError::VmTooLarge(_)) => {
            return Ok(Tried::Infeasible(host.sku.clone(), e.into()));
        }
        Err(e) => return Err(e.into()),
    };
    let vsan_alone = match &estate.vsan {
        Some(o) => {
            let factor = data_factor(demand);
            let data: Vec<f64> = sizing
                .clusters
                .iter()
                .map(|c| {
                    c.vm_indices
                        .iter()
                        .filter_map(|&i| demand.placed.get(i))
                        .map(|v| v.capacity_gib)
                        .sum::<f64>()
                        * factor
                })
                .collect();
            Some(vsan_alone(vsan_catalog, &sizing, &data, o)?)
        }
        None => None,
    };
    let host_usd_per_hour = estate
        .host_prices
        .price(&host.sku, estate.host_term)
        .map(|p| p.usd_per_hour);
    Ok(Tried::Feasible(Box::new(SkuEstate {
        sizing,
        storage: None,
        pools: Vec::new(),
        pool_sizing: None,
        anf_costed_usd_per_month: None,
        split: None,
        vsan_alone,
        host_usd_per_hour,
    })))
}

/// What every SKU's storage plan shares.
#[derive(Clone, Copy)]
struct StorageContext<'a> {
    /// The AVS cluster and private-cloud limits.
    vsan_limits: crate::vsan::AvsLimits,
    demand: &'a Demand,
    catalog: &'a Catalog,
    model: &'a PerfModel,
    options: &'a OptimizeOptions,
    estate: &'a EstateOptions,
}

impl StorageContext<'_> {
    /// The storage plans of the SKUs `tried[i]` for `i` in `which`, one thread per SKU
    /// (they are independent; the results come back in `which`'s order).
    fn plan_in_parallel(
        &self,
        tried: &[Tried],
        which: &[usize],
    ) -> Vec<(usize, Result<Storage, OptimizeError>)> {
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
            .zip(in_threads(feasible, |(_, e)| self.plan(e)))
            .collect()
    }

    /// The ANF cost of the SKUs `tried[i]` for `i` in `which` (their clusters' costs
    /// added, nothing placed or explained), one thread per SKU.
    fn cost_in_parallel(
        &self,
        tried: &mut [Tried],
        which: &[usize],
    ) -> Vec<(usize, Result<f64, OptimizeError>)> {
        let feasible: Vec<(usize, &mut SkuEstate)> = tried
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| which.contains(i))
            .filter_map(|(i, t)| match t {
                Tried::Feasible(e) => Some((i, &mut **e)),
                Tried::Infeasible(..) => None,
            })
            .collect();
        let indices: Vec<usize> = feasible.iter().map(|(i, _)| *i).collect();
        indices
            .into_iter()
            .zip(in_threads(feasible, |(_, e)| self.cost(e)))
            .collect()
    }

    /// The ANF cost of one SKU's clusters, USD per month (the shared pools' rounding
    /// included); a cluster whose datastores need more hosts than its compute (its share
    /// of the IOPS and MiB/s targets) is raised to the fewest that meet them
    /// ([`Driver::Storage`]).
    /// The clusters' demands are kept for the SKU's storage plan (with the raised hosts).
    fn cost(&self, e: &mut SkuEstate) -> Result<f64, OptimizeError> {
        let sizing = &mut e.sizing;
        let mut split = cluster_demands(self.demand, sizing, self.estate.targets_from_perf);
        let mut sum = 0.0;
        let mut own_sum = 0.0;
        let own = OptimizeOptions {
            shared_pool: false,
            ..self.options.clone()
        };
        let mut members = Vec::with_capacity(split.clusters.len());
        for (i, c) in split.clusters.iter_mut().enumerate() {
            let (hosts, cheapest) = self.hosts_for_storage(c)?;
            let cost = cheapest.cost_usd_per_month;
            // Each cluster with a pool of its own (whole TiB), as the comparison.
            own_sum += if cheapest.share_gib > 0 {
                cluster_cost(c, self.catalog, self.model, &own, Some(hosts))?.cost_usd_per_month
            } else {
                cost
            };
            members.push(pools::Member {
                cold_gib: cheapest.cold_gib,
                hot_usd: cheapest.hot_usd_per_month,
                ..pools::Member::new(
                    cheapest.level,
                    cheapest.cool,
                    cheapest.size_tib,
                    cheapest.share_gib,
                )
            });
            sizing.raise_for_storage(i, hosts);
            if let Some(raised) = sizing.clusters.get(i)
                && raised.driver == Driver::Storage
            {
                c.source_hosts = Some(raised.hosts);
                c.hosts_source = hosts_source(raised);
            }
            sum += cost;
        }
        sizing.assign_private_clouds(&self.vsan_limits);
        e.split = Some(split);
        let prices = self.catalog.region(&self.options.region)?;
        sum += pools::rounding_usd_per_month(&members, &self.catalog.limits, prices);
        let sizing = pools::PoolSizing {
            shared_usd_per_month: round_cents(sum),
            own_usd_per_month: round_cents(own_sum),
        };
        e.pool_sizing = Some(sizing);
        Ok(sizing.chosen_usd_per_month())
    }

    /// The cluster's hosts for its datastores, and the cost there: the fewest hosts `h` at
    /// which the datastores meet the cluster's targets, searched from its compute hosts
    /// less the HA reserve (at least the AVS minimum); when `h` is above that start, the
    /// cluster gets `h` + the HA reserve (so the targets hold with a host down), at most
    /// the AVS maximum; else it keeps its compute hosts.
    ///
    /// # Errors
    /// The error at the AVS maximum when no host count meets the targets; any other error.
    fn hosts_for_storage(&self, c: &ClusterDemand) -> Result<(u32, Cheapest), OptimizeError> {
        let (min, max) = (self.catalog.limits.min_hosts, self.catalog.limits.max_hosts);
        let ha = self.estate.sizing.ha_hosts;
        let compute = c.source_hosts.unwrap_or(min);
        let start = compute.saturating_sub(ha).max(min).min(max);
        let cost = |h: u32| cluster_cost(c, self.catalog, self.model, self.options, Some(h));
        let o = &c.demand.options;
        if o.iops <= 0.0 && o.throughput_mibps <= 0.0 && self.options.peak.is_none() {
            // Capacity only: hosts change no datastore (flows carry no target).
            return Ok((compute, cost(compute)?));
        }
        let mut h = start;
        loop {
            match cost(h) {
                Ok(at_h) => {
                    let hosts = if h > start {
                        (h + ha).max(compute).min(max)
                    } else {
                        compute
                    };
                    return Ok((hosts, if hosts == h { at_h } else { cost(hosts)? }));
                }
                Err(OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_)) if h < max => {
                    h += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The storage plan of one SKU's clusters, their pools shared ([`pools::share_pools`])
    /// and the estate's reservations bought on the shared pools' hot TiB.
    fn plan(&self, e: &SkuEstate) -> Result<Storage, OptimizeError> {
        let built;
        let split = match &e.split {
            Some(s) => s,
            None => {
                built = cluster_demands(self.demand, &e.sizing, self.estate.targets_from_perf);
                &built
            }
        };
        let options = OptimizeOptions {
            shared_pool: e.pool_sizing.is_none_or(|p| p.shared()),
            ..self.options.clone()
        };
        let mut plans = optimize_per_cluster(split, self.catalog, self.model, &options, None)?;
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
        let prices = self.catalog.region(&self.options.region)?;
        let shared = pools::share_pools(&mut plans, &self.catalog.limits, prices);
        let hot = pools::hot_tiers(&shared, &plans);
        let region = prices.region.as_str();
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
        t.pool_size_tib = shared.iter().map(|p| p.size_tib).sum();
        Ok((plans, shared))
    }
}

/// Stores each SKU's ANF cost; a SKU whose clusters cannot meet the targets becomes
/// infeasible.
///
/// # Errors
/// Any other error of a cluster's cost.
fn apply_costs(
    tried: &mut [Tried],
    results: Vec<(usize, Result<f64, OptimizeError>)>,
) -> Result<(), OptimizeError> {
    for (i, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        match result {
            Ok(c) => e.anf_costed_usd_per_month = Some(c),
            Err(err @ (OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_))) => {
                let sku = e.sizing.sku.clone();
                tried[i] = Tried::Infeasible(sku, err);
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// Stores each SKU's storage plan; a SKU whose clusters cannot meet the targets becomes
/// infeasible.
///
/// # Errors
/// Any other error of a storage plan.
fn apply_storage(
    tried: &mut [Tried],
    results: Vec<(usize, Result<Storage, OptimizeError>)>,
) -> Result<(), OptimizeError> {
    for (i, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        match result {
            Ok((s, pools)) => {
                e.storage = Some(s);
                e.pools = pools;
            }
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

/// One demand per AVS cluster: its VMs, and its capacity share of the estate's targets
/// (or, with `own_targets`, its VMs' per-VM figures added up).
fn cluster_demands(demand: &Demand, sizing: &EstateSizing, own_targets: bool) -> ClusterDemands {
    let total = demand.placed_capacity_gib;
    let n = sizing.clusters.len().max(1) as f64;
    let clusters = sizing
        .clusters
        .iter()
        .map(|c| {
            let mut d = demand.subset(&c.vm_indices);
            let share = if total > 0.0 {
                d.placed_capacity_gib / total
            } else {
                1.0 / n
            };
            d.options.iops = demand.options.iops * share;
            d.options.throughput_mibps = demand.options.throughput_mibps * share;
            if own_targets {
                d.options.iops = 0.0;
                d.options.throughput_mibps = 0.0;
                d.targets_from_perf();
            }
            let estate = if own_targets {
                (0.0, 0.0)
            } else {
                (demand.options.iops, demand.options.throughput_mibps)
            };
            ClusterDemand {
                cluster: c.name.clone(),
                demand: d,
                capacity_share: share,
                estate_iops: estate.0,
                estate_throughput_mibps: estate.1,
                source_hosts: Some(c.hosts),
                hosts_source: hosts_source(c),
            }
        })
        .collect();
    ClusterDemands {
        clusters,
        vms_without_cluster: 0,
        vms_without_cluster_capacity_gib: 0.0,
        // The estate plan lists the excluded VMs once, from the estate's demand.
        excluded: Vec::new(),
    }
}

/// Where a cluster's host count comes from, in words.
fn hosts_source(c: &crate::sizing::AvsCluster) -> String {
    let why = match c.driver {
        Driver::Vcpu => format!("{} for vCPU", c.hosts_for_vcpu),
        Driver::Memory => format!("{} for memory", c.hosts_for_memory),
        Driver::Storage => {
            return format!(
                "raised to {} {} for the datastores' IOPS and MiB/s: {} hosts' flows and \
                 ceilings meet them, + {} HA ({} for vCPU, {} for memory)",
                c.hosts,
                c.sku,
                c.hosts.saturating_sub(c.ha_hosts),
                c.ha_hosts,
                c.hosts_for_vcpu,
                c.hosts_for_memory
            );
        }
        Driver::Minimum => {
            return format!(
                "sized from compute: {} for vCPU, {} for memory + {} HA, raised to the AVS \
                 minimum of {} {}",
                c.hosts_for_vcpu, c.hosts_for_memory, c.ha_hosts, c.hosts, c.sku
            );
        }
    };
    format!(
        "sized from compute: {why} + {} HA = {} {}",
        c.ha_hosts, c.hosts, c.sku
    )
}

/// The index of the chosen SKU: the lowest total among priced SKUs (ties: fewer hosts,
/// then catalog order); without any price, the fewest hosts. `None` when none is feasible.
fn choose(tried: &[Tried], hours: f64) -> Option<usize> {
    choose_among(tried, hours, |e| e.anf_usd_per_month().is_some())
}

/// As [`choose`], among the SKUs whose storage is planned.
fn choose_planned(tried: &[Tried], hours: f64) -> Option<usize> {
    choose_among(tried, hours, |e| e.storage.is_some())
}

/// As [`choose`], among the feasible SKUs `keep` takes.
fn choose_among(tried: &[Tried], hours: f64, keep: impl Fn(&SkuEstate) -> bool) -> Option<usize> {
    let feasible = tried.iter().enumerate().filter_map(|(i, t)| match t {
        Tried::Feasible(e) if keep(e) && e.anf_usd_per_month().is_some() => Some((i, e)),
        _ => None,
    });
    let key = |e: &SkuEstate| (total(e, hours).unwrap_or(f64::INFINITY), e.sizing.hosts);
    feasible
        .min_by(|(_, a), (_, b)| {
            let (ta, ha) = key(a);
            let (tb, hb) = key(b);
            ta.total_cmp(&tb).then(ha.cmp(&hb))
        })
        .map(|(i, _)| i)
}

/// The error when no SKU can hold the estate: the first SKU's reason.
fn first_error(tried: Vec<Tried>) -> OptimizeError {
    for t in tried {
        if let Tried::Infeasible(_, e) = t {
            return e;
        }
    }
    OptimizeError::Solver("no host SKU to try".into())
}

/// One row per SKU tried.
fn sku_alternatives(
    tried: &[Tried],
    chosen: usize,
    hours: f64,
    estate: &EstateOptions,
) -> Vec<SkuAlternative> {
    tried
        .iter()
        .enumerate()
        .map(|(i, t)| match t {
            Tried::Feasible(e) => feasible_row(e, i == chosen, hours, estate),
            Tried::Infeasible(sku, err) => SkuAlternative {
                sku: sku.clone(),
                feasible: false,
                chosen: false,
                hosts: 0,
                clusters: 0,
                private_clouds: 0,
                host_usd_per_hour: None,
                hosts_usd_per_month: None,
                anf_usd_per_month: None,
                total_usd_per_month: None,
                vsan_alone_hosts: None,
                vsan_alone_usd_per_month: None,
                note: err.to_string(),
            },
        })
        .collect()
}

fn feasible_row(e: &SkuEstate, chosen: bool, hours: f64, estate: &EstateOptions) -> SkuAlternative {
    let (prices, term) = (&estate.host_prices, estate.host_term);
    let hosts_usd = hosts_cost(e.sizing.hosts, e.host_usd_per_hour, hours);
    SkuAlternative {
        sku: e.sizing.sku.clone(),
        feasible: true,
        chosen,
        hosts: e.sizing.hosts,
        clusters: e.sizing.clusters.len(),
        private_clouds: e.sizing.private_clouds.len(),
        host_usd_per_hour: e.host_usd_per_hour,
        hosts_usd_per_month: hosts_usd,
        anf_usd_per_month: e.anf_usd_per_month(),
        total_usd_per_month: total(e, hours),
        vsan_alone_hosts: e.vsan_alone.as_ref().map(|v| v.hosts),
        vsan_alone_usd_per_month: e
            .vsan_alone
            .as_ref()
            .and_then(|v| hosts_cost(v.hosts, e.host_usd_per_hour, hours)),
        note: if chosen && e.host_usd_per_hour.is_none() {
            format!(
                "chosen: the fewest hosts, as no feasible SKU has a {term} host price ({})",
                prices.missing(term)
            )
        } else if chosen {
            "chosen".into()
        } else if e.sizing.sku == "av64" && e.host_usd_per_hour.is_some() {
            "dearer; AV64 in a Gen 1 private cloud also needs a first cluster of AV36, \
             AV36P or AV52 hosts per private cloud, not counted"
                .into()
        } else if e.host_usd_per_hour.is_none() {
            format!(
                "{}: sized only (its storage not planned, its total not compared; give \
                 `host_price_file`)",
                prices.missing(term)
            )
        } else {
            "dearer".into()
        },
    }
}

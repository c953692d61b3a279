//! Estate plans ([`optimize_estate`]): for each host SKU, the estate's AVS clusters sized
//! from compute ([`crate::sizing::size_estate`]), each cluster's datastores planned with
//! its own hosts and VMs ([`super::optimize_per_cluster`]: reservations bought once for
//! the estate), the pools shared across clusters ([`pools`]), the hosts
//! priced, and the same estate on vSAN alone. The SKU with the lowest total (hosts + ANF)
//! is the plan; every SKU's total is an alternative.
//!
//! The estate's cost is the sum of the clusters' plans (less what the estate's
//! reservations save): pools of Standard, Premium and Ultra are priced per TiB, so sharing
//! them changes no cost, and each cluster's plan is the cheapest for its VMs, hosts and
//! targets.

mod assemble;
mod levels;
mod pools;
mod seed;
mod sku;
mod warnings;

pub(super) use levels::reserved_levels;
pub use sku::EstateOptions;

use std::fmt::Write as _;

use super::milp::round_cents;
use super::one_cluster::cluster_cost;
use super::threads::in_threads;
use super::{OptimizeError, OptimizeOptions, optimize_per_cluster};
use crate::catalog::{Catalog, ReservationTerm};
use crate::demand::{ClusterDemand, ClusterDemands, Demand, ExclusionReason};
use crate::perf::PerfModel;
use crate::plan::{ClusterPlans, EstatePlan, SkuAlternative};
use crate::sizing::{
    Driver, EstateSizing, SizingError, VmGroups, fitting_no_host, size_groups, vsan_alone,
};
use crate::vsan::{HostSku, VsanCatalog};
use sku::{SkuEstate, total};

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
    let skus = candidate_skus(vsan_catalog, estate)?;
    let reduced = without_oversized_vms(demand, &skus, vsan_catalog, estate)?;
    let demand = reduced.as_ref().map_or(demand, |(d, _)| d);
    // The targets and the required capacity are checked before any SKU is sized.
    super::run::base_targets(demand, &demand.options.io_profile)?;
    let mut tried = size_in_parallel(demand, vsan_catalog, estate, skus)?;
    let hours = catalog.limits.hours_per_month;
    let ctx = StorageContext {
        vsan_catalog,
        demand,
        catalog,
        model,
        options,
        estate,
    };
    let priced = sized(&tried, Some(hours));
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
        for i in sized(&tried, None) {
            let costs = ctx.cost_in_parallel(&mut tried, &[i]);
            apply_costs(&mut tried, costs)?;
            let results = ctx.plan_in_parallel(&tried, &[i]);
            apply_storage(&mut tried, results)?;
            if has_storage(&tried[i]) {
                break;
            }
        }
    }
    let Some(chosen) = choose(&tried, hours) else {
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

/// The feasible SKUs without a storage plan: those whose hosts are all priced (with
/// `Some(hours)` per month, in catalog order), or all of them by fewest hosts.
fn sized(tried: &[Tried], priced: Option<f64>) -> Vec<usize> {
    let mut out: Vec<(u32, usize)> = tried
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tried::Feasible(e)
                if e.storage.is_none()
                    && priced.is_none_or(|h| e.hosts_usd_per_month(h).is_some()) =>
            {
                Some((e.sizing.hosts, i))
            }
            _ => None,
        })
        .collect();
    if priced.is_none() {
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
    let vsan_alone = vsan_alone_of(demand, vsan_catalog, estate, &sizing)?;
    Ok(Tried::Feasible(Box::new(SkuEstate {
        sizing,
        storage: None,
        anf_costed_usd_per_month: None,
        split: None,
        vsan_alone,
        host_usd_per_hour: prices.get(&host.sku).copied(),
        prices,
        first_cluster_skus: host.first_cluster_skus().map(str::to_string).collect(),
    })))
}

/// The estate of `sizing` on vSAN alone, when compared: each cluster keeps its compute
/// hosts and its own SKU.
fn vsan_alone_of(
    demand: &Demand,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    sizing: &EstateSizing,
) -> Result<Option<crate::sizing::VsanAlone>, OptimizeError> {
    let Some(o) = &estate.vsan else {
        return Ok(None);
    };
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
    Ok(Some(vsan_alone(vsan_catalog, sizing, &data, o)?))
}

/// What every SKU's storage plan shares.
#[derive(Clone, Copy)]
struct StorageContext<'a> {
    /// The host SKUs and the AVS cluster and private-cloud limits.
    vsan_catalog: &'a VsanCatalog,
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
    ) -> Vec<(usize, Result<ClusterPlans, OptimizeError>)> {
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

    /// The ANF cost of one SKU's clusters, USD per month; a cluster whose datastores
    /// need more hosts than its compute (its share of the IOPS and MiB/s targets) is
    /// raised to the fewest that meet them ([`Driver::Storage`]); the clusters are packed
    /// into private clouds again, each with its first cluster (the management reservation;
    /// for AV64 in a Gen 1 private cloud, one of its clusters moved to the cheapest first
    /// cluster SKU where that is cheaper than an added one, [`seed`]), and a cluster whose
    /// hosts that changed is costed again at its final hosts. The clusters' demands are
    /// kept for the SKU's storage plan (with the final hosts).
    fn cost(&self, e: &mut SkuEstate) -> Result<f64, OptimizeError> {
        let own_targets = self.estate.targets_from_perf;
        let mut split = cluster_demands(self.demand, &e.sizing, self.vsan_catalog, own_targets);
        // Each cluster's datastores are searched from its hosts without the reservation.
        let mut costed = Vec::with_capacity(split.clusters.len());
        for c in &mut split.clusters {
            let i = cluster_index(&e.sizing, &c.cluster).ok_or_else(|| lost(&c.cluster))?;
            let own = e.sizing.clusters[i].hosts_without_management();
            c.source_hosts = Some(own);
            let (hosts, cost) = self.hosts_for_storage(c)?;
            if hosts > own {
                e.sizing.raise_for_storage(i, hosts);
            }
            costed.push((hosts, cost));
        }
        e.sizing.assign_private_clouds(&self.vsan_catalog.limits);
        self.convert_first_clusters(e, &mut split, &mut costed)?;
        let mut sum = 0.0;
        for (c, (hosts, cost)) in split.clusters.iter_mut().zip(costed) {
            let i = cluster_index(&e.sizing, &c.cluster).ok_or_else(|| lost(&c.cluster))?;
            let cluster = &e.sizing.clusters[i];
            c.source_hosts = Some(cluster.hosts);
            c.hosts_source = hosts_source(cluster);
            sum += if cluster.hosts == hosts {
                cost
            } else {
                cluster_cost(
                    c,
                    self.catalog,
                    self.model,
                    self.options,
                    Some(cluster.hosts),
                )?
            };
        }
        e.vsan_alone = vsan_alone_of(self.demand, self.vsan_catalog, self.estate, &e.sizing)?;
        e.split = Some(split);
        Ok(round_cents(sum))
    }

    /// The cluster's hosts for its datastores, and the cost there: the fewest hosts `h` at
    /// which the datastores meet the cluster's targets, searched from its compute hosts
    /// less the HA reserve (at least the AVS minimum); when `h` is above that start, the
    /// cluster gets `h` + the HA reserve (so the targets hold with a host down), at most
    /// the AVS maximum; else it keeps its compute hosts.
    ///
    /// # Errors
    /// The error at the AVS maximum when no host count meets the targets; any other error.
    fn hosts_for_storage(&self, c: &ClusterDemand) -> Result<(u32, f64), OptimizeError> {
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

    /// The storage plan of one SKU's clusters.
    fn plan(&self, e: &SkuEstate) -> Result<ClusterPlans, OptimizeError> {
        let built;
        let split = match &e.split {
            Some(s) => s,
            None => {
                let own_targets = self.estate.targets_from_perf;
                built = cluster_demands(self.demand, &e.sizing, self.vsan_catalog, own_targets);
                &built
            }
        };
        let mut plans = optimize_per_cluster(split, self.catalog, self.model, self.options, None)?;
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
        Ok(plans)
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
    results: Vec<(usize, Result<ClusterPlans, OptimizeError>)>,
) -> Result<(), OptimizeError> {
    for (i, result) in results {
        let Some(Tried::Feasible(e)) = tried.get_mut(i) else {
            continue;
        };
        match result {
            Ok(s) => e.storage = Some(s),
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

/// The error for a cluster of the split the sizing no longer has (a bug).
fn lost(name: &str) -> OptimizeError {
    OptimizeError::Solver(format!(
        "AVS cluster '{name}' lost between sizing and costing"
    ))
}

/// The index of the cluster named `name` in `sizing`.
fn cluster_index(sizing: &EstateSizing, name: &str) -> Option<usize> {
    sizing.clusters.iter().position(|c| c.name == name)
}

/// One demand per AVS cluster with VMs: its VMs, its capacity share of the estate's
/// targets (or, with `own_targets`, its VMs' per-VM figures added up), and its SKU's
/// performance system (`perf_system` in `data/avs_hosts.csv`).
fn cluster_demands(
    demand: &Demand,
    sizing: &EstateSizing,
    vsan_catalog: &VsanCatalog,
    own_targets: bool,
) -> ClusterDemands {
    let total = demand.placed_capacity_gib;
    let with_vms = || sizing.clusters.iter().filter(|c| !c.management_only);
    let n = with_vms().count().max(1) as f64;
    let clusters = with_vms()
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
            ClusterDemand {
                cluster: c.name.clone(),
                demand: d,
                capacity_share: share,
                source_hosts: Some(c.hosts),
                hosts_source: hosts_source(c),
                perf_system: crate::sizing::find_sku(vsan_catalog, &c.sku)
                    .ok()
                    .map(|h| h.perf_system.clone()),
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
    let mut out = compute_source(c);
    if let Some(r) = &c.management {
        let _ = write!(
            out,
            "; first cluster of {}: the management reservation ({} cores = {} vCPU, {} GiB) \
             {}",
            c.private_cloud,
            r.cores,
            crate::numbers::show_number(r.vcpus),
            crate::numbers::group_thousands(r.memory_gib, 1),
            match r.added_hosts {
                0 => "fits its hosts".to_string(),
                1 => "adds 1 host".to_string(),
                n => format!("adds {n} hosts"),
            }
        );
    }
    out
}

/// Where a cluster's host count comes from, in words, without the management reservation.
fn compute_source(c: &crate::sizing::AvsCluster) -> String {
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
    let feasible = tried.iter().enumerate().filter_map(|(i, t)| match t {
        Tried::Feasible(e) if e.anf_usd_per_month().is_some() => Some((i, e)),
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
    let hosts_usd = e.hosts_usd_per_month(hours);
    let first = seed::first_cluster_note(e)
        .map(|n| format!("; {n}"))
        .unwrap_or_default();
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
        vsan_alone_usd_per_month: e.vsan_alone_usd_per_month(hours),
        note: if chosen && hosts_usd.is_none() && e.host_usd_per_hour.is_some() {
            format!(
                "chosen; {}{first}",
                seed::unpriced_first_cluster(e, prices, term)
            )
        } else if chosen && hosts_usd.is_none() {
            format!(
                "chosen: the fewest hosts, as no feasible SKU has a {term} host price ({}){first}",
                prices.missing(term)
            )
        } else if chosen {
            format!("chosen{first}")
        } else if e.host_usd_per_hour.is_none() {
            format!(
                "{}: sized only (its storage not planned, its total not compared; give \
                 `host_price_file`)",
                prices.missing(term)
            )
        } else if hosts_usd.is_none() {
            format!(
                "{}: sized only (its storage not planned, its total not compared){first}",
                seed::unpriced_first_cluster(e, prices, term)
            )
        } else {
            format!("dearer{first}")
        },
    }
}

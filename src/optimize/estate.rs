//! Estate plans ([`optimize_estate`]): for each host SKU, the estate's AVS clusters sized
//! from compute ([`crate::sizing::size_estate`]), each cluster's datastores planned with
//! its own hosts and VMs ([`super::optimize_per_cluster`]: reservations bought once for
//! the estate), the pools shared across clusters ([`super::estate_pools`]), the hosts
//! priced, and the same estate on vSAN alone. The SKU with the lowest total (hosts + ANF)
//! is the plan; every SKU's total is an alternative.
//!
//! The estate's cost is the sum of the clusters' plans (less what the estate's
//! reservations save): pools of Standard, Premium and Ultra are priced per TiB, so sharing
//! them changes no cost, and each cluster's plan is the cheapest for its VMs, hosts and
//! targets.

use super::estate_pools::{account_warnings, share_pools};
use super::{OptimizeError, OptimizeOptions, optimize_per_cluster};
use crate::catalog::{Catalog, ReservationTerm};
use crate::demand::{ClusterDemand, ClusterDemands, Demand, ExclusionReason};
use crate::numbers::group_thousands as g;
use crate::perf::PerfModel;
use crate::plan::{
    Assumption, ClusterPlans, EstatePlan, EstateSummary, HostsByDriver, SCHEMA_VERSION,
    SkuAlternative, VsanAloneCost,
};
use crate::sizing::{
    Driver, EstateSizing, Grouping, HostPrices, HostTerm, SizingError, SizingOptions, VsanAlone,
    fitting_no_host, size_estate, vsan_alone,
};
use crate::vsan::{HostSku, VsanCatalog, VsanOptions};

/// The settings of an estate plan beyond the optimizer's.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EstateOptions {
    /// How hosts are sized and VMs grouped.
    pub sizing: SizingOptions,
    /// Only this host SKU (`None`: every SKU of `data/avs_hosts.csv`, the cheapest total
    /// chosen).
    pub host_sku: Option<String>,
    /// How hosts are bought.
    pub host_term: HostTerm,
    /// Host prices.
    pub host_prices: HostPrices,
    /// The vSAN-alone comparison's settings (`None`: not compared).
    pub vsan: Option<VsanOptions>,
    /// Each cluster's targets are its own VMs' per-VM figures (the estate's targets came
    /// from them), not its capacity share of the estate's targets.
    pub targets_from_perf: bool,
}

/// One SKU's estate: its sizing, and its storage plan when planned.
struct SkuEstate {
    sizing: EstateSizing,
    /// The clusters' storage plans (only SKUs whose total can be compared are planned).
    storage: Option<ClusterPlans>,
    vsan_alone: Option<VsanAlone>,
    host_usd_per_hour: Option<f64>,
}

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
    let ctx = StorageContext {
        demand,
        catalog,
        model,
        options,
        estate,
    };
    let priced = sized(&tried, true);
    let results = ctx.plan_in_parallel(&tried, &priced);
    apply_storage(&mut tried, results)?;
    if !tried.iter().any(has_storage) {
        for i in sized(&tried, false) {
            let results = ctx.plan_in_parallel(&tried, &[i]);
            apply_storage(&mut tried, results)?;
            if has_storage(&tried[i]) {
                break;
            }
        }
    }
    let hours = catalog.limits.hours_per_month;
    let Some(chosen) = choose(&tried, hours) else {
        return Err(first_error(tried));
    };
    let alternatives = sku_alternatives(&tried, chosen, hours, estate.host_term);
    let Some(Tried::Feasible(best)) = tried.into_iter().nth(chosen) else {
        return Err(OptimizeError::Solver("chosen SKU lost".into()));
    };
    let mut plan = assemble(
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
    std::thread::scope(|scope| {
        let handles: Vec<_> = skus
            .into_iter()
            .map(|host| scope.spawn(move || size_sku(demand, vsan_catalog, estate, host)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(OptimizeError::Solver("a sizing thread panicked".into()))
                })
            })
            .collect()
    })
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

fn has_storage(t: &Tried) -> bool {
    matches!(t, Tried::Feasible(e) if e.storage.is_some())
}

/// One SKU sized (hosts, clusters, private clouds, vSAN alone and the host price), or why
/// no estate can be built on it.
fn size_sku(
    demand: &Demand,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    host: &HostSku,
) -> Result<Tried, OptimizeError> {
    let sizing = match size_estate(demand, host, &vsan_catalog.limits, &estate.sizing) {
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
        vsan_alone,
        host_usd_per_hour,
    })))
}

/// What every SKU's storage plan shares.
#[derive(Clone, Copy)]
struct StorageContext<'a> {
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
        std::thread::scope(|scope| {
            let handles: Vec<_> = which
                .iter()
                .filter_map(|&i| match tried.get(i) {
                    Some(Tried::Feasible(e)) => {
                        let sizing = &e.sizing;
                        Some((i, scope.spawn(move || self.plan(sizing))))
                    }
                    _ => None,
                })
                .collect();
            handles
                .into_iter()
                .map(|(i, h)| {
                    let result = h.join().unwrap_or_else(|_| {
                        Err(OptimizeError::Solver(
                            "a storage planning thread panicked".into(),
                        ))
                    });
                    (i, result)
                })
                .collect()
        })
    }

    /// The storage plan of one SKU's clusters.
    fn plan(&self, sizing: &EstateSizing) -> Result<ClusterPlans, OptimizeError> {
        let split = cluster_demands(self.demand, sizing, self.estate.targets_from_perf);
        optimize_per_cluster(&split, self.catalog, self.model, self.options, None)
    }
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
            ClusterDemand {
                cluster: c.name.clone(),
                demand: d,
                capacity_share: share,
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

/// Hosts' monthly cost: hosts x USD per hour x hours per month, in cents.
fn hosts_cost(hosts: u32, usd_per_hour: Option<f64>, hours: f64) -> Option<f64> {
    usd_per_hour.map(|p| round_cents(f64::from(hosts) * p * hours))
}

fn round_cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Hosts + ANF of a feasible SKU, USD per month, where the host price is known.
fn total(e: &SkuEstate, hours: f64) -> Option<f64> {
    let anf = e.storage.as_ref()?.total.cost_usd_per_month;
    hosts_cost(e.sizing.hosts, e.host_usd_per_hour, hours).map(|h| round_cents(h + anf))
}

/// The index of the chosen SKU: the lowest total among priced SKUs (ties: fewer hosts,
/// then catalog order); without any price, the fewest hosts. `None` when none is feasible.
fn choose(tried: &[Tried], hours: f64) -> Option<usize> {
    let feasible = tried.iter().enumerate().filter_map(|(i, t)| match t {
        Tried::Feasible(e) if e.storage.is_some() => Some((i, e)),
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
    term: HostTerm,
) -> Vec<SkuAlternative> {
    tried
        .iter()
        .enumerate()
        .map(|(i, t)| match t {
            Tried::Feasible(e) => feasible_row(e, i == chosen, hours, term),
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

fn feasible_row(e: &SkuEstate, chosen: bool, hours: f64, term: HostTerm) -> SkuAlternative {
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
        anf_usd_per_month: e.storage.as_ref().map(|s| s.total.cost_usd_per_month),
        total_usd_per_month: total(e, hours),
        vsan_alone_hosts: e.vsan_alone.as_ref().map(|v| v.hosts),
        vsan_alone_usd_per_month: e
            .vsan_alone
            .as_ref()
            .and_then(|v| hosts_cost(v.hosts, e.host_usd_per_hour, hours)),
        note: if chosen && e.host_usd_per_hour.is_none() {
            format!("chosen: the fewest hosts (no SKU has a {term} host price)")
        } else if chosen {
            "chosen".into()
        } else if e.host_usd_per_hour.is_none() {
            format!(
                "no {} {term} host price in data/ or `host_price_file`: sized only (its \
                 storage not planned, its total not compared)",
                e.sizing.sku
            )
        } else {
            "dearer".into()
        },
    }
}

/// The estate plan of the chosen SKU.
fn assemble(
    demand: &Demand,
    catalog: &Catalog,
    vsan_catalog: &VsanCatalog,
    options: &OptimizeOptions,
    estate: &EstateOptions,
    mut best: SkuEstate,
    sku_alternatives: Vec<SkuAlternative>,
) -> Result<EstatePlan, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    let Some(mut storage) = best.storage.take() else {
        return Err(OptimizeError::Solver(
            "the chosen SKU has no storage plan".into(),
        ));
    };
    let pools = share_pools(&mut storage, &catalog.limits);
    let mut warnings = best.sizing.warnings.clone();
    if let Some(p) = estate.host_prices.price(&best.sizing.sku, estate.host_term) {
        warnings.extend(price_region_warning(p, &prices.region));
    }
    if best.host_usd_per_hour.is_none() {
        warnings.push(crate::inventory::Warning::plan_wide(format!(
            "no host price for {} bought `host_term` {}: the SKU with the fewest hosts is \
             shown, the host cost and the saving against vSAN alone are unknown (give \
             `host_price_file`)",
            best.sizing.sku, estate.host_term
        )));
    }
    warnings.extend(account_warnings(&pools, &catalog.limits, &prices.region));
    if options.reservation != ReservationTerm::None && storage.reservations.is_empty() {
        warnings.push(crate::inventory::Warning::plan_wide(format!(
            "`reservation` {}: nothing bought: reservations cover the hot tier of Standard, \
             Premium and Ultra (data/reservations.csv; none for Flexible), and no level's \
             hot TiB in the estate makes a unit pay",
            options.reservation
        )));
    }
    warnings.extend(grouping_hint(demand, vsan_catalog, estate, &best.sizing)?);
    let hours = catalog.limits.hours_per_month;
    let vsan_alone = best.vsan_alone.take().map(|sizing| {
        let usd = hosts_cost(sizing.hosts, best.host_usd_per_hour, hours);
        VsanAloneCost {
            note: vsan_note(&sizing, vsan_catalog),
            usd_per_month: usd,
            usd_per_year: usd.map(|m| round_cents(12.0 * m)),
            sizing,
        }
    });
    let parts = (&best, &storage, pools.as_slice());
    let summary = summary(demand, parts, vsan_alone.as_ref(), estate, hours);
    Ok(EstatePlan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        summary,
        assumptions: assumptions(estate, vsan_catalog),
        sizing: best.sizing,
        sku_alternatives,
        pools,
        reservations: storage.reservations,
        vsan_alone,
        clusters: storage.clusters,
        excluded: demand.excluded.clone(),
        warnings,
    })
}

/// With source-cluster grouping, a hint when packing the estate (`group` estate) would
/// need fewer hosts on the same SKU: small source clusters each take a 3-host cluster.
///
/// # Errors
/// A sizing error of the estate grouping (the same settings already sized the estate).
fn grouping_hint(
    demand: &Demand,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    sizing: &EstateSizing,
) -> Result<Option<crate::inventory::Warning>, OptimizeError> {
    if estate.sizing.group != Grouping::SourceCluster {
        return Ok(None);
    }
    let host = crate::sizing::find_sku(vsan_catalog, &sizing.sku)?;
    let packed = SizingOptions {
        group: Grouping::Estate,
        ..estate.sizing.clone()
    };
    let other = size_estate(demand, host, &vsan_catalog.limits, &packed)?;
    if other.hosts >= sizing.hosts {
        return Ok(None);
    }
    let minimum = sizing
        .clusters
        .iter()
        .filter(|c| c.driver == Driver::Minimum)
        .count();
    let why = if minimum > 0 {
        format!(
            "{minimum} of the {} AVS clusters are at the 3-host minimum; ",
            sizing.clusters.len()
        )
    } else {
        String::new()
    };
    Ok(Some(crate::inventory::Warning::plan_wide(format!(
        "{why}`group` estate packs the VMs into {} cluster(s) of {} {} hosts in all instead \
         of {} (the source clusters' VMs then share AVS clusters)",
        other.clusters.len(),
        g(f64::from(other.hosts), 0),
        sizing.sku,
        g(f64::from(sizing.hosts), 0)
    ))))
}

/// A warning when the chosen host price is another region's, or names no region.
fn price_region_warning(
    p: &crate::sizing::HostPrice,
    region: &str,
) -> Option<crate::inventory::Warning> {
    let whose = if p.region.is_empty() {
        "names no region, so whose price it is is unknown".to_string()
    } else if p.region != region {
        format!("is {}'s, not {region}'s", p.region)
    } else {
        return None;
    };
    Some(crate::inventory::Warning::plan_wide(format!(
        "the {} host price ({} USD per host-hour, {}) {whose}: AVS prices differ by region; \
         give `host_price_file` with {region}'s price",
        p.sku, p.usd_per_hour, p.source
    )))
}

/// The vSAN-alone figures' basis, in words.
fn vsan_note(v: &VsanAlone, c: &VsanCatalog) -> String {
    format!(
        "each AVS cluster keeps its compute hosts and grows until its VMs' data (after \
         growth and snapshot reserve) fits its vSAN: policy by cluster size, {}% slack, \
         dedup {}:1 (data/vsan_policies.csv, data/avs_hosts.csv raw capacity); clusters of \
         {}..{} hosts, {} clusters and {} hosts per private cloud (data/limits.csv)",
        v.slack_pct,
        v.dedup_ratio,
        c.limits.min_hosts_per_cluster,
        c.limits.max_hosts_per_cluster,
        c.limits.max_clusters_per_private_cloud,
        c.limits.max_hosts_per_private_cloud
    )
}

/// The estate in figures.
fn summary(
    demand: &Demand,
    (e, storage, pools): (&SkuEstate, &ClusterPlans, &[crate::plan::EstatePool]),
    vsan: Option<&VsanAloneCost>,
    estate: &EstateOptions,
    hours: f64,
) -> EstateSummary {
    let mut by = HostsByDriver::default();
    for c in &e.sizing.clusters {
        let slot = match c.driver {
            Driver::Vcpu => &mut by.vcpu,
            Driver::Memory => &mut by.memory,
            Driver::Minimum => &mut by.minimum,
        };
        *slot += c.hosts;
    }
    let t = &storage.total;
    let hosts_usd = hosts_cost(e.sizing.hosts, e.host_usd_per_hour, hours);
    let total_month = hosts_usd.map(|h| round_cents(h + t.cost_usd_per_month));
    let vsan_usd = vsan.and_then(|v| v.usd_per_month);
    let savings = vsan_usd.zip(total_month).map(|(v, a)| round_cents(v - a));
    // A year of ANF: each cluster's time-phased yearly cost where it has one, else 12
    // months, less the estate's reservations, plus the first month's cool transfer.
    let anf_year: f64 = storage
        .clusters
        .iter()
        .map(|c| {
            c.plan
                .time_phased
                .as_ref()
                .map_or(12.0 * c.plan.totals.cost_usd_per_month, |tp| {
                    tp.yearly_cost_usd
                })
        })
        .sum::<f64>()
        - 12.0 * t.reservation_savings_usd_per_month
        + t.first_month_cool_transfer_usd;
    let total_year = hosts_usd.map(|h| round_cents(12.0 * h + anf_year));
    EstateSummary {
        sku: e.sizing.sku.clone(),
        hosts: e.sizing.hosts,
        hosts_by_driver: by,
        clusters: e.sizing.clusters.len(),
        private_clouds: e.sizing.private_clouds.len(),
        pools: pools.len(),
        netapp_accounts: pools
            .iter()
            .map(|p| p.account.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len() as u32,
        datastores: t.datastores,
        pool_size_tib: pools.iter().map(|p| p.size_tib).sum(),
        vms_placed: demand.placed.len(),
        vms_excluded: demand.excluded.len(),
        placed_capacity_gib: demand.placed_capacity_gib,
        host_term: estate.host_term,
        host_usd_per_hour: e.host_usd_per_hour,
        host_price_source: estate
            .host_prices
            .price(&e.sizing.sku, estate.host_term)
            .map(|p| p.source.clone()),
        hosts_usd_per_month: hosts_usd,
        anf_usd_per_month: t.cost_usd_per_month,
        total_usd_per_month: total_month,
        total_usd_per_year: total_year,
        first_month_cool_transfer_usd: t.first_month_cool_transfer_usd,
        vsan_alone_hosts: vsan.map(|v| v.sizing.hosts),
        vsan_alone_usd_per_month: vsan_usd,
        savings_usd_per_month: savings,
        savings_usd_per_year: vsan_usd
            .zip(total_year)
            .map(|(v, y)| round_cents(12.0 * v - y)),
    }
}

/// The sizing settings and rules, for the reader.
fn assumptions(estate: &EstateOptions, c: &VsanCatalog) -> Vec<Assumption> {
    let s = &estate.sizing;
    let a = |name: &str, value: String, note: &str| Assumption {
        name: name.into(),
        value,
        note: note.into(),
    };
    vec![
        a(
            "vcpu_per_core",
            s.vcpu_per_core.to_string(),
            "vCPUs per physical core; 4 is the AVS TCO estimator's and the Azure Migrate AVS \
             assessment's default (concepts-azure-vmware-solution-assessment-calculation, \
             2024-12-06)",
        ),
        a(
            "memory_basis",
            s.memory_basis.to_string(),
            "configured memory (vInfo Memory) or consumed (vMemory Consumed)",
        ),
        a(
            "memory_overcommit",
            s.memory_overcommit.to_string(),
            "host memory counted this many times",
        ),
        a(
            "host_memory",
            format!("RAM less {} GB", c.limits.esxi_memory_gb),
            "memory a host offers VMs: its RAM (data/avs_hosts.csv, published in GB, read as \
             decimal GB, the lower figure) less an ESXi node's typical 48 GB (VMkernel, vSAN, \
             NSX; data/limits.csv); the management VMs' reservation in each private cloud's \
             first cluster (46 GHz, 171.88 GB, concepts-private-clouds-clusters 2025-08-14) is \
             not subtracted",
        ),
        a(
            "ha_hosts",
            s.ha_hosts.to_string(),
            "hosts per cluster kept free for vSphere HA: AVS configures each cluster for n+1 \
             (concepts-private-clouds-clusters, 2025-08-14)",
        ),
        a(
            "group",
            s.group.to_string(),
            "source-cluster: each source cluster becomes one or more AVS clusters of 3..16 \
             hosts; estate: all VMs in as few clusters as possible",
        ),
        a(
            "host_term",
            estate.host_term.to_string(),
            "how hosts are bought; built-in prices are pay as you go only (AVS + ANF TCO \
             estimator defaults, East US, data/avs_hosts.csv): other terms need \
             `host_price_file`",
        ),
    ]
}

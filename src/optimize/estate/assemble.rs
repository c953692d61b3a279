//! The estate plan of the chosen SKU and design ([`assemble`]): shared pools, warnings
//! (quota, accounts, an unused reservation, a host price of another region, a grouping
//! that would need fewer hosts), the summary with the year's cost, the host price in words
//! and the vSAN-alone saving, the designs side by side ([`super::outcome`]) and the sizing
//! assumptions.

use super::baseline::Baselines;
use super::cost::{Costing, DesignCost, year};
use super::designs::plan_sizing;
use super::pools::PoolSizing;
use super::sku::{EstateOptions, SkuEstate, Storage, sku_hosts};
use super::utilisation::{Parts as UseParts, fill_utilisation, performance};
use super::warnings::estate_warnings;
use crate::catalog::Catalog;
use crate::demand::{Demand, ExclusionReason};
use crate::numbers::group_thousands;
use crate::optimize::milp::round_cents;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{
    Assumption, ClusterPlans, Design, EstatePerformance, EstatePlan, EstateSummary, GatewayLine,
    HostsByDriver, LeftOut, LeftOutReason, SCHEMA_VERSION, SkuAlternative, Utilisation,
    VsanAloneCost,
};
use crate::sizing::{Driver, EstateSizing, VsanAlone};
use crate::vsan::VsanCatalog;

/// The estate plan of the chosen SKU on its design.
pub(super) fn assemble(
    (demand, catalog, vsan_catalog): (&Demand, &Catalog, &VsanCatalog),
    options: &OptimizeOptions,
    estate: &EstateOptions,
    (mut best, baselines): (SkuEstate, Baselines),
    (skus, gateway): (Vec<SkuAlternative>, GatewayLine),
) -> Result<EstatePlan, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    let design = best.design;
    let Some(cost) = best.cost(design).cloned() else {
        return Err(OptimizeError::Solver("the chosen SKU is not costed".into()));
    };
    // A hybrid that is vSAN alone is sized as vSAN alone and plans nothing on ANF.
    let (sized_as, storage) = if cost.collapsed {
        (Design::Vsan, None)
    } else {
        (design, best.planned.remove(&design))
    };
    let hours = catalog.limits.hours_per_month;
    let at = Costing {
        limits: &vsan_catalog.limits,
        hours,
    };
    let mut sizing = plan_sizing(&best, sized_as, at);
    if cost.vms_anf > 0 && storage.is_none() {
        return Err(OptimizeError::Solver(
            "the chosen design has no storage plan".into(),
        ));
    }
    let (storage, pools) = match storage {
        Some(Storage { plans, pools }) => (Some(plans), pools),
        None => (None, Vec::new()),
    };
    let warnings = estate_warnings(
        demand,
        (catalog, vsan_catalog),
        options,
        estate,
        (&best, &sizing, storage.as_ref(), &pools),
    )?;
    // vSAN alone on its cheapest priced SKU (this SKU's where none is priced).
    let (vsan_usd, vsan_estate) = match &baselines.vsan {
        Some(b) => (Some(b.usd_per_month), b.vsan_alone.clone()),
        None => (
            best.vsan_alone_usd_per_month(hours),
            best.vsan_alone.clone(),
        ),
    };
    let vsan_alone = vsan_estate.map(|mut v| {
        // Against the plan's hosts, which storage performance may have raised.
        v.extra_hosts = v.hosts.saturating_sub(sizing.hosts);
        let usd = vsan_usd;
        VsanAloneCost {
            note: vsan_note(&v, vsan_catalog, demand.options.headroom_pct),
            usd_per_month: usd,
            usd_per_year: usd.map(|m| round_cents(12.0 * m)),
            sizing: v,
        }
    });
    let parts = Parts {
        e: &best,
        cost: &cost,
        sizing: &sizing,
        storage: storage.as_ref(),
        pools: &pools,
    };
    let mut summary = summary(demand, &parts, vsan_alone.as_ref(), estate, hours);
    summary.anf_for_all_sku = baselines.anf.as_ref().map(|b| b.sku.clone());
    summary.anf_for_all_usd_per_month = baselines.anf.as_ref().map(|b| b.usd_per_month);
    let used: Vec<&str> = super::sku::sku_hosts(&sizing).map(|(s, _)| s).collect();
    summary.host_price_note = host_price_note(estate, (&best.sizing.sku, &used), &skus);
    let designs = super::outcome::designs(
        (&best, &baselines),
        (demand, vsan_catalog, estate),
        (&summary, storage.as_ref()),
        hours,
        gateway,
    )?;
    let on_vsan = sized_as == Design::Vsan;
    summary.utilisation = fill_utilisation(
        &mut sizing,
        &UseParts {
            vsan_catalog,
            sizing_options: &estate.sizing,
            designs: &designs,
            on_vsan_alone: on_vsan,
            storage: storage.as_ref(),
            pools: &pools,
        },
    );
    let data = cost.vsan_gib + cost.anf_gib;
    let vsan_pct = if data > 0.0 {
        100.0 * cost.vsan_gib / data
    } else {
        0.0
    };
    let vsan = (cost.delivers.vsan, &designs, &sizing);
    summary.performance = performance(demand, options, storage.as_ref(), vsan, (on_vsan, vsan_pct));
    let mut assumptions = assumptions(estate, vsan_catalog, &sizing);
    assumptions.extend(super::outcome::assumptions(
        design,
        estate,
        vsan_catalog,
        options,
    ));
    assumptions.extend(pool_sizing_assumption(
        cost.pool_sizing.filter(|_| !cost.collapsed),
    ));
    if let Some(v) = &estate.vsan {
        let rows = v.assumption_rows().into_iter();
        assumptions.extend(rows.map(|(name, value, note)| Assumption {
            name: name.into(),
            value,
            note,
        }));
    }
    let (reservations, clusters) =
        storage.map_or_else(Default::default, |s| (s.reservations, s.clusters));
    Ok(EstatePlan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        summary,
        assumptions,
        sizing,
        sku_alternatives: skus,
        pools,
        reservations,
        vsan_alone,
        designs: Some(designs),
        clusters,
        excluded: demand.excluded.clone(),
        warnings,
    })
}

/// The chosen design's parts, for the summary.
struct Parts<'a> {
    e: &'a SkuEstate,
    cost: &'a DesignCost,
    sizing: &'a EstateSizing,
    storage: Option<&'a ClusterPlans>,
    pools: &'a [crate::plan::EstatePool],
}

/// The headline's words on the host price of the chosen `sku`, then of every other SKU
/// among `used` (the SKUs of the plan's clusters: its price, or that it has none), then
/// the other feasible SKUs without a price.
fn host_price_note(
    estate: &EstateOptions,
    (sku, used): (&str, &[&str]),
    skus: &[SkuAlternative],
) -> String {
    let prices = &estate.host_prices;
    let mut chosen = prices.describe(sku, estate.host_term);
    let mut named = vec![sku];
    let mut unpriced_used = Vec::new();
    for other in used {
        if named.contains(other) {
            continue;
        }
        named.push(other);
        if prices.price(other, estate.host_term).is_some() {
            chosen.push_str("; ");
            chosen.push_str(&prices.describe(other, estate.host_term));
        } else {
            unpriced_used.push(*other);
        }
    }
    // The plan's own hosts of another SKU (an AV64 estate's first cluster) are named
    // too: both prices are needed before the plan's total is known.
    if !unpriced_used.is_empty() {
        chosen.push_str(&format!(
            "; {} for {} too (the plan has hosts of it)",
            prices.missing(estate.host_term),
            unpriced_used.join(", ")
        ));
    }
    let unpriced: Vec<&str> = skus
        .iter()
        .filter(|a| a.feasible && a.sku != sku && a.host_usd_per_hour.is_none())
        .map(|a| a.sku.as_str())
        .collect();
    match prices.unpriced(&unpriced, estate.host_term) {
        Some(others) => format!("{chosen}; {others}"),
        None => chosen,
    }
}

/// The vSAN-alone figures' basis, in words.
fn vsan_note(v: &VsanAlone, c: &VsanCatalog, headroom_pct: f64) -> String {
    format!(
        "each AVS cluster keeps its compute hosts and grows until its VMs' data (after \
         growth and snapshot reserve) fits its vSAN: policy by cluster size, {}% slack, \
         dedup {}:1 (data/vsan_policies.csv, data/avs_hosts.csv raw capacity), less the raw \
         capacity AVS uses itself: {} GB for the management VMs in the first cluster of each \
         private cloud, {} GB of vSAN system usage in every other (data/limits.csv); \
         {}% headroom on the data as on ANF; with targets, grown until its vSAN also \
         carries its share of the IOPS and MiB/s with a host down (the vsan-<sku> envelopes, \
         built from the hosts' parts: data/vsan_performance.csv); clusters of \
         {}..{} hosts, {} clusters and {} hosts per private cloud (data/limits.csv)",
        v.slack_pct,
        v.dedup_ratio,
        crate::numbers::group_thousands(f64::from(c.limits.vsan_first_cluster_raw_gb), 0),
        crate::numbers::group_thousands(f64::from(c.limits.vsan_cluster_raw_gb), 0),
        headroom_pct,
        c.limits.min_hosts_per_cluster,
        c.limits.max_hosts_per_cluster,
        c.limits.max_clusters_per_private_cloud,
        c.limits.max_hosts_per_private_cloud
    )
}

/// The estate in figures, on its design.
fn summary(
    demand: &Demand,
    p: &Parts,
    vsan: Option<&VsanAloneCost>,
    estate: &EstateOptions,
    hours: f64,
) -> EstateSummary {
    let by = hosts_by_driver(p.sizing);
    let cost = p.cost;
    let sku = &p.e.sizing.sku;
    let hosts_usd = cost.hosts_usd;
    let total_month = cost.total;
    // The design's hosts by SKU: this SKU's vSAN alone's grown clusters (not the
    // cheapest SKU's, `vsan`, which the saving is counted against), else the design's
    // clusters.
    let hosts_by_sku = match &p.e.vsan_alone {
        Some(v) if cost.design == Design::Vsan || cost.collapsed => {
            p.e.hosts_by_sku(v.clusters.iter().map(|c| (c.sku.as_str(), c.hosts)), hours)
        }
        _ => p.e.hosts_by_sku(sku_hosts(p.sizing), hours),
    };
    let total_year = year(cost, p.storage);
    let vsan_usd = vsan.and_then(|v| v.usd_per_month);
    let pools = p.pools;
    EstateSummary {
        design: cost.design,
        sku: sku.clone(),
        hosts: cost.hosts,
        hosts_by_driver: by,
        hosts_by_sku,
        clusters: cost.clusters as usize,
        private_clouds: cost.private_clouds as usize,
        pools: pools.len(),
        netapp_accounts: pools
            .iter()
            .map(|p| p.account.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len() as u32,
        datastores: p.storage.map_or(0, |s| s.total.datastores),
        pool_size_tib: pools.iter().map(|p| p.size_tib).sum(),
        vms_placed: demand.placed.len(),
        vms_excluded: demand.excluded.len(),
        left_out: left_out(demand),
        placed_capacity_gib: demand.placed_capacity_gib,
        host_term: estate.host_term,
        host_usd_per_hour: p.e.host_usd_per_hour,
        host_price_source: estate
            .host_prices
            .price(sku, estate.host_term)
            .map(|p| p.source.clone()),
        host_price_note: String::new(),
        hosts_usd_per_month: hosts_usd,
        anf_usd_per_month: cost.anf_usd,
        gateways: cost.gateways,
        gateway_usd_per_month: cost.gateway_usd,
        total_usd_per_month: total_month,
        total_usd_per_year: total_year,
        first_month_cool_transfer_usd: p
            .storage
            .map_or(0.0, |s| s.total.first_month_cool_transfer_usd),
        vsan_alone_hosts: vsan.map(|v| v.sizing.hosts),
        vsan_alone_sku: vsan.map(|v| v.sizing.sku.clone()),
        vsan_alone_usd_per_month: vsan_usd,
        anf_for_all_sku: None,
        anf_for_all_usd_per_month: None,
        savings_usd_per_month: vsan_usd.zip(total_month).map(|(v, a)| round_cents(v - a)),
        savings_usd_per_year: vsan_usd
            .zip(total_year)
            .map(|(v, y)| round_cents(12.0 * v - y)),
        performance: EstatePerformance::default(),
        utilisation: Utilisation::default(),
    }
}

/// The hosts of `sizing`'s clusters by what drives them: each cluster's compute hosts
/// (vCPU, memory or the AVS minimum, the HA reserve and a first cluster's management
/// reservation included) by its compute driver, the hosts a design added beyond them by
/// why (the datastores' IOPS and MiB/s, data held on vSAN, the vSAN's performance).
fn hosts_by_driver(sizing: &EstateSizing) -> HostsByDriver {
    fn slot(by: &mut HostsByDriver, d: Driver) -> &mut u32 {
        match d {
            Driver::Vcpu => &mut by.vcpu,
            Driver::Memory => &mut by.memory,
            Driver::Minimum => &mut by.minimum,
            Driver::Storage => &mut by.storage,
            Driver::Vsan => &mut by.vsan,
            Driver::VsanPerformance => &mut by.vsan_performance,
        }
    }
    let mut by = HostsByDriver::default();
    for c in &sizing.clusters {
        let compute = c.compute_hosts().min(c.hosts);
        *slot(&mut by, c.compute_driver()) += compute;
        *slot(&mut by, c.driver) += c.hosts - compute;
    }
    by
}

/// What the plan leaves out: its excluded VMs but the duplicates (counted once, with the
/// VM kept), by reason, the most capacity first, with their share of all the capacity.
fn left_out(demand: &Demand) -> LeftOut {
    let mut by: Vec<LeftOutReason> = Vec::new();
    for x in demand
        .excluded
        .iter()
        .filter(|x| x.reason != ExclusionReason::Duplicate)
    {
        let gib = x.capacity_gib.unwrap_or(0.0);
        match by.iter_mut().find(|r| r.reason == x.reason) {
            Some(r) => {
                r.vms += 1;
                r.capacity_gib += gib;
            }
            None => by.push(LeftOutReason {
                reason: x.reason,
                vms: 1,
                capacity_gib: gib,
            }),
        }
    }
    by.sort_by(|a, b| b.capacity_gib.total_cmp(&a.capacity_gib));
    let capacity_gib: f64 = by.iter().map(|r| r.capacity_gib).sum();
    let all = demand.placed_capacity_gib + capacity_gib;
    LeftOut {
        vms: by.iter().map(|r| r.vms).sum(),
        capacity_gib,
        capacity_pct: if all > 0.0 {
            100.0 * capacity_gib / all
        } else {
            0.0
        },
        reasons: by,
    }
}

/// The sizing settings and rules, for the reader.
fn assumptions(estate: &EstateOptions, c: &VsanCatalog, sizing: &EstateSizing) -> Vec<Assumption> {
    let s = &estate.sizing;
    let a = |name: &str, value: String, note: &str| Assumption {
        name: name.into(),
        value,
        note: note.into(),
    };
    let mut out = vec![
        a(
            "vcpu_per_core",
            s.vcpu_per_core.to_string(),
            "vCPUs per physical core; 4 is the Azure Migrate AVS assessment's stated default \
             ('4 vCPU: 1 physical core', concepts-azure-vmware-solution-assessment-calculation, \
             2024-12-06); the AVS + ANF TCO estimator (Azure/azure-netapp-files docs/avs-calc, \
             2025-06-04) sizes an RVTools export by the export's own vHost 'vCPUs per Core' \
             ratio and 600 MHz of demand per vCPU, and uses 4 only as its manual input and \
             override",
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
             decimal GB, the lower figure) less an ESXi node's typical 48 GB (VMkernel, vSAN \
             and NSX overhead: architecture-private-clouds 2025-08-14, include \
             hosts-minimum-initial-deployment-statement 2025-04-02; data/limits.csv)",
        ),
        management_assumption(c, sizing),
        a(
            "ha_hosts",
            s.ha_hosts.to_string(),
            "hosts per cluster kept free for vSphere HA: AVS configures each cluster for n+1 \
             (architecture-private-clouds, 2025-08-14)",
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
            "how hosts are bought; built-in prices are the region's pay-as-you-go list prices \
             of the ANF team's AVS + ANF TCO estimator v6.1, 2025-06-04 \
             (data/avs_host_prices.csv); the AVS reserved-instance page (2024-04-04) lists \
             1- and 3-year terms but no prices: reserved terms need `host_price_file`",
        ),
    ];
    out.extend(first_cluster_assumption(sizing));
    out
}

/// The management reservation, and the hosts it adds to the first clusters.
fn management_assumption(c: &VsanCatalog, sizing: &EstateSizing) -> Assumption {
    let added: Vec<String> = sizing
        .clusters
        .iter()
        .filter_map(|c| c.management.map(|r| (c, r)))
        .filter(|(_, r)| r.added_hosts > 0)
        .map(|(c, r)| format!("{} to {}", r.added_hosts, c.name))
        .collect();
    let effect = if added.is_empty() {
        "it adds no host".to_string()
    } else {
        format!("it adds hosts: {}", added.join(", "))
    };
    Assumption {
        name: "management_reservation".into(),
        value: format!(
            "{} GHz, {} GB",
            c.limits.mgmt_reservation_cpu_ghz, c.limits.mgmt_reservation_memory_gb
        ),
        note: format!(
            "AVS reserves it for its management VMs in Cluster-1 of each private cloud \
             (MGMT-ResourcePool, 'which you can't change': architecture-private-clouds \
             2025-08-14, include hosts-minimum-initial-deployment-statement 2025-04-02; \
             data/limits.csv); counted in each private cloud's first cluster: in the compute \
             sizing the one whose hosts it raises least (ties: the earlier cluster), in each \
             design the one where it costs that design least more (the hosts it adds, and the \
             first cluster's larger vSAN reserve), then adds the fewest hosts; the GHz as \
             whole cores at the SKU's base clock (data/avs_hosts.csv), rounded up, x \
             vcpu_per_core, the GB as decimal GB; {effect}"
        ),
    }
}

/// The first clusters of another SKU (AV64 in a Gen 1 private cloud), when there are any.
fn first_cluster_assumption(sizing: &EstateSizing) -> Option<Assumption> {
    let firsts = super::seed::other_sku_clusters(sizing);
    (!firsts.is_empty()).then(|| Assumption {
        name: "first_cluster".into(),
        value: firsts.join("; "),
        note: format!(
            "{} in a Gen 1 private cloud only expands a private cloud 'built with the existing \
             AV36, AV36P, or AV52 SKU': 'The customer needs to buy a minimum of three nodes of \
             AV36, AV36P, or AV52 SKU before expanding using AV64' (introduction, 2025-12-19; \
             its host table footnote also names AV48, the body text does not: AV48 is left \
             out); each private cloud's first cluster is one of its clusters moved to a priced \
             one of those SKUs when that costs the plan's design less (hosts and ANF, or on \
             vSAN alone its hosts there; each design decides on its own costs), else an added \
             cluster of 3 hosts of the one whose hosts cost least; Gen 2 private clouds deploy \
             AV64 directly (`host_sku` av64-gen2, native-introduction 2025-04-22)",
            sizing.sku.to_ascii_uppercase()
        ),
    })
}

/// How the chosen design's pools are sized (shared pools or one per cluster) and what the
/// other way would cost, when it puts data on ANF.
fn pool_sizing_assumption(sizing: Option<PoolSizing>) -> Option<Assumption> {
    let p = sizing?;
    let (value, chosen, other, other_name) = if p.shared() {
        (
            "shared",
            p.shared_usd_per_month,
            p.own_usd_per_month,
            "a pool per cluster",
        )
    } else {
        (
            "per cluster",
            p.own_usd_per_month,
            p.shared_usd_per_month,
            "shared pools",
        )
    };
    Some(Assumption {
        name: "pool_sizing".into(),
        value: value.into(),
        note: format!(
            "shared: each cluster's Standard, Premium and Ultra datastores are sized in whole \
             GiB (each at least 50 GiB) as a share of a pool shared by the estate's clusters, \
             the pool their quotas rounded up to whole TiB once (\"the sum of volume capacity \
             quotas in a pool can't exceed the pool size\", 1 TiB increments, billed on the \
             provisioned size: azure-netapp-files-cost-model, 2026-06-15), each cluster paying \
             its quota's share; per cluster: each cluster's pool of its own in whole TiB \
             (Flexible pools always are: each includes its own 128 MiB/s). The designs and the \
             hybrid's split price each cluster's share per GiB; the pools' rounding is added to \
             each design's split after, and the cheaper way is planned (pay as you go): the \
             chosen design's ANF {} USD/month, {} USD/month with {other_name}",
            group_thousands(chosen, 2),
            group_thousands(other, 2)
        ),
    })
}

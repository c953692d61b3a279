//! The estate plan of the chosen SKU and design ([`assemble`]): shared pools, warnings
//! (quota, accounts, an unused reservation, a host price of another region, a grouping
//! that would need fewer hosts), the summary with the year's cost and the vSAN-alone
//! saving, the designs side by side ([`super::outcome`]) and the sizing assumptions.

use super::designs::{DesignCost, design_sizing};
use super::pools::share_pools;
use super::sku::{EstateOptions, SkuEstate, hosts_cost};
use super::warnings::estate_warnings;
use crate::catalog::Catalog;
use crate::demand::Demand;
use crate::optimize::milp::round_cents;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{
    Assumption, ClusterPlans, Design, EstatePlan, EstateSummary, GatewayLine, HostsByDriver,
    SCHEMA_VERSION, SkuAlternative, VsanAloneCost,
};
use crate::sizing::{Driver, EstateSizing, VsanAlone};
use crate::vsan::VsanCatalog;

/// The estate plan of the chosen SKU on its design.
pub(super) fn assemble(
    (demand, catalog, vsan_catalog): (&Demand, &Catalog, &VsanCatalog),
    options: &OptimizeOptions,
    estate: &EstateOptions,
    mut best: SkuEstate,
    (skus, gateway): (Vec<SkuAlternative>, GatewayLine),
) -> Result<EstatePlan, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    let design = best.design;
    let Some(cost) = best.cost(design).cloned() else {
        return Err(OptimizeError::Solver("the chosen SKU is not costed".into()));
    };
    // A hybrid that is vSAN alone keeps the compute sizing and plans nothing on ANF.
    let (sized_as, mut storage) = if cost.collapsed {
        (Design::Vsan, None)
    } else {
        (design, best.planned.remove(&design))
    };
    let sizing = design_sizing(&best, sized_as, &vsan_catalog.limits);
    if cost.vms_anf > 0 && storage.is_none() {
        return Err(OptimizeError::Solver(
            "the chosen design has no storage plan".into(),
        ));
    }
    let pools = storage
        .as_mut()
        .map(|s| share_pools(s, &catalog.limits))
        .unwrap_or_default();
    let warnings = estate_warnings(
        demand,
        (catalog, vsan_catalog),
        options,
        estate,
        (&best, &sizing, storage.as_ref(), &pools),
    )?;
    let hours = catalog.limits.hours_per_month;
    let vsan_alone = best.vsan_alone.clone().map(|mut v| {
        // Against the plan's hosts, which storage performance may have raised.
        v.extra_hosts = v.hosts.saturating_sub(sizing.hosts);
        let usd = hosts_cost(v.hosts, best.host_usd_per_hour, hours);
        VsanAloneCost {
            note: vsan_note(&v, vsan_catalog),
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
    let summary = summary(demand, &parts, vsan_alone.as_ref(), estate, hours);
    let designs = super::outcome::designs(
        &best,
        (demand, vsan_catalog, estate),
        &summary,
        hours,
        gateway,
    )?;
    let (reservations, clusters) =
        storage.map_or_else(Default::default, |s| (s.reservations, s.clusters));
    Ok(EstatePlan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        summary,
        assumptions: assumptions(estate, vsan_catalog)
            .into_iter()
            .chain(super::outcome::assumptions(
                design,
                estate,
                vsan_catalog,
                options,
            ))
            .collect(),
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

/// The vSAN-alone figures' basis, in words.
fn vsan_note(v: &VsanAlone, c: &VsanCatalog) -> String {
    format!(
        "each AVS cluster keeps its compute hosts and grows until its VMs' data (after \
         growth and snapshot reserve) fits its vSAN: policy by cluster size, {}% slack, \
         dedup {}:1 (data/vsan_policies.csv, data/avs_hosts.csv raw capacity), less the raw \
         capacity AVS uses itself: {} GB for the management VMs in the first cluster of each \
         private cloud, {} GB of vSAN system usage in every other (data/limits.csv); \
         capacity only: vSAN's own IOPS and MiB/s are not modelled; clusters of \
         {}..{} hosts, {} clusters and {} hosts per private cloud (data/limits.csv)",
        v.slack_pct,
        v.dedup_ratio,
        crate::numbers::group_thousands(f64::from(c.limits.vsan_first_cluster_raw_gb), 0),
        crate::numbers::group_thousands(f64::from(c.limits.vsan_cluster_raw_gb), 0),
        c.limits.min_hosts_per_cluster,
        c.limits.max_hosts_per_cluster,
        c.limits.max_clusters_per_private_cloud,
        c.limits.max_hosts_per_private_cloud
    )
}

/// A year of a design: 12 x its hosts and gateways, and its ANF year ([`anf_year`]; 12 x
/// `anf_usd` when not planned), USD; `None` without the host price.
pub(super) fn year(cost: &DesignCost, storage: Option<&ClusterPlans>) -> Option<f64> {
    let anf = storage.map_or(12.0 * cost.anf_usd, anf_year);
    cost.hosts_usd
        .map(|h| round_cents(12.0 * h + anf + 12.0 * cost.gateway_usd))
}

/// A year of ANF: each cluster's time-phased yearly cost where it has one, else 12 months,
/// less the estate's reservations, plus the first month's cool transfer, USD.
fn anf_year(storage: &ClusterPlans) -> f64 {
    let t = &storage.total;
    storage
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
        + t.first_month_cool_transfer_usd
}

/// The estate in figures, on its design.
fn summary(
    demand: &Demand,
    p: &Parts,
    vsan: Option<&VsanAloneCost>,
    estate: &EstateOptions,
    hours: f64,
) -> EstateSummary {
    let mut by = HostsByDriver::default();
    for c in &p.sizing.clusters {
        let slot = match c.driver {
            Driver::Vcpu => &mut by.vcpu,
            Driver::Memory => &mut by.memory,
            Driver::Minimum => &mut by.minimum,
            Driver::Storage => &mut by.storage,
            Driver::Vsan => &mut by.vsan,
        };
        *slot += c.hosts;
    }
    let cost = p.cost;
    if cost.design == Design::Vsan || cost.collapsed {
        by.vsan += cost.hosts.saturating_sub(p.sizing.hosts);
    }
    let sku = &p.e.sizing.sku;
    let hosts_usd = hosts_cost(cost.hosts, p.e.host_usd_per_hour, hours);
    let total_month = hosts_usd.map(|h| round_cents(h + cost.anf_usd + cost.gateway_usd));
    let total_year = year(cost, p.storage);
    let vsan_usd = vsan.and_then(|v| v.usd_per_month);
    let pools = p.pools;
    EstateSummary {
        design: cost.design,
        sku: sku.clone(),
        hosts: cost.hosts,
        hosts_by_driver: by,
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
        placed_capacity_gib: demand.placed_capacity_gib,
        host_term: estate.host_term,
        host_usd_per_hour: p.e.host_usd_per_hour,
        host_price_source: estate
            .host_prices
            .price(sku, estate.host_term)
            .map(|p| p.source.clone()),
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
        vsan_alone_usd_per_month: vsan_usd,
        savings_usd_per_month: vsan_usd.zip(total_month).map(|(v, a)| round_cents(v - a)),
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

//! The estate plan of the chosen SKU ([`assemble`]): shared pools, warnings (quota,
//! accounts, an unused reservation, a host price of another region, a grouping that would
//! need fewer hosts), the summary with the year's cost, the host price in words and the
//! vSAN-alone saving, and the sizing assumptions.

use super::pools::PoolSizing;
use super::sku::{EstateOptions, SkuEstate, hosts_cost};
use super::utilisation::{cluster_utilisation, estate_utilisation, performance};
use super::warnings::estate_warnings;
use crate::catalog::Catalog;
use crate::demand::Demand;
use crate::numbers::group_thousands as g;
use crate::optimize::milp::round_cents;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{
    Assumption, ClusterPlans, EstatePerformance, EstatePlan, EstateSummary, HostsByDriver,
    SCHEMA_VERSION, SkuAlternative, Utilisation, VsanAloneCost,
};
use crate::sizing::{Driver, VsanAlone};
use crate::vsan::VsanCatalog;

/// The estate plan of the chosen SKU.
pub(super) fn assemble(
    demand: &Demand,
    catalog: &Catalog,
    vsan_catalog: &VsanCatalog,
    options: &OptimizeOptions,
    estate: &EstateOptions,
    mut best: SkuEstate,
    skus: Vec<SkuAlternative>,
) -> Result<EstatePlan, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    let Some(mut storage) = best.storage.take() else {
        return Err(OptimizeError::Solver(
            "the chosen SKU has no storage plan".into(),
        ));
    };
    let pools = std::mem::take(&mut best.pools);
    let warnings = estate_warnings(
        demand,
        catalog,
        vsan_catalog,
        options,
        estate,
        (&best, &storage, &pools),
    )?;
    let hours = catalog.limits.hours_per_month;
    let vsan_alone = best.vsan_alone.take().map(|mut sizing| {
        // Against the ANF plan's hosts, which storage performance may have raised.
        sizing.extra_hosts = sizing.hosts.saturating_sub(best.sizing.hosts);
        let usd = hosts_cost(sizing.hosts, best.host_usd_per_hour, hours);
        VsanAloneCost {
            note: vsan_note(&sizing, vsan_catalog),
            usd_per_month: usd,
            usd_per_year: usd.map(|m| round_cents(12.0 * m)),
            sizing,
        }
    });
    for c in &mut storage.clusters {
        let sized = best.sizing.clusters.iter().find(|s| s.name == c.cluster);
        c.utilisation = sized.map(|s| cluster_utilisation(&best.sizing, s, c));
    }
    let parts = (&best, &storage, pools.as_slice());
    let mut summary = summary(demand, parts, vsan_alone.as_ref(), estate, hours);
    summary.performance = performance(demand, options, &storage);
    summary.utilisation = estate_utilisation(&best.sizing, &storage, &pools);
    summary.host_price_note = host_price_note(estate, &best.sizing.sku, &skus);
    let mut assumptions = assumptions(estate, vsan_catalog);
    assumptions.extend(pool_sizing_assumption(best.pool_sizing));
    if let Some(v) = &estate.vsan {
        let rows = v.assumption_rows().into_iter();
        assumptions.extend(rows.map(|(name, value, note)| Assumption {
            name: name.into(),
            value,
            note,
        }));
    }
    Ok(EstatePlan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        summary,
        assumptions,
        sizing: best.sizing,
        sku_alternatives: skus,
        pools,
        reservations: storage.reservations,
        vsan_alone,
        clusters: storage.clusters,
        excluded: demand.excluded.clone(),
        warnings,
    })
}

/// The headline's words on the host price of the chosen `sku`, then the other feasible
/// SKUs without a price.
fn host_price_note(estate: &EstateOptions, sku: &str, skus: &[SkuAlternative]) -> String {
    let prices = &estate.host_prices;
    let unpriced: Vec<&str> = skus
        .iter()
        .filter(|a| a.feasible && a.sku != sku && a.host_usd_per_hour.is_none())
        .map(|a| a.sku.as_str())
        .collect();
    let chosen = prices.describe(sku, estate.host_term);
    match prices.unpriced(&unpriced, estate.host_term) {
        Some(others) => format!("{chosen}; {others}"),
        None => chosen,
    }
}

/// The vSAN-alone figures' basis, in words.
fn vsan_note(v: &VsanAlone, c: &VsanCatalog) -> String {
    format!(
        "each AVS cluster keeps its compute hosts and grows until its VMs' data (after \
         growth and snapshot reserve) fits its vSAN: policy by cluster size, {}% slack, \
         dedup {}:1 (data/vsan_policies.csv, data/avs_hosts.csv raw capacity); capacity \
         only: vSAN's own IOPS and MiB/s are not modelled; clusters of \
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
            Driver::Storage => &mut by.storage,
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
        host_price_note: String::new(),
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
        performance: EstatePerformance::default(),
        utilisation: Utilisation::default(),
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
            "how hosts are bought; built-in prices are the region's pay-as-you-go list prices \
             of the ANF team's AVS + ANF TCO estimator v6.1, 2025-06-04 \
             (data/avs_host_prices.csv); the AVS reserved-instance page (2024-04-04) lists \
             1- and 3-year terms but no prices: reserved terms need `host_price_file`",
        ),
    ]
}

/// How the pools are sized (shared pools or one per cluster) and what the other way would
/// cost, when the estate was costed both ways.
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
             (Flexible pools always are: each includes its own 128 MiB/s). The cheaper is \
             planned: {} USD/month ANF, {} USD/month with {other_name}",
            g(chosen, 2),
            g(other, 2)
        ),
    })
}

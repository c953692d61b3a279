//! The estate plan's own warnings ([`estate_warnings`]): the sizing's, a host price file's
//! price of another region, or no price, the quota and NetApp accounts over the shared
//! pools, the peak settings and a missing target (once for the estate), no HA reserve, a
//! reservation that buys nothing, and a grouping that would need fewer hosts. (AV64's
//! first cluster of another SKU in a Gen 1 private cloud is counted, and stated in the
//! assumptions.)

use super::pools::account_warnings;
use super::sku::{EstateOptions, SkuEstate};
use crate::catalog::{Catalog, ReservationTerm};
use crate::demand::Demand;
use crate::inventory::{Warning, WarningKind};
use crate::numbers::group_thousands as g;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{ClusterPlans, EstatePool};
use crate::sizing::{
    Driver, EstateSizing, Grouping, HostPrice, HostPrices, SizingOptions, size_estate,
};
use crate::vsan::VsanCatalog;

/// The estate plan's warnings, in the order above.
///
/// # Errors
/// A catalog error for the plan's region (a bug: it was planned in it); a sizing error of
/// the grouping hint (the same settings already sized the estate).
pub(super) fn estate_warnings(
    demand: &Demand,
    (catalog, vsan_catalog): (&Catalog, &VsanCatalog),
    options: &OptimizeOptions,
    estate: &EstateOptions,
    (best, sizing, storage, pools): (
        &SkuEstate,
        &EstateSizing,
        Option<&ClusterPlans>,
        &[EstatePool],
    ),
) -> Result<Vec<Warning>, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    let mut warnings = best.sizing.warnings.clone();
    let host_prices = &estate.host_prices;
    let hours = catalog.limits.hours_per_month;
    let skus = best.hosts_by_sku(super::sku::sku_hosts(sizing), hours);
    for h in &skus {
        if let Some(p) = host_prices.price(&h.sku, estate.host_term) {
            warnings.extend(price_region_warning(p, host_prices));
            if let Some(why) = host_prices.implausible(p, vsan_catalog)? {
                warnings.push(Warning::plan_wide(WarningKind::Price, why));
            }
        }
    }
    let unpriced: Vec<&str> = skus
        .iter()
        .filter(|h| h.usd_per_hour.is_none())
        .map(|h| h.sku.as_str())
        .collect();
    if !unpriced.is_empty() {
        warnings.push(Warning::plan_wide(
            WarningKind::Price,
            format!(
                "{} (`host_term` {}): the SKU with the fewest hosts is shown, the host cost and \
                 the saving against vSAN alone are unknown (give `host_price_file`)",
                unpriced
                    .iter()
                    .map(|sku| host_prices.missing_for(sku, estate.host_term))
                    .collect::<Vec<_>>()
                    .join("; "),
                estate.host_term
            ),
        ));
    }
    for h in &skus {
        warnings.extend(retirement_warning(&h.sku, vsan_catalog, estate));
    }
    warnings.extend(account_warnings(pools, &catalog.limits, &prices.region));
    // The peak settings against the estate's targets, once (not per cluster share).
    let o = &demand.options;
    warnings.extend(crate::optimize::run::peak_warnings(
        options,
        o.iops,
        o.throughput_mibps,
    ));
    if o.iops <= 0.0 && o.throughput_mibps <= 0.0 && options.peak.is_none() && storage.is_some() {
        warnings.push(Warning::plan_wide(
            WarningKind::Setting,
            "no IOPS or MiB/s target was given (`iops`, `throughput_mibps`, or per-VM figures \
             of `perf` rows that match planned VMs): every cluster's ANF datastores are sized \
             for capacity only, their throughput whatever the cheapest pool includes (the \
             summary's \"delivers\" line adds up what that gives)"
                .into(),
        ));
    }
    if estate.sizing.ha_hosts == 0 {
        warnings.push(Warning::plan_wide(
            WarningKind::Setting,
            "`ha_hosts` 0: no host is kept free for vSphere HA, but AVS configures every \
             cluster for n+1 (admission control, architecture-private-clouds, \
             2025-08-14): the clusters' VMs may not all restart after a host failure"
                .into(),
        ));
    }
    if options.reservation != ReservationTerm::None
        && storage.is_some_and(|s| s.reservations.is_empty())
    {
        warnings.push(Warning::plan_wide(
            WarningKind::Plan,
            format!(
                "`reservation` {}: nothing bought: reservations cover the hot tier of Standard, \
                 Premium and Ultra (data/reservations.csv; none for Flexible), and no level's \
                 hot TiB in the estate makes a unit pay",
                options.reservation
            ),
        ));
    }
    warnings.extend(grouping_hint(demand, vsan_catalog, estate, sizing)?);
    Ok(warnings)
}

/// A warning for a host SKU of the plan whose retirement Microsoft has announced
/// (`retirement_date` of `data/avs_hosts.csv`: AV36P and AV52 on 2029-06-30, Azure Updates
/// 557094, 2026-03-17): the hosts must move before then, and a reserved term may outlast
/// them.
fn retirement_warning(
    sku: &str,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
) -> Option<Warning> {
    let host = crate::sizing::find_sku(vsan_catalog, sku).ok()?;
    let date = host.retirement_date.as_deref()?;
    Some(Warning::plan_wide(
        WarningKind::Azure,
        format!(
            "{sku}: Microsoft has announced the retirement of these hosts for {date} (Azure \
             Updates, 'AV36P and AV52 node retirement on June 30, 2029', 2026-03-17): the \
             clusters on them move to another SKU before then{}; compare another `host_sku`",
            match estate.host_term {
                crate::sizing::HostTerm::PayAsYouGo => String::new(),
                term => format!(", and a `host_term` {term} reservation must end by then"),
            }
        ),
    ))
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
) -> Result<Option<Warning>, OptimizeError> {
    // Clusters raised for their datastores or their vSAN (a hybrid's, vSAN alone's grown
    // clusters) would need planning to compare, and first clusters of another SKU (AV64
    // Gen 1) pricing: no hint then.
    if estate.sizing.group != Grouping::SourceCluster
        || sizing.clusters.iter().any(|c| {
            matches!(
                c.driver,
                Driver::Storage | Driver::Vsan | Driver::VsanPerformance
            )
        })
    {
        return Ok(None);
    }
    let host = crate::sizing::find_sku(vsan_catalog, &sizing.sku)?;
    if !host.can_be_first() {
        return Ok(None);
    }
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
    // Raised to the minimum (their VMs alone need fewer hosts), not merely of 3 hosts.
    let why = if minimum > 0 {
        format!(
            "{minimum} of the {} AVS clusters {} raised to the 3-host minimum; ",
            sizing.clusters.len(),
            if minimum == 1 { "is" } else { "are" }
        )
    } else {
        String::new()
    };
    Ok(Some(Warning::plan_wide(
        WarningKind::Plan,
        format!(
            "{why}`group` estate packs the VMs into {} cluster(s) of {} {} hosts in all instead \
             of {} (the source clusters' VMs then share AVS clusters)",
            other.clusters.len(),
            g(f64::from(other.hosts), 0),
            sizing.sku,
            g(f64::from(sizing.hosts), 0)
        ),
    )))
}

/// A warning when the chosen host price (a host price file's row) is another region's, or
/// names no region.
fn price_region_warning(p: &HostPrice, prices: &HostPrices) -> Option<Warning> {
    let whose = prices.other_region(p)?;
    Some(Warning::plan_wide(
        WarningKind::Price,
        format!(
            "the {} host price ({} USD per host-hour, {}) {whose}: AVS prices differ by region; \
             give `host_price_file` with {}'s price",
            p.sku, p.usd_per_hour, p.source, prices.region_name
        ),
    ))
}

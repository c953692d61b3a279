//! Per-cluster plans (`per_cluster`): each source cluster's [`ClusterDemand`] planned on
//! its own, with its own host count, and a total. Datastores attach to one AVS cluster, so
//! a cluster's VMs are served by that cluster's datastores only.
//!
//! Reservations cover a service level's usage in a region, not one pool, so they are bought
//! once for the estate: each cluster is planned pay as you go, then the hot TiB of every
//! pool of a level and region are added and the cheapest mix of units
//! ([`crate::catalog::cheapest_mix`]) is bought once ([`ReservationPurchase`]); the total
//! replaces those pools' pay-as-you-go hot tier with the purchase's cost. The clusters'
//! levels are those chosen pay as you go, or, when cheaper for the estate, those each
//! cluster would choose with a reservation of its own (a level dearer pay as you go can be
//! cheaper reserved); mixes of the two per cluster are not explored.

use std::collections::BTreeMap;

use super::account::{provisioned, quota_warnings};
use super::estate_levels::{MAX_ENUMERATED_CLUSTERS, cheapest_levels, level_note};
use super::milp::round_cents;
use super::{OptimizeError, OptimizeOptions, PeakOptions, optimize};
use crate::catalog::{
    Catalog, CatalogError, Limits, ReservationTerm, ServiceLevel, arm_region_name, cheapest_mix,
};
use crate::demand::{ClusterDemand, ClusterDemands};
use crate::inventory::Warning;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlan, ClusterPlans, ClusterTotals, ReservationPurchase, SCHEMA_VERSION};

/// Plans every cluster of `clusters` separately (from
/// [`crate::demand::split_by_cluster`]). Hosts: `hosts` when given, else the cluster's
/// hosts in the inventory, or the AVS minimum without host data; raised to the catalog's
/// AVS minimum and capped at its maximum. Peak targets are split by each cluster's
/// capacity share, like the base targets. With `reservation`, the clusters are planned pay
/// as you go and the reservations bought once for the estate (see the module docs). The
/// estate's excluded VMs (`clusters.excluded`) go once into [`ClusterPlans::excluded`];
/// each cluster's plan lists none.
///
/// # Errors
/// Any error of [`optimize`] for a cluster, prefixed with its name in `detail` where it has
/// one; [`OptimizeError::Invalid`] for `peak` with a reservation.
pub fn optimize_per_cluster(
    clusters: &ClusterDemands,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<ClusterPlans, OptimizeError> {
    if let Some(pk) = &options.peak {
        pk.validate(options.reservation)?;
    }
    let payg = OptimizeOptions {
        reservation: ReservationTerm::None,
        ..options.clone()
    };
    let mut out = Vec::with_capacity(clusters.clusters.len());
    for c in &clusters.clusters {
        out.push(plan_cluster(c, catalog, model, &payg, hosts)?);
    }
    let alt = if clusters.clusters.len() <= MAX_ENUMERATED_CLUSTERS {
        cheapest_levels(clusters, catalog, model, options, hosts, &out)?
    } else {
        reserved_levels(clusters, catalog, model, options, hosts, &out)?
    };
    if let Some(alt) = alt
        && estate_cost(&alt, catalog, options.reservation)?
            < estate_cost(&out, catalog, options.reservation)? - 1e-6
    {
        out = alt;
    }
    let reservations = estate_reservations(&out, catalog, options.reservation)?;
    if options.reservation != ReservationTerm::None {
        for c in &mut out {
            note_estate_reservation(&mut c.plan, options.reservation);
        }
    }
    let mut total = totals(&out, clusters, &reservations);
    total.warnings = estate_warnings(&out, &catalog.limits, options);
    Ok(ClusterPlans {
        schema_version: SCHEMA_VERSION,
        clusters: out,
        total,
        reservations,
        excluded: clusters.excluded.clone(),
    })
}

/// The reservations bought once for the estate: per region and service level with a
/// published discount, the hot TiB of every pool added and the cheapest mix of units;
/// levels and regions where no unit pays are left out.
///
/// # Errors
/// [`OptimizeError::Catalog`] when a plan's region or level has no price (a bug: the plans
/// were priced from the same catalog).
pub(super) fn estate_reservations(
    plans: &[ClusterPlan],
    catalog: &Catalog,
    term: ReservationTerm,
) -> Result<Vec<ReservationPurchase>, OptimizeError> {
    let hot = plans.iter().flat_map(|c| {
        c.plan
            .pools
            .iter()
            .map(|pool| (c.plan.region.as_str(), hot_tier(pool)))
    });
    purchases(hot, catalog, term)
}

/// A pool's hot tier: its level, hot TiB (`size - cold`) and the pay-as-you-go hot-tier
/// line, USD per month.
pub(super) fn hot_tier(pool: &crate::plan::PoolPlan) -> (ServiceLevel, f64, f64) {
    (
        pool.service_level,
        (f64::from(pool.size_tib) - pool.cool_data_gib / 1024.0).max(0.0),
        pool.hot_capacity_cost_usd_per_month,
    )
}

/// The reservations for these hot tiers (region, (level, hot TiB, pay-as-you-go USD per
/// month)), added per region and level; see [`estate_reservations`].
///
/// # Errors
/// [`OptimizeError::Catalog`] when a region or level has no price.
pub(super) fn purchases<'a>(
    hot_tiers: impl Iterator<Item = (&'a str, (ServiceLevel, f64, f64))>,
    catalog: &Catalog,
    term: ReservationTerm,
) -> Result<Vec<ReservationPurchase>, OptimizeError> {
    if term == ReservationTerm::None {
        return Ok(Vec::new());
    }
    // (region, level) -> (hot TiB, the pools' pay-as-you-go hot-tier lines)
    let mut hot: BTreeMap<(&str, ServiceLevel), (f64, f64)> = BTreeMap::new();
    for (region, (level, tib, payg)) in hot_tiers {
        let e = hot.entry((region, level)).or_default();
        e.0 += tib;
        e.1 += payg;
    }
    let mut out = Vec::new();
    for ((region, level), (hot_tib, payg)) in hot {
        let offers = catalog.reservations(level, term);
        if offers.is_empty() {
            continue;
        }
        let per_tib = catalog
            .region(region)?
            .capacity_usd_per_tib_month(level)
            .ok_or_else(|| CatalogError::UnknownServiceLevel(format!("{level} in {region}")))?;
        let (mix, cost) = cheapest_mix(&offers, hot_tib, per_tib);
        if mix.reserved_tib() == 0 {
            continue;
        }
        let (payg, cost) = (round_cents(payg), round_cents(cost));
        out.push(ReservationPurchase {
            region: region.to_string(),
            service_level: level,
            term: term.to_string(),
            hot_tib,
            units: mix.to_vec(),
            reserved_tib: mix.reserved_tib(),
            pay_as_you_go_usd_per_month: payg,
            cost_usd_per_month: cost,
            savings_usd_per_month: round_cents(payg - cost),
        });
    }
    Ok(out)
}

/// With a reservation, the clusters at the levels a reservation of their own would choose
/// (a level that is dearer pay as you go can be cheaper reserved): each cluster planned
/// with the reservation, then re-planned pay as you go at that level, so the estate buys
/// the reservations once. `None` without a reservation or when no level changes.
fn reserved_levels(
    clusters: &ClusterDemands,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
    payg_plans: &[ClusterPlan],
) -> Result<Option<Vec<ClusterPlan>>, OptimizeError> {
    if options.reservation == ReservationTerm::None {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(payg_plans.len());
    let mut changed = false;
    for (c, payg) in clusters.clusters.iter().zip(payg_plans) {
        let reserved = plan_cluster(c, catalog, model, options, hosts)?;
        let (Some(level), Some(before)) = (
            reserved.plan.pools.first().map(|p| p.service_level),
            payg.plan.pools.first().map(|p| p.service_level),
        ) else {
            return Ok(None);
        };
        if level == before {
            out.push(payg.clone());
            continue;
        }
        changed = true;
        let fixed = OptimizeOptions {
            reservation: ReservationTerm::None,
            service_levels: vec![level],
            ..options.clone()
        };
        let mut plan = plan_cluster(c, catalog, model, &fixed, hosts)?;
        plan.plan
            .warnings
            .push(level_note(level, before, options.reservation));
        out.push(plan);
    }
    Ok(changed.then_some(out))
}

/// The estate's monthly cost: the clusters' pay-as-you-go plans less what the estate's
/// reservations save.
pub(super) fn estate_cost(
    plans: &[ClusterPlan],
    catalog: &Catalog,
    term: ReservationTerm,
) -> Result<f64, OptimizeError> {
    let savings: f64 = estate_reservations(plans, catalog, term)?
        .iter()
        .map(|r| r.savings_usd_per_month)
        .sum();
    let payg: f64 = plans.iter().map(|c| c.plan.totals.cost_usd_per_month).sum();
    Ok(payg - savings)
}

/// Rewrites a cluster plan's `reservation` assumption: the plan is priced pay as you go,
/// the reservation is bought once for the estate.
fn note_estate_reservation(plan: &mut crate::plan::Plan, term: ReservationTerm) {
    for a in plan
        .assumptions
        .iter_mut()
        .filter(|a| a.name == "reservation")
    {
        a.value = term.to_string();
        a.note = format!(
            "`reservation` {term}: bought once for the estate per region and service level \
             (a reservation covers the level's usage in the region, not one pool); this \
             cluster's figures are pay as you go, the per-cluster total counts the \
             reservation"
        );
    }
}

/// One cluster's plan.
pub(super) fn plan_cluster(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<ClusterPlan, OptimizeError> {
    let (n, source) = cluster_hosts(c, &catalog.limits, hosts);
    let share = c.capacity_share;
    let opts = OptimizeOptions {
        hosts: n,
        peak: options.peak.as_ref().map(|p| PeakOptions {
            iops: p.iops * share,
            throughput_mibps: p.throughput_mibps * share,
            ..p.clone()
        }),
        ..options.clone()
    };
    let name = &c.cluster;
    let plan = optimize(&c.demand, catalog, model, &opts).map_err(|e| match e {
        OptimizeError::Infeasible {
            target,
            required,
            reachable,
            detail,
        } => OptimizeError::Infeasible {
            target,
            required,
            reachable,
            detail: format!("cluster '{name}': {detail}"),
        },
        other => other,
    })?;
    Ok(ClusterPlan {
        cluster: name.clone(),
        hosts: n,
        hosts_source: source,
        target_share: share,
        plan,
    })
}

/// The cluster's AVS hosts and where the count came from: `hosts` when given, else the
/// inventory's count, else the AVS minimum; within the catalog's AVS range.
fn cluster_hosts(c: &ClusterDemand, limits: &Limits, hosts: Option<u32>) -> (u32, String) {
    let (n, source) = match (hosts, c.source_hosts) {
        (Some(h), _) => (h, "`hosts`".to_string()),
        (None, Some(h)) => (h, c.hosts_source.clone()),
        (None, None) => (
            limits.min_hosts,
            format!("AVS minimum ({})", c.hosts_source),
        ),
    };
    let clamped = n.clamp(limits.min_hosts, limits.max_hosts);
    if clamped != n {
        let source = format!(
            "{source}: {n}, within AVS {}..{}",
            limits.min_hosts, limits.max_hosts
        );
        (clamped, source)
    } else {
        (clamped, source)
    }
}

/// Totals over the clusters' plans, less what the estate's reservations save.
fn totals(
    out: &[ClusterPlan],
    clusters: &ClusterDemands,
    reservations: &[ReservationPurchase],
) -> ClusterTotals {
    let savings: f64 = reservations.iter().map(|r| r.savings_usd_per_month).sum();
    ClusterTotals {
        clusters: out.len(),
        hosts: out.iter().map(|c| c.hosts).sum(),
        datastores: out.iter().map(|c| c.plan.totals.datastores).sum(),
        pool_size_tib: out.iter().map(|c| c.plan.totals.pool_size_tib).sum(),
        placed_capacity_gib: out.iter().map(|c| c.plan.totals.placed_capacity_gib).sum(),
        cost_usd_per_month: round_cents(
            out.iter()
                .map(|c| c.plan.totals.cost_usd_per_month)
                .sum::<f64>()
                - savings,
        ),
        reservation_savings_usd_per_month: round_cents(savings),
        first_month_cool_transfer_usd: round_cents(
            out.iter()
                .map(|c| c.plan.totals.first_month_cool_transfer_usd)
                .sum(),
        ),
        vms_without_cluster: clusters.vms_without_cluster,
        vms_without_cluster_capacity_gib: clusters.vms_without_cluster_capacity_gib,
        vms_excluded: clusters.excluded.len(),
        // Folds start at +0.0 (an empty f64 `sum()` is -0.0).
        excluded_capacity_gib: clusters
            .excluded
            .iter()
            .filter_map(|e| e.capacity_gib)
            .fold(0.0, |a, c| a + c),
        warnings: Vec::new(),
    }
}

/// The regional capacity quota and the pools per NetApp account, over every cluster's
/// pools together (one subscription, region and account for the estate).
fn estate_warnings(
    out: &[ClusterPlan],
    limits: &Limits,
    options: &OptimizeOptions,
) -> Vec<Warning> {
    let (tib, pools) = out
        .iter()
        .map(|c| provisioned(&c.plan))
        .fold((0u32, 0usize), |(t, n), (ct, cn)| {
            (t.saturating_add(ct), n + cn)
        });
    let what = format!("the {} clusters' pools together", out.len());
    quota_warnings(limits, &arm_region_name(&options.region), tib, pools, &what)
}

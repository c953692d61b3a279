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

use super::account::{provisioned, quota_warnings};
use super::estate::reserved_levels;
use super::milp::round_cents;
use super::one_cluster::plan_cluster;
use super::reserve::{estate_cost, estate_reservations};
use super::run::peak_warnings;
use super::threads::in_threads;
use super::{OptimizeError, OptimizeOptions};
use crate::catalog::{Catalog, Limits, ReservationTerm, arm_region_name};
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
/// Any error of [`super::optimize`] for a cluster, prefixed with its name in `detail` where it has
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
    let mut out = plan_all(&clusters.clusters, |c| {
        options.stop.check()?;
        plan_cluster(c, catalog, model, &payg, hosts)
    })?;
    if let Some(alt) = reserved_levels(clusters, catalog, model, options, hosts, &out)?
        && estate_cost(&alt, catalog, options.reservation)?
            < estate_cost(&out, catalog, options.reservation)? - 1e-6
    {
        out = alt;
    }
    super::names::name_per_cluster(&mut out);
    let reservations = estate_reservations(&out, catalog, options.reservation)?;
    if options.reservation != ReservationTerm::None {
        for c in &mut out {
            note_estate_reservation(&mut c.plan, options.reservation);
        }
    }
    let mut total = totals(&out, clusters, &reservations);
    total.warnings = estate_warnings(&out, &catalog.limits, options);
    // The peak settings against the estate's targets, once (not per cluster share).
    let (iops, mibps) = clusters.clusters.iter().fold((0.0, 0.0), |(i, m), c| {
        (
            i + c.demand.options.iops,
            m + c.demand.options.throughput_mibps,
        )
    });
    total.warnings.extend(peak_warnings(options, iops, mibps));
    Ok(ClusterPlans {
        schema_version: SCHEMA_VERSION,
        clusters: out,
        total,
        reservations,
        excluded: clusters.excluded.clone(),
    })
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

/// Each cluster's plan, in order, the clusters shared out over the machine's cores in
/// consecutive chunks (the plans are independent); the first cluster's error in order wins.
///
/// # Errors
/// The first error of `plan` in cluster order.
fn plan_all(
    clusters: &[ClusterDemand],
    plan: impl Fn(&ClusterDemand) -> Result<ClusterPlan, OptimizeError> + Sync,
) -> Result<Vec<ClusterPlan>, OptimizeError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(clusters.len())
        .max(1);
    if threads == 1 {
        return clusters.iter().map(&plan).collect();
    }
    let chunk = clusters.len().div_ceil(threads);
    let parts: Vec<&[ClusterDemand]> = clusters.chunks(chunk).collect();
    let mut out = Vec::with_capacity(clusters.len());
    for part in in_threads(parts, |part| {
        part.iter().map(&plan).collect::<Result<Vec<_>, _>>()
    }) {
        out.extend(part?);
    }
    Ok(out)
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

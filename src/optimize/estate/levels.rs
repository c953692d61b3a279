//! With a reservation, the service level of each cluster that makes the estate cheapest
//! ([`cheapest_levels`]). A reservation covers a level's usage in a region, so one
//! cluster's level changes what the others' reservation saves: the clusters cannot be
//! chosen one by one. For up to [`MAX_ENUMERATED_CLUSTERS`] clusters every combination of
//! levels is tried (each cluster's cheapest pay-as-you-go plan at each level it can meet,
//! the estate's reservations bought on their hot TiB added per level), so the estate's
//! total is the cheapest over the clusters' level choices; beyond that the per-cluster
//! module tries the levels chosen pay as you go and those each cluster would choose with a
//! reservation of its own. With shared pools the combinations are costed on the clusters'
//! quotas (before the pools' rounding up to whole TiB); the estate then buys its
//! reservations once on the shared pools' hot TiB (`estate/mod.rs`).

use crate::catalog::{Catalog, ReservationTerm, ServiceLevel};
use crate::demand::ClusterDemands;
use crate::inventory::{Warning, WarningKind};
use crate::optimize::one_cluster::plan_cluster;
use crate::optimize::reserve::{hot_tier, purchases};
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::perf::PerfModel;
use crate::plan::ClusterPlan;

/// Most clusters whose level combinations are enumerated (4^5 = 1,024 combinations).
const MAX_ENUMERATED_CLUSTERS: usize = 5;

/// The levels tried, in this order.
const LEVELS: [ServiceLevel; 4] = [
    ServiceLevel::Standard,
    ServiceLevel::Premium,
    ServiceLevel::Ultra,
    ServiceLevel::Flexible,
];

/// The warning on a cluster whose level is not its cheapest pay as you go.
fn level_note(level: ServiceLevel, before: ServiceLevel, term: ReservationTerm) -> Warning {
    Warning::plan_wide(
        WarningKind::Plan,
        format!(
            "service level {level}, not the {before} that is cheapest pay as you go: with the \
             estate's `reservation` {term} it costs less; the alternatives of this cluster are \
             those of {level}"
        ),
    )
}

/// One cluster's options: its plan at each level it can meet.
struct Choices {
    plans: Vec<ClusterPlan>,
}

/// The clusters at the levels that make the estate cheapest with its reservations, or
/// `None` without a reservation or when the pay-as-you-go levels are already cheapest.
/// A cluster that keeps its pay-as-you-go level keeps its plan (and its alternatives).
///
/// # Errors
/// Errors of [`plan_cluster`] other than a level that cannot meet the targets.
fn cheapest_levels(
    clusters: &ClusterDemands,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
    payg_plans: &[ClusterPlan],
) -> Result<Option<Vec<ClusterPlan>>, OptimizeError> {
    let term = options.reservation;
    if term == ReservationTerm::None {
        return Ok(None);
    }
    let mut choices = Vec::with_capacity(payg_plans.len());
    for (c, payg) in clusters.clusters.iter().zip(payg_plans) {
        let mut plans = vec![payg.clone()];
        let before = first_level(payg);
        for level in LEVELS {
            let allowed =
                options.service_levels.is_empty() || options.service_levels.contains(&level);
            if !allowed || Some(level) == before {
                continue;
            }
            let fixed = OptimizeOptions {
                reservation: ReservationTerm::None,
                service_levels: vec![level],
                ..options.clone()
            };
            match plan_cluster(c, catalog, model, &fixed, hosts) {
                Ok(p) => plans.push(p),
                Err(
                    OptimizeError::Infeasible { .. }
                    | OptimizeError::NoLayout(_)
                    | OptimizeError::Invalid { .. },
                ) => {}
                Err(e) => return Err(e),
            }
        }
        choices.push(Choices { plans });
    }
    let best = best_combination(&choices, catalog, term)?;
    if best.iter().all(|&i| i == 0) {
        return Ok(None);
    }
    Ok(Some(
        choices
            .into_iter()
            .zip(best)
            .map(|(mut ch, i)| {
                let before = ch.plans.first().and_then(first_level);
                let mut plan = ch.plans.swap_remove(i);
                if let (Some(b), Some(l)) = (before, first_level(&plan))
                    && i != 0
                {
                    plan.plan.warnings.push(level_note(l, b, term));
                }
                plan
            })
            .collect(),
    ))
}

fn first_level(c: &ClusterPlan) -> Option<ServiceLevel> {
    c.plan.pools.first().map(|p| p.service_level)
}

/// The index of each cluster's choice in the cheapest combination (ties: the earlier
/// combination in odometer order, so all pay-as-you-go choices win a tie).
fn best_combination(
    choices: &[Choices],
    catalog: &Catalog,
    term: ReservationTerm,
) -> Result<Vec<usize>, OptimizeError> {
    let mut pick = vec![0usize; choices.len()];
    let mut best = (
        combination_cost(choices, &pick, catalog, term)?,
        pick.clone(),
    );
    loop {
        // Next combination (odometer over each cluster's choices).
        let mut k = 0;
        while k < pick.len() {
            pick[k] += 1;
            if pick[k] < choices[k].plans.len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == pick.len() {
            return Ok(best.1);
        }
        let cost = combination_cost(choices, &pick, catalog, term)?;
        if cost < best.0 - 1e-6 {
            best = (cost, pick.clone());
        }
    }
}

/// The estate's monthly cost for one combination: the plans' pay-as-you-go costs less
/// what the estate's reservations save on their hot tiers.
fn combination_cost(
    choices: &[Choices],
    pick: &[usize],
    catalog: &Catalog,
    term: ReservationTerm,
) -> Result<f64, OptimizeError> {
    let chosen = || {
        choices
            .iter()
            .zip(pick)
            .filter_map(|(c, &i)| c.plans.get(i))
    };
    let hot = chosen().flat_map(|c| {
        c.plan
            .pools
            .iter()
            .map(|pool| (c.plan.region.as_str(), hot_tier(pool)))
    });
    let savings: f64 = purchases(hot, catalog, term)?
        .iter()
        .map(|r| r.savings_usd_per_month)
        .sum();
    let payg: f64 = chosen().map(|c| c.plan.totals.cost_usd_per_month).sum();
    Ok(payg - savings)
}

/// With a reservation, the clusters at the levels that make the estate cheapest: every
/// combination for up to [`MAX_ENUMERATED_CLUSTERS`] clusters ([`cheapest_levels`]), else
/// the levels each cluster would choose with a reservation of its own. `None` without a
/// reservation or when nothing changes; the caller keeps the result only when it is cheaper.
///
/// # Errors
/// Errors of [`plan_cluster`] other than a level that cannot meet the targets.
pub(in crate::optimize) fn reserved_levels(
    clusters: &ClusterDemands,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
    payg_plans: &[ClusterPlan],
) -> Result<Option<Vec<ClusterPlan>>, OptimizeError> {
    if clusters.clusters.len() <= MAX_ENUMERATED_CLUSTERS {
        cheapest_levels(clusters, catalog, model, options, hosts, payg_plans)
    } else {
        own_reserved_levels(clusters, catalog, model, options, hosts, payg_plans)
    }
}

/// With a reservation, the clusters at the levels a reservation of their own would choose
/// (a level that is dearer pay as you go can be cheaper reserved): each cluster planned
/// with the reservation, then re-planned pay as you go at that level, so the estate buys
/// the reservations once. `None` without a reservation or when no level changes.
fn own_reserved_levels(
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

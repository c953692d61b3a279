//! The reservations an estate buys once (a reservation covers a service level's usage in a
//! region, not one pool): the hot TiB of every pool of a level and region added, and the
//! cheapest mix of units ([`crate::catalog::cheapest_mix`]); and the estate's cost with
//! them.

use std::collections::BTreeMap;

use super::OptimizeError;
use super::milp::round_cents;
use crate::catalog::{Catalog, CatalogError, ReservationTerm, ServiceLevel, cheapest_mix};
use crate::plan::{ClusterPlan, ReservationPurchase};

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

/// A pool's hot tier: its level, hot TiB (`size - cold`; a share of a shared pool: its
/// quotas less cold) and the pay-as-you-go hot-tier line, USD per month.
pub(super) fn hot_tier(pool: &crate::plan::PoolPlan) -> (ServiceLevel, f64, f64) {
    let gib = f64::from(pool.size_tib) * 1024.0 + f64::from(pool.share_gib);
    (
        pool.service_level,
        ((gib - pool.cool_data_gib) / 1024.0).max(0.0),
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

//! The search over variants and the public [`optimize`] entry: validate, build the
//! [`Context`], check that the targets are reachable at all, take the cheapest variant
//! (or the cheapest time-phased pair), then explain and assemble the plan.

use super::assemble::assemble;
use super::error::{OptimizeError, Target, unreachable_detail};
use super::explain::{alternatives, marginal_costs};
use super::milp::{
    Candidate, Ceilings, Context, GIB_PER_TIB, Targets, Variant, large_block_profile,
    solve_variant, workload_layout,
};
use super::options::{OptimizeOptions, check_non_negative};
use super::phases::{Phased, phased, time_phased};
use super::spread::{Spread, explain_spreads, min_datastores, spread_over, vm_spreads};
use crate::catalog::{Catalog, RegionPrices, ServiceLevel, ServiceLevelSpec};
use crate::demand::Demand;
use crate::perf::{IoProfile, PerfModel};
use crate::plan::Plan;

/// The cheapest layout of each service level, in catalog order (`None` where none meets
/// the targets).
pub(super) type PerLevel<'a> = Vec<(&'a ServiceLevelSpec, Option<Candidate<'a>>)>;

/// The cheapest verified plan for `demand`.
///
/// # Errors
/// [`OptimizeError::Invalid`] for hosts outside the catalog's AVS range, a datastore limit
/// outside 1..=256, a cold or retrieval percentage outside 0..=100, a negative or
/// non-finite target, or invalid peak options; [`OptimizeError::Catalog`] for an unknown
/// region; [`OptimizeError::Infeasible`] when a target is beyond every layout;
/// [`OptimizeError::NoLayout`] when the targets are reachable alone but not together;
/// others are internal.
pub fn optimize(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
) -> Result<Plan, OptimizeError> {
    options.validate(&catalog.limits)?;
    let prices = catalog.region(&options.region)?;
    let small = demand.options.io_profile;
    small.validate()?;
    let large = large_block_profile(&small);
    let targets = base_targets(demand, &small)?;
    let max_d = options.max_datastores;
    let spreads = vm_spreads(model, demand, &catalog.limits, max_d, &small, &large)?;
    let targets = Targets {
        min_datastores: min_datastores(&spreads),
        ..targets
    };
    let peak_targets = match &options.peak {
        None => None,
        Some(pk) => {
            pk.validate(options.reservation)?;
            Some(Targets {
                iops: targets.iops.max(pk.iops),
                mibps: targets.mibps.max(pk.throughput_mibps),
                ..targets
            })
        }
    };
    let profiles = (small, large);
    let ctx = context(demand, catalog, prices, model, options, &spreads, profiles)?;
    check_reachable(&ctx, &targets, peak_targets.as_ref())?;
    let (chosen, per_level, phased) = search(&ctx, &targets, peak_targets)?;
    explain_and_assemble(
        demand, &ctx, &targets, &chosen, &per_level, phased, &spreads,
    )
}

/// The targets of `demand` (capacity, IOPS, MiB/s), checked finite and >= 0.
fn base_targets(demand: &Demand, small: &IoProfile) -> Result<Targets, OptimizeError> {
    let targets = Targets {
        required_gib: demand.required_capacity_gib,
        iops: demand.options.iops,
        mibps: demand.options.throughput_mibps,
        block_size_kib: small.block_size_kib,
        min_datastores: 1,
    };
    check_non_negative("iops", targets.iops)?;
    check_non_negative("throughput_mibps", targets.mibps)?;
    check_non_negative("capacity", targets.required_gib)?;
    Ok(targets)
}

/// Service levels sold in the region (and allowed by the options).
fn sold_levels<'a>(
    catalog: &'a Catalog,
    prices: &RegionPrices,
    options: &OptimizeOptions,
) -> Result<Vec<&'a ServiceLevelSpec>, OptimizeError> {
    let levels: Vec<&ServiceLevelSpec> = catalog
        .service_levels
        .iter()
        .filter(|s| {
            prices
                .capacity_usd_per_gib_month
                .contains_key(&s.service_level)
        })
        .filter(|s| {
            s.service_level != ServiceLevel::Flexible
                || prices.flexible_throughput_usd_per_mibps_month.is_some()
        })
        .filter(|s| {
            options.service_levels.is_empty() || options.service_levels.contains(&s.service_level)
        })
        .collect();
    if levels.is_empty() {
        return Err(OptimizeError::Invalid {
            option: "region",
            value: options.region.clone(),
            expected: "a region that sells the requested service levels".into(),
        });
    }
    Ok(levels)
}

/// Everything fixed across the MILPs: levels, cold data, and the ceilings of every cool
/// state and volume kind.
fn context<'a>(
    demand: &Demand,
    catalog: &'a Catalog,
    prices: &'a RegionPrices,
    model: &'a PerfModel,
    options: &'a OptimizeOptions,
    spreads: &[Spread],
    (small, large): (IoProfile, IoProfile),
) -> Result<Context<'a>, OptimizeError> {
    let levels = sold_levels(catalog, prices, options)?;
    let limits = &catalog.limits;
    let cold_gib = demand.data_capacity_gib() * options.cold_pct / 100.0;
    let cool_possible = cold_gib > 0.0
        && prices.cool_capacity_usd_per_gib_month.is_some()
        && prices.cool_transfer_usd_per_gib.is_some();
    let vms = demand.placed.len();
    let ceilings = |cool: bool, large_volume: bool| {
        let vol = if large_volume {
            limits.large_volume_max_throughput_mibps
        } else {
            limits.volume_max_throughput_mibps
        };
        let mut l = workload_layout(options.hosts, 1, vol, vms);
        if cool {
            l.cool_pct = options.cold_pct;
        }
        Ceilings::new(model, l.hosts, options.max_datastores, &l, &small, &large)
    };
    let regular = ceilings(false, false)?;
    let large_vols = ceilings(false, true)?;
    let (cool_regular, cool_large_vols) = if cool_possible {
        (ceilings(true, false)?, ceilings(true, true)?)
    } else {
        (regular.clone(), large_vols.clone())
    };
    Ok(Context {
        catalog,
        prices,
        options,
        model,
        small,
        large,
        levels,
        cold_gib,
        cool_possible,
        ceilings: [[regular, large_vols], [cool_regular, cool_large_vols]],
        vms,
        spread_over: spread_over(spreads),
    })
}

/// Fails with [`OptimizeError::Infeasible`] when a target (base or peak) is beyond every
/// layout within the limits, saying which and the most reachable.
fn check_reachable(
    ctx: &Context,
    targets: &Targets,
    peak: Option<&Targets>,
) -> Result<(), OptimizeError> {
    let mut checks = vec![("", targets)];
    if let Some(pt) = peak {
        checks.push(("in the peak months: ", pt));
    }
    for (when, t) in checks {
        check_performance_reachable(ctx, t, when)?;
    }
    check_capacity_reachable(ctx, targets)
}

/// The IOPS and MiB/s targets of `t` against the most any layout reaches (the best
/// datastore count, capped by the largest pool's QoS).
fn check_performance_reachable(
    ctx: &Context,
    t: &Targets,
    when: &str,
) -> Result<(), OptimizeError> {
    let limits = ctx.limits();
    let (small, large) = (&ctx.small, &ctx.large);
    let max_qos_mibps = ctx
        .levels
        .iter()
        .map(|s| s.max_throughput_mibps_per_tib * limits.pool_max_tib)
        .fold(0.0, f64::max);
    let all = ctx.ceilings.iter().flatten();
    let best_iops = all
        .clone()
        .flat_map(|c| c.iops.iter().copied())
        .fold(0.0, f64::max);
    let reachable_iops = best_iops.min(max_qos_mibps * 1024.0 / small.block_size_kib);
    let best_tp = all
        .flat_map(|c| c.throughput_mibps.iter().copied())
        .fold(0.0, f64::max);
    let reachable_tp = best_tp.min(max_qos_mibps);
    let large_vols = &ctx.ceilings[0][1];
    for (target, required, reachable, ceilings, profile, what) in [
        (
            Target::Iops,
            t.iops,
            reachable_iops,
            &large_vols.iops,
            small,
            "small-block IOPS",
        ),
        (
            Target::ThroughputMibps,
            t.mibps,
            reachable_tp,
            &large_vols.throughput_mibps,
            large,
            "large-block MiB/s (large volumes allowed)",
        ),
    ] {
        if required > reachable {
            let why = unreachable_detail(ctx, ctx.model, ceilings, profile, what)?;
            return Err(OptimizeError::Infeasible {
                target,
                required,
                reachable,
                detail: format!("{when}{why}"),
            });
        }
    }
    Ok(())
}

/// The capacity target against one pool of the largest size and the most volumes.
fn check_capacity_reachable(ctx: &Context, targets: &Targets) -> Result<(), OptimizeError> {
    let limits = ctx.limits();
    let max_d = ctx.options.max_datastores;
    let max_capacity_gib = GIB_PER_TIB
        * limits
            .pool_max_tib
            .min(limits.volume_max_tib.max(limits.large_volume_max_tib) * f64::from(max_d));
    if targets.required_gib > max_capacity_gib {
        return Err(OptimizeError::Infeasible {
            target: Target::CapacityGib,
            required: targets.required_gib,
            reachable: max_capacity_gib,
            detail: format!(
                "one pool of at most {} TiB, {max_d} volumes of at most {} TiB",
                limits.pool_max_tib, limits.large_volume_max_tib
            ),
        });
    }
    Ok(())
}

/// The chosen layout (the base months' of a time-phased plan), the cheapest per level,
/// and the time phases when peak targets are given.
fn search<'a>(
    ctx: &Context<'a>,
    targets: &Targets,
    peak_targets: Option<Targets>,
) -> Result<(Candidate<'a>, PerLevel<'a>, Option<Phased<'a>>), OptimizeError> {
    let per_level = best_per_level(ctx, targets, None)?;
    let Some(best) = best_overall(&per_level) else {
        let (prices, limits) = (ctx.prices, ctx.limits());
        return Err(OptimizeError::NoLayout(format!(
            "no service level sold in {} meets {:.1} GiB, {:.0} IOPS and {:.0} MiB/s together \
             within one pool of {} TiB",
            prices.region, targets.required_gib, targets.iops, targets.mibps, limits.pool_max_tib
        )));
    };
    match (peak_targets, &ctx.options.peak) {
        (Some(pt), Some(pk)) => {
            let p = phased(ctx, targets, pt, pk.months)?;
            Ok((p.base, per_level, Some(p)))
        }
        _ => Ok((best, per_level, None)),
    }
}

/// The plan of the chosen layout with its explanations: alternatives, marginal costs,
/// per-VM spreads and the time phases.
fn explain_and_assemble(
    demand: &Demand,
    ctx: &Context,
    targets: &Targets,
    chosen: &Candidate,
    per_level: &PerLevel,
    phased: Option<Phased>,
    spreads: &[Spread],
) -> Result<Plan, OptimizeError> {
    let alternatives = alternatives(ctx, targets, chosen, per_level)?;
    let marginal_costs = marginal_costs(ctx, targets, chosen)?;
    let mut plan = assemble(demand, ctx, chosen)?;
    explain_spreads(&mut plan, spreads, ctx.options.max_datastores, &ctx.small);
    plan.alternatives = alternatives;
    plan.marginal_costs = marginal_costs;
    if let Some(p) = phased {
        plan.time_phased = Some(time_phased(ctx, &p, targets)?);
    }
    Ok(plan)
}

/// The cheapest layout per service level (in catalog order; `None` where none meets the
/// targets), optionally at exactly `fixed_d` datastores. Large volumes are tried only where
/// no regular layout of the same level and cool state exists.
pub(super) fn best_per_level<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<PerLevel<'a>, OptimizeError> {
    let mut out = Vec::with_capacity(ctx.levels.len());
    for &spec in &ctx.levels {
        let mut best: Option<Candidate> = None;
        for &cool in ctx.cool_states() {
            let mut found = None;
            for large in [false, true] {
                // Large volumes only where no regular layout of this variant exists.
                if large && found.is_some() {
                    break;
                }
                found = solve_variant(ctx, Variant { spec, cool, large }, t, fixed_d)?;
            }
            if let Some(c) = found
                && best.as_ref().is_none_or(|b| c.better_than(b))
            {
                best = Some(c);
            }
        }
        out.push((spec, best));
    }
    Ok(out)
}

/// The cheapest layout over every level (ties: fewer datastores, then catalog order).
pub(super) fn best_overall<'a>(
    per_level: &[(&'a ServiceLevelSpec, Option<Candidate<'a>>)],
) -> Option<Candidate<'a>> {
    let mut best: Option<Candidate> = None;
    for (_, c) in per_level {
        if let Some(c) = c
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(*c);
        }
    }
    best
}

/// The cheapest layout over every level at exactly `d` datastores with cool access and
/// volume kind fixed.
pub(super) fn best_fixed<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    d: u32,
    cool: bool,
    large: bool,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let mut best: Option<Candidate> = None;
    for &spec in &ctx.levels {
        if let Some(c) = solve_variant(ctx, Variant { spec, cool, large }, t, Some(d))?
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(c);
        }
    }
    Ok(best)
}

//! The search over variants: the cheapest layout per service level, over every level, and
//! at a fixed datastore count, cool state and volume kind. Each is a loop over
//! [`solve_variant`], one MILP per variant.

use super::error::OptimizeError;
use super::milp::{Candidate, Context, Targets, cost_floor, solve_variant};
use crate::catalog::{ServiceLevel, ServiceLevelSpec};

/// The cheapest layout of each service level, in catalog order (`None` where none meets
/// the targets).
pub(super) type PerLevel<'a> = Vec<(&'a ServiceLevelSpec, Option<Candidate<'a>>)>;

/// The cheapest layout per service level (in catalog order; `None` where none meets the
/// targets), optionally at exactly `fixed_d` datastores. Large volumes are tried only with
/// `allow_large_volumes` and where no regular layout of the same level and cool state
/// exists.
pub(super) fn best_per_level<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<PerLevel<'a>, OptimizeError> {
    let mut out = Vec::with_capacity(ctx.levels.len());
    for &spec in &ctx.levels {
        // A caller's stop is asked before each level's MILPs (a one-cluster plan has no
        // clusters to be asked between).
        ctx.options.stop.check()?;
        out.push((spec, best_of_level(ctx, spec, t, fixed_d)?));
    }
    Ok(out)
}

/// The cheapest layout of the level `spec` (`None` where none meets the targets),
/// optionally at exactly `fixed_d` datastores: [`best_per_level`]'s for one level.
fn best_of_level<'a>(
    ctx: &Context<'a>,
    spec: &'a ServiceLevelSpec,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let mut best: Option<Candidate> = None;
    for &cool in ctx.cool_states() {
        let mut found = None;
        for &large in ctx.volume_kinds() {
            // Large volumes only where no regular layout of this variant exists.
            if large && found.is_some() {
                break;
            }
            found = solve_variant(ctx, ctx.variant(spec, cool, large), t, fixed_d)?;
        }
        if let Some(c) = found
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(c);
        }
    }
    Ok(best)
}

/// What [`best_overall`] of [`best_per_level`] gives (optionally at exactly `fixed_d`
/// datastores), where only the cheapest layout is read: the levels are solved by their cost
/// floor ([`cost_floor`], the lowest of their variants'), from the lowest, until a floor is
/// above the best found (more than [`Candidate::better_than`]'s tolerance: no layout of
/// that level or a later one can be cheaper or tie).
pub(super) fn cheapest_overall<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let mut floors: Vec<(f64, usize)> = Vec::with_capacity(ctx.levels.len());
    for (i, &spec) in ctx.levels.iter().enumerate() {
        let mut floor = f64::INFINITY;
        for &cool in ctx.cool_states() {
            for &large in ctx.volume_kinds() {
                if let Some(f) = cost_floor(ctx, &ctx.variant(spec, cool, large), t, fixed_d) {
                    floor = floor.min(f);
                }
            }
        }
        // Infinite: no variant of the level has a layout meeting the targets.
        if floor.is_finite() {
            floors.push((floor, i));
        }
    }
    floors.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut found: Vec<(usize, &ServiceLevelSpec, Option<Candidate>)> = Vec::new();
    let mut best = f64::INFINITY;
    for (floor, i) in floors {
        if floor > best + 1e-6 {
            break;
        }
        let spec = ctx.levels[i];
        let c = best_of_level(ctx, spec, t, fixed_d)?;
        if let Some(c) = &c {
            best = best.min(c.cost.total());
        }
        found.push((i, spec, c));
    }
    found.sort_by_key(|f| f.0);
    let per_level: Vec<(&ServiceLevelSpec, Option<Candidate>)> =
        found.into_iter().map(|(_, spec, c)| (spec, c)).collect();
    Ok(best_overall(&per_level))
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

/// The cheapest layout at exactly `d` datastores with cool access and volume kind fixed,
/// over the Flexible level (`flexible`) or over the other levels (`!flexible`): volumes
/// cannot move into or out of a Flexible pool, so a time-phased plan stays on one side.
pub(super) fn best_fixed<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    d: u32,
    (cool, large): (bool, bool),
    flexible: bool,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let mut best: Option<Candidate> = None;
    let side = ctx
        .levels
        .iter()
        .filter(|s| (s.service_level == ServiceLevel::Flexible) == flexible);
    for &spec in side {
        if let Some(c) = solve_variant(ctx, ctx.variant(spec, cool, large), t, Some(d))?
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(c);
        }
    }
    Ok(best)
}

/// Whether large volumes would meet targets `t` that no allowed layout meets (only asked
/// without `allow_large_volumes`, for the message).
pub(super) fn large_volumes_would_help(ctx: &Context, t: &Targets) -> Result<bool, OptimizeError> {
    if ctx.options.allow_large_volumes {
        return Ok(false);
    }
    for &spec in &ctx.levels {
        for &cool in ctx.cool_states() {
            let v = ctx.variant(spec, cool, true);
            if solve_variant(ctx, v, t, None)?.is_some() {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

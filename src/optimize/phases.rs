//! Time-phased plans (`peak`): the datastore count, cool state and volume kind stay all
//! year; the pool size and Flexible throughput may change for the peak months, and so may
//! the service level among Standard, Premium and Ultra. A Flexible pool stays Flexible and
//! no other pool becomes Flexible: volumes cannot move into or out of a Flexible pool
//! (learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-set-up-capacity-pool,
//! 2025-10-02; .../azure-netapp-files-service-levels, 2026-01-29). The pair with the lowest
//! yearly cost wins.

use super::error::{OptimizeError, only_large_volumes};
use super::milp::{Candidate, Context, Targets, round_cents};
use super::search::{best_fixed, best_overall, best_per_level};
use crate::plan::{PhaseLayout, TimePhased};

/// The two layouts of a time-phased plan.
pub(super) struct Phased<'a> {
    /// The base months' layout (the plan's pools and datastores).
    pub(super) base: Candidate<'a>,
    /// The peak months' layout.
    pub(super) peak: Candidate<'a>,
    /// The peak months' targets.
    pub(super) targets: Targets,
    /// Peak months per year.
    pub(super) months: u32,
    /// The cheapest layout meeting the peak targets all year, for comparison.
    pub(super) all_year: Option<Candidate<'a>>,
}

/// The cheapest time-phased pair for `base_t` and `peak_t`.
///
/// # Errors
/// [`OptimizeError::NoLayout`] when no datastore count serves both phases.
pub(super) fn phased<'a>(
    ctx: &Context<'a>,
    base_t: &Targets,
    peak_t: Targets,
    months: u32,
) -> Result<Phased<'a>, OptimizeError> {
    let kinds = ctx.volume_kinds();
    let Some((base, peak)) = phased_search(ctx, (base_t, &peak_t), months, kinds)? else {
        let mut msg = format!(
            "no datastore count of {} serves both the base targets and the peak targets \
             ({:.0} IOPS, {:.0} MiB/s)",
            ctx.volume_kinds_text(),
            peak_t.iops,
            peak_t.mibps
        );
        if !ctx.options.allow_large_volumes
            && phased_search(ctx, (base_t, &peak_t), months, &[true])?.is_some()
        {
            msg.push_str("; ");
            msg.push_str(&only_large_volumes("the targets together"));
        }
        return Err(OptimizeError::NoLayout(msg));
    };
    let all_year = best_overall(&best_per_level(ctx, &peak_t, None)?);
    Ok(Phased {
        base,
        peak,
        targets: peak_t,
        months,
        all_year,
    })
}

/// The cheapest pair (base months, peak months) of the volume kinds `kinds` sharing the
/// datastore count, cool access and volume kind (datastores stay attached all year; cool access cannot be undone without
/// re-warming) and the side of the Flexible divide: volumes cannot move into or out of a
/// Flexible pool (the module's sources), so a Flexible pool stays Flexible (its size and
/// purchased throughput may change) and a Standard, Premium or Ultra pool may change level
/// among those three (dynamic service level change) but never becomes Flexible. Minimises
/// the yearly cost `(12 - N) x base + N x peak`; ties to fewer datastores.
fn phased_search<'a>(
    ctx: &Context<'a>,
    (base_t, peak_t): (&Targets, &Targets),
    peak_months: u32,
    kinds: &[bool],
) -> Result<Option<(Candidate<'a>, Candidate<'a>)>, OptimizeError> {
    let base_months = f64::from(12 - peak_months);
    let peak_m = f64::from(peak_months);
    let mut best: Option<(f64, Candidate, Candidate)> = None;
    for d in 1..=ctx.options.max_datastores {
        for &cool in ctx.cool_states() {
            for flexible in [false, true] {
                let Some((base, peak)) =
                    phase_pair(ctx, (base_t, peak_t), (d, cool, flexible), kinds)?
                else {
                    continue;
                };
                let yearly = base_months * base.cost.total() + peak_m * peak.cost.total();
                if best.as_ref().is_none_or(|b| yearly < b.0 - 1e-6) {
                    best = Some((yearly, base, peak));
                }
            }
        }
    }
    Ok(best.map(|(_, b, p)| (b, p)))
}

/// The cheapest base and peak layouts at `d` datastores, one cool state and one side of the
/// Flexible divide, of the first volume kind in `kinds` (regular, then large) that serves
/// both phases.
fn phase_pair<'a>(
    ctx: &Context<'a>,
    (base_t, peak_t): (&Targets, &Targets),
    (d, cool, flexible): (u32, bool, bool),
    kinds: &[bool],
) -> Result<Option<(Candidate<'a>, Candidate<'a>)>, OptimizeError> {
    for &large in kinds {
        let Some(peak) = best_fixed(ctx, peak_t, d, (cool, large), flexible)? else {
            continue;
        };
        let Some(base) = best_fixed(ctx, base_t, d, (cool, large), flexible)? else {
            continue;
        };
        return Ok(Some((base, peak)));
    }
    Ok(None)
}

/// One phase's layout, re-evaluated against its targets.
///
/// # Errors
/// [`OptimizeError::Verification`] when the layout misses a target (a bug).
fn phase_layout(
    ctx: &Context,
    c: &Candidate,
    t: &Targets,
    months: u32,
) -> Result<PhaseLayout, OptimizeError> {
    let layout = ctx.candidate_layout(c);
    let qos = c.qos_mibps();
    let iops = ctx.perf.predict(&layout, &ctx.small)?.iops;
    let mibps = ctx.perf.predict(&layout, &ctx.large)?.throughput_mibps;
    if iops + 1e-6 < t.iops || mibps + 1e-6 < t.mibps {
        return Err(OptimizeError::Verification(format!(
            "phase of {months} months predicted {iops:.0} IOPS / {mibps:.1} MiB/s < targets \
             {:.0} / {:.1}",
            t.iops, t.mibps
        )));
    }
    Ok(PhaseLayout {
        months,
        service_level: c.variant.spec.service_level,
        pool_size_tib: c.own_tib(),
        share_gib: c.share_gib(),
        purchased_throughput_mibps: c.purchased_mibps,
        throughput_mibps: qos,
        datastores: c.datastores,
        cool_access: c.variant.cool,
        large_volumes: c.variant.large,
        iops_target: t.iops,
        throughput_target_mibps: t.mibps,
        predicted_iops: iops,
        predicted_throughput_mibps: mibps,
        cost_usd_per_month: c.cost.total_cents(),
    })
}

/// Both phases re-evaluated, with the yearly cost and the savings against meeting the
/// peak targets all year.
pub(super) fn time_phased(
    ctx: &Context,
    p: &Phased,
    base_t: &Targets,
) -> Result<TimePhased, OptimizeError> {
    let b = phase_layout(ctx, &p.base, base_t, 12 - p.months)?;
    let pk = phase_layout(ctx, &p.peak, &p.targets, p.months)?;
    let yearly = round_cents(
        f64::from(12 - p.months) * b.cost_usd_per_month
            + f64::from(p.months) * pk.cost_usd_per_month,
    );
    let all_year = p
        .all_year
        .map_or(0.0, |c| round_cents(12.0 * c.cost.total_cents()));
    Ok(TimePhased {
        base: b,
        peak: pk,
        yearly_cost_usd: yearly,
        peak_all_year_yearly_cost_usd: all_year,
        yearly_savings_usd: round_cents(all_year - yearly),
    })
}

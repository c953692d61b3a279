//! Re-evaluation of the chosen layout: the performance model predicts it with its pool's
//! QoS, and every target (IOPS, MiB/s, capacity, volume sizes) must hold. A miss is
//! [`OptimizeError::Verification`], a bug rather than a result.

use super::error::OptimizeError;
use super::milp::{Candidate, Context};
use crate::demand::Demand;
use crate::perf::{Layout, Prediction};

/// The chosen layout and what the model predicts for it.
pub(super) struct Verified {
    /// The layout with its pool's QoS.
    pub(super) layout: Layout,
    /// Small-block prediction (the IOPS target's profile).
    pub(super) small: Prediction,
    /// Large-block prediction (the MiB/s target's profile).
    pub(super) large: Prediction,
}

/// Tolerance of the checks (floating-point noise, not slack).
const TOL: f64 = 1e-6;

/// Re-evaluates `chosen` against `demand`'s targets.
///
/// # Errors
/// [`OptimizeError::Verification`] when a target is missed; [`OptimizeError::Perf`] when
/// the model rejects the layout.
pub(super) fn verify(
    ctx: &Context,
    demand: &Demand,
    chosen: &Candidate,
) -> Result<Verified, OptimizeError> {
    let layout = ctx.candidate_layout(chosen);
    let small = ctx.perf.predict(&layout, &ctx.small)?;
    let large = ctx.perf.predict(&layout, &ctx.large)?;
    if small.iops + TOL < demand.options.iops {
        return Err(OptimizeError::Verification(format!(
            "predicted {:.0} IOPS < target {:.0}",
            small.iops, demand.options.iops
        )));
    }
    if large.throughput_mibps + TOL < demand.options.throughput_mibps {
        return Err(OptimizeError::Verification(format!(
            "predicted {:.1} MiB/s < target {:.1}",
            large.throughput_mibps, demand.options.throughput_mibps
        )));
    }
    check_sizes(ctx, demand, chosen)?;
    Ok(Verified {
        layout,
        small,
        large,
    })
}

/// The pool holds the required capacity and each volume is within its size range.
fn check_sizes(ctx: &Context, demand: &Demand, chosen: &Candidate) -> Result<(), OptimizeError> {
    let pool_gib = f64::from(chosen.size_gib);
    if pool_gib + TOL < demand.required_capacity_gib {
        return Err(OptimizeError::Verification(format!(
            "pool {pool_gib} GiB < required {:.1} GiB",
            demand.required_capacity_gib
        )));
    }
    let (vmin_tib, vmax_tib) = ctx.volume_range_tib(chosen.variant.large);
    let per_volume_tib = chosen.size_tib() / f64::from(chosen.datastores);
    if per_volume_tib + TOL < vmin_tib || per_volume_tib > vmax_tib + TOL {
        return Err(OptimizeError::Verification(format!(
            "volume of {per_volume_tib:.2} TiB outside {vmin_tib:.3}..{vmax_tib} TiB"
        )));
    }
    Ok(())
}

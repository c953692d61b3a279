//! Targets beyond every layout: before any MILP is solved, the IOPS, MiB/s and capacity
//! targets are checked against the most any layout within the limits reaches, and a miss
//! says which layer binds and which settings could still help.

use super::error::{OptimizeError, Target};
use super::milp::{Context, GIB_PER_TIB, Targets, workload_layout};
use crate::perf::{IoProfile, Layer, PerfModel};

/// Fails with [`OptimizeError::Infeasible`] when a target (base or peak) is beyond every
/// layout within the limits, saying which and the most reachable.
pub(super) fn check_reachable(
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

/// Why a performance target is out of reach: the best datastore count (`ceilings` are
/// those of large volumes, without cool access, for `d = 1..`), the layer that binds
/// there, and which options could still raise it.
pub(super) fn unreachable_detail(
    ctx: &Context,
    model: &PerfModel,
    ceilings: &[f64],
    profile: &IoProfile,
    what: &str,
) -> Result<String, OptimizeError> {
    let limits = ctx.limits();
    let (vms, max_d) = (ctx.vms, ctx.options.max_datastores);
    let best_d = ceilings
        .iter()
        .enumerate()
        .fold(
            (0usize, f64::MIN),
            |b, (i, &c)| if c > b.1 { (i, c) } else { b },
        )
        .0 as u32
        + 1;
    let mut layout = workload_layout(
        ctx.options.hosts,
        best_d,
        limits.large_volume_max_throughput_mibps,
        vms,
    );
    layout.nconnect = ctx.options.nconnect;
    let p = model.predict(&layout, profile)?;
    let mut detail = format!(
        "{what}: best with {best_d} datastore(s) x {} hosts running {vms} VM(s) = {} flows at \
         {} KiB, limited by the {} layer",
        layout.hosts,
        layout.flows(),
        profile.block_size_kib,
        p.bottleneck.as_str()
    );
    if p.bottleneck == Layer::Vm {
        detail.push_str(&format!(
            "; more hosts or datastores cannot help: the estate's {vms} VM(s) are the limit"
        ));
        return Ok(detail);
    }
    let mut advice = Vec::new();
    // More hosts help only while there are VMs to run on them.
    let useful_hosts = limits.max_hosts.min(u32::try_from(vms).unwrap_or(u32::MAX));
    if layout.hosts < useful_hosts {
        advice.push(format!("more `hosts` (up to {useful_hosts})"));
    }
    // More datastores help only while the ceiling still rises at the limit.
    if max_d < limits.max_datastores && best_d == max_d {
        advice.push(format!(
            "a higher `max_datastores` (up to {})",
            limits.max_datastores
        ));
    }
    // More connections per datastore help where the flows bind.
    if p.bottleneck == Layer::Flow && ctx.options.nconnect == 1 {
        advice.push("`nconnect` 4 (supported on AVS datastores; extrapolated)".to_string());
    }
    if !advice.is_empty() {
        detail.push_str("; try ");
        detail.push_str(&advice.join(" or "));
    }
    Ok(detail)
}

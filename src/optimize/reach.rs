//! Targets beyond every layout: before any MILP is solved, the IOPS, MiB/s and capacity
//! targets are checked against the most any layout within the limits reaches, and a miss
//! says which layer binds and which settings could still help.

use super::error::{OptimizeError, Target, only_large_volumes};
use super::milp::{Context, GIB_PER_TIB, Targets, workload_layout};
use crate::numbers::{at_most, group_thousands};
use crate::perf::{IoProfile, Layer};

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

/// The most small-block IOPS and large-block MiB/s any layout of regular volumes (and of
/// large ones when `large` is true) reaches: the best datastore count and cool state,
/// capped by the largest pool's QoS.
fn reachable(ctx: &Context, large: bool) -> (f64, f64) {
    let limits = ctx.limits();
    let max_qos_mibps = ctx
        .levels
        .iter()
        .map(|s| s.max_throughput_mibps_per_tib * limits.pool_max_tib)
        .fold(0.0, f64::max);
    let kinds: &[bool] = if large { &[false, true] } else { &[false] };
    let all = ctx
        .ceilings
        .iter()
        .flat_map(|by_kind| kinds.iter().map(move |&k| &by_kind[usize::from(k)]));
    let best_iops = all
        .clone()
        .flat_map(|c| c.iops.iter().copied())
        .fold(0.0, f64::max);
    let best_tp = all
        .flat_map(|c| c.throughput_mibps.iter().copied())
        .fold(0.0, f64::max);
    (
        best_iops.min(max_qos_mibps * 1024.0 / ctx.small.block_size_kib),
        best_tp.min(max_qos_mibps),
    )
}

/// The IOPS and MiB/s targets of `t` against the most any layout of the allowed volume
/// kinds reaches; without `allow_large_volumes`, says when only large volumes could meet
/// the target.
fn check_performance_reachable(
    ctx: &Context,
    t: &Targets,
    when: &str,
) -> Result<(), OptimizeError> {
    let allow = ctx.options.allow_large_volumes;
    let (reachable_iops, reachable_tp) = reachable(ctx, allow);
    let (large_iops, large_tp) = reachable(ctx, true);
    let hot = &ctx.ceilings[0][usize::from(allow)];
    for (target, required, reachable, with_large, ceilings, profile, what) in [
        (
            Target::Iops,
            t.iops,
            reachable_iops,
            large_iops,
            &hot.iops,
            &ctx.small,
            "small-block IOPS",
        ),
        (
            Target::ThroughputMibps,
            t.mibps,
            reachable_tp,
            large_tp,
            &hot.throughput_mibps,
            &ctx.large,
            "large-block MiB/s",
        ),
    ] {
        if required > reachable {
            let mut why = unreachable_detail(ctx, (ceilings, allow), profile, what)?;
            if !allow && required <= with_large {
                let most = at_most(with_large, target.decimals());
                why.push_str("; ");
                why.push_str(&only_large_volumes(&format!("it (at most {most})")));
            }
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

/// The capacity target against one pool of the largest size and the most volumes of the
/// allowed kinds.
fn check_capacity_reachable(ctx: &Context, targets: &Targets) -> Result<(), OptimizeError> {
    let limits = ctx.limits();
    let max_d = f64::from(ctx.options.max_datastores);
    let most_gib = |large: bool| {
        let (_, vmax) = ctx.volume_range_tib(large);
        let vmax = if large {
            vmax.max(limits.volume_max_tib)
        } else {
            vmax
        };
        (GIB_PER_TIB * limits.pool_max_tib.min(vmax * max_d), vmax)
    };
    let allow = ctx.options.allow_large_volumes;
    let (max_capacity_gib, vmax) = most_gib(allow);
    if targets.required_gib > max_capacity_gib {
        let mut detail = format!(
            "one pool of at most {} TiB, {max_d} volumes of at most {vmax} TiB ({})",
            limits.pool_max_tib,
            ctx.volume_kinds_text()
        );
        // More regular datastores, where the limit allows them, before large volumes.
        let (_, regular_max_tib) = ctx.volume_range_tib(false);
        let per_volume_gib = GIB_PER_TIB * regular_max_tib;
        let needed = (targets.required_gib / per_volume_gib).ceil();
        let more = max_d < f64::from(limits.max_datastores)
            && needed <= f64::from(limits.max_datastores)
            && targets.required_gib <= GIB_PER_TIB * limits.pool_max_tib;
        if more {
            detail.push_str(&format!(
                "; {needed} regular datastores would hold it: a higher `max_datastores` (up \
                 to {} by support request)",
                limits.max_datastores
            ));
        }
        if targets.required_gib > GIB_PER_TIB * limits.pool_max_tib {
            detail.push_str(
                "; one cluster's plan puts its datastores in one pool: the estate plan \
                 (without `hosts` and `per_cluster`) sizes several AVS clusters, whose \
                 datastores share several pools",
            );
        }
        let (with_large, _) = most_gib(true);
        if !allow && targets.required_gib <= with_large {
            let at_most = group_thousands(with_large, 0);
            detail.push_str("; ");
            detail.push_str(&only_large_volumes(&format!("it (at most {at_most} GiB)")));
        }
        return Err(OptimizeError::Infeasible {
            target: Target::CapacityGib,
            required: targets.required_gib,
            reachable: max_capacity_gib,
            detail,
        });
    }
    Ok(())
}

/// Why a performance target is out of reach: the volume kinds assumed, the best datastore
/// count (`ceilings` are those of the volume kind, large or regular, without cool access,
/// for `d = 1..`), the layer that binds there, and which options could still raise it.
/// The figures are those of the layout the message names, as `predict` evaluates it.
fn unreachable_detail(
    ctx: &Context,
    (ceilings, large): (&[f64], bool),
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
    let vol_mibps = ctx.volume_max_mibps(large);
    let mut layout = workload_layout(ctx.options.hosts, best_d, vol_mibps, vms);
    layout.nconnect = ctx.options.nconnect;
    let p = ctx.perf.predict(&layout, profile)?;
    let mut detail = format!(
        "{what} with {} ({} MiB/s per volume): best with {best_d} datastore(s) x {} hosts \
         running {vms} VM(s) ({} per host) = {} flows at {} KiB, {}% read, {}% random, \
         limited by the {} layer",
        ctx.volume_kinds_text(),
        group_thousands(vol_mibps, 0),
        layout.hosts,
        layout.vms_per_host.unwrap_or(1),
        layout.flows(),
        profile.block_size_kib,
        profile.read_pct,
        profile.random_pct,
        p.bottleneck.as_str()
    );
    if p.bottleneck == Layer::Vm {
        detail.push_str(&format!(
            "; more hosts or datastores cannot help: the {vms} VM(s) planned here are the limit"
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

//! One cluster's plan within an estate or a per-cluster plan ([`plan_cluster`]): its own
//! demand and hosts, its capacity share of the peak targets.

use super::run::{Cheapest, cheapest_cost_usd_per_month, optimize_part, vm_count_saturation};
use super::{OptimizeError, OptimizeOptions, PeakOptions, Target};
use crate::catalog::{Catalog, Limits};
use crate::demand::ClusterDemand;
use crate::inventory::{Warning, WarningKind};
use crate::numbers::show_number;
use crate::perf::PerfModel;
use crate::plan::ClusterPlan;

/// One cluster's plan.
pub(super) fn plan_cluster(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<ClusterPlan, OptimizeError> {
    let (n, source, opts) = cluster_options(c, &catalog.limits, options, hosts);
    let share = c.capacity_share;
    let name = &c.cluster;
    // The estate (or per-cluster total) gives the peak and quota warnings once.
    let mut plan =
        optimize_part(&c.demand, catalog, model, &opts).map_err(|e| with_cluster(e, c, options))?;
    for a in plan.assumptions.iter_mut().filter(|a| a.name == "hosts") {
        a.note.clone_from(&source);
    }
    if let Some(h) = c.source_hosts.filter(|&h| hosts.is_none() && h > n) {
        plan.warnings
            .push(capped_warning(name, h, catalog.limits.max_hosts));
    }
    Ok(ClusterPlan {
        cluster: name.clone(),
        hosts: n,
        hosts_source: source,
        target_share: share,
        plan,
    })
}

/// The pool and monthly cost of [`plan_cluster`]'s plan, without placing, explaining or
/// verifying it (for comparing host SKUs).
///
/// # Errors
/// As [`plan_cluster`].
pub(super) fn cluster_cost(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<Cheapest, OptimizeError> {
    let (_, _, opts) = cluster_options(c, &catalog.limits, options, hosts);
    cheapest_cost_usd_per_month(&c.demand, catalog, model, &opts)
        .map_err(|e| with_cluster(e, c, options))
}

/// [`vm_count_saturation`] for [`cluster_cost`]'s plan of `c` at `hosts`: a VM count from
/// which (up to `vms`) that plan's cost no longer depends on how many VMs carry `c`'s data.
///
/// # Errors
/// As [`vm_count_saturation`].
pub(super) fn cluster_vm_saturation(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    (hosts, vms): (Option<u32>, usize),
) -> Result<usize, OptimizeError> {
    let (_, _, opts) = cluster_options(c, &catalog.limits, options, hosts);
    vm_count_saturation(&c.demand, catalog, model, &opts, vms)
}

/// A target error of cluster `c` that names the cluster, its capacity share and the
/// user's target it carries that share of (`options`: the estate's, with the user's peak
/// targets): `cluster 'avs-Prod' carries 62.3% of the capacity, so 9,203,684.2 of the
/// 14,772,000 IOPS given as `iops`: ...`; targets that are the cluster's own VMs' per-VM
/// sums say so.
fn with_cluster(e: OptimizeError, c: &ClusterDemand, options: &OptimizeOptions) -> OptimizeError {
    let name = &c.cluster;
    match e {
        OptimizeError::Infeasible {
            target,
            required,
            reachable,
            detail,
        } => {
            let peak = "in the peak months: ";
            let (words, rest) = match detail.strip_prefix(peak) {
                Some(rest) => (carries(c, options, target, required, true), rest),
                None => (
                    carries(c, options, target, required, false),
                    detail.as_str(),
                ),
            };
            OptimizeError::Infeasible {
                target,
                required,
                reachable,
                detail: format!("{words}: {rest}"),
            }
        }
        OptimizeError::NoLayout(msg) => {
            let words = [Target::Iops, Target::ThroughputMibps]
                .into_iter()
                .filter_map(|t| {
                    let (mine, estate) = targets(c, options, t, false);
                    (mine > 0.0 && estate > 0.0).then(|| of_target(t, mine, estate, false))
                })
                .collect::<Vec<_>>();
            let head = if words.is_empty() {
                format!("cluster '{name}'")
            } else {
                format!(
                    "cluster '{name}' carries {:.1}% of the capacity, so {}",
                    c.capacity_share * 100.0,
                    words.join(" and ")
                )
            };
            OptimizeError::NoLayout(format!("{head}: {msg}"))
        }
        other => other,
    }
}

/// The cluster's target `t` and the user's it is a share of (0 when none: its targets are
/// its VMs' per-VM sums), base or peak months.
fn targets(c: &ClusterDemand, options: &OptimizeOptions, t: Target, peak: bool) -> (f64, f64) {
    let o = &c.demand.options;
    let share = c.capacity_share;
    match (t, peak, &options.peak) {
        (Target::Iops, true, Some(p)) => (p.iops * share, p.iops),
        (Target::ThroughputMibps, true, Some(p)) => {
            (p.throughput_mibps * share, p.throughput_mibps)
        }
        (Target::Iops, _, _) => (o.iops, c.estate_iops),
        (Target::ThroughputMibps, _, _) => (o.throughput_mibps, c.estate_throughput_mibps),
        (Target::CapacityGib, _, _) => (0.0, 0.0),
    }
}

/// This cluster's share of the user's target, in words: 9,203,684.2 of the 14,772,000 IOPS
/// given as `iops` (the setting named once: the command shows `--iops`, the web page its
/// field's label, "IOPS target").
fn of_target(t: Target, mine: f64, estate: f64, peak: bool) -> String {
    let (unit, setting) = match (t, peak) {
        (Target::Iops, false) => ("IOPS", "iops"),
        (Target::Iops, true) => ("IOPS", "peak_iops"),
        (_, false) => ("MiB/s", "throughput_mibps"),
        (_, true) => ("MiB/s", "peak_throughput_mibps"),
    };
    format!(
        "{} of the {} {unit} given as `{setting}`",
        show_number(mine),
        show_number(estate)
    )
}

/// What cluster `c` carries of the user's target `t` (the figure it cannot meet is
/// `required`), in words.
fn carries(
    c: &ClusterDemand,
    options: &OptimizeOptions,
    t: Target,
    required: f64,
    peak: bool,
) -> String {
    let name = &c.cluster;
    let when = if peak { " in the peak months" } else { "" };
    let (_, estate) = targets(c, options, t, peak);
    if t == Target::CapacityGib {
        return format!("cluster '{name}'");
    }
    if estate > 0.0 {
        format!(
            "cluster '{name}' carries {:.1}% of the capacity, so {}{when}",
            c.capacity_share * 100.0,
            of_target(t, required, estate, peak)
        )
    } else {
        format!(
            "cluster '{name}': its VMs' per-VM figures (`perf`) add up to {} {}{when}",
            show_number(required),
            if t == Target::Iops { "IOPS" } else { "MiB/s" }
        )
    }
}

/// The cluster's hosts, where the count came from, and its options: those hosts and its
/// capacity share of the peak targets.
fn cluster_options(
    c: &ClusterDemand,
    limits: &Limits,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> (u32, String, OptimizeOptions) {
    let (n, source) = cluster_hosts(c, limits, hosts);
    let share = c.capacity_share;
    let opts = OptimizeOptions {
        hosts: n,
        peak: options.peak.as_ref().map(|p| PeakOptions {
            iops: p.iops * share,
            throughput_mibps: p.throughput_mibps * share,
            ..p.clone()
        }),
        perf_system: c
            .perf_system
            .clone()
            .unwrap_or_else(|| options.perf_system.clone()),
        ..options.clone()
    };
    (n, source, opts)
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
    if clamped > n {
        let source = format!(
            "{source}: {n}, raised to the AVS minimum of {} per cluster",
            limits.min_hosts
        );
        (clamped, source)
    } else if clamped < n {
        let source = format!(
            "{source}: {n}, capped at the AVS maximum of {} per cluster",
            limits.max_hosts
        );
        (clamped, source)
    } else {
        (clamped, source)
    }
}

/// The warning on a source cluster with more hosts than one AVS cluster holds.
fn capped_warning(name: &str, source_hosts: u32, max_hosts: u32) -> Warning {
    Warning::plan_wide(
        WarningKind::Plan,
        format!(
            "source cluster '{name}' has {source_hosts} hosts, more than the {max_hosts} one AVS \
             cluster holds: its datastores are planned for {max_hosts} hosts (their flows); its \
             VMs may need several AVS clusters: plan without `per_cluster` and `hosts` to size \
             the AVS clusters from the VMs' vCPUs and memory"
        ),
    )
}

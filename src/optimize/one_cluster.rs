//! One cluster's plan within an estate or a per-cluster plan ([`plan_cluster`]): its own
//! demand and hosts, its capacity share of the peak targets.

use super::run::{cheapest_cost_usd_per_month, optimize_part};
use super::{OptimizeError, OptimizeOptions, PeakOptions};
use crate::catalog::{Catalog, Limits};
use crate::demand::ClusterDemand;
use crate::inventory::Warning;
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
    let mut plan = optimize_part(&c.demand, catalog, model, &opts).map_err(|e| match e {
        OptimizeError::Infeasible {
            target,
            required,
            reachable,
            detail,
        } => OptimizeError::Infeasible {
            target,
            required,
            reachable,
            detail: format!("cluster '{name}': {detail}"),
        },
        other => other,
    })?;
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

/// The monthly cost of [`plan_cluster`]'s plan, without placing, explaining or verifying
/// it (for comparing host SKUs).
///
/// # Errors
/// As [`plan_cluster`], without the cluster's name in the message.
pub(super) fn cluster_cost(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<f64, OptimizeError> {
    let (_, _, opts) = cluster_options(c, &catalog.limits, options, hosts);
    cheapest_cost_usd_per_month(&c.demand, catalog, model, &opts)
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
    Warning::plan_wide(format!(
        "source cluster '{name}' has {source_hosts} hosts, more than the {max_hosts} one AVS \
         cluster holds: its datastores are planned for {max_hosts} hosts (their flows); its \
         VMs may need several AVS clusters: plan without `per_cluster` and `hosts` to size \
         the AVS clusters from the VMs' vCPUs and memory"
    ))
}

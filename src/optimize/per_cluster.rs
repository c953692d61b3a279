//! Per-cluster plans (`per_cluster`): each source cluster's [`ClusterDemand`] planned on
//! its own, with its own host count, and a total. Datastores attach to one AVS cluster, so
//! a cluster's VMs are served by that cluster's datastores only.

use super::account::{provisioned, quota_warnings};
use super::{OptimizeError, OptimizeOptions, PeakOptions, optimize};
use crate::catalog::{Catalog, Limits, arm_region_name};
use crate::demand::{ClusterDemand, ClusterDemands};
use crate::inventory::Warning;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlan, ClusterPlans, ClusterTotals, SCHEMA_VERSION};

/// Plans every cluster of `clusters` separately (from
/// [`crate::demand::split_by_cluster`]). Hosts: `hosts` when given, else the cluster's
/// hosts in the inventory, or the AVS minimum without host data; raised to the catalog's
/// AVS minimum and capped at its maximum. Peak targets are split by each cluster's
/// capacity share, like the base targets.
///
/// # Errors
/// Any error of [`optimize`] for a cluster, prefixed with its name in `detail` where it has
/// one.
pub fn optimize_per_cluster(
    clusters: &ClusterDemands,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<ClusterPlans, OptimizeError> {
    let mut out = Vec::with_capacity(clusters.clusters.len());
    for c in &clusters.clusters {
        out.push(plan_cluster(c, catalog, model, options, hosts)?);
    }
    let mut total = totals(&out, clusters);
    total.warnings = estate_warnings(&out, &catalog.limits, options);
    Ok(ClusterPlans {
        schema_version: SCHEMA_VERSION,
        clusters: out,
        total,
    })
}

/// One cluster's plan.
fn plan_cluster(
    c: &ClusterDemand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
) -> Result<ClusterPlan, OptimizeError> {
    let (n, source) = cluster_hosts(c, &catalog.limits, hosts);
    let share = c.capacity_share;
    let opts = OptimizeOptions {
        hosts: n,
        peak: options.peak.as_ref().map(|p| PeakOptions {
            iops: p.iops * share,
            throughput_mibps: p.throughput_mibps * share,
            ..p.clone()
        }),
        ..options.clone()
    };
    let name = &c.cluster;
    let plan = optimize(&c.demand, catalog, model, &opts).map_err(|e| match e {
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
    Ok(ClusterPlan {
        cluster: name.clone(),
        hosts: n,
        hosts_source: source,
        target_share: share,
        plan,
    })
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
    if clamped != n {
        let source = format!(
            "{source}: {n}, within AVS {}..{}",
            limits.min_hosts, limits.max_hosts
        );
        (clamped, source)
    } else {
        (clamped, source)
    }
}

/// Totals over the clusters' plans.
fn totals(out: &[ClusterPlan], clusters: &ClusterDemands) -> ClusterTotals {
    ClusterTotals {
        clusters: out.len(),
        hosts: out.iter().map(|c| c.hosts).sum(),
        datastores: out.iter().map(|c| c.plan.totals.datastores).sum(),
        pool_size_tib: out.iter().map(|c| c.plan.totals.pool_size_tib).sum(),
        placed_capacity_gib: out.iter().map(|c| c.plan.totals.placed_capacity_gib).sum(),
        cost_usd_per_month: (out
            .iter()
            .map(|c| c.plan.totals.cost_usd_per_month)
            .sum::<f64>()
            * 100.0)
            .round()
            / 100.0,
        vms_without_cluster: clusters.vms_without_cluster,
        vms_without_cluster_capacity_gib: clusters.vms_without_cluster_capacity_gib,
        warnings: Vec::new(),
    }
}

/// The regional capacity quota and the pools per NetApp account, over every cluster's
/// pools together (one subscription, region and account for the estate).
fn estate_warnings(
    out: &[ClusterPlan],
    limits: &Limits,
    options: &OptimizeOptions,
) -> Vec<Warning> {
    let (tib, pools) = out
        .iter()
        .map(|c| provisioned(&c.plan))
        .fold((0u32, 0usize), |(t, n), (ct, cn)| {
            (t.saturating_add(ct), n + cn)
        });
    let what = format!("the {} clusters' pools together", out.len());
    quota_warnings(limits, &arm_region_name(&options.region), tib, pools, &what)
}

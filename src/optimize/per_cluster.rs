//! Per-cluster plans (`--per-cluster`): each source cluster planned on its own, with its own
//! host count, and a total. Datastores attach to one AVS cluster, so a cluster's VMs are
//! served by that cluster's datastores only.

use std::collections::BTreeMap;

use super::{OptimizeError, OptimizeOptions, optimize};
use crate::catalog::Catalog;
use crate::demand::{self, DemandOptions};
use crate::inventory::Inventory;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlan, ClusterPlans, ClusterTotals, SCHEMA_VERSION};

/// Plans every source cluster of `inventory` separately (only those of
/// `demand_options.clusters` when it is not empty). The estate's IOPS and MiB/s targets are
/// split by each cluster's share of the placed capacity. Hosts: `hosts` when given, else
/// the larger of the cluster's hosts in vHost and the distinct hosts of vInfo's Host column
/// (or vCluster's host count), raised to the AVS minimum and capped at its maximum. With
/// `perf` (per-VM figures, `--perf`), each cluster's VMs that exceed one datastore spread
/// their VMDKs.
///
/// # Errors
/// [`OptimizeError::Invalid`] when no VM names a cluster or the demand options are
/// invalid; any error of [`optimize`] for a cluster, prefixed with its name in `detail`
/// where it has one.
pub fn optimize_per_cluster(
    inventory: &Inventory,
    demand_options: &DemandOptions,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    hosts: Option<u32>,
    perf: Option<&crate::ingest::PerfInput>,
) -> Result<ClusterPlans, OptimizeError> {
    let invalid = |detail: String| OptimizeError::Invalid {
        option: "per-cluster",
        value: String::new(),
        expected: detail,
    };
    let all = demand::derive(inventory, demand_options).map_err(|e| invalid(e.to_string()))?;
    let mut capacity: BTreeMap<String, f64> = BTreeMap::new();
    let mut without = (0usize, 0.0f64);
    for vm in &all.placed {
        match &vm.cluster {
            Some(c) => *capacity.entry(c.clone()).or_default() += vm.capacity_gib,
            None => {
                without.0 += 1;
                without.1 += vm.capacity_gib;
            }
        }
    }
    if capacity.is_empty() {
        return Err(invalid(
            "VMs that name their cluster (vInfo Cluster column)".into(),
        ));
    }
    let total_gib: f64 = capacity.values().sum();
    let limits = &catalog.limits;
    let mut out = Vec::new();
    for (name, gib) in &capacity {
        let share = if total_gib > 0.0 {
            gib / total_gib
        } else {
            1.0 / capacity.len() as f64
        };
        let (n, source) = match hosts {
            Some(h) => (h, "--hosts".to_string()),
            None => {
                // Hosts of the cluster: the larger of its vHost rows and the distinct hosts
                // vInfo names for its VMs (vHost may be incomplete; the two may spell a
                // host differently, so they are not added up).
                let in_vhost = inventory
                    .hosts
                    .iter()
                    .filter(|h| h.cluster.as_deref() == Some(name.as_str()))
                    .map(|h| h.name.as_str())
                    .collect::<std::collections::BTreeSet<&str>>()
                    .len();
                let in_vinfo = inventory
                    .vms
                    .iter()
                    .filter(|v| v.cluster.as_deref() == Some(name.as_str()))
                    .filter_map(|v| v.host.as_deref())
                    .collect::<std::collections::BTreeSet<&str>>()
                    .len();
                let vhost = in_vhost.max(in_vinfo).min(u32::MAX as usize) as u32;
                let vcluster = inventory
                    .clusters
                    .iter()
                    .find(|c| &c.name == name)
                    .and_then(|c| c.num_hosts)
                    .map(|n| n.min(u64::from(u32::MAX)) as u32);
                match (vhost, vcluster) {
                    (v, _) if v > 0 => (v, "vHost and vInfo hosts".to_string()),
                    (_, Some(v)) if v > 0 => (v, "vCluster".to_string()),
                    _ => (limits.min_hosts, "AVS minimum (no host data)".to_string()),
                }
            }
        };
        let clamped = n.clamp(limits.min_hosts, limits.max_hosts);
        let source = if clamped != n {
            format!(
                "{source}: {n}, within AVS {}..{}",
                limits.min_hosts, limits.max_hosts
            )
        } else {
            source
        };
        let o = DemandOptions {
            clusters: vec![name.clone()],
            iops: demand_options.iops * share,
            throughput_mibps: demand_options.throughput_mibps * share,
            ..demand_options.clone()
        };
        let mut d = demand::derive(inventory, &o).map_err(|e| invalid(e.to_string()))?;
        d.warnings.clear();
        if let Some(p) = perf {
            d.attach_perf(inventory, p);
            // Without estate targets, each cluster's targets are its own VMs' figures.
            d.targets_from_perf();
        }
        let opts = OptimizeOptions {
            hosts: clamped,
            peak: options.peak.as_ref().map(|p| super::PeakOptions {
                iops: p.iops * share,
                throughput_mibps: p.throughput_mibps * share,
                ..p.clone()
            }),
            ..options.clone()
        };
        let plan = optimize(&d, catalog, model, &opts).map_err(|e| match e {
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
        out.push(ClusterPlan {
            cluster: name.clone(),
            hosts: clamped,
            hosts_source: source,
            target_share: share,
            plan,
        });
    }
    let total = ClusterTotals {
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
        vms_without_cluster: without.0,
        vms_without_cluster_capacity_gib: without.1,
    };
    Ok(ClusterPlans {
        schema_version: SCHEMA_VERSION,
        clusters: out,
        total,
    })
}

//! Per-cluster demands (`per_cluster`): the estate split by source cluster, each with its
//! own VMs, its capacity share of the estate's targets and the host count the inventory
//! gives it. Datastores attach to one AVS cluster, so each cluster is planned on its own.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{Demand, DemandError, DemandOptions, derive};
use crate::ingest::PerfInput;
use crate::inventory::Inventory;

/// One source cluster's share of the estate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterDemand {
    /// Source cluster name, as the VMs spell it.
    pub cluster: String,
    /// The cluster's own demand: its VMs only, with the estate's IOPS and MiB/s targets
    /// times [`ClusterDemand::capacity_share`]; with per-VM performance figures (`perf`)
    /// and no estate targets, the sums of its own VMs' figures instead. Its warnings are
    /// left empty (the estate's demand carries them).
    pub demand: Demand,
    /// The cluster's share of the estate's placed capacity, 0..=1 (equal shares when the
    /// estate holds no capacity).
    pub capacity_share: f64,
    /// AVS hosts the inventory gives the cluster, count: the larger of its vHost rows and
    /// the distinct hosts vInfo names for its VMs, else vCluster's host count; `None` when
    /// the inventory has no host data for it.
    pub source_hosts: Option<u32>,
    /// Where [`ClusterDemand::source_hosts`] came from: `vHost and vInfo hosts`,
    /// `vCluster`, or `no host data`.
    pub hosts_source: String,
}

/// The estate split by source cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterDemands {
    /// One demand per source cluster, by name.
    pub clusters: Vec<ClusterDemand>,
    /// VMs in scope that name no cluster (not planned), count.
    pub vms_without_cluster: usize,
    /// Their capacity on the chosen basis, GiB.
    pub vms_without_cluster_capacity_gib: f64,
}

/// Splits the estate by source cluster (only those of `options.clusters` when it is not
/// empty): each cluster's demand holds its own VMs, and the estate's IOPS and MiB/s
/// targets are split by each cluster's share of the placed capacity. With `perf` (per-VM
/// figures), each cluster's VMs get their figures, and a cluster without estate targets
/// takes its own VMs' sums as targets.
///
/// # Errors
/// Any error of [`derive()`] for the estate or a cluster; [`DemandError::NoCluster`] when no
/// VM in scope names its cluster.
pub fn split_by_cluster(
    inventory: &Inventory,
    options: &DemandOptions,
    perf: Option<&PerfInput>,
) -> Result<ClusterDemands, DemandError> {
    let all = derive(inventory, options)?;
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
        return Err(DemandError::NoCluster);
    }
    let total_gib: f64 = capacity.values().sum();
    let mut clusters = Vec::with_capacity(capacity.len());
    for (name, gib) in &capacity {
        let share = if total_gib > 0.0 {
            gib / total_gib
        } else {
            1.0 / capacity.len() as f64
        };
        clusters.push(cluster_demand(inventory, options, perf, name, share)?);
    }
    Ok(ClusterDemands {
        clusters,
        vms_without_cluster: without.0,
        vms_without_cluster_capacity_gib: without.1,
    })
}

/// The demand of one cluster with `share` of the estate's targets.
fn cluster_demand(
    inventory: &Inventory,
    options: &DemandOptions,
    perf: Option<&PerfInput>,
    name: &str,
    share: f64,
) -> Result<ClusterDemand, DemandError> {
    let o = DemandOptions {
        clusters: vec![name.to_string()],
        iops: options.iops * share,
        throughput_mibps: options.throughput_mibps * share,
        ..options.clone()
    };
    let mut demand = derive(inventory, &o)?;
    demand.warnings.clear();
    if let Some(p) = perf {
        demand.attach_perf(inventory, p);
        // Without estate targets, each cluster's targets are its own VMs' figures.
        demand.targets_from_perf();
    }
    let (source_hosts, hosts_source) = match cluster_hosts(inventory, name) {
        Some((n, source)) => (Some(n), source.to_string()),
        None => (None, "no host data".to_string()),
    };
    Ok(ClusterDemand {
        cluster: name.to_string(),
        demand,
        capacity_share: share,
        source_hosts,
        hosts_source,
    })
}

/// Hosts of the cluster and where the count came from: the larger of its vHost rows and
/// the distinct hosts vInfo names for its VMs (vHost may be incomplete; the two may spell a
/// host differently, so they are not added up), else vCluster's host count.
fn cluster_hosts(inventory: &Inventory, name: &str) -> Option<(u32, &'static str)> {
    let in_vhost = inventory
        .hosts
        .iter()
        .filter(|h| h.cluster.as_deref() == Some(name))
        .map(|h| h.name.as_str())
        .collect::<BTreeSet<&str>>()
        .len();
    let in_vinfo = inventory
        .vms
        .iter()
        .filter(|v| v.cluster.as_deref() == Some(name))
        .filter_map(|v| v.host.as_deref())
        .collect::<BTreeSet<&str>>()
        .len();
    let vhost = in_vhost.max(in_vinfo).min(u32::MAX as usize) as u32;
    let vcluster = inventory
        .clusters
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| c.num_hosts)
        .map(|n| n.min(u64::from(u32::MAX)) as u32);
    match (vhost, vcluster) {
        (v, _) if v > 0 => Some((v, "vHost and vInfo hosts")),
        (_, Some(v)) if v > 0 => Some((v, "vCluster")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Origin, Vm};

    fn vm(name: &str, cluster: Option<&str>, host: Option<&str>, used_mib: f64) -> Vm {
        let origin = Origin {
            file: "t.xlsx".into(),
            sheet: "vInfo".into(),
            row: 2,
        };
        Vm {
            cluster: cluster.map(str::to_string),
            host: host.map(str::to_string),
            in_use_mib: Some(used_mib),
            provisioned_mib: Some(used_mib),
            ..Vm::new(name, origin)
        }
    }

    #[test]
    fn targets_split_by_capacity_share_and_hosts_counted() {
        // c1: 3 GiB on hosts h1, h2; c2: 1 GiB, no host data; one VM without a cluster.
        let inv = Inventory {
            vms: vec![
                vm("a", Some("c1"), Some("h1"), 2048.0),
                vm("b", Some("c1"), Some("h2"), 1024.0),
                vm("c", Some("c2"), None, 1024.0),
                vm("d", None, None, 512.0),
            ],
            ..Inventory::default()
        };
        let opts = DemandOptions {
            iops: 4000.0,
            ..DemandOptions::default()
        };
        let s = split_by_cluster(&inv, &opts, None).unwrap();
        assert_eq!(s.clusters.len(), 2);
        let (c1, c2) = (&s.clusters[0], &s.clusters[1]);
        assert_eq!((c1.cluster.as_str(), c1.capacity_share), ("c1", 0.75));
        assert_eq!(c1.demand.options.iops, 3000.0);
        assert_eq!(c1.demand.placed.len(), 2);
        assert_eq!(c1.source_hosts, Some(2));
        assert_eq!(c1.hosts_source, "vHost and vInfo hosts");
        assert_eq!(c2.demand.options.iops, 1000.0);
        assert_eq!(
            (c2.source_hosts, c2.hosts_source.as_str()),
            (None, "no host data")
        );
        assert_eq!(s.vms_without_cluster, 1);
        assert_eq!(s.vms_without_cluster_capacity_gib, 0.5);
    }

    #[test]
    fn no_vm_naming_a_cluster_is_an_error() {
        let inv = Inventory {
            vms: vec![vm("a", None, None, 1024.0)],
            ..Inventory::default()
        };
        let e = split_by_cluster(&inv, &DemandOptions::default(), None).unwrap_err();
        assert_eq!(e, DemandError::NoCluster);
    }
}

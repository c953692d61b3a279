//! Per-cluster demands (`per_cluster`): the estate split by source cluster, each with its
//! own VMs, its capacity share of the estate's targets and the host count the inventory
//! gives it. Datastores attach to one AVS cluster, so each cluster is planned on its own.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Demand, DemandError, DemandOptions, ExcludedVm, ExclusionReason, derive};
use crate::ingest::PerfInput;
use crate::inventory::{ClusterHosts, Inventory};

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
    /// The estate's IOPS target, which the cluster's is `capacity_share` of (0 when the
    /// cluster's targets are its own VMs' per-VM sums, or none is given): messages name it.
    #[serde(default)]
    pub estate_iops: f64,
    /// The estate's MiB/s target, likewise.
    #[serde(default)]
    pub estate_throughput_mibps: f64,
    /// Hosts the inventory gives the cluster, count, as
    /// [`Inventory::cluster_hosts`] counts them (the one count of the inventory's text and
    /// JSON); `None` when the inventory has no host data for it.
    pub source_hosts: Option<u32>,
    /// Where [`ClusterDemand::source_hosts`] came from ([`ClusterHosts::source`]), or `no
    /// host data`.
    pub hosts_source: String,
    /// The performance system of its hosts, when it is not the plan's (an estate's
    /// clusters of another host SKU); `None`: the plan's `perf_system`.
    #[serde(default)]
    pub perf_system: Option<String>,
}

/// The estate split by source cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterDemands {
    /// One demand per source cluster, by name.
    pub clusters: Vec<ClusterDemand>,
    /// VMs in scope that name no cluster (not planned: each is in `excluded`, reason
    /// [`ExclusionReason::NoCluster`]), count.
    pub vms_without_cluster: usize,
    /// Their capacity on the chosen basis, GiB.
    pub vms_without_cluster_capacity_gib: f64,
    /// The estate's excluded VMs, each once, in inventory order (the clusters' demands
    /// hold none: each lists only its own VMs).
    #[serde(default)]
    pub excluded: Vec<ExcludedVm>,
}

/// Splits the estate by source cluster (only those of `options.clusters` when it is not
/// empty): each cluster's demand holds its own VMs, and the estate's IOPS and MiB/s
/// targets are split by each cluster's share of the placed capacity. With `perf` (per-VM
/// figures), each cluster's VMs get their figures, and a cluster without estate targets
/// takes its own VMs' sums as targets.
///
/// The estate is derived once and its placed VMs partitioned by cluster name (exactly as
/// vInfo spells it), so the time and the output grow with the VMs, not with clusters x
/// VMs; the estate's excluded VMs are listed once, in [`ClusterDemands::excluded`].
///
/// # Errors
/// Any error of [`derive()`] for the estate; [`DemandError::NoCluster`] when no VM in scope
/// names its cluster.
pub fn split_by_cluster(
    inventory: &Inventory,
    options: &DemandOptions,
    perf: Option<&PerfInput>,
) -> Result<ClusterDemands, DemandError> {
    let mut all = derive(inventory, options)?;
    if let Some(p) = perf {
        // Once for the estate: each cluster's subset then carries its VMs' figures.
        all.attach_perf(inventory, p);
    }
    // VMs naming no cluster are planned in none: excluded, each with its reason.
    let no_cluster: Vec<usize> = (all.placed.iter().enumerate())
        .filter(|(_, vm)| vm.cluster.is_none())
        .map(|(i, _)| i)
        .collect();
    let without = (
        no_cluster.len(),
        no_cluster
            .iter()
            .filter_map(|&i| all.placed.get(i))
            .fold(0.0, |a, vm| a + vm.capacity_gib),
    );
    if !no_cluster.is_empty() {
        all = all.exclude_placed(&no_cluster, ExclusionReason::NoCluster);
    }
    // Cluster -> indices into `all.placed`, in inventory order.
    let mut members: BTreeMap<&str, (Vec<usize>, f64)> = BTreeMap::new();
    for (i, vm) in all.placed.iter().enumerate() {
        if let Some(c) = &vm.cluster {
            let e = members.entry(c.as_str()).or_default();
            e.0.push(i);
            e.1 += vm.capacity_gib;
        }
    }
    if members.is_empty() {
        return Err(DemandError::NoCluster);
    }
    let total_gib: f64 = members.values().map(|m| m.1).sum();
    let hosts = inventory.cluster_hosts();
    let mut clusters = Vec::with_capacity(members.len());
    for (name, (indices, gib)) in &members {
        let share = if total_gib > 0.0 {
            gib / total_gib
        } else {
            1.0 / members.len() as f64
        };
        clusters.push(cluster_demand(
            &all,
            indices,
            perf.is_some(),
            name,
            share,
            &hosts,
        ));
    }
    Ok(ClusterDemands {
        clusters,
        vms_without_cluster: without.0,
        vms_without_cluster_capacity_gib: without.1,
        excluded: all.excluded,
    })
}

/// The demand of one cluster (its placed VMs at `indices` of the estate's) with `share`
/// of the estate's targets; with per-VM figures and no estate targets, its own sums.
fn cluster_demand(
    all: &Demand,
    indices: &[usize],
    with_perf: bool,
    name: &str,
    share: f64,
    hosts: &BTreeMap<Option<String>, ClusterHosts>,
) -> ClusterDemand {
    let mut demand = all.subset(indices);
    demand.options.clusters = vec![name.to_string()];
    demand.options.iops = all.options.iops * share;
    demand.options.throughput_mibps = all.options.throughput_mibps * share;
    // Without estate targets, each cluster's targets are its own VMs' figures.
    let own = with_perf && demand.targets_from_perf().is_some();
    let (estate_iops, estate_throughput_mibps) = if own {
        (0.0, 0.0)
    } else {
        (all.options.iops, all.options.throughput_mibps)
    };
    let (source_hosts, hosts_source) = match hosts.get(&Some(name.to_string())) {
        Some(h) if h.count > 0 => (
            Some(u32::try_from(h.count).unwrap_or(u32::MAX)),
            h.source.clone(),
        ),
        _ => (None, "no host data".to_string()),
    };
    ClusterDemand {
        cluster: name.to_string(),
        demand,
        capacity_share: share,
        estate_iops,
        estate_throughput_mibps,
        source_hosts,
        hosts_source,
        perf_system: None,
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
            cluster: cluster.map(Into::into),
            host: host.map(Into::into),
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
        // No vHost tab in this inventory: the distinct vInfo names, h1 and h2.
        assert_eq!(c1.hosts_source, "vInfo Host names (no vHost tab)");
        assert_eq!(c2.demand.options.iops, 1000.0);
        assert_eq!(
            (c2.source_hosts, c2.hosts_source.as_str()),
            (None, "no host data")
        );
        assert_eq!(s.vms_without_cluster, 1);
        assert_eq!(s.vms_without_cluster_capacity_gib, 0.5);
        // d (512 MiB = 0.5 GiB) is planned in no cluster: listed, with its reason.
        let excluded: Vec<_> = (s.excluded.iter())
            .map(|e| (e.name.as_str(), e.reason, e.capacity_gib))
            .collect();
        assert_eq!(excluded, [("d", ExclusionReason::NoCluster, Some(0.5))]);
    }

    #[test]
    fn excluded_vms_listed_once_for_the_estate_and_hosts_from_vhost_or_vcluster() {
        use crate::inventory::{Cluster, Host, PowerState};
        // c1: a (1 GiB, on) and t (a template); c2: b (3 GiB, on) and p (powered off).
        // With `exclude_powered_off`: t and p excluded, once, for the estate; each cluster
        // holds only its own placed VM. Shares 1/4 and 3/4 of 8,000 IOPS: 2,000 and 6,000.
        let mut t = vm("t", Some("c1"), None, 4096.0);
        t.template = Some(true);
        let mut p = vm("p", Some("c2"), None, 2048.0);
        p.power_state = PowerState::PoweredOff;
        let origin = t.origin.clone();
        let host = |name: &str, cluster: &str| Host {
            name: name.into(),
            datacenter: None,
            cluster: Some(cluster.into()),
            cpu_sockets: None,
            cpu_cores: None,
            memory_mib: None,
            vms_running: None,
            vms_total: None,
            esx_version: None,
            vi_sdk_server: None,
            origin: origin.clone(),
        };
        let vcluster = |name: &str, n: u64| Cluster {
            name: name.into(),
            num_hosts: Some(n),
            num_effective_hosts: None,
            total_cpu_mhz: None,
            num_cpu_cores: None,
            total_memory_mib: None,
            vi_sdk_server: None,
            origin: origin.clone(),
        };
        let inv = Inventory {
            vms: vec![
                vm("a", Some("c1"), Some("h1"), 1024.0),
                t,
                vm("b", Some("c2"), None, 3072.0),
                p,
            ],
            // c1: vHost names h1..h3 (3) against vInfo's one host: 3. c2: no host rows,
            // vCluster says 5 (the first row of that name; the second is ignored).
            hosts: vec![host("h1", "c1"), host("h2", "c1"), host("h3", "c1")],
            clusters: vec![vcluster("c2", 5), vcluster("c2", 9)],
            ..Inventory::default()
        };
        let opts = DemandOptions {
            iops: 8000.0,
            exclude_powered_off: true,
            ..DemandOptions::default()
        };
        let s = split_by_cluster(&inv, &opts, None).unwrap();
        let names: Vec<&str> = s.excluded.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["t", "p"]);
        let (c1, c2) = (&s.clusters[0], &s.clusters[1]);
        assert!(c1.demand.excluded.is_empty() && c2.demand.excluded.is_empty());
        assert_eq!((c1.demand.placed.len(), c2.demand.placed.len()), (1, 1));
        assert_eq!(
            (c1.demand.options.iops, c2.demand.options.iops),
            (2000.0, 6000.0)
        );
        assert_eq!(c1.demand.options.clusters, ["c1"]);
        assert_eq!(
            (c1.source_hosts, c1.hosts_source.as_str()),
            (Some(3), "vHost rows (vInfo Host names agree)")
        );
        assert_eq!(
            (c2.source_hosts, c2.hosts_source.as_str()),
            (Some(5), "vCluster NumHosts")
        );
    }

    #[test]
    fn perf_figures_attached_once_reach_each_clusters_vms_and_targets() {
        use crate::ingest::{PerfInput, VmPerf};
        // a (c1) 500 IOPS twice (the larger kept: 700), b (c2) 300 IOPS and 20 MiB/s.
        // Without estate targets each cluster's targets are its own sums: c1 700 / 0,
        // c2 300 / 20.
        let mut b = vm("b", Some("c2"), None, 1024.0);
        b.origin.row = 3; // perf rows join by the VM's origin: one row each
        let inv = Inventory {
            vms: vec![vm("a", Some("c1"), None, 1024.0), b],
            ..Inventory::default()
        };
        let row = |i: usize, iops: f64, mibps: Option<f64>| VmPerf {
            vm: inv.vms[i].name.clone(),
            vm_key: Some(inv.vms[i].key()),
            iops: Some(iops),
            throughput_mibps: mibps,
            read_pct: None,
            block_kib: None,
            origin: inv.vms[i].origin.clone(),
        };
        let perf = PerfInput {
            rows: vec![
                row(0, 500.0, None),
                row(0, 700.0, None),
                row(1, 300.0, Some(20.0)),
            ],
            ..PerfInput::default()
        };
        let s = split_by_cluster(&inv, &DemandOptions::default(), Some(&perf)).unwrap();
        let (c1, c2) = (&s.clusters[0].demand, &s.clusters[1].demand);
        assert_eq!(c1.placed[0].iops, Some(700.0));
        assert_eq!((c1.options.iops, c1.options.throughput_mibps), (700.0, 0.0));
        assert_eq!(
            (c2.options.iops, c2.options.throughput_mibps),
            (300.0, 20.0)
        );
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

//! Each private cloud's first cluster (`Cluster-1`): it carries the management resource
//! pool AVS reserves there ([`ManagementReservation`]), and on AV64 in a Gen 1 private
//! cloud it must be of another SKU (`first_cluster_skus` in `data/avs_hosts.csv`).
//!
//! - The reservation: 46 GHz of CPU and 171.88 GB of memory (`data/limits.csv`), "which
//!   you can't change" (learn.microsoft.com/azure/azure-vmware/architecture-private-clouds,
//!   2025-08-14, include hosts-minimum-initial-deployment-statement, 2025-04-02). The GHz
//!   become whole cores at the SKU's base clock, rounded up (`ceil(46 / 2.6)` = 18 on
//!   AV36P), and those cores `x vcpu_per_core` vCPUs the cluster cannot give VMs; the GB are
//!   decimal, like host RAM, and physical: with `memory_overcommit` they count `overcommit`
//!   times in the VMs' memory sum, so they take their own GB of each host's.
//! - The first cluster of a private cloud is the one of its clusters whose hosts grow least
//!   with the reservation (ties: the earlier cluster); a cluster that would pass the AVS
//!   maximum with it cannot be first. An estate design that gives its clusters other hosts
//!   ([`AvsCluster::set_design_hosts`]: ANF for all's, the hybrid's, per role) ranks them
//!   first by what being the first costs it more (the hosts the reservation adds, and for
//!   vSAN the first cluster's larger reserve), then by the hosts it adds. When none of a private cloud's clusters can be first
//!   (all of AV64 Gen 1, or all full), a cluster without VMs is added to hold it
//!   ([`EstateSizing::first_fallback`]): of the same SKU (`avs-mgmt-N`), or for AV64 Gen 1
//!   the seed cluster the estate optimizer picks (`avs-seed-N`).
//! - Private clouds are packed with each one's first cluster counted
//!   ([`super::pack::pack_with_first`]): 12 clusters and 96 hosts, the reservation's hosts
//!   and the added cluster included.

use serde::{Deserialize, Serialize};

use super::pack::{HostCapacity, HostNeed, PackItem, VmLoad, host_need, pack_with_first, sums};
use super::{AvsCluster, BYTES_PER_GB, BYTES_PER_GIB, Driver, EstateSizing, PrivateCloud};
use super::{SizingOptions, capacity, check_fit, cluster, vm_loads};
use crate::demand::Demand;
use crate::vsan::{AvsLimits, HostSku};

/// The management resource pool AVS reserves in a private cloud's first cluster, as that
/// cluster's sizing counts it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ManagementReservation {
    /// CPU reserved, GHz (`data/limits.csv` `mgmt_reservation_cpu_ghz`).
    pub cpu_ghz: f64,
    /// The SKU's base clock, GHz (`data/avs_hosts.csv`).
    pub base_clock_ghz: f64,
    /// Whole cores that CPU takes: `ceil(cpu_ghz / base_clock_ghz)`.
    pub cores: u32,
    /// vCPUs the cluster cannot give VMs: `cores x vcpu_per_core`.
    pub vcpus: f64,
    /// Memory reserved, GB as published (`mgmt_reservation_memory_gb`).
    pub memory_gb: f64,
    /// The same in GiB: `memory_gb x 10^9 / 2^30`.
    pub memory_gib: f64,
    /// Hosts it adds to the cluster: its hosts with the reservation less those without (in
    /// an estate design, its hosts as the first cluster less those as another: in the
    /// hybrid the first cluster's larger vSAN reserve may add to them).
    pub added_hosts: u32,
}

/// What a cluster's hosts come from (not serialized): its VMs' need, the need with the
/// management reservation when it can be its private cloud's first cluster, the hosts an
/// estate design raises it to as another cluster and as the first (`raise[0]`,
/// `raise[1]`), and what being the first costs more in that design, cents (it ranks the
/// private cloud's first cluster before the hosts it adds; 0 when sized for compute).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct ClusterNeeds {
    pub own: HostNeed,
    pub first: Option<(HostNeed, ManagementReservation)>,
    pub raise: [Raise; 2],
    pub first_extra_cents: i64,
}

/// Hosts a design raises a cluster to beyond its compute (0: none), and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Raise {
    pub hosts: u32,
    pub driver: Driver,
}

impl Default for Raise {
    fn default() -> Self {
        Raise {
            hosts: 0,
            driver: Driver::Storage,
        }
    }
}

/// The reservation on hosts of `host` under `o` (its `added_hosts` 0).
pub(super) fn reservation(
    host: &HostSku,
    limits: &AvsLimits,
    o: &SizingOptions,
) -> ManagementReservation {
    let ratio = limits.mgmt_reservation_cpu_ghz / host.base_clock_ghz;
    // Whole cores, rounded up (1e-9 keeps an exact ratio from rounding up once more).
    let cores = (ratio - 1e-9).ceil().max(0.0) as u32;
    ManagementReservation {
        cpu_ghz: limits.mgmt_reservation_cpu_ghz,
        base_clock_ghz: host.base_clock_ghz,
        cores,
        vcpus: f64::from(cores) * o.vcpu_per_core,
        memory_gb: limits.mgmt_reservation_memory_gb,
        memory_gib: limits.mgmt_reservation_memory_gb * BYTES_PER_GB / BYTES_PER_GIB,
        added_hosts: 0,
    }
}

/// The needs of VMs of `vcpus` and `memory_gib` on hosts of `cap`: their own, and with
/// `reservation` (when the SKU can be a first cluster) where that stays within one
/// cluster.
pub(super) fn needs(
    (vcpus, memory_gib): (f64, f64),
    cap: HostCapacity,
    reservation: Option<ManagementReservation>,
    o: &SizingOptions,
    limits: &AvsLimits,
) -> ClusterNeeds {
    let min = limits.min_hosts_per_cluster;
    let own = host_need(vcpus, memory_gib, cap, o.ha_hosts, min);
    let first = reservation
        .map(|r| {
            let memory = memory_gib + r.memory_gib * o.memory_overcommit;
            let need = host_need(vcpus + r.vcpus, memory, cap, o.ha_hosts, min);
            (need, r)
        })
        .filter(|(n, _)| n.hosts <= limits.max_hosts_per_cluster);
    ClusterNeeds {
        own,
        first,
        raise: [Raise::default(); 2],
        first_extra_cents: 0,
    }
}

/// A cluster without VMs to be its private cloud's first cluster, on `host`: the AVS
/// minimum, or what the reservation needs with the HA reserve. `None` when `host` cannot
/// be a first cluster.
pub fn management_only_cluster(
    name: &str,
    host: &HostSku,
    limits: &AvsLimits,
    o: &SizingOptions,
) -> Option<AvsCluster> {
    let needs = first_needs(host, &[], limits, o)?;
    let mut c = cluster(name.to_string(), None, &[], host, o, needs);
    c.management_only = true;
    c.apply(true);
    Some(c)
}

/// The needs of VMs `part` on hosts of `host` that can hold the reservation as their
/// private cloud's first cluster; `None` when `host` cannot be a first cluster or they
/// then need more hosts than one cluster holds.
fn first_needs(
    host: &HostSku,
    part: &[VmLoad],
    limits: &AvsLimits,
    o: &SizingOptions,
) -> Option<ClusterNeeds> {
    if !host.can_be_first() {
        return None;
    }
    let r = reservation(host, limits, o);
    let needs = needs(sums(part), capacity(host, limits, o), Some(r), o, limits);
    needs.first.map(|_| needs)
}

/// Cluster `c`'s VMs re-sized on hosts of `host` as their private cloud's first cluster
/// (same name, VMs and private cloud; the management reservation counted): for AV64 in a
/// Gen 1 private cloud, one of its own clusters made the first cluster of AV36, AV36P or
/// AV52 hosts it needs. `None` when `host` cannot be a first cluster, a VM does not fit
/// one of its hosts, or with the reservation its VMs need more hosts than one cluster holds.
pub fn first_cluster_on(
    demand: &Demand,
    c: &AvsCluster,
    host: &HostSku,
    limits: &AvsLimits,
    o: &SizingOptions,
) -> Option<AvsCluster> {
    let (all, _) = vm_loads(demand, o.memory_basis);
    let part: Vec<VmLoad> = c
        .vm_indices
        .iter()
        .filter_map(|&i| all.get(i).copied())
        .collect();
    check_fit(demand, &part, host, limits).ok()?;
    let needs = first_needs(host, &part, limits, o)?;
    let mut out = AvsCluster {
        sku: host.sku.clone(),
        needs,
        management: None,
        ..c.clone()
    };
    out.apply(true);
    Some(out)
}

impl AvsCluster {
    /// Its hosts for compute (the VMs' vCPUs and memory, the management reservation when
    /// it is its private cloud's first cluster, the HA reserve, the AVS minimum), before
    /// any host its datastores add.
    pub fn compute_hosts(&self) -> u32 {
        match (&self.management, self.needs.first) {
            (Some(_), Some((first, _))) => first.hosts,
            _ => self.needs.own.hosts,
        }
    }

    /// What decides its compute hosts ([`AvsCluster::compute_hosts`]): vCPU, memory or the
    /// AVS minimum, whatever a design added beyond them.
    pub fn compute_driver(&self) -> Driver {
        match (&self.management, self.needs.first) {
            (Some(_), Some((first, _))) => first.driver,
            _ => self.needs.own.driver,
        }
    }

    /// Grows it to `hosts` for `driver` where that is more than it has (the management
    /// reservation and its compute needs kept as they are): a design's last word on it,
    /// after its private cloud is assigned.
    pub(crate) fn grow_to(&mut self, hosts: u32, driver: Driver) {
        if hosts > self.hosts {
            self.hosts = hosts;
            self.driver = driver;
        }
    }

    /// Its hosts without the management reservation: its VMs' own need, or what a design
    /// raised it to as another cluster.
    pub(crate) fn hosts_without_management(&self) -> u32 {
        self.needs.own.hosts.max(self.needs.raise[0].hosts)
    }

    /// Raises it to `hosts` hosts for its datastores' performance, in either role, where
    /// that is more than before ([`Driver::Storage`] where more than its compute hosts).
    pub fn raise_for_storage(&mut self, hosts: u32) {
        let raise = |r: Raise| Raise {
            hosts: r.hosts.max(hosts),
            driver: if hosts > r.hosts {
                Driver::Storage
            } else {
                r.driver
            },
        };
        self.set_design_hosts(raise(self.needs.raise[0]), raise(self.needs.raise[1]), 0);
    }

    /// Sets the hosts an estate design gives it as another cluster (`other`) and as its
    /// private cloud's first cluster (`first`), each with why where more than its compute,
    /// and what being the first costs more there, cents (ranks the first cluster); call
    /// [`EstateSizing::assign_private_clouds`] after.
    pub(crate) fn set_design_hosts(&mut self, other: Raise, first: Raise, first_extra_cents: i64) {
        self.needs.raise = [other, first];
        self.needs.first_extra_cents = first_extra_cents;
        self.apply(self.management.is_some());
    }

    /// Its hosts as its private cloud's first cluster, `None` when it cannot be one.
    pub(crate) fn hosts_as_first(&self) -> Option<u32> {
        self.needs
            .first
            .map(|(n, _)| n.hosts.max(self.needs.raise[1].hosts))
    }

    /// Its compute hosts as its private cloud's first cluster (the reservation counted),
    /// before any host a design adds; `None` when it cannot be one.
    pub fn compute_hosts_as_first(&self) -> Option<u32> {
        self.needs.first.map(|(n, _)| n.hosts)
    }

    /// Its compute hosts as another cluster (its VMs' own need, HA reserve and the AVS
    /// minimum).
    pub fn compute_hosts_as_other(&self) -> u32 {
        self.needs.own.hosts
    }

    /// Sets its hosts, the hosts for vCPU and memory, the driver and the reservation, as
    /// its private cloud's first cluster or not.
    pub(super) fn apply(&mut self, first: bool) {
        let (need, mut management) = match self.needs.first {
            Some((n, r)) if first => (n, Some(r)),
            _ => (self.needs.own, None),
        };
        self.hosts_for_vcpu = need.by_vcpu;
        self.hosts_for_memory = need.by_memory;
        let raise = self.needs.raise[usize::from(management.is_some())];
        if raise.hosts > need.hosts {
            self.hosts = raise.hosts;
            self.driver = raise.driver;
        } else {
            self.hosts = need.hosts;
            self.driver = need.driver;
        }
        if let Some(r) = &mut management {
            r.added_hosts = self.hosts.saturating_sub(self.hosts_without_management());
        }
        self.management = management;
    }
}

impl EstateSizing {
    /// The cluster added to a private cloud none of whose clusters can be its first
    /// cluster (`None`: none is added).
    pub fn first_fallback(&self) -> Option<&AvsCluster> {
        self.first_fallback.as_ref()
    }

    /// Sets the cluster added to a private cloud none of whose clusters can be first
    /// (for AV64 in a Gen 1 private cloud, the seed cluster of another SKU); call
    /// [`EstateSizing::assign_private_clouds`] after.
    pub fn set_first_fallback(&mut self, cluster: Option<AvsCluster>) {
        self.first_fallback = cluster;
    }

    /// Replaces cluster `i` (same name, VMs and place) with `cluster`, a re-sizing of its
    /// VMs on another SKU; call [`EstateSizing::assign_private_clouds`] after.
    pub fn replace_cluster(&mut self, i: usize, cluster: AvsCluster) {
        if let Some(c) = self.clusters.get_mut(i) {
            *c = cluster;
        }
    }

    /// The clusters packed into private clouds (first fit decreasing, 12 clusters and 96
    /// hosts each, each private cloud's first cluster counted: the reservation's hosts, or
    /// an added cluster), each first cluster given the management reservation, and the
    /// hosts over all clusters. Clusters added by an earlier call are dropped first.
    pub fn assign_private_clouds(&mut self, limits: &AvsLimits) {
        self.clusters.retain(|c| !c.management_only);
        let items: Vec<PackItem> = self
            .clusters
            .iter()
            .map(|c| PackItem {
                hosts: c.hosts_without_management(),
                hosts_if_first: c.hosts_as_first(),
                first_extra_cents: c.needs.first_extra_cents,
            })
            .collect();
        let added = self.first_fallback.as_ref().map(|c| c.hosts);
        let packing = pack_with_first(&items, added, limits);
        let mut clouds: Vec<PrivateCloud> = (0..packing.first.len())
            .map(|i| PrivateCloud {
                name: format!("private-cloud-{}", i + 1),
                clusters: Vec::new(),
                hosts: 0,
            })
            .collect();
        for (i, c) in self.clusters.iter_mut().enumerate() {
            let p = packing.cloud_of.get(i).copied().unwrap_or(0);
            c.apply(packing.first.get(p) == Some(&Some(i)));
            if let Some(cloud) = clouds.get_mut(p) {
                c.private_cloud = cloud.name.clone();
            }
        }
        self.add_first_clusters(&packing.first, &clouds);
        for c in &self.clusters {
            if let Some(cloud) = clouds.iter_mut().find(|p| p.name == c.private_cloud) {
                cloud.clusters.push(c.name.clone());
                cloud.hosts = cloud.hosts.saturating_add(c.hosts);
            }
        }
        self.hosts = self
            .clusters
            .iter()
            .fold(0u32, |a, c| a.saturating_add(c.hosts));
        self.private_clouds = clouds;
    }

    /// The fallback cluster, named `<stem>-N` (a name no cluster has), added to each
    /// private cloud without a first cluster.
    fn add_first_clusters(&mut self, first: &[Option<usize>], clouds: &[PrivateCloud]) {
        let Some(template) = self.first_fallback.clone() else {
            return;
        };
        let mut n = 0;
        for (cloud, _) in clouds.iter().zip(first).filter(|(_, f)| f.is_none()) {
            let name = loop {
                n += 1;
                let name = format!("{}-{n}", template.name);
                if !self.clusters.iter().any(|c| c.name == name) {
                    break name;
                }
            };
            self.clusters.push(AvsCluster {
                name,
                private_cloud: cloud.name.clone(),
                ..template.clone()
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vsan::VsanCatalog;

    #[test]
    fn the_reservation_in_cores_vcpus_and_gib() {
        // 46 GHz / 2.6 GHz (AV36P) = 17.69 -> 18 cores x 4 = 72 vCPU; 46 / 2.3 (AV36)
        // = 20 cores = 80 vCPU; 46 / 2.7 (AV52) = 17.04 -> 18; 46 / 2.8 (AV64) = 16.43
        // -> 17. 171.88 GB = 171.88 x 10^9 / 2^30 = 160.076 GiB.
        let c = VsanCatalog::builtin().unwrap();
        let o = SizingOptions::default();
        let r = |sku: &str| {
            let h = c.hosts.iter().find(|h| h.sku == sku).unwrap();
            reservation(h, &c.limits, &o)
        };
        assert_eq!((r("av36p").cores, r("av36p").vcpus), (18, 72.0));
        assert_eq!((r("av36").cores, r("av36").vcpus), (20, 80.0));
        assert_eq!(r("av52").cores, 18);
        assert_eq!(r("av64").cores, 17);
        assert!((r("av36p").memory_gib - 160.076).abs() < 1e-3);
    }
}

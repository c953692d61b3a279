//! vSAN alone's estate as AVS clusters ([`grow`]): what a plan on vSAN alone shows as its
//! clusters and private clouds, and what vSAN alone counts.
//!
//! - Each cluster at the hosts vSAN alone gives it ([`super::cluster_on_vsan`]), its driver
//!   [`Driver::Vsan`] where its data's capacity needs them and
//!   [`Driver::VsanPerformance`] where its share of the IOPS and MiB/s targets needs more.
//! - A cluster past 16 hosts becomes the fewest clusters of as equal size as whole hosts
//!   allow (`AvsLimits::split`), its first part keeping its name and its management
//!   reservation. vSAN alone's arithmetic holds the data over the parts together ("the
//!   data is assumed to split over the clusters"); its VMs are dealt among them largest
//!   first, by the larger of their vCPU, memory and data in hosts, each to the part least
//!   loaded for its hosts. A part whose VMs need more hosts for compute than its share
//!   keeps those (the cluster then has more hosts than vSAN alone's arithmetic asked).
//! - The clusters are placed in private clouds of at most 12 clusters and 96 hosts: each
//!   private cloud of the sizing keeps its first cluster (the one holding the management
//!   reservation, or the cluster added for it), the others go first fit decreasing, and a
//!   cluster that fits none opens a private cloud with a first cluster of its own, the
//!   sizing's added cluster (`avs-mgmt-N`, or for AV64 in a Gen 1 private cloud
//!   `avs-seed-N`: 3 hosts without VMs). A cluster grown for storage might hold the
//!   management reservation instead: counting a cluster of its own is the conservative
//!   reading.

use std::collections::BTreeSet;

use super::pack::{HostCapacity, VmLoad, sums};
use super::{AvsCluster, Driver, EstateSizing, PrivateCloud, SizingOptions};
use super::{capacity, cluster, first, vm_loads};
use crate::demand::Demand;
use crate::vsan::{VsanCatalog, VsanError, VsanNeed, VsanOptions};

/// How vSAN alone grows one cluster of the sizing.
#[derive(Debug, Clone, Copy)]
pub(super) struct Growth<'a> {
    /// The hosts vSAN alone gives it (at least its compute hosts).
    pub(super) hosts: u32,
    /// The hosts its data's capacity alone needs.
    pub(super) hosts_for_capacity: u32,
    /// Each of its VMs' data, GiB, in its VM order.
    pub(super) vm_data_gib: &'a [f64],
    /// Raw capacity each of its clusters keeps for AVS itself, TiB.
    pub(super) reserved_raw_tib: f64,
    /// What all its data asks of vSAN's performance (`None`: capacity only); a part of a
    /// split cluster carries its data's share.
    pub(super) need: Option<VsanNeed<'a>>,
}

/// vSAN alone's estate as AVS clusters, and where each comes from.
#[derive(Debug, Clone)]
pub(super) struct Grown {
    /// Its clusters (each of the sizing's in its place, a split one's parts together, the
    /// first clusters added last) and private clouds.
    pub(super) sizing: EstateSizing,
    /// Each cluster's cluster of the sizing (its index), `None` for a first cluster added.
    pub(super) origin: Vec<Option<usize>>,
}

/// The clusters of `sizing` grown as `growth` says (`growth[i]` of `sizing.clusters[i]`),
/// split past 16 hosts and placed in private clouds (see the module docs).
///
/// # Errors
/// [`VsanError::Invalid`] for a SKU the catalog does not know.
pub(super) fn grow(
    catalog: &VsanCatalog,
    (demand, so): (&Demand, &SizingOptions),
    vo: &VsanOptions,
    sizing: &EstateSizing,
    growth: &[Growth],
) -> Result<Grown, VsanError> {
    let limits = &catalog.limits;
    // The VMs' loads, worked out at the first cluster that splits (most never do).
    let mut loads: Option<Vec<VmLoad>> = None;
    let mut names: BTreeSet<String> = sizing.clusters.iter().map(|c| c.name.clone()).collect();
    let mut out: Vec<(Option<usize>, AvsCluster)> = Vec::new();
    for (i, (c, g)) in sizing.clusters.iter().zip(growth).enumerate() {
        let hosts = g.hosts.max(c.hosts);
        let driver = if hosts > g.hosts_for_capacity.max(c.hosts) {
            Driver::VsanPerformance
        } else {
            Driver::Vsan
        };
        let held = |sku: &str, hosts: u32, data_gib: f64| -> Result<_, VsanError> {
            let o = VsanOptions {
                sku: sku.to_string(),
                ..vo.clone()
            };
            let usable = catalog
                .capacity(&o, hosts, g.reserved_raw_tib)?
                .map_or(0.0, |x| x.usable_data_gib);
            Ok((data_gib > 0.0).then_some((data_gib, usable)))
        };
        let sizes = part_sizes(catalog, hosts);
        if sizes.len() <= 1 {
            let mut c = c.clone();
            c.grow_to(hosts, driver);
            c.vsan_alone_gib = held(&c.sku, c.hosts, g.vm_data_gib.iter().sum())?;
            out.push((Some(i), c));
            continue;
        }
        let host = catalog.host(&c.sku)?;
        let cap = capacity(host, limits, so);
        let loads = loads.get_or_insert_with(|| vm_loads(demand, so.memory_basis).0);
        let vms: Vec<(VmLoad, f64)> = (c.vm_indices.iter().zip(g.vm_data_gib))
            .filter_map(|(&v, &gib)| Some((*loads.get(v)?, gib)))
            .collect();
        let (dealt, part_hosts) = parts_that_hold(catalog, (&c.sku, vo), (&vms, cap), hosts, g)?;
        for (k, part) in dealt.into_iter().enumerate() {
            let name = if k == 0 {
                c.name.clone()
            } else {
                let name = (k as u32 + 1..)
                    .map(|n| format!("{}-{n}", c.name))
                    .find(|n| !names.contains(n))
                    .unwrap_or_default();
                names.insert(name.clone());
                name
            };
            let is_first = k == 0 && c.management.is_some();
            let part_loads: Vec<VmLoad> = part.iter().map(|&p| vms[p].0).collect();
            let reservation = is_first.then(|| first::reservation(host, limits, so));
            let needs = first::needs(sums(&part_loads), cap, reservation, so, limits);
            let mut p = cluster(name, c.source_cluster.clone(), &part_loads, host, so, needs);
            p.apply(is_first);
            p.private_cloud = c.private_cloud.clone();
            p.grow_to(part_hosts.get(k).copied().unwrap_or(0), driver);
            let data: f64 = part.iter().map(|&q| vms[q].1).sum();
            p.vsan_alone_gib = held(&p.sku, p.hosts, data)?;
            out.push((Some(i), p));
        }
    }
    let clouds = place(&mut out, sizing, &mut names, limits);
    let (origin, clusters): (Vec<_>, Vec<_>) = out.into_iter().unzip();
    let mut grown = EstateSizing {
        clusters,
        private_clouds: clouds,
        ..sizing.clone()
    };
    grown.hosts = grown
        .clusters
        .iter()
        .fold(0u32, |a, c| a.saturating_add(c.hosts));
    Ok(Grown {
        sizing: grown,
        origin,
    })
}

/// A cluster past 16 hosts as parts that each hold their VMs' data and carry its share of
/// the load (`g.need` in proportion to the data) on their own: from vSAN alone's `hosts`
/// (the data pooled over the parts), the VMs dealt ([`deal`]) and each part raised to the
/// fewest hosts whose vSAN holds and carries its part ([`super::cluster_on_vsan`]); where
/// a part would need more than one cluster, the cluster is dealt again over a host more.
/// Returns each part's VMs (positions in `vms`) and hosts.
///
/// # Errors
/// [`VsanError::Invalid`] for a SKU the catalog does not know.
fn parts_that_hold(
    catalog: &VsanCatalog,
    (sku, vo): (&str, &VsanOptions),
    (vms, cap): (&[(VmLoad, f64)], HostCapacity),
    hosts: u32,
    g: &Growth,
) -> Result<(Vec<Vec<usize>>, Vec<u32>), VsanError> {
    let largest = catalog.limits.max_hosts_per_cluster;
    let all: f64 = vms.iter().map(|v| v.1).sum();
    let o = VsanOptions {
        sku: sku.to_string(),
        ..vo.clone()
    };
    let mut at = hosts;
    loop {
        let sizes = part_sizes(catalog, at);
        let dealt = deal(vms, &sizes, cap);
        let mut part_hosts = Vec::with_capacity(sizes.len());
        for (part, &size) in dealt.iter().zip(&sizes) {
            let data: f64 = part.iter().map(|&q| vms[q].1).sum();
            let share = if all > 0.0 { data / all } else { 0.0 };
            let need = g.need.map(|n| VsanNeed {
                iops: n.iops * share,
                throughput_mibps: n.throughput_mibps * share,
                ..n
            });
            let bounds = (size, largest, g.reserved_raw_tib);
            match catalog.fewest_hosts_between(&o, (data, need.as_ref()), bounds)? {
                Some(h) => part_hosts.push(h),
                None => break,
            }
        }
        // Every part holds its own, or no more hosts can help (a VM too large for one
        // cluster is refused before).
        if part_hosts.len() == sizes.len() || at >= hosts.saturating_mul(4).max(largest * 2) {
            let sizes_left = sizes.iter().skip(part_hosts.len()).copied();
            part_hosts.extend(sizes_left);
            return Ok((dealt, part_hosts));
        }
        at += 1;
    }
}

/// `hosts` in the fewest clusters of as equal size as whole hosts allow, the larger first
/// (as vSAN alone counts them); one cluster below the cluster minimum.
fn part_sizes(catalog: &VsanCatalog, hosts: u32) -> Vec<u32> {
    match catalog.limits.split(hosts) {
        Some(s) if s.clusters > 1 => {
            let extra = hosts - s.smallest_cluster * s.clusters;
            (0..s.clusters)
                .map(|i| s.smallest_cluster + u32::from(i < extra))
                .collect()
        }
        _ => vec![hosts],
    }
}

/// `vms` (each its load and data, GiB) dealt among parts of `sizes` hosts: largest first by
/// the larger of its vCPU, memory and data in hosts (data per host: all the data over all
/// the hosts), each to the part whose load over its hosts is least with it (ties: the
/// earlier part). Returns each part's VMs (positions in `vms`, in order).
fn deal(vms: &[(VmLoad, f64)], sizes: &[u32], cap: HostCapacity) -> Vec<Vec<usize>> {
    let hosts: u32 = sizes.iter().sum();
    let data: f64 = vms.iter().map(|v| v.1).sum();
    let per_host = if hosts > 0 {
        data / f64::from(hosts)
    } else {
        0.0
    };
    let share = |x: f64, per: f64| if per > 0.0 { x / per } else { 0.0 };
    let weight = |(l, gib): &(VmLoad, f64)| {
        share(l.vcpus, cap.vcpus)
            .max(share(l.memory_gib, cap.memory_gib))
            .max(share(*gib, per_host))
    };
    let weights: Vec<f64> = vms.iter().map(weight).collect();
    let mut order: Vec<usize> = (0..vms.len()).collect();
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]));
    let mut load = vec![0.0; sizes.len()];
    let mut parts: Vec<Vec<usize>> = vec![Vec::new(); sizes.len()];
    for p in order {
        let w = weights[p];
        let after = |k: usize| (load[k] + w) / f64::from(sizes[k].max(1));
        let Some(k) = (0..sizes.len()).min_by(|&a, &b| after(a).total_cmp(&after(b))) else {
            break;
        };
        load[k] += w;
        parts[k].push(p);
    }
    for part in &mut parts {
        part.sort_unstable();
    }
    parts
}

/// Places `out`'s clusters in private clouds (see the module docs), adding the sizing's
/// first cluster (named `<stem>-N`, a name no cluster has) to each private cloud it opens;
/// sets each cluster's private cloud and returns the private clouds.
fn place(
    out: &mut Vec<(Option<usize>, AvsCluster)>,
    sizing: &EstateSizing,
    names: &mut BTreeSet<String>,
    limits: &crate::vsan::AvsLimits,
) -> Vec<PrivateCloud> {
    // Each private cloud: its name, clusters and hosts, whether its first cluster is in.
    let mut clouds: Vec<(String, u32, u32, bool)> = sizing
        .private_clouds
        .iter()
        .map(|p| (p.name.clone(), 0, 0, false))
        .collect();
    let mut cloud_of: Vec<Option<usize>> = vec![None; out.len()];
    for (j, (_, c)) in out.iter().enumerate() {
        if c.management.is_none() && !c.management_only {
            continue;
        }
        if let Some(p) = clouds.iter().position(|x| x.0 == c.private_cloud && !x.3) {
            let x = &mut clouds[p];
            (x.1, x.2, x.3) = (x.1 + 1, x.2.saturating_add(c.hosts), true);
            cloud_of[j] = Some(p);
        }
    }
    let mut rest: Vec<usize> = (0..out.len()).filter(|&j| cloud_of[j].is_none()).collect();
    rest.sort_by_key(|&j| std::cmp::Reverse(out[j].1.hosts));
    let fits = |x: &(String, u32, u32, bool), hosts: u32| {
        x.1 < limits.max_clusters_per_private_cloud
            && x.2.saturating_add(hosts) <= limits.max_hosts_per_private_cloud
    };
    for j in rest {
        let hosts = out[j].1.hosts;
        let p = match clouds.iter().position(|x| fits(x, hosts)) {
            Some(p) => p,
            None => {
                let name = format!("private-cloud-{}", clouds.len() + 1);
                let mut cloud = (name, 0, 0, false);
                if let Some(t) = sizing.first_fallback() {
                    let added = (1..)
                        .map(|n| format!("{}-{n}", t.name))
                        .find(|n| !names.contains(n))
                        .unwrap_or_default();
                    names.insert(added.clone());
                    (cloud.1, cloud.2, cloud.3) = (1, t.hosts, true);
                    out.push((
                        None,
                        AvsCluster {
                            name: added,
                            ..t.clone()
                        },
                    ));
                    cloud_of.push(Some(clouds.len()));
                }
                clouds.push(cloud);
                clouds.len() - 1
            }
        };
        let x = &mut clouds[p];
        (x.1, x.2) = (x.1 + 1, x.2.saturating_add(hosts));
        cloud_of[j] = Some(p);
    }
    let mut private_clouds: Vec<PrivateCloud> = clouds
        .iter()
        .map(|x| PrivateCloud {
            name: x.0.clone(),
            clusters: Vec::new(),
            hosts: 0,
        })
        .collect();
    for ((_, c), p) in out.iter_mut().zip(&cloud_of) {
        let Some(cloud) = p.and_then(|p| private_clouds.get_mut(p)) else {
            continue;
        };
        c.private_cloud = cloud.name.clone();
        cloud.clusters.push(c.name.clone());
        cloud.hosts = cloud.hosts.saturating_add(c.hosts);
    }
    // A private cloud of the sizing left without clusters (its clusters moved on) is
    // dropped, the others renumbered in order.
    private_clouds.retain(|p| !p.clusters.is_empty());
    for (n, p) in private_clouds.iter_mut().enumerate() {
        let name = format!("private-cloud-{}", n + 1);
        if p.name != name {
            for (_, c) in out.iter_mut().filter(|(_, c)| c.private_cloud == p.name) {
                c.private_cloud = name.clone();
            }
            p.name = name;
        }
    }
    private_clouds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(index: usize, vcpus: f64, memory_gib: f64) -> VmLoad {
        VmLoad {
            index,
            vcpus,
            memory_gib,
        }
    }

    #[test]
    fn parts_are_as_equal_as_whole_hosts_allow_the_larger_first() {
        let c = VsanCatalog::builtin().unwrap();
        // 19 hosts: 2 clusters of 10 and 9; 33: 3 of 11; 16: one.
        assert_eq!(part_sizes(&c, 19), [10, 9]);
        assert_eq!(part_sizes(&c, 33), [11, 11, 11]);
        assert_eq!(part_sizes(&c, 16), [16]);
    }

    #[test]
    fn vms_are_dealt_largest_first_to_the_least_loaded_part_for_its_hosts() {
        let cap = HostCapacity {
            vcpus: 100.0,
            memory_gib: 1000.0,
        };
        // Data 300 + 200 + 100 = 600 GiB over 10 + 9 hosts: 31.58 GiB per host, so the
        // VMs weigh 9.5, 6.33 and 3.17 hosts (their vCPU and memory less). 9.5 goes to the
        // first part (9.5 / 10 = 0.95 < 9.5 / 9 = 1.06), 6.33 to the second (6.33 / 9 =
        // 0.70 < 15.83 / 10), 3.17 to the second (9.5 / 9 = 1.06 < 12.67 / 10 = 1.27).
        let vms = [
            (load(0, 2.0, 8.0), 100.0),
            (load(1, 2.0, 8.0), 300.0),
            (load(2, 2.0, 8.0), 200.0),
        ];
        assert_eq!(deal(&vms, &[10, 9], cap), [vec![1], vec![0, 2]]);
    }
}

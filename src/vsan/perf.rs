//! What a cluster's vSAN carries ([`VsanEnvelope`]): the `vsan-<sku>` envelope of the
//! performance model ([`crate::perf::PerfModel::predict_vsan`]) for the cluster's size and
//! storage policy, at the hosts that must meet the targets with a host down
//! ([`super::AvsLimits::vsan_checked_hosts`], a 16-host cluster at 15 too), for the
//! small-block profile of the IOPS target and
//! the large-block profile of the MiB/s target; and whether it carries a load
//! ([`VsanLoad`]): its data's share of the targets within the envelope, and over the hosts'
//! NICs the vSAN traffic (every device I/O crossing once) plus the NFS payload of the
//! cluster's ANF datastores within what the NICs carry.

use serde::{Deserialize, Serialize};

use super::{VsanCatalog, VsanError, VsanOptions};
use crate::perf::{IoProfile, PerfModel, VsanLayout, VsanPrediction};

/// The performance a cluster's vSAN is checked against: the model, the targets' profiles
/// and the HA hosts that may be down.
#[derive(Debug, Clone, Copy)]
pub struct VsanPerf<'a> {
    /// The performance model (its `vsan-<sku>` envelopes).
    pub model: &'a PerfModel,
    /// The profile of the IOPS target (block size, read and random shares).
    pub small: IoProfile,
    /// The profile of the MiB/s target (64 KiB sequential at the same read share).
    pub large: IoProfile,
    /// Hosts per cluster kept for HA (`ha_hosts`): the checked hosts are the others.
    pub ha_hosts: u32,
}

/// IOPS and MiB/s a cluster's data on vSAN carries, and what its ANF datastores carry over
/// the same hosts' NICs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct VsanLoad {
    /// Small-block IOPS on vSAN.
    pub iops: f64,
    /// Large-block MiB/s on vSAN.
    pub throughput_mibps: f64,
    /// Small-block IOPS of the cluster's ANF datastores.
    pub anf_iops: f64,
    /// Large-block MiB/s of its ANF datastores.
    pub anf_throughput_mibps: f64,
}

impl VsanLoad {
    /// The load of `data_gib` on vSAN out of a cluster's `cluster_gib`, at `per_gib` IOPS
    /// and MiB/s per GiB of data (the capacity share of the targets), the rest on ANF.
    pub fn capacity_share(data_gib: f64, cluster_gib: f64, per_gib: (f64, f64)) -> VsanLoad {
        let anf = (cluster_gib - data_gib).max(0.0);
        VsanLoad {
            iops: data_gib * per_gib.0,
            throughput_mibps: data_gib * per_gib.1,
            anf_iops: anf * per_gib.0,
            anf_throughput_mibps: anf * per_gib.1,
        }
    }
}

/// What one cluster's vSAN delivers: its policy and the checked hosts' envelope for each
/// target's profile.
#[derive(Debug, Clone, PartialEq)]
pub struct VsanEnvelope {
    /// The storage policy of the cluster's size.
    pub policy: String,
    /// The hosts the envelope counts (the cluster's, less the HA reserve).
    pub checked_hosts: u32,
    /// At the IOPS target's profile.
    pub small: VsanPrediction,
    /// At the MiB/s target's profile.
    pub large: VsanPrediction,
}

/// What `traffic_mibps` of NFS payload leaves of `p`'s NICs for vSAN, in vSAN I/Os a second
/// of `bs_kib` (the envelope's own ceiling where the network does not bind first).
fn beside(p: &VsanPrediction, traffic_mibps: f64, bs_kib: f64) -> f64 {
    let mibps_per_io = p.crossings_per_io * bs_kib / 1024.0;
    if mibps_per_io <= 0.0 {
        return p.prediction.iops;
    }
    let left = (p.network_mibps - traffic_mibps).max(0.0);
    p.prediction.iops.min(left / mibps_per_io)
}

/// The most data of a cluster of `cluster_gib` that vSAN of prediction `p` carries at
/// `per_gib` I/Os a second per GiB (of `bs_kib`), the rest of the cluster's data on ANF
/// carrying the same per GiB over the same NICs; infinite without a load.
fn most_data(p: &VsanPrediction, per_gib: f64, cluster_gib: f64, bs_kib: f64) -> f64 {
    if per_gib <= 0.0 {
        return f64::INFINITY;
    }
    let own = p.prediction.iops / per_gib;
    // NICs: per GiB on ANF 1 block, on vSAN `crossings` blocks:
    // per_gib x bs x (cluster + (crossings - 1) x vsan) <= network.
    let nic_gib = p.network_mibps / (per_gib * bs_kib / 1024.0);
    let extra = p.crossings_per_io - 1.0;
    let shared = if extra > 1e-12 {
        (nic_gib - cluster_gib) / extra
    } else if cluster_gib <= nic_gib {
        f64::INFINITY
    } else {
        0.0
    };
    own.min(shared).max(0.0)
}

impl VsanEnvelope {
    /// Whether it carries `load`: the vSAN side within the envelope and, over the NICs,
    /// the vSAN crossings and the NFS payload together within what they carry. A load
    /// without anything on vSAN is always carried (the ANF side is checked by its own
    /// plan).
    pub fn carries(&self, load: &VsanLoad, (bs_small, bs_large): (f64, f64)) -> bool {
        if load.iops <= 0.0 && load.throughput_mibps <= 0.0 {
            return true;
        }
        let tol = |x: f64| x * (1.0 + 1e-9) + 1e-9;
        let iops = beside(&self.small, load.anf_iops * bs_small / 1024.0, bs_small);
        let ios = beside(&self.large, load.anf_throughput_mibps, bs_large);
        load.iops <= tol(iops) && load.throughput_mibps <= tol(ios * bs_large / 1024.0)
    }

    /// What it delivers beside `load`'s ANF side over the same NICs: small-block IOPS and
    /// large-block MiB/s.
    pub fn delivers(&self, load: &VsanLoad, (bs_small, bs_large): (f64, f64)) -> (f64, f64) {
        let iops = beside(&self.small, load.anf_iops * bs_small / 1024.0, bs_small);
        let ios = beside(&self.large, load.anf_throughput_mibps, bs_large);
        (iops, ios * bs_large / 1024.0)
    }

    /// The most of a cluster's `cluster_gib` of data it carries at `per_gib` (IOPS, MiB/s
    /// per GiB: the capacity share of the targets), the rest on ANF datastores carrying the
    /// same per GiB over the same NICs; infinite without a target.
    pub fn most_data_gib(
        &self,
        per_gib: (f64, f64),
        cluster_gib: f64,
        (bs_small, bs_large): (f64, f64),
    ) -> f64 {
        let small = most_data(&self.small, per_gib.0, cluster_gib, bs_small);
        let large = most_data(
            &self.large,
            per_gib.1 * 1024.0 / bs_large,
            cluster_gib,
            bs_large,
        );
        small.min(large)
    }
}

/// What one cluster's data asks of vSAN alone: the check's settings and the load of all its
/// data (no ANF datastores beside it).
#[derive(Debug, Clone, Copy)]
pub struct VsanNeed<'a> {
    /// The model, profiles and HA hosts.
    pub perf: VsanPerf<'a>,
    /// Small-block IOPS of all its data.
    pub iops: f64,
    /// Large-block MiB/s of all its data.
    pub throughput_mibps: f64,
}

impl VsanNeed<'_> {
    /// Whether it asks anything: a target with data.
    pub fn any(&self) -> bool {
        self.iops > 0.0 || self.throughput_mibps > 0.0
    }
}

impl VsanCatalog {
    /// What `hosts` hosts of `o.sku` deliver on vSAN alone when they carry `need`: the
    /// hosts split into clusters of at most 16 ([`super::AvsLimits::split`]), each carrying
    /// its hosts' share of the load; `None` when a cluster does not carry its share (or the
    /// hosts make no cluster), else the small-block IOPS and large-block MiB/s of all the
    /// clusters' envelopes added.
    ///
    /// # Errors
    /// As [`VsanCatalog::envelope`].
    pub fn carries_alone(
        &self,
        need: &VsanNeed,
        o: &VsanOptions,
        hosts: u32,
    ) -> Result<Option<(f64, f64)>, VsanError> {
        let Some(split) = self.limits.split(hosts) else {
            return Ok(None);
        };
        let bs = (
            need.perf.small.block_size_kib,
            need.perf.large.block_size_kib,
        );
        let larger = hosts - split.smallest_cluster * split.clusters;
        let mut delivers = (0.0, 0.0);
        for (size, count) in [
            (split.smallest_cluster, split.clusters - larger),
            (split.smallest_cluster + 1, larger),
        ] {
            if count == 0 {
                continue;
            }
            let Some(e) = self.envelope(&need.perf, o, size)? else {
                return Ok(None);
            };
            let share = f64::from(size) / f64::from(hosts);
            let load = VsanLoad {
                iops: need.iops * share,
                throughput_mibps: need.throughput_mibps * share,
                ..VsanLoad::default()
            };
            if !e.carries(&load, bs) {
                return Ok(None);
            }
            let (iops, mibps) = e.delivers(&load, bs);
            delivers.0 += iops * f64::from(count);
            delivers.1 += mibps * f64::from(count);
        }
        Ok(Some(delivers))
    }

    /// What one VM can ask of vSAN on hosts of `o.sku`, small-block IOPS and large-block
    /// MiB/s: a VM runs on one host, and each of its I/Os passes that host's storage path
    /// and its device I/Os that host's NICs, so it gets at most one host's share of a
    /// cluster's envelope (the envelope at one host, [`crate::perf::VsanLayout`]), under the
    /// least favourable of the storage policies a cluster of the SKU can have (`o.policy`,
    /// or each size's from 3 to 16 hosts): a VM within it is carried by any cluster size.
    /// Conservative: its components' hosts' devices and the policy of the cluster it ends
    /// up in may allow more.
    ///
    /// # Errors
    /// As [`VsanCatalog::envelope`].
    pub fn vm_ceiling(&self, perf: &VsanPerf, o: &VsanOptions) -> Result<(f64, f64), VsanError> {
        let host = self.host(&o.sku)?;
        let esa = host.vsan_architecture.eq_ignore_ascii_case("esa");
        let mut ceiling = (f64::INFINITY, f64::INFINITY);
        let sizes = self.limits.min_hosts_per_cluster..=self.limits.max_hosts_per_cluster;
        let mut seen: Vec<&str> = Vec::new();
        for hosts in sizes {
            let Some(policy) = self.policy(&o.policy, hosts) else {
                continue;
            };
            if hosts < policy.min_hosts || seen.contains(&policy.policy.as_str()) {
                continue;
            }
            seen.push(&policy.policy);
            let layout = VsanLayout::new(1, &policy.policy, policy.write_cost(esa));
            let small = perf.model.predict_vsan(&host.sku, &layout, &perf.small)?;
            let large = perf.model.predict_vsan(&host.sku, &layout, &perf.large)?;
            ceiling.0 = ceiling.0.min(small.prediction.iops);
            ceiling.1 = ceiling.1.min(large.prediction.throughput_mibps);
        }
        if seen.is_empty() {
            return Ok((0.0, 0.0));
        }
        Ok(ceiling)
    }

    /// The vSAN envelope of one cluster of `hosts` hosts of `o.sku` (policy by its size,
    /// or `o.policy`), at its checked hosts; `None` below the cluster minimum or the
    /// policy's minimum hosts.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] for an unknown SKU; [`VsanError::Perf`] when the model has
    /// no envelope for it or the profiles are invalid.
    pub fn envelope(
        &self,
        perf: &VsanPerf,
        o: &VsanOptions,
        hosts: u32,
    ) -> Result<Option<VsanEnvelope>, VsanError> {
        let host = self.host(&o.sku)?;
        let Some(policy) = self.policy(&o.policy, hosts) else {
            return Ok(None);
        };
        if hosts < policy.min_hosts.max(self.limits.min_hosts_per_cluster) {
            return Ok(None);
        }
        let esa = host.vsan_architecture.eq_ignore_ascii_case("esa");
        let checked = self.limits.vsan_checked_hosts(hosts, perf.ha_hosts);
        let layout = VsanLayout::new(checked, &policy.policy, policy.write_cost(esa));
        let small = perf.model.predict_vsan(&host.sku, &layout, &perf.small)?;
        let large = perf.model.predict_vsan(&host.sku, &layout, &perf.large)?;
        Ok(Some(VsanEnvelope {
            policy: policy.policy.clone(),
            checked_hosts: checked,
            small,
            large,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perf(model: &PerfModel) -> VsanPerf<'_> {
        VsanPerf {
            model,
            small: IoProfile::small_block(),
            large: IoProfile::large_block(),
            ha_hosts: 1,
        }
    }

    #[test]
    fn a_cluster_checked_with_a_host_down_carries_its_share_beside_its_anf_traffic() {
        let model = PerfModel::builtin().unwrap();
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions::default();
        // 6 AV36P hosts: RAID-6 (auto from 6), checked at 5 (one down for HA). 64 KiB
        // sequential, 70% read, on OSA: 0.7 x 1 + 0.3 x 1.5 = 1.15 crossings per I/O over
        // 5 x 2,980.23 x 0.85954 = 12,808.1 MiB/s of NICs: 11,137.5 MiB/s; the devices
        // (5 x 15,258.8 read, 5 x 1,907.35 write): 0.7 / 76,294 + 0.45 / 9,536.7 MiB/s
        // -> 1 / (9.175e-6 + 4.7186e-5) = 17,742 MiB/s; the host path far above.
        let e = c.envelope(&perf(&model), &o, 6).unwrap().unwrap();
        assert_eq!((e.policy.as_str(), e.checked_hosts), ("raid6-ftt2", 5));
        let mibps = e.large.prediction.throughput_mibps;
        assert!((mibps - 11_137.5).abs() < 0.5, "{mibps}");
        let bs = (8.0, 64.0);
        // Alone it carries 11,137 MiB/s; beside 2,000 MiB/s of NFS payload it carries
        // (12,808.1 - 2,000) / 1.15 = 9,398.4.
        let load = |v: f64, anf: f64| VsanLoad {
            throughput_mibps: v,
            anf_throughput_mibps: anf,
            ..VsanLoad::default()
        };
        assert!(e.carries(&load(11_137.0, 0.0), bs));
        assert!(!e.carries(&load(11_138.0, 0.0), bs));
        assert!(e.carries(&load(9_398.0, 2_000.0), bs));
        assert!(!e.carries(&load(9_399.0, 2_000.0), bs));
        let (_, delivers) = e.delivers(&load(0.0, 2_000.0), bs);
        assert!((delivers - 9_398.4).abs() < 0.5, "{delivers}");
        // Nothing on vSAN: carried whatever the ANF side.
        assert!(e.carries(&load(0.0, 1e9), bs));
        // A cluster of 20 TiB at 0.5 MiB/s per GiB: on vSAN alone 20,480 x 0.5 = 10,240
        // MiB/s; per GiB a vSAN GiB adds 0.15 x 0.5 MiB/s on the NICs beside the cluster's
        // 10,240: (12,808.1 / 0.5 - 20,480) / 0.15 = 34,241 GiB, and the envelope
        // 11,137.5 / 0.5 = 22,275 GiB: all 20,480 GiB fit.
        let most = e.most_data_gib((0.0, 0.5), 20_480.0, bs);
        assert!((most - 22_275.0).abs() < 1.0, "{most}");
        // At 0.6 MiB/s per GiB: the envelope 18,562.5 GiB; the NICs (21,346.8 - 20,480) /
        // 0.15 = 5,779 GiB: the shared NICs bind.
        let most = e.most_data_gib((0.0, 0.6), 20_480.0, bs);
        assert!((most - 5_779.0).abs() < 1.0, "{most}");
        // No target: no limit. Below the 3-host minimum: no envelope.
        assert!(e.most_data_gib((0.0, 0.0), 20_480.0, bs).is_infinite());
        assert!(c.envelope(&perf(&model), &o, 2).unwrap().is_none());
        // 16 hosts are checked at 15, one down for HA, as every size is.
        let e = c.envelope(&perf(&model), &o, 16).unwrap().unwrap();
        assert_eq!(e.checked_hosts, 15);
    }

    #[test]
    fn one_vm_gets_its_hosts_share_under_the_least_favourable_policy() {
        let model = PerfModel::builtin().unwrap();
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions {
            sku: "av36p".into(),
            ..VsanOptions::default()
        };
        let (iops, mibps) = c.vm_ceiling(&perf(&model), &o).unwrap();
        // 64 KiB sequential, 70% read, at one AV36P host: its NIC 25 Gbit/s x 0.85954 =
        // 2,561.6 MiB/s over 0.7 + 0.3 x (RAID-1 2, RAID-5 4/3, RAID-6 1.5) crossings:
        // 1,970.5, 2,561.6 / 1.1 = 2,328.7, 2,561.6 / 1.15 = 2,227.5; its devices (16,000
        // MB/s read, 2,000 MB/s write = 15,258.8 and 1,907.35 MiB/s) at RAID-1 1 / (0.7 /
        // 15,258.8 + 0.6 / 1,907.35) = 2,773.9: the least, 1,970.5.
        assert!((mibps - 1_970.5).abs() < 0.1, "{mibps}");
        // 8 KiB, 70% read, random: the host path, 198,060 guest and device I/Os a second,
        // over 1 + 0.7 + 0.3 x the random write's device I/Os: RAID-6 (3 reads + 3
        // writes) 3.5 -> 56,588.6, the least (RAID-1 2 writes: 2.3, RAID-5 2 + 2: 2.9).
        assert!((iops - 198_060.0 / 3.5).abs() < 1.0, "{iops}");
        // A named policy is the only one.
        let raid1 = VsanOptions {
            policy: crate::vsan::PolicyChoice::Named("raid1-ftt1".into()),
            ..o
        };
        let (iops, _) = c.vm_ceiling(&perf(&model), &raid1).unwrap();
        assert!((iops - 198_060.0 / 2.3).abs() < 1.0, "{iops}");
    }

    #[test]
    fn vsan_alone_splits_its_load_over_its_clusters() {
        let model = PerfModel::builtin().unwrap();
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions::default();
        let need = |mibps: f64| VsanNeed {
            perf: perf(&model),
            iops: 0.0,
            throughput_mibps: mibps,
        };
        // 6 AV36P hosts carry 11,137.5 MiB/s (above); 17 hosts are clusters of 8 and 9
        // (RAID-6, checked at 7 and 8: 7 x 2,561.62 / 1.15 = 15,592.3 and 8 x 2,561.62 /
        // 1.15 = 17,819.8): 33,412.1 in all, each carrying its hosts' share of 30,000
        // (14,117.6 and 15,882.4).
        let six = c.carries_alone(&need(11_000.0), &o, 6).unwrap().unwrap();
        assert!((six.1 - 11_137.5).abs() < 0.5, "{six:?}");
        assert!(c.carries_alone(&need(11_200.0), &o, 6).unwrap().is_none());
        let d = c.carries_alone(&need(30_000.0), &o, 17).unwrap().unwrap();
        assert!((d.1 - 33_412.1).abs() < 0.5, "{d:?}");
        // 36,000: the 8-host cluster's share 16,941.2 > 15,592.3.
        assert!(c.carries_alone(&need(36_000.0), &o, 17).unwrap().is_none());
        assert!(!need(0.0).any() && need(1.0).any());
    }
}

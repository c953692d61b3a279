//! The same estate on vSAN alone: each AVS cluster keeps its compute hosts and grows until
//! its own VMs' data fits its vSAN ([`cluster_on_vsan`]: policy by cluster size, slack,
//! dedup, its own SKU's raw capacity, and the raw capacity AVS uses itself: the management
//! and control plane in the first cluster of each private cloud, vSAN system usage in
//! every other, [`EstateSizing::vsan_reserved_raw_tib`]); a cluster that then passes 16
//! hosts becomes several (each keeping the same reserve, the conservative reading), and
//! the clusters are placed in private clouds again (`vsan_grown.rs`).

use serde::{Deserialize, Serialize};

use super::vsan_grown::{Growth, grow};
use super::{EstateSizing, Raise, SizingOptions};
use crate::demand::Demand;
use crate::vsan::{self, AvsLimits, VsanCatalog, VsanError, VsanNeed, VsanOptions};

/// One AVS cluster on vSAN alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VsanAloneCluster {
    /// The AVS cluster of the ANF plan.
    pub cluster: String,
    /// Its host SKU (the estate's, or for AV64 in a Gen 1 private cloud the first
    /// cluster's); empty in plans made before it was recorded.
    #[serde(default)]
    pub sku: String,
    /// Its hosts for compute (HA included).
    pub compute_hosts: u32,
    /// Data its vSAN holds (the VMs' capacity after growth and snapshot reserve), GiB.
    pub data_gib: f64,
    /// Hosts it needs on vSAN alone (at least `compute_hosts`).
    pub hosts: u32,
    /// Clusters those hosts make (more than one past 16 hosts).
    pub clusters: u32,
    /// The storage policy applied.
    pub policy: String,
    /// Raw capacity needed, TiB (the reserve of each of its clusters included).
    pub raw_needed_tib: f64,
    /// Raw capacity each of its clusters keeps for AVS itself (management VMs, vSAN system
    /// usage), TiB.
    #[serde(default)]
    pub reserved_raw_tib: f64,
    /// Hosts its data's capacity alone needs (`hosts` is more when its IOPS or MiB/s need
    /// more).
    #[serde(default)]
    pub hosts_for_capacity: u32,
    /// With targets: what its vSAN delivers, small-block IOPS (its clusters' envelopes at
    /// their checked hosts; [`crate::vsan::VsanCatalog::carries_alone`]).
    #[serde(default)]
    pub predicted_iops: Option<f64>,
    /// With targets: large-block MiB/s likewise.
    #[serde(default)]
    pub predicted_throughput_mibps: Option<f64>,
}

/// One AVS cluster's data as vSAN alone holds it.
#[derive(Debug, Clone, Default)]
pub struct VsanAloneData<'a> {
    /// Its VMs' data (after growth and snapshot reserve), GiB.
    pub data_gib: f64,
    /// Each of its VMs' data, GiB, in the cluster's VM order (how a cluster split past 16
    /// hosts deals its VMs).
    pub vm_data_gib: &'a [f64],
    /// Its VMs that one cluster must hold whole: the largest by data and the busiest by
    /// load, each with its name, where it was read (` (file [sheet] row N)`, for messages),
    /// its data, GiB, and its load. A VM's data sits on one cluster, so it must fit one
    /// cluster of at most 16 hosts.
    pub largest_vms: Vec<(&'a str, &'a str, f64, Option<VsanNeed<'a>>)>,
    /// What its data asks of vSAN's performance (`None`: capacity only).
    pub need: Option<VsanNeed<'a>>,
}

/// The estate on vSAN alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VsanAlone {
    /// Host SKU (the ANF plan's; a first cluster of another SKU keeps its own, in its
    /// cluster's `sku`).
    pub sku: String,
    /// Per AVS cluster of the ANF plan.
    pub clusters: Vec<VsanAloneCluster>,
    /// Hosts over all clusters.
    pub hosts: u32,
    /// Clusters over all.
    pub cluster_count: u32,
    /// Private clouds those clusters need.
    pub private_clouds: u32,
    /// Hosts beyond the ANF plan's (storage-driven hosts).
    pub extra_hosts: u32,
    /// Slack kept free, percent; dedup ratio; as applied.
    pub slack_pct: f64,
    /// Dedup/compression ratio assumed.
    pub dedup_ratio: f64,
}

/// The estate of `sizing` on vSAN alone; `data[i]` is the data of `sizing.clusters[i]`.
/// Each cluster keeps its compute hosts ([`super::AvsCluster::compute_hosts`]: not those
/// its datastores add) and its own SKU's raw capacity, and grows until it holds its data
/// and carries its load; past 16 hosts it becomes several, and the clusters are placed in
/// private clouds, each private cloud vSAN alone grows into getting a first cluster of its
/// own (`vsan_grown.rs`). Returns vSAN alone per cluster and its clusters as AVS clusters
/// (what a plan on vSAN alone shows: their hosts, drivers and private clouds); `demand` and
/// `sizing_options` (those `sizing` was sized with) size a split cluster's parts.
///
/// # Errors
/// [`VsanError::Invalid`] for settings out of range; [`VsanError::DataTooLarge`] for data
/// no vSAN cluster holds; [`VsanError::VmTooLarge`] for a VM whose data no cluster of 16
/// hosts holds.
pub fn vsan_alone(
    catalog: &VsanCatalog,
    (demand, sizing_options): (&Demand, &SizingOptions),
    sizing: &EstateSizing,
    data: &[VsanAloneData],
    o: &VsanOptions,
) -> Result<(VsanAlone, EstateSizing), VsanError> {
    let mut clusters = Vec::with_capacity(sizing.clusters.len());
    let mut growth = Vec::with_capacity(sizing.clusters.len());
    let reserved = sizing.vsan_reserved_raw_tib(&catalog.limits);
    for ((c, d), &reserve) in sizing.clusters.iter().zip(data).zip(&reserved) {
        let compute = c.compute_hosts();
        let place = || format!("AVS cluster '{}': ", crate::numbers::clip(&c.name));
        for &vm in &d.largest_vms {
            check_one_cluster_holds(catalog, (&c.sku, reserve), vm, o)
                .map_err(|e| e.at(&place()))?;
        }
        let r = cluster_on_vsan(catalog, &c.sku, (compute, reserve), (d.data_gib, d.need), o)
            .map_err(|e| e.at(&place()))?;
        growth.push(Growth {
            hosts: r.hosts_needed,
            hosts_for_capacity: r.hosts_for_capacity,
            vm_data_gib: d.vm_data_gib,
            reserved_raw_tib: reserve,
            need: d.need,
        });
        clusters.push(VsanAloneCluster {
            cluster: c.name.clone(),
            sku: c.sku.clone(),
            compute_hosts: compute,
            data_gib: d.data_gib,
            hosts: 0,
            clusters: 0,
            policy: r.policy,
            raw_needed_tib: r.raw_needed_tib,
            reserved_raw_tib: reserve,
            hosts_for_capacity: r.hosts_for_capacity,
            // A cluster without data (a first cluster added without VMs) delivers nothing
            // to the VMs' targets, whatever its vSAN could.
            predicted_iops: r.predicted_iops.filter(|_| d.data_gib > 0.0),
            predicted_throughput_mibps: r.predicted_throughput_mibps.filter(|_| d.data_gib > 0.0),
        });
    }
    let grown = grow(catalog, (demand, sizing_options), o, sizing, &growth)?;
    for (origin, c) in grown.origin.iter().zip(&grown.sizing.clusters) {
        match origin.and_then(|i| clusters.get_mut(i)) {
            Some(x) => {
                x.hosts = x.hosts.saturating_add(c.hosts);
                x.clusters += 1;
            }
            // A first cluster added for a private cloud vSAN alone grows into.
            None => {
                let reserve = catalog.limits.reserved_raw_tib(true);
                clusters.push(VsanAloneCluster {
                    cluster: c.name.clone(),
                    sku: c.sku.clone(),
                    compute_hosts: c.hosts,
                    data_gib: 0.0,
                    hosts: c.hosts,
                    clusters: 1,
                    policy: String::new(),
                    raw_needed_tib: reserve,
                    reserved_raw_tib: reserve,
                    hosts_for_capacity: c.hosts,
                    predicted_iops: None,
                    predicted_throughput_mibps: None,
                });
            }
        }
    }
    let hosts = grown.sizing.hosts;
    let alone = VsanAlone {
        sku: sizing.sku.clone(),
        hosts,
        cluster_count: grown.sizing.clusters.len() as u32,
        private_clouds: grown.sizing.private_clouds.len() as u32,
        extra_hosts: hosts.saturating_sub(sizing.hosts),
        slack_pct: o.slack_pct,
        dedup_ratio: o.dedup_ratio,
        clusters,
    };
    Ok((alone, grown.sizing))
}

/// One cluster's data on vSAN alone: the fewest hosts of `sku` from `compute_hosts` whose
/// vSAN holds `data_gib` and carries `need` (its IOPS and MiB/s, when given), each cluster
/// they make losing `reserved_raw_tib` of raw capacity to AVS itself
/// ([`vsan::compare_cluster`]; only the hosts are used: the estate prices them with its own
/// host prices).
///
/// # Errors
/// [`VsanError::Invalid`] for settings out of range or data no vSAN cluster holds.
pub fn cluster_on_vsan(
    catalog: &VsanCatalog,
    sku: &str,
    (compute_hosts, reserved_raw_tib): (u32, f64),
    (data_gib, need): (f64, Option<VsanNeed>),
    o: &VsanOptions,
) -> Result<vsan::VsanComparison, VsanError> {
    let o = VsanOptions {
        sku: sku.to_string(),
        ..o.clone()
    };
    let unpriced = vsan::ListPrice::Unknown("priced by the estate".into());
    vsan::compare_cluster(
        catalog,
        (data_gib, need.as_ref()),
        (compute_hosts, reserved_raw_tib),
        0.0,
        730.0,
        &o,
        &unpriced,
    )
}

/// The data of VM `vm` (read `at`) must fit one cluster of at most 16 hosts of `sku` keeping
/// `reserved_raw_tib` (a VM's data sits on one cluster's vSAN; vSAN alone's clusters past 16
/// hosts hold their VMs' data between them, not one VM's), and its load (`need`, when
/// given) must be within what one VM can ask of vSAN ([`VsanCatalog::vm_ceiling`]: its
/// host's share of the envelope).
///
/// # Errors
/// [`VsanError::VmTooLarge`] naming the VM, its data or load and what the largest cluster
/// holds or one VM's host passes.
pub fn check_one_cluster_holds(
    catalog: &VsanCatalog,
    (sku, reserved_raw_tib): (&str, f64),
    (vm, at, data_gib, need): (&str, &str, f64, Option<VsanNeed>),
    o: &VsanOptions,
) -> Result<(), VsanError> {
    let o = VsanOptions {
        sku: sku.to_string(),
        ..o.clone()
    };
    let largest = catalog.limits.max_hosts_per_cluster;
    let g = crate::numbers::group_thousands;
    let holds = catalog
        .capacity(&o, largest, reserved_raw_tib)?
        .map_or(0.0, |c| c.fill_limit_gib);
    let what = if data_gib > holds {
        format!(
            "holds {} TiB of data, more than one vSAN cluster of {largest} {} hosts holds \
             within the slack and headroom ({} TiB), and a VM's data sits on one cluster's \
             vSAN",
            g(data_gib / 1024.0, 1),
            o.sku,
            g(holds / 1024.0, 1)
        )
    } else if let Some(n) = need.filter(|n| n.any())
        && let (iops, mibps) = catalog.vm_ceiling(&n.perf, &o)?
        && (n.iops > iops || n.throughput_mibps > mibps)
    {
        format!(
            "carries {} IOPS and {} MiB/s of the targets, more than one VM's host passes to \
             vSAN on {} (at most {} IOPS and {} MiB/s under every storage policy: its host's \
             share of a cluster's envelope)",
            g(n.iops, 0),
            g(n.throughput_mibps, 1),
            o.sku,
            g(iops, 0),
            g(mibps, 1)
        )
    } else {
        return Ok(());
    };
    Err(VsanError::VmTooLarge(Box::new(vsan::VmTooLargeForVsan {
        place: String::new(),
        vm: crate::numbers::clip_name(vm).into_owned(),
        at: at.to_string(),
        what,
    })))
}

impl EstateSizing {
    /// Per cluster, the raw vSAN capacity AVS uses itself there, TiB
    /// ([`AvsLimits::reserved_raw_tib`]): the management and control plane's in each
    /// private cloud's first cluster (the one holding the management reservation, whether
    /// it has VMs or was added without: `avs-mgmt-N`, `avs-seed-N`), vSAN system usage's
    /// in every other.
    pub fn vsan_reserved_raw_tib(&self, limits: &AvsLimits) -> Vec<f64> {
        self.clusters
            .iter()
            .map(|c| limits.reserved_raw_tib(c.management.is_some()))
            .collect()
    }
}

/// A host of a SKU without a price, cents a month, when ranking which cluster is a private
/// cloud's first: 10 million USD, more than any one cluster's ANF share, so hosts rank
/// before ANF cost.
pub(crate) const UNPRICED_HOST_CENTS: i64 = 1_000_000_000;

impl EstateSizing {
    /// The same clusters, each private cloud's first cluster being the one whose hosts on
    /// vSAN alone grow least with the management reservation and the first cluster's
    /// larger raw reserve (ties: the earlier cluster): what a SKU's vSAN design ranks by
    /// cost, for a SKU without a host price. `data_gib[i]` is the data of
    /// `self.clusters[i]`; a cluster whose data no vSAN cluster holds is ranked by its
    /// compute alone ([`vsan_alone`] then says which).
    pub(crate) fn with_vsan_first_clusters(
        &self,
        catalog: &VsanCatalog,
        data_gib: &[f64],
        o: &VsanOptions,
    ) -> EstateSizing {
        let mut sizing = self.clone();
        for (c, &gib) in sizing.clusters.iter_mut().zip(data_gib) {
            let Some(as_first) = c.compute_hosts_as_first() else {
                continue;
            };
            let on_vsan = |compute: u32, first: bool| {
                let reserve = catalog.limits.reserved_raw_tib(first);
                cluster_on_vsan(catalog, &c.sku, (compute, reserve), (gib, None), o)
                    .map(|r| r.hosts_needed)
            };
            // A cluster no vSAN holds is left as it is: vSAN alone's own error names it.
            let (Ok(first), Ok(other)) = (
                on_vsan(as_first, true),
                on_vsan(c.compute_hosts_as_other(), false),
            ) else {
                continue;
            };
            let more = i64::from(first) - i64::from(other);
            c.set_design_hosts(
                Raise::default(),
                Raise::default(),
                more.saturating_mul(UNPRICED_HOST_CENTS),
            );
        }
        sizing.assign_private_clouds(&catalog.limits);
        sizing
    }
}

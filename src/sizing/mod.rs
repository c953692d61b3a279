//! Estate sizing: how many AVS hosts of one SKU, in how many clusters and private clouds,
//! the VMs of a [`Demand`] need for their vCPUs and memory ([`size_estate`]); and how many
//! the same estate needs on vSAN alone, where storage drives hosts too ([`vsan_alone`]).
//!
//! ```
//! use dsplan::demand::{DemandOptions, derive};
//! use dsplan::sizing::{SizingOptions, find_sku, size_estate};
//! use dsplan::vsan::VsanCatalog;
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let demand = derive(
//!     &dsplan::ingest::read_inputs(&[fixture])?,
//!     &DemandOptions::default(),
//! )?;
//! let catalog = VsanCatalog::builtin()?;
//! let host = find_sku(&catalog, "av36p")?;
//! let sizing = size_estate(&demand, host, &catalog.limits, &SizingOptions::default())?;
//! // Dev and Prod each need one host for their vCPUs and memory, plus one for vSphere HA:
//! // 2, raised to the 3-host minimum of an AVS cluster.
//! assert_eq!(sizing.clusters.len(), 2);
//! assert_eq!(sizing.hosts, 6);
//! assert_eq!(sizing.private_clouds.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Arithmetic, per group of VMs (one source cluster, or the whole estate with
//! [`Grouping::Estate`]):
//! - a host runs `cores x vcpu_per_core` vCPUs and offers `(memory_gb - 48) x 10^9 / 2^30 x
//!   memory_overcommit` GiB: its RAM (`data/avs_hosts.csv`, published in GB and read as
//!   decimal GB, the lower figure) less the 48 GB an ESXi node typically uses itself
//!   (`data/limits.csv`, `esxi_typical_memory_gb`);
//! - hosts by vCPU: `ceil(sum vCPU / vCPUs per host)`; by memory: `ceil(sum GiB / GiB per
//!   host)` (configured memory, or consumed with [`MemoryBasis::Consumed`]);
//! - a cluster's hosts: `max(3, max(by vCPU, by memory) + ha_hosts)`; the larger of the two
//!   (or the minimum) is the cluster's [`Driver`];
//! - a group whose hosts pass 16 is split into the fewest clusters that each fit (VMs dealt
//!   largest first to the least-loaded cluster);
//! - clusters are packed into private clouds of at most 12 clusters and 96 hosts
//!   (`data/limits.csv` \[AVS-LIMITS\]), each private cloud's first cluster holding the
//!   management reservation (46 GHz, 171.88 GB: [`ManagementReservation`], `first.rs`), a
//!   cluster without VMs added where none of its clusters can hold it.
//!
//! A VM larger than one host (more vCPUs than its hardware threads, `2 x cores`, or more
//! memory than the host) makes the SKU unusable: [`SizingError::VmTooLarge`]; the VMs that
//! fit no candidate SKU at all are found first ([`fitting_no_host`]) and left out.

mod first;
mod fit;
mod host_price;
mod options;
mod pack;
mod price_file;
mod prices;
mod prices_check;
mod vsan_alone;
mod vsan_grown;

pub(crate) use first::Raise;
pub use first::{ManagementReservation, first_cluster_on, management_only_cluster};
pub use fit::{NoHostFits, fitting_no_host};
pub use options::{Grouping, MemoryBasis, SizingError, SizingOptions, VmTooLarge};
pub use pack::Driver;
pub use prices::{
    AVS_HOST_PRICES_CSV, HostPrice, HostPrices, HostTerm, MAX_USD_PER_HOST_HOUR,
    MIN_USD_PER_HOST_HOUR, host_price_table,
};
pub use prices_check::PLAUSIBLE_FACTOR;
pub(crate) use vsan_alone::UNPRICED_HOST_CENTS;
pub use vsan_alone::{
    VsanAlone, VsanAloneCluster, VsanAloneData, check_one_cluster_holds, cluster_on_vsan,
    vsan_alone,
};

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::demand::Demand;
use crate::inventory::{Warning, WarningKind};
use crate::vsan::{AvsLimits, HostSku, VsanCatalog};
use first::ClusterNeeds;
use pack::{HostCapacity, VmLoad, split_group, sums};

/// Bytes per GB (decimal, as host memory is published).
const BYTES_PER_GB: f64 = 1e9;
/// Bytes per GiB.
const BYTES_PER_GIB: f64 = 1_073_741_824.0;
/// Name of the group of VMs that name no source cluster.
pub const NO_SOURCE_CLUSTER: &str = "(no source cluster)";

/// One AVS cluster of the sized estate.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AvsCluster {
    /// Name (`avs-<source cluster>`, `-2`, `-3` ... when a source cluster needs several;
    /// `avs-cluster-N` with [`Grouping::Estate`]); unique in the estate (a name another
    /// cluster already has gets `-2`, `-3` ... appended). The source cluster is named by
    /// its label: `avs-Cluster1`, or `avs-Cluster1 (vc-a)` where clusters of several
    /// vCenters share the name.
    pub name: String,
    /// The source cluster its VMs come from, by its label (the name, qualified by vCenter
    /// and datacenter where it repeats; `None` with [`Grouping::Estate`]).
    pub source_cluster: Option<String>,
    /// Host SKU.
    pub sku: String,
    /// Hosts, HA reserve included (3..=16).
    pub hosts: u32,
    /// Hosts the VMs' vCPUs need (before the HA reserve).
    pub hosts_for_vcpu: u32,
    /// Hosts the VMs' memory needs (before the HA reserve).
    pub hosts_for_memory: u32,
    /// Hosts kept free for vSphere HA.
    pub ha_hosts: u32,
    /// What decides the host count.
    pub driver: Driver,
    /// VMs in the cluster.
    pub vms: usize,
    /// Their vCPUs.
    pub vcpus: u64,
    /// Their memory on the memory basis, GiB.
    pub memory_gib: f64,
    /// The private cloud it belongs to.
    pub private_cloud: String,
    /// The management resource pool AVS reserves in its private cloud's first cluster,
    /// when it is that cluster (its vCPUs and memory are counted in `hosts_for_vcpu` and
    /// `hosts_for_memory`); `None` otherwise.
    #[serde(default)]
    pub management: Option<ManagementReservation>,
    /// A cluster without VMs, added to be its private cloud's first cluster: none of the
    /// private cloud's clusters can be (AV64 in a Gen 1 private cloud needs a first cluster
    /// of AV36, AV36P or AV52 hosts; or every cluster is full).
    #[serde(default)]
    pub management_only: bool,
    /// How much of its hosts and storage the estate plan's chosen design uses (`None`
    /// until an estate plan fills it: the sizing alone does not know where the data goes).
    #[serde(default)]
    pub utilisation: Option<Utilisation>,
    /// Its VMs, as indices into the demand's `placed` list (not serialized).
    #[serde(skip)]
    pub vm_indices: Vec<usize>,
    /// What its hosts come from (not serialized).
    #[serde(skip)]
    pub(crate) needs: ClusterNeeds,
    /// On vSAN alone: its VMs' data on its vSAN and what its hosts' vSAN holds, GiB (full to
    /// the slack), for its utilisation (not serialized; `None` elsewhere).
    #[serde(skip)]
    pub(crate) vsan_alone_gib: Option<(f64, f64)>,
}

/// Two clusters are equal when what they publish is: the fields the JSON carries. The
/// working state kept beside them for the later stages (`vm_indices` and the fields not
/// serialized) is not compared, so a plan read back from its JSON equals the plan written.
impl PartialEq for AvsCluster {
    fn eq(&self, other: &Self) -> bool {
        // Every serialized field; a field added to the JSON is added here.
        self.name == other.name
            && self.source_cluster == other.source_cluster
            && self.sku == other.sku
            && self.hosts == other.hosts
            && self.hosts_for_vcpu == other.hosts_for_vcpu
            && self.hosts_for_memory == other.hosts_for_memory
            && self.ha_hosts == other.ha_hosts
            && self.driver == other.driver
            && self.vms == other.vms
            && self.vcpus == other.vcpus
            && self.memory_gib == other.memory_gib
            && self.private_cloud == other.private_cloud
            && self.management == other.management
            && self.management_only == other.management_only
            && self.utilisation == other.utilisation
    }
}

/// A private cloud: at most 12 clusters and 96 hosts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PrivateCloud {
    /// Name (`private-cloud-1` ...).
    pub name: String,
    /// Its clusters, by name.
    pub clusters: Vec<String>,
    /// Its hosts.
    pub hosts: u32,
}

/// The estate sized on one host SKU.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstateSizing {
    /// Host SKU.
    pub sku: String,
    /// vCPUs one host runs: cores x `vcpu_per_core`.
    pub vcpus_per_host: f64,
    /// Memory one host offers, GiB: GB x 10^9 / 2^30 x `memory_overcommit`.
    pub memory_gib_per_host: f64,
    /// The AVS clusters, grouped by source cluster in name order.
    pub clusters: Vec<AvsCluster>,
    /// The private clouds.
    pub private_clouds: Vec<PrivateCloud>,
    /// Hosts over all clusters.
    pub hosts: u32,
    /// vCPUs of the placed VMs.
    pub vcpus: u64,
    /// Memory of the placed VMs on the memory basis, GiB.
    pub memory_gib: f64,
    /// What the sizing could not see (VMs without a vCPU or memory figure, consumed
    /// memory falling back to configured).
    pub warnings: Vec<Warning>,
    /// The cluster added to a private cloud none of whose clusters can be its first
    /// cluster, named by its stem (not serialized; [`EstateSizing::first_fallback`]).
    #[serde(skip)]
    pub(crate) first_fallback: Option<AvsCluster>,
}

/// Equal when what it publishes is: its serialized fields (see [`AvsCluster`]'s equality).
impl PartialEq for EstateSizing {
    fn eq(&self, other: &Self) -> bool {
        // Every serialized field; `first_fallback` is working state.
        self.sku == other.sku
            && self.vcpus_per_host == other.vcpus_per_host
            && self.memory_gib_per_host == other.memory_gib_per_host
            && self.clusters == other.clusters
            && self.private_clouds == other.private_clouds
            && self.hosts == other.hosts
            && self.vcpus == other.vcpus
            && self.memory_gib == other.memory_gib
            && self.warnings == other.warnings
    }
}

/// Sizes the placed VMs of `demand` on hosts of `host`.
///
/// # Errors
/// [`SizingError::Invalid`] for settings out of range; [`SizingError::VmTooLarge`] when a
/// VM does not fit one host of the SKU.
pub fn size_estate(
    demand: &Demand,
    host: &HostSku,
    limits: &AvsLimits,
    o: &SizingOptions,
) -> Result<EstateSizing, SizingError> {
    size_groups(demand, &VmGroups::of(demand, o), host, limits, o)
}

/// The placed VMs' vCPUs and memory on a memory basis, grouped for sizing: what every
/// host SKU's sizing shares ([`size_groups`]).
#[derive(Debug, Clone)]
pub struct VmGroups {
    loads: Vec<VmLoad>,
    groups: Vec<(Option<String>, Vec<VmLoad>)>,
    warnings: Vec<Warning>,
}

impl VmGroups {
    /// The VMs of `demand` on `o.memory_basis`, grouped by `o.group`.
    pub fn of(demand: &Demand, o: &SizingOptions) -> VmGroups {
        let (loads, warnings) = vm_loads(demand, o.memory_basis);
        let groups = groups(demand, &loads, o.group);
        VmGroups {
            loads,
            groups,
            warnings,
        }
    }
}

/// [`size_estate`] for VMs already grouped (`groups` from [`VmGroups::of`] with the same
/// `demand` and options).
///
/// # Errors
/// As [`size_estate`].
pub fn size_groups(
    demand: &Demand,
    groups: &VmGroups,
    host: &HostSku,
    limits: &AvsLimits,
    o: &SizingOptions,
) -> Result<EstateSizing, SizingError> {
    o.validate(limits.max_hosts_per_cluster)?;
    let cap = capacity(host, limits, o);
    check_fit(demand, &groups.loads, host, limits)?;
    let reservation = host
        .can_be_first()
        .then(|| first::reservation(host, limits, o));
    let mut clusters = Vec::new();
    for (source, members) in &groups.groups {
        let parts = split_group(members, cap, o.ha_hosts, limits);
        let several = parts.len() > 1;
        for (i, part) in parts.into_iter().enumerate() {
            let base = match source.as_deref() {
                Some(NO_SOURCE_CLUSTER) => "no-cluster",
                Some(s) => s,
                None => "cluster",
            };
            let name = match (source, several) {
                (Some(_), false) => format!("avs-{base}"),
                (Some(_), true) => format!("avs-{base}-{}", i + 1),
                (None, _) => format!("avs-cluster-{}", clusters.len() + 1),
            };
            let needs = first::needs(sums(&part), cap, reservation, o, limits);
            clusters.push(cluster(name, source.clone(), &part, host, o, needs));
        }
    }
    unique_names(&mut clusters);
    let mut sizing = EstateSizing {
        sku: host.sku.clone(),
        vcpus_per_host: cap.vcpus,
        memory_gib_per_host: cap.memory_gib,
        hosts: 0,
        vcpus: groups.loads.iter().map(|l| l.vcpus as u64).sum(),
        memory_gib: groups.loads.iter().map(|l| l.memory_gib).sum(),
        clusters,
        private_clouds: Vec::new(),
        warnings: groups.warnings.clone(),
        first_fallback: management_only_cluster("avs-mgmt", host, limits, o),
    };
    sizing.assign_private_clouds(limits);
    Ok(sizing)
}

impl EstateSizing {
    /// Raises cluster `i` to `hosts` hosts for its datastores' performance (its
    /// [`Driver`] becomes [`Driver::Storage`] where that is more than its compute hosts);
    /// call [`EstateSizing::assign_private_clouds`] after the last change.
    pub fn raise_for_storage(&mut self, i: usize, hosts: u32) {
        if let Some(c) = self.clusters.get_mut(i) {
            c.raise_for_storage(hosts);
        }
    }
}

/// Makes the clusters' names unique: a name already taken (a source cluster `x-1` beside
/// the first part `avs-x-1` of a split source cluster `x`) gets `-2`, `-3` ... appended,
/// skipping every name another cluster has.
fn unique_names(clusters: &mut [AvsCluster]) {
    let all: BTreeSet<String> = clusters.iter().map(|c| c.name.clone()).collect();
    let mut taken = BTreeSet::new();
    for c in clusters.iter_mut() {
        if !taken.insert(c.name.clone()) {
            let name = (2u32..)
                .map(|n| format!("{}-{n}", c.name))
                .find(|n| !all.contains(n) && !taken.contains(n))
                .unwrap_or_default();
            taken.insert(name.clone());
            c.name = name;
        }
    }
}

/// One cluster of `part`'s VMs, its hosts from `needs` (not yet a first cluster).
fn cluster(
    name: String,
    source: Option<String>,
    part: &[VmLoad],
    host: &HostSku,
    o: &SizingOptions,
    needs: ClusterNeeds,
) -> AvsCluster {
    let (vcpus, memory_gib) = sums(part);
    let mut c = AvsCluster {
        name,
        source_cluster: source,
        sku: host.sku.clone(),
        hosts: 0,
        hosts_for_vcpu: 0,
        hosts_for_memory: 0,
        ha_hosts: o.ha_hosts,
        driver: Driver::Minimum,
        vms: part.len(),
        vcpus: vcpus as u64,
        memory_gib,
        private_cloud: String::new(),
        management: None,
        management_only: false,
        utilisation: None,
        vm_indices: part.iter().map(|v| v.index).collect(),
        needs,
        vsan_alone_gib: None,
    };
    c.apply(false);
    c
}

/// The host SKU named `sku` (trimmed, case-insensitive), for `host_sku`.
///
/// # Errors
/// [`SizingError::Invalid`] listing the SKUs of the catalog.
pub fn find_sku<'a>(catalog: &'a VsanCatalog, sku: &str) -> Result<&'a HostSku, SizingError> {
    let key = sku.trim().to_ascii_lowercase();
    catalog
        .hosts
        .iter()
        .find(|h| h.sku == key)
        .ok_or_else(|| SizingError::Invalid {
            option: "host_sku",
            value: sku.to_string(),
            expected: catalog
                .hosts
                .iter()
                .map(|h| h.sku.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// What one host of `host` offers: cores x `vcpu_per_core` vCPUs, its usable memory x
/// `memory_overcommit` GiB.
fn capacity(host: &HostSku, limits: &AvsLimits, o: &SizingOptions) -> HostCapacity {
    let (vcpus, memory_gib) = host_offers(host, limits, o);
    HostCapacity { vcpus, memory_gib }
}

/// What one host of `host` offers VMs: (vCPUs, `cores x vcpu_per_core`; memory, GiB: its
/// usable memory ([`usable_memory_gib`]) x `memory_overcommit`).
pub fn host_offers(host: &HostSku, limits: &AvsLimits, o: &SizingOptions) -> (f64, f64) {
    (
        f64::from(host.cores) * o.vcpu_per_core,
        usable_memory_gib(host, limits) * o.memory_overcommit,
    )
}

/// How much of hosts and storage a plan uses, per AVS cluster ([`AvsCluster::utilisation`])
/// and for the estate (`EstateSummary::utilisation`), as the Azure Migrate AVS assessment
/// reports the CPU, memory and storage utilisation of the nodes it recommends
/// (learn.microsoft.com/azure/migrate/concepts-azure-vmware-solution-assessment-calculation,
/// 2024-12-06). Every host of the chosen design counts, the HA reserve included (so a
/// cluster sized by vCPU with one HA host is at most (n - 1) / n), and vSAN alone's hosts
/// grown to hold the data. Storage is two figures, never mixed: the ANF datastores'
/// (`storage_pct`) and the hosts' vSAN (`vsan_storage_pct`); a cluster of the hybrid design
/// that keeps data on both has both.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Utilisation {
    /// The VMs' vCPUs, and in a private cloud's first cluster the management
    /// reservation's, over the hosts' (hosts x cores x `vcpu_per_core`, each cluster's own
    /// SKU), percent.
    pub vcpu_pct: f64,
    /// The VMs' memory (on the sizing's memory basis), and in a first cluster the
    /// management reservation's, over what the hosts offer VMs (hosts x (RAM - the ESXi
    /// overhead) x `memory_overcommit`), percent.
    pub memory_pct: f64,
    /// ANF datastores: the VMs' data placed on them (before growth, snapshot reserve and
    /// headroom) over the capacity provisioned for it (a cluster: its pools of its own and
    /// its shares' quotas; the estate: the pools' sizes, their rounding up to whole TiB
    /// included), percent; `None` where the design puts no data on ANF.
    #[serde(default)]
    pub storage_pct: Option<f64>,
    /// The hosts' vSAN: the VMs' data kept on it (after growth and snapshot reserve, as
    /// vSAN stores it) over what the hosts' vSAN holds for data (policy by cluster size,
    /// slack, dedup, less the raw capacity AVS uses itself: `VsanCatalog::capacity`; the
    /// estate: the clusters that keep data on vSAN), percent; `None` where the design
    /// keeps no data on vSAN.
    #[serde(default)]
    pub vsan_storage_pct: Option<f64>,
}

/// The memory one host offers VMs, GiB: its RAM less ESXi's own typical usage, read as
/// decimal GB (the pages publish GB): `(memory_gb - esxi_memory_gb) x 10^9 / 2^30`.
pub fn usable_memory_gib(host: &HostSku, limits: &AvsLimits) -> f64 {
    (host.memory_gb - f64::from(limits.esxi_memory_gb)).max(0.0) * BYTES_PER_GB / BYTES_PER_GIB
}

/// Each placed VM's vCPUs and memory on the basis, and warnings for what is unknown (one
/// per cause, with a count and the first few names).
fn vm_loads(demand: &Demand, basis: MemoryBasis) -> (Vec<VmLoad>, Vec<Warning>) {
    let mut no_cpu = Vec::new();
    let mut no_memory = Vec::new();
    let mut fallback = Vec::new();
    let loads = demand
        .placed
        .iter()
        .enumerate()
        .map(|(index, vm)| {
            let vcpus = vm.vcpus.map(|c| c as f64).unwrap_or_else(|| {
                no_cpu.push(vm.name.as_str());
                0.0
            });
            let consumed = match basis {
                MemoryBasis::Consumed => vm.memory_consumed_mib.or_else(|| {
                    fallback.push(vm.name.as_str());
                    None
                }),
                MemoryBasis::Configured => None,
            };
            let memory_mib = consumed.or(vm.memory_mib).unwrap_or_else(|| {
                no_memory.push(vm.name.as_str());
                0.0
            });
            VmLoad {
                index,
                vcpus,
                memory_gib: memory_mib / 1024.0,
            }
        })
        .collect();
    let mut warnings = Vec::new();
    for (names, what) in [
        (
            &no_cpu,
            "have no vCPU figure (vInfo `CPUs`): counted as 0 vCPU in host sizing",
        ),
        (
            &no_memory,
            "have no memory figure (vInfo `Memory`): counted as 0 GiB in host sizing",
        ),
        (
            &fallback,
            "have no consumed-memory figure (vMemory `Consumed`): sized by configured memory \
             (`memory_basis` consumed)",
        ),
    ] {
        if !names.is_empty() {
            warnings.push(Warning::plan_wide(
                WarningKind::Value,
                format!(
                    "{} VM(s) {what}: {}",
                    names.len(),
                    crate::numbers::first_few(
                        names
                            .iter()
                            .map(|n| format!("'{}'", crate::numbers::clip(n))),
                        names.len()
                    )
                ),
            ));
        }
    }
    (loads, warnings)
}

/// Refuses a SKU one of whose hosts cannot run a VM: more vCPUs than `2 x cores`
/// (hardware threads) or more memory than the host offers VMs (without overcommit).
fn check_fit(
    demand: &Demand,
    loads: &[VmLoad],
    host: &HostSku,
    limits: &AvsLimits,
) -> Result<(), SizingError> {
    let (threads, memory_gib) = fit::one_vm_limits(host, limits);
    for l in loads {
        let (need, have) = if l.vcpus > threads {
            (
                format!("{} vCPUs", l.vcpus),
                format!("{threads} hardware threads"),
            )
        } else if l.memory_gib > memory_gib {
            (
                format!("{:.1} GiB of memory", l.memory_gib),
                format!("{memory_gib:.1} GiB"),
            )
        } else {
            continue;
        };
        let vm = demand.placed.get(l.index);
        return Err(SizingError::VmTooLarge(Box::new(VmTooLarge {
            vm: vm.map(|v| v.name.clone()).unwrap_or_default(),
            file: vm.map(|v| v.origin.file.to_string()).unwrap_or_default(),
            sheet: vm.map(|v| v.origin.sheet.to_string()).unwrap_or_default(),
            row: vm.map_or(0, |v| v.origin.row),
            sku: host.sku.clone(),
            need,
            have,
        })));
    }
    Ok(())
}

/// The VMs grouped for sizing: by source cluster (its label, `VmDemand::cluster`: one
/// group per vCenter + datacenter + name, in label order; VMs without one in a group of
/// their own, named [`NO_SOURCE_CLUSTER`]) or all in one group.
fn groups(
    demand: &Demand,
    loads: &[VmLoad],
    grouping: Grouping,
) -> Vec<(Option<String>, Vec<VmLoad>)> {
    match grouping {
        Grouping::Estate => vec![(None, loads.to_vec())],
        Grouping::SourceCluster => {
            let mut by: BTreeMap<&str, Vec<VmLoad>> = BTreeMap::new();
            for l in loads {
                let name = demand
                    .placed
                    .get(l.index)
                    .and_then(|v| v.cluster.as_deref())
                    .unwrap_or(NO_SOURCE_CLUSTER);
                by.entry(name).or_default().push(*l);
            }
            by.into_iter()
                .map(|(k, v)| (Some(k.to_string()), v))
                .collect()
        }
    }
}

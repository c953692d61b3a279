//! The estate as read from RVTools: virtual machines with their capacity, plus the
//! data-quality warnings found while reading.
//!
//! ```
//! use std::path::Path;
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let inventory = dsplan::ingest::read_input(Path::new(fixture))?;
//! let summary = inventory.summary();
//! // The fixture's 8 VMs (examples/make_fixtures.rs), in use 50 + 50 + 800 + 100 + 20
//! // (Prod) + 250 + 150 + 400 (Dev) = 1,820 GiB.
//! assert_eq!(summary.vm_count, 8);
//! assert_eq!(summary.in_use_mib, 1_820.0 * 1024.0);
//! let clusters = inventory.summary_by_cluster();
//! assert_eq!(clusters.keys().collect::<Vec<_>>(), ["Dev", "Prod"]);
//! assert_eq!(clusters["Prod"].vm_count, 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Units are normalised to MiB (RVTools "MB" columns are binary MiB; RVTools 4.1.2 only
//! renamed the labels). Data a file does not carry is `None` ("unknown"), never zero.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod clusters;
mod hosts;
pub mod identity;
mod key;
mod sheets;
mod warning;
mod warnings;

pub(crate) use clusters::normalise as normalise_name;
pub use clusters::{ClusterId, SourceClusters};
pub use hosts::{ClusterHosts, host_label};
pub use key::VmKey;
pub use sheets::{LIVE_OPTICS_FORMAT, LIVE_OPTICS_WORDS, MIXED_WORDS, RVTOOLS_WORDS, SheetWords};
pub use warning::{UnknownWarningKind, Warning, WarningKind};
pub use warnings::{KEPT_PER_CAUSE, bound_warnings, push_bounded, warning_count, warning_shape};

/// Power state of a VM as RVTools reports it in the vInfo `Powerstate` column.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PowerState {
    /// `poweredOn`.
    PoweredOn,
    /// `poweredOff`.
    PoweredOff,
    /// `suspended`.
    Suspended,
    /// The column is missing, empty, or holds a value RVTools does not write.
    #[default]
    Unknown,
}

/// Where a record came from: file, sheet (tab) and 1-based row as a spreadsheet shows it
/// (the header is row 1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Origin {
    // `file` and `sheet`: one copy per input, shared by every record read from it.
    /// Path of the input file as given by the user.
    pub file: Arc<str>,
    /// Sheet name (`vInfo` ...); for a CSV file the tab its name implies, or `vInfo`.
    pub sheet: Arc<str>,
    /// 1-based row number; the header row is row 1.
    pub row: usize,
}

/// One virtual machine (a vInfo row).
///
/// The texts rows repeat (`cluster`, `host`, `datacenter`, `vi_sdk_server`, `vi_sdk_uuid`,
/// the `origin`'s file and sheet) are `Arc<str>`, one copy per input shared by its records
/// (set one with `.into()`); JSON writes and reads them as strings.
///
/// `Default` gives an unnamed VM with everything unknown, so code that builds VMs by hand
/// (tests, other inputs) can write `Vm { name, provisioned_mib, ..Vm::default() }` and keep
/// compiling when fields are added.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Vm {
    /// VM name (`VM` column), trimmed; never empty.
    pub name: String,
    /// `Powerstate` column.
    pub power_state: PowerState,
    /// `Template` column (text `True`/`False` or a boolean cell); `None` when unknown.
    pub template: Option<bool>,
    /// `Cluster` column; `None` when missing or empty. Shared by the VMs of the cluster.
    pub cluster: Option<Arc<str>>,
    /// `Host` column; `None` when missing or empty. Shared by the VMs of the host.
    pub host: Option<Arc<str>>,
    /// `Provisioned MiB` (`Provisioned MB` before RVTools 4.1.2), in MiB; `None` when unknown.
    pub provisioned_mib: Option<f64>,
    /// `In Use MiB` (`In Use MB` before RVTools 4.1.2), in MiB; `None` when unknown.
    pub in_use_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
    /// `Unshared MiB` (`Unshared MB`): space not shared with other VMs, in MiB.
    #[serde(default)]
    pub unshared_mib: Option<f64>,
    /// `SRM Placeholder` (RVTools 4.x): a Site Recovery Manager placeholder, not a running VM.
    #[serde(default)]
    pub srm_placeholder: Option<bool>,
    /// `CPUs`: virtual CPUs.
    #[serde(default)]
    pub cpus: Option<u64>,
    /// `Memory`: configured memory, in MiB (vMemory `Size MiB` when vInfo has none).
    #[serde(default)]
    pub memory_mib: Option<f64>,
    /// Memory the VM consumes on its host, in MiB (vMemory `Consumed`, or a Live Optics
    /// `VMs` sheet's `Consumed Memory`); `None` when unknown (no vMemory tab, or no row for
    /// the VM).
    #[serde(default)]
    pub memory_consumed_mib: Option<f64>,
    /// `Datacenter`.
    #[serde(default)]
    pub datacenter: Option<Arc<str>>,
    /// `Path` of the `.vmx` file (`[datastore] folder/vm.vmx`).
    #[serde(default)]
    pub path: Option<String>,
    /// The datastore of the VM's home folder, parsed from `path` (shared, as `cluster`).
    #[serde(default)]
    pub home_datastore: Option<Arc<str>>,
    /// `VI SDK Server`: the vCenter (or host) the export was taken from (RVTools 3.9+).
    #[serde(default)]
    pub vi_sdk_server: Option<Arc<str>>,
    /// `VM ID`: the vCenter managed-object id (`vm-41`), unique within one vCenter.
    #[serde(default)]
    pub vm_id: Option<String>,
    /// `VM UUID`.
    #[serde(default)]
    pub vm_uuid: Option<String>,
    /// `VI SDK UUID` (`vCenter UUID` before RVTools 3.9): the vCenter's instance UUID, which
    /// tells apart two vCenters that export under the same `VI SDK Server` (the same
    /// private IP in two sites).
    #[serde(default)]
    pub vi_sdk_uuid: Option<Arc<str>>,
    /// Set when a VM read before has the same key but is another VM ([`Vm::is_same_vm`]
    /// says no: another name, `VM UUID` or `VI SDK UUID`): this VM's number among the VMs
    /// of that key, from 2, appended to its key (`id:10.0.0.5:vm-41#2`) so the two stay
    /// apart.
    #[serde(default, alias = "key_input")]
    pub key_number: Option<usize>,
}

impl Vm {
    /// A VM named `name`, read at `origin`, with everything else unknown (`None`,
    /// [`PowerState::Unknown`]); set the known fields with struct-update syntax.
    pub fn new(name: impl Into<String>, origin: Origin) -> Vm {
        Vm {
            name: name.into(),
            origin,
            ..Vm::default()
        }
    }

    /// The key that identifies this VM across inputs: see [`VmKey::new`].
    pub fn key(&self) -> VmKey {
        let key = VmKey::new(
            self.vi_sdk_server.as_deref(),
            self.vm_id.as_deref(),
            self.vm_uuid.as_deref(),
            &self.name,
        );
        match self.key_number {
            Some(n) => VmKey(format!("{key}#{n}")),
            None => key,
        }
    }

    /// Whether `other` is the same VM as this one: dsplan's one identity rule, the same
    /// within an input, across inputs and for Live Optics. Two rows are one VM when
    ///
    /// - their keys are equal ([`VmKey::new`]: `VI SDK Server` + `VM ID`, else `VI SDK
    ///   Server` + `VM UUID`, else `VI SDK Server` + the name; `key_number` left aside), and
    /// - no identity field that both rows carry differs: the vCenter instance (`VI SDK
    ///   UUID`: two vCenters may export under one address), the `VM UUID` (both
    ///   case-insensitively), the name and, for a name key, the `.vmx` `Path` (two VMs of
    ///   one name in two folders), the datacenter and the cluster (a VM runs in one
    ///   cluster: two rows known by name alone in two clusters are two VMs, or one VM that
    ///   moved between two exports, and counting it twice is the safe side; rows carrying
    ///   a `VM UUID` or `VM ID` are matched across inputs by [`identity`] first, so a VM that
    ///   moved is counted once), as written.
    ///
    /// A field one row lacks is no evidence either way. Two rows that share a key but differ
    /// in one of these are two VMs: counting a VM twice over-sizes the plan (a warning says
    /// so), dropping one would under-size it.
    ///
    /// Across inputs, [`identity`] comes first: one spelling per vCenter, and a VM known by
    /// (vCenter, `VM UUID`, else `VM ID`) taken from the newer export. Within one input,
    /// the merge also asks two rows known by name alone to agree in their figures and host
    /// (vCPUs, memory, provisioned, in use) before it takes them for one VM.
    pub fn is_same_vm(&self, other: &Vm) -> bool {
        let base = |vm: &Vm| {
            VmKey::new(
                vm.vi_sdk_server.as_deref(),
                vm.vm_id.as_deref(),
                vm.vm_uuid.as_deref(),
                &vm.name,
            )
        };
        let key = base(self);
        let differ = |a: Option<&str>, b: Option<&str>, fold: bool| match (a, b) {
            (Some(a), Some(b)) if fold => !a.eq_ignore_ascii_case(b),
            (Some(a), Some(b)) => a != b,
            _ => false,
        };
        key == base(other)
            && !differ(
                self.vi_sdk_uuid.as_deref(),
                other.vi_sdk_uuid.as_deref(),
                true,
            )
            && !differ(self.vm_uuid.as_deref(), other.vm_uuid.as_deref(), true)
            && self.name == other.name
            && !(key.is_name_based()
                && (differ(self.path.as_deref(), other.path.as_deref(), false)
                    || differ(
                        self.datacenter.as_deref(),
                        other.datacenter.as_deref(),
                        false,
                    )
                    || differ(self.cluster.as_deref(), other.cluster.as_deref(), false)))
    }
}

/// One virtual disk (a vDisk row). `disk_mode`, `datastore`, `controller` and the origin's
/// file and sheet are `Arc<str>`, one copy per input shared by its disks (as [`Vm`]'s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VirtualDisk {
    /// `VM` name.
    pub vm: String,
    /// Key of the owning VM, built from this row's own `VI SDK Server` / `VM ID` /
    /// `VM UUID` / `VM` columns.
    pub vm_key: VmKey,
    /// `Disk` label (`Hard disk 1`).
    pub disk: Option<String>,
    /// `Disk Key` (RVTools 4.1.2+), joins vPartition rows.
    pub disk_key: Option<String>,
    /// `Capacity MiB` (`Capacity MB`), in MiB.
    pub capacity_mib: Option<f64>,
    /// `Raw`: a raw device mapping (RDM), which takes no datastore space.
    pub raw: Option<bool>,
    /// `Thin`: thin provisioned.
    pub thin: Option<bool>,
    /// `Disk Mode` (`persistent`, `independent_persistent` ...).
    pub disk_mode: Option<Arc<str>>,
    /// `Path` of the `.vmdk` (`[datastore] folder/file.vmdk`; may be a snapshot delta).
    pub path: Option<String>,
    /// The datastore parsed from `path`.
    pub datastore: Option<Arc<str>>,
    /// `Controller` (`SCSI controller 0` ...).
    pub controller: Option<Arc<str>>,
    /// Where the row was read.
    pub origin: Origin,
}

/// One guest partition (a vPartition row), as the guest OS reports it through VMware Tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partition {
    /// `VM` name.
    pub vm: String,
    /// Key of the owning VM (see [`VirtualDisk::vm_key`]).
    pub vm_key: VmKey,
    /// `Disk`: the guest mount point or drive (`C:\`, `/`).
    pub disk: Option<String>,
    /// `Disk Key` (RVTools 4.1.2+).
    pub disk_key: Option<String>,
    /// `Capacity MiB`, in MiB.
    pub capacity_mib: Option<f64>,
    /// `Consumed MiB` (RVTools 3.9+), in MiB.
    pub consumed_mib: Option<f64>,
    /// `Free MiB`, in MiB.
    pub free_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
}

/// One ESXi host (a vHost row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// `Host` name.
    pub name: String,
    /// `Datacenter`.
    pub datacenter: Option<String>,
    /// `Cluster`.
    pub cluster: Option<String>,
    /// `# CPU`: sockets.
    pub cpu_sockets: Option<u64>,
    /// `# Cores`: physical cores.
    pub cpu_cores: Option<u64>,
    /// `# Memory`, in MiB.
    pub memory_mib: Option<f64>,
    /// `# VMs`: running VMs.
    pub vms_running: Option<u64>,
    /// `# VMs total` (RVTools 4.1.2+).
    pub vms_total: Option<u64>,
    /// `ESX Version`.
    pub esx_version: Option<String>,
    /// `VI SDK Server`.
    pub vi_sdk_server: Option<String>,
    /// Where the row was read.
    pub origin: Origin,
}

/// One compute cluster (a vCluster row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// `Name` (`Cluster` in some exports).
    pub name: String,
    /// `NumHosts`.
    pub num_hosts: Option<u64>,
    /// `numEffectiveHosts`.
    pub num_effective_hosts: Option<u64>,
    /// `TotalCpu`, in MHz.
    pub total_cpu_mhz: Option<f64>,
    /// `NumCpuCores`.
    pub num_cpu_cores: Option<u64>,
    /// `TotalMemory`, in MiB.
    pub total_memory_mib: Option<f64>,
    /// `VI SDK Server`.
    pub vi_sdk_server: Option<String>,
    /// Where the row was read.
    pub origin: Origin,
}

/// One datastore (a vDatastore row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Datastore {
    /// `Name`.
    pub name: String,
    /// `Type`: `VMFS`, `NFS`, `NFS41`, `vsan`, `VVOL` ... as written.
    pub datastore_type: Option<String>,
    /// `Capacity MiB`, in MiB.
    pub capacity_mib: Option<f64>,
    /// `Provisioned MiB`, in MiB (may exceed capacity with thin disks).
    pub provisioned_mib: Option<f64>,
    /// `In Use MiB`, in MiB.
    pub in_use_mib: Option<f64>,
    /// `Free MiB`, in MiB.
    pub free_mib: Option<f64>,
    /// `# Hosts`.
    pub num_hosts: Option<u64>,
    /// `Hosts`: the comma-separated host list, split and trimmed.
    pub hosts: Vec<String>,
    /// `Cluster name`: the datastore cluster (not the compute cluster).
    pub datastore_cluster: Option<String>,
    /// `Address` (NFS: `server /export`).
    pub address: Option<String>,
    /// `URL` (`ds:///vmfs/volumes/...`).
    pub url: Option<String>,
    /// `VI SDK Server`.
    pub vi_sdk_server: Option<String>,
    /// Where the row was read.
    pub origin: Origin,
}

/// One snapshot (a vSnapshot row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// `VM` name.
    pub vm: String,
    /// Key of the owning VM (see [`VirtualDisk::vm_key`]).
    pub vm_key: VmKey,
    /// `Name` (`Snapshot` in some exports).
    pub name: Option<String>,
    /// `Date / time` as written (text, or an Excel serial date as a number in text).
    pub date: Option<String>,
    /// `Size MiB (vmsn)`, in MiB.
    pub size_vmsn_mib: Option<f64>,
    /// `Size MiB (total)`, in MiB.
    pub size_total_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
}

/// What one input held: its format, the tabs read, and the vMetaData facts.
///
/// A tab not in `tabs` was not in the input (or could not be used, with a warning): its
/// data is unknown, not zero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The input path as given.
    pub file: String,
    /// `xlsx`, `csv-folder` or `csv`.
    pub format: String,
    /// The tabs read into the inventory, in reading order.
    pub tabs: Vec<String>,
    /// vMetaData `RVTools major version` (`3.10`, `4.7`).
    pub rvtools_major_version: Option<String>,
    /// vMetaData `RVTools version` (`3.10.1.0`).
    pub rvtools_version: Option<String>,
    /// vMetaData `xlsx creation datetime`, as written.
    pub created: Option<String>,
    /// vMetaData `Server`: the vCenter exported.
    pub server: Option<String>,
    /// The vInfo headers as the file writes them, by field name (`In Use MiB` ->
    /// `In Use MB`), for the fields the sheet has; warnings name these.
    #[serde(default)]
    pub vinfo_headers: std::collections::BTreeMap<String, String>,
    /// The vDatastore headers as the file writes them, by field name (`Provisioned MiB`
    /// -> `Provisioned MB`), for the fields the sheet has; warnings name these.
    #[serde(default)]
    pub vdatastore_headers: std::collections::BTreeMap<String, String>,
    /// The vCPU headers as the file writes them, by field name, for the fields the sheet
    /// has (empty when vCPU was not read: it is read only when vInfo leaves an attribute
    /// unknown).
    #[serde(default)]
    pub vcpu_headers: std::collections::BTreeMap<String, String>,
    /// The vMemory headers as the file writes them, by field name, for the fields the
    /// sheet has.
    #[serde(default)]
    pub vmemory_headers: std::collections::BTreeMap<String, String>,
    /// Read from bytes held in memory (an upload, `Planner::input_bytes`), not from a file
    /// of that name: nothing of it is read again from the disk. Not serialized: the JSON
    /// of an inventory is the same whichever way it was read.
    #[serde(skip)]
    pub from_bytes: bool,
}

/// Everything read from one or more RVTools inputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Inventory {
    /// Input paths in the order given.
    pub inputs: Vec<String>,
    /// Every VM row with a non-empty name, in input order.
    pub vms: Vec<Vm>,
    /// Data-quality warnings, in the order found.
    pub warnings: Vec<Warning>,
    /// Per input: format, tabs read, RVTools version.
    #[serde(default)]
    pub sources: Vec<Source>,
    /// vDisk rows of the VMs kept (duplicates across inputs removed).
    #[serde(default)]
    pub disks: Vec<VirtualDisk>,
    /// vPartition rows of the VMs kept.
    #[serde(default)]
    pub partitions: Vec<Partition>,
    /// vHost rows, one per (`VI SDK Server`, host name): a host name is unique within a
    /// vCenter, not across vCenters.
    #[serde(default)]
    pub hosts: Vec<Host>,
    /// vCluster rows, one per (`VI SDK Server`, name).
    #[serde(default)]
    pub clusters: Vec<Cluster>,
    /// vDatastore rows, one per `URL` (else `Address`, else server + name).
    #[serde(default)]
    pub datastores: Vec<Datastore>,
    /// vSnapshot rows of the VMs kept.
    #[serde(default)]
    pub snapshots: Vec<Snapshot>,
    /// VM rows dropped as copies of a VM already read ([`Vm::is_same_vm`]), in input
    /// order: not in `vms`, listed among a plan's excluded VMs.
    #[serde(default)]
    pub duplicates: Vec<DuplicateVm>,
}

/// A VM row dropped because it is a VM already read ([`Vm::is_same_vm`]): the same row
/// written twice, or an input that repeats another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateVm {
    /// VM name.
    pub name: String,
    /// Where the dropped row was read.
    pub origin: Origin,
    /// Where the VM kept was read: the row this one duplicates.
    pub copy_of: Origin,
}

/// Counts and totals of an [`Inventory`], as `dsplan inventory` prints them.
///
/// Totals sum the known values only; `*_unknown` counts the VMs whose value is missing,
/// so a reader can tell "0 MiB" from "not reported".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InventorySummary {
    /// All VM rows (templates included).
    pub vm_count: usize,
    /// Rows whose `Template` is true.
    pub template_count: usize,
    /// Non-template VMs powered on.
    pub powered_on_count: usize,
    /// Non-template VMs powered off.
    pub powered_off_count: usize,
    /// Non-template VMs suspended.
    pub suspended_count: usize,
    /// Non-template VMs with an unknown power state.
    pub unknown_power_state_count: usize,
    /// Sum of `Provisioned MiB` over all rows (templates included), MiB.
    pub provisioned_mib: f64,
    /// Sum of `In Use MiB` over all rows (templates included), MiB.
    pub in_use_mib: f64,
    /// Rows without a provisioned value.
    pub provisioned_unknown: usize,
    /// Rows without an in-use value.
    pub in_use_unknown: usize,
    /// Distinct source clusters, sorted: their names from [`InventorySummary::of`]; their
    /// labels ([`SourceClusters`]: qualified by vCenter and datacenter where a name
    /// repeats) from [`Inventory::summary`] and [`Inventory::summary_by_cluster`].
    pub clusters: Vec<String>,
    /// Hosts, count: for one cluster as [`Inventory::cluster_hosts`] counts them; for the
    /// estate, the sum over its clusters. [`InventorySummary::of`] alone counts the distinct
    /// vInfo `Host` names.
    pub host_count: usize,
    /// Where [`InventorySummary::host_count`] came from (see [`ClusterHosts::source`]).
    #[serde(default)]
    pub hosts_source: String,
    /// Sum of `CPUs` (vCPUs) over all rows (templates included).
    #[serde(default)]
    pub vcpus: u64,
    /// Rows without a `CPUs` value.
    #[serde(default)]
    pub vcpus_unknown: usize,
    /// Sum of configured memory (vInfo `Memory`) over all rows (templates included), MiB.
    #[serde(default)]
    pub memory_mib: f64,
    /// Rows without a configured memory value.
    #[serde(default)]
    pub memory_unknown: usize,
    /// Sum of consumed memory (vMemory `Consumed`) over the rows that have it, MiB.
    #[serde(default)]
    pub memory_consumed_mib: f64,
    /// Rows with a consumed memory figure (0 when no input has a vMemory tab).
    #[serde(default)]
    pub memory_consumed_vms: usize,
}

impl InventorySummary {
    /// Counts and totals over `vms`, summed in the order given.
    pub fn of<'a>(vms: impl IntoIterator<Item = &'a Vm>) -> InventorySummary {
        let mut s = InventorySummary {
            vm_count: 0,
            template_count: 0,
            powered_on_count: 0,
            powered_off_count: 0,
            suspended_count: 0,
            unknown_power_state_count: 0,
            provisioned_mib: 0.0,
            in_use_mib: 0.0,
            provisioned_unknown: 0,
            in_use_unknown: 0,
            clusters: Vec::new(),
            host_count: 0,
            hosts_source: String::new(),
            vcpus: 0,
            vcpus_unknown: 0,
            memory_mib: 0.0,
            memory_unknown: 0,
            memory_consumed_mib: 0.0,
            memory_consumed_vms: 0,
        };
        let mut clusters = std::collections::BTreeSet::new();
        let mut hosts = std::collections::BTreeSet::new();
        for vm in vms {
            s.vm_count += 1;
            if vm.template == Some(true) {
                s.template_count += 1;
            } else {
                match vm.power_state {
                    PowerState::PoweredOn => s.powered_on_count += 1,
                    PowerState::PoweredOff => s.powered_off_count += 1,
                    PowerState::Suspended => s.suspended_count += 1,
                    PowerState::Unknown => s.unknown_power_state_count += 1,
                }
            }
            match vm.provisioned_mib {
                Some(v) => s.provisioned_mib += v,
                None => s.provisioned_unknown += 1,
            }
            match vm.in_use_mib {
                Some(v) => s.in_use_mib += v,
                None => s.in_use_unknown += 1,
            }
            s.add_compute(vm);
            if let Some(c) = vm.cluster.as_deref() {
                clusters.insert(c);
            }
            if let Some(h) = vm.host.as_deref() {
                hosts.insert(h);
            }
        }
        s.clusters = clusters.into_iter().map(str::to_string).collect();
        s.host_count = hosts.len();
        s.hosts_source = "distinct vInfo Host names".to_string();
        s
    }

    /// Adds a VM's vCPUs, configured and consumed memory.
    fn add_compute(&mut self, vm: &Vm) {
        match vm.cpus {
            Some(c) => self.vcpus += c,
            None => self.vcpus_unknown += 1,
        }
        match vm.memory_mib {
            Some(v) => self.memory_mib += v,
            None => self.memory_unknown += 1,
        }
        if let Some(v) = vm.memory_consumed_mib {
            self.memory_consumed_mib += v;
            self.memory_consumed_vms += 1;
        }
    }
}

impl Inventory {
    /// Counts and totals over every VM row; clusters by label ([`SourceClusters`]); hosts:
    /// the sum of [`Inventory::cluster_hosts`] over the clusters (VMs without one
    /// included).
    pub fn summary(&self) -> InventorySummary {
        let mut s = InventorySummary::of(&self.vms);
        let mut labels: Vec<String> = SourceClusters::of(&self.vms)
            .iter()
            .map(|(_, l)| l.to_string())
            .collect();
        labels.sort();
        s.clusters = labels;
        s.host_count = self.cluster_hosts().values().map(|h| h.count).sum();
        s.hosts_source = "the sum of the clusters' host counts".to_string();
        s
    }

    /// Counts and totals per source cluster, by its label ([`SourceClusters`]: the vInfo
    /// `Cluster` name, qualified by vCenter and datacenter where the name repeats;
    /// `(none)` for VMs without one), each summed in input order; hosts as
    /// [`Inventory::cluster_hosts`] counts them.
    pub fn summary_by_cluster(&self) -> std::collections::BTreeMap<String, InventorySummary> {
        let clusters = SourceClusters::of(&self.vms);
        let mut groups: std::collections::BTreeMap<Option<&str>, Vec<&Vm>> =
            std::collections::BTreeMap::new();
        for vm in &self.vms {
            groups.entry(clusters.label(vm)).or_default().push(vm);
        }
        let mut hosts = self.cluster_hosts();
        groups
            .into_iter()
            .map(|(label, vms)| {
                let mut s = InventorySummary::of(vms);
                s.clusters = label.iter().map(|l| l.to_string()).collect();
                let h = hosts.remove(&label.map(str::to_string)).unwrap_or_default();
                (s.host_count, s.hosts_source) = (h.count, h.source);
                (label.unwrap_or("(none)").to_string(), s)
            })
            .collect()
    }
}

/// One line of the per-cluster table of `dsplan inventory`: the VMs of a compute cluster
/// (by vCenter, datacenter and the vInfo `Cluster` column: [`ClusterId`]) with their
/// totals, hosts and datastores.
///
/// Totals sum the known values; the `*_unknown` counts say how many VMs had none.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClusterSummary {
    /// The cluster's label ([`SourceClusters`]: its name, qualified by vCenter and
    /// datacenter where clusters of several share it); `None` for VMs without a cluster.
    pub cluster: Option<String>,
    /// VMs in the cluster (templates included).
    pub vm_count: usize,
    /// Sum of `CPUs` (vCPUs).
    pub vcpus: u64,
    /// VMs without a `CPUs` value.
    pub vcpus_unknown: usize,
    /// Sum of `Memory`, MiB.
    pub memory_mib: f64,
    /// VMs without a `Memory` value.
    pub memory_unknown: usize,
    /// Sum of `Provisioned MiB`, MiB.
    pub provisioned_mib: f64,
    /// VMs without a provisioned value.
    pub provisioned_unknown: usize,
    /// Sum of `In Use MiB`, MiB.
    pub in_use_mib: f64,
    /// VMs without an in-use value.
    pub in_use_unknown: usize,
    /// Hosts, count, as [`Inventory::cluster_hosts`] counts them.
    pub host_count: usize,
    /// Where [`ClusterSummary::host_count`] came from (see [`ClusterHosts::source`]).
    #[serde(default)]
    pub hosts_source: String,
    /// Datastores mounted on at least one of those hosts (vDatastore `Hosts`), counted by
    /// `Type` (`unknown` when the type is missing).
    pub datastores_by_type: std::collections::BTreeMap<String, usize>,
}

impl Inventory {
    /// Per-cluster totals, sorted by cluster label ([`SourceClusters`]; VMs without a
    /// cluster last). A cluster's hosts are its VMs' `Host` names and its vHost rows
    /// (matched by vCenter, datacenter and name); its datastores those mounted on one of
    /// them in its vCenter (or with no vCenter said).
    pub fn cluster_summaries(&self) -> Vec<ClusterSummary> {
        use std::collections::{BTreeMap, BTreeSet};
        let clusters = SourceClusters::of(&self.vms);
        let finder = hosts::ClusterFinder::new(clusters.iter().map(|(id, _)| *id));
        let mut by_cluster: BTreeMap<Option<ClusterId<'_>>, (ClusterSummary, BTreeSet<&str>)> =
            BTreeMap::new();
        for vm in &self.vms {
            let key = vm.cluster_id();
            let (s, hosts) = by_cluster.entry(key).or_insert_with(|| {
                (
                    ClusterSummary {
                        cluster: clusters.label(vm).map(str::to_string),
                        ..ClusterSummary::default()
                    },
                    BTreeSet::new(),
                )
            });
            s.vm_count += 1;
            match vm.cpus {
                Some(c) => s.vcpus += c,
                None => s.vcpus_unknown += 1,
            }
            match vm.memory_mib {
                Some(v) => s.memory_mib += v,
                None => s.memory_unknown += 1,
            }
            match vm.provisioned_mib {
                Some(v) => s.provisioned_mib += v,
                None => s.provisioned_unknown += 1,
            }
            match vm.in_use_mib {
                Some(v) => s.in_use_mib += v,
                None => s.in_use_unknown += 1,
            }
            if let Some(h) = vm.host.as_deref() {
                hosts.insert(h);
            }
        }
        for (key, rows) in self.vhost_rows_by_cluster(&finder) {
            if let Some((_, hosts)) = by_cluster.get_mut(&key) {
                hosts.extend(rows.iter().map(|h| h.name.as_str()));
            }
        }
        let mut out: Vec<ClusterSummary> = Vec::with_capacity(by_cluster.len());
        let mut unclustered = None;
        let mut counted = self.cluster_hosts();
        for (key, (mut s, hosts)) in by_cluster {
            let h = counted.remove(&s.cluster).unwrap_or_default();
            (s.host_count, s.hosts_source) = (h.count, h.source);
            let in_vcenter = |d: &Datastore| {
                key.is_none_or(|id| id.compatible(d.vi_sdk_server.as_deref(), None))
            };
            for d in self.datastores.iter().filter(|d| in_vcenter(d)) {
                if d.hosts.iter().any(|h| hosts.contains(h.as_str())) {
                    let kind = d.datastore_type.clone().unwrap_or_else(|| "unknown".into());
                    *s.datastores_by_type.entry(kind).or_insert(0) += 1;
                }
            }
            if key.is_none() {
                unclustered = Some(s);
            } else {
                out.push(s);
            }
        }
        out.sort_by(|a, b| a.cluster.cmp(&b.cluster));
        out.extend(unclustered);
        out
    }
}

//! Live Optics (Dell "Optical Prime") VMware exports: an xlsx with a `VMs` sheet and no
//! `vInfo`, read into the same [`Inventory`] as RVTools, and its `VM Performance` sheet read
//! into a [`PerfInput`] (peak or average figures, [`PerfBasis`]).
//!
//! What each column is for:
//! - `VMs`: `VM Name`, `Power State`, `Template`, `Virtual CPU`, `Provisioned Memory` (the
//!   configured memory), `Consumed Memory` (memory the VM holds on its host: the `consumed`
//!   memory basis; `Used Memory (active)`, the memory the guest touched lately and a
//!   fraction of that, is not read), `Virtual Disk Size` and `Virtual Disk Used` (the
//!   provisioned and in-use capacity), `Unshared`, `Guest VM Disk Used` (what the guest's
//!   file systems hold: the guest-consumed capacity basis, kept as the VM's one guest
//!   partition) and `Guest VM Disk Capacity`, `Cluster`, `Host`, `Datacenter`, `vCenter`,
//!   `MOB ID` (the vCenter managed-object id: with `vCenter`, the VM's key, as RVTools'
//!   `VI SDK Server` + `VM ID`) and `InstanceUUID`. Sizes in `(MiB)` or `(MB)`, both read as
//!   MiB (the label changed, as RVTools' did in 4.1.2).
//! - `ESX Hosts`: `Host Name`, `Datacenter`, `Cluster`, `CPU Sockets`, `CPU Cores`,
//!   `Memory (KiB)` or `(MiB)`, `vCenter`.
//! - `VM Performance`: `VM Name`, `MOB ID` and `vCenter` (which VM a row is: joined on
//!   `MOB ID`, in the row's `vCenter` where both sheets carry one, by name only for a row
//!   without a `MOB ID`), `Peak IOPS` / `Average IOPS`, `Max KB/sec` / `Average KB/sec`.
//!
//! Where the names come from:
//! - `VMs` (`Power State`, `Virtual CPU`, `Provisioned Memory (MB)`/`(MiB)`, `Virtual Disk
//!   Size (MB)`/`(MiB)`, `Virtual Disk Used (MB)`/`(MiB)`), `ESX Hosts` (`CPU Cores`) and the
//!   `VM Performance` sheet's name: the ANF team's AVS TCO estimator's Live Optics parser,
//!   github.com/Azure/azure-netapp-files `docs/avs-calc/RVTools/netapp_liveoptics_parser.html`
//!   (commit 1c6dbe0, 2025-06-04). It accepts both the `MB` and the `MiB` spelling, as this
//!   reader does.
//! - `Consumed Memory (MiB)`, `Guest VM Disk Used (MiB)` and `Guest VM Disk Capacity (MiB)`
//!   (with `Used Memory (active) (MiB)` beside them), and their `(MB)` spellings (`Consumed
//!   Memory (MB)`, `Guest VM Disk Used (MB)`, `Guest VM Disk Capacity (MB)`, in a list of an
//!   older export's `VMs` columns): public code that reads real exports' `VMs` sheets,
//!   found with the project's code search (which does not name its repository).
//! - The `VM Performance` columns (`VM Name`, `MOB ID`, `Peak IOPS`, `Average IOPS`,
//!   `Max KB/sec`, `Average KB/sec`) and the `VMs` columns `VM Name`, `Template`, `Cluster`,
//!   `Host`, `Datacenter`, `vCenter`, `MOB ID`, `InstanceUUID`, `Unshared (MB)`: the same
//!   public code, and Live Optics' own page "VMware Guest VM Performance"
//!   (support.liveoptics.com/hc/en-us/articles/360048929974, also dell.com kbdoc 000299135),
//!   which names `Peak IOPS` as a VM data point of the Excel output. No public source shows
//!   a `vCenter` column on `VM Performance`: it is read when present (`vCenter`, `vCenter
//!   Server`), and a row without one joins on `MOB ID` alone (narrowed by name when that
//!   `MOB ID` is in two vCenters). No public source settles the throughput unit's base:
//!   `KB/sec` is read as KiB/s (the larger reading, so the conservative one), and the `MB/s`
//!   spellings some exports use as MiB/s. Unsettled names are accepted in their plausible
//!   spellings (see the field lists).
//!
//! Reading follows the RVTools rules: columns by name, never by position; nothing sized
//! from a sheet's dimensions; a bad cell is a warning naming file, sheet, row, column and
//! value; a missing required column is an [`IngestError::MissingColumn`] listing every
//! spelling tried.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ingest::perf::{
    JoinColumns, PerfInput, RowIds, Unjoined, VmIndex, VmPerf, join_to_inventory, within_vm_limit,
};
use crate::ingest::strings::{Share, Strings};
use crate::ingest::table::{FieldSpec, Resolved, Row};
use crate::ingest::{IngestError, Input, ReadLimits, TabContext, vinfo, xlsx};
use crate::inventory::{Host, Inventory, Partition, Source, Vm, Warning, WarningKind};
use crate::numbers::clip;

pub use crate::inventory::LIVE_OPTICS_FORMAT;
/// The sheet of VMs (one per row).
const VMS_SHEET: &str = "VMs";
/// The sheet of ESXi hosts.
const HOSTS_SHEET: &str = "ESX Hosts";
/// The per-VM performance sheet.
pub const LIVE_OPTICS_PERF_SHEET: &str = "VM Performance";

/// Which figures of a Live Optics `VM Performance` sheet are the per-VM performance input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PerfBasis {
    /// `Peak IOPS` and `Max KB/sec`: the highest figure of the collection (conservative;
    /// their sum over VMs is higher than any moment's total).
    #[default]
    Peak,
    /// `Average IOPS` and `Average KB/sec`: the mean over the collection (the estate's
    /// peaks are higher).
    Average,
}

impl PerfBasis {
    /// The name used in messages and on the command line (`peak`, `average`).
    pub fn as_str(self) -> &'static str {
        match self {
            PerfBasis::Peak => "peak",
            PerfBasis::Average => "average",
        }
    }
}

impl std::fmt::Display for PerfBasis {
    /// [`PerfBasis::as_str`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A performance basis name no basis has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown perf_basis '{given}' (peak or average)")]
pub struct UnknownPerfBasis {
    /// The name given, clipped as messages quote values.
    pub given: String,
}

impl std::str::FromStr for PerfBasis {
    type Err = UnknownPerfBasis;

    /// A basis by its name, any case:
    ///
    /// ```
    /// use dsplan::ingest::PerfBasis;
    ///
    /// assert_eq!("Average".parse::<PerfBasis>(), Ok(PerfBasis::Average));
    /// assert_eq!(PerfBasis::Peak.to_string(), "peak");
    /// assert!("max".parse::<PerfBasis>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        [PerfBasis::Peak, PerfBasis::Average]
            .into_iter()
            .find(|b| t.eq_ignore_ascii_case(b.as_str()))
            .ok_or_else(|| UnknownPerfBasis { given: clip(s) })
    }
}

/// Whether an open workbook is a Live Optics export: a `VMs` sheet and no `vInfo`.
///
/// # Errors
/// [`IngestError::Malformed`] for a workbook with both (naming both sheets: one workbook is
/// read as one export, and which it is cannot be told), or two sheets answering to either
/// name ([`xlsx::find_sheet`]).
pub(crate) fn is_live_optics(wb: &xlsx::Workbook<'_>, file: &str) -> Result<bool, IngestError> {
    let vinfo = xlsx::find_sheet(wb, file, "vInfo")?;
    let vms = xlsx::find_sheet(wb, file, VMS_SHEET)?;
    match (vinfo, vms) {
        (Some(vinfo), Some(vms)) => Err(IngestError::Malformed {
            file: file.to_string(),
            sheet: None,
            row: None,
            column: None,
            detail: format!(
                "both an RVTools sheet '{}' and a Live Optics sheet '{}'; a workbook is read \
                 as one export, so which it is cannot be told: put each in a workbook of its \
                 own and give both",
                clip(&vinfo),
                clip(&vms)
            ),
        }),
        (None, Some(_)) => Ok(true),
        _ => Ok(false),
    }
}

const VM: usize = 0;
const POWER: usize = 1;
const TEMPLATE: usize = 2;
const CPUS: usize = 3;
const MEMORY: usize = 4;
const CONSUMED: usize = 5;
const DISK_SIZE: usize = 6;
const DISK_USED: usize = 7;
const UNSHARED: usize = 8;
const CLUSTER: usize = 9;
const HOST: usize = 10;
const DATACENTER: usize = 11;
const VCENTER: usize = 12;
const MOB_ID: usize = 13;
const UUID: usize = 14;
const GUEST_USED: usize = 15;
const GUEST_CAPACITY: usize = 16;

/// A required numeric column.
const fn required_number(name: &'static str, aliases: &'static [&'static str]) -> FieldSpec {
    FieldSpec {
        name,
        aliases,
        required: true,
        numeric: true,
    }
}

/// The `VMs` columns read, in slot order. `VM Name` and the two virtual disk columns are
/// required: without them the sheet is not a Live Optics VM list.
const VM_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM Name", &["VM Name", "VM", "Name"]),
    FieldSpec::text("Power State", &["Power State", "Powerstate"]),
    FieldSpec::text("Template", &["Template"]),
    FieldSpec::number(
        "Virtual CPU",
        &["Virtual CPU", "Virtual CPUs", "vCPU", "vCPUs"],
    ),
    FieldSpec::number(
        "Provisioned Memory (MiB)",
        &["Provisioned Memory (MiB)", "Provisioned Memory (MB)"],
    ),
    FieldSpec::number(
        "Consumed Memory (MiB)",
        &["Consumed Memory (MiB)", "Consumed Memory (MB)"],
    ),
    required_number(
        "Virtual Disk Size (MiB)",
        &["Virtual Disk Size (MiB)", "Virtual Disk Size (MB)"],
    ),
    required_number(
        "Virtual Disk Used (MiB)",
        &["Virtual Disk Used (MiB)", "Virtual Disk Used (MB)"],
    ),
    FieldSpec::number("Unshared (MiB)", &["Unshared (MiB)", "Unshared (MB)"]),
    FieldSpec::text("Cluster", &["Cluster"]),
    FieldSpec::text("Host", &["Host"]),
    FieldSpec::text("Datacenter", &["Datacenter"]),
    FieldSpec::text("vCenter", &["vCenter", "vCenter Server"]),
    FieldSpec::text("MOB ID", &["MOB ID", "MOID", "MoRef ID"]),
    FieldSpec::text("InstanceUUID", &["InstanceUUID", "Instance UUID"]),
    FieldSpec::number(
        "Guest VM Disk Used (MiB)",
        &["Guest VM Disk Used (MiB)", "Guest VM Disk Used (MB)"],
    ),
    FieldSpec::number(
        "Guest VM Disk Capacity (MiB)",
        &[
            "Guest VM Disk Capacity (MiB)",
            "Guest VM Disk Capacity (MB)",
        ],
    ),
];

/// A `VMs` row as a VM: virtual disk size and used are the VM's provisioned and in-use
/// capacity, provisioned and consumed memory its configured and consumed memory; with the
/// guest's used disk space (`Guest VM Disk Used`), that figure as the VM's one guest
/// partition (the guest-consumed capacity basis). `None` for a row without a name.
fn vm_from_row(row: &mut Row<'_, '_>) -> Option<(Vm, Option<Partition>)> {
    let name = row.name(VM, "VM")?;
    let vm = Vm {
        name,
        power_state: vinfo::power_state(row, POWER),
        template: row.boolean(TEMPLATE),
        cluster: row.text(CLUSTER).map(Arc::from),
        host: row.text(HOST).map(Arc::from),
        provisioned_mib: row.non_negative(DISK_SIZE),
        in_use_mib: row.non_negative(DISK_USED),
        origin: row.origin(),
        unshared_mib: row.non_negative(UNSHARED),
        srm_placeholder: None,
        cpus: vinfo::vcpus(row, CPUS),
        memory_mib: vinfo::memory_mib(row, MEMORY),
        memory_consumed_mib: row.non_negative(CONSUMED),
        datacenter: row.text(DATACENTER).map(Arc::from),
        path: None,
        home_datastore: None,
        vi_sdk_server: row.text(VCENTER).map(Arc::from),
        vm_id: row.text(MOB_ID),
        vm_uuid: row.text(UUID),
        vi_sdk_uuid: None,
        key_number: None,
    };
    let consumed_mib = row.non_negative(GUEST_USED);
    let partition = consumed_mib.map(|consumed_mib| Partition {
        vm: vm.name.clone(),
        vm_key: vm.key(),
        disk: None,
        disk_key: None,
        capacity_mib: row.non_negative(GUEST_CAPACITY),
        consumed_mib: Some(consumed_mib),
        free_mib: None,
        origin: vm.origin.clone(),
    });
    Some((vm, partition))
}

/// The RVTools vInfo field each `VMs` column stands for, by slot: warnings about a VM's
/// cell name the column as the `VMs` sheet spells it ([`Source::vinfo_headers`]).
const RVTOOLS_FIELDS: &[(usize, &str)] = &[
    (VM, "VM"),
    (POWER, "Powerstate"),
    (TEMPLATE, "Template"),
    (CPUS, "CPUs"),
    (MEMORY, "Memory"),
    (DISK_SIZE, "Provisioned MiB"),
    (DISK_USED, "In Use MiB"),
    (UNSHARED, "Unshared MiB"),
    (CLUSTER, "Cluster"),
    (HOST, "Host"),
    (DATACENTER, "Datacenter"),
    (VCENTER, "VI SDK Server"),
    (MOB_ID, "VM ID"),
    (UUID, "VM UUID"),
];

/// The `VMs` headers as the sheet spells them, by the RVTools field each stands for
/// ([`RVTOOLS_FIELDS`]), for the columns the sheet has.
fn rvtools_headers(row: &Row<'_, '_>) -> std::collections::BTreeMap<String, String> {
    RVTOOLS_FIELDS
        .iter()
        .filter(|(slot, _)| has_column(row, *slot))
        .map(|(slot, field)| {
            let header = row.resolved.header(*slot, VM_FIELDS);
            (field.to_string(), header)
        })
        .collect()
}

/// Whether the sheet read into `row` has the column of field `slot`.
fn has_column(row: &Row<'_, '_>, slot: usize) -> bool {
    row.resolved.columns.get(slot).is_some_and(Option::is_some)
}

/// The warning for a `VMs` sheet without a `Consumed Memory` column: consumed memory is
/// unknown, which leaves the VMs out of the inventory's consumed-memory total and would
/// size them by their configured memory under the `consumed` memory basis. `active`: the
/// sheet's active-memory header, when it has one (not a stand-in for consumed memory, and
/// the warning says so only then).
fn no_consumed_memory(file: &str, sheet: &str, active: Option<&str>) -> Warning {
    let active = active.map_or(String::new(), |header| {
        format!(
            "; its '{}' column is not read in its place (the memory the guest touched \
             lately, a fraction of what the VM holds on its host)",
            crate::numbers::clip(header)
        )
    });
    Warning {
        kind: WarningKind::Layout,
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        row: Some(1),
        column: None,
        value: None,
        message: format!(
            "no consumed memory column (tried '{}'): the VMs' consumed memory is unknown, so \
             the inventory's consumed memory leaves them out, and a plan on the consumed \
             memory basis (`memory_basis`) would size them by their configured memory{active}",
            VM_FIELDS[CONSUMED].aliases.join("', '")
        ),
        more_alike: 0,
    }
}

/// The first header of the sheet read into `row` that names active memory (`Used Memory
/// (active) (MiB)`), among the columns no field reads.
fn active_memory_header(row: &Row<'_, '_>) -> Option<String> {
    row.resolved
        .unknown
        .iter()
        .find(|h| h.to_ascii_lowercase().contains("active"))
        .cloned()
}

const H_NAME: usize = 0;
const H_DATACENTER: usize = 1;
const H_CLUSTER: usize = 2;
const H_SOCKETS: usize = 3;
const H_CORES: usize = 4;
const H_MEMORY_KIB: usize = 5;
const H_MEMORY_MIB: usize = 6;
const H_VCENTER: usize = 7;

/// The `ESX Hosts` columns read, in slot order.
const HOST_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("Host Name", &["Host Name", "Host", "Server Name", "Name"]),
    FieldSpec::text("Datacenter", &["Datacenter"]),
    FieldSpec::text("Cluster", &["Cluster"]),
    FieldSpec::number("CPU Sockets", &["CPU Sockets", "Sockets"]),
    FieldSpec::number("CPU Cores", &["CPU Cores", "Cores"]),
    FieldSpec::number("Memory (KiB)", &["Memory (KiB)", "Memory (KB)"]),
    FieldSpec::number("Memory (MiB)", &["Memory (MiB)", "Memory (MB)"]),
    FieldSpec::text("vCenter", &["vCenter", "vCenter Server"]),
];

fn host_from_row(row: &mut Row<'_, '_>) -> Option<Host> {
    let name = row.name(H_NAME, "host")?;
    let memory_mib = row
        .non_negative(H_MEMORY_MIB)
        .or_else(|| row.non_negative(H_MEMORY_KIB).map(|kib| kib / 1024.0));
    Some(Host {
        name,
        datacenter: row.text(H_DATACENTER),
        cluster: row.text(H_CLUSTER),
        cpu_sockets: row.count(H_SOCKETS),
        cpu_cores: row.count(H_CORES),
        memory_mib,
        vms_running: None,
        vms_total: None,
        esx_version: None,
        vi_sdk_server: row.text(H_VCENTER),
        origin: row.origin(),
    })
}

/// Reads an opened Live Optics workbook: `VMs` (required) and `ESX Hosts` (optional; a
/// sheet without a host name column is skipped with a warning).
///
/// # Errors
/// [`IngestError::MissingColumn`] when `VMs` lacks a required column,
/// [`IngestError::Malformed`] for broken sheet data.
pub(super) fn read(
    mut input: Input<'_>,
    file: String,
    limits: ReadLimits,
) -> Result<Inventory, IngestError> {
    let mut inventory = Inventory {
        inputs: vec![file.clone()],
        ..Inventory::default()
    };
    let mut source = Source {
        file: file.clone(),
        format: LIVE_OPTICS_FORMAT.to_string(),
        tabs: Vec::new(),
        rvtools_major_version: None,
        rvtools_version: None,
        created: None,
        server: None,
        vinfo_headers: std::collections::BTreeMap::new(),
        vdatastore_headers: std::collections::BTreeMap::new(),
        vcpu_headers: std::collections::BTreeMap::new(),
        vmemory_headers: std::collections::BTreeMap::new(),
        from_bytes: false,
    };
    let mut vms = Vec::new();
    let mut partitions = Vec::new();
    let mut strings = Strings::default();
    let mut consumed_column = true;
    let mut active_header = None;
    let mut headers = std::collections::BTreeMap::new();
    let sheet = input.read_tab(
        &file,
        VMS_SHEET,
        VM_FIELDS,
        &mut inventory.warnings,
        limits,
        |row| {
            consumed_column = has_column(row, CONSUMED);
            if active_header.is_none() {
                active_header = active_memory_header(row);
            }
            if headers.is_empty() {
                headers = rvtools_headers(row);
            }
            let Some((mut vm, partition)) = vm_from_row(row) else {
                return false;
            };
            vm.share(&mut strings);
            vms.push(vm);
            partitions.extend(partition.map(|mut p| {
                p.share(&mut strings);
                p
            }));
            true
        },
    )?;
    let Some(sheet) = sheet else {
        return Err(IngestError::MissingSheet {
            file,
            sheet: VMS_SHEET.to_string(),
            found: input.tab_names(),
        });
    };
    if !consumed_column {
        let active = active_header.as_deref();
        inventory
            .warnings
            .push(no_consumed_memory(&file, &sheet, active));
    }
    source.tabs.push(sheet);
    source.vinfo_headers = headers;
    inventory.vms = vms;
    inventory.partitions = partitions;
    let mut ctx = TabContext {
        input: &mut input,
        file: &file,
        warnings: &mut inventory.warnings,
        tabs: &mut source.tabs,
        limits,
        strings: &mut strings,
    };
    ctx.optional(
        HOSTS_SHEET,
        HOST_FIELDS,
        &mut inventory.hosts,
        host_from_row,
    )?;
    inventory.sources.push(source);
    Ok(inventory)
}

const P_VM: usize = 0;
const P_IOPS: usize = 1;
const P_KBPS: usize = 2;
const P_MBPS: usize = 3;
const P_MOB_ID: usize = 4;
const P_VCENTER: usize = 5;

/// The `VM Performance` sheet's `VM Name` column.
const PERF_VM: FieldSpec = FieldSpec::required("VM Name", &["VM Name", "VM", "Name"]);
/// The `VM Performance` sheet's `MOB ID` column: the VM's vCenter managed-object id, as on
/// the `VMs` sheet.
const PERF_MOB_ID: FieldSpec = FieldSpec::text("MOB ID", &["MOB ID", "MOID", "MoRef ID"]);
/// The `VM Performance` sheet's `vCenter` column, where an export has one.
const PERF_VCENTER: FieldSpec = FieldSpec::text("vCenter", &["vCenter", "vCenter Server"]);

/// `VM Performance` columns for [`PerfBasis::Peak`], in slot order.
const PEAK_FIELDS: &[FieldSpec] = &[
    PERF_VM,
    FieldSpec::number("Peak IOPS", &["Peak IOPS", "Max IOPS", "Maximum IOPS"]),
    FieldSpec::number(
        "Max KB/sec",
        &["Max KB/sec", "Peak KB/sec", "Max KB/s", "Peak KB/s"],
    ),
    FieldSpec::number(
        "Peak Throughput MB/s",
        &["Peak Throughput MB/s", "Peak MB/s", "Max MB/s"],
    ),
    PERF_MOB_ID,
    PERF_VCENTER,
];

/// `VM Performance` columns for [`PerfBasis::Average`], in slot order.
const AVERAGE_FIELDS: &[FieldSpec] = &[
    PERF_VM,
    FieldSpec::number("Average IOPS", &["Average IOPS", "Avg IOPS"]),
    FieldSpec::number(
        "Average KB/sec",
        &["Average KB/sec", "Avg KB/sec", "Average KB/s", "Avg KB/s"],
    ),
    FieldSpec::number(
        "Avg Throughput MB/s",
        &[
            "Avg Throughput MB/s",
            "Average Throughput MB/s",
            "Average MB/s",
            "Avg MB/s",
        ],
    ),
    PERF_MOB_ID,
    PERF_VCENTER,
];

/// A `VM Performance` row: IOPS as written, throughput from the KB/s column (÷ 1024, read
/// as KiB/s) or else the MB/s column (read as MiB/s); with the row's `MOB ID` and
/// `vCenter`, which join it to its VM.
fn perf_from_row(row: &mut Row<'_, '_>) -> Option<(VmPerf, RowIds)> {
    let vm = row.name(P_VM, "VM")?;
    let iops = row.non_negative(P_IOPS);
    let iops = within_vm_limit(row, Some(P_IOPS), iops, "IOPS");
    let (slot, throughput_mibps) = match row.non_negative(P_KBPS) {
        Some(kbps) => (P_KBPS, Some(kbps / 1024.0)),
        None => (P_MBPS, row.non_negative(P_MBPS)),
    };
    let throughput_mibps = within_vm_limit(row, Some(slot), throughput_mibps, "MiB/s");
    let ids = RowIds {
        vm_id: row.text(P_MOB_ID),
        vcenter: row.text(P_VCENTER),
    };
    let perf = VmPerf {
        vm,
        vm_key: None,
        iops,
        throughput_mibps,
        read_pct: None,
        block_kib: None,
        origin: row.origin(),
    };
    Some((perf, ids))
}

/// Reads the `VM Performance` sheet of a Live Optics workbook as per-VM performance
/// figures, peak or average by `basis`, joined to `inventory` by `MOB ID` (and `vCenter`
/// where both sheets carry it), by `VM Name` for a row without a `MOB ID`: two VMs of one
/// name are two VMs, each with its own figures. A row that matches no VM, or several by
/// `MOB ID`, is a warning; rows without a `MOB ID` whose name several VMs share give each
/// of them the name's largest figures, as for [`super::read_perf_csv`]. `Ok(None)` when the
/// workbook has no such sheet (the collection ran without VM performance).
///
/// # Errors
/// [`IngestError`] when the file cannot be opened as an xlsx, the sheet has no `VM Name`
/// column (listing the spellings tried), or its data is broken.
pub fn read_live_optics_perf(
    path: &Path,
    inventory: &Inventory,
    basis: PerfBasis,
) -> Result<Option<PerfInput>, IngestError> {
    let file = path.display().to_string();
    let wb = xlsx::open(path, &file)?;
    perf_of_workbook(wb, file, inventory, basis)
}

/// [`read_live_optics_perf`] of a workbook held in memory (an upload; `name` names it in
/// messages and in the rows' origin), as [`read_input_bytes`](super::read_input_bytes)
/// reads its inventory: nothing is read from the disk.
///
/// # Errors
/// As [`read_live_optics_perf`].
pub fn read_live_optics_perf_bytes(
    name: &str,
    bytes: &[u8],
    inventory: &Inventory,
    basis: PerfBasis,
) -> Result<Option<PerfInput>, IngestError> {
    let wb = xlsx::open_bytes(bytes, name)?;
    perf_of_workbook(wb, name.to_string(), inventory, basis)
}

/// The `VM Performance` sheet of the open workbook `wb` (named `file`), as
/// [`read_live_optics_perf`] reads it.
fn perf_of_workbook(
    mut wb: xlsx::Workbook<'_>,
    file: String,
    inventory: &Inventory,
    basis: PerfBasis,
) -> Result<Option<PerfInput>, IngestError> {
    let Some(sheet) = xlsx::find_sheet(&wb, &file, LIVE_OPTICS_PERF_SHEET)? else {
        return Ok(None);
    };
    let fields = match basis {
        PerfBasis::Peak => PEAK_FIELDS,
        PerfBasis::Average => AVERAGE_FIELDS,
    };
    let mut out = PerfInput {
        file: file.clone(),
        ..PerfInput::default()
    };
    let mut rows = Vec::new();
    let mut ids = Vec::new();
    let index = VmIndex::new(inventory);
    let mut unjoined = Unjoined::default();
    // The name and id columns' headers as the sheet spells them (known at the first row).
    let mut headers: Option<(String, Option<String>)> = None;
    let resolved = xlsx::read_table(&mut wb, &file, &sheet, fields, &mut out.warnings, |row| {
        let Some((r, id)) = perf_from_row(row) else {
            return ControlFlow::Continue(());
        };
        let (name, id_column) = headers.get_or_insert_with(|| join_headers(row.resolved, fields));
        let columns = JoinColumns {
            name,
            id: id_column.as_deref(),
        };
        // A row that names no VM is warned of and dropped here, not kept for the join.
        if unjoined.keeps(&index, &r, &id, columns) {
            rows.push(r);
            ids.push(id);
        }
        ControlFlow::Continue(())
    })?;
    out.take_unjoined(unjoined);
    let (vm_column, id_column) = join_headers(&resolved, fields);
    let columns = JoinColumns {
        name: &vm_column,
        id: id_column.as_deref(),
    };
    join_to_inventory(&mut rows, &ids, &index, columns, &mut out.warnings);
    out.rows = rows;
    Ok(Some(out))
}

/// The `VM Name` column's header and the `MOB ID` column's (when the sheet has one), as
/// the sheet spells them.
fn join_headers(resolved: &Resolved, fields: &[FieldSpec]) -> (String, Option<String>) {
    let has_ids = resolved.columns.get(P_MOB_ID).is_some_and(Option::is_some);
    (
        resolved.header(P_VM, fields),
        has_ids.then(|| resolved.header(P_MOB_ID, fields)),
    )
}

//! Live Optics (Dell "Optical Prime") VMware exports: an xlsx with a `VMs` sheet and no
//! `vInfo`, read into the same [`Inventory`] as RVTools, and its `VM Performance` sheet read
//! into a [`PerfInput`] (peak or average figures, [`PerfBasis`]).
//!
//! Sheet and column names, and where they come from:
//! - `VMs` (`Power State`, `Virtual CPU`, `Provisioned Memory (MB)`/`(MiB)`, `Used Memory
//!   (active) (MB)`/`(MiB)`, `Virtual Disk Size (MB)`/`(MiB)`, `Virtual Disk Used
//!   (MB)`/`(MiB)`), `ESX Hosts` (`CPU Cores`) and the `VM Performance` sheet's name: the ANF
//!   team's AVS TCO estimator's Live Optics parser, github.com/Azure/azure-netapp-files
//!   `docs/avs-calc/RVTools/netapp_liveoptics_parser.html` (commit 1c6dbe0, 2025-06-04). It
//!   accepts both the `MB` and the `MiB` spelling, as this reader does; `MB` is read as MiB
//!   (the label changed, as RVTools' did in 4.1.2).
//! - The `VM Performance` columns (`VM Name`, `MOB ID`, `Peak IOPS`, `Average IOPS`,
//!   `Max KB/sec`, `Average KB/sec`) and the `VMs` columns `VM Name`, `Template`, `Cluster`,
//!   `Host`, `Datacenter`, `vCenter`, `MOB ID`, `InstanceUUID`, `Unshared (MB)`: public code
//!   that reads real exports (found with the project's code search, which does not name
//!   its repository), and Live Optics' own page "VMware Guest VM Performance"
//!   (support.liveoptics.com/hc/en-us/articles/360048929974, also dell.com kbdoc 000299135),
//!   which names `Peak IOPS` as a VM data point of the Excel output. No public source
//!   settles the throughput unit's base: `KB/sec` is read as KiB/s (the larger reading,
//!   so the conservative one), and the `MB/s` spellings some exports use as MiB/s.
//!   Unsettled names are accepted in their plausible spellings (see the field lists).
//!
//! Reading follows the RVTools rules: columns by name, never by position; nothing sized
//! from a sheet's dimensions; a bad cell is a warning naming file, sheet, row, column and
//! value; a missing required column is an [`IngestError::MissingColumn`] listing every
//! spelling tried.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ingest::perf::{PerfInput, VmPerf, join_to_inventory, within_vm_limit};
use crate::ingest::table::{FieldSpec, Row};
use crate::ingest::{IngestError, Input, ReadLimits, TabContext, vinfo, xlsx};
use crate::inventory::{Host, Inventory, Source, Vm};
use crate::numbers::clip;

/// [`Source::format`] of a Live Optics workbook.
pub const LIVE_OPTICS_FORMAT: &str = "Live Optics";
/// The sheet of VMs (one per row).
const VMS_SHEET: &str = "VMs";
/// The sheet of ESXi hosts.
const HOSTS_SHEET: &str = "ESX Hosts";
/// The per-VM performance sheet.
pub const LIVE_OPTICS_PERF_SHEET: &str = "VM Performance";

/// Which figures of a Live Optics `VM Performance` sheet are the per-VM performance input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
const MEMORY_USED: usize = 5;
const DISK_SIZE: usize = 6;
const DISK_USED: usize = 7;
const UNSHARED: usize = 8;
const CLUSTER: usize = 9;
const HOST: usize = 10;
const DATACENTER: usize = 11;
const VCENTER: usize = 12;
const MOB_ID: usize = 13;
const UUID: usize = 14;

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
        "Used Memory (active) (MiB)",
        &["Used Memory (active) (MiB)", "Used Memory (active) (MB)"],
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
];

/// A `VMs` row as a VM: disk size and used are the VM's provisioned and in-use capacity,
/// provisioned and active memory its configured and consumed memory. `None` for a row
/// without a name.
fn vm_from_row(row: &mut Row<'_, '_>) -> Option<Vm> {
    let name = row.name(VM, "VM")?;
    Some(Vm {
        name,
        power_state: vinfo::power_state(row, POWER),
        template: row.boolean(TEMPLATE),
        cluster: row.text(CLUSTER),
        host: row.text(HOST),
        provisioned_mib: row.non_negative(DISK_SIZE),
        in_use_mib: row.non_negative(DISK_USED),
        origin: row.origin(),
        unshared_mib: row.non_negative(UNSHARED),
        srm_placeholder: None,
        cpus: vinfo::vcpus(row, CPUS),
        memory_mib: vinfo::memory_mib(row, MEMORY),
        memory_consumed_mib: row.non_negative(MEMORY_USED),
        datacenter: row.text(DATACENTER),
        path: None,
        home_datastore: None,
        vi_sdk_server: row.text(VCENTER),
        vm_id: row.text(MOB_ID),
        vm_uuid: row.text(UUID),
        vi_sdk_uuid: None,
        key_number: None,
    })
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
    };
    let mut vms = Vec::new();
    let sheet = input.read_tab(
        &file,
        VMS_SHEET,
        VM_FIELDS,
        &mut inventory.warnings,
        limits,
        |row| {
            if let Some(vm) = vm_from_row(row) {
                vms.push(vm);
            }
        },
    )?;
    let Some(sheet) = sheet else {
        return Err(IngestError::MissingSheet {
            file,
            sheet: VMS_SHEET.to_string(),
            found: input.tab_names(),
        });
    };
    source.tabs.push(sheet);
    inventory.vms = vms;
    let mut ctx = TabContext {
        input: &mut input,
        file: &file,
        warnings: &mut inventory.warnings,
        tabs: &mut source.tabs,
        limits,
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

/// `VM Performance` columns for [`PerfBasis::Peak`], in slot order.
const PEAK_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM Name", &["VM Name", "VM", "Name"]),
    FieldSpec::number("Peak IOPS", &["Peak IOPS", "Max IOPS", "Maximum IOPS"]),
    FieldSpec::number(
        "Max KB/sec",
        &["Max KB/sec", "Peak KB/sec", "Max KB/s", "Peak KB/s"],
    ),
    FieldSpec::number(
        "Peak Throughput MB/s",
        &["Peak Throughput MB/s", "Peak MB/s", "Max MB/s"],
    ),
];

/// `VM Performance` columns for [`PerfBasis::Average`], in slot order.
const AVERAGE_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM Name", &["VM Name", "VM", "Name"]),
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
];

/// A `VM Performance` row: IOPS as written, throughput from the KB/s column (÷ 1024, read
/// as KiB/s) or else the MB/s column (read as MiB/s).
fn perf_from_row(row: &mut Row<'_, '_>) -> Option<VmPerf> {
    let vm = row.name(P_VM, "VM")?;
    let iops = row.non_negative(P_IOPS);
    let iops = within_vm_limit(row, Some(P_IOPS), iops, "IOPS");
    let (slot, throughput_mibps) = match row.non_negative(P_KBPS) {
        Some(kbps) => (P_KBPS, Some(kbps / 1024.0)),
        None => (P_MBPS, row.non_negative(P_MBPS)),
    };
    let throughput_mibps = within_vm_limit(row, Some(slot), throughput_mibps, "MiB/s");
    Some(VmPerf {
        vm,
        vm_key: None,
        iops,
        throughput_mibps,
        read_pct: None,
        block_kib: None,
        origin: row.origin(),
    })
}

/// Reads the `VM Performance` sheet of a Live Optics workbook as per-VM performance
/// figures, peak or average by `basis`, joined to `inventory` by VM name as
/// [`super::read_perf_csv`] joins its rows (same checks and warnings). `Ok(None)` when the
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
    let mut wb = xlsx::open(path, &file)?;
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
    let resolved = xlsx::read_table(&mut wb, &file, &sheet, fields, &mut out.warnings, |row| {
        if let Some(r) = perf_from_row(row) {
            rows.push(r);
        }
    })?;
    let vm_column = resolved.header(P_VM, fields);
    join_to_inventory(&mut rows, inventory, &vm_column, &mut out.warnings);
    out.rows = rows;
    Ok(Some(out))
}

//! The per-VM rows of the vCPU and vMemory tabs, joined to the VMs of vInfo (see [`join`];
//! which row is which VM's: `join.rs`).
//!
//! RVTools writes `VM`, `Powerstate`, `Template`, `Datacenter`, `Cluster`, `Host`, `VI SDK
//! Server`, `VM ID` and `VM UUID` on both tabs; vMemory adds `Size MiB` and `Consumed`. One
//! row type ([`VmRow`]) is read from both: vMemory gives each VM its consumed memory (and
//! configured memory when vInfo has none); vCPU, else vMemory, fills the power state,
//! template flag, vCenter, datacenter, cluster and host a vInfo left unknown (a trimmed
//! export without those columns).
//!
//! Headers seen in real exports: RVTools 3.10 `VM`, `Size MB`, `Consumed`, ..., `VM ID`,
//! `VM UUID`, `VI SDK Server` (xlsx and CSV); RVTools 4.x `Size MiB`, `Consumed` (the
//! `Consumed` label has no unit in either; its values are MiB like every RVTools memory
//! column); RVTools 4.4.1 vCPU and vMemory `Powerstate`, `Template`, `Cluster`, `Host`.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::ingest::tab_match::{Matches, RowKey};
use crate::ingest::table::{FieldSpec, Row};
use crate::ingest::tabs::{SERVER, VM_ID, VM_UUID};
use crate::ingest::vinfo::power_state;
use crate::inventory::{Origin, PowerState, Vm, Warning, WarningKind};

/// Slots shared by [`VCPU_FIELDS`] and [`VMEMORY_FIELDS`]; vMemory's own follow.
const VM: usize = 0;
const SERVER_SLOT: usize = 1;
const VM_ID_SLOT: usize = 2;
const VM_UUID_SLOT: usize = 3;
const POWERSTATE: usize = 4;
const TEMPLATE: usize = 5;
const CLUSTER: usize = 6;
const HOST: usize = 7;
const DATACENTER: usize = 8;
const SIZE: usize = 9;
const CONSUMED: usize = 10;

/// The columns both tabs write, in slot order; `$tab` is the `-DBColumnNames` prefix.
macro_rules! vm_fields {
    ($tab:literal $(, $more:expr)*) => {
        &[
            FieldSpec::required("VM", &["VM", concat!($tab, "VMName"), "VM Name"]),
            FieldSpec::text("VI SDK Server", SERVER),
            FieldSpec::text("VM ID", VM_ID),
            FieldSpec::text("VM UUID", VM_UUID),
            FieldSpec::text(
                "Powerstate",
                &["Powerstate", concat!($tab, "Powerstate"), "Power State"],
            ),
            FieldSpec::text("Template", &["Template", concat!($tab, "Template")]),
            FieldSpec::text("Cluster", &["Cluster", concat!($tab, "Cluster")]),
            FieldSpec::text("Host", &["Host", concat!($tab, "Host")]),
            FieldSpec::text("Datacenter", &["Datacenter", concat!($tab, "Datacenter")]),
            $($more,)*
        ]
    };
}

/// vCPU columns: the VM's attributes only.
pub(crate) const VCPU_FIELDS: &[FieldSpec] = vm_fields!("vCPU");

/// vMemory columns. `Consumed` is required: a vMemory tab without it is skipped with a
/// warning like a tab without its `VM` column.
pub(crate) const VMEMORY_FIELDS: &[FieldSpec] = vm_fields!(
    "vMemory",
    FieldSpec::number(
        "Size MiB",
        &["Size MiB", "Size MB", "vMemorySizeMiB", "vMemorySizeMB"],
    ),
    FieldSpec {
        name: "Consumed",
        aliases: &[
            "Consumed",
            "Consumed MiB",
            "Consumed MB",
            "vMemoryConsumed",
            "vMemoryConsumedMiB",
        ],
        required: true,
        numeric: true,
    }
);

/// One vCPU or vMemory row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VmRow {
    /// `VM` name.
    pub vm: String,
    /// The row's key cells (`VI SDK Server`, `VM ID`, `VM UUID`).
    pub key: RowKey,
    /// `Powerstate`; unknown when the tab has no such column.
    pub power_state: PowerState,
    /// `Template`.
    pub template: Option<bool>,
    /// `Cluster`.
    pub cluster: Option<String>,
    /// `Host`.
    pub host: Option<String>,
    /// `Datacenter`.
    pub datacenter: Option<String>,
    /// `Size MiB` (`Size MB`, vMemory): configured memory, MiB.
    pub size_mib: Option<f64>,
    /// `Consumed` (vMemory): memory consumed on the host, MiB.
    pub consumed_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
}

/// A vCPU or vMemory row; `None` for a row without a VM name (a warning when it holds
/// values). Bad or negative sizes and unknown power states become warnings and unknown
/// values; vCPU rows have no size slots, which read as unknown.
pub(crate) fn vm_row(row: &mut Row<'_, '_>) -> Option<VmRow> {
    let vm = row.name(VM, "VM")?;
    Some(VmRow {
        key: RowKey::read(row, SERVER_SLOT, VM_ID_SLOT, VM_UUID_SLOT),
        power_state: power_state(row, POWERSTATE),
        template: row.boolean(TEMPLATE),
        cluster: row.text(CLUSTER),
        host: row.text(HOST),
        datacenter: row.text(DATACENTER),
        size_mib: row.non_negative(SIZE),
        consumed_mib: row.non_negative(CONSUMED),
        origin: row.origin(),
        vm,
    })
}

/// Whether any VM lacks one of the attributes vCPU or vMemory can fill (then the vCPU tab
/// is worth reading).
pub(crate) fn any_unknown(vms: &[Vm]) -> bool {
    vms.iter()
        .any(|vm| ATTRIBUTES.iter().any(|a| (a.unknown)(vm)))
}

/// What a vCPU row naming no VM of vInfo loses.
pub(crate) const VCPU_LOST: &str =
    "their power state, template flag, vCenter, datacenter, cluster and host are not used";
/// What a vMemory row naming no VM of vInfo loses.
pub(crate) const VMEMORY_LOST: &str = "their consumed memory is not counted";

/// The rows of one tab, the VM each joined (`join.rs`), and what is lost of a row naming
/// no VM.
pub(crate) struct Tab<'a> {
    /// `vCPU` or `vMemory`.
    pub name: &'static str,
    /// Its rows.
    pub rows: &'a [VmRow],
    /// How the rows joined their VMs.
    pub matches: &'a Matches,
    /// What a row naming no VM of vInfo loses ([`VCPU_LOST`], [`VMEMORY_LOST`]).
    pub lost: &'static str,
}

impl<'a> Tab<'a> {
    /// The rows of `name` as `matches` joined them.
    pub(crate) fn new(
        name: &'static str,
        rows: &'a [VmRow],
        matches: &'a Matches,
        lost: &'static str,
    ) -> Tab<'a> {
        Tab {
            name,
            rows,
            matches,
            lost,
        }
    }

    /// Per VM, its first row in this tab. Rows naming no VM of vInfo and repeated rows are
    /// counted, each kind in one warning (rows matching several VMs are `join.rs`'s count).
    fn first_rows(&self, vms: &[Vm], warnings: &mut Vec<Warning>) -> Vec<Option<&'a VmRow>> {
        let mut first: Vec<Option<&'a VmRow>> = vec![None; vms.len()];
        let mut unmatched: Vec<&VmRow> = Vec::new();
        let mut repeated: Vec<&VmRow> = Vec::new();
        let rows: &'a [VmRow] = self.rows;
        for (r, (row, found)) in rows.iter().zip(self.matches.found.iter()).enumerate() {
            match *found {
                None if self.matches.is_ambiguous(r) => {}
                None => unmatched.push(row),
                Some(i) if first[i].is_some() => repeated.push(row),
                Some(i) => first[i] = Some(row),
            }
        }
        let tab = self.name;
        let lost = self.lost;
        count_warning(&unmatched, warnings, |n, vm| {
            format!("{n} {tab} row(s) name a VM not in vInfo (first: '{vm}'); {lost}")
        });
        count_warning(&repeated, warnings, |n, vm| {
            format!(
                "{n} {tab} row(s) repeat a VM already read (first: '{vm}'); the first row \
                 of each VM is used"
            )
        });
        first
    }
}

/// One warning at the first of `rows` with their count, when there are any.
fn count_warning(
    rows: &[&VmRow],
    warnings: &mut Vec<Warning>,
    message: impl Fn(usize, &str) -> String,
) {
    if let Some(first) = rows.first() {
        warnings.push(Warning {
            column: Some("VM".to_string()),
            value: Some(crate::numbers::clip(&first.vm)),
            ..Warning::at_row(
                WarningKind::Identity,
                &first.origin,
                message(rows.len(), &crate::numbers::clip(&first.vm)),
            )
        });
    }
}

/// What vCPU or vMemory can give a VM that vInfo left unknown.
struct Attribute {
    /// In messages: `power state`.
    what: &'static str,
    /// The column (field) name: `Powerstate`.
    column: &'static str,
    /// Whether the VM lacks it.
    unknown: fn(&Vm) -> bool,
    /// Copies it from a row that has it; `true` when it did.
    fill: fn(&mut Vm, &VmRow) -> bool,
}

/// The attributes filled, in message order.
const ATTRIBUTES: [Attribute; 6] = [
    Attribute {
        what: "power state",
        column: "Powerstate",
        unknown: |vm| vm.power_state == PowerState::Unknown,
        fill: |vm, row| {
            vm.power_state = row.power_state.clone();
            row.power_state != PowerState::Unknown
        },
    },
    Attribute {
        what: "template flag",
        column: "Template",
        unknown: |vm| vm.template.is_none(),
        fill: |vm, row| {
            vm.template = row.template;
            row.template.is_some()
        },
    },
    Attribute {
        what: "vCenter",
        column: "VI SDK Server",
        unknown: |vm| vm.vi_sdk_server.is_none(),
        fill: |vm, row| {
            vm.vi_sdk_server = row.key.server.as_deref().map(Arc::from);
            row.key.server.is_some()
        },
    },
    Attribute {
        what: "datacenter",
        column: "Datacenter",
        unknown: |vm| vm.datacenter.is_none(),
        fill: |vm, row| {
            vm.datacenter = row.datacenter.as_deref().map(Arc::from);
            row.datacenter.is_some()
        },
    },
    Attribute {
        what: "cluster",
        column: "Cluster",
        unknown: |vm| vm.cluster.is_none(),
        fill: |vm, row| {
            vm.cluster = row.cluster.as_deref().map(Arc::from);
            row.cluster.is_some()
        },
    },
    Attribute {
        what: "host",
        column: "Host",
        unknown: |vm| vm.host.is_none(),
        fill: |vm, row| {
            vm.host = row.host.as_deref().map(Arc::from);
            row.host.is_some()
        },
    },
];

/// Joins the vCPU and vMemory rows of one input to its VMs, each row to the VM
/// `join.rs` matched it with.
///
/// vMemory sets [`Vm::memory_consumed_mib`] from `Consumed`, and [`Vm::memory_mib`] from
/// `Size MiB` when vInfo left it unknown. The power state, template flag, vCenter (`VI SDK
/// Server`), datacenter, cluster and host vInfo left unknown are taken from the VM's vCPU
/// row, else its vMemory row; each (field, tab) taken is one warning with the count, saying
/// why (`vinfo_headers`: the vInfo headers the file has, by field name). The first row of a
/// VM counts; rows naming no VM of vInfo and repeated rows are counted, each kind per tab
/// in one warning. VMs without a row keep `None` (unknown).
pub(crate) fn join(
    vms: &mut [Vm],
    vcpu: &Tab<'_>,
    vmemory: &Tab<'_>,
    vinfo_headers: &BTreeMap<String, String>,
    warnings: &mut Vec<Warning>,
) {
    let memory = vmemory.first_rows(vms, warnings);
    let cpu = vcpu.first_rows(vms, warnings);
    // (count, first row) per attribute and tab (vCPU, vMemory).
    let mut taken: [[(usize, Option<&VmRow>); 2]; ATTRIBUTES.len()] = Default::default();
    for (i, vm) in vms.iter_mut().enumerate() {
        if let Some(row) = memory[i] {
            vm.memory_consumed_mib = row.consumed_mib;
            if vm.memory_mib.is_none() {
                vm.memory_mib = row.size_mib;
            }
        }
        for (a, attribute) in ATTRIBUTES.iter().enumerate() {
            if !(attribute.unknown)(vm) {
                continue;
            }
            for (t, row) in [cpu[i], memory[i]].into_iter().enumerate() {
                if let Some(row) = row
                    && (attribute.fill)(vm, row)
                {
                    let entry = &mut taken[a][t];
                    entry.0 += 1;
                    entry.1.get_or_insert(row);
                    break;
                }
            }
        }
    }
    for (attribute, per_tab) in ATTRIBUTES.iter().zip(taken) {
        for ((n, first), tab) in per_tab.into_iter().zip(["vCPU", "vMemory"]) {
            if let Some(first) = first {
                warnings.push(taken_warning(attribute, n, tab, first, vinfo_headers));
            }
        }
    }
}

/// `power state of 12 VMs taken from vCPU (vInfo has no Powerstate column)`.
fn taken_warning(
    attribute: &Attribute,
    n: usize,
    tab: &str,
    first: &VmRow,
    vinfo_headers: &BTreeMap<String, String>,
) -> Warning {
    let why = match vinfo_headers.get(attribute.column) {
        Some(header) => format!("empty or unreadable in vInfo's {header} column"),
        None => format!("vInfo has no {} column", attribute.column),
    };
    // The cell named is the first VM's name: the attribute's own cells differ per VM.
    Warning {
        column: Some("VM".to_string()),
        value: Some(crate::numbers::clip(&first.vm)),
        ..Warning::at_row(
            WarningKind::Value,
            &first.origin,
            format!(
                "{} of {n} VM(s) taken from {tab} ({why}; first: '{}')",
                attribute.what, first.vm
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tab_match::{KeyColumns, match_tab};

    const ALL: KeyColumns = KeyColumns::ALL;

    fn vm(name: &str, id: Option<&str>) -> Vm {
        Vm {
            vm_id: id.map(str::to_string),
            vi_sdk_server: Some("vc".into()),
            ..Vm::new(name, Origin::default())
        }
    }

    fn row(name: &str, id: Option<&str>, consumed: f64) -> VmRow {
        VmRow {
            vm: name.to_string(),
            key: RowKey {
                server: Some("vc".into()),
                vm_id: id.map(str::to_string),
                vm_uuid: None,
                columns: ALL,
            },
            power_state: PowerState::Unknown,
            template: None,
            cluster: None,
            host: None,
            datacenter: None,
            size_mib: Some(4096.0),
            consumed_mib: Some(consumed),
            origin: Origin::default(),
        }
    }

    /// [`join`] after `join.rs` matched the rows (vInfo with every key column).
    fn run(
        vms: &mut [Vm],
        vcpu: &[VmRow],
        vmemory: &[VmRow],
        headers: &BTreeMap<String, String>,
        warnings: &mut Vec<Warning>,
    ) {
        let matched =
            |rows: &[VmRow]| match_tab(vms, ALL, rows.iter().map(|r| (&r.key, r.vm.as_str())));
        let (cpu, memory) = (matched(vcpu), matched(vmemory));
        join(
            vms,
            &Tab::new("vCPU", vcpu, &cpu, VCPU_LOST),
            &Tab::new("vMemory", vmemory, &memory, VMEMORY_LOST),
            headers,
            warnings,
        );
    }

    #[test]
    fn joins_by_key_then_unique_name_and_counts_the_rest() {
        // a: by VM ID; b: vInfo without VM ID, the row has one (name fallback);
        // dup, dup: two vInfo rows with one name and no ids, in two folders (two VMs):
        // ambiguous, neither joins (the join's own warning counts them); "ghost",
        // "ghost2": no VM.
        let in_folder = |folder: &str| Vm {
            path: Some(format!("[ds] {folder}/dup.vmx")),
            ..vm("dup", None)
        };
        let mut vms = vec![
            vm("a", Some("vm-1")),
            vm("b", None),
            in_folder("a"),
            in_folder("b"),
            Vm {
                memory_mib: Some(1.0),
                ..vm("c", Some("vm-3"))
            },
        ];
        let rows = [
            row("a", Some("vm-1"), 100.0),
            row("b", Some("vm-2"), 200.0),
            row("dup", None, 300.0),
            row("dup", None, 400.0),
            row("ghost", Some("vm-9"), 500.0),
            row("c", Some("vm-4"), 600.0),
            row("ghost2", None, 700.0),
            row("a", Some("vm-1"), 800.0),
        ];
        let mut warnings = Vec::new();
        run(&mut vms, &[], &rows, &BTreeMap::new(), &mut warnings);
        let consumed: Vec<_> = vms.iter().map(|v| v.memory_consumed_mib).collect();
        // c's row carries another VM ID (vm-4 vs vm-3): a different VM, not joined by name.
        assert_eq!(consumed, [Some(100.0), Some(200.0), None, None, None]);
        // Size fills unknown configured memory only.
        assert_eq!(vms[0].memory_mib, Some(4096.0));
        assert_eq!(vms[4].memory_mib, Some(1.0));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        // ghost, c (vm-4), ghost2.
        assert!(
            warnings[0]
                .message
                .starts_with("3 vMemory row(s) name a VM not in vInfo")
        );
        assert_eq!(warnings[0].value.as_deref(), Some("ghost"));
        assert!(warnings[1].message.starts_with("1 vMemory row(s) repeat"));
    }

    #[test]
    fn fills_unknown_attributes_from_vcpu_else_vmemory_with_one_warning_per_field_and_tab() {
        // a: vCPU has everything; b: no vCPU row, vMemory has power state and cluster;
        // c: known in vInfo, untouched. Counts: power state 1 from vCPU + 1 from vMemory,
        // template 1 from vCPU, cluster 1 + 1, host 1 from vCPU: 6 warnings.
        let mut c = vm("c", Some("vm-3"));
        c.power_state = PowerState::PoweredOn;
        c.cluster = Some("keep".into());
        c.template = Some(false);
        c.host = Some("h0".into());
        let mut vms = vec![vm("a", Some("vm-1")), vm("b", Some("vm-2")), c];
        let full = |name, id| VmRow {
            power_state: PowerState::PoweredOff,
            template: Some(true),
            cluster: Some("cl-cpu".into()),
            host: Some("h1".into()),
            ..row(name, Some(id), 1.0)
        };
        let vcpu = [full("a", "vm-1"), full("c", "vm-3")];
        let vmemory = [VmRow {
            power_state: PowerState::Suspended,
            cluster: Some("cl-mem".into()),
            ..row("b", Some("vm-2"), 2.0)
        }];
        let headers = BTreeMap::from([("Template".to_string(), "Template".to_string())]);
        let mut warnings = Vec::new();
        run(&mut vms, &vcpu, &vmemory, &headers, &mut warnings);
        assert_eq!(vms[0].power_state, PowerState::PoweredOff);
        assert_eq!(vms[0].cluster.as_deref(), Some("cl-cpu"));
        assert_eq!(vms[1].power_state, PowerState::Suspended);
        assert_eq!(vms[1].cluster.as_deref(), Some("cl-mem"));
        assert_eq!(vms[1].template, None);
        assert_eq!(vms[2].cluster.as_deref(), Some("keep"));
        assert_eq!(vms[2].power_state, PowerState::PoweredOn);
        let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "power state of 1 VM(s) taken from vCPU (vInfo has no Powerstate column; \
                 first: 'a')",
                "power state of 1 VM(s) taken from vMemory (vInfo has no Powerstate column; \
                 first: 'b')",
                "template flag of 1 VM(s) taken from vCPU (empty or unreadable in vInfo's \
                 Template column; first: 'a')",
                "cluster of 1 VM(s) taken from vCPU (vInfo has no Cluster column; first: 'a')",
                "cluster of 1 VM(s) taken from vMemory (vInfo has no Cluster column; first: \
                 'b')",
                "host of 1 VM(s) taken from vCPU (vInfo has no Host column; first: 'a')",
            ]
        );
    }
}

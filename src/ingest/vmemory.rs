//! The vMemory tab: per VM, the memory it consumes on its host (`Consumed`, MiB), joined to
//! the VMs of vInfo (see [`join`]).
//!
//! Headers seen in real exports: RVTools 3.10 `VM`, `Size MB`, `Consumed`, ..., `VM ID`,
//! `VM UUID`, `VI SDK Server` (xlsx and CSV); RVTools 4.x `Size MiB`, `Consumed` (the
//! `Consumed` label has no unit in either; its values are MiB like every RVTools memory
//! column).

use std::collections::HashMap;

use crate::ingest::table::{FieldSpec, Row};
use crate::ingest::tabs::{SERVER, VM_ID, VM_UUID, child_key};
use crate::inventory::{Origin, Vm, VmKey, Warning};

/// Slots of [`FIELDS`].
const VM: usize = 0;
const SIZE: usize = 1;
const CONSUMED: usize = 2;
const SERVER_SLOT: usize = 3;
const VM_ID_SLOT: usize = 4;
const VM_UUID_SLOT: usize = 5;

/// vMemory columns. `Consumed` is required: a vMemory tab without it tells nothing this
/// reader uses, and is skipped with a warning like a tab without its `VM` column.
pub(crate) const FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM", &["VM", "vMemoryVMName", "VM Name"]),
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
    },
    FieldSpec::text("VI SDK Server", SERVER),
    FieldSpec::text("VM ID", VM_ID),
    FieldSpec::text("VM UUID", VM_UUID),
];

/// One vMemory row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MemoryRow {
    /// `VM` name.
    pub vm: String,
    /// Key of the VM, from the row's own key columns.
    pub vm_key: VmKey,
    /// `Size MiB` (`Size MB`): configured memory, MiB.
    pub size_mib: Option<f64>,
    /// `Consumed`: memory consumed on the host, MiB.
    pub consumed_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
}

/// A vMemory row; `None` for a row without a VM name (a warning when it holds values).
/// Bad or negative sizes become warnings and unknown values.
pub(crate) fn memory_from_row(row: &mut Row<'_, '_>) -> Option<MemoryRow> {
    let vm = row.name(VM, "VM")?;
    let vm_key = child_key(row, &vm, SERVER_SLOT, VM_ID_SLOT, VM_UUID_SLOT);
    Some(MemoryRow {
        vm_key,
        size_mib: row.non_negative(SIZE),
        consumed_mib: row.non_negative(CONSUMED),
        origin: row.origin(),
        vm,
    })
}

/// For each row, the index of its VM in `vms` (the VMs of the same input): by key, else by
/// name when exactly one VM has that name and one side's key is name-based (a trimmed tab
/// without `VM ID`/`VM UUID`, or a vInfo without them). `None` for a row naming no VM.
fn match_rows(vms: &[Vm], rows: &[MemoryRow]) -> Vec<Option<usize>> {
    let mut by_key: HashMap<VmKey, usize> = HashMap::with_capacity(vms.len());
    let mut by_name: HashMap<&str, Option<usize>> = HashMap::with_capacity(vms.len());
    for (i, vm) in vms.iter().enumerate() {
        by_key.entry(vm.key()).or_insert(i);
        by_name
            .entry(vm.name.as_str())
            .and_modify(|unique| *unique = None)
            .or_insert(Some(i));
    }
    rows.iter()
        .map(|row| {
            by_key.get(&row.vm_key).copied().or_else(|| {
                let i = by_name.get(row.vm.as_str()).copied().flatten()?;
                (row.vm_key.is_name_based() || vms[i].key().is_name_based()).then_some(i)
            })
        })
        .collect()
}

/// Joins the vMemory rows of one input to its VMs: sets
/// [`Vm::memory_consumed_mib`] from `Consumed`, and [`Vm::memory_mib`] from `Size MiB` when
/// vInfo left it unknown. The first row of a VM counts; rows naming no VM of vInfo and
/// repeated rows are counted, each kind in one warning. VMs without a row keep `None`
/// (unknown).
pub(crate) fn join(vms: &mut [Vm], rows: &[MemoryRow], warnings: &mut Vec<Warning>) {
    let matches = match_rows(vms, rows);
    let mut seen = vec![false; vms.len()];
    let mut unmatched: Vec<&MemoryRow> = Vec::new();
    let mut repeated: Vec<&MemoryRow> = Vec::new();
    for (row, found) in rows.iter().zip(matches) {
        let Some(i) = found else {
            unmatched.push(row);
            continue;
        };
        if std::mem::replace(&mut seen[i], true) {
            repeated.push(row);
            continue;
        }
        let vm = &mut vms[i];
        vm.memory_consumed_mib = row.consumed_mib;
        if vm.memory_mib.is_none() {
            vm.memory_mib = row.size_mib;
        }
    }
    if let Some(first) = unmatched.first() {
        warnings.push(Warning {
            column: Some("VM".to_string()),
            value: Some(crate::numbers::clip(&first.vm)),
            ..Warning::at_row(
                &first.origin,
                format!(
                    "{} vMemory row(s) name a VM not in vInfo (first: '{}'); their consumed \
                     memory is not counted",
                    unmatched.len(),
                    first.vm
                ),
            )
        });
    }
    if let Some(first) = repeated.first() {
        warnings.push(Warning {
            column: Some("VM".to_string()),
            value: Some(crate::numbers::clip(&first.vm)),
            ..Warning::at_row(
                &first.origin,
                format!(
                    "{} vMemory row(s) repeat a VM already read (first: '{}'); the first row \
                     of each VM is used",
                    repeated.len(),
                    first.vm
                ),
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vm(name: &str, id: Option<&str>) -> Vm {
        Vm {
            vm_id: id.map(str::to_string),
            vi_sdk_server: Some("vc".into()),
            ..Vm::new(name, Origin::default())
        }
    }

    fn row(name: &str, id: Option<&str>, consumed: f64) -> MemoryRow {
        MemoryRow {
            vm: name.to_string(),
            vm_key: VmKey::new(Some("vc"), id, None, name),
            size_mib: Some(4096.0),
            consumed_mib: Some(consumed),
            origin: Origin::default(),
        }
    }

    #[test]
    fn joins_by_key_then_unique_name_and_counts_the_rest() {
        // a: by VM ID; b: vInfo without VM ID, the row has one (name fallback);
        // dup, dup: two vInfo rows with one name and no ids share the name key, the first
        // VM takes the first row and the second row is a repeat; "ghost": no VM.
        let mut vms = vec![
            vm("a", Some("vm-1")),
            vm("b", None),
            vm("dup", None),
            vm("dup", None),
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
        ];
        let mut warnings = Vec::new();
        join(&mut vms, &rows, &mut warnings);
        let consumed: Vec<_> = vms.iter().map(|v| v.memory_consumed_mib).collect();
        // c's row carries another VM ID (vm-4 vs vm-3): a different VM, not joined by name.
        assert_eq!(
            consumed,
            [Some(100.0), Some(200.0), Some(300.0), None, None]
        );
        // Size fills unknown configured memory only.
        assert_eq!(vms[0].memory_mib, Some(4096.0));
        assert_eq!(vms[4].memory_mib, Some(1.0));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0]
                .message
                .starts_with("3 vMemory row(s) name a VM not in vInfo")
        );
        assert_eq!(warnings[0].value.as_deref(), Some("ghost"));
        assert!(warnings[1].message.starts_with("1 vMemory row(s) repeat"));
    }
}

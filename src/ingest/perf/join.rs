//! Joining performance rows to the inventory's VMs: by managed-object id (Live Optics'
//! `MOB ID`) and vCenter where the row has them, else by VM name; one warning per row that
//! joins no VM (or several by id), and per VM given several rows. The rows of a name that
//! several VMs share, with no id to tell them apart, are given to each of those VMs (the
//! name's largest figures), under one warning for all such names: the targets may count
//! them more than once, never lose them.

use std::collections::HashMap;

use super::VmPerf;
use crate::inventory::{Inventory, Vm, VmKey, Warning, WarningKind};

/// What a performance row names its VM by besides the name, where the file has them: the
/// VM's managed-object id (Live Optics `MOB ID`, RVTools `VM ID`) and its vCenter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RowIds {
    /// The managed-object id (`vm-41`), unique within one vCenter.
    pub(crate) vm_id: Option<String>,
    /// The vCenter the row was collected from.
    pub(crate) vcenter: Option<String>,
}

/// The columns a join warning points at, as the file spells them: the VM name column, and
/// the id column when the file has one (`None` for a file without ids).
#[derive(Debug, Clone, Copy)]
pub(crate) struct JoinColumns<'a> {
    /// The VM name column (`vm`, `VM Name`, `Server name`).
    pub(crate) name: &'a str,
    /// The managed-object id column (`MOB ID`), when the file has one.
    pub(crate) id: Option<&'a str>,
}

/// Whether two vCenter names are the same vCenter as written: trimmed, a trailing dot
/// dropped, case ignored (DNS names are case-insensitive).
fn same_vcenter(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().trim_end_matches('.').to_ascii_lowercase();
    norm(a) == norm(b)
}

/// The inventory VMs a row names: by id (and vCenter, where both the row and the VM carry
/// one) when the row has an id, narrowed by name when that leaves several; by name among
/// the VMs without an id when the id matches none (an inventory read without ids); else by
/// name.
fn candidates<'i>(
    by_id: &HashMap<&str, Vec<&'i Vm>>,
    by_name: &HashMap<&str, Vec<&'i Vm>>,
    name: &str,
    ids: &RowIds,
) -> Vec<&'i Vm> {
    let named = || by_name.get(name).cloned().unwrap_or_default();
    let Some(id) = ids.vm_id.as_deref() else {
        return named();
    };
    let in_vcenter = |vm: &&&Vm| match (ids.vcenter.as_deref(), vm.vi_sdk_server.as_deref()) {
        (Some(a), Some(b)) => same_vcenter(a, b),
        _ => true,
    };
    let found: Vec<&Vm> = by_id
        .get(id.trim())
        .map(|vms| vms.iter().filter(in_vcenter).copied().collect())
        .unwrap_or_default();
    match found.len() {
        0 => named()
            .into_iter()
            .filter(|vm| vm.vm_id.is_none())
            .collect(),
        1 => found,
        _ => {
            let same_name: Vec<&Vm> = found.iter().copied().filter(|vm| vm.name == name).collect();
            if same_name.is_empty() {
                found
            } else {
                same_name
            }
        }
    }
}

/// The inventory's VMs by name and by id, to join performance rows to ([`candidates`]).
pub(crate) struct VmIndex<'i> {
    by_name: HashMap<&'i str, Vec<&'i Vm>>,
    by_id: HashMap<&'i str, Vec<&'i Vm>>,
    /// By name in lower case, for a row whose name matches no VM as written.
    by_lower: HashMap<String, Vec<&'i Vm>>,
}

impl<'i> VmIndex<'i> {
    /// Indexes the VMs of `inventory`.
    pub(crate) fn new(inventory: &'i Inventory) -> Self {
        let mut by_name: HashMap<&str, Vec<&Vm>> = HashMap::new();
        let mut by_id: HashMap<&str, Vec<&Vm>> = HashMap::new();
        let mut by_lower: HashMap<String, Vec<&Vm>> = HashMap::new();
        for vm in &inventory.vms {
            by_name.entry(vm.name.as_str()).or_default().push(vm);
            by_lower.entry(vm.name.to_lowercase()).or_default().push(vm);
            if let Some(id) = vm.vm_id.as_deref() {
                by_id.entry(id.trim()).or_default().push(vm);
            }
        }
        VmIndex {
            by_name,
            by_id,
            by_lower,
        }
    }

    /// The VMs a row of VM name `name` and `ids` names ([`candidates`]); when none, the
    /// VMs whose name is `name` but for case (a monitoring tool writing `WEB-02` for
    /// vSphere's `web-02`), among those without an id when the row has one.
    fn candidates(&self, name: &str, ids: &RowIds) -> Vec<&'i Vm> {
        let found = candidates(&self.by_id, &self.by_name, name, ids);
        if !found.is_empty() {
            return found;
        }
        let id_matches = ids
            .vm_id
            .as_deref()
            .is_some_and(|id| self.by_id.contains_key(id.trim()));
        if id_matches {
            // The id names VMs, none in the row's vCenter: not a question of case.
            return found;
        }
        self.by_lower
            .get(&name.to_lowercase())
            .map(|vms| {
                vms.iter()
                    .copied()
                    .filter(|vm| ids.vm_id.is_none() || vm.vm_id.is_none())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// How many names of the rows that join no VM a performance input keeps, for the messages.
pub(crate) const FIRST_NOT_JOINED: usize = 5;

/// The performance rows that name no inventory VM, dropped as they are read so that a file
/// of 2,000,000 rows of unknown VMs keeps none of them: how many, the first few names, and
/// their warnings, grouped per cause as the readers' are.
#[derive(Debug, Default)]
pub(crate) struct Unjoined {
    /// Rows dropped.
    pub(crate) rows: usize,
    /// The first [`FIRST_NOT_JOINED`] of their VM names, clipped ([`crate::numbers::clip`]).
    pub(crate) first_names: Vec<String>,
    /// One warning per row, grouped ([`crate::inventory::push_bounded`]).
    pub(crate) warnings: Vec<Warning>,
}

impl Unjoined {
    /// Whether row `r` (with `ids`) names some VM of `index`, to be kept for
    /// [`join_to_inventory`]; when it names none, it is warned of and counted here, and the
    /// caller drops it.
    pub(crate) fn keeps(
        &mut self,
        index: &VmIndex<'_>,
        r: &VmPerf,
        ids: &RowIds,
        columns: JoinColumns<'_>,
    ) -> bool {
        if !index.candidates(&r.vm, ids).is_empty() {
            return true;
        }
        self.rows += 1;
        if self.first_names.len() < FIRST_NOT_JOINED {
            self.first_names.push(crate::numbers::clip(&r.vm));
        }
        crate::inventory::push_bounded(&mut self.warnings, not_in_inventory(r, ids, columns));
        false
    }
}

/// The warning for row `r` that names no inventory VM.
fn not_in_inventory(r: &VmPerf, ids: &RowIds, columns: JoinColumns<'_>) -> Warning {
    let name = crate::numbers::clip(&r.vm);
    let message = match ids.vm_id.as_deref() {
        Some(id) => format!(
            "VM '{name}' ({}) is not in the inventory; the row is not joined",
            id_words(ids, columns, id)
        ),
        None => format!("VM '{name}' is not in the inventory; the row is not joined"),
    };
    join_warning(r, ids, columns, message)
}

/// A join warning about row `r`: at its id cell when the row and the file have one, else
/// at its name cell.
fn join_warning(r: &VmPerf, ids: &RowIds, columns: JoinColumns<'_>, message: String) -> Warning {
    match (ids.vm_id.as_deref(), columns.id) {
        (Some(id), Some(column)) => {
            let mut w = row_warning(r, column, message);
            w.value = Some(crate::numbers::clip(id));
            w
        }
        _ => row_warning(r, columns.name, message),
    }
}

/// A row's id as a warning words it: `MOB ID 'vm-41' in vCenter 'vc1'`.
fn id_words(ids: &RowIds, columns: JoinColumns<'_>, id: &str) -> String {
    let column = columns.id.unwrap_or("id");
    match ids.vcenter.as_deref() {
        Some(vc) => format!(
            "{column} '{}' in vCenter '{}'",
            crate::numbers::clip(id),
            crate::numbers::clip(vc)
        ),
        None => format!("{column} '{}'", crate::numbers::clip(id)),
    }
}

/// Joins each row of `rows` to `inventory`: a row with an id (`ids[i].vm_id`, Live Optics'
/// `MOB ID`) joins the VM of that id, in the row's vCenter where both carry one (two VMs of
/// one name are two VMs); a row without one joins by VM name. A row that matches no VM, or
/// several by id, is one warning at its name (or id) cell and keeps `vm_key: None`; two
/// rows joined to one VM are one warning (the larger figures are used). Rows without an id
/// whose name N VMs share keep `vm_key: None` too, and each of the N VMs gets a row
/// appended to `rows` with the name's largest IOPS and largest MiB/s (the name's first
/// row's origin), under one warning for all such names. `ids` shorter than
/// `rows` (empty for files without ids) means no id. Shared by the CSV layouts and the Live
/// Optics `VM Performance` sheet.
pub(crate) fn join_to_inventory(
    rows: &mut Vec<VmPerf>,
    ids: &[RowIds],
    index: &VmIndex<'_>,
    columns: JoinColumns<'_>,
    warnings: &mut Vec<Warning>,
) {
    let none = RowIds::default();
    let mut seen: HashMap<VmKey, usize> = HashMap::new();
    let mut shared: HashMap<String, SharedName> = HashMap::new();
    for (i, r) in rows.iter_mut().enumerate() {
        let ids = ids.get(i).unwrap_or(&none);
        let found = index.candidates(&r.vm, ids);
        let name = crate::numbers::clip(&r.vm);
        let warning = |message: String| join_warning(r, ids, columns, message);
        let id_words = |id: &str| id_words(ids, columns, id);
        match (found.as_slice(), ids.vm_id.as_deref()) {
            ([vm], _) => {
                let key = vm.key();
                if vm.name != r.vm && vm.name.to_lowercase() == r.vm.to_lowercase() {
                    let message = format!(
                        "VM '{name}' is joined to the inventory's VM '{}', whose name differs \
                         only in case",
                        crate::numbers::clip(&vm.name)
                    );
                    crate::inventory::push_bounded(warnings, warning(message));
                }
                if let Some(first) = seen.get(&key) {
                    let message = format!(
                        "VM '{name}' already has a row (row {first}); the larger figures of \
                         the rows are used"
                    );
                    crate::inventory::push_bounded(warnings, warning(message));
                } else {
                    seen.insert(key.clone(), r.origin.row);
                }
                r.vm_key = Some(key);
            }
            // Rows read through `Unjoined::keeps` never get here.
            ([], _) => crate::inventory::push_bounded(warnings, not_in_inventory(r, ids, columns)),
            (vms, Some(id)) => crate::inventory::push_bounded(
                warnings,
                warning(format!(
                    "VM '{name}' ({}) matches {} inventory VMs; the row is not joined",
                    id_words(id),
                    vms.len()
                )),
            ),
            (vms, None) => {
                let entry = shared.entry(r.vm.clone()).or_insert_with(|| SharedName {
                    first: i,
                    rows: 0,
                    iops: None,
                    mibps: None,
                    vms: vms.iter().map(|vm| vm.key()).collect(),
                });
                entry.rows += 1;
                entry.iops = larger(entry.iops, r.iops);
                entry.mibps = larger(entry.mibps, r.throughput_mibps);
            }
        }
    }
    share_by_name(rows, shared, columns, warnings);
    // Grouped per cause as the readers' are: 2,000,000 rows of unknown VMs are five
    // warnings and a count, not 2,000,000.
    crate::inventory::bound_warnings(warnings);
}

/// The rows of one VM name that matches several inventory VMs and that no id tells apart.
struct SharedName {
    /// Index of the name's first row.
    first: usize,
    /// How many rows carry the name.
    rows: usize,
    /// The largest IOPS among the name's rows.
    iops: Option<f64>,
    /// The largest MiB/s among the name's rows.
    mibps: Option<f64>,
    /// The inventory VMs of that name.
    vms: Vec<VmKey>,
}

/// The larger of two optional figures (either one when the other is unknown).
fn larger(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

/// Gives each VM of a name that several VMs share (and no id tells apart) a row of its own
/// with the name's largest IOPS and largest MiB/s, appended after the file's rows (the
/// name's first row's origin, no `read_pct` or `block_kib`): the targets keep the load,
/// counted up to N times for N VMs of one name, the safe side. One warning for all such
/// names, at the first one's first row.
fn share_by_name(
    rows: &mut Vec<VmPerf>,
    shared: HashMap<String, SharedName>,
    columns: JoinColumns<'_>,
    warnings: &mut Vec<Warning>,
) {
    let mut groups: Vec<SharedName> = shared.into_values().collect();
    if groups.is_empty() {
        return;
    }
    groups.sort_by_key(|g| g.first);
    let names = groups.len();
    let row_count: usize = groups.iter().map(|g| g.rows).sum();
    let vm_count: usize = groups.iter().map(|g| g.vms.len()).sum();
    let most = groups.iter().map(|g| g.vms.len()).max().unwrap_or(0);
    let examples = crate::numbers::first_few(
        groups
            .iter()
            .map(|g| format!("'{}'", crate::numbers::clip(&rows[g.first].vm))),
        names,
    );
    let tell = match columns.id {
        Some(column) => format!(", with no {column} to tell their rows apart"),
        None => String::new(),
    };
    let w = row_warning(
        &rows[groups[0].first],
        columns.name,
        format!(
            "VM names that several inventory VMs share{tell}: {} ({examples}), {}, {}; \
             each of those VMs takes the largest IOPS and the largest MiB/s of its name's \
             rows, so these figures may be counted up to {most} times in the targets",
            crate::numbers::counted(names as u64, "name"),
            crate::numbers::counted(row_count as u64, "row"),
            crate::numbers::counted(vm_count as u64, "VM"),
        ),
    );
    warnings.push(w);
    for g in groups {
        for key in g.vms {
            rows.push(VmPerf {
                vm_key: Some(key),
                iops: g.iops,
                throughput_mibps: g.mibps,
                read_pct: None,
                block_kib: None,
                ..rows[g.first].clone()
            });
        }
    }
}

fn row_warning(r: &VmPerf, vm_column: &str, message: String) -> Warning {
    Warning {
        kind: WarningKind::Performance,
        file: r.origin.file.to_string(),
        sheet: Some(r.origin.sheet.to_string()),
        row: Some(r.origin.row),
        column: Some(vm_column.to_string()),
        value: Some(crate::numbers::clip(&r.vm)),
        message,
        more_alike: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::Origin;

    /// A VM `name` with MOB ID `id` in vCenter `vcenter`, read at row `row`.
    fn vm(name: &str, id: &str, vcenter: &str, row: usize) -> Vm {
        Vm {
            vm_id: Some(id.into()),
            vi_sdk_server: Some(vcenter.into()),
            ..Vm::new(
                name,
                Origin {
                    file: "lo.xlsx".into(),
                    sheet: "VMs".into(),
                    row,
                },
            )
        }
    }

    /// A performance row for `name` at `row`, `iops` IOPS.
    fn perf(name: &str, row: usize, iops: f64) -> VmPerf {
        VmPerf {
            vm: name.into(),
            vm_key: None,
            iops: Some(iops),
            throughput_mibps: None,
            read_pct: None,
            block_kib: None,
            origin: Origin {
                file: "lo.xlsx".into(),
                sheet: "VM Performance".into(),
                row,
            },
        }
    }

    fn ids(id: Option<&str>, vcenter: Option<&str>) -> RowIds {
        RowIds {
            vm_id: id.map(Into::into),
            vcenter: vcenter.map(Into::into),
        }
    }

    const COLUMNS: JoinColumns<'static> = JoinColumns {
        name: "VM Name",
        id: Some("MOB ID"),
    };

    /// Joins `rows` with `row_ids` to `vms`: each row's key (`""` when not joined) and the
    /// warnings' messages.
    fn join(
        vms: Vec<Vm>,
        rows: &mut Vec<VmPerf>,
        row_ids: &[RowIds],
    ) -> (Vec<String>, Vec<String>) {
        let inventory = Inventory {
            vms,
            ..Inventory::default()
        };
        let mut warnings = Vec::new();
        join_to_inventory(
            rows,
            row_ids,
            &VmIndex::new(&inventory),
            COLUMNS,
            &mut warnings,
        );
        let keys = rows
            .iter()
            .map(|r| r.vm_key.as_ref().map(|k| k.0.clone()).unwrap_or_default())
            .collect();
        (keys, warnings.into_iter().map(|w| w.message).collect())
    }

    #[test]
    fn one_mob_id_in_two_vcenters_is_told_apart_by_the_vcenter() {
        // vm-7 in vc1 and in VC2 (written VC2. on the row: case and trailing dot aside,
        // the same vCenter).
        let vms = vec![vm("db", "vm-7", "vc1", 2), vm("db", "vm-7", "VC2", 3)];
        let mut rows = vec![perf("db", 2, 10.0), perf("db", 3, 20.0)];
        let row_ids = [
            ids(Some("vm-7"), Some("vc1")),
            ids(Some("vm-7"), Some("vc2.")),
        ];
        let (keys, warnings) = join(vms, &mut rows, &row_ids);
        assert_eq!(keys, ["id:vc1:vm-7", "id:VC2:vm-7"]);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn a_mob_id_without_a_vcenter_in_two_vcenters_is_one_warning() {
        // Same MOB ID and name in two vCenters, the row names no vCenter: not joined, one
        // warning, and no "already has a row" for it.
        let vms = vec![vm("db", "vm-7", "vc1", 2), vm("db", "vm-7", "vc2", 3)];
        let mut rows = vec![perf("db", 2, 10.0)];
        let (keys, warnings) = join(vms, &mut rows, &[ids(Some("vm-7"), None)]);
        assert_eq!(keys, [""]);
        assert_eq!(
            warnings,
            ["VM 'db' (MOB ID 'vm-7') matches 2 inventory VMs; the row is not joined"]
        );
    }

    #[test]
    fn unknown_mob_ids_repeats_and_names_without_ids() {
        // Row 2: a MOB ID no VM has -> not joined, though a VM of that name exists (a VM of
        // another id is another VM). Rows 3 and 4: one VM twice -> joined, one warning.
        // Row 5: no MOB ID, a name one VM has -> joined by name.
        let vms = vec![vm("a", "vm-1", "vc1", 2), vm("b", "vm-2", "vc1", 3)];
        let mut rows = vec![
            perf("a", 2, 1.0),
            perf("a", 3, 2.0),
            perf("a", 4, 3.0),
            perf("b", 5, 4.0),
        ];
        let row_ids = [
            ids(Some("vm-9"), None),
            ids(Some("vm-1"), None),
            ids(Some("vm-1"), Some("vc1")),
            ids(None, None),
        ];
        let (keys, warnings) = join(vms, &mut rows, &row_ids);
        assert_eq!(keys, ["", "id:vc1:vm-1", "id:vc1:vm-1", "id:vc1:vm-2"]);
        assert_eq!(
            warnings,
            [
                "VM 'a' (MOB ID 'vm-9') is not in the inventory; the row is not joined",
                "VM 'a' already has a row (row 3); the larger figures of the rows are used",
            ]
        );
    }

    #[test]
    fn an_inventory_without_ids_is_joined_by_name() {
        // The VMs sheet had no MOB ID column: the rows' ids match nothing, the names do.
        let mut a = vm("a", "x", "vc1", 2);
        a.vm_id = None;
        let mut rows = vec![perf("a", 2, 1.0)];
        let (keys, warnings) = join(vec![a], &mut rows, &[ids(Some("vm-1"), None)]);
        assert_eq!(keys, ["name:vc1:a"]);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn a_name_several_vms_share_gives_each_the_names_largest_figures() {
        // A perf CSV (no id column): `dup` names two VMs in three rows, (1,000 IOPS, 150
        // MiB/s), (9,000, 100) and (500, unknown); each dup VM gets max(1,000, 9,000, 500)
        // = 9,000 IOPS and max(150, 100) = 150 MiB/s. `solo` joins by name. Sums: 9,000 x
        // 2 + 100 = 18,100 IOPS and 150 x 2 + 1 = 301 MiB/s.
        let vms = vec![
            vm("dup", "vm-1", "vc1", 2),
            vm("dup", "vm-2", "vc1", 3),
            vm("solo", "vm-3", "vc1", 4),
        ];
        let mut rows = vec![
            perf("dup", 2, 1_000.0),
            perf("dup", 3, 9_000.0),
            perf("solo", 4, 100.0),
            perf("dup", 5, 500.0),
        ];
        rows[0].throughput_mibps = Some(150.0);
        rows[1].throughput_mibps = Some(100.0);
        rows[2].throughput_mibps = Some(1.0);
        let inventory = Inventory {
            vms,
            ..Inventory::default()
        };
        let mut warnings = Vec::new();
        let columns = JoinColumns {
            name: "vm",
            id: None,
        };
        join_to_inventory(
            &mut rows,
            &[],
            &VmIndex::new(&inventory),
            columns,
            &mut warnings,
        );
        let keyed: Vec<(String, Option<f64>, Option<f64>)> = rows
            .iter()
            .map(|r| {
                let key = r.vm_key.as_ref().map(|k| k.0.clone()).unwrap_or_default();
                (key, r.iops, r.throughput_mibps)
            })
            .collect();
        assert_eq!(
            keyed,
            [
                (String::new(), Some(1_000.0), Some(150.0)),
                (String::new(), Some(9_000.0), Some(100.0)),
                ("id:vc1:vm-3".to_string(), Some(100.0), Some(1.0)),
                (String::new(), Some(500.0), None),
                ("id:vc1:vm-1".to_string(), Some(9_000.0), Some(150.0)),
                ("id:vc1:vm-2".to_string(), Some(9_000.0), Some(150.0)),
            ]
        );
        let iops: f64 = rows
            .iter()
            .filter(|r| r.vm_key.is_some())
            .filter_map(|r| r.iops)
            .sum();
        assert_eq!(iops, 18_100.0);
        let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "VM names that several inventory VMs share: 1 name ('dup'), 3 rows, 2 VMs; each \
                 of those VMs takes the largest IOPS and the largest MiB/s of its name's rows, \
                 so these figures may be counted up to 2 times in the targets"
            ]
        );
        assert_eq!(
            (warnings[0].row, warnings[0].column.as_deref()),
            (Some(2), Some("vm"))
        );
    }
}

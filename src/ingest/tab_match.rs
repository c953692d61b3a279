//! How the rows of a child tab find their VM in vInfo ([`match_tab`]). vCPU, vMemory, vDisk, vPartition
//! and vSnapshot rows name their VM by `VI SDK Server`, `VM ID`, `VM UUID` and `VM` name;
//! a trimmed export may lack some of those columns on either side (a 2025 export whose
//! vInfo keeps `VM` and `VM ID` only, while vCPU and vMemory keep all four).
//!
//! The rule, for each child tab of one input:
//! - the key is the strongest kind both vInfo and the tab carry as columns ([`JoinKey`]):
//!   `VI SDK Server` + `VM ID`; else `VM UUID` (with `VI SDK Server` when both carry it);
//!   else `VM ID` + VM name; else the VM name (with `VI SDK Server` when both carry it).
//!   The kind holds for the whole tab;
//! - per row, one fall-back: a row whose key cells are empty, or whose key finds no VM
//!   while the one vInfo VM of its name has empty key cells, joins the VM of its name
//!   when exactly one vInfo VM has that name;
//! - several vInfo VMs with the row's key (or, in the fall-back, its name) are ambiguous:
//!   the row joins none of them, and the rows are counted in one warning. Two rows that
//!   are one VM written twice ([`Vm::is_same_vm`]; the merge keeps the first copy and
//!   lists the second among the excluded VMs): the first takes the row;
//! - a tab joined by another key than `VI SDK Server` + `VM ID` is one warning naming the
//!   key and the columns missing; rows joined by the fall-back are one more.
//!
//! Rows that join no VM are counted by their readers (`vmrows.rs` for vCPU and vMemory,
//! the data-quality checks for vDisk). `join.rs` attaches the rows so matched to the VMs.

use std::collections::{BTreeMap, HashMap};

use crate::ingest::table::Row;
use crate::inventory::{Origin, Vm, VmKey, Warning, WarningKind};

/// Which of the key columns a tab has (by header, whatever its cells hold).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct KeyColumns {
    /// `VI SDK Server`.
    pub server: bool,
    /// `VM ID`.
    pub vm_id: bool,
    /// `VM UUID`.
    pub vm_uuid: bool,
}

impl KeyColumns {
    /// Every key column (for the tests of the join and its readers).
    #[cfg(test)]
    pub(crate) const ALL: KeyColumns = KeyColumns {
        server: true,
        vm_id: true,
        vm_uuid: true,
    };

    /// The key columns of a sheet whose headers are `headers` (field name -> header, as
    /// [`crate::inventory::Source::vinfo_headers`] holds them).
    pub(crate) fn of_headers(headers: &BTreeMap<String, String>) -> KeyColumns {
        KeyColumns {
            server: headers.contains_key("VI SDK Server"),
            vm_id: headers.contains_key("VM ID"),
            vm_uuid: headers.contains_key("VM UUID"),
        }
    }

    /// The names of the key columns missing, in backticks: `` `VI SDK Server` or `VM UUID` ``.
    fn missing(self) -> Option<String> {
        let names: Vec<&str> = [
            (self.server, "`VI SDK Server`"),
            (self.vm_id, "`VM ID`"),
            (self.vm_uuid, "`VM UUID`"),
        ]
        .into_iter()
        .filter_map(|(has, name)| (!has).then_some(name))
        .collect();
        match names.as_slice() {
            [] => None,
            [one] => Some((*one).to_string()),
            [rest @ .., last] => Some(format!("{} or {last}", rest.join(", "))),
        }
    }
}

/// The key cells of one child row, as read, and the key columns its tab has.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RowKey {
    /// `VI SDK Server`.
    pub server: Option<String>,
    /// `VM ID`.
    pub vm_id: Option<String>,
    /// `VM UUID`.
    pub vm_uuid: Option<String>,
    /// The key columns of the row's tab.
    pub columns: KeyColumns,
}

impl RowKey {
    /// The key cells of `row` in slots `server`, `id` and `uuid`.
    pub(crate) fn read(row: &mut Row<'_, '_>, server: usize, id: usize, uuid: usize) -> RowKey {
        let (server_text, vm_id, vm_uuid) = (row.text(server), row.text(id), row.text(uuid));
        let has = |slot: usize| row.resolved.columns.get(slot).is_some_and(Option::is_some);
        RowKey {
            server: server_text,
            vm_id,
            vm_uuid,
            columns: KeyColumns {
                server: has(server),
                vm_id: has(id),
                vm_uuid: has(uuid),
            },
        }
    }

    /// The row's own [`VmKey`] (the key it keeps when it joins no VM).
    pub(crate) fn vm_key(&self, name: &str) -> VmKey {
        VmKey::new(
            self.server.as_deref(),
            self.vm_id.as_deref(),
            self.vm_uuid.as_deref(),
            name,
        )
    }
}

/// The key a child tab is joined to vInfo by, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinKey {
    /// `VI SDK Server` + `VM ID`: unique per VM.
    ServerId,
    /// `VM UUID`, with `VI SDK Server` when both sides carry it.
    Uuid {
        /// Scoped by `VI SDK Server`.
        server: bool,
    },
    /// `VM ID` + VM name (a `VM ID` alone repeats across vCenters).
    IdName,
    /// The VM name, with `VI SDK Server` when both sides carry it.
    Name {
        /// Scoped by `VI SDK Server`.
        server: bool,
    },
}

impl JoinKey {
    /// The strongest kind both sides carry.
    pub(crate) fn choose(vinfo: KeyColumns, tab: KeyColumns) -> JoinKey {
        let server = vinfo.server && tab.server;
        if server && vinfo.vm_id && tab.vm_id {
            JoinKey::ServerId
        } else if vinfo.vm_uuid && tab.vm_uuid {
            JoinKey::Uuid { server }
        } else if vinfo.vm_id && tab.vm_id {
            JoinKey::IdName
        } else {
            JoinKey::Name { server }
        }
    }

    /// In messages: `VM ID + VM name`.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            JoinKey::ServerId => "VI SDK Server + VM ID",
            JoinKey::Uuid { server: false } => "VM UUID",
            JoinKey::Uuid { server: true } => "VI SDK Server + VM UUID",
            JoinKey::IdName => "VM ID + VM name",
            JoinKey::Name { server: false } => "VM name",
            JoinKey::Name { server: true } => "VI SDK Server + VM name",
        }
    }

    /// The key of a row or VM with these cells; `None` when a cell the key needs is empty.
    /// UUIDs compare case-insensitively, everything else exactly (cells are trimmed).
    fn value(
        self,
        server: Option<&str>,
        id: Option<&str>,
        uuid: Option<&str>,
        name: &str,
    ) -> Option<(String, String)> {
        let pair = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        match self {
            JoinKey::ServerId => pair(server?, id?),
            JoinKey::Uuid { server: false } => pair("", &uuid?.to_ascii_lowercase()),
            JoinKey::Uuid { server: true } => pair(server?, &uuid?.to_ascii_lowercase()),
            JoinKey::IdName => pair(id?, name),
            JoinKey::Name { server: false } => pair("", name),
            JoinKey::Name { server: true } => pair(server?, name),
        }
    }

    /// The key of a vInfo VM.
    fn of_vm(self, vm: &Vm) -> Option<(String, String)> {
        self.value(
            vm.vi_sdk_server.as_deref(),
            vm.vm_id.as_deref(),
            vm.vm_uuid.as_deref(),
            &vm.name,
        )
    }
}

/// The VMs that share one key: the first, and whether they are several different VMs.
#[derive(Debug, Clone, Copy)]
struct Slot {
    first: usize,
    ambiguous: bool,
}

/// Adds VM `i` under `key`: a second VM makes the slot ambiguous unless it is the same VM
/// written twice ([`Vm::is_same_vm`]; the merge keeps the first).
fn insert<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Slot>, key: K, i: usize, vms: &[Vm]) {
    map.entry(key)
        .and_modify(|slot| {
            if !vms[slot.first].is_same_vm(&vms[i]) {
                slot.ambiguous = true;
            }
        })
        .or_insert(Slot {
            first: i,
            ambiguous: false,
        });
}

/// How the rows of one child tab joined the VMs of vInfo.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Matches {
    /// Per row, the index of its VM in the input's VMs; `None` when it joins none.
    pub found: Vec<Option<usize>>,
    /// The key the tab was joined by.
    pub key: JoinKey,
    /// The key columns vInfo and the tab have (for the warning).
    columns: (KeyColumns, KeyColumns),
    /// Rows that match several vInfo VMs (row index, whether by the fall-back to the name).
    ambiguous: Vec<(usize, bool)>,
    /// Rows joined by the per-row fall-back to the VM name (row indices).
    by_name: Vec<usize>,
}

/// Joins the rows of one child tab (`rows`: each row's key cells and VM name, in order) to
/// `vms`, the VMs of the same input, whose vInfo has the key columns `vinfo`. See the
/// module's rule. O(VMs + rows).
pub(crate) fn match_tab<'r>(
    vms: &[Vm],
    vinfo: KeyColumns,
    rows: impl ExactSizeIterator<Item = (&'r RowKey, &'r str)> + Clone,
) -> Matches {
    let tab = rows
        .clone()
        .next()
        .map(|(k, _)| k.columns)
        .unwrap_or_default();
    let key = JoinKey::choose(vinfo, tab);
    let mut by_key: HashMap<(String, String), Slot> = HashMap::with_capacity(vms.len());
    let mut by_name: HashMap<&str, Slot> = HashMap::with_capacity(vms.len());
    for (i, vm) in vms.iter().enumerate() {
        if let Some(k) = key.of_vm(vm) {
            insert(&mut by_key, k, i, vms);
        }
        insert(&mut by_name, vm.name.as_str(), i, vms);
    }
    let mut matches = Matches {
        found: Vec::with_capacity(rows.len()),
        key,
        columns: (vinfo, tab),
        ambiguous: Vec::new(),
        by_name: Vec::new(),
    };
    for (r, (row, name)) in rows.enumerate() {
        let cells = (
            row.server.as_deref(),
            row.vm_id.as_deref(),
            row.vm_uuid.as_deref(),
        );
        let direct = key
            .value(cells.0, cells.1, cells.2, name)
            .map(|k| by_key.get(&k).copied());
        // The fall-back by name: the row has no key, or its key finds no VM and the VM of
        // its name has none.
        let slot = match direct {
            Some(Some(slot)) => Some(slot),
            Some(None) => by_name
                .get(name)
                .copied()
                .filter(|s| !s.ambiguous && key.of_vm(&vms[s.first]).is_none()),
            None => by_name.get(name).copied(),
        };
        let fell_back = !matches!(direct, Some(Some(_)));
        let found = match slot {
            Some(s) if s.ambiguous => {
                matches.ambiguous.push((r, fell_back));
                None
            }
            Some(s) => {
                if fell_back && key != (JoinKey::Name { server: false }) {
                    matches.by_name.push(r);
                }
                Some(s.first)
            }
            None => None,
        };
        matches.found.push(found);
    }
    matches
}

impl Matches {
    /// Whether row `r` matched several VMs (and so joined none).
    pub(crate) fn is_ambiguous(&self, r: usize) -> bool {
        self.ambiguous.binary_search_by_key(&r, |a| a.0).is_ok()
    }

    /// The warnings of the join of tab `tab`: the rows joined by name alone, and the
    /// ambiguous rows (which lose `lost`); the key is [`key_warnings`]'s. `at(r)` is row
    /// `r`'s VM name and origin.
    pub(crate) fn warnings<'a>(
        &self,
        tab: &str,
        lost: &str,
        at: impl Fn(usize) -> (&'a str, &'a Origin),
    ) -> Vec<Warning> {
        let mut out = Vec::new();
        let key = self.key.describe();
        let mut count = |rows: &[usize], message: &dyn Fn(usize, &str) -> String| {
            if let Some(&first) = rows.first() {
                let (name, origin) = at(first);
                let name = crate::numbers::clip(name);
                out.push(Warning {
                    column: Some("VM".to_string()),
                    value: Some(name.clone()),
                    ..Warning::at_row(WarningKind::Identity, origin, message(rows.len(), &name))
                });
            }
        };
        count(&self.by_name, &|n, vm| {
            format!(
                "{n} {tab} row(s) joined to vInfo by VM name alone: their {key} cells, or \
                 those of the one vInfo VM of their name, are empty (first: '{vm}')"
            )
        });
        let ambiguous: Vec<usize> = self.ambiguous.iter().map(|a| a.0).collect();
        let by = match (
            self.ambiguous.iter().any(|a| !a.1),
            self.ambiguous.iter().any(|a| a.1),
        ) {
            (true, true) => format!("{key} (or VM name, where key cells are empty)"),
            (false, true) => "VM name".to_string(),
            _ => key.to_string(),
        };
        count(&ambiguous, &|n, vm| {
            format!(
                "{n} {tab} row(s) match 2 or more vInfo VMs by {by} (first: '{vm}'); joined \
                 to none: {lost}"
            )
        });
        out
    }
}

/// One child tab's join, for [`key_warnings`]: the tab, how it joined, and where its
/// first row was read (`None` for a tab without rows).
pub(crate) type TabJoin<'a> = (&'a str, &'a Matches, Option<&'a Origin>);

/// One warning per key other than `VI SDK Server` + `VM ID` that tabs of one input (`file`)
/// were joined by, naming the tabs, the key and the key columns missing on each side:
/// `vCPU, vMemory rows joined to vInfo by VM ID + VM name (vInfo has no `VI SDK Server` or
/// `VM UUID`)`. Tabs joined alike share the warning; tabs without rows have none.
pub(crate) fn key_warnings(file: &str, tabs: &[TabJoin<'_>]) -> Vec<Warning> {
    // (key, vInfo's columns, the tab's columns) -> the tabs and the first one's origin.
    type Group<'a> = ((JoinKey, KeyColumns, KeyColumns), Vec<&'a str>, &'a Origin);
    let mut groups: Vec<Group<'_>> = Vec::new();
    for &(tab, m, origin) in tabs {
        let Some(origin) = origin.filter(|_| m.key != JoinKey::ServerId) else {
            continue;
        };
        let id = (m.key, m.columns.0, m.columns.1);
        match groups.iter_mut().find(|g| g.0 == id) {
            Some(g) => g.1.push(tab),
            None => groups.push((id, vec![tab], origin)),
        }
    }
    groups
        .into_iter()
        .map(|((key, vinfo, child), names, origin)| {
            let why = if vinfo == child {
                // Both sides lack the same columns: one clause.
                let mut all = vec!["vInfo"];
                all.extend(&names);
                format!(
                    "{} have no {}",
                    and_list(&all),
                    child.missing().unwrap_or_default()
                )
            } else {
                let verb = if names.len() > 1 { "have" } else { "has" };
                [
                    (("vInfo".to_string(), "has"), vinfo),
                    ((and_list(&names), verb), child),
                ]
                .into_iter()
                .filter_map(|((side, verb), c)| Some(format!("{side} {verb} no {}", c.missing()?)))
                .collect::<Vec<_>>()
                .join("; ")
            };
            let message = format!(
                "{} rows joined to vInfo by {} ({why})",
                and_list(&names),
                key.describe()
            );
            match names.as_slice() {
                // One tab: its own file (a CSV folder's tab file) and sheet.
                [_] => Warning {
                    row: None,
                    ..Warning::at_row(WarningKind::Identity, origin, message)
                },
                _ => Warning {
                    file: file.to_string(),
                    ..Warning::plan_wide(WarningKind::Identity, message)
                },
            }
        })
        .collect()
}

/// `a`, `a and b`, `a, b and c`.
fn and_list<T: AsRef<str>>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: KeyColumns = KeyColumns::ALL;
    const ID_ONLY: KeyColumns = KeyColumns {
        server: false,
        vm_id: true,
        vm_uuid: false,
    };
    const NONE: KeyColumns = KeyColumns {
        server: false,
        vm_id: false,
        vm_uuid: false,
    };

    fn vm(name: &str, server: Option<&str>, id: Option<&str>, uuid: Option<&str>) -> Vm {
        Vm {
            vi_sdk_server: server.map(Into::into),
            vm_id: id.map(str::to_string),
            vm_uuid: uuid.map(str::to_string),
            ..Vm::new(name, Origin::default())
        }
    }

    fn key(server: &str, id: &str, uuid: &str, columns: KeyColumns) -> RowKey {
        let cell = |s: &str| (!s.is_empty()).then(|| s.to_string());
        RowKey {
            server: cell(server),
            vm_id: cell(id),
            vm_uuid: cell(uuid),
            columns,
        }
    }

    fn run(vms: &[Vm], vinfo: KeyColumns, rows: &[(RowKey, &str)]) -> Matches {
        match_tab(vms, vinfo, rows.iter().map(|(k, n)| (k, *n)))
    }

    #[test]
    fn the_strongest_key_both_sides_carry() {
        let uuid_only = KeyColumns {
            vm_uuid: true,
            ..NONE
        };
        let server_uuid = KeyColumns {
            server: true,
            vm_uuid: true,
            vm_id: false,
        };
        assert_eq!(JoinKey::choose(ALL, ALL), JoinKey::ServerId);
        assert_eq!(
            JoinKey::choose(ALL, uuid_only),
            JoinKey::Uuid { server: false }
        );
        assert_eq!(
            JoinKey::choose(ALL, server_uuid),
            JoinKey::Uuid { server: true }
        );
        assert_eq!(JoinKey::choose(ID_ONLY, ALL), JoinKey::IdName);
        assert_eq!(JoinKey::choose(NONE, ALL), JoinKey::Name { server: false });
        let server_only = KeyColumns {
            server: true,
            ..NONE
        };
        assert_eq!(
            JoinKey::choose(server_only, ALL),
            JoinKey::Name { server: true }
        );
        assert_eq!(
            ID_ONLY.missing().as_deref(),
            Some("`VI SDK Server` or `VM UUID`")
        );
        assert_eq!(
            NONE.missing().as_deref(),
            Some("`VI SDK Server`, `VM ID` or `VM UUID`")
        );
        assert_eq!(ALL.missing(), None);
    }

    #[test]
    fn vinfo_without_server_joins_by_id_and_name_and_says_so() {
        // vInfo: VM + VM ID only. The rows carry every key. a/vm-1 and b/vm-2 join;
        // c's row says vm-9: no VM has (vm-9, c), and the VM named c has a VM ID, so no
        // fall-back.
        let vms = [
            vm("a", None, Some("vm-1"), None),
            vm("b", None, Some("vm-2"), None),
            vm("c", None, Some("vm-3"), None),
        ];
        let rows = [
            (key("vc", "vm-2", "u2", ALL), "b"),
            (key("vc", "vm-1", "u1", ALL), "a"),
            (key("vc", "vm-9", "u9", ALL), "c"),
        ];
        let m = run(&vms, ID_ONLY, &rows);
        assert_eq!(m.key, JoinKey::IdName);
        assert_eq!(m.found, [Some(1), Some(0), None]);
        let origin = Origin::default();
        assert!(
            m.warnings("vCPU", "lost", |r| (rows[r].1, &origin))
                .is_empty()
        );
        // vCPU and vMemory joined alike share one warning; a tab without rows has none.
        let w = key_warnings(
            "x.xlsx",
            &[
                ("vCPU", &m, Some(&origin)),
                ("vMemory", &m, Some(&origin)),
                ("vDisk", &m, None),
            ],
        );
        let messages: Vec<&str> = w.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "vCPU and vMemory rows joined to vInfo by VM ID + VM name (vInfo has no `VI SDK \
              Server` or `VM UUID`)"
            ]
        );
        assert_eq!(
            (w[0].file.as_str(), w[0].sheet.as_deref()),
            ("x.xlsx", None)
        );
        let w = key_warnings("x.xlsx", &[("vDisk", &m, Some(&origin))]);
        assert_eq!(w[0].sheet.as_deref(), Some(""));
    }

    #[test]
    fn two_vms_sharing_a_weaker_key_take_no_row_and_are_counted() {
        // By VM UUID: x and y share u1 (a cloned VM), so the row of u1 is ambiguous; z joins.
        let uuid_cols = KeyColumns {
            vm_uuid: true,
            ..NONE
        };
        let vms = [
            vm("x", None, None, Some("U1")),
            vm("y", None, None, Some("u1")),
            vm("z", None, None, Some("u3")),
        ];
        let rows = [
            (key("", "", "u1", uuid_cols), "x"),
            (key("", "", "u3", uuid_cols), "z"),
        ];
        let m = run(&vms, uuid_cols, &rows);
        assert_eq!(m.found, [None, Some(2)]);
        let origin = Origin::default();
        let w = m.warnings("vDisk", "not counted", |r| (rows[r].1, &origin));
        assert_eq!(w.len(), 1, "{w:#?}");
        assert_eq!(
            w[0].message,
            "1 vDisk row(s) match 2 or more vInfo VMs by VM UUID (first: 'x'); joined to \
             none: not counted"
        );
        // The same VM ID key written twice is one VM: the first takes the row.
        let vms = [
            vm("a", Some("vc"), Some("vm-1"), None),
            vm("a", Some("vc"), Some("vm-1"), None),
        ];
        let rows = [(key("vc", "vm-1", "", ALL), "a")];
        assert_eq!(run(&vms, ALL, &rows).found, [Some(0)]);
    }

    #[test]
    fn a_row_or_vm_without_key_cells_falls_back_to_a_unique_name() {
        // p: the row's VM ID cell is empty; q: the vInfo VM's is; both unique names.
        // dup: two vInfo VMs named dup without keys, in two folders (name keys, kept apart
        // by the merge): ambiguous. ghost: no VM.
        let in_folder = |folder: &str| Vm {
            path: Some(format!("[ds] {folder}/dup.vmx")),
            ..vm("dup", Some("vc"), None, None)
        };
        let vms = [
            vm("p", Some("vc"), Some("vm-1"), None),
            vm("q", Some("vc"), None, None),
            in_folder("a"),
            in_folder("b"),
        ];
        let rows = [
            (key("vc", "", "", ALL), "p"),
            (key("vc", "vm-2", "", ALL), "q"),
            (key("vc", "", "", ALL), "dup"),
            (key("vc", "vm-9", "", ALL), "ghost"),
        ];
        let m = run(&vms, ALL, &rows);
        assert_eq!(m.key, JoinKey::ServerId);
        assert_eq!(m.found, [Some(0), Some(1), None, None]);
        let origin = Origin::default();
        let w = m.warnings("vMemory", "lost", |r| (rows[r].1, &origin));
        let messages: Vec<&str> = w.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "2 vMemory row(s) joined to vInfo by VM name alone: their VI SDK Server + VM \
                 ID cells, or those of the one vInfo VM of their name, are empty (first: 'p')",
                "1 vMemory row(s) match 2 or more vInfo VMs by VM name (first: 'dup'); joined \
                 to none: lost",
            ]
        );
    }

    proptest::proptest! {
        /// Rows written from vInfo's own VMs (every key cell) join their VM, or one the
        /// merge cannot tell from it (the same `VmKey`), or none when several VMs with
        /// different keys share the row's join key; never another VM.
        #[test]
        fn a_row_joins_its_vm_or_none_never_another(
            cells in proptest::collection::vec(
                (0..2usize, 0..4usize, 0..3usize, 0..3usize), 1..10),
            (server, vm_id, vm_uuid) in (proptest::bool::ANY, proptest::bool::ANY, proptest::bool::ANY),
        ) {
            let vinfo = KeyColumns { server, vm_id, vm_uuid };
            // One VM per distinct (server, id): the same VM ID key twice is one VM.
            let mut seen = std::collections::BTreeSet::new();
            let full: Vec<(String, String, String, String)> = cells
                .iter()
                .filter(|(s, i, _, _)| seen.insert((*s, *i)))
                .map(|(s, i, u, n)| (format!("vc{s}"), format!("vm-{i}"), format!("u{u}"), format!("n{n}")))
                .collect();
            // vInfo keeps only its columns' cells; the rows carry every cell.
            let vms: Vec<Vm> = full
                .iter()
                .map(|(s, i, u, n)| {
                    let keep = |has: bool, v: &str| has.then(|| v.to_string());
                    vm(n, keep(server, s).as_deref(), keep(vm_id, i).as_deref(), keep(vm_uuid, u).as_deref())
                })
                .collect();
            let rows: Vec<(RowKey, &str)> = full
                .iter()
                .map(|(s, i, u, n)| (key(s, i, u, KeyColumns::ALL), n.as_str()))
                .collect();
            let m = run(&vms, vinfo, &rows);
            for (r, found) in m.found.iter().enumerate() {
                match found {
                    Some(j) => proptest::prop_assert!(*j == r || vms[*j].is_same_vm(&vms[r])),
                    None => proptest::prop_assert!(m.is_ambiguous(r)),
                }
            }
        }
    }
}

//! Data-quality checks over a merged inventory. Each finding is a warning naming the file,
//! sheet, row and column of the first row concerned; nothing is changed.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::inventory::{Inventory, Warning, WarningKind, host_label};
use crate::numbers::{clip, first_few, group_thousands};

/// Longest VM name vSphere accepts, in characters: "The name can contain up to 80
/// characters" (VMware vSphere Virtual Machine Administration, "Select a Name and Folder",
/// docs.vmware.com, vSphere 6.5 `com.vmware.vsphere.vm_admin.doc`
/// GUID-E823277C-6CFB-4916-B9DD-00A7D93B8010). A longer name is not a VM vSphere exported.
pub const VSPHERE_MAX_VM_NAME_CHARS: usize = 80;

/// Runs every check and appends the warnings.
pub(crate) fn check(inv: &mut Inventory) {
    let mut found = Vec::new();
    in_use_above_provisioned(inv, &mut found);
    duplicate_vm_names(inv, &mut found);
    long_vm_names(inv, &mut found);
    spreadsheet_error_names(inv, &mut found);
    hosts_missing_from_vhost(inv, &mut found);
    disks_of_unknown_vms(inv, &mut found);
    overcommitted_datastores(inv, &mut found);
    inv.warnings.extend(found);
    // Each cause its first few and a count: memory follows the causes, not the rows.
    crate::inventory::bound_warnings(&mut inv.warnings);
}

fn in_use_above_provisioned(inv: &Inventory, out: &mut Vec<Warning>) {
    for vm in &inv.vms {
        if let (Some(used), Some(prov)) = (vm.in_use_mib, vm.provisioned_mib)
            && used > prov
        {
            let words = inv.sheet_words_of(&vm.origin.file);
            crate::inventory::push_bounded(
                out,
                Warning::at_cell(
                    WarningKind::Value,
                    &vm.origin,
                    vinfo_header(inv, &vm.origin.file, "In Use MiB"),
                    Some(mib_shown(used)),
                    format!(
                        "VM '{}': {} ({} MiB) exceeds {} ({} MiB)",
                        clip(&vm.name),
                        words.in_use,
                        mib_shown(used),
                        words.provisioned,
                        mib_shown(prov)
                    ),
                ),
            );
        }
    }
}

/// A MiB figure for a message: as read up to a billion TiB (2^50 MiB), beyond that in
/// scientific notation (`1e300`), so a hostile cell cannot spell out 300 digits.
fn mib_shown(mib: f64) -> String {
    if mib.abs() < 1.125_899_906_842_624e15 {
        crate::ingest::value::format_number(mib)
    } else {
        format!("{mib:e}")
    }
}

/// The vInfo header the input of `file` writes for `field` (`In Use MB` for `In Use MiB`),
/// else the field name.
fn vinfo_header(inv: &Inventory, file: &str, field: &str) -> String {
    header_of(inv, file, field, |s| &s.vinfo_headers)
}

/// The header the input of `file` writes for `field` in the sheet whose headers `headers`
/// picks from its [`Source`](crate::inventory::Source), else the field name.
fn header_of(
    inv: &Inventory,
    file: &str,
    field: &str,
    headers: fn(&crate::inventory::Source) -> &BTreeMap<String, String>,
) -> String {
    inv.sources
        .iter()
        .find(|s| {
            s.file == file
                || (s.format == "csv-folder" && std::path::Path::new(file).starts_with(&s.file))
        })
        .and_then(|s| headers(s).get(field))
        .map_or_else(|| field.to_string(), Clone::clone)
}

fn duplicate_vm_names(inv: &Inventory, out: &mut Vec<Warning>) {
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, vm) in inv.vms.iter().enumerate() {
        by_name.entry(vm.name.as_str()).or_default().push(i);
    }
    let mut groups: Vec<&Vec<usize>> = by_name.values().filter(|v| v.len() > 1).collect();
    groups.sort_by_key(|v| v[0]);
    for idx in groups {
        let first = &inv.vms[idx[0]];
        let places: Vec<String> = idx
            .iter()
            .map(|&i| {
                let o = &inv.vms[i].origin;
                format!("{} row {}", o.file, o.row)
            })
            .collect();
        crate::inventory::push_bounded(
            out,
            Warning::at_cell(
                WarningKind::Identity,
                &first.origin,
                vinfo_header(inv, &first.origin.file, "VM"),
                Some(crate::numbers::clip(&first.name)),
                format!(
                    "VM name '{}' appears {} times ({}); each is counted as a separate VM",
                    clip(&first.name),
                    idx.len(),
                    places.join(", ")
                ),
            ),
        );
    }
}

/// One warning, at the first such VM's row, for the VM names longer than
/// [`VSPHERE_MAX_VM_NAME_CHARS`]: how many and the first few, each clipped.
fn long_vm_names(inv: &Inventory, out: &mut Vec<Warning>) {
    let long: Vec<&crate::inventory::Vm> = inv
        .vms
        .iter()
        .filter(|vm| vm.name.chars().nth(VSPHERE_MAX_VM_NAME_CHARS).is_some())
        .collect();
    let Some(first) = long.first() else {
        return;
    };
    crate::inventory::push_bounded(
        out,
        Warning::at_cell(
            WarningKind::Value,
            &first.origin,
            vinfo_header(inv, &first.origin.file, "VM"),
            Some(clip(&first.name)),
            format!(
                "{} VM name(s) longer than the {VSPHERE_MAX_VM_NAME_CHARS} characters vSphere \
             allows (is the input damaged?): {}; the text and Markdown reports show their \
             first {} characters, the JSON and the workbook the whole name",
                group_thousands(long.len() as f64, 0),
                first_few(
                    long.iter().map(|vm| format!("'{}'", clip(&vm.name))),
                    long.len()
                ),
                crate::numbers::NAME_SHOWN_CHARS
            ),
        ),
    );
}

/// The error values a spreadsheet shows in a cell whose formula failed (Excel's
/// `#DIV/0!` ... `#VALUE!`, its newer `#SPILL!`, `#CALC!` and `#GETTING_DATA`, and calamine's
/// `#DATA!` for the last): RVTools writes values, never formulas, so a VM cell holding one
/// was edited in a spreadsheet.
pub(crate) const SPREADSHEET_ERRORS: [&str; 11] = [
    "#N/A",
    "#VALUE!",
    "#DIV/0!",
    "#NAME?",
    "#NULL!",
    "#NUM!",
    "#REF!",
    "#SPILL!",
    "#CALC!",
    "#GETTING_DATA",
    "#DATA!",
];

/// Whether `name` (trimmed, any case) is one of [`SPREADSHEET_ERRORS`].
fn is_spreadsheet_error(name: &str) -> bool {
    let name = name.trim();
    SPREADSHEET_ERRORS
        .iter()
        .any(|e| e.eq_ignore_ascii_case(name))
}

/// A warning at each VM whose name is a spreadsheet error value (`#REF!`, also when the
/// xlsx cell is an error cell): the VM is still planned (leaving it out could under-size),
/// but its row most likely lost its real name when the export was edited. Warnings of this
/// cause are grouped past the first few like the readers' others.
fn spreadsheet_error_names(inv: &Inventory, out: &mut Vec<Warning>) {
    for vm in inv.vms.iter().filter(|vm| is_spreadsheet_error(&vm.name)) {
        crate::inventory::push_bounded(
            out,
            Warning::at_cell(
                WarningKind::Value,
                &vm.origin,
                vinfo_header(inv, &vm.origin.file, "VM"),
                Some(clip(&vm.name)),
                format!(
                    "VM name '{}' is a spreadsheet error value, not a name: the export was \
                     probably edited in a spreadsheet and this row lost its VM's name; the VM \
                     is still planned, check the row against the source",
                    clip(vm.name.trim())
                ),
            ),
        );
    }
}

/// Only for inputs that have a vHost tab: the VM hosts that vHost does not list, one
/// warning per cause (spelled differently, by first DNS label; missing) with counts and the
/// first few hosts, at the first VM's row.
fn hosts_missing_from_vhost(inv: &Inventory, out: &mut Vec<Warning>) {
    let with_vhost: HashSet<&str> = inv
        .sources
        .iter()
        .filter(|s| s.tabs.iter().any(|t| t.eq_ignore_ascii_case("vHost")))
        .map(|s| s.file.as_str())
        .collect();
    if with_vhost.is_empty() {
        return;
    }
    let known: HashSet<&str> = inv.hosts.iter().map(|h| h.name.as_str()).collect();
    let labels: HashMap<String, &str> = inv
        .hosts
        .iter()
        .map(|h| (host_label(&h.name), h.name.as_str()))
        .collect();
    // Per cause (0: spelled differently, 1: missing): host -> (first VM index, VM count),
    // in first-seen order.
    let mut causes: [Vec<(&str, usize, usize)>; 2] = [Vec::new(), Vec::new()];
    for (i, vm) in inv.vms.iter().enumerate() {
        let Some(host) = vm.host.as_deref() else {
            continue;
        };
        if known.contains(host) || !source_has(inv, &vm.origin.file, &with_vhost) {
            continue;
        }
        let cause = &mut causes[usize::from(!labels.contains_key(&host_label(host)))];
        match cause.iter_mut().find(|(h, _, _)| *h == host) {
            Some(entry) => entry.2 += 1,
            None => cause.push((host, i, 1)),
        }
    }
    let [renamed, missing] = causes;
    let spelled = |h: &str| labels.get(&host_label(h)).copied().unwrap_or("");
    host_warning(
        inv,
        &renamed,
        out,
        "are spelled differently in vHost",
        |h, n| format!("'{h}' ({}) as '{}'", vms_word(n), spelled(h)),
    );
    host_warning(inv, &missing, out, "are not in vHost", |h, n| {
        format!("'{h}' ({})", vms_word(n))
    });
}

/// `1 VM`, `2 VMs`.
fn vms_word(n: usize) -> String {
    if n == 1 {
        "1 VM".to_string()
    } else {
        format!("{} VMs", group_thousands(n as f64, 0))
    }
}

/// One warning for the `hosts` of one cause (host, first VM index, VM count), at the
/// first VM's row: how many hosts and VMs, and the first few hosts.
fn host_warning(
    inv: &Inventory,
    hosts: &[(&str, usize, usize)],
    out: &mut Vec<Warning>,
    cause: &str,
    word: impl Fn(&str, usize) -> String,
) {
    let Some(&(host, first, _)) = hosts.first() else {
        return;
    };
    let vms: usize = hosts.iter().map(|h| h.2).sum();
    let vm = &inv.vms[first];
    crate::inventory::push_bounded(
        out,
        Warning {
            column: Some("Host".to_string()),
            value: Some(crate::numbers::clip(host)),
            ..Warning::at_row(
                WarningKind::Identity,
                &vm.origin,
                format!(
                    "{} vInfo host(s) of {} VM(s) {cause}: {}",
                    hosts.len(),
                    group_thousands(vms as f64, 0),
                    first_few(hosts.iter().map(|h| word(h.0, h.2)), hosts.len())
                ),
            )
        },
    );
}

/// Whether a VM read from `file` belongs to an input in `set`. VM origins of a CSV folder
/// name the `RVTools_tabvInfo.csv` file inside the folder given as input.
fn source_has(inv: &Inventory, file: &str, set: &HashSet<&str>) -> bool {
    set.contains(file)
        || inv.sources.iter().any(|s| {
            set.contains(s.file.as_str())
                && s.format == "csv-folder"
                && std::path::Path::new(file).starts_with(&s.file)
        })
}

fn disks_of_unknown_vms(inv: &Inventory, out: &mut Vec<Warning>) {
    let vm_keys: HashSet<String> = inv.vms.iter().map(|v| v.key().0).collect();
    let vm_names: HashSet<&str> = inv.vms.iter().map(|v| v.name.as_str()).collect();
    // VM name -> (first disk index, count), in first-seen order.
    let mut unknown: Vec<(&str, usize, usize)> = Vec::new();
    for (i, d) in inv.disks.iter().enumerate() {
        if vm_keys.contains(&d.vm_key.0) || vm_names.contains(d.vm.as_str()) {
            continue;
        }
        match unknown.iter_mut().find(|(n, _, _)| *n == d.vm) {
            Some(entry) => entry.2 += 1,
            None => unknown.push((d.vm.as_str(), i, 1)),
        }
    }
    for (name, first, count) in unknown {
        let d = &inv.disks[first];
        crate::inventory::push_bounded(
            out,
            Warning::at_cell(
                WarningKind::Identity,
                &d.origin,
                "VM".to_string(),
                Some(crate::numbers::clip(name)),
                format!(
                    "{count} vDisk row(s) of VM '{}', which is not in vInfo",
                    clip(name)
                ),
            ),
        );
    }
}

fn overcommitted_datastores(inv: &Inventory, out: &mut Vec<Warning>) {
    for d in &inv.datastores {
        if let (Some(prov), Some(cap)) = (d.provisioned_mib, d.capacity_mib)
            && prov > cap
        {
            crate::inventory::push_bounded(
                out,
                Warning::at_cell(
                    WarningKind::Estate,
                    &d.origin,
                    header_of(inv, &d.origin.file, "Provisioned MiB", |s| {
                        &s.vdatastore_headers
                    }),
                    Some(crate::ingest::value::format_number(prov)),
                    format!(
                        "datastore '{}' is overcommitted: {prov} MiB provisioned on {cap} MiB \
                         capacity (thin disks may grow into it)",
                        d.name
                    ),
                ),
            );
        }
    }
}

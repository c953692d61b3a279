//! Data-quality checks over a merged inventory. Each finding is a warning naming the file,
//! sheet, row and column of the first row concerned; nothing is changed.

use std::collections::{BTreeMap, HashSet};

use crate::inventory::{Inventory, Warning};

/// Runs every check and appends the warnings.
pub(crate) fn check(inv: &mut Inventory) {
    let mut found = Vec::new();
    in_use_above_provisioned(inv, &mut found);
    duplicate_vm_names(inv, &mut found);
    hosts_missing_from_vhost(inv, &mut found);
    disks_of_unknown_vms(inv, &mut found);
    overcommitted_datastores(inv, &mut found);
    inv.warnings.extend(found);
}

fn in_use_above_provisioned(inv: &Inventory, out: &mut Vec<Warning>) {
    for vm in &inv.vms {
        if let (Some(used), Some(prov)) = (vm.in_use_mib, vm.provisioned_mib) {
            if used > prov {
                out.push(Warning {
                    file: vm.origin.file.clone(),
                    sheet: Some(vm.origin.sheet.clone()),
                    row: Some(vm.origin.row),
                    column: Some("In Use MiB".to_string()),
                    value: Some(crate::ingest::value::format_number(used)),
                    message: format!(
                        "VM '{}': In Use ({used} MiB) exceeds Provisioned ({prov} MiB)",
                        vm.name
                    ),
                });
            }
        }
    }
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
        out.push(Warning {
            file: first.origin.file.clone(),
            sheet: Some(first.origin.sheet.clone()),
            row: Some(first.origin.row),
            column: Some("VM".to_string()),
            value: Some(crate::numbers::clip(&first.name)),
            message: format!(
                "VM name '{}' appears {} times ({}); each is counted as a separate VM",
                first.name,
                idx.len(),
                places.join(", ")
            ),
        });
    }
}

/// Only for inputs that have a vHost tab: a VM's host that vHost does not list.
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
    // host -> (first VM index, VM count), in first-seen order.
    let mut missing: Vec<(&str, usize, usize)> = Vec::new();
    for (i, vm) in inv.vms.iter().enumerate() {
        let Some(host) = vm.host.as_deref() else {
            continue;
        };
        if known.contains(host) || !source_has(inv, &vm.origin.file, &with_vhost) {
            continue;
        }
        match missing.iter_mut().find(|(h, _, _)| *h == host) {
            Some(entry) => entry.2 += 1,
            None => missing.push((host, i, 1)),
        }
    }
    for (host, first, count) in missing {
        let vm = &inv.vms[first];
        out.push(Warning {
            file: vm.origin.file.clone(),
            sheet: Some(vm.origin.sheet.clone()),
            row: Some(vm.origin.row),
            column: Some("Host".to_string()),
            value: Some(crate::numbers::clip(host)),
            message: format!(
                "host '{host}' of {count} VM(s) (first: '{}') is not in vHost",
                vm.name
            ),
        });
    }
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
        out.push(Warning {
            file: d.origin.file.clone(),
            sheet: Some(d.origin.sheet.clone()),
            row: Some(d.origin.row),
            column: Some("VM".to_string()),
            value: Some(crate::numbers::clip(name)),
            message: format!("{count} vDisk row(s) of VM '{name}', which is not in vInfo"),
        });
    }
}

fn overcommitted_datastores(inv: &Inventory, out: &mut Vec<Warning>) {
    for d in &inv.datastores {
        if let (Some(prov), Some(cap)) = (d.provisioned_mib, d.capacity_mib) {
            if prov > cap {
                out.push(Warning {
                    file: d.origin.file.clone(),
                    sheet: Some(d.origin.sheet.clone()),
                    row: Some(d.origin.row),
                    column: Some("Provisioned MiB".to_string()),
                    value: Some(crate::ingest::value::format_number(prov)),
                    message: format!(
                        "datastore '{}' is overcommitted: {prov} MiB provisioned on {cap} MiB \
                         capacity (thin disks may grow into it)",
                        d.name
                    ),
                });
            }
        }
    }
}

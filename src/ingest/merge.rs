//! Merging several inputs into one inventory, keeping the first copy of everything.

use std::collections::{HashMap, HashSet};

use crate::inventory::{Datastore, Inventory, VmKey, Warning};

/// Merges the inventories of several inputs (in input order) and removes duplicates; see
/// [`read_inputs`](crate::ingest::read_inputs) for the rules. Every removal is a warning.
pub(crate) fn merge(parts: Vec<Inventory>) -> Inventory {
    let mut out = Inventory::default();
    // VM key -> (input index, file, row) of the copy kept.
    let mut vm_seen: HashMap<VmKey, (usize, String, usize)> = HashMap::new();
    let mut host_seen: HashSet<String> = HashSet::new();
    let mut cluster_seen: HashSet<(String, String)> = HashSet::new();
    let mut datastore_seen: HashSet<String> = HashSet::new();

    for (index, part) in parts.into_iter().enumerate() {
        let Inventory {
            inputs,
            mut vms,
            warnings,
            sources,
            mut disks,
            mut partitions,
            mut hosts,
            mut clusters,
            mut datastores,
            mut snapshots,
        } = part;
        let input_name = inputs.first().cloned().unwrap_or_default();
        out.inputs.extend(inputs);
        out.sources.extend(sources);
        out.warnings.extend(warnings);

        // VMs. Keys seen in an earlier input: a duplicate copy, dropped with its children.
        // Within one input only an exact `VI SDK Server` + `VM ID` repeat is a duplicate row
        // (names and UUIDs may repeat legitimately; the quality checks report them).
        let mut dropped: HashSet<VmKey> = HashSet::new();
        let mut keep = Vec::with_capacity(vms.len());
        for vm in &vms {
            let key = vm.key();
            match vm_seen.get(&key) {
                Some((seen_index, file, row))
                    if *seen_index != index || key.0.starts_with("id:") =>
                {
                    out.warnings.push(Warning {
                        file: vm.origin.file.clone(),
                        sheet: Some(vm.origin.sheet.clone()),
                        row: Some(vm.origin.row),
                        column: None,
                        value: Some(crate::numbers::clip(&vm.name)),
                        message: format!(
                            "VM '{}' ({key}) was already read from {file} row {row}; this \
                             copy is not counted",
                            vm.name
                        ),
                    });
                    if *seen_index != index {
                        dropped.insert(key);
                    }
                    keep.push(false);
                }
                Some(_) => keep.push(true),
                None => {
                    vm_seen.insert(key, (index, vm.origin.file.clone(), vm.origin.row));
                    keep.push(true);
                }
            }
        }
        let mut flags = keep.into_iter();
        vms.retain(|_| flags.next().unwrap_or(true));
        take_or_append(&mut out.vms, vms);

        // Children of dropped duplicates go with them.
        if !dropped.is_empty() {
            let counts = [
                retain_count(&mut disks, |d| !dropped.contains(&d.vm_key)),
                retain_count(&mut partitions, |p| !dropped.contains(&p.vm_key)),
                retain_count(&mut snapshots, |s| !dropped.contains(&s.vm_key)),
            ];
            for (count, tab) in counts.iter().zip(["vDisk", "vPartition", "vSnapshot"]) {
                if *count > 0 {
                    out.warnings.push(input_warning(
                        &input_name,
                        tab,
                        format!(
                            "{count} {tab} rows belong to VMs already read from an earlier \
                             input; not counted"
                        ),
                    ));
                }
            }
        }
        take_or_append(&mut out.disks, disks);
        take_or_append(&mut out.partitions, partitions);
        take_or_append(&mut out.snapshots, snapshots);

        let repeated = retain_count(&mut hosts, |h| host_seen.insert(h.name.clone()));
        take_or_append(&mut out.hosts, hosts);
        if repeated > 0 {
            out.warnings.push(input_warning(
                &input_name,
                "vHost",
                format!("{repeated} vHost rows repeat a host name already read; kept once"),
            ));
        }

        let repeated = retain_count(&mut clusters, |c| {
            cluster_seen.insert((c.vi_sdk_server.clone().unwrap_or_default(), c.name.clone()))
        });
        take_or_append(&mut out.clusters, clusters);
        if repeated > 0 {
            out.warnings.push(input_warning(
                &input_name,
                "vCluster",
                format!(
                    "{repeated} vCluster rows repeat a cluster (VI SDK Server + name) already \
                     read; kept once"
                ),
            ));
        }

        let repeated = retain_count(&mut datastores, |d| datastore_seen.insert(datastore_key(d)));
        take_or_append(&mut out.datastores, datastores);
        if repeated > 0 {
            out.warnings.push(input_warning(
                &input_name,
                "vDatastore",
                format!(
                    "{repeated} vDatastore rows repeat a datastore (same URL, else Address, \
                     else VI SDK Server + name) already read; kept once"
                ),
            ));
        }
    }
    out
}

/// A datastore's identity: `URL`, else `Address`, else server + name.
fn datastore_key(d: &Datastore) -> String {
    match (&d.url, &d.address) {
        (Some(url), _) => format!("url:{url}"),
        (None, Some(address)) => format!("address:{address}"),
        (None, None) => format!(
            "name:{}:{}",
            d.vi_sdk_server.as_deref().unwrap_or(""),
            d.name
        ),
    }
}

fn input_warning(file: &str, sheet: &str, message: String) -> Warning {
    Warning {
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        row: None,
        column: None,
        value: None,
        message,
    }
}

/// Moves `items` to the end of `out` (without copying when `out` is empty).
fn take_or_append<T>(out: &mut Vec<T>, mut items: Vec<T>) {
    if out.is_empty() {
        *out = items;
    } else {
        out.append(&mut items);
    }
}

/// `Vec::retain`, returning how many items were removed.
fn retain_count<T>(items: &mut Vec<T>, keep: impl FnMut(&T) -> bool) -> usize {
    let before = items.len();
    items.retain(keep);
    before - items.len()
}

//! Merging several inputs into one inventory, keeping the first copy of everything.

use std::collections::{HashMap, HashSet};

use crate::inventory::{
    Datastore, Inventory, Partition, Snapshot, VirtualDisk, Vm, VmKey, Warning,
};

/// Merges the inventories of several inputs (in input order) and removes duplicates; see
/// [`read_inputs`](crate::ingest::read_inputs) for the rules. Every removal is a warning.
pub(crate) fn merge(parts: Vec<Inventory>) -> Inventory {
    let mut out = Inventory::default();
    // VM key -> the copy kept.
    let mut vm_seen: HashMap<VmKey, SeenVm> = HashMap::new();
    // A host name is unique within a vCenter, not across vCenters.
    let mut host_seen: HashSet<(String, String)> = HashSet::new();
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

        // VMs. Keys seen in an earlier input: a duplicate copy, dropped with its children,
        // unless the copies' `VI SDK UUID` or `VM UUID` differ (two vCenters behind one
        // `VI SDK Server` address): then it is another VM, re-keyed with its children.
        // Within one input only an exact `VI SDK Server` + `VM ID` repeat is a duplicate row
        // (names and UUIDs may repeat legitimately; the quality checks report them).
        let mut dropped: HashSet<VmKey> = HashSet::new();
        let mut rekeyed: HashMap<VmKey, VmKey> = HashMap::new();
        let mut keep = Vec::with_capacity(vms.len());
        for vm in &mut vms {
            let key = vm.key();
            match vm_seen.get(&key) {
                Some(seen) if seen.index != index && seen.identity.differs(vm) => {
                    vm.key_input = Some(index + 1);
                    let new_key = vm.key();
                    rekeyed.insert(key, new_key.clone());
                    vm_seen.insert(new_key, SeenVm::of(vm, index));
                    keep.push(true);
                }
                Some(seen) if seen.index != index || key.0.starts_with("id:") => {
                    out.warnings.push(duplicate_warning(vm, &key, seen));
                    if seen.index != index {
                        dropped.insert(key);
                    }
                    keep.push(false);
                }
                Some(_) => keep.push(true),
                None => {
                    vm_seen.insert(key, SeenVm::of(vm, index));
                    keep.push(true);
                }
            }
        }
        rekey_children(&rekeyed, &mut disks, &mut partitions, &mut snapshots);
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

        let repeated = retain_count(&mut hosts, |h| {
            host_seen.insert((h.vi_sdk_server.clone().unwrap_or_default(), h.name.clone()))
        });
        take_or_append(&mut out.hosts, hosts);
        if repeated > 0 {
            out.warnings.push(input_warning(
                &input_name,
                "vHost",
                format!(
                    "{repeated} vHost rows repeat a host (VI SDK Server + name) already read; \
                     kept once"
                ),
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

/// The copy of a VM kept: its input, where it was read, and the UUIDs that tell two VMs
/// with the same key apart.
struct SeenVm {
    index: usize,
    file: String,
    row: usize,
    identity: Identity,
}

impl SeenVm {
    fn of(vm: &Vm, index: usize) -> SeenVm {
        SeenVm {
            index,
            file: vm.origin.file.clone(),
            row: vm.origin.row,
            identity: Identity::of(vm),
        }
    }
}

/// A VM's `VI SDK UUID` and `VM UUID`, when the export has them.
struct Identity {
    vi_sdk_uuid: Option<String>,
    vm_uuid: Option<String>,
}

impl Identity {
    fn of(vm: &Vm) -> Identity {
        Identity {
            vi_sdk_uuid: vm.vi_sdk_uuid.clone(),
            vm_uuid: vm.vm_uuid.clone(),
        }
    }

    /// Whether `vm` is another VM than this one although their keys are equal: both
    /// copies carry a `VI SDK UUID` (or a `VM UUID`) and the two differ.
    fn differs(&self, vm: &Vm) -> bool {
        let differ = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => !a.eq_ignore_ascii_case(b),
            _ => false,
        };
        differ(&self.vi_sdk_uuid, &vm.vi_sdk_uuid) || differ(&self.vm_uuid, &vm.vm_uuid)
    }
}

/// The warning for a copy of a VM already read.
fn duplicate_warning(vm: &Vm, key: &VmKey, seen: &SeenVm) -> Warning {
    Warning {
        file: vm.origin.file.clone(),
        sheet: Some(vm.origin.sheet.clone()),
        row: Some(vm.origin.row),
        column: None,
        value: Some(crate::numbers::clip(&vm.name)),
        message: format!(
            "VM '{}' ({key}) was already read from {} row {}; this copy is not counted",
            crate::numbers::clip(&vm.name),
            seen.file,
            seen.row
        ),
    }
}

/// Gives the disks, partitions and snapshots of re-keyed VMs their VM's new key.
fn rekey_children(
    rekeyed: &HashMap<VmKey, VmKey>,
    disks: &mut [VirtualDisk],
    partitions: &mut [Partition],
    snapshots: &mut [Snapshot],
) {
    if rekeyed.is_empty() {
        return;
    }
    let keys = disks
        .iter_mut()
        .map(|d| &mut d.vm_key)
        .chain(partitions.iter_mut().map(|p| &mut p.vm_key))
        .chain(snapshots.iter_mut().map(|s| &mut s.vm_key));
    for key in keys {
        if let Some(new_key) = rekeyed.get(key) {
            *key = new_key.clone();
        }
    }
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

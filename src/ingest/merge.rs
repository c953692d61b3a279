//! Merging several inputs into one inventory: first one estate identity across them
//! ([`newer`]: one spelling per vCenter, a VM two inputs hold taken from the newer export),
//! then the first copy of everything else kept.

use std::collections::{HashMap, HashSet};

mod newer;

use crate::inventory::{
    Datastore, DuplicateVm, Inventory, Origin, Partition, Snapshot, VirtualDisk, Vm, VmKey,
    Warning, WarningKind,
};

/// Merges the inventories of several inputs (in input order) and removes duplicates; see
/// [`read_inputs`](crate::ingest::read_inputs) for the rules. Every removal is a warning.
pub(crate) fn merge(mut parts: Vec<Inventory>) -> Inventory {
    let estate = newer::one_estate(&mut parts);
    let mut out = Inventory::default();
    let mut vms_seen = VmsSeen::default();
    // A host name is unique within a vCenter, not across vCenters.
    let mut host_seen: HashSet<(String, String)> = HashSet::new();
    let mut cluster_seen: HashSet<(String, String)> = HashSet::new();
    let mut datastore_seen: HashSet<String> = HashSet::new();
    // The warnings kept so far, less their file: a copy's warnings alike are not repeated.
    let mut warning_seen: HashSet<WarningKey> = HashSet::new();

    for part in parts {
        let Inventory {
            inputs,
            vms,
            warnings,
            sources,
            mut disks,
            mut partitions,
            mut hosts,
            mut clusters,
            mut datastores,
            mut snapshots,
            duplicates,
        } = part;
        let input_name = inputs.first().cloned().unwrap_or_default();
        out.inputs.extend(inputs);
        out.sources.extend(sources);
        out.duplicates.extend(duplicates);
        let read = vms.len();
        let sorted = vms_seen.sort(vms, &mut out.vms, &mut out.duplicates);
        // Every VM already read from earlier inputs: the input repeats one given before.
        let copy = read > 0 && sorted.of_earlier == read;
        let mut notes = Vec::new();
        for w in warnings {
            let key = WarningKey::of(&w);
            if !(copy && warning_seen.contains(&key)) {
                warning_seen.insert(key);
                out.warnings.push(w);
            }
        }
        notes.extend(sorted.warnings(&input_name, copy, &out.duplicates));
        rekey_children(&sorted.rekeyed, &mut disks, &mut partitions, &mut snapshots);

        // Children of dropped duplicates go with them.
        let dropped = &sorted.dropped;
        let counts = [
            retain_count(&mut disks, |d| !dropped.contains(&d.vm_key)),
            retain_count(&mut partitions, |p| !dropped.contains(&p.vm_key)),
            retain_count(&mut snapshots, |s| !dropped.contains(&s.vm_key)),
        ];
        for (count, tab) in counts.iter().zip(["vDisk", "vPartition", "vSnapshot"]) {
            if *count > 0 {
                notes.push(input_warning(
                    &input_name,
                    tab,
                    format!(
                        "{count} {tab} rows belong to VMs already read from an earlier \
                         input; not counted"
                    ),
                ));
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
            notes.push(input_warning(
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
            notes.push(input_warning(
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
            notes.push(input_warning(
                &input_name,
                "vDatastore",
                format!(
                    "{repeated} vDatastore rows repeat a datastore (same URL, else Address, \
                     else VI SDK Server + name) already read; kept once"
                ),
            ));
        }
        // A copy is one warning: what it repeats is said there.
        if copy {
            notes.truncate(1);
        }
        out.warnings.append(&mut notes);
    }
    out.warnings.extend(estate.warnings);
    out.duplicates.extend(estate.duplicates);
    out
}

/// The VMs kept so far, by key without `key_number` ([`Vm::is_same_vm`]'s key): their
/// indices in the merged VMs.
#[derive(Default)]
struct VmsSeen {
    by_key: HashMap<VmKey, Vec<usize>>,
}

/// How one input's VMs were sorted into kept VMs and duplicates.
#[derive(Default)]
struct Sorted {
    /// The input's VMs listed as duplicates: indices into the merged duplicates.
    duplicates: Vec<usize>,
    /// Keys of VMs dropped as copies of a VM of an earlier input: their child rows go too.
    dropped: HashSet<VmKey>,
    /// How many of the input's VMs are copies of a VM of an earlier input.
    of_earlier: usize,
    /// Keys given a `key_number` (another VM of an earlier input has the key), with the
    /// key their child rows take.
    rekeyed: HashMap<VmKey, VmKey>,
    /// VMs kept apart from another VM of the same key: (this row, the other's place).
    apart: Vec<(Origin, Origin)>,
    /// How many VMs kept apart.
    apart_count: usize,
}

impl VmsSeen {
    /// Sorts the VMs of one input: a VM already read ([`Vm::is_same_vm`] with a kept
    /// one) becomes a [`DuplicateVm`]; another VM whose key is taken gets the next
    /// `key_number`; the rest are kept as they are, appended to `kept`.
    fn sort(
        &mut self,
        vms: Vec<Vm>,
        kept: &mut Vec<Vm>,
        duplicates: &mut Vec<DuplicateVm>,
    ) -> Sorted {
        let mut sorted = Sorted::default();
        let first_of_input = kept.len();
        // Keys of this input's VMs given a number: one each, else the children's VM is
        // unclear (those rows were joined to none).
        let mut numbered: HashMap<VmKey, usize> = HashMap::new();
        for mut vm in vms {
            let key = vm.key();
            // Within one input, a name key says little (two VMs of one name in one cluster
            // are common): rows of one are one VM only when their figures agree too.
            let name_key = key.is_name_based();
            let same = self.by_key.get(&key).and_then(|list| {
                list.iter().copied().find(|&j| {
                    kept.get(j).is_some_and(|k| {
                        k.is_same_vm(&vm)
                            && (j < first_of_input || !name_key || same_figures(k, &vm))
                    })
                })
            });
            match same {
                Some(j) => {
                    if j < first_of_input {
                        sorted.of_earlier += 1;
                        sorted.dropped.insert(key);
                    }
                    sorted.duplicates.push(duplicates.len());
                    duplicates.push(DuplicateVm {
                        name: vm.name,
                        origin: vm.origin,
                        copy_of: kept.get(j).map(|k| k.origin.clone()).unwrap_or_default(),
                    });
                }
                None => {
                    let list = self.by_key.entry(key.clone()).or_default();
                    if let Some(&other) = list.first() {
                        sorted.apart_count += 1;
                        if sorted.apart.len() < SHOWN_ROWS {
                            let other = kept.get(other).map(|k| k.origin.clone());
                            sorted
                                .apart
                                .push((vm.origin.clone(), other.unwrap_or_default()));
                        }
                        vm.key_number = Some(list.len() + 1);
                        if list.iter().all(|&j| j < first_of_input) {
                            *numbered.entry(key.clone()).or_default() += 1;
                            sorted.rekeyed.insert(key, vm.key());
                        }
                    }
                    list.push(kept.len());
                    kept.push(vm);
                }
            }
        }
        // A key that two VMs of this input share (kept or dropped) leaves its child rows'
        // VM unclear (the join gave them to none): they keep their key.
        let by_key = &self.by_key;
        let dropped = &sorted.dropped;
        sorted.rekeyed.retain(|k, _| {
            numbered.get(k) == Some(&1)
                && !dropped.contains(k)
                && by_key
                    .get(k)
                    .is_some_and(|l| l.iter().filter(|&&j| j >= first_of_input).count() == 1)
        });
        sorted
    }
}

/// Whether two rows of one VM name (one input, no `VM ID` or `VM UUID`) agree in every
/// figure and placement both carry: vCPUs, memory, provisioned and in-use MiB, host. A
/// figure one row lacks says nothing either way.
fn same_figures(a: &Vm, b: &Vm) -> bool {
    fn agree<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
    agree(&a.cpus, &b.cpus)
        && agree(&a.memory_mib, &b.memory_mib)
        && agree(&a.provisioned_mib, &b.provisioned_mib)
        && agree(&a.in_use_mib, &b.in_use_mib)
        && agree(&a.host, &b.host)
}

/// Rows named in a grouped warning.
const SHOWN_ROWS: usize = 5;

impl Sorted {
    /// The input's warnings about its VMs: one for a copy of an earlier input, else one
    /// for its duplicates and one for its VMs kept apart from another of the same key.
    fn warnings(&self, input: &str, copy: bool, duplicates: &[DuplicateVm]) -> Vec<Warning> {
        let mut out = Vec::new();
        let dups: Vec<&DuplicateVm> = self
            .duplicates
            .iter()
            .filter_map(|&i| duplicates.get(i))
            .collect();
        if let Some(first) = dups.first() {
            let sheet = first.origin.sheet.clone();
            let mut files: Vec<&str> = dups.iter().map(|d| &*d.copy_of.file).collect();
            files.sort_unstable();
            files.dedup();
            let message = if copy {
                format!(
                    "every VM of this input ({}) was already read from {}: the input repeats \
                     one given before, so nothing of it is counted again (its VMs are listed \
                     among the excluded VMs as duplicates; its child rows, hosts, clusters \
                     and datastores are kept once)",
                    crate::numbers::group_thousands(dups.len() as f64, 0),
                    files.join(", ")
                )
            } else {
                format!(
                    "{} VM row(s) repeat a VM already read ({}; row {} repeats {}): not \
                     counted again, each listed among the excluded VMs as a duplicate",
                    crate::numbers::group_thousands(dups.len() as f64, 0),
                    rows_list(dups.iter().map(|d| d.origin.row), dups.len()),
                    first.origin.row,
                    place(&first.copy_of)
                )
            };
            out.push(input_warning(input, &sheet, message));
        }
        if let Some((first, other)) = self.apart.first() {
            out.push(input_warning(
                input,
                &first.sheet,
                format!(
                    "{} VM row(s) share their key (VI SDK Server + VM ID, else VM UUID, else \
                     name) with a VM read before but differ in name, VM UUID, VI SDK UUID or, \
                     for a name key, path, datacenter, cluster or, within one input, vCPUs, \
                     memory, provisioned, in use or host ({}; row {} against {}): kept as \
                     different VMs",
                    crate::numbers::group_thousands(self.apart_count as f64, 0),
                    rows_list(self.apart.iter().map(|a| a.0.row), self.apart_count),
                    first.row,
                    place(other)
                ),
            ));
        }
        out
    }
}

/// `rows 2, 3, 4 and 10 more`: the first rows and how many more there are of `total`.
fn rows_list(rows: impl Iterator<Item = usize>, total: usize) -> String {
    let shown: Vec<String> = rows.take(SHOWN_ROWS).map(|r| r.to_string()).collect();
    let word = if total == 1 { "row" } else { "rows" };
    match total.checked_sub(shown.len()) {
        Some(more) if more > 0 => format!(
            "{word} {} and {} more",
            shown.join(", "),
            crate::numbers::group_thousands(more as f64, 0)
        ),
        _ => format!("{word} {}", shown.join(", ")),
    }
}

/// `file [sheet] row N`.
fn place(origin: &Origin) -> String {
    format!("{} [{}] row {}", origin.file, origin.sheet, origin.row)
}

/// A warning less its file: the same warning read from a copy of an input compares equal.
#[derive(PartialEq, Eq, Hash)]
struct WarningKey {
    kind: crate::inventory::WarningKind,
    sheet: Option<String>,
    row: Option<usize>,
    column: Option<String>,
    value: Option<String>,
    message: String,
}

impl WarningKey {
    fn of(w: &Warning) -> WarningKey {
        WarningKey {
            kind: w.kind,
            sheet: w.sheet.clone(),
            row: w.row,
            column: w.column.clone(),
            value: w.value.clone(),
            message: w.message.clone(),
        }
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

/// A warning about which VM, host, cluster or datastore rows of `file`'s `sheet` are.
fn input_warning(file: &str, sheet: &str, message: String) -> Warning {
    Warning::in_sheet(WarningKind::Identity, file, sheet, message)
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

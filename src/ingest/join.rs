//! Child rows attached to the VMs of vInfo, once each child tab's rows have found their
//! VM ([`super::tab_match`], whose module docs give the rule): vCPU and vMemory figures,
//! vDisk, vPartition and vSnapshot rows, and the warnings of the join's keys.

use std::collections::BTreeMap;

use crate::ingest::tab_match::{KeyColumns, Matches, RowKey, key_warnings, match_tab};
use crate::ingest::vmrows;
use crate::inventory::{Inventory, Partition, Snapshot, VirtualDisk, Vm, VmKey};

/// The child rows of one input as read, each with its key cells.
pub(crate) struct Children {
    /// vCPU rows.
    pub cpu: Vec<vmrows::VmRow>,
    /// vMemory rows.
    pub memory: Vec<vmrows::VmRow>,
    /// vDisk rows.
    pub disks: Vec<(RowKey, VirtualDisk)>,
    /// vPartition rows.
    pub partitions: Vec<(RowKey, Partition)>,
    /// vSnapshot rows.
    pub snapshots: Vec<(RowKey, Snapshot)>,
}

impl Children {
    /// Joins every child tab to the VMs of `inventory` (one input, `file`), all tabs
    /// matched against the vInfo keys as read ([`match_tab`]; `vinfo_headers`: the vInfo
    /// headers by field name); fills what vInfo left unknown from vCPU and vMemory
    /// ([`vmrows::join`]); gives a VM still without `VI SDK Server` the input's one
    /// ([`fill_vcenters`](crate::inventory::identity::fill_vcenters)); then gives each
    /// joined disk, partition and snapshot its VM's key (after the fills, which may give
    /// the VM its `VI SDK Server`). Rows joining no VM
    /// keep their own key. The warnings go to the inventory's.
    pub(crate) fn join(
        self,
        inventory: &mut Inventory,
        file: &str,
        vinfo_headers: &BTreeMap<String, String>,
    ) {
        let vms = &inventory.vms;
        let vinfo = KeyColumns::of_headers(vinfo_headers);
        let vm_rows = |rows: &[vmrows::VmRow]| {
            match_tab(vms, vinfo, rows.iter().map(|r| (&r.key, r.vm.as_str())))
        };
        let cpu = vm_rows(&self.cpu);
        let memory = vm_rows(&self.memory);
        let disks = match_tab(
            vms,
            vinfo,
            self.disks.iter().map(|(k, d)| (k, d.vm.as_str())),
        );
        let partitions = match_tab(
            vms,
            vinfo,
            self.partitions.iter().map(|(k, p)| (k, p.vm.as_str())),
        );
        let snapshots = match_tab(
            vms,
            vinfo,
            self.snapshots.iter().map(|(k, s)| (k, s.vm.as_str())),
        );
        let warnings = &mut inventory.warnings;
        warnings.extend(key_warnings(
            file,
            &[
                ("vCPU", &cpu, self.cpu.first().map(|r| &r.origin)),
                ("vMemory", &memory, self.memory.first().map(|r| &r.origin)),
                ("vDisk", &disks, self.disks.first().map(|r| &r.1.origin)),
                (
                    "vPartition",
                    &partitions,
                    self.partitions.first().map(|r| &r.1.origin),
                ),
                (
                    "vSnapshot",
                    &snapshots,
                    self.snapshots.first().map(|r| &r.1.origin),
                ),
            ],
        ));
        for (tab, rows, matches, lost) in [
            ("vCPU", &self.cpu, &cpu, vmrows::VCPU_LOST),
            ("vMemory", &self.memory, &memory, vmrows::VMEMORY_LOST),
        ] {
            warnings.extend(matches.warnings(tab, lost, |r| (&rows[r].vm, &rows[r].origin)));
        }
        warnings.extend(disks.warnings("vDisk", DISK_LOST, |r| {
            (&self.disks[r].1.vm, &self.disks[r].1.origin)
        }));
        warnings.extend(partitions.warnings("vPartition", PARTITION_LOST, |r| {
            (&self.partitions[r].1.vm, &self.partitions[r].1.origin)
        }));
        warnings.extend(snapshots.warnings("vSnapshot", SNAPSHOT_LOST, |r| {
            (&self.snapshots[r].1.vm, &self.snapshots[r].1.origin)
        }));
        vmrows::join(
            &mut inventory.vms,
            &vmrows::Tab::new("vCPU", &self.cpu, &cpu, vmrows::VCPU_LOST),
            &vmrows::Tab::new("vMemory", &self.memory, &memory, vmrows::VMEMORY_LOST),
            vinfo_headers,
            &mut inventory.warnings,
        );
        crate::inventory::identity::fill_vcenters(inventory);
        let vms = &inventory.vms;
        inventory.disks = keyed(self.disks, &disks, vms, |d| &mut d.vm_key);
        inventory.partitions = keyed(self.partitions, &partitions, vms, |p| &mut p.vm_key);
        inventory.snapshots = keyed(self.snapshots, &snapshots, vms, |s| &mut s.vm_key);
    }
}

/// What a vDisk row joined to no VM loses.
const DISK_LOST: &str = "their RDM capacity is not reported";
/// What a vPartition row joined to no VM loses.
const PARTITION_LOST: &str = "their guest-consumed capacity is not counted";
/// What a vSnapshot row joined to no VM loses.
const SNAPSHOT_LOST: &str = "they stay attached to no VM";

/// The records, each joined one with its VM's key.
fn keyed<T>(
    rows: Vec<(RowKey, T)>,
    matches: &Matches,
    vms: &[Vm],
    vm_key: fn(&mut T) -> &mut VmKey,
) -> Vec<T> {
    rows.into_iter()
        .zip(&matches.found)
        .map(|((_, mut record), found)| {
            if let Some(vm) = found.and_then(|i| vms.get(i)) {
                *vm_key(&mut record) = vm.key();
            }
            record
        })
        .collect()
}

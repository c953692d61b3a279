//! The capacity basis per VM: the chosen basis, falling back to in use then provisioned
//! with a warning; RDM disks reported, never planned; what the unshared basis leaves out.

use std::collections::HashMap;

use crate::inventory::{Inventory, Origin, Vm, VmKey, Warning};

use super::{CapacityBasis, MIB_PER_GIB};

/// Per-VM sums over the disk and partition rows, by VM key.
pub(super) struct DiskSums<'a> {
    /// Guest-consumed capacity from vPartition, MiB (filled only for that basis).
    consumed_mib: HashMap<&'a VmKey, f64>,
    /// Capacity of RDM disks, MiB.
    rdm_mib: HashMap<&'a VmKey, f64>,
}

impl<'a> DiskSums<'a> {
    /// Sums the inventory's partitions (for the guest-consumed `basis`) and RDM disks.
    pub(super) fn of(inventory: &'a Inventory, basis: CapacityBasis) -> DiskSums<'a> {
        // Guest-consumed capacity: the VM's vPartition rows, by VM key.
        let mut consumed_mib: HashMap<&VmKey, f64> = HashMap::new();
        if basis == CapacityBasis::GuestConsumed {
            for p in &inventory.partitions {
                if let Some(c) = p.consumed_mib {
                    *consumed_mib.entry(&p.vm_key).or_default() += c;
                }
            }
        }
        // RDM disks hold no datastore space: reported, never placed.
        let mut rdm_mib: HashMap<&VmKey, f64> = HashMap::new();
        for d in &inventory.disks {
            if d.raw == Some(true) {
                *rdm_mib.entry(&d.vm_key).or_default() += d.capacity_mib.unwrap_or(0.0);
            }
        }
        DiskSums {
            consumed_mib,
            rdm_mib,
        }
    }

    /// The VM's capacity, MiB: the chosen `basis` first, then in use, then provisioned,
    /// with a warning when it falls back; `None` when none is known.
    pub(super) fn capacity_mib(
        &self,
        vm: &Vm,
        key: &VmKey,
        basis: CapacityBasis,
        fallbacks: &mut Fallbacks,
    ) -> Option<f64> {
        let candidates = [
            (
                basis,
                match basis {
                    CapacityBasis::InUse => vm.in_use_mib,
                    CapacityBasis::Provisioned => vm.provisioned_mib,
                    CapacityBasis::GuestConsumed => self.consumed_mib.get(key).copied(),
                    CapacityBasis::Unshared => vm.unshared_mib,
                },
            ),
            (CapacityBasis::InUse, vm.in_use_mib),
            (CapacityBasis::Provisioned, vm.provisioned_mib),
        ];
        let found = candidates.iter().find_map(|(b, v)| v.map(|v| (*b, v)));
        found.map(|(used, v)| {
            if used != basis {
                fallbacks.0.push((used, vm.name.clone(), vm.origin.clone()));
            }
            v
        })
    }

    /// A warning for a VM with RDM disks, which are not planned.
    pub(super) fn rdm_warning(&self, vm: &Vm, key: &VmKey) -> Option<Warning> {
        let rdm = self.rdm_mib.get(key).filter(|r| **r > 0.0)?;
        Some(Warning::at_row(
            &vm.origin,
            format!(
                "VM '{}' has {} GiB of RDM disks: they need no datastore space and are \
                 not planned (migrate them separately)",
                crate::numbers::clip(&vm.name),
                crate::numbers::group_thousands(rdm / MIB_PER_GIB, 1)
            ),
        ))
    }
}

/// The VMs sized on a fall-back basis: (basis used, VM name, where it was read), in
/// inventory order.
#[derive(Default)]
pub(super) struct Fallbacks(Vec<(CapacityBasis, String, Origin)>);

impl Fallbacks {
    /// One warning per basis used instead of `basis`: how many VMs and the first few names,
    /// at the first VM's row.
    pub(super) fn warnings(&self, basis: CapacityBasis) -> Vec<Warning> {
        let mut out = Vec::new();
        for used in [CapacityBasis::InUse, CapacityBasis::Provisioned] {
            let vms: Vec<&(CapacityBasis, String, Origin)> =
                self.0.iter().filter(|f| f.0 == used).collect();
            let Some(first) = vms.first() else {
                continue;
            };
            out.push(Warning::at_row(
                &first.2,
                format!(
                    "{} VM(s) have no {} capacity; sized by their {} capacity instead: {}",
                    crate::numbers::group_thousands(vms.len() as f64, 0),
                    basis.as_str(),
                    used.as_str(),
                    crate::numbers::first_few(vms.iter().map(|f| format!("'{}'", f.1)), vms.len())
                ),
            ));
        }
        out
    }
}

/// With the unshared basis, a warning saying how much the in-use basis would add (space
/// VMs share, such as linked-clone base disks), so a small plan is not taken for the whole
/// estate; `None` for other bases or when nothing is shared.
pub(super) fn unshared_warning(inventory: &Inventory, basis: CapacityBasis) -> Option<Warning> {
    if basis != CapacityBasis::Unshared {
        return None;
    }
    let mut below = 0usize;
    let mut gap_mib = 0.0;
    for vm in &inventory.vms {
        if let (Some(u), Some(i)) = (vm.unshared_mib, vm.in_use_mib)
            && u < i
        {
            below += 1;
            gap_mib += i - u;
        }
    }
    (below > 0).then(|| Warning {
        file: inventory.inputs.join(", "),
        sheet: None,
        row: None,
        column: None,
        value: None,
        message: format!(
            "`capacity_basis` unshared: {below} VM(s) use {:.1} GiB more in use than \
             unshared (disks shared with other VMs, such as linked-clone bases); that \
             shared space is in no datastore of this plan",
            gap_mib / MIB_PER_GIB
        ),
        more_alike: 0,
    })
}

//! The capacity basis per VM: the chosen basis, falling back to in use then provisioned
//! with a warning; what RDM disks add and what is planned of them; what the unshared basis
//! leaves out.
//!
//! RDM disks (vDisk `Raw`): AVS has no raw device mappings, and a physical RDM's LUN is
//! not datastore space on the source, so the plan holds the VM's VMDK share, never its
//! RDMs. vInfo's `In Use MiB` (committed storage) and `Provisioned MiB` sometimes count an
//! RDM's mapped size and sometimes do not; the VM's own figures tell which:
//! - counted, when `Provisioned MiB` covers the capacity of all its vDisk rows, RDMs
//!   included: the basis figure less the RDM capacity is planned, never less than the
//!   disks it surely holds on a datastore (its thick non-RDM disks; on the provisioned
//!   basis all its non-RDM disks);
//! - not counted, when `Provisioned MiB` is less than that: the basis figure is planned as
//!   it is (it holds no RDM);
//! - unknown (no `Provisioned MiB`, or a non-RDM disk without a capacity): the basis figure
//!   is planned as it is, and the warning says it may hold up to the RDM capacity;
//! - on the guest-consumed basis the guest's figure counts what it keeps on the RDMs too,
//!   and is planned as it is (on AVS that data must live in a VMDK).
//!
//! Each VM with RDM disks gets one warning saying which case it is, the GiB planned and
//! what to do with the RDMs (move their data in-guest, or convert them to VMDKs, and plan
//! that space separately).

use std::collections::HashMap;

use crate::inventory::{Inventory, Origin, Vm, VmKey, Warning, WarningKind};

use super::{CapacityBasis, MIB_PER_GIB};

/// A VM's vDisk rows, summed: RDM capacity and what the other disks show.
#[derive(Debug, Clone, Copy, Default)]
struct VmDisks {
    /// Capacity of the RDM disks (`Raw` true), MiB.
    rdm_mib: f64,
    /// Capacity of the other disks, MiB.
    other_mib: f64,
    /// Capacity of the other disks that are thick (`Thin` false): datastore space they
    /// surely take, MiB.
    thick_mib: f64,
    /// Whether a non-RDM disk has no capacity (its size unknown).
    other_unknown: bool,
}

/// Per-VM sums over the disk and partition rows, by VM key.
pub(super) struct DiskSums<'a> {
    /// Guest-consumed capacity from vPartition, MiB (filled only for that basis).
    consumed_mib: HashMap<&'a VmKey, f64>,
    /// The VM's vDisk rows, summed.
    disks: HashMap<&'a VmKey, VmDisks>,
}

/// A VM's capacity on the basis (what is planned), MiB, with the RDM warning when it has
/// RDM disks.
pub(super) struct Sized {
    /// The capacity planned, MiB; `None` when unknown.
    pub(super) capacity_mib: Option<f64>,
    /// The VM's RDM warning: its RDM capacity, whether the basis figure counts it, the GiB
    /// planned and what to do.
    pub(super) rdm_warning: Option<Warning>,
}

impl<'a> DiskSums<'a> {
    /// Sums the inventory's partitions (for the guest-consumed `basis`) and disks.
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
        // At most one entry a VM: sized once, not grown by rehashing.
        let mut disks: HashMap<&VmKey, VmDisks> = HashMap::with_capacity(inventory.vms.len());
        for d in &inventory.disks {
            let sums = disks.entry(&d.vm_key).or_default();
            let capacity = d.capacity_mib.unwrap_or(0.0);
            if d.raw == Some(true) {
                sums.rdm_mib += capacity;
            } else {
                sums.other_mib += capacity;
                sums.other_unknown |= d.capacity_mib.is_none();
                if d.thin == Some(false) {
                    sums.thick_mib += capacity;
                }
            }
        }
        DiskSums {
            consumed_mib,
            disks,
        }
    }

    /// The VM's capacity: the chosen `basis` first, then in use, then provisioned (a
    /// warning in `fallbacks` when it falls back), less its RDM disks where the figure
    /// counts them (see the module docs), with the RDM warning.
    pub(super) fn size(
        &self,
        vm: &Vm,
        key: &VmKey,
        basis: CapacityBasis,
        fallbacks: &mut Fallbacks,
    ) -> Sized {
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
        if let Some((used, _)) = found
            && used != basis
        {
            fallbacks.0.push((used, vm.name.clone(), vm.origin.clone()));
        }
        let Some(disks) = self.disks.get(key).filter(|d| d.rdm_mib > 0.0) else {
            return Sized {
                capacity_mib: found.map(|(_, v)| v),
                rdm_warning: None,
            };
        };
        let (capacity_mib, planned) = match found {
            Some((used, v)) => {
                let (mib, words) = rdm_share(vm, disks, used, v);
                (Some(mib), words)
            }
            None => (
                None,
                "the VM has no capacity figure, so nothing is planned".into(),
            ),
        };
        let message = format!(
            "VM '{}' has {} GiB of RDM disks (vDisk `Raw`); {planned}. AVS has no RDMs: move \
             their data in-guest to a VMDK, or convert them to VMDKs, and plan that space \
             separately",
            crate::numbers::clip(&vm.name),
            gib(disks.rdm_mib)
        );
        Sized {
            capacity_mib,
            rdm_warning: Some(Warning::at_row(WarningKind::Estate, &vm.origin, message)),
        }
    }
}

/// GiB of `mib`, one decimal, thousands grouped.
fn gib(mib: f64) -> String {
    crate::numbers::group_thousands(mib / MIB_PER_GIB, 1)
}

/// The vInfo column a capacity basis reads (its field name), `None` for the guest-consumed
/// basis (vPartition's figures).
fn basis_column(basis: CapacityBasis) -> Option<&'static str> {
    match basis {
        CapacityBasis::InUse => Some("In Use MiB"),
        CapacityBasis::Provisioned => Some("Provisioned MiB"),
        CapacityBasis::Unshared => Some("Unshared MiB"),
        CapacityBasis::GuestConsumed => None,
    }
}

/// The VMDK share of a VM with RDM disks, MiB, from its figure `v` on basis `used`, and the
/// words saying what is planned (see the module docs for the rule).
fn rdm_share(vm: &Vm, disks: &VmDisks, used: CapacityBasis, v: f64) -> (f64, String) {
    let Some(column) = basis_column(used) else {
        return (
            v,
            format!(
                "the guest-consumed figure counts what the guest keeps on them too and is \
                 planned as it is: {} GiB",
                gib(v)
            ),
        );
    };
    let all_disks = disks.other_mib + disks.rdm_mib;
    match vm.provisioned_mib.filter(|_| !disks.other_unknown) {
        Some(p) if p >= all_disks => {
            let floor = if used == CapacityBasis::Provisioned {
                disks.other_mib
            } else {
                disks.thick_mib
            };
            let less = v - disks.rdm_mib;
            let (planned, raised) = if less >= floor {
                (less, String::new())
            } else {
                let what = if used == CapacityBasis::Provisioned {
                    "its other disks"
                } else {
                    "its thick disks"
                };
                (
                    floor,
                    format!(", raised to the {} GiB of {what}", gib(floor)),
                )
            };
            let words = format!(
                "vInfo counts them (its `Provisioned MiB`, {} GiB, covers its disks' {} GiB), \
                 so they are not planned: planned {} GiB = `{column}` {} GiB less the RDM \
                 {} GiB{raised}",
                gib(p),
                gib(all_disks),
                gib(planned),
                gib(v),
                gib(disks.rdm_mib)
            );
            (planned, words)
        }
        Some(p) => (
            v,
            format!(
                "vInfo does not count them (its `Provisioned MiB`, {} GiB, is less than its \
                 disks' {} GiB), so they are not planned: planned {} GiB = `{column}`",
                gib(p),
                gib(all_disks),
                gib(v)
            ),
        ),
        None => (
            v,
            format!(
                "whether vInfo counts them cannot be told (no `Provisioned MiB`, or a disk \
                 without a capacity), so `{column}` is planned as it is: {} GiB, which may \
                 hold up to the RDM {} GiB",
                gib(v),
                gib(disks.rdm_mib)
            ),
        ),
    }
}

/// The VMs sized on a fall-back basis: (basis used, VM name, where it was read), in
/// inventory order.
#[derive(Default)]
pub(super) struct Fallbacks(Vec<(CapacityBasis, String, Origin)>);

impl Fallbacks {
    /// One warning per basis used instead of `basis`: how many VMs and the first few names.
    /// A `value` warning at the first VM's row when the inputs have `basis`'s column (its
    /// cells are empty or unreadable); a `layout` warning about the first VM's sheet,
    /// naming the column, when no input's vInfo has it (`basis_column`: the column's field
    /// name, as [`Inventory::sources`]' `vinfo_headers` key it).
    pub(super) fn warnings(&self, basis: CapacityBasis, inventory: &Inventory) -> Vec<Warning> {
        let column = basis_column(basis);
        let column_missing = column.is_some_and(|c| {
            !inventory
                .sources
                .iter()
                .any(|s| s.vinfo_headers.contains_key(c))
        });
        let mut out = Vec::new();
        for used in [CapacityBasis::InUse, CapacityBasis::Provisioned] {
            let vms: Vec<&(CapacityBasis, String, Origin)> =
                self.0.iter().filter(|f| f.0 == used).collect();
            let Some(first) = vms.first() else {
                continue;
            };
            let message = format!(
                "{} VM(s) have no {} capacity; sized by their {} capacity instead: {}",
                crate::numbers::group_thousands(vms.len() as f64, 0),
                basis.as_str(),
                used.as_str(),
                crate::numbers::first_few(vms.iter().map(|f| format!("'{}'", f.1)), vms.len())
            );
            out.push(match column {
                Some(c) if column_missing => Warning::in_sheet(
                    WarningKind::Layout,
                    &first.2.file,
                    &first.2.sheet,
                    format!("no `{c}` column: {message}"),
                ),
                _ => Warning::at_row(WarningKind::Value, &first.2, message),
            });
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
        kind: WarningKind::Setting,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::VirtualDisk;

    const GIB: f64 = MIB_PER_GIB;

    /// VM `a` with `provisioned` and `in_use` GiB (`None`: unknown).
    fn vm(provisioned: Option<f64>, in_use: Option<f64>) -> Vm {
        Vm {
            provisioned_mib: provisioned.map(|g| g * GIB),
            in_use_mib: in_use.map(|g| g * GIB),
            ..Vm::new("a", Origin::default())
        }
    }

    /// A vDisk row of `vm`: `gib` GiB (`None`: no capacity), RDM or not, thin or not.
    fn disk(vm: &Vm, gib: Option<f64>, raw: bool, thin: Option<bool>) -> VirtualDisk {
        VirtualDisk {
            vm: vm.name.clone(),
            vm_key: vm.key(),
            disk: None,
            disk_key: None,
            capacity_mib: gib.map(|g| g * GIB),
            raw: Some(raw),
            thin,
            disk_mode: None,
            path: None,
            datastore: None,
            controller: None,
            origin: Origin::default(),
        }
    }

    /// The GiB planned for the inventory's one VM on `basis`, and its RDM warning.
    fn planned(vm: Vm, disks: Vec<VirtualDisk>, basis: CapacityBasis) -> (Option<f64>, String) {
        let key = vm.key();
        let inventory = Inventory {
            vms: vec![vm],
            disks,
            ..Inventory::default()
        };
        let sums = DiskSums::of(&inventory, basis);
        let sized = sums.size(&inventory.vms[0], &key, basis, &mut Fallbacks::default());
        let message = sized.rdm_warning.map(|w| w.message).unwrap_or_default();
        (sized.capacity_mib.map(|m| m / GIB), message)
    }

    #[test]
    fn an_rdm_counted_in_vinfo_is_taken_off() {
        // Disks: 100 GiB thick + 1,000 GiB thin + a 2,048 GiB RDM = 3,148 GiB; Provisioned
        // 3,500 GiB covers them, so vInfo counts the RDM. In use: 2,600 - 2,048 = 552 GiB
        // (above the 100 GiB thick floor). Provisioned: 3,500 - 2,048 = 1,452 GiB (above
        // the 1,100 GiB of the other disks).
        let a = vm(Some(3_500.0), Some(2_600.0));
        let disks = vec![
            disk(&a, Some(100.0), false, Some(false)),
            disk(&a, Some(1_000.0), false, Some(true)),
            disk(&a, Some(2_048.0), true, None),
        ];
        let (gib, w) = planned(a.clone(), disks.clone(), CapacityBasis::InUse);
        assert_eq!(gib, Some(552.0));
        assert!(
            w.contains(
                "vInfo counts them (its `Provisioned MiB`, 3,500.0 GiB, covers its disks' \
                 3,148.0 GiB), so they are not planned: planned 552.0 GiB = `In Use MiB` \
                 2,600.0 GiB less the RDM 2,048.0 GiB. AVS has no RDMs"
            ),
            "{w}"
        );
        let (gib, _) = planned(a, disks, CapacityBasis::Provisioned);
        assert_eq!(gib, Some(1_452.0));
    }

    #[test]
    fn the_vmdk_share_never_goes_below_the_thick_disks() {
        // In use 2,100 GiB - RDM 2,048 GiB = 52 GiB, less than the 100 GiB thick disk:
        // 100 GiB planned, and the warning says it was raised.
        let a = vm(Some(3_500.0), Some(2_100.0));
        let disks = vec![
            disk(&a, Some(100.0), false, Some(false)),
            disk(&a, Some(2_048.0), true, None),
        ];
        let (gib, w) = planned(a, disks, CapacityBasis::InUse);
        assert_eq!(gib, Some(100.0));
        assert!(
            w.contains("planned 100.0 GiB = `In Use MiB` 2,100.0 GiB less the RDM 2,048.0 GiB, raised to the 100.0 GiB of its thick disks"),
            "{w}"
        );
    }

    #[test]
    fn an_rdm_vinfo_does_not_count_or_may_count_is_planned_as_read() {
        // Provisioned 1,024 GiB < disks 1,024 + 2,048 = 3,072 GiB: vInfo leaves the RDM
        // out, in use 800 GiB planned as it is.
        let a = vm(Some(1_024.0), Some(800.0));
        let rdm = disk(&a, Some(2_048.0), true, None);
        let other = disk(&a, Some(1_024.0), false, Some(true));
        let (gib, w) = planned(a.clone(), vec![other, rdm.clone()], CapacityBasis::InUse);
        assert_eq!(gib, Some(800.0));
        assert!(w.contains("vInfo does not count them"), "{w}");
        assert!(w.contains("planned 800.0 GiB = `In Use MiB`"), "{w}");
        // A non-RDM disk without a capacity: cannot be told, in use planned as it is.
        let unknown = disk(&a, None, false, Some(true));
        let (gib, w) = planned(a, vec![unknown, rdm.clone()], CapacityBasis::InUse);
        assert_eq!(gib, Some(800.0));
        assert!(w.contains("may hold up to the RDM 2,048.0 GiB"), "{w}");
        // No Provisioned MiB: the same.
        let b = vm(None, Some(3_000.0));
        let (gib, w) = planned(b, vec![rdm], CapacityBasis::InUse);
        assert_eq!(gib, Some(3_000.0));
        assert!(w.contains("cannot be told (no `Provisioned MiB`"), "{w}");
    }

    #[test]
    fn a_vm_without_rdm_disks_has_no_rdm_warning() {
        let a = vm(Some(100.0), Some(50.0));
        let disks = vec![disk(&a, Some(100.0), false, Some(true))];
        assert_eq!(
            planned(a, disks, CapacityBasis::InUse),
            (Some(50.0), String::new())
        );
    }

    proptest::proptest! {
        /// Whatever the figures: what is planned is never more than the basis figure or
        /// its thick disks (whichever is larger), never less than the basis figure less
        /// the RDMs, and never negative.
        #[test]
        fn the_planned_share_stays_between_its_bounds(
            provisioned in proptest::option::of(0.0f64..10_000.0),
            in_use in 0.0f64..10_000.0,
            thick in 0.0f64..5_000.0,
            thin in 0.0f64..5_000.0,
            rdm in 0.0f64..5_000.0,
        ) {
            let a = vm(provisioned, Some(in_use));
            let disks = vec![
                disk(&a, Some(thick), false, Some(false)),
                disk(&a, Some(thin), false, Some(true)),
                disk(&a, Some(rdm), true, None),
            ];
            let (gib, _) = planned(a, disks, CapacityBasis::InUse);
            let gib = gib.unwrap_or(-1.0);
            proptest::prop_assert!(gib >= 0.0);
            proptest::prop_assert!(gib <= in_use.max(thick) + 1e-9);
            proptest::prop_assert!(gib >= in_use - rdm - 1e-9);
        }
    }
}

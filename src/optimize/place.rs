//! VM placement: largest first onto the datastore with the most room; a VM that must
//! spread (per-VM performance) goes in equal parts onto the datastores with the most room.

use std::collections::BTreeMap;

use crate::demand::{Demand, VmDemand};
use crate::inventory::{Warning, WarningKind};
use crate::plan::{DatastorePlan, Placement};

/// Places every VM: largest first onto the datastore with the most room, where a
/// datastore's room is `fill_share x size` (the part growth and headroom leave to today's
/// data) minus what is already placed; this balances capacity and keeps every datastore's
/// headroom. A VM larger than any datastore's room is split over the datastores with the
/// most room (its VMDKs must be spread), with a warning. Since the pool holds
/// `(1 + growth)(1 + headroom)` x the data, the rooms always add up to enough.
pub(super) fn place_vms(
    demand: &Demand,
    ds: &mut [DatastorePlan],
    fill_share: f64,
    spread_over: &BTreeMap<(String, String, usize), u32>,
) -> (Vec<Placement>, Vec<Warning>) {
    let mut placements = Vec::with_capacity(demand.placed.len());
    let mut warnings = Vec::new();
    for i in largest_first(demand) {
        let vm = &demand.placed[i];
        // The key clones two strings: only built when some VM spreads (per-VM figures).
        let spread = (!spread_over.is_empty())
            .then(|| {
                let key = (
                    vm.origin.file.to_string(),
                    vm.origin.sheet.to_string(),
                    vm.origin.row,
                );
                spread_over.get(&key).copied()
            })
            .flatten();
        if let Some(k) = spread
            && place_spread(vm, k, ds, fill_share, &mut placements)
        {
            continue;
        }
        place_by_room(vm, ds, fill_share, &mut placements, &mut warnings);
    }
    (placements, warnings)
}

/// Indexes of the placed VMs, largest first (ties by name, then inventory order).
fn largest_first(demand: &Demand) -> Vec<usize> {
    let mut order: Vec<usize> = (0..demand.placed.len()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (&demand.placed[a], &demand.placed[b]);
        vb.capacity_gib
            .total_cmp(&va.capacity_gib)
            .then_with(|| va.name.cmp(&vb.name))
            .then_with(|| a.cmp(&b))
    });
    order
}

/// A datastore's room for today's data, GiB.
fn room(d: &DatastorePlan, fill_share: f64) -> f64 {
    (d.size_gib * fill_share - d.placed_capacity_gib).max(0.0)
}

/// A VM whose load needs `k` datastores gets its VMDKs in `k` equal parts on the `k`
/// datastores with the most room, when they hold them; returns whether it was placed.
fn place_spread(
    vm: &VmDemand,
    k: u32,
    ds: &mut [DatastorePlan],
    fill_share: f64,
    placements: &mut Vec<Placement>,
) -> bool {
    if k <= 1 || (k as usize) > ds.len() {
        return false;
    }
    let mut by_room: Vec<usize> = (0..ds.len()).collect();
    by_room.sort_by(|&a, &b| {
        room(&ds[b], fill_share)
            .total_cmp(&room(&ds[a], fill_share))
            .then(a.cmp(&b))
    });
    let chosen = &by_room[..k as usize];
    let part = vm.capacity_gib / f64::from(k);
    if !chosen
        .iter()
        .all(|&j| room(&ds[j], fill_share) + 1e-9 >= part)
    {
        return false;
    }
    for &j in chosen {
        placements.push(put(&mut ds[j], vm, part));
    }
    true
}

/// Places a VM whole onto the datastore with the most room, or, when it is larger than
/// any room, in parts onto the datastores with the most room, with a warning.
fn place_by_room(
    vm: &VmDemand,
    ds: &mut [DatastorePlan],
    fill_share: f64,
    placements: &mut Vec<Placement>,
    warnings: &mut Vec<Warning>,
) {
    let mut left = vm.capacity_gib;
    let mut first = true;
    // most room; ties to the lowest index
    while let Some(j) = (0..ds.len()).max_by(|&a, &b| {
        room(&ds[a], fill_share)
            .total_cmp(&room(&ds[b], fill_share))
            .then(b.cmp(&a))
    }) {
        let free = room(&ds[j], fill_share);
        // Whole VM when it fits (or when every datastore is full but for rounding).
        let part = if left <= free + 1e-9 || free < 1e-6 {
            left
        } else {
            free
        };
        if first && part < left {
            warnings.push(Warning::at_row(
                WarningKind::Plan,
                &vm.origin,
                format!(
                    "VM '{}' ({:.1} GiB) is larger than the room on any one datastore \
                     ({:.1} GiB with growth and headroom kept): its VMDKs must be spread \
                     over several datastores",
                    crate::numbers::clip(&vm.name),
                    vm.capacity_gib,
                    free
                ),
            ));
        }
        first = false;
        placements.push(put(&mut ds[j], vm, part));
        left -= part;
        if left <= 1e-9 {
            break;
        }
    }
}

/// Records `part` GiB of `vm` on datastore `d` and returns its placement.
fn put(d: &mut DatastorePlan, vm: &VmDemand, part: f64) -> Placement {
    d.placed_capacity_gib += part;
    d.vm_count += 1;
    Placement {
        vm: vm.name.clone(),
        origin: vm.origin.clone(),
        datastore: d.name.clone(),
        capacity_gib: part,
    }
}

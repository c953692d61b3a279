//! What a session costs the server's memory budget (`--memory-budget-mib`): the inventory
//! it keeps, estimated from its records and their text, and the plan made from it, a
//! multiple of that measured on large estates (BENCHMARKS.md, "serve: memory budget").
//! Also the most rows an upload may have in one tab for the budget to hold it, checked
//! while the upload is read (`ingest::ReadLimits`).

use std::mem::size_of;

use crate::inventory::{
    Cluster, Datastore, DuplicateVm, Host, Inventory, Origin, Partition, Snapshot, Source,
    VirtualDisk, Vm, Warning,
};

/// What planning a kept inventory takes besides the inventory, as a multiple of
/// [`kept_bytes`]: 3, so a session is charged 4 times its estimate. Measured on a release
/// build (BENCHMARKS.md, "serve: memory budget"): a vInfo CSV of 200,000 VMs is estimated
/// at 123 MiB (645 bytes a VM); the server's RSS rose 186 MiB keeping it (the allocator
/// and the vectors' spare capacity, which the estimate leaves out) and peaked 408 MiB
/// above idle while planning it, 3.3 times the estimate.
pub const PLAN_FACTOR: u64 = 3;

/// The least a session is charged, bytes: 64 KiB (a tiny upload's inventory, its session
/// entry and the allocator's rounding), so a flood of empty uploads fills the budget too.
pub const MIN_CHARGE_BYTES: u64 = 64 << 10;

/// Kept bytes per row an upload's tab is assumed to become while it is read: 600 (a
/// `Vm` is 416 bytes before its names; the 200,000-VM CSV of [`PLAN_FACTOR`] took 645),
/// so the row cap is `budget / (600 x (1 + PLAN_FACTOR))`: 447,392 rows for the default
/// 1,024 MiB. The rows past it are parsed, not kept, and the upload is refused.
pub const ROW_BYTES: u64 = 600;

/// Allocator overhead counted per heap allocation (a `String`'s or `Vec`'s buffer), bytes.
const ALLOCATION_BYTES: u64 = 16;

/// What a session of `inventory` is charged: its kept bytes ([`kept_bytes`]) and
/// [`PLAN_FACTOR`] times that for its plan, at least [`MIN_CHARGE_BYTES`].
pub fn charge_bytes(inventory: &Inventory) -> u64 {
    kept_bytes(inventory)
        .saturating_mul(1 + PLAN_FACTOR)
        .max(MIN_CHARGE_BYTES)
}

/// Most rows one tab of an upload may have within `budget_bytes`: the budget over
/// [`ROW_BYTES`] x (1 + [`PLAN_FACTOR`]), at least 1.
pub fn max_rows(budget_bytes: u64) -> usize {
    let rows = budget_bytes / (ROW_BYTES * (1 + PLAN_FACTOR));
    usize::try_from(rows).unwrap_or(usize::MAX).max(1)
}

/// An estimate of the heap and inline bytes an inventory takes: each record's size and
/// the bytes of its text, with `ALLOCATION_BYTES` per string.
pub fn kept_bytes(inventory: &Inventory) -> u64 {
    let Inventory {
        inputs,
        vms,
        warnings,
        sources,
        disks,
        partitions,
        hosts,
        clusters,
        datastores,
        snapshots,
        duplicates,
    } = inventory;
    let strings: u64 = inputs.iter().map(|s| text(s)).sum();
    strings
        + records(vms, vm_bytes)
        + records(warnings, warning_bytes)
        + records(sources, source_bytes)
        + records(disks, disk_bytes)
        + records(partitions, partition_bytes)
        + records(hosts, host_bytes)
        + records(clusters, cluster_bytes)
        + records(datastores, datastore_bytes)
        + records(snapshots, snapshot_bytes)
        + records(duplicates, duplicate_bytes)
}

fn duplicate_bytes(d: &DuplicateVm) -> u64 {
    text(&d.name) + origin(&d.origin) + origin(&d.copy_of)
}

/// The inline size of `T` per record and `heap` of each.
fn records<T>(items: &[T], heap: impl Fn(&T) -> u64) -> u64 {
    let inline = std::mem::size_of_val(items) as u64;
    inline + items.iter().map(heap).sum::<u64>()
}

fn text(s: &str) -> u64 {
    if s.is_empty() {
        0
    } else {
        s.len() as u64 + ALLOCATION_BYTES
    }
}

fn opt(s: &Option<String>) -> u64 {
    s.as_deref().map_or(0, text)
}

/// [`opt`] over several fields.
fn opts(fields: &[&Option<String>]) -> u64 {
    fields.iter().map(|f| opt(f)).sum()
}

fn origin(o: &Origin) -> u64 {
    text(&o.file) + text(&o.sheet)
}

fn vm_bytes(vm: &Vm) -> u64 {
    text(&vm.name)
        + origin(&vm.origin)
        + opts(&[
            &vm.cluster,
            &vm.host,
            &vm.datacenter,
            &vm.path,
            &vm.home_datastore,
            &vm.vi_sdk_server,
            &vm.vm_id,
            &vm.vm_uuid,
            &vm.vi_sdk_uuid,
        ])
}

fn warning_bytes(w: &Warning) -> u64 {
    text(&w.file) + opt(&w.sheet) + opt(&w.column) + opt(&w.value) + text(&w.message)
}

fn source_bytes(s: &Source) -> u64 {
    let headers = [
        &s.vinfo_headers,
        &s.vdatastore_headers,
        &s.vcpu_headers,
        &s.vmemory_headers,
    ]
    .into_iter()
    .flatten()
    .map(|(k, v)| text(k) + text(v) + 2 * size_of::<String>() as u64)
    .sum::<u64>();
    text(&s.file) + text(&s.format) + s.tabs.iter().map(|t| text(t)).sum::<u64>() + headers
}

fn disk_bytes(d: &VirtualDisk) -> u64 {
    text(&d.vm)
        + text(&d.vm_key.0)
        + origin(&d.origin)
        + opts(&[
            &d.disk,
            &d.disk_key,
            &d.disk_mode,
            &d.path,
            &d.datastore,
            &d.controller,
        ])
}

fn partition_bytes(p: &Partition) -> u64 {
    text(&p.vm) + text(&p.vm_key.0) + origin(&p.origin) + opt(&p.disk) + opt(&p.disk_key)
}

fn host_bytes(h: &Host) -> u64 {
    text(&h.name)
        + origin(&h.origin)
        + opt(&h.datacenter)
        + opt(&h.cluster)
        + opt(&h.esx_version)
        + opt(&h.vi_sdk_server)
}

fn cluster_bytes(c: &Cluster) -> u64 {
    text(&c.name) + origin(&c.origin) + opt(&c.vi_sdk_server)
}

fn datastore_bytes(d: &Datastore) -> u64 {
    text(&d.name)
        + origin(&d.origin)
        + d.hosts
            .iter()
            .map(|h| text(h) + size_of::<String>() as u64)
            .sum::<u64>()
        + opts(&[
            &d.datastore_type,
            &d.datastore_cluster,
            &d.address,
            &d.url,
            &d.vi_sdk_server,
        ])
}

fn snapshot_bytes(s: &Snapshot) -> u64 {
    text(&s.vm) + text(&s.vm_key.0) + origin(&s.origin) + opt(&s.name) + opt(&s.date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charge_counts_records_text_and_the_plan() {
        // One VM named "vm1" from "a.csv", sheet "vInfo": size_of::<Vm>() inline, then
        // (3 + 16) + (5 + 16) + (5 + 16) = 61 bytes of text; the input name 5 + 16 = 21.
        let inventory = Inventory {
            inputs: vec!["a.csv".into()],
            vms: vec![Vm {
                name: "vm1".into(),
                origin: Origin {
                    file: "a.csv".into(),
                    sheet: "vInfo".into(),
                    row: 2,
                },
                ..Vm::default()
            }],
            ..Inventory::default()
        };
        let kept = size_of::<Vm>() as u64 + 61 + 21;
        assert_eq!(kept_bytes(&inventory), kept);
        // Far below the least charge: 64 KiB.
        assert_eq!(charge_bytes(&inventory), 64 << 10);
        // 10,000 such VMs: 4 x their bytes.
        let many = Inventory {
            vms: vec![inventory.vms[0].clone(); 10_000],
            ..Inventory::default()
        };
        assert_eq!(
            charge_bytes(&many),
            4 * 10_000 * (size_of::<Vm>() as u64 + 61)
        );
    }

    #[test]
    fn row_cap_follows_the_budget() {
        // 1,024 MiB / (600 x 4) = 1,073,741,824 / 2,400 = 447,392 (rounded down).
        assert_eq!(max_rows(1 << 30), 447_392);
        assert_eq!(max_rows(0), 1);
    }
}

//! What a session costs the server's memory budget (`--memory-budget-mib`): the inventory
//! it keeps, estimated from its records and their text, and while it is planned the plan,
//! a share of that; both measured on large estates (BENCHMARKS.md, "serve: the budget is
//! real"). Also the most rows an upload may have in one tab for the budget left to hold it,
//! checked while the upload is read (`ingest::ReadLimits`: the reading ends at the first
//! row past it).

use std::mem::size_of;

use crate::inventory::{
    Cluster, Datastore, DuplicateVm, Host, Inventory, Origin, Partition, Snapshot, Source,
    VirtualDisk, Vm, Warning,
};

/// What a session holds, as a share of [`kept_bytes`]: 3/2 (the allocator's rounding and
/// the vectors' spare capacity, which the estimate leaves out). Measured on a release build
/// (BENCHMARKS.md, "serve: the budget is real"): a vInfo CSV of 300,000 VMs is estimated at
/// 228 MiB (797 bytes a VM); the server's RSS rose 317 MiB keeping it, 1.39 times.
pub const KEPT_NUM: u64 = 3;
/// The denominator of [`KEPT_NUM`].
pub const KEPT_DEN: u64 = 2;

/// What a session holds besides its inventory, bytes: 8 KiB (its entry, ids, lock and the
/// small allocations of an inventory's sources and warnings). Measured: 3,000 uploads of a
/// 2-VM CSV raised the server's RSS 17 MiB, 5.9 KiB each.
pub const SESSION_BYTES: u64 = 8 << 10;

/// What planning a kept inventory takes while it runs, as a share of [`kept_bytes`]: 1.
/// Measured: planning the 300,000 VMs of [`KEPT_NUM`] peaked 160 MiB over the kept
/// session, 0.70 times the estimate.
pub const PLAN_NUM: u64 = 1;

/// Peak bytes per row while an upload is read: 1,536. Measured: reading the 300,000-VM CSV
/// of [`KEPT_NUM`] (81 MB) peaked 351 MiB over idle and the upload's own bytes, 1,227 bytes
/// a row (the rows kept, their vector's growth, the merge). So the rows of one tab are
/// capped at the budget left over 1,536: 699,050 rows for an idle 1,024 MiB budget.
pub const PARSE_ROW_BYTES: u64 = 1536;

/// Allocator overhead counted per heap allocation (a `String`'s or `Vec`'s buffer), bytes.
const ALLOCATION_BYTES: u64 = 16;

/// What a session of `inventory` is charged while it is kept: [`kept_bytes`] x
/// [`KEPT_NUM`] / [`KEPT_DEN`] + [`SESSION_BYTES`].
pub fn charge_bytes(inventory: &Inventory) -> u64 {
    let kept = kept_bytes(inventory);
    (kept.saturating_mul(KEPT_NUM) / KEPT_DEN).saturating_add(SESSION_BYTES)
}

/// What a plan of `inventory` is charged while it runs: [`kept_bytes`] x [`PLAN_NUM`].
pub fn plan_bytes(inventory: &Inventory) -> u64 {
    kept_bytes(inventory).saturating_mul(PLAN_NUM)
}

/// Most rows one tab of an upload may have within `room_bytes` (the budget left):
/// `room_bytes` / [`PARSE_ROW_BYTES`], at least 1.
pub fn max_rows(room_bytes: u64) -> usize {
    let rows = room_bytes / PARSE_ROW_BYTES;
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

fn opt<S: std::ops::Deref<Target = str>>(s: &Option<S>) -> u64 {
    s.as_deref().map_or(0, text)
}

/// [`opt`] over several fields. A text records share (`Arc<str>`, one copy per read) is
/// charged to every record that holds it: an over-estimate, on the safe side.
fn opts(fields: &[Option<&str>]) -> u64 {
    fields.iter().map(|f| f.map_or(0, text)).sum()
}

fn origin(o: &Origin) -> u64 {
    text(&o.file) + text(&o.sheet)
}

fn vm_bytes(vm: &Vm) -> u64 {
    text(&vm.name)
        + origin(&vm.origin)
        + opts(&[
            vm.cluster.as_deref(),
            vm.host.as_deref(),
            vm.datacenter.as_deref(),
            vm.path.as_deref(),
            vm.home_datastore.as_deref(),
            vm.vi_sdk_server.as_deref(),
            vm.vm_id.as_deref(),
            vm.vm_uuid.as_deref(),
            vm.vi_sdk_uuid.as_deref(),
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
            d.disk.as_deref(),
            d.disk_key.as_deref(),
            d.disk_mode.as_deref(),
            d.path.as_deref(),
            d.datastore.as_deref(),
            d.controller.as_deref(),
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
            d.datastore_type.as_deref(),
            d.datastore_cluster.as_deref(),
            d.address.as_deref(),
            d.url.as_deref(),
            d.vi_sdk_server.as_deref(),
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
        // 3/2 of it and the session's 8,192 bytes; its plan 1 x.
        assert_eq!(charge_bytes(&inventory), kept * 3 / 2 + 8192);
        assert_eq!(plan_bytes(&inventory), kept);
        // 10,000 such VMs: 3/2 of their bytes and one session's.
        let many = Inventory {
            vms: vec![inventory.vms[0].clone(); 10_000],
            ..Inventory::default()
        };
        let vm = size_of::<Vm>() as u64 + 61;
        assert_eq!(charge_bytes(&many), 10_000 * vm * 3 / 2 + 8192);
        // 20,000 sessions of one tiny VM hold well under 1 GiB: about 20,000 x 9 KiB.
        assert!(20_000 * charge_bytes(&inventory) < 200 << 20);
    }

    #[test]
    fn row_cap_follows_the_budget_left() {
        // 1,024 MiB / 1,536 = 1,073,741,824 / 1,536 = 699,050 (rounded down).
        assert_eq!(max_rows(1 << 30), 699_050);
        assert_eq!(max_rows(0), 1);
    }
}

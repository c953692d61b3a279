//! An inventory summary as text: the inputs, one row per cluster and the total, a
//! footnote on unknown values, and the warnings.

use std::fmt::Write as _;

use crate::inventory::{ClusterSummary, Inventory, InventorySummary, SheetWords};
use crate::numbers::group_thousands;

use crate::report::InventoryReport;
use crate::report::text::render::{columns, padded};
use crate::report::text::write_warnings;

/// The number columns of the table, after the cluster name and before the datastores.
const COLUMNS: [&str; 11] = [
    "VMs",
    "templates",
    "on",
    "off",
    "suspended",
    "vCPUs",
    "memory GiB",
    "consumed GiB",
    "provisioned TiB",
    "in use TiB",
    "hosts",
];

/// The inventory as text: inputs, header, a row per cluster, the total row, the footnote on
/// unknown values and the warnings.
pub(in crate::report) fn inventory_text(
    inventory: &Inventory,
    report: &InventoryReport<'_>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "inputs: {}", inventory.inputs.join(", "));
    // The cluster column fits the longest label (`Cluster1 (vc-a.corp/DC2)`), 24 at least.
    let width = report
        .cluster_details
        .iter()
        .filter_map(|d| d.cluster.as_deref())
        .map(columns)
        .max()
        .unwrap_or(0)
        .max(24);
    let _ = write!(s, "{:<width$}", "cluster");
    for h in COLUMNS {
        let _ = write!(s, " {h:>w$}", w = h.len().max(6));
    }
    let _ = writeln!(s, "  datastores");
    for d in &report.cluster_details {
        let name = d.cluster.as_deref().unwrap_or("(none)");
        if let Some(v) = report.clusters.get(name) {
            row(&mut s, width, name, v, d);
        }
    }
    row(
        &mut s,
        width,
        "total",
        &report.summary,
        &estate_total(inventory, report),
    );
    let sm = &report.summary;
    if sm.provisioned_unknown > 0 || sm.in_use_unknown > 0 {
        let _ = writeln!(
            s,
            "* sum of the known values only: {} VM(s) without provisioned, {} without \
             in-use capacity; 'unknown' = no VM of the row has a value",
            count(sm.provisioned_unknown as u64),
            count(sm.in_use_unknown as u64)
        );
    }
    memory_basis(&mut s, sm, inventory.sheet_words());
    templates_counted(&mut s, sm);
    hosts_sources(&mut s, &report.cluster_details);
    write_warnings(&mut s, &inventory.warnings);
    s
}

/// Where each cluster's host count came from, one line per cluster.
fn hosts_sources(s: &mut String, details: &[ClusterSummary]) {
    for d in details {
        let name = d.cluster.as_deref().unwrap_or("(none)");
        let _ = writeln!(
            s,
            "hosts of {name}: {} from {}",
            count(d.host_count as u64),
            d.hosts_source
        );
    }
}

/// The line on the memory bases: configured (vInfo `Memory`) and consumed (vMemory
/// `Consumed`, or the inputs' own sheet: `words`), with how many VMs have a consumed
/// figure.
fn memory_basis(s: &mut String, sm: &InventorySummary, words: &SheetWords) {
    let from = words.consumed_memory;
    let configured = gib_or_unknown(sm.memory_mib, sm.memory_unknown, sm.vm_count);
    if sm.memory_consumed_vms == 0 {
        let _ = writeln!(
            s,
            "memory: {configured} GiB configured; consumed unknown (no VM has a {from} \
             figure)"
        );
    } else {
        let _ = writeln!(
            s,
            "memory: {configured} GiB configured; {} GiB consumed ({from}) for {} of {} VMs",
            group_thousands(sm.memory_consumed_mib / 1024.0, 0),
            count(sm.memory_consumed_vms as u64),
            count(sm.vm_count as u64)
        );
    }
}

/// Says that templates are counted like VMs (a plan leaves them out by default), when
/// there are any: their vCPUs, memory and capacity are in the table, and warnings about
/// their rows in the warnings.
fn templates_counted(s: &mut String, sm: &InventorySummary) {
    if sm.template_count == 0 {
        return;
    }
    let _ = writeln!(
        s,
        "templates: {} of the {} VMs, counted like the others in every column above (their \
         vCPUs, memory and capacity) and in the warnings; a plan leaves them out unless \
         `include_templates`",
        group_thousands(sm.template_count as f64, 0),
        group_thousands(sm.vm_count as f64, 0)
    );
}

/// One row of the table, its name in `width` characters: counts and totals from `v`,
/// vCPUs, memory, hosts and datastores from `d`.
fn row(s: &mut String, width: usize, name: &str, v: &InventorySummary, d: &ClusterSummary) {
    let cells = [
        count(v.vm_count as u64),
        count(v.template_count as u64),
        count(v.powered_on_count as u64),
        count(v.powered_off_count as u64),
        count(v.suspended_count as u64),
        count_or_unknown(d.vcpus, d.vcpus_unknown, d.vm_count),
        gib_or_unknown(d.memory_mib, d.memory_unknown, d.vm_count),
        consumed_gib(v),
        tib_or_unknown(v.provisioned_mib, v.provisioned_unknown, v.vm_count),
        tib_or_unknown(v.in_use_mib, v.in_use_unknown, v.vm_count),
        count(d.host_count as u64),
    ];
    let _ = write!(s, "{}", padded(name, width, false));
    for (cell, h) in cells.iter().zip(COLUMNS) {
        let _ = write!(s, " {cell:>w$}", w = h.len().max(6));
    }
    let ds: Vec<String> = d
        .datastores_by_type
        .iter()
        .map(|(t, n)| format!("{} {t}", count(*n as u64)))
        .collect();
    let _ = writeln!(
        s,
        "  {}",
        if ds.is_empty() {
            "-".to_string()
        } else {
            ds.join(", ")
        }
    );
}

/// The total row's vCPUs, memory, hosts and datastores: the clusters' sums, and every
/// datastore of the inventory by type.
fn estate_total(inventory: &Inventory, report: &InventoryReport<'_>) -> ClusterSummary {
    let mut total = ClusterSummary::default();
    for d in &report.cluster_details {
        total.vm_count += d.vm_count;
        total.vcpus += d.vcpus;
        total.vcpus_unknown += d.vcpus_unknown;
        total.memory_mib += d.memory_mib;
        total.memory_unknown += d.memory_unknown;
    }
    // The column's sum: each cluster counts its VMs' hosts and its vHost rows.
    total.host_count = report.cluster_details.iter().map(|d| d.host_count).sum();
    for ds in &inventory.datastores {
        let t = ds
            .datastore_type
            .clone()
            .unwrap_or_else(|| "unknown".into());
        *total.datastores_by_type.entry(t).or_default() += 1;
    }
    total
}

/// A MiB total as TiB for the inventory table: `unknown` when no VM of the row has a value,
/// a trailing `*` when some lack one.
fn tib_or_unknown(total_mib: f64, unknown: usize, vms: usize) -> String {
    if vms > 0 && unknown == vms {
        "unknown".into()
    } else if unknown > 0 {
        format!("{}*", group_thousands(total_mib / 1024.0 / 1024.0, 2))
    } else {
        group_thousands(total_mib / 1024.0 / 1024.0, 2)
    }
}

/// A count for the inventory table: `unknown` when no VM of the row has a value, a
/// trailing `*` when some lack one.
fn count_or_unknown(total: u64, unknown: usize, vms: usize) -> String {
    if vms > 0 && unknown == vms {
        "unknown".into()
    } else if unknown > 0 {
        format!("{}*", count(total))
    } else {
        count(total)
    }
}

/// A count with its thousands grouped (`2,268`), as every count of the table.
fn count(n: u64) -> String {
    group_thousands(n as f64, 0)
}

/// The consumed memory of a row (vMemory `Consumed`), GiB: `unknown` when no VM of the row
/// has a consumed figure, a row of no VMs too (a header-only vInfo: the memory line says
/// unknown, so does the table), a trailing `*` when some lack one.
fn consumed_gib(v: &InventorySummary) -> String {
    if v.memory_consumed_vms == 0 {
        return "unknown".into();
    }
    gib_or_unknown(
        v.memory_consumed_mib,
        v.vm_count - v.memory_consumed_vms,
        v.vm_count,
    )
}

/// A MiB total as GiB for the inventory table, marked like [`tib_or_unknown`].
fn gib_or_unknown(total_mib: f64, unknown: usize, vms: usize) -> String {
    if vms > 0 && unknown == vms {
        "unknown".into()
    } else if unknown > 0 {
        format!("{}*", group_thousands(total_mib / 1024.0, 0))
    } else {
        group_thousands(total_mib / 1024.0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_totals_are_marked() {
        // 2 TiB = 2 x 1024 x 1024 MiB
        assert_eq!(tib_or_unknown(2.0 * 1024.0 * 1024.0, 0, 3), "2.00");
        assert_eq!(tib_or_unknown(2.0 * 1024.0 * 1024.0, 1, 3), "2.00*");
        assert_eq!(tib_or_unknown(0.0, 3, 3), "unknown");
    }

    #[test]
    fn counts_group_their_thousands() {
        // 2,268 vCPUs over 3 VMs, all known; 2,741 with 1 of 3 VMs unknown; 1,234,567
        // hosts' worth of a count: every count cell groups by thousands as memory does.
        assert_eq!(count_or_unknown(2_268, 0, 3), "2,268");
        assert_eq!(count_or_unknown(2_741, 1, 3), "2,741*");
        assert_eq!(count_or_unknown(0, 3, 3), "unknown");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(count(999), "999");
    }

    #[test]
    fn the_table_groups_every_count() {
        // 1,200 powered-on VMs in cluster C1, 2 vCPUs and 4,096 MiB each: 2 x 1,200 =
        // 2,400 vCPUs, 1,200 x 4,096 / 1,024 = 4,800 GiB; the VMs, on and vCPUs cells are
        // grouped like the memory cell.
        use crate::inventory::{Origin, PowerState, Vm};
        let vms = (0..1_200)
            .map(|i| Vm {
                power_state: PowerState::PoweredOn,
                cluster: Some("C1".into()),
                cpus: Some(2),
                memory_mib: Some(4_096.0),
                provisioned_mib: Some(1_024.0),
                in_use_mib: Some(1_024.0),
                ..Vm::new(
                    format!("vm{i}"),
                    Origin {
                        file: "t.csv".into(),
                        sheet: "vInfo".into(),
                        row: i + 2,
                    },
                )
            })
            .collect();
        let inventory = Inventory {
            inputs: vec!["t.csv".into()],
            vms,
            ..Inventory::default()
        };
        let text = crate::report::render_inventory(&inventory, crate::report::Format::Text)
            .expect("renders");
        let total: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("total"))
            .expect("a total row")
            .split_whitespace()
            .collect();
        // total, VMs, templates, on, off, suspended, vCPUs, memory GiB.
        assert_eq!(
            total[..8],
            ["total", "1,200", "0", "1,200", "0", "0", "2,400", "4,800"],
            "{text}"
        );
    }
}

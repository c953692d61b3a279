//! Rendering plans and inventories: readable text and versioned JSON.
//!
//! Renderers return a `String`; writing it to stdout or a file is the caller's business.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::inventory::{ClusterSummary, Inventory, InventorySummary, Warning};
use crate::plan::Plan;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// Pretty-printed JSON (`schema_version` first).
    Json,
}

/// Errors while rendering.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// JSON serialisation failed (non-finite number ...).
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// `1234567.891` -> `"1,234,567.89"` with `decimals` digits after the point.
pub fn group_thousands(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let s = format!("{:.*}", decimals, value.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let mut out = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(&f);
    }
    if value < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

/// Renders a plan.
///
/// # Errors
/// [`ReportError::Json`] if the plan holds a value JSON cannot carry.
pub fn render_plan(plan: &Plan, format: Format) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(plan)? + "\n"),
        Format::Text => Ok(plan_text(plan)),
    }
}

fn plan_text(plan: &Plan) -> String {
    let g = group_thousands;
    let mut s = String::new();
    let t = &plan.totals;
    let perf = &plan.performance;
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let _ = writeln!(
        s,
        "dsplan plan: {} datastore(s) on {} ({} TiB), {} hosts x {} datastores = {} flows",
        t.datastores,
        levels.join(" + "),
        t.pool_size_tib,
        plan.hosts,
        t.datastores,
        t.flows
    );
    let _ = writeln!(
        s,
        "monthly cost: {} USD ({}, {}, prices effective {})",
        g(t.cost_usd_per_month, 2),
        plan.region,
        plan.location,
        plan.prices_effective
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Demand");
    let _ = writeln!(
        s,
        "  VMs in scope      {} ({} excluded)",
        g(t.vms_placed as f64, 0),
        g(t.vms_excluded as f64, 0)
    );
    let _ = writeln!(
        s,
        "  capacity          {} GiB placed -> {} GiB required",
        g(t.placed_capacity_gib, 1),
        g(t.required_capacity_gib, 1)
    );
    let _ = writeln!(
        s,
        "  IOPS target       {} at {} KiB, {}% read, {}% random",
        g(perf.iops_target, 0),
        perf.small_block_profile.block_size_kib,
        perf.small_block_profile.read_pct,
        perf.small_block_profile.random_pct
    );
    let _ = writeln!(
        s,
        "  MiB/s target      {} at {} KiB sequential",
        g(perf.throughput_target_mibps, 0),
        perf.large_block_profile.block_size_kib
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Pools");
    let _ = writeln!(
        s,
        "  {:<18} {:<9} {:>9} {:>10} {:>10} {:>10} {:>12}",
        "name", "level", "size TiB", "MiB/s", "included", "purchased", "USD/month"
    );
    for p in &plan.pools {
        let _ = writeln!(
            s,
            "  {:<18} {:<9} {:>9} {:>10} {:>10} {:>10} {:>12}",
            p.name,
            p.service_level.as_str(),
            p.size_tib,
            g(p.throughput_mibps, 0),
            g(p.included_throughput_mibps, 0),
            g(p.purchased_throughput_mibps, 0),
            g(p.cost_usd_per_month, 2)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Datastores");
    let _ = writeln!(
        s,
        "  {:<10} {:>12} {:>10} {:>12} {:>12} {:>5} {:>13} {:>11}",
        "name",
        "size GiB",
        "QoS MiB/s",
        "pred. IOPS",
        "pred. MiB/s",
        "VMs",
        "placed GiB",
        "USD/month"
    );
    for d in &plan.datastores {
        let _ = writeln!(
            s,
            "  {:<10} {:>12} {:>10} {:>12} {:>12} {:>5} {:>13} {:>11}",
            d.name,
            g(d.size_gib, 1),
            g(d.throughput_mibps, 0),
            g(d.predicted_iops, 0),
            g(d.predicted_throughput_mibps, 0),
            d.vm_count,
            g(d.placed_capacity_gib, 1),
            g(d.cost_usd_per_month, 2)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Predicted performance");
    let _ = writeln!(
        s,
        "  IOPS   {} (target {}), bound by {}",
        g(perf.small_block.iops, 0),
        g(perf.iops_target, 0),
        perf.small_block.bottleneck.as_str()
    );
    let _ = writeln!(
        s,
        "  MiB/s  {} (target {}), bound by {}",
        g(perf.large_block.throughput_mibps, 0),
        g(perf.throughput_target_mibps, 0),
        perf.large_block.bottleneck.as_str()
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Binding limits");
    for b in &plan.binding {
        let _ = writeln!(s, "  - {}: {}", b.constraint, b.detail);
    }
    let _ = writeln!(s);
    let mut by_reason: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for e in &plan.excluded {
        let entry = by_reason.entry(e.reason.describe()).or_default();
        entry.0 += 1;
        entry.1 += e.capacity_gib.unwrap_or(0.0);
    }
    let _ = writeln!(
        s,
        "Excluded VMs: {} ({} GiB)",
        plan.excluded.len(),
        g(t.excluded_capacity_gib, 1)
    );
    for (reason, (n, gib)) in &by_reason {
        let _ = writeln!(s, "  {n:>6} {reason} ({} GiB)", g(*gib, 1));
    }
    const SHOWN: usize = 20;
    for e in plan.excluded.iter().take(SHOWN) {
        let _ = writeln!(
            s,
            "         {} [{}] {} row {}",
            e.name,
            e.reason.describe(),
            e.origin.sheet,
            e.origin.row
        );
    }
    if plan.excluded.len() > SHOWN {
        let _ = writeln!(
            s,
            "         ... {} more (--format json lists all)",
            plan.excluded.len() - SHOWN
        );
    }
    write_warnings(&mut s, &plan.warnings);
    let _ = writeln!(s);
    let _ = writeln!(s, "Assumptions");
    for a in &plan.assumptions {
        let _ = writeln!(s, "  {:<20} {:<28} {}", a.name, a.value, a.note);
    }
    s
}

fn write_warnings(s: &mut String, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    const SHOWN: usize = 20;
    let _ = writeln!(s);
    let _ = writeln!(s, "Warnings: {}", warnings.len());
    for w in warnings.iter().take(SHOWN) {
        let _ = writeln!(s, "  {w}");
    }
    if warnings.len() > SHOWN {
        let _ = writeln!(
            s,
            "  ... {} more (--json / --format json lists all)",
            warnings.len() - SHOWN
        );
    }
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
        format!("{total}*")
    } else {
        total.to_string()
    }
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

/// The JSON shape of `dsplan inventory --json`.
#[derive(Debug, Serialize)]
pub struct InventoryReport<'a> {
    /// Version of this JSON shape.
    pub schema_version: u32,
    /// Input paths.
    pub inputs: &'a [String],
    /// Counts and totals.
    pub summary: InventorySummary,
    /// Per-cluster counts and totals, by cluster name (`(none)` for VMs without one).
    pub clusters: BTreeMap<String, InventorySummary>,
    /// Per-cluster vCPUs, memory, hosts and datastores by type, sorted by cluster name
    /// (VMs without a cluster last).
    pub cluster_details: Vec<ClusterSummary>,
    /// Warnings found while reading.
    pub warnings: &'a [Warning],
}

/// Renders an inventory summary.
///
/// # Errors
/// [`ReportError::Json`] if a total is not finite.
pub fn render_inventory(inventory: &Inventory, format: Format) -> Result<String, ReportError> {
    let mut per_cluster: BTreeMap<String, Inventory> = BTreeMap::new();
    for vm in &inventory.vms {
        per_cluster
            .entry(vm.cluster.clone().unwrap_or_else(|| "(none)".into()))
            .or_default()
            .vms
            .push(vm.clone());
    }
    let report = InventoryReport {
        schema_version: crate::plan::SCHEMA_VERSION,
        inputs: &inventory.inputs,
        summary: inventory.summary(),
        clusters: per_cluster
            .into_iter()
            .map(|(k, v)| (k, v.summary()))
            .collect(),
        cluster_details: inventory.cluster_summaries(),
        warnings: &inventory.warnings,
    };
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(&report)? + "\n"),
        Format::Text => {
            let mut s = String::new();
            let _ = writeln!(s, "inputs: {}", inventory.inputs.join(", "));
            let header = [
                "VMs",
                "templates",
                "on",
                "off",
                "suspended",
                "vCPUs",
                "memory GiB",
                "provisioned TiB",
                "in use TiB",
                "hosts",
            ];
            let _ = write!(s, "{:<24}", "cluster");
            for h in header {
                let _ = write!(s, " {h:>w$}", w = h.len().max(6));
            }
            let _ = writeln!(s, "  datastores");
            let row = |s: &mut String, name: &str, v: &InventorySummary, d: &ClusterSummary| {
                let cells = [
                    v.vm_count.to_string(),
                    v.template_count.to_string(),
                    v.powered_on_count.to_string(),
                    v.powered_off_count.to_string(),
                    v.suspended_count.to_string(),
                    count_or_unknown(d.vcpus, d.vcpus_unknown, d.vm_count),
                    gib_or_unknown(d.memory_mib, d.memory_unknown, d.vm_count),
                    tib_or_unknown(v.provisioned_mib, v.provisioned_unknown, v.vm_count),
                    tib_or_unknown(v.in_use_mib, v.in_use_unknown, v.vm_count),
                    d.host_count.to_string(),
                ];
                let _ = write!(s, "{name:<24}");
                for (cell, h) in cells.iter().zip(header) {
                    let _ = write!(s, " {cell:>w$}", w = h.len().max(6));
                }
                let ds: Vec<String> = d
                    .datastores_by_type
                    .iter()
                    .map(|(t, n)| format!("{n} {t}"))
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
            };
            let mut total = ClusterSummary {
                cluster: None,
                vm_count: 0,
                vcpus: 0,
                vcpus_unknown: 0,
                memory_mib: 0.0,
                memory_unknown: 0,
                provisioned_mib: 0.0,
                provisioned_unknown: 0,
                in_use_mib: 0.0,
                in_use_unknown: 0,
                host_count: 0,
                datastores_by_type: BTreeMap::new(),
            };
            for d in &report.cluster_details {
                let name = d.cluster.clone().unwrap_or_else(|| "(none)".into());
                if let Some(v) = report.clusters.get(&name) {
                    row(&mut s, &name, v, d);
                }
                total.vm_count += d.vm_count;
                total.vcpus += d.vcpus;
                total.vcpus_unknown += d.vcpus_unknown;
                total.memory_mib += d.memory_mib;
                total.memory_unknown += d.memory_unknown;
            }
            total.host_count = report.summary.host_count;
            for ds in &inventory.datastores {
                let t = ds
                    .datastore_type
                    .clone()
                    .unwrap_or_else(|| "unknown".into());
                *total.datastores_by_type.entry(t).or_default() += 1;
            }
            row(&mut s, "total", &report.summary, &total);
            let sm = &report.summary;
            if sm.provisioned_unknown > 0 || sm.in_use_unknown > 0 {
                let _ = writeln!(
                    s,
                    "* sum of the known values only: {} VM(s) without provisioned, {} without \
                     in-use capacity; 'unknown' = no VM of the row has a value",
                    sm.provisioned_unknown, sm.in_use_unknown
                );
            }
            write_warnings(&mut s, &inventory.warnings);
            Ok(s)
        }
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
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(1_234_567.891, 2), "1,234,567.89");
        assert_eq!(group_thousands(999.0, 0), "999");
        assert_eq!(group_thousands(1000.0, 0), "1,000");
        assert_eq!(group_thousands(-1234.5, 1), "-1,234.5");
        assert_eq!(group_thousands(0.0, 2), "0.00");
    }
}

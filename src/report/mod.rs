//! Rendering plans and inventories: readable text and versioned JSON.
//!
//! Renderers return a `String`; writing it to stdout or a file is the caller's business.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::inventory::{ClusterSummary, Inventory, InventorySummary, Warning};
use crate::numbers::group_thousands;
use crate::plan::Plan;
use text::{plan_text, write_warnings};

mod markdown;
mod text;

pub mod tables;
pub mod xlsx;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// Pretty-printed JSON (`schema_version` first).
    Json,
    /// CSV, one row per datastore ([`tables::PLAN_CSV_HEADER`]); plans only.
    Csv,
    /// A Markdown document; plans only.
    Markdown,
}

/// Errors while rendering.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// JSON serialisation failed (non-finite number ...).
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// CSV writing failed.
    #[error("CSV: {0}")]
    Csv(String),
    /// The workbook could not be built.
    #[error("xlsx: {0}")]
    Xlsx(String),
    /// The format does not apply to this output.
    #[error("{0}")]
    Unsupported(String),
}

/// Renders a plan.
///
/// # Errors
/// [`ReportError::Json`] if the plan holds a value JSON cannot carry; [`ReportError::Csv`]
/// if CSV writing fails.
pub fn render_plan(plan: &Plan, format: Format) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(plan)? + "\n"),
        Format::Text => Ok(plan_text(plan)),
        Format::Csv => tables::plan_csv(plan),
        Format::Markdown => Ok(tables::plan_markdown(plan)),
    }
}

/// Renders per-cluster plans: each cluster's plan, then the total.
///
/// # Errors
/// [`ReportError::Json`] if a plan holds a value JSON cannot carry.
pub fn render_cluster_plans(
    plans: &crate::plan::ClusterPlans,
    format: Format,
) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(plans)? + "\n"),
        Format::Csv => tables::cluster_plans_csv(plans),
        Format::Markdown => {
            let mut s = String::new();
            for c in &plans.clusters {
                let _ = writeln!(
                    s,
                    "# Cluster {}: {} hosts ({})\n",
                    c.cluster, c.hosts, c.hosts_source
                );
                // Each cluster's plan, its headings one level down.
                for line in tables::plan_markdown(&c.plan).lines() {
                    if line.starts_with('#') {
                        let _ = writeln!(s, "#{line}");
                    } else {
                        let _ = writeln!(s, "{line}");
                    }
                }
            }
            let t = &plans.total;
            let _ = writeln!(
                s,
                "# Total over {} clusters\n\n{} hosts, {} datastores, {} TiB of pools, {} USD/month",
                t.clusters,
                t.hosts,
                t.datastores,
                t.pool_size_tib,
                group_thousands(t.cost_usd_per_month, 2)
            );
            Ok(s)
        }
        Format::Text => {
            let g = group_thousands;
            let mut s = String::new();
            for c in &plans.clusters {
                let _ = writeln!(
                    s,
                    "=== cluster {}: {} hosts ({}), {:.1}% of the capacity (and of estate-wide targets) ===",
                    c.cluster,
                    c.hosts,
                    c.hosts_source,
                    c.target_share * 100.0
                );
                s.push_str(&plan_text(&c.plan));
                let _ = writeln!(s);
            }
            let t = &plans.total;
            let _ = writeln!(s, "=== total over {} clusters ===", t.clusters);
            let _ = writeln!(
                s,
                "  {} hosts, {} datastores, {} TiB of pools, {} GiB placed, {} USD/month",
                t.hosts,
                t.datastores,
                t.pool_size_tib,
                g(t.placed_capacity_gib, 1),
                g(t.cost_usd_per_month, 2)
            );
            if t.vms_without_cluster > 0 {
                let _ = writeln!(
                    s,
                    "  not planned: {} VMs that name no cluster ({} GiB)",
                    t.vms_without_cluster,
                    g(t.vms_without_cluster_capacity_gib, 1)
                );
            }
            for c in &plans.clusters {
                let _ = writeln!(
                    s,
                    "  {:<24} {:>3} hosts {:>3} datastores {:>7} TiB {:>12} USD/month",
                    c.cluster,
                    c.hosts,
                    c.plan.totals.datastores,
                    c.plan.totals.pool_size_tib,
                    g(c.plan.totals.cost_usd_per_month, 2)
                );
            }
            Ok(s)
        }
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
    pub clusters: BTreeMap<&'a str, InventorySummary>,
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
    let report = InventoryReport {
        schema_version: crate::plan::SCHEMA_VERSION,
        inputs: &inventory.inputs,
        summary: inventory.summary(),
        clusters: inventory.summary_by_cluster(),
        cluster_details: inventory.cluster_summaries(),
        warnings: &inventory.warnings,
    };
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(&report)? + "\n"),
        Format::Csv | Format::Markdown => Err(ReportError::Unsupported(
            "an inventory renders as text or JSON".into(),
        )),
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
            let mut total = ClusterSummary::default();
            for d in &report.cluster_details {
                let name = d.cluster.as_deref().unwrap_or("(none)");
                if let Some(v) = report.clusters.get(name) {
                    row(&mut s, name, v, d);
                }
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
}

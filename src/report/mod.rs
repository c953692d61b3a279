//! Rendering plans and inventories: readable text and versioned JSON.
//!
//! Renderers return a `String`; writing it to stdout or a file is the caller's business.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::inventory::{ClusterSummary, Inventory, InventorySummary, Warning};
use crate::numbers::group_thousands;
use crate::plan::Plan;

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
    let hosts = if t.hosts_with_vms > 0 && t.hosts_with_vms < plan.hosts {
        format!("{} hosts ({} run VMs)", plan.hosts, t.hosts_with_vms)
    } else {
        format!("{} hosts", plan.hosts)
    };
    let _ = writeln!(
        s,
        "dsplan plan: {} datastore(s) on {} ({} TiB), {hosts} x {} datastores = {} flows",
        t.datastores,
        levels.join(" + "),
        t.pool_size_tib,
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
    for p in &plan.pools {
        if p.cool_access || p.reserved_tib > 0 {
            let _ = writeln!(
                s,
                "  {}: hot tier {} + cool tier {} ({} GiB cold) + cool transfer {} + \
                 throughput {} USD/month; {} TiB reserved at {}% off",
                p.name,
                g(p.hot_capacity_cost_usd_per_month, 2),
                g(p.cool_capacity_cost_usd_per_month, 2),
                g(p.cool_data_gib, 1),
                g(p.cool_transfer_cost_usd_per_month, 2),
                g(p.throughput_cost_usd_per_month, 2),
                p.reserved_tib,
                p.reservation_discount_pct
            );
        }
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
        let _ = writeln!(s, "  - {}: {}", b.constraint.as_str(), b.detail);
    }
    if !plan.alternatives.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "Alternatives (cheapest plan under each restriction)");
        let _ = writeln!(
            s,
            "  {:<22} {:<9} {:>4} {:>9} {:>10} {:<14} {:>12} {:>11}  note",
            "restriction",
            "level",
            "ds",
            "size TiB",
            "purchased",
            "options",
            "USD/month",
            "vs chosen",
        );
        for a in &plan.alternatives {
            let restriction = match a.basis.as_str() {
                "datastores" if a.datastores == 1 => "exactly 1 datastore".to_string(),
                "datastores" => format!("exactly {} datastores", a.datastores),
                _ => format!("{} only", a.service_level.map_or("-", |l| l.as_str())),
            };
            if !a.feasible {
                let _ = writeln!(s, "  {restriction:<22} infeasible: {}", a.note);
                continue;
            }
            let mut opts = Vec::new();
            if a.cool_access {
                opts.push("cool");
            }
            if a.large_volumes {
                opts.push("large");
            }
            if a.reserved_tib > 0 {
                opts.push("reserved");
            }
            let line = format!(
                "  {:<22} {:<9} {:>4} {:>9} {:>10} {:<14} {:>12} {:>11}  {}",
                restriction,
                a.service_level.map_or("-", |l| l.as_str()),
                a.datastores,
                a.pool_size_tib,
                g(a.purchased_throughput_mibps, 0),
                if opts.is_empty() {
                    "-".to_string()
                } else {
                    opts.join("+")
                },
                g(a.cost_usd_per_month, 2),
                format!("+{}", g(a.extra_cost_usd_per_month, 2)),
                a.note
            );
            let _ = writeln!(s, "{}", line.trim_end());
        }
    }
    if !plan.marginal_costs.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "Marginal costs");
        for m in &plan.marginal_costs {
            let what = match m.change.as_str() {
                "capacity_plus_1_tib" => "one more TiB of capacity",
                "throughput_plus_100_mibps" => "100 more MiB/s",
                other => other,
            };
            if m.feasible {
                let _ = writeln!(
                    s,
                    "  {what:<26} +{} USD/month ({} USD/month: {})",
                    g(m.extra_cost_usd_per_month, 2),
                    g(m.cost_usd_per_month, 2),
                    m.detail
                );
            } else {
                let _ = writeln!(s, "  {what:<26} not reachable: {}", m.detail);
            }
        }
    }
    if let Some(tp) = &plan.time_phased {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "Time-phased plan: {} USD/year ({} USD less than the peak layout all year, {} \
             USD/year)",
            g(tp.yearly_cost_usd, 2),
            g(tp.yearly_savings_usd, 2),
            g(tp.peak_all_year_yearly_cost_usd, 2)
        );
        let _ = writeln!(
            s,
            "  {:<6} {:>6} {:<9} {:>9} {:>10} {:>10} {:>4} {:>12} {:>12} {:>12}",
            "phase",
            "months",
            "level",
            "size TiB",
            "QoS MiB/s",
            "purchased",
            "ds",
            "pred. IOPS",
            "pred. MiB/s",
            "USD/month"
        );
        for (name, p) in [("base", &tp.base), ("peak", &tp.peak)] {
            let _ = writeln!(
                s,
                "  {:<6} {:>6} {:<9} {:>9} {:>10} {:>10} {:>4} {:>12} {:>12} {:>12}",
                name,
                p.months,
                p.service_level.as_str(),
                p.pool_size_tib,
                g(p.throughput_mibps, 0),
                g(p.purchased_throughput_mibps, 0),
                p.datastores,
                g(p.predicted_iops, 0),
                g(p.predicted_throughput_mibps, 0),
                g(p.cost_usd_per_month, 2)
            );
        }
        if tp.base.service_level != tp.peak.service_level {
            let _ = writeln!(
                s,
                "  the datastores move to a pool of service level {} for the peak months, and back",
                tp.peak.service_level
            );
        }
    }
    if let Some(v) = &plan.vsan_comparison {
        let _ = writeln!(s);
        let _ = writeln!(s, "vSAN-only comparison (capacity)");
        let _ = writeln!(
            s,
            "  {} GiB of data / dedup {} x {:.3} ({}) / (1 - {}% slack) = {} TiB raw",
            g(v.data_gib, 1),
            v.dedup_ratio,
            v.overhead_factor,
            v.policy,
            v.slack_pct,
            g(v.raw_needed_tib, 1)
        );
        let _ = writeln!(
            s,
            "  {} hosts of {} ({} TiB raw each) -> {} extra beyond the {} planned, {} vs ANF {} \
             USD/month",
            v.hosts_needed,
            v.sku,
            g(v.raw_per_host_tib, 2),
            v.extra_hosts,
            v.cluster_hosts,
            v.extra_hosts_usd_per_month
                .map_or("price unknown".to_string(), |c| format!(
                    "{} USD/month",
                    g(c, 2)
                )),
            g(v.anf_usd_per_month, 2)
        );
        let _ = writeln!(s, "  {}", v.note);
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
            "         ... {} more (the JSON format lists all)",
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
            "  ... {} more (the JSON format lists all)",
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

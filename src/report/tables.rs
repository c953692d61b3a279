//! Plans as Markdown (a report to paste into a design document) and as CSV (one row per
//! datastore, for spreadsheets and scripts).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::Plan;
use crate::report::ReportError;

/// Escapes the `|` of a Markdown table cell and keeps it on one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Writes a Markdown table: a header row, the alignment row (numbers right-aligned), rows.
fn table(s: &mut String, header: &[&str], numeric: &[bool], rows: &[Vec<String>]) {
    let _ = writeln!(s, "| {} |", header.join(" | "));
    let align: Vec<&str> = numeric
        .iter()
        .map(|n| if *n { "---:" } else { "---" })
        .collect();
    let _ = writeln!(s, "| {} |", align.join(" | "));
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(s);
}

/// The plan as a Markdown document: headline, demand, pools, datastores, predicted
/// performance, binding limits, alternatives, marginal costs, excluded VMs (by reason),
/// warnings and assumptions. Numbers carry thousands separators; units are in the headers.
pub fn plan_markdown(plan: &Plan) -> String {
    let t = &plan.totals;
    let perf = &plan.performance;
    let mut s = String::new();
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let _ = writeln!(s, "# ANF datastore plan\n");
    let _ = writeln!(
        s,
        "**{} datastore(s) on {} ({} TiB), {} hosts x {} datastores = {} flows: {} USD/month** \
         ({}, {}, prices effective {}).\n",
        t.datastores,
        levels.join(" + "),
        t.pool_size_tib,
        plan.hosts,
        t.datastores,
        t.flows,
        g(t.cost_usd_per_month, 2),
        plan.region,
        plan.location,
        plan.prices_effective
    );
    let _ = writeln!(s, "## Demand\n");
    table(
        &mut s,
        &["item", "value"],
        &[false, true],
        &[
            vec![
                "VMs in scope (excluded)".into(),
                format!("{} ({})", t.vms_placed, t.vms_excluded),
            ],
            vec!["capacity placed, GiB".into(), g(t.placed_capacity_gib, 1)],
            vec![
                "capacity required, GiB".into(),
                g(t.required_capacity_gib, 1),
            ],
            vec![
                format!(
                    "IOPS target ({} KiB, {}% read, {}% random)",
                    perf.small_block_profile.block_size_kib,
                    perf.small_block_profile.read_pct,
                    perf.small_block_profile.random_pct
                ),
                g(perf.iops_target, 0),
            ],
            vec![
                format!(
                    "MiB/s target ({} KiB sequential)",
                    perf.large_block_profile.block_size_kib
                ),
                g(perf.throughput_target_mibps, 0),
            ],
        ],
    );
    let _ = writeln!(s, "## Pools\n");
    let pools: Vec<Vec<String>> = plan
        .pools
        .iter()
        .map(|p| {
            vec![
                p.name.clone(),
                p.service_level.to_string(),
                p.size_tib.to_string(),
                g(p.throughput_mibps, 0),
                g(p.purchased_throughput_mibps, 0),
                if p.cool_access { "yes" } else { "no" }.into(),
                g(p.cost_usd_per_month, 2),
            ]
        })
        .collect();
    table(
        &mut s,
        &[
            "pool",
            "service level",
            "size TiB",
            "MiB/s",
            "purchased MiB/s",
            "cool access",
            "USD/month",
        ],
        &[false, false, true, true, true, false, true],
        &pools,
    );
    let _ = writeln!(s, "## Datastores\n");
    let ds: Vec<Vec<String>> = plan
        .datastores
        .iter()
        .map(|d| {
            vec![
                d.name.clone(),
                d.pool.clone(),
                g(d.size_gib, 0),
                g(d.throughput_mibps, 0),
                g(d.predicted_iops, 0),
                g(d.predicted_throughput_mibps, 0),
                d.vm_count.to_string(),
                g(d.placed_capacity_gib, 1),
                g(d.cost_usd_per_month, 2),
            ]
        })
        .collect();
    table(
        &mut s,
        &[
            "datastore",
            "pool",
            "size GiB",
            "QoS MiB/s",
            "predicted IOPS",
            "predicted MiB/s",
            "VMs",
            "placed GiB",
            "USD/month",
        ],
        &[false, false, true, true, true, true, true, true, true],
        &ds,
    );
    let _ = writeln!(s, "## Predicted performance\n");
    table(
        &mut s,
        &["shape", "predicted", "target", "bound by"],
        &[false, true, true, false],
        &[
            vec![
                "IOPS".into(),
                g(perf.small_block.iops, 0),
                g(perf.iops_target, 0),
                perf.small_block.bottleneck.as_str().into(),
            ],
            vec![
                "MiB/s".into(),
                g(perf.large_block.throughput_mibps, 0),
                g(perf.throughput_target_mibps, 0),
                perf.large_block.bottleneck.as_str().into(),
            ],
        ],
    );
    let _ = writeln!(s, "## Binding limits\n");
    for b in &plan.binding {
        let _ = writeln!(s, "- **{}**: {}", b.constraint.as_str(), b.detail);
    }
    let _ = writeln!(s);
    if !plan.alternatives.is_empty() {
        let _ = writeln!(s, "## Alternatives\n");
        let rows: Vec<Vec<String>> = plan
            .alternatives
            .iter()
            .map(|a| {
                let restriction = match (a.basis.as_str(), a.service_level) {
                    ("service_level", Some(l)) => format!("{l} only"),
                    ("datastores", _) => format!("exactly {} datastore(s)", a.datastores),
                    (other, _) => other.to_string(),
                };
                vec![
                    restriction,
                    a.service_level
                        .map_or_else(|| "-".to_string(), |l| l.to_string()),
                    if a.feasible {
                        a.datastores.to_string()
                    } else {
                        "-".into()
                    },
                    if a.feasible {
                        a.pool_size_tib.to_string()
                    } else {
                        "-".into()
                    },
                    if a.feasible {
                        g(a.cost_usd_per_month, 2)
                    } else {
                        "-".into()
                    },
                    if a.feasible {
                        format!("+{}", g(a.extra_cost_usd_per_month, 2))
                    } else {
                        "-".into()
                    },
                    a.note.clone(),
                ]
            })
            .collect();
        table(
            &mut s,
            &[
                "restriction",
                "service level",
                "datastores",
                "size TiB",
                "USD/month",
                "vs chosen",
                "note",
            ],
            &[false, false, true, true, true, true, false],
            &rows,
        );
    }
    if !plan.marginal_costs.is_empty() {
        let _ = writeln!(s, "## Marginal costs\n");
        let rows: Vec<Vec<String>> = plan
            .marginal_costs
            .iter()
            .map(|m| {
                vec![
                    m.change.clone(),
                    if m.feasible {
                        format!("+{}", g(m.extra_cost_usd_per_month, 2))
                    } else {
                        "cannot be met".into()
                    },
                    m.detail.clone(),
                ]
            })
            .collect();
        table(
            &mut s,
            &["change", "USD/month", "layout"],
            &[false, true, false],
            &rows,
        );
    }
    let _ = writeln!(s, "## Excluded VMs\n");
    let mut by_reason: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for e in &plan.excluded {
        let entry = by_reason.entry(e.reason.describe()).or_default();
        entry.0 += 1;
        entry.1 += e.capacity_gib.unwrap_or(0.0);
    }
    if by_reason.is_empty() {
        let _ = writeln!(s, "None.\n");
    } else {
        let rows: Vec<Vec<String>> = by_reason
            .iter()
            .map(|(r, (n, gib))| vec![(*r).to_string(), n.to_string(), g(*gib, 1)])
            .collect();
        table(
            &mut s,
            &["reason", "VMs", "GiB"],
            &[false, true, true],
            &rows,
        );
    }
    if !plan.warnings.is_empty() {
        let _ = writeln!(s, "## Warnings ({})\n", plan.warnings.len());
        for w in &plan.warnings {
            let _ = writeln!(s, "- {}", cell(&w.to_string()));
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "## Assumptions\n");
    let rows: Vec<Vec<String>> = plan
        .assumptions
        .iter()
        .map(|a| vec![a.name.clone(), a.value.clone(), a.note.clone()])
        .collect();
    table(
        &mut s,
        &["assumption", "value", "source"],
        &[false, false, false],
        &rows,
    );
    s
}

/// Header of [`plan_csv`].
pub const PLAN_CSV_HEADER: [&str; 15] = [
    "datastore",
    "pool",
    "service_level",
    "size_gib",
    "qos_throughput_mibps",
    "predicted_iops",
    "predicted_throughput_mibps",
    "vm_count",
    "placed_capacity_gib",
    "cost_usd_per_month",
    "pool_size_tib",
    "pool_cool_access",
    "hosts",
    "region",
    "prices_effective",
];

/// The plan's datastores as CSV rows (see [`PLAN_CSV_HEADER`]), with their pool and the
/// plan's hosts and region on every row; `prefix` cells (for example the cluster) go first.
fn csv_rows(
    plan: &Plan,
    prefix: &[String],
    w: &mut csv::Writer<Vec<u8>>,
) -> Result<(), csv::Error> {
    for d in &plan.datastores {
        let pool = plan.pools.iter().find(|p| p.name == d.pool);
        let mut row: Vec<String> = prefix.to_vec();
        row.extend([
            d.name.clone(),
            d.pool.clone(),
            d.service_level.to_string(),
            d.size_gib.to_string(),
            d.throughput_mibps.to_string(),
            d.predicted_iops.round().to_string(),
            format!("{:.1}", d.predicted_throughput_mibps),
            d.vm_count.to_string(),
            format!("{:.1}", d.placed_capacity_gib),
            format!("{:.2}", d.cost_usd_per_month),
            pool.map_or_else(String::new, |p| p.size_tib.to_string()),
            pool.map_or_else(String::new, |p| p.cool_access.to_string()),
            plan.hosts.to_string(),
            plan.region.clone(),
            plan.prices_effective.clone(),
        ]);
        w.write_record(&row)?;
    }
    Ok(())
}

fn csv_error(e: csv::Error) -> ReportError {
    ReportError::Csv(e.to_string())
}

/// The plan as CSV: one row per datastore ([`PLAN_CSV_HEADER`]), plain numbers (no
/// thousands separators), `.` decimal mark.
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails (it writes to memory, so in practice never).
pub fn plan_csv(plan: &Plan) -> Result<String, ReportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(PLAN_CSV_HEADER).map_err(csv_error)?;
    csv_rows(plan, &[], &mut w).map_err(csv_error)?;
    let bytes = w
        .into_inner()
        .map_err(|e| ReportError::Csv(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Per-cluster plans as one CSV: a `cluster` column, then [`PLAN_CSV_HEADER`].
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails.
pub fn cluster_plans_csv(plans: &crate::plan::ClusterPlans) -> Result<String, ReportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["cluster"];
    header.extend(PLAN_CSV_HEADER);
    w.write_record(&header).map_err(csv_error)?;
    for c in &plans.clusters {
        csv_rows(&c.plan, std::slice::from_ref(&c.cluster), &mut w).map_err(csv_error)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ReportError::Csv(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

//! A plan as a Markdown document (a report to paste into a design document): one
//! function per section, written in the order of [`SECTIONS`]. Numbers carry thousands
//! separators; units are in the headers.

pub(in crate::report) mod cluster;
pub(in crate::report) mod designs;
pub(in crate::report) mod estate;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::demand::ExcludedVm;
use crate::numbers::{clip_name, counted, group_thousands as g};
use crate::plan::Plan;

/// A section of the Markdown report: appends its heading and body to `s`.
type Section = fn(&mut String, &Plan);

/// The sections of the Markdown report, in order.
const SECTIONS: [Section; 15] = [
    header,
    demand,
    pools,
    datastores,
    placement,
    performance,
    binding,
    alternatives,
    marginal_costs,
    time_phased,
    vsan,
    excluded,
    warnings,
    assumptions,
    prices,
];

/// The plan as a Markdown document: every section of `SECTIONS`, in order (headline,
/// demand, pools, datastores, placement, predicted performance, binding limits,
/// alternatives, marginal costs, time phases, the vSAN-only comparison, excluded VMs by
/// reason, warnings and assumptions).
pub fn plan_markdown(plan: &Plan) -> String {
    let mut s = String::new();
    for section in SECTIONS {
        section(&mut s, plan);
    }
    s
}

/// Escapes the `|` of a Markdown table cell, writes `<` and `>` as entities (so a name
/// such as `<script>` stays text) and keeps it on one line.
pub(in crate::report) fn cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace(['\n', '\r'], " ")
}

/// A name from the input (VM, cluster, datastore) as Markdown text, in a table cell or a
/// heading: every character Markdown would read as emphasis, code, a link or a heading is
/// escaped with a backslash, `<` and `>` are entities, line breaks are spaces.
pub(in crate::report) fn name(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Writes a Markdown table: a header row, the alignment row (numbers right-aligned), rows.
pub(in crate::report) fn table(
    s: &mut String,
    header: &[&str],
    numeric: &[bool],
    rows: &[Vec<String>],
) {
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

/// The title and the headline: datastores, levels, pool size, hosts, flows and cost.
fn header(s: &mut String, plan: &Plan) {
    let t = &plan.totals;
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let _ = writeln!(s, "# ANF datastore plan\n");
    let _ = writeln!(
        s,
        "**{} datastore(s) on {} ({}), {} x {} = {}: {} USD/month** \
         ({}, {}, prices effective {}).\n",
        t.datastores,
        levels.join(" + "),
        crate::report::model::delivered::pool_size_words(plan),
        counted(u64::from(plan.hosts), "host"),
        counted(u64::from(t.datastores), "datastore"),
        counted(t.flows, "flow"),
        g(t.cost_usd_per_month, 2),
        plan.region,
        plan.location,
        crate::report::text::effective_dates(plan)
    );
    let d = crate::report::model::delivered::Delivered::of(plan);
    let _ = writeln!(
        s,
        "Delivers {}.\n",
        crate::report::model::delivered::delivers(&d)
    );
}

/// VMs in scope, capacity placed and required, the IOPS and MiB/s targets.
fn demand(s: &mut String, plan: &Plan) {
    let t = &plan.totals;
    let perf = &plan.performance;
    let _ = writeln!(s, "## Demand\n");
    table(
        s,
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
}

/// The pools.
fn pools(s: &mut String, plan: &Plan) {
    let _ = writeln!(s, "## Pools\n");
    let pools: Vec<Vec<String>> = plan
        .pools
        .iter()
        .map(|p| {
            vec![
                p.name.clone(),
                p.service_level.to_string(),
                crate::report::model::delivered::size_cell(p.size_tib, p.share_gib),
                g(p.throughput_mibps, 0),
                g(p.purchased_throughput_mibps, 0),
                if p.cool_access { "yes" } else { "no" }.into(),
                g(p.cost_usd_per_month, 2),
            ]
        })
        .collect();
    table(
        s,
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
    for p in plan.pools.iter().filter(|p| p.share_gib > 0) {
        let _ = writeln!(
            s,
            "{}: {}.\n",
            p.name,
            crate::report::model::delivered::share_note(p)
        );
    }
    for p in plan
        .pools
        .iter()
        .filter(|p| p.first_month_cool_transfer_usd > 0.0)
    {
        let _ = writeln!(
            s,
            "First month only, {}: {} USD one-time transfer of the {} GiB cold data to the \
             cool tier (not in the monthly cost).\n",
            p.name,
            g(p.first_month_cool_transfer_usd, 2),
            g(p.cool_data_gib, 1)
        );
    }
}

/// The datastores: size, QoS, predictions, VMs placed, cost.
fn datastores(s: &mut String, plan: &Plan) {
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
        s,
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
}

/// The VMs placed on each datastore: the count per datastore, then the first
/// `PLACEMENTS_SHOWN` VMs with their datastore and GiB (the JSON lists all).
fn placement(s: &mut String, plan: &Plan) {
    let shown = crate::report::text::PLACEMENTS_SHOWN;
    let _ = writeln!(
        s,
        "## Placement\n\n{} VMs on {} datastore(s){}.\n",
        g(plan.placements.len() as f64, 0),
        plan.datastores.len(),
        if plan.placements.len() > shown {
            format!(
                "; the first {shown} below, {} more in the JSON format",
                g((plan.placements.len() - shown) as f64, 0)
            )
        } else {
            String::new()
        }
    );
    if plan.placements.is_empty() {
        return;
    }
    let rows: Vec<Vec<String>> = plan
        .placements
        .iter()
        .take(shown)
        .map(|p| {
            vec![
                name(&clip_name(&p.vm)),
                name(&p.datastore),
                g(p.capacity_gib, 1),
            ]
        })
        .collect();
    table(s, &["VM", "datastore", "GiB"], &[false, false, true], &rows);
}

/// Predicted performance against the targets, with the binding layer.
fn performance(s: &mut String, plan: &Plan) {
    let perf = &plan.performance;
    let _ = writeln!(s, "## Predicted performance\n");
    table(
        s,
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
    if let Some(sentence) = perf.extrapolation.sentence() {
        let _ = writeln!(s, "{sentence}\n");
    }
}

/// The binding limits.
fn binding(s: &mut String, plan: &Plan) {
    let _ = writeln!(s, "## Binding limits\n");
    for b in &plan.binding {
        let _ = writeln!(s, "- **{}**: {}", b.constraint.as_str(), b.detail);
    }
    let _ = writeln!(s);
}

/// The cheapest plan under each restriction, when there are alternatives, with every
/// column of the JSON: level, datastores, pool size, purchased MiB/s, reserved TiB, options
/// (cool access, large volume), cost and the difference to the chosen plan.
fn alternatives(s: &mut String, plan: &Plan) {
    if plan.alternatives.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Alternatives\n");
    if plan.time_phased.is_some() {
        let _ = writeln!(
            s,
            "The cheapest plan under each restriction, for the base months' targets alone.\n"
        );
    }
    let feasible = |a: &crate::plan::Alternative, v: String| {
        if a.feasible { v } else { "-".to_string() }
    };
    let rows: Vec<Vec<String>> = plan
        .alternatives
        .iter()
        .map(|a| {
            vec![
                crate::report::text::restriction(a),
                a.service_level
                    .map_or_else(|| "-".to_string(), |l| l.to_string()),
                feasible(a, a.datastores.to_string()),
                feasible(
                    a,
                    crate::report::model::delivered::size_cell(a.pool_size_tib, a.share_gib),
                ),
                feasible(a, g(a.purchased_throughput_mibps, 0)),
                feasible(a, g(f64::from(a.reserved_tib), 0)),
                feasible(a, crate::report::text::options(a)),
                feasible(a, g(a.cost_usd_per_month, 2)),
                feasible(
                    a,
                    crate::report::text::signed_usd(a.extra_cost_usd_per_month),
                ),
                if a.feasible {
                    a.note.clone()
                } else {
                    format!("infeasible: {}", a.note)
                },
            ]
        })
        .collect();
    table(
        s,
        &[
            "restriction",
            "service level",
            "datastores",
            "size TiB",
            "purchased MiB/s",
            "reserved TiB",
            "options",
            "USD/month",
            "vs chosen",
            "note",
        ],
        &[
            false, false, true, true, true, true, false, true, true, false,
        ],
        &rows,
    );
    if let Some(note) = crate::report::model::delivered::shares_priced_note(plan) {
        let _ = writeln!(s, "{}{}.\n", note[..1].to_uppercase(), &note[1..]);
    }
}

/// What one more TiB or 100 more MiB/s would cost, when computed.
fn marginal_costs(s: &mut String, plan: &Plan) {
    if plan.marginal_costs.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Marginal costs\n");
    let rows: Vec<Vec<String>> = plan
        .marginal_costs
        .iter()
        .map(|m| {
            vec![
                m.change.clone(),
                if m.feasible {
                    crate::report::text::signed_usd(m.extra_cost_usd_per_month)
                } else {
                    "cannot be met".into()
                },
                m.detail.clone(),
            ]
        })
        .collect();
    table(
        s,
        &["change", "USD/month", "layout"],
        &[false, true, false],
        &rows,
    );
}

/// The base and peak phases of a time-phased plan, when there is one: the yearly cost
/// against the peak layout all year, each phase's layout, targets and predictions.
fn time_phased(s: &mut String, plan: &Plan) {
    let Some(tp) = &plan.time_phased else {
        return;
    };
    let _ = writeln!(
        s,
        "## Time-phased plan\n\n**{} USD/year**, {} USD/year less than the peak layout all \
         year ({} USD/year).\n",
        g(tp.yearly_cost_usd, 2),
        g(tp.yearly_savings_usd, 2),
        g(tp.peak_all_year_yearly_cost_usd, 2)
    );
    let rows: Vec<Vec<String>> = [("base", &tp.base), ("peak", &tp.peak)]
        .iter()
        .map(|(name, p)| {
            vec![
                (*name).to_string(),
                p.months.to_string(),
                p.service_level.to_string(),
                crate::report::model::delivered::size_cell(p.pool_size_tib, p.share_gib),
                g(p.throughput_mibps, 0),
                g(p.purchased_throughput_mibps, 0),
                p.datastores.to_string(),
                g(p.iops_target, 0),
                g(p.predicted_iops, 0),
                g(p.throughput_target_mibps, 0),
                g(p.predicted_throughput_mibps, 0),
                g(p.cost_usd_per_month, 2),
            ]
        })
        .collect();
    table(
        s,
        &[
            "phase",
            "months",
            "service level",
            "size TiB",
            "QoS MiB/s",
            "purchased MiB/s",
            "datastores",
            "IOPS target",
            "predicted IOPS",
            "MiB/s target",
            "predicted MiB/s",
            "USD/month",
        ],
        &[
            false, true, false, true, true, true, true, true, true, true, true, true,
        ],
        &rows,
    );
    let change = crate::report::text::phase_change(&tp.base, &tp.peak);
    let mut chars = change.chars();
    let first = chars.next().map(|c| c.to_uppercase().to_string());
    let _ = writeln!(s, "{}{}.\n", first.unwrap_or_default(), chars.as_str());
}

/// The vSAN-only comparison (capacity), when there is one: the raw capacity the same data
/// needs, the hosts that hold it and their cost against ANF.
fn vsan(s: &mut String, plan: &Plan) {
    let Some(v) = &plan.vsan_comparison else {
        return;
    };
    let _ = writeln!(s, "## vSAN-only comparison (capacity)\n");
    let extra_usd = v
        .extra_hosts_usd_per_month
        .map_or_else(|| "price unknown".to_string(), |c| g(c, 2));
    let rows = vec![
        vec!["data, GiB".into(), g(v.data_gib, 1)],
        vec![
            format!(
                "raw needed, TiB (dedup {} x {:.3} {} / (1 - {}% slack))",
                v.dedup_ratio, v.overhead_factor, v.policy, v.slack_pct
            ),
            g(v.raw_needed_tib, 1),
        ],
        vec![
            format!(
                "{} hosts needed ({} TiB raw each)",
                v.sku,
                g(v.raw_per_host_tib, 2)
            ),
            v.hosts_needed.to_string(),
        ],
        vec![
            format!("extra hosts beyond the {} planned", v.cluster_hosts),
            v.extra_hosts.to_string(),
        ],
        vec!["extra hosts, USD/month".into(), extra_usd],
        vec!["ANF, USD/month".into(), g(v.anf_usd_per_month, 2)],
    ];
    table(s, &["item", "value"], &[false, true], &rows);
    if v.clusters_needed > 0 {
        let _ = writeln!(
            s,
            "{} hosts make {} AVS cluster(s) (largest {} hosts) in {} private cloud(s).\n",
            v.hosts_needed, v.clusters_needed, v.largest_cluster_hosts, v.private_clouds_needed
        );
    }
    let _ = writeln!(s, "{}\n", cell(&v.note));
}

/// Excluded VMs: count and GiB per reason; nothing when no VM is excluded (the headline
/// says 0), as in each cluster of a per-cluster plan.
fn excluded(s: &mut String, plan: &Plan) {
    if plan.excluded.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Excluded VMs\n");
    excluded_table(s, &plan.excluded);
}

/// The VMs of `list`, count and GiB per reason, as a table.
pub(in crate::report) fn excluded_table(s: &mut String, list: &[ExcludedVm]) {
    let mut by_reason: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for e in list {
        let entry = by_reason.entry(e.reason.describe()).or_default();
        entry.0 += 1;
        entry.1 += e.capacity_gib.unwrap_or(0.0);
    }
    let rows: Vec<Vec<String>> = by_reason
        .iter()
        .map(|(r, (n, gib))| vec![(*r).to_string(), n.to_string(), g(*gib, 1)])
        .collect();
    table(s, &["reason", "VMs", "GiB"], &[false, true, true], &rows);
}

/// The plan's warnings, when there are any.
fn warnings(s: &mut String, plan: &Plan) {
    if plan.warnings.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Warnings ({})\n", plan.warnings.len());
    for w in &plan.warnings {
        let _ = writeln!(s, "- {}", cell(&w.to_string()));
    }
    let _ = writeln!(s);
}

/// The assumptions the plan rests on.
fn assumptions(s: &mut String, plan: &Plan) {
    let _ = writeln!(s, "## Assumptions\n");
    assumptions_table(s, &plan.assumptions, "assumption", "source");
}

/// The price rows the plan's costs use, with their effective dates and sources.
fn prices(s: &mut String, plan: &Plan) {
    if plan.prices.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Prices ({})\n", plan.region);
    let rows: Vec<Vec<String>> = plan
        .prices
        .iter()
        .map(|p| {
            vec![
                p.tier.clone(),
                p.meter.clone(),
                g(p.price_usd, 6),
                p.unit.clone(),
                p.effective_start.clone(),
                p.source.clone(),
            ]
        })
        .collect();
    table(
        s,
        &["tier", "meter", "USD", "unit", "effective", "source"],
        &[false, false, true, false, false, false],
        &rows,
    );
}

/// Settings as a table: name (headed `what`), value, and where it came from (headed
/// `why`).
pub(in crate::report) fn assumptions_table(
    s: &mut String,
    list: &[crate::plan::Assumption],
    what: &str,
    why: &str,
) {
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|a| vec![a.name.clone(), a.value.clone(), a.note.clone()])
        .collect();
    table(s, &[what, "value", why], &[false, false, false], &rows);
}

/// The Markdown of `plan`, every heading `levels` levels further down (a cluster's plan
/// inside a per-cluster or estate document).
pub(in crate::report) fn demoted_plan_markdown(plan: &Plan, levels: usize) -> String {
    let extra = "#".repeat(levels);
    let mut s = String::new();
    for line in plan_markdown(plan).lines() {
        if line.starts_with('#') {
            let _ = writeln!(s, "{extra}{line}");
        } else {
            let _ = writeln!(s, "{line}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{cell, name};

    #[test]
    fn names_from_the_input_stay_text() {
        // `_` and `*` would start emphasis, `<b>` would be HTML, the backtick code.
        assert_eq!(name("web_01*<b>`x`"), "web\\_01\\*&lt;b&gt;\\`x\\`");
        assert_eq!(name("a\nb"), "a b");
        // A pipe is left to `cell`, which escapes it once.
        assert_eq!(cell(&name("a|b")), "a\\|b");
    }

    #[test]
    fn cells_escape_pipes_and_markup_and_stay_on_one_line() {
        assert_eq!(cell("a|b<c>\r\nd"), "a\\|b&lt;c&gt;  d");
    }
}

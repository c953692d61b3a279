//! A plan as a Markdown document (a report to paste into a design document): one
//! function per section, written in the order of [`SECTIONS`]. Numbers carry thousands
//! separators; units are in the headers.

pub(in crate::report) mod cluster;
pub(in crate::report) mod designs;
pub(in crate::report) mod estate;
mod render;

use std::fmt::Write as _;

use crate::numbers::{counted, group_thousands as g};
use crate::plan::{Assumption, ClusterPlan, Plan};
use crate::report::model;
pub(in crate::report) use render::{Body, markdown_body, write_section};

/// A section of the Markdown report: appends its heading and body (a model section's
/// body by the [`Body`] given) to `s`.
type Writer = fn(&mut String, &Plan, Body);

/// The sections of the Markdown report, in order.
const SECTIONS: [Writer; 15] = [
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
    plan_markdown_with(plan, markdown_body)
}

/// [`plan_markdown`], each model section's body written by `body`.
pub(in crate::report) fn plan_markdown_with(plan: &Plan, body: Body) -> String {
    let mut s = String::new();
    for section in SECTIONS {
        section(&mut s, plan, body);
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
fn header(s: &mut String, plan: &Plan, _: Body) {
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

/// [`model::plan::demand`].
fn demand(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan::demand(plan), 2, body);
}

/// The pools ([`model::plan::pools`]).
fn pools(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan::pools(plan), 2, body);
}

/// The datastores ([`model::plan::datastores`]).
fn datastores(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan::datastores(plan), 2, body);
}

/// [`model::plan_details::placement`].
fn placement(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan_details::placement(plan), 2, body);
}

/// [`model::plan::performance`].
fn performance(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan::performance(plan), 2, body);
}

/// [`model::plan_details::binding`].
fn binding(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan_details::binding(plan), 2, body);
}

/// [`model::plan_choices::alternatives`], when there is one.
fn alternatives(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan_choices::alternatives(plan) {
        write_section(s, &section, 2, body);
    }
}

/// [`model::plan_choices::marginal_costs`], when there is one.
fn marginal_costs(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan_choices::marginal_costs(plan) {
        write_section(s, &section, 2, body);
    }
}

/// [`model::plan_choices::time_phased`], when there is one.
fn time_phased(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan_choices::time_phased(plan) {
        write_section(s, &section, 2, body);
    }
}

/// [`model::plan_details::vsan`], when there is one.
fn vsan(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan_details::vsan(plan) {
        write_section(s, &section, 2, body);
    }
}

/// [`model::plan::excluded`], when a VM is excluded.
fn excluded(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan::excluded(plan) {
        write_section(s, &section, 2, body);
    }
}

/// The plan's warnings, when there are any.
fn warnings(s: &mut String, plan: &Plan, _: Body) {
    if plan.warnings.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Warnings ({})\n",
        crate::inventory::warning_count(&plan.warnings)
    );
    for w in &plan.warnings {
        let _ = writeln!(s, "- {}", cell(&w.to_string()));
    }
    let _ = writeln!(s);
}

/// The assumptions the plan rests on ([`model::plan::assumptions`]).
fn assumptions(s: &mut String, plan: &Plan, body: Body) {
    write_section(s, &model::plan::assumptions(plan), 2, body);
}

/// The price rows the plan's costs use ([`model::plan::prices`]).
fn prices(s: &mut String, plan: &Plan, body: Body) {
    if let Some(section) = model::plan::prices(plan) {
        write_section(s, &section, 2, body);
    }
}

/// A cluster's plan inside a per-cluster or estate document, every heading `levels`
/// levels further down: every section of [`SECTIONS`] but the assumptions and prices,
/// which the document shows once (`shared`), then its own assumptions, when it has any
/// ([`model::estate_sections::own_assumptions`]).
pub(in crate::report) fn cluster_plan_markdown(
    c: &ClusterPlan,
    shared: &[&Assumption],
    levels: usize,
    body: Body,
) -> String {
    let mut plan = String::new();
    for section in &SECTIONS[..SECTIONS.len() - 2] {
        section(&mut plan, &c.plan, body);
    }
    if let Some(own) = model::estate_sections::own_assumptions(c, shared) {
        write_section(&mut plan, &own, 2, body);
    }
    let extra = "#".repeat(levels);
    let mut s = String::new();
    for line in plan.lines() {
        if line.starts_with('#') {
            let _ = writeln!(s, "{extra}{line}");
        } else {
            let _ = writeln!(s, "{line}");
        }
    }
    s
}

/// The assumptions and prices the plans of `clusters` share, once, under headings of
/// `level` ([`model::estate_sections::shared`]).
pub(in crate::report) fn shared_markdown(
    s: &mut String,
    clusters: &[ClusterPlan],
    region: &str,
    level: usize,
    body: Body,
) {
    for section in model::estate_sections::shared(clusters, region) {
        write_section(s, &section, level, body);
    }
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

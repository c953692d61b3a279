//! A plan as a Markdown document (a report to paste into a design document): the title
//! and headline, then the report model's sections ([`render`]). Numbers carry thousands
//! separators; units are in the headers.

pub(in crate::report) mod cluster;
pub(in crate::report) mod estate;
mod render;

use std::fmt::Write as _;

use crate::plan::{Assumption, ClusterPlan, Plan};
use crate::report::model;
pub(in crate::report) use render::write_section;

/// The plan as a Markdown document: the title and headline, then every section of the
/// model ([`model::plan::plan_sections`]: demand, pools, datastores, placement, predicted
/// performance, binding limits, alternatives, marginal costs, time phases, the vSAN-only
/// comparison, excluded VMs by reason, warnings, assumptions and prices).
pub fn plan_markdown(plan: &Plan) -> String {
    let mut s = String::new();
    header(&mut s, plan);
    for section in model::plan::plan_sections(plan) {
        write_section(&mut s, &section, 2);
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

/// The title and the headline ([`model::headline::plan_headline`]).
fn header(s: &mut String, plan: &Plan) {
    write_headline(s, &model::headline::plan_headline(plan));
}

/// A headline section (no table): its title as the document's `# ` heading, its first
/// sentence in bold, then one list entry each.
pub(in crate::report) fn write_headline(s: &mut String, headline: &model::table::Section) {
    let _ = writeln!(s, "# {}\n", headline.title);
    let mut lines = headline.lead.iter();
    if let Some(first) = lines.next() {
        let _ = writeln!(s, "**{}.**\n", cell(first));
    }
    for l in lines {
        let _ = writeln!(s, "- {}.", cell(&model::headline::capitalised(l)));
    }
    let _ = writeln!(s);
}

/// A cluster's plan inside a per-cluster or estate document, every heading `levels`
/// levels further down: the headline and its sections but the assumptions and prices
/// ([`model::plan::cluster_sections`]), which the document shows once (`shared`), then
/// its own assumptions, when it has any
/// ([`model::estate_sections::own_assumptions`]).
pub(in crate::report) fn cluster_plan_markdown(
    c: &ClusterPlan,
    shared: &[&Assumption],
    levels: usize,
) -> String {
    let mut plan = String::new();
    header(&mut plan, &c.plan);
    for section in model::plan::cluster_sections(&c.plan) {
        write_section(&mut plan, &section, 2);
    }
    if let Some(own) = model::estate_sections::own_assumptions(c, shared) {
        write_section(&mut plan, &own, 2);
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
) {
    for section in model::estate_sections::shared(clusters, region) {
        write_section(s, &section, level);
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

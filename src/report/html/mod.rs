//! Plans as one self-contained, printable HTML document (`dsplan plan --format html`): inline
//! style and SVG charts, no script, nothing fetched from any host.
//!
//! An estate plan reads: page one the executive summary (`summary`), then the estate's
//! tables, the charts, each AVS cluster's plan in a `<details>` element (open, so it prints),
//! the assumptions and prices once, the warnings grouped by cause, the excluded VMs. The
//! document follows the Markdown report's outline (its headings place each section); a
//! section of the report model is rendered from its typed cells (`model.rs`), the few others
//! from the Markdown (`blocks.rs`), so every format shows the same rows. One cluster's plan
//! (`--hosts N`) and `--per-cluster` plans read the same way, their page one the headline
//! cards ([`crate::report::model::headline`]) and the Markdown report's headline.
//!
//! Every text is in customer words ([`crate::report::words::customer_words`]) and escaped.

mod blocks;
mod escape;
mod model;
mod page;
mod summary;
mod warnings;

use std::fmt::Write as _;

pub use escape::escape;

use crate::inventory::Warning;
use crate::plan::{ClusterPlan, ClusterPlans, EstatePlan, Plan};
use crate::report::Chart;
use crate::report::model::headline::{self, Card};
use blocks::{Section, blocks_html, sections};
use warnings::{Cause, causes, causes_html};

/// Per-cluster subsections not shown in each cluster: warnings are grouped with the
/// others; assumptions and prices, which the outline gives once for the document, would be.
const ONCE: [&str; 3] = ["Assumptions", "Prices", "Warnings"];

/// The parts of a document before they are put in order.
#[derive(Default)]
struct Parts {
    summary: String,
    tables: String,
    clusters: String,
    assumptions: String,
    excluded: String,
}

/// The estate plan as an HTML document; `charts`: the plan's charts
/// (`report::charts::estate_charts`, with the `charts` feature), drawn in the order given.
pub fn estate_html(plan: &EstatePlan, charts: &[Chart]) -> String {
    let all = all_warnings(
        &plan.warnings,
        plan.clusters.iter().map(|c| &c.plan.warnings),
    );
    let grouped = causes(all.iter().copied());
    let mut parts = Parts::default();
    summary::estate_summary(&mut parts.summary, plan, &grouped);
    let markdown = super::markdown::estate::estate_markdown(plan, model::outline_body);
    for section in sections(&markdown, 2) {
        let title = section.title.as_str();
        if title.is_empty() {
            // The headline's sentences, read from the model (the summary page has the
            // title and the cards).
            let headline = crate::report::model::estate_headline::estate_headline(plan, true);
            parts.tables.push_str("<h2>The estate in figures</h2>\n");
            parts.tables.push_str(&model::headline_html(&headline));
        } else if title.starts_with("AVS cluster ") {
            cluster_details(&mut parts, &section, 0);
        } else {
            route(&mut parts, &section);
        }
    }
    finish("Estate plan", &parts, charts, &grouped)
}

/// One cluster's plan (`--hosts N`) as an HTML document, its alternatives on page one.
pub fn plan_html(plan: &Plan, charts: &[Chart]) -> String {
    let grouped = causes(plan.warnings.iter());
    let mut parts = Parts::default();
    for section in sections(
        &super::markdown::plan_markdown_with(plan, model::outline_body),
        2,
    ) {
        if section.title.is_empty() {
            let cards = headline::plan_cards(plan);
            parts
                .summary
                .push_str(&with_cards(&blocks_html(&section.body, 0), &cards));
            key_causes(&mut parts.summary, &grouped);
        } else if section.title.starts_with("Alternatives") {
            // The decision: the plan against the layouts it was chosen over.
            parts.summary.push_str(&titled(&section, 0));
        } else {
            route(&mut parts, &section);
        }
    }
    finish("ANF datastore plan", &parts, charts, &grouped)
}

/// A `--per-cluster` plan as an HTML document: the total first, then each cluster.
pub fn cluster_plans_html(plans: &ClusterPlans, charts: &[Chart]) -> String {
    let all = all_warnings(
        &plans.total.warnings,
        plans
            .clusters
            .iter()
            .map(|c: &ClusterPlan| &c.plan.warnings),
    );
    let grouped = causes(all.iter().copied());
    let mut parts = Parts::default();
    let markdown = super::markdown::cluster::cluster_plans_markdown(plans, model::outline_body);
    for section in sections(&markdown, 1) {
        if section.title.starts_with("Total over") {
            let cards = headline::cluster_plans_cards(plans);
            total_section(&mut parts, &section, &grouped, &cards);
        } else if section.title.starts_with("Assumptions") || section.title.starts_with("Prices") {
            route(&mut parts, &section);
        } else if !section.title.is_empty() {
            cluster_details(&mut parts, &section, 1);
        }
    }
    finish("ANF datastore plans per cluster", &parts, charts, &grouped)
}

/// The total of a `--per-cluster` plan: the summary page, its excluded VMs at the end.
fn total_section(parts: &mut Parts, section: &Section, grouped: &[Cause], cards: &[Card]) {
    for (i, sub) in sections(&section.body, 2).iter().enumerate() {
        if i == 0 {
            let _ = writeln!(parts.summary, "<h1>{}</h1>", blocks::inline(&section.title));
            summary::cards_html(&mut parts.summary, cards);
            parts.summary.push_str(&blocks_html(&sub.body, 0));
            key_causes(&mut parts.summary, grouped);
        } else if sub.title.starts_with("Excluded") {
            parts.excluded.push_str(&titled(sub, 0));
        } else if !sub.title.starts_with("Warnings") {
            parts.summary.push_str(&titled(sub, 0));
        }
    }
}

/// `html` with the headline `cards` right after its `<h1>` (first, without one).
fn with_cards(html: &str, cards: &[Card]) -> String {
    let mut c = String::new();
    summary::cards_html(&mut c, cards);
    let at = html.find("</h1>\n").map_or(0, |i| i + "</h1>\n".len());
    format!("{}{c}{}", &html[..at], &html[at..])
}

/// Puts a `## ` section where it belongs: assumptions and prices, excluded VMs, the
/// tables; warnings are left out (shown grouped).
fn route(parts: &mut Parts, section: &Section) {
    let title = section.title.as_str();
    if title.starts_with("Warnings") {
        return;
    }
    let html = titled(section, 0);
    let assumptions = title.contains("assumptions") || title.starts_with("Assumptions");
    if assumptions || title.starts_with("Prices") {
        parts.assumptions.push_str(&html);
    } else if title.starts_with("Excluded") {
        parts.excluded.push_str(&html);
    } else {
        parts.tables.push_str(&html);
    }
}

/// A section as HTML under an `<h2>` (`shift` 0) heading of its title.
fn titled(section: &Section, shift: usize) -> String {
    format!(
        "<h{h}>{}</h{h}>\n{}",
        blocks::inline(&section.title),
        blocks_html(&section.body, shift),
        h = 2 + shift
    )
}

/// A cluster's plan in a `<details>` element, without its warnings ([`ONCE`]: shown
/// grouped with the others; its assumptions and prices are the document's, but those it
/// alone has). `shift`: how many levels its headings go down.
fn cluster_details(parts: &mut Parts, section: &Section, shift: usize) {
    let (kept, _) = split_once_sections(&section.body);
    let _ = writeln!(
        parts.clusters,
        "<details open>\n<summary>{}</summary>\n{}</details>",
        blocks::inline(&section.title),
        blocks_html(&kept, shift)
    );
}

/// `markdown` without its [`ONCE`] subsections (any heading level), and those subsections.
fn split_once_sections(markdown: &str) -> (String, Vec<Section>) {
    let mut kept = String::new();
    let mut once: Vec<Section> = Vec::new();
    let mut skipping_level: Option<usize> = None;
    for line in markdown.lines() {
        let level = line.chars().take_while(|c| *c == '#').count();
        if level > 0 && line[level..].starts_with(' ') {
            let title = line[level + 1..].trim();
            if skipping_level.is_some_and(|l| level <= l) {
                skipping_level = None;
            }
            if ONCE.iter().any(|o| title.starts_with(o)) {
                skipping_level = Some(level);
                once.push(Section {
                    title: title.to_string(),
                    body: String::new(),
                });
                continue;
            }
        }
        let out = match (skipping_level, once.last_mut()) {
            (Some(_), Some(s)) => &mut s.body,
            _ => &mut kept,
        };
        out.push_str(line);
        out.push('\n');
    }
    (kept, once)
}

/// Every warning once: `first`, then each cluster's, a warning already listed left out.
fn all_warnings<'a>(
    first: &'a [Warning],
    clusters: impl Iterator<Item = &'a Vec<Warning>>,
) -> Vec<&'a Warning> {
    let mut out: Vec<&Warning> = first.iter().collect();
    for w in clusters.flatten() {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The plan-wide causes on the summary page of a one-cluster or per-cluster plan.
fn key_causes(s: &mut String, grouped: &[Cause]) {
    let plan_wide: Vec<Cause> = grouped.iter().filter(|c| c.plan_wide).cloned().collect();
    if !plan_wide.is_empty() {
        s.push_str("<h2>Warnings that can change the decision</h2>\n");
        causes_html(s, &plan_wide);
    }
}

/// The document in order: summary, tables, charts, clusters, assumptions and prices,
/// warnings, excluded VMs (a part with nothing to show is left out).
fn finish(title: &str, parts: &Parts, charts: &[Chart], grouped: &[Cause]) -> String {
    let mut body = page::section("summary", &parts.summary, true);
    let mut add = |id: &str, heading: &str, html: &str| {
        if !html.is_empty() {
            let inner = if heading.is_empty() {
                html.to_string()
            } else {
                format!("<h2>{heading}</h2>\n{html}")
            };
            body.push_str(&page::section(id, &inner, false));
        }
    };
    add("tables", "", &parts.tables);
    add("charts", "Charts", &charts_html(charts));
    add("clusters", "Each AVS cluster's plan", &parts.clusters);
    add("assumptions", "", &parts.assumptions);
    let mut warnings = String::new();
    let n: usize = (grouped.iter())
        .map(|c| crate::inventory::warning_count(c.warnings.iter().copied()))
        .sum();
    if !grouped.is_empty() {
        let _ = writeln!(
            warnings,
            "<p>{n} warning(s) of {} cause(s), grouped by cause.</p>",
            grouped.len()
        );
        causes_html(&mut warnings, grouped);
    }
    // Titled as the model's warnings section ([`crate::report::model::warnings`]).
    add("warnings", &format!("Warnings ({n})"), &warnings);
    add("excluded", "", &parts.excluded);
    page::document(title, &body)
}

/// Each chart as an inline SVG figure (its XML declaration dropped).
fn charts_html(charts: &[Chart]) -> String {
    let mut s = String::new();
    for (_, svg) in charts {
        let svg = match svg.find("<svg") {
            Some(i) => &svg[i..],
            None => continue,
        };
        let _ = writeln!(s, "<figure class=\"chart\">\n{svg}\n</figure>");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn once_sections_leave_the_cluster_and_keep_their_text() {
        let md = "#### Demand\nd\n#### Warnings (1)\n- w\n#### Assumptions\n| a |\n\
                  #### Prices (x)\np\n";
        let (kept, once) = split_once_sections(md);
        assert_eq!(kept, "#### Demand\nd\n");
        let titles: Vec<&str> = once.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Warnings (1)", "Assumptions", "Prices (x)"]);
        assert_eq!(once[1].body, "| a |\n");
    }
}

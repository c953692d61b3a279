//! Plans as one self-contained, printable HTML document (`dsplan plan --format html`): inline
//! style and SVG charts, no script, nothing fetched from any host.
//!
//! An estate plan reads: page one the executive summary (`summary`), then the estate's
//! tables, the charts, each AVS cluster's plan in a `<details>` element (open, so it prints),
//! the assumptions and prices once, the warnings grouped by cause, the excluded VMs. Every
//! part is read from the report model ([`crate::report::model`]): its headlines, and its
//! sections in the order the other formats show them, each put in its part by the sheet it
//! belongs to and rendered from its typed cells (`model.rs`), so every format shows the same
//! rows. One cluster's plan (`--hosts N`) and `--per-cluster` plans read the same way, their
//! page one the headline cards ([`crate::report::model::headline`]) and the headline.
//!
//! Every text is in customer words ([`crate::report::words::customer_words`]) and escaped.

mod escape;
mod model;
mod page;
mod summary;
mod warnings;

use std::fmt::Write as _;

pub use escape::escape;
pub use model::with_setting_words;

use crate::inventory::Warning;
use crate::numbers::group_thousands as g;
use crate::plan::{Assumption, ClusterPlan, ClusterPlans, EstatePlan, Plan};
use crate::report::Chart;
use crate::report::model::delivered::{cluster_utilisation, utilisation_words};
use crate::report::model::headline::{self, Card, plan_headline};
use crate::report::model::table::Section;
use crate::report::model::{cluster_plans, estate_headline, estate_sections, plan as plan_model};
use model::{body_html, headline_html, words};
use warnings::{Cause, causes, causes_html};

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
    parts.tables.push_str("<h2>The estate in figures</h2>\n");
    let figures = estate_headline::estate_headline(plan, true);
    parts.tables.push_str(&headline_html(&figures));
    for section in estate_sections::estate_tables(plan) {
        route(&mut parts, &section);
    }
    for section in estate_sections::shared(&plan.clusters, &plan.region) {
        route(&mut parts, &section);
    }
    let shared = estate_sections::shared_assumptions(&plan.clusters);
    for c in &plan.clusters {
        let banner = banner("AVS cluster", c);
        let uses =
            cluster_utilisation(plan, &c.cluster).map(|u| format!("Uses {}", utilisation_words(u)));
        cluster_details(&mut parts, &banner, uses.as_deref(), c, &shared);
    }
    vsan_only_clusters(&mut parts, plan);
    route(&mut parts, &estate_sections::excluded(plan));
    finish("Estate plan", &parts, charts, &grouped)
}

/// One cluster's plan (`--hosts N`) as an HTML document, its alternatives on page one.
pub fn plan_html(plan: &Plan, charts: &[Chart]) -> String {
    let grouped = causes(plan.warnings.iter());
    let mut parts = Parts::default();
    let top = plan_headline(plan);
    let _ = writeln!(parts.summary, "<h1>{}</h1>", words(&top.title));
    summary::cards_html(&mut parts.summary, &headline::plan_cards(plan));
    parts.summary.push_str(&headline_html(&top));
    key_causes(&mut parts.summary, &grouped);
    for section in plan_model::plan_sections(plan) {
        if section.sheet == "Alternatives" {
            // The decision: the plan against the layouts it was chosen over.
            parts.summary.push_str(&titled(&section, 2));
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
    let shared = estate_sections::shared_assumptions(&plans.clusters);
    for c in &plans.clusters {
        let banner = banner("Cluster", c);
        let share = format!(
            "{}% of the capacity (and of estate-wide targets)",
            g(c.target_share * 100.0, 1)
        );
        cluster_details(&mut parts, &banner, Some(&share), c, &shared);
    }
    let region = plans
        .clusters
        .first()
        .map_or("", |c| c.plan.region.as_str());
    for section in estate_sections::shared(&plans.clusters, region) {
        route(&mut parts, &section);
    }
    let cards = headline::cluster_plans_cards(plans);
    total_summary(&mut parts, plans, &grouped, &cards);
    if let Some(section) = cluster_plans::excluded(plans) {
        route(&mut parts, &section);
    }
    finish("ANF datastore plans per cluster", &parts, charts, &grouped)
}

/// The total of a `--per-cluster` plan on the summary page: its title, the cards, its
/// rows, the warnings that can change the decision, the estate's reservations.
fn total_summary(parts: &mut Parts, plans: &ClusterPlans, grouped: &[Cause], cards: &[Card]) {
    let total = cluster_plans::total(plans);
    let _ = writeln!(parts.summary, "<h1>{}</h1>", words(&total.title));
    summary::cards_html(&mut parts.summary, cards);
    parts.summary.push_str(&body_html(&total));
    key_causes(&mut parts.summary, grouped);
    if let Some(section) = cluster_plans::reservations(plans) {
        parts.summary.push_str(&titled(&section, 2));
    }
}

/// A cluster's banner, HTML: `kind`, its name (escaped, never reworded), its hosts and
/// where their count came from.
fn banner(kind: &str, c: &ClusterPlan) -> String {
    format!(
        "{kind} {}: {} hosts ({})",
        escape(&c.cluster),
        c.hosts,
        words(&c.hosts_source)
    )
}

/// Puts a model section in its part by its sheet: assumptions and prices, excluded VMs,
/// the tables; warnings are left out (shown grouped).
fn route(parts: &mut Parts, section: &Section) {
    let html = titled(section, 2);
    match section.sheet {
        "Warnings" => {}
        "Assumptions" | "Prices" => parts.assumptions.push_str(&html),
        "Excluded" => parts.excluded.push_str(&html),
        _ => parts.tables.push_str(&html),
    }
}

/// A model section under an `<h{level}>` heading of its title.
fn titled(section: &Section, level: usize) -> String {
    format!(
        "<h{level}>{}</h{level}>\n{}",
        words(&section.title),
        body_html(section)
    )
}

/// A cluster's plan in a `<details>` element under `banner` (HTML), with its `lead`
/// sentence: its headline and its sections but the warnings (shown grouped with the
/// others) and the assumptions and prices the document shows once (`shared`; those it
/// alone has follow its plan).
fn cluster_details(
    parts: &mut Parts,
    banner: &str,
    lead: Option<&str>,
    c: &ClusterPlan,
    shared: &[&Assumption],
) {
    let mut body = String::new();
    if let Some(l) = lead {
        let _ = writeln!(body, "<p>{}.</p>", words(l));
    }
    let top = plan_headline(&c.plan);
    let _ = writeln!(body, "<h3>{}</h3>", words(&top.title));
    body.push_str(&headline_html(&top));
    let own = estate_sections::own_assumptions(c, shared);
    for section in plan_model::cluster_sections(&c.plan).iter().chain(&own) {
        if section.sheet != "Warnings" {
            body.push_str(&titled(section, 4));
        }
    }
    let _ = writeln!(
        parts.clusters,
        "<details open>\n<summary>{banner}</summary>\n{body}</details>"
    );
}

/// The AVS clusters of the chosen design that put no data on ANF (each VM's data on its
/// hosts' vSAN), each in a `<details>` after those with a storage plan, so every cluster
/// of the estate is listed: its hosts, VMs and data from the designs compared
/// ([`crate::plan::EstateDesigns::clusters`]).
fn vsan_only_clusters(parts: &mut Parts, plan: &EstatePlan) {
    let Some(designs) = &plan.designs else {
        return;
    };
    for d in &designs.clusters {
        if plan.clusters.iter().any(|c| c.cluster == d.cluster) {
            continue;
        }
        let chosen = match designs.chosen {
            crate::plan::Design::Vsan => &d.vsan,
            crate::plan::Design::Anf => &d.anf,
            crate::plan::Design::Hybrid => &d.hybrid,
        };
        let sku = if chosen.sku.is_empty() {
            plan.summary.sku.as_str()
        } else {
            chosen.sku.as_str()
        };
        let _ = writeln!(
            parts.clusters,
            "<details open>\n<summary>AVS cluster {}: {} hosts ({})</summary>\n<p>No ANF \
             datastore: the {} design keeps this cluster's {} and {} GiB of data on its \
             hosts' vSAN.</p>\n</details>",
            escape(&d.cluster),
            chosen.hosts,
            escape(sku),
            designs.chosen.label(),
            crate::numbers::counted(d.vms as u64, "VM"),
            g(chosen.vsan_data_gib, 0)
        );
    }
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

/// The causes that can change the decision ([`warnings::decisive`]) on the summary page of a
/// one-cluster or per-cluster plan.
fn key_causes(s: &mut String, grouped: &[Cause]) {
    let plan_wide: Vec<Cause> = grouped.iter().filter(|c| c.decisive).cloned().collect();
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

/// Each chart as an inline SVG figure (its XML declaration dropped; a cluster name's
/// control characters and bidi overrides in its labels shown escaped, as [`escape`] shows
/// them, so they cannot reorder the page).
fn charts_html(charts: &[Chart]) -> String {
    use crate::report::safe::{Keep, escape_controls};
    let mut s = String::new();
    for (_, svg) in charts {
        let svg = match svg.find("<svg") {
            Some(i) => escape_controls(&svg[i..], Keep::Layout),
            None => continue,
        };
        let _ = writeln!(s, "<figure class=\"chart\">\n{svg}\n</figure>");
    }
    s
}

//! One model, many formats (issue 19, item 5): every section the report model yields for a
//! plan (`dsplan::report::model`) shows, by its title, in the text (`--detail` for an
//! estate), the Markdown and the HTML of the same plan, and the workbook has its sheet.
//! A section added to the model once therefore fails here until every format shows it.
#![cfg(feature = "xlsx")]

use std::io::Cursor;
use std::path::PathBuf;

use calamine::{Reader, Xlsx};
use dsplan::report::model::table::Section;
use dsplan::report::{self, Format, TextDetail};
use dsplan::{PlanOptions, Planner};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate.xlsx")
}

/// The options of `--iops 20000 --throughput-mibps 500`, changed by `f`.
fn options(f: impl FnOnce(&mut PlanOptions)) -> PlanOptions {
    let mut o = PlanOptions {
        iops: 20_000.0,
        throughput_mibps: 500.0,
        ..PlanOptions::default()
    };
    f(&mut o);
    o
}

/// The formats of one plan: text, Markdown, HTML and the workbook's sheet names.
struct Formats {
    text: String,
    md: String,
    html: String,
    sheets: Vec<String>,
}

fn sheet_names(bytes: Vec<u8>) -> Vec<String> {
    Xlsx::new(Cursor::new(bytes)).unwrap().sheet_names()
}

/// A text section's title is a line of its own; a Markdown section's a heading at any
/// level; an HTML section's a heading (`<h2>` ... `<h6>`, or a `<summary>`), its text
/// escaped; the workbook has the section's sheet.
fn assert_shown(sections: &[Section], f: &Formats, what: &str) {
    assert!(!sections.is_empty(), "{what}: the model yields sections");
    for s in sections {
        let t = &s.title;
        assert!(
            f.text.lines().any(|l| l == t),
            "{what}: text lacks the line {t:?}"
        );
        assert!(
            f.md.lines()
                .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == t),
            "{what}: Markdown lacks the heading {t:?}"
        );
        let escaped = dsplan::report::html::escape(t);
        assert!(
            (2..=6).any(|h| f.html.contains(&format!("<h{h}>{escaped}</h{h}>"))),
            "{what}: HTML lacks the heading {escaped:?}"
        );
        assert!(
            f.sheets.iter().any(|n| n == s.sheet),
            "{what}: the workbook lacks the sheet {:?} of {t:?}",
            s.sheet
        );
    }
}

// `--hosts 3`: one cluster's plan. Its model sections are the demand, the pools, the
// datastores, the placement, the predictions, the binding limits, the alternatives and
// marginal costs (computed for every one-cluster plan), the vSAN comparison, the excluded
// VMs (the fixture's template), the assumptions and the prices (the plan uses Flexible
// capacity and throughput prices); no time phases without peak months.
#[test]
fn every_section_of_one_clusters_plan_shows_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| o.hosts = Some(3)))
        .plan()
        .unwrap();
    let sections = report::model::plan::plan_sections(&plan);
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Demand",
            "Pools",
            "Datastores",
            "Placement",
            "Predicted performance",
            "Binding limits",
            "Alternatives",
            "Marginal costs",
            "vSAN-only comparison (capacity)",
            "Excluded VMs",
            "Assumptions",
            "Prices (eastus)"
        ]
    );
    let f = Formats {
        text: report::render_plan(&plan, Format::Text).unwrap(),
        md: report::render_plan(&plan, Format::Markdown).unwrap(),
        html: report::render_plan(&plan, Format::Html).unwrap(),
        sheets: sheet_names(report::xlsx::plan_xlsx(&plan).unwrap().bytes),
    };
    assert_shown(&sections, &f, "--hosts 3");
}

// `--per-cluster`: the assumptions and prices both clusters' plans share once, then each
// cluster's pools, datastores and own assumptions (Dev's and Prod's hosts differ, so each
// has its own).
// The peak plan of `--hosts 3`: its time phases too.
#[test]
fn a_time_phased_plans_phases_show_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| {
            o.hosts = Some(3);
            o.peak_months = Some(3);
            o.peak_iops = 40_000.0;
        }))
        .plan()
        .unwrap();
    let sections = report::model::plan::plan_sections(&plan);
    assert!(sections.iter().any(|s| s.title == "Time-phased plan"));
    let f = Formats {
        text: report::render_plan(&plan, Format::Text).unwrap(),
        md: report::render_plan(&plan, Format::Markdown).unwrap(),
        html: report::render_plan(&plan, Format::Html).unwrap(),
        sheets: sheet_names(report::xlsx::plan_xlsx(&plan).unwrap().bytes),
    };
    assert_shown(&sections, &f, "--hosts 3 --peak-months 3");
}

#[test]
fn every_section_of_per_cluster_plans_shows_in_every_format() {
    let plans = Planner::new()
        .input(fixture())
        .options(options(|o| o.per_cluster = true))
        .plan_per_cluster()
        .unwrap();
    let f = Formats {
        text: report::render_cluster_plans(&plans, Format::Text).unwrap(),
        md: report::render_cluster_plans(&plans, Format::Markdown).unwrap(),
        html: report::render_cluster_plans(&plans, Format::Html).unwrap(),
        sheets: sheet_names(report::xlsx::cluster_plans_xlsx(&plans).unwrap().bytes),
    };
    assert_eq!(plans.clusters.len(), 2, "Dev and Prod");
    let sections = report::model::estate_sections::cluster_plans_sections(&plans);
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    let own = "This cluster's assumptions (the others are the estate's)";
    assert_eq!(
        titles,
        [
            "Assumptions (every cluster's ANF plan; a cluster's own follow its plan)",
            "Prices (eastus; every cluster's ANF plan)",
            "Pools",
            "Datastores",
            own,
            "Pools",
            "Datastores",
            own
        ]
    );
    assert_shown(&sections, &f, "--per-cluster");
}

// The estate (`--design anf`, so each AVS cluster has an ANF plan): the estate's own
// sections, at `--detail` in text.
#[test]
fn every_section_of_an_estate_plan_shows_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| o.design = Some(dsplan::plan::Design::Anf)))
        .plan_estate()
        .unwrap();
    assert!(!plan.clusters.is_empty(), "ANF for all gives cluster plans");
    let f = Formats {
        text: report::render_estate_text(&plan, TextDetail::Full),
        md: report::render_estate_plan(&plan, Format::Markdown).unwrap(),
        html: report::render_estate_plan(&plan, Format::Html).unwrap(),
        sheets: sheet_names(report::xlsx::estate_xlsx(&plan).unwrap().bytes),
    };
    let sections = report::model::estate_sections::estate_sections(&plan);
    assert_shown(&sections, &f, "estate");
}

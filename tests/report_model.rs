//! One model, many formats (issue 19, item 5): every section the report model yields for a
//! plan (`dsplan::report::model`) shows, by its title, in the text (`--detail` for an
//! estate), the Markdown and the HTML of the same plan, and the workbook has its sheet.
//! A section added to the model once therefore fails here until every format shows it.
#![cfg(feature = "xlsx")]

use std::io::Cursor;
use std::path::PathBuf;

use calamine::{Reader, Xlsx};
use dsplan::report::model::table::{Cell, Section};
use dsplan::report::words::customer_words;
use dsplan::report::{self, Format, TextDetail, html};
use dsplan::{PlanOptions, Planner};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate.xlsx")
}

/// The options of `--iops 20000 --throughput-mibps 500`, changed by `f`.
fn options(f: impl FnOnce(&mut PlanOptions)) -> PlanOptions {
    let mut o = PlanOptions::default()
        .iops(20_000.0)
        .throughput_mibps(500.0);
    f(&mut o);
    o
}

/// `html` without the spans around each setting's flag (`<span class="setting"
/// data-setting="hosts">--hosts</span>` is `--hosts`), so its text compares with the
/// other formats'.
fn without_setting_spans(html: &str) -> String {
    const OPEN: &str = "<span class=\"setting\" data-setting=\"";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len()..];
        let start = after.find("\">").unwrap() + 2;
        let end = start + after[start..].find("</span>").unwrap();
        out.push_str(&after[start..end]);
        rest = &after[end + "</span>".len()..];
    }
    out.push_str(rest);
    out
}

/// The formats of one plan: text, Markdown, HTML and the workbook's sheets (name and
/// every cell as text).
struct Formats {
    text: String,
    md: String,
    html: String,
    sheets: Vec<String>,
    cells: Vec<(String, Vec<String>)>,
}

impl Formats {
    fn new(text: String, md: String, html: String, book: Vec<u8>) -> Formats {
        let mut xlsx = Xlsx::new(Cursor::new(book)).unwrap();
        let sheets = xlsx.sheet_names();
        let cells = sheets
            .iter()
            .map(|n| {
                let range = xlsx.worksheet_range(n).unwrap();
                (
                    n.clone(),
                    range.cells().map(|(_, _, c)| c.to_string()).collect(),
                )
            })
            .collect();
        Formats {
            text,
            md,
            html: without_setting_spans(&html),
            sheets,
            cells,
        }
    }
}

/// Whether `line` holds each of `parts` in order.
fn in_order(line: &str, parts: &[String]) -> bool {
    let mut rest = line;
    for p in parts {
        match rest.find(p.as_str()) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

/// Every table's first row shows in every format: in the text a line with its cells in
/// order; in the Markdown a table row with them; in the HTML a row of `<td>`s with them
/// (in customer words, escaped); in the workbook its first cell (words, or a figure to
/// the cent; an item / value table's value) on the section's sheet, unless that sheet is
/// an item / value summary.
fn assert_first_rows_shown(sections: &[Section], f: &Formats, what: &str) {
    let mut missing = Vec::new();
    for s in sections {
        let Some(row) = s.table.as_ref().and_then(|t| t.rows.first()) else {
            continue;
        };
        let shown: Vec<String> = row.iter().map(Cell::shown).collect();
        let t = &s.title;
        assert!(
            f.text.lines().any(|l| in_order(l, &shown)),
            "{what}: text lacks the first row of {t:?}: {shown:?}"
        );
        assert!(
            f.md.lines()
                .any(|l| l.starts_with('|') && in_order(l, &shown)),
            "{what}: Markdown lacks the first row of {t:?}: {shown:?}"
        );
        let tds: Vec<String> = shown
            .iter()
            .map(|c| format!(">{}</td>", html::escape(&customer_words(c))))
            .collect();
        assert!(
            f.html
                .lines()
                .any(|l| l.starts_with("<tr") && in_order(l, &tds)),
            "{what}: HTML lacks the first row of {t:?}: {tds:?}"
        );
        // An item / value table's first cell names its row; the workbook has its value.
        let item_value = s
            .table
            .as_ref()
            .is_some_and(|t| t.columns[0].name == "item");
        let first = &row[usize::from(item_value)];
        let on_sheet = |cell: &String| match first {
            Cell::Text(w) | Cell::Name(w) => cell == w || *cell == customer_words(w),
            Cell::Number { value, .. } | Cell::Usd(value) => {
                cell.parse::<f64>().is_ok_and(|c| (c - value).abs() < 0.005)
            }
            other => *cell == other.shown(),
        };
        let (_, cells) = f
            .cells
            .iter()
            .find(|(n, _)| n == s.sheet)
            .unwrap_or_else(|| panic!("{what}: no sheet {:?}", s.sheet));
        // `Summary` and `Total` are the JSON's totals as item / value rows (their costs
        // formulas over the other sheets), not the section's rows.
        if cells.first().is_some_and(|c| c == "item") {
            continue;
        }
        if !cells.iter().any(on_sheet) {
            missing.push(format!("{:?} of {t:?}: {first:?}", s.sheet));
        }
    }
    assert!(
        missing.is_empty(),
        "{what}: sheets lack the first cell of their section: {missing:?}"
    );
}

/// The first sections of the fixture's plan at 3 hosts, alone or as a cluster of
/// `--per-cluster`: the demand, the pools, the datastores, the placement, the predictions,
/// the binding limits, the alternatives and marginal costs (computed for every cluster's
/// plan) and the vSAN comparison.
const PLAN_TITLES: [&str; 9] = [
    "Demand",
    "Pools",
    "Datastores",
    "Placement",
    "Predicted performance",
    "Binding limits",
    "Alternatives",
    "Marginal costs",
    "vSAN-only comparison (capacity)",
];

/// A text section's title is a line of its own; a Markdown section's a heading at any
/// level; an HTML section's a heading (`<h1>` ... `<h6>`), its text
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
            (1..=6).any(|h| f.html.contains(&format!("<h{h}>{escaped}</h{h}>"))),
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
// VMs (the fixture's template), the warnings (db-01's RDM disks), the assumptions and the
// prices (the plan uses Flexible capacity and throughput prices); no time phases without
// peak months.
#[test]
fn every_section_of_one_clusters_plan_shows_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| o.hosts = Some(3)))
        .plan()
        .unwrap();
    let sections = report::model::plan::plan_sections(&plan);
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    let mut expected = PLAN_TITLES.to_vec();
    expected.extend([
        "Excluded VMs",
        "Warnings (1)",
        "Assumptions",
        "Prices (eastus)",
    ]);
    assert_eq!(titles, expected);
    let f = Formats::new(
        report::render_plan(&plan, Format::Text).unwrap(),
        report::render_plan(&plan, Format::Markdown).unwrap(),
        report::render_plan(&plan, Format::Html).unwrap(),
        report::xlsx::plan_xlsx(&plan).unwrap().bytes,
    );
    assert_shown(&sections, &f, "--hosts 3");
    assert_first_rows_shown(&sections, &f, "--hosts 3");
}

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
    let f = Formats::new(
        report::render_plan(&plan, Format::Text).unwrap(),
        report::render_plan(&plan, Format::Markdown).unwrap(),
        report::render_plan(&plan, Format::Html).unwrap(),
        report::xlsx::plan_xlsx(&plan).unwrap().bytes,
    );
    assert_shown(&sections, &f, "--hosts 3 --peak-months 3");
    assert_first_rows_shown(&sections, &f, "--hosts 3 --peak-months 3");
}

// `--per-cluster`: the assumptions and prices both clusters' plans share once, then each
// cluster's plan and own assumptions (Dev's and Prod's hosts differ, so each has its own),
// the total and the excluded VMs.
#[test]
fn every_section_of_per_cluster_plans_shows_in_every_format() {
    let plans = Planner::new()
        .input(fixture())
        .options(options(|o| o.per_cluster = true))
        .plan_per_cluster()
        .unwrap();
    let f = Formats::new(
        report::render_cluster_plans(&plans, Format::Text).unwrap(),
        report::render_cluster_plans(&plans, Format::Markdown).unwrap(),
        report::render_cluster_plans(&plans, Format::Html).unwrap(),
        report::xlsx::cluster_plans_xlsx(&plans).unwrap().bytes,
    );
    assert_eq!(plans.clusters.len(), 2, "Dev and Prod");
    let sections = report::model::cluster_plans::cluster_plans_sections(&plans);
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    let own = "This cluster's assumptions (the others are the estate's)";
    // Each cluster's plan as one cluster's, but its excluded VMs (the estate's, at the
    // end), its warnings (none of a cluster's own: the RDM warning is the input's) and the
    // assumptions and prices both share.
    let mut cluster = PLAN_TITLES.to_vec();
    cluster.push(own);
    let mut expected = vec![
        "Assumptions (every cluster's ANF plan; a cluster's own follow its plan)",
        "Prices (eastus; every cluster's ANF plan)",
    ];
    expected.extend(&cluster);
    expected.extend(&cluster);
    expected.extend(["Total over 2 clusters", "Excluded VMs of the estate"]);
    assert_eq!(titles, expected);
    assert_shown(&sections, &f, "--per-cluster");
    assert_first_rows_shown(&sections, &f, "--per-cluster");
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
    let f = Formats::new(
        report::render_estate_text(&plan, TextDetail::Full),
        report::render_estate_plan(&plan, Format::Markdown).unwrap(),
        report::render_estate_plan(&plan, Format::Html).unwrap(),
        report::xlsx::estate_xlsx(&plan).unwrap().bytes,
    );
    let sections = report::model::estate_sections::estate_sections(&plan);
    assert_shown(&sections, &f, "estate");
    assert_first_rows_shown(&sections, &f, "estate");
}

// The per-cluster total: its last row adds up the clusters' rows (hosts, datastores, pool
// TiB, placed GiB, USD/month), each format shows that row, and the sentence before the
// table says the same figures.
#[test]
fn the_per_cluster_total_adds_up_its_rows_in_every_format() {
    let plans = Planner::new()
        .input(fixture())
        .options(options(|o| o.per_cluster = true))
        .plan_per_cluster()
        .unwrap();
    let total = report::model::cluster_plans::total(&plans);
    let table = total.table.as_ref().unwrap();
    // Dev and Prod, then the total.
    assert_eq!(table.rows.len(), 3);
    let figure = |c: &Cell| match c {
        Cell::Count(n) => *n as f64,
        Cell::Number { value, .. } | Cell::Usd(value) => *value,
        other => panic!("not a figure: {other:?}"),
    };
    let last = &table.rows[2];
    assert_eq!(last[0], Cell::text("total"));
    let (dev, prod) = (&table.rows[0], &table.rows[1]);
    for (col, total) in last.iter().enumerate().skip(1) {
        // Each column's total = Dev's + Prod's (the JSON's per-cluster totals).
        let sum = figure(&dev[col]) + figure(&prod[col]);
        assert!(
            (figure(total) - sum).abs() < 0.005,
            "column {col}: {} against {sum}",
            figure(total)
        );
    }
    // 3 + 3 hosts, 1 + 1 datastores (the fixture's two clusters at the 3-host minimum,
    // each on one datastore).
    assert_eq!(last[1], Cell::Count(6));
    assert_eq!(last[2], Cell::Count(2));
    let shown: Vec<String> = last.iter().map(Cell::shown).collect();
    let lead = &total.lead[0];
    assert!(lead.starts_with("6 hosts, 2 datastores, "), "{lead}");
    assert!(lead.ends_with(&format!("{} USD/month", shown[5])), "{lead}");
    let text = report::render_cluster_plans(&plans, Format::Text).unwrap();
    let md = report::render_cluster_plans(&plans, Format::Markdown).unwrap();
    let html = report::render_cluster_plans(&plans, Format::Html).unwrap();
    assert!(text.lines().any(|l| in_order(l, &shown)), "{text}");
    assert!(md.contains(&format!("| {} |", shown.join(" | "))), "{md}");
    let tds: Vec<String> = shown.iter().map(|c| format!(">{c}</td>")).collect();
    assert!(html.lines().any(|l| in_order(l, &tds)), "{html}");
}

// One cluster's headline: every sentence shows in the text (the first after `dsplan plan: `),
// the Markdown (the first in bold, then list entries) and the HTML (in customer words),
// with the monthly cost the plan's: 3 TiB Flexible = 3,072 GiB x 0.110230 = 338.63 USD of
// capacity, plus 500 MiB/s of which Flexible includes 128, 372 purchased x 2.249860 =
// 836.95 USD; 1,175.58 USD/month.
#[test]
fn one_clusters_headline_shows_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| o.hosts = Some(3)))
        .plan()
        .unwrap();
    let headline = report::model::headline::plan_headline(&plan);
    assert_eq!(headline.title, "ANF datastore plan");
    assert_eq!(
        headline.lead[1],
        "monthly cost: 1,175.58 USD (eastus, US East, prices effective 2025-09-01)"
    );
    let text = report::render_plan(&plan, Format::Text).unwrap();
    let md = report::render_plan(&plan, Format::Markdown).unwrap();
    let html = report::render_plan(&plan, Format::Html).unwrap();
    assert!(text.starts_with(&format!("dsplan plan: {}\n", headline.lead[0])));
    assert!(md.starts_with("# ANF datastore plan\n"), "{md}");
    assert_headline_shown(&headline, &text, &md, &without_setting_spans(&html));
}

// The estate's headline and designs (`--design anf`): the headline's sentences show in
// the text `--detail` (the first after `Estate: `), the Markdown and the HTML; the designs
// table's `vs chosen` column is each design's total less the chosen one's, in every
// format. By hand: 6 av36p hosts x 9.20 USD/h x 730 h = 40,296.00 USD/month; vSAN alone
// is those hosts alone, ANF for all adds the two clusters' pools (326.62 + 563.23 =
// 889.85) and one ExpressRoute gateway (1,365.10): 42,550.95; so vSAN alone is -2,254.95
// against the forced ANF for all.
#[test]
fn the_estates_headline_and_designs_show_in_every_format() {
    let plan = Planner::new()
        .input(fixture())
        .options(options(|o| o.design = Some(dsplan::plan::Design::Anf)))
        .plan_estate()
        .unwrap();
    let text = report::render_estate_text(&plan, TextDetail::Full);
    let md = report::render_estate_plan(&plan, Format::Markdown).unwrap();
    let html = report::render_estate_plan(&plan, Format::Html).unwrap();
    let headline = report::model::estate_headline::estate_headline(&plan, true);
    assert!(text.starts_with(&format!("Estate: {}\n", headline.lead[0])));
    assert_headline_shown(&headline, &text, &md, &without_setting_spans(&html));
    let designs = plan.designs.as_ref().unwrap();
    let section = report::model::designs::estate(designs, true);
    let rows = &section.table.as_ref().unwrap().rows;
    let row = |label: &str| rows.iter().find(|r| r[0] == Cell::text(label)).unwrap();
    assert_eq!(row("ANF for all")[7], Cell::MaybeUsd(Some(42_550.95)));
    assert_eq!(row("ANF for all")[9], Cell::text("(chosen)"));
    assert_eq!(row("vSAN alone")[7], Cell::MaybeUsd(Some(40_296.0)));
    assert_eq!(row("vSAN alone")[9], Cell::text("-2,254.95"));
    let sections = report::model::estate_sections::estate_sections(&plan);
    assert!(
        sections.iter().any(|s| s == &section),
        "the estate's sections hold the designs"
    );
    let vsan: Vec<String> = row("vSAN alone").iter().map(Cell::shown).collect();
    assert!(text.lines().any(|l| in_order(l, &vsan)), "text: {vsan:?}");
    assert!(
        md.contains(&format!("| {} |", vsan.join(" | "))),
        "Markdown"
    );
}

/// Every sentence of a headline shows: in the text at a line's end, in the Markdown and
/// the HTML (in customer words, escaped) past its first letter (upper case there).
fn assert_headline_shown(headline: &Section, text: &str, md: &str, html: &str) {
    for line in &headline.lead {
        assert!(
            text.lines().any(|l| l.ends_with(line.as_str())),
            "text: {line}"
        );
        assert!(
            md.lines().any(|l| l.contains(&line[1..])),
            "Markdown: {line}"
        );
        let words = html::escape(&customer_words(&line[1..]));
        assert!(html.contains(&words), "HTML: {words}");
    }
}

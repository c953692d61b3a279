//! `dsplan plan --format html`: one self-contained document (no script, nothing fetched),
//! in customer words (no `data/` file, no snake_case setting name), input names escaped,
//! the JSON's monthly total on it; printed with a real headless Chromium, page 1 of the PDF
//! carries that total.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

include!("support/command.rs");
include!("support/usd.rs");

/// The command's stdout; fails the test with its stderr when it fails.
fn run(args: &[&str]) -> String {
    let o = dsplan(args);
    assert!(o.status.success(), "dsplan {args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The document's text: tags, the style sheet and the SVG charts' markup removed.
fn text_of(html: &str) -> String {
    let mut s = html.to_string();
    if let (Some(a), Some(b)) = (s.find("<style>"), s.find("</style>")) {
        s.replace_range(a..b, "");
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Words of lower-case letters joined by `_` (`host_sku`, `vcpu_per_core`).
fn snake_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            let parts: Vec<&str> = w.split('_').collect();
            parts.len() > 1
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase()))
        })
        .map(str::to_string)
        .collect()
}

/// Every `src="..."` / `href="..."` value of the document.
fn references(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\"", "src='", "href='", "url("] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find(['"', '\'', ')']).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// What every HTML document of the command must hold: self-contained, no script, customer
/// words, real tables.
fn assert_customer_document(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.to_lowercase().contains("<script"), "a script");
    let remote: Vec<String> = references(html)
        .into_iter()
        .filter(|r| r.contains("//"))
        .collect();
    assert!(remote.is_empty(), "references to a host: {remote:?}");
    let text = text_of(html);
    assert!(!text.contains("data/"), "a data/ file name");
    assert_eq!(snake_words(&text), Vec::<String>::new(), "snake_case words");
    assert!(html.contains("<table>") && html.contains("</table>"));
    assert!(html.contains("@page") && html.contains("@media print"));
}

#[test]
fn the_estate_document_is_self_contained_and_carries_the_json_total() {
    let fixture = "fixtures/small-estate.xlsx";
    let html = run(&["plan", fixture, "--format", "html"]);
    let json: serde_json::Value =
        serde_json::from_str(&run(&["plan", fixture, "--format", "json"])).unwrap();
    let total = json["summary"]["total_usd_per_month"].as_f64().unwrap();
    // 6 av36p hosts (two source clusters at the 3-host minimum) x 9.20 USD per host-hour
    // (East US pay-as-you-go) x 730 h = 40,296.00 USD/month; vSAN alone, no ANF, no gateway.
    assert!((total - 6.0 * 9.20 * 730.0).abs() < 0.005, "{total}");
    assert_eq!(usd(total), "40,296.00");
    assert_customer_document(&html);
    let summary_end = html.find("id=\"tables\"").unwrap();
    assert!(
        html[..summary_end].contains("40,296.00"),
        "total not on page one"
    );
    // 12 x 40,296.00 = 483,552.00 USD/year, also on page one.
    assert!(html[..summary_end].contains("483,552.00"));
    for section in [
        "summary",
        "tables",
        "charts",
        "assumptions",
        "warnings",
        "excluded",
    ] {
        assert!(html.contains(&format!("id=\"{section}\"")), "{section}");
    }
    assert!(html.contains("<svg"), "charts inline");
    // The `--vcpu-per-core` row of the assumptions, named by its flag in a span naming the
    // setting (the web page shows its own control's name instead).
    assert!(html.contains(
        "<td><span class=\"setting\" data-setting=\"vcpu_per_core\">--vcpu-per-core</span></td>"
    ));
    // Every table scrolls sideways in a region the keyboard reaches, named by its section.
    let tables = html.matches("<table>").count();
    let regions = html.matches("role=\"region\" aria-label=\"").count();
    assert!(tables >= 5, "{tables} tables");
    assert_eq!(regions, tables);
    assert_eq!(html.matches("tabindex=\"0\"><table>").count(), tables);
}

#[test]
fn the_markdown_report_is_in_customer_words_too() {
    let fixture = "fixtures/small-estate.xlsx";
    for extra in [&[][..], &["--hosts", "3"][..], &["--per-cluster"][..]] {
        let md = run(&[&["plan", fixture, "--format", "md"][..], extra].concat());
        assert!(!md.contains("data/"), "{extra:?}: a data/ file name");
        assert_eq!(snake_words(&md), Vec::<String>::new(), "{extra:?}");
    }
}

#[test]
fn one_cluster_and_per_cluster_plans_render_too() {
    let fixture = "fixtures/small-estate.xlsx";
    let one = run(&["plan", fixture, "--hosts", "3", "--format", "html"]);
    assert_customer_document(&one);
    assert!(one.contains("<h1>ANF datastore plan</h1>"));
    // Page one compares the plan with its alternatives.
    let page_one = &one[..one.find("id=\"tables\"").unwrap()];
    assert!(page_one.contains("<h2>Alternatives</h2>"));
    let per = run(&["plan", fixture, "--per-cluster", "--format", "html"]);
    assert_customer_document(&per);
    // Two source clusters, Dev and Prod: one <details> each, open so they print.
    assert_eq!(per.matches("<details open>").count(), 2);
    // The assumptions and prices both clusters' plans share once, not per cluster; each
    // cluster keeps its own (its `hosts` at least: Dev's and Prod's differ) in its details.
    assert_eq!(
        per.matches("<h2>Assumptions (every cluster&#39;s ANF plan;")
            .count(),
        1
    );
    assert_eq!(per.matches("<h2>Prices (eastus; every cluster").count(), 1);
    assert_eq!(per.matches("<h4>This cluster&#39;s assumptions").count(), 2);
}

#[test]
fn names_from_the_input_are_escaped() {
    let dir = std::env::temp_dir().join(format!("dsplan-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("vinfo.csv");
    std::fs::write(
        &csv,
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Datacenter\",\"Cluster\",\"Host\"\n\
         \"<script>alert(1)</script>\",\"poweredOn\",\"False\",\"4\",\"16384\",\"102400\",\
         \"51200\",\"DC1\",\"<b>&amp\",\"esx-01\"\n\
         \"app_server_1\",\"poweredOn\",\"False\",\"4\",\"16384\",\"102400\",\"51200\",\"DC1\",\
         \"<b>&amp\",\"esx-01\"\n",
    )
    .unwrap();
    let html = run(&[
        "plan",
        csv.to_str().unwrap(),
        "--hosts",
        "3",
        "--format",
        "html",
    ]);
    assert!(!html.contains("<script"), "the VM name is markup");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "VM name shown"
    );
    assert!(!html.contains("<b>"), "the cluster name is markup");
    // An input name keeps its underscores: it is not a setting's name.
    assert!(html.contains("app_server_1"));
    assert!(!html.contains("app server 1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_inventory_has_no_html_as_it_has_no_markdown() {
    let md = dsplan(&["inventory", "fixtures/small-estate.xlsx", "--format", "md"]);
    let html = dsplan(&[
        "inventory",
        "fixtures/small-estate.xlsx",
        "--format",
        "html",
    ]);
    assert!(!html.status.success());
    assert_eq!(html.status.code(), md.status.code());
    assert!(String::from_utf8_lossy(&html.stderr).contains("--format"));
}

fn tool(path: &str, name: &str) -> Option<PathBuf> {
    let found = [path.to_string(), format!("/usr/bin/{name}")]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    if found.is_none() {
        println!("skipped: {name} not found");
    }
    found
}

/// The workshop export of `../shared`, or `None` after printing that it skipped.
fn workshop() -> Option<PathBuf> {
    shared("sizing-workshop-805vms.xlsx")
}

/// `html` printed to PDF by a headless Chromium with a profile of its own.
fn print_to_pdf(chromium: &Path, html: &Path, pdf: &Path, profile: &Path) {
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(
        pdf.is_file(),
        "no PDF: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn page_one_of_the_printed_workshop_plan_carries_the_monthly_total() {
    let Some(input) = workshop() else { return };
    let Some(chromium) = tool("/usr/bin/chromium", "chromium") else {
        return;
    };
    let (Some(pdftotext), Some(pdfinfo)) = (
        tool("/usr/bin/pdftotext", "pdftotext"),
        tool("/usr/bin/pdfinfo", "pdfinfo"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("dsplan-html-pdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("plan.html");
    let input = input.to_str().unwrap();
    let targets = ["--iops", "200000", "--throughput-mibps", "4000"];
    let mut args = vec!["plan", input];
    args.extend(targets);
    let json: serde_json::Value =
        serde_json::from_str(&run(&[args.clone(), vec!["--format", "json"]].concat())).unwrap();
    run(&[args, vec!["--format", "html", "-o", html.to_str().unwrap()]].concat());
    let total = usd(json["summary"]["total_usd_per_month"].as_f64().unwrap());
    let document = std::fs::read_to_string(&html).unwrap();
    assert_customer_document(&document);
    assert!(document.contains(&total));
    let pdf = dir.join("plan.pdf");
    print_to_pdf(&chromium, &html, &pdf, &dir.join("profile"));
    let page1 = Command::new(pdftotext)
        .args(["-f", "1", "-l", "1"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let page1 = String::from_utf8_lossy(&page1.stdout);
    assert!(page1.contains(&total), "page 1 lacks {total}:\n{page1}");
    let info = Command::new(pdfinfo).arg(&pdf).output().unwrap();
    let info = String::from_utf8_lossy(&info.stdout);
    let pages = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map(str::trim)
        .unwrap_or("?");
    println!("page 1 of the printed workshop plan carries {total} USD/month; {pages} pages");
    std::fs::remove_dir_all(&dir).unwrap();
}

use dsplan::report::xlsx::NAME_HEADERS;

/// Every text cell of `path`'s sheets with its sheet and column header.
fn workbook_texts(path: &Path) -> Vec<(String, String, String)> {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    let mut out = Vec::new();
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).unwrap();
        let mut rows = range.rows();
        let header: Vec<String> = rows
            .next()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        for row in rows {
            for (c, cell) in row.iter().enumerate() {
                if let Data::String(s) = cell {
                    let h = header.get(c).cloned().unwrap_or_default();
                    out.push((name.clone(), h, s.clone()));
                }
            }
        }
    }
    out
}

// The workbook is in customer words as the HTML and Markdown are: no `data/` file name and
// no snake_case setting name in any cell but the columns of names; a cluster named
// `prod_east` (the input's own name) keeps its underscore there.
#[test]
fn the_workbook_is_in_customer_words_and_keeps_the_inputs_names() {
    let dir = std::env::temp_dir().join(format!("dsplan-html-xlsx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("names.csv");
    std::fs::write(
        &csv,
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Cluster\",\"VM ID\",\"VI SDK Server\"\n\
         \"app_server_1\",\"poweredOn\",\"False\",\"2\",\"4096\",\"102400\",\"51200\",\
         \"prod_east\",\"vm-1\",\"vc\"\n",
    )
    .unwrap();
    let inputs = [
        vec!["fixtures/small-estate.xlsx", "--design", "anf"],
        vec!["fixtures/small-estate.xlsx", "--hosts", "3"],
        vec!["fixtures/small-estate.xlsx", "--per-cluster"],
        vec![csv.to_str().unwrap(), "--design", "anf"],
    ];
    for (i, args) in inputs.iter().enumerate() {
        let out = dir.join(format!("plan-{i}.xlsx"));
        let mut all = vec!["plan"];
        all.extend(args.iter().copied());
        all.extend(["--format", "xlsx", "-o", out.to_str().unwrap()]);
        run(&all);
        let texts = workbook_texts(&out);
        assert!(!texts.is_empty());
        for (sheet, header, text) in &texts {
            if NAME_HEADERS.contains(&header.as_str()) {
                continue;
            }
            assert!(!text.contains("data/"), "{args:?} {sheet}/{header}: {text}");
            assert_eq!(
                snake_words(text),
                Vec::<String>::new(),
                "{args:?} {sheet}/{header}: {text}"
            );
        }
        if i == 3 {
            assert!(
                texts
                    .iter()
                    .any(|(_, h, t)| h == "cluster" && t.contains("prod_east")),
                "the cluster keeps its name"
            );
            assert!(
                texts
                    .iter()
                    .any(|(_, h, t)| h == "VM" && t == "app_server_1")
            );
        }
    }
}

/// The value of the headline card labelled `label` on page one of `html`.
fn card_value<'a>(html: &'a str, label: &str) -> &'a str {
    let page_one = &html[..html.find("id=\"tables\"").unwrap_or(html.len())];
    let key = format!("<div class=\"label\">{label}</div><div class=\"value\">");
    let at = page_one
        .find(&key)
        .unwrap_or_else(|| panic!("no card {label:?} on page one"))
        + key.len();
    let end = page_one[at..].find("</div>").unwrap() + at;
    &page_one[at..end]
}

// Page one of a `--hosts N` and a `--per-cluster` plan carries headline cards as the
// estate's does: the decision, the monthly and yearly cost, and the savings the plan has.
#[test]
fn one_cluster_and_per_cluster_page_one_has_headline_cards() {
    let fixture = "fixtures/small-estate.xlsx";
    let flags = [
        "--hosts",
        "3",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
    ];
    let json: serde_json::Value = serde_json::from_str(&run(&[
        &["plan", fixture][..],
        &flags,
        &["--format", "json"],
    ]
    .concat()))
    .unwrap();
    let html = run(&[&["plan", fixture][..], &flags, &["--format", "html"]].concat());
    let monthly = json["totals"]["cost_usd_per_month"].as_f64().unwrap();
    // 1 Flexible pool of 3 TiB: 1,175.58 USD/month, no peak months, no cool tier: a year
    // is 12 x 1,175.58 = 14,106.96.
    assert_eq!(monthly, 1175.58);
    assert_eq!(card_value(&html, "Monthly cost, USD"), "1,175.58");
    assert_eq!(card_value(&html, "Yearly cost, USD"), "14,106.96");
    assert_eq!(
        card_value(&html, "Decision"),
        "1 ANF datastore on flexible (3 TiB)"
    );
    // The chosen layout saves, against the cheapest feasible alternative that costs more,
    // that alternative's extra cost.
    let next = json["alternatives"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["feasible"] == true)
        .filter_map(|a| a["extra_cost_usd_per_month"].as_f64())
        .filter(|x| *x > 0.0)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(
        card_value(&html, "Saves against the next cheapest layout, USD/month"),
        usd(next)
    );

    // The peak plan: 12 x 898.35 = 10,780.20 USD/year (the peak months fit the base
    // layout) + the first month's cool transfer, 1,080 GiB x 0.02 = 21.60: 10,801.80; it
    // saves 0.00 against the peak layout all year (the same layout).
    let peak = run(&[
        &["plan", fixture][..],
        &PEAK_PLAN_FLAGS,
        &["--format", "html"],
    ]
    .concat());
    assert_eq!(card_value(&peak, "Monthly cost, USD"), "898.35");
    assert_eq!(card_value(&peak, "Yearly cost, USD"), "10,801.80");
    assert_eq!(
        card_value(&peak, "Saves against the peak layout all year, USD/year"),
        "0.00"
    );

    let per = run(&[
        "plan",
        fixture,
        "--per-cluster",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--format",
        "html",
    ]);
    let per_json: serde_json::Value = serde_json::from_str(&run(&[
        "plan",
        fixture,
        "--per-cluster",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--format",
        "json",
    ]))
    .unwrap();
    // Dev and Prod: 326.62 + 563.23 = 889.85 USD/month, 12 x 889.85 = 10,678.20 a year (no
    // reservation, no cool tier).
    assert_eq!(
        per_json["total"]["cost_usd_per_month"].as_f64(),
        Some(889.85)
    );
    assert_eq!(card_value(&per, "Monthly cost, USD"), "889.85");
    assert_eq!(card_value(&per, "Yearly cost, USD"), "10,678.20");
    assert_eq!(
        card_value(&per, "Decision"),
        "2 ANF datastores on 6 hosts (3 TiB of pools) for 2 clusters"
    );
}

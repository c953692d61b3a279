//! An estate of two host SKUs (issue 26, "Mixed SKUs shown as mixed"): AV64 in a Gen 1
//! private cloud needs a first cluster of AV36, AV36P or AV52 hosts, and every place that
//! shows the estate's hosts and SKU says so, each SKU's per-host figures in the AVS
//! clusters' footnote, and the workbook's hosts cost is each SKU's hosts x price x hours.
//!
//! The fixture is `tests/estate_av64.rs`'s one source cluster of 100 VMs x 10 vCPU, 8 GiB,
//! 100 GiB in use (1,000 vCPU, 800 GiB, 10,000 GiB) on AV64, ANF for all. Worked out by hand
//! from `data/avs_hosts.csv`, `data/avs_host_prices.csv` and `data/limits.csv`:
//! - a host runs cores x 4 vCPUs and offers (RAM GB - 48) x 10^9 / 2^30 GiB: AV64 64 x 4 =
//!   256 vCPU, 976 GB = 908.971 GiB ("909.0"); AV36P 36 x 4 = 144 vCPU, 720 GB = 670.552
//!   GiB ("670.6"); AV36 36 x 4 = 144 vCPU, 528 GB = 491.738 GiB ("491.7");
//! - AV64: 1,000 / 256 = 3.91 -> 4 by vCPU, 800 / 908.971 -> 1 by memory; + 1 HA = 5 hosts;
//!   the private cloud's first cluster cannot be AV64 (Gen 1), and moving the only cluster
//!   would leave no AV64 host, so 3 AV36P hosts are added for the management reservation
//!   (72 vCPU, 160.08 GiB: 1 host + 1 HA, raised to the minimum of 3): 5 av64 + 3 av36p;
//! - hosts: 5 x 13.22 x 730 = 48,253.00 + 3 x 9.20 x 730 = 20,148.00 = 68,401.00 USD/month;
//!   ANF: 10,000 GiB x 1.2 headroom = 12,000 GiB -> 12 TiB Flexible x 112.87552 = 1,354.51;
//!   one ExpressRoute gateway 1,365.10; total 68,401.00 + 1,354.51 + 1,365.10 = 71,120.61;
//! - vSAN alone keeps the same 5 AV64 (RAID-5: 9.766 TiB x 4/3 / 0.75 = 17.36 TiB raw <= 5
//!   x 13.97, as `tests/estate_av64.rs` works it out) and the added 3 AV36P: 68,401.00, less
//!   than ANF for all, which is forced here, so ANF for all is "chosen", not "costs least".

#![cfg(feature = "web")]

use std::io::Cursor;

use calamine::{Data, DataType, Range, Reader, Xlsx};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::plan::{Design, EstatePlan};
use dsplan::report::{Format, render_estate_plan};
use dsplan::{PlanOptions, Planned, Planner};

include!("support/estate_fixtures.rs");
include!("support/eval.rs");

/// 100 VMs x 10 vCPU, 8 GiB, 100 GiB in use, one source cluster.
fn one_cluster() -> Inventory {
    inventory(vms("solo", 100, 10, 8.0, 100.0))
}

/// The options of the mixed estate: AV64, ANF for all.
fn av64() -> PlanOptions {
    PlanOptions::default().host_sku("av64").design(Design::Anf)
}

/// The mixed estate: 5 av64 + 3 av36p hosts.
fn mixed() -> EstatePlan {
    plan_anf(one_cluster(), av64())
}

/// The same estate with a made-up 3-year price for AV64 only (6.00 USD per host-hour):
/// AV36, AV36P and AV52 have no 3-year price, so the first cluster is added on the one
/// cheapest at East US's pay-as-you-go list price: AV36P, the only one of the three the
/// region sells (9.20 USD per host-hour; `data/avs_host_prices.csv` has no East US row for
/// AV36 or AV52), not AV36, the first listed (46 / 2.6 GHz = 18 cores x 4 = 72 vCPU,
/// 160.08 GiB: 1 host + 1 HA -> 3); the hosts' cost is unknown.
fn unpriced_first_cluster(dir: &std::path::Path) -> (EstatePlan, PlanOptions) {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join("hosts.csv");
    std::fs::write(
        &file,
        "sku,term,usd_per_hour,region,source\nav64,3y,6.00,eastus,test\n",
    )
    .unwrap();
    let options = av64()
        .host_term(dsplan::sizing::HostTerm::ThreeYear)
        .host_price_file(file);
    (plan_anf(one_cluster(), options.clone()), options)
}

fn scratch(test: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dsplan-mixed-{}-{test}", std::process::id()))
}

/// The mixed estate with AV36P at 20.00 USD per host-hour (a price file): vSAN alone is
/// then AV64's, 5 AV64 + the added 3 AV36P (see the workbook test).
fn dear_av36p(test: &str) -> EstatePlan {
    let dir = scratch(test);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hosts.csv");
    std::fs::write(
        &file,
        "sku,term,usd_per_hour,region,source\nav36p,payg,20.00,eastus,test\n",
    )
    .unwrap();
    plan_anf(one_cluster(), av64().host_price_file(file))
}

#[test]
fn the_plan_is_five_av64_and_three_av36p_hosts() {
    // The figures every other test words: by SKU, priced, and the total.
    let p = mixed();
    let s = &p.summary;
    let by: Vec<(&str, u32, Option<f64>, Option<f64>)> = s
        .hosts_by_sku
        .iter()
        .map(|h| (h.sku.as_str(), h.hosts, h.usd_per_hour, h.usd_per_month))
        .collect();
    assert_eq!(
        by,
        [
            ("av64", 5, Some(13.22), Some(48_253.0)),
            ("av36p", 3, Some(9.2), Some(20_148.0))
        ]
    );
    assert_eq!((s.sku.as_str(), s.hosts), ("av64", 8));
    assert!(close(s.hosts_usd_per_month.unwrap(), 68_401.0));
    assert!(close(s.total_usd_per_month.unwrap(), 71_120.61));
}

#[test]
fn the_per_host_footnote_gives_each_skus_figures_in_every_format() {
    let p = mixed();
    // AV64 256 vCPU, 908.971 GiB; AV36P 144 vCPU, 670.552 GiB (module docs); the sizing's
    // 5 + 3 = 8 hosts hold the VMs' 100 x 10 = 1,000 vCPU and 100 x 8 = 800 GiB.
    let footnote = "Per host: 256 vCPU, 909.0 GiB for VMs on av64 and 144 vCPU, 670.6 GiB on \
                    av36p; cluster hosts = max(by vCPU, by memory) + HA, at least 3. 5 av64 \
                    + 3 av36p hosts, 1,000 vCPU, 800 GiB of memory in 1 private cloud;";
    for format in [Format::Text, Format::Markdown, Format::Html] {
        let out = render_estate_plan(&p, format).unwrap();
        assert!(out.contains(footnote), "{format:?}: {out}");
    }
    // The AV36P first cluster of the 3-year plan: 144 vCPU, 670.552 GiB.
    let dir = scratch("footnote");
    let (p, _) = unpriced_first_cluster(&dir);
    let text = render_estate_plan(&p, Format::Text).unwrap();
    assert!(
        text.contains(
            "Per host: 256 vCPU, 909.0 GiB for VMs on av64 and 144 vCPU, 670.6 GiB on av36p; \
             cluster hosts"
        ),
        "{text}"
    );
    // The host-price line names both SKUs the plan's total waits for.
    assert!(
        text.contains("no public 3y price for av36p too (the plan has hosts of it)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_one_sku_estate_keeps_its_wording() {
    // AV36P alone (the default SKU here): 1,000 / 144 = 6.94 -> 7, + the reservation's 72
    // vCPU: 1,072 / 144 = 7.44 -> 8, + 1 HA = 9 hosts of 144 vCPU, 670.552 GiB.
    let p = plan_anf(one_cluster(), PlanOptions::default().host_sku("av36p"));
    assert_eq!(p.summary.hosts_by_sku.len(), 1);
    let text = render_estate_plan(&p, Format::Text).unwrap();
    assert!(
        text.contains(
            "Per host: 144 vCPU, 670.6 GiB for VMs; cluster hosts = max(by vCPU, by memory) \
             + HA, at least 3. 9 hosts, 1,000 vCPU"
        ),
        "{text}"
    );
    let html = render_estate_plan(&p, Format::Html).unwrap();
    assert!(html.contains(&card("Host SKU", "av36p")), "{html}");
    assert!(html.contains(&card("Hosts", "9")), "{html}");
    // 9 x 9.20 x 730 = 60,444.00: no per-SKU breakdown beside it.
    assert!(
        html.contains("<p>Per month: hosts 60,444.00 + ANF"),
        "{html}"
    );
    let planned = Planned::Estate(Box::new(p));
    let view = dsplan::web::render::view(&planned, &PlanOptions::default()).unwrap();
    assert_eq!(view.decision, "ANF for all: 9 x av36p hosts");
}

/// An HTML headline card.
fn card(label: &str, value: &str) -> String {
    format!(
        "<div class=\"card\"><div class=\"label\">{label}</div><div class=\"value\">{value}</div></div>"
    )
}

#[test]
fn page_one_names_each_sku_and_its_price() {
    let html = render_estate_plan(&mixed(), Format::Html).unwrap();
    assert!(html.contains(&card("Host SKU", "av64 + av36p")), "{html}");
    assert!(html.contains(&card("Hosts", "5 av64 + 3 av36p")), "{html}");
    // 48,253.00 + 20,148.00 = 68,401.00 beside each SKU's hosts and price.
    assert!(
        html.contains(
            "<p>Per month: hosts 68,401.00 (5 av64 hosts at 13.22 USD/h + 3 av36p hosts at \
             9.20 USD/h, payg) + ANF 1,354.51 + ExpressRoute gateways 1,365.10 = \
             <strong>71,120.61 USD</strong>"
        ),
        "{html}"
    );
}

#[test]
fn chart_titles_name_each_sku() {
    let planned = Planned::Estate(Box::new(mixed()));
    let charts = planned.charts(&av64()).unwrap();
    let svg = |name: &str| {
        charts
            .iter()
            .find(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .1
            .clone()
    };
    // The plan's 5 + 3 hosts; vSAN alone its cheapest, AV36P's 9 hosts (60,444.00 against
    // AV64's 68,401.00: `tests/estate_av64.rs`), named as another SKU.
    let hosts = svg("hosts.svg");
    assert!(
        hosts.contains("ANF for all needs 5 av64 + 3 av36p hosts; vSAN alone 9 av36p"),
        "{hosts}"
    );
    // With AV36P dearer vSAN alone is AV64's, the same 5 AV64 and 3 AV36P.
    let dear = Planned::Estate(Box::new(dear_av36p("charts")));
    let dear_charts = dear.charts(&av64()).unwrap();
    let hosts = &dear_charts.iter().find(|c| c.0 == "hosts.svg").unwrap().1;
    assert!(
        hosts.contains("ANF for all needs 5 av64 + 3 av36p hosts; vSAN alone 5 av64 + 3 av36p"),
        "{hosts}"
    );
    // vSAN alone (68,401.00) costs less than the forced ANF for all (71,120.61).
    let designs = svg("cost-by-design.svg");
    assert!(
        designs.contains("ANF for all chosen: 71,120.61 USD/month (5 av64 + 3 av36p hosts)"),
        "{designs}"
    );
    // The one SKU compared (AV64, fixed), its title and its bar.
    let skus = svg("cost-by-alternative.svg");
    assert!(
        skus.contains("5 av64 + 3 av36p (ANF for all) costs least: 71,120.61 USD/month"),
        "{skus}"
    );
    assert!(skus.contains("5 av64 + 3 av36p (chosen)"), "{skus}");
    assert!(!skus.contains("8 x av64"), "{skus}");
}

#[test]
fn the_page_view_names_each_sku_and_the_one_without_a_price() {
    let planned = Planned::Estate(Box::new(mixed()));
    let view = dsplan::web::render::view(&planned, &av64()).unwrap();
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["decision"], "ANF for all: 5 av64 + 3 av36p hosts");
    assert_eq!(json["monthly_cost_usd"], 71_120.61);
    assert_eq!(json["no_host_price_sku"], serde_json::Value::Null);
    assert!(
        view.html.contains(&card("Hosts", "5 av64 + 3 av36p")),
        "{}",
        view.html
    );
    // AV64 priced at 6.00 for 3 years, its AV36P first cluster not: the known part is ANF
    // (1,354.51) + the gateway (1,365.10) = 2,719.61, and the page names AV36P, not AV64,
    // as the SKU whose price is missing.
    let dir = scratch("view");
    let (p, options) = unpriced_first_cluster(&dir);
    let p2 = p.clone();
    let view = dsplan::web::render::view(&Planned::Estate(Box::new(p)), &options).unwrap();
    let json = serde_json::to_value(&view).unwrap();
    // No total decides between the designs: none is recommended, as the report's "design:
    // none recommended" line says; the design shown follows.
    assert_eq!(
        json["decision"],
        "none recommended (no host price to compare); shown: ANF for all: 5 av64 + 3 av36p hosts"
    );
    assert_eq!(json["no_host_price_sku"], "av36p");
    // The month is unknown (the report's card too); the ANF part is known.
    assert_eq!(json["monthly_cost_usd"], serde_json::Value::Null);
    assert_eq!(json["anf_part_usd_per_month"], 2_719.61);
    let text = dsplan::report::render_estate_plan(&p2, dsplan::report::Format::Text).unwrap();
    assert!(text.contains("design: none recommended"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

fn workbook(p: &EstatePlan) -> Xlsx<Cursor<Vec<u8>>> {
    let bytes = dsplan::report::xlsx::estate_xlsx(p).unwrap().bytes;
    Xlsx::new(Cursor::new(bytes)).unwrap()
}

/// The row of `name` on an item / value sheet.
fn item_row(range: &Range<Data>, name: &str) -> usize {
    (0..range.height())
        .find(|r| range.get((*r, 0)).and_then(|d| d.as_string()).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no item {name}"))
}

/// The formula of a cell (calamine's formula range starts at its first formula cell).
fn formula_at(f: &Range<String>, row: usize, c: usize) -> String {
    let (r0, c0) = f.start().unwrap_or((0, 0));
    f.get((row - r0 as usize, c - c0 as usize))
        .cloned()
        .unwrap_or_default()
}

#[test]
fn the_workbooks_hosts_cost_is_each_skus_hosts_x_price_x_hours() {
    let p = mixed();
    let mut book = workbook(&p);
    assert_eq!(&book.sheet_names()[..3], ["Estate", "Hosts", "Sizing"]);
    let h = book.worksheet_range("Hosts").unwrap();
    let hf = book.worksheet_formula("Hosts").unwrap();
    let row = |r: usize| -> Vec<String> {
        (0..7)
            .map(|c| h.get((r, c)).map_or(String::new(), |d| d.to_string()))
            .collect()
    };
    // SKU, hosts, USD/hour, hours, USD/month (5 x 13.22 x 730 = 48,253; 3 x 9.20 x 730 =
    // 20,148), vCPUs and GiB per host (908.971 and 670.552 GiB, module docs).
    assert_eq!(row(1)[..5], ["av64", "5", "13.22", "730", "48253"]);
    assert_eq!(row(2)[..5], ["av36p", "3", "9.2", "730", "20148"]);
    assert_eq!((row(1)[5].as_str(), row(2)[5].as_str()), ("256", "144"));
    let gib = |r: usize| row(r)[6].parse::<f64>().unwrap();
    assert!((gib(1) - 976e9 / 1_073_741_824.0).abs() < 1e-9);
    assert!((gib(2) - 720e9 / 1_073_741_824.0).abs() < 1e-9);
    assert_eq!(formula_at(&hf, 1, 4), "ROUND(B2*C2*D2,2)");
    assert_eq!(formula_at(&hf, 2, 4), "ROUND(B3*C3*D3,2)");
    let e = book.worksheet_range("Estate").unwrap();
    let ef = book.worksheet_formula("Estate").unwrap();
    let at = |name: &str| item_row(&e, name);
    assert_eq!(
        e.get((at("host SKU"), 1)).unwrap().to_string(),
        "av64 + av36p"
    );
    assert_eq!(formula_at(&ef, at("hosts"), 1), "SUM('Hosts'!$B$2:$B$3)");
    assert_eq!(formula_at(&ef, at("host USD/hour"), 1), "'Hosts'!$C$2");
    assert_eq!(
        formula_at(&ef, at("hosts USD/month"), 1),
        "ROUND('Hosts'!$B$2*'Hosts'!$C$2*'Hosts'!$D$2+'Hosts'!$B$3*'Hosts'!$C$3*'Hosts'!$D$3,2)"
    );
    // vSAN alone's rows name each cluster's own SKU. Here vSAN alone is AV36P's (9 hosts,
    // 60,444.00, the cheapest: `tests/estate_av64.rs`); with AV36P at 20.00 USD/h it is
    // AV64's: 5 AV64 + the added 3 AV36P = 48,253.00 + 3 x 20.00 x 730 = 43,800.00 ->
    // 92,053.00 against 9 x 14,600.00 = 131,400.00, and its added first cluster is AV36P.
    let dear = dear_av36p("workbook");
    assert_eq!(dear.summary.vsan_alone_usd_per_month, Some(92_053.0));
    let mut dear_book = workbook(&dear);
    let v = dear_book.worksheet_range("vSAN alone").unwrap();
    let skus: Vec<(String, String)> = (1..v.height())
        .map(|r| {
            (
                v.get((r, 0)).unwrap().to_string(),
                v.get((r, 1)).unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        skus.contains(&("avs-seed-1".into(), "av36p".into())),
        "{skus:?}"
    );
    assert!(
        skus.contains(&("(estate)".into(), "av64 + av36p".into())),
        "{skus:?}"
    );

    // Recomputed, every formula gives its cached figure (the JSON's), and the estate's.
    let mut live = Book::read(&mut book);
    for (sheet, r, c, f, cached) in live.formula_cells() {
        let got = live.eval(&sheet, &f);
        assert!(
            close(got, num_of(&cached)),
            "{sheet} ({r}, {c}) {f}: {got} vs {cached:?}"
        );
    }
    let value = |b: &Book, name: &str| b.number("Estate", at(name), 1);
    assert_eq!(value(&live, "hosts"), 8.0);
    assert!(close(value(&live, "hosts USD/month"), 68_401.0));
    assert!(close(value(&live, "total USD/month"), 71_120.61));
    let year = value(&live, "total USD/year");
    // AV36P's price edited to 10.00: its row 3 x 10.00 x 730 = 21,900.00, the hosts
    // 48,253.00 + 21,900.00 = 70,153.00 (+1,752.00 = 3 x 0.80 x 730), the month 71,120.61 +
    // 1,752.00 = 72,872.61, the year 12 x 1,752.00 = 21,024.00 more; AV64's price, the
    // estate's "host USD/hour", stays 13.22.
    live.edits.insert(("Hosts".into(), 2, 2), 10.0);
    assert!(close(live.number("Hosts", 2, 4), 21_900.0));
    assert!(close(value(&live, "hosts USD/month"), 70_153.0));
    assert!(close(value(&live, "total USD/month"), 72_872.61));
    assert!(close(value(&live, "total USD/year") - year, 21_024.0));
    assert!(close(value(&live, "host USD/hour"), 13.22));
    // AV64's to 14.00: 5 x 0.78 x 730 = 2,847.00 more, 73,000.00; the estate's price too.
    live.edits.insert(("Hosts".into(), 1, 2), 14.0);
    assert!(close(value(&live, "hosts USD/month"), 73_000.0));
    assert!(close(value(&live, "host USD/hour"), 14.0));
}

#[test]
fn a_first_cluster_without_a_price_leaves_the_hosts_cost_unknown() {
    let dir = scratch("xlsx");
    let (p, _) = unpriced_first_cluster(&dir);
    let mut book = workbook(&p);
    let h = book.worksheet_range("Hosts").unwrap();
    let hf = book.worksheet_formula("Hosts").unwrap();
    let cell = |r: usize, c: usize| h.get((r, c)).map_or(String::new(), |d| d.to_string());
    // AV64 5 x 6.00 x 730 = 21,900.00, a formula; AV36P 3 hosts, no price, no cost.
    assert_eq!(
        (1..5).map(|c| cell(1, c)).collect::<Vec<_>>(),
        ["5", "6", "730", "21900"]
    );
    assert_eq!(formula_at(&hf, 1, 4), "ROUND(B2*C2*D2,2)");
    assert_eq!(
        (0..5).map(|c| cell(2, c)).collect::<Vec<_>>(),
        ["av36p", "3", "unknown", "730", "unknown"]
    );
    let e = book.worksheet_range("Estate").unwrap();
    assert_eq!(
        e.get((item_row(&e, "hosts USD/month"), 1))
            .unwrap()
            .to_string(),
        "unknown"
    );
    let live = Book::read(&mut book);
    assert!(close(
        live.number("Estate", item_row(&e, "host USD/hour"), 1),
        6.0
    ));
    let _ = std::fs::remove_dir_all(dir);
}

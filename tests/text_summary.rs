//! An estate's text: the default summary fits a screen (at most 60 lines) and states the
//! JSON's monthly total; `--detail` gives every ANF cluster's plan, with the assumptions
//! and prices the clusters share printed once; every line of the summary is a line of the
//! detail, but for the lines only the summary has (the grouped warnings, the short gateway
//! line, the last line naming what the detail adds) and the host price, whose source only
//! the detail gives.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

include!("support/command.rs");
include!("support/schema_check.rs");
include!("support/plan_json.rs");
include!("support/usd.rs");

/// A screen: the summary's most lines.
const SCREEN_LINES: usize = 60;

/// The text `dsplan plan` prints for `args` (it must succeed).
fn plan_text(args: &[&str]) -> String {
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    let o = dsplan(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn thousands_are_grouped_as_the_text_does() {
    assert_eq!(usd(40296.0), "40,296.00");
    assert_eq!(usd(1574.61), "1,574.61");
    assert_eq!(usd(184_271.71), "184,271.71");
    assert_eq!(usd(2_211_260.52), "2,211,260.52");
    assert_eq!(usd(451.5), "451.50");
}

/// The JSON's AVS clusters with an ANF plan, by name.
fn cluster_names(json: &serde_json::Value) -> Vec<String> {
    json["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cluster"].as_str().unwrap().to_string())
        .collect()
}

/// Lines of `text` that start with `head`.
fn count_lines(text: &str, head: &str) -> usize {
    text.lines().filter(|l| l.starts_with(head)).count()
}

/// The summary of `args`: at most a screen, the JSON's monthly total in its cost line and
/// the last line naming what `--detail` adds; its lines all in the detail.
fn check_summary(args: &[&str]) {
    let summary = plan_text(args);
    let json = plan_json(args);
    let lines = summary.lines().count();
    assert!(lines <= SCREEN_LINES, "{args:?}: {lines} lines\n{summary}");
    let total = json["summary"]["total_usd_per_month"].as_f64().unwrap();
    assert!(
        summary.contains(&format!("= {} USD/month", usd(total))),
        "{args:?}: no total {total}\n{summary}"
    );
    let last = summary.lines().last().unwrap();
    assert!(last.starts_with("--detail adds: "), "{last}");
    let mut detail_args = args.to_vec();
    detail_args.push("--detail");
    let detail = plan_text(&detail_args);
    // Nothing the summary states may differ from the detail: each of its lines is one of
    // the detail's, but for those only the summary words that way.
    let only_summary = ["--detail adds: ", "Warnings: ", "  ExpressRoute gateway: "];
    let detail_lines: std::collections::HashSet<&str> = detail.lines().collect();
    for l in summary.lines() {
        if only_summary.iter().any(|h| l.starts_with(h)) {
            continue;
        }
        // The host price without its source: the detail's line is the price, `, from` the
        // source, then the same rest.
        if l.starts_with("  host price: ") {
            let (price, rest) = l.split_once("; ").unwrap_or((l, ""));
            assert!(
                detail
                    .lines()
                    .any(|d| d.starts_with(&format!("{price}, from ")) && d.ends_with(rest)),
                "{args:?}: no host price line in --detail like: {l}"
            );
            continue;
        }
        assert!(detail_lines.contains(l), "{args:?}: not in --detail: {l}");
    }
}

/// `--detail` of `args`: one section per cluster of the JSON's `clusters`, and the
/// `Assumptions` and `Prices` blocks once for the estate (none without a cluster plan),
/// each cluster's own assumptions (its `hosts` at least) under its plan.
fn check_detail(args: &[&str]) -> usize {
    let mut detail_args = args.to_vec();
    detail_args.push("--detail");
    let detail = plan_text(&detail_args);
    let names = cluster_names(&plan_json(args));
    for n in &names {
        let head = format!("=== AVS cluster {n}: ");
        assert_eq!(count_lines(&detail, &head), 1, "{args:?}: {head}");
    }
    assert_eq!(count_lines(&detail, "=== AVS cluster "), names.len());
    let once = usize::from(!names.is_empty());
    assert_eq!(count_lines(&detail, "Assumptions"), once, "{args:?}");
    assert_eq!(count_lines(&detail, "Prices ("), once, "{args:?}");
    assert_eq!(
        count_lines(&detail, "This cluster's assumptions"),
        names.len(),
        "{args:?}"
    );
    names.len()
}

#[test]
fn fixtures_summarise_on_a_screen_and_detail_every_cluster() {
    // small-estate.xlsx keeps every VM's data on vSAN (no cluster plan); with --design anf
    // both of its AVS clusters get one: the blocks once, not twice.
    let cases: [(&[&str], usize); 3] = [
        (&["fixtures/small-estate.xlsx"], 0),
        (&["fixtures/small-estate.xlsx", "--design", "anf"], 2),
        (&["fixtures/file-servers-vinfo.csv"], 1),
    ];
    for (args, clusters) in cases {
        check_summary(args);
        assert_eq!(check_detail(args), clusters, "{args:?}");
    }
}

#[test]
fn workshop_summary_fits_a_screen() {
    let Some(path) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    let p = path.to_str().unwrap();
    let args = [p, "--iops", "200000", "--throughput-mibps", "4000"];
    check_summary(&args);
    let with_anf = [
        p,
        "--iops",
        "200000",
        "--throughput-mibps",
        "4000",
        "--design",
        "anf",
    ];
    check_summary(&with_anf);
    // The hybrid plans ANF for 1 of the 5 clusters (avs-Cluster1, the README's workshop
    // plan); ANF for all plans every one of the 5.
    assert_eq!(check_detail(&args), 1);
    assert_eq!(check_detail(&with_anf), 5);
}

#[test]
fn detail_is_the_texts_alone() {
    // JSON, CSV, Markdown and the workbook always hold every section: --detail with them is
    // a usage error (exit 1) naming the flag, before any file is read.
    for format in ["json", "csv", "md"] {
        let o = dsplan(&[
            "plan",
            "fixtures/small-estate.xlsx",
            "--format",
            format,
            "--detail",
        ]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        assert!(
            stderr(&o).contains("--detail applies to the text format"),
            "{format}"
        );
    }
}

#[test]
fn warnings_of_one_cause_are_one_line_of_the_summary() {
    // The small estate's vInfo with `Memory` unreadable ('lots') in its first 5 VM rows
    // (rows 2..6): 5 warnings of one shape, one line naming the first (row 2) and, at its
    // end, the 4 more alike (rows 3, 4, 5 and 1 more); --detail lists the cause once too
    // (the JSON lists each of the 5).
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("text_summary");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = std::fs::read_to_string(root().join("fixtures/small-estate-vinfo.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let memory = lines[0].split("\",\"").position(|h| h == "Memory").unwrap();
    for line in &mut lines[1..=5] {
        let mut fields: Vec<&str> = line.split("\",\"").collect();
        fields[memory] = "lots";
        *line = fields.join("\",\"");
    }
    let path = dir.join("memory-lots.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let p = path.to_str().unwrap();
    let summary = plan_text(&[p]);
    let first = format!(
        "{p} [vInfo] row 2 column 'Memory' value 'lots': not a number; value treated as unknown"
    );
    // The line starts with the warning's kind.
    let grouped = format!("  (value) {first} (and 4 more alike: row 3, row 4, row 5 and 1 more)");
    assert!(summary.lines().any(|l| l == grouped), "{summary}");
    assert_eq!(summary.matches("value 'lots'").count(), 1, "{summary}");
    let detail = plan_text(&[p, "--detail"]);
    assert!(detail.lines().any(|l| l == grouped), "{detail}");
    assert_eq!(detail.matches("value 'lots'").count(), 1, "{detail}");
}

//! Every section of a JSON plan appears in the text and the Markdown report (issue 11,
//! item 1). The sections of a plan are its top-level keys whose value is neither null nor
//! an empty list (and, for cluster lists, each cluster plan's keys); an explicit map gives
//! each key its text and Markdown heading, so a new key without a heading fails here.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use serde_json::Value;

include!("support/command.rs");

include!("support/schema_check.rs");

/// The plan in the three formats: JSON (parsed), text and Markdown.
struct Reports {
    json: Value,
    text: String,
    md: String,
}

fn reports(args: &[&str]) -> Reports {
    let run = |format: &str| {
        let mut all: Vec<&str> = vec!["plan"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--format", format]);
        // An estate's every section is in its text with `--detail` (the default is its
        // summary); a single or per-cluster plan prints the same with or without it.
        if format == "text" {
            all.push("--detail");
        }
        let o = dsplan(&all);
        assert!(
            o.status.success(),
            "{all:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_schema_valid(&json);
    Reports {
        json,
        text: run("text"),
        md: run("md"),
    }
}

/// `(JSON key, text heading, Markdown heading)`. A text heading starts its line; a Markdown
/// heading is the text of a `#` line (at any level), after the `#`s. Keys with no section
/// of their own (the schema version, the region) map to the headline that shows them.
type Map = &'static [(&'static str, &'static str, &'static str)];

/// One cluster's plan (`--hosts`, and each cluster of the per-cluster and estate plans).
const PLAN: Map = &[
    ("schema_version", "dsplan plan:", "ANF datastore plan"),
    ("region", "monthly cost:", "ANF datastore plan"),
    ("location", "monthly cost:", "ANF datastore plan"),
    ("prices_effective", "monthly cost:", "ANF datastore plan"),
    ("hosts", "dsplan plan:", "ANF datastore plan"),
    ("totals", "dsplan plan:", "ANF datastore plan"),
    ("assumptions", "Assumptions", "Assumptions"),
    ("prices", "Prices (", "Prices ("),
    ("pools", "Pools", "Pools"),
    ("datastores", "Datastores", "Datastores"),
    (
        "performance",
        "Predicted performance",
        "Predicted performance",
    ),
    ("binding", "Binding limits", "Binding limits"),
    ("alternatives", "Alternatives", "Alternatives"),
    ("marginal_costs", "Marginal costs", "Marginal costs"),
    (
        "vsan_comparison",
        "vSAN-only comparison (capacity)",
        "vSAN-only comparison (capacity)",
    ),
    ("time_phased", "Time-phased plan", "Time-phased plan"),
    ("placements", "Placement", "Placement"),
    ("excluded", "Excluded VMs", "Excluded VMs"),
    ("warnings", "Warnings (", "Warnings ("),
];

/// A cluster of `--per-cluster`: its banner carries the name, hosts and source.
const PER_CLUSTER_CLUSTER: Map = &[
    ("cluster", "=== cluster ", "Cluster "),
    ("hosts", "=== cluster ", "Cluster "),
    ("hosts_source", "=== cluster ", "Cluster "),
    ("target_share", "=== cluster ", "Cluster "),
    // Its plan's own keys are checked against [`PLAN`].
    ("plan", "=== cluster ", "Cluster "),
];

/// `--per-cluster` (`ClusterPlans`).
const PER_CLUSTER: Map = &[
    ("schema_version", "=== cluster ", "Cluster "),
    ("clusters", "=== cluster ", "Cluster "),
    ("total", "Total over", "Total over"),
    ("reservations", "Reservations", "Reservations"),
    (
        "excluded",
        "Excluded VMs of the estate",
        "Excluded VMs of the estate",
    ),
];

/// An AVS cluster of the estate.
const ESTATE_CLUSTER: Map = &[
    ("cluster", "=== AVS cluster ", "AVS cluster "),
    ("hosts", "=== AVS cluster ", "AVS cluster "),
    ("hosts_source", "=== AVS cluster ", "AVS cluster "),
    ("target_share", "=== AVS cluster ", "AVS cluster "),
    // Its plan's own keys are checked against [`PLAN`].
    ("plan", "=== AVS cluster ", "AVS cluster "),
];

/// The estate (`EstatePlan`).
const ESTATE: Map = &[
    ("schema_version", "Estate:", "Estate plan"),
    ("region", "Estate:", "Estate plan"),
    ("location", "Estate:", "Estate plan"),
    ("summary", "Estate:", "Estate plan"),
    ("sizing", "AVS clusters", "AVS clusters"),
    ("sku_alternatives", "Host SKUs", "Host SKUs"),
    ("pools", "Capacity pools", "Capacity pools"),
    ("reservations", "Reservations", "Reservations"),
    ("vsan_alone", "vSAN alone", "vSAN alone"),
    ("designs", "Designs", "Designs"),
    ("clusters", "=== AVS cluster ", "AVS cluster "),
    ("assumptions", "Sizing assumptions", "Sizing assumptions"),
    (
        "excluded",
        "Excluded VMs (the estate's)",
        "Excluded VMs (the estate's)",
    ),
    ("warnings", "Warnings (", "Warnings ("),
];

/// The keys of `obj` that hold a section: not null, not an empty list.
fn sections(obj: &Value) -> Vec<&str> {
    obj.as_object()
        .expect("a JSON object")
        .iter()
        .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
        .map(|(k, _)| k.as_str())
        .collect()
}

fn headings(map: Map, key: &str, what: &str) -> (&'static str, &'static str) {
    map.iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, t, m)| (*t, *m))
        .unwrap_or_else(|| {
            panic!("{what}: no heading mapped for the JSON key `{key}`: add it to the map and to the text and Markdown reports")
        })
}

fn text_has(text: &str, heading: &str) -> bool {
    text.lines().any(|l| l.starts_with(heading))
}

fn md_has(md: &str, heading: &str) -> bool {
    md.lines()
        .filter(|l| l.starts_with('#'))
        .any(|l| l.trim_start_matches('#').trim_start().starts_with(heading))
}

/// Checks each section of `obj` (by `map`) has its heading in `text` and `md`; returns the
/// number of sections checked.
fn check(obj: &Value, map: Map, text: &str, md: &str, what: &str) -> usize {
    let keys = sections(obj);
    for key in &keys {
        let (t, m) = headings(map, key, what);
        assert!(text_has(text, t), "{what}: `{key}`: no text line {t:?}");
        assert!(md_has(md, m), "{what}: `{key}`: no Markdown heading {m:?}");
    }
    keys.len()
}

/// The part of `report` from the `i`th line starting with `banner` to the next (or the
/// end): one cluster's plan.
fn chunk(report: &str, banner: impl Fn(&str) -> bool, i: usize) -> &str {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in report.split_inclusive('\n') {
        if banner(line) {
            starts.push(at);
        }
        at += line.len();
    }
    let start = starts[i];
    let end = starts.get(i + 1).copied().unwrap_or(report.len());
    &report[start..end]
}

/// The estate text's `Assumptions` and `Prices` blocks, which every cluster's plan shares
/// (printed once, just before the first cluster's banner); empty in other plans' text.
fn shared_blocks<'a>(text: &'a str, banner: &str) -> &'a str {
    let Some(start) = text.find("\nAssumptions (every cluster's") else {
        return "";
    };
    let end = text[start..]
        .find(&format!("\n{banner}"))
        .map_or(text.len(), |e| start + e + 1);
    &text[start + 1..end]
}

/// The Markdown's `Assumptions` and `Prices` sections every cluster's plan shares (once,
/// before the first cluster of an estate, after the last of per-cluster plans), up to the
/// next cluster heading or `Total over`; empty without cluster plans.
fn shared_md<'a>(md: &'a str, banner: &str) -> &'a str {
    let Some(start) = md.find("Assumptions (every cluster's") else {
        return "";
    };
    let start = md[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = md[start..]
        .lines()
        .skip(1)
        .find(|l| md_has(l, banner) || md_has(l, "Total over"))
        .and_then(|l| md[start..].find(l))
        .map_or(md.len(), |e| start + e);
    &md[start..end]
}

/// Checks every cluster of `r.json["clusters"]`: its own keys against `cluster_map`, its
/// plan's keys against [`PLAN`] within its own part of each report (with the assumptions
/// and prices the clusters share, printed once for them all).
fn check_clusters(r: &Reports, cluster_map: Map, text_banner: &str, md_banner: &str) -> usize {
    let clusters = r.json["clusters"].as_array().unwrap();
    let shared = shared_blocks(&r.text, text_banner);
    let shared_md = shared_md(&r.md, md_banner);
    let mut n = 0;
    for (i, c) in clusters.iter().enumerate() {
        let name = c["cluster"].as_str().unwrap();
        let text = format!(
            "{}{shared}",
            chunk(&r.text, |l| l.starts_with(text_banner), i)
        );
        let text = text.as_str();
        let md = format!("{}{shared_md}", chunk(&r.md, |l| md_has(l, md_banner), i));
        let md = md.as_str();
        assert!(text.contains(name) && md.contains(name), "cluster {name}");
        n += check(c, cluster_map, text, md, name);
        n += check(&c["plan"], PLAN, text, md, name);
    }
    n
}

const FIXTURE: &str = "fixtures/small-estate.xlsx";

/// The peak plan of the brief: 3 hosts, 20,000 IOPS, 400 MiB/s, 3 peak months at 40,000
/// IOPS, 60% cold.

#[test]
fn one_cluster_peak_plan_has_every_section_in_text_and_markdown() {
    let r = reports(&[&[FIXTURE][..], &PEAK_PLAN_FLAGS[..]].concat());
    let n = check(&r.json, PLAN, &r.text, &r.md, "--hosts 3 peak");
    // Every key of a Plan is present here (time phases, vSAN, alternatives, marginal costs,
    // excluded VMs, warnings, the prices used): 19.
    assert_eq!(n, 19, "{:?}", sections(&r.json));
    // The yearly cost: 9 base months x 898.35 + 3 peak months x 898.35 (the peak layout is
    // the base one: 40,000 IOPS fit the base's 51,200) = 12 x 898.35 = 10,780.20 USD.
    let tp = &r.json["time_phased"];
    assert_eq!(tp["yearly_cost_usd"].as_f64(), Some(10_780.2));
    assert!(
        r.md.contains("\n10,780.20 USD/year, "),
        "{}",
        r.md.lines()
            .filter(|l| l.contains("USD/year"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(r.text.contains("Time-phased plan\n  10,780.20 USD/year, "));
    // Each phase's row carries its own IOPS target: base 20,000, peak 40,000.
    assert!(r.md.contains("| base | 9 | flexible | 3 |"));
    assert!(
        r.md.contains("| 40,000 | 51,200 |"),
        "peak IOPS target, prediction"
    );
}

#[test]
fn a_large_volume_alternative_says_so_in_text_and_markdown() {
    // 6,000 MiB/s on 4 hosts: one regular volume carries at most 4,500 MiB/s, so "exactly 1
    // datastore" needs a large volume, at its 50 TiB minimum; 5,872 MiB/s purchased above
    // Flexible's 128 included.
    let r = reports(&[
        FIXTURE,
        "--hosts",
        "4",
        "--throughput-mibps",
        "6000",
        "--allow-large-volumes",
    ]);
    check(&r.json, PLAN, &r.text, &r.md, "large volumes");
    let one = r.json["alternatives"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["basis"] == "datastores" && a["datastores"] == 1)
        .unwrap();
    assert_eq!(one["large_volumes"], true);
    assert_eq!(one["pool_size_tib"], 50);
    let md_row =
        r.md.lines()
            .find(|l| l.starts_with("| exactly 1 datastore |"))
            .unwrap();
    assert!(
        md_row
            .starts_with("| exactly 1 datastore | flexible | 1 | 50 | 5,872 | 0 | large volume |"),
        "{md_row}"
    );
    let text_row = r
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("exactly 1 datastore "))
        .unwrap();
    assert!(text_row.contains("large volume"), "{text_row}");
    assert!(text_row.contains(" 5,872 "), "{text_row}");
}

#[test]
fn two_cluster_estate_has_every_section_in_text_and_markdown() {
    let r = reports(&[
        FIXTURE,
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--peak-months",
        "3",
        "--peak-iops",
        "40000",
        "--cold-pct",
        "60",
        "--design",
        "anf",
    ]);
    // The estate's 14 keys less `reservations` (empty: pay as you go) = 13.
    assert_eq!(check(&r.json, ESTATE, &r.text, &r.md, "estate"), 13);
    // Dev and Prod: 5 cluster keys + 16 plan keys each (the plan's 19 less
    // `vsan_comparison`, which the estate's `vsan_alone` replaces, and `excluded` and
    // `warnings`, empty in each cluster: the estate lists them once) = 2 x 21.
    let clusters = check_clusters(&r, ESTATE_CLUSTER, "=== AVS cluster ", "AVS cluster ");
    assert_eq!(clusters, 42);
    // Each cluster's part of the Markdown has its own time phases.
    assert_eq!(r.md.matches("### Time-phased plan").count(), 2);
}

#[test]
fn per_cluster_plans_have_every_section_in_text_and_markdown() {
    let r = reports(&[
        FIXTURE,
        "--per-cluster",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--cold-pct",
        "60",
    ]);
    // schema_version, clusters, total, excluded (the template); no reservations.
    assert_eq!(
        check(&r.json, PER_CLUSTER, &r.text, &r.md, "per-cluster"),
        4
    );
    // Dev and Prod: 5 cluster keys + 16 plan keys (no time phases, no excluded VMs or
    // warnings of their own; the prices used) = 2 x 21.
    let clusters = check_clusters(&r, PER_CLUSTER_CLUSTER, "=== cluster ", "Cluster ");
    assert_eq!(clusters, 42);
    // The total row: 3 + 3 hosts, 1 + 1 datastores, 1 + 2 TiB, 800 + 1,000 GiB placed,
    // Dev 303.40 + Prod 534.21 = 837.61 USD/month.
    assert_eq!(r.json["total"]["cost_usd_per_month"].as_f64(), Some(837.61));
    assert!(
        r.md.contains("| total | 6 | 2 | 3 | 1,800.0 | 837.61 |"),
        "{}",
        r.md
    );
}

#[test]
fn workshop_peak_plan_has_every_section_in_text_and_markdown() {
    let Some(input) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    let input = input.to_string_lossy().into_owned();
    let r = reports(&[
        &input,
        "--hosts",
        "8",
        "--iops",
        "60000",
        "--throughput-mibps",
        "1500",
        "--peak-months",
        "2",
        "--peak-iops",
        "200000",
        "--cold-pct",
        "50",
        "--allow-large-volumes",
    ]);
    // Every key of a Plan, the prices used among them: 19.
    assert_eq!(check(&r.json, PLAN, &r.text, &r.md, "workshop"), 19);
    // 10 base months x 16,559.18 + 2 peak months x 16,700.92
    // = 165,591.80 + 33,401.84 = 198,993.64 USD/year.
    assert_eq!(
        r.json["time_phased"]["yearly_cost_usd"].as_f64(),
        Some(198_993.64)
    );
    assert!(r.md.contains("\n198,993.64 USD/year, "));
    // 149,222.2 GiB required = 146 TiB: one datastore needs a large volume (regular
    // volumes hold at most 100 TiB).
    let row =
        r.md.lines()
            .find(|l| l.starts_with("| exactly 1 datastore |"))
            .unwrap();
    assert!(
        row.contains("| 146 |") && row.contains("large volume"),
        "{row}"
    );
}

#[test]
fn workshop_hybrid_estate_has_every_section_in_text_and_markdown() {
    let Some(input) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    let input = input.to_string_lossy().into_owned();
    // The default design here is the hybrid: one cluster (avs-Cluster1) puts VMs on ANF.
    let r = reports(&[&input]);
    assert_eq!(r.json["designs"]["chosen"], "hybrid");
    // The estate's 14 keys less `reservations` (pay as you go) = 13.
    assert_eq!(check(&r.json, ESTATE, &r.text, &r.md, "hybrid estate"), 13);
    let clusters = check_clusters(&r, ESTATE_CLUSTER, "=== AVS cluster ", "AVS cluster ");
    assert!(clusters > 0);
    assert!(r.text.lines().any(|l| l.starts_with("  design: hybrid: ")));
    assert!(r.md.lines().any(|l| l.starts_with("- Design: hybrid: ")));
}

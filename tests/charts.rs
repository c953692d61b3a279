//! `dsplan plan --charts DIR`: the command writes each plan shape's SVG charts; each parses
//! as XML, carries no text under 11 px at its own width, its axis titles with units,
//! thousands separators, a title with the plan's own figure, the designs in their fixed
//! colours and, for the performance chart, the targets as dashed lines at the target's
//! height. An estate of many clusters gets the top 8 and "others", not a chart per cluster.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use quick_xml::Reader;
use quick_xml::events::Event;

include!("support/schema_check.rs");
include!("support/command.rs");
include!("support/fifty_clusters.rs");
include!("support/svg_fonts.rs");
include!("support/usd.rs");

const INPUT: &str = "fixtures/small-estate.xlsx";
/// The target lines' colour (Okabe-Ito vermillion).
const TARGET: &str = "#D55E00";
/// The peak months' target lines and layout mark (Okabe-Ito reddish purple).
const PEAK: &str = "#CC79A7";
/// The designs' colours (Okabe-Ito): vSAN orange, ANF blue, hybrid bluish green.
const VSAN: &str = "#E69F00";
const ANF: &str = "#0072B2";
const HYBRID: &str = "#009E73";
/// The charts of an estate plan that compares designs, whatever its cluster count.
const ESTATE_CHARTS: [&str; 6] = [
    "capacity.svg",
    "cost-by-alternative.svg",
    "cost-by-cluster.svg",
    "cost-by-design.svg",
    "hosts.svg",
    "performance.svg",
];

/// A parsed SVG: its text elements (trimmed) and its polylines.
struct Svg {
    texts: Vec<Text>,
    polylines: Vec<Polyline>,
    /// The fill colour of each polygon (markers).
    polygon_fills: Vec<String>,
    /// The fill colour of each rectangle (bars, the background, legend swatches).
    rect_fills: Vec<String>,
}

struct Text {
    x: f64,
    y: f64,
    content: String,
}

struct Polyline {
    stroke: String,
    points: Vec<(f64, f64)>,
}

fn attr(e: &quick_xml::events::BytesStart, name: &str) -> String {
    e.attributes()
        .filter_map(Result::ok)
        .find(|a| a.key.0 == name)
        .map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .unwrap()
                .into_owned()
        })
        .unwrap_or_default()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// Parses `path` as XML (any syntax error fails the test) into texts and polylines.
fn parse(path: &Path) -> Svg {
    let xml = std::fs::read_to_string(path).unwrap();
    assert_fonts_readable(&path.display().to_string(), &xml);
    let mut reader = Reader::from_str(&xml);
    let mut svg = Svg {
        texts: Vec::new(),
        polylines: Vec::new(),
        polygon_fills: Vec::new(),
        rect_fills: Vec::new(),
    };
    let mut open_text: Option<Text> = None;
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        {
            Event::Start(e) if e.name().0 == "text" => {
                let (x, y) = (num(&attr(&e, "x")), num(&attr(&e, "y")));
                open_text = Some(Text {
                    x,
                    y,
                    content: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(open) = open_text.as_mut() {
                    open.content.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(open) = open_text.as_mut() {
                    let c = match &*r {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        _ => "?",
                    };
                    open.content.push_str(c);
                }
            }
            Event::End(e) if e.name().0 == "text" => {
                if let Some(mut t) = open_text.take() {
                    t.content = t.content.trim().to_string();
                    svg.texts.push(t);
                }
            }
            Event::Empty(e) if e.name().0 == "polyline" => svg.polylines.push(Polyline {
                stroke: attr(&e, "stroke"),
                points: attr(&e, "points")
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .map(|(x, y)| (num(x), num(y)))
                    .collect(),
            }),
            Event::Empty(e) if e.name().0 == "polygon" => svg.polygon_fills.push(attr(&e, "fill")),
            Event::Empty(e) if e.name().0 == "rect" => svg.rect_fills.push(attr(&e, "fill")),
            Event::Eof => break,
            _ => {}
        }
    }
    svg
}

impl Svg {
    fn has_text(&self, s: &str) -> bool {
        self.texts.iter().any(|t| t.content == s)
    }

    fn assert_texts(&self, name: &str, wanted: &[&str]) {
        for w in wanted {
            assert!(self.has_text(w), "{name}: no text {w:?}");
        }
    }

    /// Whether some text is a number grouped by thousands ("1,000", "40,000").
    fn has_grouped_number(&self) -> bool {
        self.texts.iter().any(|t| {
            let parts: Vec<&str> = t.content.split(',').collect();
            parts.len() > 1
                && (1..=3).contains(&parts[0].len())
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                && parts[1..].iter().all(|p| p.len() == 3)
        })
    }

    /// Horizontal dashes of the target colour at height `y` within `x_range`.
    fn target_dashes_at(&self, y: f64, x_range: std::ops::Range<f64>) -> usize {
        self.dashes_at(TARGET, y, x_range)
    }

    /// Horizontal dashes of colour `stroke` at height `y` (within a pixel: the ticks give
    /// `y` by interpolation) within `x_range`.
    fn dashes_at(&self, stroke: &str, y: f64, x_range: std::ops::Range<f64>) -> usize {
        self.polylines
            .iter()
            .filter(|p| p.stroke == stroke && p.points.len() == 2)
            .filter(|p| {
                p.points
                    .iter()
                    .all(|&(px, py)| (py - y).abs() <= 1.0 && x_range.contains(&px))
            })
            .count()
    }

    /// The y of value `v` on the value axis within `x_range`: the axis's numeric tick
    /// labels share one x (the datastore labels below each have their own); the two
    /// farthest apart give the scale.
    fn tick_y(&self, v: f64, x_range: std::ops::Range<f64>) -> f64 {
        let ticks: Vec<(f64, f64, f64)> = self
            .texts
            .iter()
            .filter(|t| x_range.contains(&t.x))
            .filter_map(|t| Some((t.x, t.y, t.content.replace(',', "").parse::<f64>().ok()?)))
            .collect();
        let axis_x = ticks
            .iter()
            .map(|t| t.0)
            .max_by_key(|x| ticks.iter().filter(|t| t.0 == *x).count())
            .unwrap();
        let mut axis: Vec<_> = ticks.into_iter().filter(|t| t.0 == axis_x).collect();
        axis.sort_by(|a, b| a.2.total_cmp(&b.2));
        let (lo, hi) = (axis[0], axis[axis.len() - 1]);
        assert!(hi.2 > lo.2, "fewer than two ticks in {x_range:?}");
        lo.1 + (v - lo.2) / (hi.2 - lo.2) * (hi.1 - lo.1)
    }

    /// The chart's title: its first text.
    fn title(&self) -> &str {
        &self.texts[0].content
    }
}

/// Runs `plan INPUT ARGS --charts DIR` and `plan INPUT ARGS --format json`; returns the
/// chart folder and the JSON plan.
fn plan_with_charts(test: &str, args: &[&str]) -> (PathBuf, serde_json::Value) {
    plan_input_with_charts(test, INPUT, args)
}

/// [`plan_with_charts`] of `input`.
fn plan_input_with_charts(test: &str, input: &str, args: &[&str]) -> (PathBuf, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("dsplan-charts-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let charts = dir.join("charts"); // created by the command
    let out = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(["plan", input])
        .args(args)
        .arg("--charts")
        .arg(&charts)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(["plan", input])
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(json.status.success());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_schema_valid(&json);
    (charts, json)
}

fn files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| (*s).to_string()).collect()
}

#[test]
fn one_cluster_charts_draw_the_targets_at_their_height() {
    let args = [
        "--hosts",
        "3",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
    ];
    let (dir, plan) = plan_with_charts("one", &args);
    assert_eq!(
        files(&dir),
        set(&["capacity.svg", "cost-by-alternative.svg", "performance.svg"])
    );
    let perf = parse(&dir.join("performance.svg"));
    perf.assert_texts(
        "performance",
        &[
            "datastores",
            "IOPS",
            "MiB/s",
            "IOPS target 20,000",
            "MiB/s target 500",
        ],
    );
    assert!(
        perf.has_grouped_number(),
        "performance: no grouped axis number"
    );
    // The panels are 600 px wide each: IOPS left, MiB/s right. Each target is a dashed
    // line at the height of its own tick label (20,000 IOPS; 500 MiB/s).
    let y = perf.tick_y(20_000.0, 0.0..600.0);
    assert!(
        perf.target_dashes_at(y, 0.0..600.0) >= 5,
        "no IOPS target line at y {y}"
    );
    let y = perf.tick_y(500.0, 600.0..1200.0);
    assert!(
        perf.target_dashes_at(y, 600.0..1200.0) >= 5,
        "no MiB/s target line at y {y}"
    );
    // The chosen layout is marked with the plan's own prediction.
    let d = plan["totals"]["datastores"].as_u64().unwrap();
    let iops = plan["performance"]["small_block"]["iops"].as_f64().unwrap();
    assert_eq!((d, iops), (1, 64_000.0));
    assert!(perf.has_text("chosen: 1 datastore, 64,000 IOPS"));
    // The title says what to see with the plan's figures: both targets met by the chosen
    // datastore count.
    assert_eq!(
        perf.title(),
        "ANF datastores meet 20,000 IOPS and 500 MiB/s from 1 datastore at 3 hosts"
    );
    let cost = parse(&dir.join("cost-by-alternative.svg"));
    cost.assert_texts("cost", &["USD per month", "alternative"]);
    assert!(cost.has_grouped_number(), "cost: no grouped axis number");
    // The chosen alternative (Flexible, 1 datastore) is labelled, and the title carries
    // the plan's monthly ANF cost as the JSON gives it, to the cent.
    assert!(cost.has_text("service level: flexible, 1 datastore (chosen)"));
    let usd_month = plan["totals"]["cost_usd_per_month"].as_f64().unwrap();
    assert_eq!(
        cost.title(),
        format!(
            "1 x flexible datastore costs least: {} USD/month (3 hosts)",
            usd(usd_month)
        )
    );
    // An ANF-only chart: its bars are ANF's blue (the chosen one full, the others lighter).
    assert!(cost.rect_fills.iter().any(|f| f == ANF));
    assert!(!cost.rect_fills.iter().any(|f| f == VSAN || f == HYBRID));
    let cap = parse(&dir.join("capacity.svg"));
    cap.assert_texts(
        "capacity",
        &[
            "GiB",
            "datastore",
            "datastore size, GiB",
            "data placed, GiB",
        ],
    );
    // anf-ds-01 is 3,072 GiB (the 3 TiB pool) and holds the 1,800 GiB placed.
    cap.assert_texts("capacity", &["anf-ds-01", "3,072", "1,800"]);
    assert_eq!(cap.title(), "1 datastore holds 1,800 GiB in 3,072 GiB");
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn estate_charts_include_hosts_by_driver() {
    // ANF for all: the estate's ANF charts (the default design here is vSAN alone: the
    // clusters' 800 and 1,000 GiB fit their compute hosts' vSAN).
    let (dir, plan) = plan_with_charts("estate", &["--design", "anf"]);
    // Two clusters: one ANF cost-by-cluster chart, no chart per cluster.
    assert_eq!(files(&dir), set(&ESTATE_CHARTS));
    // Each AVS cluster's ANF cost: avs-Dev holds 800 GiB -> 1 TiB of Flexible at 1,024 GiB
    // x 0.000151 USD/GiB-h x 730 h = 112.88 USD/month (bar label 113); avs-Prod 1,000 GiB
    // x 1.2 headroom = 1,200 GiB -> 2 TiB = 225.75 (226); together 338.63, avs-Prod the most.
    let by_cluster = parse(&dir.join("cost-by-cluster.svg"));
    by_cluster.assert_texts(
        "cost by cluster",
        &[
            "USD per month",
            "cluster",
            "avs-Dev",
            "avs-Prod",
            "113",
            "226",
        ],
    );
    assert_eq!(
        by_cluster.title(),
        "ANF for 2 clusters costs 338.63 USD/month; avs-Prod the most (225.75)"
    );
    assert!(by_cluster.rect_fills.iter().any(|f| f == ANF));
    let cost = parse(&dir.join("cost-by-alternative.svg"));
    cost.assert_texts(
        "cost",
        &[
            "USD per month (hosts + ANF + gateways)",
            "host SKU",
            "6 x av36p (chosen)",
        ],
    );
    assert!(cost.has_grouped_number(), "cost: no grouped axis number");
    // The chosen SKU's bar is labelled with the plan's monthly total, rounded: 40,634.63
    // + one ExpressRoute gateway 1,365.10 = 41,999.73.
    let total = plan["summary"]["total_usd_per_month"].as_f64().unwrap();
    assert_eq!(total, 41_999.73);
    assert!(cost.has_text("42,000"));
    // The title carries the plan's total (the JSON's, to the cent); the chosen SKU's bar
    // is its design's colour (ANF blue).
    assert_eq!(
        cost.title(),
        "6 x av36p (ANF for all) costs least: 41,999.73 USD/month"
    );
    assert!(cost.rect_fills.iter().any(|f| f == ANF));
    // Designs in their own colours: vSAN alone orange, ANF for all blue.
    let designs = parse(&dir.join("cost-by-design.svg"));
    designs.assert_texts("designs", &["ANF for all, 6 hosts (chosen)"]);
    assert!(
        designs
            .title()
            .contains(&format!("{} USD/month", usd(total)))
    );
    for colour in [VSAN, ANF] {
        assert!(designs.rect_fills.iter().any(|f| f == colour), "{colour}");
    }
    let hosts = parse(&dir.join("hosts.svg"));
    hosts.assert_texts(
        "hosts",
        &[
            "AVS hosts",
            "driver",
            "vCPU",
            "memory",
            "minimum",
            "storage (ANF: IOPS, MiB/s; vSAN: capacity, performance)",
            "total",
            "ANF plan, hosts",
            "vSAN alone, hosts",
        ],
    );
    assert_eq!(
        hosts.title(),
        "ANF for all needs 6 av36p hosts; vSAN alone 6"
    );
    // The plan's series in ANF blue, vSAN alone's in orange (bars and legend swatches).
    for colour in [ANF, VSAN] {
        assert!(hosts.rect_fills.iter().any(|f| f == colour), "{colour}");
    }
    assert!(!hosts.rect_fills.iter().any(|f| f == HYBRID));
    // Two clusters of 3 hosts at the AVS minimum; on vSAN alone neither grows (800 and
    // 1,000 GiB fit 3 hosts): "6" labels the minimum and total bars of both series (4)
    // and the axis tick 6 (1).
    let sixes = hosts.texts.iter().filter(|t| t.content == "6").count();
    assert_eq!(sixes, 5);
    let perf = parse(&dir.join("performance.svg"));
    perf.assert_texts("performance", &["datastores", "IOPS", "MiB/s"]);
    assert!(
        perf.texts
            .iter()
            .any(|t| t.content.contains("largest cluster"))
    );
    let cap = parse(&dir.join("capacity.svg"));
    cap.assert_texts(
        "capacity",
        &[
            "GiB",
            "cluster",
            "avs-Dev",
            "avs-Prod",
            "pool capacity, GiB",
        ],
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn per_cluster_charts_show_each_cluster() {
    let (dir, plan) = plan_with_charts("per-cluster", &["--per-cluster"]);
    assert_eq!(
        files(&dir),
        set(&[
            "capacity.svg",
            "cost-by-alternative-dev.svg",
            "cost-by-alternative-prod.svg",
            "cost-by-alternative.svg",
            "performance.svg"
        ])
    );
    // Dev: 800 GiB x 1.2 = 960 GiB -> 1 TiB of Flexible = 1,024 x 0.000151 x 730 = 112.88
    // USD/month; Prod: 1,200 GiB -> 2 TiB = 225.75.
    let costs: Vec<f64> = plan["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["plan"]["totals"]["cost_usd_per_month"].as_f64().unwrap())
        .collect();
    assert_eq!(costs, [112.88, 225.75]);
    for (name, usd) in [("dev", "113"), ("prod", "226")] {
        let cost = parse(&dir.join(format!("cost-by-alternative-{name}.svg")));
        cost.assert_texts(
            name,
            &[
                "USD per month",
                "alternative",
                "service level: flexible, 1 datastore (chosen)",
                usd,
            ],
        );
    }
    let cap = parse(&dir.join("capacity.svg"));
    // Dev places 800 GiB, Prod 1,000 GiB (fixtures/small-estate.xlsx).
    cap.assert_texts(
        "capacity",
        &["GiB", "cluster", "Dev", "Prod", "800", "1,000"],
    );
    let cost = parse(&dir.join("cost-by-alternative.svg"));
    cost.assert_texts("cost", &["USD per month", "cluster", "Dev", "Prod"]);
    let perf = parse(&dir.join("performance.svg"));
    perf.assert_texts("performance", &["datastores", "IOPS", "MiB/s"]);
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn phased_performance_chart_draws_the_peak_targets_and_layout() {
    let args = PEAK_PLAN_FLAGS;
    let (dir, plan) = plan_with_charts("phased", &args);
    // The peak layout is the base one: 1 datastore on the 400 MiB/s pool, whose QoS caps
    // 8 KiB I/O at 400 x 1,024 / 8 = 51,200 IOPS, above both the 20,000 base and the
    // 40,000 peak IOPS targets.
    let peak = &plan["time_phased"]["peak"];
    assert_eq!(peak["predicted_iops"].as_f64(), Some(51_200.0));
    assert_eq!(peak["iops_target"].as_f64(), Some(40_000.0));
    let perf = parse(&dir.join("performance.svg"));
    perf.assert_texts(
        "phased performance",
        &[
            "datastores",
            "IOPS",
            "MiB/s",
            "IOPS target 20,000",
            "peak IOPS target 40,000 (3 months)",
            "peak layout: 1 datastore, 51,200 IOPS",
            "chosen: 1 datastore, 51,200 IOPS",
            // The MiB/s target is 400 in both phases: one line, and its legend says so.
            "MiB/s target 400 (base and peak months)",
            "peak layout: 1 datastore, 400 MiB/s",
        ],
    );
    assert!(
        !perf
            .texts
            .iter()
            .any(|t| t.content.starts_with("peak MiB/s target"))
    );
    // The base target dashes at the 20,000 tick, the peak's (another colour) at 40,000.
    let y = perf.tick_y(20_000.0, 0.0..600.0);
    assert!(
        perf.target_dashes_at(y, 0.0..600.0) >= 5,
        "no base line at {y}"
    );
    assert_eq!(perf.dashes_at(PEAK, y, 0.0..600.0), 0);
    let y = perf.tick_y(40_000.0, 0.0..600.0);
    assert!(
        perf.dashes_at(PEAK, y, 0.0..600.0) >= 5,
        "no peak line at {y}"
    );
    assert_eq!(perf.target_dashes_at(y, 0.0..600.0), 0);
    // The peak layout's triangle in each panel, and one in each legend.
    let triangles = perf.polygon_fills.iter().filter(|f| *f == PEAK).count();
    assert_eq!(triangles, 4);
    // Without time phases no peak colour at all.
    let (plain, _) = plan_with_charts("unphased", &args[..6]);
    let perf = parse(&plain.join("performance.svg"));
    assert!(perf.polygon_fills.iter().all(|f| f != PEAK));
    assert!(perf.polylines.iter().all(|p| p.stroke != PEAK));
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::remove_dir_all(plain.parent().unwrap()).unwrap();
}

#[test]
fn charts_refuse_an_input_as_the_folder() {
    let out = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(["plan", INPUT, "--charts", INPUT])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--charts") && err.contains("small-estate.xlsx"),
        "{err}"
    );
}

#[test]
fn charts_add_nothing_to_stdout_and_name_a_folder_they_cannot_create() {
    let dir = std::env::temp_dir().join(format!("dsplan-charts-{}-stdout", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |extra: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_dsplan"))
            .args(["plan", INPUT, "--hosts", "3"])
            .args(extra)
            .output()
            .unwrap()
    };
    let plain = run(&[]);
    let charts = dir.join("c");
    let with = run(&["--charts".as_ref(), charts.as_os_str()]);
    assert!(with.status.success());
    assert_eq!(plain.stdout, with.stdout);
    // A folder under a regular file cannot be created: exit 1, naming it.
    let blocker = dir.join("file");
    std::fs::write(&blocker, "x").unwrap();
    let bad = blocker.join("charts");
    let out = run(&["--charts".as_ref(), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&bad.display().to_string()), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_clusters_show_the_top_eight_and_others() {
    let dir =
        std::env::temp_dir().join(format!("dsplan-charts-{}-fifty-input", std::process::id()));
    let input = fifty_one_vm_clusters(&dir);
    let input = input.to_string_lossy().into_owned();
    let (charts, plan) = plan_input_with_charts("fifty", &input, &["--design", "anf"]);
    // 50 clusters: the same six charts as two clusters, none per cluster.
    assert_eq!(files(&charts), set(&ESTATE_CHARTS));
    // Every cluster is alike (one VM of 12 GiB in use), so the ties go by name: c01..c08
    // get a bar each, the other 42 one "others" bar of 42 times a cluster's figure.
    let clusters = plan["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 50);
    let cost = clusters[0]["plan"]["totals"]["cost_usd_per_month"]
        .as_f64()
        .unwrap();
    let data = clusters[0]["plan"]["totals"]["placed_capacity_gib"]
        .as_f64()
        .unwrap();
    assert_eq!(data, 12.0);
    assert!(clusters.iter().all(|c| {
        c["plan"]["totals"]["cost_usd_per_month"].as_f64() == Some(cost)
            && c["plan"]["totals"]["placed_capacity_gib"].as_f64() == Some(data)
    }));
    for name in ["cost-by-cluster.svg", "capacity.svg"] {
        let svg = parse(&charts.join(name));
        let labels: Vec<&str> = svg
            .texts
            .iter()
            .map(|t| t.content.as_str())
            .filter(|t| t.starts_with("avs-c") || t.starts_with("others"))
            .collect();
        // Bars run from the top: avs-c01 first, "others" last (the SVG lists the labels
        // bottom up).
        let mut want: Vec<String> = (1..=8).map(|i| format!("avs-c{i:02}")).collect();
        want.push("others (42 clusters)".into());
        want.reverse();
        assert_eq!(labels, want, "{name}");
    }
    // Others: 42 x 12 GiB = 504 GiB placed; 50 x 12 = 600 GiB in all.
    let cap = parse(&charts.join("capacity.svg"));
    assert!(cap.has_text("504"));
    assert!(cap.title().starts_with("50 clusters place 600 GiB in "));
    let by_cluster = parse(&charts.join("cost-by-cluster.svg"));
    assert!(by_cluster.has_text(&format!("{:.0}", 42.0 * cost)));
    assert!(by_cluster.title().starts_with(&format!(
        "ANF for 50 clusters costs {} USD/month",
        usd(50.0 * cost)
    )));
    // --per-cluster applies the same rule and writes no chart per cluster beyond 9.
    let (per, _) = plan_input_with_charts("fifty-per", &input, &["--per-cluster"]);
    assert_eq!(
        files(&per),
        set(&["capacity.svg", "cost-by-alternative.svg", "performance.svg"])
    );
    let costs = parse(&per.join("cost-by-alternative.svg"));
    assert!(costs.has_text("others (42 clusters)"));
    std::fs::remove_dir_all(charts.parent().unwrap()).unwrap();
    std::fs::remove_dir_all(per.parent().unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hybrid_charts_use_the_hybrid_colour_and_name_the_cheapest_design() {
    // fixtures/file-servers-vinfo.csv plans hybrid (README): it costs least of the three.
    let (dir, plan) = plan_input_with_charts("hybrid", "fixtures/file-servers-vinfo.csv", &[]);
    assert_eq!(plan["summary"]["design"].as_str(), Some("hybrid"));
    let total = plan["summary"]["total_usd_per_month"].as_f64().unwrap();
    let designs = parse(&dir.join("cost-by-design.svg"));
    assert_eq!(
        designs.title(),
        format!(
            "Hybrid costs least: {} USD/month ({} hosts)",
            usd(total),
            plan["summary"]["hosts"]
        )
    );
    // The three designs' bars in their three colours.
    for colour in [VSAN, ANF, HYBRID] {
        assert!(designs.rect_fills.iter().any(|f| f == colour), "{colour}");
    }
    // The hosts chart: the hybrid plan bluish green against vSAN alone orange, no blue.
    let hosts = parse(&dir.join("hosts.svg"));
    hosts.assert_texts("hosts", &["hybrid plan, hosts", "vSAN alone, hosts"]);
    assert!(hosts.rect_fills.iter().any(|f| f == HYBRID));
    assert!(hosts.rect_fills.iter().any(|f| f == VSAN));
    assert!(!hosts.rect_fills.iter().any(|f| f == ANF));
    // The chosen SKU's bar in the hybrid colour.
    let skus = parse(&dir.join("cost-by-alternative.svg"));
    assert!(skus.rect_fills.iter().any(|f| f == HYBRID));
    assert!(skus.title().ends_with(&format!("{} USD/month", usd(total))));
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn workbook_charts_take_the_anf_colours() {
    let dir = std::env::temp_dir().join(format!("dsplan-charts-{}-xlsx", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("plan.xlsx");
    let path = book.to_string_lossy().into_owned();
    let out = dsplan(&[
        "plan", INPUT, "--hosts", "3", "--format", "xlsx", "-o", &path,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&book).unwrap()).unwrap();
    let names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .filter(|n| n.starts_with("xl/charts/chart"))
        .collect();
    // Cost per alternative and the datastores' size against placed data (on `Datastores`
    // and again on `Summary`).
    assert_eq!(names.len(), 3, "{names:?}");
    for name in names {
        let mut xml = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(&name).unwrap(), &mut xml).unwrap();
        // Colours as DrawingML writes them: srgbClr val="RRGGBB" (no '#').
        assert!(
            xml.contains(&format!("val=\"{}\"", &ANF[1..])),
            "{name}: no ANF blue"
        );
        assert!(!xml.contains(&format!("val=\"{}\"", &VSAN[1..])), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_vsan_alone_estate_draws_no_empty_cluster_charts() {
    // Without targets small-estate.xlsx plans vSAN alone (800 and 1,000 GiB fit the
    // compute hosts' vSAN): no ANF datastore, so no chart of clusters, performance or
    // capacity; the designs and hosts charts in vSAN orange.
    let (dir, plan) = plan_with_charts("vsan", &[]);
    assert_eq!(plan["summary"]["design"].as_str(), Some("vsan"));
    assert_eq!(
        files(&dir),
        set(&["cost-by-alternative.svg", "cost-by-design.svg", "hosts.svg"])
    );
    // 6 hosts x 9.20 USD/h x 730 h = 40,296.00 USD/month.
    let total = plan["summary"]["total_usd_per_month"].as_f64().unwrap();
    assert_eq!(total, 40_296.0);
    let designs = parse(&dir.join("cost-by-design.svg"));
    assert_eq!(
        designs.title(),
        "vSAN alone costs least: 40,296.00 USD/month (6 hosts)"
    );
    assert!(designs.rect_fills.iter().any(|f| f == VSAN));
    let hosts = parse(&dir.join("hosts.svg"));
    assert_eq!(hosts.title(), "vSAN alone needs 6 av36p hosts");
    assert!(hosts.rect_fills.iter().any(|f| f == VSAN));
    assert!(!hosts.rect_fills.iter().any(|f| f == ANF || f == HYBRID));
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

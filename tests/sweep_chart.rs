//! `dsplan sweep --svg FILE`: the chart parses as XML; each panel has one legend entry per
//! host count, each drawn in its own colour, the more hosts the wider (so a line drawn
//! underneath shows around one that coincides with it); axis titles carry units and tick
//! numbers are grouped by thousands.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::collections::BTreeSet;
use std::process::Command;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

include!("support/svg_fonts.rs");

/// A text element: position and content.
struct Text {
    x: f64,
    y: f64,
    content: String,
}

/// A polyline: stroke colour, stroke width and points.
struct Line {
    stroke: String,
    width: u32,
    points: Vec<(f64, f64)>,
}

fn attr(e: &BytesStart, k: &str) -> String {
    e.attributes()
        .flatten()
        .find(|a| a.key.0 == k)
        .map(|a| a.value.into_owned())
        .unwrap_or_default()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// Parses the SVG as XML (a syntax error fails the test) into texts and polylines.
fn parse(svg: &str) -> (Vec<Text>, Vec<Line>) {
    let mut reader = Reader::from_str(svg);
    let (mut texts, mut lines) = (Vec::new(), Vec::new());
    let mut open: Option<Text> = None;
    loop {
        match reader.read_event().expect("the SVG parses as XML") {
            Event::Eof => break,
            Event::Start(e) if e.name().0 == "text" => {
                open = Some(Text {
                    x: num(&attr(&e, "x")),
                    y: num(&attr(&e, "y")),
                    content: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(o) = open.as_mut() {
                    o.content.push_str(&t);
                }
            }
            Event::End(e) if e.name().0 == "text" => {
                if let Some(mut t) = open.take() {
                    t.content = t.content.trim().to_string();
                    texts.push(t);
                }
            }
            Event::Empty(e) if e.name().0 == "polyline" => lines.push(Line {
                stroke: attr(&e, "stroke"),
                width: attr(&e, "stroke-width").parse().unwrap_or(0),
                points: attr(&e, "points")
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .map(|(x, y)| (num(x), num(y)))
                    .collect(),
            }),
            _ => {}
        }
    }
    (texts, lines)
}

/// The legend sample left of the legend text `t`: its colour, width and
/// `(dash length, gap)` in pixels (gap 0: solid).
fn sample(t: &Text, lines: &[Line]) -> (String, u32, (u32, u32)) {
    let segs: Vec<&Line> = lines
        .iter()
        .filter(|l| {
            l.points
                .iter()
                .all(|&(x, y)| x < t.x && x >= t.x - 60.0 && (y - t.y - 5.0).abs() <= 3.0)
        })
        .collect();
    assert_eq!(segs.len(), 3, "{}: three stretches of dash", t.content);
    let len = segs[0].points[1].0 - segs[0].points[0].0;
    let gap = segs[1].points[0].0 - segs[0].points[1].0;
    let px = |v: f64| v.round() as u32;
    (segs[0].stroke.clone(), segs[0].width, (px(len), px(gap)))
}

#[test]
fn sweep_chart_has_a_visible_styled_line_per_host_count_and_units() {
    let dir = std::env::temp_dir().join(format!("dsplan-sweep-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("sweep.svg");
    let csv = dir.join("sweep.csv");
    // As the README shows it, with the default host list 1,4,8,16.
    let out = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(["sweep", "--max-datastores", "16", "--svg"])
        .arg(&svg)
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = std::fs::read_to_string(&svg).unwrap();
    assert_fonts_readable("sweep.svg", &xml);
    let (texts, lines) = parse(&xml);

    // The title says what to see: the most hosts' (16) highest IOPS in the CSV and the
    // fewest datastores giving 99 % of it.
    let rows: Vec<(u32, f64)> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[1] == "16")
        .map(|f| (f[2].parse().unwrap(), f[3].parse().unwrap()))
        .collect();
    let top = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    let from = rows.iter().find(|r| r.1 >= 0.99 * top).unwrap().0;
    let top = format!("{top:.0}");
    let grouped: Vec<String> = top
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    let title = format!(
        "anf-avs: 8K 70% read 80% random: 16 hosts reach {} IOPS from {from} datastores",
        grouped.join(",")
    );
    assert!(texts.iter().any(|t| t.content == title), "no title {title}");

    // One legend entry per host count in each of the two panels (IOPS, then MiB/s).
    let names = ["1 host", "4 hosts", "8 hosts", "16 hosts"];
    for name in names {
        assert_eq!(
            texts.iter().filter(|t| t.content == name).count(),
            2,
            "{name}"
        );
    }
    for panel in 0..2 {
        let looks: Vec<(String, u32, (u32, u32))> = names
            .iter()
            .map(|n| {
                let t = texts.iter().filter(|t| t.content == *n).nth(panel);
                sample(t.unwrap(), &lines)
            })
            .collect();
        // Distinct colours, none black (the axes and the grid).
        let colours: BTreeSet<&str> = looks.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(colours.len(), 4, "{looks:?}");
        assert!(!colours.contains("#000000"));
        // Distinct dash patterns: 16 hosts solid, the others dashed, each differently.
        let dashes: BTreeSet<(u32, u32)> = looks.iter().map(|l| l.2).collect();
        assert_eq!(dashes.len(), 4, "{looks:?}");
        assert_eq!(looks[3].2.1, 0, "16 hosts solid");
        // The more hosts, the wider (drawn first, underneath): where 8 and 16 hosts give
        // the same IOPS (up to 8 datastores) the 16-host line shows around the 8-host one.
        let widths: Vec<u32> = looks.iter().map(|l| l.1).collect();
        assert_eq!(widths, [2, 4, 6, 8]);
        // Each colour also draws its line in the plot (more than the legend's stretches).
        for c in &colours {
            assert!(lines.iter().filter(|l| l.stroke == *c).count() > 6, "{c}");
        }
    }
    let texts: Vec<String> = texts.into_iter().map(|t| t.content).collect();

    // Axis titles with units.
    for title in [
        "datastores (count)",
        "IOPS (I/O per second)",
        "throughput (MiB/s)",
    ] {
        assert!(texts.iter().any(|t| t == title), "{title}: {texts:?}");
    }
    // Tick numbers are grouped: 16 hosts on 16 datastores reach millions of IOPS, so the
    // IOPS axis has "1,000,000"; no number of 1,000 or more is written without separators.
    assert!(texts.iter().any(|t| t == "1,000,000"), "{texts:?}");
    for t in &texts {
        if let Ok(v) = t.parse::<u64>() {
            assert!(v < 1000, "ungrouped tick label {t}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

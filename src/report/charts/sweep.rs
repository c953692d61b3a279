//! The `dsplan sweep` chart: predicted IOPS and MiB/s against datastore count, one line
//! per host count, in two panels side by side.
//!
//! Lines of different host counts coincide where neither is limited yet (8 and 16 hosts
//! give the same IOPS up to 8 datastores), so each line differs from the others in four
//! ways: an Okabe-Ito colour, a width (the most hosts widest, drawn first, underneath), a
//! dash pattern and a marker shape. Where lines coincide, the wider line shows as a band
//! around the narrower, and through the gaps of its dashes.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;

use super::draw::{finite, light_grid};
use super::style::{
    GRID, MARGIN_PX, PALETTE, VALUE_LABELS, X_LABEL_AREA_PX, caption_font, label_font, title_font,
};
use crate::numbers::group_thousands;
use crate::report::ReportError;

/// One host count's predictions.
pub struct HostLine {
    /// Hosts.
    pub hosts: u32,
    /// `(datastores, IOPS, MiB/s)`, by datastore count.
    pub points: Vec<(u32, f64, f64)>,
}

/// How one line is drawn.
#[derive(Clone, Copy)]
struct Look {
    colour: RGBColor,
    width: u32,
    /// `(dash, gap)` in pixels; `None`: solid.
    dash: Option<(u32, u32)>,
    /// 0 circle, 1 square, 2 triangle, 3 diamond.
    marker: usize,
}

/// The look of the line drawn `rank`-th (0: first, underneath: the most hosts).
fn look(rank: usize) -> Look {
    const DASHES: [Option<(u32, u32)>; 4] = [None, Some((16, 6)), Some((8, 6)), Some((3, 5))];
    let step = u32::try_from(rank.min(3)).unwrap_or(3);
    Look {
        colour: PALETTE[rank % PALETTE.len()],
        width: 8 - 2 * step,
        dash: DASHES[rank % DASHES.len()],
        marker: rank % 4,
    }
}

/// The corners of `look`'s marker around (0, 0), in pixels: an octagon (for a circle), a
/// square, a triangle or a diamond.
fn marker_shape(look: Look) -> Vec<(i32, i32)> {
    let s = i32::try_from(look.width).unwrap_or(2) / 2 + 4;
    let t = s + 1;
    match look.marker {
        0 => {
            let h = s * 2 / 5;
            vec![
                (h, -s),
                (s, -h),
                (s, h),
                (h, s),
                (-h, s),
                (-s, h),
                (-s, -h),
                (-h, -s),
            ]
        }
        1 => vec![
            (-s + 1, -s + 1),
            (s - 1, -s + 1),
            (s - 1, s - 1),
            (-s + 1, s - 1),
        ],
        2 => vec![(0, -t), (t, s), (-t, s)],
        _ => vec![(0, -t), (t, 0), (0, t), (-t, 0)],
    }
}

/// Three stretches of `look`'s dash pattern from x = 0 (solid: 0 to 36 px), relative.
fn sample_dashes(look: Look) -> [Vec<(i32, i32)>; 3] {
    let (d, g) = look.dash.map_or((12, 0), |(d, g)| {
        (i32::try_from(d).unwrap_or(8), i32::try_from(g).unwrap_or(6))
    });
    let d = d.min(10);
    std::array::from_fn(|k| {
        let x0 = i32::try_from(k).unwrap_or(0) * (d + g);
        vec![(x0, 0), (x0 + d, 0)]
    })
}

/// What the sweep shows, for the title: the most hosts' highest IOPS and the fewest
/// datastores that give 99 % of it ("16 hosts reach 3,465,036 IOPS from 16 datastores").
fn most_hosts_reach(lines: &[HostLine]) -> Option<String> {
    let line = lines.iter().max_by_key(|l| l.hosts)?;
    let top = line.points.iter().map(|p| finite(p.1)).fold(0.0, f64::max);
    let from = line.points.iter().find(|p| finite(p.1) >= 0.99 * top)?.0;
    let noun = |n: u32, one: &str, many: &str| {
        format!(
            "{} {}",
            group_thousands(f64::from(n), 0),
            if n == 1 { one } else { many }
        )
    };
    Some(format!(
        "{} {} {} IOPS from {}",
        noun(line.hosts, "host", "hosts"),
        if line.hosts == 1 { "reaches" } else { "reach" },
        group_thousands(top, 0),
        noun(from, "datastore", "datastores")
    ))
}

/// Draws the sweep chart as an SVG document: IOPS on the left, MiB/s on the right; the
/// title is `title` and what the sweep shows.
///
/// # Errors
/// [`ReportError::Chart`] if plotters fails.
pub fn sweep_svg(title: &str, lines: &[HostLine]) -> Result<String, ReportError> {
    let title = match most_hosts_reach(lines) {
        Some(what) => format!("{title}: {what}"),
        None => title.to_string(),
    };
    let title = title.as_str();
    // The legend (about 22 px a line) sits above the data in the panel's top half at most.
    let legend_px = 22 * u32::try_from(lines.len()).unwrap_or(32) + 30;
    let height = (150 + 2 * legend_px).max(560);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, title_font()).map_err(err)?;
        let (left, right) = root.split_horizontally(600);
        let plot_px = f64::from(height - 150);
        let headroom = (1.0 / (1.0 - f64::from(legend_px + 10) / plot_px)).max(1.4);
        type Pick = fn(&(u32, f64, f64)) -> f64;
        let panels: [(&DrawingArea<SVGBackend, Shift>, &str, &str, Pick); 2] = [
            (&left, "predicted IOPS", "IOPS (I/O per second)", |p| p.1),
            (&right, "predicted throughput", "throughput (MiB/s)", |p| {
                p.2
            }),
        ];
        for (area, caption, axis, pick) in panels {
            panel(area, caption, axis, lines, pick, headroom)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn err(e: impl std::fmt::Display) -> ReportError {
    ReportError::Chart(e.to_string())
}

/// One panel: every host count's line, most hosts first, and the legend above the data.
fn panel(
    area: &DrawingArea<SVGBackend, Shift>,
    caption: &str,
    axis: &str,
    lines: &[HostLine],
    pick: fn(&(u32, f64, f64)) -> f64,
    headroom: f64,
) -> Result<(), ReportError> {
    let all = lines.iter().flat_map(|l| l.points.iter());
    let max_d = all.clone().map(|p| p.0).max().unwrap_or(1).max(2);
    let top = all.map(|p| finite(pick(p))).fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN_PX)
        .margin_right(2 * MARGIN_PX)
        .caption(caption, caption_font())
        .x_label_area_size(X_LABEL_AREA_PX)
        .y_label_area_size(85)
        .build_cartesian_2d(1u32..max_d, 0.0..(top * headroom).max(1.0))
        .map_err(err)?;
    light_grid(&mut chart.configure_mesh())
        .x_labels(usize::try_from(max_d.min(12)).unwrap_or(12))
        .y_labels(VALUE_LABELS)
        .x_desc("datastores (count)")
        .y_desc(axis)
        .x_label_formatter(&|v| group_thousands(f64::from(*v), 0))
        .y_label_formatter(&|v| group_thousands(*v, 0))
        .draw()
        .map_err(err)?;
    let mut order: Vec<&HostLine> = lines.iter().collect();
    order.sort_by_key(|l| std::cmp::Reverse(l.hosts));
    for (rank, line) in order.iter().enumerate() {
        let pts: Vec<(u32, f64)> = line.points.iter().map(|p| (p.0, finite(pick(p)))).collect();
        draw_line(&mut chart, line.hosts, &pts, look(rank))?;
    }
    chart
        .configure_series_labels()
        .border_style(GRID)
        .background_style(WHITE)
        .label_font(label_font())
        .legend_area_size(50)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)
}

type Chart2d<'a> = ChartContext<
    'a,
    SVGBackend<'a>,
    Cartesian2d<plotters::coord::types::RangedCoordu32, plotters::coord::types::RangedCoordf64>,
>;

/// One host count's line in its look, its markers, and its legend entry.
fn draw_line(
    chart: &mut Chart2d<'_>,
    hosts: u32,
    pts: &[(u32, f64)],
    look: Look,
) -> Result<(), ReportError> {
    let style = look.colour.stroke_width(look.width);
    let path = pts.iter().copied();
    match look.dash {
        None => chart.draw_series(LineSeries::new(path, style)),
        Some((d, g)) => chart.draw_series(DashedLineSeries::new(path, d, g, style)),
    }
    .map_err(err)?;
    let noun = if hosts == 1 { "host" } else { "hosts" };
    chart
        .draw_series(
            pts.iter().map(|&p| {
                EmptyElement::at(p) + Polygon::new(marker_shape(look), look.colour.filled())
            }),
        )
        .map_err(err)?
        .label(format!("{} {noun}", group_thousands(f64::from(hosts), 0)))
        .legend(move |(x, y)| {
            let style = look.colour.stroke_width(look.width);
            let [a, b, c] = sample_dashes(look);
            EmptyElement::at((x, y))
                + PathElement::new(a, style)
                + PathElement::new(b, style)
                + PathElement::new(c, style)
                + Polygon::new(
                    marker_shape(look)
                        .into_iter()
                        .map(|(a, b)| (a + 18, b))
                        .collect::<Vec<_>>(),
                    look.colour.filled(),
                )
        });
    Ok(())
}

//! Drawing primitives of the plan charts: horizontal (grouped) bars and a line panel with a
//! target line, on plotters' SVG backend into a `String`.
//!
//! Readability rules: the colours, fonts and margins of [`super::style`] (Okabe-Ito of
//! different lightness, they stay apart in greyscale print) and, for lines, different dash
//! patterns and markers; a light grey grid at labelled ticks only, no minor lines; every
//! number on an axis grouped by thousands; the legend sits in headroom kept above the data,
//! so it hides no line or bar.

use plotters::chart::MeshStyle;
use plotters::prelude::*;
use plotters::style::RGBColor;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{
    AXIS, BLUE, GRID, MARGIN_PX, PURPLE, VALUE_LABELS, VERMILLION, X_LABEL_AREA_PX, axis_font,
    caption_font, label_font, title_font,
};
use crate::numbers::group_thousands;
use crate::report::ReportError;

/// Share of the value axis above the largest value, kept free for the legend.
const HEADROOM: f64 = 1.4;
/// Share of a bar chart's value axis beyond its largest bar: room for the value label (the
/// legend has slots of its own above the bars).
const BAR_HEADROOM: f64 = 1.12;

fn err(e: impl std::fmt::Display) -> ReportError {
    ReportError::Chart(e.to_string())
}

/// The grid of every chart: light grey lines at labelled ticks, no minor lines (transparent:
/// the SVG backend skips them), dark grey
/// axes, the style's label and axis title fonts.
pub fn light_grid<'m, 'a, 'b, X: Ranged, Y: Ranged>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, SVGBackend<'a>>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, SVGBackend<'a>> {
    mesh.light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(AXIS)
        .set_all_tick_mark_size(4)
        .label_style(label_font())
        .axis_desc_style(axis_font())
}

/// `v` if finite and non-negative, else 0 (a chart never sees NaN).
pub fn finite(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 { v } else { 0.0 }
}

/// One series of a bar chart: a value per category.
pub struct BarSeries {
    /// Legend name (with its unit).
    pub name: String,
    /// Fill colour.
    pub colour: RGBColor,
    /// One value per category.
    pub values: Vec<f64>,
}

/// A horizontal bar chart: categories top to bottom, one bar per series in each; `marked`
/// categories keep their full colour and a heavier outline (the others, of a single series,
/// are drawn lighter) and their label says "(chosen)".
pub struct Bars<'a> {
    /// Title above the chart.
    pub title: &'a str,
    /// The value axis title, with its unit.
    pub value_axis: &'a str,
    /// The category axis title.
    pub category_axis: &'a str,
    /// Category labels.
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<BarSeries>,
    /// Categories to mark as chosen.
    pub marked: Vec<usize>,
    /// A colour per category (a design's, say) for the first series; empty: the series'.
    pub category_colours: Vec<RGBColor>,
}

/// Draws `bars` as an SVG document.
///
/// # Errors
/// [`ReportError::Chart`] if plotters fails.
pub fn bar_svg(bars: &Bars) -> Result<String, ReportError> {
    let s = bars.series.len().max(1);
    let slot = 2 * s + 1; // two units per bar, one unit of gap
    let n = bars.categories.len();
    let legend_slots = if s > 1 { 2 * s + 1 } else { 0 };
    let total = n * slot + legend_slots;
    let height = 100 + 16 * u32::try_from(total).unwrap_or(400).min(400);
    let max = bars
        .series
        .iter()
        .flat_map(|x| x.values.iter().copied().map(finite))
        .fold(0.0, f64::max);
    let labels: Vec<String> = (0..n).map(|i| category_label(bars, i)).collect();
    // Room for the longest category label at about 7 px a character (12 px in the SVG),
    // plus the axis title; at least 100 px, at most 440.
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_area = u32::try_from(longest * 7 + 40)
        .unwrap_or(440)
        .clamp(100, 440);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let top = i32::try_from(total).unwrap_or(i32::MAX).max(1);
        // A wider right margin keeps the last value label ("300,000") inside the picture.
        let mut chart = ChartBuilder::on(&root)
            .margin(MARGIN_PX)
            .margin_right(45)
            .caption(bars.title, title_font())
            .x_label_area_size(X_LABEL_AREA_PX)
            .y_label_area_size(label_area)
            .build_cartesian_2d(0.0..(max * BAR_HEADROOM).max(1.0), 0..top)
            .map_err(err)?;
        let label_of = |v: &i32| slot_label(*v, slot, s, n, &labels);
        light_grid(&mut chart.configure_mesh())
            // No tick marks on the category axis: they would mark every slot.
            .set_tick_mark_size(LabelAreaPosition::Left, 0)
            .disable_y_mesh()
            .y_labels(total + 1)
            .x_labels(VALUE_LABELS)
            .y_label_formatter(&label_of)
            .x_label_formatter(&|v| group_thousands(*v, 0))
            .x_desc(bars.value_axis)
            .y_desc(bars.category_axis)
            .draw()
            .map_err(err)?;
        draw_bars(&mut chart, bars, slot)?;
        if s > 1 {
            legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The label of category `i`, with "(chosen)" when marked.
fn category_label(bars: &Bars, i: usize) -> String {
    let name = bars.categories.get(i).cloned().unwrap_or_default();
    if bars.marked.contains(&i) {
        format!("{name} (chosen)")
    } else {
        name
    }
}

/// The category label at the middle of its slot (top category first), else nothing.
fn slot_label(v: i32, slot: usize, s: usize, n: usize, labels: &[String]) -> String {
    let Ok(v) = usize::try_from(v) else {
        return String::new();
    };
    if v % slot != s || v / slot >= n {
        return String::new();
    }
    // Two no-break spaces keep the label off the axis (the category axis has no tick
    // marks, whose length plotters would otherwise leave); SVG keeps them, unlike spaces.
    labels
        .get(n - 1 - v / slot)
        .map(|l| format!("{l}\u{a0}\u{a0}"))
        .unwrap_or_default()
}

type Chart2d<'a, X, Y> = ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>;

/// The rectangles and their value labels; the first series of a category is on top.
fn draw_bars(
    chart: &mut Chart2d<
        '_,
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordi32,
    >,
    bars: &Bars,
    slot: usize,
) -> Result<(), ReportError> {
    let n = bars.categories.len();
    let s = bars.series.len();
    // Room between a bar's end and its value: 1 % of the value axis.
    let gap = chart.x_range().end * 0.01;
    for (k, series) in bars.series.iter().enumerate() {
        let mut rects = Vec::new();
        let mut texts = Vec::new();
        for (i, v) in series
            .values
            .iter()
            .copied()
            .map(finite)
            .enumerate()
            .take(n)
        {
            let base = (n - 1 - i) * slot + 2 * (s - 1 - k);
            let y0 = i32::try_from(base).unwrap_or(0);
            let chosen = bars.marked.contains(&i);
            let colour = match bars.category_colours.get(i) {
                Some(&c) if k == 0 => c,
                _ => series.colour,
            };
            let fill = if s == 1 && !bars.marked.is_empty() && !chosen {
                colour.mix(0.45).filled()
            } else {
                colour.filled()
            };
            rects.push(Rectangle::new([(0.0, y0), (v, y0 + 2)], fill));
            rects.push(Rectangle::new(
                [(0.0, y0), (v, y0 + 2)],
                BLACK.stroke_width(if chosen { 3 } else { 1 }),
            ));
            // The value beside the bar's end, centred on the bar (not on its top edge).
            texts.push(Text::new(
                group_thousands(v, 0),
                (v + gap, y0 + 1),
                TextStyle::from(label_font().into_font()).pos(Pos::new(HPos::Left, VPos::Center)),
            ));
        }
        let colour = series.colour;
        chart
            .draw_series(rects)
            .map_err(err)?
            .label(series.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], colour.filled()));
        chart.draw_series(texts).map_err(err)?;
    }
    Ok(())
}

/// The legend, framed, at `pos`.
fn legend<X: Ranged, Y: Ranged>(
    chart: &mut Chart2d<'_, X, Y>,
    pos: SeriesLabelPosition,
) -> Result<(), ReportError> {
    chart
        .configure_series_labels()
        .border_style(GRID)
        .background_style(WHITE)
        .label_font(label_font())
        .position(pos)
        .draw()
        .map_err(err)
}

/// One panel of the performance chart: a predicted value per datastore count.
pub struct LinePanel<'a> {
    /// Panel caption.
    pub caption: String,
    /// The value axis title, with its unit ("IOPS", "MiB/s").
    pub unit: &'a str,
    /// `(datastores, predicted value)`.
    pub points: Vec<(u32, f64)>,
    /// The target (0: none drawn).
    pub target: f64,
    /// The plan's datastore count.
    pub chosen: u32,
    /// The peak months of a time-phased plan (`None` without).
    pub peak: Option<PeakMarks>,
}

/// The peak months of a time-phased plan in one panel: their target (a dotted reddish
/// purple line, unless it equals the base target, whose legend then says so) and the peak
/// layout's prediction (a reddish purple triangle).
pub struct PeakMarks {
    /// Peak months per year.
    pub months: u32,
    /// The peak target, in the panel's unit.
    pub target: f64,
    /// The peak layout's datastores.
    pub datastores: u32,
    /// The peak layout's prediction, in the panel's unit.
    pub predicted: f64,
}

/// Draws a performance chart: one panel per entry of `panels`, side by side.
///
/// # Errors
/// [`ReportError::Chart`] if plotters fails.
pub fn line_svg(title: &str, panels: &[LinePanel]) -> Result<String, ReportError> {
    let mut svg = String::new();
    {
        let width = 600 * u32::try_from(panels.len()).unwrap_or(1).max(1);
        let root = SVGBackend::with_string(&mut svg, (width, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, title_font()).map_err(err)?;
        let areas = root.split_evenly((1, panels.len().max(1)));
        for (area, panel) in areas.iter().zip(panels) {
            line_panel(area, panel)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One line panel: the prediction (solid, square markers), the target (dashed) and the
/// chosen datastore count (a black circle).
fn line_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    p: &LinePanel,
) -> Result<(), ReportError> {
    let max_d = p.points.iter().map(|x| x.0).max().unwrap_or(1).max(2);
    let top = p
        .points
        .iter()
        .map(|x| finite(x.1))
        .chain(
            p.peak
                .iter()
                .flat_map(|k| [finite(k.target), finite(k.predicted)]),
        )
        .fold(finite(p.target), f64::max);
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN_PX)
        .margin_right(2 * MARGIN_PX)
        .caption(&p.caption, caption_font())
        .x_label_area_size(X_LABEL_AREA_PX)
        .y_label_area_size(80)
        .build_cartesian_2d(1u32..max_d, 0.0..(top * HEADROOM).max(1.0))
        .map_err(err)?;
    light_grid(&mut chart.configure_mesh())
        .x_labels(usize::try_from(max_d.min(12)).unwrap_or(12))
        .y_labels(VALUE_LABELS)
        .x_desc("datastores")
        .y_desc(p.unit)
        .x_label_formatter(&|v| group_thousands(f64::from(*v), 0))
        .y_label_formatter(&|v| group_thousands(*v, 0))
        .draw()
        .map_err(err)?;
    let pts: Vec<(u32, f64)> = p.points.iter().map(|&(d, v)| (d, finite(v))).collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), BLUE.stroke_width(3)).point_size(4))
        .map_err(err)?
        .label(format!("predicted {}", p.unit))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], BLUE.stroke_width(3)));
    target_line(&mut chart, p, max_d)?;
    peak_target_line(&mut chart, p, max_d)?;
    // The peak triangle first: the chosen circle, smaller, stays visible on top of it.
    peak_mark(&mut chart, p)?;
    chosen_mark(&mut chart, p, &pts)?;
    legend(&mut chart, SeriesLabelPosition::UpperRight)
}

type LineChart<'a> =
    Chart2d<'a, plotters::coord::types::RangedCoordu32, plotters::coord::types::RangedCoordf64>;

/// Whether the panel's peak target is drawn as a line of its own (it differs from the base
/// target, so neither line would hide the other).
fn peak_target_differs(p: &LinePanel) -> bool {
    p.peak
        .as_ref()
        .is_some_and(|k| finite(k.target) > 0.0 && finite(k.target) != finite(p.target))
}

/// The peak months' target as a dotted reddish purple line (short dashes, unlike the base
/// target's long ones), when it differs from the base target.
fn peak_target_line(
    chart: &mut LineChart<'_>,
    p: &LinePanel,
    max_d: u32,
) -> Result<(), ReportError> {
    let Some(peak) = p.peak.as_ref().filter(|_| peak_target_differs(p)) else {
        return Ok(());
    };
    let target = finite(peak.target);
    let style = PURPLE.stroke_width(3);
    chart
        .draw_series(DashedLineSeries::new(
            [(1, target), (max_d, target)],
            4,
            4,
            style,
        ))
        .map_err(err)?
        .label(format!(
            "peak {} target {} ({} months)",
            p.unit,
            group_thousands(target, 0),
            peak.months
        ))
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (4, 0)], style)
                + PathElement::new(vec![(10, 0), (14, 0)], style)
                + PathElement::new(vec![(20, 0), (24, 0)], style)
        });
    Ok(())
}

/// The peak layout's prediction: a reddish purple triangle, larger than the chosen mark
/// (drawn after it, on top) so both show when they coincide, named in the legend.
fn peak_mark(chart: &mut LineChart<'_>, p: &LinePanel) -> Result<(), ReportError> {
    let Some(peak) = &p.peak else {
        return Ok(());
    };
    let (d, v) = (peak.datastores, finite(peak.predicted));
    let noun = if d == 1 { "datastore" } else { "datastores" };
    let style = PURPLE.stroke_width(3);
    chart
        .draw_series(std::iter::once(TriangleMarker::new((d, v), 18, style)))
        .map_err(err)?
        .label(format!(
            "peak layout: {d} {noun}, {} {}",
            group_thousands(v, 0),
            p.unit
        ))
        .legend(move |(x, y)| TriangleMarker::new((x + 12, y), 8, style));
    Ok(())
}

/// The target as a dashed horizontal vermillion line across the panel.
fn target_line(
    chart: &mut Chart2d<
        '_,
        plotters::coord::types::RangedCoordu32,
        plotters::coord::types::RangedCoordf64,
    >,
    p: &LinePanel,
    max_d: u32,
) -> Result<(), ReportError> {
    let target = finite(p.target);
    if target <= 0.0 {
        return Ok(());
    }
    let style = VERMILLION.stroke_width(2);
    chart
        .draw_series(DashedLineSeries::new(
            [(1, target), (max_d, target)],
            10,
            6,
            style,
        ))
        .map_err(err)?
        .label(format!(
            "{} target {}{}",
            p.unit,
            group_thousands(target, 0),
            if p.peak.is_some() && !peak_target_differs(p) {
                " (base and peak months)"
            } else {
                ""
            }
        ))
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (10, 0)], style)
                + PathElement::new(vec![(14, 0), (24, 0)], style)
        });
    Ok(())
}

/// The chosen datastore count: a black circle on the prediction, named in the legend.
fn chosen_mark(
    chart: &mut Chart2d<
        '_,
        plotters::coord::types::RangedCoordu32,
        plotters::coord::types::RangedCoordf64,
    >,
    p: &LinePanel,
    pts: &[(u32, f64)],
) -> Result<(), ReportError> {
    let Some(&(d, v)) = pts.iter().find(|x| x.0 == p.chosen) else {
        return Ok(());
    };
    let noun = if d == 1 { "datastore" } else { "datastores" };
    chart
        .draw_series(std::iter::once(Circle::new((d, v), 8, BLACK.filled())))
        .map_err(err)?
        .label(format!(
            "chosen: {d} {noun}, {} {}",
            group_thousands(v, 0),
            p.unit
        ))
        .legend(|(x, y)| Circle::new((x + 12, y), 6, BLACK.filled()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::style::SKY;
    use super::*;

    #[test]
    fn empty_and_non_finite_inputs_still_draw() {
        let bars = Bars {
            title: "t",
            value_axis: "USD per month",
            category_axis: "c",
            categories: Vec::new(),
            series: Vec::new(),
            marked: Vec::new(),
            category_colours: Vec::new(),
        };
        assert!(bar_svg(&bars).unwrap().contains("USD per month"));
        let bars = Bars {
            categories: vec!["a".into()],
            series: vec![BarSeries {
                name: "s".into(),
                colour: SKY,
                values: vec![f64::NAN],
            }],
            ..bars
        };
        assert!(bar_svg(&bars).unwrap().contains("<svg"));
        let panel = LinePanel {
            caption: "c".into(),
            unit: "IOPS",
            points: vec![(1, f64::INFINITY)],
            target: f64::NAN,
            chosen: 1,
            peak: None,
        };
        let svg = line_svg("t", &[panel]).unwrap();
        // No target line for a target that is not a number; the chosen point at 0.
        assert!(!svg.contains("IOPS target") && svg.contains("chosen: 1 datastore, 0 IOPS"));
        assert!(line_svg("t", &[]).unwrap().contains("<svg"));
    }
}

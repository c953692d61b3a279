//! Native Excel charts (rust_xlsxwriter [`Chart`]) over the workbook's own cells: cost per
//! alternative, size against placed capacity per datastore, and capacity and cost per
//! cluster. They are ANF figures and take the SVG charts' colours
//! ([`crate::report::charts::style`]): the last (or only) series ANF blue, a size beside it
//! sky blue, light grey grid lines.

use rust_xlsxwriter::{
    Chart, ChartFormat, ChartLine, ChartSolidFill, ChartType, Workbook, XlsxError,
};

use super::cells::Sheet;
use crate::report::charts::style::{BLUE, GRID, SKY, rgb};

/// One chart: series of columns of `source`, inserted on `target`.
pub struct ChartSpec {
    /// Sheet the chart is drawn on.
    pub target: &'static str,
    /// Sheet holding the data.
    pub source: &'static str,
    /// Title (with units).
    pub title: &'static str,
    /// Value axis title (with units).
    pub axis: &'static str,
    /// Bar (horizontal) or column.
    pub bar: bool,
    /// Column of the category labels.
    pub categories: usize,
    /// (series name, column) of each series.
    pub series: Vec<(&'static str, usize)>,
}

/// Inserts each chart whose source sheet has data rows, to the right of the target's
/// columns (or at `C2` of an item/value sheet).
///
/// # Errors
/// [`XlsxError`] when rust_xlsxwriter rejects the chart.
pub fn insert(wb: &mut Workbook, sheets: &[Sheet], specs: &[&ChartSpec]) -> Result<(), XlsxError> {
    let mut placed: Vec<&str> = Vec::new();
    for spec in specs {
        let Some(source) = sheets.iter().find(|s| s.name == spec.source) else {
            continue;
        };
        let rows = u32::try_from(source.rows.len()).unwrap_or(u32::MAX);
        let Some(target) = sheets.iter().find(|s| s.name == spec.target) else {
            continue;
        };
        if rows == 0 {
            continue;
        }
        let mut chart = Chart::new(if spec.bar {
            ChartType::Bar
        } else {
            ChartType::Column
        });
        chart.title().set_name(spec.title);
        let axis = if spec.bar {
            chart.x_axis()
        } else {
            chart.y_axis()
        };
        axis.set_name(spec.axis)
            .set_num_format("#,##0")
            .set_major_gridlines_line(ChartLine::new().set_color(rgb(GRID)));
        let cat = u16::try_from(spec.categories).unwrap_or(0);
        let last = spec.series.len().saturating_sub(1);
        for (k, (name, col)) in spec.series.iter().enumerate() {
            let col = u16::try_from(*col).unwrap_or(0);
            let colour = if k == last { BLUE } else { SKY };
            chart
                .add_series()
                .set_name(*name)
                .set_categories((spec.source, 1, cat, rows, cat))
                .set_values((spec.source, 1, col, rows, col))
                .set_format(
                    ChartFormat::new().set_solid_fill(ChartSolidFill::new().set_color(rgb(colour))),
                );
        }
        let n = placed.iter().filter(|t| **t == spec.target).count();
        placed.push(spec.target);
        let col = u16::try_from(target.header.len() + 1).unwrap_or(2);
        let row = u32::try_from(1 + n * 18).unwrap_or(1);
        wb.worksheet_from_name(spec.target)?
            .insert_chart(row, col, &chart)?;
    }
    Ok(())
}

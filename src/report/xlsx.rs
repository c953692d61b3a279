//! The plan as an Excel workbook (rust_xlsxwriter): a summary sheet with a chart of each
//! datastore's placed capacity against its size, then one sheet per table (pools,
//! datastores, placements, excluded VMs, alternatives, warnings, assumptions). Numbers are
//! written as numbers, with units in the column headers.

use rust_xlsxwriter::{Chart, ChartType, Format, Workbook, Worksheet, XlsxError};

use crate::plan::Plan;
use crate::report::ReportError;

fn xlsx_error(e: XlsxError) -> ReportError {
    ReportError::Xlsx(e.to_string())
}

/// A cell value: text or number.
enum Cell {
    Text(String),
    Number(f64),
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        Cell::Number(v)
    }
}

impl From<u32> for Cell {
    fn from(v: u32) -> Self {
        Cell::Number(f64::from(v))
    }
}

impl From<usize> for Cell {
    fn from(v: usize) -> Self {
        Cell::Number(v as f64)
    }
}

/// Writes a bold header row and the rows below it, and sizes the columns to fit.
fn sheet(ws: &mut Worksheet, header: &[&str], rows: Vec<Vec<Cell>>) -> Result<(), XlsxError> {
    let bold = Format::new().set_bold();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for (c, h) in header.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    for (r, row) in rows.iter().enumerate() {
        let r = u32::try_from(r + 1).unwrap_or(u32::MAX);
        for (c, cell) in row.iter().enumerate() {
            let len = match cell {
                Cell::Text(t) => {
                    ws.write_string(r, c as u16, t)?;
                    t.len()
                }
                Cell::Number(v) if v.is_finite() => {
                    ws.write_number(r, c as u16, *v)?;
                    12
                }
                Cell::Number(v) => {
                    ws.write_string(r, c as u16, v.to_string())?;
                    8
                }
            };
            if let Some(w) = widths.get_mut(c) {
                *w = (*w).max(len);
            }
        }
    }
    for (c, w) in widths.iter().enumerate() {
        ws.set_column_width(c as u16, (*w).clamp(8, 80) as f64 + 2.0)?;
    }
    Ok(())
}

fn build(plan: &Plan) -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    let t = &plan.totals;
    let perf = &plan.performance;

    let ws = wb.add_worksheet().set_name("Summary")?;
    sheet(
        ws,
        &["item", "value"],
        vec![
            vec!["region".into(), plan.region.clone().into()],
            vec![
                "prices effective".into(),
                plan.prices_effective.clone().into(),
            ],
            vec!["hosts".into(), plan.hosts.into()],
            vec!["datastores".into(), t.datastores.into()],
            vec!["flows".into(), (t.flows as f64).into()],
            vec!["pool size TiB".into(), t.pool_size_tib.into()],
            vec!["VMs placed".into(), t.vms_placed.into()],
            vec!["VMs excluded".into(), t.vms_excluded.into()],
            vec!["capacity placed GiB".into(), t.placed_capacity_gib.into()],
            vec![
                "capacity required GiB".into(),
                t.required_capacity_gib.into(),
            ],
            vec!["QoS throughput MiB/s".into(), t.throughput_mibps.into()],
            vec!["IOPS target".into(), perf.iops_target.into()],
            vec!["IOPS predicted".into(), perf.small_block.iops.into()],
            vec!["MiB/s target".into(), perf.throughput_target_mibps.into()],
            vec![
                "MiB/s predicted".into(),
                perf.large_block.throughput_mibps.into(),
            ],
            vec!["cost USD/month".into(), t.cost_usd_per_month.into()],
        ],
    )?;

    let ws = wb.add_worksheet().set_name("Pools")?;
    sheet(
        ws,
        &[
            "pool",
            "service level",
            "size TiB",
            "throughput MiB/s",
            "purchased MiB/s",
            "cool access",
            "reserved TiB",
            "cost USD/month",
        ],
        plan.pools
            .iter()
            .map(|p| {
                vec![
                    p.name.clone().into(),
                    p.service_level.to_string().into(),
                    p.size_tib.into(),
                    p.throughput_mibps.into(),
                    p.purchased_throughput_mibps.into(),
                    p.cool_access.to_string().into(),
                    p.reserved_tib.into(),
                    p.cost_usd_per_month.into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Datastores")?;
    sheet(
        ws,
        &[
            "datastore",
            "pool",
            "size GiB",
            "QoS MiB/s",
            "predicted IOPS",
            "predicted MiB/s",
            "VMs",
            "placed GiB",
            "cost USD/month",
        ],
        plan.datastores
            .iter()
            .map(|d| {
                vec![
                    d.name.clone().into(),
                    d.pool.clone().into(),
                    d.size_gib.into(),
                    d.throughput_mibps.into(),
                    d.predicted_iops.into(),
                    d.predicted_throughput_mibps.into(),
                    d.vm_count.into(),
                    d.placed_capacity_gib.into(),
                    d.cost_usd_per_month.into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Placements")?;
    sheet(
        ws,
        &["VM", "datastore", "capacity GiB", "file", "sheet", "row"],
        plan.placements
            .iter()
            .map(|p| {
                vec![
                    p.vm.clone().into(),
                    p.datastore.clone().into(),
                    p.capacity_gib.into(),
                    p.origin.file.clone().into(),
                    p.origin.sheet.clone().into(),
                    p.origin.row.into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Excluded")?;
    sheet(
        ws,
        &["VM", "reason", "capacity GiB", "file", "sheet", "row"],
        plan.excluded
            .iter()
            .map(|e| {
                vec![
                    e.name.clone().into(),
                    e.reason.describe().into(),
                    e.capacity_gib
                        .map_or_else(|| Cell::from("unknown"), Cell::from),
                    e.origin.file.clone().into(),
                    e.origin.sheet.clone().into(),
                    e.origin.row.into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Alternatives")?;
    sheet(
        ws,
        &[
            "restriction",
            "service level",
            "datastores",
            "feasible",
            "size TiB",
            "cost USD/month",
            "vs chosen USD/month",
            "note",
        ],
        plan.alternatives
            .iter()
            .map(|a| {
                vec![
                    a.basis.clone().into(),
                    a.service_level
                        .map_or_else(|| "-".to_string(), |l| l.to_string())
                        .into(),
                    a.datastores.into(),
                    a.feasible.to_string().into(),
                    a.pool_size_tib.into(),
                    a.cost_usd_per_month.into(),
                    a.extra_cost_usd_per_month.into(),
                    a.note.clone().into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Warnings")?;
    sheet(
        ws,
        &["file", "sheet", "row", "column", "value", "message"],
        plan.warnings
            .iter()
            .map(|w| {
                vec![
                    w.file.clone().into(),
                    w.sheet.clone().unwrap_or_default().into(),
                    w.row.map_or_else(|| Cell::from(""), Cell::from),
                    w.column.clone().unwrap_or_default().into(),
                    w.value.clone().unwrap_or_default().into(),
                    w.message.clone().into(),
                ]
            })
            .collect(),
    )?;

    let ws = wb.add_worksheet().set_name("Assumptions")?;
    sheet(
        ws,
        &["assumption", "value", "source"],
        plan.assumptions
            .iter()
            .map(|a| {
                vec![
                    a.name.clone().into(),
                    a.value.clone().into(),
                    a.note.clone().into(),
                ]
            })
            .collect(),
    )?;

    // Chart on the summary sheet: placed capacity against size, per datastore.
    let last = u32::try_from(plan.datastores.len()).unwrap_or(u32::MAX);
    if last > 0 {
        let mut chart = Chart::new(ChartType::Column);
        chart
            .title()
            .set_name("Datastores: size and placed capacity (GiB)");
        chart
            .add_series()
            .set_name("size GiB")
            .set_categories(("Datastores", 1, 0, last, 0))
            .set_values(("Datastores", 1, 2, last, 2));
        chart
            .add_series()
            .set_name("placed GiB")
            .set_categories(("Datastores", 1, 0, last, 0))
            .set_values(("Datastores", 1, 7, last, 7));
        wb.worksheet_from_name("Summary")?
            .insert_chart(1, 3, &chart)?;
    }
    wb.save_to_buffer()
}

/// The plan as an `.xlsx` file's bytes.
///
/// # Errors
/// [`ReportError::Xlsx`] if the workbook cannot be built (a sheet name or cell rejected).
pub fn plan_xlsx(plan: &Plan) -> Result<Vec<u8>, ReportError> {
    build(plan).map_err(xlsx_error)
}

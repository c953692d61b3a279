//! The plan as a live Excel workbook (rust_xlsxwriter), for one cluster's plan
//! ([`plan_xlsx`]), the estate ([`estate_xlsx`]) and per-cluster plans
//! ([`cluster_plans_xlsx`]).
//!
//! Every section of the JSON has a sheet (an empty section: a row saying `none`). Costs
//! are formulas over the size, cool GiB and purchased MiB/s cells and the `Prices` sheet,
//! each with its cached result (the plan's figure; a formula that would not reproduce the
//! figure to the cent is written as the value, with a note); the summary costs sum the
//! `Pools` cost column. Headers carry units, are bold and frozen, with an autofilter; native
//! charts show cost per alternative, size and placed capacity per datastore, and capacity
//! and cost per cluster. Cells beyond Excel's limits are cut with a warning
//! ([`Workbook::warnings`], also on the `Warnings` sheet).

use rust_xlsxwriter::XlsxError;

use crate::plan::{ClusterPlans, EstatePlan, Plan};
use crate::report::ReportError;

mod cells;
mod charts;
mod estate;
mod per_cluster;
mod pools;
mod prices;
mod sections;
mod single;

pub use cells::{KEPT_CHARS, MAX_CELL_CHARS, MAX_DATA_ROWS};

use cells::{Cell, Sheet, text};
use charts::ChartSpec;
use single::PlanSheets;

/// A workbook's bytes and what had to be cut to fit Excel's limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Workbook {
    /// The `.xlsx` file.
    pub bytes: Vec<u8>,
    /// One sentence per cut: a text cell over 32,767 characters (naming the sheet, row and
    /// VM), or a sheet over 1,048,575 rows (with the count). Also on the `Warnings` sheet.
    pub warnings: Vec<String>,
}

fn xlsx_error(e: XlsxError) -> ReportError {
    ReportError::Xlsx(e.to_string())
}

/// One cluster's plan as a workbook: `Summary`, `Pools`, `Datastores`, `Performance`,
/// `Binding limits`, `Alternatives`, `Marginal costs`, `Time phases`, `vSAN`,
/// `Placements`, `Excluded`, `Warnings`, `Assumptions`, `Prices`.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn plan_xlsx(plan: &Plan) -> Result<Workbook, ReportError> {
    let mut sheets = PlanSheets::new(false);
    sheets.add("", plan);
    let mut all = vec![single::summary(plan, &sheets)];
    all.extend(sheets.into_sheets());
    let mut specs = plan_charts(0);
    specs.push(datastore_chart("Summary", 0));
    write_book(all, &specs).map_err(xlsx_error)
}

/// The estate plan as a workbook: `Estate`, `Sizing`, `SKUs`, `Clusters`, `Estate pools`,
/// `Reservations`, `vSAN alone`, then the per-cluster sheets of [`plan_xlsx`] (after
/// `Summary`) with a leading `cluster` column holding every cluster's rows.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn estate_xlsx(plan: &EstatePlan) -> Result<Workbook, ReportError> {
    let all = estate::estate_sheets(plan);
    let mut specs = plan_charts(1);
    specs.extend(per_cluster::cluster_charts());
    write_book(all, &specs).map_err(xlsx_error)
}

/// Per-cluster plans as a workbook: `Total`, `Clusters`, `Reservations`, then the
/// per-cluster sheets of [`plan_xlsx`] with a leading `cluster` column.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn cluster_plans_xlsx(plans: &ClusterPlans) -> Result<Workbook, ReportError> {
    let all = per_cluster::cluster_plans_sheets(plans);
    let mut specs = plan_charts(1);
    specs.extend(per_cluster::cluster_charts());
    write_book(all, &specs).map_err(xlsx_error)
}

/// The per-cluster sheets' charts, their columns shifted by `o`.
fn plan_charts(o: usize) -> Vec<ChartSpec> {
    vec![
        ChartSpec {
            target: "Alternatives",
            source: "Alternatives",
            title: "Cost per alternative (USD/month)",
            axis: "USD/month",
            bar: true,
            categories: o,
            series: vec![("cost USD/month", o + 10)],
        },
        datastore_chart("Datastores", o),
    ]
}

fn datastore_chart(target: &'static str, o: usize) -> ChartSpec {
    ChartSpec {
        target,
        source: "Datastores",
        title: "Datastores: size and placed capacity (GiB)",
        axis: "GiB",
        bar: false,
        categories: o,
        series: vec![
            ("size GiB", o + pools::DS_SIZE),
            ("placed GiB", o + pools::DS_PLACED),
        ],
    }
}

/// Fits `sheets` to Excel's limits, lists the cuts on `Warnings`, marks empty sections
/// `none`, writes the sheets and the charts.
fn write_book(mut sheets: Vec<Sheet>, specs: &[ChartSpec]) -> Result<Workbook, XlsxError> {
    let warnings = cells::fit_limits(&mut sheets, MAX_DATA_ROWS);
    let mut chartable: Vec<&'static str> = Vec::new();
    for sheet in &mut sheets {
        let lead = usize::from(sheet.header.first().is_some_and(|h| h == "cluster"));
        if sheet.name == "Warnings" {
            for w in &warnings {
                let mut row = vec![Cell::Empty; lead];
                row.extend([text("workbook"), Cell::Empty, Cell::Empty, Cell::Empty]);
                row.extend([Cell::Empty, text(w.clone())]);
                sheet.rows.push(row);
            }
        }
        if !sheet.rows.is_empty() {
            chartable.push(sheet.name);
        }
        sheet.none_if_empty(lead);
    }
    let mut wb = rust_xlsxwriter::Workbook::new();
    for sheet in &sheets {
        cells::write_sheet(wb.add_worksheet(), sheet)?;
    }
    let specs: Vec<&ChartSpec> = specs
        .iter()
        .filter(|s| chartable.contains(&s.source))
        .collect();
    charts::insert(&mut wb, &sheets, &specs)?;
    Ok(Workbook {
        bytes: wb.save_to_buffer()?,
        warnings,
    })
}

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

use crate::plan::{ClusterPlans, EstatePlan, Plan};
use crate::report::ReportError;

mod cells;
mod charts;
mod designs;
mod estate;
mod hosts;
mod model;
mod per_cluster;
mod pools;
mod prices;
mod sections;
mod single;

pub use cells::{KEPT_CHARS, MAX_CELL_CHARS, MAX_DATA_ROWS};

use cells::{Cell, Cut, Sheet, count, text};
use charts::ChartSpec;
use single::PlanSheets;

/// A workbook's bytes and what had to be cut to fit Excel's limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Workbook {
    /// The `.xlsx` file.
    pub bytes: Vec<u8>,
    /// One sentence per cut: a text cell over 32,767 characters (naming the sheet, row,
    /// column and cell, and the VM or the text's start; the same text cut in several cells
    /// is one sentence with how many more), or a sheet over 1,048,575 rows (with the count).
    /// Each cut is a row of the `Warnings` sheet.
    pub warnings: Vec<String>,
}

fn xlsx_error(e: cells::WriteError) -> ReportError {
    ReportError::Xlsx(e.to_string())
}

/// How a workbook is worded. The default keeps the library's words (settings named by
/// their `PlanOptions` field in backticks, as in the JSON). `#[non_exhaustive]`: outside
/// this crate, built from [`XlsxOptions::default`] and its chaining setter
/// (`XlsxOptions::default().reword(&f)`).
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct XlsxOptions<'a> {
    /// Rewrites every text cell (headers, messages, notes, assumptions; not the columns of
    /// names, which are the inventory's or the plan's own) before it is written; the
    /// command passes [`crate::report::words::customer_words`] (sources by their page or
    /// publisher, settings by their flag). `None`: the text as the plan has it.
    pub reword: Option<&'a dyn Fn(&str) -> String>,
}

impl std::fmt::Debug for XlsxOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XlsxOptions")
            .field("reword", &self.reword.is_some())
            .finish()
    }
}

crate::setters::setters!(XlsxOptions<'a> {
    reword: Some(&'a dyn Fn(&str) -> String);
});

/// One cluster's plan as a workbook: `Summary`, `Pools`, `Datastores`, `Performance`,
/// `Binding limits`, `Alternatives`, `Marginal costs`, `Time phases`, `vSAN`,
/// `Placements`, `Excluded`, `Warnings`, `Assumptions`, `Prices`; in the library's words
/// ([`plan_xlsx_with`] to reword).
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn plan_xlsx(plan: &Plan) -> Result<Workbook, ReportError> {
    plan_xlsx_with(plan, &XlsxOptions::default())
}

/// [`plan_xlsx`] worded by `options`.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn plan_xlsx_with(plan: &Plan, options: &XlsxOptions) -> Result<Workbook, ReportError> {
    let mut sheets = PlanSheets::new(false);
    sheets.add("", plan);
    let mut all = vec![single::summary(plan, &sheets)];
    all.extend(sheets.into_sheets());
    model::add_missing(&mut all, &crate::report::model::plan::plan_sections(plan));
    let mut specs = plan_charts(0);
    specs.push(datastore_chart("Summary", 0));
    write_book(all, &specs, None, options).map_err(xlsx_error)
}

/// The estate plan as a workbook: `Estate`, `Hosts`, `Sizing`, `SKUs`, `Clusters`, `Estate
/// pools`, `Reservations`, `vSAN alone`, `Designs`, then the per-cluster sheets of [`plan_xlsx`] (after
/// `Summary`) with a leading `cluster` column holding every cluster's rows; in the
/// library's words ([`estate_xlsx_with`] to reword).
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn estate_xlsx(plan: &EstatePlan) -> Result<Workbook, ReportError> {
    estate_xlsx_with(plan, &XlsxOptions::default())
}

/// [`estate_xlsx`] worded by `options`.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn estate_xlsx_with(plan: &EstatePlan, options: &XlsxOptions) -> Result<Workbook, ReportError> {
    let all = estate::estate_sheets(plan);
    let mut specs = plan_charts(1);
    specs.extend(per_cluster::cluster_charts());
    write_book(all, &specs, Some("(estate)"), options).map_err(xlsx_error)
}

/// Per-cluster plans as a workbook: `Total`, `Clusters`, `Reservations`, then the
/// per-cluster sheets of [`plan_xlsx`] with a leading `cluster` column; in the library's
/// words ([`cluster_plans_xlsx_with`] to reword).
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn cluster_plans_xlsx(plans: &ClusterPlans) -> Result<Workbook, ReportError> {
    cluster_plans_xlsx_with(plans, &XlsxOptions::default())
}

/// [`cluster_plans_xlsx`] worded by `options`.
///
/// # Errors
/// [`ReportError::Xlsx`] if rust_xlsxwriter rejects the workbook.
pub fn cluster_plans_xlsx_with(
    plans: &ClusterPlans,
    options: &XlsxOptions,
) -> Result<Workbook, ReportError> {
    let all = per_cluster::cluster_plans_sheets(plans);
    let mut specs = plan_charts(1);
    specs.extend(per_cluster::cluster_charts());
    write_book(all, &specs, Some("(total)"), options).map_err(xlsx_error)
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

/// The headers of columns that hold names from the input or the plan (clusters, VMs,
/// datastores, pools, accounts, files, sheets, input values): their cells are never
/// reworded, so a cluster named `prod_east` keeps its name.
pub const NAME_HEADERS: [&str; 11] = [
    "cluster",
    "clusters",
    "source cluster",
    "name",
    "VM",
    "datastore",
    "pool",
    "NetApp account",
    "file",
    "sheet",
    "value",
];

/// Rewords every text cell of `sheets` but those of name columns ([`NAME_HEADERS`] and the
/// VM-name column). A `value` column holds an input's cell on `Warnings` only; elsewhere
/// (`Assumptions`, the summary) it is the plan's own words and is reworded.
fn reword(sheets: &mut [Sheet], reword: &dyn Fn(&str) -> String) {
    for sheet in sheets {
        let names: Vec<bool> = sheet
            .header
            .iter()
            .enumerate()
            .map(|(c, h)| {
                Some(c) == sheet.vm_col
                    || (NAME_HEADERS.contains(&h.as_str())
                        && (h != "value" || sheet.name == "Warnings"))
            })
            .collect();
        for h in &mut sheet.header {
            *h = reword(h);
        }
        for row in &mut sheet.rows {
            for (c, cell) in row.iter_mut().enumerate() {
                if let Cell::Text(t) = cell
                    && !names.get(c).copied().unwrap_or(false)
                {
                    *t = reword(t);
                }
            }
        }
    }
}

/// The `Warnings` row of one cut: the cluster (the cut row's, else `owner`), `workbook`,
/// the sheet, row and column, and the sentence.
fn cut_row(cut: &Cut, lead: usize, owner: Option<&str>) -> Vec<Cell> {
    let mut row = Vec::new();
    if lead == 1 {
        let cluster = cut.cluster.as_deref().or(owner).unwrap_or_default();
        row.push(text(cluster));
    }
    // A cut is the workbook's own bound on its cells: a `bound` warning.
    row.extend([
        text(crate::inventory::WarningKind::Bound.as_str()),
        text("workbook"),
        text(cut.sheet),
        count(cut.row),
        cut.column.clone().map_or(Cell::Empty, text),
        Cell::Empty,
        text(cut.message.clone()),
    ]);
    row
}

/// Rewords the text cells (`options`), fits `sheets` to Excel's limits, lists the cuts on
/// `Warnings` (`owner`: the `cluster` cell of a cut not in one cluster's row, `(estate)` or
/// `(total)`), marks empty sections `none`, writes the sheets and the charts.
fn write_book(
    mut sheets: Vec<Sheet>,
    specs: &[ChartSpec],
    owner: Option<&str>,
    options: &XlsxOptions,
) -> Result<Workbook, cells::WriteError> {
    if let Some(f) = options.reword {
        reword(&mut sheets, f);
    }
    let cuts = cells::fit_limits(&mut sheets, MAX_DATA_ROWS);
    let mut chartable: Vec<&'static str> = Vec::new();
    for sheet in &mut sheets {
        let lead = usize::from(sheet.header.first().is_some_and(|h| h == "cluster"));
        if sheet.name == "Warnings" {
            for cut in &cuts {
                sheet.rows.push(cut_row(cut, lead, owner));
            }
        }
        if !sheet.rows.is_empty() {
            chartable.push(sheet.name);
        }
        sheet.none_if_empty(lead);
    }
    let warnings = cells::grouped_warnings(&cuts);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The setter sets `reword` to the function given.
    #[test]
    fn setters_set_their_own_field() {
        assert!(XlsxOptions::default().reword.is_none());
        let shout = |s: &str| s.to_uppercase();
        let options = XlsxOptions::default().reword(&shout);
        assert_eq!(options.reword.map(|f| f("pool")), Some("POOL".to_string()));
    }
}

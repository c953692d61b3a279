//! Rendering plans and inventories: readable text, versioned JSON, CSV, Markdown, HTML and
//! the workbook.
//!
//! ```
//! use dsplan::report::{Format, render_estate_plan};
//! use dsplan::{PlanOptions, Planner};
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let estate = Planner::new()
//!     .input(fixture)
//!     .options(PlanOptions::default())
//!     .plan_estate()?;
//! // The fixture's 7 VMs in scope (8 read, a template left out).
//! let text = render_estate_plan(&estate, Format::Text)?;
//! assert!(text.starts_with("Estate: 7 VMs on "));
//! let json: serde_json::Value = serde_json::from_str(&render_estate_plan(&estate, Format::Json)?)?;
//! assert_eq!(json["schema_version"], dsplan::plan::SCHEMA_VERSION);
//! let csv = render_estate_plan(&estate, Format::Csv)?;
//! assert!(csv.starts_with("design,cluster,host_sku,"));
//! let markdown = render_estate_plan(&estate, Format::Markdown)?;
//! assert!(markdown.starts_with("# Estate plan\n"));
//! let html = render_estate_plan(&estate, Format::Html)?;
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The workbook (`xlsx::estate_xlsx`) needs the `xlsx` feature, the SVG charts
//! (`charts::estate_charts`, or `Planned::charts`) the `charts` feature, the JSON Schemas'
//! generators (`schema::plan_schema` ...) the `schema` feature; all are default features.
//!
//! Renderers return a `String`; writing it to stdout or a file is the caller's business.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::inventory::{ClusterSummary, Inventory, InventorySummary, Warning};
use crate::plan::Plan;
use text::plan_text;

mod json;
mod markdown;
pub mod model;
mod text;
pub mod words;

#[cfg(feature = "charts")]
pub mod charts;
pub mod html;
pub mod predict;
pub mod safe;
pub mod schema;
pub mod tables;
#[cfg(feature = "xlsx")]
pub mod xlsx;

/// A chart: its file name and its SVG document (`report::charts` draws them, with the
/// `charts` feature; [`html`] places them in its documents).
pub type Chart = (String, String);

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Human-readable text.
    Text,
    /// Pretty-printed JSON (`schema_version` first).
    Json,
    /// CSV, one row per datastore ([`tables::PLAN_CSV_HEADER`]); plans only.
    Csv,
    /// A Markdown document; plans only.
    Markdown,
    /// A self-contained HTML document ([`html`]); plans only. Rendered here without
    /// charts: [`html::estate_html`] and its siblings take the plan's charts.
    Html,
}

/// Errors while rendering.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// JSON serialisation failed (non-finite number ...).
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// CSV writing failed.
    #[error("CSV: {0}")]
    Csv(String),
    /// The workbook could not be built.
    #[error("xlsx: {0}")]
    Xlsx(String),
    /// A chart could not be drawn.
    #[error("chart: {0}")]
    Chart(String),
    /// The format does not apply to this output.
    #[error("{0}")]
    Unsupported(String),
}

/// Renders a plan.
///
/// # Errors
/// [`ReportError::Json`] if the plan holds a value JSON cannot carry; [`ReportError::Csv`]
/// if CSV writing fails.
pub fn render_plan(plan: &Plan, format: Format) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(json::pretty(plan)?),
        Format::Text => Ok(terminal_safe(plan_text(plan))),
        Format::Csv => tables::plan_csv(plan),
        Format::Markdown => Ok(terminal_safe(tables::plan_markdown(plan))),
        Format::Html => Ok(html::plan_html(plan, &[])),
    }
}

/// Renders per-cluster plans: each cluster's plan, then the total.
///
/// # Errors
/// [`ReportError::Json`] if a plan holds a value JSON cannot carry.
pub fn render_cluster_plans(
    plans: &crate::plan::ClusterPlans,
    format: Format,
) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(json::pretty(plans)?),
        Format::Csv => tables::cluster_plans_csv(plans),
        Format::Markdown => Ok(terminal_safe(markdown::cluster::cluster_plans_markdown(
            plans,
        ))),
        Format::Text => Ok(terminal_safe(text::cluster_plans_text(plans))),
        Format::Html => Ok(html::cluster_plans_html(plans, &[])),
    }
}

/// How much of an estate plan its text shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextDetail {
    /// A summary that fits a screen: the headline, the AVS clusters, the designs' estate
    /// rows, the host SKUs, the pools and reservations, the warnings grouped by cause, and
    /// a last line naming what [`TextDetail::Full`] adds.
    #[default]
    Summary,
    /// Every section and every AVS cluster's plan (the assumptions and prices the
    /// clusters' plans share printed once), then the excluded VMs.
    Full,
}

/// Renders an estate plan: as text, the summary ([`TextDetail::Summary`]); as Markdown,
/// the estate, then each AVS cluster's plan, then the excluded VMs once.
///
/// # Errors
/// [`ReportError::Json`] if the plan holds a value JSON cannot carry; [`ReportError::Csv`]
/// if CSV writing fails.
pub fn render_estate_plan(
    plan: &crate::plan::EstatePlan,
    format: Format,
) -> Result<String, ReportError> {
    match format {
        Format::Json => Ok(json::pretty(plan)?),
        Format::Csv => tables::estate_csv(plan),
        Format::Markdown => Ok(terminal_safe(markdown::estate::estate_markdown(plan))),
        Format::Text => Ok(terminal_safe(text::estate::estate_text(
            plan,
            TextDetail::Summary,
        ))),
        Format::Html => Ok(html::estate_html(plan, &[])),
    }
}

/// Renders an estate plan as text at `detail`.
pub fn render_estate_text(plan: &crate::plan::EstatePlan, detail: TextDetail) -> String {
    terminal_safe(text::estate::estate_text(plan, detail))
}

/// A whole text or Markdown report with every control character but its own line feeds
/// and tabs, and every bidi override, escaped ([`safe::escape_controls`] with
/// [`safe::Keep::Layout`]): names from the input are escaped where they are written (so
/// tables align on the escaped text); this catches any other place a name reaches.
fn terminal_safe(text: String) -> String {
    safe::escape_controls_owned(text, safe::Keep::Layout)
}

/// The JSON shape of `dsplan inventory --json`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InventoryReport<'a> {
    /// Version of this JSON shape.
    pub schema_version: u32,
    /// Input paths.
    pub inputs: &'a [String],
    /// Counts and totals.
    pub summary: InventorySummary,
    /// Per-cluster counts and totals, by cluster label: the name, qualified by vCenter
    /// (and datacenter) where clusters of several vCenters share it, `Cluster1 (vc-a)`
    /// (`(none)` for VMs without one).
    pub clusters: BTreeMap<String, InventorySummary>,
    /// Per-cluster vCPUs, memory, hosts and datastores by type, sorted by cluster name
    /// (VMs without a cluster last).
    pub cluster_details: Vec<ClusterSummary>,
    /// Warnings found while reading.
    pub warnings: &'a [Warning],
}

/// Renders an inventory summary.
///
/// # Errors
/// [`ReportError::Json`] if a total is not finite.
pub fn render_inventory(inventory: &Inventory, format: Format) -> Result<String, ReportError> {
    let report = InventoryReport {
        schema_version: crate::plan::SCHEMA_VERSION,
        inputs: &inventory.inputs,
        summary: inventory.summary(),
        clusters: inventory.summary_by_cluster(),
        cluster_details: inventory.cluster_summaries(),
        warnings: &inventory.warnings,
    };
    match format {
        Format::Json => Ok(json::pretty(&report)?),
        Format::Csv | Format::Markdown | Format::Html => Err(ReportError::Unsupported(
            "an inventory renders as text or JSON".into(),
        )),
        Format::Text => Ok(terminal_safe(text::inventory::inventory_text(
            inventory, &report,
        ))),
    }
}

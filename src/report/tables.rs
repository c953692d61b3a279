//! Plans as CSV (one row per datastore, for spreadsheets and scripts); the Markdown
//! document lives in `markdown/` and is re-exported here.

use crate::plan::{EstatePlan, Plan};
use crate::report::ReportError;
use crate::report::safe::csv_text;

pub use super::markdown::plan_markdown;

/// Header of [`plan_csv`].
pub const PLAN_CSV_HEADER: [&str; 16] = [
    "datastore",
    "pool",
    "service_level",
    "size_gib",
    "qos_throughput_mibps",
    "predicted_iops",
    "predicted_throughput_mibps",
    "vm_count",
    "placed_capacity_gib",
    "cost_usd_per_month",
    "pool_size_tib",
    "pool_cool_access",
    "hosts",
    "region",
    "prices_effective",
    "pool_share_gib",
];

/// The plan's datastores as CSV rows (see [`PLAN_CSV_HEADER`]), with their pool and the
/// plan's hosts and region on every row; `prefix` cells (for example the cluster) go first.
/// Text cells from the input (names, region, price dates) pass through [`csv_text`], so a
/// spreadsheet never reads one as a formula; figures are written as numbers.
fn csv_rows(
    plan: &Plan,
    prefix: &[String],
    w: &mut csv::Writer<Vec<u8>>,
) -> Result<(), csv::Error> {
    for d in &plan.datastores {
        let pool = plan.pools.iter().find(|p| p.name == d.pool);
        let mut row: Vec<String> = prefix.to_vec();
        row.extend([
            csv_text(&d.name).into_owned(),
            csv_text(&d.pool).into_owned(),
            d.service_level.to_string(),
            d.size_gib.to_string(),
            d.throughput_mibps.to_string(),
            d.predicted_iops.round().to_string(),
            format!("{:.1}", d.predicted_throughput_mibps),
            d.vm_count.to_string(),
            format!("{:.1}", d.placed_capacity_gib),
            format!("{:.2}", d.cost_usd_per_month),
            pool.map_or_else(String::new, |p| p.size_tib.to_string()),
            pool.map_or_else(String::new, |p| p.cool_access.to_string()),
            plan.hosts.to_string(),
            csv_text(&plan.region).into_owned(),
            csv_text(&plan.prices_effective).into_owned(),
            pool.map_or_else(String::new, |p| p.share_gib.to_string()),
        ]);
        w.write_record(&row)?;
    }
    Ok(())
}

fn csv_error(e: csv::Error) -> ReportError {
    ReportError::Csv(e.to_string())
}

/// The plan as CSV: one row per datastore ([`PLAN_CSV_HEADER`]), plain numbers (no
/// thousands separators), `.` decimal mark.
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails (it writes to memory, so in practice never).
pub fn plan_csv(plan: &Plan) -> Result<String, ReportError> {
    plans_csv(&[], std::iter::once((Vec::new(), plan)))
}

/// Plans as one CSV: the `lead` columns, then [`PLAN_CSV_HEADER`]; each plan's datastores
/// with its own lead cells first.
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails.
fn plans_csv<'a>(
    lead: &[&str],
    plans: impl Iterator<Item = (Vec<String>, &'a Plan)>,
) -> Result<String, ReportError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = lead.to_vec();
    header.extend(PLAN_CSV_HEADER);
    w.write_record(&header).map_err(csv_error)?;
    for (cells, plan) in plans {
        csv_rows(plan, &cells, &mut w).map_err(csv_error)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ReportError::Csv(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Per-cluster plans as one CSV: a `cluster` column, then [`PLAN_CSV_HEADER`].
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails.
pub fn cluster_plans_csv(plans: &crate::plan::ClusterPlans) -> Result<String, ReportError> {
    plans_csv(
        &["cluster"],
        plans
            .clusters
            .iter()
            .map(|c| (vec![csv_text(&c.cluster).into_owned()], &c.plan)),
    )
}

/// The estate plan as CSV: one row per datastore, with the plan's design, its AVS cluster,
/// SKU and hosts, and what the cluster keeps on vSAN (GiB and VMs).
///
/// # Errors
/// [`ReportError::Csv`] if the writer fails.
pub(super) fn estate_csv(plan: &EstatePlan) -> Result<String, ReportError> {
    let design = plan.summary.design.as_str();
    let rows = plan.sizing.clusters.iter().filter_map(|c| {
        let p = plan.clusters.iter().find(|p| p.cluster == c.name)?;
        let kept = plan
            .designs
            .as_ref()
            .and_then(|d| d.clusters.iter().find(|x| x.cluster == c.name))
            .map(|x| match plan.summary.design {
                crate::plan::Design::Hybrid => (x.hybrid.vsan_data_gib, x.hybrid_vms_on_vsan.len()),
                _ => (0.0, 0),
            })
            .unwrap_or((0.0, 0));
        let lead = vec![
            csv_text(design).into_owned(),
            csv_text(&c.name).into_owned(),
            csv_text(&c.sku).into_owned(),
            c.hosts.to_string(),
            csv_text(c.driver.as_str()).into_owned(),
            format!("{:.1}", kept.0),
            kept.1.to_string(),
        ];
        Some((lead, &p.plan))
    });
    plans_csv(
        &[
            "design",
            "cluster",
            "host_sku",
            "cluster_hosts",
            "driver",
            "cluster_vsan_data_gib",
            "cluster_vms_on_vsan",
        ],
        rows,
    )
}

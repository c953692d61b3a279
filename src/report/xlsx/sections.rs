//! The plan's sections after the pools and datastores, one sheet each: performance,
//! binding limits, alternatives, marginal costs, time phases, the vSAN comparison,
//! placements, excluded VMs, warnings and assumptions. Each `add_*` appends one plan's rows
//! after the `lead` cells (the `cluster` column of estate and per-cluster workbooks).

use super::cells::{
    Cell, Fmt, Sheet, boolean, checked, count, dec, int, json_text, local_ref, num, opt, round2,
    text, usd,
};
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::perf::{IoProfile, Prediction};
use crate::plan::{Assumption, PhaseLayout, Plan};
use crate::report::model::plan::assumptions_section;

/// The sheets' names and headers (after the optional `cluster` column), in workbook order.
pub const PERFORMANCE: (&str, &[&str]) = (
    "Performance",
    &[
        "profile",
        "block KiB",
        "read %",
        "random %",
        "target IOPS",
        "target MiB/s",
        "predicted IOPS",
        "predicted MiB/s",
        "bound by",
        "latency ms",
        "system",
        "layer ceilings IOPS",
        "extrapolated",
        "beyond",
        "measured range",
    ],
);

/// Adds the small- and large-block predictions against their targets.
pub fn add_performance(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    let p = &plan.performance;
    let x = &p.extrapolation;
    // Each row shows the target its profile is sized for: IOPS for small blocks, MiB/s
    // for large (the other target is not this profile's, so its cell stays empty).
    let rows = [
        (
            "small block",
            &p.small_block_profile,
            &p.small_block,
            [int(p.iops_target), Cell::Empty],
        ),
        (
            "large block",
            &p.large_block_profile,
            &p.large_block,
            [Cell::Empty, dec(p.throughput_target_mibps)],
        ),
    ];
    for (name, profile, pred, targets) in rows {
        let mut row = lead.to_vec();
        row.extend(profile_cells(name, profile));
        row.extend(targets);
        row.extend(prediction_cells(pred));
        row.extend([
            boolean(x.extrapolated),
            text(x.beyond.join(", ")),
            text(x.measured_range.clone()),
        ]);
        sheet.rows.push(row);
    }
}

/// The row's name and its own I/O profile (`small_block_profile` / `large_block_profile`).
fn profile_cells(name: &str, profile: &IoProfile) -> [Cell; 4] {
    [
        text(name),
        dec(profile.block_size_kib),
        dec(profile.read_pct),
        dec(profile.random_pct),
    ]
}

fn prediction_cells(p: &Prediction) -> Vec<Cell> {
    let layers = p
        .layers
        .iter()
        .map(|l| {
            format!(
                "{}: {}",
                l.layer,
                crate::numbers::group_thousands(l.iops, 0)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    vec![
        int(p.iops),
        dec(p.throughput_mibps),
        text(p.bottleneck.to_string()),
        opt(p.latency_ms, num),
        text(p.system.clone()),
        text(layers),
    ]
}

/// `Binding limits`.
pub const BINDING: (&str, &[&str]) = ("Binding limits", &["constraint", "detail"]);

/// Adds the constraints that decide the plan.
pub fn add_binding(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    for b in &plan.binding {
        let mut row = lead.to_vec();
        row.extend([text(b.constraint.as_str()), text(b.detail.clone())]);
        sheet.rows.push(row);
    }
}

/// `Alternatives`.
pub const ALTERNATIVES: (&str, &[&str]) = (
    "Alternatives",
    &[
        "alternative",
        "restriction",
        "service level",
        "datastores",
        "feasible",
        "pool size TiB",
        "purchased MiB/s",
        "cool access",
        "large volumes",
        "reserved TiB",
        "cost USD/month",
        "vs chosen USD/month",
        "note",
        "share GiB",
    ],
);

/// Adds the cheapest plan per service level and per datastore count.
pub fn add_alternatives(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    for a in &plan.alternatives {
        let level = a
            .service_level
            .map_or_else(|| "-".into(), |l| l.to_string());
        // The alternative as every format names it (`standard only`, `exactly 1 datastore`).
        let label = crate::report::model::plan_choices::restriction(a);
        let mut row = lead.to_vec();
        row.extend([
            text(label),
            text(a.basis.clone()),
            text(level),
            int(a.datastores),
            boolean(a.feasible),
            int(a.pool_size_tib),
            dec(a.purchased_throughput_mibps),
            boolean(a.cool_access),
            boolean(a.large_volumes),
            int(a.reserved_tib),
            usd(a.cost_usd_per_month),
            usd(a.extra_cost_usd_per_month),
            text(a.note.clone()),
            int(a.share_gib),
        ]);
        sheet.rows.push(row);
    }
}

/// `Marginal costs`.
pub const MARGINAL: (&str, &[&str]) = (
    "Marginal costs",
    &[
        "change",
        "feasible",
        "cost USD/month",
        "extra USD/month",
        "layout",
    ],
);

/// Adds what one more TiB and 100 more MiB/s would cost.
pub fn add_marginal(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    for m in &plan.marginal_costs {
        let mut row = lead.to_vec();
        row.extend([
            text(crate::report::model::plan_choices::change_words(&m.change)),
            boolean(m.feasible),
            usd(m.cost_usd_per_month),
            usd(m.extra_cost_usd_per_month),
            text(m.detail.clone()),
        ]);
        sheet.rows.push(row);
    }
}

/// `Time phases`.
pub const PHASES: (&str, &[&str]) = (
    "Time phases",
    &[
        "phase",
        "months",
        "service level",
        "pool size TiB",
        "purchased MiB/s",
        "QoS MiB/s",
        "datastores",
        "cool access",
        "large volumes",
        "target IOPS",
        "target MiB/s",
        "predicted IOPS",
        "predicted MiB/s",
        "cost USD/month",
        "cost USD/year",
        "share GiB",
    ],
);
const PHASE_MONTHS: usize = 1;
const PHASE_MONTHLY: usize = 13;

/// Column of the phases' yearly cost, USD (after the optional `cluster` column).
pub const PHASE_YEARLY: usize = 14;

/// Adds the base and peak layouts (each with its months x monthly cost as a formula), and
/// the year: their sum (a formula), the peak layout all year and the savings. Returns the
/// data row of the year's cost (column [`PHASE_YEARLY`]), `None` without time phases.
pub fn add_phases(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) -> Option<usize> {
    let t = plan.time_phased.as_ref()?;
    let o = lead.len();
    let first = sheet.rows.len();
    for (name, ph) in [("base", &t.base), ("peak", &t.peak)] {
        let r = sheet.rows.len();
        let mut row = lead.to_vec();
        row.extend(phase_cells(name, ph));
        let yearly = f64::from(ph.months) * ph.cost_usd_per_month;
        let formula = format!(
            "ROUND({}*{},2)",
            local_ref(r, o + PHASE_MONTHS),
            local_ref(r, o + PHASE_MONTHLY)
        );
        row.push(Cell::Formula(formula, round2(yearly), Fmt::Usd));
        row.push(int(ph.share_gib));
        sheet.rows.push(row);
    }
    let sum = round2(
        round2(f64::from(t.base.months) * t.base.cost_usd_per_month)
            + round2(f64::from(t.peak.months) * t.peak.cost_usd_per_month),
    );
    let formula = format!(
        "ROUND({}+{},2)",
        local_ref(first, o + PHASE_YEARLY),
        local_ref(first + 1, o + PHASE_YEARLY)
    );
    let year = [
        ("year", checked(formula, sum, t.yearly_cost_usd, Fmt::Usd).0),
        ("peak layout all year", usd(t.peak_all_year_yearly_cost_usd)),
        ("yearly savings", usd(t.yearly_savings_usd)),
    ];
    let year_row = sheet.rows.len();
    for (name, cell) in year {
        let mut row = lead.to_vec();
        row.push(text(name));
        row.extend(vec![Cell::Empty; PHASE_YEARLY - 1]);
        row.push(cell);
        sheet.rows.push(row);
    }
    Some(year_row)
}

fn phase_cells(name: &str, p: &PhaseLayout) -> Vec<Cell> {
    vec![
        text(name),
        int(p.months),
        text(p.service_level.to_string()),
        int(p.pool_size_tib),
        dec(p.purchased_throughput_mibps),
        dec(p.throughput_mibps),
        int(p.datastores),
        boolean(p.cool_access),
        boolean(p.large_volumes),
        int(p.iops_target),
        dec(p.throughput_target_mibps),
        int(p.predicted_iops),
        dec(p.predicted_throughput_mibps),
        usd(p.cost_usd_per_month),
    ]
}

/// `vSAN`.
pub const VSAN: (&str, &[&str]) = (
    "vSAN",
    &[
        "host SKU",
        "policy",
        "overhead factor",
        "data GiB",
        "dedup ratio",
        "slack %",
        "raw needed TiB",
        "raw per host TiB",
        "hosts needed",
        "clusters needed",
        "largest cluster hosts",
        "private clouds needed",
        "cluster hosts",
        "extra hosts",
        "host USD/hour",
        "extra hosts USD/month",
        "ANF USD/month",
        "note",
    ],
);

/// Adds the vSAN-alone comparison of one plan.
pub fn add_vsan(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    let Some(v) = &plan.vsan_comparison else {
        return;
    };
    let mut row = lead.to_vec();
    row.extend([
        text(v.sku.clone()),
        text(v.policy.clone()),
        num(v.overhead_factor),
        int(v.data_gib),
        num(v.dedup_ratio),
        dec(v.slack_pct),
        num(v.raw_needed_tib),
        num(v.raw_per_host_tib),
        int(v.hosts_needed),
        int(v.clusters_needed),
        int(v.largest_cluster_hosts),
        int(v.private_clouds_needed),
        int(v.cluster_hosts),
        int(v.extra_hosts),
        opt(v.host_usd_per_hour, usd),
        opt(v.extra_hosts_usd_per_month, usd),
        usd(v.anf_usd_per_month),
        text(v.note.clone()),
    ]);
    sheet.rows.push(row);
}

/// `Placements`.
pub const PLACEMENTS: (&str, &[&str]) = (
    "Placements",
    &["VM", "datastore", "capacity GiB", "file", "sheet", "row"],
);

/// Adds every placed VM and its datastore.
pub fn add_placements(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) {
    for p in &plan.placements {
        let mut row = lead.to_vec();
        row.extend([
            text(p.vm.clone()),
            text(p.datastore.clone()),
            int(p.capacity_gib),
            text(p.origin.file.to_string()),
            text(p.origin.sheet.to_string()),
            count(p.origin.row),
        ]);
        sheet.rows.push(row);
    }
}

/// `Excluded`.
pub const EXCLUDED: (&str, &[&str]) = (
    "Excluded",
    &["VM", "reason", "capacity GiB", "file", "sheet", "row"],
);

/// Adds excluded VMs with their reasons.
pub fn add_excluded(sheet: &mut Sheet, lead: &[Cell], excluded: &[ExcludedVm]) {
    for e in excluded {
        let mut row = lead.to_vec();
        row.extend([
            text(e.name.clone()),
            text(e.reason_text()),
            opt(e.capacity_gib, int),
            text(e.origin.file.to_string()),
            text(e.origin.sheet.to_string()),
            count(e.origin.row),
        ]);
        sheet.rows.push(row);
    }
}

/// `Warnings`.
pub const WARNINGS: (&str, &[&str]) = (
    "Warnings",
    &["kind", "file", "sheet", "row", "column", "value", "message"],
);

/// Adds data-quality warnings, each its kind first ([`WarningKind`](crate::inventory::WarningKind)).
pub fn add_warnings(sheet: &mut Sheet, lead: &[Cell], warnings: &[Warning]) {
    for w in warnings {
        let mut row = lead.to_vec();
        row.extend([
            text(w.kind.as_str()),
            text(w.file.clone()),
            text(w.sheet.clone().unwrap_or_default()),
            w.row.map_or(Cell::Empty, count),
            text(w.column.clone().unwrap_or_default()),
            text(w.value.clone().unwrap_or_default()),
            text(w.message.clone()),
        ]);
        sheet.rows.push(row);
    }
}

/// `Assumptions`.
pub const ASSUMPTIONS: (&str, &[&str]) = ("Assumptions", &["assumption", "value", "source"]);

/// Adds the settings that shaped the plan.
pub fn add_assumptions(sheet: &mut Sheet, lead: &[Cell], assumptions: &[Assumption]) {
    let section = assumptions_section("Assumptions", assumptions, "assumption", "source");
    if let Some(t) = &section.table {
        super::model::add_rows(sheet, lead, t);
    }
}

/// The JSON spelling of a value (`Driver::Vcpu` -> `vcpu`), for the estate's sheets.
pub fn spelled<T: serde::Serialize>(v: &T) -> Cell {
    json_text(v)
}

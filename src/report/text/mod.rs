//! A plan as readable text: one function per section, written in the order of [`SECTIONS`].

pub(in crate::report) mod designs;
pub(in crate::report) mod estate;
pub(in crate::report) mod estate_sections;
pub(in crate::report) mod inventory;
pub(in crate::report) mod render;

use crate::report::model;
use render::write_section;

use std::fmt::Write as _;

use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::numbers::{clip_name, counted, group_thousands};
use crate::plan::{Assumption, ClusterPlan, ClusterPlans, Plan};
use crate::report::model::delivered::{Delivered, delivers, pool_size_words};

/// A section of the text report: appends its lines (with the blank line before it) to `s`.
type Writer = fn(&mut String, &Plan);

/// The sections of the text report, in order.
const SECTIONS: [Writer; 15] = [
    header,
    demand,
    pools,
    datastores,
    placement,
    performance,
    binding,
    alternatives,
    marginal_costs,
    time_phased,
    vsan,
    excluded,
    warnings,
    assumptions,
    prices,
];

/// The plan as text: every section of [`SECTIONS`], in order.
pub(in crate::report) fn plan_text(plan: &Plan) -> String {
    let mut s = String::new();
    for section in SECTIONS {
        section(&mut s, plan);
    }
    s
}

/// A cluster's plan inside an estate's detail: every section of [`SECTIONS`] but the
/// assumptions and prices, which the estate prints once (`shared`); then its own
/// assumptions, when it has any ([`model::estate_sections::own_assumptions`]).
pub(in crate::report) fn plan_text_in_estate(c: &ClusterPlan, shared: &[&Assumption]) -> String {
    let mut s = String::new();
    for section in &SECTIONS[..SECTIONS.len() - 2] {
        section(&mut s, &c.plan);
    }
    if let Some(own) = model::estate_sections::own_assumptions(c, shared) {
        write_section(&mut s, &own);
    }
    s
}

/// The headline: datastores, levels, pool size, hosts and flows; the monthly cost.
fn header(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let t = &plan.totals;
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let hosts = if t.hosts_with_vms > 0 && t.hosts_with_vms < plan.hosts {
        let verb = if t.hosts_with_vms == 1 { "runs" } else { "run" };
        format!(
            "{} ({} {verb} VMs)",
            counted(u64::from(plan.hosts), "host"),
            t.hosts_with_vms
        )
    } else {
        counted(u64::from(plan.hosts), "host")
    };
    // Flows = hosts running VMs x datastores x connections per host and datastore.
    let per_connection = u64::from(t.hosts_with_vms.max(1)) * u64::from(t.datastores.max(1));
    let connections = match t.flows / per_connection {
        n if n > 1 && t.flows.is_multiple_of(per_connection) => format!(" x {n} connections"),
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "dsplan plan: {} datastore(s) on {} ({}), {hosts} x {}{connections} = {}",
        t.datastores,
        levels.join(" + "),
        pool_size_words(plan),
        counted(u64::from(t.datastores), "datastore"),
        counted(t.flows, "flow")
    );
    let _ = writeln!(
        s,
        "monthly cost: {} USD ({}, {}, prices effective {})",
        g(t.cost_usd_per_month, 2),
        plan.region,
        plan.location,
        effective_dates(plan)
    );
    let _ = writeln!(s, "delivers: {}", delivers(&Delivered::of(plan)));
    if t.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "first month only: + {} USD one-time cool-tier transfer of the initially cold data",
            g(t.first_month_cool_transfer_usd, 2)
        );
    }
}

/// [`model::plan::demand`].
fn demand(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan::demand(plan));
}

/// The pools ([`model::plan::pools`]).
fn pools(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan::pools(plan));
}

/// The datastores ([`model::plan::datastores`]).
fn datastores(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan::datastores(plan));
}

/// [`model::plan_details::placement`].
fn placement(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan_details::placement(plan));
}

/// [`model::plan::performance`].
fn performance(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan::performance(plan));
}

/// [`model::plan_details::binding`].
fn binding(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan_details::binding(plan));
}

/// [`model::plan_choices::alternatives`], when there is one.
fn alternatives(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan_choices::alternatives(plan) {
        write_section(s, &section);
    }
}

/// [`model::plan_choices::marginal_costs`], when there is one.
fn marginal_costs(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan_choices::marginal_costs(plan) {
        write_section(s, &section);
    }
}

/// [`model::plan_choices::time_phased`], when there is one.
fn time_phased(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan_choices::time_phased(plan) {
        write_section(s, &section);
    }
}

/// [`model::plan_details::vsan`], when there is one.
fn vsan(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan_details::vsan(plan) {
        write_section(s, &section);
    }
}

/// [`model::plan::excluded`], when a VM is excluded, with the first few by name.
fn excluded(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan::excluded(plan) {
        write_excluded(s, &section, &plan.excluded);
    }
}

/// Writes the excluded VMs' `section` (by reason), then the first few of `list` by name
/// with their reason and row (the JSON lists all).
pub(in crate::report) fn write_excluded(
    s: &mut String,
    section: &model::table::Section,
    list: &[ExcludedVm],
) {
    write_section(s, section);
    const SHOWN: usize = 20;
    for e in list.iter().take(SHOWN) {
        let _ = writeln!(
            s,
            "  {} [{}] {} row {}",
            clip_name(&e.name),
            e.reason_text(),
            e.origin.sheet,
            e.origin.row
        );
    }
    if list.len() > SHOWN {
        let _ = writeln!(
            s,
            "  ... {} more (the JSON format lists all)",
            list.len() - SHOWN
        );
    }
}

/// The plan's warnings (the first few), when there are any.
fn warnings(s: &mut String, plan: &Plan) {
    write_warnings(s, &plan.warnings);
}

/// The assumptions the plan rests on ([`model::plan::assumptions`]).
fn assumptions(s: &mut String, plan: &Plan) {
    write_section(s, &model::plan::assumptions(plan));
}

/// When the plan's prices took effect: one date when every price row used has the same
/// `effective_start` (or the plan lists none), else the first and last date and where each
/// meter's is (`2024-06-01 to 2025-09-01 by meter, see Prices`).
pub(in crate::report) fn effective_dates(plan: &Plan) -> String {
    let mut dates: Vec<&str> = plan
        .prices
        .iter()
        .map(|p| p.effective_start.as_str())
        .collect();
    dates.sort_unstable();
    dates.dedup();
    match (dates.first(), dates.last()) {
        (Some(first), Some(last)) if first != last => {
            format!("{first} to {last} by meter, see Prices")
        }
        _ => plan.prices_effective.clone(),
    }
}

/// The price rows the plan's costs use ([`model::plan::prices`]).
fn prices(s: &mut String, plan: &Plan) {
    if let Some(section) = model::plan::prices(plan) {
        write_section(s, &section);
    }
}

/// `; the input's cover every row read, ...` when some warning is about the input (names
/// a file): those count rows of templates and other excluded VMs too; else empty.
pub(in crate::report) fn rows_note(warnings: &[Warning]) -> &'static str {
    if warnings.iter().any(|w| !w.file.is_empty()) {
        "; the input's cover every row read, templates and excluded VMs included"
    } else {
        ""
    }
}

/// Lists the first warnings, and how many more the JSON format lists.
pub(in crate::report) fn write_warnings(s: &mut String, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    const SHOWN: usize = 20;
    let _ = writeln!(s);
    let n = crate::inventory::warning_count(warnings);
    let note = rows_note(warnings);
    let note = note.strip_prefix("; ").unwrap_or(note);
    if note.is_empty() {
        let _ = writeln!(s, "Warnings: {n}");
    } else {
        let _ = writeln!(s, "Warnings: {n} ({note})");
    }
    // The plan's own warnings first (they name no file), then the input's, so a long list
    // of input warnings cannot hide them.
    let (plan_wide, from_input): (Vec<&Warning>, Vec<&Warning>) =
        warnings.iter().partition(|w| w.file.is_empty());
    for w in plan_wide.into_iter().chain(from_input).take(SHOWN) {
        let _ = writeln!(s, "  {w}");
    }
    if warnings.len() > SHOWN {
        let _ = writeln!(
            s,
            "  ... {} more (the JSON format lists all)",
            warnings.len() - SHOWN
        );
    }
}

/// Per-cluster plans as text: each cluster's plan under its banner, then the total, one
/// line per cluster, the estate's reservations and its excluded VMs (listed once).
pub(in crate::report) fn cluster_plans_text(plans: &ClusterPlans) -> String {
    let mut s = String::new();
    let shared = model::estate_sections::shared_assumptions(&plans.clusters);
    for c in &plans.clusters {
        let _ = writeln!(
            s,
            "=== cluster {}: {} hosts ({}), {:.1}% of the capacity (and of estate-wide targets) ===",
            c.cluster,
            c.hosts,
            c.hosts_source,
            c.target_share * 100.0
        );
        s.push_str(&plan_text_in_estate(c, &shared));
        let _ = writeln!(s);
    }
    let region = plans
        .clusters
        .first()
        .map_or("", |c| c.plan.region.as_str());
    for section in model::estate_sections::shared(&plans.clusters, region) {
        write_section(&mut s, &section);
    }
    write_section(&mut s, &model::cluster_plans::total(plans));
    if let Some(section) = model::cluster_plans::reservations(plans) {
        write_section(&mut s, &section);
    }
    if let Some(section) = model::cluster_plans::excluded(plans) {
        write_excluded(&mut s, &section, &plans.excluded);
    }
    write_warnings(&mut s, &plans.total.warnings);
    s
}

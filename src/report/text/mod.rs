//! A plan as readable text: the headline, then the report model's sections
//! ([`model::plan::plan_sections`]) as text ([`render`]); per-cluster plans and the estate
//! ([`estate`]) put their own sections around each cluster's.

pub(in crate::report) mod estate;
pub(in crate::report) mod estate_sections;
pub(in crate::report) mod inventory;
pub(in crate::report) mod render;

use crate::report::model;
use render::{write_headline, write_section};

use std::fmt::Write as _;

use crate::inventory::Warning;
use crate::plan::{Assumption, ClusterPlan, ClusterPlans, Plan};

/// The plan as text: the headline, then every section of the model
/// ([`model::plan::plan_sections`]).
pub(in crate::report) fn plan_text(plan: &Plan) -> String {
    let mut s = String::new();
    header(&mut s, plan);
    for section in model::plan::plan_sections(plan) {
        write_section(&mut s, &section);
    }
    s
}

/// A cluster's plan inside an estate's detail: the headline and its sections but the
/// assumptions and prices, which the estate prints once ([`model::plan::cluster_sections`];
/// `shared`); then its own assumptions, when it has any
/// ([`model::estate_sections::own_assumptions`]).
pub(in crate::report) fn plan_text_in_estate(c: &ClusterPlan, shared: &[&Assumption]) -> String {
    let mut s = String::new();
    header(&mut s, &c.plan);
    for section in model::plan::cluster_sections(&c.plan) {
        write_section(&mut s, &section);
    }
    if let Some(own) = model::estate_sections::own_assumptions(c, shared) {
        write_section(&mut s, &own);
    }
    s
}

/// The headline ([`model::headline::plan_headline`]): its first sentence after
/// `dsplan plan: `, then one line each.
fn header(s: &mut String, plan: &Plan) {
    write_headline(
        s,
        &model::headline::plan_headline(plan),
        "dsplan plan: ",
        "",
    );
}

/// The warnings ([`model::warnings::warnings`]), when there are any.
pub(in crate::report) fn write_warnings(s: &mut String, warnings: &[Warning]) {
    if let Some(section) = model::warnings::warnings(warnings) {
        write_section(s, &section);
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
        write_section(&mut s, &section);
    }
    write_warnings(&mut s, &plans.total.warnings);
    s
}

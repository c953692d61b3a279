//! The estate plan as Markdown: the headline and the estate's model sections (AVS
//! clusters, performance, designs, host SKUs, pools, vSAN alone, assumptions, warnings),
//! then each cluster's plan one heading level down, then the excluded VMs once.

use std::fmt::Write as _;

use crate::plan::EstatePlan;
use crate::report::markdown::{
    Body, cluster_plan_markdown, shared_markdown, write_headline, write_section,
};
use crate::report::model;
use crate::report::model::delivered::utilisation_words;
use crate::report::model::delivered::{self, cluster_utilisation};

/// The estate plan as one Markdown document.
pub(in crate::report) fn estate_markdown(plan: &EstatePlan, body: Body) -> String {
    let mut s = String::new();
    write_headline(&mut s, &model::estate_headline::estate_headline(plan, true));
    clusters(&mut s, plan, body);
    performance(&mut s, plan, body);
    if let Some(d) = &plan.designs {
        write_section(&mut s, &model::designs::estate(d, true), 2, body);
        let per_cluster = model::designs::per_cluster(d, &plan.sizing.sku);
        write_section(&mut s, &per_cluster, 3, body);
    }
    skus(&mut s, plan, body);
    pools(&mut s, plan, body);
    reservations(&mut s, plan, body);
    vsan_alone(&mut s, plan, body);
    notes(&mut s, plan, body);
    shared_markdown(&mut s, &plan.clusters, &plan.region, 2, body);
    let shared = model::estate_sections::shared_assumptions(&plan.clusters);
    for c in &plan.clusters {
        let _ = writeln!(
            s,
            "## AVS cluster {}: {} hosts ({})\n",
            crate::report::markdown::name(&c.cluster),
            c.hosts,
            c.hosts_source
        );
        if let Some(u) = cluster_utilisation(plan, &c.cluster) {
            let _ = writeln!(s, "Uses {}.\n", utilisation_words(u));
        }
        s.push_str(&cluster_plan_markdown(c, &shared, 2, body));
    }
    excluded(&mut s, plan, body);
    s
}

/// The performance and utilisation table ([`delivered::performance`]).
fn performance(s: &mut String, plan: &EstatePlan, body: Body) {
    write_section(s, &delivered::performance(plan), 2, body);
}

/// The AVS clusters ([`model::estate_sections::clusters`]).
fn clusters(s: &mut String, plan: &EstatePlan, body: Body) {
    write_section(s, &model::estate_sections::clusters(plan), 2, body);
}

/// Every host SKU on its design ([`model::estate_sections::skus`]).
fn skus(s: &mut String, plan: &EstatePlan, body: Body) {
    write_section(s, &model::estate_sections::skus(plan), 2, body);
}

/// The shared capacity pools ([`model::estate_sections::pools`]).
fn pools(s: &mut String, plan: &EstatePlan, body: Body) {
    if let Some(section) = model::estate_sections::pools(plan) {
        write_section(s, &section, 2, body);
    }
}

/// The reservations bought once for the estate, when there are any.
fn reservations(s: &mut String, plan: &EstatePlan, body: Body) {
    let lead = "Bought once for the estate, per region and service level (the pools above are \
                priced pay as you go)";
    if let Some(section) = model::estate_sections::reservations(&plan.reservations, lead) {
        write_section(s, &section, 2, body);
    }
}

/// The same estate on vSAN alone ([`model::estate_sections::vsan_alone`]).
fn vsan_alone(s: &mut String, plan: &EstatePlan, body: Body) {
    if let Some(section) = model::estate_sections::vsan_alone(plan) {
        write_section(s, &section, 2, body);
    }
}

fn notes(s: &mut String, plan: &EstatePlan, body: Body) {
    let section = model::estate_sections::sizing_assumptions(plan);
    write_section(s, &section, 2, body);
    if let Some(section) = crate::report::model::warnings::warnings(&plan.warnings) {
        write_section(s, &section, 2, body);
    }
}

/// The estate's excluded VMs by reason, once.
fn excluded(s: &mut String, plan: &EstatePlan, body: Body) {
    write_section(s, &model::estate_sections::excluded(plan), 2, body);
}

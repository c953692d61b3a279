//! The estate plan as Markdown: the estate summary and its tables (AVS clusters, host SKUs,
//! pools, vSAN alone, assumptions, warnings), then each cluster's plan one heading level
//! down, then the excluded VMs once.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::markdown::{Body, cell, cluster_plan_markdown, shared_markdown, write_section};
use crate::report::model;
use crate::report::model::delivered::utilisation_words;
use crate::report::model::delivered::{
    self, cluster_utilisation, estate_delivers, estate_utilisation,
};
use crate::report::model::estate::{anf_text, hosts_text, peak_months, prices_text, usd, verdict};

/// The estate plan as one Markdown document.
pub(in crate::report) fn estate_markdown(plan: &EstatePlan, body: Body) -> String {
    let mut s = String::new();
    summary(&mut s, plan);
    clusters(&mut s, plan, body);
    performance(&mut s, plan, body);
    if let Some(d) = &plan.designs {
        crate::report::markdown::designs::designs_markdown(&mut s, d, &plan.sizing.sku);
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

fn summary(s: &mut String, plan: &EstatePlan) {
    let m = &plan.summary;
    let d = &m.hosts_by_driver;
    let _ = writeln!(s, "# Estate plan\n");
    let _ = writeln!(
        s,
        "**{} VMs on {} hosts in {} AVS cluster(s) and {} private cloud(s); {}: hosts {} + \
         ANF {} + ExpressRoute gateways {} = {} USD/month, {} USD/year** ({}, {}).\n",
        g(m.vms_placed as f64, 0),
        hosts_text(m),
        m.clusters,
        m.private_clouds,
        anf_text(m),
        usd(m.hosts_usd_per_month),
        g(m.anf_usd_per_month, 2),
        g(m.gateway_usd_per_month, 2),
        usd(m.total_usd_per_month),
        usd(m.total_usd_per_year),
        plan.location,
        plan.region
    );
    if let Some(d) = &plan.designs {
        let _ = writeln!(s, "- Design: {}.", cell(&d.why));
    }
    let _ = writeln!(
        s,
        "- Hosts by driver: {} by vCPU, {} by memory, {} at the 3-host minimum, {} raised for \
         the datastores' IOPS and MiB/s, {} added to hold data on vSAN (HA reserve included).",
        g(f64::from(d.vcpu), 0),
        g(f64::from(d.memory), 0),
        g(f64::from(d.minimum), 0),
        g(f64::from(d.storage), 0),
        g(f64::from(d.vsan), 0)
    );
    if !m.host_price_note.is_empty() {
        let _ = writeln!(s, "- Host price: {}.", m.host_price_note);
    }
    if m.hosts_by_sku.len() > 1 {
        let _ = writeln!(s, "- Hosts by SKU: {}.", prices_text(m));
    }
    let _ = writeln!(s, "- Delivers: {}.", estate_delivers(plan));
    let _ = writeln!(s, "- Utilisation: {}.", estate_utilisation(plan));
    if let Some(h) = m.vsan_alone_hosts {
        let _ = writeln!(
            s,
            "- vSAN alone: {} hosts, {} USD/month{}.",
            g(f64::from(h), 0),
            usd(m.vsan_alone_usd_per_month),
            verdict(m)
        );
    }
    if let Some(months) = peak_months(plan) {
        let _ = writeln!(
            s,
            "- Time-phased: the monthly ANF figure is the base months'; the year counts the \
             {months} peak month(s) at each cluster's peak layout."
        );
    }
    if m.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "- First month only: {} USD to move the cold data into the cool tier.",
            g(m.first_month_cool_transfer_usd, 2)
        );
    }
    let _ = writeln!(s);
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
    if !plan.warnings.is_empty() {
        let _ = writeln!(
            s,
            "## Warnings ({})\n",
            crate::inventory::warning_count(&plan.warnings)
        );
        for w in &plan.warnings {
            let _ = writeln!(s, "- {}", cell(&w.to_string()));
        }
        let _ = writeln!(s);
    }
}

/// The estate's excluded VMs by reason, once.
fn excluded(s: &mut String, plan: &EstatePlan, body: Body) {
    write_section(s, &model::estate_sections::excluded(plan), 2, body);
}

//! The estate plan's sections as text (the summary's and the detail's, put together by
//! `text::estate`) and the words Markdown shares.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::model;
use crate::report::model::delivered;
use crate::report::model::delivered::{estate_delivers, estate_utilisation};
use crate::report::model::estate::{anf_text, hosts_text, peak_months, prices_text, usd, verdict};
use crate::report::text::render::write_section;
use crate::report::text::write_excluded;

/// The headline figures; the host price's words with its source only with
/// `price_source` (without, the price and the SKUs without one).
pub(in crate::report) fn summary(s: &mut String, plan: &EstatePlan, price_source: bool) {
    let m = &plan.summary;
    let d = &m.hosts_by_driver;
    let _ = writeln!(
        s,
        "Estate: {} VMs on {} hosts in {} AVS cluster(s), {} private cloud(s); {}; {} ({})",
        g(m.vms_placed as f64, 0),
        hosts_text(m),
        g(m.clusters as f64, 0),
        g(m.private_clouds as f64, 0),
        anf_text(m),
        plan.location,
        plan.region
    );
    let _ = writeln!(
        s,
        "  hosts by driver: {} by vCPU, {} by memory, {} at the 3-host minimum, {} raised for \
         the datastores' IOPS and MiB/s, {} added to hold data on vSAN (HA reserve included)",
        g(f64::from(d.vcpu), 0),
        g(f64::from(d.memory), 0),
        g(f64::from(d.minimum), 0),
        g(f64::from(d.storage), 0),
        g(f64::from(d.vsan), 0)
    );
    let _ = writeln!(
        s,
        "  cost: hosts {} + ANF {} + ExpressRoute gateways {} = {} USD/month ({}); {} USD/year",
        usd(m.hosts_usd_per_month),
        g(m.anf_usd_per_month, 2),
        g(m.gateway_usd_per_month, 2),
        usd(m.total_usd_per_month),
        prices_text(m),
        usd(m.total_usd_per_year)
    );
    if !m.host_price_note.is_empty() {
        let note = match (&m.host_price_source, price_source) {
            (Some(source), false) => m.host_price_note.replace(&format!(", from {source}"), ""),
            _ => m.host_price_note.clone(),
        };
        let _ = writeln!(s, "  host price: {note}");
    }
    if let Some(d) = &plan.designs {
        let _ = writeln!(s, "  design: {}", d.why);
    }
    let _ = writeln!(s, "  delivers: {}", estate_delivers(plan));
    let _ = writeln!(s, "  utilisation: {}", estate_utilisation(plan));
    if let Some(months) = peak_months(plan) {
        let _ = writeln!(
            s,
            "  time-phased: the monthly ANF figure is the base months'; the year counts the \
             {months} peak month(s) at each cluster's peak layout"
        );
    }
    if m.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "  first month only: {} USD to move the cold data into the cool tier",
            g(m.first_month_cool_transfer_usd, 2)
        );
    }
    if let Some(h) = m.vsan_alone_hosts {
        let _ = writeln!(
            s,
            "  vSAN alone: {} hosts, {} USD/month{}",
            g(f64::from(h), 0),
            usd(m.vsan_alone_usd_per_month),
            verdict(m)
        );
    }
}

/// The performance and utilisation table ([`delivered::performance`]).
pub(in crate::report) fn performance(s: &mut String, plan: &EstatePlan) {
    write_section(s, &delivered::performance(plan));
}

/// The AVS clusters ([`model::estate_sections::clusters`]).
pub(in crate::report) fn clusters(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::clusters(plan));
}

/// Every host SKU's estate and total ([`model::estate_sections::skus`]).
pub(in crate::report) fn skus(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::skus(plan));
}

/// The shared capacity pools ([`model::estate_sections::pools`]).
pub(in crate::report) fn pools(s: &mut String, plan: &EstatePlan) {
    if let Some(section) = model::estate_sections::pools(plan) {
        write_section(s, &section);
    }
}

/// The reservations bought once for the estate, when there are any.
pub(in crate::report) fn reservations(s: &mut String, plan: &EstatePlan) {
    let lead = "Bought once for the estate; the pools above are pay as you go";
    if let Some(section) = model::estate_sections::reservations(&plan.reservations, lead) {
        write_section(s, &section);
    }
}

/// The same estate on vSAN alone ([`model::estate_sections::vsan_alone`]).
pub(in crate::report) fn vsan_alone(s: &mut String, plan: &EstatePlan) {
    if let Some(section) = model::estate_sections::vsan_alone(plan) {
        write_section(s, &section);
    }
}

/// The estate's sizing assumptions ([`model::estate_sections::sizing_assumptions`]).
pub(in crate::report) fn estate_assumptions(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::sizing_assumptions(plan));
}

/// Excluded VMs, once for the estate: count and GiB per reason, the first few by name.
pub(in crate::report) fn excluded(s: &mut String, plan: &EstatePlan) {
    let section = model::estate_sections::excluded(plan);
    write_excluded(s, &section, &plan.excluded);
}

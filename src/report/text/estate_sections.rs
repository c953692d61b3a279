//! The estate plan's sections as text (the summary's and the detail's, put together by
//! `text::estate`) and the words Markdown shares.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::model;
use crate::report::model::delivered::size_cell;
use crate::report::model::delivered::{
    PERFORMANCE_HEADER, PERFORMANCE_NOTE, estate_delivers, estate_utilisation, performance_rows,
};
use crate::report::model::estate::{
    anf_text, cluster_plan, first_clusters_text, hosts_text, peak_months, prices_text, usd,
    verdict, vsan_hosts_text,
};
use crate::report::model::plan::units_text;
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

/// Each cluster's predicted IOPS and MiB/s beside its targets, and its utilisation; then
/// the estate's.
pub(in crate::report) fn performance(s: &mut String, plan: &EstatePlan) {
    let _ = writeln!(s, "\nPerformance and utilisation ({PERFORMANCE_NOTE})");
    let header: Vec<String> = PERFORMANCE_HEADER.iter().map(|h| h.to_string()).collect();
    for r in std::iter::once(header).chain(performance_rows(plan)) {
        let _ = writeln!(
            s,
            "  {:<24} {:>12} {:>14} {:>12} {:>15} {:>7} {:>9} {:>6} {:>6}",
            r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]
        );
    }
}

/// One line per AVS cluster: hosts, driver, VMs, compute, datastores, level and cost.
pub(in crate::report) fn clusters(s: &mut String, plan: &EstatePlan) {
    let _ = writeln!(s, "\nAVS clusters");
    let _ = writeln!(
        s,
        "  {:<24} {:<16} {:>5} {:<8} {:>6} {:>7} {:>10} {:>5} {:<18} {:>8} {:>14}",
        "cluster",
        "private cloud",
        "hosts",
        "driver",
        "VMs",
        "vCPU",
        "memory GiB",
        "DS",
        "pool(s)",
        "TiB",
        "ANF USD/month"
    );
    for c in &plan.sizing.clusters {
        let (ds, pools, tib, usd) = match cluster_plan(plan, &c.name) {
            Some(p) => (
                p.plan.totals.datastores.to_string(),
                p.plan
                    .pools
                    .iter()
                    .map(|x| x.name.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                cluster_pool_cell(&p.plan),
                g(p.plan.totals.cost_usd_per_month, 2),
            ),
            // A cluster without VMs (a private cloud's added first cluster), or one whose
            // VMs' data the design keeps on vSAN.
            None if c.management_only => ("-".into(), "(no VMs)".into(), "-".into(), "-".into()),
            None => ("0".into(), "(vSAN)".into(), "0".into(), g(0.0, 2)),
        };
        let name = if c.sku == plan.sizing.sku {
            c.name.clone()
        } else {
            format!("{} ({})", c.name, c.sku)
        };
        let _ = writeln!(
            s,
            "  {:<24} {:<16} {:>5} {:<8} {:>6} {:>7} {:>10} {:>5} {:<18} {:>8} {:>14}",
            name,
            c.private_cloud,
            c.hosts,
            c.driver.as_str(),
            g(c.vms as f64, 0),
            g(c.vcpus as f64, 0),
            g(c.memory_gib, 0),
            ds,
            pools,
            tib,
            usd
        );
    }
    let _ = writeln!(
        s,
        "  per host: {} vCPU, {} GiB for VMs; cluster hosts = max(by vCPU, by memory) + HA, \
         at least 3",
        g(plan.sizing.vcpus_per_host, 0),
        g(plan.sizing.memory_gib_per_host, 1)
    );
    let _ = writeln!(s, "  {}", first_clusters_text(plan));
}

/// A cluster's pool size cell: its pools' whole TiB, or its shares' GiB (`50 GiB`).
fn cluster_pool_cell(plan: &crate::plan::Plan) -> String {
    let shares: u32 = plan.pools.iter().map(|p| p.share_gib).sum();
    let tib = plan.totals.pool_size_tib;
    match (tib, shares) {
        (_, 0) => g(f64::from(tib), 0),
        (0, s) => size_cell(0, s),
        (t, s) => format!("{} + {}", g(f64::from(t), 0), size_cell(0, s)),
    }
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
    if plan.reservations.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\nReservations (bought once for the estate; the pools above are pay as you go)"
    );
    for r in &plan.reservations {
        let _ = writeln!(
            s,
            "  {} {} {}: {} hot TiB, {} TiB reserved ({}); hot tier {} -> {} USD/month, saves {}",
            r.region,
            r.service_level.as_str(),
            r.term,
            g(r.hot_tib, 1),
            g(f64::from(r.reserved_tib), 0),
            units_text(&r.units),
            g(r.pay_as_you_go_usd_per_month, 2),
            g(r.cost_usd_per_month, 2),
            g(r.savings_usd_per_month, 2)
        );
    }
}

/// The same estate on vSAN alone.
pub(in crate::report) fn vsan_alone(s: &mut String, plan: &EstatePlan) {
    let Some(v) = &plan.vsan_alone else {
        return;
    };
    let _ = writeln!(
        s,
        "\nvSAN alone: {} hosts ({} more), {} cluster(s), {} private cloud(s), {} USD/month",
        vsan_hosts_text(&v.sizing),
        v.sizing.extra_hosts,
        v.sizing.cluster_count,
        v.sizing.private_clouds,
        usd(v.usd_per_month)
    );
    for c in &v.sizing.clusters {
        let _ = writeln!(
            s,
            "  {:<24} {:>4} -> {:>4} hosts{} ({}, {} TiB raw for {} GiB of data and {} TiB \
             AVS uses itself{})",
            c.cluster,
            c.compute_hosts,
            c.hosts,
            if c.clusters > 1 {
                format!(" in {} clusters", c.clusters)
            } else {
                String::new()
            },
            c.policy,
            g(c.raw_needed_tib, 1),
            g(c.data_gib, 0),
            g(c.reserved_raw_tib, 1),
            if c.clusters > 1 { " in each" } else { "" }
        );
    }
    let _ = writeln!(s, "  {}", v.note);
}

/// The estate's sizing assumptions ([`model::estate_sections::sizing_assumptions`]).
pub(in crate::report) fn estate_assumptions(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::sizing_assumptions(plan));
}

/// Excluded VMs, once for the estate: count and GiB per reason, the first few by name.
pub(in crate::report) fn excluded(s: &mut String, plan: &EstatePlan) {
    let gib = plan
        .excluded
        .iter()
        .filter_map(|e| e.capacity_gib)
        .fold(0.0, |a, c| a + c);
    write_excluded(s, "Excluded VMs (the estate's)", &plan.excluded, gib);
}

//! The estate plan's sections as text (the summary's and the detail's, put together by
//! `text::estate`) and the words Markdown shares.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::model;
use crate::report::model::delivered;
use crate::report::model::delivered::size_cell;
use crate::report::model::delivered::{estate_delivers, estate_utilisation};
use crate::report::model::estate::{
    anf_text, cluster_plan, first_clusters_text, hosts_text, peak_months, prices_text, usd, verdict,
};
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

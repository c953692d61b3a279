//! The estate plan as Markdown: the estate summary and its tables (AVS clusters, host SKUs,
//! pools, vSAN alone, assumptions, warnings), then each cluster's plan one heading level
//! down, then the excluded VMs once.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::markdown::{
    Body, cell, cluster_plan_markdown, shared_markdown, table, write_section,
};
use crate::report::model;
use crate::report::model::delivered::utilisation_words;
use crate::report::model::delivered::{
    self, cluster_utilisation, estate_delivers, estate_utilisation,
};
use crate::report::model::estate::{
    anf_text, cluster_plan, first_clusters_text, hosts_text, peak_months, prices_text, usd, verdict,
};

/// The estate plan as one Markdown document.
pub(in crate::report) fn estate_markdown(plan: &EstatePlan, body: Body) -> String {
    let mut s = String::new();
    summary(&mut s, plan);
    clusters(&mut s, plan);
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

fn clusters(s: &mut String, plan: &EstatePlan) {
    let _ = writeln!(s, "## AVS clusters\n");
    let rows: Vec<Vec<String>> = plan
        .sizing
        .clusters
        .iter()
        .map(|c| {
            let p = cluster_plan(plan, &c.name);
            let pools: Vec<&str> = p
                .map(|p| p.plan.pools.iter().map(|x| x.name.as_str()).collect())
                .unwrap_or_else(|| {
                    vec![if c.management_only {
                        "(no VMs)"
                    } else {
                        "(vSAN)"
                    }]
                });
            let name = if c.sku == plan.sizing.sku {
                crate::report::markdown::name(&c.name)
            } else {
                format!("{} ({})", crate::report::markdown::name(&c.name), c.sku)
            };
            let or_none = |x: String| {
                if c.management_only {
                    "-".to_string()
                } else {
                    x
                }
            };
            vec![
                name,
                c.private_cloud.clone(),
                c.hosts.to_string(),
                c.driver.as_str().to_string(),
                c.hosts_for_vcpu.to_string(),
                c.hosts_for_memory.to_string(),
                g(c.vms as f64, 0),
                g(c.vcpus as f64, 0),
                g(c.memory_gib, 0),
                or_none(p.map_or(0, |p| p.plan.totals.datastores).to_string()),
                pools.join(", "),
                or_none(g(p.map_or(0.0, |p| p.plan.totals.cost_usd_per_month), 2)),
            ]
        })
        .collect();
    table(
        s,
        &[
            "cluster",
            "private cloud",
            "hosts",
            "driver",
            "by vCPU",
            "by memory",
            "VMs",
            "vCPU",
            "memory GiB",
            "datastores",
            "pools",
            "ANF USD/month",
        ],
        &[
            false, false, true, false, true, true, true, true, true, true, false, true,
        ],
        &rows,
    );
    let _ = writeln!(
        s,
        "Per host: {} vCPU, {} GiB for VMs; cluster hosts = max(by vCPU, by memory) + HA, at \
         least 3. {} hosts, {} vCPU, {} GiB of memory in {} private cloud(s); {}.\n",
        g(plan.sizing.vcpus_per_host, 0),
        g(plan.sizing.memory_gib_per_host, 1),
        g(f64::from(plan.sizing.hosts), 0),
        g(plan.sizing.vcpus as f64, 0),
        g(plan.sizing.memory_gib, 0),
        plan.sizing.private_clouds.len(),
        first_clusters_text(plan)
    );
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
        let _ = writeln!(s, "## Warnings ({})\n", plan.warnings.len());
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

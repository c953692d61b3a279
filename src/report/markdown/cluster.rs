//! Per-cluster plans (`ClusterPlans`) as one Markdown document: each cluster's plan under
//! its own heading (the plan's headings one level down), then the total with one row per
//! cluster, the estate's reservations, its excluded VMs (listed once, by reason) and its
//! warnings.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::ClusterPlans;
use crate::report::markdown::write_section;
use crate::report::markdown::{Body, cell, cluster_plan_markdown, shared_markdown, table};
use crate::report::model;
use crate::report::model::estate_sections::shared_assumptions;

/// Per-cluster plans as one Markdown document.
pub(in crate::report) fn cluster_plans_markdown(plans: &ClusterPlans, body: Body) -> String {
    let mut s = String::new();
    let shared = shared_assumptions(&plans.clusters);
    for c in &plans.clusters {
        let _ = writeln!(
            s,
            "# Cluster {}: {} hosts ({})\n\n{}% of the capacity (and of estate-wide targets).\n",
            crate::report::markdown::name(&c.cluster),
            c.hosts,
            c.hosts_source,
            g(c.target_share * 100.0, 1)
        );
        s.push_str(&cluster_plan_markdown(c, &shared, 1, body));
    }
    let region = plans
        .clusters
        .first()
        .map_or("", |c| c.plan.region.as_str());
    shared_markdown(&mut s, &plans.clusters, region, 1, body);
    total(&mut s, plans);
    let lead = format!(
        "Bought once for the estate (the clusters above are pay as you go; the total counts \
         them, saving {} USD/month)",
        g(plans.total.reservation_savings_usd_per_month, 2)
    );
    if let Some(section) = model::estate_sections::reservations(&plans.reservations, &lead) {
        write_section(&mut s, &section, 2, body);
    }
    if !plans.excluded.is_empty() {
        let t = &plans.total;
        let section = model::plan::excluded_section(
            "Excluded VMs of the estate",
            &plans.excluded,
            t.excluded_capacity_gib,
            ", in no cluster's plan",
        );
        write_section(&mut s, &section, 2, body);
    }
    if !plans.total.warnings.is_empty() {
        let _ = writeln!(
            s,
            "## Warnings ({})\n",
            crate::inventory::warning_count(&plans.total.warnings)
        );
        for w in &plans.total.warnings {
            let _ = writeln!(s, "- {}", cell(&w.to_string()));
        }
        let _ = writeln!(s);
    }
    s
}

/// The total over the clusters, one row per cluster, and what is not planned.
fn total(s: &mut String, plans: &ClusterPlans) {
    let t = &plans.total;
    let _ = writeln!(
        s,
        "# Total over {} clusters\n\n**{} hosts, {} datastores, {} TiB of pools, {} GiB placed, \
         {} USD/month**\n",
        t.clusters,
        t.hosts,
        t.datastores,
        g(f64::from(t.pool_size_tib), 0),
        g(t.placed_capacity_gib, 1),
        g(t.cost_usd_per_month, 2)
    );
    let mut rows: Vec<Vec<String>> = plans
        .clusters
        .iter()
        .map(|c| {
            let p = &c.plan.totals;
            vec![
                crate::report::markdown::name(&c.cluster),
                c.hosts.to_string(),
                p.datastores.to_string(),
                g(f64::from(p.pool_size_tib), 0),
                g(p.placed_capacity_gib, 1),
                g(p.cost_usd_per_month, 2),
            ]
        })
        .collect();
    rows.push(vec![
        "total".into(),
        t.hosts.to_string(),
        t.datastores.to_string(),
        g(f64::from(t.pool_size_tib), 0),
        g(t.placed_capacity_gib, 1),
        g(t.cost_usd_per_month, 2),
    ]);
    table(
        s,
        &[
            "cluster",
            "hosts",
            "datastores",
            "pool TiB",
            "placed GiB",
            "USD/month",
        ],
        &[false, true, true, true, true, true],
        &rows,
    );
    if t.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "First month only: {} USD to move the cold data into the cool tier.\n",
            g(t.first_month_cool_transfer_usd, 2)
        );
    }
    if t.vms_without_cluster > 0 {
        let _ = writeln!(
            s,
            "Not planned: {} VMs that name no cluster ({} GiB).\n",
            g(t.vms_without_cluster as f64, 0),
            g(t.vms_without_cluster_capacity_gib, 1)
        );
    }
}

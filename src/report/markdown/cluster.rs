//! Per-cluster plans (`ClusterPlans`) as one Markdown document: each cluster's plan under
//! its own heading (the plan's headings one level down), then the total with one row per
//! cluster, the estate's reservations, its excluded VMs (listed once, by reason) and its
//! warnings.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::ClusterPlans;
use crate::report::markdown::write_section;
use crate::report::markdown::{cluster_plan_markdown, shared_markdown};
use crate::report::model::cluster_plans;
use crate::report::model::estate_sections::shared_assumptions;

/// Per-cluster plans as one Markdown document.
pub(in crate::report) fn cluster_plans_markdown(plans: &ClusterPlans) -> String {
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
        s.push_str(&cluster_plan_markdown(c, &shared, 1));
    }
    let region = plans
        .clusters
        .first()
        .map_or("", |c| c.plan.region.as_str());
    shared_markdown(&mut s, &plans.clusters, region, 1);
    write_section(&mut s, &cluster_plans::total(plans), 1);
    for section in cluster_plans::reservations(plans)
        .into_iter()
        .chain(cluster_plans::excluded(plans))
    {
        write_section(&mut s, &section, 2);
    }
    if let Some(section) = crate::report::model::warnings::warnings(&plans.total.warnings) {
        write_section(&mut s, &section, 2);
    }
    s
}

//! The estate plan as Markdown: the headline and the estate's model sections (AVS
//! clusters, performance, designs, host SKUs, pools, vSAN alone, assumptions, warnings),
//! then each cluster's plan one heading level down, then the excluded VMs once.

use std::fmt::Write as _;

use crate::plan::EstatePlan;
use crate::report::markdown::{
    cluster_plan_markdown, shared_markdown, write_headline, write_section,
};
use crate::report::model;
use crate::report::model::delivered::cluster_utilisation;
use crate::report::model::delivered::utilisation_words;

/// The estate plan as one Markdown document.
pub(in crate::report) fn estate_markdown(plan: &EstatePlan) -> String {
    let mut s = String::new();
    write_headline(&mut s, &model::estate_headline::estate_headline(plan, true));
    for section in model::estate_sections::estate_tables(plan) {
        write_section(&mut s, &section, 2);
    }
    if let Some(section) = model::warnings::warnings(&plan.warnings) {
        write_section(&mut s, &section, 2);
    }
    shared_markdown(&mut s, &plan.clusters, &plan.region, 2);
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
        s.push_str(&cluster_plan_markdown(c, &shared, 2));
    }
    excluded(&mut s, plan);
    s
}

/// The estate's excluded VMs by reason, once.
fn excluded(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::excluded(plan), 2);
}

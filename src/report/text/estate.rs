//! The estate plan as text: by default a summary that fits a screen (headline, clusters,
//! designs, host SKUs, pools, reservations, warnings grouped by cause, and a last line
//! naming what the detail adds); with [`TextDetail::Full`] every section and every
//! cluster's plan, the clusters' shared assumptions and prices printed once.

use std::fmt::Write as _;

use crate::inventory::Warning;
use crate::numbers::group_thousands as g;
use crate::plan::EstatePlan;
use crate::report::TextDetail;
use crate::report::model;
use crate::report::model::delivered::{cluster_utilisation, utilisation_words};
use crate::report::text::estate_sections::{
    clusters, designs, excluded, pools, reservations, skus, summary,
};
use crate::report::text::render::write_section;
use crate::report::text::{plan_text_in_estate, write_warnings};

/// The estate plan as text, at `detail`.
pub(in crate::report) fn estate_text(plan: &EstatePlan, detail: TextDetail) -> String {
    match detail {
        TextDetail::Summary => summary_text(plan),
        TextDetail::Full => detail_text(plan),
    }
}

/// The one-screen summary.
fn summary_text(plan: &EstatePlan) -> String {
    let mut s = String::new();
    summary(&mut s, plan, false);
    clusters(&mut s, plan);
    designs(&mut s, plan, false);
    skus(&mut s, plan);
    pools(&mut s, plan);
    reservations(&mut s, plan);
    grouped_warnings(&mut s, &plan.warnings);
    let _ = writeln!(s, "\n{}", left_to_detail(plan));
    s
}

/// Every section, then each cluster's plan (the shared assumptions and prices once,
/// before them), then the excluded VMs.
fn detail_text(plan: &EstatePlan) -> String {
    let mut s = String::new();
    summary(&mut s, plan, true);
    for section in model::estate_sections::estate_tables(plan) {
        write_section(&mut s, &section);
    }
    write_warnings(&mut s, &plan.warnings);
    for section in model::estate_sections::shared(&plan.clusters, &plan.region) {
        write_section(&mut s, &section);
    }
    let shared = model::estate_sections::shared_assumptions(&plan.clusters);
    for c in &plan.clusters {
        let uses = cluster_utilisation(plan, &c.cluster)
            .map_or_else(String::new, |u| format!("; uses {}", utilisation_words(u)));
        let _ = writeln!(
            s,
            "\n=== AVS cluster {}: {} hosts ({}), {:.1}% of the capacity{uses} ===",
            c.cluster,
            c.hosts,
            c.hosts_source,
            c.target_share * 100.0
        );
        s.push_str(&plan_text_in_estate(c, &shared));
    }
    excluded(&mut s, plan);
    s
}

/// The summary's last line: what the detail adds, with counts.
fn left_to_detail(plan: &EstatePlan) -> String {
    let mut parts = Vec::new();
    if !plan.clusters.is_empty() {
        parts.push(format!(
            "{} ANF cluster plan(s) (demand, pools, datastores, placement, alternatives)",
            plan.clusters.len()
        ));
    }
    parts.push("the performance table".to_string());
    if plan.designs.is_some() {
        parts.push("the designs per AVS cluster and their sources".into());
    }
    if plan.vsan_alone.is_some() {
        parts.push("vSAN alone per cluster".into());
    }
    if plan.summary.host_price_source.is_some() {
        parts.push("the host price's source".into());
    }
    parts.push("the sizing assumptions".into());
    let causes = model::warnings::causes(&plan.warnings).len();
    if causes > SUMMARY_CAUSES {
        let more = causes.min(model::warnings::WARNINGS_SHOWN) - SUMMARY_CAUSES;
        parts.push(format!("{more} more warning cause(s)"));
    }
    if !plan.excluded.is_empty() {
        parts.push(format!(
            "the {} excluded VM(s)",
            g(plan.excluded.len() as f64, 0)
        ));
    }
    format!("`detail` adds: {}", parts.join(", "))
}

/// Warning causes the summary lists (the detail lists
/// [`model::warnings::WARNINGS_SHOWN`]).
const SUMMARY_CAUSES: usize = 8;

/// The warnings grouped by cause ([`model::warnings::causes`]): one line per cause, its
/// first warning with the count alike at the end; the first [`SUMMARY_CAUSES`] causes,
/// the plan's own first.
fn grouped_warnings(s: &mut String, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    let causes = model::warnings::causes(warnings);
    let _ = writeln!(
        s,
        "\nWarnings: {} ({} cause(s))",
        g(crate::inventory::warning_count(warnings) as f64, 0),
        causes.len(),
    );
    if warnings.iter().any(|w| !w.file.is_empty()) {
        let _ = writeln!(s, "  {}", model::warnings::INPUT_ROWS_NOTE);
    }
    for list in causes.iter().take(SUMMARY_CAUSES) {
        let _ = writeln!(s, "  {}", model::warnings::cause_line(list));
    }
    if causes.len() > SUMMARY_CAUSES {
        let _ = writeln!(
            s,
            "  ... {} more cause(s) (`detail` lists the first 20, the JSON format every warning)",
            causes.len() - SUMMARY_CAUSES
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(row: usize, value: &str, message: &str) -> Warning {
        Warning {
            kind: crate::inventory::WarningKind::Identity,
            file: "a.xlsx".into(),
            sheet: Some("vInfo".into()),
            row: Some(row),
            column: Some("Host".into()),
            value: Some(value.into()),
            message: message.into(),
            more_alike: 0,
        }
    }

    #[test]
    fn a_cause_is_one_line_with_its_count_and_first_names() {
        let list: Vec<Warning> = (1..=5)
            .map(|i| {
                warning(
                    i + 1,
                    &format!("h{i}"),
                    &format!("host 'h{i}' not in vHost ({i} VMs)"),
                )
            })
            .chain([Warning::plan_wide(
                crate::inventory::WarningKind::Plan,
                "3 clusters at the minimum".into(),
            )])
            .collect();
        let mut s = String::new();
        grouped_warnings(&mut s, &list);
        // 6 warnings, 2 causes: the plan's own first, then the five host warnings (rows
        // 2..6) as one line: the first (row 2) and 4 more alike, rows 3, 4, 5 named and 1
        // more.
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[1], "Warnings: 6 (2 cause(s))");
        assert_eq!(
            lines[2],
            "  Warnings about the input count every row read, templates and excluded VMs \
             included."
        );
        // Each line its kind first.
        assert_eq!(lines[3], "  (plan) 3 clusters at the minimum");
        assert_eq!(
            lines[4],
            "  (identity) a.xlsx [vInfo] row 2 column 'Host' value 'h1': host 'h1' not in vHost (1 VMs) \
             (and 4 more alike: row 3, row 4, row 5 and 1 more)"
        );
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn warnings_counted_on_a_kept_one_count_in_the_line() {
        let mut list: Vec<Warning> = (2..=6)
            .map(|r| warning(r, "x", &format!("CPUs '{r}' unreadable")))
            .collect();
        list[4].more_alike = 1_000;
        let mut s = String::new();
        grouped_warnings(&mut s, &list);
        // Rows 2..6 kept, the last standing for 1,000 more: 1,005 in all, the first and
        // 1,004 more alike, rows 3, 4, 5 named and 1,001 more.
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[1], "Warnings: 1,005 (1 cause(s))");
        assert!(
            lines[3].ends_with(
                "CPUs '2' unreadable (and 1,004 more alike: row 3, row 4, row 5 and 1,001 more)"
            ),
            "{}",
            lines[3]
        );
    }
}

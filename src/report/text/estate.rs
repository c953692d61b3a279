//! The estate plan as text: by default a summary that fits a screen (headline, clusters,
//! designs, host SKUs, pools, reservations, warnings grouped by cause, and a last line
//! naming what the detail adds); with [`TextDetail::Full`] every section and every
//! cluster's plan, the clusters' shared assumptions and prices printed once.

use std::fmt::Write as _;

use crate::inventory::Warning;
use crate::inventory::warning_shape as shape;
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
    if !plan.warnings.is_empty() {
        parts.push("each warning".into());
    }
    if !plan.excluded.is_empty() {
        parts.push(format!(
            "the {} excluded VM(s)",
            g(plan.excluded.len() as f64, 0)
        ));
    }
    format!("`detail` adds: {}", parts.join(", "))
}

/// The warnings grouped by cause: one line per message shape (the same file, sheet and
/// column, the message alike but for its numbers and quoted names), with the count and
/// the first few places; the first [`GROUPS`] groups, the plan's own first.
fn grouped_warnings(s: &mut String, warnings: &[Warning]) {
    const GROUPS: usize = 8;
    if warnings.is_empty() {
        return;
    }
    let mut groups: Vec<(String, Vec<&Warning>)> = Vec::new();
    let (plan_wide, from_input): (Vec<&Warning>, Vec<&Warning>) =
        warnings.iter().partition(|w| w.file.is_empty());
    for w in plan_wide.into_iter().chain(from_input) {
        let key = format!(
            "{}|{:?}|{:?}|{}",
            w.file,
            w.sheet,
            w.column,
            shape(&w.message)
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(w),
            None => groups.push((key, vec![w])),
        }
    }
    let _ = writeln!(
        s,
        "\nWarnings: {} ({} cause(s){})",
        g(crate::inventory::warning_count(warnings) as f64, 0),
        groups.len(),
        crate::report::text::rows_note(warnings)
    );
    for (_, list) in groups.iter().take(GROUPS) {
        let _ = writeln!(s, "  {}", group_line(list));
    }
    if groups.len() > GROUPS {
        let _ = writeln!(
            s,
            "  ... {} more cause(s) (`detail` lists the first 20 warnings, the JSON format all)",
            groups.len() - GROUPS
        );
    }
}

/// One group's line: the warning itself when alone, else the count, the first few places
/// (rows, or values where a warning names no row) and the first warning.
fn group_line(list: &[&Warning]) -> String {
    const NAMED: usize = 3;
    let Some(first) = list.first() else {
        return String::new();
    };
    let total = crate::inventory::warning_count(list.iter().copied());
    if total == 1 {
        return first.to_string();
    }
    // Warnings counted on a kept one (`more_alike`), not listed themselves.
    let hidden = total - list.len();
    let places: Vec<String> = list
        .iter()
        .filter_map(|w| match (w.row, &w.value) {
            (Some(r), _) => Some(format!("row {r}")),
            (None, Some(v)) => Some(format!("'{v}'")),
            (None, None) => None,
        })
        .collect();
    let named = match places.len() {
        0 => String::new(),
        n if n <= NAMED && hidden == 0 => format!(" ({})", places.join(", ")),
        n => {
            let shown = n.min(NAMED);
            format!(
                " ({} and {} more)",
                places[..shown].join(", "),
                g((n - shown + hidden) as f64, 0)
            )
        }
    };
    format!("{} alike{named}, the first: {first}", g(total as f64, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(row: usize, value: &str, message: &str) -> Warning {
        Warning {
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
            .chain([Warning::plan_wide("3 clusters at the minimum".into())])
            .collect();
        let mut s = String::new();
        grouped_warnings(&mut s, &list);
        // 6 warnings, 2 causes: the plan's own first, then the five host warnings (rows
        // 2..6) as one line naming the first 3 rows and the 2 more.
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines[1],
            "Warnings: 6 (2 cause(s); the input's cover every row read, templates and \
             excluded VMs included)"
        );
        assert_eq!(lines[2], "  3 clusters at the minimum");
        assert!(
            lines[3].starts_with("  5 alike (row 2, row 3, row 4 and 2 more), the first: a.xlsx"),
            "{}",
            lines[3]
        );
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn warnings_counted_on_a_kept_one_count_in_the_line() {
        // Rows 2..6 kept, the last standing for 1,000 more (more_alike): 1,005 alike, the
        // first 3 rows named and 1,002 more.
        let mut list: Vec<Warning> = (2..=6)
            .map(|r| warning(r, "x", &format!("CPUs '{r}' unreadable")))
            .collect();
        list[4].more_alike = 1_000;
        let mut s = String::new();
        grouped_warnings(&mut s, &list);
        let lines: Vec<&str> = s.lines().collect();
        assert!(
            lines[1].starts_with("Warnings: 1,005 (1 cause(s)"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("  1,005 alike (row 2, row 3, row 4 and 1,002 more)"),
            "{}",
            lines[2]
        );
    }
}

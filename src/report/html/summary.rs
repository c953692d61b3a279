//! Page one of the estate plan: the decision, its cost, what it saves against the other
//! designs, the warnings that can change it and the assumptions it rests on.

use std::fmt::Write as _;

use super::escape::escape;
use super::warnings::{Cause, causes_html};
use crate::numbers::{counted, group_thousands as g};
use crate::plan::EstatePlan;
use crate::report::model;
use crate::report::model::headline::{self, Card};
use crate::report::model::table::Cell;

/// Settings shown on page one (the full list is in the assumptions section).
const KEY_SETTINGS: [&str; 8] = [
    "host_term",
    "design",
    "group",
    "vcpu_per_core",
    "memory_basis",
    "ha_hosts",
    "vsan_policy",
    "vsan_dedup_ratio",
];

/// Plan-wide causes shown on page one.
const KEY_CAUSES: usize = 5;

/// A figure in USD with thousands separators and cents, or why there is none.
pub fn usd(value: Option<f64>) -> String {
    value.map_or_else(|| "unknown (no host price)".to_string(), |v| g(v, 2))
}

/// The executive summary of `plan`; `causes`: its warnings by cause.
pub fn estate_summary(s: &mut String, plan: &EstatePlan, causes: &[Cause]) {
    let m = &plan.summary;
    let _ = writeln!(s, "<h1>Estate plan</h1>");
    let _ = writeln!(
        s,
        "<p class=\"subtitle\">Azure VMware Solution hosts and Azure NetApp Files datastores for \
         {}, {} ({})</p>",
        counted(m.vms_placed as u64, "VM"),
        escape(&plan.location),
        escape(&plan.region)
    );
    cards(s, plan);
    if let Some(d) = &plan.designs {
        let _ = writeln!(
            s,
            "<p class=\"decision\"><strong>Decision:</strong> {}.</p>",
            super::model::words(&d.why)
        );
        // The designs side by side, with what each costs against the chosen one.
        s.push_str(&super::model::body_html(&model::designs::estate(d, false)));
    }
    if !m.host_price_note.is_empty() {
        let _ = writeln!(
            s,
            "<p><strong>Host price:</strong> {}.</p>",
            super::model::words(&m.host_price_note)
        );
    }
    key_warnings(s, causes);
    key_assumptions(s, plan);
}

/// The headline figures as cards ([`headline::estate_cards`]); the month's hosts with each
/// SKU's hosts and price where the estate has first clusters of another SKU.
fn cards(s: &mut String, plan: &EstatePlan) {
    let m = &plan.summary;
    cards_html(s, &headline::estate_cards(plan));
    let prices = if model::estate::mixed(m) {
        format!(" ({})", model::estate::prices_text(m))
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "<p>Per month: hosts {}{} + ANF {} + ExpressRoute gateways {} = <strong>{} USD</strong>; \
         per year {} USD. {} placed, {} excluded (listed at the end).</p>",
        usd(m.hosts_usd_per_month),
        escape(&prices),
        g(m.anf_usd_per_month, 2),
        g(m.gateway_usd_per_month, 2),
        usd(m.total_usd_per_month),
        usd(m.total_usd_per_year),
        counted(m.vms_placed as u64, "VM"),
        g(m.vms_excluded as f64, 0)
    );
}

/// Headline cards: each a label and its value (an unknown USD says why).
pub fn cards_html(s: &mut String, cards: &[Card]) {
    s.push_str("<div class=\"cards\">\n");
    for c in cards {
        let value = match &c.value {
            Cell::MaybeUsd(v) => escape(&usd(*v)),
            other => super::model::words(&other.shown()),
        };
        let _ = writeln!(
            s,
            "<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\">{}</div></div>",
            escape(c.label),
            value
        );
    }
    s.push_str("</div>\n");
}

/// The warnings that can change the decision ([`super::warnings::decisive`]).
fn key_warnings(s: &mut String, causes: &[Cause]) {
    let plan_wide: Vec<&Cause> = causes.iter().filter(|c| c.decisive).collect();
    if plan_wide.is_empty() {
        return;
    }
    let _ = writeln!(s, "<h2>Warnings that can change the decision</h2>");
    let shown: Vec<Cause> = plan_wide
        .iter()
        .take(KEY_CAUSES)
        .map(|c| (*c).clone())
        .collect();
    causes_html(s, &shown);
    if plan_wide.len() > KEY_CAUSES {
        let _ = writeln!(
            s,
            "<p class=\"muted\">{} more causes in the warnings section.</p>",
            plan_wide.len() - KEY_CAUSES
        );
    }
}

/// The settings that shape the decision most, by their flag, with their values.
fn key_assumptions(s: &mut String, plan: &EstatePlan) {
    let rows: Vec<_> = KEY_SETTINGS
        .iter()
        .filter_map(|name| plan.assumptions.iter().find(|a| a.name == *name))
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(s, "<h2>Assumptions that matter</h2>");
    s.push_str("<ul>\n");
    for a in rows {
        let setting = super::model::setting_html(&a.name)
            .unwrap_or_else(|| escape(&a.name.replace('_', " ")));
        let _ = writeln!(
            s,
            "<li>{setting}: <strong>{}</strong></li>",
            super::model::words(&a.value)
        );
    }
    s.push_str(
        "</ul>\n<p class=\"muted\">Every setting, with its source, is in the \
                assumptions section.</p>\n",
    );
}

//! The headline of a plan: its sentences ([`plan_headline`], which every format shows
//! first) and its figures as cards (a label and a typed value: the decision, the monthly
//! and yearly cost and, where the plan has them, its savings), which the HTML report's page
//! one shows for every kind of plan.

use crate::numbers::{counted, group_thousands as g};
use crate::plan::{ClusterPlans, EstatePlan, EstateSummary, Plan};
use crate::report::model::delivered::{Delivered, delivers, pool_size_words};
use crate::report::model::estate;
use crate::report::model::table::{Cell, Section};

/// One headline figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// What it is, with its unit (`Monthly cost, USD`).
    pub label: &'static str,
    /// The figure.
    pub value: Cell,
}

fn card(label: &'static str, value: Cell) -> Card {
    Card { label, value }
}

/// The pools' service levels, `flexible + premium`.
fn levels(plan: &Plan) -> String {
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    levels.join(" + ")
}

/// One cluster's plan in a few sentences, a section titled `ANF datastore plan` (its
/// figures on the workbook's `Summary`): the datastores, their levels and pool size, the
/// hosts (those running VMs where fewer) and the flows (with the connections per host and
/// datastore where more than one); the monthly cost with the region and when the prices
/// took effect; what the layout delivers; the first month's cool transfer, where there is
/// one.
pub fn plan_headline(plan: &Plan) -> Section {
    let t = &plan.totals;
    let hosts = if t.hosts_with_vms > 0 && t.hosts_with_vms < plan.hosts {
        let verb = if t.hosts_with_vms == 1 { "runs" } else { "run" };
        format!(
            "{} ({} {verb} VMs)",
            counted(u64::from(plan.hosts), "host"),
            t.hosts_with_vms
        )
    } else {
        counted(u64::from(plan.hosts), "host")
    };
    // Flows = hosts running VMs x datastores x connections per host and datastore.
    let per_connection = u64::from(t.hosts_with_vms.max(1)) * u64::from(t.datastores.max(1));
    let connections = match t.flows / per_connection {
        n if n > 1 && t.flows.is_multiple_of(per_connection) => format!(" x {n} connections"),
        _ => String::new(),
    };
    let mut section = Section::of_words("ANF datastore plan", "Summary");
    section.lead = vec![
        format!(
            "{} on {} ({}), {hosts} x {}{connections} = {}",
            counted(u64::from(t.datastores), "datastore"),
            levels(plan),
            pool_size_words(plan),
            counted(u64::from(t.datastores), "datastore"),
            counted(t.flows, "flow")
        ),
        format!(
            "monthly cost: {} USD ({}, {}, prices effective {})",
            g(t.cost_usd_per_month, 2),
            plan.region,
            plan.location,
            effective_dates(plan)
        ),
        format!("delivers: {}", delivers(&Delivered::of(plan))),
    ];
    if t.first_month_cool_transfer_usd > 0.0 {
        section.lead.push(format!(
            "first month only: + {} USD one-time cool-tier transfer of the initially cold data",
            g(t.first_month_cool_transfer_usd, 2)
        ));
    }
    section
}

/// When the plan's prices took effect: one date when every price row used has the same
/// `effective_start` (or the plan lists none), else the first and last date and where each
/// meter's is (`2024-06-01 to 2025-09-01 by meter, see Prices`).
fn effective_dates(plan: &Plan) -> String {
    let mut dates: Vec<&str> = plan
        .prices
        .iter()
        .map(|p| p.effective_start.as_str())
        .collect();
    dates.sort_unstable();
    dates.dedup();
    match (dates.first(), dates.last()) {
        (Some(first), Some(last)) if first != last => {
            format!("{first} to {last} by meter, see Prices")
        }
        _ => plan.prices_effective.clone(),
    }
}

/// One cluster's plan (`--hosts N`): its layout, the datastores' monthly and yearly cost
/// ([`Plan::twelve_months_usd`] plus the first month's cool transfer), and what it saves:
/// a time-phased plan against the peak layout all year, and the chosen layout against the
/// cheapest feasible alternative that costs more.
pub fn plan_cards(plan: &Plan) -> Vec<Card> {
    let t = &plan.totals;
    let mut cards = vec![
        card(
            "Decision",
            Cell::text(format!(
                "{} on {} ({})",
                counted(u64::from(t.datastores), "ANF datastore"),
                levels(plan),
                pool_size_words(plan)
            )),
        ),
        card("Monthly cost, USD", Cell::Usd(t.cost_usd_per_month)),
        card(
            "Yearly cost, USD",
            Cell::Usd(plan.twelve_months_usd() + t.first_month_cool_transfer_usd),
        ),
        card("Hosts", Cell::Count(u64::from(plan.hosts))),
    ];
    if let Some(tp) = &plan.time_phased {
        cards.push(card(
            "Saves against the peak layout all year, USD/year",
            Cell::Usd(tp.yearly_savings_usd),
        ));
    }
    let next = plan
        .alternatives
        .iter()
        .filter(|a| a.feasible && a.extra_cost_usd_per_month > 0.0)
        .map(|a| a.extra_cost_usd_per_month)
        .min_by(f64::total_cmp);
    if let Some(saves) = next {
        cards.push(card(
            "Saves against the next cheapest layout, USD/month",
            Cell::Usd(saves),
        ));
    }
    cards
}

/// Per-cluster plans: the clusters and datastores, the total's monthly and yearly cost
/// ([`ClusterPlans::year_usd`]), and what the estate's reservations save.
pub fn cluster_plans_cards(plans: &ClusterPlans) -> Vec<Card> {
    let t = &plans.total;
    let mut cards = vec![
        card(
            "Decision",
            Cell::text(format!(
                "{} on {} ({} TiB of pools) for {}",
                counted(u64::from(t.datastores), "ANF datastore"),
                counted(u64::from(t.hosts), "host"),
                g(f64::from(t.pool_size_tib), 0),
                counted(t.clusters as u64, "cluster")
            )),
        ),
        card("Monthly cost, USD", Cell::Usd(t.cost_usd_per_month)),
        card("Yearly cost, USD", Cell::Usd(plans.year_usd())),
        card("Clusters", Cell::Count(t.clusters as u64)),
    ];
    if t.reservation_savings_usd_per_month > 0.0 {
        cards.push(card(
            "Reservations save, USD/month",
            Cell::Usd(t.reservation_savings_usd_per_month),
        ));
    }
    cards
}

/// The estate: monthly and yearly cost (unknown without a host price), design, host SKU,
/// hosts, AVS clusters, private clouds, ANF datastores. With first clusters of another SKU
/// (AV64 in a Gen 1 private cloud) the SKU card names each SKU (`av64 + av36p`) and the
/// hosts card each SKU's hosts (`17 av64 + 3 av36p`).
pub fn estate_cards(plan: &EstatePlan) -> Vec<Card> {
    let m = &plan.summary;
    let design = plan
        .designs
        .as_ref()
        .map_or(m.design.label(), |d| d.chosen.label());
    let hosts = if estate::mixed(m) {
        Cell::text(estate::hosts_text(m))
    } else {
        Cell::number(f64::from(m.hosts), 0)
    };
    vec![
        card("Monthly cost, USD", Cell::MaybeUsd(m.total_usd_per_month)),
        card("Yearly cost, USD", Cell::MaybeUsd(m.total_usd_per_year)),
        card("Design", Cell::text(design)),
        card("Host SKU", Cell::text(estate::skus_text(m))),
        card("Hosts", hosts),
        card("AVS clusters", Cell::number(m.clusters as f64, 0)),
        card("Private clouds", Cell::number(m.private_clouds as f64, 0)),
        card("ANF datastores", Cell::number(f64::from(m.datastores), 0)),
    ]
}

/// The estate's hosts by SKU in words: `6 av36p`, or `17 av64 + 3 av36p` with first
/// clusters of another SKU (AV64 in a Gen 1 private cloud), as the text's headline says.
pub fn estate_hosts(m: &EstateSummary) -> String {
    estate::hosts_text(m)
}

/// `text` with its first letter upper case (`monthly cost: ...` as a list entry); a first
/// word already written with a capital inside (`vSAN`) stays as it is.
pub(in crate::report) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(_), Some(second)) if second.is_uppercase() => text.to_string(),
        (Some(first), _) => first.to_uppercase().chain(text.chars().skip(1)).collect(),
        (None, _) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::capitalised;

    #[test]
    fn list_entries_start_upper_case_but_vsan() {
        assert_eq!(capitalised("monthly cost: 1 USD"), "Monthly cost: 1 USD");
        assert_eq!(capitalised("vSAN alone: 6 hosts"), "vSAN alone: 6 hosts");
        assert_eq!(capitalised(""), "");
    }
}

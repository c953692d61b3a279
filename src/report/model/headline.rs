//! The headline figures of a plan as cards (a label and a typed value): the decision, the
//! monthly and yearly cost and, where the plan has them, its savings. The HTML report's
//! page one shows them for every kind of plan.

use crate::numbers::{counted, group_thousands as g};
use crate::plan::{ClusterPlans, EstatePlan, Plan};
use crate::report::model::delivered::pool_size_words;
use crate::report::model::table::Cell;

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

/// One cluster's plan (`--hosts N`): its layout, the datastores' monthly and yearly cost
/// ([`Plan::twelve_months_usd`] plus the first month's cool transfer), and what it saves:
/// a time-phased plan against the peak layout all year, and the chosen layout against the
/// cheapest feasible alternative that costs more.
pub fn plan_cards(plan: &Plan) -> Vec<Card> {
    let t = &plan.totals;
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let mut cards = vec![
        card(
            "Decision",
            Cell::text(format!(
                "{} on {} ({})",
                counted(u64::from(t.datastores), "ANF datastore"),
                levels.join(" + "),
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
/// hosts, AVS clusters, private clouds, ANF datastores.
pub fn estate_cards(plan: &EstatePlan) -> Vec<Card> {
    let m = &plan.summary;
    let design = plan
        .designs
        .as_ref()
        .map_or(m.design.label(), |d| d.chosen.label());
    vec![
        card("Monthly cost, USD", Cell::MaybeUsd(m.total_usd_per_month)),
        card("Yearly cost, USD", Cell::MaybeUsd(m.total_usd_per_year)),
        card("Design", Cell::text(design)),
        card("Host SKU", Cell::text(m.sku.clone())),
        card("Hosts", Cell::number(f64::from(m.hosts), 0)),
        card("AVS clusters", Cell::number(m.clusters as f64, 0)),
        card("Private clouds", Cell::number(m.private_clouds as f64, 0)),
        card("ANF datastores", Cell::number(f64::from(m.datastores), 0)),
    ]
}

//! The estate's cost by design (`cost-by-design.svg`): vSAN alone, ANF for all and hybrid,
//! each bar in its design's colour, the chosen one marked; the title names the cheapest.

use super::draw::{BarSeries, Bars, bar_svg};
use super::style::{BLUE, design_colour};
use crate::numbers::group_thousands;
use crate::plan::EstatePlan;
use crate::report::ReportError;
use crate::report::model::estate;

/// The chart, or `None` when the plan compares no designs or none is priced.
pub fn designs_svg(plan: &EstatePlan) -> Result<Option<String>, ReportError> {
    let Some(designs) = &plan.designs else {
        return Ok(None);
    };
    let rows: Vec<_> = designs
        .estate
        .iter()
        .filter_map(|d| Some((d, d.total_usd_per_month?)))
        .filter(|(d, _)| d.feasible)
        .collect();
    let Some(&(chosen, cost)) = rows.iter().find(|(d, _)| d.chosen) else {
        return Ok(None);
    };
    let least = rows.iter().all(|(_, c)| *c >= cost);
    let name = super::capitalised(chosen.design.label());
    // The plan's design with first clusters of another SKU: each SKU's hosts.
    let m = &plan.summary;
    let hosts = if estate::mixed(m) && chosen.hosts == m.hosts {
        estate::hosts_text(m)
    } else {
        chosen.hosts.to_string()
    };
    let title = format!(
        "{name} {}: {} USD/month ({hosts} hosts)",
        if least { "costs least" } else { "chosen" },
        group_thousands(cost, 2),
    );
    bar_svg(&Bars {
        title: &title,
        value_axis: "USD per month (hosts + ANF + gateways)",
        category_axis: "design",
        categories: rows
            .iter()
            .map(|(d, _)| format!("{}, {} hosts", d.design.label(), d.hosts))
            .collect(),
        series: vec![BarSeries {
            name: "hosts + ANF + gateways, USD per month".into(),
            colour: BLUE,
            values: rows.iter().map(|(_, c)| *c).collect(),
        }],
        marked: (0..rows.len()).filter(|&i| rows[i].0.chosen).collect(),
        category_colours: rows.iter().map(|(d, _)| design_colour(d.design)).collect(),
    })
    .map(Some)
}

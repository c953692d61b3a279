//! The SKU table ([`sku_alternatives`]): one row per SKU tried, its design's figures (its
//! compute sizing's while not costed), and a note on why it is chosen or not and on the
//! first clusters of another SKU it counts.

use super::designs::plan_sizing;
use super::sku::{SkuEstate, total};
use super::{StorageContext, Tried, seed};
use crate::plan::{Design, SkuAlternative};

/// One row per SKU tried (only `forced`, the SKU given, when given).
pub(super) fn sku_alternatives(
    tried: &[Tried],
    (chosen, forced): (usize, Option<usize>),
    ctx: &StorageContext,
) -> Vec<SkuAlternative> {
    tried
        .iter()
        .enumerate()
        .filter(|&(i, _)| forced.is_none_or(|f| f == i))
        .map(|(i, t)| match t {
            Tried::Feasible(e) => feasible_row(e, i == chosen, ctx),
            Tried::Infeasible(sku, err) => SkuAlternative {
                sku: sku.clone(),
                design: Design::Anf,
                feasible: false,
                chosen: false,
                hosts: 0,
                clusters: 0,
                private_clouds: 0,
                host_usd_per_hour: None,
                hosts_usd_per_month: None,
                anf_usd_per_month: None,
                gateway_usd_per_month: 0.0,
                total_usd_per_month: None,
                vsan_alone_hosts: None,
                vsan_alone_usd_per_month: None,
                note: err.to_string(),
            },
        })
        .collect()
}

/// One feasible SKU's row: its design's figures (its compute sizing's while not costed),
/// and a note on why it is chosen or not and on the first clusters of another SKU it
/// counts.
fn feasible_row(e: &SkuEstate, chosen: bool, ctx: &StorageContext) -> SkuAlternative {
    let (prices, term) = (&ctx.estate.host_prices, ctx.estate.host_term);
    let hours = ctx.catalog.limits.hours_per_month;
    let cost = e.cost(e.design);
    let vsan = e.cost(Design::Vsan).filter(|c| c.feasible);
    let hosts_usd = cost.map_or_else(|| e.hosts_usd_per_month(hours), |c| c.hosts_usd);
    // The first clusters as the row is priced: on vSAN alone, at the hosts it grows them to.
    let first = seed::first_cluster_note(&plan_sizing(e, e.design, ctx.costing()))
        .map(|n| format!("; {n}"))
        .unwrap_or_default();
    SkuAlternative {
        sku: e.sizing.sku.clone(),
        design: e.design,
        feasible: true,
        chosen,
        hosts: cost.map_or(e.sizing.hosts, |c| c.hosts),
        clusters: cost.map_or(e.sizing.clusters.len(), |c| c.clusters as usize),
        private_clouds: cost.map_or(e.sizing.private_clouds.len(), |c| c.private_clouds as usize),
        host_usd_per_hour: e.host_usd_per_hour,
        hosts_usd_per_month: hosts_usd,
        anf_usd_per_month: cost.map(|c| c.anf_usd),
        gateway_usd_per_month: cost.map_or(0.0, |c| c.gateway_usd),
        total_usd_per_month: total(e),
        vsan_alone_hosts: e.vsan_alone.as_ref().map(|v| v.hosts),
        vsan_alone_usd_per_month: vsan
            .map_or_else(|| e.vsan_alone_usd_per_month(hours), |c| c.total),
        note: if chosen && hosts_usd.is_none() && e.host_usd_per_hour.is_some() {
            format!(
                "chosen; {}{first}",
                seed::unpriced_first_cluster(e, prices, term)
            )
        } else if chosen && hosts_usd.is_none() {
            format!(
                "chosen: the fewest hosts, as no feasible SKU has a {term} host price ({}){first}",
                prices.missing(term)
            )
        } else if chosen {
            format!("chosen{first}")
        } else if e.host_usd_per_hour.is_none() {
            format!(
                "{}: sized only (its storage not planned, its total not compared; give \
                 `host_price_file`)",
                prices.missing(term)
            )
        } else if hosts_usd.is_none() {
            format!(
                "{}: sized only (its storage not planned, its total not compared){first}",
                seed::unpriced_first_cluster(e, prices, term)
            )
        } else {
            format!("dearer{first}")
        },
    }
}

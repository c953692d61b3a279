//! The three designs of one SKU's estate: each design's sizing ([`design_sizing`]: which
//! of each cluster's variants of [`super::choices`] it takes, each private cloud's first
//! cluster and, for AV64 in a Gen 1 private cloud, a moved cluster or an added one), its
//! cost ([`design_costs`]: hosts at each cluster's SKU price + ANF + the ExpressRoute
//! gateways), the design a SKU is compared on ([`pick`]), and its ANF demands
//! ([`design_split`]).
//!
//! Each design places the first clusters on its own costs:
//! - every cluster with VMs gets the hosts the design gives it as another cluster and as
//!   its private cloud's first (ANF for all: the hosts its datastores need; the hybrid:
//!   its point's hosts; vSAN alone: its compute hosts, its growth in
//!   [`crate::sizing::VsanAlone`]); the clusters are packed into private clouds as the
//!   sizing packs them, each private cloud's first cluster the member that costs least
//!   more as the first in that design (then the one whose hosts grow least; a cluster
//!   without VMs added where none can be first);
//! - AV64 in a Gen 1 private cloud ([`super::seed`]): per private cloud of two clusters or
//!   more, the cluster whose move to a priced first-cluster SKU costs least in that design
//!   is moved where that costs less than the added cluster, else the cluster is added.
//!
//! So the designs may differ in which cluster is first and which is moved: each is
//! costed on the first clusters that suit it best.
//!
//! A design's ANF figure is its split's pools as planning makes them: each cluster's point
//! prices its Standard, Premium or Ultra datastores as a share of a shared pool per GiB of
//! quota ([`super::oracle`]); the shares of one level are added into shared pools, each
//! rounded up to whole TiB once ([`super::pools`]), and that rounding is added; the same
//! split with a pool of each cluster's own is costed beside it, and the cheaper is the
//! design's figure and the way it is planned ([`PoolSizing`], the `pool_sizing`
//! assumption). So each design's total is the figure its plan gives pay as you go; a
//! planned design (the chosen one; with a reservation or peak months every ANF design)
//! takes its plan's own figure. Each cluster's hybrid point is no dearer than its ANF for
//! all at share prices; with each split's own rounding added, the estate's hybrid could
//! in principle come out above ANF for all by less than the pools' last TiB (no test case
//! has: `tests/hybrid.rs` checks it); the designs table shows both and the cheapest is
//! chosen either way.
//!
//! The estate's hybrid is `min(vSAN alone, sum of each cluster's best point + gateways)`:
//! the gateways are due once any cluster puts data on ANF, and vSAN alone (whose clusters
//! may grow past 16 hosts into several) is the design without any. When vSAN alone is the
//! cheaper, the hybrid is vSAN alone and says so. Ties go to the simpler design: vSAN
//! alone, then ANF for all.

use super::StorageContext;
use super::cost::{Costing, DesignCost, Pooling, unknown};
use super::gateway::gateways;
use super::oracle::cluster_demand;
use super::point::Delivers;
use super::pools::{Member, PoolSizing, rounding_usd_per_month};
use super::sku::{SkuEstate, hosts_cost, sku_hosts};
use crate::demand::ClusterDemands;
use crate::optimize::milp::round_cents;
use crate::plan::ClusterPlans;
use crate::plan::{Design, GatewayLine};
use crate::sizing::{EstateSizing, Raise};

/// The SKU's three designs (vSAN alone, ANF for all, hybrid), in that order; `None` before
/// the SKU is costed.
pub(super) fn design_costs(
    e: &SkuEstate,
    (gateway, pooling): (&GatewayLine, Pooling),
    at: Costing,
) -> Option<[DesignCost; 3]> {
    let choices = e.choices.as_ref()?;
    let data: f64 = choices.iter().map(|c| c.data_gib.iter().sum::<f64>()).sum();
    let vms: usize = choices.iter().map(|c| c.data_gib.len()).sum();
    let vsan = match &e.vsan_alone {
        Some(v) => {
            let hosts_usd = hosts_cost(
                v.clusters.iter().map(|c| (c.sku.as_str(), c.hosts)),
                &e.prices,
                at.hours,
            );
            let mut delivers = Delivers::default();
            for c in &v.clusters {
                delivers.vsan.0 += c.predicted_iops.unwrap_or(0.0);
                delivers.vsan.1 += c.predicted_throughput_mibps.unwrap_or(0.0);
            }
            DesignCost {
                design: Design::Vsan,
                feasible: true,
                hosts: v.hosts,
                clusters: v.cluster_count,
                private_clouds: v.private_clouds,
                hosts_usd,
                total: hosts_usd,
                vsan_gib: data,
                vms_vsan: vms,
                delivers,
                ..unknown(Design::Vsan)
            }
        }
        None => DesignCost {
            refused: e.vsan_alone_refused.as_ref().map(ToString::to_string),
            ..unknown(Design::Vsan)
        },
    };
    let anf = with_anf(e, Design::Anf, (gateway, pooling), at);
    // Searched on every cluster (a point, or refused: no split meets its targets); not
    // where a host price or the vSAN settings are missing.
    let searched = choices.iter().all(|c| {
        c.other().is_some_and(|v| {
            v.point(Design::Hybrid).is_some() || v.refused(Design::Hybrid).is_some()
        })
    });
    let mut hybrid = if searched {
        with_anf(e, Design::Hybrid, (gateway, pooling), at)
    } else {
        unknown(Design::Hybrid)
    };
    if hybrid.feasible
        && let (Some(v), Some(h)) = (vsan.total, hybrid.total)
        && v <= h + 1e-9
    {
        hybrid = DesignCost {
            design: Design::Hybrid,
            collapsed: true,
            ..vsan.clone()
        };
    }
    Some([vsan, anf, hybrid])
}

/// ANF for all or the hybrid (not collapsed): hosts at each cluster's SKU price, ANF (its
/// planned cost where planned, else the cheaper of the clusters' pay-as-you-go costs with
/// their shared pools' rounding and with a pool per cluster), gateways for its private
/// clouds with ANF.
fn with_anf(
    e: &SkuEstate,
    design: Design,
    (gateway, pooling): (&GatewayLine, Pooling),
    at: Costing,
) -> DesignCost {
    let Some(choices) = e.choices.as_ref() else {
        return unknown(design);
    };
    let sizing = design_sizing(e, design, at);
    let mut d = DesignCost {
        feasible: true,
        hosts: sizing.hosts,
        clusters: sizing.clusters.len() as u32,
        private_clouds: sizing.private_clouds.len() as u32,
        hosts_usd: hosts_cost(sku_hosts(&sizing), &e.prices, at.hours),
        hosts_added: sizing.clusters.iter().any(|c| c.hosts > c.compute_hosts()),
        ..unknown(design)
    };
    let mut anf_clusters = Vec::new();
    let mut members: Vec<Member> = Vec::new();
    let mut own_usd = 0.0;
    for (c, choice) in sizing.clusters.iter().zip(choices) {
        let Some(v) = choice.variant_for(c) else {
            return unknown(design);
        };
        if v.point(design).is_none() {
            // ANF for all whose datastores cannot meet a cluster's targets, or a hybrid no
            // split of whose cluster meets them.
            return DesignCost {
                refused: v.refused(design).map(|r| r.error().to_string()),
                ..unknown(design)
            };
        }
        let n = choice.data_gib.len();
        let (on_anf, anf_usd) = v.on_anf(design, n);
        if let Some(p) = v.anf_pool(design).filter(|_| !on_anf.is_empty()) {
            members.push(p.member);
            own_usd += p.own_usd_per_month;
        }
        let anf_gib = choice.data(&on_anf);
        if let Some(p) = v.predicted(design) {
            d.delivers.add(&p);
        }
        d.anf_usd += anf_usd;
        d.anf_gib += anf_gib;
        d.vsan_gib += choice.data_gib.iter().sum::<f64>() - anf_gib;
        d.vms_anf += on_anf.len();
        d.vms_vsan += n - on_anf.len();
        if !on_anf.is_empty() {
            anf_clusters.push(c.private_cloud.as_str());
        }
    }
    if !members.is_empty() {
        let rounding = rounding_usd_per_month(&members, pooling.limits, pooling.prices);
        let sizing = PoolSizing {
            shared_usd_per_month: round_cents(d.anf_usd + rounding),
            own_usd_per_month: round_cents(own_usd),
        };
        d.anf_usd = sizing.chosen_usd_per_month();
        d.pool_sizing = Some(sizing);
    }
    if let Some(p) = e.planned.get(&design) {
        d.anf_usd = p.plans.total.cost_usd_per_month;
        d.delivers.anf = planned_delivers(&p.plans);
    }
    d.anf_usd = round_cents(d.anf_usd);
    anf_clusters.sort_unstable();
    anf_clusters.dedup();
    (d.gateways, d.gateway_usd) = gateways(gateway, anf_clusters.len() as u32);
    d.total = d
        .hosts_usd
        .map(|h| round_cents(h + d.anf_usd + d.gateway_usd));
    d
}

/// What a planned ANF side delivers: its clusters' small-block IOPS and large-block MiB/s
/// predictions added.
pub(super) fn planned_delivers(plans: &ClusterPlans) -> (f64, f64) {
    plans.clusters.iter().fold((0.0, 0.0), |(i, m), c| {
        let p = &c.plan.performance;
        (i + p.small_block.iops, m + p.large_block.throughput_mibps)
    })
}

/// The design a SKU is compared on: `forced`, else the cheapest feasible with a total
/// (ties: vSAN alone, then ANF for all), else (no totals) ANF for all where it can be
/// built, else vSAN alone, else the hybrid that can, else ANF for all.
pub(super) fn pick(costs: &[DesignCost], forced: Option<Design>) -> Design {
    if let Some(d) = forced {
        return d;
    }
    let mut best: Option<(&DesignCost, f64)> = None;
    for d in costs.iter().filter(|d| d.feasible) {
        let Some(t) = d.total else { continue };
        if best.is_none_or(|(_, b)| t < b - 1e-9) {
            best = Some((d, t));
        }
    }
    if let Some((d, _)) = best {
        return d.design;
    }
    // Without totals: ANF for all where it can be built, else the first that can.
    [Design::Anf, Design::Vsan, Design::Hybrid]
        .into_iter()
        .find(|&d| costs.iter().any(|c| c.design == d && c.feasible))
        .unwrap_or(Design::Anf)
}

/// The estate's clusters in `design` (see the module docs): each cluster with VMs at the
/// hosts the design gives it in its place (ANF for all: raised to the hosts its
/// datastores need; the hybrid: its point's hosts; vSAN alone: its compute hosts),
/// private clouds packed with their first clusters, and (AV64 Gen 1) a cluster moved to a
/// first-cluster SKU or one added. Before the SKU is costed: its compute sizing.
pub(super) fn design_sizing(e: &SkuEstate, design: Design, at: Costing) -> EstateSizing {
    let mut sizing = e.sizing.clone();
    let Some(choices) = e.choices.as_ref() else {
        return sizing;
    };
    for (c, choice) in sizing.clusters.iter_mut().zip(choices) {
        let Some(other) = choice.other() else {
            continue;
        };
        let (first, extra) = match choice.first() {
            Some(f) => (f.raise(design), f.extra_cents(other, design, at.hours)),
            None => (Raise::default(), 0),
        };
        c.set_design_hosts(other.raise(design), first, extra);
    }
    sizing.assign_private_clouds(at.limits);
    super::seed::move_first_clusters(e, choices, design, &mut sizing, at);
    sizing
}

/// The estate's clusters as `design`'s plan shows them: vSAN alone's grown clusters
/// ([`SkuEstate::vsan_alone_sizing`]: split past 16 hosts, with the first clusters it adds)
/// for vSAN alone and a hybrid that is vSAN alone, else [`design_sizing`].
pub(super) fn plan_sizing(e: &SkuEstate, design: Design, at: Costing) -> EstateSizing {
    let alone = design == Design::Vsan || e.cost(design).is_some_and(|c| c.collapsed);
    match &e.vsan_alone_sizing {
        Some(s) if alone => s.clone(),
        _ => design_sizing(e, design, at),
    }
}

/// The ANF side of `design`: one demand per cluster with VMs on ANF (its hosts, where they
/// come from and its SKU's performance system), or `None` when the design puts nothing on
/// ANF.
pub(super) fn design_split(
    ctx: &StorageContext,
    e: &SkuEstate,
    design: Design,
) -> Option<ClusterDemands> {
    let choices = e.choices.as_ref()?;
    if e.cost(design).is_some_and(|c| c.collapsed) {
        // The hybrid is vSAN alone: nothing on ANF.
        return None;
    }
    let sizing = design_sizing(e, design, ctx.costing());
    let zero_share = 1.0 / choices.len().max(1) as f64;
    let own = ctx.estate.targets_from_perf;
    let mut clusters = Vec::new();
    for (c, choice) in sizing.clusters.iter().zip(choices) {
        let v = choice.variant_for(c)?;
        let (positions, _) = v.on_anf(design, choice.data_gib.len());
        if positions.is_empty() {
            continue;
        }
        let indices: Vec<usize> = positions
            .iter()
            .filter_map(|&p| c.vm_indices.get(p).copied())
            .collect();
        let source = super::sources::hosts_source(c);
        clusters.push(cluster_demand(
            ctx.demand,
            (&c.name, &indices, None),
            (zero_share, own),
            (c.hosts, source),
            &v.perf_system,
        ));
    }
    if clusters.is_empty() {
        return None;
    }
    Some(ClusterDemands {
        clusters,
        vms_without_cluster: 0,
        vms_without_cluster_capacity_gib: 0.0,
        // The estate plan lists the excluded VMs once, from the estate's demand.
        excluded: Vec::new(),
    })
}

/// Each design's cluster choices, for a report: the variant `design` gives each cluster
/// with VMs, beside its choice.
pub(super) fn design_variants<'a>(
    e: &'a SkuEstate,
    design: Design,
    at: Costing,
) -> Vec<Option<&'a super::choices::Variant>> {
    let Some(choices) = e.choices.as_ref() else {
        return Vec::new();
    };
    let sizing = design_sizing(e, design, at);
    sizing
        .clusters
        .iter()
        .zip(choices)
        .map(|(c, choice)| choice.variant_for(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(design: Design, total: Option<f64>) -> DesignCost {
        DesignCost {
            feasible: true,
            total,
            ..unknown(design)
        }
    }

    #[test]
    fn pick_takes_the_cheapest_ties_to_the_simpler_and_honours_forced() {
        let all = [
            cost(Design::Vsan, Some(100.0)),
            cost(Design::Anf, Some(100.0)),
            cost(Design::Hybrid, Some(100.0)),
        ];
        assert_eq!(pick(&all, None), Design::Vsan);
        let all = [
            cost(Design::Vsan, Some(101.0)),
            cost(Design::Anf, Some(100.0)),
            cost(Design::Hybrid, Some(99.99)),
        ];
        assert_eq!(pick(&all, None), Design::Hybrid);
        assert_eq!(pick(&all, Some(Design::Vsan)), Design::Vsan);
        // Without totals (no host price): ANF for all.
        let none = [
            cost(Design::Vsan, None),
            cost(Design::Anf, None),
            unknown(Design::Hybrid),
        ];
        assert_eq!(pick(&none, None), Design::Anf);
        // Without totals and ANF for all refused: the design that can be built.
        let refused = DesignCost {
            feasible: false,
            ..unknown(Design::Anf)
        };
        let none = [cost(Design::Vsan, None), refused, unknown(Design::Hybrid)];
        assert_eq!(pick(&none, None), Design::Vsan);
    }
}

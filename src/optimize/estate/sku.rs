//! One host SKU's estate ([`SkuEstate`]: its sizing, each cluster's designs, the design it
//! is compared on and that design's storage plan, the same estate on vSAN alone, the host
//! prices of its SKU and of its first clusters' SKUs) and the arithmetic of its costs; the
//! estate plan's settings beyond the optimizer's ([`EstateOptions`]).

use std::collections::BTreeMap;

use super::choices::ClusterChoice;
use super::cost::DesignCost;
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterPlans, Design, EstatePool, SkuHosts};
use crate::sizing::{EstateSizing, HostPrices, HostTerm, SizingOptions, VsanAlone};
use crate::vsan::VsanOptions;

/// The settings of an estate plan beyond the optimizer's. `#[non_exhaustive]`: outside
/// this crate, built from [`EstateOptions::default`] and its chaining setters
/// (`EstateOptions::default().host_sku("av64").design(Design::Anf)`).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct EstateOptions {
    /// How hosts are sized and VMs grouped.
    pub sizing: SizingOptions,
    /// Only this host SKU (`None`: every SKU of `data/avs_hosts.csv`, the cheapest total
    /// chosen).
    pub host_sku: Option<String>,
    /// How hosts are bought.
    pub host_term: HostTerm,
    /// Host prices.
    pub host_prices: HostPrices,
    /// The vSAN-alone comparison's settings (`None`: not compared).
    pub vsan: Option<VsanOptions>,
    /// Each cluster's targets are its own VMs' per-VM figures (the estate's targets came
    /// from them), not its capacity share of the estate's targets.
    pub targets_from_perf: bool,
    /// The design forced (`None`: the cheapest of vSAN alone, ANF for all and hybrid).
    pub design: Option<Design>,
    /// ExpressRoute gateways the customer already has (not bought).
    pub existing_er_gateways: u32,
}

crate::setters::setters!(EstateOptions {
    sizing: is: SizingOptions;
    host_sku: SomeInto(String);
    host_term: is: HostTerm;
    host_prices: is: HostPrices;
    vsan: Maybe(VsanOptions);
    targets_from_perf: is: bool;
    design: Maybe(Design);
    existing_er_gateways: is: u32;
});

/// A design's ANF side as planned: its clusters' plans (the estate's reservations bought
/// on the shared pools' hot TiB) and the estate's pools.
#[derive(Debug, Clone)]
pub(super) struct Storage {
    pub(super) plans: ClusterPlans,
    pub(super) pools: Vec<EstatePool>,
}

/// One SKU's estate: its sizing, each cluster's designs once costed, and the storage plan
/// of the design it is compared on once planned.
pub(super) struct SkuEstate {
    /// The clusters sized for compute, each private cloud's first cluster holding the
    /// management reservation (for AV64 in a Gen 1 private cloud, an added seed cluster);
    /// each design re-sizes it ([`super::designs::design_sizing`]).
    pub(super) sizing: EstateSizing,
    /// Each cluster's designs, once costed: one per cluster with VMs, in the sizing's
    /// order (the clusters added without VMs come after them).
    pub(super) choices: Option<Vec<ClusterChoice>>,
    /// Its three designs' costs, once costed.
    pub(super) costs: Option<[DesignCost; 3]>,
    /// The design it is compared on (the cheapest, or `design`).
    pub(super) design: Design,
    /// The ANF side's storage plan of designs planned (with a reservation or peak months
    /// both ANF designs are, so the designs compare on their planned costs).
    pub(super) planned: BTreeMap<Design, Storage>,
    /// The estate on vSAN alone: of the compute sizing, then, once costed, of the vSAN
    /// design's sizing (its own first clusters).
    pub(super) vsan_alone: Option<VsanAlone>,
    /// vSAN alone's clusters as AVS clusters: grown, split past 16 hosts, placed in
    /// private clouds with the first clusters it adds (what a plan on vSAN alone shows).
    pub(super) vsan_alone_sizing: Option<EstateSizing>,
    /// Why vSAN alone cannot be built on it (a VM whose data no one cluster holds).
    pub(super) vsan_alone_refused: Option<crate::vsan::VsanError>,
    /// The SKU's own host price, USD per hour.
    pub(super) host_usd_per_hour: Option<f64>,
    /// The host prices of the SKU and of the SKUs its private clouds' first clusters may
    /// be of (AV64 in a Gen 1 private cloud), USD per hour, where known.
    pub(super) prices: BTreeMap<String, f64>,
    /// The SKUs a private cloud's first cluster must be of before this SKU can be added
    /// (`first_cluster_skus` in `data/avs_hosts.csv`; empty: it can be first itself).
    pub(super) first_cluster_skus: Vec<String>,
}

impl SkuEstate {
    /// The cost of `design`, when costed.
    pub(super) fn cost(&self, design: Design) -> Option<&DesignCost> {
        self.costs.as_ref()?.iter().find(|c| c.design == design)
    }

    /// Hosts of `sizing`'s clusters by SKU (this SKU's first, then the others by name),
    /// each with its price and monthly cost where the price is known.
    pub(super) fn hosts_by_sku<'a>(
        &self,
        clusters: impl IntoIterator<Item = (&'a str, u32)>,
        hours: f64,
    ) -> Vec<SkuHosts> {
        let mut by: BTreeMap<&str, u32> = BTreeMap::new();
        for (sku, hosts) in clusters {
            let n = by.entry(sku).or_default();
            *n = n.saturating_add(hosts);
        }
        let own = self.sizing.sku.as_str();
        let mut out: Vec<SkuHosts> = by
            .into_iter()
            .map(|(sku, hosts)| {
                let usd_per_hour = self.prices.get(sku).copied();
                SkuHosts {
                    sku: sku.to_string(),
                    hosts,
                    usd_per_hour,
                    usd_per_month: usd_per_hour.map(|p| round_cents(f64::from(hosts) * p * hours)),
                }
            })
            .collect();
        out.sort_by_key(|h| h.sku != own);
        out
    }

    /// Its compute sizing's hosts' monthly cost, each at its SKU's price (x `hours`), in
    /// cents; `None` when a SKU with hosts has no price.
    pub(super) fn hosts_usd_per_month(&self, hours: f64) -> Option<f64> {
        hosts_cost(sku_hosts(&self.sizing), &self.prices, hours)
    }

    /// Its hosts on vSAN alone, each at its SKU's price (x `hours`), in cents; `None`
    /// without the comparison or when a SKU with hosts has no price.
    pub(super) fn vsan_alone_usd_per_month(&self, hours: f64) -> Option<f64> {
        let v = self.vsan_alone.as_ref()?;
        let counts = v.clusters.iter().map(|c| (c.sku.as_str(), c.hosts));
        hosts_cost(counts, &self.prices, hours)
    }
}

/// Each cluster of `sizing` as (SKU, hosts).
pub(super) fn sku_hosts(sizing: &EstateSizing) -> impl Iterator<Item = (&str, u32)> {
    sizing.clusters.iter().map(|c| (c.sku.as_str(), c.hosts))
}

/// Monthly cost of hosts of several SKUs, `(sku, hosts)` each at `prices[sku]` x `hours`,
/// in cents; `None` when one of them has no price.
pub(super) fn hosts_cost<'a>(
    hosts: impl IntoIterator<Item = (&'a str, u32)>,
    prices: &BTreeMap<String, f64>,
    hours: f64,
) -> Option<f64> {
    let mut usd = 0.0;
    for (sku, n) in hosts {
        usd += f64::from(n) * prices.get(sku)? * hours;
    }
    Some(round_cents(usd))
}

/// Hosts + ANF + gateways of a feasible SKU's design, USD per month, where the host prices
/// are known.
pub(super) fn total(e: &SkuEstate) -> Option<f64> {
    e.cost(e.design)?.total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal.
    #[test]
    fn setters_set_their_own_field() {
        let sizing = SizingOptions::default().ha_hosts(2);
        let prices = HostPrices {
            region: "westeurope".into(),
            ..HostPrices::default()
        };
        let vsan = VsanOptions::default().slack_pct(30.0);
        let by_hand = EstateOptions {
            sizing: sizing.clone(),
            host_sku: Some("av64".into()),
            host_term: HostTerm::OneYear,
            host_prices: prices.clone(),
            vsan: Some(vsan.clone()),
            targets_from_perf: true,
            design: Some(Design::Hybrid),
            existing_er_gateways: 2,
        };
        let set = EstateOptions::default()
            .sizing(sizing)
            .host_sku("av64")
            .host_term(HostTerm::OneYear)
            .host_prices(prices)
            .vsan(vsan)
            .targets_from_perf(true)
            .design(Design::Hybrid)
            .existing_er_gateways(2);
        assert_eq!(set, by_hand);
        assert_eq!(set.clone().vsan(None).design(None).vsan, None);
        assert_ne!(set, EstateOptions::default());
    }
}

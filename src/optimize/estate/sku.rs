//! One host SKU's estate ([`SkuEstate`]: its sizing, its storage plan when planned, the
//! same estate on vSAN alone, its host price) and the arithmetic of its costs; the
//! estate plan's settings beyond the optimizer's ([`EstateOptions`]).

use std::collections::BTreeMap;

use crate::demand::ClusterDemands;
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterPlans, SkuHosts};
use crate::sizing::{EstateSizing, HostPrices, HostTerm, SizingOptions, VsanAlone};
use crate::vsan::VsanOptions;

/// The settings of an estate plan beyond the optimizer's.
#[derive(Debug, Clone, PartialEq, Default)]
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
}

/// One SKU's estate: its sizing, and its storage plan when planned.
pub(super) struct SkuEstate {
    pub(super) sizing: EstateSizing,
    /// The clusters' storage plans (only SKUs whose total can be compared are planned).
    pub(super) storage: Option<ClusterPlans>,
    /// The ANF cost of its clusters, USD per month, when only costed (not planned).
    pub(super) anf_costed_usd_per_month: Option<f64>,
    /// Its clusters' demands, built when costed (with the hosts their datastores need), for
    /// its storage plan.
    pub(super) split: Option<ClusterDemands>,
    pub(super) vsan_alone: Option<VsanAlone>,
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
    /// The ANF cost of its clusters, USD per month: its storage plan's, else its cost
    /// alone; `None` when neither was worked out.
    pub(super) fn anf_usd_per_month(&self) -> Option<f64> {
        self.storage
            .as_ref()
            .map(|s| s.total.cost_usd_per_month)
            .or(self.anf_costed_usd_per_month)
    }

    /// Its hosts by SKU (the SKU's own first, then the others by name), each with its
    /// price and monthly cost where the price is known.
    pub(super) fn hosts_by_sku(&self, hours: f64) -> Vec<SkuHosts> {
        let mut by: BTreeMap<&str, u32> = BTreeMap::new();
        for c in &self.sizing.clusters {
            let n = by.entry(c.sku.as_str()).or_default();
            *n = n.saturating_add(c.hosts);
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

    /// Its hosts on vSAN alone, each at its SKU's price (x `hours`), in cents; `None`
    /// without the comparison or when a SKU with hosts has no price.
    pub(super) fn vsan_alone_usd_per_month(&self, hours: f64) -> Option<f64> {
        let v = self.vsan_alone.as_ref()?;
        let counts = v.clusters.iter().map(|c| (c.sku.as_str(), c.hosts));
        hosts_cost(counts, &self.prices, hours)
    }

    /// Its hosts' monthly cost, each at its SKU's price (x `hours`), in cents; `None` when
    /// a SKU with hosts has no price.
    pub(super) fn hosts_usd_per_month(&self, hours: f64) -> Option<f64> {
        let counts = self
            .sizing
            .clusters
            .iter()
            .map(|c| (c.sku.as_str(), c.hosts));
        hosts_cost(counts, &self.prices, hours)
    }
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

/// Hosts + ANF of a feasible SKU, USD per month, where the host prices are known.
pub(super) fn total(e: &SkuEstate, hours: f64) -> Option<f64> {
    let anf = e.anf_usd_per_month()?;
    e.hosts_usd_per_month(hours).map(|h| round_cents(h + anf))
}

//! One host SKU's estate ([`SkuEstate`]: its sizing, its storage plan when planned, the
//! same estate on vSAN alone, its host price) and the arithmetic of its costs; the
//! estate plan's settings beyond the optimizer's ([`EstateOptions`]).

use crate::demand::ClusterDemands;
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterPlans, EstatePool};
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
    /// The shared pools of its storage plan (empty until planned).
    pub(super) pools: Vec<EstatePool>,
    /// Its ANF cost with shared pools and with a pool per cluster, when costed: the
    /// cheaper is planned.
    pub(super) pool_sizing: Option<super::pools::PoolSizing>,
    /// The ANF cost of its clusters, USD per month, when only costed (not planned).
    pub(super) anf_costed_usd_per_month: Option<f64>,
    /// Its clusters' demands, built when costed (with the hosts their datastores need), for
    /// its storage plan.
    pub(super) split: Option<ClusterDemands>,
    pub(super) vsan_alone: Option<VsanAlone>,
    pub(super) host_usd_per_hour: Option<f64>,
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
}

/// Hosts' monthly cost: hosts x USD per hour x hours per month, in cents.
pub(super) fn hosts_cost(hosts: u32, usd_per_hour: Option<f64>, hours: f64) -> Option<f64> {
    usd_per_hour.map(|p| round_cents(f64::from(hosts) * p * hours))
}

/// Hosts + ANF of a feasible SKU, USD per month, where the host price is known.
pub(super) fn total(e: &SkuEstate, hours: f64) -> Option<f64> {
    let anf = e.anf_usd_per_month()?;
    hosts_cost(e.sizing.hosts, e.host_usd_per_hour, hours).map(|h| round_cents(h + anf))
}

//! One host SKU's estate ([`SkuEstate`]: its sizing, each cluster's designs, the design it
//! is compared on and that design's storage plan, the same estate on vSAN alone, its host
//! price) and the arithmetic of its costs; the estate plan's settings beyond the
//! optimizer's ([`EstateOptions`]).

use std::collections::BTreeMap;

use super::designs::{ClusterChoice, DesignCost};
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterPlans, Design};
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
    /// The design forced (`None`: the cheapest of vSAN alone, ANF for all and hybrid).
    pub design: Option<Design>,
    /// ExpressRoute gateways the customer already has (not bought).
    pub existing_er_gateways: u32,
}

/// One SKU's estate: its sizing, each cluster's designs once costed, and the storage plan
/// of the design it is compared on once planned.
pub(super) struct SkuEstate {
    /// The clusters sized for compute.
    pub(super) sizing: EstateSizing,
    /// Each cluster's designs (ANF for all, hybrid), once costed.
    pub(super) choices: Option<Vec<ClusterChoice>>,
    /// Its three designs' costs, once costed.
    pub(super) costs: Option<[DesignCost; 3]>,
    /// The design it is compared on (the cheapest, or `design`).
    pub(super) design: Design,
    /// The ANF side's storage plan of designs planned (with a reservation or peak months
    /// both ANF designs are, so the designs compare on their planned costs).
    pub(super) planned: BTreeMap<Design, ClusterPlans>,
    pub(super) vsan_alone: Option<VsanAlone>,
    pub(super) host_usd_per_hour: Option<f64>,
}

impl SkuEstate {
    /// The cost of `design`, when costed.
    pub(super) fn cost(&self, design: Design) -> Option<&DesignCost> {
        self.costs.as_ref()?.iter().find(|c| c.design == design)
    }
}

/// Hosts' monthly cost: hosts x USD per hour x hours per month, in cents.
pub(super) fn hosts_cost(hosts: u32, usd_per_hour: Option<f64>, hours: f64) -> Option<f64> {
    usd_per_hour.map(|p| round_cents(f64::from(hosts) * p * hours))
}

/// Hosts + ANF + gateways of a feasible SKU's design, USD per month, where the host price
/// is known.
pub(super) fn total(e: &SkuEstate) -> Option<f64> {
    e.cost(e.design)?.total
}

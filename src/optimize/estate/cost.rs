//! One design of one SKU's estate in figures ([`DesignCost`]), what costing and pooling a
//! design need ([`Costing`], [`Pooling`]), and a design's year ([`year`]): the plain types
//! the designs, the SKU's estate and the reports share.

use super::point::Delivers;
use super::pools::PoolSizing;
use crate::catalog::{Limits, RegionPrices};
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterPlans, Design};
use crate::vsan::AvsLimits;

/// One design of one SKU's estate, in figures.
#[derive(Debug, Clone)]
pub(super) struct DesignCost {
    pub(super) design: Design,
    /// Whether it was worked out (vSAN alone and the hybrid need the vSAN settings and,
    /// for the hybrid, a host price).
    pub(super) feasible: bool,
    pub(super) hosts: u32,
    pub(super) clusters: u32,
    pub(super) private_clouds: u32,
    pub(super) hosts_usd: Option<f64>,
    pub(super) anf_usd: f64,
    pub(super) gateways: u32,
    pub(super) gateway_usd: f64,
    pub(super) total: Option<f64>,
    pub(super) vsan_gib: f64,
    pub(super) anf_gib: f64,
    pub(super) vms_vsan: usize,
    pub(super) vms_anf: usize,
    /// The hybrid is vSAN alone: no cluster's split saves the gateways' cost.
    pub(super) collapsed: bool,
    /// It gives a cluster hosts beyond its compute hosts (ANF for all and the hybrid; vSAN
    /// alone grows by design).
    pub(super) hosts_added: bool,
    /// Its ANF split with shared pools and with a pool per cluster, pay as you go (`None`
    /// without data on ANF): the cheaper is its ANF figure until planned, and how it is
    /// planned.
    pub(super) pool_sizing: Option<PoolSizing>,
    /// What its storage delivers, its clusters added (the ANF side its plan's where
    /// planned).
    pub(super) delivers: Delivers,
    /// Why it cannot be built, when that is known (a VM whose data no one vSAN cluster
    /// holds; a cluster whose datastores, or whose splits between vSAN and ANF, cannot
    /// meet its targets).
    pub(super) refused: Option<String>,
}

/// What costing a design needs beyond the SKU: the AVS limits and the hours in a month.
#[derive(Clone, Copy)]
pub(super) struct Costing<'a> {
    pub(super) limits: &'a AvsLimits,
    pub(super) hours: f64,
}

/// What sharing a design's pools needs: the ANF limits (pool sizes, 1 TiB increments) and
/// the region's capacity prices.
#[derive(Clone, Copy)]
pub(super) struct Pooling<'a> {
    pub(super) limits: &'a Limits,
    pub(super) prices: &'a RegionPrices,
}

/// A design not worked out.
pub(super) fn unknown(design: Design) -> DesignCost {
    DesignCost {
        design,
        feasible: false,
        hosts: 0,
        clusters: 0,
        private_clouds: 0,
        hosts_usd: None,
        anf_usd: 0.0,
        gateways: 0,
        gateway_usd: 0.0,
        total: None,
        vsan_gib: 0.0,
        anf_gib: 0.0,
        vms_vsan: 0,
        vms_anf: 0,
        collapsed: false,
        hosts_added: false,
        pool_sizing: None,
        delivers: Delivers::default(),
        refused: None,
    }
}

/// A year of a design: 12 x its hosts and gateways, and its ANF year
/// ([`ClusterPlans::year_usd`]; 12 x
/// `anf_usd` when not planned), USD; `None` without the host price.
pub(super) fn year(cost: &DesignCost, storage: Option<&ClusterPlans>) -> Option<f64> {
    let anf = storage.map_or(12.0 * cost.anf_usd, ClusterPlans::year_usd);
    cost.hosts_usd
        .map(|h| round_cents(12.0 * h + anf + 12.0 * cost.gateway_usd))
}

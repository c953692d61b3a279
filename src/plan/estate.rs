//! The estate plan: AVS hosts and clusters sized from compute, each cluster's datastores,
//! the capacity pools they share, and the cost against vSAN alone (the JSON of
//! `dsplan plan` without `--hosts` or `--per-cluster`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Assumption, ClusterPlan, ReservationPurchase};
use crate::catalog::ServiceLevel;
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::sizing::{EstateSizing, HostTerm, VsanAlone};

/// Hosts by what decides their cluster's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct HostsByDriver {
    /// Hosts of clusters sized by vCPU.
    pub vcpu: u32,
    /// Hosts of clusters sized by memory.
    pub memory: u32,
    /// Hosts of clusters at the AVS minimum.
    pub minimum: u32,
    /// Hosts of clusters raised for their datastores' IOPS and MiB/s.
    #[serde(default)]
    pub storage: u32,
}

/// How much of the hosts and the storage the plan uses, as the Azure Migrate AVS
/// assessment reports the CPU, memory and storage utilisation of the nodes it recommends
/// (learn.microsoft.com/azure/migrate/concepts-azure-vmware-solution-assessment-calculation,
/// 2024-12-06), per AVS cluster and for the estate. Every host counts, the HA reserve
/// included (so a cluster sized by vCPU with one HA host is at most (n - 1) / n).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Utilisation {
    /// The VMs' vCPUs over the hosts' (hosts x cores x `vcpu_per_core`), percent.
    pub vcpu_pct: f64,
    /// The VMs' memory (on the sizing's memory basis) over what the hosts offer VMs (hosts
    /// x (RAM - the ESXi overhead) x `memory_overcommit`), percent.
    pub memory_pct: f64,
    /// The data on the storage over the capacity provisioned for it, percent: for ANF
    /// datastores, the VMs' data placed (before growth, snapshot reserve and headroom) over
    /// the pools provisioned (a cluster: its pools of its own and its shares' quotas; the
    /// estate: the pools' sizes, rounding included).
    pub storage_pct: f64,
}

/// What the estate's datastores are predicted to deliver, beside its targets.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct EstatePerformance {
    /// The estate's IOPS target (each cluster carries its capacity share, or its VMs'
    /// per-VM sums).
    pub iops_target: f64,
    /// The estate's MiB/s target.
    pub throughput_target_mibps: f64,
    /// The clusters' predicted small-block IOPS added (each cluster's plan's prediction:
    /// its layout's flows and ceilings, capped by its pools' QoS).
    pub predicted_iops: f64,
    /// The clusters' predicted large-block MiB/s added.
    pub predicted_throughput_mibps: f64,
    /// No IOPS or MiB/s target (none given, no per-VM figures): the plan is sized for
    /// capacity only and the predictions are what the pools' QoS and the layout give.
    pub capacity_only: bool,
}

/// The estate in figures: hosts, clusters, pools, costs, and vSAN alone beside them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EstateSummary {
    /// Host SKU chosen (the lowest total cost of those priced, or `host_sku`).
    pub sku: String,
    /// AVS hosts over all clusters, HA reserve included.
    pub hosts: u32,
    /// The same hosts by what sizes their cluster.
    pub hosts_by_driver: HostsByDriver,
    /// AVS clusters.
    pub clusters: usize,
    /// Private clouds.
    pub private_clouds: usize,
    /// Capacity pools (shared across clusters per service level and cool access, at most
    /// 2,048 TiB each; Flexible pools stay one per cluster).
    pub pools: usize,
    /// NetApp accounts those pools need (25 pools each by default).
    pub netapp_accounts: u32,
    /// Datastores over all clusters.
    pub datastores: u32,
    /// Provisioned pool capacity, TiB.
    pub pool_size_tib: u32,
    /// VMs placed.
    pub vms_placed: usize,
    /// VMs excluded (listed once, in `excluded`).
    pub vms_excluded: usize,
    /// Capacity of the placed VMs, GiB.
    pub placed_capacity_gib: f64,
    /// How the hosts are bought.
    pub host_term: HostTerm,
    /// Price of one host, USD per hour, where known.
    pub host_usd_per_hour: Option<f64>,
    /// Where that price comes from: `data/avs_host_prices.csv row N: ...` (the plan
    /// region's list price) or the host price file, its row and its `source` text; `None`
    /// when the host price is unknown.
    #[serde(default)]
    pub host_price_source: Option<String>,
    /// The headline's words on the host price: the region's own price and its source,
    /// another region's (saying whose), or why there is none; then the other SKUs without
    /// a price in the region (sized only).
    #[serde(default)]
    pub host_price_note: String,
    /// Hosts, USD per month (x 730 h); `None` when the host price is unknown.
    pub hosts_usd_per_month: Option<f64>,
    /// ANF (every cluster's pools, with the estate's reservations), USD per month.
    pub anf_usd_per_month: f64,
    /// Hosts + ANF, USD per month; `None` when the host price is unknown.
    pub total_usd_per_month: Option<f64>,
    /// A year of hosts and ANF: 12 x the hosts, each cluster's yearly ANF cost (its
    /// time-phased yearly cost with `peak_months`, else 12 months) less the estate's
    /// reservations, plus the one-time first-month cool transfer, USD per year.
    pub total_usd_per_year: Option<f64>,
    /// One-time transfer of the cold data into the cool tier, first month, USD.
    pub first_month_cool_transfer_usd: f64,
    /// Hosts of the same estate on vSAN alone (`None` without the vSAN comparison).
    pub vsan_alone_hosts: Option<u32>,
    /// Hosts on vSAN alone, USD per month, where the price is known.
    pub vsan_alone_usd_per_month: Option<f64>,
    /// vSAN alone less hosts + ANF, USD per month (positive: ANF saves).
    pub savings_usd_per_month: Option<f64>,
    /// 12 x vSAN alone less `total_usd_per_year`, USD per year.
    pub savings_usd_per_year: Option<f64>,
    /// What the datastores are predicted to deliver, beside the targets.
    #[serde(default)]
    pub performance: EstatePerformance,
    /// The estate's hosts and pools in use: all clusters' VMs over all hosts, the data
    /// placed over all pools.
    #[serde(default)]
    pub utilisation: Utilisation,
}

/// One host SKU's estate, beside the chosen one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SkuAlternative {
    /// Host SKU.
    pub sku: String,
    /// Whether the estate can be built on it (every VM fits one host).
    pub feasible: bool,
    /// Whether it is the plan's.
    pub chosen: bool,
    /// Hosts (0 when infeasible).
    pub hosts: u32,
    /// AVS clusters.
    pub clusters: usize,
    /// Private clouds.
    pub private_clouds: usize,
    /// Price of one host, USD per hour, where known.
    pub host_usd_per_hour: Option<f64>,
    /// Hosts, USD per month, where the price is known.
    pub hosts_usd_per_month: Option<f64>,
    /// ANF, USD per month (`None` when infeasible).
    pub anf_usd_per_month: Option<f64>,
    /// Hosts + ANF, USD per month, where both are known.
    pub total_usd_per_month: Option<f64>,
    /// Hosts on vSAN alone.
    pub vsan_alone_hosts: Option<u32>,
    /// Hosts on vSAN alone, USD per month, where the price is known.
    pub vsan_alone_usd_per_month: Option<f64>,
    /// `chosen`, why not, or why infeasible.
    pub note: String,
}

/// A capacity pool of the estate, shared by the clusters whose datastores it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EstatePool {
    /// Pool name (`pool-premium-1`; the clusters' plans name their pool so).
    pub name: String,
    /// NetApp account (`netapp-account-1`; 25 pools each).
    pub account: String,
    /// Service level.
    pub service_level: ServiceLevel,
    /// Cool access enabled.
    pub cool_access: bool,
    /// Provisioned size, TiB: its datastores' quotas added and rounded up to whole TiB once
    /// (at least 1, at most 2,048); a Flexible pool, one cluster's own.
    pub size_tib: u32,
    /// Its datastores' quotas added, GiB (whole GiB each; at most `size_tib` x 1,024).
    #[serde(default)]
    pub quota_gib: u64,
    /// The clusters whose datastores it holds.
    pub clusters: Vec<String>,
    /// Their datastores in it.
    pub datastores: u32,
    /// QoS throughput assigned to its datastores, MiB/s (the clusters' shares added; the
    /// rounding up to whole TiB adds throughput no datastore is assigned).
    pub throughput_mibps: f64,
    /// Hot tier, pay as you go: `(size x 1,024 - cold GiB) x the level's price per
    /// GiB-month`, USD per month (the clusters' shares add up to it).
    #[serde(default)]
    pub hot_capacity_cost_usd_per_month: f64,
    /// Monthly cost, pay as you go (the estate's reservations are in `reservations`): the
    /// hot tier and its clusters' cool capacity, cool transfer and Flexible throughput, USD.
    pub cost_usd_per_month: f64,
}

/// vSAN alone, with its cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VsanAloneCost {
    /// Hosts, clusters and private clouds on vSAN alone.
    #[serde(flatten)]
    pub sizing: VsanAlone,
    /// Hosts, USD per month, where the price is known.
    pub usd_per_month: Option<f64>,
    /// Hosts, USD per year, where the price is known.
    pub usd_per_year: Option<f64>,
    /// Where the figures come from, and caveats.
    pub note: String,
}

/// The whole estate: hosts and clusters sized from compute, datastores per cluster, pools
/// shared across clusters, and the cost against vSAN alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EstatePlan {
    /// [`super::SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Pricing region (ARM name).
    pub region: String,
    /// Its display name.
    pub location: String,
    /// The estate in figures.
    pub summary: EstateSummary,
    /// The chosen SKU's hosts, clusters and private clouds.
    pub sizing: EstateSizing,
    /// Every SKU's estate and total, the chosen one marked.
    pub sku_alternatives: Vec<SkuAlternative>,
    /// The capacity pools.
    pub pools: Vec<EstatePool>,
    /// The estate's reservations, one per region and service level that buys units.
    pub reservations: Vec<ReservationPurchase>,
    /// The same estate on vSAN alone (`None` when not asked for).
    pub vsan_alone: Option<VsanAloneCost>,
    /// One storage plan per AVS cluster (its own VMs only).
    pub clusters: Vec<ClusterPlan>,
    /// Settings that shaped the sizing.
    pub assumptions: Vec<Assumption>,
    /// Every excluded VM, once, with its reason.
    pub excluded: Vec<ExcludedVm>,
    /// The estate's warnings (input, demand, sizing, pools together); each cluster's plan
    /// carries its own.
    pub warnings: Vec<Warning>,
}

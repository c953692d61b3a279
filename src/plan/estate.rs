//! The estate plan: AVS hosts and clusters sized from compute, each cluster's datastores,
//! the capacity pools they share, and the cost against vSAN alone (the JSON of
//! `dsplan plan` without `--hosts` or `--per-cluster`).

use serde::{Deserialize, Serialize};

pub use super::designs::{
    ClusterDesign, ClusterDesigns, Design, DesignTotal, EstateDesigns, GatewayLine, UnknownDesign,
};
use super::{Assumption, ClusterPlan, ReservationPurchase};
use crate::catalog::ServiceLevel;
use crate::demand::{ExcludedVm, ExclusionReason};
use crate::inventory::Warning;
pub use crate::sizing::Utilisation;
use crate::sizing::{EstateSizing, HostTerm, VsanAlone};

/// Hosts by what drives them: each cluster's compute hosts (the HA reserve and a first
/// cluster's management reservation included) by what decides them, the hosts a design
/// adds beyond them by why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct HostsByDriver {
    /// Compute hosts of clusters sized by vCPU.
    pub vcpu: u32,
    /// Compute hosts of clusters sized by memory.
    pub memory: u32,
    /// Compute hosts of clusters at the AVS minimum.
    pub minimum: u32,
    /// Hosts added to clusters for their datastores' IOPS and MiB/s, beyond their compute
    /// hosts (which count by vCPU, memory or the minimum).
    #[serde(default)]
    pub storage: u32,
    /// Hosts added to hold data on vSAN, beyond the clusters' compute hosts: the hybrid
    /// design's clusters raised to keep more on vSAN, or vSAN alone's hosts its data's
    /// capacity needs.
    #[serde(default)]
    pub vsan: u32,
    /// Hosts added for the vSAN's performance, beyond the clusters' compute hosts: vSAN
    /// alone's clusters grown until their vSAN carries their share of the IOPS and MiB/s
    /// targets with a host down (more than their data's capacity needs), or the hybrid's
    /// raised for the data it keeps on vSAN to be carried.
    #[serde(default)]
    pub vsan_performance: u32,
}

/// What the chosen design's storage is predicted to deliver, beside the targets: the ANF
/// datastores' predictions (each cluster's plan: its layout's flows and ceilings, capped by
/// its pools' QoS) and the vSAN sides' (each cluster's `vsan-<sku>` envelope at its
/// checked hosts, beside its ANF traffic over the same NICs), each against the share of
/// the targets it carries. Microsoft publishes no IOPS or MiB/s for vSAN on AVS hosts: the
/// envelope is built from the hosts' parts (`data/vsan_performance.csv`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EstatePerformance {
    /// The estate's IOPS target (each cluster carries its capacity share, or its VMs'
    /// per-VM sums).
    pub iops_target: f64,
    /// The estate's MiB/s target.
    pub throughput_target_mibps: f64,
    /// The estate's IOPS target in the peak months (`peak_iops`; 0 without peak months).
    #[serde(default)]
    pub peak_iops_target: f64,
    /// The estate's MiB/s target in the peak months (`peak_throughput_mibps`).
    #[serde(default)]
    pub peak_throughput_target_mibps: f64,
    /// The IOPS target the ANF datastores carry: their clusters' targets added (all of
    /// `iops_target` when every VM's data is on ANF).
    #[serde(default)]
    pub anf_iops_target: f64,
    /// The MiB/s target the ANF datastores carry, likewise.
    #[serde(default)]
    pub anf_throughput_target_mibps: f64,
    /// The AVS clusters with ANF datastores, whose predictions are added.
    #[serde(default)]
    pub anf_clusters: u32,
    /// All of the design's storage, predicted small-block IOPS: the ANF datastores' and
    /// the vSAN sides' added.
    pub predicted_iops: f64,
    /// All of the design's storage, predicted large-block MiB/s.
    pub predicted_throughput_mibps: f64,
    /// The ANF datastores' predicted small-block IOPS added (0 without ANF datastores).
    #[serde(default)]
    pub anf_predicted_iops: f64,
    /// The ANF datastores' predicted large-block MiB/s added.
    #[serde(default)]
    pub anf_predicted_throughput_mibps: f64,
    /// The AVS clusters keeping data on vSAN.
    #[serde(default)]
    pub vsan_clusters: u32,
    /// The vSAN sides' predicted small-block IOPS added (each cluster's envelope at its
    /// checked hosts, beside its ANF traffic).
    #[serde(default)]
    pub vsan_predicted_iops: f64,
    /// The vSAN sides' predicted large-block MiB/s added.
    #[serde(default)]
    pub vsan_predicted_throughput_mibps: f64,
    /// No IOPS or MiB/s target (none given, no per-VM figures): the plan is sized for
    /// capacity only and the predictions are what the pools' QoS and the layout give.
    pub capacity_only: bool,
    /// The share of the VMs' data the design keeps on vSAN (after growth and snapshot
    /// reserve), percent: with capacity-share targets, its share of the targets.
    #[serde(default)]
    pub vsan_data_pct: f64,
}

/// What the plan leaves out: its excluded VMs (duplicates aside: their data is counted once,
/// with the VM kept) by reason, with their capacity and its share of all the capacity read.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct LeftOut {
    /// VMs left out.
    pub vms: usize,
    /// Their capacity on the plan's basis, GiB (where known).
    pub capacity_gib: f64,
    /// That capacity's share of the placed and left-out capacity together, percent.
    pub capacity_pct: f64,
    /// By reason, the most capacity first.
    pub reasons: Vec<LeftOutReason>,
}

/// The VMs left out for one reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct LeftOutReason {
    /// Why.
    pub reason: ExclusionReason,
    /// VMs.
    pub vms: usize,
    /// Their capacity, GiB (where known).
    pub capacity_gib: f64,
}

/// The hosts of one SKU in an estate (an AV64 Gen 1 estate has its first clusters' too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SkuHosts {
    /// Host SKU.
    pub sku: String,
    /// Its hosts, HA reserve included.
    pub hosts: u32,
    /// Price of one host, USD per hour, where known.
    pub usd_per_hour: Option<f64>,
    /// Those hosts, USD per month (x 730 h), where the price is known.
    pub usd_per_month: Option<f64>,
}

/// The estate in figures: the chosen design's hosts, clusters, pools and costs, and vSAN
/// alone beside them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EstateSummary {
    /// The design chosen (the cheapest, or `design`); plans written before designs were
    /// compared put every VM on ANF.
    #[serde(default)]
    pub design: Design,
    /// Host SKU chosen (the lowest total cost of those priced, or `host_sku`).
    pub sku: String,
    /// AVS hosts of the design over all clusters, HA reserve included (vSAN alone: its
    /// grown clusters' hosts).
    pub hosts: u32,
    /// The same hosts by what sizes their cluster.
    pub hosts_by_driver: HostsByDriver,
    /// The same hosts by SKU: the chosen SKU's, then those of other SKUs (AV64 in a Gen 1
    /// private cloud: the first cluster of AV36, AV36P or AV52 hosts each private cloud
    /// needs).
    #[serde(default)]
    pub hosts_by_sku: Vec<SkuHosts>,
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
    /// What the plan leaves out, by reason, with its capacity.
    #[serde(default)]
    pub left_out: LeftOut,
    /// Capacity of the placed VMs, GiB.
    pub placed_capacity_gib: f64,
    /// How the hosts are bought.
    pub host_term: HostTerm,
    /// Price of one host of the chosen SKU, USD per hour, where known (other SKUs' hosts:
    /// `hosts_by_sku`).
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
    /// Hosts, USD per month (x 730 h), every SKU's at its price; `None` when a host price
    /// is unknown.
    pub hosts_usd_per_month: Option<f64>,
    /// ANF (every cluster's pools, with the estate's reservations), USD per month.
    pub anf_usd_per_month: f64,
    /// ExpressRoute gateways bought for the ANF datastores (none without ANF, less
    /// `existing_er_gateways`).
    #[serde(default)]
    pub gateways: u32,
    /// Those gateways, USD per month.
    #[serde(default)]
    pub gateway_usd_per_month: f64,
    /// Hosts + ANF + gateways, USD per month; `None` when the host price is unknown.
    pub total_usd_per_month: Option<f64>,
    /// A year of hosts, ANF and gateways: 12 x the hosts and gateways, each cluster's
    /// yearly ANF cost (its time-phased yearly cost with `peak_months`, else 12 months)
    /// less the estate's reservations, plus the one-time first-month cool transfer, USD
    /// per year.
    pub total_usd_per_year: Option<f64>,
    /// One-time transfer of the cold data into the cool tier, first month, USD.
    pub first_month_cool_transfer_usd: f64,
    /// Hosts of the same estate on vSAN alone, on its cheapest priced SKU
    /// (`vsan_alone_sku`; `None` without the vSAN comparison).
    pub vsan_alone_hosts: Option<u32>,
    /// The SKU vSAN alone is priced on: the one whose vSAN-alone estate costs least of
    /// those priced (the chosen SKU's when none is).
    #[serde(default)]
    pub vsan_alone_sku: Option<String>,
    /// Hosts on vSAN alone, USD per month, where the price is known.
    pub vsan_alone_usd_per_month: Option<f64>,
    /// The SKU ANF for all costs least on, of those priced.
    #[serde(default)]
    pub anf_for_all_sku: Option<String>,
    /// ANF for all on that SKU: hosts + ANF + gateways, USD per month.
    #[serde(default)]
    pub anf_for_all_usd_per_month: Option<f64>,
    /// vSAN alone (on its cheapest SKU) less the chosen design's total, USD per month
    /// (positive: it saves).
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

/// One host SKU's estate on its design (the cheapest of the three, or `design`), beside the
/// chosen one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SkuAlternative {
    /// Host SKU.
    pub sku: String,
    /// The design its figures are of (plans written before designs were compared: ANF for
    /// all).
    #[serde(default)]
    pub design: Design,
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
    /// ExpressRoute gateways its design buys, USD per month.
    #[serde(default)]
    pub gateway_usd_per_month: f64,
    /// Hosts + ANF + gateways, USD per month, where all are known.
    pub total_usd_per_month: Option<f64>,
    /// Hosts on vSAN alone.
    pub vsan_alone_hosts: Option<u32>,
    /// Hosts on vSAN alone, USD per month, where the price is known.
    pub vsan_alone_usd_per_month: Option<f64>,
    /// `chosen`, why not, or why infeasible.
    pub note: String,
}

/// A capacity pool of the estate, shared by the clusters whose datastores it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EstatePlan {
    /// [`super::SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Pricing region (ARM name).
    pub region: String,
    /// Its display name.
    pub location: String,
    /// The estate in figures.
    pub summary: EstateSummary,
    /// The chosen SKU's hosts, clusters and private clouds in the design: ANF for all's
    /// and the hybrid's hosts per cluster; with vSAN alone the compute sizing (its growth
    /// is in `vsan_alone`).
    pub sizing: EstateSizing,
    /// Every SKU's estate and total, the chosen one marked.
    pub sku_alternatives: Vec<SkuAlternative>,
    /// The capacity pools.
    pub pools: Vec<EstatePool>,
    /// The estate's reservations, one per region and service level that buys units.
    pub reservations: Vec<ReservationPurchase>,
    /// The same estate on vSAN alone (`None` when not asked for).
    pub vsan_alone: Option<VsanAloneCost>,
    /// The three designs side by side, for the estate and per cluster, the chosen one and
    /// why (`None` in plans written before designs were compared).
    #[serde(default)]
    pub designs: Option<EstateDesigns>,
    /// One storage plan per AVS cluster that puts data on ANF in the chosen design (its own
    /// VMs on ANF only; none with vSAN alone).
    pub clusters: Vec<ClusterPlan>,
    /// Settings that shaped the sizing.
    pub assumptions: Vec<Assumption>,
    /// Every excluded VM, once, with its reason.
    pub excluded: Vec<ExcludedVm>,
    /// The estate's warnings (input, demand, sizing, pools together); each cluster's plan
    /// carries its own.
    pub warnings: Vec<Warning>,
}

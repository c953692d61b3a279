//! The plan: pools, datastores, VM placement, predicted performance, monthly cost and the
//! limits that bind. Serializable and versioned (`schema_version`): its JSON is public API.
//!
//! ```
//! use dsplan::plan::Plan;
//! use dsplan::{PlanOptions, Planner};
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let plan = Planner::new()
//!     .input(fixture)
//!     .options(PlanOptions::default().hosts(3))
//!     .plan()?;
//! // Every datastore is in the plan's pool; every VM placed or excluded.
//! assert_eq!(plan.totals.datastores as usize, plan.datastores.len());
//! assert_eq!(plan.totals.vms_placed + plan.totals.vms_excluded, 8);
//! // The JSON is public API: versioned, and it reads back as the same plan.
//! let json = serde_json::to_string(&plan)?;
//! let back: Plan = serde_json::from_str(&json)?;
//! assert_eq!(back, plan);
//! assert_eq!(back.schema_version, dsplan::plan::SCHEMA_VERSION);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::catalog::ServiceLevel;
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::perf::{Extrapolation, IoProfile, Prediction};

/// Version of the plan's (and the inventory's) JSON shape. Bumped on any incompatible
/// change:
/// - 1: one plan (`Plan`) or per-cluster plans (`ClusterPlans`);
/// - 2: `dsplan plan` without `hosts` and `per_cluster` prints the estate plan
///   ([`EstatePlan`]); per-cluster plans list the excluded VMs once
///   (`ClusterPlans::excluded`), each cluster's plan none.
pub const SCHEMA_VERSION: u32 = 2;

/// A setting that shaped the plan (printed so a reader sees what a cost rests on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Assumption {
    /// Name (`headroom_pct`, `hosts` ...).
    pub name: String,
    /// Value as text.
    pub value: String,
    /// Where it came from (`default`, `--headroom-pct`, `data/limits.csv` ...).
    pub note: String,
}

/// One price row the plan's cost rests on (the workbook's `Prices` sheet; its cost
/// formulas point at these prices).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct PriceUsed {
    /// ARM region (`eastus`).
    pub region: String,
    /// Price tier: a service level's (`standard`, `premium`, `ultra`, `flexible`) or
    /// `cool`.
    pub tier: String,
    /// Meter: `capacity`, `throughput` (Flexible purchased MiB/s) or `transfer` (cool tier).
    pub meter: String,
    /// Unit of `price_usd`: `USD per GiB-month`, `USD per MiB/s-month` or `USD per GiB`
    /// (hourly prices x `hours_per_month` of `data/limits.csv`).
    pub unit: String,
    /// The price, USD per `unit`.
    pub price_usd: f64,
    /// `effective_start` of the price row (YYYY-MM-DD).
    pub effective_start: String,
    /// Where the price comes from (`data/prices.csv`'s `source`, or the price file's).
    pub source: String,
}

/// One capacity pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct PoolPlan {
    /// Pool name (`pool-ultra-1`).
    pub name: String,
    /// Its service level.
    pub service_level: ServiceLevel,
    /// QoS type: `manual` (each datastore gets a share of the pool's throughput).
    pub qos: String,
    /// Provisioned (billed) size of a pool of the plan's own, whole TiB; 0 for a share of a
    /// pool shared with other AVS clusters (`share_gib`).
    pub size_tib: u32,
    /// In an estate plan, a Standard, Premium or Ultra pool is shared by the clusters'
    /// datastores: this cluster's share, the sum of its datastores' quotas in the pool,
    /// whole GiB (the estate's `pools` has the shared pool's size); 0 for a pool of the
    /// plan's own.
    #[serde(default)]
    pub share_gib: u32,
    /// Total throughput of the pool, MiB/s.
    pub throughput_mibps: f64,
    /// Of which included in the price (Flexible: 128 MiB/s; others: size x rate).
    pub included_throughput_mibps: f64,
    /// Of which purchased (Flexible only), MiB/s.
    pub purchased_throughput_mibps: f64,
    /// Capacity charge, USD per month: hot + cool capacity below (without cool access or a
    /// reservation: size x 1024 GiB x price per GiB-hour x 730).
    pub capacity_cost_usd_per_month: f64,
    /// Purchased-throughput charge, USD per month (Flexible only).
    pub throughput_cost_usd_per_month: f64,
    /// Capacity + throughput + cool transfer, USD per month.
    pub cost_usd_per_month: f64,
    /// Cool access enabled on the pool's datastores (Premium and Ultra then grant the
    /// cool-access rate of the region's rule, `cool_access_throughput` in the assumptions;
    /// Flexible keeps its throughput).
    #[serde(default)]
    pub cool_access: bool,
    /// Data expected in the cool tier (the cold share of the data after growth), GiB; 0
    /// without cool access.
    #[serde(default)]
    pub cool_data_gib: f64,
    /// Hot tier (hot data and unallocated pool space) at the service level's rate, less any
    /// reservation discount, USD per month. A share of a shared pool pays its quota's share
    /// of the shared pool's hot tier (the pool's size, rounded up to whole TiB, less its
    /// cold data, at the level's price), allocated to the cent in the clusters' order:
    /// `ROUND(hot x Q_i / Q, 2) - ROUND(hot x Q_(i-1) / Q, 2)`, `Q_i` the quotas of the
    /// pool's clusters up to this one, `Q` all of them; so the shares add up to the pool.
    #[serde(default)]
    pub hot_capacity_cost_usd_per_month: f64,
    /// Cool-tier capacity at the region's cool rate, USD per month.
    #[serde(default)]
    pub cool_capacity_cost_usd_per_month: f64,
    /// Expected cool-tier transfer: cold GiB x `--cool-retrieval-pct` per month x the
    /// region's transfer price per GiB, USD per month.
    #[serde(default)]
    pub cool_transfer_cost_usd_per_month: f64,
    /// Hot-tier capacity covered by reserved capacity, TiB (whole reservation units).
    #[serde(default)]
    pub reserved_tib: u32,
    /// Discount of that reservation on the hot-tier price, percent (0 = pay as you go); with
    /// units of several sizes, weighted by their TiB (`reservation_units` has each).
    #[serde(default)]
    pub reservation_discount_pct: f64,
    /// One-time transfer of the initially cold data into the cool tier, billed in the first
    /// month on top of the monthly figure (not part of `cost_usd_per_month`): cold GiB x the
    /// region's cool transfer price per GiB \[COST\] (2026-06-15), USD; 0 without cool access.
    #[serde(default)]
    pub first_month_cool_transfer_usd: f64,
    /// The reservation units bought for this pool, largest first (1 PiB and 100 TiB units;
    /// empty: pay as you go).
    #[serde(default)]
    pub reservation_units: Vec<crate::catalog::ReservedUnits>,
}

/// One datastore (one ANF volume, mounted by every host).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct DatastorePlan {
    /// Datastore name (`anf-ds-01`).
    pub name: String,
    /// Pool it lives in.
    pub pool: String,
    /// Service level of that pool.
    pub service_level: ServiceLevel,
    /// Volume size (quota), GiB.
    pub size_gib: f64,
    /// Manual-QoS throughput assigned, MiB/s.
    pub throughput_mibps: f64,
    /// Predicted small-block IOPS (its share of the layout's prediction).
    pub predicted_iops: f64,
    /// Predicted large-block MiB/s (its share of the layout's prediction).
    pub predicted_throughput_mibps: f64,
    /// Its share of the pool cost (by size), USD per month.
    pub cost_usd_per_month: f64,
    /// VMs with data on it (a split VM counts on each of its datastores).
    pub vm_count: usize,
    /// Capacity of the VMs placed on it, before growth and headroom, GiB.
    pub placed_capacity_gib: f64,
    /// A large volume (more than 100 TiB or 4,500 MiB/s; 50 TiB minimum, data/limits.csv).
    #[serde(default)]
    pub large_volume: bool,
}

/// Where a VM goes (a VM split over datastores has one placement per datastore).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Placement {
    /// VM name (not unique across vCenters: `origin` tells VMs of the same name apart).
    pub vm: String,
    /// Where the VM's row was read.
    pub origin: crate::inventory::Origin,
    /// Datastore name.
    pub datastore: String,
    /// Capacity on the chosen basis, GiB.
    pub capacity_gib: f64,
}

/// A constraint that decides the plan's size or cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct BindingLimit {
    /// Which constraint.
    pub constraint: Constraint,
    /// A sentence with the numbers.
    pub detail: String,
}

/// The kind of a [`BindingLimit`]; serialized in snake_case (`iops_flows` ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Constraint {
    /// The required capacity sets the pool size.
    Capacity,
    /// The QoS throughput (MiB/s, or IOPS x block size) sets the pool size or the Flexible
    /// throughput purchased.
    ThroughputQos,
    /// The IOPS target needs the flows of this many datastores.
    IopsFlows,
    /// The MiB/s target needs the flows of this many datastores.
    ThroughputFlows,
    /// The smallest or largest volume size sets the pool or the datastore count.
    VolumeSize,
    /// Only large volumes meet the targets.
    LargeVolume,
    /// Cool access makes the pool cheaper.
    CoolAccess,
    /// Reserved capacity covers part of the hot tier.
    Reservation,
    /// A VM's own load needs its VMDKs spread over this many datastores (per-VM figures).
    VmSpread,
}

impl Constraint {
    /// The snake_case name, as in the JSON (`capacity`, `throughput_qos`, `iops_flows`,
    /// `throughput_flows`, `volume_size`, `large_volume`, `cool_access`, `reservation`,
    /// `vm_spread`).
    pub fn as_str(self) -> &'static str {
        match self {
            Constraint::Capacity => "capacity",
            Constraint::ThroughputQos => "throughput_qos",
            Constraint::IopsFlows => "iops_flows",
            Constraint::ThroughputFlows => "throughput_flows",
            Constraint::VolumeSize => "volume_size",
            Constraint::LargeVolume => "large_volume",
            Constraint::CoolAccess => "cool_access",
            Constraint::Reservation => "reservation",
            Constraint::VmSpread => "vm_spread",
        }
    }
}

/// The cheapest plan under one restriction (one service level, or exactly N datastores),
/// beside the chosen plan, so a reader sees the trade-off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Alternative {
    /// The restriction: `service_level` or `datastores`.
    pub basis: String,
    /// The service level (basis `service_level`; for basis `datastores`, the one chosen).
    pub service_level: Option<ServiceLevel>,
    /// Datastores (basis `datastores`: the count asked for; else the count chosen).
    pub datastores: u32,
    /// Whether any layout meets every target under this restriction.
    pub feasible: bool,
    /// Pool size, TiB (0 when infeasible or a share of a shared pool).
    pub pool_size_tib: u32,
    /// A share of a shared pool (an estate's Standard, Premium and Ultra pools), GiB; 0 for
    /// a pool of its own.
    #[serde(default)]
    pub share_gib: u32,
    /// Flexible throughput purchased above the included, MiB/s.
    pub purchased_throughput_mibps: f64,
    /// Cool access on.
    pub cool_access: bool,
    /// Large volumes.
    pub large_volumes: bool,
    /// Reserved hot-tier capacity, TiB.
    pub reserved_tib: u32,
    /// Monthly cost, USD (0 when infeasible).
    pub cost_usd_per_month: f64,
    /// Cost above the chosen plan, USD per month.
    pub extra_cost_usd_per_month: f64,
    /// `chosen`, or why it is infeasible.
    pub note: String,
}

/// What the plan would cost if a requirement grew by one step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct MarginalCost {
    /// The change: `capacity_plus_1_tib` (required capacity + 1,024 GiB) or
    /// `throughput_plus_100_mibps` (MiB/s target + 100).
    pub change: String,
    /// Whether the grown requirement can still be met.
    pub feasible: bool,
    /// Monthly cost of the cheapest plan for the grown requirement, USD (0 when infeasible).
    pub cost_usd_per_month: f64,
    /// That cost less the chosen plan's, USD per month.
    pub extra_cost_usd_per_month: f64,
    /// The layout it takes, in words.
    pub detail: String,
}

/// The layout of one phase of a time-phased plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct PhaseLayout {
    /// Months per year in this phase.
    pub months: u32,
    /// Service level of the pool in this phase.
    pub service_level: ServiceLevel,
    /// Pool size, TiB (0 for a share of a shared pool).
    pub pool_size_tib: u32,
    /// A share of a shared pool in this phase, GiB (its datastores' quotas; 0 for a pool of
    /// its own).
    #[serde(default)]
    pub share_gib: u32,
    /// Flexible throughput purchased, MiB/s.
    pub purchased_throughput_mibps: f64,
    /// QoS throughput of the pool, MiB/s.
    pub throughput_mibps: f64,
    /// Datastores (the same in every phase).
    pub datastores: u32,
    /// Cool access on (the same in every phase).
    pub cool_access: bool,
    /// Large volumes (the same in every phase).
    pub large_volumes: bool,
    /// IOPS target of the phase.
    pub iops_target: f64,
    /// MiB/s target of the phase.
    pub throughput_target_mibps: f64,
    /// Predicted IOPS (re-evaluated with the phase's QoS).
    pub predicted_iops: f64,
    /// Predicted MiB/s.
    pub predicted_throughput_mibps: f64,
    /// Monthly cost in this phase, USD.
    pub cost_usd_per_month: f64,
}

/// A time-phased plan: base months and peak months.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct TimePhased {
    /// The base months.
    pub base: PhaseLayout,
    /// The peak months.
    pub peak: PhaseLayout,
    /// `base months x base cost + peak months x peak cost`, USD per year.
    pub yearly_cost_usd: f64,
    /// 12 x the cheapest single layout that meets the peak targets all year, USD.
    pub peak_all_year_yearly_cost_usd: f64,
    /// The difference, USD per year.
    pub yearly_savings_usd: f64,
}

/// The targets and what the plan is predicted to deliver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Performance {
    /// IOPS target.
    pub iops_target: f64,
    /// MiB/s target.
    pub throughput_target_mibps: f64,
    /// Profile of the IOPS target.
    pub small_block_profile: IoProfile,
    /// Profile of the MiB/s target.
    pub large_block_profile: IoProfile,
    /// Prediction for the small-block profile.
    pub small_block: Prediction,
    /// Prediction for the large-block profile.
    pub large_block: Prediction,
    /// The performance model's system the predictions come from (absent: `anf-avs`, AVS
    /// hosts with 25 GbE; `anf-avs-av64` on AV64 hosts' 100 GbE).
    #[serde(
        default = "default_perf_system",
        skip_serializing_if = "is_default_perf_system"
    )]
    pub system: String,
    /// Whether the predictions extrapolate beyond the published measurements (nconnect 4,
    /// more hosts or more datastores than were measured), and the measured range
    /// (JSON: `extrapolated`, `measured_range`, `beyond` beside the fields above).
    #[serde(flatten, default)]
    pub extrapolation: Extrapolation,
}

fn default_perf_system() -> String {
    crate::perf::DEFAULT_SYSTEM.to_string()
}

fn is_default_perf_system(system: &str) -> bool {
    system == crate::perf::DEFAULT_SYSTEM
}

/// Totals over the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Totals {
    /// VMs in the plan (each counted once, whatever its name).
    pub vms_placed: usize,
    /// VMs excluded, with reasons in [`Plan::excluded`].
    pub vms_excluded: usize,
    /// Number of datastores.
    pub datastores: u32,
    /// TCP flows carrying I/O: hosts that run VMs x datastores x nconnect.
    pub flows: u64,
    /// Hosts that run at least one of the plan's VMs (`min(hosts, VMs)`): only they open
    /// flows that carry I/O.
    #[serde(default)]
    pub hosts_with_vms: u32,
    /// Provisioned pool capacity, TiB.
    pub pool_size_tib: u32,
    /// Capacity the demand requires (after growth and headroom), GiB.
    pub required_capacity_gib: f64,
    /// Capacity of the placed VMs, GiB.
    pub placed_capacity_gib: f64,
    /// Capacity of the excluded VMs (where known), GiB.
    pub excluded_capacity_gib: f64,
    /// QoS throughput of all pools, MiB/s.
    pub throughput_mibps: f64,
    /// Monthly cost, USD.
    pub cost_usd_per_month: f64,
    /// One-time first-month charge for moving the initially cold data to the cool tier
    /// (the pools' `first_month_cool_transfer_usd`), USD; not in `cost_usd_per_month`.
    #[serde(default)]
    pub first_month_cool_transfer_usd: f64,
}

/// A complete, verified plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Plan {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Pricing region (ARM name).
    pub region: String,
    /// Its display name.
    pub location: String,
    /// Newest effective date of the prices used.
    pub prices_effective: String,
    /// AVS hosts in the cluster the datastores attach to.
    pub hosts: u32,
    /// Settings that shaped the plan.
    pub assumptions: Vec<Assumption>,
    /// Capacity pools (one per service level used).
    pub pools: Vec<PoolPlan>,
    /// Datastores.
    pub datastores: Vec<DatastorePlan>,
    /// Totals.
    pub totals: Totals,
    /// Targets and predictions.
    pub performance: Performance,
    /// The constraints that decide the plan.
    pub binding: Vec<BindingLimit>,
    /// The cheapest plan per service level and at exactly 1, 2, 4 and 8 datastores.
    #[serde(default)]
    pub alternatives: Vec<Alternative>,
    /// What one more TiB, and 100 more MiB/s, would cost.
    #[serde(default)]
    pub marginal_costs: Vec<MarginalCost>,
    /// The same data on vSAN alone: extra AVS hosts and their cost (set by the caller with
    /// [`crate::vsan::compare`]; `None` when not asked for).
    #[serde(default)]
    pub vsan_comparison: Option<crate::vsan::VsanComparison>,
    /// With `--peak-months`: the base and peak layouts and the yearly cost (`None` otherwise).
    /// The plan's pools and datastores are the base months' layout.
    #[serde(default)]
    pub time_phased: Option<TimePhased>,
    /// Every placed VM and its datastore.
    pub placements: Vec<Placement>,
    /// Every excluded VM with its reason.
    pub excluded: Vec<ExcludedVm>,
    /// Data-quality warnings from ingest and demand.
    pub warnings: Vec<Warning>,
    /// The price rows the plan's costs use: each level's capacity (the pools' and the
    /// time phases'), Flexible throughput, cool capacity and transfer where used.
    #[serde(default)]
    pub prices: Vec<PriceUsed>,
}

/// One source cluster's plan (`per_cluster`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClusterPlan {
    /// Source cluster name.
    pub cluster: String,
    /// AVS hosts planned for it.
    pub hosts: u32,
    /// Where the host count came from (`--hosts`, the inventory's count as
    /// `Inventory::cluster_hosts` gives it with its source, or the AVS minimum).
    pub hosts_source: String,
    /// This cluster's share of the placed capacity, 0..=1: estate-wide `--iops` and
    /// `--throughput-mibps` targets are split by it; targets from `--perf` are the
    /// cluster's own VMs' sums instead.
    pub target_share: f64,
    /// The plan.
    pub plan: Plan,
}

/// Totals over the clusters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClusterTotals {
    /// Clusters planned.
    pub clusters: usize,
    /// AVS hosts over all clusters.
    pub hosts: u32,
    /// Datastores over all clusters.
    pub datastores: u32,
    /// Pool capacity over all clusters, TiB.
    pub pool_size_tib: u32,
    /// Capacity placed over all clusters, GiB.
    pub placed_capacity_gib: f64,
    /// Monthly cost over all clusters, USD, with the estate's reservations
    /// (`ClusterPlans::reservations`): the clusters' plans less the pay-as-you-go hot tier
    /// the reservations cover, plus what the reservations cost.
    pub cost_usd_per_month: f64,
    /// What the estate's reservations save against the clusters' pay-as-you-go hot tier,
    /// USD per month (0 without `reservation`).
    #[serde(default)]
    pub reservation_savings_usd_per_month: f64,
    /// One-time transfer of the initially cold data into the cool tier over all clusters,
    /// billed in the first month on top of `cost_usd_per_month`, USD (0 without cool access).
    #[serde(default)]
    pub first_month_cool_transfer_usd: f64,
    /// VMs in scope that name no cluster (not planned; each listed in `excluded`), count.
    pub vms_without_cluster: usize,
    /// Their capacity, GiB.
    pub vms_without_cluster_capacity_gib: f64,
    /// VMs of the estate excluded from every cluster's plan (listed once in
    /// [`ClusterPlans::excluded`]), count.
    #[serde(default)]
    pub vms_excluded: usize,
    /// Their known capacity on the chosen basis, GiB.
    #[serde(default)]
    pub excluded_capacity_gib: f64,
    /// The estate's input and demand warnings (each cluster's plan carries only its own),
    /// then the warnings about the clusters' pools together: the default regional capacity
    /// quota and the capacity pools one NetApp account holds (`data/limits.csv`).
    #[serde(default)]
    pub warnings: Vec<Warning>,
}

/// Reserved capacity bought once for the whole estate, for one service level in one region
/// (a reservation covers that level's usage in the region, not one pool).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ReservationPurchase {
    /// ARM region.
    pub region: String,
    /// Service level.
    pub service_level: ServiceLevel,
    /// Term (`1y`, `3y`).
    pub term: String,
    /// Hot-tier TiB of every pool of this level and region, added.
    pub hot_tib: f64,
    /// The units bought, largest first (1 PiB and 100 TiB units).
    pub units: Vec<crate::catalog::ReservedUnits>,
    /// TiB reserved (whole units; may exceed `hot_tib`, the rest paid and unused).
    pub reserved_tib: u32,
    /// The hot tier of those pools pay as you go (their plans' hot-tier lines), USD per
    /// month.
    pub pay_as_you_go_usd_per_month: f64,
    /// The same hot tier under the reservation (units at their discount, the rest pay as
    /// you go), USD per month.
    pub cost_usd_per_month: f64,
    /// `pay_as_you_go_usd_per_month - cost_usd_per_month`, USD per month.
    pub savings_usd_per_month: f64,
}

/// Per-cluster plans and their total (the JSON of `dsplan plan --per-cluster`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClusterPlans {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// One plan per source cluster, by name. With `reservation`, each cluster's plan is
    /// priced pay as you go: the reservations are bought once for the estate
    /// (`reservations`) and only the total counts them.
    pub clusters: Vec<ClusterPlan>,
    /// Totals.
    pub total: ClusterTotals,
    /// The estate's reservations, one per region and service level that buys units.
    #[serde(default)]
    pub reservations: Vec<ReservationPurchase>,
    /// The estate's excluded VMs with their reasons, each once, in inventory order (each
    /// cluster's [`Plan::excluded`] is empty: a cluster's plan lists only its own VMs).
    #[serde(default)]
    pub excluded: Vec<ExcludedVm>,
}

mod designs;
mod estate;

pub use estate::{
    ClusterDesign, ClusterDesigns, Design, DesignTotal, EstateDesigns, EstatePerformance,
    EstatePlan, EstatePool, EstateSummary, GatewayLine, HostsByDriver, LeftOut, LeftOutReason,
    SkuAlternative, SkuHosts, UnknownDesign, Utilisation, VsanAloneCost,
};

impl Plan {
    /// Twelve months of this plan's ANF, USD: its time-phased yearly cost where it has one
    /// (base and peak months), else 12 x the monthly cost; the first month's cool transfer
    /// not included.
    pub fn twelve_months_usd(&self) -> f64 {
        self.time_phased
            .as_ref()
            .map_or(12.0 * self.totals.cost_usd_per_month, |tp| {
                tp.yearly_cost_usd
            })
    }
}

impl ClusterPlans {
    /// A year of the clusters' ANF, USD: each cluster's [`Plan::twelve_months_usd`], less
    /// 12 months of the estate's reservation savings, plus the first month's cool transfer.
    pub fn year_usd(&self) -> f64 {
        let t = &self.total;
        self.clusters
            .iter()
            .map(|c| c.plan.twelve_months_usd())
            .sum::<f64>()
            - 12.0 * t.reservation_savings_usd_per_month
            + t.first_month_cool_transfer_usd
    }
}

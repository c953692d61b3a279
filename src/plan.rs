//! The plan: pools, datastores, VM placement, predicted performance, monthly cost and the
//! limits that bind. Serializable and versioned (`schema_version`): its JSON is public API.

use serde::{Deserialize, Serialize};

use crate::catalog::ServiceLevel;
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::perf::{IoProfile, Prediction};

/// Version of the plan's JSON shape. Bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// A setting that shaped the plan (printed so a reader sees what a cost rests on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assumption {
    /// Name (`headroom_pct`, `hosts` ...).
    pub name: String,
    /// Value as text.
    pub value: String,
    /// Where it came from (`default`, `--headroom-pct`, `data/limits.csv` ...).
    pub note: String,
}

/// One capacity pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolPlan {
    /// Pool name (`pool-ultra-1`).
    pub name: String,
    /// Its service level.
    pub service_level: ServiceLevel,
    /// QoS type: `manual` (each datastore gets a share of the pool's throughput).
    pub qos: String,
    /// Provisioned (billed) size, whole TiB.
    pub size_tib: u32,
    /// Total throughput of the pool, MiB/s.
    pub throughput_mibps: f64,
    /// Of which included in the price (Flexible: 128 MiB/s; others: size x rate).
    pub included_throughput_mibps: f64,
    /// Of which purchased (Flexible only), MiB/s.
    pub purchased_throughput_mibps: f64,
    /// Capacity charge, USD per month (size x 1024 GiB x price per GiB-hour x 730).
    pub capacity_cost_usd_per_month: f64,
    /// Purchased-throughput charge, USD per month (Flexible only).
    pub throughput_cost_usd_per_month: f64,
    /// Capacity + throughput, USD per month.
    pub cost_usd_per_month: f64,
}

/// One datastore (one ANF volume, mounted by every host).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// Where a VM goes (a VM split over datastores has one placement per datastore).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct BindingLimit {
    /// Which constraint: `capacity`, `throughput_qos`, `iops_flows`, `throughput_flows`,
    /// `volume_size`, `volume_throughput`.
    pub constraint: String,
    /// A sentence with the numbers.
    pub detail: String,
}

/// The targets and what the plan is predicted to deliver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// Totals over the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// VMs in the plan (each counted once, whatever its name).
    pub vms_placed: usize,
    /// VMs excluded, with reasons in [`Plan::excluded`].
    pub vms_excluded: usize,
    /// Number of datastores.
    pub datastores: u32,
    /// TCP flows (hosts x datastores x nconnect).
    pub flows: u64,
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
}

/// A complete, verified plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// Every placed VM and its datastore.
    pub placements: Vec<Placement>,
    /// Every excluded VM with its reason.
    pub excluded: Vec<ExcludedVm>,
    /// Data-quality warnings from ingest and demand.
    pub warnings: Vec<Warning>,
}

//! The optimizer: the cheapest ANF layout that meets the
//! [`Demand`](crate::demand::Demand), as small mixed-integer linear programs solved with
//! good_lp's pure-Rust microlp backend.
//!
//! ```
//! use dsplan::catalog::Catalog;
//! use dsplan::demand::{DemandOptions, derive};
//! use dsplan::optimize::{OptimizeOptions, optimize};
//! use dsplan::perf::PerfModel;
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let demand = derive(
//!     &dsplan::ingest::read_inputs(&[fixture])?,
//!     &DemandOptions::default().iops(20_000.0).throughput_mibps(500.0),
//! )?;
//! let options = OptimizeOptions::default().hosts(3);
//! let plan = optimize(&demand, &Catalog::builtin()?, &PerfModel::builtin()?, &options)?;
//! // The cheapest layout that holds the required capacity and meets both targets, as
//! // the model re-evaluates it.
//! assert!(f64::from(plan.pools[0].size_tib) * 1024.0 >= demand.required_capacity_gib);
//! assert!(plan.performance.small_block.iops >= 20_000.0);
//! assert!(plan.performance.large_block.throughput_mibps >= 500.0);
//! // Every feasible alternative it was chosen over costs at least as much.
//! let cost = plan.totals.cost_usd_per_month;
//! let feasible = plan.alternatives.iter().filter(|a| a.feasible);
//! assert!(feasible.clone().count() > 0);
//! assert!(feasible.clone().all(|a| a.cost_usd_per_month >= cost - 0.005));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Formulation
//! A pool has exactly one service level, cool access is on or off for the whole plan, and
//! its datastores are all regular or all large volumes. These few discrete choices are
//! enumerated outside the solver (a *variant*: level x cool x large) and one MILP is solved
//! per variant; the cheapest wins (ties: fewer datastores, then no cool access, regular
//! volumes, catalog order). Keeping the level choice outside the MILP removes the big-M links
//! between a level's binary and its pool size, on which microlp's branch and bound stalled.
//! Large volumes are tried only with [`OptimizeOptions::allow_large_volumes`] (off by default:
//! no Microsoft page documents them as AVS datastores), and for a level only when no regular
//! layout of that level meets the targets: they have the same price and a 50 TiB minimum per
//! volume, so they cannot be cheaper when a regular layout exists.
//!
//! Decisions of one variant's MILP:
//! - `P` (integer TiB): size of the capacity pool (`pool_min <= P <= M`, `M` the largest
//!   size capacity, throughput or volume minimums could need); with
//!   [`OptimizeOptions::shared_pool`] (an estate), integer GiB for a Standard, Premium or
//!   Ultra share of a pool shared with other clusters (no pool minimum of its own; the
//!   rates, prices and volume sizes below scale to the unit, and the shared pool is rounded
//!   up to whole TiB once for all its members, `estate/pools.rs`);
//! - `E` (integer MiB/s, Flexible only): throughput purchased above the 128 MiB/s included;
//! - `R_u` (integer, with `reservation` where the level has a discount): reserved-capacity
//!   units of each size `u` (100 TiB and 1,024 TiB, `data/reservations.csv`), and
//!   `O >= P - cold TiB - sum_u u R_u, O >= 0` the hot TiB they leave uncovered;
//! - `z_d` (binary): the layout has `d` datastores, `d = 1..=max_datastores` (exactly one).
//!
//! Objective (USD per month): hot tier `price x (P - cold)` (with a reservation:
//! `price x O + sum_u price x (1 - discount_u) x u R_u`), plus `price_flex_tp x E`, plus the cool
//! terms, constant within a variant: `cool price x cold GiB + transfer price x cold GiB x
//! retrieval %`. The cost does not depend on `d`; after the solve the fewest datastores that
//! fit the chosen pool are taken.
//!
//! Constraints:
//! - capacity: `1024 x P >= required GiB` (growth, snapshot reserve and headroom included);
//! - volume sizes: each datastore is `P / d`, so `P <= sum_d vmax d z_d` (100 TiB regular,
//!   1,024 TiB large) and `sum_d vmin d z_d <= P` (50 GiB regular, 50 TiB large);
//! - QoS: `Q = rate x P + included + E >= max(MiB/s target, IOPS target x block KiB / 1024)`,
//!   the rate being the cool-access rate (Premium 36, Ultra 68 MiB/s per TiB) when cool
//!   access is on; `E + 128 <= 640 P` for Flexible;
//! - flows, volumes and the cool tier: the performance model is nonlinear in the datastore
//!   count, so it is evaluated for every `d` beforehand (QoS unlimited; the cold share as
//!   the layout's `cool_pct` when cool access is on; the volume ceiling of regular or large
//!   volumes) and enters as `sum_d ceiling_iops(d) z_d >= IOPS target` and
//!   `sum_d ceiling_mibps(d) z_d >= MiB/s target`. This is exact because QoS in the model is
//!   a pure cap: `predict(layout, qos) = min(predict(layout, none), qos)`.
//!
//! Every plan is re-evaluated with
//! [`PerfModel::predict`](crate::perf::PerfModel::predict) before it is returned; a miss
//! is [`OptimizeError::Verification`] (a bug, never a silent result). The plan also carries
//! the cheapest alternative per service level and at exactly 1, 2, 4 and 8 datastores, and
//! what one more TiB or 100 more MiB/s would cost (each a re-solve of the same MILPs).
//!
//! With [`OptimizeOptions::peak`], a time-phased plan: for every datastore count, cool state
//! and volume kind (which stay all year) and each side of the Flexible divide (volumes
//! cannot move into or out of a Flexible pool) the cheapest base-months and peak-months
//! layouts are solved with the count fixed, and the pair with the lowest yearly cost wins; the plan's
//! pools and datastores are the base months',
//! [`Plan::time_phased`](crate::plan::Plan::time_phased) holds both phases.
//! [`optimize_per_cluster`] plans each source cluster on its own.

mod account;
mod assemble;
mod error;
mod estate;
mod explain;
mod milp;
mod names;
mod one_cluster;
mod options;
mod per_cluster;
mod phases;
mod place;
mod prices_used;
mod reach;
mod reserve;
mod run;
mod search;
mod spread;
mod stop;
mod threads;
mod verify;

pub use error::{OptimizeError, Target};
pub use estate::EstateOptions;
pub use estate::optimize_estate;
pub use milp::{large_block_profile, pool_cost_usd_per_month, workload_layout};
pub use options::{OptimizeOptions, PeakOptions};
pub use per_cluster::optimize_per_cluster;
pub use run::optimize;
pub use stop::Stop;

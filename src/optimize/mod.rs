//! The optimizer: the cheapest ANF layout that meets the [`Demand`], as small mixed-integer
//! linear programs solved with good_lp's pure-Rust microlp backend.
//!
//! # Formulation
//! A pool has exactly one service level, cool access is on or off for the whole plan, and
//! its datastores are all regular or all large volumes. These few discrete choices are
//! enumerated outside the solver (a *variant*: level x cool x large) and one MILP is solved
//! per variant; the cheapest wins (ties: fewer datastores, then no cool access, regular
//! volumes, catalog order). Keeping the level choice outside the MILP removes the big-M links
//! between a level's binary and its pool size, on which microlp's branch and bound stalled.
//! Large volumes are tried for a level only when no regular layout of that level meets the
//! targets: they have the same price and a 50 TiB minimum per volume, so they cannot be
//! cheaper when a regular layout exists.
//!
//! Decisions of one variant's MILP:
//! - `P` (integer TiB): size of the capacity pool (`pool_min <= P <= M`, `M` the largest
//!   size capacity, throughput or volume minimums could need);
//! - `E` (integer MiB/s, Flexible only): throughput purchased above the 128 MiB/s included;
//! - `R` (integer, with `--reservation` where the level has a discount): reserved-capacity
//!   units of 100 TiB, and `O >= P - cold TiB - 100 R, O >= 0` the hot TiB they leave
//!   uncovered;
//! - `z_d` (binary): the layout has `d` datastores, `d = 1..=max_datastores` (exactly one).
//!
//! Objective (USD per month): hot tier `price x (P - cold)` (with a reservation:
//! `price x O + price x (1 - discount) x 100 R`), plus `price_flex_tp x E`, plus the cool
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
//! Every plan is re-evaluated with [`PerfModel::predict`] before it is returned; a miss is
//! [`OptimizeError::Verification`] (a bug, never a silent result). The plan also carries
//! the cheapest alternative per service level and at exactly 1, 2, 4 and 8 datastores, and
//! what one more TiB or 100 more MiB/s would cost (each a re-solve of the same MILPs).
//!
//! With [`OptimizeOptions::peak`], a time-phased plan: for every datastore count, cool state
//! and volume kind (which stay all year) the cheapest base-months and peak-months layouts
//! are solved with the count fixed, and the pair with the lowest yearly cost wins; the plan's
//! pools and datastores are the base months', [`Plan::time_phased`] holds both phases.
//! [`optimize_per_cluster`] plans each source cluster on its own.

mod per_cluster;

pub use per_cluster::optimize_per_cluster;

use good_lp::{
    Expression, ProblemVariables, Solution, SolverModel, WithTimeLimit, constraint, variable,
};
use serde::{Deserialize, Serialize};

use crate::catalog::{
    Catalog, CatalogError, Limits, RegionPrices, ReservationDiscount, ReservationTerm,
    ServiceLevel, ServiceLevelSpec,
};
use crate::demand::Demand;
use crate::perf::{IoProfile, Layout, PerfError, PerfModel};
use crate::plan::{
    Alternative, Assumption, BindingLimit, Constraint, DatastorePlan, MarginalCost, Performance,
    PhaseLayout, Placement, Plan, PoolPlan, SCHEMA_VERSION, TimePhased, Totals,
};

/// Options of the optimizer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimizeOptions {
    /// AVS hosts that mount the datastores (3..=16).
    pub hosts: u32,
    /// Pricing region (ARM name).
    pub region: String,
    /// Most datastores the cluster may have (1..=256; AVS default 8).
    pub max_datastores: u32,
    /// Only these service levels (empty = all sold in the region).
    pub service_levels: Vec<ServiceLevel>,
    /// Percent 0..=100 of the data (after growth) that is cold and would sit in the cool
    /// tier under cool access; 0 (default) = cool access is not considered. RVTools holds no
    /// access data, so the default assumes none; the ANF guidance is that up to 80% of a
    /// data set is typically cold \[COOL\].
    #[serde(default)]
    pub cold_pct: f64,
    /// Percent 0..=100 of the cold data re-read (moved between tiers) per month, charged at
    /// the region's cool transfer price (default 10).
    #[serde(default = "default_cool_retrieval_pct")]
    pub cool_retrieval_pct: f64,
    /// Reserved capacity for the hot tier (default none).
    #[serde(default)]
    pub reservation: ReservationTerm,
    /// A time-phased plan: higher targets for some months of the year (default none).
    #[serde(default)]
    pub peak: Option<PeakOptions>,
}

/// Peak months of a time-phased plan (`--peak-months N --peak-iops X
/// --peak-throughput-mibps Y`): the layout may raise its service level, pool or Flexible
/// throughput for those months only; the datastores stay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeakOptions {
    /// Peak months per year (1..=11).
    pub months: u32,
    /// Small-block IOPS target in the peak months (the higher of this and the base target).
    pub iops: f64,
    /// Large-block MiB/s target in the peak months (the higher of this and the base target).
    pub throughput_mibps: f64,
}

fn default_cool_retrieval_pct() -> f64 {
    10.0
}

impl Default for OptimizeOptions {
    /// 3 hosts, eastus, 8 datastores, every service level, no cold data, 10% cool
    /// retrieval per month, no reservation.
    fn default() -> Self {
        OptimizeOptions {
            hosts: 3,
            region: crate::catalog::DEFAULT_REGION.to_string(),
            max_datastores: 8,
            service_levels: Vec::new(),
            cold_pct: 0.0,
            cool_retrieval_pct: default_cool_retrieval_pct(),
            reservation: ReservationTerm::None,
            peak: None,
        }
    }
}

/// Which target cannot be met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The IOPS target.
    Iops,
    /// The MiB/s target.
    ThroughputMibps,
    /// The capacity requirement.
    CapacityGib,
}

impl Target {
    /// Human name with unit.
    pub fn describe(self) -> &'static str {
        match self {
            Target::Iops => "IOPS",
            Target::ThroughputMibps => "throughput (MiB/s)",
            Target::CapacityGib => "capacity (GiB)",
        }
    }
}

/// Errors of the optimizer.
#[derive(Debug, thiserror::Error)]
pub enum OptimizeError {
    /// No layout within the limits meets a target.
    #[error(
        "the {} target {} cannot be met: at most {} is reachable ({detail})",
        target.describe(),
        crate::numbers::show_number(*required),
        crate::numbers::group_thousands((reachable + 1e-6).floor(), 0)
    )]
    Infeasible {
        /// The target that cannot be met.
        target: Target,
        /// The value asked for.
        required: f64,
        /// The most any layout within the limits reaches.
        reachable: f64,
        /// Which limits cap it.
        detail: String,
    },
    /// An option is out of range.
    #[error("invalid --{option}: {value} ({expected})")]
    Invalid {
        /// Option name.
        option: &'static str,
        /// Value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// Catalog problem (unknown region ...).
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// Performance model rejected a layout.
    #[error(transparent)]
    Perf(#[from] PerfError),
    /// Each target is reachable alone, but no service level meets them together.
    #[error("no layout meets the targets: {0}")]
    NoLayout(String),
    /// The solver failed unexpectedly.
    #[error("solver: {0}")]
    Solver(String),
    /// The chosen layout failed re-evaluation: a bug in dsplan.
    #[error("internal error, plan failed verification: {0}")]
    Verification(String),
}

/// Monthly cost of one pool: `(capacity, purchased throughput)`, USD per month.
///
/// Capacity: `size_tib x 1024 GiB x price per GiB-month` (price per GiB-hour x 730 in
/// [`RegionPrices`]); throughput: `purchased MiB/s x price per MiB/s-month` (Flexible).
///
/// # Errors
/// [`CatalogError::UnknownServiceLevel`] when the region does not sell `level`.
pub fn pool_cost_usd_per_month(
    prices: &RegionPrices,
    level: ServiceLevel,
    size_tib: u32,
    purchased_throughput_mibps: f64,
) -> Result<(f64, f64), CatalogError> {
    let per_tib = prices.capacity_usd_per_tib_month(level).ok_or_else(|| {
        CatalogError::UnknownServiceLevel(format!("{level} in {}", prices.region))
    })?;
    let tp = if purchased_throughput_mibps > 0.0 {
        purchased_throughput_mibps
            * prices
                .flexible_throughput_usd_per_mibps_month
                .ok_or_else(|| {
                    CatalogError::UnknownServiceLevel(format!("flexible in {}", prices.region))
                })?
    } else {
        0.0
    };
    Ok((f64::from(size_tib) * per_tib, tp))
}

/// The layout the demand's VMs can drive: I/O starts in the VMs, so only hosts that run
/// a VM open flows (`min(hosts, VMs)`), with the VMs spread over them
/// (`vms_per_host = floor(VMs / those hosts)`, the busiest-host share rounded down, so the
/// VM layer is never credited with VMs the estate does not have), each VM's VMDKs over
/// every datastore.
pub fn workload_layout(hosts: u32, datastores: u32, volume_max_mibps: f64, vms: usize) -> Layout {
    let vms = u32::try_from(vms.max(1)).unwrap_or(u32::MAX);
    let active_hosts = hosts.min(vms).max(1);
    let mut l = Layout::new(active_hosts, datastores, volume_max_mibps);
    l.vms_per_host = Some((vms / active_hosts).max(1));
    l
}

/// Why a performance target is out of reach: the best datastore count, the layer that
/// binds there, and which options could still raise it.
#[allow(clippy::too_many_arguments)]
fn unreachable_detail(
    model: &PerfModel,
    limits: &crate::catalog::Limits,
    hosts: u32,
    max_d: u32,
    ceilings: &[f64],
    volume_max_mibps: f64,
    vms: usize,
    profile: &IoProfile,
    what: &str,
) -> Result<String, OptimizeError> {
    let best_d = ceilings
        .iter()
        .enumerate()
        .fold(
            (0usize, f64::MIN),
            |b, (i, &c)| if c > b.1 { (i, c) } else { b },
        )
        .0 as u32
        + 1;
    let layout = workload_layout(hosts, best_d, volume_max_mibps, vms);
    let p = model.predict(&layout, profile)?;
    let mut detail = format!(
        "{what}: best with {best_d} datastore(s) x {} hosts running {vms} VM(s) = {} flows at \
         {} KiB, limited by the {} layer",
        layout.hosts,
        layout.flows(),
        profile.block_size_kib,
        p.bottleneck.as_str()
    );
    if p.bottleneck == crate::perf::Layer::Vm {
        detail.push_str(&format!(
            "; more hosts or datastores cannot help: the estate's {vms} VM(s) are the limit"
        ));
        return Ok(detail);
    }
    let mut advice = Vec::new();
    // More hosts help only while there are VMs to run on them.
    let useful_hosts = limits.max_hosts.min(u32::try_from(vms).unwrap_or(u32::MAX));
    if layout.hosts < useful_hosts {
        advice.push(format!("more --hosts (up to {useful_hosts})"));
    }
    // More datastores help only while the ceiling still rises at the limit.
    if max_d < limits.max_datastores && best_d == max_d {
        advice.push(format!(
            "a higher --max-datastores (up to {})",
            limits.max_datastores
        ));
    }
    if !advice.is_empty() {
        detail.push_str("; try ");
        detail.push_str(&advice.join(" or "));
    }
    Ok(detail)
}

fn round_cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// GiB per TiB.
const GIB_PER_TIB: f64 = 1024.0;

/// Seconds the solver may take for one MILP before the plan fails (a guard: the models
/// solve in well under a millisecond).
const SOLVER_TIME_LIMIT_S: f64 = 20.0;

/// Datastore counts of the alternatives table (those within `--max-datastores`).
const ALTERNATIVE_DATASTORES: [u32; 4] = [1, 2, 4, 8];

/// Layer ceilings (QoS unlimited) for `d = 1..=max` datastores of one kind (cool share,
/// volume ceiling).
#[derive(Debug, Clone)]
struct Ceilings {
    iops: Vec<f64>,
    throughput_mibps: Vec<f64>,
}

impl Ceilings {
    fn new(
        model: &PerfModel,
        hosts: u32,
        max_datastores: u32,
        template: &Layout,
        small: &IoProfile,
        large: &IoProfile,
    ) -> Result<Ceilings, PerfError> {
        let mut c = Ceilings {
            iops: Vec::new(),
            throughput_mibps: Vec::new(),
        };
        for d in 1..=max_datastores {
            let mut layout = template.clone();
            layout.hosts = hosts;
            layout.datastores = d;
            c.iops.push(model.predict(&layout, small)?.iops);
            c.throughput_mibps
                .push(model.predict(&layout, large)?.throughput_mibps);
        }
        Ok(c)
    }

    /// Whether `d` datastores reach both targets.
    fn meets(&self, d: u32, iops: f64, mibps: f64) -> bool {
        let i = (d - 1) as usize;
        self.iops.get(i).is_some_and(|v| *v >= iops)
            && self.throughput_mibps.get(i).is_some_and(|v| *v >= mibps)
    }
}

/// The large-block profile the MiB/s target is judged at: the published 64 KiB sequential
/// test shape ([`IoProfile::large_block`]) with the workload's read share.
pub fn large_block_profile(small: &IoProfile) -> IoProfile {
    IoProfile {
        block_size_kib: IoProfile::large_block().block_size_kib,
        read_pct: small.read_pct,
        random_pct: 0.0,
    }
}

/// One enumerated combination of the discrete choices.
#[derive(Debug, Clone, Copy)]
struct Variant<'a> {
    spec: &'a ServiceLevelSpec,
    cool: bool,
    large: bool,
}

impl Variant<'_> {
    /// MiB/s per TiB the pool grants (the cool-access rate when cool access is on;
    /// Flexible keeps its configured throughput, so its rate never changes).
    fn rate_mibps_per_tib(&self) -> f64 {
        if self.cool && self.spec.service_level != ServiceLevel::Flexible {
            self.spec.cool_access_throughput_mibps_per_tib
        } else {
            self.spec.throughput_mibps_per_tib
        }
    }

    /// Most MiB/s per TiB that can be had (Flexible: 640; others: the rate).
    fn max_rate_mibps_per_tib(&self) -> f64 {
        if self.spec.service_level == ServiceLevel::Flexible {
            self.spec.max_throughput_mibps_per_tib
        } else {
            self.rate_mibps_per_tib()
        }
    }
}

/// What a layout must meet.
#[derive(Debug, Clone, Copy)]
struct Targets {
    required_gib: f64,
    iops: f64,
    mibps: f64,
    block_size_kib: f64,
    /// Fewest datastores: a VM whose need exceeds one datastore's flows spreads its VMDKs.
    min_datastores: u32,
}

impl Targets {
    /// QoS throughput the pool must grant: `max(MiB/s, IOPS x block KiB / 1024)`.
    fn qos_mibps(&self) -> f64 {
        self.mibps.max(self.iops * self.block_size_kib / 1024.0)
    }
}

/// Everything fixed across the MILPs of one call.
struct Context<'a> {
    catalog: &'a Catalog,
    prices: &'a RegionPrices,
    options: &'a OptimizeOptions,
    levels: Vec<&'a ServiceLevelSpec>,
    /// Cold data under cool access, GiB (0 when cool access is not considered).
    cold_gib: f64,
    /// Whether cool-access variants are tried (cold data and cool prices in the region).
    cool_possible: bool,
    /// Ceilings indexed `[cool as usize][large as usize]`.
    ceilings: [[Ceilings; 2]; 2],
    /// VMs in the plan (they drive the I/O: [`workload_layout`]).
    vms: usize,
    /// VMs (by file, sheet, row) whose per-VM load needs their VMDKs over this many
    /// datastores (from `--perf`).
    spread_over: std::collections::BTreeMap<(String, String, usize), u32>,
}

impl Context<'_> {
    fn limits(&self) -> &Limits {
        &self.catalog.limits
    }

    fn ceilings(&self, v: &Variant) -> &Ceilings {
        &self.ceilings[usize::from(v.cool)][usize::from(v.large)]
    }

    /// (smallest, largest) volume, TiB.
    fn volume_range_tib(&self, large: bool) -> (f64, f64) {
        let l = self.limits();
        if large {
            (l.large_volume_min_tib, l.large_volume_max_tib)
        } else {
            (l.volume_min_gib / GIB_PER_TIB, l.volume_max_tib)
        }
    }

    fn discount(&self, level: ServiceLevel) -> Option<&ReservationDiscount> {
        self.catalog
            .reservation(level, self.options.reservation)
            .filter(|r| r.discount_pct > 0.0)
    }
}

/// Monthly charges of one pool, USD (unrounded).
#[derive(Debug, Clone, Copy, Default)]
struct CostParts {
    hot_capacity: f64,
    cool_capacity: f64,
    cool_transfer: f64,
    throughput: f64,
    reserved_tib: u32,
    discount_pct: f64,
}

impl CostParts {
    fn total(&self) -> f64 {
        self.hot_capacity + self.cool_capacity + self.cool_transfer + self.throughput
    }

    /// The invoice total: each line rounded to the cent, then added.
    fn total_cents(&self) -> f64 {
        round_cents(
            round_cents(self.hot_capacity)
                + round_cents(self.cool_capacity)
                + round_cents(self.cool_transfer)
                + round_cents(self.throughput),
        )
    }
}

/// The monthly cost of a pool of `size_tib` for `variant`, with the reservation units that
/// make it cheapest (none, or the whole units just below or above the hot TiB).
fn cost_parts(
    ctx: &Context,
    variant: &Variant,
    size_tib: u32,
    purchased_mibps: f64,
) -> Result<CostParts, OptimizeError> {
    let level = variant.spec.service_level;
    let (cap, tp) = pool_cost_usd_per_month(ctx.prices, level, size_tib, purchased_mibps)?;
    let per_tib = cap / f64::from(size_tib.max(1));
    let cold_gib = if variant.cool { ctx.cold_gib } else { 0.0 };
    let hot_tib = (f64::from(size_tib) - cold_gib / GIB_PER_TIB).max(0.0);
    let mut parts = CostParts {
        hot_capacity: hot_tib * per_tib,
        throughput: tp,
        ..CostParts::default()
    };
    if variant.cool {
        let cool = ctx.prices.cool_capacity_usd_per_gib_month.unwrap_or(0.0);
        let transfer = ctx.prices.cool_transfer_usd_per_gib.unwrap_or(0.0);
        parts.cool_capacity = cold_gib * cool;
        parts.cool_transfer = cold_gib * ctx.options.cool_retrieval_pct / 100.0 * transfer;
    }
    if let Some(r) = ctx.discount(level) {
        let units = (hot_tib / r.unit_tib).floor();
        let mut best = (parts.hot_capacity, 0.0);
        for n in [units, units + 1.0] {
            let reserved = n * r.unit_tib;
            let c = (hot_tib - reserved).max(0.0) * per_tib
                + reserved * per_tib * (1.0 - r.discount_pct / 100.0);
            if c < best.0 - 1e-9 {
                best = (c, reserved);
            }
        }
        parts.hot_capacity = best.0;
        parts.reserved_tib = best.1 as u32;
        parts.discount_pct = if best.1 > 0.0 { r.discount_pct } else { 0.0 };
    }
    Ok(parts)
}

/// The cheapest layout of one variant.
#[derive(Debug, Clone, Copy)]
struct Candidate<'a> {
    variant: Variant<'a>,
    size_tib: u32,
    purchased_mibps: f64,
    datastores: u32,
    cost: CostParts,
}

impl Candidate<'_> {
    /// Strictly better than `other`: cheaper, or as cheap with fewer datastores.
    fn better_than(&self, other: &Candidate) -> bool {
        let (a, b) = (self.cost.total(), other.cost.total());
        a < b - 1e-6 || ((a - b).abs() <= 1e-6 && self.datastores < other.datastores)
    }

    fn describe(&self) -> String {
        let mut s = format!(
            "{} {} TiB, {} datastore(s)",
            self.variant.spec.service_level, self.size_tib, self.datastores
        );
        if self.purchased_mibps > 0.0 {
            s.push_str(&format!(", {} MiB/s purchased", self.purchased_mibps));
        }
        if self.variant.cool {
            s.push_str(", cool access");
        }
        if self.variant.large {
            s.push_str(", large volumes");
        }
        if self.cost.reserved_tib > 0 {
            s.push_str(&format!(", {} TiB reserved", self.cost.reserved_tib));
        }
        s
    }
}

/// Solves the MILP of one variant (optionally at exactly `fixed_d` datastores); `None` when
/// no layout of this variant meets the targets.
fn solve_variant<'a>(
    ctx: &Context<'a>,
    variant: Variant<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let spec = variant.spec;
    let level = spec.service_level;
    let limits = ctx.limits();
    let Some(price_tib) = ctx.prices.capacity_usd_per_tib_month(level) else {
        return Ok(None);
    };
    let ceilings = ctx.ceilings(&variant);
    let max_d = ctx.options.max_datastores;
    let (vmin_tib, vmax_tib) = ctx.volume_range_tib(variant.large);
    let ds: Vec<u32> = (t.min_datastores.max(1)..=max_d)
        .filter(|d| fixed_d.is_none_or(|f| f == *d))
        .filter(|d| ceilings.meets(*d, t.iops, t.mibps))
        .collect();
    let (Some(&d_lo), Some(&d_hi)) = (ds.first(), ds.last()) else {
        return Ok(None);
    };
    let qos = t.qos_mibps();
    let rate_max = variant.max_rate_mibps_per_tib();
    if rate_max <= 0.0 {
        return Ok(None);
    }
    // Lower bounds every layout of this variant needs, and an upper bound no optimum
    // exceeds (cost never falls as the pool grows).
    let need = (t.required_gib / GIB_PER_TIB)
        .ceil()
        .max((qos / rate_max - 1e-9).ceil())
        .max((vmin_tib * f64::from(d_lo) - 1e-9).ceil())
        .max(limits.pool_min_tib);
    if need > limits.pool_max_tib || need > vmax_tib * f64::from(d_hi) {
        return Ok(None);
    }
    let bound = need
        .max((vmin_tib * f64::from(d_hi) - 1e-9).ceil())
        .min(limits.pool_max_tib);
    let cold_tib = if variant.cool {
        ctx.cold_gib / GIB_PER_TIB
    } else {
        0.0
    };

    let mut vars = ProblemVariables::new();
    let p = vars.add(variable().integer().min(need).max(bound));
    let mut objective = Expression::from(0.0);
    let mut extra = Vec::new();
    match ctx.discount(level) {
        Some(r) => {
            let units_max = (bound / r.unit_tib).ceil();
            let units = vars.add(variable().integer().min(0.0).max(units_max));
            let over = vars.add(variable().min(0.0).max(bound));
            objective += price_tib * over;
            objective += price_tib * (1.0 - r.discount_pct / 100.0) * r.unit_tib * units;
            extra.push(constraint!(over >= p - cold_tib - r.unit_tib * units));
        }
        None => objective += price_tib * p,
    }
    let mut qos_expr = variant.rate_mibps_per_tib() * p + spec.included_throughput_mibps_per_pool;
    let mut purchased = None;
    if level == ServiceLevel::Flexible {
        let Some(tp_price) = ctx.prices.flexible_throughput_usd_per_mibps_month else {
            return Ok(None);
        };
        let e_max = (spec.max_throughput_mibps_per_tib * bound
            - spec.included_throughput_mibps_per_pool)
            .max(0.0);
        let e = vars.add(variable().integer().min(0.0).max(e_max));
        objective += tp_price * e;
        qos_expr += e;
        extra.push(constraint!(
            e + spec.included_throughput_mibps_per_pool <= spec.max_throughput_mibps_per_tib * p
        ));
        purchased = Some(e);
    }
    let mut z_sum = Expression::from(0.0);
    let mut iops_expr = Expression::from(0.0);
    let mut tp_expr = Expression::from(0.0);
    let mut vol_max_expr = Expression::from(0.0);
    let mut vol_min_expr = Expression::from(0.0);
    for &d in &ds {
        let i = (d - 1) as usize;
        let z = vars.add(variable().binary());
        z_sum += z;
        iops_expr += ceilings.iops[i] * z;
        tp_expr += ceilings.throughput_mibps[i] * z;
        vol_max_expr += vmax_tib * f64::from(d) * z;
        vol_min_expr += vmin_tib * f64::from(d) * z;
    }
    let mut problem = vars
        .minimise(objective)
        .using(good_lp::solvers::microlp::microlp)
        .with_time_limit(SOLVER_TIME_LIMIT_S);
    for c in extra {
        problem = problem.with(c);
    }
    problem = problem
        .with(constraint!(z_sum == 1.0))
        .with(constraint!(GIB_PER_TIB * p >= t.required_gib))
        .with(constraint!(p <= vol_max_expr))
        .with(constraint!(vol_min_expr <= p))
        .with(constraint!(qos_expr >= qos))
        .with(constraint!(iops_expr >= t.iops))
        .with(constraint!(tp_expr >= t.mibps));
    let solution = match problem.solve() {
        Ok(s) => s,
        Err(good_lp::ResolutionError::Infeasible) => return Ok(None),
        Err(e) => return Err(OptimizeError::Solver(format!("{level}: {e}"))),
    };
    let size = solution.value(p).round();
    if !(size.is_finite() && size >= 1.0) {
        return Err(OptimizeError::Solver(format!(
            "{level}: pool size {size} out of range"
        )));
    }
    let size_tib = size as u32;
    let purchased_mibps = purchased.map_or(0.0, |e| solution.value(e).round().max(0.0));
    // The cost does not depend on d: take the fewest datastores that fit this pool.
    let sf = f64::from(size_tib);
    let datastores = ds
        .iter()
        .copied()
        .find(|&d| vmin_tib * f64::from(d) <= sf + 1e-9 && sf <= vmax_tib * f64::from(d) + 1e-9)
        .ok_or_else(|| {
            OptimizeError::Solver(format!("{level}: no datastore count fits {size_tib} TiB"))
        })?;
    let cost = cost_parts(ctx, &variant, size_tib, purchased_mibps)?;
    Ok(Some(Candidate {
        variant,
        size_tib,
        purchased_mibps,
        datastores,
        cost,
    }))
}

/// The cheapest layout per service level (in catalog order; `None` where none meets the
/// targets), optionally at exactly `fixed_d` datastores.
fn best_per_level<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<Vec<(&'a ServiceLevelSpec, Option<Candidate<'a>>)>, OptimizeError> {
    let mut out = Vec::with_capacity(ctx.levels.len());
    for &spec in &ctx.levels {
        let mut best: Option<Candidate> = None;
        let cools: &[bool] = if ctx.cool_possible {
            &[false, true]
        } else {
            &[false]
        };
        for &cool in cools {
            let mut found = None;
            for large in [false, true] {
                // Large volumes only where no regular layout of this variant exists.
                if large && found.is_some() {
                    break;
                }
                found = solve_variant(ctx, Variant { spec, cool, large }, t, fixed_d)?;
            }
            if let Some(c) = found
                && best.as_ref().is_none_or(|b| c.better_than(b))
            {
                best = Some(c);
            }
        }
        out.push((spec, best));
    }
    Ok(out)
}

/// The cheapest layout over every level (ties: fewer datastores, then catalog order).
fn best_overall<'a>(
    per_level: &[(&'a ServiceLevelSpec, Option<Candidate<'a>>)],
) -> Option<Candidate<'a>> {
    let mut best: Option<Candidate> = None;
    for (_, c) in per_level {
        if let Some(c) = c
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(*c);
        }
    }
    best
}

fn check_pct(option: &'static str, v: f64) -> Result<(), OptimizeError> {
    if v.is_finite() && (0.0..=100.0).contains(&v) {
        Ok(())
    } else {
        Err(OptimizeError::Invalid {
            option,
            value: v.to_string(),
            expected: "a percentage 0..100".into(),
        })
    }
}

/// The cheapest verified plan for `demand`.
///
/// # Errors
/// [`OptimizeError::Invalid`] for hosts outside the catalog's AVS range, a datastore limit
/// outside 1..=256 or a cold or retrieval percentage outside 0..=100;
/// [`OptimizeError::Catalog`] for an unknown region; [`OptimizeError::Infeasible`] when a
/// target is beyond every layout; others are internal.
pub fn optimize(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
) -> Result<Plan, OptimizeError> {
    let limits = &catalog.limits;
    if options.hosts < limits.min_hosts || options.hosts > limits.max_hosts {
        return Err(OptimizeError::Invalid {
            option: "hosts",
            value: options.hosts.to_string(),
            expected: format!(
                "an AVS cluster has {}..{} hosts",
                limits.min_hosts, limits.max_hosts
            ),
        });
    }
    if options.max_datastores == 0 || options.max_datastores > limits.max_datastores {
        return Err(OptimizeError::Invalid {
            option: "max-datastores",
            value: options.max_datastores.to_string(),
            expected: format!("1..{}", limits.max_datastores),
        });
    }
    check_pct("cold-pct", options.cold_pct)?;
    check_pct("cool-retrieval-pct", options.cool_retrieval_pct)?;
    let prices = catalog.region(&options.region)?;
    let small = demand.options.io_profile;
    small.validate()?;
    let large = large_block_profile(&small);
    let targets = Targets {
        required_gib: demand.required_capacity_gib,
        iops: demand.options.iops,
        mibps: demand.options.throughput_mibps,
        block_size_kib: small.block_size_kib,
        min_datastores: 1,
    };
    for (option, v) in [
        ("iops", targets.iops),
        ("throughput-mibps", targets.mibps),
        ("capacity", targets.required_gib),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(OptimizeError::Invalid {
                option,
                value: v.to_string(),
                expected: "a finite number >= 0".into(),
            });
        }
    }
    let max_d = options.max_datastores;
    let spreads = vm_spreads(model, demand, limits, max_d, &small, &large)?;
    let targets = Targets {
        min_datastores: spreads
            .iter()
            .filter_map(|s| s.datastores)
            .max()
            .unwrap_or(1),
        ..targets
    };
    let peak_targets = match &options.peak {
        None => None,
        Some(pk) => {
            if pk.months == 0 || pk.months >= 12 {
                return Err(OptimizeError::Invalid {
                    option: "peak-months",
                    value: pk.months.to_string(),
                    expected: "1..11 months of the year".into(),
                });
            }
            for (option, v) in [
                ("peak-iops", pk.iops),
                ("peak-throughput-mibps", pk.throughput_mibps),
            ] {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(OptimizeError::Invalid {
                        option,
                        value: v.to_string(),
                        expected: "a finite number >= 0".into(),
                    });
                }
            }
            if options.reservation != ReservationTerm::None {
                return Err(OptimizeError::Invalid {
                    option: "reservation",
                    value: options.reservation.to_string(),
                    expected: "none with --peak-months (a reservation is a yearly commitment; \
                               the two are not modelled together)"
                        .into(),
                });
            }
            Some(Targets {
                iops: targets.iops.max(pk.iops),
                mibps: targets.mibps.max(pk.throughput_mibps),
                ..targets
            })
        }
    };

    // Service levels sold in the region (and allowed by the user).
    let levels: Vec<&ServiceLevelSpec> = catalog
        .service_levels
        .iter()
        .filter(|s| {
            prices
                .capacity_usd_per_gib_month
                .contains_key(&s.service_level)
        })
        .filter(|s| {
            s.service_level != ServiceLevel::Flexible
                || prices.flexible_throughput_usd_per_mibps_month.is_some()
        })
        .filter(|s| {
            options.service_levels.is_empty() || options.service_levels.contains(&s.service_level)
        })
        .collect();
    if levels.is_empty() {
        return Err(OptimizeError::Invalid {
            option: "region",
            value: options.region.clone(),
            expected: "a region that sells the requested service levels".into(),
        });
    }

    let cold_gib = demand.data_capacity_gib() * options.cold_pct / 100.0;
    let cool_possible = cold_gib > 0.0
        && prices.cool_capacity_usd_per_gib_month.is_some()
        && prices.cool_transfer_usd_per_gib.is_some();
    let template = |cool: bool, large_volume: bool| {
        let vol = if large_volume {
            limits.large_volume_max_throughput_mibps
        } else {
            limits.volume_max_throughput_mibps
        };
        let mut l = workload_layout(options.hosts, 1, vol, demand.placed.len());
        if cool {
            l.cool_pct = options.cold_pct;
        }
        Ceilings::new(model, l.hosts, max_d, &l, &small, &large)
    };
    let regular = template(false, false)?;
    let large_vols = template(false, true)?;
    let (cool_regular, cool_large_vols) = if cool_possible {
        (template(true, false)?, template(true, true)?)
    } else {
        (regular.clone(), large_vols.clone())
    };
    let ctx = Context {
        catalog,
        prices,
        options,
        levels,
        cold_gib,
        cool_possible,
        ceilings: [[regular, large_vols], [cool_regular, cool_large_vols]],
        vms: demand.placed.len(),
        spread_over: spreads
            .iter()
            .filter_map(|s| {
                s.datastores.filter(|k| *k > 1).map(|k| {
                    (
                        (s.origin.file.clone(), s.origin.sheet.clone(), s.origin.row),
                        k,
                    )
                })
            })
            .collect(),
    };

    // Targets no layout reaches: say which, and the most reachable.
    let max_qos_mibps = ctx
        .levels
        .iter()
        .map(|s| s.max_throughput_mibps_per_tib * limits.pool_max_tib)
        .fold(0.0, f64::max);
    let all = ctx.ceilings.iter().flatten();
    let best_iops = all
        .clone()
        .flat_map(|c| c.iops.iter().copied())
        .fold(0.0, f64::max);
    let reachable_iops = best_iops.min(max_qos_mibps * 1024.0 / small.block_size_kib);
    let best_tp = all
        .flat_map(|c| c.throughput_mibps.iter().copied())
        .fold(0.0, f64::max);
    let reachable_tp = best_tp.min(max_qos_mibps);
    let mut checks = vec![("", targets)];
    if let Some(pt) = peak_targets {
        checks.push(("in the peak months: ", pt));
    }
    for (when, t) in checks {
        for (target, required, reachable, ceilings, profile, what) in [
            (
                Target::Iops,
                t.iops,
                reachable_iops,
                &ctx.ceilings[0][1].iops,
                &small,
                "small-block IOPS",
            ),
            (
                Target::ThroughputMibps,
                t.mibps,
                reachable_tp,
                &ctx.ceilings[0][1].throughput_mibps,
                &large,
                "large-block MiB/s (large volumes allowed)",
            ),
        ] {
            if required > reachable {
                let why = unreachable_detail(
                    model,
                    limits,
                    options.hosts,
                    max_d,
                    ceilings,
                    limits.large_volume_max_throughput_mibps,
                    ctx.vms,
                    profile,
                    what,
                )?;
                return Err(OptimizeError::Infeasible {
                    target,
                    required,
                    reachable,
                    detail: format!("{when}{why}"),
                });
            }
        }
    }
    let max_capacity_gib = GIB_PER_TIB
        * limits
            .pool_max_tib
            .min(limits.volume_max_tib.max(limits.large_volume_max_tib) * f64::from(max_d));
    if targets.required_gib > max_capacity_gib {
        return Err(OptimizeError::Infeasible {
            target: Target::CapacityGib,
            required: targets.required_gib,
            reachable: max_capacity_gib,
            detail: format!(
                "one pool of at most {} TiB, {max_d} volumes of at most {} TiB",
                limits.pool_max_tib, limits.large_volume_max_tib
            ),
        });
    }

    let per_level = best_per_level(&ctx, &targets, None)?;
    let Some(best) = best_overall(&per_level) else {
        return Err(OptimizeError::NoLayout(format!(
            "no service level sold in {} meets {:.1} GiB, {:.0} IOPS and {:.0} MiB/s together \
             within one pool of {} TiB",
            prices.region, targets.required_gib, targets.iops, targets.mibps, limits.pool_max_tib
        )));
    };
    let mut phased = None;
    let mut chosen = best;
    if let (Some(pt), Some(pk)) = (peak_targets, &options.peak) {
        let Some((base, peak)) = phased_search(&ctx, &targets, &pt, pk.months)? else {
            return Err(OptimizeError::NoLayout(format!(
                "no datastore count serves both the base targets and the peak targets \
                 ({:.0} IOPS, {:.0} MiB/s)",
                pt.iops, pt.mibps
            )));
        };
        let peak_all_year = best_overall(&best_per_level(&ctx, &pt, None)?);
        chosen = base;
        phased = Some((base, peak, pt, pk.months, peak_all_year));
    }
    let alternatives = alternatives(&ctx, &targets, &chosen, &per_level)?;
    let marginal_costs = marginal_costs(&ctx, &targets, &chosen)?;
    let mut plan = build_plan(demand, &ctx, model, &chosen, &small, &large)?;
    explain_spreads(&mut plan, &spreads, max_d, &small);
    plan.alternatives = alternatives;
    plan.marginal_costs = marginal_costs;
    if let Some((base, peak, pt, months, all_year)) = phased {
        plan.time_phased = Some(time_phased(
            &ctx, model, &base, &peak, &targets, &pt, months, all_year, &small, &large,
        )?);
    }
    Ok(plan)
}

/// The cheapest layout over every level at exactly `d` datastores with cool access and
/// volume kind fixed.
fn best_fixed<'a>(
    ctx: &Context<'a>,
    t: &Targets,
    d: u32,
    cool: bool,
    large: bool,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let mut best: Option<Candidate> = None;
    for &spec in &ctx.levels {
        if let Some(c) = solve_variant(ctx, Variant { spec, cool, large }, t, Some(d))?
            && best.as_ref().is_none_or(|b| c.better_than(b))
        {
            best = Some(c);
        }
    }
    Ok(best)
}

/// The cheapest pair (base months, peak months) sharing the datastore count, cool access
/// and volume kind (datastores stay attached all year; cool access cannot be undone without
/// re-warming); the service level, pool size and Flexible throughput may change for the
/// peak months. Minimises the yearly cost `(12 - N) x base + N x peak`; ties to fewer
/// datastores.
fn phased_search<'a>(
    ctx: &Context<'a>,
    base_t: &Targets,
    peak_t: &Targets,
    peak_months: u32,
) -> Result<Option<(Candidate<'a>, Candidate<'a>)>, OptimizeError> {
    let base_months = f64::from(12 - peak_months);
    let peak_m = f64::from(peak_months);
    let cools: &[bool] = if ctx.cool_possible {
        &[false, true]
    } else {
        &[false]
    };
    let mut best: Option<(f64, Candidate, Candidate)> = None;
    for d in 1..=ctx.options.max_datastores {
        for &cool in cools {
            for large in [false, true] {
                let Some(peak) = best_fixed(ctx, peak_t, d, cool, large)? else {
                    continue;
                };
                let Some(base) = best_fixed(ctx, base_t, d, cool, large)? else {
                    continue;
                };
                let yearly = base_months * base.cost.total() + peak_m * peak.cost.total();
                if best.as_ref().is_none_or(|b| yearly < b.0 - 1e-6) {
                    best = Some((yearly, base, peak));
                }
                // Large volumes only where regular ones cannot serve both phases.
                break;
            }
        }
    }
    Ok(best.map(|(_, b, p)| (b, p)))
}

fn phase_layout(
    ctx: &Context,
    model: &PerfModel,
    c: &Candidate,
    t: &Targets,
    months: u32,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<PhaseLayout, OptimizeError> {
    let limits = ctx.limits();
    let qos = c.variant.rate_mibps_per_tib() * f64::from(c.size_tib)
        + c.variant.spec.included_throughput_mibps_per_pool
        + c.purchased_mibps;
    let vol = if c.variant.large {
        limits.large_volume_max_throughput_mibps
    } else {
        limits.volume_max_throughput_mibps
    };
    let mut layout = workload_layout(ctx.options.hosts, c.datastores, vol, ctx.vms);
    layout.qos_throughput_mibps = Some(qos);
    if c.variant.cool {
        layout.cool_pct = ctx.options.cold_pct;
    }
    let iops = model.predict(&layout, small)?.iops;
    let mibps = model.predict(&layout, large)?.throughput_mibps;
    if iops + 1e-6 < t.iops || mibps + 1e-6 < t.mibps {
        return Err(OptimizeError::Verification(format!(
            "phase of {months} months predicted {iops:.0} IOPS / {mibps:.1} MiB/s < targets \
             {:.0} / {:.1}",
            t.iops, t.mibps
        )));
    }
    Ok(PhaseLayout {
        months,
        service_level: c.variant.spec.service_level,
        pool_size_tib: c.size_tib,
        purchased_throughput_mibps: c.purchased_mibps,
        throughput_mibps: qos,
        datastores: c.datastores,
        cool_access: c.variant.cool,
        large_volumes: c.variant.large,
        iops_target: t.iops,
        throughput_target_mibps: t.mibps,
        predicted_iops: iops,
        predicted_throughput_mibps: mibps,
        cost_usd_per_month: c.cost.total_cents(),
    })
}

#[allow(clippy::too_many_arguments)]
fn time_phased(
    ctx: &Context,
    model: &PerfModel,
    base: &Candidate,
    peak: &Candidate,
    base_t: &Targets,
    peak_t: &Targets,
    peak_months: u32,
    all_year: Option<Candidate>,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<TimePhased, OptimizeError> {
    let b = phase_layout(ctx, model, base, base_t, 12 - peak_months, small, large)?;
    let p = phase_layout(ctx, model, peak, peak_t, peak_months, small, large)?;
    let yearly = round_cents(
        f64::from(12 - peak_months) * b.cost_usd_per_month
            + f64::from(peak_months) * p.cost_usd_per_month,
    );
    let all_year = all_year.map_or(0.0, |c| round_cents(12.0 * c.cost.total_cents()));
    Ok(TimePhased {
        base: b,
        peak: p,
        yearly_cost_usd: yearly,
        peak_all_year_yearly_cost_usd: all_year,
        yearly_savings_usd: round_cents(all_year - yearly),
    })
}

fn alternative_row(
    basis: &str,
    level: Option<ServiceLevel>,
    datastores: u32,
    c: Option<&Candidate>,
    chosen: &Candidate,
    infeasible_note: &str,
) -> Alternative {
    match c {
        Some(c) => {
            let cost = c.cost.total_cents();
            let same = c.variant.spec.service_level == chosen.variant.spec.service_level
                && c.size_tib == chosen.size_tib
                && c.datastores == chosen.datastores
                && c.variant.cool == chosen.variant.cool
                && c.variant.large == chosen.variant.large
                && c.purchased_mibps == chosen.purchased_mibps;
            Alternative {
                basis: basis.into(),
                service_level: Some(c.variant.spec.service_level),
                datastores: c.datastores,
                feasible: true,
                pool_size_tib: c.size_tib,
                purchased_throughput_mibps: c.purchased_mibps,
                cool_access: c.variant.cool,
                large_volumes: c.variant.large,
                reserved_tib: c.cost.reserved_tib,
                cost_usd_per_month: cost,
                extra_cost_usd_per_month: round_cents(cost - chosen.cost.total_cents()),
                note: if same { "chosen".into() } else { String::new() },
            }
        }
        None => Alternative {
            basis: basis.into(),
            service_level: level,
            datastores,
            feasible: false,
            pool_size_tib: 0,
            purchased_throughput_mibps: 0.0,
            cool_access: false,
            large_volumes: false,
            reserved_tib: 0,
            cost_usd_per_month: 0.0,
            extra_cost_usd_per_month: 0.0,
            note: infeasible_note.into(),
        },
    }
}

/// A VM whose own need (from `--perf`) exceeds what one VMDK on one datastore carries.
#[derive(Debug, Clone)]
struct Spread {
    name: String,
    origin: crate::inventory::Origin,
    iops: f64,
    mibps: f64,
    /// What one VM reaches on one datastore: (IOPS, MiB/s).
    one: (f64, f64),
    /// Fewest datastores its VMDKs must spread over; `None` when even `max_datastores` is
    /// not enough for one VM.
    datastores: Option<u32>,
    /// What one VM reaches at that count (or at the most datastores): (IOPS, MiB/s).
    reached: (f64, f64),
}

/// The VMs whose per-VM need exceeds one VMDK on one datastore (one VM on one host, one
/// flow per datastore), with the fewest datastores that carry them.
fn vm_spreads(
    model: &PerfModel,
    demand: &Demand,
    limits: &Limits,
    max_d: u32,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Vec<Spread>, OptimizeError> {
    let mut out = Vec::new();
    if demand
        .placed
        .iter()
        .all(|v| v.iops.is_none() && v.throughput_mibps.is_none())
    {
        return Ok(out);
    }
    let mut reach = Vec::with_capacity(max_d as usize);
    for d in 1..=max_d {
        let mut l = Layout::new(1, d, limits.volume_max_throughput_mibps);
        l.vms_per_host = Some(1);
        l.vmdks_per_vm = Some(d);
        reach.push((
            model.predict(&l, small)?.iops,
            model.predict(&l, large)?.throughput_mibps,
        ));
    }
    let (one, last) = (reach[0], reach[reach.len() - 1]);
    for vm in &demand.placed {
        let iops = vm.iops.unwrap_or(0.0);
        let mibps = vm.throughput_mibps.unwrap_or(0.0);
        if !(iops.is_finite() && mibps.is_finite()) || (iops <= one.0 && mibps <= one.1) {
            continue;
        }
        let k = reach
            .iter()
            .position(|r| r.0 >= iops && r.1 >= mibps)
            .map(|i| i as u32 + 1);
        out.push(Spread {
            name: vm.name.clone(),
            origin: vm.origin.clone(),
            iops,
            mibps,
            one,
            datastores: k,
            reached: k.map_or(last, |k| reach[(k - 1) as usize]),
        });
    }
    Ok(out)
}

/// Warnings (and a binding limit) for the VMs that must spread their VMDKs.
fn explain_spreads(plan: &mut Plan, spreads: &[Spread], max_d: u32, small: &IoProfile) {
    let g = crate::numbers::group_thousands;
    for s in spreads {
        let message = match s.datastores {
            Some(k) => format!(
                "VM '{}' needs {} IOPS / {} MiB/s, more than one VMDK on one datastore carries \
                 ({} IOPS at {} KiB / {} MiB/s): spread its VMDKs over at least {k} datastores \
                 (one VM reaches {} IOPS / {} MiB/s there)",
                s.name,
                g(s.iops, 0),
                g(s.mibps, 0),
                g(s.one.0, 0),
                small.block_size_kib,
                g(s.one.1, 0),
                g(s.reached.0, 0),
                g(s.reached.1, 0)
            ),
            None => format!(
                "VM '{}' needs {} IOPS / {} MiB/s, more than one VM reaches even over {max_d} \
                 datastores ({} IOPS / {} MiB/s): split its workload over several VMs",
                s.name,
                g(s.iops, 0),
                g(s.mibps, 0),
                g(s.reached.0, 0),
                g(s.reached.1, 0)
            ),
        };
        plan.warnings
            .push(crate::inventory::Warning::at_row(&s.origin, message));
    }
    let need = spreads
        .iter()
        .filter_map(|s| s.datastores)
        .max()
        .unwrap_or(1);
    if need > 1 && plan.totals.datastores == need {
        plan.binding.push(BindingLimit {
            constraint: Constraint::VmSpread,
            detail: format!(
                "{} VM(s) need their VMDKs spread over at least {need} datastores (per-VM \
                 performance, --perf)",
                spreads
                    .iter()
                    .filter(|s| s.datastores == Some(need))
                    .count()
            ),
        });
    }
}

/// The alternatives table: the cheapest plan per service level, then at exactly 1, 2, 4 and
/// 8 datastores (those within `--max-datastores`).
fn alternatives(
    ctx: &Context,
    t: &Targets,
    chosen: &Candidate,
    per_level: &[(&ServiceLevelSpec, Option<Candidate>)],
) -> Result<Vec<Alternative>, OptimizeError> {
    let mut out = Vec::new();
    for (spec, c) in per_level {
        out.push(alternative_row(
            "service_level",
            Some(spec.service_level),
            0,
            c.as_ref(),
            chosen,
            "no layout of this level meets every target",
        ));
    }
    for d in ALTERNATIVE_DATASTORES {
        if d > ctx.options.max_datastores {
            continue;
        }
        let at_d = best_overall(&best_per_level(ctx, t, Some(d))?);
        out.push(alternative_row(
            "datastores",
            None,
            d,
            at_d.as_ref(),
            chosen,
            "too few flows or volumes for the targets at this count",
        ));
    }
    Ok(out)
}

/// What one more TiB of capacity, and 100 more MiB/s, would cost.
fn marginal_costs(
    ctx: &Context,
    t: &Targets,
    chosen: &Candidate,
) -> Result<Vec<MarginalCost>, OptimizeError> {
    let mut out = Vec::new();
    let more_tib = Targets {
        required_gib: t.required_gib + GIB_PER_TIB,
        ..*t
    };
    let more_mibps = Targets {
        mibps: t.mibps + 100.0,
        ..*t
    };
    for (change, grown) in [
        ("capacity_plus_1_tib", more_tib),
        ("throughput_plus_100_mibps", more_mibps),
    ] {
        let best = best_overall(&best_per_level(ctx, &grown, None)?);
        out.push(match best {
            Some(c) => {
                let cost = c.cost.total_cents();
                MarginalCost {
                    change: change.into(),
                    feasible: true,
                    cost_usd_per_month: cost,
                    extra_cost_usd_per_month: round_cents(cost - chosen.cost.total_cents()),
                    detail: c.describe(),
                }
            }
            None => MarginalCost {
                change: change.into(),
                feasible: false,
                cost_usd_per_month: 0.0,
                extra_cost_usd_per_month: 0.0,
                detail: "beyond every layout within the limits".into(),
            },
        });
    }
    Ok(out)
}

/// Builds, places and verifies the plan for a chosen layout.
fn build_plan(
    demand: &Demand,
    ctx: &Context,
    model: &PerfModel,
    chosen: &Candidate,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Plan, OptimizeError> {
    let options = ctx.options;
    let prices = ctx.prices;
    let limits = ctx.limits();
    let spec = chosen.variant.spec;
    let level = spec.service_level;
    let size_tib = chosen.size_tib;
    let purchased_mibps = chosen.purchased_mibps;
    let datastores = chosen.datastores;
    let cool = chosen.variant.cool;
    let cost = &chosen.cost;
    let included = chosen.variant.rate_mibps_per_tib() * f64::from(size_tib)
        + spec.included_throughput_mibps_per_pool;
    let pool_tp = included + purchased_mibps;
    let pool_name = format!("pool-{level}-1");
    let hot = round_cents(cost.hot_capacity);
    let cool_cap = round_cents(cost.cool_capacity);
    let transfer = round_cents(cost.cool_transfer);
    let tp_cost = round_cents(cost.throughput);
    let pool = PoolPlan {
        name: pool_name.clone(),
        service_level: level,
        qos: "manual".into(),
        size_tib,
        throughput_mibps: pool_tp,
        included_throughput_mibps: included,
        purchased_throughput_mibps: purchased_mibps,
        capacity_cost_usd_per_month: round_cents(hot + cool_cap),
        throughput_cost_usd_per_month: tp_cost,
        cost_usd_per_month: cost.total_cents(),
        cool_access: cool,
        cool_data_gib: if cool { ctx.cold_gib } else { 0.0 },
        hot_capacity_cost_usd_per_month: hot,
        cool_capacity_cost_usd_per_month: cool_cap,
        cool_transfer_cost_usd_per_month: transfer,
        reserved_tib: cost.reserved_tib,
        reservation_discount_pct: cost.discount_pct,
    };

    // Verify: the model re-evaluates the layout with its QoS.
    let volume_max_mibps = if chosen.variant.large {
        limits.large_volume_max_throughput_mibps
    } else {
        limits.volume_max_throughput_mibps
    };
    let mut layout = workload_layout(
        options.hosts,
        datastores,
        volume_max_mibps,
        demand.placed.len(),
    );
    layout.qos_throughput_mibps = Some(pool_tp);
    if cool {
        layout.cool_pct = options.cold_pct;
    }
    let small_pred = model.predict(&layout, small)?;
    let large_pred = model.predict(&layout, large)?;
    let tol = 1e-6;
    if small_pred.iops + tol < demand.options.iops {
        return Err(OptimizeError::Verification(format!(
            "predicted {:.0} IOPS < target {:.0}",
            small_pred.iops, demand.options.iops
        )));
    }
    if large_pred.throughput_mibps + tol < demand.options.throughput_mibps {
        return Err(OptimizeError::Verification(format!(
            "predicted {:.1} MiB/s < target {:.1}",
            large_pred.throughput_mibps, demand.options.throughput_mibps
        )));
    }
    let pool_gib = f64::from(size_tib) * GIB_PER_TIB;
    if pool_gib + tol < demand.required_capacity_gib {
        return Err(OptimizeError::Verification(format!(
            "pool {pool_gib} GiB < required {:.1} GiB",
            demand.required_capacity_gib
        )));
    }
    let (vmin_tib, vmax_tib) = ctx.volume_range_tib(chosen.variant.large);
    let per_volume_tib = f64::from(size_tib) / f64::from(datastores);
    if per_volume_tib + tol < vmin_tib || per_volume_tib > vmax_tib + tol {
        return Err(OptimizeError::Verification(format!(
            "volume of {per_volume_tib:.2} TiB outside {vmin_tib:.3}..{vmax_tib} TiB"
        )));
    }

    let d = f64::from(datastores);
    // Volume quotas are whole GiB: the pool's GiB split as evenly as whole numbers allow.
    let pool_gib_whole = u64::from(size_tib) * 1024;
    let base_gib = pool_gib_whole / u64::from(datastores);
    let extra = pool_gib_whole % u64::from(datastores);
    let mut ds: Vec<DatastorePlan> = (1..=datastores)
        .map(|i| {
            let size_gib = (base_gib + u64::from(u64::from(i) <= extra)) as f64;
            DatastorePlan {
                name: format!("anf-ds-{i:02}"),
                pool: pool_name.clone(),
                service_level: level,
                size_gib,
                throughput_mibps: pool_tp / d,
                predicted_iops: small_pred.iops / d,
                predicted_throughput_mibps: large_pred.throughput_mibps / d,
                cost_usd_per_month: round_cents(pool.cost_usd_per_month * size_gib / pool_gib),
                vm_count: 0,
                placed_capacity_gib: 0.0,
                large_volume: chosen.variant.large,
            }
        })
        .collect();
    // Data may fill each datastore only up to the share growth, snapshot reserve and
    // headroom leave it.
    let o = &demand.options;
    let fill_share = 1.0
        / ((1.0 + o.growth_pct / 100.0)
            * (1.0 + o.snapshot_reserve_pct / 100.0)
            * (1.0 + o.headroom_pct / 100.0));
    let (placements, mut place_warnings) = place_vms(demand, &mut ds, fill_share, &ctx.spread_over);
    let empty: Vec<&str> = ds
        .iter()
        .filter(|d| d.vm_count == 0)
        .map(|d| d.name.as_str())
        .collect();
    if !empty.is_empty() {
        place_warnings.push(crate::inventory::Warning::plan_wide(format!(
            "{} hold no VM after placement by capacity: the predicted IOPS count their \
                 flows, so spread VMDKs of the busiest VMs onto them",
            empty.join(", ")
        )));
    }

    let binding = binding_limits(demand, ctx, chosen, model, small, large)?;

    let mut warnings = demand.warnings.clone();
    warnings.extend(place_warnings);
    if chosen.variant.large {
        warnings.push(crate::inventory::Warning::plan_wide(
            "the plan uses ANF large volumes (more than 100 TiB or 4,500 MiB/s per \
                      datastore): check that large volumes can be attached as AVS datastores \
                      in your region before ordering; otherwise raise --max-datastores"
                .into(),
        ));
    }
    if o.iops <= 0.0 && o.throughput_mibps <= 0.0 {
        warnings.push(crate::inventory::Warning::plan_wide(
            "no IOPS or MiB/s target was given (--iops, --throughput-mibps): the \
                      plan is sized for capacity only and its throughput is whatever the \
                      cheapest pool includes"
                .into(),
        ));
    }
    let reservation_note = match options.reservation {
        ReservationTerm::None => "--reservation (default none): pay as you go".to_string(),
        term => match ctx.discount(level) {
            Some(r) => format!(
                "--reservation {term}: {}% off the hot tier of {level}, bought in units of {} \
                 TiB (data/reservations.csv); cool tier and throughput not covered",
                r.discount_pct, r.unit_tib
            ),
            None => format!(
                "--reservation {term}: no published discount for {level} \
                 (data/reservations.csv); priced pay as you go"
            ),
        },
    };
    let assumptions = vec![
        assumption("hosts", options.hosts.to_string(), "--hosts"),
        assumption("region", prices.region.clone(), "--region (default eastus)"),
        assumption(
            "capacity_basis",
            o.capacity_basis.as_str().to_string(),
            "--capacity-basis (default in-use)",
        ),
        assumption(
            "growth_pct",
            o.growth_pct.to_string(),
            "--growth-pct (default 0)",
        ),
        assumption(
            "snapshot_reserve_pct",
            o.snapshot_reserve_pct.to_string(),
            "--snapshot-reserve-pct (default 0): space for snapshots, percent of the data",
        ),
        assumption(
            "headroom_pct",
            o.headroom_pct.to_string(),
            "--headroom-pct (default 20): datastores sized at (1 + headroom) x data",
        ),
        assumption(
            "max_datastores",
            options.max_datastores.to_string(),
            "--max-datastores (AVS default 8 per cluster, up to 256 by request)",
        ),
        assumption(
            "io_profile",
            format!(
                "{} KiB, {}% read, {}% random",
                small.block_size_kib, small.read_pct, small.random_pct
            ),
            "--block-size, --read-pct, --random-pct",
        ),
        assumption(
            "throughput_profile",
            format!("{} KiB sequential", large.block_size_kib),
            "the published large-block test shape [AVS-PERF]",
        ),
        assumption(
            "qos",
            "manual".into(),
            "each datastore gets an equal share of its pool's throughput; the QoS covers the \
             larger of the two targets (IOPS x block size, MiB/s), taken as peaks at different \
             times",
        ),
        assumption(
            "cold_pct",
            options.cold_pct.to_string(),
            if options.cold_pct > 0.0 {
                "--cold-pct: share of the data (after growth) in the cool tier under cool \
                 access; reads assumed spread evenly over the data (conservative)"
            } else {
                "--cold-pct (default 0): RVTools holds no access data, so no cold data is \
                 assumed and cool access is not considered (ANF guidance: up to 80% is \
                 typically cold)"
            },
        ),
        assumption(
            "cool_retrieval_pct",
            options.cool_retrieval_pct.to_string(),
            "--cool-retrieval-pct (default 10): percent of the cold data moved between tiers \
             per month, at the cool transfer price",
        ),
        assumption(
            "reservation",
            options.reservation.to_string(),
            &reservation_note,
        ),
        assumption(
            "exclude_powered_off",
            o.exclude_powered_off.to_string(),
            "--exclude-powered-off",
        ),
        assumption(
            "prices",
            format!("{} (effective {})", prices.source, prices.effective_start),
            "monthly = hourly x 730, retail",
        ),
    ];
    Ok(Plan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        prices_effective: prices.effective_start_for(level),
        hosts: options.hosts,
        assumptions,
        totals: Totals {
            vms_placed: demand.placed.len(),
            vms_excluded: demand.excluded.len(),
            datastores,
            flows: layout.flows(),
            hosts_with_vms: layout.hosts,
            pool_size_tib: size_tib,
            required_capacity_gib: demand.required_capacity_gib,
            placed_capacity_gib: demand.placed_capacity_gib,
            excluded_capacity_gib: demand.excluded_capacity_gib,
            throughput_mibps: pool_tp,
            cost_usd_per_month: pool.cost_usd_per_month,
        },
        pools: vec![pool],
        datastores: ds,
        performance: Performance {
            iops_target: demand.options.iops,
            throughput_target_mibps: demand.options.throughput_mibps,
            small_block_profile: *small,
            large_block_profile: *large,
            small_block: small_pred,
            large_block: large_pred,
        },
        binding,
        alternatives: Vec::new(),
        marginal_costs: Vec::new(),
        vsan_comparison: None,
        time_phased: None,
        placements,
        excluded: demand.excluded.clone(),
        warnings,
    })
}

fn assumption(name: &str, value: String, note: &str) -> Assumption {
    Assumption {
        name: name.into(),
        value,
        note: note.into(),
    }
}

/// Places every VM: largest first onto the datastore with the most room, where a
/// datastore's room is `fill_share x size` (the part growth and headroom leave to today's
/// data) minus what is already placed; this balances capacity and keeps every datastore's
/// headroom. A VM larger than any datastore's room is split over the datastores with the
/// most room (its VMDKs must be spread), with a warning. Since the pool holds
/// `(1 + growth)(1 + headroom)` x the data, the rooms always add up to enough.
fn place_vms(
    demand: &Demand,
    ds: &mut [DatastorePlan],
    fill_share: f64,
    spread_over: &std::collections::BTreeMap<(String, String, usize), u32>,
) -> (Vec<Placement>, Vec<crate::inventory::Warning>) {
    let mut order: Vec<usize> = (0..demand.placed.len()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (&demand.placed[a], &demand.placed[b]);
        vb.capacity_gib
            .total_cmp(&va.capacity_gib)
            .then_with(|| va.name.cmp(&vb.name))
            .then_with(|| a.cmp(&b))
    });
    let room = |d: &DatastorePlan| (d.size_gib * fill_share - d.placed_capacity_gib).max(0.0);
    let mut placements = Vec::with_capacity(order.len());
    let mut warnings = Vec::new();
    for i in order {
        let vm = &demand.placed[i];
        // A VM whose load needs k datastores gets its VMDKs in k equal parts on the k
        // datastores with the most room, when they hold them.
        let key = (
            vm.origin.file.clone(),
            vm.origin.sheet.clone(),
            vm.origin.row,
        );
        if let Some(&k) = spread_over.get(&key)
            && k > 1
            && (k as usize) <= ds.len()
        {
            let mut by_room: Vec<usize> = (0..ds.len()).collect();
            by_room.sort_by(|&a, &b| room(&ds[b]).total_cmp(&room(&ds[a])).then(a.cmp(&b)));
            let chosen = &by_room[..k as usize];
            let part = vm.capacity_gib / f64::from(k);
            if chosen.iter().all(|&j| room(&ds[j]) + 1e-9 >= part) {
                for &j in chosen {
                    placements.push(put(&mut ds[j], vm, part));
                }
                continue;
            }
        }
        let mut left = vm.capacity_gib;
        let mut first = true;
        // most room; ties to the lowest index
        while let Some(j) =
            (0..ds.len()).max_by(|&a, &b| room(&ds[a]).total_cmp(&room(&ds[b])).then(b.cmp(&a)))
        {
            let free = room(&ds[j]);
            // Whole VM when it fits (or when every datastore is full but for rounding).
            let part = if left <= free + 1e-9 || free < 1e-6 {
                left
            } else {
                free
            };
            if first && part < left {
                warnings.push(crate::inventory::Warning::at_row(
                    &vm.origin,
                    format!(
                        "VM '{}' ({:.1} GiB) is larger than the room on any one datastore \
                         ({:.1} GiB with growth and headroom kept): its VMDKs must be spread \
                         over several datastores",
                        vm.name, vm.capacity_gib, free
                    ),
                ));
            }
            first = false;
            placements.push(put(&mut ds[j], vm, part));
            left -= part;
            if left <= 1e-9 {
                break;
            }
        }
    }
    (placements, warnings)
}

/// Records `part` GiB of `vm` on datastore `d` and returns its placement.
fn put(d: &mut DatastorePlan, vm: &crate::demand::VmDemand, part: f64) -> Placement {
    d.placed_capacity_gib += part;
    d.vm_count += 1;
    Placement {
        vm: vm.name.clone(),
        origin: vm.origin.clone(),
        datastore: d.name.clone(),
        capacity_gib: part,
    }
}

/// Which constraints decide the plan, each with its numbers.
fn binding_limits(
    demand: &Demand,
    ctx: &Context,
    chosen: &Candidate,
    model: &PerfModel,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Vec<BindingLimit>, OptimizeError> {
    let mut out = Vec::new();
    let o = &demand.options;
    let options = ctx.options;
    let spec = chosen.variant.spec;
    let size_tib = chosen.size_tib;
    let datastores = chosen.datastores;
    let capacity_tib = (demand.required_capacity_gib / GIB_PER_TIB)
        .ceil()
        .max(ctx.limits().pool_min_tib);
    let qos_required = o
        .throughput_mibps
        .max(o.iops * small.block_size_kib / 1024.0);
    let rate = chosen.variant.rate_mibps_per_tib();
    let (vmin_tib, vmax_tib) = ctx.volume_range_tib(chosen.variant.large);
    let g = crate::numbers::group_thousands;
    if f64::from(size_tib) <= capacity_tib {
        out.push(BindingLimit {
            constraint: Constraint::Capacity,
            detail: format!(
                "{} GiB required (after growth, snapshot reserve and headroom) sets the pool \
                 at {size_tib} TiB",
                g(demand.required_capacity_gib, 1)
            ),
        });
    } else if spec.service_level != ServiceLevel::Flexible
        && rate * (f64::from(size_tib) - 1.0) < qos_required
    {
        out.push(BindingLimit {
            constraint: Constraint::ThroughputQos,
            detail: format!(
                "{} MiB/s of QoS at {rate} MiB/s per TiB{} sets the {} pool at {size_tib} TiB, \
                 above the {capacity_tib} TiB capacity needs",
                g(qos_required, 0),
                if chosen.variant.cool {
                    " (cool-access rate)"
                } else {
                    ""
                },
                spec.service_level
            ),
        });
    } else if vmin_tib * f64::from(datastores) > f64::from(size_tib) - 1.0 {
        out.push(BindingLimit {
            constraint: Constraint::VolumeSize,
            detail: format!(
                "{datastores} volumes of at least {vmin_tib:.3} TiB set the pool at {size_tib} \
                 TiB"
            ),
        });
    } else {
        out.push(BindingLimit {
            constraint: Constraint::ThroughputQos,
            detail: format!(
                "{} MiB/s of QoS needs a Flexible pool of at least {size_tib} TiB (at most {} \
                 MiB/s per TiB), above the {capacity_tib} TiB capacity needs",
                g(qos_required, 0),
                spec.max_throughput_mibps_per_tib
            ),
        });
    }
    if spec.service_level == ServiceLevel::Flexible && chosen.purchased_mibps > 0.0 {
        out.push(BindingLimit {
            constraint: Constraint::ThroughputQos,
            detail: format!(
                "{} MiB/s of QoS needs {} MiB/s purchased above the {} included",
                g(qos_required, 0),
                g(chosen.purchased_mibps, 0),
                spec.included_throughput_mibps_per_pool
            ),
        });
    }
    if datastores > 1 {
        let ceilings = ctx.ceilings(&chosen.variant);
        let i = (datastores - 2) as usize;
        let (fewer_iops, fewer_tp) = (ceilings.iops[i], ceilings.throughput_mibps[i]);
        let volume_max_mibps = if chosen.variant.large {
            ctx.limits().large_volume_max_throughput_mibps
        } else {
            ctx.limits().volume_max_throughput_mibps
        };
        let mut fewer = workload_layout(
            options.hosts,
            datastores - 1,
            volume_max_mibps,
            demand.placed.len(),
        );
        if chosen.variant.cool {
            fewer.cool_pct = options.cold_pct;
        }
        if fewer_iops < o.iops {
            let p = model.predict(&fewer, small)?;
            out.push(BindingLimit {
                constraint: Constraint::IopsFlows,
                detail: format!(
                    "{:.0} IOPS need {datastores} datastores ({} flows); {} reach only {:.0} \
                     ({})",
                    o.iops,
                    u64::from(options.hosts) * u64::from(datastores),
                    datastores - 1,
                    fewer_iops,
                    p.bottleneck.as_str()
                ),
            });
        }
        if fewer_tp < o.throughput_mibps {
            let p = model.predict(&fewer, large)?;
            out.push(BindingLimit {
                constraint: Constraint::ThroughputFlows,
                detail: format!(
                    "{:.0} MiB/s need {datastores} datastores; {} reach only {:.0} MiB/s ({})",
                    o.throughput_mibps,
                    datastores - 1,
                    fewer_tp,
                    p.bottleneck.as_str()
                ),
            });
        }
        if f64::from(size_tib) > vmax_tib * f64::from(datastores - 1) {
            out.push(BindingLimit {
                constraint: Constraint::VolumeSize,
                detail: format!(
                    "{size_tib} TiB needs {datastores} volumes of at most {vmax_tib} TiB"
                ),
            });
        }
    }
    if chosen.variant.large {
        let l = ctx.limits();
        out.push(BindingLimit {
            constraint: Constraint::LargeVolume,
            detail: format!(
                "no layout of regular volumes (at most {} TiB and {} MiB/s each, {} \
                 datastores) meets the targets: large volumes ({}..{} TiB, up to {} MiB/s)",
                l.volume_max_tib,
                l.volume_max_throughput_mibps,
                options.max_datastores,
                l.large_volume_min_tib,
                l.large_volume_max_tib,
                l.large_volume_max_throughput_mibps
            ),
        });
    }
    if chosen.variant.cool {
        let hot_only = Variant {
            cool: false,
            ..chosen.variant
        };
        let hot_cost = cost_parts(ctx, &hot_only, size_tib, chosen.purchased_mibps)?;
        out.push(BindingLimit {
            constraint: Constraint::CoolAccess,
            detail: format!(
                "{:.1} GiB cold ({}% of the data) at the cool rate plus {}% re-read a month \
                 costs {:.2} USD/month less than the same pool all hot",
                ctx.cold_gib,
                options.cold_pct,
                options.cool_retrieval_pct,
                hot_cost.total() - chosen.cost.total()
            ),
        });
    }
    if chosen.cost.reserved_tib > 0 {
        out.push(BindingLimit {
            constraint: Constraint::Reservation,
            detail: format!(
                "{} TiB of the hot tier reserved ({} x {}-TiB units, {} term) at {}% off",
                chosen.cost.reserved_tib,
                ctx.discount(spec.service_level)
                    .map_or(0.0, |r| f64::from(chosen.cost.reserved_tib) / r.unit_tib),
                ctx.discount(spec.service_level).map_or(0.0, |r| r.unit_tib),
                options.reservation,
                chosen.cost.discount_pct
            ),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_cost_is_size_times_price() {
        let c = Catalog::builtin().unwrap();
        let p = c.region("eastus").unwrap();
        // 10 TiB ultra: 10 x 1024 x 0.000538 x 730 = 4021.6576
        let (cap, tp) = pool_cost_usd_per_month(p, ServiceLevel::Ultra, 10, 0.0).unwrap();
        assert!((cap - 4021.6576).abs() < 1e-6, "{cap}");
        assert_eq!(tp, 0.0);
    }
}

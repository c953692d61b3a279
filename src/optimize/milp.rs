//! The MILP of one variant (service level x cool access x volume kind): its fixed
//! [`Context`], the [`Targets`] it must meet, the performance [`Ceilings`] per datastore
//! count, the monthly [`CostParts`] of a pool, and [`solve_variant`], which builds the
//! problem, solves it with microlp and reads the cheapest [`Candidate`] back.

use std::collections::BTreeMap;

use good_lp::{
    Expression, ProblemVariables, Solution, SolverModel, Variable, WithTimeLimit, constraint,
    solvers::microlp::MicroLpProblem, variable,
};

use super::error::OptimizeError;
use super::options::OptimizeOptions;
use crate::catalog::{
    Catalog, CatalogError, CoolThroughputRule, Limits, RegionPrices, ReservationDiscount,
    ReservationMix, ServiceLevel, ServiceLevelSpec, cheapest_mix, cool_access_rate_mibps_per_tib,
};
use crate::perf::{
    Extrapolation, IoProfile, Layout, PerfError, PerfModel, Prediction, SystemProfile,
};

/// The performance model on one system: the one [`OptimizeOptions::perf_system`] names
/// (the hosts' NICs and ceilings: `anf-avs` for 25 GbE AVS hosts, `anf-avs-av64` for
/// AV64's 100 GbE).
#[derive(Clone, Copy)]
pub(super) struct Perf<'a> {
    pub(super) model: &'a PerfModel,
    pub(super) system: &'a SystemProfile,
}

impl Perf<'_> {
    /// What `layout` achieves for `profile` on the system.
    pub(super) fn predict(
        &self,
        layout: &Layout,
        profile: &IoProfile,
    ) -> Result<Prediction, PerfError> {
        self.model.predict_system(self.system, layout, profile)
    }

    /// Whether a prediction for `layout` lies beyond the system's measurements.
    pub(super) fn extrapolation(&self, layout: &Layout) -> Extrapolation {
        self.model.extrapolation(&self.system.name, layout)
    }
}

/// GiB per TiB.
pub(super) const GIB_PER_TIB: f64 = 1024.0;

/// Seconds the solver may take for one MILP before the plan fails (a guard: the models
/// solve in well under a millisecond).
const SOLVER_TIME_LIMIT_S: f64 = 20.0;

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

/// The large-block profile the MiB/s target is judged at: the published 64 KiB sequential
/// test shape ([`IoProfile::large_block`]) with the workload's read share.
pub fn large_block_profile(small: &IoProfile) -> IoProfile {
    IoProfile {
        block_size_kib: IoProfile::large_block().block_size_kib,
        read_pct: small.read_pct,
        random_pct: 0.0,
    }
}

/// `v` rounded to the cent.
pub(super) fn round_cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0 + 0.0 // + 0.0 turns -0.0 into 0.0
}

/// Layer ceilings (QoS unlimited) for `d = 1..=max` datastores of one kind (cool share,
/// volume ceiling): small-block IOPS and large-block MiB/s, index `d - 1`.
#[derive(Debug, Clone)]
pub(super) struct Ceilings {
    pub(super) iops: Vec<f64>,
    pub(super) throughput_mibps: Vec<f64>,
}

impl Ceilings {
    /// Evaluates `template` at `hosts` and every datastore count up to `max_datastores`.
    pub(super) fn new(
        perf: Perf,
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
            c.iops.push(perf.predict(&layout, small)?.iops);
            c.throughput_mibps
                .push(perf.predict(&layout, large)?.throughput_mibps);
        }
        Ok(c)
    }

    /// Whether `d` datastores reach both targets.
    pub(super) fn meets(&self, d: u32, iops: f64, mibps: f64) -> bool {
        let i = (d - 1) as usize;
        self.iops.get(i).is_some_and(|v| *v >= iops)
            && self.throughput_mibps.get(i).is_some_and(|v| *v >= mibps)
    }
}

/// One enumerated combination of the discrete choices.
#[derive(Debug, Clone, Copy)]
pub(super) struct Variant<'a> {
    pub(super) spec: &'a ServiceLevelSpec,
    pub(super) cool: bool,
    pub(super) large: bool,
    /// MiB/s per TiB the level grants with cool access on, in this region at this cold share
    /// ([`cool_access_rate_mibps_per_tib`], via [`Context::variant`]).
    pub(super) cool_rate_mibps_per_tib: f64,
}

impl Variant<'_> {
    /// MiB/s per TiB the pool grants (the cool-access rate when cool access is on;
    /// Flexible keeps its configured throughput, so its rate never changes).
    pub(super) fn rate_mibps_per_tib(&self) -> f64 {
        if self.cool && self.spec.service_level != ServiceLevel::Flexible {
            self.cool_rate_mibps_per_tib
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
pub(super) struct Targets {
    /// GiB, growth, snapshot reserve and headroom included.
    pub(super) required_gib: f64,
    /// Small-block IOPS.
    pub(super) iops: f64,
    /// Large-block MiB/s.
    pub(super) mibps: f64,
    /// Block size of the IOPS target, KiB.
    pub(super) block_size_kib: f64,
    /// Fewest datastores: a VM whose need exceeds one datastore's flows spreads its VMDKs.
    pub(super) min_datastores: u32,
}

impl Targets {
    /// QoS throughput the pool must grant: `max(MiB/s, IOPS x block KiB / 1024)`.
    pub(super) fn qos_mibps(&self) -> f64 {
        self.mibps.max(self.iops * self.block_size_kib / 1024.0)
    }
}

/// Everything fixed across the MILPs of one call.
pub(super) struct Context<'a> {
    pub(super) catalog: &'a Catalog,
    pub(super) prices: &'a RegionPrices,
    pub(super) options: &'a OptimizeOptions,
    /// The performance model on the plan's system ([`OptimizeOptions::perf_system`]).
    pub(super) perf: Perf<'a>,
    /// The small-block profile of the IOPS target.
    pub(super) small: IoProfile,
    /// The large-block profile of the MiB/s target ([`large_block_profile`]).
    pub(super) large: IoProfile,
    pub(super) levels: Vec<&'a ServiceLevelSpec>,
    /// Cold data under cool access, GiB (0 when cool access is not considered).
    pub(super) cold_gib: f64,
    /// Whether cool-access variants are tried (cold data and cool prices in the region).
    pub(super) cool_possible: bool,
    /// Ceilings indexed `[cool as usize][large as usize]`.
    pub(super) ceilings: [[Ceilings; 2]; 2],
    /// VMs in the plan (they drive the I/O: [`workload_layout`]).
    pub(super) vms: usize,
    /// VMs (by file, sheet, row) whose per-VM load needs their VMDKs over this many
    /// datastores (from per-VM performance figures).
    pub(super) spread_over: BTreeMap<(String, String, usize), u32>,
}

impl<'a> Context<'a> {
    pub(super) fn limits(&self) -> &Limits {
        &self.catalog.limits
    }

    /// The variant of `spec`, cool state and volume kind, with the cool-access rate of the
    /// region's rule at the options' cold share.
    pub(super) fn variant(
        &self,
        spec: &'a ServiceLevelSpec,
        cool: bool,
        large: bool,
    ) -> Variant<'a> {
        Variant {
            spec,
            cool,
            large,
            cool_rate_mibps_per_tib: cool_access_rate_mibps_per_tib(
                spec,
                self.options.cold_pct / 100.0,
                self.cool_rule(spec.service_level),
            ),
        }
    }

    /// The cool-access throughput rule a new pool of `level` gets in the plan's region.
    pub(super) fn cool_rule(&self, level: ServiceLevel) -> CoolThroughputRule {
        self.catalog.cool_access.rule(&self.prices.region, level)
    }

    pub(super) fn ceilings(&self, v: &Variant) -> &Ceilings {
        &self.ceilings[usize::from(v.cool)][usize::from(v.large)]
    }

    /// Whether `variant`'s pool is a share of a pool shared with other clusters
    /// (`shared_pool`, every level but Flexible, whose pools stay one per cluster).
    pub(super) fn shares(&self, variant: &Variant) -> bool {
        self.options.shared_pool && variant.spec.service_level != ServiceLevel::Flexible
    }

    /// GiB per unit of the pool size `P` of `variant`: 1,024 (whole TiB) for a pool of the
    /// plan's own, 1 (whole GiB, as volume quotas are) for a share of a shared pool.
    pub(super) fn pool_unit_gib(&self, variant: &Variant) -> f64 {
        if self.shares(variant) {
            1.0
        } else {
            GIB_PER_TIB
        }
    }

    /// The cool states tried: hot only, or hot and cool.
    pub(super) fn cool_states(&self) -> &'static [bool] {
        if self.cool_possible {
            &[false, true]
        } else {
            &[false]
        }
    }

    /// The volume kinds tried (`large` flags): regular only, or regular and large with
    /// `allow_large_volumes`.
    pub(super) fn volume_kinds(&self) -> &'static [bool] {
        if self.options.allow_large_volumes {
            &[false, true]
        } else {
            &[false]
        }
    }

    /// The volume kinds tried, in words (for messages).
    pub(super) fn volume_kinds_text(&self) -> &'static str {
        if self.options.allow_large_volumes {
            "regular and large volumes"
        } else {
            "regular volumes only"
        }
    }

    /// (smallest, largest) volume, TiB.
    pub(super) fn volume_range_tib(&self, large: bool) -> (f64, f64) {
        let l = self.limits();
        if large {
            (l.large_volume_min_tib, l.large_volume_max_tib)
        } else {
            (l.volume_min_gib / GIB_PER_TIB, l.volume_max_tib)
        }
    }

    /// Most MiB/s one volume carries, regular or large.
    pub(super) fn volume_max_mibps(&self, large: bool) -> f64 {
        let l = self.limits();
        if large {
            l.large_volume_max_throughput_mibps
        } else {
            l.volume_max_throughput_mibps
        }
    }

    /// The workload layout (QoS unlimited) at `datastores` of a variant's volume kind and
    /// cool state, with the options' `nconnect`.
    pub(super) fn layout(&self, datastores: u32, cool: bool, large: bool) -> Layout {
        let vol = self.volume_max_mibps(large);
        let mut layout = workload_layout(self.options.hosts, datastores, vol, self.vms);
        layout.nconnect = self.options.nconnect;
        if cool {
            layout.cool_pct = self.options.cold_pct;
        }
        layout
    }

    /// The chosen candidate's layout with its pool's QoS.
    pub(super) fn candidate_layout(&self, c: &Candidate) -> Layout {
        let mut layout = self.layout(c.datastores, c.variant.cool, c.variant.large);
        layout.qos_throughput_mibps = Some(c.qos_mibps());
        layout
    }

    /// The reservation unit sizes for `level` with a discount (100 TiB and 1 PiB), when a
    /// reservation is asked for and published; empty otherwise.
    pub(super) fn offers(&self, level: ServiceLevel) -> Vec<&ReservationDiscount> {
        self.catalog
            .reservations(level, self.options.reservation)
            .into_iter()
            .filter(|r| r.discount_pct > 0.0)
            .collect()
    }
}

/// Monthly charges of one pool, USD (unrounded).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct CostParts {
    pub(super) hot_capacity: f64,
    pub(super) cool_capacity: f64,
    pub(super) cool_transfer: f64,
    pub(super) throughput: f64,
    /// The reservation units covering the hot tier (empty: pay as you go).
    pub(super) reservation: ReservationMix,
}

impl CostParts {
    /// Hot TiB covered by reservation units (whole units, possibly more than the hot tier).
    pub(super) fn reserved_tib(&self) -> u32 {
        self.reservation.reserved_tib()
    }

    pub(super) fn total(&self) -> f64 {
        self.hot_capacity + self.cool_capacity + self.cool_transfer + self.throughput
    }

    /// The invoice total: each line rounded to the cent, then added.
    pub(super) fn total_cents(&self) -> f64 {
        round_cents(
            round_cents(self.hot_capacity)
                + round_cents(self.cool_capacity)
                + round_cents(self.cool_transfer)
                + round_cents(self.throughput),
        )
    }
}

/// The monthly cost of a pool (or a share of a shared pool) of `size_gib` for `variant`,
/// with the mix of reservation units (100 TiB and 1 PiB) that makes its hot tier cheapest
/// ([`cheapest_mix`]).
pub(super) fn cost_parts(
    ctx: &Context,
    variant: &Variant,
    size_gib: u32,
    purchased_mibps: f64,
) -> Result<CostParts, OptimizeError> {
    let level = variant.spec.service_level;
    let (per_tib, tp) = pool_cost_usd_per_month(ctx.prices, level, 1, purchased_mibps)?;
    let cold_gib = if variant.cool { ctx.cold_gib } else { 0.0 };
    let hot_tib = ((f64::from(size_gib) - cold_gib) / GIB_PER_TIB).max(0.0);
    let (reservation, hot_capacity) = cheapest_mix(&ctx.offers(level), hot_tib, per_tib);
    let mut parts = CostParts {
        hot_capacity,
        throughput: tp,
        reservation,
        ..CostParts::default()
    };
    if variant.cool {
        let cool = ctx.prices.cool_capacity_usd_per_gib_month.unwrap_or(0.0);
        let transfer = ctx.prices.cool_transfer_usd_per_gib.unwrap_or(0.0);
        parts.cool_capacity = cold_gib * cool;
        parts.cool_transfer = cold_gib * ctx.options.cool_retrieval_pct / 100.0 * transfer;
    }
    Ok(parts)
}

/// The cheapest layout of one variant.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate<'a> {
    pub(super) variant: Variant<'a>,
    /// The pool's size (whole TiB of a pool of its own), or the share's (whole GiB), GiB.
    pub(super) size_gib: u32,
    /// A share of a pool shared with other clusters ([`Context::shares`]).
    pub(super) share: bool,
    pub(super) purchased_mibps: f64,
    pub(super) datastores: u32,
    pub(super) cost: CostParts,
}

impl Candidate<'_> {
    /// Strictly better than `other`: cheaper, or as cheap with fewer datastores.
    pub(super) fn better_than(&self, other: &Candidate) -> bool {
        let (a, b) = (self.cost.total(), other.cost.total());
        a < b - 1e-6 || ((a - b).abs() <= 1e-6 && self.datastores < other.datastores)
    }

    /// The size, TiB (a fraction for a share).
    pub(super) fn size_tib(&self) -> f64 {
        f64::from(self.size_gib) / GIB_PER_TIB
    }

    /// The whole TiB of a pool of its own; 0 for a share (its GiB are [`Self::share_gib`]).
    pub(super) fn own_tib(&self) -> u32 {
        if self.share { 0 } else { self.size_gib / 1024 }
    }

    /// The GiB of a share of a shared pool; 0 for a pool of its own.
    pub(super) fn share_gib(&self) -> u32 {
        if self.share { self.size_gib } else { 0 }
    }

    /// The size in words: `3 TiB`, or `2,500 GiB share` of a shared pool.
    pub(super) fn size_text(&self) -> String {
        if self.share {
            format!(
                "{} GiB share",
                crate::numbers::group_thousands(f64::from(self.size_gib), 0)
            )
        } else {
            format!("{} TiB", self.own_tib())
        }
    }

    /// The throughput the pool includes (its rate x size plus the per-pool allowance),
    /// MiB/s.
    pub(super) fn included_mibps(&self) -> f64 {
        self.variant.rate_mibps_per_tib() * self.size_tib()
            + self.variant.spec.included_throughput_mibps_per_pool
    }

    /// The pool's QoS throughput: included plus purchased, MiB/s.
    pub(super) fn qos_mibps(&self) -> f64 {
        self.included_mibps() + self.purchased_mibps
    }

    /// One line: level, size, datastores and the options that apply.
    pub(super) fn describe(&self) -> String {
        let mut s = format!(
            "{} {}, {} datastore(s)",
            self.variant.spec.service_level,
            self.size_text(),
            self.datastores
        );
        if self.purchased_mibps > 0.0 {
            s.push_str(&format!(
                ", {} MiB/s purchased",
                crate::numbers::group_thousands(self.purchased_mibps, 0)
            ));
        }
        if self.variant.cool {
            s.push_str(", cool access");
        }
        if self.variant.large {
            s.push_str(", large volumes");
        }
        if self.cost.reserved_tib() > 0 {
            s.push_str(&format!(", {} TiB reserved", self.cost.reserved_tib()));
        }
        s
    }
}

/// The part of one variant's MILP fixed before the solve.
struct Bounds {
    /// Datastore counts allowed (within the limits, meeting the performance targets).
    ds: Vec<u32>,
    /// GiB per unit of `P` ([`Context::pool_unit_gib`]).
    unit_gib: f64,
    /// Pool units every layout needs (lower bound of `P`).
    need: f64,
    /// Pool units no optimum exceeds (upper bound of `P`).
    bound: f64,
    /// (smallest, largest) volume, TiB.
    volume_tib: (f64, f64),
    /// Hot-tier price, USD per TiB-month.
    price_tib: f64,
}

impl Bounds {
    /// TiB per unit of `P`.
    fn unit_tib(&self) -> f64 {
        self.unit_gib / GIB_PER_TIB
    }
}

/// The bounds of one variant's MILP; `None` when no layout of it can meet the targets.
fn bounds(ctx: &Context, variant: &Variant, t: &Targets, fixed_d: Option<u32>) -> Option<Bounds> {
    let limits = ctx.limits();
    let price_tib = ctx
        .prices
        .capacity_usd_per_tib_month(variant.spec.service_level)?;
    let ceilings = ctx.ceilings(variant);
    let (vmin_tib, vmax_tib) = ctx.volume_range_tib(variant.large);
    let ds: Vec<u32> = (t.min_datastores.max(1)..=ctx.options.max_datastores)
        .filter(|d| fixed_d.is_none_or(|f| f == *d))
        .filter(|d| ceilings.meets(*d, t.iops, t.mibps))
        .collect();
    let (&d_lo, &d_hi) = (ds.first()?, ds.last()?);
    let rate_max = variant.max_rate_mibps_per_tib();
    if rate_max <= 0.0 {
        return None;
    }
    // Lower bounds every layout of this variant needs, and an upper bound no optimum
    // exceeds (cost never falls as the pool grows), in units of `P`: whole TiB, or whole
    // GiB for a share of a shared pool (which has no pool minimum of its own).
    let unit_gib = ctx.pool_unit_gib(variant);
    let per_tib = GIB_PER_TIB / unit_gib;
    let units = |tib: f64| (tib * per_tib - 1e-9).ceil();
    let pool_min = if ctx.shares(variant) {
        0.0
    } else {
        limits.pool_min_tib * per_tib
    };
    let need = (t.required_gib / unit_gib)
        .ceil()
        .max(units(t.qos_mibps() / rate_max))
        .max(units(vmin_tib * f64::from(d_lo)))
        .max(pool_min);
    if need > limits.pool_max_tib * per_tib || need > vmax_tib * f64::from(d_hi) * per_tib {
        return None;
    }
    let bound = need
        .max(units(vmin_tib * f64::from(d_hi)))
        .min(limits.pool_max_tib * per_tib);
    Some(Bounds {
        ds,
        unit_gib,
        need,
        bound,
        volume_tib: (vmin_tib, vmax_tib),
        price_tib,
    })
}

/// One variant's MILP, ready to solve.
struct Milp {
    problem: MicroLpProblem,
    /// `P`, pool TiB.
    pool: Variable,
    /// `E`, Flexible MiB/s purchased (Flexible only).
    purchased: Option<Variable>,
}

/// The objective and the constraints that depend on the level: hot tier (with the
/// reservation units) and, for Flexible, the purchased throughput.
struct LevelTerms {
    objective: Expression,
    qos: Expression,
    constraints: Vec<good_lp::Constraint>,
    purchased: Option<Variable>,
}

/// Adds the level's variables (after `P`): reservation units, then Flexible throughput.
/// `None` when Flexible has no throughput price in the region.
fn level_terms(
    ctx: &Context,
    variant: &Variant,
    b: &Bounds,
    vars: &mut ProblemVariables,
    p: Variable,
) -> Option<LevelTerms> {
    let spec = variant.spec;
    // `P`, `over` and the cold data in units of `P`; reservations and rates per TiB.
    let unit_tib = b.unit_tib();
    let cold = if variant.cool {
        ctx.cold_gib / b.unit_gib
    } else {
        0.0
    };
    let price_unit = b.price_tib * unit_tib;
    let mut objective = Expression::from(0.0);
    let mut constraints = Vec::new();
    let offers = ctx.offers(spec.service_level);
    if offers.is_empty() {
        objective += price_unit * p;
    } else {
        // One integer count per unit size (100 TiB, 1 PiB); `over` is the hot tier beyond
        // the reserved TiB, at the pay-as-you-go price.
        let over = vars.add(variable().min(0.0).max(b.bound));
        objective += price_unit * over;
        let mut reserved = Expression::from(0.0);
        for r in offers {
            let units_max = (b.bound * unit_tib / r.unit_tib).ceil();
            let units = vars.add(variable().integer().min(0.0).max(units_max));
            objective += b.price_tib * (1.0 - r.discount_pct / 100.0) * r.unit_tib * units;
            reserved += r.unit_tib / unit_tib * units;
        }
        constraints.push(constraint!(over >= p - cold - reserved));
    }
    let rate = variant.rate_mibps_per_tib() * unit_tib;
    let mut qos = rate * p + spec.included_throughput_mibps_per_pool;
    let mut purchased = None;
    if spec.service_level == ServiceLevel::Flexible {
        let tp_price = ctx.prices.flexible_throughput_usd_per_mibps_month?;
        let max_rate = spec.max_throughput_mibps_per_tib * unit_tib;
        let e_max = (max_rate * b.bound - spec.included_throughput_mibps_per_pool).max(0.0);
        let e = vars.add(variable().integer().min(0.0).max(e_max));
        objective += tp_price * e;
        qos += e;
        constraints.push(constraint!(
            e + spec.included_throughput_mibps_per_pool <= max_rate * p
        ));
        purchased = Some(e);
    }
    Some(LevelTerms {
        objective,
        qos,
        constraints,
        purchased,
    })
}

/// Builds one variant's MILP; `None` when the level cannot be priced.
fn build_problem(ctx: &Context, variant: &Variant, t: &Targets, b: &Bounds) -> Option<Milp> {
    let ceilings = ctx.ceilings(variant);
    let (vmin_tib, vmax_tib) = b.volume_tib;
    let mut vars = ProblemVariables::new();
    let p = vars.add(variable().integer().min(b.need).max(b.bound));
    let terms = level_terms(ctx, variant, b, &mut vars, p)?;
    let mut z_sum = Expression::from(0.0);
    let mut iops_expr = Expression::from(0.0);
    let mut tp_expr = Expression::from(0.0);
    let mut vol_max_expr = Expression::from(0.0);
    let mut vol_min_expr = Expression::from(0.0);
    for &d in &b.ds {
        let i = (d - 1) as usize;
        let z = vars.add(variable().binary());
        z_sum += z;
        iops_expr += ceilings.iops[i] * z;
        tp_expr += ceilings.throughput_mibps[i] * z;
        vol_max_expr += vmax_tib * f64::from(d) * z;
        vol_min_expr += vmin_tib * f64::from(d) * z;
    }
    let mut problem = vars
        .minimise(terms.objective)
        .using(good_lp::solvers::microlp::microlp)
        .with_time_limit(SOLVER_TIME_LIMIT_S);
    for c in terms.constraints {
        problem = problem.with(c);
    }
    let qos = t.qos_mibps();
    let (unit_gib, unit_tib) = (b.unit_gib, b.unit_tib());
    problem = problem
        .with(constraint!(z_sum == 1.0))
        .with(constraint!(unit_gib * p >= t.required_gib))
        .with(constraint!(unit_tib * p <= vol_max_expr))
        .with(constraint!(vol_min_expr <= unit_tib * p))
        .with(constraint!(terms.qos >= qos))
        .with(constraint!(iops_expr >= t.iops))
        .with(constraint!(tp_expr >= t.mibps));
    Some(Milp {
        problem,
        pool: p,
        purchased: terms.purchased,
    })
}

/// Reads the pool size and purchased throughput of a solution, and takes the fewest
/// datastores that fit that pool (the cost does not depend on the count).
fn read_solution<'a>(
    ctx: &Context<'a>,
    variant: Variant<'a>,
    b: &Bounds,
    solution: &impl Solution,
    milp: (Variable, Option<Variable>),
) -> Result<Candidate<'a>, OptimizeError> {
    let level = variant.spec.service_level;
    let (pool, purchased) = milp;
    let size = solution.value(pool).round() * b.unit_gib;
    if !(size.is_finite() && size >= 1.0 && size <= f64::from(u32::MAX)) {
        return Err(OptimizeError::Solver(format!(
            "{level}: pool size {size} GiB out of range"
        )));
    }
    let size_gib = size as u32;
    let purchased_mibps = purchased.map_or(0.0, |e| solution.value(e).round().max(0.0));
    let (vmin_tib, vmax_tib) = b.volume_tib;
    let sf = size / GIB_PER_TIB;
    let datastores =
        b.ds.iter()
            .copied()
            .find(|&d| vmin_tib * f64::from(d) <= sf + 1e-9 && sf <= vmax_tib * f64::from(d) + 1e-9)
            .ok_or_else(|| {
                OptimizeError::Solver(format!("{level}: no datastore count fits {size_gib} GiB"))
            })?;
    let cost = cost_parts(ctx, &variant, size_gib, purchased_mibps)?;
    Ok(Candidate {
        variant,
        size_gib,
        share: ctx.shares(&variant),
        purchased_mibps,
        datastores,
        cost,
    })
}

/// A floor of the cost of every layout of `variant` that meets `t` (at exactly `fixed_d`
/// datastores when given), USD per month: its
/// pool's least size ([`bounds`]) at the level's price, which is what a pool of no cold
/// data costs without reservation units (the purchased throughput adds to it); 0 with cool
/// access or reservation units; `None` when no layout of it meets `t`.
pub(super) fn cost_floor(
    ctx: &Context,
    variant: &Variant,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Option<f64> {
    let b = bounds(ctx, variant, t, fixed_d)?;
    let level = variant.spec.service_level;
    if variant.cool || !ctx.offers(level).is_empty() {
        return Some(0.0);
    }
    let per_gib = ctx.prices.capacity_usd_per_gib_month.get(&level)?;
    Some(b.need * b.unit_gib * per_gib)
}

/// Solves the MILP of one variant (optionally at exactly `fixed_d` datastores); `None` when
/// no layout of this variant meets the targets.
pub(super) fn solve_variant<'a>(
    ctx: &Context<'a>,
    variant: Variant<'a>,
    t: &Targets,
    fixed_d: Option<u32>,
) -> Result<Option<Candidate<'a>>, OptimizeError> {
    let Some(b) = bounds(ctx, &variant, t, fixed_d) else {
        return Ok(None);
    };
    let Some(milp) = build_problem(ctx, &variant, t, &b) else {
        return Ok(None);
    };
    let level = variant.spec.service_level;
    let solution = match milp.problem.solve() {
        Ok(s) => s,
        Err(good_lp::ResolutionError::Infeasible) => return Ok(None),
        Err(e) => return Err(OptimizeError::Solver(format!("{level}: {e}"))),
    };
    read_solution(ctx, variant, &b, &solution, (milp.pool, milp.purchased)).map(Some)
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

//! The optimizer: the cheapest ANF layout that meets the [`Demand`], as a mixed-integer
//! linear program solved with good_lp's pure-Rust microlp backend.
//!
//! # Formulation
//! A pool has exactly one service level, so the level is enumerated (at most four) and one
//! MILP is solved per level; the cheapest wins (ties: fewer datastores, then catalog order).
//! Keeping the level choice outside the MILP removes the big-M links between a level's
//! binary and its pool size, on which microlp's branch and bound stalled.
//!
//! Decisions of one level's MILP:
//! - `P` (integer TiB): size of the capacity pool (`pool_min <= P <= M`, `M` the largest
//!   size capacity, throughput or volume minimums could need);
//! - `E` (integer MiB/s, Flexible only): throughput purchased above the 128 MiB/s included;
//! - `z_d` (binary): the layout has `d` datastores, `d = 1..=max_datastores` (exactly one).
//!
//! Objective: `price x P + price_flex_tp x E` (USD per month), plus `1e-3 x d` so that,
//! between layouts of equal cost, the one with fewer datastores wins; the reported cost is
//! recomputed from the layout without that term.
//!
//! Constraints:
//! - capacity: `1024 x P >= required GiB`;
//! - volume sizes: each datastore is `P / d`, so `P <= sum_d 100 d z_d` (100 TiB
//!   regular-volume maximum) and `sum_d 50 d z_d <= 1024 x P` (50 GiB minimum);
//! - QoS: `Q = rate x P + included + E >= max(MiB/s target, IOPS target x block KiB / 1024)`,
//!   with `E + 128 <= 640 P` for Flexible;
//! - flows and volumes: the performance model is nonlinear in the datastore count, so it is
//!   evaluated for every `d` beforehand (QoS unlimited) and enters as
//!   `sum_d ceiling_iops(d) z_d >= IOPS target` and `sum_d ceiling_mibps(d) z_d >= MiB/s
//!   target`. This is exact because QoS in the model is a pure cap:
//!   `predict(layout, qos) = min(predict(layout, none), qos)`.
//!
//! Every plan is re-evaluated with [`PerfModel::predict`] before it is returned; a miss is
//! [`OptimizeError::Verification`] (a bug, never a silent result).

use good_lp::{
    Expression, ProblemVariables, Solution, SolverModel, WithTimeLimit, constraint, variable,
};
use serde::{Deserialize, Serialize};

use crate::catalog::{Catalog, CatalogError, RegionPrices, ServiceLevel, ServiceLevelSpec};
use crate::demand::Demand;
use crate::perf::{IoProfile, Layout, PerfError, PerfModel};
use crate::plan::{
    Assumption, BindingLimit, DatastorePlan, Performance, Placement, Plan, PoolPlan,
    SCHEMA_VERSION, Totals,
};

/// Cost added per datastore in the objective to prefer fewer datastores at equal cost,
/// USD per month. Far below the smallest real price step (1 MiB/s of Flexible throughput,
/// about 2 USD per month), so it never changes which layout is cheapest.
const TIE_BREAK_USD_PER_DATASTORE: f64 = 1e-3;

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
        show_number(*required),
        crate::report::group_thousands(reachable.floor(), 0)
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

/// Throughput a pool of `size_tib` at `spec` provides without purchase, MiB/s.
fn included_throughput_mibps(spec: &ServiceLevelSpec, size_tib: u32) -> f64 {
    spec.throughput_mibps_per_tib * f64::from(size_tib) + spec.included_throughput_mibps_per_pool
}

/// A target as the user gave it: whole numbers without decimals, others with one.
fn show_number(v: f64) -> String {
    if v.fract() == 0.0 {
        crate::report::group_thousands(v, 0)
    } else {
        crate::report::group_thousands(v, 1)
    }
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
    let layout = Layout::new(hosts, best_d, limits.volume_max_throughput_mibps);
    let p = model.predict(&layout, profile)?;
    let mut detail = format!(
        "{what}: best with {best_d} datastore(s) x {hosts} hosts = {} flows at {} KiB, \
         limited by the {} layer",
        layout.flows(),
        profile.block_size_kib,
        p.bottleneck.as_str()
    );
    let mut advice = Vec::new();
    if hosts < limits.max_hosts {
        advice.push(format!("more --hosts (up to {})", limits.max_hosts));
    }
    if max_d < limits.max_datastores {
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

struct Ceilings {
    iops: Vec<f64>,
    throughput_mibps: Vec<f64>,
}

/// Layer ceilings (QoS unlimited) for `d = 1..=max` datastores.
fn ceilings(
    model: &PerfModel,
    hosts: u32,
    max_datastores: u32,
    volume_max_mibps: f64,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Ceilings, PerfError> {
    let mut c = Ceilings {
        iops: Vec::new(),
        throughput_mibps: Vec::new(),
    };
    for d in 1..=max_datastores {
        let layout = Layout::new(hosts, d, volume_max_mibps);
        c.iops.push(model.predict(&layout, small)?.iops);
        c.throughput_mibps
            .push(model.predict(&layout, large)?.throughput_mibps);
    }
    Ok(c)
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

/// The cheapest verified plan for `demand`.
///
/// # Errors
/// [`OptimizeError::Invalid`] for hosts outside the catalog's AVS range or a datastore limit
/// outside 1..=256; [`OptimizeError::Catalog`] for an unknown region;
/// [`OptimizeError::Infeasible`] when a target is beyond every layout; others are internal.
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
    let prices = catalog.region(&options.region)?;
    let small = demand.options.io_profile;
    let large = large_block_profile(&small);
    let iops_target = demand.options.iops;
    let tp_target = demand.options.throughput_mibps;
    let volume_max_mibps = limits.volume_max_throughput_mibps;
    let max_d = options.max_datastores;
    let ceil = ceilings(
        model,
        options.hosts,
        max_d,
        volume_max_mibps,
        &small,
        &large,
    )?;

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

    // Targets no layout reaches: say which, and the most reachable.
    let max_qos_mibps = levels
        .iter()
        .map(|s| s.max_throughput_mibps_per_tib * limits.pool_max_tib)
        .fold(0.0, f64::max);
    let best_iops = ceil.iops.iter().copied().fold(0.0, f64::max);
    let reachable_iops = best_iops.min(max_qos_mibps * 1024.0 / small.block_size_kib);
    if iops_target > reachable_iops {
        return Err(OptimizeError::Infeasible {
            target: Target::Iops,
            required: iops_target,
            reachable: reachable_iops,
            detail: unreachable_detail(
                model,
                limits,
                options.hosts,
                max_d,
                &ceil.iops,
                &small,
                "small-block IOPS",
            )?,
        });
    }
    let best_tp = ceil.throughput_mibps.iter().copied().fold(0.0, f64::max);
    let reachable_tp = best_tp.min(max_qos_mibps);
    if tp_target > reachable_tp {
        return Err(OptimizeError::Infeasible {
            target: Target::ThroughputMibps,
            required: tp_target,
            reachable: reachable_tp,
            detail: unreachable_detail(
                model,
                limits,
                options.hosts,
                max_d,
                &ceil.throughput_mibps,
                &large,
                "large-block MiB/s",
            )?,
        });
    }
    let required_gib = demand.required_capacity_gib;
    let max_capacity_gib = 1024.0
        * limits
            .pool_max_tib
            .min(limits.volume_max_tib * f64::from(max_d));
    if required_gib > max_capacity_gib {
        return Err(OptimizeError::Infeasible {
            target: Target::CapacityGib,
            required: required_gib,
            reachable: max_capacity_gib,
            detail: format!(
                "one pool of at most {} TiB, {max_d} regular volumes of at most {} TiB",
                limits.pool_max_tib, limits.volume_max_tib
            ),
        });
    }

    let qos_required_mibps = tp_target.max(iops_target * small.block_size_kib / 1024.0);
    // One MILP per service level (a pool has exactly one); the cheapest wins, ties to fewer
    // datastores, then to catalog order.
    let mut best: Option<LevelSolution> = None;
    for spec in &levels {
        let input = LevelInput {
            spec,
            prices,
            limits,
            ceilings: &ceil,
            required_gib,
            qos_required_mibps,
            iops_target,
            tp_target,
        };
        if let Some(sol) = solve_level(&input)? {
            let better = match &best {
                None => true,
                Some(b) => {
                    sol.cost_usd_per_month < b.cost_usd_per_month - 1e-9
                        || ((sol.cost_usd_per_month - b.cost_usd_per_month).abs() <= 1e-9
                            && sol.datastores < b.datastores)
                }
            };
            if better {
                best = Some(sol);
            }
        }
    }
    let Some(best) = best else {
        return Err(OptimizeError::NoLayout(format!(
            "no service level sold in {} meets {:.1} GiB, {:.0} IOPS and {:.0} MiB/s together \
             within one pool of {} TiB",
            prices.region, required_gib, iops_target, tp_target, limits.pool_max_tib
        )));
    };
    let spec = best.spec;
    let size_tib = best.size_tib;
    let purchased_mibps = best.purchased_mibps;
    let datastores = best.datastores;
    build_plan(
        demand,
        catalog,
        model,
        options,
        prices,
        spec,
        size_tib,
        purchased_mibps,
        datastores,
        &small,
        &large,
    )
}

/// What one service level's MILP needs.
struct LevelInput<'a> {
    spec: &'a ServiceLevelSpec,
    prices: &'a RegionPrices,
    limits: &'a crate::catalog::Limits,
    ceilings: &'a Ceilings,
    required_gib: f64,
    qos_required_mibps: f64,
    iops_target: f64,
    tp_target: f64,
}

/// The cheapest layout at one service level.
struct LevelSolution<'a> {
    spec: &'a ServiceLevelSpec,
    size_tib: u32,
    purchased_mibps: f64,
    datastores: u32,
    cost_usd_per_month: f64,
}

/// Seconds the solver may take for one service level before the plan fails (a guard: the
/// models solve in milliseconds).
const SOLVER_TIME_LIMIT_S: f64 = 20.0;

/// Solves the MILP of one service level; `None` when no layout at this level meets the
/// targets.
fn solve_level<'a>(input: &LevelInput<'a>) -> Result<Option<LevelSolution<'a>>, OptimizeError> {
    let LevelInput {
        spec,
        prices,
        limits,
        ceilings,
        required_gib,
        qos_required_mibps,
        iops_target,
        tp_target,
    } = *input;
    let level = spec.service_level;
    let Some(price_tib) = prices.capacity_usd_per_tib_month(level) else {
        return Ok(None);
    };
    let max_d = ceilings.iops.len() as u32;
    let required_tib = required_gib / 1024.0;
    let min_volume_tib = limits.volume_min_gib * f64::from(max_d) / 1024.0;
    // Upper bound on the pool: the larger of what capacity, throughput and the volume
    // minimum need; a larger pool only costs more.
    let rate_max = spec.max_throughput_mibps_per_tib.max(f64::MIN_POSITIVE);
    let bound = required_tib
        .ceil()
        .max((qos_required_mibps / rate_max).ceil())
        .max(min_volume_tib.ceil())
        .max(limits.pool_min_tib);
    if bound > limits.pool_max_tib {
        return Ok(None);
    }
    let mut vars = ProblemVariables::new();
    let p = vars.add(variable().integer().min(limits.pool_min_tib).max(bound));
    let mut objective = price_tib * p;
    let mut qos = spec.throughput_mibps_per_tib * p + spec.included_throughput_mibps_per_pool;
    let mut extra = Vec::new();
    let mut purchased = None;
    if level == ServiceLevel::Flexible {
        let Some(tp_price) = prices.flexible_throughput_usd_per_mibps_month else {
            return Ok(None);
        };
        let e_max = (spec.max_throughput_mibps_per_tib * bound
            - spec.included_throughput_mibps_per_pool)
            .max(0.0);
        let e = vars.add(variable().integer().min(0.0).max(e_max));
        objective += tp_price * e;
        qos += e;
        extra.push(constraint!(
            e + spec.included_throughput_mibps_per_pool <= spec.max_throughput_mibps_per_tib * p
        ));
        purchased = Some(e);
    }
    let mut z_vars = Vec::new();
    let mut z_sum = Expression::from(0.0);
    let mut iops_expr = Expression::from(0.0);
    let mut tp_expr = Expression::from(0.0);
    let mut vol_max_expr = Expression::from(0.0);
    let mut vol_min_expr = Expression::from(0.0);
    for d in 1..=max_d {
        let i = (d - 1) as usize;
        // A count whose ceilings miss a target can never be chosen: leave it out.
        if ceilings.iops[i] < iops_target || ceilings.throughput_mibps[i] < tp_target {
            continue;
        }
        let z = vars.add(variable().binary());
        objective += TIE_BREAK_USD_PER_DATASTORE * f64::from(d) * z;
        z_sum += z;
        iops_expr += ceilings.iops[i] * z;
        tp_expr += ceilings.throughput_mibps[i] * z;
        vol_max_expr += limits.volume_max_tib * f64::from(d) * z;
        vol_min_expr += limits.volume_min_gib * f64::from(d) * z;
        z_vars.push((d, z));
    }
    if z_vars.is_empty() {
        return Ok(None);
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
        .with(constraint!(1024.0 * p >= required_gib))
        .with(constraint!(p <= vol_max_expr))
        .with(constraint!(vol_min_expr <= 1024.0 * p))
        .with(constraint!(qos >= qos_required_mibps))
        .with(constraint!(iops_expr >= iops_target))
        .with(constraint!(tp_expr >= tp_target));
    let solution = match problem.solve() {
        Ok(s) => s,
        Err(good_lp::ResolutionError::Infeasible) => return Ok(None),
        Err(e) => return Err(OptimizeError::Solver(format!("{level}: {e}"))),
    };
    let datastores = z_vars
        .iter()
        .find(|(_, z)| solution.value(*z) > 0.5)
        .map(|(d, _)| *d)
        .ok_or_else(|| OptimizeError::Solver(format!("{level}: no datastore count chosen")))?;
    let size_tib = solution.value(p).round() as u32;
    let purchased_mibps = purchased.map_or(0.0, |e| solution.value(e).round().max(0.0));
    let (cap, tp) = pool_cost_usd_per_month(prices, level, size_tib, purchased_mibps)?;
    Ok(Some(LevelSolution {
        spec,
        size_tib,
        purchased_mibps,
        datastores,
        cost_usd_per_month: round_cents(round_cents(cap) + round_cents(tp)),
    }))
}

/// Builds, places and verifies the plan for a chosen layout.
#[allow(clippy::too_many_arguments)]
fn build_plan(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    prices: &RegionPrices,
    spec: &ServiceLevelSpec,
    size_tib: u32,
    purchased_mibps: f64,
    datastores: u32,
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Plan, OptimizeError> {
    let limits = &catalog.limits;
    let level = spec.service_level;
    let (cap_cost, tp_cost) = pool_cost_usd_per_month(prices, level, size_tib, purchased_mibps)?;
    let included = included_throughput_mibps(spec, size_tib);
    let pool_tp = included + purchased_mibps;
    let pool_name = format!("pool-{level}-1");
    let pool = PoolPlan {
        name: pool_name.clone(),
        service_level: level,
        qos: "manual".into(),
        size_tib,
        throughput_mibps: pool_tp,
        included_throughput_mibps: included,
        purchased_throughput_mibps: purchased_mibps,
        capacity_cost_usd_per_month: round_cents(cap_cost),
        throughput_cost_usd_per_month: round_cents(tp_cost),
        cost_usd_per_month: round_cents(round_cents(cap_cost) + round_cents(tp_cost)),
    };

    // Verify: the model re-evaluates the layout with its QoS.
    let mut layout = Layout::new(
        options.hosts,
        datastores,
        limits.volume_max_throughput_mibps,
    );
    layout.qos_throughput_mibps = Some(pool_tp);
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
    let pool_gib = f64::from(size_tib) * 1024.0;
    if pool_gib + tol < demand.required_capacity_gib {
        return Err(OptimizeError::Verification(format!(
            "pool {pool_gib} GiB < required {:.1} GiB",
            demand.required_capacity_gib
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
            }
        })
        .collect();
    // Data may fill each datastore only up to the share growth and headroom leave it.
    let o = &demand.options;
    let fill_share = 1.0 / ((1.0 + o.growth_pct / 100.0) * (1.0 + o.headroom_pct / 100.0));
    let (placements, place_warnings) = place_vms(demand, &mut ds, fill_share);

    let binding = binding_limits(
        demand,
        spec,
        size_tib,
        purchased_mibps,
        datastores,
        options,
        limits.volume_max_tib,
        model,
        small,
        large,
        limits.volume_max_throughput_mibps,
    )?;

    let mut warnings = demand.warnings.clone();
    warnings.extend(place_warnings);
    if o.iops <= 0.0 && o.throughput_mibps <= 0.0 {
        warnings.push(crate::inventory::Warning {
            file: String::new(),
            sheet: None,
            row: None,
            column: None,
            value: None,
            message: "no IOPS or MiB/s target was given (--iops, --throughput-mibps): the \
                      plan is sized for capacity only and its throughput is whatever the \
                      cheapest pool includes"
                .into(),
        });
    }
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
            "headroom_pct",
            o.headroom_pct.to_string(),
            "--headroom-pct (default 20): datastores sized at (1 + headroom) x data",
        ),
        assumption(
            "max_datastores",
            options.max_datastores.to_string(),
            "--max-datastores (AVS default 8 per cluster)",
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
            "exclude_powered_off",
            o.exclude_powered_off.to_string(),
            "--exclude-powered-off",
        ),
        assumption(
            "prices",
            format!("{} (effective {})", prices.source, prices.effective_start),
            "monthly = hourly x 730, retail, no reservation",
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
            ds[j].placed_capacity_gib += part;
            ds[j].vm_count += 1;
            placements.push(Placement {
                vm: vm.name.clone(),
                origin: vm.origin.clone(),
                datastore: ds[j].name.clone(),
                capacity_gib: part,
            });
            left -= part;
            if left <= 1e-9 {
                break;
            }
        }
    }
    (placements, warnings)
}

/// Which constraints decide the plan, each with its numbers.
#[allow(clippy::too_many_arguments)]
fn binding_limits(
    demand: &Demand,
    spec: &ServiceLevelSpec,
    size_tib: u32,
    purchased_mibps: f64,
    datastores: u32,
    options: &OptimizeOptions,
    volume_max_tib: f64,
    model: &PerfModel,
    small: &IoProfile,
    large: &IoProfile,
    volume_max_mibps: f64,
) -> Result<Vec<BindingLimit>, OptimizeError> {
    let mut out = Vec::new();
    let o = &demand.options;
    let capacity_tib = (demand.required_capacity_gib / 1024.0).ceil().max(1.0);
    let qos_required = o
        .throughput_mibps
        .max(o.iops * small.block_size_kib / 1024.0);
    let g = crate::report::group_thousands;
    if f64::from(size_tib) <= capacity_tib {
        out.push(BindingLimit {
            constraint: "capacity".into(),
            detail: format!(
                "{} GiB required (after growth and headroom) sets the pool at {size_tib} TiB",
                g(demand.required_capacity_gib, 1)
            ),
        });
    } else if spec.service_level == ServiceLevel::Flexible {
        out.push(BindingLimit {
            constraint: "throughput_qos".into(),
            detail: format!(
                "{} MiB/s of QoS needs a Flexible pool of at least {size_tib} TiB (at most {} \
                 MiB/s per TiB), above the {capacity_tib} TiB capacity needs",
                g(qos_required, 0),
                spec.max_throughput_mibps_per_tib
            ),
        });
    } else {
        out.push(BindingLimit {
            constraint: "throughput_qos".into(),
            detail: format!(
                "{} MiB/s of QoS at {} MiB/s per TiB sets the {} pool at {size_tib} TiB, above \
                 the {capacity_tib} TiB capacity needs",
                g(qos_required, 0),
                spec.throughput_mibps_per_tib,
                spec.service_level
            ),
        });
    }
    if spec.service_level == ServiceLevel::Flexible && purchased_mibps > 0.0 {
        out.push(BindingLimit {
            constraint: "throughput_qos".into(),
            detail: format!(
                "{} MiB/s of QoS needs {} MiB/s purchased above the {} included",
                g(qos_required, 0),
                g(purchased_mibps, 0),
                spec.included_throughput_mibps_per_pool
            ),
        });
    }
    if datastores > 1 {
        let fewer = Layout::new(options.hosts, datastores - 1, volume_max_mibps);
        let fewer_small = model.predict(&fewer, small)?;
        let fewer_large = model.predict(&fewer, large)?;
        if fewer_small.iops < o.iops {
            out.push(BindingLimit {
                constraint: "iops_flows".into(),
                detail: format!(
                    "{:.0} IOPS need {datastores} datastores ({} flows); {} reach only {:.0} \
                     ({})",
                    o.iops,
                    u64::from(options.hosts) * u64::from(datastores),
                    datastores - 1,
                    fewer_small.iops,
                    fewer_small.bottleneck.as_str()
                ),
            });
        }
        if fewer_large.throughput_mibps < o.throughput_mibps {
            out.push(BindingLimit {
                constraint: "throughput_flows".into(),
                detail: format!(
                    "{:.0} MiB/s need {datastores} datastores; {} reach only {:.0} MiB/s ({})",
                    o.throughput_mibps,
                    datastores - 1,
                    fewer_large.throughput_mibps,
                    fewer_large.bottleneck.as_str()
                ),
            });
        }
        if f64::from(size_tib) > volume_max_tib * f64::from(datastores - 1) {
            out.push(BindingLimit {
                constraint: "volume_size".into(),
                detail: format!(
                    "{size_tib} TiB needs {datastores} volumes of at most {volume_max_tib} TiB"
                ),
            });
        }
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

//! The optimizer's entry, [`optimize`]: validate the options, build the [`Context`], check
//! that the targets are reachable at all ([`super::reach`]), take the cheapest variant or
//! time-phased pair ([`super::search`], [`super::phases`]), then explain
//! ([`super::explain`]) and assemble ([`super::assemble`]) the plan.

use super::account::{levels_warning, plan_account_warnings, region_warning};
use super::assemble::assemble;
use super::error::{OptimizeError, only_large_volumes};
use super::explain::{alternatives, feasible_row, infeasible_row, marginal_costs};
use super::milp::{
    Candidate, Ceilings, Context, Perf, Targets, large_block_profile, round_cents, workload_layout,
};
use super::options::{OptimizeOptions, check_non_negative};
use super::phases::{Phased, phased, time_phased};
use super::reach::check_reachable;
use super::search::{
    PerLevel, best_overall, best_per_level, cheapest_overall, large_volumes_would_help,
};
use super::spread::{Spread, explain_spreads, min_datastores, spread_over, vm_spreads};
use crate::catalog::{Catalog, Limits, RegionPrices, ServiceLevel, ServiceLevelSpec};
use crate::demand::Demand;
use crate::inventory::{Warning, WarningKind};
use crate::numbers::show_number;
use crate::perf::{IoProfile, PerfError, PerfModel};
use crate::plan::{Alternative, Assumption, Plan};

/// The cheapest verified plan for `demand`.
///
/// # Errors
/// [`OptimizeError::Invalid`] for hosts outside the catalog's AVS range, a datastore limit
/// outside 1..=256, a cold or retrieval percentage outside 0..=100, a negative or
/// non-finite target, or invalid peak options; [`OptimizeError::Catalog`] for an unknown
/// region; [`OptimizeError::Infeasible`] when a target is beyond every layout;
/// [`OptimizeError::NoLayout`] when the targets are reachable alone but not together;
/// others are internal.
pub fn optimize(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
) -> Result<Plan, OptimizeError> {
    solve_then(demand, catalog, model, options, Find::EachLevel, |s| {
        explain_and_assemble(demand, s, Whole::Plan)
    })
}

/// One cluster's plan within a per-cluster or estate plan: as [`optimize`], without the
/// warnings the larger plan gives once (the peak settings against its own targets, the
/// regional quota and NetApp accounts over all its pools).
///
/// # Errors
/// As [`optimize`].
pub(super) fn optimize_part(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
) -> Result<Plan, OptimizeError> {
    solve_then(demand, catalog, model, options, Find::EachLevel, |s| {
        explain_and_assemble(demand, s, Whole::Part)
    })
}

/// Whether a plan stands alone or is one cluster's part of a larger plan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Whole {
    /// A plan of its own: it gives every warning.
    Plan,
    /// One cluster's plan: the larger plan gives the estate-wide warnings.
    Part,
}

/// What the search finds: each level's cheapest (for a plan, whose alternatives show
/// them), or the cheapest alone ([`cheapest_cost_usd_per_month`]: the levels that cannot
/// be cheaper are not solved, [`cheapest_overall`]; with peak months every level is).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Find {
    EachLevel,
    Cheapest,
}

/// The pool of the plan [`optimize`] returns and its monthly cost, without placing the
/// VMs, explaining or verifying it (for comparing host SKUs).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cheapest {
    /// Monthly cost, USD.
    pub(crate) cost_usd_per_month: f64,
    /// The pool's service level.
    pub(crate) level: ServiceLevel,
    /// Cool access on.
    pub(crate) cool: bool,
    /// A pool of its own, whole TiB (0 for a share).
    pub(crate) size_tib: u32,
    /// A share of a shared pool, GiB (0 for a pool of its own).
    pub(crate) share_gib: u32,
    /// Its data in the cool tier, GiB (0 without cool access).
    pub(crate) cold_gib: f64,
    /// Its hot-tier line pay as you go, USD per month, to the cent.
    pub(crate) hot_usd_per_month: f64,
    /// What its layout delivers with its pool's QoS: small-block IOPS and large-block MiB/s
    /// (the plan's `performance` figures).
    pub(crate) predicted: (f64, f64),
}

/// The pool and monthly cost of the plan [`optimize`] returns, without placing the VMs,
/// explaining or verifying it (the same checks and the same search; for comparing host
/// SKUs).
///
/// # Errors
/// As [`optimize`].
pub(crate) fn cheapest_cost_usd_per_month(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
) -> Result<Cheapest, OptimizeError> {
    solve_then(demand, catalog, model, options, Find::Cheapest, |s| {
        let c = s.chosen;
        let level = c.variant.spec.service_level;
        let cold_gib = if c.variant.cool { s.ctx.cold_gib } else { 0.0 };
        let per_gib = s.ctx.prices.capacity_usd_per_gib_month.get(&level);
        let hot_gib = (f64::from(c.size_gib) - cold_gib).max(0.0);
        let layout = s.ctx.candidate_layout(c);
        let small = s.ctx.perf.predict(&layout, &s.ctx.small)?;
        let large = s.ctx.perf.predict(&layout, &s.ctx.large)?;
        Ok(Cheapest {
            predicted: (small.iops, large.throughput_mibps),
            cost_usd_per_month: c.cost.total_cents(),
            level,
            cool: c.variant.cool,
            size_tib: c.own_tib(),
            share_gib: c.share_gib(),
            cold_gib,
            hot_usd_per_month: round_cents(hot_gib * per_gib.copied().unwrap_or(0.0)),
        })
    })
}

/// What the search found, for the step after it.
struct Solved<'s, 'a> {
    ctx: &'s Context<'a>,
    targets: &'s Targets,
    chosen: &'s Candidate<'a>,
    per_level: &'s PerLevel<'a>,
    phased: Option<Phased<'a>>,
    spreads: &'s [Spread],
}

/// Checks the options and targets, builds the context, checks reachability, searches, and
/// hands what it found to `then`.
fn solve_then<R>(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    find: Find,
    then: impl FnOnce(Solved<'_, '_>) -> Result<R, OptimizeError>,
) -> Result<R, OptimizeError> {
    let prices = catalog.region(&options.region)?;
    // From here on the region is its ARM name, whichever name the caller used.
    let resolved;
    let options = if prices.region == options.region {
        options
    } else {
        resolved = OptimizeOptions {
            region: prices.region.clone(),
            ..options.clone()
        };
        &resolved
    };
    options.validate(&catalog.limits)?;
    let small = demand.options.io_profile;
    small.validate()?;
    let large = large_block_profile(&small);
    let targets = base_targets(demand, &small)?;
    let max_d = options.max_datastores;
    let perf = Perf {
        model,
        system: model.system(&options.perf_system)?,
    };
    let spreads = vm_spreads(
        perf,
        demand,
        &catalog.limits,
        (max_d, options.nconnect),
        &small,
        &large,
    )?;
    let targets = Targets {
        min_datastores: min_datastores(&spreads),
        ..targets
    };
    let peak_targets = match &options.peak {
        None => None,
        Some(pk) => {
            pk.validate(options.reservation)?;
            Some(Targets {
                iops: targets.iops.max(pk.iops),
                mibps: targets.mibps.max(pk.throughput_mibps),
                ..targets
            })
        }
    };
    let profiles = (small, large);
    let ctx = context(demand, catalog, prices, perf, options, &spreads, profiles)?;
    check_reachable(&ctx, &targets, peak_targets.as_ref())?;
    let (chosen, per_level, phased) = search(&ctx, &targets, peak_targets, find)?;
    then(Solved {
        ctx: &ctx,
        targets: &targets,
        chosen: &chosen,
        per_level: &per_level,
        phased,
        spreads: &spreads,
    })
}

/// The targets of `demand` (capacity, IOPS, MiB/s), checked finite and >= 0.
pub(super) fn base_targets(demand: &Demand, small: &IoProfile) -> Result<Targets, OptimizeError> {
    let targets = Targets {
        required_gib: demand.required_capacity_gib,
        iops: demand.options.iops,
        mibps: demand.options.throughput_mibps,
        block_size_kib: small.block_size_kib,
        min_datastores: 1,
    };
    check_non_negative("iops", targets.iops)?;
    check_non_negative("throughput_mibps", targets.mibps)?;
    if !(targets.required_gib.is_finite() && targets.required_gib >= 0.0) {
        return Err(OptimizeError::Invalid {
            option: "required capacity",
            value: format!("{} GiB", targets.required_gib),
            expected: "a finite size: the placed data x (1 + `growth_pct`) x (1 + \
                       `snapshot_reserve_pct`) x (1 + `headroom_pct`) overflows"
                .into(),
        });
    }
    Ok(targets)
}

/// Service levels sold in the region (and allowed by the options).
fn sold_levels<'a>(
    catalog: &'a Catalog,
    prices: &RegionPrices,
    options: &OptimizeOptions,
) -> Result<Vec<&'a ServiceLevelSpec>, OptimizeError> {
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
    Ok(levels)
}

/// Everything fixed across the MILPs: levels, cold data, and the ceilings of every cool
/// state and volume kind.
fn context<'a>(
    demand: &Demand,
    catalog: &'a Catalog,
    prices: &'a RegionPrices,
    perf: Perf<'a>,
    options: &'a OptimizeOptions,
    spreads: &[Spread],
    (small, large): (IoProfile, IoProfile),
) -> Result<Context<'a>, OptimizeError> {
    let levels = sold_levels(catalog, prices, options)?;
    let limits = &catalog.limits;
    let cold_gib = demand.data_capacity_gib() * options.cold_pct / 100.0;
    let cool_possible = cold_gib > 0.0
        && prices.cool_capacity_usd_per_gib_month.is_some()
        && prices.cool_transfer_usd_per_gib.is_some();
    let vms = demand.placed.len();
    let ceilings = |cool, large_volume| {
        ceilings_of(
            (perf, limits),
            options,
            vms,
            (&small, &large),
            (cool, large_volume),
        )
    };
    let regular = ceilings(false, false)?;
    let large_vols = ceilings(false, true)?;
    let (cool_regular, cool_large_vols) = if cool_possible {
        (ceilings(true, false)?, ceilings(true, true)?)
    } else {
        (regular.clone(), large_vols.clone())
    };
    Ok(Context {
        catalog,
        prices,
        options,
        perf,
        small,
        large,
        levels,
        cold_gib,
        cool_possible,
        ceilings: [[regular, large_vols], [cool_regular, cool_large_vols]],
        vms,
        spread_over: spread_over(spreads),
    })
}

/// The ceilings [`context`] evaluates for `vms` VMs at the options' hosts, cool access (at
/// the options' cold share) or not, on large volumes or regular ones.
fn ceilings_of(
    (perf, limits): (Perf, &Limits),
    options: &OptimizeOptions,
    vms: usize,
    (small, large): (&IoProfile, &IoProfile),
    (cool, large_volume): (bool, bool),
) -> Result<Ceilings, PerfError> {
    let vol = if large_volume {
        limits.large_volume_max_throughput_mibps
    } else {
        limits.volume_max_throughput_mibps
    };
    let mut l = workload_layout(options.hosts, 1, vol, vms);
    l.nconnect = options.nconnect;
    if cool {
        l.cool_pct = options.cold_pct;
    }
    Ceilings::new(perf, l.hosts, options.max_datastores, &l, small, large)
}

/// A VM count `k` (at most `vms`) from which the plans of `demand`'s options at the
/// options' hosts no longer depend on how many VMs carry the data: from `k` to `vms` VMs
/// the ceilings [`context`] evaluates (every datastore count and volume kind, and with a
/// cold share the cool state) are those of `vms` VMs. Without per-VM figures the VM count
/// enters the search only through those ceilings ([`workload_layout`]; a message's wording
/// aside), and they are nondecreasing in it (`min(hosts, k)` hosts of `floor(k / hosts)`
/// VMs each, every layer of the model nondecreasing in both): once equal to those of
/// `vms` VMs they stay equal up to it. Tried at `hosts x v` VMs for `v` = 1, 2, 3, 4, 8,
/// 16, ...: not always the fewest, `vms` when none is found.
///
/// # Errors
/// An unknown performance system, or the model's error on a layout.
pub(crate) fn vm_count_saturation(
    demand: &Demand,
    catalog: &Catalog,
    model: &PerfModel,
    options: &OptimizeOptions,
    vms: usize,
) -> Result<usize, OptimizeError> {
    let small = demand.options.io_profile;
    small.validate()?;
    let large = large_block_profile(&small);
    let perf = Perf {
        model,
        system: model.system(&options.perf_system)?,
    };
    let cool: &[bool] = if options.cold_pct > 0.0 {
        &[false, true]
    } else {
        &[false]
    };
    let all = |k: usize| -> Result<Vec<Ceilings>, PerfError> {
        let mut out = Vec::with_capacity(4);
        let at = (perf, &catalog.limits);
        for &c in cool {
            for large_volume in [false, true] {
                let profiles = (&small, &large);
                out.push(ceilings_of(at, options, k, profiles, (c, large_volume))?);
            }
        }
        Ok(out)
    };
    let top = all(vms)?;
    let hosts = usize::try_from(options.hosts.max(1)).unwrap_or(usize::MAX);
    let mut v = 1usize;
    loop {
        let k = hosts.saturating_mul(v);
        if k >= vms {
            return Ok(vms);
        }
        let same = all(k)?
            .iter()
            .zip(&top)
            .all(|(a, b)| a.iops == b.iops && a.throughput_mibps == b.throughput_mibps);
        if same {
            return Ok(k);
        }
        v = if v < 4 { v + 1 } else { v.saturating_mul(2) };
    }
}

/// The chosen layout (the base months' of a time-phased plan), the cheapest per level,
/// and the time phases when peak targets are given.
fn search<'a>(
    ctx: &Context<'a>,
    targets: &Targets,
    peak_targets: Option<Targets>,
    find: Find,
) -> Result<(Candidate<'a>, PerLevel<'a>, Option<Phased<'a>>), OptimizeError> {
    let (best, per_level) = if find == Find::Cheapest && peak_targets.is_none() {
        (cheapest_overall(ctx, targets, None)?, Vec::new())
    } else {
        let per_level = best_per_level(ctx, targets, None)?;
        (best_overall(&per_level), per_level)
    };
    let Some(best) = best else {
        let (prices, limits) = (ctx.prices, ctx.limits());
        let mut msg = format!(
            "no service level sold in {} meets {:.1} GiB, {:.0} IOPS and {:.0} MiB/s together \
             within one pool of {} TiB ({})",
            prices.region,
            targets.required_gib,
            targets.iops,
            targets.mibps,
            limits.pool_max_tib,
            ctx.volume_kinds_text()
        );
        if large_volumes_would_help(ctx, targets)? {
            msg.push_str("; ");
            msg.push_str(&only_large_volumes("the targets together"));
        }
        return Err(OptimizeError::NoLayout(msg));
    };
    match (peak_targets, &ctx.options.peak) {
        (Some(pt), Some(pk)) => {
            let p = phased(ctx, targets, pt, pk.months)?;
            Ok((p.base, per_level, Some(p)))
        }
        _ => Ok((best, per_level, None)),
    }
}

/// The plan of the chosen layout with its explanations: alternatives, marginal costs,
/// per-VM spreads and the time phases.
fn explain_and_assemble(demand: &Demand, s: Solved, whole: Whole) -> Result<Plan, OptimizeError> {
    let Solved {
        ctx,
        targets,
        chosen,
        per_level,
        phased,
        spreads,
    } = s;
    let mut alternatives = alternatives(ctx, targets, chosen, per_level)?;
    alternatives.extend(nconnect_alternative(demand, ctx, targets, chosen, spreads)?);
    let marginal_costs = marginal_costs(ctx, targets, chosen)?;
    let mut plan = assemble(demand, ctx, chosen)?;
    explain_spreads(&mut plan, spreads, ctx.options.max_datastores, &ctx.small);
    plan.alternatives = alternatives;
    plan.marginal_costs = marginal_costs;
    if let Some(p) = phased {
        plan.time_phased = Some(time_phased(ctx, &p, targets)?);
    }
    plan.prices = super::prices_used::prices_used(ctx.prices, &plan);
    let account = match whole {
        Whole::Plan => {
            plan.warnings
                .extend(peak_warnings(ctx.options, targets.iops, targets.mibps));
            plan_account_warnings(&plan, ctx.limits(), ctx.options)
        }
        Whole::Part => region_warning(ctx.options).into_iter().collect(),
    };
    plan.warnings.extend(account);
    plan.warnings
        .extend(levels_warning(ctx.catalog, ctx.prices, ctx.options));
    plan.assumptions
        .push(nconnect_assumption(ctx.options.nconnect));
    Ok(plan)
}

/// Peak targets that change nothing: none given, or below the base (the peak months keep
/// the base target, the higher of the two).
pub(super) fn peak_warnings(
    options: &OptimizeOptions,
    base_iops: f64,
    base_mibps: f64,
) -> Vec<Warning> {
    let Some(pk) = &options.peak else {
        return Vec::new();
    };
    if pk.iops <= 0.0 && pk.throughput_mibps <= 0.0 {
        return vec![Warning::plan_wide(
            WarningKind::Setting,
            "`peak_months` without `peak_iops` or `peak_throughput_mibps`: the peak months \
             have the base targets, so both phases are the same layout"
                .into(),
        )];
    }
    let mut out = Vec::new();
    for (setting, peak, base_setting, base_value) in [
        ("peak_iops", pk.iops, "iops", base_iops),
        (
            "peak_throughput_mibps",
            pk.throughput_mibps,
            "throughput_mibps",
            base_mibps,
        ),
    ] {
        if peak > 0.0 && peak < base_value {
            out.push(Warning::plan_wide(
                WarningKind::Setting,
                format!(
                    "`{setting}` {} is below `{base_setting}` {}: the peak months keep the base \
                     target",
                    show_number(peak),
                    show_number(base_value)
                ),
            ));
        }
    }
    out
}

/// With nconnect 1, the cheapest plan at nconnect 4 (AVS datastores support it): every
/// layout re-evaluated with four connections per host per datastore. The per-VM datastore
/// floor stays the one found at nconnect 1 (conservative).
fn nconnect_alternative(
    demand: &Demand,
    ctx: &Context,
    targets: &Targets,
    chosen: &Candidate,
    spreads: &[Spread],
) -> Result<Option<Alternative>, OptimizeError> {
    if ctx.options.nconnect != 1 {
        return Ok(None);
    }
    let options = OptimizeOptions {
        nconnect: 4,
        ..ctx.options.clone()
    };
    let (catalog, prices, perf) = (ctx.catalog, ctx.prices, ctx.perf);
    let profiles = (ctx.small, ctx.large);
    let ctx4 = context(demand, catalog, prices, perf, &options, spreads, profiles)?;
    let note = "nconnect 4: predictions extrapolated beyond the measured nconnect 1";
    Ok(Some(match cheapest_overall(&ctx4, targets, None)? {
        Some(c) => Alternative {
            note: note.into(),
            ..feasible_row("nconnect", &c, chosen)
        },
        None => infeasible_row(
            "nconnect",
            None,
            0,
            "no layout meets every target at nconnect 4",
        ),
    }))
}

/// The `nconnect` assumption row.
fn nconnect_assumption(nconnect: u32) -> Assumption {
    Assumption {
        name: "nconnect".into(),
        value: nconnect.to_string(),
        note: format!(
            "`nconnect` (default {}): TCP connections per host per datastore; the published \
             AVS measurements used 1, AVS datastores also support 4 (predictions at 4 are \
             extrapolated)",
            crate::defaults::NCONNECT
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ReservationTerm;
    use proptest::prelude::*;

    /// A demand of VMs of `gib` GiB each with the targets `iops`, `mibps`.
    fn demand(gib: &[f64], targets: (f64, f64)) -> Demand {
        crate::demand::testing::demand(crate::demand::testing::vms(gib), targets)
    }

    /// 1 TiB in GiB.
    const GIB_PER_TIB_TEST: f64 = 1024.0;

    /// A layout as the tests compare it: level, cool, large volumes, size, datastores, cost
    /// (cents).
    fn key(c: &Candidate) -> (String, bool, bool, u32, u32, i64) {
        (
            c.variant.spec.service_level.to_string(),
            c.variant.cool,
            c.variant.large,
            c.size_gib,
            c.datastores,
            (c.cost.total() * 100.0).round() as i64,
        )
    }

    /// What the search chose: level, cool, large volumes, size, datastores, cost (cents).
    fn chosen(
        d: &Demand,
        o: &OptimizeOptions,
        find: Find,
    ) -> Result<(String, bool, bool, u32, u32, i64), String> {
        let (catalog, model) = (Catalog::builtin().unwrap(), PerfModel::builtin().unwrap());
        solve_then(d, &catalog, &model, o, find, |s| Ok(key(s.chosen))).map_err(|e| e.to_string())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The cheapest alone (levels skipped by their cost floor) is the cheapest of each
        /// level's cheapest, to the layout, or the same error: 1 to 40 VMs of 0.1 to 60
        /// TiB, targets none or up to 2,000,000 IOPS and 20,000 MiB/s, 3 to 16 hosts, cold
        /// data, large volumes, shared pools and reservations or not; also at 1, 2, 4 and
        /// 8 datastores and with 1 TiB or 100 MiB/s more (the alternatives' and marginal
        /// costs' searches).
        #[test]
        fn the_cheapest_alone_is_the_cheapest_of_each_level(
            tib in proptest::collection::vec(0.1f64..60.0, 1..=40),
            iops in prop_oneof![Just(0.0), 1_000.0f64..2_000_000.0],
            mibps in prop_oneof![Just(0.0), 10.0f64..20_000.0],
            hosts in 3u32..=16,
            cold_pct in prop_oneof![Just(0.0), 10.0f64..90.0],
            allow_large_volumes in any::<bool>(),
            shared_pool in any::<bool>(),
            reservation in prop_oneof![Just(ReservationTerm::None), Just(ReservationTerm::OneYear)],
        ) {
            let gib: Vec<f64> = tib.iter().map(|t| t * 1024.0).collect();
            let d = demand(&gib, (iops, mibps));
            let o = OptimizeOptions {
                hosts,
                cold_pct,
                allow_large_volumes,
                shared_pool,
                reservation,
                ..OptimizeOptions::default()
            };
            prop_assert_eq!(chosen(&d, &o, Find::Cheapest), chosen(&d, &o, Find::EachLevel));
            // At a fixed datastore count and with the marginal costs' grown targets too, as
            // the alternatives and marginal costs ask.
            let (catalog, model) = (Catalog::builtin().unwrap(), PerfModel::builtin().unwrap());
            let differ = solve_then(&d, &catalog, &model, &o, Find::EachLevel, |s| {
                let (ctx, t) = (s.ctx, *s.targets);
                let grown = [
                    t,
                    Targets { required_gib: t.required_gib + GIB_PER_TIB_TEST, ..t },
                    Targets { mibps: t.mibps + 100.0, ..t },
                ];
                let mut differ = Vec::new();
                for t in grown {
                    for fixed in [None, Some(1), Some(2), Some(4), Some(8)] {
                        let a = cheapest_overall(ctx, &t, fixed)?.map(|c| key(&c));
                        let b = best_overall(&best_per_level(ctx, &t, fixed)?).map(|c| key(&c));
                        if a != b {
                            differ.push((fixed, a, b));
                        }
                    }
                }
                Ok(differ)
            });
            if let Ok(differ) = differ {
                prop_assert!(differ.is_empty(), "{:?}", differ);
            }
        }
    }
}

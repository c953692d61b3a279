//! Building the [`Plan`] value from the chosen candidate: the pool, the datastores, the
//! VM placement, the verification, binding limits, warnings and assumptions.

use super::error::OptimizeError;
use super::explain::binding_limits;
use super::milp::{Candidate, Context, round_cents};
use super::place::place_vms;
use super::verify::{Verified, verify};
use crate::catalog::ReservationTerm;
use crate::defaults;
use crate::demand::{CapacityBasis, Demand, DemandOptions};
use crate::inventory::Warning;
use crate::plan::{Assumption, DatastorePlan, Performance, Plan, PoolPlan, SCHEMA_VERSION, Totals};

/// Builds, places and verifies the plan for a chosen layout (alternatives, marginal costs
/// and time phases are left empty for the caller).
///
/// # Errors
/// [`OptimizeError::Verification`] when the layout misses a target; model errors.
pub(super) fn assemble(
    demand: &Demand,
    ctx: &Context,
    chosen: &Candidate,
) -> Result<Plan, OptimizeError> {
    let pool = pool_plan(ctx, chosen);
    let verified = verify(ctx, demand, chosen)?;
    let mut ds = datastore_plans(chosen, &pool, &verified);
    let (placements, place_warnings) = place_vms(
        demand,
        &mut ds,
        fill_share(&demand.options),
        &ctx.spread_over,
    );
    let binding = binding_limits(demand, ctx, chosen)?;
    let warnings = plan_warnings(demand, chosen, &ds, place_warnings);
    let prices = ctx.prices;
    Ok(Plan {
        schema_version: SCHEMA_VERSION,
        region: prices.region.clone(),
        location: prices.location.clone(),
        prices_effective: prices.effective_start_for(chosen.variant.spec.service_level),
        hosts: ctx.options.hosts,
        assumptions: assumptions(ctx, &demand.options, chosen),
        totals: totals(demand, chosen, &pool, &verified),
        pools: vec![pool],
        datastores: ds,
        performance: Performance {
            iops_target: demand.options.iops,
            throughput_target_mibps: demand.options.throughput_mibps,
            small_block_profile: ctx.small,
            large_block_profile: ctx.large,
            small_block: verified.small,
            large_block: verified.large,
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

/// The pool of the chosen layout, with its cost lines rounded to the cent.
fn pool_plan(ctx: &Context, chosen: &Candidate) -> PoolPlan {
    let level = chosen.variant.spec.service_level;
    let cool = chosen.variant.cool;
    let cost = &chosen.cost;
    let hot = round_cents(cost.hot_capacity);
    let cool_cap = round_cents(cost.cool_capacity);
    PoolPlan {
        name: format!("pool-{level}-1"),
        service_level: level,
        qos: "manual".into(),
        size_tib: chosen.size_tib,
        throughput_mibps: chosen.qos_mibps(),
        included_throughput_mibps: chosen.included_mibps(),
        purchased_throughput_mibps: chosen.purchased_mibps,
        capacity_cost_usd_per_month: round_cents(hot + cool_cap),
        throughput_cost_usd_per_month: round_cents(cost.throughput),
        cost_usd_per_month: cost.total_cents(),
        cool_access: cool,
        cool_data_gib: if cool { ctx.cold_gib } else { 0.0 },
        hot_capacity_cost_usd_per_month: hot,
        cool_capacity_cost_usd_per_month: cool_cap,
        cool_transfer_cost_usd_per_month: round_cents(cost.cool_transfer),
        reserved_tib: cost.reserved_tib(),
        reservation_discount_pct: cost.reservation.discount_pct(),
        reservation_units: cost.reservation.to_vec(),
    }
}

/// The datastores: the pool's whole GiB split as evenly as whole numbers allow, each with
/// an equal share of the QoS, the predictions and the cost (by size).
fn datastore_plans(chosen: &Candidate, pool: &PoolPlan, v: &Verified) -> Vec<DatastorePlan> {
    let datastores = chosen.datastores;
    let d = f64::from(datastores);
    let pool_gib = f64::from(chosen.size_tib) * 1024.0;
    // Volume quotas are whole GiB: the pool's GiB split as evenly as whole numbers allow.
    let pool_gib_whole = u64::from(chosen.size_tib) * 1024;
    let base_gib = pool_gib_whole / u64::from(datastores);
    let extra = pool_gib_whole % u64::from(datastores);
    (1..=datastores)
        .map(|i| {
            let size_gib = (base_gib + u64::from(u64::from(i) <= extra)) as f64;
            DatastorePlan {
                name: format!("anf-ds-{i:02}"),
                pool: pool.name.clone(),
                service_level: pool.service_level,
                size_gib,
                throughput_mibps: pool.throughput_mibps / d,
                predicted_iops: v.small.iops / d,
                predicted_throughput_mibps: v.large.throughput_mibps / d,
                cost_usd_per_month: round_cents(pool.cost_usd_per_month * size_gib / pool_gib),
                vm_count: 0,
                placed_capacity_gib: 0.0,
                large_volume: chosen.variant.large,
            }
        })
        .collect()
}

/// The share of each datastore data may fill: what growth, snapshot reserve and headroom
/// leave it.
fn fill_share(o: &DemandOptions) -> f64 {
    1.0 / ((1.0 + o.growth_pct / 100.0)
        * (1.0 + o.snapshot_reserve_pct / 100.0)
        * (1.0 + o.headroom_pct / 100.0))
}

/// The plan's totals.
fn totals(demand: &Demand, chosen: &Candidate, pool: &PoolPlan, v: &Verified) -> Totals {
    Totals {
        vms_placed: demand.placed.len(),
        vms_excluded: demand.excluded.len(),
        datastores: chosen.datastores,
        flows: v.layout.flows(),
        hosts_with_vms: v.layout.hosts,
        pool_size_tib: chosen.size_tib,
        required_capacity_gib: demand.required_capacity_gib,
        placed_capacity_gib: demand.placed_capacity_gib,
        excluded_capacity_gib: demand.excluded_capacity_gib,
        throughput_mibps: pool.throughput_mibps,
        cost_usd_per_month: pool.cost_usd_per_month,
    }
}

/// The demand's warnings, then placement's, then the plan-wide ones (empty datastores,
/// large volumes, no performance target).
fn plan_warnings(
    demand: &Demand,
    chosen: &Candidate,
    ds: &[DatastorePlan],
    place_warnings: Vec<Warning>,
) -> Vec<Warning> {
    let mut warnings = demand.warnings.clone();
    warnings.extend(place_warnings);
    let empty: Vec<&str> = ds
        .iter()
        .filter(|d| d.vm_count == 0)
        .map(|d| d.name.as_str())
        .collect();
    if !empty.is_empty() {
        warnings.push(Warning::plan_wide(format!(
            "{} hold no VM after placement by capacity: the predicted IOPS count their \
                 flows, so spread VMDKs of the busiest VMs onto them",
            empty.join(", ")
        )));
    }
    if chosen.variant.large {
        warnings.push(Warning::plan_wide(
            "the plan uses ANF large volumes (more than 100 TiB or 4,500 MiB/s per \
                      datastore): check that large volumes can be attached as AVS datastores \
                      in your region before ordering; otherwise raise `max_datastores`"
                .into(),
        ));
    }
    let o = &demand.options;
    if o.iops <= 0.0 && o.throughput_mibps <= 0.0 {
        warnings.push(Warning::plan_wide(
            "no IOPS or MiB/s target was given (`iops`, `throughput_mibps`): the \
                      plan is sized for capacity only and its throughput is whatever the \
                      cheapest pool includes"
                .into(),
        ));
    }
    warnings
}

/// The settings the plan rests on, each with its value and where it comes from.
fn assumptions(ctx: &Context, o: &DemandOptions, chosen: &Candidate) -> Vec<Assumption> {
    let mut rows = sizing_assumptions(ctx, o);
    rows.extend(cost_and_scope_assumptions(ctx, o, chosen));
    rows.into_iter()
        .map(|(name, value, note)| Assumption {
            name: name.into(),
            value,
            note,
        })
        .collect()
}

/// (name, value, note) of the sizing and performance settings.
fn sizing_assumptions(ctx: &Context, o: &DemandOptions) -> Vec<(&'static str, String, String)> {
    let options = ctx.options;
    let (small, large) = (&ctx.small, &ctx.large);
    let rows: [(&str, String, String); 10] = [
        ("hosts", options.hosts.to_string(), "`hosts`".into()),
        (
            "region",
            ctx.prices.region.clone(),
            format!("`region` (default {})", defaults::REGION),
        ),
        (
            "capacity_basis",
            o.capacity_basis.as_str().to_string(),
            format!(
                "`capacity_basis` (default {})",
                CapacityBasis::default().as_str()
            ),
        ),
        (
            "growth_pct",
            o.growth_pct.to_string(),
            format!("`growth_pct` (default {})", defaults::GROWTH_PCT),
        ),
        (
            "snapshot_reserve_pct",
            o.snapshot_reserve_pct.to_string(),
            format!(
                "`snapshot_reserve_pct` (default {}): space for snapshots, percent of the data",
                defaults::SNAPSHOT_RESERVE_PCT
            ),
        ),
        (
            "headroom_pct",
            o.headroom_pct.to_string(),
            format!(
                "`headroom_pct` (default {}): datastores sized at (1 + headroom) x data",
                defaults::HEADROOM_PCT
            ),
        ),
        (
            "max_datastores",
            options.max_datastores.to_string(),
            format!(
                "`max_datastores` (AVS default {} per cluster, up to {} by request)",
                defaults::MAX_DATASTORES,
                ctx.limits().max_datastores
            ),
        ),
        (
            "io_profile",
            format!(
                "{} KiB, {}% read, {}% random",
                small.block_size_kib, small.read_pct, small.random_pct
            ),
            "`io_profile`".into(),
        ),
        (
            "throughput_profile",
            format!("{} KiB sequential", large.block_size_kib),
            "the published large-block test shape [AVS-PERF]".into(),
        ),
        (
            "qos",
            "manual".into(),
            "each datastore gets an equal share of its pool's throughput; the QoS covers the \
             larger of the two targets (IOPS x block size, MiB/s), taken as peaks at different \
             times"
                .into(),
        ),
    ];
    rows.into()
}

/// (name, value, note) of the cool tier, reservation, scope and price settings.
fn cost_and_scope_assumptions(
    ctx: &Context,
    o: &DemandOptions,
    chosen: &Candidate,
) -> Vec<(&'static str, String, String)> {
    let options = ctx.options;
    let prices = ctx.prices;
    let reservation_note = reservation_note(ctx, chosen);
    let cold_note = if options.cold_pct > 0.0 {
        "`cold_pct`: share of the data (after growth) in the cool tier under cool \
         access; reads assumed spread evenly over the data (conservative)"
            .to_string()
    } else {
        format!(
            "`cold_pct` (default {}): RVTools holds no access data, so no cold data is \
             assumed and cool access is not considered (ANF guidance: up to 80% is \
             typically cold)",
            defaults::COLD_PCT
        )
    };
    let rows: [(&str, String, String); 5] = [
        ("cold_pct", options.cold_pct.to_string(), cold_note),
        (
            "cool_retrieval_pct",
            options.cool_retrieval_pct.to_string(),
            format!(
                "`cool_retrieval_pct` (default {}): percent of the cold data moved between \
                 tiers per month, at the cool transfer price",
                defaults::COOL_RETRIEVAL_PCT
            ),
        ),
        (
            "reservation",
            options.reservation.to_string(),
            reservation_note,
        ),
        (
            "exclude_powered_off",
            o.exclude_powered_off.to_string(),
            "`exclude_powered_off`".into(),
        ),
        (
            "prices",
            format!("{} (effective {})", prices.source, prices.effective_start),
            format!(
                "monthly = hourly x {}, retail",
                ctx.limits().hours_per_month
            ),
        ),
    ];
    rows.into()
}

/// What the reservation covers, or why it does not apply.
fn reservation_note(ctx: &Context, chosen: &Candidate) -> String {
    let level = chosen.variant.spec.service_level;
    match ctx.options.reservation {
        ReservationTerm::None => "`reservation` (default none): pay as you go".to_string(),
        term => {
            let offers = ctx.offers(level);
            if offers.is_empty() {
                return format!(
                    "`reservation` {term}: no published discount for {level} \
                     (data/reservations.csv); priced pay as you go"
                );
            }
            let units: Vec<String> = offers
                .iter()
                .map(|r| format!("{}% off in {} TiB units", r.discount_pct, r.unit_tib))
                .collect();
            format!(
                "`reservation` {term}: the hot tier of {level} at {} (data/reservations.csv), \
                 the cheapest mix of whole units, the rest pay as you go; a reservation covers \
                 the level's usage in the region, not one pool; cool tier and throughput not \
                 covered",
                units.join(", ")
            )
        }
    }
}

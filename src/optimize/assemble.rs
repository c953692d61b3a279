//! Building the [`Plan`] value from the chosen candidate: the pool, the datastores, the
//! VM placement, the verification, binding limits, warnings and assumptions.

use super::error::OptimizeError;
use super::explain::binding_limits;
use super::milp::{Candidate, Context, round_cents};
use super::place::place_vms;
use super::verify::{Verified, verify};
use crate::catalog::{ReservationTerm, ServiceLevel};
use crate::defaults;
use crate::demand::{CapacityBasis, Demand, DemandOptions};
use crate::inventory::{Warning, WarningKind};
use crate::numbers::group_thousands;
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
    let warnings = plan_warnings(demand, ctx, chosen, &ds, place_warnings);
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
            system: ctx.perf.system.name.clone(),
            extrapolation: ctx.perf.extrapolation(&verified.layout),
        },
        binding,
        alternatives: Vec::new(),
        marginal_costs: Vec::new(),
        vsan_comparison: None,
        time_phased: None,
        placements,
        excluded: demand.excluded.clone(),
        warnings,
        prices: Vec::new(),
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
        size_tib: chosen.own_tib(),
        share_gib: chosen.share_gib(),
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
        first_month_cool_transfer_usd: first_month_cool_transfer(ctx, cool),
    }
}

/// The one-time move of the initially cold data into the cool tier: cold GiB x the
/// region's cool transfer price per GiB, rounded to the cent; 0 without cool access
/// \[COST\] (2026-06-15: data tiered to cool is billed as transfer).
fn first_month_cool_transfer(ctx: &Context, cool: bool) -> f64 {
    if !cool {
        return 0.0;
    }
    round_cents(ctx.cold_gib * ctx.prices.cool_transfer_usd_per_gib.unwrap_or(0.0))
}

/// The datastores: the pool's (or the share's) whole GiB split as evenly as whole numbers
/// allow, each with an equal share of the QoS, the predictions and the cost (by size).
fn datastore_plans(chosen: &Candidate, pool: &PoolPlan, v: &Verified) -> Vec<DatastorePlan> {
    let datastores = chosen.datastores;
    let d = f64::from(datastores);
    let pool_gib = f64::from(chosen.size_gib);
    // Volume quotas are whole GiB: the pool's GiB split as evenly as whole numbers allow.
    let pool_gib_whole = u64::from(chosen.size_gib);
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
        pool_size_tib: chosen.own_tib(),
        required_capacity_gib: demand.required_capacity_gib,
        placed_capacity_gib: demand.placed_capacity_gib,
        excluded_capacity_gib: demand.excluded_capacity_gib,
        throughput_mibps: pool.throughput_mibps,
        cost_usd_per_month: pool.cost_usd_per_month,
        first_month_cool_transfer_usd: pool.first_month_cool_transfer_usd,
    }
}

/// The demand's warnings, then placement's, then the plan-wide ones (empty datastores,
/// large volumes, no performance target).
fn plan_warnings(
    demand: &Demand,
    ctx: &Context,
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
        warnings.push(Warning::plan_wide(
            WarningKind::Plan,
            format!(
                "{} hold no VM after placement by capacity: the predicted IOPS count their \
                 flows, so spread VMDKs of the busiest VMs onto them",
                empty.join(", ")
            ),
        ));
    }
    if chosen.variant.large {
        warnings.push(Warning::plan_wide(
            WarningKind::Azure,
            "the plan uses ANF large volumes (more than 100 TiB or 4,500 MiB/s per \
                      datastore) because `allow_large_volumes` is on: no Microsoft page \
                      documents large volumes as AVS datastores, so AVS support must be \
                      confirmed (with Microsoft, for your region) before ordering; they also \
                      need feature registration and a regional quota increase. Otherwise \
                      raise `max_datastores` or turn `allow_large_volumes` off"
                .into(),
        ));
    }
    let o = &demand.options;
    let peak_target = ctx
        .options
        .peak
        .as_ref()
        .is_some_and(|p| p.iops > 0.0 || p.throughput_mibps > 0.0);
    if o.iops <= 0.0 && o.throughput_mibps <= 0.0 && !peak_target {
        warnings.push(Warning::plan_wide(
            WarningKind::Setting,
            "no IOPS or MiB/s target was given (`iops`, `throughput_mibps`, or per-VM \
                      figures of `perf` rows that match planned VMs): the plan is sized for \
                      capacity only and its throughput is whatever the cheapest pool includes \
                      (the header's \"delivers\" line says what that gives)"
                .into(),
        ));
    }
    warnings
}

/// The settings the plan rests on, each with its value and where it comes from.
fn assumptions(ctx: &Context, o: &DemandOptions, chosen: &Candidate) -> Vec<Assumption> {
    let mut rows = sizing_assumptions(ctx, o);
    rows.push(large_volumes_assumption(ctx));
    rows.extend(perf_system_assumption(ctx));
    rows.extend(cost_and_scope_assumptions(ctx, o, chosen));
    rows.extend(cool_throughput_assumption(ctx));
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
                "`max_datastores` (AVS default {} per cluster; more by a support request, up \
                 to {}: attach-azure-netapp-files-to-azure-vmware-solution-hosts, 2025-01-29; \
                 up to 64 with nconnect 4: performance-benchmarks-azure-vmware-solution, \
                 2024-12-03)",
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

/// (name, value, note) of the performance system, when it is not the default `anf-avs`
/// (AVS hosts with 25 GbE NICs).
fn perf_system_assumption(ctx: &Context) -> Option<(&'static str, String, String)> {
    let name = &ctx.perf.system.name;
    (name != crate::perf::DEFAULT_SYSTEM).then(|| {
        (
            "perf_system",
            name.clone(),
            match ctx.perf.system.params.host_nic_gbps {
                Some(nic) => format!(
                    "the hosts' flows and ceilings: data/systems/{name}.csv, {nic} Gbit/s NIC \
                     per host (the host SKU's `perf_system`, data/avs_hosts.csv)"
                ),
                None => format!(
                    "the hosts' flows and ceilings: data/systems/{name}.csv (the host SKU's \
                     `perf_system`, data/avs_hosts.csv)"
                ),
            },
        )
    })
}

/// (name, value, note) of `allow_large_volumes`.
fn large_volumes_assumption(ctx: &Context) -> (&'static str, String, String) {
    let l = ctx.limits();
    let note = if ctx.options.allow_large_volumes {
        "`allow_large_volumes`: large volumes are used where no layout of regular volumes \
         meets the targets; no Microsoft page documents them as AVS datastores (confirm \
         support before ordering)"
            .to_string()
    } else {
        format!(
            "`allow_large_volumes` (default false): regular volumes only (at most {} TiB and \
             {} MiB/s each); no Microsoft page documents large volumes as AVS datastores",
            l.volume_max_tib,
            group_thousands(l.volume_max_throughput_mibps, 0)
        )
    };
    (
        "allow_large_volumes",
        ctx.options.allow_large_volumes.to_string(),
        note,
    )
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
            format!(
                "{} (effective {})",
                prices.source,
                prices.effective_start_for(chosen.variant.spec.service_level)
            ),
            format!(
                "monthly = hourly x {}, retail",
                ctx.limits().hours_per_month
            ),
        ),
    ];
    rows.into()
}

/// With cool access considered: the Premium/Ultra cool-access rate per TiB and the rule it
/// rests on (manual QoS is a case the pages leave open: the lower of the two rules).
fn cool_throughput_assumption(ctx: &Context) -> Option<(&'static str, String, String)> {
    if !ctx.cool_possible {
        return None;
    }
    let rates: Vec<String> = ctx
        .levels
        .iter()
        .filter(|s| matches!(s.service_level, ServiceLevel::Premium | ServiceLevel::Ultra))
        .map(|&s| {
            let v = ctx.variant(s, true, false);
            format!(
                "{} {} MiB/s per TiB",
                s.service_level,
                v.rate_mibps_per_tib()
            )
        })
        .collect();
    if rates.is_empty() {
        return None;
    }
    let region = &ctx.prices.region;
    let note = if ctx.catalog.cool_access.region_has_current_rule(region) {
        format!(
            "{region} has the per-volume rule (hot TiB x level rate + cool TiB x 16 MiB/s per \
             TiB, for auto-QoS volumes with more than 100 GiB cool; data/cool_access_regions.csv, \
             cool-access-introduction 2026-03-10); these manual-QoS pools are a case the page \
             leaves open, so the lower of it (at `cold_pct` of the pool cold) and the legacy \
             36 / 68 MiB/s per TiB is planned; Flexible keeps its throughput"
        )
    } else {
        format!(
            "{region} is not listed for the per-volume rule (data/cool_access_regions.csv, \
             cool-access-introduction 2026-03-10): the legacy 36 / 68 MiB/s per TiB; \
             Flexible keeps its throughput"
        )
    };
    Some(("cool_access_throughput", rates.join(", "), note))
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

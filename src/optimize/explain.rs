//! Explanations of the chosen plan: the alternatives table (cheapest per service level and
//! at 1, 2, 4 and 8 datastores), marginal costs (one more TiB, 100 more MiB/s), and the
//! binding limits (which constraints decide the pool size, the datastore count and the
//! options taken).

use super::error::OptimizeError;
use super::milp::{Candidate, Context, GIB_PER_TIB, Targets, Variant, cost_parts, round_cents};
use super::search::{PerLevel, cheapest_overall};
use crate::catalog::ServiceLevel;
use crate::demand::Demand;
use crate::numbers::group_thousands as g;
use crate::plan::{Alternative, BindingLimit, Constraint, MarginalCost};

/// Datastore counts of the alternatives table (those within `max_datastores`).
const ALTERNATIVE_DATASTORES: [u32; 4] = [1, 2, 4, 8];

/// The alternatives table: the cheapest plan per service level, then at exactly 1, 2, 4 and
/// 8 datastores (those within `max_datastores`).
pub(super) fn alternatives(
    ctx: &Context,
    t: &Targets,
    chosen: &Candidate,
    per_level: &PerLevel,
) -> Result<Vec<Alternative>, OptimizeError> {
    let mut out = Vec::new();
    for (spec, c) in per_level {
        out.push(match c {
            Some(c) => feasible_row("service_level", c, chosen),
            None => infeasible_row(
                "service_level",
                Some(spec.service_level),
                0,
                "no layout of this level meets every target",
            ),
        });
    }
    for d in ALTERNATIVE_DATASTORES {
        if d > ctx.options.max_datastores {
            continue;
        }
        out.push(match cheapest_overall(ctx, t, Some(d))? {
            Some(c) => feasible_row("datastores", &c, chosen),
            None => infeasible_row("datastores", None, d, &count_reason(ctx, t, d)),
        });
    }
    Ok(out)
}

/// A row of the alternatives table for a layout that meets the targets.
pub(super) fn feasible_row(basis: &str, c: &Candidate, chosen: &Candidate) -> Alternative {
    let cost = c.cost.total_cents();
    let same = c.variant.spec.service_level == chosen.variant.spec.service_level
        && c.size_gib == chosen.size_gib
        && c.datastores == chosen.datastores
        && c.variant.cool == chosen.variant.cool
        && c.variant.large == chosen.variant.large
        && c.purchased_mibps == chosen.purchased_mibps;
    Alternative {
        basis: basis.into(),
        service_level: Some(c.variant.spec.service_level),
        datastores: c.datastores,
        feasible: true,
        pool_size_tib: c.own_tib(),
        share_gib: c.share_gib(),
        purchased_throughput_mibps: c.purchased_mibps,
        cool_access: c.variant.cool,
        large_volumes: c.variant.large,
        reserved_tib: c.cost.reserved_tib(),
        cost_usd_per_month: cost,
        extra_cost_usd_per_month: round_cents(cost - chosen.cost.total_cents()),
        note: if same { "chosen".into() } else { String::new() },
    }
}

/// A row of the alternatives table where no layout meets the targets.
pub(super) fn infeasible_row(
    basis: &str,
    level: Option<ServiceLevel>,
    datastores: u32,
    note: &str,
) -> Alternative {
    Alternative {
        basis: basis.into(),
        service_level: level,
        datastores,
        feasible: false,
        pool_size_tib: 0,
        share_gib: 0,
        purchased_throughput_mibps: 0.0,
        cool_access: false,
        large_volumes: false,
        reserved_tib: 0,
        cost_usd_per_month: 0.0,
        extra_cost_usd_per_month: 0.0,
        note: note.into(),
    }
}

/// What one more TiB of capacity, and 100 more MiB/s, would cost.
pub(super) fn marginal_costs(
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
        let best = cheapest_overall(ctx, &grown, None)?;
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

/// Which constraints decide the plan, each with its numbers: what sets the pool size, the
/// Flexible throughput purchased, what sets the datastore count, and the options taken
/// (large volumes, cool access, reservation).
pub(super) fn binding_limits(
    demand: &Demand,
    ctx: &Context,
    chosen: &Candidate,
) -> Result<Vec<BindingLimit>, OptimizeError> {
    let qos_required = demand
        .options
        .throughput_mibps
        .max(demand.options.iops * ctx.small.block_size_kib / 1024.0);
    let mut out = vec![pool_size_limit(demand, ctx, chosen, qos_required)];
    let spec = chosen.variant.spec;
    if spec.service_level == ServiceLevel::Flexible && chosen.purchased_mibps > 0.0 {
        out.push(limit(
            Constraint::ThroughputQos,
            format!(
                "{} MiB/s of QoS needs {} MiB/s purchased above the {} included",
                g(qos_required, 0),
                g(chosen.purchased_mibps, 0),
                spec.included_throughput_mibps_per_pool
            ),
        ));
    }
    if chosen.datastores > 1 {
        out.extend(datastore_count_limits(demand, ctx, chosen)?);
    }
    if chosen.variant.large {
        out.push(large_volume_limit(ctx));
    }
    if chosen.variant.cool {
        out.push(cool_access_limit(ctx, chosen)?);
    }
    if chosen.cost.reserved_tib() > 0 {
        out.push(reservation_limit(ctx, chosen));
    }
    Ok(out)
}

fn limit(constraint: Constraint, detail: String) -> BindingLimit {
    BindingLimit { constraint, detail }
}

/// What sets the pool size: capacity, the QoS rate, the smallest volumes, or Flexible's
/// most MiB/s per TiB.
fn pool_size_limit(
    demand: &Demand,
    ctx: &Context,
    chosen: &Candidate,
    qos_required: f64,
) -> BindingLimit {
    let spec = chosen.variant.spec;
    let (size_tib, datastores) = (chosen.size_tib(), chosen.datastores);
    // In units of the pool size: whole TiB, or whole GiB for a share of a shared pool
    // (which has no pool minimum of its own).
    let unit_gib = ctx.pool_unit_gib(&chosen.variant);
    let unit_tib = unit_gib / GIB_PER_TIB;
    let pool_min_gib = if chosen.share {
        0.0
    } else {
        ctx.limits().pool_min_tib * GIB_PER_TIB
    };
    let capacity_units = (demand.required_capacity_gib / unit_gib)
        .ceil()
        .max(pool_min_gib / unit_gib);
    let (pool_at, capacity) = if chosen.share {
        let size = g(f64::from(chosen.size_gib), 0);
        (
            format!("pool share at {size} GiB"),
            format!("{} GiB", g(capacity_units, 0)),
        )
    } else {
        (
            format!("pool at {size_tib} TiB"),
            format!("{capacity_units} TiB"),
        )
    };
    let rate = chosen.variant.rate_mibps_per_tib();
    let (vmin_tib, _) = ctx.volume_range_tib(chosen.variant.large);
    if f64::from(chosen.size_gib) / unit_gib <= capacity_units {
        limit(
            Constraint::Capacity,
            format!(
                "{} GiB required (after growth, snapshot reserve and headroom) sets the \
                 {pool_at}",
                g(demand.required_capacity_gib, 1)
            ),
        )
    } else if spec.service_level != ServiceLevel::Flexible
        && rate * (size_tib - unit_tib) < qos_required
    {
        let cool = if chosen.variant.cool {
            format!(
                " (cool-access rate at {}% cold: {} in {})",
                ctx.options.cold_pct,
                ctx.cool_rule(spec.service_level).describe(),
                ctx.prices.region
            )
        } else {
            String::new()
        };
        limit(
            Constraint::ThroughputQos,
            format!(
                "{} MiB/s of QoS at {rate} MiB/s per TiB{cool} sets the {} {pool_at}, above \
                 the {capacity} capacity needs",
                g(qos_required, 0),
                spec.service_level
            ),
        )
    } else if vmin_tib * f64::from(datastores) > size_tib - unit_tib {
        limit(
            Constraint::VolumeSize,
            format!("{datastores} volumes of at least {vmin_tib:.3} TiB set the {pool_at}"),
        )
    } else {
        limit(
            Constraint::ThroughputQos,
            format!(
                "{} MiB/s of QoS needs a Flexible pool of at least {size_tib} TiB (at most {} \
                 MiB/s per TiB), above the {capacity} capacity needs",
                g(qos_required, 0),
                spec.max_throughput_mibps_per_tib
            ),
        )
    }
}

/// Why one datastore fewer would not do: its flows miss the IOPS or MiB/s target, or its
/// volumes cannot hold the pool.
fn datastore_count_limits(
    demand: &Demand,
    ctx: &Context,
    chosen: &Candidate,
) -> Result<Vec<BindingLimit>, OptimizeError> {
    let mut out = Vec::new();
    let o = &demand.options;
    let datastores = chosen.datastores;
    let ceilings = ctx.ceilings(&chosen.variant);
    let i = (datastores - 2) as usize;
    let (fewer_iops, fewer_tp) = (ceilings.iops[i], ceilings.throughput_mibps[i]);
    let fewer = ctx.layout(datastores - 1, chosen.variant.cool, chosen.variant.large);
    if fewer_iops < o.iops {
        let p = ctx.perf.predict(&fewer, &ctx.small)?;
        out.push(limit(
            Constraint::IopsFlows,
            format!(
                "{:.0} IOPS need {datastores} datastores ({} flows); {} reach only {:.0} ({})",
                o.iops,
                ctx.layout(datastores, chosen.variant.cool, chosen.variant.large)
                    .flows(),
                datastores - 1,
                fewer_iops,
                p.bottleneck.as_str()
            ),
        ));
    }
    if fewer_tp < o.throughput_mibps {
        let p = ctx.perf.predict(&fewer, &ctx.large)?;
        out.push(limit(
            Constraint::ThroughputFlows,
            format!(
                "{:.0} MiB/s need {datastores} datastores; {} reach only {:.0} MiB/s ({})",
                o.throughput_mibps,
                datastores - 1,
                fewer_tp,
                p.bottleneck.as_str()
            ),
        ));
    }
    let (_, vmax_tib) = ctx.volume_range_tib(chosen.variant.large);
    if chosen.size_tib() > vmax_tib * f64::from(datastores - 1) {
        out.push(limit(
            Constraint::VolumeSize,
            format!(
                "{} needs {datastores} volumes of at most {vmax_tib} TiB",
                chosen.size_text()
            ),
        ));
    }
    Ok(out)
}

/// Why the plan uses large volumes.
fn large_volume_limit(ctx: &Context) -> BindingLimit {
    let l = ctx.limits();
    limit(
        Constraint::LargeVolume,
        format!(
            "no layout of regular volumes (at most {} TiB and {} MiB/s each, {} \
             datastores) meets the targets: large volumes ({}..{} TiB, up to {} MiB/s), \
             allowed by `allow_large_volumes`",
            l.volume_max_tib,
            l.volume_max_throughput_mibps,
            ctx.options.max_datastores,
            l.large_volume_min_tib,
            l.large_volume_max_tib,
            l.large_volume_max_throughput_mibps
        ),
    )
}

/// What cool access saves against the same pool all hot.
fn cool_access_limit(ctx: &Context, chosen: &Candidate) -> Result<BindingLimit, OptimizeError> {
    let hot_only = Variant {
        cool: false,
        ..chosen.variant
    };
    let hot_cost = cost_parts(ctx, &hot_only, chosen.size_gib, chosen.purchased_mibps)?;
    Ok(limit(
        Constraint::CoolAccess,
        format!(
            "{:.1} GiB cold ({}% of the data) at the cool rate plus {}% re-read a month \
             costs {:.2} USD/month less than the same pool all hot",
            ctx.cold_gib,
            ctx.options.cold_pct,
            ctx.options.cool_retrieval_pct,
            hot_cost.total() - chosen.cost.total()
        ),
    ))
}

/// How much of the hot tier is reserved, in which units, and at what discount.
fn reservation_limit(ctx: &Context, chosen: &Candidate) -> BindingLimit {
    let mix = &chosen.cost.reservation;
    let units: Vec<String> = mix
        .units()
        .map(|u| {
            format!(
                "{} x {}-TiB units at {}% off",
                u.count, u.unit_tib, u.discount_pct
            )
        })
        .collect();
    limit(
        Constraint::Reservation,
        format!(
            "{} TiB of the hot tier reserved ({}, {} term)",
            mix.reserved_tib(),
            units.join(" + "),
            ctx.options.reservation,
        ),
    )
}

/// Why no layout has exactly `d` datastores: the capacity needs more volumes, a VM's own
/// load needs more datastores, or (else) the flows of `d` datastores fall short of the
/// IOPS or MiB/s targets.
fn count_reason(ctx: &Context, t: &Targets, d: u32) -> String {
    let (_, most_tib) = ctx.volume_range_tib(ctx.options.allow_large_volumes);
    let holds_gib = f64::from(d) * most_tib * 1024.0;
    if t.required_gib > holds_gib {
        format!(
            "{d} volume(s) of at most {} TiB hold less than the {} GiB required",
            crate::numbers::group_thousands(most_tib, 0),
            crate::numbers::group_thousands(t.required_gib, 1)
        )
    } else if t.min_datastores > d {
        format!(
            "a VM's own load needs its VMDKs spread over {} datastores",
            t.min_datastores
        )
    } else {
        "too few flows for the IOPS or MiB/s targets at this count".into()
    }
}

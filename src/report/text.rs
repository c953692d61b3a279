//! A plan as readable text: one function per section, written in the order of [`SECTIONS`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::delivered::{
    Delivered, delivers, pool_size_words, share_note, shares_priced_note, size_cell,
};
use crate::catalog::ServiceLevel;
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::numbers::{clip_name, counted, group_thousands};
use crate::plan::{Alternative, Assumption, ClusterPlans, PhaseLayout, Plan, PoolPlan, PriceUsed};

/// A section of the text report: appends its lines (with the blank line before it) to `s`.
type Section = fn(&mut String, &Plan);

/// The sections of the text report, in order.
const SECTIONS: [Section; 15] = [
    header,
    demand,
    pools,
    datastores,
    placement,
    performance,
    binding,
    alternatives,
    marginal_costs,
    time_phased,
    vsan,
    excluded,
    warnings,
    assumptions,
    prices,
];

/// The plan as text: every section of [`SECTIONS`], in order.
pub(super) fn plan_text(plan: &Plan) -> String {
    let mut s = String::new();
    for section in SECTIONS {
        section(&mut s, plan);
    }
    s
}

/// A cluster's plan inside an estate's detail: every section of [`SECTIONS`] but the
/// assumptions and prices, which the estate prints once; then the assumptions not named
/// in `shared` (the estate's rows), under a heading of their own, when there are any.
pub(super) fn plan_text_in_estate(plan: &Plan, shared: &[&str]) -> String {
    let mut s = String::new();
    for section in &SECTIONS[..SECTIONS.len() - 2] {
        section(&mut s, plan);
    }
    let own: Vec<&Assumption> = plan
        .assumptions
        .iter()
        .filter(|a| !shared.contains(&a.name.as_str()))
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            s,
            "\nThis cluster's assumptions (the others are the estate's)"
        );
        write_assumption_rows(&mut s, own);
    }
    s
}

/// The headline: datastores, levels, pool size, hosts and flows; the monthly cost.
fn header(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let t = &plan.totals;
    let levels: Vec<String> = plan
        .pools
        .iter()
        .map(|p| p.service_level.to_string())
        .collect();
    let hosts = if t.hosts_with_vms > 0 && t.hosts_with_vms < plan.hosts {
        let verb = if t.hosts_with_vms == 1 { "runs" } else { "run" };
        format!(
            "{} ({} {verb} VMs)",
            counted(u64::from(plan.hosts), "host"),
            t.hosts_with_vms
        )
    } else {
        counted(u64::from(plan.hosts), "host")
    };
    // Flows = hosts running VMs x datastores x connections per host and datastore.
    let per_connection = u64::from(t.hosts_with_vms.max(1)) * u64::from(t.datastores.max(1));
    let connections = match t.flows / per_connection {
        n if n > 1 && t.flows.is_multiple_of(per_connection) => format!(" x {n} connections"),
        _ => String::new(),
    };
    let _ = writeln!(
        s,
        "dsplan plan: {} datastore(s) on {} ({}), {hosts} x {}{connections} = {}",
        t.datastores,
        levels.join(" + "),
        pool_size_words(plan),
        counted(u64::from(t.datastores), "datastore"),
        counted(t.flows, "flow")
    );
    let _ = writeln!(
        s,
        "monthly cost: {} USD ({}, {}, prices effective {})",
        g(t.cost_usd_per_month, 2),
        plan.region,
        plan.location,
        effective_dates(plan)
    );
    let _ = writeln!(s, "delivers: {}", delivers(&Delivered::of(plan)));
    if t.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "first month only: + {} USD one-time cool-tier transfer of the initially cold data",
            g(t.first_month_cool_transfer_usd, 2)
        );
    }
}

/// VMs in scope, capacity placed and required, the IOPS and MiB/s targets.
fn demand(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let t = &plan.totals;
    let perf = &plan.performance;
    let _ = writeln!(s);
    let _ = writeln!(s, "Demand");
    let _ = writeln!(
        s,
        "  VMs in scope      {} ({} excluded)",
        g(t.vms_placed as f64, 0),
        g(t.vms_excluded as f64, 0)
    );
    let _ = writeln!(
        s,
        "  capacity          {} GiB placed -> {} GiB required",
        g(t.placed_capacity_gib, 1),
        g(t.required_capacity_gib, 1)
    );
    let _ = writeln!(
        s,
        "  IOPS target       {} at {} KiB, {}% read, {}% random",
        g(perf.iops_target, 0),
        perf.small_block_profile.block_size_kib,
        perf.small_block_profile.read_pct,
        perf.small_block_profile.random_pct
    );
    let _ = writeln!(
        s,
        "  MiB/s target      {} at {} KiB sequential",
        g(perf.throughput_target_mibps, 0),
        perf.large_block_profile.block_size_kib
    );
}

/// The pools, with each cool-tier or reserved pool's cost parts.
fn pools(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let _ = writeln!(s);
    let _ = writeln!(s, "Pools");
    let _ = writeln!(
        s,
        "  {:<18} {:<9} {:>9} {:>10} {:>10} {:>10} {:>12}",
        "name", "level", "size TiB", "MiB/s", "included", "purchased", "USD/month"
    );
    for p in &plan.pools {
        let _ = writeln!(
            s,
            "  {:<18} {:<9} {:>9} {:>10} {:>10} {:>10} {:>12}",
            p.name,
            p.service_level.as_str(),
            size_cell(p.size_tib, p.share_gib),
            g(p.throughput_mibps, 0),
            g(p.included_throughput_mibps, 0),
            g(p.purchased_throughput_mibps, 0),
            g(p.cost_usd_per_month, 2)
        );
    }
    for p in plan.pools.iter().filter(|p| p.share_gib > 0) {
        let _ = writeln!(s, "  {}: {}", p.name, share_note(p));
    }
    for p in &plan.pools {
        if p.cool_access || p.reserved_tib > 0 {
            let _ = writeln!(
                s,
                "  {}: hot tier {} + cool tier {} ({} GiB cold) + cool transfer {} + \
                 throughput {} USD/month{}",
                p.name,
                g(p.hot_capacity_cost_usd_per_month, 2),
                g(p.cool_capacity_cost_usd_per_month, 2),
                g(p.cool_data_gib, 1),
                g(p.cool_transfer_cost_usd_per_month, 2),
                g(p.throughput_cost_usd_per_month, 2),
                if p.reserved_tib > 0 {
                    format!("; {}", reserved_text(p))
                } else {
                    String::new()
                }
            );
        }
        if p.first_month_cool_transfer_usd > 0.0 {
            let _ = writeln!(
                s,
                "  {}: first month only: {} USD one-time transfer of the {} GiB cold data to \
                 the cool tier (not in the monthly cost)",
                p.name,
                g(p.first_month_cool_transfer_usd, 2),
                g(p.cool_data_gib, 1)
            );
        }
    }
}

/// Reservation units in words: `1 x 1,024 TiB at 34% + 2 x 100 TiB at 30%`.
pub(super) fn units_text(units: &[crate::catalog::ReservedUnits]) -> String {
    let g = group_thousands;
    units
        .iter()
        .map(|u| {
            format!(
                "{} x {} TiB at {}%",
                u.count,
                g(f64::from(u.unit_tib), 0),
                u.discount_pct
            )
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// `1,224 TiB reserved (1 x 1,024 TiB at 34% + 2 x 100 TiB at 30% off)`, or one discount
/// when the plan names no units.
fn reserved_text(p: &PoolPlan) -> String {
    let g = group_thousands;
    if p.reservation_units.is_empty() {
        return format!(
            "{} TiB reserved at {}% off",
            g(f64::from(p.reserved_tib), 0),
            p.reservation_discount_pct
        );
    }
    let units = units_text(&p.reservation_units);
    format!(
        "{} TiB reserved ({} off)",
        g(f64::from(p.reserved_tib), 0),
        units
    )
}

/// The datastores: size, QoS, predictions, VMs placed, cost.
fn datastores(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let _ = writeln!(s);
    let _ = writeln!(s, "Datastores");
    let _ = writeln!(
        s,
        "  {:<10} {:>12} {:>10} {:>12} {:>12} {:>5} {:>13} {:>11}",
        "name",
        "size GiB",
        "QoS MiB/s",
        "pred. IOPS",
        "pred. MiB/s",
        "VMs",
        "placed GiB",
        "USD/month"
    );
    for d in &plan.datastores {
        let _ = writeln!(
            s,
            "  {:<10} {:>12} {:>10} {:>12} {:>12} {:>5} {:>13} {:>11}",
            d.name,
            g(d.size_gib, 1),
            g(d.throughput_mibps, 0),
            g(d.predicted_iops, 0),
            g(d.predicted_throughput_mibps, 0),
            d.vm_count,
            g(d.placed_capacity_gib, 1),
            g(d.cost_usd_per_month, 2)
        );
    }
}

/// VM placements shown in the text and Markdown reports (the JSON lists all).
pub(super) const PLACEMENTS_SHOWN: usize = 20;

/// The VMs placed on each datastore: the count per datastore, then the first
/// [`PLACEMENTS_SHOWN`] VMs with their datastore and GiB.
fn placement(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Placement: {} VMs on {} datastore(s)",
        g(plan.placements.len() as f64, 0),
        plan.datastores.len()
    );
    for p in plan.placements.iter().take(PLACEMENTS_SHOWN) {
        let _ = writeln!(
            s,
            "  {:<10} {:>12} GiB  {}",
            p.datastore,
            g(p.capacity_gib, 1),
            clip_name(&p.vm)
        );
    }
    if plan.placements.len() > PLACEMENTS_SHOWN {
        let _ = writeln!(
            s,
            "  ... {} more (the JSON format lists all)",
            g((plan.placements.len() - PLACEMENTS_SHOWN) as f64, 0)
        );
    }
}

/// Predicted performance against the targets, with the binding layer.
fn performance(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let perf = &plan.performance;
    let _ = writeln!(s);
    let _ = writeln!(s, "Predicted performance");
    let _ = writeln!(
        s,
        "  IOPS   {} (target {}), bound by {}",
        g(perf.small_block.iops, 0),
        g(perf.iops_target, 0),
        perf.small_block.bottleneck.as_str()
    );
    let _ = writeln!(
        s,
        "  MiB/s  {} (target {}), bound by {}",
        g(perf.large_block.throughput_mibps, 0),
        g(perf.throughput_target_mibps, 0),
        perf.large_block.bottleneck.as_str()
    );
    if let Some(sentence) = perf.extrapolation.sentence() {
        let _ = writeln!(s, "  {sentence}");
    }
}

/// The binding limits.
fn binding(s: &mut String, plan: &Plan) {
    let _ = writeln!(s);
    let _ = writeln!(s, "Binding limits");
    for b in &plan.binding {
        let _ = writeln!(s, "  - {}: {}", b.constraint.as_str(), b.detail);
    }
}

/// The cheapest plan under each restriction, when there are alternatives: its level,
/// datastores, pool size, purchased MiB/s, reserved TiB, options (cool access, large
/// volume), cost and the difference to the chosen plan.
fn alternatives(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    if plan.alternatives.is_empty() {
        return;
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Alternatives (cheapest plan under each restriction{})",
        if plan.time_phased.is_some() {
            ", for the base months' targets alone"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "  {:<22} {:<9} {:>4} {:>9} {:>10} {:>9} {:<26} {:>12} {:>11}  note",
        "restriction",
        "level",
        "ds",
        "size TiB",
        "purchased",
        "reserved",
        "options",
        "USD/month",
        "vs chosen",
    );
    for a in &plan.alternatives {
        let restriction = restriction(a);
        if !a.feasible {
            let _ = writeln!(s, "  {restriction:<22} infeasible: {}", a.note);
            continue;
        }
        let line = format!(
            "  {:<22} {:<9} {:>4} {:>9} {:>10} {:>9} {:<26} {:>12} {:>11}  {}",
            restriction,
            a.service_level.map_or("-", |l| l.as_str()),
            a.datastores,
            size_cell(a.pool_size_tib, a.share_gib),
            g(a.purchased_throughput_mibps, 0),
            g(f64::from(a.reserved_tib), 0),
            options(a),
            g(a.cost_usd_per_month, 2),
            signed_usd(a.extra_cost_usd_per_month),
            a.note
        );
        let _ = writeln!(s, "{}", line.trim_end());
    }
    if let Some(note) = shares_priced_note(plan) {
        let _ = writeln!(s, "  {note}");
    }
}

/// An alternative's restriction in words: `premium only`, `exactly 1 datastore`,
/// `exactly 4 datastores`, `nconnect 4`.
pub(super) fn restriction(a: &Alternative) -> String {
    match a.basis.as_str() {
        "datastores" if a.datastores == 1 => "exactly 1 datastore".to_string(),
        "datastores" => format!("exactly {} datastores", a.datastores),
        "nconnect" => "nconnect 4".to_string(),
        "service_level" => format!("{} only", a.service_level.map_or("-", |l| l.as_str())),
        other => other.to_string(),
    }
}

/// An alternative's options in words: `cool access`, `large volume`, both joined by ` + `,
/// or `-`.
pub(super) fn options(a: &Alternative) -> String {
    let mut opts = Vec::new();
    if a.cool_access {
        opts.push("cool access");
    }
    if a.large_volumes {
        opts.push("large volume");
    }
    if opts.is_empty() {
        "-".to_string()
    } else {
        opts.join(" + ")
    }
}

/// A cost difference with its sign (`+12.50`, `-3.00`), grouped, to the cent.
pub(super) fn signed_usd(v: f64) -> String {
    if v < 0.0 {
        format!("-{}", group_thousands(-v, 2))
    } else {
        format!("+{}", group_thousands(v, 2))
    }
}

/// What one more TiB or 100 more MiB/s would cost, when computed.
fn marginal_costs(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    if plan.marginal_costs.is_empty() {
        return;
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "Marginal costs");
    for m in &plan.marginal_costs {
        let what = match m.change.as_str() {
            "capacity_plus_1_tib" => "one more TiB of capacity",
            "throughput_plus_100_mibps" => "100 more MiB/s",
            other => other,
        };
        if m.feasible {
            let _ = writeln!(
                s,
                "  {what:<26} {} USD/month ({} USD/month: {})",
                signed_usd(m.extra_cost_usd_per_month),
                g(m.cost_usd_per_month, 2),
                m.detail
            );
        } else {
            let _ = writeln!(s, "  {what:<26} not reachable: {}", m.detail);
        }
    }
}

/// The base and peak phases of a time-phased plan, when there is one.
fn time_phased(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let Some(tp) = &plan.time_phased else {
        return;
    };
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Time-phased plan: {} USD/year ({} USD less than the peak layout all year, {} \
             USD/year)",
        g(tp.yearly_cost_usd, 2),
        g(tp.yearly_savings_usd, 2),
        g(tp.peak_all_year_yearly_cost_usd, 2)
    );
    let _ = writeln!(
        s,
        "  {:<6} {:>6} {:<9} {:>9} {:>10} {:>10} {:>4} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "phase",
        "months",
        "level",
        "size TiB",
        "QoS MiB/s",
        "purchased",
        "ds",
        "IOPS target",
        "pred. IOPS",
        "MiB/s target",
        "pred. MiB/s",
        "USD/month"
    );
    for (name, p) in [("base", &tp.base), ("peak", &tp.peak)] {
        let _ = writeln!(
            s,
            "  {:<6} {:>6} {:<9} {:>9} {:>10} {:>10} {:>4} {:>12} {:>12} {:>12} {:>12} {:>12}",
            name,
            p.months,
            p.service_level.as_str(),
            size_cell(p.pool_size_tib, p.share_gib),
            g(p.throughput_mibps, 0),
            g(p.purchased_throughput_mibps, 0),
            p.datastores,
            g(p.iops_target, 0),
            g(p.predicted_iops, 0),
            g(p.throughput_target_mibps, 0),
            g(p.predicted_throughput_mibps, 0),
            g(p.cost_usd_per_month, 2)
        );
    }
    let _ = writeln!(s, "  {}", phase_change(&tp.base, &tp.peak));
}

/// What changes between the phases: a move to another level (Standard, Premium, Ultra), or
/// a resize in place (a Flexible pool stays Flexible).
pub(super) fn phase_change(base: &PhaseLayout, peak: &PhaseLayout) -> String {
    if base.service_level != peak.service_level {
        format!(
            "the datastores move to a pool of service level {} for the peak months, and back \
             (dynamic service level change)",
            peak.service_level
        )
    } else if base.service_level == ServiceLevel::Flexible {
        "the pool stays flexible (volumes cannot move into or out of a flexible pool): only \
         its size and purchased throughput change for the peak months"
            .into()
    } else {
        format!(
            "the pool stays {}: only its size may change for the peak months",
            base.service_level
        )
    }
}

/// The vSAN-only comparison, when there is one.
fn vsan(s: &mut String, plan: &Plan) {
    let g = group_thousands;
    let Some(v) = &plan.vsan_comparison else {
        return;
    };
    let _ = writeln!(s);
    let _ = writeln!(s, "vSAN-only comparison (capacity)");
    let _ = writeln!(
        s,
        "  {} GiB of data / dedup {} x {:.3} ({}) / (1 - {}% slack) = {} TiB raw",
        g(v.data_gib, 1),
        v.dedup_ratio,
        v.overhead_factor,
        v.policy,
        v.slack_pct,
        g(v.raw_needed_tib, 1)
    );
    let _ = writeln!(
        s,
        "  {} hosts of {} ({} TiB raw each) -> {} extra beyond the {} planned, {} vs ANF {} \
             USD/month",
        v.hosts_needed,
        v.sku,
        g(v.raw_per_host_tib, 2),
        v.extra_hosts,
        v.cluster_hosts,
        v.extra_hosts_usd_per_month
            .map_or("price unknown".to_string(), |c| format!(
                "{} USD/month",
                g(c, 2)
            )),
        g(v.anf_usd_per_month, 2)
    );
    if v.clusters_needed > 0 {
        let _ = writeln!(
            s,
            "  {} hosts make {} AVS cluster(s) (largest {} hosts) in {} private cloud(s)",
            v.hosts_needed, v.clusters_needed, v.largest_cluster_hosts, v.private_clouds_needed
        );
    }
    let _ = writeln!(s, "  {}", v.note);
}

/// Excluded VMs: count and GiB per reason, then the first few by name; nothing when no VM
/// is excluded (the demand line says 0), as in each cluster of a per-cluster plan.
fn excluded(s: &mut String, plan: &Plan) {
    if plan.excluded.is_empty() {
        return;
    }
    write_excluded(
        s,
        "Excluded VMs",
        &plan.excluded,
        plan.totals.excluded_capacity_gib,
    );
}

/// Writes `title`: the VMs of `list` and their known capacity `gib`, count and GiB per
/// reason, then the first few by name.
pub(super) fn write_excluded(s: &mut String, title: &str, list: &[ExcludedVm], gib: f64) {
    let g = group_thousands;
    let _ = writeln!(s);
    let mut by_reason: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for e in list {
        let entry = by_reason.entry(e.reason.describe()).or_default();
        entry.0 += 1;
        entry.1 += e.capacity_gib.unwrap_or(0.0);
    }
    let _ = writeln!(s, "{title}: {} ({} GiB)", list.len(), g(gib, 1));
    for (reason, (n, gib)) in &by_reason {
        let _ = writeln!(s, "  {n:>6} {reason} ({} GiB)", g(*gib, 1));
    }
    const SHOWN: usize = 20;
    for e in list.iter().take(SHOWN) {
        let _ = writeln!(
            s,
            "         {} [{}] {} row {}",
            clip_name(&e.name),
            e.reason.describe(),
            e.origin.sheet,
            e.origin.row
        );
    }
    if list.len() > SHOWN {
        let _ = writeln!(
            s,
            "         ... {} more (the JSON format lists all)",
            list.len() - SHOWN
        );
    }
}

/// The plan's warnings (the first few), when there are any.
fn warnings(s: &mut String, plan: &Plan) {
    write_warnings(s, &plan.warnings);
}

/// The assumptions the plan rests on.
fn assumptions(s: &mut String, plan: &Plan) {
    let _ = writeln!(s);
    let _ = writeln!(s, "Assumptions");
    write_assumption_rows(s, &plan.assumptions);
}

/// One line per assumption: name, value, note.
pub(super) fn write_assumption_rows<'a>(
    s: &mut String,
    rows: impl IntoIterator<Item = &'a Assumption>,
) {
    for a in rows {
        let _ = writeln!(s, "  {:<20} {:<28} {}", a.name, a.value, a.note);
    }
}

/// When the plan's prices took effect: one date when every price row used has the same
/// `effective_start` (or the plan lists none), else the first and last date and where each
/// meter's is (`2024-06-01 to 2025-09-01 by meter, see Prices`).
pub(super) fn effective_dates(plan: &Plan) -> String {
    let mut dates: Vec<&str> = plan
        .prices
        .iter()
        .map(|p| p.effective_start.as_str())
        .collect();
    dates.sort_unstable();
    dates.dedup();
    match (dates.first(), dates.last()) {
        (Some(first), Some(last)) if first != last => {
            format!("{first} to {last} by meter, see Prices")
        }
        _ => plan.prices_effective.clone(),
    }
}

/// The price rows the plan's costs use: tier, meter, price with its unit, effective date
/// and source.
fn prices(s: &mut String, plan: &Plan) {
    write_prices(s, &format!("Prices ({})", plan.region), &plan.prices);
}

/// `title`, then one line per price row (nothing without rows): tier, meter, price with its
/// unit, effective date and source.
pub(super) fn write_prices(s: &mut String, title: &str, prices: &[PriceUsed]) {
    if prices.is_empty() {
        return;
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "{title}");
    for p in prices {
        let _ = writeln!(
            s,
            "  {:<9} {:<10} {:>12} {:<22} from {}  {}",
            p.tier,
            p.meter,
            crate::numbers::group_thousands(p.price_usd, 6),
            p.unit,
            p.effective_start,
            p.source
        );
    }
}

/// Lists the first warnings, and how many more the JSON format lists.
pub(super) fn write_warnings(s: &mut String, warnings: &[Warning]) {
    if warnings.is_empty() {
        return;
    }
    const SHOWN: usize = 20;
    let _ = writeln!(s);
    let _ = writeln!(s, "Warnings: {}", warnings.len());
    // The plan's own warnings first (they name no file), then the input's, so a long list
    // of input warnings cannot hide them.
    let (plan_wide, from_input): (Vec<&Warning>, Vec<&Warning>) =
        warnings.iter().partition(|w| w.file.is_empty());
    for w in plan_wide.into_iter().chain(from_input).take(SHOWN) {
        let _ = writeln!(s, "  {w}");
    }
    if warnings.len() > SHOWN {
        let _ = writeln!(
            s,
            "  ... {} more (the JSON format lists all)",
            warnings.len() - SHOWN
        );
    }
}

/// Per-cluster plans as text: each cluster's plan under its banner, then the total, one
/// line per cluster, the estate's reservations and its excluded VMs (listed once).
pub(super) fn cluster_plans_text(plans: &ClusterPlans) -> String {
    let g = group_thousands;
    let mut s = String::new();
    for c in &plans.clusters {
        let _ = writeln!(
            s,
            "=== cluster {}: {} hosts ({}), {:.1}% of the capacity (and of estate-wide targets) ===",
            c.cluster,
            c.hosts,
            c.hosts_source,
            c.target_share * 100.0
        );
        s.push_str(&plan_text(&c.plan));
        let _ = writeln!(s);
    }
    let t = &plans.total;
    let _ = writeln!(s, "=== total over {} clusters ===", t.clusters);
    let _ = writeln!(
        s,
        "  {} hosts, {} datastores, {} TiB of pools, {} GiB placed, {} USD/month",
        t.hosts,
        t.datastores,
        t.pool_size_tib,
        g(t.placed_capacity_gib, 1),
        g(t.cost_usd_per_month, 2)
    );
    if t.first_month_cool_transfer_usd > 0.0 {
        let _ = writeln!(
            s,
            "  first month only: {} USD to move the cold data into the cool tier",
            g(t.first_month_cool_transfer_usd, 2)
        );
    }
    if t.vms_without_cluster > 0 {
        let _ = writeln!(
            s,
            "  not planned: {} VMs that name no cluster ({} GiB)",
            t.vms_without_cluster,
            g(t.vms_without_cluster_capacity_gib, 1)
        );
    }
    for c in &plans.clusters {
        let _ = writeln!(
            s,
            "  {:<24} {:>3} hosts {:>3} datastores {:>7} TiB {:>12} USD/month",
            c.cluster,
            c.hosts,
            c.plan.totals.datastores,
            c.plan.totals.pool_size_tib,
            g(c.plan.totals.cost_usd_per_month, 2)
        );
    }
    estate_reservations(&mut s, plans);
    if !plans.excluded.is_empty() {
        write_excluded(
            &mut s,
            "Excluded VMs of the estate (in no cluster's plan)",
            &plans.excluded,
            t.excluded_capacity_gib,
        );
    }
    write_warnings(&mut s, &t.warnings);
    s
}

/// The reservations bought once for the estate (per region and service level), and what
/// they save against the clusters' pay-as-you-go figures.
fn estate_reservations(s: &mut String, plans: &ClusterPlans) {
    let g = group_thousands;
    if plans.reservations.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  reservations, bought once for the estate (the clusters above are pay as you go):"
    );
    for r in &plans.reservations {
        let units = units_text(&r.units);
        let _ = writeln!(
            s,
            "    {} {} {}: {} hot TiB, {} TiB reserved ({} off); hot tier {} -> {} USD/month, \
             saves {}",
            r.region,
            r.service_level.as_str(),
            r.term,
            g(r.hot_tib, 1),
            g(f64::from(r.reserved_tib), 0),
            units,
            g(r.pay_as_you_go_usd_per_month, 2),
            g(r.cost_usd_per_month, 2),
            g(r.savings_usd_per_month, 2)
        );
    }
    let _ = writeln!(
        s,
        "  total with the reservations: {} USD/month (saves {})",
        g(plans.total.cost_usd_per_month, 2),
        g(plans.total.reservation_savings_usd_per_month, 2)
    );
}

//! One cluster's plan as model sections (the `--hosts N` plan, and each cluster of the
//! per-cluster and estate plans): what text, Markdown, HTML and the workbook all show.

use std::collections::BTreeMap;

use crate::demand::ExcludedVm;
use crate::numbers::{counted, group_thousands as g};
use crate::plan::{Assumption, Plan, PoolPlan, PriceUsed};
use crate::report::model::delivered::{share_note, size_cell};
use crate::report::model::table::{Cell, Column, Section, Table};
use crate::report::model::{plan_choices, plan_details};

/// The model's sections of `plan`, in the order the reports show them (a section with
/// nothing to show left out): [`cluster_sections`], then the assumptions and prices. The
/// headline ([`crate::report::model::headline::plan_headline`]) comes before them.
pub fn plan_sections(plan: &Plan) -> Vec<Section> {
    let mut out = cluster_sections(plan);
    out.push(assumptions(plan));
    out.extend(prices(plan));
    out
}

/// The sections of `plan` that a per-cluster or estate document shows for each cluster:
/// all but the assumptions and prices, which the document shows once (demand, pools,
/// datastores, placement, predictions, binding limits, alternatives, marginal costs, time
/// phases, the vSAN comparison, excluded VMs, warnings).
pub fn cluster_sections(plan: &Plan) -> Vec<Section> {
    let mut out = vec![
        demand(plan),
        pools(plan),
        datastores(plan),
        plan_details::placement(plan),
        performance(plan),
        plan_details::binding(plan),
    ];
    out.extend(plan_choices::alternatives(plan));
    out.extend(plan_choices::marginal_costs(plan));
    out.extend(plan_choices::time_phased(plan));
    out.extend(plan_details::vsan(plan));
    out.extend(excluded(plan));
    out.extend(crate::report::model::warnings::warnings(&plan.warnings));
    out
}

/// The pools: level, size, throughput (included and purchased), cool access, cost; a
/// sentence for each shared pool's share, each cool-tier or reserved pool's cost parts and
/// each first month's cool transfer.
pub fn pools(plan: &Plan) -> Section {
    let rows = plan
        .pools
        .iter()
        .map(|p| {
            vec![
                Cell::text(p.name.clone()),
                Cell::text(p.service_level.to_string()),
                Cell::text(size_cell(p.size_tib, p.share_gib)),
                Cell::number(p.throughput_mibps, 0),
                Cell::number(p.included_throughput_mibps, 0),
                Cell::number(p.purchased_throughput_mibps, 0),
                Cell::YesNo(p.cool_access),
                Cell::Usd(p.cost_usd_per_month),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("pool"),
            Column::words("service level"),
            Column::figures("size", "TiB"),
            Column::figures("", "MiB/s"),
            Column::figures("included", "MiB/s"),
            Column::figures("purchased", "MiB/s"),
            Column::words("cool access"),
            Column::figures("", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table("Pools", "Pools", table);
    for p in plan.pools.iter().filter(|p| p.share_gib > 0) {
        section.notes.push(format!("{}: {}", p.name, share_note(p)));
    }
    for p in &plan.pools {
        if p.cool_access || p.reserved_tib > 0 {
            section.notes.push(cost_parts(p));
        }
        if p.first_month_cool_transfer_usd > 0.0 {
            section.notes.push(format!(
                "First month only, {}: {} USD one-time transfer of the {} GiB cold data to the \
                 cool tier (not in the monthly cost)",
                p.name,
                g(p.first_month_cool_transfer_usd, 2),
                g(p.cool_data_gib, 1)
            ));
        }
    }
    section
}

/// A cool-tier or reserved pool's monthly cost in parts: hot tier, cool tier, cool
/// transfer, throughput, and its reservation.
fn cost_parts(p: &PoolPlan) -> String {
    format!(
        "{}: hot tier {} + cool tier {} ({} GiB cold) + cool transfer {} + throughput {} \
         USD/month{}",
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
    )
}

/// Reservation units in words: `1 x 1,024 TiB at 34% + 2 x 100 TiB at 30%`.
pub(in crate::report) fn units_text(units: &[crate::catalog::ReservedUnits]) -> String {
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
    if p.reservation_units.is_empty() {
        return format!(
            "{} TiB reserved at {}% off",
            g(f64::from(p.reserved_tib), 0),
            p.reservation_discount_pct
        );
    }
    format!(
        "{} TiB reserved ({} off)",
        g(f64::from(p.reserved_tib), 0),
        units_text(&p.reservation_units)
    )
}

/// The datastores: pool, size, QoS, predictions, VMs placed, placed GiB, cost.
pub fn datastores(plan: &Plan) -> Section {
    let rows = plan
        .datastores
        .iter()
        .map(|d| {
            vec![
                Cell::Name(d.name.clone()),
                Cell::text(d.pool.clone()),
                Cell::number(d.size_gib, 0),
                Cell::number(d.throughput_mibps, 0),
                Cell::number(d.predicted_iops, 0),
                Cell::number(d.predicted_throughput_mibps, 0),
                Cell::Count(d.vm_count as u64),
                Cell::number(d.placed_capacity_gib, 1),
                Cell::Usd(d.cost_usd_per_month),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("datastore"),
            Column::words("pool"),
            Column::figures("size", "GiB"),
            Column::figures("QoS", "MiB/s"),
            Column::figures("predicted", "IOPS"),
            Column::figures("predicted", "MiB/s"),
            Column::figures("VMs", ""),
            Column::figures("placed", "GiB"),
            Column::figures("", "USD/month"),
        ],
        rows,
    };
    Section::of_table("Datastores", "Datastores", table)
}

/// The assumptions the plan rests on: name, value, source.
pub fn assumptions(plan: &Plan) -> Section {
    assumptions_section("Assumptions", &plan.assumptions, "assumption", "source")
}

/// Settings as a section titled `title`: name (headed `what`), value, and where it came
/// from (headed `why`).
pub fn assumptions_section<'a>(
    title: &str,
    list: impl IntoIterator<Item = &'a Assumption>,
    what: &str,
    why: &str,
) -> Section {
    let rows = list
        .into_iter()
        .map(|a| {
            vec![
                Cell::text(a.name.clone()),
                Cell::text(a.value.clone()),
                Cell::text(a.note.clone()),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words(what),
            Column::words("value"),
            Column::words(why),
        ],
        rows,
    };
    Section::of_table(title, "Assumptions", table)
}

/// The price rows the plan's costs use (none without rows).
pub fn prices(plan: &Plan) -> Option<Section> {
    prices_section(&format!("Prices ({})", plan.region), &plan.prices)
}

/// Price rows as a section titled `title`: tier, meter, price, unit, effective date,
/// source; `None` without rows.
pub fn prices_section(title: &str, prices: &[PriceUsed]) -> Option<Section> {
    if prices.is_empty() {
        return None;
    }
    let rows = prices
        .iter()
        .map(|p| {
            vec![
                Cell::text(p.tier.clone()),
                Cell::text(p.meter.clone()),
                Cell::number(p.price_usd, 6),
                Cell::text(p.unit.clone()),
                Cell::text(p.effective_start.clone()),
                Cell::text(p.source.clone()),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("tier"),
            Column::words("meter"),
            Column::figures("", "USD"),
            Column::words("unit"),
            Column::words("effective"),
            Column::words("source"),
        ],
        rows,
    };
    Some(Section::of_table(title, "Prices", table))
}

/// VMs of `list` (their known capacity `gib`) by reason: a sentence with the count and
/// GiB (`suffix` after it; duplicate rows counted apart, as their VMs are counted once),
/// the count and GiB per reason, then the first [`EXCLUDED_SHOWN`] by name with their
/// reason and place (`a.csv [vInfo] row 3`), and how many more.
pub fn excluded_section(title: &str, list: &[ExcludedVm], gib: f64, suffix: &str) -> Section {
    let mut by_reason: BTreeMap<&str, (u64, f64)> = BTreeMap::new();
    for e in list {
        let entry = by_reason.entry(e.reason.describe()).or_default();
        entry.0 += 1;
        entry.1 += e.capacity_gib.unwrap_or(0.0);
    }
    let rows = by_reason
        .iter()
        .map(|(r, (n, gib))| vec![Cell::text(*r), Cell::Count(*n), Cell::number(*gib, 1)])
        .collect();
    let table = Table {
        columns: vec![
            Column::words("reason"),
            Column::figures("VMs", ""),
            Column::figures("", "GiB"),
        ],
        rows,
    };
    let mut section = Section::of_table(title, "Excluded", table);
    // A duplicate row is no VM left out: its VM is counted once, from the row it repeats.
    let duplicates = list
        .iter()
        .filter(|e| e.reason == crate::demand::ExclusionReason::Duplicate)
        .count();
    section.lead.push(if duplicates == 0 {
        format!(
            "{} ({} GiB){suffix}",
            counted(list.len() as u64, "VM"),
            g(gib, 1)
        )
    } else {
        format!(
            "{} left out ({} GiB); {} counted once{suffix}",
            counted((list.len() - duplicates) as u64, "VM"),
            g(gib, 1),
            counted(duplicates as u64, "duplicate row")
        )
    });
    section.items = list
        .iter()
        .take(EXCLUDED_SHOWN)
        .map(|e| {
            vec![
                Cell::Name(e.name.clone()),
                Cell::text(format!(" [{}] ", e.reason_text())),
                Cell::Place(format!(
                    "{} [{}] row {}",
                    e.origin.file, e.origin.sheet, e.origin.row
                )),
            ]
        })
        .collect();
    if list.len() > EXCLUDED_SHOWN {
        section.notes.push(format!(
            "... {} more (the JSON format lists all)",
            list.len() - EXCLUDED_SHOWN
        ));
    }
    section
}

/// Excluded VMs the reports list by name (the JSON lists all).
pub const EXCLUDED_SHOWN: usize = 20;

/// The plan's excluded VMs by reason (`None` when none is excluded: the demand says 0, as
/// in each cluster of a per-cluster or estate plan).
pub fn excluded(plan: &Plan) -> Option<Section> {
    (!plan.excluded.is_empty()).then(|| {
        excluded_section(
            "Excluded VMs",
            &plan.excluded,
            plan.totals.excluded_capacity_gib,
            "",
        )
    })
}

/// VMs in scope, capacity placed and required, the IOPS and MiB/s targets with their I/O
/// profiles.
pub fn demand(plan: &Plan) -> Section {
    let t = &plan.totals;
    let perf = &plan.performance;
    let rows = vec![
        vec![Cell::text("VMs in scope"), Cell::Count(t.vms_placed as u64)],
        vec![
            Cell::text("VMs excluded"),
            Cell::Count(t.vms_excluded as u64),
        ],
        vec![
            Cell::text("capacity placed, GiB"),
            Cell::number(t.placed_capacity_gib, 1),
        ],
        vec![
            Cell::text("capacity required, GiB"),
            Cell::number(t.required_capacity_gib, 1),
        ],
        vec![
            Cell::text(format!(
                "IOPS target ({} KiB, {}% read, {}% random)",
                perf.small_block_profile.block_size_kib,
                perf.small_block_profile.read_pct,
                perf.small_block_profile.random_pct
            )),
            Cell::number(perf.iops_target, 0),
        ],
        vec![
            Cell::text(format!(
                "MiB/s target ({} KiB sequential)",
                perf.large_block_profile.block_size_kib
            )),
            Cell::number(perf.throughput_target_mibps, 0),
        ],
    ];
    let table = Table {
        columns: vec![Column::words("item"), Column::figures("value", "")],
        rows,
    };
    Section::of_table("Demand", "Summary", table)
}

/// Predicted performance against the targets per I/O profile (small blocks in IOPS, large
/// blocks in MiB/s, as the workbook's `Performance` rows), with the layer that binds each, and the
/// extrapolation's sentence when the model reaches beyond its measurements.
pub fn performance(plan: &Plan) -> Section {
    let perf = &plan.performance;
    let rows = vec![
        vec![
            Cell::text("small block"),
            Cell::number(perf.small_block.iops, 0),
            Cell::number(perf.iops_target, 0),
            Cell::text("IOPS"),
            Cell::text(perf.small_block.bottleneck.as_str()),
        ],
        vec![
            Cell::text("large block"),
            Cell::number(perf.large_block.throughput_mibps, 0),
            Cell::number(perf.throughput_target_mibps, 0),
            Cell::text("MiB/s"),
            Cell::text(perf.large_block.bottleneck.as_str()),
        ],
    ];
    let table = Table {
        columns: vec![
            Column::words("profile"),
            Column::figures("predicted", ""),
            Column::figures("target", ""),
            Column::words("unit"),
            Column::words("bound by"),
        ],
        rows,
    };
    let mut section = Section::of_table("Predicted performance", "Performance", table);
    if let Some(sentence) = perf.extrapolation.sentence() {
        section
            .notes
            .push(sentence.trim_end_matches('.').to_string());
    }
    section
}

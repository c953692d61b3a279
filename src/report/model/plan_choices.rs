//! The choices of one cluster's plan as model sections: the alternatives it was chosen
//! over, what one more TiB or 100 more MiB/s would cost, and the base and peak phases of a
//! time-phased plan; and the words the formats share for them.

use crate::catalog::ServiceLevel;
use crate::numbers::group_thousands as g;
use crate::plan::{Alternative, PhaseLayout, Plan};
use crate::report::model::delivered::{shares_priced_note, size_cell};
use crate::report::model::table::{Cell, Column, Section, Table};

/// The cheapest plan under each restriction (`None` without alternatives): level,
/// datastores, pool size, purchased MiB/s, reserved TiB, options (cool access, large
/// volume), cost and the difference to the chosen plan, and the note; an infeasible
/// restriction's figures `-`, its note saying why.
pub fn alternatives(plan: &Plan) -> Option<Section> {
    if plan.alternatives.is_empty() {
        return None;
    }
    let rows = plan
        .alternatives
        .iter()
        .map(|a| {
            let feasible = |c: Cell| if a.feasible { c } else { Cell::Dash };
            vec![
                Cell::text(restriction(a)),
                a.service_level
                    .map_or(Cell::Dash, |l| Cell::text(l.to_string())),
                feasible(Cell::Count(u64::from(a.datastores))),
                feasible(Cell::text(size_cell(a.pool_size_tib, a.share_gib))),
                feasible(Cell::number(a.purchased_throughput_mibps, 0)),
                feasible(Cell::number(f64::from(a.reserved_tib), 0)),
                feasible(Cell::text(options(a))),
                feasible(Cell::Usd(a.cost_usd_per_month)),
                feasible(Cell::text(signed_usd(a.extra_cost_usd_per_month))),
                Cell::text(if a.feasible {
                    a.note.clone()
                } else {
                    format!("infeasible: {}", a.note)
                }),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("restriction"),
            Column::words("service level"),
            Column::figures("datastores", ""),
            Column::figures("size", "TiB"),
            Column::figures("purchased", "MiB/s"),
            Column::figures("reserved", "TiB"),
            Column::words("options"),
            Column::figures("", "USD/month"),
            Column::figures("vs chosen", ""),
            Column::words("note"),
        ],
        rows,
    };
    let mut section = Section::of_table("Alternatives", "Alternatives", table);
    section.lead.push(format!(
        "The cheapest plan under each restriction{}",
        if plan.time_phased.is_some() {
            ", for the base months' targets alone"
        } else {
            ""
        }
    ));
    if let Some(note) = shares_priced_note(plan) {
        section.notes.push(capitalised(&note));
    }
    Some(section)
}

/// What one more TiB or 100 more MiB/s would cost (`None` when not computed): the
/// change in words, the extra and the new monthly cost, and the layout.
pub fn marginal_costs(plan: &Plan) -> Option<Section> {
    if plan.marginal_costs.is_empty() {
        return None;
    }
    let rows = plan
        .marginal_costs
        .iter()
        .map(|m| {
            vec![
                Cell::text(change_words(&m.change)),
                if m.feasible {
                    Cell::text(signed_usd(m.extra_cost_usd_per_month))
                } else {
                    Cell::text("cannot be met")
                },
                if m.feasible {
                    Cell::Usd(m.cost_usd_per_month)
                } else {
                    Cell::Dash
                },
                Cell::text(m.detail.clone()),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("change"),
            Column::figures("extra", "USD/month"),
            Column::figures("then", "USD/month"),
            Column::words("layout"),
        ],
        rows,
    };
    Some(Section::of_table("Marginal costs", "Marginal costs", table))
}

/// The base and peak phases of a time-phased plan (`None` without): the yearly cost
/// against the peak layout all year, each phase's layout, targets and predictions, and what
/// changes between them.
pub fn time_phased(plan: &Plan) -> Option<Section> {
    let tp = plan.time_phased.as_ref()?;
    let rows = [("base", &tp.base), ("peak", &tp.peak)]
        .iter()
        .map(|(name, p)| {
            vec![
                Cell::text(*name),
                Cell::Count(u64::from(p.months)),
                Cell::text(p.service_level.to_string()),
                Cell::text(size_cell(p.pool_size_tib, p.share_gib)),
                Cell::number(p.throughput_mibps, 0),
                Cell::number(p.purchased_throughput_mibps, 0),
                Cell::Count(u64::from(p.datastores)),
                Cell::number(p.iops_target, 0),
                Cell::number(p.predicted_iops, 0),
                Cell::number(p.throughput_target_mibps, 0),
                Cell::number(p.predicted_throughput_mibps, 0),
                Cell::Usd(p.cost_usd_per_month),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("phase"),
            Column::figures("months", ""),
            Column::words("service level"),
            Column::figures("size", "TiB"),
            Column::figures("QoS", "MiB/s"),
            Column::figures("purchased", "MiB/s"),
            Column::figures("datastores", ""),
            Column::figures("IOPS target", ""),
            Column::figures("predicted", "IOPS"),
            Column::figures("MiB/s target", ""),
            Column::figures("predicted", "MiB/s"),
            Column::figures("", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table("Time-phased plan", "Time phases", table);
    section.lead.push(format!(
        "{} USD/year, {} USD/year less than the peak layout all year ({} USD/year)",
        g(tp.yearly_cost_usd, 2),
        g(tp.yearly_savings_usd, 2),
        g(tp.peak_all_year_yearly_cost_usd, 2)
    ));
    section
        .notes
        .push(capitalised(&phase_change(&tp.base, &tp.peak)));
    Some(section)
}

/// `text` with its first letter upper-case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// A marginal cost's change in words: `one more TiB of capacity`, `100 more MiB/s`.
pub(in crate::report) fn change_words(change: &str) -> &str {
    match change {
        "capacity_plus_1_tib" => "one more TiB of capacity",
        "throughput_plus_100_mibps" => "100 more MiB/s",
        other => other,
    }
}

/// An alternative's restriction in words: `premium only`, `exactly 1 datastore`,
/// `exactly 4 datastores`, `nconnect 4`.
pub(in crate::report) fn restriction(a: &Alternative) -> String {
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
pub(in crate::report) fn options(a: &Alternative) -> String {
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
pub(in crate::report) fn signed_usd(v: f64) -> String {
    if v < 0.0 {
        format!("-{}", g(-v, 2))
    } else {
        format!("+{}", g(v, 2))
    }
}

/// What changes between the phases: a move to another level (Standard, Premium, Ultra), or
/// a resize in place (a Flexible pool stays Flexible).
pub(in crate::report) fn phase_change(base: &PhaseLayout, peak: &PhaseLayout) -> String {
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

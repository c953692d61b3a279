//! The details of one cluster's plan as model sections: where the VMs are placed (the
//! first few), the limits that bind the layout, and the same data on vSAN alone.

use crate::numbers::{counted, group_thousands as g};
use crate::plan::Plan;
use crate::report::model::table::{Cell, Column, Section, Table};

/// VM placements the reports show (the JSON lists all).
pub const PLACEMENTS_SHOWN: usize = 20;

/// The VMs placed on the datastores: how many, then the first [`PLACEMENTS_SHOWN`] with
/// their datastore and GiB (no table when none is placed).
pub fn placement(plan: &Plan) -> Section {
    let shown = PLACEMENTS_SHOWN;
    let rows: Vec<Vec<Cell>> = plan
        .placements
        .iter()
        .take(shown)
        .map(|p| {
            vec![
                Cell::Name(p.vm.clone()),
                Cell::Name(p.datastore.clone()),
                Cell::number(p.capacity_gib, 1),
            ]
        })
        .collect();
    let table = (!rows.is_empty()).then(|| Table {
        columns: vec![
            Column::words("VM"),
            Column::words("datastore"),
            Column::figures("", "GiB"),
        ],
        rows,
    });
    Section {
        title: "Placement".to_string(),
        sheet: "Placements",
        lead: vec![format!(
            "{} on {}{}",
            counted(plan.placements.len() as u64, "VM"),
            counted(plan.datastores.len() as u64, "datastore"),
            if plan.placements.len() > shown {
                format!(
                    "; the first {shown} below, {} more in the JSON format",
                    g((plan.placements.len() - shown) as f64, 0)
                )
            } else {
                String::new()
            }
        )],
        table,
        items: Vec::new(),
        notes: Vec::new(),
    }
}

/// The limits that bind the layout: each constraint and what it sets.
pub fn binding(plan: &Plan) -> Section {
    let rows = plan
        .binding
        .iter()
        .map(|b| {
            vec![
                Cell::text(b.constraint.as_str()),
                Cell::text(b.detail.clone()),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![Column::words("limit"), Column::words("what it sets")],
        rows,
    };
    Section::of_table("Binding limits", "Binding limits", table)
}

/// The vSAN-only comparison (capacity; `None` without): the raw capacity the same data
/// needs, the hosts that hold it and their cost against ANF.
pub fn vsan(plan: &Plan) -> Option<Section> {
    let v = plan.vsan_comparison.as_ref()?;
    let item = |s: String, c: Cell| vec![Cell::text(s), c];
    let rows = vec![
        item("data, GiB".into(), Cell::number(v.data_gib, 1)),
        item(
            format!(
                "raw needed, TiB (dedup {} x {:.3} {} / (1 - {}% slack))",
                v.dedup_ratio, v.overhead_factor, v.policy, v.slack_pct
            ),
            Cell::number(v.raw_needed_tib, 1),
        ),
        item(
            format!(
                "{} hosts needed ({} TiB raw each)",
                v.sku,
                g(v.raw_per_host_tib, 2)
            ),
            Cell::Count(u64::from(v.hosts_needed)),
        ),
        item(
            format!("extra hosts beyond the {} planned", v.cluster_hosts),
            Cell::Count(u64::from(v.extra_hosts)),
        ),
        item(
            "extra hosts, USD/month".into(),
            v.extra_hosts_usd_per_month
                .map_or_else(|| Cell::text("price unknown"), Cell::Usd),
        ),
        item("ANF, USD/month".into(), Cell::Usd(v.anf_usd_per_month)),
    ];
    let table = Table {
        columns: vec![Column::words("item"), Column::figures("value", "")],
        rows,
    };
    let mut section = Section::of_table("vSAN-only comparison (capacity)", "vSAN", table);
    if v.clusters_needed > 0 {
        section.notes.push(format!(
            "{} make {} (largest {}) in {}",
            counted(u64::from(v.hosts_needed), "host"),
            counted(u64::from(v.clusters_needed), "AVS cluster"),
            counted(u64::from(v.largest_cluster_hosts), "host"),
            counted(u64::from(v.private_clouds_needed), "private cloud")
        ));
    }
    section.notes.push(v.note.trim_end_matches('.').to_string());
    Some(section)
}

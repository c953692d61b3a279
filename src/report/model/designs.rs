//! The estate's designs as model sections (vSAN alone, ANF for all, hybrid): the estate's
//! three totals with what each costs against the chosen one, and each AVS cluster's three
//! designs; with the ExpressRoute gateway line.

use crate::numbers::group_thousands as g;
use crate::plan::{ClusterDesign, DesignTotal, EstateDesigns, GatewayLine};
use crate::report::model::plan_choices::signed_usd;
use crate::report::model::table::{Cell, Column, Section, Table};

/// Title of the estate's designs.
pub const DESIGNS: &str = "Designs";

/// The estate's designs (`sku`: the estate's host SKU): per design its hosts, clusters,
/// private clouds, the month's hosts, ANF and gateways (with their count), the month's and
/// year's total, against the chosen design per month, the data on vSAN and on ANF and the
/// VMs on ANF, and its note; an infeasible design's figures `-`. `detail` adds, after the
/// table, why the design was chosen, the gateway line with its source and how the hybrid
/// is searched; without, the gateway line in short.
pub fn estate(d: &EstateDesigns, detail: bool) -> Section {
    let chosen = d
        .estate
        .iter()
        .find(|r| r.chosen)
        .and_then(|r| r.total_usd_per_month);
    let rows = d.estate.iter().map(|r| estate_row(r, chosen)).collect();
    let table = Table {
        columns: vec![
            Column::words("design"),
            Column::figures("hosts", ""),
            Column::figures("clusters", ""),
            Column::figures("private clouds", ""),
            Column::figures("hosts", "USD/month"),
            Column::figures("ANF", "USD/month"),
            Column::figures("gateways", "USD/month (count)"),
            Column::figures("total", "USD/month"),
            Column::figures("total", "USD/year"),
            Column::figures("vs chosen", "USD/month"),
            Column::figures("vSAN", "TiB"),
            Column::figures("ANF", "TiB"),
            Column::figures("VMs on ANF", ""),
            Column::figures("predicted", "IOPS"),
            Column::figures("predicted", "MiB/s"),
            Column::words("note"),
        ],
        rows,
    };
    let mut section = Section::of_table(DESIGNS, "Designs", table);
    section
        .lead
        .push("Hosts + ANF + ExpressRoute gateways per month; the cheapest is chosen".into());
    if detail {
        section.notes.push(format!("Chosen: {}", d.why));
        section.notes.push(gateway_text(&d.gateway));
        section.notes.push(d.note.trim_end_matches('.').to_string());
    } else {
        section.notes.push(gateway_short_text(&d.gateway));
    }
    section
}

/// One estate design's row: an infeasible one its name, `-` and its note.
fn estate_row(r: &DesignTotal, chosen: Option<f64>) -> Vec<Cell> {
    let mut row = vec![Cell::text(r.design.label())];
    if !r.feasible {
        row.extend(std::iter::repeat_n(Cell::Dash, 14));
        row.push(Cell::text(r.note.clone()));
        return row;
    }
    let against = match (r.total_usd_per_month, chosen) {
        _ if r.chosen => Cell::text("(chosen)"),
        (Some(t), Some(c)) => Cell::text(signed_usd(t - c)),
        _ => Cell::text("unknown"),
    };
    row.extend([
        Cell::Count(u64::from(r.hosts)),
        Cell::Count(u64::from(r.clusters)),
        Cell::Count(u64::from(r.private_clouds)),
        Cell::MaybeUsd(r.hosts_usd_per_month),
        Cell::Usd(r.anf_usd_per_month),
        Cell::text(format!(
            "{} ({})",
            g(r.gateway_usd_per_month, 2),
            r.gateways
        )),
        Cell::MaybeUsd(r.total_usd_per_month),
        Cell::MaybeUsd(r.total_usd_per_year),
        against,
        Cell::number(r.vsan_data_tib, 1),
        Cell::number(r.anf_data_tib, 1),
        Cell::number(r.vms_on_anf as f64, 0),
        Cell::number(r.predicted_iops, 0),
        Cell::number(r.predicted_throughput_mibps, 1),
        Cell::text(r.note.clone()),
    ]);
    row
}

/// Each AVS cluster's three designs (`sku`: the estate's host SKU): hosts (with their SKU
/// where it is not the estate's: a first cluster the design moves to another SKU, or adds
/// without VMs), data on vSAN and on ANF, VMs on ANF, the month's ANF, the level and pool
/// it is priced on, and the month's total; the gateways counted once, in the estate's
/// rows.
pub fn per_cluster(d: &EstateDesigns, sku: &str) -> Section {
    let mut rows = Vec::new();
    for c in &d.clusters {
        for (label, x) in [
            ("vSAN alone", &c.vsan),
            ("ANF for all", &c.anf),
            ("hybrid", &c.hybrid),
        ] {
            let mut row = vec![Cell::Name(c.cluster.clone()), Cell::text(label)];
            row.extend(design_cells(x, sku));
            rows.push(row);
        }
    }
    let table = Table {
        columns: vec![
            Column::words("cluster"),
            Column::words("design"),
            Column::figures("hosts", ""),
            Column::figures("vSAN", "GiB"),
            Column::figures("ANF", "GiB"),
            Column::figures("VMs on ANF", ""),
            Column::figures("ANF", "USD/month"),
            Column::words("ANF priced on"),
            Column::figures("total", "USD/month"),
            Column::figures("predicted", "IOPS"),
            Column::figures("predicted", "MiB/s"),
        ],
        rows,
    };
    let mut section = Section::of_table("Designs per AVS cluster", "Designs", table);
    section.notes.push(
        "ANF per cluster: the planned design's from its plan (the pools it creates, their \
         rounding up to whole TiB shared out); another design's a pool of the cluster's own, \
         or a share of a shared pool priced per GiB of quota (the pools' rounding in the \
         estate's row), as that design sizes its pools; the ExpressRoute gateways are in \
         the estate's rows"
            .into(),
    );
    if d.clusters.iter().any(|c| c.added) {
        section.notes.push(
            "A cluster without VMs is one a design adds as a private cloud's first (0 hosts \
             where that design adds none)"
                .into(),
        );
    }
    section
}

/// One cluster design's cells: hosts, vSAN GiB, ANF GiB, VMs on ANF, ANF, what it is
/// priced on, total, and what its storage is predicted to deliver (IOPS, MiB/s).
fn design_cells(d: &ClusterDesign, sku: &str) -> [Cell; 9] {
    if !d.feasible {
        return std::array::from_fn(|_| Cell::Dash);
    }
    [
        if d.sku.is_empty() || d.sku == sku {
            Cell::Count(u64::from(d.hosts))
        } else {
            Cell::text(format!("{} {}", g(f64::from(d.hosts), 0), d.sku))
        },
        Cell::number(d.vsan_data_gib, 0),
        Cell::number(d.anf_data_gib, 0),
        Cell::number(d.vms_on_anf as f64, 0),
        Cell::Usd(d.anf_usd_per_month),
        if d.anf_priced_on.is_empty() {
            Cell::Dash
        } else {
            Cell::text(d.anf_priced_on.clone())
        },
        Cell::MaybeUsd(d.total_usd_per_month),
        Cell::number(d.predicted_iops, 0),
        Cell::number(d.predicted_throughput_mibps, 1),
    ]
}

/// The gateway line in words.
fn gateway_text(gw: &GatewayLine) -> String {
    format!(
        "ExpressRoute gateway for the ANF datastores: {}, {} USD/month each (not regional), \
         one per {} private clouds, {} already in place (`existing_er_gateways`); {}",
        gw.sku,
        g(gw.usd_per_month, 2),
        gw.private_clouds_per_gateway,
        gw.existing,
        gw.source
    )
}

/// The gateway line in short: SKU, price, private clouds per gateway and those in place
/// (the sources in [`gateway_text`]).
fn gateway_short_text(gw: &GatewayLine) -> String {
    format!(
        "ExpressRoute gateway: {}, {} USD/month each, one per {} private clouds, {} already \
         in place (`existing_er_gateways`)",
        gw.sku,
        g(gw.usd_per_month, 2),
        gw.private_clouds_per_gateway,
        gw.existing
    )
}

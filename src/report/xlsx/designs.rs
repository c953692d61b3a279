//! The estate workbook's `Designs` sheet: the three designs for the estate (with their
//! gateways and totals as `hosts + ANF + gateways` formulas), the gateway line, then each
//! AVS cluster's three designs and the VMs the hybrid keeps on vSAN.

use super::cells::{Cell, Fmt, Sheet, boolean, checked, count, int, local_ref, num, opt, round2};
use super::cells::{text, usd};
use crate::plan::{ClusterDesign, EstatePlan};

/// Columns: kind, cluster, design, chosen, feasible, hosts, clusters, hosts USD/month, ANF
/// USD/month, gateways, gateways USD/month, total USD/month, total USD/year, vSAN GiB,
/// ANF GiB, VMs on vSAN, VMs on ANF, note.
const HEADER: [&str; 18] = [
    "kind",
    "cluster",
    "design",
    "chosen",
    "feasible",
    "hosts",
    "clusters",
    "hosts USD/month",
    "ANF USD/month",
    "ExpressRoute gateways",
    "gateways USD/month",
    "total USD/month",
    "total USD/year",
    "vSAN data GiB",
    "ANF data GiB",
    "VMs on vSAN",
    "VMs on ANF",
    "note",
];

/// `ROUND(hosts + ANF + gateways, 2)` on row `row` when the total is known, checked
/// against the JSON's.
fn total(row: usize, hosts: Option<f64>, anf: f64, gateways: f64, json: Option<f64>) -> Cell {
    match (hosts, json) {
        (Some(h), Some(t)) => {
            let f = format!(
                "ROUND({}+{}+{},2)",
                local_ref(row, 7),
                local_ref(row, 8),
                local_ref(row, 10)
            );
            checked(f, round2(h + anf + gateways), t, Fmt::Usd).0
        }
        _ => opt(json, usd),
    }
}

/// `Designs`: the estate's rows, the gateway, each cluster's rows.
pub fn designs_sheet(plan: &EstatePlan) -> Sheet {
    let mut sheet = Sheet::new("Designs", &HEADER);
    let Some(d) = &plan.designs else {
        return sheet;
    };
    let e = Cell::Empty;
    for r in &d.estate {
        let row = sheet.rows.len();
        sheet.rows.push(vec![
            text("estate"),
            e.clone(),
            text(r.design.label()),
            boolean(r.chosen),
            boolean(r.feasible),
            int(r.hosts),
            int(r.clusters),
            opt(r.hosts_usd_per_month, usd),
            usd(r.anf_usd_per_month),
            int(r.gateways),
            usd(r.gateway_usd_per_month),
            total(
                row,
                r.hosts_usd_per_month,
                r.anf_usd_per_month,
                r.gateway_usd_per_month,
                r.total_usd_per_month,
            ),
            opt(r.total_usd_per_year, usd),
            int(r.vsan_data_tib * 1024.0),
            int(r.anf_data_tib * 1024.0),
            count(r.vms_on_vsan),
            count(r.vms_on_anf),
            text(r.note.clone()),
        ]);
    }
    let mut why = vec![text("chosen"), e.clone(), text(d.chosen.label())];
    why.extend(vec![e.clone(); 14]);
    why.push(text(d.why.clone()));
    sheet.rows.push(why);
    let g = &d.gateway;
    let mut gw = vec![text("gateway"), e.clone(), text(g.sku.clone())];
    gw.extend(vec![e.clone(); 6]);
    gw.push(int(g.existing));
    gw.push(usd(g.usd_per_month));
    gw.extend(vec![e.clone(); 6]);
    gw.push(text(format!(
        "one per {} private clouds; the price of one gateway; the count: those already \
         in place (`existing_er_gateways`); {}",
        g.private_clouds_per_gateway, g.source
    )));
    sheet.rows.push(gw);
    for c in &d.clusters {
        for (label, x) in [
            ("vSAN alone", &c.vsan),
            ("ANF for all", &c.anf),
            ("hybrid", &c.hybrid),
        ] {
            sheet
                .rows
                .push(cluster_row(&c.cluster, label, x, (c.vms, c.added)));
        }
        // Where the hybrid splits the cluster, the VMs it keeps on vSAN (all or none need
        // no list).
        if !c.hybrid_vms_on_vsan.is_empty() && c.hybrid.vms_on_anf > 0 {
            let mut row = vec![text("hybrid VMs on vSAN"), text(c.cluster.clone())];
            row.extend(vec![e.clone(); 15]);
            row.push(text(c.hybrid_vms_on_vsan.join(", ")));
            sheet.rows.push(row);
        }
    }
    let mut note = vec![text("note")];
    note.extend(vec![e; 16]);
    note.push(text(d.note.clone()));
    sheet.rows.push(note);
    sheet
}

/// One cluster design's row (`vms`: the cluster's; `added`: a cluster a design adds
/// without VMs); its note what its ANF is priced on, or its hosts' SKU when added.
fn cluster_row(
    cluster: &str,
    label: &str,
    x: &ClusterDesign,
    (vms, added): (usize, bool),
) -> Vec<Cell> {
    let e = Cell::Empty;
    let note = match (added, x.anf_priced_on.is_empty()) {
        (true, _) if x.hosts > 0 => text(format!(
            "added without VMs as its private cloud's first cluster: {} {} hosts",
            x.hosts, x.sku
        )),
        (true, _) => text("not added in this design".to_string()),
        (false, false) => text(format!("ANF priced on {}", x.anf_priced_on)),
        (false, true) => e.clone(),
    };
    vec![
        text("cluster"),
        text(cluster.to_string()),
        text(label.to_string()),
        e.clone(),
        boolean(x.feasible),
        int(x.hosts),
        e.clone(),
        opt(x.hosts_usd_per_month, usd),
        usd(x.anf_usd_per_month),
        e.clone(),
        e.clone(),
        opt(x.total_usd_per_month, usd),
        e.clone(),
        num(x.vsan_data_gib),
        num(x.anf_data_gib),
        count(vms.saturating_sub(x.vms_on_anf)),
        count(x.vms_on_anf),
        note,
    ]
}

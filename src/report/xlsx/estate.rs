//! The estate workbook's own sheets: `Estate` (the summary), `Sizing`, `SKUs`,
//! `Estate pools` and `vSAN alone`, before `Clusters`, `Reservations` and the per-cluster
//! sheets.

use super::cells::{
    Cell, Fmt, Sheet, boolean, checked, column_ref, count, dec, int, local_ref, num, opt, round2,
    text, usd,
};
use super::per_cluster::{anf_cost, clusters_sheet, plan_sheets, reservations_sheet};
use super::pools::COST;
use super::sections::spelled;
use crate::plan::{EstatePlan, EstateSummary};

/// The estate workbook's sheets in order.
pub fn estate_sheets(plan: &EstatePlan) -> Vec<Sheet> {
    let mut sheets = plan_sheets(&plan.clusters);
    sheets.add_shared(
        "(estate)",
        &plan.excluded,
        &plan.warnings,
        &plan.assumptions,
    );
    let (pool_rows, _) = sheets.rows();
    let anf = anf_cost(
        &plan.clusters,
        &plan.reservations,
        pool_rows,
        plan.summary.anf_usd_per_month,
    );
    let mut all = vec![
        estate_summary(plan, anf),
        sizing(plan),
        skus(plan),
        clusters_sheet(&plan.clusters, pool_rows),
        estate_pools(plan, pool_rows),
        reservations_sheet(&plan.reservations),
        vsan_alone(plan),
    ];
    all.extend(sheets.into_sheets());
    all
}

/// Row of `ANF USD/month` and `hosts USD/month` on `Estate` (for the total's formula).
const ANF_ROW: usize = 18;
const HOSTS_ROW: usize = 17;

/// `Estate`: item / value, the ANF cost a formula over `Pools` and `Reservations` and the
/// monthly total `hosts + ANF` over those cells.
fn estate_summary(plan: &EstatePlan, anf: Cell) -> Sheet {
    let s = &plan.summary;
    let mut rows: Vec<(&str, Cell)> = vec![
        ("schema version", int(plan.schema_version)),
        ("region", text(plan.region.clone())),
        ("location", text(plan.location.clone())),
        ("host SKU", text(s.sku.clone())),
        ("hosts", int(s.hosts)),
        ("hosts sized by vCPU", int(s.hosts_by_driver.vcpu)),
        ("hosts sized by memory", int(s.hosts_by_driver.memory)),
        ("hosts at the minimum", int(s.hosts_by_driver.minimum)),
        ("hosts raised for storage", int(s.hosts_by_driver.storage)),
        ("clusters", count(s.clusters)),
        ("private clouds", count(s.private_clouds)),
        ("pools", count(s.pools)),
        ("NetApp accounts", int(s.netapp_accounts)),
        ("datastores", int(s.datastores)),
        ("pool size TiB", int(s.pool_size_tib)),
        ("host term", spelled(&s.host_term)),
        ("host USD/hour", opt(s.host_usd_per_hour, usd)),
        ("hosts USD/month", opt(s.hosts_usd_per_month, usd)),
        ("ANF USD/month", anf),
    ];
    rows.push(("total USD/month", total_cell(s)));
    rows.extend(more_summary(s));
    debug_assert_eq!(rows[HOSTS_ROW].0, "hosts USD/month");
    debug_assert_eq!(rows[ANF_ROW].0, "ANF USD/month");
    let mut sheet = Sheet::new("Estate", &["item", "value"]);
    sheet.rows = rows.into_iter().map(|(k, v)| vec![text(k), v]).collect();
    sheet
}

/// `ROUND(hosts + ANF, 2)` when both are known.
fn total_cell(s: &EstateSummary) -> Cell {
    match (s.hosts_usd_per_month, s.total_usd_per_month) {
        (Some(hosts), Some(total)) => {
            let formula = format!(
                "ROUND({}+{},2)",
                local_ref(HOSTS_ROW, 1),
                local_ref(ANF_ROW, 1)
            );
            checked(
                formula,
                round2(hosts + s.anf_usd_per_month),
                total,
                Fmt::Usd,
            )
            .0
        }
        (_, total) => opt(total, usd),
    }
}

fn more_summary(s: &EstateSummary) -> Vec<(&'static str, Cell)> {
    vec![
        ("total USD/year", opt(s.total_usd_per_year, usd)),
        (
            "first-month cool transfer USD",
            usd(s.first_month_cool_transfer_usd),
        ),
        ("VMs placed", count(s.vms_placed)),
        ("VMs excluded", count(s.vms_excluded)),
        ("capacity placed GiB", int(s.placed_capacity_gib)),
        (
            "host price source",
            text(
                s.host_price_source
                    .clone()
                    .unwrap_or_else(|| "unknown".into()),
            ),
        ),
        (
            "vSAN alone hosts",
            opt(s.vsan_alone_hosts.map(f64::from), int),
        ),
        ("vSAN alone USD/month", opt(s.vsan_alone_usd_per_month, usd)),
        ("savings USD/month", opt(s.savings_usd_per_month, usd)),
        ("savings USD/year", opt(s.savings_usd_per_year, usd)),
    ]
}

/// `Sizing`: the estate row (SKU, per-host vCPUs and memory, totals), one row per AVS
/// cluster, one per private cloud, one per sizing warning.
fn sizing(plan: &EstatePlan) -> Sheet {
    let z = &plan.sizing;
    let mut sheet = Sheet::new(
        "Sizing",
        &[
            "kind",
            "name",
            "SKU",
            "source cluster",
            "private cloud",
            "hosts",
            "hosts for vCPU",
            "hosts for memory",
            "HA hosts",
            "driver",
            "VMs",
            "vCPUs",
            "memory GiB",
            "vCPUs per host",
            "memory GiB per host",
            "detail",
        ],
    );
    let e = Cell::Empty;
    sheet.rows.push(vec![
        text("estate"),
        e.clone(),
        text(z.sku.clone()),
        e.clone(),
        e.clone(),
        int(z.hosts),
        e.clone(),
        e.clone(),
        e.clone(),
        e.clone(),
        e.clone(),
        int(z.vcpus as f64),
        int(z.memory_gib),
        dec(z.vcpus_per_host),
        dec(z.memory_gib_per_host),
        e.clone(),
    ]);
    for c in &z.clusters {
        sheet.rows.push(vec![
            text("cluster"),
            text(c.name.clone()),
            text(c.sku.clone()),
            text(c.source_cluster.clone().unwrap_or_default()),
            text(c.private_cloud.clone()),
            int(c.hosts),
            int(c.hosts_for_vcpu),
            int(c.hosts_for_memory),
            int(c.ha_hosts),
            spelled(&c.driver),
            count(c.vms),
            int(c.vcpus as f64),
            int(c.memory_gib),
            e.clone(),
            e.clone(),
            e.clone(),
        ]);
    }
    for p in &z.private_clouds {
        let mut row = vec![text("private cloud"), text(p.name.clone())];
        row.extend(vec![e.clone(); 3]);
        row.push(int(p.hosts));
        row.extend(vec![e.clone(); 9]);
        row.push(text(p.clusters.join(", ")));
        sheet.rows.push(row);
    }
    for w in &z.warnings {
        let mut row = vec![text("warning")];
        row.extend(vec![e.clone(); 14]);
        row.push(text(w.message.clone()));
        sheet.rows.push(row);
    }
    sheet
}

/// `SKUs`: every SKU's estate and total.
fn skus(plan: &EstatePlan) -> Sheet {
    let mut sheet = Sheet::new(
        "SKUs",
        &[
            "SKU",
            "feasible",
            "chosen",
            "hosts",
            "clusters",
            "private clouds",
            "host USD/hour",
            "hosts USD/month",
            "ANF USD/month",
            "total USD/month",
            "vSAN alone hosts",
            "vSAN alone USD/month",
            "note",
        ],
    );
    for a in &plan.sku_alternatives {
        sheet.rows.push(vec![
            text(a.sku.clone()),
            boolean(a.feasible),
            boolean(a.chosen),
            int(a.hosts),
            count(a.clusters),
            count(a.private_clouds),
            opt(a.host_usd_per_hour, usd),
            opt(a.hosts_usd_per_month, usd),
            opt(a.anf_usd_per_month, usd),
            opt(a.total_usd_per_month, usd),
            opt(a.vsan_alone_hosts.map(f64::from), int),
            opt(a.vsan_alone_usd_per_month, usd),
            text(a.note.clone()),
        ]);
    }
    sheet
}

/// `Estate pools`: each shared pool, its cost the `SUMIF` of its clusters' pool rows.
fn estate_pools(plan: &EstatePlan, pool_rows: usize) -> Sheet {
    let mut sheet = Sheet::new(
        "Estate pools",
        &[
            "pool",
            "NetApp account",
            "service level",
            "cool access",
            "size TiB",
            "clusters",
            "datastores",
            "QoS MiB/s",
            "cost USD/month",
        ],
    );
    for p in &plan.pools {
        let r = sheet.rows.len();
        let parts: f64 = plan
            .clusters
            .iter()
            .flat_map(|c| c.plan.pools.iter())
            .filter(|x| x.name == p.name)
            .map(|x| x.cost_usd_per_month)
            .sum();
        let formula = format!(
            "ROUND(SUMIF({},{},{}),2)",
            column_ref("Pools", 1, pool_rows),
            local_ref(r, 0),
            column_ref("Pools", 1 + COST, pool_rows)
        );
        sheet.rows.push(vec![
            text(p.name.clone()),
            text(p.account.clone()),
            text(p.service_level.to_string()),
            boolean(p.cool_access),
            int(p.size_tib),
            text(p.clusters.join(", ")),
            int(p.datastores),
            dec(p.throughput_mibps),
            checked(formula, round2(parts), p.cost_usd_per_month, Fmt::Usd).0,
        ]);
    }
    sheet
}

/// `vSAN alone`: one row per AVS cluster, then the estate's totals and cost.
fn vsan_alone(plan: &EstatePlan) -> Sheet {
    let mut sheet = Sheet::new(
        "vSAN alone",
        &[
            "cluster",
            "SKU",
            "compute hosts",
            "data GiB",
            "hosts",
            "clusters",
            "private clouds",
            "extra hosts",
            "policy",
            "raw needed TiB",
            "slack %",
            "dedup ratio",
            "USD/month",
            "USD/year",
            "note",
        ],
    );
    let Some(v) = &plan.vsan_alone else {
        return sheet;
    };
    let z = &v.sizing;
    let e = Cell::Empty;
    for c in &z.clusters {
        sheet.rows.push(vec![
            text(c.cluster.clone()),
            text(z.sku.clone()),
            int(c.compute_hosts),
            int(c.data_gib),
            int(c.hosts),
            int(c.clusters),
            e.clone(),
            e.clone(),
            text(c.policy.clone()),
            num(c.raw_needed_tib),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
            e.clone(),
        ]);
    }
    sheet.rows.push(vec![
        text("(estate)"),
        text(z.sku.clone()),
        e.clone(),
        e.clone(),
        int(z.hosts),
        int(z.cluster_count),
        int(z.private_clouds),
        int(z.extra_hosts),
        e.clone(),
        e.clone(),
        dec(z.slack_pct),
        num(z.dedup_ratio),
        opt(v.usd_per_month, usd),
        opt(v.usd_per_year, usd),
        text(v.note.clone()),
    ]);
    sheet
}

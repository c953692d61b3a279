//! The sheets shared by per-cluster and estate workbooks (`Clusters`, `Reservations`) and
//! the per-cluster workbook's own (`Total`), with the chart of capacity and cost per
//! cluster.

use super::cells::{
    Cell, Fmt, Sheet, block_ref, boolean, checked, column_ref, count, datastore_count, dec, int,
    local_ref, num, round2, rounded_sum, text, usd,
};
use super::charts::ChartSpec;
use super::pools::{COST, DS_PLACED, QOS, SHARE, SIZE};
use super::single::{Block, PlanSheets, size_and_placed, sum_of};
use crate::plan::{ClusterPlan, ClusterPlans, Plan, PoolPlan, ReservationPurchase};

/// Header of `Clusters`.
const CLUSTERS_HEADER: [&str; 27] = [
    "cluster",
    "hosts",
    "hosts source",
    "target share",
    "region",
    "location",
    "prices effective",
    "datastores",
    "flows",
    "hosts with VMs",
    "pool size TiB",
    "VMs placed",
    "VMs excluded",
    "capacity required GiB",
    "capacity placed GiB",
    "capacity excluded GiB",
    "QoS MiB/s",
    "cost USD/month",
    "first-month cool transfer USD",
    "IOPS target",
    "IOPS predicted",
    "MiB/s target",
    "MiB/s predicted",
    "extrapolated",
    "schema version",
    "share GiB",
    "ANF %",
];
const CL_POOL_TIB: usize = 10;
const CL_PLACED: usize = 14;
const CL_SHARE: usize = 25;
/// Column of a cluster's predicted IOPS on `Clusters`.
pub const CL_IOPS: usize = 20;
/// Column of a cluster's predicted MiB/s on `Clusters`.
pub const CL_MIBPS: usize = 22;
/// Column of a cluster's cost on `Clusters`, USD per month.
pub const CL_COST: usize = 17;

/// The `Clusters` sheet: one row per cluster plan, its pool size, QoS, cost and
/// first-month transfer `SUM`s of the cluster's own rows on `Pools`, its placed GiB the
/// `SUM` and its datastores the `COUNTA` of its own rows on `Datastores` (`blocks`: each
/// cluster's rows there, in `clusters` order), each checked against the JSON.
pub fn clusters_sheet(clusters: &[ClusterPlan], blocks: &[Block]) -> Sheet {
    let mut sheet = Sheet::new("Clusters", &CLUSTERS_HEADER);
    for (i, c) in clusters.iter().enumerate() {
        let r = sheet.rows.len();
        let p = &c.plan;
        let t = &p.totals;
        let sums = ClusterSums {
            block: blocks.get(i).copied().unwrap_or_default(),
            plan: p,
        };
        sheet.rows.push(vec![
            text(c.cluster.clone()),
            int(c.hosts),
            text(c.hosts_source.clone()),
            num(c.target_share),
            text(p.region.clone()),
            text(p.location.clone()),
            text(p.prices_effective.clone()),
            sums.datastores(t.datastores),
            int(t.flows as f64),
            int(t.hosts_with_vms),
            sums.pools(
                SIZE,
                |x| f64::from(x.size_tib),
                f64::from(t.pool_size_tib),
                Fmt::Int,
            ),
            count(t.vms_placed),
            count(t.vms_excluded),
            int(t.required_capacity_gib),
            sums.placed(t.placed_capacity_gib),
            int(t.excluded_capacity_gib),
            sums.pools(QOS, |x| x.throughput_mibps, t.throughput_mibps, Fmt::Dec1),
            sums.pools(
                COST,
                |x| x.cost_usd_per_month,
                t.cost_usd_per_month,
                Fmt::Usd,
            ),
            sums.pools(
                COST + 1,
                |x| x.first_month_cool_transfer_usd,
                t.first_month_cool_transfer_usd,
                Fmt::Usd,
            ),
            int(p.performance.iops_target),
            int(p.performance.small_block.iops),
            dec(p.performance.throughput_target_mibps),
            dec(p.performance.large_block.throughput_mibps),
            boolean(p.performance.extrapolation.extrapolated),
            int(p.schema_version),
            sums.pools(
                SHARE,
                |x| f64::from(x.share_gib),
                p.pools.iter().map(|x| f64::from(x.share_gib)).sum(),
                Fmt::Int,
            ),
        ]);
        sheet.rows[r].extend(utilisation_cells(r, c));
    }
    sheet
}

/// A cluster's `ANF %`: its placed GiB over its pools' TiB x 1,024 plus its shares' GiB, a
/// formula on the row (in an estate, its utilisation's `storage_pct`, on `Sizing`).
fn utilisation_cells(r: usize, c: &ClusterPlan) -> [Cell; 1] {
    let t = &c.plan.totals;
    let shares: f64 = c.plan.pools.iter().map(|x| f64::from(x.share_gib)).sum();
    let gib = f64::from(t.pool_size_tib) * 1024.0 + shares;
    if gib <= 0.0 {
        return [Cell::Empty];
    }
    let formula = format!(
        "100*{}/({}*1024+{})",
        local_ref(r, CL_PLACED),
        local_ref(r, CL_POOL_TIB),
        local_ref(r, CL_SHARE)
    );
    let computed = 100.0 * t.placed_capacity_gib / gib;
    [Cell::Formula(formula, computed, Fmt::Dec1)]
}

/// The sums of one `Clusters` row over its cluster's own rows on `Pools` and `Datastores`
/// (a plan's rows are contiguous, [`Block`]), so no other cluster's rows are ever counted,
/// whatever the names.
struct ClusterSums<'a> {
    block: Block,
    plan: &'a Plan,
}

impl ClusterSums<'_> {
    /// `ROUND(SUM(the cluster's Pools rows of column 1 + col), 2)`; the value when the
    /// cluster has no pool.
    fn pools(&self, col: usize, of: fn(&PoolPlan) -> f64, json: f64, fmt: Fmt) -> Cell {
        match block_ref("Pools", 1 + col, self.block.pools) {
            Some(rows) => rounded_sum(
                format!("SUM({rows})"),
                self.plan.pools.iter().map(of),
                json,
                fmt,
            ),
            None => Cell::Num(json, fmt),
        }
    }

    /// The placed GiB of the cluster's `Datastores` rows.
    fn placed(&self, json: f64) -> Cell {
        match block_ref("Datastores", 1 + DS_PLACED, self.block.datastores) {
            Some(rows) => {
                let placed = self.plan.datastores.iter().map(|d| d.placed_capacity_gib);
                rounded_sum(format!("SUM({rows})"), placed, json, Fmt::Int)
            }
            None => Cell::Num(json, Fmt::Int),
        }
    }

    /// `COUNTA` of the names on the cluster's `Datastores` rows.
    fn datastores(&self, json: u32) -> Cell {
        match block_ref("Datastores", 1, self.block.datastores) {
            Some(rows) => {
                let n = self.plan.datastores.len() as f64;
                checked(format!("COUNTA({rows})"), n, f64::from(json), Fmt::Int).0
            }
            None => Cell::Num(f64::from(json), Fmt::Int),
        }
    }
}

/// Header of `Reservations`.
const RESERVATIONS_HEADER: [&str; 9] = [
    "region",
    "service level",
    "term",
    "hot TiB",
    "units",
    "reserved TiB",
    "pay as you go USD/month",
    "cost USD/month",
    "savings USD/month",
];
/// Column of a reservation's savings.
pub const SAVINGS: usize = 8;

/// The `Reservations` sheet: each purchase, its savings `PAYG - cost` as a formula.
pub fn reservations_sheet(reservations: &[ReservationPurchase]) -> Sheet {
    let mut sheet = Sheet::new("Reservations", &RESERVATIONS_HEADER);
    for p in reservations {
        let r = sheet.rows.len();
        let units = p
            .units
            .iter()
            .map(|u| format!("{} x {} TiB at {}%", u.count, u.unit_tib, u.discount_pct))
            .collect::<Vec<_>>()
            .join(", ");
        let formula = format!("ROUND({}-{},2)", local_ref(r, 6), local_ref(r, 7));
        let computed = round2(p.pay_as_you_go_usd_per_month - p.cost_usd_per_month);
        sheet.rows.push(vec![
            text(p.region.clone()),
            text(p.service_level.to_string()),
            text(p.term.clone()),
            num(p.hot_tib),
            text(units),
            int(p.reserved_tib),
            usd(p.pay_as_you_go_usd_per_month),
            usd(p.cost_usd_per_month),
            checked(formula, computed, p.savings_usd_per_month, Fmt::Usd).0,
        ]);
    }
    sheet
}

/// `ROUND(SUM(Pools cost) - SUM(Reservations savings), 2)`: the ANF cost with the
/// estate's reservations, checked against `json`.
pub fn anf_cost(
    clusters: &[ClusterPlan],
    reservations: &[ReservationPurchase],
    pool_rows: usize,
    json: f64,
) -> Cell {
    let pools: f64 = clusters
        .iter()
        .flat_map(|c| c.plan.pools.iter().map(|p| p.cost_usd_per_month))
        .sum();
    let savings: f64 = reservations.iter().map(|r| r.savings_usd_per_month).sum();
    let formula = format!(
        "ROUND(SUM({})-SUM({}),2)",
        column_ref("Pools", 1 + COST, pool_rows),
        column_ref("Reservations", SAVINGS, reservations.len())
    );
    checked(formula, round2(pools - savings), json, Fmt::Usd).0
}

/// Every cluster's plan on the per-cluster sheets.
pub fn plan_sheets(clusters: &[ClusterPlan]) -> PlanSheets {
    let mut sheets = PlanSheets::new(true);
    for c in clusters {
        sheets.add(&c.cluster, &c.plan);
    }
    sheets
}

/// The per-cluster workbook's sheets: `Total`, `Clusters`, `Reservations`, then the
/// per-cluster sheets.
pub fn cluster_plans_sheets(plans: &ClusterPlans) -> Vec<Sheet> {
    let mut sheets = plan_sheets(&plans.clusters);
    sheets.add_shared("(total)", &plans.excluded, &plans.total.warnings, &[]);
    let rows = sheets.rows();
    let mut all = vec![
        total_sheet(plans, rows),
        clusters_sheet(&plans.clusters, sheets.blocks()),
        reservations_sheet(&plans.reservations),
    ];
    all.extend(sheets.into_sheets());
    all
}

/// `Total`: item / value; hosts the sum of `Clusters`, datastores, costs, savings, transfer,
/// pool size and placed GiB formulas over `Clusters`, `Pools`, `Datastores` and
/// `Reservations` (`rows`: data rows on `Pools` and `Datastores`).
fn total_sheet(plans: &ClusterPlans, (pool_rows, ds_rows): (usize, usize)) -> Sheet {
    let t = &plans.total;
    let pools = || plans.clusters.iter().flat_map(|c| c.plan.pools.iter());
    let firsts: Vec<f64> = pools().map(|p| p.first_month_cool_transfer_usd).collect();
    let savings: Vec<f64> = plans
        .reservations
        .iter()
        .map(|r| r.savings_usd_per_month)
        .collect();
    let n = plans.reservations.len();
    let mut rows: Vec<(&str, Cell)> = vec![("schema version", int(plans.schema_version))];
    rows.extend(total_counts(plans, ds_rows));
    rows.extend([
        (
            "cost USD/month",
            anf_cost(
                &plans.clusters,
                &plans.reservations,
                pool_rows,
                t.cost_usd_per_month,
            ),
        ),
        (
            "reservation savings USD/month",
            sum_of(
                "Reservations",
                SAVINGS,
                n,
                &savings,
                t.reservation_savings_usd_per_month,
            ),
        ),
        (
            "first-month cool transfer USD",
            sum_of(
                "Pools",
                2 + COST,
                pool_rows,
                &firsts,
                t.first_month_cool_transfer_usd,
            ),
        ),
        ("VMs without cluster", count(t.vms_without_cluster)),
        (
            "their capacity GiB",
            int(t.vms_without_cluster_capacity_gib),
        ),
        ("VMs excluded", count(t.vms_excluded)),
        ("capacity excluded GiB", int(t.excluded_capacity_gib)),
    ]);
    rows.extend(size_and_placed(
        plans.clusters.iter().map(|c| &c.plan),
        1,
        (pool_rows, ds_rows),
        (t.pool_size_tib, t.placed_capacity_gib),
    ));
    let mut total = Sheet::new("Total", &["item", "value"]);
    total.rows = rows.into_iter().map(|(k, v)| vec![text(k), v]).collect();
    total
}

/// `Total`'s clusters, hosts (the sum of `Clusters`) and datastores (`COUNTA` of the
/// `Datastores` rows, `ds_rows` of them).
fn total_counts(plans: &ClusterPlans, ds_rows: usize) -> [(&'static str, Cell); 3] {
    let t = &plans.total;
    let hosts = plans.clusters.iter().map(|c| f64::from(c.hosts));
    let hosts_sum = format!("SUM({})", column_ref("Clusters", 1, plans.clusters.len()));
    let ds_count: usize = plans.clusters.iter().map(|c| c.plan.datastores.len()).sum();
    [
        ("clusters", count(t.clusters)),
        (
            "hosts",
            rounded_sum(hosts_sum, hosts, f64::from(t.hosts), Fmt::Int),
        ),
        (
            "datastores",
            datastore_count(1, ds_rows, ds_count, t.datastores),
        ),
    ]
}

/// Capacity and cost per cluster, on `Clusters`.
pub fn cluster_charts() -> Vec<ChartSpec> {
    vec![
        ChartSpec {
            target: "Clusters",
            source: "Clusters",
            title: "Pool capacity per cluster (TiB)",
            axis: "TiB",
            bar: false,
            categories: 0,
            series: vec![("pool size TiB", CL_POOL_TIB)],
        },
        ChartSpec {
            target: "Clusters",
            source: "Clusters",
            title: "ANF cost per cluster (USD/month)",
            axis: "USD/month",
            bar: false,
            categories: 0,
            series: vec![("cost USD/month", CL_COST)],
        },
    ]
}

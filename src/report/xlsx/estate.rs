//! The estate workbook's own sheets: `Estate` (the summary), `Hosts`, `Sizing`, `SKUs`,
//! `Estate pools`, `vSAN alone` and `Designs` (the three designs, for the estate and per
//! cluster, [`super::designs`]), before `Clusters`, `Reservations` and the per-cluster
//! sheets.

use super::cells::{
    Cell, Fmt, Sheet, boolean, cell_ref, checked, column_ref, count, datastore_count, dec,
    exact_count, exact_sum, int, local_ref, num, opt, round2, rounded_sum, text, usd,
};
use super::hosts::EstateHosts;
use super::per_cluster::{
    CL_COST, CL_IOPS, CL_MIBPS, anf_cost, clusters_sheet, reservations_sheet,
};
use super::pools::{self, COST, DS_NAME, DS_PLACED, DS_POOL, QOS, SHARE, SIZE, SharedPools};
use super::sections::spelled;
use super::single::PlanSheets;
use crate::plan::{EstatePlan, EstateSummary};
use crate::report::model::estate::vsan_hosts_by_sku;

/// The estate workbook's sheets in order.
pub fn estate_sheets(plan: &EstatePlan) -> Vec<Sheet> {
    let mut sheets = PlanSheets::with_shared(shared_pools(plan));
    for c in &plan.clusters {
        sheets.add(&c.cluster, &c.plan);
    }
    sheets.add_shared(
        "(estate)",
        &plan.excluded,
        &plan.warnings,
        &plan.assumptions,
    );
    let rows = sheets.rows();
    let anf = anf_cost(
        &plan.clusters,
        &plan.reservations,
        rows.0,
        plan.summary.anf_usd_per_month,
    );
    let phases: Vec<PhaseYear> = plan
        .clusters
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let tp = c.plan.time_phased.as_ref()?;
            let at = sheets.phase_year(&c.cluster)?;
            Some(PhaseYear {
                at,
                year_usd: tp.yearly_cost_usd,
                clusters_row: i,
                month_usd: c.plan.totals.cost_usd_per_month,
            })
        })
        .collect();
    let (hosts, host_cells) = super::hosts::hosts_sheet(plan);
    let mut all = vec![
        estate_summary(plan, anf, rows, &phases, host_cells),
        hosts,
        sizing(plan),
        skus(plan),
        clusters_sheet(&plan.clusters, sheets.blocks()),
        estate_pools(plan, rows, &sheets),
        reservations_sheet(&plan.reservations),
        vsan_alone(plan),
        super::designs::designs_sheet(plan),
    ];
    all.extend(sheets.into_sheets());
    all
}

/// A cluster whose year is time-phased: its `Time phases` year cell and value, and its
/// `Clusters` row and monthly cost (the year replaces 12 x that month).
struct PhaseYear {
    at: String,
    year_usd: f64,
    clusters_row: usize,
    month_usd: f64,
}

/// Rows of `Estate` the formulas point at (0-based data rows; Excel row = row + 2).
const HOSTS_ROW: usize = 20;
const ANF_ROW: usize = 21;
const GATEWAY_ROW: usize = 23;
const TOTAL_ROW: usize = 24;
const YEAR_ROW: usize = 25;
const FIRST_ROW: usize = 26;
const VSAN_ROW: usize = 32;

/// `Estate`: item / value; the hosts, the host price and the hosts' cost formulas over
/// `Hosts` ([`super::hosts`]), the datastores, pool size, first-month transfer and placed
/// GiB sums over `Pools`/`Datastores` ([`EstateSums`]), the ANF cost a formula over `Pools`
/// and `Reservations`, the monthly total `hosts + ANF + gateways`, the yearly total and the
/// savings formulas over those cells ([`year_cell`], [`savings_cells`]).
fn estate_summary(
    plan: &EstatePlan,
    anf: Cell,
    rows: (usize, usize),
    phases: &[PhaseYear],
    hosts: EstateHosts,
) -> Sheet {
    let s = &plan.summary;
    let sums = EstateSums { plan, rows };
    let mut out = head_rows(plan, hosts.hosts);
    out.extend([
        ("datastores", sums.datastores()),
        ("pool size TiB", sums.pool_size_tib()),
        ("host term", spelled(&s.host_term)),
        ("host USD/hour", hosts.price),
        ("hosts USD/month", hosts.cost),
        ("ANF USD/month", anf),
        ("ExpressRoute gateways", int(s.gateways)),
        ("gateways USD/month", usd(s.gateway_usd_per_month)),
        ("total USD/month", total_cell(s)),
        ("total USD/year", year_cell(s, phases)),
        ("first-month cool transfer USD", sums.first_month_usd()),
        ("VMs placed", count(s.vms_placed)),
        ("VMs excluded", count(s.vms_excluded)),
        ("capacity placed GiB", sums.placed_gib()),
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
    ]);
    out.extend(savings_cells(s));
    out.push(("host price", text(s.host_price_note.clone())));
    out.extend(sums.delivered());
    for (row, name) in [
        (HOSTS_ROW, "hosts USD/month"),
        (ANF_ROW, "ANF USD/month"),
        (GATEWAY_ROW, "gateways USD/month"),
        (TOTAL_ROW, "total USD/month"),
        (YEAR_ROW, "total USD/year"),
        (FIRST_ROW, "first-month cool transfer USD"),
        (VSAN_ROW, "vSAN alone USD/month"),
    ] {
        debug_assert_eq!(out[row].0, name);
    }
    let mut sheet = Sheet::new("Estate", &["item", "value"]);
    sheet.rows = out.into_iter().map(|(k, v)| vec![text(k), v]).collect();
    sheet
}

/// `Estate`'s first rows: schema, region, SKU (each SKU's, `av64 + av36p`, with first
/// clusters of another), `hosts` (the sum over `Hosts`) and counts (values).
fn head_rows(plan: &EstatePlan, hosts: Cell) -> Vec<(&'static str, Cell)> {
    let s = &plan.summary;
    vec![
        ("schema version", int(plan.schema_version)),
        ("region", text(plan.region.clone())),
        ("location", text(plan.location.clone())),
        ("design", text(s.design.label())),
        ("host SKU", text(crate::report::model::estate::skus_text(s))),
        ("hosts", hosts),
        ("hosts sized by vCPU", int(s.hosts_by_driver.vcpu)),
        ("hosts sized by memory", int(s.hosts_by_driver.memory)),
        ("hosts at the minimum", int(s.hosts_by_driver.minimum)),
        ("hosts raised for storage", int(s.hosts_by_driver.storage)),
        ("hosts added for vSAN", int(s.hosts_by_driver.vsan)),
        (
            "hosts added for vSAN performance",
            int(s.hosts_by_driver.vsan_performance),
        ),
        ("clusters", count(s.clusters)),
        ("private clouds", count(s.private_clouds)),
        ("pools", count(s.pools)),
        ("NetApp accounts", int(s.netapp_accounts)),
    ]
}

/// The `Estate` figures that sum the per-cluster sheets (`rows`: data rows on `Pools` and
/// `Datastores`, both with the `cluster` column), each checked against the JSON.
struct EstateSums<'a> {
    plan: &'a EstatePlan,
    rows: (usize, usize),
}

impl EstateSums<'_> {
    fn pools(&self) -> impl Iterator<Item = &crate::plan::PoolPlan> {
        self.plan.clusters.iter().flat_map(|c| c.plan.pools.iter())
    }

    fn datastores_of(&self) -> impl Iterator<Item = &crate::plan::DatastorePlan> {
        self.plan
            .clusters
            .iter()
            .flat_map(|c| c.plan.datastores.iter())
    }

    /// `ROUND(SUM(sheet column col), 2)` checked against `json`.
    fn sum(
        &self,
        (sheet, col): (&str, usize),
        values: impl Iterator<Item = f64>,
        json: f64,
        fmt: Fmt,
    ) -> Cell {
        let n = if sheet == "Pools" {
            self.rows.0
        } else {
            self.rows.1
        };
        rounded_sum(
            format!("SUM({})", column_ref(sheet, col, n)),
            values,
            json,
            fmt,
        )
    }

    /// `COUNTA` of the datastore names.
    fn datastores(&self) -> Cell {
        let n = self.datastores_of().count();
        datastore_count(1 + DS_NAME, self.rows.1, n, self.plan.summary.datastores)
    }

    /// The sum of `Estate pools`' sizes (a shared pool's size is its quotas rounded up
    /// once, not its clusters' figures added).
    fn pool_size_tib(&self) -> Cell {
        let sizes = self.plan.pools.iter().map(|p| f64::from(p.size_tib));
        let json = f64::from(self.plan.summary.pool_size_tib);
        let n = self.plan.pools.len();
        let formula = format!("SUM({})", column_ref("Estate pools", EP_SIZE, n));
        rounded_sum(formula, sizes, json, Fmt::Int)
    }

    fn first_month_usd(&self) -> Cell {
        let firsts = self.pools().map(|p| p.first_month_cool_transfer_usd);
        let json = self.plan.summary.first_month_cool_transfer_usd;
        self.sum(("Pools", 2 + COST), firsts, json, Fmt::Usd)
    }

    /// The targets, the clusters' predictions added (`SUM` of `Clusters`), whether the
    /// plan is sized for capacity only, and the utilisation (storage: the placed GiB over
    /// the pools' TiB x 1,024, a formula).
    fn delivered(&self) -> Vec<(&'static str, Cell)> {
        let s = &self.plan.summary;
        let (p, u) = (&s.performance, &s.utilisation);
        let n = self.plan.clusters.len();
        let of = |col: usize, f: fn(&crate::plan::Performance) -> f64, json: f64, fmt| {
            let sum = self
                .plan
                .clusters
                .iter()
                .map(|c| f(&c.plan.performance))
                .fold(0.0, |a, b| a + b);
            let formula = format!("SUM({})", column_ref("Clusters", col, n));
            checked(formula, sum, json, fmt).0
        };
        let pool_gib = 1024.0 * f64::from(s.pool_size_tib);
        let placed: f64 = self.datastores_of().map(|d| d.placed_capacity_gib).sum();
        let opt = |v: Option<f64>| v.map_or(Cell::Empty, dec);
        let storage = match u.storage_pct {
            Some(pct) if pool_gib > 0.0 => {
                let f = format!(
                    "100*SUM({})/(1024*SUM({}))",
                    column_ref("Datastores", 1 + DS_PLACED, self.rows.1),
                    column_ref("Estate pools", EP_SIZE, self.plan.pools.len())
                );
                checked(f, 100.0 * placed / pool_gib, pct, Fmt::Dec1).0
            }
            other => opt(other),
        };
        vec![
            ("IOPS target", int(p.iops_target)),
            ("IOPS target on ANF", int(p.anf_iops_target)),
            (
                "IOPS predicted",
                of(CL_IOPS, |x| x.small_block.iops, p.predicted_iops, Fmt::Int),
            ),
            ("MiB/s target", dec(p.throughput_target_mibps)),
            ("MiB/s target on ANF", dec(p.anf_throughput_target_mibps)),
            (
                "MiB/s predicted",
                of(
                    CL_MIBPS,
                    |x| x.large_block.throughput_mibps,
                    p.predicted_throughput_mibps,
                    Fmt::Dec1,
                ),
            ),
            ("sized for capacity only", boolean(p.capacity_only)),
            ("data on vSAN %", dec(p.vsan_data_pct)),
            ("vCPU utilisation %", dec(u.vcpu_pct)),
            ("memory utilisation %", dec(u.memory_pct)),
            ("ANF storage utilisation %", storage),
            ("vSAN storage utilisation %", opt(u.vsan_storage_pct)),
        ]
    }

    fn placed_gib(&self) -> Cell {
        let placed = self.datastores_of().map(|d| d.placed_capacity_gib);
        let json = self.plan.summary.placed_capacity_gib;
        self.sum(("Datastores", 1 + DS_PLACED), placed, json, Fmt::Int)
    }
}

/// `ROUND(hosts + ANF + gateways, 2)` when all are known.
fn total_cell(s: &EstateSummary) -> Cell {
    match (s.hosts_usd_per_month, s.total_usd_per_month) {
        (Some(hosts), Some(total)) => {
            let formula = format!(
                "ROUND({}+{}+{},2)",
                local_ref(HOSTS_ROW, 1),
                local_ref(ANF_ROW, 1),
                local_ref(GATEWAY_ROW, 1)
            );
            checked(
                formula,
                round2(hosts + s.anf_usd_per_month + s.gateway_usd_per_month),
                total,
                Fmt::Usd,
            )
            .0
        }
        (_, total) => opt(total, usd),
    }
}

/// The year as the JSON's `total_usd_per_year` has it (src/optimize/estate/assemble.rs):
/// `ROUND(12 x hosts + 12 x ANF + 12 x gateways + first-month cool transfer + Σ (a
/// time-phased cluster's year on Time phases − 12 x its month on Clusters), 2)`; ANF is
/// already less the reservations' savings.
fn year_cell(s: &EstateSummary, phases: &[PhaseYear]) -> Cell {
    let (Some(hosts), Some(year)) = (s.hosts_usd_per_month, s.total_usd_per_year) else {
        return opt(s.total_usd_per_year, usd);
    };
    let mut formula = format!(
        "12*{}+12*{}+12*{}+{}",
        local_ref(HOSTS_ROW, 1),
        local_ref(ANF_ROW, 1),
        local_ref(GATEWAY_ROW, 1),
        local_ref(FIRST_ROW, 1)
    );
    let mut computed = 12.0 * hosts
        + 12.0 * s.anf_usd_per_month
        + 12.0 * s.gateway_usd_per_month
        + s.first_month_cool_transfer_usd;
    for p in phases {
        let month = cell_ref("Clusters", p.clusters_row, CL_COST);
        formula.push_str(&format!("+{}-12*{month}", p.at));
        computed += p.year_usd - 12.0 * p.month_usd;
    }
    checked(
        format!("ROUND({formula},2)"),
        round2(computed),
        year,
        Fmt::Usd,
    )
    .0
}

/// `savings USD/month` = `ROUND(vSAN alone − total, 2)` and `savings USD/year` =
/// `ROUND(12 x vSAN alone − total USD/year, 2)`, as the JSON computes them.
fn savings_cells(s: &EstateSummary) -> [(&'static str, Cell); 2] {
    let vsan = s.vsan_alone_usd_per_month;
    // `ROUND(months x vSAN − total, 2)` when every figure is known, else the JSON's value.
    let saving =
        |months: f64, total: (usize, Option<f64>), json: Option<f64>| match (vsan, total.1, json) {
            (Some(v), Some(t), Some(json)) => {
                let months_text = if months == 1.0 {
                    String::new()
                } else {
                    format!("{months}*")
                };
                let f = format!(
                    "ROUND({months_text}{}-{},2)",
                    local_ref(VSAN_ROW, 1),
                    local_ref(total.0, 1)
                );
                checked(f, round2(months * v - t), json, Fmt::Usd).0
            }
            _ => opt(json, usd),
        };
    [
        (
            "savings USD/month",
            saving(
                1.0,
                (TOTAL_ROW, s.total_usd_per_month),
                s.savings_usd_per_month,
            ),
        ),
        (
            "savings USD/year",
            saving(
                12.0,
                (YEAR_ROW, s.total_usd_per_year),
                s.savings_usd_per_year,
            ),
        ),
    ]
}

/// `Sizing`: the estate row (SKU, per-host vCPUs and memory, totals), one row per AVS
/// cluster, one per private cloud, one per sizing warning (its kind as its name); the estate's and each cluster's
/// utilisation on the chosen design last (values: vCPU and memory over each cluster's own
/// SKU, ANF and vSAN apart).
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
            "vCPU %",
            "memory %",
            "ANF %",
            "vSAN %",
        ],
    );
    let e = Cell::Empty;
    let uses = |u: Option<&crate::plan::Utilisation>| -> Vec<Cell> {
        let Some(u) = u else {
            return vec![Cell::Empty; 4];
        };
        let opt = |v: Option<f64>| v.map_or(Cell::Empty, dec);
        vec![
            dec(u.vcpu_pct),
            dec(u.memory_pct),
            opt(u.storage_pct),
            opt(u.vsan_storage_pct),
        ]
    };
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
    sheet.rows[0].extend(uses(Some(&plan.summary.utilisation)));
    for c in &z.clusters {
        let mut row = vec![
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
        ];
        row.extend(uses(c.utilisation.as_ref()));
        sheet.rows.push(row);
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
        // Its kind in the `name` column.
        let mut row = vec![text("warning"), text(w.kind.as_str())];
        row.extend(vec![e.clone(); 13]);
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
            "design",
            "feasible",
            "chosen",
            "hosts",
            "clusters",
            "private clouds",
            "host USD/hour",
            "hosts USD/month",
            "ANF USD/month",
            "gateways USD/month",
            "total USD/month",
            "vSAN alone hosts",
            "vSAN alone USD/month",
            "note",
        ],
    );
    for a in &plan.sku_alternatives {
        sheet.rows.push(vec![
            text(a.sku.clone()),
            text(a.design.label()),
            boolean(a.feasible),
            boolean(a.chosen),
            int(a.hosts),
            count(a.clusters),
            count(a.private_clouds),
            opt(a.host_usd_per_hour, usd),
            opt(a.hosts_usd_per_month, usd),
            opt(a.anf_usd_per_month, usd),
            usd(a.gateway_usd_per_month),
            opt(a.total_usd_per_month, usd),
            opt(a.vsan_alone_hosts.map(f64::from), int),
            opt(a.vsan_alone_usd_per_month, usd),
            text(a.note.clone()),
        ]);
    }
    sheet
}

/// Columns of `Estate pools`: size, quotas, cool data and hot tier.
const EP_SIZE: usize = 4;
const EP_QUOTA: usize = 9;
const EP_COOL: usize = 10;
const EP_HOT: usize = 11;

/// Whether an estate pool holds shares of whole GiB (its clusters' pools name it with a
/// `share_gib`), rather than whole-TiB pools.
fn is_shared(plan: &EstatePlan, name: &str) -> bool {
    plan.clusters
        .iter()
        .flat_map(|c| c.plan.pools.iter())
        .any(|p| p.name == name && p.share_gib > 0)
}

/// The shared pools' hot-tier and quota cells on `Estate pools` (its rows in `plan.pools`
/// order), which each cluster's share on `Pools` is worked out from.
fn shared_pools(plan: &EstatePlan) -> SharedPools {
    let mut out = SharedPools::default();
    for (i, p) in plan.pools.iter().enumerate() {
        if is_shared(plan, &p.name) {
            let at = |c: usize| cell_ref("Estate pools", i, c);
            out.add(
                &p.name,
                (at(EP_HOT), p.hot_capacity_cost_usd_per_month),
                (at(EP_QUOTA), p.quota_gib as f64),
            );
        }
    }
    out
}

/// `Estate pools`: each shared pool, its datastores, QoS, cost, quotas and cool data as
/// exact-match sums and counts (`SUMPRODUCT(--EXACT(..))`, [`exact_sum`]) of the rows
/// naming the pool on `Pools` and `Datastores` (`rows`: their data rows); a pool of shares is its quotas rounded up to whole TiB (`ROUNDUP`) and its
/// hot tier `(size x 1,024 - cool GiB) x price`; a pool of whole TiB adds its clusters'.
fn estate_pools(plan: &EstatePlan, rows: (usize, usize), sheets: &PlanSheets) -> Sheet {
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
            "quota GiB",
            "cool data GiB",
            "hot capacity USD/month",
        ],
    );
    for p in &plan.pools {
        let r = sheet.rows.len();
        let key = local_ref(r, 0);
        let parts = || {
            plan.clusters
                .iter()
                .flat_map(|c| c.plan.pools.iter())
                .filter(|x| x.name == p.name)
        };
        let of = |col: usize| {
            let sum = column_ref("Pools", 1 + col, rows.0);
            exact_sum(&column_ref("Pools", 1, rows.0), &key, &sum)
        };
        let dss = plan
            .clusters
            .iter()
            .flat_map(|c| c.plan.datastores.iter())
            .filter(|d| d.pool == p.name)
            .count();
        let datastores = exact_count(&column_ref("Datastores", 1 + DS_POOL, rows.1), &key);
        let shared = is_shared(plan, &p.name);
        let quota: f64 = parts()
            .map(|x| f64::from(x.size_tib) * 1024.0 + f64::from(x.share_gib))
            .sum();
        let cool: f64 = parts().map(|x| x.cool_data_gib).sum();
        let size = if shared {
            let f = format!("ROUNDUP({}/1024,0)", local_ref(r, EP_QUOTA));
            let computed = (quota / 1024.0).ceil();
            checked(f, computed, f64::from(p.size_tib), Fmt::Int).0
        } else {
            rounded_sum(
                of(SIZE),
                parts().map(|x| f64::from(x.size_tib)),
                f64::from(p.size_tib),
                Fmt::Int,
            )
        };
        let price = sheets.capacity_price(&p.clusters, &p.service_level.to_string());
        let hot = match price {
            Some(price) if shared => {
                let f = format!(
                    "ROUND(MAX(0,{}*1024-{})*{},2)",
                    local_ref(r, EP_SIZE),
                    local_ref(r, EP_COOL),
                    price.at
                );
                let gib = (f64::from(p.size_tib) * 1024.0 - cool).max(0.0);
                checked(
                    f,
                    round2(gib * price.value),
                    p.hot_capacity_cost_usd_per_month,
                    Fmt::Usd,
                )
                .0
            }
            _ => rounded_sum(
                of(pools::HOT),
                parts().map(|x| x.hot_capacity_cost_usd_per_month),
                p.hot_capacity_cost_usd_per_month,
                Fmt::Usd,
            ),
        };
        sheet.rows.push(vec![
            text(p.name.clone()),
            text(p.account.clone()),
            text(p.service_level.to_string()),
            boolean(p.cool_access),
            size,
            text(p.clusters.join(", ")),
            checked(datastores, dss as f64, f64::from(p.datastores), Fmt::Int).0,
            rounded_sum(
                of(QOS),
                parts().map(|x| x.throughput_mibps),
                p.throughput_mibps,
                Fmt::Dec1,
            ),
            rounded_sum(
                of(COST),
                parts().map(|x| x.cost_usd_per_month),
                p.cost_usd_per_month,
                Fmt::Usd,
            ),
            rounded_sum(
                format!("{}*1024+{}", of(SIZE), of(SHARE)),
                std::iter::once(quota),
                p.quota_gib as f64,
                Fmt::Int,
            ),
            rounded_sum(
                of(pools::COOL_GIB),
                parts().map(|x| x.cool_data_gib),
                cool,
                Fmt::Int,
            ),
            hot,
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
        // A private cloud's first cluster may be of another SKU (AV64 in Gen 1).
        let sku = if c.sku.is_empty() { &z.sku } else { &c.sku };
        sheet.rows.push(vec![
            text(c.cluster.clone()),
            text(sku.clone()),
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
    // Each SKU's name where its first clusters are of another (`av64 + av36p`).
    let skus: Vec<&str> = vsan_hosts_by_sku(z).into_iter().map(|(s, _)| s).collect();
    let sku = if skus.len() > 1 {
        skus.join(" + ")
    } else {
        z.sku.clone()
    };
    sheet.rows.push(vec![
        text("(estate)"),
        text(sku),
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

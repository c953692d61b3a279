//! The `Pools` and `Datastores` sheets, whose cost cells are live formulas: a pool's cost
//! lines over its size, cool GiB and purchased MiB/s cells and the `Prices` cells (a share
//! of an estate's shared pool: its quota's share of the pool's hot tier on `Estate
//! pools`); a datastore's cost its size's share of its pool's cost (over the sum of the
//! pool's datastores' sizes, so the shares always add up to the pool's cost).

use std::collections::BTreeMap;

use super::cells::{
    Cell, Fmt, Sheet, boolean, cell_ref, checked, dec, exact_sum, int, local_ref, round2, rows_ref,
    text, usd,
};
use super::prices::{PriceCell, PriceCells};
use crate::plan::{Plan, PoolPlan};

/// Header of `Pools` (after the optional `cluster` column).
pub const POOLS_HEADER: [&str; 21] = [
    "pool",
    "service level",
    "QoS",
    "size TiB",
    "throughput MiB/s",
    "included MiB/s",
    "purchased MiB/s",
    "cool access",
    "cool data GiB",
    "reserved TiB",
    "reservation discount %",
    "reservation units",
    "hot capacity USD/month",
    "cool capacity USD/month",
    "cool transfer USD/month",
    "capacity USD/month",
    "throughput USD/month",
    "cost USD/month",
    "first-month cool transfer USD",
    "share GiB",
    "note",
];
/// Column of a pool's size, TiB.
pub const SIZE: usize = 3;
/// Column of a share of a shared pool, GiB.
pub const SHARE: usize = 19;
/// Column of a pool's QoS throughput, MiB/s.
pub const QOS: usize = 4;
const PURCHASED: usize = 6;
/// Column of a pool's cool data, GiB.
pub const COOL_GIB: usize = 8;
/// Column of a pool's hot tier, USD per month.
pub const HOT: usize = 12;
const COOL_CAP: usize = 13;
const TRANSFER: usize = 14;
const THROUGHPUT: usize = 16;
/// Column of a pool's cost, USD per month.
pub const COST: usize = 17;

/// Header of `Datastores` (after the optional `cluster` column).
pub const DATASTORES_HEADER: [&str; 12] = [
    "datastore",
    "pool",
    "service level",
    "size GiB",
    "QoS MiB/s",
    "predicted IOPS",
    "predicted MiB/s",
    "VMs",
    "placed GiB",
    "large volume",
    "cost USD/month",
    "note",
];
/// Column of a datastore's name.
pub const DS_NAME: usize = 0;
/// Column of a datastore's pool.
pub const DS_POOL: usize = 1;
/// Column of a datastore's size, GiB.
pub const DS_SIZE: usize = 3;
/// Column of a datastore's cost, USD per month.
pub const DS_COST: usize = 10;
/// Column of a datastore's placed capacity, GiB.
pub const DS_PLACED: usize = 8;

/// An estate's shared pools on `Estate pools`, by name: the cells a share's hot tier is
/// worked out from, and the quotas of the `Pools` rows written so far.
#[derive(Debug, Clone, Default)]
pub struct SharedPools {
    pools: BTreeMap<String, SharedPool>,
}

/// One shared pool's cells on `Estate pools`.
#[derive(Debug, Clone)]
struct SharedPool {
    /// Its hot tier, USD per month.
    hot: PriceCell,
    /// Its datastores' quotas, GiB.
    quota: PriceCell,
    /// The quotas of its shares on the `Pools` rows so far, GiB.
    upto: f64,
}

impl SharedPools {
    /// Adds pool `name`, its hot tier and quotas at `hot` and `quota` on `Estate pools`.
    pub fn add(&mut self, name: &str, hot: (String, f64), quota: (String, f64)) {
        let cell = |(at, value): (String, f64)| PriceCell { at, value };
        self.pools.insert(
            name.to_string(),
            SharedPool {
                hot: cell(hot),
                quota: cell(quota),
                upto: 0.0,
            },
        );
    }
}

/// A formula term: `ROUND(<expr>, 2)` over cells, and the same arithmetic in Rust.
struct Term {
    formula: String,
    value: f64,
}

/// `price x quantity` rounded to the cent, or 0 when the price is not in the plan.
fn priced(quantity: (&str, f64), price: Option<&PriceCell>) -> Term {
    match price {
        Some(p) => Term {
            formula: format!("ROUND({}*{},2)", quantity.0, p.at),
            value: round2(quantity.1 * p.value),
        },
        None => Term {
            formula: "0".into(),
            value: 0.0,
        },
    }
}

/// Adds `plan`'s pools to `sheet` after `lead` (a share of a pool in `shared` worked out
/// from that pool's cells); returns each pool's name and data row.
pub fn add_pools(
    sheet: &mut Sheet,
    lead: &[Cell],
    plan: &Plan,
    (prices, shared): (&PriceCells, &mut SharedPools),
) -> Vec<(String, usize)> {
    let mut rows = Vec::new();
    for p in &plan.pools {
        let r = sheet.rows.len();
        let mut row = lead.to_vec();
        let share = shared.pools.get_mut(&p.name).filter(|_| p.share_gib > 0);
        row.extend(pool_cells(lead.len(), r, p, (prices, share)));
        sheet.rows.push(row);
        rows.push((p.name.clone(), r));
    }
    rows
}

/// The cells of one pool on data row `r`, its columns starting at `o`.
fn pool_cells(
    o: usize,
    r: usize,
    p: &PoolPlan,
    (prices, shared): (&PriceCells, Option<&mut SharedPool>),
) -> Vec<Cell> {
    let at = |c: usize| local_ref(r, o + c);
    let mut notes: Vec<String> = Vec::new();
    let keep = |(cell, note): (Cell, Option<String>), notes: &mut Vec<String>| {
        notes.extend(note);
        cell
    };
    let capacity_price = prices.capacity.get(&p.service_level.to_string());
    let hot = match shared {
        Some(pool) => share_term((o, r), p, pool),
        None => hot_term(&at, p, capacity_price),
    };
    let hot_cell = if p.reserved_tib > 0 {
        notes.push("hot tier with reservation units: value, not a formula".into());
        usd(p.hot_capacity_cost_usd_per_month)
    } else {
        keep(
            checked(
                hot.formula,
                hot.value,
                p.hot_capacity_cost_usd_per_month,
                Fmt::Usd,
            ),
            &mut notes,
        )
    };
    let cool_gib = (at(COOL_GIB), p.cool_data_gib);
    let cool = priced((&cool_gib.0, cool_gib.1), prices.cool_capacity.as_ref());
    let transfer = transfer_term(&cool_gib, prices);
    let tp = priced(
        (&at(PURCHASED), p.purchased_throughput_mibps),
        prices.throughput.as_ref(),
    );
    let first = priced((&cool_gib.0, cool_gib.1), prices.cool_transfer.as_ref());
    let lines = [
        p.hot_capacity_cost_usd_per_month,
        p.cool_capacity_cost_usd_per_month,
    ];
    let capacity = checked(
        format!("ROUND({}+{},2)", at(HOT), at(COOL_CAP)),
        round2(lines[0] + lines[1]),
        p.capacity_cost_usd_per_month,
        Fmt::Usd,
    );
    let total = round2(
        lines[0] + lines[1] + p.cool_transfer_cost_usd_per_month + p.throughput_cost_usd_per_month,
    );
    let cost = checked(
        format!(
            "ROUND({}+{}+{}+{},2)",
            at(HOT),
            at(COOL_CAP),
            at(TRANSFER),
            at(THROUGHPUT)
        ),
        total,
        p.cost_usd_per_month,
        Fmt::Usd,
    );
    let mut cells = vec![
        text(p.name.clone()),
        text(p.service_level.to_string()),
        text(p.qos.clone()),
        int(p.size_tib),
        dec(p.throughput_mibps),
        dec(p.included_throughput_mibps),
        dec(p.purchased_throughput_mibps),
        boolean(p.cool_access),
        int(p.cool_data_gib),
        int(p.reserved_tib),
        dec(p.reservation_discount_pct),
        text(units_text(p)),
        hot_cell,
        keep(
            checked(
                cool.formula,
                cool.value,
                p.cool_capacity_cost_usd_per_month,
                Fmt::Usd,
            ),
            &mut notes,
        ),
        keep(
            checked(
                transfer.formula,
                transfer.value,
                p.cool_transfer_cost_usd_per_month,
                Fmt::Usd,
            ),
            &mut notes,
        ),
        keep(capacity, &mut notes),
        keep(
            checked(
                tp.formula,
                tp.value,
                p.throughput_cost_usd_per_month,
                Fmt::Usd,
            ),
            &mut notes,
        ),
        keep(cost, &mut notes),
        keep(
            checked(
                first.formula,
                first.value,
                p.first_month_cool_transfer_usd,
                Fmt::Usd,
            ),
            &mut notes,
        ),
        int(p.share_gib),
    ];
    cells.push(text(notes.join("; ")));
    cells
}

/// Hot tier pay as you go: `ROUND(MAX(0, size TiB x 1024 - cool GiB) x price, 2)`.
fn hot_term(at: &dyn Fn(usize) -> String, p: &PoolPlan, price: Option<&PriceCell>) -> Term {
    let hot_gib = (f64::from(p.size_tib) * 1024.0 - p.cool_data_gib).max(0.0);
    match price {
        Some(price) => Term {
            formula: format!(
                "ROUND(MAX(0,{}*1024-{})*{},2)",
                at(SIZE),
                at(COOL_GIB),
                price.at
            ),
            value: round2(hot_gib * price.value),
        },
        None => Term {
            formula: "0".into(),
            value: 0.0,
        },
    }
}

/// A share's hot tier: its quota's share of its shared pool's hot tier, to the cent in
/// row order, as `optimize/estate/pools.rs` allocates it: `ROUND(hot x C / Q, 2) -
/// ROUND(hot x (C - share) / Q, 2)`, `C` the shares on the `Pools` rows up to this one (the
/// cluster's order) whose pool name equals this row's exactly ([`exact_sum`]), `Q` its
/// quotas (both on `Estate pools`).
fn share_term((o, r): (usize, usize), p: &PoolPlan, pool: &mut SharedPool) -> Term {
    let upto = exact_sum(
        &rows_ref(o, (0, r + 1)),
        &local_ref(r, o),
        &rows_ref(o + SHARE, (0, r + 1)),
    );
    let share = local_ref(r, o + SHARE);
    let (hot, quota) = (&pool.hot, &pool.quota);
    pool.upto += f64::from(p.share_gib);
    let (c, t) = (pool.upto, f64::from(p.share_gib));
    Term {
        formula: format!(
            "ROUND({h}*{upto}/{q},2)-ROUND({h}*({upto}-{share})/{q},2)",
            h = hot.at,
            q = quota.at
        ),
        value: round2(hot.value * c / quota.value) - round2(hot.value * (c - t) / quota.value),
    }
}

/// Cool transfer a month: `ROUND(cool GiB x retrieval % / 100 x transfer price, 2)`.
fn transfer_term(cool_gib: &(String, f64), prices: &PriceCells) -> Term {
    match (&prices.cool_transfer, &prices.retrieval_pct) {
        (Some(t), Some(pct)) => Term {
            formula: format!("ROUND({}*{}/100*{},2)", cool_gib.0, pct.at, t.at),
            value: round2(cool_gib.1 * pct.value / 100.0 * t.value),
        },
        _ => Term {
            formula: "0".into(),
            value: 0.0,
        },
    }
}

/// `2 x 100 TiB at 30%`, or empty for pay as you go.
fn units_text(p: &PoolPlan) -> String {
    p.reservation_units
        .iter()
        .map(|u| format!("{} x {} TiB at {}%", u.count, u.unit_tib, u.discount_pct))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a datastore's cost is, on the `Datastores` cost header.
pub const DS_COST_NOTE: &str = "A datastore's share of its pool's cost: the pool's cost x the \
datastore's size / the sum of the sizes of that pool's datastores (of the same cluster). \
The shares add up to the pool's cost (to the cent) whatever the pool's size.";

/// `ROUND(pool cost x size GiB / sum of the pool's datastores' sizes, 2)` on data row `r`,
/// the datastores' columns starting at `o`; the sizes are summed over the plan's own
/// datastore rows (`block`: first data row and rows) whose pool equals this row's exactly
/// ([`exact_sum`]), so no other cluster's rows and no look-alike pool name count.
fn share_formula(o: usize, r: usize, block: (usize, usize), pool_cost: &str) -> String {
    let sizes = exact_sum(
        &rows_ref(o + DS_POOL, block),
        &local_ref(r, o + DS_POOL),
        &rows_ref(o + DS_SIZE, block),
    );
    format!("ROUND({pool_cost}*{}/{sizes},2)", local_ref(r, o + DS_SIZE))
}

/// Adds `plan`'s datastores to `sheet` after `lead`; each cost is its share of its pool's
/// cost ([`DS_COST_NOTE`], [`share_formula`]) over its pool's row on `pools`.
pub fn add_datastores(sheet: &mut Sheet, lead: &[Cell], plan: &Plan, pools: &[(String, usize)]) {
    let o = lead.len();
    if sheet.notes.is_empty() {
        sheet.notes.push((o + DS_COST, DS_COST_NOTE.into()));
    }
    let block = (sheet.rows.len(), plan.datastores.len());
    for d in &plan.datastores {
        let r = sheet.rows.len();
        let pool = plan.pools.iter().find(|p| p.name == d.pool);
        let pool_row = pools.iter().find(|(n, _)| *n == d.pool).map(|(_, r)| *r);
        let sizes: f64 = plan
            .datastores
            .iter()
            .filter(|x| x.pool == d.pool)
            .map(|x| x.size_gib)
            .sum();
        let (cost, note) = match (pool, pool_row) {
            (Some(p), Some(pr)) if sizes > 0.0 => checked(
                share_formula(o, r, block, &cell_ref("Pools", pr, o + COST)),
                round2(p.cost_usd_per_month * d.size_gib / sizes),
                d.cost_usd_per_month,
                Fmt::Usd,
            ),
            _ => (
                usd(d.cost_usd_per_month),
                Some("pool not in this plan".into()),
            ),
        };
        let mut row = lead.to_vec();
        row.extend([
            text(d.name.clone()),
            text(d.pool.clone()),
            text(d.service_level.to_string()),
            int(d.size_gib),
            dec(d.throughput_mibps),
            int(d.predicted_iops),
            dec(d.predicted_throughput_mibps),
            super::cells::count(d.vm_count),
            int(d.placed_capacity_gib),
            boolean(d.large_volume),
            cost,
            text(note.unwrap_or_default()),
        ]);
        sheet.rows.push(row);
    }
}

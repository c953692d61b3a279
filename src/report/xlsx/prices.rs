//! The `Prices` sheet (every price row the plan uses, and the cool retrieval share its
//! transfer line rests on) and the cells the cost formulas point at.

use std::collections::BTreeMap;

use super::cells::{Cell, Sheet, cell_ref, dec, num, text};
use crate::plan::Plan;

/// Header of the `Prices` sheet (after the optional `cluster` column).
pub const HEADER: [&str; 7] = [
    "region",
    "tier",
    "meter",
    "unit price USD",
    "unit",
    "effective date",
    "source",
];
/// Column of the price, without the `cluster` column.
const PRICE_COL: usize = 3;

/// A price cell: its absolute reference and its value.
#[derive(Debug, Clone)]
pub struct PriceCell {
    /// `'Prices'!$E$2`.
    pub at: String,
    /// The price (or the retrieval percent).
    pub value: f64,
}

/// The price cells of one plan, by what they price.
#[derive(Debug, Clone, Default)]
pub struct PriceCells {
    /// Capacity, USD per GiB-month, by tier (`premium` ...).
    pub capacity: BTreeMap<String, PriceCell>,
    /// Flexible purchased throughput, USD per MiB/s-month.
    pub throughput: Option<PriceCell>,
    /// Cool-tier capacity, USD per GiB-month.
    pub cool_capacity: Option<PriceCell>,
    /// Cool-tier transfer, USD per GiB.
    pub cool_transfer: Option<PriceCell>,
    /// Percent of the cold data moved between tiers per month (`cool_retrieval_pct`).
    pub retrieval_pct: Option<PriceCell>,
}

/// Adds `plan`'s price rows to `sheet` (after the `lead` cells) and returns their cells.
/// With cool access, a last row holds `cool_retrieval_pct` (from the plan's assumptions),
/// which the transfer formulas multiply by.
pub fn add_prices(sheet: &mut Sheet, lead: &[Cell], plan: &Plan) -> PriceCells {
    let o = lead.len();
    let mut cells = PriceCells::default();
    for p in &plan.prices {
        let at = cell_ref(sheet.name, sheet.rows.len(), o + PRICE_COL);
        let cell = PriceCell {
            at,
            value: p.price_usd,
        };
        match (p.tier.as_str(), p.meter.as_str()) {
            ("cool", "capacity") => cells.cool_capacity = Some(cell),
            ("cool", "transfer") => cells.cool_transfer = Some(cell),
            (_, "throughput") => cells.throughput = Some(cell),
            (tier, _) => {
                cells.capacity.insert(tier.to_string(), cell);
            }
        }
        let mut row = lead.to_vec();
        row.extend([
            text(p.region.clone()),
            text(p.tier.clone()),
            text(p.meter.clone()),
            num(p.price_usd),
            text(p.unit.clone()),
            text(p.effective_start.clone()),
            text(p.source.clone()),
        ]);
        sheet.rows.push(row);
    }
    if cells.cool_transfer.is_some()
        && let Some(pct) = retrieval_pct(plan)
    {
        cells.retrieval_pct = Some(PriceCell {
            at: cell_ref(sheet.name, sheet.rows.len(), o + PRICE_COL),
            value: pct,
        });
        let mut row = lead.to_vec();
        row.extend([
            text(plan.region.clone()),
            text("cool"),
            text("retrieval"),
            dec(pct),
            text("percent of the cold GiB moved between tiers per month"),
            text(""),
            text("assumption `cool_retrieval_pct`"),
        ]);
        sheet.rows.push(row);
    }
    cells
}

/// The plan's `cool_retrieval_pct` assumption as a number.
fn retrieval_pct(plan: &Plan) -> Option<f64> {
    plan.assumptions
        .iter()
        .find(|a| a.name == "cool_retrieval_pct")
        .and_then(|a| a.value.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

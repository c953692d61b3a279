//! The price rows a plan's costs rest on ([`PriceUsed`]), for the workbook's `Prices` sheet
//! and its cost formulas.

use crate::catalog::{RegionPrices, ServiceLevel};
use crate::plan::{Plan, PriceUsed};

/// The prices `plan` uses, from its region's `prices`: the capacity price of each service
/// level of its pools and time phases (in catalog order), the Flexible throughput price
/// when a Flexible pool buys or could buy throughput, and the cool-tier capacity and
/// transfer prices when a pool has cool access. Monthly figures are the hourly prices x
/// `hours_per_month` (as [`RegionPrices`] holds them).
pub(super) fn prices_used(prices: &RegionPrices, plan: &Plan) -> Vec<PriceUsed> {
    let mut levels: Vec<ServiceLevel> = plan.pools.iter().map(|p| p.service_level).collect();
    if let Some(t) = &plan.time_phased {
        levels.extend([t.base.service_level, t.peak.service_level]);
    }
    levels.sort();
    levels.dedup();
    let row =
        |tier: String, meter: &str, unit: &str, price: f64, date: Option<&String>| PriceUsed {
            region: prices.region.clone(),
            tier,
            meter: meter.into(),
            unit: unit.into(),
            price_usd: price,
            effective_start: date.cloned().unwrap_or_default(),
            source: prices.source.clone(),
        };
    let mut out = Vec::new();
    for level in &levels {
        if let Some(p) = prices.capacity_usd_per_gib_month.get(level) {
            let date = prices.capacity_effective_start.get(level);
            out.push(row(
                level.to_string(),
                "capacity",
                "USD per GiB-month",
                *p,
                date,
            ));
        }
    }
    if levels.contains(&ServiceLevel::Flexible)
        && let Some(p) = prices.flexible_throughput_usd_per_mibps_month
    {
        let date = prices.flexible_throughput_effective_start.as_ref();
        let tier = ServiceLevel::Flexible.to_string();
        out.push(row(tier, "throughput", "USD per MiB/s-month", p, date));
    }
    if plan.pools.iter().any(|p| p.cool_access) {
        if let Some(p) = prices.cool_capacity_usd_per_gib_month {
            let date = prices.cool_capacity_effective_start.as_ref();
            out.push(row("cool".into(), "capacity", "USD per GiB-month", p, date));
        }
        if let Some(p) = prices.cool_transfer_usd_per_gib {
            let date = prices.cool_transfer_effective_start.as_ref();
            out.push(row("cool".into(), "transfer", "USD per GiB", p, date));
        }
    }
    out
}

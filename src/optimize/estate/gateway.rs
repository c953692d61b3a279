//! The ExpressRoute virtual network gateway ANF datastores need ([`gateway_line`],
//! [`gateways`]): UltraPerformance or ErGw3Az with FastPath, up to 4 private clouds of one
//! peering location per gateway, 1,365.10 USD per month each (`data/er_gateway.csv`, with
//! its sources; the price is not regional). A design that puts any data on ANF buys
//! `ceil(private clouds with ANF datastores / 4)` gateways, less those the customer
//! already has (`existing_er_gateways`).

use serde::Deserialize;

use crate::optimize::OptimizeError;
use crate::optimize::milp::round_cents;
use crate::plan::GatewayLine;

/// `data/er_gateway.csv`, compiled in.
pub const ER_GATEWAY_CSV: &str = include_str!("../../../data/er_gateway.csv");

/// A row of `data/er_gateway.csv`.
#[derive(Deserialize)]
struct Row {
    sku: String,
    usd_per_month: f64,
    private_clouds_per_gateway: u32,
    source: String,
}

/// The gateway of `data/er_gateway.csv`, with `existing` gateways the customer has.
///
/// # Errors
/// [`OptimizeError::Solver`] when the compiled-in file is malformed (a build defect).
pub(super) fn gateway_line(existing: u32) -> Result<GatewayLine, OptimizeError> {
    let bad = |detail: String| OptimizeError::Solver(format!("data/er_gateway.csv: {detail}"));
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(ER_GATEWAY_CSV.as_bytes());
    let row: Row = rdr
        .deserialize()
        .next()
        .ok_or_else(|| bad("no row".into()))?
        .map_err(|e| bad(e.to_string()))?;
    if !(row.usd_per_month.is_finite() && row.usd_per_month >= 0.0)
        || row.private_clouds_per_gateway == 0
    {
        return Err(bad(format!(
            "price {} or private clouds per gateway {}",
            row.usd_per_month, row.private_clouds_per_gateway
        )));
    }
    Ok(GatewayLine {
        sku: row.sku,
        usd_per_month: row.usd_per_month,
        private_clouds_per_gateway: row.private_clouds_per_gateway,
        existing,
        source: row.source,
    })
}

/// Gateways bought for `private_clouds` private clouds with ANF datastores, and their
/// cost, USD per month: `max(0, ceil(private clouds / per gateway) - existing)` x price.
pub(super) fn gateways(line: &GatewayLine, private_clouds: u32) -> (u32, f64) {
    let needed = private_clouds.div_ceil(line.private_clouds_per_gateway.max(1));
    let bought = needed.saturating_sub(line.existing);
    (bought, round_cents(f64::from(bought) * line.usd_per_month))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_gateway_per_four_private_clouds_less_those_owned() {
        let line = gateway_line(0).unwrap();
        assert_eq!(line.usd_per_month, 1365.10);
        assert_eq!(line.private_clouds_per_gateway, 4);
        assert!(line.source.contains("1c6dbe0") && line.source.contains("ErGw3Az"));
        // None without ANF; 1..4 private clouds: 1; 5: ceil(5 / 4) = 2 = 2,730.20 USD.
        assert_eq!(gateways(&line, 0), (0, 0.0));
        assert_eq!(gateways(&line, 4), (1, 1365.10));
        assert_eq!(gateways(&line, 5), (2, 2730.20));
        // One already there: 2 - 1 = 1 bought; more owned than needed: none.
        let owned = gateway_line(1).unwrap();
        assert_eq!(gateways(&owned, 5), (1, 1365.10));
        assert_eq!(gateways(&gateway_line(3).unwrap(), 5), (0, 0.0));
    }
}

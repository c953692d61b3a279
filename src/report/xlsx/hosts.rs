//! The estate workbook's `Hosts` sheet: the estate's hosts by SKU (an AV64 estate in a Gen 1
//! private cloud has its first clusters' of AV36, AV36P or AV52 too), each with its price
//! per host-hour, the hours of a month (`data/limits.csv`), its monthly cost
//! `ROUND(hosts x USD/hour x hours, 2)` and what one host offers VMs. `Estate`'s hosts, host
//! price and hosts' monthly cost are formulas over it ([`EstateHosts`]), so a price edited
//! here moves the month, the year and the savings.

use super::cells::{Cell, Fmt, Sheet, cell_ref, checked, column_ref, dec, int, local_ref, num};
use super::cells::{opt, round2, text, usd};
use crate::plan::{EstatePlan, EstateSummary, SkuHosts};
use crate::report::model::estate::per_host;

/// The sheet's name.
pub const SHEET: &str = "Hosts";
/// Its columns: hosts, price, hours, monthly cost.
const HOSTS: usize = 1;
const PRICE: usize = 2;
const HOURS: usize = 3;

/// `Estate`'s cells over the `Hosts` sheet: the hosts (their sum), the estate's SKU's price
/// (its row's) and the hosts' monthly cost (every SKU's hosts x price x hours, rounded to
/// the cent once, as the plan adds them).
pub struct EstateHosts {
    /// `hosts`.
    pub hosts: Cell,
    /// `host USD/hour`.
    pub price: Cell,
    /// `hosts USD/month`.
    pub cost: Cell,
}

/// Hours in a billing month as the plan prices hosts (`hours_per_month` of
/// `data/limits.csv`, 730), `None` if the compiled-in table has no such row.
fn hours_per_month() -> Option<f64> {
    crate::catalog::LIMITS_CSV.lines().find_map(|line| {
        let mut fields = line.split(',');
        (fields.next()? == "hours_per_month")
            .then(|| fields.next()?.trim().parse::<f64>().ok())
            .flatten()
            .filter(|h| h.is_finite() && *h > 0.0)
    })
}

/// The estate's hosts by SKU: `hosts_by_sku`, or for a plan written before it, the
/// estate's SKU with every host.
fn sku_rows(s: &EstateSummary) -> Vec<SkuHosts> {
    if s.hosts_by_sku.is_empty() {
        return vec![SkuHosts {
            sku: s.sku.clone(),
            hosts: s.hosts,
            usd_per_hour: s.host_usd_per_hour,
            usd_per_month: s.hosts_usd_per_month,
        }];
    }
    s.hosts_by_sku.clone()
}

/// The `Hosts` sheet and `Estate`'s cells over it.
pub fn hosts_sheet(plan: &EstatePlan) -> (Sheet, EstateHosts) {
    let s = &plan.summary;
    let rows = sku_rows(s);
    let hours = hours_per_month();
    let mut sheet = Sheet::new(
        SHEET,
        &[
            "SKU",
            "hosts",
            "host USD/hour",
            "hours per month",
            "USD/month",
            "vCPUs per host",
            "memory GiB per host",
        ],
    );
    for (r, h) in rows.iter().enumerate() {
        let cost = match (h.usd_per_hour, hours, h.usd_per_month) {
            (Some(p), Some(hours), Some(json)) => {
                let formula = format!(
                    "ROUND({}*{}*{},2)",
                    local_ref(r, HOSTS),
                    local_ref(r, PRICE),
                    local_ref(r, HOURS)
                );
                checked(
                    formula,
                    round2(f64::from(h.hosts) * p * hours),
                    json,
                    Fmt::Usd,
                )
                .0
            }
            (_, _, json) => opt(json, usd),
        };
        let offers = per_host(plan, &h.sku);
        sheet.rows.push(vec![
            text(h.sku.clone()),
            int(h.hosts),
            opt(h.usd_per_hour, num),
            opt(hours, num),
            cost,
            opt(offers.map(|o| o.0), dec),
            opt(offers.map(|o| o.1), dec),
        ]);
    }
    let at = |r: usize, c: usize| cell_ref(SHEET, r, c);
    let hosts = checked(
        format!("SUM({})", column_ref(SHEET, HOSTS, rows.len())),
        rows.iter().map(|h| f64::from(h.hosts)).sum(),
        f64::from(s.hosts),
        Fmt::Int,
    )
    .0;
    let price = match (rows.first(), s.host_usd_per_hour) {
        (Some(first), Some(json)) if first.sku == s.sku => match first.usd_per_hour {
            Some(p) => checked(at(0, PRICE), p, json, Fmt::Usd).0,
            None => usd(json),
        },
        (_, json) => opt(json, usd),
    };
    // Every SKU's hosts x price x hours added, then rounded once: the plan's arithmetic.
    let products: Option<(Vec<String>, f64)> =
        rows.iter()
            .enumerate()
            .try_fold((Vec::new(), 0.0), |(mut terms, sum), (r, h)| {
                let p = h.usd_per_hour?;
                terms.push(format!(
                    "{}*{}*{}",
                    at(r, HOSTS),
                    at(r, PRICE),
                    at(r, HOURS)
                ));
                Some((terms, sum + f64::from(h.hosts) * p * hours?))
            });
    let cost = match (products, s.hosts_usd_per_month) {
        (Some((terms, sum)), Some(json)) if !terms.is_empty() => {
            checked(
                format!("ROUND({},2)", terms.join("+")),
                round2(sum),
                json,
                Fmt::Usd,
            )
            .0
        }
        (_, json) => opt(json, usd),
    };
    (sheet, EstateHosts { hosts, price, cost })
}

#[cfg(test)]
mod tests {
    use super::hours_per_month;

    #[test]
    fn a_month_is_730_hours() {
        // data/limits.csv: hours_per_month,730 (monthly = hourly x 730).
        assert_eq!(hours_per_month(), Some(730.0));
    }
}

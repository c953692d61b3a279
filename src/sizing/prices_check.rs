//! Whether a host price file's price is plausible ([`HostPrices::implausible`]): within
//! [`PLAUSIBLE_FACTOR`] of the public pay-as-you-go price of the same SKU in the plan's
//! region (`data/avs_host_prices.csv`), else of the same SKU's public prices elsewhere.

use super::SizingError;
use super::prices::{HostPrice, HostPrices, host_price_table};
use crate::numbers::group_thousands;
use crate::vsan::VsanCatalog;

/// How far a host price file's price may stray from the public price of its SKU before it
/// is warned of, as a factor either way: 4 lets a 3-year reservation (the ANF team's AVS
/// TCO estimator applies at most 50 %, Azure/azure-netapp-files `docs/avs-calc`,
/// 2025-06-04) and a negotiated discount pass with room, while a price per minute
/// (1/60) or per month (x 730) falls far outside.
pub const PLAUSIBLE_FACTOR: f64 = 4.0;

impl HostPrices {
    /// A warning's words when `p`, a host price file's row, is outside
    /// 1/[`PLAUSIBLE_FACTOR`]..[`PLAUSIBLE_FACTOR`] x the public pay-as-you-go price of its
    /// SKU in the plan's region (else the range of that SKU's public prices in the other
    /// regions), naming both prices; or saying no comparison was possible when the SKU has
    /// no public price anywhere. `None` for a plausible price and for a built-in row.
    ///
    /// # Errors
    /// [`SizingError::Data`] if the compiled-in table is malformed (a build defect).
    pub fn implausible(
        &self,
        p: &HostPrice,
        catalog: &VsanCatalog,
    ) -> Result<Option<String>, SizingError> {
        if p.source.starts_with("data/avs_host_prices.csv") {
            return Ok(None);
        }
        let table = host_price_table(catalog)?;
        let public: Vec<&HostPrice> = table
            .iter()
            .map(|(_, t)| t)
            .filter(|t| t.sku == p.sku)
            .collect();
        let usd = |v: f64| group_thousands(v, 2);
        let given = format!(
            "the {} {} host price of {} USD per host-hour ({})",
            p.sku,
            p.term,
            usd(p.usd_per_hour),
            p.source
        );
        if let Some(own) = public.iter().find(|t| t.region == self.region) {
            let ratio = p.usd_per_hour / own.usd_per_hour;
            return Ok(outside(ratio).then(|| {
                format!(
                    "{given} is {} the {} pay-as-you-go price of {} USD per host-hour ({}): \
                     check its units (USD per host-hour) and figure",
                    times(ratio),
                    self.region_name,
                    usd(own.usd_per_hour),
                    own.source
                )
            }));
        }
        let (low, high) = public.iter().fold((f64::INFINITY, 0.0_f64), |(l, h), t| {
            (l.min(t.usd_per_hour), h.max(t.usd_per_hour))
        });
        if public.is_empty() {
            return Ok(Some(format!(
                "{given} cannot be checked: no public price for {} in any region \
                 (data/avs_host_prices.csv)",
                p.sku
            )));
        }
        let ratio = if p.usd_per_hour < low {
            p.usd_per_hour / low
        } else {
            p.usd_per_hour / high
        };
        Ok(
            (outside(ratio) && !(low..=high).contains(&p.usd_per_hour)).then(|| {
                format!(
                    "{given} is {} its public pay-as-you-go prices in other regions ({} to {} \
                     USD per host-hour, data/avs_host_prices.csv; none in {}): check its \
                     units (USD per host-hour) and figure",
                    times(ratio),
                    usd(low),
                    usd(high),
                    self.region_name
                )
            }),
        )
    }
}

/// Whether `ratio` (given over public) is beyond [`PLAUSIBLE_FACTOR`] either way.
fn outside(ratio: f64) -> bool {
    !(1.0 / PLAUSIBLE_FACTOR..=PLAUSIBLE_FACTOR).contains(&ratio)
}

/// `ratio` in words: `0.05x` or `108.70x`.
fn times(ratio: f64) -> String {
    format!("{}x", group_thousands(ratio, 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::HostTerm;

    fn catalog() -> VsanCatalog {
        VsanCatalog::builtin().unwrap()
    }

    fn check(region: &str, row: &str) -> Option<String> {
        let c = catalog();
        let prices = HostPrices::builtin(region, &c)
            .unwrap()
            .with_text(
                &format!("sku,term,usd_per_hour,region,source\n{row}\n"),
                "hosts.csv",
                &c,
            )
            .unwrap();
        let sku = row.split(',').next().unwrap();
        let term: HostTerm = row.split(',').nth(1).unwrap().parse().unwrap();
        let p = prices.price(sku, term).unwrap();
        prices.implausible(p, &c).unwrap()
    }

    #[test]
    fn a_price_beyond_4x_of_the_regions_public_price_is_named_with_it() {
        // East US AV36P pay as you go is 9.20 USD per host-hour (data/avs_host_prices.csv).
        // 0.5 / 9.20 = 0.054 -> 0.05x; 1,000 / 9.20 = 108.70x.
        let w = check("eastus", "av36p,payg,0.5,eastus,quote").unwrap();
        assert!(
            w.contains("of 0.50 USD per host-hour (hosts.csv row 2: quote)"),
            "{w}"
        );
        assert!(
            w.contains("is 0.05x the East US pay-as-you-go price of 9.20"),
            "{w}"
        );
        let w = check("eastus", "av36p,payg,1000,eastus,q").unwrap();
        assert!(w.contains("is 108.70x the East US"), "{w}");
        // A 3-year price at half (4.60) and the bounds 9.20 / 4 = 2.30 and 9.20 x 4 = 36.80
        // pass; just beyond them does not.
        for ok in ["4.6", "2.3", "36.8"] {
            assert_eq!(check("eastus", &format!("av36p,3y,{ok},eastus,q")), None);
        }
        for bad in ["2.29", "36.81"] {
            assert!(check("eastus", &format!("av36p,3y,{bad},eastus,q")).is_some());
        }
    }

    #[test]
    fn without_a_public_price_in_the_region_the_skus_other_prices_or_none_are_compared() {
        // AV52 has public prices in 5 regions, none in East US: a price far below the
        // lowest (18.139; 0.5 / 18.139 = 0.03x) is named with their range; 15 (0.83x) is not.
        let w = check("eastus", "av52,payg,0.5,,q").unwrap();
        assert!(
            w.contains("public pay-as-you-go prices in other regions"),
            "{w}"
        );
        assert!(w.contains("none in East US"), "{w}");
        assert_eq!(check("eastus", "av52,payg,15,,q"), None);
        // AV48 has no public price anywhere: said so.
        let w = check("eastus", "av48,payg,10,,q").unwrap();
        assert!(
            w.contains("cannot be checked: no public price for av48"),
            "{w}"
        );
    }
}

//! One AVS host's price ([`HostPrice`]) and how hosts are bought ([`HostTerm`]), with the
//! range a price must fall in: the types the built-in table (`prices.rs`) and a user's host
//! price file (`price_file.rs`) share.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::SizingError;

/// Highest host price accepted, USD per host-hour. AVS list prices are 8 to 25 USD per
/// host-hour (`data/avs_host_prices.csv`: West US 2 AV36 8.36 to Switzerland West AV64
/// 24.58); 1,000 is no real price but a typo or another unit (a month's or a year's
/// price), and it keeps every monthly total far below the range where USD figures lose
/// their cents.
pub const MAX_USD_PER_HOST_HOUR: f64 = 1_000.0;

/// Lowest host price accepted, USD per host-hour. AVS list prices are 8.36 to 24.58
/// (`data/avs_host_prices.csv`), and the deepest reserved-term discount the ANF team's AVS
/// TCO estimator applies is 50 % (Azure/azure-netapp-files `docs/avs-calc`, 2025-06-04:
/// 43 % for 1 year, 50 % for 3 and 5), so no real price is much under 4; 0.5 leaves a
/// factor of 8 below that. It refuses 0 and -0 (hosts for free, a plan without their
/// cost) and a price per minute or second.
pub const MIN_USD_PER_HOST_HOUR: f64 = 0.5;

/// How AVS hosts are bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub enum HostTerm {
    /// Pay as you go.
    #[default]
    #[serde(rename = "payg")]
    PayAsYouGo,
    /// One-year reserved instance.
    #[serde(rename = "1y")]
    OneYear,
    /// Three-year reserved instance.
    #[serde(rename = "3y")]
    ThreeYear,
    /// Five-year reserved instance.
    #[serde(rename = "5y")]
    FiveYear,
}

impl fmt::Display for HostTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostTerm::PayAsYouGo => "payg",
            HostTerm::OneYear => "1y",
            HostTerm::ThreeYear => "3y",
            HostTerm::FiveYear => "5y",
        })
    }
}

impl HostTerm {
    /// The term in words (`pay-as-you-go`, `3-year reserved`).
    pub fn words(self) -> &'static str {
        match self {
            HostTerm::PayAsYouGo => "pay-as-you-go",
            HostTerm::OneYear => "1-year reserved",
            HostTerm::ThreeYear => "3-year reserved",
            HostTerm::FiveYear => "5-year reserved",
        }
    }
}

impl FromStr for HostTerm {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "payg" | "pay-as-you-go" => Ok(HostTerm::PayAsYouGo),
            "1y" => Ok(HostTerm::OneYear),
            "3y" => Ok(HostTerm::ThreeYear),
            "5y" => Ok(HostTerm::FiveYear),
            _ => Err(SizingError::Invalid {
                option: "host_term",
                value: s.to_string(),
                expected: "payg, 1y, 3y or 5y".into(),
            }),
        }
    }
}

/// The price of one AVS host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostPrice {
    /// Host SKU (`av36p`).
    pub sku: String,
    /// How it is bought.
    pub term: HostTerm,
    /// USD per host-hour (monthly = x 730).
    pub usd_per_hour: f64,
    /// Region of the price: an ARM name for the built-in rows, the file's text for a host
    /// price file's (empty when it names none).
    pub region: String,
    /// Where the figure comes from: `data/avs_host_prices.csv row N: ...`, or the host
    /// price file, its row and its `source` text.
    pub source: String,
}

//! AVS host prices: the pay-as-you-go figures of `data/avs_hosts.csv` (where a public figure
//! exists) and a user's host price file, by SKU and term.
//!
//! A host price file is a CSV with the columns `sku,term,usd_per_hour,region,source`
//! (`term`: `payg`, `1y`, `3y` or `5y`; a reserved term's hourly figure is its effective
//! price per host-hour). Its rows replace the built-in ones of the same SKU and term.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::SizingError;
use crate::vsan::VsanCatalog;

/// Largest host price file read, bytes (a price list is a few kB).
const MAX_PRICE_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// How AVS hosts are bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
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
    /// Region of the price (ARM name).
    pub region: String,
    /// Where the figure comes from.
    pub source: String,
}

/// Host prices by SKU and term.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HostPrices {
    /// The rows, built-in first, then a price file's (which win).
    pub rows: Vec<HostPrice>,
}

/// A row of a host price file.
#[derive(Deserialize)]
struct Row {
    sku: String,
    term: String,
    usd_per_hour: f64,
    region: String,
    source: String,
}

impl HostPrices {
    /// The pay-as-you-go prices of `data/avs_hosts.csv` (SKUs without a public figure have
    /// none).
    pub fn builtin(catalog: &VsanCatalog) -> HostPrices {
        let rows = catalog
            .hosts
            .iter()
            .filter_map(|h| {
                Some(HostPrice {
                    sku: h.sku.clone(),
                    term: HostTerm::PayAsYouGo,
                    usd_per_hour: h.usd_per_hour?,
                    region: h.price_region.clone().unwrap_or_default(),
                    source: format!("data/avs_hosts.csv: {}", h.source),
                })
            })
            .collect();
        HostPrices { rows }
    }

    /// Adds the rows of a host price file (they replace built-in rows of the same SKU and
    /// term).
    ///
    /// # Errors
    /// [`SizingError::PriceFile`] naming the file and row: unreadable, too large, a
    /// missing column, an unknown SKU or term, a negative or non-finite price, or a
    /// SKU and term given twice.
    pub fn with_file(
        mut self,
        path: &Path,
        catalog: &VsanCatalog,
    ) -> Result<HostPrices, SizingError> {
        let file = path.display().to_string();
        let err = |row: usize, detail: String| SizingError::PriceFile {
            file: file.clone(),
            row,
            detail,
        };
        let len = std::fs::metadata(path)
            .map_err(|e| err(0, format!("`host_price_file` cannot be read: {e}")))?
            .len();
        if len > MAX_PRICE_FILE_BYTES {
            return Err(err(0, format!("{len} bytes, more than a price list holds")));
        }
        let mut rdr = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_path(path)
            .map_err(|e| err(0, format!("`host_price_file` cannot be read: {e}")))?;
        let mut added: Vec<HostPrice> = Vec::new();
        for (i, rec) in rdr.deserialize::<Row>().enumerate() {
            let row = i + 2;
            let r = rec.map_err(|e| {
                err(
                    row,
                    format!("{e} (columns: sku,term,usd_per_hour,region,source)"),
                )
            })?;
            let sku = r.sku.to_ascii_lowercase();
            if !catalog.hosts.iter().any(|h| h.sku == sku) {
                return Err(err(row, format!("unknown host SKU '{}'", r.sku)));
            }
            let term: HostTerm = r
                .term
                .parse()
                .map_err(|e: SizingError| err(row, e.to_string()))?;
            if !(r.usd_per_hour.is_finite() && r.usd_per_hour >= 0.0) {
                return Err(err(
                    row,
                    format!("price {} is not a USD figure >= 0", r.usd_per_hour),
                ));
            }
            if added.iter().any(|p| p.sku == sku && p.term == term) {
                return Err(err(row, format!("{sku} {term} is given twice")));
            }
            added.push(HostPrice {
                sku,
                term,
                usd_per_hour: r.usd_per_hour,
                region: r.region,
                source: format!("{file} row {row}: {}", r.source),
            });
        }
        self.rows
            .retain(|b| !added.iter().any(|a| a.sku == b.sku && a.term == b.term));
        self.rows.extend(added);
        Ok(self)
    }

    /// The price of `sku` bought on `term`, if known.
    pub fn price(&self, sku: &str, term: HostTerm) -> Option<&HostPrice> {
        self.rows.iter().find(|p| p.sku == sku && p.term == term)
    }
}

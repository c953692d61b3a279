//! AVS host prices for the plan's region ([`HostPrices`]): the built-in pay-as-you-go list
//! prices of `data/avs_host_prices.csv` and a user's host price file
//! ([`super::price_file`]), by SKU and term, and the words a plan uses for them.
//!
//! The built-in table is the pay-as-you-go USD per host-hour table of the ANF team's AVS +
//! ANF TCO estimator v6.1 (Azure/azure-netapp-files `docs/avs-calc/index.js`, commit
//! 1c6dbe0, 2025-06-04): 65 rows in 34 regions (AV36 in 20, AV36P in 24, AV52 in 5, AV64 in
//! 16; none for AV48 or AV64 Gen 2), list prices as of that commit, region names turned
//! into ARM names. A SKU without a row in the plan's region has no built-in price: never
//! another region's. Reserved terms have none either: Microsoft's reserved-instance page
//! (learn.microsoft.com/azure/azure-vmware/reserved-instance, 2024-04-04) lists one- and
//! three-year terms and gives no price or discount (the estimator's 43 % and 50 % are its
//! own assumptions), so a reserved term needs `host_price_file`.
//!
//! A host price file's rows replace the built-in rows of the same SKU and term whatever
//! their `region`; [`HostPrices::describe`] says whose price a row of another region is.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::SizingError;
pub use super::host_price::{HostPrice, HostTerm, MAX_USD_PER_HOST_HOUR, MIN_USD_PER_HOST_HOUR};
use super::price_file::{parse_price, read_price_file};
use crate::catalog::{arm_region_name, avs_anf_regions};
use crate::numbers::group_thousands;
use crate::vsan::VsanCatalog;

/// `data/avs_host_prices.csv`, compiled in.
pub const AVS_HOST_PRICES_CSV: &str = include_str!("../../data/avs_host_prices.csv");

/// Its name in messages and sources.
const TABLE: &str = "data/avs_host_prices.csv";

/// Host prices of one region by SKU and term.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HostPrices {
    /// The plan's region (ARM name, `westeurope`); empty when built without one.
    #[serde(default)]
    pub region: String,
    /// Its name in words (`West Europe`): the table's, else the AVS attach page's
    /// (`data/avs_anf_regions.csv`), else the ARM name.
    #[serde(default)]
    pub region_name: String,
    /// The rows: the region's built-in rows, then a price file's (which win).
    pub rows: Vec<HostPrice>,
}

/// Whose price a row is, against the plan's region.
enum Whose {
    /// The plan region's.
    Own,
    /// Another region's.
    Other,
    /// A row naming no region.
    NoRegion,
}

/// A row of `data/avs_host_prices.csv` as written.
#[derive(Deserialize)]
struct TableRow {
    region: String,
    region_name: String,
    sku: String,
    term: String,
    usd_per_hour: String,
    source: String,
}

/// Every row of `data/avs_host_prices.csv` with its region's name, checked: an ARM region
/// name that is its display name written as one (`West Europe` -> `westeurope`, so a
/// display name that does not map fails here), a SKU of `data/avs_hosts.csv`, a known
/// term, a price as a host price file's, and no region, SKU and term twice.
///
/// # Errors
/// [`SizingError::Data`] naming the row (a build defect; tests cover it).
pub fn host_price_table(catalog: &VsanCatalog) -> Result<Vec<(String, HostPrice)>, SizingError> {
    parse_table(AVS_HOST_PRICES_CSV, catalog)
}

/// The rows of a table of `data/avs_host_prices.csv`'s columns, checked as
/// [`host_price_table`] says.
fn parse_table(text: &str, catalog: &VsanCatalog) -> Result<Vec<(String, HostPrice)>, SizingError> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out: Vec<(String, HostPrice)> = Vec::new();
    for (i, rec) in rdr.deserialize::<TableRow>().enumerate() {
        let row = i + 2;
        let err = |detail: String| SizingError::Data {
            file: TABLE,
            row,
            detail,
        };
        let r = rec.map_err(|e| err(e.to_string()))?;
        if r.region.is_empty() || r.region != arm_region_name(&r.region_name) {
            return Err(err(format!(
                "region '{}' is not the ARM name of '{}'",
                r.region, r.region_name
            )));
        }
        if !catalog.hosts.iter().any(|h| h.sku == r.sku) {
            return Err(err(format!(
                "host SKU '{}' is not in data/avs_hosts.csv",
                r.sku
            )));
        }
        let term: HostTerm = r
            .term
            .parse()
            .map_err(|_| err(format!("term '{}'", r.term)))?;
        let usd_per_hour = parse_price(&r.usd_per_hour)
            .map_err(|why| err(format!("price '{}' {why}", r.usd_per_hour)))?;
        if out
            .iter()
            .any(|(_, p)| p.region == r.region && p.sku == r.sku && p.term == term)
        {
            return Err(err(format!("{} {} {term} is given twice", r.region, r.sku)));
        }
        out.push((
            r.region_name,
            HostPrice {
                sku: r.sku,
                term,
                usd_per_hour,
                region: r.region,
                source: format!("{TABLE} row {row}: {}", r.source),
            },
        ));
    }
    Ok(out)
}

/// A region as the plans name it: its display name where `data/avs_anf_regions.csv` lists
/// it (`westeurope` and `West Europe` are `West Europe`), else as written, trimmed.
fn region_words(region: &str) -> String {
    let arm = arm_region_name(region);
    avs_anf_regions()
        .ok()
        .and_then(|all| all.into_iter().find(|r| r.region == arm))
        .map_or_else(|| region.trim().to_string(), |r| r.display_name)
}

impl HostPrices {
    /// The built-in prices of `region` (an ARM or display name): the rows of
    /// `data/avs_host_prices.csv` for that region (pay as you go; a SKU without a row has
    /// no price, and a region without rows none at all).
    ///
    /// # Errors
    /// [`SizingError::Data`] if the compiled-in table is malformed (a build defect).
    pub fn builtin(region: &str, catalog: &VsanCatalog) -> Result<HostPrices, SizingError> {
        let region = arm_region_name(region);
        let mut region_name = None;
        let mut rows = Vec::new();
        for (name, p) in host_price_table(catalog)? {
            if p.region == region {
                region_name.get_or_insert(name);
                rows.push(p);
            }
        }
        let region_name = region_name.unwrap_or_else(|| region_words(&region));
        Ok(HostPrices {
            region,
            region_name,
            rows,
        })
    }

    /// Adds the rows of a host price file (they replace built-in rows of the same SKU and
    /// term, whatever their region).
    ///
    /// Only a regular file is read, and at most 1 MiB + 1 byte of it
    /// (a file that grows while read is still refused).
    ///
    /// # Errors
    /// [`SizingError::PriceFile`] naming the file (and the row, where one is at fault): not
    /// a regular file (a directory, device, pipe), unreadable, larger than 1 MiB, not UTF-8,
    /// empty or a header without rows, a missing column, an unknown SKU or term, a price
    /// that is not a number from 0 to [`MAX_USD_PER_HOST_HOUR`], or a SKU and term given
    /// twice.
    pub fn with_file(self, path: &Path, catalog: &VsanCatalog) -> Result<HostPrices, SizingError> {
        let added = read_price_file(path, catalog)?;
        Ok(self.with_rows(added))
    }

    /// As [`HostPrices::with_file`], from a host price file's text already in memory
    /// (`file` names it in errors: the web page's typed prices).
    ///
    /// # Errors
    /// As [`HostPrices::with_file`], but for reading.
    pub fn with_text(
        self,
        text: &str,
        file: &str,
        catalog: &VsanCatalog,
    ) -> Result<HostPrices, SizingError> {
        let added = super::price_file::parse_file(text, file, catalog)?;
        Ok(self.with_rows(added))
    }

    /// `added` replacing the rows of the same SKU and term.
    fn with_rows(mut self, added: Vec<HostPrice>) -> HostPrices {
        self.rows
            .retain(|b| !added.iter().any(|a| a.sku == b.sku && a.term == b.term));
        self.rows.extend(added);
        self
    }

    /// The price of `sku` bought on `term`, if known.
    pub fn price(&self, sku: &str, term: HostTerm) -> Option<&HostPrice> {
        self.rows.iter().find(|p| p.sku == sku && p.term == term)
    }

    /// Whose price `p` is.
    fn whose(&self, p: &HostPrice) -> Whose {
        if p.region.trim().is_empty() {
            Whose::NoRegion
        } else if arm_region_name(&p.region) == self.region {
            Whose::Own
        } else {
            Whose::Other
        }
    }

    /// Whose price `p` is when it is not the plan region's, in words (`is East US's, not
    /// West Europe's`; `names no region, so whose price it is is unknown`); `None` when it
    /// is the region's own (its `region`, as an ARM or display name, is the plan's).
    pub fn other_region(&self, p: &HostPrice) -> Option<String> {
        match self.whose(p) {
            Whose::Own => None,
            Whose::NoRegion => Some("names no region, so whose price it is is unknown".into()),
            Whose::Other => Some(format!(
                "is {}'s, not {}'s",
                region_words(&p.region),
                self.region_name
            )),
        }
    }

    /// Why a SKU has no price on `term`, in words: `no public price in West Europe` (pay
    /// as you go: the table has no row for it there) or `no public 3y price` (a reserved
    /// term: no public source gives one).
    pub fn missing(&self, term: HostTerm) -> String {
        match term {
            HostTerm::PayAsYouGo => format!("no public price in {}", self.region_name),
            _ => format!("no public {term} price"),
        }
    }

    /// Why `sku` has no price on `term`, in words: `no public price for av36 in West
    /// Europe` or `no public 3y price for av36p`.
    pub fn missing_for(&self, sku: &str, term: HostTerm) -> String {
        match term {
            HostTerm::PayAsYouGo => format!("no public price for {sku} in {}", self.region_name),
            _ => format!("no public {term} price for {sku}"),
        }
    }

    /// The headline's words on the price of `sku` bought on `term`: the region's own price
    /// and its source; another region's, saying whose; or why there is none and how to
    /// give one.
    pub fn describe(&self, sku: &str, term: HostTerm) -> String {
        let Some(p) = self.price(sku, term) else {
            let missing = self.missing_for(sku, term);
            return match term {
                HostTerm::PayAsYouGo => format!("{missing}: give `host_price_file`"),
                _ => format!(
                    "{missing}: give `host_price_file` (the AVS reserved-instance page, \
                     2024-04-04, lists the terms but no prices)"
                ),
            };
        };
        let (usd, term) = (group_thousands(p.usd_per_hour, 2), term.words());
        let whose = match self.whose(p) {
            Whose::Own => format!("{} {term} price of {sku}", self.region_name),
            Whose::Other => format!(
                "{}'s {term} price of {sku}, not {}'s",
                region_words(&p.region),
                self.region_name
            ),
            Whose::NoRegion => format!(
                "a {term} price of {sku} naming no region (not known to be {}'s)",
                self.region_name
            ),
        };
        format!("{whose}: {usd} USD per host-hour, from {}", p.source)
    }

    /// The headline's words on the SKUs besides the chosen one that have no price on
    /// `term` (`no public price in West Europe for av36, av48: sized only, their totals not
    /// compared`); `None` when there are none.
    pub fn unpriced(&self, skus: &[&str], term: HostTerm) -> Option<String> {
        (!skus.is_empty()).then(|| {
            format!(
                "{} for {}: sized only, their totals not compared",
                self.missing(term),
                skus.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    fn catalog() -> VsanCatalog {
        VsanCatalog::builtin().unwrap()
    }

    #[test]
    fn the_table_holds_the_estimators_65_rows_in_34_regions_each_an_anf_region() {
        // The estimator's table (v6.1, 2025-06-04): 65 rows, 34 regions; AV36 in 20
        // regions, AV36P in 24, AV52 in 5, AV64 in 16, none for AV48 or AV64 Gen 2; all
        // pay as you go.
        let rows = host_price_table(&catalog()).unwrap();
        assert_eq!(rows.len(), 65);
        let regions: std::collections::BTreeSet<&str> =
            rows.iter().map(|(_, p)| p.region.as_str()).collect();
        assert_eq!(regions.len(), 34);
        let count = |sku: &str| rows.iter().filter(|(_, p)| p.sku == sku).count();
        assert_eq!(
            [
                count("av36"),
                count("av36p"),
                count("av48"),
                count("av52"),
                count("av64"),
                count("av64-gen2")
            ],
            [20, 24, 0, 5, 16, 0]
        );
        // Every region maps to a region the ANF catalog prices (so the plan can be made
        // there), and every row names its source, version, commit and date.
        let anf = Catalog::builtin().unwrap();
        for (name, p) in &rows {
            assert!(anf.region(&p.region).is_ok(), "{} ({name})", p.region);
            assert_eq!(p.term, HostTerm::PayAsYouGo);
            for part in [
                "AVS + ANF TCO estimator v6.1",
                "1c6dbe0",
                "2025-06-04",
                "list prices",
            ] {
                assert!(p.source.contains(part), "{}", p.source);
            }
        }
        // The estimator's "SouthEast Asia" is Microsoft's Southeast Asia.
        assert!(
            rows.iter()
                .any(|(name, p)| name == "Southeast Asia" && p.region == "southeastasia")
        );
    }

    #[test]
    fn a_row_that_does_not_map_or_check_fails_the_table() {
        const HEAD: &str = "region,region_name,sku,term,usd_per_hour,source\n";
        let error = |row: &str| {
            parse_table(
                &format!("{HEAD}eastus,East US,av36p,payg,9.2,s\n{row}\n"),
                &catalog(),
            )
            .unwrap_err()
            .to_string()
        };
        // A region whose display name does not map to it is refused, never dropped.
        let e = error("westeurop,West Europe,av36p,payg,10.96,s");
        assert!(
            e.starts_with(
                "data/avs_host_prices.csv row 3: region 'westeurop' is not the ARM \
                           name of 'West Europe'"
            ),
            "{e}"
        );
        let e = error("SouthEast Asia,SouthEast Asia,av36,payg,10.02,s");
        assert!(e.contains("row 3: region 'SouthEast Asia'"), "{e}");
        let e = error("westeurope,West Europe,av99,payg,1,s");
        assert!(e.contains("row 3: host SKU 'av99'"), "{e}");
        let e = error("westeurope,West Europe,av36p,2y,1,s");
        assert!(e.contains("row 3: term '2y'"), "{e}");
        let e = error("westeurope,West Europe,av36p,payg,1e4,s");
        assert!(e.contains("row 3: price '1e4' is above 1,000"), "{e}");
        let e = error("eastus,East US,av36p,payg,9.3,s");
        assert!(e.contains("row 3: eastus av36p payg is given twice"), "{e}");
    }

    #[test]
    fn builtin_prices_are_the_regions_own_rows_only() {
        // data/avs_host_prices.csv, West Europe: AV36P 10.96, AV52 21.67, AV64 15.76; no
        // AV36, AV48, AV64 Gen 2 row. The display name gives the same prices.
        for region in ["westeurope", "West Europe"] {
            let p = HostPrices::builtin(region, &catalog()).unwrap();
            assert_eq!(
                (p.region.as_str(), p.region_name.as_str()),
                ("westeurope", "West Europe")
            );
            let usd = |sku: &str| p.price(sku, HostTerm::PayAsYouGo).map(|r| r.usd_per_hour);
            assert_eq!(
                [
                    usd("av36"),
                    usd("av36p"),
                    usd("av48"),
                    usd("av52"),
                    usd("av64"),
                    usd("av64-gen2")
                ],
                [None, Some(10.96), None, Some(21.67), Some(15.76), None]
            );
            assert_eq!(p.price("av36p", HostTerm::ThreeYear), None);
        }
        // A region without rows has no price at all, named by its ARM name when the AVS
        // attach page does not list it either.
        let p = HostPrices::builtin("koreacentral", &catalog()).unwrap();
        assert!(p.rows.is_empty());
        assert_eq!(
            p.missing(HostTerm::PayAsYouGo),
            "no public price in koreacentral"
        );
        // Spain Central has ANF datastores for AVS (data/avs_anf_regions.csv) and no row in
        // the estimator's table: named as the attach page names it.
        let p = HostPrices::builtin("spaincentral", &catalog()).unwrap();
        assert!(p.rows.is_empty());
        assert_eq!(
            p.missing(HostTerm::PayAsYouGo),
            "no public price in Spain Central"
        );
    }

    #[test]
    fn the_words_say_whose_price_or_why_none() {
        let p = HostPrices::builtin("westeurope", &catalog()).unwrap();
        // AV64 is row 51 of the table (header = 1; West Europe's rows are 49..51).
        assert_eq!(
            p.describe("av64", HostTerm::PayAsYouGo),
            format!(
                "West Europe pay-as-you-go price of av64: 15.76 USD per host-hour, from \
                 data/avs_host_prices.csv row 51: {}",
                p.price("av64", HostTerm::PayAsYouGo)
                    .unwrap()
                    .source
                    .split_once(": ")
                    .unwrap()
                    .1
            )
        );
        assert_eq!(
            p.describe("av36", HostTerm::PayAsYouGo),
            "no public price for av36 in West Europe: give `host_price_file`"
        );
        assert!(
            p.describe("av36p", HostTerm::ThreeYear)
                .starts_with("no public 3y price for av36p: give `host_price_file`")
        );
        assert_eq!(
            p.unpriced(&["av36", "av48"], HostTerm::PayAsYouGo)
                .as_deref(),
            Some(
                "no public price in West Europe for av36, av48: sized only, their totals not compared"
            )
        );
        assert_eq!(p.unpriced(&[], HostTerm::PayAsYouGo), None);
    }

    /// A file of `text` in a fresh scratch folder (removed by the caller).
    fn scratch(name: &str, text: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("dsplan-hostprices-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("hosts.csv");
        std::fs::write(&file, text).unwrap();
        (dir, file)
    }

    #[test]
    fn a_file_row_wins_and_a_row_of_another_region_says_whose_it_is() {
        let (dir, file) = scratch(
            "whose",
            "\u{feff}sku,term,usd_per_hour,region,source\nav36p,payg,8.5,East US,quote 42\n\
             av64,payg,15,West Europe,quote 43\nav52,payg,20,,quote 44\n",
        );
        let p = HostPrices::builtin("westeurope", &catalog())
            .unwrap()
            .with_file(&file, &catalog())
            .unwrap();
        let _ = std::fs::remove_dir_all(dir);
        let own = p.price("av36p", HostTerm::PayAsYouGo).unwrap();
        assert_eq!(own.usd_per_hour, 8.5);
        assert!(
            own.source.ends_with("hosts.csv row 2: quote 42"),
            "{}",
            own.source
        );
        assert_eq!(
            p.other_region(own).as_deref(),
            Some("is East US's, not West Europe's")
        );
        assert!(
            p.describe("av36p", HostTerm::PayAsYouGo).starts_with(
                "East US's pay-as-you-go price of av36p, not West Europe's: 8.50 USD per \
                 host-hour, from "
            ),
            "{}",
            p.describe("av36p", HostTerm::PayAsYouGo)
        );
        // "West Europe" in a file is the plan's region: no word of another region.
        let av64 = p.price("av64", HostTerm::PayAsYouGo).unwrap();
        assert_eq!(p.other_region(av64), None);
        assert!(
            p.describe("av64", HostTerm::PayAsYouGo)
                .starts_with("West Europe pay-as-you-go price of av64: 15.00")
        );
        let av52 = p.price("av52", HostTerm::PayAsYouGo).unwrap();
        assert!(p.other_region(av52).unwrap().starts_with("names no region"));
        assert!(p.describe("av52", HostTerm::PayAsYouGo).starts_with(
            "a pay-as-you-go price of av52 naming no region (not known to be West Europe's): 20.00"
        ));
    }
}

//! The ANF catalog: service levels, limits and retail prices, loaded from the CSV files in
//! `data/` (compiled into the binary, or read from user-supplied files).
//!
//! ```
//! use dsplan::catalog::{Catalog, ServiceLevel};
//!
//! let catalog = Catalog::builtin()?;
//! let east = catalog.region("eastus")?;
//! // data/prices.csv: Premium capacity in eastus is 0.000403 USD per GiB-hour, so a TiB
//! // for a month is 0.000403 x 1,024 x 730 = 301.24 USD.
//! let premium = east.capacity_usd_per_tib_month(ServiceLevel::Premium);
//! assert!(premium.is_some_and(|usd| (usd - 301.2416).abs() < 0.01));
//! # Ok::<(), dsplan::catalog::CatalogError>(())
//! ```
//!
//! Nothing here is a typed-in number: every figure is a row of `data/service_levels.csv`,
//! `data/limits.csv` or `data/prices.csv`, each row with its `source`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

mod cool;
mod prices;
mod region;
mod regions;
mod reservation;

pub use cool::{
    COOL_ACCESS_REGIONS_CSV, COOL_ACCESS_RULE_CSV, CoolAccessRegion, CoolAccessRules,
    CoolThroughputRule, CoolTierRate, cool_access_rate_mibps_per_tib,
};
pub use prices::MAX_PRICE_FILE_BYTES;
pub use region::{InvalidRegion, Region};
pub use regions::{
    AVS_ANF_REGIONS_CSV, AvsRegion, arm_region_name, avs_anf_regions, avs_supports_anf_datastores,
};
pub use reservation::{MAX_UNIT_SIZES, ReservationMix, ReservedUnits, cheapest_mix};

/// `data/service_levels.csv`, compiled in.
pub const SERVICE_LEVELS_CSV: &str = include_str!("../../data/service_levels.csv");
/// `data/limits.csv`, compiled in.
pub const LIMITS_CSV: &str = include_str!("../../data/limits.csv");
/// `data/prices.csv`, compiled in (Azure retail prices for ANF meters, every region).
pub const PRICES_CSV: &str = include_str!("../../data/prices.csv");
/// `data/reservations.csv`, compiled in (reserved-capacity discounts per service level and
/// term).
pub const RESERVATIONS_CSV: &str = include_str!("../../data/reservations.csv");

/// The default pricing region.
pub const DEFAULT_REGION: &str = crate::defaults::REGION;

/// An ANF service level (one per capacity pool).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServiceLevel {
    /// Standard: 16 MiB/s per TiB.
    Standard,
    /// Premium: 64 MiB/s per TiB.
    Premium,
    /// Ultra: 128 MiB/s per TiB.
    Ultra,
    /// Flexible: 128 MiB/s per pool included, more purchased, up to 640 MiB/s per TiB.
    Flexible,
}

impl ServiceLevel {
    /// All service levels, in catalog order.
    pub const ALL: [ServiceLevel; 4] = [
        ServiceLevel::Standard,
        ServiceLevel::Premium,
        ServiceLevel::Ultra,
        ServiceLevel::Flexible,
    ];

    /// Lower-case name as used in `data/` and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ServiceLevel::Standard => "standard",
            ServiceLevel::Premium => "premium",
            ServiceLevel::Ultra => "ultra",
            ServiceLevel::Flexible => "flexible",
        }
    }
}

impl fmt::Display for ServiceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ServiceLevel {
    type Err = CatalogError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(ServiceLevel::Standard),
            "premium" => Ok(ServiceLevel::Premium),
            "ultra" => Ok(ServiceLevel::Ultra),
            "flexible" => Ok(ServiceLevel::Flexible),
            other => Err(CatalogError::UnknownServiceLevel(crate::numbers::clip(
                other,
            ))),
        }
    }
}

/// A reserved-capacity term (`--reservation`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReservationTerm {
    /// Pay as you go (no reservation).
    #[default]
    None,
    /// One-year reserved capacity.
    #[serde(rename = "1y")]
    OneYear,
    /// Three-year reserved capacity.
    #[serde(rename = "3y")]
    ThreeYear,
}

impl ReservationTerm {
    /// The spelling in `data/reservations.csv` and on the command line (`none`, `1y`, `3y`).
    pub fn as_str(self) -> &'static str {
        match self {
            ReservationTerm::None => "none",
            ReservationTerm::OneYear => "1y",
            ReservationTerm::ThreeYear => "3y",
        }
    }
}

impl fmt::Display for ReservationTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReservationTerm {
    type Err = CatalogError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "" => Ok(ReservationTerm::None),
            "1y" | "1" | "1yr" | "1-year" => Ok(ReservationTerm::OneYear),
            "3y" | "3" | "3yr" | "3-year" => Ok(ReservationTerm::ThreeYear),
            other => Err(CatalogError::UnknownReservation(crate::numbers::clip(
                other,
            ))),
        }
    }
}

/// A reserved-capacity discount (a row of `data/reservations.csv`): it applies to the hot
/// tier only, to the usage of its level in one region (not to one pool), and is bought in
/// whole units of `unit_tib`; a level and term may have units of 100 TiB and of 1 PiB
/// ([`cheapest_mix`] picks the mix).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReservationDiscount {
    /// The service level it applies to.
    pub service_level: ServiceLevel,
    /// The term.
    pub term: ReservationTerm,
    /// Discount on the hot-tier capacity price, percent.
    pub discount_pct: f64,
    /// Size of one reservation unit, TiB (100 or 1,024).
    pub unit_tib: f64,
    /// Where the figures come from.
    pub source: String,
}

/// Errors while loading or querying the catalog.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// A catalog CSV could not be parsed.
    #[error("{file}: row {row}: {detail}")]
    Parse {
        /// Which catalog file (`service_levels.csv`, `limits.csv`, `prices.csv` or a user path).
        file: String,
        /// 1-based row (header = 1).
        row: usize,
        /// What was wrong.
        detail: String,
    },
    /// A required parameter is missing from `limits.csv`.
    #[error("limits.csv: parameter '{0}' is missing")]
    MissingLimit(String),
    /// A service level name that the catalog does not know.
    #[error("unknown service level '{0}' (expected standard, premium, ultra or flexible)")]
    UnknownServiceLevel(String),
    /// A reservation term other than none, 1y or 3y.
    #[error("unknown reservation term '{0}' (expected none, 1y or 3y)")]
    UnknownReservation(String),
    /// The region has no prices at all.
    #[error("no ANF prices for region '{region}'; known regions: {known}")]
    UnknownRegion {
        /// Region asked for.
        region: String,
        /// The regions a plan can name, comma-separated, those where AVS takes ANF datastores
        /// first, and how many more have ANF prices only.
        known: String,
    },
    /// The price file (`price_file`) could not be read.
    #[error("`price_file` {file}: {source}")]
    Io {
        /// The path.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Throughput rules of one service level (a row of `data/service_levels.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServiceLevelSpec {
    /// Which level.
    pub service_level: ServiceLevel,
    /// MiB/s granted per provisioned TiB of pool (0 for Flexible).
    pub throughput_mibps_per_tib: f64,
    /// MiB/s included per pool whatever its size (128 for Flexible, else 0).
    pub included_throughput_mibps_per_pool: f64,
    /// Most MiB/s per TiB of pool that can be had (Flexible: 640 = 5 x 128).
    pub max_throughput_mibps_per_tib: f64,
    /// MiB/s per TiB once cool access is enabled under the legacy rule (Premium 36, Ultra
    /// 68); the current per-volume rule is in [`Catalog::cool_access`], and
    /// [`cool_access_rate_mibps_per_tib`] picks the rate a pool gets.
    pub cool_access_throughput_mibps_per_tib: f64,
    /// Price tier name in `prices.csv`.
    pub price_tier: String,
    /// Where the figures come from.
    pub source: String,
}

/// Capacity and throughput limits (rows of `data/limits.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Smallest capacity pool, TiB.
    pub pool_min_tib: f64,
    /// Largest capacity pool, TiB.
    pub pool_max_tib: f64,
    /// Pool size step, TiB.
    pub pool_increment_tib: f64,
    /// Smallest regular volume, GiB.
    pub volume_min_gib: f64,
    /// Largest regular volume, TiB.
    pub volume_max_tib: f64,
    /// Throughput ceiling of a regular volume, MiB/s.
    pub volume_max_throughput_mibps: f64,
    /// Smallest large volume, TiB.
    pub large_volume_min_tib: f64,
    /// Largest large volume, TiB.
    pub large_volume_max_tib: f64,
    /// Throughput ceiling of a large volume, MiB/s.
    pub large_volume_max_throughput_mibps: f64,
    /// Hours in a billing month (730).
    pub hours_per_month: f64,
    /// Datastores per AVS cluster by default (8).
    pub default_max_datastores: u32,
    /// Datastores per AVS cluster at most, by request (256).
    pub max_datastores: u32,
    /// Fewest hosts in an AVS cluster (3).
    pub min_hosts: u32,
    /// Most hosts in an AVS cluster (16).
    pub max_hosts: u32,
    /// Default regional capacity quota per subscription and region, TiB (25): the pools'
    /// provisioned sizes together; more needs a support request \[LIMITS\].
    pub regional_capacity_quota_tib: f64,
    /// Capacity pools per NetApp account by default (25; more by support request)
    /// \[LIMITS\].
    pub max_pools_per_account: u32,
}

/// Prices of one region, converted to monthly figures (hourly x `hours_per_month`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionPrices {
    /// ARM region name (`eastus`).
    pub region: String,
    /// Display name (`US East`).
    pub location: String,
    /// Pool capacity price per service level, USD per GiB-month; a level missing here is
    /// not sold in the region.
    pub capacity_usd_per_gib_month: BTreeMap<ServiceLevel, f64>,
    /// Flexible purchased throughput, USD per MiB/s-month.
    pub flexible_throughput_usd_per_mibps_month: Option<f64>,
    /// Cool tier capacity, USD per GiB-month.
    pub cool_capacity_usd_per_gib_month: Option<f64>,
    /// Cool data transfer (either way), USD per GiB.
    pub cool_transfer_usd_per_gib: Option<f64>,
    /// Newest `effective_start` among the rows used (YYYY-MM-DD).
    pub effective_start: String,
    /// `effective_start` of each service level's capacity price (YYYY-MM-DD).
    pub capacity_effective_start: BTreeMap<ServiceLevel, String>,
    /// `effective_start` of the Flexible throughput price, when sold.
    pub flexible_throughput_effective_start: Option<String>,
    /// `effective_start` of the cool-tier capacity price, when sold.
    #[serde(default)]
    pub cool_capacity_effective_start: Option<String>,
    /// `effective_start` of the cool-tier transfer price, when sold.
    #[serde(default)]
    pub cool_transfer_effective_start: Option<String>,
    /// Source of the prices.
    pub source: String,
}

impl RegionPrices {
    /// Newest `effective_start` of the meters a pool at `level` is billed on (capacity, and
    /// for Flexible the purchased throughput); empty when `level` is not sold here.
    pub fn effective_start_for(&self, level: ServiceLevel) -> String {
        let mut date = self
            .capacity_effective_start
            .get(&level)
            .cloned()
            .unwrap_or_default();
        if level == ServiceLevel::Flexible
            && let Some(tp) = &self.flexible_throughput_effective_start
            && *tp > date
        {
            date = tp.clone();
        }
        date
    }

    /// Monthly price of one TiB of pool at `level`, USD (`None` when not sold here).
    pub fn capacity_usd_per_tib_month(&self, level: ServiceLevel) -> Option<f64> {
        self.capacity_usd_per_gib_month
            .get(&level)
            .map(|p| p * 1024.0)
    }
}

/// The whole catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// One spec per service level.
    pub service_levels: Vec<ServiceLevelSpec>,
    /// Limits.
    pub limits: Limits,
    /// Prices per region, keyed by ARM region name.
    pub prices: BTreeMap<String, RegionPrices>,
    /// Reserved-capacity discounts (`data/reservations.csv`); a level and term without a row
    /// has no discount.
    pub reservations: Vec<ReservationDiscount>,
    /// Premium/Ultra cool-access throughput rules (`data/cool_access_regions.csv`,
    /// `data/cool_access_rule.csv`).
    #[serde(default)]
    pub cool_access: CoolAccessRules,
}

#[derive(Deserialize)]
struct ReservationRow {
    service_level: String,
    term: String,
    discount_pct: f64,
    unit_tib: f64,
    source: String,
}

#[derive(Deserialize)]
struct SlRow {
    service_level: String,
    throughput_mibps_per_tib: f64,
    included_throughput_mibps_per_pool: f64,
    max_throughput_mibps_per_tib: f64,
    cool_access_throughput_mibps_per_tib: f64,
    price_tier: String,
    source: String,
}

#[derive(Deserialize)]
struct LimitRow {
    parameter: String,
    value: f64,
}

pub(crate) fn parse_rows<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<Vec<T>, CatalogError> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let error = |row: usize, detail: String| CatalogError::Parse {
        file: file.to_string(),
        row,
        detail,
    };
    let headers = rdr
        .headers()
        .map_err(|e| error(1, csv_detail(&e, None)))?
        .clone();
    let mut out = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        out.push(deserialize_record(&headers, rec).map_err(|detail| error(i + 2, detail))?);
    }
    Ok(out)
}

/// One record of a CSV reader as `T`, given the file's `headers`, or the reader's error in
/// the file's words ([`csv_detail`]); the caller names the row.
pub(crate) fn deserialize_record<T: serde::de::DeserializeOwned>(
    headers: &csv::StringRecord,
    rec: csv::Result<csv::StringRecord>,
) -> Result<T, String> {
    let record = rec.map_err(|e| csv_detail(&e, None))?;
    record
        .deserialize(Some(headers))
        .map_err(|e| csv_detail(&e, Some((headers, &record))))
}

/// A CSV reader's error in the file's words, without the reader's record and byte
/// positions (the caller names the row): a missing field is a missing column (named in
/// quotes, so a column that shares a flag's name is not read as the flag); a value that
/// is not of its column's type names the column and the value, given the row's `headers`
/// and `record`.
pub(crate) fn csv_detail(
    e: &csv::Error,
    row: Option<(&csv::StringRecord, &csv::StringRecord)>,
) -> String {
    if let (csv::ErrorKind::Deserialize { err, .. }, Some((headers, record))) = (e.kind(), row) {
        let field = err.field().and_then(|f| usize::try_from(f).ok());
        if let Some(f) = field {
            let column = headers.get(f).unwrap_or("?");
            let value = crate::numbers::clip(record.get(f).unwrap_or_default());
            let expected = match err.kind() {
                csv::DeserializeErrorKind::ParseFloat(_) => "a number",
                csv::DeserializeErrorKind::ParseInt(_) => "a whole number",
                csv::DeserializeErrorKind::ParseBool(_) => "true or false",
                _ => "",
            };
            if !expected.is_empty() {
                return format!("column '{column}': '{value}' is not {expected}");
            }
        }
        return missing_column(&err.to_string());
    }
    missing_column(&e.to_string())
}

/// `missing field `x`` as `missing column 'x'`.
fn missing_column(text: &str) -> String {
    match text.split_once("missing field `") {
        Some((_, rest)) => {
            let (name, after) = rest.split_once('`').unwrap_or((rest, ""));
            format!("missing column '{name}'{after}")
        }
        None => text.to_string(),
    }
}

impl Catalog {
    /// The catalog compiled from `data/`.
    ///
    /// # Errors
    /// Only if the compiled-in files are malformed (a build defect; tests cover it).
    pub fn builtin() -> Result<Catalog, CatalogError> {
        // Parsed once per process: a plan asks for it three times (the command's limits,
        // the settings' check, the plan), each parse about 1 % of a 10,000-VM plan.
        static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        if let Some(c) = BUILTIN.get() {
            return Ok(c.clone());
        }
        let c = Catalog::from_csv(SERVICE_LEVELS_CSV, LIMITS_CSV, PRICES_CSV, "prices.csv")?;
        Ok(BUILTIN.get_or_init(|| c).clone())
    }

    /// The built-in catalog with prices from a user file of the same columns as
    /// `data/prices.csv`.
    ///
    /// # Errors
    /// [`CatalogError::Io`] if the file is missing, not a regular file, larger than
    /// [`MAX_PRICE_FILE_BYTES`] or unreadable; [`CatalogError::Parse`] naming the row
    /// of a bad price, a unit other than the meter's, a (region, tier, meter) given twice, or
    /// a zero capacity price.
    pub fn with_price_file(path: &std::path::Path) -> Result<Catalog, CatalogError> {
        let text = prices::read_price_file(path)?;
        // Row errors name the setting too (the command shows `--price-file FILE`).
        Catalog::from_csv(
            SERVICE_LEVELS_CSV,
            LIMITS_CSV,
            &text,
            &format!("`price_file` {}", path.display()),
        )
    }

    /// Builds a catalog from the text of the three CSV files (reservations and cool-access
    /// rules come from the compiled-in `data/` files).
    ///
    /// # Errors
    /// [`CatalogError::Parse`] naming file and row; [`CatalogError::MissingLimit`].
    pub fn from_csv(
        service_levels_csv: &str,
        limits_csv: &str,
        prices_csv: &str,
        prices_name: &str,
    ) -> Result<Catalog, CatalogError> {
        let mut service_levels = Vec::new();
        for (i, r) in parse_rows::<SlRow>("service_levels.csv", service_levels_csv)?
            .into_iter()
            .enumerate()
        {
            let level =
                r.service_level
                    .parse::<ServiceLevel>()
                    .map_err(|e| CatalogError::Parse {
                        file: "service_levels.csv".into(),
                        row: i + 2,
                        detail: e.to_string(),
                    })?;
            service_levels.push(ServiceLevelSpec {
                service_level: level,
                throughput_mibps_per_tib: r.throughput_mibps_per_tib,
                included_throughput_mibps_per_pool: r.included_throughput_mibps_per_pool,
                max_throughput_mibps_per_tib: r.max_throughput_mibps_per_tib,
                cool_access_throughput_mibps_per_tib: r.cool_access_throughput_mibps_per_tib,
                price_tier: r.price_tier,
                source: r.source,
            });
        }
        let limit_rows = parse_rows::<LimitRow>("limits.csv", limits_csv)?;
        let get = |name: &str| -> Result<f64, CatalogError> {
            limit_rows
                .iter()
                .find(|r| r.parameter == name)
                .map(|r| r.value)
                .ok_or_else(|| CatalogError::MissingLimit(name.to_string()))
        };
        let limits = Limits {
            pool_min_tib: get("pool_min_tib")?,
            pool_max_tib: get("pool_max_tib")?,
            pool_increment_tib: get("pool_increment_tib")?,
            volume_min_gib: get("volume_min_gib")?,
            volume_max_tib: get("volume_max_tib")?,
            volume_max_throughput_mibps: get("volume_max_throughput_mibps")?,
            large_volume_min_tib: get("large_volume_min_tib")?,
            large_volume_max_tib: get("large_volume_max_tib")?,
            large_volume_max_throughput_mibps: get("large_volume_max_throughput_mibps")?,
            hours_per_month: get("hours_per_month")?,
            default_max_datastores: get("default_max_datastores")? as u32,
            max_datastores: get("max_datastores")? as u32,
            min_hosts: get("min_hosts")? as u32,
            max_hosts: get("max_hosts")? as u32,
            regional_capacity_quota_tib: get("regional_capacity_quota_tib")?,
            max_pools_per_account: get("max_pools_per_account")? as u32,
        };
        let prices = prices::parse_prices(
            &service_levels,
            limits.hours_per_month,
            prices_csv,
            prices_name,
        )?;
        let mut reservations = Vec::new();
        for (i, r) in parse_rows::<ReservationRow>("reservations.csv", RESERVATIONS_CSV)?
            .into_iter()
            .enumerate()
        {
            let bad = |detail: String| CatalogError::Parse {
                file: "reservations.csv".into(),
                row: i + 2,
                detail,
            };
            let service_level = r
                .service_level
                .parse::<ServiceLevel>()
                .map_err(|e| bad(e.to_string()))?;
            let term = r
                .term
                .parse::<ReservationTerm>()
                .map_err(|e| bad(e.to_string()))?;
            if !(r.discount_pct.is_finite() && (0.0..100.0).contains(&r.discount_pct)) {
                return Err(bad(format!(
                    "discount {} is not a percentage",
                    r.discount_pct
                )));
            }
            if !(r.unit_tib.is_finite() && r.unit_tib >= 1.0) {
                return Err(bad(format!("unit {} TiB is not a size", r.unit_tib)));
            }
            let sizes = reservations
                .iter()
                .filter(|o: &&ReservationDiscount| {
                    o.service_level == service_level && o.term == term
                })
                .collect::<Vec<_>>();
            if sizes.iter().any(|o| o.unit_tib == r.unit_tib) || sizes.len() >= MAX_UNIT_SIZES {
                return Err(bad(format!(
                    "{service_level} {term}: a second row for {} TiB units, or more than \
                     {MAX_UNIT_SIZES} unit sizes",
                    r.unit_tib
                )));
            }
            reservations.push(ReservationDiscount {
                service_level,
                term,
                discount_pct: r.discount_pct,
                unit_tib: r.unit_tib,
                source: r.source,
            });
        }
        Ok(Catalog {
            service_levels,
            limits,
            prices,
            reservations,
            cool_access: CoolAccessRules::builtin()?,
        })
    }

    /// The spec of `level`.
    ///
    /// # Errors
    /// [`CatalogError::UnknownServiceLevel`] if `service_levels.csv` has no row for it.
    pub fn service_level(&self, level: ServiceLevel) -> Result<&ServiceLevelSpec, CatalogError> {
        self.service_levels
            .iter()
            .find(|s| s.service_level == level)
            .ok_or_else(|| CatalogError::UnknownServiceLevel(level.to_string()))
    }

    /// The reserved-capacity unit sizes of `level` for `term`, smallest unit first (empty
    /// for pay as you go or a level without a published discount).
    pub fn reservations(
        &self,
        level: ServiceLevel,
        term: ReservationTerm,
    ) -> Vec<&ReservationDiscount> {
        if term == ReservationTerm::None {
            return Vec::new();
        }
        let mut out: Vec<&ReservationDiscount> = self
            .reservations
            .iter()
            .filter(|r| r.service_level == level && r.term == term)
            .collect();
        out.sort_by(|a, b| a.unit_tib.total_cmp(&b.unit_tib));
        out
    }

    /// Prices of `region`: an ARM name or a display name, case-insensitive (`"West Europe"`
    /// is `westeurope`, [`arm_region_name`]).
    ///
    /// # Errors
    /// [`CatalogError::UnknownRegion`] listing the known regions.
    pub fn region(&self, region: &str) -> Result<&RegionPrices, CatalogError> {
        let key = arm_region_name(region);
        // The ARM name, or the price sheet's own display name (`US East`, `EU West`).
        self.prices
            .get(&key)
            .or_else(|| {
                self.prices
                    .values()
                    .find(|p| arm_region_name(&p.location) == key)
            })
            .ok_or_else(|| CatalogError::UnknownRegion {
                region: crate::numbers::clip(region),
                known: self.known_regions(),
            })
    }

    /// The regions a plan can name, for [`CatalogError::UnknownRegion`]: first those where
    /// AVS takes ANF datastores (`data/avs_anf_regions.csv`), then how many more have ANF
    /// prices only (they need `allow_unlisted_region`).
    fn known_regions(&self) -> String {
        let (supported, others): (Vec<&String>, Vec<&String>) = self
            .prices
            .keys()
            .partition(|r| avs_supports_anf_datastores(r).unwrap_or(false));
        let supported: Vec<&str> = supported.iter().map(|r| r.as_str()).collect();
        format!(
            "{} (where AVS takes ANF datastores; a display name such as 'West Europe' \
             works too); {} more with ANF prices but no ANF datastores for AVS, planned only \
             with `allow_unlisted_region`",
            supported.join(", "),
            others.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalog_loads_eastus_prices() {
        let c = Catalog::builtin().unwrap();
        let p = c.region("eastus").unwrap();
        // prices.csv: eastus standard capacity 0.000202 USD per GiB-hour; x 730 h.
        let std = p.capacity_usd_per_gib_month[&ServiceLevel::Standard];
        assert!((std - 0.000202 * 730.0).abs() < 1e-12);
        // flexible throughput 0.003082 USD per MiB/s-hour x 730 = 2.24986
        let flex = p.flexible_throughput_usd_per_mibps_month.unwrap();
        assert!((flex - 2.24986).abs() < 1e-9);
        assert_eq!(p.effective_start, "2025-09-01");
        // mexicocentral: standard capacity row effective 2024-02-01, cool rows 2024-06-01
        // (grep ^mexicocentral data/prices.csv)
        let mx = c.region("mexicocentral").unwrap();
        assert_eq!(mx.effective_start_for(ServiceLevel::Standard), "2024-02-01");
        assert_eq!(mx.effective_start_for(ServiceLevel::Premium), "");
        assert_eq!(c.limits.pool_max_tib, 2048.0);
        assert_eq!(
            c.service_level(ServiceLevel::Ultra)
                .unwrap()
                .throughput_mibps_per_tib,
            128.0
        );
    }

    #[test]
    fn reservation_discounts_from_data() {
        let c = Catalog::builtin().unwrap();
        // data/reservations.csv: 100 TiB units 1y 18%, 3y 18% Standard / 30% Premium and
        // Ultra; 1 PiB units 1y 22%, 3y 22% Standard / 34% Premium and Ultra; Flexible has
        // no row.
        let pct = |l, t| {
            c.reservations(l, t)
                .iter()
                .map(|r| (r.unit_tib, r.discount_pct))
                .collect::<Vec<_>>()
        };
        use ReservationTerm::{OneYear, ThreeYear};
        use ServiceLevel::{Flexible, Premium, Standard, Ultra};
        assert_eq!(pct(Ultra, ThreeYear), [(100.0, 30.0), (1024.0, 34.0)]);
        assert_eq!(pct(Premium, ThreeYear), [(100.0, 30.0), (1024.0, 34.0)]);
        assert_eq!(pct(Standard, ThreeYear), [(100.0, 18.0), (1024.0, 22.0)]);
        assert_eq!(pct(Premium, OneYear), [(100.0, 18.0), (1024.0, 22.0)]);
        assert_eq!(pct(Standard, OneYear), [(100.0, 18.0), (1024.0, 22.0)]);
        assert!(pct(Flexible, OneYear).is_empty());
        assert!(pct(Ultra, ReservationTerm::None).is_empty());
        assert!(
            c.reservations
                .iter()
                .all(|r| r.source.contains("azure-netapp-files/reservations"))
        );
        assert_eq!(
            "3y".parse::<ReservationTerm>().unwrap(),
            ReservationTerm::ThreeYear
        );
        assert!("2y".parse::<ReservationTerm>().is_err());
    }

    #[test]
    fn a_price_file_without_rows_is_an_error_naming_it() {
        let e = Catalog::from_csv(
            SERVICE_LEVELS_CSV,
            LIMITS_CSV,
            "region,location,tier,meter,unit,retail_price_usd,effective_start,source\n",
            "my-prices.csv",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("my-prices.csv") && e.contains("no price rows"),
            "{e}"
        );
    }

    #[test]
    fn prices_ten_times_outside_the_built_in_range_are_refused() {
        // Built-in flexible capacity: 0.000151..0.000347 USD per GiB-hour over the regions
        // of data/prices.csv. A tenth of the lowest is 0.0000151, ten times the highest
        // 0.00347: just inside both is a price; 1e-300 (a pool for 0.00) and 1,000 (2.24e9 a
        // month for 3 TiB) are not.
        let file = |price: &str| {
            format!(
                "region,location,tier,meter,unit,retail_price_usd,effective_start,source\n\
                 eastus,US East,flexible,capacity,USD per GiB-hour,{price},2025-09-01,t\n"
            )
        };
        for ok in ["0.0000152", "0.00346", "0.0002"] {
            Catalog::from_csv(SERVICE_LEVELS_CSV, LIMITS_CSV, &file(ok), "p.csv")
                .unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
        for (bad, side) in [
            ("1e-300", "below"),
            ("0.000015", "below"),
            ("1000", "above"),
            ("0.0035", "above"),
        ] {
            let e = Catalog::from_csv(SERVICE_LEVELS_CSV, LIMITS_CSV, &file(bad), "p.csv")
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("p.csv: row 2: eastus flexible capacity price")
                    && e.contains(&format!(
                        "more than 10 times {side} the built-in retail prices"
                    ))
                    && e.contains("0.000151..0.000347"),
                "{e}"
            );
        }
        // A figure past 1,000 is quoted in exponent form, not with 301 digits.
        let e = Catalog::from_csv(SERVICE_LEVELS_CSV, LIMITS_CSV, &file("1e300"), "p.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("price 1e300 is not a price"), "{e}");
    }

    #[test]
    fn an_unknown_region_is_quoted_clipped() {
        // A 900,000-character region comes back as its first 60 characters and its length.
        let c = Catalog::builtin().unwrap();
        let e = c.region(&"a".repeat(900_000)).unwrap_err().to_string();
        assert!(e.len() < 2_000, "{} bytes", e.len());
        assert!(e.contains("900,000 characters"), "{}", &e[..200]);
    }

    #[test]
    fn unknown_region_lists_known_ones() {
        let c = Catalog::builtin().unwrap();
        let e = c.region("marsnorth").unwrap_err().to_string();
        assert!(e.contains("marsnorth") && e.contains("eastus"), "{e}");
    }

    #[test]
    fn every_region_of_the_price_file_is_present() {
        // 51 regions appear in the standard-capacity rows of data/prices.csv
        // (cut -d, -f1,3 | grep standard, | sort -u | wc -l).
        let c = Catalog::builtin().unwrap();
        let with_standard = c
            .prices
            .values()
            .filter(|p| {
                p.capacity_usd_per_gib_month
                    .contains_key(&ServiceLevel::Standard)
            })
            .count();
        assert_eq!(with_standard, 51);
    }
}

//! The price file (`data/prices.csv`, or a user's `price_file` of the same columns): rows to
//! [`RegionPrices`] per region, refusing what would plan silently with wrong prices.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use serde::Deserialize;

use super::{CatalogError, RegionPrices, ServiceLevel, ServiceLevelSpec, parse_rows};

/// Largest price file read, bytes (1 MiB). The shipped `data/prices.csv` is about 100 KB
/// for 51 regions and 11 tiers or meters each: 1 MiB holds ten times as many rows (every
/// Azure region and more tiers), and a file beyond it is not a price list.
pub const MAX_PRICE_FILE_BYTES: u64 = 1 << 20;

#[derive(Deserialize)]
struct PriceRow {
    region: String,
    location: String,
    tier: String,
    meter: String,
    unit: String,
    retail_price_usd: f64,
    effective_start: String,
    source: String,
}

/// The text of a user's price file: a regular file of at most [`MAX_PRICE_FILE_BYTES`],
/// read through a bounded reader.
///
/// # Errors
/// [`CatalogError::Io`] naming the file (its message names `price_file`).
pub(super) fn read_price_file(path: &std::path::Path) -> Result<String, CatalogError> {
    let io = |source| CatalogError::Io {
        file: path.display().to_string(),
        source,
    };
    let invalid = |what: String| io(std::io::Error::new(std::io::ErrorKind::InvalidInput, what));
    let meta = std::fs::metadata(path).map_err(io)?;
    // A pipe or device would block or never end: only a regular file.
    if !meta.is_file() {
        return Err(invalid("not a regular file".into()));
    }
    let too_big = || {
        invalid(format!(
            "larger than {} bytes (1 MiB, ten times the shipped data/prices.csv): not a price \
             list",
            MAX_PRICE_FILE_BYTES
        ))
    };
    if meta.len() > MAX_PRICE_FILE_BYTES {
        return Err(too_big());
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_PRICE_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_PRICE_FILE_BYTES {
        return Err(too_big());
    }
    Ok(text)
}

/// What a row of a tier and meter the plan uses is: the unit it must carry.
#[derive(Clone, Copy, PartialEq)]
enum Meter {
    /// A service level's pool capacity, USD per GiB-hour.
    Capacity(ServiceLevel),
    /// Flexible purchased throughput, USD per MiB/s-hour.
    FlexibleThroughput,
    /// Cool tier capacity, USD per GiB-hour.
    CoolCapacity,
    /// Cool data transfer, USD per GiB.
    CoolTransfer,
}

impl Meter {
    /// The meter of `tier`/`meter`, if a plan uses it (backup and double-encrypted tiers are
    /// not part of a datastore plan).
    fn of(levels: &[ServiceLevelSpec], tier: &str, meter: &str) -> Option<Meter> {
        let level = levels
            .iter()
            .find(|s| s.price_tier == tier)
            .map(|s| s.service_level);
        match (level, meter) {
            (Some(level), "capacity") => Some(Meter::Capacity(level)),
            (Some(ServiceLevel::Flexible), "throughput") => Some(Meter::FlexibleThroughput),
            (None, "capacity") if tier == "cool" => Some(Meter::CoolCapacity),
            (None, "transfer") if tier == "cool" => Some(Meter::CoolTransfer),
            _ => None,
        }
    }

    /// The unit every price of this meter is given in.
    fn unit(self) -> &'static str {
        match self {
            Meter::Capacity(_) | Meter::CoolCapacity => "USD per GiB-hour",
            Meter::FlexibleThroughput => "USD per MiB/s-hour",
            Meter::CoolTransfer => "USD per GiB",
        }
    }
}

/// Parses the price rows into prices per region (hourly x `hours` a month).
///
/// # Errors
/// [`CatalogError::Parse`] naming `prices_name` and the row: a price outside 0..=1,000 USD
/// per unit, a unit other than its meter's, a capacity price of 0, a (region, tier, meter)
/// given twice (naming both rows); or no rows at all.
pub(super) fn parse_prices(
    levels: &[ServiceLevelSpec],
    hours: f64,
    prices_csv: &str,
    prices_name: &str,
) -> Result<BTreeMap<String, RegionPrices>, CatalogError> {
    let mut prices: BTreeMap<String, RegionPrices> = BTreeMap::new();
    let mut seen: HashMap<(String, String, String), usize> = HashMap::new();
    let reference = builtin_ranges();
    for (i, r) in parse_rows::<PriceRow>(prices_name, prices_csv)?
        .into_iter()
        .enumerate()
    {
        let row = i + 2;
        let bad = |detail: String| CatalogError::Parse {
            file: prices_name.to_string(),
            row,
            detail,
        };
        let key = (r.region.clone(), r.tier.clone(), r.meter.clone());
        if let Some(first) = seen.insert(key, row) {
            return Err(bad(format!(
                "{} {} {}: a second price (the first is row {first}); give each region, tier \
                 and meter once",
                r.region, r.tier, r.meter
            )));
        }
        check_price(&r).map_err(bad)?;
        let Some(meter) = Meter::of(levels, &r.tier, &r.meter) else {
            continue; // backup, double-encrypted tiers: not part of a datastore plan
        };
        check_meter(&r, meter).map_err(bad)?;
        check_plausible(&r, &reference).map_err(bad)?;
        add_row(&mut prices, &r, meter, hours);
    }
    if prices.is_empty() {
        return Err(CatalogError::Parse {
            file: prices_name.to_string(),
            row: 1,
            detail: "no price rows (expected region,location,tier,meter,unit,\
                     retail_price_usd,effective_start,source)"
                .into(),
        });
    }
    if prices
        .values()
        .all(|p| p.capacity_usd_per_gib_month.is_empty())
    {
        return Err(CatalogError::Parse {
            file: prices_name.to_string(),
            row: 1,
            detail: "no service-level capacity rows (tier standard, premium, ultra or \
                     flexible, meter capacity, unit 'USD per GiB-hour'): no pool can be priced \
                     in any region"
                .into(),
        });
    }
    Ok(prices)
}

/// A price is a finite 0..=1,000 USD per unit: ANF meters cost fractions of a cent per
/// GiB-hour, and 1,000 keeps every monthly figure finite.
fn check_price(r: &PriceRow) -> Result<(), String> {
    if !r.retail_price_usd.is_finite() || r.retail_price_usd < 0.0 || r.retail_price_usd > 1000.0 {
        return Err(format!(
            "price {} is not a price (expected 0..1000 USD per unit)",
            crate::numbers::show_setting(r.retail_price_usd)
        ));
    }
    Ok(())
}

/// How far a price file's price may lie from the built-in retail prices of its tier and
/// meter: at most this many times the highest built-in region's price, at least the lowest
/// one's divided by it. The built-in retail prices of one meter differ at most 2.3 times
/// across regions (`data/prices.csv`: flexible capacity 0.000151..0.000347 USD per
/// GiB-hour), so a price ten times outside that range is not a regional price or a
/// discount but a slip (a monthly price in an hourly column, a misplaced exponent): the
/// plan would price ANF at 0.00 or billions a month without a word.
const PLAUSIBLE_FACTOR: f64 = 10.0;

/// The built-in prices' range (lowest, highest) per (tier, meter), from the compiled-in
/// `data/prices.csv` (empty if it could not be read: then nothing is compared).
fn builtin_ranges() -> HashMap<(String, String), (f64, f64)> {
    let mut out: HashMap<(String, String), (f64, f64)> = HashMap::new();
    for r in parse_rows::<PriceRow>("prices.csv", super::PRICES_CSV).unwrap_or_default() {
        let p = r.retail_price_usd;
        out.entry((r.tier, r.meter))
            .and_modify(|(lo, hi)| {
                *lo = lo.min(p);
                *hi = hi.max(p);
            })
            .or_insert((p, p));
    }
    out
}

/// A used meter's price within [`PLAUSIBLE_FACTOR`] of the built-in prices' range for its
/// tier and meter, or why not.
fn check_plausible(
    r: &PriceRow,
    reference: &HashMap<(String, String), (f64, f64)>,
) -> Result<(), String> {
    let Some(&(lo, hi)) = reference.get(&(r.tier.clone(), r.meter.clone())) else {
        return Ok(());
    };
    let p = r.retail_price_usd;
    if p >= lo / PLAUSIBLE_FACTOR && p <= hi * PLAUSIBLE_FACTOR {
        return Ok(());
    }
    let g = crate::numbers::show_setting;
    Err(format!(
        "{} {} {} price {} {}: more than {} times {} the built-in retail prices of that meter \
         ({}..{} {} across the regions of data/prices.csv), so a slip rather than a price \
         (a monthly figure in an hourly column, a misplaced exponent)",
        r.region,
        r.tier,
        r.meter,
        g(p),
        r.unit,
        g(PLAUSIBLE_FACTOR),
        if p < lo { "below" } else { "above" },
        g(lo),
        g(hi),
        r.unit
    ))
}

/// A used meter's row carries the meter's unit (a changed unit would be read as the wrong
/// price), and a capacity price is above zero (a free pool plans at 0.00 USD).
fn check_meter(r: &PriceRow, meter: Meter) -> Result<(), String> {
    if r.unit != meter.unit() {
        return Err(format!(
            "{} {} {}: unit '{}', expected '{}' (prices are read in that unit only)",
            r.region,
            r.tier,
            r.meter,
            r.unit,
            meter.unit()
        ));
    }
    if matches!(meter, Meter::Capacity(_) | Meter::CoolCapacity) && r.retail_price_usd <= 0.0 {
        return Err(format!(
            "{} {} capacity price {}: a pool would cost nothing; give the price, or leave \
             the row out (the level is then not offered in the region)",
            r.region, r.tier, r.retail_price_usd
        ));
    }
    if meter == Meter::FlexibleThroughput && r.retail_price_usd <= 0.0 {
        return Err(format!(
            "{} {} throughput price {}: purchased MiB/s would cost nothing; give the price, \
             or leave the row out",
            r.region, r.tier, r.retail_price_usd
        ));
    }
    if !is_iso_date(&r.effective_start) {
        return Err(format!(
            "{} {} {}: effective_start '{}' is not a date YYYY-MM-DD",
            r.region,
            r.tier,
            r.meter,
            r.effective_start.chars().take(40).collect::<String>()
        ));
    }
    Ok(())
}

/// Whether `s` is a calendar-shaped date `YYYY-MM-DD` (month 01..=12, day 01..=31).
fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return false;
    }
    if !digits(5..7) || !digits(8..10) {
        return false;
    }
    let month = (b[5] - b'0') * 10 + (b[6] - b'0');
    let day = (b[8] - b'0') * 10 + (b[9] - b'0');
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// Adds a checked row to its region's prices (monthly = hourly x `hours`).
fn add_row(prices: &mut BTreeMap<String, RegionPrices>, r: &PriceRow, meter: Meter, hours: f64) {
    let entry = prices
        .entry(r.region.clone())
        .or_insert_with(|| RegionPrices {
            region: r.region.clone(),
            location: r.location.clone(),
            capacity_usd_per_gib_month: BTreeMap::new(),
            flexible_throughput_usd_per_mibps_month: None,
            cool_capacity_usd_per_gib_month: None,
            cool_transfer_usd_per_gib: None,
            effective_start: String::new(),
            capacity_effective_start: BTreeMap::new(),
            flexible_throughput_effective_start: None,
            cool_capacity_effective_start: None,
            cool_transfer_effective_start: None,
            source: r.source.clone(),
        });
    let price = r.retail_price_usd;
    match meter {
        Meter::Capacity(level) => {
            entry
                .capacity_usd_per_gib_month
                .insert(level, price * hours);
            entry
                .capacity_effective_start
                .insert(level, r.effective_start.clone());
        }
        Meter::FlexibleThroughput => {
            entry.flexible_throughput_usd_per_mibps_month = Some(price * hours);
            entry.flexible_throughput_effective_start = Some(r.effective_start.clone());
        }
        Meter::CoolCapacity => {
            entry.cool_capacity_usd_per_gib_month = Some(price * hours);
            entry.cool_capacity_effective_start = Some(r.effective_start.clone());
        }
        Meter::CoolTransfer => {
            entry.cool_transfer_usd_per_gib = Some(price);
            entry.cool_transfer_effective_start = Some(r.effective_start.clone());
        }
    }
    if r.effective_start > entry.effective_start {
        entry.effective_start = r.effective_start.clone();
    }
}

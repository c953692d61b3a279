//! A user's host price file (`host_price_file`): a CSV with the columns
//! `sku,term,usd_per_hour,region,source`, at most 1 MiB, one row per SKU and term, each
//! price [`MIN_USD_PER_HOST_HOUR`]..[`MAX_USD_PER_HOST_HOUR`] USD per host-hour; every error names the file and,
//! where one is at fault, the row.

use std::io::Read;
use std::path::Path;

use super::SizingError;
use super::host_price::{HostPrice, HostTerm, MAX_USD_PER_HOST_HOUR, MIN_USD_PER_HOST_HOUR};
use crate::numbers::{clip, group_thousands};
use crate::vsan::VsanCatalog;

/// Largest host price file read, bytes: a row per SKU and term is under 1 kB even with a
/// long `source` note, so 1 MiB holds thousands of rows; a larger file is not a price list.
const MAX_PRICE_FILE_BYTES: u64 = 1024 * 1024;

/// The columns of a host price file, in order.
const COLUMNS: [&str; 5] = ["sku", "term", "usd_per_hour", "region", "source"];

/// The rows of the host price file at `path`.
///
/// # Errors
/// As [`super::HostPrices::with_file`].
pub(super) fn read_price_file(
    path: &Path,
    catalog: &VsanCatalog,
) -> Result<Vec<HostPrice>, SizingError> {
    let file = path.display().to_string();
    let text = read_bounded(path, &file)?;
    parse_file(&text, &file, catalog)
}

/// A [`SizingError::PriceFile`] of `file`.
fn file_error(file: &str, row: Option<usize>, detail: String) -> SizingError {
    SizingError::PriceFile {
        file: file.to_string(),
        row,
        detail,
    }
}

/// The text of a regular file of at most [`MAX_PRICE_FILE_BYTES`], read through a bounded
/// reader (the size the metadata reports is not trusted: a file may grow).
fn read_bounded(path: &Path, file: &str) -> Result<String, SizingError> {
    let err = |detail: String| file_error(file, None, detail);
    let unreadable = |e: std::io::Error| err(format!("the file cannot be read: {e}"));
    // A directory, device or pipe is refused before it is opened (opening a pipe blocks).
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if meta.is_dir() {
        return Err(err("is a directory, not a host price file".into()));
    }
    if !meta.is_file() {
        return Err(err(
            "is not a regular file (a device, pipe or socket): only a file is read".into(),
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_PRICE_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_PRICE_FILE_BYTES {
        return Err(err(format!(
            "the file is larger than {} bytes, more than a host price list holds",
            group_thousands(MAX_PRICE_FILE_BYTES as f64, 0)
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| err("the file is not UTF-8 text".into()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
    if text.trim().is_empty() {
        return Err(err(format!(
            "the file is empty: expected the header {} and one row per SKU and term",
            COLUMNS.join(",")
        )));
    }
    Ok(text)
}

/// Each column's index in the header.
fn column_indices(headers: &csv::StringRecord, file: &str) -> Result<[usize; 5], SizingError> {
    let mut out = [0; 5];
    for (slot, name) in out.iter_mut().zip(COLUMNS) {
        *slot = headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                file_error(
                    file,
                    Some(1),
                    format!(
                        "the header has no column '{name}' (columns: {})",
                        COLUMNS.join(",")
                    ),
                )
            })?;
    }
    Ok(out)
}

/// The rows of a host price file's text.
pub(super) fn parse_file(
    text: &str,
    file: &str,
    catalog: &VsanCatalog,
) -> Result<Vec<HostPrice>, SizingError> {
    let csv_err = |e: csv::Error| {
        let row = e.position().map(|p| p.line() as usize);
        file_error(file, row, format!("the file is not valid CSV: {e}"))
    };
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    let columns = column_indices(rdr.headers().map_err(csv_err)?, file)?;
    let mut added: Vec<(usize, HostPrice)> = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let row = i + 2;
        let price = parse_row(&rec.map_err(csv_err)?, &columns, row, file, catalog)?;
        if let Some((first, _)) = added
            .iter()
            .find(|(_, p)| p.sku == price.sku && p.term == price.term)
        {
            return Err(file_error(
                file,
                Some(row),
                format!(
                    "{} {} in row {row} is given twice (first in row {first})",
                    price.sku, price.term
                ),
            ));
        }
        added.push((row, price));
    }
    if added.is_empty() {
        return Err(file_error(
            file,
            None,
            "the file has a header and no rows: give one row per SKU and term".into(),
        ));
    }
    Ok(added.into_iter().map(|(_, p)| p).collect())
}

/// One row of a host price file.
fn parse_row(
    rec: &csv::StringRecord,
    columns: &[usize; 5],
    row: usize,
    file: &str,
    catalog: &VsanCatalog,
) -> Result<HostPrice, SizingError> {
    let err = |detail: String| file_error(file, Some(row), detail);
    let mut fields = [""; 5];
    for ((field, &i), name) in fields.iter_mut().zip(columns).zip(COLUMNS) {
        *field = rec.get(i).ok_or_else(|| {
            err(format!(
                "row {row} has no '{name}' field (it has {} field(s))",
                rec.len()
            ))
        })?;
    }
    let [sku, term, price, region, source] = fields;
    let key = sku.to_ascii_lowercase();
    if !catalog.hosts.iter().any(|h| h.sku == key) {
        let known: Vec<&str> = catalog.hosts.iter().map(|h| h.sku.as_str()).collect();
        return Err(err(format!(
            "host SKU '{}' in row {row} is not in data/avs_hosts.csv ({})",
            clip(sku),
            known.join(", ")
        )));
    }
    let term: HostTerm = term.parse().map_err(|_| {
        err(format!(
            "term '{}' in row {row} is not payg, 1y, 3y or 5y",
            clip(term)
        ))
    })?;
    let usd_per_hour = parse_price(price)
        .map_err(|why| err(format!("price '{}' in row {row} {why}", clip(price))))?;
    Ok(HostPrice {
        sku: key,
        term,
        usd_per_hour,
        // Clipped here, so every message quoting them stays short (a region of 500 KB is
        // no region name, and never the plan's).
        region: clip(region),
        source: format!("{file} row {row}: {}", clip(source)),
    })
}

/// A price in USD per host-hour from [`MIN_USD_PER_HOST_HOUR`] to
/// [`MAX_USD_PER_HOST_HOUR`], or why not.
pub(super) fn parse_price(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| "is not a number (USD per host-hour)".to_string())?;
    if !v.is_finite() {
        return Err("is not a USD figure".into());
    }
    if v < MIN_USD_PER_HOST_HOUR {
        return Err(format!(
            "is below {} USD per host-hour: AVS list prices are 8 to 25 and reserved terms \
             about half, so a price of 0 would make the hosts free; leave the row out to use \
             the built-in price",
            MIN_USD_PER_HOST_HOUR
        ));
    }
    if v > MAX_USD_PER_HOST_HOUR {
        return Err(format!(
            "is above {} USD per host-hour (AVS list prices are around 10): a typo, or a \
             monthly or yearly price?",
            group_thousands(MAX_USD_PER_HOST_HOUR, 0)
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizing::HostPrices;

    fn catalog() -> VsanCatalog {
        VsanCatalog::builtin().unwrap()
    }

    /// A file of `text` in a fresh scratch folder (removed by the caller).
    fn scratch(name: &str, text: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("dsplan-prices-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("hosts.csv");
        std::fs::write(&file, text).unwrap();
        (dir, file)
    }

    fn error(name: &str, text: &[u8]) -> (Option<usize>, String) {
        let (dir, file) = scratch(name, text);
        let e = HostPrices::default()
            .with_file(&file, &catalog())
            .unwrap_err();
        let _ = std::fs::remove_dir_all(dir);
        match &e {
            SizingError::PriceFile { row, .. } => (*row, e.to_string()),
            other => panic!("not a price file error: {other}"),
        }
    }

    const HEADER: &str = "sku,term,usd_per_hour,region,source\n";

    #[test]
    fn a_file_over_1_mib_is_refused_and_one_at_the_limit_read() {
        // 1 MiB = 1,048,576 bytes. The header and one row, padded with spaces in the
        // source field up to exactly 1,048,576 bytes, are read; one byte more is refused.
        let row = "av36p,3y,5,eastus,";
        let pad = 1_048_576 - HEADER.len() - row.len() - 1;
        let text = format!("{HEADER}{row}{}\n", "x".repeat(pad));
        assert_eq!(text.len(), 1_048_576);
        let (dir, file) = scratch("limit", text.as_bytes());
        let prices = HostPrices::default().with_file(&file, &catalog()).unwrap();
        assert_eq!(prices.rows.len(), 1);
        std::fs::write(&file, format!("{text} ")).unwrap();
        let e = HostPrices::default()
            .with_file(&file, &catalog())
            .unwrap_err()
            .to_string();
        let _ = std::fs::remove_dir_all(dir);
        assert!(
            e.contains("larger than 1,048,576 bytes") && e.contains("`host_price_file`"),
            "{e}"
        );
        assert!(!e.contains("row"), "{e}");
    }

    #[test]
    fn files_without_rows_are_refused_naming_the_file() {
        let (row, e) = error("empty", b"");
        assert_eq!(row, None);
        assert!(e.contains("hosts.csv: the file is empty"), "{e}");
        let (row, e) = error("blank", b"  \n\n");
        assert_eq!(row, None);
        assert!(e.contains("the file is empty"), "{e}");
        let (row, e) = error("header", HEADER.as_bytes());
        assert_eq!(row, None);
        assert!(e.contains("the file has a header and no rows"), "{e}");
        assert!(!e.contains("row 0") && !e.contains("--"), "{e}");
    }

    #[test]
    fn a_directory_is_not_a_price_file() {
        let dir = std::env::temp_dir().join(format!("dsplan-prices-{}-dir", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = HostPrices::default()
            .with_file(&dir, &catalog())
            .unwrap_err()
            .to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(e.contains("is a directory"), "{e}");
    }

    #[test]
    fn column_and_row_errors_quote_names_and_say_the_row() {
        let (row, e) = error("column", b"sku,term,usd_per_hour,source\nav36p,3y,5,x\n");
        assert_eq!(row, Some(1));
        assert!(
            e.contains("no column 'region'") && !e.contains("`region`"),
            "{e}"
        );
        let (row, e) = error(
            "term",
            format!("{HEADER}av36p,3y,5,,a\nav64,2y,6,,b\n").as_bytes(),
        );
        assert_eq!(row, Some(3));
        assert!(
            e.contains("term '2y' in row 3 is not payg, 1y, 3y or 5y"),
            "{e}"
        );
        assert!(!e.contains("host_term"), "{e}");
        let (_, e) = error("sku", format!("{HEADER}av99,3y,5,,a\n").as_bytes());
        assert!(e.contains("host SKU 'av99' in row 2"), "{e}");
        let (_, e) = error("short", format!("{HEADER}av36p,3y\n").as_bytes());
        assert!(e.contains("row 2 has no 'usd_per_hour' field"), "{e}");
        let (row, e) = error(
            "twice",
            format!("{HEADER}av36p,3y,5,,a\nAV36P,3y,6,,b\n").as_bytes(),
        );
        assert_eq!(row, Some(3));
        assert!(
            e.contains("av36p 3y in row 3 is given twice (first in row 2)"),
            "{e}"
        );
    }

    #[test]
    fn prices_must_be_numbers_from_half_a_dollar_to_1000_usd_per_host_hour() {
        for (price, why) in [
            ("1e308", "above 1,000 USD per host-hour"),
            ("1e15", "above 1,000 USD per host-hour"),
            ("1000.01", "above 1,000 USD per host-hour"),
            ("inf", "not a USD figure"),
            ("NaN", "not a USD figure"),
            ("-1", "below 0.5 USD per host-hour"),
            // Free hosts, either sign of zero, and a price per minute (9.20 / 60).
            ("0", "below 0.5 USD per host-hour"),
            ("-0", "below 0.5 USD per host-hour"),
            ("0.153", "below 0.5 USD per host-hour"),
            ("ten", "not a number"),
        ] {
            let (row, e) = error(
                "price",
                format!("{HEADER}av36p,3y,{price},eastus,a\n").as_bytes(),
            );
            assert_eq!(row, Some(2));
            assert!(
                e.contains(&format!("price '{price}' in row 2 is {why}")),
                "{e}"
            );
        }
        // The bounds themselves are prices.
        let (dir, file) = scratch(
            "bound",
            format!("{HEADER}av36p,3y,1000,,a\nav64,3y,0.5,,b\n").as_bytes(),
        );
        let p = HostPrices::default().with_file(&file, &catalog()).unwrap();
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(
            p.price("av36p", HostTerm::ThreeYear).unwrap().usd_per_hour,
            1000.0
        );
        assert_eq!(
            p.price("av64", HostTerm::ThreeYear).unwrap().usd_per_hour,
            0.5
        );
    }

    #[test]
    fn long_fields_are_clipped_in_errors_and_in_the_rows_kept() {
        // A 500,000-character SKU or term is quoted as its first 60 characters, "..." and
        // its length, so the error stays under 1,000 bytes (was 500,000 and more).
        let long = "x".repeat(500_000);
        for row in [format!("{long},3y,5,,a"), format!("av36p,{long},5,,a")] {
            let (row_no, e) = error("long", format!("{HEADER}{row}\n").as_bytes());
            assert_eq!(row_no, Some(2));
            assert!(e.len() < 1_000, "{} bytes", e.len());
            assert!(e.contains("... (500,000 characters)' in row 2"), "{e}");
        }
        // A long region and source are kept clipped, so every warning quoting them is too:
        // 60 characters + "... (500,000 characters)" = 84 characters.
        let (dir, file) = scratch(
            "longregion",
            format!("{HEADER}av36p,3y,5,{long},{long}\n").as_bytes(),
        );
        let p = HostPrices::default().with_file(&file, &catalog()).unwrap();
        let _ = std::fs::remove_dir_all(dir);
        let row = p.price("av36p", HostTerm::ThreeYear).unwrap();
        assert_eq!(row.region.chars().count(), 84, "{}", row.region);
        assert!(
            row.source.ends_with(&format!("row 2: {}", row.region)),
            "{}",
            row.source
        );
    }
}

//! Reading inputs held in memory (the web page's uploads): the same formats as the path
//! entry, and a `.zip` holding the `RVTools_tab*.csv` files of a CSV folder. Nothing is
//! written to disk.

use std::io::Read;
use std::path::Path;

use crate::ingest::{CsvTab, Held, IngestError, Input, ReadLimits, csvfile, merge, quality, xlsx};
use crate::inventory::Inventory;
use crate::numbers::clip;

/// Largest sum of the declared uncompressed sizes of the `RVTools_tab*.csv` entries of one
/// zip: 4 GiB. Each entry is also bounded by the xlsx part caps
/// ([`MAX_PART_BYTES`](crate::ingest::MAX_PART_BYTES), and [`MAX_RATIO`](crate::ingest::MAX_RATIO)
/// past [`RATIO_FLOOR_BYTES`](crate::ingest::RATIO_FLOOR_BYTES)): a 100,000-VM export's CSV
/// tabs take about 1 GB together.
pub const MAX_ZIP_CSV_BYTES: u64 = 4 << 30;

/// Reads one input held in memory, as [`read_input`](crate::ingest::read_input) reads a
/// file: `name` (the uploaded file's name) decides the format by its extension and names the
/// input in messages and [`Source::file`](crate::inventory::Source::file).
///
/// - `.xlsx` / `.xlsm`: an RVTools or Live Optics workbook, after the same package checks as
///   a file (part sizes, inflation ratio, `uniqueCount`, cell references);
/// - `.csv`: a single vInfo CSV (or, by its name, another tab: refused as for a file);
/// - `.zip`: the `RVTools_tab*.csv` files of a CSV folder (the folder layout, format
///   `csv-folder`; entries in subfolders count, other entries are ignored and not inflated).
///   Each entry is inflated into memory, bounded by its declared size, the xlsx part caps
///   and [`MAX_ZIP_CSV_BYTES`] for all of them.
///
/// # Errors
/// As [`read_input`](crate::ingest::read_input); [`IngestError::UnsupportedExtension`] for
/// another extension; [`IngestError::NotASpreadsheet`] for a zip that cannot be read;
/// [`IngestError::NoRvtoolsFiles`] for a zip without `RVTools_tab*.csv` entries;
/// [`IngestError::Malformed`] for an entry over the caps or that fails to inflate.
pub fn read_input_bytes(name: &str, bytes: &[u8]) -> Result<Inventory, IngestError> {
    read_input_bytes_within(name, bytes, ReadLimits::default())
}

/// [`read_input_bytes`] within `limits`.
fn read_input_bytes_within(
    name: &str,
    bytes: &[u8],
    limits: ReadLimits,
) -> Result<Inventory, IngestError> {
    let file = name.to_string();
    let path = Path::new(name);
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let (input, format) = match extension.as_str() {
        "xlsx" | "xlsm" => (
            Input::Xlsx(Box::new(xlsx::open_bytes(bytes, &file)?)),
            "xlsx",
        ),
        "csv" => {
            crate::ingest::single_csv_tab(path, &file)?;
            (Input::CsvFile(Held::Bytes(bytes)), "csv")
        }
        "zip" => (Input::CsvDir(zip_tabs(bytes, &file)?), "csv-folder"),
        _ => {
            return Err(IngestError::UnsupportedExtension {
                file,
                extension: path
                    .extension()
                    .map(|e| clip(&e.to_string_lossy()))
                    .unwrap_or_default(),
            });
        }
    };
    crate::ingest::read_opened(input, file, format, limits)
}

/// Reads every input held in memory and merges them, as
/// [`read_inputs`](crate::ingest::read_inputs) does for files: `(name, bytes)` pairs in
/// order, the same merge (first copy kept) and data-quality checks.
///
/// # Errors
/// [`IngestError::NoInputs`] when `inputs` is empty; the first input's error that cannot
/// be read ([`read_input_bytes`]).
pub fn read_inputs_bytes<N: AsRef<str>, B: AsRef<[u8]>>(
    inputs: &[(N, B)],
) -> Result<Inventory, IngestError> {
    read_inputs_bytes_within(inputs, ReadLimits::default())
}

/// [`read_inputs_bytes`] within `limits`: `limits.max_rows` bounds the rows of each tab
/// and, less the VMs of the inputs before, the VMs of each input (the web page's uploads,
/// read within the server's memory budget).
///
/// # Errors
/// As [`read_inputs_bytes`]; [`IngestError::TooManyRows`] past the cap.
pub fn read_inputs_bytes_within<N: AsRef<str>, B: AsRef<[u8]>>(
    inputs: &[(N, B)],
    limits: ReadLimits,
) -> Result<Inventory, IngestError> {
    if inputs.is_empty() {
        return Err(IngestError::NoInputs);
    }
    let mut parts = Vec::with_capacity(inputs.len());
    let mut vms = 0usize;
    for (name, bytes) in inputs {
        let left = ReadLimits {
            max_rows: limits.max_rows.saturating_sub(vms).max(1),
        };
        let part = read_input_bytes_within(name.as_ref(), bytes.as_ref(), left)?;
        vms = vms.saturating_add(part.vms.len());
        parts.push(part);
    }
    let mut inventory = merge::merge(parts);
    quality::check(&mut inventory);
    Ok(inventory)
}

fn not_a_zip(file: &str, e: impl std::fmt::Display) -> IngestError {
    IngestError::NotASpreadsheet {
        file: file.to_string(),
        detail: format!(
            "not a readable zip of RVTools CSV files ({})",
            clip(&e.to_string())
        ),
    }
}

/// The `RVTools_tab*.csv` entries of a zip, inflated, sorted by tab then name.
fn zip_tabs(bytes: &[u8], file: &str) -> Result<Vec<CsvTab<'static>>, IngestError> {
    let mut zip =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| not_a_zip(file, e))?;
    let mut total = 0u64;
    let mut tabs = Vec::new();
    for index in 0..zip.len() {
        let (entry_name, size, packed) = {
            let entry = zip.by_index_raw(index).map_err(|e| not_a_zip(file, e))?;
            let Some(name) = entry.enclosed_name() else {
                continue;
            };
            (name, entry.size(), entry.compressed_size())
        };
        let is_csv = entry_name
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let Some(tab) = csvfile::tab_of(&entry_name).filter(|_| is_csv) else {
            continue;
        };
        let shown = format!("{file}/{}", clip(&entry_name.display().to_string()));
        crate::ingest::package::check_size(file, &shown, None, size, packed)?;
        total = total.saturating_add(size);
        if total > MAX_ZIP_CSV_BYTES {
            return Err(entry_error(
                &shown,
                format!(
                    "the CSV entries declare more than {} GiB uncompressed together (a zip bomb?)",
                    MAX_ZIP_CSV_BYTES >> 30
                ),
            ));
        }
        let data = inflate(&mut zip, index, size, &shown)?;
        tabs.push(CsvTab {
            tab,
            file: shown,
            data: Held::Owned(data),
        });
    }
    if tabs.is_empty() {
        return Err(IngestError::NoRvtoolsFiles {
            dir: file.to_string(),
            entries: zip.len(),
        });
    }
    tabs.sort_by(|a, b| (&a.tab, &a.file).cmp(&(&b.tab, &b.file)));
    Ok(tabs)
}

fn entry_error(shown: &str, detail: String) -> IngestError {
    IngestError::Malformed {
        file: shown.to_string(),
        sheet: None,
        row: None,
        column: None,
        detail,
    }
}

/// Inflates one entry, never past its declared size (the `zip` crate also fails a read
/// that passes it).
fn inflate<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    index: usize,
    size: u64,
    shown: &str,
) -> Result<Vec<u8>, IngestError> {
    // The declared size is capped above (1 GiB); reserve at most 64 MiB up front.
    let mut data = Vec::with_capacity(usize::try_from(size.min(64 << 20)).unwrap_or(0));
    let read = zip
        .by_index(index)
        .map_err(std::io::Error::other)
        .and_then(|entry| entry.take(size).read_to_end(&mut data));
    match read {
        Ok(_) => Ok(data),
        Err(e) => Err(entry_error(
            shown,
            format!("cannot inflate the zip entry ({})", clip(&e.to_string())),
        )),
    }
}

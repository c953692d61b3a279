//! Reading inputs held in memory (the web page's uploads): the same formats as the path
//! entry, and a `.zip` holding the `RVTools_tab*.csv` files of a CSV folder. Nothing is
//! written to disk.

use std::path::Path;

use crate::ingest::{Held, IngestError, Input, ReadLimits, csvzip, merge, quality, xlsx};
use crate::inventory::Inventory;
use crate::numbers::clip;

/// Reads one input held in memory, as [`read_input`](crate::ingest::read_input) reads a
/// file: `name` (the uploaded file's name) decides the format by its extension and names the
/// input in messages and [`Source::file`](crate::inventory::Source::file).
///
/// - `.xlsx` / `.xlsm`: an RVTools or Live Optics workbook, after the same package checks as
///   a file (part sizes, inflation ratio, `uniqueCount`, cell references);
/// - `.csv`: a single vInfo CSV (or, by its name, another tab: refused as for a file);
/// - `.zip`: the `RVTools_tab*.csv` files of CSV folders (the folder layout, format
///   `csv-folder`), as a `.zip` path is read: each folder of the zip holding an
///   `RVTools_tabvInfo.csv` is one export (named `upload.zip!/folder/` when there are
///   several, whose merge is returned); other entries are ignored. Only the tabs read are
///   inflated, streamed, each bounded by its declared size and the xlsx part caps, and
///   [`MAX_ZIP_CSV_BYTES`](crate::ingest::MAX_ZIP_CSV_BYTES) for all of them; an entry that
///   yields more or less than it declares, or whose CRC-32 differs, is refused.
///
/// # Errors
/// As [`read_input`](crate::ingest::read_input); [`IngestError::UnsupportedExtension`] for
/// another extension; [`IngestError::NotASpreadsheet`] for a zip that cannot be read;
/// [`IngestError::NoRvtoolsFiles`] for a zip without `RVTools_tab*.csv` entries (naming the
/// zips and workbooks it holds); [`IngestError::Malformed`] for an entry over the caps, that
/// fails to inflate or its checks, a tab given twice in one folder, or a folder of tabs
/// without a vInfo beside folders with one.
pub fn read_input_bytes(name: &str, bytes: &[u8]) -> Result<Inventory, IngestError> {
    read_parts_held(name, bytes, ReadLimits::default()).map(crate::ingest::merged)
}

/// [`read_input_bytes`] within `limits`, before a zip's exports are merged.
fn read_parts_bytes(
    name: &str,
    bytes: &[u8],
    limits: ReadLimits,
) -> Result<Vec<Inventory>, IngestError> {
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
            crate::ingest::csvfile::single_csv_tab(path, &file)?;
            (Input::CsvFile(Held::Bytes(bytes)), "csv")
        }
        "zip" => {
            return crate::ingest::read_zip(csvzip::ZipSource::Bytes(bytes), &file, limits);
        }
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
    Ok(vec![crate::ingest::read_opened(
        input, file, format, limits,
    )?])
}

/// [`read_parts_bytes`], each part's sources marked as read from bytes
/// ([`Source::from_bytes`](crate::inventory::Source::from_bytes)).
fn read_parts_held(
    name: &str,
    bytes: &[u8],
    limits: ReadLimits,
) -> Result<Vec<Inventory>, IngestError> {
    let mut parts = read_parts_bytes(name, bytes, limits)?;
    for source in parts.iter_mut().flat_map(|p| p.sources.iter_mut()) {
        source.from_bytes = true;
    }
    Ok(parts)
}

/// Reads files (`paths`) and inputs held in memory (`held`: name and bytes), in that
/// order, and merges them as [`read_inputs`](crate::ingest::read_inputs) does; each file
/// within `limits`, the held inputs within `limits` less the VMs of the held inputs read
/// before (their rows). The planner's reader.
///
/// # Errors
/// [`IngestError::NoInputs`] when both are empty; the first input's error.
pub(crate) fn read_paths_and_bytes<P: AsRef<Path>, N: AsRef<str>, B: AsRef<[u8]>>(
    paths: &[P],
    held: &[(N, B)],
    limits: ReadLimits,
) -> Result<Inventory, IngestError> {
    if paths.is_empty() && held.is_empty() {
        return Err(IngestError::NoInputs);
    }
    let mut parts = Vec::with_capacity(paths.len() + held.len());
    for path in paths {
        parts.extend(crate::ingest::read_parts(path.as_ref(), limits)?);
    }
    parts.extend(read_held(held, limits)?);
    let mut inventory = merge::merge(parts);
    quality::check(&mut inventory);
    Ok(inventory)
}

/// The parts of every input of `held` within `limits` (its rows, less the VMs of the
/// inputs before).
fn read_held<N: AsRef<str>, B: AsRef<[u8]>>(
    held: &[(N, B)],
    limits: ReadLimits,
) -> Result<Vec<Inventory>, IngestError> {
    let mut parts = Vec::with_capacity(held.len());
    let mut vms = 0usize;
    for (name, bytes) in held {
        let left = ReadLimits {
            max_rows: limits.max_rows.saturating_sub(vms).max(1),
            ..limits
        };
        let read = read_parts_held(name.as_ref(), bytes.as_ref(), left)?;
        vms = vms.saturating_add(read.iter().map(|p| p.vms.len()).sum());
        parts.extend(read);
    }
    Ok(parts)
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
    read_paths_and_bytes::<&Path, _, _>(&[], inputs, limits)
}

//! Reading RVTools exports (xlsx, a folder of `RVTools_tab*.csv` files, or a single vInfo
//! CSV) into an [`Inventory`](crate::inventory::Inventory).
//!
//! Architecture invariants:
//! - Columns are found by header name (trimmed, case- and space-insensitive, every known
//!   spelling), never by position.
//! - Reading never panics and never stops at a bad cell: the cell becomes unknown (`None`)
//!   and a [`Warning`](crate::inventory::Warning) names file, sheet, row, column and value.
//!   Only problems that make a whole input unusable are [`IngestError`]s.
//! - xlsx sheets are streamed cell by cell; nothing is sized from the sheet's dimensions.
//!
//! ```no_run
//! let inventory = dsplan::ingest::read_inputs(&["RVTools_export.xlsx"])?;
//! let summary = inventory.summary();
//! println!("{} VMs, {} MiB provisioned", summary.vm_count, summary.provisioned_mib);
//! for w in &inventory.warnings {
//!     eprintln!("warning: {w}");
//! }
//! # Ok::<(), dsplan::ingest::IngestError>(())
//! ```

use std::path::Path;

use crate::inventory::Inventory;

mod csvfile;
mod table;
mod value;
mod vinfo;
mod xlsx;

/// The kind of an [`IngestError`], for callers that branch on it (exit codes, tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// No input path was given.
    NoInputs,
    /// The path does not exist.
    NotFound,
    /// The file exists but cannot be read (permissions, I/O).
    Io,
    /// The extension is not one of `.xlsx`, `.xlsm`, `.csv`.
    UnsupportedExtension,
    /// The file is not a spreadsheet of the kind its extension says (empty, text, garbage).
    NotASpreadsheet,
    /// A directory without any `RVTools_tab*.csv` file.
    NoRvtoolsFiles,
    /// A required sheet (tab) is missing.
    MissingSheet,
    /// A required column is missing from a sheet.
    MissingColumn,
    /// The file's structure is broken (ragged CSV row, broken sheet XML).
    Malformed,
}

/// Errors that stop reading an input. Every variant names the file; the message says what
/// was looked for and what was found.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// No input path was given.
    #[error(
        "no input given: pass an RVTools .xlsx, a folder of RVTools_tab*.csv files, or a vInfo .csv"
    )]
    NoInputs,
    /// The path does not exist.
    #[error("{file}: no such file or directory")]
    NotFound {
        /// The path as given.
        file: String,
    },
    /// The file exists but cannot be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The path as given.
        file: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The extension is not supported.
    #[error(
        "{file}: unsupported file type '{extension}': expected an RVTools .xlsx, a vInfo .csv, \
         or a folder of RVTools_tab*.csv files"
    )]
    UnsupportedExtension {
        /// The path as given.
        file: String,
        /// The extension found (empty when there is none).
        extension: String,
    },
    /// The file is not a spreadsheet of the kind its extension says.
    #[error("{file}: not a spreadsheet: {detail}")]
    NotASpreadsheet {
        /// The path as given.
        file: String,
        /// What was found instead.
        detail: String,
    },
    /// A directory without RVTools CSV files.
    #[error(
        "{dir}: no RVTools_tab*.csv files in this directory ({entries} entries looked at); \
         export with RVTools -c ExportAll2csv or pass the .xlsx"
    )]
    NoRvtoolsFiles {
        /// The directory as given.
        dir: String,
        /// How many directory entries were looked at.
        entries: usize,
    },
    /// A required sheet (tab) is missing.
    #[error("{file}: no '{sheet}' sheet; sheets found: [{}]", .found.join(", "))]
    MissingSheet {
        /// The workbook (or CSV folder) as given.
        file: String,
        /// The sheet looked for.
        sheet: String,
        /// The sheets (or CSV tabs) the input has.
        found: Vec<String>,
    },
    /// A required column is missing.
    #[error(
        "{file} [{sheet}]: required column '{column}' not found (tried: {}); headers found: [{}]",
        .tried.join(", "),
        .found.join(", ")
    )]
    MissingColumn {
        /// The input file.
        file: String,
        /// The sheet.
        sheet: String,
        /// The column's name.
        column: String,
        /// Every spelling tried (matched trimmed, case- and space-insensitively).
        tried: Vec<String>,
        /// The non-empty header cells of the sheet.
        found: Vec<String>,
    },
    /// The file's structure is broken.
    #[error(
        "{file}{}{}{}: {detail}",
        .sheet.as_ref().map(|s| format!(" [{s}]")).unwrap_or_default(),
        .row.map(|r| format!(" row {r}")).unwrap_or_default(),
        .column.as_ref().map(|c| format!(" column '{c}'")).unwrap_or_default()
    )]
    Malformed {
        /// The input file.
        file: String,
        /// The sheet, when known.
        sheet: Option<String>,
        /// The 1-based row, when known.
        row: Option<usize>,
        /// The column, when known.
        column: Option<String>,
        /// What is wrong.
        detail: String,
    },
}

impl IngestError {
    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            IngestError::NoInputs => ErrorKind::NoInputs,
            IngestError::NotFound { .. } => ErrorKind::NotFound,
            IngestError::Io { .. } => ErrorKind::Io,
            IngestError::UnsupportedExtension { .. } => ErrorKind::UnsupportedExtension,
            IngestError::NotASpreadsheet { .. } => ErrorKind::NotASpreadsheet,
            IngestError::NoRvtoolsFiles { .. } => ErrorKind::NoRvtoolsFiles,
            IngestError::MissingSheet { .. } => ErrorKind::MissingSheet,
            IngestError::MissingColumn { .. } => ErrorKind::MissingColumn,
            IngestError::Malformed { .. } => ErrorKind::Malformed,
        }
    }

    /// The input (file or directory) the error is about; `None` for [`IngestError::NoInputs`].
    pub fn file(&self) -> Option<&str> {
        match self {
            IngestError::NoInputs => None,
            IngestError::NotFound { file }
            | IngestError::Io { file, .. }
            | IngestError::UnsupportedExtension { file, .. }
            | IngestError::NotASpreadsheet { file, .. }
            | IngestError::MissingSheet { file, .. }
            | IngestError::MissingColumn { file, .. }
            | IngestError::Malformed { file, .. } => Some(file),
            IngestError::NoRvtoolsFiles { dir, .. } => Some(dir),
        }
    }

    pub(crate) fn from_io(file: &str, e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::NotFound {
            IngestError::NotFound {
                file: file.to_string(),
            }
        } else {
            IngestError::Io {
                file: file.to_string(),
                source: e,
            }
        }
    }
}

/// Reads every input and merges them into one inventory, in the order given.
///
/// Each input is an RVTools `.xlsx` (or `.xlsm`), a folder of `RVTools_tab*.csv` files, or a
/// single vInfo `.csv` (any name). VMs keep their origin (file, sheet, row); warnings of every
/// input are kept.
///
/// # Errors
/// The first input that cannot be read stops the reading with an [`IngestError`] naming the
/// file and the problem; [`IngestError::NoInputs`] when `paths` is empty.
pub fn read_inputs<P: AsRef<Path>>(paths: &[P]) -> Result<Inventory, IngestError> {
    if paths.is_empty() {
        return Err(IngestError::NoInputs);
    }
    let mut inventory = Inventory::default();
    for path in paths {
        let part = read_input(path.as_ref())?;
        inventory.inputs.extend(part.inputs);
        inventory.vms.extend(part.vms);
        inventory.warnings.extend(part.warnings);
    }
    Ok(inventory)
}

/// Reads one input (see [`read_inputs`]).
///
/// # Errors
/// [`IngestError`] naming the file and the problem.
pub fn read_input(path: &Path) -> Result<Inventory, IngestError> {
    let file = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| IngestError::from_io(&file, e))?;
    let mut inventory = Inventory {
        inputs: vec![file.clone()],
        ..Inventory::default()
    };
    if meta.is_dir() {
        read_csv_dir(path, &file, &mut inventory)?;
        return Ok(inventory);
    }
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match extension.as_str() {
        "xlsx" | "xlsm" => read_xlsx(path, &file, &mut inventory)?,
        "csv" => read_vinfo_csv(path, &file, &mut inventory)?,
        _ => {
            return Err(IngestError::UnsupportedExtension {
                file,
                extension: path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            });
        }
    }
    Ok(inventory)
}

fn read_xlsx(path: &Path, file: &str, inventory: &mut Inventory) -> Result<(), IngestError> {
    use calamine::Reader;
    let mut wb = xlsx::open(path, file)?;
    let Some(sheet) = xlsx::find_sheet(&wb, "vInfo") else {
        return Err(IngestError::MissingSheet {
            file: file.to_string(),
            sheet: "vInfo".to_string(),
            found: wb.sheet_names(),
        });
    };
    let mut vms = Vec::new();
    xlsx::read_table(
        &mut wb,
        file,
        &sheet,
        vinfo::FIELDS,
        &mut inventory.warnings,
        |row| {
            if let Some(vm) = vinfo::vm_from_row(row) {
                vms.push(vm);
            }
        },
    )?;
    inventory.vms.extend(vms);
    Ok(())
}

/// A single CSV file: read as vInfo unless its name says it is another RVTools tab.
fn read_vinfo_csv(path: &Path, file: &str, inventory: &mut Inventory) -> Result<(), IngestError> {
    let sheet = match csvfile::tab_of(path) {
        Some(tab) if tab.eq_ignore_ascii_case("vInfo") => tab,
        Some(tab) => {
            return Err(IngestError::MissingSheet {
                file: file.to_string(),
                sheet: "vInfo".to_string(),
                found: vec![tab],
            });
        }
        None => "vInfo".to_string(),
    };
    let text = csvfile::load(path, file)?;
    read_vinfo_csv_text(&text, file, &sheet, inventory)
}

fn read_vinfo_csv_text(
    text: &csvfile::CsvText,
    file: &str,
    sheet: &str,
    inventory: &mut Inventory,
) -> Result<(), IngestError> {
    let mut vms = Vec::new();
    csvfile::read_table(
        text,
        file,
        sheet,
        vinfo::FIELDS,
        &mut inventory.warnings,
        |row| {
            if let Some(vm) = vinfo::vm_from_row(row) {
                vms.push(vm);
            }
        },
    )?;
    inventory.vms.extend(vms);
    Ok(())
}

/// A folder of `RVTools_tab<tab>.csv` files: the tabs found, by name.
fn rvtools_tabs(dir: &Path, name: &str) -> Result<Vec<(String, std::path::PathBuf)>, IngestError> {
    let entries = std::fs::read_dir(dir).map_err(|e| IngestError::from_io(name, e))?;
    let mut seen = 0usize;
    let mut tabs = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| IngestError::from_io(name, e))?;
        seen += 1;
        let path = entry.path();
        let is_csv = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        if !is_csv || !path.is_file() {
            continue;
        }
        if let Some(tab) = csvfile::tab_of(&path) {
            tabs.push((tab, path));
        }
    }
    if tabs.is_empty() {
        return Err(IngestError::NoRvtoolsFiles {
            dir: name.to_string(),
            entries: seen,
        });
    }
    tabs.sort();
    Ok(tabs)
}

fn read_csv_dir(dir: &Path, name: &str, inventory: &mut Inventory) -> Result<(), IngestError> {
    let tabs = rvtools_tabs(dir, name)?;
    let Some((tab, path)) = tabs.iter().find(|(t, _)| t.eq_ignore_ascii_case("vInfo")) else {
        return Err(IngestError::MissingSheet {
            file: name.to_string(),
            sheet: "vInfo".to_string(),
            found: tabs.into_iter().map(|(t, _)| t).collect(),
        });
    };
    let file = path.display().to_string();
    let text = csvfile::load(path, &file)?;
    read_vinfo_csv_text(&text, &file, tab, inventory)
}

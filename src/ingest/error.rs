//! The errors that stop reading an input ([`IngestError`], its [`IngestErrorKind`]) and the
//! bounds on what one read may keep ([`ReadLimits`]).

use crate::ingest::csvzip;

/// The kind of an [`IngestError`], for callers that branch on it (exit codes, tests); named
/// apart from the crate's own [`crate::ErrorKind`] (input, usage, infeasible, internal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IngestErrorKind {
    /// No input path was given.
    NoInputs,
    /// The path does not exist.
    NotFound,
    /// The file exists but cannot be read (permissions, I/O).
    Io,
    /// The extension is not one of `.xlsx`, `.xlsm`, `.csv`, `.zip`.
    UnsupportedExtension,
    /// The file is not a spreadsheet of the kind its extension says (empty, text, garbage).
    NotASpreadsheet,
    /// A directory (or zip) without any `RVTools_tab*.csv` file.
    NoRvtoolsFiles,
    /// A required sheet (tab) is missing.
    MissingSheet,
    /// A required column is missing from a sheet.
    MissingColumn,
    /// The file's structure is broken (ragged CSV row, broken sheet XML).
    Malformed,
    /// The file is another tool's export, recognised but not read
    /// ([`IngestError::ForeignFormat`]).
    ForeignFormat,
    /// One input holds more VMs than a read keeps ([`IngestError::TooManyVms`],
    /// [`ReadLimits::max_vms`]).
    TooManyVms,
}

/// Errors that stop reading an input. Every variant names the file; the message says what
/// was looked for and what was found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IngestError {
    /// No input path was given.
    #[error(
        "no input given: pass an RVTools .xlsx, a folder (or .zip) of RVTools_tab*.csv files, or a vInfo .csv"
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
         or a folder (or .zip) of RVTools_tab*.csv files"
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
    /// An xlsx workbook named `.zip` (it holds `xl/workbook.xml`): read as a zip of CSVs.
    #[error(
        "{file}: an xlsx workbook named .zip (it holds xl/workbook.xml), not a zip of \
         RVTools_tab*.csv files: name it .xlsx and pass it again"
    )]
    WorkbookNamedZip {
        /// The path as given.
        file: String,
    },
    /// A directory without RVTools CSV files.
    #[error(
        "{dir}: no RVTools_tab*.csv files in this {place} ({entries} entries looked at){}; \
         export with RVTools -c ExportAll2csv or pass the .xlsx",
        nested_note(.nested)
    )]
    NoRvtoolsFiles {
        /// The directory (or zip) as given.
        dir: String,
        /// `directory` or `zip`.
        place: String,
        /// How many directory (or zip) entries were looked at.
        entries: usize,
        /// The zips and workbooks it holds (a zip inside the zip is not opened), by name.
        nested: Vec<String>,
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
    /// Another tool's export, recognised by its layout but not read (see the module
    /// `foreign`'s sources): a Nutanix Collector workbook, an Azure Migrate discovery or
    /// assessment report, a PowerCLI `Export-Csv` file, per-tab CSV files without
    /// RVTools' names.
    #[error("{file}: recognised as {format}, which dsplan does not read; {advice}")]
    ForeignFormat {
        /// The input as given.
        file: String,
        /// The format recognised, with what told it (`a Nutanix Collector workbook (sheets
        /// vmList, Metadata)`).
        format: String,
        /// Why it is not read and what to give instead (ends with [`READ_INSTEAD`](crate::ingest::READ_INSTEAD)).
        advice: String,
    },
    /// A VM sheet without either capacity column (`Provisioned MiB`, `In Use MiB`) and no
    /// VM's capacity known otherwise: every VM would be left out of a plan for "no
    /// capacity data".
    #[error(
        "{file} [{sheet}]: {vms} VMs but no capacity column (missing: {}), so no VM's \
         storage is known{hint}",
        .missing.join(", ")
    )]
    NoCapacityColumns {
        /// The input file.
        file: String,
        /// The VM sheet (`vInfo`).
        sheet: String,
        /// The capacity columns missing, by their RVTools names.
        missing: Vec<String>,
        /// VM rows read.
        vms: usize,
        /// What the sheet looks like (a Hyper-V inventory) and what dsplan reads instead,
        /// starting with `; `.
        hint: String,
    },
    /// A tab holds more rows than [`ReadLimits::max_rows`].
    #[error("{file} [{sheet}]: more than {max_rows} rows, the most this reader keeps per tab")]
    TooManyRows {
        /// The input file.
        file: String,
        /// The sheet (tab).
        sheet: String,
        /// [`ReadLimits::max_rows`].
        max_rows: usize,
    },
    /// One input (a zip's exports together) holds more VMs than [`ReadLimits::max_vms`]:
    /// the reading ends at the first VM row past the cap.
    #[error(
        "{file} [{sheet}]: more than {} VMs, the most dsplan reads from one input (one \
         vCenter runs at most 40,000 powered-on VMs, vSphere configuration maximums); give \
         each vCenter's export as an input of its own (a library caller raises the cap: \
         ReadLimits::max_vms)",
        crate::numbers::group_thousands(*.max_vms as f64, 0)
    )]
    TooManyVms {
        /// The input as given (a zip's export: `upload.zip!/folder/`, or the zip's name).
        file: String,
        /// The VM sheet (`vInfo`, Live Optics `VMs`).
        sheet: String,
        /// [`ReadLimits::max_vms`].
        max_vms: usize,
    },
}

/// Most VMs read from one input by default ([`ReadLimits::max_vms`]): 250,000.
///
/// An RVTools export is of one vCenter, and one vCenter Server runs at most 40,000
/// powered-on VMs on 2,500 hosts (VMware's configuration maximums, as restated by Dell's
/// "Planning Guide: Dell VxRail vCenter Server", executive summary,
/// infohub.delltechnologies.com/l/planning-guide-dell-vxrail-vcenter-server-1, read
/// 2026-12-06; VMware's own tool, configmax.broadcom.com, lists the vSphere 8 figures,
/// among them 45,000 registered VMs per vCenter, a figure not checked against a stored
/// copy of that page). The cap leaves more than 5 times that room: a zip or a Live Optics
/// collection of several vCenters, and the 200,000-VM estates of the project's benchmarks,
/// still read; several inputs have a cap each; 1.46 million VM rows (a 63 MiB CSV) end at the first VM past it
/// instead of taking 2 GiB.
pub const MAX_VMS_PER_INPUT: usize = 250_000;

/// Most rows without their record's name (the VM, host or datastore) one CSV tab may hold
/// before its read is refused: 1,000,000. An RVTools export writes none (a blank line at
/// the end at most); such rows make no record and cost no memory
/// (`csvfile::lacks_name`), but each is still parsed, so 30 million of them in a 223 KB
/// zip took 14 to 27 s to read. Four for each VM of [`MAX_VMS_PER_INPUT`] leaves room for
/// any trimmed export.
pub const MAX_NAMELESS_ROWS: usize = 1_000_000;

/// Bounds on what reading one input may keep: the web page's uploads are read within
/// the server's memory budget. [`ReadLimits::default`] bounds only the VMs of one input
/// ([`MAX_VMS_PER_INPUT`]); the rows of a tab are unbounded (the command's inputs).
/// `#[non_exhaustive]`: outside this crate, built from [`ReadLimits::default`] and its
/// chaining setters (`ReadLimits::default().max_rows(100_000)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadLimits {
    /// Most data rows kept from one tab (sheet); a tab with more is refused with
    /// [`IngestError::TooManyRows`] at the first row past it (the reading ends there).
    pub max_rows: usize,
    /// Most VMs kept from one input (a zip's exports together): the VM sheet (`vInfo`,
    /// Live Optics `VMs`) is refused with [`IngestError::TooManyVms`] at the first VM row
    /// past it (the reading ends there; rows without a VM name do not count).
    /// Default [`MAX_VMS_PER_INPUT`]; `usize::MAX` lifts it.
    pub max_vms: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_rows: usize::MAX,
            max_vms: MAX_VMS_PER_INPUT,
        }
    }
}

crate::setters::setters!(ReadLimits {
    max_rows: is: usize;
    max_vms: is: usize;
});

impl IngestError {
    /// The kind of error.
    pub fn kind(&self) -> IngestErrorKind {
        match self {
            IngestError::NoInputs => IngestErrorKind::NoInputs,
            IngestError::NotFound { .. } => IngestErrorKind::NotFound,
            IngestError::Io { .. } => IngestErrorKind::Io,
            IngestError::UnsupportedExtension { .. } => IngestErrorKind::UnsupportedExtension,
            IngestError::NotASpreadsheet { .. } | IngestError::WorkbookNamedZip { .. } => {
                IngestErrorKind::NotASpreadsheet
            }
            IngestError::NoRvtoolsFiles { .. } => IngestErrorKind::NoRvtoolsFiles,
            IngestError::MissingSheet { .. } => IngestErrorKind::MissingSheet,
            IngestError::MissingColumn { .. } | IngestError::NoCapacityColumns { .. } => {
                IngestErrorKind::MissingColumn
            }
            IngestError::ForeignFormat { .. } => IngestErrorKind::ForeignFormat,
            IngestError::TooManyVms { .. } => IngestErrorKind::TooManyVms,
            IngestError::Malformed { .. } | IngestError::TooManyRows { .. } => {
                IngestErrorKind::Malformed
            }
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
            | IngestError::WorkbookNamedZip { file }
            | IngestError::MissingSheet { file, .. }
            | IngestError::MissingColumn { file, .. }
            | IngestError::Malformed { file, .. }
            | IngestError::ForeignFormat { file, .. }
            | IngestError::NoCapacityColumns { file, .. }
            | IngestError::TooManyRows { file, .. }
            | IngestError::TooManyVms { file, .. } => Some(file),
            IngestError::NoRvtoolsFiles { dir, .. } => Some(dir),
        }
    }

    pub(crate) fn from_io(file: &str, e: std::io::Error) -> Self {
        if e.get_ref().is_some_and(|i| i.is::<csvzip::EntryDamaged>()) {
            return csvzip::read_error(file, None, e);
        }
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

/// The end of [`IngestError::NoRvtoolsFiles`]'s first sentence: the zips and workbooks a
/// folder or zip holds, which are not opened there.
fn nested_note(nested: &[String]) -> String {
    match nested {
        [] => String::new(),
        [one] => format!("; it holds {one}: give that file itself (a file inside is not opened)"),
        [first, rest @ ..] => format!(
            "; it holds {first} and {} more: give one of those files itself (a file inside is \
             not opened)",
            rest.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other.
    #[test]
    fn read_limits_setters_set_their_own_field() {
        let set = ReadLimits::default().max_rows(100).max_vms(7);
        assert_eq!(
            set,
            ReadLimits {
                max_rows: 100,
                max_vms: 7
            }
        );
        let rows_only = ReadLimits::default().max_rows(100);
        assert_eq!(
            (rows_only.max_rows, rows_only.max_vms),
            (100, MAX_VMS_PER_INPUT)
        );
    }
}

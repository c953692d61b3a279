//! Reading RVTools exports (xlsx, a folder or `.zip` of `RVTools_tab*.csv` files, or a
//! single vInfo CSV) into an [`Inventory`].
//!
//! Code map:
//! - `xlsx`: streams one sheet cell by cell (calamine's cell reader); nothing is sized from
//!   the sheet's dimensions, so a stray cell at `XFD1048576` or thousands of formatted empty
//!   rows cost nothing; `xlsx_cell` names the cell the reader fails on (`vInfo!G10`).
//! - `csvfile`: one CSV file as a sheet: encoding (BOM, UTF-8, Windows-1252 fallback),
//!   delimiter sniffing, decimal mark decided per file; UTF-8 files in one streaming pass.
//! - `csvzip`: a `.zip` of CSV exports (one per folder holding a vInfo), its entries
//!   inflated only when read and checked against their declared size and CRC-32.
//! - `package`: checks an xlsx zip before calamine reads it (part sizes, inflation ratio,
//!   the shared strings' `uniqueCount`, cell references beyond `XFD1048576`); `entries`:
//!   the names of files and zip entries the readers share (the tab a name implies, a
//!   zip's central directory).
//! - `table`: header resolution (trimmed, case- and space-insensitive, every known spelling)
//!   and typed access to a row's cells, turning bad cells into warnings.
//! - `vinfo`, `tabs`: the columns read from each tab and the records built from a row;
//!   `tab_match`: which VM of vInfo each child row (vCPU, vMemory, vDisk, vPartition,
//!   vSnapshot) belongs to, on the strongest key both sides carry; `join` attaches them;
//!   `vmrows`: the vCPU and
//!   vMemory rows (vMemory's `Consumed`; the power state, template flag, vCenter,
//!   datacenter, cluster and host vInfo left unknown), joined to the VMs of the same input.
//! - `merge`: several inputs into one inventory, duplicates removed; `quality`: the
//!   data-quality checks over the merged inventory.
//! - `foreign`: other tools' exports (Nutanix Collector, Azure Migrate reports, PowerCLI
//!   `Export-Csv`, per-tab CSVs without RVTools' names) told apart where an input is
//!   opened, [`IngestError::ForeignFormat`]; `optional`: an optional tab read or skipped;
//! - `error`: [`IngestError`] and [`ReadLimits`], the bounds of one read (rows per tab, VMs
//!   per input: [`MAX_VMS_PER_INPUT`]); `strings`: one copy per input of each text rows
//!   repeat (a VM's cluster, host, datacenter, vCenter, every record's file and sheet),
//!   shared by the records as they are kept.
//! - `perf`: the per-VM performance CSV ([`read_perf_csv`]), joined to an inventory.
//! - `liveoptics`: a Live Optics xlsx (`VMs`, `ESX Hosts`) into the same inventory, and its
//!   `VM Performance` sheet into the same per-VM figures ([`read_live_optics_perf`]).
//!
//! Architecture invariants:
//! - Columns are found by header name, never by position; only the tracked columns are kept.
//! - Reading never panics and never stops at a bad cell: the cell becomes unknown (`None`)
//!   and a [`Warning`] names file, sheet, row, column and value.
//!   Only problems that make a whole input unusable are [`IngestError`]s.
//! - A missing optional tab or column is unknown (`None`, or absent from
//!   [`Source::tabs`]), never zero.
//!
//! ```
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let inventory = dsplan::ingest::read_inputs(&[fixture])?;
//! let summary = inventory.summary();
//! println!("{} VMs, {} MiB provisioned", summary.vm_count, summary.provisioned_mib);
//! for w in &inventory.warnings {
//!     eprintln!("warning: {w}");
//! }
//! // The fixture's 8 VMs, 3,064 GiB provisioned (examples/make_fixtures.rs).
//! assert_eq!(summary.vm_count, 8);
//! assert_eq!(summary.provisioned_mib, 3_064.0 * 1024.0);
//! # Ok::<(), dsplan::ingest::IngestError>(())
//! ```

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::ingest::table::{FieldSpec, Row};
use crate::inventory::{Inventory, Source, Warning, WarningKind};
use optional::TabContext;

mod bytes;
mod csvfile;
mod csvzip;
mod entries;
mod error;
mod fallback;
mod foreign;
mod join;
mod liveoptics;
mod merge;
mod optional;
mod package;
mod perf;
mod quality;
mod ragged;
mod strings;
mod tab_match;
mod table;
mod tabs;
mod value;
mod vinfo;
mod vm_names;
mod vmrows;
mod xlsx;
mod xlsx_cell;

pub(crate) use bytes::read_paths_and_bytes;
pub use bytes::{read_input_bytes, read_inputs_bytes, read_inputs_bytes_within};
pub use csvfile::MAX_LINE_BYTES;
pub use csvzip::MAX_ZIP_CSV_BYTES;
pub use error::{IngestError, IngestErrorKind, MAX_NAMELESS_ROWS, MAX_VMS_PER_INPUT, ReadLimits};
pub use foreign::READ_INSTEAD;
pub use liveoptics::{
    LIVE_OPTICS_FORMAT, LIVE_OPTICS_PERF_SHEET, PerfBasis, UnknownPerfBasis, read_live_optics_perf,
    read_live_optics_perf_bytes,
};
pub use package::{MAX_PART_BYTES, MAX_RATIO, RATIO_FLOOR_BYTES};
pub use perf::{PerfInput, VmPerf, read_perf_csv};
pub use table::{MAX_COLUMNS, MAX_NAME_CHARS, MAX_TEXT_CHARS};
pub use xlsx::{EMPTY_CELLS_FLOOR, MAX_EMPTY_CELLS_PER_VALUE};

/// Reads every input and merges them into one inventory, in the order given.
///
/// Each input is an RVTools `.xlsx` (or `.xlsm`), a folder of `RVTools_tab*.csv` files, a
/// single vInfo `.csv` (any name), or a Live Optics `.xlsx` (a `VMs` sheet and no `vInfo`:
/// its `VMs` and `ESX Hosts` sheets, [`Source::format`] [`LIVE_OPTICS_FORMAT`]; see
/// [`read_live_optics_perf`] for its `VM Performance` sheet). Besides vInfo (required), the
/// tabs vDisk, vPartition, vHost, vCluster, vDatastore, vSnapshot, vMemory and vMetaData are
/// read when present, and vCPU when some VM's power state, template flag, vCenter,
/// datacenter, cluster or host is unknown in vInfo (then taken from vCPU, else vMemory,
/// with one warning per field and tab); a missing tab is unknown data (see
/// [`Source::tabs`]), and a present tab without its key column is skipped with a warning.
/// The rows of vCPU, vMemory, vDisk, vPartition and vSnapshot are joined to the VMs of the
/// same input on the strongest key both that tab and vInfo carry (`VI SDK Server` + `VM
/// ID`, else `VM UUID`, else `VM ID` + VM name, else the name; one warning per input and
/// weaker key); vMemory's `Consumed` (MiB) becomes
/// [`Vm::memory_consumed_mib`](crate::inventory::Vm::memory_consumed_mib); rows naming no
/// VM of vInfo, and rows matching several, are counted in one warning each.
///
/// Merging first makes one estate of the inputs ([`crate::inventory::identity`]): every
/// spelling of one vCenter is written one way, and a VM two inputs hold (same vCenter and
/// `VM UUID`, else `VM ID`) is taken from the newer export (vMetaData creation date, else
/// the last given), one warning per pair of inputs. Then it keeps the first copy of
/// everything: a VM whose [`VmKey`](crate::inventory::VmKey)
/// was already read from an earlier input is dropped with its disks, partitions and
/// snapshots (a warning names both copies); hosts and clusters are kept once per
/// (`VI SDK Server`, name), datastores once per `URL` (else `Address`, else server + name).
/// Then the data-quality checks run (In Use > Provisioned, duplicate VM names, VM names
/// that are spreadsheet error values such as `#REF!`, VMs on hosts missing from vHost, disks
/// of unknown VMs, overcommitted datastores), each a warning.
///
/// # Errors
/// The first input that cannot be read stops the reading with an [`IngestError`] naming the
/// file and the problem; [`IngestError::NoInputs`] when `paths` is empty.
pub fn read_inputs<P: AsRef<Path>>(paths: &[P]) -> Result<Inventory, IngestError> {
    if paths.is_empty() {
        return Err(IngestError::NoInputs);
    }
    let mut parts = Vec::with_capacity(paths.len());
    for path in paths {
        parts.extend(read_parts(path.as_ref(), ReadLimits::default())?);
    }
    let mut inventory = merge::merge(parts);
    quality::check(&mut inventory);
    Ok(inventory)
}

/// Reads one input as it is, without the cross-input merge or the data-quality checks of
/// [`read_inputs`] (cell-level warnings are included).
///
/// A `.zip` of several exports (one per folder holding a vInfo, see [`read_input_bytes`])
/// gives their merge, as [`read_inputs`] merges them.
///
/// # Errors
/// [`IngestError`] naming the file and the problem.
pub fn read_input(path: &Path) -> Result<Inventory, IngestError> {
    read_parts(path, ReadLimits::default()).map(merged)
}

/// The inventories of one input as the merge takes them: one, or one per export of a zip.
fn merged(mut parts: Vec<Inventory>) -> Inventory {
    match parts.pop() {
        Some(one) if parts.is_empty() => one,
        Some(last) => {
            parts.push(last);
            merge::merge(parts)
        }
        None => Inventory::default(),
    }
}

/// The exports of a zip of RVTools CSV files (a file or an upload), each read as an input
/// within `limits`, the zip's VMs together within `limits.max_vms` (one input, one cap). A
/// zip or workbook inside the zip, beside its exports, is one warning (it is not opened).
fn read_zip(
    source: csvzip::ZipSource<'_>,
    file: &str,
    limits: ReadLimits,
) -> Result<Vec<Inventory>, IngestError> {
    let found = csvzip::exports(source, file)?;
    let mut parts = Vec::with_capacity(found.exports.len());
    let mut vms = 0usize;
    for (name, tabs) in found.exports {
        let left = ReadLimits {
            max_vms: limits.max_vms.saturating_sub(vms),
            ..limits
        };
        let part = read_opened(Input::CsvDir(tabs), name, "csv-folder", left).map_err(|e| {
            match e {
                // The cap named is the input's, not what the exports before left of it.
                IngestError::TooManyVms { file, sheet, .. } => IngestError::TooManyVms {
                    file,
                    sheet,
                    max_vms: limits.max_vms,
                },
                e => e,
            }
        })?;
        vms = vms.saturating_add(part.vms.len());
        parts.push(part);
    }
    if let (Some(first), Some(one)) = (parts.first_mut(), found.nested.first()) {
        let more = match found.nested.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        first.warnings.push(Warning {
            file: file.to_string(),
            ..Warning::plan_wide(
                WarningKind::Layout,
                format!(
                    "the zip also holds {one}{more}, not opened (a zip or workbook inside a zip \
                     is not read): give it as an input of its own if it is an export"
                ),
            )
        });
    }
    Ok(parts)
}

/// [`read_input`] within `limits`, before a zip's exports are merged.
fn read_parts(path: &Path, limits: ReadLimits) -> Result<Vec<Inventory>, IngestError> {
    let file = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| IngestError::from_io(&file, e))?;
    // A FIFO, socket or device would block or stream forever: only files and folders.
    if !meta.is_dir() && !meta.is_file() {
        return Err(IngestError::NotASpreadsheet {
            file,
            detail: "not a regular file or folder (a pipe, socket or device)".into(),
        });
    }
    let (input, format) = if meta.is_dir() {
        (Input::CsvDir(rvtools_tabs(path, &file)?), "csv-folder")
    } else {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match extension.as_str() {
            "xlsx" | "xlsm" => (Input::Xlsx(Box::new(xlsx::open(path, &file)?)), "xlsx"),
            "zip" => {
                return read_zip(csvzip::ZipSource::Path(path.to_path_buf()), &file, limits);
            }
            "csv" => (
                Input::CsvFile(Held::Path(csvfile::single_csv_tab(path, &file)?)),
                "csv",
            ),
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
    };
    Ok(vec![read_opened(input, file, format, limits)?])
}

/// Reads an opened input (any format) into an inventory within `limits`; `format` is
/// [`Source::format`].
fn read_opened(
    mut input: Input<'_>,
    file: String,
    format: &str,
    limits: ReadLimits,
) -> Result<Inventory, IngestError> {
    let foreign = match &input {
        Input::Xlsx(_) => foreign::of_sheets(&input.tab_names()),
        Input::CsvFile(held) => foreign::of_csv(Path::new(&file), &held.head()),
        Input::CsvDir(_) => None,
    };
    if let Some(f) = foreign {
        return Err(f.error(&file));
    }
    if let Input::Xlsx(wb) = &input
        && liveoptics::is_live_optics(wb, &file)?
    {
        return liveoptics::read(input, file, limits);
    }
    let mut inventory = Inventory {
        inputs: vec![file.clone()],
        ..Inventory::default()
    };
    let mut source = Source {
        file: file.clone(),
        format: format.to_string(),
        tabs: Vec::new(),
        rvtools_major_version: None,
        rvtools_version: None,
        created: None,
        server: None,
        vinfo_headers: std::collections::BTreeMap::new(),
        vdatastore_headers: std::collections::BTreeMap::new(),
        vcpu_headers: std::collections::BTreeMap::new(),
        vmemory_headers: std::collections::BTreeMap::new(),
        from_bytes: false,
    };

    // vInfo: required. One copy of each repeated text for every tab of the input.
    let mut strings = strings::Strings::default();
    let mut vms = Vec::new();
    match input.read_tab(
        &file,
        "vInfo",
        vinfo::FIELDS,
        &mut inventory.warnings,
        limits,
        |row| {
            if source.vinfo_headers.is_empty() {
                source.vinfo_headers = header_names(row);
            }
            let Some(mut vm) = vinfo::vm_from_row(row) else {
                return false;
            };
            strings::Share::share(&mut vm, &mut strings);
            vms.push(vm);
            true
        },
    )? {
        Some(name) => source.tabs.push(name),
        None => {
            return Err(IngestError::MissingSheet {
                file,
                sheet: "vInfo".to_string(),
                found: input.tab_names(),
            });
        }
    }
    vm_names::check_vm_names(&vms, format != "xlsx")?;
    inventory.vms = vms;

    let mut ctx = TabContext {
        input: &mut input,
        file: &file,
        warnings: &mut inventory.warnings,
        tabs: &mut source.tabs,
        limits,
        strings: &mut strings,
    };
    // Child rows keep their key cells until the join below.
    let mut disks = Vec::new();
    ctx.optional("vDisk", tabs::DISK_FIELDS, &mut disks, tabs::disk_from_row)?;
    let mut partitions = Vec::new();
    ctx.optional(
        "vPartition",
        tabs::PARTITION_FIELDS,
        &mut partitions,
        tabs::partition_from_row,
    )?;
    ctx.optional(
        "vHost",
        tabs::HOST_FIELDS,
        &mut inventory.hosts,
        tabs::host_from_row,
    )?;
    ctx.optional(
        "vCluster",
        tabs::CLUSTER_FIELDS,
        &mut inventory.clusters,
        tabs::cluster_from_row,
    )?;
    let mut datastore_headers = std::collections::BTreeMap::new();
    ctx.optional(
        "vDatastore",
        tabs::DATASTORE_FIELDS,
        &mut inventory.datastores,
        |row| {
            if datastore_headers.is_empty() {
                datastore_headers = header_names(row);
            }
            tabs::datastore_from_row(row)
        },
    )?;
    let mut snapshots = Vec::new();
    ctx.optional(
        "vSnapshot",
        tabs::SNAPSHOT_FIELDS,
        &mut snapshots,
        tabs::snapshot_from_row,
    )?;
    let mut memory_rows = Vec::new();
    let mut vmemory_headers = std::collections::BTreeMap::new();
    ctx.optional("vMemory", vmrows::VMEMORY_FIELDS, &mut memory_rows, |row| {
        if vmemory_headers.is_empty() {
            vmemory_headers = header_names(row);
        }
        vmrows::vm_row(row)
    })?;
    // vCPU only serves the attributes a trimmed vInfo leaves unknown.
    let mut cpu_rows = Vec::new();
    let mut vcpu_headers = std::collections::BTreeMap::new();
    if vmrows::any_unknown(&inventory.vms) {
        ctx.optional("vCPU", vmrows::VCPU_FIELDS, &mut cpu_rows, |row| {
            if vcpu_headers.is_empty() {
                vcpu_headers = header_names(row);
            }
            vmrows::vm_row(row)
        })?;
    }
    let mut metadata = Vec::new();
    ctx.optional(
        "vMetaData",
        tabs::METADATA_FIELDS,
        &mut metadata,
        tabs::metadata_from_row,
    )?;
    let children = join::Children {
        cpu: cpu_rows,
        memory: memory_rows,
        disks,
        partitions,
        snapshots,
    };
    children.join(&mut inventory, &file, &source.vinfo_headers);
    source.vdatastore_headers = datastore_headers;
    source.vcpu_headers = vcpu_headers;
    source.vmemory_headers = vmemory_headers;
    if let Some(first) = metadata.first() {
        source.rvtools_major_version = first.major_version.clone();
        source.rvtools_version = first.version.clone();
        source.created = first.created.clone();
        source.server = first.server.clone();
    }
    if metadata.len() > 1 {
        inventory.warnings.push(Warning {
            kind: WarningKind::Layout,
            file: file.clone(),
            sheet: Some("vMetaData".to_string()),
            row: None,
            column: None,
            value: None,
            message: format!("{} vMetaData rows; only the first is read", metadata.len()),
            more_alike: 0,
        });
    }
    if let Some(w) = foreign::check_capacity(
        &file,
        &inventory.vms,
        &source.vinfo_headers,
        &inventory.warnings,
    )? {
        inventory.warnings.push(w);
    }
    inventory.sources.push(source);
    Ok(inventory)
}

/// The headers a row's sheet maps its fields to, by field name (only the fields found).
fn header_names(row: &Row<'_, '_>) -> std::collections::BTreeMap<String, String> {
    row.specs
        .iter()
        .zip(&row.resolved.columns)
        .filter_map(|(spec, col)| Some((spec.name.to_string(), col.as_ref()?.1.clone())))
        .collect()
}

/// One opened input.
enum Input<'a> {
    /// An xlsx workbook.
    Xlsx(Box<xlsx::Workbook<'a>>),
    /// A folder (or a zip) of `RVTools_tab<tab>.csv` files, sorted by tab.
    CsvDir(Vec<CsvTab<'a>>),
    /// A single CSV file read as vInfo.
    CsvFile(Held<'a>),
}

/// One `RVTools_tab<tab>.csv` file of a folder or zip.
struct CsvTab<'a> {
    /// The tab (`vInfo`).
    tab: String,
    /// The file as messages name it (its path, or `upload.zip/RVTools_tabvInfo.csv`).
    file: String,
    /// Its bytes.
    data: Held<'a>,
}

/// Where a CSV input's bytes are.
enum Held<'a> {
    /// On disk.
    Path(PathBuf),
    /// An upload in memory.
    Bytes(&'a [u8]),
    /// A zip entry, inflated when read.
    Zip(csvzip::ZipEntry<'a>),
}

impl Held<'_> {
    fn data(&self) -> csvfile::CsvData<'_> {
        match self {
            Held::Path(path) => csvfile::CsvData::Path(path),
            Held::Bytes(bytes) => csvfile::CsvData::Bytes(bytes),
            Held::Zip(entry) => csvfile::CsvData::Zip(entry),
        }
    }

    /// The first bytes (at most 4 KiB) of a file or upload, for [`foreign::of_csv`]; none
    /// of a zip entry (a folder's tabs are told by their names).
    fn head(&self) -> Vec<u8> {
        match self {
            Held::Path(path) => foreign::head_of(path),
            Held::Bytes(bytes) => bytes[..bytes.len().min(4096)].to_vec(),
            Held::Zip(_) => Vec::new(),
        }
    }
}

impl Input<'_> {
    /// The sheets (tabs) the input has.
    fn tab_names(&self) -> Vec<String> {
        match self {
            Input::Xlsx(wb) => wb.sheet_names(),
            Input::CsvDir(tabs) => tabs.iter().map(|t| t.tab.clone()).collect(),
            Input::CsvFile(_) => vec!["vInfo".to_string()],
        }
    }

    /// Reads a tab when the input has it: `Ok(Some(sheet name))`, or `Ok(None)` when absent.
    /// `visit` answers whether the row made a VM (of the VM sheet; `false` for other tabs).
    ///
    /// # Errors
    /// As the readers; [`IngestError::TooManyRows`] past `limits.max_rows` rows and
    /// [`IngestError::TooManyVms`] past `limits.max_vms` VMs: the reading ends at the first
    /// row past the cap (no later row is read, none is kept; a CSV keeps no more named rows
    /// than `limits.max_vms` before it visits them).
    fn read_tab<F>(
        &mut self,
        file: &str,
        tab: &str,
        specs: &[FieldSpec],
        warnings: &mut Vec<Warning>,
        limits: ReadLimits,
        mut visit: F,
    ) -> Result<Option<String>, IngestError>
    where
        F: FnMut(&mut Row<'_, '_>) -> bool,
    {
        let (mut rows, mut vms) = (0usize, 0usize);
        let capped = |row: &mut Row<'_, '_>| {
            rows = rows.saturating_add(1);
            if rows > limits.max_rows {
                return ControlFlow::Break(());
            }
            if visit(row) {
                vms = vms.saturating_add(1);
                if vms > limits.max_vms {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        };
        let caps = (specs, limits.max_rows, limits.max_vms);
        let found = self.read_tab_all(file, tab, caps, warnings, capped)?;
        match found {
            Some(sheet) if rows > limits.max_rows => Err(IngestError::TooManyRows {
                file: file.to_string(),
                sheet,
                max_rows: limits.max_rows,
            }),
            Some(sheet) if vms > limits.max_vms => Err(IngestError::TooManyVms {
                file: file.to_string(),
                sheet,
                max_vms: limits.max_vms,
            }),
            found => Ok(found),
        }
    }

    /// [`Input::read_tab`] until `visit` answers `Break`; `(specs, max_rows, max_named)`:
    /// the tab's fields and the caps a CSV reader stops one row past (it keeps rows before
    /// it visits them, [`csvfile::read_data`]): rows to visit, and rows with a name kept.
    fn read_tab_all<F>(
        &mut self,
        file: &str,
        tab: &str,
        (specs, max_rows, max_named): (&[FieldSpec], usize, usize),
        warnings: &mut Vec<Warning>,
        visit: F,
    ) -> Result<Option<String>, IngestError>
    where
        F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
    {
        match self {
            Input::Xlsx(wb) => {
                let Some(sheet) = xlsx::find_sheet(wb, file, tab)? else {
                    return Ok(None);
                };
                xlsx::read_table(wb, file, &sheet, specs, warnings, visit)?;
                Ok(Some(sheet))
            }
            Input::CsvDir(tabs) => {
                let Some(found) = tabs.iter().find(|t| t.tab.eq_ignore_ascii_case(tab)) else {
                    return Ok(None);
                };
                let data = found.data.data();
                let sheet = (found.tab.as_str(), specs, (max_rows, max_named));
                csvfile::read_data(data, &found.file, sheet, warnings, visit)?;
                Ok(Some(found.tab.clone()))
            }
            Input::CsvFile(held) => {
                if !tab.eq_ignore_ascii_case("vInfo") {
                    return Ok(None);
                }
                let sheet = ("vInfo", specs, (max_rows, max_named));
                csvfile::read_data(held.data(), file, sheet, warnings, visit)?;
                Ok(Some("vInfo".to_string()))
            }
        }
    }
}

/// A folder of `RVTools_tab<tab>.csv` files: the tabs found, sorted by name.
fn rvtools_tabs(dir: &Path, name: &str) -> Result<Vec<CsvTab<'static>>, IngestError> {
    let entries = std::fs::read_dir(dir).map_err(|e| IngestError::from_io(name, e))?;
    let mut seen = 0usize;
    let mut tabs = Vec::new();
    let mut nested = Vec::new();
    let mut others = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| IngestError::from_io(name, e))?;
        seen += 1;
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        others.push(entry.file_name().to_string_lossy().into_owned());
        match entries::tab_of(&path).filter(|_| entries::has_extension(&path, &["csv"])) {
            Some(tab) => tabs.push(CsvTab {
                tab,
                file: path.display().to_string(),
                data: Held::Path(path),
            }),
            None if entries::has_extension(&path, entries::NESTED_EXTENSIONS) => {
                nested.push(crate::numbers::clip(&entry.file_name().to_string_lossy()));
            }
            None => {}
        }
    }
    if tabs.is_empty() {
        if let Some(f) = foreign::of_file_names(others.iter().map(String::as_str)) {
            return Err(f.error(name));
        }
        nested.sort();
        return Err(IngestError::NoRvtoolsFiles {
            dir: name.to_string(),
            place: "directory".to_string(),
            entries: seen,
            nested,
        });
    }
    csvzip::one_file_per_tab(name, &mut tabs)?;
    Ok(tabs)
}

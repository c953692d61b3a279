//! The per-VM performance CSV (`--perf FILE.csv`), joined to an inventory by VM name, in
//! one of two layouts, told apart by the header:
//! - dsplan's own: `vm, iops, throughput_mibps` and optionally `read_pct, block_kib`;
//! - the Azure Migrate import template: `Server name` and per-disk (up to 8) or total
//!   read/write ops and throughput (MB per second, taken as decimal MB and converted to
//!   MiB/s).

use std::ops::ControlFlow;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ingest::IngestError;
use crate::ingest::csvfile;
use crate::ingest::table::{FieldSpec, Row, normalize_header};
use crate::inventory::{Inventory, Origin, VmKey, Warning, WarningKind};

mod join;

pub(crate) use join::{
    FIRST_NOT_JOINED, JoinColumns, RowIds, Unjoined, VmIndex, join_to_inventory,
};

/// One row of a performance CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmPerf {
    /// `vm`: the VM name as written.
    pub vm: String,
    /// The inventory VM the row joins to (by id or name); `None` when no VM or more than
    /// one VM has that name (a warning says which; for a name several VMs share, rows
    /// keyed to each of them are appended, see [`PerfInput::rows`]).
    pub vm_key: Option<VmKey>,
    /// `iops`: I/O operations per second; `None` when missing or invalid.
    pub iops: Option<f64>,
    /// `throughput_mibps`: MiB/s; `None` when missing or invalid.
    pub throughput_mibps: Option<f64>,
    /// `read_pct`: share of reads, 0..=100.
    pub read_pct: Option<f64>,
    /// `block_kib`: average I/O size, KiB (> 0).
    pub block_kib: Option<f64>,
    /// Where the row was read (sheet `perf`).
    pub origin: Origin,
}

/// The rows of a performance CSV and what was wrong with them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PerfInput {
    /// The CSV path as given.
    pub file: String,
    /// Every row with a VM name that names some inventory VM, in file order; then, for each
    /// VM name that several inventory VMs share and no id tells apart, one row per such VM
    /// with the name's largest IOPS and MiB/s (see [`read_perf_csv`]). A row naming no
    /// inventory VM is not kept: it is warned of and counted in
    /// [`PerfInput::rows_not_joined`].
    pub rows: Vec<VmPerf>,
    /// Rows with a VM name that names no inventory VM (warned of, not kept).
    #[serde(default)]
    pub rows_not_joined: usize,
    /// The first five VM names of those rows, clipped as messages quote names.
    #[serde(default)]
    pub first_not_joined: Vec<String>,
    /// Bad cells, unmatched and ambiguous VM names, repeated VMs, grouped per cause (the
    /// first five of a cause kept, the rest counted on the last one kept,
    /// [`Warning::more_alike`]).
    pub warnings: Vec<Warning>,
}

impl PerfInput {
    /// Takes in the rows [`Unjoined`] dropped while reading: their count, first names and
    /// warnings (after the reader's own).
    pub(crate) fn take_unjoined(&mut self, unjoined: Unjoined) {
        self.rows_not_joined += unjoined.rows;
        self.first_not_joined = unjoined.first_names;
        self.warnings.extend(unjoined.warnings);
    }

    /// Appends `other` (another workbook's figures): its rows, its rows not joined (the
    /// first names kept to [`FIRST_NOT_JOINED`] in all) and its warnings; the files named
    /// together.
    pub(crate) fn append(&mut self, mut other: PerfInput) {
        self.file = format!("{}, {}", self.file, other.file);
        self.rows.append(&mut other.rows);
        self.rows_not_joined += other.rows_not_joined;
        let room = FIRST_NOT_JOINED.saturating_sub(self.first_not_joined.len());
        self.first_not_joined
            .extend(other.first_not_joined.into_iter().take(room));
        self.warnings.append(&mut other.warnings);
    }
}

const VM: usize = 0;
const IOPS: usize = 1;
const MIBPS: usize = 2;
const READ_PCT: usize = 3;
const BLOCK_KIB: usize = 4;

const FIELDS: &[FieldSpec] = &[
    FieldSpec::required("vm", &["vm", "VM Name", "Name"]),
    FieldSpec::number("iops", &["iops", "IOPS total", "Total IOPS"]),
    FieldSpec::number(
        "throughput_mibps",
        &["throughput_mibps", "Throughput MiB/s", "MiB/s", "MiBps"],
    ),
    FieldSpec::number("read_pct", &["read_pct", "Read %", "Read pct"]),
    FieldSpec::number("block_kib", &["block_kib", "Block KiB", "Block size KiB"]),
];

/// Reads a per-VM performance CSV (delimiter, encoding and decimal mark handled as for
/// RVTools CSV files) and joins its rows to `inventory` by VM name. A header with a
/// `Server name` column is read as the Azure Migrate import template (see the module
/// docs); its rows are in sheet `azure-migrate`.
///
/// Columns are found by name (trimmed, case- and space-insensitive): `vm` (required),
/// `iops`, `throughput_mibps`, `read_pct`, `block_kib`. Negative rates, `read_pct` outside
/// 0..=100 and a `block_kib` of 0 are warnings (value unknown). A VM name that matches no
/// inventory VM is a warning and the row keeps `vm_key: None`; a VM named in more than one
/// row is a warning (every row is kept). A name that N inventory VMs share gives each of
/// them the largest IOPS and the largest MiB/s of that name's rows (rows appended to
/// [`PerfInput::rows`]; one warning for all such names: the targets may count these
/// figures up to N times, the safe side, rather than drop them).
///
/// # Errors
/// [`IngestError`] for a missing or unreadable file, binary data, a ragged row, a file
/// without a `vm` column, or one with neither an `iops` nor a `throughput_mibps` column
/// (each listing the spellings tried).
pub fn read_perf_csv(path: &Path, inventory: &Inventory) -> Result<PerfInput, IngestError> {
    let file = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| IngestError::from_io(&file, e))?;
    if !meta.is_file() {
        return Err(IngestError::NotASpreadsheet {
            file,
            detail: "not a regular file (a folder, pipe, socket or device)".into(),
        });
    }
    let mut out = PerfInput {
        file: file.clone(),
        ..PerfInput::default()
    };
    let mut rows = Vec::new();
    let index = VmIndex::new(inventory);
    let mut unjoined = Unjoined::default();
    let no_ids = RowIds::default();
    // The VM column's header as the file spells it, for the warnings (known at the first
    // row).
    let mut vm_column: Option<String> = None;
    let mut keep = |row: &mut Row<'_, '_>, r: VmPerf, slot: usize, specs: &[FieldSpec]| {
        let name = vm_column.get_or_insert_with(|| row.resolved.header(slot, specs));
        let columns = JoinColumns { name, id: None };
        if unjoined.keeps(&index, &r, &no_ids, columns) {
            rows.push(r);
        }
    };
    let vm_header = if is_azure_migrate(path) {
        let resolved = csvfile::read_file(
            path,
            &file,
            "azure-migrate",
            AZURE_MIGRATE_FIELDS,
            &mut out.warnings,
            |row| {
                if let Some(r) = azure_migrate_from_row(row) {
                    keep(row, r, AM_VM, AZURE_MIGRATE_FIELDS);
                }
                ControlFlow::Continue(())
            },
        )?;
        resolved.header(AM_VM, AZURE_MIGRATE_FIELDS)
    } else {
        let resolved = csvfile::read_file(path, &file, "perf", FIELDS, &mut out.warnings, |row| {
            if let Some(r) = perf_from_row(row) {
                keep(row, r, VM, FIELDS);
            }
            ControlFlow::Continue(())
        })?;
        no_rate_column(&resolved, &file)?;
        out.warnings
            .extend(unknown_columns(&resolved.unknown, &file));
        resolved.header(VM, FIELDS)
    };
    out.take_unjoined(unjoined);
    let columns = JoinColumns {
        name: &vm_header,
        id: None,
    };
    join_to_inventory(&mut rows, &[], &index, columns, &mut out.warnings);
    out.rows = rows;
    Ok(out)
}

/// Refuses a perf CSV whose header has neither an IOPS nor a MiB/s column: every row would
/// be 0 IOPS and 0 MiB/s, a capacity-only plan without a word.
///
/// # Errors
/// [`IngestError::Malformed`] naming the file and every spelling tried for both columns.
fn no_rate_column(resolved: &super::table::Resolved, file: &str) -> Result<(), IngestError> {
    let found = |slot: usize| resolved.columns.get(slot).is_some_and(Option::is_some);
    if found(IOPS) || found(MIBPS) {
        return Ok(());
    }
    let tried = |slot: usize| FIELDS[slot].aliases.join("', '");
    Err(IngestError::Malformed {
        file: file.to_string(),
        sheet: Some("perf".into()),
        row: Some(1),
        column: None,
        detail: format!(
            "no performance column: expected an IOPS column (tried '{}') or a MiB/s column \
             (tried '{}'), matched trimmed and ignoring case and spaces",
            tried(IOPS),
            tried(MIBPS)
        ),
    })
}

/// Most unrecognised columns warned about one by one; the rest are counted in one warning.
const UNKNOWN_COLUMNS_NAMED: usize = 10;

/// A warning per header cell of the perf CSV that is no known column (the first
/// [`UNKNOWN_COLUMNS_NAMED`], then one for the rest), naming the nearest field and its
/// spellings: `throughput_mbps` is read as nothing, so the MiB/s target would silently be 0.
fn unknown_columns(unknown: &[String], file: &str) -> Vec<Warning> {
    let warning = |column: Option<String>, message: String| Warning {
        kind: WarningKind::Layout,
        file: file.to_string(),
        sheet: Some("perf".into()),
        row: Some(1),
        column,
        value: None,
        message,
        more_alike: 0,
    };
    let mut out: Vec<Warning> = unknown
        .iter()
        .take(UNKNOWN_COLUMNS_NAMED)
        .map(|h| {
            let spec = nearest_field(h);
            warning(
                Some(h.clone()),
                format!(
                    "column '{h}' is not a known column and is ignored; the nearest is {}, \
                     spelt '{}' (trimmed, ignoring case and spaces)",
                    spec.name,
                    spec.aliases.join("', '")
                ),
            )
        })
        .collect();
    if unknown.len() > UNKNOWN_COLUMNS_NAMED {
        out.push(warning(
            None,
            format!(
                "{} more columns are not known columns and are ignored",
                crate::numbers::group_thousands((unknown.len() - UNKNOWN_COLUMNS_NAMED) as f64, 0)
            ),
        ));
    }
    out
}

/// The field of [`FIELDS`] with a spelling nearest to `header` (fewest single-character
/// edits between the normalized names).
fn nearest_field(header: &str) -> &'static FieldSpec {
    let h = normalize_header(header);
    let distance = |spec: &FieldSpec| {
        spec.aliases
            .iter()
            .map(|a| crate::spelling::edit_distance(&h, &normalize_header(a)))
            .min()
            .unwrap_or(usize::MAX)
    };
    FIELDS
        .iter()
        .min_by_key(|s| distance(s))
        .unwrap_or(&FIELDS[VM])
}

/// Most IOPS one VM's row may hold: 10 million, far above the largest published ANF
/// figures (the whole AVS test: 585,000 IOPS). A figure beyond is a data error.
const MAX_VM_IOPS: f64 = 10_000_000.0;

/// Most MiB/s one VM's row may hold: 1,000,000, far above the largest published ANF figure
/// (a large volume: 12,800 MiB/s). A figure beyond is a data error.
const MAX_VM_MIBPS: f64 = 1_000_000.0;

/// A rate of `row`, checked against what one VM drives: `value` (in `what`, `IOPS` or
/// `MiB/s`, after any conversion of the cell) when within the limit ([`MAX_VM_IOPS`],
/// [`MAX_VM_MIBPS`]); else unknown, with a warning at the cell of `slot`, named by its
/// header as the file spells it, or at the row for a figure summed over several cells
/// (`slot` `None`).
pub(crate) fn within_vm_limit(
    row: &mut Row<'_, '_>,
    slot: Option<usize>,
    value: Option<f64>,
    what: &str,
) -> Option<f64> {
    let limit = if what == "IOPS" {
        MAX_VM_IOPS
    } else {
        MAX_VM_MIBPS
    };
    let v = value?;
    if v.is_finite() && v <= limit {
        return Some(v);
    }
    let message =
        format!("{v:e} {what}, more than any VM drives (limit {limit:e}); treated as unknown");
    match slot {
        Some(slot) => row.warn(WarningKind::Value, slot, message),
        None => row.warn_row(WarningKind::Value, message),
    }
    None
}

fn perf_from_row(row: &mut Row<'_, '_>) -> Option<VmPerf> {
    let vm = row.name(VM, "VM")?;
    let iops = row.non_negative(IOPS);
    let iops = within_vm_limit(row, Some(IOPS), iops, "IOPS");
    let throughput_mibps = row.non_negative(MIBPS);
    let throughput_mibps = within_vm_limit(row, Some(MIBPS), throughput_mibps, "MiB/s");
    let read_pct = row.number(READ_PCT).and_then(|v| {
        if (0.0..=100.0).contains(&v) {
            Some(v)
        } else {
            row.warn(
                WarningKind::Value,
                READ_PCT,
                "expected 0..=100; value treated as unknown".to_string(),
            );
            None
        }
    });
    let block_kib = row.number(BLOCK_KIB).and_then(|v| {
        if v > 0.0 {
            Some(v)
        } else {
            row.warn(
                WarningKind::Value,
                BLOCK_KIB,
                "expected a size above 0; value treated as unknown".to_string(),
            );
            None
        }
    });
    Some(VmPerf {
        vm,
        vm_key: None,
        iops,
        throughput_mibps,
        read_pct,
        block_kib,
        origin: row.origin(),
    })
}

// ---- Azure Migrate import CSV ----

/// Field indices of the Azure Migrate import layout: the server name, the four
/// "Total disks" columns, then four columns for each of up to 8 disks.
const AM_VM: usize = 0;
const AM_TOTAL: usize = 1;
const AM_DISK: usize = 5;
/// Disks the Azure Migrate template allows.
const AM_DISKS: usize = 8;

/// Columns of the Azure Migrate import template (learn.microsoft.com/azure/migrate/
/// tutorial-discover-import): mandatory fields carry a leading `*` in the template.
const AZURE_MIGRATE_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("Server name", &["Server name", "*Server name"]),
    FieldSpec::number(
        "Total disks read ops",
        &[
            "Total disks read ops",
            "Total disks read ops (operations per second)",
        ],
    ),
    FieldSpec::number(
        "Total disks write ops",
        &[
            "Total disks write ops",
            "Total disks write ops (operations per second)",
        ],
    ),
    FieldSpec::number(
        "Total disks read throughput",
        &[
            "Total disks read throughput",
            "Total disks read throughput (MB per second)",
            "Total disks read throughput (MBps)",
        ],
    ),
    FieldSpec::number(
        "Total disks write throughput",
        &[
            "Total disks write throughput",
            "Total disks write throughput (MB per second)",
            "Total disks write throughput (MBps)",
        ],
    ),
    FieldSpec::number(
        "Disk 1 read ops",
        &["Disk 1 read ops (operations per second)", "Disk 1 read ops"],
    ),
    FieldSpec::number(
        "Disk 1 write ops",
        &[
            "Disk 1 write ops (operations per second)",
            "Disk 1 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 1 read throughput",
        &[
            "Disk 1 read throughput (MB per second)",
            "Disk 1 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 1 write throughput",
        &[
            "Disk 1 write throughput (MB per second)",
            "Disk 1 write throughput",
            "Disk 1 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 2 read ops",
        &["Disk 2 read ops (operations per second)", "Disk 2 read ops"],
    ),
    FieldSpec::number(
        "Disk 2 write ops",
        &[
            "Disk 2 write ops (operations per second)",
            "Disk 2 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 2 read throughput",
        &[
            "Disk 2 read throughput (MB per second)",
            "Disk 2 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 2 write throughput",
        &[
            "Disk 2 write throughput (MB per second)",
            "Disk 2 write throughput",
            "Disk 2 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 3 read ops",
        &["Disk 3 read ops (operations per second)", "Disk 3 read ops"],
    ),
    FieldSpec::number(
        "Disk 3 write ops",
        &[
            "Disk 3 write ops (operations per second)",
            "Disk 3 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 3 read throughput",
        &[
            "Disk 3 read throughput (MB per second)",
            "Disk 3 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 3 write throughput",
        &[
            "Disk 3 write throughput (MB per second)",
            "Disk 3 write throughput",
            "Disk 3 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 4 read ops",
        &["Disk 4 read ops (operations per second)", "Disk 4 read ops"],
    ),
    FieldSpec::number(
        "Disk 4 write ops",
        &[
            "Disk 4 write ops (operations per second)",
            "Disk 4 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 4 read throughput",
        &[
            "Disk 4 read throughput (MB per second)",
            "Disk 4 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 4 write throughput",
        &[
            "Disk 4 write throughput (MB per second)",
            "Disk 4 write throughput",
            "Disk 4 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 5 read ops",
        &["Disk 5 read ops (operations per second)", "Disk 5 read ops"],
    ),
    FieldSpec::number(
        "Disk 5 write ops",
        &[
            "Disk 5 write ops (operations per second)",
            "Disk 5 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 5 read throughput",
        &[
            "Disk 5 read throughput (MB per second)",
            "Disk 5 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 5 write throughput",
        &[
            "Disk 5 write throughput (MB per second)",
            "Disk 5 write throughput",
            "Disk 5 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 6 read ops",
        &["Disk 6 read ops (operations per second)", "Disk 6 read ops"],
    ),
    FieldSpec::number(
        "Disk 6 write ops",
        &[
            "Disk 6 write ops (operations per second)",
            "Disk 6 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 6 read throughput",
        &[
            "Disk 6 read throughput (MB per second)",
            "Disk 6 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 6 write throughput",
        &[
            "Disk 6 write throughput (MB per second)",
            "Disk 6 write throughput",
            "Disk 6 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 7 read ops",
        &["Disk 7 read ops (operations per second)", "Disk 7 read ops"],
    ),
    FieldSpec::number(
        "Disk 7 write ops",
        &[
            "Disk 7 write ops (operations per second)",
            "Disk 7 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 7 read throughput",
        &[
            "Disk 7 read throughput (MB per second)",
            "Disk 7 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 7 write throughput",
        &[
            "Disk 7 write throughput (MB per second)",
            "Disk 7 write throughput",
            "Disk 7 write througput",
        ],
    ),
    FieldSpec::number(
        "Disk 8 read ops",
        &["Disk 8 read ops (operations per second)", "Disk 8 read ops"],
    ),
    FieldSpec::number(
        "Disk 8 write ops",
        &[
            "Disk 8 write ops (operations per second)",
            "Disk 8 write ops",
        ],
    ),
    FieldSpec::number(
        "Disk 8 read throughput",
        &[
            "Disk 8 read throughput (MB per second)",
            "Disk 8 read throughput",
        ],
    ),
    FieldSpec::number(
        "Disk 8 write throughput",
        &[
            "Disk 8 write throughput (MB per second)",
            "Disk 8 write throughput",
            "Disk 8 write througput",
        ],
    ),
];

/// MiB/s per MB/s: Azure Migrate's "MB per second" are taken as decimal megabytes.
const MIBPS_PER_MBPS: f64 = 1_000_000.0 / 1_048_576.0;

/// Whether the file's first line is an Azure Migrate import header (it names a
/// `Server name` column).
fn is_azure_migrate(path: &Path) -> bool {
    use std::io::{BufRead, Read};
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = Vec::new();
    let mut reader = std::io::BufReader::new(f).take(64 * 1024);
    if reader.read_until(b'\n', &mut first).is_err() {
        return false;
    }
    let line = String::from_utf8_lossy(&first).to_lowercase();
    line.contains("server name") || line.contains("servername")
}

/// Sums a rate over the disks, or takes the "Total disks" column when it is given.
fn am_rate(row: &mut Row<'_, '_>, total: usize, per_disk: usize) -> Option<f64> {
    if let Some(t) = row.non_negative(AM_TOTAL + total) {
        return Some(t);
    }
    let mut sum = None;
    for k in 0..AM_DISKS {
        if let Some(v) = row.non_negative(AM_DISK + 4 * k + per_disk) {
            *sum.get_or_insert(0.0) += v;
        }
    }
    sum
}

/// One Azure Migrate row as a [`VmPerf`]: IOPS = reads + writes, MiB/s = (read + write
/// MB/s) x 10^6 / 2^20, read share from the operation counts, block size from the two.
fn azure_migrate_from_row(row: &mut Row<'_, '_>) -> Option<VmPerf> {
    let vm = row.name(AM_VM, "Server name")?;
    let reads = am_rate(row, 0, 0);
    let writes = am_rate(row, 1, 1);
    let read_mbps = am_rate(row, 2, 2);
    let write_mbps = am_rate(row, 3, 3);
    let iops = match (reads, writes) {
        (None, None) => None,
        (r, w) => Some(r.unwrap_or(0.0) + w.unwrap_or(0.0)),
    };
    // Sums of read and write columns: no one cell to name.
    let iops = within_vm_limit(row, None, iops, "IOPS");
    let throughput_mibps = match (read_mbps, write_mbps) {
        (None, None) => None,
        (r, w) => Some((r.unwrap_or(0.0) + w.unwrap_or(0.0)) * MIBPS_PER_MBPS),
    };
    let throughput_mibps = within_vm_limit(row, None, throughput_mibps, "MiB/s");
    let read_pct = match (reads, writes) {
        (Some(r), Some(w)) if r + w > 0.0 => Some(100.0 * r / (r + w)),
        _ => None,
    };
    let block_kib = match (iops, throughput_mibps) {
        (Some(i), Some(t)) if i > 0.0 && t > 0.0 => Some(t * 1024.0 / i),
        _ => None,
    };
    Some(VmPerf {
        vm,
        vm_key: None,
        iops,
        throughput_mibps,
        read_pct,
        block_kib,
        origin: row.origin(),
    })
}

//! The per-VM performance CSV (`--perf FILE.csv`): `vm, iops, throughput_mibps` and
//! optionally `read_pct, block_kib`, joined to an inventory by VM name.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ingest::IngestError;
use crate::ingest::csvfile;
use crate::ingest::table::{FieldSpec, Row};
use crate::inventory::{Inventory, Origin, VmKey, Warning};

/// One row of a performance CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmPerf {
    /// `vm`: the VM name as written.
    pub vm: String,
    /// The inventory VM the row joins to (by name); `None` when no VM or more than one VM
    /// has that name (a warning says which).
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
    /// Every row with a VM name, in file order.
    pub rows: Vec<VmPerf>,
    /// Bad cells, unmatched and ambiguous VM names, repeated VMs.
    pub warnings: Vec<Warning>,
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
/// RVTools CSV files) and joins its rows to `inventory` by VM name.
///
/// Columns are found by name (trimmed, case- and space-insensitive): `vm` (required),
/// `iops`, `throughput_mibps`, `read_pct`, `block_kib`. Negative rates, `read_pct` outside
/// 0..=100 and a `block_kib` of 0 are warnings (value unknown). A VM name that matches no
/// inventory VM, or several, is a warning and the row keeps `vm_key: None`; a VM named in
/// more than one row is a warning (every row is kept).
///
/// # Errors
/// [`IngestError`] for a missing or unreadable file, binary data, a ragged row, or a file
/// without a `vm` column (listing the spellings tried).
pub fn read_perf_csv(path: &Path, inventory: &Inventory) -> Result<PerfInput, IngestError> {
    let file = path.display().to_string();
    std::fs::metadata(path).map_err(|e| IngestError::from_io(&file, e))?;
    let mut out = PerfInput {
        file: file.clone(),
        ..PerfInput::default()
    };
    let mut rows = Vec::new();
    csvfile::read_file(path, &file, "perf", FIELDS, &mut out.warnings, |row| {
        if let Some(r) = perf_from_row(row) {
            rows.push(r);
        }
    })?;

    let mut by_name: HashMap<&str, Vec<VmKey>> = HashMap::new();
    for vm in &inventory.vms {
        by_name.entry(vm.name.as_str()).or_default().push(vm.key());
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for r in &mut rows {
        match by_name.get(r.vm.as_str()).map(Vec::as_slice) {
            Some([key]) => r.vm_key = Some(key.clone()),
            Some(keys) => out.warnings.push(row_warning(
                r,
                format!(
                    "VM name '{}' matches {} inventory VMs; the row is not joined",
                    r.vm,
                    keys.len()
                ),
            )),
            None => out.warnings.push(row_warning(
                r,
                format!(
                    "VM '{}' is not in the inventory; the row is not joined",
                    r.vm
                ),
            )),
        }
        if let Some(first) = seen.insert(r.vm.clone(), r.origin.row) {
            let message = format!("VM '{}' already has a row (row {first})", r.vm);
            out.warnings.push(row_warning(r, message));
        }
    }
    out.rows = rows;
    Ok(out)
}

fn row_warning(r: &VmPerf, message: String) -> Warning {
    Warning {
        file: r.origin.file.clone(),
        sheet: Some(r.origin.sheet.clone()),
        row: Some(r.origin.row),
        column: Some("vm".to_string()),
        value: Some(r.vm.clone()),
        message,
    }
}

fn perf_from_row(row: &mut Row<'_, '_>) -> Option<VmPerf> {
    let vm = row.name(VM, "VM")?;
    let iops = row.non_negative(IOPS);
    let throughput_mibps = row.non_negative(MIBPS);
    let read_pct = row.number(READ_PCT).and_then(|v| {
        if (0.0..=100.0).contains(&v) {
            Some(v)
        } else {
            row.warn(
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
        origin: Origin {
            file: row.file.to_string(),
            sheet: row.sheet.to_string(),
            row: row.row,
        },
    })
}

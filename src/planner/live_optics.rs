//! The per-VM figures of Live Optics inputs when no `perf` file is given: each workbook's
//! `VM Performance` sheet, read from the file or from the bytes the planner holds
//! ([`super::Planner::input_bytes`]), never from a file of the same name when the
//! inventory was read from bytes.

use std::path::Path;
use std::sync::Arc;

use crate::error::Error;
use crate::ingest::{self, PerfBasis, PerfInput};
use crate::inventory::{Inventory, Source, Warning, WarningKind};

/// An input held in memory: its name (extension included) and its bytes.
#[derive(Clone)]
pub(super) struct HeldInput {
    /// The name the input is known by (`customer.xlsx`).
    pub(super) name: String,
    /// The file's bytes, shared rather than copied between planners.
    pub(super) bytes: Arc<[u8]>,
}

impl std::fmt::Debug for HeldInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The name and size, not the bytes.
        write!(f, "HeldInput({:?}, {} bytes)", self.name, self.bytes.len())
    }
}

/// How the per-VM figures of a `perf` file add up (the targets' warning says it).
pub(super) const PEAKS_ADDED: &str = "peaks added up: conservative";

/// Without a `perf` file, the `VM Performance` sheets of the Live Optics inputs (peak or
/// average figures by `basis`), with a warning naming the sheet and the basis; `None`
/// when no input is a Live Optics workbook with that sheet. A workbook read from bytes is
/// read again from the bytes in `held`; when they are not there (an inventory read from
/// bytes and handed to the planner), its sheet is not read and a warning in `warnings`
/// says so. The second value says how the figures add up, for the targets' warning.
pub(super) fn live_optics_perf(
    inventory: &Inventory,
    basis: PerfBasis,
    held: &[HeldInput],
    warnings: &mut Vec<Warning>,
) -> Result<(Option<PerfInput>, &'static str), Error> {
    let mut found: Option<PerfInput> = None;
    for source in &inventory.sources {
        if source.format != ingest::LIVE_OPTICS_FORMAT {
            continue;
        }
        let Some(mut perf) = sheet_of(source, inventory, basis, held, warnings)? else {
            continue;
        };
        perf.warnings.push(Warning {
            kind: WarningKind::Performance,
            file: source.file.clone(),
            sheet: Some(ingest::LIVE_OPTICS_PERF_SHEET.to_string()),
            row: None,
            column: None,
            value: None,
            message: format!(
                "no `perf` file: the per-VM performance figures are this Live Optics sheet's \
                 {} figures (`perf_basis`)",
                basis.as_str()
            ),
            more_alike: 0,
        });
        match &mut found {
            None => found = Some(perf),
            Some(all) => all.append(perf),
        }
    }
    let figures = match basis {
        PerfBasis::Peak => PEAKS_ADDED,
        PerfBasis::Average => "averages added up: the estate's peaks are higher",
    };
    Ok((found, figures))
}

/// The `VM Performance` sheet of `source`: from its file, or from its bytes in `held`
/// when it was read from bytes (`None`, with a warning, when they are not there).
fn sheet_of(
    source: &Source,
    inventory: &Inventory,
    basis: PerfBasis,
    held: &[HeldInput],
    warnings: &mut Vec<Warning>,
) -> Result<Option<PerfInput>, Error> {
    if !source.from_bytes {
        let path = Path::new(&source.file);
        return Ok(ingest::read_live_optics_perf(path, inventory, basis)?);
    }
    match held.iter().find(|h| h.name == source.file) {
        Some(h) => Ok(ingest::read_live_optics_perf_bytes(
            &h.name, &h.bytes, inventory, basis,
        )?),
        None => {
            warnings.push(Warning {
                kind: WarningKind::Performance,
                file: source.file.clone(),
                sheet: Some(ingest::LIVE_OPTICS_PERF_SHEET.to_string()),
                row: None,
                column: None,
                value: None,
                message: "this Live Optics workbook was read from bytes the planner does not \
                          hold, so its per-VM performance figures are not read (a file of \
                          that name is not opened instead): give the bytes with \
                          `Planner::input_bytes`, or the figures with `Planner::perf_input`"
                    .to_string(),
                more_alike: 0,
            });
            Ok(None)
        }
    }
}

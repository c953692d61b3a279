//! Streaming reader of xlsx sheets.
//!
//! Cells are pulled one at a time from calamine's cell reader
//! ([`calamine::Xlsx::worksheet_cells_reader`]); only the cells of tracked columns are kept,
//! and only for the current row. The sheet's declared or implied dimensions are never used to
//! allocate anything, so a stray cell at `XFD1048576` or thousands of formatted-but-empty rows
//! cost no memory.

use std::borrow::Cow;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use calamine::{DataRef, Reader, Xlsx, XlsxError};

use crate::ingest::IngestError;
use crate::ingest::table::{FieldSpec, Resolved, Row, resolve};
use crate::ingest::value::{DecimalMark, Value, text_value};
use crate::inventory::Warning;

/// An open workbook.
pub(crate) type Workbook = Xlsx<BufReader<File>>;

/// Opens an xlsx workbook.
///
/// # Errors
/// [`IngestError::NotFound`] / [`IngestError::Io`] when the file cannot be opened,
/// [`IngestError::NotASpreadsheet`] when it is not an xlsx package (empty, text, garbage,
/// another kind of zip).
pub(crate) fn open(path: &Path, file: &str) -> Result<Workbook, IngestError> {
    let f = File::open(path).map_err(|e| IngestError::from_io(file, e))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "the file is empty".to_string(),
        });
    }
    Xlsx::new(BufReader::new(f)).map_err(|e| match e {
        XlsxError::Io(io) => IngestError::from_io(file, io),
        other => IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: format!("not a readable xlsx workbook ({other})"),
        },
    })
}

/// Finds a sheet by name: exact, else trimmed and case-insensitive.
pub(crate) fn find_sheet(wb: &Workbook, name: &str) -> Option<String> {
    let names = wb.sheet_names();
    if let Some(n) = names.iter().find(|n| *n == name) {
        return Some(n.clone());
    }
    names
        .into_iter()
        .find(|n| n.trim().eq_ignore_ascii_case(name))
}

fn to_value<'a>(d: &DataRef<'a>) -> Value<'a> {
    match d {
        DataRef::Empty => Value::Empty,
        DataRef::SharedString(s) => text_value(s),
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => {
            let t = s.trim();
            if t.is_empty() {
                Value::Empty
            } else {
                Value::Text(Cow::Owned(t.to_string()))
            }
        }
        DataRef::Int(i) => Value::Number(*i as f64),
        DataRef::Float(f) => Value::Number(*f),
        DataRef::Bool(b) => Value::Bool(*b),
        DataRef::DateTime(dt) if dt.is_datetime() => {
            // As RVTools writes dates in its CSV export; the 1900/1904 epoch is the
            // workbook's (calamine applies it).
            let (y, mo, d, h, mi, s, _) = dt.to_ymd_hms_milli();
            Value::Text(Cow::Owned(format!(
                "{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"
            )))
        }
        DataRef::DateTime(dt) => Value::Number(dt.as_f64()),
        DataRef::Error(e) => Value::Error(e.to_string()),
    }
}

/// Reads one sheet: the first non-empty row is the header; `visit` gets every later row that
/// has a value in at least one tracked column.
///
/// # Errors
/// [`IngestError::MissingSheet`] when the sheet cannot be opened, [`IngestError::MissingColumn`]
/// for a required field without a column, [`IngestError::Malformed`] when the sheet XML is
/// broken (with the last row read).
pub(crate) fn read_table<F>(
    wb: &mut Workbook,
    file: &str,
    sheet: &str,
    specs: &[FieldSpec],
    warnings: &mut Vec<Warning>,
    mut visit: F,
) -> Result<Resolved, IngestError>
where
    F: FnMut(&mut Row<'_, '_>),
{
    let mut reader = wb
        .worksheet_cells_reader(sheet)
        .map_err(|e| IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: None,
            column: None,
            detail: format!("cannot read the sheet ({e})"),
        })?;
    let mut header_row: Option<u32> = None;
    let mut headers: Vec<(u32, String)> = Vec::new();
    let mut state: Option<(Resolved, Vec<Option<usize>>)> = None;
    let mut cells: Vec<Value<'_>> = vec![Value::Empty; specs.len()];
    let mut cur_row: u32 = 0;
    let mut dirty = false;

    loop {
        let next = reader.next_cell().map_err(|e| IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: Some(cur_row as usize + 1),
            column: None,
            detail: format!("broken sheet data after this row ({e})"),
        })?;
        let Some(cell) = next else { break };
        let (r, c) = cell.get_position();
        let v = to_value(cell.get_value());
        if state.is_none() {
            match header_row {
                None => {
                    if !v.is_empty() {
                        header_row = Some(r);
                        headers.push((c, v.display()));
                    }
                    continue;
                }
                Some(h) if r == h => {
                    if !v.is_empty() {
                        headers.push((c, v.display()));
                    }
                    continue;
                }
                Some(_) => {
                    let resolved = resolve(file, sheet, &headers, specs, warnings)?;
                    let slots = resolved.column_slots();
                    state = Some((resolved, slots));
                    cur_row = r;
                }
            }
        }
        let Some((resolved, slots)) = state.as_ref() else {
            continue;
        };
        if r != cur_row {
            if dirty {
                let mut row = Row {
                    file,
                    sheet,
                    row: cur_row as usize + 1,
                    cells: &cells,
                    resolved,
                    specs,
                    mark: DecimalMark::Point,
                    warnings,
                };
                visit(&mut row);
                cells.iter_mut().for_each(|c| *c = Value::Empty);
                dirty = false;
            }
            cur_row = r;
        }
        if let Some(Some(slot)) = slots.get(c as usize) {
            if !v.is_empty() {
                cells[*slot] = v;
                dirty = true;
            }
        }
    }
    let resolved = match state {
        Some((resolved, _)) => resolved,
        // Header only (or nothing at all): resolve it so a missing required column is
        // reported.
        None => return resolve(file, sheet, &headers, specs, warnings),
    };
    if dirty {
        let mut row = Row {
            file,
            sheet,
            row: cur_row as usize + 1,
            cells: &cells,
            resolved: &resolved,
            specs,
            mark: DecimalMark::Point,
            warnings,
        };
        visit(&mut row);
    }
    Ok(resolved)
}

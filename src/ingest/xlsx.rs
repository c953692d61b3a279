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
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::path::Path;

use calamine::{DataRef, Reader, Xlsx, XlsxError};

use crate::ingest::IngestError;
use crate::ingest::entries::ReadSeek;
use crate::ingest::fallback::Disagreements;
use crate::ingest::table::{FieldSpec, MAX_COLUMNS, Resolved, Row, column_letter, resolve};
use crate::ingest::value::{DecimalMark, Value, text_value};
use crate::inventory::Warning;
use crate::numbers::clip;

/// The reader behind an open workbook (a buffered file, or a cursor over bytes that live
/// for `'a`).
pub(crate) type Source<'a> = Box<dyn ReadSeek + 'a>;

/// An open workbook, and where its bytes are (to scan a sheet again for the cell the
/// reader failed on: [`crate::ingest::xlsx_cell`]).
pub(crate) struct Workbook<'a> {
    xlsx: Xlsx<Source<'a>>,
    origin: Origin<'a>,
}

/// Where a workbook's bytes are.
enum Origin<'a> {
    /// A file.
    Path(std::path::PathBuf),
    /// An upload in memory.
    Bytes(&'a [u8]),
}

impl Workbook<'_> {
    /// The workbook's sheet names, in order.
    pub(crate) fn sheet_names(&self) -> Vec<String> {
        self.xlsx.sheet_names()
    }
}

impl Origin<'_> {
    /// The reference (`G10`) of the first cell of `sheet` after the 0-based `last`, from
    /// the package's bytes (see [`crate::ingest::xlsx_cell::cell_after`]).
    fn cell_after(&self, sheet: &str, last: Option<(u32, u32)>) -> Option<String> {
        use crate::ingest::xlsx_cell::cell_after;
        match self {
            Origin::Path(path) => cell_after(BufReader::new(File::open(path).ok()?), sheet, last),
            Origin::Bytes(bytes) => cell_after(std::io::Cursor::new(*bytes), sheet, last),
        }
    }
}

/// Opens an xlsx workbook.
///
/// # Errors
/// [`IngestError::NotFound`] / [`IngestError::Io`] when the file cannot be opened,
/// [`IngestError::NotASpreadsheet`] when it is not an xlsx package (empty, text, garbage,
/// another kind of zip).
pub(crate) fn open(path: &Path, file: &str) -> Result<Workbook<'static>, IngestError> {
    let f = File::open(path).map_err(|e| IngestError::from_io(file, e))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return Err(empty(file));
    }
    let mut head = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(&f, 8), &mut head)
        .map_err(|e| IngestError::from_io(file, e))?;
    if head.starts_with(&OLE_MAGIC) {
        let mut all = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(&f, MAX_OLE_SCAN_BYTES), &mut all)
            .map_err(|e| IngestError::from_io(file, e))?;
        head.extend(all);
        return Err(ole_file(&head, file));
    }
    crate::ingest::package::check(path, file)?;
    let xlsx = open_reader(Box::new(BufReader::new(f)), file)?;
    Ok(Workbook {
        xlsx,
        origin: Origin::Path(path.to_path_buf()),
    })
}

/// Opens an xlsx workbook held in memory (an upload), after the same package checks as
/// [`open`].
///
/// # Errors
/// [`IngestError::NotASpreadsheet`] when the bytes are empty or not an xlsx package;
/// [`IngestError::Malformed`] for a part the package checks refuse.
pub(crate) fn open_bytes<'a>(bytes: &'a [u8], file: &str) -> Result<Workbook<'a>, IngestError> {
    if bytes.is_empty() {
        return Err(empty(file));
    }
    if bytes.starts_with(&OLE_MAGIC) {
        let scanned = usize::try_from(MAX_OLE_SCAN_BYTES).unwrap_or(usize::MAX);
        return Err(ole_file(&bytes[..bytes.len().min(scanned)], file));
    }
    crate::ingest::package::check_reader(std::io::Cursor::new(bytes), file)?;
    let xlsx = open_reader(Box::new(std::io::Cursor::new(bytes)), file)?;
    Ok(Workbook {
        xlsx,
        origin: Origin::Bytes(bytes),
    })
}

/// The first bytes of an OLE compound file (CFB): what Excel 97-2003 `.xls` workbooks and
/// password-protected (encrypted) `.xlsx` workbooks are ([MS-CFB] 2.2, the header
/// signature).
const OLE_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// How much of an OLE file is searched for its stream names: 64 MiB (an encrypted workbook
/// of a large export; the names sit in the directory sectors, usually near the start).
const MAX_OLE_SCAN_BYTES: u64 = 64 << 20;

/// The error for an OLE compound file given as `.xlsx`: an encrypted workbook when it holds
/// an `EncryptedPackage` stream ([MS-OFFCRYPTO] 2.3.4.4: `EncryptionInfo` and
/// `EncryptedPackage`; stream names are UTF-16LE in the directory entries), else taken as
/// an `.xls` workbook (the Excel 97-2003 format, [MS-XLS] 2.1.2), the usual other one.
fn ole_file(bytes: &[u8], file: &str) -> IngestError {
    let encrypted: Vec<u8> = "EncryptedPackage"
        .encode_utf16()
        .chain([0])
        .flat_map(u16::to_le_bytes)
        .collect();
    let detail = if bytes.windows(encrypted.len()).any(|w| w == encrypted) {
        "an encrypted (password-protected) workbook, which cannot be read: open it in Excel, \
         remove the password (File > Info > Protect Workbook > Encrypt with Password) and \
         save it, or export again from RVTools"
    } else {
        "an .xls workbook: save it as .xlsx (Excel Workbook); the Excel 97-2003 format (an \
         OLE compound file) is not read"
    };
    IngestError::NotASpreadsheet {
        file: file.to_string(),
        detail: detail.to_string(),
    }
}

fn empty(file: &str) -> IngestError {
    IngestError::NotASpreadsheet {
        file: file.to_string(),
        detail: "the file is empty".to_string(),
    }
}

/// calamine's `Xlsx::new` over a checked package, its errors and panics as ours.
fn open_reader<'a>(reader: Source<'a>, file: &str) -> Result<Xlsx<Source<'a>>, IngestError> {
    let opened = std::panic::catch_unwind(AssertUnwindSafe(|| Xlsx::new(reader)));
    match opened {
        Ok(Ok(wb)) => Ok(wb),
        Ok(Err(XlsxError::Io(io))) => Err(IngestError::from_io(file, io)),
        Ok(Err(other)) => Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: format!(
                "not a readable xlsx workbook ({})",
                clip(&other.to_string())
            ),
        }),
        Err(_) => Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "not a readable xlsx workbook (the xlsx reader failed on it)".to_string(),
        }),
    }
}

/// Finds a sheet by name: exact, else trimmed and case-insensitive.
///
/// # Errors
/// [`IngestError::Malformed`] when two sheets answer to the name (`vInfo` and ` vInfo `, or
/// `vInfo` and `VInfo`), naming both: reading one would drop the other's rows and reading
/// both would count a copy twice, and which is meant cannot be told.
pub(crate) fn find_sheet(
    wb: &Workbook<'_>,
    file: &str,
    name: &str,
) -> Result<Option<String>, IngestError> {
    let names = wb.sheet_names();
    let mut matching = names.iter().filter(|n| n.trim().eq_ignore_ascii_case(name));
    match (matching.next(), matching.next()) {
        (Some(a), Some(b)) => Err(IngestError::Malformed {
            file: file.to_string(),
            sheet: None,
            row: None,
            column: None,
            detail: format!(
                "two sheets answer to '{name}': '{}' and '{}'; an export has one, so which \
                 to read cannot be told: delete or rename one",
                clip(a),
                clip(b)
            ),
        }),
        (one, _) => Ok(one.cloned()),
    }
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

/// The sheet's cell stream: the next `(row, column, value)`, with calamine's errors (and, in
/// builds with overflow checks, its panics on impossible cell references) as
/// [`IngestError::Malformed`] naming the last row read.
struct Cells<'a, 'f, 's> {
    reader: calamine::XlsxCellReader<'a, Source<'s>>,
    file: &'f str,
    sheet: &'f str,
    /// Where the workbook's bytes are, to name the cell the reader fails on.
    origin: &'f Origin<'s>,
    /// The position of the last cell read, to refuse a cell at or before it.
    last: Option<(u32, u32)>,
    /// Cells read without a value, and with one (see [`MAX_EMPTY_CELLS_PER_VALUE`]).
    empty: u64,
    filled: u64,
}

/// Empty cells a sheet may hold before [`MAX_EMPTY_CELLS_PER_VALUE`] applies: 1,048,576
/// (2^20, about 0.2 s of reading in a release build; a small export's formatted empty
/// rows stay under it).
pub const EMPTY_CELLS_FLOOR: u64 = 1 << 20;

/// Most empty cells (`<c/>`, or a cell with an empty value) per cell with a value, past
/// [`EMPTY_CELLS_FLOOR`]: 32. RVTools writes the empty cells of a row: the 805-VM workshop
/// export's vInfo has 37,791 empty cells and 11,265 with a value (3.4 per value; the
/// 27-VM lab export 0.2), so 32 leaves ten times that. Without it a sheet of empty cells
/// is read at ~190 ns a cell: an 18 MB workbook holding 1 GiB of `<c/>` (under the 100x
/// ratio) took 38 s; refused after 2^20 of them, it takes well under a second.
pub const MAX_EMPTY_CELLS_PER_VALUE: u64 = 32;

impl<'a> Cells<'a, '_, '_> {
    fn next(&mut self) -> Result<Option<(u32, u32, Value<'a>)>, IngestError> {
        let reader = &mut self.reader;
        let next = std::panic::catch_unwind(AssertUnwindSafe(|| reader.next_cell()));
        match next {
            Ok(Ok(Some(cell))) => {
                let (r, c) = cell.get_position();
                self.in_order((r, c))?;
                let value = to_value(cell.get_value());
                self.count((r, c), value.is_empty())?;
                Ok(Some((r, c, value)))
            }
            Ok(Ok(None)) => Ok(None),
            Ok(Err(XlsxError::Unexpected(e))) if e.contains("string index") => Err(self.bad_cell(
                "it refers to a shared string that the workbook's shared-strings part \
                     (xl/sharedStrings.xml) does not hold",
            )),
            Ok(Err(e)) => Err(self.bad_cell(&clip(&e.to_string()))),
            Err(_) => Err(self.bad_cell("a cell reference the xlsx reader cannot hold")),
        }
    }

    /// The error for a cell the reader cannot read (`why`): named by sheet and reference
    /// (`vInfo!G10`) when the sheet's XML shows which cell follows the last one read, else
    /// as the cell after that one.
    fn bad_cell(&self, why: &str) -> IngestError {
        let found = self.origin.cell_after(self.sheet, self.last);
        let at = found.as_deref().and_then(super::xlsx_cell::position_of);
        let (row, column, detail) = match (found, at) {
            (Some(reference), Some((r, c))) => (
                Some(r as usize + 1),
                Some(column_letter(c)),
                format!(
                    "cell {}!{reference} cannot be read ({why})",
                    clip(self.sheet)
                ),
            ),
            _ => match self.last {
                Some(p) => (
                    Some(p.0 as usize + 1),
                    None,
                    format!(
                        "the cell after {}!{} cannot be read ({why})",
                        clip(self.sheet),
                        cell_ref(p)
                    ),
                ),
                None => (
                    None,
                    None,
                    format!("the sheet's first cell cannot be read ({why})"),
                ),
            },
        };
        IngestError::Malformed {
            file: self.file.to_string(),
            sheet: Some(self.sheet.to_string()),
            row,
            column,
            detail,
        }
    }

    /// Counts a cell, refusing a sheet of mostly empty cells (past [`EMPTY_CELLS_FLOOR`],
    /// more than [`MAX_EMPTY_CELLS_PER_VALUE`] per cell with a value).
    fn count(&mut self, (r, c): (u32, u32), empty: bool) -> Result<(), IngestError> {
        if !empty {
            self.filled += 1;
            return Ok(());
        }
        self.empty += 1;
        if self.empty <= EMPTY_CELLS_FLOOR
            || self.empty <= self.filled.saturating_mul(MAX_EMPTY_CELLS_PER_VALUE)
        {
            return Ok(());
        }
        let n = |v: u64| crate::numbers::group_thousands(v as f64, 0);
        Err(IngestError::Malformed {
            file: self.file.to_string(),
            sheet: Some(self.sheet.to_string()),
            row: Some(r as usize + 1),
            column: Some(column_letter(c)),
            detail: format!(
                "{} empty cells against {} with a value by here: more than {} empty cells and \
                 {MAX_EMPTY_CELLS_PER_VALUE} per value, which no export writes (formatted \
                 empty rows or columns?); delete the rows and columns past the data and save \
                 again",
                n(self.empty),
                n(self.filled),
                n(EMPTY_CELLS_FLOOR)
            ),
        })
    }

    /// Refuses a cell at or before the previous one (a second `A2`, a column or a row going
    /// backwards): the later cell would silently replace the earlier value.
    fn in_order(&mut self, (r, c): (u32, u32)) -> Result<(), IngestError> {
        let previous = self.last.replace((r, c));
        match previous {
            Some(p) if (r, c) <= p => Err(IngestError::Malformed {
                file: self.file.to_string(),
                sheet: Some(self.sheet.to_string()),
                row: Some(r as usize + 1),
                column: Some(column_letter(c)),
                detail: format!(
                    "cells out of order: {} after {} (each cell must come after the one \
                     before it, row by row; a repeated or earlier cell would overwrite a value)",
                    cell_ref((r, c)),
                    cell_ref(p)
                ),
            }),
            _ => Ok(()),
        }
    }
}

/// `A2` for the 0-based position (1, 0).
fn cell_ref((r, c): (u32, u32)) -> String {
    format!("{}{}", column_letter(c), u64::from(r) + 1)
}

/// Adds a header cell, refusing one past Excel's last column ([`MAX_COLUMNS`]) or more
/// than [`MAX_COLUMNS`] header cells (a header row of millions of cells).
fn push_header(
    headers: &mut Vec<(u32, String)>,
    (r, c): (u32, u32),
    v: &Value<'_>,
    (file, sheet): (&str, &str),
) -> Result<(), IngestError> {
    if v.is_empty() {
        return Ok(());
    }
    if c as usize >= MAX_COLUMNS || headers.len() >= MAX_COLUMNS {
        return Err(IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: Some(r as usize + 1),
            column: Some(column_letter(c)),
            detail: format!(
                "the header row reaches past Excel's last column XFD ({} columns); not an \
                 RVTools export",
                crate::numbers::group_thousands(MAX_COLUMNS as f64, 0)
            ),
        });
    }
    headers.push((c, clip_header(v)));
    Ok(())
}

/// Header text as kept: whole up to 4,096 bytes, else [`clip`]ped (no export has such a
/// header; a 100 MB header cell must not be copied into every message).
fn clip_header(v: &Value<'_>) -> String {
    let text = v.display();
    if text.len() > 4096 { clip(&text) } else { text }
}

/// Reads one sheet: the first non-empty row is the header; `visit` gets every later row that
/// has a value in at least one tracked column, until it answers `Break` (the reading ends
/// there: no later cell is read).
///
/// # Errors
/// [`IngestError::MissingSheet`] when the sheet cannot be opened, [`IngestError::MissingColumn`]
/// for a required field without a column, [`IngestError::Malformed`] when the sheet XML is
/// broken (with the last row read) or the header row reaches past column `XFD`.
pub(crate) fn read_table<F>(
    wb: &mut Workbook<'_>,
    file: &str,
    sheet: &str,
    specs: &[FieldSpec],
    warnings: &mut Vec<Warning>,
    mut visit: F,
) -> Result<Resolved, IngestError>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let Workbook { xlsx, origin } = wb;
    let opened = std::panic::catch_unwind(AssertUnwindSafe(move || {
        let xlsx = xlsx; // moved in: the reader borrows it
        xlsx.worksheet_cells_reader(sheet)
    }));
    let reader = match opened {
        Ok(Ok(reader)) => reader,
        failed => {
            let why = match failed {
                Ok(Err(e)) => clip(&e.to_string()),
                _ => "a cell reference the xlsx reader cannot hold".to_string(),
            };
            return Err(IngestError::Malformed {
                file: file.to_string(),
                sheet: Some(sheet.to_string()),
                row: None,
                column: None,
                detail: format!("cannot read the sheet ({why})"),
            });
        }
    };
    let mut cells_in = Cells {
        reader,
        file,
        sheet,
        origin,
        last: None,
        empty: 0,
        filled: 0,
    };
    let mut headers: Vec<(u32, String)> = Vec::new();
    let mut header_row: Option<u32> = None;
    // The first cell after the header row, kept for the data loop.
    let mut first = None;
    while let Some((r, c, v)) = cells_in.next()? {
        match header_row {
            Some(h) if r != h => {
                first = Some((r, c, v));
                break;
            }
            None if v.is_empty() => continue,
            _ => header_row = Some(r),
        }
        push_header(&mut headers, (r, c), &v, (file, sheet))?;
    }
    let resolved = resolve(file, sheet, &headers, specs, warnings)?;
    let Some(first) = first else {
        // Header only (or nothing at all).
        return Ok(resolved);
    };
    let ctx = RowCtx {
        file,
        sheet,
        specs,
        resolved: &resolved,
    };
    read_rows(&mut cells_in, first, &ctx, warnings, &mut visit)?;
    Ok(resolved)
}

/// What every data row of a sheet shares.
struct RowCtx<'c> {
    file: &'c str,
    sheet: &'c str,
    specs: &'c [FieldSpec],
    resolved: &'c Resolved,
}

/// Visits the data rows from `first` on: only tracked cells are kept, for the current row.
/// A `Break` from `visit` ends the reading at once.
fn read_rows<F>(
    cells_in: &mut Cells<'_, '_, '_>,
    first: (u32, u32, Value<'_>),
    ctx: &RowCtx<'_>,
    warnings: &mut Vec<Warning>,
    visit: &mut F,
) -> Result<(), IngestError>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let slots = ctx.resolved.column_slots();
    let mut cells: Vec<Value<'_>> = vec![Value::Empty; ctx.resolved.slot_count()];
    let mut disagreements = Disagreements::new(ctx.resolved);
    let mut cur_row = first.0;
    let mut dirty = false;
    let mut next = Some(first);
    while let Some((r, c, v)) = next {
        if r != cur_row {
            if dirty {
                let visited =
                    visit_row(ctx, (cur_row, &cells), &mut disagreements, warnings, visit);
                if visited.is_break() {
                    return Ok(());
                }
                cells.iter_mut().for_each(|c| *c = Value::Empty);
                dirty = false;
            }
            cur_row = r;
        }
        if let Some(Some(slot)) = slots.get(c as usize)
            && !v.is_empty()
        {
            cells[*slot] = v;
            dirty = true;
        }
        next = cells_in.next()?;
    }
    if dirty && visit_row(ctx, (cur_row, &cells), &mut disagreements, warnings, visit).is_break() {
        return Ok(());
    }
    disagreements.report(ctx.file, ctx.sheet, ctx.resolved, ctx.specs, warnings);
    Ok(())
}

/// Visits one data row (`row`: its 0-based number and its cells), counting its
/// disagreeing fallback cells first.
fn visit_row<F>(
    ctx: &RowCtx<'_>,
    (row, cells): (u32, &[Value<'_>]),
    disagreements: &mut Disagreements,
    warnings: &mut Vec<Warning>,
    visit: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let mut row = Row {
        file: ctx.file,
        sheet: ctx.sheet,
        row: row as usize + 1,
        cells,
        resolved: ctx.resolved,
        specs: ctx.specs,
        mark: DecimalMark::Point,
        warnings,
    };
    disagreements.check(&row);
    visit(&mut row)
}

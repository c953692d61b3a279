//! Reader of RVTools CSV files (`RVTools_tab<tab>.csv` or a single vInfo CSV).
//!
//! What a file's locale decides is sniffed per file:
//! - encoding: a UTF-8 or UTF-16 byte-order mark is honoured; text that is not valid UTF-8
//!   is read as Windows-1252 (what RVTools writes on a western Windows machine);
//! - delimiter: the most frequent of `,` `;` and tab outside quotes in the header line;
//! - decimal mark: from the numbers of the tracked numeric columns (`1.234,5` or `12,5` say
//!   comma, `1,234.5` or `12.5` say point, `8.363.560` says `.` groups thousands); when the
//!   file gives no evidence, the delimiter decides (`;` goes with a decimal comma, as in the
//!   Windows locales that use it; a tab-delimited file without evidence is read with a
//!   point and its ambiguous numbers are reported). Ambiguous cells such as `16.384` follow
//!   the file's decision.
//!
//! One pass over the records does everything: only the tracked cells of each row are kept
//! (in one text arena) until the decimal mark is decided, then the rows are visited. UTF-8
//! files are streamed from disk; others are decoded as a whole first. A cap on the rows
//! visited (the web page's uploads) ends that pass at the first row past it, so the arena
//! never holds more than the cap.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::ingest::IngestError;
use crate::ingest::entries::tab_of;
use crate::ingest::fallback::Disagreements;
use crate::ingest::table::{FieldSpec, MAX_COLUMNS, Resolved, Row, resolve};
use crate::ingest::value::{DecimalMark, MarkEvidence, Value, mark_evidence, text_value};
use crate::inventory::{Warning, WarningKind};

/// Longest line of a CSV file: 16 MiB. An RVTools row is a few KB; even a row of 100 cells at
/// Excel's 32,767-character cell limit is 3.2 MB. It bounds what the CSV parser buffers for
/// one record (a 100 MB one-line file, a 100 MB header field or number cell).
pub const MAX_LINE_BYTES: u64 = 16 << 20;

/// A reader that fails once a line (bytes between two `\n`) passes [`MAX_LINE_BYTES`].
/// Quoted fields with line breaks count as several lines, so the cap can only err on the
/// generous side.
struct LineCap<R> {
    inner: R,
    line_bytes: u64,
}

/// The error [`LineCap`] raises, recognised by [`csv_error`].
#[derive(Debug)]
struct LineTooLong;

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a line longer than {} MiB", MAX_LINE_BYTES >> 20)
    }
}

impl std::error::Error for LineTooLong {}

impl<R: std::io::Read> std::io::Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let got = buf.get(..n).unwrap_or(&[]);
        match got.iter().rposition(|&b| b == b'\n') {
            Some(last) => self.line_bytes = (n - last - 1) as u64,
            None => self.line_bytes += n as u64,
        }
        if self.line_bytes > MAX_LINE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                LineTooLong,
            ));
        }
        Ok(n)
    }
}

/// A CSV file read into memory and decoded.
pub(crate) struct CsvText {
    /// Decoded text; may start with a UTF-8 byte-order mark (skipped through `start`).
    text: String,
    /// Byte offset where the content starts (after a byte-order mark).
    start: usize,
    /// The sniffed delimiter.
    pub delimiter: u8,
}

impl CsvText {
    /// The content, without a byte-order mark.
    pub(crate) fn content(&self) -> &str {
        self.text.get(self.start..).unwrap_or("")
    }
}

/// Where a CSV file's bytes are: on disk, or in memory (an upload, a zip entry).
#[derive(Debug, Clone, Copy)]
pub(crate) enum CsvData<'a> {
    /// A file on disk, streamed.
    Path(&'a Path),
    /// Bytes in memory.
    Bytes(&'a [u8]),
    /// A zip entry, inflated as it is read.
    Zip(&'a crate::ingest::csvzip::ZipEntry<'a>),
}

/// Reads and decodes a CSV file.
///
/// # Errors
/// [`IngestError::NotFound`] / [`IngestError::Io`]; [`IngestError::NotASpreadsheet`] for an
/// empty file or binary data (NUL bytes without a UTF-16 byte-order mark).
pub(crate) fn load(data: CsvData<'_>, file: &str) -> Result<CsvText, IngestError> {
    let bytes = match data {
        CsvData::Path(path) => std::fs::read(path).map_err(|e| IngestError::from_io(file, e))?,
        CsvData::Bytes(bytes) => bytes.to_vec(),
        CsvData::Zip(entry) => {
            use std::io::Read;
            // The declared size is capped (1 GiB); reserve at most 64 MiB up front.
            let mut out =
                Vec::with_capacity(usize::try_from(entry.size().min(64 << 20)).unwrap_or(0));
            entry
                .open()
                .and_then(|mut r| r.read_to_end(&mut out))
                .map_err(|e| IngestError::from_io(file, e))?;
            out
        }
    };
    let (text, start) = decode(bytes, file)?;
    let content = text.get(start..).unwrap_or("");
    if content.trim().is_empty() {
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "the file is empty".to_string(),
        });
    }
    let delimiter = sniff_delimiter(content);
    Ok(CsvText {
        text,
        start,
        delimiter,
    })
}

/// Decodes bytes: BOM first, then UTF-8, then Windows-1252. Returns the text and the byte
/// offset where the content starts (3 after a kept UTF-8 byte-order mark). Valid UTF-8 is
/// taken over without a copy.
pub(crate) fn decode(bytes: Vec<u8>, file: &str) -> Result<(String, usize), IngestError> {
    if let Some((encoding, bom_len)) = encoding_rs::Encoding::for_bom(&bytes) {
        if encoding == encoding_rs::UTF_8 {
            return match String::from_utf8(bytes) {
                Ok(text) => Ok((text, bom_len)),
                Err(e) => {
                    let bytes = e.into_bytes();
                    let text = String::from_utf8_lossy(&bytes[bom_len..]).into_owned();
                    Ok((text, 0))
                }
            };
        }
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Ok((text.into_owned(), 0));
    }
    if bytes.contains(&0) {
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: binary_detail(&bytes),
        });
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, 0)),
        Err(e) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(e.as_bytes());
            Ok((text.into_owned(), 0))
        }
    }
}

/// The most frequent of `,` `;` tab outside quotes on the first line; `,` when none.
pub(crate) fn sniff_delimiter(text: &str) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for b in text.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let candidates = [b',', b';', b'\t'];
    let mut best = 0;
    for i in 1..3 {
        if counts[i] > counts[best] {
            best = i;
        }
    }
    candidates[best]
}

/// A single CSV file is vInfo unless its name says it is another RVTools tab.
pub(crate) fn single_csv_tab(path: &Path, file: &str) -> Result<PathBuf, IngestError> {
    match tab_of(path) {
        Some(tab) if !tab.eq_ignore_ascii_case("vInfo") => Err(IngestError::MissingSheet {
            file: file.to_string(),
            sheet: "vInfo".to_string(),
            found: vec![tab],
        }),
        _ => Ok(path.to_path_buf()),
    }
}

fn csv_error(file: &str, sheet: &str, row: usize, e: &csv::Error) -> IngestError {
    let inner = match e.kind() {
        csv::ErrorKind::Io(io) => io.get_ref(),
        _ => None,
    };
    if let Some(damaged) =
        inner.and_then(|i| i.downcast_ref::<crate::ingest::csvzip::EntryDamaged>())
    {
        return IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: None,
            column: None,
            detail: damaged.to_string(),
        };
    }
    let too_long = inner.is_some_and(|i| i.is::<LineTooLong>());
    let detail = if too_long {
        format!(
            "a line longer than {} MiB; no RVTools row is (a damaged or hostile file?)",
            MAX_LINE_BYTES >> 20
        )
    } else {
        format!(
            "unreadable CSV record ({})",
            crate::numbers::clip(&e.to_string())
        )
    };
    IngestError::Malformed {
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        row: Some(row),
        column: None,
        detail,
    }
}

/// Reads one CSV file as a sheet: the first record is the header; `visit` gets every later
/// record that has a value in at least one tracked column, until it answers `Break` (no
/// later row is visited then).
///
/// The common case, a UTF-8 file (with or without a byte-order mark), is streamed from
/// disk. A file that turns out not to be UTF-8 (Windows-1252, UTF-16) is decoded as a whole
/// through [`load`] and read again; nothing has been visited before that switch.
///
/// # Errors
/// As [`load`]; [`IngestError::MissingColumn`] for a required field without a column;
/// [`IngestError::Malformed`] for a record whose field count differs from the header's
/// (a ragged row) or that the CSV parser rejects; [`IngestError::NotASpreadsheet`] for NUL
/// bytes (binary data).
pub(crate) fn read_file<F>(
    path: &Path,
    file: &str,
    sheet: &str,
    specs: &[FieldSpec],
    warnings: &mut Vec<Warning>,
    visit: F,
) -> Result<Resolved, IngestError>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let tab = (sheet, specs, (usize::MAX, usize::MAX));
    read_data(CsvData::Path(path), file, tab, warnings, visit)
}

/// [`read_file`] over a file on disk or bytes in memory; `(sheet, specs, (max_rows,
/// max_named))`: the sheet's name, its fields, the most rows to visit and the most rows
/// with a name (the records the rows make: a VM of vInfo) to visit: the rows are read no
/// further than one past either (visited, so the visitor sees that the tab passes its
/// cap), which bounds the rows kept before they are visited.
///
/// # Errors
/// As [`read_file`].
pub(crate) fn read_data<F>(
    data: CsvData<'_>,
    file: &str,
    (sheet, specs, (max_rows, max_named)): (&str, &[FieldSpec], (usize, usize)),
    warnings: &mut Vec<Warning>,
    mut visit: F,
) -> Result<Resolved, IngestError>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let warnings_before = warnings.len();
    if let Some((input, delimiter)) = open_utf8(data, file)? {
        let rdr = csv_reader(input, delimiter);
        let sheet_ctx = SheetCtx {
            file,
            sheet,
            specs,
            delimiter,
            max_rows,
            max_named,
        };
        if let Some(resolved) = read_records(rdr, &sheet_ctx, warnings, &mut visit)? {
            return Ok(resolved);
        }
        warnings.truncate(warnings_before);
    }
    let text = load(data, file)?;
    let sheet_ctx = SheetCtx {
        file,
        sheet,
        specs,
        delimiter: text.delimiter,
        max_rows,
        max_named,
    };
    let rdr = csv_reader(text.content().as_bytes(), text.delimiter);
    read_records(rdr, &sheet_ctx, warnings, &mut visit)?.ok_or_else(|| {
        IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "text that cannot be decoded".to_string(),
        }
    })
}

/// Opens a file for streaming when it starts as UTF-8 (optionally after a byte-order mark,
/// which is consumed): the reader and the sniffed delimiter; `None` for UTF-16 or a first
/// block that is not UTF-8.
/// A CSV file's bytes, streamed (a buffered file, or a slice).
type Streamed<'a> = Box<dyn std::io::BufRead + 'a>;

fn open_utf8<'a>(data: CsvData<'a>, file: &str) -> Result<Option<(Streamed<'a>, u8)>, IngestError> {
    use std::io::BufRead;
    const BLOCK: usize = 64 * 1024;
    let mut input: Box<dyn BufRead + 'a> = match data {
        CsvData::Path(path) => {
            let f = std::fs::File::open(path).map_err(|e| IngestError::from_io(file, e))?;
            Box::new(std::io::BufReader::with_capacity(BLOCK, f))
        }
        CsvData::Bytes(bytes) => Box::new(bytes),
        CsvData::Zip(entry) => Box::new(std::io::BufReader::with_capacity(
            BLOCK,
            entry.open().map_err(|e| IngestError::from_io(file, e))?,
        )),
    };
    let chunk = input
        .fill_buf()
        .map_err(|e| IngestError::from_io(file, e))?;
    // Bytes in memory come as one chunk: judge the first block, as for a file.
    let chunk = &chunk[..chunk.len().min(BLOCK)];
    if chunk.starts_with(&[0xFF, 0xFE]) || chunk.starts_with(&[0xFE, 0xFF]) {
        return Ok(None);
    }
    let bom = if chunk.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let content = &chunk[bom..];
    if chunk.len() < BLOCK && content.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "the file is empty".to_string(),
        });
    }
    let first = match std::str::from_utf8(content) {
        Ok(text) => text,
        // A block may end inside a character: judge only the complete part.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&content[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return Ok(None),
    };
    let delimiter = sniff_delimiter(first);
    input.consume(bom);
    Ok(Some((input, delimiter)))
}

fn csv_reader<R: std::io::Read>(input: R, delimiter: u8) -> csv::Reader<LineCap<R>> {
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(LineCap {
            inner: input,
            line_bytes: 0,
        })
}

/// What [`read_records`] needs to know about the sheet.
struct SheetCtx<'a> {
    file: &'a str,
    sheet: &'a str,
    specs: &'a [FieldSpec],
    delimiter: u8,
    /// The most rows to visit: the pass ends at the first row past it (see [`read_data`]).
    max_rows: usize,
    /// The most rows with a name to keep: the pass ends at the first named row past it.
    max_named: usize,
}

/// Why binary bytes read as a CSV are refused: an xlsx workbook (a zip, `PK\x03\x04`,
/// holding `xl/workbook.xml`) given a `.csv` name is named as such, with the name to give
/// it; anything else is binary data.
pub(crate) fn binary_detail(bytes: &[u8]) -> String {
    const WORKBOOK_PART: &[u8] = b"xl/workbook.xml";
    let xlsx = bytes.starts_with(b"PK\x03\x04")
        && bytes
            .windows(WORKBOOK_PART.len())
            .any(|w| w == WORKBOOK_PART);
    if xlsx {
        "an xlsx workbook (a zip holding xl/workbook.xml), not a CSV text file: name it \
         .xlsx to read it as a workbook"
            .to_string()
    } else {
        "binary data, not a CSV text file".to_string()
    }
}

/// One pass over the records: header, field counts, NUL bytes, UTF-8, the decimal-mark
/// evidence of the numeric columns; the tracked cells of each row are kept in one text
/// arena until the decimal mark is decided, then the rows are visited. The pass ends at
/// the row after `ctx.max_rows` rows to visit or `ctx.max_named` named rows kept, and the
/// visits at the first `Break`.
/// `Ok(None)` when a record is not UTF-8 (nothing has been visited then).
fn read_records<R, F>(
    mut rdr: csv::Reader<R>,
    ctx: &SheetCtx<'_>,
    warnings: &mut Vec<Warning>,
    visit: &mut F,
) -> Result<Option<Resolved>, IngestError>
where
    R: std::io::Read,
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let SheetCtx {
        file,
        sheet,
        specs,
        delimiter,
        max_rows,
        max_named,
    } = *ctx;
    let binary = |bytes: &[u8]| IngestError::NotASpreadsheet {
        file: file.to_string(),
        detail: binary_detail(bytes),
    };
    let mut rec = csv::ByteRecord::new();
    if let Err(e) = rdr.read_byte_record(&mut rec) {
        return Err(csv_error(file, sheet, 1, &e));
    }
    if rec.as_slice().contains(&0) {
        return Err(binary(rec.as_slice()));
    }
    if rec.len() > MAX_COLUMNS {
        return Err(IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: Some(1),
            column: None,
            detail: format!(
                "the header has {} fields, more than {} (Excel's limit); not an RVTools export",
                crate::numbers::group_thousands(rec.len() as f64, 0),
                crate::numbers::group_thousands(MAX_COLUMNS as f64, 0)
            ),
        });
    }
    let Ok(header) = csv::StringRecord::from_byte_record(rec.clone()) else {
        return Ok(None);
    };
    let width = header.len();
    let headers: Vec<(u32, String)> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.trim().is_empty())
        .map(|(i, h)| (i as u32, h.trim().to_string()))
        .collect();
    let resolved = resolve(file, sheet, &headers, specs, warnings)?;
    let slots = resolved.column_slots();

    // Rows with a tracked value: (row number, index of their first span); a kept row's
    // spans run to the next row's first, one (slot, start, end) into `arena` per non-empty
    // tracked cell, so a row of one value costs one span, not one per field.
    let mut arena: Vec<u8> = Vec::new();
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
    let mut rows: Vec<(usize, usize)> = Vec::new();
    let mut evidence = [0usize; 3]; // point, comma, ambiguous
    // The warnings of rows without a name (grouped per cause, so bounded), given after the
    // other rows' as when every row was visited in the second pass.
    let mut nameless: Vec<Warning> = Vec::new();
    let mut row = 1usize;
    let mut nameless_rows = 0usize;
    // Rows visited or kept to visit: the pass ends past `max_rows`.
    let mut to_visit = 0usize;
    while to_visit <= max_rows && rows.len() <= max_named {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(file, sheet, row + 1, &e)),
        }
        row += 1;
        if rec.len() != width {
            return Err(IngestError::Malformed {
                file: file.to_string(),
                sheet: Some(sheet.to_string()),
                row: Some(row),
                column: None,
                detail: super::ragged::ragged_row_detail(&rec, width, delimiter),
            });
        }
        let bytes = rec.as_slice();
        if bytes.contains(&0) {
            return Err(binary(bytes));
        }
        if std::str::from_utf8(bytes).is_err() {
            return Ok(None);
        }
        let first = spans.len();
        for (c, field) in rec.iter().enumerate() {
            let Some(Some(slot)) = slots.get(c) else {
                continue;
            };
            let field = field.trim_ascii();
            // A cell of Unicode spaces only is empty to the row's reader ([`text_value`]):
            // it keeps no span, so a row is named here exactly when its visitor finds a name.
            if std::str::from_utf8(field).map_or(true, |f| f.trim().is_empty()) {
                continue;
            }
            if specs
                .get(resolved.field_of(*slot))
                .is_some_and(|s| s.numeric)
            {
                match std::str::from_utf8(field).map(mark_evidence) {
                    Ok(MarkEvidence::Point) => evidence[0] += 1,
                    Ok(MarkEvidence::Comma) => evidence[1] += 1,
                    Ok(MarkEvidence::Ambiguous) => evidence[2] += 1,
                    _ => {}
                }
            }
            let start = arena.len();
            arena.extend_from_slice(field);
            spans.push((*slot, start, arena.len()));
        }
        if spans.len() > first {
            to_visit += 1;
            if lacks_name(&spans[first..], &resolved, specs) {
                // Makes no record: visited now (the visitor warns of it) and not kept, so
                // 12 million rows without a name cost no memory per row; past
                // MAX_NAMELESS_ROWS the read ends, so they cost no time either.
                nameless_rows += 1;
                if nameless_rows > super::MAX_NAMELESS_ROWS {
                    return Err(too_many_nameless(file, sheet, row, specs));
                }
                arena.truncate(spans[first].1);
                spans.truncate(first);
                let ctx = (file, sheet, specs, &resolved);
                if visit_nameless(&rec, row, &slots, ctx, &mut nameless, visit).is_break() {
                    return Ok(Some(resolved));
                }
            } else {
                rows.push((row, first));
            }
        }
    }
    let mark = decide_mark(evidence, delimiter, file, sheet, warnings);
    // Every record was valid UTF-8 and fields split at ASCII bytes, so the arena is too.
    let Ok(arena) = String::from_utf8(arena) else {
        return Ok(None);
    };
    let mut cells: Vec<Value<'_>> = Vec::with_capacity(resolved.slot_count());
    let mut disagreements = Disagreements::new(&resolved);
    for (i, &(row, first)) in rows.iter().enumerate() {
        let end = rows.get(i + 1).map_or(spans.len(), |next| next.1);
        cells.clear();
        cells.resize(resolved.slot_count(), Value::Empty);
        for &(slot, start, stop) in spans.get(first..end).unwrap_or(&[]) {
            if let Some(cell) = cells.get_mut(slot) {
                *cell = text_value(arena.get(start..stop).unwrap_or(""));
            }
        }
        let mut r = Row {
            file,
            sheet,
            row,
            cells: &cells,
            resolved: &resolved,
            specs,
            mark,
            warnings,
        };
        disagreements.check(&r);
        if visit(&mut r).is_break() {
            return Ok(Some(resolved));
        }
    }
    for w in nameless {
        crate::inventory::push_bounded(warnings, w);
    }
    disagreements.report(file, sheet, &resolved, specs, warnings);
    Ok(Some(resolved))
}

/// The error for a tab past [`super::MAX_NAMELESS_ROWS`] rows without a name, at `row`.
fn too_many_nameless(file: &str, sheet: &str, row: usize, specs: &[FieldSpec]) -> IngestError {
    let name = specs.iter().find(|s| s.required).map_or("name", |s| s.name);
    IngestError::Malformed {
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        row: Some(row),
        column: Some(name.to_string()),
        detail: format!(
            "more than {} rows without a '{name}': an RVTools export writes none, so this \
             is not one as RVTools wrote it (give the export as written)",
            crate::numbers::group_thousands(super::MAX_NAMELESS_ROWS as f64, 0)
        ),
    }
}

/// Whether a row's cells (`spans`: slot, start, end) lack a required field: the name of the
/// row's record (the VM, host, datastore), in its own column or its fallback's. Every
/// visitor skips such a row ([`Row::name`](crate::ingest::table::Row::name)).
fn lacks_name(spans: &[(usize, usize, usize)], resolved: &Resolved, specs: &[FieldSpec]) -> bool {
    specs.iter().enumerate().any(|(field, spec)| {
        spec.required
            && !spans
                .iter()
                .any(|&(slot, _, _)| resolved.field_of(slot) == field)
    })
}

/// Visits record `rec` (1-based row `row`) at once, with its cells as text: a row
/// [`lacks_name`], which the visitor only warns of (its cells' numbers are never read, so
/// the decimal mark, decided after the last row, does not matter).
fn visit_nameless<F>(
    rec: &csv::ByteRecord,
    row: usize,
    slots: &[Option<usize>],
    (file, sheet, specs, resolved): (&str, &str, &[FieldSpec], &Resolved),
    warnings: &mut Vec<Warning>,
    visit: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&mut Row<'_, '_>) -> ControlFlow<()>,
{
    let mut cells: Vec<Value<'_>> = vec![Value::Empty; resolved.slot_count()];
    for (c, field) in rec.iter().enumerate() {
        if let (Some(Some(slot)), Ok(text)) = (slots.get(c), std::str::from_utf8(field))
            && let Some(cell) = cells.get_mut(*slot)
        {
            *cell = text_value(text);
        }
    }
    let mut r = Row {
        file,
        sheet,
        row,
        cells: &cells,
        resolved,
        specs,
        mark: DecimalMark::Point,
        warnings,
    };
    visit(&mut r)
}

/// The decimal mark of a file from the evidence counts of its numeric cells (`[point,
/// comma, ambiguous]`); with no evidence the delimiter decides (`;` goes with a decimal
/// comma, `,` with a point, as in the Windows locales; a tab says nothing, so ambiguous
/// numbers are then reported). Mixed evidence: the majority, and a warning.
fn decide_mark(
    [point, comma, ambiguous]: [usize; 3],
    delimiter: u8,
    file: &str,
    sheet: &str,
    warnings: &mut Vec<Warning>,
) -> DecimalMark {
    let by_delimiter = if delimiter == b';' {
        DecimalMark::Comma
    } else {
        DecimalMark::Point
    };
    match (point, comma) {
        (0, 0) => {
            if ambiguous > 0 && delimiter != b';' && delimiter != b',' {
                warnings.push(Warning {
                    kind: WarningKind::Layout,
                    file: file.to_string(),
                    sheet: Some(sheet.to_string()),
                    row: None,
                    column: None,
                    value: None,
                    message: format!(
                        "{ambiguous} numbers such as 16.384 or 1,500 could use either decimal \
                         mark and nothing in the file decides; read with a decimal point"
                    ),
                    more_alike: 0,
                });
            }
            by_delimiter
        }
        (_, 0) => DecimalMark::Point,
        (0, _) => DecimalMark::Comma,
        (p, c) => {
            let mark = if p >= c {
                DecimalMark::Point
            } else {
                DecimalMark::Comma
            };
            warnings.push(Warning {
                kind: WarningKind::Layout,
                file: file.to_string(),
                sheet: Some(sheet.to_string()),
                row: None,
                column: None,
                value: None,
                message: format!(
                    "numbers use both decimal marks ({p} cells with a decimal point, {c} with a \
                     decimal comma); reading the file with a decimal {}",
                    if mark == DecimalMark::Point {
                        "point"
                    } else {
                        "comma"
                    }
                ),
                more_alike: 0,
            });
            mark
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs() {
        assert_eq!(sniff_delimiter("\"a\";\"b,c\";\"d\"\n1;2;3"), b';');
        assert_eq!(sniff_delimiter("a,b,c"), b',');
        assert_eq!(sniff_delimiter("a\tb\tc"), b'\t');
        assert_eq!(sniff_delimiter("abc"), b',');
    }

    #[test]
    fn decodes_windows_1252() {
        let bytes = b"VM\nserveur-\xe9t\xe9\n";
        let (text, start) = decode(bytes.to_vec(), "x.csv").unwrap();
        assert!(text.contains("serveur-été"));
        assert_eq!(start, 0);
        let bom = b"\xef\xbb\xbfVM\n";
        let (text, start) = decode(bom.to_vec(), "x.csv").unwrap();
        assert_eq!(&text[start..], "VM\n");
    }

    #[test]
    fn tab_names() {
        assert_eq!(
            tab_of(Path::new("/x/RVTools_tabvInfo.csv")).as_deref(),
            Some("vInfo")
        );
        assert_eq!(tab_of(Path::new("vinfo.csv")), None);
    }
}

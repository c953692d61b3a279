//! Sheet contents before they are written: cells (text, numbers with a unit format,
//! formulas with their cached result), one [`Sheet`] per worksheet, A1 references, and
//! the pass that keeps every sheet inside Excel's limits (text cells, rows) with a warning
//! for each cut.

use rust_xlsxwriter::{Format, Formula, Note, Worksheet, XlsxError};

/// Most characters Excel holds in one cell.
pub const MAX_CELL_CHARS: usize = 32_767;
/// Characters kept of a text cell over [`MAX_CELL_CHARS`] (the rest is replaced by
/// `… (N characters)`).
pub const KEPT_CHARS: usize = 32_000;
/// Most data rows below the header row on one sheet (1,048,576 rows in all).
pub const MAX_DATA_ROWS: usize = 1_048_575;
/// Characters of a VM name quoted in a truncation warning.
const QUOTED_CHARS: usize = 60;

/// The number format of a numeric cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fmt {
    /// USD: `#,##0.00`.
    Usd,
    /// Whole counts, GiB, IOPS: `#,##0`.
    Int,
    /// One decimal (MiB/s, percent): `#,##0.0`.
    Dec1,
    /// As Excel shows it (`General`).
    General,
}

impl Fmt {
    fn format(self) -> Format {
        match self {
            Fmt::Usd => Format::new().set_num_format("#,##0.00"),
            Fmt::Int => Format::new().set_num_format("#,##0"),
            Fmt::Dec1 => Format::new().set_num_format("#,##0.0"),
            Fmt::General => Format::new(),
        }
    }
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text.
    Text(String),
    /// An Excel boolean (`TRUE` / `FALSE`).
    Bool(bool),
    /// A number and its format (a non-finite number is written as text).
    Num(f64, Fmt),
    /// A formula (without the leading `=`) and its cached result, which equals the plan's
    /// figure.
    Formula(String, f64, Fmt),
}

/// Text cell: a name's control characters and bidi overrides shown escaped (`\u{202e}`), as
/// in every other output (a right-to-left override would reverse the cell), before
/// [`fit_limits`] counts the text against Excel's limit.
pub fn text(s: impl Into<String>) -> Cell {
    use crate::report::safe::{Keep, escape_controls_owned};
    Cell::Text(escape_controls_owned(s.into(), Keep::Layout))
}

/// USD cell.
pub fn usd(v: f64) -> Cell {
    Cell::Num(v, Fmt::Usd)
}

/// Whole-number cell (counts, GiB, IOPS).
pub fn int(v: impl Into<f64>) -> Cell {
    Cell::Num(v.into(), Fmt::Int)
}

/// Count cell from a `usize` (exact below 2^53).
pub fn count(v: usize) -> Cell {
    Cell::Num(v as f64, Fmt::Int)
}

/// One-decimal cell (MiB/s, percent).
pub fn dec(v: f64) -> Cell {
    Cell::Num(v, Fmt::Dec1)
}

/// A number as Excel shows it.
pub fn num(v: f64) -> Cell {
    Cell::Num(v, Fmt::General)
}

/// An Excel boolean cell (`TRUE` / `FALSE`), which filters and formulas read as one.
pub fn boolean(v: bool) -> Cell {
    Cell::Bool(v)
}

/// An optional value, `unknown` when `None`.
pub fn opt(v: Option<f64>, make: fn(f64) -> Cell) -> Cell {
    v.map_or_else(|| text("unknown"), make)
}

/// A serializable enum as its JSON spelling (`payg`, `vcpu` ...).
pub fn json_text<T: serde::Serialize>(v: &T) -> Cell {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => text(s),
        Ok(other) => text(other.to_string()),
        Err(e) => text(e.to_string()),
    }
}

/// A cell whose value is `formula` when the formula, as `computed` by the caller with the
/// same arithmetic, equals the plan's figure `value` to the cent; otherwise the value itself
/// and a note saying why (so no formula ever disagrees with the JSON).
pub fn checked(formula: String, computed: f64, value: f64, fmt: Fmt) -> (Cell, Option<String>) {
    if (computed - value).abs() < 0.005 {
        (Cell::Formula(formula, value, fmt), None)
    } else {
        let note = format!("value, not a formula: the formula {formula} would give {computed:.2}");
        (Cell::Num(value, fmt), Some(note))
    }
}

/// Excel's rounding to the cent (half away from zero), as `ROUND(x, 2)`.
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0 + 0.0
}

/// Column letters of a 0-based column (`0` -> `A`, `27` -> `AB`).
pub fn col_name(col: usize) -> String {
    let mut n = col + 1;
    let mut s = Vec::new();
    while n > 0 {
        let r = (n - 1) % 26;
        s.push(b'A' + r as u8);
        n = (n - 1) / 26;
    }
    s.reverse();
    String::from_utf8_lossy(&s).into_owned()
}

/// An absolute reference to one cell of `sheet` (0-based data row below the header:
/// row 0 is Excel row 2).
pub fn cell_ref(sheet: &str, data_row: usize, col: usize) -> String {
    format!("'{sheet}'!${}${}", col_name(col), data_row + 2)
}

/// A reference to a cell of the same sheet (no sheet name).
pub fn local_ref(data_row: usize, col: usize) -> String {
    format!("{}{}", col_name(col), data_row + 2)
}

/// An absolute reference to the data rows of one column of `sheet` (`'Pools'!$R$2:$R$9`);
/// a one-row range when the sheet has no rows.
pub fn column_ref(sheet: &str, col: usize, rows: usize) -> String {
    let c = col_name(col);
    format!("'{sheet}'!${c}$2:${c}${}", rows.max(1) + 1)
}

/// An absolute reference to `n` data rows of one column of the same sheet from data row
/// `first` (`$E$5:$E$7`); `n` 0 gives the one row `first`.
pub fn rows_ref(col: usize, (first, n): (usize, usize)) -> String {
    let c = col_name(col);
    format!("${c}${}:${c}${}", first + 2, first + n.max(1) + 1)
}

/// An absolute reference to `n` data rows of one column of `sheet` from data row `first`
/// (`'Pools'!$E$5:$E$7`): the rows the writer itself laid out for one cluster; `None` when
/// `n` is 0.
pub fn block_ref(sheet: &str, col: usize, (first, n): (usize, usize)) -> Option<String> {
    (n > 0).then(|| format!("'{sheet}'!{}", rows_ref(col, (first, n))))
}

/// The sum of the `sum` range's cells whose `by` cell equals `key` exactly (case and
/// every character: `* ? ~ = < >` are text, not criteria), as
/// `SUMPRODUCT(--EXACT(by,key),sum)`; SUMIF would match `PROD` to `prod` and read `Prod*`
/// as a wildcard. `by` and `sum` are ranges of the same rows.
pub fn exact_sum(by: &str, key: &str, sum: &str) -> String {
    format!("SUMPRODUCT(--EXACT({by},{key}),{sum})")
}

/// How many cells of the range `by` equal `key` exactly, as `SUMPRODUCT(--EXACT(by,key))`
/// (see [`exact_sum`]).
pub fn exact_count(by: &str, key: &str) -> String {
    format!("SUMPRODUCT(--EXACT({by},{key}))")
}

/// A cell whose value is `ROUND(formula, 2)` (`fmt`), checked against `json` with the same
/// sum over `values` (see [`checked`]).
pub fn rounded_sum(
    formula: String,
    values: impl Iterator<Item = f64>,
    json: f64,
    fmt: Fmt,
) -> Cell {
    let computed = round2(values.fold(0.0, |a, v| a + v));
    checked(format!("ROUND({formula},2)"), computed, json, fmt).0
}

/// `COUNTA` of the `Datastores` names (column `col`, `rows` data rows) when the plan has
/// `n` > 0 datastores, checked against `json`; with none the sheet holds a `none` row that
/// `COUNTA` would count, so the cell is the value.
pub fn datastore_count(col: usize, rows: usize, n: usize, json: u32) -> Cell {
    if n == 0 {
        return Cell::Num(f64::from(json), Fmt::Int);
    }
    let formula = format!("COUNTA({})", column_ref("Datastores", col, rows));
    checked(formula, n as f64, f64::from(json), Fmt::Int).0
}

/// One worksheet's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Sheet name (at most 31 characters).
    pub name: &'static str,
    /// Column headers, units in them (`cost USD/month`).
    pub header: Vec<String>,
    /// Data rows.
    pub rows: Vec<Vec<Cell>>,
    /// The column naming the row's VM, quoted in truncation warnings.
    pub vm_col: Option<usize>,
    /// Notes (Excel comments) on header cells: column and text.
    pub notes: Vec<(usize, String)>,
}

impl Sheet {
    /// An empty sheet with these headers.
    pub fn new(name: &'static str, header: &[&str]) -> Sheet {
        Sheet {
            name,
            header: header.iter().map(|h| (*h).to_string()).collect(),
            rows: Vec::new(),
            vm_col: None,
            notes: Vec::new(),
        }
    }

    /// After every row is added: one row saying `none` (after the `lead` columns) when
    /// the section is empty, so a reader sees it was considered.
    pub fn none_if_empty(&mut self, lead: usize) {
        if self.rows.is_empty() {
            let mut row = vec![Cell::Empty; lead];
            row.push(text("none"));
            self.rows.push(row);
        }
    }
}

/// The first `n` characters of `s`.
fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// One cut made to fit Excel's limits, with where it was made (for the `Warnings` row).
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The sheet cut.
    pub sheet: &'static str,
    /// The Excel row (1-based, the header is row 1): the cell's row, or the first row left
    /// out.
    pub row: usize,
    /// The cut cell's column header; `None` when rows were left out.
    pub column: Option<String>,
    /// The cut row's `cluster` cell as written (itself cut when over the limit), when the
    /// sheet has that column.
    pub cluster: Option<String>,
    /// The sentence (also on the `Warnings` sheet).
    pub message: String,
    /// What was cut, without where: the same text cut in several cells has the same one
    /// ([`grouped_warnings`]).
    pub what: String,
}

/// One sentence per distinct cut ([`Cut::what`]), in the order first met: the first cut's
/// sentence, and when the same text was cut in more cells, how many (each is a row of the
/// `Warnings` sheet), so a long cluster name on every row warns once, not once per row.
pub fn grouped_warnings(cuts: &[Cut]) -> Vec<String> {
    let mut seen: Vec<(&str, &str, usize)> = Vec::new();
    for c in cuts {
        match seen.iter_mut().find(|(what, _, _)| *what == c.what) {
            Some((_, _, n)) => *n += 1,
            None => seen.push((&c.what, &c.message, 0)),
        }
    }
    seen.into_iter()
        .map(|(_, message, more)| match more {
            0 => message.to_string(),
            n => format!(
                "{message}; the same text is cut in {} more cells (each on the Warnings sheet)",
                crate::numbers::group_thousands(n as f64, 0)
            ),
        })
        .collect()
}

/// The cut of the rows of `sheet` beyond `max_rows` (before they are left out).
fn rows_cut(sheet: &Sheet, max_rows: usize) -> Cut {
    let n = |v: usize| crate::numbers::group_thousands(v as f64, 0);
    let message = format!(
        "sheet '{}' has {} rows, more than Excel's {} below the header: the first {} are \
         written, {} left out",
        sheet.name,
        n(sheet.rows.len()),
        n(max_rows),
        n(max_rows),
        n(sheet.rows.len() - max_rows),
    );
    Cut {
        sheet: sheet.name,
        row: max_rows + 2,
        column: None,
        cluster: None,
        what: message.clone(),
        message,
    }
}

/// Whether `t` is over [`MAX_CELL_CHARS`] characters (its bytes counted first: no text of
/// fewer bytes can be).
fn over_limit(t: &str) -> bool {
    t.len() > MAX_CELL_CHARS && t.chars().count() > MAX_CELL_CHARS
}

/// `t` cut to fit one cell when it is over [`MAX_CELL_CHARS`] characters: its first
/// [`KEPT_CHARS`] characters and `… (N characters)`; `None` when it fits.
fn fit_text(t: &str) -> Option<String> {
    if !over_limit(t) {
        return None;
    }
    let chars = t.chars().count();
    Some(format!(
        "{}… ({} characters)",
        first_chars(t, KEPT_CHARS),
        crate::numbers::group_thousands(chars as f64, 0)
    ))
}

/// The sentence of a cut text cell of `chars` characters at 0-based data row `r`, column
/// `c` (header `column`) of `sheet`, and what was cut without where ([`Cut::what`]); `vm`:
/// the VM name when the cell is the row's VM name, quoted (first 60 characters and its
/// length), else the cell's own first 60 characters.
fn cell_cut_message(
    sheet: &str,
    (r, c, column): (usize, usize, &str),
    vm: Option<&str>,
    t: &str,
    chars: usize,
) -> (String, String) {
    let n = |v: usize| crate::numbers::group_thousands(v as f64, 0);
    let whose = match vm {
        Some(vm) => format!(
            "VM '{}…' ({} characters): text",
            first_chars(vm, QUOTED_CHARS),
            n(vm.chars().count())
        ),
        None => format!("text '{}…'", first_chars(t, QUOTED_CHARS)),
    };
    let what = format!(
        "{whose} of {} characters truncated to Excel's limit",
        n(chars)
    );
    let at = format!(
        "sheet '{sheet}' row {} column '{column}' (cell {}{})",
        r + 2,
        col_name(c),
        r + 2
    );
    (format!("{at}: {what}"), what)
}

/// Keeps `sheets` inside Excel's limits, with `max_rows` data rows per sheet
/// ([`MAX_DATA_ROWS`] for a real workbook): a text cell over [`MAX_CELL_CHARS`] keeps its
/// first [`KEPT_CHARS`] characters and `… (N characters)` ([`fit_text`]); rows beyond
/// `max_rows` are left out. Returns one [`Cut`] per cut, naming the sheet, row, column and
/// cell and quoting the text's first 60 characters (a VM name cut: the VM and its length).
pub fn fit_limits(sheets: &mut [Sheet], max_rows: usize) -> Vec<Cut> {
    let mut cuts = Vec::new();
    for sheet in sheets.iter_mut() {
        if sheet.rows.len() > max_rows {
            cuts.push(rows_cut(sheet, max_rows));
            sheet.rows.truncate(max_rows);
        }
        let lead = sheet.header.first().is_some_and(|h| h == "cluster");
        for (r, row) in sheet.rows.iter_mut().enumerate() {
            let over = |cell: &Cell| matches!(cell, Cell::Text(t) if over_limit(t));
            if !row.iter().any(over) {
                continue;
            }
            let cell_text = |c: Option<usize>| match c.and_then(|c| row.get(c)) {
                Some(Cell::Text(t)) => Some(t.clone()),
                _ => None,
            };
            let cluster = cell_text(lead.then_some(0)).map(|t| fit_text(&t).unwrap_or(t));
            for (c, cell) in row.iter_mut().enumerate() {
                let Cell::Text(t) = cell else { continue };
                let Some(fitted) = fit_text(t) else { continue };
                let column = sheet.header.get(c).cloned().unwrap_or_default();
                let chars = t.chars().count();
                let vm = (sheet.vm_col == Some(c)).then_some(t.as_str());
                let (message, what) = cell_cut_message(sheet.name, (r, c, &column), vm, t, chars);
                cuts.push(Cut {
                    sheet: sheet.name,
                    row: r + 2,
                    column: Some(column),
                    cluster: cluster.clone(),
                    message,
                    what,
                });
                *t = fitted;
            }
        }
    }
    cuts
}

/// rust_xlsxwriter's refusal of a workbook; when it refused one cell, with the sheet and
/// the cell's A1 reference.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// One cell was refused (a text over Excel's 32,767 characters ...).
    #[error("sheet '{sheet}' cell {cell}: {source}")]
    Cell {
        /// The sheet.
        sheet: &'static str,
        /// The cell, `B7`.
        cell: String,
        /// rust_xlsxwriter's reason.
        source: XlsxError,
    },
    /// The workbook, a sheet or a chart was refused.
    #[error(transparent)]
    Book(#[from] XlsxError),
}

/// Names the cell at 0-based (`r`, `c`) of `sheet` in rust_xlsxwriter's error.
fn at_cell(sheet: &'static str, r: u32, c: u16) -> impl FnOnce(XlsxError) -> WriteError {
    move |source| WriteError::Cell {
        sheet,
        cell: format!("{}{}", col_name(usize::from(c)), u64::from(r) + 1),
        source,
    }
}

/// Writes `sheet` to `ws`: a bold, frozen header row with an autofilter, the rows with
/// their number formats, and columns as wide as their contents (8..=60 characters).
///
/// # Errors
/// [`WriteError::Cell`] naming the sheet and cell when rust_xlsxwriter rejects a cell;
/// [`WriteError::Book`] when it rejects the sheet.
pub fn write_sheet(ws: &mut Worksheet, sheet: &Sheet) -> Result<(), WriteError> {
    ws.set_name(sheet.name)?;
    let bold = Format::new().set_bold().set_text_wrap();
    let mut widths: Vec<usize> = sheet.header.iter().map(|h| h.chars().count()).collect();
    for (c, h) in sheet.header.iter().enumerate() {
        ws.write_string_with_format(0, col16(c), h, &bold)
            .map_err(at_cell(sheet.name, 0, col16(c)))?;
    }
    for (r, row) in sheet.rows.iter().enumerate() {
        let r = u32::try_from(r + 1).unwrap_or(u32::MAX);
        for (c, cell) in row.iter().enumerate() {
            let len =
                write_cell(ws, r, col16(c), cell).map_err(at_cell(sheet.name, r, col16(c)))?;
            if let Some(w) = widths.get_mut(c) {
                *w = (*w).max(len);
            } else {
                widths.push(len);
            }
        }
    }
    for (c, w) in widths.iter().enumerate() {
        ws.set_column_width(col16(c), (*w).clamp(8, 60) as f64 + 2.0)?;
    }
    for (c, note) in &sheet.notes {
        ws.insert_note(0, col16(*c), &Note::new(note).add_author_prefix(false))
            .map_err(at_cell(sheet.name, 0, col16(*c)))?;
    }
    ws.set_freeze_panes(1, 0)?;
    let last_col = col16(sheet.header.len().max(1) - 1);
    let last_row = u32::try_from(sheet.rows.len()).unwrap_or(u32::MAX);
    ws.autofilter(0, 0, last_row, last_col)?;
    Ok(())
}

fn col16(c: usize) -> u16 {
    u16::try_from(c).unwrap_or(u16::MAX)
}

/// Writes one cell; returns its display width in characters.
fn write_cell(ws: &mut Worksheet, r: u32, c: u16, cell: &Cell) -> Result<usize, XlsxError> {
    Ok(match cell {
        Cell::Empty => 0,
        Cell::Text(t) => {
            ws.write_string(r, c, t)?;
            t.chars().count()
        }
        Cell::Bool(b) => {
            ws.write_boolean(r, c, *b)?;
            5
        }
        Cell::Num(v, f) if v.is_finite() => {
            ws.write_number_with_format(r, c, *v, &f.format())?;
            12
        }
        Cell::Num(v, _) | Cell::Formula(_, v, _) if !v.is_finite() => {
            ws.write_string(r, c, v.to_string())?;
            8
        }
        Cell::Num(..) => 0,
        Cell::Formula(text, v, f) => {
            let formula = Formula::new(format!("={text}")).set_result(v.to_string());
            ws.write_formula_with_format(r, c, formula, &f.format())?;
            12
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names() {
        // A..Z are 0..25; 26 is AA, 27 AB; 701 = 26 + 26 x 26 - 1 is ZZ; 702 is AAA.
        assert_eq!(col_name(0), "A");
        assert_eq!(col_name(25), "Z");
        assert_eq!(col_name(27), "AB");
        assert_eq!(col_name(701), "ZZ");
        assert_eq!(col_name(702), "AAA");
        assert_eq!(cell_ref("Prices", 0, 4), "'Prices'!$E$2");
    }

    #[test]
    fn rows_beyond_the_limit_are_left_out_with_a_warning() {
        let mut s = Sheet::new("Placements", &["VM"]);
        s.rows = (0..5).map(|i| vec![text(format!("vm-{i}"))]).collect();
        let w = fit_limits(std::slice::from_mut(&mut s), 3);
        assert_eq!(s.rows.len(), 3);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message.contains("'Placements' has 5 rows"),
            "{:?}",
            w[0]
        );
        assert!(w[0].message.contains("2 left out"), "{:?}", w[0]);
        // Rows 2..=4 are written, so row 5 is the first left out.
        assert_eq!(
            (w[0].sheet, w[0].row, w[0].column.as_deref()),
            ("Placements", 5, None)
        );
    }

    #[test]
    fn long_text_is_cut_and_names_the_vm() {
        let name = "v".repeat(40_000);
        let mut s = Sheet::new("Placements", &["VM", "datastore"]);
        s.vm_col = Some(0);
        s.rows = vec![vec![text(name.clone()), text("anf-ds-01")]];
        let w = fit_limits(std::slice::from_mut(&mut s), MAX_DATA_ROWS);
        let Cell::Text(t) = &s.rows[0][0] else {
            panic!("text")
        };
        // 32,000 kept + "… (40,000 characters)" (21 characters) = 32,021 <= 32,767.
        assert_eq!(t.chars().count(), 32_021);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message
                .contains(&format!("VM '{}…' (40,000 characters)", &name[..60]))
        );
        assert!(w[0].message.contains("row 2"));
        assert_eq!((w[0].row, w[0].column.as_deref()), (2, Some("VM")));
        assert_eq!(w[0].cluster, None);
    }
    #[test]
    fn a_long_cluster_name_is_cut_in_every_cell_and_warns_once() {
        // Two rows of one 40,000-character cluster and a short VM: both cluster cells are
        // cut (32,000 kept + "… (40,000 characters)", 21 more = 32,021), each a cut naming
        // its cell (A2, A3) whose own cluster is the cut text; one warning for both.
        let name = "C".repeat(40_000);
        let mut s = Sheet::new("Placements", &["cluster", "VM"]);
        s.vm_col = Some(1);
        s.rows = (0..2)
            .map(|i| vec![text(name.clone()), text(format!("vm-{i}"))])
            .collect();
        let cuts = fit_limits(std::slice::from_mut(&mut s), MAX_DATA_ROWS);
        assert_eq!(cuts.len(), 2);
        for (i, cut) in cuts.iter().enumerate() {
            let cell = format!("row {} column 'cluster' (cell A{})", i + 2, i + 2);
            assert!(cut.message.contains(&cell), "{}", cut.message);
            assert!(cut.message.contains(&format!("text '{}…'", &name[..60])));
            assert!(cut.message.contains("of 40,000 characters truncated"));
            assert_eq!(
                cut.cluster.as_ref().map(|c| c.chars().count()),
                Some(32_021)
            );
        }
        let Cell::Text(t) = &s.rows[1][0] else {
            panic!("text")
        };
        assert_eq!(Some(t), cuts[1].cluster.as_ref());
        let warnings = grouped_warnings(&cuts);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("(cell A2)"), "{}", warnings[0]);
        assert!(
            warnings[0]
                .ends_with("the same text is cut in 1 more cells (each on the Warnings sheet)")
        );
    }

    #[test]
    fn a_cell_rust_xlsxwriter_refuses_is_named() {
        // Past fit_limits nothing should be over the limit; if a cell still is, the error
        // names its sheet and cell: row 3 (data row 1), column B.
        let mut s = Sheet::new("Warnings", &["cluster", "message"]);
        s.rows = vec![
            vec![text("a"), text("b")],
            vec![text("c"), text("x".repeat(MAX_CELL_CHARS + 1))],
        ];
        let mut wb = rust_xlsxwriter::Workbook::new();
        let e = write_sheet(wb.add_worksheet(), &s).unwrap_err();
        assert!(
            e.to_string().starts_with("sheet 'Warnings' cell B3: "),
            "{e}"
        );
    }
}

//! Header resolution and typed access to the cells of one data row.
//!
//! A sheet reader (xlsx or CSV) hands each data row over as a slice of [`Value`]s, one per
//! field of the [`FieldSpec`] list it was given, in that order, then one per fallback column
//! ([`Resolved::fallbacks`]: a second spelling of a field in the header, read where the
//! field's own cell is empty). Only the columns a field maps to are kept; every other column
//! (custom attributes, tags, columns the inventory does not use) costs nothing.

use crate::ingest::IngestError;
use crate::ingest::value::{DecimalMark, Value, parse_number};
use crate::inventory::{Warning, WarningKind};
use crate::numbers::clip;

/// Most columns a sheet's header may have: 16,384, Excel's own limit (column `XFD`). Applies
/// to xlsx sheets and CSV files alike; it bounds the per-column lookup
/// (`Resolved::column_slots`) and the header work of a hostile file (a header of 20 million
/// cells).
pub const MAX_COLUMNS: usize = 16_384;

/// Most characters kept of a name read from a cell (a VM, cluster, host, datacenter,
/// datastore or vCenter name; an id): 256. vSphere names are at most 80 characters
/// ("The name can contain up to 80 characters", the vSphere documentation quoted in
/// `ingest::quality`); the rest is room for ids, folder paths and other tools'
/// exports. A longer cell is clipped where it is read, with a warning, so
/// what is kept per row is bounded whatever a cell holds.
pub const MAX_NAME_CHARS: usize = 256;

/// Most characters kept of a text cell that lists or locates (a datastore's `Hosts` list,
/// a VM's `Path`, a datastore's URL and address): 16,384, room for the list of a
/// datastore shared by 64 hosts with 250-character names (64 x 250 + 63 separators).
pub const MAX_TEXT_CHARS: usize = 16_384;

/// One column the inventory reads from a sheet.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldSpec {
    /// The name used in messages (the RVTools 4.x label).
    pub name: &'static str,
    /// Every accepted spelling, preferred first; compared after [`normalize_header`].
    pub aliases: &'static [&'static str],
    /// Whether the sheet is unusable without it.
    pub required: bool,
    /// Whether the column holds numbers (used to decide a CSV file's decimal mark).
    pub numeric: bool,
}

impl FieldSpec {
    /// An optional text column.
    pub(crate) const fn text(name: &'static str, aliases: &'static [&'static str]) -> Self {
        FieldSpec {
            name,
            aliases,
            required: false,
            numeric: false,
        }
    }

    /// An optional numeric column.
    pub(crate) const fn number(name: &'static str, aliases: &'static [&'static str]) -> Self {
        FieldSpec {
            name,
            aliases,
            required: false,
            numeric: true,
        }
    }

    /// A required text column.
    pub(crate) const fn required(name: &'static str, aliases: &'static [&'static str]) -> Self {
        FieldSpec {
            name,
            aliases,
            required: true,
            numeric: false,
        }
    }
}

/// Header text reduced to what identifies a column: trimmed, lower case, without spaces
/// (so `Provisioned MiB`, `provisioned mib` and `ProvisionedMiB` are the same column).
pub(crate) fn normalize_header(h: &str) -> String {
    h.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The columns a sheet's header row maps the fields to.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// Per field (same order as the spec list): the 0-based column index and the header text.
    pub columns: Vec<Option<(u32, String)>>,
    /// The fields whose header also holds a second spelling (`In Use MB` next to `In Use
    /// MiB`): `(field slot, 0-based column index, header text)`, at most one per field, in
    /// field order. A row's cell of fallback `k` follows the fields' cells, at slot
    /// `columns.len() + k`; the typed accessors of [`Row`] read it where the field's own
    /// cell is empty (RVTools' `MB` columns hold MiB figures, as its `MiB` ones do).
    pub fallbacks: Vec<(usize, u32, String)>,
    /// The header cells that are no spelling of any field (each [`clip`]ped), in sheet
    /// order: columns the reader ignores.
    pub unknown: Vec<String>,
}

impl Resolved {
    /// For each sheet column, the cell slot it feeds (`None` = not tracked): a field's
    /// slot, or a fallback's ([`Resolved::fallbacks`]; a column that is both a field's and
    /// a fallback's feeds the field). Indexed by column; only as long as the last tracked
    /// column, and never longer than [`MAX_COLUMNS`] ([`resolve`] refuses a header past it;
    /// a column beyond is not tracked here in any case).
    pub(crate) fn column_slots(&self) -> Vec<Option<usize>> {
        let fields = self.columns.len();
        let tracked = || {
            let fallbacks = self
                .fallbacks
                .iter()
                .enumerate()
                .map(move |(k, (_, c, _))| (*c as usize, fields + k));
            let own = self
                .columns
                .iter()
                .enumerate()
                .filter_map(|(slot, col)| col.as_ref().map(|(c, _)| (*c as usize, slot)));
            fallbacks.chain(own).filter(|(c, _)| *c < MAX_COLUMNS)
        };
        let width = tracked().map(|(c, _)| c + 1).max().unwrap_or(0);
        let mut slots = vec![None; width];
        for (c, slot) in tracked() {
            if let Some(s) = slots.get_mut(c) {
                *s = Some(slot);
            }
        }
        slots
    }

    /// How many cells a row holds: one per field, then one per fallback. At most twice
    /// the number of fields, whatever the sheet declares.
    pub(crate) fn slot_count(&self) -> usize {
        self.columns.len() + self.fallbacks.len()
    }

    /// The field a cell slot belongs to: the slot itself for a field's own cell, the
    /// fallback's field for a fallback cell.
    pub(crate) fn field_of(&self, slot: usize) -> usize {
        slot.checked_sub(self.columns.len())
            .and_then(|k| self.fallbacks.get(k))
            .map_or(slot, |(field, _, _)| *field)
    }

    /// The cell slot of the fallback of `field`, when its header has one.
    pub(crate) fn fallback_slot(&self, field: usize) -> Option<usize> {
        self.fallbacks
            .iter()
            .position(|(f, _, _)| *f == field)
            .map(|k| self.columns.len() + k)
    }

    /// Header text of a cell slot's column (a field's or a fallback's), or the field name
    /// when unmapped.
    pub(crate) fn header(&self, slot: usize, specs: &[FieldSpec]) -> String {
        let fallback = slot
            .checked_sub(self.columns.len())
            .and_then(|k| self.fallbacks.get(k));
        match (self.columns.get(slot), fallback) {
            (Some(Some((_, h))), _) | (_, Some((_, _, h))) => clip(h),
            _ => specs
                .get(slot)
                .map(|s| s.name.to_string())
                .unwrap_or_default(),
        }
    }
}

/// Maps fields to header columns.
///
/// `headers` holds `(column index, header text)` for every non-empty header cell, in column
/// order. A field takes the column of its most preferred alias; when several columns carry
/// that spelling, the first one outside the custom-attribute zone (between `Annotation` and
/// `Datacenter`, where RVTools puts custom attributes and tags) wins, and a warning names the
/// columns. When the header also holds a less preferred spelling of the field, that column
/// becomes the field's fallback ([`Resolved::fallbacks`]), with a warning.
///
/// # Errors
/// [`IngestError::MissingColumn`] for a required field without a column, listing every
/// spelling tried and the headers found (each [`clip`]ped); [`IngestError::Malformed`] for a
/// header cell past [`MAX_COLUMNS`].
pub(crate) fn resolve(
    file: &str,
    sheet: &str,
    headers: &[(u32, String)],
    specs: &[FieldSpec],
    warnings: &mut Vec<Warning>,
) -> Result<Resolved, IngestError> {
    if let Some((c, _)) = headers
        .iter()
        .enumerate()
        .find(|(i, (c, _))| *c as usize >= MAX_COLUMNS || *i >= MAX_COLUMNS)
        .map(|(_, h)| h)
    {
        return Err(IngestError::Malformed {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            row: Some(1),
            column: Some(column_letter(*c)),
            detail: format!(
                "the header has more than {} columns (Excel's limit, column XFD); not an \
                 RVTools export",
                crate::numbers::group_thousands(MAX_COLUMNS as f64, 0)
            ),
        });
    }
    let normalized: Vec<String> = headers.iter().map(|(_, h)| normalize_header(h)).collect();
    let position = |name: &str| {
        normalized
            .iter()
            .position(|n| n == name)
            .map(|i| headers[i].0)
    };
    let custom_zone = match (position("annotation"), position("datacenter")) {
        (Some(a), Some(d)) if a < d => Some((a, d)),
        _ => None,
    };
    let in_custom_zone = |c: u32| custom_zone.is_some_and(|(a, d)| c > a && c < d);
    let mut columns = Vec::with_capacity(specs.len());
    let mut fallbacks = Vec::new();
    for spec in specs {
        let mut chosen = None;
        for (k, alias) in spec.aliases.iter().enumerate() {
            let want = normalize_header(alias);
            let matches: Vec<usize> = normalized
                .iter()
                .enumerate()
                .filter(|(_, n)| **n == want)
                .map(|(i, _)| i)
                .collect();
            if matches.is_empty() {
                continue;
            }
            let pick = matches
                .iter()
                .copied()
                .find(|&i| !in_custom_zone(headers[i].0))
                .unwrap_or(matches[0]);
            if matches.len() > 1 {
                let listed: Vec<String> = matches
                    .iter()
                    .map(|&i| column_letter(headers[i].0))
                    .collect();
                warnings.push(header_warning(
                    file,
                    sheet,
                    &headers[pick].1,
                    format!(
                        "header '{}' appears in {} columns ({}); reading column {} for {}",
                        clip(&headers[pick].1),
                        matches.len(),
                        listed.join(", "),
                        column_letter(headers[pick].0),
                        spec.name
                    ),
                ));
            }
            if let Some(other) = other_column(&spec.aliases[k..], &normalized) {
                let names = (&headers[pick], &headers[other]);
                warnings.push(other_spelling(file, sheet, spec, names, &normalized[other]));
                fallbacks.push((columns.len(), headers[other].0, headers[other].1.clone()));
            }
            chosen = Some((headers[pick].0, headers[pick].1.clone()));
            break;
        }
        if chosen.is_none() && spec.required {
            return Err(IngestError::MissingColumn {
                file: file.to_string(),
                sheet: sheet.to_string(),
                column: spec.name.to_string(),
                tried: spec.aliases.iter().map(|s| s.to_string()).collect(),
                found: headers.iter().map(|(_, h)| clip(h)).collect(),
            });
        }
        columns.push(chosen);
    }
    let unknown = normalized
        .iter()
        .zip(headers)
        .filter(|(n, _)| {
            !specs
                .iter()
                .flat_map(|s| s.aliases)
                .any(|a| normalize_header(a) == **n)
        })
        .map(|(_, (_, h))| clip(h))
        .collect();
    Ok(Resolved {
        columns,
        fallbacks,
        unknown,
    })
}

/// The header position of a less preferred spelling than the one read (`aliases` starts
/// with the spelling read): `In Use MB` next to `In Use MiB`; the first such spelling in
/// preference order, at its first column. `None` when no other spelling is in the header.
fn other_column(aliases: &[&str], normalized: &[String]) -> Option<usize> {
    let (read, rest) = aliases.split_first()?;
    let read = normalize_header(read);
    rest.iter().find_map(|alias| {
        let want = normalize_header(alias);
        (want != read)
            .then(|| normalized.iter().position(|n| *n == want))
            .flatten()
    })
}

/// The warning when the header holds two spellings of `spec`: `names` are the header cells
/// `(column, text)` of the spelling read and of the other one, its normalized text
/// `other_normalized`. The warning names both columns, says the other is read where the
/// first is empty, and why the first is preferred.
fn other_spelling(
    file: &str,
    sheet: &str,
    spec: &FieldSpec,
    names: (&(u32, String), &(u32, String)),
    other_normalized: &str,
) -> Warning {
    let (pick, other) = names;
    let name = |(c, h): &(u32, String)| format!("'{}' (column {})", clip(h), column_letter(*c));
    let read = normalize_header(&pick.1);
    let why = if read.ends_with("mib") && other_normalized.ends_with("mb") {
        "a MiB header is exact, it names the binary unit the figures are in (RVTools 4.1.2 \
         renamed its 'MB' columns to 'MiB', same figures)"
            .to_string()
    } else {
        format!(
            "it is the preferred spelling (in order: '{}')",
            spec.aliases.join("', '")
        )
    };
    header_warning(
        file,
        sheet,
        &pick.1,
        format!(
            "two columns hold {}: {} and {}; reading {}, and {} in rows where the first is \
             empty: {why}",
            spec.name,
            name(pick),
            name(other),
            name(pick),
            name(other)
        ),
    )
}

/// A warning about the header cell `header` (row 1) of `sheet`.
fn header_warning(file: &str, sheet: &str, header: &str, message: String) -> Warning {
    Warning {
        kind: WarningKind::Layout,
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        row: Some(1),
        column: Some(clip(header)),
        value: None,
        message,
        more_alike: 0,
    }
}

/// The number a cell holds: a numeric cell, or text read with `mark`; `None` for an empty
/// cell, a boolean, an error or text that is not a number.
pub(crate) fn number_of(cell: &Value<'_>, mark: DecimalMark) -> Option<f64> {
    match cell {
        Value::Number(n) => Some(*n),
        Value::Text(t) => parse_number(t, mark),
        Value::Empty | Value::Bool(_) | Value::Error(_) => None,
    }
}

/// Spreadsheet column letters of a 0-based column index (`0` -> `A`, `16383` -> `XFD`).
pub(crate) fn column_letter(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// One data row being turned into typed values; problems become warnings.
pub(crate) struct Row<'r, 'a> {
    /// Input file.
    pub file: &'r str,
    /// Sheet (tab) name.
    pub sheet: &'r str,
    /// 1-based row number (header = 1 when the header is the first row).
    pub row: usize,
    /// Cells per slot: the fields', then the fallbacks' ([`Resolved::fallbacks`]).
    pub cells: &'r [Value<'a>],
    /// Header mapping (for the column names in warnings).
    pub resolved: &'r Resolved,
    /// The field list the cells follow.
    pub specs: &'r [FieldSpec],
    /// How text numbers are written in this file.
    pub mark: DecimalMark,
    /// Where warnings go.
    pub warnings: &'r mut Vec<Warning>,
}

impl Row<'_, '_> {
    /// Where this row was read: file, sheet and 1-based row.
    pub(crate) fn origin(&self) -> crate::inventory::Origin {
        crate::inventory::Origin {
            file: self.file.into(),
            sheet: self.sheet.into(),
            row: self.row,
        }
    }

    /// The cell slot read for field `slot`: its own, or its fallback's when its own is
    /// empty and the fallback's is not. A slot past the fields reads nothing (`None`).
    fn source(&self, slot: usize) -> Option<usize> {
        if slot >= self.specs.len() {
            return None;
        }
        let holds = |i: usize| self.cells.get(i).is_some_and(|v| !v.is_empty());
        if holds(slot) {
            return Some(slot);
        }
        Some(
            self.resolved
                .fallback_slot(slot)
                .filter(|&f| holds(f))
                .unwrap_or(slot),
        )
    }

    /// The cell read for field `slot` ([`Row::source`]).
    fn cell(&self, slot: usize) -> &Value<'_> {
        self.source(slot)
            .and_then(|i| self.cells.get(i))
            .unwrap_or(&Value::Empty)
    }

    /// The raw cell at a cell slot (a field's own or a fallback's), no fallback applied.
    pub(crate) fn raw_cell(&self, slot: usize) -> &Value<'_> {
        self.cells.get(slot).unwrap_or(&Value::Empty)
    }

    /// Pushes a warning of `kind` about a field's cell, naming the column it was read from.
    pub(crate) fn warn(&mut self, kind: WarningKind, slot: usize, message: String) {
        let value = clip(&self.cell(slot).display());
        let column = self
            .resolved
            .header(self.source(slot).unwrap_or(slot), self.specs);
        self.push(kind, Some((column, value)), message);
    }

    /// Pushes a warning of `kind` about the row as a whole.
    pub(crate) fn warn_row(&mut self, kind: WarningKind, message: String) {
        self.push(kind, None, message);
    }

    /// Pushes a warning about this row, or one of its cells (column, value), grouped by
    /// cause ([`crate::inventory::push_bounded`]).
    fn push(&mut self, kind: WarningKind, cell: Option<(String, String)>, message: String) {
        let origin = self.origin();
        let w = match cell {
            Some((column, value)) => Warning::at_cell(kind, &origin, column, Some(value), message),
            None => Warning::at_row(kind, &origin, message),
        };
        crate::inventory::push_bounded(self.warnings, w);
    }

    /// Whether the cell is empty.
    pub(crate) fn is_empty(&self, slot: usize) -> bool {
        self.cell(slot).is_empty()
    }

    /// Whether any tracked cell other than field `except`'s (its own and its fallback's)
    /// holds a value.
    pub(crate) fn any_other_value(&self, except: usize) -> bool {
        self.cells
            .iter()
            .enumerate()
            .any(|(i, v)| self.resolved.field_of(i) != except && !v.is_empty())
    }

    /// Trimmed text; `None` when empty. A name's cell (every text field but those read with
    /// [`Row::long_text`]) is clipped to its first [`MAX_NAME_CHARS`] characters, with a
    /// warning, before it is copied: a 5,000,000-character cluster name that 200 rows share
    /// costs 200 short copies, not 1 GB.
    pub(crate) fn text(&mut self, slot: usize) -> Option<String> {
        self.text_within(
            slot,
            MAX_NAME_CHARS,
            "vSphere names are at most 80 characters",
        )
    }

    /// Trimmed text of a field that lists or locates (a datastore's `Hosts`, a VM's
    /// `Path`, a URL): clipped to [`MAX_TEXT_CHARS`] characters with a warning.
    pub(crate) fn long_text(&mut self, slot: usize) -> Option<String> {
        self.text_within(slot, MAX_TEXT_CHARS, "longer than any export writes")
    }

    /// Trimmed text clipped to `max` characters; a clipped cell is warned of (`why` the
    /// limit is what it is).
    fn text_within(&mut self, slot: usize, max: usize, why: &str) -> Option<String> {
        let cell = self.cell(slot).text()?;
        let text = cell.trim();
        let Some((cut, _)) = text.char_indices().nth(max) else {
            return Some(text.to_string());
        };
        let kept = text[..cut].to_string();
        let chars = crate::numbers::group_thousands(text.chars().count() as f64, 0);
        drop(cell);
        self.warn(
            WarningKind::Bound,
            slot,
            format!(
                "text of {chars} characters; its first {} are kept ({why})",
                crate::numbers::group_thousands(max as f64, 0)
            ),
        );
        Some(kept)
    }

    /// A number; `None` when empty; a warning and `None` when not a number.
    pub(crate) fn number(&mut self, slot: usize) -> Option<f64> {
        let cell = self.cell(slot);
        if cell.is_empty() {
            return None;
        }
        match number_of(cell, self.mark) {
            Some(v) if v.is_finite() => Some(v),
            _ => {
                self.warn(
                    WarningKind::Value,
                    slot,
                    "not a number; value treated as unknown".to_string(),
                );
                None
            }
        }
    }

    /// A number that must not be negative (a size, a rate, a frequency); a warning and
    /// `None` otherwise.
    pub(crate) fn non_negative(&mut self, slot: usize) -> Option<f64> {
        let v = self.number(slot)?;
        if v < 0.0 {
            self.warn(
                WarningKind::Value,
                slot,
                "negative value; treated as unknown".to_string(),
            );
            return None;
        }
        Some(v)
    }

    /// The name that identifies the row's record (VM, host, datastore ...); `None` for a
    /// row without it, with a warning when the row holds other values (formatted empty rows
    /// stay silent).
    pub(crate) fn name(&mut self, slot: usize, what: &str) -> Option<String> {
        let name = self.text(slot);
        if name.is_none() && self.any_other_value(slot) {
            self.warn_row(
                WarningKind::Value,
                format!("row has values but no {what} name; skipped"),
            );
        }
        name
    }

    /// A whole, non-negative count (`CPUs`, `# Hosts`); `None` when empty; a warning and
    /// `None` for a negative or fractional value.
    pub(crate) fn count(&mut self, slot: usize) -> Option<u64> {
        let v = self.number(slot)?;
        if v < 0.0 || v.fract() != 0.0 || v > 9.0e15 {
            self.warn(
                WarningKind::Value,
                slot,
                "expected a whole non-negative count; value treated as unknown".to_string(),
            );
            return None;
        }
        Some(v as u64)
    }

    /// A boolean: a boolean cell, or text `True`/`False` (any case, also `Yes`/`No`, `1`/`0`).
    /// `None` when empty; a warning and `None` for anything else.
    pub(crate) fn boolean(&mut self, slot: usize) -> Option<bool> {
        let parsed = match self.cell(slot) {
            Value::Empty => return None,
            Value::Bool(b) => Some(*b),
            Value::Number(n) if *n == 0.0 => Some(false),
            Value::Number(n) if *n == 1.0 => Some(true),
            Value::Text(t) => {
                let t = t.trim();
                if t.eq_ignore_ascii_case("true") || t.eq_ignore_ascii_case("yes") || t == "1" {
                    Some(true)
                } else if t.eq_ignore_ascii_case("false")
                    || t.eq_ignore_ascii_case("no")
                    || t == "0"
                {
                    Some(false)
                } else {
                    None
                }
            }
            _ => None,
        };
        if parsed.is_none() {
            self.warn(
                WarningKind::Value,
                slot,
                "expected True or False; value treated as unknown".to_string(),
            );
        }
        parsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters() {
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(25), "Z");
        assert_eq!(column_letter(26), "AA");
        assert_eq!(column_letter(16383), "XFD");
    }

    #[test]
    fn normalizes() {
        assert_eq!(normalize_header("  Provisioned MiB "), "provisionedmib");
        assert_eq!(normalize_header("ProvisionedMiB"), "provisionedmib");
        assert_eq!(normalize_header("vInfoVMName"), "vinfovmname");
    }
}

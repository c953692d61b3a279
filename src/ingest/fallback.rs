//! Rows where a field's column and its fallback column ([`Resolved::fallbacks`]: `In Use
//! MiB` and `In Use MB` in one header) both hold a value and the values differ: the field's
//! own value is read; the rows are counted over the sheet and reported once per field, so a
//! sheet of a million such rows costs one warning per field.

use crate::ingest::table::{FieldSpec, Resolved, Row, column_letter, number_of};
use crate::ingest::value::{DecimalMark, Value};
use crate::inventory::{Warning, WarningKind};
use crate::numbers::{clip, counted};

/// The first row of a disagreement: its 1-based row, the field's value and the fallback's,
/// as displayed.
type FirstRow = (usize, String, String);

/// Per fallback (same order as [`Resolved::fallbacks`]): how many rows disagree, and the
/// first of them.
#[derive(Debug, Default)]
pub(crate) struct Disagreements {
    per_fallback: Vec<(u64, Option<FirstRow>)>,
}

impl Disagreements {
    /// No disagreement yet, for the fallbacks of `resolved` (at most one per field).
    pub(crate) fn new(resolved: &Resolved) -> Self {
        Disagreements {
            per_fallback: vec![(0, None); resolved.fallbacks.len()],
        }
    }

    /// Counts the fields of `row` whose own cell and fallback cell both hold a value and
    /// the values differ.
    pub(crate) fn check(&mut self, row: &Row<'_, '_>) {
        for (k, (field, _, _)) in row.resolved.fallbacks.iter().enumerate() {
            let Some(fallback) = row.resolved.fallback_slot(*field) else {
                continue;
            };
            let own = row.raw_cell(*field);
            let other = row.raw_cell(fallback);
            let numeric = row.specs.get(*field).is_some_and(|s| s.numeric);
            if own.is_empty() || other.is_empty() || same(own, other, numeric, row.mark) {
                continue;
            }
            if let Some((n, first)) = self.per_fallback.get_mut(k) {
                *n += 1;
                first.get_or_insert_with(|| (row.row, own.display(), other.display()));
            }
        }
    }

    /// One warning per field with disagreeing rows, at the first of them: how many rows,
    /// both columns and values, and that the field's own column is read.
    pub(crate) fn report(
        self,
        file: &str,
        sheet: &str,
        resolved: &Resolved,
        specs: &[FieldSpec],
        warnings: &mut Vec<Warning>,
    ) {
        for ((field, column, header), (n, first)) in
            resolved.fallbacks.iter().zip(self.per_fallback)
        {
            let Some((row, own, other)) = first else {
                continue;
            };
            let own_header = resolved.header(*field, specs);
            let own_column = resolved
                .columns
                .get(*field)
                .and_then(|c| c.as_ref())
                .map(|(c, _)| column_letter(*c))
                .unwrap_or_default();
            let which = if n == 1 {
                "this one"
            } else {
                "the first this one"
            };
            let message = format!(
                "{} {} different values in '{own_header}' (column {own_column}) and '{}' \
                 (column {}), {which} ({} and {}); the '{own_header}' value is read, the \
                 other ignored",
                counted(n, "row"),
                if n == 1 { "holds" } else { "hold" },
                clip(header),
                column_letter(*column),
                clip(&own),
                clip(&other),
            );
            warnings.push(Warning {
                kind: WarningKind::Layout,
                file: file.to_string(),
                sheet: Some(sheet.to_string()),
                row: Some(row),
                column: Some(own_header),
                value: Some(clip(&own)),
                message,
                more_alike: 0,
            });
        }
    }
}

/// Whether two non-empty cells hold the same value: as numbers for a numeric field when
/// both read as one (`1024` and `1,024.0`), else as trimmed text.
fn same(a: &Value<'_>, b: &Value<'_>, numeric: bool, mark: DecimalMark) -> bool {
    if numeric && let (Some(x), Some(y)) = (number_of(a, mark), number_of(b, mark)) {
        return x == y;
    }
    a.text().map(|t| t.trim().to_string()) == b.text().map(|t| t.trim().to_string())
}

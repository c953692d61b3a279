//! A plan's warnings as a model section: their count, a sentence on what the input's
//! count when some are about the input, then one line per cause (the plan's own first),
//! the first [`WARNINGS_SHOWN`] causes, each its kind (`(layout)`), its first warning with
//! how many alike at the end of its sentence, and how many more causes the JSON lists.

use crate::inventory::{Warning, warning_count, warning_shape};
use crate::numbers::group_thousands as g;
use crate::report::model::table::{Cell, Section};

/// Causes a report lists (the JSON and the workbook list every warning).
pub const WARNINGS_SHOWN: usize = 20;

/// The sentence before the list when some warning is about the input (names a file):
/// those count every row read, the VMs the plan leaves out included.
pub const INPUT_ROWS_NOTE: &str =
    "Warnings about the input count every row read, templates and excluded VMs included.";

/// `warnings` grouped by cause, in order, the plan's own first (they name no file, so a
/// long list of input warnings cannot hide them): a cause is the same kind, file, sheet and
/// column and a message alike but for its figures and quoted names
/// ([`warning_shape`]).
pub fn causes(warnings: &[Warning]) -> Vec<Vec<&Warning>> {
    // (kind, file, sheet, column, message shape).
    type Cause<'a> = (
        crate::inventory::WarningKind,
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        String,
    );
    let mut groups: Vec<(Cause<'_>, Vec<&Warning>)> = Vec::new();
    let (plan_wide, from_input): (Vec<&Warning>, Vec<&Warning>) =
        warnings.iter().partition(|w| w.file.is_empty());
    for w in plan_wide.into_iter().chain(from_input) {
        let key = (
            w.kind,
            w.file.as_str(),
            w.sheet.as_deref(),
            w.column.as_deref(),
            warning_shape(&w.message),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(w),
            None => groups.push((key, vec![w])),
        }
    }
    groups.into_iter().map(|(_, list)| list).collect()
}

/// The end of a cause's line, after its first warning's sentence: ` (and N more alike:
/// row 3, row 4 and 12 more)`, the places of the first few others (rows, or values where
/// a warning names no row); empty for a cause of one warning.
pub fn alike_suffix(list: &[&Warning]) -> String {
    const NAMED: usize = 3;
    let total = warning_count(list.iter().copied());
    if total <= 1 {
        return String::new();
    }
    let others: Vec<String> = list
        .iter()
        .skip(1)
        .filter_map(|w| match (w.row, &w.value) {
            (Some(r), _) => Some(format!("row {r}")),
            (None, Some(v)) => Some(format!("'{v}'")),
            (None, None) => None,
        })
        .collect();
    let more = total - 1;
    let named = others.len().min(NAMED);
    let places = match named {
        0 => String::new(),
        n if n == more => format!(": {}", others[..n].join(", ")),
        n => format!(
            ": {} and {} more",
            others[..n].join(", "),
            g((more - n) as f64, 0)
        ),
    };
    format!(" (and {} more alike{places})", g(more as f64, 0))
}

/// A cause as one line: its kind ([`kind_tag`]), its first warning (place and message,
/// [`Warning`]'s display) with [`alike_suffix`] at the end.
pub fn cause_line(list: &[&Warning]) -> String {
    let Some(first) = list.first() else {
        return String::new();
    };
    let tag = kind_tag(first);
    let first = Warning {
        more_alike: 0,
        ..(*first).clone()
    };
    format!("{tag}{first}{}", alike_suffix(list))
}

/// A warning's kind as the text and Markdown lists show it before its place and message:
/// `(layout) `.
pub fn kind_tag(w: &Warning) -> String {
    format!("({}) ", w.kind)
}

/// A warning as one line of a list: its kind ([`kind_tag`]), then its place and message
/// ([`Warning`]'s display): `(value) a.csv [vInfo] row 4 column 'CPUs' value 'x': ...`.
pub fn tagged_line(w: &Warning) -> String {
    format!("{}{w}", kind_tag(w))
}

/// `warnings` as a section titled `Warnings (N)`, N each warning and those it counts
/// (`None` without a warning): [`INPUT_ROWS_NOTE`] when some are about the input, then one
/// line per cause ([`causes`]), the first [`WARNINGS_SHOWN`], then how many more.
pub fn warnings(warnings: &[Warning]) -> Option<Section> {
    if warnings.is_empty() {
        return None;
    }
    let mut section = Section::of_words(
        format!("Warnings ({})", warning_count(warnings)),
        "Warnings",
    );
    if warnings.iter().any(|w| !w.file.is_empty()) {
        section.lead.push(INPUT_ROWS_NOTE.into());
    }
    let causes = causes(warnings);
    section.items = causes
        .iter()
        .take(WARNINGS_SHOWN)
        .map(|list| item(list))
        .collect();
    if causes.len() > WARNINGS_SHOWN {
        section.notes.push(format!(
            "... {} more causes (the JSON format lists every warning)",
            causes.len() - WARNINGS_SHOWN
        ));
    }
    Some(section)
}

/// A cause as a list entry: where its first warning was found (file, sheet, row, column:
/// the input's names, never reworded), its message and the others alike at the end.
fn item(list: &[&Warning]) -> Vec<Cell> {
    let Some(first) = list.first() else {
        return Vec::new();
    };
    let kind = Cell::text(kind_tag(first));
    let message = Cell::text(format!("{}{}", first.message, alike_suffix(list)));
    if first.file.is_empty() {
        return vec![kind, message];
    }
    let place = Warning {
        message: String::new(),
        more_alike: 0,
        ..(*first).clone()
    };
    vec![kind, Cell::Place(place.to_string()), message]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_row(row: usize, value: &str, message: &str) -> Warning {
        Warning {
            kind: crate::inventory::WarningKind::Value,
            file: "a.xlsx".into(),
            sheet: Some("vInfo".into()),
            row: Some(row),
            column: Some("Powerstate".into()),
            value: Some(value.into()),
            message: message.into(),
            more_alike: 0,
        }
    }

    #[test]
    fn a_cause_is_one_line_with_its_count_at_the_end() {
        // Rows 2..6 of one cause, the last standing for 160 more: 5 + 160 = 165 in all,
        // the first shown and 164 more alike, rows 3, 4, 5 named and 161 more.
        let mut list: Vec<Warning> = (2..=6)
            .map(|r| at_row(r, "On", "expected poweredOn; treated as unknown"))
            .collect();
        list[4].more_alike = 160;
        let section = warnings(&list).expect("a section");
        assert_eq!(section.title, "Warnings (165)");
        assert_eq!(section.lead, [INPUT_ROWS_NOTE]);
        assert_eq!(section.items.len(), 1);
        let shown: Vec<String> = section.items[0].iter().map(Cell::shown).collect();
        assert_eq!(
            shown.concat(),
            "(value) a.xlsx [vInfo] row 2 column 'Powerstate' value 'On': expected \
             poweredOn; treated as unknown (and 164 more alike: row 3, row 4, row 5 and 161 \
             more)"
        );
    }
}

//! A plan's warnings as a model section: their count, whether the input's count rows the
//! plan leaves out, the first [`WARNINGS_SHOWN`] (the plan's own first, then the input's)
//! and how many more the JSON lists.

use crate::inventory::{Warning, warning_count};
use crate::report::model::table::{Cell, Section};

/// Warnings a report lists (the JSON and the workbook list all).
pub const WARNINGS_SHOWN: usize = 20;

/// `warnings` as a section titled `Warnings (N)`, N each warning and those it counts
/// (`None` without a warning): a sentence when some are about the input (they cover every
/// row read, templates and excluded VMs included), the first [`WARNINGS_SHOWN`], the plan's
/// own first (they name no file) so that a long list of input warnings cannot hide them,
/// then how many more.
pub fn warnings(warnings: &[Warning]) -> Option<Section> {
    if warnings.is_empty() {
        return None;
    }
    let mut section = Section::of_words(
        format!("Warnings ({})", warning_count(warnings)),
        "Warnings",
    );
    if warnings.iter().any(|w| !w.file.is_empty()) {
        section
            .lead
            .push("The input's cover every row read, templates and excluded VMs included".into());
    }
    let (plan_wide, from_input): (Vec<&Warning>, Vec<&Warning>) =
        warnings.iter().partition(|w| w.file.is_empty());
    section.items = plan_wide
        .into_iter()
        .chain(from_input)
        .take(WARNINGS_SHOWN)
        .map(item)
        .collect();
    if warnings.len() > WARNINGS_SHOWN {
        section.notes.push(format!(
            "... {} more (the JSON format lists all)",
            warnings.len() - WARNINGS_SHOWN
        ));
    }
    Some(section)
}

/// A warning as a list entry: where it was found (file, sheet, row, column: the input's
/// names, never reworded) and its message.
fn item(w: &Warning) -> Vec<Cell> {
    let place = Warning {
        message: String::new(),
        ..w.clone()
    };
    if w.file.is_empty() {
        return vec![Cell::text(w.message.clone())];
    }
    vec![
        Cell::Place(place.to_string()),
        Cell::text(w.message.clone()),
    ]
}

//! Warnings grouped by cause: warnings of one kind whose messages differ only in their
//! figures and quoted names are one cause, shown with its kind, its count and its first few.

use std::fmt::Write as _;

use super::escape::escape;
use crate::inventory::warning_shape as shape;
use crate::inventory::{Warning, WarningKind};

/// Warnings of one cause shown in full; the rest are counted.
const SHOWN_PER_CAUSE: usize = 3;

/// Warnings of one cause, in the order they came.
#[derive(Clone)]
pub struct Cause<'a> {
    /// The warnings.
    pub warnings: Vec<&'a Warning>,
    /// Whether they can change the decision ([`decisive`]), shown first in their own box.
    pub decisive: bool,
}

/// Whether a warning can change the decision: one about the plan as a whole (no file
/// named), one whose kind is about the estate, prices, settings, Azure's rules or the
/// plan's own choices, or a layout warning about a whole sheet or column (no row named:
/// a column missing, so every VM's figure comes from another). A row's own value or
/// identity is not: it moves one VM, and is listed under the warnings.
pub fn decisive(w: &Warning) -> bool {
    w.file.is_empty()
        || matches!(
            w.kind,
            WarningKind::Estate
                | WarningKind::Price
                | WarningKind::Setting
                | WarningKind::Azure
                | WarningKind::Plan
        )
        || (w.kind == WarningKind::Layout && w.row.is_none())
}

/// `warnings` by cause (kind and message shape), in the order each cause first comes.
pub fn causes<'a>(warnings: impl IntoIterator<Item = &'a Warning>) -> Vec<Cause<'a>> {
    let mut keys: Vec<(WarningKind, String)> = Vec::new();
    let mut out: Vec<Cause<'a>> = Vec::new();
    for w in warnings {
        let key = (w.kind, shape(&w.message));
        match keys.iter().position(|k| *k == key) {
            Some(i) => out[i].warnings.push(w),
            None => {
                keys.push(key);
                out.push(Cause {
                    warnings: vec![w],
                    decisive: decisive(w),
                });
            }
        }
    }
    out
}

/// The causes as a list: each its kind ([`WarningKind`], in a `kind` span) and count, then
/// its first [`SHOWN_PER_CAUSE`] warnings with where they were found.
pub fn causes_html(s: &mut String, causes: &[Cause]) {
    s.push_str("<ul class=\"warnings\">\n");
    for cause in causes {
        let n = crate::inventory::warning_count(cause.warnings.iter().copied());
        let kind = cause.warnings.first().map_or("", |w| w.kind.as_str());
        let _ = write!(
            s,
            "<li><span class=\"kind\">{kind}</span> <strong>{n} warning(s)</strong>"
        );
        if n == 1 {
            let _ = writeln!(s, ": {}</li>", warning_html(cause.warnings[0]));
            continue;
        }
        s.push_str(", for example:\n<ul>\n");
        for w in cause.warnings.iter().take(SHOWN_PER_CAUSE) {
            let _ = writeln!(s, "<li>{}</li>", warning_html(w));
        }
        let shown = cause.warnings.len().min(SHOWN_PER_CAUSE);
        let shown_count =
            crate::inventory::warning_count(cause.warnings.iter().take(shown).copied());
        if n > shown_count {
            let _ = writeln!(s, "<li class=\"muted\">and {} more</li>", n - shown_count);
        }
        s.push_str("</ul></li>\n");
    }
    s.push_str("</ul>\n");
}

/// One warning with its place (file, sheet, row, cell) as read and its message in
/// customer words, escaped.
pub fn warning_html(w: &Warning) -> String {
    // The place alone: the count of the others alike is the cause's, said around it.
    let place = Warning {
        message: String::new(),
        more_alike: 0,
        ..w.clone()
    };
    let place = if w.file.is_empty() {
        String::new()
    } else {
        place.to_string()
    };
    escape(&place) + &super::model::words(&w.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_differing_in_figures_and_names_are_one_cause() {
        let a = Warning::plan_wide(
            WarningKind::Estate,
            "VM 'a' has 2,048.0 GiB of RDM disks".into(),
        );
        let b = Warning::plan_wide(WarningKind::Estate, "VM 'bb' has 7 GiB of RDM disks".into());
        let c = Warning::plan_wide(WarningKind::Plan, "2 of 2 clusters at the minimum".into());
        // The same message of another kind is another cause.
        let d = Warning::plan_wide(WarningKind::Value, "VM 'c' has 1 GiB of RDM disks".into());
        let grouped = causes([&a, &b, &c, &d]);
        assert_eq!(grouped.len(), 3);
        assert_eq!(grouped[0].warnings.len(), 2);
        assert_eq!(grouped[1].warnings.len(), 1);
        // Each cause here names no file: each can change the decision.
        assert!(grouped.iter().all(|c| c.decisive));
        let mut s = String::new();
        causes_html(&mut s, &grouped);
        assert!(
            s.contains(
                "<li><span class=\"kind\">estate</span> <strong>2 warning(s)</strong>, for \
                 example:"
            ),
            "{s}"
        );
        assert!(s.contains("VM &#39;bb&#39; has 7 GiB"), "{s}");
    }

    #[test]
    fn a_rows_value_is_not_decisive_a_missing_column_or_an_rdm_is() {
        let origin = crate::inventory::Origin {
            file: "a.csv".into(),
            sheet: "vInfo".into(),
            row: 4,
        };
        // A cell of one row: listed, not in the box.
        let cell = Warning::at_row(WarningKind::Value, &origin, "a bad cell".into());
        assert!(!decisive(&cell));
        let twin = Warning::at_row(WarningKind::Identity, &origin, "a name twice".into());
        assert!(!decisive(&twin));
        // A VM's RDM disks not planned (estate), at its row: in the box.
        let rdm = Warning::at_row(WarningKind::Estate, &origin, "RDM disks".into());
        assert!(decisive(&rdm));
        // A column no input has: about the sheet, no row: in the box.
        let column = Warning::in_sheet(
            WarningKind::Layout,
            "a.csv",
            "vInfo",
            "no `In Use MiB`".into(),
        );
        assert!(decisive(&column));
        // A layout warning at a row (a header spelt twice, say) is not.
        let header = Warning::at_row(WarningKind::Layout, &origin, "two columns".into());
        assert!(!decisive(&header));
    }
}

//! A model section as text: its title, the sentences before, the table in aligned columns
//! (figures right-aligned, two spaces apart), the list, the sentences after, each line
//! indented two spaces.

use std::fmt::Write as _;

use crate::numbers::clip_name;
use crate::report::model::table::{Cell, Section, Table};

/// Writes a headline section (no title line, no blank line before): its first sentence
/// after `first`, then one line each after `rest`.
pub(in crate::report) fn write_headline(
    s: &mut String,
    headline: &Section,
    first: &str,
    rest: &str,
) {
    for (i, line) in headline.lead.iter().enumerate() {
        let prefix = if i == 0 { first } else { rest };
        let _ = writeln!(s, "{prefix}{line}");
    }
}

/// Writes `section` (with the blank line before it).
pub(in crate::report) fn write_section(s: &mut String, section: &Section) {
    let _ = writeln!(s, "\n{}", section.title);
    for l in &section.lead {
        let _ = writeln!(s, "  {l}");
    }
    if let Some(t) = &section.table {
        write_table(s, t);
    }
    for i in &section.items {
        let _ = writeln!(s, "  {}", shown(i).concat());
    }
    for n in &section.notes {
        let _ = writeln!(s, "  {n}");
    }
}

/// Cells as text: a name from the input clipped ([`clip_name`]), the rest as shown.
fn shown(r: &[Cell]) -> Vec<String> {
    r.iter()
        .map(|c| match c {
            Cell::Name(n) => clip_name(n).into_owned(),
            other => other.shown(),
        })
        .collect()
}

/// The table: a header row, then each row, columns as wide as their widest cell.
fn write_table(s: &mut String, t: &Table) {
    let cells = shown;
    let header: Vec<String> = t.columns.iter().map(|c| c.header()).collect();
    let rows: Vec<Vec<String>> = t.rows.iter().map(|r| cells(r)).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    for r in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for ((c, w), col) in r.iter().zip(&widths).zip(&t.columns) {
            if col.numeric {
                let _ = write!(line, "  {c:>w$}");
            } else {
                let _ = write!(line, "  {c:<w$}");
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
}

//! A model section as Markdown: its sentences and a pipe table.

use std::fmt::Write as _;

use crate::numbers::clip_name;
use crate::report::markdown::{cell, name, table};
use crate::report::model::table::{Cell, Section};
use crate::report::safe::{Keep, escape_controls};

/// Writes `section` under a heading of `level` (`2`: `## `), then its body ([`body`]).
pub(in crate::report) fn write_section(s: &mut String, section: &Section, level: usize) {
    let _ = writeln!(s, "{} {}\n", "#".repeat(level), section.title);
    s.push_str(&body(section));
}

/// The body of `section` as Markdown: the sentences before, the table (numbers
/// right-aligned; names from the input escaped), the list (`- `), the sentences after,
/// each sentence its own paragraph.
fn body(section: &Section) -> String {
    let mut s = String::new();
    for l in &section.lead {
        // A sentence ends with one full stop, whether its model gave one or not.
        let stop = if l.ends_with('.') { "" } else { "." };
        let _ = writeln!(s, "{}{stop}\n", cell(l));
    }
    if let Some(t) = &section.table {
        let header: Vec<String> = t.columns.iter().map(|c| c.header()).collect();
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let numeric: Vec<bool> = t.columns.iter().map(|c| c.numeric).collect();
        let rows: Vec<Vec<String>> = t.rows.iter().map(|r| shown(r)).collect();
        table(&mut s, &header, &numeric, &rows);
    }
    for i in &section.items {
        let _ = writeln!(s, "- {}", cell(&shown(i).concat()));
    }
    if !section.items.is_empty() {
        let _ = writeln!(s);
    }
    for n in &section.notes {
        let _ = writeln!(s, "{}.\n", cell(n));
    }
    s
}

/// Cells as Markdown: a name from the input clipped, its control characters escaped
/// ([`escape_controls`]) and its Markdown escaped ([`name`]), the rest as shown.
fn shown(r: &[Cell]) -> Vec<String> {
    r.iter()
        .map(|c| match c {
            Cell::Name(n) => name(&escape_controls(&clip_name(n), Keep::Nothing)),
            other => other.shown(),
        })
        .collect()
}

//! A model section's body as HTML: its sentences as paragraphs and its table built from
//! the typed cells (figures right-aligned), every text in customer words and escaped; a
//! name from the input is escaped, never reworded.

use std::fmt::Write as _;

use super::escape::escape;
use crate::numbers::clip_name;
use crate::report::model::headline::capitalised;
use crate::report::model::table::{Cell, Section, Table};
use crate::report::words::customer_words;
use crate::settings::flag;

/// The body of `section` as HTML: sentences before, the table, the list, sentences after.
pub(super) fn body_html(section: &Section) -> String {
    let mut s = String::new();
    for l in &section.lead {
        let _ = writeln!(s, "<p>{}.</p>", words(l));
    }
    if let Some(t) = &section.table {
        table_html(&mut s, t);
    }
    if !section.items.is_empty() {
        s.push_str("<ul>\n");
        for i in &section.items {
            let item: String = i.iter().map(|c| cell_html(c, false)).collect();
            let _ = writeln!(s, "<li>{item}</li>");
        }
        s.push_str("</ul>\n");
    }
    for n in &section.notes {
        let _ = writeln!(s, "<p>{}.</p>", words(n));
    }
    s
}

/// Plan words for a customer, escaped.
pub(super) fn words(text: &str) -> String {
    escape(&customer_words(text))
}

/// The table: header, then rows; a `setting` column names each setting by its flag.
fn table_html(s: &mut String, t: &Table) {
    let class = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
    s.push_str("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for c in &t.columns {
        let _ = write!(s, "<th{}>{}</th>", class(c.numeric), words(&c.header()));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    let settings = t.columns.first().is_some_and(|c| c.name == "setting");
    for row in &t.rows {
        s.push_str("<tr>");
        for (i, (cell, col)) in row.iter().zip(&t.columns).enumerate() {
            let text = cell_html(cell, settings && i == 0);
            let _ = write!(s, "<td{}>{text}</td>", class(col.numeric));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

/// A cell as HTML: a name from the input clipped and escaped, a place in the input
/// escaped, neither reworded; a `setting`
/// (the first column of a settings table) by its flag; the rest in customer words.
fn cell_html(cell: &Cell, setting: bool) -> String {
    match cell {
        Cell::Name(n) => escape(&clip_name(n)),
        Cell::Place(p) => escape(p),
        Cell::Text(t) if setting => escape(&flag(t).unwrap_or_else(|| t.replace('_', " "))),
        other => words(&other.shown()),
    }
}

/// A headline's sentences, in customer words: the first in bold, then a list, each
/// starting upper case.
pub(super) fn headline_html(section: &Section) -> String {
    let mut s = String::new();
    let mut lines = section.lead.iter();
    if let Some(first) = lines.next() {
        let _ = writeln!(s, "<p><strong>{}.</strong></p>", words(first));
    }
    s.push_str("<ul>\n");
    for l in lines {
        let _ = writeln!(s, "<li>{}.</li>", words(&capitalised(l)));
    }
    s.push_str("</ul>\n");
    s
}

//! A model section as text: its title, the sentences before, the table in aligned columns
//! (figures right-aligned, two spaces apart), the list, the sentences after, each line
//! indented two spaces.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr as _;

use crate::numbers::clip_name;
use crate::report::model::table::{Cell, Section, Table};
use crate::report::safe::{Keep, escape_controls};

/// Columns `text` takes on a terminal: an East Asian wide character (`東京`) takes two, a
/// combining mark none (Unicode Standard Annex #11, by the unicode-width crate), so tables
/// of such names stay aligned where counting characters would not.
pub(in crate::report) fn columns(text: &str) -> usize {
    text.width()
}

/// `text` padded with spaces to `width` columns ([`columns`]): on the left when
/// `right_aligned`, else on the right. Text already as wide or wider is left as it is.
pub(in crate::report) fn padded(text: &str, width: usize, right_aligned: bool) -> String {
    let pad = " ".repeat(width.saturating_sub(columns(text)));
    if right_aligned {
        format!("{pad}{text}")
    } else {
        format!("{text}{pad}")
    }
}

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

/// Cells as text: a name from the input clipped ([`clip_name`]) and its control characters
/// escaped ([`escape_controls`]: a line break too, a name is one line), so the column's
/// width is the escaped text's; the rest as shown.
fn shown(r: &[Cell]) -> Vec<String> {
    r.iter()
        .map(|c| match c {
            Cell::Name(n) => escape_controls(&clip_name(n), Keep::Nothing).into_owned(),
            other => other.shown(),
        })
        .collect()
}

/// The table: a header row, then each row, columns as wide as their widest cell.
fn write_table(s: &mut String, t: &Table) {
    let cells = shown;
    let header: Vec<String> = t.columns.iter().map(|c| c.header()).collect();
    let rows: Vec<Vec<String>> = t.rows.iter().map(|r| cells(r)).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| columns(h)).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(columns(c));
        }
    }
    for r in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for ((c, w), col) in r.iter().zip(&widths).zip(&t.columns) {
            let _ = write!(line, "  {}", padded(c, *w, col.numeric));
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::table::Column;

    #[test]
    fn wide_characters_keep_the_columns_aligned() {
        // "東京" is two East Asian wide characters: 4 terminal columns (2 characters).
        // "abc" is 3. The name column is 4 wide (its header "cluster" is 7: 7 wins), the
        // figure column "VMs" 3 wide; each line is "  " + name padded to 7 + "  " + figure
        // right-aligned to 3, so every line ends at terminal column 2 + 7 + 2 + 3 = 14.
        let table = Table {
            columns: vec![Column::words("cluster"), Column::figures("VMs", "")],
            rows: vec![
                vec![Cell::Name("東京".into()), Cell::Count(12)],
                vec![Cell::Name("abc".into()), Cell::Count(7)],
            ],
        };
        let mut s = String::new();
        write_table(&mut s, &table);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(
            lines,
            ["  cluster  VMs", "  東京      12", "  abc        7"]
        );
        for l in &lines {
            assert_eq!(columns(l), 14, "{l:?}");
        }
    }

    #[test]
    fn padding_counts_columns_not_characters() {
        // "日本" takes 4 columns: 2 spaces pad it to 6; a 7-column text is left as it is.
        assert_eq!(padded("日本", 6, false), "日本  ");
        assert_eq!(padded("日本", 6, true), "  日本");
        assert_eq!(padded("cluster", 6, true), "cluster");
        // A combining acute accent takes no column: "é" as e + U+0301 is 1 wide.
        assert_eq!(columns("e\u{301}"), 1);
    }
}

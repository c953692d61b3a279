//! Model sections ([`crate::report::model`]) on sheets: each typed cell as a workbook cell
//! (numbers with their format, yes/no as Excel booleans), and a sheet of its own for a
//! section whose sheet the workbook does not build with formulas.

use super::cells::{self, Cell, Fmt, Sheet};
use crate::report::model::table::{Cell as ModelCell, Section, Table};

/// A model cell as a workbook cell: words as text, a number in the format of its decimals
/// (whole, one decimal, cents, else as Excel shows it), USD to the cent, a count whole,
/// yes/no as a boolean, an unknown USD as `unknown`, nothing as `-`.
pub fn cell(c: &ModelCell) -> Cell {
    match c {
        ModelCell::Text(s) | ModelCell::Name(s) | ModelCell::Place(s) => cells::text(s.clone()),
        ModelCell::Number { value, decimals } => {
            let fmt = match decimals {
                0 => Fmt::Int,
                1 => Fmt::Dec1,
                2 => Fmt::Usd,
                _ => Fmt::General,
            };
            Cell::Num(*value, fmt)
        }
        ModelCell::Usd(v) => cells::usd(*v),
        ModelCell::MaybeUsd(v) => cells::opt(*v, cells::usd),
        ModelCell::Count(n) => Cell::Num(*n as f64, Fmt::Int),
        ModelCell::YesNo(b) => cells::boolean(*b),
        ModelCell::Dash => cells::text("-"),
    }
}

/// Appends the rows of `table` to `sheet`, each after the `lead` cells.
pub fn add_rows(sheet: &mut Sheet, lead: &[Cell], table: &Table) {
    for r in &table.rows {
        let mut row = lead.to_vec();
        row.extend(r.iter().map(cell));
        sheet.rows.push(row);
    }
}

/// A sheet of `section` alone: its table's header and rows (a section without a table: its
/// sentences and list, one a row).
pub fn section_sheet(section: &Section) -> Sheet {
    match &section.table {
        Some(t) => {
            let header: Vec<String> = t.columns.iter().map(|c| c.header()).collect();
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            let mut sheet = Sheet::new(section.sheet, &header);
            add_rows(&mut sheet, &[], t);
            sheet
        }
        None => {
            let mut sheet = Sheet::new(section.sheet, &[section.title.as_str()]);
            for s in section.lead.iter() {
                sheet.rows.push(vec![cells::text(s.clone())]);
            }
            for i in &section.items {
                sheet.rows.push(i.iter().map(cell).collect());
            }
            for s in section.notes.iter() {
                sheet.rows.push(vec![cells::text(s.clone())]);
            }
            sheet
        }
    }
}

/// Adds a sheet for each of `sections` whose sheet `sheets` lacks (a section the model
/// gained before the workbook built it with formulas), so every section has a sheet.
pub fn add_missing(sheets: &mut Vec<Sheet>, sections: &[Section]) {
    for s in sections {
        if !sheets.iter().any(|x| x.name == s.sheet) {
            sheets.push(section_sheet(s));
        }
    }
}

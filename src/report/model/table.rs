//! The table model every format renders: a [`Section`] (title, its workbook sheet, the
//! sentences before and after, one [`Table`] of typed [`Cell`]s, a list). Text, Markdown and HTML
//! show a cell as [`Cell::shown`]; the workbook writes its number with its format.

use crate::numbers::group_thousands;

/// One cell of a [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// The plan's own words (put in customer words by the HTML and the workbook).
    Text(String),
    /// A name from the input (VM, cluster, datastore): shown as written, never reworded.
    Name(String),
    /// Where something was found in the input (`file [sheet] row 4, column Host: `):
    /// shown whole, never reworded.
    Place(String),
    /// A number with thousands separators and `decimals` decimals (its unit is the
    /// column's).
    Number {
        /// The value.
        value: f64,
        /// Decimals shown.
        decimals: usize,
    },
    /// USD with cents.
    Usd(f64),
    /// USD with cents, or `unknown` (no host price).
    MaybeUsd(Option<f64>),
    /// A count, as plain digits.
    Count(u64),
    /// Yes or no.
    YesNo(bool),
    /// Nothing to show: `-`.
    Dash,
}

impl Cell {
    /// A number with `decimals` decimals.
    pub fn number(value: f64, decimals: usize) -> Cell {
        Cell::Number { value, decimals }
    }

    /// The plan's words.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// The cell as text, Markdown and HTML show it (before escaping): numbers grouped
    /// (`1,234.5`), USD to the cent, yes/no, `unknown` for an unknown USD, `-`.
    pub fn shown(&self) -> String {
        match self {
            Cell::Text(s) | Cell::Name(s) | Cell::Place(s) => s.clone(),
            Cell::Number { value, decimals } => group_thousands(*value, *decimals),
            Cell::Usd(v) => group_thousands(*v, 2),
            Cell::MaybeUsd(v) => v.map_or_else(|| "unknown".to_string(), |v| group_thousands(v, 2)),
            Cell::Count(n) => group_thousands(*n as f64, 0),
            Cell::YesNo(b) => if *b { "yes" } else { "no" }.to_string(),
            Cell::Dash => "-".to_string(),
        }
    }
}

/// A column: its name and unit (the header reads `name unit`), and whether its cells are
/// figures (right-aligned).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The column's name (`size`, `predicted IOPS`); empty when the unit says it all.
    pub name: String,
    /// The unit of its figures (`TiB`, `USD/month`), if any.
    pub unit: Option<&'static str>,
    /// Figures: right-aligned.
    pub numeric: bool,
}

impl Column {
    /// A column of words.
    pub fn words(name: &str) -> Column {
        Column {
            name: name.to_string(),
            unit: None,
            numeric: false,
        }
    }

    /// A column of figures in `unit` (`""`: none).
    pub fn figures(name: &str, unit: &'static str) -> Column {
        Column {
            name: name.to_string(),
            unit: (!unit.is_empty()).then_some(unit),
            numeric: true,
        }
    }

    /// The header: `name unit`, or either alone.
    pub fn header(&self) -> String {
        match (self.name.is_empty(), self.unit) {
            (_, None) => self.name.clone(),
            (true, Some(u)) => u.to_string(),
            (false, Some(u)) => format!("{} {u}", self.name),
        }
    }
}

/// A plain typed table: columns and rows of cells (each row as long as the columns).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows.
    pub rows: Vec<Vec<Cell>>,
}

/// One section of a report, as every format shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Its heading (`Pools`, `Prices (eastus)`).
    pub title: String,
    /// The workbook sheet that holds its rows (`Pools`, `Excluded`).
    pub sheet: &'static str,
    /// Sentences before the table (without their final point).
    pub lead: Vec<String>,
    /// Its table (none: the section is its sentences).
    pub table: Option<Table>,
    /// A list after the table, one entry a line (warnings, excluded VMs by name): each
    /// entry its cells one after the other, names from the input as [`Cell::Name`].
    pub items: Vec<Vec<Cell>>,
    /// Sentences after the table and the list (without their final point).
    pub notes: Vec<String>,
}

impl Section {
    /// A section of one table and no sentences.
    pub fn of_table(title: impl Into<String>, sheet: &'static str, table: Table) -> Section {
        Section {
            title: title.into(),
            sheet,
            lead: Vec::new(),
            table: Some(table),
            items: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A section of sentences alone (no table).
    pub fn of_words(title: impl Into<String>, sheet: &'static str) -> Section {
        Section {
            title: title.into(),
            sheet,
            lead: Vec::new(),
            table: None,
            items: Vec::new(),
            notes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_show_grouped_figures_and_words() {
        assert_eq!(Cell::number(1234.56, 1).shown(), "1,234.6");
        assert_eq!(Cell::Usd(1175.5).shown(), "1,175.50");
        assert_eq!(Cell::MaybeUsd(None).shown(), "unknown");
        assert_eq!(Cell::Count(1234).shown(), "1,234");
        assert_eq!(Cell::YesNo(false).shown(), "no");
        assert_eq!(Column::figures("size", "TiB").header(), "size TiB");
        assert_eq!(Column::figures("", "USD/month").header(), "USD/month");
    }
}

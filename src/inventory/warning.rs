//! One [`Warning`]: what is wrong, where it was found, and its cause ([`WarningKind`]), so a
//! program can keep the warnings it acts on (the prices to check, the rows to fix) without
//! reading their sentences.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Origin;
#[cfg(doc)]
use super::{KEPT_PER_CAUSE, bound_warnings, warning_shape};

/// What a [`Warning`] is about: its cause, for a program to sort or filter warnings by (a
/// service keeping the ones about prices; a form showing the input's problems apart from the
/// plan's notes). Shown and read by its snake_case name (`layout`, `value`), as its JSON
/// writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WarningKind {
    /// The input's shape: a file, tab or column missing, unknown, repeated or spelt two
    /// ways; an input's form (a nested zip, decimal marks, several vMetaData rows); a tab
    /// that could not be read. Example: "two columns hold In Use MiB: 'In Use MiB' (column
    /// F) and 'In Use MB' (column G); reading 'In Use MiB' ...".
    Layout,
    /// A cell's value: unreadable, out of range, at odds with another cell, or unknown and
    /// taken from elsewhere (another tab, another capacity figure) or counted as 0.
    /// Example: "0 vCPUs, but a VM has at least one; treated as unknown".
    Value,
    /// Which VM, host, cluster, datastore or input a row is: rows that repeat one already
    /// read, inputs that repeat or overlap (the newer kept), names that match several or
    /// none, vCenters spelt two ways. Example: "2 VM row(s) repeat a VM already read ...:
    /// not counted again".
    Identity,
    /// The per-VM performance figures (a `perf` file, a Live Optics sheet): rows that join
    /// no VM or several, figures not used, targets taken from their sums. Example: "VM
    /// 'db-9' is not in the inventory; the row is not joined".
    Performance,
    /// A price: missing, another region's, implausible, or a service level the price list
    /// does not sell in the region. Example: "no public 1y price for av36 (`host_term` 1y):
    /// ... the host cost and the saving against vSAN alone are unknown".
    Price,
    /// A setting: one this plan does not use, one that names several things, or one whose
    /// value (or absence) weakens the plan. Example: "no IOPS or MiB/s target was given
    /// ...: the plan is sized for capacity only".
    Setting,
    /// What Azure must allow or offer: a quota or account limit the plan passes, a region
    /// not listed for ANF datastores, hosts Microsoft retires, large volumes to confirm.
    /// Example: "the estate's pools provision 1,200 TiB in westeurope, above the default
    /// regional capacity quota ...".
    Azure,
    /// Something in the source estate that AVS cannot take as it is: RDM disks, a VM larger
    /// than any host, an overcommitted datastore. Example: "VM 'sql-1' has 512.0 GiB of RDM
    /// disks (vDisk `Raw`) ... AVS has no RDMs".
    Estate,
    /// Something cut short to keep the output bounded: a cell's text clipped to its first
    /// characters. Example: "text of 70,000 characters; its first 32,767 are kept ...".
    Bound,
    /// A note on the plan's own choices and results: a service level raised for a
    /// reservation, hosts capped, VMDKs spread, a datastore left empty, a cheaper grouping.
    /// Example: "service level premium, not the standard that is cheapest pay as you go
    /// ...".
    Plan,
}

impl WarningKind {
    /// Every kind, in declaration order.
    pub const ALL: [WarningKind; 10] = [
        WarningKind::Layout,
        WarningKind::Value,
        WarningKind::Identity,
        WarningKind::Performance,
        WarningKind::Price,
        WarningKind::Setting,
        WarningKind::Azure,
        WarningKind::Estate,
        WarningKind::Bound,
        WarningKind::Plan,
    ];

    /// The kind's name as shown and as its JSON writes it (`layout`).
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::Layout => "layout",
            WarningKind::Value => "value",
            WarningKind::Identity => "identity",
            WarningKind::Performance => "performance",
            WarningKind::Price => "price",
            WarningKind::Setting => "setting",
            WarningKind::Azure => "azure",
            WarningKind::Estate => "estate",
            WarningKind::Bound => "bound",
            WarningKind::Plan => "plan",
        }
    }
}

impl fmt::Display for WarningKind {
    /// [`WarningKind::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`WarningKind`]: the text given (clipped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a warning kind (expected layout, value, identity, performance, price, \
     setting, azure, estate, bound or plan)"
)]
pub struct UnknownWarningKind(pub String);

impl FromStr for WarningKind {
    type Err = UnknownWarningKind;

    /// A kind by its name, trimmed, any case:
    ///
    /// ```
    /// use dsplan::inventory::WarningKind;
    ///
    /// assert_eq!("performance".parse::<WarningKind>()?, WarningKind::Performance);
    /// assert_eq!(WarningKind::Price.to_string(), "price");
    /// assert!("prices".parse::<WarningKind>().is_err());
    /// # Ok::<(), dsplan::inventory::UnknownWarningKind>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        WarningKind::ALL
            .into_iter()
            .find(|k| t.eq_ignore_ascii_case(k.as_str()))
            .ok_or_else(|| UnknownWarningKind(crate::numbers::clip(s)))
    }
}

/// A data-quality problem found while reading, or a note on the plan: the reader or the
/// planner went on, and the plan reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct Warning {
    /// What the warning is about ([`WarningKind`]).
    pub kind: WarningKind,
    /// Input file path.
    pub file: String,
    /// Sheet (tab) name, when the problem is inside one.
    pub sheet: Option<String>,
    /// 1-based row (header = 1), when the problem is in a row.
    pub row: Option<usize>,
    /// Column header, when the problem is in a cell.
    pub column: Option<String>,
    /// The offending cell value as text, when there is one.
    pub value: Option<String>,
    /// What is wrong and what the reader did about it.
    pub message: String,
    /// How many more warnings of this cause (the same kind, file, sheet and column, the
    /// message alike but for its figures and quoted names: [`warning_shape`]) were counted
    /// but not kept: past [`KEPT_PER_CAUSE`] of a cause, warnings are counted on the last
    /// one kept ([`bound_warnings`]), so memory follows the causes, not the rows. 0 when
    /// none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_alike: usize,
}

/// Whether a count is 0 (serde's `skip_serializing_if`).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Warning {
    /// A warning of `kind` about the plan as a whole: no file, sheet, row or cell to name.
    pub fn plan_wide(kind: WarningKind, message: String) -> Warning {
        Warning {
            kind,
            file: String::new(),
            sheet: None,
            row: None,
            column: None,
            value: None,
            message,
            more_alike: 0,
        }
    }

    /// A warning of `kind` about a file's `sheet` as a whole (no row named).
    pub fn in_sheet(kind: WarningKind, file: &str, sheet: &str, message: String) -> Warning {
        Warning {
            file: file.to_string(),
            sheet: Some(sheet.to_string()),
            ..Warning::plan_wide(kind, message)
        }
    }

    /// A warning of `kind` about the cell of `column` in the row at `origin`, with its
    /// `value`.
    pub fn at_cell(
        kind: WarningKind,
        origin: &Origin,
        column: String,
        value: Option<String>,
        message: String,
    ) -> Warning {
        Warning {
            column: Some(column),
            value,
            ..Warning::at_row(kind, origin, message)
        }
    }

    /// A warning of `kind` about the row at `origin` as a whole (no column or value).
    pub fn at_row(kind: WarningKind, origin: &Origin, message: String) -> Warning {
        Warning {
            file: origin.file.to_string(),
            sheet: Some(origin.sheet.to_string()),
            row: Some(origin.row),
            ..Warning::plan_wide(kind, message)
        }
    }

    /// What the warning is about.
    pub fn kind(&self) -> WarningKind {
        self.kind
    }
}

impl fmt::Display for Warning {
    /// `file [sheet] row N column 'C' value 'V': message (and N more alike)`, the parts
    /// the warning has; a plan-wide warning is its message. The kind is not written: a
    /// list shows it beside the text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            // A warning about the plan as a whole: no place to name.
            return write!(f, "{}", self.message);
        }
        write!(f, "{}", self.file)?;
        if let Some(sheet) = &self.sheet {
            write!(f, " [{sheet}]")?;
        }
        if let Some(row) = self.row {
            write!(f, " row {row}")?;
        }
        if let Some(column) = &self.column {
            write!(f, " column '{column}'")?;
        }
        if let Some(value) = &self.value {
            write!(f, " value '{value}'")?;
        }
        write!(f, ": {}", self.message)?;
        if self.more_alike > 0 {
            write!(
                f,
                " (and {} more alike)",
                crate::numbers::group_thousands(self.more_alike as f64, 0)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_what_it_shows_and_its_json_name() {
        for kind in WarningKind::ALL {
            let shown = kind.to_string();
            assert_eq!(shown.parse::<WarningKind>(), Ok(kind), "{shown}");
            assert_eq!(
                format!(" {} ", shown.to_uppercase()).parse::<WarningKind>(),
                Ok(kind)
            );
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{shown}\""));
            assert_eq!(serde_json::from_str::<WarningKind>(&json).unwrap(), kind);
        }
        // Ten kinds, ten names.
        let names: std::collections::HashSet<&str> =
            WarningKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names.len(), 10);
        let e = "prices".parse::<WarningKind>().unwrap_err();
        assert!(e.to_string().contains("'prices'"), "{e}");
    }

    #[test]
    fn a_warning_writes_its_kind_first_in_json_and_reads_it_back() {
        let origin = Origin {
            file: "a.xlsx".into(),
            sheet: "vInfo".into(),
            row: 4,
        };
        let w = Warning::at_cell(
            WarningKind::Value,
            &origin,
            "CPUs".into(),
            Some("x".into()),
            "not a number; value treated as unknown".into(),
        );
        assert_eq!(w.kind(), WarningKind::Value);
        let json = serde_json::to_string(&w).unwrap();
        assert!(
            json.starts_with(r#"{"kind":"value","file":"a.xlsx""#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Warning>(&json).unwrap(), w);
        // The text is the place and the message: the kind is shown beside it by the lists.
        assert_eq!(
            w.to_string(),
            "a.xlsx [vInfo] row 4 column 'CPUs' value 'x': not a number; value treated as \
             unknown"
        );
    }
}

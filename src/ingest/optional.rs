//! Reading an optional tab ([`TabContext::optional`]): a tab that cannot be read leaves
//! its data unknown, with one warning naming why, and the input stays usable.

use crate::ingest::strings::{Share, Strings};
use crate::ingest::table::{FieldSpec, Row};
use crate::ingest::{IngestError, Input, ReadLimits};
use crate::inventory::{Warning, WarningKind};

/// What reading an optional tab needs.
pub(crate) struct TabContext<'a, 'i> {
    pub(crate) input: &'a mut Input<'i>,
    pub(crate) file: &'a str,
    pub(crate) warnings: &'a mut Vec<Warning>,
    /// The tabs read so far (the source's list).
    pub(crate) tabs: &'a mut Vec<String>,
    /// Bounds on each tab.
    pub(crate) limits: ReadLimits,
    /// The input's one copy of each repeated text, which every record kept shares.
    pub(crate) strings: &'a mut Strings,
}

impl TabContext<'_, '_> {
    /// Reads an optional tab into `out`, each record's repeated texts shared
    /// ([`Share`]). A tab that cannot be read (no key column, corrupt CSV) is skipped with
    /// a warning naming the problem: its data stays unknown.
    pub(crate) fn optional<T, F>(
        &mut self,
        tab: &str,
        specs: &[FieldSpec],
        out: &mut Vec<T>,
        mut record: F,
    ) -> Result<(), IngestError>
    where
        T: Share,
        F: FnMut(&mut Row<'_, '_>) -> Option<T>,
    {
        let mut rows = Vec::new();
        let mut tab_warnings = Vec::new();
        let result = self.input.read_tab(
            self.file,
            tab,
            specs,
            &mut tab_warnings,
            ReadLimits {
                max_vms: usize::MAX,
                ..self.limits
            },
            |row| {
                if let Some(mut r) = record(row) {
                    r.share(self.strings);
                    rows.push(r);
                }
                false
            },
        );
        match result {
            Ok(Some(name)) => {
                if out.is_empty() {
                    *out = rows;
                } else {
                    out.extend(rows);
                }
                self.warnings.extend(tab_warnings);
                self.tabs.push(name);
                Ok(())
            }
            Ok(None) => Ok(()),
            // Past the cap on rows the input is refused whole, as for vInfo.
            Err(e @ IngestError::TooManyRows { .. }) => Err(e),
            // An optional tab that cannot be read (a missing key column, a corrupt CSV)
            // leaves its data unknown; vInfo was read, so the input stays usable.
            Err(e) => {
                let (file, sheet) = match &e {
                    IngestError::MissingColumn { file, sheet, .. } => (file.clone(), sheet.clone()),
                    _ => (self.file.to_string(), tab.to_string()),
                };
                let detail = without_place(&e, &sheet);
                self.warnings.extend(tab_warnings);
                self.warnings.push(Warning {
                    kind: WarningKind::Layout,
                    file,
                    sheet: Some(sheet),
                    row: Some(1),
                    column: None,
                    value: None,
                    message: format!("{detail}; tab not read, its data is unknown"),
                    more_alike: 0,
                });
                Ok(())
            }
        }
    }
}

/// `e`'s message without the file and sheet it starts with: the warning names them
/// already (`a.xlsx [vHost] row 1: required column ...`, not the place twice).
fn without_place(e: &IngestError, sheet: &str) -> String {
    let text = e.to_string();
    let Some(rest) = e.file().and_then(|f| text.strip_prefix(f)) else {
        return text;
    };
    let rest = rest.strip_prefix(&format!(" [{sheet}]")).unwrap_or(rest);
    rest.strip_prefix(": ")
        .unwrap_or(rest.trim_start())
        .to_string()
}

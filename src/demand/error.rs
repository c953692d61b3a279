//! Why a demand cannot be derived: [`DemandError`], and the words of the error when no VM
//! is left to plan.

use super::ExcludedVm;
use crate::inventory::Warning;

/// Errors in the demand options.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DemandError {
    /// An option is out of range.
    #[error("invalid `{option}`: {value} ({expected})")]
    Invalid {
        /// The option's library name (`growth_pct`, `iops` ...).
        option: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A `clusters`, `vcenters` or `datacenters` name matches no VM of the inventory.
    #[error("`{option}` '{name}' matches no VM; values in the input: {known}")]
    UnknownName {
        /// The option's library name (`clusters`, `vcenters`, `datacenters`).
        option: &'static str,
        /// The name given.
        name: String,
        /// Comma-separated values of that column found in the inventory.
        known: String,
    },
    /// No VM is left to plan.
    #[error("no VM to plan: {total} VM(s) read, all excluded ({reasons}){first}")]
    NothingInScope {
        /// VMs in the inventory.
        total: usize,
        /// Count per exclusion reason, as text.
        reasons: String,
        /// The first excluded VM, where it was read and the first warning on its row
        /// (`; the first: 'vm1' at fr.csv [vInfo] row 2, column 'In Use MiB' value '51 200':
        /// not a number`), so the cause can be found without the warnings; empty when
        /// none was read.
        first: String,
    },
    /// The inputs hold no VM row at all (a header without data rows, say).
    #[error("no VM to plan: no VM rows in {inputs} (no row with a VM name under the header)")]
    NoVmRows {
        /// The inputs as given, comma-separated (`the input` when the inventory names
        /// none).
        inputs: String,
    },
    /// Per-cluster planning was asked for, but no VM in scope names its cluster.
    #[error(
        "invalid `per_cluster`: no VM in scope names its cluster (vInfo Cluster column), so \
         there is no cluster to plan"
    )]
    NoCluster,
    /// The I/O profile is invalid.
    #[error(transparent)]
    Profile(#[from] crate::perf::PerfError),
}

/// The error when no VM is left to plan, with the count per exclusion reason and the first
/// excluded VM's place and row warning.
pub(super) fn nothing_in_scope(
    total: usize,
    excluded: &[ExcludedVm],
    warnings: &[Warning],
) -> DemandError {
    let first = excluded.first().map_or_else(String::new, |e| {
        let o = &e.origin;
        let at = format!(
            "; the first: '{}' at {} [{}] row {}",
            crate::numbers::clip_name(&e.name),
            o.file,
            o.sheet,
            o.row
        );
        let on_row = warnings.iter().find(|w| {
            *w.file == *o.file && w.sheet.as_deref() == Some(&*o.sheet) && w.row == Some(o.row)
        });
        match on_row {
            Some(w) => {
                let column = w.column.as_ref().map(|c| format!(", column '{c}'"));
                let value = w.value.as_ref().map(|v| format!(" value '{v}'"));
                format!(
                    "{at}{}{}: {}",
                    column.unwrap_or_default(),
                    value.unwrap_or_default(),
                    w.message
                )
            }
            None => at,
        }
    });
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for e in excluded {
        *counts.entry(e.reason.describe()).or_default() += 1;
    }
    DemandError::NothingInScope {
        total,
        reasons: if counts.is_empty() {
            "the input has no VM rows".into()
        } else {
            counts
                .iter()
                .map(|(r, n)| format!("{n} {r}"))
                .collect::<Vec<_>>()
                .join(", ")
        },
        first,
    }
}

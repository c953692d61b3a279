//! [`Error`]: the one error type of the library's front door, [`crate::Planner`].
//!
//! Each stage keeps its own error type, with its context (file, sheet, row, column, value);
//! [`Error`] wraps them unchanged and adds [`Error::kind`], which tells a caller what to do
//! about it: fix the input, fix a setting, ask for less, or report a bug. The `dsplan`
//! command's exit code is the kind's [`ErrorKind::exit_code`] (1 input or usage, 2
//! infeasible, 3 internal; 0 success), so a caller that runs the library in place of the
//! command can exit as the command does.
//!
//! Messages name settings by their library names, in backticks (`` `max_datastores` ``);
//! only the command line rewrites them to its flags.

use crate::catalog::CatalogError;
use crate::demand::DemandError;
use crate::ingest::IngestError;
use crate::optimize::OptimizeError;
use crate::perf::PerfError;
use crate::report::ReportError;
use crate::sizing::SizingError;
use crate::vsan::VsanError;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An input file is missing, unreadable or unusable (an RVTools export, a per-VM
    /// performance file, a price file), or it leaves nothing to plan.
    Input,
    /// A setting is out of range, unknown or inconsistent with another.
    Usage,
    /// A target cannot be met by any layout within the limits; the message says which and
    /// the most that is reachable.
    Infeasible,
    /// A defect in dsplan: the solver failed, a plan failed its re-verification, or the
    /// built-in data is malformed.
    Internal,
    /// The caller stopped the plan before it was finished ([`crate::Planner::stop_when`]):
    /// nobody's fault, and nothing to report.
    Stopped,
}

impl ErrorKind {
    /// The `dsplan` command's exit code for a failure of this kind, its one convention
    /// (the command calls this): 1 for [`ErrorKind::Input`] and [`ErrorKind::Usage`] (and
    /// for a flag the command cannot parse), 2 for [`ErrorKind::Infeasible`], 3 for
    /// [`ErrorKind::Internal`], 130 for [`ErrorKind::Stopped`] (the shell's code of a
    /// command interrupted by Ctrl-C, 128 + SIGINT). Success is 0, which no kind has.
    ///
    /// ```
    /// use dsplan::{ErrorKind, PlanOptions, Planner};
    ///
    /// let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    /// // A negative headroom is a setting out of range: a usage error, exit code 1.
    /// let err = Planner::new()
    ///     .input(fixture)
    ///     .options(PlanOptions::default().headroom_pct(-5.0))
    ///     .plan_estate()
    ///     .unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Usage);
    /// assert_eq!(err.kind().exit_code(), 1);
    /// ```
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Input | ErrorKind::Usage => 1,
            ErrorKind::Infeasible => 2,
            ErrorKind::Internal => 3,
            ErrorKind::Stopped => 130,
        }
    }
}

/// An error of [`crate::Planner`]: a stage's error, or a setting the planner itself checks.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading an RVTools export or a per-VM performance file failed.
    #[error(transparent)]
    Ingest(#[from] IngestError),
    /// The catalog (service levels, limits, prices) failed: an unknown region, a bad price
    /// file.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// The performance model rejected a layout or profile, or its data.
    #[error(transparent)]
    Perf(#[from] PerfError),
    /// The demand options were invalid, or no VM is left to plan.
    #[error(transparent)]
    Demand(#[from] DemandError),
    /// The optimizer found no layout, or a setting is out of range.
    #[error(transparent)]
    Optimize(#[from] OptimizeError),
    /// The vSAN comparison's settings were invalid.
    #[error(transparent)]
    Vsan(#[from] VsanError),
    /// Rendering a plan failed.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A setting the planner checks before any stage runs.
    #[error("invalid `{setting}`: {value} ({expected})")]
    Invalid {
        /// The setting's library name (a field of [`crate::PlanOptions`]).
        setting: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}

impl Error {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Ingest(_) => ErrorKind::Input,
            Error::Catalog(e) => catalog_kind(e),
            Error::Perf(e) => perf_kind(e),
            Error::Demand(e) => match e {
                DemandError::NothingInScope { .. } | DemandError::NoVmRows { .. } => {
                    ErrorKind::Input
                }
                _ => ErrorKind::Usage,
            },
            Error::Optimize(e) => optimize_kind(e),
            Error::Vsan(e) => vsan_kind(e),
            Error::Report(e) => match e {
                ReportError::Unsupported(_) => ErrorKind::Usage,
                ReportError::Xlsx(_) => ErrorKind::Input,
                ReportError::Json(_) | ReportError::Csv(_) | ReportError::Chart(_) => {
                    ErrorKind::Internal
                }
            },
            Error::Invalid { .. } => ErrorKind::Usage,
        }
    }
}

/// A user's price file is input; the compiled-in files are the build's.
fn catalog_kind(e: &CatalogError) -> ErrorKind {
    match e {
        CatalogError::Parse { .. } | CatalogError::Io { .. } => ErrorKind::Input,
        CatalogError::MissingLimit(_) => ErrorKind::Internal,
        CatalogError::UnknownServiceLevel(_)
        | CatalogError::UnknownReservation(_)
        | CatalogError::UnknownRegion { .. } => ErrorKind::Usage,
    }
}

fn perf_kind(e: &PerfError) -> ErrorKind {
    match e {
        PerfError::Invalid { .. } | PerfError::UnknownSystem { .. } => ErrorKind::Usage,
        PerfError::Profile { .. } => ErrorKind::Input,
        PerfError::Calibration(_) => ErrorKind::Internal,
    }
}

fn optimize_kind(e: &OptimizeError) -> ErrorKind {
    match e {
        OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_) => ErrorKind::Infeasible,
        OptimizeError::Invalid { .. } => ErrorKind::Usage,
        OptimizeError::Catalog(c) => catalog_kind(c),
        OptimizeError::Perf(p) => perf_kind(p),
        OptimizeError::Sizing(s) => sizing_kind(s),
        OptimizeError::Vsan(v) => vsan_kind(v),
        OptimizeError::Solver(_) | OptimizeError::Verification(_) => ErrorKind::Internal,
        OptimizeError::Stopped => ErrorKind::Stopped,
    }
}

fn vsan_kind(e: &VsanError) -> ErrorKind {
    match e {
        VsanError::Parse { .. } => ErrorKind::Internal,
        VsanError::Invalid { .. } => ErrorKind::Usage,
        VsanError::DataTooLarge { .. } => ErrorKind::Input,
        VsanError::VmTooLarge(_) => ErrorKind::Infeasible,
        VsanError::Perf(p) => perf_kind(p),
    }
}

/// A VM no host of the SKU can run is infeasible; a host price file is input; the
/// compiled-in price table is the build's.
fn sizing_kind(e: &SizingError) -> ErrorKind {
    match e {
        SizingError::Invalid { .. } => ErrorKind::Usage,
        SizingError::VmTooLarge(_) | SizingError::NoHostFits(_) => ErrorKind::Infeasible,
        SizingError::PriceFile { .. } => ErrorKind::Input,
        SizingError::Data { .. } => ErrorKind::Internal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes README.md documents for the command ("Exit codes"): input and usage 1,
    /// infeasible 2, internal 3; none is 0, which means success.
    #[test]
    fn exit_codes_are_the_commands_convention() {
        assert_eq!(ErrorKind::Input.exit_code(), 1);
        assert_eq!(ErrorKind::Usage.exit_code(), 1);
        assert_eq!(ErrorKind::Infeasible.exit_code(), 2);
        assert_eq!(ErrorKind::Stopped.exit_code(), 130);
        assert_eq!(ErrorKind::Internal.exit_code(), 3);
    }

    /// An error's code follows its kind: an optimizer that finds no layout is infeasible
    /// (2), a failed re-verification a defect (3), an invalid setting a usage error (1).
    #[test]
    fn an_errors_code_follows_its_kind() {
        let infeasible = Error::Optimize(OptimizeError::NoLayout("no layout".into()));
        assert_eq!(infeasible.kind().exit_code(), 2);
        let defect = Error::Optimize(OptimizeError::Verification("short".into()));
        assert_eq!(defect.kind().exit_code(), 3);
        let setting = Error::Invalid {
            setting: "hosts",
            value: "0".into(),
            expected: "at least 3".into(),
        };
        assert_eq!(setting.kind().exit_code(), 1);
    }
}

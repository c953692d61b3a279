//! The optimizer's errors.

use serde::{Deserialize, Serialize};

use crate::catalog::CatalogError;
use crate::numbers::{at_most, show_number};
use crate::perf::PerfError;

/// Appended to a message when, at the other settings, only large volumes could meet
/// `what` (and `allow_large_volumes` is off).
pub(super) fn only_large_volumes(what: &str) -> String {
    format!(
        "at these settings only large volumes could meet {what}, but `allow_large_volumes` \
         is off: no Microsoft page documents large volumes as AVS datastores (turn it on only \
         after confirming AVS support)"
    )
}

/// Which target cannot be met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Target {
    /// The IOPS target.
    Iops,
    /// The MiB/s target.
    ThroughputMibps,
    /// The capacity requirement.
    CapacityGib,
}

impl Target {
    /// Decimals its figures are shown with: MiB/s one (as `predict` prints them), IOPS and
    /// GiB none.
    pub fn decimals(self) -> usize {
        match self {
            Target::ThroughputMibps => 1,
            Target::Iops | Target::CapacityGib => 0,
        }
    }

    /// Human name with unit.
    pub fn describe(self) -> &'static str {
        match self {
            Target::Iops => "IOPS",
            Target::ThroughputMibps => "throughput (MiB/s)",
            Target::CapacityGib => "capacity (GiB)",
        }
    }
}

/// Errors of the optimizer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OptimizeError {
    /// No layout within the limits meets a target.
    #[error(
        "the {} target {} cannot be met: at most {} is reachable ({detail})",
        target.describe(),
        show_number(*required),
        at_most(*reachable, target.decimals())
    )]
    Infeasible {
        /// The target that cannot be met.
        target: Target,
        /// The value asked for.
        required: f64,
        /// The most any layout within the limits reaches.
        reachable: f64,
        /// Which limits cap it.
        detail: String,
    },
    /// An option is out of range.
    #[error("invalid `{option}`: {value} ({expected})")]
    Invalid {
        /// The option's library name (`max_datastores`, `cold_pct` ...).
        option: &'static str,
        /// Value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// Catalog problem (unknown region ...).
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// Performance model rejected a layout.
    #[error(transparent)]
    Perf(#[from] PerfError),
    /// Each target is reachable alone, but no service level meets them together.
    #[error("no layout meets the targets: {0}")]
    NoLayout(String),
    /// The solver failed unexpectedly.
    #[error("solver: {0}")]
    Solver(String),
    /// Sizing the estate's hosts failed (a setting, a VM larger than a host, a host price
    /// file).
    #[error(transparent)]
    Sizing(#[from] crate::sizing::SizingError),
    /// The vSAN-alone comparison's settings were invalid.
    #[error(transparent)]
    Vsan(#[from] crate::vsan::VsanError),
    /// The chosen layout failed re-evaluation: a bug in dsplan.
    #[error("internal error, plan failed verification: {0}")]
    Verification(String),
    /// The caller asked the plan to stop ([`super::Stop`]) before it was finished.
    #[error("the plan was stopped before it was finished (its caller asked)")]
    Stopped,
}

impl OptimizeError {
    /// A copy of an infeasibility (`Infeasible` or `NoLayout`), the errors a design keeps
    /// to give back later; `None` for the others.
    pub(crate) fn infeasibility(&self) -> Option<OptimizeError> {
        match self {
            OptimizeError::Infeasible {
                target,
                required,
                reachable,
                detail,
            } => Some(OptimizeError::Infeasible {
                target: *target,
                required: *required,
                reachable: *reachable,
                detail: detail.clone(),
            }),
            OptimizeError::NoLayout(s) => Some(OptimizeError::NoLayout(s.clone())),
            _ => None,
        }
    }

    /// An infeasibility with `more` added to what it says of its limits; other errors as
    /// they are.
    pub(crate) fn with_detail(self, more: &str) -> OptimizeError {
        match self {
            OptimizeError::Infeasible {
                target,
                required,
                reachable,
                detail,
            } => OptimizeError::Infeasible {
                target,
                required,
                reachable,
                detail: format!("{detail}{more}"),
            },
            OptimizeError::NoLayout(d) => OptimizeError::NoLayout(format!("{d}{more}")),
            other => other,
        }
    }
}

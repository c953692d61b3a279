//! The optimizer's errors, and the wording of an unreachable target.

use serde::{Deserialize, Serialize};

use super::milp::{Context, workload_layout};
use crate::catalog::CatalogError;
use crate::numbers::{group_thousands, show_number};
use crate::perf::{IoProfile, Layer, PerfError, PerfModel};

/// Which target cannot be met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The IOPS target.
    Iops,
    /// The MiB/s target.
    ThroughputMibps,
    /// The capacity requirement.
    CapacityGib,
}

impl Target {
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
pub enum OptimizeError {
    /// No layout within the limits meets a target.
    #[error(
        "the {} target {} cannot be met: at most {} is reachable ({detail})",
        target.describe(),
        show_number(*required),
        group_thousands((reachable + 1e-6).floor(), 0)
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
    /// The chosen layout failed re-evaluation: a bug in dsplan.
    #[error("internal error, plan failed verification: {0}")]
    Verification(String),
}

/// Why a performance target is out of reach: the best datastore count (`ceilings` are
/// those of large volumes, without cool access, for `d = 1..`), the layer that binds
/// there, and which options could still raise it.
pub(super) fn unreachable_detail(
    ctx: &Context,
    model: &PerfModel,
    ceilings: &[f64],
    profile: &IoProfile,
    what: &str,
) -> Result<String, OptimizeError> {
    let limits = ctx.limits();
    let (vms, max_d) = (ctx.vms, ctx.options.max_datastores);
    let best_d = ceilings
        .iter()
        .enumerate()
        .fold(
            (0usize, f64::MIN),
            |b, (i, &c)| if c > b.1 { (i, c) } else { b },
        )
        .0 as u32
        + 1;
    let layout = workload_layout(
        ctx.options.hosts,
        best_d,
        limits.large_volume_max_throughput_mibps,
        vms,
    );
    let p = model.predict(&layout, profile)?;
    let mut detail = format!(
        "{what}: best with {best_d} datastore(s) x {} hosts running {vms} VM(s) = {} flows at \
         {} KiB, limited by the {} layer",
        layout.hosts,
        layout.flows(),
        profile.block_size_kib,
        p.bottleneck.as_str()
    );
    if p.bottleneck == Layer::Vm {
        detail.push_str(&format!(
            "; more hosts or datastores cannot help: the estate's {vms} VM(s) are the limit"
        ));
        return Ok(detail);
    }
    let mut advice = Vec::new();
    // More hosts help only while there are VMs to run on them.
    let useful_hosts = limits.max_hosts.min(u32::try_from(vms).unwrap_or(u32::MAX));
    if layout.hosts < useful_hosts {
        advice.push(format!("more `hosts` (up to {useful_hosts})"));
    }
    // More datastores help only while the ceiling still rises at the limit.
    if max_d < limits.max_datastores && best_d == max_d {
        advice.push(format!(
            "a higher `max_datastores` (up to {})",
            limits.max_datastores
        ));
    }
    if !advice.is_empty() {
        detail.push_str("; try ");
        detail.push_str(&advice.join(" or "));
    }
    Ok(detail)
}

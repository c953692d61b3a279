//! The words the text and Markdown reports share for what a plan delivers and uses: the
//! predicted IOPS and MiB/s beside the targets ([`delivers`]), the utilisation, and the size
//! of a plan's pools, its shares of an estate's shared pools among them.

use crate::numbers::group_thousands;
use crate::plan::{Plan, PoolPlan};

/// A plan's pool size in words: its pools of its own in TiB, and its shares of shared
/// pools (`3 TiB`, `a 50 GiB share of pool-standard-1`).
pub(super) fn pool_size_words(plan: &Plan) -> String {
    let mut parts: Vec<String> = Vec::new();
    let tib = plan.totals.pool_size_tib;
    if tib > 0 || plan.pools.iter().all(|p| p.share_gib == 0) {
        parts.push(format!("{tib} TiB"));
    }
    for p in plan.pools.iter().filter(|p| p.share_gib > 0) {
        parts.push(format!(
            "a {} GiB share of {}",
            group_thousands(f64::from(p.share_gib), 0),
            p.name
        ));
    }
    parts.join(" + ")
}

/// A pool's size cell: its whole TiB, or a share's GiB with the unit (`50 GiB`).
pub(super) fn size_cell(size_tib: u32, share_gib: u32) -> String {
    if share_gib > 0 {
        format!("{} GiB", group_thousands(f64::from(share_gib), 0))
    } else {
        group_thousands(f64::from(size_tib), 0)
    }
}

/// What a plan (or an estate) is predicted to deliver, beside its targets.
pub(super) struct Delivered {
    pub(super) iops: f64,
    pub(super) iops_target: f64,
    pub(super) mibps: f64,
    pub(super) mibps_target: f64,
    /// No IOPS or MiB/s target: sized for capacity only.
    pub(super) capacity_only: bool,
}

impl Delivered {
    /// A plan's own prediction and targets (without a target, in the base or the peak
    /// months: capacity only).
    pub(super) fn of(plan: &Plan) -> Delivered {
        let p = &plan.performance;
        let peak = plan
            .time_phased
            .as_ref()
            .is_some_and(|t| t.peak.iops_target > 0.0 || t.peak.throughput_target_mibps > 0.0);
        Delivered {
            iops: p.small_block.iops,
            iops_target: p.iops_target,
            mibps: p.large_block.throughput_mibps,
            mibps_target: p.throughput_target_mibps,
            capacity_only: p.iops_target <= 0.0 && p.throughput_target_mibps <= 0.0 && !peak,
        }
    }

    /// An estate's: its clusters' predictions added, beside its targets.
    pub(super) fn estate(p: &crate::plan::EstatePerformance) -> Delivered {
        Delivered {
            iops: p.predicted_iops,
            iops_target: p.iops_target,
            mibps: p.predicted_throughput_mibps,
            mibps_target: p.throughput_target_mibps,
            capacity_only: p.capacity_only,
        }
    }
}

/// `vCPU 45.2%, memory 38.0%, storage 83.3%`.
pub(super) fn utilisation_words(u: &crate::plan::Utilisation) -> String {
    format!(
        "vCPU {:.1}%, memory {:.1}%, storage {:.1}%",
        u.vcpu_pct, u.memory_pct, u.storage_pct
    )
}

/// `16,384 IOPS and 128 MiB/s predicted (targets 20,000 and 0)`, or, without a target,
/// `... predicted: sized for capacity only (no IOPS or MiB/s target), this is what the
/// pools' QoS and the layout give`.
pub(super) fn delivers(d: &Delivered) -> String {
    let g = group_thousands;
    let what = format!(
        "{} small-block IOPS and {} large-block MiB/s predicted",
        g(d.iops, 0),
        g(d.mibps, 1)
    );
    if d.capacity_only {
        format!(
            "{what}: sized for capacity only (no IOPS or MiB/s target), this is what the \
             pools' QoS and the layout give"
        )
    } else {
        format!(
            "{what} (targets {} IOPS and {} MiB/s)",
            g(d.iops_target, 0),
            g(d.mibps_target, 1)
        )
    }
}

/// Under the alternatives of a plan with shares of shared pools: they are priced per GiB of
/// quota, before the pool's rounding, which the plan's own cost includes.
pub(super) fn shares_priced_note(plan: &Plan) -> Option<String> {
    plan.alternatives.iter().any(|a| a.share_gib > 0).then(|| {
        format!(
            "shares (GiB) are priced per GiB of quota, before their pool's rounding up to whole \
             TiB; this cluster's share of its pool costs {} USD/month",
            group_thousands(plan.totals.cost_usd_per_month, 2)
        )
    })
}

/// What a share of a shared pool is and pays, in words.
pub(super) fn share_note(p: &PoolPlan) -> String {
    format!(
        "this cluster's {} GiB share (its datastores' quotas) of a pool shared with the \
         estate's other AVS clusters (the estate's capacity pools give its size, rounded up \
         to whole TiB once); it pays its quota's share of that pool's hot tier",
        group_thousands(f64::from(p.share_gib), 0)
    )
}

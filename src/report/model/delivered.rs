//! The words the text and Markdown reports share for what a plan delivers and uses: the
//! predicted IOPS and MiB/s beside the targets ([`delivers`]; an estate's on its design,
//! [`estate_delivers`]: the ANF datastores' predictions and the vSAN sides' envelopes),
//! the utilisation (per AVS cluster and for the estate, ANF and vSAN apart) with the
//! performance and utilisation table, and the size of a plan's pools, its shares of an
//! estate's shared pools among them.

use crate::numbers::group_thousands;
use crate::plan::{ClusterDesign, Design, EstatePlan, Plan, PoolPlan, Utilisation};
use crate::report::model::table::{Cell, Column, Section, Table};

/// A plan's pool size in words: its pools of its own in TiB, and its shares of shared
/// pools (`3 TiB`, `a 50 GiB share of pool-standard-1`).
pub(in crate::report) fn pool_size_words(plan: &Plan) -> String {
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
pub(in crate::report) fn size_cell(size_tib: u32, share_gib: u32) -> String {
    if share_gib > 0 {
        format!("{} GiB", group_thousands(f64::from(share_gib), 0))
    } else {
        group_thousands(f64::from(size_tib), 0)
    }
}

/// What a plan (or an estate) is predicted to deliver, beside its targets.
pub(in crate::report) struct Delivered {
    pub(in crate::report) iops: f64,
    pub(in crate::report) iops_target: f64,
    pub(in crate::report) mibps: f64,
    pub(in crate::report) mibps_target: f64,
    /// No IOPS or MiB/s target: sized for capacity only.
    pub(in crate::report) capacity_only: bool,
}

impl Delivered {
    /// A plan's own prediction and targets (without a target, in the base or the peak
    /// months: capacity only).
    pub(in crate::report) fn of(plan: &Plan) -> Delivered {
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
}

/// `16,384 IOPS and 128 MiB/s predicted (targets 20,000 and 0)`, or, without a target,
/// `... predicted: sized for capacity only (no IOPS or MiB/s target), this is what the
/// pools' QoS and the layout give`.
pub(in crate::report) fn delivers(d: &Delivered) -> String {
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
pub(in crate::report) fn shares_priced_note(plan: &Plan) -> Option<String> {
    plan.alternatives.iter().any(|a| a.share_gib > 0).then(|| {
        format!(
            "shares (GiB) are priced per GiB of quota, before their pool's rounding up to whole \
             TiB; this cluster's share of its pool costs {} USD/month",
            group_thousands(plan.totals.cost_usd_per_month, 2)
        )
    })
}

/// What a share of a shared pool is and pays, in words.
pub(in crate::report) fn share_note(p: &PoolPlan) -> String {
    format!(
        "this cluster's {} GiB share (its datastores' quotas) of a pool shared with the \
         estate's other AVS clusters (the estate's capacity pools give its size, rounded up \
         to whole TiB once); it pays its quota's share of that pool's hot tier",
        group_thousands(f64::from(p.share_gib), 0)
    )
}

/// `vCPU 45.2%, memory 38.0%, ANF 83.3%, vSAN 61.0%` (each storage only where the design
/// keeps data).
pub(in crate::report) fn utilisation_words(u: &Utilisation) -> String {
    let mut s = format!("vCPU {:.1}%, memory {:.1}%", u.vcpu_pct, u.memory_pct);
    if let Some(a) = u.storage_pct {
        s.push_str(&format!(", ANF {a:.1}%"));
    }
    if let Some(v) = u.vsan_storage_pct {
        s.push_str(&format!(", vSAN {v:.1}%"));
    }
    s
}

/// An AVS cluster's utilisation, by name.
pub(in crate::report) fn cluster_utilisation<'a>(
    plan: &'a EstatePlan,
    name: &str,
) -> Option<&'a Utilisation> {
    plan.sizing
        .clusters
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| c.utilisation.as_ref())
}

/// What the estate's design delivers, in words: each storage's predictions added (the ANF
/// datastores' layouts with their pools' QoS; the vSAN sides' envelopes at their checked
/// hosts, beside their ANF traffic), against the share of the targets each carries, or
/// sized for capacity only; then all of it against the targets.
pub(in crate::report) fn estate_delivers(plan: &EstatePlan) -> String {
    let p = &plan.summary.performance;
    let g = group_thousands;
    let mut targets = format!(
        "{} IOPS and {} MiB/s",
        g(p.iops_target, 0),
        g(p.throughput_target_mibps, 1)
    );
    if p.peak_iops_target > 0.0 || p.peak_throughput_target_mibps > 0.0 {
        targets.push_str(&format!(
            ", {} IOPS and {} MiB/s in the peak months",
            g(p.peak_iops_target, 0),
            g(p.peak_throughput_target_mibps, 1)
        ));
    }
    let clusters = |n: u32| match n {
        1 => "1 cluster".to_string(),
        n => format!("{n} clusters added"),
    };
    let mut parts = Vec::new();
    let both = p.anf_clusters > 0 && p.vsan_data_pct > 0.0;
    if p.anf_clusters > 0 {
        let mut s = format!(
            "ANF {} small-block IOPS and {} large-block MiB/s ({})",
            g(p.anf_predicted_iops, 0),
            g(p.anf_predicted_throughput_mibps, 1),
            clusters(p.anf_clusters)
        );
        if both && !p.capacity_only {
            s.push_str(&format!(
                " for the {} IOPS and {} MiB/s they carry",
                g(p.anf_iops_target, 0),
                g(p.anf_throughput_target_mibps, 1)
            ));
        }
        parts.push(s);
    }
    if p.vsan_data_pct > 0.0 {
        let mut s = format!(
            "vSAN {} small-block IOPS and {} large-block MiB/s ({}, {}% of the data; each \
             cluster's envelope with a host down for HA, 3-host clusters at 3, beside its ANF \
             traffic: built from the hosts' parts, as Microsoft publishes no vSAN figures for \
             AVS hosts)",
            g(p.vsan_predicted_iops, 0),
            g(p.vsan_predicted_throughput_mibps, 1),
            clusters(p.vsan_clusters),
            g(p.vsan_data_pct, 1)
        );
        if both && !p.capacity_only {
            s.push_str(&format!(
                " for the {} IOPS and {} MiB/s it carries",
                g(
                    (p.iops_target.max(p.peak_iops_target) - p.anf_iops_target).max(0.0),
                    0
                ),
                g(
                    (p.throughput_target_mibps
                        .max(p.peak_throughput_target_mibps)
                        - p.anf_throughput_target_mibps)
                        .max(0.0),
                    1
                )
            ));
        }
        parts.push(s);
    }
    let what = format!(
        "{} small-block IOPS and {} large-block MiB/s predicted",
        g(p.predicted_iops, 0),
        g(p.predicted_throughput_mibps, 1)
    );
    let tail = if p.capacity_only {
        "no IOPS or MiB/s target: sized for capacity, what the pools' QoS, the layouts and \
         the hosts give"
            .to_string()
    } else {
        format!("targets {targets}")
    };
    format!("{what} ({tail}): {}", parts.join("; "))
}

/// The estate's utilisation in words, each figure with what it is over.
pub(in crate::report) fn estate_utilisation(plan: &EstatePlan) -> String {
    let m = &plan.summary;
    let u = &m.utilisation;
    let mut s = format!(
        "vCPU {:.1}%, memory {:.1}% of the {} hosts (HA reserve included)",
        u.vcpu_pct,
        u.memory_pct,
        group_thousands(f64::from(m.hosts), 0)
    );
    if let Some(a) = u.storage_pct {
        s.push_str(&format!(
            "; ANF {a:.1}% of the {} TiB of pools",
            group_thousands(f64::from(m.pool_size_tib), 0)
        ));
    }
    if let Some(v) = u.vsan_storage_pct {
        s.push_str(&format!("; vSAN {v:.1}% of what its clusters hold"));
    }
    s
}

/// A cluster's row of the design the plan is sized as (a collapsed hybrid's rows are its
/// vSAN-alone rows).
fn chosen_design<'a>(plan: &'a EstatePlan, name: &str) -> Option<&'a ClusterDesign> {
    let d = plan.designs.as_ref()?;
    let c = d.clusters.iter().find(|c| c.cluster == name)?;
    Some(match d.chosen {
        Design::Vsan => &c.vsan,
        Design::Anf => &c.anf,
        Design::Hybrid => &c.hybrid,
    })
}

/// What one AVS cluster's storage carries and delivers: its ANF datastores' targets and
/// prediction (its plan) and its data on vSAN's share of the targets and envelope (the
/// chosen design's row), added; `None` where it keeps no data.
fn cluster_delivered(plan: &EstatePlan, name: &str) -> Option<Delivered> {
    let anf = plan
        .clusters
        .iter()
        .find(|p| p.cluster == name)
        .map(|p| Delivered::of(&p.plan));
    let vsan = chosen_design(plan, name).filter(|r| r.vsan_data_gib > 0.0);
    if anf.is_none() && vsan.is_none() {
        return None;
    }
    let mut d = anf.unwrap_or(Delivered {
        iops: 0.0,
        iops_target: 0.0,
        mibps: 0.0,
        mibps_target: 0.0,
        capacity_only: true,
    });
    if let Some(v) = vsan {
        d.iops += v.vsan_predicted_iops;
        d.iops_target += v.vsan_iops_target;
        d.mibps += v.vsan_predicted_throughput_mibps;
        d.mibps_target += v.vsan_throughput_target_mibps;
    }
    Some(d)
}

/// The performance and utilisation table: each AVS cluster's targets (the shares its data
/// on vSAN and on ANF carry) and what its storage is predicted to deliver (its vSAN
/// envelope and its ANF datastores' prediction), its vCPU, memory, ANF and vSAN use in
/// percent ('-' where none); then the estate's: the targets and all of the design's
/// storage, as `summary.performance` has them.
pub fn performance(plan: &EstatePlan) -> Section {
    let pct = |v: Option<f64>| v.map_or(Cell::Dash, |x| Cell::number(x, 1));
    let row = |name: Cell, d: Option<Delivered>, u: Option<&Utilisation>| {
        let mut r = vec![name];
        r.extend(match d {
            Some(d) => [
                Cell::number(d.iops_target, 0),
                Cell::number(d.iops, 0),
                Cell::number(d.mibps_target, 1),
                Cell::number(d.mibps, 1),
            ],
            None => [Cell::Dash, Cell::Dash, Cell::Dash, Cell::Dash],
        });
        let u = u.copied().unwrap_or_default();
        r.extend([
            Cell::number(u.vcpu_pct, 1),
            Cell::number(u.memory_pct, 1),
            pct(u.storage_pct),
            pct(u.vsan_storage_pct),
        ]);
        r
    };
    let mut rows: Vec<Vec<Cell>> = plan
        .sizing
        .clusters
        .iter()
        .map(|c| {
            let d = cluster_delivered(plan, &c.name);
            row(Cell::Name(c.name.clone()), d, c.utilisation.as_ref())
        })
        .collect();
    let m = &plan.summary;
    let p = &m.performance;
    let estate = Delivered {
        iops: p.predicted_iops,
        iops_target: p.iops_target,
        mibps: p.predicted_throughput_mibps,
        mibps_target: p.throughput_target_mibps,
        capacity_only: p.capacity_only,
    };
    rows.push(row(
        Cell::text("(estate)"),
        Some(estate),
        Some(&m.utilisation),
    ));
    let table = Table {
        columns: vec![
            Column::words("cluster"),
            Column::figures("IOPS target", ""),
            Column::figures("IOPS predicted", ""),
            Column::figures("MiB/s target", ""),
            Column::figures("MiB/s predicted", ""),
            Column::figures("vCPU", "%"),
            Column::figures("memory", "%"),
            Column::figures("ANF", "%"),
            Column::figures("vSAN", "%"),
        ],
        rows,
    };
    let mut section = Section::of_table("Performance and utilisation", "Sizing", table);
    let peak = if p.peak_iops_target > 0.0 || p.peak_throughput_target_mibps > 0.0 {
        " (on vSAN the peak months' where higher: vSAN cannot change by month)"
    } else {
        ""
    };
    section.notes.push(format!(
        "target: the share of the IOPS and MiB/s targets a cluster's data carries, on vSAN \
         and on ANF{peak}; predicted: its vSAN envelope with a host down for HA, beside its \
         ANF traffic (built from the hosts' parts), plus its ANF datastores' prediction; \
         (estate): the targets and all of the design's storage; '-': no data kept; vCPU and \
         memory of all hosts, HA included; ANF %: data placed over pools or shares; vSAN %: \
         data kept over what the hosts' vSAN holds"
    ));
    section
}

//! SVG charts of a plan (`dsplan plan --charts DIR`): cost by alternative, predicted IOPS
//! and MiB/s against datastore count, capacity by cluster or datastore and, for the estate,
//! hosts by driver for ANF against vSAN alone. Each function returns
//! `(file name, SVG text)`; writing them is the caller's business.

mod draw;
mod sweep;

pub use sweep::{HostLine, sweep_svg};

use crate::catalog::Limits;
use crate::optimize::workload_layout;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlan, ClusterPlans, EstatePlan, Plan};
use crate::report::ReportError;
use crate::sizing::Driver;
use draw::{BLUE, BarSeries, Bars, LinePanel, ORANGE, PeakMarks, SKY, bar_svg, line_svg};

/// A chart: its file name and its SVG document.
pub type Chart = (String, String);

/// What the performance chart needs beyond the plan: the model and the settings the plan
/// was made with.
pub struct PerfInputs<'a> {
    /// The performance model the plan used.
    pub model: &'a PerfModel,
    /// Volume limits (regular and large volume MiB/s ceilings).
    pub limits: &'a Limits,
    /// TCP connections per host per datastore.
    pub nconnect: u32,
    /// Cold share of the data, percent (applies when the pool has cool access).
    pub cold_pct: f64,
    /// Datastore counts drawn: 1..=this.
    pub max_datastores: u32,
}

/// The charts of one cluster's plan (`--hosts N`).
///
/// # Errors
/// [`ReportError::Chart`] if the model rejects a layout or plotters fails.
pub fn plan_charts(plan: &Plan, perf: &PerfInputs) -> Result<Vec<Chart>, ReportError> {
    let title = format!("{} hosts", plan.hosts);
    Ok(vec![
        chart("cost-by-alternative.svg", alternatives_svg(plan, &title)?),
        chart("performance.svg", performance_svg(plan, perf, &title)?),
        chart("capacity.svg", datastore_capacity_svg(plan)?),
    ])
}

/// The charts of a `--per-cluster` plan: cost by cluster, each cluster's cost by
/// alternative (`cost-by-alternative-<cluster>.svg`), the largest
/// cluster's performance and capacity by cluster.
///
/// # Errors
/// As [`plan_charts`].
pub fn cluster_plans_charts(
    plans: &ClusterPlans,
    perf: &PerfInputs,
) -> Result<Vec<Chart>, ReportError> {
    let costs = Bars {
        title: "Monthly ANF cost by cluster",
        value_axis: "USD per month",
        category_axis: "cluster",
        categories: plans.clusters.iter().map(|c| c.cluster.clone()).collect(),
        series: vec![BarSeries {
            name: "ANF, USD per month".into(),
            colour: SKY,
            values: plans
                .clusters
                .iter()
                .map(|c| c.plan.totals.cost_usd_per_month)
                .collect(),
        }],
        marked: Vec::new(),
    };
    let mut out = vec![chart("cost-by-alternative.svg", bar_svg(&costs)?)];
    out.extend(cluster_alternatives(&plans.clusters)?);
    out.extend(largest_performance(&plans.clusters, perf)?);
    out.push(chart(
        "capacity.svg",
        cluster_capacity_svg(&plans.clusters)?,
    ));
    Ok(out)
}

/// The charts of an estate plan: cost by host SKU, each AVS cluster's cost by alternative
/// (`cost-by-alternative-<cluster>.svg`), the largest cluster's performance, capacity by
/// cluster and hosts by driver.
///
/// # Errors
/// As [`plan_charts`].
pub fn estate_charts(plan: &EstatePlan, perf: &PerfInputs) -> Result<Vec<Chart>, ReportError> {
    let mut out = vec![chart("cost-by-alternative.svg", sku_cost_svg(plan)?)];
    out.extend(cluster_alternatives(&plan.clusters)?);
    out.extend(largest_performance(&plan.clusters, perf)?);
    out.push(chart("capacity.svg", cluster_capacity_svg(&plan.clusters)?));
    out.push(chart("hosts.svg", hosts_svg(plan)?));
    Ok(out)
}

fn chart(name: &str, svg: String) -> Chart {
    (name.to_string(), svg)
}

/// Each cluster's cost-by-alternative chart, `cost-by-alternative-<stem>.svg`, the stem
/// from [`chart_file_stem`]; a stem two clusters share gets `-2`, `-3` ... on the later.
fn cluster_alternatives(clusters: &[ClusterPlan]) -> Result<Vec<Chart>, ReportError> {
    let mut used = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(clusters.len());
    for c in clusters {
        let stem = chart_file_stem(&c.cluster);
        let mut name = format!("cost-by-alternative-{stem}.svg");
        let mut n = 1;
        while !used.insert(name.clone()) {
            n += 1;
            name = format!("cost-by-alternative-{stem}-{n}.svg");
        }
        let title = format!("cluster {}, {} hosts", c.cluster, c.plan.hosts);
        out.push((name, alternatives_svg(&c.plan, &title)?));
    }
    Ok(out)
}

/// A cluster name as a file-name stem: ASCII letters and digits kept (lower case), any run
/// of other characters one `-`, no `-` at either end, at most 60 characters; `cluster`
/// when nothing is left (`Prod East/01` -> `prod-east-01`, `../..` -> `cluster`).
fn chart_file_stem(name: &str) -> String {
    let stem = crate::numbers::slug_cut(&crate::numbers::slug(name), 60);
    if stem.is_empty() {
        "cluster".to_string()
    } else {
        stem.to_ascii_lowercase()
    }
}

/// Each feasible alternative's monthly cost; the ones the plan chose are marked.
fn alternatives_svg(plan: &Plan, title: &str) -> Result<String, ReportError> {
    let alts: Vec<_> = plan.alternatives.iter().filter(|a| a.feasible).collect();
    let categories = alts
        .iter()
        .map(|a| {
            let level = a.service_level.map_or("any".into(), |l| l.to_string());
            let ds = if a.datastores == 1 {
                "datastore"
            } else {
                "datastores"
            };
            format!(
                "{}: {level}, {} {ds}",
                a.basis.replace('_', " "),
                a.datastores
            )
        })
        .collect();
    let marked = (0..alts.len())
        .filter(|&i| alts[i].note == "chosen")
        .collect();
    bar_svg(&Bars {
        title: &format!("Monthly ANF cost by alternative ({title})"),
        value_axis: "USD per month",
        category_axis: "alternative",
        categories,
        series: vec![BarSeries {
            name: "ANF, USD per month".into(),
            colour: SKY,
            values: alts.iter().map(|a| a.cost_usd_per_month).collect(),
        }],
        marked,
    })
}

/// Each host SKU's monthly total (hosts + ANF) where priced; the chosen SKU marked.
fn sku_cost_svg(plan: &EstatePlan) -> Result<String, ReportError> {
    let alts: Vec<_> = plan
        .sku_alternatives
        .iter()
        .filter(|a| a.feasible && a.total_usd_per_month.is_some())
        .collect();
    bar_svg(&Bars {
        title: "Monthly cost by host SKU (AVS hosts + ANF; SKUs without a price left out)",
        value_axis: "USD per month",
        category_axis: "host SKU",
        categories: alts
            .iter()
            .map(|a| format!("{} x {}", a.hosts, a.sku))
            .collect(),
        series: vec![BarSeries {
            name: "hosts + ANF, USD per month".into(),
            colour: SKY,
            values: alts
                .iter()
                .map(|a| a.total_usd_per_month.unwrap_or(0.0))
                .collect(),
        }],
        marked: (0..alts.len()).filter(|&i| alts[i].chosen).collect(),
    })
}

/// The performance chart of the cluster with the most hosts (then the most capacity).
fn largest_performance(
    clusters: &[ClusterPlan],
    perf: &PerfInputs,
) -> Result<Option<Chart>, ReportError> {
    let largest = clusters.iter().max_by(|a, b| {
        (a.plan.hosts, a.plan.totals.placed_capacity_gib)
            .partial_cmp(&(b.plan.hosts, b.plan.totals.placed_capacity_gib))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let Some(c) = largest else {
        return Ok(None);
    };
    let title = format!("largest cluster {}, {} hosts", c.cluster, c.plan.hosts);
    Ok(Some(chart(
        "performance.svg",
        performance_svg(&c.plan, perf, &title)?,
    )))
}

/// Predicted small-block IOPS and large-block MiB/s at 1..=max datastores for the plan's
/// hosts, VMs, volume kind, cool share and pool QoS, with the targets and the chosen count.
fn performance_svg(plan: &Plan, perf: &PerfInputs, title: &str) -> Result<String, ReportError> {
    let large = plan.datastores.iter().any(|d| d.large_volume);
    let cool = plan.pools.iter().any(|p| p.cool_access);
    let vol = if large {
        perf.limits.large_volume_max_throughput_mibps
    } else {
        perf.limits.volume_max_throughput_mibps
    };
    let pm = &plan.performance;
    let max_d = perf
        .max_datastores
        .max(plan.totals.datastores)
        .clamp(1, 256);
    let (mut iops, mut mibps) = (Vec::new(), Vec::new());
    let e = |e: crate::perf::PerfError| ReportError::Chart(e.to_string());
    // The plan's own system (AV64 hosts: 100 GbE).
    let system = perf.model.system(&pm.system).map_err(e)?;
    for d in 1..=max_d {
        let mut layout = workload_layout(plan.hosts, d, vol, plan.totals.vms_placed);
        layout.nconnect = perf.nconnect;
        layout.cool_pct = if cool { perf.cold_pct } else { 0.0 };
        layout.qos_throughput_mibps = Some(plan.totals.throughput_mibps);
        iops.push((
            d,
            perf.model
                .predict_system(system, &layout, &pm.small_block_profile)
                .map_err(e)?
                .iops,
        ));
        let large_block = perf
            .model
            .predict_system(system, &layout, &pm.large_block_profile)
            .map_err(e)?;
        mibps.push((d, large_block.throughput_mibps));
    }
    let chosen = plan.totals.datastores;
    let tp = plan.time_phased.as_ref();
    let panels = [
        LinePanel {
            caption: format!("IOPS at {}", profile_name(&pm.small_block_profile)),
            unit: "IOPS",
            points: iops,
            target: pm.iops_target,
            chosen,
            peak: tp.map(|t| PeakMarks {
                months: t.peak.months,
                target: t.peak.iops_target,
                datastores: t.peak.datastores,
                predicted: t.peak.predicted_iops,
            }),
        },
        LinePanel {
            caption: format!("MiB/s at {}", profile_name(&pm.large_block_profile)),
            unit: "MiB/s",
            points: mibps,
            target: pm.throughput_target_mibps,
            chosen,
            peak: tp.map(|t| PeakMarks {
                months: t.peak.months,
                target: t.peak.throughput_target_mibps,
                datastores: t.peak.datastores,
                predicted: t.peak.predicted_throughput_mibps,
            }),
        },
    ];
    let title = format!("Predicted performance against datastore count ({title}, pool QoS)");
    line_svg(&title, &panels)
}

fn profile_name(p: &crate::perf::IoProfile) -> String {
    format!(
        "{} KiB, {}% read, {}% random",
        crate::numbers::show_number(p.block_size_kib),
        crate::numbers::show_number(p.read_pct),
        crate::numbers::show_number(p.random_pct)
    )
}

/// Size and placed data of each datastore of one cluster's plan, GiB.
fn datastore_capacity_svg(plan: &Plan) -> Result<String, ReportError> {
    bar_svg(&Bars {
        title: "Capacity by datastore",
        value_axis: "GiB",
        category_axis: "datastore",
        categories: plan.datastores.iter().map(|d| d.name.clone()).collect(),
        series: vec![
            BarSeries {
                name: "datastore size, GiB".into(),
                colour: BLUE,
                values: plan.datastores.iter().map(|d| d.size_gib).collect(),
            },
            BarSeries {
                name: "data placed, GiB".into(),
                colour: ORANGE,
                values: plan
                    .datastores
                    .iter()
                    .map(|d| d.placed_capacity_gib)
                    .collect(),
            },
        ],
        marked: Vec::new(),
    })
}

/// Pool capacity (TiB shown as GiB; a share of a shared pool, its GiB) and placed data of
/// each cluster, GiB.
fn cluster_capacity_svg(clusters: &[ClusterPlan]) -> Result<String, ReportError> {
    let pool_gib = |c: &ClusterPlan| {
        let shares: f64 = c.plan.pools.iter().map(|p| f64::from(p.share_gib)).sum();
        f64::from(c.plan.totals.pool_size_tib) * 1024.0 + shares
    };
    bar_svg(&Bars {
        title: "Capacity by cluster",
        value_axis: "GiB",
        category_axis: "cluster",
        categories: clusters.iter().map(|c| c.cluster.clone()).collect(),
        series: vec![
            BarSeries {
                name: "pool capacity, GiB".into(),
                colour: BLUE,
                values: clusters.iter().map(pool_gib).collect(),
            },
            BarSeries {
                name: "data placed, GiB".into(),
                colour: ORANGE,
                values: clusters
                    .iter()
                    .map(|c| c.plan.totals.placed_capacity_gib)
                    .collect(),
            },
        ],
        marked: Vec::new(),
    })
}

/// Hosts by what decides their cluster's size (the counts add up to the total), the plan's
/// design against vSAN alone (hosts added to hold data on vSAN count as storage). A vSAN-alone cluster that grows past its compute hosts to hold its
/// data counts as storage; one that does not keeps its ANF cluster's driver.
fn hosts_svg(plan: &EstatePlan) -> Result<String, ReportError> {
    let h = &plan.summary.hosts_by_driver;
    let anf = [
        h.vcpu,
        h.memory,
        h.minimum,
        h.storage + h.vsan,
        plan.summary.hosts,
    ];
    let plan_name = match plan.summary.design {
        crate::plan::Design::Anf => "ANF plan",
        crate::plan::Design::Hybrid => "hybrid plan",
        crate::plan::Design::Vsan => "the plan (vSAN alone)",
    };
    let mut series = vec![BarSeries {
        name: format!("{plan_name}, hosts"),
        colour: BLUE,
        values: anf.iter().map(|&x| f64::from(x)).collect(),
    }];
    if let Some(alone) = vsan_by_driver(plan) {
        series.push(BarSeries {
            name: "vSAN alone, hosts".into(),
            colour: ORANGE,
            values: alone.iter().map(|&x| f64::from(x)).collect(),
        });
    }
    let categories = [
        "vCPU",
        "memory",
        "minimum",
        "storage (ANF: IOPS, MiB/s; vSAN: capacity)",
        "total",
    ];
    bar_svg(&Bars {
        title: &format!(
            "AVS hosts by driver ({}): the plan ({}) against vSAN alone",
            plan.summary.sku,
            plan.summary.design.label()
        ),
        value_axis: "hosts",
        category_axis: "driver",
        categories: categories.iter().map(|s| (*s).to_string()).collect(),
        series,
        marked: Vec::new(),
    })
}

/// vSAN alone's hosts by driver: vCPU, memory, minimum, storage and the total.
fn vsan_by_driver(plan: &EstatePlan) -> Option<[u32; 5]> {
    let alone = &plan.vsan_alone.as_ref()?.sizing;
    let mut by = [0, 0, 0, 0, alone.hosts];
    for c in &alone.clusters {
        let anf = plan.sizing.clusters.iter().find(|a| a.name == c.cluster);
        let i = match anf.map(|a| a.driver) {
            _ if c.hosts > c.compute_hosts => 3,
            Some(Driver::Vcpu) => 0,
            Some(Driver::Memory) => 1,
            Some(Driver::Minimum) => 2,
            Some(Driver::Storage | Driver::Vsan) | None => 3,
        };
        by[i] += c.hosts;
    }
    Some(by)
}

#[cfg(test)]
mod tests {
    use super::chart_file_stem;

    #[test]
    fn file_stems_keep_letters_and_digits_only() {
        assert_eq!(chart_file_stem("Prod East/01"), "prod-east-01");
        assert_eq!(chart_file_stem("avs-Dev"), "avs-dev");
        assert_eq!(chart_file_stem("../.."), "cluster");
        assert_eq!(chart_file_stem(" Ä b "), "b");
        assert_eq!(chart_file_stem(&"x".repeat(100)).len(), 60);
    }
}

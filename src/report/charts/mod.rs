//! SVG charts of a plan (`dsplan plan --charts DIR`): cost by alternative, predicted IOPS
//! and MiB/s against datastore count, capacity by cluster or datastore and, for the estate,
//! cost by design, cost by cluster and hosts by driver for the plan against vSAN alone.
//! Each function returns `(file name, SVG text)`; writing them is the caller's business.
//! Each title says what to see, with the plan's own figure ("hybrid costs least: ...").

mod clusters;
mod designs;
mod draw;
pub mod style;
mod sweep;

pub use sweep::{HostLine, sweep_svg};

use crate::catalog::Limits;
use crate::numbers::group_thousands;
use crate::optimize::workload_layout;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlan, ClusterPlans, EstatePlan, Plan};
use crate::report::ReportError;
use crate::report::model::estate;
use crate::sizing::Driver;
use clusters::{cluster_capacity_svg, cost_by_cluster_svg};
use draw::{BarSeries, Bars, LinePanel, PeakMarks, bar_svg, line_svg};
use style::{BLUE, SKY, TOP_CLUSTERS, design_colour};

pub use crate::report::Chart;

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
        chart("performance.svg", performance_svg(plan, perf, None)?),
        chart("capacity.svg", datastore_capacity_svg(plan)?),
    ])
}

/// The charts of a `--per-cluster` plan: cost by cluster (the top [`TOP_CLUSTERS`] and
/// "others" beyond [`TOP_CLUSTERS`] + 1 clusters), each cluster's cost by alternative
/// (`cost-by-alternative-<cluster>.svg`) when every cluster has its own bar, the largest
/// cluster's performance and capacity by cluster (top clusters and others).
///
/// # Errors
/// As [`plan_charts`].
pub fn cluster_plans_charts(
    plans: &ClusterPlans,
    perf: &PerfInputs,
) -> Result<Vec<Chart>, ReportError> {
    let mut out = vec![chart(
        "cost-by-alternative.svg",
        cost_by_cluster_svg(&plans.clusters)?,
    )];
    if plans.clusters.len() <= TOP_CLUSTERS + 1 {
        out.extend(cluster_alternatives(&plans.clusters)?);
    }
    out.extend(largest_performance(&plans.clusters, perf)?);
    out.push(chart(
        "capacity.svg",
        cluster_capacity_svg(&plans.clusters)?,
    ));
    Ok(out)
}

/// The charts of an estate plan: cost by host SKU, cost by design (where the plan compares
/// designs), ANF cost by cluster (`cost-by-cluster.svg`: the top [`TOP_CLUSTERS`] and
/// "others", not a chart per cluster), the largest cluster's performance, capacity by
/// cluster (top clusters and others) and hosts by driver; the three of clusters only where
/// the plan has ANF datastores (not for vSAN alone).
///
/// # Errors
/// As [`plan_charts`].
pub fn estate_charts(plan: &EstatePlan, perf: &PerfInputs) -> Result<Vec<Chart>, ReportError> {
    let mut out = vec![chart("cost-by-alternative.svg", sku_cost_svg(plan)?)];
    if let Some(svg) = designs::designs_svg(plan)? {
        out.push(chart("cost-by-design.svg", svg));
    }
    // A plan with no ANF datastore (vSAN alone) has no cluster to draw.
    if !plan.clusters.is_empty() {
        out.push(chart(
            "cost-by-cluster.svg",
            cost_by_cluster_svg(&plan.clusters)?,
        ));
        out.extend(largest_performance(&plan.clusters, perf)?);
        out.push(chart("capacity.svg", cluster_capacity_svg(&plan.clusters)?));
    }
    out.push(chart("hosts.svg", hosts_svg(plan)?));
    Ok(out)
}

/// A chart file: its name and its SVG, a name's control characters and bidi overrides in
/// its labels shown escaped (`\u{1b}`, [`crate::report::safe::escape_controls_owned`]): XML
/// cannot hold most C0 controls, so a raw ESC would leave the file unreadable.
fn chart(name: &str, svg: String) -> Chart {
    use crate::report::safe::{Keep, escape_controls_owned};
    (name.to_string(), escape_controls_owned(svg, Keep::Layout))
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
        out.push(chart(&name, alternatives_svg(&c.plan, &title)?));
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
    let marked: Vec<usize> = (0..alts.len())
        .filter(|&i| alts[i].note == "chosen")
        .collect();
    let cost = plan.totals.cost_usd_per_month;
    let least = alts
        .iter()
        .all(|a| a.cost_usd_per_month >= cost || a.note == "chosen");
    let verb = if least { "costs least" } else { "chosen" };
    let what = marked.first().map_or("The plan's ANF".to_string(), |&i| {
        let a = alts[i];
        let level = a.service_level.map_or("any".into(), |l| l.to_string());
        let noun = if a.datastores == 1 {
            "datastore"
        } else {
            "datastores"
        };
        format!("{} x {level} {noun}", a.datastores)
    });
    bar_svg(&Bars {
        title: &format!(
            "{what} {verb}: {} USD/month ({title})",
            group_thousands(cost, 2)
        ),
        value_axis: "USD per month",
        category_axis: "alternative",
        categories,
        series: vec![BarSeries {
            name: "ANF, USD per month".into(),
            colour: BLUE,
            values: alts.iter().map(|a| a.cost_usd_per_month).collect(),
        }],
        marked,
        category_colours: Vec::new(),
    })
}

/// Each host SKU's monthly total (hosts + ANF + gateways) where priced, in its design's
/// colour; the chosen SKU marked, its total in the title.
fn sku_cost_svg(plan: &EstatePlan) -> Result<String, ReportError> {
    let alts: Vec<_> = plan
        .sku_alternatives
        .iter()
        .filter(|a| a.feasible && a.total_usd_per_month.is_some())
        .collect();
    let total = |a: &crate::plan::SkuAlternative| a.total_usd_per_month.unwrap_or(0.0);
    // The plan's own SKU with first clusters of another: each SKU's hosts, from the summary.
    let m = &plan.summary;
    let hosts = |a: &crate::plan::SkuAlternative| {
        if a.chosen && a.sku == m.sku && a.hosts == m.hosts && estate::mixed(m) {
            estate::hosts_text(m)
        } else {
            format!("{} x {}", a.hosts, a.sku)
        }
    };
    let title = match alts.iter().find(|a| a.chosen) {
        Some(c) => {
            let least = alts.iter().all(|a| total(a) >= total(c));
            format!(
                "{} ({}) {}: {} USD/month",
                hosts(c),
                c.design.label(),
                if least { "costs least" } else { "chosen" },
                group_thousands(total(c), 2)
            )
        }
        None => "Monthly cost by host SKU (hosts + ANF + gateways)".to_string(),
    };
    bar_svg(&Bars {
        title: &title,
        value_axis: "USD per month (hosts + ANF + gateways)",
        category_axis: "host SKU",
        categories: alts.iter().map(|a| hosts(a)).collect(),
        series: vec![BarSeries {
            name: "hosts + ANF, USD per month".into(),
            colour: BLUE,
            values: alts.iter().map(|a| total(a)).collect(),
        }],
        marked: (0..alts.len()).filter(|&i| alts[i].chosen).collect(),
        category_colours: alts.iter().map(|a| design_colour(a.design)).collect(),
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
        performance_svg(&c.plan, perf, Some(&title))?,
    )))
}

/// Predicted small-block IOPS and large-block MiB/s at 1..=max datastores for the plan's
/// hosts, VMs, volume kind, cool share and pool QoS, with the targets and the chosen count;
/// `who` (the largest cluster of several) follows the title.
fn performance_svg(
    plan: &Plan,
    perf: &PerfInputs,
    who: Option<&str>,
) -> Result<String, ReportError> {
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
    let mut title = performance_title(plan);
    if let Some(who) = who {
        title = format!("{title} ({who})");
    }
    line_svg(&title, &panels)
}

/// What the performance chart shows: the chosen datastores meet the targets ("ANF
/// datastores meet 4,000 MiB/s from 2 datastores at 16 hosts"), or, without targets or
/// short of one, what they give.
fn performance_title(plan: &Plan) -> String {
    let pm = &plan.performance;
    let d = plan.totals.datastores;
    let noun = if d == 1 { "datastore" } else { "datastores" };
    let mut targets = Vec::new();
    if pm.iops_target > 0.0 {
        targets.push(format!("{} IOPS", group_thousands(pm.iops_target, 0)));
    }
    if pm.throughput_target_mibps > 0.0 {
        targets.push(format!(
            "{} MiB/s",
            group_thousands(pm.throughput_target_mibps, 0)
        ));
    }
    let meets = pm.small_block.iops >= pm.iops_target
        && pm.large_block.throughput_mibps >= pm.throughput_target_mibps;
    if targets.is_empty() || !meets {
        format!(
            "{d} ANF {noun} {} {} IOPS and {} MiB/s at {} hosts",
            if d == 1 { "gives" } else { "give" },
            group_thousands(pm.small_block.iops, 0),
            group_thousands(pm.large_block.throughput_mibps, 0),
            plan.hosts
        )
    } else {
        format!(
            "ANF datastores meet {} from {d} {noun} at {} hosts",
            targets.join(" and "),
            plan.hosts
        )
    }
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
    let size: f64 = plan.datastores.iter().map(|d| d.size_gib).sum();
    let n = plan.datastores.len();
    let title = format!(
        "{n} {} {} GiB in {} GiB",
        if n == 1 {
            "datastore holds"
        } else {
            "datastores hold"
        },
        group_thousands(plan.totals.placed_capacity_gib, 0),
        group_thousands(size, 0)
    );
    bar_svg(&Bars {
        title: &title,
        value_axis: "GiB",
        category_axis: "datastore",
        categories: plan.datastores.iter().map(|d| d.name.clone()).collect(),
        series: vec![
            BarSeries {
                name: "datastore size, GiB".into(),
                colour: SKY,
                values: plan.datastores.iter().map(|d| d.size_gib).collect(),
            },
            BarSeries {
                name: "data placed, GiB".into(),
                colour: BLUE,
                values: plan
                    .datastores
                    .iter()
                    .map(|d| d.placed_capacity_gib)
                    .collect(),
            },
        ],
        marked: Vec::new(),
        category_colours: Vec::new(),
    })
}

/// Hosts by what drives them (the counts add up to the total), the plan's design against
/// vSAN alone: each cluster's compute hosts by vCPU, memory or the minimum, the hosts added
/// beyond them as storage (the datastores' IOPS and MiB/s, data held on vSAN, the vSAN's
/// performance). A vSAN-alone cluster's compute hosts count by its plan cluster's compute
/// driver, its growth as storage.
fn hosts_svg(plan: &EstatePlan) -> Result<String, ReportError> {
    let h = &plan.summary.hosts_by_driver;
    let anf = [
        h.vcpu,
        h.memory,
        h.minimum,
        h.storage + h.vsan + h.vsan_performance,
        plan.summary.hosts,
    ];
    let plan_name = match plan.summary.design {
        crate::plan::Design::Anf => "ANF plan",
        crate::plan::Design::Hybrid => "hybrid plan",
        crate::plan::Design::Vsan => "the plan (vSAN alone)",
    };
    let design = plan.summary.design;
    let mut series = vec![BarSeries {
        name: format!("{plan_name}, hosts"),
        colour: design_colour(design),
        values: anf.iter().map(|&x| f64::from(x)).collect(),
    }];
    // A vSAN-alone plan is its own comparison: one series.
    let alone = vsan_by_driver(plan).filter(|_| design != crate::plan::Design::Vsan);
    if let Some(alone) = alone {
        series.push(BarSeries {
            name: "vSAN alone, hosts".into(),
            colour: design_colour(crate::plan::Design::Vsan),
            values: alone.iter().map(|&x| f64::from(x)).collect(),
        });
    }
    let m = &plan.summary;
    let hosts = if estate::mixed(m) {
        estate::hosts_text(m)
    } else {
        format!("{} {}", m.hosts, m.sku)
    };
    let mut title = format!("{} needs {hosts} hosts", capitalised(design.label()));
    if let Some(alone) = alone {
        // vSAN alone's hosts by SKU where it has first clusters of another SKU or is on
        // another SKU than the plan (its cheapest, with `--host-sku`).
        let v = plan.vsan_alone.as_ref().map(|v| &v.sizing);
        let words = match v {
            Some(v) if estate::vsan_hosts_by_sku(v).len() > 1 => estate::vsan_hosts_text(v),
            Some(v) if v.sku != m.sku => format!("{} {}", alone[4], v.sku),
            _ => alone[4].to_string(),
        };
        title = format!("{title}; vSAN alone {words}");
    }
    let categories = [
        "vCPU",
        "memory",
        "minimum",
        "storage (ANF: IOPS, MiB/s; vSAN: capacity, performance)",
        "total",
    ];
    bar_svg(&Bars {
        title: &title,
        value_axis: "AVS hosts",
        category_axis: "driver",
        categories: categories.iter().map(|s| (*s).to_string()).collect(),
        series,
        marked: Vec::new(),
        category_colours: Vec::new(),
    })
}

/// `s` with its first letter in upper case ("hybrid" -> "Hybrid"; "vSAN alone" kept).
fn capitalised(s: &str) -> String {
    if s.starts_with("vSAN") {
        return s.to_string();
    }
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// vSAN alone's hosts by driver: vCPU, memory, minimum, storage and the total; each
/// cluster's compute hosts by its plan cluster's compute driver (a first cluster vSAN alone
/// adds at the minimum), its growth as storage.
fn vsan_by_driver(plan: &EstatePlan) -> Option<[u32; 5]> {
    let alone = &plan.vsan_alone.as_ref()?.sizing;
    let mut by = [0, 0, 0, 0, alone.hosts];
    for c in &alone.clusters {
        let anf = plan.sizing.clusters.iter().find(|a| a.name == c.cluster);
        let i = anf.map_or(2, compute_driver);
        let compute = c.compute_hosts.min(c.hosts);
        by[i] += compute;
        by[3] += c.hosts - compute;
    }
    Some(by)
}

/// What decides a plan cluster's compute hosts, as an index of the hosts chart (0 vCPU, 1
/// memory, 2 the minimum): its driver, or where a design added hosts the larger of its
/// hosts for vCPU and memory, the minimum when those and the HA reserve are below 3.
fn compute_driver(c: &crate::sizing::AvsCluster) -> usize {
    match c.driver {
        Driver::Vcpu => 0,
        Driver::Memory => 1,
        Driver::Minimum => 2,
        Driver::Storage | Driver::Vsan | Driver::VsanPerformance => {
            let used = c.hosts_for_vcpu.max(c.hosts_for_memory) + c.ha_hosts;
            if used < 3 {
                2
            } else if c.hosts_for_vcpu >= c.hosts_for_memory {
                0
            } else {
                1
            }
        }
    }
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

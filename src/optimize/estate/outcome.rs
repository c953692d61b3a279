//! The plan's designs section ([`designs`]): the chosen SKU's three designs for the estate
//! and per cluster, which VMs the hybrid keeps on vSAN, the gateway line, the design
//! chosen and why in words; and the designs' assumptions ([`assumptions`]).

use super::added::added_clusters;
use super::baseline::Baselines;
use super::cost::{Costing, DesignCost};
use super::designs::design_variants;
use super::rows::{Pricing, Rows};
use super::sku::{EstateOptions, SkuEstate};
use crate::catalog::ReservationTerm;
use crate::demand::Demand;
use crate::numbers::{group_thousands as g, size_gib};
use crate::optimize::milp::round_cents;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{
    Assumption, ClusterPlans, Design, DesignTotal, EstateDesigns, EstateSummary, GatewayLine,
};
use crate::vsan::VsanCatalog;

/// GiB per TiB.
const GIB_PER_TIB: f64 = 1024.0;

/// The designs section of the chosen SKU `e` on its design (the other designs' year from
/// their plans where planned, else 12 months); `storage` is the chosen design's plan (taken
/// out of `e.planned`), whose figures its clusters' rows take.
///
/// # Errors
/// A vSAN error for the SKU (a bug: it was sized on it).
pub(super) fn designs(
    (e, baselines): (&SkuEstate, &Baselines),
    (demand, vsan_catalog, estate): (&Demand, &VsanCatalog, &EstateOptions),
    (summary, storage): (&EstateSummary, Option<&ClusterPlans>),
    hours: f64,
    gateway: GatewayLine,
) -> Result<EstateDesigns, OptimizeError> {
    let costs: Vec<DesignCost> = e.costs.iter().flatten().cloned().collect();
    let chosen = e.design;
    let estate_rows: Vec<DesignTotal> = costs
        .iter()
        .map(|c| {
            total_row(
                c,
                chosen,
                summary,
                e.planned.get(&c.design).map(|s| &s.plans),
            )
        })
        .collect();
    let why = why(&costs, (chosen, &e.sizing.sku), baselines, estate);
    let clusters = match e.choices.as_ref() {
        Some(choices) => {
            let collapsed = costs.iter().any(|c| c.collapsed);
            let pricing = [Design::Anf, Design::Hybrid].map(|d| Pricing {
                planned: match storage {
                    Some(s) if d == chosen => Some(s),
                    _ => e.planned.get(&d).map(|s| &s.plans),
                },
                shared: e
                    .cost(d)
                    .and_then(|c| c.pool_sizing)
                    .is_some_and(|p| p.shared()),
            });
            let ctx = Rows {
                demand,
                hours,
                collapsed,
                chosen: if collapsed { Design::Vsan } else { chosen },
                pricing,
            };
            let at = Costing {
                limits: &vsan_catalog.limits,
                hours,
            };
            let per =
                [Design::Vsan, Design::Anf, Design::Hybrid].map(|d| design_variants(e, d, at));
            let mut rows = e
                .sizing
                .clusters
                .iter()
                .filter(|c| !c.management_only)
                .zip(choices)
                .enumerate()
                .map(|(i, (c, choice))| {
                    let of = |d: usize| per[d].get(i).copied().flatten();
                    ctx.cluster(c, choice, [of(0), of(1), of(2)])
                })
                .collect::<Result<Vec<_>, _>>()?;
            rows.extend(added_clusters(e, at, (collapsed, ctx.chosen)));
            split_vsan_rows(&mut rows, e.vsan_alone.as_ref(), collapsed);
            rows
        }
        None => Vec::new(),
    };
    Ok(EstateDesigns {
        chosen,
        forced: estate.design.is_some(),
        why,
        estate: estate_rows,
        clusters,
        gateway,
        note: search_note(demand),
    })
}

/// How the hybrid is searched and what no design checks.
fn search_note(demand: &Demand) -> String {
    let mut s = String::from(
        "hybrid: per AVS cluster the cheapest of every host count from its compute hosts to \
         16 and every split of its VMs between the hosts' vSAN (policy by cluster size, \
         slack, dedup, less the raw capacity AVS uses itself) and ANF datastores, by an \
         exact search over each VM's data rounded up to whole GiB (checked against an \
         enumeration of every split; the ANF side's Standard, Premium or Ultra datastores a \
         share of a shared pool priced per GiB, the pools' rounding to whole TiB added to \
         each design's split after); the estate's hybrid is the clusters' best points plus \
         the ExpressRoute gateways, or vSAN alone where cheaper",
    );
    if demand
        .placed
        .iter()
        .any(|v| v.iops.is_some() || v.throughput_mibps.is_some())
    {
        s.push_str(
            "; with per-VM figures (`perf`) the search is exact over the host counts and the \
             splits by data and VM count, not over which VMs of equal data go to ANF (their \
             figures differ)",
        );
    }
    if has_targets(demand) {
        s.push_str(
            "; the data kept on vSAN carries its share of the IOPS and MiB/s targets, checked \
             against the cluster's vSAN envelope with a host down for HA beside its ANF \
             traffic over the same NICs (the `vsan-<sku>` systems of `dsplan predict`: built from the \
             hosts' parts, data/vsan_performance.csv, as Microsoft publishes no vSAN figures \
             for AVS hosts), so a cluster keeps on vSAN only what its hosts carry and vSAN \
             alone grows until they do",
        );
    }
    s
}

/// Whether the estate has an IOPS or MiB/s target.
fn has_targets(demand: &Demand) -> bool {
    demand.options.iops > 0.0 || demand.options.throughput_mibps > 0.0
}

/// One estate row.
fn total_row(
    c: &DesignCost,
    chosen: Design,
    summary: &EstateSummary,
    storage: Option<&ClusterPlans>,
) -> DesignTotal {
    let year = if c.design == chosen {
        summary.total_usd_per_year
    } else {
        super::cost::year(c, storage)
    };
    DesignTotal {
        design: c.design,
        chosen: c.design == chosen,
        feasible: c.feasible,
        hosts: c.hosts,
        clusters: c.clusters,
        private_clouds: c.private_clouds,
        hosts_usd_per_month: c.hosts_usd,
        anf_usd_per_month: c.anf_usd,
        gateways: c.gateways,
        gateway_usd_per_month: c.gateway_usd,
        total_usd_per_month: c.total,
        total_usd_per_year: year,
        vsan_data_tib: c.vsan_gib / GIB_PER_TIB,
        anf_data_tib: c.anf_gib / GIB_PER_TIB,
        vms_on_vsan: c.vms_vsan,
        vms_on_anf: c.vms_anf,
        predicted_iops: c.delivers.total().0,
        predicted_throughput_mibps: c.delivers.total().1,
        note: row_note(c),
    }
}

/// A design row's note.
fn row_note(c: &DesignCost) -> String {
    if let Some(why) = &c.refused {
        return format!("cannot be built: {why}");
    }
    if !c.feasible {
        return match c.design {
            Design::Vsan => "not compared: the vSAN settings are off (`vsan_comparison`)".into(),
            _ => "not searched: it needs a host price and the vSAN settings".into(),
        };
    }
    match c.design {
        Design::Vsan => "every VM's data on its cluster's vSAN, clusters grown to hold it".into(),
        Design::Anf => "every VM's data on ANF datastores, hosts for compute".into(),
        Design::Hybrid if c.collapsed => {
            "vSAN alone: no split costs less, its ExpressRoute gateways counted".into()
        }
        Design::Hybrid => "per cluster the cheapest split between vSAN and ANF".into(),
    }
}

/// Why the chosen design, in words: what it keeps where and what it saves against the
/// others (or that `design` forced it): vSAN alone and ANF for all each on its cheapest
/// priced SKU (`baselines`, named when it is not the chosen `sku`), the hybrid on the
/// chosen SKU.
fn why(
    costs: &[DesignCost],
    (chosen, sku): (Design, &str),
    baselines: &Baselines,
    estate: &EstateOptions,
) -> String {
    let find = |d: Design| costs.iter().find(|c| c.design == d && c.feasible);
    let Some(c) = find(chosen) else {
        return format!("{}: forced by `design`", chosen.label());
    };
    let what = match chosen {
        Design::Vsan => format!(
            "{}: every VM's data on {} hosts' vSAN ({})",
            chosen.label(),
            g(f64::from(c.hosts), 0),
            size_gib(c.vsan_gib)
        ),
        Design::Anf => format!(
            "{}: {} of {} VMs on ANF datastores, {} hosts for compute",
            chosen.label(),
            size_gib(c.anf_gib),
            g(c.vms_anf as f64, 0),
            g(f64::from(c.hosts), 0)
        ),
        Design::Hybrid if c.collapsed => format!(
            "hybrid = vSAN alone: every VM's data on {} hosts' vSAN ({}); no split of the \
             clusters' VMs costs less, its ExpressRoute gateways counted",
            g(f64::from(c.hosts), 0),
            size_gib(c.vsan_gib)
        ),
        Design::Hybrid => format!(
            "hybrid: {} stays on the {}hosts' vSAN, {} of {} on ANF",
            size_gib(c.vsan_gib),
            // Hosts added beyond compute (for the vSAN or the datastores): not compute's.
            if c.hosts_added { "" } else { "compute " },
            size_gib(c.anf_gib),
            crate::numbers::counted(c.vms_anf as u64, "VM")
        ),
    };
    let mut against: Vec<String> = Vec::new();
    // The last comparison's verb (saves, or costs) and whether it cost more.
    let mut last: Option<(bool, bool)> = None;
    for other in [Design::Vsan, Design::Anf, Design::Hybrid] {
        // The chosen design itself is compared only where its cheapest SKU is another
        // (vSAN alone or ANF for all on a fixed `host_sku`).
        if other == chosen && baselines.of_design(other).is_none_or(|b| b.sku == sku) {
            continue;
        }
        // vSAN alone and ANF for all on their cheapest SKU; the hybrid on this one.
        let (total, on) = match baselines.of_design(other) {
            Some(b) => (Some(b.usd_per_month), b.sku.as_str()),
            None => match find(other) {
                Some(o) if !(other == Design::Hybrid && o.collapsed) => (o.total, sku),
                _ => continue,
            },
        };
        let label = if on == sku {
            other.label().to_string()
        } else {
            format!("{} (on {on}, its cheapest SKU)", other.label())
        };
        if let (Some(a), Some(b)) = (c.total, total) {
            let d = round_cents(b - a);
            // A verb said once for the comparisons in a row that share it: `saves 3.00
            // USD/month against X and 2.00 against Y`, `costs the same as X and 5.00
            // USD/month more than Y`, `costs 1.00 USD/month more than X and 2.00 more
            // than Y`.
            let saves = d >= 0.005;
            let after = |same_verb: bool| last.is_some_and(|(s, _)| s == same_verb);
            against.push(if saves {
                if after(true) {
                    format!("{} against {label}", g(d, 2))
                } else {
                    format!("saves {} USD/month against {label}", g(d, 2))
                }
            } else {
                let costs = if after(false) { "" } else { "costs " };
                if d > -0.005 {
                    format!("{costs}the same as {label}")
                } else if last.is_some_and(|(s, more)| !s && more) {
                    format!("{} more than {label}", g(-d, 2))
                } else {
                    format!("{costs}{} USD/month more than {label}", g(-d, 2))
                }
            });
            last = Some((saves, !saves && d <= -0.005));
        }
    }
    let mut s = what;
    if !against.is_empty() {
        s.push_str("; ");
        s.push_str(&against.join(" and "));
    }
    if estate.design.is_some() {
        s.push_str(" (forced by `design`)");
    }
    // What the data kept on vSAN delivers is the summary's `performance` (the headline's
    // "delivers"), not repeated here.
    s
}

/// vSAN alone's row of each cluster it splits past 16 hosts (the hybrid's too when it is
/// vSAN alone) at the hosts of its parts, each holding its own VMs
/// ([`crate::sizing::VsanAlone`]), which may be more than the data pooled over them needs.
fn split_vsan_rows(
    rows: &mut [crate::plan::ClusterDesigns],
    vsan_alone: Option<&crate::sizing::VsanAlone>,
    collapsed: bool,
) {
    let Some(v) = vsan_alone else { return };
    let at = |d: &mut crate::plan::ClusterDesign, hosts: u32| {
        if d.hosts == 0 || d.hosts == hosts {
            return;
        }
        let per_host = d.hosts_usd_per_month.map(|u| u / f64::from(d.hosts));
        d.hosts = hosts;
        d.hosts_usd_per_month = per_host.map(|p| round_cents(p * f64::from(hosts)));
        d.total_usd_per_month = d
            .hosts_usd_per_month
            .map(|h| round_cents(h + d.anf_usd_per_month));
    };
    for r in rows.iter_mut() {
        let Some(x) = v
            .clusters
            .iter()
            .find(|x| x.cluster == r.cluster && x.clusters > 1)
        else {
            continue;
        };
        at(&mut r.vsan, x.hosts);
        if collapsed {
            at(&mut r.hybrid, x.hosts);
        }
    }
}

/// The designs' settings and rules, for the reader: the design and how it is chosen, what
/// each cluster's vSAN keeps for AVS itself, the gateways in place, and (with a reservation
/// or peak months) on which costs the hybrid's split is chosen.
pub(super) fn assumptions(
    design: Design,
    estate: &EstateOptions,
    c: &VsanCatalog,
    options: &OptimizeOptions,
) -> Vec<Assumption> {
    let a = |name: &str, value: String, note: String| Assumption {
        name: name.into(),
        value,
        note,
    };
    let l = &c.limits;
    let mut out = vec![
        a(
            "design",
            design.to_string(),
            if estate.design.is_some() {
                "forced by `design`".into()
            } else {
                "the cheapest of vSAN alone, ANF for all and the hybrid (hosts + ANF + \
                 ExpressRoute gateways per month; ties: vSAN alone, then ANF for all); \
                 `design` forces one"
                    .into()
            },
        ),
        a(
            "vsan_reserved_raw_gb",
            format!(
                "{} / {}",
                g(f64::from(l.vsan_first_cluster_raw_gb), 0),
                g(f64::from(l.vsan_cluster_raw_gb), 0)
            ),
            "raw vSAN capacity AVS uses itself, subtracted from each cluster's (vSAN alone \
             and hybrid): the management and control plane's typical usage (appliances, \
             optional add-ons and vSAN system usage, without the data reduction ratio) in \
             the first cluster of each private cloud, vSAN system usage and the vSphere \
             Cluster Service VMs in every other (architecture-private-clouds 2025-08-14, \
             include hosts-minimum-initial-deployment-statement 2025-04-02); the 25% slack \
             stays free on top, vSAN's own reserve"
                .into(),
        ),
        a(
            "existing_er_gateways",
            estate.existing_er_gateways.to_string(),
            "ExpressRoute gateways already in place for the ANF datastores, not bought \
             (data/er_gateway.csv: one UltraPerformance or ErGw3Az gateway per 4 private \
             clouds, 1,365.10 USD/month each)"
                .into(),
        ),
    ];
    if options.reservation != ReservationTerm::None || options.peak.is_some() {
        out.push(a(
            "hybrid_split",
            "pay as you go".into(),
            "the hybrid's split is chosen on pay-as-you-go monthly costs (the base months' \
             with `peak_months`, the peak targets met by its ANF side); the chosen split is \
             then planned with `reservation` and the time phases, and the designs compared \
             on their planned costs"
                .into(),
        ));
    }
    out
}

//! The plan's designs section ([`designs`]): the chosen SKU's three designs for the estate
//! and per cluster, which VMs the hybrid keeps on vSAN, the gateway line, the design
//! chosen and why in words; and the designs' assumptions ([`assumptions`]).

use super::choices::{ClusterChoice, Variant};
use super::designs::{Costing, DesignCost, design_variants};
use super::sku::{EstateOptions, SkuEstate};
use crate::catalog::ReservationTerm;
use crate::demand::Demand;
use crate::numbers::group_thousands as g;
use crate::optimize::milp::round_cents;
use crate::optimize::{OptimizeError, OptimizeOptions};
use crate::plan::{
    Assumption, ClusterDesign, ClusterDesigns, ClusterPlans, Design, DesignTotal, EstateDesigns,
    EstateSummary, GatewayLine,
};
use crate::sizing::AvsCluster;
use crate::vsan::{VsanCatalog, VsanOptions};

/// GiB per TiB.
const GIB_PER_TIB: f64 = 1024.0;

/// The designs section of the chosen SKU `e` on its design (the other designs' year from
/// their plans where planned, else 12 months).
///
/// # Errors
/// A vSAN error for the SKU (a bug: it was sized on it).
pub(super) fn designs(
    e: &SkuEstate,
    (demand, vsan_catalog, estate): (&Demand, &VsanCatalog, &EstateOptions),
    summary: &EstateSummary,
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
    let why = why(&costs, chosen, estate);
    let clusters = match e.choices.as_ref() {
        Some(choices) => {
            let collapsed = costs.iter().any(|c| c.collapsed);
            let ctx = Rows {
                demand,
                vsan_catalog,
                vsan: estate.vsan.as_ref(),
                hours,
                collapsed,
                chosen: if collapsed { Design::Vsan } else { chosen },
            };
            let at = Costing {
                limits: &vsan_catalog.limits,
                hours,
            };
            let per =
                [Design::Vsan, Design::Anf, Design::Hybrid].map(|d| design_variants(e, d, at));
            e.sizing
                .clusters
                .iter()
                .filter(|c| !c.management_only)
                .zip(choices)
                .enumerate()
                .map(|(i, (c, choice))| {
                    let of = |d: usize| per[d].get(i).copied().flatten();
                    ctx.cluster(c, choice, [of(0), of(1), of(2)])
                })
                .collect::<Result<Vec<_>, _>>()?
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
        s.push_str(&format!("; {}", vsan_unchecked()));
    }
    s
}

/// Whether the estate has an IOPS or MiB/s target.
fn has_targets(demand: &Demand) -> bool {
    demand.options.iops > 0.0 || demand.options.throughput_mibps > 0.0
}

/// The vSAN side's performance, in words.
fn vsan_unchecked() -> &'static str {
    "the data kept on vSAN carries its share of the IOPS and MiB/s targets unchecked: \
     Microsoft publishes no IOPS or MiB/s figures for vSAN on AVS hosts; only the ANF \
     datastores' share is verified"
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
        super::assemble::year(c, storage)
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
        note: row_note(c),
    }
}

/// A design row's note.
fn row_note(c: &DesignCost) -> String {
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
/// others (or that `design` forced it).
fn why(costs: &[DesignCost], chosen: Design, estate: &EstateOptions) -> String {
    let find = |d: Design| costs.iter().find(|c| c.design == d && c.feasible);
    let Some(c) = find(chosen) else {
        return format!("{}: forced by `design`", chosen.label());
    };
    let what = match chosen {
        Design::Vsan => format!(
            "{}: every VM's data on {} hosts' vSAN ({} TiB)",
            chosen.label(),
            c.hosts,
            g(c.vsan_gib / GIB_PER_TIB, 1)
        ),
        Design::Anf => format!(
            "{}: {} TiB of {} VMs on ANF datastores, {} hosts for compute",
            chosen.label(),
            g(c.anf_gib / GIB_PER_TIB, 1),
            g(c.vms_anf as f64, 0),
            c.hosts
        ),
        Design::Hybrid if c.collapsed => format!(
            "hybrid = vSAN alone: every VM's data on {} hosts' vSAN ({} TiB); no split of \
             the clusters' VMs costs less, its ExpressRoute gateways counted",
            c.hosts,
            g(c.vsan_gib / GIB_PER_TIB, 1)
        ),
        Design::Hybrid => format!(
            "hybrid: {} TiB stays on the compute hosts' vSAN, {} TiB of {} VMs on ANF",
            g(c.vsan_gib / GIB_PER_TIB, 1),
            g(c.anf_gib / GIB_PER_TIB, 1),
            g(c.vms_anf as f64, 0)
        ),
    };
    let mut against: Vec<String> = Vec::new();
    for other in [Design::Vsan, Design::Anf, Design::Hybrid] {
        if other == chosen {
            continue;
        }
        let Some(o) = find(other) else { continue };
        if other == Design::Hybrid && o.collapsed {
            continue;
        }
        if let (Some(a), Some(b)) = (c.total, o.total) {
            let d = round_cents(b - a);
            let first = against.is_empty();
            against.push(match (d >= 0.0, first) {
                (true, true) => format!("saves {} USD/month against {}", g(d, 2), other.label()),
                (true, false) => format!("{} against {}", g(d, 2), other.label()),
                (false, _) => format!("costs {} USD/month more than {}", g(-d, 2), other.label()),
            });
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

/// What the per-cluster rows share.
struct Rows<'a> {
    demand: &'a Demand,
    vsan_catalog: &'a VsanCatalog,
    vsan: Option<&'a VsanOptions>,
    hours: f64,
    /// The estate's hybrid is vSAN alone: each cluster's hybrid row is its vSAN-alone row.
    collapsed: bool,
    /// The design the plan is sized as (vSAN alone for a collapsed hybrid).
    chosen: Design,
}

impl Rows<'_> {
    /// What `hosts` hosts of variant `v` hold on vSAN, GiB (0 without the vSAN settings).
    fn usable(&self, v: &Variant, hosts: u32) -> Result<f64, OptimizeError> {
        let Some(o) = self.vsan else { return Ok(0.0) };
        let o = VsanOptions {
            sku: v.sku.clone(),
            ..o.clone()
        };
        let cap = self.vsan_catalog.capacity(&o, hosts, v.reserved_raw_tib)?;
        Ok(cap.map_or(0.0, |c| c.usable_data_gib))
    }

    fn row(
        &self,
        v: &Variant,
        hosts: u32,
        (vsan_gib, anf_gib, vms_on_anf): (f64, f64, usize),
        (usable, anf_usd): (f64, f64),
    ) -> ClusterDesign {
        let hosts_usd = v
            .usd_per_host_hour
            .map(|p| round_cents(f64::from(hosts) * p * self.hours));
        ClusterDesign {
            feasible: true,
            sku: v.sku.clone(),
            hosts,
            vsan_usable_gib: usable,
            vsan_data_gib: vsan_gib,
            anf_data_gib: anf_gib,
            vms_on_anf,
            hosts_usd_per_month: hosts_usd,
            anf_usd_per_month: round_cents(anf_usd),
            total_usd_per_month: hosts_usd.map(|h| round_cents(h + anf_usd)),
        }
    }

    /// A design not worked out for cluster `c`.
    fn unknown(c: &AvsCluster) -> ClusterDesign {
        ClusterDesign {
            feasible: false,
            sku: c.sku.clone(),
            hosts: c.hosts,
            vsan_usable_gib: 0.0,
            vsan_data_gib: 0.0,
            anf_data_gib: 0.0,
            vms_on_anf: 0,
            hosts_usd_per_month: None,
            anf_usd_per_month: 0.0,
            total_usd_per_month: None,
        }
    }

    /// One cluster's three designs, each on the variant its design gives the cluster
    /// (`per`: vSAN alone, ANF for all, hybrid).
    fn cluster(
        &self,
        c: &AvsCluster,
        choice: &ClusterChoice,
        per: [Option<&Variant>; 3],
    ) -> Result<ClusterDesigns, OptimizeError> {
        let n = choice.data_gib.len();
        let data: f64 = choice.data_gib.iter().sum();
        let [on_vsan_alone, on_anf, on_hybrid] = per;
        let vsan = match on_vsan_alone.and_then(|v| v.vsan_hosts.map(|h| (v, h))) {
            Some((v, h)) => self.row(v, h, (data, 0.0, 0), (self.usable(v, h)?, 0.0)),
            None => Self::unknown(c),
        };
        let anf = match on_anf {
            Some(v) => {
                let (hosts, usd) = v.anf;
                self.row(v, hosts, (0.0, data, n), (self.usable(v, hosts)?, usd))
            }
            None => Self::unknown(c),
        };
        let (hybrid, on_vsan) = match on_hybrid.and_then(|v| v.hybrid.as_ref().map(|h| (v, h))) {
            _ if self.collapsed => (vsan.clone(), (0..n).collect()),
            Some((v, h)) => {
                let on_anf = h.point.on_anf(n);
                let anf_gib = choice.data(&on_anf);
                let row = self.row(
                    v,
                    h.point.hosts,
                    (data - anf_gib, anf_gib, on_anf.len()),
                    (h.vsan_usable_gib, h.point.anf_usd_per_month),
                );
                (row, h.point.on_vsan.clone())
            }
            None => (Self::unknown(c), Vec::new()),
        };
        let names = on_vsan
            .iter()
            .filter_map(|&p| c.vm_indices.get(p))
            .filter_map(|&v| self.demand.placed.get(v))
            .map(|v| v.name.clone())
            .collect();
        let chosen = match self.chosen {
            Design::Vsan => on_vsan_alone,
            Design::Anf => on_anf,
            Design::Hybrid => on_hybrid,
        };
        Ok(ClusterDesigns {
            cluster: c.name.clone(),
            compute_hosts: chosen.map_or(c.hosts, |v| v.compute_hosts),
            vms: n,
            data_gib: data,
            reserved_raw_tib: chosen.map_or(0.0, |v| v.reserved_raw_tib),
            vsan,
            anf,
            hybrid,
            hybrid_vms_on_vsan: names,
        })
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

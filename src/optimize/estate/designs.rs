//! The three designs of one SKU's estate: per cluster ([`cluster_choices`]: ANF for all at
//! the fewest hosts whose datastores meet the targets, and the hybrid's cheapest point of
//! [`super::hybrid::cheapest`]), for the estate ([`design_costs`]: hosts + ANF + the
//! ExpressRoute gateways), the design a SKU is compared on ([`pick`]), and the chosen
//! design's hosts ([`design_sizing`]) and ANF demands ([`design_split`]).
//!
//! The estate's hybrid is `min(vSAN alone, sum of each cluster's best point + gateways)`:
//! the gateways are due once any cluster puts data on ANF, and vSAN alone (whose clusters
//! may grow past 16 hosts into several) is the design without any. When vSAN alone is the
//! cheaper, the hybrid is vSAN alone and says so. Ties go to the simpler design: vSAN
//! alone, then ANF for all.

use super::StorageContext;
use super::gateway::gateways;
use super::hybrid::{AnfOracle, Cluster, Point, Units, anf_for_all, cheapest, feasible};
use super::oracle::{ClusterOracle, cluster_demand};
use super::sku::{SkuEstate, hosts_cost};
use crate::demand::ClusterDemands;
use crate::optimize::OptimizeError;
use crate::optimize::milp::round_cents;
use crate::plan::{Design, GatewayLine};
use crate::sizing::{Driver, EstateSizing};
use crate::vsan::VsanOptions;

/// The hybrid's point of one cluster, with true sizes.
#[derive(Debug, Clone)]
pub(super) struct HybridChoice {
    /// Hosts, the VMs on vSAN (positions in the cluster's VMs), the others' ANF cost.
    pub(super) point: Point,
    /// Why its hosts: the compute driver, [`Driver::Vsan`] when raised to keep data on
    /// vSAN, [`Driver::Storage`] when raised for its datastores' targets.
    pub(super) driver: Driver,
    /// What those hosts' vSAN holds, GiB.
    pub(super) vsan_usable_gib: f64,
}

/// One AVS cluster's designs.
#[derive(Debug, Clone)]
pub(super) struct ClusterChoice {
    /// Each VM's data, GiB (after growth and snapshot reserve), in the cluster's VM order.
    pub(super) data_gib: Vec<f64>,
    /// Raw vSAN capacity AVS uses itself in the cluster, TiB.
    pub(super) reserved_raw_tib: f64,
    /// ANF for all: hosts and the ANF cost, USD per month (pay as you go).
    pub(super) anf: (u32, f64),
    /// The hybrid's point (`None`: not searched, without a host price or vSAN settings).
    pub(super) hybrid: Option<HybridChoice>,
}

impl ClusterChoice {
    fn data(&self, positions: &[usize]) -> f64 {
        positions.iter().filter_map(|&p| self.data_gib.get(p)).sum()
    }
}

/// Every cluster's designs on one SKU.
///
/// # Errors
/// The error of a cluster whose datastores cannot meet its targets with every VM on ANF
/// at any host count (the SKU is then infeasible), or any other optimizer or vSAN error.
pub(super) fn cluster_choices(
    ctx: &StorageContext,
    e: &SkuEstate,
) -> Result<Vec<ClusterChoice>, OptimizeError> {
    let factor = super::data_factor(ctx.demand);
    let reserved = e.sizing.vsan_reserved_raw_tib(&ctx.vsan_catalog.limits);
    let zero_share = 1.0 / e.sizing.clusters.len().max(1) as f64;
    let (min, max) = (ctx.catalog.limits.min_hosts, ctx.catalog.limits.max_hosts);
    let mut out = Vec::with_capacity(e.sizing.clusters.len());
    for (i, c) in e.sizing.clusters.iter().enumerate() {
        let vms = c.vm_indices.as_slice();
        let data_gib: Vec<f64> = vms
            .iter()
            .map(|&v| ctx.demand.placed.get(v).map_or(0.0, |x| x.capacity_gib) * factor)
            .collect();
        let all: Vec<usize> = (0..vms.len()).collect();
        let mut exact = ClusterOracle::new(*ctx, (&c.name, vms), None, zero_share);
        let first = c.hosts.clamp(min, max);
        let anf = anf_for_all(&mut exact, &all, (first, max))?;
        let reserve = reserved.get(i).copied().unwrap_or(0.0);
        let mut choice = ClusterChoice {
            data_gib,
            reserved_raw_tib: reserve,
            anf,
            hybrid: None,
        };
        // Without a host price the hybrid is searched only when forced, on the compute
        // hosts (no host count can be weighed against ANF).
        let forced = ctx.estate.design == Some(Design::Hybrid);
        let price = match e.host_usd_per_hour {
            Some(p) => Some((p, max)),
            None if forced => Some((0.0, first)),
            None => None,
        };
        if let (Some(o), Some((price, last))) = (&ctx.estate.vsan, price) {
            let o = VsanOptions {
                sku: e.sizing.sku.clone(),
                ..o.clone()
            };
            let hosts_vsan = e
                .vsan_alone
                .as_ref()
                .and_then(|v| v.clusters.get(i))
                .map(|v| v.hosts);
            let search = Search {
                ctx,
                vsan: &o,
                usd_per_host_month: price * ctx.catalog.limits.hours_per_month,
                hosts: (first, last),
                hosts_vsan,
            };
            choice.hybrid = search.run((&c.name, vms), &choice, &mut exact, zero_share)?;
        }
        out.push(choice);
    }
    Ok(out)
}

/// One cluster's hybrid search settings.
struct Search<'a, 'b> {
    ctx: &'a StorageContext<'b>,
    vsan: &'a VsanOptions,
    usd_per_host_month: f64,
    /// Compute hosts and the AVS maximum.
    hosts: (u32, u32),
    /// The cluster's hosts on vSAN alone, when worked out.
    hosts_vsan: Option<u32>,
}

impl Search<'_, '_> {
    /// What `hosts` hosts of the cluster hold on vSAN, GiB (0 below the policy's minimum).
    fn usable(&self, hosts: u32, reserve: f64) -> Result<f64, OptimizeError> {
        let cap = self.ctx.vsan_catalog.capacity(self.vsan, hosts, reserve)?;
        Ok(cap.map_or(0.0, |c| c.usable_data_gib))
    }

    /// The cheapest of the search's point (re-costed at the true sizes), ANF for all, and
    /// every VM on vSAN at vSAN alone's hosts when they are within one cluster.
    fn run(
        &self,
        (name, vms): (&str, &[usize]),
        choice: &ClusterChoice,
        exact: &mut ClusterOracle,
        zero_share: f64,
    ) -> Result<Option<HybridChoice>, OptimizeError> {
        let (first, max) = self.hosts;
        let reserve = choice.reserved_raw_tib;
        let usable_gib = (first..=max)
            .map(|h| self.usable(h, reserve))
            .collect::<Result<Vec<f64>, _>>()?;
        let widest = usable_gib.iter().copied().fold(0.0, f64::max);
        let units = Units::of(&choice.data_gib, widest);
        let mut rounded = ClusterOracle::new(*self.ctx, (name, vms), Some(&units), zero_share);
        let cluster = Cluster {
            units: &units,
            first_hosts: first,
            usable_gib: &usable_gib,
            usd_per_host_month: self.usd_per_host_month,
        };
        let n = vms.len();
        let mut candidates = Vec::new();
        if let Some(p) = cheapest(&cluster, &mut rounded)? {
            let on_anf = p.on_anf(n);
            let anf = if on_anf.is_empty() {
                Some(0.0)
            } else {
                feasible(exact.cost(&on_anf, p.hosts))?
            };
            if let Some(anf) = anf {
                candidates.push(Point {
                    anf_usd_per_month: anf,
                    ..p
                });
            }
        }
        candidates.push(Point {
            hosts: choice.anf.0,
            on_vsan: Vec::new(),
            anf_usd_per_month: choice.anf.1,
        });
        if let Some(h) = self
            .hosts_vsan
            .filter(|&h| h <= max && self.usd_per_host_month > 0.0)
        {
            candidates.push(Point {
                hosts: h.max(first),
                on_vsan: (0..n).collect(),
                anf_usd_per_month: 0.0,
            });
        }
        let total = |p: &Point| p.total(self.usd_per_host_month);
        let Some(best) = candidates
            .into_iter()
            .min_by(|a, b| total(a).total_cmp(&total(b)))
        else {
            return Ok(None);
        };
        let driver = self.driver(&best, first, exact)?;
        let vsan_usable_gib = self.usable(best.hosts, reserve)?;
        Ok(Some(HybridChoice {
            point: best,
            driver,
            vsan_usable_gib,
        }))
    }

    /// [`Driver::Storage`] when the point's ANF side cannot meet its targets with a host
    /// fewer, [`Driver::Vsan`] when raised otherwise; [`Driver::Vcpu`] as a placeholder for
    /// "the compute driver" when not raised.
    fn driver(
        &self,
        p: &Point,
        first: u32,
        exact: &mut ClusterOracle,
    ) -> Result<Driver, OptimizeError> {
        if p.hosts <= first {
            return Ok(Driver::Vcpu);
        }
        let on_anf = p.on_anf(exact.vm_count());
        if on_anf.is_empty() {
            return Ok(Driver::Vsan);
        }
        Ok(match feasible(exact.cost(&on_anf, p.hosts - 1))? {
            Some(_) => Driver::Vsan,
            None => Driver::Storage,
        })
    }
}

/// One design of one SKU's estate, in figures.
#[derive(Debug, Clone)]
pub(super) struct DesignCost {
    pub(super) design: Design,
    /// Whether it was worked out (vSAN alone and the hybrid need the vSAN settings and,
    /// for the hybrid, a host price).
    pub(super) feasible: bool,
    pub(super) hosts: u32,
    pub(super) clusters: u32,
    pub(super) private_clouds: u32,
    pub(super) hosts_usd: Option<f64>,
    pub(super) anf_usd: f64,
    pub(super) gateways: u32,
    pub(super) gateway_usd: f64,
    pub(super) total: Option<f64>,
    pub(super) vsan_gib: f64,
    pub(super) anf_gib: f64,
    pub(super) vms_vsan: usize,
    pub(super) vms_anf: usize,
    /// The hybrid is vSAN alone: no cluster's split saves the gateways' cost.
    pub(super) collapsed: bool,
}

/// The SKU's three designs (vSAN alone, ANF for all, hybrid), in that order; `None` before
/// the SKU is costed.
pub(super) fn design_costs(
    e: &SkuEstate,
    gateway: &GatewayLine,
    hours: f64,
    limits: &crate::vsan::AvsLimits,
) -> Option<[DesignCost; 3]> {
    let choices = e.choices.as_ref()?;
    let price = e.host_usd_per_hour;
    let data: f64 = choices.iter().map(|c| c.data_gib.iter().sum::<f64>()).sum();
    let vms: usize = choices.iter().map(|c| c.data_gib.len()).sum();
    let vsan = match &e.vsan_alone {
        Some(v) => DesignCost {
            design: Design::Vsan,
            feasible: true,
            hosts: v.hosts,
            clusters: v.cluster_count,
            private_clouds: v.private_clouds,
            hosts_usd: hosts_cost(v.hosts, price, hours),
            anf_usd: 0.0,
            gateways: 0,
            gateway_usd: 0.0,
            total: hosts_cost(v.hosts, price, hours),
            vsan_gib: data,
            anf_gib: 0.0,
            vms_vsan: vms,
            vms_anf: 0,
            collapsed: false,
        },
        None => unknown(Design::Vsan),
    };
    let anf = with_anf(e, Design::Anf, gateway, hours, limits);
    let mut hybrid = if choices.iter().all(|c| c.hybrid.is_some()) && vsan.feasible {
        with_anf(e, Design::Hybrid, gateway, hours, limits)
    } else {
        unknown(Design::Hybrid)
    };
    if hybrid.feasible
        && let (Some(v), Some(h)) = (vsan.total, hybrid.total)
        && v <= h + 1e-9
    {
        hybrid = DesignCost {
            design: Design::Hybrid,
            collapsed: true,
            ..vsan.clone()
        };
    }
    Some([vsan, anf, hybrid])
}

/// A design not worked out.
fn unknown(design: Design) -> DesignCost {
    DesignCost {
        design,
        feasible: false,
        hosts: 0,
        clusters: 0,
        private_clouds: 0,
        hosts_usd: None,
        anf_usd: 0.0,
        gateways: 0,
        gateway_usd: 0.0,
        total: None,
        vsan_gib: 0.0,
        anf_gib: 0.0,
        vms_vsan: 0,
        vms_anf: 0,
        collapsed: false,
    }
}

/// ANF for all or the hybrid (not collapsed): hosts, ANF (its planned cost where planned,
/// else the clusters' pay-as-you-go costs), gateways for its private clouds with ANF.
fn with_anf(
    e: &SkuEstate,
    design: Design,
    gateway: &GatewayLine,
    hours: f64,
    limits: &crate::vsan::AvsLimits,
) -> DesignCost {
    let Some(choices) = e.choices.as_ref() else {
        return unknown(design);
    };
    let sizing = design_sizing(e, design, limits);
    let mut d = DesignCost {
        feasible: true,
        hosts: sizing.hosts,
        clusters: sizing.clusters.len() as u32,
        private_clouds: sizing.private_clouds.len() as u32,
        hosts_usd: hosts_cost(sizing.hosts, e.host_usd_per_hour, hours),
        ..unknown(design)
    };
    let mut anf_clusters = Vec::new();
    for (c, choice) in sizing.clusters.iter().zip(choices) {
        let n = choice.data_gib.len();
        let (on_anf, anf_usd) = match (design, &choice.hybrid) {
            (Design::Hybrid, Some(h)) => (h.point.on_anf(n), h.point.anf_usd_per_month),
            _ => ((0..n).collect(), choice.anf.1),
        };
        let anf_gib = choice.data(&on_anf);
        d.anf_usd += anf_usd;
        d.anf_gib += anf_gib;
        d.vsan_gib += choice.data_gib.iter().sum::<f64>() - anf_gib;
        d.vms_anf += on_anf.len();
        d.vms_vsan += n - on_anf.len();
        if !on_anf.is_empty() {
            anf_clusters.push(c.private_cloud.as_str());
        }
    }
    if let Some(p) = e.planned.get(&design) {
        d.anf_usd = p.total.cost_usd_per_month;
    }
    d.anf_usd = round_cents(d.anf_usd);
    anf_clusters.sort_unstable();
    anf_clusters.dedup();
    (d.gateways, d.gateway_usd) = gateways(gateway, anf_clusters.len() as u32);
    d.total = d
        .hosts_usd
        .map(|h| round_cents(h + d.anf_usd + d.gateway_usd));
    d
}

/// The design a SKU is compared on: `forced`, else the cheapest feasible with a total
/// (ties: vSAN alone, then ANF for all), else ANF for all.
pub(super) fn pick(costs: &[DesignCost], forced: Option<Design>) -> Design {
    if let Some(d) = forced {
        return d;
    }
    let mut best: Option<(&DesignCost, f64)> = None;
    for d in costs.iter().filter(|d| d.feasible) {
        let Some(t) = d.total else { continue };
        if best.is_none_or(|(_, b)| t < b - 1e-9) {
            best = Some((d, t));
        }
    }
    best.map_or(Design::Anf, |(d, _)| d.design)
}

/// The estate's hosts and clusters in `design`: ANF for all raises each cluster to the
/// hosts its datastores need, the hybrid sets each cluster's point's hosts, vSAN alone
/// keeps the compute sizing (its growth is in `vsan_alone`); private clouds packed again.
pub(super) fn design_sizing(
    e: &SkuEstate,
    design: Design,
    limits: &crate::vsan::AvsLimits,
) -> EstateSizing {
    let mut sizing = e.sizing.clone();
    let Some(choices) = e.choices.as_ref() else {
        return sizing;
    };
    for (i, choice) in choices.iter().enumerate() {
        match design {
            Design::Anf => sizing.raise_for_storage(i, choice.anf.0),
            Design::Hybrid => {
                if let (Some(h), Some(c)) = (&choice.hybrid, sizing.clusters.get_mut(i))
                    && h.point.hosts > c.hosts
                {
                    c.hosts = h.point.hosts;
                    c.driver = h.driver;
                }
            }
            Design::Vsan => {}
        }
    }
    sizing.assign_private_clouds(limits);
    sizing
}

/// The ANF side of `design`: one demand per cluster with VMs on ANF (its hosts and where
/// they come from), or `None` when the design puts nothing on ANF.
pub(super) fn design_split(
    ctx: &StorageContext,
    e: &SkuEstate,
    design: Design,
) -> Option<ClusterDemands> {
    let choices = e.choices.as_ref()?;
    if e.cost(design).is_some_and(|c| c.collapsed) {
        // The hybrid is vSAN alone: nothing on ANF.
        return None;
    }
    let sizing = design_sizing(e, design, &ctx.vsan_catalog.limits);
    let zero_share = 1.0 / sizing.clusters.len().max(1) as f64;
    let own = ctx.estate.targets_from_perf;
    let mut clusters = Vec::new();
    for (c, choice) in sizing.clusters.iter().zip(choices) {
        let n = choice.data_gib.len();
        let positions = match (design, &choice.hybrid) {
            (Design::Hybrid, Some(h)) => h.point.on_anf(n),
            (Design::Anf, _) => (0..n).collect(),
            _ => Vec::new(),
        };
        if positions.is_empty() {
            continue;
        }
        let indices: Vec<usize> = positions
            .iter()
            .filter_map(|&p| c.vm_indices.get(p).copied())
            .collect();
        let source = super::hosts_source(c);
        clusters.push(cluster_demand(
            ctx.demand,
            (&c.name, &indices, None),
            (zero_share, own),
            (c.hosts, source),
        ));
    }
    if clusters.is_empty() {
        return None;
    }
    Some(ClusterDemands {
        clusters,
        vms_without_cluster: 0,
        vms_without_cluster_capacity_gib: 0.0,
        // The estate plan lists the excluded VMs once, from the estate's demand.
        excluded: Vec::new(),
    })
}

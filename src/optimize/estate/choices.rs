//! Each AVS cluster's designs on one SKU ([`cluster_choices`]), for every way the cluster
//! can be sized ([`Variant`]):
//! - another cluster of the estate's SKU: its VMs' compute hosts, 12,444 GB of raw vSAN
//!   kept for AVS itself (`vsan_cluster_raw_gb`);
//! - its private cloud's first cluster on the estate's SKU, when it can be one: the
//!   management reservation in its compute hosts, 17,287 GB of raw vSAN kept
//!   (`vsan_first_cluster_raw_gb`);
//! - for AV64 in a Gen 1 private cloud, moved to each priced first-cluster SKU as its
//!   private cloud's first cluster ([`crate::sizing::first_cluster_on`]; only when the
//!   estate has two clusters or more: an estate of one cluster moved is the first-cluster
//!   SKU's own estate).
//!
//! Each variant is worked out on its own SKU (raw vSAN capacity, host price of the plan's
//! region, performance system): its hosts on vSAN alone
//! ([`crate::sizing::cluster_on_vsan`]), ANF for all at the fewest hosts from its compute
//! hosts whose datastores meet its targets with a host down ([`anf_for_all`]), and the
//! hybrid's cheapest point ([`cheapest`]), each ANF side priced as a share of a shared
//! pool per GiB and kept with its pool and its cost with a pool of its own
//! ([`AnfPool`], for the design's pool sizing). The designs ([`super::designs`]) then give
//! each cluster the variant its place in the estate calls for.

use super::StorageContext;
use super::hybrid::{AnfOracle, Cluster, Point, SetFits, Units, anf_for_all, cheapest, feasible};
use super::oracle::{AnfPool, ClusterOracle};
use std::collections::BTreeMap;

use crate::optimize::OptimizeError;
use crate::plan::Design;
use crate::sizing::EstateSizing;
use crate::sizing::{
    AvsCluster, Driver, Raise, UNPRICED_HOST_CENTS, check_one_cluster_holds, cluster_on_vsan,
    first_cluster_on,
};
use crate::vsan::{HostSku, VsanError, VsanOptions};

/// The hybrid's point of one cluster variant, with true sizes.
#[derive(Debug, Clone)]
pub(super) struct HybridChoice {
    /// Hosts, the VMs on vSAN (positions in the cluster's VMs), the others' ANF cost.
    pub(super) point: Point,
    /// Why its hosts: the compute driver, [`Driver::Vsan`] when raised to keep data on
    /// vSAN, [`Driver::Storage`] when raised for its datastores' targets.
    pub(super) driver: Driver,
    /// What those hosts' vSAN holds, GiB.
    pub(super) vsan_usable_gib: f64,
    /// The pool of its VMs on ANF (`None` when it keeps every VM on vSAN).
    pub(super) pool: Option<AnfPool>,
    /// What its storage delivers: its vSAN's envelope beside its ANF traffic, and its ANF
    /// datastores' predictions.
    pub(super) predicted: Delivers,
}

/// ANF for all in one cluster variant: the fewest hosts whose datastores meet its targets,
/// their ANF cost, USD per month (pay as you go, a share of a shared pool priced per GiB
/// of quota), and its pool.
#[derive(Debug, Clone, Copy)]
pub(super) struct AnfForAll {
    pub(super) hosts: u32,
    pub(super) usd_per_month: f64,
    pub(super) pool: AnfPool,
}

/// Why a cluster's datastores cannot meet its targets (the optimizer's `Infeasible` or
/// `NoLayout`), kept to be given back when no design can be built.
#[derive(Debug, Clone)]
pub(super) struct Refusal(std::sync::Arc<OptimizeError>);

impl Refusal {
    /// The error again.
    pub(super) fn error(&self) -> OptimizeError {
        self.0
            .infeasibility()
            .unwrap_or_else(|| OptimizeError::Solver(self.0.to_string()))
    }
}

/// What a design's storage delivers, vSAN and ANF apart: small-block IOPS and large-block
/// MiB/s each.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Delivers {
    /// Its data on vSAN: the envelope at the checked hosts, beside the ANF traffic.
    pub(super) vsan: (f64, f64),
    /// Its ANF datastores: their layouts' predictions with their pools' QoS.
    pub(super) anf: (f64, f64),
}

impl Delivers {
    /// Both added.
    pub(super) fn total(&self) -> (f64, f64) {
        (self.vsan.0 + self.anf.0, self.vsan.1 + self.anf.1)
    }

    /// `other` added to it.
    pub(super) fn add(&mut self, other: &Delivers) {
        self.vsan.0 += other.vsan.0;
        self.vsan.1 += other.vsan.1;
        self.anf.0 += other.anf.0;
        self.anf.1 += other.anf.1;
    }
}

/// One way a cluster can be sized, and its designs there.
#[derive(Debug, Clone)]
pub(super) struct Variant {
    /// Its host SKU (the estate's, or the first-cluster SKU it is moved to).
    pub(super) sku: String,
    /// Its SKU's performance system (`perf_system` in `data/avs_hosts.csv`).
    pub(super) perf_system: String,
    /// Whether it is its private cloud's first cluster (the management reservation).
    pub(super) first: bool,
    /// The cluster re-sized on a first-cluster SKU (`None`: on the estate's SKU).
    pub(super) moved: Option<AvsCluster>,
    /// Its compute hosts (vCPU, memory, the reservation when first, HA, the AVS minimum).
    pub(super) compute_hosts: u32,
    /// Raw vSAN capacity AVS uses itself in it, TiB.
    pub(super) reserved_raw_tib: f64,
    /// One host, USD per hour, where the plan's region prices its SKU.
    pub(super) usd_per_host_hour: Option<f64>,
    /// Its hosts on vSAN alone (`None`: not compared, or a VM's data fits no one cluster).
    pub(super) vsan_hosts: Option<u32>,
    /// What those hosts' vSAN delivers: small-block IOPS and large-block MiB/s.
    pub(super) vsan_predicted: (f64, f64),
    /// ANF for all (`None` when its datastores cannot meet its targets at any host count,
    /// `anf_refused` saying why).
    pub(super) anf: Option<AnfForAll>,
    /// Why ANF for all cannot be built on it.
    pub(super) anf_refused: Option<Refusal>,
    /// The hybrid's point (`None`: not searched, without a host price or vSAN settings).
    pub(super) hybrid: Option<HybridChoice>,
}

impl Variant {
    /// What its storage delivers in `design`: vSAN alone its hosts' vSAN, ANF for all its
    /// datastores, the hybrid both; `None` where not worked out.
    pub(super) fn predicted(&self, design: Design) -> Option<Delivers> {
        match design {
            Design::Vsan => self.vsan_hosts.map(|_| Delivers {
                vsan: self.vsan_predicted,
                anf: (0.0, 0.0),
            }),
            Design::Anf => self.anf.map(|a| Delivers {
                vsan: (0.0, 0.0),
                anf: a.pool.predicted,
            }),
            Design::Hybrid => self.hybrid.as_ref().map(|h| h.predicted),
        }
    }

    /// Its hosts and ANF cost (USD per month) in `design`; `None` where not worked out.
    pub(super) fn point(&self, design: Design) -> Option<(u32, f64)> {
        match design {
            Design::Vsan => self.vsan_hosts.map(|h| (h, 0.0)),
            Design::Anf => self.anf.map(|a| (a.hosts, a.usd_per_month)),
            Design::Hybrid => self
                .hybrid
                .as_ref()
                .map(|h| (h.point.hosts, h.point.anf_usd_per_month)),
        }
    }

    /// Its hosts + ANF in `design`, USD per month (x `hours`); `None` without its host
    /// price or the design's figures.
    pub(super) fn usd(&self, design: Design, hours: f64) -> Option<f64> {
        let (hosts, anf) = self.point(design)?;
        Some(f64::from(hosts) * self.usd_per_host_hour? * hours + anf)
    }

    /// What it costs more than `other` in `design`, cents. Without a host price each host
    /// the design gives it counts [`UNPRICED_HOST_CENTS`], so the fewest hosts rank first
    /// and the ANF side breaks ties (an unpriced SKU's row then shows the hosts a priced
    /// one would).
    pub(super) fn extra_cents(&self, other: &Variant, design: Design, hours: f64) -> i64 {
        let cents = |v: &Variant| {
            v.point(design).map_or(0.0, |(hosts, anf)| {
                let host_cents = match v.usd_per_host_hour {
                    Some(usd) => usd * hours * 100.0,
                    None => UNPRICED_HOST_CENTS as f64,
                };
                f64::from(hosts) * host_cents + anf * 100.0
            })
        };
        (cents(self) - cents(other)).round() as i64
    }

    /// The hosts `design` gives it beyond compute, and why: ANF for all's hosts for its
    /// datastores' targets, the hybrid point's hosts; vSAN alone keeps the compute hosts
    /// (its growth is in [`crate::sizing::VsanAlone`]).
    pub(super) fn raise(&self, design: Design) -> Raise {
        match (design, &self.hybrid) {
            (Design::Anf, _) => self.anf.map_or_else(Raise::default, |a| Raise {
                hosts: a.hosts,
                driver: Driver::Storage,
            }),
            (Design::Hybrid, Some(h)) => Raise {
                hosts: h.point.hosts,
                driver: h.driver,
            },
            _ => Raise::default(),
        }
    }

    /// The pool of its VMs on ANF in `design` (`None` when it puts none there).
    pub(super) fn anf_pool(&self, design: Design) -> Option<AnfPool> {
        match (design, &self.hybrid) {
            (Design::Hybrid, Some(h)) => h.pool,
            (Design::Anf, _) => self.anf.map(|a| a.pool),
            _ => None,
        }
    }

    /// The VMs it puts on ANF in `design` (positions in the cluster's `n` VMs) and their
    /// ANF cost, USD per month.
    pub(super) fn on_anf(&self, design: Design, n: usize) -> (Vec<usize>, f64) {
        match (design, &self.hybrid) {
            (Design::Hybrid, Some(h)) => (h.point.on_anf(n), h.point.anf_usd_per_month),
            (Design::Anf, _) => match self.anf {
                Some(a) => ((0..n).collect(), a.usd_per_month),
                None => (Vec::new(), 0.0),
            },
            _ => (Vec::new(), 0.0),
        }
    }
}

/// One AVS cluster's designs: its VMs' data and its variants (another cluster of the
/// estate's SKU first, then its private cloud's first cluster where it can be one, then
/// moved to each first-cluster SKU).
#[derive(Debug, Clone)]
pub(super) struct ClusterChoice {
    /// Each VM's data, GiB (after growth and snapshot reserve), in the cluster's VM order.
    pub(super) data_gib: Vec<f64>,
    pub(super) variants: Vec<Variant>,
}

impl ClusterChoice {
    /// The data of the VMs at `positions`, GiB.
    pub(super) fn data(&self, positions: &[usize]) -> f64 {
        positions
            .iter()
            .filter_map(|&p| self.data_gib.get(p))
            .fold(0.0, |a, b| a + b)
    }

    /// Another cluster of the estate's SKU.
    pub(super) fn other(&self) -> Option<&Variant> {
        self.variants.first()
    }

    /// Its private cloud's first cluster on the estate's SKU, where it can be one.
    pub(super) fn first(&self) -> Option<&Variant> {
        self.variants.iter().find(|v| v.first && v.moved.is_none())
    }

    /// Moved to a first-cluster SKU.
    pub(super) fn moved(&self) -> impl Iterator<Item = &Variant> {
        self.variants.iter().filter(|v| v.moved.is_some())
    }

    /// The variant a design's cluster `c` is: its SKU, first (holding the management
    /// reservation) or not.
    pub(super) fn variant_for(&self, c: &AvsCluster) -> Option<&Variant> {
        let first = c.management.is_some();
        self.variants
            .iter()
            .find(|v| v.sku == c.sku && v.first == first)
    }
}

/// Every cluster's designs on one SKU: one [`ClusterChoice`] per cluster with VMs, in the
/// sizing's order.
///
/// # Errors
/// The error of a cluster whose datastores cannot meet its targets with every VM on ANF
/// at any host count on the estate's SKU (the SKU is then infeasible; a variant moved to
/// another SKU is only left out), or any other optimizer or vSAN error.
pub(super) fn cluster_choices(
    ctx: &StorageContext,
    (sizing, prices): (&EstateSizing, &BTreeMap<String, f64>),
) -> Result<Vec<ClusterChoice>, OptimizeError> {
    let factor = super::data_factor(ctx.demand);
    let own: Vec<&AvsCluster> = sizing
        .clusters
        .iter()
        .filter(|c| !c.management_only)
        .collect();
    let host = crate::sizing::find_sku(ctx.vsan_catalog, &sizing.sku)?;
    // An estate of one cluster is never moved: that is the first-cluster SKU's own estate.
    let seeds: Vec<&HostSku> = if own.len() < 2 {
        Vec::new()
    } else {
        super::seed::first_skus(host, ctx.vsan_catalog)
            .into_iter()
            .filter(|h| prices.contains_key(&h.sku))
            .collect()
    };
    let zero_share = 1.0 / own.len().max(1) as f64;
    let mut out = Vec::with_capacity(own.len());
    for c in own {
        let data_gib: Vec<f64> = c
            .vm_indices
            .iter()
            .map(|&v| ctx.demand.placed.get(v).map_or(0.0, |x| x.capacity_gib) * factor)
            .collect();
        let on = On {
            ctx,
            prices,
            name: &c.name,
            vms: &c.vm_indices,
            data_gib: &data_gib,
            zero_share,
        };
        let mut variants = Vec::new();
        variants.extend(on.variant(host, (false, c.compute_hosts_as_other()), None)?);
        if let Some(hosts) = c.compute_hosts_as_first() {
            variants.extend(on.variant(host, (true, hosts), None)?);
        }
        for h in &seeds {
            let o = &ctx.estate.sizing;
            let limits = &ctx.vsan_catalog.limits;
            let Some(m) = first_cluster_on(ctx.demand, c, h, limits, o) else {
                continue;
            };
            let Some(hosts) = m.compute_hosts_as_first() else {
                continue;
            };
            variants.extend(on.variant(h, (true, hosts), Some(m))?);
        }
        out.push(ClusterChoice { data_gib, variants });
    }
    Ok(out)
}

/// A cluster's hosts on vSAN alone and what their vSAN delivers (small-block IOPS,
/// large-block MiB/s).
type VsanAloneHosts = (u32, (f64, f64));

/// One cluster being worked out.
struct On<'a, 'b> {
    ctx: &'a StorageContext<'b>,
    prices: &'a BTreeMap<String, f64>,
    name: &'a str,
    vms: &'a [usize],
    data_gib: &'a [f64],
    zero_share: f64,
}

impl On<'_, '_> {
    /// Its hosts on vSAN alone on `host`'s SKU from `compute` hosts keeping `reserve` TiB
    /// raw (holding its data and carrying its load), with what their vSAN delivers; `None`
    /// when a VM's data fits no one cluster, or (a moved cluster) no vSAN cluster holds
    /// the data.
    ///
    /// # Errors
    /// Other vSAN errors.
    fn on_vsan_alone(
        &self,
        host: &HostSku,
        (compute, reserve): (u32, f64),
        o: &VsanOptions,
        moved: bool,
    ) -> Result<Option<VsanAloneHosts>, OptimizeError> {
        let ctx = self.ctx;
        for (p, need) in ctx.targets.whole_vms(ctx.demand, (self.vms, self.data_gib)) {
            let gib = self.data_gib.get(p).copied().unwrap_or(0.0);
            let vm = ("", "", gib, Some(need));
            match check_one_cluster_holds(ctx.vsan_catalog, (&host.sku, reserve), vm, o) {
                Ok(()) => {}
                Err(VsanError::VmTooLarge(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            }
        }
        let data: f64 = self.data_gib.iter().sum();
        let need = ctx.targets.need(ctx.demand, (self.vms, self.data_gib));
        let on = (data, Some(need));
        match cluster_on_vsan(ctx.vsan_catalog, &host.sku, (compute, reserve), on, o) {
            Ok(r) => {
                let predicted = (
                    r.predicted_iops.unwrap_or(0.0),
                    r.predicted_throughput_mibps.unwrap_or(0.0),
                );
                Ok(Some((r.hosts_needed, predicted)))
            }
            Err(_) if moved => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// The cluster on hosts of `host`, first in its private cloud or not, from `compute`
    /// hosts; `None` for a moved cluster whose datastores cannot meet its targets there.
    fn variant(
        &self,
        host: &HostSku,
        (first, compute): (bool, u32),
        moved: Option<AvsCluster>,
    ) -> Result<Option<Variant>, OptimizeError> {
        let ctx = self.ctx;
        let (min, max) = (ctx.catalog.limits.min_hosts, ctx.catalog.limits.max_hosts);
        let floor = compute.clamp(min, max);
        let reserve = ctx.vsan_catalog.limits.reserved_raw_tib(first);
        let all: Vec<usize> = (0..self.vms.len()).collect();
        let system = host.perf_system.as_str();
        let mut exact =
            ClusterOracle::new(*ctx, (self.name, self.vms, system), None, self.zero_share);
        // ANF for all, or why its datastores cannot meet the cluster's targets (the cluster
        // may still be built on vSAN, or the hybrid).
        let (anf, anf_refused) = match anf_for_all(&mut exact, &all, (floor, max)) {
            Ok((hosts, usd)) => {
                let pool = exact.pool(&all, hosts)?;
                let a = AnfForAll {
                    hosts,
                    usd_per_month: usd,
                    pool,
                };
                (Some(a), None)
            }
            Err(OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_))
                if moved.is_some() =>
            {
                return Ok(None);
            }
            Err(err @ (OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_))) => {
                (None, Some(Refusal(std::sync::Arc::new(err))))
            }
            Err(err) => return Err(err),
        };
        let vsan_alone = match &ctx.estate.vsan {
            Some(o) => self.on_vsan_alone(host, (floor, reserve), o, moved.is_some())?,
            None => None,
        };
        let vsan_hosts = vsan_alone.map(|(h, _)| h);
        let usd_per_host_hour = self.prices.get(&host.sku).copied();
        let mut v = Variant {
            sku: host.sku.clone(),
            perf_system: host.perf_system.clone(),
            first,
            moved,
            compute_hosts: floor,
            reserved_raw_tib: reserve,
            usd_per_host_hour,
            vsan_hosts,
            vsan_predicted: vsan_alone.map_or((0.0, 0.0), |(_, p)| p),
            anf,
            anf_refused,
            hybrid: None,
        };
        // Without a host price the hybrid is searched only when forced, on the compute
        // hosts (no host count can be weighed against ANF).
        let forced = ctx.estate.design == Some(Design::Hybrid);
        let price = match usd_per_host_hour {
            Some(p) => Some((p, max)),
            None if forced => Some((0.0, floor)),
            None => None,
        };
        if let (Some(o), Some((price, last))) = (&ctx.estate.vsan, price) {
            let o = VsanOptions {
                sku: host.sku.clone(),
                ..o.clone()
            };
            let search = Search {
                ctx,
                vsan: &o,
                usd_per_host_month: price * ctx.catalog.limits.hours_per_month,
                hosts: (floor, last),
                hosts_vsan: vsan_hosts,
                reserve,
            };
            v.hybrid = search.run(self, system, anf, &mut exact)?;
        }
        Ok(Some(v))
    }
}

/// One cluster variant's hybrid search settings.
struct Search<'a, 'b> {
    ctx: &'a StorageContext<'b>,
    vsan: &'a VsanOptions,
    usd_per_host_month: f64,
    /// Compute hosts and the last host count searched.
    hosts: (u32, u32),
    /// The variant's hosts on vSAN alone, when worked out.
    hosts_vsan: Option<u32>,
    /// Raw vSAN capacity AVS keeps in it, TiB.
    reserve: f64,
}

impl Search<'_, '_> {
    /// What `hosts` hosts of the cluster hold on vSAN, GiB (0 below the policy's minimum):
    /// full to the slack, and within the headroom ([`crate::vsan::VsanCapacity`]).
    fn usable(&self, hosts: u32) -> Result<(f64, f64), OptimizeError> {
        let cap = self
            .ctx
            .vsan_catalog
            .capacity(self.vsan, hosts, self.reserve)?;
        Ok(cap.map_or((0.0, 0.0), |c| (c.usable_data_gib, c.fill_limit_gib)))
    }

    /// The cheapest of the search's point (re-costed at the true sizes), ANF for all
    /// (`anf`, its pool), and every VM on vSAN at vSAN alone's hosts when they are within
    /// one cluster.
    fn run(
        &self,
        on: &On,
        system: &str,
        anf: Option<AnfForAll>,
        exact: &mut ClusterOracle,
    ) -> Result<Option<HybridChoice>, OptimizeError> {
        let (first, max) = self.hosts;
        let targets = &self.ctx.targets;
        let at = (self.ctx.vsan_catalog, self.vsan);
        let cluster_gib: f64 = on.data_gib.iter().sum();
        // What each host count keeps on vSAN: within its capacity's headroom and, with
        // capacity-share targets, what its vSAN carries beside its ANF traffic.
        let usable_gib = (first..=max)
            .map(|h| {
                let (_, fill) = self.usable(h)?;
                Ok(fill.min(targets.most_data_gib(at, h, cluster_gib)?))
            })
            .collect::<Result<Vec<f64>, OptimizeError>>()?;
        let widest = usable_gib.iter().copied().fold(0.0, f64::max);
        // With per-VM targets the load depends on which VMs are on vSAN: each candidate set
        // is checked.
        let demand = self.ctx.demand;
        let fits = |h: u32, on_vsan: &[usize]| {
            let load = targets.load(demand, (on.vms, on.data_gib), on_vsan);
            targets.carries(at, h, &load).unwrap_or(false)
        };
        let fits: Option<&SetFits<'_>> = if targets.per_vm() { Some(&fits) } else { None };
        let units = Units::of(on.data_gib, widest);
        let mut rounded = ClusterOracle::new(
            *self.ctx,
            (on.name, on.vms, system),
            Some(&units),
            on.zero_share,
        );
        let cluster = Cluster {
            units: &units,
            first_hosts: first,
            usable_gib: &usable_gib,
            usd_per_host_month: self.usd_per_host_month,
            fits,
        };
        let n = on.vms.len();
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
        if let Some(a) = anf {
            candidates.push(Point {
                hosts: a.hosts,
                on_vsan: Vec::new(),
                anf_usd_per_month: a.usd_per_month,
            });
        }
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
        let (vsan_usable_gib, _) = self.usable(best.hosts)?;
        let on_anf = best.on_anf(n);
        let pool = if on_anf.is_empty() {
            None
        } else if let Some(a) = anf.filter(|a| on_anf.len() == n && best.hosts == a.hosts) {
            Some(a.pool)
        } else {
            Some(exact.pool(&on_anf, best.hosts)?)
        };
        let vsan = if best.on_vsan.is_empty() {
            (0.0, 0.0)
        } else {
            let load = targets.load(demand, (on.vms, on.data_gib), &best.on_vsan);
            targets.delivers(at, best.hosts, &load)?
        };
        Ok(Some(HybridChoice {
            point: best,
            driver,
            vsan_usable_gib,
            pool,
            predicted: Delivers {
                vsan,
                anf: pool.map_or((0.0, 0.0), |p| p.predicted),
            },
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

//! The hybrid on one cluster variant: the cheapest of the hybrid search's point
//! ([`crate::optimize::estate::hybrid::cheapest`], re-costed at the true sizes), ANF for
//! all and every VM on vSAN at vSAN alone's hosts when they are within one cluster.
//! Searched from the compute hosts up to the largest cluster when the SKU has a host
//! price; without one only when the hybrid is forced, on the compute hosts (no host count
//! can be weighed against ANF); not without vSAN settings. Searched and no point found:
//! refused, no split of the cluster meeting its targets.

use super::{At, Delivers, DesignPoint, DesignSearch, Points, Refusal, Worked};
use crate::optimize::OptimizeError;
use crate::optimize::estate::hybrid::{
    AnfOracle, Cluster, Point, SetFits, Units, cheapest, feasible,
};
use crate::optimize::estate::oracle::ClusterOracle;
use crate::plan::Design;
use crate::sizing::{Driver, Raise};
use crate::vsan::VsanOptions;

/// The hybrid.
pub(super) struct Hybrid;

impl DesignSearch for Hybrid {
    fn design(&self) -> Design {
        Design::Hybrid
    }

    fn work_out(
        &self,
        at: &At,
        exact: &mut ClusterOracle,
        before: &Points,
    ) -> Result<Worked, OptimizeError> {
        let ctx = at.ctx;
        let (floor, max) = (at.compute_hosts, ctx.catalog.limits.max_hosts);
        let forced = ctx.estate.design == Some(Design::Hybrid);
        let price = match at.usd_per_host_hour {
            Some(p) => (p, max),
            None if forced => (0.0, floor),
            None => return Ok(Worked::Skipped),
        };
        let Some(o) = &at.vsan else {
            return Ok(Worked::Skipped);
        };
        let search = Search {
            at,
            vsan: o,
            usd_per_host_month: price.0 * ctx.catalog.limits.hours_per_month,
            hosts: (floor, price.1),
        };
        Ok(match search.run(before, exact)? {
            Some(p) => Worked::Built(p),
            None => Worked::Refused(search.no_split()),
        })
    }
}

/// The rounded oracle with some VMs pinned to ANF: the search's units make each of them
/// larger than any host count's vSAN holds (`extra` units more in all), and the lower
/// bound is asked at the data they truly have.
struct Pinned<'a> {
    inner: ClusterOracle<'a>,
    extra: u64,
}

impl<'a> Pinned<'a> {
    /// The search's units (`units` with each VM of `hot` past the cap of `widest_gib`) and
    /// the oracle.
    fn new(
        units: &Units,
        hot: &[usize],
        widest_gib: f64,
        inner: ClusterOracle<'a>,
    ) -> (Units, Pinned<'a>) {
        let mut search = units.clone();
        let never = units.cap(widest_gib).saturating_add(1);
        let mut extra = 0u64;
        for &p in hot {
            if let Some(w) = search.w.get_mut(p)
                && *w < never
            {
                extra += never - *w;
                *w = never;
            }
        }
        (search, Pinned { inner, extra })
    }
}

impl AnfOracle for Pinned<'_> {
    fn cost(&mut self, anf: &[usize], hosts: u32) -> Result<f64, OptimizeError> {
        self.inner.cost(anf, hosts)
    }

    fn lower_bound(&mut self, anf_units: u64, hosts: u32) -> Result<f64, OptimizeError> {
        self.inner
            .lower_bound(anf_units.saturating_sub(self.extra), hosts)
    }

    fn saturation(&mut self, hosts: u32) -> Result<Option<usize>, OptimizeError> {
        self.inner.saturation(hosts)
    }

    fn monotone(&self) -> bool {
        self.inner.monotone()
    }

    fn counts_matter(&self) -> bool {
        self.inner.counts_matter()
    }
}

/// One cluster variant's hybrid search settings.
struct Search<'a, 'b, 'c> {
    at: &'a At<'b, 'c>,
    vsan: &'a VsanOptions,
    usd_per_host_month: f64,
    /// Compute hosts and the last host count searched.
    hosts: (u32, u32),
}

impl Search<'_, '_, '_> {
    /// Why no point was found: no split of the cluster's VMs between its hosts' vSAN and
    /// ANF datastores meets its share of the targets at any host count searched (what its
    /// vSAN does not carry, its ANF datastores cannot).
    fn no_split(&self) -> Refusal {
        let at = self.at;
        let need = at.ctx.targets.need(at.ctx.demand, (at.vms, at.data_gib));
        let g = crate::numbers::group_thousands;
        let hosts = match self.hosts {
            (first, last) if first >= last => format!("{first} hosts"),
            (first, last) => format!("{first} to {last} hosts"),
        };
        Refusal::new(OptimizeError::NoLayout(format!(
            "in cluster '{}' no split of its VMs between the hosts' vSAN and ANF datastores \
             meets its share of them ({} IOPS and {} MiB/s) at {hosts}: what the vSAN does \
             not carry, the ANF datastores cannot",
            crate::numbers::clip_name(at.name),
            g(need.iops, 0),
            g(need.throughput_mibps, 1)
        )))
    }

    /// What `hosts` hosts of the cluster hold on vSAN, GiB, and keep within the headroom.
    fn usable(&self, hosts: u32) -> Result<(f64, f64), OptimizeError> {
        self.at.vsan_capacity_gib(hosts)
    }

    /// The cheapest of the search's point, ANF for all and vSAN alone (from `before`).
    fn run(
        &self,
        before: &Points,
        exact: &mut ClusterOracle,
    ) -> Result<Option<DesignPoint>, OptimizeError> {
        let at = self.at;
        let (first, max) = self.hosts;
        let targets = &at.ctx.targets;
        let on_vsan_at = (at.ctx.vsan_catalog, self.vsan);
        let cluster_gib: f64 = at.data_gib.iter().sum();
        // What each host count keeps on vSAN: within its capacity's headroom and, with
        // capacity-share targets, what its vSAN carries beside its ANF traffic.
        let usable_gib = (first..=max)
            .map(|h| {
                let (_, fill) = self.usable(h)?;
                Ok(fill.min(targets.most_data_gib(on_vsan_at, h, cluster_gib)?))
            })
            .collect::<Result<Vec<f64>, OptimizeError>>()?;
        let widest = usable_gib.iter().copied().fold(0.0, f64::max);
        // With per-VM targets the load depends on which VMs are on vSAN: each candidate set
        // is checked.
        let demand = at.ctx.demand;
        let fits = |h: u32, on_vsan: &[usize]| {
            let load = targets.load(demand, (at.vms, at.data_gib), on_vsan);
            targets.carries(on_vsan_at, h, &load).unwrap_or(false)
        };
        let fits: Option<&SetFits<'_>> = if targets.per_vm() { Some(&fits) } else { None };
        let units = Units::of(at.data_gib, widest);
        let rounded = ClusterOracle::new(
            *at.ctx,
            (at.name, at.vms, &at.host.perf_system),
            Some(&units),
            at.zero_share,
        );
        // The VMs busier than one VM can be on vSAN stay on ANF: the search sees them
        // larger than any host count's vSAN holds.
        let hot = targets.hot_vms(on_vsan_at, demand, (at.vms, at.data_gib))?;
        let (search_units, mut rounded) = Pinned::new(&units, &hot, widest, rounded);
        let cluster = Cluster {
            units: &search_units,
            first_hosts: first,
            usable_gib: &usable_gib,
            usd_per_host_month: self.usd_per_host_month,
            fits,
        };
        let n = at.vms.len();
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
        let anf_for_all = before.get(Design::Anf);
        if let Some(a) = anf_for_all {
            candidates.push(a.point.clone());
        }
        if let Some(h) = before
            .get(Design::Vsan)
            .map(|v| v.point.hosts)
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
        } else if let Some(a) =
            anf_for_all.filter(|a| on_anf.len() == n && best.hosts == a.point.hosts)
        {
            a.pool
        } else {
            Some(exact.pool(&on_anf, best.hosts)?)
        };
        let (vsan, vsan_target) = if best.on_vsan.is_empty() {
            ((0.0, 0.0), (0.0, 0.0))
        } else {
            let load = targets.load(demand, (at.vms, at.data_gib), &best.on_vsan);
            let delivers = targets.delivers(on_vsan_at, best.hosts, &load)?;
            (delivers, (load.iops, load.throughput_mibps))
        };
        Ok(Some(DesignPoint {
            raise: Raise {
                hosts: best.hosts,
                driver,
            },
            point: best,
            vsan_usable_gib,
            pool,
            predicted: Delivers {
                vsan,
                anf: pool.map_or((0.0, 0.0), |p| p.predicted),
                vsan_target,
            },
        }))
    }

    /// [`Driver::Storage`] when the point's ANF side cannot meet its targets with a host
    /// fewer; else, where it keeps data on vSAN, [`Driver::VsanPerformance`] when a host
    /// fewer would hold that data (within the headroom) but not carry its share of the
    /// targets, [`Driver::Vsan`] when raised otherwise (to hold the data, or for less ANF);
    /// [`Driver::Vcpu`] as a placeholder for "the compute driver" when not raised.
    fn driver(
        &self,
        p: &Point,
        first: u32,
        exact: &mut ClusterOracle,
    ) -> Result<Driver, OptimizeError> {
        if p.hosts <= first {
            return Ok(Driver::Vcpu);
        }
        let fewer = p.hosts - 1;
        let on_anf = p.on_anf(exact.vm_count());
        if !on_anf.is_empty() && feasible(exact.cost(&on_anf, fewer))?.is_none() {
            return Ok(Driver::Storage);
        }
        if p.on_vsan.is_empty() {
            return Ok(Driver::Vsan);
        }
        let at = self.at;
        let data: f64 = p.on_vsan.iter().filter_map(|&i| at.data_gib.get(i)).sum();
        let (_, fill) = self.usable(fewer)?;
        if data > fill * (1.0 + 1e-9) {
            return Ok(Driver::Vsan);
        }
        let targets = &at.ctx.targets;
        let load = targets.load(at.ctx.demand, (at.vms, at.data_gib), &p.on_vsan);
        let carried = targets.carries((at.ctx.vsan_catalog, self.vsan), fewer, &load)?;
        Ok(if carried {
            Driver::Vsan
        } else {
            Driver::VsanPerformance
        })
    }
}

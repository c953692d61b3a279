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
//! region, performance system): every design answers there in one shape
//! ([`super::point`]: vSAN alone, ANF for all, the hybrid's cheapest point, each ANF side
//! priced as a share of a shared pool per GiB and kept with its pool and its cost with a
//! pool of its own, [`AnfPool`], for the design's pool sizing). The designs
//! ([`super::designs`]) then give each cluster the variant its place in the estate calls
//! for.

use super::StorageContext;
use super::oracle::{AnfPool, ClusterOracle};
use super::point::{At, Delivers, DesignPoint, Points, Refusal};
use std::collections::BTreeMap;

use crate::optimize::OptimizeError;
use crate::plan::Design;
use crate::sizing::EstateSizing;
use crate::sizing::{AvsCluster, Raise, UNPRICED_HOST_CENTS, first_cluster_on};
use crate::vsan::{HostSku, VsanOptions};

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
    /// Each design on it ([`super::point`]), in one shape.
    pub(super) designs: Points,
}

impl Variant {
    /// The design's point on it; `None` where not worked out or refused.
    pub(super) fn point(&self, design: Design) -> Option<&DesignPoint> {
        self.designs.get(design)
    }

    /// Why the design cannot be built on it (ANF for all whose datastores cannot meet the
    /// targets at any host count).
    pub(super) fn refused(&self, design: Design) -> Option<&Refusal> {
        self.designs.refused(design)
    }

    /// What its storage delivers in `design`; `None` where not worked out.
    pub(super) fn predicted(&self, design: Design) -> Option<Delivers> {
        self.point(design).map(|p| p.predicted)
    }

    /// Its hosts + ANF in `design`, USD per month (x `hours`); `None` without its host
    /// price or the design's figures.
    pub(super) fn usd(&self, design: Design, hours: f64) -> Option<f64> {
        let p = &self.point(design)?.point;
        Some(f64::from(p.hosts) * self.usd_per_host_hour? * hours + p.anf_usd_per_month)
    }

    /// What it costs more than `other` in `design`, cents. Without a host price each host
    /// the design gives it counts [`UNPRICED_HOST_CENTS`], so the fewest hosts rank first
    /// and the ANF side breaks ties (an unpriced SKU's row then shows the hosts a priced
    /// one would).
    pub(super) fn extra_cents(&self, other: &Variant, design: Design, hours: f64) -> i64 {
        let cents = |v: &Variant| {
            v.point(design).map_or(0.0, |d| {
                let host_cents = match v.usd_per_host_hour {
                    Some(usd) => usd * hours * 100.0,
                    None => UNPRICED_HOST_CENTS as f64,
                };
                f64::from(d.point.hosts) * host_cents + d.point.anf_usd_per_month * 100.0
            })
        };
        (cents(self) - cents(other)).round() as i64
    }

    /// The hosts `design` gives it beyond compute, and why (none where not worked out).
    pub(super) fn raise(&self, design: Design) -> Raise {
        self.point(design).map_or_else(Raise::default, |p| p.raise)
    }

    /// The pool of its VMs on ANF in `design` (`None` when it puts none there).
    pub(super) fn anf_pool(&self, design: Design) -> Option<AnfPool> {
        self.point(design).and_then(|p| p.pool)
    }

    /// The VMs it puts on ANF in `design` (positions in the cluster's `n` VMs) and their
    /// ANF cost, USD per month.
    pub(super) fn on_anf(&self, design: Design, n: usize) -> (Vec<usize>, f64) {
        self.point(design).map_or((Vec::new(), 0.0), |p| {
            (p.on_anf(n), p.point.anf_usd_per_month)
        })
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
        ctx.vsan_catalog
            .first_cluster_hosts(host)
            .into_iter()
            .filter(|h| prices.contains_key(&h.sku))
            .collect()
    };
    let zero_share = 1.0 / own.len().max(1) as f64;
    let mut out = Vec::with_capacity(own.len());
    for c in own {
        ctx.options.stop.check()?;
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
    /// The cluster on hosts of `host`, first in its private cloud or not, from `compute`
    /// hosts, with each design worked out there ([`super::point::work_out`]); `None` for a
    /// moved cluster whose datastores cannot meet its targets there.
    ///
    /// # Errors
    /// Optimizer and vSAN errors other than a design refused.
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
        let usd_per_host_hour = self.prices.get(&host.sku).copied();
        let at = At {
            ctx,
            name: self.name,
            vms: self.vms,
            data_gib: self.data_gib,
            zero_share: self.zero_share,
            host,
            compute_hosts: floor,
            reserved_raw_tib: reserve,
            usd_per_host_hour,
            moved: moved.is_some(),
            vsan: ctx.estate.vsan.as_ref().map(|o| VsanOptions {
                sku: host.sku.clone(),
                ..o.clone()
            }),
        };
        let system = host.perf_system.as_str();
        let mut exact =
            ClusterOracle::new(*ctx, (self.name, self.vms, system), None, self.zero_share);
        let Some(designs) = super::point::work_out(&at, &mut exact)? else {
            return Ok(None);
        };
        Ok(Some(Variant {
            sku: host.sku.clone(),
            perf_system: host.perf_system.clone(),
            first,
            moved,
            compute_hosts: floor,
            reserved_raw_tib: reserve,
            usd_per_host_hour,
            designs,
        }))
    }
}

//! The ANF side of one AVS cluster as the designs see it ([`ClusterOracle`]): the cost of
//! a set of its VMs on ANF datastores at a host count, with the existing optimizer
//! ([`cluster_cost`]) on their demand ([`cluster_demand`]: their capacity share of the
//! estate's targets, or their own per-VM sums with `perf`) and on the performance system
//! of the cluster's own host SKU (`anf-avs-av64` for AV64, `anf-avs` for a first cluster
//! of AV36P beside it). The one place where the designs (ANF for all,
//! [`super::hybrid::anf_for_all`], and the hybrid search, [`super::hybrid`]) meet the ANF
//! plan.
//!
//! In an estate a cluster's Standard, Premium and Ultra datastores are a share of a pool
//! shared with the other clusters' (`OptimizeOptions::shared_pool`): the oracle prices that
//! share per whole GiB of quota, a Flexible pool as the cluster's own in whole TiB. The
//! shared pools' rounding up to whole TiB depends on every cluster's share, so it is added
//! after the search, to each design's ANF split ([`super::designs`]), beside the same split
//! with a pool per cluster ([`AnfPool`]); the cheaper is planned.

use super::StorageContext;
use std::collections::BTreeMap;

use super::hybrid::{AnfOracle, Units, feasible};
use super::pools::Member;
use crate::catalog::ReservationTerm;
use crate::demand::{ClusterDemand, Demand, VmDemand};
use crate::inventory::Origin;
use crate::optimize::one_cluster::{cluster_cost, cluster_vm_saturation};
use crate::optimize::run::Cheapest;
use crate::optimize::{OptimizeError, OptimizeOptions};

/// The demand of one AVS cluster's VMs at `indices` (into the estate's placed VMs), each
/// at `sizes_gib[j]` GiB of capacity when given (else its own), with its capacity share of
/// the estate's targets (`zero_share` when the estate holds no data), or with
/// `own_targets` its VMs' per-VM sums, planned with `hosts` hosts (`source` in words) on
/// `perf_system` (the performance system of the cluster's host SKU, `perf_system` in
/// `data/avs_hosts.csv`). It carries the estate's targets too, so a target error names the
/// cluster, its share and the user's target.
pub(super) fn cluster_demand(
    estate: &Demand,
    (name, indices, sizes_gib): (&str, &[usize], Option<&[f64]>),
    (zero_share, own_targets): (f64, bool),
    (hosts, source): (u32, String),
    perf_system: &str,
) -> ClusterDemand {
    let d = match sizes_gib {
        Some(sizes) => estate.subset_sized(indices, sizes),
        None => estate.subset(indices),
    };
    with_share(
        estate,
        (name, d),
        (zero_share, own_targets),
        (hosts, source),
        perf_system,
    )
}

/// [`cluster_demand`] of the VMs `d` (a subset of `estate`'s placed VMs).
fn with_share(
    estate: &Demand,
    (name, mut d): (&str, Demand),
    (zero_share, own_targets): (f64, bool),
    (hosts, source): (u32, String),
    perf_system: &str,
) -> ClusterDemand {
    let total = estate.placed_capacity_gib;
    let share = if total > 0.0 {
        d.placed_capacity_gib / total
    } else {
        zero_share
    };
    d.options.iops = estate.options.iops * share;
    d.options.throughput_mibps = estate.options.throughput_mibps * share;
    if own_targets {
        d.options.iops = 0.0;
        d.options.throughput_mibps = 0.0;
        d.targets_from_perf();
    }
    let (estate_iops, estate_throughput_mibps) = if own_targets {
        (0.0, 0.0)
    } else {
        (estate.options.iops, estate.options.throughput_mibps)
    };
    ClusterDemand {
        cluster: name.to_string(),
        demand: d,
        capacity_share: share,
        estate_iops,
        estate_throughput_mibps,
        source_hosts: Some(hosts),
        hosts_source: source,
        perf_system: Some(perf_system.to_string()),
    }
}

/// The ANF side of a design point as the estate's pools see it: its pool (a share of a
/// shared pool, whole GiB, or a Flexible pool of its own, whole TiB) and what the same VMs
/// cost with a pool of the cluster's own in whole TiB instead, USD per month (pay as you
/// go; the same figure when its pool is its own already).
#[derive(Debug, Clone, Copy)]
pub(super) struct AnfPool {
    pub(super) member: Member,
    /// What its datastores deliver: small-block IOPS and large-block MiB/s.
    pub(super) predicted: (f64, f64),
    pub(super) own_usd_per_month: f64,
    /// The pool of its own that figure prices (its level and whole TiB; `None` when none
    /// meets the targets, priced out).
    pub(super) own: Option<Member>,
}

/// One AVS cluster's ANF side: the estate's context, the cluster's VMs (indices into the
/// estate's placed VMs), its hosts' performance system and the capacity each VM is planned
/// at.
pub(super) struct ClusterOracle<'a> {
    ctx: StorageContext<'a>,
    name: &'a str,
    vms: &'a [usize],
    perf_system: &'a str,
    /// Each VM's capacity as planned here, GiB (its data rounded up to the search's unit
    /// and divided by growth and snapshot reserve, or its own).
    sizes: Vec<f64>,
    /// Capacity GiB per unit of the search (`g / data factor`), 0 with the true sizes.
    gib_per_unit: f64,
    /// Pay as you go: the search compares monthly costs before the reservation is bought;
    /// Standard, Premium and Ultra as a share of a shared pool (`shared_pool`).
    options: OptimizeOptions,
    zero_share: f64,
    /// Whether each plan's demand copies its VMs whole ([`per_vm`]); else without their
    /// names, cluster and origin file (the optimizer reads only their sizes and count
    /// then), so a copy allocates no text. A plan's VMs are copied when it is costed, not
    /// before: most oracles cost a few sets.
    with_names: bool,
    /// Lower bounds by (units, hosts; 0 where they do not depend on the hosts).
    bounds: BTreeMap<(u64, u32), f64>,
    /// [`AnfOracle::saturation`] by hosts.
    saturations: BTreeMap<u32, Option<usize>>,
    /// The plans costed, by hosts and the VMs on ANF ([`ClusterOracle::plan_of`]).
    plans: BTreeMap<(u32, Vec<usize>), Cheapest>,
}

impl<'a> ClusterOracle<'a> {
    /// The oracle of the cluster `name` of `vms` on hosts of `perf_system`, its VMs at
    /// their size in `units` (the search's) or, with `None`, at their own; `zero_share` its
    /// share of the targets when the estate holds no data.
    pub(super) fn new(
        ctx: StorageContext<'a>,
        (name, vms, perf_system): (&'a str, &'a [usize], &'a str),
        units: Option<&Units>,
        zero_share: f64,
    ) -> Self {
        let factor = super::data_factor(ctx.demand);
        let (sizes, gib_per_unit) = match units {
            Some(u) => (
                u.w.iter().map(|&w| w as f64 * u.g_gib / factor).collect(),
                u.g_gib / factor,
            ),
            None => (
                vms.iter()
                    .map(|&i| ctx.demand.placed.get(i).map_or(0.0, |v| v.capacity_gib))
                    .collect(),
                0.0,
            ),
        };
        let with_names = per_vm(&ctx, vms);
        ClusterOracle {
            ctx,
            name,
            vms,
            with_names,
            perf_system,
            sizes,
            gib_per_unit,
            options: OptimizeOptions {
                reservation: ReservationTerm::None,
                shared_pool: true,
                ..ctx.options.clone()
            },
            zero_share,
            bounds: BTreeMap::new(),
            saturations: BTreeMap::new(),
            plans: BTreeMap::new(),
        }
    }

    /// The cluster's VMs.
    pub(super) fn vm_count(&self) -> usize {
        self.vms.len()
    }

    /// The demand of the VMs at `positions` (in the cluster's VMs), at `sizes` when given.
    fn demand(&self, positions: &[usize], sizes: Option<Vec<f64>>, hosts: u32) -> ClusterDemand {
        let sizes = sizes.unwrap_or_else(|| {
            positions
                .iter()
                .filter_map(|&p| self.sizes.get(p).copied())
                .collect()
        });
        let estate = self.ctx.demand;
        let placed = positions
            .iter()
            .zip(&sizes)
            .filter_map(|(&p, &gib)| {
                let v = estate.placed.get(*self.vms.get(p)?)?;
                Some(if self.with_names {
                    VmDemand {
                        capacity_gib: gib,
                        ..v.clone()
                    }
                } else {
                    lean(v, gib)
                })
            })
            .collect();
        with_share(
            estate,
            (self.name, estate.with_placed(placed)),
            (self.zero_share, self.ctx.estate.targets_from_perf),
            (hosts, String::new()),
            self.perf_system,
        )
    }

    /// The host count whose datastores must meet the targets when the cluster runs
    /// `hosts`: a host down for HA (`hosts - ha_hosts`, at least the AVS minimum), or all
    /// of them at the AVS maximum (no more can be added).
    fn checked_at(&self, hosts: u32) -> u32 {
        let l = &self.ctx.vsan_catalog.limits;
        l.checked_hosts(hosts, self.ctx.estate.sizing.ha_hosts)
    }

    /// The cheapest plan of `c` at `hosts` (its pool and cost), its targets met with
    /// [`ClusterOracle::checked_at`]'s hosts.
    fn cost_of(&self, c: &ClusterDemand, hosts: u32) -> Result<Cheapest, OptimizeError> {
        let (catalog, model) = (self.ctx.catalog, self.ctx.model);
        let o = &c.demand.options;
        let targets = o.iops > 0.0 || o.throughput_mibps > 0.0 || self.options.peak.is_some();
        let check = self.checked_at(hosts);
        if targets && check != hosts {
            cluster_cost(c, catalog, model, &self.options, Some(check))?;
        }
        cluster_cost(c, catalog, model, &self.options, Some(hosts))
    }

    /// [`ClusterOracle::cost_of`] the VMs at `positions` (at their sizes here), remembered:
    /// a design's split is costed, then pooled, with the same plan.
    fn plan_of(&mut self, positions: &[usize], hosts: u32) -> Result<Cheapest, OptimizeError> {
        let key = (hosts, positions.to_vec());
        if let Some(&x) = self.plans.get(&key) {
            return Ok(x);
        }
        let x = self.cost_of(&self.demand(positions, None, hosts), hosts)?;
        self.plans.insert(key, x);
        Ok(x)
    }

    /// The pool of the VMs `anf` (each at its true size) at `hosts`, and what they cost
    /// with a pool of the cluster's own instead ([`AnfPool`]), for a design's split.
    ///
    /// # Errors
    /// As [`AnfOracle::cost`] (a point the search returned is feasible).
    pub(super) fn pool(&mut self, anf: &[usize], hosts: u32) -> Result<AnfPool, OptimizeError> {
        let cheapest = self.plan_of(anf, hosts)?;
        let member = Member::of_cheapest(&cheapest);
        if !member.shared {
            return Ok(AnfPool {
                member,
                predicted: cheapest.predicted,
                own_usd_per_month: cheapest.cost_usd_per_month,
                own: Some(member),
            });
        }
        let own = OptimizeOptions {
            shared_pool: false,
            ..self.options.clone()
        };
        let c = self.demand(anf, None, hosts);
        let (catalog, model) = (self.ctx.catalog, self.ctx.model);
        // A pool of its own holds at least the share: what meets the targets as a share
        // meets them alone; infeasible would be a bug, priced out rather than chosen.
        let alone = feasible(cluster_cost(&c, catalog, model, &own, Some(hosts)))?;
        Ok(AnfPool {
            member,
            predicted: cheapest.predicted,
            own_usd_per_month: alone
                .as_ref()
                .map_or(f64::INFINITY, |x| x.cost_usd_per_month),
            own: alone.as_ref().map(Member::of_cheapest),
        })
    }

    /// [`AnfOracle::lower_bound`], worked out.
    fn bound(&self, anf_units: u64, hosts: u32) -> Result<f64, OptimizeError> {
        let all: Vec<usize> = (0..self.vms.len()).collect();
        let units_total = self.sizes.iter().sum::<f64>() / self.gib_per_unit.max(f64::MIN_POSITIVE);
        let scale = if units_total > 0.0 {
            anf_units as f64 / units_total
        } else {
            0.0
        };
        let scaled: Vec<f64> = self.sizes.iter().map(|s| s * scale).collect();
        let mut c = self.demand(&all, Some(scaled), hosts);
        // Per-VM figures only add constraints (spread VMDKs, the VMs' own targets): the
        // bound goes without them.
        for v in &mut c.demand.placed {
            v.iops = None;
            v.throughput_mibps = None;
        }
        let cost = if self.ctx.estate.targets_from_perf {
            c.demand.options.iops = 0.0;
            c.demand.options.throughput_mibps = 0.0;
            let capacity_only = OptimizeOptions {
                peak: None,
                ..self.options.clone()
            };
            let (catalog, model) = (self.ctx.catalog, self.ctx.model);
            cluster_cost(&c, catalog, model, &capacity_only, Some(hosts))
        } else {
            self.cost_of(&c, hosts)
        }
        .map(|x| x.cost_usd_per_month);
        Ok(feasible(cost)?.unwrap_or(f64::INFINITY))
    }

    /// Whether the cost can depend on which VMs carry the data: per-VM figures (the
    /// targets their sums, or VMs whose own figures spread their VMDKs).
    fn per_vm(&self) -> bool {
        self.with_names
    }

    /// [`AnfOracle::saturation`], worked out: the larger of the counts at the hosts priced
    /// and at the hosts the targets are checked at.
    fn saturation_at(&self, hosts: u32) -> Result<Option<usize>, OptimizeError> {
        if self.per_vm() {
            return Ok(None);
        }
        // The VM count enters the plan through the layouts alone: an empty set's demand
        // carries the options, the profile and the performance system.
        let c = self.demand(&[], None, hosts);
        let (catalog, model, n) = (self.ctx.catalog, self.ctx.model, self.vms.len());
        let at = |h: u32| cluster_vm_saturation(&c, catalog, model, &self.options, (Some(h), n));
        let mut k = at(hosts)?;
        let check = self.checked_at(hosts);
        if check != hosts {
            k = k.max(at(check)?);
        }
        Ok(Some(k))
    }

    /// Whether the ANF cost depends on the host count: a target, or peak months.
    fn host_bound(&self) -> bool {
        let o = &self.ctx.demand.options;
        !self.ctx.estate.targets_from_perf
            && (o.iops > 0.0 || o.throughput_mibps > 0.0 || self.options.peak.is_some())
    }
}

/// Whether the plans of the VMs `vms` (indices into the estate's placed VMs) can depend
/// on which of them carry the data: per-VM figures (the targets their sums, or VMs whose
/// own figures spread their VMDKs).
/// A copy of `v` at `capacity_gib` without its name, cluster and origin file and sheet
/// (no text allocated), for a plan that reads only the VMs' figures.
fn lean(v: &VmDemand, capacity_gib: f64) -> VmDemand {
    VmDemand {
        name: String::new(),
        cluster: None,
        capacity_gib,
        origin: Origin {
            file: Default::default(),
            sheet: Default::default(),
            row: v.origin.row,
        },
        iops: v.iops,
        throughput_mibps: v.throughput_mibps,
        vcpus: v.vcpus,
        memory_mib: v.memory_mib,
        memory_consumed_mib: v.memory_consumed_mib,
    }
}

fn per_vm(ctx: &StorageContext, vms: &[usize]) -> bool {
    let d = ctx.demand;
    ctx.estate.targets_from_perf
        || vms
            .iter()
            .filter_map(|&i| d.placed.get(i))
            .any(|v| v.iops.is_some() || v.throughput_mibps.is_some())
}

impl AnfOracle for ClusterOracle<'_> {
    fn cost(&mut self, anf: &[usize], hosts: u32) -> Result<f64, OptimizeError> {
        self.plan_of(anf, hosts).map(|x| x.cost_usd_per_month)
    }

    /// Every VM of the cluster scaled to `anf_units` of data, without per-VM figures: with
    /// capacity-share targets the cost depends only on the data and the VM count (and the
    /// per-VM spreads, which only add constraints) and falls as VMs are added, so the most
    /// VMs bound every set of that data; with per-VM targets the scaled VMs carry none
    /// (capacity only, no peak), a bound whatever their figures. Memoized.
    fn lower_bound(&mut self, anf_units: u64, hosts: u32) -> Result<f64, OptimizeError> {
        let key = (anf_units, if self.host_bound() { hosts } else { 0 });
        if let Some(&b) = self.bounds.get(&key) {
            return Ok(b);
        }
        let b = self.bound(anf_units, hosts)?;
        self.bounds.insert(key, b);
        Ok(b)
    }

    /// A count from which every ceiling of the plans at `hosts` (and at the hosts the
    /// targets are checked at) is that of all the cluster's VMs
    /// ([`crate::optimize::one_cluster::cluster_vm_saturation`]): the VM count enters the
    /// plan only through those ceilings, nondecreasing in it. Memoized.
    fn saturation(&mut self, hosts: u32) -> Result<Option<usize>, OptimizeError> {
        if let Some(&k) = self.saturations.get(&hosts) {
            return Ok(k);
        }
        let k = self.saturation_at(hosts)?;
        self.saturations.insert(hosts, k);
        Ok(k)
    }

    fn monotone(&self) -> bool {
        self.options.cold_pct <= 0.0
    }

    fn counts_matter(&self) -> bool {
        self.host_bound() || self.per_vm()
    }
}

//! The targets a design's vSAN side carries ([`VsanTargets`]): each AVS cluster's data on
//! vSAN carries its share of the estate's IOPS and MiB/s targets (its capacity share, or
//! its VMs' own per-VM figures when the targets are their sums), the peak months' targets
//! where higher (vSAN cannot change by month), checked against the cluster's vSAN envelope
//! ([`crate::vsan::VsanEnvelope`]) at the hosts that must meet them with a host down, the
//! ANF datastores' share crossing the same NICs. Every design is held to it: vSAN alone
//! grows its clusters until they carry their data's load, the hybrid keeps on vSAN only
//! what its hosts carry, and a design's predicted IOPS and MiB/s add its vSAN side's
//! envelope (beside its ANF traffic) to its ANF datastores' predictions.

use crate::demand::Demand;
use crate::optimize::OptimizeError;
use crate::perf::PerfModel;
use crate::vsan::{VsanCatalog, VsanLoad, VsanNeed, VsanOptions, VsanPerf};

/// What the estate's vSAN sides carry, and how they are checked.
#[derive(Debug, Clone, Copy)]
pub(super) struct VsanTargets<'a> {
    /// The model, the targets' profiles and the HA hosts.
    pub(super) perf: VsanPerf<'a>,
    /// Small-block IOPS and large-block MiB/s per GiB of data (the capacity share of the
    /// targets; 0 with per-VM targets or none).
    per_gib: (f64, f64),
    /// The targets are the VMs' own per-VM figures.
    per_vm: bool,
    /// A target is given (an IOPS or MiB/s target, or per-VM figures).
    any: bool,
}

impl<'a> VsanTargets<'a> {
    /// The targets of `demand` (data per GiB placed: `factor`, growth and snapshot reserve),
    /// the peak months' where higher, `per_vm` with its VMs' own figures.
    pub(super) fn of(
        demand: &Demand,
        model: &'a PerfModel,
        (peak, per_vm): ((f64, f64), bool),
        (ha_hosts, factor): (u32, f64),
    ) -> VsanTargets<'a> {
        let o = &demand.options;
        let small = o.io_profile;
        let large = crate::optimize::milp::large_block_profile(&small);
        let iops = o.iops.max(peak.0);
        let mibps = o.throughput_mibps.max(peak.1);
        let data = demand.placed_capacity_gib * factor;
        let per_gib = if per_vm || data <= 0.0 {
            (0.0, 0.0)
        } else {
            (iops / data, mibps / data)
        };
        VsanTargets {
            perf: VsanPerf {
                model,
                small,
                large,
                ha_hosts,
            },
            per_gib,
            per_vm,
            any: per_vm || iops > 0.0 || mibps > 0.0,
        }
    }

    /// Whether the load depends on which VMs are on vSAN, not only on their data.
    pub(super) fn per_vm(&self) -> bool {
        self.per_vm && self.any
    }

    /// The block sizes of the two profiles, KiB.
    pub(super) fn block_sizes(&self) -> (f64, f64) {
        (
            self.perf.small.block_size_kib,
            self.perf.large.block_size_kib,
        )
    }

    /// One VM's own figures (IOPS, MiB/s), 0 where it has none.
    fn own(demand: &Demand, vm: usize) -> (f64, f64) {
        demand.placed.get(vm).map_or((0.0, 0.0), |v| {
            (v.iops.unwrap_or(0.0), v.throughput_mibps.unwrap_or(0.0))
        })
    }

    /// The load of a cluster whose VMs are `vms` (estate indices, data `data_gib` each)
    /// with the VMs at `on_vsan` (positions) on vSAN and the others on ANF.
    pub(super) fn load(
        &self,
        demand: &Demand,
        (vms, data_gib): (&[usize], &[f64]),
        on_vsan: &[usize],
    ) -> VsanLoad {
        if !self.per_vm {
            let vsan: f64 = on_vsan.iter().filter_map(|&p| data_gib.get(p)).sum();
            let all: f64 = data_gib.iter().sum();
            return VsanLoad::capacity_share(vsan, all, self.per_gib);
        }
        let mut inside = vec![false; vms.len()];
        for &p in on_vsan {
            if let Some(x) = inside.get_mut(p) {
                *x = true;
            }
        }
        let mut load = VsanLoad::default();
        for (&vm, on) in vms.iter().zip(inside) {
            let (iops, mibps) = Self::own(demand, vm);
            if on {
                load.iops += iops;
                load.throughput_mibps += mibps;
            } else {
                load.anf_iops += iops;
                load.anf_throughput_mibps += mibps;
            }
        }
        load
    }

    /// The VMs of a cluster (`vms`, `data_gib` each) that one vSAN cluster must hold whole,
    /// by position, each with what it alone asks of vSAN: the largest by data and, with
    /// per-VM targets, the busiest by IOPS and by MiB/s (with capacity-share targets the
    /// largest is the busiest).
    pub(super) fn whole_vms(
        &self,
        demand: &Demand,
        (vms, data_gib): (&[usize], &[f64]),
    ) -> Vec<(usize, VsanNeed<'a>)> {
        let by =
            |key: &dyn Fn(usize) -> f64| (0..vms.len()).max_by(|&a, &b| key(a).total_cmp(&key(b)));
        let data = |p: usize| data_gib.get(p).copied().unwrap_or(0.0);
        let mut out: Vec<usize> = by(&data).into_iter().collect();
        if self.per_vm() {
            let own = |p: usize| Self::own(demand, vms.get(p).copied().unwrap_or(usize::MAX));
            out.extend(by(&|p| own(p).0));
            out.extend(by(&|p| own(p).1));
            out.sort_unstable();
            out.dedup();
        }
        out.into_iter()
            .map(|p| {
                let load = self.load(demand, (vms, data_gib), &[p]);
                let need = VsanNeed {
                    perf: self.perf,
                    iops: load.iops,
                    throughput_mibps: load.throughput_mibps,
                };
                (p, need)
            })
            .collect()
    }

    /// The VMs of a cluster (`vms`, `data_gib` each; positions, ascending) whose own load
    /// is more than one VM can ask of vSAN on `o.sku` ([`VsanCatalog::vm_ceiling`]): they
    /// cannot stay on vSAN and meet the targets. None without a target.
    ///
    /// # Errors
    /// The envelope's.
    pub(super) fn hot_vms(
        &self,
        (catalog, o): (&VsanCatalog, &VsanOptions),
        demand: &Demand,
        (vms, data_gib): (&[usize], &[f64]),
    ) -> Result<Vec<usize>, OptimizeError> {
        if !self.any {
            return Ok(Vec::new());
        }
        let (iops, mibps) = catalog.vm_ceiling(&self.perf, o)?;
        let load = |p: usize| {
            if self.per_vm {
                Self::own(demand, vms.get(p).copied().unwrap_or(usize::MAX))
            } else {
                let gib = data_gib.get(p).copied().unwrap_or(0.0);
                (gib * self.per_gib.0, gib * self.per_gib.1)
            }
        };
        Ok((0..vms.len())
            .filter(|&p| {
                let (i, m) = load(p);
                i > iops || m > mibps
            })
            .collect())
    }

    /// What all of a cluster's data (`vms`, `data_gib` each) asks of vSAN alone.
    pub(super) fn need(
        &self,
        demand: &Demand,
        (vms, data_gib): (&[usize], &[f64]),
    ) -> VsanNeed<'a> {
        let all: Vec<usize> = (0..vms.len()).collect();
        let load = self.load(demand, (vms, data_gib), &all);
        VsanNeed {
            perf: self.perf,
            iops: load.iops,
            throughput_mibps: load.throughput_mibps,
        }
    }

    /// The most data of a cluster of `cluster_gib` the vSAN of `hosts` hosts of `o.sku`
    /// carries with capacity-share targets (infinite without a target or with per-VM
    /// targets; 0 where the hosts make no vSAN cluster).
    ///
    /// # Errors
    /// The envelope's.
    pub(super) fn most_data_gib(
        &self,
        (catalog, o): (&VsanCatalog, &VsanOptions),
        hosts: u32,
        cluster_gib: f64,
    ) -> Result<f64, OptimizeError> {
        if !self.any || self.per_vm {
            return Ok(f64::INFINITY);
        }
        Ok(match catalog.envelope(&self.perf, o, hosts)? {
            Some(e) => e.most_data_gib(self.per_gib, cluster_gib, self.block_sizes()),
            None => 0.0,
        })
    }

    /// Whether the vSAN of `hosts` hosts of `o.sku` carries `load` (always without a
    /// target or without data on vSAN).
    ///
    /// # Errors
    /// The envelope's.
    pub(super) fn carries(
        &self,
        (catalog, o): (&VsanCatalog, &VsanOptions),
        hosts: u32,
        load: &VsanLoad,
    ) -> Result<bool, OptimizeError> {
        if !self.any || (load.iops <= 0.0 && load.throughput_mibps <= 0.0) {
            return Ok(true);
        }
        Ok(catalog
            .envelope(&self.perf, o, hosts)?
            .is_some_and(|e| e.carries(load, self.block_sizes())))
    }

    /// What the vSAN of `hosts` hosts of `o.sku` delivers beside `load`'s ANF side over
    /// the same NICs: small-block IOPS and large-block MiB/s (0 where the hosts make no
    /// vSAN cluster).
    ///
    /// # Errors
    /// The envelope's.
    pub(super) fn delivers(
        &self,
        (catalog, o): (&VsanCatalog, &VsanOptions),
        hosts: u32,
        load: &VsanLoad,
    ) -> Result<(f64, f64), OptimizeError> {
        Ok(catalog
            .envelope(&self.perf, o, hosts)?
            .map_or((0.0, 0.0), |e| e.delivers(load, self.block_sizes())))
    }
}

//! vSAN alone on one cluster variant: every VM on its hosts' vSAN, the hosts grown from
//! compute until the data fits within the headroom and the vSAN carries the cluster's
//! targets ([`crate::sizing::cluster_on_vsan`]); past 16 hosts the cluster splits, and
//! that growth is counted in [`crate::sizing::VsanAlone`] (so the point raises no hosts).
//! Not worked out without vSAN settings, when a VM's data or load no one cluster of the
//! SKU holds (the estate's vSAN alone then names it), or, for a moved cluster, when no
//! vSAN cluster of the SKU holds its data.

use super::{At, Delivers, DesignPoint, DesignSearch, Points, Worked};
use crate::optimize::OptimizeError;
use crate::optimize::estate::hybrid::Point;
use crate::optimize::estate::oracle::ClusterOracle;
use crate::plan::Design;
use crate::sizing::{Raise, check_one_cluster_holds, cluster_on_vsan};
use crate::vsan::VsanError;

/// vSAN alone.
pub(super) struct VsanAlone;

impl DesignSearch for VsanAlone {
    fn design(&self) -> Design {
        Design::Vsan
    }

    fn work_out(
        &self,
        at: &At,
        _exact: &mut ClusterOracle,
        _before: &Points,
    ) -> Result<Worked, OptimizeError> {
        let ctx = at.ctx;
        let Some(o) = &at.vsan else {
            return Ok(Worked::Skipped);
        };
        let (sku, reserve) = (&at.host.sku, at.reserved_raw_tib);
        for (p, need) in ctx.targets.whole_vms(ctx.demand, (at.vms, at.data_gib)) {
            let gib = at.data_gib.get(p).copied().unwrap_or(0.0);
            let vm = ("", "", gib, Some(need));
            match check_one_cluster_holds(ctx.vsan_catalog, (sku, reserve), vm, o) {
                Ok(()) => {}
                Err(VsanError::VmTooLarge(_)) => return Ok(Worked::Skipped),
                Err(e) => return Err(e.into()),
            }
        }
        let data: f64 = at.data_gib.iter().sum();
        let need = ctx.targets.need(ctx.demand, (at.vms, at.data_gib));
        let carries = (need.iops, need.throughput_mibps);
        let on = (data, Some(need));
        let r = match cluster_on_vsan(ctx.vsan_catalog, sku, (at.compute_hosts, reserve), on, o) {
            Ok(r) => r,
            Err(_) if at.moved => return Ok(Worked::Skipped),
            Err(err) => return Err(err.into()),
        };
        let hosts = r.hosts_needed;
        Ok(Worked::Built(DesignPoint {
            point: Point {
                hosts,
                on_vsan: (0..at.vms.len()).collect(),
                anf_usd_per_month: 0.0,
            },
            raise: Raise::default(),
            vsan_usable_gib: at.vsan_capacity_gib(hosts)?.0,
            pool: None,
            predicted: Delivers {
                vsan: (
                    r.predicted_iops.unwrap_or(0.0),
                    r.predicted_throughput_mibps.unwrap_or(0.0),
                ),
                anf: (0.0, 0.0),
                vsan_target: carries,
            },
        }))
    }
}

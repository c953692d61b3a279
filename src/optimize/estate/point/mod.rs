//! One design on one cluster variant, in the one shape every design answers in
//! ([`DesignPoint`]): its hosts, which of the cluster's VMs sit on vSAN and which on ANF
//! (the split), the ANF side's cost and pool, the hosts beyond compute and why, and what
//! its storage delivers. Each design is one file behind [`DesignSearch`]:
//! - [`vsan`]: vSAN alone, every VM on the hosts' vSAN, the hosts grown until the data
//!   fits and the vSAN carries the cluster's targets;
//! - [`anf`]: ANF for all, every VM on ANF datastores at the fewest hosts whose datastores
//!   meet the targets with a host down;
//! - [`hybrid`]: the cheapest split between the two ([`super::hybrid`]'s search).
//!
//! The designs are worked out in [`DESIGNS`]' order on the same [`At`] and the same
//! cluster oracle, each seeing the points of those before it ([`Points`]): the hybrid
//! weighs ANF for all and vSAN alone among its candidates. A fourth design is one more
//! file, one more [`crate::plan::Design`] and one more entry in [`DESIGNS`].
//!
//! Invariant: a point's ANF cost is the cluster's share of a shared pool, USD per month
//! pay as you go ([`super::oracle`]), and its `predicted` figures are what its hosts'
//! vSAN carries beside its ANF traffic plus what its datastores' layouts deliver.

mod anf;
mod hybrid;
mod vsan;

use super::StorageContext;
use super::hybrid::Point;
use super::oracle::{AnfPool, ClusterOracle};
use crate::optimize::OptimizeError;
use crate::plan::Design;
use crate::sizing::Raise;
use crate::vsan::HostSku;

/// What a design's storage delivers, vSAN and ANF apart: small-block IOPS and large-block
/// MiB/s each; and the share of the targets its data on vSAN carries.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Delivers {
    /// Its data on vSAN: the envelope at the checked hosts, beside the ANF traffic.
    pub(super) vsan: (f64, f64),
    /// Its ANF datastores: their layouts' predictions with their pools' QoS.
    pub(super) anf: (f64, f64),
    /// The IOPS and MiB/s targets its data on vSAN carries (its capacity share, or its
    /// VMs' own figures; the peak months' where higher): what `vsan` is checked against.
    pub(super) vsan_target: (f64, f64),
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
        self.vsan_target.0 += other.vsan_target.0;
        self.vsan_target.1 += other.vsan_target.1;
    }
}

/// One design worked out on one cluster variant: what every design answers.
#[derive(Debug, Clone)]
pub(super) struct DesignPoint {
    /// Its hosts, the VMs on vSAN (positions in the cluster's VMs) and the others' ANF
    /// cost, USD per month (a share of a shared pool priced per GiB of quota).
    pub(super) point: Point,
    /// The hosts it gives the cluster beyond compute and why ([`Raise::default`] for none;
    /// vSAN alone's growth is counted in [`crate::sizing::VsanAlone`]).
    pub(super) raise: Raise,
    /// What its hosts' vSAN holds, GiB (full to the policy's slack).
    pub(super) vsan_usable_gib: f64,
    /// The pool of its VMs on ANF (`None` when it puts none there).
    pub(super) pool: Option<AnfPool>,
    /// What its storage delivers.
    pub(super) predicted: Delivers,
}

impl DesignPoint {
    /// The VMs it puts on ANF: positions in the cluster's `n` VMs.
    pub(super) fn on_anf(&self, n: usize) -> Vec<usize> {
        self.point.on_anf(n)
    }
}

/// Why a cluster's datastores cannot meet its targets (the optimizer's `Infeasible` or
/// `NoLayout`), kept to be given back when no design can be built.
#[derive(Debug, Clone)]
pub(super) struct Refusal(std::sync::Arc<OptimizeError>);

impl Refusal {
    /// A refusal for `err`.
    pub(super) fn new(err: OptimizeError) -> Refusal {
        Refusal(std::sync::Arc::new(err))
    }

    /// The error again.
    pub(super) fn error(&self) -> OptimizeError {
        self.0
            .infeasibility()
            .unwrap_or_else(|| OptimizeError::Solver(self.0.to_string()))
    }
}

/// A design on one cluster variant: built, refused (with why: ANF for all's datastores, or
/// the hybrid's splits, cannot meet its targets), or not worked out (no vSAN settings, no
/// host price, a VM's data that no one cluster holds).
#[derive(Debug, Clone)]
pub(super) enum Worked {
    Built(DesignPoint),
    Refused(Refusal),
    Skipped,
}

impl Worked {
    /// Refused with `err` when it says the targets cannot be met (`Infeasible`,
    /// `NoLayout`); other errors are given back.
    fn refused_or(err: OptimizeError) -> Result<Worked, OptimizeError> {
        match err {
            OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_) => {
                Ok(Worked::Refused(Refusal::new(err)))
            }
            err => Err(err),
        }
    }
}

/// The designs of one cluster variant, as worked out.
#[derive(Debug, Clone, Default)]
pub(super) struct Points(Vec<(Design, Worked)>);

impl Points {
    /// The design's point, where built.
    pub(super) fn get(&self, design: Design) -> Option<&DesignPoint> {
        match self.worked(design)? {
            Worked::Built(p) => Some(p),
            _ => None,
        }
    }

    /// Why the design was refused, where it was.
    pub(super) fn refused(&self, design: Design) -> Option<&Refusal> {
        match self.worked(design)? {
            Worked::Refused(r) => Some(r),
            _ => None,
        }
    }

    fn worked(&self, design: Design) -> Option<&Worked> {
        self.0.iter().find(|(d, _)| *d == design).map(|(_, w)| w)
    }
}

/// One cluster variant being worked out: the cluster's VMs on `host`'s SKU.
pub(super) struct At<'a, 'b> {
    pub(super) ctx: &'a StorageContext<'b>,
    /// The cluster's name.
    pub(super) name: &'a str,
    /// Its VMs (indices in the demand's placed VMs).
    pub(super) vms: &'a [usize],
    /// Each VM's data, GiB (after growth and snapshot reserve), in `vms`' order.
    pub(super) data_gib: &'a [f64],
    /// Its share of a shared pool's fixed cost when it puts nothing on ANF.
    pub(super) zero_share: f64,
    /// The SKU it is sized on.
    pub(super) host: &'a HostSku,
    /// Its compute hosts, within the AVS cluster sizes.
    pub(super) compute_hosts: u32,
    /// Raw vSAN capacity AVS keeps in it, TiB.
    pub(super) reserved_raw_tib: f64,
    /// One host, USD per hour, where the plan's region prices its SKU.
    pub(super) usd_per_host_hour: Option<f64>,
    /// Whether it is a cluster moved to a first-cluster SKU (where it cannot be built,
    /// it is left out rather than refused).
    pub(super) moved: bool,
    /// The estate's vSAN settings on its SKU (`None`: no vSAN comparison).
    pub(super) vsan: Option<crate::vsan::VsanOptions>,
}

impl At<'_, '_> {
    /// What `hosts` hosts of its SKU hold on vSAN, GiB: full to the policy's slack, and
    /// within the headroom ([`crate::vsan::VsanCapacity`]); 0 without vSAN settings or
    /// below the policy's minimum hosts.
    ///
    /// # Errors
    /// [`crate::vsan::VsanError`] for an unknown SKU.
    fn vsan_capacity_gib(&self, hosts: u32) -> Result<(f64, f64), OptimizeError> {
        let Some(o) = &self.vsan else {
            return Ok((0.0, 0.0));
        };
        let cap = self
            .ctx
            .vsan_catalog
            .capacity(o, hosts, self.reserved_raw_tib)?;
        Ok(cap.map_or((0.0, 0.0), |c| (c.usable_data_gib, c.fill_limit_gib)))
    }
}

/// How one design is worked out on one cluster variant.
pub(super) trait DesignSearch: Sync {
    /// The design it works out.
    fn design(&self) -> Design;

    /// Its point on `at`, the cluster's exact ANF oracle shared by the designs (it keeps
    /// the plans it has made) and the points of the designs before it.
    ///
    /// # Errors
    /// Optimizer and vSAN errors other than a refusal.
    fn work_out(
        &self,
        at: &At,
        exact: &mut ClusterOracle,
        before: &Points,
    ) -> Result<Worked, OptimizeError>;
}

/// Every design, in the order they are worked out (each sees those before it).
pub(super) const DESIGNS: [&dyn DesignSearch; 3] =
    [&anf::AnfForAll, &vsan::VsanAlone, &hybrid::Hybrid];

/// Every design of [`DESIGNS`] on `at`; `None` for a moved cluster whose ANF datastores
/// cannot meet its targets there (it is not a way to size the cluster).
///
/// # Errors
/// The first design's error other than a refusal.
pub(super) fn work_out(
    at: &At,
    exact: &mut ClusterOracle,
) -> Result<Option<Points>, OptimizeError> {
    let mut points = Points::default();
    for d in DESIGNS {
        let worked = d.work_out(at, exact, &points)?;
        if at.moved && d.design() == Design::Anf && matches!(worked, Worked::Refused(_)) {
            return Ok(None);
        }
        points.0.push((d.design(), worked));
    }
    Ok(Some(points))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_design_is_worked_out_once_the_hybrid_after_those_it_weighs() {
        let order: Vec<Design> = DESIGNS.iter().map(|d| d.design()).collect();
        for d in [Design::Vsan, Design::Anf, Design::Hybrid] {
            assert_eq!(order.iter().filter(|&&x| x == d).count(), 1, "{d:?}");
        }
        let at = |d: Design| order.iter().position(|&x| x == d);
        assert!(at(Design::Hybrid) > at(Design::Anf));
        assert!(at(Design::Hybrid) > at(Design::Vsan));
    }

    #[test]
    fn points_answer_built_refused_and_skipped_apart() {
        let built = DesignPoint {
            point: Point {
                hosts: 4,
                on_vsan: vec![0, 2],
                anf_usd_per_month: 10.0,
            },
            raise: Raise::default(),
            vsan_usable_gib: 0.0,
            pool: None,
            predicted: Delivers::default(),
        };
        let refusal = Refusal(std::sync::Arc::new(OptimizeError::Solver("x".into())));
        let points = Points(vec![
            (Design::Hybrid, Worked::Built(built)),
            (Design::Anf, Worked::Refused(refusal)),
            (Design::Vsan, Worked::Skipped),
        ]);
        // VMs 0 and 2 of 4 on vSAN: 1 and 3 on ANF.
        assert_eq!(
            points.get(Design::Hybrid).map(|p| p.on_anf(4)),
            Some(vec![1, 3])
        );
        assert!(points.get(Design::Anf).is_none() && points.refused(Design::Anf).is_some());
        assert!(points.get(Design::Vsan).is_none() && points.refused(Design::Vsan).is_none());
    }
}

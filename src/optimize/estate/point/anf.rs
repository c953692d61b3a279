//! ANF for all on one cluster variant: every VM on ANF datastores, at the fewest hosts
//! from its compute hosts (up to the largest cluster) whose datastores meet its targets
//! with a host down ([`super::super::hybrid::anf_for_all`]).

use super::{At, DesignPoint, DesignSearch, Points, Worked};
use crate::optimize::OptimizeError;
use crate::optimize::estate::hybrid::{Point, anf_for_all};
use crate::optimize::estate::oracle::ClusterOracle;
use crate::plan::Design;
use crate::sizing::{Driver, Raise};

/// ANF for all.
pub(super) struct AnfForAll;

impl DesignSearch for AnfForAll {
    fn design(&self) -> Design {
        Design::Anf
    }

    fn work_out(
        &self,
        at: &At,
        exact: &mut ClusterOracle,
        _before: &Points,
    ) -> Result<Worked, OptimizeError> {
        let all: Vec<usize> = (0..at.vms.len()).collect();
        let max = at.ctx.catalog.limits.max_hosts;
        let (hosts, usd) = match anf_for_all(exact, &all, (at.compute_hosts, max)) {
            Ok(found) => found,
            Err(err) => return Worked::refused_or(err),
        };
        let pool = exact.pool(&all, hosts)?;
        Ok(Worked::Built(DesignPoint {
            point: Point {
                hosts,
                on_vsan: Vec::new(),
                anf_usd_per_month: usd,
            },
            raise: Raise {
                hosts,
                driver: Driver::Storage,
            },
            vsan_usable_gib: at.vsan_capacity_gib(hosts)?.0,
            pool: Some(pool),
            predicted: super::Delivers {
                vsan: (0.0, 0.0),
                anf: pool.predicted,
                vsan_target: (0.0, 0.0),
            },
        }))
    }
}

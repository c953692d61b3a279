//! The optimizer's options and their validation.

use serde::{Deserialize, Serialize};

use super::error::OptimizeError;
use crate::catalog::{
    Limits, ReservationTerm, ServiceLevel, arm_region_name, avs_anf_regions,
    avs_supports_anf_datastores,
};

/// The page that lists the regions with ANF datastores for AVS, and its date.
pub(super) const ATTACH_PAGE: &str = "learn.microsoft.com/azure/azure-vmware/\
     attach-azure-netapp-files-to-azure-vmware-solution-hosts (2025-10-14)";

/// Options of the optimizer. `#[non_exhaustive]`: outside this crate, built from
/// [`OptimizeOptions::default`] and its chaining setters
/// (`OptimizeOptions::default().hosts(4).region("westeurope")`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct OptimizeOptions {
    /// AVS hosts that mount the datastores (3..=16).
    pub hosts: u32,
    /// Pricing region (ARM name).
    pub region: String,
    /// Most datastores the cluster may have (1..=256; AVS default 8).
    pub max_datastores: u32,
    /// Only these service levels (empty = all sold in the region).
    pub service_levels: Vec<ServiceLevel>,
    /// Percent 0..=100 of the data (after growth) that is cold and would sit in the cool
    /// tier under cool access; 0 (default) = cool access is not considered. RVTools holds no
    /// access data, so the default assumes none; the ANF guidance is that up to 80% of a
    /// data set is typically cold \[COOL\].
    #[serde(default)]
    pub cold_pct: f64,
    /// Percent 0..=100 of the cold data re-read (moved between tiers) per month, charged at
    /// the region's cool transfer price (default 10).
    #[serde(default = "default_cool_retrieval_pct")]
    pub cool_retrieval_pct: f64,
    /// Reserved capacity for the hot tier (default none).
    #[serde(default)]
    pub reservation: ReservationTerm,
    /// A time-phased plan: higher targets for some months of the year (default none).
    #[serde(default)]
    pub peak: Option<PeakOptions>,
    /// TCP connections per host per datastore, 1 or 4 (default 1, the measured case
    /// \[AVS-BENCH\]): every layout the optimizer evaluates uses it.
    #[serde(default = "default_nconnect")]
    pub nconnect: u32,
    /// Plan in a region that `data/avs_anf_regions.csv` does not list for ANF datastores on
    /// AVS (default false: such a region is refused); the plan then warns.
    #[serde(default)]
    pub allow_unlisted_region: bool,
    /// Let the plan use ANF large volumes (50 TiB .. 1 PiB, up to 12,800 MiB/s each) as
    /// datastores, where no layout of regular volumes meets the targets (default false: no
    /// Microsoft page documents large volumes as AVS datastores,
    /// learn.microsoft.com/azure/azure-netapp-files/large-volumes-requirements-considerations,
    /// 2026-02-10). A plan that uses one says that AVS support must be confirmed.
    #[serde(default)]
    pub allow_large_volumes: bool,
    /// The plan's Standard, Premium and Ultra datastores take a share of a capacity pool
    /// shared with other AVS clusters' datastores (default false: the plan's pool is its
    /// own). An estate plan sets it: a share is sized and priced in whole GiB (each
    /// datastore at least 50 GiB) and the shared pool is rounded up to whole TiB once for
    /// all its members ("the sum of volume capacity quotas in a pool can't exceed the pool
    /// size", quotas in whole GiB, pools in 1 TiB increments,
    /// learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-cost-model,
    /// 2026-06-15). Flexible pools stay the plan's own, in whole TiB: each includes its own
    /// 128 MiB/s.
    #[serde(default)]
    pub shared_pool: bool,
    /// The performance model's system the layouts are evaluated on: the hosts' NICs and
    /// ceilings (`data/systems/*.csv`; default `anf-avs`, AVS hosts with 25 GbE;
    /// `anf-avs-av64` for AV64's 100 GbE; a host SKU's is its `perf_system` in
    /// `data/avs_hosts.csv`).
    #[serde(default = "default_perf_system")]
    pub perf_system: String,
    /// The caller's request to stop the plan, checked between host SKUs, clusters and service levels
    /// (default: never). Not serialized, and equal in every pair of options: it changes
    /// whether a plan is finished, never its figures.
    #[serde(skip)]
    pub stop: super::Stop,
}

/// Peak months of a time-phased plan (`peak_months`, `peak_iops`,
/// `peak_throughput_mibps`): the layout may raise its service level, pool or Flexible
/// throughput for those months only; the datastores stay. `#[non_exhaustive]`: outside
/// this crate, built by [`PeakOptions::new`] and its chaining setters
/// (`PeakOptions::new(3).iops(50_000.0)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PeakOptions {
    /// Peak months per year (1..=11).
    pub months: u32,
    /// Small-block IOPS target in the peak months (the higher of this and the base target).
    pub iops: f64,
    /// Large-block MiB/s target in the peak months (the higher of this and the base target).
    pub throughput_mibps: f64,
}

fn default_cool_retrieval_pct() -> f64 {
    crate::defaults::COOL_RETRIEVAL_PCT
}

fn default_perf_system() -> String {
    crate::perf::DEFAULT_SYSTEM.to_string()
}

fn default_nconnect() -> u32 {
    crate::defaults::NCONNECT
}

impl Default for OptimizeOptions {
    /// The command's defaults ([`crate::defaults`]): 3 hosts, eastus, 8 datastores, every
    /// service level, no cold data, 10% cool retrieval per month, no reservation, nconnect 1,
    /// listed regions only, regular volumes only, the `anf-avs` performance system, a pool
    /// of the plan's own.
    fn default() -> Self {
        OptimizeOptions {
            hosts: crate::defaults::HOSTS,
            region: crate::defaults::REGION.to_string(),
            max_datastores: crate::defaults::MAX_DATASTORES,
            service_levels: Vec::new(),
            cold_pct: crate::defaults::COLD_PCT,
            cool_retrieval_pct: default_cool_retrieval_pct(),
            reservation: ReservationTerm::None,
            peak: None,
            nconnect: default_nconnect(),
            allow_unlisted_region: false,
            allow_large_volumes: false,
            shared_pool: false,
            perf_system: default_perf_system(),
            stop: super::Stop::default(),
        }
    }
}

impl OptimizeOptions {
    /// Checks the host count against the catalog's AVS range, the datastore limit against
    /// `1..=limits.max_datastores`, the cold and retrieval percentages (0..=100), `nconnect`
    /// (1 or 4) and that the region supports ANF datastores for AVS
    /// (`data/avs_anf_regions.csv`) unless `allow_unlisted_region`.
    ///
    /// # Errors
    /// [`OptimizeError::Invalid`] naming the first option out of range.
    pub fn validate(&self, limits: &Limits) -> Result<(), OptimizeError> {
        if self.hosts < limits.min_hosts || self.hosts > limits.max_hosts {
            return Err(OptimizeError::Invalid {
                option: "hosts",
                value: self.hosts.to_string(),
                expected: format!(
                    "an AVS cluster has {} to {} hosts",
                    limits.min_hosts, limits.max_hosts
                ),
            });
        }
        if self.max_datastores == 0 || self.max_datastores > limits.max_datastores {
            return Err(OptimizeError::Invalid {
                option: "max_datastores",
                value: self.max_datastores.to_string(),
                expected: format!("1 to {}", limits.max_datastores),
            });
        }
        check_pct("cold_pct", self.cold_pct)?;
        check_pct("cool_retrieval_pct", self.cool_retrieval_pct)?;
        if self.nconnect != 1 && self.nconnect != 4 {
            return Err(OptimizeError::Invalid {
                option: "nconnect",
                value: self.nconnect.to_string(),
                expected: "1 or 4 (AVS datastores support nconnect 4)".into(),
            });
        }
        self.check_region()
    }

    /// The region must support ANF datastores for AVS, unless `allow_unlisted_region`.
    fn check_region(&self) -> Result<(), OptimizeError> {
        if self.allow_unlisted_region || avs_supports_anf_datastores(&self.region)? {
            return Ok(());
        }
        let listed: Vec<String> = avs_anf_regions()?.into_iter().map(|r| r.region).collect();
        Err(OptimizeError::Invalid {
            option: "region",
            value: arm_region_name(&self.region),
            expected: format!(
                "ANF datastores for AVS are not supported there; supported regions \
                 (data/avs_anf_regions.csv, {ATTACH_PAGE}): {}; set \
                 `allow_unlisted_region` to plan anyway",
                listed.join(", ")
            ),
        })
    }
}

impl PeakOptions {
    /// `months` peak months per year with no peak targets of their own (0 IOPS, 0 MiB/s:
    /// the base targets hold); [`PeakOptions::iops`] and
    /// [`PeakOptions::throughput_mibps`] set them. Not checked here
    /// ([`PeakOptions::validate`]).
    pub fn new(months: u32) -> Self {
        PeakOptions {
            months,
            iops: 0.0,
            throughput_mibps: 0.0,
        }
    }

    /// Checks the peak months (1..=11), the peak targets (finite, >= 0) and that no
    /// `reservation` is asked for alongside (the two are not modelled together).
    ///
    /// # Errors
    /// [`OptimizeError::Invalid`] naming the first option out of range.
    pub fn validate(&self, reservation: ReservationTerm) -> Result<(), OptimizeError> {
        if self.months == 0 || self.months >= 12 {
            return Err(OptimizeError::Invalid {
                option: "peak_months",
                value: self.months.to_string(),
                expected: "1..11 months of the year".into(),
            });
        }
        check_at_most("peak_iops", self.iops, crate::defaults::MAX_IOPS)?;
        check_at_most(
            "peak_throughput_mibps",
            self.throughput_mibps,
            crate::defaults::MAX_THROUGHPUT_MIBPS,
        )?;
        if reservation != ReservationTerm::None {
            return Err(OptimizeError::Invalid {
                option: "reservation",
                value: reservation.to_string(),
                expected: "none in a time-phased plan: a reservation is a yearly commitment \
                           and `peak_months` plans do not model it; drop one of the two"
                    .into(),
            });
        }
        Ok(())
    }
}

/// `v` must be a percentage 0..=100.
fn check_pct(option: &'static str, v: f64) -> Result<(), OptimizeError> {
    if v.is_finite() && (0.0..=100.0).contains(&v) {
        Ok(())
    } else {
        Err(OptimizeError::Invalid {
            option,
            value: crate::numbers::show_setting(v),
            expected: "a percentage from 0 to 100".into(),
        })
    }
}

/// `v` must be in `0..=max` (the documented largest target, `crate::defaults`).
fn check_at_most(option: &'static str, v: f64, max: f64) -> Result<(), OptimizeError> {
    if (0.0..=max).contains(&v) {
        Ok(())
    } else {
        Err(OptimizeError::Invalid {
            option,
            value: crate::numbers::show_setting(v),
            expected: format!("from 0 to {}", crate::numbers::show_number(max)),
        })
    }
}

/// `v` must be a finite number >= 0.
pub(super) fn check_non_negative(option: &'static str, v: f64) -> Result<(), OptimizeError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(OptimizeError::Invalid {
            option,
            value: crate::numbers::show_setting(v),
            expected: "a finite number >= 0".into(),
        })
    }
}

crate::setters::setters!(OptimizeOptions {
    hosts: is: u32;
    region: into: String;
    max_datastores: is: u32;
    service_levels: list: ServiceLevel;
    cold_pct: is: f64;
    cool_retrieval_pct: is: f64;
    reservation: is: ReservationTerm;
    peak: Maybe(PeakOptions);
    nconnect: is: u32;
    allow_unlisted_region: is: bool;
    allow_large_volumes: is: bool;
    shared_pool: is: bool;
    perf_system: into: String;
    stop: is: super::Stop;
});

crate::setters::setters!(PeakOptions {
    months: is: u32;
    iops: is: f64;
    throughput_mibps: is: f64;
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal.
    #[test]
    fn setters_set_their_own_field() {
        let peak_by_hand = PeakOptions {
            months: 3,
            iops: 50_000.0,
            throughput_mibps: 900.0,
        };
        let peak = PeakOptions::new(3).iops(50_000.0).throughput_mibps(900.0);
        assert_eq!(peak, peak_by_hand);
        assert_eq!(PeakOptions::new(2).months(5).months, 5);
        let by_hand = OptimizeOptions {
            hosts: 4,
            region: "westeurope".into(),
            max_datastores: 4,
            service_levels: vec![ServiceLevel::Premium, ServiceLevel::Ultra],
            cold_pct: 50.0,
            cool_retrieval_pct: 5.0,
            reservation: ReservationTerm::OneYear,
            peak: Some(peak_by_hand),
            nconnect: 4,
            allow_unlisted_region: true,
            allow_large_volumes: true,
            shared_pool: true,
            perf_system: "anf-avs-av64".into(),
            stop: super::super::Stop::default(),
        };
        let set = OptimizeOptions::default()
            .hosts(4)
            .region("westeurope")
            .max_datastores(4)
            .service_levels([ServiceLevel::Premium, ServiceLevel::Ultra])
            .cold_pct(50.0)
            .cool_retrieval_pct(5.0)
            .reservation(ReservationTerm::OneYear)
            .peak(peak)
            .nconnect(4)
            .allow_unlisted_region(true)
            .allow_large_volumes(true)
            .shared_pool(true)
            .perf_system("anf-avs-av64")
            .stop(super::super::Stop::default());
        assert_eq!(set, by_hand);
        assert_eq!(set.clone().peak(None).peak, None);
        assert_ne!(set, OptimizeOptions::default());
    }
}

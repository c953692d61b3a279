//! The performance model: pure functions from a [`Layout`] and an [`IoProfile`] to a
//! [`Prediction`] of achievable IOPS and MiB/s, with the ceiling and utilisation of each
//! layer and the one that binds.
//!
//! # Layers
//! Every layer has a ceiling per I/O class (read/write x random/sequential) and a demand per
//! operation; by the utilisation law a layer allows `1 / sum(demand / ceiling)` operations
//! per second, so mixes combine by time (harmonic weighting of rates), never by arithmetic
//! averages. IOPS and MiB/s convert through the block size: `MiB/s = IOPS x KiB / 1024`.
//!
//! - [`Layer::Vm`]: per-VM ceilings (`vms_per_host` VMs per host).
//! - [`Layer::Flow`]: `hosts x datastores-used x nconnect` TCP flows, each with a per-flow
//!   IOPS and MiB/s ceiling.
//! - [`Layer::Host`]: contention across a host's flows (Gunther's Universal Scalability Law,
//!   held at its peak), NIC bandwidth, client CPU, client egress.
//! - [`Layer::Volume`]: each ANF volume's MiB/s ceiling (regular 4,500, large 12,800) and
//!   its random read/write operation ceilings (read/write asymmetry).
//! - [`Layer::CoolTier`]: cold reads served from the cool tier; re-warm writes (retrieval
//!   policy) load the volume.
//! - [`Layer::Array`], [`Layer::Link`], [`Layer::Backend`]: the other systems (all-flash
//!   array internal blocks, gateway links, cache misses going to the capacity tier, a
//!   vSAN cluster's devices).
//! - [`Layer::Network`]: a vSAN cluster's traffic between its hosts (the `vsan-<sku>`
//!   envelopes of AVS hosts, [`PerfModel::predict_vsan`]).
//! - [`Layer::Environment`]: an optional whole-system ceiling.
//! - [`Layer::Qos`]: the service level's throughput, a pure cap.
//!
//! # Calibration
//! The parameters of each system live in `data/systems/*.csv`; those marked `fit:GROUP` are
//! fitted by least squares (relative error) against the published figures in
//! `data/calibration/*.csv` (see [`FittedParam`] and [`PerfModel::calibration`]). The fit's
//! values are committed (`src/perf/fitted_params.rs`, which a test re-derives); at start-up
//! the model takes them and checks every calibration row.
//!
//! # Sources
//! Bracketed keys in the docs and in the `source` columns of `data/` are those of the
//! project's domain reference:
//! \[AVS-PERF\] learn.microsoft.com/azure/azure-netapp-files/performance-azure-vmware-solution-datastore;
//! \[AVS-BENCH\] .../performance-benchmarks-azure-vmware-solution;
//! \[LINUX-BENCH\] .../performance-benchmarks-linux;
//! \[SL\] .../azure-netapp-files-service-levels; \[LIMITS\] .../azure-netapp-files-resource-limits;
//! \[LARGE\] .../large-volumes-requirements-considerations;
//! \[COOL\] .../cool-access-introduction; \[COOL-PERF\] .../performance-considerations-cool-access;
//! \[VSAN-SYSBENCH\] StorageReview, VMware Virtual SAN review: scaled Sysbench OLTP performance;
//! \[VSAN-RULES\] VMware vSphere docs, vSAN planning (flash cache design);
//! \[VIOLIN-6000\] IT-Administrator, Nov 2014, Violin 6000 all-flash array with Hyper-V.
//!
//! ```
//! use dsplan::perf::{IoProfile, Layout, PerfModel};
//! let model = PerfModel::builtin()?;
//! let one = model.predict(&Layout::new(1, 1, 4500.0), &IoProfile::small_block())?;
//! let two = model.predict(&Layout::new(1, 2, 4500.0), &IoProfile::small_block())?;
//! assert!(two.iops > one.iops * 1.5);
//! # Ok::<(), dsplan::perf::PerfError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::catalog::{ServiceLevel, ServiceLevelSpec};

mod eval;
pub(crate) mod fit;
mod profile;
mod range;
mod vsan;

pub use eval::{usl, usl_envelope};
pub use fit::{CalibrationCheck, CalibrationRow, FittedParam, format_calibration_table};
pub use profile::{ProfileParams, SystemProfile, UslScope};
pub use range::{Extrapolation, MeasuredRange};
pub use vsan::{
    VSAN_PERFORMANCE_CSV, VSAN_SYSTEM_PREFIX, VsanHostPerf, VsanLayout, VsanPrediction,
    VsanWriteCost,
};

/// The system [`PerfModel::predict`] evaluates: ANF datastores on AVS.
pub const DEFAULT_SYSTEM: &str = "anf-avs";

/// Errors of the performance model: invalid layouts or profiles, bad data files.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PerfError {
    /// A layout or profile field is out of its valid range.
    #[error("invalid `{field}`: {value} ({expected})")]
    Invalid {
        /// The field (`hosts`, `block_size_kib` ...).
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A system profile file is malformed.
    #[error("system profile {profile}: row {row}: {detail}")]
    Profile {
        /// Profile name or path.
        profile: String,
        /// 1-based row (header = 1; 0 = the file as a whole).
        row: usize,
        /// What was wrong.
        detail: String,
    },
    /// A calibration file is malformed or a fit failed (a build defect for built-in data).
    #[error("calibration: {0}")]
    Calibration(String),
    /// A system name that is not built in.
    #[error("unknown system '{name}' (built in: {known})")]
    UnknownSystem {
        /// The name asked for.
        name: String,
        /// Comma-separated built-in names.
        known: String,
    },
}

/// An I/O profile: the shape of the workload. From JSON, a field it does not have is
/// refused, naming it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct IoProfile {
    /// Request size, KiB (> 0).
    pub block_size_kib: f64,
    /// Share of reads, percent 0..=100.
    pub read_pct: f64,
    /// Share of random I/O, percent 0..=100.
    pub random_pct: f64,
}

impl Default for IoProfile {
    /// The default shape of an IOPS target ([`crate::defaults`]): 8 KiB, 70% read, 80%
    /// random. The published measurements are 100% random ([`IoProfile::small_block`]).
    fn default() -> Self {
        IoProfile {
            block_size_kib: crate::defaults::BLOCK_SIZE_KIB,
            read_pct: crate::defaults::READ_PCT,
            random_pct: crate::defaults::RANDOM_PCT,
        }
    }
}

impl IoProfile {
    /// The published small-block shape: 8 KiB, 70% read, 100% random.
    pub fn small_block() -> IoProfile {
        IoProfile {
            block_size_kib: 8.0,
            read_pct: 70.0,
            random_pct: 100.0,
        }
    }

    /// The published large-block shape: 64 KiB sequential, 70% read.
    pub fn large_block() -> IoProfile {
        IoProfile {
            block_size_kib: 64.0,
            read_pct: 70.0,
            random_pct: 0.0,
        }
    }

    /// Checks ranges.
    ///
    /// # Errors
    /// [`PerfError::Invalid`] for a block size outside (0, 1024] KiB, or a
    /// percentage outside 0..=100.
    pub fn validate(&self) -> Result<(), PerfError> {
        if !(self.block_size_kib.is_finite()
            && self.block_size_kib > 0.0
            && self.block_size_kib <= MAX_BLOCK_SIZE_KIB)
        {
            return Err(PerfError::Invalid {
                field: "block_size_kib",
                value: self.block_size_kib.to_string(),
                expected: "a size above 0 and at most 1024 KiB (1 MiB)",
            });
        }
        for (field, v) in [("read_pct", self.read_pct), ("random_pct", self.random_pct)] {
            check_pct(field, v)?;
        }
        Ok(())
    }
}

/// Largest request an NFS datastore carries, KiB: ANF's NFS `rsize`/`wsize` maximum is
/// 1 MiB (learn.microsoft.com/azure/azure-netapp-files/performance-linux-mount-options).
pub const MAX_BLOCK_SIZE_KIB: f64 = 1024.0;

fn check_pct(field: &'static str, v: f64) -> Result<(), PerfError> {
    if (0.0..=100.0).contains(&v) {
        Ok(())
    } else {
        Err(PerfError::Invalid {
            field,
            value: crate::numbers::show_setting(v),
            expected: "a percentage from 0 to 100",
        })
    }
}

/// Parses a block size: `8K`, `8k`, `8KiB`, `64K`, `1M`, `1MiB`, or a bare number of KiB
/// (`8`). Returns KiB.
///
/// # Errors
/// [`PerfError::Invalid`] (field `block_size`) for anything else, or a size that is not
/// positive and finite.
pub fn parse_block_size_kib(s: &str) -> Result<f64, PerfError> {
    let bad = || PerfError::Invalid {
        field: "block_size_kib",
        value: s.to_string(),
        expected: "a positive size such as 4K, 8K, 64K, 1M or 8 (KiB)",
    };
    let t = s.trim().to_ascii_lowercase();
    let (num, mult) = if let Some(n) = t
        .strip_suffix("kib")
        .or_else(|| t.strip_suffix("kb"))
        .or_else(|| t.strip_suffix('k'))
    {
        (n, 1.0)
    } else if let Some(n) = t
        .strip_suffix("mib")
        .or_else(|| t.strip_suffix("mb"))
        .or_else(|| t.strip_suffix('m'))
    {
        (n, 1024.0)
    } else {
        (t.as_str(), 1.0)
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    let kib = v * mult;
    if kib.is_finite() && kib > 0.0 {
        Ok(kib)
    } else {
        Err(bad())
    }
}

/// Cool-access retrieval policy of a volume \[COOL\].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RetrievalPolicy {
    /// Random reads of cold data re-warm it into the hot tier (a hot write each);
    /// sequential reads are served from the cool tier without re-warming.
    #[default]
    Default,
    /// Every read of cold data re-warms it.
    OnRead,
    /// Cold data is served from the cool tier and never re-warmed.
    Never,
}

impl RetrievalPolicy {
    /// Lower-case name as on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            RetrievalPolicy::Default => "default",
            RetrievalPolicy::OnRead => "onread",
            RetrievalPolicy::Never => "never",
        }
    }
}

impl fmt::Display for RetrievalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RetrievalPolicy {
    type Err = PerfError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', '_'], "")
            .as_str()
        {
            "default" => Ok(RetrievalPolicy::Default),
            "onread" => Ok(RetrievalPolicy::OnRead),
            "never" => Ok(RetrievalPolicy::Never),
            _ => Err(PerfError::Invalid {
                field: "retrieval",
                value: s.to_string(),
                expected: "default, onread or never",
            }),
        }
    }
}

/// A datastore layout to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Layout {
    /// Hosts mounting every datastore (>= 1).
    pub hosts: u32,
    /// Datastores (ANF volumes) (>= 1).
    pub datastores: u32,
    /// TCP connections per host per datastore (1, or 4 on newer AVS builds).
    pub nconnect: u32,
    /// QoS throughput assigned to all datastores together, MiB/s; `None` = unlimited
    /// (to find the ceiling of the other layers).
    pub qos_throughput_mibps: Option<f64>,
    /// Throughput ceiling of one volume, MiB/s (regular 4,500; large 12,800; from the catalog).
    pub volume_max_throughput_mibps: f64,
    /// VMs per host generating the load; `None` (default) = enough VMs that the VM layer
    /// never binds and every datastore is used (systems whose contention law counts VMs,
    /// such as `vsan-hybrid`, take 1 VM per host).
    #[serde(default)]
    pub vms_per_host: Option<u32>,
    /// VMDKs per VM, spread round-robin over the datastores; `None` (default) = each VM
    /// spreads over every datastore.
    #[serde(default)]
    pub vmdks_per_vm: Option<u32>,
    /// Percent 0..=100 of the data (and so, with reads spread evenly over the data, of the
    /// reads) that sits in the cool tier; 0 (default) = cool access off.
    #[serde(default)]
    pub cool_pct: f64,
    /// Cool-access retrieval policy (default [`RetrievalPolicy::Default`]).
    #[serde(default)]
    pub retrieval: RetrievalPolicy,
    /// Active working set, GiB, for systems with a cache tier; `None` (default) = the
    /// profile's per-VM working set times the VMs.
    #[serde(default)]
    pub working_set_gib: Option<f64>,
    /// Requests kept in flight over the whole layout by a closed-loop load (threads x queue
    /// depth); when given, the prediction carries a latency by Little's law. `None` (default)
    /// = latency not modelled.
    #[serde(default)]
    pub outstanding_io: Option<f64>,
}

impl Layout {
    /// `hosts` x `datastores` volumes of the given ceiling, `nconnect` 1, no QoS limit,
    /// enough VMs and VMDKs to use every datastore, no cool data.
    pub fn new(hosts: u32, datastores: u32, volume_max_throughput_mibps: f64) -> Layout {
        Layout {
            hosts,
            datastores,
            nconnect: 1,
            qos_throughput_mibps: None,
            volume_max_throughput_mibps,
            vms_per_host: None,
            vmdks_per_vm: None,
            cool_pct: 0.0,
            retrieval: RetrievalPolicy::Default,
            working_set_gib: None,
            outstanding_io: None,
        }
    }

    /// Number of TCP flows when every datastore is used: hosts x datastores x nconnect.
    pub fn flows(&self) -> u64 {
        u64::from(self.hosts) * u64::from(self.datastores) * u64::from(self.nconnect)
    }

    /// Checks ranges.
    ///
    /// # Errors
    /// [`PerfError::Invalid`] for zero hosts, datastores, VMs or VMDKs, an `nconnect` other
    /// than 1 or 4, a volume ceiling that is not positive and finite, a negative or
    /// non-finite QoS or working set, or a cool percentage outside 0..=100.
    pub fn validate(&self) -> Result<(), PerfError> {
        let zero = |field: &'static str, expected: &'static str| PerfError::Invalid {
            field,
            value: "0".into(),
            expected,
        };
        if self.hosts == 0 {
            return Err(zero("hosts", "at least 1 host"));
        }
        if self.datastores == 0 {
            return Err(zero("datastores", "at least 1 datastore"));
        }
        if self.vms_per_host == Some(0) {
            return Err(zero("vms_per_host", "at least 1 VM per host"));
        }
        if self.vmdks_per_vm == Some(0) {
            return Err(zero("vmdks_per_vm", "at least 1 VMDK per VM"));
        }
        if self.nconnect != 1 && self.nconnect != 4 {
            return Err(PerfError::Invalid {
                field: "nconnect",
                value: self.nconnect.to_string(),
                expected: "1 or 4",
            });
        }
        if !(self.volume_max_throughput_mibps.is_finite() && self.volume_max_throughput_mibps > 0.0)
        {
            return Err(PerfError::Invalid {
                field: "volume_max_throughput_mibps",
                value: self.volume_max_throughput_mibps.to_string(),
                expected: "a positive MiB/s",
            });
        }
        for (field, v) in [
            ("qos_throughput_mibps", self.qos_throughput_mibps),
            ("working_set_gib", self.working_set_gib),
            ("outstanding_io", self.outstanding_io),
        ] {
            if let Some(q) = v
                && !(q.is_finite() && q >= 0.0)
            {
                return Err(PerfError::Invalid {
                    field,
                    value: q.to_string(),
                    expected: "a finite non-negative number",
                });
            }
        }
        check_pct("cool_pct", self.cool_pct)
    }
}

/// A layer of the model that can limit performance (in evaluation order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Layer {
    /// Per-VM ceilings.
    Vm,
    /// The TCP flows (hosts x datastores x nconnect), without contention.
    Flow,
    /// A host: contention across its flows (USL), NIC, client CPU and egress.
    Host,
    /// The per-volume (datastore) ceilings.
    Volume,
    /// The cool tier serving cold reads.
    CoolTier,
    /// An array's back-end operations (internal blocks).
    Array,
    /// Gateway links in front of an array.
    Link,
    /// The capacity tier behind a cache, loaded by cache misses; a vSAN cluster's devices.
    Backend,
    /// A vSAN cluster's traffic between its hosts, over the hosts' NICs.
    Network,
    /// The whole-system ceiling of an environment.
    Environment,
    /// The service level's throughput (QoS).
    Qos,
}

impl Layer {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Vm => "vm",
            Layer::Flow => "flow",
            Layer::Host => "host",
            Layer::Volume => "volume",
            Layer::CoolTier => "cool_tier",
            Layer::Array => "array",
            Layer::Link => "link",
            Layer::Backend => "backend",
            Layer::Network => "network",
            Layer::Environment => "environment",
            Layer::Qos => "qos",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The ceiling one layer puts on the profile.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LayerCeiling {
    /// Which layer.
    pub layer: Layer,
    /// Most IOPS this layer allows for the profile's mix at its block size.
    pub iops: f64,
    /// The same as MiB/s.
    pub throughput_mibps: f64,
    /// Predicted IOPS / this layer's IOPS (1 for the binding layer).
    pub utilization: f64,
}

/// What a layout achieves for a profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Prediction {
    /// Achievable IOPS at the profile's block size.
    pub iops: f64,
    /// Achievable MiB/s (= iops x block_KiB / 1024).
    pub throughput_mibps: f64,
    /// The layer with the lowest ceiling (the first in [`Layer`] order on a tie).
    pub bottleneck: Layer,
    /// Every present layer's ceiling, in [`Layer`] order.
    pub layers: Vec<LayerCeiling>,
    /// The system profile evaluated.
    pub system: String,
    /// For systems with a cache tier: whether the working set fits in the read cache.
    pub working_set_fits_cache: Option<bool>,
    /// Mean latency, ms, by Little's law (`outstanding_io / iops`), when the layout gives
    /// `outstanding_io` and the prediction is above zero; `None` = not modelled.
    pub latency_ms: Option<f64>,
}

/// Throughput a service level grants a pool (manual QoS: the datastores share it), MiB/s.
///
/// Standard/Premium/Ultra: `pool_size_tib x rate`, where the rate is `cool_access_rate`
/// (MiB/s per TiB, from [`crate::catalog::cool_access_rate_mibps_per_tib`]) when cool access
/// is on (`Some`), else the level's rate. Flexible: the included 128 MiB/s plus
/// `flexible_purchased_mibps`, at most 640 MiB/s per TiB; cool access keeps it. All rates
/// come from the catalog (`data/service_levels.csv`, `data/cool_access_rule.csv`) \[SL\],
/// \[COOL\].
///
/// # Errors
/// [`PerfError::Invalid`] for a pool size that is not positive and finite, or a negative or
/// non-finite purchased throughput or cool-access rate.
pub fn service_level_throughput_mibps(
    spec: &ServiceLevelSpec,
    pool_size_tib: f64,
    cool_access_rate: Option<f64>,
    flexible_purchased_mibps: f64,
) -> Result<f64, PerfError> {
    if !(pool_size_tib.is_finite() && pool_size_tib > 0.0) {
        return Err(PerfError::Invalid {
            field: "size_tib",
            value: pool_size_tib.to_string(),
            expected: "a positive number of TiB",
        });
    }
    if !(flexible_purchased_mibps.is_finite() && flexible_purchased_mibps >= 0.0) {
        return Err(PerfError::Invalid {
            field: "flexible_purchased_mibps",
            value: flexible_purchased_mibps.to_string(),
            expected: "a non-negative MiB/s",
        });
    }
    if let Some(r) = cool_access_rate
        && !(r.is_finite() && r >= 0.0)
    {
        return Err(PerfError::Invalid {
            field: "cool_access_rate",
            value: r.to_string(),
            expected: "a non-negative MiB/s per TiB",
        });
    }
    Ok(if spec.service_level == ServiceLevel::Flexible {
        (spec.included_throughput_mibps_per_pool + flexible_purchased_mibps)
            .min(spec.max_throughput_mibps_per_tib * pool_size_tib)
    } else {
        let rate = cool_access_rate.unwrap_or(spec.throughput_mibps_per_tib);
        spec.included_throughput_mibps_per_pool + rate * pool_size_tib
    })
}

/// The calibrated model: every built-in system profile, fitted, with its calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfModel {
    systems: BTreeMap<String, SystemProfile>,
    vsan: Vec<VsanHostPerf>,
    fitted: Vec<FittedParam>,
    rows: Vec<CalibrationRow>,
    checks: Vec<CalibrationCheck>,
}

static BUILTIN: OnceLock<Result<PerfModel, PerfError>> = OnceLock::new();

impl PerfModel {
    /// The model calibrated from the compiled-in `data/systems/*.csv` and
    /// `data/calibration/*.csv`: the `fit:` parameters take the committed fitted values,
    /// and every calibration row is checked (built once per process, then cloned).
    ///
    /// # Errors
    /// [`PerfError::Profile`] or [`PerfError::Calibration`] if the built-in data is
    /// malformed or a fit fails (a build defect).
    pub fn builtin() -> Result<PerfModel, PerfError> {
        BUILTIN.get_or_init(fit::build_builtin).clone()
    }

    pub(crate) fn from_parts(
        systems: BTreeMap<String, SystemProfile>,
        fitted: Vec<FittedParam>,
        rows: Vec<CalibrationRow>,
        checks: Vec<CalibrationCheck>,
    ) -> Result<PerfModel, PerfError> {
        Ok(PerfModel {
            systems,
            vsan: vsan::builtin_hosts()?,
            fitted,
            rows,
            checks,
        })
    }

    /// Predicts what `layout` achieves for `profile` on ANF datastores on AVS
    /// ([`DEFAULT_SYSTEM`]).
    ///
    /// # Errors
    /// [`PerfError::Invalid`] for an invalid layout ([`Layout::validate`]) or profile
    /// ([`IoProfile::validate`]).
    pub fn predict(&self, layout: &Layout, profile: &IoProfile) -> Result<Prediction, PerfError> {
        self.predict_system(self.system(DEFAULT_SYSTEM)?, layout, profile)
    }

    /// Predicts what `layout` achieves for `profile` on `system`.
    ///
    /// # Errors
    /// As [`PerfModel::predict`]; also [`PerfError::Invalid`] (field `system`) for a profile
    /// with no finite layer and no QoS.
    pub fn predict_system(
        &self,
        system: &SystemProfile,
        layout: &Layout,
        profile: &IoProfile,
    ) -> Result<Prediction, PerfError> {
        profile.validate()?;
        layout.validate()?;
        eval::evaluate(system, layout, profile)
    }

    /// A built-in system profile by name (`anf-avs`, `anf-avs-av64`, `anf-linux`,
    /// `vsan-hybrid`, `afa-smb3`).
    ///
    /// # Errors
    /// [`PerfError::UnknownSystem`] listing the built-in names.
    pub fn system(&self, name: &str) -> Result<&SystemProfile, PerfError> {
        self.systems
            .get(name.trim().to_ascii_lowercase().as_str())
            .ok_or_else(|| PerfError::UnknownSystem {
                name: crate::numbers::clip(name),
                known: self.systems.keys().cloned().collect::<Vec<_>>().join(", "),
            })
    }

    /// Every built-in system profile, by name.
    pub fn systems(&self) -> impl Iterator<Item = &SystemProfile> {
        self.systems.values()
    }

    /// The vSAN parts of every AVS host SKU (`data/vsan_performance.csv`), in file order:
    /// the `vsan-<sku>` envelopes of [`PerfModel::predict_vsan`].
    pub fn vsan_hosts(&self) -> &[VsanHostPerf] {
        &self.vsan
    }

    /// The vSAN parts of host SKU `sku` (`av36p`, or the system name `vsan-av36p`;
    /// trimmed, case-insensitive).
    ///
    /// # Errors
    /// [`PerfError::UnknownSystem`] listing the `vsan-<sku>` names.
    pub fn vsan_host(&self, sku: &str) -> Result<&VsanHostPerf, PerfError> {
        let key = sku.trim().to_ascii_lowercase();
        let key = key.strip_prefix(VSAN_SYSTEM_PREFIX).unwrap_or(&key);
        self.vsan
            .iter()
            .find(|h| h.sku == key)
            .ok_or_else(|| PerfError::UnknownSystem {
                name: crate::numbers::clip(sku),
                known: self
                    .vsan
                    .iter()
                    .map(|h| format!("{VSAN_SYSTEM_PREFIX}{}", h.sku))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// What `layout` delivers for `profile` on the vSAN of AVS hosts of `sku` (the
    /// `vsan-<sku>` envelope: the host path, the network and the devices, layer by layer in
    /// the [`VsanPrediction`]), its NICs at the NFS payload share fitted for the same NICs
    /// (`nic_efficiency` of `anf-avs`).
    ///
    /// # Errors
    /// [`PerfError::UnknownSystem`] for an unknown SKU; [`PerfError::Invalid`] for an
    /// invalid profile, no hosts or a write cost that is negative or not finite.
    pub fn predict_vsan(
        &self,
        sku: &str,
        layout: &VsanLayout,
        profile: &IoProfile,
    ) -> Result<VsanPrediction, PerfError> {
        profile.validate()?;
        let host = self.vsan_host(sku)?;
        let nic = self
            .system(DEFAULT_SYSTEM)?
            .params
            .nic_efficiency
            .unwrap_or(1.0);
        vsan::evaluate(host, nic, layout, profile)
    }

    /// Reads a user profile file (same columns as `data/systems/*.csv`). It may start from a
    /// built-in profile (`inherit,anf-avs`); it may not use `fit:` (only built-in profiles
    /// are calibrated).
    ///
    /// # Errors
    /// [`PerfError::Profile`] naming the row, [`PerfError::UnknownSystem`] for an unknown
    /// `inherit`.
    pub fn profile_from_csv(&self, name: &str, text: &str) -> Result<SystemProfile, PerfError> {
        let raw = profile::RawProfile::parse(name, text)?;
        if raw
            .entries
            .iter()
            .any(|(_, v)| matches!(v, profile::RawValue::Fit { .. }))
        {
            return Err(PerfError::Profile {
                profile: name.to_string(),
                row: 0,
                detail: "fit: is only for built-in profiles; give numbers".into(),
            });
        }
        let mut base = match &raw.inherit {
            Some(parent) => self.system(parent)?.clone(),
            None => SystemProfile::empty(name),
        };
        raw.apply(&mut base, &|_| None);
        Ok(base)
    }

    /// Each fitted parameter: value, group and the calibration rows it came from.
    pub fn fitted(&self) -> &[FittedParam] {
        &self.fitted
    }

    /// The calibration rows (one per published figure).
    pub fn calibration_rows(&self) -> &[CalibrationRow] {
        &self.rows
    }

    /// Every calibration row with the model's prediction and its error.
    pub fn calibration(&self) -> &[CalibrationCheck] {
        &self.checks
    }
}

#[cfg(test)]
mod tests;

//! System profiles: the parameters of one storage system, read from `data/systems/*.csv`
//! (or a user file of the same shape) and evaluated by the one layered model in
//! [`super::eval`].
//!
//! A profile file has the columns `parameter,value,unit,fit_min,fit_max,source`. `value` is
//! a number, `off` (the layer is absent), `fit:GROUP` (fitted at build time from the
//! calibration rows whose `fits` column names `GROUP`, searched within `fit_min..=fit_max`),
//! or text for the two text parameters `inherit` (start from another built-in profile) and
//! `usl_over` (`flows` or `vms`).

use serde::{Deserialize, Serialize};

use super::PerfError;

/// What the host contention law (Gunther's Universal Scalability Law) counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum UslScope {
    /// TCP flows of one host (datastores used by the host x `nconnect`); the law scales the
    /// per-flow ceiling (ANF over NFSv3 on AVS).
    #[default]
    Flows,
    /// VMs of the whole cluster; the law scales `usl_unit_iops` (hybrid vSAN).
    Vms,
}

macro_rules! params {
    ($( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        /// The numeric parameters of a system profile; `None` means the parameter (and the
        /// part of a layer it drives) is absent. Values quoted for fitted parameters are what the
        /// built-in calibration produces (checked against hand calculations in `src/perf/tests.rs`).
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        pub struct ProfileParams {
            $( $(#[$doc])* pub $name: Option<f64>, )*
        }

        impl ProfileParams {
            /// Names of every numeric parameter, as spelled in the profile files.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The slot of parameter `name`, if it exists.
            pub fn slot(&mut self, name: &str) -> Option<&mut Option<f64>> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }

            /// The value of parameter `name` (`None` if absent or unknown).
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $( stringify!($name) => self.$name, )*
                    _ => None,
                }
            }
        }
    };
}

params! {
    /// VM layer: most IOPS one VM reaches over many datastores (at any block size whose
    /// MiB/s stays under `vm_mibps`). ANF-AVS: fitted, ~147,000, from row
    /// `avs-1vm-8ds-8k` (1 VM, 8 datastores, 8 KiB 100% random read) [AVS-PERF].
    vm_iops,
    /// VM layer: most MiB/s one VM reaches. ANF-AVS: 2,786 typed from [AVS-PERF] (1 VM over
    /// 8 datastores, 64 KiB); not fittable because the 25 GbE host NIC binds first.
    vm_mibps,
    /// Flow layer: most IOPS one TCP flow (host x datastore x nconnect) carries. ANF-AVS:
    /// fitted, 76,000, from row `avs-1h-1ds-8k` [AVS-PERF].
    flow_iops,
    /// Flow layer: most MiB/s one flow carries. ANF-AVS: fitted, 2,148, from row
    /// `avs-1h-1ds-64k` [AVS-PERF].
    flow_mibps,
    /// Host layer: USL contention coefficient sigma. ANF-AVS: fitted, ~0.0968, from rows
    /// `avs-1h-2ds-ratio`, `avs-1h-4ds-ratio`, `avs-1h-4vm-4ds-8k`. vSAN: fitted, ~0.109,
    /// from `vsan-4vm`, `vsan-8vm`, `vsan-8vm-disk`.
    usl_sigma,
    /// Host layer: USL coherency coefficient kappa. ANF-AVS: fitted, ~0.0198, same rows as
    /// `usl_sigma`. vSAN: 0 (two points fit only sigma).
    usl_kappa,
    /// Host layer (USL over VMs): IOPS of one VM alone. vSAN: fitted, ~32,800 16 KiB IOPS,
    /// from `vsan-4vm`, `vsan-8vm`, `vsan-8vm-disk`.
    usl_unit_iops,
    /// Host layer: NIC line rate per host, Gbit/s (AV36: 25 [AVS-BENCH]).
    host_nic_gbps,
    /// Host layer: share of the NIC line rate NFS payload reaches. ANF-AVS: fitted, ~0.86,
    /// from rows `avs-1h-4vm-4ds-64k`, `avs-4h-4ds-64k`, `avs-1vm-8ds-64k`.
    nic_efficiency,
    /// Host layer: IOPS one host (client) can generate, any block size. AFA: fitted,
    /// 18,000, from row `afa-4k` (load generators ran out of CPU) [VIOLIN-6000].
    host_iops,
    /// Host layer: write (egress) MiB/s of one client. ANF Linux benchmark client: fitted,
    /// 2,400, from row `linux-64k-seq-write` [LINUX-BENCH].
    host_write_mibps,
    /// Volume layer on (1) or off (absent): each datastore carries at most the layout's
    /// `volume_max_throughput_mibps` in each direction.
    volume_layer,
    /// Volume layer: fixed part of the time of one random read, microseconds. ANF: fitted,
    /// ~0.935, from rows `linux-4k-rand-read`, `linux-8k-rand-read` [LINUX-BENCH].
    volume_read_op_fixed_us,
    /// Volume layer: per-KiB part of the time of one random read, microseconds per KiB.
    /// ANF: fitted, ~0.310, same rows as `volume_read_op_fixed_us`.
    volume_read_op_per_kib_us,
    /// Volume layer: random-write IOPS as a share of random-read IOPS. ANF: fitted,
    /// ~0.346, from rows `linux-8k-rand-write`, `avs-4h-1ds-8k` (least squares: -8.6% / +12.7%).
    volume_write_op_ratio,
    /// Cool tier: sequential reads of cold data one volume serves, MiB/s. ANF: fitted,
    /// 1,742, from row `cool-seq-read` [COOL-PERF].
    cool_seq_read_mibps,
    /// Cool tier: random reads of cold data one volume serves, MiB/s. ANF: fitted, 280,
    /// from row `cool-random-read` [COOL-PERF].
    cool_random_read_mibps,
    /// Array layer: back-end operations per second (AFA: rated 750,000 [VIOLIN-6000]).
    array_iops,
    /// Array layer: internal block, KiB; a request of B KiB costs ceil(B / block) operations
    /// (AFA: 4 [VIOLIN-6000]).
    array_block_kib,
    /// Link layer: gateway servers in the data path (AFA: 2 [VIOLIN-6000]).
    gateways,
    /// Link layer: line rate per gateway, Gbit/s (AFA: 2 x 10 GbE = 20 [VIOLIN-6000]).
    gateway_gbps,
    /// Link layer: share of the gateway line rate reached. AFA: fitted, ~0.59, from row
    /// `afa-64k` (~45,000 64 KiB IOPS) [VIOLIN-6000].
    link_efficiency,
    /// Cache tier: flash cache devices in the cluster (vSAN: 16 [VSAN-SYSBENCH]).
    cache_devices,
    /// Cache tier: size of one cache device, GB (decimal) (vSAN: 800 [VSAN-SYSBENCH]).
    cache_device_gb,
    /// Cache tier: share of the cache devices used as read cache (hybrid vSAN: 0.7, the
    /// 70/30 read-cache/write-buffer split of hybrid disk groups [VSAN-RULES]).
    read_cache_fraction,
    /// Cache tier: active data per VM, GB (decimal), when the layout gives no working set
    /// (vSAN: 875 = 3.5 TB / 4 VMs = 7 TB / 8 VMs [VSAN-SYSBENCH]).
    vm_working_set_gb,
    /// Back-end layer: IOPS the capacity tier (HDD) serves when every I/O misses the cache.
    /// vSAN: fitted, ~6,400 (= ~80 IOPS per each of the 80 10K HDDs), from row `vsan-12vm`.
    miss_iops,
    /// Environment layer: best whole-system IOPS (absent for the built-in profiles: the
    /// published whole-system figures are lower bounds of a 4-host test).
    env_iops,
    /// Environment layer: best whole-system MiB/s (absent for the built-in profiles).
    env_mibps,
    /// Calibration only: I/Os (16 KiB) per Sysbench transaction, to compare TPS rows.
    /// vSAN: fitted, ~35, from `vsan-4vm`, `vsan-8vm`, `vsan-8vm-disk`.
    ios_per_transaction,
}

/// One storage system's parameters, after inheritance and fitting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemProfile {
    /// Profile name (`anf-avs`, `anf-linux`, `vsan-hybrid`, `afa-smb3`, or a file's stem).
    pub name: String,
    /// What the host contention law counts.
    pub usl_over: UslScope,
    /// The numeric parameters.
    pub params: ProfileParams,
}

/// How one parameter is given in a profile file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawValue {
    /// A number.
    Number(f64),
    /// Absent.
    Off,
    /// Fitted in group `group` within `min..=max`.
    Fit { group: String, min: f64, max: f64 },
    /// Text (for `inherit` and `usl_over`).
    Text(String),
}

/// A profile file as written: entries in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawProfile {
    pub name: String,
    pub inherit: Option<String>,
    pub entries: Vec<(String, RawValue)>,
}

#[derive(Deserialize)]
struct Row {
    parameter: String,
    value: String,
    #[allow(dead_code)]
    unit: String,
    fit_min: Option<f64>,
    fit_max: Option<f64>,
    #[allow(dead_code)]
    source: String,
}

impl RawProfile {
    /// Parses a profile file named `name`.
    pub(crate) fn parse(name: &str, text: &str) -> Result<RawProfile, PerfError> {
        let err = |row: usize, detail: String| PerfError::Profile {
            profile: name.to_string(),
            row,
            detail,
        };
        let mut rdr = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let mut inherit = None;
        let mut entries = Vec::new();
        let headers = rdr
            .headers()
            .map_err(|e| err(1, crate::catalog::csv_detail(&e, None)))?
            .clone();
        for (i, rec) in rdr.records().enumerate() {
            let row = i + 2;
            let r: Row =
                crate::catalog::deserialize_record(&headers, rec).map_err(|d| err(row, d))?;
            let v = r.value.trim();
            let value = if r.parameter == "inherit" {
                inherit = Some(v.to_string());
                continue;
            } else if r.parameter == "usl_over" {
                if v != "flows" && v != "vms" {
                    return Err(err(row, format!("usl_over '{v}' (expected flows or vms)")));
                }
                RawValue::Text(v.to_string())
            } else if !ProfileParams::NAMES.contains(&r.parameter.as_str()) {
                return Err(err(
                    row,
                    format!(
                        "unknown parameter '{}' (known: inherit, usl_over, {})",
                        r.parameter,
                        ProfileParams::NAMES.join(", ")
                    ),
                ));
            } else if v.eq_ignore_ascii_case("off") {
                RawValue::Off
            } else if let Some(group) = v.strip_prefix("fit:") {
                let (Some(min), Some(max)) = (r.fit_min, r.fit_max) else {
                    return Err(err(
                        row,
                        "a fitted parameter needs fit_min and fit_max".into(),
                    ));
                };
                if !(min.is_finite() && max.is_finite() && min >= 0.0 && min < max) {
                    return Err(err(row, format!("bad fit range {min}..{max}")));
                }
                RawValue::Fit {
                    group: group.to_string(),
                    min,
                    max,
                }
            } else {
                let x: f64 = v.parse().map_err(|_| {
                    err(
                        row,
                        format!("value '{v}' is not a number, off or fit:GROUP"),
                    )
                })?;
                if !(x.is_finite() && x >= 0.0) {
                    return Err(err(row, format!("value {x} must be finite and >= 0")));
                }
                RawValue::Number(x)
            };
            entries.push((r.parameter, value));
        }
        Ok(RawProfile {
            name: name.to_string(),
            inherit,
            entries,
        })
    }

    /// Applies this file's entries on top of `base`; `fitted(param)` gives the current value
    /// of a fitted parameter (None while it is not fitted yet).
    pub(crate) fn apply(&self, base: &mut SystemProfile, fitted: &dyn Fn(&str) -> Option<f64>) {
        base.name.clone_from(&self.name);
        for (name, value) in &self.entries {
            if name == "usl_over" {
                if let RawValue::Text(t) = value {
                    base.usl_over = if t == "vms" {
                        UslScope::Vms
                    } else {
                        UslScope::Flows
                    };
                }
                continue;
            }
            let v = match value {
                RawValue::Number(x) => Some(*x),
                RawValue::Off => None,
                RawValue::Fit { .. } => fitted(name),
                RawValue::Text(_) => None,
            };
            if let Some(slot) = base.params.slot(name) {
                *slot = v;
            }
        }
    }
}

impl SystemProfile {
    /// An empty profile: no layer at all.
    pub fn empty(name: &str) -> SystemProfile {
        SystemProfile {
            name: name.to_string(),
            usl_over: UslScope::Flows,
            params: ProfileParams::default(),
        }
    }
}

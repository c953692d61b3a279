//! Flags shared by `dsplan predict` and `dsplan sweep`: system, service level, workload.

use std::path::Path;

use dsplan::catalog::{
    Catalog, CoolThroughputRule, ServiceLevel, ServiceLevelSpec, cool_access_rate_mibps_per_tib,
};
use dsplan::defaults;
use dsplan::perf::{
    IoProfile, Layout, PerfModel, RetrievalPolicy, SystemProfile, parse_block_size_kib,
    service_level_throughput_mibps,
};

/// Workload, system and service-level flags.
#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// System profile: anf-avs (default, AV36 25 GbE hosts), anf-avs-av64 (100 GbE hosts),
    /// anf-linux, vsan-hybrid, afa-smb3, or a profile
    /// CSV file (columns as data/systems/*.csv; may `inherit` a built-in profile); `predict`
    /// also takes the vSAN envelope of AVS hosts, vsan-<sku> (vsan-av36p, ...).
    #[arg(long, default_value = "anf-avs")]
    pub system: String,
    /// ANF service level of the pool (standard, premium, ultra, flexible); needs --size-tib.
    /// Without it the QoS layer is off (the ceiling of the other layers).
    #[arg(long)]
    pub service_level: Option<String>,
    /// Pool size, TiB (for --service-level).
    #[arg(long)]
    pub size_tib: Option<f64>,
    /// Flexible service level: throughput purchased on top of the included 128 MiB/s.
    #[arg(long, default_value_t = 0.0)]
    pub flexible_mibps: f64,
    /// Use large volumes (12,800 MiB/s each) instead of regular ones (4,500 MiB/s).
    #[arg(long)]
    pub large_volume: bool,
    /// Request size: 4K, 8K, 64K, 1M, or a number of KiB.
    #[arg(long, default_value_t = format!("{}K", defaults::BLOCK_SIZE_KIB),
          allow_hyphen_values = true)]
    pub block_size: String,
    /// Reads, percent 0..100.
    #[arg(long, default_value_t = defaults::READ_PCT)]
    pub read_pct: f64,
    /// Random I/O, percent 0..100.
    #[arg(long, default_value_t = defaults::RANDOM_PCT)]
    pub random_pct: f64,
    /// Data in the cool tier, percent 0..100 (> 0 enables cool access, which lowers the
    /// Premium/Ultra rate per TiB).
    #[arg(long, default_value_t = 0.0)]
    pub cool_pct: f64,
    /// Azure region (ARM name) whose cool-access throughput rule applies with --cool-pct and
    /// --service-level: the per-volume rule (the lower of it and the legacy 36 / 68 MiB/s per
    /// TiB, as `plan` does) where data/cool_access_regions.csv lists the region, else the
    /// legacy rate.
    #[arg(long, default_value = defaults::REGION)]
    pub region: String,
    /// Cool-access retrieval policy: default, onread or never.
    #[arg(long, default_value = "default")]
    pub retrieval: String,
    /// VMs per host (default: enough to use every datastore; vSAN: 1).
    #[arg(long, value_parser = super::counts::per_count)]
    pub vms_per_host: Option<u32>,
    /// VMDKs per VM, spread over the datastores (default: every datastore).
    #[arg(long, value_parser = super::counts::per_count)]
    pub vmdks_per_vm: Option<u32>,
    /// TCP connections per host per datastore: 1 or 4.
    #[arg(long, default_value_t = 1, value_parser = super::counts::nconnect)]
    pub nconnect: u32,
    /// Active working set, GiB (cache-tier systems; default: the profile's per-VM figure).
    #[arg(long)]
    pub working_set_gib: Option<f64>,
    /// Withdrawn: a latency by Little's law at the predicted ceiling is not a latency model,
    /// so `predict` and `sweep` give none; the flag is refused with that reason.
    #[arg(long, hide = true)]
    pub outstanding_io: Option<f64>,
}

/// Refuses a host count outside 1..=`max_hosts` of an AVS cluster (`data/limits.csv`): the
/// hosts mount every datastore, so they are one cluster's.
///
/// # Errors
/// A message naming `flag`, the value and the range.
pub fn check_hosts(flag: &str, hosts: u32) -> Result<(), String> {
    let limits = Catalog::builtin().map_err(|e| e.to_string())?.limits;
    check_count(
        flag,
        hosts,
        limits.max_hosts,
        "the hosts of one AVS cluster, which mount every datastore; data/limits.csv max_hosts",
    )
}

/// Refuses a datastore count outside 1..=`max_datastores` (256 per AVS cluster by request,
/// `data/limits.csv`), the cap of `plan` and `sweep`.
///
/// # Errors
/// A message naming `flag`, the value and the range.
pub fn check_datastores(flag: &str, datastores: u32) -> Result<(), String> {
    let limits = Catalog::builtin().map_err(|e| e.to_string())?.limits;
    check_count(
        flag,
        datastores,
        limits.max_datastores,
        "datastores per AVS cluster, data/limits.csv max_datastores",
    )
}

/// Refuses `value` outside 1..=`max`, naming `flag` and what the range is (`why`).
fn check_count(flag: &str, value: u32, max: u32, why: &str) -> Result<(), String> {
    if value == 0 || value > max {
        return Err(format!("invalid {flag} {value}: 1..={max} ({why})"));
    }
    Ok(())
}

/// Refuses a pool size outside `pool_min_tib..=pool_max_tib` (1..=2,048 TiB,
/// `data/limits.csv`), or not finite.
fn check_size_tib(catalog: &Catalog, size_tib: f64) -> Result<(), String> {
    let (min, max) = (catalog.limits.pool_min_tib, catalog.limits.pool_max_tib);
    if !(min..=max).contains(&size_tib) {
        return Err(format!(
            "invalid --size-tib {}: {}..={} TiB (an ANF capacity pool, data/limits.csv \
             pool_min_tib, pool_max_tib)",
            dsplan::numbers::show_number(size_tib),
            dsplan::numbers::show_number(min),
            dsplan::numbers::show_number(max)
        ));
    }
    Ok(())
}

/// Refuses purchased Flexible throughput on a level that is not Flexible, and more than a
/// Flexible pool of `size_tib` can reach: `max_throughput_mibps_per_tib` x size (640 MiB/s
/// per TiB, 5 x the 128 MiB/s included, `data/service_levels.csv`) less the included 128.
fn check_flexible_mibps(spec: &ServiceLevelSpec, size_tib: f64, bought: f64) -> Result<(), String> {
    if bought == 0.0 {
        return Ok(());
    }
    if spec.service_level != ServiceLevel::Flexible {
        return Err(format!(
            "--flexible-mibps {bought}: purchased throughput is for the flexible service level \
             only, not {}",
            spec.service_level
        ));
    }
    let included = spec.included_throughput_mibps_per_pool;
    let ceiling = spec.max_throughput_mibps_per_tib * size_tib;
    if included + bought > ceiling {
        let times = spec.max_throughput_mibps_per_tib / included.max(f64::MIN_POSITIVE);
        return Err(format!(
            "invalid --flexible-mibps {bought}: a {size_tib} TiB flexible pool reaches at most \
             {ceiling} MiB/s ({} MiB/s per TiB, {times} x the {included} MiB/s included, \
             data/service_levels.csv), so at most {} MiB/s can be bought on top",
            spec.max_throughput_mibps_per_tib,
            (ceiling - included).max(0.0)
        ));
    }
    Ok(())
}

/// Everything a prediction needs, resolved from the flags.
pub struct Resolved {
    /// The calibrated model.
    pub model: PerfModel,
    /// The system profile.
    pub system: SystemProfile,
    /// The I/O profile.
    pub io: IoProfile,
    /// The layout for 1 host x 1 datastore (callers set hosts and datastores).
    pub layout: Layout,
    /// With --service-level and --cool-pct > 0: the cool-access rule applied and its rate,
    /// MiB/s per TiB.
    pub cool_rate: Option<(CoolThroughputRule, f64)>,
}

impl CommonArgs {
    /// The workload of `--block-size`, `--read-pct` and `--random-pct`.
    ///
    /// # Errors
    /// A message naming the flag that is wrong.
    pub fn io_profile(&self) -> Result<IoProfile, String> {
        let block = parse_block_size_kib(&self.block_size).map_err(|e| e.to_string())?;
        let io = IoProfile {
            block_size_kib: block,
            read_pct: self.read_pct,
            random_pct: self.random_pct,
        };
        io.validate().map_err(|e| e.to_string())?;
        Ok(io)
    }

    /// The model, the system profile (built in or a file), the workload, the layout's
    /// settings and the QoS these flags describe.
    ///
    /// # Errors
    /// A message naming the invalid flag or value.
    pub fn resolve(&self) -> Result<Resolved, String> {
        let model = PerfModel::builtin().map_err(|e| e.to_string())?;
        let system = if model.system(&self.system).is_ok() {
            model
                .system(&self.system)
                .map_err(|e| e.to_string())?
                .clone()
        } else if Path::new(&self.system).is_file() {
            let text = std::fs::read_to_string(&self.system)
                .map_err(|e| format!("--system {}: {e}", self.system))?;
            let stem = Path::new(&self.system)
                .file_stem()
                .map_or_else(|| self.system.clone(), |s| s.to_string_lossy().into_owned());
            model
                .profile_from_csv(&stem, &text)
                .map_err(|e| e.to_string())?
        } else {
            let what = if Path::new(&self.system).exists() {
                "not a regular file"
            } else {
                "and no such file"
            };
            let envelopes: Vec<String> = model
                .vsan_hosts()
                .iter()
                .map(|h| format!("{}{}", dsplan::perf::VSAN_SYSTEM_PREFIX, h.sku))
                .collect();
            return Err(model
                .system(&self.system)
                .err()
                .map_or_else(String::new, |e| {
                    format!(
                        "--system: {e}, {what}; `predict` also takes the vSAN envelopes of AVS \
                     hosts: {}",
                        envelopes.join(", ")
                    )
                }));
        };
        let catalog = Catalog::builtin().map_err(|e| e.to_string())?;
        let io = self.io_profile()?;
        let volume = if self.large_volume {
            catalog.limits.large_volume_max_throughput_mibps
        } else {
            catalog.limits.volume_max_throughput_mibps
        };
        let mut layout = Layout::new(1, 1, volume);
        layout.nconnect = self.nconnect;
        layout.vms_per_host = self.vms_per_host;
        layout.vmdks_per_vm = self.vmdks_per_vm;
        layout.cool_pct = self.cool_pct;
        layout.retrieval = self
            .retrieval
            .parse::<RetrievalPolicy>()
            .map_err(|e| format!("--retrieval: {e}"))?;
        layout.working_set_gib = self.working_set_gib;
        if let Some(n) = self.outstanding_io {
            return Err(format!(
                "--outstanding-io {n}: no latency is predicted: Little's law at the predicted \
                 ceiling (e.g. 64 requests in flight at 400,000 IOPS = 0.16 ms) is not a latency \
                 model, so the flag was withdrawn"
            ));
        }
        let (qos, cool_rate) = self.qos(&catalog)?;
        layout.qos_throughput_mibps = qos;
        Ok(Resolved {
            model,
            system,
            io,
            layout,
            cool_rate,
        })
    }

    /// The pool's QoS (with --service-level and --size-tib) and, with cool access, the rule
    /// and rate applied in --region.
    fn qos(&self, catalog: &Catalog) -> Result<QosAndCoolRate, String> {
        let prices = catalog
            .region(&self.region)
            .map_err(|e| format!("--region: {e}"))?;
        match (&self.service_level, self.size_tib) {
            (Some(level), Some(tib)) => {
                let level: ServiceLevel =
                    level.parse().map_err(|e| format!("--service-level: {e}"))?;
                let spec = catalog.service_level(level).map_err(|e| e.to_string())?;
                check_size_tib(catalog, tib)?;
                check_flexible_mibps(spec, tib, self.flexible_mibps)?;
                let cool = (self.cool_pct > 0.0).then(|| {
                    let rule = catalog.cool_access.rule(&prices.region, level);
                    (
                        rule,
                        cool_access_rate_mibps_per_tib(spec, self.cool_pct / 100.0, rule),
                    )
                });
                let q = service_level_throughput_mibps(
                    spec,
                    tib,
                    cool.map(|c| c.1),
                    self.flexible_mibps,
                )
                .map_err(|e| e.to_string())?;
                Ok((Some(q), cool))
            }
            (Some(_), None) => Err("--service-level needs --size-tib".into()),
            (None, Some(_)) => Err("--size-tib needs --service-level".into()),
            (None, None) if self.flexible_mibps != 0.0 => Err(format!(
                "--flexible-mibps {} needs --service-level flexible and --size-tib",
                self.flexible_mibps
            )),
            (None, None) => Ok((None, None)),
        }
    }
}

/// A pool's QoS, MiB/s, and the cool-access rule and rate (MiB/s per TiB) it rests on.
type QosAndCoolRate = (Option<f64>, Option<(CoolThroughputRule, f64)>);

//! Calibration: the published figures (`data/calibration/*.csv`, one row each), the fit of
//! the `fit:GROUP` parameters of the system profiles against them, and the check of every
//! row.
//!
//! Each group is fitted in the order it first appears in the profile files (`anf-avs`,
//! `anf-linux`, `vsan-hybrid`, `afa-smb3`), parameters not yet fitted being absent. A group
//! minimises the sum of squared relative errors `(predicted / published - 1)^2` over its
//! rows: a grid scan of the search box (log-spaced where the lower bound is positive), then
//! golden-section search (one parameter) or Nelder-Mead (several) from the best grid point.
//!
//! The search is not run by the crate: its result, each fitted value's `f64` bits, is
//! committed in `src/perf/fitted_params.rs`, which [`build_builtin`] takes instead of
//! searching (then it resolves the profiles and checks every calibration row). A test
//! (`fitted_params_file_equals_a_fresh_fit`, with `fit_builtin`) re-runs the search and fails
//! when that file differs from `fitted_params_source` of its result, bit for bit;
//! `DSPLAN_BLESS_FIT=1 cargo test --lib fitted_params_file` rewrites it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::profile::{RawProfile, RawValue, SystemProfile};
use super::{
    IoProfile, Layout, PerfError, PerfModel, RetrievalPolicy, parse_block_size_kib,
    service_level_throughput_mibps,
};
use crate::catalog::{Catalog, CoolThroughputRule, ServiceLevel, cool_access_rate_mibps_per_tib};

/// The built-in system profiles, in fitting order (`anf-avs-av64` has no fitted
/// parameters of its own: it inherits `anf-avs` with the AV64's 100 GbE NIC).
const PROFILES: &[(&str, &str)] = &[
    ("anf-avs", include_str!("../../data/systems/anf-avs.csv")),
    (
        "anf-avs-av64",
        include_str!("../../data/systems/anf-avs-av64.csv"),
    ),
    (
        "anf-linux",
        include_str!("../../data/systems/anf-linux.csv"),
    ),
    (
        "vsan-hybrid",
        include_str!("../../data/systems/vsan-hybrid.csv"),
    ),
    ("afa-smb3", include_str!("../../data/systems/afa-smb3.csv")),
];

/// The built-in calibration files.
const CALIBRATION: &[(&str, &str)] = &[
    ("anf.csv", include_str!("../../data/calibration/anf.csv")),
    (
        "vsan-hybrid.csv",
        include_str!("../../data/calibration/vsan-hybrid.csv"),
    ),
    (
        "afa-smb3.csv",
        include_str!("../../data/calibration/afa-smb3.csv"),
    ),
];

/// Default tolerance of a calibration row, percent.
const DEFAULT_TOLERANCE_PCT: f64 = 15.0;

/// How a row's read share is evaluated.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ReadSpec {
    /// One read percentage.
    Pct(f64),
    /// The mean over the published write% sweep, evaluated at read 0, 10, ..., 100 %.
    Sweep,
    /// The best point of that sweep.
    Peak,
}

#[derive(Debug, Clone, PartialEq)]
struct Setup {
    layout: Layout,
    block_size_kib: f64,
    read: ReadSpec,
    random_pct: f64,
}

/// One published figure (a row of `data/calibration/*.csv`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationRow {
    /// Row id (`avs-1h-1ds-8k`).
    pub id: String,
    /// System profile that evaluates it.
    pub system: String,
    /// `key=value` pairs: hosts, datastores, nconnect, vms_per_host, vmdks_per_vm, cool_pct,
    /// retrieval, cool_access, working_set_gib, outstanding_io, volume_mibps, qos_mibps,
    /// service_level, size_tib.
    pub configuration: String,
    /// `block=8K read=70|sweep|peak random=100`.
    pub workload: String,
    /// The published value.
    pub value: f64,
    /// `IOPS`, `MiB/s`, `GB/s`, `MB/s/host`, `TPS`, `ms` (latency by Little's law from
    /// `outstanding_io` requests), `ms/txn` (the same with `outstanding_io` counted in
    /// transactions), `ratio_iops`, `ratio_mibps`.
    pub unit: String,
    /// For ratios: the row whose prediction is the denominator.
    pub baseline: Option<String>,
    /// Accepted relative error, percent (default 15).
    pub tolerance_pct: f64,
    /// The fit group this row determines (`None` = the row only checks the model).
    pub fits: Option<String>,
    /// Where the figure is published.
    pub source: String,
    #[serde(skip)]
    setup: Setup,
}

impl CalibrationRow {
    /// The layout the row was measured with.
    pub(crate) fn layout(&self) -> &Layout {
        &self.setup.layout
    }
}

/// A calibration row with the model's prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationCheck {
    /// Row id.
    pub id: String,
    /// System profile.
    pub system: String,
    /// Configuration and workload of the figure.
    pub figure: String,
    /// Published value.
    pub published: f64,
    /// Predicted value, same unit.
    pub predicted: f64,
    /// Unit of both.
    pub unit: String,
    /// `(predicted / published - 1) x 100`.
    pub error_pct: f64,
    /// Accepted |error|, percent.
    pub tolerance_pct: f64,
    /// `fit:GROUP` when the row determines parameters, else `check`.
    pub role: String,
    /// `|error_pct| <= tolerance_pct`.
    pub within_tolerance: bool,
}

/// A fitted parameter of a built-in profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FittedParam {
    /// Profile that declares it.
    pub system: String,
    /// Parameter name (a field of [`super::ProfileParams`]).
    pub parameter: String,
    /// Fit group.
    pub group: String,
    /// Fitted value.
    pub value: f64,
    /// Ids of the calibration rows it was fitted to.
    pub rows: Vec<String>,
    /// Root-mean-square relative error of those rows after the fit, percent.
    pub rms_error_pct: f64,
}

#[derive(Deserialize)]
struct RawRow {
    id: String,
    system: String,
    configuration: String,
    workload: String,
    value: f64,
    unit: String,
    baseline: Option<String>,
    tolerance_pct: Option<f64>,
    fits: Option<String>,
    source: String,
}

const UNITS: &[&str] = &[
    "IOPS",
    "MiB/s",
    "GB/s",
    "MB/s/host",
    "TPS",
    "ms",
    "ms/txn",
    "ratio_iops",
    "ratio_mibps",
];

fn parse_setup(configuration: &str, workload: &str, catalog: &Catalog) -> Result<Setup, String> {
    let mut layout = Layout::new(1, 1, catalog.limits.volume_max_throughput_mibps);
    let mut level: Option<ServiceLevel> = None;
    let mut size_tib: Option<f64> = None;
    let mut cool_access = false;
    let num = |k: &str, v: &str| -> Result<f64, String> {
        v.parse::<f64>()
            .map_err(|_| format!("{k}={v}: not a number"))
    };
    let int = |k: &str, v: &str| -> Result<u32, String> {
        v.parse::<u32>()
            .map_err(|_| format!("{k}={v}: not a whole number"))
    };
    for kv in configuration.split_whitespace() {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("'{kv}' is not key=value"))?;
        match k {
            "hosts" => layout.hosts = int(k, v)?,
            "datastores" => layout.datastores = int(k, v)?,
            "nconnect" => layout.nconnect = int(k, v)?,
            "vms_per_host" => layout.vms_per_host = Some(int(k, v)?),
            "vmdks_per_vm" => layout.vmdks_per_vm = Some(int(k, v)?),
            "cool_pct" => layout.cool_pct = num(k, v)?,
            "retrieval" => {
                layout.retrieval = v.parse::<RetrievalPolicy>().map_err(|e| e.to_string())?
            }
            "cool_access" => cool_access = v == "on",
            "working_set_gib" => layout.working_set_gib = Some(num(k, v)?),
            "outstanding_io" => layout.outstanding_io = Some(num(k, v)?),
            "volume_mibps" => layout.volume_max_throughput_mibps = num(k, v)?,
            "qos_mibps" => layout.qos_throughput_mibps = Some(num(k, v)?),
            "service_level" => {
                level = Some(v.parse::<ServiceLevel>().map_err(|e| e.to_string())?);
            }
            "size_tib" => size_tib = Some(num(k, v)?),
            other => return Err(format!("unknown configuration key '{other}'")),
        }
    }
    if let (Some(level), Some(size)) = (level, size_tib) {
        let spec = catalog.service_level(level).map_err(|e| e.to_string())?;
        // The cool-access measurements [COOL-PERF] (2024-10-17) predate the per-volume
        // rule: the legacy flat rate is what they ran under.
        let cool = (cool_access || layout.cool_pct > 0.0).then(|| {
            cool_access_rate_mibps_per_tib(
                spec,
                layout.cool_pct / 100.0,
                CoolThroughputRule::Legacy,
            )
        });
        let q = service_level_throughput_mibps(spec, size, cool, 0.0).map_err(|e| e.to_string())?;
        layout.qos_throughput_mibps = Some(q);
    }
    layout.validate().map_err(|e| e.to_string())?;
    let mut block = None;
    let mut read = None;
    let mut random = None;
    for kv in workload.split_whitespace() {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("'{kv}' is not key=value"))?;
        match k {
            "block" => block = Some(parse_block_size_kib(v).map_err(|e| e.to_string())?),
            "read" => {
                read = Some(match v {
                    "sweep" => ReadSpec::Sweep,
                    "peak" => ReadSpec::Peak,
                    _ => ReadSpec::Pct(num(k, v)?),
                });
            }
            "random" => random = Some(num(k, v)?),
            other => return Err(format!("unknown workload key '{other}'")),
        }
    }
    let (Some(block_size_kib), Some(read), Some(random_pct)) = (block, read, random) else {
        return Err("workload needs block=, read= and random=".into());
    };
    Ok(Setup {
        layout,
        block_size_kib,
        read,
        random_pct,
    })
}

fn parse_rows(file: &str, text: &str, catalog: &Catalog) -> Result<Vec<CalibrationRow>, PerfError> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, rec) in rdr.deserialize::<RawRow>().enumerate() {
        let err = |d: String| PerfError::Calibration(format!("{file}: row {}: {d}", i + 2));
        let r = rec.map_err(|e| err(e.to_string()))?;
        if !UNITS.contains(&r.unit.as_str()) {
            return Err(err(format!(
                "unit '{}' (expected one of {})",
                r.unit,
                UNITS.join(", ")
            )));
        }
        if r.unit.starts_with("ms")
            && r.configuration
                .split_whitespace()
                .all(|kv| !kv.starts_with("outstanding_io="))
        {
            return Err(err(
                "a latency needs outstanding_io= in the configuration".into()
            ));
        }
        if r.unit.starts_with("ratio") && r.baseline.is_none() {
            return Err(err("a ratio needs a baseline row".into()));
        }
        if !(r.value.is_finite() && r.value > 0.0) {
            return Err(err(format!("value {} must be positive", r.value)));
        }
        let setup = parse_setup(&r.configuration, &r.workload, catalog)
            .map_err(|d| err(format!("{}: {d}", r.id)))?;
        out.push(CalibrationRow {
            id: r.id,
            system: r.system,
            configuration: r.configuration,
            workload: r.workload,
            value: r.value,
            unit: r.unit,
            baseline: r.baseline.filter(|b| !b.is_empty()),
            tolerance_pct: r.tolerance_pct.unwrap_or(DEFAULT_TOLERANCE_PCT),
            fits: r.fits.filter(|f| !f.is_empty()),
            source: r.source,
            setup,
        });
    }
    Ok(out)
}

/// Predicted IOPS of a setup (mean or best over a sweep).
fn setup_iops(s: &Setup, p: &SystemProfile) -> Result<f64, PerfError> {
    let reads: Vec<f64> = match s.read {
        ReadSpec::Pct(r) => vec![r],
        ReadSpec::Sweep | ReadSpec::Peak => (0..=10).map(|i| f64::from(i) * 10.0).collect(),
    };
    let mut sum = 0.0;
    let mut best: f64 = 0.0;
    for read_pct in &reads {
        let io = IoProfile {
            block_size_kib: s.block_size_kib,
            read_pct: *read_pct,
            random_pct: s.random_pct,
        };
        io.validate()?;
        let pr = super::eval::evaluate(p, &s.layout, &io)?;
        sum += pr.iops;
        best = best.max(pr.iops);
    }
    Ok(match s.read {
        ReadSpec::Peak => best,
        _ => sum / reads.len() as f64,
    })
}

/// The model's value for a row, in the row's unit.
fn measure(
    row: &CalibrationRow,
    rows: &[CalibrationRow],
    systems: &BTreeMap<String, SystemProfile>,
) -> Result<f64, PerfError> {
    let p = systems.get(&row.system).ok_or_else(|| {
        PerfError::Calibration(format!("{}: unknown system {}", row.id, row.system))
    })?;
    let iops = setup_iops(&row.setup, p)?;
    let mibps = iops * row.setup.block_size_kib / 1024.0;
    let base = || -> Result<(f64, f64), PerfError> {
        let id = row.baseline.as_deref().unwrap_or_default();
        let b = rows
            .iter()
            .find(|r| r.id == id)
            .ok_or_else(|| PerfError::Calibration(format!("{}: no baseline row '{id}'", row.id)))?;
        let bp = systems
            .get(&b.system)
            .ok_or_else(|| PerfError::Calibration(format!("{id}: unknown system")))?;
        let bi = setup_iops(&b.setup, bp)?;
        Ok((bi, bi * b.setup.block_size_kib / 1024.0))
    };
    Ok(match row.unit.as_str() {
        "IOPS" => iops,
        "MiB/s" => mibps,
        "GB/s" => mibps * 1_048_576.0 / 1e9,
        "MB/s/host" => mibps * 1.048_576 / f64::from(row.setup.layout.hosts),
        "TPS" => iops / p.params.ios_per_transaction.unwrap_or(f64::NAN),
        "ms" | "ms/txn" => {
            let n = row.setup.layout.outstanding_io.unwrap_or(f64::NAN);
            let rate = if row.unit == "ms" {
                iops
            } else {
                iops / p.params.ios_per_transaction.unwrap_or(f64::NAN)
            };
            n / rate * 1000.0
        }
        "ratio_iops" => iops / base()?.0,
        _ => mibps / base()?.1,
    })
}

fn key(system: &str, param: &str) -> String {
    format!("{system}/{param}")
}

fn resolve(
    raws: &[RawProfile],
    name: &str,
    values: &BTreeMap<String, f64>,
    depth: usize,
) -> Result<SystemProfile, PerfError> {
    let raw = raws
        .iter()
        .find(|r| r.name == name)
        .filter(|_| depth < 8)
        .ok_or_else(|| PerfError::UnknownSystem {
            name: name.to_string(),
            known: raws
                .iter()
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let mut base = match &raw.inherit {
        Some(parent) => resolve(raws, parent, values, depth + 1)?,
        None => SystemProfile::empty(name),
    };
    raw.apply(&mut base, &|param| values.get(&key(name, param)).copied());
    Ok(base)
}

fn resolve_all(
    raws: &[RawProfile],
    values: &BTreeMap<String, f64>,
) -> Result<BTreeMap<String, SystemProfile>, PerfError> {
    raws.iter()
        .map(|r| Ok((r.name.clone(), resolve(raws, &r.name, values, 0)?)))
        .collect()
}

/// Minimises `f` over the box `bounds` (see the module doc).
fn minimize(bounds: &[(f64, f64)], f: &mut dyn FnMut(&[f64]) -> f64) -> Vec<f64> {
    let d = bounds.len();
    let map = |u: &[f64]| -> Vec<f64> {
        u.iter()
            .zip(bounds)
            .map(|(&u, &(lo, hi))| {
                let u = u.clamp(0.0, 1.0);
                if lo > 0.0 {
                    lo * (hi / lo).powf(u)
                } else {
                    lo + u * (hi - lo)
                }
            })
            .collect()
    };
    let n: usize = match d {
        1 => 201,
        2 => 41,
        _ => 21,
    };
    let mut best_u = vec![0.5; d];
    let mut best_f = f64::INFINITY;
    let total = n.pow(d as u32);
    let mut u = vec![0.0; d];
    for idx in 0..total {
        let mut k = idx;
        for uj in u.iter_mut() {
            *uj = (k % n) as f64 / (n - 1) as f64;
            k /= n;
        }
        let v = f(&map(&u));
        if v < best_f {
            best_f = v;
            best_u.clone_from(&u);
        }
    }
    let h = 1.0 / (n - 1) as f64;
    let mut g = |u: &[f64]| f(&map(u));
    if d == 1 {
        // Golden-section search on [u - h, u + h].
        let (mut a, mut b) = ((best_u[0] - h).max(0.0), (best_u[0] + h).min(1.0));
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let mut c = b - phi * (b - a);
        let mut e = a + phi * (b - a);
        let mut fc = g(&[c]);
        let mut fe = g(&[e]);
        for _ in 0..120 {
            if fc < fe {
                b = e;
                e = c;
                fe = fc;
                c = b - phi * (b - a);
                fc = g(&[c]);
            } else {
                a = c;
                c = e;
                fc = fe;
                e = a + phi * (b - a);
                fe = g(&[e]);
            }
        }
        let mid = (a + b) / 2.0;
        if g(&[mid]) <= best_f {
            best_u = vec![mid];
        }
    } else {
        for _ in 0..3 {
            best_u = nelder_mead(&mut g, &best_u, h);
        }
    }
    map(&best_u)
}

/// Nelder-Mead in the unit box (points are clamped by the objective's mapping).
fn nelder_mead(g: &mut dyn FnMut(&[f64]) -> f64, start: &[f64], step: f64) -> Vec<f64> {
    let d = start.len();
    let clamp = |p: Vec<f64>| p.into_iter().map(|x| x.clamp(0.0, 1.0)).collect::<Vec<_>>();
    let mut pts: Vec<Vec<f64>> = vec![start.to_vec()];
    for j in 0..d {
        let mut p = start.to_vec();
        p[j] = if p[j] + step <= 1.0 {
            p[j] + step
        } else {
            p[j] - step
        };
        pts.push(p);
    }
    let mut vals: Vec<f64> = pts.iter().map(|p| g(p)).collect();
    for _ in 0..4000 {
        let mut order: Vec<usize> = (0..=d).collect();
        order.sort_by(|&a, &b| vals[a].total_cmp(&vals[b]));
        pts = order.iter().map(|&i| pts[i].clone()).collect();
        vals = order.iter().map(|&i| vals[i]).collect();
        let spread = pts[1..]
            .iter()
            .flat_map(|p| p.iter().zip(&pts[0]).map(|(a, b)| (a - b).abs()))
            .fold(0.0, f64::max);
        if spread < 1e-13 {
            break;
        }
        let centroid: Vec<f64> = (0..d)
            .map(|j| pts[..d].iter().map(|p| p[j]).sum::<f64>() / d as f64)
            .collect();
        let along = |t: f64| -> Vec<f64> {
            clamp(
                (0..d)
                    .map(|j| centroid[j] + t * (pts[d][j] - centroid[j]))
                    .collect(),
            )
        };
        let xr = along(-1.0);
        let fr = g(&xr);
        if fr < vals[0] {
            let xe = along(-2.0);
            let fe = g(&xe);
            if fe < fr {
                pts[d] = xe;
                vals[d] = fe;
            } else {
                pts[d] = xr;
                vals[d] = fr;
            }
        } else if fr < vals[d - 1] {
            pts[d] = xr;
            vals[d] = fr;
        } else {
            let (xc, fc) = if fr < vals[d] {
                let x = along(-0.5);
                let v = g(&x);
                (x, v)
            } else {
                let x = along(0.5);
                let v = g(&x);
                (x, v)
            };
            if fc < vals[d].min(fr) {
                pts[d] = xc;
                vals[d] = fc;
            } else {
                for i in 1..=d {
                    let p: Vec<f64> = (0..d).map(|j| (pts[0][j] + pts[i][j]) / 2.0).collect();
                    vals[i] = g(&p);
                    pts[i] = p;
                }
            }
        }
    }
    let mut bi = 0;
    for i in 1..=d {
        if vals[i] < vals[bi] {
            bi = i;
        }
    }
    pts[bi].clone()
}

struct FitParam {
    system: String,
    parameter: String,
    min: f64,
    max: f64,
}

/// The values of the fitted parameters of the built-in profiles, as [`fit_builtin`]'s
/// search finds them: `(system, parameter, f64::to_bits(value))` in fitting order.
const FITTED: &[(&str, &str, u64)] = include!("fitted_params.rs");

/// The built-in profile files and calibration rows, parsed.
fn builtin_inputs() -> Result<(Vec<RawProfile>, Vec<CalibrationRow>), PerfError> {
    let catalog = Catalog::builtin().map_err(|e| PerfError::Calibration(e.to_string()))?;
    let raws = PROFILES
        .iter()
        .map(|(n, t)| RawProfile::parse(n, t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rows = Vec::new();
    for (file, text) in CALIBRATION {
        rows.extend(parse_rows(file, text, &catalog)?);
    }
    Ok((raws, rows))
}

/// Fits the built-in profiles by search and checks every calibration row (tens of
/// milliseconds in a release build; the tests run it against the committed values).
#[cfg(test)]
pub(crate) fn fit_builtin() -> Result<PerfModel, PerfError> {
    let (raws, rows) = builtin_inputs()?;
    fit_and_check(&raws, rows, None)
}

/// The built-in model with the committed fitted values, every calibration row checked.
pub(crate) fn build_builtin() -> Result<PerfModel, PerfError> {
    let (raws, rows) = builtin_inputs()?;
    fit_and_check(&raws, rows, Some(FITTED))
}

/// The text of `src/perf/fitted_params.rs` for `model`'s fitted values: a header, then one
/// `(system, parameter, bits)` tuple a line with the value in a comment.
#[cfg(test)]
pub(crate) fn fitted_params_source(model: &PerfModel) -> String {
    let mut src = String::from(FITTED_PARAMS_HEADER);
    src.push_str("&[\n");
    for f in model.fitted() {
        src.push_str(&format!(
            "    ({:?}, {:?}, {:#018x}), // {:?}\n",
            f.system,
            f.parameter,
            f.value.to_bits(),
            f.value
        ));
    }
    src.push_str("]\n");
    src
}

/// First lines of `src/perf/fitted_params.rs`.
#[cfg(test)]
const FITTED_PARAMS_HEADER: &str = "\
// The fitted parameters of the built-in profiles (`src/perf/fit.rs`): (system, parameter,
// f64 bits), in fitting order, as the search finds them from data/systems/*.csv and
// data/calibration/*.csv. Generated: `DSPLAN_BLESS_FIT=1 cargo test --lib fitted_params_file`
// rewrites it, and that test fails while it is stale.
";

/// Fits each group in turn, by search (`known` = `None`) or taking the values found before
/// (`known` = `(system, parameter, f64 bits)`, the committed ones), then resolves the
/// profiles and checks every row.
fn fit_and_check(
    raws: &[RawProfile],
    rows: Vec<CalibrationRow>,
    known: Option<&[(&str, &str, u64)]>,
) -> Result<PerfModel, PerfError> {
    let mut groups: Vec<(String, Vec<FitParam>)> = Vec::new();
    for raw in raws {
        for (name, v) in &raw.entries {
            if let RawValue::Fit { group, min, max } = v {
                let p = FitParam {
                    system: raw.name.clone(),
                    parameter: name.clone(),
                    min: *min,
                    max: *max,
                };
                match groups.iter_mut().find(|(g, _)| g == group) {
                    Some((_, ps)) => ps.push(p),
                    None => groups.push((group.clone(), vec![p])),
                }
            }
        }
    }
    for r in &rows {
        if let Some(g) = &r.fits
            && !groups.iter().any(|(name, _)| name == g)
        {
            return Err(PerfError::Calibration(format!(
                "row {} fits unknown group '{g}'",
                r.id
            )));
        }
    }
    let mut values: BTreeMap<String, f64> = BTreeMap::new();
    let mut fitted = Vec::new();
    for (group, params) in &groups {
        let grows: Vec<&CalibrationRow> = rows
            .iter()
            .filter(|r| r.fits.as_deref() == Some(group))
            .collect();
        if grows.is_empty() {
            return Err(PerfError::Calibration(format!(
                "fit group '{group}' has no calibration rows"
            )));
        }
        let bounds: Vec<(f64, f64)> = params.iter().map(|p| (p.min, p.max)).collect();
        let objective = |x: &[f64]| -> f64 {
            let mut vals = values.clone();
            for (p, xi) in params.iter().zip(x) {
                vals.insert(key(&p.system, &p.parameter), *xi);
            }
            let Ok(systems) = resolve_all(raws, &vals) else {
                return f64::INFINITY;
            };
            let mut s = 0.0;
            for r in &grows {
                match measure(r, &rows, &systems) {
                    Ok(v) if v.is_finite() => s += (v / r.value - 1.0).powi(2),
                    _ => return f64::INFINITY,
                }
            }
            s
        };
        let mut obj = objective;
        let best = match known {
            None => minimize(&bounds, &mut obj),
            Some(known) => params
                .iter()
                .map(|p| {
                    known
                        .iter()
                        .find(|(sys, param, _)| *sys == p.system && *param == p.parameter)
                        .map(|(_, _, bits)| f64::from_bits(*bits))
                        .ok_or_else(|| {
                            PerfError::Calibration(format!(
                                "no committed fitted value for {}/{} (src/perf/fitted_params.rs is stale)",
                                p.system, p.parameter
                            ))
                        })
                })
                .collect::<Result<Vec<f64>, PerfError>>()?,
        };
        let sse = obj(&best);
        let rms_error_pct = (sse / grows.len() as f64).sqrt() * 100.0;
        for (p, v) in params.iter().zip(&best) {
            values.insert(key(&p.system, &p.parameter), *v);
            fitted.push(FittedParam {
                system: p.system.clone(),
                parameter: p.parameter.clone(),
                group: group.clone(),
                value: *v,
                rows: grows.iter().map(|r| r.id.clone()).collect(),
                rms_error_pct,
            });
        }
    }
    let systems = resolve_all(raws, &values)?;
    let mut checks = Vec::new();
    for r in &rows {
        let predicted = measure(r, &rows, &systems)?;
        let error_pct = (predicted / r.value - 1.0) * 100.0;
        checks.push(CalibrationCheck {
            id: r.id.clone(),
            system: r.system.clone(),
            figure: format!("{}; {}", r.configuration, r.workload),
            published: r.value,
            predicted,
            unit: r.unit.clone(),
            error_pct,
            tolerance_pct: r.tolerance_pct,
            role: r
                .fits
                .as_ref()
                .map_or("check".to_string(), |g| format!("fit:{g}")),
            within_tolerance: error_pct.abs() <= r.tolerance_pct,
        });
    }
    PerfModel::from_parts(systems, fitted, rows, checks)
}

/// The calibration table as aligned text: figure, published, predicted, error, tolerance.
pub fn format_calibration_table(checks: &[CalibrationCheck]) -> String {
    let mut s = format!(
        "{:<24} {:<11} {:>12} {:>12} {:<11} {:>8} {:>6}  {:<18} {}\n",
        "figure", "system", "published", "predicted", "unit", "error%", "tol%", "role", "ok"
    );
    for c in checks {
        s.push_str(&format!(
            "{:<24} {:<11} {:>12.4} {:>12.4} {:<11} {:>+8.2} {:>6.1}  {:<18} {}\n",
            c.id,
            c.system,
            c.published,
            c.predicted,
            c.unit,
            c.error_pct,
            c.tolerance_pct,
            c.role,
            if c.within_tolerance { "ok" } else { "FAIL" }
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimize_finds_known_minima() {
        // (x - 3)^2 on [0.1, 100] (log scale): minimum at 3.
        let x = minimize(&[(0.1, 100.0)], &mut |x| (x[0] - 3.0).powi(2));
        assert!((x[0] - 3.0).abs() < 1e-6);
        // (x - 0.2)^2 + (y - 0.7)^2 on [0,1]^2: minimum at (0.2, 0.7).
        let x = minimize(&[(0.0, 1.0), (0.0, 1.0)], &mut |x| {
            (x[0] - 0.2).powi(2) + (x[1] - 0.7).powi(2)
        });
        assert!((x[0] - 0.2).abs() < 1e-6 && (x[1] - 0.7).abs() < 1e-6);
    }

    #[test]
    fn bad_rows_are_errors() {
        let cat = Catalog::builtin().unwrap();
        assert!(parse_setup("hosts=0", "block=8K read=70 random=100", &cat).is_err());
        assert!(parse_setup("hosts=1", "block=0 read=70 random=100", &cat).is_err());
        assert!(parse_setup("colour=red", "block=8K read=70 random=100", &cat).is_err());
        assert!(parse_setup("hosts=1", "block=8K random=100", &cat).is_err());
        // Ultra 50 TiB with cool access: 50 x 68 = 3,400 MiB/s
        let s = parse_setup(
            "service_level=ultra size_tib=50 cool_access=on",
            "block=64K read=100 random=0",
            &cat,
        )
        .unwrap();
        assert_eq!(s.layout.qos_throughput_mibps, Some(3400.0));
    }
}

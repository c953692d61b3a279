//! The comparison the public AVS calculators make: how many AVS hosts the same data would
//! need on vSAN alone, and what the hosts beyond the cluster's would cost, beside the ANF
//! plan.
//!
//! Arithmetic ([`compare`]):
//! - raw capacity of a host: the SKU's vSAN capacity tier in decimal TB
//!   (`data/avs_hosts.csv`), in TiB: `TB x 10^12 / 2^40`;
//! - data to store: the demand's data after growth and snapshot reserve, divided by the
//!   dedup/compression ratio;
//! - raw needed: `stored x overhead / (1 - slack)`, the overhead of the storage policy
//!   (`data/vsan_policies.csv`: RAID-1 FTT-1 2x, RAID-5 FTT-1 4/3, RAID-6 FTT-2 1.5x) and the
//!   slack vSAN needs free (25% by default \[VSAN-RULES\]);
//! - hosts: the fewest `h >= --hosts` with `h x raw per host >= raw needed` and the
//!   smallest cluster at least the policy's minimum; with the `auto` policy, the most
//!   space-efficient policy that the smallest cluster allows at the failures to tolerate
//!   the AVS SLA asks for (FTT=1 below 6 hosts: RAID-1 at 3, RAID-5 at 4..5; FTT=2 from 6:
//!   RAID-6). AVS's own default policy is RAID-1 FTT-1 whatever the size (policy
//!   `raid1-ftt1` for it);
//! - clusters and private clouds (`data/limits.csv` \[AVS-LIMITS\]: 3..16 hosts per
//!   cluster, 12 clusters and 96 hosts per private cloud): `h` hosts make
//!   `ceil(h / 16)` clusters of as equal size as whole hosts allow, and a private cloud
//!   holds `min(12, floor(96 / largest cluster))` of them; the data is assumed to split
//!   over the clusters (each holds its own VMs' data);
//! - extra hosts: `h - --hosts`, at the SKU's hourly price in the plan's region (the
//!   caller's [`ListPrice`], or `vsan_host_usd_per_hour`) x 730 h.
//!
//! Only capacity is compared (the plan's hosts are assumed sized for CPU and memory).
//! AV64 is `av64` with its Gen 1 (vSAN OSA) raw capacity, the lower figure; `av64-gen2` is
//! the Gen 2 (vSAN ESA) host.

use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `data/avs_hosts.csv`, compiled in.
pub const AVS_HOSTS_CSV: &str = include_str!("../data/avs_hosts.csv");
/// `data/vsan_policies.csv`, compiled in.
pub const VSAN_POLICIES_CSV: &str = include_str!("../data/vsan_policies.csv");

/// Bytes per TB (decimal, as host capacity is published).
const BYTES_PER_TB: f64 = 1e12;
/// Bytes per TiB.
const BYTES_PER_TIB: f64 = 1_099_511_627_776.0;
/// Most hosts the search considers (a guard; AVS private clouds hold far fewer).
const MAX_HOSTS_SEARCHED: u32 = 100_000;

/// Errors of the comparison.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VsanError {
    /// A data file is malformed (a build defect for the built-in files).
    #[error("{file}: row {row}: {detail}")]
    Parse {
        /// The file.
        file: &'static str,
        /// 1-based row (header = 1).
        row: usize,
        /// What was wrong.
        detail: String,
    },
    /// An option is out of range or unknown.
    #[error("invalid `{option}`: {value} ({expected})")]
    Invalid {
        /// The setting's library name (`vsan_host` ...).
        option: &'static str,
        /// Value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}

/// An AVS host SKU (a row of `data/avs_hosts.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostSku {
    /// SKU name (`av36p`; `av64` is AV64 in a Gen 1 private cloud, `av64-gen2` in Gen 2).
    pub sku: String,
    /// Physical cores of one host.
    pub cores: u32,
    /// Memory of one host, GB as the page publishes it (not converted to GiB).
    pub memory_gb: f64,
    /// vSAN architecture: `OSA` (original, cache and capacity tiers) or `ESA` (express).
    pub vsan_architecture: String,
    /// Raw vSAN capacity tier of one host, decimal TB.
    pub raw_capacity_tb: f64,
    /// Announced retirement date (`YYYY-MM-DD`), where one is announced.
    pub retirement_date: Option<String>,
    /// Base clock of its cores, GHz (the host table's CPU figure): turns the management
    /// reservation's GHz into cores.
    pub base_clock_ghz: f64,
    /// The performance model's system for ANF datastores mounted by these hosts
    /// (`anf-avs`: 25 GbE NICs; `anf-avs-av64`: 100 GbE), `data/systems/*.csv`.
    pub perf_system: String,
    /// The SKUs a private cloud's first cluster must be of before this SKU can be added,
    /// space-separated (`av36 av36p av52` for AV64 in a Gen 1 private cloud); empty when
    /// the SKU can be the first cluster itself ([`HostSku::first_cluster_skus`]).
    #[serde(rename = "first_cluster_skus")]
    pub first_cluster_sku_list: String,
    /// Where the figures come from.
    pub source: String,
}

impl HostSku {
    /// The SKUs a private cloud's first cluster must be of before this SKU can be added
    /// (none: it can be the first cluster itself).
    pub fn first_cluster_skus(&self) -> impl Iterator<Item = &str> {
        self.first_cluster_sku_list.split_whitespace()
    }

    /// Whether a cluster of this SKU can be its private cloud's first cluster.
    pub fn can_be_first(&self) -> bool {
        self.first_cluster_skus().next().is_none()
    }
}

/// A vSAN storage policy (a row of `data/vsan_policies.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanPolicy {
    /// Name (`raid5-ftt1`).
    pub policy: String,
    /// Raw capacity per unit of data.
    pub overhead_factor: f64,
    /// Fewest hosts the policy needs.
    pub min_hosts: u32,
    /// The `auto` choice picks it for clusters of `default_min_hosts..=default_max_hosts`
    /// hosts.
    pub default_min_hosts: u32,
    /// See `default_min_hosts`.
    pub default_max_hosts: u32,
    /// Where the figures come from.
    pub source: String,
}

/// AVS limits on clusters and private clouds (`data/limits.csv` \[AVS-LIMITS\], the
/// catalog's limits file).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AvsLimits {
    /// Fewest hosts in a cluster (3).
    pub min_hosts_per_cluster: u32,
    /// Most hosts in a cluster (16).
    pub max_hosts_per_cluster: u32,
    /// Most clusters in a private cloud (12).
    pub max_clusters_per_private_cloud: u32,
    /// Most hosts in a private cloud (96).
    pub max_hosts_per_private_cloud: u32,
    /// Memory each ESXi host uses itself (VMkernel, vSAN, NSX), GB as published (48).
    #[serde(default)]
    pub esxi_memory_gb: u32,
    /// CPU the management resource pool reserves in each private cloud's first cluster,
    /// GHz (46).
    #[serde(default)]
    pub mgmt_reservation_cpu_ghz: f64,
    /// Memory it reserves there, GB as published (171.88).
    #[serde(default)]
    pub mgmt_reservation_memory_gb: f64,
}

/// How a number of hosts splits into AVS clusters and private clouds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostSplit {
    /// Clusters: `ceil(hosts / max_hosts_per_cluster)`.
    pub clusters: u32,
    /// Hosts of the smallest cluster: `floor(hosts / clusters)`.
    pub smallest_cluster: u32,
    /// Hosts of the largest cluster: `ceil(hosts / clusters)`.
    pub largest_cluster: u32,
    /// Private clouds: `ceil(clusters / min(max clusters, floor(max hosts / largest)))`.
    pub private_clouds: u32,
}

impl AvsLimits {
    /// `hosts` in the fewest clusters of as equal size as whole hosts allow, and the
    /// private clouds they need; `None` below the cluster minimum.
    pub fn split(&self, hosts: u32) -> Option<HostSplit> {
        if hosts < self.min_hosts_per_cluster.max(1) {
            return None;
        }
        let clusters = hosts.div_ceil(self.max_hosts_per_cluster.max(1));
        let largest_cluster = hosts.div_ceil(clusters);
        let per_cloud = self
            .max_clusters_per_private_cloud
            .min(self.max_hosts_per_private_cloud / largest_cluster)
            .max(1);
        Some(HostSplit {
            clusters,
            smallest_cluster: hosts / clusters,
            largest_cluster,
            private_clouds: clusters.div_ceil(per_cloud),
        })
    }
}

/// A row of `data/limits.csv`.
#[derive(Deserialize)]
struct LimitRow {
    parameter: String,
    value: f64,
}

/// The cluster and private-cloud limits of `data/limits.csv`.
fn avs_limits(rows: &[LimitRow]) -> Result<AvsLimits, VsanError> {
    let missing = |name: &str| VsanError::Parse {
        file: "limits.csv",
        row: 1,
        detail: format!("parameter '{name}' is missing or 0"),
    };
    let get = |name: &str| {
        rows.iter()
            .find(|r| r.parameter == name)
            .map(|r| r.value)
            .filter(|v| v.fract() == 0.0 && *v >= 1.0 && *v <= f64::from(u32::MAX))
            .map(|v| v as u32)
            .ok_or_else(|| missing(name))
    };
    let positive = |name: &str| {
        rows.iter()
            .find(|r| r.parameter == name)
            .map(|r| r.value)
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| missing(name))
    };
    Ok(AvsLimits {
        min_hosts_per_cluster: get("min_hosts")?,
        max_hosts_per_cluster: get("max_hosts")?,
        max_clusters_per_private_cloud: get("max_clusters_per_private_cloud")?,
        max_hosts_per_private_cloud: get("max_hosts_per_private_cloud")?,
        esxi_memory_gb: get("esxi_typical_memory_gb")?,
        mgmt_reservation_cpu_ghz: positive("mgmt_reservation_cpu_ghz")?,
        mgmt_reservation_memory_gb: positive("mgmt_reservation_memory_gb")?,
    })
}

/// Host SKUs, policies and AVS limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanCatalog {
    /// Host SKUs.
    pub hosts: Vec<HostSku>,
    /// Storage policies.
    pub policies: Vec<VsanPolicy>,
    /// Hosts per cluster, clusters and hosts per private cloud.
    pub limits: AvsLimits,
}

fn parse<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<Vec<T>, VsanError> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, rec) in rdr.deserialize().enumerate() {
        out.push(rec.map_err(|e| VsanError::Parse {
            file,
            row: i + 2,
            detail: e.to_string(),
        })?);
    }
    Ok(out)
}

impl VsanCatalog {
    /// The catalog compiled from `data/avs_hosts.csv` and `data/vsan_policies.csv`.
    ///
    /// # Errors
    /// [`VsanError::Parse`] if a compiled-in file is malformed (a build defect).
    pub fn builtin() -> Result<VsanCatalog, VsanError> {
        let hosts: Vec<HostSku> = parse("avs_hosts.csv", AVS_HOSTS_CSV)?;
        let policies: Vec<VsanPolicy> = parse("vsan_policies.csv", VSAN_POLICIES_CSV)?;
        let limits = avs_limits(&parse::<LimitRow>(
            "limits.csv",
            crate::catalog::LIMITS_CSV,
        )?)?;
        for (i, h) in hosts.iter().enumerate() {
            let bad = |detail: String| VsanError::Parse {
                file: "avs_hosts.csv",
                row: i + 2,
                detail,
            };
            if !(h.raw_capacity_tb.is_finite() && h.raw_capacity_tb > 0.0) {
                return Err(bad(format!("raw capacity {} TB", h.raw_capacity_tb)));
            }
            if !(h.base_clock_ghz.is_finite() && h.base_clock_ghz > 0.0) {
                return Err(bad(format!("base clock {} GHz", h.base_clock_ghz)));
            }
            // A first cluster's SKU is in the file and can be a first cluster itself.
            for first in h.first_cluster_skus() {
                if !hosts.iter().any(|o| o.sku == first && o.can_be_first()) {
                    return Err(bad(format!(
                        "first cluster SKU '{first}' is not a SKU that can be a first cluster"
                    )));
                }
            }
        }
        for (i, p) in policies.iter().enumerate() {
            if !(p.overhead_factor.is_finite() && p.overhead_factor >= 1.0) {
                return Err(VsanError::Parse {
                    file: "vsan_policies.csv",
                    row: i + 2,
                    detail: format!("overhead {}", p.overhead_factor),
                });
            }
        }
        Ok(VsanCatalog {
            hosts,
            policies,
            limits,
        })
    }

    fn host(&self, sku: &str) -> Result<&HostSku, VsanError> {
        let key = sku.trim().to_ascii_lowercase();
        self.hosts
            .iter()
            .find(|h| h.sku == key)
            .ok_or_else(|| VsanError::Invalid {
                option: "vsan_host",
                value: sku.to_string(),
                expected: self
                    .hosts
                    .iter()
                    .map(|h| h.sku.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The policy of `choice` for a cluster of `hosts` hosts.
    fn policy(&self, choice: &PolicyChoice, hosts: u32) -> Option<&VsanPolicy> {
        match choice {
            PolicyChoice::Auto => self
                .policies
                .iter()
                .find(|p| (p.default_min_hosts..=p.default_max_hosts).contains(&hosts)),
            PolicyChoice::Named(name) => self
                .policies
                .iter()
                .find(|p| p.policy.eq_ignore_ascii_case(name.trim())),
        }
    }
}

/// Which storage policy: chosen by cluster size, or a named one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PolicyChoice {
    /// By the resulting cluster size (RAID-1 FTT-1 at 3 hosts, RAID-5 FTT-1 at 4..5, RAID-6
    /// FTT-2 from 6, as the AVS SLA asks for FTT=2 from 6 hosts).
    #[default]
    Auto,
    /// A policy of `data/vsan_policies.csv` by name.
    Named(String),
}

impl FromStr for PolicyChoice {
    type Err = VsanError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if t == "auto" {
            Ok(PolicyChoice::Auto)
        } else if ["raid1-ftt1", "raid5-ftt1", "raid6-ftt2"].contains(&t.as_str()) {
            Ok(PolicyChoice::Named(t))
        } else {
            Err(VsanError::Invalid {
                option: "vsan_policy",
                value: s.to_string(),
                expected: "auto, raid1-ftt1, raid5-ftt1 or raid6-ftt2".into(),
            })
        }
    }
}

/// The list price of the comparison's host SKU in the plan's region, as the caller found
/// it (`crate::sizing::HostPrices`); the comparison uses it unless
/// [`VsanOptions::host_usd_per_hour`] is set.
#[derive(Debug, Clone, PartialEq)]
pub enum ListPrice {
    /// A price.
    Known {
        /// USD per host-hour.
        usd_per_hour: f64,
        /// Whose price it is and where it comes from, in words.
        source: String,
    },
    /// No price, and why, in words (`no public price for av36 in West Europe`).
    Unknown(String),
}

/// Options of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanOptions {
    /// Host SKU (`av36`, `av36p`, `av48`, `av52`, `av64`, `av64-gen2`).
    pub sku: String,
    /// Storage policy.
    pub policy: PolicyChoice,
    /// Capacity vSAN keeps free, percent 0..100 (default 25 \[VSAN-RULES\]; AVS alerts at 75%
    /// consumed, concepts-storage).
    pub slack_pct: f64,
    /// Dedup/compression ratio (>= 1; default 1.0, none assumed).
    pub dedup_ratio: f64,
    /// Hourly host price, USD, overriding the region's list price (needed for SKUs without
    /// one in the plan's region).
    pub host_usd_per_hour: Option<f64>,
}

impl Default for VsanOptions {
    /// AV36P, `auto` policy, 25% slack, no dedup, the region's list price.
    fn default() -> Self {
        VsanOptions {
            sku: crate::defaults::VSAN_HOST.into(),
            policy: PolicyChoice::Auto,
            slack_pct: crate::defaults::VSAN_SLACK_PCT,
            dedup_ratio: crate::defaults::VSAN_DEDUP_RATIO,
            host_usd_per_hour: None,
        }
    }
}

/// The vSAN-only alternative to the ANF plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VsanComparison {
    /// Host SKU.
    pub sku: String,
    /// Storage policy applied.
    pub policy: String,
    /// Its raw-per-data overhead.
    pub overhead_factor: f64,
    /// Data to store (after growth and snapshot reserve, before dedup), GiB.
    pub data_gib: f64,
    /// Dedup/compression ratio assumed.
    pub dedup_ratio: f64,
    /// Slack kept free, percent.
    pub slack_pct: f64,
    /// Raw capacity needed, TiB.
    pub raw_needed_tib: f64,
    /// Raw capacity of one host, TiB.
    pub raw_per_host_tib: f64,
    /// Hosts the data needs on vSAN.
    pub hosts_needed: u32,
    /// AVS clusters those hosts make (at most 16 hosts each, `data/limits.csv`).
    #[serde(default)]
    pub clusters_needed: u32,
    /// Hosts of the largest of those clusters.
    #[serde(default)]
    pub largest_cluster_hosts: u32,
    /// Private clouds those clusters need (at most 12 clusters and 96 hosts each).
    #[serde(default)]
    pub private_clouds_needed: u32,
    /// Hosts of the planned cluster (`--hosts`).
    pub cluster_hosts: u32,
    /// Hosts beyond the cluster's.
    pub extra_hosts: u32,
    /// Hourly price of one host, USD, where known.
    pub host_usd_per_hour: Option<f64>,
    /// Monthly cost of the extra hosts (x 730 h), USD, where the price is known.
    pub extra_hosts_usd_per_month: Option<f64>,
    /// Monthly cost of the ANF plan, USD.
    pub anf_usd_per_month: f64,
    /// Where the figures come from, and caveats.
    pub note: String,
}

/// An out-of-range setting of the comparison.
fn invalid(option: &'static str, value: f64, expected: &str) -> VsanError {
    VsanError::Invalid {
        option,
        value: crate::numbers::show_setting(value),
        expected: expected.into(),
    }
}

impl VsanOptions {
    /// Checks the settings against `catalog`: a known host SKU and policy, slack 0..<100,
    /// dedup ratio 1..=10, a host price 0..=1,000 USD per hour.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] naming the setting.
    pub fn validate(&self, catalog: &VsanCatalog) -> Result<(), VsanError> {
        if !(self.slack_pct.is_finite() && (0.0..100.0).contains(&self.slack_pct)) {
            return Err(invalid(
                "vsan_slack_pct",
                self.slack_pct,
                "a percentage 0..<100",
            ));
        }
        // Dedup ratios past 10 and host prices past 1,000 USD an hour (list prices are 8
        // to 25, data/avs_host_prices.csv) are typos, not estimates.
        if !(1.0..=10.0).contains(&self.dedup_ratio) {
            return Err(invalid(
                "vsan_dedup_ratio",
                self.dedup_ratio,
                "a ratio from 1 to 10",
            ));
        }
        if let Some(p) = self.host_usd_per_hour
            && !(0.0..=1000.0).contains(&p)
        {
            return Err(invalid(
                "vsan_host_usd_per_hour",
                p,
                "a price from 0 to 1,000 USD per hour",
            ));
        }
        catalog.host(&self.sku)?;
        if let PolicyChoice::Named(name) = &self.policy {
            name.parse::<PolicyChoice>()?;
        }
        Ok(())
    }
}

/// The fewest hosts from `cluster_hosts` up whose raw capacity holds `stored_tib` under the
/// policy their smallest cluster allows: (hosts, their split, the policy, raw TiB needed).
fn fewest_hosts<'a>(
    catalog: &'a VsanCatalog,
    o: &VsanOptions,
    stored_tib: f64,
    raw_per_host_tib: f64,
    cluster_hosts: u32,
) -> Option<(u32, HostSplit, &'a VsanPolicy, f64)> {
    let free = 1.0 - o.slack_pct / 100.0;
    for h in cluster_hosts.max(1)..=MAX_HOSTS_SEARCHED {
        let Some(split) = catalog.limits.split(h) else {
            continue;
        };
        let Some(policy) = catalog.policy(&o.policy, split.smallest_cluster) else {
            continue;
        };
        let raw_needed = stored_tib * policy.overhead_factor / free;
        if split.smallest_cluster >= policy.min_hosts
            && f64::from(h) * raw_per_host_tib >= raw_needed
        {
            return Some((h, split, policy, raw_needed));
        }
    }
    None
}

/// How many clusters and private clouds the hosts make, in words.
fn clusters_note(l: &AvsLimits, split: &HostSplit, hosts: u32) -> String {
    let limits = format!(
        "AVS: {}..{} hosts per cluster, {} clusters and {} hosts per private cloud, \
         data/limits.csv",
        l.min_hosts_per_cluster,
        l.max_hosts_per_cluster,
        l.max_clusters_per_private_cloud,
        l.max_hosts_per_private_cloud
    );
    if split.clusters <= 1 {
        return format!("{hosts} hosts fit one cluster ({limits})");
    }
    format!(
        "{hosts} hosts need {} clusters of {}..{} hosts in {} private cloud(s) ({limits}); \
         the data is assumed to split over the clusters",
        split.clusters, split.smallest_cluster, split.largest_cluster, split.private_clouds
    )
}

/// The host's generation and retirement, where they matter.
fn host_note(host: &HostSku) -> String {
    let mut s = String::new();
    if host.sku == "av64" {
        s.push_str(
            "; AV64 raw capacity of a Gen 1 private cloud (vSAN OSA, 15.36 TB), the lower \
             figure; Gen 2 (vSAN ESA) hosts have 19.25 TB: `vsan_host` av64-gen2",
        );
    }
    if let Some(d) = &host.retirement_date {
        s.push_str(&format!("; {} retirement announced for {d}", host.sku));
    }
    s
}

/// Compares storing `data_gib` on vSAN (more AVS hosts) with the ANF plan costing
/// `anf_usd_per_month` for a cluster of `cluster_hosts`, the hosts priced at
/// `o.host_usd_per_hour`, else at `list_price`.
///
/// # Errors
/// [`VsanError::Invalid`] for an unknown SKU, a slack outside 0..100, a dedup ratio below 1,
/// a negative or non-finite price or data size.
pub fn compare(
    catalog: &VsanCatalog,
    data_gib: f64,
    cluster_hosts: u32,
    anf_usd_per_month: f64,
    hours_per_month: f64,
    o: &VsanOptions,
    list_price: &ListPrice,
) -> Result<VsanComparison, VsanError> {
    o.validate(catalog)?;
    if !(data_gib.is_finite() && data_gib >= 0.0) {
        return Err(invalid("capacity", data_gib, "a finite GiB >= 0"));
    }
    let host = catalog.host(&o.sku)?;
    let raw_per_host_tib = host.raw_capacity_tb * BYTES_PER_TB / BYTES_PER_TIB;
    let stored_tib = data_gib / 1024.0 / o.dedup_ratio;
    let Some((hosts_needed, split, policy, raw_needed_tib)) =
        fewest_hosts(catalog, o, stored_tib, raw_per_host_tib, cluster_hosts)
    else {
        return Err(invalid(
            "capacity",
            data_gib,
            "data that fits vSAN clusters of the chosen policy",
        ));
    };
    let extra_hosts = hosts_needed - cluster_hosts.min(hosts_needed);
    let (price, price_note) = match (o.host_usd_per_hour, list_price) {
        (Some(p), _) => (
            Some(p),
            "host price from `vsan_host_usd_per_hour`".to_string(),
        ),
        (
            None,
            ListPrice::Known {
                usd_per_hour,
                source,
            },
        ) => (
            Some(*usd_per_hour),
            format!("host price: {source}; capacity only, CPU and memory not compared"),
        ),
        (None, ListPrice::Unknown(why)) => (
            None,
            format!("{why}: pass `vsan_host_usd_per_hour`; capacity only"),
        ),
    };
    let note = format!(
        "{price_note}; {}{}",
        clusters_note(&catalog.limits, &split, hosts_needed),
        host_note(host)
    );
    Ok(VsanComparison {
        sku: host.sku.clone(),
        policy: policy.policy.clone(),
        overhead_factor: policy.overhead_factor,
        data_gib,
        dedup_ratio: o.dedup_ratio,
        slack_pct: o.slack_pct,
        raw_needed_tib,
        raw_per_host_tib,
        hosts_needed,
        clusters_needed: split.clusters,
        largest_cluster_hosts: split.largest_cluster,
        private_clouds_needed: split.private_clouds,
        cluster_hosts,
        extra_hosts,
        host_usd_per_hour: price,
        extra_hosts_usd_per_month: price
            .map(|p| ((f64::from(extra_hosts) * p * hours_per_month) * 100.0).round() / 100.0),
        anf_usd_per_month,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list price of `usd_per_hour`.
    fn at(usd_per_hour: f64) -> ListPrice {
        ListPrice::Known {
            usd_per_hour,
            source: "a test price".into(),
        }
    }

    /// No list price.
    fn unpriced() -> ListPrice {
        ListPrice::Unknown("no public price for av52 in East US".into())
    }

    #[test]
    fn hand_worked_av36p_raid5() {
        let c = VsanCatalog::builtin().unwrap();
        // 100 TiB of data on AV36P (19.20 TB raw = 19.2e12 / 2^40 = 17.46229 TiB per host),
        // RAID-5 FTT-1 (4/3), 25% slack, no dedup:
        //   raw needed = 100 x 4/3 / 0.75 = 177.778 TiB -> ceil(177.778 / 17.46229)
        //   = ceil(10.18) = 11 hosts; a 3-host cluster needs 8 more:
        //   8 x 9.20 USD/h x 730 h = 53,728.00 USD/month.
        let o = VsanOptions {
            policy: PolicyChoice::Named("raid5-ftt1".into()),
            ..VsanOptions::default()
        };
        let r = compare(&c, 102_400.0, 3, 1000.0, 730.0, &o, &at(9.20)).unwrap();
        assert!((r.raw_per_host_tib - 17.462298).abs() < 1e-6, "{r:?}");
        assert!((r.raw_needed_tib - 177.777_778).abs() < 1e-5);
        assert_eq!(r.hosts_needed, 11);
        assert_eq!(r.extra_hosts, 8);
        assert_eq!(r.extra_hosts_usd_per_month, Some(53_728.0));
    }

    #[test]
    fn auto_policy_follows_the_cluster_size() {
        let c = VsanCatalog::builtin().unwrap();
        // 20 TiB on AV64 (15.36e12 / 2^40 = 13.96984 TiB per host), 25% slack, auto:
        //   3 hosts RAID-1: 20 x 2 / 0.75 = 53.33 > 3 x 13.97 = 41.91 -> no;
        //   4 hosts RAID-5: 20 x 4/3 / 0.75 = 35.56 <= 4 x 13.97 = 55.88 -> 4 hosts,
        //   1 more than 3: 13.22 x 730 = 9,650.60 USD/month.
        let o = VsanOptions {
            sku: "AV64".into(),
            ..VsanOptions::default()
        };
        let r = compare(&c, 20.0 * 1024.0, 3, 0.0, 730.0, &o, &at(13.22)).unwrap();
        assert_eq!(r.policy, "raid5-ftt1");
        assert_eq!(r.hosts_needed, 4);
        assert_eq!(r.extra_hosts, 1);
        assert_eq!(r.extra_hosts_usd_per_month, Some(9_650.6));
        // Dedup 2:1 halves the data: 10 TiB x 2 / 0.75 = 26.67 <= 41.91 -> 3 hosts, none extra.
        let o = VsanOptions {
            sku: "av64".into(),
            dedup_ratio: 2.0,
            ..VsanOptions::default()
        };
        let r = compare(&c, 20.0 * 1024.0, 3, 0.0, 730.0, &o, &at(13.22)).unwrap();
        assert_eq!((r.hosts_needed, r.extra_hosts), (3, 0));
        assert_eq!(r.extra_hosts_usd_per_month, Some(0.0));
    }

    #[test]
    fn two_pib_on_av64_needs_several_clusters_and_private_clouds() {
        let c = VsanCatalog::builtin().unwrap();
        // 2 PiB = 2,048 TiB of data on AV64 Gen 1 (15.36e12 / 2^40 = 13.969839 TiB raw per
        // host), auto policy (clusters of 6+ hosts: RAID-6 FTT-2, 1.5x), 25% slack:
        //   raw needed = 2,048 x 1.5 / 0.75 = 4,096 TiB;
        //   293 hosts x 13.969839 = 4,093.16 < 4,096; 294 x 13.969839 = 4,107.13 -> 294;
        //   clusters ceil(294 / 16) = 19 (15 or 16 hosts: 294 / 19 = 15.47);
        //   a private cloud holds min(12, floor(96 / 16) = 6) = 6 -> ceil(19 / 6) = 4.
        let o = VsanOptions {
            sku: "av64".into(),
            ..VsanOptions::default()
        };
        let r = compare(&c, 2048.0 * 1024.0, 16, 0.0, 730.0, &o, &unpriced()).unwrap();
        assert_eq!(r.policy, "raid6-ftt2");
        assert!((r.raw_needed_tib - 4096.0).abs() < 1e-9);
        assert_eq!(r.hosts_needed, 294);
        assert_eq!((r.clusters_needed, r.largest_cluster_hosts), (19, 16));
        assert_eq!(r.private_clouds_needed, 4);
        assert_eq!(r.extra_hosts, 278);
        assert!(
            r.note.contains("19 clusters") && r.note.contains("4 private cloud"),
            "{}",
            r.note
        );
        assert!(r.note.contains("Gen 1"), "{}", r.note);
        // Gen 2 on request: 19.25e12 / 2^40 = 17.507893 TiB per host;
        // 4,096 / 17.507893 = 233.95 -> 234 hosts, ceil(234 / 16) = 15 clusters
        // (234 / 15 = 15.6: 15 or 16 hosts), ceil(15 / 6) = 3 private clouds.
        let o = VsanOptions {
            sku: "av64-gen2".into(),
            ..VsanOptions::default()
        };
        let r = compare(&c, 2048.0 * 1024.0, 16, 0.0, 730.0, &o, &unpriced()).unwrap();
        assert_eq!(r.hosts_needed, 234);
        assert_eq!((r.clusters_needed, r.private_clouds_needed), (15, 3));
    }

    #[test]
    fn hosts_split_into_clusters_and_private_clouds() {
        let l = VsanCatalog::builtin().unwrap().limits;
        // 16 hosts: one cluster; 17: 2 clusters of 8 and 9; 96: 6 of 16 in one cloud;
        // 97: 7 clusters of 13..14 (97 / 7 = 13.86), a cloud holds min(12, 96 / 14 = 6)
        // = 6 -> 2 clouds; 2 hosts: below the 3-host minimum.
        let s = |h| {
            l.split(h).map(|s| {
                (
                    s.clusters,
                    s.smallest_cluster,
                    s.largest_cluster,
                    s.private_clouds,
                )
            })
        };
        assert_eq!(s(16), Some((1, 16, 16, 1)));
        assert_eq!(s(17), Some((2, 8, 9, 1)));
        assert_eq!(s(96), Some((6, 16, 16, 1)));
        assert_eq!(s(97), Some((7, 13, 14, 2)));
        assert_eq!(s(2), None);
    }

    #[test]
    fn host_rows_carry_figures_and_dated_sources() {
        let c = VsanCatalog::builtin().unwrap();
        // architecture-private-clouds (2025-08-14) Hosts table: cores, RAM GB, raw TB.
        let row = |sku: &str| c.hosts.iter().find(|h| h.sku == sku).unwrap();
        let figures = |sku: &str| {
            let h = row(sku);
            (
                h.cores,
                h.memory_gb,
                h.raw_capacity_tb,
                h.vsan_architecture.as_str(),
            )
        };
        assert_eq!(figures("av36"), (36, 576.0, 15.20, "OSA"));
        assert_eq!(figures("av36p"), (36, 768.0, 19.20, "OSA"));
        assert_eq!(figures("av48"), (48, 1024.0, 25.6, "ESA"));
        assert_eq!(figures("av52"), (52, 1536.0, 38.40, "OSA"));
        assert_eq!(figures("av64"), (64, 1024.0, 15.36, "OSA"));
        assert_eq!(figures("av64-gen2"), (64, 1024.0, 19.25, "ESA"));
        assert_eq!(row("av36p").retirement_date.as_deref(), Some("2029-06-30"));
        assert_eq!(row("av52").retirement_date.as_deref(), Some("2029-06-30"));
        assert_eq!(row("av64").retirement_date, None);
        // introduction (2025-12-19) Hosts table: base clocks, GHz.
        let clocks: Vec<f64> = c.hosts.iter().map(|h| h.base_clock_ghz).collect();
        assert_eq!(clocks, [2.3, 2.6, 2.6, 2.7, 2.8, 2.8]);
        // AV64 hosts have 100 GbE, the others 25 GbE (performance-benchmarks-azure-vmware-
        // solution, 2024-12-03): each SKU's performance system is a built-in one.
        let model = crate::perf::PerfModel::builtin().unwrap();
        for h in &c.hosts {
            let nic = model.system(&h.perf_system).unwrap().params.host_nic_gbps;
            let want = if h.sku.starts_with("av64") {
                100.0
            } else {
                25.0
            };
            assert_eq!(nic, Some(want), "{}", h.sku);
        }
        // Only AV64 in a Gen 1 private cloud needs a first cluster of another SKU.
        let firsts: Vec<(&str, Vec<&str>)> = c
            .hosts
            .iter()
            .filter(|h| !h.can_be_first())
            .map(|h| (h.sku.as_str(), h.first_cluster_skus().collect()))
            .collect();
        assert_eq!(firsts, [("av64", vec!["av36", "av36p", "av52"])]);
        assert!(row("av64").source.contains("introduction, 2025-12-19"));
        let l = c.limits;
        assert_eq!(
            (l.mgmt_reservation_cpu_ghz, l.mgmt_reservation_memory_gb),
            (46.0, 171.88)
        );
        assert!(c.hosts.iter().all(|h| {
            h.source
                .contains("architecture-private-clouds (2025-08-14)")
        }));
        let l = c.limits;
        assert_eq!(
            (
                l.min_hosts_per_cluster,
                l.max_hosts_per_cluster,
                l.max_clusters_per_private_cloud,
                l.max_hosts_per_private_cloud
            ),
            (3, 16, 12, 96)
        );
    }

    #[test]
    fn unknown_sku_and_unpriced_sku() {
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions {
            sku: "av99".into(),
            ..VsanOptions::default()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o, &unpriced()).is_err());
        // AV52 without a list price: hosts are counted, the cost is left unknown.
        let o = VsanOptions {
            sku: "av52".into(),
            ..VsanOptions::default()
        };
        let r = compare(&c, 1.0, 3, 0.0, 730.0, &o, &unpriced()).unwrap();
        assert_eq!(r.extra_hosts_usd_per_month, None);
        assert!(
            r.note
                .starts_with("no public price for av52 in East US: pass `vsan_host_usd_per_hour`"),
            "{}",
            r.note
        );
        // A price of `vsan_host_usd_per_hour` wins over the list price: 1 TiB fits 3 hosts
        // (none extra), so the month is 0 whatever the price, and the note names the setting.
        let o = VsanOptions {
            host_usd_per_hour: Some(7.0),
            ..VsanOptions::default()
        };
        let r = compare(&c, 1.0, 3, 0.0, 730.0, &o, &at(9.20)).unwrap();
        assert_eq!(r.host_usd_per_hour, Some(7.0));
        assert!(
            r.note
                .starts_with("host price from `vsan_host_usd_per_hour`")
        );
        let o = VsanOptions {
            dedup_ratio: 0.5,
            ..VsanOptions::default()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o, &unpriced()).is_err());
    }
}

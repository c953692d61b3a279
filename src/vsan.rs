//! The comparison the public AVS calculators make: how many AVS hosts the same data would
//! need on vSAN alone, and what the hosts beyond the cluster's would cost, beside the ANF
//! plan.
//!
//! ```
//! use dsplan::vsan::{ListPrice, VsanCatalog, VsanOptions, compare};
//!
//! let catalog = VsanCatalog::builtin()?;
//! let price = ListPrice::Known {
//!     usd_per_hour: 10.0,
//!     source: "an example price".into(),
//! };
//! // 100 TiB of data beside a 3-host cluster whose ANF plan costs 5,000 USD/month.
//! let c = compare(&catalog, 100.0 * 1024.0, 3, 5_000.0, 730.0, &VsanOptions::default(), &price)?;
//! // AV36P: 19.20 TB raw = 19.2 x 10^12 / 2^40 = 17.46 TiB per host. With the default 20%
//! // headroom vSAN stores 120 TiB. FTT=1 policies need 120 x 2 / 0.75 = 320 TiB raw at 3
//! // hosts (RAID-1) and 120 x 4/3 / 0.75 = 213 TiB at 4..5 (RAID-5): 19 and 13 hosts, so 6
//! // or more: FTT=2, RAID-6 (1.5x), 120 x 1.5 / 0.75 = 240 TiB raw, 240 / 17.46 = 13.7:
//! // 14 hosts.
//! assert!((c.raw_per_host_tib - 17.4623).abs() < 0.001);
//! assert_eq!(c.policy, "raid6-ftt2");
//! assert_eq!(c.hosts_needed, 14);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Arithmetic ([`compare`]):
//! - raw capacity of a host: the SKU's vSAN capacity tier in decimal TB
//!   (`data/avs_hosts.csv`), in TiB: `TB x 10^12 / 2^40`;
//! - data to store: the demand's data after growth and snapshot reserve, x (1 + headroom /
//!   100) (`headroom_pct`, 20% by default: the same headroom the ANF datastores keep),
//!   divided by the dedup/compression ratio;
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

mod catalog;
mod options;
mod perf;
mod sku_name;

use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use catalog::{
    AVS_HOSTS_CSV, AvsLimits, HostSku, HostSplit, VSAN_POLICIES_CSV, VsanCatalog, VsanPolicy,
};
pub use options::VsanOptions;
pub use perf::{VsanEnvelope, VsanLoad, VsanNeed, VsanPerf};
pub use sku_name::{HostSkuName, UnknownHostSku};

/// Bytes per TB (decimal, as host capacity is published).
const BYTES_PER_TB: f64 = 1e12;
/// Bytes per TiB.
const BYTES_PER_TIB: f64 = 1_099_511_627_776.0;
/// Most hosts the search considers (a guard; AVS private clouds hold far fewer).
const MAX_HOSTS_SEARCHED: u32 = 100_000;

/// Errors of the comparison.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
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
    /// A cluster's data fits no vSAN cluster of the chosen SKU and policy (more than any
    /// private cloud's hosts hold): a data error in the inputs' capacity columns, most
    /// likely.
    #[error(
        "{place}{data_gib} GiB ({data_tib} TiB) of VM data (the sum of its VMs' capacity on the \
         chosen basis) fit no vSAN cluster of {sku} hosts under the chosen policy: check the \
         inputs' capacity columns (In Use MiB, Provisioned MiB) for figures no VM holds"
    )]
    DataTooLarge {
        /// `AVS cluster 'name': ` when known, else empty.
        place: String,
        /// The data, GiB, grouped (`14,985,199,615`).
        data_gib: String,
        /// The same in TiB, grouped.
        data_tib: String,
        /// The host SKU.
        sku: String,
    },
    /// A VM's data fits no one vSAN cluster of the SKU (a VM's data sits on one cluster),
    /// or its load is more than one VM can ask of vSAN ([`VsanCatalog::vm_ceiling`]).
    #[error("{0}")]
    VmTooLarge(Box<VmTooLargeForVsan>),
    /// The performance model has no vSAN envelope for a SKU, or a profile is invalid.
    #[error("vSAN performance: {0}")]
    Perf(#[from] crate::perf::PerfError),
}

/// A VM whose data or load no one vSAN cluster of the SKU holds ([`VsanError::VmTooLarge`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{place}VM '{vm}'{at} {what}, so vSAN alone cannot be built")]
pub struct VmTooLargeForVsan {
    /// `AVS cluster 'name': ` when known, else empty.
    pub place: String,
    /// The VM, clipped.
    pub vm: String,
    /// Where it was read, ` (file [sheet] row N)`, or empty.
    pub at: String,
    /// What it needs that vSAN cannot give, and why, in words (`holds 150.0 TiB of data,
    /// more than ...`).
    pub what: String,
}

impl VsanError {
    /// The error with `place` (`AVS cluster 'name': `) where it names none yet.
    pub fn at(self, place: &str) -> VsanError {
        match self {
            VsanError::DataTooLarge {
                place: p,
                data_gib,
                data_tib,
                sku,
            } if p.is_empty() => VsanError::DataTooLarge {
                place: place.to_string(),
                data_gib,
                data_tib,
                sku,
            },
            VsanError::VmTooLarge(mut v) if v.place.is_empty() => {
                v.place = place.to_string();
                VsanError::VmTooLarge(v)
            }
            e => e,
        }
    }
}

/// Which storage policy: chosen by cluster size, or a named one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub enum PolicyChoice {
    /// By the resulting cluster size (RAID-1 FTT-1 at 3 hosts, RAID-5 FTT-1 at 4..5, RAID-6
    /// FTT-2 from 6, as the AVS SLA asks for FTT=2 from 6 hosts).
    #[default]
    Auto,
    /// A policy of `data/vsan_policies.csv` by name.
    Named(String),
}

impl std::fmt::Display for PolicyChoice {
    /// `auto` or the policy's name, as [`PolicyChoice::from_str`] reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicyChoice::Auto => f.write_str("auto"),
            PolicyChoice::Named(n) => f.write_str(n),
        }
    }
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

/// The vSAN-only alternative to the ANF plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Hosts the data needs on vSAN: its capacity and, with targets, its IOPS and MiB/s.
    pub hosts_needed: u32,
    /// Hosts its capacity alone needs (at most `hosts_needed`; the same without targets).
    #[serde(default)]
    pub hosts_for_capacity: u32,
    /// With a load given: what those hosts' vSAN delivers, small-block IOPS (the
    /// clusters' envelopes at their checked hosts, [`VsanCatalog::carries_alone`]).
    #[serde(default)]
    pub predicted_iops: Option<f64>,
    /// With a load given: large-block MiB/s likewise.
    #[serde(default)]
    pub predicted_throughput_mibps: Option<f64>,
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
    /// dedup ratio 1..=10, headroom 0..=1,000 percent, a host price 0..=1,000 USD per hour.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] naming the setting.
    pub fn validate(&self, catalog: &VsanCatalog) -> Result<(), VsanError> {
        if !(self.slack_pct.is_finite() && (0.0..100.0).contains(&self.slack_pct)) {
            return Err(invalid(
                "vsan_slack_pct",
                self.slack_pct,
                "a percentage from 0 up to, not including, 100",
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
        if !(0.0..=crate::defaults::MAX_GROWTH_PCT).contains(&self.headroom_pct) {
            return Err(invalid(
                "headroom_pct",
                self.headroom_pct,
                "a percentage from 0 to 1,000",
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

/// What `hosts` hosts of one SKU hold on vSAN ([`VsanCatalog::capacity`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VsanCapacity<'a> {
    /// How the hosts split into clusters (one cluster up to 16 hosts).
    pub split: HostSplit,
    /// The storage policy their smallest cluster allows.
    pub policy: &'a VsanPolicy,
    /// Raw capacity of one host, TiB.
    pub raw_per_host_tib: f64,
    /// Data they hold when full to the slack, GiB, as the demand counts it (after growth
    /// and snapshot reserve, before dedup): `(free x hosts x raw per host - clusters x
    /// reserved raw) / policy overhead x dedup ratio`, `free` the share slack leaves (0 when
    /// the reserve takes all). Utilisation is counted against it.
    pub usable_data_gib: f64,
    /// Data the designs keep on them at most, GiB: `usable_data_gib / (1 + headroom /
    /// 100)`, the same headroom the ANF datastores keep above their data.
    pub fill_limit_gib: f64,
}

impl VsanCatalog {
    /// The fewest hosts of `o.sku` from `first` to `last` whose vSAN holds `data_gib`
    /// within the headroom (each cluster keeping `reserved_raw_tib` raw) and, with `need`,
    /// carries its load: [`compare_cluster`]'s search within bounds; `None` when none does.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] for an unknown SKU; the envelope's.
    pub(crate) fn fewest_hosts_between(
        &self,
        o: &VsanOptions,
        (data_gib, need): (f64, Option<&VsanNeed>),
        (first, last, reserved_raw_tib): (u32, u32, f64),
    ) -> Result<Option<u32>, VsanError> {
        let host = self.host(&o.sku)?;
        let raw_per_host_tib = host.raw_capacity_tb * BYTES_PER_TB / BYTES_PER_TIB;
        let bounds = (first, last, reserved_raw_tib);
        let found = fewest_hosts(self, o, (data_gib, need), raw_per_host_tib, bounds)?;
        Ok(found.map(|(h, _, _)| h))
    }

    /// What `hosts` hosts of `o.sku` hold on vSAN, each of their clusters (`split`) losing
    /// `reserved_raw_tib` of raw capacity to what AVS runs there itself (the management
    /// VMs, vSAN system usage) and keeping `o.slack_pct` free; `None` below the cluster
    /// minimum or the policy's minimum hosts. The arithmetic of the vSAN-alone comparison
    /// ([`compare_cluster`]) and of the estate's hybrid design, in one place.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] for an unknown SKU.
    pub fn capacity(
        &self,
        o: &VsanOptions,
        hosts: u32,
        reserved_raw_tib: f64,
    ) -> Result<Option<VsanCapacity<'_>>, VsanError> {
        let host = self.host(&o.sku)?;
        let raw_per_host_tib = host.raw_capacity_tb * BYTES_PER_TB / BYTES_PER_TIB;
        Ok(self.capacity_of(o, raw_per_host_tib, hosts, reserved_raw_tib))
    }

    /// [`VsanCatalog::capacity`] for a known raw capacity per host.
    fn capacity_of(
        &self,
        o: &VsanOptions,
        raw_per_host_tib: f64,
        hosts: u32,
        reserved_raw_tib: f64,
    ) -> Option<VsanCapacity<'_>> {
        let split = self.limits.split(hosts)?;
        let policy = self.policy(&o.policy, split.smallest_cluster)?;
        if split.smallest_cluster < policy.min_hosts {
            return None;
        }
        let free = 1.0 - o.slack_pct / 100.0;
        let raw_for_data = free * f64::from(hosts) * raw_per_host_tib
            - f64::from(split.clusters) * reserved_raw_tib;
        let usable_data_gib =
            (raw_for_data.max(0.0) / policy.overhead_factor * o.dedup_ratio * 1024.0).max(0.0);
        Some(VsanCapacity {
            split,
            policy,
            raw_per_host_tib,
            usable_data_gib,
            fill_limit_gib: usable_data_gib / (1.0 + o.headroom_pct / 100.0),
        })
    }
}

/// Hosts, what they hold, and (with a load) what they deliver.
type Fewest<'a> = (u32, VsanCapacity<'a>, Option<(f64, f64)>);

/// The fewest hosts from `first` to `last` whose vSAN holds `data_gib`
/// ([`VsanCatalog::capacity`]) and, with `need`, carries its load
/// ([`VsanCatalog::carries_alone`]), with what they deliver then.
fn fewest_hosts<'a>(
    catalog: &'a VsanCatalog,
    o: &VsanOptions,
    (data_gib, need): (f64, Option<&VsanNeed>),
    raw_per_host_tib: f64,
    (first, last, reserved_raw_tib): (u32, u32, f64),
) -> Result<Option<Fewest<'a>>, VsanError> {
    for h in first.max(1)..=last {
        let Some(c) = catalog
            .capacity_of(o, raw_per_host_tib, h, reserved_raw_tib)
            .filter(|c| data_gib <= c.fill_limit_gib)
        else {
            continue;
        };
        let delivers = match need {
            Some(n) => match catalog.carries_alone(n, o, h)? {
                Some(d) => Some(d),
                None => continue,
            },
            None => None,
        };
        return Ok(Some((h, c, delivers)));
    }
    Ok(None)
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
/// `o.host_usd_per_hour`, else at `list_price`: [`compare_cluster`] with nothing reserved.
///
/// # Errors
/// As [`compare_cluster`].
pub fn compare(
    catalog: &VsanCatalog,
    data_gib: f64,
    cluster_hosts: u32,
    anf_usd_per_month: f64,
    hours_per_month: f64,
    o: &VsanOptions,
    list_price: &ListPrice,
) -> Result<VsanComparison, VsanError> {
    compare_cluster(
        catalog,
        (data_gib, None),
        (cluster_hosts, 0.0),
        anf_usd_per_month,
        hours_per_month,
        o,
        list_price,
    )
}

/// [`compare`] for a cluster of `cluster_hosts` each of whose clusters on vSAN loses
/// `reserved_raw_tib` of raw capacity to AVS's own use (the management VMs, vSAN system
/// usage; [`VsanCatalog::capacity`]), its hosts raised until they also carry `need` (its
/// data's IOPS and MiB/s, [`VsanCatalog::carries_alone`]) when given.
///
/// # Errors
/// [`VsanError::Invalid`] for an unknown SKU, a slack outside 0..100, a dedup ratio below 1,
/// a negative or non-finite price or data size; [`VsanError::Perf`] from the envelope.
pub fn compare_cluster(
    catalog: &VsanCatalog,
    (data_gib, need): (f64, Option<&VsanNeed>),
    (cluster_hosts, reserved_raw_tib): (u32, f64),
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
    let Some((hosts_needed, capacity, delivers)) = fewest_hosts(
        catalog,
        o,
        (data_gib, need),
        raw_per_host_tib,
        (cluster_hosts, MAX_HOSTS_SEARCHED, reserved_raw_tib),
    )?
    else {
        let g = crate::numbers::group_thousands;
        return Err(VsanError::DataTooLarge {
            place: String::new(),
            data_gib: g(data_gib, 0),
            data_tib: g(data_gib / 1024.0, 0),
            sku: o.sku.clone(),
        });
    };
    let (split, policy) = (capacity.split, capacity.policy);
    let hosts_for_capacity = match need.filter(|n| n.any()) {
        Some(_) => fewest_hosts(
            catalog,
            o,
            (data_gib, None),
            raw_per_host_tib,
            (cluster_hosts, MAX_HOSTS_SEARCHED, reserved_raw_tib),
        )?
        .map_or(hosts_needed, |(h, _, _)| h),
        None => hosts_needed,
    };
    let stored_tib = data_gib / 1024.0 / o.dedup_ratio * (1.0 + o.headroom_pct / 100.0);
    let raw_needed_tib = (stored_tib * policy.overhead_factor
        + f64::from(split.clusters) * reserved_raw_tib)
        / (1.0 - o.slack_pct / 100.0);
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
        hosts_for_capacity,
        predicted_iops: delivers.map(|d| d.0),
        predicted_throughput_mibps: delivers.map(|d| d.1),
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

    /// The default options without headroom: the hand calculations below count raw
    /// capacity alone (`headroom_stores_the_data_times_one_and_headroom` adds it).
    fn no_headroom() -> VsanOptions {
        VsanOptions {
            headroom_pct: 0.0,
            ..VsanOptions::default()
        }
    }

    #[test]
    fn headroom_stores_the_data_times_one_and_headroom() {
        let c = VsanCatalog::builtin().unwrap();
        // 10 TiB on AV36P (17.46229 TiB raw per host), RAID-5 FTT-1 (4/3), 25% slack:
        //   no headroom: raw needed 10 x 4/3 / 0.75 = 17.778 TiB -> 4 hosts (the policy's
        //   minimum; 4 x 17.46 = 69.8 TiB);
        //   headroom 20%: 12 x 4/3 / 0.75 = 21.333 TiB raw, still 4 hosts;
        //   4 hosts hold (0.75 x 4 x 17.46229) / (4/3) = 39.2902 TiB = 40,233.1 GiB when
        //   full to the slack, and 40,233.1 / 1.2 = 33,527.6 GiB within the headroom.
        let mut o = VsanOptions {
            policy: PolicyChoice::Named("raid5-ftt1".into()),
            ..no_headroom()
        };
        let r = compare(&c, 10_240.0, 4, 0.0, 730.0, &o, &at(9.20)).unwrap();
        assert!((r.raw_needed_tib - 17.777_778).abs() < 1e-5, "{r:?}");
        o.headroom_pct = 20.0;
        let r = compare(&c, 10_240.0, 4, 0.0, 730.0, &o, &at(9.20)).unwrap();
        assert!((r.raw_needed_tib - 21.333_333).abs() < 1e-5, "{r:?}");
        assert_eq!(r.hosts_needed, 4);
        let cap = c.capacity(&o, 4, 0.0).unwrap().unwrap();
        let full = 0.75 * 4.0 * 19.2e12 / 1_099_511_627_776.0 / (4.0 / 3.0) * 1024.0;
        assert!((cap.usable_data_gib - full).abs() < 1e-6);
        assert!((cap.fill_limit_gib - full / 1.2).abs() < 1e-6);
        assert!((full - 40_233.1).abs() < 0.1, "{full}");
        // Headroom out of range is refused, naming the setting.
        o.headroom_pct = -1.0;
        let e = compare(&c, 1.0, 3, 0.0, 730.0, &o, &at(9.20)).unwrap_err();
        assert!(e.to_string().contains("`headroom_pct`"), "{e}");
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
            ..no_headroom()
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
            ..no_headroom()
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
            ..no_headroom()
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
            ..no_headroom()
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
            ..no_headroom()
        };
        let r = compare(&c, 2048.0 * 1024.0, 16, 0.0, 730.0, &o, &unpriced()).unwrap();
        assert_eq!(r.hosts_needed, 234);
        assert_eq!((r.clusters_needed, r.private_clouds_needed), (15, 3));
    }

    #[test]
    fn unknown_sku_and_unpriced_sku() {
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions {
            sku: "av99".into(),
            ..no_headroom()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o, &unpriced()).is_err());
        // AV52 without a list price: hosts are counted, the cost is left unknown.
        let o = VsanOptions {
            sku: "av52".into(),
            ..no_headroom()
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
            ..no_headroom()
        };
        let r = compare(&c, 1.0, 3, 0.0, 730.0, &o, &at(9.20)).unwrap();
        assert_eq!(r.host_usd_per_hour, Some(7.0));
        assert!(
            r.note
                .starts_with("host price from `vsan_host_usd_per_hour`")
        );
        let o = VsanOptions {
            dedup_ratio: 0.5,
            ..no_headroom()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o, &unpriced()).is_err());
    }
}

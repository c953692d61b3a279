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
//! - hosts: the fewest `h >= --hosts` with `h x raw per host >= raw needed` and `h` at least
//!   the policy's minimum; with the `auto` policy, the most space-efficient policy that a
//!   cluster of `h` hosts allows at the failures to tolerate the AVS SLA asks for (FTT=1
//!   below 6 hosts: RAID-1 at 3, RAID-5 at 4..5; FTT=2 from 6: RAID-6). AVS's own default
//!   policy is RAID-1 FTT-1 whatever the size (policy `raid1-ftt1` for it);
//! - extra hosts: `h - --hosts`, at the SKU's hourly price x 730 h.
//!
//! Only capacity is compared (the plan's hosts are assumed sized for CPU and memory).

use std::str::FromStr;

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
    /// SKU name (`av36p`).
    pub sku: String,
    /// Raw vSAN capacity tier of one host, decimal TB.
    pub raw_capacity_tb: f64,
    /// Hourly price of one host, USD, where a public figure exists.
    pub usd_per_hour: Option<f64>,
    /// Region of that price.
    pub price_region: Option<String>,
    /// Where the figures come from.
    pub source: String,
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

/// Host SKUs and policies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanCatalog {
    /// Host SKUs.
    pub hosts: Vec<HostSku>,
    /// Storage policies.
    pub policies: Vec<VsanPolicy>,
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
        for (i, h) in hosts.iter().enumerate() {
            if !(h.raw_capacity_tb.is_finite() && h.raw_capacity_tb > 0.0) {
                return Err(VsanError::Parse {
                    file: "avs_hosts.csv",
                    row: i + 2,
                    detail: format!("raw capacity {} TB", h.raw_capacity_tb),
                });
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
        Ok(VsanCatalog { hosts, policies })
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

/// Options of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanOptions {
    /// Host SKU (`av36`, `av36p`, `av52`, `av64`).
    pub sku: String,
    /// Storage policy.
    pub policy: PolicyChoice,
    /// Capacity vSAN keeps free, percent 0..100 (default 25 \[VSAN-RULES\]; AVS alerts at 75%
    /// consumed, concepts-storage).
    pub slack_pct: f64,
    /// Dedup/compression ratio (>= 1; default 1.0, none assumed).
    pub dedup_ratio: f64,
    /// Hourly host price, USD, overriding `data/avs_hosts.csv` (needed for SKUs without a
    /// public figure).
    pub host_usd_per_hour: Option<f64>,
}

impl Default for VsanOptions {
    /// AV36P, `auto` policy, 25% slack, no dedup, the price of `data/avs_hosts.csv`.
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
        value: value.to_string(),
        expected: expected.into(),
    }
}

impl VsanOptions {
    /// Checks the settings against `catalog`: a known host SKU and policy, slack 0..<100,
    /// dedup ratio >= 1, a host price >= 0.
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
        if !(self.dedup_ratio.is_finite() && self.dedup_ratio >= 1.0) {
            return Err(invalid(
                "vsan_dedup_ratio",
                self.dedup_ratio,
                "a ratio >= 1",
            ));
        }
        if let Some(p) = self.host_usd_per_hour
            && !(p.is_finite() && p >= 0.0)
        {
            return Err(invalid("vsan_host_usd_per_hour", p, "a price >= 0"));
        }
        catalog.host(&self.sku)?;
        if let PolicyChoice::Named(name) = &self.policy {
            name.parse::<PolicyChoice>()?;
        }
        Ok(())
    }
}

/// Compares storing `data_gib` on vSAN (more AVS hosts) with the ANF plan costing
/// `anf_usd_per_month` for a cluster of `cluster_hosts`.
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
) -> Result<VsanComparison, VsanError> {
    o.validate(catalog)?;
    if !(data_gib.is_finite() && data_gib >= 0.0) {
        return Err(invalid("capacity", data_gib, "a finite GiB >= 0"));
    }
    let host = catalog.host(&o.sku)?;
    let raw_per_host_tib = host.raw_capacity_tb * BYTES_PER_TB / BYTES_PER_TIB;
    let stored_tib = data_gib / 1024.0 / o.dedup_ratio;
    let free = 1.0 - o.slack_pct / 100.0;
    let mut found = None;
    for h in cluster_hosts.max(1)..=MAX_HOSTS_SEARCHED {
        let Some(policy) = catalog.policy(&o.policy, h) else {
            continue;
        };
        let raw_needed = stored_tib * policy.overhead_factor / free;
        if h >= policy.min_hosts && f64::from(h) * raw_per_host_tib >= raw_needed {
            found = Some((h, policy, raw_needed));
            break;
        }
    }
    let Some((hosts_needed, policy, raw_needed_tib)) = found else {
        return Err(invalid(
            "capacity",
            data_gib,
            "data that fits a vSAN cluster of the chosen policy",
        ));
    };
    let extra_hosts = hosts_needed - cluster_hosts.min(hosts_needed);
    let price = o.host_usd_per_hour.or(host.usd_per_hour);
    let note = match (o.host_usd_per_hour, host.usd_per_hour) {
        (Some(_), _) => "host price from `vsan_host_usd_per_hour`".to_string(),
        (None, Some(_)) => format!(
            "host price: data/avs_hosts.csv ({} list price); capacity only, CPU and memory \
             not compared",
            host.price_region.as_deref().unwrap_or("unknown region")
        ),
        (None, None) => format!(
            "no public price for {}: pass `vsan_host_usd_per_hour`; capacity only",
            host.sku
        ),
    };
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
        let r = compare(&c, 102_400.0, 3, 1000.0, 730.0, &o).unwrap();
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
        let r = compare(&c, 20.0 * 1024.0, 3, 0.0, 730.0, &o).unwrap();
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
        let r = compare(&c, 20.0 * 1024.0, 3, 0.0, 730.0, &o).unwrap();
        assert_eq!((r.hosts_needed, r.extra_hosts), (3, 0));
        assert_eq!(r.extra_hosts_usd_per_month, Some(0.0));
    }

    #[test]
    fn unknown_sku_and_unpriced_sku() {
        let c = VsanCatalog::builtin().unwrap();
        let o = VsanOptions {
            sku: "av99".into(),
            ..VsanOptions::default()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o).is_err());
        // AV52 has no public price: hosts are counted, the cost is left unknown.
        let o = VsanOptions {
            sku: "av52".into(),
            ..VsanOptions::default()
        };
        let r = compare(&c, 1.0, 3, 0.0, 730.0, &o).unwrap();
        assert_eq!(r.extra_hosts_usd_per_month, None);
        assert!(r.note.contains("pass `vsan_host_usd_per_hour`"));
        let o = VsanOptions {
            dedup_ratio: 0.5,
            ..VsanOptions::default()
        };
        assert!(compare(&c, 1.0, 3, 0.0, 730.0, &o).is_err());
    }
}

//! Cool-access throughput of Premium and Ultra: which rule applies in a region, and the one
//! function that turns a level, a cold share and that rule into MiB/s per TiB
//! ([`cool_access_rate_mibps_per_tib`]).
//!
//! Two rules exist \[COOL\] (learn.microsoft.com/azure/azure-netapp-files/cool-access-introduction,
//! 2026-03-10):
//! - the *legacy* flat rate: Premium 36, Ultra 68 MiB/s per TiB once cool access is on
//!   (`cool_access_throughput_mibps_per_tib` in `data/service_levels.csv`), kept for pools
//!   that enabled cool access before the change and, conservatively, wherever the page does
//!   not list the current rule;
//! - the *current* per-volume rule, in the regions of `data/cool_access_regions.csv`:
//!   hot-tier TiB x the level's rate (64 / 128) + cool-tier TiB x 16 MiB/s per TiB
//!   (`data/cool_access_rule.csv`), for auto-QoS volumes with more than 100 GiB of cool data.
//!
//! dsplan plans manual-QoS pools, a case the page leaves open, so where the current rule is
//! listed it takes the lower of the two rules for the given cold share.

use serde::{Deserialize, Serialize};

use super::{CatalogError, ServiceLevel, ServiceLevelSpec, parse_rows};

/// `data/cool_access_regions.csv`, compiled in: the regions the page lists for the current
/// Premium/Ultra cool-access throughput rule.
pub const COOL_ACCESS_REGIONS_CSV: &str = include_str!("../../data/cool_access_regions.csv");
/// `data/cool_access_rule.csv`, compiled in: the cool-tier rate of the current rule per level.
pub const COOL_ACCESS_RULE_CSV: &str = include_str!("../../data/cool_access_rule.csv");

/// A region where the current per-volume rule applies (a row of
/// `data/cool_access_regions.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoolAccessRegion {
    /// ARM region name (`japaneast`).
    pub region: String,
    /// Display name as on the page (`Japan East`).
    pub location: String,
    /// The page and its date.
    pub source: String,
}

/// The current rule's cool-tier rate of one level (a row of `data/cool_access_rule.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoolTierRate {
    /// Premium or Ultra.
    pub service_level: ServiceLevel,
    /// MiB/s per TiB of data in the cool tier (16).
    pub cool_tier_throughput_mibps_per_tib: f64,
    /// The page and its date.
    pub source: String,
}

/// The cool-access rules of the catalog.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CoolAccessRules {
    /// Regions with the current per-volume rule.
    pub regions: Vec<CoolAccessRegion>,
    /// Cool-tier rate per level under the current rule.
    pub tier_rates: Vec<CoolTierRate>,
}

/// Which Premium/Ultra cool-access rule a pool gets.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CoolThroughputRule {
    /// The legacy flat rate (Premium 36, Ultra 68 MiB/s per TiB).
    Legacy,
    /// The region lists the current per-volume rule; for dsplan's manual-QoS pools the
    /// lower of it and the legacy rate.
    LowerOfLegacyAndPerVolume {
        /// MiB/s per TiB of cool-tier data (16).
        cool_tier_mibps_per_tib: f64,
    },
}

impl CoolThroughputRule {
    /// `legacy` or `lower of legacy and per-volume`, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            CoolThroughputRule::Legacy => "legacy flat rate",
            CoolThroughputRule::LowerOfLegacyAndPerVolume { .. } => {
                "lower of the legacy flat rate and the per-volume rule"
            }
        }
    }
}

/// MiB/s per TiB of pool a level grants with cool access on, for `cold_share` (0..=1, the
/// share of the data in the cool tier; clamped) under `rule`.
///
/// - Flexible keeps its configured throughput: its per-TiB rate (0) is returned unchanged.
/// - [`CoolThroughputRule::Legacy`]: `cool_access_throughput_mibps_per_tib` (Standard 16,
///   Premium 36, Ultra 68).
/// - [`CoolThroughputRule::LowerOfLegacyAndPerVolume`]: `min(legacy, (1 - s) x level rate +
///   s x cool-tier rate)`, the per-volume figure rounded to 1e-9; Premium at 80% cold:
///   `min(36, 0.2 x 64 + 0.8 x 16) = 25.6`.
pub fn cool_access_rate_mibps_per_tib(
    spec: &ServiceLevelSpec,
    cold_share: f64,
    rule: CoolThroughputRule,
) -> f64 {
    if spec.service_level == ServiceLevel::Flexible {
        return spec.throughput_mibps_per_tib;
    }
    let legacy = spec.cool_access_throughput_mibps_per_tib;
    match rule {
        CoolThroughputRule::Legacy => legacy,
        CoolThroughputRule::LowerOfLegacyAndPerVolume {
            cool_tier_mibps_per_tib,
        } => {
            let s = if cold_share.is_finite() {
                cold_share.clamp(0.0, 1.0)
            } else {
                1.0
            };
            let per_volume =
                (1.0 - s) * spec.throughput_mibps_per_tib + s * cool_tier_mibps_per_tib;
            // Rounded to 1e-9 MiB/s per TiB: 0.2 x 64 + 0.8 x 16 is 25.599999999999998 in
            // binary, which would ask for a 21st TiB at 512 MiB/s; the rounding is far below
            // any published figure.
            legacy.min((per_volume * 1e9).round() / 1e9)
        }
    }
}

impl CoolAccessRules {
    /// The built-in rules from `data/`.
    ///
    /// # Errors
    /// [`CatalogError::Parse`] naming the file and row (a build defect; tests cover it).
    pub fn builtin() -> Result<CoolAccessRules, CatalogError> {
        CoolAccessRules::from_csv(COOL_ACCESS_REGIONS_CSV, COOL_ACCESS_RULE_CSV)
    }

    /// Parses the two files' text.
    ///
    /// # Errors
    /// [`CatalogError::Parse`] naming the file and row.
    pub fn from_csv(regions_csv: &str, rule_csv: &str) -> Result<CoolAccessRules, CatalogError> {
        let regions = parse_rows::<CoolAccessRegion>("cool_access_regions.csv", regions_csv)?
            .into_iter()
            .map(|mut r| {
                r.region = r.region.trim().to_ascii_lowercase();
                r
            })
            .collect();
        let mut tier_rates = Vec::new();
        for (i, r) in parse_rows::<RateRow>("cool_access_rule.csv", rule_csv)?
            .into_iter()
            .enumerate()
        {
            let bad = |detail: String| CatalogError::Parse {
                file: "cool_access_rule.csv".into(),
                row: i + 2,
                detail,
            };
            let level = r
                .service_level
                .parse::<ServiceLevel>()
                .map_err(|e| bad(e.to_string()))?;
            let rate = r.cool_tier_throughput_mibps_per_tib;
            if !(rate.is_finite() && rate >= 0.0) {
                return Err(bad(format!("rate {rate} is not a MiB/s per TiB")));
            }
            tier_rates.push(CoolTierRate {
                service_level: level,
                cool_tier_throughput_mibps_per_tib: rate,
                source: r.source,
            });
        }
        Ok(CoolAccessRules {
            regions,
            tier_rates,
        })
    }

    /// Whether `region` (ARM name, case-insensitive) is listed for the current rule.
    pub fn region_has_current_rule(&self, region: &str) -> bool {
        let key = region.trim().to_ascii_lowercase();
        self.regions.iter().any(|r| r.region == key)
    }

    /// The rule a new pool of `level` gets in `region`: the lower of the two where the
    /// region is listed and the level has a cool-tier rate, else the legacy rate.
    pub fn rule(&self, region: &str, level: ServiceLevel) -> CoolThroughputRule {
        match self.tier_rates.iter().find(|r| r.service_level == level) {
            Some(r) if self.region_has_current_rule(region) => {
                CoolThroughputRule::LowerOfLegacyAndPerVolume {
                    cool_tier_mibps_per_tib: r.cool_tier_throughput_mibps_per_tib,
                }
            }
            _ => CoolThroughputRule::Legacy,
        }
    }
}

#[derive(Deserialize)]
struct RateRow {
    service_level: String,
    cool_tier_throughput_mibps_per_tib: f64,
    source: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn premium_at_80_pct_cold_in_a_listed_region_is_25_6() {
        let c = Catalog::builtin().unwrap();
        let premium = c.service_level(ServiceLevel::Premium).unwrap();
        let ultra = c.service_level(ServiceLevel::Ultra).unwrap();
        // japaneast is on the 2026-03-10 list; eastus and westeurope are not.
        let rule = c.cool_access.rule("JapanEast", ServiceLevel::Premium);
        // 0.2 x 64 + 0.8 x 16 = 12.8 + 12.8 = 25.6 < 36
        assert_eq!(cool_access_rate_mibps_per_tib(premium, 0.8, rule), 25.6);
        // 0.2 x 128 + 0.8 x 16 = 25.6 + 12.8 = 38.4 < 68
        let u = cool_access_rate_mibps_per_tib(
            ultra,
            0.8,
            c.cool_access.rule("japaneast", ServiceLevel::Ultra),
        );
        assert_eq!(u, 38.4);
        // 20% cold: 0.8 x 64 + 0.2 x 16 = 54.4 > 36, so the legacy 36 (the lower) applies.
        assert_eq!(cool_access_rate_mibps_per_tib(premium, 0.2, rule), 36.0);
        // eastus: legacy 36 / 68 whatever the cold share.
        for region in ["eastus", "westeurope"] {
            let r = c.cool_access.rule(region, ServiceLevel::Premium);
            assert_eq!(r, CoolThroughputRule::Legacy);
            assert_eq!(cool_access_rate_mibps_per_tib(premium, 0.8, r), 36.0);
        }
        // Standard has no per-volume rule (16 either way); Flexible keeps its throughput.
        assert_eq!(
            c.cool_access.rule("japaneast", ServiceLevel::Standard),
            CoolThroughputRule::Legacy
        );
        let flex = c.service_level(ServiceLevel::Flexible).unwrap();
        assert_eq!(cool_access_rate_mibps_per_tib(flex, 0.8, rule), 0.0);
    }

    #[test]
    fn the_page_lists_21_regions_each_priced_and_sourced() {
        let c = Catalog::builtin().unwrap();
        // cool-access-introduction (2026-03-10): 21 regions under "Supported regions for
        // cool access throughput for premium and ultra service levels feature".
        assert_eq!(c.cool_access.regions.len(), 21);
        for r in &c.cool_access.regions {
            assert!(c.region(&r.region).is_ok(), "{} not priced", r.region);
            assert!(r.source.contains("(2026-03-10)"), "{}", r.source);
        }
        assert_eq!(c.cool_access.tier_rates.len(), 2);
        assert!(
            c.cool_access
                .tier_rates
                .iter()
                .all(|t| t.cool_tier_throughput_mibps_per_tib == 16.0)
        );
    }

    #[test]
    fn bad_rows_are_errors_naming_the_file() {
        let e = CoolAccessRules::from_csv(
            COOL_ACCESS_REGIONS_CSV,
            "service_level,cool_tier_throughput_mibps_per_tib,source\nmedium,16,x\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("cool_access_rule.csv") && e.contains("row 2"),
            "{e}"
        );
    }
}

//! [`VsanOptions`]: the settings of the vSAN comparison, their defaults and setters, and
//! the assumption rows they give the plans ([`VsanOptions::validate`] checks them, beside
//! the comparison).

use serde::{Deserialize, Serialize};

use super::PolicyChoice;

/// Options of the comparison. `#[non_exhaustive]`: outside this crate, built from
/// [`VsanOptions::default`] and its chaining setters
/// (`VsanOptions::default().sku("av64").slack_pct(30.0)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// Headroom on the data, percent 0..=1,000 (default 20, the plan's `headroom_pct`):
    /// vSAN holds at most its usable capacity (after slack) / (1 + headroom / 100), as the
    /// ANF datastores hold the data x (1 + headroom / 100).
    #[serde(default = "default_headroom_pct")]
    pub headroom_pct: f64,
    /// Hourly host price, USD, overriding the region's list price (needed for SKUs without
    /// one in the plan's region).
    pub host_usd_per_hour: Option<f64>,
}

impl Default for VsanOptions {
    /// AV36P, `auto` policy, 25% slack, no dedup, 20% headroom, the region's list price.
    fn default() -> Self {
        VsanOptions {
            sku: crate::defaults::VSAN_HOST.into(),
            policy: PolicyChoice::Auto,
            slack_pct: crate::defaults::VSAN_SLACK_PCT,
            dedup_ratio: crate::defaults::VSAN_DEDUP_RATIO,
            headroom_pct: crate::defaults::HEADROOM_PCT,
            host_usd_per_hour: None,
        }
    }
}

/// The headroom a serialized [`VsanOptions`] without one takes: the plan's default.
fn default_headroom_pct() -> f64 {
    crate::defaults::HEADROOM_PCT
}

impl VsanOptions {
    /// The comparison's storage policy and dedup/compression ratio with their sources, as
    /// the plans' assumption rows: (name, value, note).
    pub fn assumption_rows(&self) -> [(&'static str, String, String); 2] {
        let policy = self.policy.to_string();
        [
            (
                "vsan_policy",
                policy,
                "`vsan_policy` (default auto): RAID-1 FTT-1 at 3 hosts, RAID-5 FTT-1 at 4..5, \
                 RAID-6 FTT-2 from 6 (configure-storage-policy; the AVS SLA asks for FTT-2 \
                 from 6 hosts), AV64 too: AVS configures seven vSAN fault domains for AV64 \
                 clusters, RAID-6 needs six (introduction, 2025-12-19), and every AV64 region \
                 of the host-type table shows seven (architecture-private-clouds, \
                 2025-08-14); in a region still limited to five, Microsoft allows RAID-5 FTT-1 \
                 on AV64 clusters of 6+ hosts: set `vsan_policy` raid5-ftt1 there \
                 (data/vsan_policies.csv)"
                    .into(),
            ),
            (
                "vsan_dedup_ratio",
                self.dedup_ratio.to_string(),
                "`vsan_dedup_ratio` (default 1: none, the conservative figure): AVS turns \
                 deduplication and compression on by default on vSAN OSA hosts \
                 (configure-vsan, 2023-12-07), compression only on ESA hosts \
                 (configure-vsan-esa, 2025-05-12), but no Microsoft page gives a ratio; the \
                 Azure Migrate AVS assessment takes 1..10 and states no default \
                 (concepts-azure-vmware-solution-assessment-calculation, 2024-12-06); the AVS \
                 TCO estimator defaults to 1.2 (Azure/azure-netapp-files docs/avs-calc, \
                 2025-06-04)"
                    .into(),
            ),
        ]
    }
}

crate::setters::setters!(VsanOptions {
    sku: into: String;
    policy: is: PolicyChoice;
    slack_pct: is: f64;
    dedup_ratio: is: f64;
    headroom_pct: is: f64;
    host_usd_per_hour: Maybe(f64);
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal.
    #[test]
    fn setters_set_their_own_field() {
        let by_hand = VsanOptions {
            sku: "av64".into(),
            policy: PolicyChoice::Named("raid5-ftt1".into()),
            slack_pct: 30.0,
            dedup_ratio: 1.5,
            headroom_pct: 10.0,
            host_usd_per_hour: Some(12.5),
        };
        let set = VsanOptions::default()
            .sku("av64")
            .policy(PolicyChoice::Named("raid5-ftt1".into()))
            .slack_pct(30.0)
            .dedup_ratio(1.5)
            .headroom_pct(10.0)
            .host_usd_per_hour(12.5);
        assert_eq!(set, by_hand);
        assert_eq!(set.clone().host_usd_per_hour(None).host_usd_per_hour, None);
        assert_ne!(set, VsanOptions::default());
    }
}

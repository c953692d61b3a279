//! The options that turn an inventory into a demand: capacity basis, growth, snapshot
//! reserve, headroom, scope and targets.

use serde::{Deserialize, Serialize};

use super::DemandError;
use crate::defaults;
use crate::numbers::show_setting;
use crate::perf::IoProfile;

/// Which vInfo figure sizes a VM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CapacityBasis {
    /// `In Use MiB`: space the VM actually consumes (thin provisioning on NFS datastores).
    #[default]
    InUse,
    /// `Provisioned MiB`: space committed to the VM (worst case when every thin disk fills).
    Provisioned,
    /// Sum of the guest partitions' `Consumed MiB` (vPartition): what the guest OS has
    /// written; smallest, misses swap, snapshots and unpartitioned disks.
    GuestConsumed,
    /// `Unshared MiB`: in-use space not shared with other VMs (linked clones).
    Unshared,
}

impl CapacityBasis {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CapacityBasis::InUse => "in-use",
            CapacityBasis::Provisioned => "provisioned",
            CapacityBasis::GuestConsumed => "guest-consumed",
            CapacityBasis::Unshared => "unshared",
        }
    }
}

impl std::fmt::Display for CapacityBasis {
    /// [`CapacityBasis::as_str`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for CapacityBasis {
    type Err = DemandError;

    /// A basis by its command-line spelling, any case, `_` for `-`:
    ///
    /// ```
    /// use dsplan::demand::CapacityBasis;
    ///
    /// assert_eq!("guest_consumed".parse::<CapacityBasis>()?, CapacityBasis::GuestConsumed);
    /// assert_eq!(CapacityBasis::InUse.to_string(), "in-use");
    /// assert!("inuse".parse::<CapacityBasis>().is_err());
    /// # Ok::<(), dsplan::demand::DemandError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().replace('_', "-");
        [
            CapacityBasis::InUse,
            CapacityBasis::Provisioned,
            CapacityBasis::GuestConsumed,
            CapacityBasis::Unshared,
        ]
        .into_iter()
        .find(|b| t.eq_ignore_ascii_case(b.as_str()))
        .ok_or_else(|| DemandError::Invalid {
            option: "capacity_basis",
            value: crate::numbers::clip(s),
            expected: "in-use, provisioned, guest-consumed or unshared",
        })
    }
}

/// Which VMs are in scope, beyond the cluster filter. Names compare trimmed and
/// case-insensitively; a name that matches no VM is an error. `#[non_exhaustive]`: built
/// from [`Scope::default`] and its chaining setters (`Scope::default().vcenters(["vc-a"])`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Scope {
    /// Plan templates too (excluded by default: a template is not a running VM).
    pub include_templates: bool,
    /// Plan SRM placeholders too (excluded by default: they hold no data at this site).
    pub include_srm_placeholders: bool,
    /// Leave suspended VMs out (included by default: they hold capacity).
    pub exclude_suspended: bool,
    /// Only VMs of these vCenters (`VI SDK Server`); empty = all.
    pub vcenters: Vec<String>,
    /// Only VMs of these datacenters (`Datacenter`); empty = all.
    pub datacenters: Vec<String>,
}

/// Options that turn an inventory into a demand. `#[non_exhaustive]`: outside this crate,
/// built from [`DemandOptions::default`] and its chaining setters
/// (`DemandOptions::default().growth_pct(30.0)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DemandOptions {
    /// Which vInfo figure sizes a VM.
    pub capacity_basis: CapacityBasis,
    /// Expected data growth over the plan's life, percent (>= 0).
    pub growth_pct: f64,
    /// Extra capacity provisioned on top of the data after growth, percent (>= 0): the
    /// datastores are sized at `(1 + headroom/100)` x data, so 20% leaves 1/6 of each
    /// datastore free.
    pub headroom_pct: f64,
    /// Space reserved for ANF snapshots, percent of the data after growth (>= 0; default 0).
    #[serde(default)]
    pub snapshot_reserve_pct: f64,
    /// Exclude powered-off VMs (they still hold capacity, so they are included by default).
    pub exclude_powered_off: bool,
    /// Only VMs of these source clusters (names compared trimmed and case-insensitively);
    /// empty = all. A name is a cluster's label (`Cluster1 (vc-a)`), else a bare name
    /// (every cluster of that name, with a warning when there are several), else a long
    /// form `name (vCenter)` / `name (vCenter/datacenter)`
    /// ([`crate::inventory::SourceClusters::select`]). A name that matches no VM is an error.
    pub clusters: Vec<String>,
    /// Small-block IOPS target at `io_profile` (>= 0).
    pub iops: f64,
    /// Large-block throughput target, MiB/s (>= 0).
    pub throughput_mibps: f64,
    /// Shape of the IOPS target.
    pub io_profile: IoProfile,
    /// Further scope switches and filters.
    #[serde(default)]
    pub scope: Scope,
}

impl Default for DemandOptions {
    /// The command's defaults ([`crate::defaults`]): in-use basis, no growth, 20% headroom,
    /// no snapshot reserve, powered-off VMs included, all clusters, no performance targets,
    /// 8 KiB 70% read 80% random.
    fn default() -> Self {
        DemandOptions {
            capacity_basis: CapacityBasis::InUse,
            growth_pct: crate::defaults::GROWTH_PCT,
            headroom_pct: crate::defaults::HEADROOM_PCT,
            snapshot_reserve_pct: crate::defaults::SNAPSHOT_RESERVE_PCT,
            exclude_powered_off: false,
            clusters: Vec::new(),
            iops: 0.0,
            throughput_mibps: 0.0,
            io_profile: IoProfile::default(),
            scope: Scope::default(),
        }
    }
}

impl DemandOptions {
    /// Checks what needs no inventory: growth, headroom, snapshot reserve and the targets
    /// finite and >= 0, and the I/O profile ([`IoProfile::validate`]). [`super::derive`]
    /// checks the same, and the filters against the inventory.
    ///
    /// # Errors
    /// [`DemandError::Invalid`] naming the setting, or [`DemandError::Profile`].
    pub fn validate(&self) -> Result<(), DemandError> {
        const PCT: &str = "from 0 to 1000 percent";
        const IOPS: &str = "from 0 to 1,000,000,000, far above any AVS estate: 96 hosts x \
                            198,060 IOPS per host, the largest measured per-host figure, is \
                            about 19 million";
        const MIBPS: &str = "from 0 to 10,000,000, far above any AVS estate: 96 hosts x a 100 \
                             GbE link is about 1.1 million MiB/s";
        for (option, v, max, expected) in [
            ("growth_pct", self.growth_pct, defaults::MAX_GROWTH_PCT, PCT),
            (
                "headroom_pct",
                self.headroom_pct,
                defaults::MAX_GROWTH_PCT,
                PCT,
            ),
            (
                "snapshot_reserve_pct",
                self.snapshot_reserve_pct,
                defaults::MAX_GROWTH_PCT,
                PCT,
            ),
            ("iops", self.iops, defaults::MAX_IOPS, IOPS),
            (
                "throughput_mibps",
                self.throughput_mibps,
                defaults::MAX_THROUGHPUT_MIBPS,
                MIBPS,
            ),
        ] {
            if !(0.0..=max).contains(&v) {
                return Err(DemandError::Invalid {
                    option,
                    value: show_setting(v),
                    expected,
                });
            }
        }
        Ok(self.io_profile.validate()?)
    }
}

crate::setters::setters!(Scope {
    include_templates: is: bool;
    include_srm_placeholders: is: bool;
    exclude_suspended: is: bool;
    vcenters: list: String;
    datacenters: list: String;
});

crate::setters::setters!(DemandOptions {
    capacity_basis: is: CapacityBasis;
    growth_pct: is: f64;
    headroom_pct: is: f64;
    snapshot_reserve_pct: is: f64;
    exclude_powered_off: is: bool;
    clusters: list: String;
    iops: is: f64;
    throughput_mibps: is: f64;
    io_profile: is: IoProfile;
    scope: is: Scope;
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal.
    #[test]
    fn setters_set_their_own_field() {
        let profile = IoProfile {
            block_size_kib: 64.0,
            ..IoProfile::default()
        };
        let scope_by_hand = Scope {
            include_templates: true,
            include_srm_placeholders: true,
            exclude_suspended: true,
            vcenters: vec!["vc-a".into()],
            datacenters: vec!["dc-1".into(), "dc-2".into()],
        };
        let scope = Scope::default()
            .include_templates(true)
            .include_srm_placeholders(true)
            .exclude_suspended(true)
            .vcenters(["vc-a"])
            .datacenters(["dc-1", "dc-2"]);
        assert_eq!(scope, scope_by_hand);
        let by_hand = DemandOptions {
            capacity_basis: CapacityBasis::Provisioned,
            growth_pct: 10.0,
            headroom_pct: 30.0,
            snapshot_reserve_pct: 5.0,
            exclude_powered_off: true,
            clusters: vec!["Prod".into()],
            iops: 1_000.0,
            throughput_mibps: 200.0,
            io_profile: profile,
            scope: scope_by_hand,
        };
        let set = DemandOptions::default()
            .capacity_basis(CapacityBasis::Provisioned)
            .growth_pct(10.0)
            .headroom_pct(30.0)
            .snapshot_reserve_pct(5.0)
            .exclude_powered_off(true)
            .clusters(["Prod"])
            .iops(1_000.0)
            .throughput_mibps(200.0)
            .io_profile(profile)
            .scope(scope);
        assert_eq!(set, by_hand);
        assert_ne!(set, DemandOptions::default());
    }
}

//! Chaining setters of [`PlanOptions`]: each takes the options by value, sets one field
//! and gives them back, so options are written as one expression from the defaults:
//!
//! ```
//! use dsplan::prelude::*;
//!
//! let options = PlanOptions::default()
//!     .region("West Europe")
//!     .host_sku("AV36P")
//!     .iops(20_000.0)
//!     .design(Design::Hybrid);
//! assert_eq!(options.region.as_ref(), "West Europe");
//! assert_eq!(options.design, Some(Design::Hybrid));
//! ```
//!
//! A setter sets; it does not check. [`PlanOptions::checked`] checks the options where
//! they are built, as [`crate::Planner::check`] and every plan do: every setting against
//! its range and the others, naming the one at fault. The
//! options are `#[non_exhaustive]`: a program outside this crate builds them from
//! [`PlanOptions::default`] (or JSON) and these setters, so a setting added later breaks
//! no caller.

use std::path::PathBuf;

use super::PlanOptions;
use crate::catalog::{Region, ReservationTerm, ServiceLevel};
use crate::demand::CapacityBasis;
use crate::ingest::PerfBasis;
use crate::perf::IoProfile;
use crate::plan::Design;
use crate::sizing::{Grouping, HostTerm, MemoryBasis};
use crate::vsan::{HostSkuName, PolicyChoice};

crate::setters::setters!(PlanOptions {
    hosts: Some(u32);
    host_sku: SomeInto(HostSkuName);
    vcpu_per_core: is: f64;
    memory_basis: is: MemoryBasis;
    memory_overcommit: is: f64;
    ha_hosts: is: u32;
    group: is: Grouping;
    host_term: is: HostTerm;
    host_price_file: SomeInto(PathBuf);
    per_cluster: is: bool;
    clusters: list: String;
    vcenters: list: String;
    datacenters: list: String;
    include_templates: is: bool;
    include_srm_placeholders: is: bool;
    exclude_powered_off: is: bool;
    exclude_suspended: is: bool;
    capacity_basis: is: CapacityBasis;
    growth_pct: is: f64;
    headroom_pct: is: f64;
    snapshot_reserve_pct: is: f64;
    iops: is: f64;
    throughput_mibps: is: f64;
    io_profile: is: IoProfile;
    perf: SomeInto(PathBuf);
    perf_basis: is: PerfBasis;
    region: into: Region;
    allow_unlisted_region: is: bool;
    price_file: SomeInto(PathBuf);
    service_levels: list: ServiceLevel;
    max_datastores: is: u32;
    cold_pct: is: f64;
    cool_retrieval_pct: is: f64;
    reservation: is: ReservationTerm;
    nconnect: is: u32;
    peak_months: Some(u32);
    peak_iops: is: f64;
    peak_throughput_mibps: is: f64;
    allow_large_volumes: is: bool;
    vsan_comparison: is: bool;
    vsan_host: into: String;
    vsan_policy: is: PolicyChoice;
    vsan_slack_pct: is: f64;
    vsan_dedup_ratio: is: f64;
    vsan_host_usd_per_hour: Maybe(f64);
    design: Maybe(Design);
    existing_er_gateways: is: u32;
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: the options set by hand and by the
    /// setters serialize alike.
    #[test]
    fn setters_set_their_own_field() {
        let by_hand = PlanOptions {
            hosts: Some(4),
            iops: 1_000.0,
            clusters: vec!["Prod".into(), "Dev".into()],
            region: Region::from("westeurope"),
            perf: Some(PathBuf::from("perf.csv")),
            design: Some(Design::Anf),
            ..PlanOptions::default()
        };
        let set = PlanOptions::default()
            .hosts(4)
            .iops(1_000.0)
            .clusters(["Prod", "Dev"])
            .region("westeurope")
            .perf("perf.csv")
            .design(Design::Anf);
        assert_eq!(
            serde_json::to_value(&set).unwrap(),
            serde_json::to_value(&by_hand).unwrap()
        );
        assert_ne!(set, PlanOptions::default());
    }
}

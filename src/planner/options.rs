//! [`PlanOptions`]: every setting of a plan, with the command's defaults
//! ([`crate::defaults`]), and its translation into each stage's options.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::catalog::{Region, ReservationTerm, ServiceLevel};
use crate::defaults;
use crate::demand::{CapacityBasis, DemandOptions, Scope};
use crate::ingest::PerfBasis;
use crate::inventory::{Warning, WarningKind};
use crate::optimize::{OptimizeOptions, PeakOptions};
use crate::perf::IoProfile;
use crate::plan::Design;
use crate::sizing::{Grouping, HostTerm, MemoryBasis, SizingOptions};
use crate::vsan::{HostSkuName, PolicyChoice, VsanCatalog, VsanOptions};

use super::Error;

/// Every setting of a plan. `PlanOptions::default()` gives the `dsplan plan` command's
/// defaults (all from [`crate::defaults`]); field names are the names library messages use
/// (in backticks), and each maps to the flag of the same name with dashes
/// (`headroom_pct` is `--headroom-pct`; `clusters`, `vcenters`, `datacenters` are the
/// repeatable `--cluster`, `--vcenter`, `--datacenter`; `io_profile` is `--block-size`,
/// `--read-pct`, `--random-pct`; `vsan_host` is `--vsan-host`).
///
/// Percentages are 0..=100 unless said otherwise; capacities are binary units.
///
/// Read from JSON, a field no setting has is refused, naming it (a typo such as `regoin`
/// would otherwise plan with the default):
///
/// ```
/// use dsplan::PlanOptions;
///
/// let err = serde_json::from_str::<PlanOptions>(r#"{"regoin": "westeurope"}"#).unwrap_err();
/// assert!(err.to_string().contains("unknown field `regoin`"));
/// let options: PlanOptions = serde_json::from_str(r#"{"region": "westeurope"}"#)?;
/// assert_eq!(options.region, "westeurope");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct PlanOptions {
    /// AVS hosts in the one cluster that mounts every datastore (3..=16): the storage plan
    /// of that cluster ([`crate::Planner::run`] returns [`crate::Planned::Single`]). `None`:
    /// the estate is sized from compute ([`crate::Planned::Estate`]); with
    /// [`PlanOptions::per_cluster`] each source cluster's own hosts (vHost, vInfo, vCluster);
    /// [`crate::Planner::plan`] takes 3 ([`defaults::HOSTS`]).
    pub hosts: Option<u32>,
    /// Host SKU of the estate plan (`av36`, `av36p`, `av48`, `av52`, `av64`, `av64-gen2`;
    /// `None`: every SKU of `data/avs_hosts.csv`, the lowest total cost chosen). With
    /// `hosts` or `per_cluster`, the SKU of the hosts that mount the datastores: its
    /// performance system (`perf_system` in `data/avs_hosts.csv`; `None`: `anf-avs`).
    pub host_sku: Option<HostSkuName>,
    /// vCPUs per physical core when sizing hosts (default 4).
    pub vcpu_per_core: f64,
    /// Memory figure that sizes hosts (default configured).
    pub memory_basis: MemoryBasis,
    /// Memory overcommit when sizing hosts (default 1).
    pub memory_overcommit: f64,
    /// Hosts per AVS cluster kept free for vSphere HA (default 1, AVS's n+1).
    pub ha_hosts: u32,
    /// How VMs are grouped into AVS clusters (default by source cluster).
    pub group: Grouping,
    /// How AVS hosts are bought (default pay as you go; reserved terms need a price in
    /// `host_price_file`).
    pub host_term: HostTerm,
    /// A CSV of AVS host prices (`sku,term,usd_per_hour,region,source`), added to the
    /// plan region's built-in pay-as-you-go list prices (`data/avs_host_prices.csv`); its
    /// rows win, and a row of another region is used with the plan saying whose it is.
    pub host_price_file: Option<PathBuf>,
    /// Plan each source cluster separately (its own hosts, its capacity share of the
    /// targets) and add a total; [`crate::Planner::run`] then returns
    /// [`crate::Planned::PerCluster`].
    pub per_cluster: bool,
    /// Only VMs of these source clusters (trimmed, case-insensitive; empty = all), each a
    /// cluster's label (`Cluster1`, `Cluster1 (vc-a)`: see
    /// [`crate::inventory::SourceClusters`]) or bare name (every cluster of that name).
    pub clusters: Vec<String>,
    /// Only VMs of these vCenters (`VI SDK Server`; empty = all).
    pub vcenters: Vec<String>,
    /// Only VMs of these datacenters (empty = all).
    pub datacenters: Vec<String>,
    /// Plan templates too (left out by default).
    pub include_templates: bool,
    /// Plan SRM placeholders too (left out by default: they hold no data at this site).
    pub include_srm_placeholders: bool,
    /// Leave powered-off VMs out (they hold capacity, so they count by default).
    pub exclude_powered_off: bool,
    /// Leave suspended VMs out (they hold capacity, so they count by default).
    pub exclude_suspended: bool,
    /// Which vInfo figure sizes a VM (default in use).
    pub capacity_basis: CapacityBasis,
    /// Data growth to plan for, percent (>= 0; default 0).
    pub growth_pct: f64,
    /// Capacity on top of the data, percent (>= 0; default 20): datastores are sized at
    /// `(1 + headroom/100)` x the data.
    pub headroom_pct: f64,
    /// Space reserved for snapshots, percent of the data after growth (>= 0; default 0).
    pub snapshot_reserve_pct: f64,
    /// Small-block IOPS target at [`PlanOptions::io_profile`] (>= 0; 0 = none).
    pub iops: f64,
    /// Large-block (64 KiB sequential) throughput target, MiB/s (>= 0; 0 = none).
    pub throughput_mibps: f64,
    /// Shape of the IOPS target (default 8 KiB, 70% read, 80% random).
    pub io_profile: IoProfile,
    /// A per-VM performance CSV (`vm,iops,throughput_mibps[,read_pct,block_kib]` or the
    /// Azure Migrate import template): VMs whose need exceeds one datastore's flows get
    /// their VMDKs spread; without `iops` and `throughput_mibps` the targets are the sums.
    pub perf: Option<PathBuf>,
    /// Which figures of a Live Optics input's `VM Performance` sheet are the per-VM
    /// performance input when no `perf` file is given: peak (default, conservative) or
    /// average.
    pub perf_basis: PerfBasis,
    /// Pricing region: ARM name or display name, case-insensitive (`westeurope` or
    /// `"West Europe"`; default eastus). It must support ANF datastores for AVS
    /// (`data/avs_anf_regions.csv`) unless `allow_unlisted_region`.
    pub region: Region,
    /// Plan in a region that `data/avs_anf_regions.csv` does not list for ANF datastores on
    /// AVS (default false: refused); the plan then warns.
    pub allow_unlisted_region: bool,
    /// A price file with the columns of `data/prices.csv`, instead of the built-in prices.
    pub price_file: Option<PathBuf>,
    /// Only these service levels (empty = every level sold in the region).
    pub service_levels: Vec<ServiceLevel>,
    /// Most datastores the AVS cluster may have (1..=256; default 8).
    pub max_datastores: u32,
    /// Share of the data (after growth) that is cold, percent (default 0: cool access is
    /// not considered).
    pub cold_pct: f64,
    /// Share of the cold data moved between tiers per month, percent (default 10).
    pub cool_retrieval_pct: f64,
    /// Reserved capacity for the hot tier (default none).
    pub reservation: ReservationTerm,
    /// TCP connections per host per datastore, 1 or 4 (default 1, the case the published
    /// AVS measurements were taken with; 4 is supported on AVS datastores, its predictions
    /// are extrapolated).
    pub nconnect: u32,
    /// Months per year at peak load (1..=11) for a time-phased plan; `None` = one phase.
    pub peak_months: Option<u32>,
    /// IOPS target in the peak months (with `peak_months`).
    pub peak_iops: f64,
    /// MiB/s target in the peak months (with `peak_months`).
    pub peak_throughput_mibps: f64,
    /// Let the plan use ANF large volumes as datastores where no layout of regular volumes
    /// meets the targets (default false: no Microsoft page documents large volumes as AVS
    /// datastores). A plan that uses one says that AVS support must be confirmed.
    pub allow_large_volumes: bool,
    /// Add the vSAN-only comparison to every plan (default true, as the command does).
    pub vsan_comparison: bool,
    /// AVS host SKU of the vSAN comparison (`av36`, `av36p`, `av48`, `av52`, `av64` with its
    /// Gen 1 raw capacity, `av64-gen2`; default av36p; `data/avs_hosts.csv`).
    pub vsan_host: String,
    /// vSAN storage policy of the comparison (default auto: by cluster size).
    pub vsan_policy: PolicyChoice,
    /// Capacity vSAN keeps free in the comparison, percent 0..<100 (default 25).
    pub vsan_slack_pct: f64,
    /// Dedup/compression ratio assumed on vSAN (>= 1; default 1).
    pub vsan_dedup_ratio: f64,
    /// Hourly price of one AVS host of the comparison, USD (default: the plan region's
    /// list price in `data/avs_host_prices.csv`; needed for SKUs without one there).
    pub vsan_host_usd_per_hour: Option<f64>,
    /// The estate's design, forced (`vsan`: vSAN alone, `anf`: ANF for all VM data,
    /// `hybrid`); `None`: the cheapest of the three. Estate plans only (refused with
    /// `hosts` or `per_cluster`).
    pub design: Option<Design>,
    /// ExpressRoute gateways (UltraPerformance or ErGw3Az) the customer already has for
    /// the ANF datastores: not bought (default 0).
    pub existing_er_gateways: u32,
}

impl Default for PlanOptions {
    /// The `dsplan plan` command's defaults ([`crate::defaults`]).
    fn default() -> Self {
        PlanOptions {
            hosts: None,
            host_sku: None,
            vcpu_per_core: defaults::VCPU_PER_CORE,
            memory_basis: MemoryBasis::Configured,
            memory_overcommit: defaults::MEMORY_OVERCOMMIT,
            ha_hosts: defaults::HA_HOSTS,
            group: Grouping::SourceCluster,
            host_term: HostTerm::PayAsYouGo,
            host_price_file: None,
            per_cluster: false,
            clusters: Vec::new(),
            vcenters: Vec::new(),
            datacenters: Vec::new(),
            include_templates: false,
            include_srm_placeholders: false,
            exclude_powered_off: false,
            exclude_suspended: false,
            capacity_basis: CapacityBasis::InUse,
            growth_pct: defaults::GROWTH_PCT,
            headroom_pct: defaults::HEADROOM_PCT,
            snapshot_reserve_pct: defaults::SNAPSHOT_RESERVE_PCT,
            iops: 0.0,
            throughput_mibps: 0.0,
            io_profile: IoProfile::default(),
            perf: None,
            perf_basis: PerfBasis::Peak,
            region: Region::from(defaults::REGION),
            allow_unlisted_region: false,
            price_file: None,
            service_levels: Vec::new(),
            max_datastores: defaults::MAX_DATASTORES,
            cold_pct: defaults::COLD_PCT,
            cool_retrieval_pct: defaults::COOL_RETRIEVAL_PCT,
            reservation: ReservationTerm::None,
            nconnect: defaults::NCONNECT,
            peak_months: None,
            peak_iops: 0.0,
            peak_throughput_mibps: 0.0,
            allow_large_volumes: false,
            vsan_comparison: true,
            vsan_host: defaults::VSAN_HOST.to_string(),
            vsan_policy: PolicyChoice::Auto,
            vsan_slack_pct: defaults::VSAN_SLACK_PCT,
            vsan_dedup_ratio: defaults::VSAN_DEDUP_RATIO,
            vsan_host_usd_per_hour: None,
            design: None,
            existing_er_gateways: 0,
        }
    }
}

impl PlanOptions {
    /// Checks that peak targets come with `peak_months`, the one rule no stage checks;
    /// [`crate::Planner::check`] runs this and every stage's checks (percentages, ranges,
    /// the I/O profile, the vSAN settings).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the setting.
    pub fn validate(&self) -> Result<(), Error> {
        if let Some(d) = self.design
            && (self.hosts.is_some() || self.per_cluster)
        {
            let other = if self.per_cluster {
                "`per_cluster`"
            } else {
                "`hosts`"
            };
            return Err(Error::Invalid {
                setting: "design",
                value: d.to_string(),
                expected: format!(
                    "no `design` with {other}: the design (vSAN alone, ANF for all, hybrid) is \
                     chosen for the estate plan, sized from compute; {other} plans datastores \
                     for clusters of given hosts"
                ),
            });
        }
        if self.peak_months.is_none() {
            for (setting, v) in [
                ("peak_iops", self.peak_iops),
                ("peak_throughput_mibps", self.peak_throughput_mibps),
            ] {
                if v != 0.0 {
                    return Err(Error::Invalid {
                        setting,
                        value: v.to_string(),
                        expected: "0 without `peak_months` (a peak target needs the months \
                                   it applies to)"
                            .into(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The demand stage's options: scope, capacity basis, growth, reserves and targets.
    pub fn demand_options(&self) -> DemandOptions {
        DemandOptions {
            capacity_basis: self.capacity_basis,
            growth_pct: self.growth_pct,
            headroom_pct: self.headroom_pct,
            snapshot_reserve_pct: self.snapshot_reserve_pct,
            exclude_powered_off: self.exclude_powered_off,
            clusters: self.clusters.clone(),
            iops: self.iops,
            throughput_mibps: self.throughput_mibps,
            io_profile: self.io_profile,
            scope: Scope {
                include_templates: self.include_templates,
                include_srm_placeholders: self.include_srm_placeholders,
                exclude_suspended: self.exclude_suspended,
                vcenters: self.vcenters.clone(),
                datacenters: self.datacenters.clone(),
            },
        }
    }

    /// The optimizer's options (hosts default to [`defaults::HOSTS`]).
    pub fn optimize_options(&self) -> OptimizeOptions {
        OptimizeOptions {
            hosts: self.hosts.unwrap_or(defaults::HOSTS),
            region: self.region.to_string(),
            max_datastores: self.max_datastores,
            service_levels: self.service_levels.clone(),
            cold_pct: self.cold_pct,
            cool_retrieval_pct: self.cool_retrieval_pct,
            reservation: self.reservation,
            peak: self.peak_months.map(|months| PeakOptions {
                months,
                iops: self.peak_iops,
                throughput_mibps: self.peak_throughput_mibps,
            }),
            nconnect: self.nconnect,
            allow_unlisted_region: self.allow_unlisted_region,
            allow_large_volumes: self.allow_large_volumes,
            shared_pool: false,
            perf_system: self.perf_system(),
            stop: crate::optimize::Stop::default(),
        }
    }

    /// The performance system of the hosts: `host_sku`'s (`perf_system` in
    /// `data/avs_hosts.csv`: `anf-avs-av64` for AV64's 100 GbE), else `anf-avs`. With
    /// `hosts` or `per_cluster`, `host_sku` names the hosts the datastores are planned for;
    /// the estate plans each SKU on its own system whatever this says.
    fn perf_system(&self) -> String {
        let of_sku = self.host_sku.as_deref().and_then(|sku| {
            let catalog = VsanCatalog::builtin().ok()?;
            crate::sizing::find_sku(&catalog, sku)
                .ok()
                .map(|h| h.perf_system.clone())
        });
        of_sku.unwrap_or_else(|| crate::perf::DEFAULT_SYSTEM.to_string())
    }

    /// A warning naming the estate sizing settings changed from their defaults, which
    /// only the estate plan uses (one cluster's plan and per-cluster plans ignore them;
    /// `host_sku` is not among them: it names their hosts' performance system).
    pub fn unused_estate_settings(&self) -> Option<Warning> {
        let d = PlanOptions::default();
        let changed: Vec<&str> = [
            ("vcpu_per_core", self.vcpu_per_core != d.vcpu_per_core),
            ("memory_basis", self.memory_basis != d.memory_basis),
            (
                "memory_overcommit",
                self.memory_overcommit != d.memory_overcommit,
            ),
            ("ha_hosts", self.ha_hosts != d.ha_hosts),
            ("group", self.group != d.group),
            ("host_term", self.host_term != d.host_term),
            ("host_price_file", self.host_price_file.is_some()),
            (
                "existing_er_gateways",
                self.existing_er_gateways != d.existing_er_gateways,
            ),
        ]
        .into_iter()
        .filter_map(|(name, changed)| changed.then_some(name))
        .collect();
        (!changed.is_empty()).then(|| {
            let apply = verb(changed.len(), "applies", "apply");
            Warning::plan_wide(
                WarningKind::Setting,
                format!(
                    "{} {apply} only to the estate plan (without `hosts` and `per_cluster`), \
                     which sizes and prices the hosts and the ExpressRoute gateways: ignored here",
                    ticked(&changed)
                ),
            )
        })
    }

    /// A warning naming the vSAN comparison's host settings changed from their defaults,
    /// which the estate plan does not use (its vSAN alone runs on the estate's SKU at the
    /// estate's host prices).
    pub fn unused_vsan_settings(&self) -> Option<Warning> {
        let d = PlanOptions::default();
        let changed: Vec<&str> = [
            ("vsan_host", self.vsan_host != d.vsan_host),
            (
                "vsan_host_usd_per_hour",
                self.vsan_host_usd_per_hour.is_some(),
            ),
        ]
        .into_iter()
        .filter_map(|(name, changed)| changed.then_some(name))
        .collect();
        (!changed.is_empty()).then(|| {
            let apply = verb(changed.len(), "applies", "apply");
            Warning::plan_wide(WarningKind::Setting, format!(
                "{} {apply} to one cluster's plan (`hosts`) and per-cluster plans: the estate's \
                 vSAN alone runs on the estate's host SKU at its host prices (`host_sku`, \
                 `host_price_file`): ignored here",
                ticked(&changed)
            ))
        })
    }

    /// The estate sizing's options.
    pub fn sizing_options(&self) -> SizingOptions {
        SizingOptions {
            vcpu_per_core: self.vcpu_per_core,
            memory_basis: self.memory_basis,
            memory_overcommit: self.memory_overcommit,
            ha_hosts: self.ha_hosts,
            group: self.group,
        }
    }

    /// The vSAN comparison's options.
    pub fn vsan_options(&self) -> VsanOptions {
        VsanOptions {
            sku: self.vsan_host.clone(),
            policy: self.vsan_policy.clone(),
            slack_pct: self.vsan_slack_pct,
            dedup_ratio: self.vsan_dedup_ratio,
            headroom_pct: self.headroom_pct,
            host_usd_per_hour: self.vsan_host_usd_per_hour,
        }
    }
}

/// Setting names in backticks, comma-separated (`` `a`, `b` ``).
fn ticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `singular` for one setting, else `plural` ("applies" / "apply").
fn verb(count: usize, singular: &'static str, plural: &'static str) -> &'static str {
    if count == 1 { singular } else { plural }
}

//! The vSAN side's catalog ([`VsanCatalog`]): the AVS host SKUs of `data/avs_hosts.csv`
//! (cores, memory, raw vSAN capacity, base clock, performance system, first-cluster SKUs,
//! each with its source), the storage policies of `data/vsan_policies.csv`, and the AVS
//! cluster and private-cloud limits of `data/limits.csv` ([`AvsLimits`]: hosts per cluster
//! and private cloud, ESXi's own memory, the management reservation, the raw vSAN capacity
//! AVS keeps in each cluster), each file checked as it is read.

use serde::{Deserialize, Serialize};

use super::{BYTES_PER_TIB, PolicyChoice, VsanError};

/// `data/avs_hosts.csv`, compiled in.
pub const AVS_HOSTS_CSV: &str = include_str!("../../data/avs_hosts.csv");
/// `data/vsan_policies.csv`, compiled in.
pub const VSAN_POLICIES_CSV: &str = include_str!("../../data/vsan_policies.csv");

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
    /// Device reads of a small guest write on vSAN OSA (its read-modify-write).
    pub random_write_reads: f64,
    /// Device writes of a small guest write on vSAN OSA.
    pub random_write_writes: f64,
    /// Device writes per block of a large sequential guest write on vSAN OSA (a full
    /// stripe).
    pub sequential_write_writes: f64,
    /// Device writes of any guest write on vSAN ESA (its performance leg and the full-stripe
    /// capacity leg, counted together: the conservative reading).
    pub esa_write_writes: f64,
    /// Where the figures come from.
    pub source: String,
}

impl VsanPolicy {
    /// Device I/Os a guest write costs under it, on vSAN ESA (`esa`) or OSA.
    pub fn write_cost(&self, esa: bool) -> crate::perf::VsanWriteCost {
        if esa {
            crate::perf::VsanWriteCost::mirror(self.esa_write_writes)
        } else {
            crate::perf::VsanWriteCost {
                random_write_reads: self.random_write_reads,
                random_write_writes: self.random_write_writes,
                sequential_write_writes: self.sequential_write_writes,
            }
        }
    }
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
    /// Raw vSAN capacity the management and control plane use in the first cluster of a
    /// private cloud, GB as published (17,287: appliances, vSphere Cluster Service VMs and
    /// vSAN system usage, optional add-ons included, without the data reduction ratio).
    #[serde(default)]
    pub vsan_first_cluster_raw_gb: u32,
    /// Raw vSAN capacity every other cluster uses itself, GB as published (12,444: vSAN
    /// system usage 12,441 and three vSphere Cluster Service VMs of 1 each).
    #[serde(default)]
    pub vsan_cluster_raw_gb: u32,
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
    /// Raw vSAN capacity AVS uses itself in one cluster, TiB: the management and control
    /// plane's in the first cluster of a private cloud, vSAN system usage and the vSphere
    /// Cluster Service VMs' in every other (`data/limits.csv`, published in decimal GB).
    pub fn reserved_raw_tib(&self, first_in_private_cloud: bool) -> f64 {
        let gb = if first_in_private_cloud {
            self.vsan_first_cluster_raw_gb
        } else {
            self.vsan_cluster_raw_gb
        };
        f64::from(gb) * 1e9 / BYTES_PER_TIB
    }

    /// The hosts of a cluster of `hosts` whose storage must meet its targets: a host down
    /// for HA (`hosts - ha_hosts`, at least the cluster minimum), or all of them at the
    /// cluster maximum (no host can be added there): the ANF datastores' check (vSAN's is
    /// [`AvsLimits::vsan_checked_hosts`]).
    pub fn checked_hosts(&self, hosts: u32, ha_hosts: u32) -> u32 {
        if hosts >= self.max_hosts_per_cluster {
            self.max_hosts_per_cluster
        } else {
            hosts
                .saturating_sub(ha_hosts)
                .max(self.min_hosts_per_cluster)
                .min(hosts)
        }
    }

    /// The hosts of a cluster of `hosts` whose vSAN must carry its share of the targets: a
    /// host down for HA (`hosts - ha_hosts`, at least the cluster minimum) whatever the
    /// size. Unlike the ANF datastores' check ([`AvsLimits::checked_hosts`]) a cluster of
    /// 16 is not checked at 16: vSAN rebuilds the failed host's components on the others,
    /// and vSAN alone can always split a cluster instead (the conservative reading).
    pub fn vsan_checked_hosts(&self, hosts: u32, ha_hosts: u32) -> u32 {
        hosts
            .saturating_sub(ha_hosts)
            .max(self.min_hosts_per_cluster)
            .min(hosts)
    }

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
        vsan_first_cluster_raw_gb: get("vsan_first_cluster_raw_gb")?,
        vsan_cluster_raw_gb: get("vsan_cluster_raw_gb")?,
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
            let ios = [
                p.random_write_reads,
                p.random_write_writes,
                p.sequential_write_writes,
                p.esa_write_writes,
            ];
            let bad = if !(p.overhead_factor.is_finite() && p.overhead_factor >= 1.0) {
                Some(format!("overhead {}", p.overhead_factor))
            } else if !ios.iter().all(|v| v.is_finite() && *v >= 0.0) || p.random_write_writes < 1.0
            {
                Some(format!("write cost {ios:?}"))
            } else {
                None
            };
            if let Some(detail) = bad {
                return Err(VsanError::Parse {
                    file: "vsan_policies.csv",
                    row: i + 2,
                    detail,
                });
            }
        }
        Ok(VsanCatalog {
            hosts,
            policies,
            limits,
        })
    }

    /// The catalog rows of `host`'s first-cluster SKUs
    /// ([`HostSku::first_cluster_skus`]), in the order listed (none when `host` can be
    /// its private cloud's first cluster).
    pub fn first_cluster_hosts(&self, host: &HostSku) -> Vec<&HostSku> {
        host.first_cluster_skus()
            .filter_map(|sku| self.hosts.iter().find(|h| h.sku == sku))
            .collect()
    }

    /// The host SKU named `sku` (trimmed, case-insensitive), for `vsan_host`.
    ///
    /// # Errors
    /// [`VsanError::Invalid`] naming `vsan_host` and the SKUs there are.
    pub fn host(&self, sku: &str) -> Result<&HostSku, VsanError> {
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
    pub fn policy(&self, choice: &PolicyChoice, hosts: u32) -> Option<&VsanPolicy> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

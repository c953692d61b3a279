//! The same estate on vSAN alone: each AVS cluster keeps its compute hosts and grows until
//! its own VMs' data fits its vSAN ([`crate::vsan::compare`]: policy by cluster size,
//! slack, dedup); a cluster that then passes 16 hosts becomes several, and the clusters are
//! packed into private clouds again.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::EstateSizing;
use super::pack::pack_private_clouds;
use crate::vsan::{self, VsanCatalog, VsanError, VsanOptions};

/// One AVS cluster on vSAN alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VsanAloneCluster {
    /// The AVS cluster of the ANF plan.
    pub cluster: String,
    /// Its host SKU (the estate's, or for AV64 in a Gen 1 private cloud the first
    /// cluster's); empty in plans made before it was recorded.
    #[serde(default)]
    pub sku: String,
    /// Its hosts for compute (HA included).
    pub compute_hosts: u32,
    /// Data its vSAN holds (the VMs' capacity after growth and snapshot reserve), GiB.
    pub data_gib: f64,
    /// Hosts it needs on vSAN alone (at least `compute_hosts`).
    pub hosts: u32,
    /// Clusters those hosts make (more than one past 16 hosts).
    pub clusters: u32,
    /// The storage policy applied.
    pub policy: String,
    /// Raw capacity needed, TiB.
    pub raw_needed_tib: f64,
}

/// The estate on vSAN alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VsanAlone {
    /// Host SKU (the ANF plan's; a first cluster of another SKU keeps its own, in its
    /// cluster's `sku`).
    pub sku: String,
    /// Per AVS cluster of the ANF plan.
    pub clusters: Vec<VsanAloneCluster>,
    /// Hosts over all clusters.
    pub hosts: u32,
    /// Clusters over all.
    pub cluster_count: u32,
    /// Private clouds those clusters need.
    pub private_clouds: u32,
    /// Hosts beyond the ANF plan's (storage-driven hosts).
    pub extra_hosts: u32,
    /// Slack kept free, percent; dedup ratio; as applied.
    pub slack_pct: f64,
    /// Dedup/compression ratio assumed.
    pub dedup_ratio: f64,
}

/// The estate of `sizing` on vSAN alone; `data_gib[i]` is the data of `sizing.clusters[i]`.
/// Each cluster keeps its compute hosts ([`super::AvsCluster::compute_hosts`]: not those
/// its datastores add) and its own SKU's raw capacity.
///
/// # Errors
/// [`VsanError::Invalid`] for settings out of range or data no vSAN cluster holds.
pub fn vsan_alone(
    catalog: &VsanCatalog,
    sizing: &EstateSizing,
    data_gib: &[f64],
    o: &VsanOptions,
) -> Result<VsanAlone, VsanError> {
    // Only the hosts are used here: the estate prices them with its own host prices.
    let unpriced = vsan::ListPrice::Unknown("priced by the estate".into());
    let mut clusters = Vec::with_capacity(sizing.clusters.len());
    let mut sizes = Vec::new();
    for (c, &gib) in sizing.clusters.iter().zip(data_gib) {
        let o = VsanOptions {
            sku: c.sku.clone(),
            ..o.clone()
        };
        let compute = c.compute_hosts();
        let r = vsan::compare(catalog, gib, compute, 0.0, 730.0, &o, &unpriced)?;
        let split = catalog.limits.split(r.hosts_needed);
        if let Some(s) = split {
            let extra = r.hosts_needed - s.smallest_cluster * s.clusters;
            for i in 0..s.clusters {
                sizes.push(s.smallest_cluster + u32::from(i < extra));
            }
        }
        clusters.push(VsanAloneCluster {
            cluster: c.name.clone(),
            sku: c.sku.clone(),
            compute_hosts: compute,
            data_gib: gib,
            hosts: r.hosts_needed,
            clusters: r.clusters_needed,
            policy: r.policy,
            raw_needed_tib: r.raw_needed_tib,
        });
    }
    let hosts = clusters.iter().fold(0u32, |a, c| a.saturating_add(c.hosts));
    let (_, private_clouds) = pack_private_clouds(&sizes, &catalog.limits);
    Ok(VsanAlone {
        sku: sizing.sku.clone(),
        hosts,
        cluster_count: clusters.iter().map(|c| c.clusters).sum(),
        private_clouds: private_clouds as u32,
        extra_hosts: hosts.saturating_sub(sizing.hosts),
        slack_pct: o.slack_pct,
        dedup_ratio: o.dedup_ratio,
        clusters,
    })
}

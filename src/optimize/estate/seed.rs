//! The first cluster a private cloud of AV64 hosts needs in a Gen 1 private cloud: "The
//! customer needs to buy a minimum of three nodes of AV36, AV36P, or AV52 SKU before
//! expanding using AV64" (learn.microsoft.com/azure/azure-vmware/introduction, 2025-12-19;
//! `first_cluster_skus` in `data/avs_hosts.csv`; the page's host table footnote also names
//! AV48, its body text does not, so AV48 is left out). A Gen 2 private cloud deploys AV64
//! directly (`av64-gen2`).
//!
//! Per private cloud, after the datastores raised their clusters' hosts: one of its own
//! clusters re-sized on a priced first-cluster SKU ([`crate::sizing::first_cluster_on`]:
//! its VMs, the management reservation, the hosts its datastores need on that SKU's
//! performance system, its ANF cost there), where that costs less a month than the added
//! cluster (hosts and ANF against the cluster's on AV64); else the added cluster
//! (`avs-seed-N`, no VMs): of the first-cluster SKU whose cluster costs least (the AVS
//! minimum of 3 hosts, the reservation and the HA reserve counted), or the first listed
//! when none is priced (then the SKU's total is unknown). The cheapest move of each private
//! cloud is taken (ties: the earlier cluster, then the earlier SKU); a private cloud's only
//! cluster is never moved (the private cloud would then hold no host of the SKU: that is
//! the first-cluster SKU's own estate, which its own row prices). The clusters are then
//! packed into private clouds again, each with its first cluster.

use std::collections::BTreeMap;

use super::StorageContext;
use super::cluster_index;
use super::sku::{EstateOptions, SkuEstate, hosts_cost};
use crate::demand::{ClusterDemand, ClusterDemands};
use crate::optimize::OptimizeError;
use crate::optimize::one_cluster::cluster_cost;
use crate::sizing::{
    AvsCluster, EstateSizing, HostPrices, HostTerm, first_cluster_on, management_only_cluster,
};
use crate::vsan::{HostSku, VsanCatalog};

/// Host prices per hour of `host` and of the SKUs its private clouds' first clusters may
/// be of, where known (`host_prices` at `host_term`).
pub(super) fn sku_prices(
    host: &HostSku,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
) -> BTreeMap<String, f64> {
    std::iter::once(host)
        .chain(first_skus(host, vsan_catalog))
        .filter_map(|h| {
            let p = estate.host_prices.price(&h.sku, estate.host_term)?;
            Some((h.sku.clone(), p.usd_per_hour))
        })
        .collect()
}

/// The catalog rows of `host`'s first-cluster SKUs, in the order listed.
fn first_skus<'a>(host: &HostSku, vsan_catalog: &'a VsanCatalog) -> Vec<&'a HostSku> {
    host.first_cluster_skus()
        .filter_map(|sku| vsan_catalog.hosts.iter().find(|h| h.sku == sku))
        .collect()
}

/// The cluster added (`avs-seed-N`) to a private cloud of `host` hosts none of whose
/// clusters can be first: on the first-cluster SKU whose cluster costs least an hour (ties:
/// the earlier listed), or the first listed when none is priced. `None` when `host` can be
/// first itself.
pub(super) fn seed_cluster(
    host: &HostSku,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    prices: &BTreeMap<String, f64>,
) -> Option<AvsCluster> {
    let limits = &vsan_catalog.limits;
    let seeds: Vec<AvsCluster> = first_skus(host, vsan_catalog)
        .into_iter()
        .filter_map(|h| management_only_cluster("avs-seed", h, limits, &estate.sizing))
        .collect();
    let usd = |c: &AvsCluster| prices.get(&c.sku).map(|p| f64::from(c.hosts) * p);
    let cheapest = seeds.iter().filter_map(|c| usd(c).map(|u| (u, c))).fold(
        None::<(f64, &AvsCluster)>,
        |best, (u, c)| match best {
            Some((b, _)) if b <= u => best,
            _ => Some((u, c)),
        },
    );
    cheapest.map(|(_, c)| c).or(seeds.first()).cloned()
}

/// The estate's clusters of another SKU than its own (the first clusters AV64 needs in a
/// Gen 1 private cloud), each in words: `avs-DMZ: 3 av36p (its own VMs)`.
pub(super) fn other_sku_clusters(sizing: &EstateSizing) -> Vec<String> {
    sizing
        .clusters
        .iter()
        .filter(|c| c.sku != sizing.sku)
        .map(|c| {
            let how = if c.management_only {
                "added, no VMs"
            } else {
                "its own VMs"
            };
            format!("{}: {} {} ({how})", c.name, c.hosts, c.sku)
        })
        .collect()
}

/// The SKU table's words for the first clusters of another SKU an estate counts (`None`
/// when it has none).
pub(super) fn first_cluster_note(e: &SkuEstate) -> Option<String> {
    let others = other_sku_clusters(&e.sizing);
    (!others.is_empty()).then(|| {
        format!(
            "counts the first cluster each private cloud of {} hosts needs: {}",
            e.sizing.sku,
            others.join(", ")
        )
    })
}

/// Why an estate whose own SKU is priced has no total: the first-cluster SKUs it needs
/// have no price.
pub(super) fn unpriced_first_cluster(e: &SkuEstate, prices: &HostPrices, term: HostTerm) -> String {
    let skus = match e.first_cluster_skus.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    format!(
        "{} for the {skus} first cluster each private cloud of {} hosts needs \
         (first_cluster_skus, data/avs_hosts.csv); give `host_price_file`",
        prices.missing(term),
        e.sizing.sku
    )
}

/// A cluster moved to a first-cluster SKU: where it sits, what it becomes, and its hosts
/// and ANF cost there.
struct Move {
    /// Its index in the split and in the sizing.
    at: (usize, usize),
    cluster: AvsCluster,
    perf_system: String,
    hosts: u32,
    anf_usd_per_month: f64,
    /// The change in the estate's monthly cost, USD.
    delta_usd: f64,
}

impl StorageContext<'_> {
    /// In each private cloud of a SKU that cannot be its first cluster (AV64 in a Gen 1
    /// private cloud), the cheapest of its clusters to move to a priced first-cluster SKU,
    /// moved when that costs less a month than the added cluster (`costed[j]` is each
    /// split cluster's hosts and ANF cost, updated); the clusters packed again.
    ///
    /// # Errors
    /// An error of a cluster's cost other than its targets out of reach.
    pub(super) fn convert_first_clusters(
        &self,
        e: &mut SkuEstate,
        split: &mut ClusterDemands,
        costed: &mut [(u32, f64)],
    ) -> Result<(), OptimizeError> {
        let hours = self.catalog.limits.hours_per_month;
        let host = crate::sizing::find_sku(self.vsan_catalog, &e.sizing.sku)?;
        let (Some(seed), Some(&own_price)) = (e.sizing.first_fallback(), e.prices.get(&host.sku))
        else {
            return Ok(());
        };
        let Some(seed_usd) = hosts_cost([(seed.sku.as_str(), seed.hosts)], &e.prices, hours) else {
            return Ok(());
        };
        let seeds: Vec<&HostSku> = first_skus(host, self.vsan_catalog)
            .into_iter()
            .filter(|h| e.prices.contains_key(&h.sku))
            .collect();
        let mut moved = false;
        for cloud in e.sizing.private_clouds.clone() {
            // A private cloud's only cluster stays: moved, the private cloud would hold no
            // host of the SKU (the first-cluster SKU's own estate prices that).
            let own = |n: &String| {
                cluster_index(&e.sizing, n).is_some_and(|i| !e.sizing.clusters[i].management_only)
            };
            if cloud.clusters.iter().filter(|n| own(n)).count() < 2 {
                continue;
            }
            let mut best: Option<Move> = None;
            for name in &cloud.clusters {
                let (Some(i), Some(j)) = (
                    cluster_index(&e.sizing, name),
                    split.clusters.iter().position(|d| d.cluster == *name),
                ) else {
                    continue;
                };
                let c = &e.sizing.clusters[i];
                let now_usd = f64::from(c.hosts) * own_price * hours + costed[j].1;
                for h in &seeds {
                    let Some(m) = self.move_cluster(&split.clusters[j], c, h)? else {
                        continue;
                    };
                    let price = e.prices.get(&h.sku).copied().unwrap_or(f64::INFINITY);
                    let delta_usd =
                        f64::from(m.hosts) * price * hours + m.anf_usd_per_month - now_usd;
                    if delta_usd < seed_usd - 0.005
                        && best
                            .as_ref()
                            .is_none_or(|b| delta_usd < b.delta_usd - 0.005)
                    {
                        best = Some(Move {
                            at: (j, i),
                            delta_usd,
                            ..m
                        });
                    }
                }
            }
            if let Some(m) = best {
                let (j, i) = m.at;
                split.clusters[j].perf_system = Some(m.perf_system);
                costed[j] = (m.hosts, m.anf_usd_per_month);
                e.sizing.replace_cluster(i, m.cluster);
                moved = true;
            }
        }
        if moved {
            e.sizing.assign_private_clouds(&self.vsan_catalog.limits);
        }
        Ok(())
    }

    /// Cluster `c` (demand `d`) re-sized on `h` as its private cloud's first cluster, with
    /// the hosts its datastores need on `h`'s performance system and its ANF cost there;
    /// `None` when it cannot be (a VM too large, too many hosts, its targets out of reach).
    fn move_cluster(
        &self,
        d: &ClusterDemand,
        c: &AvsCluster,
        h: &HostSku,
    ) -> Result<Option<Move>, OptimizeError> {
        let o = &self.estate.sizing;
        let Some(mut cluster) = first_cluster_on(self.demand, c, h, &self.vsan_catalog.limits, o)
        else {
            return Ok(None);
        };
        let own = cluster.hosts_without_management();
        let d = ClusterDemand {
            perf_system: Some(h.perf_system.clone()),
            source_hosts: Some(own),
            ..d.clone()
        };
        let (storage, at_storage) = match self.hosts_for_storage(&d) {
            Ok(x) => x,
            Err(OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_)) => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if storage > own {
            cluster.raise_for_storage(storage);
        }
        let hosts = cluster.hosts;
        let anf_usd_per_month = if hosts == storage {
            at_storage
        } else {
            cluster_cost(&d, self.catalog, self.model, self.options, Some(hosts))?
        };
        Ok(Some(Move {
            at: (0, 0),
            cluster,
            perf_system: h.perf_system.clone(),
            hosts,
            anf_usd_per_month,
            delta_usd: 0.0,
        }))
    }
}

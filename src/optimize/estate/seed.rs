//! The first cluster a private cloud of AV64 hosts needs in a Gen 1 private cloud: "The
//! customer needs to buy a minimum of three nodes of AV36, AV36P, or AV52 SKU before
//! expanding using AV64" (learn.microsoft.com/azure/azure-vmware/introduction, 2025-12-19;
//! `first_cluster_skus` in `data/avs_hosts.csv`; the page's host table footnote also names
//! AV48, its body text does not, so AV48 is left out). A Gen 2 private cloud deploys AV64
//! directly (`av64-gen2`).
//!
//! Per private cloud and per design ([`move_first_clusters`]), once the design has given
//! its clusters their hosts: one of its own clusters re-sized on a priced first-cluster
//! SKU ([`crate::sizing::first_cluster_on`]: its VMs, the management reservation; a
//! variant of [`super::choices`], worked out like every other cluster: ANF for all and the
//! hybrid by the same ANF oracle on that SKU's performance system, vSAN alone on its raw
//! capacity, its hosts at its price), where that costs less a month in the design being
//! costed than the added cluster (hosts and ANF, or hosts on vSAN alone, against the
//! cluster's on AV64 in the same design); else the added cluster (`avs-seed-N`, no VMs):
//! of the first-cluster SKU whose cluster costs least (the AVS minimum of 3 hosts, the
//! reservation and the HA reserve counted); when none is priced at the plan's term (a
//! reserved term without the customer's prices), the one cheapest at the region's
//! pay-as-you-go list price (the SKU whose quote the customer then asks for), else the
//! first listed (then the SKU's total is unknown and nothing moves). The cheapest move of each private cloud
//! is taken (ties: the earlier cluster, then the earlier SKU); a private cloud's only
//! cluster moves too (the private cloud is then all of the first-cluster SKU, no seed
//! beside it), but an estate of one cluster has none to move (that would be the
//! first-cluster SKU's own estate, which its own row prices). The clusters are then
//! packed into private clouds again, each with its first cluster. The three designs may
//! so move different clusters (vSAN alone weighs a cluster's data on the first-cluster
//! SKU's raw capacity, ANF for all its datastores on that SKU's 25 GbE hosts).

use std::collections::BTreeMap;

use super::choices::{ClusterChoice, Variant};
use super::cluster_index;
use super::cost::Costing;
use super::sku::{EstateOptions, SkuEstate, hosts_cost};
use crate::plan::Design;
use crate::sizing::{AvsCluster, EstateSizing, HostPrices, HostTerm, management_only_cluster};
use crate::vsan::{HostSku, VsanCatalog};

/// Host prices per hour of `host` and of the SKUs its private clouds' first clusters may
/// be of, where known (`host_prices` at `host_term`).
pub(super) fn sku_prices(
    host: &HostSku,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
) -> BTreeMap<String, f64> {
    std::iter::once(host)
        .chain(vsan_catalog.first_cluster_hosts(host))
        .filter_map(|h| {
            let p = estate.host_prices.price(&h.sku, estate.host_term)?;
            Some((h.sku.clone(), p.usd_per_hour))
        })
        .collect()
}

/// The cluster added (`avs-seed-N`) to a private cloud of `host` hosts none of whose
/// clusters can be first: on the first-cluster SKU whose cluster costs least an hour (ties:
/// the earlier listed); when none is priced at the term, the cheapest at the pay-as-you-go
/// list price; else the first listed. `None` when `host` can be first itself.
pub(super) fn seed_cluster(
    host: &HostSku,
    vsan_catalog: &VsanCatalog,
    estate: &EstateOptions,
    prices: &BTreeMap<String, f64>,
) -> Option<AvsCluster> {
    let limits = &vsan_catalog.limits;
    let seeds: Vec<AvsCluster> = vsan_catalog
        .first_cluster_hosts(host)
        .into_iter()
        .filter_map(|h| management_only_cluster("avs-seed", h, limits, &estate.sizing))
        .collect();
    let usd = |c: &AvsCluster| prices.get(&c.sku).map(|p| f64::from(c.hosts) * p);
    // With no price at the plan's term (a reserved term before the customer's quote), the
    // seed a customer would price: the cheapest at the region's pay-as-you-go list price.
    let list = |c: &AvsCluster| {
        let p = estate.host_prices.price(&c.sku, HostTerm::PayAsYouGo)?;
        Some(f64::from(c.hosts) * p.usd_per_hour)
    };
    cheapest_by(&seeds, usd)
        .or_else(|| cheapest_by(&seeds, list))
        .or(seeds.first())
        .cloned()
}

/// The cluster of `seeds` that `usd` prices lowest (ties: the earlier); `None` when it
/// prices none.
fn cheapest_by(
    seeds: &[AvsCluster],
    usd: impl Fn(&AvsCluster) -> Option<f64>,
) -> Option<&AvsCluster> {
    let priced = seeds.iter().filter_map(|c| usd(c).map(|u| (u, c)));
    let cheapest = priced.fold(None::<(f64, &AvsCluster)>, |best, (u, c)| match best {
        Some((b, _)) if b <= u => best,
        _ => Some((u, c)),
    });
    cheapest.map(|(_, c)| c)
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

/// The SKU table's words for the first clusters of another SKU a design's `sizing`
/// counts (`None` when it has none).
pub(super) fn first_cluster_note(sizing: &EstateSizing) -> Option<String> {
    let others = other_sku_clusters(sizing);
    (!others.is_empty()).then(|| {
        format!(
            "counts the first cluster each private cloud of {} hosts needs: {}",
            sizing.sku,
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

/// In each private cloud of `sizing` (a design's, its clusters packed) of a SKU that
/// cannot be its first cluster (AV64 in a Gen 1 private cloud), the cluster whose move to a priced first-cluster SKU ([`Variant`]s of
/// [`super::choices`]) costs least more in `design` (hosts at each SKU's price + its ANF
/// in that design; vSAN alone: its hosts on vSAN) is moved where that costs less than the
/// added cluster (`avs-seed-N`); ties: the earlier cluster, then the earlier SKU. The
/// clusters are then packed again; a moved cluster that the packing does not make its
/// private cloud's first (two moved clusters in one private cloud) goes back, and its
/// private cloud gets the added cluster.
pub(super) fn move_first_clusters(
    e: &SkuEstate,
    choices: &[ClusterChoice],
    design: Design,
    sizing: &mut EstateSizing,
    at: Costing,
) {
    let Some(seed) = sizing.first_fallback().filter(|s| s.sku != sizing.sku) else {
        return;
    };
    let Some(seed_usd) = hosts_cost([(seed.sku.as_str(), seed.hosts)], &e.prices, at.hours) else {
        return;
    };
    let mut moved = Vec::new();
    for cloud in sizing.private_clouds.clone() {
        let own: Vec<usize> = cloud
            .clusters
            .iter()
            .filter_map(|n| cluster_index(sizing, n))
            .filter(|&i| !sizing.clusters[i].management_only)
            .collect();
        let mut best: Option<(f64, usize, &Variant)> = None;
        for &i in &own {
            let Some(choice) = choices.get(i) else {
                continue;
            };
            let Some(now) = choice.other().and_then(|v| v.usd(design, at.hours)) else {
                continue;
            };
            for v in choice.moved() {
                let Some(usd) = v.usd(design, at.hours) else {
                    continue;
                };
                let delta = usd - now;
                if delta < seed_usd - 0.005 && best.is_none_or(|(b, ..)| delta < b - 0.005) {
                    best = Some((delta, i, v));
                }
            }
        }
        if let Some((_, i, v)) = best
            && let Some(c) = &v.moved
        {
            let mut c = c.clone();
            c.set_design_hosts(v.raise(design), v.raise(design), 0);
            moved.push((i, std::mem::replace(&mut sizing.clusters[i], c)));
        }
    }
    while !moved.is_empty() {
        sizing.assign_private_clouds(at.limits);
        let (stray, kept): (Vec<_>, Vec<_>) = moved
            .into_iter()
            .partition(|(i, _)| sizing.clusters[*i].management.is_none());
        if stray.is_empty() {
            break;
        }
        for (i, back) in stray {
            sizing.clusters[i] = back;
        }
        moved = kept;
        if moved.is_empty() {
            sizing.assign_private_clouds(at.limits);
        }
    }
}

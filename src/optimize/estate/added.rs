//! The rows of the clusters a design adds without VMs as a private cloud's first
//! ([`added_clusters`]: `avs-seed-N` for AV64 in a Gen 1 private cloud, `avs-mgmt-N`), so
//! each design's per-cluster rows add up to its hosts and their cost: per design its hosts
//! (at their SKU's price), 0 where that design adds none of that name.

use super::cost::Costing;
use super::designs::design_sizing;
use super::rows::not_worked_out;
use super::sku::SkuEstate;
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterDesign, ClusterDesigns, Design};

/// One added cluster in each design (vSAN alone, ANF for all, hybrid): its SKU, hosts and
/// the raw vSAN AVS keeps in it (TiB); `None` where the design does not add it.
struct Added {
    name: String,
    per: [Option<(String, u32, f64)>; 3],
}

/// The clusters the designs of `e` add without VMs, in the order the designs name them
/// (vSAN alone's, ANF for all's, the hybrid's), each with its three rows; `chosen` is the
/// design the plan is sized as (vSAN alone for a collapsed hybrid). A design not worked
/// out shows `-`; a collapsed hybrid's rows are vSAN alone's.
pub(super) fn added_clusters(
    e: &SkuEstate,
    at: Costing,
    (collapsed, chosen): (bool, Design),
) -> Vec<ClusterDesigns> {
    let feasible = |d: Design| e.cost(d).is_some_and(|c| c.feasible);
    let with_vms: Vec<&str> = e
        .sizing
        .clusters
        .iter()
        .filter(|c| !c.management_only)
        .map(|c| c.name.as_str())
        .collect();
    let mut all: Vec<Added> = Vec::new();
    let mut add = |i: usize, name: &str, x: (String, u32, f64)| {
        let pos = match all.iter().position(|a| a.name == name) {
            Some(p) => p,
            None => {
                all.push(Added {
                    name: name.to_string(),
                    per: [None, None, None],
                });
                all.len() - 1
            }
        };
        all[pos].per[i] = Some(x);
    };
    if let Some(v) = e.vsan_alone.as_ref().filter(|_| feasible(Design::Vsan)) {
        for c in v
            .clusters
            .iter()
            .filter(|c| !with_vms.contains(&c.cluster.as_str()))
        {
            add(0, &c.cluster, (c.sku.clone(), c.hosts, c.reserved_raw_tib));
        }
    }
    for (i, d) in [(1, Design::Anf), (2, Design::Hybrid)] {
        if !feasible(d) || (d == Design::Hybrid && collapsed) {
            continue;
        }
        let sizing = design_sizing(e, d, at);
        let reserved = sizing.vsan_reserved_raw_tib(at.limits);
        for (c, r) in sizing.clusters.iter().zip(reserved) {
            if c.management_only {
                add(i, &c.name, (c.sku.clone(), c.hosts, r));
            }
        }
    }
    let known = [
        feasible(Design::Vsan) && e.vsan_alone.is_some(),
        feasible(Design::Anf),
        feasible(Design::Hybrid),
    ];
    all.into_iter()
        .map(|a| {
            let rows: Vec<ClusterDesign> = (0..3)
                .map(|i| match (known[i], &a.per[i]) {
                    (true, x) => row(e, at.hours, x.as_ref()),
                    (false, _) => not_worked_out(String::new(), 0),
                })
                .collect();
            let hybrid = if collapsed {
                rows[0].clone()
            } else {
                rows[2].clone()
            };
            let at_chosen = match chosen {
                Design::Vsan => &a.per[0],
                Design::Anf => &a.per[1],
                Design::Hybrid => &a.per[2],
            };
            ClusterDesigns {
                cluster: a.name,
                compute_hosts: at_chosen.as_ref().map_or(0, |x| x.1),
                vms: 0,
                data_gib: 0.0,
                reserved_raw_tib: at_chosen.as_ref().map_or(0.0, |x| x.2),
                vsan: rows[0].clone(),
                anf: rows[1].clone(),
                hybrid,
                hybrid_vms_on_vsan: Vec::new(),
                added: true,
            }
        })
        .collect()
}

/// An added cluster's row in a design: its hosts at its SKU's price (`None` where the
/// price is not known), no data; 0 hosts where the design does not add it.
fn row(e: &SkuEstate, hours: f64, x: Option<&(String, u32, f64)>) -> ClusterDesign {
    let (sku, hosts) = x.map_or((String::new(), 0), |x| (x.0.clone(), x.1));
    let hosts_usd = if hosts == 0 {
        Some(0.0)
    } else {
        e.prices
            .get(&sku)
            .map(|p| round_cents(f64::from(hosts) * p * hours))
    };
    ClusterDesign {
        feasible: true,
        hosts_usd_per_month: hosts_usd,
        total_usd_per_month: hosts_usd,
        ..not_worked_out(sku, hosts)
    }
}

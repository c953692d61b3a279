//! Words about an estate plan that every format shows alike: USD or unknown, hosts by SKU,
//! host prices, vSAN alone's hosts, each private cloud's first cluster, the ANF
//! datastores, the peak months and vSAN alone's verdict.

use crate::numbers::{counted, group_thousands as g, plural};
use crate::plan::{ClusterPlan, EstatePlan, EstateSummary};

/// `Some(x)` as USD with cents, or `unknown`.
pub(in crate::report) fn usd(v: Option<f64>) -> String {
    v.map_or_else(|| "unknown".to_string(), |x| g(x, 2))
}

/// The estate's hosts by SKU in words: `6 av36p`, or `17 av64 + 3 av36p` with first
/// clusters of another SKU.
pub(in crate::report) fn hosts_text(m: &EstateSummary) -> String {
    if m.hosts_by_sku.len() <= 1 {
        return format!("{} {}", g(f64::from(m.hosts), 0), m.sku);
    }
    m.hosts_by_sku
        .iter()
        .map(|h| format!("{} {}", g(f64::from(h.hosts), 0), h.sku))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The hosts' prices in words: `6 hosts at 9.20 USD/h, payg`, one part per SKU.
pub(in crate::report) fn prices_text(m: &EstateSummary) -> String {
    if m.hosts_by_sku.len() <= 1 {
        return match m.host_usd_per_hour {
            Some(p) => format!(
                "{} at {} USD/h, {}",
                counted(u64::from(m.hosts), "host"),
                g(p, 2),
                m.host_term
            ),
            None => format!("no {} {} host price", m.sku, m.host_term),
        };
    }
    let parts: Vec<String> = m
        .hosts_by_sku
        .iter()
        .map(|h| match h.usd_per_hour {
            Some(p) => format!(
                "{} {} {} at {} USD/h",
                g(f64::from(h.hosts), 0),
                h.sku,
                plural(u64::from(h.hosts), "host"),
                g(p, 2)
            ),
            None => format!(
                "{} {} {}, no {} price",
                g(f64::from(h.hosts), 0),
                h.sku,
                plural(u64::from(h.hosts), "host"),
                m.host_term
            ),
        })
        .collect();
    format!("{}, {}", parts.join(" + "), m.host_term)
}

/// vSAN alone's hosts by SKU in words: `23 av64`, or `20 av64 + 3 av36p` with first
/// clusters of another SKU.
pub(in crate::report) fn vsan_hosts_text(v: &crate::sizing::VsanAlone) -> String {
    let mut by: Vec<(&str, u32)> = vec![(v.sku.as_str(), 0)];
    for c in &v.clusters {
        let sku = if c.sku.is_empty() { &v.sku } else { &c.sku };
        match by.iter_mut().find(|(s, _)| *s == sku.as_str()) {
            Some((_, n)) => *n = n.saturating_add(c.hosts),
            None => by.push((sku.as_str(), c.hosts)),
        }
    }
    if by.len() == 1 {
        return format!("{} {}", v.hosts, v.sku);
    }
    by.iter()
        .map(|(sku, n)| format!("{} {sku}", g(f64::from(*n), 0)))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The storage plan of the AVS cluster named `name` (`None` for a cluster without VMs, or
/// whose VMs' data the design keeps on vSAN).
pub(in crate::report) fn cluster_plan<'a>(
    plan: &'a EstatePlan,
    name: &str,
) -> Option<&'a ClusterPlan> {
    plan.clusters.iter().find(|p| p.cluster == name)
}

/// Each private cloud's first cluster, which holds the management reservation, in words.
pub(in crate::report) fn first_clusters_text(plan: &EstatePlan) -> String {
    let firsts: Vec<String> = plan
        .sizing
        .clusters
        .iter()
        .filter(|c| c.management.is_some())
        .map(|c| {
            let added = c.management.map_or(0, |r| r.added_hosts);
            let what = match (c.management_only, added) {
                (true, _) => "added, no VMs".to_string(),
                (false, 0) => "no host added".to_string(),
                (false, 1) => "1 host added".to_string(),
                (false, n) => format!("{n} hosts added"),
            };
            format!("{} in {} ({what})", c.name, c.private_cloud)
        })
        .collect();
    format!(
        "first cluster of each private cloud, holding the management reservation: {}",
        firsts.join(", ")
    )
}

/// The ANF datastores in a few words: counts and sizes, or none.
pub(in crate::report) fn anf_text(m: &crate::plan::EstateSummary) -> String {
    if m.datastores == 0 {
        return "no ANF datastores".into();
    }
    format!(
        "{} in {} ({} TiB, {})",
        counted(u64::from(m.datastores), "datastore"),
        counted(m.pools as u64, "pool"),
        g(f64::from(m.pool_size_tib), 0),
        counted(u64::from(m.netapp_accounts), "NetApp account")
    )
}

/// The peak months of a time-phased estate (`None` without).
pub(in crate::report) fn peak_months(plan: &EstatePlan) -> Option<u32> {
    plan.clusters
        .iter()
        .find_map(|c| c.plan.time_phased.as_ref().map(|t| t.peak.months))
}

/// vSAN alone against the plan, in words: the year's difference (the design line gives
/// the month's).
pub(in crate::report) fn verdict(m: &crate::plan::EstateSummary) -> String {
    if m.design == crate::plan::Design::Vsan {
        return ": the plan".to_string();
    }
    match m.savings_usd_per_year {
        Some(yr) if yr.abs() < 0.005 => ": the plan's cost".to_string(),
        Some(yr) if yr < 0.0 => format!(", {} USD/year less than the plan", g(-yr, 2)),
        Some(yr) => format!(", {} USD/year more than the plan", g(yr, 2)),
        None => "; the saving is unknown without a host price".to_string(),
    }
}

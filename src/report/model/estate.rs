//! Words about an estate plan that every format shows alike: USD or unknown, hosts by SKU,
//! host prices, vSAN alone's hosts, each private cloud's first cluster, the ANF
//! datastores, the peak months and vSAN alone's verdict.

use std::collections::BTreeMap;

use crate::numbers::{counted, group_thousands as g, plural};
use crate::plan::{ClusterPlan, EstatePlan, EstateSummary};
use crate::sizing::{EstateSizing, SizingOptions, host_offers, usable_memory_gib};
use crate::vsan::VsanCatalog;

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

/// The estate's SKUs in words: `av36p`, or `av64 + av36p` with first clusters of another
/// SKU.
pub(in crate::report) fn skus_text(m: &EstateSummary) -> String {
    if m.hosts_by_sku.len() <= 1 {
        return m.sku.clone();
    }
    m.hosts_by_sku
        .iter()
        .map(|h| h.sku.as_str())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Whether the estate's hosts are of more than one SKU (an AV64 estate in a Gen 1 private
/// cloud, with its first cluster of AV36, AV36P or AV52 hosts).
pub(in crate::report) fn mixed(m: &EstateSummary) -> bool {
    m.hosts_by_sku.len() > 1
}

/// The hosts of `sizing`'s clusters by SKU: its own SKU first, then the others by name
/// (the order of `EstateSummary::hosts_by_sku`).
pub(in crate::report) fn sizing_hosts_by_sku(z: &EstateSizing) -> Vec<(&str, u32)> {
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    for c in &z.clusters {
        let sku = if c.sku.is_empty() { &z.sku } else { &c.sku };
        let n = by.entry(sku.as_str()).or_default();
        *n = n.saturating_add(c.hosts);
    }
    let mut out: Vec<(&str, u32)> = by.into_iter().collect();
    out.sort_by_key(|(sku, _)| *sku != z.sku);
    out
}

/// What one host of `sku` offers VMs in `plan`, (vCPUs, GiB): the estate's own SKU's from
/// its sizing; another's (an AV64 estate's first cluster) as the sizing works it out
/// ([`crate::sizing::host_offers`]: cores x `vcpu_per_core`, (RAM - the ESXi overhead) x
/// `memory_overcommit`) from `data/avs_hosts.csv` and the plan's settings. `None` for a SKU
/// the host table does not list.
pub(in crate::report) fn per_host(plan: &EstatePlan, sku: &str) -> Option<(f64, f64)> {
    let z = &plan.sizing;
    if sku == z.sku {
        return Some((z.vcpus_per_host, z.memory_gib_per_host));
    }
    let catalog = VsanCatalog::builtin().ok()?;
    let host = catalog.host(sku).ok()?;
    let options = sizing_settings(plan, &catalog)?;
    Some(host_offers(host, &catalog.limits, &options))
}

/// The plan's `vcpu_per_core` and `memory_overcommit` (its assumptions, written with
/// `f64`'s exact text); without them, what the estate's own SKU's figures imply (its
/// vCPUs per core, its memory over what its host offers before overcommit).
fn sizing_settings(plan: &EstatePlan, catalog: &VsanCatalog) -> Option<SizingOptions> {
    let setting = |name: &str| {
        plan.assumptions
            .iter()
            .find(|a| a.name == name)
            .and_then(|a| a.value.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let z = &plan.sizing;
    let own = catalog.host(&z.sku).ok();
    let vcpu_per_core = setting("vcpu_per_core").or_else(|| {
        own.filter(|h| h.cores > 0)
            .map(|h| z.vcpus_per_host / f64::from(h.cores))
    })?;
    let memory_overcommit = setting("memory_overcommit").or_else(|| {
        own.map(|h| usable_memory_gib(h, &catalog.limits))
            .filter(|gib| *gib > 0.0)
            .map(|gib| z.memory_gib_per_host / gib)
    })?;
    Some(SizingOptions {
        vcpu_per_core,
        memory_overcommit,
        ..SizingOptions::default()
    })
}

/// What one host offers VMs, in words: `256 vCPU, 909.0 GiB for VMs`, or with first
/// clusters of another SKU each SKU's (`256 vCPU, 909.0 GiB for VMs on av64 and 144 vCPU,
/// 670.6 GiB on av36p`).
pub(in crate::report) fn per_host_text(plan: &EstatePlan) -> String {
    let z = &plan.sizing;
    let skus = sizing_hosts_by_sku(z);
    let figures = |(v, m): (f64, f64)| format!("{} vCPU, {} GiB", g(v, 0), g(m, 1));
    if skus.len() <= 1 {
        return format!(
            "{} for VMs",
            figures((z.vcpus_per_host, z.memory_gib_per_host))
        );
    }
    let parts: Vec<String> = skus
        .iter()
        .enumerate()
        .map(|(i, (sku, _))| {
            let what = per_host(plan, sku).map_or_else(|| "unknown".to_string(), figures);
            let for_vms = if i == 0 { " for VMs" } else { "" };
            format!("{what}{for_vms} on {sku}")
        })
        .collect();
    parts.join(" and ")
}

/// The sizing's hosts in words: `6 hosts`, or `5 av64 + 3 av36p hosts` with first
/// clusters of another SKU.
pub(in crate::report) fn sizing_hosts_text(z: &EstateSizing) -> String {
    let skus = sizing_hosts_by_sku(z);
    if skus.len() <= 1 {
        return counted(u64::from(z.hosts), "host");
    }
    let parts: Vec<String> = skus
        .iter()
        .map(|(sku, n)| format!("{} {sku}", g(f64::from(*n), 0)))
        .collect();
    format!(
        "{} {}",
        parts.join(" + "),
        plural(u64::from(z.hosts), "host")
    )
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

/// vSAN alone's hosts by SKU: its SKU first, then the others (first clusters of another
/// SKU) in the order its clusters name them; SKUs without hosts left out.
pub(in crate::report) fn vsan_hosts_by_sku(v: &crate::sizing::VsanAlone) -> Vec<(&str, u32)> {
    let mut by: Vec<(&str, u32)> = vec![(v.sku.as_str(), 0)];
    for c in &v.clusters {
        let sku = if c.sku.is_empty() { &v.sku } else { &c.sku };
        match by.iter_mut().find(|(s, _)| *s == sku.as_str()) {
            Some((_, n)) => *n = n.saturating_add(c.hosts),
            None => by.push((sku.as_str(), c.hosts)),
        }
    }
    by.retain(|(_, n)| *n > 0);
    by
}

/// vSAN alone's hosts by SKU in words: `23 av64`, or `20 av64 + 3 av36p` with first
/// clusters of another SKU.
pub(in crate::report) fn vsan_hosts_text(v: &crate::sizing::VsanAlone) -> String {
    let by = vsan_hosts_by_sku(v);
    if by.len() <= 1 {
        let sku = by.first().map_or(v.sku.as_str(), |(sku, _)| sku);
        return format!("{} {sku}", g(f64::from(v.hosts), 0));
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
    // The plan itself, unless it is vSAN alone on another SKU than the cheapest (a fixed
    // `host_sku`): then the difference is said.
    let same_sku = m.vsan_alone_sku.as_deref().is_none_or(|s| s == m.sku);
    if m.design == crate::plan::Design::Vsan && same_sku {
        return ": the plan".to_string();
    }
    match m.savings_usd_per_year {
        Some(yr) if yr.abs() < 0.005 => ": the plan's cost".to_string(),
        Some(yr) if yr < 0.0 => format!(", {} USD/year less than the plan", g(-yr, 2)),
        Some(yr) => format!(", {} USD/year more than the plan", g(yr, 2)),
        None => "; the saving is unknown without a host price".to_string(),
    }
}

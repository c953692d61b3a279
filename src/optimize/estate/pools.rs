//! Capacity pools shared across an estate's AVS clusters ([`share_pools`]): each cluster's
//! plan sizes its own pool per service level; the pools of the same level and cool-access
//! state are added into shared pools of at most `pool_max_tib` (2,048 TiB), first fit in
//! decreasing order of size, and the clusters' plans take the shared pool's name. A
//! cluster's pool is never split across shared pools (its datastores stay in one pool).
//! Flexible pools stay one per cluster: each Flexible pool includes 128 MiB/s, so sharing
//! one would buy that throughput again. The pools go into NetApp accounts of
//! `max_pools_per_account` (25) pools each.
//!
//! Sharing changes no cost: Standard, Premium and Ultra are priced per provisioned TiB and
//! their QoS throughput is per TiB, so the shared pool's size, throughput and cost are the
//! sums of its members'. (Adding the clusters' needs before rounding to whole TiB could
//! save up to 1 TiB per cluster; the plan keeps each cluster's whole TiB, the conservative
//! figure.)

use crate::catalog::{Limits, ServiceLevel};
use crate::inventory::Warning;
use crate::optimize::account::quota_warnings;
use crate::plan::{ClusterPlans, EstatePool};

/// One cluster's pool, before sharing.
struct Member {
    cluster: usize,
    pool: usize,
    level: ServiceLevel,
    cool: bool,
    size_tib: u32,
}

/// Shares the pools of `plans` (renaming each cluster's pool and its datastores' pool to
/// the shared pool's name) and returns the estate's pools, in NetApp accounts.
pub(crate) fn share_pools(plans: &mut ClusterPlans, limits: &Limits) -> Vec<EstatePool> {
    let mut members: Vec<Member> = Vec::new();
    for (ci, c) in plans.clusters.iter().enumerate() {
        for (pi, p) in c.plan.pools.iter().enumerate() {
            members.push(Member {
                cluster: ci,
                pool: pi,
                level: p.service_level,
                cool: p.cool_access,
                size_tib: p.size_tib,
            });
        }
    }
    // Largest first; ties in cluster order (stable sort).
    members.sort_by_key(|m| std::cmp::Reverse(m.size_tib));
    let max = limits.pool_max_tib.max(1.0) as u32;
    let mut bins: Vec<(ServiceLevel, bool, u32, Vec<usize>)> = Vec::new();
    for (mi, m) in members.iter().enumerate() {
        let fit = bins.iter().position(|(l, c, t, _)| {
            m.level != ServiceLevel::Flexible
                && *l == m.level
                && *c == m.cool
                && t.saturating_add(m.size_tib) <= max
        });
        match fit {
            Some(b) => {
                bins[b].2 += m.size_tib;
                bins[b].3.push(mi);
            }
            None => bins.push((m.level, m.cool, m.size_tib, vec![mi])),
        }
    }
    bins.sort_by_key(|b| (b.0, b.1));
    let per_account = limits.max_pools_per_account.max(1) as usize;
    let mut count_per_level: Vec<(ServiceLevel, bool, usize)> = Vec::new();
    let mut out = Vec::with_capacity(bins.len());
    for (i, (level, cool, size_tib, ms)) in bins.into_iter().enumerate() {
        let n = match count_per_level
            .iter_mut()
            .find(|(l, c, _)| *l == level && *c == cool)
        {
            Some(e) => {
                e.2 += 1;
                e.2
            }
            None => {
                count_per_level.push((level, cool, 1));
                1
            }
        };
        let name = format!("pool-{level}{}-{n}", if cool { "-cool" } else { "" });
        let mut pool = EstatePool {
            name: name.clone(),
            account: format!("netapp-account-{}", i / per_account + 1),
            service_level: level,
            cool_access: cool,
            size_tib,
            clusters: Vec::new(),
            datastores: 0,
            throughput_mibps: 0.0,
            cost_usd_per_month: 0.0,
        };
        for mi in ms {
            rename(plans, &members[mi], &name, &mut pool);
        }
        pool.cost_usd_per_month = (pool.cost_usd_per_month * 100.0).round() / 100.0;
        out.push(pool);
    }
    out
}

/// Gives one cluster's pool the shared pool's name and adds it to the shared pool.
fn rename(plans: &mut ClusterPlans, m: &Member, name: &str, pool: &mut EstatePool) {
    let Some(c) = plans.clusters.get_mut(m.cluster) else {
        return;
    };
    let Some(p) = c.plan.pools.get_mut(m.pool) else {
        return;
    };
    let old = std::mem::replace(&mut p.name, name.to_string());
    pool.throughput_mibps += p.throughput_mibps;
    pool.cost_usd_per_month += p.cost_usd_per_month;
    let mut datastores = 0;
    for d in c.plan.datastores.iter_mut().filter(|d| d.pool == old) {
        d.pool = name.to_string();
        datastores += 1;
    }
    pool.datastores += datastores;
    if !pool.clusters.contains(&c.cluster) {
        pool.clusters.push(c.cluster.clone());
    }
}

/// The regional capacity quota over the estate's pools, and the NetApp accounts they need.
pub(crate) fn account_warnings(
    pools: &[EstatePool],
    limits: &Limits,
    region: &str,
) -> Vec<Warning> {
    let tib = pools.iter().fold(0u32, |a, p| a.saturating_add(p.size_tib));
    let mut out = quota_warnings(limits, region, tib, 0, "the estate's pools");
    let accounts = pools
        .len()
        .div_ceil(limits.max_pools_per_account.max(1) as usize);
    if accounts > 1 {
        out.push(Warning::plan_wide(format!(
            "the estate's {} capacity pools need {accounts} NetApp accounts ({} pools each by \
             default, data/limits.csv), or a support request to raise the limit",
            pools.len(),
            limits.max_pools_per_account
        )));
    }
    out
}

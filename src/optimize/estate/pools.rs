//! Capacity pools shared across an estate's AVS clusters ([`share_pools`]). Each cluster's
//! plan sizes its Standard, Premium and Ultra datastores as a share of a shared pool, in
//! whole GiB (each datastore at least 50 GiB; `OptimizeOptions::shared_pool`); the shares
//! of the same level and cool-access state are added into shared pools of at most
//! `pool_max_tib` (2,048 TiB), first fit in decreasing order of size, and the clusters'
//! plans take the shared pool's name. A cluster's share is never split across shared
//! pools (its datastores stay in one pool). A shared pool is its members' quotas rounded
//! up once to whole TiB: "the sum of volume capacity quotas in a pool can't exceed the
//! pool size", pools come in 1 TiB increments and are billed on their provisioned size
//! (learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-cost-model,
//! 2026-06-15). Flexible pools stay one per cluster, in whole TiB: each Flexible pool
//! includes 128 MiB/s, so sharing one would buy that throughput again. The pools go into
//! NetApp accounts of `max_pools_per_account` (25) pools each.
//!
//! The rounding is allocated: each cluster pays its quota's share of its shared pool's hot
//! tier (the pool's whole TiB less its cold data, at the level's price, to the cent),
//! allocated to the cent in the clusters' order (`ROUND(hot x Q_i / Q, 2) - ROUND(hot x
//! Q_(i-1) / Q, 2)`, `Q_i` the quotas of the pool's clusters up to the i-th), so the
//! clusters' costs add up exactly to the estate's pools; each keeps its own cool capacity
//! and transfer lines. The rounding adds no QoS to a cluster's datastores (it stays
//! unassigned in the pool: conservative). A time-phased cluster's peak months pay their
//! share of the pools the peak layouts make together (the peak-all-year comparison
//! likewise, 12 months).

use crate::catalog::{Limits, RegionPrices, ServiceLevel};
use crate::inventory::{Warning, WarningKind};
use crate::optimize::account::quota_warnings;
use crate::optimize::milp::round_cents;
use crate::optimize::run::Cheapest;
use crate::plan::{ClusterPlans, EstatePool, PoolPlan};

/// A design's ANF split (its clusters' points, [`super::designs`]) costed pay as you go
/// with its clusters' Standard, Premium and Ultra datastores as shares of shared pools
/// (whole GiB, each pool rounded up once: the points' costs plus
/// [`rounding_usd_per_month`]) and with a pool of each cluster's own (whole TiB, shared as
/// they are); the cheaper is the design's figure and how it is planned. A cluster's point
/// prices its share per GiB, so a share alone (or nearly) in its pool may pay more once the
/// pool is rounded up than a pool of its own would cost; the comparison keeps the estate
/// from paying for that. All shared or none: not chosen cluster by cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PoolSizing {
    /// Shared pools, their rounding included, USD per month.
    pub(super) shared_usd_per_month: f64,
    /// A pool per cluster, USD per month.
    pub(super) own_usd_per_month: f64,
}

impl PoolSizing {
    /// Whether the shared pools are the cheaper (a tie keeps a pool per cluster).
    pub(super) fn shared(&self) -> bool {
        self.shared_usd_per_month < self.own_usd_per_month - 1e-6
    }

    /// The cheaper of the two, USD per month.
    pub(super) fn chosen_usd_per_month(&self) -> f64 {
        self.shared_usd_per_month.min(self.own_usd_per_month)
    }
}

/// Where a member's pool is: its cluster's index and the pool's in that cluster's plan.
#[derive(Clone, Copy)]
struct At {
    cluster: usize,
    pool: usize,
}

/// GiB per TiB.
const GIB_PER_TIB: u64 = 1024;

/// One cluster's pool before sharing: a share of a shared pool (its quotas) or a pool of
/// its own (Flexible, whole TiB).
#[derive(Debug, Clone, Copy)]
pub(super) struct Member {
    pub(super) level: ServiceLevel,
    pub(super) cool: bool,
    /// The share's quotas, or the own pool's size, GiB.
    pub(super) gib: u64,
    /// A share of a shared pool (else a pool of its own, never shared).
    pub(super) shared: bool,
    /// Its data in the cool tier, GiB.
    pub(super) cold_gib: f64,
    /// Its hot-tier line as planned alone (its quotas less its cold data), USD per month.
    pub(super) hot_usd: f64,
}

impl Member {
    /// The member a plan's pool makes.
    pub(super) fn of(p: &PoolPlan) -> Member {
        Member {
            cold_gib: p.cool_data_gib,
            hot_usd: p.hot_capacity_cost_usd_per_month,
            ..Member::new(p.service_level, p.cool_access, p.size_tib, p.share_gib)
        }
    }

    /// The member the cheapest plan of one cluster's ANF side makes (its pool, cold data
    /// and hot-tier line as planned alone).
    pub(super) fn of_cheapest(c: &Cheapest) -> Member {
        Member {
            cold_gib: c.cold_gib,
            hot_usd: c.hot_usd_per_month,
            ..Member::new(c.level, c.cool, c.size_tib, c.share_gib)
        }
    }

    /// A share of `share_gib` GiB, or (when 0) a pool of its own of `size_tib` TiB,
    /// without cold data or a hot-tier line.
    pub(super) fn new(level: ServiceLevel, cool: bool, size_tib: u32, share_gib: u32) -> Member {
        let shared = share_gib > 0;
        Member {
            level,
            cool,
            gib: if shared {
                u64::from(share_gib)
            } else {
                u64::from(size_tib) * GIB_PER_TIB
            },
            shared,
            cold_gib: 0.0,
            hot_usd: 0.0,
        }
    }
}

/// A pool of the estate: its members (indices into the members, in order), level, cool
/// state and the GiB its members hold.
struct Bin {
    level: ServiceLevel,
    cool: bool,
    shared: bool,
    gib: u64,
    members: Vec<usize>,
}

impl Bin {
    /// Provisioned size, whole TiB: a shared pool's quotas rounded up once, at least the
    /// pool minimum; a pool of its own, its size.
    fn size_tib(&self, limits: &Limits) -> u64 {
        let tib = self.gib.div_ceil(GIB_PER_TIB);
        if self.shared {
            tib.max(limits.pool_min_tib.max(0.0) as u64)
        } else {
            tib
        }
    }

    /// A shared pool's hot tier, pay as you go: `(size x 1,024 - its members' cold GiB) x
    /// price`, USD per month, to the cent.
    fn hot_usd(&self, members: &[Member], limits: &Limits, price: f64) -> f64 {
        let cold: f64 = self.members.iter().map(|&i| members[i].cold_gib).sum();
        let gib = (self.size_tib(limits) * GIB_PER_TIB) as f64;
        round_cents((gib - cold).max(0.0) * price)
    }

    /// Each member's share of `hot` by quota, to the cent, in member order: `ROUND(hot x
    /// Q_i / Q, 2) - ROUND(hot x Q_(i-1) / Q, 2)`, `Q_i` the quotas up to the i-th (so
    /// the shares add up to `hot`).
    fn shares(&self, members: &[Member], hot: f64) -> Vec<f64> {
        let q = self.gib as f64;
        let mut before = 0.0;
        let mut upto = 0u64;
        self.members
            .iter()
            .map(|&i| {
                upto += members[i].gib;
                let now = if q > 0.0 {
                    round_cents(hot * upto as f64 / q)
                } else {
                    0.0
                };
                let share = round_cents(now - before);
                before = now;
                share
            })
            .collect()
    }
}

/// The estate's pools: shares of one level and cool state added first fit in decreasing
/// order of size into pools of at most `pool_max_tib` once rounded up; a pool of a
/// cluster's own (Flexible, or every pool when the design is planned with a pool per
/// cluster) alone, so the plan has the pools, names and quotas its clusters were sized
/// with. Each pool's members in member order; the pools by level and cool state.
fn bins(members: &[Member], limits: &Limits) -> Vec<Bin> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    // Largest first; ties in member order (stable sort).
    order.sort_by_key(|&i| std::cmp::Reverse(members[i].gib));
    let max_gib = (limits.pool_max_tib.max(1.0) as u64).saturating_mul(GIB_PER_TIB);
    let mut bins: Vec<Bin> = Vec::new();
    for i in order {
        let m = members[i];
        let fit = bins.iter().position(|b| {
            m.shared
                && m.level != ServiceLevel::Flexible
                && b.shared
                && b.level == m.level
                && b.cool == m.cool
                && b.gib.saturating_add(m.gib) <= max_gib
        });
        match fit {
            Some(b) => {
                bins[b].gib += m.gib;
                bins[b].members.push(i);
            }
            None => bins.push(Bin {
                level: m.level,
                cool: m.cool,
                shared: m.shared,
                gib: m.gib,
                members: vec![i],
            }),
        }
    }
    for b in &mut bins {
        b.members.sort_unstable();
    }
    bins.sort_by_key(|b| (b.level, b.cool));
    bins
}

/// Each member's hot-tier line once its pool is shared ([`Bin::shares`]); a pool of its
/// own keeps its line.
fn shared_hot_usd(members: &[Member], limits: &Limits, prices: &RegionPrices) -> Vec<f64> {
    let mut out: Vec<f64> = members.iter().map(|m| m.hot_usd).collect();
    for b in bins(members, limits).iter().filter(|b| b.shared) {
        let hot = b.hot_usd(members, limits, price_gib(prices, b.level));
        for (&i, share) in b.members.iter().zip(b.shares(members, hot)) {
            out[i] = share;
        }
    }
    out
}

/// What sharing the pools adds to the members' hot-tier lines (the pools' rounding up to
/// whole TiB), USD per month: for costing a design's split (and so comparing designs and
/// host SKUs) before its plans are built.
pub(super) fn rounding_usd_per_month(
    members: &[Member],
    limits: &Limits,
    prices: &RegionPrices,
) -> f64 {
    let shared: f64 = shared_hot_usd(members, limits, prices).iter().sum();
    let alone: f64 = members.iter().map(|m| m.hot_usd).sum();
    round_cents(shared - alone)
}

/// The level's capacity price, USD per GiB-month (0 when not sold: the plans were priced
/// from the same region, so every level they use is sold).
fn price_gib(prices: &RegionPrices, level: ServiceLevel) -> f64 {
    prices
        .capacity_usd_per_gib_month
        .get(&level)
        .copied()
        .unwrap_or(0.0)
}

/// Shares the pools of `plans` (renaming each cluster's pool and its datastores' pool to
/// the shared pool's name, each share paying its quota's share of the pool's hot tier) and
/// returns the estate's pools, in NetApp accounts.
pub(crate) fn share_pools(
    plans: &mut ClusterPlans,
    limits: &Limits,
    prices: &RegionPrices,
) -> Vec<EstatePool> {
    let mut refs: Vec<At> = Vec::new();
    let mut members: Vec<Member> = Vec::new();
    for (ci, c) in plans.clusters.iter().enumerate() {
        for (pi, p) in c.plan.pools.iter().enumerate() {
            refs.push(At {
                cluster: ci,
                pool: pi,
            });
            members.push(Member::of(p));
        }
    }
    let per_account = limits.max_pools_per_account.max(1) as usize;
    let mut count_per_level: Vec<(ServiceLevel, bool, usize)> = Vec::new();
    let bins = bins(&members, limits);
    let mut out = Vec::with_capacity(bins.len());
    for (i, b) in bins.into_iter().enumerate() {
        let n = match count_per_level
            .iter_mut()
            .find(|(l, c, _)| *l == b.level && *c == b.cool)
        {
            Some(e) => {
                e.2 += 1;
                e.2
            }
            None => {
                count_per_level.push((b.level, b.cool, 1));
                1
            }
        };
        let name = format!("pool-{}{}-{n}", b.level, if b.cool { "-cool" } else { "" });
        let hot = if b.shared {
            b.hot_usd(&members, limits, price_gib(prices, b.level))
        } else {
            round_cents(b.members.iter().map(|&i| members[i].hot_usd).sum())
        };
        let mut pool = EstatePool {
            name: name.clone(),
            account: format!("netapp-account-{}", i / per_account + 1),
            service_level: b.level,
            cool_access: b.cool,
            size_tib: u32::try_from(b.size_tib(limits)).unwrap_or(u32::MAX),
            // A pool of its own: its datastores' quotas, added as they join.
            quota_gib: if b.shared { b.gib } else { 0 },
            clusters: Vec::new(),
            datastores: 0,
            throughput_mibps: 0.0,
            hot_capacity_cost_usd_per_month: hot,
            cost_usd_per_month: 0.0,
        };
        let shares = b.shares(&members, hot);
        for (k, &mi) in b.members.iter().enumerate() {
            let share = if b.shared {
                shares.get(k).copied()
            } else {
                None
            };
            join(plans, refs[mi], (&name, share), &mut pool);
        }
        pool.cost_usd_per_month = round_cents(pool.cost_usd_per_month);
        out.push(pool);
    }
    for c in &mut plans.clusters {
        c.plan.totals.cost_usd_per_month =
            round_cents(c.plan.pools.iter().map(|p| p.cost_usd_per_month).sum());
    }
    charge_phases(plans, limits, prices);
    out
}

/// Gives one cluster's pool the shared pool's name and (for a share) its hot-tier line
/// `hot`, shares the pool's cost over its datastores, and adds it to the shared pool.
fn join(plans: &mut ClusterPlans, at: At, (name, hot): (&str, Option<f64>), pool: &mut EstatePool) {
    let Some(c) = plans.clusters.get_mut(at.cluster) else {
        return;
    };
    let Some(p) = c.plan.pools.get_mut(at.pool) else {
        return;
    };
    let old = std::mem::replace(&mut p.name, name.to_string());
    if let Some(hot) = hot {
        reprice(p, hot);
    }
    pool.throughput_mibps += p.throughput_mibps;
    pool.cost_usd_per_month += p.cost_usd_per_month;
    let cost = p.cost_usd_per_month;
    let mine: Vec<usize> = (0..c.plan.datastores.len())
        .filter(|&i| c.plan.datastores[i].pool == old)
        .collect();
    let sizes: f64 = mine.iter().map(|&i| c.plan.datastores[i].size_gib).sum();
    for &i in &mine {
        let d = &mut c.plan.datastores[i];
        d.pool = name.to_string();
        if sizes > 0.0 {
            d.cost_usd_per_month = round_cents(cost * d.size_gib / sizes);
        }
    }
    if hot.is_none() {
        pool.quota_gib += sizes.max(0.0).ceil() as u64;
    }
    pool.datastores += mine.len() as u32;
    if !pool.clusters.contains(&c.cluster) {
        pool.clusters.push(c.cluster.clone());
    }
}

/// A share's cost lines with its share `hot` of the shared pool's hot tier (pay as you
/// go, as an estate's clusters are planned): the capacity and total lines again, to the
/// cent.
fn reprice(p: &mut PoolPlan, hot: f64) {
    p.hot_capacity_cost_usd_per_month = hot;
    p.capacity_cost_usd_per_month = round_cents(hot + p.cool_capacity_cost_usd_per_month);
    p.cost_usd_per_month = round_cents(
        hot + p.cool_capacity_cost_usd_per_month
            + p.cool_transfer_cost_usd_per_month
            + p.throughput_cost_usd_per_month,
    );
}

/// The time-phased clusters' phases with their pools shared: the base months cost the
/// plan's total (its pools shared); the peak months (and the peak-all-year comparison)
/// the peak layout plus what sharing the pools the peak layouts make together adds to its
/// hot tier; the year and its savings again.
fn charge_phases(plans: &mut ClusterPlans, limits: &Limits, prices: &RegionPrices) {
    let phased: Vec<usize> = (0..plans.clusters.len())
        .filter(|&i| plans.clusters[i].plan.time_phased.is_some())
        .collect();
    let peaks: Vec<Member> = phased
        .iter()
        .filter_map(|&i| {
            let plan = &plans.clusters[i].plan;
            let t = plan.time_phased.as_ref()?;
            let p = &t.peak;
            let mut m = Member::new(p.service_level, p.cool_access, p.pool_size_tib, p.share_gib);
            if m.cool {
                m.cold_gib = plan.pools.iter().map(|x| x.cool_data_gib).sum();
            }
            // The peak layout's hot line alone, as the optimizer priced it.
            m.hot_usd =
                round_cents(((m.gib as f64) - m.cold_gib).max(0.0) * price_gib(prices, m.level));
            Some(m)
        })
        .collect();
    let shared = shared_hot_usd(&peaks, limits, prices);
    for ((&i, m), hot) in phased.iter().zip(&peaks).zip(shared) {
        let c = &mut plans.clusters[i];
        let month = c.plan.totals.cost_usd_per_month;
        let Some(t) = c.plan.time_phased.as_mut() else {
            continue;
        };
        let more = round_cents(hot - m.hot_usd);
        t.base.cost_usd_per_month = month;
        t.peak.cost_usd_per_month = round_cents(t.peak.cost_usd_per_month + more);
        t.yearly_cost_usd = round_cents(
            f64::from(t.base.months) * t.base.cost_usd_per_month
                + f64::from(t.peak.months) * t.peak.cost_usd_per_month,
        );
        if t.peak_all_year_yearly_cost_usd > 0.0 {
            t.peak_all_year_yearly_cost_usd =
                round_cents(t.peak_all_year_yearly_cost_usd + 12.0 * more);
        }
        t.yearly_savings_usd = round_cents(t.peak_all_year_yearly_cost_usd - t.yearly_cost_usd);
    }
}

/// The estate's pools' hot tiers, for its reservations: level, hot TiB (the pool's size
/// less its clusters' cold data) and the pay-as-you-go hot-tier line, USD per month.
pub(super) fn hot_tiers(
    pools: &[EstatePool],
    plans: &ClusterPlans,
) -> Vec<(ServiceLevel, f64, f64)> {
    pools
        .iter()
        .map(|p| {
            let cold: f64 = plans
                .clusters
                .iter()
                .flat_map(|c| c.plan.pools.iter())
                .filter(|x| x.name == p.name)
                .map(|x| x.cool_data_gib)
                .sum();
            let gib = f64::from(p.size_tib) * 1024.0;
            let hot_tib = ((gib - cold) / 1024.0).max(0.0);
            (p.service_level, hot_tib, p.hot_capacity_cost_usd_per_month)
        })
        .collect()
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
        out.push(Warning::plan_wide(
            WarningKind::Azure,
            format!(
                "the estate's {} capacity pools need {accounts} NetApp accounts ({} pools each by \
                 default, data/limits.csv), or a support request to raise the limit",
                pools.len(),
                limits.max_pools_per_account
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(gib: u32) -> Member {
        Member::new(ServiceLevel::Standard, false, 0, gib)
    }

    // 50 shares of 50 GiB (Standard): one pool of ceil(2,500 / 1,024) = 3 TiB; its hot tier
    // 3,072 x 0.000202 x 730 = 3,072 x 0.14746 = 452.997 -> 453.00 USD/month, 9.06 per
    // share (453.00 x 50 / 2,500), adding up to 453.00.
    #[test]
    fn fifty_small_shares_make_one_pool_rounded_once() {
        let catalog = crate::catalog::Catalog::builtin().unwrap();
        let prices = catalog.region("eastus").unwrap();
        let members = vec![share(50); 50];
        let b = bins(&members, &catalog.limits);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].size_tib(&catalog.limits), 3);
        let hot = shared_hot_usd(&members, &catalog.limits, prices);
        assert!(hot.iter().all(|h| (h - 9.06).abs() < 1e-9), "{hot:?}");
        assert!((hot.iter().sum::<f64>() - 453.0).abs() < 1e-9);
    }

    // Three shares of 100, 200 and 724 GiB (1,024: one TiB exactly) of a 100.00 hot tier:
    // cumulative 100, 300, 1,024 of 1,024 -> 9.77, 29.30, 100.00: shares 9.77, 19.53, 70.70
    // (the cent the exact 9.765625 + 19.53125 + 70.703125 leaves goes where the running
    // total rounds up).
    #[test]
    fn shares_add_up_to_the_pool_to_the_cent() {
        let members = vec![share(100), share(200), share(724)];
        let b = Bin {
            level: ServiceLevel::Standard,
            cool: false,
            shared: true,
            gib: 1024,
            members: vec![0, 1, 2],
        };
        let s = b.shares(&members, 100.0);
        assert_eq!(s, vec![9.77, 19.53, 70.7]);
        assert!((s.iter().sum::<f64>() - 100.0).abs() < 1e-9);
    }

    proptest::proptest! {
        // Any shares and pools of their own: every member in exactly one pool; a pool of
        // shares is its quotas rounded up to whole TiB once, at most 2,048 TiB, of one level
        // and cool state; Flexible pools alone; the shares' hot lines add up to their pools'
        // to the cent, none negative.
        #[test]
        fn pools_hold_every_member_once_and_shares_add_up(
            members in proptest::collection::vec(
                (0usize..4, proptest::bool::ANY, 50u32..700_000, proptest::bool::ANY),
                1..40,
            ),
        ) {
            let catalog = crate::catalog::Catalog::builtin().unwrap();
            let prices = catalog.region("eastus").unwrap();
            let levels = [
                ServiceLevel::Standard,
                ServiceLevel::Premium,
                ServiceLevel::Ultra,
                ServiceLevel::Flexible,
            ];
            let members: Vec<Member> = members
                .iter()
                .map(|&(l, cool, gib, share)| {
                    let level = levels[l];
                    if share && level != ServiceLevel::Flexible {
                        Member::new(level, cool, 0, gib)
                    } else {
                        Member::new(level, cool, gib.div_ceil(1024), 0)
                    }
                })
                .collect();
            let limits = &catalog.limits;
            let b = bins(&members, limits);
            let mut seen = vec![0; members.len()];
            for bin in &b {
                for &i in &bin.members {
                    seen[i] += 1;
                    let m = members[i];
                    proptest::prop_assert!(m.level == bin.level && m.cool == bin.cool);
                    proptest::prop_assert_eq!(m.shared, bin.shared);
                }
                let quotas: u64 = bin.members.iter().map(|&i| members[i].gib).sum();
                proptest::prop_assert_eq!(quotas, bin.gib);
                proptest::prop_assert!(bin.size_tib(limits) <= 2_048);
                if bin.level == ServiceLevel::Flexible {
                    proptest::prop_assert_eq!(bin.members.len(), 1);
                }
                if bin.shared {
                    proptest::prop_assert_eq!(bin.size_tib(limits), quotas.div_ceil(1024));
                    let hot = bin.hot_usd(&members, limits, price_gib(prices, bin.level));
                    let shares = bin.shares(&members, hot);
                    proptest::prop_assert!(shares.iter().all(|s| *s >= 0.0));
                    let sum: f64 = shares.iter().sum();
                    proptest::prop_assert!((sum - hot).abs() < 1e-6, "{} vs {}", sum, hot);
                }
            }
            proptest::prop_assert!(seen.iter().all(|&n| n == 1));
        }
    }
}

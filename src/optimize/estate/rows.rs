//! Each AVS cluster's row in each design ([`Rows`]): its hosts, data on vSAN and on ANF,
//! and its ANF priced as the design's pools are ([`Pricing`]): a planned design's from its
//! plan (the pools it creates, their rounding allocated), else a pool of the cluster's own
//! or its share of a shared pool per GiB, as the design sizes its pools; with the level and
//! pool it is priced on in words.

use super::choices::{ClusterChoice, Variant};
use super::oracle::AnfPool;
use super::pools::Member;
use crate::demand::Demand;
use crate::numbers::group_thousands as g;
use crate::optimize::OptimizeError;
use crate::optimize::milp::round_cents;
use crate::plan::{ClusterDesign, ClusterDesigns, ClusterPlans, Design};
use crate::sizing::AvsCluster;

/// GiB per TiB.
const GIB_PER_TIB: u64 = 1024;

/// How one design's ANF side is priced per cluster.
#[derive(Clone, Copy, Default)]
pub(super) struct Pricing<'a> {
    /// Its plan, where planned: each cluster's row takes its plan's figure.
    pub(super) planned: Option<&'a ClusterPlans>,
    /// Its pools are shared (else each cluster's own), as its cost sizes them.
    pub(super) shared: bool,
}

impl Pricing<'_> {
    /// Cluster `cluster`'s ANF, USD per month, and the level and pool it is priced on:
    /// its plan's figure where planned, else the pool of its own (`pool.own`) when the
    /// design's pools are each cluster's own, else `share_usd` (its point's figure, a share
    /// per GiB or a Flexible pool of its own); `(share_usd, "")` without a pool (nothing on
    /// ANF).
    pub(super) fn price(
        &self,
        cluster: &str,
        pool: Option<AnfPool>,
        share_usd: f64,
    ) -> (f64, String) {
        let Some(pool) = pool else {
            return (share_usd, String::new());
        };
        let plan = self.planned.and_then(|s| {
            s.clusters
                .iter()
                .find(|x| x.cluster == cluster)
                .map(|x| (s, x))
        });
        if let Some((s, x)) = plan {
            let pools: Vec<String> = x
                .plan
                .pools
                .iter()
                .map(|p| format!("{}, {}", p.service_level, p.name))
                .collect();
            let mut words = format!("{} as planned", pools.join("; "));
            if !s.reservations.is_empty() {
                words.push_str(" (pay as you go: the reservations are in the estate's row)");
            }
            return (x.plan.totals.cost_usd_per_month, words);
        }
        match pool.own.filter(|_| !self.shared) {
            Some(own) => (pool.own_usd_per_month, member_words(&own)),
            None => (share_usd, member_words(&pool.member)),
        }
    }
}

/// A pool before planning, in words: `standard, share of 2,262 GiB priced per GiB` or
/// `flexible, own pool of 3 TiB`.
fn member_words(m: &Member) -> String {
    if m.shared {
        format!(
            "{}, share of {} GiB priced per GiB",
            m.level,
            g(m.gib as f64, 0)
        )
    } else {
        format!(
            "{}, own pool of {} TiB",
            m.level,
            g((m.gib / GIB_PER_TIB) as f64, 0)
        )
    }
}

/// What the per-cluster rows share.
pub(super) struct Rows<'a> {
    pub(super) demand: &'a Demand,
    pub(super) hours: f64,
    /// The estate's hybrid is vSAN alone: each cluster's hybrid row is its vSAN-alone row.
    pub(super) collapsed: bool,
    /// The design the plan is sized as (vSAN alone for a collapsed hybrid).
    pub(super) chosen: Design,
    /// How ANF for all and the hybrid price each cluster's ANF.
    pub(super) pricing: [Pricing<'a>; 2],
}

impl Rows<'_> {
    fn row(
        &self,
        (v, design): (&Variant, Design),
        hosts: u32,
        (vsan_gib, anf_gib, vms_on_anf): (f64, f64, usize),
        (usable, (anf_usd, priced_on)): (f64, (f64, String)),
    ) -> ClusterDesign {
        let delivers = v.predicted(design).unwrap_or_default();
        let (predicted_iops, predicted_throughput_mibps) = delivers.total();
        let hosts_usd = v
            .usd_per_host_hour
            .map(|p| round_cents(f64::from(hosts) * p * self.hours));
        ClusterDesign {
            feasible: true,
            sku: v.sku.clone(),
            hosts,
            vsan_usable_gib: usable,
            vsan_data_gib: vsan_gib,
            anf_data_gib: anf_gib,
            vms_on_anf,
            hosts_usd_per_month: hosts_usd,
            anf_usd_per_month: round_cents(anf_usd),
            anf_priced_on: priced_on,
            total_usd_per_month: hosts_usd.map(|h| round_cents(h + anf_usd)),
            predicted_iops,
            predicted_throughput_mibps,
            vsan_iops_target: delivers.vsan_target.0,
            vsan_throughput_target_mibps: delivers.vsan_target.1,
            vsan_predicted_iops: delivers.vsan.0,
            vsan_predicted_throughput_mibps: delivers.vsan.1,
        }
    }

    /// A design not worked out for cluster `c`.
    fn unknown(c: &AvsCluster) -> ClusterDesign {
        not_worked_out(c.sku.clone(), c.hosts)
    }

    /// One cluster's three designs, each on the variant its design gives the cluster
    /// (`per`: vSAN alone, ANF for all, hybrid).
    pub(super) fn cluster(
        &self,
        c: &AvsCluster,
        choice: &ClusterChoice,
        per: [Option<&Variant>; 3],
    ) -> Result<ClusterDesigns, OptimizeError> {
        let n = choice.data_gib.len();
        let data: f64 = choice.data_gib.iter().sum();
        let [on_vsan_alone, on_anf, on_hybrid] = per;
        let [anf_pricing, hybrid_pricing] = self.pricing;
        // Each design's row from its point, in one shape.
        let row = |v: Option<&Variant>, design: Design, pricing: Option<Pricing>| {
            let Some((v, p)) = v.and_then(|v| v.point(design).map(|p| (v, p))) else {
                return (Self::unknown(c), Vec::new());
            };
            let on_anf = p.on_anf(n);
            let anf_gib = choice.data(&on_anf);
            let usd = p.point.anf_usd_per_month;
            let priced = match pricing {
                Some(pricing) => pricing.price(&c.name, p.pool, usd),
                None => (usd, String::new()),
            };
            let row = self.row(
                (v, design),
                p.point.hosts,
                (data - anf_gib, anf_gib, on_anf.len()),
                (p.vsan_usable_gib, priced),
            );
            (row, p.point.on_vsan.clone())
        };
        let (vsan, _) = row(on_vsan_alone, Design::Vsan, None);
        let (anf, _) = row(on_anf, Design::Anf, Some(anf_pricing));
        let (hybrid, on_vsan) = if self.collapsed {
            (vsan.clone(), (0..n).collect())
        } else {
            row(on_hybrid, Design::Hybrid, Some(hybrid_pricing))
        };
        let names = on_vsan
            .iter()
            .filter_map(|&p| c.vm_indices.get(p))
            .filter_map(|&v| self.demand.placed.get(v))
            .map(|v| v.name.clone())
            .collect();
        let chosen = match self.chosen {
            Design::Vsan => on_vsan_alone,
            Design::Anf => on_anf,
            Design::Hybrid => on_hybrid,
        };
        Ok(ClusterDesigns {
            cluster: c.name.clone(),
            compute_hosts: chosen.map_or(c.hosts, |v| v.compute_hosts),
            vms: n,
            data_gib: data,
            reserved_raw_tib: chosen.map_or(0.0, |v| v.reserved_raw_tib),
            vsan,
            anf,
            hybrid,
            hybrid_vms_on_vsan: names,
            added: false,
        })
    }
}

/// A design not worked out for a cluster of `hosts` hosts of `sku`: no data, no cost.
pub(super) fn not_worked_out(sku: String, hosts: u32) -> ClusterDesign {
    ClusterDesign {
        feasible: false,
        sku,
        hosts,
        vsan_usable_gib: 0.0,
        vsan_data_gib: 0.0,
        anf_data_gib: 0.0,
        vms_on_anf: 0,
        hosts_usd_per_month: None,
        anf_usd_per_month: 0.0,
        anf_priced_on: String::new(),
        total_usd_per_month: None,
        predicted_iops: 0.0,
        predicted_throughput_mibps: 0.0,
        vsan_iops_target: 0.0,
        vsan_throughput_target_mibps: 0.0,
        vsan_predicted_iops: 0.0,
        vsan_predicted_throughput_mibps: 0.0,
    }
}

//! Utilisation and delivered performance of an estate plan: how much of each AVS cluster's
//! hosts and storage its VMs use, and the estate's ([`Utilisation`], as the Azure Migrate
//! AVS assessment reports the CPU, memory and storage utilisation of the nodes it
//! recommends, learn.microsoft.com/azure/migrate/
//! concepts-azure-vmware-solution-assessment-calculation, 2024-12-06); and the clusters'
//! predicted IOPS and MiB/s added, beside the estate's targets ([`EstatePerformance`]).

use crate::demand::Demand;
use crate::optimize::OptimizeOptions;
use crate::plan::{ClusterPlan, ClusterPlans, EstatePerformance, EstatePool, Utilisation};
use crate::sizing::{AvsCluster, EstateSizing};

/// `used` over `of` in percent; 0 when there is nothing to use.
fn pct(used: f64, of: f64) -> f64 {
    if of > 0.0 { 100.0 * used / of } else { 0.0 }
}

/// Provisioned GiB of a plan's pools: its pools of its own and its shares' quotas.
fn provisioned_gib(plan: &crate::plan::Plan) -> f64 {
    plan.pools
        .iter()
        .map(|p| f64::from(p.size_tib) * 1024.0 + f64::from(p.share_gib))
        .sum()
}

/// One AVS cluster's utilisation: its VMs' vCPUs and memory over its hosts' (the HA
/// reserve included), its data placed over its pools (or shares).
pub(super) fn cluster_utilisation(
    z: &EstateSizing,
    c: &AvsCluster,
    p: &ClusterPlan,
) -> Utilisation {
    let hosts = f64::from(c.hosts);
    Utilisation {
        vcpu_pct: pct(c.vcpus as f64, hosts * z.vcpus_per_host),
        memory_pct: pct(c.memory_gib, hosts * z.memory_gib_per_host),
        storage_pct: pct(p.plan.totals.placed_capacity_gib, provisioned_gib(&p.plan)),
    }
}

/// The estate's utilisation: every cluster's VMs over every host, the data placed over the
/// pools' sizes (their rounding up to whole TiB included).
pub(super) fn estate_utilisation(
    z: &EstateSizing,
    storage: &ClusterPlans,
    pools: &[EstatePool],
) -> Utilisation {
    let hosts = f64::from(z.hosts);
    let placed: f64 = storage
        .clusters
        .iter()
        .map(|c| c.plan.totals.placed_capacity_gib)
        .sum();
    let pool_gib: f64 = pools.iter().map(|p| f64::from(p.size_tib) * 1024.0).sum();
    Utilisation {
        vcpu_pct: pct(z.vcpus as f64, hosts * z.vcpus_per_host),
        memory_pct: pct(z.memory_gib, hosts * z.memory_gib_per_host),
        storage_pct: pct(placed, pool_gib),
    }
}

/// The clusters' predicted IOPS and MiB/s added, beside the estate's targets.
pub(super) fn performance(
    demand: &Demand,
    options: &OptimizeOptions,
    storage: &ClusterPlans,
) -> EstatePerformance {
    let o = &demand.options;
    let sum = |f: fn(&crate::plan::Performance) -> f64| -> f64 {
        storage
            .clusters
            .iter()
            .map(|c| f(&c.plan.performance))
            .fold(0.0, |a, b| a + b)
    };
    let peak = options
        .peak
        .as_ref()
        .is_some_and(|p| p.iops > 0.0 || p.throughput_mibps > 0.0);
    EstatePerformance {
        iops_target: o.iops,
        throughput_target_mibps: o.throughput_mibps,
        predicted_iops: sum(|p| p.small_block.iops),
        predicted_throughput_mibps: sum(|p| p.large_block.throughput_mibps),
        capacity_only: o.iops <= 0.0 && o.throughput_mibps <= 0.0 && !peak,
    }
}

//! Utilisation and delivered performance of an estate plan, on its chosen design: how much
//! of each AVS cluster's hosts and storage its VMs use, and the estate's ([`Utilisation`],
//! as the Azure Migrate AVS assessment reports the CPU, memory and storage utilisation of
//! the nodes it recommends, learn.microsoft.com/azure/migrate/
//! concepts-azure-vmware-solution-assessment-calculation, 2024-12-06); and the ANF
//! datastores' predicted IOPS and MiB/s added, beside the targets they carry
//! with the vSAN sides' envelopes ([`EstatePerformance`]).
//!
//! The design's hosts: the hybrid's and ANF for all's clusters as the design sizes them,
//! vSAN alone's grown to hold and carry the data, split past 16 hosts (a collapsed hybrid
//! is vSAN alone). Storage is two
//! figures, never mixed: ANF (the data placed over the cluster's pools of its own and its
//! shares' quotas; the estate: over the pools, rounding included) and vSAN (the data kept
//! on the hosts' vSAN over what it holds, [`crate::vsan::VsanCatalog::capacity`], from the
//! designs' per-cluster rows).

use crate::demand::Demand;
use crate::optimize::OptimizeOptions;
use crate::plan::{
    ClusterDesign, ClusterPlans, Design, EstateDesigns, EstatePerformance, EstatePool, Plan,
    Utilisation,
};
use crate::sizing::{EstateSizing, SizingOptions, host_offers};
use crate::vsan::VsanCatalog;

/// `used` over `of` in percent; 0 when there is nothing to use.
fn pct(used: f64, of: f64) -> f64 {
    if of > 0.0 { 100.0 * used / of } else { 0.0 }
}

/// Provisioned GiB of a plan's pools: its pools of its own and its shares' quotas.
fn provisioned_gib(plan: &Plan) -> f64 {
    plan.pools
        .iter()
        .map(|p| f64::from(p.size_tib) * 1024.0 + f64::from(p.share_gib))
        .sum()
}

/// What the utilisation is worked out from: the plan's hosts, storage and designs.
pub(super) struct Parts<'a> {
    pub(super) vsan_catalog: &'a VsanCatalog,
    pub(super) sizing_options: &'a SizingOptions,
    pub(super) designs: &'a EstateDesigns,
    /// Its clusters are vSAN alone's (vSAN alone chosen, or a hybrid that is vSAN alone).
    pub(super) on_vsan_alone: bool,
    pub(super) storage: Option<&'a ClusterPlans>,
    pub(super) pools: &'a [EstatePool],
}

/// Used and offered amounts, added over clusters.
#[derive(Default)]
struct Sums {
    vcpus: (f64, f64),
    memory_gib: (f64, f64),
    vsan_gib: (f64, f64),
}

impl Sums {
    fn add(&mut self, other: &Sums) {
        let add = |a: &mut (f64, f64), b: (f64, f64)| {
            a.0 += b.0;
            a.1 += b.1;
        };
        add(&mut self.vcpus, other.vcpus);
        add(&mut self.memory_gib, other.memory_gib);
        add(&mut self.vsan_gib, other.vsan_gib);
    }
}

/// Fills each AVS cluster's [`Utilisation`] in `sizing` (its chosen design's) and returns
/// the estate's.
pub(super) fn fill_utilisation(sizing: &mut EstateSizing, p: &Parts) -> Utilisation {
    let limits = &p.vsan_catalog.limits;
    let mut all = Sums::default();
    for c in &mut sizing.clusters {
        let row = p
            .designs
            .clusters
            .iter()
            .find(|d| d.cluster == c.name)
            .map(|d| chosen_row(d, p.designs.chosen, p.on_vsan_alone))
            .filter(|r| r.feasible);
        let hosts = c.hosts;
        let (vcpus_per_host, memory_per_host) = p
            .vsan_catalog
            .hosts
            .iter()
            .find(|h| h.sku == c.sku)
            .map_or((0.0, 0.0), |h| host_offers(h, limits, p.sizing_options));
        let n = f64::from(hosts);
        let (r_vcpus, r_gib) = c
            .management
            .as_ref()
            .map_or((0.0, 0.0), |r| (r.vcpus, r.memory_gib));
        // vSAN alone's clusters (a split one's parts each) carry their own figures.
        let vsan = match (p.on_vsan_alone, c.vsan_alone_gib) {
            (true, held) => held,
            _ => row
                .filter(|r| r.vsan_data_gib > 0.0)
                .map(|r| (r.vsan_data_gib, r.vsan_usable_gib)),
        };
        let sums = Sums {
            vcpus: (c.vcpus as f64 + r_vcpus, n * vcpus_per_host),
            memory_gib: (c.memory_gib + r_gib, n * memory_per_host),
            vsan_gib: vsan.unwrap_or_default(),
        };
        let plan = p
            .storage
            .and_then(|s| s.clusters.iter().find(|x| x.cluster == c.name));
        c.utilisation = Some(Utilisation {
            vcpu_pct: pct(sums.vcpus.0, sums.vcpus.1),
            memory_pct: pct(sums.memory_gib.0, sums.memory_gib.1),
            storage_pct: plan
                .map(|x| pct(x.plan.totals.placed_capacity_gib, provisioned_gib(&x.plan))),
            vsan_storage_pct: vsan.map(|(data, usable)| pct(data, usable)),
        });
        all.add(&sums);
    }
    let placed: Option<f64> = p.storage.map(|s| {
        s.clusters
            .iter()
            .map(|c| c.plan.totals.placed_capacity_gib)
            .sum()
    });
    let pool_gib: f64 = p.pools.iter().map(|x| f64::from(x.size_tib) * 1024.0).sum();
    Utilisation {
        vcpu_pct: pct(all.vcpus.0, all.vcpus.1),
        memory_pct: pct(all.memory_gib.0, all.memory_gib.1),
        storage_pct: placed.map(|g| pct(g, pool_gib)),
        vsan_storage_pct: (all.vsan_gib.0 > 0.0).then(|| pct(all.vsan_gib.0, all.vsan_gib.1)),
    }
}

/// A cluster's row of the design the plan is sized as.
fn chosen_row(d: &crate::plan::ClusterDesigns, chosen: Design, vsan: bool) -> &ClusterDesign {
    match chosen {
        _ if vsan => &d.vsan,
        Design::Vsan => &d.vsan,
        Design::Anf => &d.anf,
        Design::Hybrid => &d.hybrid,
    }
}

/// What the chosen design's storage delivers beside the targets: the ANF datastores'
/// predictions added (their plans), the vSAN sides' (`vsan`: each cluster's envelope
/// beside its ANF traffic, added, over the `designs`' clusters that keep data on vSAN, or
/// `sizing`'s on vSAN alone); `vsan_data_pct` the share of the data kept on vSAN.
pub(super) fn performance(
    demand: &Demand,
    options: &OptimizeOptions,
    storage: Option<&ClusterPlans>,
    (vsan, designs, sizing): ((f64, f64), &EstateDesigns, &EstateSizing),
    (on_vsan_alone, vsan_data_pct): (bool, f64),
) -> EstatePerformance {
    let o = &demand.options;
    let sum = |f: fn(&crate::plan::Performance) -> f64| -> f64 {
        storage
            .iter()
            .flat_map(|s| s.clusters.iter())
            .map(|c| f(&c.plan.performance))
            .fold(0.0, |a, b| a + b)
    };
    let (peak_iops, peak_mibps) = options
        .peak
        .as_ref()
        .map_or((0.0, 0.0), |p| (p.iops, p.throughput_mibps));
    let peak = peak_iops > 0.0 || peak_mibps > 0.0;
    let anf = (
        sum(|p| p.small_block.iops),
        sum(|p| p.large_block.throughput_mibps),
    );
    // vSAN alone's clusters as planned (a split one's parts each), else the designs' rows.
    let vsan_clusters = if on_vsan_alone {
        sizing
            .clusters
            .iter()
            .filter(|c| c.vsan_alone_gib.is_some())
            .count() as u32
    } else {
        designs
            .clusters
            .iter()
            .filter(|d| chosen_row(d, designs.chosen, false).vsan_data_gib > 0.0)
            .count() as u32
    };
    EstatePerformance {
        iops_target: o.iops,
        throughput_target_mibps: o.throughput_mibps,
        peak_iops_target: peak_iops,
        peak_throughput_target_mibps: peak_mibps,
        anf_iops_target: sum(|p| p.iops_target),
        anf_throughput_target_mibps: sum(|p| p.throughput_target_mibps),
        anf_clusters: storage.map_or(0, |s| s.clusters.len() as u32),
        predicted_iops: anf.0 + vsan.0,
        predicted_throughput_mibps: anf.1 + vsan.1,
        anf_predicted_iops: anf.0,
        anf_predicted_throughput_mibps: anf.1,
        vsan_clusters,
        vsan_predicted_iops: vsan.0,
        vsan_predicted_throughput_mibps: vsan.1,
        capacity_only: o.iops <= 0.0 && o.throughput_mibps <= 0.0 && !peak,
        vsan_data_pct,
    }
}

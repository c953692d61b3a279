//! The estate on vSAN alone for one SKU ([`vsan_alone_of`]): each cluster's data, its
//! largest VM and its share of the targets handed to [`crate::sizing::vsan_alone`], and a
//! data error named with the cluster's largest VM ([`with_largest_vm`]).

use super::data_factor;
use super::sku::EstateOptions;
use super::vsan_perf::VsanTargets;
use crate::demand::Demand;
use crate::optimize::OptimizeError;
use crate::sizing::{EstateSizing, VsanAlone, VsanAloneData, vsan_alone};
use crate::vsan::{VsanCatalog, VsanError, VsanNeed};

/// The estate of `sizing` on vSAN alone, when compared: each cluster keeps its compute
/// hosts, its own SKU and its reserve (first cluster or not) and grows until its vSAN
/// holds its data and carries its share of the targets (`targets`); with `rank_first`,
/// each private cloud's first cluster chosen again as the one whose vSAN hosts grow least
/// for its capacity ([`EstateSizing::with_vsan_first_clusters`]). Returns vSAN alone and
/// its clusters as AVS clusters ([`crate::sizing::vsan_alone`]). A VM whose data no one
/// cluster holds makes vSAN alone impossible: `Err` with that error inside.
pub(super) fn vsan_alone_of(
    (demand, vsan_catalog, estate): (&Demand, &VsanCatalog, &EstateOptions),
    targets: &VsanTargets,
    sizing: &EstateSizing,
    rank_first: bool,
) -> Result<Result<Option<(VsanAlone, EstateSizing)>, VsanError>, OptimizeError> {
    let Some(o) = &estate.vsan else {
        return Ok(Ok(None));
    };
    let factor = data_factor(demand);
    let per_vm: Vec<Vec<f64>> = sizing
        .clusters
        .iter()
        .map(|c| {
            c.vm_indices
                .iter()
                .map(|&i| demand.placed.get(i).map_or(0.0, |v| v.capacity_gib) * factor)
                .collect()
        })
        .collect();
    let data: Vec<f64> = per_vm.iter().map(|d| d.iter().sum()).collect();
    let ranked;
    let sizing = if rank_first {
        ranked = sizing.with_vsan_first_clusters(vsan_catalog, &data, o);
        &ranked
    } else {
        sizing
    };
    // Each cluster's VMs one vSAN cluster must hold whole, with where they were read.
    let whole: Vec<Vec<(&str, String, f64, VsanNeed)>> = sizing
        .clusters
        .iter()
        .zip(&per_vm)
        .map(|(c, gib)| {
            let of = (c.vm_indices.as_slice(), gib.as_slice());
            (targets.whole_vms(demand, of).into_iter())
                .filter_map(|(p, need)| {
                    let x = demand.placed.get(*c.vm_indices.get(p)?)?;
                    let o = &x.origin;
                    let at = format!(" ({} [{}] row {})", o.file, o.sheet, o.row);
                    Some((x.name.as_str(), at, gib.get(p).copied()?, need))
                })
                .collect()
        })
        .collect();
    let inputs: Vec<VsanAloneData> = (sizing.clusters.iter().zip(&per_vm).zip(&whole))
        .map(|((c, gib), w)| VsanAloneData {
            data_gib: gib.iter().sum(),
            vm_data_gib: gib,
            largest_vms: (w.iter())
                .map(|(n, at, g, need)| (*n, at.as_str(), *g, Some(*need)))
                .collect(),
            need: Some(targets.need(demand, (&c.vm_indices, gib))),
        })
        .collect();
    match vsan_alone(vsan_catalog, (demand, &estate.sizing), sizing, &inputs, o) {
        Ok(v) => Ok(Ok(Some(v))),
        Err(e @ VsanError::VmTooLarge(_)) => Ok(Err(e)),
        Err(e) => Err(with_largest_vm(e, demand, sizing).into()),
    }
}

/// A [`VsanError::DataTooLarge`] naming its cluster, with the cluster's largest VM added
/// (name, file, sheet, row and TiB): where to look in the inputs. Other errors as they are.
fn with_largest_vm(e: VsanError, demand: &Demand, sizing: &EstateSizing) -> VsanError {
    let VsanError::DataTooLarge {
        place,
        data_gib,
        data_tib,
        sku,
    } = e
    else {
        return e;
    };
    let cluster = (sizing.clusters.iter())
        .find(|c| place == format!("AVS cluster '{}': ", crate::numbers::clip(&c.name)));
    let largest = cluster.and_then(|c| {
        (c.vm_indices.iter())
            .filter_map(|&i| demand.placed.get(i))
            .max_by(|a, b| a.capacity_gib.total_cmp(&b.capacity_gib))
    });
    let place = match (cluster, largest) {
        (Some(c), Some(vm)) => format!(
            "AVS cluster '{}' (its largest VM '{}', {} [{}] row {}: {} TiB): ",
            crate::numbers::clip(&c.name),
            crate::numbers::clip(&vm.name),
            vm.origin.file,
            vm.origin.sheet,
            vm.origin.row,
            crate::numbers::group_thousands(vm.capacity_gib / 1024.0, 0)
        ),
        _ => place,
    };
    VsanError::DataTooLarge {
        place,
        data_gib,
        data_tib,
        sku,
    }
}

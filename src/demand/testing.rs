//! Demands built for the optimizer's unit tests.

use super::*;

/// VMs of `gib` GiB each (`vm0`, `vm1`, ... read from rows 2, 3, ... of `t` [vInfo]),
/// without cluster, load or compute figures.
pub(crate) fn vms(gib: &[f64]) -> Vec<VmDemand> {
    gib.iter()
        .enumerate()
        .map(|(i, &g)| VmDemand {
            name: format!("vm{i}"),
            cluster: None,
            capacity_gib: g,
            origin: Origin {
                file: "t".into(),
                sheet: "vInfo".into(),
                row: i + 2,
            },
            iops: None,
            throughput_mibps: None,
            vcpus: None,
            memory_mib: None,
            memory_consumed_mib: None,
        })
        .collect()
}

/// A demand of `placed` (in use, no growth) with the estate's targets `iops` and
/// `mibps`, its totals derived as [`Demand::subset`] derives them.
pub(crate) fn demand(placed: Vec<VmDemand>, (iops, mibps): (f64, f64)) -> Demand {
    let n = placed.len();
    let raw = Demand {
        options: DemandOptions {
            iops,
            throughput_mibps: mibps,
            ..DemandOptions::default()
        },
        placed,
        excluded: Vec::new(),
        placed_capacity_gib: 0.0,
        excluded_capacity_gib: 0.0,
        required_capacity_gib: 0.0,
        warnings: Vec::new(),
    };
    raw.subset(&(0..n).collect::<Vec<_>>())
}

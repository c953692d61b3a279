//! Per-VM spreads from per-VM performance figures (`perf`): a VM whose own need exceeds
//! what one VMDK on one datastore carries must spread its VMDKs over several datastores,
//! which sets a floor on the datastore count.

use std::collections::BTreeMap;

use super::error::OptimizeError;
use super::milp::Perf;
use crate::catalog::Limits;
use crate::demand::Demand;
use crate::inventory::{Origin, Warning, WarningKind};
use crate::numbers::group_thousands as g;
use crate::perf::{IoProfile, Layout};
use crate::plan::{BindingLimit, Constraint, Plan};

/// A VM whose own need (from `perf`) exceeds what one VMDK on one datastore carries.
#[derive(Debug, Clone)]
pub(super) struct Spread {
    name: String,
    origin: Origin,
    iops: f64,
    mibps: f64,
    /// What one VM reaches on one datastore: (IOPS, MiB/s).
    one: (f64, f64),
    /// Fewest datastores its VMDKs must spread over; `None` when even `max_datastores` is
    /// not enough for one VM.
    datastores: Option<u32>,
    /// Datastores its VMDKs are spread over: `datastores`, else all `max_datastores`
    /// (the most one VM reaches, though short of its need).
    over: u32,
    /// What one VM reaches at that count (or at the most datastores): (IOPS, MiB/s).
    reached: (f64, f64),
}

/// What one VM on one host reaches with one VMDK on each of `d = 1..=max_d` datastores,
/// each mounted with `nconnect` connections: (IOPS, MiB/s), index `d - 1`.
fn one_vm_reach(
    perf: Perf,
    limits: &Limits,
    (max_d, nconnect): (u32, u32),
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Vec<(f64, f64)>, OptimizeError> {
    let mut reach = Vec::with_capacity(max_d as usize);
    for d in 1..=max_d {
        let mut l = Layout::new(1, d, limits.volume_max_throughput_mibps);
        l.nconnect = nconnect;
        l.vms_per_host = Some(1);
        l.vmdks_per_vm = Some(d);
        reach.push((
            perf.predict(&l, small)?.iops,
            perf.predict(&l, large)?.throughput_mibps,
        ));
    }
    Ok(reach)
}

/// The VMs whose per-VM need exceeds one VMDK on one datastore (one VM on one host, one
/// flow per datastore, or `nconnect`), with the fewest datastores that carry them, up to
/// `max_d`.
pub(super) fn vm_spreads(
    perf: Perf,
    demand: &Demand,
    limits: &Limits,
    (max_d, nconnect): (u32, u32),
    small: &IoProfile,
    large: &IoProfile,
) -> Result<Vec<Spread>, OptimizeError> {
    let mut out = Vec::new();
    if demand
        .placed
        .iter()
        .all(|v| v.iops.is_none() && v.throughput_mibps.is_none())
    {
        return Ok(out);
    }
    let reach = one_vm_reach(perf, limits, (max_d, nconnect), small, large)?;
    let (Some(&one), Some(&last)) = (reach.first(), reach.last()) else {
        return Ok(out);
    };
    for vm in &demand.placed {
        let iops = vm.iops.unwrap_or(0.0);
        let mibps = vm.throughput_mibps.unwrap_or(0.0);
        if !(iops.is_finite() && mibps.is_finite()) || (iops <= one.0 && mibps <= one.1) {
            continue;
        }
        let k = reach
            .iter()
            .position(|r| r.0 >= iops && r.1 >= mibps)
            .map(|i| i as u32 + 1);
        out.push(Spread {
            name: vm.name.clone(),
            origin: vm.origin.clone(),
            iops,
            mibps,
            one,
            datastores: k,
            over: k.unwrap_or(max_d),
            reached: k.map_or(last, |k| reach[(k - 1) as usize]),
        });
    }
    Ok(out)
}

/// The fewest datastores every spread VM needs (1 when none); a VM that no count carries
/// needs them all.
pub(super) fn min_datastores(spreads: &[Spread]) -> u32 {
    spreads.iter().map(|s| s.over).max().unwrap_or(1)
}

/// The VMs (by file, sheet, row) that must spread over more than one datastore, with
/// their count: a VM that no count carries is spread over all `max_datastores`.
pub(super) fn spread_over(spreads: &[Spread]) -> BTreeMap<(String, String, usize), u32> {
    spreads
        .iter()
        .filter(|s| s.over > 1)
        .map(|s| {
            (
                (
                    s.origin.file.to_string(),
                    s.origin.sheet.to_string(),
                    s.origin.row,
                ),
                s.over,
            )
        })
        .collect()
}

/// The warning for one spread VM.
fn spread_message(s: &Spread, max_d: u32, small: &IoProfile) -> String {
    match s.datastores {
        Some(k) => format!(
            "VM '{}' needs {} IOPS / {} MiB/s, more than one VMDK on one datastore carries \
             ({} IOPS at {} KiB / {} MiB/s): spread its VMDKs over at least {k} datastores \
             (one VM reaches {} IOPS / {} MiB/s there)",
            crate::numbers::clip(&s.name),
            g(s.iops, 0),
            g(s.mibps, 0),
            g(s.one.0, 0),
            small.block_size_kib,
            g(s.one.1, 0),
            g(s.reached.0, 0),
            g(s.reached.1, 0)
        ),
        None => format!(
            "VM '{}' needs {} IOPS / {} MiB/s, more than one VM reaches even over {max_d} \
             datastores ({} IOPS / {} MiB/s): its VMDKs are spread over all {max_d}, the most \
             it gets, and it stays short; split its workload over several VMs",
            crate::numbers::clip(&s.name),
            g(s.iops, 0),
            g(s.mibps, 0),
            g(s.reached.0, 0),
            g(s.reached.1, 0)
        ),
    }
}

/// Warnings (and a binding limit) for the VMs that must spread their VMDKs.
pub(super) fn explain_spreads(plan: &mut Plan, spreads: &[Spread], max_d: u32, small: &IoProfile) {
    for s in spreads {
        let message = spread_message(s, max_d, small);
        plan.warnings
            .push(Warning::at_row(WarningKind::Plan, &s.origin, message));
    }
    let need = min_datastores(spreads);
    if need > 1 && plan.totals.datastores == need {
        plan.binding.push(BindingLimit {
            constraint: Constraint::VmSpread,
            detail: format!(
                "{} VM(s) need their VMDKs spread over at least {need} datastores (per-VM \
                 performance, `perf`)",
                spreads.iter().filter(|s| s.over == need).count()
            ),
        });
    }
}

//! The placed VMs no candidate host can run ([`fitting_no_host`]): more vCPUs than every
//! candidate host's hardware threads (`2 x cores`), or more memory (on the memory basis)
//! than every candidate host offers VMs ([`super::usable_memory_gib`], without overcommit),
//! SKU by SKU. The estate plans without them; a VM that fits some SKUs stays (the others
//! are infeasible for it).

use super::{MemoryBasis, SizingError, usable_memory_gib, vm_loads};
use crate::demand::Demand;
use crate::inventory::{Warning, WarningKind};
use crate::numbers::first_few;
use crate::numbers::group_thousands as g;
use crate::vsan::{AvsLimits, HostSku};

/// The most one VM may use on a host of `host`: `(vCPUs = 2 x cores, memory GiB)`.
pub(super) fn one_vm_limits(host: &HostSku, limits: &AvsLimits) -> (f64, f64) {
    (2.0 * f64::from(host.cores), usable_memory_gib(host, limits))
}

/// The placed VMs larger than one host of every candidate SKU, and what the largest
/// candidates offer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NoHostFits {
    /// The VMs, as indices into `Demand::placed` (ascending).
    pub vms: Vec<usize>,
    /// Each one's name, vCPUs and memory on the basis (GiB), in the same order.
    pub needs: Vec<(String, f64, f64)>,
    /// The most vCPUs one VM may have on a candidate host (`2 x cores`), and that SKU.
    pub most_vcpus: (f64, String),
    /// The most memory one VM may have on a candidate host, GiB, and that SKU.
    pub most_memory_gib: (f64, String),
}

/// The placed VMs of `demand` that fit no host of `hosts` (their vCPUs above `2 x cores`
/// or their memory on `basis` above the host's usable memory, for every SKU).
pub fn fitting_no_host(
    demand: &Demand,
    hosts: &[&HostSku],
    limits: &AvsLimits,
    basis: MemoryBasis,
) -> NoHostFits {
    let caps: Vec<(f64, f64)> = hosts.iter().map(|h| one_vm_limits(h, limits)).collect();
    let largest = |pick: fn(&(f64, f64)) -> f64| {
        hosts
            .iter()
            .zip(&caps)
            .map(|(h, c)| (pick(c), h.sku.clone()))
            .fold((0.0, String::new()), |a, b| if b.0 > a.0 { b } else { a })
    };
    let mut out = NoHostFits {
        most_vcpus: largest(|c| c.0),
        most_memory_gib: largest(|c| c.1),
        ..NoHostFits::default()
    };
    let (loads, _) = vm_loads(demand, basis);
    for l in loads {
        let fits = |&(vcpus, memory): &(f64, f64)| l.vcpus <= vcpus && l.memory_gib <= memory;
        if !caps.iter().any(fits) {
            let name = demand.placed.get(l.index).map(|v| v.name.clone());
            out.vms.push(l.index);
            out.needs
                .push((name.unwrap_or_default(), l.vcpus, l.memory_gib));
        }
    }
    out
}

impl NoHostFits {
    /// The first few VMs with their needs, and what the largest hosts offer.
    fn detail(&self) -> String {
        let shown = first_few(
            self.needs
                .iter()
                .map(|(n, c, m)| format!("'{n}' ({} vCPUs, {} GiB)", g(*c, 0), g(*m, 1))),
            self.needs.len(),
        );
        format!(
            "{shown}; one VM may use at most {} vCPUs ({}: 2 x its cores) and {} GiB of memory \
             ({}: its RAM less ESXi's 48 GB)",
            g(self.most_vcpus.0, 0),
            self.most_vcpus.1,
            g(self.most_memory_gib.0, 1),
            self.most_memory_gib.1
        )
    }

    /// The plan-wide warning listing them (first few and the count).
    pub fn warning(&self) -> Warning {
        Warning::plan_wide(
            WarningKind::Estate,
            format!(
                "{} VM(s) are larger than any AVS host of the candidate SKUs (vCPUs or memory) \
                 and are excluded from the estate: {}",
                g(self.vms.len() as f64, 0),
                self.detail()
            ),
        )
    }

    /// The error when every VM in scope is too large.
    pub fn error(&self) -> SizingError {
        SizingError::NoHostFits(format!(
            "every VM in scope ({}) is larger than one host of every candidate SKU: {}",
            g(self.vms.len() as f64, 0),
            self.detail()
        ))
    }
}

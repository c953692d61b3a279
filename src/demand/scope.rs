//! Which VMs are in scope: the options checked, the name filters resolved, and the
//! exclusion reason of each VM (the first that applies).

use crate::inventory::{Inventory, PowerState, Vm, Warning};

use super::{DemandError, DemandOptions, ExclusionReason, MAX_VM_CAPACITY_MIB};

/// How filter names compare: trimmed, lower case.
fn normalise_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// Normalises the names of one filter and checks each matches some VM's `value`.
fn name_filter(
    option: &'static str,
    given: &[String],
    inventory: &Inventory,
    value: impl Fn(&Vm) -> Option<&str>,
) -> Result<Vec<String>, DemandError> {
    let wanted: Vec<String> = given.iter().map(|g| normalise_name(g)).collect();
    for (g, w) in given.iter().zip(&wanted) {
        if !inventory
            .vms
            .iter()
            .any(|vm| value(vm).is_some_and(|v| normalise_name(v) == *w))
        {
            let known: std::collections::BTreeSet<&str> =
                inventory.vms.iter().filter_map(&value).collect();
            return Err(DemandError::UnknownName {
                option,
                name: g.clone(),
                known: if known.is_empty() {
                    "(none: the input has no such values)".into()
                } else {
                    known.into_iter().collect::<Vec<_>>().join(", ")
                },
            });
        }
    }
    Ok(wanted)
}

/// The `clusters`, `vcenters` and `datacenters` filters, normalised; empty selects all.
pub(super) struct Filters {
    /// Wanted cluster names.
    clusters: Vec<String>,
    /// Wanted vCenter names.
    vcenters: Vec<String>,
    /// Wanted datacenter names.
    datacenters: Vec<String>,
}

/// Checks the options (growth, headroom, reserve, targets, I/O profile) and resolves the
/// name filters against the inventory.
pub(super) fn check_options(
    inventory: &Inventory,
    options: &DemandOptions,
) -> Result<Filters, DemandError> {
    options.validate()?;
    let clusters = name_filter("clusters", &options.clusters, inventory, |vm| {
        vm.cluster.as_deref()
    })?;
    let vcenters = name_filter("vcenters", &options.scope.vcenters, inventory, |vm| {
        vm.vi_sdk_server.as_deref()
    })?;
    let datacenters = name_filter("datacenters", &options.scope.datacenters, inventory, |vm| {
        vm.datacenter.as_deref()
    })?;
    Ok(Filters {
        clusters,
        vcenters,
        datacenters,
    })
}

/// Whether `value` passes a filter: an empty filter passes everything, including unknown.
fn selected(wanted: &[String], value: Option<&str>) -> bool {
    wanted.is_empty() || value.is_some_and(|v| wanted.contains(&normalise_name(v)))
}

impl Filters {
    /// Why `vm` is left out, the first reason that applies, or `None` when it is placed.
    /// `capacity_mib` is its capacity on the basis used; a figure above
    /// [`MAX_VM_CAPACITY_MIB`] adds a warning.
    pub(super) fn exclusion_reason(
        &self,
        vm: &Vm,
        options: &DemandOptions,
        capacity_mib: Option<f64>,
        warnings: &mut Vec<Warning>,
    ) -> Option<ExclusionReason> {
        let sc = &options.scope;
        if vm.template == Some(true) && !sc.include_templates {
            Some(ExclusionReason::Template)
        } else if vm.srm_placeholder == Some(true) && !sc.include_srm_placeholders {
            Some(ExclusionReason::SrmPlaceholder)
        } else if !selected(&self.vcenters, vm.vi_sdk_server.as_deref()) {
            Some(ExclusionReason::FilteredVcenter)
        } else if !selected(&self.datacenters, vm.datacenter.as_deref()) {
            Some(ExclusionReason::FilteredDatacenter)
        } else if !selected(&self.clusters, vm.cluster.as_deref()) {
            Some(ExclusionReason::FilteredCluster)
        } else if options.exclude_powered_off && vm.power_state == PowerState::PoweredOff {
            Some(ExclusionReason::PoweredOff)
        } else if sc.exclude_suspended && vm.power_state == PowerState::Suspended {
            Some(ExclusionReason::Suspended)
        } else if capacity_mib.is_none() {
            Some(ExclusionReason::NoCapacityData)
        } else if capacity_mib.is_some_and(|m| m > MAX_VM_CAPACITY_MIB) {
            warnings.push(Warning::at_row(
                &vm.origin,
                format!(
                    "VM '{}' reports {} MiB, more than any VM can hold: excluded as a data error",
                    crate::numbers::clip(&vm.name),
                    crate::numbers::group_thousands(capacity_mib.unwrap_or(0.0), 0)
                ),
            ));
            Some(ExclusionReason::ImplausibleCapacity)
        } else {
            None
        }
    }
}

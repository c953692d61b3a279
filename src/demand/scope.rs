//! Which VMs are in scope: the options checked, the name filters resolved, and the
//! exclusion reason of each VM (the first that applies).

use std::collections::BTreeSet;

use crate::inventory::{
    Inventory, PowerState, SourceClusters, Vm, Warning, WarningKind, normalise_name,
};

use super::{DemandError, DemandOptions, ExclusionReason, MAX_VM_CAPACITY_MIB};

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
                name: crate::numbers::clip(g),
                known: if known.is_empty() {
                    "(none: the input has no such values)".into()
                } else {
                    let total = known.len();
                    crate::numbers::first_few(known.into_iter().map(crate::numbers::clip), total)
                },
            });
        }
    }
    Ok(wanted)
}

/// The `clusters`, `vcenters` and `datacenters` filters, normalised; empty selects all.
pub(super) struct Filters<'a> {
    /// The inventory's source clusters with their labels.
    clusters: SourceClusters<'a>,
    /// The labels of the clusters `clusters` selects; `None` when it is empty (all).
    selected: Option<BTreeSet<String>>,
    /// Wanted vCenter names.
    vcenters: Vec<String>,
    /// Wanted datacenter names.
    datacenters: Vec<String>,
    /// What resolving the filters has to say (a bare name that selects several clusters).
    pub(super) warnings: Vec<Warning>,
}

/// Checks the options (growth, headroom, reserve, targets, I/O profile) and resolves the
/// name filters against the inventory.
pub(super) fn check_options<'a>(
    inventory: &'a Inventory,
    options: &DemandOptions,
) -> Result<Filters<'a>, DemandError> {
    options.validate()?;
    let clusters = SourceClusters::of(&inventory.vms);
    let mut warnings = Vec::new();
    let selected = cluster_filter(&clusters, &options.clusters, &mut warnings)?;
    let vcenters = name_filter("vcenters", &options.scope.vcenters, inventory, |vm| {
        vm.vi_sdk_server.as_deref()
    })?;
    let datacenters = name_filter("datacenters", &options.scope.datacenters, inventory, |vm| {
        vm.datacenter.as_deref()
    })?;
    Ok(Filters {
        clusters,
        selected,
        vcenters,
        datacenters,
        warnings,
    })
}

/// The labels of the clusters the `clusters` names select ([`SourceClusters::select`]: a
/// label, a bare name, `name (vCenter)` or `name (vCenter/datacenter)`); `None` for no
/// names. A bare name that several clusters share (different vCenters or datacenters)
/// selects them all, with a warning listing their labels: the plan shows each apart, and
/// a label selects one.
///
/// # Errors
/// [`DemandError::UnknownName`] for a name that selects no cluster, listing the labels.
fn cluster_filter(
    clusters: &SourceClusters<'_>,
    names: &[String],
    warnings: &mut Vec<Warning>,
) -> Result<Option<BTreeSet<String>>, DemandError> {
    if names.is_empty() {
        return Ok(None);
    }
    let mut selected = BTreeSet::new();
    for name in names {
        let found = clusters.select(name);
        match found.as_slice() {
            [] => {
                let mut known: Vec<&str> = clusters.iter().map(|(_, l)| l).collect();
                known.sort_unstable();
                return Err(DemandError::UnknownName {
                    option: "clusters",
                    name: crate::numbers::clip(name),
                    known: if known.is_empty() {
                        "(none: the input has no such values)".into()
                    } else {
                        known.join(", ")
                    },
                });
            }
            [_] => {}
            several => warnings.push(Warning::plan_wide(
                WarningKind::Setting,
                format!(
                    "`clusters` '{}' names {} clusters of different vCenters or datacenters: {}; \
                     all are selected (give one as written here to select it alone)",
                    crate::numbers::clip(name),
                    several.len(),
                    several
                        .iter()
                        .map(|l| format!("'{}'", crate::numbers::clip(l)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
        selected.extend(found.into_iter().map(str::to_string));
    }
    Ok(Some(selected))
}

/// Whether `value` passes a filter: an empty filter passes everything, including unknown.
fn selected(wanted: &[String], value: Option<&str>) -> bool {
    wanted.is_empty() || value.is_some_and(|v| wanted.contains(&normalise_name(v)))
}

impl Filters<'_> {
    /// The label of `vm`'s source cluster ([`SourceClusters`]); `None` when it names none.
    pub(super) fn cluster_label(&self, vm: &Vm) -> Option<String> {
        self.clusters.label(vm).map(str::to_string)
    }

    /// Whether `vm` passes the `clusters` filter.
    fn cluster_selected(&self, vm: &Vm) -> bool {
        match &self.selected {
            None => true,
            Some(labels) => self.clusters.label(vm).is_some_and(|l| labels.contains(l)),
        }
    }

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
        } else if !self.cluster_selected(vm) {
            Some(ExclusionReason::FilteredCluster)
        } else if options.exclude_powered_off && vm.power_state == PowerState::PoweredOff {
            Some(ExclusionReason::PoweredOff)
        } else if sc.exclude_suspended && vm.power_state == PowerState::Suspended {
            Some(ExclusionReason::Suspended)
        } else if capacity_mib.is_none() {
            Some(ExclusionReason::NoCapacityData)
        } else if capacity_mib.is_some_and(|m| m > MAX_VM_CAPACITY_MIB) {
            crate::inventory::push_bounded(
                warnings,
                Warning::at_row(
                    WarningKind::Value,
                    &vm.origin,
                    format!(
                        "VM '{}' reports {} MiB, more than any VM can hold: excluded as a data error",
                        crate::numbers::clip(&vm.name),
                        crate::numbers::group_thousands(capacity_mib.unwrap_or(0.0), 0)
                    ),
                ),
            );
            Some(ExclusionReason::ImplausibleCapacity)
        } else {
            None
        }
    }
}

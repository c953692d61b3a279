//! What a setting cannot do for the VMs whose power state, template flag or cluster stays
//! unknown after ingest (no such column or cell in vInfo, vCPU or vMemory): one warning per
//! attribute, naming the settings by their [`PlanOptions`] field.

use crate::inventory::{Inventory, PowerState, Warning};
use crate::sizing::Grouping;

use super::PlanOptions;

/// The warnings for `inventory` under `options` (none when every VM's attributes are
/// known, or when no setting depends on the unknown ones).
pub(super) fn unknown_attribute_warnings(
    inventory: &Inventory,
    options: &PlanOptions,
) -> Vec<Warning> {
    let count = |unknown: fn(&crate::inventory::Vm) -> bool| {
        inventory.vms.iter().filter(|vm| unknown(vm)).count()
    };
    let power = count(|vm| vm.power_state == PowerState::Unknown);
    let template = count(|vm| vm.template.is_none());
    let cluster = count(|vm| vm.cluster.is_none());
    [
        power_warning(power, options),
        template_warning(template, options),
        cluster_warning(cluster, options),
    ]
    .into_iter()
    .flatten()
    .map(Warning::plan_wide)
    .collect()
}

/// `(no Powerstate in vInfo, vCPU or vMemory)`.
fn nowhere(column: &str) -> String {
    format!("(no {column} in vInfo, vCPU or vMemory)")
}

/// The power-state settings that are on cannot exclude VMs of unknown power state.
fn power_warning(n: usize, options: &PlanOptions) -> Option<String> {
    let on: Vec<&str> = [
        ("`exclude_powered_off`", options.exclude_powered_off),
        ("`exclude_suspended`", options.exclude_suspended),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    (n > 0 && !on.is_empty()).then(|| {
        format!(
            "{} cannot exclude the {n} VM(s) whose power state is unknown {}: they are \
             planned as if powered on",
            on.join(" and "),
            nowhere("Powerstate")
        )
    })
}

/// Templates are left out unless `include_templates`; VMs of unknown flag cannot be.
fn template_warning(n: usize, options: &PlanOptions) -> Option<String> {
    (n > 0 && !options.include_templates).then(|| {
        format!(
            "`include_templates` is off, but the {n} VM(s) whose template flag is unknown {} \
             cannot be told from templates: they are planned",
            nowhere("Template")
        )
    })
}

/// What the cluster settings do with VMs of unknown cluster.
fn cluster_warning(n: usize, options: &PlanOptions) -> Option<String> {
    if n == 0 {
        return None;
    }
    let what = if !options.clusters.is_empty() {
        "`clusters` leaves them out"
    } else if options.per_cluster {
        "`per_cluster` cannot plan them in a cluster: they are not planned"
    } else if options.hosts.is_none() && options.group == Grouping::SourceCluster {
        "`group` by source cluster puts them in one group of their own"
    } else {
        return None;
    };
    Some(format!(
        "{n} VM(s) have no known cluster {}: {what}",
        nowhere("Cluster")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Origin, Vm};

    #[test]
    fn one_warning_per_attribute_naming_the_settings_that_are_on() {
        // 3 VMs: a (all known), b and c (power state, template and cluster unknown).
        let mut a = Vm::new("a", Origin::default());
        a.power_state = PowerState::PoweredOn;
        a.template = Some(false);
        a.cluster = Some("c1".into());
        let inventory = Inventory {
            vms: vec![
                a,
                Vm::new("b", Origin::default()),
                Vm::new("c", Origin::default()),
            ],
            ..Inventory::default()
        };
        let options = PlanOptions {
            exclude_powered_off: true,
            ..PlanOptions::default()
        };
        let messages: Vec<String> = unknown_attribute_warnings(&inventory, &options)
            .into_iter()
            .map(|w| w.message)
            .collect();
        assert_eq!(
            messages,
            [
                "`exclude_powered_off` cannot exclude the 2 VM(s) whose power state is unknown \
                 (no Powerstate in vInfo, vCPU or vMemory): they are planned as if powered on",
                "`include_templates` is off, but the 2 VM(s) whose template flag is unknown (no \
                 Template in vInfo, vCPU or vMemory) cannot be told from templates: they are \
                 planned",
                "2 VM(s) have no known cluster (no Cluster in vInfo, vCPU or vMemory): `group` \
                 by source cluster puts them in one group of their own",
            ]
        );
        // Templates included, one cluster's plan, power filters off: nothing to say.
        let quiet = PlanOptions {
            include_templates: true,
            hosts: Some(3),
            ..PlanOptions::default()
        };
        assert!(unknown_attribute_warnings(&inventory, &quiet).is_empty());
    }
}

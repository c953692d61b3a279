//! What a setting cannot do for the VMs whose power state, template flag or cluster stays
//! unknown after ingest (no such column or cell in vInfo, vCPU or vMemory): one warning per
//! attribute, naming the settings by their [`PlanOptions`] field, and saying whether the
//! column exists nowhere or only their cells (or rows) are missing.

use crate::inventory::{Inventory, PowerState, RVTOOLS_WORDS, Warning, WarningKind};
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
    let (power_kind, power_why) = missing(inventory, "Powerstate");
    let (template_kind, template_why) = missing(inventory, "Template");
    let (cluster_kind, cluster_why) = missing(inventory, "Cluster");
    [
        (power_warning(power, options, &power_why), power_kind),
        (
            template_warning(template, options, &template_why),
            template_kind,
        ),
        (
            cluster_warning(cluster, options, &cluster_why),
            cluster_kind,
        ),
    ]
    .into_iter()
    .filter_map(|(m, kind)| m.map(|m| Warning::plan_wide(kind, m)))
    .collect()
}

/// Why a VM's `column` is unknown: `(no Powerstate in vInfo, vCPU or vMemory)` when no
/// input's vInfo, vCPU or vMemory tab has the column; otherwise their cells are empty or
/// unreadable, or they have no row in the tabs that have it.
///
/// A Live Optics input is named in its own words (`VMs`, and its column's spelling). The
/// kind beside it: [`WarningKind::Layout`] when no input has the column (the inputs'
/// shape), else [`WarningKind::Value`] (their cells).
fn missing(inventory: &Inventory, column: &str) -> (WarningKind, String) {
    let somewhere = inventory.sources.iter().any(|s| {
        [&s.vinfo_headers, &s.vcpu_headers, &s.vmemory_headers]
            .iter()
            .any(|h| h.contains_key(column))
    });
    let kind = if somewhere {
        WarningKind::Value
    } else {
        WarningKind::Layout
    };
    (kind, missing_words(inventory, column, somewhere))
}

/// [`missing`]'s words: whether `column` is `somewhere` in the inputs, in their words.
fn missing_words(inventory: &Inventory, column: &str, somewhere: bool) -> String {
    let words = inventory.sheet_words();
    if words.vms == RVTOOLS_WORDS.vms {
        if somewhere {
            format!(
                "({column} empty or unreadable in their vInfo, vCPU and vMemory rows, or no \
                 such row)"
            )
        } else {
            format!("(no {column} in vInfo, vCPU or vMemory)")
        }
    } else {
        let column = live_optics_column(column);
        let sheets = words.vm_attributes;
        if somewhere {
            format!("({column} empty or unreadable in their {sheets} rows)")
        } else {
            format!("(no {column} in {sheets})")
        }
    }
}

/// A Live Optics `VMs` sheet's name for the RVTools column `column`.
fn live_optics_column(column: &str) -> &str {
    match column {
        "Powerstate" => "Power State",
        other => other,
    }
}

/// The power-state settings that are on cannot exclude VMs of unknown power state.
fn power_warning(n: usize, options: &PlanOptions, why: &str) -> Option<String> {
    let on: Vec<&str> = [
        ("`exclude_powered_off`", options.exclude_powered_off),
        ("`exclude_suspended`", options.exclude_suspended),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    (n > 0 && !on.is_empty()).then(|| {
        format!(
            "{} cannot exclude the {n} VM(s) whose power state is unknown {why}: they are \
             planned as if powered on",
            on.join(" and "),
        )
    })
}

/// Templates are left out unless `include_templates`; VMs of unknown flag cannot be.
fn template_warning(n: usize, options: &PlanOptions, why: &str) -> Option<String> {
    (n > 0 && !options.include_templates).then(|| {
        format!(
            "`include_templates` is off, but the {n} VM(s) whose template flag is unknown \
             {why} cannot be told from templates: they are planned"
        )
    })
}

/// What the cluster settings do with VMs of unknown cluster.
fn cluster_warning(n: usize, options: &PlanOptions, why: &str) -> Option<String> {
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
    Some(format!("{n} VM(s) have no known cluster {why}: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Origin, Vm};

    fn messages(inventory: &Inventory, options: &PlanOptions) -> Vec<String> {
        unknown_attribute_warnings(inventory, options)
            .into_iter()
            .map(|w| w.message)
            .collect()
    }

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
        let messages = messages(&inventory, &options);
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

    #[test]
    fn a_column_some_tab_has_is_not_said_to_be_missing() {
        // vCPU has Powerstate, but VM b has no vCPU row (or an empty cell): its power state
        // is unknown, and the warning must not claim no tab has the column.
        let mut inventory = Inventory {
            vms: vec![Vm::new("b", Origin::default())],
            ..Inventory::default()
        };
        inventory.sources.push(crate::inventory::Source {
            file: "x.xlsx".into(),
            format: "xlsx".into(),
            tabs: vec!["vInfo".into(), "vCPU".into()],
            rvtools_major_version: None,
            rvtools_version: None,
            created: None,
            server: None,
            vinfo_headers: Default::default(),
            vdatastore_headers: Default::default(),
            vcpu_headers: [("Powerstate".to_string(), "Powerstate".to_string())].into(),
            vmemory_headers: Default::default(),
            from_bytes: false,
        });
        let options = PlanOptions {
            exclude_powered_off: true,
            include_templates: true,
            hosts: Some(3),
            ..PlanOptions::default()
        };
        let messages = messages(&inventory, &options);
        assert_eq!(
            messages,
            [
                "`exclude_powered_off` cannot exclude the 1 VM(s) whose power state is unknown \
              (Powerstate empty or unreadable in their vInfo, vCPU and vMemory rows, or no \
              such row): they are planned as if powered on"
            ]
        );
    }
}

//! The vInfo tab: one VM per row.

use crate::ingest::table::{FieldSpec, Row};
use crate::inventory::{Origin, PowerState, Vm};

pub(crate) const VM: usize = 0;
pub(crate) const POWERSTATE: usize = 1;
pub(crate) const TEMPLATE: usize = 2;
pub(crate) const CLUSTER: usize = 3;
pub(crate) const HOST: usize = 4;
pub(crate) const PROVISIONED: usize = 5;
pub(crate) const IN_USE: usize = 6;

/// The vInfo columns the inventory reads, in slot order (see the constants above).
pub(crate) const FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM", &["VM", "vInfoVMName", "VM Name"]),
    FieldSpec::text(
        "Powerstate",
        &["Powerstate", "vInfoPowerstate", "Power State"],
    ),
    FieldSpec::text("Template", &["Template", "vInfoTemplate"]),
    FieldSpec::text("Cluster", &["Cluster", "vInfoCluster"]),
    FieldSpec::text("Host", &["Host", "vInfoHost"]),
    FieldSpec::number(
        "Provisioned MiB",
        &["Provisioned MiB", "Provisioned MB", "vInfoProvisioned"],
    ),
    FieldSpec::number("In Use MiB", &["In Use MiB", "In Use MB", "vInfoInUse"]),
];

/// Turns a vInfo row into a VM; `None` (with a warning when the row holds other values)
/// for a row without a VM name.
pub(crate) fn vm_from_row(row: &mut Row<'_, '_>) -> Option<Vm> {
    let Some(name) = row.text(VM) else {
        if row.any_other_value(VM) {
            row.warn_row("row has values but no VM name; skipped (not a VM)".to_string());
        }
        return None;
    };
    let power_state = power_state(row);
    let template = row.boolean(TEMPLATE);
    let provisioned_mib = row.size_mib(PROVISIONED);
    let in_use_mib = row.size_mib(IN_USE);
    Some(Vm {
        name,
        power_state,
        template,
        cluster: row.text(CLUSTER),
        host: row.text(HOST),
        provisioned_mib,
        in_use_mib,
        origin: Origin {
            file: row.file.to_string(),
            sheet: row.sheet.to_string(),
            row: row.row,
        },
    })
}

fn power_state(row: &mut Row<'_, '_>) -> PowerState {
    if row.is_empty(POWERSTATE) {
        return PowerState::Unknown;
    }
    let text = row.text(POWERSTATE).unwrap_or_default();
    if text.eq_ignore_ascii_case("poweredOn") {
        PowerState::PoweredOn
    } else if text.eq_ignore_ascii_case("poweredOff") {
        PowerState::PoweredOff
    } else if text.eq_ignore_ascii_case("suspended") {
        PowerState::Suspended
    } else {
        row.warn(
            POWERSTATE,
            "expected poweredOn, poweredOff or suspended; power state treated as unknown"
                .to_string(),
        );
        PowerState::Unknown
    }
}

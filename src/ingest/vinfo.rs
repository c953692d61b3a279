//! The vInfo tab: one VM per row.

use std::sync::Arc;

use crate::ingest::table::{FieldSpec, Row};
use crate::ingest::tabs::datastore_of_path;
use crate::inventory::{PowerState, Vm, WarningKind};

pub(crate) const VM: usize = 0;
pub(crate) const POWERSTATE: usize = 1;
pub(crate) const TEMPLATE: usize = 2;
pub(crate) const CLUSTER: usize = 3;
pub(crate) const HOST: usize = 4;
pub(crate) const PROVISIONED: usize = 5;
pub(crate) const IN_USE: usize = 6;
pub(crate) const UNSHARED: usize = 7;
pub(crate) const SRM_PLACEHOLDER: usize = 8;
pub(crate) const CPUS: usize = 9;
pub(crate) const MEMORY: usize = 10;
pub(crate) const DATACENTER: usize = 11;
pub(crate) const PATH: usize = 12;
pub(crate) const SERVER: usize = 13;
pub(crate) const VM_ID: usize = 14;
pub(crate) const VM_UUID: usize = 15;
pub(crate) const SDK_UUID: usize = 16;

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
    FieldSpec::number(
        "Unshared MiB",
        &["Unshared MiB", "Unshared MB", "vInfoUnshared"],
    ),
    FieldSpec::text(
        "SRM Placeholder",
        &["SRM Placeholder", "vInfoSRMPlaceHolder"],
    ),
    FieldSpec::number("CPUs", &["CPUs", "vInfoCPUs"]),
    FieldSpec::number("Memory", &["Memory", "vInfoMemory"]),
    FieldSpec::text("Datacenter", &["Datacenter", "vInfoDataCenter"]),
    FieldSpec::text("Path", &["Path", "vInfoPath"]),
    FieldSpec::text("VI SDK Server", &["VI SDK Server", "vInfoVISDKServer"]),
    FieldSpec::text("VM ID", &["VM ID", "vInfoVMID", "vInfoObjectID"]),
    FieldSpec::text("VM UUID", &["VM UUID", "vInfoUUID"]),
    FieldSpec::text(
        "VI SDK UUID",
        &["VI SDK UUID", "vInfoVISDKUUID", "vCenter UUID"],
    ),
];

/// Most vCPUs of one VM: 768, the vSphere 8.0 configuration maximum ("Virtual CPUs per
/// virtual machine", configmax.broadcom.com, vSphere 8.0).
pub(crate) const MAX_VCPUS_PER_VM: u64 = 768;

/// A VM's vCPU count at `slot` (vInfo `CPUs`, Live Optics `Virtual CPU`): one rule for
/// every input. 0 (a VM has at least one vCPU) and a count above [`MAX_VCPUS_PER_VM`] (a
/// 1e15 would size thousands of hosts) are a warning and unknown.
pub(crate) fn vcpus(row: &mut Row<'_, '_>, slot: usize) -> Option<u64> {
    let n = row.count(slot)?;
    if n == 0 {
        row.warn(
            WarningKind::Value,
            slot,
            "0 vCPUs, but a VM has at least one; treated as unknown".to_string(),
        );
        return None;
    }
    if n > MAX_VCPUS_PER_VM {
        row.warn(
            WarningKind::Value,
            slot,
            format!(
                "more than {MAX_VCPUS_PER_VM} vCPUs, the most a VM has in vSphere 8 \
                 (configuration maximums); treated as unknown"
            ),
        );
        return None;
    }
    Some(n)
}

/// A VM's configured memory at `slot`, MiB (vInfo `Memory`, Live Optics `Provisioned
/// Memory`): 0 (a VM has memory to run) is a warning and unknown, as a negative figure is.
pub(crate) fn memory_mib(row: &mut Row<'_, '_>, slot: usize) -> Option<f64> {
    let mib = row.non_negative(slot)?;
    if mib == 0.0 {
        row.warn(
            WarningKind::Value,
            slot,
            "0 MiB of memory, but a VM has memory to run; treated as unknown".to_string(),
        );
        return None;
    }
    Some(mib)
}

/// Turns a vInfo row into a VM; `None` (with a warning when the row holds other values)
/// for a row without a VM name.
pub(crate) fn vm_from_row(row: &mut Row<'_, '_>) -> Option<Vm> {
    let name = row.name(VM, "VM")?;
    let power_state = power_state(row, POWERSTATE);
    let template = row.boolean(TEMPLATE);
    let provisioned_mib = row.non_negative(PROVISIONED);
    let in_use_mib = row.non_negative(IN_USE);
    let path = row.long_text(PATH);
    Some(Vm {
        name,
        power_state,
        template,
        cluster: row.text(CLUSTER).map(Arc::from),
        host: row.text(HOST).map(Arc::from),
        provisioned_mib,
        in_use_mib,
        origin: row.origin(),
        unshared_mib: row.non_negative(UNSHARED),
        srm_placeholder: row.boolean(SRM_PLACEHOLDER),
        cpus: vcpus(row, CPUS),
        memory_mib: memory_mib(row, MEMORY),
        // vMemory's `Consumed` is joined after every tab is read.
        memory_consumed_mib: None,
        datacenter: row.text(DATACENTER).map(Arc::from),
        home_datastore: path.as_deref().and_then(datastore_of_path).map(Arc::from),
        path,
        vi_sdk_server: row.text(SERVER).map(Arc::from),
        vm_id: row.text(VM_ID),
        vm_uuid: row.text(VM_UUID),
        vi_sdk_uuid: row.text(SDK_UUID).map(Arc::from),
        key_number: None,
    })
}

/// The power state in `slot` (`poweredOn`, `poweredOff`, `suspended`, any case); an other
/// value is unknown, with a warning.
pub(crate) fn power_state(row: &mut Row<'_, '_>, slot: usize) -> PowerState {
    if row.is_empty(slot) {
        return PowerState::Unknown;
    }
    let text = row.text(slot).unwrap_or_default();
    if text.eq_ignore_ascii_case("poweredOn") {
        PowerState::PoweredOn
    } else if text.eq_ignore_ascii_case("poweredOff") {
        PowerState::PoweredOff
    } else if text.eq_ignore_ascii_case("suspended") {
        PowerState::Suspended
    } else {
        row.warn(
            WarningKind::Value,
            slot,
            "expected poweredOn, poweredOff or suspended; power state treated as unknown"
                .to_string(),
        );
        PowerState::Unknown
    }
}

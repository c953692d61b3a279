//! The tabs besides vInfo: vDisk, vPartition, vHost, vCluster, vDatastore, vSnapshot and
//! vMetaData. Each has its field list (slot order = the constants) and a row reader.

use crate::ingest::table::{FieldSpec, Row};
use crate::inventory::{Cluster, Datastore, Host, Origin, Partition, Snapshot, VirtualDisk, VmKey};

fn origin(row: &Row<'_, '_>) -> Origin {
    Origin {
        file: row.file.to_string(),
        sheet: row.sheet.to_string(),
        row: row.row,
    }
}

/// The datastore of a `[datastore] folder/file` path; `None` without the brackets.
pub(crate) fn datastore_of_path(path: &str) -> Option<String> {
    let rest = path.trim().strip_prefix('[')?;
    let end = rest.find(']')?;
    let name = rest[..end].trim();
    if name.is_empty() {
        None
    } else {
        Some(name.to_string())
    }
}

// Child-row key columns, shared by vDisk, vPartition and vSnapshot.
const VM_ID: &[&str] = &["VM ID", "vDiskVMID", "vPartitionVMID", "vSnapshotVMID"];
const VM_UUID: &[&str] = &["VM UUID", "vDiskUUID", "vPartitionUUID", "vSnapshotUUID"];
const SERVER: &[&str] = &[
    "VI SDK Server",
    "vDiskVISDKServer",
    "vPartitionVISDKServer",
    "vSnapshotVISDKServer",
    "vHostVISDKServer",
    "vClusterVISDKServer",
    "vDatastoreVISDKServer",
];

fn child_key(row: &Row<'_, '_>, name: &str, server: usize, id: usize, uuid: usize) -> VmKey {
    VmKey::new(
        row.text_ref(server).as_deref(),
        row.text_ref(id).as_deref(),
        row.text_ref(uuid).as_deref(),
        name,
    )
}

/// vDisk columns.
pub(crate) const DISK_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM", &["VM", "vDiskVMName", "VM Name"]),
    FieldSpec::text("Disk", &["Disk", "vDiskName", "vDiskDisk"]),
    FieldSpec::text("Disk Key", &["Disk Key", "vDiskKey", "vDiskDiskKey"]),
    FieldSpec::number(
        "Capacity MiB",
        &[
            "Capacity MiB",
            "Capacity MB",
            "vDiskCapacityMiB",
            "vDiskCapacity",
        ],
    ),
    FieldSpec::text("Raw", &["Raw", "vDiskRaw"]),
    FieldSpec::text("Thin", &["Thin", "vDiskThin"]),
    FieldSpec::text("Disk Mode", &["Disk Mode", "vDiskDiskMode", "vDiskMode"]),
    FieldSpec::text("Path", &["Path", "vDiskPath"]),
    FieldSpec::text("Controller", &["Controller", "vDiskController"]),
    FieldSpec::text("VI SDK Server", SERVER),
    FieldSpec::text("VM ID", VM_ID),
    FieldSpec::text("VM UUID", VM_UUID),
];

/// A vDisk row.
pub(crate) fn disk_from_row(row: &mut Row<'_, '_>) -> Option<VirtualDisk> {
    let vm = row.name(0, "VM")?;
    let vm_key = child_key(row, &vm, 9, 10, 11);
    let path = row.text(7);
    Some(VirtualDisk {
        vm_key,
        disk: row.text(1),
        disk_key: row.text(2),
        capacity_mib: row.non_negative(3),
        raw: row.boolean(4),
        thin: row.boolean(5),
        disk_mode: row.text(6),
        datastore: path.as_deref().and_then(datastore_of_path),
        path,
        controller: row.text(8),
        origin: origin(row),
        vm,
    })
}

/// vPartition columns.
pub(crate) const PARTITION_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM", &["VM", "vPartitionVMName", "VM Name"]),
    FieldSpec::text("Disk", &["Disk", "vPartitionDisk"]),
    FieldSpec::text("Disk Key", &["Disk Key", "vPartitionDiskKey"]),
    FieldSpec::number(
        "Capacity MiB",
        &[
            "Capacity MiB",
            "Capacity MB",
            "vPartitionCapacityMiB",
            "vPartitionCapacity",
        ],
    ),
    FieldSpec::number(
        "Consumed MiB",
        &[
            "Consumed MiB",
            "Consumed MB",
            "vPartitionConsumedMiB",
            "vPartitionConsumed",
        ],
    ),
    FieldSpec::number(
        "Free MiB",
        &["Free MiB", "Free MB", "vPartitionFreeMiB", "vPartitionFree"],
    ),
    FieldSpec::text("VI SDK Server", SERVER),
    FieldSpec::text("VM ID", VM_ID),
    FieldSpec::text("VM UUID", VM_UUID),
];

/// A vPartition row.
pub(crate) fn partition_from_row(row: &mut Row<'_, '_>) -> Option<Partition> {
    let vm = row.name(0, "VM")?;
    let vm_key = child_key(row, &vm, 6, 7, 8);
    Some(Partition {
        vm_key,
        disk: row.text(1),
        disk_key: row.text(2),
        capacity_mib: row.non_negative(3),
        consumed_mib: row.non_negative(4),
        free_mib: row.non_negative(5),
        origin: origin(row),
        vm,
    })
}

/// vHost columns.
pub(crate) const HOST_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("Host", &["Host", "vHostName", "Name"]),
    FieldSpec::text("Datacenter", &["Datacenter", "vHostDatacenter"]),
    FieldSpec::text("Cluster", &["Cluster", "vHostCluster"]),
    FieldSpec::number("# CPU", &["# CPU", "vHostNumCpu"]),
    FieldSpec::number("# Cores", &["# Cores", "vHostNumCpuCores"]),
    FieldSpec::number("# Memory", &["# Memory", "vHostMemorySize"]),
    FieldSpec::number("# VMs", &["# VMs", "vHostVMs"]),
    FieldSpec::number("# VMs total", &["# VMs total", "vHostVMsTotal"]),
    FieldSpec::text("ESX Version", &["ESX Version", "vHostFullName"]),
    FieldSpec::text("VI SDK Server", SERVER),
];

/// A vHost row.
pub(crate) fn host_from_row(row: &mut Row<'_, '_>) -> Option<Host> {
    let name = row.name(0, "host")?;
    Some(Host {
        name,
        datacenter: row.text(1),
        cluster: row.text(2),
        cpu_sockets: row.count(3),
        cpu_cores: row.count(4),
        memory_mib: row.non_negative(5),
        vms_running: row.count(6),
        vms_total: row.count(7),
        esx_version: row.text(8),
        vi_sdk_server: row.text(9),
        origin: origin(row),
    })
}

/// vCluster columns.
pub(crate) const CLUSTER_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("Name", &["Name", "Cluster", "vClusterName"]),
    FieldSpec::number("NumHosts", &["NumHosts", "vClusterNumHosts"]),
    FieldSpec::number(
        "numEffectiveHosts",
        &["numEffectiveHosts", "vClusterNumEffectiveHosts"],
    ),
    FieldSpec::number("TotalCpu", &["TotalCpu", "vClusterTotalCpu"]),
    FieldSpec::number("NumCpuCores", &["NumCpuCores", "vClusterNumCpuCores"]),
    FieldSpec::number("TotalMemory", &["TotalMemory", "vClusterTotalMemory"]),
    FieldSpec::text("VI SDK Server", SERVER),
];

/// A vCluster row.
pub(crate) fn cluster_from_row(row: &mut Row<'_, '_>) -> Option<Cluster> {
    let name = row.name(0, "cluster")?;
    Some(Cluster {
        name,
        num_hosts: row.count(1),
        num_effective_hosts: row.count(2),
        total_cpu_mhz: row.non_negative(3),
        num_cpu_cores: row.count(4),
        total_memory_mib: row.non_negative(5),
        vi_sdk_server: row.text(6),
        origin: origin(row),
    })
}

/// vDatastore columns.
pub(crate) const DATASTORE_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("Name", &["Name", "vDatastoreName", "Datastore"]),
    FieldSpec::text("Type", &["Type", "vDatastoreType"]),
    FieldSpec::number(
        "Capacity MiB",
        &["Capacity MiB", "Capacity MB", "vDatastoreCapacity"],
    ),
    FieldSpec::number(
        "Provisioned MiB",
        &["Provisioned MiB", "Provisioned MB", "vDatastoreProvisioned"],
    ),
    FieldSpec::number(
        "In Use MiB",
        &["In Use MiB", "In Use MB", "vDatastoreInUse"],
    ),
    FieldSpec::number(
        "Free MiB",
        &[
            "Free MiB",
            "Free MB",
            "Free space MiB",
            "vDatastoreFreeSpace",
        ],
    ),
    FieldSpec::number("# Hosts", &["# Hosts", "vDatastoreNumHosts"]),
    FieldSpec::text("Hosts", &["Hosts", "vDatastoreHosts"]),
    FieldSpec::text(
        "Cluster name",
        &["Cluster name", "Datastore Cluster", "vDatastoreCluster"],
    ),
    FieldSpec::text("Address", &["Address", "vDatastoreAddress"]),
    FieldSpec::text("URL", &["URL", "vDatastoreURL"]),
    FieldSpec::text("VI SDK Server", SERVER),
];

/// A vDatastore row.
pub(crate) fn datastore_from_row(row: &mut Row<'_, '_>) -> Option<Datastore> {
    let name = row.name(0, "datastore")?;
    let hosts = row
        .text(7)
        .map(|h| {
            h.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Some(Datastore {
        name,
        datastore_type: row.text(1),
        capacity_mib: row.non_negative(2),
        provisioned_mib: row.non_negative(3),
        in_use_mib: row.non_negative(4),
        free_mib: row.non_negative(5),
        num_hosts: row.count(6),
        hosts,
        datastore_cluster: row.text(8),
        address: row.text(9),
        url: row.text(10),
        vi_sdk_server: row.text(11),
        origin: origin(row),
    })
}

/// vSnapshot columns.
pub(crate) const SNAPSHOT_FIELDS: &[FieldSpec] = &[
    FieldSpec::required("VM", &["VM", "vSnapshotVMName", "VM Name"]),
    FieldSpec::text("Name", &["Name", "Snapshot", "vSnapshotName"]),
    FieldSpec::text("Date / time", &["Date / time", "vSnapshotDateTime"]),
    FieldSpec::number(
        "Size MiB (vmsn)",
        &["Size MiB (vmsn)", "Size MB (vmsn)", "vSnapshotSizeVmsn"],
    ),
    FieldSpec::number(
        "Size MiB (total)",
        &["Size MiB (total)", "Size MB (total)", "vSnapshotSizeTotal"],
    ),
    FieldSpec::text("VI SDK Server", SERVER),
    FieldSpec::text("VM ID", VM_ID),
    FieldSpec::text("VM UUID", VM_UUID),
];

/// A vSnapshot row.
pub(crate) fn snapshot_from_row(row: &mut Row<'_, '_>) -> Option<Snapshot> {
    let vm = row.name(0, "VM")?;
    let vm_key = child_key(row, &vm, 5, 6, 7);
    Some(Snapshot {
        vm_key,
        name: row.text(1),
        date: row.text(2),
        size_vmsn_mib: row.non_negative(3),
        size_total_mib: row.non_negative(4),
        origin: origin(row),
        vm,
    })
}

/// vMetaData columns.
pub(crate) const METADATA_FIELDS: &[FieldSpec] = &[
    FieldSpec::text("RVTools major version", &["RVTools major version"]),
    FieldSpec::text("RVTools version", &["RVTools version"]),
    FieldSpec::text("xlsx creation datetime", &["xlsx creation datetime"]),
    FieldSpec::text("Server", &["Server"]),
];

/// The facts of one vMetaData row.
pub(crate) struct Metadata {
    /// `RVTools major version`.
    pub major_version: Option<String>,
    /// `RVTools version`.
    pub version: Option<String>,
    /// `xlsx creation datetime`, as written.
    pub created: Option<String>,
    /// `Server`.
    pub server: Option<String>,
}

/// A vMetaData row.
pub(crate) fn metadata_from_row(row: &mut Row<'_, '_>) -> Option<Metadata> {
    Some(Metadata {
        major_version: row.text(0),
        version: row.text(1),
        created: row.text(2),
        server: row.text(3),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datastore_paths() {
        assert_eq!(
            datastore_of_path("[vmContainer1] a/a.vmdk").as_deref(),
            Some("vmContainer1")
        );
        assert_eq!(
            datastore_of_path(" [vsanDatastore] 5a7b-11/x.vmdk").as_deref(),
            Some("vsanDatastore")
        );
        assert_eq!(datastore_of_path("[] x.vmdk"), None);
        assert_eq!(datastore_of_path("x.vmdk"), None);
        assert_eq!(datastore_of_path("[unclosed x.vmdk"), None);
    }
}

//! The tabs besides vInfo: vDisk, vPartition, vHost, vCluster, vDatastore, vSnapshot and
//! vMetaData (vCPU and vMemory: see `vmrows.rs`). Each has its field list (slot order = the
//! constants) and a row reader.

use std::sync::Arc;

use crate::ingest::tab_match::RowKey;
use crate::ingest::table::{FieldSpec, Row};
use crate::inventory::{Cluster, Datastore, Host, Partition, Snapshot, VirtualDisk};

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

// Child-row key columns, shared by vDisk, vPartition, vSnapshot and vMemory.
pub(crate) const VM_ID: &[&str] = &[
    "VM ID",
    "vDiskVMID",
    "vPartitionVMID",
    "vSnapshotVMID",
    "vMemoryVMID",
    "vCPUVMID",
];
pub(crate) const VM_UUID: &[&str] = &[
    "VM UUID",
    "vDiskUUID",
    "vPartitionUUID",
    "vSnapshotUUID",
    "vMemoryUUID",
    "vCPUUUID",
];
pub(crate) const SERVER: &[&str] = &[
    "VI SDK Server",
    "vDiskVISDKServer",
    "vPartitionVISDKServer",
    "vSnapshotVISDKServer",
    "vMemoryVISDKServer",
    "vCPUVISDKServer",
    "vHostVISDKServer",
    "vClusterVISDKServer",
    "vDatastoreVISDKServer",
];

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

/// A vDisk row with its key cells (its `vm_key` is the row's own until the join).
pub(crate) fn disk_from_row(row: &mut Row<'_, '_>) -> Option<(RowKey, VirtualDisk)> {
    let vm = row.name(col_disk::VM, "VM")?;
    let key = RowKey::read(row, col_disk::SERVER, col_disk::VM_ID, col_disk::VM_UUID);
    let path = row.long_text(col_disk::PATH);
    let disk = VirtualDisk {
        vm_key: key.vm_key(&vm),
        disk: row.text(col_disk::DISK),
        disk_key: row.text(col_disk::DISK_KEY),
        capacity_mib: row.non_negative(col_disk::CAPACITY),
        raw: row.boolean(col_disk::RAW),
        thin: row.boolean(col_disk::THIN),
        disk_mode: row.text(col_disk::DISK_MODE).map(Arc::from),
        datastore: path.as_deref().and_then(datastore_of_path).map(Arc::from),
        path,
        controller: row.text(col_disk::CONTROLLER).map(Arc::from),
        origin: row.origin(),
        vm,
    };
    Some((key, disk))
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

/// A vPartition row with its key cells (its `vm_key` is the row's own until the join).
pub(crate) fn partition_from_row(row: &mut Row<'_, '_>) -> Option<(RowKey, Partition)> {
    let vm = row.name(col_partition::VM, "VM")?;
    let key = RowKey::read(
        row,
        col_partition::SERVER,
        col_partition::VM_ID,
        col_partition::VM_UUID,
    );
    let partition = Partition {
        vm_key: key.vm_key(&vm),
        disk: row.text(col_partition::DISK),
        disk_key: row.text(col_partition::DISK_KEY),
        capacity_mib: row.non_negative(col_partition::CAPACITY),
        consumed_mib: row.non_negative(col_partition::CONSUMED),
        free_mib: row.non_negative(col_partition::FREE),
        origin: row.origin(),
        vm,
    };
    Some((key, partition))
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
    let name = row.name(col_host::NAME, "host")?;
    Some(Host {
        name,
        datacenter: row.text(col_host::DATACENTER),
        cluster: row.text(col_host::CLUSTER),
        cpu_sockets: row.count(col_host::CPU),
        cpu_cores: row.count(col_host::CORES),
        memory_mib: row.non_negative(col_host::MEMORY),
        vms_running: row.count(col_host::VMS),
        vms_total: row.count(col_host::VMS_TOTAL),
        esx_version: row.text(col_host::ESX_VERSION),
        vi_sdk_server: row.text(col_host::SERVER),
        origin: row.origin(),
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
    let name = row.name(col_cluster::NAME, "cluster")?;
    Some(Cluster {
        name,
        num_hosts: row.count(col_cluster::NUM_HOSTS),
        num_effective_hosts: row.count(col_cluster::NUM_EFFECTIVE_HOSTS),
        total_cpu_mhz: row.non_negative(col_cluster::TOTAL_CPU),
        num_cpu_cores: row.count(col_cluster::NUM_CPU_CORES),
        total_memory_mib: row.non_negative(col_cluster::TOTAL_MEMORY),
        vi_sdk_server: row.text(col_cluster::SERVER),
        origin: row.origin(),
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
    let name = row.name(col_datastore::NAME, "datastore")?;
    let hosts = row
        .long_text(col_datastore::HOSTS)
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
        datastore_type: row.text(col_datastore::TYPE),
        capacity_mib: row.non_negative(col_datastore::CAPACITY),
        provisioned_mib: row.non_negative(col_datastore::PROVISIONED),
        in_use_mib: row.non_negative(col_datastore::IN_USE),
        free_mib: row.non_negative(col_datastore::FREE),
        num_hosts: row.count(col_datastore::NUM_HOSTS),
        hosts,
        datastore_cluster: row.text(col_datastore::DATASTORE_CLUSTER),
        address: row.long_text(col_datastore::ADDRESS),
        url: row.long_text(col_datastore::URL),
        vi_sdk_server: row.text(col_datastore::SERVER),
        origin: row.origin(),
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

/// A vSnapshot row with its key cells (its `vm_key` is the row's own until the join).
pub(crate) fn snapshot_from_row(row: &mut Row<'_, '_>) -> Option<(RowKey, Snapshot)> {
    let vm = row.name(col_snapshot::VM, "VM")?;
    let key = RowKey::read(
        row,
        col_snapshot::SERVER,
        col_snapshot::VM_ID,
        col_snapshot::VM_UUID,
    );
    let snapshot = Snapshot {
        vm_key: key.vm_key(&vm),
        name: row.text(col_snapshot::NAME),
        date: row.text(col_snapshot::DATE),
        size_vmsn_mib: row.non_negative(col_snapshot::SIZE_VMSN),
        size_total_mib: row.non_negative(col_snapshot::SIZE_TOTAL),
        origin: row.origin(),
        vm,
    };
    Some((key, snapshot))
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
        major_version: row.text(col_metadata::MAJOR_VERSION),
        version: row.text(col_metadata::VERSION),
        created: row.text(col_metadata::CREATED),
        server: row.text(col_metadata::SERVER),
    })
}

/// Slots of [`DISK_FIELDS`].
mod col_disk {
    pub const VM: usize = 0;
    pub const DISK: usize = 1;
    pub const DISK_KEY: usize = 2;
    pub const CAPACITY: usize = 3;
    pub const RAW: usize = 4;
    pub const THIN: usize = 5;
    pub const DISK_MODE: usize = 6;
    pub const PATH: usize = 7;
    pub const CONTROLLER: usize = 8;
    pub const SERVER: usize = 9;
    pub const VM_ID: usize = 10;
    pub const VM_UUID: usize = 11;
}

/// Slots of [`PARTITION_FIELDS`].
mod col_partition {
    pub const VM: usize = 0;
    pub const DISK: usize = 1;
    pub const DISK_KEY: usize = 2;
    pub const CAPACITY: usize = 3;
    pub const CONSUMED: usize = 4;
    pub const FREE: usize = 5;
    pub const SERVER: usize = 6;
    pub const VM_ID: usize = 7;
    pub const VM_UUID: usize = 8;
}

/// Slots of [`HOST_FIELDS`].
mod col_host {
    pub const NAME: usize = 0;
    pub const DATACENTER: usize = 1;
    pub const CLUSTER: usize = 2;
    pub const CPU: usize = 3;
    pub const CORES: usize = 4;
    pub const MEMORY: usize = 5;
    pub const VMS: usize = 6;
    pub const VMS_TOTAL: usize = 7;
    pub const ESX_VERSION: usize = 8;
    pub const SERVER: usize = 9;
}

/// Slots of [`CLUSTER_FIELDS`].
mod col_cluster {
    pub const NAME: usize = 0;
    pub const NUM_HOSTS: usize = 1;
    pub const NUM_EFFECTIVE_HOSTS: usize = 2;
    pub const TOTAL_CPU: usize = 3;
    pub const NUM_CPU_CORES: usize = 4;
    pub const TOTAL_MEMORY: usize = 5;
    pub const SERVER: usize = 6;
}

/// Slots of [`DATASTORE_FIELDS`].
mod col_datastore {
    pub const NAME: usize = 0;
    pub const TYPE: usize = 1;
    pub const CAPACITY: usize = 2;
    pub const PROVISIONED: usize = 3;
    pub const IN_USE: usize = 4;
    pub const FREE: usize = 5;
    pub const NUM_HOSTS: usize = 6;
    pub const HOSTS: usize = 7;
    pub const DATASTORE_CLUSTER: usize = 8;
    pub const ADDRESS: usize = 9;
    pub const URL: usize = 10;
    pub const SERVER: usize = 11;
}

/// Slots of [`SNAPSHOT_FIELDS`].
mod col_snapshot {
    pub const VM: usize = 0;
    pub const NAME: usize = 1;
    pub const DATE: usize = 2;
    pub const SIZE_VMSN: usize = 3;
    pub const SIZE_TOTAL: usize = 4;
    pub const SERVER: usize = 5;
    pub const VM_ID: usize = 6;
    pub const VM_UUID: usize = 7;
}

/// Slots of [`METADATA_FIELDS`].
mod col_metadata {
    pub const MAJOR_VERSION: usize = 0;
    pub const VERSION: usize = 1;
    pub const CREATED: usize = 2;
    pub const SERVER: usize = 3;
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

//! Which rows are the same VM, and what the inventory says when a column is missing: two
//! vCenters behind one `VI SDK Server` address, trimmed vInfo tabs, warnings that name the
//! header the file has.

use std::path::{Path, PathBuf};

use dsplan::ingest::read_inputs;
use dsplan::inventory::Inventory;

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ingest_identity")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Writes an RVTools CSV folder `dir/name` with the given tabs (`(tab, CSV text)`).
fn csv_folder(dir: &Path, name: &str, tabs: &[(&str, String)]) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).expect("create folder");
    for (tab, text) in tabs {
        std::fs::write(folder.join(format!("RVTools_tab{tab}.csv")), text).expect("write tab");
    }
    folder
}

/// One vCenter's export: VMs `app` (vm-1, 100 MiB) and `db` (vm-2, 200 MiB) under
/// `VI SDK Server` 10.0.0.5, with the given `VI SDK UUID` and VM UUID prefix, and one disk
/// per VM of the same size.
fn vcenter(dir: &Path, name: &str, sdk_uuid: &str, vm_uuid: &str, scale: f64) -> PathBuf {
    let mut vinfo = String::from("VM,Provisioned MiB,In Use MiB,VI SDK Server,VM ID,VM UUID");
    let mut vdisk = String::from("VM,Disk,Capacity MiB,VI SDK Server,VM ID,VM UUID");
    if !sdk_uuid.is_empty() {
        vinfo.push_str(",VI SDK UUID");
    }
    vinfo.push('\n');
    vdisk.push('\n');
    for (vm, id, mib) in [("app", "vm-1", 100.0), ("db", "vm-2", 200.0)] {
        let mib = mib * scale;
        let uuid = format!("{vm_uuid}-{id}");
        vinfo.push_str(&format!("{vm},{mib},{mib},10.0.0.5,{id},{uuid}"));
        if !sdk_uuid.is_empty() {
            vinfo.push_str(&format!(",{sdk_uuid}"));
        }
        vinfo.push('\n');
        vdisk.push_str(&format!("{vm},Hard disk 1,{mib},10.0.0.5,{id},{uuid}\n"));
    }
    csv_folder(dir, name, &[("vInfo", vinfo), ("vDisk", vdisk)])
}

fn read(paths: &[PathBuf]) -> Inventory {
    match read_inputs(paths) {
        Ok(inv) => inv,
        Err(e) => panic!("should read: {e}"),
    }
}

fn disk_mib_by_key(inv: &Inventory) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = inv
        .disks
        .iter()
        .map(|d| (d.vm_key.0.clone(), d.capacity_mib.unwrap_or(0.0)))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn two_vcenters_behind_one_address_keep_every_vm() {
    // Site A and site B both export as VI SDK Server 10.0.0.5 with VM IDs vm-1 and vm-2,
    // but their VI SDK UUIDs differ: four VMs, 100 + 200 + 300 + 600 = 1,200 MiB, and each
    // disk stays with its own VM.
    let dir = scratch("two_vcenters");
    let a = vcenter(&dir, "a", "sdk-a", "uuid-a", 1.0);
    let b = vcenter(&dir, "b", "sdk-b", "uuid-b", 3.0);
    let inv = read(&[a, b]);
    assert_eq!(inv.vms.len(), 4);
    assert_eq!(inv.summary().provisioned_mib, 1_200.0);
    let keys: Vec<String> = inv.vms.iter().map(|v| v.key().0).collect();
    assert_eq!(
        keys,
        [
            "id:10.0.0.5:vm-1",
            "id:10.0.0.5:vm-2",
            "id:10.0.0.5:vm-1#2",
            "id:10.0.0.5:vm-2#2"
        ]
    );
    assert_eq!(
        disk_mib_by_key(&inv),
        [
            ("id:10.0.0.5:vm-1".to_string(), 100.0),
            ("id:10.0.0.5:vm-1#2".to_string(), 300.0),
            ("id:10.0.0.5:vm-2".to_string(), 200.0),
            ("id:10.0.0.5:vm-2#2".to_string(), 600.0),
        ]
    );
    assert!(
        !inv.warnings
            .iter()
            .any(|w| w.message.contains("already read")),
        "{:#?}",
        inv.warnings
    );
}

#[test]
fn without_vi_sdk_uuid_the_vm_uuid_tells_them_apart() {
    // No VI SDK UUID column; the VM UUIDs differ (uuid-a-vm-1 vs uuid-b-vm-1): 4 VMs.
    let dir = scratch("vm_uuid");
    let a = vcenter(&dir, "a", "", "uuid-a", 1.0);
    let b = vcenter(&dir, "b", "", "uuid-b", 1.0);
    let inv = read(&[a, b]);
    assert_eq!(inv.vms.len(), 4);
    // 2 x (100 + 200) = 600 MiB.
    assert_eq!(inv.summary().provisioned_mib, 600.0);
}

#[test]
fn the_same_vcenter_twice_is_still_counted_once() {
    // Same VI SDK UUID and VM UUIDs: the second export is a copy. Two VMs (300 MiB), two
    // "already read" warnings and one for the copy's two disks.
    let dir = scratch("same_vcenter");
    let a = vcenter(&dir, "a", "sdk-a", "uuid-a", 1.0);
    let b = vcenter(&dir, "b", "SDK-A", "UUID-A", 1.0);
    let inv = read(&[a, b]);
    assert_eq!(inv.vms.len(), 2);
    assert_eq!(inv.summary().provisioned_mib, 300.0);
    assert_eq!(inv.disks.len(), 2);
    let already = inv
        .warnings
        .iter()
        .filter(|w| w.message.contains("was already read from"))
        .count();
    assert_eq!(already, 2, "{:#?}", inv.warnings);
}

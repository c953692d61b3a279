//! Which rows are the same VM, and what the inventory says when a column is missing: two
//! vCenters behind one `VI SDK Server` address, trimmed vInfo tabs, warnings that name the
//! header the file has.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

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
    // Same VI SDK UUID and VM UUIDs: the second export is a copy. Two VMs (300 MiB), one
    // warning for the copy (its disks unsaid), its two VMs listed as duplicates.
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
    assert_eq!(already, 1, "{:#?}", inv.warnings);
    assert_eq!(inv.duplicates.len(), 2);
}

/// `../shared/rvtools/<name>` next to the repository, or `None` (and a note) when missing.
fn shared(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/rvtools")
        .join(name);
    if !path.is_file() {
        println!("skipped: {} not found", path.display());
        return None;
    }
    Some(path)
}

/// Every row of `sheet` as text (the header first), read with calamine, independently of
/// dsplan's reader.
fn sheet_rows(path: &Path, sheet: &str) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx, open_workbook};
    let mut wb: Xlsx<_> = open_workbook(path).expect("open workbook");
    let range = wb.worksheet_range(sheet).expect("sheet");
    range
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

/// Column `name` of `header`.
fn col(header: &[String], name: &str) -> usize {
    match header.iter().position(|c| c == name) {
        Some(i) => i,
        None => panic!("no column {name} in {header:?}"),
    }
}

/// A host name's first DNS label, lower-cased (the test's own copy of the rule).
fn label(host: &str) -> String {
    host.split('.').next().unwrap_or("").to_lowercase()
}

/// Runs `dsplan ARGS` and returns its stdout.
fn dsplan(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .output()
        .expect("run dsplan");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_workshop_counts_hosts_one_way_in_text_json_and_per_cluster() {
    let Some(path) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    // Independent count with calamine: per cluster, the distinct vInfo Host labels and the
    // vHost rows; the count is the vHost rows when every vInfo label is among them, else
    // the larger of the two. The file: Cluster1 vHost 5 (vmsp-01..05), vInfo 8
    // (bovmsp-01..06, -14, -15.customer.com; none match) -> 8; Cluster2 22 vs 22 (vmprod3-
    // vs bovmprod3-) -> 22; DMZ 4 vs 5 -> 5; Mgmt 3 vs the same 3 -> 3. Total 38.
    use std::collections::{BTreeMap, BTreeSet};
    let mut vinfo: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let rows = sheet_rows(&path, "vInfo");
    let (c, h) = (col(&rows[0], "Cluster"), col(&rows[0], "Host"));
    for r in &rows[1..] {
        vinfo.entry(r[c].clone()).or_default().insert(label(&r[h]));
    }
    let mut vhost: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let rows = sheet_rows(&path, "vHost");
    let (c, h) = (col(&rows[0], "Cluster"), col(&rows[0], "Host"));
    for r in &rows[1..] {
        vhost.entry(r[c].clone()).or_default().insert(label(&r[h]));
    }
    let expected: BTreeMap<String, usize> = vinfo
        .iter()
        .map(|(cluster, names)| {
            let rows = &vhost[cluster];
            let n = if names.is_subset(rows) {
                rows.len()
            } else {
                rows.len().max(names.len())
            };
            (cluster.clone(), n)
        })
        .collect();
    let by_hand: BTreeMap<String, usize> =
        [("Cluster1", 8), ("Cluster2", 22), ("DMZ", 5), ("Mgmt", 3)]
            .into_iter()
            .map(|(c, n)| (c.to_string(), n))
            .collect();
    assert_eq!(expected, by_hand);
    let file = path.to_string_lossy().into_owned();

    // Inventory JSON: the clusters map and the cluster details.
    let json: serde_json::Value =
        serde_json::from_str(&dsplan(&["inventory", &file, "--json"])).expect("json");
    for (cluster, n) in &expected {
        assert_eq!(json["clusters"][cluster]["host_count"], *n, "{cluster}");
    }
    let details: BTreeMap<String, (u64, String)> = json["cluster_details"]
        .as_array()
        .expect("cluster_details")
        .iter()
        .map(|d| {
            let name = d["cluster"].as_str().unwrap_or("").to_string();
            let n = d["host_count"].as_u64().unwrap_or(0);
            (
                name,
                (n, d["hosts_source"].as_str().unwrap_or("").to_string()),
            )
        })
        .collect();
    for (cluster, n) in &expected {
        assert_eq!(details[cluster].0, *n as u64, "{cluster}");
    }
    assert_eq!(json["summary"]["host_count"], 38);
    assert!(
        details["Cluster1"]
            .1
            .starts_with("the larger of 5 vHost rows and 8 vInfo Host names: 8 vInfo host(s)"),
        "{}",
        details["Cluster1"].1
    );
    assert_eq!(details["Mgmt"].1, "vHost rows (vInfo Host names agree)");

    // Inventory text: the hosts column of each cluster row and the total.
    let text = dsplan(&["inventory", &file]);
    for (cluster, n) in expected
        .iter()
        .map(|(c, n)| (c.as_str(), *n))
        .chain([("total", 38)])
    {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cluster))
            .unwrap_or_else(|| panic!("no row {cluster} in\n{text}"));
        // The hosts column is the last before the datastores ("-").
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[cells.len() - 2], n.to_string(), "{line}");
    }

    // The per-cluster plan: each cluster's hosts and their source.
    let mut planner = dsplan::Planner::new();
    planner.input(&path);
    let plans = match planner.plan_per_cluster() {
        Ok(p) => p,
        Err(e) => panic!("per-cluster plan: {e}"),
    };
    // Each plan takes the inventory's count and says where it came from; Cluster2's 22 is
    // capped at the 16 hosts one AVS cluster holds (data/limits.csv), saying "22".
    assert_eq!(plans.clusters.len(), expected.len());
    for plan in &plans.clusters {
        let n = expected[&plan.cluster];
        assert_eq!(plan.hosts as usize, n.min(16), "{}", plan.cluster);
        assert!(
            plan.hosts_source.starts_with(&details[&plan.cluster].1),
            "{}: {}",
            plan.cluster,
            plan.hosts_source
        );
    }
    let c2 = plans.clusters.iter().find(|c| c.cluster == "Cluster2");
    assert!(
        c2.is_some_and(|c| c
            .hosts_source
            .ends_with(": 22, capped at the AVS maximum of 16 per cluster")),
        "{c2:?}"
    );
}

#[test]
fn hosts_missing_from_vhost_are_one_warning_per_cause() {
    // vInfo: a, b on ESX1.corp (vHost spells it esx1: same first label), c on gone-1, d on
    // gone-2, e on esx2 (in vHost). Causes: 1 host of 2 VMs spelled differently; 2 hosts of
    // 2 VMs missing. The cluster counts vHost's 2 rows against vInfo's labels (esx1,
    // gone-1, gone-2, esx2 = 4 labels, 2 unmatched): max(2, 4) = 4.
    let dir = scratch("vhost_causes");
    let vinfo = "VM,Cluster,Host\na,C,ESX1.corp\nb,C,ESX1.corp\nc,C,gone-1\nd,C,gone-2\ne,C,esx2\n";
    let vhost = "Host,Cluster\nesx1,C\nesx2,C\n";
    let folder = csv_folder(
        &dir,
        "x",
        &[("vInfo", vinfo.to_string()), ("vHost", vhost.to_string())],
    );
    let inv = read(&[folder]);
    // The hosts' warnings (the vInfo column Host); the fixture's vInfo has no figure, which
    // is a warning of its own.
    let msgs: Vec<(&str, Option<usize>)> = inv
        .warnings
        .iter()
        .filter(|w| w.column.as_deref() == Some("Host"))
        .map(|w| (w.message.as_str(), w.row))
        .collect();
    assert_eq!(
        msgs,
        [
            (
                "1 vInfo host(s) of 2 VM(s) are spelled differently in vHost: 'ESX1.corp' (2 \
                 VMs) as 'esx1'",
                Some(2)
            ),
            (
                "2 vInfo host(s) of 2 VM(s) are not in vHost: 'gone-1' (1 VM), 'gone-2' (1 VM)",
                Some(4)
            ),
        ]
    );
    let hosts = inv.cluster_hosts();
    assert_eq!(hosts.get(&Some("C".to_string())).map(|h| h.count), Some(4));
}

#[test]
fn vms_sized_by_provisioned_are_one_warning_with_a_count() {
    // 7 VMs without In Use, each 1,024 MiB provisioned; 1 with both. On the in-use basis the
    // 7 fall back to provisioned: one warning, the first five names and "2 more", at the
    // first VM's row (row 2).
    let dir = scratch("fallback");
    let mut vinfo = String::from("VM,Provisioned MiB,In Use MiB\n");
    for i in 1..=7 {
        vinfo.push_str(&format!("v{i},1024,\n"));
    }
    vinfo.push_str("ok,1024,512\n");
    let folder = csv_folder(&dir, "x", &[("vInfo", vinfo)]);
    let inv = read(&[folder]);
    let demand = match dsplan::demand::derive(&inv, &dsplan::demand::DemandOptions::default()) {
        Ok(d) => d,
        Err(e) => panic!("derive: {e}"),
    };
    let fallbacks: Vec<_> = demand
        .warnings
        .iter()
        .filter(|w| w.message.contains("sized by"))
        .collect();
    assert_eq!(fallbacks.len(), 1, "{:#?}", demand.warnings);
    assert_eq!(
        fallbacks[0].message,
        "7 VM(s) have no in-use capacity; sized by their provisioned capacity instead: 'v1', \
         'v2', 'v3', 'v4', 'v5' and 2 more"
    );
    assert_eq!(fallbacks[0].row, Some(2));
}

#[test]
fn warnings_name_the_header_the_file_has() {
    // An RVTools 3.x header "In Use MB": in use 300 > provisioned 200 names "In Use MB".
    let dir = scratch("header_names");
    let vinfo = "VM,Provisioned MB,In Use MB\nbig,200,300\n".to_string();
    let folder = csv_folder(&dir, "x", &[("vInfo", vinfo)]);
    let inv = read(&[folder]);
    let w: Vec<_> = inv
        .warnings
        .iter()
        .filter(|w| w.message.contains("exceeds Provisioned"))
        .collect();
    assert_eq!(w.len(), 1, "{:#?}", inv.warnings);
    assert_eq!(w[0].column.as_deref(), Some("In Use MB"));
    assert_eq!(
        inv.sources[0]
            .vinfo_headers
            .get("Provisioned MiB")
            .map(String::as_str),
        Some("Provisioned MB")
    );
}

#[test]
fn the_overcommitted_datastore_warning_names_the_files_vdatastore_header() {
    // vDatastore writes `Provisioned MB`/`Capacity MB` (RVTools 3.x): 2,000 MiB provisioned
    // on 1,000 MiB capacity is overcommitted, and the warning names `Provisioned MB`.
    let dir = scratch("vdatastore_headers");
    let folder = csv_folder(
        &dir,
        "export",
        &[
            (
                "vInfo",
                "VM,Provisioned MB,In Use MB\napp,100,100\n".to_string(),
            ),
            (
                "vDatastore",
                "Name,Capacity MB,Provisioned MB,URL\nds1,1000,2000,ds:///vmfs/1/\n".to_string(),
            ),
        ],
    );
    let inv = read(&[folder]);
    let w = inv
        .warnings
        .iter()
        .find(|w| w.message.contains("is overcommitted"))
        .expect("an overcommitted warning");
    assert_eq!(w.column.as_deref(), Some("Provisioned MB"), "{w:?}");
    assert_eq!(
        inv.sources[0]
            .vdatastore_headers
            .get("Provisioned MiB")
            .map(String::as_str),
        Some("Provisioned MB")
    );
}

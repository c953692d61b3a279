//! What makes two rows one VM (`Vm::is_same_vm`), within an input, across inputs and for
//! Live Optics: every VM read is kept or listed as a duplicate of the row it repeats.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use dsplan::demand::{self, DemandOptions, ExclusionReason};
use dsplan::ingest::read_inputs;
use dsplan::inventory::Inventory;

include!("support/command.rs");

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-vm-identity-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HEADER: &str = "VM,Powerstate,Cluster,Provisioned MiB,In Use MiB,VM ID,VM UUID,\
                      VI SDK Server,VI SDK UUID\n";

/// A vInfo CSV of `rows` (name, VM ID, VM UUID, VI SDK UUID), each 1,024 MiB in use, at
/// VI SDK Server 10.0.0.1, cluster Prod.
fn vinfo(dir: &Path, file: &str, rows: &[(&str, &str, &str, &str)]) -> PathBuf {
    let mut text = HEADER.to_string();
    for (name, id, uuid, sdk) in rows {
        text.push_str(&format!(
            "{name},poweredOn,Prod,2048,1024,{id},{uuid},10.0.0.1,{sdk}\n"
        ));
    }
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

fn read(paths: &[&PathBuf]) -> Inventory {
    read_inputs(paths).unwrap()
}

fn names(inv: &Inventory) -> Vec<&str> {
    inv.vms.iter().map(|v| v.name.as_str()).collect()
}

/// A cell of [`live_optics`]' rows.
enum Cell {
    S(&'static str),
    N(f64),
}

/// A Live Optics workbook at `path`: a `VMs` sheet of `header` and `rows`.
fn live_optics(path: &Path, header: &[&str], rows: &[Vec<Cell>]) {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet().set_name("VMs").unwrap();
    for (c, h) in header.iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (r, c) = (r as u32 + 1, c as u16);
            match cell {
                Cell::S(t) => ws.write_string(r, c, *t).map(|_| ()),
                Cell::N(n) => ws.write_number(r, c, *n).map(|_| ()),
            }
            .unwrap();
        }
    }
    wb.save(path).unwrap();
}

#[test]
fn two_vcenters_at_one_address_with_one_input_given_twice_count_each_vm_once() {
    // Site A (VI SDK UUID sdk-a) and site B (sdk-b) both export as 10.0.0.1 with VM IDs
    // vm-1, vm-2: four VMs. B given again adds none: its 2 rows are duplicates of B's
    // rows 2 and 3, and it is one warning.
    let dir = scratch("two_sites");
    let a = vinfo(
        &dir,
        "a.csv",
        &[("a1", "vm-1", "", "sdk-a"), ("a2", "vm-2", "", "sdk-a")],
    );
    let b = vinfo(
        &dir,
        "b.csv",
        &[("b1", "vm-1", "", "sdk-b"), ("b2", "vm-2", "", "sdk-b")],
    );
    let inv = read(&[&a, &b, &b]);
    assert_eq!(names(&inv), ["a1", "a2", "b1", "b2"]);
    assert_eq!(inv.duplicates.len(), 2);
    for (d, row) in inv.duplicates.iter().zip([2, 3]) {
        assert_eq!((d.origin.row, d.copy_of.row), (row, row));
        assert_eq!(&*d.copy_of.file, b.display().to_string());
    }
    let copies: Vec<_> = (inv.warnings.iter())
        .filter(|w| {
            w.message
                .starts_with("every VM of this input (2) was already read")
        })
        .collect();
    assert_eq!(copies.len(), 1, "{:#?}", inv.warnings);
    // The plan: 4 placed (4 x 1 GiB in use), the 2 copies excluded as duplicates with
    // the row they repeat and no capacity (counted once, with the VM kept).
    let d = demand::derive(&inv, &DemandOptions::default()).unwrap();
    assert_eq!(d.placed.len(), 4);
    assert_eq!(d.placed_capacity_gib, 4.0);
    let dups: Vec<_> = (d.excluded.iter())
        .map(|e| {
            (
                e.name.as_str(),
                e.reason,
                e.capacity_gib,
                e.duplicate_of.as_ref().map(|o| o.row),
            )
        })
        .collect();
    assert_eq!(
        dups,
        [
            ("b1", ExclusionReason::Duplicate, None, Some(2)),
            ("b2", ExclusionReason::Duplicate, None, Some(3)),
        ]
    );
}

#[test]
fn a_repeated_vm_id_with_another_name_and_uuid_is_another_vm() {
    // One input, no VI SDK UUID: vm-1 twice, as a1 (u-a) and b1 (u-b): two VMs, kept apart
    // with one warning naming both rows; a1 written twice (same name and UUID) is one VM,
    // its copy at row 4 a duplicate of row 2.
    let dir = scratch("same_id");
    let f = vinfo(
        &dir,
        "one.csv",
        &[
            ("a1", "vm-1", "u-a", ""),
            ("b1", "vm-1", "u-b", ""),
            ("a1", "vm-1", "u-a", ""),
        ],
    );
    let inv = read(&[&f]);
    assert_eq!(names(&inv), ["a1", "b1"]);
    let keys: Vec<String> = inv.vms.iter().map(|v| v.key().0).collect();
    assert_eq!(keys, ["id:10.0.0.1:vm-1", "id:10.0.0.1:vm-1#2"]);
    assert_eq!(inv.duplicates.len(), 1);
    assert_eq!(
        (inv.duplicates[0].origin.row, inv.duplicates[0].copy_of.row),
        (4, 2)
    );
    let messages: Vec<&str> = inv.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("1 VM row(s) repeat a VM already read (row 4;")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("1 VM row(s) share their key")
                && m.contains("row 3 against")
                && m.ends_with("kept as different VMs")),
        "{messages:#?}"
    );
}

#[test]
fn two_inputs_without_uuids_at_one_address_keep_vms_of_other_names() {
    // Two exports at 10.0.0.1 without any UUID: vm-1 and vm-2 in each, named a* and b*:
    // four VMs (the names differ), nothing dropped.
    let dir = scratch("no_uuid");
    let a = vinfo(
        &dir,
        "a.csv",
        &[("a1", "vm-1", "", ""), ("a2", "vm-2", "", "")],
    );
    let b = vinfo(
        &dir,
        "b.csv",
        &[("b1", "vm-1", "", ""), ("b2", "vm-2", "", "")],
    );
    let inv = read(&[&a, &b]);
    assert_eq!(names(&inv), ["a1", "a2", "b1", "b2"]);
    assert!(inv.duplicates.is_empty());
}

#[test]
fn vms_of_one_name_without_ids_are_one_vm_unless_their_paths_differ() {
    // Name keys: web at [ds] a/ and [ds] b/ are two VMs; db twice without a path is one
    // VM written twice (the copy listed).
    let dir = scratch("names");
    let path = dir.join("names.csv");
    std::fs::write(
        &path,
        "VM,Provisioned MiB,Path\nweb,10,[ds] a/web.vmx\nweb,10,[ds] b/web.vmx\ndb,10,\ndb,10,\n",
    )
    .unwrap();
    let inv = read(&[&path]);
    assert_eq!(names(&inv), ["web", "web", "db"]);
    assert_eq!(inv.duplicates.len(), 1);
    assert_eq!(
        (inv.duplicates[0].origin.row, inv.duplicates[0].copy_of.row),
        (5, 4)
    );
}

#[test]
fn live_optics_keeps_another_name_under_one_mob_id_and_lists_a_repeated_row() {
    // VMs rows: x (vm-7), y (vm-7, another name: another VM), x again (vm-7, the same VM:
    // a duplicate of row 2).
    let dir = scratch("live_optics");
    let path = dir.join("lo.xlsx");
    let header = [
        "VM Name",
        "Power State",
        "Virtual Disk Size (MiB)",
        "Virtual Disk Used (MiB)",
        "vCenter",
        "MOB ID",
    ];
    let row = |name: &'static str| {
        use Cell::{N, S};
        vec![
            S(name),
            S("poweredOn"),
            N(2048.0),
            N(1024.0),
            S("vc1"),
            S("vm-7"),
        ]
    };
    live_optics(&path, &header, &[row("x"), row("y"), row("x")]);
    let inv = read(&[&path]);
    assert_eq!(names(&inv), ["x", "y"]);
    assert_eq!(inv.duplicates.len(), 1);
    assert_eq!(
        (inv.duplicates[0].origin.row, inv.duplicates[0].copy_of.row),
        (4, 2)
    );
}

#[test]
fn per_cluster_lists_vms_without_a_cluster_as_excluded() {
    // c1 names no cluster (empty cell): with `per_cluster` it is in no cluster's plan, so
    // it is excluded with its reason and its 1 GiB; c2 and c3 are Prod's.
    let dir = scratch("no_cluster");
    let path = dir.join("c.csv");
    std::fs::write(
        &path,
        "VM,Cluster,In Use MiB\nc1,,1024\nc2,Prod,1024\nc3,Prod,2048\n",
    )
    .unwrap();
    let inv = read(&[&path]);
    let split = demand::split_by_cluster(&inv, &DemandOptions::default(), None).unwrap();
    assert_eq!(split.vms_without_cluster, 1);
    let excluded: Vec<_> = (split.excluded.iter())
        .map(|e| (e.name.as_str(), e.reason, e.capacity_gib))
        .collect();
    assert_eq!(excluded, [("c1", ExclusionReason::NoCluster, Some(1.0))]);
    assert_eq!(split.clusters.len(), 1);
    assert_eq!(split.clusters[0].demand.placed.len(), 2);
}

/// `../shared/fuzz-findings/round3/NAME`, or `None` after printing the skip.
fn round3(name: &str) -> Option<String> {
    let p = root().join("../shared/fuzz-findings/round3").join(name);
    if p.exists() {
        Some(p.display().to_string())
    } else {
        println!("skipped: ../shared not found");
        None
    }
}

/// `summary.vms_placed` and `summary.vms_excluded` of `dsplan plan ARGS --format json`.
fn placed_and_excluded(args: &[&str]) -> (u64, u64) {
    let mut all = vec!["plan"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let out = dsplan(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = |k: &str| json["summary"][k].as_u64().unwrap();
    (n("vms_placed"), n("vms_excluded"))
}

#[test]
fn the_round3_reproducers_plan_every_vm_once() {
    let (Some(a), Some(b), Some(same), Some(an), Some(bn)) = (
        round3("acc/ip-a.csv"),
        round3("acc/ip-b.csv"),
        round3("acc/sameid-onefile.csv"),
        round3("acc/ip-a-nouuid.csv"),
        round3("acc/ip-b-nouuid.csv"),
    ) else {
        return;
    };
    // 8 VMs in each file: a + b = 16, b again adds its 8 as duplicates.
    assert_eq!(placed_and_excluded(&[&a, &b, &b]), (16, 8));
    // 16 rows, VM IDs vm-101..108 twice under other names and UUIDs: 16 VMs.
    assert_eq!(placed_and_excluded(&[&same]), (16, 0));
    assert_eq!(placed_and_excluded(&[&an, &bn]), (16, 0));
}

#[test]
fn the_round3_per_cluster_reproducer_lists_vms_without_a_cluster() {
    // c1 and c2 have an empty Cluster cell: both in `excluded`, reason no_cluster.
    let Some(f) = round3("acc/emptycluster.csv") else {
        return;
    };
    let out = dsplan(&["plan", "--per-cluster", &f, "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let excluded: Vec<(&str, &str)> = (json["excluded"].as_array().unwrap().iter())
        .map(|e| (e["name"].as_str().unwrap(), e["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(excluded, [("c1", "no_cluster"), ("c2", "no_cluster")]);
    assert_eq!(json["total"]["vms_without_cluster"], 2);
}

#[test]
fn the_workshop_given_twice_is_one_warning_more() {
    // 805 VMs; given twice, the second copy adds no VM and one warning (there were 807:
    // one per VM and its vPartition join note again), and its 805 rows are duplicates.
    let Some(w) = shared("sizing-workshop-805vms.xlsx") else {
        return;
    };
    let once = read(&[&w]);
    let twice = read(&[&w, &w]);
    assert_eq!(twice.vms.len(), once.vms.len());
    assert_eq!(twice.duplicates.len(), 805);
    assert_eq!(
        twice.warnings.len(),
        once.warnings.len() + 1,
        "{:#?}",
        twice.warnings
    );
}

#[test]
fn two_hundred_thousand_nameless_rows_are_five_warnings_and_a_count() {
    // 200,000 rows with values but no VM name, and 2 named VMs: one cause, 5 warnings kept
    // (rows 2..6), the last counting the other 199,995; 200,000 in all.
    let dir = scratch("nameless");
    let path = dir.join("nameless.csv");
    let mut text = String::from("VM,Provisioned MiB\na,10\n");
    for _ in 0..200_000 {
        text.push_str(",5\n");
    }
    text.push_str("b,10\n");
    std::fs::write(&path, text).unwrap();
    let inv = read(&[&path]);
    assert_eq!(names(&inv), ["a", "b"]);
    let nameless: Vec<_> = (inv.warnings.iter())
        .filter(|w| w.message.contains("no VM name"))
        .collect();
    let rows: Vec<Option<usize>> = nameless.iter().map(|w| w.row).collect();
    assert_eq!(rows, [Some(3), Some(4), Some(5), Some(6), Some(7)]);
    assert_eq!(nameless[4].more_alike, 199_995);
    assert_eq!(
        dsplan::inventory::warning_count(nameless.iter().copied()),
        200_000
    );
}

#[test]
fn vcpus_and_memory_follow_one_rule_in_vinfo_and_live_optics() {
    // 1e15 vCPUs, 0 vCPUs and 0 MiB of memory are unknown with a warning in both formats
    // (Live Optics took 1e15 as real).
    let dir = scratch("vcpus");
    let csv = dir.join("v.csv");
    std::fs::write(
        &csv,
        "VM,CPUs,Memory,In Use MiB\nbig,1000000000000000,8192,10\nzero,0,0,10\nok,2,8192,10\n",
    )
    .unwrap();
    let xlsx = dir.join("lo.xlsx");
    let header = [
        "VM Name",
        "Virtual CPU",
        "Provisioned Memory (MiB)",
        "Virtual Disk Size (MiB)",
        "Virtual Disk Used (MiB)",
    ];
    let row = |name: &'static str, cpus: f64, mem: f64| {
        use Cell::{N, S};
        vec![S(name), N(cpus), N(mem), N(20.0), N(10.0)]
    };
    let rows = [
        row("big", 1e15, 8192.0),
        row("zero", 0.0, 0.0),
        row("ok", 2.0, 8192.0),
    ];
    live_optics(&xlsx, &header, &rows);
    for path in [&csv, &xlsx] {
        let inv = read(&[path]);
        let figures: Vec<(Option<u64>, Option<f64>)> =
            inv.vms.iter().map(|v| (v.cpus, v.memory_mib)).collect();
        assert_eq!(
            figures,
            [(None, Some(8192.0)), (None, None), (Some(2), Some(8192.0))],
            "{}",
            path.display()
        );
        let messages: Vec<&str> = inv.warnings.iter().map(|w| w.message.as_str()).collect();
        for needle in ["more than 768 vCPUs", "0 vCPUs", "0 MiB of memory"] {
            assert!(
                messages.iter().any(|m| m.contains(needle)),
                "{needle}: {messages:#?}"
            );
        }
    }
}

#[test]
fn one_name_in_two_clusters_is_two_vms_without_ids() {
    // No VM ID, VM UUID or Path: the key is the vCenter + name. `a` in cluster C1 (100 GiB)
    // and `a` in C2 (200 GiB) cannot be one VM (a VM runs in one cluster): both kept, 300
    // GiB in all, the second with a key number; `a` written again in C1 is a duplicate
    // of row 2.
    let dir = scratch("two_clusters");
    let path = dir.join("vinfo.csv");
    std::fs::write(
        &path,
        "VM,Powerstate,Cluster,Provisioned MiB,In Use MiB,VI SDK Server\n\
         a,poweredOn,C1,102400,102400,vc1\n\
         a,poweredOn,C2,204800,204800,vc1\n\
         a,poweredOn,C1,102400,102400,vc1\n",
    )
    .unwrap();
    let inv = read(&[&path]);
    let kept: Vec<(&str, Option<&str>, Option<f64>)> = inv
        .vms
        .iter()
        .map(|v| (v.name.as_str(), v.cluster.as_deref(), v.in_use_mib))
        .collect();
    assert_eq!(
        kept,
        [
            ("a", Some("C1"), Some(102_400.0)),
            ("a", Some("C2"), Some(204_800.0))
        ]
    );
    assert_eq!(inv.duplicates.len(), 1);
    assert_eq!(
        (inv.duplicates[0].origin.row, inv.duplicates[0].copy_of.row),
        (4, 2)
    );
    let d = demand::derive(&inv, &DemandOptions::default()).unwrap();
    // 102,400 + 204,800 MiB = 307,200 MiB = 300 GiB placed.
    assert_eq!(d.placed.len(), 2);
    assert!(
        (d.placed_capacity_gib - 300.0).abs() < 1e-9,
        "{}",
        d.placed_capacity_gib
    );
}

#[test]
fn rows_of_one_name_in_one_input_are_one_vm_only_when_their_figures_agree() {
    // One input, no VM ID or VM UUID, all in vCenter vc, cluster A:
    //   row 2 web  2 vCPU  4,096 MiB  10,240 MiB in use  h1
    //   row 3 web  8 vCPU 65,536 MiB 1,048,576 MiB in use h2  -> another VM (figures differ)
    //   row 4 db   4 vCPU  8,192 MiB  20,480 MiB in use  h1
    //   row 5 db   the same as row 4                           -> duplicate of row 4
    //   row 6 app  2 vCPU  4,096 MiB   5,120 MiB in use  (no host)
    //   row 7 app  2 vCPU  4,096 MiB   5,120 MiB in use  h3    -> duplicate of row 6 (a
    //                                                            figure one lacks says nothing)
    // So 4 VMs (web, web#2, db, app), 2 duplicates; in use 10 + 1,024 + 20 + 5 = 1,059 GiB.
    let dir = scratch("same_name_figures");
    let path = dir.join("one.csv");
    std::fs::write(
        &path,
        "VM,Powerstate,CPUs,Memory,In Use MiB,Provisioned MiB,Cluster,Host,VI SDK Server\n\
         web,poweredOn,2,4096,10240,20480,A,h1,vc\n\
         web,poweredOn,8,65536,1048576,2097152,A,h2,vc\n\
         db,poweredOn,4,8192,20480,40960,A,h1,vc\n\
         db,poweredOn,4,8192,20480,40960,A,h1,vc\n\
         app,poweredOn,2,4096,5120,10240,A,,vc\n\
         app,poweredOn,2,4096,5120,10240,A,h3,vc\n",
    )
    .unwrap();
    let inv = read(&[&path]);
    assert_eq!(names(&inv), ["web", "web", "db", "app"]);
    let keys: Vec<String> = inv.vms.iter().map(|v| v.key().0).collect();
    assert_eq!(
        keys,
        ["name:vc:web", "name:vc:web#2", "name:vc:db", "name:vc:app"]
    );
    let dups: Vec<(usize, usize)> = inv
        .duplicates
        .iter()
        .map(|d| (d.origin.row, d.copy_of.row))
        .collect();
    assert_eq!(dups, [(5, 4), (7, 6)]);
    let in_use_gib: f64 = inv.vms.iter().filter_map(|v| v.in_use_mib).sum::<f64>() / 1024.0;
    assert_eq!(in_use_gib, 1_059.0);
    let messages: Vec<&str> = inv.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("1 VM row(s) share their key")
                && m.contains("row 3 against ")
                && m.contains("one.csv [vInfo] row 2)")
                && m.contains("vCPUs, memory, provisioned, in use or host")),
        "{messages:#?}"
    );
}

#[test]
fn duplicate_rows_are_said_counted_once_and_each_excluded_row_names_its_file() {
    // one.csv: a1 (row 2), a1 again (row 3, a duplicate of row 2), t1 a template (row 4).
    // Left out: 1 VM (the template, 1 GiB); 1 duplicate row counted once. The excluded
    // list: 2 rows, each placed with its file.
    let dir = scratch("excluded_words");
    let path = dir.join("one.csv");
    std::fs::write(
        &path,
        "VM,Powerstate,Template,CPUs,Memory,In Use MiB,VM ID,VI SDK Server\n\
         a1,poweredOn,False,2,4096,2048,vm-1,vc\n\
         a1,poweredOn,False,2,4096,2048,vm-1,vc\n\
         t1,poweredOff,True,2,4096,1024,vm-2,vc\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let out = dsplan(&["plan", "--detail", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "\n  left out: 1 VM, 1 GiB (33.3% of the capacity read): template: 1 (1 GiB); 1 \
             duplicate row counted once\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n  1 VM left out (1.0 GiB); 1 duplicate row counted once\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "a1 [duplicate of a VM already read (counted once): {file} [vInfo] row 2] {file} \
             [vInfo] row 3\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("t1 [template] {file} [vInfo] row 4\n")),
        "{text}"
    );
}

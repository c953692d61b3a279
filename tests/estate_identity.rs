//! One estate across exports: one vCenter however its server is written, one VM however
//! many inputs hold it (the newer export's figures), and a VM without child rows kept in
//! its cluster. Made-up exports written by the tests; the round 4 reproducers of
//! `../shared` when present.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use dsplan::demand::{self, DemandOptions};
use dsplan::ingest::read_inputs;
use dsplan::inventory::Inventory;

include!("support/command.rs");

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("estate_identity")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// One VM of a made-up vInfo: 2 vCPU, 8,192 MiB, powered on, in cluster Prod on esx1.
struct Row<'a> {
    name: &'a str,
    vm_id: &'a str,
    vm_uuid: &'a str,
    in_use_mib: u64,
}

/// `n` VMs `web-1`..: VM IDs `vm-1`.., VM UUIDs `4200-1`.., `in_use_gib` GiB each.
fn rows(n: usize, in_use_gib: u64) -> Vec<(String, String, String, u64)> {
    (1..=n)
        .map(|i| {
            (
                format!("web-{i}"),
                format!("vm-{i}"),
                format!("4200-{i}"),
                in_use_gib * 1024,
            )
        })
        .collect()
}

/// The vInfo CSV of `vms` under server `server` and instance UUID `sdk_uuid` (empty: none).
fn vinfo_text(server: &str, sdk_uuid: &str, vms: &[Row<'_>]) -> String {
    let mut text = String::from(
        "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB,Datacenter,Cluster,Host,\
         VM ID,VM UUID,VI SDK Server,VI SDK UUID\n",
    );
    for v in vms {
        text.push_str(&format!(
            "{},poweredOn,False,2,8192,{mib},{mib},DC1,Prod,esx1,{},{},{server},{sdk_uuid}\n",
            v.name,
            v.vm_id,
            v.vm_uuid,
            mib = v.in_use_mib
        ));
    }
    text
}

/// Writes the vInfo CSV `dir/name` (see [`vinfo_text`]) of `vms` (name, VM ID, VM UUID,
/// in-use MiB).
fn vinfo(
    dir: &Path,
    name: &str,
    server: &str,
    sdk_uuid: &str,
    vms: &[(String, String, String, u64)],
) -> PathBuf {
    let rows: Vec<Row<'_>> = vms
        .iter()
        .map(|(n, i, u, m)| Row {
            name: n,
            vm_id: i,
            vm_uuid: u,
            in_use_mib: *m,
        })
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, vinfo_text(server, sdk_uuid, &rows)).expect("write vInfo");
    path
}

fn read(paths: &[&PathBuf]) -> Inventory {
    read_inputs(paths).expect("the inputs read")
}

/// (VMs placed, their capacity in GiB) of the default demand.
fn placed(inv: &Inventory) -> (usize, f64) {
    let d = demand::derive(inv, &DemandOptions::default()).expect("a demand");
    (d.placed.len(), d.placed_capacity_gib)
}

fn messages(inv: &Inventory) -> Vec<&str> {
    inv.warnings.iter().map(|w| w.message.as_str()).collect()
}

/// The one warning about a pair of inputs sharing VMs.
fn pair_warning(inv: &Inventory) -> &str {
    let pair: Vec<&str> = messages(inv)
        .into_iter()
        .filter(|m| m.contains("VMs of"))
        .collect();
    assert_eq!(pair.len(), 1, "{pair:#?}");
    pair[0]
}

#[test]
fn every_spelling_of_one_vcenter_is_one_estate() {
    // 4 VMs of 10 GiB on vc1.corp.test (instance UUID U1): 40 GiB. The same export with the
    // server upper case with a trailing dot, as an IP, or as a short name: still 4 VMs,
    // 40 GiB, and one warning naming both spellings and the UUID.
    let dir = scratch("spellings");
    let vms = rows(4, 10);
    let base = vinfo(&dir, "base.csv", "vc1.corp.test", "U1", &vms);
    for (i, server) in ["VC1.CORP.TEST.", "10.1.1.1", "vc1"]
        .into_iter()
        .enumerate()
    {
        let other = vinfo(&dir, &format!("other{i}.csv"), server, "u1", &vms);
        let inv = read(&[&base, &other]);
        assert_eq!(placed(&inv), (4, 40.0), "{server}");
        assert_eq!(inv.duplicates.len(), 4, "{server}");
        let joined: Vec<&str> = messages(&inv)
            .into_iter()
            .filter(|m| m.contains("taken as one vCenter"))
            .collect();
        assert_eq!(
            joined,
            [format!(
                "VI SDK Server 'vc1.corp.test' and '{server}' taken as one vCenter (the same \
                 VI SDK UUID 'u1'): its VMs, hosts, clusters and datastores are written \
                 'vc1.corp.test' and counted once"
            )],
            "{server}"
        );
    }
}

#[test]
fn without_an_instance_uuid_the_vms_decide_conservatively() {
    // No VI SDK UUID. vc1.corp.test and 10.1.1.1 with the same 4 VM UUIDs: 4 of 4 shared
    // -> one vCenter, 4 VMs. vc2.corp.test (another full name) with the same VMs: two
    // vCenters, 8 VMs. 10.1.1.1 sharing 1 VM UUID of 4 (1 < half of 4): 8 VMs.
    let dir = scratch("no_uuid");
    let vms = rows(4, 10);
    let base = vinfo(&dir, "base.csv", "vc1.corp.test", "", &vms);
    let ip = vinfo(&dir, "ip.csv", "10.1.1.1", "", &vms);
    let inv = read(&[&base, &ip]);
    assert_eq!(placed(&inv), (4, 40.0));
    assert!(
        messages(&inv).iter().any(|m| m.contains(
            "'vc1.corp.test' and '10.1.1.1' taken as one vCenter (4 of 4 VMs of the smaller \
             have a VM of the other with the same VM UUID, or the same VM ID and name)"
        )),
        "{:#?}",
        messages(&inv)
    );
    let vc2 = vinfo(&dir, "vc2.csv", "vc2.corp.test", "", &vms);
    assert_eq!(placed(&read(&[&base, &vc2])), (8, 80.0));
    let mut few = rows(4, 10);
    for (i, vm) in few.iter_mut().enumerate().skip(1) {
        vm.2 = format!("4299-{i}");
        vm.0 = format!("other-{i}");
    }
    let ip_few = vinfo(&dir, "ip-few.csv", "10.1.1.1", "", &few);
    assert_eq!(placed(&read(&[&base, &ip_few])).0, 8);
}

#[test]
fn a_renamed_vm_is_one_vm_warned_once_per_pair() {
    // 4 VMs, 2 renamed in the later export (same vCenter UUID and VM UUIDs): 4 VMs, the
    // later's names (no dates: the last given is the newer), one warning with the count.
    let dir = scratch("renamed");
    let vms = rows(4, 10);
    let mut renamed = rows(4, 10);
    renamed[0].0 = "web-1-new".into();
    renamed[2].0 = "web-3-new".into();
    let a = vinfo(&dir, "a.csv", "vc1.corp.test", "U1", &vms);
    let b = vinfo(&dir, "b.csv", "vc1.corp.test", "U1", &renamed);
    let inv = read(&[&a, &b]);
    assert_eq!(placed(&inv), (4, 40.0));
    let names: Vec<&str> = inv.vms.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["web-1-new", "web-2", "web-3-new", "web-4"]);
    let pair = [pair_warning(&inv)];
    assert!(
        pair[0].starts_with(&format!(
            "4 VM(s) of this input are VMs of {} too (the same vCenter and VM UUID, else VM \
             ID), 2 of them renamed (first: 'web-1' here is 'web-1-new' there): the figures \
             of {} are used, it is given after this input (neither input has a vMetaData \
             creation date",
            b.display(),
            b.display()
        )),
        "{}",
        pair[0]
    );
    assert!(pair[0].contains("the copies' figures are the same (in use 40 GiB)"));
}

#[test]
fn without_dates_the_last_given_wins_and_says_so() {
    // a: 4 VMs of 10 GiB (40 GiB); b: the same VMs at 20 GiB (80 GiB). Given a, b: b's
    // 80 GiB; given b, a: a's 40 GiB. One warning each way saying the order decided.
    let dir = scratch("order");
    let a = vinfo(&dir, "a.csv", "vc1.corp.test", "U1", &rows(4, 10));
    let b = vinfo(&dir, "b.csv", "vc1.corp.test", "U1", &rows(4, 20));
    for (first, second, gib, here, there) in [(&a, &b, 80.0, 40, 80), (&b, &a, 40.0, 80, 40)] {
        let inv = read(&[first, second]);
        assert_eq!(placed(&inv), (4, gib));
        let pair = [pair_warning(&inv)];
        assert!(
            pair[0].contains(
                "it is given after this input (neither input has a vMetaData creation date: \
                 the order of the inputs decides, the last given taken as the newer)"
            ),
            "{}",
            pair[0]
        );
        assert!(
            pair[0].contains(&format!(
                "the copies differ (4 of the 4 VMs; figures: in use, provisioned): in use \
                 {here} GiB here against {there} GiB there, provisioned {here} GiB against \
                 {there} GiB; VM count 4 here against 4 there"
            )),
            "{}",
            pair[0]
        );
        assert_eq!(inv.warnings[0].file, first.display().to_string());
    }
}

/// An RVTools CSV folder `dir/name`: vInfo of `vms` on `server` (UUID U1), a vDisk row
/// per VM, vHost rows esx1 and esx2 of cluster Prod, and a vMetaData row dated `created`.
fn folder(
    dir: &Path,
    name: &str,
    server: &str,
    created: &str,
    vms: &[(String, String, String, u64)],
) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).expect("create folder");
    vinfo(&folder, "RVTools_tabvInfo.csv", server, "U1", vms);
    let mut disks = String::from("VM,Disk,Capacity MiB,VM ID,VM UUID,VI SDK Server\n");
    for (n, id, uuid, mib) in vms {
        disks.push_str(&format!("{n},Hard disk 1,{mib},{id},{uuid},{server}\n"));
    }
    let hosts = format!(
        "Host,Datacenter,Cluster,# Cores,VI SDK Server\nesx1,DC1,Prod,16,{server}\n\
         esx2,DC1,Prod,16,{server}\n"
    );
    let meta = format!(
        "RVTools major version,RVTools version,xlsx creation datetime,Server\n4.7,4.7.1.4,\
         \"{created}\",{server}\n"
    );
    for (tab, text) in [("vDisk", disks), ("vHost", hosts), ("vMetaData", meta)] {
        std::fs::write(folder.join(format!("RVTools_tab{tab}.csv")), text).expect("write");
    }
    folder
}

#[test]
fn the_newer_export_wins_in_either_order_with_its_child_rows() {
    // January's export: 4 VMs of 10 GiB; March's (server written upper case): the same VMs
    // at 20 GiB. Either order: March's 80 GiB, its 4 disks (January's 4 go with its
    // copies), hosts esx1 and esx2 once (2 vHost rows, not 4).
    let dir = scratch("dated");
    let jan = folder(
        &dir,
        "jan",
        "vc1.corp.test",
        "1/15/2026 9:00:00 AM",
        &rows(4, 10),
    );
    let mar = folder(
        &dir,
        "mar",
        "VC1.corp.test",
        "2026-03-01 08:00:00",
        &rows(4, 20),
    );
    for order in [[&jan, &mar], [&mar, &jan]] {
        let inv = read(&order);
        assert_eq!(placed(&inv), (4, 80.0));
        assert_eq!(inv.disks.len(), 4);
        assert!(inv.disks.iter().all(|d| d.capacity_mib == Some(20_480.0)));
        assert_eq!(inv.hosts.len(), 2);
        let pair = [pair_warning(&inv)];
        assert!(
            pair[0].contains(
                "it is the newer export (vMetaData xlsx creation datetime '2026-03-01 \
                 08:00:00' against '1/15/2026 9:00:00 AM' here)"
            ),
            "{}",
            pair[0]
        );
        assert!(
            pair[0].ends_with(
                "listed among the excluded VMs as duplicates with their 4 child rows (vDisk, \
                 vPartition, vSnapshot)"
            ),
            "{}",
            pair[0]
        );
    }
}

#[test]
fn year_first_day_first_and_timed_dates_pick_the_newer_export() {
    // The old export: 4 VMs of 10 GiB; the new: the same 4 at 20 GiB. In either order the
    // new one's figures are used: 4 VMs, 4 * 20 = 80 GiB.
    //   2025/01/01 10:00:00 against 2025/06/01 10:00:00: year first (as dsplan writes an
    //     .xlsx date cell), 1 January before 1 June;
    //   06.01.2025 against 01.06.2025: dotted, day first: 6 January before 1 June;
    //   2025-06-01 09:00 against 2025-06-01 10:00: the same day, 09:00 before 10:00.
    let dir = scratch("date_forms");
    let cases = [
        ("2025/01/01 10:00:00", "2025/06/01 10:00:00"),
        ("06.01.2025 10:00:00", "01.06.2025 10:00:00"),
        ("2025-06-01 09:00", "2025-06-01 10:00"),
    ];
    for (n, (old_date, new_date)) in cases.into_iter().enumerate() {
        let old = folder(&dir, &format!("old{n}"), "vc1", old_date, &rows(4, 10));
        let new = folder(&dir, &format!("new{n}"), "vc1", new_date, &rows(4, 20));
        for order in [[&old, &new], [&new, &old]] {
            let inv = read(&order);
            assert_eq!(placed(&inv), (4, 80.0), "{old_date} / {new_date}");
            let pair = pair_warning(&inv);
            assert!(
                pair.contains(&format!(
                    "it is the newer export (vMetaData xlsx creation datetime '{new_date}' \
                     against '{old_date}' here)"
                )),
                "{pair}"
            );
        }
    }
}

#[test]
fn slashed_dates_that_read_both_ways_leave_the_order_to_decide() {
    // 03/02/2025 is 2 March or 3 February; 04/02/2025 is 2 April or 4 February: 4 February
    // is before 2 March, 2 April after it, so the dates do not decide and the last given
    // is used: a (10 GiB each) then b (20 GiB each) gives 4 * 20 = 80 GiB; b then a gives
    // 4 * 10 = 40 GiB.
    let dir = scratch("ambiguous_dates");
    let a = folder(&dir, "a", "vc1", "03/02/2025", &rows(4, 10));
    let b = folder(&dir, "b", "vc1", "04/02/2025", &rows(4, 20));
    for (order, gib) in [([&a, &b], 80.0), ([&b, &a], 40.0)] {
        let inv = read(&order);
        assert_eq!(placed(&inv), (4, gib));
        let pair = pair_warning(&inv);
        assert!(
            pair.contains("the vMetaData creation dates could not be told apart")
                && pair.contains("the order of the inputs decides"),
            "{pair}"
        );
    }
    // Against 01/01/2026 (either reading 1 January 2026) both readings of 04/02/2025 are
    // earlier: the 2026 export (10 GiB each) is used in either order, 40 GiB.
    let c = folder(&dir, "c", "vc1", "01/01/2026", &rows(4, 10));
    for order in [[&b, &c], [&c, &b]] {
        assert_eq!(placed(&read(&order)), (4, 40.0));
    }
}

#[test]
fn an_xlsx_creation_date_stored_as_a_date_cell_is_read() {
    // Two workbooks of one VM (vm-1 of vc1): June's at 20 GiB in use, January's at 10 GiB,
    // each vMetaData date a real date cell. Either order June's is used: 1 VM, 20 GiB.
    let dir = scratch("date_cells");
    let book = |name: &str, month: u8, in_use_mib: f64| {
        let mut wb = rust_xlsxwriter::Workbook::new();
        let ws = wb.add_worksheet().set_name("vInfo").unwrap();
        let header = ["VM", "Powerstate", "In Use MiB", "VM ID", "VI SDK Server"];
        for (c, h) in header.iter().enumerate() {
            ws.write_string(0, c as u16, *h).unwrap();
        }
        ws.write_string(1, 0, "web-1").unwrap();
        ws.write_string(1, 1, "poweredOn").unwrap();
        ws.write_number(1, 2, in_use_mib).unwrap();
        ws.write_string(1, 3, "vm-1").unwrap();
        ws.write_string(1, 4, "vc1").unwrap();
        let ws = wb.add_worksheet().set_name("vMetaData").unwrap();
        ws.write_string(0, 0, "RVTools version").unwrap();
        ws.write_string(0, 1, "xlsx creation datetime").unwrap();
        ws.write_string(1, 0, "4.7.1.4").unwrap();
        let when = rust_xlsxwriter::ExcelDateTime::from_ymd(2025, month, 1)
            .unwrap()
            .and_hms(10, 0, 0)
            .unwrap();
        let format = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd hh:mm:ss");
        ws.write_datetime_with_format(1, 1, &when, &format).unwrap();
        let path = dir.join(name);
        wb.save(&path).unwrap();
        path
    };
    let june = book("june.xlsx", 6, 20_480.0);
    let january = book("january.xlsx", 1, 10_240.0);
    for order in [[&june, &january], [&january, &june]] {
        let inv = read(&order);
        assert_eq!(placed(&inv), (1, 20.0));
        let pair = pair_warning(&inv);
        assert!(
            pair.contains(
                "it is the newer export (vMetaData xlsx creation datetime '2025/06/01 \
                 10:00:00' against '2025/01/01 10:00:00' here)"
            ),
            "{pair}"
        );
    }
}

/// The inventory of an RVTools CSV folder `folder` of a vInfo and a vMemory tab.
fn vinfo_and_vmemory(folder: &Path, vinfo: &str, memory: &str) -> Inventory {
    std::fs::create_dir_all(folder).expect("folder");
    std::fs::write(folder.join("RVTools_tabvInfo.csv"), vinfo).expect("write");
    std::fs::write(folder.join("RVTools_tabvMemory.csv"), memory).expect("write");
    read(&[&folder.to_path_buf()])
}

/// Each VM's `VI SDK Server`.
fn servers(inv: &Inventory) -> Vec<Option<&str>> {
    inv.vms.iter().map(|v| v.vi_sdk_server.as_deref()).collect()
}

#[test]
fn a_vm_without_child_rows_takes_the_inputs_vcenter() {
    // vInfo without VI SDK Server; vMemory names vc1 for x1 and x2 (Prod). x3 (Prod) has no
    // vMemory row: the input names one vCenter, so x3 is vc1's: one cluster, Prod.
    let dir = scratch("no_child_rows");
    let vinfo = "VM,Powerstate,In Use MiB,Cluster,VM ID\nx1,poweredOn,1024,Prod,vm-1\n\
                 x2,poweredOn,1024,Prod,vm-2\nx3,poweredOn,1024,Prod,vm-3\n";
    let memory = "VM,Size MiB,Consumed,VM ID,VI SDK Server\nx1,1024,512,vm-1,vc1\n\
                  x2,1024,512,vm-2,vc1\n";
    let inv = vinfo_and_vmemory(&dir.join("one"), vinfo, memory);
    assert_eq!(servers(&inv), [Some("vc1"); 3]);
    assert_eq!(inv.summary().clusters, ["Prod"]);
    let filled: Vec<&str> = messages(&inv)
        .into_iter()
        .filter(|m| m.starts_with("vCenter of") && m.contains("without one"))
        .collect();
    assert_eq!(
        filled,
        [
            "vCenter of 1 VM(s) without one in vInfo, vCPU or vMemory taken as 'vc1', the one \
          vCenter the input names (first: 'x3'): they stay in their source clusters"
        ]
    );

    // Two vCenters: x1 on vc1 in Prod, x2 on vc2 in Dev. x3 (Prod, no row) takes vc1, the
    // one vCenter with a Prod; x4 (Test, no row) none: no vCenter has a Test.
    let vinfo = "VM,In Use MiB,Cluster,VM ID\nx1,1024,Prod,vm-1\nx2,1024,Dev,vm-2\n\
                 x3,1024,Prod,vm-3\nx4,1024,Test,vm-4\n";
    let memory = "VM,Size MiB,Consumed,VM ID,VI SDK Server\nx1,1024,512,vm-1,vc1\n\
                  x2,1024,512,vm-2,vc2\n";
    let inv = vinfo_and_vmemory(&dir.join("two"), vinfo, memory);
    assert_eq!(servers(&inv), [Some("vc1"), Some("vc2"), Some("vc1"), None]);
    assert!(messages(&inv).iter().any(|m| m.starts_with(
        "vCenter of 1 VM(s) without one in vInfo, vCPU or vMemory taken as 'vc1', the one \
         vCenter with a cluster of their cluster's name (first: 'x3')"
    )));
}

/// `fixtures/small-estate.xlsx` written again at `out` without vInfo's `VI SDK Server`,
/// `VM UUID` and `Powerstate` columns (every other sheet and cell as it is).
fn trimmed_small_estate(out: &Path) {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut wb: Xlsx<_> =
        open_workbook(root().join("fixtures/small-estate.xlsx")).expect("open the fixture");
    let mut book = rust_xlsxwriter::Workbook::new();
    for name in wb.sheet_names() {
        let range = wb.worksheet_range(&name).expect("a sheet");
        let sheet = book.add_worksheet();
        sheet.set_name(&name).expect("a sheet name");
        let header: Vec<String> = range
            .rows()
            .next()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        let dropped = |c: usize| {
            name == "vInfo"
                && ["VI SDK Server", "VM UUID", "Powerstate"]
                    .contains(&header.get(c).map(String::as_str).unwrap_or(""))
        };
        for (r, row) in range.rows().enumerate() {
            let mut col: u16 = 0;
            for (c, cell) in row.iter().enumerate() {
                if dropped(c) {
                    continue;
                }
                let r = u32::try_from(r).expect("few rows");
                let written = match cell {
                    Data::Empty => Ok(()),
                    Data::Float(v) => sheet.write_number(r, col, *v).map(|_| ()),
                    Data::Int(v) => sheet.write_number(r, col, *v as f64).map(|_| ()),
                    Data::Bool(v) => sheet.write_boolean(r, col, *v).map(|_| ()),
                    Data::DateTime(v) => sheet.write_number(r, col, v.as_f64()).map(|_| ()),
                    other => sheet.write_string(r, col, other.to_string()).map(|_| ()),
                };
                written.expect("a cell written");
                col += 1;
            }
        }
    }
    book.save(out).expect("save the trimmed copy");
}

#[test]
fn the_trimmed_small_estate_keeps_build_01_in_its_cluster() {
    // The fixture plans 2 AVS clusters (Prod, Dev) of 3 hosts: 6 hosts. Without vInfo's
    // VI SDK Server, VM UUID and Powerstate, the VMs take their vCenter and power state
    // from vMemory; build-01 has no vMemory row, and takes the one vCenter the file
    // names: still Dev's, so 2 clusters on 6 hosts (not a third of its own, 9 hosts).
    let dir = scratch("trimmed");
    let path = dir.join("trimmed.xlsx");
    trimmed_small_estate(&path);
    let out = dsplan(&["plan", &path.to_string_lossy(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (&json["summary"]["clusters"], &json["summary"]["hosts"]),
        (&serde_json::json!(2), &serde_json::json!(6))
    );
    let warnings = json["warnings"].as_array().cloned().unwrap_or_default();
    let power = warnings
        .iter()
        .find(|w| {
            w["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("power state of"))
        })
        .expect("the power state warning");
    // The cell it names holds the VM's name: the `VM` column, not `Powerstate`.
    assert_eq!(power["column"], "VM");
    assert_eq!(power["value"], "web-01");
    assert!(warnings.iter().any(|w| {
        w["message"].as_str().is_some_and(|m| {
            m.starts_with("vCenter of 1 VM(s) without one in vInfo, vCPU or vMemory")
                && m.contains("(first: 'build-01')")
        })
    }));
}

/// `../shared/fuzz-findings/round4/merge/NAME`, or `None` after printing the skip.
fn round4(name: &str) -> Option<String> {
    let p = root()
        .join("../shared/fuzz-findings/round4/merge")
        .join(name);
    if p.exists() {
        Some(p.display().to_string())
    } else {
        println!("skipped: ../shared not found");
        None
    }
}

/// (`summary.vms_placed`, `summary.placed_capacity_gib`, the warnings) of `dsplan plan
/// ARGS --format json`.
fn plan(args: &[&str]) -> (u64, f64, Vec<String>) {
    let mut all = vec!["plan", "--format", "json"];
    all.extend(args);
    let out = dsplan(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let warnings = json["warnings"]
        .as_array()
        .map(|ws| {
            ws.iter()
                .filter_map(|w| w["message"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (
        json["summary"]["vms_placed"].as_u64().unwrap_or(0),
        json["summary"]["placed_capacity_gib"]
            .as_f64()
            .unwrap_or(0.0),
        warnings,
    )
}

#[test]
fn the_round4_merge_reproducers_count_every_vm_once() {
    let Some(a) = round4("a.csv") else {
        return;
    };
    // 8 VMs of 50 GiB in use: 400 GiB, whatever the spelling of the server or the names.
    for other in [
        "a-vcupper.csv",
        "a-by-ip.csv",
        "a-vcshort.csv",
        "a-renamed.csv",
    ] {
        let Some(other) = round4(other) else {
            return;
        };
        let (vms, gib, _) = plan(&[&a, &other]);
        assert_eq!((vms, gib), (8, 400.0), "{other}");
    }
    // a-later: the same VMs at 100 GiB (800 GiB); no dates, so the last given is used and
    // the warning says so.
    let Some(later) = round4("a-later.csv") else {
        return;
    };
    for (order, gib) in [([&a, &later], 800.0), ([&later, &a], 400.0)] {
        let (vms, placed_gib, warnings) = plan(&[order[0], order[1]]);
        assert_eq!((vms, placed_gib), (8, gib));
        let pair: Vec<&String> = warnings.iter().filter(|m| m.contains("VMs of")).collect();
        assert_eq!(pair.len(), 1, "{pair:#?}");
        assert!(pair[0].contains("the last given taken as the newer"));
        assert!(pair[0].contains("the copies differ (8 of the 8 VMs"));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// An input merged with a copy of itself whose server is written in any case, with or
    /// without a trailing dot, places the VMs and the capacity of the input alone.
    #[test]
    fn a_copy_under_any_spelling_of_the_server_adds_nothing(
        sizes in proptest::collection::vec(1u64..500, 1..6),
        upper in proptest::collection::vec(proptest::bool::ANY, 13),
        dot in proptest::bool::ANY,
        with_uuid in proptest::bool::ANY,
    ) {
        let dir = scratch("proptest");
        let server = "vc1.corp.test";
        let spelled: String = server
            .chars()
            .zip(upper.iter().chain(std::iter::repeat(&false)))
            .map(|(c, &u)| if u { c.to_ascii_uppercase() } else { c })
            .chain(dot.then_some('.'))
            .collect();
        let vms: Vec<(String, String, String, u64)> = sizes
            .iter()
            .enumerate()
            .map(|(i, gib)| (format!("vm{i}"), format!("vm-{i}"), format!("4200-{i}"), gib * 1024))
            .collect();
        let sdk = if with_uuid { "U1" } else { "" };
        let alone = vinfo(&dir, "alone.csv", server, sdk, &vms);
        let copy = vinfo(&dir, "copy.csv", &spelled, sdk, &vms);
        let expected = placed(&read(&[&alone]));
        proptest::prop_assert_eq!(placed(&read(&[&alone, &copy])), expected);
        proptest::prop_assert_eq!(placed(&read(&[&copy, &alone])), expected);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Two or three exports of one vCenter (instance UUID U1), each with any subset of 6
    /// VMs, any spelling of the server, any names and sizes: one VM per distinct VM UUID,
    /// and every row read is a VM or a duplicate, counted once.
    #[test]
    fn every_row_is_one_vm_or_one_duplicate(
        inputs in proptest::collection::vec(
            (
                proptest::collection::btree_map(0usize..6, (1u64..100, proptest::bool::ANY), 1..6),
                proptest::sample::select(vec!["vc1.corp.test", "VC1.corp.test.", "10.1.1.1", "vc1"]),
            ),
            2..4,
        ),
    ) {
        let dir = scratch("proptest_rows");
        let mut paths = Vec::new();
        let mut distinct = std::collections::BTreeSet::new();
        let mut rows_read = 0;
        for (n, (vms, server)) in inputs.iter().enumerate() {
            let rows: Vec<(String, String, String, u64)> = vms
                .iter()
                .map(|(&i, &(gib, renamed))| {
                    distinct.insert(i);
                    let name = if renamed { format!("new-{i}") } else { format!("vm{i}") };
                    (name, format!("vm-{i}"), format!("4200-{i}"), gib * 1024)
                })
                .collect();
            rows_read += rows.len();
            paths.push(vinfo(&dir, &format!("in{n}.csv"), server, "U1", &rows));
        }
        let refs: Vec<&PathBuf> = paths.iter().collect();
        let inv = read(&refs);
        proptest::prop_assert_eq!(inv.vms.len(), distinct.len());
        proptest::prop_assert_eq!(inv.vms.len() + inv.duplicates.len(), rows_read);
    }
}

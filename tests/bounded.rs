//! What is kept is bounded by what a plan needs, not by what a cell or a file repeats: a
//! name longer than any vSphere name is clipped where it is read (with a warning), and the
//! per-VM performance file's warnings are grouped per cause as the readers' are; an
//! export of more VMs than one read keeps ends at the first VM row past the cap, with the
//! cap named ([`IngestError::TooManyVms`]; rows without a VM name do not count).

use std::path::{Path, PathBuf};

use dsplan::Planner;
use dsplan::ingest::{
    IngestError, IngestErrorKind, MAX_NAME_CHARS, MAX_NAMELESS_ROWS, MAX_VMS_PER_INPUT, ReadLimits,
    read_input_bytes, read_inputs, read_inputs_bytes_within, read_perf_csv,
};
use dsplan::inventory::KEPT_PER_CAUSE;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder of this test's own under cargo's temporary folder.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bounded")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A vInfo workbook of `rows` VMs (`vm-0`, `vm-1`, ...), every one in the cluster
/// `cluster`, written with rust_xlsxwriter (which stores a repeated string once, in the
/// shared-strings part, as Excel does: the cell is as long in every row, the file is not).
fn vinfo_xlsx(path: &Path, rows: u32, cluster: &str) {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet().set_name("vInfo").unwrap();
    let header = [
        "VM",
        "Powerstate",
        "Template",
        "CPUs",
        "Memory",
        "Provisioned MiB",
        "In Use MiB",
        "Datacenter",
        "Cluster",
        "VI SDK Server",
    ];
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for r in 1..=rows {
        sheet.write_string(r, 0, format!("vm-{r}")).unwrap();
        sheet.write_string(r, 1, "poweredOn").unwrap();
        sheet.write_string(r, 2, "False").unwrap();
        sheet.write_number(r, 3, 2).unwrap();
        sheet.write_number(r, 4, 8192).unwrap();
        sheet.write_number(r, 5, 102_400).unwrap();
        sheet.write_number(r, 6, 51_200).unwrap();
        sheet.write_string(r, 7, "DC1").unwrap();
        sheet.write_string(r, 8, cluster).unwrap();
        sheet.write_string(r, 9, "vc1.example.test").unwrap();
    }
    book.save(path).unwrap();
}

#[test]
fn a_long_shared_cluster_name_is_clipped_once_per_row_at_read() {
    // 200 rows share a 30,000-character cluster name (the most rust_xlsxwriter writes; the
    // round-4 reproducer had 5 million: 4 GiB to plan, a full copy per row and per design).
    let dir = scratch("long-cluster");
    let path = dir.join("long-cluster.xlsx");
    let long = "C".repeat(30_000);
    vinfo_xlsx(&path, 200, &long);
    let inv = read_inputs(&[path]).unwrap();
    assert_eq!(inv.vms.len(), 200);
    // Every VM keeps the first 256 characters (ingest::MAX_NAME_CHARS).
    assert_eq!(MAX_NAME_CHARS, 256);
    let kept = "C".repeat(256);
    assert!(
        inv.vms
            .iter()
            .all(|vm| vm.cluster.as_deref() == Some(kept.as_str()))
    );
    // One cause, 200 cells: the first KEPT_PER_CAUSE (5) warnings kept, the other 195
    // counted on the last one kept.
    let clipped: Vec<_> = inv
        .warnings
        .iter()
        .filter(|w| w.message.contains("its first 256 are kept"))
        .collect();
    assert_eq!(clipped.len(), KEPT_PER_CAUSE);
    let counted: usize = clipped.iter().map(|w| 1 + w.more_alike).sum();
    assert_eq!(counted, 200);
    let w = clipped[0];
    assert_eq!(w.column.as_deref(), Some("Cluster"));
    assert_eq!(w.sheet.as_deref(), Some("vInfo"));
    // Row 2 is the first data row (row 1 the header).
    assert_eq!(w.row, Some(2));
    assert!(
        w.message
            .starts_with("text of 30,000 characters; its first 256 are kept"),
        "{}",
        w.message
    );
    // The value quoted is clipped too (60 characters and the length).
    assert!(w.value.as_deref().unwrap().ends_with("(30,000 characters)"));
}

#[test]
fn names_up_to_256_characters_are_kept_whole_and_silent() {
    // 256 wide characters (3 bytes each in UTF-8): characters count, not bytes.
    let dir = scratch("256");
    let path = dir.join("256.xlsx");
    let name = "東".repeat(256);
    vinfo_xlsx(&path, 3, &name);
    let inv = read_inputs(&[path]).unwrap();
    assert!(
        inv.vms
            .iter()
            .all(|vm| vm.cluster.as_deref() == Some(&*name))
    );
    assert!(!inv.warnings.iter().any(|w| w.message.contains("are kept")));
}

/// The shipped small estate, and a perf CSV read against it: its header, `first` (rows
/// as written), then 3,000 rows `ghost<i>,<i>,1` of VMs the estate does not have.
fn small_estate_with_ghosts(
    test: &str,
    first: &str,
) -> (dsplan::inventory::Inventory, dsplan::ingest::PerfInput) {
    let perf = scratch(test).join("perf.csv");
    let mut csv = format!("vm,iops,throughput_mibps\n{first}");
    for i in 0..3000 {
        csv.push_str(&format!("ghost{i},{i},1\n"));
    }
    std::fs::write(&perf, csv).unwrap();
    let inv = read_inputs(&[root().join("fixtures/small-estate-vinfo.csv")]).unwrap();
    let input = read_perf_csv(&perf, &inv).unwrap();
    (inv, input)
}

#[test]
fn perf_rows_of_unknown_vms_are_warned_of_by_cause_not_by_row() {
    // 3,000 rows of VMs the inventory does not have, and one row of a VM it has.
    let (_, input) = small_estate_with_ghosts("perf-unknown", "web-01,100,5\n");
    let unknown: Vec<_> = input
        .warnings
        .iter()
        .filter(|w| w.message.contains("is not in the inventory"))
        .collect();
    // Before: 3,000 warnings (2,000,000 rows: 451 MB of JSON). Now the first 5 and a
    // count of the other 2,995 on the last.
    assert_eq!(unknown.len(), KEPT_PER_CAUSE);
    let counted: usize = unknown.iter().map(|w| 1 + w.more_alike).sum();
    assert_eq!(counted, 3000);
    assert_eq!(unknown[0].value.as_deref(), Some("ghost0"));
    // The known VM is joined.
    let joined = input.rows.iter().filter(|r| r.vm_key.is_some()).count();
    assert_eq!(joined, 1);
}

#[test]
fn a_perf_file_of_unknown_vms_says_how_many_rows_it_had() {
    // 3,000 rows, none naming a VM of the inventory: none is kept, yet the plan's warning
    // counts them all and names the first ones.
    let (inv, input) = small_estate_with_ghosts("perf-none", "");
    assert!(input.rows.is_empty());
    assert_eq!(input.rows_not_joined, 3000);
    assert_eq!(
        input.first_not_joined,
        ["ghost0", "ghost1", "ghost2", "ghost3", "ghost4"]
    );
    let plan = dsplan::Planner::new()
        .inventory(inv)
        .perf_input(input)
        .plan_estate()
        .unwrap();
    // 3,000 - 5 named = 2,995 more.
    let expected = "`perf` matched no planned VM: none of its 3,000 row(s) names a VM in the \
                    plan ('ghost0', 'ghost1', 'ghost2', 'ghost3', 'ghost4' and 2,995 more)";
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.message.starts_with(expected)),
        "{:#?}",
        plan.warnings
    );
}

#[test]
fn a_perf_row_whose_name_differs_only_in_case_joins_with_a_warning() {
    // `WEB-02` for the inventory's `web-02` (a monitoring tool's capitals): joined, warned.
    let perf = scratch("perf-case").join("perf.csv");
    std::fs::write(
        &perf,
        "vm,iops,throughput_mibps\nweb-01,1000,10\nWEB-02,2000,20\n",
    )
    .unwrap();
    let inv = read_inputs(&[root().join("fixtures/small-estate-vinfo.csv")]).unwrap();
    let input = read_perf_csv(&perf, &inv).unwrap();
    assert_eq!(input.rows_not_joined, 0);
    let keys: Vec<_> = input.rows.iter().map(|r| r.vm_key.is_some()).collect();
    assert_eq!(keys, [true, true]);
    let w: Vec<_> = input
        .warnings
        .iter()
        .filter(|w| w.message.contains("differs only in case"))
        .collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].row, Some(3));
    assert!(w[0].message.contains("'web-02'"), "{}", w[0].message);
    // The targets count both rows: 1,000 + 2,000 IOPS.
    let plan = dsplan::Planner::new()
        .inventory(inv)
        .perf_input(input)
        .options(dsplan::PlanOptions::default().hosts(3))
        .plan()
        .unwrap();
    assert_eq!(plan.performance.iops_target, 3_000.0);
}

/// A vInfo CSV of `named` VMs (`v0`, `v1`, ...) of cluster `c`, then `nameless` rows with
/// values but no VM name, then one row whose name is a no-break space only.
fn vinfo_csv(named: usize, nameless: usize) -> Vec<u8> {
    let mut csv = String::from(
        "\"VM\",\"Powerstate\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\"In Use MiB\",\"Cluster\"\n",
    );
    for i in 0..named {
        csv.push_str(&format!(
            "\"v{i}\",\"poweredOn\",\"1\",\"1024\",\"1\",\"1\",\"c\"\n"
        ));
    }
    for _ in 0..nameless {
        csv.push_str(",\"poweredOn\",\"1\",\"1024\",\"1\",\"1\",\"c\"\n");
    }
    csv.push_str("\"\u{a0}\",\"poweredOn\",\"1\",\"1024\",\"1\",\"1\",\"c\"\n");
    csv.into_bytes()
}

#[test]
fn a_tab_of_a_million_rows_without_a_name_ends_its_read() {
    // The documented bound: 1,000,000 rows without a VM name in one tab (an RVTools export
    // writes none). Two VMs, then 1,000,001 nameless rows (the no-break space row after them
    // is one more): refused at the first row past the bound, the header being row 1 and the
    // VMs rows 2 and 3, so at row 3 + 1,000,001 = 1,000,004.
    assert_eq!(MAX_NAMELESS_ROWS, 1_000_000);
    let e = read_input_bytes("blank.csv", &vinfo_csv(2, 1_000_001)).unwrap_err();
    assert_eq!(e.kind(), IngestErrorKind::Malformed, "{e}");
    let text = e.to_string();
    assert!(
        text.starts_with(
            "blank.csv [vInfo] row 1000004 column 'VM': more than 1,000,000 rows without a 'VM'"
        ),
        "{text}"
    );
    // 999,999 nameless rows and the no-break space one: 1,000,000, read (the two VMs kept).
    let inv = read_input_bytes("blank.csv", &vinfo_csv(2, 999_999)).unwrap();
    assert_eq!(inv.vms.len(), 2);
}

#[test]
fn child_tabs_of_a_million_rows_without_a_name_are_left_unread() {
    // Round 4's `mem/nameless-3tabs.zip` (vInfo, vDisk and vPartition of 10 million
    // nameless rows each: 660 MiB, 70 s) scaled down: a CSV folder whose vInfo has two VMs
    // and whose vDisk and vPartition each have 1,000,001 rows without a VM name, then one
    // row of a VM `late` that vInfo lacks. Each child tab ends its read at the first
    // nameless row past the bound (the header row 1, so row 1 + 1,000,001 = 1,000,002),
    // left unread with a warning: the VMs are read, and `late`, past the bound, is never
    // reached (its row would warn of a VM vInfo lacks).
    let dir = scratch("nameless-tabs");
    std::fs::write(dir.join("RVTools_tabvInfo.csv"), vinfo_csv(2, 0)).unwrap();
    for (tab, head, nameless, late) in [
        (
            "vDisk",
            "VM,Disk,Capacity MiB\n",
            ",Hard disk 1,1\n",
            "late,Hard disk 1,1\n",
        ),
        (
            "vPartition",
            "VM,Disk,Capacity MiB,Consumed MiB\n",
            ",C:\\,1,1\n",
            "late,C:\\,1,1\n",
        ),
    ] {
        let text = format!("{head}{}{late}", nameless.repeat(MAX_NAMELESS_ROWS + 1));
        std::fs::write(dir.join(format!("RVTools_tab{tab}.csv")), text).unwrap();
    }
    let inv = read_inputs(&[&dir]).unwrap();
    assert_eq!(inv.vms.len(), 2);
    for tab in ["vDisk", "vPartition"] {
        let w = (inv.warnings.iter())
            .find(|w| w.sheet.as_deref() == Some(tab) && w.message.contains("rows without"))
            .unwrap_or_else(|| panic!("no {tab} warning: {:#?}", inv.warnings));
        assert!(
            w.message
                .contains("row 1000002 column 'VM': more than 1,000,000 rows without a 'VM'")
                && w.message.ends_with("tab not read, its data is unknown"),
            "{}",
            w.message
        );
    }
    assert!(
        !inv.warnings
            .iter()
            .any(|w| w.to_string().contains("'late'")),
        "{:#?}",
        inv.warnings
    );
}

fn limits(max_vms: usize) -> ReadLimits {
    ReadLimits::default().max_vms(max_vms)
}

#[test]
fn the_default_cap_ends_a_read_at_the_first_vm_past_250_000() {
    // The documented cap: 250,000 VMs per input (more than 5 x the 40,000 powered-on VMs
    // one vCenter runs).
    assert_eq!(MAX_VMS_PER_INPUT, 250_000);
    assert_eq!(ReadLimits::default().max_vms, 250_000);
    assert_eq!(ReadLimits::default().max_rows, usize::MAX);
    // 250,001 VMs (the shape of make_vms63.py's 1.46 million, one past the cap).
    let csv = vinfo_csv(250_001, 0);
    let e = read_input_bytes("vms.csv", &csv).unwrap_err();
    assert_eq!(e.kind(), IngestErrorKind::TooManyVms, "{e}");
    assert_eq!(e.file(), Some("vms.csv"));
    assert!(
        matches!(&e, IngestError::TooManyVms { sheet, max_vms: 250_000, .. } if sheet == "vInfo"),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with("vms.csv [vInfo]: more than 250,000 VMs"),
        "{text}"
    );
    // Why: one vCenter's maximum.
    assert!(text.contains("40,000 powered-on VMs"), "{text}");
    // 250,000 VMs and rows without a name past them read (the nameless rows and the
    // no-break space name make no VM, so they do not count).
    let csv = vinfo_csv(250_000, 3);
    let inv = read_input_bytes("vms.csv", &csv).unwrap();
    assert_eq!(inv.vms.len(), 250_000);
}

#[test]
fn a_cap_counts_vms_not_rows_in_a_csv_and_a_workbook() {
    // 11 VMs, 5 nameless rows, one name of a no-break space: 11 VMs.
    let csv = vinfo_csv(11, 5);
    let read = |max_vms| read_inputs_bytes_within(&[("vms.csv", &csv)], limits(max_vms));
    let e = read(10).unwrap_err();
    assert_eq!(e.kind(), IngestErrorKind::TooManyVms);
    assert!(e.to_string().contains("more than 10 VMs"), "{e}");
    assert_eq!(read(11).unwrap().vms.len(), 11);

    // 11 VMs in a workbook, read from a file through the planner, whose read_limits bound
    // the files as the uploads.
    let dir = scratch("xlsx");
    let path = dir.join("vms.xlsx");
    vinfo_xlsx(&path, 11, "c");
    let e = Planner::new()
        .input(&path)
        .read_limits(limits(10))
        .plan_estate()
        .unwrap_err();
    match e {
        dsplan::Error::Ingest(e) => {
            assert_eq!(e.kind(), IngestErrorKind::TooManyVms);
            assert!(
                matches!(&e, IngestError::TooManyVms { max_vms: 10, .. }),
                "{e:?}"
            );
        }
        other => panic!("expected an ingest error, got {other}"),
    }
    let estate = Planner::new()
        .input(&path)
        .read_limits(limits(11))
        .plan_estate()
        .unwrap();
    // 11 VMs placed or excluded, none left unread.
    assert_eq!(estate.summary.vms_placed + estate.summary.vms_excluded, 11);
}

#[test]
fn vms_of_one_cluster_share_one_copy_of_its_name() {
    // 1,000 VMs of cluster "Cluster1" in datacenter "DC1" of vCenter "vc1.example.test", in
    // one workbook (the 5,000,000-character name of mem/sst-clone.xlsx, 200 rows, cost a
    // copy per row before names were shared).
    let dir = scratch("shared");
    let path = dir.join("shared.xlsx");
    vinfo_xlsx(&path, 1_000, "Cluster1");
    let inv = read_inputs(&[&path]).unwrap();
    assert_eq!(inv.vms.len(), 1_000);
    let first = &inv.vms[0];
    let same = |a: &Option<std::sync::Arc<str>>, b: &Option<std::sync::Arc<str>>| match (a, b) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
        _ => false,
    };
    for vm in &inv.vms {
        assert!(same(&vm.cluster, &first.cluster), "{}", vm.name);
        assert!(same(&vm.datacenter, &first.datacenter), "{}", vm.name);
        assert!(same(&vm.vi_sdk_server, &first.vi_sdk_server), "{}", vm.name);
        assert!(std::sync::Arc::ptr_eq(&vm.origin.file, &first.origin.file));
        assert!(std::sync::Arc::ptr_eq(
            &vm.origin.sheet,
            &first.origin.sheet
        ));
    }
    assert_eq!(first.cluster.as_deref(), Some("Cluster1"));
    assert_eq!(&*first.origin.sheet, "vInfo");
    // The JSON writes the text, not the sharing.
    let json = serde_json::to_value(first).unwrap();
    assert_eq!(json["cluster"], "Cluster1");
    assert_eq!(json["origin"]["sheet"], "vInfo");

    // The same in a CSV: 20 VMs of cluster "c" (nameless rows make no VM).
    let csv = vinfo_csv(20, 2);
    let inv = read_input_bytes("vms.csv", &csv).unwrap();
    assert_eq!(inv.vms.len(), 20);
    let c = inv.vms[0].cluster.clone().unwrap();
    assert!(inv.vms.iter().all(|vm| {
        vm.cluster
            .as_ref()
            .is_some_and(|x| std::sync::Arc::ptr_eq(x, &c))
    }));
}

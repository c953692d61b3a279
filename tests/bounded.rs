//! What is kept is bounded by what a plan needs, not by what a cell or a file repeats: a
//! name longer than any vSphere name is clipped where it is read (with a warning), and the
//! per-VM performance file's warnings are grouped per cause as the readers' are.

use std::path::{Path, PathBuf};

use dsplan::ingest::{MAX_NAME_CHARS, read_inputs, read_perf_csv};
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
        .options(dsplan::PlanOptions {
            hosts: Some(3),
            ..dsplan::PlanOptions::default()
        })
        .plan()
        .unwrap();
    assert_eq!(plan.performance.iops_target, 3_000.0);
}

//! A service's use of the library: inputs held in memory (an upload), planned through the
//! same code as files, a Live Optics workbook's performance read from the same bytes and
//! never from a file that happens to share its name.

use std::path::PathBuf;

use dsplan::ingest::{self, PerfBasis};
use dsplan::{PlanOptions, Planner};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// One cluster of 3 hosts, so the targets are those of the one plan.
fn three_hosts() -> PlanOptions {
    PlanOptions::default().hosts(3)
}

#[test]
fn a_live_optics_workbook_from_bytes_takes_its_performance_from_the_same_bytes() {
    let bytes = std::fs::read(fixture("small-estate-liveoptics.xlsx")).unwrap();
    // A name no file has, here or anywhere: the planner must not look for it on the disk.
    let name = "customer-upload-8f3a.xlsx";
    assert!(!std::path::Path::new(name).exists());
    let plan = Planner::new()
        .input_bytes(name, bytes)
        .options(three_hosts())
        .plan()
        .unwrap();
    // The fixture's VM Performance peaks add up to 5,400 IOPS and 190 MiB/s (400 + 400 +
    // 3,000 + 600 + 1,000 IOPS; 10 + 10 + 100 + 20 + 50 MiB/s; tests/liveoptics.rs reads
    // the sheet from the file and finds the same sums).
    assert_eq!(plan.performance.iops_target, 5_400.0);
    assert_eq!(plan.performance.throughput_target_mibps, 190.0);
    assert_eq!(plan.totals.vms_placed, 7);
}

#[test]
fn an_inventory_read_from_bytes_is_never_matched_to_a_file_of_its_name() {
    // The fixture's bytes under the name of the shipped RVTools fixture's path: before, the
    // planner reopened that path and took another file's figures (or failed when no such
    // file existed).
    let bytes = std::fs::read(fixture("small-estate-liveoptics.xlsx")).unwrap();
    let name = fixture("small-estate.xlsx").display().to_string();
    let inventory = ingest::read_inputs_bytes(&[(name.as_str(), bytes.as_slice())]).unwrap();
    assert!(inventory.sources.iter().all(|s| s.from_bytes));
    let plan = Planner::new()
        .inventory(inventory)
        .options(three_hosts())
        .plan()
        .unwrap();
    // No performance figures (the bytes are not the planner's), and a warning says why.
    assert_eq!(plan.performance.iops_target, 0.0);
    assert!(
        plan.warnings.iter().any(|w| w
            .message
            .contains("read from bytes the planner does not hold")),
        "{:?}",
        plan.warnings
    );
}

#[test]
fn files_and_bytes_merge_as_files_do() {
    // The RVTools fixture as a file and the file servers as bytes: the same estate as both
    // files (8 + 10 VMs read).
    let servers = std::fs::read(fixture("file-servers-vinfo.csv")).unwrap();
    let mixed = Planner::new()
        .input(fixture("small-estate.xlsx"))
        .input_bytes("file-servers-vinfo.csv", servers)
        .plan_estate()
        .unwrap();
    let files = Planner::new()
        .input(fixture("small-estate.xlsx"))
        .input(fixture("file-servers-vinfo.csv"))
        .plan_estate()
        .unwrap();
    assert_eq!(mixed.summary, files.summary);
    assert_eq!(
        mixed.summary.vms_placed + mixed.summary.vms_excluded,
        8 + 10
    );
}

#[test]
fn read_limits_bound_the_bytes_and_the_perf_basis_applies_to_them() {
    // At most 2 rows per tab: the 8-VM vInfo is refused, naming the cap.
    let bytes = std::fs::read(fixture("small-estate.xlsx")).unwrap();
    let err = Planner::new()
        .input_bytes("upload.xlsx", bytes)
        .read_limits(ingest::ReadLimits::default().max_rows(2))
        .plan_estate()
        .unwrap_err();
    assert!(err.to_string().contains("more than 2 rows"), "{err}");
    // The average basis reads the sheet's averages from the bytes as from the file.
    let bytes = std::fs::read(fixture("small-estate-liveoptics.xlsx")).unwrap();
    let plan = Planner::new()
        .input_bytes("lo.xlsx", bytes)
        .options(three_hosts().perf_basis(PerfBasis::Average))
        .plan()
        .unwrap();
    // The averages add up to 1,900 IOPS and 59 MiB/s (tests/liveoptics.rs).
    assert_eq!(plan.performance.iops_target, 1_900.0);
    assert_eq!(plan.performance.throughput_target_mibps, 59.0);
}

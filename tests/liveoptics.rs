//! Live Optics input: `fixtures/small-estate-liveoptics.xlsx` (written by
//! `examples/make_fixtures.rs`) holds the same 8 VMs as `fixtures/small-estate.xlsx`.
//!
//! Hand-worked totals of the fixture (`VMs`, `ESX Hosts`, `VM Performance`):
//!
//! | VM         | power     | vCPU | mem MiB | active | consumed | disk GiB | used GiB | guest GiB | peak IOPS | avg IOPS | max KB/s | avg KB/s |
//! |------------|-----------|------|---------|--------|----------|----------|----------|-----------|-----------|----------|----------|----------|
//! | web-01     | on        | 2    | 8192    | 2048   | 6144     | 100      | 50       | 40        | 400       | 100      | 10240    | 2048     |
//! | web-02     | on        | 2    | 8192    | 2048   | 5120     | 100      | 50       | 40        | 400       | 100      | 10240    | 2048     |
//! | db-01      | on        | 2    | 8192    | 6144   | 7168     | 1024     | 800      | 700       | 3000      | 1200     | 102400   | 40960    |
//! | app-01     | on        | 2    | 8192    | 4096   | 3072     | 200      | 100      | 80        | 600       | 200      | 20480    | 5120     |
//! | tmpl-linux | off (tmpl)| 2    | 8192    | 0      | 0        | 40       | 20       | 15        | 0         | 0        | 0        | 0        |
//! | test-01    | off       | 2    | 8192    | 0      | 0        | 500      | 250      | 200       | 0         | 0        | 0        | 0        |
//! | batch-01   | suspended | 2    | 8192    | 1024   | 1024     | 300      | 150      | 120       | 0         | 0        | 0        | 0        |
//! | build-01   | on        | 2    | 8192    | 4096   | (empty)  | 800      | 400      | 300       | 1000      | 300      | 51200    | 10240    |
//!
//! (`active` is `Used Memory (active) (MiB)`, which dsplan does not read; `consumed` is
//! `Consumed Memory (MiB)`, as the RVTools fixture's vMemory `Consumed`, where build-01 has
//! no row; `guest GiB` is `Guest VM Disk Used (MiB)` / 1024.)
//!
//! - 8 VMs: 1 template (tmpl-linux, counted apart from the power states), 5 on, 1 off,
//!   1 suspended.
//! - vCPU 8 x 2 = 16; provisioned memory 8 x 8192 = 65,536 MiB; consumed memory
//!   6144 + 5120 + 7168 + 3072 + 0 + 0 + 1024 = 22,528 MiB (build-01 unknown).
//! - Guest used, the template left out: 40 + 40 + 700 + 80 + 200 + 120 + 300 = 1,480 GiB.
//! - Provisioned 100 + 100 + 1024 + 200 + 40 + 500 + 300 + 800 = 3,064 GiB = 3,137,536 MiB;
//!   in use 50 + 50 + 800 + 100 + 20 + 250 + 150 + 400 = 1,820 GiB = 1,863,680 MiB.
//! - Hosts: 4 x 32 cores = 128 cores; 536,870,912 KiB / 1024 = 524,288 MiB each.
//! - Peak IOPS 400 + 400 + 3000 + 600 + 1000 = 5,400; average 100 + 100 + 1200 + 200 + 300
//!   = 1,900. Max KB/s (read as KiB/s, / 1024 = MiB/s) 10 + 10 + 100 + 20 + 50 = 190 MiB/s;
//!   average 2 + 2 + 40 + 5 + 10 = 59 MiB/s.

use std::path::{Path, PathBuf};

use dsplan::demand::CapacityBasis;
use dsplan::ingest::{self, IngestError, IngestErrorKind, PerfBasis};
use dsplan::inventory::PowerState;
use dsplan::plan::Plan;
use dsplan::{PlanOptions, Planner};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-lo-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn fixture_totals_by_hand() {
    let path = fixture("small-estate-liveoptics.xlsx");
    let inv = ingest::read_inputs(&[&path]).unwrap();
    assert_eq!(inv.sources.len(), 1);
    assert_eq!(inv.sources[0].format, ingest::LIVE_OPTICS_FORMAT);
    assert_eq!(inv.sources[0].tabs, vec!["VMs", "ESX Hosts"]);
    let s = inv.summary();
    assert_eq!(s.vm_count, 8);
    assert_eq!(s.template_count, 1);
    assert_eq!(s.powered_on_count, 5);
    assert_eq!(s.powered_off_count, 1);
    assert_eq!(s.suspended_count, 1);
    assert_eq!(s.provisioned_mib, 3_137_536.0);
    assert_eq!(s.in_use_mib, 1_863_680.0);
    let vcpus: u64 = inv.vms.iter().filter_map(|v| v.cpus).sum();
    assert_eq!(vcpus, 16);
    let memory: f64 = inv.vms.iter().filter_map(|v| v.memory_mib).sum();
    assert_eq!(memory, 65_536.0);
    let consumed: f64 = inv.vms.iter().filter_map(|v| v.memory_consumed_mib).sum();
    assert_eq!(consumed, 22_528.0);
    let build = inv.vms.iter().find(|v| v.name == "build-01").unwrap();
    assert_eq!(build.memory_consumed_mib, None);
    let db = inv.vms.iter().find(|v| v.name == "db-01").unwrap();
    assert_eq!(db.power_state, PowerState::PoweredOn);
    assert_eq!(db.cluster.as_deref(), Some("Prod"));
    assert_eq!(db.host.as_deref(), Some("esx-prod-01"));
    assert_eq!(db.datacenter.as_deref(), Some("DC1"));
    // The same key as the RVTools fixture's db-01 (vCenter + MOB ID, as VI SDK Server +
    // VM ID).
    assert_eq!(db.key().0, "id:vcenter.example.test:vm-103");
    assert_eq!(inv.hosts.len(), 4);
    let cores: u64 = inv.hosts.iter().filter_map(|h| h.cpu_cores).sum();
    assert_eq!(cores, 128);
    assert!(inv.hosts.iter().all(|h| h.memory_mib == Some(524_288.0)));
    assert!(inv.warnings.is_empty(), "{:?}", inv.warnings);
}

#[test]
fn performance_sheet_peak_and_average_sums() {
    let path = fixture("small-estate-liveoptics.xlsx");
    let inv = ingest::read_inputs(&[&path]).unwrap();
    for (basis, iops, mibps) in [
        (PerfBasis::Peak, 5_400.0, 190.0),
        (PerfBasis::Average, 1_900.0, 59.0),
    ] {
        let perf = ingest::read_live_optics_perf(&path, &inv, basis)
            .unwrap()
            .unwrap();
        assert_eq!(perf.rows.len(), 8);
        assert!(perf.rows.iter().all(|r| r.vm_key.is_some()));
        assert!(perf.warnings.is_empty(), "{:?}", perf.warnings);
        let sum_iops: f64 = perf.rows.iter().filter_map(|r| r.iops).sum();
        let sum_mibps: f64 = perf.rows.iter().filter_map(|r| r.throughput_mibps).sum();
        assert_eq!((sum_iops, sum_mibps), (iops, mibps), "{basis:?}");
        assert_eq!(&*perf.rows[0].origin.sheet, "VM Performance");
    }
}

/// The parts of a plan that do not name input files.
fn comparable(plan: &Plan) -> String {
    serde_json::to_string(&(
        &plan.pools,
        &plan.datastores,
        &plan.totals,
        &plan.performance,
        &plan.binding,
        &plan.alternatives,
        &plan.marginal_costs,
        &plan.vsan_comparison,
        plan.placements
            .iter()
            .map(|p| (&p.vm, &p.datastore, p.capacity_gib))
            .collect::<Vec<_>>(),
    ))
    .unwrap()
}

fn options() -> PlanOptions {
    PlanOptions::default().hosts(3)
}

#[test]
fn same_plan_as_the_rvtools_fixture() {
    // The RVTools fixture with the Live Optics peaks as a perf CSV (5,400 IOPS and 190 MiB/s
    // in all) against the Live Optics fixture alone, whose VM Performance sheet is the
    // per-VM input when no `perf` file is given.
    let dir = temp_dir("same-plan");
    let csv = dir.join("peaks.csv");
    std::fs::write(
        &csv,
        "vm,iops,throughput_mibps\nweb-01,400,10\nweb-02,400,10\ndb-01,3000,100\n\
         app-01,600,20\ntmpl-linux,0,0\ntest-01,0,0\nbatch-01,0,0\nbuild-01,1000,50\n",
    )
    .unwrap();
    let rvtools = Planner::new()
        .input(fixture("small-estate.xlsx"))
        .options(options().perf(csv))
        .plan()
        .unwrap();
    let live_optics = Planner::new()
        .input(fixture("small-estate-liveoptics.xlsx"))
        .options(options())
        .plan()
        .unwrap();
    // 1,820 GiB in use less the 20 GiB template = 1,800 GiB placed; the targets are the
    // peaks' sums.
    assert_eq!(live_optics.totals.placed_capacity_gib, 1_800.0);
    assert_eq!(live_optics.totals.vms_placed, 7);
    assert_eq!(live_optics.performance.iops_target, 5_400.0);
    assert_eq!(live_optics.performance.throughput_target_mibps, 190.0);
    assert_eq!(comparable(&live_optics), comparable(&rvtools));
    assert!(
        live_optics
            .warnings
            .iter()
            .any(|w| w.message.contains("Live Optics") && w.message.contains("peak")),
        "{:?}",
        live_optics.warnings
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn average_basis_targets_are_the_averages_sums() {
    let plan = Planner::new()
        .input(fixture("small-estate-liveoptics.xlsx"))
        .options(options().perf_basis(PerfBasis::Average))
        .plan()
        .unwrap();
    // 1,900 IOPS and 59 MiB/s (see the module docs).
    assert_eq!(plan.performance.iops_target, 1_900.0);
    assert_eq!(plan.performance.throughput_target_mibps, 59.0);
}

/// One sheet of a made-up workbook: name, headers, rows (numbers where they parse, else
/// text; an empty string leaves the cell empty).
type Sheet<'a> = (&'a str, &'a [&'a str], &'a [&'a [&'a str]]);

/// Writes a workbook of `sheets`.
fn workbook(path: &Path, sheets: &[Sheet<'_>]) {
    let mut wb = rust_xlsxwriter::Workbook::new();
    for (name, headers, rows) in sheets {
        let sheet = wb.add_worksheet().set_name(*name).unwrap();
        for (c, h) in headers.iter().enumerate() {
            sheet.write_string(0, c as u16, *h).unwrap();
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let (r, c) = (r as u32 + 1, c as u16);
                match v.parse::<f64>() {
                    Ok(n) => sheet.write_number(r, c, n).unwrap(),
                    Err(_) if v.is_empty() => sheet,
                    Err(_) => sheet.write_string(r, c, *v).unwrap(),
                };
            }
        }
    }
    wb.save(path).unwrap();
}

/// Writes `lo.xlsx` with one `VMs` sheet in a scratch folder of its own for `test`:
/// (folder, workbook).
fn vms_workbook(test: &str, headers: &[&str], rows: &[&[&str]]) -> (PathBuf, PathBuf) {
    let dir = temp_dir(test);
    let path = dir.join("lo.xlsx");
    workbook(&path, &[("VMs", headers, rows)]);
    (dir, path)
}

#[test]
fn missing_required_column_names_it_and_every_spelling() {
    let (dir, path) = vms_workbook(
        "missing-column",
        &["VM Name", "Power State", "Virtual Disk Size (MB)"],
        &[&["vm1", "poweredOn", "1024"]],
    );
    let err = ingest::read_inputs(&[&path]).unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::MissingColumn);
    let IngestError::MissingColumn {
        sheet,
        column,
        tried,
        ..
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(sheet, "VMs");
    assert_eq!(column, "Virtual Disk Used (MiB)");
    assert_eq!(
        tried,
        &["Virtual Disk Used (MiB)", "Virtual Disk Used (MB)"]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mb_spellings_and_bad_cells() {
    // The older `(MB)` labels read as MiB; a bad cell is unknown with a warning naming file,
    // sheet, row, column and value.
    let (dir, path) = vms_workbook(
        "mb-spellings",
        &[
            "VM Name",
            "Power State",
            "Virtual CPU",
            "Provisioned Memory (MB)",
            "Consumed Memory (MB)",
            "Virtual Disk Size (MB)",
            "Virtual Disk Used (MB)",
            "Guest VM Disk Used (MB)",
        ],
        &[
            &[
                "vm1",
                "poweredOn",
                "4",
                "4096",
                "1024",
                "2048",
                "512",
                "300",
            ],
            &["vm2", "poweredOff", "many", "2048", "0", "1024", "-5", ""],
        ],
    );
    let inv = ingest::read_inputs(&[&path]).unwrap();
    assert_eq!(inv.vms.len(), 2);
    let vm1 = &inv.vms[0];
    assert_eq!(vm1.cpus, Some(4));
    assert_eq!(vm1.memory_mib, Some(4096.0));
    assert_eq!(vm1.memory_consumed_mib, Some(1024.0));
    assert_eq!(vm1.provisioned_mib, Some(2048.0));
    assert_eq!(vm1.in_use_mib, Some(512.0));
    // `Guest VM Disk Used (MB)`: vm1's one guest figure, 300 MiB; vm2 has none.
    assert_eq!(inv.partitions.len(), 1);
    assert_eq!(inv.partitions[0].vm_key, vm1.key());
    assert_eq!(inv.partitions[0].consumed_mib, Some(300.0));
    let vm2 = &inv.vms[1];
    assert_eq!(vm2.cpus, None);
    assert_eq!(vm2.in_use_mib, None);
    let cpu = inv
        .warnings
        .iter()
        .find(|w| w.column.as_deref() == Some("Virtual CPU"))
        .unwrap();
    assert_eq!(cpu.file, path.display().to_string());
    assert_eq!(cpu.sheet.as_deref(), Some("VMs"));
    assert_eq!(cpu.row, Some(3));
    assert_eq!(cpu.value.as_deref(), Some("many"));
    assert!(inv.warnings.iter().any(|w| {
        w.column.as_deref() == Some("Virtual Disk Used (MB)") && w.value.as_deref() == Some("-5")
    }));
    // No VM Performance sheet: no per-VM figures.
    assert!(
        ingest::read_live_optics_perf(&path, &inv, PerfBasis::Peak)
            .unwrap()
            .is_none()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The `VMs` columns of the made-up estate of two same-named VMs.
const TWINS_VMS: &[&str] = &[
    "VM Name",
    "Power State",
    "Virtual CPU",
    "Provisioned Memory (MiB)",
    "Used Memory (active) (MiB)",
    "Consumed Memory (MiB)",
    "Virtual Disk Size (MiB)",
    "Virtual Disk Used (MiB)",
    "Guest VM Disk Used (MiB)",
    "Cluster",
    "vCenter",
    "MOB ID",
];

/// Two VMs named `sql` (MOB IDs vm-1 and vm-2) and `web` (vm-3), one vCenter:
///
/// | VM  | MOB ID | active MiB | consumed MiB | disk used GiB | guest used GiB | peak IOPS | max KB/s          |
/// |-----|--------|------------|--------------|---------------|----------------|-----------|-------------------|
/// | sql | vm-1   | 1,024      | 15,360       | 400           | 300            | 5,000     | 307,200 (300 MiB/s) |
/// | sql | vm-2   | 2,048      | 30,720       | 600           | 500            | 6,865     | 437,248 (427 MiB/s) |
/// | web | vm-3   | 512        | 6,144        | 100           | 60             | 100       | 10,240 (10 MiB/s)   |
///
/// The IOPS and KB/s are what the first test writes on its `VM Performance` sheet
/// (`perf`, the `web` row without a MOB ID).
fn write_twins(path: &Path, perf: Sheet<'_>) {
    workbook(
        path,
        &[
            (
                "VMs",
                TWINS_VMS,
                &[
                    &[
                        "sql",
                        "poweredOn",
                        "4",
                        "16384",
                        "1024",
                        "15360",
                        "524288",
                        "409600",
                        "307200",
                        "C1",
                        "vc1",
                        "vm-1",
                    ],
                    &[
                        "sql",
                        "poweredOn",
                        "8",
                        "32768",
                        "2048",
                        "30720",
                        "819200",
                        "614400",
                        "512000",
                        "C1",
                        "vc1",
                        "vm-2",
                    ],
                    &[
                        "web",
                        "poweredOn",
                        "2",
                        "8192",
                        "512",
                        "6144",
                        "204800",
                        "102400",
                        "61440",
                        "C1",
                        "vc1",
                        "vm-3",
                    ],
                ],
            ),
            perf,
        ],
    );
}

#[test]
fn same_named_vms_keep_their_own_performance_memory_and_guest_figures() {
    let dir = temp_dir("twins");
    let path = dir.join("twins.xlsx");
    // The `web` performance row has no MOB ID (joined by name).
    let perf_headers: &[&str] = &["VM Name", "MOB ID", "Peak IOPS", "Max KB/sec"];
    write_twins(
        &path,
        (
            "VM Performance",
            perf_headers,
            &[
                &["sql", "vm-1", "5000", "307200"],
                &["sql", "vm-2", "6865", "437248"],
                &["web", "", "100", "10240"],
            ],
        ),
    );
    let inv = ingest::read_inputs(&[&path]).unwrap();
    assert_eq!(inv.vms.len(), 2 + 1);
    // Consumed memory from `Consumed Memory (MiB)`, not the active column:
    // 15,360 + 30,720 + 6,144 = 52,224 MiB (active would be 1,024 + 2,048 + 512 = 3,584).
    let consumed: f64 = inv.vms.iter().filter_map(|v| v.memory_consumed_mib).sum();
    assert_eq!(consumed, 52_224.0);
    let perf = ingest::read_live_optics_perf(&path, &inv, PerfBasis::Peak)
        .unwrap()
        .unwrap();
    assert!(perf.warnings.is_empty(), "{:?}", perf.warnings);
    let keys: Vec<String> = perf
        .rows
        .iter()
        .map(|r| r.vm_key.as_ref().map(|k| k.0.clone()).unwrap_or_default())
        .collect();
    assert_eq!(keys, ["id:vc1:vm-1", "id:vc1:vm-2", "id:vc1:vm-3"]);

    let plan = |basis: CapacityBasis| {
        Planner::new()
            .input(&path)
            .options(options().capacity_basis(basis))
            .plan()
            .unwrap()
    };
    // Both sql VMs' figures count: 5,000 + 6,865 + 100 = 11,965 IOPS; 307,200 + 437,248 +
    // 10,240 KB/s / 1024 = 300 + 427 + 10 = 737 MiB/s.
    let in_use = plan(CapacityBasis::InUse);
    assert_eq!(in_use.performance.iops_target, 11_965.0);
    assert_eq!(in_use.performance.throughput_target_mibps, 737.0);
    // In use (`Virtual Disk Used`): 400 + 600 + 100 = 1,100 GiB.
    assert_eq!(in_use.totals.placed_capacity_gib, 1_100.0);
    // Guest-consumed from `Guest VM Disk Used (MiB)`: 300 + 500 + 60 = 860 GiB, no VM
    // falling back to its in-use figure.
    let guest = plan(CapacityBasis::GuestConsumed);
    assert_eq!(guest.totals.placed_capacity_gib, 860.0);
    assert!(
        !guest
            .warnings
            .iter()
            .any(|w| w.message.contains("no guest-consumed capacity")),
        "{:?}",
        guest.warnings
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_name_two_vms_share_without_a_mob_id_gives_both_its_largest_figures() {
    // The performance sheet without a MOB ID column: the two `sql` rows cannot be told
    // apart among the two `sql` VMs, so each sql VM takes the largest IOPS (max(5,000,
    // 6,865) = 6,865) and the largest MiB/s (max(102,400, 51,200) KB/s / 1024 = 100) of
    // the name's rows; web keeps its own 100 IOPS and 10,240 / 1024 = 10 MiB/s. Targets:
    // 6,865 x 2 + 100 = 13,830 IOPS and 100 x 2 + 10 = 210 MiB/s (over-counted, never
    // lost). One warning for the one shared name, its 2 rows and 2 VMs.
    let dir = temp_dir("twins-no-id");
    let path = dir.join("twins.xlsx");
    let perf_headers: &[&str] = &["VM Name", "Peak IOPS", "Max KB/sec"];
    write_twins(
        &path,
        (
            "VM Performance",
            perf_headers,
            &[
                &["sql", "5000", "102400"],
                &["sql", "6865", "51200"],
                &["web", "100", "10240"],
            ],
        ),
    );
    let inv = ingest::read_inputs(&[&path]).unwrap();
    let perf = ingest::read_live_optics_perf(&path, &inv, PerfBasis::Peak)
        .unwrap()
        .unwrap();
    let messages: Vec<&str> = perf.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "VM names that several inventory VMs share: 1 name ('sql'), 2 rows, 2 VMs; each \
             of those VMs takes the largest IOPS and the largest MiB/s of its name's rows, so \
             these figures may be counted up to 2 times in the targets"
        ]
    );
    assert_eq!(perf.warnings[0].row, Some(2));
    let plan = Planner::new()
        .input(&path)
        .options(options())
        .plan()
        .unwrap();
    assert_eq!(plan.performance.iops_target, 13_830.0);
    assert_eq!(plan.performance.throughput_target_mibps, 210.0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn without_a_consumed_memory_column_consumed_memory_is_unknown() {
    // Only the active column: consumed memory stays unknown (not the active figure), and
    // one warning at the header row says so. A warning about a VMs cell names the column
    // as the sheet spells it, in its words: the first vm1 uses 2,048 MiB of a 1,024 MiB
    // disk; two VMs named vm1 (MOB IDs vm-1, vm-2).
    let (dir, path) = vms_workbook(
        "no-consumed",
        &[
            "VM Name",
            "Used Memory (active) (MiB)",
            "Virtual Disk Size (MB)",
            "Virtual Disk Used (MB)",
            "MOB ID",
        ],
        &[
            &["vm1", "1024", "1024", "2048", "vm-1"],
            &["vm1", "512", "1024", "512", "vm-2"],
        ],
    );
    let inv = ingest::read_inputs(&[&path]).unwrap();
    assert!(inv.vms.iter().all(|v| v.memory_consumed_mib.is_none()));
    let w: Vec<_> = inv
        .warnings
        .iter()
        .filter(|w| w.message.contains("no consumed memory column"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", inv.warnings);
    assert_eq!((w[0].sheet.as_deref(), w[0].row), (Some("VMs"), Some(1)));
    assert_eq!(
        w[0].message,
        "no consumed memory column (tried 'Consumed Memory (MiB)', 'Consumed Memory (MB)'): \
         the VMs' consumed memory is unknown, so the inventory's consumed memory leaves them \
         out, and a plan on the consumed memory basis (`memory_basis`) would size them by \
         their configured memory; its 'Used Memory (active) (MiB)' column is not read in its \
         place (the memory the guest touched lately, a fraction of what the VM holds on its \
         host)"
    );
    let cells: Vec<(Option<&str>, &str)> = inv
        .warnings
        .iter()
        .map(|w| (w.column.as_deref(), w.message.as_str()))
        .collect();
    assert!(
        cells.contains(&(
            Some("Virtual Disk Used (MB)"),
            "VM 'vm1': Virtual Disk Used (2048 MiB) exceeds Virtual Disk Size (1024 MiB)"
        )),
        "{cells:?}"
    );
    assert!(
        cells
            .iter()
            .any(|(c, m)| *c == Some("VM Name") && m.starts_with("VM name 'vm1' appears 2 times")),
        "{cells:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn without_consumed_or_active_memory_the_warning_names_neither() {
    // No memory column but the provisioned one: the warning says consumed memory is
    // unknown and what that affects, and speaks of no active-memory column the sheet lacks.
    let (dir, path) = vms_workbook(
        "no-memory",
        &[
            "VM Name",
            "Provisioned Memory (MiB)",
            "Virtual Disk Size (MiB)",
            "Virtual Disk Used (MiB)",
            "MOB ID",
        ],
        &[&["vm1", "4096", "1024", "512", "vm-1"]],
    );
    let inv = ingest::read_inputs(&[&path]).unwrap();
    let w: Vec<&str> = inv
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .filter(|m| m.starts_with("no consumed memory column"))
        .collect();
    assert_eq!(
        w,
        [
            "no consumed memory column (tried 'Consumed Memory (MiB)', 'Consumed Memory (MB)'): \
          the VMs' consumed memory is unknown, so the inventory's consumed memory leaves them \
          out, and a plan on the consumed memory basis (`memory_basis`) would size them by \
          their configured memory"
        ]
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_live_optics_input_is_described_in_its_own_sheets_words() {
    // The fixture's inventory lines name `VMs` and `ESX Hosts`, not vInfo, vHost or
    // vMemory: 6,144 + 5,120 + 7,168 + 3,072 + 1,024 = 22,528 MiB = 22 GiB consumed for 7
    // of the 8 VMs (build-01's cell is empty).
    let path = fixture("small-estate-liveoptics.xlsx");
    let inv = ingest::read_inputs(&[&path]).unwrap();
    let text = dsplan::report::render_inventory(&inv, dsplan::report::Format::Text).unwrap();
    assert!(
        text.contains("22 GiB consumed (VMs `Consumed Memory`) for 7 of 8 VMs"),
        "{text}"
    );
    assert!(
        text.contains("hosts of Prod: 2 from ESX Hosts rows (VMs Host names agree)"),
        "{text}"
    );
    for rvtools in ["vInfo", "vHost", "vMemory"] {
        assert!(!text.contains(rvtools), "{rvtools}: {text}");
    }
}

#[test]
fn guest_consumed_basis_is_the_fixtures_guest_vm_disk_used() {
    // `Guest VM Disk Used (MiB)`, the template left out: 40 + 40 + 700 + 80 + 200 + 120 +
    // 300 = 1,480 GiB (see the module docs), against 1,800 GiB in use.
    let plan = Planner::new()
        .input(fixture("small-estate-liveoptics.xlsx"))
        .options(options().capacity_basis(CapacityBasis::GuestConsumed))
        .plan()
        .unwrap();
    assert_eq!(plan.totals.placed_capacity_gib, 1_480.0);
}

/// Round 4's `lo-perf-1m-unknown.xlsx` (`gen/make_lo_perf_unknown.py`: a `VM Performance`
/// sheet of 1,000,000 VMs the `VMs` sheet lacks, 1,000,004 warnings and 248 MB of JSON),
/// scaled down to 3,000 rows `ghost<i>` (MOB ID `vm-g<i>`) beside the three twins VMs:
/// the unknown VMs are warned of by cause like the readers' (the first
/// [`dsplan::inventory::KEPT_PER_CAUSE`] = 5 kept, the other 2,995 counted on the last),
/// and the plan's one summary counts the 3,000 rows and names the first 5.
#[test]
fn performance_rows_of_unknown_vms_are_warned_of_by_cause_not_by_row() {
    let dir = temp_dir("perf-ghosts");
    let path = dir.join("ghosts.xlsx");
    let perf_headers: &[&str] = &["VM Name", "MOB ID", "Peak IOPS", "Max KB/sec"];
    let cells: Vec<[String; 4]> = (0..3000)
        .map(|i| {
            [
                format!("ghost{i}"),
                format!("vm-g{i}"),
                i.to_string(),
                "1".into(),
            ]
        })
        .collect();
    let rows: Vec<Vec<&str>> = cells
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let rows: Vec<&[&str]> = rows.iter().map(Vec::as_slice).collect();
    write_twins(&path, ("VM Performance", perf_headers, &rows));
    let inv = ingest::read_inputs(&[&path]).unwrap();
    assert_eq!(inv.vms.len(), 3);
    let perf = ingest::read_live_optics_perf(&path, &inv, PerfBasis::Peak)
        .unwrap()
        .unwrap();
    let unknown: Vec<_> = (perf.warnings.iter())
        .filter(|w| w.message.contains("is not in the inventory"))
        .collect();
    assert_eq!(dsplan::inventory::KEPT_PER_CAUSE, 5);
    assert_eq!(unknown.len(), 5, "{:#?}", perf.warnings);
    let counted: usize = unknown.iter().map(|w| 1 + w.more_alike).sum();
    assert_eq!(counted, 3000);
    // The value quoted is the row's key, its MOB ID.
    assert_eq!(unknown[0].value.as_deref(), Some("vm-g0"));
    assert!(
        unknown[0]
            .message
            .starts_with("VM 'ghost0' (MOB ID 'vm-g0') is not in the inventory"),
        "{}",
        unknown[0].message
    );
    assert!(perf.rows.is_empty());
    // The plan: a handful of warnings, not one per row; 3,000 - 5 named = 2,995 more.
    let plan = Planner::new()
        .input(&path)
        .options(options())
        .plan()
        .unwrap();
    assert!(plan.warnings.len() < 30, "{}", plan.warnings.len());
    let summary: Vec<&str> = (plan.warnings.iter().map(|w| w.message.as_str()))
        .filter(|m| m.starts_with("`perf` matched no planned VM"))
        .collect();
    assert_eq!(summary.len(), 1, "{:#?}", plan.warnings);
    assert!(
        summary[0].contains(
            "none of its 3,000 row(s) names a VM in the plan ('ghost0', 'ghost1', 'ghost2', \
             'ghost3', 'ghost4' and 2,995 more)"
        ),
        "{}",
        summary[0]
    );
    let _ = std::fs::remove_dir_all(dir);
}

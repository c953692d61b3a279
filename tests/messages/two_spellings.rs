//! A vInfo whose header holds two spellings of a field (`In Use MiB` and `In Use MB`, as in
//! RVTools exports from before and after 4.1.2 merged into one sheet): each row reads the
//! MiB cell, and the MB cell where the MiB one is empty (same figures: RVTools' MB columns
//! hold MiB). CSV and xlsx alike.

use std::path::{Path, PathBuf};

use dsplan::demand::{DemandOptions, derive};
use dsplan::inventory::Inventory;
use rust_xlsxwriter::Workbook;

use super::{read, scratch, warnings_with, write};

const HEADER: [&str; 7] = [
    "VM",
    "Powerstate",
    "Template",
    "Provisioned MiB",
    "In Use MiB",
    "Provisioned MB",
    "In Use MB",
];

/// The rows (sheet rows 2..7): VM, then Provisioned MiB, In Use MiB, Provisioned MB, In Use
/// MB (`None` = empty cell). Every VM is powered on and no template.
const ROWS: [(&str, [Option<f64>; 4]); 6] = [
    // Row 2: MiB only.
    ("mib-only", [Some(4096.0), Some(2048.0), None, None]),
    // Row 3: MB only (before the fallback: excluded, no capacity data).
    ("mb-only", [None, None, Some(8192.0), Some(3072.0)]),
    // Row 4: both, equal.
    (
        "both-equal",
        [Some(1024.0), Some(512.0), Some(1024.0), Some(512.0)],
    ),
    // Row 5: both, different in both fields: the MiB figures are read.
    (
        "both-differ",
        [Some(2048.0), Some(1024.0), Some(3000.0), Some(1500.0)],
    ),
    // Row 6: Provisioned in MiB, In Use only in MB (before: sized on provisioned, 5 GiB).
    ("in-use-mb", [Some(5120.0), None, None, Some(1024.0)]),
    // Row 7: Provisioned equal, In Use different: the MiB figure is read.
    (
        "in-use-differs",
        [Some(6144.0), Some(4096.0), Some(6144.0), Some(4000.0)],
    ),
];

/// Each VM's in-use GiB, worked out from [`ROWS`] (MiB / 1024, the MB cell where the MiB
/// one is empty): 2048 -> 2; 3072 (MB) -> 3; 512 -> 0.5; 1024 (MiB, not 1500) -> 1; 1024
/// (MB) -> 1; 4096 (MiB, not 4000) -> 4. In all 11.5 GiB.
const IN_USE_GIB: [(&str, f64); 6] = [
    ("mib-only", 2.0),
    ("mb-only", 3.0),
    ("both-equal", 0.5),
    ("both-differ", 1.0),
    ("in-use-mb", 1.0),
    ("in-use-differs", 4.0),
];

/// The CSV form of [`ROWS`]; the MB cell of row 4 is written `512.0`, a number equal to
/// the MiB cell's `512` though spelled differently.
fn write_csv(dir: &Path) -> PathBuf {
    let mut text = HEADER.join(",") + "\n";
    for (name, cells) in ROWS {
        let figures: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| match c {
                Some(v) if name == "both-equal" && i == 3 => format!("{v:.1}"),
                Some(v) => format!("{v}"),
                None => String::new(),
            })
            .collect();
        text += &format!("{name},poweredOn,False,{}\n", figures.join(","));
    }
    write(dir, "vinfo.csv", &text)
}

/// The xlsx form of [`ROWS`], sheet `vInfo`; empty cells are not written.
fn write_xlsx(dir: &Path) -> PathBuf {
    let path = dir.join("rvtools.xlsx");
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("vInfo").expect("sheet name");
    for (c, h) in HEADER.iter().enumerate() {
        ws.write_string(0, c as u16, *h).expect("header");
    }
    for (r, (name, cells)) in ROWS.iter().enumerate() {
        let r = r as u32 + 1;
        ws.write_string(r, 0, *name).expect("name");
        ws.write_string(r, 1, "poweredOn").expect("power");
        ws.write_string(r, 2, "False").expect("template");
        for (i, cell) in cells.iter().enumerate() {
            if let Some(v) = cell {
                ws.write_number(r, 3 + i as u16, *v).expect("figure");
            }
        }
    }
    wb.save(&path).expect("save xlsx");
    path
}

/// Every VM placed with its in-use GiB, none excluded; the header and disagreement
/// warnings as worded.
fn check(inv: &Inventory) {
    let demand = derive(inv, &DemandOptions::default()).expect("demand");
    assert!(demand.excluded.is_empty(), "{:?}", demand.excluded);
    assert_eq!(demand.placed.len(), IN_USE_GIB.len());
    for (name, gib) in IN_USE_GIB {
        let vm = demand.placed.iter().find(|v| v.name == name);
        assert_eq!(vm.map(|v| v.capacity_gib), Some(gib), "{name}");
    }
    assert_eq!(demand.placed_capacity_gib, 11.5);
    // Provisioned, read per row: 4096, 8192 (MB), 1024, 2048, 5120, 6144 MiB.
    let provisioned: Vec<Option<f64>> = inv.vms.iter().map(|v| v.provisioned_mib).collect();
    let expected = [4096.0, 8192.0, 1024.0, 2048.0, 5120.0, 6144.0].map(Some);
    assert_eq!(provisioned, expected);

    let header = warnings_with(inv, "two columns hold In Use MiB");
    assert_eq!(header.len(), 1, "{:?}", inv.warnings);
    assert!(
        header[0].contains(
            "reading 'In Use MiB' (column E), and 'In Use MB' (column G) in rows where the \
             first is empty: a MiB header is exact"
        ),
        "{}",
        header[0]
    );
    assert!(!header[0].contains("ignored"), "{}", header[0]);
    assert_eq!(
        warnings_with(inv, "two columns hold Provisioned MiB").len(),
        1
    );

    // In Use differs in rows 5 and 7 (not 4: 512 and 512.0 are one number); one warning, at
    // row 5, with the count.
    let in_use = warnings_with(inv, "different values in 'In Use MiB'");
    assert_eq!(in_use.len(), 1, "{:?}", inv.warnings);
    assert!(
        in_use[0].contains(
            "[vInfo] row 5 column 'In Use MiB' value '1024': 2 rows hold different values in \
             'In Use MiB' (column E) and 'In Use MB' (column G), the first this one (1024 and \
             1500); the 'In Use MiB' value is read, the other ignored"
        ),
        "{}",
        in_use[0]
    );
    // Provisioned differs in row 5 only (row 7 holds 6144 in both).
    let provisioned = warnings_with(inv, "different values in 'Provisioned MiB'");
    assert_eq!(provisioned.len(), 1, "{:?}", inv.warnings);
    assert!(
        provisioned[0].contains(
            "row 5 column 'Provisioned MiB' value '2048': 1 row holds different values in \
             'Provisioned MiB' (column D) and 'Provisioned MB' (column F), this one (2048 and \
             3000)"
        ),
        "{}",
        provisioned[0]
    );
}

#[test]
fn a_csv_vinfo_reads_the_mb_cell_where_the_mib_one_is_empty() {
    let dir = scratch("two_spellings_csv");
    check(&read(&write_csv(&dir)));
}

#[test]
fn an_xlsx_vinfo_reads_the_mb_cell_where_the_mib_one_is_empty() {
    let dir = scratch("two_spellings_xlsx");
    check(&read(&write_xlsx(&dir)));
}

#[test]
fn a_bad_fallback_cell_is_warned_at_its_own_column() {
    let dir = scratch("two_spellings_bad_fallback");
    // Row 2: In Use MiB empty, In Use MB not a number: in use unknown, the warning names
    // the MB column (the one read). Row 3: the VM name only in `VM Name`, not `VM`:
    // read from the fallback too.
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,VM Name,Provisioned MiB,In Use MiB,In Use MB\na,,2048,,n/a\n,b,1024,512,\n",
    );
    let inv = read(&path);
    let names: Vec<&str> = inv.vms.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(inv.vms[0].in_use_mib, None);
    assert_eq!(inv.vms[0].provisioned_mib, Some(2048.0));
    assert_eq!(inv.vms[1].in_use_mib, Some(512.0));
    let bad = warnings_with(&inv, "not a number");
    assert_eq!(bad.len(), 1, "{:?}", inv.warnings);
    assert!(
        bad[0].contains("row 2 column 'In Use MB' value 'n/a'"),
        "{}",
        bad[0]
    );
}

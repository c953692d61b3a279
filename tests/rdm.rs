//! A VM with an RDM disk that vInfo counts in its `In Use MiB`: the capacity planned is its
//! VMDK share (src/demand/basis.rs), the warning says exactly that figure, and the text, JSON
//! and workbook outputs agree.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::io::Cursor;
use std::path::{Path, PathBuf};

use calamine::{Data, Reader, Xlsx};

include!("support/command.rs");

/// MiB per GiB.
const GIB: f64 = 1024.0;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-rdm-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an RVTools workbook of two VMs, one vCenter:
///
/// | VM     | Provisioned GiB | In Use GiB | vDisk rows                                      |
/// |--------|-----------------|------------|-------------------------------------------------|
/// | sql-01 | 3,500           | 2,600      | 100 thick, 1,000 thin, 2,048 RDM (`Raw` True)   |
/// | app-01 | 200             | 100        | 200 thin                                        |
fn write_estate(path: &Path) {
    use Cell::{N, T};
    let mut wb = rust_xlsxwriter::Workbook::new();
    let vinfo: Vec<Vec<Cell>> = [
        ("sql-01", "vm-1", 3_500.0, 2_600.0),
        ("app-01", "vm-2", 200.0, 100.0),
    ]
    .into_iter()
    .map(|(vm, id, provisioned, in_use)| {
        let (on, no) = (T("poweredOn"), T("False"));
        let (cpus, memory) = (N(4.0), N(16_384.0));
        let sizes = [N(provisioned * GIB), N(in_use * GIB)];
        let mut row = vec![T(vm), on, no, cpus, memory];
        row.extend(sizes);
        row.extend([T("C1"), T(id), T("vc1")]);
        row
    })
    .collect();
    let headers = [
        "VM",
        "Powerstate",
        "Template",
        "CPUs",
        "Memory",
        "Provisioned MiB",
        "In Use MiB",
        "Cluster",
        "VM ID",
        "VI SDK Server",
    ];
    write_sheet(&mut wb, "vInfo", &headers, &vinfo);
    let vdisk: Vec<Vec<Cell>> = [
        ("sql-01", "vm-1", "Hard disk 1", 100.0, "False", "False"),
        ("sql-01", "vm-1", "Hard disk 2", 1_000.0, "False", "True"),
        ("sql-01", "vm-1", "Hard disk 3", 2_048.0, "True", "False"),
        ("app-01", "vm-2", "Hard disk 1", 200.0, "False", "True"),
    ]
    .into_iter()
    .map(|(vm, id, disk, gib, raw, thin)| {
        vec![
            T(vm),
            T(disk),
            N(gib * GIB),
            T(raw),
            T(thin),
            T(id),
            T("vc1"),
        ]
    })
    .collect();
    let headers = [
        "VM",
        "Disk",
        "Capacity MiB",
        "Raw",
        "Thin",
        "VM ID",
        "VI SDK Server",
    ];
    write_sheet(&mut wb, "vDisk", &headers, &vdisk);
    wb.save(path).unwrap();
}

/// A cell to write: text or a number.
enum Cell {
    T(&'static str),
    N(f64),
}

/// Adds sheet `name` to `wb`: `headers`, then `rows`.
fn write_sheet(
    wb: &mut rust_xlsxwriter::Workbook,
    name: &str,
    headers: &[&str],
    rows: &[Vec<Cell>],
) {
    let sheet = wb.add_worksheet().set_name(name).unwrap();
    for (c, h) in headers.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (r, c) = (r as u32 + 1, c as u16);
            match cell {
                Cell::T(t) => sheet.write_string(r, c, *t).unwrap(),
                Cell::N(n) => sheet.write_number(r, c, *n).unwrap(),
            };
        }
    }
}

/// The GiB a warning says is planned (`planned X GiB`).
fn planned_in(message: &str) -> f64 {
    let rest = message
        .split_once("planned ")
        .and_then(|(_, rest)| rest.split_once(" GiB"))
        .map(|(figure, _)| figure.replace(',', ""))
        .unwrap_or_else(|| panic!("no 'planned X GiB' in: {message}"));
    rest.parse().unwrap()
}

#[test]
fn the_vmdk_share_is_planned_and_said_alike_in_text_json_and_xlsx() {
    let dir = scratch("agree");
    let input = dir.join("rdm.xlsx");
    write_estate(&input);
    let input = input.to_str().unwrap();
    // sql-01: Provisioned 3,500 GiB covers its disks 100 + 1,000 + 2,048 = 3,148 GiB, so
    // vInfo counts the RDM: planned 2,600 - 2,048 = 552 GiB (at least its 100 GiB thick
    // disk). app-01 has no RDM: 100 GiB. Placed 552 + 100 = 652 GiB.
    let hand = 552.0;
    let run = |extra: &[&str]| {
        let mut argv = vec!["plan", input, "--hosts", "3"];
        argv.extend_from_slice(extra);
        let o = dsplan(&argv);
        assert!(o.status.success(), "{argv:?}: {}", stderr(&o));
        o
    };

    let json: serde_json::Value =
        serde_json::from_slice(&run(&["--format", "json"]).stdout).unwrap();
    let placed = json["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["vm"] == "sql-01")
        .unwrap();
    assert_eq!(placed["capacity_gib"].as_f64(), Some(hand));
    assert_eq!(json["totals"]["placed_capacity_gib"].as_f64(), Some(652.0));
    let rdm: Vec<&str> = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["message"].as_str())
        .filter(|m| m.contains("RDM"))
        .collect();
    assert_eq!(rdm.len(), 1, "{rdm:?}");
    assert_eq!(planned_in(rdm[0]), hand);
    assert!(
        rdm[0].starts_with(
            "VM 'sql-01' has 2,048.0 GiB of RDM disks (vDisk `Raw`); vInfo counts them"
        ) && rdm[0].contains("so they are not planned"),
        "{}",
        rdm[0]
    );

    let text = String::from_utf8(run(&[]).stdout).unwrap();
    let warning = text
        .lines()
        .find(|l| l.contains("VM 'sql-01' has 2,048.0 GiB of RDM disks"))
        .unwrap();
    assert_eq!(planned_in(warning), hand);
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.trim_start().starts_with("sql-01 "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row.last().map(|g| g.parse::<f64>().unwrap()), Some(hand));

    let path = dir.join("plan.xlsx");
    run(&["--format", "xlsx", "-o", path.to_str().unwrap()]);
    let mut book = Xlsx::new(Cursor::new(std::fs::read(&path).unwrap())).unwrap();
    let placements = book.worksheet_range("Placements").unwrap();
    let sql = placements
        .rows()
        .find(|r| r.first() == Some(&Data::String("sql-01".into())))
        .unwrap();
    let header = placements.rows().next().unwrap();
    let gib_column = header
        .iter()
        .position(|h| h.to_string().contains("GiB"))
        .unwrap();
    assert_eq!(sql[gib_column], Data::Float(hand));
    let warnings = book.worksheet_range("Warnings").unwrap();
    let message = warnings
        .rows()
        .flat_map(|r| r.iter())
        .map(|c| c.to_string())
        .find(|c| c.contains("VM 'sql-01' has 2,048.0 GiB of RDM disks"))
        .unwrap();
    assert_eq!(planned_in(&message), hand);
    let _ = std::fs::remove_dir_all(dir);
}

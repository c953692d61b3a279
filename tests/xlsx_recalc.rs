//! The workbook recalculated by a real spreadsheet engine: LibreOffice headless loads each
//! workbook `dsplan plan --format xlsx` writes with every formula recalculated (a fresh
//! profile set to always recalculate on load, as Excel does with the workbook's
//! full-calculation flag) and saves it again; every formula cell must then hold the value
//! dsplan cached. The estate's cluster names differ only in case (`Prod`, `PROD`, `prod`)
//! or hold the characters a criteria string reads as operators (`* ? ~ = < >`), which a
//! `SUMIF`/`COUNTIF` would match to other clusters. Prints that it skipped when `soffice`
//! is not installed (`.ci/run` installs it). Every fixture is written by the test.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use calamine::{Data, Reader, Xlsx};

include!("support/command.rs");
include!("support/vinfo_csv.rs");

/// The clusters: names a criteria string would match to one another (case, `*`, `?`,
/// `~`, a leading `=`, `<` or `>`), each with two VMs of different sizes.
const CLUSTERS: [&str; 12] = [
    "Prod", "PROD", "prod", "Prod*", "Prod-2", "=Prod", ">A", "<Z", "~Prod", "a?c", "abc", "B",
];

/// The VMs of the test's vInfo CSV: two per cluster of [`CLUSTERS`], 2 vCPUs, 8,192 MiB,
/// 51,200 MiB x (its row + 1) in use, so every cluster's capacity differs.
fn vms() -> Vec<VinfoVm<'static>> {
    let vms = CLUSTERS.iter().flat_map(|c| [(*c, 0), (*c, 1)]);
    vms.enumerate()
        .map(|(i, (cluster, n))| VinfoVm {
            name: format!("{cluster}-vm{n}"),
            cpus: 2,
            memory_mib: 8192,
            in_use_mib: 51_200 * (i as u64 + 1),
            cluster,
            vm_id: format!("vm-{i}"),
        })
        .collect()
}

/// This test's own folder under the system temporary folder.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-recalc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `soffice` runs (LibreOffice is installed).
fn soffice_found() -> bool {
    Command::new("soffice")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A LibreOffice profile that recalculates every formula of an xlsx or ods file on load
/// (by default it keeps the cached values).
const RECALC_PROFILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"#;

/// LibreOffice headless, in a fresh profile that always recalculates, loads each of
/// `books` and saves it as xlsx into `out` (same file names), in one run of at most 180 s.
fn recalculate(books: &[PathBuf], out: &Path) {
    let profile = scratch().join("lo-profile");
    std::fs::create_dir_all(profile.join("user")).unwrap();
    std::fs::write(
        profile.join("user/registrymodifications.xcu"),
        RECALC_PROFILE,
    )
    .unwrap();
    std::fs::create_dir_all(out).unwrap();
    let mut child = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args(["--headless", "--calc", "--convert-to"])
        .arg("xlsx:Calc MS Excel 2007 XML")
        .arg("--outdir")
        .arg(out)
        .args(books)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("soffice starts");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("soffice did not finish converting {books:?} in 180 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(status.success(), "soffice failed: {status}");
}

/// Every formula cell of the workbook `path`: (sheet, row, column, formula, cached value),
/// rows and columns 0-based.
fn formula_cells(path: &Path) -> Vec<(String, usize, usize, String, Data)> {
    let mut book = Xlsx::new(Cursor::new(std::fs::read(path).unwrap())).unwrap();
    let mut out = Vec::new();
    for name in book.sheet_names() {
        let values = book.worksheet_range(&name).unwrap();
        let formulas = book.worksheet_formula(&name).unwrap();
        let (r0, c0) = formulas.start().unwrap_or((0, 0));
        for (r, c, f) in formulas.used_cells() {
            let (r, c) = (r + r0 as usize, c + c0 as usize);
            let v = values
                .get_value((r as u32, c as u32))
                .cloned()
                .unwrap_or(Data::Empty);
            out.push((name.clone(), r, c, f.clone(), v));
        }
    }
    out
}

/// Every value of the workbook `path`, by (sheet, row, column).
fn values(path: &Path) -> std::collections::HashMap<(String, usize, usize), Data> {
    let mut book = Xlsx::new(Cursor::new(std::fs::read(path).unwrap())).unwrap();
    let mut out = std::collections::HashMap::new();
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).unwrap();
        let (r0, c0) = range.start().unwrap_or((0, 0));
        for (r, c, d) in range.used_cells() {
            out.insert((name.clone(), r + r0 as usize, c + c0 as usize), d.clone());
        }
    }
    out
}

/// A cell's value as a number, if it is one.
fn number(d: &Data) -> Option<f64> {
    match d {
        Data::Float(v) => Some(*v),
        Data::Int(v) => Some(*v as f64),
        Data::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// Whether the recalculated value `got` is the cached `want`: numbers within 0.005 or a
/// relative 1e-9, text equal, never an error value.
fn same(want: &Data, got: &Data) -> bool {
    if matches!(got, Data::Error(_)) {
        return false;
    }
    match (number(want), number(got)) {
        (Some(a), Some(b)) => {
            (a - b).abs() <= 0.005 || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
        }
        _ => want == got,
    }
}

/// The formula cells of `book` whose value after LibreOffice's recalculation (`recalc`)
/// is not the one dsplan cached, one line each; and how many formula cells there are.
fn differences(book: &Path, recalc: &Path) -> (Vec<String>, usize) {
    let cells = formula_cells(book);
    let after = values(recalc);
    let mut out = Vec::new();
    for (sheet, r, c, f, cached) in &cells {
        let got = after
            .get(&(sheet.clone(), *r, *c))
            .cloned()
            .unwrap_or(Data::Empty);
        if !same(cached, &got) {
            out.push(format!(
                "{sheet} row {} column {}: dsplan cached {cached:?}, recalculated {got:?}: ={f}",
                r + 1,
                c + 1
            ));
        }
    }
    (out, cells.len())
}

/// A workbook whose one formula `=1+1` caches 5: after a real recalculation it holds 2, so
/// the profile's recalculation is proven to have run.
fn canary(path: &Path) {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let formula = rust_xlsxwriter::Formula::new("=1+1").set_result("5");
    wb.add_worksheet().write_formula(0, 0, formula).unwrap();
    wb.save(path).unwrap();
}

// The per-cluster plan (every cluster on ANF), the estate's default plan and the estate on
// ANF of the 12 clusters of [`CLUSTERS`]: LibreOffice recalculates every formula of the
// three workbooks and each lands on the value dsplan cached (SUMIF/COUNTIF would, for
// instance, add Prod, PROD and prod's pools into each of the three and make `Prod*` match
// `Prod-2` too). The canary `=1+1` cached as 5 must come back as 2.
#[test]
fn libreoffice_recalculates_every_formula_to_the_cached_value() {
    if !soffice_found() {
        println!("skipped: soffice (LibreOffice) not installed");
        return;
    }
    let dir = scratch();
    let input = dir.join("vinfo.csv");
    write_vinfo_csv(&input, "vc1.example.test", &vms());
    let input = input.to_str().unwrap();
    let runs: [(&str, &[&str]); 3] = [
        ("per-cluster.xlsx", &["--per-cluster"]),
        ("estate.xlsx", &[]),
        ("estate-anf.xlsx", &["--design", "anf"]),
    ];
    let mut books = Vec::new();
    for (name, flags) in runs {
        let path = dir.join(name);
        let o = dsplan(
            &[
                &[
                    "plan",
                    input,
                    "--format",
                    "xlsx",
                    "-o",
                    path.to_str().unwrap(),
                ][..],
                flags,
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        books.push(path);
    }
    let check = dir.join("canary.xlsx");
    canary(&check);
    books.push(check.clone());
    let out = dir.join("recalculated");
    recalculate(&books, &out);
    let canary_after = values(&out.join("canary.xlsx"));
    assert_eq!(
        canary_after
            .get(&("Sheet1".to_string(), 0, 0))
            .and_then(number),
        Some(2.0),
        "LibreOffice did not recalculate on load"
    );
    let mut failures = Vec::new();
    for book in &books[..books.len() - 1] {
        let name = book.file_name().unwrap();
        let (diff, total) = differences(book, &out.join(name));
        println!(
            "{}: {total} formula cells, {} differ after recalculation",
            name.to_string_lossy(),
            diff.len()
        );
        assert!(total > 0, "{name:?} has no formula");
        failures.extend(diff.into_iter().take(20));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

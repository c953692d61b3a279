//! How zips, folders and workbooks are read: every export of a zip of CSV files (one per
//! folder holding a vInfo), a tab given twice refused naming both, zip entries checked
//! against their declared size and CRC-32, tabs never read never inflated, the command
//! reading a `.zip` as the page does, and the messages for an encrypted workbook, an `.xls`
//! renamed `.xlsx`, a zip inside the zip and two sheets answering to one tab.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::io::{Read, Write};
use std::path::PathBuf;

use dsplan::ingest::{
    IngestError, IngestErrorKind, ReadLimits, read_input, read_input_bytes, read_inputs_bytes,
    read_inputs_bytes_within,
};

include!("support/command.rs");

fn fixture(name: &str) -> PathBuf {
    root().join("fixtures").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-zips-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `fixtures/small-estate-vinfo.csv`: 8 VMs (lines 2-10 but the empty line 7), vCenter
/// `vcenter.example.test`.
fn vinfo_a() -> Vec<u8> {
    std::fs::read(fixture("small-estate-vinfo.csv")).unwrap()
}

const FIXTURE_VMS: usize = 8;

/// The same 8 VMs as another vCenter's: names `b-...`, VM IDs `vm-b...`, UUIDs
/// `43000000-...`, vCenter `vc2.example.test`, so no rule could take them for the first
/// file's VMs.
fn vinfo_b() -> Vec<u8> {
    let text = String::from_utf8(vinfo_a()).unwrap();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = if i == 0 || line.starts_with("\"\",") {
            line.to_string()
        } else {
            line.replacen('"', "\"b-", 1)
                .replace("\"vm-", "\"vm-b")
                .replace("42000000-", "43000000-")
                .replace("vcenter.example.test", "vc2.example.test")
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

/// A zip of `(name, bytes)` entries, deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(*name, deflated).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Replaces every occurrence of `from` by `to` (same length) in `bytes`: renames an entry
/// in both its local header and the central directory.
fn patch(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len());
    let mut found = 0;
    for i in 0..=bytes.len() - from.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            found += 1;
        }
    }
    assert!(found >= 2, "{found} copies of the name");
}

/// Offsets of every local header (`PK\3\4`) and central directory header (`PK\1\2`).
fn headers(bytes: &[u8]) -> (Vec<usize>, Vec<usize>) {
    let at = |sig: &[u8]| {
        (0..bytes.len() - 4)
            .filter(|&i| &bytes[i..i + 4] == sig)
            .collect::<Vec<_>>()
    };
    (at(b"PK\x03\x04"), at(b"PK\x01\x02"))
}

fn error_of(result: Result<dsplan::inventory::Inventory, IngestError>) -> IngestError {
    match result {
        Ok(inv) => panic!("read {} VMs, expected a refusal", inv.vms.len()),
        Err(e) => e,
    }
}

#[test]
fn two_exports_in_two_folders_are_two_inputs() {
    let (a, b) = (vinfo_a(), vinfo_b());
    let zipped = zip_of(&[
        ("vc1/RVTools_tabvInfo.csv", &a),
        ("vc2/RVTools_tabvInfo.csv", &b),
    ]);
    // 8 + 8 = 16 VMs (main read the first entry only: 8).
    let inv = read_inputs_bytes(&[("upload.zip", zipped.as_slice())]).unwrap();
    assert_eq!(inv.vms.len(), 2 * FIXTURE_VMS);
    let files: Vec<&str> = inv.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files, ["upload.zip!/vc1/", "upload.zip!/vc2/"]);
    assert!(inv.sources.iter().all(|s| s.format == "csv-folder"));
    // One input read alone gives the same VMs.
    assert_eq!(
        read_input_bytes("upload.zip", &zipped).unwrap().vms.len(),
        2 * FIXTURE_VMS
    );
    // The command reads the zip as a path through the same code (main refused a .zip).
    let dir = scratch("two_exports");
    let path = dir.join("upload.zip");
    std::fs::write(&path, &zipped).unwrap();
    let from_path = read_input(&path).unwrap();
    assert_eq!(from_path.vms.len(), 2 * FIXTURE_VMS);
    let out = dsplan(&["inventory", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["summary"]["vm_count"], 2 * FIXTURE_VMS, "{json:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_folders_whose_names_share_their_start_stay_apart_when_clipped() {
    // Round 4's clip-collide: two folders of 70 'x' and a digit, each an export. Their
    // names are clipped as messages quote values (the first 30 and the last 30 characters
    // and the length), so the digit at the end still tells them apart.
    let (a, b) = (vinfo_a(), vinfo_b());
    let long = "x".repeat(70);
    let (one, two) = (
        format!("{long}1/RVTools_tabvInfo.csv"),
        format!("{long}2/RVTools_tabvInfo.csv"),
    );
    let zipped = zip_of(&[(one.as_str(), &a), (two.as_str(), &b)]);
    let inv = read_inputs_bytes(&[("c.zip", zipped.as_slice())]).unwrap();
    assert_eq!(inv.vms.len(), 2 * FIXTURE_VMS);
    let files: Vec<&str> = inv.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files.len(), 2);
    assert_ne!(files[0], files[1], "{files:?}");
    // "c.zip!/" then the folder clipped: it ends with its last characters, "x1/" and
    // "x2/", and says its length (72: 70 'x', the digit and the slash).
    assert!(files[0].contains("x1/ (72 characters)"), "{files:?}");
    assert!(files[1].contains("x2/ (72 characters)"), "{files:?}");
}

#[test]
fn a_zips_exports_share_the_inputs_cap_on_vms() {
    let (a, b) = (vinfo_a(), vinfo_b());
    let zipped = zip_of(&[
        ("vc1/RVTools_tabvInfo.csv", &a),
        ("vc2/RVTools_tabvInfo.csv", &b),
    ]);
    let read = |max_vms| {
        let limits = ReadLimits::default().max_vms(max_vms);
        read_inputs_bytes_within(&[("upload.zip", zipped.as_slice())], limits)
    };
    // 8 + 8 = 16 VMs: a cap of 15 ends the read in the second export, naming the input's
    // cap (15), not the 7 the first export left of it.
    let e = read(2 * FIXTURE_VMS - 1).unwrap_err();
    assert_eq!(e.kind(), IngestErrorKind::TooManyVms, "{e}");
    assert!(
        matches!(&e, IngestError::TooManyVms { file, max_vms: 15, .. } if file == "upload.zip!/vc2/"),
        "{e:?}"
    );
    assert!(e.to_string().contains("more than 15 VMs"), "{e}");
    assert_eq!(read(2 * FIXTURE_VMS).unwrap().vms.len(), 16);
}

#[test]
fn one_export_in_a_zip_keeps_the_zip_name() {
    let a = vinfo_a();
    let zipped = zip_of(&[("export/RVTools_tabvInfo.csv", &a)]);
    let inv = read_input_bytes("upload.zip", &zipped).unwrap();
    assert_eq!(inv.vms.len(), FIXTURE_VMS);
    assert_eq!(inv.sources[0].file, "upload.zip");
}

#[test]
fn a_tab_given_twice_in_one_folder_is_refused_naming_both() {
    let (a, b) = (vinfo_a(), vinfo_b());
    // Case variants side by side (main read the first: 8 of 16, no warning).
    let zipped = zip_of(&[("RVTools_tabvInfo.csv", &a), ("RVTools_tabVINFO.csv", &b)]);
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    assert_eq!(e.kind(), IngestErrorKind::Malformed);
    let msg = e.to_string();
    assert!(msg.starts_with("upload.zip: two files of one tab"), "{msg}");
    assert!(msg.contains("RVTools_tabvInfo.csv") && msg.contains("RVTools_tabVINFO.csv"));
    // Two entries of one name: written under another name, then renamed in place.
    let mut zipped = zip_of(&[("RVTools_tabvInfo.csv", &a), ("RVTools_tabvInfQ.csv", &b)]);
    patch(
        &mut zipped,
        b"RVTools_tabvInfQ.csv",
        b"RVTools_tabvInfo.csv",
    );
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    assert_eq!(e.kind(), IngestErrorKind::Malformed);
    assert!(
        e.to_string()
            .contains("two entries named RVTools_tabvInfo.csv"),
        "{e}"
    );
    // A folder holding both case variants (main: the first only).
    let dir = scratch("case_variants");
    std::fs::write(dir.join("RVTools_tabvInfo.csv"), &a).unwrap();
    std::fs::write(dir.join("RVTools_tabVINFO.csv"), &b).unwrap();
    let e = error_of(read_input(&dir));
    let msg = e.to_string();
    assert!(msg.contains("two files of one tab"), "{msg}");
    assert!(msg.contains("RVTools_tabvInfo.csv") && msg.contains("RVTools_tabVINFO.csv"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_of_tabs_without_vinfo_beside_an_export_is_refused() {
    let a = vinfo_a();
    let vhost = b"Host,Cluster\nesx-1,Prod\n";
    let zipped = zip_of(&[
        ("vc1/RVTools_tabvInfo.csv", &a),
        ("stray/RVTools_tabvHost.csv", vhost),
    ]);
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    let msg = e.to_string();
    assert!(
        msg.contains("folder 'stray/'") && msg.contains("vHost"),
        "{msg}"
    );
}

#[test]
fn an_entry_holding_more_than_it_declares_is_refused() {
    let a = vinfo_a();
    let mut zipped = zip_of(&[("RVTools_tabvInfo.csv", &a)]);
    // Declare 1,000 of the file's bytes: uncompressed size at offset 22 of the local
    // header, 24 of the central directory header (main read the first 1,000 bytes: some
    // VMs, exit 0).
    let (local, central) = headers(&zipped);
    for at in [local[0] + 22, central[0] + 24] {
        zipped[at..at + 4].copy_from_slice(&1000u32.to_le_bytes());
    }
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    assert_eq!(e.kind(), IngestErrorKind::Malformed);
    let msg = e.to_string();
    assert!(
        msg.starts_with("upload.zip/RVTools_tabvInfo.csv")
            && msg.contains("holds more than the 1,000 bytes it declares"),
        "{msg}"
    );
}

#[test]
fn an_entry_holding_less_than_it_declares_is_refused() {
    let a = vinfo_a();
    let mut zipped = zip_of(&[("RVTools_tabvInfo.csv", &a)]);
    // Declare 1,000 bytes more than the file's (main read the file and passed the
    // difference over).
    let declared = a.len() as u32 + 1000;
    let (local, central) = headers(&zipped);
    for at in [local[0] + 22, central[0] + 24] {
        zipped[at..at + 4].copy_from_slice(&declared.to_le_bytes());
    }
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    let msg = e.to_string();
    // The fixture is 2,046 bytes: 2,046 of 3,046 declared.
    assert_eq!(a.len(), 2046);
    assert!(
        msg.starts_with("upload.zip/RVTools_tabvInfo.csv")
            && msg.contains("ends after 2,046 of the 3,046 bytes it declares"),
        "{msg}"
    );
}

#[test]
fn an_entry_with_a_wrong_crc_is_refused() {
    let a = vinfo_a();
    let mut zipped = zip_of(&[("RVTools_tabvInfo.csv", &a)]);
    // CRC-32 at offset 14 of the local header, 16 of the central directory header.
    let (local, central) = headers(&zipped);
    for at in [local[0] + 14, central[0] + 16] {
        zipped[at..at + 4].copy_from_slice(&0xDEAD_BEEFu32.to_le_bytes());
    }
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    let msg = e.to_string();
    assert!(
        msg.starts_with("upload.zip/RVTools_tabvInfo.csv") && msg.contains("deadbeef"),
        "{msg}"
    );
}

#[test]
fn tabs_never_read_are_never_inflated() {
    let a = vinfo_a();
    // A tab no reader asks for whose deflate stream is broken (0xff: a reserved block
    // type): inflating it fails, so the read succeeds only if it is left alone (main
    // inflated every RVTools_tab*.csv entry and refused the zip).
    let mut zipped = zip_of(&[
        ("RVTools_tabvInfo.csv", &a),
        ("RVTools_tabvJunk.csv", &[b'x'; 4096]),
    ]);
    let (local, _) = headers(&zipped);
    let name_len = u16::from_le_bytes([zipped[local[1] + 26], zipped[local[1] + 27]]) as usize;
    let extra_len = u16::from_le_bytes([zipped[local[1] + 28], zipped[local[1] + 29]]) as usize;
    let data = local[1] + 30 + name_len + extra_len;
    zipped[data] = 0xff;
    let inv = read_input_bytes("upload.zip", &zipped).unwrap();
    assert_eq!(inv.vms.len(), FIXTURE_VMS);
    assert_eq!(inv.sources[0].tabs, ["vInfo"]);
}

#[test]
fn a_zip_inside_the_zip_is_named() {
    let a = vinfo_a();
    let inner = zip_of(&[("RVTools_tabvInfo.csv", &a)]);
    let outer = zip_of(&[("export/inner.zip", &inner)]);
    let e = error_of(read_input_bytes("upload.zip", &outer));
    assert_eq!(e.kind(), IngestErrorKind::NoRvtoolsFiles);
    let msg = e.to_string();
    assert!(
        msg.contains("in this zip") && msg.contains("it holds export/inner.zip"),
        "{msg}"
    );
    // Beside an export, a zip inside is one warning naming it (main: no word).
    let outer = zip_of(&[("RVTools_tabvInfo.csv", &a), ("more/inner.zip", &inner)]);
    let inv = read_input_bytes("upload.zip", &outer).unwrap();
    assert_eq!(inv.vms.len(), FIXTURE_VMS);
    assert!(
        inv.warnings
            .iter()
            .any(|w| w.file == "upload.zip" && w.message.contains("holds more/inner.zip")),
        "{:?}",
        inv.warnings
    );
    // A folder holding a workbook says so too.
    let dir = scratch("nested");
    std::fs::copy(fixture("small-estate.xlsx"), dir.join("export.xlsx")).unwrap();
    let msg = error_of(read_input(&dir)).to_string();
    assert!(
        msg.contains("in this directory") && msg.contains("it holds export.xlsx"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_encrypted_workbook_says_so_and_exits_1() {
    // fixtures/small-estate-encrypted.xlsx: small-estate.xlsx encrypted with
    // `msoffcrypto-tool -e -p secret` (an OLE compound file with an EncryptedPackage
    // stream); main said "Could not find EOCD".
    let path = fixture("small-estate-encrypted.xlsx");
    let e = error_of(read_input(&path));
    assert_eq!(e.kind(), IngestErrorKind::NotASpreadsheet);
    assert!(
        e.to_string().contains("encrypted (password-protected)"),
        "{e}"
    );
    let bytes = std::fs::read(&path).unwrap();
    let e = error_of(read_input_bytes("upload.xlsx", &bytes));
    assert!(e.to_string().contains("encrypted"), "{e}");
    let out = dsplan(&["inventory", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("encrypted"), "{}", stderr(&out));
}

#[test]
fn an_xls_renamed_xlsx_says_to_save_it_as_xlsx() {
    // An OLE compound file's header signature and nothing else.
    let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    bytes.resize(4096, 0);
    let e = error_of(read_input_bytes("old.xlsx", &bytes));
    assert!(
        e.to_string().contains("an .xls workbook: save it as .xlsx"),
        "{e}"
    );
}

/// `fixtures/small-estate.xlsx` with each part passed through `edit(name, bytes)`.
fn fixture_workbook(edit: impl Fn(&str, Vec<u8>) -> Vec<u8>) -> Vec<u8> {
    let file = std::fs::File::open(fixture("small-estate.xlsx")).unwrap();
    let mut source = zip::ZipArchive::new(file).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..source.len() {
        let mut entry = source.by_index(i).unwrap();
        let name = entry.name().unwrap().to_string();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        zip.start_file(name.as_str(), options).unwrap();
        zip.write_all(&edit(&name, data)).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// `fixtures/small-estate.xlsx` with its `vHost` sheet renamed `name`.
fn workbook_renaming_vhost(name: &str) -> Vec<u8> {
    fixture_workbook(|part, data| {
        if part != "xl/workbook.xml" {
            return data;
        }
        let text = String::from_utf8(data).unwrap();
        assert!(text.contains("name=\"vHost\""));
        text.replace("name=\"vHost\"", &format!("name=\"{name}\""))
            .into_bytes()
    })
}

#[test]
fn a_second_vinfo_like_sheet_is_refused_naming_both() {
    // Main read `vInfo` and ignored the other sheet without a word.
    for (name, shown) in [
        (" vInfo ", "' vInfo '"),
        ("VInfo", "'VInfo'"),
        ("VMs", "'VMs'"),
    ] {
        let bytes = workbook_renaming_vhost(name);
        let e = error_of(read_input_bytes("two.xlsx", &bytes));
        assert_eq!(e.kind(), IngestErrorKind::Malformed, "{e}");
        let msg = e.to_string();
        assert!(msg.contains("'vInfo'") && msg.contains(shown), "{msg}");
    }
}

#[test]
fn a_workbook_listing_a_part_twice_is_refused_naming_it() {
    // A second `xl/worksheets/sheet1.xml` (vInfo) appended under another name, then
    // renamed in place (main read one of the two without a word).
    let bytes = fixture_workbook(|_, data| data);
    let mut zip = zip::ZipWriter::new_append(std::io::Cursor::new(bytes)).unwrap();
    zip.start_file(
        "xl/worksheets/sheetQ.xml",
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    zip.write_all(&sheet_of_empty_cells(0, 0)).unwrap();
    let mut bytes = zip.finish().unwrap().into_inner();
    patch(
        &mut bytes,
        b"xl/worksheets/sheetQ.xml",
        b"xl/worksheets/sheet1.xml",
    );
    let e = error_of(read_input_bytes("twice.xlsx", &bytes));
    assert_eq!(e.kind(), IngestErrorKind::NotASpreadsheet);
    assert!(
        e.to_string()
            .contains("lists 'xl/worksheets/sheet1.xml' twice"),
        "{e}"
    );
}

/// The round-3 reproducers give the README's expected column.
#[test]
fn round3_reproducers() {
    let dir = root().join("../shared/fuzz-findings/round3");
    if !dir.exists() {
        println!("skipped: ../shared not found");
        return;
    }
    let read = |name: &str| read_input(&dir.join(name));
    // Two exports in two folders: all 16.
    assert_eq!(read("zip-two-exports-dirs.zip").unwrap().vms.len(), 16);
    // Two vInfo entries in one folder: a refusal naming both.
    let msg = error_of(read("zip-case-variants.zip")).to_string();
    assert!(msg.contains("RVTools_tabvInfo.csv") && msg.contains("RVTools_tabVINFO.csv"));
    let msg = error_of(read("zip-dup-vinfo-same-name.zip")).to_string();
    assert!(
        msg.contains("two entries named RVTools_tabvInfo.csv"),
        "{msg}"
    );
    // Damaged entries: refused naming the entry.
    for name in ["zip-size-lie.zip", "zip-crc-lie.zip"] {
        let msg = error_of(read(name)).to_string();
        assert!(
            msg.contains(&format!("{name}/RVTools_tabvInfo.csv")),
            "{msg}"
        );
    }
    for name in [
        "x-vinfo-and-space.xlsx",
        "x-vinfo-and-VInfo.xlsx",
        "x-vinfo-and-VMs.xlsx",
    ] {
        assert_eq!(error_of(read(name)).kind(), IngestErrorKind::Malformed);
    }
    let msg = error_of(read("x-xls-renamed.xlsx")).to_string();
    assert!(msg.contains("an .xls workbook: save it as .xlsx"), "{msg}");
}

/// `fixtures/small-estate.xlsx` with its vInfo sheet (sheet1) replaced by `sheet`.
fn workbook_with_vinfo(sheet: &[u8]) -> Vec<u8> {
    fixture_workbook(|part, data| {
        if part == "xl/worksheets/sheet1.xml" {
            sheet.to_vec()
        } else {
            data
        }
    })
}

/// vInfo with the header `VM`, `Provisioned MiB`, one VM, then `rows` rows of `per_row`
/// empty cells (`<c/>`).
fn sheet_of_empty_cells(rows: usize, per_row: usize) -> Vec<u8> {
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c><c r="B1" t="inlineStr"><is><t>Provisioned MiB</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>vm1</t></is></c><c r="B2"><v>100</v></c></row>"#,
    );
    for r in 0..rows {
        xml.push_str(&format!(r#"<row r="{}">"#, r + 3));
        xml.push_str(&"<c/>".repeat(per_row));
        xml.push_str("</row>");
    }
    xml.push_str("</sheetData></worksheet>");
    xml.into_bytes()
}

#[test]
fn a_sheet_of_empty_cells_is_refused_early() {
    // 1,100 rows of 1,000 empty cells = 1,100,000 empty cells against 4 with a value: past
    // the 1,048,576 floor and 32 per value; refused on the row that passes the floor,
    // 1,048,576 / 1,000 = 1,048.6, so the 1,049th empty row (row 1,051; main read it all).
    let bytes = workbook_with_vinfo(&sheet_of_empty_cells(1_100, 1_000));
    let e = error_of(read_input_bytes("empty.xlsx", &bytes));
    assert_eq!(e.kind(), IngestErrorKind::Malformed);
    let msg = e.to_string();
    assert!(msg.starts_with("empty.xlsx [vInfo] row 1051"), "{msg}");
    assert!(
        msg.contains("1,048,577 empty cells against 4 with a value"),
        "{msg}"
    );
    // Under the floor: 1,000 rows of 1,000 = 1,000,000 empty cells are read (1 VM).
    let bytes = workbook_with_vinfo(&sheet_of_empty_cells(1_000, 1_000));
    assert_eq!(read_input_bytes("empty.xlsx", &bytes).unwrap().vms.len(), 1);
}

#[test]
fn a_tab_whose_path_leaves_the_zip_is_refused_not_dropped() {
    let (a, b) = (vinfo_a(), vinfo_b());
    // "zz/" becomes "../" in both headers: an entry outside the zip's folder, which main
    // skipped in silence (8 of 16 VMs planned, exit 0).
    let mut zipped = zip_of(&[
        ("vc1/RVTools_tabvInfo.csv", &a),
        ("zz/RVTools_tabvInfo.csv", &b),
    ]);
    patch(&mut zipped, b"zz/RVTools", b"../RVTools");
    let e = error_of(read_input_bytes("upload.zip", &zipped));
    assert_eq!(e.kind(), IngestErrorKind::Malformed, "{e}");
    let message = e.to_string();
    assert!(
        message.contains("upload.zip/../RVTools_tabvInfo.csv"),
        "{message}"
    );
    assert!(message.contains("leaves the zip's own folder"), "{message}");
}

#[test]
fn a_sheet_part_that_cannot_be_inflated_is_named_with_its_sheet() {
    // small-estate.xlsx's part 7 (xl/worksheets/sheet1.xml, the vInfo sheet, 6,621 bytes)
    // declared as 100 bytes in both headers: inflating it overruns the declaration. main
    // said "zip entry 6: ..." without the part or the sheet.
    let mut bytes = std::fs::read(fixture("small-estate.xlsx")).unwrap();
    let (local, central) = headers(&bytes);
    for at in [local[6] + 22, central[6] + 24] {
        bytes[at..at + 4].copy_from_slice(&100u32.to_le_bytes());
    }
    let e = error_of(read_input_bytes("book.xlsx", &bytes));
    assert_eq!(e.kind(), IngestErrorKind::Malformed, "{e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with("book.xlsx [vInfo]: part xl/worksheets/sheet1.xml: cannot be inflated"),
        "{msg}"
    );
}

//! The bytes entry of the ingest stage (`read_input_bytes`, `read_inputs_bytes`) reads the
//! same inventory as the path entry: an xlsx, a vInfo CSV, and a zip of a CSV folder.

use std::io::Write;
use std::path::{Path, PathBuf};

use dsplan::ingest::{
    IngestErrorKind, read_input, read_input_bytes, read_inputs, read_inputs_bytes,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn json(inventory: &dsplan::inventory::Inventory) -> String {
    serde_json::to_string_pretty(inventory).unwrap()
}

/// Reading the bytes under the path's own name gives the same inventory as the path.
fn same_as_path(path: &Path) {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).unwrap();
    let from_path = read_input(path).unwrap();
    let from_bytes = read_input_bytes(&name, &bytes).unwrap();
    assert!(!from_path.vms.is_empty());
    assert_eq!(json(&from_bytes), json(&from_path));
    // The merged entry too (merge + quality checks).
    let merged_path = read_inputs(&[path]).unwrap();
    let merged_bytes = read_inputs_bytes(&[(name.as_str(), bytes.as_slice())]).unwrap();
    assert_eq!(json(&merged_bytes), json(&merged_path));
}

#[test]
fn xlsx_bytes_read_as_the_file() {
    same_as_path(&fixture("small-estate.xlsx"));
}

#[test]
fn vinfo_csv_bytes_read_as_the_file() {
    same_as_path(&fixture("small-estate-vinfo.csv"));
}

/// A CSV folder with vInfo (the fixture's) and a two-host vHost tab, and the same files
/// zipped (one deflated, one stored, inside a subfolder, plus a README the reader ignores).
fn csv_folder_and_zip() -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("dsplan-bytes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let vinfo = std::fs::read(fixture("small-estate-vinfo.csv")).unwrap();
    let vhost = b"Host,Cluster,Datacenter,# CPU,# Cores,# Memory\n\
                  esx-prod-01,Prod,DC1,2,32,524288\n\
                  esx-prod-02,Prod,DC1,2,32,524288\n";
    std::fs::write(dir.join("RVTools_tabvInfo.csv"), &vinfo).unwrap();
    std::fs::write(dir.join("RVTools_tabvHost.csv"), vhost).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("export/RVTools_tabvInfo.csv", deflated)
        .unwrap();
    zip.write_all(&vinfo).unwrap();
    zip.start_file("export/RVTools_tabvHost.csv", stored)
        .unwrap();
    zip.write_all(vhost).unwrap();
    zip.start_file("export/README.txt", stored).unwrap();
    zip.write_all(b"not a tab").unwrap();
    (dir, zip.finish().unwrap().into_inner())
}

#[test]
fn zip_of_a_csv_folder_reads_as_the_folder() {
    let (dir, zipped) = csv_folder_and_zip();
    let from_dir = read_input(&dir).unwrap();
    let from_zip = read_input_bytes("export.zip", &zipped).unwrap();
    // Two hosts from vHost, the fixture's VMs from vInfo, both tabs listed (vInfo is read first).
    assert_eq!(from_zip.hosts.len(), 2);
    assert_eq!(from_zip.vms.len(), from_dir.vms.len());
    assert_eq!(from_zip.sources[0].format, "csv-folder");
    assert_eq!(from_zip.sources[0].tabs, vec!["vInfo", "vHost"]); // read order
    // The same inventory once the names are the same: the folder's path is the zip's name,
    // and its files are the zip's entries (`export.zip/export/RVTools_tab*.csv`).
    let dir_name = dir.display().to_string();
    let renamed = json(&from_dir)
        .replace(
            &format!("{dir_name}/RVTools_tab"),
            "export.zip/export/RVTools_tab",
        )
        .replace(&dir_name, "export.zip");
    assert_eq!(json(&from_zip), renamed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_bytes_name_the_upload() {
    let err = read_input_bytes("junk.xlsx", b"this is not a workbook").unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::NotASpreadsheet);
    assert!(
        err.to_string().starts_with("junk.xlsx: not a spreadsheet"),
        "{err}"
    );
    let err = read_input_bytes("notes.txt", b"x").unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::UnsupportedExtension);
    let err = read_input_bytes(
        "empty.zip",
        b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
    )
    .unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::NoRvtoolsFiles, "{err}");
    let err = read_input_bytes("empty.csv", b"").unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::NotASpreadsheet, "{err}");
    assert!(matches!(
        read_inputs_bytes::<&str, &[u8]>(&[]).unwrap_err().kind(),
        IngestErrorKind::NoInputs
    ));
}

#[test]
fn zip_entry_declaring_too_much_is_refused_before_inflating() {
    // 80 MiB of zeros deflate ~1,000 times: past the 64 MiB floor and over the 100x ratio.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(false);
    zip.start_file("RVTools_tabvInfo.csv", deflated).unwrap();
    let block = vec![b' '; 1 << 20];
    for _ in 0..80 {
        zip.write_all(&block).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    let err = read_input_bytes("bomb.zip", &bytes).unwrap_err();
    assert_eq!(err.kind(), IngestErrorKind::Malformed, "{err}");
    assert!(err.to_string().contains("zip bomb"), "{err}");
}

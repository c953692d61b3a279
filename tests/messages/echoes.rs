//! Round-4 `msg/` findings, on fixtures written here: a VM named like a spreadsheet error
//! (`#REF!`, also as an xlsx error cell) warns at its row; an xlsx workbook named `.zip` is
//! told to be named `.xlsx`; two zip folders alike in their first 60 characters keep
//! distinguishable export names.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{read, scratch, warnings_with, write};

/// Writes a zip of `(name, bytes)` entries (deflated) at `dir/name`.
fn zip_of(dir: &Path, name: &str, entries: &[(&str, &[u8])]) -> PathBuf {
    let path = dir.join(name);
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (entry, bytes) in entries {
        zip.start_file(*entry, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    path
}

const RELS_NS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC_NS: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A one-sheet (`vInfo`) xlsx of the rows `rows` (sheet XML `<row>` elements) at
/// `dir/name`: the five parts a workbook needs, no styles or shared strings.
fn vinfo_xlsx(dir: &Path, name: &str, rows: &str) -> PathBuf {
    let types = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
    let root_rels = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS_NS}"><Relationship Id="rId1" Type="{DOC_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
    );
    let workbook = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{DOC_NS}"><sheets><sheet name="vInfo" sheetId="1" r:id="rId1"/></sheets></workbook>"#
    );
    let book_rels = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS_NS}"><Relationship Id="rId1" Type="{DOC_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#
    );
    let header = r#"<row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c><c r="B1" t="inlineStr"><is><t>Provisioned MiB</t></is></c></row>"#;
    let sheet = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{header}{rows}</sheetData></worksheet>"#
    );
    zip_of(
        dir,
        name,
        &[
            ("[Content_Types].xml", types.as_bytes()),
            ("_rels/.rels", root_rels.as_bytes()),
            ("xl/workbook.xml", workbook.as_bytes()),
            ("xl/_rels/workbook.xml.rels", book_rels.as_bytes()),
            ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
        ],
    )
}

/// A vInfo row `r` of the VM cell `vm` (XML of one `<c>`) and 100 MiB provisioned.
fn row(r: usize, vm: &str) -> String {
    format!(r#"<row r="{r}">{vm}<c r="B{r}"><v>100</v></c></row>"#)
}

#[test]
fn a_vm_named_like_a_spreadsheet_error_warns_at_its_row_and_is_kept() {
    let dir = scratch("spreadsheet_errors");
    // Row 2 a real name; row 3 an error cell (t="e") holding #REF!; row 4 the text #N/A.
    let rows = [
        row(2, r#"<c r="A2" t="inlineStr"><is><t>web-01</t></is></c>"#),
        row(3, r#"<c r="A3" t="e"><v>#REF!</v></c>"#),
        row(4, r#"<c r="A4" t="inlineStr"><is><t>#N/A</t></is></c>"#),
    ]
    .concat();
    let inv = read(&vinfo_xlsx(&dir, "errors.xlsx", &rows));
    // All three rows are VMs (the conservative choice: kept and planned).
    let names: Vec<&str> = inv.vms.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["web-01", "#REF!", "#N/A"]);
    let warned = warnings_with(&inv, "is a spreadsheet error value");
    assert_eq!(warned.len(), 2, "{warned:?}");
    assert!(
        warned[0].contains("[vInfo] row 3 column 'VM'") && warned[0].contains("'#REF!'"),
        "{}",
        warned[0]
    );
    assert!(
        warned[1].contains("[vInfo] row 4") && warned[1].contains("'#N/A'"),
        "{}",
        warned[1]
    );
    assert!(warned[0].contains("still planned"), "{}", warned[0]);
    // In a vInfo CSV, `#DIV/0!` warns too; `#hash-tag` (no error value) does not.
    let csv = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MiB\nweb-01,100\n#DIV/0!,100\n#hash-tag,100\n",
    );
    let inv = read(&csv);
    let warned = warnings_with(&inv, "is a spreadsheet error value");
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].contains("row 3") && warned[0].contains("'#DIV/0!'"),
        "{}",
        warned[0]
    );
}

#[test]
fn an_xlsx_named_zip_is_told_to_be_named_xlsx() {
    let dir = scratch("xlsx_named_zip");
    let xlsx = vinfo_xlsx(
        &dir,
        "book.xlsx",
        &row(2, r#"<c r="A2" t="inlineStr"><is><t>web-01</t></is></c>"#),
    );
    // Read as .xlsx: one VM. The same bytes named .zip: refused with the advice.
    assert_eq!(read(&xlsx).vms.len(), 1);
    let renamed = dir.join("book.zip");
    std::fs::copy(&xlsx, &renamed).unwrap();
    let err = dsplan::ingest::read_inputs(&[&renamed]).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("book.zip: an xlsx workbook named .zip (it holds xl/workbook.xml)")
            && msg.contains("name it .xlsx"),
        "{msg}"
    );
    assert!(!msg.contains("no RVTools_tab"), "{msg}");
    assert_eq!(
        dsplan::Error::from(err).kind(),
        dsplan::ErrorKind::Input,
        "an input error"
    );
}

#[test]
fn zip_folders_alike_in_their_first_60_characters_keep_distinct_names() {
    let dir = scratch("clip_collide");
    let vinfo = b"VM,Provisioned MiB\nweb-01,100\n";
    // 70 x's and a digit: the folder `x..x1/` is 72 characters, over the 60 quoted whole.
    let x70 = "x".repeat(70);
    let one = format!("{x70}1/RVTools_tabvInfo.csv");
    let two = format!("{x70}2/RVTools_tabvInfo.csv");
    // Two more alike but in the middle (a 'y' at 35 of 72): their ends are the same.
    let (head, tail) = x70.split_at(35);
    let three = format!("{head}y{}3/RVTools_tabvInfo.csv", &tail[1..]);
    let four = format!("{head}z{}3/RVTools_tabvInfo.csv", &tail[1..]);
    let zip = zip_of(
        &dir,
        "collide.zip",
        &[
            (&one, vinfo),
            (&two, vinfo),
            (&three, vinfo),
            (&four, vinfo),
        ],
    );
    let inv = read(&zip);
    let names: Vec<&str> = inv.sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    let distinct: std::collections::BTreeSet<&&str> = names.iter().collect();
    assert_eq!(distinct.len(), 4, "{names:?}");
    // Each keeps its folder's first 30 and last 30 characters (`...x1/`), and is bounded.
    let x28 = "x".repeat(28);
    assert!(
        names
            .iter()
            .any(|n| n.ends_with(&format!("...{x28}1/ (72 characters)"))),
        "{names:?}"
    );
    assert!(
        names
            .iter()
            .any(|n| n.ends_with(&format!("...{x28}2/ (72 characters)"))),
        "{names:?}"
    );
    // The two alike at both ends: the second numbered.
    assert!(
        names.iter().any(|n| n.ends_with("3/ (72 characters) #2")),
        "{names:?}"
    );
    for n in &names {
        assert!(n.len() < zip.display().to_string().len() + 120, "{n}");
    }
}

//! Structure-aware: the fuzzed bytes become the vInfo sheet XML (`xl/worksheets/sheet1.xml`)
//! of an otherwise valid workbook, `fixtures/small-estate.xlsx`.
#![no_main]
mod common;

use std::io::{Cursor, Write};

static SEED: &[u8] = include_bytes!("../../fixtures/small-estate.xlsx");

fn workbook(sheet_xml: &[u8]) -> Option<Vec<u8>> {
    let mut seed = zip::ZipArchive::new(Cursor::new(SEED)).ok()?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored);
    for i in 0..seed.len() {
        let entry = seed.by_index_raw(i).ok()?;
        if entry.name().ok()? == "xl/worksheets/sheet1.xml" {
            drop(entry);
            out.start_file("xl/worksheets/sheet1.xml", options).ok()?;
            out.write_all(sheet_xml).ok()?;
        } else {
            out.raw_copy_file(entry).ok()?;
        }
    }
    Some(out.finish().ok()?.into_inner())
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(bytes) = workbook(data) {
        let path = common::write("sheet.xlsx", &bytes);
        let _ = dsplan::ingest::read_inputs(&[path]);
    }
});

//! Structure-aware: the fuzzed bytes become the vInfo sheet XML (`xl/worksheets/sheet1.xml`)
//! of an otherwise valid workbook, `fixtures/small-estate.xlsx`.
#![no_main]
mod common;

static SEED: &[u8] = include_bytes!("../../fixtures/small-estate.xlsx");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(bytes) = common::replace_part(SEED, "xl/worksheets/sheet1.xml", data) {
        let path = common::write("sheet.xlsx", &bytes);
        let _ = dsplan::ingest::read_inputs(&[path]);
    }
});

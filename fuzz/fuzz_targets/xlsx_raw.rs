//! Raw bytes as an .xlsx file.
#![no_main]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let path = common::write("input.xlsx", data);
    let _ = dsplan::ingest::read_inputs(&[path]);
});

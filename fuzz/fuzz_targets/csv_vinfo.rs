//! A single vInfo CSV.
#![no_main]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let path = common::write("vinfo.csv", data);
    let _ = dsplan::ingest::read_inputs(&[path]);
});

//! The `perf` CSV, joined to the inventory of `fixtures/small-estate.xlsx`.
#![no_main]
mod common;

use std::sync::OnceLock;

static INVENTORY: OnceLock<dsplan::inventory::Inventory> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let inventory = INVENTORY.get_or_init(|| {
        let seed = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/small-estate.xlsx");
        dsplan::ingest::read_inputs(&[seed]).unwrap_or_default()
    });
    let path = common::write("perf.csv", data);
    let _ = dsplan::ingest::read_perf_csv(&path, inventory);
});

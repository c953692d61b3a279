//! The price file (`price_file`).
#![no_main]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let path = common::write("prices.csv", data);
    let _ = dsplan::catalog::Catalog::with_price_file(&path);
});

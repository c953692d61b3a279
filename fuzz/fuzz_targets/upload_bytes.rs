//! The web page's upload entry: the fuzzed bytes as one uploaded file, read in memory
//! within the server's default budget's row cap as `POST /api/upload` reads it, then
//! charged to the budget. The first byte picks the name: an `.xlsx`, a vInfo `.csv` or a
//! `.zip` of `RVTools_tab*.csv` files.
#![no_main]

const NAMES: [&str; 3] = ["upload.xlsx", "upload.csv", "upload.zip"];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let limits = dsplan::ingest::ReadLimits {
        max_rows: dsplan::web::budget::max_rows(dsplan::defaults::SERVE_MEMORY_BUDGET_MIB << 20),
    };
    if let Ok(inventory) = dsplan::ingest::read_inputs_bytes_within(&[(name, bytes)], limits) {
        let _ = dsplan::web::budget::charge_bytes(&inventory);
        let _ = inventory.summary();
    }
});

//! The merge of several inputs: the fuzzed bytes split at each 0xFF byte into up to four
//! vInfo CSV files (the same bytes twice when there is no 0xFF), read from memory and
//! merged as `dsplan plan a.csv b.csv` merges them (duplicates removed, data-quality
//! checks), then summed.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut parts: Vec<(String, &[u8])> = data
        .split(|&b| b == 0xFF)
        .take(4)
        .enumerate()
        .map(|(i, part)| (format!("input-{i}.csv"), part))
        .collect();
    if parts.len() == 1 {
        parts.push(("again.csv".to_string(), data));
    }
    if let Ok(inventory) = dsplan::ingest::read_inputs_bytes(&parts) {
        let _ = inventory.summary();
    }
});

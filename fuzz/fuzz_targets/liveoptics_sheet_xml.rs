//! Structure-aware: the fuzzed bytes become one sheet's XML of an otherwise valid Live
//! Optics workbook, `fixtures/small-estate-liveoptics.xlsx` (the first byte picks `VMs`,
//! `ESX Hosts` or `VM Performance`); the workbook is read from memory as an upload is, then
//! its `VM Performance` sheet as `dsplan plan` reads it.
#![no_main]
mod common;

static SEED: &[u8] = include_bytes!("../../fixtures/small-estate-liveoptics.xlsx");

/// The sheets of the seed that the reader uses: VMs, ESX Hosts, VM Performance.
const SHEETS: [&str; 3] = [
    "xl/worksheets/sheet2.xml",
    "xl/worksheets/sheet3.xml",
    "xl/worksheets/sheet4.xml",
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, xml)) = data.split_first() else {
        return;
    };
    let sheet = SHEETS[usize::from(pick) % SHEETS.len()];
    let Some(bytes) = common::replace_part(SEED, sheet, xml) else {
        return;
    };
    let Ok(inventory) = dsplan::ingest::read_input_bytes("lo.xlsx", &bytes) else {
        return;
    };
    let path = common::write("lo.xlsx", &bytes);
    let _ =
        dsplan::ingest::read_live_optics_perf(&path, &inventory, dsplan::ingest::PerfBasis::Peak);
});

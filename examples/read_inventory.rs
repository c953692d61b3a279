//! One job: reads RVTools inputs with `dsplan::ingest::read_inputs` (no demand, no plan)
//! and prints the inventory summary as JSON, then the warnings on stderr. Without
//! arguments it reads `fixtures/small-estate.xlsx`. Also used to measure the reader on its
//! own, e.g. `/usr/bin/time -v target/release/examples/read_inventory export.xlsx`.
//!
//! ```sh
//! cargo run --example read_inventory                              # the fixture
//! cargo run --example read_inventory -- export.xlsx RVTools_csv/  # inputs of yours, merged
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx").into());
    }
    match dsplan::ingest::read_inputs(&paths) {
        Ok(inventory) => {
            match serde_json::to_string_pretty(&inventory.summary()) {
                Ok(json) => println!("{json}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
            for w in &inventory.warnings {
                eprintln!("warning: {w}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

//! Reads RVTools inputs with `dsplan::ingest::read_inputs` and prints the inventory summary
//! as JSON, then the warnings on stderr. Used to measure the reader on its own, e.g.
//! `/usr/bin/time -v target/release/examples/read_inventory export.xlsx`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
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

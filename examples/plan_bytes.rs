//! One job: what a service does with an upload. The bytes of an export (here read from a
//! file, in a service from a request body) are planned on several threads at once, each
//! with its own targets, and each plan is answered as JSON; a Live Optics workbook's
//! performance figures come from the same bytes.
//!
//! ```sh
//! cargo run --example plan_bytes                       # the Live Optics fixture
//! cargo run --example plan_bytes -- export.xlsx        # an export of yours
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use dsplan::ingest::ReadLimits;
use dsplan::{PlanOptions, Planner};

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate-liveoptics.xlsx"),
        PathBuf::from,
    );
    let bytes: Arc<[u8]> = match std::fs::read(&path) {
        Ok(b) => b.into(),
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    // The upload's name says its format; only its extension is read.
    let name = path
        .file_name()
        .map_or("upload.xlsx".into(), |n| n.to_string_lossy().into_owned());
    // Four requests at once on the same bytes (shared, not copied), each its own targets.
    let answers: Vec<Result<String, dsplan::Error>> = std::thread::scope(|s| {
        let handles: Vec<_> = [0.0, 20_000.0, 50_000.0, 100_000.0]
            .into_iter()
            .map(|iops| {
                let (name, bytes) = (name.clone(), Arc::clone(&bytes));
                s.spawn(move || {
                    let plan = Planner::new()
                        .input_bytes(name, bytes)
                        // A service bounds what one upload may keep.
                        .read_limits(ReadLimits::default().max_rows(100_000))
                        .options(PlanOptions::default().iops(iops))
                        .plan_estate()?;
                    Ok(serde_json::to_string(&plan).expect("a plan serializes"))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a planning thread"))
            .collect()
    });
    for (i, answer) in answers.into_iter().enumerate() {
        match answer {
            Ok(json) => println!("request {i}: {} bytes of JSON", json.len()),
            Err(e) => {
                eprintln!("request {i}: error: {e}");
                return ExitCode::from(e.kind().exit_code());
            }
        }
    }
    ExitCode::SUCCESS
}

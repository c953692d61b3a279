//! One job: plans a whole estate from an RVTools export, as `dsplan plan` does without
//! `--hosts`: AVS hosts of each SKU sized from the VMs' vCPUs and memory, the clusters and
//! private clouds, each cluster's ANF datastores, and the estate on vSAN alone, ANF for
//! all and the hybrid priced against each other. Prints the plan's text summary.
//!
//! ```sh
//! cargo run --example plan_estate                      # the file servers shipped in the repo
//! cargo run --example plan_estate -- export.xlsx       # an RVTools export of yours
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use dsplan::report::{TextDetail, render_estate_text};
use dsplan::{PlanOptions, Planner};

fn main() -> ExitCode {
    let input = std::env::args_os().nth(1).map_or_else(
        // Ten file servers: a hybrid plan, 4 VMs' data on an ANF datastore (the small
        // estate's cheapest design keeps every VM on vSAN and shows no datastore).
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/file-servers-vinfo.csv"),
        PathBuf::from,
    );
    // The command's defaults: no `hosts`, so the estate is sized from compute.
    match Planner::new()
        .input(&input)
        .options(PlanOptions::default())
        .plan_estate()
    {
        Ok(estate) => {
            print!("{}", render_estate_text(&estate, TextDetail::Summary));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            // The command's exit code for this kind of failure (1, 2 or 3).
            ExitCode::from(e.kind().exit_code())
        }
    }
}

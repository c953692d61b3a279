//! `dsplan inventory`: what an RVTools export holds, per cluster.

use std::path::PathBuf;

use dsplan::report::{self, Format};

use super::{Failure, output, progress};

/// `dsplan inventory <INPUT>... [--json]`.
#[derive(clap::Args, Debug)]
pub struct InventoryArgs {
    /// RVTools .xlsx, a folder (or .zip) of RVTools_tab*.csv files, or a vInfo CSV (several
    /// are merged).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Reads the inputs and prints their summary.
///
/// # Errors
/// The reader's error (exit code 1), naming the file.
pub fn run(args: &InventoryArgs) -> Result<(), Failure> {
    let inventory = progress::reading(&args.inputs, || dsplan::ingest::read_inputs(&args.inputs))
        .map_err(dsplan::Error::from)?;
    let format = if args.json {
        Format::Json
    } else {
        Format::Text
    };
    let text = report::render_inventory(&inventory, format).map_err(dsplan::Error::from)?;
    output::emit(text.as_bytes(), None)?;
    // The process ends here: freeing the inventory VM by VM would only delay the exit.
    std::mem::forget(inventory);
    Ok(())
}

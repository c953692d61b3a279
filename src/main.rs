//! The `dsplan` command line.
use clap::{Parser, Subcommand};

mod cli;

#[derive(Parser)]
#[command(
    name = "dsplan",
    version,
    about = "Plans ANF datastores for Azure VMware Solution"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Predict what one layout achieves, layer by layer.
    Predict(cli::predict::PredictArgs),
    /// Predicted IOPS and MiB/s against datastore count for several host counts (CSV + SVG).
    Sweep(cli::sweep::SweepArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Predict(a) => cli::predict::run(a),
        Command::Sweep(a) => cli::sweep::run(a),
    };
    if let Err(e) = result {
        eprintln!("dsplan: {e}");
        std::process::exit(1);
    }
}

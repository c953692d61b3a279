//! The `dsplan` command line: parses the flags and hands each subcommand to its file under
//! `cli/`, which calls the library.
//!
//! Exit codes: 0 ok, else [`dsplan::ErrorKind::exit_code`]: 1 input or usage error (a flag
//! clap cannot parse included), 2 a target cannot be met, 3 internal error.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Plans Azure NetApp Files datastores for Azure VMware Solution from RVTools exports.
#[derive(Parser, Debug)]
#[command(name = "dsplan", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand takes negative-looking values (`--headroom-pct -5`), so the settings'
/// range checks give the real message instead of clap's tip to write `-- -5`.
#[derive(Subcommand, Debug)]
enum Command {
    /// Summarise an RVTools export: VMs, templates, power states, capacity per cluster.
    #[command(allow_negative_numbers = true)]
    Inventory(cli::inventory::InventoryArgs),
    /// Recommend the cheapest ANF datastore layout that meets capacity, IOPS and MiB/s.
    #[command(allow_negative_numbers = true)]
    Plan(Box<cli::plan::PlanArgs>),
    /// Predict what one layout achieves, layer by layer.
    #[command(allow_negative_numbers = true)]
    Predict(Box<cli::predict::PredictArgs>),
    /// Predicted IOPS and MiB/s against datastore count for several host counts (CSV + SVG).
    #[command(allow_negative_numbers = true)]
    Sweep(Box<cli::sweep::SweepArgs>),
    /// A local web page: drop an RVTools export, see and download the plan.
    Serve(cli::serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` print to stdout and succeed.
            let code = if e.use_stderr() {
                dsplan::ErrorKind::Usage.exit_code()
            } else {
                0
            };
            // A long value clap quotes ("invalid value '...'") is clipped.
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            let rendered = e.render().to_string();
            let clipped = cli::echo::clip_long_args(&rendered, &args);
            if clipped == rendered {
                let _ = e.print();
            } else {
                eprint!("{clipped}");
            }
            return ExitCode::from(code);
        }
    };
    let result = match &cli.command {
        Command::Inventory(args) => cli::inventory::run(args),
        Command::Plan(args) => cli::plan::run(args),
        Command::Predict(args) => cli::predict::run(args).map_err(cli::Failure::with_flags),
        Command::Sweep(args) => cli::sweep::run(args).map_err(cli::Failure::with_flags),
        Command::Serve(args) => cli::serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // A long value from the command line is clipped, and a name from the input in
            // the message cannot drive the terminal.
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            let clipped = cli::echo::clip_long_args(&f.message, &args);
            let message =
                dsplan::report::safe::escape_controls(&clipped, dsplan::report::safe::Keep::Layout);
            eprintln!("dsplan: error: {message}");
            ExitCode::from(f.code)
        }
    }
}

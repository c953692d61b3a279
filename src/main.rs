//! The `dsplan` command line: `dsplan inventory`, `plan`, `predict` and `sweep`.
//!
//! Exit codes: 0 ok, 1 input or usage error, 2 targets cannot be met.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod cli;

use dsplan::catalog::{Catalog, DEFAULT_REGION};
use dsplan::demand::{self, CapacityBasis, DemandOptions};
use dsplan::optimize::{self, OptimizeError, OptimizeOptions};
use dsplan::perf::{IoProfile, PerfModel, parse_block_size_kib};
use dsplan::report::{self, Format};

/// Plans Azure NetApp Files datastores for Azure VMware Solution from RVTools exports.
#[derive(Parser, Debug)]
#[command(name = "dsplan", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Summarise an RVTools export: VMs, templates, power states, capacity per cluster.
    Inventory(InventoryArgs),
    /// Recommend the cheapest ANF datastore layout that meets capacity, IOPS and MiB/s.
    Plan(Box<PlanArgs>),
    /// Predict what one layout achieves, layer by layer.
    Predict(Box<cli::predict::PredictArgs>),
    /// Predicted IOPS and MiB/s against datastore count for several host counts (CSV + SVG).
    Sweep(Box<cli::sweep::SweepArgs>),
}

#[derive(clap::Args, Debug)]
struct InventoryArgs {
    /// RVTools .xlsx, a folder of RVTools_tab*.csv files, or a vInfo CSV (several are merged).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum BasisArg {
    InUse,
    Provisioned,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    /// RVTools .xlsx, a folder of RVTools_tab*.csv files, or a vInfo CSV (several are merged).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// AVS hosts in the cluster that mounts the datastores (3..16).
    #[arg(long, default_value_t = 3)]
    hosts: u32,
    /// Plan only VMs of this source cluster (repeatable).
    #[arg(long = "cluster")]
    clusters: Vec<String>,
    /// Small-block IOPS target (at --block-size).
    #[arg(long, default_value_t = 0.0)]
    iops: f64,
    /// Large-block throughput target, MiB/s (64 KiB sequential).
    #[arg(long = "throughput-mibps", default_value_t = 0.0)]
    throughput_mibps: f64,
    /// Block size of the IOPS target: 4K, 8K, 64K, or KiB as a number.
    #[arg(long = "block-size", default_value = "8K")]
    block_size: String,
    /// Read share of the IOPS target, percent.
    #[arg(long = "read-pct", default_value_t = 70.0)]
    read_pct: f64,
    /// Random share of the IOPS target, percent.
    #[arg(long = "random-pct", default_value_t = 80.0)]
    random_pct: f64,
    /// Azure region of the prices (ARM name).
    #[arg(long, default_value = DEFAULT_REGION)]
    region: String,
    /// A price file with the columns of data/prices.csv, instead of the built-in prices.
    #[arg(long = "price-file")]
    price_file: Option<PathBuf>,
    /// Size VMs by in-use or provisioned capacity.
    #[arg(long = "capacity-basis", value_enum, default_value_t = BasisArg::InUse)]
    capacity_basis: BasisArg,
    /// Data growth to plan for, percent.
    #[arg(long = "growth-pct", default_value_t = 0.0)]
    growth_pct: f64,
    /// Free space to keep on the datastores, percent.
    #[arg(long = "headroom-pct", default_value_t = 20.0)]
    headroom_pct: f64,
    /// Most datastores the AVS cluster may have (default 8, up to 256 by request).
    #[arg(long = "max-datastores", default_value_t = 8)]
    max_datastores: u32,
    /// Leave powered-off VMs out (they still hold capacity, so they count by default).
    #[arg(long = "exclude-powered-off")]
    exclude_powered_off: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
    /// Write the output to this file instead of stdout.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

/// A failure with its exit code.
struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

fn check_pct(option: &str, v: f64) -> Result<(), Failure> {
    if (0.0..=100.0).contains(&v) {
        Ok(())
    } else {
        Err(usage(format!(
            "invalid --{option} {v}: expected a percentage 0..100"
        )))
    }
}

fn emit(text: &str, output: Option<&PathBuf>) -> Result<(), Failure> {
    match output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| usage(format!("{}: cannot write: {e}", path.display()))),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// Refuses an output path that is one of the inputs or lies inside an input folder, so
/// `-o` can never overwrite the export it reads.
fn check_output_path(output: Option<&PathBuf>, inputs: &[PathBuf]) -> Result<(), Failure> {
    let Some(out) = output else {
        return Ok(());
    };
    // The output may not exist yet: resolve its folder and keep its file name.
    let resolved = match (out.parent(), out.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                parent
            };
            parent.canonicalize().map(|p| p.join(name)).ok()
        }
        _ => None,
    };
    let Some(resolved) = resolved else {
        return Ok(()); // the write itself will report the bad path
    };
    for input in inputs {
        let Ok(input_abs) = input.canonicalize() else {
            continue;
        };
        if resolved == input_abs || (input_abs.is_dir() && resolved.starts_with(&input_abs)) {
            return Err(usage(format!(
                "-o {}: refusing to write the plan over or into the input {}",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

fn run_inventory(args: &InventoryArgs) -> Result<(), Failure> {
    let inventory = dsplan::ingest::read_inputs(&args.inputs).map_err(|e| usage(e.to_string()))?;
    let format = if args.json {
        Format::Json
    } else {
        Format::Text
    };
    let text = report::render_inventory(&inventory, format).map_err(|e| usage(e.to_string()))?;
    emit(&text, None)
}

fn run_plan(args: &PlanArgs) -> Result<(), Failure> {
    check_output_path(args.output.as_ref(), &args.inputs)?;
    check_pct("read-pct", args.read_pct)?;
    check_pct("random-pct", args.random_pct)?;
    let block_size_kib =
        parse_block_size_kib(&args.block_size).map_err(|e| usage(format!("--block-size: {e}")))?;
    let catalog = match &args.price_file {
        Some(path) => Catalog::with_price_file(path),
        None => Catalog::builtin(),
    }
    .map_err(|e| usage(e.to_string()))?;
    // Check the region before the (slower) read, so a typo fails fast.
    catalog
        .region(&args.region)
        .map_err(|e| usage(e.to_string()))?;
    let model = PerfModel::builtin().map_err(|e| usage(e.to_string()))?;
    let inventory = dsplan::ingest::read_inputs(&args.inputs).map_err(|e| usage(e.to_string()))?;
    let options = DemandOptions {
        capacity_basis: match args.capacity_basis {
            BasisArg::InUse => CapacityBasis::InUse,
            BasisArg::Provisioned => CapacityBasis::Provisioned,
        },
        growth_pct: args.growth_pct,
        headroom_pct: args.headroom_pct,
        exclude_powered_off: args.exclude_powered_off,
        clusters: args.clusters.clone(),
        iops: args.iops,
        throughput_mibps: args.throughput_mibps,
        io_profile: IoProfile {
            block_size_kib,
            read_pct: args.read_pct,
            random_pct: args.random_pct,
        },
    };
    let mut demand = demand::derive(&inventory, &options).map_err(|e| usage(e.to_string()))?;
    let mut warnings = inventory.warnings.clone();
    warnings.append(&mut demand.warnings);
    demand.warnings = warnings;
    let plan = optimize::optimize(
        &demand,
        &catalog,
        &model,
        &OptimizeOptions {
            hosts: args.hosts,
            region: args.region.clone(),
            max_datastores: args.max_datastores,
            service_levels: Vec::new(),
        },
    )
    .map_err(|e| match e {
        OptimizeError::Infeasible { .. } => Failure {
            code: 2,
            message: e.to_string(),
        },
        OptimizeError::Verification(_) | OptimizeError::Solver(_) => Failure {
            code: 3,
            message: e.to_string(),
        },
        _ => usage(e.to_string()),
    })?;
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
    };
    let text = report::render_plan(&plan, format).map_err(|e| usage(e.to_string()))?;
    emit(&text, args.output.as_ref())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match &cli.command {
        Command::Inventory(args) => run_inventory(args),
        Command::Plan(args) => run_plan(args),
        Command::Predict(args) => cli::predict::run(args).map_err(usage),
        Command::Sweep(args) => cli::sweep::run(args).map_err(usage),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("dsplan: error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

//! The `dsplan` command line: `dsplan inventory`, `plan`, `predict` and `sweep`.
//!
//! Exit codes: 0 ok, 1 input or usage error, 2 targets cannot be met.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod cli;

use dsplan::catalog::{Catalog, DEFAULT_REGION, ReservationTerm};
use dsplan::demand::{self, CapacityBasis, DemandOptions, Scope};
use dsplan::optimize::{self, OptimizeError, OptimizeOptions, PeakOptions};
use dsplan::perf::{IoProfile, PerfModel, parse_block_size_kib};
use dsplan::plan::Plan;
use dsplan::report::{self, Format};
use dsplan::vsan::{VsanCatalog, VsanOptions};

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
    /// vInfo `In Use MiB`.
    InUse,
    /// vInfo `Provisioned MiB`.
    Provisioned,
    /// Sum of vPartition `Consumed MiB` (what the guest has written).
    GuestConsumed,
    /// vInfo `Unshared MiB`.
    Unshared,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// Readable text.
    Text,
    /// Versioned JSON.
    Json,
    /// One row per datastore.
    Csv,
    /// A Markdown report.
    Md,
    /// An Excel workbook (needs -o FILE).
    Xlsx,
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    /// RVTools .xlsx, a folder of RVTools_tab*.csv files, or a vInfo CSV (several are merged).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// AVS hosts in the cluster that mounts the datastores (3..16; default 3, or with
    /// --per-cluster each cluster's hosts in vHost).
    #[arg(long)]
    hosts: Option<u32>,
    /// Plan each source cluster separately (its own hosts, its share of the targets by
    /// capacity) and add a total.
    #[arg(long = "per-cluster")]
    per_cluster: bool,
    /// Plan only VMs of this source cluster (repeatable).
    #[arg(long = "cluster")]
    clusters: Vec<String>,
    /// Small-block IOPS target (at --block-size).
    #[arg(long, default_value_t = 0.0)]
    iops: f64,
    /// Large-block throughput target, MiB/s (64 KiB sequential).
    #[arg(long = "throughput-mibps", default_value_t = 0.0)]
    throughput_mibps: f64,
    /// Per-VM performance CSV (vm, iops, throughput_mibps[, read_pct, block_kib]): VMs whose
    /// need exceeds one datastore's flows get their VMDKs spread; without --iops and
    /// --throughput-mibps the targets are the sums of the per-VM figures.
    #[arg(long)]
    perf: Option<PathBuf>,
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
    /// Extra capacity on top of the data, percent: datastores are sized at (1 + P/100) x
    /// the data (20 leaves 1/6 of each datastore free).
    #[arg(long = "headroom-pct", default_value_t = 20.0)]
    headroom_pct: f64,
    /// Space reserved for snapshots, percent of the data after growth.
    #[arg(long = "snapshot-reserve-pct", default_value_t = 0.0)]
    snapshot_reserve_pct: f64,
    /// Share of the data (after growth) that is cold, percent; above 0 the plan weighs cool
    /// access (default 0: RVTools holds no access data).
    #[arg(long = "cold-pct", default_value_t = 0.0)]
    cold_pct: f64,
    /// Percent of the cold data moved between tiers per month (cool transfer charge).
    #[arg(long = "cool-retrieval-pct", default_value_t = 10.0)]
    cool_retrieval_pct: f64,
    /// Reserved capacity for the hot tier: none, 1y or 3y (data/reservations.csv).
    #[arg(long, default_value = "none")]
    reservation: String,
    /// Months per year at peak load (1..11): plan the base and peak layouts and the yearly
    /// cost; the service level, pool or Flexible throughput rise for those months only.
    #[arg(long = "peak-months")]
    peak_months: Option<u32>,
    /// IOPS target in the peak months (with --peak-months).
    #[arg(long = "peak-iops", default_value_t = 0.0, requires = "peak_months")]
    peak_iops: f64,
    /// MiB/s target in the peak months (with --peak-months).
    #[arg(
        long = "peak-throughput-mibps",
        default_value_t = 0.0,
        requires = "peak_months"
    )]
    peak_throughput_mibps: f64,
    /// AVS host SKU of the vSAN-only comparison: av36, av36p, av52 or av64.
    #[arg(long = "vsan-host", default_value = "av36p")]
    vsan_host: String,
    /// vSAN storage policy of the comparison: auto (by cluster size: RAID-1 at 3 hosts,
    /// RAID-5 at 4..5, RAID-6 FTT-2 from 6 as the AVS SLA asks), raid1-ftt1 (AVS's default),
    /// raid5-ftt1 or raid6-ftt2.
    #[arg(long = "vsan-policy", default_value = "auto")]
    vsan_policy: String,
    /// Capacity vSAN keeps free in the comparison, percent.
    #[arg(long = "vsan-slack-pct", default_value_t = 25.0)]
    vsan_slack_pct: f64,
    /// Dedup/compression ratio assumed on vSAN (1 = none).
    #[arg(long = "vsan-dedup-ratio", default_value_t = 1.0)]
    vsan_dedup_ratio: f64,
    /// Hourly price of one AVS host, USD (for SKUs without a public figure in data/).
    #[arg(long = "vsan-host-usd-per-hour")]
    vsan_host_usd_per_hour: Option<f64>,
    /// Most datastores the AVS cluster may have (default 8, up to 256 by request).
    #[arg(long = "max-datastores", default_value_t = 8)]
    max_datastores: u32,
    /// Leave powered-off VMs out (they still hold capacity, so they count by default).
    #[arg(long = "exclude-powered-off")]
    exclude_powered_off: bool,
    /// Leave suspended VMs out (they hold capacity, so they count by default).
    #[arg(long = "exclude-suspended")]
    exclude_suspended: bool,
    /// Plan templates too (left out by default).
    #[arg(long = "include-templates")]
    include_templates: bool,
    /// Plan SRM placeholders too (left out by default: they hold no data at this site).
    #[arg(long = "include-srm-placeholders")]
    include_srm_placeholders: bool,
    /// Plan only VMs of this vCenter (`VI SDK Server`; repeatable).
    #[arg(long = "vcenter")]
    vcenters: Vec<String>,
    /// Plan only VMs of this datacenter (repeatable).
    #[arg(long = "datacenter")]
    datacenters: Vec<String>,
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
        None => cli::print_out(text).map_err(usage),
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
    let Some(mut resolved) = resolved else {
        return Ok(()); // the write itself will report the bad path
    };
    // An existing output may be a symbolic link: follow it to the file it would overwrite.
    if let Ok(target) = out.canonicalize() {
        resolved = target;
    }
    let out_meta = std::fs::metadata(out).ok();
    for input in inputs {
        let Ok(input_abs) = input.canonicalize() else {
            continue;
        };
        if resolved == input_abs
            || (input_abs.is_dir() && resolved.starts_with(&input_abs))
            || out_meta
                .as_ref()
                .zip(std::fs::metadata(input).ok())
                .is_some_and(|(o, i)| same_file(o, &i))
        {
            return Err(usage(format!(
                "-o {}: refusing to write the plan over or into the input {}",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Reads the inputs with a spinner and the elapsed time on stderr. indicatif draws nothing
/// when stderr is not a terminal, so pipes, files and CI logs stay clean.
fn read_with_progress(inputs: &[PathBuf]) -> Result<dsplan::inventory::Inventory, Failure> {
    let spinner = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        spinner.set_style(style);
    }
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    spinner.set_message(format!("reading {}", names.join(", ")));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let result = dsplan::ingest::read_inputs(inputs).map_err(|e| usage(e.to_string()));
    spinner.finish_and_clear();
    result
}

/// Whether two metadata describe the same file (a hard link has another path).
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
}

/// Whether two metadata describe the same file (paths are compared elsewhere).
#[cfg(not(unix))]
fn same_file(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    false
}

fn run_inventory(args: &InventoryArgs) -> Result<(), Failure> {
    let inventory = read_with_progress(&args.inputs)?;
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
    check_pct("cold-pct", args.cold_pct)?;
    check_pct("cool-retrieval-pct", args.cool_retrieval_pct)?;
    let reservation: ReservationTerm = args
        .reservation
        .parse()
        .map_err(|e: dsplan::catalog::CatalogError| usage(format!("--reservation: {e}")))?;
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
    let inventory = read_with_progress(&args.inputs)?;
    let options = DemandOptions {
        capacity_basis: match args.capacity_basis {
            BasisArg::InUse => CapacityBasis::InUse,
            BasisArg::Provisioned => CapacityBasis::Provisioned,
            BasisArg::GuestConsumed => CapacityBasis::GuestConsumed,
            BasisArg::Unshared => CapacityBasis::Unshared,
        },
        growth_pct: args.growth_pct,
        headroom_pct: args.headroom_pct,
        snapshot_reserve_pct: args.snapshot_reserve_pct,
        exclude_powered_off: args.exclude_powered_off,
        clusters: args.clusters.clone(),
        iops: args.iops,
        throughput_mibps: args.throughput_mibps,
        io_profile: IoProfile {
            block_size_kib,
            read_pct: args.read_pct,
            random_pct: args.random_pct,
        },
        scope: Scope {
            include_templates: args.include_templates,
            include_srm_placeholders: args.include_srm_placeholders,
            exclude_suspended: args.exclude_suspended,
            vcenters: args.vcenters.clone(),
            datacenters: args.datacenters.clone(),
        },
    };
    let mut demand = demand::derive(&inventory, &options).map_err(|e| usage(e.to_string()))?;
    let mut warnings = inventory.warnings.clone();
    warnings.append(&mut demand.warnings);
    demand.warnings = warnings;
    let perf_input = match &args.perf {
        Some(path) => Some(
            dsplan::ingest::read_perf_csv(path, &inventory).map_err(|e| usage(e.to_string()))?,
        ),
        None => None,
    };
    if let Some(perf) = &perf_input {
        demand.warnings.extend(perf.warnings.iter().cloned());
        let joined = demand.attach_perf(&inventory, perf);
        if let Some((iops, mibps)) = demand.targets_from_perf() {
            demand.warnings.push(dsplan::inventory::Warning {
                file: perf.file.clone(),
                sheet: None,
                row: None,
                column: None,
                value: None,
                message: format!(
                    "targets from --perf: the sums of the per-VM figures of {joined} VMs, {} \
                     IOPS and {} MiB/s (peaks added up: conservative)",
                    iops.round(),
                    mibps.round()
                ),
            });
        }
    }
    let optimize_options = OptimizeOptions {
        hosts: args.hosts.unwrap_or(3),
        region: args.region.clone(),
        max_datastores: args.max_datastores,
        service_levels: Vec::new(),
        cold_pct: args.cold_pct,
        cool_retrieval_pct: args.cool_retrieval_pct,
        reservation,
        peak: args.peak_months.map(|months| PeakOptions {
            months,
            iops: args.peak_iops,
            throughput_mibps: args.peak_throughput_mibps,
        }),
    };
    let failure = |e: OptimizeError| match e {
        OptimizeError::Infeasible { .. } => Failure {
            code: 2,
            message: e.to_string(),
        },
        OptimizeError::Verification(_) | OptimizeError::Solver(_) => Failure {
            code: 3,
            message: e.to_string(),
        },
        _ => usage(e.to_string()),
    };
    let vsan_catalog = VsanCatalog::builtin().map_err(|e| usage(e.to_string()))?;
    let vsan_options = VsanOptions {
        sku: args.vsan_host.clone(),
        policy: args
            .vsan_policy
            .parse()
            .map_err(|e: dsplan::vsan::VsanError| usage(e.to_string()))?,
        slack_pct: args.vsan_slack_pct,
        dedup_ratio: args.vsan_dedup_ratio,
        host_usd_per_hour: args.vsan_host_usd_per_hour,
    };
    // Data on vSAN: placed capacity after growth and snapshot reserve.
    let data_factor = (1.0 + args.growth_pct / 100.0) * (1.0 + args.snapshot_reserve_pct / 100.0);
    let vsan = |plan: &mut Plan| -> Result<(), Failure> {
        plan.vsan_comparison = Some(
            dsplan::vsan::compare(
                &vsan_catalog,
                plan.totals.placed_capacity_gib * data_factor,
                plan.hosts,
                plan.totals.cost_usd_per_month,
                catalog.limits.hours_per_month,
                &vsan_options,
            )
            .map_err(|e| usage(e.to_string()))?,
        );
        Ok(())
    };
    let xlsx = matches!(args.format, FormatArg::Xlsx);
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        FormatArg::Csv => Format::Csv,
        FormatArg::Md => Format::Markdown,
        FormatArg::Xlsx => Format::Text, // written below from the plan itself
    };
    if xlsx {
        if args.output.is_none() {
            return Err(usage(
                "--format xlsx writes a workbook: give its path with -o FILE",
            ));
        }
        if args.per_cluster {
            return Err(usage(
                "--format xlsx is for one plan: with --per-cluster use json, csv or md, or \
                 plan one cluster with --cluster NAME",
            ));
        }
    }
    let text = if args.per_cluster {
        let split = demand::split_by_cluster(&inventory, &options, perf_input.as_ref())
            .map_err(|e| usage(e.to_string()))?;
        let mut plans =
            optimize::optimize_per_cluster(&split, &catalog, &model, &optimize_options, args.hosts)
                .map_err(failure)?;
        for c in &mut plans.clusters {
            vsan(&mut c.plan)?;
        }
        report::render_cluster_plans(&plans, format)
    } else {
        let mut plan =
            optimize::optimize(&demand, &catalog, &model, &optimize_options).map_err(failure)?;
        vsan(&mut plan)?;
        if let (true, Some(path)) = (xlsx, args.output.as_ref()) {
            let bytes = report::xlsx::plan_xlsx(&plan).map_err(|e| usage(e.to_string()))?;
            return std::fs::write(path, bytes)
                .map_err(|e| usage(format!("{}: cannot write: {e}", path.display())));
        }
        report::render_plan(&plan, format)
    }
    .map_err(|e| usage(e.to_string()))?;
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

//! `dsplan plan`: flags to [`PlanOptions`], then [`Planner`], then the chosen format.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use dsplan::catalog::ReservationTerm;
use dsplan::demand::CapacityBasis;
use dsplan::ingest::PerfBasis;
use dsplan::perf::{IoProfile, parse_block_size_kib};
use dsplan::plan::Design;
use dsplan::report::safe::{Keep, escape_controls};
use dsplan::report::{self, Format};
use dsplan::vsan::PolicyChoice;
use dsplan::{PlanOptions, Planned, Planner, defaults};

use super::{Failure, flags, output, progress};

/// Which vInfo figure sizes a VM.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BasisArg {
    /// vInfo `In Use MiB`.
    InUse,
    /// vInfo `Provisioned MiB`.
    Provisioned,
    /// Sum of vPartition `Consumed MiB` (what the guest has written).
    GuestConsumed,
    /// vInfo `Unshared MiB`.
    Unshared,
}

/// Which figures of a Live Optics `VM Performance` sheet are the per-VM input.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PerfBasisArg {
    /// `Peak IOPS` and `Max KB/sec` (conservative).
    Peak,
    /// `Average IOPS` and `Average KB/sec`.
    Average,
}

/// The estate's design, forced.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DesignArg {
    /// vSAN alone: every VM's data on its cluster's vSAN.
    Vsan,
    /// ANF for all VM data.
    Anf,
    /// Per cluster, the cheapest split between the hosts' vSAN (its compute hosts or more)
    /// and ANF.
    Hybrid,
}

/// Output formats of a plan.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Readable text.
    Text,
    /// Versioned JSON.
    Json,
    /// One row per datastore.
    Csv,
    /// A Markdown report.
    Md,
    /// A self-contained HTML report with its charts, printable (no script, nothing fetched).
    Html,
    /// An Excel workbook (needs -o FILE).
    Xlsx,
}

/// `dsplan plan <INPUT>... [options]`. Defaults come from [`dsplan::defaults`], as
/// [`PlanOptions::default`]'s do.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// RVTools .xlsx, a folder (or .zip) of RVTools_tab*.csv files, a vInfo CSV, or a Live
    /// Optics .xlsx (several are merged).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// AVS hosts of one cluster that mounts every datastore (3 to 16): plans that cluster's
    /// storage only. Without it the estate is sized from the VMs' vCPUs and memory (with
    /// --per-cluster: each cluster's hosts in vHost).
    #[arg(long, value_parser = super::counts::plan_hosts)]
    pub hosts: Option<u32>,
    /// Host SKU of the estate: av36, av36p, av48, av52, av64 or av64-gen2 (default: every
    /// SKU, the lowest total cost chosen). With --hosts or --per-cluster: the hosts' SKU,
    /// whose NICs the datastores' flows use (AV64: 100 GbE; default: 25 GbE).
    #[arg(long = "host-sku")]
    pub host_sku: Option<String>,
    /// vCPUs per physical core when sizing hosts.
    #[arg(long = "vcpu-per-core", default_value_t = defaults::VCPU_PER_CORE)]
    pub vcpu_per_core: f64,
    /// Memory that sizes hosts: configured (vInfo Memory) or consumed (vMemory Consumed).
    #[arg(long = "memory-basis", default_value = "configured")]
    pub memory_basis: String,
    /// Memory overcommit when sizing hosts (1 = none).
    #[arg(long = "memory-overcommit", default_value_t = defaults::MEMORY_OVERCOMMIT)]
    pub memory_overcommit: f64,
    /// Hosts per AVS cluster kept free for vSphere HA (AVS runs n+1).
    #[arg(long = "ha-hosts", default_value_t = defaults::HA_HOSTS,
          value_parser = super::counts::ha_hosts)]
    pub ha_hosts: u32,
    /// How VMs become AVS clusters: source-cluster (each source cluster one or more AVS
    /// clusters) or estate (as few clusters as possible).
    #[arg(long, default_value = "source-cluster")]
    pub group: String,
    /// How AVS hosts are bought: payg, 1y, 3y or 5y (reserved terms need --host-price-file).
    #[arg(long = "host-term", default_value = "payg")]
    pub host_term: String,
    /// AVS host prices, CSV: sku,term,usd_per_hour,region,source (added to the region's
    /// built-in pay-as-you-go list prices, data/avs_host_prices.csv).
    #[arg(long = "host-price-file")]
    pub host_price_file: Option<PathBuf>,
    /// Plan each source cluster separately (its own hosts, its share of the targets by
    /// capacity) and add a total.
    #[arg(long = "per-cluster")]
    pub per_cluster: bool,
    /// Plan only VMs of this source cluster (repeatable), named as `dsplan inventory` shows
    /// it: `Cluster1`, or `Cluster1 (vc-a)` where clusters of several vCenters share the
    /// name (a shared bare name selects them all).
    #[arg(long = "cluster")]
    pub clusters: Vec<String>,
    /// Small-block IOPS target (at --block-size).
    #[arg(long, default_value_t = 0.0)]
    pub iops: f64,
    /// Large-block throughput target, MiB/s (64 KiB sequential).
    #[arg(long = "throughput-mibps", default_value_t = 0.0)]
    pub throughput_mibps: f64,
    /// Per-VM performance CSV (vm, iops, throughput_mibps[, read_pct, block_kib]): VMs whose
    /// need exceeds one datastore's flows get their VMDKs spread; without --iops and
    /// --throughput-mibps the targets are the sums of the per-VM figures.
    #[arg(long)]
    pub perf: Option<PathBuf>,
    /// Figures of a Live Optics input's VM Performance sheet used as the per-VM input when
    /// --perf is not given.
    #[arg(long = "perf-basis", value_enum, default_value_t = PerfBasisArg::Peak)]
    pub perf_basis: PerfBasisArg,
    /// Block size of the IOPS target: 4K, 8K, 64K, or KiB as a number.
    #[arg(long = "block-size", default_value_t = format!("{}K", defaults::BLOCK_SIZE_KIB),
          allow_hyphen_values = true)]
    pub block_size: String,
    /// Read share of the IOPS target, percent.
    #[arg(long = "read-pct", default_value_t = defaults::READ_PCT)]
    pub read_pct: f64,
    /// Random share of the IOPS target, percent.
    #[arg(long = "random-pct", default_value_t = defaults::RANDOM_PCT)]
    pub random_pct: f64,
    /// Azure region: ARM name or display name ("West Europe"); it must support ANF
    /// datastores for AVS (data/avs_anf_regions.csv).
    #[arg(long, default_value = defaults::REGION)]
    pub region: String,
    /// Plan in a region not listed for ANF datastores on AVS (the plan warns).
    #[arg(long = "allow-unlisted-region")]
    pub allow_unlisted_region: bool,
    /// TCP connections per host per datastore: 1 (the measured case) or 4 (supported on AVS
    /// datastores; predictions extrapolated).
    #[arg(long, default_value_t = defaults::NCONNECT, value_parser = super::counts::nconnect)]
    pub nconnect: u32,
    /// A price file with the columns of data/prices.csv, instead of the built-in prices.
    #[arg(long = "price-file")]
    pub price_file: Option<PathBuf>,
    /// Size VMs by in-use or provisioned capacity.
    #[arg(long = "capacity-basis", value_enum, default_value_t = BasisArg::InUse)]
    pub capacity_basis: BasisArg,
    /// Data growth to plan for, percent.
    #[arg(long = "growth-pct", default_value_t = defaults::GROWTH_PCT)]
    pub growth_pct: f64,
    /// Extra capacity on top of the data, percent: datastores are sized at (1 + P/100) x
    /// the data (20 leaves 1/6 of each datastore free).
    #[arg(long = "headroom-pct", default_value_t = defaults::HEADROOM_PCT)]
    pub headroom_pct: f64,
    /// Space reserved for snapshots, percent of the data after growth.
    #[arg(long = "snapshot-reserve-pct", default_value_t = defaults::SNAPSHOT_RESERVE_PCT)]
    pub snapshot_reserve_pct: f64,
    /// Share of the data (after growth) that is cold, percent; above 0 the plan weighs cool
    /// access (default 0: RVTools holds no access data).
    #[arg(long = "cold-pct", default_value_t = defaults::COLD_PCT)]
    pub cold_pct: f64,
    /// Percent of the cold data moved between tiers per month (cool transfer charge).
    #[arg(long = "cool-retrieval-pct", default_value_t = defaults::COOL_RETRIEVAL_PCT)]
    pub cool_retrieval_pct: f64,
    /// Reserved capacity for the hot tier: none, 1y or 3y (data/reservations.csv).
    #[arg(long, default_value_t = ReservationTerm::None.to_string())]
    pub reservation: String,
    /// Months per year at peak load (1..11): plan the base and peak layouts and the yearly
    /// cost; the service level, pool or Flexible throughput rise for those months only.
    #[arg(long = "peak-months", value_parser = super::counts::peak_months)]
    pub peak_months: Option<u32>,
    /// IOPS target in the peak months (with --peak-months).
    #[arg(long = "peak-iops", default_value_t = 0.0, requires = "peak_months")]
    pub peak_iops: f64,
    /// MiB/s target in the peak months (with --peak-months).
    #[arg(
        long = "peak-throughput-mibps",
        default_value_t = 0.0,
        requires = "peak_months"
    )]
    pub peak_throughput_mibps: f64,
    /// Let the plan use ANF large volumes (50 TiB..1 PiB, up to 12,800 MiB/s each) as
    /// datastores where regular ones cannot meet the targets. Off by default: no Microsoft
    /// page documents large volumes as AVS datastores; confirm support before ordering.
    #[arg(long = "allow-large-volumes")]
    pub allow_large_volumes: bool,
    /// AVS host SKU of the vSAN-only comparison: av36, av36p, av48, av52, av64 (Gen 1 raw
    /// capacity, the lower figure) or av64-gen2 (data/avs_hosts.csv).
    #[arg(long = "vsan-host", default_value = defaults::VSAN_HOST)]
    pub vsan_host: String,
    /// vSAN storage policy of the comparison: auto (by cluster size: RAID-1 at 3 hosts,
    /// RAID-5 at 4..5, RAID-6 FTT-2 from 6 as the AVS SLA asks), raid1-ftt1 (AVS's default),
    /// raid5-ftt1 or raid6-ftt2.
    #[arg(long = "vsan-policy", default_value = "auto")]
    pub vsan_policy: String,
    /// Capacity vSAN keeps free in the comparison, percent.
    #[arg(long = "vsan-slack-pct", default_value_t = defaults::VSAN_SLACK_PCT)]
    pub vsan_slack_pct: f64,
    /// Dedup/compression ratio assumed on vSAN (1 = none).
    #[arg(long = "vsan-dedup-ratio", default_value_t = defaults::VSAN_DEDUP_RATIO)]
    pub vsan_dedup_ratio: f64,
    /// Hourly price of one AVS host, USD (default: the region's list price in
    /// data/avs_host_prices.csv; needed for SKUs without one there).
    #[arg(long = "vsan-host-usd-per-hour")]
    pub vsan_host_usd_per_hour: Option<f64>,
    /// Force the estate's design: vsan (vSAN alone), anf (ANF for all VM data) or hybrid
    /// (per cluster, the VMs its hosts' vSAN holds and carries stay there); default: the
    /// cheapest of the three. Estate plans only (not with --hosts or --per-cluster).
    #[arg(long, value_enum)]
    pub design: Option<DesignArg>,
    /// ExpressRoute gateways (UltraPerformance or ErGw3Az) already in place for the ANF
    /// datastores: not bought.
    #[arg(long = "existing-er-gateways", default_value_t = 0)]
    pub existing_er_gateways: u32,
    /// Most datastores the AVS cluster may have (up to 256 by request).
    #[arg(long = "max-datastores", default_value_t = defaults::MAX_DATASTORES,
          value_parser = super::counts::datastores)]
    pub max_datastores: u32,
    /// Leave powered-off VMs out (they still hold capacity, so they count by default).
    #[arg(long = "exclude-powered-off")]
    pub exclude_powered_off: bool,
    /// Leave suspended VMs out (they hold capacity, so they count by default).
    #[arg(long = "exclude-suspended")]
    pub exclude_suspended: bool,
    /// Plan templates too (left out by default).
    #[arg(long = "include-templates")]
    pub include_templates: bool,
    /// Plan SRM placeholders too (left out by default: they hold no data at this site).
    #[arg(long = "include-srm-placeholders")]
    pub include_srm_placeholders: bool,
    /// Plan only VMs of this vCenter (`VI SDK Server`; repeatable).
    #[arg(long = "vcenter")]
    pub vcenters: Vec<String>,
    /// Plan only VMs of this datacenter (repeatable).
    #[arg(long = "datacenter")]
    pub datacenters: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Text of an estate plan: every section and every AVS cluster's plan, not the
    /// one-screen summary.
    #[arg(long = "detail")]
    pub detail: bool,
    /// Write the output to this file instead of stdout (`-` is stdout).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Also write SVG charts into this folder (created if missing): cost by alternative,
    /// predicted performance against datastore count, capacity and, for the estate, hosts
    /// by driver.
    #[arg(long = "charts", value_name = "DIR")]
    pub charts: Option<PathBuf>,
}

impl PlanArgs {
    /// The library options these flags stand for.
    ///
    /// # Errors
    /// A usage failure for a reservation term, block size or vSAN policy that does not
    /// parse, naming the flag.
    pub fn options(&self) -> Result<PlanOptions, Failure> {
        let reservation: ReservationTerm = self
            .reservation
            .parse()
            .map_err(|e| Failure::usage(format!("--reservation: {e}")))?;
        let block_size_kib = parse_block_size_kib(&self.block_size).map_err(dsplan::Error::from)?;
        let vsan_policy: PolicyChoice = self
            .vsan_policy
            .parse()
            .map_err(|e: dsplan::vsan::VsanError| dsplan::Error::from(e))?;
        let sizing = |e: dsplan::sizing::SizingError| {
            dsplan::Error::from(dsplan::optimize::OptimizeError::from(e))
        };
        // Every field set from its flag (`library_defaults_are_the_commands` keeps the
        // flags' defaults equal to the library's).
        let mut o = PlanOptions::default();
        o.hosts = self.hosts;
        o.host_sku = self.host_sku.clone().map(Into::into);
        o.vcpu_per_core = self.vcpu_per_core;
        o.memory_basis = self.memory_basis.parse().map_err(sizing)?;
        o.memory_overcommit = self.memory_overcommit;
        o.ha_hosts = self.ha_hosts;
        o.group = self.group.parse().map_err(sizing)?;
        o.host_term = self.host_term.parse().map_err(sizing)?;
        o.host_price_file = self.host_price_file.clone();
        o.per_cluster = self.per_cluster;
        o.clusters = self.clusters.clone();
        o.vcenters = self.vcenters.clone();
        o.datacenters = self.datacenters.clone();
        o.include_templates = self.include_templates;
        o.include_srm_placeholders = self.include_srm_placeholders;
        o.exclude_powered_off = self.exclude_powered_off;
        o.exclude_suspended = self.exclude_suspended;
        o.capacity_basis = match self.capacity_basis {
            BasisArg::InUse => CapacityBasis::InUse,
            BasisArg::Provisioned => CapacityBasis::Provisioned,
            BasisArg::GuestConsumed => CapacityBasis::GuestConsumed,
            BasisArg::Unshared => CapacityBasis::Unshared,
        };
        o.growth_pct = self.growth_pct;
        o.headroom_pct = self.headroom_pct;
        o.snapshot_reserve_pct = self.snapshot_reserve_pct;
        o.iops = self.iops;
        o.throughput_mibps = self.throughput_mibps;
        o.io_profile = IoProfile {
            block_size_kib,
            read_pct: self.read_pct,
            random_pct: self.random_pct,
        };
        o.perf = self.perf.clone();
        o.perf_basis = match self.perf_basis {
            PerfBasisArg::Peak => PerfBasis::Peak,
            PerfBasisArg::Average => PerfBasis::Average,
        };
        o.region = self.region.clone().into();
        o.allow_unlisted_region = self.allow_unlisted_region;
        o.price_file = self.price_file.clone();
        o.service_levels = Vec::new();
        o.max_datastores = self.max_datastores;
        o.cold_pct = self.cold_pct;
        o.cool_retrieval_pct = self.cool_retrieval_pct;
        o.reservation = reservation;
        o.nconnect = self.nconnect;
        o.peak_months = self.peak_months;
        o.peak_iops = self.peak_iops;
        o.peak_throughput_mibps = self.peak_throughput_mibps;
        o.allow_large_volumes = self.allow_large_volumes;
        o.vsan_comparison = true;
        o.vsan_host = self.vsan_host.clone();
        o.vsan_policy = vsan_policy;
        o.vsan_slack_pct = self.vsan_slack_pct;
        o.vsan_dedup_ratio = self.vsan_dedup_ratio;
        o.vsan_host_usd_per_hour = self.vsan_host_usd_per_hour;
        o.design = self.design.map(|d| match d {
            DesignArg::Vsan => Design::Vsan,
            DesignArg::Anf => Design::Anf,
            DesignArg::Hybrid => Design::Hybrid,
        });
        o.existing_er_gateways = self.existing_er_gateways;
        Ok(o)
    }

    /// Every file the plan reads: `-o` may be none of them.
    fn files_read(&self) -> Vec<&Path> {
        let mut read: Vec<&Path> = self.inputs.iter().map(PathBuf::as_path).collect();
        read.extend(self.perf.as_deref());
        read.extend(self.price_file.as_deref());
        read.extend(self.host_price_file.as_deref());
        read
    }

    /// The format's own rules: a workbook needs `-o`; `--detail` is the text's.
    fn check_format(&self) -> Result<(), Failure> {
        if self.detail && !matches!(self.format, FormatArg::Text) {
            return Err(Failure::usage(
                "--detail applies to the text format (the other formats always hold every \
                 section)",
            ));
        }
        if !matches!(self.format, FormatArg::Xlsx) {
            return Ok(());
        }
        if self.output.is_none() {
            return Err(Failure::usage(
                "--format xlsx writes a workbook: give its path with -o FILE",
            ));
        }
        Ok(())
    }
}

/// Plans with the flags and writes the chosen format to stdout or `-o`.
///
/// # Errors
/// A [`Failure`] whose exit code comes from the error's kind.
pub fn run(args: &PlanArgs) -> Result<(), Failure> {
    output::check_output_path(args.output.as_ref(), &args.files_read())?;
    output::check_outside_charts(args.output.as_ref(), args.charts.as_ref())?;
    output::check_written_path(
        "--charts",
        "charts",
        args.charts.as_ref(),
        &args.files_read(),
    )?;
    if let Some(dir) = &args.charts {
        // Before planning: a --charts path that is a file, or a folder that cannot be made,
        // fails before the plan is printed, not after.
        charts_folder(dir)?;
    }
    let mut planner = Planner::new();
    planner.options(args.options()?);
    // Settings, price file and region first, so a typo fails before the (slower) read.
    planner.check()?;
    args.check_format()?;
    let inventory = progress::reading(&args.inputs, || dsplan::ingest::read_inputs(&args.inputs))
        .map_err(dsplan::Error::from)?;
    planner.inventory(inventory);
    let planned = planner.run()?;
    let bytes = match args.format {
        FormatArg::Html => render_html(&planned, args)?,
        format => render(&planned, format, args.detail)?,
    };
    output::emit(&bytes, args.output.as_ref())?;
    if let Some(path) = &args.output {
        eprintln!(
            "{}",
            escape_controls(&written_note(&planned, path), Keep::Layout)
        );
    }
    if let Some(dir) = &args.charts {
        write_charts(&planned, args, dir)?;
    }
    // The process ends here: freeing the inventory and the plan item by item (tens of
    // thousands of VMs) would only delay the exit.
    std::mem::forget(planned);
    std::mem::forget(planner);
    Ok(())
}

/// With `-o`, the line on stderr that says where the plan went and what in it needs a
/// look, since the terminal shows none of it: its VMs left out and its warnings (each
/// counted once, [`dsplan::inventory::warning_count`]).
fn written_note(planned: &Planned, path: &Path) -> String {
    let (excluded, warnings) = (planned.excluded().len(), planned.warning_count());
    let plural =
        |n: usize, one: &str, many: &str| format!("{} {}", n, if n == 1 { one } else { many });
    format!(
        "dsplan: wrote {}: {} left out, {} (listed in the file)",
        path.display(),
        plural(excluded, "VM", "VMs"),
        plural(warnings, "warning", "warnings"),
    )
}

/// Draws the plan's charts and writes them into `dir` (created if missing).
///
/// # Errors
/// A failure naming the folder or file that could not be written (exit 1), or an internal
/// failure if a chart cannot be drawn.
fn write_charts(planned: &Planned, args: &PlanArgs, dir: &Path) -> Result<(), Failure> {
    let charts = planned.charts(&args.options()?)?;
    charts_folder(dir)?;
    for (name, svg) in charts {
        let path = dir.join(name);
        std::fs::write(&path, svg)
            .map_err(|e| Failure::usage(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}

/// Makes the `--charts` folder if missing.
///
/// # Errors
/// A usage failure naming the path when it is not a folder or cannot be made.
fn charts_folder(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| {
        let why = if dir.is_file() {
            "a file, not a folder".to_string()
        } else {
            format!("cannot create: {e}")
        };
        Failure::usage(format!("--charts {}: {why}", dir.display()))
    })
}

/// The plan as a workbook in customer words (sources by their page or publisher, settings
/// by their flags); each cut to fit Excel's limits
/// is printed on stderr (`warning: ...`).
fn render_xlsx(planned: &Planned) -> Result<Vec<u8>, Failure> {
    let options = report::xlsx::XlsxOptions::default().reword(&report::words::customer_words);
    let book = planned.xlsx_with(&options)?;
    for w in &book.warnings {
        let w = flags::with_flag_names(w);
        eprintln!("warning: {}", escape_controls(&w, Keep::Layout));
    }
    Ok(book.bytes)
}

/// The plan as an HTML document with its charts (settings already in customer words).
fn render_html(planned: &Planned, args: &PlanArgs) -> Result<Vec<u8>, Failure> {
    let charts = planned.charts(&args.options()?)?;
    Ok(planned.html(&charts).into_bytes())
}

/// The plan in `format` (an estate's text at full `detail` or its summary); text names
/// settings by their flags, Markdown is in customer words
/// ([`report::words::customer_words`]).
fn render(planned: &Planned, format: FormatArg, detail: bool) -> Result<Vec<u8>, Failure> {
    let format = match format {
        FormatArg::Xlsx => return render_xlsx(planned),
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        FormatArg::Csv => Format::Csv,
        FormatArg::Md => Format::Markdown,
        FormatArg::Html => Format::Html,
    };
    let text = match planned {
        Planned::Estate(plan) if detail && format == Format::Text => {
            report::render_estate_text(plan, report::TextDetail::Full)
        }
        planned => planned.render(format)?,
    };
    if format == Format::Csv && text.lines().count() <= 1 {
        // A header alone reads like a failure: say why.
        eprintln!(
            "dsplan: the plan has no ANF datastore (its design keeps every VM on vSAN, or \
             nothing is placed), so the CSV, one row per datastore, holds its header only"
        );
    }
    Ok(match format {
        Format::Text => flags::with_flag_names(&text),
        // A document for a customer: sources by page, settings by flag or in words.
        Format::Markdown => report::words::customer_words(&text),
        _ => text,
    }
    .into_bytes())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        plan: PlanArgs,
    }

    #[test]
    fn flag_defaults_are_the_library_defaults() {
        let args = Wrapper::try_parse_from(["dsplan", "in.xlsx"]).unwrap().plan;
        let mut expected = PlanOptions::default();
        assert_eq!(args.options().unwrap(), expected);
        // And a flag reaches its field.
        let args = Wrapper::try_parse_from(["dsplan", "in.xlsx", "--headroom-pct", "35"])
            .unwrap()
            .plan;
        expected.headroom_pct = 35.0;
        assert_eq!(args.options().unwrap(), expected);
    }
}

//! `dsplan sweep`: predicted IOPS and MiB/s against datastore count for several host
//! counts, as CSV and an SVG chart (in the style of the published AVS scaling charts).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use dsplan::perf::Prediction;
use dsplan::report::charts::{HostLine, sweep_svg};

use super::common::CommonArgs;

/// `dsplan sweep [--hosts-list 1,4,8,16] [--max-datastores 16] [--csv FILE] [--svg FILE]`.
#[derive(clap::Args, Debug, Clone)]
pub struct SweepArgs {
    /// Host counts, one line each.
    #[arg(long, value_delimiter = ',', default_value = "1,4,8,16",
          value_parser = super::counts::any_hosts)]
    pub hosts_list: Vec<u32>,
    /// Datastore counts 1..=N.
    #[arg(long, default_value_t = 16, value_parser = super::counts::datastores)]
    pub max_datastores: u32,
    /// Write the CSV here instead of stdout.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the SVG chart to this file, or into this folder as sweep.svg (a missing folder
    /// is created; default: ./sweep.svg, named on stderr).
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// System, service level and workload.
    #[command(flatten)]
    pub common: CommonArgs,
}

/// One point of the sweep.
#[derive(Debug, Clone)]
pub struct Point {
    /// Hosts.
    pub hosts: u32,
    /// Datastores.
    pub datastores: u32,
    /// The prediction.
    pub prediction: Prediction,
}

/// Checks the grid flags: host counts 1..=16 (one AVS cluster, `data/limits.csv`), at most
/// 32 of them and none twice; datastore counts 1..=256 (AVS datastores per cluster).
///
/// # Errors
/// A message naming the flag, the value and the range.
pub fn check_grid(args: &SweepArgs) -> Result<(), String> {
    // The grid stays what a chart can show: AVS allows at most 256 datastores per cluster
    // (data/limits.csv), and a host list of at most 32 counts.
    let most_datastores = dsplan::catalog::Catalog::builtin()
        .map_err(|e| e.to_string())?
        .limits
        .max_datastores;
    if args.max_datastores == 0 || args.max_datastores > most_datastores {
        return Err(format!(
            "invalid --max-datastores {}: 1..={most_datastores} (AVS datastores per cluster)",
            args.max_datastores
        ));
    }
    if args.hosts_list.is_empty() || args.hosts_list.len() > 32 {
        return Err(format!(
            "invalid --hosts-list: {} host counts, expected 1 to 32",
            args.hosts_list.len()
        ));
    }
    for (i, &h) in args.hosts_list.iter().enumerate() {
        super::common::check_hosts("--hosts-list", h)?;
        if args.hosts_list[..i].contains(&h) {
            return Err(format!(
                "invalid --hosts-list: {h} is listed more than once (each host count is one line)"
            ));
        }
    }
    Ok(())
}

/// Evaluates the grid of host and datastore counts.
///
/// # Errors
/// A message naming the invalid flag or value.
pub fn points(args: &SweepArgs) -> Result<Vec<Point>, String> {
    check_grid(args)?;
    let r = args.common.resolve()?;
    let mut out = Vec::new();
    for &h in &args.hosts_list {
        for d in 1..=args.max_datastores {
            let mut l = r.layout.clone();
            l.hosts = h;
            l.datastores = d;
            let prediction = r
                .model
                .predict_system(&r.system, &l, &r.io)
                .map_err(|e| e.to_string())?;
            out.push(Point {
                hosts: h,
                datastores: d,
                prediction,
            });
        }
    }
    Ok(out)
}

/// The CSV text: `system,hosts,datastores,iops,throughput_mibps,bottleneck`.
pub fn to_csv(points: &[Point]) -> String {
    let mut s = String::from("system,hosts,datastores,iops,throughput_mibps,bottleneck\n");
    for p in points {
        s.push_str(&format!(
            "{},{},{},{:.1},{:.2},{}\n",
            p.prediction.system,
            p.hosts,
            p.datastores,
            p.prediction.iops,
            p.prediction.throughput_mibps,
            p.prediction.bottleneck
        ));
    }
    s
}

/// Draws IOPS (left) and MiB/s (right) against datastore count, one line per host count
/// (`dsplan::report::charts::sweep_svg`), into `out` (opened before any work).
///
/// # Errors
/// A message if the chart cannot be drawn or written, naming `path`.
pub fn write_svg(
    points: &[Point],
    (path, out): (&Path, &mut File),
    title: &str,
) -> Result<(), String> {
    let mut lines: Vec<HostLine> = Vec::new();
    for p in points {
        let at = (
            p.datastores,
            p.prediction.iops,
            p.prediction.throughput_mibps,
        );
        match lines.last_mut() {
            Some(l) if l.hosts == p.hosts => l.points.push(at),
            _ => lines.push(HostLine {
                hosts: p.hosts,
                points: vec![at],
            }),
        }
    }
    let svg = sweep_svg(title, &lines).map_err(|e| format!("{}: {e}", path.display()))?;
    out.write_all(svg.as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Where the chart goes: `--svg FILE`, `--svg DIR/sweep.svg` for an existing folder or a
/// path ending in `/`, else `./sweep.svg`; and whether that was the default.
fn svg_path(args: &SweepArgs) -> (PathBuf, bool) {
    match &args.svg {
        Some(p) if p.is_dir() || p.as_os_str().to_string_lossy().ends_with('/') => {
            (p.join(DEFAULT_SVG), false)
        }
        Some(p) => (p.clone(), false),
        None => (PathBuf::from(DEFAULT_SVG), true),
    }
}

/// The chart's file name when `--svg` names none.
const DEFAULT_SVG: &str = "sweep.svg";

/// Creates `path`'s folder and the file itself, so a path that cannot be written fails
/// before the grid is evaluated or any CSV is printed.
fn open_for_writing(flag: &str, path: &Path) -> Result<File, String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{flag} {}: cannot create the folder: {e}", dir.display()))?;
    }
    File::create(path).map_err(|e| format!("{flag} {}: cannot write: {e}", path.display()))
}

/// Refuses outputs that are a file read (`--system FILE`) or each other, and a chart path
/// not ending in `.svg` (the chart is SVG whatever the name says).
fn check_outputs(args: &SweepArgs, svg: &Path) -> Result<(), String> {
    if args.csv.as_deref() == Some(svg) {
        return Err("--csv and --svg name the same file".into());
    }
    let system = Path::new(&args.common.system);
    let read: Vec<&Path> = if system.is_file() {
        vec![system]
    } else {
        Vec::new()
    };
    let svg_buf = svg.to_path_buf();
    for (flag, what, path) in [
        ("--svg", "the chart", Some(&svg_buf)),
        ("--csv", "the CSV", args.csv.as_ref()),
    ] {
        super::output::check_written_path(flag, what, path, &read).map_err(|f| f.message)?;
    }
    let is_svg = svg
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !is_svg {
        return Err(format!(
            "--svg {}: the chart is written as SVG; give a file name ending in .svg or a folder",
            svg.display()
        ));
    }
    Ok(())
}

/// Runs `dsplan sweep`: CSV to stdout (or `--csv`), chart to `--svg`. Both outputs are
/// checked and opened before the grid is evaluated.
///
/// # Errors
/// A message naming the invalid flag or the file that could not be written.
pub fn run(args: &SweepArgs) -> Result<(), String> {
    check_grid(args)?;
    let (svg, default) = svg_path(args);
    check_outputs(args, &svg)?;
    let mut csv_out = match &args.csv {
        Some(p) => Some(open_for_writing("--csv", p)?),
        None => None,
    };
    let mut svg_out = super::output::PendingFile::create("--svg", &svg)?;
    let pts = points(args)?;
    let csv = to_csv(&pts);
    match (&mut csv_out, &args.csv) {
        (Some(f), Some(p)) => f
            .write_all(csv.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", p.display()))?,
        _ => super::print_out(&csv)?,
    }
    let c = &args.common;
    let title = format!(
        "{}: {} {}% read {}% random",
        pts.first().map_or("", |p| p.prediction.system.as_str()),
        c.block_size,
        c.read_pct,
        c.random_pct
    );
    write_svg(&pts, (&svg, &mut svg_out.file), &title)?;
    svg_out.commit()?;
    if default {
        eprintln!("dsplan: wrote the chart to ./{DEFAULT_SVG} (--svg FILE or DIR to choose)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SweepArgs,
    }

    #[test]
    fn sweep_writes_csv_and_svg() {
        let dir = std::env::temp_dir().join(format!("dsplan-sweep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let svg = dir.join("s.svg");
        let csv = dir.join("s.csv");
        let argv = format!(
            "x --hosts-list 1,4 --max-datastores 8 --random-pct 100 --svg {} --csv {}",
            svg.display(),
            csv.display()
        );
        let cli = Cli::try_parse_from(argv.split_whitespace()).unwrap();
        run(&cli.args).unwrap();
        let text = std::fs::read_to_string(&csv).unwrap();
        // header + 2 host counts x 8 datastore counts
        assert_eq!(text.lines().count(), 1 + 16);
        // 1 host, 1 datastore: one flow, 76,000 IOPS
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .starts_with("anf-avs,1,1,76000.0,")
        );
        let chart = std::fs::read_to_string(&svg).unwrap();
        assert!(
            chart.starts_with("<svg") && chart.contains("4 hosts") && chart.contains("1 host\n")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

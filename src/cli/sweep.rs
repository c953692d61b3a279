//! `dsplan sweep`: predicted IOPS and MiB/s against datastore count for several host
//! counts, as CSV and an SVG chart (in the style of the published AVS scaling charts).

use std::path::PathBuf;

use dsplan::perf::Prediction;
use dsplan::report::charts::{HostLine, sweep_svg};

use super::common::CommonArgs;

/// `dsplan sweep [--hosts-list 1,4,8,16] [--max-datastores 16] [--csv FILE] [--svg FILE]`.
#[derive(clap::Args, Debug, Clone)]
pub struct SweepArgs {
    /// Host counts, one line each.
    #[arg(long, value_delimiter = ',', default_value = "1,4,8,16")]
    pub hosts_list: Vec<u32>,
    /// Datastore counts 1..=N.
    #[arg(long, default_value_t = 16)]
    pub max_datastores: u32,
    /// Write the CSV here instead of stdout.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write the SVG chart here.
    #[arg(long, default_value = "sweep.svg")]
    pub svg: PathBuf,
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

/// Evaluates the grid of host and datastore counts.
///
/// # Errors
/// A message naming the invalid flag or value.
pub fn points(args: &SweepArgs) -> Result<Vec<Point>, String> {
    if args.hosts_list.is_empty() || args.max_datastores == 0 {
        return Err("--hosts-list and --max-datastores need at least one value".into());
    }
    // The grid stays what a chart can show: AVS allows at most 256 datastores per cluster
    // (data/limits.csv), and a host list of at most 32 counts of at most 1,024 hosts.
    let most_datastores = dsplan::catalog::Catalog::builtin()
        .map_err(|e| e.to_string())?
        .limits
        .max_datastores;
    if args.max_datastores > most_datastores {
        return Err(format!(
            "invalid --max-datastores {}: at most {most_datastores} (AVS datastores per cluster)",
            args.max_datastores
        ));
    }
    if args.hosts_list.len() > 32 || args.hosts_list.iter().any(|&h| h == 0 || h > 1024) {
        return Err("invalid --hosts-list: 1 to 32 host counts, each 1..1024".into());
    }
    if args.csv.as_deref() == Some(args.svg.as_path()) {
        return Err("--csv and --svg name the same file".into());
    }
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
/// (`dsplan::report::charts::sweep_svg`), and writes it to `path`.
///
/// # Errors
/// A message if the chart cannot be drawn or written.
pub fn write_svg(points: &[Point], path: &std::path::Path, title: &str) -> Result<(), String> {
    let mut lines: Vec<HostLine> = Vec::new();
    for p in points {
        // A host count listed twice is drawn once.
        let seen =
            |l: &HostLine| l.hosts == p.hosts && l.points.iter().any(|q| q.0 == p.datastores);
        if lines.iter().any(seen) {
            continue;
        }
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
    std::fs::write(path, svg).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `dsplan sweep`: CSV to stdout (or `--csv`), chart to `--svg`.
///
/// # Errors
/// A message naming the invalid flag or the file that could not be written.
pub fn run(args: &SweepArgs) -> Result<(), String> {
    let pts = points(args)?;
    let csv = to_csv(&pts);
    match &args.csv {
        Some(p) => std::fs::write(p, &csv).map_err(|e| format!("{}: {e}", p.display()))?,
        None => super::print_out(&csv)?,
    }
    let c = &args.common;
    let title = format!(
        "{}: {} {}% read {}% random",
        pts.first().map_or("", |p| p.prediction.system.as_str()),
        c.block_size,
        c.read_pct,
        c.random_pct
    );
    write_svg(&pts, &args.svg, &title)
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

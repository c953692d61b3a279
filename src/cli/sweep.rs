//! `dsplan sweep`: predicted IOPS and MiB/s against datastore count for several host
//! counts, as CSV and an SVG chart (in the style of the published AVS scaling charts).

use std::path::PathBuf;

use plotters::prelude::*;

use dsplan::perf::Prediction;

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

/// Draws IOPS (left) and MiB/s (right) against datastore count, one line per host count.
///
/// # Errors
/// A message if the chart cannot be drawn or written.
pub fn write_svg(points: &[Point], path: &std::path::Path, title: &str) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let root = root.titled(title, ("sans-serif", 20)).map_err(|x| e(&x))?;
    let (left, right) = root.split_horizontally(600);
    let max_d = points.iter().map(|p| p.datastores).max().unwrap_or(1);
    let mut hosts: Vec<u32> = points.iter().map(|p| p.hosts).collect();
    hosts.dedup();
    type Pick = fn(&Prediction) -> f64;
    let panels: [(&DrawingArea<SVGBackend, _>, &str, Pick); 2] = [
        (&left, "IOPS", |p| p.iops),
        (&right, "MiB/s", |p| p.throughput_mibps),
    ];
    for (area, label, pick) in panels {
        let y_max = points
            .iter()
            .map(|p| pick(&p.prediction))
            .fold(0.0, f64::max)
            * 1.1;
        let mut chart = ChartBuilder::on(area)
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .caption(format!("predicted {label}"), ("sans-serif", 16))
            .build_cartesian_2d(1u32..max_d.max(2), 0.0..y_max.max(1.0))
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .x_desc("datastores")
            .y_desc(label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(|x| e(&x))?;
        for (i, h) in hosts.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    points
                        .iter()
                        .filter(|p| p.hosts == *h)
                        .map(|p| (p.datastores, pick(&p.prediction))),
                    color.stroke_width(2),
                ))
                .map_err(|x| e(&x))?
                .label(format!("{h} host(s)"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(|x| e(&x))?;
    }
    root.present().map_err(|x| e(&x))?;
    Ok(())
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
        assert!(chart.starts_with("<svg") && chart.contains("4 host(s)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

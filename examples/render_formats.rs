//! One job: renders one estate plan in every format the library offers and writes each to
//! a folder: text (the summary and `--detail`), JSON, CSV, Markdown and HTML; with the
//! `xlsx` feature the workbook, with `charts` the SVG charts (the HTML then carries them
//! too). All are default features; `--no-default-features` leaves those three out.
//!
//! ```sh
//! cargo run --example render_formats -- out/   # writes out/plan.txt, out/plan.json ...
//! cargo run --example render_formats           # into a temporary folder, then removed
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dsplan::report::{Format, TextDetail, render_estate_plan, render_estate_text};
use dsplan::{PlanOptions, Planned, Planner};

fn main() -> ExitCode {
    let given = std::env::args_os().nth(1).map(PathBuf::from);
    let dir = given.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("dsplan-formats-{}", std::process::id()))
    });
    let written = render_all(&dir);
    if given.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match written {
        Ok(files) => {
            for (name, bytes) in files {
                println!("{name}: {bytes} bytes");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plans the fixture's estate and writes every format into `dir`; returns each file's name
/// and size.
fn render_all(dir: &Path) -> Result<Vec<(String, usize)>, Box<dyn std::error::Error>> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate.xlsx");
    let options = PlanOptions::default();
    // `run` plans as the command does: without `hosts` or `per_cluster`, the estate.
    let planned = Planner::new()
        .input(&fixture)
        .options(options.clone())
        .run()?;
    let Planned::Estate(estate) = &planned else {
        return Err("expected an estate plan".into());
    };
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "summary.txt".into(),
            render_estate_text(estate, TextDetail::Summary).into(),
        ),
        (
            "plan.txt".into(),
            render_estate_text(estate, TextDetail::Full).into(),
        ),
        (
            "plan.json".into(),
            render_estate_plan(estate, Format::Json)?.into(),
        ),
        (
            "plan.csv".into(),
            render_estate_plan(estate, Format::Csv)?.into(),
        ),
        (
            "plan.md".into(),
            render_estate_plan(estate, Format::Markdown)?.into(),
        ),
    ];
    #[cfg(feature = "xlsx")]
    files.push((
        "plan.xlsx".into(),
        dsplan::report::xlsx::estate_xlsx(estate)?.bytes,
    ));
    #[cfg(feature = "charts")]
    let charts = planned.charts(&options)?;
    #[cfg(not(feature = "charts"))]
    let charts: Vec<dsplan::report::Chart> = Vec::new();
    files.push((
        "plan.html".into(),
        dsplan::report::html::estate_html(estate, &charts).into(),
    ));
    for (name, svg) in charts {
        files.push((name, svg.into()));
    }
    std::fs::create_dir_all(dir)?;
    let mut sizes = Vec::new();
    for (name, bytes) in files {
        std::fs::write(dir.join(&name), &bytes)?;
        sizes.push((name, bytes.len()));
    }
    Ok(sizes)
}

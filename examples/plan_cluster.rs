//! One job: plans the datastores of one AVS cluster of 4 hosts (`dsplan plan --hosts 4`)
//! through the library's front door, [`dsplan::Planner`], with per-VM performance figures
//! and a price file of one's own, then prints the plan as text. (`plan_estate` plans the
//! whole estate instead, its hosts sized from the VMs.)
//!
//! ```sh
//! cargo run --example plan_cluster                     # the fixture shipped in the repo
//! cargo run --example plan_cluster -- export.xlsx      # an RVTools export of yours
//! ```
//!
//! The example writes two small files into a temporary folder:
//! - `perf.csv`, the peak IOPS and MiB/s of two VMs (as from a monitoring tool); the plan
//!   spreads a VM whose need exceeds one datastore's flows, and with no estate targets the
//!   targets are the per-VM sums;
//! - `prices.csv`, the built-in East US rows of `data/prices.csv` with a 15% negotiated
//!   discount, in the columns a price file has.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dsplan::catalog::ReservationTerm;
use dsplan::report::{self, Format};
use dsplan::{PlanOptions, Planner};

fn main() -> ExitCode {
    match run() {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<String, Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let input = std::env::args_os()
        .nth(1)
        .map_or_else(|| root.join("fixtures/small-estate.xlsx"), PathBuf::from);
    let dir = std::env::temp_dir().join(format!("dsplan-plan-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let perf = dir.join("perf.csv");
    // db-01 and build-01 are VMs of fixtures/small-estate.xlsx.
    std::fs::write(
        &perf,
        "vm,iops,throughput_mibps\ndb-01,100000,300\nbuild-01,2000,50\n",
    )?;
    let prices = dir.join("prices.csv");
    write_discounted_prices(&root.join("data/prices.csv"), &prices, "eastus", 0.85)?;

    let mut planner = Planner::new();
    planner.input(&input).options(
        PlanOptions::default()
            .perf(perf)
            .price_file(prices)
            .hosts(4)
            .growth_pct(20.0)
            .reservation(ReservationTerm::OneYear),
    );
    let planned = planner.plan();
    std::fs::remove_dir_all(&dir)?; // whether or not planning succeeded
    Ok(report::render_plan(&planned?, Format::Text)?)
}

/// Copies the header and the rows of `region` from `from` to `to`, with every price times
/// `factor`.
fn write_discounted_prices(
    from: &Path,
    to: &Path,
    region: &str,
    factor: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut reader = csv::Reader::from_path(from)?;
    let headers = reader.headers()?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{}: no column {name}", from.display()))
    };
    let (region_col, price_col) = (column("region")?, column("retail_price_usd")?);
    let mut writer = csv::Writer::from_path(to)?;
    writer.write_record(&headers)?;
    for record in reader.records() {
        let record = record?;
        if &record[region_col] != region {
            continue;
        }
        let mut row: Vec<String> = record.iter().map(String::from).collect();
        let price: f64 = row[price_col].parse()?;
        row[price_col] = format!("{}", price * factor);
        writer.write_record(&row)?;
    }
    writer.flush()?;
    Ok(())
}

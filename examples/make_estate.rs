//! Writes a synthetic RVTools export of N VMs over a few clusters, for timing whole `dsplan`
//! runs on estates larger than the fixtures (`BENCHMARKS.md`: start-up, estate scale).
//!
//! ```text
//! cargo run --release --example make_estate -- OUT.csv|OUT.xlsx [VMS] [CLUSTERS]
//!     [--in-use-pib P] [--hosts-per-cluster N] [--no-vdisk]
//! ```
//!
//! Defaults: 1,000 VMs, 4 clusters. `OUT.csv` is a vInfo CSV (columns as
//! `fixtures/small-estate-vinfo.csv`: en-US, every field quoted, thousands separators).
//! `OUT.xlsx` is a workbook with the RVTools tabs vInfo, vHost, vCluster, vMemory and vDisk
//! (`--no-vdisk` leaves vDisk out), numbers as numbers, the tabs joined by `VI SDK Server`,
//! `VM ID` and `VM UUID` as in a real export. Examples: a 10,000-VM estate with 4 source
//! clusters and 5.5 PiB in use is `OUT.xlsx 10000 4 --in-use-pib 5.5`; a 50,000-VM one
//! `OUT.xlsx 50000 4`.
//!
//! The estate itself (per-VM distribution, hosts, determinism) is described in
//! `examples/support/estate_gen.rs`, which `benches/estate.rs` and `tests/estate_scale.rs`
//! share.

use std::error::Error;

#[path = "support/estate_gen.rs"]
#[allow(dead_code)]
mod estate_gen;

use estate_gen::{MIB_PER_PIB, Spec};

/// The command line: the output path and what to generate.
struct Args {
    out: String,
    spec: Spec,
}

fn parse_args() -> Result<Args, Box<dyn Error>> {
    const USAGE: &str = "usage: make_estate OUT.csv|OUT.xlsx [VMS] [CLUSTERS] \
                         [--in-use-pib P] [--hosts-per-cluster N] [--no-vdisk]";
    let mut positional = Vec::new();
    let (mut in_use_pib, mut hosts_per_cluster, mut vdisk) = (None, None, true);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--in-use-pib" => in_use_pib = Some(args.next().ok_or(USAGE)?.parse::<f64>()?),
            "--hosts-per-cluster" => {
                hosts_per_cluster = Some(args.next().ok_or(USAGE)?.parse::<usize>()?)
            }
            "--no-vdisk" => vdisk = false,
            s if s.starts_with("--") => return Err(format!("unknown option {s}; {USAGE}").into()),
            _ => positional.push(a),
        }
    }
    let mut positional = positional.into_iter();
    let out = positional.next().ok_or(USAGE)?;
    let vms: usize = positional.next().map_or(Ok(1000), |s| s.parse())?;
    let clusters: usize = positional.next().map_or(Ok(4), |s| s.parse())?;
    if clusters == 0 || hosts_per_cluster == Some(0) {
        return Err("CLUSTERS and --hosts-per-cluster must be at least 1".into());
    }
    if in_use_pib.is_some_and(|p| !(p.is_finite() && p > 0.0)) {
        return Err("--in-use-pib must be a positive number".into());
    }
    Ok(Args {
        out,
        spec: Spec {
            vms,
            clusters,
            in_use_pib,
            hosts_per_cluster,
            vdisk,
        },
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = parse_args()?;
    let written = estate_gen::write(&args.out, &args.spec)?;
    println!(
        "wrote {} VMs over {} clusters of {} hosts, {:.3} PiB in use, to {}",
        args.spec.vms,
        args.spec.clusters,
        written.hosts,
        written.in_use_mib as f64 / MIB_PER_PIB,
        args.out
    );
    Ok(())
}

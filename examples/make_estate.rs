//! Writes a synthetic RVTools vInfo CSV of N VMs over a few clusters, for timing whole
//! `dsplan` runs on an estate larger than the fixtures (`BENCHMARKS.md`, start-up section).
//!
//! `cargo run --release --example make_estate -- OUT.csv [VMS] [CLUSTERS]`
//! (defaults: 1,000 VMs, 4 clusters). The output is deterministic: VM `i` is in cluster
//! `i % CLUSTERS`, on one of 8 hosts of that cluster; a fixed pseudo-random sequence
//! (xorshift) picks its size (40 GiB to 2,000 GiB provisioned, 30 to 90 % in use), vCPUs and
//! memory, and powers off about 1 VM in 25 and makes about 1 in 100 a template. Columns as `fixtures/small-estate-vinfo.csv` (en-US, every field
//! quoted, thousands separators).

use std::error::Error;
use std::fmt::Write as _;

const HEADER: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "SRM Placeholder",
    "CPUs",
    "Memory",
    "Disks",
    "Provisioned MiB",
    "In Use MiB",
    "Unshared MiB",
    "Path",
    "Annotation",
    "Owner",
    "Datacenter",
    "Cluster",
    "Host",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
];

/// `1234567` -> `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .ok_or("usage: make_estate OUT.csv [VMS] [CLUSTERS]")?;
    let vms: usize = args.next().map_or(Ok(1000), |s| s.parse())?;
    let clusters: usize = args.next().map_or(Ok(4), |s| s.parse())?;
    if clusters == 0 {
        return Err("CLUSTERS must be at least 1".into());
    }
    let quoted = |cells: &[String]| -> String {
        cells
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut s = quoted(&HEADER.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    s.push('\n');
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| -> u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for i in 0..vms {
        let cluster = i % clusters;
        let host = (i / clusters) % 8;
        let provisioned_gib = [40u64, 100, 250, 500, 1024, 2000][next(6) as usize];
        let in_use_pct = 30 + next(61);
        let provisioned_mib = provisioned_gib * 1024;
        let in_use_mib = provisioned_mib * in_use_pct / 100;
        let size = next(4) as usize;
        let name = format!("vm-{i:05}");
        let row = [
            name.clone(),
            if next(25) == 0 {
                "poweredOff"
            } else {
                "poweredOn"
            }
            .to_string(),
            if next(100) == 0 { "True" } else { "False" }.to_string(),
            "False".to_string(),
            [2u64, 4, 8, 16][size].to_string(),
            grouped([4096u64, 8192, 16384, 32768][size]),
            (1 + next(4)).to_string(),
            grouped(provisioned_mib),
            grouped(in_use_mib),
            grouped(in_use_mib),
            format!("[ds-c{cluster}] {name}/{name}.vmx"),
            String::new(),
            format!("team {}", i % 10),
            "DC1".to_string(),
            format!("Cluster-{cluster}"),
            format!("esx-c{cluster}-{host:02}"),
            format!("vm-{}", 1000 + i),
            format!("42000000-0000-0000-0000-{:012}", i),
            "vcenter.example.test".to_string(),
        ];
        let _ = writeln!(s, "{}", quoted(&row));
    }
    std::fs::write(&out, s)?;
    println!("wrote {vms} VMs over {clusters} clusters to {out}");
    Ok(())
}

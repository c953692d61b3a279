// Included with `include!` by the tests that run the binary (`cli`, `cli_checks`,
// `phases_large`, `sections`): the repository root, a file of `../shared/rvtools` (printing
// that it skipped when absent), a `dsplan` run from the root and its stderr. Not every
// including test uses every helper, hence the `allow(dead_code)`s.

/// The repository root.
#[allow(dead_code)]
fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/rvtools/NAME`, or `None` after printing `skipped: ../shared not found`.
#[allow(dead_code)]
fn shared(name: &str) -> Option<std::path::PathBuf> {
    let p = root().join("../shared/rvtools").join(name);
    if p.exists() {
        Some(p)
    } else {
        println!("skipped: ../shared not found");
        None
    }
}

/// Runs the `dsplan` binary with `args` from the repository root.
#[allow(dead_code)]
fn dsplan(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the dsplan binary runs")
}

/// The command's stderr as text.
#[allow(dead_code)]
fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one-cluster plan with time phases and cool data that several tests share:
/// 3 hosts, 20,000 IOPS and 400 MiB/s, 3 peak months at 40,000 IOPS, 60 % cold.
#[allow(dead_code)]
const PEAK_PLAN_FLAGS: [&str; 12] = [
    "--hosts",
    "3",
    "--iops",
    "20000",
    "--throughput-mibps",
    "400",
    "--peak-months",
    "3",
    "--peak-iops",
    "40000",
    "--cold-pct",
    "60",
];

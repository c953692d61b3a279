// Included with `include!` by the tests that run the binary (`cli`, `sections`): the
// repository root, a file of `../shared/rvtools` (printing that it skipped when absent) and
// a `dsplan` run from the root.

/// The repository root.
fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/rvtools/NAME`, or `None` after printing `skipped: ../shared not found`.
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
fn dsplan(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the dsplan binary runs")
}

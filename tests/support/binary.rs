// The built binary and its output, shared by the tests that run it (`include!`d).

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the debug binary with `args` in the repository root.
fn dsplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the dsplan binary runs")
}

/// The command's stderr as text.
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

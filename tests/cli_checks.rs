//! Issue 12's silent answers of the command and the price file, through the built binary:
//! each case exits with a message naming the flag, file, row and problem, or warns.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn dsplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the dsplan binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-checks-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `args`, expects exit `code` and every needle in stderr; returns stderr.
fn fails(code: i32, args: &[&str], needles: &[&str]) -> String {
    let o = dsplan(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{e}");
    for n in needles {
        assert!(e.contains(n), "{args:?}: '{n}' not in: {e}");
    }
    e
}

const FX: &str = "fixtures/small-estate.xlsx";

#[test]
fn a_perf_csv_without_a_rate_column_is_refused_listing_the_spellings() {
    let dir = scratch("perf-cols");
    // `vm` is found (vm / Name), but neither IOPS_total nor MBps nor foo is a spelling of
    // iops or throughput_mibps: every VM would be 0 IOPS, 0 MiB/s.
    for (name, text) in [
        ("a.csv", "vm,IOPS_total,MBps\nweb-01,100,10\n"),
        ("b.csv", "name,foo\nweb-01,100\n"),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        fails(
            1,
            &["plan", FX, "--hosts", "3", "--perf", &p.to_string_lossy()],
            &[name, "no performance column", "Total IOPS", "MiBps"],
        );
    }
    // One rate column is enough.
    let ok = dir.join("ok.csv");
    std::fs::write(&ok, "vm,MiB/s\nweb-01,10\n").unwrap();
    let o = dsplan(&["plan", FX, "--hosts", "3", "--perf", &ok.to_string_lossy()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn negative_values_reach_the_range_checks() {
    // Before: clap took `-5` for a flag and suggested `-- -5`, which does not work.
    let e = fails(
        1,
        &["plan", FX, "--headroom-pct", "-5"],
        &["--headroom-pct", "-5", ">= 0"],
    );
    assert!(!e.contains("-- -5"), "{e}");
    fails(
        1,
        &[
            "predict",
            "--hosts",
            "1",
            "--datastores",
            "1",
            "--read-pct",
            "-5",
        ],
        &["--read-pct", "-5", "0..100"],
    );
    fails(1, &["plan", FX, "--hosts", "-3"], &["--hosts", "-3"]);
}

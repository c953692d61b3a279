//! Issue 12's silent answers of the command and the price file, through the built binary:
//! each case exits with a message naming the flag, file, row and problem, or warns.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::PathBuf;
use std::process::{Command, Output};

include!("support/command.rs");

include!("support/schema_check.rs");

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
        &["--headroom-pct", "-5", "from 0 to 1000"],
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
        &["--read-pct", "-5", "from 0 to 100"],
    );
    fails(1, &["plan", FX, "--hosts", "-3"], &["--hosts", "-3"]);
}

#[test]
fn predict_refuses_what_it_used_to_clamp_or_ignore() {
    let p = |extra: &[&str]| {
        let mut a = vec!["predict", "--hosts", "1", "--datastores", "1"];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |extra: &[&str], needles: &[&str]| {
        let a = p(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        fails(1, &a, needles)
    };
    // Flexible, 1 TiB: at most 640 MiB/s per TiB x 1 TiB = 640 MiB/s, of which 128 are
    // included, so at most 640 - 128 = 512 can be bought; 100,000 used to become 640.
    let flex = ["--service-level", "flexible", "--size-tib", "1"];
    run(
        &[&flex[..], &["--flexible-mibps", "100000"]].concat(),
        &[
            "--flexible-mibps 100000",
            "640 MiB/s",
            "5 x the 128",
            "at most 512",
        ],
    );
    // 512 is the most that fits: accepted, QoS 128 + 512 = 640 MiB/s.
    let a = p(&[&flex[..], &["--flexible-mibps", "512", "--json"]].concat());
    let o = dsplan(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&v);
    assert_eq!(v["layout"]["qos_throughput_mibps"], 640.0);
    // Purchased throughput on Ultra, or with no level, was ignored.
    run(
        &[
            "--service-level",
            "ultra",
            "--size-tib",
            "1",
            "--flexible-mibps",
            "10",
        ],
        &[
            "--flexible-mibps 10",
            "flexible service level only",
            "ultra",
        ],
    );
    run(
        &["--flexible-mibps", "10"],
        &["--flexible-mibps 10", "needs --service-level"],
    );
    // The latency by Little's law is gone, and so is its flag.
    run(
        &["--outstanding-io", "0"],
        &["--outstanding-io", "not a latency model"],
    );
    run(&["--outstanding-io", "64"], &["--outstanding-io"]);
    // An AVS cluster has at most 16 hosts (data/limits.csv max_hosts).
    fails(
        1,
        &["predict", "--hosts", "1000000", "--datastores", "1"],
        &["--hosts 1000000", "1..=16"],
    );
    let ok = dsplan(&["predict", "--hosts", "16", "--datastores", "1"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let text = stdout(&ok);
    assert!(
        !text.contains("latency") && text.contains("utilization"),
        "{text}"
    );
    let o = dsplan(&["predict", "--hosts", "4", "--datastores", "4", "--json"]);
    assert!(!stdout(&o).contains("latency"), "{}", stdout(&o));
    assert_schema_valid(&serde_json::from_slice(&o.stdout).unwrap());
}

#[test]
fn sweep_checks_its_grid_and_outputs_before_any_work() {
    let dir = scratch("sweep");
    let svg = dir.join("s.svg");
    let s = svg.to_string_lossy().into_owned();
    fails(
        1,
        &["sweep", "--max-datastores", "0", "--svg", &s],
        &["--max-datastores 0", "1..=256"],
    );
    fails(
        1,
        &["sweep", "--hosts-list", "4,4,4", "--svg", &s],
        &["--hosts-list", "4 is listed more than once"],
    );
    fails(
        1,
        &["sweep", "--hosts-list", "1,17", "--svg", &s],
        &["--hosts-list 17", "1..=16"],
    );
    // A folder that cannot be made (under a file) fails before any CSV is printed.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let under = file.join("charts").join("s.svg");
    let o = dsplan(&["sweep", "--svg", &under.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "CSV printed before failing");
    assert!(stderr(&o).contains("--svg"), "{}", stderr(&o));
    // --svg DIR (existing, or missing and ending in /) writes DIR/sweep.svg; 2 host counts x
    // 3 datastore counts = 6 CSV rows + the header.
    let folder = format!("{}/new-folder/", dir.display());
    let o = dsplan(&[
        "sweep",
        "--hosts-list",
        "1,4",
        "--max-datastores",
        "3",
        "--svg",
        &folder,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 7);
    let chart = std::fs::read_to_string(dir.join("new-folder/sweep.svg")).unwrap();
    assert!(chart.starts_with("<svg"));
    let o = dsplan(&[
        "sweep",
        "--max-datastores",
        "1",
        "--svg",
        &dir.to_string_lossy(),
    ]);
    assert!(
        o.status.success() && dir.join("sweep.svg").is_file(),
        "{}",
        stderr(&o)
    );
    // The default ./sweep.svg is named on stderr (run in the scratch folder).
    let o = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(["sweep", "--max-datastores", "1"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("./sweep.svg"), "{}", stderr(&o));
    // Neither output may be the --system profile it reads.
    let profile = dir.join("profile.csv");
    std::fs::copy(root().join("data/systems/anf-avs.csv"), &profile).unwrap();
    let before = std::fs::read(&profile).unwrap();
    let p = profile.to_string_lossy().into_owned();
    fails(
        1,
        &["sweep", "--system", &p, "--svg", &p],
        &["refusing", "profile.csv"],
    );
    fails(
        1,
        &["sweep", "--system", &p, "--svg", &s, "--csv", &p],
        &["refusing", "--csv"],
    );
    assert_eq!(std::fs::read(&profile).unwrap(), before);
}

/// The shipped price list with `edit` applied to its lines, written to `dir/name`.
fn price_file(dir: &std::path::Path, name: &str, edit: impl Fn(&str) -> String) -> String {
    let text = std::fs::read_to_string(root().join("data/prices.csv")).unwrap();
    let out: String = text.lines().map(|l| edit(l) + "\n").collect();
    let p = dir.join(name);
    std::fs::write(&p, out).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn price_file_problems_each_get_their_own_message() {
    let dir = scratch("prices");
    fn plan(file: &str) -> Vec<&str> {
        vec!["plan", FX, "--hosts", "3", "--price-file", file]
    }
    // A missing file names the flag.
    let missing = dir.join("nope.csv").to_string_lossy().into_owned();
    fails(1, &plan(&missing), &["--price-file", "nope.csv"]);
    // A file without the `region` column names the column, not the flag of that name.
    let other = dir.join("other.csv");
    std::fs::write(&other, "foo,bar\n1,2\n").unwrap();
    let e = fails(
        1,
        &plan(&other.to_string_lossy()),
        &["--price-file", "missing column 'region'"],
    );
    assert!(!e.contains("missing field --region"), "{e}");
    // A price that is not a number: row 2 (australiacentral backup, 0.0725) reads "abc"; the
    // message names the row, the column and the value, not the reader's byte offsets.
    let nan = price_file(&dir, "nan.csv", |l| l.replace(",0.0725,", ",abc,"));
    let e = fails(
        1,
        &plan(&nan),
        &[
            "--price-file",
            "row 2: column 'retail_price_usd': 'abc' is not a number",
        ],
    );
    assert!(!e.contains("byte"), "{e}");
    // A changed unit: row 3 is australiacentral cool capacity (head -3 data/prices.csv),
    // the first row of a plan meter; it used to give "invalid --region".
    let unit = price_file(&dir, "unit.csv", |l| {
        l.replace("USD per GiB-hour", "USD per TiB-hour")
    });
    let e = fails(
        1,
        &plan(&unit),
        &[
            "--price-file",
            "unit.csv",
            "row 3",
            "USD per TiB-hour",
            "expected 'USD per GiB-hour'",
        ],
    );
    assert!(!e.contains("--region"), "{e}");
    // eastus standard capacity twice: the copy appended after the 556 rows + header is row
    // 558, the original is row 130 (grep -n '^eastus,US East,standard,capacity').
    let text = std::fs::read_to_string(root().join("data/prices.csv")).unwrap();
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("eastus,US East,standard,capacity"))
        .unwrap();
    let rows = text.lines().count();
    let dup = dir.join("dup.csv");
    std::fs::write(&dup, format!("{text}{line}\n")).unwrap();
    fails(
        1,
        &plan(&dup.to_string_lossy()),
        &[
            &format!("row {}", rows + 1),
            &format!("first is row {}", n + 1),
            "eastus standard capacity",
        ],
    );
    // Zero capacity prices used to plan at 0.00 USD.
    let zero = price_file(&dir, "zero.csv", |l| {
        if l.contains(",capacity,USD per GiB-hour,") {
            let mut f: Vec<&str> = l.splitn(7, ',').collect();
            f[5] = "0";
            f.join(",")
        } else {
            l.to_string()
        }
    });
    fails(
        1,
        &plan(&zero),
        &["zero.csv", "row 3", "capacity price 0", "cost nothing"],
    );
    // Larger than 1 MiB: refused before parsing.
    let big = dir.join("big.csv");
    std::fs::write(&big, "x".repeat((1 << 20) + 1)).unwrap();
    fails(
        1,
        &plan(&big.to_string_lossy()),
        &["--price-file", "big.csv", "1 MiB"],
    );
}

#[test]
fn a_level_without_a_price_in_the_region_is_named_in_a_warning() {
    let dir = scratch("levels");
    let file = price_file(&dir, "no-premium.csv", |l| {
        if l.starts_with("eastus,US East,premium,") {
            String::new()
        } else {
            l.to_string()
        }
    });
    let o = dsplan(&[
        "plan",
        FX,
        "--hosts",
        "3",
        "--price-file",
        &file,
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&v);
    let warned = v["warnings"].as_array().unwrap().iter().any(|w| {
        let m = w["message"].as_str().unwrap();
        m.contains("no premium price for eastus") && m.contains("alternatives")
    });
    assert!(warned, "{}", v["warnings"]);
    // No premium row among the alternatives either.
    assert!(
        !v["alternatives"].to_string().contains("premium only"),
        "{}",
        v["alternatives"]
    );
    // The built-in prices sell every level in eastus: no such warning.
    let o = dsplan(&["plan", FX, "--hosts", "3", "--format", "json"]);
    assert!(!stdout(&o).contains("price list has no"), "{}", stdout(&o));
}

#[test]
fn per_vm_read_pct_and_block_kib_are_said_to_be_unused() {
    let dir = scratch("profile");
    // web-01 gives read_pct and block_kib, db-01 neither: 1 row with its own profile.
    let perf = dir.join("perf.csv");
    std::fs::write(
        &perf,
        "vm,iops,throughput_mibps,read_pct,block_kib\nweb-01,100,10,50,64\ndb-01,100,10,,\n",
    )
    .unwrap();
    let plan_with = |perf: &std::path::Path| {
        let o = dsplan(&[
            "plan",
            FX,
            "--hosts",
            "3",
            "--perf",
            &perf.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let text = plan_with(&perf);
    assert!(
        text.contains("1 VM row(s) give their own read_pct or block_kib")
            && text.contains("(--block-size, --read-pct, --random-pct, shown in Demand)"),
        "{text}"
    );
    // Without those columns: no such warning.
    let plain = dir.join("plain.csv");
    std::fs::write(&plain, "vm,iops\nweb-01,100\n").unwrap();
    let text = plan_with(&plain);
    assert!(!text.contains("their own read_pct"), "{text}");
}

#[test]
fn one_host_running_vms_is_singular() {
    // The vInfo CSV's header and its first VM (web-01) only: 3 hosts, 1 of them runs it.
    let dir = scratch("one-vm");
    let text = std::fs::read_to_string(root().join("fixtures/small-estate-vinfo.csv")).unwrap();
    let one = dir.join("one.csv");
    std::fs::write(
        &one,
        text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let o = dsplan(&["plan", &one.to_string_lossy(), "--hosts", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = stdout(&o).lines().next().unwrap_or_default().to_string();
    assert!(first.contains("3 hosts (1 runs VMs)"), "{first}");
    // 1 host running VMs x 1 datastore = 1 flow: both nouns singular (issue 12 item 11).
    assert!(
        first.ends_with("3 hosts (1 runs VMs) x 1 datastore = 1 flow"),
        "{first}"
    );
}

/// `plan fixtures/small-estate.xlsx --hosts 3 ARGS` exits 2; the figure of "at most X is
/// reachable" and the `predict` arguments of the layout the message names.
fn infeasible_layout(args: &[&str]) -> (String, Vec<String>, String) {
    let mut argv = vec!["plan", "fixtures/small-estate.xlsx", "--hosts", "3"];
    argv.extend_from_slice(args);
    let out = dsplan(&argv);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let between = |from: &str, to: &str| -> String {
        let start = err.find(from).map(|i| i + from.len()).unwrap_or(0);
        let len = err[start..].find(to).unwrap_or(0);
        err[start..start + len].to_string()
    };
    let figure = between("at most ", " is reachable");
    // "best with D datastore(s) x H hosts running V VM(s) (P per host) = F flows at B KiB,
    // R% read, Q% random"
    let layout = between("best with ", "% random");
    let words: Vec<&str> = layout
        .split(|c: char| c.is_whitespace() || c == '(' || c == ',' || c == '%')
        .filter(|w| !w.is_empty())
        .collect();
    let number = |after: &str| {
        let i = words.iter().position(|w| *w == after).unwrap_or(0);
        words[i.saturating_sub(1)].to_string()
    };
    let mut predict: Vec<String> = [
        ("--datastores", words[0].to_string()),
        ("--hosts", number("hosts")),
        ("--vms-per-host", number("per")),
        ("--block-size", number("KiB")),
        ("--read-pct", number("read")),
        ("--random-pct", number("random")),
    ]
    .into_iter()
    .flat_map(|(flag, value)| [flag.to_string(), value])
    .collect();
    if err.contains("(12,800 MiB/s per volume)") {
        predict.push("--large-volume".into());
    }
    (figure, predict, err)
}

#[test]
fn infeasible_figures_agree_with_predict_for_the_same_layout() {
    // The IOPS target: 7 datastores x 3 hosts (2 VMs each) at 8 KiB, 70% read, 80% random;
    // predict gives 661,584.71 IOPS (host layer), which both round down to 661,584 (the
    // error used to floor and predict to round: 661,585). The MiB/s target: 2 datastores at
    // 64 KiB, 0% random: 7,684.86 MiB/s -> 7,684.8 in both (the error printed 7,684,
    // predict 7684.9).
    for (args, which, expected) in [
        (&["--iops", "5000000"][..], "IOPS", "661,584"),
        (
            &["--iops", "5000000", "--allow-large-volumes"],
            "IOPS",
            "661,584",
        ),
        (&["--throughput-mibps", "100000"], "MiB/s", "7,684.8"),
        (
            &["--throughput-mibps", "100000", "--allow-large-volumes"],
            "MiB/s",
            "7,684.8",
        ),
    ] {
        let (figure, predict_args, err) = infeasible_layout(args);
        assert_eq!(figure, expected, "{err}");
        let large = args.contains(&"--allow-large-volumes");
        assert_eq!(
            err.contains("regular and large volumes (12,800 MiB/s per volume)"),
            large,
            "{err}"
        );
        let mut argv = vec!["predict"];
        argv.extend(predict_args.iter().map(String::as_str));
        let out = dsplan(&argv);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{argv:?}: {}", stderr(&out));
        let predicted = text
            .lines()
            .find_map(|l| l.strip_prefix("predicted: "))
            .unwrap_or_default();
        let shown = format!("{figure} {which}");
        assert!(
            predicted.contains(&shown),
            "{argv:?}: '{predicted}' vs '{shown}'\n{err}"
        );
    }
}

#[test]
fn text_figures_are_grouped_and_no_empty_reservation_is_shown() {
    // db-01's RDM disk is 2,097,152 MiB = 2,048 GiB (fixtures/small-estate.xlsx vDisk):
    // written 2,048.0, not 2048.0. --reservation 1y buys nothing for a 3 TiB Flexible pool
    // (no published discount for Flexible): no "0 TiB reserved at 0% off" anywhere.
    for args in [&["--hosts", "3"][..], &["--per-cluster"], &[]] {
        for format in ["text", "md"] {
            let mut argv = vec!["plan", "fixtures/small-estate.xlsx", "--reservation", "1y"];
            argv.extend_from_slice(args);
            argv.extend_from_slice(&["--format", format]);
            let o = dsplan(&argv);
            assert!(o.status.success(), "{argv:?}: {}", stderr(&o));
            let text = stdout(&o);
            assert!(
                text.contains("VM 'db-01' has 2,048.0 GiB of RDM disks"),
                "{argv:?}"
            );
            assert!(!text.contains(" 0 TiB reserved"), "{argv:?}\n{text}");
            assert!(!text.contains(" 0% off"), "{argv:?}\n{text}");
        }
    }
}

#[test]
fn count_flags_name_their_real_range_for_negative_values() {
    // Before: clap parsed u32 and said "-3 is not in 0..=4294967295".
    // data/limits.csv: an AVS cluster has 3..=16 hosts, so 0..=15 kept free for HA; 256
    // datastores per cluster.
    for (flag, value, range) in [
        ("--hosts", "-3", "from 3 to 16"),
        ("--ha-hosts", "-1", "from 0 to 15"),
        ("--max-datastores", "-1", "from 1 to 256"),
    ] {
        let e = fails(1, &["plan", FX, flag, value], &[flag, value, range]);
        assert!(!e.contains("4294967295"), "{e}");
    }
    // Before: "unexpected argument '-8' found".
    fails(
        1,
        &["plan", FX, "--hosts", "3", "--block-size", "-8K"],
        &["--block-size", "-8K", "positive"],
    );
    fails(
        1,
        &["predict", "--hosts", "1", "--datastores", "-2"],
        &["--datastores", "from 1 to 256"],
    );
}

#[test]
fn huge_and_tiny_plan_values_are_refused_with_a_short_figure() {
    for (args, needles) in [
        // Growth 0..=1000 %: 1e300 was "invalid `capacity`: 8000…" with 300 digits.
        (
            &["--hosts", "3", "--growth-pct", "1e300"][..],
            &["--growth-pct", "1e300", "from 0 to 1000"][..],
        ),
        // IOPS 0..=1e9 (96 hosts x 198,060 IOPS ~ 19 million): 1e308 exited 2.
        (
            &["--hosts", "3", "--iops", "1e308"],
            &["--iops", "1e308", "1,000,000,000", "19 million"],
        ),
        (
            &["--hosts", "3", "--throughput-mibps", "2e7"],
            &["--throughput-mibps", "20000000", "10,000,000"],
        ),
        // Overcommit 0.1..=10: 1e-300 printed 300 zeros.
        (
            &["--memory-overcommit", "1e-300"],
            &["--memory-overcommit", "1e-300", "0.1 to 10"],
        ),
        (
            &["--hosts", "3", "--read-pct", "1e300"],
            &["--read-pct", "1e300", "from 0 to 100"],
        ),
        (
            &["--vsan-dedup-ratio", "1e300"],
            &["--vsan-dedup-ratio", "1e300", "1 to 10"],
        ),
        (
            &["--vsan-host-usd-per-hour", "1e300"],
            &["--vsan-host-usd-per-hour", "1e300", "1,000 USD"],
        ),
    ] {
        let mut all = vec!["plan", FX];
        all.extend_from_slice(args);
        let e = fails(1, &all, needles);
        assert!(e.len() < 400, "{e}");
        assert!(!e.contains("`"), "library name leaked: {e}");
    }
    // The edges are accepted: 1,000 % growth on 3 hosts plans (exit 0 or 2, not 1).
    let o = dsplan(&["plan", FX, "--hosts", "3", "--growth-pct", "1000"]);
    assert_ne!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn predict_refuses_layouts_plan_cannot_have() {
    let base = ["predict", "--hosts", "1"];
    let with = |extra: &[&'static str]| {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    // plan and sweep cap datastores at 256 (data/limits.csv max_datastores).
    fails(
        1,
        &with(&["--datastores", "100000"]),
        &["--datastores 100000", "1..=256"],
    );
    // A pool is 1..=2,048 TiB (data/limits.csv pool_min_tib, pool_max_tib).
    for tib in ["1e9", "0.0001"] {
        fails(
            1,
            &with(&[
                "--datastores",
                "1",
                "--service-level",
                "premium",
                "--size-tib",
                tib,
            ]),
            &["--size-tib", "1..=2,048 TiB"],
        );
    }
    // A folder and a device exist: not "no such file".
    for path in [
        std::env::temp_dir().to_string_lossy().into_owned(),
        "/dev/zero".into(),
    ] {
        let leaked: &'static str = Box::leak(path.into_boxed_str());
        let e = fails(
            1,
            &with(&["--datastores", "1", "--system", leaked]),
            &["not a regular file"],
        );
        assert!(!e.contains("no such file"), "{e}");
    }
}

#[test]
fn a_charts_path_that_cannot_be_a_folder_fails_before_the_plan_is_printed() {
    // A file where the folder should be, and a folder under that file: exit 1, naming
    // --charts, and nothing on stdout (the plan used to be printed first).
    let dir = scratch("charts-file");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (path, why) in [
        (file.clone(), "a file, not a folder"),
        (file.join("charts"), "cannot create"),
    ] {
        let p = path.to_string_lossy().into_owned();
        let o = dsplan(&["plan", FX, "--hosts", "3", "--charts", &p]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "the plan was printed before failing");
        assert!(
            stderr(&o).contains(&format!("--charts {p}: {why}")),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn output_inside_the_charts_folder_is_refused_and_dash_is_stdout() {
    let dir = scratch("charts-o");
    let charts = dir.join("cc");
    let inside = charts.join("capacity.svg");
    // Before: exit 0, the capacity chart replaced the plan.
    fails(
        1,
        &[
            "plan",
            FX,
            "--hosts",
            "3",
            "--charts",
            &charts.to_string_lossy(),
            "-o",
            &inside.to_string_lossy(),
        ],
        &["-o", "inside the --charts folder"],
    );
    assert!(!inside.exists());
    // `-o -` is stdout, not a file named `-`: the same bytes as without -o.
    let plain = dsplan(&["plan", FX, "--hosts", "3", "--format", "json"]);
    let dash = dsplan(&["plan", FX, "--hosts", "3", "--format", "json", "-o", "-"]);
    assert!(dash.status.success(), "{}", stderr(&dash));
    assert_eq!(stdout(&dash), stdout(&plain));
    assert!(!std::path::Path::new("-").exists());
}

#[test]
fn sweep_leaves_no_chart_when_it_fails_and_refuses_other_extensions() {
    let dir = scratch("sweep-svg");
    let svg = dir.join("ok.svg");
    let svg_arg = svg.to_string_lossy().into_owned();
    if std::path::Path::new("/dev/full").exists() {
        // Before: exit 1 but an empty ok.svg was left behind.
        fails(
            1,
            &[
                "sweep",
                "--max-datastores",
                "2",
                "--csv",
                "/dev/full",
                "--svg",
                &svg_arg,
            ],
            &["/dev/full"],
        );
        assert!(!svg.exists(), "a failed sweep left {}", svg.display());
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    } else {
        println!("skipped the /dev/full case: no /dev/full here");
    }
    // Before: SVG text in a .png.
    let png = dir.join("x.png");
    fails(
        1,
        &["sweep", "--svg", &png.to_string_lossy()],
        &["--svg", "x.png", ".svg"],
    );
    assert!(!png.exists());
    // A good run writes the chart under its name and nothing else.
    let o = dsplan(&["sweep", "--max-datastores", "2", "--svg", &svg_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn an_unclosed_quote_in_a_vm_name_is_refused_naming_the_row() {
    let dir = scratch("quote");
    // Row 2 opens a quote that is not closed on its line: the reader takes the row and the
    // next VM's name into one name ("unterminated,poweredOn,...,esx1,\nvm-a" up to row 3's
    // first quote), row 3's other cells complete the record, and vm-a disappears.
    let broken = dir.join("vinfo.csv");
    std::fs::write(
        &broken,
        "\"VM\",\"Powerstate\",\"Provisioned MiB\",\"In Use MiB\",\"Cluster\",\"Host\"\n\
         \"unterminated,poweredOn,1024,512,c1,esx1\n\
         vm-a\",\"poweredOn\",\"2048\",\"1024\",\"c1\",\"esx1\"\n",
    )
    .unwrap();
    fails(
        1,
        &["inventory", &broken.to_string_lossy()],
        &[
            "vinfo.csv",
            "[vInfo]",
            "row 2",
            "'VM'",
            "a quote opened here is not closed",
        ],
    );
    // A quoted name closed on the next line swallowed nothing (no separator after the
    // break): the message says the cell holds the break, not that a quote is open.
    let in_cell = dir.join("cell.csv");
    std::fs::write(
        &in_cell,
        "VM,Powerstate,Provisioned MiB,In Use MiB,Cluster,Host\n\
         vm-a,poweredOn,1024,512,c1,esx1\n\
         \"line\nbreak\",poweredOn,2048,1024,c1,esx1\n",
    )
    .unwrap();
    fails(
        1,
        &["inventory", &in_cell.to_string_lossy()],
        &[
            "cell.csv",
            "row 3",
            "'VM'",
            "remove the line break from the cell",
        ],
    );
    let o = dsplan(&["inventory", &in_cell.to_string_lossy()]);
    assert!(!stderr(&o).contains("not closed"), "{}", stderr(&o));
    // A line break inside a quoted Annotation is legitimate: two VMs.
    let fine = dir.join("notes.csv");
    std::fs::write(
        &fine,
        "VM,Powerstate,Provisioned MiB,In Use MiB,Cluster,Host,Annotation\n\
         vm-a,poweredOn,1024,512,c1,esx1,\"line one\nline two\"\n\
         vm-b,poweredOn,2048,1024,c1,esx1,\n",
    )
    .unwrap();
    let o = dsplan(&["inventory", &fine.to_string_lossy()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let c1 = text
        .lines()
        .find(|l| l.starts_with("c1 "))
        .unwrap_or_default();
    assert_eq!(c1.split_whitespace().nth(1), Some("2"), "{text}");
}

#[test]
fn price_files_without_capacity_rows_free_throughput_or_bad_dates_are_refused() {
    let dir = scratch("prices2");
    let plan = |file: &str| fails(1, &["plan", FX, "--hosts", "3", "--price-file", file], &[]);
    // Only cool-tier rows (tier cool, meter capacity, row 3 of data/prices.csv and alike):
    // no service level is priced anywhere. Before: "invalid --region: eastus (a region that
    // sells the requested service levels)".
    let cool_only = price_file(&dir, "cool.csv", |l| {
        if l.starts_with("region,") || l.contains(",cool,") {
            l.to_string()
        } else {
            String::new()
        }
    });
    let e = plan(&cool_only);
    assert!(e.contains("--price-file") && e.contains("cool.csv"), "{e}");
    assert!(e.contains("no service-level capacity rows"), "{e}");
    assert!(!e.contains("--region"), "{e}");
    // Row 127 of data/prices.csv, eastus flexible throughput: at 0 USD (free MiB/s), then
    // with an effective_start that is not a date.
    for (name, from, to, needle) in [
        ("free.csv", ",0.003082,", ",0,", "throughput price 0"),
        (
            "date.csv",
            ",2025-09-01,",
            ",not-a-date,",
            "'not-a-date' is not a date YYYY-MM-DD",
        ),
    ] {
        let file = price_file(&dir, name, |l| {
            if l.starts_with("eastus,US East,flexible,throughput,") {
                l.replace(from, to)
            } else {
                l.to_string()
            }
        });
        let e = plan(&file);
        assert!(e.contains("row 127") && e.contains(needle), "{e}");
    }
}

#[test]
fn perf_files_say_which_columns_they_ignore_and_when_they_match_no_vm() {
    let dir = scratch("perf-match");
    let plan = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let o = dsplan(&["plan", FX, "--hosts", "3", "--perf", &p.to_string_lossy()]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // `throughput_mbps` is one edit from `throughput_mibps`: before, silently MiB/s 0.
    let text = plan("mbps.csv", "vm,iops,throughput_mbps\nweb-01,100,10\n");
    assert!(
        text.contains("column 'throughput_mbps' is not a known column")
            && text.contains("the nearest is throughput_mibps")
            && text.contains("'MiBps'"),
        "{text}"
    );
    assert!(!text.contains("column 'iops' is not"), "{text}");
    // Names the inventory does not hold, and a header only: the no-target warning no longer
    // says `perf` was not given; a warning names the file and its 2 rows (or none).
    let text = plan("ghosts.csv", "vm,iops\nnobody,100\nghost,5\n");
    assert!(
        text.contains("ghosts.csv: --perf matched no planned VM: none of its 2 row(s)")
            && text.contains("'nobody', 'ghost'"),
        "{text}"
    );
    assert!(
        !text.contains("target was given (--iops, --throughput-mibps):"),
        "{text}"
    );
    let text = plan("empty.csv", "vm,iops\n");
    assert!(
        text.contains("empty.csv: --perf has no data rows"),
        "{text}"
    );
}

#[test]
fn a_vm_with_more_vcpus_than_vsphere_allows_is_warned_and_unknown() {
    let dir = scratch("vcpus");
    let p = dir.join("vinfo.csv");
    // vSphere 8 gives a VM at most 768 vCPUs: 1e15 is a data error, 768 is not.
    std::fs::write(
        &p,
        "VM,Powerstate,CPUs,Memory,Provisioned MiB,In Use MiB,Cluster,Host\n\
         big,poweredOn,1e15,4096,1024,512,c1,esx1\n\
         max,poweredOn,768,4096,1024,512,c1,esx1\n",
    )
    .unwrap();
    let o = dsplan(&["inventory", &p.to_string_lossy()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Only `max` counts: 768 vCPUs in cluster c1, starred as partly unknown.
    let text = stdout(&o);
    let c1 = text
        .lines()
        .find(|l| l.starts_with("c1 "))
        .unwrap_or_default();
    assert!(c1.contains(" 768* "), "{text}");
    let o = dsplan(&[
        "plan",
        &p.to_string_lossy(),
        "--hosts",
        "3",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows: Vec<u64> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| {
            w["message"]
                .as_str()
                .unwrap()
                .contains("more than 768 vCPUs")
        })
        .map(|w| w["row"].as_u64().unwrap())
        .collect();
    assert_eq!(rows, [2], "{}", v["warnings"]);
}

#[test]
fn prices_effective_names_every_date_the_plan_uses() {
    // data/prices.csv, eastus: cool capacity and transfer take effect 2024-06-01, Flexible
    // capacity and throughput 2025-09-01. A plan with cool data uses both dates; a plan
    // without cool data uses only Flexible's.
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--hosts",
        "3",
        "--cold-pct",
        "60",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("prices effective 2024-06-01 to 2025-09-01 by meter, see Prices"),
        "{text}"
    );
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--hosts",
        "3",
        "--format",
        "md",
    ]);
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(md.contains("prices effective 2025-09-01)"), "{md}");
}

#[test]
fn data_no_vsan_cluster_holds_is_a_data_error_naming_cluster_file_and_unit() {
    // 1,000 VMs of 16,642,998,271 MiB in use each (just under the per-VM cap of
    // 256 x 62 TiB = 16,642,998,272 MiB = 15,872 TiB each): no ANF cluster's pool (at most
    // 8 volumes of 100 TiB) and no one vSAN cluster (on AV36, the first SKU tried: 16 hosts
    // of 15.2e12 / 2^40 = 13.824 TiB raw, 25% slack, the first cluster's 15.72 TiB reserve,
    // RAID-6, 20% headroom: (16 x 13.824 x 0.75 - 15.72) / 1.5 / 1.2 = 83.4 TiB) holds one
    // VM, so no design can be built: exit 2, the
    // message naming both, the AVS cluster, the VM with its file and row, and its data in
    // TiB grouped; it used to be "invalid `capacity`: 14985199615.09961" with neither file
    // nor unit.
    let dir = scratch("near-cap");
    let csv = dir.join("near-cap.csv");
    let mut text = String::from("VM,Cluster,In Use MiB,Provisioned MiB\n");
    for i in 0..1000 {
        text.push_str(&format!("n{i},Prod,16642998271,16642998271\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let e = fails(
        2,
        &["plan", &csv.to_string_lossy()],
        &[
            "AVS cluster 'avs-Prod",
            "[vInfo] row ",
            "holds 15,872.0 TiB of data",
            "(83.4 TiB)",
            "vSAN alone cannot be built",
        ],
    );
    assert!(e.contains(&csv.display().to_string()), "{e}");
    assert!(
        !e.contains("invalid `capacity`") && !e.contains("--capacity"),
        "{e}"
    );
}

/// Round-4 `msg/`: a 100,000-character value, in a host price file or on the command line,
/// is echoed clipped (its first 60 characters and its length), never whole; host prices
/// far from the public one warn.
#[test]
fn long_values_are_echoed_clipped_and_far_host_prices_warn() {
    let dir = scratch("echoes");
    let long = "r".repeat(100_000);
    let r61 = "r".repeat(61);
    let prices = |name: &str, row: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!("sku,term,usd_per_hour,region,source\n{row}\n"),
        )
        .unwrap();
        path.display().to_string()
    };
    // A long SKU in the file: refused, the SKU clipped.
    let file = prices("sku.csv", &format!("{long},payg,9.2,eastus,x"));
    let e = fails(
        1,
        &["plan", "--host-price-file", &file, FX],
        &[
            "host SKU 'rrrr",
            "(100,000 characters)",
            "is not in data/avs_hosts.csv",
        ],
    );
    assert!(e.len() < 1_000 && !e.contains(&r61), "{} bytes", e.len());
    // A long region in the file: planned, the region clipped wherever it is named.
    let file = prices("region.csv", &format!("av36p,payg,9.2,{long},x"));
    let o = dsplan(&["plan", "--region", "eastus", "--host-price-file", &file, FX]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains("(100,000 characters)'s"), "{out}");
    assert!(!out.contains(&r61), "the region is echoed whole");
    // 0.50 and 1,000 USD per host-hour against East US's AV36P list price of 9.20:
    // 0.5 / 9.2 = 0.054 -> "0.05x"; 1,000 / 9.2 = 108.696 -> "108.70x"; both beyond 4x.
    for (usd, ratio) in [("0.5", "0.05x"), ("1000", "108.70x")] {
        let file = prices(&format!("{usd}.csv"), &format!("av36p,payg,{usd},eastus,x"));
        let o = dsplan(&["plan", "--region", "eastus", "--host-price-file", &file, FX]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let want = format!("is {ratio} the East US pay-as-you-go price of 9.20 USD per host-hour");
        assert!(out.contains(&want), "'{want}' not in: {out}");
    }
    // On the command line: the library's message, a flag parser's and clap's.
    for (flag, needle) in [
        ("--region", "no ANF prices for region 'rrrr"),
        ("--host-sku", "invalid --host-sku: rrrr"),
        ("--host-term", "invalid --host-term: rrrr"),
        ("--capacity-basis", "invalid value 'rrrr"),
    ] {
        let e = fails(
            1,
            &["plan", flag, &long, FX],
            &[needle, "(100,000 characters)"],
        );
        assert!(
            e.len() < 2_000 && !e.contains(&r61),
            "{flag}: {} bytes",
            e.len()
        );
    }
}

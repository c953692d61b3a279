//! `dsplan plan` with the optimizer's flags of issue 5: cool access, reservation, snapshot
//! reserve, the vSAN comparison; the JSON carries the alternatives, marginal costs and the
//! comparison, byte-identical across runs.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::process::{Command, Output};

include!("support/schema_check.rs");

fn dsplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the dsplan binary runs")
}

#[test]
fn plan_json_with_cool_reservation_and_vsan_is_deterministic() {
    let args = [
        "plan",
        "fixtures/small-estate.xlsx",
        "--cold-pct",
        "80",
        "--cool-retrieval-pct",
        "5",
        "--reservation",
        "3y",
        "--snapshot-reserve-pct",
        "10",
        "--vsan-host",
        "av64",
        "--hosts",
        "3",
        "--format",
        "json",
    ];
    let a = dsplan(&args);
    let b = dsplan(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let j: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_schema_valid(&j);
    assert_eq!(j["schema_version"], 2);
    // fixtures/small-estate.xlsx: 1,800 GiB placed x 1.1 snapshots x 1.2 headroom
    // = 2,376 GiB required.
    let req = j["totals"]["required_capacity_gib"].as_f64().unwrap();
    assert!((req - 2376.0).abs() < 1e-6, "{req}");
    // Four service levels, the counts 1, 2, 4, 8, and nconnect 4 (the plan uses 1).
    assert_eq!(j["alternatives"].as_array().unwrap().len(), 9);
    assert_eq!(j["alternatives"][8]["basis"], "nconnect");
    assert_eq!(j["marginal_costs"].as_array().unwrap().len(), 2);
    // vSAN: 1,800 x 1.1 = 1,980 GiB of data, x 1.2 headroom = 2,376 GiB stored; AV64 under
    // auto policy at 3 hosts (RAID-1, 2x): 2,376 / 1024 x 2 / 0.75 = 6.19 TiB raw <= 3 x
    // 13.97 -> no extra host.
    let v = &j["vsan_comparison"];
    assert_eq!(v["sku"], "av64");
    assert_eq!(v["policy"], "raid1-ftt1");
    assert_eq!(v["extra_hosts"], 0);
    let pool = &j["pools"][0];
    assert!(pool["cool_access"].is_boolean());
    assert!(pool["reserved_tib"].is_u64());
    let assumptions: Vec<&str> = j["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    for name in [
        "cold_pct",
        "cool_retrieval_pct",
        "reservation",
        "snapshot_reserve_pct",
    ] {
        assert!(assumptions.contains(&name), "{name} missing");
    }
}

#[test]
fn per_cluster_json_is_deterministic_and_totals_the_clusters() {
    let args = [
        "plan",
        "fixtures/small-estate.xlsx",
        "--per-cluster",
        "--iops",
        "20000",
        "--format",
        "json",
    ];
    let a = dsplan(&args);
    let b = dsplan(&args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let j: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_schema_valid(&j);
    let clusters = j["clusters"].as_array().unwrap();
    assert!(!clusters.is_empty());
    let sum: f64 = clusters
        .iter()
        .map(|c| c["plan"]["totals"]["cost_usd_per_month"].as_f64().unwrap())
        .sum();
    let total = j["total"]["cost_usd_per_month"].as_f64().unwrap();
    assert!((sum - total).abs() < 0.005, "{sum} vs {total}");
    let iops: f64 = clusters
        .iter()
        .map(|c| c["plan"]["performance"]["iops_target"].as_f64().unwrap())
        .sum();
    assert!((iops - 20_000.0).abs() < 1e-6, "{iops}");
}

#[test]
fn bad_new_flags_exit_1() {
    for (flag, value, needle) in [
        ("--reservation", "2y", "reservation"),
        ("--cold-pct", "120", "cold-pct"),
        ("--vsan-host", "av99", "vsan-host"),
        ("--vsan-policy", "raid7", "vsan-policy"),
        ("--peak-months", "12", "peak-months"),
    ] {
        let o = dsplan(&["plan", "fixtures/small-estate.xlsx", flag, value]);
        assert_eq!(o.status.code(), Some(1), "{flag} {value}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(needle) && !e.contains("panicked"), "{e}");
    }
}

#[test]
fn perf_file_sets_targets_and_spreads_a_heavy_vm() {
    // db-01 needs 100,000 8 KiB IOPS: more than one VMDK on one datastore carries (about
    // 73,000), so the plan has at least 2 datastores; without --iops the IOPS target is the
    // sum of the per-VM figures (100,000 + 2,000 = 102,000).
    let dir = std::env::temp_dir().join(format!("dsplan-plan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let perf = dir.join("perf.csv");
    std::fs::write(
        &perf,
        "vm,iops,throughput_mibps\ndb-01,100000,0\nweb-01,2000,10\n",
    )
    .unwrap();
    let perf = perf.display().to_string();
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--perf",
        &perf,
        "--hosts",
        "3",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&j);
    assert_eq!(j["performance"]["iops_target"].as_f64().unwrap(), 102_000.0);
    assert!(j["totals"]["datastores"].as_u64().unwrap() >= 2);
    let warnings = j["warnings"].as_array().unwrap();
    assert!(warnings.iter().any(|w| {
        let m = w["message"].as_str().unwrap_or("");
        m.contains("db-01") && m.contains("spread its VMDKs")
    }));
    // ... and the placements do spread it: db-01 (800 GiB in use) in equal parts on at
    // least 2 datastores.
    let parts: Vec<(String, f64)> = j["placements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["vm"] == "db-01")
        .map(|p| {
            (
                p["datastore"].as_str().unwrap().to_string(),
                p["capacity_gib"].as_f64().unwrap(),
            )
        })
        .collect();
    assert!(parts.len() >= 2, "{parts:?}");
    let each = 800.0 / parts.len() as f64;
    assert!(
        parts.iter().all(|(_, gib)| (gib - each).abs() < 1e-9),
        "{parts:?}"
    );
    let distinct: std::collections::BTreeSet<&String> = parts.iter().map(|(d, _)| d).collect();
    assert_eq!(distinct.len(), parts.len());
    let _ = std::fs::remove_dir_all(&dir);
}

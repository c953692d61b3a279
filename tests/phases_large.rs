//! Issue 9, items 1 and 2, end to end through the binary: a time-phased plan never switches
//! a pool between Flexible and another level, and large volumes stay out of a plan unless
//! `--allow-large-volumes` is given. Costs are re-derived here from `data/prices.csv` (read
//! with the csv crate, not through the catalog code).

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::process::Output;

include!("support/schema_check.rs");

include!("support/command.rs");

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "dsplan failed: {}", stderr(o));
    let v = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&v);
    v
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

fn cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// USD per GiB-hour (or per MiB/s-hour) of `tier`/`meter` in `region`, from data/prices.csv.
fn hourly_price(region: &str, tier: &str, meter: &str) -> f64 {
    let mut rdr = csv::Reader::from_path(root().join("data/prices.csv")).unwrap();
    let headers = rdr.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (r, t, m, p) = (
        col("region"),
        col("tier"),
        col("meter"),
        col("retail_price_usd"),
    );
    for rec in rdr.records() {
        let rec = rec.unwrap();
        if &rec[r] == region && &rec[t] == tier && &rec[m] == meter {
            return rec[p].parse().unwrap();
        }
    }
    panic!("no price for {region} {tier} {meter}");
}

/// USD per TiB-month of `level` in `region`: 1024 GiB x USD per GiB-hour x 730 h.
fn per_tib_month(region: &str, level: &str) -> f64 {
    1024.0 * hourly_price(region, level, "capacity") * 730.0
}

#[test]
fn issue_9_phased_plan_never_switches_between_flexible_and_another_level() {
    // fixtures/small-estate.xlsx: 1,800 GiB placed x (1 + 8.4) growth x (1 + 5) headroom
    // = 101,520 GiB (growth stops at 1,000 %, so headroom carries the rest) -> 100 TiB (99.14 rounded up). westeurope, 16 hosts (7 run VMs), no base
    // target, 3,000 MiB/s for 2 months. From data/prices.csv (x 1024 x 730 per TiB-month):
    //   standard 0.000202 -> 150.99904; premium 0.000403 -> 301.25056;
    //   flexible 0.000216 -> 161.46432, throughput 0.004407 x 730 = 3.21711 per MiB/s-month.
    // Standard side (may change level among standard/premium/ultra, never to flexible):
    //   base standard 100 TiB = 15,099.904 -> 15,099.90
    //   peak standard 3,000 / 16 = 187.5 -> 188 TiB = 28,387.81952 -> 28,387.82 (2 regular
    //     volumes of 94 TiB: one holds at most 100 TiB, so both phases keep 2 datastores);
    //     premium 100 TiB (6,400 MiB/s) = 30,125.06 costs more.
    //   yearly 10 x 15,099.90 + 2 x 28,387.82 = 150,999.00 + 56,775.64 = 207,774.64.
    // Flexible side (stays flexible):
    //   base 100 TiB = 16,146.43; peak 16,146.43 + (3,000 - 128 = 2,872) x 3.21711
    //   = 9,239.54 -> 25,385.97; yearly 161,464.30 + 50,771.94 = 212,236.24 > 207,774.64.
    // The old answer (standard base, flexible peak, 102,860.70 saved) moves volumes into and
    // out of a Flexible pool, which ANF refuses.
    // Peak layout all year: flexible 25,385.97 x 12 = 304,631.64 (standard 188 TiB all year
    // = 340,653.84); saving 304,631.64 - 207,774.64 = 96,857.00.
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--region",
        "westeurope",
        "--hosts",
        "16",
        "--growth-pct",
        "840",
        "--headroom-pct",
        "500",
        "--peak-months",
        "2",
        "--peak-throughput-mibps",
        "3000",
        "--format",
        "json",
    ]);
    let j = json(&o);
    let tp = &j["time_phased"];
    let (base, peak) = (&tp["base"], &tp["peak"]);
    assert_eq!(base["service_level"], "standard");
    assert_eq!(peak["service_level"], "standard");
    assert_eq!(
        (
            base["pool_size_tib"].as_u64(),
            peak["pool_size_tib"].as_u64()
        ),
        (Some(100), Some(188))
    );
    assert_eq!(base["datastores"], 2);
    assert_eq!(peak["datastores"], 2);
    assert_eq!(peak["large_volumes"], false);
    assert!(f(&peak["predicted_throughput_mibps"]) >= 3000.0);
    let standard = per_tib_month("westeurope", "standard");
    let base_cost = cents(100.0 * standard);
    let peak_cost = cents(188.0 * standard);
    assert!((base_cost - 15_099.90).abs() < 0.005, "{base_cost}");
    assert!((peak_cost - 28_387.82).abs() < 0.005, "{peak_cost}");
    assert!((f(&base["cost_usd_per_month"]) - base_cost).abs() < 0.005);
    assert!((f(&peak["cost_usd_per_month"]) - peak_cost).abs() < 0.005);
    let yearly = cents(10.0 * base_cost + 2.0 * peak_cost);
    assert!((yearly - 207_774.64).abs() < 0.005, "{yearly}");
    assert!((f(&tp["yearly_cost_usd"]) - yearly).abs() < 0.005);
    // The flexible side costs more a year.
    let flex = per_tib_month("westeurope", "flexible");
    let flex_tp = hourly_price("westeurope", "flexible", "throughput") * 730.0;
    let flex_base = cents(100.0 * flex);
    let flex_peak = cents(cents(100.0 * flex) + cents(2872.0 * flex_tp));
    assert!((flex_peak - 25_385.97).abs() < 0.005, "{flex_peak}");
    assert!(10.0 * flex_base + 2.0 * flex_peak > yearly + 4_000.0);
    assert!((f(&tp["peak_all_year_yearly_cost_usd"]) - 304_631.64).abs() < 0.005);
    assert!((f(&tp["yearly_savings_usd"]) - 96_857.00).abs() < 0.005);
}

/// The issue's second command: 12,000 MiB/s for one month on the fixture in eastus.
const PEAK_12000: [&str; 12] = [
    "plan",
    "fixtures/small-estate.xlsx",
    "--hosts",
    "16",
    "--growth-pct",
    "840",
    "--headroom-pct",
    "500",
    "--peak-months",
    "1",
    "--peak-throughput-mibps",
    "12000",
];

#[test]
fn issue_9_large_volumes_only_with_allow_large_volumes() {
    // 101,520 GiB -> 100 TiB (see above). eastus: flexible 0.000151 x 1024 x 730 = 112.87552
    // per TiB-month; throughput 0.003082 x 730 = 2.24986 per MiB/s-month.
    //   base flexible 100 TiB = 11,287.552 -> 11,287.55
    //   peak + (12,000 - 128 = 11,872) x 2.24986 = 26,710.33792 -> 26,710.34 = 37,997.89
    // A regular volume carries at most 4,500 MiB/s, so 12,000 MiB/s needs at least
    // ceil(12,000 / 4,500) = 3 regular datastores (the old plan: 1 large volume, same cost).
    let mut args = PEAK_12000.to_vec();
    args.extend(["--format", "json"]);
    let j = json(&dsplan(&args));
    for d in j["datastores"].as_array().unwrap() {
        assert_eq!(d["large_volume"], false, "{d}");
    }
    let tp = &j["time_phased"];
    assert_eq!(tp["peak"]["large_volumes"], false);
    assert!(tp["peak"]["datastores"].as_u64().unwrap() >= 3);
    assert!(f(&tp["peak"]["predicted_throughput_mibps"]) >= 12_000.0);
    let flex = per_tib_month("eastus", "flexible");
    let flex_tp = hourly_price("eastus", "flexible", "throughput") * 730.0;
    let base = cents(100.0 * flex);
    let peak = cents(base + cents(11_872.0 * flex_tp));
    assert!((base - 11_287.55).abs() < 0.005 && (peak - 37_997.89).abs() < 0.005);
    assert!((f(&tp["base"]["cost_usd_per_month"]) - base).abs() < 0.005);
    assert!((f(&tp["peak"]["cost_usd_per_month"]) - peak).abs() < 0.005);
    // Nothing in the alternatives, marginal costs or assumptions uses a large volume.
    for a in j["alternatives"].as_array().unwrap() {
        assert_eq!(a["large_volumes"], false, "{a}");
    }
    for m in j["marginal_costs"].as_array().unwrap() {
        assert!(!m["detail"].as_str().unwrap().contains("large"), "{m}");
    }
    let assumption = j["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "allow_large_volumes")
        .unwrap();
    assert_eq!(assumption["value"], "false");

    // With --allow-large-volumes, today's answer: one large volume at the same cost, and
    // the plan says that AVS support must be confirmed, naming the flag.
    let mut args = PEAK_12000.to_vec();
    args.push("--allow-large-volumes");
    let o = dsplan(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("--allow-large-volumes is on"), "{text}");
    assert!(text.contains("AVS support must be confirmed"), "{text}");
    args.extend(["--format", "json"]);
    let j = json(&dsplan(&args));
    assert_eq!(j["time_phased"]["peak"]["large_volumes"], true);
    assert!((f(&j["time_phased"]["peak"]["cost_usd_per_month"]) - peak).abs() < 0.005);
}

#[test]
fn a_target_only_large_volumes_reach_exits_2_naming_the_flag_and_agrees_with_predict() {
    // fixture: 7 VMs on 3 hosts (2 per host), at most 1 datastore, 5,000 MiB/s. One regular
    // volume stops at 4,500 MiB/s (data/limits.csv); a large one at 12,800, where the 3
    // flows bind. The reachable figure is what `predict` gives for the layout named.
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--hosts",
        "3",
        "--max-datastores",
        "1",
        "--throughput-mibps",
        "5000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("at most 4,500 is reachable"), "{e}");
    assert!(e.contains("with regular volumes only"), "{e}");
    assert!(
        e.contains("1 datastore(s) x 3 hosts running 7 VM(s) (2 per host)"),
        "{e}"
    );
    assert!(e.contains("only large volumes could meet it"), "{e}");
    assert!(e.contains("--allow-large-volumes"), "{e}");
    let predict = |large: bool| {
        let mut args = vec![
            "predict",
            "--hosts",
            "3",
            "--datastores",
            "1",
            "--vms-per-host",
            "2",
            "--block-size",
            "64K",
            "--read-pct",
            "70",
            "--random-pct",
            "0",
            "--json",
        ];
        if large {
            args.push("--large-volume");
        }
        f(&json(&dsplan(&args))["throughput_mibps"])
    };
    assert_eq!(predict(false), 4_500.0);
    let with_large = predict(true).floor();
    assert!(with_large >= 5_000.0, "{with_large}");
    let shown = format!(
        "(at most {},{:03})",
        with_large as u64 / 1000,
        with_large as u64 % 1000
    );
    assert!(e.contains(&shown), "{shown} in {e}");
    // With the flag, the plan is one large volume.
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--hosts",
        "3",
        "--max-datastores",
        "1",
        "--throughput-mibps",
        "5000",
        "--allow-large-volumes",
        "--format",
        "json",
    ]);
    assert_eq!(json(&o)["datastores"][0]["large_volume"], true);
}

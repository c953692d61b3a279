//! Issue 18's headline truths, end to end through the command: an estate's pools are sized
//! after sharing (whole TiB per pool, not per cluster), the headline says what the plan
//! delivers and how much of its hosts and pools it uses, and an estate's exit-2 message
//! names the cluster, its capacity share and the user's target. Prices: eastus,
//! `data/prices.csv` (USD per GiB-hour x 730): Standard 0.000202 -> 0.14746, Premium
//! 0.000403 -> 0.29419, Ultra 0.000538 -> 0.39274, Flexible 0.000151 -> 0.11023 per
//! GiB-month.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use serde_json::Value;

include!("support/command.rs");
include!("support/schema_check.rs");
include!("support/plan_json.rs");
include!("support/fifty_clusters.rs");

fn scratch(test: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dsplan-pools-{}-{test}", std::process::id()))
}

/// `dsplan plan` with `args` as text.
fn plan_text(args: &[&str], format: &str) -> String {
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", format]);
    let o = dsplan(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn cents(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

/// The plan's `pool_sizing` assumption.
fn pool_sizing(plan: &Value) -> &Value {
    plan["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "pool_sizing")
        .expect("the pool_sizing assumption")
}

// Each VM: 12 GiB in use, growth 0%, snapshot reserve 0%, headroom 20% (the defaults):
// 12 x 1.2 = 14.4 GiB required per cluster. A regular volume holds at least 50 GiB, so each
// cluster's one datastore is a 50 GiB share of a Standard pool (50 x 0.14746 = 7.37
// USD/month priced per GiB, below Premium's 14.71, Ultra's 19.64 and a Flexible pool's
// 1 TiB minimum, 1,024 x 0.11023 = 112.88). The 50 shares, 50 x 50 = 2,500 GiB, fit one
// pool rounded up once: ceil(2,500 / 1,024) = 3 TiB, at most 5 TiB (a pool per cluster:
// each 1 TiB, Flexible the cheapest then, 50 TiB, 50 x 112.88 = 5,644.00 USD/month). The
// pool: 3 x 1,024 x 0.14746 = 452.997 -> 453.00 USD/month; each cluster pays its quota's
// share, 453.00 x 50 / 2,500 = 9.06, and the 50 shares add up to 453.00.
//
// That is ANF for all (`--design anf`). By default the estate takes the cheapest design:
// each cluster's 3 AV36P hosts (the AVS minimum: 2 vCPU, 8 GiB; in each of the 5 private
// clouds, 12 clusters each at most, the first cluster's management reservation of 72 vCPU
// and 160.08 GiB fits its 3 hosts too) hold its 12 GiB on their vSAN (see the utilisation
// test below), so vSAN alone is 150 x 9.20 x 730 = 1,007,400.00 USD/month; ANF for all is
// the same hosts + 453.00 + ceil(5 private clouds / 4) = 2 ExpressRoute gateways x
// 1,365.10 = 2,730.20: 1,010,583.20; the hybrid keeps every VM on vSAN (no split saves the
// gateways), so it is vSAN alone, chosen on the tie. No pool is bought (0 <= 5 TiB), and
// the designs table's ANF for all gives the 453.00 its plan gives, the pool's rounding in.
#[test]
fn fifty_one_vm_clusters_of_12_gib_buy_at_most_5_tib_of_pools() {
    let input = fifty_one_vm_clusters(&scratch("fifty"));
    let input = input.to_str().unwrap();
    let json = plan_json(&[input, "--design", "anf"]);
    let s = &json["summary"];
    assert_eq!(s["clusters"].as_u64(), Some(50));
    assert!(s["pool_size_tib"].as_u64().unwrap() <= 5);
    assert_eq!(s["pool_size_tib"].as_u64(), Some(3));
    let pools = json["pools"].as_array().unwrap();
    assert_eq!(pools.len(), 1);
    let pool = &pools[0];
    assert_eq!(pool["service_level"], "standard");
    assert_eq!(pool["size_tib"].as_u64(), Some(3));
    assert_eq!(pool["quota_gib"].as_u64(), Some(2_500));
    assert_eq!(pool["datastores"].as_u64(), Some(50));
    assert!(cents(f(&pool["cost_usd_per_month"]), 453.00));
    assert!(cents(f(&s["anf_usd_per_month"]), 453.00));
    assert!(cents(f(&s["gateway_usd_per_month"]), 2_730.20));
    assert!(cents(f(&s["total_usd_per_month"]), 1_010_583.20));
    let mut sum = 0.0;
    for c in json["clusters"].as_array().unwrap() {
        let p = &c["plan"];
        let share = &p["pools"][0];
        assert_eq!(share["name"], "pool-standard-1");
        assert_eq!(share["size_tib"].as_u64(), Some(0), "{}", c["cluster"]);
        assert_eq!(share["share_gib"].as_u64(), Some(50), "{}", c["cluster"]);
        assert_eq!(f(&p["datastores"][0]["size_gib"]), 50.0);
        assert!(cents(f(&p["totals"]["cost_usd_per_month"]), 9.06));
        sum += f(&p["totals"]["cost_usd_per_month"]);
    }
    assert!(cents(sum, 453.00), "{sum}");
    // The estate says how its pools are sized, and what a pool per cluster would cost.
    let sizing = pool_sizing(&json);
    assert_eq!(sizing["value"], "shared");
    let note = sizing["note"].as_str().unwrap();
    assert!(
        note.contains("453.00") && note.contains("5,644.00"),
        "{note}"
    );
    // The default: vSAN alone, no pool bought; ANF for all in the designs table at the
    // figure its plan gives.
    let json = plan_json(&[input]);
    let s = &json["summary"];
    assert_eq!(s["design"], "vsan");
    assert_eq!(s["pool_size_tib"].as_u64(), Some(0));
    assert!(json["pools"].as_array().unwrap().is_empty());
    assert!(cents(f(&s["total_usd_per_month"]), 1_007_400.00));
    let rows = json["designs"]["estate"].as_array().unwrap();
    let anf = rows.iter().find(|r| r["design"] == "anf").unwrap();
    assert!(cents(f(&anf["anf_usd_per_month"]), 453.00));
    assert!(cents(f(&anf["total_usd_per_month"]), 1_010_583.20));
    let hybrid = rows.iter().find(|r| r["design"] == "hybrid").unwrap();
    assert!(cents(f(&hybrid["total_usd_per_month"]), 1_007_400.00));
    assert!(
        json["assumptions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["name"] != "pool_sizing")
    );
}

/// GiB the vSAN of 3 AV36P hosts holds for data (RAID-1, 25% slack, dedup 1): 19.2 TB raw
/// a host = 19.2 x 10^12 / 2^40 TiB, less the raw capacity AVS uses itself (17,287 GB in a
/// private cloud's first cluster, 12,444 GB in another), halved by the mirror, in GiB.
fn three_host_vsan_gib(first: bool) -> f64 {
    let tib = |bytes: f64| bytes / 1024f64.powi(4);
    let reserve = if first { 17_287e9 } else { 12_444e9 };
    (0.75 * 3.0 * tib(19.2e12) - tib(reserve)) / 2.0 * 1024.0
}

// Each cluster's QoS: a 50 GiB share of Standard at 16 MiB/s per TiB = 50 x 16 / 1,024 =
// 0.78125 MiB/s; at the IOPS target's 8 KiB, 0.78125 x 1,024 / 8 = 100 IOPS. One VM on one
// of the 3 hosts and one datastore: the flows carry far more, so the QoS binds: 100 IOPS and
// 0.78125 MiB/s per cluster, 50 x 100 = 5,000 IOPS and 50 x 0.78125 = 39.0625 MiB/s for
// the estate (`--design anf`). Utilisation (AV36P: 36 cores x 4 vCPU = 144 vCPU and
// (768 - 48) x 10^9 / 2^30 = 670.55 GiB per host, 3 hosts a cluster): vCPU 2 / 432 =
// 0.463%, memory 8 / 2,011.66 = 0.398%; a private cloud's first cluster carries the
// management reservation too, 46 GHz / 2.6 GHz = 17.7 -> 18 cores x 4 = 72 vCPU and
// 171.88 x 10^9 / 2^30 = 160.08 GiB: (2 + 72) / 432 = 17.13%, (8 + 160.08) / 2,011.66 =
// 8.36%; the estate (5 first clusters): (100 + 360) / 21,600 = 2.13%, (400 + 800.38) /
// 100,582.8 = 1.19%. ANF: 12 GiB placed / 50 GiB = 24% per cluster, 600 / 3,072 = 19.53%
// for the estate. By default (vSAN alone) each cluster keeps its 12 GiB on its hosts' vSAN
// instead: 12 / 14,321.9 = 0.0838% ([`three_host_vsan_gib`]: (29.47 - 11.32) / 2 TiB), a
// first cluster 12 / 12,066.7 = 0.0994%, the estate 600 / (45 x 14,321.9 + 5 x 12,066.7)
// = 0.0851%.
#[test]
fn a_capacity_only_headline_says_what_the_estate_delivers() {
    let input = fifty_one_vm_clusters(&scratch("headline"));
    let input = input.to_str().unwrap();
    let anf = [input, "--design", "anf"];
    let json = plan_json(&anf);
    let p = &json["summary"]["performance"];
    assert_eq!(p["capacity_only"], true);
    assert_eq!(f(&p["iops_target"]), 0.0);
    assert_eq!(p["anf_clusters"].as_u64(), Some(50));
    assert_eq!(f(&p["vsan_data_pct"]), 0.0);
    let mut iops = 0.0;
    let mut mibps = 0.0;
    for c in json["clusters"].as_array().unwrap() {
        let perf = &c["plan"]["performance"];
        assert!((f(&perf["small_block"]["iops"]) - 100.0).abs() < 1e-6);
        assert!((f(&perf["large_block"]["throughput_mibps"]) - 0.78125).abs() < 1e-9);
        iops += f(&perf["small_block"]["iops"]);
        mibps += f(&perf["large_block"]["throughput_mibps"]);
    }
    let host_gib = (768.0 - 48.0) * 1e9 / 1024f64.powi(3);
    let reserved_gib = 171.88e9 / 1024f64.powi(3);
    let mut firsts = 0;
    for c in json["sizing"]["clusters"].as_array().unwrap() {
        let u = &c["utilisation"];
        let (vcpus, gib) = if c["management"].is_null() {
            (2.0, 8.0)
        } else {
            firsts += 1;
            (2.0 + 72.0, 8.0 + reserved_gib)
        };
        assert!((f(&u["vcpu_pct"]) - 100.0 * vcpus / (3.0 * 144.0)).abs() < 1e-9);
        assert!((f(&u["memory_pct"]) - 100.0 * gib / (3.0 * host_gib)).abs() < 1e-9);
        assert!((f(&u["storage_pct"]) - 24.0).abs() < 1e-9);
        assert!(u["vsan_storage_pct"].is_null());
    }
    assert_eq!(firsts, 5);
    assert!((f(&p["predicted_iops"]) - 5_000.0).abs() < 1e-6);
    assert!((f(&p["predicted_iops"]) - iops).abs() < 1e-6);
    assert!((f(&p["predicted_throughput_mibps"]) - 39.0625).abs() < 1e-9);
    assert!((f(&p["predicted_throughput_mibps"]) - mibps).abs() < 1e-9);
    let u = &json["summary"]["utilisation"];
    assert!((f(&u["storage_pct"]) - 100.0 * 600.0 / 3_072.0).abs() < 1e-9);
    assert!((f(&u["vcpu_pct"]) - 100.0 * 460.0 / (150.0 * 144.0)).abs() < 1e-9);
    let memory = 100.0 * (400.0 + 5.0 * reserved_gib) / (150.0 * host_gib);
    assert!((f(&u["memory_pct"]) - memory).abs() < 1e-9);
    // `--detail`: the headline, and each cluster's plan under its banner.
    let text = plan_text(&[input, "--design", "anf", "--detail"], "text");
    let line = "delivers: 5,000 small-block IOPS and 39.1 large-block MiB/s predicted (no IOPS or \
                MiB/s target: sized for capacity, what the pools' QoS, the layouts and the \
                hosts give): ANF 5,000 small-block IOPS and 39.1 large-block MiB/s (50 clusters \
                added)\n";
    assert!(text.contains(line), "{text}");
    assert!(
        text.contains(
            "utilisation: vCPU 2.1%, memory 1.2% of the 150 hosts (HA reserve included); \
             ANF 19.5% of the 3 TiB of pools\n"
        ),
        "{text}"
    );
    // vSAN alone against the plan, the year's difference: 12 x (453.00 + 2,730.20) =
    // 38,198.40 (the design line gives the month's, 3,183.20).
    assert!(
        text.contains(
            "vSAN alone: 150 av36p hosts, 1,007,400.00 USD/month, 38,198.40 USD/year less \
             than the plan\n"
        ),
        "{text}"
    );
    assert!(text.contains("=== AVS cluster avs-c02: 3 hosts"));
    assert!(text.contains("; uses vCPU 0.5%, memory 0.4%, ANF 24.0% ==="));
    let md = plan_text(&anf, "md");
    assert!(md.contains("- Delivers: 5,000 small-block IOPS"));
    assert!(md.contains("| (estate) | 0 | 5,000 | 0.0 | 39.1 | 2.1 | 1.2 | 19.5 | - |"));
    // The default, vSAN alone: nothing on ANF, every cluster's data on its vSAN, each
    // cluster's envelope (3 AV36P hosts, RAID-1, checked at 3): at 8 KiB, 70% read, 80%
    // random, 3 x 198,060 I/O passes / (0.7 x 2 + 0.3 x 3) = 258,339.13 IOPS; at 64 KiB
    // sequential 3 x 2,561.62 MiB/s of NICs / (0.7 + 0.3 x 2) = 5,911.43 MiB/s; 50 clusters
    // added: 12,916,956.5 IOPS and 295,571.6 MiB/s.
    let json = plan_json(&[input]);
    let p = &json["summary"]["performance"];
    assert_eq!(p["anf_clusters"].as_u64(), Some(0));
    assert_eq!(p["vsan_clusters"].as_u64(), Some(50));
    assert_eq!(f(&p["vsan_data_pct"]), 100.0);
    assert!((f(&p["predicted_iops"]) - 12_916_956.5).abs() < 1.0, "{p}");
    assert!((f(&p["predicted_throughput_mibps"]) - 295_571.6).abs() < 0.1);
    for c in json["sizing"]["clusters"].as_array().unwrap() {
        let u = &c["utilisation"];
        let usable = three_host_vsan_gib(!c["management"].is_null());
        assert!((f(&u["vsan_storage_pct"]) - 100.0 * 12.0 / usable).abs() < 1e-6);
        assert!(u["storage_pct"].is_null());
    }
    let vsan =
        100.0 * 600.0 / (45.0 * three_host_vsan_gib(false) + 5.0 * three_host_vsan_gib(true));
    let u = &json["summary"]["utilisation"];
    assert!((f(&u["vsan_storage_pct"]) - vsan).abs() < 1e-6);
    let text = plan_text(&[input], "text");
    assert!(
        text.contains(
            "delivers: 12,916,957 small-block IOPS and 295,571.6 large-block MiB/s predicted \
             (no IOPS or MiB/s target: sized for capacity, what the pools' QoS, the layouts \
             and the hosts give): vSAN 12,916,957 small-block IOPS"
        ),
        "{text}"
    );
    assert!(
        text.contains("; vSAN 0.1% of what its clusters hold\n"),
        "{text}"
    );
}

// With targets the headline gives them beside the clusters' predictions added (ANF for
// all): Dev carries 800 / 1,800 GiB = 44.4% of 20,000 IOPS and 500 MiB/s, Prod 55.6%. By
// default the fixture is vSAN alone (its 1.8 TiB on 6 hosts' vSAN cost no more hosts and
// no gateway), whose two 3-host clusters' envelopes carry the targets many times over:
// 2 x 258,339.13 = 516,678.3 IOPS and 2 x 5,911.43 = 11,822.9 MiB/s (see the test above).
#[test]
fn a_headline_with_targets_adds_the_clusters_predictions() {
    let args = [
        "fixtures/small-estate.xlsx",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--design",
        "anf",
    ];
    let json = plan_json(&args);
    let p = &json["summary"]["performance"];
    assert_eq!(p["capacity_only"], false);
    assert_eq!(f(&p["iops_target"]), 20_000.0);
    assert_eq!(f(&p["throughput_target_mibps"]), 500.0);
    assert_eq!(f(&p["anf_iops_target"]), 20_000.0);
    let clusters = json["clusters"].as_array().unwrap();
    let sum = |key: &str, field: &str| -> f64 {
        clusters
            .iter()
            .map(|c| f(&c["plan"]["performance"][key][field]))
            .sum()
    };
    assert!((f(&p["predicted_iops"]) - sum("small_block", "iops")).abs() < 1e-6);
    let mibps = sum("large_block", "throughput_mibps");
    assert!((f(&p["predicted_throughput_mibps"]) - mibps).abs() < 1e-9);
    assert!(f(&p["predicted_iops"]) >= 20_000.0 && mibps >= 500.0);
    let text = plan_text(&args, "text");
    assert!(
        text.contains(
            "predicted (targets 20,000 IOPS and 500.0 MiB/s): ANF 64,128 small-block IOPS and \
             501.0 large-block MiB/s (2 clusters added)"
        ),
        "{}",
        text.lines().take(8).collect::<Vec<_>>().join("\n")
    );
    let default = &args[..5];
    let json = plan_json(default);
    let p = &json["summary"]["performance"];
    assert_eq!(p["anf_clusters"].as_u64(), Some(0));
    assert!((f(&p["predicted_iops"]) - 516_678.3).abs() < 0.1, "{p}");
    assert!((f(&p["predicted_throughput_mibps"]) - 11_822.9).abs() < 0.1);
    let text = plan_text(default, "text");
    assert!(
        text.contains(
            "delivers: 516,678 small-block IOPS and 11,822.9 large-block MiB/s predicted \
             (targets 20,000 IOPS and 500.0 MiB/s): vSAN 516,678"
        ),
        "{text}"
    );
    assert!(!text.contains("not checked") && !text.contains("not modelled"));
}

// The performance table with targets gives each cluster the share of the targets its
// storage carries and what that storage delivers, vSAN included; the estate row the whole
// targets and the whole design. The fixture's default design is vSAN alone (see above):
// - targets by capacity share: Dev 800 / 1,800 GiB of 20,000 IOPS = 8,888.9 (8,889) and of
//   500 MiB/s = 222.2; Prod 1,000 / 1,800: 11,111.1 (11,111) and 277.8;
// - each cluster's vSAN envelope (3 AV36P hosts, RAID-1, checked at 3; no ANF traffic):
//   3 x 198,060 / (0.7 x 2 + 0.3 x 3) = 258,339.13 IOPS and 3 x 2,561.62 / (0.7 + 0.3 x 2)
//   = 5,911.43 MiB/s;
// - the estate: 20,000 and 500.0 given; 2 x 258,339.13 = 516,678.3 and 2 x 5,911.43 =
//   11,822.9 predicted.
#[test]
fn the_performance_table_gives_each_clusters_vsan_share_and_envelope() {
    let args = [
        "fixtures/small-estate.xlsx",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
    ];
    let json = plan_json(&args);
    assert_eq!(json["designs"]["chosen"], "vsan");
    for c in json["designs"]["clusters"].as_array().unwrap() {
        let (share, row) = match c["cluster"].as_str().unwrap() {
            "avs-Dev" => (800.0 / 1_800.0, &c["vsan"]),
            "avs-Prod" => (1_000.0 / 1_800.0, &c["vsan"]),
            other => panic!("{other}"),
        };
        assert!(
            (f(&row["vsan_iops_target"]) - share * 20_000.0).abs() < 1e-6,
            "{row}"
        );
        assert!((f(&row["vsan_throughput_target_mibps"]) - share * 500.0).abs() < 1e-6);
        assert!(
            (f(&row["vsan_predicted_iops"]) - 258_339.13).abs() < 0.01,
            "{row}"
        );
        assert!((f(&row["vsan_predicted_throughput_mibps"]) - 5_911.43).abs() < 0.01);
        // ANF for all keeps nothing on vSAN: no share there.
        assert_eq!(f(&c["anf"]["vsan_iops_target"]), 0.0);
        assert_eq!(f(&c["anf"]["vsan_predicted_iops"]), 0.0);
    }
    let rows = [
        ("avs-Dev", "8,889", "258,339", "222.2", "5,911.4"),
        ("avs-Prod", "11,111", "258,339", "277.8", "5,911.4"),
        ("(estate)", "20,000", "516,678", "500.0", "11,822.9"),
    ];
    let detail = [&args[..], &["--detail"]].concat();
    let text = plan_text(&detail, "text");
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Performance and utilisation")
        .take_while(|l| !l.is_empty())
        .collect();
    for (name, iops_target, iops, mibps_target, mibps) in rows {
        let line = table
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}: {table:?}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            cells[1..5],
            [iops_target, iops, mibps_target, mibps],
            "{line}"
        );
    }
    let md = plan_text(&args, "md");
    let html = plan_text(&args, "html");
    for (name, iops_target, iops, mibps_target, mibps) in rows {
        let md_row = format!("| {name} | {iops_target} | {iops} | {mibps_target} | {mibps} |");
        assert!(md.contains(&md_row), "{md_row}");
        let num = |v: &str| format!("<td class=\"num\">{v}</td>");
        let html_row = format!(
            "<tr><td>{name}</td>{}{}{}{}",
            num(iops_target),
            num(iops),
            num(mibps_target),
            num(mibps)
        );
        assert!(html.contains(&html_row), "{html_row}");
    }
    for doc in [&text, &md, &html] {
        assert!(!doc.contains("not modelled") && !doc.contains("not checked"));
    }
}

// One cluster's header says what it delivers: the fixture on 3 hosts is a 3 TiB Flexible
// pool with its included 128 MiB/s, 128 x 1,024 / 8 = 16,384 IOPS at 8 KiB.
#[test]
fn a_one_cluster_header_says_what_it_delivers() {
    let text = plan_text(&["fixtures/small-estate.xlsx", "--hosts", "3"], "text");
    let line = "delivers: 16,384 small-block IOPS and 128.0 large-block MiB/s predicted: sized \
                for capacity only";
    assert!(
        text.lines().nth(2).is_some_and(|l| l.starts_with(line)),
        "{text}"
    );
}

// 14,772,000 IOPS: Dev's VMs hold 800 of the 1,800 GiB placed (44.4%), so Dev carries
// 14,772,000 x 800 / 1,800 = 6,565,333.3 IOPS; its 3 VMs cannot drive them (exit 2).
#[test]
fn an_estate_target_error_names_the_cluster_its_share_and_the_users_target() {
    for (extra, cluster) in [(None, "avs-Dev"), (Some("--per-cluster"), "Dev")] {
        let mut args = vec!["plan", "fixtures/small-estate.xlsx", "--iops", "14772000"];
        args.extend(extra);
        let o = dsplan(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        let words = format!(
            "cluster '{cluster}' carries 44.4% of the capacity, so 6,565,333.3 of the \
             14,772,000 IOPS given as --iops: "
        );
        assert!(e.contains(&words), "{e}");
        assert!(
            e.contains("the IOPS target 6,565,333.3 cannot be met"),
            "{e}"
        );
    }
    // A peak target names its own setting: 2,000,000 x 800 / 1,800 = 888,888.9 (ANF for
    // all: vSAN alone, whose hosts grow for it, carries it).
    let o = dsplan(&[
        "plan",
        "fixtures/small-estate.xlsx",
        "--iops",
        "20000",
        "--peak-months",
        "2",
        "--peak-iops",
        "2000000",
        "--design",
        "anf",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(
            "cluster 'avs-Dev' carries 44.4% of the capacity, so 888,888.9 of the 2,000,000 \
             IOPS given as --peak-iops in the peak months: "
        ),
        "{e}"
    );
}

// Peak months on shared pools (ANF for all): 2 peak months at 100,000 IOPS, each cluster's 2% = 2,000
// IOPS = 2,000 x 8 / 1,024 = 15.625 MiB/s of QoS. The cheapest share for it: Ultra at 128
// MiB/s per TiB needs 125 GiB (125 x 0.39274 = 49.09), Premium 250 GiB (73.55), Standard
// 1,000 GiB (147.46), Flexible a 1 TiB pool (112.88). The 50 peak shares, 6,250 GiB, make
// a 7 TiB Ultra pool: 7,168 x 0.39274 = 2,815.16 USD/month, 56.30 or 56.31 per cluster.
// The base months stay on the 3 TiB Standard pool (453.00). A year: 10 x 453.00 + 2 x
// 2,815.16 = 10,160.32 of ANF, each cluster's yearly cost adding up to it; the year's
// total adds 12 x the hosts and 12 x the 2 gateways (2,730.20).
#[test]
fn time_phased_shared_pools_count_each_phase_rounded_once() {
    let input = fifty_one_vm_clusters(&scratch("phased"));
    let json = plan_json(&[
        input.to_str().unwrap(),
        "--peak-months",
        "2",
        "--peak-iops",
        "100000",
        "--design",
        "anf",
    ]);
    let mut year = 0.0;
    let mut peak = 0.0;
    for c in json["clusters"].as_array().unwrap() {
        let p = &c["plan"];
        let tp = &p["time_phased"];
        assert_eq!(tp["peak"]["service_level"], "ultra");
        assert_eq!(tp["peak"]["share_gib"].as_u64(), Some(125));
        assert!(cents(
            f(&tp["base"]["cost_usd_per_month"]),
            f(&p["totals"]["cost_usd_per_month"])
        ));
        let month = f(&tp["peak"]["cost_usd_per_month"]);
        assert!(cents(month, 56.30) || cents(month, 56.31), "{month}");
        peak += month;
        year += f(&tp["yearly_cost_usd"]);
    }
    assert!(cents(peak, 2_815.16), "{peak}");
    assert!(cents(year, 10_160.32), "{year}");
    let s = &json["summary"];
    let hosts = f(&s["hosts_usd_per_month"]);
    assert!(cents(f(&s["gateway_usd_per_month"]), 2_730.20));
    assert!(cents(
        f(&s["total_usd_per_year"]),
        12.0 * (hosts + 2_730.20) + 10_160.32
    ));
}

// The guard at the design's split: the fixture's 2 clusters without a target, ANF for all.
// Dev needs 800 x 1.2 = 960 GiB, Prod 1,000 x 1.2 = 1,200 GiB (headroom 20%). Priced per
// GiB, Dev's cheapest is a 1 TiB Flexible pool of its own (1,024 x 0.11023 = 112.88, below
// a 960 GiB Standard share's 141.56) and Prod's a 1,200 GiB Standard share (176.95, below
// a 2 TiB Flexible pool's 225.75). Shared, Prod's share alone makes a Standard pool of
// ceil(1,200 / 1,024) = 2 TiB: 2,048 x 0.14746 = 302.00, so 112.88 + 302.00 = 414.88; a
// pool per cluster, Prod's own pool in whole TiB is the 2 TiB Flexible one: 112.88 +
// 225.75 = 338.63. The cheaper, a pool per cluster, is planned: 338.63, the figure the
// designs table gives ANF for all when another design is chosen (the default: vSAN alone,
// saving 338.63 + one gateway 1,365.10 = 1,703.73 against it).
#[test]
fn a_design_plans_its_pools_the_cheaper_way_and_the_designs_table_says_so() {
    let anf = plan_json(&["fixtures/small-estate.xlsx", "--design", "anf"]);
    assert!(cents(f(&anf["summary"]["anf_usd_per_month"]), 338.63));
    let sizing = pool_sizing(&anf);
    assert_eq!(sizing["value"], "per cluster");
    let note = sizing["note"].as_str().unwrap();
    assert!(
        note.contains("ANF 338.63 USD/month, 414.88 USD/month with shared pools"),
        "{note}"
    );
    let levels: Vec<(&str, u64, u64)> = anf["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let p = &c["plan"]["pools"][0];
            (
                p["service_level"].as_str().unwrap(),
                p["size_tib"].as_u64().unwrap(),
                p["share_gib"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(levels, [("flexible", 1, 0), ("flexible", 2, 0)]);
    let default = plan_json(&["fixtures/small-estate.xlsx"]);
    assert_eq!(default["summary"]["design"], "vsan");
    let rows = default["designs"]["estate"].as_array().unwrap();
    let row = rows.iter().find(|r| r["design"] == "anf").unwrap();
    assert!(cents(f(&row["anf_usd_per_month"]), 338.63));
    assert!(cents(
        f(&default["summary"]["savings_usd_per_month"]).abs(),
        0.0
    ));
    let why = default["designs"]["why"].as_str().unwrap();
    assert!(
        why.contains("saves 1,703.73 USD/month against ANF for all"),
        "{why}"
    );
}

// West Europe (data/prices.csv, USD per GiB-hour x 730): Standard 0.000202 -> 0.14746,
// Flexible 0.000216 -> 0.15768 per GiB-month. Dev needs 800 x 1.2 = 960 GiB, Prod 1,000 x
// 1.2 = 1,200 GiB. Shared: one Standard pool of ceil(2,160 / 1,024) = 3 TiB, 3,072 x
// 0.14746 = 453.00. A pool per cluster: Dev 1 TiB Standard 151.00 (a 1 TiB Flexible pool
// is 161.46), Prod 2 TiB Standard 302.00 (Flexible 322.93): 453.00 too. The tie keeps a
// pool per cluster, so the plan has two pools, one per cluster, each named once, with the
// cluster's own datastore quota (1,024 and 2,048 GiB), not one pool both clusters share.
#[test]
fn a_pool_per_cluster_stays_one_pool_per_cluster_in_the_estate() {
    let anf = plan_json(&[
        "fixtures/small-estate.xlsx",
        "--design",
        "anf",
        "--region",
        "westeurope",
    ]);
    assert!(cents(f(&anf["summary"]["anf_usd_per_month"]), 453.00));
    assert_eq!(anf["summary"]["pools"], 2);
    let sizing = pool_sizing(&anf);
    assert_eq!(sizing["value"], "per cluster");
    let mut pools: Vec<(String, u64, u64, Vec<String>)> = anf["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["size_tib"].as_u64().unwrap(),
                p["quota_gib"].as_u64().unwrap(),
                p["clusters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    pools.sort_by_key(|p| p.1);
    assert_eq!(pools[0].1, 1);
    assert_eq!(pools[0].2, 1024);
    assert_eq!(pools[0].3, ["avs-Dev"]);
    assert_eq!(pools[1].1, 2);
    assert_eq!(pools[1].2, 2048);
    assert_eq!(pools[1].3, ["avs-Prod"]);
    assert_ne!(pools[0].0, pools[1].0);
    // Each cluster's own pool and datastore carry that pool's name.
    for c in anf["clusters"].as_array().unwrap() {
        let name = c["cluster"].as_str().unwrap();
        let own = pools.iter().find(|p| p.3[0] == name).unwrap();
        assert_eq!(c["plan"]["pools"][0]["name"], own.0.as_str());
        assert_eq!(c["plan"]["datastores"][0]["pool"], own.0.as_str());
    }
}

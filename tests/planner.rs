//! `dsplan::Planner` against the `dsplan plan` command: the same options give the same JSON,
//! byte for byte, on the project's fixture and on a real export; errors carry their kind and
//! name settings by their library names.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

use dsplan::catalog::ReservationTerm;
use dsplan::report::Format;
use dsplan::{ErrorKind, PlanOptions, Planner};

include!("support/schema_check.rs");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    root().join("fixtures/small-estate.xlsx")
}

fn workshop() -> Option<PathBuf> {
    let p = root().join("../shared/rvtools/sizing-workshop-805vms.xlsx");
    if p.exists() {
        Some(p)
    } else {
        println!("skipped: ../shared not found");
        None
    }
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-planner-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command's JSON for `input` and `flags`.
fn command_json(input: &Path, flags: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .arg("plan")
        .arg(input)
        .args(flags)
        .args(["--format", "json"])
        .current_dir(root())
        .output()
        .expect("the dsplan binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The library's JSON for `input` and `options`, rendered as the command renders it.
fn library_json(input: &Path, options: PlanOptions) -> String {
    let planned = Planner::new().input(input).options(options).run().unwrap();
    let json = planned.render(Format::Json).unwrap();
    assert_schema_valid(&serde_json::from_str(&json).unwrap());
    json
}

/// Three option sets, each as flags and as `PlanOptions`.
fn option_sets(perf: &Path) -> Vec<(Vec<String>, PlanOptions)> {
    vec![
        (Vec::new(), PlanOptions::default()),
        (
            [
                "--region",
                "westeurope",
                "--cold-pct",
                "80",
                "--reservation",
                "1y",
            ]
            .map(String::from)
            .to_vec(),
            PlanOptions::default()
                .region("westeurope")
                .cold_pct(80.0)
                .reservation(ReservationTerm::OneYear),
        ),
        (
            // nconnect 4 and a display name for the region.
            ["--nconnect", "4", "--region", "West Europe"]
                .map(String::from)
                .to_vec(),
            PlanOptions::default().nconnect(4).region("West Europe"),
        ),
        (
            vec![
                "--per-cluster".into(),
                "--perf".into(),
                perf.display().to_string(),
            ],
            PlanOptions::default()
                .per_cluster(true)
                .perf(perf.to_path_buf()),
        ),
    ]
}

fn assert_library_equals_command(input: &Path, perf_csv: &str, test: &str) {
    let perf = scratch(test).join("perf.csv");
    std::fs::write(&perf, perf_csv).unwrap();
    for (flags, options) in option_sets(&perf) {
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let lib = library_json(input, options);
        assert_eq!(lib, command_json(input, &flags), "{flags:?}");
    }
}

#[test]
fn planner_json_is_the_commands_on_the_fixture() {
    // db-01 (Prod) and build-01 (Dev) of fixtures/small-estate.xlsx.
    assert_library_equals_command(
        &fixture(),
        "vm,iops,throughput_mibps\ndb-01,50000,400\nbuild-01,10000,100\n",
        "fixture",
    );
}

#[test]
fn planner_json_is_the_commands_on_a_real_export() {
    let Some(ws) = workshop() else { return };
    // Two VMs of the workshop export's inventory, by name.
    let inv = dsplan::ingest::read_inputs(&[&ws]).unwrap();
    let names: Vec<&str> = inv.vms.iter().take(2).map(|v| v.name.as_str()).collect();
    let csv = format!(
        "vm,iops,throughput_mibps\n{},20000,300\n{},5000,80\n",
        names[0], names[1]
    );
    assert_library_equals_command(&ws, &csv, "workshop");
}

#[test]
fn library_defaults_are_the_commands() {
    // The command's text header names its defaults: 3 hosts, 8 KiB 70% read 80% random.
    let plan = Planner::new().input(fixture()).plan().unwrap();
    assert_eq!(plan.hosts, 3);
    let p = plan.performance.small_block_profile;
    assert_eq!(
        (p.block_size_kib, p.read_pct, p.random_pct),
        (8.0, 70.0, 80.0)
    );
    assert!(plan.vsan_comparison.is_some());
}

#[test]
fn errors_have_a_kind_and_name_library_settings() {
    let plan = |options: PlanOptions| {
        Planner::new()
            .input(fixture())
            .options(options)
            .plan()
            .unwrap_err()
    };
    let e = plan(PlanOptions::default().max_datastores(0));
    assert_eq!(e.kind(), ErrorKind::Usage);
    let m = e.to_string();
    assert!(m.contains("`max_datastores`") && !m.contains("--"), "{m}");

    let e = plan(PlanOptions::default().cold_pct(120.0));
    assert_eq!(e.kind(), ErrorKind::Usage);
    assert!(e.to_string().contains("`cold_pct`"), "{e}");

    // 3 hosts reach at most 661,584 IOPS (tests/plan.rs): 50 million is out of reach.
    let e = plan(PlanOptions::default().hosts(3).iops(50_000_000.0));
    assert_eq!(e.kind(), ErrorKind::Infeasible);
    assert!(!e.to_string().contains("--"), "{e}");

    let e = Planner::new()
        .input(root().join("fixtures/no-such-file.xlsx"))
        .plan()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Input);
    assert!(e.to_string().contains("no-such-file.xlsx"), "{e}");

    let e = plan(PlanOptions::default().region("mars"));
    assert_eq!(e.kind(), ErrorKind::Usage);
    assert!(e.to_string().contains("mars"), "{e}");
}

#[test]
fn an_inventory_already_read_plans_like_its_file() {
    let inventory = dsplan::ingest::read_inputs(&[fixture()]).unwrap();
    let shared = std::sync::Arc::new(inventory.clone());
    let from_inventory = Planner::new().inventory(inventory).plan().unwrap();
    let from_file = Planner::new().input(fixture()).plan().unwrap();
    assert_eq!(from_inventory, from_file);
    // Shared, twice: the same plan each time, and the inventory is not used up.
    for _ in 0..2 {
        let from_shared = Planner::new()
            .shared_inventory(std::sync::Arc::clone(&shared))
            .plan()
            .unwrap();
        assert_eq!(from_shared, from_file);
    }
    assert_eq!(std::sync::Arc::strong_count(&shared), 1);
}

#[test]
fn check_catches_every_setting_that_needs_no_inventory() {
    // Each of these is wrong before any file is read; `check` names the setting.
    let cases: Vec<(PlanOptions, &str)> = vec![
        (PlanOptions::default().hosts(0), "`hosts`"),
        (PlanOptions::default().max_datastores(0), "`max_datastores`"),
        (PlanOptions::default().growth_pct(-10.0), "`growth_pct`"),
        (
            PlanOptions::default().snapshot_reserve_pct(f64::NAN),
            "`snapshot_reserve_pct`",
        ),
        (PlanOptions::default().iops(f64::INFINITY), "`iops`"),
        (PlanOptions::default().peak_months(0), "`peak_months`"),
        (PlanOptions::default().peak_iops(5_000.0), "`peak_iops`"),
        (
            PlanOptions::default().vsan_slack_pct(100.0),
            "`vsan_slack_pct`",
        ),
        (PlanOptions::default().vsan_host("av99"), "`vsan_host`"),
        (
            PlanOptions::default().vsan_policy(dsplan::vsan::PolicyChoice::Named("raid7".into())),
            "`vsan_policy`",
        ),
    ];
    for (options, setting) in cases {
        let mut planner = Planner::new();
        planner.options(options);
        let e = planner.check().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage, "{e}");
        assert!(e.to_string().contains(setting), "{setting}: {e}");
    }
}

#[test]
fn a_named_vsan_policy_matches_in_any_case() {
    // The command accepts --vsan-policy RAID1-FTT1; so does the library.
    let plan = Planner::new()
        .input(fixture())
        .options(
            PlanOptions::default()
                .vsan_policy(dsplan::vsan::PolicyChoice::Named("RAID1-FTT1".into())),
        )
        .plan()
        .unwrap();
    let v = plan.vsan_comparison.unwrap();
    assert_eq!(v.policy, "raid1-ftt1");
}

#[test]
fn an_overflowing_capacity_names_the_settings_that_grow_it() {
    let e = Planner::new()
        .input(fixture())
        .options(PlanOptions::default().growth_pct(1e308))
        .plan()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Usage);
    assert!(e.to_string().contains("`growth_pct`"), "{e}");
}

#[test]
fn nconnect_4_is_extrapolated_and_offered_beside_nconnect_1() {
    let plan = |nconnect: u32| {
        Planner::new()
            .input(fixture())
            .options(PlanOptions::default().nconnect(nconnect))
            .plan()
            .unwrap()
    };
    let (one, four) = (plan(1), plan(4));
    // The fixture's 7 VMs on the default 3 hosts, one datastore: 3 x 1 x 1 = 3 flows,
    // within the measured 1..4 hosts, 1..8 datastores, nconnect 1.
    assert_eq!(one.totals.flows, 3);
    assert!(!one.performance.extrapolation.extrapolated);
    assert!(one.performance.extrapolation.beyond.is_empty());
    // nconnect 4: 3 x 1 x 4 = 12 flows, beyond the measured nconnect 1.
    assert_eq!(four.totals.flows, 12);
    assert!(four.performance.extrapolation.extrapolated);
    assert_eq!(four.performance.extrapolation.beyond, ["nconnect 4"]);
    // The nconnect-1 plan's nconnect-4 row is the plan at nconnect 4.
    let row = one
        .alternatives
        .iter()
        .find(|a| a.basis == "nconnect")
        .unwrap();
    assert_eq!(row.cost_usd_per_month, four.totals.cost_usd_per_month);
    assert_eq!(row.pool_size_tib, four.totals.pool_size_tib);
    assert_eq!(row.service_level, Some(four.pools[0].service_level));
    assert!(four.alternatives.iter().all(|a| a.basis != "nconnect"));
    let assumed = |p: &dsplan::plan::Plan| {
        p.assumptions
            .iter()
            .find(|a| a.name == "nconnect")
            .map(|a| a.value.clone())
    };
    assert_eq!(assumed(&one).as_deref(), Some("1"));
    assert_eq!(assumed(&four).as_deref(), Some("4"));
    // Only 1 and 4 exist.
    let three = Planner::new()
        .input(fixture())
        .options(PlanOptions::default().nconnect(3))
        .plan()
        .unwrap_err();
    assert_eq!(three.kind(), ErrorKind::Usage);
    assert!(three.to_string().contains("`nconnect`"), "{three}");
}

#[test]
fn an_unlisted_region_is_a_usage_error_naming_the_setting() {
    let e = Planner::new()
        .input(fixture())
        .options(PlanOptions::default().region("Korea Central"))
        .check()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Usage);
    let m = e.to_string();
    assert!(
        m.contains("koreacentral") && m.contains("`allow_unlisted_region`"),
        "{m}"
    );
}

#[test]
fn price_sheet_names_and_dashes_name_the_same_region() {
    // data/prices.csv calls westeurope "EU West"; "west-europe" is the ARM name with a dash.
    for name in ["EU West", "west-europe", "West Europe"] {
        let plan = Planner::new()
            .input(fixture())
            .options(PlanOptions::default().region(name))
            .plan()
            .unwrap();
        assert_eq!(plan.region, "westeurope", "{name}");
    }
}

#[test]
fn peak_settings_that_change_nothing_are_warned_about() {
    let warnings = |options: PlanOptions| {
        let plan = Planner::new()
            .input(fixture())
            .options(options)
            .plan()
            .unwrap();
        plan.warnings
            .into_iter()
            .map(|w| w.message)
            .collect::<Vec<_>>()
    };
    // No peak target at all: both phases are the base layout.
    let w = warnings(PlanOptions::default().peak_months(3));
    assert!(
        w.iter().any(|m| m.contains("both phases are the same")),
        "{w:?}"
    );
    // A peak below the base: the peak months keep the base's 20,000 IOPS.
    let w = warnings(
        PlanOptions::default()
            .iops(20_000.0)
            .peak_months(3)
            .peak_iops(100.0),
    );
    assert!(
        w.iter()
            .any(|m| m.contains("`peak_iops` 100 is below `iops` 20,000")),
        "{w:?}"
    );
    // A peak target alone is a target: no "no target" warning.
    let w = warnings(
        PlanOptions::default()
            .peak_months(2)
            .peak_throughput_mibps(600.0),
    );
    assert!(
        !w.iter().any(|m| m.contains("no IOPS or MiB/s target")),
        "{w:?}"
    );
}

#[test]
fn per_cluster_total_keeps_the_estates_input_warnings() {
    // The fixture's vInfo names hosts vHost does not list ("not in vHost" style warnings
    // come from ingest); whatever the single plan warns about its input, the per-cluster
    // total carries too.
    let single = Planner::new().input(fixture()).plan().unwrap();
    let input: Vec<_> = single
        .warnings
        .iter()
        .filter(|w| !w.file.is_empty())
        .collect();
    let plans = Planner::new().input(fixture()).plan_per_cluster().unwrap();
    for w in input {
        assert!(plans.total.warnings.contains(w), "missing {w}");
    }
}

#[test]
fn the_regions_an_unknown_region_error_offers_first_all_plan() {
    // Before, the list held every region with ANF prices, and picking `uaenorth` from it
    // was refused next for want of ANF datastores on AVS there.
    let err = Planner::new()
        .input(fixture())
        .options(PlanOptions::default().region("nowhere").hosts(3))
        .plan()
        .unwrap_err();
    let text = err.to_string();
    let listed = text
        .split("known regions: ")
        .nth(1)
        .and_then(|rest| rest.split(" (where AVS takes").next())
        .unwrap_or_else(|| panic!("{text}"));
    let regions: Vec<&str> = listed.split(", ").collect();
    assert!(regions.len() >= 20, "{regions:?}");
    for region in regions {
        let plan = Planner::new()
            .input(fixture())
            .options(PlanOptions::default().region(region).hosts(3))
            .plan();
        assert!(plan.is_ok(), "{region}: {:?}", plan.err());
    }
    assert!(text.contains("more with ANF prices but no ANF datastores for AVS"));
}

//! The JSON Schemas under `schema/`: the committed files equal a fresh generation from the
//! Rust types, every JSON the command prints validates against them, and a broken JSON
//! does not.

// Runs the `dsplan` binary (the `cli` feature) and generates the schemas (the `schema` feature).
#![cfg(all(feature = "cli", feature = "schema"))]

use std::path::PathBuf;
use std::process::Command;

use dsplan::report::schema::{
    INVENTORY_SCHEMA_FILE, PLAN_SCHEMA_FILE, PREDICT_SCHEMA_FILE, inventory_schema, plan_schema,
    predict_schema,
};
use serde_json::{Value, json};

include!("support/schema_check.rs");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn committed(file: &str) -> String {
    let path = root().join("schema").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; write it with `cargo run --example write_schema`",
            path.display()
        )
    })
}

/// The command's stdout, parsed; the command must succeed.
fn dsplan_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "dsplan {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn assert_valid(file: &str, args: &[&str]) -> Value {
    let instance = dsplan_json(args);
    let errs = schema_errors(schema_validator(file), &instance);
    assert!(
        errs.is_empty(),
        "dsplan {args:?} against {file}:\n{}",
        errs.join("\n")
    );
    instance
}

#[test]
fn committed_schemas_are_fresh() {
    for (file, fresh) in [
        (PLAN_SCHEMA_FILE, plan_schema().unwrap()),
        (INVENTORY_SCHEMA_FILE, inventory_schema().unwrap()),
        (PREDICT_SCHEMA_FILE, predict_schema().unwrap()),
    ] {
        assert!(
            committed(file) == fresh,
            "schema/{file} is stale (a serialized type changed): regenerate it with \
             `cargo run --example write_schema` and commit it; bump \
             dsplan::plan::SCHEMA_VERSION if the change is incompatible"
        );
    }
}

#[test]
fn plan_with_hosts_validates() {
    let plan = assert_valid(
        PLAN_SCHEMA_FILE,
        &[
            "plan",
            "fixtures/small-estate.xlsx",
            "--hosts",
            "3",
            "--format",
            "json",
        ],
    );
    // A single plan: pools and datastores at the top, no clusters.
    assert!(plan["pools"].is_array() && plan.get("clusters").is_none());
}

#[test]
fn per_cluster_plans_validate() {
    let plans = assert_valid(
        PLAN_SCHEMA_FILE,
        &[
            "plan",
            "fixtures/small-estate.xlsx",
            "--per-cluster",
            "--format",
            "json",
        ],
    );
    assert!(plans["total"].is_object());
}

#[test]
fn estate_plans_validate() {
    let fixture = "fixtures/small-estate.xlsx";
    let estate = assert_valid(PLAN_SCHEMA_FILE, &["plan", fixture, "--format", "json"]);
    assert!(estate["summary"].is_object() && estate["sizing"].is_object());
    assert!(estate["designs"]["estate"].is_array());
    // The time-phased and cool plans as ANF for all (their datastores under test).
    let peak = assert_valid(
        PLAN_SCHEMA_FILE,
        &[
            "plan",
            fixture,
            "--peak-months",
            "2",
            "--peak-iops",
            "50000",
            "--iops",
            "20000",
            "--design",
            "anf",
            "--format",
            "json",
        ],
    );
    assert!(peak["clusters"][0]["plan"]["time_phased"].is_object());
    let cool = assert_valid(
        PLAN_SCHEMA_FILE,
        &[
            "plan",
            fixture,
            "--cold-pct",
            "80",
            "--reservation",
            "1y",
            "--design",
            "anf",
            "--format",
            "json",
        ],
    );
    assert_eq!(cool["clusters"][0]["plan"]["pools"][0]["cool_access"], true);
    assert_valid(
        PLAN_SCHEMA_FILE,
        &[
            "plan",
            "fixtures/small-estate-liveoptics.xlsx",
            "--format",
            "json",
        ],
    );
}

#[test]
fn inventories_validate() {
    for input in [
        "fixtures/small-estate.xlsx",
        "fixtures/small-estate-vinfo.csv",
    ] {
        let inventory = assert_valid(INVENTORY_SCHEMA_FILE, &["inventory", input, "--json"]);
        assert!(inventory["summary"].is_object());
    }
}

#[test]
fn predictions_validate_and_broken_ones_do_not() {
    let base = ["predict", "--hosts", "4", "--datastores", "4", "--json"];
    let plain = assert_valid(PREDICT_SCHEMA_FILE, &base);
    assert_eq!(plain["schema_version"], 2);
    // A vSAN envelope: no ANF layout, the vSAN cluster instead.
    let envelope = [
        "predict",
        "--system",
        "vsan-av36p",
        "--hosts",
        "4",
        "--json",
    ];
    let e = assert_valid(PREDICT_SCHEMA_FILE, &envelope);
    assert!(e.get("layout").is_none() && e["vsan"]["layout"]["hosts"] == 4);
    // The optional fields: a cache-tier system (working_set_fits_cache), and a cool
    // pool with a service level (cool_access_rate_mibps_per_tib, cool_access_rule).
    let vsan = [
        "predict",
        "--hosts",
        "4",
        "--datastores",
        "1",
        "--system",
        "vsan-hybrid",
        "--vms-per-host",
        "3",
        "--json",
    ];
    let v = assert_valid(PREDICT_SCHEMA_FILE, &vsan);
    assert!(v["working_set_fits_cache"].is_boolean());
    let cool = [
        &base[..],
        &["--service-level", "premium", "--size-tib", "20"],
    ]
    .concat();
    let cool = [&cool[..], &["--cool-pct", "80", "--region", "japaneast"]].concat();
    let c = assert_valid(PREDICT_SCHEMA_FILE, &cool);
    assert!(c["cool_access_rule"].is_object());
    let onread = [&base[..], &["--cool-pct", "20", "--retrieval", "onread"]].concat();
    assert_eq!(
        assert_valid(PREDICT_SCHEMA_FILE, &onread)["layout"]["retrieval"],
        "on_read"
    );

    let predicts = schema_validator(PREDICT_SCHEMA_FILE);
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut b = plain.clone();
        edit(&mut b);
        !predicts.is_valid(&b)
    };
    assert!(broken(&|b| b["iops"] = json!("76000")));
    assert!(broken(&|b| b["bottleneck"] = json!("disk")));
    assert!(broken(&|b| b["layout"]["retrieval"] = json!("sometimes")));
    assert!(broken(&|b| b["schema_version"] = json!(1)));
    assert!(broken(&|b| {
        b.as_object_mut().unwrap().remove("layers");
    }));
    // A plan is not a prediction, nor a prediction a plan.
    let plan = dsplan_json(&["plan", "fixtures/small-estate.xlsx", "--format", "json"]);
    assert!(!predicts.is_valid(&plan));
    assert!(!schema_validator(PLAN_SCHEMA_FILE).is_valid(&plain));
}

#[test]
fn broken_json_fails_validation() {
    let plans = schema_validator(PLAN_SCHEMA_FILE);
    let args = [
        "plan",
        "fixtures/small-estate.xlsx",
        "--hosts",
        "3",
        "--format",
        "json",
    ];
    let plan = dsplan_json(&args);
    assert!(schema_errors(plans, &plan).is_empty());

    // A pool size as a string.
    let mut broken = plan.clone();
    broken["pools"][0]["size_tib"] = json!("4");
    assert!(!plans.is_valid(&broken));
    // A required field missing.
    let mut broken = plan.clone();
    broken["totals"]
        .as_object_mut()
        .unwrap()
        .remove("cost_usd_per_month");
    assert!(!plans.is_valid(&broken));
    // A service level that does not exist.
    let mut broken = plan.clone();
    broken["pools"][0]["service_level"] = json!("platinum");
    assert!(!plans.is_valid(&broken));
    // Another schema version.
    let mut broken = plan.clone();
    broken["schema_version"] = json!(1);
    assert!(!plans.is_valid(&broken));
    // An inventory is not a plan, nor a plan an inventory.
    let inventory = dsplan_json(&["inventory", "fixtures/small-estate.xlsx", "--json"]);
    assert!(!plans.is_valid(&inventory));
    assert!(!schema_validator(INVENTORY_SCHEMA_FILE).is_valid(&plan));
}

#[test]
fn schema_files_name_their_draft() {
    for file in [PLAN_SCHEMA_FILE, INVENTORY_SCHEMA_FILE, PREDICT_SCHEMA_FILE] {
        let schema: Value = serde_json::from_str(&committed(file)).unwrap();
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{file}"
        );
    }
}

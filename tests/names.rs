//! Plans of several clusters name every pool and datastore once, with names Azure accepts
//! (Azure NetApp Files volume names: unique within a capacity pool, at least 3 characters,
//! a letter first, then letters, digits, `_`, `-`: azure-netapp-files-create-volumes; 64 at
//! most, conservative; vCenter: one datastore name per private cloud).

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::collections::HashSet;

include!("support/command.rs");
include!("support/schema_check.rs");

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["plan", "fixtures/small-estate.xlsx"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let o = dsplan(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&v);
    v
}

fn azure_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && (3..=64).contains(&name.len())
}

/// `(datastore names, pool names, placement datastores)` over every cluster.
fn names(v: &serde_json::Value) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut ds, mut pools, mut placed) = (Vec::new(), Vec::new(), Vec::new());
    for c in v["clusters"].as_array().unwrap() {
        let plan = &c["plan"];
        for d in plan["datastores"].as_array().unwrap() {
            ds.push(d["name"].as_str().unwrap().to_string());
        }
        for p in plan["pools"].as_array().unwrap() {
            pools.push(p["name"].as_str().unwrap().to_string());
        }
        for p in plan["placements"].as_array().unwrap() {
            placed.push(p["datastore"].as_str().unwrap().to_string());
        }
    }
    (ds, pools, placed)
}

#[test]
fn per_cluster_names_are_unique_and_valid() {
    let v = json(&[
        "--per-cluster",
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
    ]);
    let (ds, pools, placed) = names(&v);
    // Dev and Prod, one datastore and one Flexible pool each, named after the cluster.
    assert_eq!(ds, ["Dev-ds-01", "Prod-ds-01"]);
    assert_eq!(pools, ["Dev-pool-flexible-1", "Prod-pool-flexible-1"]);
    let set: HashSet<&String> = ds.iter().collect();
    assert!(placed.iter().all(|p| set.contains(p)), "{placed:?}");
    // 3 VMs placed on Dev-ds-01 and 4 on Prod-ds-01 (the fixture's 8 VMs less the template).
    assert_eq!(placed.iter().filter(|p| *p == "Dev-ds-01").count(), 3);
    assert_eq!(placed.iter().filter(|p| *p == "Prod-ds-01").count(), 4);
    assert!(ds.iter().chain(&pools).all(|n| azure_name(n)));
}

#[test]
fn estate_datastore_names_are_unique_and_valid() {
    // ANF for all (the fixture's data fits its compute hosts' vSAN otherwise).
    let v = json(&[
        "--iops",
        "20000",
        "--throughput-mibps",
        "500",
        "--design",
        "anf",
    ]);
    let (ds, _, placed) = names(&v);
    assert_eq!(ds, ["avs-Dev-ds-01", "avs-Prod-ds-01"]);
    assert_eq!(ds.iter().collect::<HashSet<_>>().len(), ds.len());
    let set: HashSet<&String> = ds.iter().collect();
    assert!(placed.iter().all(|p| set.contains(p)));
    // The estate's shared pools keep their estate-wide names.
    let pools: Vec<&str> = v["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(pools.iter().collect::<HashSet<_>>().len(), pools.len());
    assert!(ds.iter().map(String::as_str).chain(pools).all(azure_name));
}

#[test]
fn one_cluster_keeps_its_short_names() {
    let v = json(&["--hosts", "3"]);
    let names: Vec<&str> = v["datastores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["anf-ds-01"]);
}

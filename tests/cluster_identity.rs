//! Source clusters are told apart by vCenter, datacenter and name (issue 18, Why 2): the
//! same fixture given twice under two `VI SDK Server` names is four clusters, not two;
//! `clusters` takes a cluster's label; a vCenter's hosts are its own.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use serde_json::Value;

include!("support/command.rs");
include!("support/schema_check.rs");

/// The fixture's vInfo CSV (`fixtures/small-estate-vinfo.csv`): 9 VMs in `Prod` (web-01,
/// web-02, db-01, app-01 and the template tmpl-linux) and `Dev` (test-01, batch-01,
/// build-01), all of datacenter DC1 under `vcenter.example.test`, 2 vCPU and 8,192 MiB
/// each, VM IDs vm-1xx.
const FIXTURE: &str = "fixtures/small-estate-vinfo.csv";

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cluster_identity")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The fixture written to `dir/name` with each `(from, to)` replaced.
fn copy(dir: &Path, name: &str, edits: &[(&str, &str)]) -> String {
    let mut text = std::fs::read_to_string(root().join(FIXTURE)).expect("read the fixture");
    for (from, to) in edits {
        assert!(text.contains(from), "{from} not in the fixture");
        text = text.replace(from, to);
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the copy");
    path.to_string_lossy().into_owned()
}

/// The fixture under vCenters `vc-a.example.test` and `vc-b.example.test`.
fn two_vcenters(dir: &Path) -> [String; 2] {
    ["a", "b"].map(|v| {
        copy(
            dir,
            &format!("{v}.csv"),
            &[("vcenter.example.test", &format!("vc-{v}.example.test"))],
        )
    })
}

/// `dsplan plan ARGS --format json` (or `dsplan inventory ARGS --json`), exit 0, the JSON
/// checked against `schema/`.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    if args[0] == "plan" {
        all.extend(["--format", "json"]);
    } else {
        all.push("--json");
    }
    let out = dsplan(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_schema_valid(&json);
    json
}

/// An estate plan's (`summary.clusters`, `summary.hosts`, the AVS clusters' names; the
/// sizing's, whichever design keeps their data).
fn estate(json: &Value) -> (u64, u64, Vec<String>) {
    let names = json["sizing"]["clusters"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .filter_map(|c| c["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let summary = &json["summary"];
    let n = |k: &str| summary[k].as_u64().unwrap_or(u64::MAX);
    (n("clusters"), n("hosts"), names)
}

fn messages(json: &Value) -> Vec<String> {
    json["warnings"]
        .as_array()
        .map(|ws| {
            ws.iter()
                .filter_map(|w| w["message"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn the_fixture_under_two_vcenters_plans_twice_the_clusters_and_hosts() {
    // By hand: Prod places 4 VMs (the template is left out), 8 vCPU and 32 GiB; Dev 3 VMs,
    // 6 vCPU and 24 GiB. On any AVS SKU (36 cores or more, 512 GB or more) that is 1 host
    // by vCPU and by memory, + 1 for HA = 2, raised to the 3-host minimum: 2 clusters of 3
    // hosts, 6 hosts. Twice the fixture under two vCenters: 4 clusters, 12 hosts.
    let dir = scratch("two_vcenters");
    let [a, b] = two_vcenters(&dir);
    let one = estate(&json(&["plan", FIXTURE]));
    assert_eq!(one, (2, 6, strings(&["avs-Dev", "avs-Prod"])));
    let (clusters, hosts, names) = estate(&json(&["plan", &a, &b]));
    assert_eq!((clusters, hosts), (2 * one.0, 2 * one.1));
    // Named so a reader tells them apart: the name qualified by its vCenter.
    assert_eq!(
        names,
        strings(&[
            "avs-Dev (vc-a.example.test)",
            "avs-Dev (vc-b.example.test)",
            "avs-Prod (vc-a.example.test)",
            "avs-Prod (vc-b.example.test)",
        ])
    );
    // Per cluster, the plan's `cluster` is the source cluster's label.
    let per = json(&["plan", &a, &b, "--per-cluster"]);
    let labels: Vec<&str> = per["clusters"]
        .as_array()
        .map(|cs| cs.iter().filter_map(|c| c["cluster"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        labels,
        [
            "Dev (vc-a.example.test)",
            "Dev (vc-b.example.test)",
            "Prod (vc-a.example.test)",
            "Prod (vc-b.example.test)",
        ]
    );
}

#[test]
fn a_qualified_cluster_name_selects_one_and_a_shared_name_selects_both() {
    let dir = scratch("filter");
    let [a, b] = two_vcenters(&dir);
    // The label selects vc-a's Prod alone: 1 cluster of 3 hosts (see above). Case and
    // spaces do not matter.
    let one = json(&["plan", &a, &b, "--cluster", " prod (VC-A.example.test) "]);
    assert_eq!(
        estate(&one),
        (1, 3, strings(&["avs-Prod (vc-a.example.test)"]))
    );
    // With the datacenter too.
    let dc = json(&["plan", &a, &b, "--cluster", "Prod (vc-a.example.test/DC1)"]);
    assert_eq!(estate(&dc), estate(&one));
    // The bare name selects both vCenters' Prod (2 clusters, 6 hosts), and says so.
    let both = json(&["plan", &a, &b, "--cluster", "Prod"]);
    assert_eq!(
        estate(&both),
        (
            2,
            6,
            strings(&[
                "avs-Prod (vc-a.example.test)",
                "avs-Prod (vc-b.example.test)"
            ])
        )
    );
    // (JSON keeps the library's setting names; the text report says `--cluster`.)
    let said = "`clusters` 'Prod' names 2 clusters of different vCenters or datacenters: 'Prod \
                (vc-a.example.test)', 'Prod (vc-b.example.test)'; all are selected (give one \
                as written here to select it alone)";
    assert!(
        messages(&both).iter().any(|m| m == said),
        "{:#?}",
        messages(&both)
    );
    // A vCenter no cluster has: refused, listing the labels.
    let out = dsplan(&["plan", &a, &b, "--cluster", "Prod (vc-c.example.test)"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "values in the input: Dev (vc-a.example.test), Dev (vc-b.example.test), Prod \
             (vc-a.example.test), Prod (vc-b.example.test)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn one_name_in_two_datacenters_of_one_vcenter_is_two_clusters() {
    // The second copy moves to datacenter DC2 of the same vCenter, with other VM IDs and
    // UUIDs (vm-9xx, 43...) so its VMs are not copies of the first's: 4 clusters, 12
    // hosts (3 each, as above), labelled vCenter/datacenter.
    let dir = scratch("two_datacenters");
    let first = copy(&dir, "dc1.csv", &[]);
    let second = copy(
        &dir,
        "dc2.csv",
        &[("DC1", "DC2"), ("vm-", "vm-9"), ("42000000-", "43000000-")],
    );
    let (clusters, hosts, names) = estate(&json(&["plan", &first, &second]));
    assert_eq!((clusters, hosts), (4, 12));
    assert_eq!(
        names,
        strings(&[
            "avs-Dev (vcenter.example.test/DC1)",
            "avs-Dev (vcenter.example.test/DC2)",
            "avs-Prod (vcenter.example.test/DC1)",
            "avs-Prod (vcenter.example.test/DC2)",
        ])
    );
}

/// An RVTools CSV folder of vCenter `vc`: vInfo with VMs `app` (Cluster1, esx-01) and `db`
/// (Cluster1, esx-02), 1,024 MiB each; vHost with esx-01, esx-02 and esx-03 in Cluster1.
fn vcenter_folder(dir: &Path, vc: &str) -> String {
    let folder = dir.join(vc);
    std::fs::create_dir_all(&folder).expect("create folder");
    let mut vinfo =
        String::from("VM,Provisioned MiB,In Use MiB,Datacenter,Cluster,Host,VI SDK Server,VM ID\n");
    let mut vhost = String::from("Host,Datacenter,Cluster,# Cores,VI SDK Server\n");
    for (vm, host, id) in [("app", "esx-01", "vm-1"), ("db", "esx-02", "vm-2")] {
        vinfo.push_str(&format!("{vm},1024,1024,DC1,Cluster1,{host},{vc},{id}\n"));
    }
    for host in ["esx-01", "esx-02", "esx-03"] {
        vhost.push_str(&format!("{host},DC1,Cluster1,16,{vc}\n"));
    }
    for (tab, text) in [("vInfo", vinfo), ("vHost", vhost)] {
        std::fs::write(folder.join(format!("RVTools_tab{tab}.csv")), text).expect("write tab");
    }
    folder.to_string_lossy().into_owned()
}

#[test]
fn each_vcenter_counts_its_own_hosts_of_the_same_names() {
    // Two vCenters, each with Cluster1 on hosts esx-01..esx-03 (3 vHost rows, the vInfo
    // names esx-01 and esx-02 among them): two clusters of 3 hosts, 6 in all; the second
    // vCenter's vHost rows are not copies of the first's.
    let dir = scratch("hosts");
    let a = vcenter_folder(&dir, "vc-a");
    let b = vcenter_folder(&dir, "vc-b");
    let inv = json(&["inventory", &a, &b]);
    let details: Vec<(String, u64, String)> = inv["cluster_details"]
        .as_array()
        .map(|ds| {
            ds.iter()
                .map(|d| {
                    (
                        d["cluster"].as_str().unwrap_or("").to_string(),
                        d["host_count"].as_u64().unwrap_or(0),
                        d["hosts_source"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let agree = "vHost rows (vInfo Host names agree)".to_string();
    assert_eq!(
        details,
        [
            ("Cluster1 (vc-a)".to_string(), 3, agree.clone()),
            ("Cluster1 (vc-b)".to_string(), 3, agree),
        ]
    );
    assert_eq!(inv["summary"]["host_count"], 6);
    assert!(
        !messages(&inv)
            .iter()
            .any(|m| m.contains("vHost rows repeat")),
        "{:#?}",
        messages(&inv)
    );
}

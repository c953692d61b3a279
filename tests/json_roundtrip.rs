//! A plan's JSON is public API and reads back as the same plan, to the last bit of every
//! figure (serde_json's `float_roundtrip`): one cluster's plan, per-cluster plans and the
//! estate plan, on the shipped fixtures and on generated estates.

use dsplan::plan::{ClusterPlans, Design, EstatePlan, Plan};
use dsplan::{PlanOptions, Planner};
use proptest::prelude::*;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `value` written as JSON and read back.
fn back<T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug>(value: &T) -> T {
    let json = serde_json::to_string(value).unwrap();
    let read: T = serde_json::from_str(&json).unwrap();
    let (a, b) = (format!("{value:?}"), format!("{read:?}"));
    if let Some(i) = a.bytes().zip(b.bytes()).position(|(x, y)| x != y) {
        let from = a[..i].char_indices().rev().nth(300).map_or(0, |(j, _)| j);
        eprintln!(
            "DIFF at {i}: ...{}\n vs ...{}",
            &a[from..(i + 80).min(a.len())],
            &b[from..(i + 80).min(b.len())]
        );
    }
    read
}

#[test]
fn every_plan_kind_of_the_fixtures_reads_back_equal() {
    for input in ["small-estate.xlsx", "file-servers-vinfo.csv"] {
        let mut planner = Planner::new();
        planner.input(fixture(input));
        let estate: EstatePlan = planner.plan_estate().unwrap();
        assert_eq!(back(&estate), estate, "{input}: estate");
        // ANF for all: every figure of the ANF side (sizes, shares, costs) in the JSON.
        planner.options_mut().design = Some(Design::Anf);
        let anf = planner.plan_estate().unwrap();
        assert_eq!(back(&anf), anf, "{input}: ANF for all");
        planner.options(PlanOptions::default());
        let per_cluster: ClusterPlans = planner.plan_per_cluster().unwrap();
        assert_eq!(back(&per_cluster), per_cluster, "{input}: per cluster");
        planner.options(PlanOptions::default().hosts(3));
        let one: Plan = planner.plan().unwrap();
        assert_eq!(back(&one), one, "{input}: one cluster");
    }
}

/// A vInfo CSV of `vms` (vCPUs, GiB of memory, GiB in use, cluster index) in `clusters`
/// clusters.
fn vinfo(vms: &[(u32, u32, u32, usize)]) -> String {
    let mut csv = String::from("VM,Powerstate,CPUs,Memory,Provisioned MiB,In Use MiB,Cluster\n");
    for (i, (cpus, memory_gib, in_use_gib, cluster)) in vms.iter().enumerate() {
        let in_use_mib = u64::from(*in_use_gib) * 1024 + i as u64 % 7;
        csv.push_str(&format!(
            "vm-{i},poweredOn,{cpus},{},{},{in_use_mib},C{cluster}\n",
            memory_gib * 1024,
            in_use_mib * 2
        ));
    }
    csv
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Any small estate, with and without targets, reads back equal in each plan kind.
    #[test]
    fn generated_estates_read_back_equal(
        vms in proptest::collection::vec((1u32..32, 4u32..512, 1u32..20_000, 0usize..3), 1..24),
        iops in prop_oneof![Just(0.0), 1_000.0f64..200_000.0],
        mibps in prop_oneof![Just(0.0), 10.0f64..5_000.0],
    ) {
        let bytes = vinfo(&vms);
        let inventory =
            dsplan::ingest::read_inputs_bytes(&[("estate.csv", bytes.as_bytes())]).unwrap();
        let mut planner = Planner::new();
        planner.inventory(inventory);
        planner.options_mut().iops = iops;
        planner.options_mut().throughput_mibps = mibps;
        if let Ok(estate) = planner.plan_estate() {
            prop_assert_eq!(back(&estate), estate);
        }
        planner.options_mut().design = Some(Design::Anf);
        if let Ok(anf) = planner.plan_estate() {
            prop_assert_eq!(back(&anf), anf);
        }
        planner.options_mut().design = None;
        if let Ok(plans) = planner.plan_per_cluster() {
            prop_assert_eq!(back(&plans), plans);
        }
    }
}

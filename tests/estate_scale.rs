//! Estate plans at scale (issue 10, item 7): generated estates of 1,000, 2,000 and 4,000 VMs
//! (the generator of `examples/make_estate.rs`, same per-VM distribution, 4 source clusters)
//! planned with `Planner::plan_estate` in memory. The JSON grows no faster than the VMs,
//! every pool is at most 2,048 TiB, every AVS cluster has 3..=16 hosts and at most
//! `max_datastores` datastores, and every cluster's plan is re-predicted here with the
//! performance model and meets its targets. The 10,000-VM / 5.5 PiB and 50,000-VM estates
//! are timed end to end by `benches/estate.rs` and `BENCHMARKS.md`; the debug binary's
//! run over the 10,000-VM CSV is checked below.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::PathBuf;
use std::process::Command;

use dsplan::catalog::{Catalog, ServiceLevel};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::optimize::workload_layout;
use dsplan::perf::PerfModel;
use dsplan::plan::{EstatePlan, Plan};
use dsplan::report::{Format, render_estate_plan};
use dsplan::{PlanOptions, Planner};

#[path = "../examples/support/estate_gen.rs"]
#[allow(dead_code)]
mod estate_gen;

use estate_gen::{GenVm, Spec};

include!("support/schema_check.rs");

/// The generated VM as ingest reads it from the generator's vInfo row.
fn to_vm(g: &GenVm, row: usize) -> Vm {
    Vm {
        power_state: if g.powered_on {
            PowerState::PoweredOn
        } else {
            PowerState::PoweredOff
        },
        template: Some(g.template),
        srm_placeholder: Some(false),
        cluster: Some(g.cluster_name().into()),
        host: Some(g.host_name().into()),
        cpus: Some(g.cpus),
        memory_mib: Some(g.memory_mib as f64),
        memory_consumed_mib: Some(g.consumed_mib as f64),
        provisioned_mib: Some(g.provisioned_mib as f64),
        in_use_mib: Some(g.in_use_mib as f64),
        unshared_mib: Some(g.in_use_mib as f64),
        datacenter: Some("DC1".into()),
        vi_sdk_server: Some("vcenter.example.test".into()),
        vm_id: Some(g.vm_id()),
        vm_uuid: Some(g.uuid()),
        ..Vm::new(
            g.name(),
            Origin {
                file: "generated".into(),
                sheet: "vInfo".into(),
                row,
            },
        )
    }
}

/// `vms` generated VMs over 4 source clusters, unscaled (mean about 391 GiB in use).
fn estate(vms: usize) -> Inventory {
    estate_of(&Spec::new(vms, 4))
}

/// The generated estate of `spec`, in memory.
fn estate_of(spec: &Spec) -> Inventory {
    let hosts = estate_gen::hosts_per_cluster(spec);
    Inventory {
        inputs: vec!["generated".into()],
        vms: estate_gen::generate(spec, hosts)
            .iter()
            .enumerate()
            .map(|(i, g)| to_vm(g, i + 2))
            .collect(),
        ..Inventory::default()
    }
}

fn plan_estate(inv: Inventory, options: PlanOptions) -> EstatePlan {
    match Planner::new().inventory(inv).options(options).plan_estate() {
        Ok(plan) => plan,
        Err(e) => panic!("estate plan failed: {e}"),
    }
}

/// Re-predicts `plan`'s layout with the built-in model (as the optimizer's verification
/// does: the cluster's hosts, its datastores, the volumes' throughput ceiling, its pools'
/// QoS together) and checks the targets and the plan's own predictions against it.
fn verify_performance(cluster: &str, plan: &Plan, options: &PlanOptions) {
    let limits = Catalog::builtin().expect("built-in catalog").limits;
    let model = PerfModel::builtin().expect("built-in model");
    let large = plan.datastores.iter().any(|d| d.large_volume);
    let volume_mibps = if large {
        limits.large_volume_max_throughput_mibps
    } else {
        limits.volume_max_throughput_mibps
    };
    let mut layout = workload_layout(
        plan.hosts,
        plan.totals.datastores,
        volume_mibps,
        plan.totals.vms_placed,
    );
    layout.nconnect = options.nconnect;
    layout.qos_throughput_mibps = Some(plan.pools.iter().map(|p| p.throughput_mibps).sum());
    let perf = &plan.performance;
    // The plan's own system (AV64 hosts: anf-avs-av64, 100 GbE).
    let system = model.system(&perf.system).expect("a built-in system");
    let small = model
        .predict_system(system, &layout, &perf.small_block_profile)
        .expect("small");
    let big = model
        .predict_system(system, &layout, &perf.large_block_profile)
        .expect("large");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
    assert!(
        close(small.iops, perf.small_block.iops)
            && close(big.throughput_mibps, perf.large_block.throughput_mibps),
        "{cluster}: re-predicted {} IOPS / {} MiB/s, plan says {} / {}",
        small.iops,
        big.throughput_mibps,
        perf.small_block.iops,
        perf.large_block.throughput_mibps
    );
    assert!(small.iops + 1e-6 >= perf.iops_target, "{cluster}: IOPS");
    assert!(
        big.throughput_mibps + 1e-6 >= perf.throughput_target_mibps,
        "{cluster}: MiB/s"
    );
}

/// Pools at most 2,048 TiB; clusters of 3..=16 hosts, at most `max_datastores`
/// datastores, each re-verified against the performance model.
fn check_invariants(plan: &EstatePlan, options: &PlanOptions) {
    for pool in &plan.pools {
        assert!(
            pool.size_tib <= 2048,
            "{}: {} TiB",
            pool.name,
            pool.size_tib
        );
    }
    assert!(!plan.clusters.is_empty());
    for c in &plan.clusters {
        assert!(
            (3..=16).contains(&c.hosts),
            "{}: {} hosts",
            c.cluster,
            c.hosts
        );
        assert_eq!(c.plan.hosts, c.hosts, "{}", c.cluster);
        let datastores = c.plan.totals.datastores;
        assert_eq!(
            datastores as usize,
            c.plan.datastores.len(),
            "{}",
            c.cluster
        );
        assert!(
            (1..=options.max_datastores).contains(&datastores),
            "{}: {datastores} datastores",
            c.cluster
        );
        verify_performance(&c.cluster, &c.plan, options);
    }
}

#[test]
fn estate_json_grows_linearly_and_every_cluster_holds() {
    let options = PlanOptions::default();
    let mut per_vm = Vec::new();
    for vms in [1_000, 2_000, 4_000] {
        let plan = plan_estate(estate(vms), options.clone());
        // Every VM is either placed or excluded, once.
        assert_eq!(plan.summary.vms_placed + plan.summary.vms_excluded, vms);
        check_invariants(&plan, &options);
        let json = render_estate_plan(&plan, Format::Json).expect("JSON");
        per_vm.push((vms, json.len() as f64 / vms as f64));
    }
    // At most linear: bytes per VM no more than 15% above the 1,000-VM estate's (the fixed
    // part -- SKU alternatives, assumptions, pools -- is a few KB beside about 150 bytes per
    // VM). The design chosen is the hybrid: a VM on ANF has its placement rows, one kept on
    // vSAN only its name, and the share each design puts on ANF varies with the estate, so
    // the bytes per VM may fall as it grows.
    let base = per_vm[0].1;
    for &(vms, b) in &per_vm {
        assert!(
            b / base - 1.0 <= 0.15,
            "{vms} VMs: {b:.1} bytes per VM against {base:.1} at 1,000: {per_vm:?}"
        );
    }
}

/// With estate targets (split over the AVS clusters by their share of the capacity) the
/// performance check has teeth, and with Premium only the pools are shared across clusters,
/// so the 2,048 TiB bound has teeth too: 2,000 VMs with 3 PiB in use (3,072 TiB, more than
/// one pool holds), 9,000,000 IOPS and 200,000 MiB/s. The compute sizing gives 8 AVS
/// clusters, so each gets about 1/8: about 1.1 million IOPS and 25,000 MiB/s, more than 5
/// regular volumes carry (5 x 4,500 MiB/s = 22,500, `data/limits.csv`): the MiB/s target
/// binds, and every cluster needs at least ceil(target / 4,500) datastores.
#[test]
fn estate_targets_are_met_in_every_cluster() {
    // ANF for all: every cluster's share of the targets on its datastores.
    let options = PlanOptions::default()
        .iops(9_000_000.0)
        .throughput_mibps(200_000.0)
        .service_levels(vec![ServiceLevel::Premium])
        .design(dsplan::plan::Design::Anf);
    let spec = Spec {
        in_use_pib: Some(3.0),
        ..Spec::new(2_000, 4)
    };
    let plan = plan_estate(estate_of(&spec), options.clone());
    check_invariants(&plan, &options);
    for c in &plan.clusters {
        let perf = &c.plan.performance;
        let floor = (perf.throughput_target_mibps / 4_500.0).ceil() as u32;
        assert!(c.plan.totals.datastores >= floor, "{}", c.cluster);
        assert!(perf.throughput_target_mibps > 20_000.0, "{}", c.cluster);
    }
    // 3,072 TiB in use alone is more than one pool: at least two pools, shared.
    assert!(plan.pools.len() >= 2, "{} pools", plan.pools.len());
    assert!(plan.pools.iter().any(|p| p.clusters.len() >= 2));
    // The clusters' targets add up to the estate's (shares of the capacity add to 1).
    let iops: f64 = plan
        .clusters
        .iter()
        .map(|c| c.plan.performance.iops_target)
        .sum();
    let mibps: f64 = plan
        .clusters
        .iter()
        .map(|c| c.plan.performance.throughput_target_mibps)
        .sum();
    assert!((iops - 9_000_000.0).abs() < 1e-3, "{iops}");
    assert!((mibps - 200_000.0).abs() < 1e-3, "{mibps}");
}

/// The estate through the command: 10,000 VMs over 4 source clusters, 5.5 PiB in
/// use (vInfo CSV), planned with the default flags, exit 0.
#[test]
fn ten_thousand_vms_at_5_5_pib_plan_with_exit_0() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("estate-scale");
    std::fs::create_dir_all(&dir).expect("dir");
    let csv = dir.join("estate-10k-4c-5.5pib.csv");
    let spec = Spec {
        in_use_pib: Some(5.5),
        ..Spec::new(10_000, 4)
    };
    let written = estate_gen::write(csv.to_str().expect("UTF-8"), &spec).expect("write");
    // 5.5 PiB = 5.5 x 1024^3 MiB = 5,905,580,032 MiB, to the MiB.
    assert_eq!(written.in_use_mib, 5_905_580_032);
    let out = dir.join("estate-10k.json");
    let status = Command::new(env!("CARGO_BIN_EXE_dsplan"))
        .arg("plan")
        .arg(&csv)
        .args(["--format", "json", "-o"])
        .arg(&out)
        .output()
        .expect("run dsplan");
    assert!(
        status.status.success(),
        "exit {:?}: {}",
        status.status.code(),
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("JSON");
    assert_schema_valid(&serde_json::from_str(&text).expect("parse"));
    let plan: EstatePlan = serde_json::from_str(&text).expect("parse");
    assert_eq!(plan.summary.vms_placed + plan.summary.vms_excluded, 10_000);
    check_invariants(&plan, &PlanOptions::default());
}

/// A large source cluster splits into full clusters and one remainder when that needs the
/// fewest hosts: `need` hosts for the VMs (the larger of vCPU / 144 and GiB / 670.55 on
/// AV36P, rounded up) in `k = ceil(need / 15)` clusters (16 less 1 for HA) give
/// `need + k` hosts, the least any split can have (each cluster adds its HA host), plus
/// what the management reservation adds in each private cloud's first cluster (2,700 VMs:
/// 6 full clusters and one of 6 hosts; 6 x 16 + 7 > 96, so the sixth full one opens a
/// second private cloud, whose first cluster is an added one of 3 hosts).
#[test]
fn a_large_source_cluster_splits_into_the_fewest_hosts() {
    for vms in [2_300, 2_500, 2_700] {
        let inv = estate_of(&Spec::new(vms, 1));
        let plan = plan_estate(inv, PlanOptions::default().host_sku("av36p"));
        let s = &plan.sizing;
        let by_vcpu = (s.vcpus as f64 / s.vcpus_per_host - 1e-9).ceil() as u32;
        let by_memory = (s.memory_gib / s.memory_gib_per_host - 1e-9).ceil() as u32;
        let need = by_vcpu.max(by_memory);
        let k = need.div_ceil(15);
        let with_vms = s.clusters.iter().filter(|c| !c.management_only).count();
        assert_eq!(with_vms as u32, k, "{vms} VMs");
        // The management reservation (AV36P: 46 GHz / 2.6 GHz -> 18 cores x 4 = 72 vCPU;
        // 171.88 GB = 160.076 GiB) sits in each private cloud's first cluster, the one it
        // raises least: less than one host's vCPUs and memory, it adds at most 1 host to a
        // cluster; where every cluster of a private cloud is full (16 hosts) a cluster of
        // 3 hosts without VMs is added for it.
        let mut reserved = 0;
        for c in s.clusters.iter().filter(|c| c.management.is_some()) {
            if c.management_only {
                assert_eq!(c.hosts, 3, "{vms} VMs");
                assert!(
                    s.clusters
                        .iter()
                        .filter(|o| o.private_cloud == c.private_cloud && !o.management_only)
                        .all(|o| o.hosts == 16),
                    "{vms} VMs"
                );
                reserved += c.hosts;
            } else {
                let added = c.management.map_or(0, |r| r.added_hosts);
                assert!(added <= 1, "{vms} VMs: {added}");
                reserved += added;
            }
        }
        assert_eq!(
            s.hosts,
            need + k + reserved,
            "{vms} VMs: {:?}",
            s.clusters.iter().map(|c| c.hosts).collect::<Vec<_>>()
        );
        // Never fewer than the VMs and the reservation need together, with k HA hosts.
        let with = ((s.vcpus as f64 + 72.0) / s.vcpus_per_host - 1e-9)
            .ceil()
            .max(
                ((s.memory_gib + 171.88e9 / 1_073_741_824.0) / s.memory_gib_per_host - 1e-9).ceil(),
            ) as u32;
        assert!(s.hosts >= with + k, "{vms} VMs");
        assert!(s.clusters.iter().all(|c| (3..=16).contains(&c.hosts)));
    }
}

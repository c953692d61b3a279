//! Per-cluster plans of a generated estate: the estate's excluded VMs are listed once (not
//! once per cluster), and the JSON grows with the VMs, not with clusters x VMs.

use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::plan::ClusterPlans;
use dsplan::report::{self, Format};
use dsplan::{PlanOptions, Planner};

const CLUSTERS: usize = 20;

/// `n` VMs over `clusters` clusters: VM `i` is `vm-NNNNN` in `c{i % clusters}` on one of 4
/// hosts,
/// `100 + 10 x (i % 5)` GiB in use; a template when `i % 50 == 7`, powered off when
/// `i % 25 == 3` (never both: 7 is not 3 mod 25).
fn generated(n: usize, clusters: usize) -> Inventory {
    let vms = (0..n)
        .map(|i| Vm {
            power_state: if i % 25 == 3 {
                PowerState::PoweredOff
            } else {
                PowerState::PoweredOn
            },
            template: Some(i % 50 == 7),
            cluster: Some(format!("c{:02}", i % clusters).into()),
            host: Some(format!("h{:02}-{}", i % clusters, (i / clusters) % 4).into()),
            in_use_mib: Some((100.0 + 10.0 * (i % 5) as f64) * 1024.0),
            provisioned_mib: Some(200.0 * 1024.0),
            ..Vm::new(
                format!("vm-{i:05}"),
                Origin {
                    file: "generated".into(),
                    sheet: "vInfo".into(),
                    row: i + 2,
                },
            )
        })
        .collect();
    Inventory {
        inputs: vec!["generated".into()],
        vms,
        ..Inventory::default()
    }
}

fn plan(n: usize, clusters: usize) -> (ClusterPlans, String) {
    let plans = Planner::new()
        .inventory(generated(n, clusters))
        .options(PlanOptions::default().exclude_powered_off(true))
        .plan_per_cluster()
        .unwrap();
    let json = report::render_cluster_plans(&plans, Format::Json).unwrap();
    (plans, json)
}

#[test]
fn excluded_vms_are_named_once_and_no_cluster_lists_them() {
    // 2,000 VMs: per 50, one template (i = 7 mod 50: i % 5 = 2, 120 GiB) and two powered
    // off (i = 3 mod 25: i % 5 = 3, 130 GiB): 40 templates + 80 powered off = 120 VMs,
    // 40 x 120 + 80 x 130 = 4,800 + 10,400 = 15,200 GiB.
    // In use: 400 groups of five VMs of 100 + 110 + 120 + 130 + 140 = 600 GiB = 240,000 GiB;
    // placed 240,000 - 15,200 = 224,800 GiB.
    let (plans, json) = plan(2000, CLUSTERS);
    assert_eq!(plans.excluded.len(), 120);
    assert_eq!(plans.total.vms_excluded, 120);
    assert!((plans.total.excluded_capacity_gib - 15_200.0).abs() < 1e-6);
    assert!((plans.total.placed_capacity_gib - 224_800.0).abs() < 1e-6);
    assert_eq!(plans.clusters.len(), CLUSTERS);
    for c in &plans.clusters {
        assert!(c.plan.excluded.is_empty(), "{}", c.cluster);
        assert_eq!(c.plan.totals.vms_excluded, 0);
    }
    // Each excluded VM's name occurs exactly once in the whole JSON.
    for i in (0..2000).filter(|i| i % 50 == 7 || i % 25 == 3) {
        let name = format!("\"vm-{i:05}\"");
        assert_eq!(json.matches(&name).count(), 1, "{name}");
    }
    let reasons = |r: &str| json.matches(&format!("\"reason\": \"{r}\"")).count();
    assert_eq!((reasons("template"), reasons("powered_off")), (40, 80));
    assert_eq!(reasons("filtered_cluster"), 0);
}

#[test]
fn per_cluster_json_grows_linearly_with_the_vms() {
    // Twice the VMs in twice the clusters (100 VMs each): twice the placements, excluded
    // VMs and per-cluster sections, so about twice the JSON; were every VM listed in every
    // cluster's plan (clusters x VMs, as before the excluded VMs were listed once), 4 times.
    let (_, fewer) = plan(2000, CLUSTERS / 2);
    let (_, large) = plan(4000, CLUSTERS);
    let ratio = large.len() as f64 / fewer.len() as f64;
    assert!((1.8..=2.2).contains(&ratio), "{ratio}");
    // In the same 20 clusters the JSON is a fixed part per cluster (its assumptions,
    // alternatives, marginal costs: about 15 KB) plus a part per VM, so each 2,000 more VMs
    // add the same bytes: 2,000 -> 4,000 -> 6,000 VMs, steps within 5 % of each other.
    let (_, small) = plan(2000, CLUSTERS);
    let (_, largest) = plan(6000, CLUSTERS);
    let (step1, step2) = (
        (large.len() - small.len()) as f64,
        (largest.len() - large.len()) as f64,
    );
    assert!((step2 / step1 - 1.0).abs() < 0.05, "{step1} then {step2}");
}

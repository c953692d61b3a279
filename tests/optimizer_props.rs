//! Property tests of the optimizer: on random small instances the MILP's monthly cost equals
//! the cheapest layout found by exhaustive enumeration over service level, pool TiB and
//! datastore count, to the cent; every returned plan meets its targets when re-evaluated.

use dsplan::catalog::{Catalog, ServiceLevel};
use dsplan::demand::{self, DemandOptions};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::optimize::{self, OptimizeOptions};
use dsplan::perf::{IoProfile, Layout, PerfModel};
use proptest::prelude::*;

fn one_vm(gib: f64) -> Inventory {
    Inventory {
        inputs: vec![],
        vms: vec![Vm {
            power_state: PowerState::PoweredOn,
            template: Some(false),
            cluster: None,
            host: None,
            provisioned_mib: Some(gib * 1024.0),
            in_use_mib: Some(gib * 1024.0),
            ..Vm::new(
                "vm",
                Origin {
                    file: "p".into(),
                    sheet: "vInfo".into(),
                    row: 2,
                },
            )
        }],
        warnings: vec![],
        ..Inventory::default()
    }
}

fn cents(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Cheapest cost by brute force, written independently of the MILP: every service level,
/// every datastore count 1..=8, every pool size 1..=max TiB; Flexible buys the least whole
/// MiB/s above its included 128.
fn brute_force(
    region: &str,
    hosts: u32,
    capacity_gib: f64,
    iops: f64,
    mibps: f64,
    small: &IoProfile,
) -> Option<f64> {
    let c = Catalog::builtin().unwrap();
    let m = PerfModel::builtin().unwrap();
    let prices = c.region(region).unwrap();
    let large = IoProfile {
        block_size_kib: 64.0,
        read_pct: small.read_pct,
        random_pct: 0.0,
    };
    let qos = mibps.max(iops * small.block_size_kib / 1024.0);
    let mut best: Option<f64> = None;
    for spec in &c.service_levels {
        let Some(per_gib_month) = prices.capacity_usd_per_gib_month.get(&spec.service_level) else {
            continue;
        };
        let tp_price = prices.flexible_throughput_usd_per_mibps_month;
        if spec.service_level == ServiceLevel::Flexible && tp_price.is_none() {
            continue;
        }
        for d in 1..=8u32 {
            let layout = Layout::new(hosts, d, c.limits.volume_max_throughput_mibps);
            if m.predict(&layout, small).unwrap().iops < iops
                || m.predict(&layout, &large).unwrap().throughput_mibps < mibps
            {
                continue;
            }
            for p in 1..=2048u32 {
                let pf = f64::from(p);
                if pf * 1024.0 < capacity_gib
                    || pf > c.limits.volume_max_tib * f64::from(d)
                    || c.limits.volume_min_gib * f64::from(d) > pf * 1024.0
                {
                    continue;
                }
                let cap_cost = cents(pf * 1024.0 * per_gib_month);
                let cost = if spec.service_level == ServiceLevel::Flexible {
                    let need = (qos - 128.0).max(0.0).ceil();
                    if 128.0 + need > 640.0 * pf {
                        continue;
                    }
                    cap_cost + cents(need * tp_price.unwrap_or(0.0))
                } else {
                    if spec.throughput_mibps_per_tib * pf < qos {
                        continue;
                    }
                    cap_cost
                };
                if best.is_none_or(|b| cost < b) {
                    best = Some(cost);
                }
                break; // larger pools of this level and d only cost more
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn milp_cost_equals_exhaustive_enumeration(
        capacity_tib in 0.05f64..200.0,
        hosts in 3u32..=16,
        iops_frac in 0.0f64..1.0,
        mibps_frac in 0.0f64..1.0,
        region in prop::sample::select(vec!["eastus", "westeurope", "mexicocentral", "japaneast"]),
        block in prop::sample::select(vec![4.0f64, 8.0, 16.0, 32.0]),
    ) {
        let small = IoProfile { block_size_kib: block, read_pct: 70.0, random_pct: 100.0 };
        let m = PerfModel::builtin().unwrap();
        let c = Catalog::builtin().unwrap();
        // targets up to what 8 datastores reach
        let top = Layout::new(hosts, 8, c.limits.volume_max_throughput_mibps);
        let iops = (m.predict(&top, &small).unwrap().iops * iops_frac).floor();
        let large = IoProfile { block_size_kib: 64.0, read_pct: 70.0, random_pct: 0.0 };
        let mibps = (m.predict(&top, &large).unwrap().throughput_mibps * mibps_frac).floor();
        let opts = DemandOptions {
            headroom_pct: 0.0,
            iops,
            throughput_mibps: mibps,
            io_profile: small,
            ..DemandOptions::default()
        };
        let demand = demand::derive(&one_vm(capacity_tib * 1024.0), &opts).unwrap();
        let plan = optimize::optimize(&demand, &c, &m, &OptimizeOptions {
            hosts, region: region.into(), max_datastores: 8, service_levels: vec![],
        }).unwrap();
        let expected = brute_force(region, hosts, demand.required_capacity_gib, iops, mibps, &small)
            .expect("brute force finds a layout whenever the MILP does");
        prop_assert!((plan.totals.cost_usd_per_month - expected).abs() < 0.005,
            "milp {} vs enumeration {}", plan.totals.cost_usd_per_month, expected);
        // re-evaluated, the plan meets every target
        prop_assert!(plan.performance.small_block.iops + 1e-6 >= iops);
        prop_assert!(plan.performance.large_block.throughput_mibps + 1e-6 >= mibps);
        prop_assert!(f64::from(plan.totals.pool_size_tib) * 1024.0 + 1e-6 >= demand.required_capacity_gib);
        let placed: f64 = plan.datastores.iter().map(|d| d.placed_capacity_gib).sum();
        prop_assert!((placed - demand.placed_capacity_gib).abs() < 1e-6);
    }
}

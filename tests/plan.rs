//! Optimizer choices checked against hand arithmetic on `data/prices.csv`.
//!
//! Price per TiB-month = USD per GiB-hour x 1024 GiB x 730 h. From data/prices.csv:
//! - eastus: standard 0.000202 -> 150.99904; premium 0.000403 -> 301.25056;
//!   ultra 0.000538 -> 402.16576; flexible 0.000151 -> 112.87552;
//!   flexible throughput 0.003082 USD per MiB/s-hour -> 2.24986 per MiB/s-month.
//! - westeurope: standard 0.000202 -> 150.99904; premium 0.000403 -> 301.25056;
//!   ultra 0.000538 -> 402.16576; flexible 0.000216 -> 161.46432;
//!   flexible throughput 0.004407 -> 3.21711 per MiB/s-month.

use dsplan::catalog::{Catalog, ServiceLevel};
use dsplan::demand::{self, DemandOptions};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::optimize::{self, OptimizeError, OptimizeOptions, Target};
use dsplan::perf::PerfModel;
use dsplan::plan::Plan;

/// An inventory of `n` powered-on VMs of `gib_each` GiB in use.
fn estate(n: usize, gib_each: f64) -> Inventory {
    Inventory {
        inputs: vec!["synthetic".into()],
        vms: (0..n)
            .map(|i| Vm {
                power_state: PowerState::PoweredOn,
                template: Some(false),
                cluster: Some("c1".into()),
                host: Some("h1".into()),
                provisioned_mib: Some(gib_each * 1024.0),
                in_use_mib: Some(gib_each * 1024.0),
                ..Vm::new(
                    format!("vm{i:03}"),
                    Origin {
                        file: "synthetic".into(),
                        sheet: "vInfo".into(),
                        row: i + 2,
                    },
                )
            })
            .collect(),
        warnings: vec![],
        ..Inventory::default()
    }
}

fn plan(
    inv: &Inventory,
    region: &str,
    hosts: u32,
    iops: f64,
    mibps: f64,
) -> Result<Plan, OptimizeError> {
    let opts = DemandOptions {
        headroom_pct: 0.0,
        iops,
        throughput_mibps: mibps,
        ..DemandOptions::default()
    };
    let demand = demand::derive(inv, &opts).unwrap();
    optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions {
            hosts,
            region: region.into(),
            max_datastores: 8,
            service_levels: vec![],
        },
    )
}

#[test]
fn capacity_heavy_low_throughput_picks_standard_where_flexible_costs_more() {
    // 100 VMs x 1024 GiB = 100 TiB, 500 MiB/s, westeurope.
    // standard: 100 TiB x 150.99904 = 15,099.904 (gives 1,600 MiB/s >= 500)
    // flexible: 100 x 161.46432 + (500 - 128) x 3.21711 = 16,146.43 + 1,196.77 = 17,343.20
    // premium: 100 x 301.25 = 30,125; ultra more. -> standard, 15,099.90
    let p = plan(&estate(100, 1024.0), "westeurope", 3, 0.0, 500.0).unwrap();
    assert_eq!(p.pools.len(), 1);
    assert_eq!(p.pools[0].service_level, ServiceLevel::Standard);
    assert_eq!(p.pools[0].size_tib, 100);
    assert!((p.totals.cost_usd_per_month - 15_099.90).abs() < 0.005);
    // 3 hosts x 1 datastore carry 3 x 2,148 MiB/s: one datastore is enough.
    assert_eq!(p.totals.datastores, 1);
}

#[test]
fn capacity_heavy_in_eastus_picks_flexible_because_its_capacity_is_cheaper() {
    // eastus flexible capacity (112.88/TiB) undercuts standard (151.00/TiB):
    // flexible: 100 x 112.87552 = 11,287.552 -> 11,287.55
    //   + (500 - 128) x 2.24986 = 836.948 -> 836.95; total 12,124.50
    // standard: 15,099.90 -> flexible.
    let p = plan(&estate(100, 1024.0), "eastus", 3, 0.0, 500.0).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Flexible);
    assert_eq!(p.pools[0].size_tib, 100);
    assert_eq!(p.pools[0].purchased_throughput_mibps, 372.0);
    assert!((p.totals.cost_usd_per_month - 12_124.50).abs() < 0.005);
}

#[test]
fn small_throughput_heavy_eastus_flexible_beats_ultra() {
    // 1 TiB, 600 MiB/s, eastus.
    // flexible: 1 TiB (up to 640 MiB/s) = 112.88 + (600 - 128) x 2.24986 = 1,061.93 -> 1,174.81
    // ultra: ceil(600/128) = 5 TiB x 402.16576 = 2,010.83 -> flexible.
    let p = plan(&estate(1, 1024.0), "eastus", 3, 0.0, 600.0).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Flexible);
    assert_eq!(p.pools[0].size_tib, 1);
    assert_eq!(p.pools[0].purchased_throughput_mibps, 472.0);
    assert!((p.totals.cost_usd_per_month - 1_174.81).abs() < 0.005);
}

#[test]
fn throughput_heavy_westeurope_ultra_beats_flexible() {
    // 10 TiB, 1,280 MiB/s, westeurope.
    // ultra: 1280/128 = 10 TiB x 402.16576 = 4,021.66
    // flexible: 10 x 161.46432 = 1,614.64 + (1280 - 128) x 3.21711 = 3,706.11 -> 5,320.75
    // premium: 20 TiB x 301.25 = 6,025.01; standard 80 TiB x 151 = 12,079.92 -> ultra.
    let p = plan(&estate(10, 1024.0), "westeurope", 3, 0.0, 1280.0).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Ultra);
    assert_eq!(p.pools[0].size_tib, 10);
    assert!((p.totals.cost_usd_per_month - 4_021.66).abs() < 0.005);
}

/// Universal Scalability Law, as fitted in data/systems/anf-avs.csv (sigma 0.09675,
/// kappa 0.019807 from the published 1/2/4-datastore points): relative capacity of n flows.
fn usl(n: f64) -> f64 {
    n / (1.0 + 0.09675 * (n - 1.0) + 0.019807 * n * (n - 1.0))
}

#[test]
fn iops_needs_more_datastores_for_flows() {
    // 3 hosts, 500,000 8 KiB IOPS (70% read, 100% random).
    // Host layer: 76,000 IOPS per flow x usl(d) per host, x 3 hosts:
    //   d = 2: usl = 2 / (1 + 0.09675 + 0.039614) = 1.7600 -> 401,280 < 500,000
    //   d = 3: usl = 3 / (1 + 0.1935 + 0.118842) = 2.28600 -> 521,208
    // Volume layer (random-op ceilings fitted to the Linux benchmark), d = 3:
    //   read 1/(0.934857 + 0.309764 x 8) us = 293,000, write x 0.346346 = 101,482;
    //   70/30 mix by time 1/(0.7/293,000 + 0.3/101,482) = 187,080 per volume -> 561,240.
    // -> 3 datastores, host-bound near 521,208 IOPS.
    let p = plan(&estate(4, 256.0), "eastus", 3, 500_000.0, 0.0).unwrap();
    assert_eq!(p.totals.datastores, 3);
    assert_eq!(p.totals.flows, 9);
    let hand = 3.0 * 76_000.0 * usl(3.0);
    let host = p
        .performance
        .small_block
        .layers
        .iter()
        .find(|l| l.layer == dsplan::perf::Layer::Host)
        .unwrap();
    assert!(
        (host.iops - hand).abs() / hand < 1e-3,
        "{} vs {hand}",
        host.iops
    );
    // The QoS bought caps the prediction just above the target.
    assert!(p.performance.small_block.iops >= 500_000.0);
    assert!(p.binding.iter().any(|b| b.constraint == "iops_flows"));
    // QoS: 500,000 x 8 KiB / 1024 = 3,906.25 MiB/s -> the pool provides >= 3,907 MiB/s
    assert!(p.totals.throughput_mibps >= 3906.25);
}

#[test]
fn unreachable_iops_names_the_target_and_the_most_reachable() {
    // 3 hosts x up to 8 datastores: the host layer peaks at usl(7) = 7 / (1 + 0.5805 +
    // 0.831894) = 2.90169 (usl(8) = 2.87105 is past the peak, the envelope keeps the best),
    // so 3 x 76,000 x 2.90169 = 661,585 IOPS at most.
    let e = plan(&estate(1, 100.0), "eastus", 3, 50_000_000.0, 0.0).unwrap_err();
    let hand = 3.0 * 76_000.0 * usl(7.0);
    match &e {
        OptimizeError::Infeasible {
            target, reachable, ..
        } => {
            assert_eq!(*target, Target::Iops);
            assert!(
                (reachable - hand).abs() / hand < 1e-3,
                "{reachable} vs {hand}"
            );
        }
        other => panic!("expected infeasible, got {other}"),
    }
    let msg = e.to_string();
    assert!(msg.contains("IOPS") && msg.contains("661,584"), "{msg}");
}

#[test]
fn every_vm_is_placed_and_capacity_is_conserved() {
    // 7 VMs x 300 GiB = 2,100 GiB -> 3 TiB pool; placed sum over datastores = 2,100 GiB.
    let p = plan(&estate(7, 300.0), "eastus", 3, 200_000.0, 0.0).unwrap();
    let placed: f64 = p.datastores.iter().map(|d| d.placed_capacity_gib).sum();
    assert!((placed - 2100.0).abs() < 1e-6);
    let mut names: Vec<&str> = p.placements.iter().map(|x| x.vm.as_str()).collect();
    names.dedup();
    assert_eq!(names.len(), 7);
    for d in &p.datastores {
        assert!(d.placed_capacity_gib <= d.size_gib + 1e-9);
    }
}

#[test]
fn a_vm_larger_than_a_datastore_is_spread_and_headroom_is_kept_on_each() {
    // One 150 TiB VM (153,600 GiB) and one 10 GiB VM, 20% headroom, capacity only:
    // required = 153,610 x 1.2 = 184,332 GiB -> 181 TiB pool (180.01 rounded up);
    // a regular volume holds at most 100 TiB -> 2 datastores of 181 x 1024 / 2 = 92,672 GiB.
    // Data may fill 1/1.2 of each: 77,226.67 GiB. The big VM is split 77,226.67 (ds-01) +
    // 76,373.33 (ds-02); the small one goes to ds-02 (853.33 GiB room left).
    let mut inv = estate(2, 10.0);
    inv.vms[0].in_use_mib = Some(153_600.0 * 1024.0);
    let opts = DemandOptions::default(); // headroom 20%
    let demand = demand::derive(&inv, &opts).unwrap();
    let p = optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions {
            hosts: 3,
            region: "eastus".into(),
            max_datastores: 8,
            service_levels: vec![],
        },
    )
    .unwrap();
    assert_eq!(p.totals.pool_size_tib, 181);
    assert_eq!(p.totals.datastores, 2);
    let room = 92_672.0 / 1.2;
    for d in &p.datastores {
        assert_eq!(d.size_gib, 92_672.0);
        assert!(d.placed_capacity_gib <= room + 1e-6, "{d:?}");
    }
    let big: Vec<f64> = p
        .placements
        .iter()
        .filter(|x| x.vm == "vm000")
        .map(|x| x.capacity_gib)
        .collect();
    assert_eq!(big.len(), 2);
    assert!((big[0] - room).abs() < 1e-6 && (big[1] - (153_600.0 - room)).abs() < 1e-6);
    assert_eq!(p.totals.vms_placed, 2);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("must be spread"))
    );
}

#[test]
fn volume_quotas_are_whole_gib_and_add_up_to_the_pool() {
    // 7 x 300 GiB = 2,100 GiB needs 3 TiB, but 500,000 IOPS x 8 KiB / 1024 = 3,906.25
    // MiB/s of QoS: Flexible needs (128 + 3,779) / 640 = 6.1 -> 7 TiB (Ultra would need 31).
    // 3 datastores (flows, see above): 7,168 GiB / 3 = 2,389.33 -> 2,390, 2,389, 2,389.
    let p = plan(&estate(7, 300.0), "eastus", 3, 500_000.0, 0.0).unwrap();
    assert_eq!(p.totals.pool_size_tib, 7);
    let sizes: Vec<f64> = p.datastores.iter().map(|d| d.size_gib).collect();
    assert_eq!(sizes, vec![2390.0, 2389.0, 2389.0]);
}

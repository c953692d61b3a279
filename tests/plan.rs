//! Optimizer choices checked against hand arithmetic on `data/prices.csv`.
//!
//! Price per TiB-month = USD per GiB-hour x 1024 GiB x 730 h. From data/prices.csv:
//! - eastus: standard 0.000202 -> 150.99904; premium 0.000403 -> 301.25056;
//!   ultra 0.000538 -> 402.16576; flexible 0.000151 -> 112.87552;
//!   flexible throughput 0.003082 USD per MiB/s-hour -> 2.24986 per MiB/s-month.
//! - westeurope: standard 0.000202 -> 150.99904; premium 0.000403 -> 301.25056;
//!   ultra 0.000538 -> 402.16576; flexible 0.000216 -> 161.46432;
//!   flexible throughput 0.004407 -> 3.21711 per MiB/s-month.

use dsplan::catalog::ReservationTerm;
use dsplan::catalog::{Catalog, ServiceLevel};
use dsplan::demand::{self, DemandOptions};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::optimize::{self, OptimizeError, OptimizeOptions, PeakOptions, Target};
use dsplan::perf::{IoProfile, PerfModel};
use dsplan::plan::{Alternative, Constraint, MarginalCost, Plan};

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
    plan_with(
        inv,
        iops,
        mibps,
        &OptimizeOptions::default().hosts(hosts).region(region),
    )
}

fn plan_with(
    inv: &Inventory,
    iops: f64,
    mibps: f64,
    options: &OptimizeOptions,
) -> Result<Plan, OptimizeError> {
    let opts = DemandOptions::default()
        .headroom_pct(0.0)
        .iops(iops)
        .throughput_mibps(mibps)
        // the published test shape the figures assume
        .io_profile(IoProfile::small_block());
    let demand = demand::derive(inv, &opts).unwrap();
    optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        options,
    )
}

fn alternative<'a>(
    p: &'a Plan,
    basis: &str,
    level: Option<ServiceLevel>,
    d: u32,
) -> &'a Alternative {
    p.alternatives
        .iter()
        .find(|a| {
            a.basis == basis
                && match basis {
                    "service_level" => a.service_level == level,
                    _ => a.datastores == d,
                }
        })
        .unwrap()
}

fn marginal<'a>(p: &'a Plan, change: &str) -> &'a MarginalCost {
    p.marginal_costs
        .iter()
        .find(|m| m.change == change)
        .unwrap()
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
    // -> 3 datastores, host-bound near 521,208 IOPS. 32 VMs (10 per host, 1 TiB in all)
    // keep the VM layer (147,000 IOPS per VM) far above that.
    let p = plan(&estate(32, 32.0), "eastus", 3, 500_000.0, 0.0).unwrap();
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
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::IopsFlows)
    );
    // QoS: 500,000 x 8 KiB / 1024 = 3,906.25 MiB/s -> the pool provides >= 3,907 MiB/s
    assert!(p.totals.throughput_mibps >= 3906.25);
}

#[test]
fn unreachable_iops_names_the_target_and_the_most_reachable() {
    // 3 hosts x up to 8 datastores: the host layer peaks at usl(7) = 7 / (1 + 0.5805 +
    // 0.831894) = 2.90169 (usl(8) = 2.87105 is past the peak, the envelope keeps the best),
    // so 3 x 76,000 x 2.90169 = 661,585 IOPS at most.
    let e = plan(&estate(48, 2.0), "eastus", 3, 50_000_000.0, 0.0).unwrap_err();
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
fn capacity_only_demand_is_one_flexible_datastore_sized_by_capacity() {
    // 10 VMs x 1,024 GiB = 10 TiB, no IOPS or MiB/s target, eastus.
    // flexible 10 x 112.87552 = 1,128.7552 -> 1,128.76 (includes 128 MiB/s, nothing bought);
    // standard 10 x 150.99904 = 1,509.99; premium 3,012.51; ultra 4,021.66.
    let p = plan(&estate(10, 1024.0), "eastus", 3, 0.0, 0.0).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Flexible);
    assert_eq!(p.pools[0].size_tib, 10);
    assert_eq!(p.totals.datastores, 1);
    assert!((p.totals.cost_usd_per_month - 1_128.76).abs() < 0.005);
    assert_eq!(p.binding[0].constraint, Constraint::Capacity);
    let std = alternative(&p, "service_level", Some(ServiceLevel::Standard), 0);
    assert!((std.cost_usd_per_month - 1_509.99).abs() < 0.005);
    assert!((std.extra_cost_usd_per_month - 381.23).abs() < 0.005);
    let ultra = alternative(&p, "service_level", Some(ServiceLevel::Ultra), 0);
    assert!((ultra.cost_usd_per_month - 4_021.66).abs() < 0.005);
    // One more TiB: 11 x 112.87552 = 1,241.63072 -> 1,241.63, i.e. +112.87.
    let tib = marginal(&p, "capacity_plus_1_tib");
    assert!((tib.cost_usd_per_month - 1_241.63).abs() < 0.005);
    assert!((tib.extra_cost_usd_per_month - 112.87).abs() < 0.005);
    // 100 MiB/s: the 128 included cover it, so nothing more.
    let mibps = marginal(&p, "throughput_plus_100_mibps");
    assert!(mibps.feasible && mibps.extra_cost_usd_per_month.abs() < 0.005);
    // Every count from the table fits 10 TiB at the same price (volumes 10/d TiB >= 50 GiB).
    for d in [1, 2, 4, 8] {
        let a = alternative(&p, "datastores", None, d);
        assert!(
            a.feasible && a.extra_cost_usd_per_month.abs() < 0.005,
            "{a:?}"
        );
    }
}

#[test]
fn small_throughput_heavy_alternatives_show_ultra_and_the_marginal_mibps() {
    // As small_throughput_heavy_eastus_flexible_beats_ultra: flexible 1,174.81 chosen;
    // ultra 5 TiB x 402.16576 = 2,010.8288 -> 2,010.83, +836.02.
    let p = plan(&estate(1, 1024.0), "eastus", 3, 0.0, 600.0).unwrap();
    let ultra = alternative(&p, "service_level", Some(ServiceLevel::Ultra), 0);
    assert!((ultra.cost_usd_per_month - 2_010.83).abs() < 0.005);
    assert!((ultra.extra_cost_usd_per_month - 836.02).abs() < 0.005);
    // 100 more MiB/s: 700 MiB/s > 640 x 1 TiB, so flexible needs 2 TiB:
    // 2 x 112.87552 = 225.75 + (700 - 128) x 2.24986 = 1,286.92 -> 1,512.67, +337.86.
    let m = marginal(&p, "throughput_plus_100_mibps");
    assert!((m.cost_usd_per_month - 1_512.67).abs() < 0.005, "{m:?}");
    assert!((m.extra_cost_usd_per_month - 337.86).abs() < 0.005);
}

#[test]
fn archive_like_demand_turns_cool_access_on() {
    // 100 VMs x 1,024 GiB = 102,400 GiB of data, no targets, eastus, 80% cold, 10% of the
    // cold data re-read a month.
    // cold = 0.8 x 102,400 = 81,920 GiB; hot = 102,400 - 81,920 = 20,480 GiB (100 TiB pool).
    // eastus per GiB-month: flexible 0.000151 x 730 = 0.11023; standard 0.14746;
    //   cool 0.000082 x 730 = 0.05986; transfer 0.02 per GiB.
    // flexible + cool: hot 20,480 x 0.11023 = 2,257.5104 -> 2,257.51
    //                  cool 81,920 x 0.05986 = 4,903.7312 -> 4,903.73
    //                  transfer 81,920 x 0.10 x 0.02 = 163.84
    //                  = 7,325.08
    // flexible all hot: 100 x 112.87552 = 11,287.55 (+3,962.47);
    // standard + cool: 20,480 x 0.14746 = 3,019.98 + 4,903.73 + 163.84 = 8,087.55.
    let options = OptimizeOptions::default()
        .cold_pct(80.0)
        .cool_retrieval_pct(10.0);
    let p = plan_with(&estate(100, 1024.0), 0.0, 0.0, &options).unwrap();
    let pool = &p.pools[0];
    assert_eq!(pool.service_level, ServiceLevel::Flexible);
    assert!(pool.cool_access);
    assert_eq!(pool.size_tib, 100);
    assert!((pool.cool_data_gib - 81_920.0).abs() < 1e-6);
    assert!((pool.hot_capacity_cost_usd_per_month - 2_257.51).abs() < 0.005);
    assert!((pool.cool_capacity_cost_usd_per_month - 4_903.73).abs() < 0.005);
    assert!((pool.cool_transfer_cost_usd_per_month - 163.84).abs() < 0.005);
    assert!((p.totals.cost_usd_per_month - 7_325.08).abs() < 0.005);
    // Flexible keeps its 128 MiB/s with cool access (no purchase, no cool-rate drop).
    assert_eq!(pool.throughput_mibps, 128.0);
    let std = alternative(&p, "service_level", Some(ServiceLevel::Standard), 0);
    assert!(std.cool_access);
    assert!((std.cost_usd_per_month - 8_087.55).abs() < 0.005);
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::CoolAccess)
    );
    // The cool tier is in the verified prediction.
    assert!(
        p.performance
            .small_block
            .layers
            .iter()
            .any(|l| l.layer == dsplan::perf::Layer::CoolTier)
    );
    // Without cold data the same estate stays all hot: 11,287.55.
    let hot = plan(&estate(100, 1024.0), "eastus", 3, 0.0, 0.0).unwrap();
    assert!(!hot.pools[0].cool_access);
    assert!((hot.totals.cost_usd_per_month - 11_287.55).abs() < 0.005);
}

#[test]
fn cool_access_lowers_the_ultra_rate_so_throughput_keeps_it_off() {
    // 10 TiB, 1,280 MiB/s in westeurope picks ultra 10 TiB (4,021.66, see
    // throughput_heavy_westeurope_ultra_beats_flexible). 50% cold = 5,120 GiB; westeurope
    // cool 0.000087 x 730 = 0.06351 per GiB-month, transfer 0.0213 per GiB, 10% a month.
    // ultra + cool drops to 68 MiB/s per TiB: 1,280 / 68 = 18.8 -> 19 TiB;
    //   hot (19 x 1024 - 5,120) = 14,336 GiB x 0.000538 x 730 = 5,630.32
    //   + cool 5,120 x 0.06351 = 325.17 + transfer 5,120 x 0.1 x 0.0213 = 10.91 = 5,966.40.
    // flexible + cool (keeps its throughput): hot 5,120 x 0.000216 x 730 = 807.32 + 325.17
    //   + 10.91 + (1,280 - 128) x 3.21711 = 3,706.11 -> 4,849.51.
    // Both dearer than ultra all hot: cool access stays off at 4,021.66.
    let options = OptimizeOptions::default()
        .region("westeurope")
        .cold_pct(50.0);
    let p = plan_with(&estate(10, 1024.0), 0.0, 1280.0, &options).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Ultra);
    assert!(!p.pools[0].cool_access);
    assert!((p.totals.cost_usd_per_month - 4_021.66).abs() < 0.005);
    let flex = alternative(&p, "service_level", Some(ServiceLevel::Flexible), 0);
    assert!(flex.cool_access);
    assert!(
        (flex.cost_usd_per_month - 4_849.51).abs() < 0.005,
        "{flex:?}"
    );
}

#[test]
fn three_year_reservation_buys_whole_100_tib_units() {
    // westeurope, no targets; standard 150.99904 per TiB-month, flexible 161.46432 (no
    // published reservation); 3-year standard 18% off: 150.99904 x 0.82 = 123.8192128.
    // 250 TiB: 2 units (200 TiB) + 50 TiB pay as you go
    //   = 200 x 123.8192128 + 50 x 150.99904 = 24,763.84256 + 7,549.952 = 32,313.79456
    //   (3 units: 300 x 123.8192128 = 37,145.76; none: 37,749.76) -> 32,313.79.
    let options = OptimizeOptions::default()
        .region("westeurope")
        .reservation(ReservationTerm::ThreeYear);
    let p = plan_with(&estate(250, 1024.0), 0.0, 0.0, &options).unwrap();
    assert_eq!(p.pools[0].service_level, ServiceLevel::Standard);
    assert_eq!(p.pools[0].reserved_tib, 200);
    assert_eq!(p.pools[0].reservation_discount_pct, 18.0);
    assert!((p.totals.cost_usd_per_month - 32_313.79).abs() < 0.005);
    // 290 TiB: 2 units + 90 TiB = 24,763.84 + 13,589.91 = 38,353.75 > 3 units (300 TiB
    // reserved, 10 unused) = 37,145.76384 -> the plan over-reserves: 37,145.76.
    let p = plan_with(&estate(290, 1024.0), 0.0, 0.0, &options).unwrap();
    assert_eq!(p.pools[0].reserved_tib, 300);
    assert!((p.totals.cost_usd_per_month - 37_145.76).abs() < 0.005);
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::Reservation)
    );
}

#[test]
fn premium_1200_tib_3y_buys_one_pib_and_two_100_tib_units() {
    // eastus Premium: 0.000403 USD/GiB-h x 730 h x 1,024 GiB = 301.25056 per TiB-month.
    // Hot tier 1,200 TiB (12 VMs x 100 TiB, no headroom), 3-year: 1 PiB units 34% off,
    // 100 TiB units 30% off.
    //   1 PiB + 2 x 100 TiB (24 TiB reserved, unused):
    //     1,024 x 301.25056 x 0.66 + 200 x 301.25056 x 0.70
    //     = 203,597.1784704 + 42,175.0784 = 245,772.2568704 -> 245,772.26;
    //   1 PiB + 1 x 100 TiB + 76 TiB pay as you go: 203,597.18 + 21,087.54 + 22,895.04
    //     = 247,579.76 (dearer by 1,807.50);
    //   12 x 100 TiB: 1,200 x 210.875392 = 253,050.47; 1 PiB + 176 TiB pay as you go:
    //     256,617.28; 2 PiB: 411,564.42; all pay as you go: 361,500.67.
    // 1,200 TiB in regular volumes (100 TiB at most) needs 12 datastores: allow 16.
    let options = OptimizeOptions::default()
        .region("eastus")
        .reservation(ReservationTerm::ThreeYear)
        .service_levels(vec![ServiceLevel::Premium])
        .max_datastores(16);
    let p = plan_with(&estate(12, 100.0 * 1024.0), 0.0, 0.0, &options).unwrap();
    let pool = &p.pools[0];
    assert_eq!(pool.size_tib, 1200);
    assert_eq!(pool.reserved_tib, 1224);
    let units: Vec<(u32, u32, f64)> = pool
        .reservation_units
        .iter()
        .map(|u| (u.unit_tib, u.count, u.discount_pct))
        .collect();
    assert_eq!(units, [(1024, 1, 34.0), (100, 2, 30.0)]);
    assert!(
        (p.totals.cost_usd_per_month - 245_772.26).abs() < 0.005,
        "{}",
        p.totals.cost_usd_per_month
    );
    // (1,024 x 34 + 200 x 30) / 1,224 = 33.346...% over the reserved TiB.
    assert!((pool.reservation_discount_pct - 40_816.0 / 1224.0).abs() < 1e-9);
}

#[test]
fn capacity_beyond_the_regular_volumes_takes_a_large_volume() {
    // 250 TiB in eastus with at most 2 datastores: 2 regular volumes hold 200 TiB < 250, so
    // one large volume (50..1,024 TiB) carries it: flexible 250 x 112.87552 = 28,218.88.
    // Large volumes only with `allow_large_volumes` (not documented as AVS datastores).
    let options = OptimizeOptions::default()
        .max_datastores(2)
        .allow_large_volumes(true);
    let p = plan_with(&estate(250, 1024.0), 0.0, 0.0, &options).unwrap();
    assert_eq!(p.totals.datastores, 1);
    assert!(p.datastores[0].large_volume);
    assert!((p.totals.cost_usd_per_month - 28_218.88).abs() < 0.005);
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::LargeVolume)
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("large volumes"))
    );
    // Without `allow_large_volumes` (the default) 2 regular volumes hold at most 200 TiB
    // = 204,800 GiB < 250 TiB: infeasible, and the message says large volumes would do.
    let e = plan_with(
        &estate(250, 1024.0),
        0.0,
        0.0,
        &options.allow_large_volumes(false),
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        matches!(e, OptimizeError::Infeasible { reachable, .. } if reachable == 204_800.0),
        "{msg}"
    );
    assert!(
        msg.contains("regular volumes only") && msg.contains("`allow_large_volumes`"),
        "{msg}"
    );
    // With 8 datastores, 3 regular volumes of 83.3 TiB do it at the same price.
    let p = plan(&estate(250, 1024.0), "eastus", 3, 0.0, 0.0).unwrap();
    assert_eq!(p.totals.datastores, 3);
    assert!(!p.datastores[0].large_volume);
    assert!((p.totals.cost_usd_per_month - 28_218.88).abs() < 0.005);
}

#[test]
fn iops_needing_four_datastores_only_for_flows() {
    // 1 TiB of data in 32 VMs, 550,000 8 KiB IOPS, 3 hosts (host layer 3 x 76,000 x usl(d)):
    //   d = 3: usl 2.28600 -> 521,208 < 550,000; d = 4: usl = 4 / (1 + 0.29025 + 0.237684)
    //   = 2.61791 -> 596,884 >= 550,000.
    // QoS 550,000 x 8 / 1024 = 4,296.875 MiB/s: flexible needs ceil(4,296.875 / 640) = 7 TiB
    //   = 790.12864 -> 790.13, + (4,296.875 - 128 -> 4,169) x 2.24986 = 9,379.66634 -> 9,379.67
    //   = 10,169.80; ultra ceil(4,296.875 / 128) = 34 TiB x 402.16576 = 13,673.64.
    let p = plan(&estate(32, 32.0), "eastus", 3, 550_000.0, 0.0).unwrap();
    assert_eq!(p.totals.datastores, 4);
    assert_eq!(p.pools[0].service_level, ServiceLevel::Flexible);
    assert_eq!(p.pools[0].size_tib, 7);
    assert_eq!(p.pools[0].purchased_throughput_mibps, 4169.0);
    assert!((p.totals.cost_usd_per_month - 10_169.80).abs() < 0.005);
    let hand = 3.0 * 76_000.0 * usl(4.0);
    assert!((hand - 596_884.0).abs() < 1.0, "{hand}");
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::IopsFlows)
    );
    // 1 and 2 datastores cannot carry it; 8 can at the same price.
    assert!(!alternative(&p, "datastores", None, 1).feasible);
    assert!(!alternative(&p, "datastores", None, 2).feasible);
    let eight = alternative(&p, "datastores", None, 8);
    assert!(eight.feasible && eight.extra_cost_usd_per_month.abs() < 0.005);
    let ultra = alternative(&p, "service_level", Some(ServiceLevel::Ultra), 0);
    assert!((ultra.cost_usd_per_month - 13_673.64).abs() < 0.005);
}

#[test]
fn throughput_beyond_one_regular_volume_takes_a_large_volume() {
    // 1 TiB in 32 VMs, 5,000 MiB/s, 3 hosts, at most 1 datastore: a regular volume stops at 4,500
    // MiB/s, so one large volume (>= 50 TiB, up to 12,800 MiB/s; the 3 hosts' flows carry
    // about 6,444 MiB/s). eastus:
    //   flexible 50 TiB: 50 x 112.87552 = 5,643.776 -> 5,643.78
    //     + (5,000 - 128 = 4,872) x 2.24986 = 10,961.31792 -> 10,961.32 = 16,605.10
    //   ultra 50 TiB (6,400 MiB/s) = 20,108.29; premium 79 TiB = 23,798.79 -> flexible.
    // Large volumes only with `allow_large_volumes` (not documented as AVS datastores).
    let options = OptimizeOptions::default()
        .max_datastores(1)
        .allow_large_volumes(true);
    let p = plan_with(&estate(32, 32.0), 0.0, 5000.0, &options).unwrap();
    assert_eq!(p.totals.datastores, 1);
    assert!(p.datastores[0].large_volume);
    assert_eq!(p.pools[0].service_level, ServiceLevel::Flexible);
    assert_eq!(p.pools[0].size_tib, 50);
    assert_eq!(p.pools[0].purchased_throughput_mibps, 4872.0);
    assert!((p.totals.cost_usd_per_month - 16_605.10).abs() < 0.005);
    assert!(p.performance.large_block.throughput_mibps >= 5000.0);
}

#[test]
fn time_phased_plan_raises_the_level_for_the_peak_months_only() {
    // westeurope, 10 TiB, 200 MiB/s most of the year, 1,280 MiB/s for 3 months. Volumes
    // cannot move into or out of a Flexible pool, so the two phases stay on one side:
    // flexible side: base flexible 10 x 161.46432 = 1,614.6432 -> 1,614.64 + (200 - 128)
    //   x 3.21711 = 231.63192 -> 231.63 = 1,846.27; peak flexible 1,614.64 + (1,280 - 128)
    //   x 3.21711 = 3,706.11 = 5,320.75; yearly 9 x 1,846.27 + 3 x 5,320.75 = 32,578.68.
    // other side: base standard 200 / 16 = 12.5 -> 13 TiB x 150.99904 = 1,962.99 (premium
    //   and ultra need the 10 TiB of data: 3,012.51 / 4,021.66); peak ultra 10 TiB (1,280
    //   MiB/s) = 4,021.66 (premium 20 TiB 6,025.01, standard 80 TiB 12,079.92);
    //   yearly 9 x 1,962.99 + 3 x 4,021.66 = 17,666.91 + 12,064.98 = 29,731.89 -> cheaper.
    // (The old answer, flexible base and ultra peak at 28,681.41, crossed the divide.)
    // peak layout all year = 12 x 4,021.66 = 48,259.92; saving 18,528.03.
    let options = OptimizeOptions::default()
        .region("westeurope")
        .peak(PeakOptions::new(3).throughput_mibps(1280.0));
    let p = plan_with(&estate(10, 1024.0), 0.0, 200.0, &options).unwrap();
    let tp = p.time_phased.as_ref().unwrap();
    assert_eq!(tp.base.service_level, ServiceLevel::Standard);
    assert_eq!(tp.base.pool_size_tib, 13);
    assert_eq!(tp.base.months, 9);
    assert!((tp.base.cost_usd_per_month - 1_962.99).abs() < 0.005);
    assert_eq!(tp.peak.service_level, ServiceLevel::Ultra);
    assert_eq!(tp.peak.pool_size_tib, 10);
    assert_eq!(tp.peak.months, 3);
    assert!((tp.peak.cost_usd_per_month - 4_021.66).abs() < 0.005);
    assert!(tp.peak.predicted_throughput_mibps >= 1280.0);
    assert_eq!(tp.base.datastores, tp.peak.datastores);
    assert!((tp.yearly_cost_usd - 29_731.89).abs() < 0.005);
    assert!((tp.peak_all_year_yearly_cost_usd - 48_259.92).abs() < 0.005);
    assert!((tp.yearly_savings_usd - 18_528.03).abs() < 0.005);
    // The plan's own layout is the base months'.
    assert_eq!(p.pools[0].service_level, ServiceLevel::Standard);
    assert!((p.totals.cost_usd_per_month - 1_962.99).abs() < 0.005);
}

#[test]
fn per_cluster_plans_each_cluster_with_its_own_hosts_and_adds_a_total() {
    // c1: 10 VMs x 1,024 GiB on hosts h0..h3 (4 hosts in vInfo); c2: 2 VMs x 1,024 GiB on one
    // host -> raised to the AVS minimum of 3. No headroom, eastus, no targets:
    //   c1 flexible 10 x 112.87552 = 1,128.7552 -> 1,128.76
    //   c2 flexible  2 x 112.87552 =   225.75104 ->  225.75
    //   total 1,354.51.
    let mut inv = estate(12, 1024.0);
    for (i, vm) in inv.vms.iter_mut().enumerate() {
        if i < 10 {
            vm.cluster = Some("c1".into());
            vm.host = Some(format!("h{}", i % 4).into());
        } else {
            vm.cluster = Some("c2".into());
            vm.host = Some("x1".into());
        }
    }
    let opts = DemandOptions::default()
        .headroom_pct(0.0)
        .iops(12_000.0)
        // the published test shape the figures assume
        .io_profile(IoProfile::small_block());
    let split = demand::split_by_cluster(&inv, &opts, None).unwrap();
    let plans = optimize::optimize_per_cluster(
        &split,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(plans.clusters.len(), 2);
    let (c1, c2) = (&plans.clusters[0], &plans.clusters[1]);
    assert_eq!((c1.cluster.as_str(), c1.hosts), ("c1", 4));
    assert_eq!((c2.cluster.as_str(), c2.hosts), ("c2", 3));
    assert!((c1.plan.totals.cost_usd_per_month - 1_128.76).abs() < 0.005);
    assert!((c2.plan.totals.cost_usd_per_month - 225.75).abs() < 0.005);
    assert!((plans.total.cost_usd_per_month - 1_354.51).abs() < 0.005);
    assert_eq!(plans.total.hosts, 7);
    // Targets split by capacity: 12,000 x 10/12 = 10,000 and x 2/12 = 2,000 IOPS.
    assert!((c1.plan.performance.iops_target - 10_000.0).abs() < 1e-6);
    assert!((c2.plan.performance.iops_target - 2_000.0).abs() < 1e-6);
    // Nothing lost: each cluster's plan places its own VMs only.
    assert!((c1.plan.totals.placed_capacity_gib - 10_240.0).abs() < 1e-6);
    assert!((c2.plan.totals.placed_capacity_gib - 2_048.0).abs() < 1e-6);
}

#[test]
fn unreachable_peak_target_is_infeasible_and_says_peak() {
    let options = OptimizeOptions::default().peak(PeakOptions::new(2).iops(50_000_000.0));
    let e = plan_with(&estate(1, 100.0), 0.0, 0.0, &options).unwrap_err();
    match &e {
        OptimizeError::Infeasible { target, detail, .. } => {
            assert_eq!(*target, Target::Iops);
            assert!(detail.contains("peak"), "{detail}");
        }
        other => panic!("expected infeasible, got {other}"),
    }
}

#[test]
fn up_to_256_datastores_on_16_hosts() {
    // 16 hosts, 1,500,000 8 KiB IOPS: beyond the 8-datastore default. The host layer would
    // allow 16 x 76,000 x usl(7) = 16 x 76,000 x 2.90168 = about 3.53 million, but the volume
    // layer gives 187,080 per datastore (see iops_needs_more_datastores_for_flows):
    // 8 x 187,080 = 1,496,640 < 1,500,000, so at least 9 datastores are needed. 64 VMs
    // put 4 on every host.
    let default = plan(&estate(64, 128.0), "eastus", 16, 1_500_000.0, 0.0);
    assert!(matches!(default, Err(OptimizeError::Infeasible { .. })));
    let options = OptimizeOptions::default().hosts(16).max_datastores(256);
    let p = plan_with(&estate(64, 128.0), 1_500_000.0, 0.0, &options).unwrap();
    assert!(p.totals.datastores >= 9, "{}", p.totals.datastores);
    assert!(p.performance.small_block.iops >= 1_500_000.0);
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::IopsFlows)
    );
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
    let opts = DemandOptions::default()
        // headroom 20%
        // the published test shape the figures assume
        .io_profile(IoProfile::small_block());
    let demand = demand::derive(&inv, &opts).unwrap();
    let p = optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default()
            .hosts(3)
            .region("eastus")
            .max_datastores(8),
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

#[test]
fn a_vm_beyond_one_datastore_spreads_its_vmdks() {
    // Per-VM needs (as from --perf), 8 KiB 70% read 100% random. What one VM reaches with
    // one VMDK on each of d datastores, on one host, is the model's prediction for hosts 1,
    // vms_per_host 1, vmdks_per_vm d (one VM on one datastore: about 73,000 IOPS; over 8:
    // about 147,000, the published figures). vm000 needs 100,000: its VMDKs spread over the
    // first d that carries it, and the plan has at least that many datastores. vm001 needs
    // 10 million, beyond any count: its VMDKs go over all 8 datastores allowed (the most
    // one VM reaches), and the plan warns (split the workload) and does not fail.
    let model = PerfModel::builtin().unwrap();
    let small = dsplan::perf::IoProfile::small_block();
    let reach = |d: u32| {
        let mut l = dsplan::perf::Layout::new(1, d, 4500.0);
        l.vms_per_host = Some(1);
        l.vmdks_per_vm = Some(d);
        model.predict(&l, &small).unwrap().iops
    };
    let need = 100_000.0;
    let k = (1..=8).find(|&d| reach(d) >= need).unwrap();
    assert!(k > 1, "one datastore carries {}", reach(1));
    let inv = estate(3, 100.0);
    let mut demand = demand::derive(
        &inv,
        &DemandOptions::default()
            .headroom_pct(0.0)
            // the published test shape the figures assume
            .io_profile(IoProfile::small_block()),
    )
    .unwrap();
    demand.placed[0].iops = Some(need);
    let run = |demand: &dsplan::demand::Demand| {
        optimize::optimize(
            demand,
            &Catalog::builtin().unwrap(),
            &model,
            &OptimizeOptions::default(),
        )
        .unwrap()
    };
    assert_eq!(run(&demand).totals.datastores, k);
    demand.placed[1].iops = Some(10_000_000.0);
    let p = run(&demand);
    // vm001 over all 8 (OptimizeOptions' default max_datastores), one placement each.
    assert_eq!(p.totals.datastores, 8);
    let vm001: std::collections::BTreeSet<&str> = (p.placements.iter())
        .filter(|pl| pl.vm == "vm001")
        .map(|pl| pl.datastore.as_str())
        .collect();
    assert_eq!(vm001.len(), 8, "{vm001:?}");
    assert!(
        p.binding
            .iter()
            .any(|b| b.constraint == Constraint::VmSpread)
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("vm000") && w.message.contains("spread its VMDKs"))
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("vm001") && w.message.contains("split its workload"))
    );
    // Capacity only (300 GiB): without the per-VM figures one datastore would do.
    let plain = plan(&inv, "eastus", 3, 0.0, 0.0).unwrap();
    assert_eq!(plain.totals.datastores, 1);
    assert_eq!(p.totals.cost_usd_per_month, plain.totals.cost_usd_per_month);
}

#[test]
fn few_vms_cannot_drive_many_flows() {
    // 3 VMs on 3 hosts: 1 VM per host. However many datastores, each VM tops out at the
    // per-VM ceiling fitted to the published 1-VM-over-8-datastores figure (147,000 8 KiB
    // IOPS, data/systems/anf-avs.csv), so 3 VMs reach at most 441,000 < 600,000 IOPS,
    // even with 16 datastores (48 flows) allowed.
    let inv = estate(3, 100.0);
    let demand = demand::derive(
        &inv,
        &DemandOptions::default()
            .iops(600_000.0)
            // the published test shape the figures assume
            .io_profile(IoProfile::small_block()),
    )
    .unwrap();
    let e = optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default()
            .hosts(3)
            .region("eastus")
            .max_datastores(16),
    )
    .unwrap_err();
    match &e {
        OptimizeError::Infeasible {
            target, reachable, ..
        } => {
            assert_eq!(*target, Target::Iops);
            assert!(*reachable <= 441_000.0 + 1e-6, "{reachable}");
        }
        other => panic!("expected infeasible, got {other}"),
    }
    assert!(e.to_string().contains("limited by the vm layer"), "{e}");
}

#[test]
fn two_clusters_buy_one_reservation_set_for_the_estate() {
    // c1 and c2: 6 VMs x 100 TiB each, Premium only, eastus, 3-year, no headroom.
    // Premium 301.25056 per TiB-month (0.000403 x 730 x 1,024).
    // Each cluster's plan is pay as you go: 600 x 301.25056 = 180,750.336 -> 180,750.34.
    // The estate's Premium hot tier is 1,200 TiB, bought once: 1 PiB at 34% + 2 x 100 TiB
    // at 30% = 203,597.1784704 + 42,175.0784 = 245,772.2568704 -> 245,772.26;
    // pay as you go 2 x 180,750.34 = 361,500.68; saves 115,728.42;
    // total 361,500.68 - 115,728.42 = 245,772.26.
    // (Bought per cluster, 6 x 100 TiB each: 2 x 600 x 210.875392 = 253,050.47.)
    let mut inv = estate(12, 100.0 * 1024.0);
    for (i, vm) in inv.vms.iter_mut().enumerate() {
        let c = if i < 6 { "c1" } else { "c2" };
        vm.cluster = Some(c.into());
        vm.host = Some(format!("{c}-h{}", i % 3).into());
    }
    let opts = DemandOptions::default()
        .headroom_pct(0.0)
        .io_profile(IoProfile::small_block());
    let split = demand::split_by_cluster(&inv, &opts, None).unwrap();
    let plans = optimize::optimize_per_cluster(
        &split,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default()
            .region("eastus")
            .reservation(ReservationTerm::ThreeYear)
            .service_levels(vec![ServiceLevel::Premium]),
        None,
    )
    .unwrap();
    assert_eq!(plans.clusters.len(), 2);
    for c in &plans.clusters {
        assert_eq!(c.plan.pools[0].size_tib, 600);
        assert_eq!(
            c.plan.pools[0].reserved_tib, 0,
            "clusters are pay as you go"
        );
        assert!((c.plan.totals.cost_usd_per_month - 180_750.34).abs() < 0.005);
    }
    assert_eq!(plans.reservations.len(), 1, "{:?}", plans.reservations);
    let r = &plans.reservations[0];
    assert_eq!(
        (r.region.as_str(), r.service_level),
        ("eastus", ServiceLevel::Premium)
    );
    assert!((r.hot_tib - 1200.0).abs() < 1e-9);
    let units: Vec<(u32, u32)> = r.units.iter().map(|u| (u.unit_tib, u.count)).collect();
    assert_eq!(units, [(1024, 1), (100, 2)]);
    assert_eq!(r.reserved_tib, 1224);
    assert!((r.pay_as_you_go_usd_per_month - 361_500.68).abs() < 0.005);
    assert!((r.cost_usd_per_month - 245_772.26).abs() < 0.005);
    assert!((r.savings_usd_per_month - 115_728.42).abs() < 0.005);
    assert!((plans.total.cost_usd_per_month - 245_772.26).abs() < 0.005);
    assert!((plans.total.reservation_savings_usd_per_month - 115_728.42).abs() < 0.005);
    let note = &plans.clusters[0]
        .plan
        .assumptions
        .iter()
        .find(|a| a.name == "reservation")
        .unwrap()
        .note;
    assert!(note.contains("once for the estate"), "{note}");
}

#[test]
fn a_level_dearer_pay_as_you_go_wins_when_the_estate_reserves_it() {
    // Two clusters of 16 VMs x 64 GiB (1 TiB each), 16 hosts, eastus, 3-year reservation,
    // Ultra or Flexible. The estate's 25,600 MiB/s split by capacity: 12,800 each.
    //   Ultra needs 12,800 / 128 = 100 TiB: 100 x 402.16576 (0.000538 x 730 x 1,024)
    //     = 40,216.58 pay as you go; reserved alone 100 x 402.16576 x 0.70 = 28,151.60.
    //   Flexible needs 12,800 / 640 = 20 TiB: 20 x 112.87552 + (12,800 - 128) x 2.24986
    //     = 2,257.51 + 28,510.23 = 30,767.74 (no reservation for Flexible).
    // Pay as you go each cluster picks Flexible: 2 x 30,767.74 = 61,535.48. At Ultra, the
    // estate buys 200 TiB once (2 x 100 TiB at 30%): 200 x 402.16576 x 0.70 = 56,303.21.
    let mut inv = estate(32, 64.0);
    for (i, vm) in inv.vms.iter_mut().enumerate() {
        let c = if i < 16 { "c1" } else { "c2" };
        vm.cluster = Some(c.into());
        vm.host = Some(format!("{c}-h{}", i % 16).into());
    }
    let opts = DemandOptions::default()
        .headroom_pct(0.0)
        .throughput_mibps(25_600.0)
        .io_profile(IoProfile::small_block());
    let split = demand::split_by_cluster(&inv, &opts, None).unwrap();
    let plans = optimize::optimize_per_cluster(
        &split,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default()
            .region("eastus")
            .reservation(ReservationTerm::ThreeYear)
            .service_levels(vec![ServiceLevel::Ultra, ServiceLevel::Flexible]),
        Some(16),
    )
    .unwrap();
    for c in &plans.clusters {
        let pool = &c.plan.pools[0];
        assert_eq!(
            (pool.service_level, pool.size_tib),
            (ServiceLevel::Ultra, 100)
        );
        assert!((c.plan.totals.cost_usd_per_month - 40_216.58).abs() < 0.005);
        assert!(
            c.plan
                .warnings
                .iter()
                .any(|w| w.message.contains("not the flexible")),
            "{:?}",
            c.plan.warnings
        );
    }
    let units: Vec<(u32, u32)> = plans.reservations[0]
        .units
        .iter()
        .map(|u| (u.unit_tib, u.count))
        .collect();
    assert_eq!(units, [(100, 2)]);
    assert!(
        (plans.total.cost_usd_per_month - 56_303.21).abs() < 0.005,
        "{}",
        plans.total.cost_usd_per_month
    );
}

#[test]
fn a_datastore_count_too_small_for_the_capacity_says_so() {
    // 250 VMs of 1,024 GiB = 256,000 GiB required (this file's plans have no headroom);
    // regular volumes hold at most 100 TiB = 102,400 GiB each: 1 or 2 datastores hold
    // 102,400 or 204,800 GiB, less than required (3 do: 307,200 GiB).
    let p = plan(&estate(250, 1024.0), "eastus", 3, 0.0, 0.0).unwrap();
    let row = |d: u32| {
        p.alternatives
            .iter()
            .find(|a| a.basis == "datastores" && a.datastores == d)
            .unwrap()
    };
    for d in [1, 2] {
        let a = row(d);
        assert!(!a.feasible);
        assert!(
            a.note
                .contains(&format!("{d} volume(s) of at most 100 TiB hold less than"))
                && a.note.contains("256,000.0 GiB required"),
            "{}",
            a.note
        );
    }
    assert!(row(4).feasible);
}

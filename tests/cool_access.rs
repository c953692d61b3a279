//! Cool access, hand-worked: the Premium rate under the current per-volume rule decides the
//! pool a MiB/s target needs, and the one-time transfer of the cold data is a first-month
//! line outside the monthly cost.

use dsplan::catalog::{Catalog, ServiceLevel};
use dsplan::demand::{self, DemandOptions};
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::optimize::{self, OptimizeOptions};
use dsplan::perf::PerfModel;
use dsplan::plan::Plan;

/// 48 powered-on VMs sharing `gib` GiB equally.
fn estate(gib: f64) -> Inventory {
    let vms = 48;
    Inventory {
        vms: (0..vms)
            .map(|i| Vm {
                power_state: PowerState::PoweredOn,
                template: Some(false),
                provisioned_mib: Some(gib * 1024.0 / f64::from(vms)),
                in_use_mib: Some(gib * 1024.0 / f64::from(vms)),
                ..Vm::new(
                    format!("vm{i:02}"),
                    Origin {
                        file: "c".into(),
                        sheet: "vInfo".into(),
                        row: i as usize + 2,
                    },
                )
            })
            .collect(),
        ..Inventory::default()
    }
}

/// 19 TiB of data, no growth, snapshot reserve or headroom, 512 MiB/s, 80% cold, Premium
/// only, in `region`.
fn plan(region: &str) -> Plan {
    let opts = DemandOptions::default()
        .growth_pct(0.0)
        .snapshot_reserve_pct(0.0)
        .headroom_pct(0.0)
        .throughput_mibps(512.0);
    let demand = demand::derive(&estate(19.0 * 1024.0), &opts).unwrap();
    assert_eq!(demand.required_capacity_gib, 19_456.0);
    optimize::optimize(
        &demand,
        &Catalog::builtin().unwrap(),
        &PerfModel::builtin().unwrap(),
        &OptimizeOptions::default()
            .hosts(4)
            .region(region)
            .service_levels(vec![ServiceLevel::Premium])
            .cold_pct(80.0),
    )
    .unwrap()
}

#[test]
fn premium_at_80_pct_cold_buys_the_pool_the_per_volume_rate_needs() {
    let p = plan("japaneast");
    let pool = &p.pools[0];
    assert!(pool.cool_access, "{pool:?}");
    // japaneast lists the per-volume rule: min(36, 0.2 x 64 + 0.8 x 16) = 25.6 MiB/s per
    // TiB. 512 MiB/s / 25.6 = 20 TiB, above the 19 TiB capacity needs (19,456 GiB).
    assert_eq!(pool.size_tib, 20);
    assert!(
        (pool.throughput_mibps - 512.0).abs() < 1e-9,
        "{}",
        pool.throughput_mibps
    );
    // Cold: 0.8 x 19,456 = 15,564.8 GiB (15.2 TiB); hot tier 20 - 15.2 = 4.8 TiB.
    // data/prices.csv japaneast: premium 0.000483 USD/GiB-h, cool 0.000089 USD/GiB-h,
    // transfer 0.0218 USD/GiB; x 730 h.
    // hot   4.8 x 1024 x 0.000483 x 730 = 1,733.050368 -> 1,733.05
    // cool  15,564.8 x 0.000089 x 730  = 1,011.245056 -> 1,011.25
    // re-read 10% a month: 1,556.48 x 0.0218 = 33.931264 -> 33.93
    // total 1,733.05 + 1,011.25 + 33.93 = 2,778.23
    assert_eq!(pool.cool_data_gib, 15_564.8);
    assert_eq!(pool.hot_capacity_cost_usd_per_month, 1_733.05);
    assert_eq!(pool.cool_capacity_cost_usd_per_month, 1_011.25);
    assert_eq!(pool.cool_transfer_cost_usd_per_month, 33.93);
    assert_eq!(p.totals.cost_usd_per_month, 2_778.23);
    // The binding limit says the cool-access rate sets the pool.
    assert!(
        p.binding
            .iter()
            .any(|b| b.detail.contains("25.6 MiB/s per TiB") && b.detail.contains("20 TiB")),
        "{:?}",
        p.binding
    );
    let a = p
        .assumptions
        .iter()
        .find(|a| a.name == "cool_access_throughput")
        .unwrap();
    assert_eq!(a.value, "premium 25.6 MiB/s per TiB");
    assert!(a.note.contains("lower of"), "{}", a.note);
}

#[test]
fn outside_the_listed_regions_the_legacy_rate_applies() {
    let p = plan("eastus");
    let pool = &p.pools[0];
    assert!(pool.cool_access);
    // eastus is not listed: 36 MiB/s per TiB; 512 / 36 = 14.2 -> 15 TiB, below the 19 TiB
    // capacity needs, so capacity sets the pool: 19 x 36 = 684 MiB/s.
    assert_eq!(pool.size_tib, 19);
    assert_eq!(pool.throughput_mibps, 684.0);
    let a = p
        .assumptions
        .iter()
        .find(|a| a.name == "cool_access_throughput")
        .unwrap();
    assert_eq!(a.value, "premium 36 MiB/s per TiB");
}

#[test]
fn the_initial_cold_transfer_is_a_first_month_line_outside_the_monthly_cost() {
    let p = plan("japaneast");
    let pool = &p.pools[0];
    // 15,564.8 GiB x 0.0218 USD/GiB (japaneast cool transfer) = 339.31264 -> 339.31
    assert_eq!(pool.first_month_cool_transfer_usd, 339.31);
    assert_eq!(p.totals.first_month_cool_transfer_usd, 339.31);
    // not folded into the monthly figure (2,778.23 above)
    assert_eq!(p.totals.cost_usd_per_month, 2_778.23);
    let text = dsplan::report::render_plan(&p, dsplan::report::Format::Text).unwrap();
    assert!(text.contains("339.31 USD one-time"), "{text}");
    // without cool access there is no such line
    let hot = {
        let demand = demand::derive(&estate(19.0 * 1024.0), &DemandOptions::default()).unwrap();
        optimize::optimize(
            &demand,
            &Catalog::builtin().unwrap(),
            &PerfModel::builtin().unwrap(),
            &OptimizeOptions::default(),
        )
        .unwrap()
    };
    assert_eq!(hot.totals.first_month_cool_transfer_usd, 0.0);
}

#[test]
fn the_per_cluster_total_adds_the_clusters_first_month_transfers() {
    // fixtures/small-estate.xlsx: Dev 800 GiB and Prod 1,000 GiB placed, no growth. At 80%
    // cold, 640 + 800 = 1,440 GiB move to the cool tier once, at eastus's 0.02 USD per GiB
    // (data/prices.csv, cool transfer): 12.80 + 16.00 = 28.80 USD in the first month.
    let plans = dsplan::Planner::new()
        .input(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/small-estate.xlsx"
        ))
        .options(dsplan::PlanOptions::default().cold_pct(80.0))
        .plan_per_cluster()
        .unwrap();
    let each: Vec<f64> = plans
        .clusters
        .iter()
        .map(|c| c.plan.totals.first_month_cool_transfer_usd)
        .collect();
    assert_eq!(each, [12.8, 16.0]);
    assert_eq!(plans.total.first_month_cool_transfer_usd, 28.8);
}

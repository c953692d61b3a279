//! A plan stops at the first check after its caller asks (`Planner::stop_when`): the
//! optimizer asks between host SKUs, clusters and service levels, and every place it asks
//! is honoured (no stop is taken for an infeasible design and planned past).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dsplan::catalog::ReservationTerm;
use dsplan::report::Format;
use dsplan::{Error, ErrorKind, PlanOptions, Planned, Planner};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate.xlsx")
}

/// Plans the fixture with `options`, the stop answering `true` from its `from`-th call on
/// (never with `None`); the result and how many times the stop was asked.
fn plan_stopping(options: &PlanOptions, from: Option<u64>) -> (Result<Planned, Error>, u64) {
    let calls = Arc::new(AtomicU64::new(0));
    let counted = Arc::clone(&calls);
    let result = Planner::new()
        .input(fixture())
        .options(options.clone())
        .stop_when(move || {
            let call = counted.fetch_add(1, Ordering::Relaxed) + 1;
            from.is_some_and(|from| call >= from)
        })
        .run();
    (result, calls.load(Ordering::Relaxed))
}

/// Every check of a full plan, asked to stop, stops it: for each `k` from 1 to the number
/// of checks `n` of a run that is never stopped, a stop answering `true` from its `k`-th
/// call on ends the plan with `ErrorKind::Stopped`; from call `n + 1` on (never asked) the
/// plan is the unstopped one.
fn every_check_stops(options: &PlanOptions, at_least: u64) {
    let (full, n) = plan_stopping(options, None);
    let full = full
        .expect("the unstopped plan")
        .render(Format::Json)
        .unwrap();
    println!("{n} checks in a full plan");
    assert!(n >= at_least, "{n} checks, at least {at_least} expected");
    for k in 1..=n {
        let (stopped, _) = plan_stopping(options, Some(k));
        let err = stopped.expect_err("a plan asked to stop");
        assert_eq!(err.kind(), ErrorKind::Stopped, "check {k} of {n}: {err}");
        assert_eq!(err.kind().exit_code(), 130);
    }
    let (late, _) = plan_stopping(options, Some(n + 1));
    assert_eq!(late.unwrap().render(Format::Json).unwrap(), full);
}

#[test]
fn an_estate_plan_stops_at_every_check() {
    // The estate plan asks once per host SKU sized (the catalog's SKUs) and once per
    // cluster costed on each priced SKU: the fixture's 2 clusters (Dev, Prod) on at least
    // one priced SKU, so at least 1 SKU + 2 clusters = 3 checks.
    every_check_stops(&PlanOptions::default(), 3);
}

#[test]
fn an_estate_plan_with_a_reservation_stops_at_every_check() {
    // With a reservation the designs' storage is planned again per SKU and design (one
    // more check each), after the SKU and cluster checks above.
    let options = PlanOptions::default().reservation(ReservationTerm::OneYear);
    every_check_stops(&options, 4);
}

#[test]
fn a_one_cluster_plan_stops_at_every_check() {
    // One check per service level searched: Standard, Premium, Ultra and Flexible in
    // East US.
    every_check_stops(&PlanOptions::default().hosts(3), 4);
}

#[test]
fn a_per_cluster_plan_stops_at_every_check() {
    // One check per source cluster: Dev and Prod.
    let options = PlanOptions::default().per_cluster(true);
    every_check_stops(&options, 2);
}

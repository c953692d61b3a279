//! The hybrid search against hand-worked tables and against an enumeration of every
//! design point with the real ANF oracle.

use proptest::prelude::*;

use super::super::StorageContext;
use super::super::oracle::ClusterOracle;
use super::super::sku::EstateOptions;
use super::super::vsan_perf::VsanTargets;
use super::*;
use crate::catalog::Catalog;
use crate::demand::{Demand, DemandOptions, VmDemand};
use crate::inventory::Origin;
use crate::optimize::OptimizeOptions;
use crate::perf::PerfModel;
use crate::vsan::{VsanCatalog, VsanOptions};

#[test]
fn the_table_keeps_the_fewest_vms_per_fill_and_rebuilds_them() {
    // w = [3, 5, 4, 2]: fills and their fewest VMs: 0:0, 2:1, 3:1, 4:1, 5:1, 6:2 (4+2),
    // 7:2 (3+4 or 5+2), 8:2 (3+5), 9:2 (5+4), 10:3 (3+5+2), 11:3 (5+4+2), 12:3 (3+5+4),
    // 14:4; 1 and 13 unreachable.
    let w = [3, 5, 4, 2];
    let t = Table::build(&w, 14);
    let fewest: Vec<u32> = t.fewest.clone();
    let x = u32::MAX;
    assert_eq!(fewest, [0, x, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, x, 4]);
    for (s, &m) in fewest.iter().enumerate() {
        if m == x {
            continue;
        }
        let set = t.rebuild(&w, s);
        assert_eq!(set.len() as u32, m, "fill {s}: {set:?}");
        assert_eq!(set.iter().map(|&i| w[i]).sum::<u64>(), s as u64, "fill {s}");
    }
    // Pareto within a cap of 11: 11 (3 VMs), 9 (2), 5 (1), 0 (0): 10 needs 3 like 11,
    // 6..8 need 2 like 9, 2..4 need 1 like 5.
    assert_eq!(t.pareto(11), [(11, 3), (9, 2), (5, 1), (0, 0)]);
    assert_eq!(t.pareto(100), [(14, 4), (12, 3), (9, 2), (5, 1), (0, 0)]);
}

#[test]
fn the_reach_table_finds_the_largest_fill_and_rebuilds_it() {
    // w = [3, 5, 4, 2]: every fill of 0..=14 but 1 and 13 is reached (the table above);
    // 70 and 130 put a fill across a word boundary: 70 + 3 = 73, 130 + 70 = 200.
    let w = [3, 5, 4, 2];
    let r = Reach::build(&w, 14);
    let reached: Vec<usize> = (0..=14).filter(|&s| r.reached_before(4, s)).collect();
    assert_eq!(reached, [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
    assert_eq!((r.top(4, 13), r.top(4, 100), r.top(4, 1)), (12, 14, 0));
    for s in reached {
        let set = r.rebuild(&w, s);
        assert_eq!(set.iter().map(|&i| w[i]).sum::<u64>(), s as u64, "fill {s}");
    }
    let w = [70, 3, 130];
    let r = Reach::build(&w, 250);
    assert_eq!(r.top(3, 250), 203);
    assert_eq!(r.top(3, 202), 200);
    assert_eq!(r.rebuild(&w, 200), [0, 2]);
    assert_eq!(r.rebuild(&w, 73), [0, 1]);
}

#[test]
fn units_round_up_and_stay_within_the_cell_bound() {
    // 1.2 GiB -> 2 units of 1 GiB; 0 -> 0; a cap of 10.5 GiB holds 10 units.
    let u = Units::of(&[1.2, 0.0, 3.0], 100.0);
    assert_eq!((u.g_gib, u.w.clone()), (1.0, vec![2, 0, 3]));
    assert_eq!(u.cap(10.5), 10);
    // 1,000 VMs of 100 TiB each, a cap of 1,000 TiB: at 1 GiB that is 1,001 x 1,024,001
    // cells, over 2^26: g grows until (1,001) x (fills + 1) <= 67,108,864, fills =
    // floor(1,024,000 / g): g = 16 gives 64,001 fills x 1,001 = 64.1 million cells.
    let big = vec![102_400.0; 1000];
    let u = Units::of(&big, 1_024_000.0);
    let cells = 1001 * (u.total().min(u.cap(1_024_000.0)) + 1);
    assert!(cells <= MAX_DP_CELLS, "{cells}");
    assert_eq!(u.g_gib, 16.0);
    let finer = Units::at(&big, u.g_gib - 1.0);
    assert!(1001 * (finer.total().min(finer.cap(1_024_000.0)) + 1) > MAX_DP_CELLS);
}

/// An oracle of fixed costs: `by_count[k]` for `k` VMs on ANF plus `per_gib` x their data:
/// nondecreasing in data and, as used here, nonincreasing in VMs.
struct Toy {
    data: Vec<f64>,
    per_gib: f64,
    by_count: Vec<f64>,
    calls: usize,
}

impl AnfOracle for Toy {
    fn cost(&mut self, anf: &[usize], _hosts: u32) -> Result<f64, OptimizeError> {
        self.calls += 1;
        let d: f64 = anf.iter().map(|&i| self.data[i]).sum();
        Ok(self.per_gib * d + self.by_count[anf.len()])
    }
    fn lower_bound(&mut self, anf_units: u64, _hosts: u32) -> Result<f64, OptimizeError> {
        let min = self.by_count.iter().copied().fold(f64::INFINITY, f64::min);
        Ok(self.per_gib * anf_units as f64 + min)
    }
    fn monotone(&self) -> bool {
        true
    }
    fn counts_matter(&self) -> bool {
        true
    }
}

#[test]
fn a_hand_worked_cluster_keeps_the_big_vm_on_vsan() {
    // VMs of 10, 4 and 3 GiB; 3 hosts hold 12 GiB, 4 hosts 17 GiB; a host costs 100 a
    // month; ANF costs 2 per GiB + 30 (1 VM), 25 (2 VMs), 20 (3 VMs).
    //   3 hosts (300): keep {10} -> ANF 7 GiB, 2 VMs = 14 + 25 = 39 -> 339; keep {4, 3}
    //   -> ANF 10 GiB, 1 VM = 20 + 30 = 50 -> 350; keep none -> 34 + 20 = 54 -> 354.
    //   4 hosts (400): every VM fits -> 400.
    // The cheapest: 3 hosts, {10} on vSAN, 339.
    let data = vec![10.0, 4.0, 3.0];
    let units = Units::of(&data, 17.0);
    let cluster = Cluster {
        units: &units,
        first_hosts: 3,
        usable_gib: &[12.0, 17.0],
        usd_per_host_month: 100.0,
        fits: None,
    };
    let mut toy = Toy {
        data: data.clone(),
        per_gib: 2.0,
        by_count: vec![0.0, 30.0, 25.0, 20.0],
        calls: 0,
    };
    let p = cheapest(&cluster, &mut toy).unwrap().unwrap();
    assert_eq!((p.hosts, p.on_vsan.clone()), (3, vec![0]));
    assert_eq!(p.total(100.0), 339.0);
    assert_eq!(enumerate(&cluster, &mut toy).unwrap(), Some(339.0));
    // A host at 30 a month: 4 hosts with everything on vSAN (120) beat 90 + 39 = 129.
    let cheap_hosts = Cluster {
        usd_per_host_month: 30.0,
        ..cluster
    };
    let p = cheapest(&cheap_hosts, &mut toy).unwrap().unwrap();
    assert_eq!((p.hosts, p.on_vsan.len(), p.total(30.0)), (4, 3, 120.0));
}

#[test]
fn fewer_vms_on_vsan_can_beat_more_data_on_vsan() {
    // VMs of 6, 5 and 1 GiB, 3 hosts holding 11 GiB at 100 a month each; ANF 2 per GiB and
    // 50 more when it has a single VM (its layout too small for its share of the target).
    //   keep {6, 5} (fill 11, 2 VMs): ANF {1} = 2 + 50 = 52 -> 352;
    //   keep {6} (fill 6, 1 VM, Pareto: 7..10 need 2 VMs): ANF {5, 1} = 12 -> 312;
    //   keep {6, 1} (fill 7): ANF {5} = 10 + 50 = 60 -> 360; keep none: 24 -> 324.
    let data = vec![6.0, 5.0, 1.0];
    let units = Units::of(&data, 11.0);
    let cluster = Cluster {
        units: &units,
        first_hosts: 3,
        usable_gib: &[11.0],
        usd_per_host_month: 100.0,
        fits: None,
    };
    let mut toy = Toy {
        data,
        per_gib: 2.0,
        by_count: vec![0.0, 50.0, 0.0, 0.0],
        calls: 0,
    };
    let p = cheapest(&cluster, &mut toy).unwrap().unwrap();
    assert_eq!((p.on_vsan.clone(), p.total(100.0)), (vec![0], 312.0));
    assert_eq!(enumerate(&cluster, &mut toy).unwrap(), Some(312.0));
}

/// A demand of VMs of `gib` GiB each (in use, no growth), `iops` and `mibps` the estate's
/// targets.
fn demand(gib: &[f64], (iops, mibps): (f64, f64)) -> Demand {
    let placed = gib
        .iter()
        .enumerate()
        .map(|(i, &g)| VmDemand {
            name: format!("vm{i}"),
            cluster: Some("c".into()),
            capacity_gib: g,
            origin: Origin {
                file: "t".into(),
                sheet: "vInfo".into(),
                row: i + 2,
            },
            iops: None,
            throughput_mibps: None,
            vcpus: Some(2),
            memory_mib: Some(4096.0),
            memory_consumed_mib: None,
        })
        .collect();
    let raw = Demand {
        options: DemandOptions {
            iops,
            throughput_mibps: mibps,
            ..DemandOptions::default()
        },
        placed,
        excluded: Vec::new(),
        placed_capacity_gib: 0.0,
        excluded_capacity_gib: 0.0,
        required_capacity_gib: 0.0,
        warnings: Vec::new(),
    };
    raw.subset(&(0..gib.len()).collect::<Vec<_>>())
}

/// The context of a real oracle over `d`.
struct Real {
    catalog: Catalog,
    vsan_catalog: VsanCatalog,
    model: PerfModel,
    options: OptimizeOptions,
    estate: EstateOptions,
}

impl Real {
    fn new(cold_pct: f64) -> Real {
        Real {
            catalog: Catalog::builtin().unwrap(),
            vsan_catalog: VsanCatalog::builtin().unwrap(),
            model: PerfModel::builtin().unwrap(),
            options: OptimizeOptions {
                cold_pct,
                ..OptimizeOptions::default()
            },
            estate: EstateOptions::default(),
        }
    }

    fn ctx<'a>(&'a self, d: &'a Demand) -> StorageContext<'a> {
        StorageContext {
            vsan_catalog: &self.vsan_catalog,
            demand: d,
            catalog: &self.catalog,
            prices: self.catalog.region("eastus").unwrap(),
            model: &self.model,
            options: &self.options,
            estate: &self.estate,
            targets: self.targets(d),
        }
    }

    /// The vSAN side's targets of `d` (no growth or snapshot reserve, 1 HA host).
    fn targets<'a>(&'a self, d: &Demand) -> VsanTargets<'a> {
        VsanTargets::of(d, &self.model, ((0.0, 0.0), false), (1, 1.0))
    }

    /// The search's point and the enumeration's cheapest cost for VMs of `gib` with the
    /// estate's `targets`, host counts from `first` holding `usable` GiB, a host at
    /// `usd_per_hour`.
    fn run(
        &self,
        gib: &[f64],
        targets: (f64, f64),
        (first, usable): (u32, &[f64]),
        usd_per_hour: f64,
    ) -> Result<(Option<Point>, Option<f64>), OptimizeError> {
        let d = demand(gib, targets);
        let units = Units::of(gib, usable.iter().copied().fold(0.0, f64::max));
        let vms: Vec<usize> = (0..gib.len()).collect();
        let cluster = Cluster {
            units: &units,
            first_hosts: first,
            usable_gib: usable,
            usd_per_host_month: usd_per_hour * 730.0,
            fits: None,
        };
        let mut a = ClusterOracle::new(self.ctx(&d), ("c", &vms, "anf-avs"), Some(&units), 1.0);
        let mut b = ClusterOracle::new(self.ctx(&d), ("c", &vms, "anf-avs"), Some(&units), 1.0);
        Ok((cheapest(&cluster, &mut a)?, enumerate(&cluster, &mut b)?))
    }

    /// The ANF cost of VMs of `gib` (a cluster of them, `targets` the estate's) at 3
    /// hosts; `None` when infeasible.
    fn anf(&self, gib: &[f64], on_anf: &[usize], targets: (f64, f64)) -> Option<f64> {
        let d = demand(gib, targets);
        let vms: Vec<usize> = (0..gib.len()).collect();
        let mut o = ClusterOracle::new(self.ctx(&d), ("c", &vms, "anf-avs"), None, 1.0);
        feasible(o.cost(on_anf, 3)).unwrap()
    }
}

#[test]
fn with_a_target_the_search_can_keep_less_data_on_vsan_to_put_more_vms_on_anf() {
    // VMs of 10, 6 and 5 TiB; 3 hosts whose vSAN holds 11 TiB (at 9.20 USD/h). Keeping the
    // most data on vSAN ({6, 5}) leaves one VM of 10 TiB on ANF with 10/21 of the IOPS
    // target; keeping {10} leaves two VMs of 11 TiB with 11/21 of it: more data, but the
    // layout of two VMs carries more than one. The target is the lowest multiple of 10,000
    // IOPS where one 10 TiB VM cannot carry its share and two can (found with the oracle
    // itself); there the cheapest point keeps {10} on vSAN, as the enumeration of every
    // point says.
    let real = Real::new(0.0);
    let gib = [10_240.0, 6_144.0, 5_120.0];
    let target = (1..=200)
        .map(|k| f64::from(k) * 10_000.0)
        .find(|&t| {
            real.anf(&gib, &[0], (t, 0.0)).is_none() && real.anf(&gib, &[1, 2], (t, 0.0)).is_some()
        })
        .expect("a target one VM cannot carry and two can");
    let usable = [11.0 * 1024.0];
    let (p, all) = real.run(&gib, (target, 0.0), (3, &usable), 9.2).unwrap();
    let p = p.unwrap();
    assert_eq!(
        (p.hosts, p.on_vsan.clone()),
        (3, vec![0]),
        "target {target}"
    );
    let cents = |x: f64| (x * 100.0).round() as i64;
    assert_eq!(cents(p.total(9.2 * 730.0)), cents(all.unwrap()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Clusters of up to 6 VMs (0.5..20 TiB each, whole GiB so the search's unit is
    /// exact), 3..8 compute hosts and up to 3 more, host prices 0.5..12 USD/h, AV36P with
    /// the first cluster's or another's vSAN reserve, dedup 1..1.5, targets none or up to
    /// 600,000 IOPS and 4,000 MiB/s (which the data kept on vSAN carries too, each host
    /// count keeping what its vSAN carries beside its ANF traffic): the search's cheapest
    /// point costs what the cheapest of every (hosts, split) costs, to the cent.
    #[test]
    fn the_search_finds_the_cheapest_of_every_point(
        tib in proptest::collection::vec(0.5f64..20.0, 1..=6),
        iops in prop_oneof![Just(0.0), 1_000.0f64..600_000.0],
        mibps in prop_oneof![Just(0.0), 50.0f64..4_000.0],
        first in 3u32..=8,
        hosts_tried in 1u32..=4,
        reserve_first in any::<bool>(),
        usd_per_hour in 0.5f64..12.0,
        dedup in prop_oneof![Just(1.0), 1.0f64..1.5],
    ) {
        let gib: Vec<f64> = tib.iter().map(|t| (t * 1024.0).round()).collect();
        let real = Real::new(0.0);
        let o = VsanOptions {
            dedup_ratio: dedup,
            ..VsanOptions::default()
        };
        let reserve = real.vsan_catalog.limits.reserved_raw_tib(reserve_first);
        let last = (first + hosts_tried - 1).min(16);
        // What each host count keeps on vSAN, as the designs search it: within its
        // headroom and what its vSAN carries of the targets beside its ANF traffic.
        let d = demand(&gib, (iops, mibps));
        let targets = real.targets(&d);
        let cluster_gib: f64 = gib.iter().sum();
        let usable: Vec<f64> = (first..=last)
            .map(|h| {
                let fill = real
                    .vsan_catalog
                    .capacity(&o, h, reserve)
                    .unwrap()
                    .map_or(0.0, |c| c.fill_limit_gib);
                let carried = targets
                    .most_data_gib((&real.vsan_catalog, &o), h, cluster_gib)
                    .unwrap();
                fill.min(carried)
            })
            .collect();
        let (found, all) = real
            .run(&gib, (iops, mibps), (first, &usable), usd_per_hour)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let found = found.map(|p| p.total(usd_per_hour * 730.0));
        let cents = |x: Option<f64>| x.map(|v| (v * 100.0).round() as i64);
        prop_assert_eq!(cents(found), cents(all), "{:?} {:?} {:?}", gib, iops, mibps);
    }
}

#[test]
fn without_a_target_the_fewest_vms_go_to_anf() {
    // w = [4, 1, 1, 1, 1], a cap of 4: the fullest fill is 4, made by {4} or by the four
    // 1s. The cost depends on the ANF side's data alone (4 either way), so the plan moves
    // the fewest VMs: the 4-unit VM on ANF (1 VM), the four 1s on vSAN. The layers alone
    // (taking a VM only when the fill is not reached without it, last VM first) would keep
    // {4} on vSAN and move the four 1s.
    let w = [4, 1, 1, 1, 1];
    let r = Reach::build(&w, 8);
    assert_eq!(r.top(5, 4), 4);
    assert_eq!(r.any_set(&w, 4), [0]);
    assert_eq!(r.rebuild(&w, 4), [1, 2, 3, 4]);
    // Nothing on ANF: every VM stays.
    assert_eq!(r.rebuild(&w, 8), [0, 1, 2, 3, 4]);
}

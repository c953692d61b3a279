//! The hybrid search against hand-worked tables and against an enumeration of every
//! design point with the real ANF oracle.

use proptest::prelude::*;

use super::super::StorageContext;
use super::super::oracle::ClusterOracle;
use super::super::sku::EstateOptions;
use super::super::vsan_perf::VsanTargets;
use super::fewest::{MAX_LAYERS, fewest_within};
use super::tables::Reach;
use super::*;
use crate::catalog::Catalog;
use crate::demand::Demand;
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
    let fewest: Vec<u32> = t.count.clone();
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
fn the_most_table_keeps_the_most_vms_per_fill_and_rebuilds_them() {
    // w = [3, 5, 4, 2]: the sums of its subsets: 0; 3, 5, 4, 2; 8 (3+5), 7 (3+4, 5+2), 5
    // (3+2), 9 (5+4), 6 (4+2); 12 (3+5+4), 10 (3+5+2), 9 (3+4+2), 11 (5+4+2); 14. The most
    // VMs per fill: 0:0, 2:1, 3:1, 4:1, 5:2 (3+2, where the fewest is 1: 5), 6:2, 7:2,
    // 8:2, 9:3 (3+4+2; fewest 2: 5+4), 10:3, 11:3, 12:3, 14:4; 1 and 13 unreachable.
    let w = [3, 5, 4, 2];
    let t = Table::most(&w, 14);
    let x = u32::MAX;
    assert_eq!(t.count, [0, x, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, x, 4]);
    for (s, &m) in t.count.iter().enumerate() {
        if m == x {
            continue;
        }
        let set = t.rebuild(&w, s);
        assert_eq!(set.len() as u32, m, "fill {s}: {set:?}");
        assert_eq!(set.iter().map(|&i| w[i]).sum::<u64>(), s as u64, "fill {s}");
    }
}

#[test]
fn the_largest_fill_is_the_cap_when_a_set_makes_it() {
    // w = [3, 10, 2, 8, 7, 9] (39 units), largest first: 10, 9, 8, 7, 3, 2 (positions
    // 1, 5, 3, 4, 0, 2). A cap of 30: every VM is among the 32 smallest set aside; the
    // table of all six reaches 30 (10 + 9 + 8 + 3; without the 2, VMs 10, 9, 8, 7 make
    // no 30, so the 3 is taken, then 27 = 10 + 9 + 8): positions 1, 5, 3, 0.
    let w = [3, 10, 2, 8, 7, 9];
    let mut tops = Tops::new(&w, 39, true);
    assert_eq!(tops.exact(30), Some(vec![0, 1, 3, 5]));
    assert_eq!(tops.top(30), (30, vec![0, 1, 3, 5]));
    // A cap of 39 or more: every VM.
    assert_eq!(tops.top(45), (39, vec![0, 1, 2, 3, 4, 5]));
    // Smallest first (2, 3, 7, 8, 9, 10): 2 + 3 + 7 + 8 + 9 = 29 < 30 takes the 10, then
    // 20 = 2 + 3 + 7 + 8 without the 9; 2, 3 and 7 make no 20, so the 8 is taken, then the
    // 7, the 3 and the 2 (12, 5, 2): five VMs on vSAN, only the 9 to move.
    let mut tops = Tops::new(&w, 39, false);
    assert_eq!(tops.top(30), (30, vec![0, 1, 2, 3, 4]));
    // w = [10, 10, 10], a cap of 25: no set makes 25; the reachability table gives 20
    // (10 + 10), the first two VMs.
    let w = [10, 10, 10];
    let mut tops = Tops::new(&w, 30, true);
    assert_eq!(tops.exact(25), None);
    assert_eq!(tops.top(25), (20, vec![0, 1]));
    // Ten VMs of 5 units and one of 1 (51 units), a cap of 41: every VM is among the 32
    // smallest set aside, so the table of all of them in order (5s, then the 1) makes 41:
    // 41 is no sum of 5s, so the 1 is taken; 40 is made by the first eight 5s.
    let mut w = vec![5; 10];
    w.push(1);
    let mut tops = Tops::new(&w, 51, true);
    assert_eq!(tops.top(41), (41, vec![0, 1, 2, 3, 4, 5, 6, 7, 10]));
    // 56 VMs of 10 units and 4 of 3 (572 units), a cap of 290. Set aside: the four 3s and
    // the first 28 10s (positions 0..28). Then 10s in order while they leave 2 x 10: 270
    // units, positions 28..55 taken, 55 not. The last 16 taken (39..55) are handed back:
    // 28..39 stay (110 units), 180 are left to the table of the 10s at 0..28 and 39..56
    // and the 3s, which makes it with its first 18 10s: 0..18 and 28..39.
    let mut w = vec![10; 56];
    w.extend([3; 4]);
    let mut tops = Tops::new(&w, 572, true);
    let expected: Vec<usize> = (0..18).chain(28..39).collect();
    assert_eq!(tops.top(290), (290, expected));
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
        let set = r.any_set(&w, s);
        assert_eq!(set.iter().map(|&i| w[i]).sum::<u64>(), s as u64, "fill {s}");
    }
    // 200: VMs 0 and 1 reach {0, 3, 70, 73}, not 200, so VM 2 is taken, then 70 is
    // reached by VM 0 alone: {0, 2}. 73: reached without VM 2, not without VM 1: {0, 1}.
    let w = [70, 3, 130];
    let r = Reach::build(&w, 250);
    assert_eq!(r.top(3, 250), 203);
    assert_eq!(r.top(3, 202), 200);
    assert_eq!(r.any_set(&w, 200), [0, 2]);
    assert_eq!(r.any_set(&w, 73), [0, 1]);
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
    fn saturation(&mut self, _hosts: u32) -> Result<Option<usize>, OptimizeError> {
        Ok(Some(self.by_count.len()))
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

/// An oracle whose cost depends on the data and on the VM count only up to `enough`:
/// `per_unit` x data + `by_count[min(k, enough)]`, infeasible where that is infinite;
/// `by_count` nonincreasing.
struct Counted {
    w: Vec<u64>,
    per_unit: f64,
    by_count: Vec<f64>,
    enough: usize,
}

impl AnfOracle for Counted {
    fn cost(&mut self, anf: &[usize], _hosts: u32) -> Result<f64, OptimizeError> {
        let d: u64 = anf.iter().map(|&i| self.w[i]).sum();
        let c = self.by_count[anf.len().min(self.enough)];
        if c.is_finite() {
            Ok(self.per_unit * d as f64 + c)
        } else {
            Err(OptimizeError::NoLayout("too few VMs".into()))
        }
    }
    fn lower_bound(&mut self, anf_units: u64, _hosts: u32) -> Result<f64, OptimizeError> {
        Ok(self.per_unit * anf_units as f64 + self.by_count[self.enough])
    }
    fn saturation(&mut self, _hosts: u32) -> Result<Option<usize>, OptimizeError> {
        Ok(Some(self.enough))
    }
    fn monotone(&self) -> bool {
        true
    }
    fn counts_matter(&self) -> bool {
        true
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Clusters of up to 9 VMs of 0..60 units, up to 4 host counts with caps growing from
    /// none to more than every VM, oracles whose cost stops depending on the VM count at
    /// 1 to 11 VMs (fewer VMs dearer or infeasible), and the most-VMs table bounded at 30,
    /// 200 or 2^26 cells (so small clusters take each way: the largest fill's set, the
    /// most-VMs table, the fewest-VMs table): the search's cheapest point costs what the
    /// cheapest of every (hosts, split) costs.
    #[test]
    fn the_search_with_a_saturating_count_finds_the_cheapest_of_every_point(
        w in proptest::collection::vec(prop_oneof![Just(0u64), 1u64..60], 1..=9),
        caps in proptest::collection::vec(0.0f64..1.2, 1..=4),
        enough in 1usize..=11,
        steps in proptest::collection::vec(prop_oneof![Just(f64::INFINITY), 0.0f64..50.0], 11),
        per_unit in 0.0f64..3.0,
        usd_per_host in 0.0f64..80.0,
        max_cells in prop_oneof![Just(30u64), Just(200u64), Just(MAX_DP_CELLS)],
    ) {
        let total: u64 = w.iter().sum();
        let mut caps = caps;
        caps.sort_by(f64::total_cmp);
        let usable: Vec<f64> = caps.iter().map(|c| (c * total as f64).floor()).collect();
        let data: Vec<f64> = w.iter().map(|&x| x as f64).collect();
        let units = Units::at(&data, 1.0);
        let cluster = Cluster {
            units: &units,
            first_hosts: 3,
            usable_gib: &usable,
            usd_per_host_month: usd_per_host,
            fits: None,
        };
        // by_count[k] for k = 0..=enough: nonincreasing, the infinite steps making the
        // fewest VMs infeasible; k = 0 is never asked (no VM on ANF costs 0).
        let mut by_count = vec![0.0; enough + 1];
        let mut c = 0.0;
        for k in (1..=enough).rev() {
            c += steps[k - 1];
            by_count[k] = c;
        }
        let mut a = Counted { w: w.clone(), per_unit, by_count, enough };
        let found = search(&cluster, &mut a, max_cells)
            .map_err(|e| TestCaseError::fail(e.to_string()))?
            .map(|p| p.total(usd_per_host));
        let all = enumerate(&cluster, &mut a).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let cents = |x: Option<f64>| x.map(|v| (v * 100.0).round() as i64);
        prop_assert_eq!(cents(found), cents(all), "{:?} {:?}", w, usable);
    }
}

#[test]
fn the_real_oracle_stops_counting_vms_at_two_a_host() {
    // anf-avs, 3 hosts (a host down for HA leaves the AVS minimum of 3: the targets are
    // checked at 3 too), nconnect 1, up to 8 datastores, 8 KiB 70 % read 80 % random and
    // 64 KiB sequential. At 1 VM a host the VM layer, 3 x 147,000 = 441,000 IOPS, binds at
    // 8 datastores: a host's 8 flows reach the USL envelope's peak, 7 flows: 7 / (1 +
    // 0.0967 x 6 + 0.0198 x 42) = 2.90 x 76,000 = 220,530 IOPS a host, 661,590 on 3 hosts
    // (under the NIC's 25 Gbit/s x 0.86 = 327,890 at 8 KiB, and 8 volumes' far more). At 2
    // a host the VM layer (882,000; at 64 KiB 6 x 2,786 MiB/s against the NICs' 3 x 2,562)
    // binds nowhere: with 18 VMs the plans stop depending on the count at 6.
    let real = Real::new(0.0);
    let mut gib = vec![2_048.0; 6];
    gib.extend([1_024.0; 12]);
    let d = demand(&gib, (600_000.0, 0.0));
    let vms: Vec<usize> = (0..gib.len()).collect();
    let mut o = ClusterOracle::new(real.ctx(&d), ("c", &vms, "anf-avs"), None, 1.0);
    assert_eq!(o.saturation(3).unwrap(), Some(6));
    // So six VMs of 2 TiB and twelve of 1 TiB (12 TiB each, a third of the data: 200,000
    // IOPS) cost the same, while one VM (147,000 IOPS at most) cannot carry 200,000.
    let six: Vec<usize> = (0..6).collect();
    let twelve: Vec<usize> = (6..18).collect();
    let (a, b) = (o.cost(&six, 3).unwrap(), o.cost(&twelve, 3).unwrap());
    assert_eq!((a * 100.0).round(), (b * 100.0).round());
    let mut big = gib.clone();
    big.push(12_288.0);
    let d = demand(&big, (600_000.0 * 48.0 / 36.0, 0.0));
    let vms: Vec<usize> = (0..big.len()).collect();
    let mut o = ClusterOracle::new(real.ctx(&d), ("c", &vms, "anf-avs"), None, 1.0);
    assert!(feasible(o.cost(&[18], 3)).unwrap().is_none());
    assert!(feasible(o.cost(&six, 3)).unwrap().is_some());
}

/// A demand of VMs of `gib` GiB each (in use, no growth), `iops` and `mibps` the estate's
/// targets.
fn demand(gib: &[f64], targets: (f64, f64)) -> Demand {
    let mut placed = crate::demand::testing::vms(gib);
    for v in &mut placed {
        v.cluster = Some("c".into());
        v.vcpus = Some(2);
        v.memory_mib = Some(4096.0);
    }
    crate::demand::testing::demand(placed, targets)
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
    assert_eq!(fewest_on_anf(&w, 4), Some(vec![1, 2, 3, 4]));
    // Nothing on ANF: every VM stays (no table needed).
    assert_eq!(fewest_on_anf(&w, 8), None);
    let mut tops = Tops::new(&w, 8, false);
    assert_eq!(tops.top(8), (8, vec![0, 1, 2, 3, 4]));
    assert_eq!(tops.top(100), (8, vec![0, 1, 2, 3, 4]));
}

#[test]
fn the_layers_give_the_tables_set_of_the_fewest_vms() {
    // w = [3, 5, 4, 2, 7]. Fill 7: {7} alone (position 4); {3, 4} and {5, 2} take 2.
    // Fill 9: no VM alone; pairs 5 + 4 and 2 + 7. The table goes from the last VM down
    // and takes a VM only when the fill cannot be made as well without it: 9 with 2 of
    // [3, 5, 4, 2] (5 + 4) so not the 7; 9 with 2 of [3, 5, 4] so not the 2; not with 2
    // of [3, 5], so the 4, then 5 with 1 of [3] no, so the 5: {5, 4} (positions 1, 2).
    // Fill 13: no pair (the largest, 5 + 7, is 12); of the triples only 4 + 2 + 7
    // (positions 2, 3, 4). Fill 1: no set.
    let w = [3, 5, 4, 2, 7];
    assert_eq!(fewest_within(&w, 7, MAX_LAYERS), Some(vec![4]));
    assert_eq!(fewest_within(&w, 9, MAX_LAYERS), Some(vec![1, 2]));
    assert_eq!(fewest_within(&w, 13, MAX_LAYERS), Some(vec![2, 3, 4]));
    assert_eq!(fewest_within(&w, 1, MAX_LAYERS), None);
    // One layer only: fill 13 needs 3 VMs, so the table is built, with the same set.
    assert_eq!(fewest_within(&w, 13, 1), Some(vec![2, 3, 4]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The layers by VM count give the set the fewest-VMs table rebuilds, at every fill,
    /// with or without the table to fall back on.
    #[test]
    fn the_layers_give_the_same_set_as_the_table(
        w in proptest::collection::vec(prop_oneof![Just(0u64), 1u64..40, 60u64..200], 0..=24),
        fill in 0u64..300,
        layers in 1usize..=4,
    ) {
        let t = Table::build(&w, fill);
        let want = (t.count[t.width - 1] != u32::MAX).then(|| t.rebuild(&w, t.width - 1));
        prop_assert_eq!(fewest_within(&w, fill, layers), want.clone());
        prop_assert_eq!(fewest_within(&w, fill, MAX_LAYERS), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The reachability table's layers, built a word at a time, hold the fills a plain
    /// subset-sum over the VMs so far reaches, after every VM.
    #[test]
    fn the_reach_layers_hold_the_fills_the_vms_so_far_reach(
        w in proptest::collection::vec(prop_oneof![Just(0u64), 1u64..70, 60u64..300], 1..=16),
        fills in 0u64..400,
    ) {
        let r = Reach::build(&w, fills);
        let mut reach = vec![false; fills as usize + 1];
        reach[0] = true;
        for (i, &wi) in w.iter().enumerate() {
            for s in (0..reach.len()).rev() {
                if wi > 0 && s as u64 >= wi && reach[s - wi as usize] {
                    reach[s] = true;
                }
            }
            for (s, &x) in reach.iter().enumerate() {
                prop_assert_eq!(r.reached_before(i + 1, s), x, "VM {} fill {}", i, s);
            }
        }
    }
}

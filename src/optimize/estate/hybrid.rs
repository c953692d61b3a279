//! The hybrid design's search ([`cheapest`]): per AVS cluster, which VMs stay on the
//! compute hosts' vSAN, which go to ANF datastores, and whether more hosts are cheaper.
//!
//! # The problem
//! One AVS cluster of one host SKU at `p` USD per host-hour (730 h a month), its VMs `i`
//! with data `d_i` (GiB after growth and snapshot reserve: what vSAN alone stores), and
//! `h0` hosts for compute (vCPU, memory, HA). A design point is `(h, S)`: `h` in
//! `h0..=16` hosts, `S` the VMs kept on vSAN with `sum_{i in S} d_i <= U(h)` (what `h`
//! hosts' vSAN holds within the headroom: [`crate::vsan::VsanCapacity::fill_limit_gib`],
//! the same arithmetic as vSAN alone); the other VMs (`S'`) go to ANF datastores planned with `h` hosts.
//! `cost(h, S) = h x p x 730 + A_h(S')`, `A_h(empty) = 0`, where `A_h` is the ANF oracle
//! ([`AnfOracle`]: the existing optimizer's cheapest plan of those VMs, their capacity
//! share of the cluster's targets, or their own per-VM sums with `perf`; infeasible when
//! the datastores cannot meet the targets with a host down). The search returns the
//! cheapest point; both `S` empty (ANF for all) and `S` = every VM (vSAN alone within 16
//! hosts) are points.
//!
//! # Granularity
//! Data is counted in whole units of `g` GiB ([`Units`]), each `d_i` rounded **up**
//! (`w_i = ceil(d_i / g)`): the vSAN side never overfills, and the oracle sees each ANF VM
//! at `w_i x g` GiB too (its plan of the chosen split is then made with the true sizes,
//! never dearer). `g` is 1 GiB unless the fewest-VMs table of (VMs + 1) x (fills + 1)
//! cells would pass [`MAX_DP_CELLS`] (2^26, 8 MiB of decision bits): then the smallest
//! whole `g` that keeps it under. Two sets of equal units can differ in true data (by
//! less than `g` a VM): the search does not tell them apart.
//!
//! # The search
//! - With capacity-share targets the oracle depends on `S'` only through its data `D =
//!   g x sum_{i in S'} w_i` and its VM count `k`: nondecreasing in `D` (the capacity and
//!   the targets grow with it) and nonincreasing in `k` (every ceiling of the performance
//!   model grows with the VMs: `workload_layout` runs `min(h, k)` hosts of `floor(k /
//!   min(h, k))` VMs each, and `h x floor(k / h)` never falls as `k` grows; the VM layer,
//!   the flows and the USL envelope are nondecreasing in both, `perf/eval.rs`). The count
//!   enters the plan only through those ceilings, so from a count `K_h` on it does not
//!   matter at all ([`AnfOracle::saturation`]: the ceilings at every datastore count, at
//!   `h` and at the hosts the targets are checked at, are those of all the cluster's VMs;
//!   on `anf-avs` at 2 VMs a host, where the VM layer no longer binds).
//! - So at each `h` the largest fill `s1` within the cap `floor(U(h) / g)` comes first:
//!   every point keeps at most `s1` on vSAN (`D >= D1 = g x (sum w - s1)`), so a set
//!   making `s1` that leaves at least `K_h` VMs on ANF is the cheapest point at `h`, the
//!   only candidate. The set is made from the VMs largest first (few on vSAN, many on
//!   ANF). Only when it leaves fewer than `K_h` VMs on ANF are the other Pareto points
//!   sought: by `D` ascending from `D1`, each reached with more VMs than every smaller
//!   `D`, up to the first with `K_h` VMs, which comes by `D1` + the data of the `K_h`
//!   smallest VMs (add to the `s1` set's ANF VMs the smallest of the others): a most-VMs
//!   table of the ANF side's data up to there (one decision bit per VM and fill to rebuild
//!   the set), or, when that table would pass [`MAX_DP_CELLS`], the fewest-VMs table of
//!   the vSAN side for each fill up to `min(sum w, floor(U(16) / g))` (one per cluster,
//!   every `h` only changing the cap), whose Pareto points are the candidates: a fill `s`
//!   none of whose larger fills is reached with as few VMs.
//! - The largest fill within a cap is the cap itself when a set making it is found
//!   cheaply (the 32 smallest VMs set aside, the others in the set's order while they
//!   leave 2 x the largest VM's units, then a reachability table of 64 VMs, the ones set
//!   aside among them, or of every VM not taken, up to the cap); else a reachability table
//!   of every VM (one bit per fill and VM, built a word at a time, once per cluster) gives
//!   it.
//! - Without a target, peak months or per-VM figures (and without cool access) the cost
//!   depends on `D` alone and grows with it: the largest fill within the cap is the only
//!   candidate. Of the sets that make that fill, the one with the fewest VMs on ANF (the
//!   fewest VMs to move, at the same cost) is taken: the fewest-VMs table's set of the ANF
//!   side's data (made from bit layers by VM count, [`fewest`]), while the table stays
//!   within [`fewest::MAX_TIE_BREAK_CELLS`]; past it, the set made from the VMs smallest
//!   first (many on vSAN, few to move).
//! - With cool access, or with per-VM figures (no `K_h`), the fewest-VMs table's Pareto
//!   points are the candidates.
//! - For each `h` (ascending from `h0`; stop once `h x p x 730` alone reaches the best),
//!   the candidates by `D` ascending; each is evaluated only while `h x p x 730 + L_h(D)`
//!   is below the best, `L_h` a lower bound of the oracle over every `S'` of data `D`
//!   ([`AnfOracle::lower_bound`], asked only once there is a best), nondecreasing in `D`,
//!   so the first candidate at or above the best ends that `h`.
//!
//! # Exactness
//! With capacity-share targets and no cool access the result is the cheapest of every
//! `(h, S)` at granularity `g` (the proptests below enumerate every point, with the real
//! oracle and with oracles of every `K_h`). With cool access (`cold_pct` > 0) the ANF cost
//! is not monotone in `D`: the cool tier is billed per GiB and the pool in whole TiB, so
//! within a pool's last TiB more cold data lowers the hot tier's share; the search is then
//! exact over `h` and the Pareto points, and the lower bound only skips (it no longer ends
//! an `h`); a split that puts part of a TiB more on ANF to fill a pool can be missed. With per-VM figures (`perf`:
//! the targets their sums, or VMs whose own need spreads their VMDKs) the oracle also
//! depends on which VMs go to ANF: the search is exact over `h` and the Pareto points by
//! data and count, not over which of several VMs of equal data and count go to ANF.
//!
//! # The vSAN side's targets
//! The data kept on vSAN carries its share of the targets ([`super::vsan_perf`]). With
//! capacity-share targets that share grows with the data alone, so it is one more cap on
//! the fill: `U(h)` is the smaller of what `h` hosts' vSAN holds and what it carries
//! beside the ANF side's traffic, nondecreasing in `h` like the capacity, and every claim
//! above holds as stated. With per-VM targets the load depends on which VMs stay, so each
//! candidate set is checked ([`Cluster::fits`]) and a failing one skipped: the search is
//! then exact over the sets the tables rebuild, not over every set of a Pareto fill.
//!
//! The oracle is the ANF side as one cluster's optimizer prices it: in an estate its
//! Standard, Premium or Ultra datastores are a share of a pool shared with the other
//! clusters', priced per whole GiB of quota (a Flexible pool its own, whole TiB;
//! [`super::oracle`]). The search is exact over that oracle. The shared pools' rounding up
//! to whole TiB depends on every cluster's share, so it is not in the oracle: it is added
//! to the design's split after the search ([`super::designs`]), with the split's pools
//! sized the cheaper way (shared, or a pool per cluster); a split that would fill a shared
//! pool's last TiB better is not sought, as the pools' sharing itself comes after each
//! cluster's plan.

use crate::optimize::OptimizeError;
use fewest::fewest_on_anf;
use tables::{Table, Tops};

mod fewest;
mod tables;

/// Most cells of the subset-sum table: (VMs + 1) x (fills + 1) = 2^26 (8 MiB of decision
/// bits, as many steps).
pub(super) const MAX_DP_CELLS: u64 = 1 << 26;

/// A cluster's VMs' data in whole units of `g_gib` GiB, each rounded up.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Units {
    /// GiB per unit (a whole number, at least 1).
    pub(super) g_gib: f64,
    /// Each VM's data in units, rounded up.
    pub(super) w: Vec<u64>,
}

impl Units {
    /// `data_gib` in units of the smallest whole `g` GiB for which the table of fills up to
    /// `min(total, cap_gib)` has at most [`MAX_DP_CELLS`] cells.
    pub(super) fn of(data_gib: &[f64], cap_gib: f64) -> Units {
        let n = data_gib.len() as u64;
        let total: f64 = data_gib.iter().map(|d| d.max(0.0)).sum();
        let span = total.min(cap_gib.max(0.0));
        let mut g = ((n + 1) as f64 * (span + n as f64 + 1.0) / MAX_DP_CELLS as f64)
            .ceil()
            .max(1.0);
        loop {
            let units = Units::at(data_gib, g);
            if (n + 1).saturating_mul(units.fills(cap_gib) + 1) <= MAX_DP_CELLS || g > 1e15 {
                return units;
            }
            g += 1.0;
        }
    }

    /// `data_gib` in units of `g_gib` GiB.
    pub(super) fn at(data_gib: &[f64], g_gib: f64) -> Units {
        let w = data_gib
            .iter()
            .map(|d| {
                let u = (d.max(0.0) / g_gib).ceil();
                if u.is_finite() { u as u64 } else { 0 }
            })
            .collect();
        Units { g_gib, w }
    }

    /// Units of every VM.
    pub(super) fn total(&self) -> u64 {
        self.w.iter().fold(0u64, |a, &w| a.saturating_add(w))
    }

    /// Whole units `gib` of vSAN capacity holds.
    pub(super) fn cap(&self, gib: f64) -> u64 {
        let c = (gib.max(0.0) / self.g_gib + 1e-9).floor();
        if c.is_finite() { c as u64 } else { u64::MAX }
    }

    /// The largest fill the table needs for a cap of `cap_gib`.
    fn fills(&self, cap_gib: f64) -> u64 {
        self.total().min(self.cap(cap_gib))
    }
}

/// The ANF side of a cluster as the search sees it: its cost for a set of VMs at a host
/// count, and a lower bound by data alone. Indices are positions in the cluster's VMs.
pub(super) trait AnfOracle {
    /// The ANF cost of the VMs `anf` (each at its [`Units`] size) planned with `hosts`
    /// hosts, USD per month; `Err(Infeasible | NoLayout)` when their datastores cannot
    /// meet their targets there.
    ///
    /// # Errors
    /// The optimizer's.
    fn cost(&mut self, anf: &[usize], hosts: u32) -> Result<f64, OptimizeError>;

    /// A lower bound of [`AnfOracle::cost`] at `hosts` over every set of VMs whose data
    /// is `anf_units` units; infinite when none of them can be feasible.
    ///
    /// # Errors
    /// The optimizer's.
    fn lower_bound(&mut self, anf_units: u64, hosts: u32) -> Result<f64, OptimizeError>;

    /// A VM count from which the cost at `hosts` depends on the VMs' data alone: two sets
    /// of VMs with the same data and at least that many VMs each cost the same (and a set
    /// with more VMs never costs more); `None` when the cost can depend on which VMs carry
    /// the data (per-VM figures).
    ///
    /// # Errors
    /// The optimizer's.
    fn saturation(&mut self, hosts: u32) -> Result<Option<usize>, OptimizeError>;

    /// Whether [`AnfOracle::lower_bound`] (and the cost) is nondecreasing in the data.
    fn monotone(&self) -> bool;

    /// Whether the cost can depend on which VMs (or how many) carry the data, not only on
    /// the data: a target, peak months or per-VM figures.
    fn counts_matter(&self) -> bool;
}

/// `Ok(Some(x))` (a cost, a plan), `Ok(None)` when infeasible, or the error.
pub(super) fn feasible<T>(r: Result<T, OptimizeError>) -> Result<Option<T>, OptimizeError> {
    match r {
        Ok(c) => Ok(Some(c)),
        Err(OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// One AVS cluster as the search sees it.
pub(super) struct Cluster<'a> {
    /// Its VMs' data in units.
    pub(super) units: &'a Units,
    /// Its compute hosts `h0` (at least the AVS minimum).
    pub(super) first_hosts: u32,
    /// What each host count from `first_hosts` keeps on vSAN, GiB (`usable_gib[h -
    /// first_hosts]`): within its headroom and, with capacity-share targets, what its vSAN
    /// carries ([`super::vsan_perf`]); its length sets the largest host count.
    pub(super) usable_gib: &'a [f64],
    /// One host, USD per month (price x 730 h).
    pub(super) usd_per_host_month: f64,
    /// With per-VM targets: whether `h` hosts' vSAN carries the VMs of a set (positions):
    /// each candidate set is checked (`None`: any set within `usable_gib`).
    pub(super) fits: Option<&'a SetFits<'a>>,
}

/// Whether `h` hosts' vSAN carries the VMs of a set (positions in the cluster's VMs).
pub(super) type SetFits<'a> = dyn Fn(u32, &[usize]) -> bool + 'a;

impl Cluster<'_> {
    /// The host counts searched with what each holds on vSAN, in units.
    fn caps(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (self.first_hosts..)
            .zip(self.usable_gib)
            .map(|(h, &u)| (h, self.units.cap(u)))
    }

    fn hosts_usd(&self, hosts: u32) -> f64 {
        f64::from(hosts) * self.usd_per_host_month
    }
}

/// A design point: hosts, the VMs kept on vSAN, the ANF cost of the others.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Point {
    /// Hosts.
    pub(super) hosts: u32,
    /// The VMs on vSAN (positions in the cluster's VMs, ascending).
    pub(super) on_vsan: Vec<usize>,
    /// The ANF cost of the others, USD per month (0 when none).
    pub(super) anf_usd_per_month: f64,
}

impl Point {
    /// Hosts + ANF, USD per month.
    pub(super) fn total(&self, usd_per_host_month: f64) -> f64 {
        f64::from(self.hosts) * usd_per_host_month + self.anf_usd_per_month
    }

    /// The VMs on ANF: the positions `0..n` not on vSAN.
    pub(super) fn on_anf(&self, n: usize) -> Vec<usize> {
        complement(&self.on_vsan, n)
    }
}

/// The positions `0..n` not in `set` (ascending).
fn complement(set: &[usize], n: usize) -> Vec<usize> {
    let mut inside = vec![false; n];
    for &i in set {
        if let Some(x) = inside.get_mut(i) {
            *x = true;
        }
    }
    (0..n).filter(|&i| !inside[i]).collect()
}

/// The fills a search considers: by fewest VMs, the largest (the VM count not mattering),
/// or the largest while the VMs on ANF are as many as the count matters
/// ([`Saturating`]).
enum Fills {
    Fewest(Table),
    Reach(Tops),
    Saturating(Box<Saturating>),
}

/// A candidate: its fill (units on vSAN) and the VMs making it (positions, ascending).
struct Candidate {
    fill: usize,
    on_vsan: Vec<usize>,
}

impl Fills {
    /// The candidates at `hosts` within `cap`, largest fill first.
    ///
    /// # Errors
    /// The oracle's ([`AnfOracle::saturation`]).
    fn candidates(
        &mut self,
        w: &[u64],
        (hosts, cap): (u32, u64),
        oracle: &mut dyn AnfOracle,
    ) -> Result<Vec<Candidate>, OptimizeError> {
        Ok(match self {
            Fills::Fewest(t) => pareto_candidates(t, w, cap),
            Fills::Reach(t) => {
                // Of the sets making the fill, the one moving the fewest VMs to ANF where
                // found.
                let (fill, set) = t.top(cap);
                let on_vsan = fewest_on_anf(w, fill).unwrap_or(set);
                vec![Candidate { fill, on_vsan }]
            }
            Fills::Saturating(t) => t.candidates(w, (hosts, cap), oracle)?,
        })
    }
}

/// The Pareto fills of the fewest-VMs table `t` of `w` within `cap`, largest first.
fn pareto_candidates(t: &Table, w: &[u64], cap: u64) -> Vec<Candidate> {
    t.pareto(cap)
        .into_iter()
        .map(|(fill, _)| Candidate {
            fill,
            on_vsan: t.rebuild(w, fill),
        })
        .collect()
}

/// The search's fills when the oracle's cost depends on the data, and on the VM count only
/// up to a count ([`AnfOracle::saturation`]): see the module docs. Each cap's largest fill
/// with a set of few VMs on vSAN (many on ANF, [`Tops`] largest first); only when that set
/// leaves fewer VMs on ANF than the count that matters are the other Pareto points sought,
/// by a most-VMs table of the ANF side's data up to where the count stops mattering, or
/// (past [`MAX_DP_CELLS`]) the fewest-VMs table of the vSAN side.
struct Saturating {
    tops: Tops,
    /// The fills of the fewest-VMs table.
    fills: u64,
    /// Most cells of the most-VMs table ([`MAX_DP_CELLS`]).
    max_cells: u64,
    /// The most VMs per ANF fill, once built (its width the largest needed so far).
    most: Option<Table>,
    /// The fewest VMs per vSAN fill, once built.
    fewest: Option<Table>,
}

impl Saturating {
    fn new(w: &[u64], fills: u64, max_cells: u64) -> Saturating {
        Saturating {
            tops: Tops::new(w, fills, true),
            fills,
            max_cells,
            most: None,
            fewest: None,
        }
    }

    /// The candidates within `cap` at `hosts`, largest fill first.
    fn candidates(
        &mut self,
        w: &[u64],
        (hosts, cap): (u32, u64),
        oracle: &mut dyn AnfOracle,
    ) -> Result<Vec<Candidate>, OptimizeError> {
        let n = w.len();
        let total = w.iter().fold(0u64, |a, &x| a.saturating_add(x));
        let (top, on_vsan) = self.tops.top(cap);
        let anf_top = total.saturating_sub(top as u64);
        if anf_top == 0 {
            // Every VM on vSAN: no ANF cost, the cheapest point at these hosts.
            return Ok(vec![Candidate { fill: top, on_vsan }]);
        }
        let Some(enough) = oracle.saturation(hosts)? else {
            return Ok(self.fewest_candidates(w, cap));
        };
        if n - on_vsan.len() >= enough {
            return Ok(vec![Candidate { fill: top, on_vsan }]);
        }
        // Fewer VMs on ANF than the count that matters: the Pareto points of the ANF side's
        // data from `anf_top` up to the first reached with `enough` VMs, which is at most
        // `anf_top` + the data of the `enough` smallest VMs (the top's VMs on ANF and the
        // smallest of the others until there are `enough`).
        let last = if n >= enough {
            let smallest = self.tops.sorted.iter().rev().take(enough);
            let smallest = smallest.fold(0u64, |a, &w| a.saturating_add(w));
            anf_top.saturating_add(smallest).min(total)
        } else {
            total
        };
        let cells = (n as u64 + 1).saturating_mul(last.saturating_add(1));
        if cells > self.max_cells {
            return Ok(self.fewest_candidates(w, cap));
        }
        let most = match self.most.take() {
            Some(t) if t.width as u64 > last => t,
            _ => Table::most(w, last),
        };
        // The table leaves out the VMs of no data: they go to ANF with every set.
        let empty: Vec<usize> = (0..n).filter(|&i| w[i] == 0).collect();
        let mut out = Vec::new();
        let mut most_so_far: Option<u32> = None;
        let from = usize::try_from(anf_top).unwrap_or(usize::MAX);
        let to = usize::try_from(last).unwrap_or(usize::MAX);
        for t in from..=to.min(most.width - 1) {
            let m = most.count[t];
            if m == u32::MAX || most_so_far.is_some_and(|b| m <= b) {
                continue;
            }
            most_so_far = Some(m);
            let mut on_anf = most.rebuild(w, t);
            on_anf.extend(&empty);
            out.push(Candidate {
                fill: usize::try_from(total - t as u64).unwrap_or(0),
                on_vsan: complement(&on_anf, n),
            });
            if m as usize + empty.len() >= enough {
                break;
            }
        }
        self.most = Some(most);
        Ok(out)
    }

    /// The Pareto fills of the fewest-VMs table within `cap` (the table built once).
    fn fewest_candidates(&mut self, w: &[u64], cap: u64) -> Vec<Candidate> {
        let fills = self.fills;
        let t = self.fewest.get_or_insert_with(|| Table::build(w, fills));
        pareto_candidates(t, w, cap)
    }
}

/// The cheapest design point of `cluster` (see the module docs), or `None` when no host
/// count lets its ANF side meet the targets. Ties keep the fewer hosts, then the more data
/// on vSAN.
///
/// # Errors
/// The oracle's errors other than infeasibility.
pub(super) fn cheapest(
    cluster: &Cluster,
    oracle: &mut dyn AnfOracle,
) -> Result<Option<Point>, OptimizeError> {
    search(cluster, oracle, MAX_DP_CELLS)
}

/// [`cheapest`], the most-VMs table of [`Saturating`] within `max_cells` (the tests make
/// it small to reach the fewest-VMs table with small clusters).
fn search(
    cluster: &Cluster,
    oracle: &mut dyn AnfOracle,
    max_cells: u64,
) -> Result<Option<Point>, OptimizeError> {
    let units = cluster.units;
    let n = units.w.len();
    let total = units.total();
    let widest = cluster.caps().map(|(_, c)| c).max().unwrap_or(0);
    let fills = total.min(widest);
    let mut table = if !oracle.monotone() {
        Fills::Fewest(Table::build(&units.w, fills))
    } else if !oracle.counts_matter() {
        Fills::Reach(Tops::new(&units.w, fills, false))
    } else if oracle.saturation(cluster.first_hosts)?.is_some() {
        Fills::Saturating(Box::new(Saturating::new(&units.w, fills, max_cells)))
    } else {
        Fills::Fewest(Table::build(&units.w, fills))
    };
    let mut best: Option<(f64, Point)> = None;
    for (h, cap) in cluster.caps() {
        let hosts_usd = cluster.hosts_usd(h);
        if best.as_ref().is_some_and(|(b, _)| hosts_usd >= *b) {
            break;
        }
        for c in table.candidates(&units.w, (h, cap), oracle)? {
            let anf_units = total - c.fill as u64;
            // The bound is sought only when there is a best to beat.
            let beaten = match &best {
                Some((b, _)) if anf_units > 0 => {
                    hosts_usd + oracle.lower_bound(anf_units, h)? >= *b - 1e-9
                }
                Some((b, _)) => hosts_usd >= *b - 1e-9,
                None => false,
            };
            if beaten {
                if oracle.monotone() {
                    break;
                }
                continue;
            }
            let on_vsan: Vec<usize> = if anf_units == 0 {
                (0..n).collect()
            } else {
                c.on_vsan
            };
            if cluster.fits.is_some_and(|f| !f(h, &on_vsan)) {
                continue;
            }
            let anf = if anf_units == 0 {
                Some(0.0)
            } else {
                feasible(oracle.cost(&complement(&on_vsan, n), h))?
            };
            let Some(anf) = anf else {
                continue;
            };
            let total_usd = hosts_usd + anf;
            if best.as_ref().is_none_or(|(b, _)| total_usd < *b - 1e-9) {
                let point = Point {
                    hosts: h,
                    on_vsan,
                    anf_usd_per_month: anf,
                };
                best = Some((total_usd, point));
            }
        }
    }
    Ok(best.map(|(_, p)| p))
}

/// The fewest hosts from `first` to `last` at which every VM (`all`) on ANF meets the
/// targets, and the ANF cost there: the ANF-for-all design's cluster.
///
/// # Errors
/// The error at `last` when no host count meets the targets; the oracle's other errors.
pub(super) fn anf_for_all(
    oracle: &mut dyn AnfOracle,
    all: &[usize],
    (first, last): (u32, u32),
) -> Result<(u32, f64), OptimizeError> {
    let mut h = first;
    loop {
        match oracle.cost(all, h) {
            Ok(c) => return Ok((h, c)),
            Err(OptimizeError::Infeasible { .. } | OptimizeError::NoLayout(_)) if h < last => {
                h += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Every point of `cluster` with the same oracle: the cheapest cost, USD per month (the
/// check of [`cheapest`] on small clusters).
#[cfg(test)]
pub(super) fn enumerate(
    cluster: &Cluster,
    oracle: &mut dyn AnfOracle,
) -> Result<Option<f64>, OptimizeError> {
    let n = cluster.units.w.len();
    let mut best: Option<f64> = None;
    for (h, cap) in cluster.caps() {
        for mask in 0u32..(1 << n) {
            let on_vsan: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
            let fill: u64 = on_vsan.iter().map(|&i| cluster.units.w[i]).sum();
            if fill > cap || cluster.fits.is_some_and(|f| !f(h, &on_vsan)) {
                continue;
            }
            let anf = complement(&on_vsan, n);
            let cost = if anf.is_empty() {
                Some(0.0)
            } else {
                feasible(oracle.cost(&anf, h))?
            };
            if let Some(c) = cost {
                let total = cluster.hosts_usd(h) + c;
                best = Some(best.map_or(total, |b: f64| b.min(total)));
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests;

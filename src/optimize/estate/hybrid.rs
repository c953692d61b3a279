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
//! never dearer). `g` is 1 GiB unless the dynamic programme's table of (VMs + 1) x
//! (fills + 1) cells would pass [`MAX_DP_CELLS`] (2^26, 8 MiB of decision bits): then the
//! smallest whole `g` that keeps it under.
//!
//! # The search
//! - One subset-sum programme per cluster (it serves every `h` and only the cap
//!   `floor(U(h) / g)` changes): for each fill `s` (units) up to `min(sum w, floor(U(16) /
//!   g))`, the fewest VMs whose `w` add up to `s`, with one decision bit per VM and fill to
//!   rebuild the set.
//! - With capacity-share targets the oracle depends on `S'` only through its data `D =
//!   g x sum_{i in S'} w_i` and its VM count `k`: nondecreasing in `D` (the capacity and
//!   the targets grow with it) and nonincreasing in `k` (every ceiling of the performance
//!   model grows with the VMs: `workload_layout` runs `min(h, k)` hosts of `floor(k /
//!   min(h, k))` VMs each, and `h x floor(k / h)` never falls as `k` grows; the VM layer,
//!   the flows and the USL envelope are nondecreasing in both, `perf/eval.rs`). So only the
//!   Pareto points are candidates: a fill `s` none of whose larger fills is reached with as
//!   few VMs.
//! - Without a target, peak months or per-VM figures (and without cool access) the cost
//!   depends on `D` alone and grows with it: the largest fill within the cap is the only
//!   candidate, and a reachability table (one bit per fill and VM, built a word at a time)
//!   replaces the fewest-VMs table. Of the sets that make that fill, the one with the
//!   fewest VMs on ANF (the fewest VMs to move, at the same cost) is taken: a fewest-VMs
//!   table of the ANF side's data, while it stays within [`MAX_TIE_BREAK_CELLS`].
//! - For each `h` (ascending from `h0`; stop once `h x p x 730` alone reaches the best),
//!   the candidates by `D` ascending; each is evaluated only while `h x p x 730 + L_h(D)`
//!   is below the best, `L_h` a lower bound of the oracle over every `S'` of data `D`
//!   ([`AnfOracle::lower_bound`]), nondecreasing in `D`, so the first candidate at or above
//!   the best ends that `h`.
//!
//! # Exactness
//! With capacity-share targets and no cool access the result is the cheapest of every
//! `(h, S)` at granularity `g` (the proptest below enumerates every point with the same
//! oracle). With cool access (`cold_pct` > 0) the ANF cost is not monotone in `D`: the cool
//! tier is billed per GiB and the pool in whole TiB, so within a pool's last TiB more cold
//! data lowers the hot tier's share; the search is then exact over `h` and the Pareto
//! points, and the lower bound only skips (it no longer ends an `h`); a split that puts
//! part of a TiB more on ANF to fill a pool can be missed. With per-VM figures (`perf`:
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

/// Most cells of the subset-sum table: (VMs + 1) x (fills + 1) = 2^26 (8 MiB of decision
/// bits, as many steps).
pub(super) const MAX_DP_CELLS: u64 = 1 << 26;

/// Most cells of the fewest-VMs table that picks, at the fill the reachability table
/// chose, the fewest VMs to put on ANF: (VMs + 1) x (ANF units + 1) = 2^22 (512 KiB of
/// decision bits); past it, any set of that fill.
const MAX_TIE_BREAK_CELLS: u64 = 1 << 22;

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

/// The subset-sum table: for each fill, the fewest VMs that reach it, and the decisions.
struct Table {
    /// Fewest VMs per fill (`u32::MAX`: unreachable).
    fewest: Vec<u32>,
    /// Decision bits: VM `i` taken at fill `s` in its pass, bit `i x (fills + 1) + s`.
    taken: Vec<u64>,
    /// Fills + 1.
    width: usize,
}

impl Table {
    /// The table of `w` for fills `0..=fills` (0/1 knapsack, fewest items).
    fn build(w: &[u64], fills: u64) -> Table {
        let width = usize::try_from(fills).unwrap_or(usize::MAX - 1) + 1;
        let mut fewest = vec![u32::MAX; width];
        fewest[0] = 0;
        let mut taken = vec![0u64; (w.len() * width).div_ceil(64)];
        for (i, &wi) in w.iter().enumerate() {
            let Ok(wi) = usize::try_from(wi) else {
                continue;
            };
            if wi == 0 || wi >= width {
                continue;
            }
            for s in (wi..width).rev() {
                let from = fewest[s - wi];
                if from != u32::MAX && from + 1 < fewest[s] {
                    fewest[s] = from + 1;
                    let bit = i * width + s;
                    taken[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Table {
            fewest,
            taken,
            width,
        }
    }

    /// The VMs of one fewest set reaching fill `s` (ascending).
    fn rebuild(&self, w: &[u64], mut s: usize) -> Vec<usize> {
        let mut set = Vec::new();
        for i in (0..w.len()).rev() {
            let bit = i * self.width + s;
            if self
                .taken
                .get(bit / 64)
                .is_some_and(|b| b >> (bit % 64) & 1 == 1)
            {
                set.push(i);
                s = s.saturating_sub(usize::try_from(w[i]).unwrap_or(0));
            }
        }
        set.reverse();
        set
    }

    /// The Pareto fills up to `cap`, largest first: `(fill, fewest VMs)` where no larger
    /// fill within the cap is reached with as few VMs.
    fn pareto(&self, cap: u64) -> Vec<(usize, u32)> {
        let top = usize::try_from(cap)
            .unwrap_or(usize::MAX)
            .min(self.width - 1);
        let mut out = Vec::new();
        let mut fewest_above = u32::MAX;
        for s in (0..=top).rev() {
            let m = self.fewest[s];
            if m < fewest_above {
                out.push((s, m));
                fewest_above = m;
            }
        }
        out
    }
}

/// Which fills some set of the VMs reaches, after each VM (one bit per fill and VM, built
/// word by word): for an oracle whose cost depends on the data alone and grows with it,
/// the largest fill within the cap is the only candidate.
struct Reach {
    /// Bit `s` of layer `i`: fill `s` reached with VMs `0..=i`.
    layers: Vec<u64>,
    /// Words per layer.
    words: usize,
    /// Fills + 1.
    width: usize,
}

impl Reach {
    fn build(w: &[u64], fills: u64) -> Reach {
        let width = usize::try_from(fills).unwrap_or(usize::MAX - 64) + 1;
        let words = width.div_ceil(64);
        let mut layers = vec![0u64; w.len() * words];
        let mut prev = vec![0u64; words];
        prev[0] = 1;
        for (i, &wi) in w.iter().enumerate() {
            let mut cur = prev.clone();
            if let Ok(wi) = usize::try_from(wi)
                && wi > 0
                && wi < width
            {
                let (q, r) = (wi / 64, wi % 64);
                for j in q..words {
                    let mut v = prev[j - q] << r;
                    if r > 0 && j > q {
                        v |= prev[j - q - 1] >> (64 - r);
                    }
                    cur[j] |= v;
                }
            }
            if width % 64 != 0 {
                cur[words - 1] &= (1u64 << (width % 64)) - 1;
            }
            layers[i * words..(i + 1) * words].copy_from_slice(&cur);
            prev = cur;
        }
        Reach {
            layers,
            words,
            width,
        }
    }

    /// Whether fill `s` is reached with the VMs before `i` (none before 0: fill 0 only).
    fn reached_before(&self, i: usize, s: usize) -> bool {
        if i == 0 {
            return s == 0;
        }
        let at = (i - 1) * self.words + s / 64;
        self.layers.get(at).is_some_and(|b| b >> (s % 64) & 1 == 1)
    }

    /// The largest fill within `cap` that every VM's layer reaches.
    fn top(&self, n: usize, cap: u64) -> usize {
        let top = usize::try_from(cap)
            .unwrap_or(usize::MAX)
            .min(self.width - 1);
        (0..=top)
            .rev()
            .find(|&s| self.reached_before(n, s))
            .unwrap_or(0)
    }

    /// The VMs of one set reaching fill `s` (ascending): the set whose complement (the
    /// VMs on ANF) has the fewest VMs, when the fewest-VMs table of the complement's data
    /// stays within [`MAX_TIE_BREAK_CELLS`]; else any set reaching `s`.
    fn rebuild(&self, w: &[u64], s: usize) -> Vec<usize> {
        let total: u64 = w.iter().sum();
        let anf = total.saturating_sub(s as u64);
        let cells = (w.len() as u64 + 1).saturating_mul(anf.saturating_add(1));
        if anf > 0 && cells <= MAX_TIE_BREAK_CELLS {
            let t = Table::build(w, anf);
            if let Some(&m) = t.fewest.last()
                && m != u32::MAX
            {
                let on_anf = t.rebuild(w, t.width - 1);
                return complement(&on_anf, w.len());
            }
        }
        self.any_set(w, s)
    }

    /// The VMs of one set reaching fill `s` (ascending), as the layers give it.
    fn any_set(&self, w: &[u64], mut s: usize) -> Vec<usize> {
        let mut set = Vec::new();
        for i in (0..w.len()).rev() {
            if !self.reached_before(i, s) {
                set.push(i);
                s = s.saturating_sub(usize::try_from(w[i]).unwrap_or(0));
            }
        }
        set.reverse();
        set
    }
}

/// The fills a search considers: by fewest VMs, or (the VM count not mattering) by reach.
enum Fills {
    Fewest(Table),
    Reach(Reach),
}

impl Fills {
    /// The candidate fills within `cap`, largest first.
    fn candidates(&self, n: usize, cap: u64) -> Vec<usize> {
        match self {
            Fills::Fewest(t) => t.pareto(cap).into_iter().map(|(s, _)| s).collect(),
            Fills::Reach(r) => vec![r.top(n, cap)],
        }
    }

    fn rebuild(&self, w: &[u64], s: usize) -> Vec<usize> {
        match self {
            Fills::Fewest(t) => t.rebuild(w, s),
            Fills::Reach(r) => r.rebuild(w, s),
        }
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
    let units = cluster.units;
    let n = units.w.len();
    let total = units.total();
    let widest = cluster.caps().map(|(_, c)| c).max().unwrap_or(0);
    let fills = total.min(widest);
    let table = if oracle.counts_matter() || !oracle.monotone() {
        Fills::Fewest(Table::build(&units.w, fills))
    } else {
        Fills::Reach(Reach::build(&units.w, fills))
    };
    let mut best: Option<(f64, Point)> = None;
    for (h, cap) in cluster.caps() {
        let hosts_usd = cluster.hosts_usd(h);
        if best.as_ref().is_some_and(|(b, _)| hosts_usd >= *b) {
            break;
        }
        for s in table.candidates(n, cap) {
            let anf_units = total - s as u64;
            let bound = if anf_units == 0 {
                0.0
            } else {
                oracle.lower_bound(anf_units, h)?
            };
            if best
                .as_ref()
                .is_some_and(|(b, _)| hosts_usd + bound >= *b - 1e-9)
            {
                if oracle.monotone() {
                    break;
                }
                continue;
            }
            let on_vsan: Vec<usize> = if anf_units == 0 {
                (0..n).collect()
            } else {
                table.rebuild(&units.w, s)
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

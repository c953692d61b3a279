//! The hybrid search's tables ([`super`]): the fewest (or most) VMs per fill with the
//! decisions to rebuild a set ([`Table`]), which fills some set reaches ([`Reach`]), and the
//! largest fill within a cap with a set making it ([`Tops`]).

/// The VMs (the smallest, the last taken and the first not taken) whose reachability
/// table [`Tops::exact`] tries first.
pub(super) const EXACT_REST: usize = 64;

/// The subset-sum table: for each fill, the fewest (or, [`Table::most`], the most) VMs
/// that reach it, and the decisions.
pub(super) struct Table {
    /// Fewest (most) VMs per fill (`u32::MAX`: unreachable).
    pub(super) count: Vec<u32>,
    /// Decision bits: VM `i` taken at fill `s` in its pass, bit `i x (fills + 1) + s`.
    taken: Vec<u64>,
    /// Fills + 1.
    pub(super) width: usize,
}

impl Table {
    /// The table of `w` for fills `0..=fills` (0/1 knapsack, fewest items).
    pub(super) fn build(w: &[u64], fills: u64) -> Table {
        Table::of(w, fills, |from, at| from + 1 < at)
    }

    /// The table of `w` for fills `0..=fills` with the most items per fill.
    pub(super) fn most(w: &[u64], fills: u64) -> Table {
        Table::of(w, fills, |from, at| at == u32::MAX || from + 1 > at)
    }

    /// The table where `better(from, at)` says that one more VM than `from` (reachable)
    /// improves on `at`.
    fn of(w: &[u64], fills: u64, better: impl Fn(u32, u32) -> bool) -> Table {
        let width = usize::try_from(fills).unwrap_or(usize::MAX - 1) + 1;
        let mut count = vec![u32::MAX; width];
        count[0] = 0;
        let mut taken = vec![0u64; (w.len() * width).div_ceil(64)];
        for (i, &wi) in w.iter().enumerate() {
            let Ok(wi) = usize::try_from(wi) else {
                continue;
            };
            if wi == 0 || wi >= width {
                continue;
            }
            for s in (wi..width).rev() {
                let from = count[s - wi];
                if from != u32::MAX && better(from, count[s]) {
                    count[s] = from + 1;
                    let bit = i * width + s;
                    taken[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Table {
            count,
            taken,
            width,
        }
    }

    /// The VMs of one set of the table's count reaching fill `s` (ascending).
    pub(super) fn rebuild(&self, w: &[u64], mut s: usize) -> Vec<usize> {
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
    pub(super) fn pareto(&self, cap: u64) -> Vec<(usize, u32)> {
        let top = usize::try_from(cap)
            .unwrap_or(usize::MAX)
            .min(self.width - 1);
        let mut out = Vec::new();
        let mut fewest_above = u32::MAX;
        for s in (0..=top).rev() {
            let m = self.count[s];
            if m < fewest_above {
                out.push((s, m));
                fewest_above = m;
            }
        }
        out
    }
}

/// `cur[j] |= (prev << by)[j]` for the words `j` up to `top` (bits past `cur` dropped): one
/// VM's step of a table of bits, `by` its units.
pub(super) fn or_shifted(cur: &mut [u64], prev: &[u64], by: usize, top: usize) {
    let (q, r) = (by / 64, by % 64);
    let top = top
        .min(cur.len().saturating_sub(1))
        .min((prev.len() + q).saturating_sub(1));
    if prev.is_empty() || q > top {
        return;
    }
    let cur = &mut cur[q..=top];
    let prev = &prev[..cur.len()];
    if r == 0 {
        for (c, p) in cur.iter_mut().zip(prev) {
            *c |= p;
        }
        return;
    }
    cur[0] |= prev[0] << r;
    for (c, p) in cur[1..].iter_mut().zip(prev.windows(2)) {
        *c |= (p[1] << r) | (p[0] >> (64 - r));
    }
}

/// Which fills some set of the VMs reaches, after each VM (one bit per fill and VM, built
/// word by word, each VM's pass only over the words its VMs so far can reach).
pub(super) struct Reach {
    /// Bit `s` of layer `i`: fill `s` reached with VMs `0..=i`.
    layers: Vec<u64>,
    /// Words per layer.
    words: usize,
    /// Fills + 1.
    width: usize,
}

impl Reach {
    pub(super) fn build(w: &[u64], fills: u64) -> Reach {
        let width = usize::try_from(fills).unwrap_or(usize::MAX - 64) + 1;
        let words = width.div_ceil(64);
        // Each layer is the one before with the VM's shift added: copied, never zeroed.
        let mut layers: Vec<u64> = Vec::with_capacity(w.len() * words);
        let mut first = vec![0u64; words];
        first[0] = 1;
        // The largest fill the VMs so far reach (within the table).
        let mut reached = 0usize;
        for (i, &wi) in w.iter().enumerate() {
            match i.checked_sub(1) {
                Some(p) => layers.extend_from_within(p * words..i * words),
                None => layers.extend_from_slice(&first),
            }
            let (done, cur) = layers.split_at_mut(i * words);
            let prev: &[u64] = match i.checked_sub(1) {
                Some(p) => &done[p * words..],
                None => &first,
            };
            if let Ok(wi) = usize::try_from(wi)
                && wi > 0
                && wi < width
            {
                reached = reached.saturating_add(wi).min(width - 1);
                or_shifted(cur, prev, wi, reached / 64);
            }
            if width % 64 != 0 {
                cur[words - 1] &= (1u64 << (width % 64)) - 1;
            }
        }
        Reach {
            layers,
            words,
            width,
        }
    }

    /// Whether fill `s` is reached with the VMs before `i` (none before 0: fill 0 only).
    pub(super) fn reached_before(&self, i: usize, s: usize) -> bool {
        if i == 0 {
            return s == 0;
        }
        let at = (i - 1) * self.words + s / 64;
        self.layers.get(at).is_some_and(|b| b >> (s % 64) & 1 == 1)
    }

    /// The largest fill within `cap` that every VM's layer reaches.
    pub(super) fn top(&self, n: usize, cap: u64) -> usize {
        let top = usize::try_from(cap)
            .unwrap_or(usize::MAX)
            .min(self.width - 1);
        (0..=top)
            .rev()
            .find(|&s| self.reached_before(n, s))
            .unwrap_or(0)
    }

    /// The VMs of one set reaching fill `s` (ascending), as the layers give it: VM `i` is
    /// taken only when the VMs before it cannot make what is left without it.
    pub(super) fn any_set(&self, w: &[u64], mut s: usize) -> Vec<usize> {
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

/// The largest fill within a cap that some set of the VMs makes, and such a set: the cap
/// itself when a set found cheaply makes it exactly ([`Tops::exact`]), else the
/// reachability table's (built once, when first needed). The sets are made from the VMs
/// in one order: largest first (few VMs on vSAN, many on ANF), or smallest first (many on
/// vSAN, few to move).
pub(super) struct Tops {
    /// Positions in the cluster's VMs in that order (ties by position).
    order: Vec<usize>,
    /// Their units in that order.
    pub(super) sorted: Vec<u64>,
    /// The fills of the reachability table.
    fills: u64,
    /// The reachability table of the VMs in that order, once built.
    reach: Option<Reach>,
}

impl Tops {
    pub(super) fn new(w: &[u64], fills: u64, largest_first: bool) -> Tops {
        let mut order: Vec<usize> = (0..w.len()).collect();
        if largest_first {
            order.sort_by(|&a, &b| w[b].cmp(&w[a]).then(a.cmp(&b)));
        } else {
            order.sort_by(|&a, &b| w[a].cmp(&w[b]).then(a.cmp(&b)));
        }
        let sorted = order.iter().map(|&i| w[i]).collect();
        Tops {
            order,
            sorted,
            fills,
            reach: None,
        }
    }

    /// The largest fill within `cap` that some set makes, and one such set (positions,
    /// ascending).
    pub(super) fn top(&mut self, cap: u64) -> (usize, Vec<usize>) {
        let n = self.sorted.len();
        let total = self.sorted.iter().fold(0u64, |a, &w| a.saturating_add(w));
        if total <= cap {
            return (
                usize::try_from(total).unwrap_or(usize::MAX),
                (0..n).collect(),
            );
        }
        if let Some(set) = self.exact(cap) {
            return (usize::try_from(cap).unwrap_or(usize::MAX), set);
        }
        let (sorted, fills) = (&self.sorted, self.fills);
        let reach = self
            .reach
            .get_or_insert_with(|| Reach::build(sorted, fills));
        let s = reach.top(n, cap);
        let set = reach.any_set(sorted, s);
        (s, self.positions(set))
    }

    /// A set making exactly `cap`, found cheaply: the [`EXACT_REST`] / 2 smallest VMs set
    /// aside, the others in order while they leave at least 2 x the largest VM's units;
    /// then a reachability table up to what is left of the VMs set aside (small steps),
    /// the last [`EXACT_REST`] / 4 taken (handed back) and the first [`EXACT_REST`] / 4 not
    /// taken, or, when those cannot make it, of all of them and every VM not taken. `None`
    /// when that table does not reach it (another set may).
    pub(super) fn exact(&self, cap: u64) -> Option<Vec<usize>> {
        let largest = self.sorted.iter().copied().max().unwrap_or(0);
        let room = cap.saturating_sub(largest.saturating_mul(2));
        let mut by_size: Vec<usize> = (0..self.sorted.len())
            .filter(|&j| self.sorted[j] > 0)
            .collect();
        by_size.sort_by_key(|&j| (self.sorted[j], j));
        by_size.truncate(EXACT_REST / 2);
        let mut aside = vec![false; self.sorted.len()];
        for &j in &by_size {
            aside[j] = true;
        }
        let (mut sum, mut taken, mut others) = (0u64, Vec::new(), Vec::new());
        for (j, &w) in self.sorted.iter().enumerate() {
            if aside[j] {
                continue;
            }
            if w > 0 && sum + w <= room {
                sum += w;
                taken.push(j);
            } else {
                others.push(j);
            }
        }
        // Handed back: the last VMs taken (middle sizes, in either order).
        let back = taken.split_off(taken.len().saturating_sub(EXACT_REST / 4));
        let left = cap - taken.iter().map(|&j| self.sorted[j]).sum::<u64>();
        // In the order, so the table's set prefers the VMs earlier in it.
        let mut few: Vec<usize> = by_size
            .iter()
            .chain(&back)
            .chain(others.iter().take(EXACT_REST / 4))
            .copied()
            .collect();
        few.sort_unstable();
        let mut set = self.reach_exactly(&few, left);
        if set.is_none() && others.len() > EXACT_REST / 4 {
            let mut all: Vec<usize> = by_size
                .iter()
                .chain(&back)
                .chain(&others)
                .copied()
                .collect();
            all.sort_unstable();
            set = self.reach_exactly(&all, left);
        }
        taken.extend(set?);
        Some(self.positions(taken))
    }

    /// The indices (in the order) of a set of the VMs `js` making exactly `left`.
    fn reach_exactly(&self, js: &[usize], left: u64) -> Option<Vec<usize>> {
        let w: Vec<u64> = js.iter().map(|&j| self.sorted[j]).collect();
        if w.iter().fold(0u64, |a, &x| a.saturating_add(x)) < left {
            return None;
        }
        let r = Reach::build(&w, left);
        let left = usize::try_from(left).ok()?;
        r.reached_before(js.len(), left)
            .then(|| r.any_set(&w, left).into_iter().map(|k| js[k]).collect())
    }

    /// Positions in the cluster's VMs (ascending) of indices `js` in the order.
    fn positions(&self, js: Vec<usize>) -> Vec<usize> {
        let mut set: Vec<usize> = js
            .into_iter()
            .filter_map(|j| self.order.get(j).copied())
            .collect();
        set.sort_unstable();
        set
    }
}

//! The set of the fewest VMs whose units make one fill exactly ([`fewest_making`]), the set
//! the fewest-VMs table ([`Table::build`], then [`Table::rebuild`]) gives, found by VM
//! count instead of the table's counts per fill.
//!
//! The table costs one step per VM and fill (up to [`MAX_TIE_BREAK_CELLS`]). With `P(c,
//! j)` the fills made by exactly `c` of the first `j` VMs (one bit per fill), `P(c, j + 1)
//! = P(c, j) | P(c - 1, j) << w_j`: one pass over the VMs per count, 64 fills a step (a
//! word of bits), up to the fewest VMs that make the fill (the VMs moved to ANF beside the
//! largest fill vSAN holds: 2 to 15 on the generated 10,000-VM estate). The fewest VMs
//! making `s` with the first `j` is the least `c` with `s` in `P(c, j)`; the table takes
//! VM `j` at fill `s` exactly when that least count falls with it, so its rebuild, from the
//! last VM down with `r` VMs still to take, takes VM `j` exactly when `s` is not in `P(r,
//! j)` (not made as well without it), then looks for `s - w_j` with `r - 1`. Past
//! [`MAX_LAYERS`] counts the table is built.

use super::complement;
use super::tables::{Table, or_shifted};

/// Most cells of the fewest-VMs table that picks, at the fill the reachability table
/// chose, the fewest VMs to put on ANF: (VMs + 1) x (ANF units + 1) = 2^22 (512 KiB of
/// decision bits); past it, the set [`super::tables::Tops`] made smallest first. The set
/// is the table's, made from layers by VM count ([`fewest_making`]) where fewer steps.
pub(super) const MAX_TIE_BREAK_CELLS: u64 = 1 << 22;

/// The VMs on vSAN of the set making fill `s` whose complement (the VMs on ANF) has the
/// fewest VMs, when the fewest-VMs table of the complement's data stays within
/// [`MAX_TIE_BREAK_CELLS`] (`None` past it, or when nothing goes to ANF).
pub(super) fn fewest_on_anf(w: &[u64], s: usize) -> Option<Vec<usize>> {
    let total: u64 = w.iter().sum();
    let anf = total.saturating_sub(s as u64);
    let cells = (w.len() as u64 + 1).saturating_mul(anf.saturating_add(1));
    if anf == 0 || cells > MAX_TIE_BREAK_CELLS {
        return None;
    }
    fewest_making(w, anf).map(|set| complement(&set, w.len()))
}

/// Most VM counts the layers are built for before the table is built instead: 16 layers,
/// each as large as the table's decision bits (one bit per VM and fill).
pub(super) const MAX_LAYERS: usize = 16;

/// The VMs (positions in `w`, ascending) of the set of the fewest VMs whose units sum to
/// exactly `fill`, the one [`Table::build`]`(w, fill)` rebuilds at `fill`; `None` when no
/// set makes it. VMs of no units, or of more than `fill`, are never in it (as in the
/// table).
pub(super) fn fewest_making(w: &[u64], fill: u64) -> Option<Vec<usize>> {
    fewest_within(w, fill, MAX_LAYERS)
}

/// [`fewest_making`] with the layers built for at most `max_layers` VM counts (the tests
/// make it small to reach the table).
pub(super) fn fewest_within(w: &[u64], fill: u64, max_layers: usize) -> Option<Vec<usize>> {
    let target = usize::try_from(fill).ok()?;
    let width = target.checked_add(1)?;
    // The VMs the table can take: (position, units).
    let items: Vec<(usize, usize)> = w
        .iter()
        .enumerate()
        .filter_map(|(i, &wi)| usize::try_from(wi).ok().map(|wi| (i, wi)))
        .filter(|&(_, wi)| wi > 0 && wi < width)
        .collect();
    let words = width.div_ceil(64);
    if !any_set_makes(&items, target, words) {
        return None;
    }
    if target == 0 {
        return Some(Vec::new());
    }
    // layers[c - 1][j x words ..]: P(c, j), j in 0..=items.
    let stride = (items.len() + 1) * words;
    let mut layers: Vec<Vec<u64>> = Vec::new();
    while layers.len() < max_layers {
        let mut next: Vec<u64> = Vec::with_capacity(stride);
        next.resize(words, 0);
        for (j, &(_, wi)) in items.iter().enumerate() {
            let row = j * words;
            next.extend_from_within(row..row + words);
            let cur = &mut next[row + words..];
            match layers.last() {
                // P(c, j + 1) = P(c, j) | P(c - 1, j) << w_j.
                Some(prev) => or_shifted(cur, &prev[row..row + words], wi, usize::MAX),
                // P(0, j) = {0}: one VM alone makes its own units.
                None => cur[wi / 64] |= 1 << (wi % 64),
            }
        }
        let made = has(&next[items.len() * words..], target);
        layers.push(next);
        if made {
            return Some(rebuild(&items, &layers, target, words));
        }
    }
    let t = Table::build(w, fill);
    (t.count.last().copied() != Some(u32::MAX)).then(|| t.rebuild(w, target))
}

fn has(bits: &[u64], s: usize) -> bool {
    bits.get(s / 64).is_some_and(|b| b >> (s % 64) & 1 == 1)
}

/// Whether some set of `items` sums to exactly `target` (one bit per fill, `words` words).
fn any_set_makes(items: &[(usize, usize)], target: usize, words: usize) -> bool {
    let mut reach = vec![0u64; words];
    reach[0] = 1;
    for &(_, wi) in items {
        // From the top word down, so each word reads the words below before they change.
        let (q, r) = (wi / 64, wi % 64);
        for j in (q..words).rev() {
            let mut v = reach[j - q] << r;
            if r > 0 && j > q {
                v |= reach[j - q - 1] >> (64 - r);
            }
            reach[j] |= v;
        }
    }
    has(&reach, target)
}

/// The table's set making `target` with `layers.len()` VMs (see the module docs).
fn rebuild(
    items: &[(usize, usize)],
    layers: &[Vec<u64>],
    target: usize,
    words: usize,
) -> Vec<usize> {
    let (mut s, mut r) = (target, layers.len());
    let mut out = Vec::with_capacity(r);
    for (j, &(i, wi)) in items.iter().enumerate().rev() {
        if r == 0 {
            break;
        }
        // Not made as well by r of the first j VMs: this one is taken.
        if !has(&layers[r - 1][j * words..(j + 1) * words], s) {
            out.push(i);
            s -= wi;
            r -= 1;
        }
    }
    out.reverse();
    out
}

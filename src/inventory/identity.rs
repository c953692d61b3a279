//! One estate across inputs: which `VI SDK Server` spellings are one vCenter
//! ([`VcenterSets`]), and which VM rows of different inputs are one VM ([`shared_vms`]).
//!
//! - A vCenter is known by its instance UUID (`VI SDK UUID`) where the row has one, else by
//!   its server name normalised ([`normalise_server`]: surrounding blanks, case, a trailing
//!   dot). A name whose rows carry no UUID is the vCenter of that UUID when exactly one
//!   UUID is seen with that name.
//! - Two vCenters known by different names (an IP address and a name, a short and a full
//!   name) are one when their VMs coincide: at least half of the smaller one's VMs have a
//!   VM of the other with the same `VM UUID`, or the same `VM ID` together with the same
//!   VM name (a `VM ID` alone, `vm-41`, repeats across vCenters). Two different instance
//!   UUIDs are never one vCenter.
//! - A VM is known by (vCenter, `VM UUID`), else (vCenter, `VM ID`); a VM without a known
//!   vCenter, or without either column, is left to [`Vm::is_same_vm`]. A `VM ID` match
//!   under another name, with no UUID to confirm it, is a rename only where the two inputs
//!   agree on most names ([`shared_vms`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::{Inventory, Origin, Vm, Warning, WarningKind};

/// A server name as compared: trimmed, lower case, without a trailing dot
/// (`VC1.Example.Test.` -> `vc1.example.test`).
pub fn normalise_server(name: &str) -> String {
    name.trim().trim_end_matches('.').to_lowercase()
}

/// Disjoint sets over `0..n` (union by index, path halving).
#[derive(Debug, Clone)]
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while let Some(&p) = self.parent.get(i) {
            if p == i {
                break;
            }
            let grand = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(i) {
                *slot = grand;
            }
            i = grand;
        }
        i
    }

    /// Joins the sets of `a` and `b`; the smaller root stays the root (first seen).
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (keep, join) = (ra.min(rb), ra.max(rb));
        if let Some(slot) = self.parent.get_mut(join) {
            *slot = keep;
        }
    }
}

/// What a vCenter node is known by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Node {
    /// `VI SDK UUID`, lower case.
    Uuid(String),
    /// `VI SDK Server`, normalised.
    Name(String),
}

/// The vCenters of a set of inputs, each spelling of a server sorted into one.
#[derive(Debug, Clone, Default)]
pub struct VcenterSets {
    /// Per input, per VM (as given): the VM's vCenter (an index into `spellings`), `None`
    /// when the row names none.
    vm_sets: Vec<Vec<Option<usize>>>,
    /// Per vCenter: the server spellings as written, first seen first.
    spellings: Vec<Vec<String>>,
    /// Per vCenter: why its spellings were taken as one, in the order found.
    evidence: Vec<Vec<String>>,
    /// Normalised server name -> its vCenter; `None` when two vCenters share the name.
    by_name: HashMap<String, Option<usize>>,
}

impl VcenterSets {
    /// Sorts the VMs of `parts` (one slice per input, in input order) into vCenters. See the
    /// module's rule. O(VMs) but for the pairs of vCenters compared.
    pub fn of(parts: &[&[Vm]]) -> VcenterSets {
        let mut nodes: BTreeMap<Node, usize> = BTreeMap::new();
        let mut order: Vec<Node> = Vec::new();
        let mut node_spellings: Vec<Vec<String>> = Vec::new();
        let mut vm_nodes: Vec<Vec<Option<usize>>> = Vec::with_capacity(parts.len());
        for vms in parts {
            let mut per_vm = Vec::with_capacity(vms.len());
            for vm in *vms {
                let node = match (&vm.vi_sdk_uuid, &vm.vi_sdk_server) {
                    (Some(u), _) => Some(Node::Uuid(u.trim().to_lowercase())),
                    (None, Some(s)) => Some(Node::Name(normalise_server(s))),
                    (None, None) => None,
                };
                let id = node.map(|n| {
                    *nodes.entry(n.clone()).or_insert_with(|| {
                        order.push(n);
                        node_spellings.push(Vec::new());
                        order.len() - 1
                    })
                });
                if let (Some(id), Some(server)) = (id, &vm.vi_sdk_server)
                    && let Some(list) = node_spellings.get_mut(id)
                    && !list.iter().any(|l| **l == **server)
                {
                    list.push(server.to_string());
                }
                per_vm.push(id);
            }
            vm_nodes.push(per_vm);
        }
        let mut sets = UnionFind::new(order.len());
        let mut evidence: Vec<Vec<String>> = vec![Vec::new(); order.len()];
        let uuid_of: Vec<Option<&str>> = order
            .iter()
            .map(|n| match n {
                Node::Uuid(u) => Some(u.as_str()),
                Node::Name(_) => None,
            })
            .collect();
        for (id, spellings) in node_spellings.iter().enumerate() {
            if let (Some(uuid), [_, _, ..]) = (uuid_of[id], spellings.as_slice()) {
                evidence[id].push(format!("the same VI SDK UUID '{uuid}'"));
            }
        }
        // A name without UUID joins the one UUID seen with that name.
        let mut uuids_of_name: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (id, spellings) in node_spellings.iter().enumerate() {
            if uuid_of[id].is_some() {
                for s in spellings {
                    uuids_of_name
                        .entry(normalise_server(s))
                        .or_default()
                        .insert(id);
                }
            }
        }
        for (id, node) in order.iter().enumerate() {
            if let Node::Name(name) = node
                && let Some(uuids) = uuids_of_name.get(name)
                && let [one] = uuids.iter().copied().collect::<Vec<_>>().as_slice()
            {
                sets.union(id, *one);
                evidence[id].push(format!(
                    "'{name}' is written with one VI SDK UUID only ('{}')",
                    uuid_of[*one].unwrap_or_default()
                ));
            }
        }
        coincide(
            parts,
            &vm_nodes,
            (&uuid_of, &node_spellings),
            &mut sets,
            &mut evidence,
        );

        // Dense vCenter ids by first node.
        let mut dense: BTreeMap<usize, usize> = BTreeMap::new();
        let mut out = VcenterSets::default();
        for id in 0..order.len() {
            let root = sets.find(id);
            let set = *dense.entry(root).or_insert_with(|| {
                out.spellings.push(Vec::new());
                out.evidence.push(Vec::new());
                out.spellings.len() - 1
            });
            for s in &node_spellings[id] {
                if !out.spellings[set].contains(s) {
                    out.spellings[set].push(s.clone());
                }
                let seen = out.by_name.entry(normalise_server(s)).or_insert(Some(set));
                if *seen != Some(set) {
                    *seen = None;
                }
            }
            out.evidence[set].append(&mut evidence[id]);
        }
        out.vm_sets = vm_nodes
            .iter()
            .map(|vms| {
                vms.iter()
                    .map(|n| n.and_then(|n| dense.get(&sets.find(n)).copied()))
                    .collect()
            })
            .collect();
        out
    }

    /// The vCenter of VM `vm` of input `part`; `None` when it names none.
    pub fn vm_set(&self, part: usize, vm: usize) -> Option<usize> {
        self.vm_sets.get(part)?.get(vm).copied().flatten()
    }

    /// The spelling every row of vCenter `set` is given: the first seen.
    pub fn canonical(&self, set: usize) -> Option<&str> {
        self.spellings.get(set)?.first().map(String::as_str)
    }

    /// The spelling a host, cluster or datastore row that names `server` is given: its
    /// vCenter's [`canonical`](Self::canonical) one; `None` when the name is of no VM's
    /// vCenter or of two.
    pub fn canonical_of_name(&self, server: &str) -> Option<&str> {
        let set = (*self.by_name.get(&normalise_server(server))?)?;
        self.canonical(set)
    }

    /// One message per vCenter written two or more ways: the spellings taken as one, the
    /// spelling used, and the evidence.
    pub fn messages(&self) -> Vec<String> {
        self.spellings
            .iter()
            .zip(&self.evidence)
            .filter(|(s, _)| s.len() > 1)
            .map(|(spellings, evidence)| {
                let quoted: Vec<String> = spellings.iter().map(|s| format!("'{s}'")).collect();
                let quoted = match quoted.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => quoted.concat(),
                };
                let why = if evidence.is_empty() {
                    "the same name but for case or a trailing dot".to_string()
                } else {
                    evidence.join("; ")
                };
                format!(
                    "VI SDK Server {} taken as one vCenter ({why}): its VMs, hosts, clusters \
                     and datastores are written '{}' and counted once",
                    quoted,
                    spellings.first().map(String::as_str).unwrap_or_default()
                )
            })
            .collect()
    }
}

/// Whether two server names may be one vCenter's: an IP address and anything, or a short
/// name and a full name that starts with it (`vc1`, `vc1.example.test`). Two full names
/// (`vc-a.example.test`, `vc-b.example.test`) are two vCenters whatever their VMs.
fn may_be_one(a: &str, b: &str) -> bool {
    let ip = |s: &str| s.parse::<std::net::IpAddr>().is_ok();
    let short_of = |short: &str, full: &str| {
        !short.contains('.') && full.split('.').next() == Some(short) && full.contains('.')
    };
    ip(a) || ip(b) || short_of(a, b) || short_of(b, a)
}

/// Joins the vCenters whose VMs coincide (see the module's rule) when their names may be
/// one's ([`may_be_one`]), never two with different UUIDs. `nodes`: per vCenter node, its
/// UUID and its spellings.
fn coincide(
    parts: &[&[Vm]],
    vm_nodes: &[Vec<Option<usize>>],
    nodes: (&[Option<&str>], &[Vec<String>]),
    sets: &mut UnionFind,
    evidence: &mut [Vec<String>],
) {
    let (uuid_of, spellings) = nodes;
    let mut names: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (node, list) in spellings.iter().enumerate() {
        let root = sets.find(node);
        names
            .entry(root)
            .or_default()
            .extend(list.iter().map(|s| normalise_server(s)));
    }
    // Evidence key (VM UUID, or VM ID + name) -> the vCenters with such a VM.
    let mut index: HashMap<String, BTreeSet<usize>> = HashMap::new();
    let mut size: BTreeMap<usize, usize> = BTreeMap::new();
    let keys = |vm: &Vm| {
        let uuid = vm
            .vm_uuid
            .as_ref()
            .map(|u| format!("u:{}", u.to_lowercase()));
        let id = vm.vm_id.as_ref().map(|i| format!("i:{i}\u{0}{}", vm.name));
        uuid.into_iter().chain(id)
    };
    let each = || {
        parts
            .iter()
            .zip(vm_nodes)
            .flat_map(|(vms, nodes)| vms.iter().zip(nodes))
            .filter_map(|(vm, n)| n.map(|n| (vm, n)))
    };
    for (_, node) in each() {
        *size.entry(sets.find(node)).or_default() += 1;
    }
    if size.len() < 2 {
        return;
    }
    for (vm, node) in each() {
        let set = sets.find(node);
        for k in keys(vm) {
            index.entry(k).or_default().insert(set);
        }
    }
    // (vCenter, other vCenter) -> VMs of the first with a VM of the other.
    let mut shared: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (vm, node) in each() {
        let set = sets.find(node);
        let others: BTreeSet<usize> = keys(vm)
            .filter_map(|k| index.get(&k))
            .flatten()
            .copied()
            .filter(|&o| o != set)
            .collect();
        for o in others {
            *shared.entry((set, o)).or_default() += 1;
        }
    }
    let mut uuid_sets: BTreeMap<usize, Option<&str>> = BTreeMap::new();
    for (node, uuid) in uuid_of.iter().enumerate() {
        let root = sets.find(node);
        let entry = uuid_sets.entry(root).or_default();
        *entry = entry.or(*uuid);
    }
    // The pairs, the most VMs in common first: a vCenter without UUID that coincides with
    // two of different UUIDs joins the one it shares most with.
    let mut pairs: Vec<(usize, usize, usize, usize)> = shared
        .iter()
        .filter(|((a, b), _)| a < b)
        .map(|(&(a, b), &n_ab)| {
            let common = n_ab.min(shared.get(&(b, a)).copied().unwrap_or(0));
            let smaller = size
                .get(&a)
                .copied()
                .unwrap_or(0)
                .min(size.get(&b).copied().unwrap_or(0));
            (common, a, b, smaller)
        })
        .collect();
    pairs.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    for (common, a, b, smaller) in pairs {
        let named = |set: usize| names.get(&set).into_iter().flatten();
        if !named(a).any(|x| named(b).any(|y| may_be_one(x, y))) {
            continue;
        }
        let (ra, rb) = (sets.find(a), sets.find(b));
        let (ua, ub) = (
            uuid_sets.get(&ra).copied().flatten(),
            uuid_sets.get(&rb).copied().flatten(),
        );
        if ra == rb || common == 0 || common * 2 < smaller || (ua.is_some() && ub.is_some()) {
            continue;
        }
        sets.union(ra, rb);
        let root = sets.find(ra);
        uuid_sets.insert(root, ua.or(ub));
        if let Some(e) = evidence.get_mut(a) {
            e.push(format!(
                "{common} of {smaller} VMs of the smaller have a VM of the other with the same \
                 VM UUID, or the same VM ID and name"
            ));
        }
    }
}

/// The VMs that two or more inputs share: each group one VM, as (input, VM index) pairs, one
/// per input (the first of its rows there), in input order. Rows are one VM when their
/// vCenter ([`VcenterSets`]) is the same and their `VM UUID` (case-insensitively), else
/// their `VM ID`, is; two rows with the same `VM ID` but two different `VM UUID`s stay
/// apart, and so do rows matched by `VM ID` alone under another name (neither `VM UUID`
/// nor `VI SDK UUID` on both) unless at least half of the matches of their two inputs keep
/// their names (else the inputs are two vCenters behind one address). Groups in the order
/// of their first row.
pub fn shared_vms(parts: &[&[Vm]], sets: &VcenterSets) -> Vec<Vec<(usize, usize)>> {
    let at: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, vms)| (0..vms.len()).map(move |i| (p, i)))
        .collect();
    let vm = |n: usize| at.get(n).and_then(|&(p, i)| parts.get(p)?.get(i));
    let mut uf = UnionFind::new(at.len());
    let mut first: HashMap<(usize, bool, String), usize> = HashMap::new();
    let mut weak: Vec<(usize, usize, bool)> = Vec::new();
    for (n, &(p, i)) in at.iter().enumerate() {
        let (Some(set), Some(row)) = (sets.vm_set(p, i), vm(n)) else {
            continue;
        };
        if let Some(u) = &row.vm_uuid {
            let other = *first.entry((set, true, u.to_lowercase())).or_insert(n);
            uf.union(other, n);
        }
        if let Some(id) = &row.vm_id {
            let other = *first.entry((set, false, id.clone())).or_insert(n);
            let Some(o) = vm(other).filter(|_| other != n) else {
                continue;
            };
            let both = |f: fn(&Vm) -> Option<&str>| f(o).zip(f(row));
            match both(|v| v.vm_uuid.as_deref()) {
                Some((a, b)) if !a.eq_ignore_ascii_case(b) => {}
                Some(_) => uf.union(other, n),
                None if both(|v| v.vi_sdk_uuid.as_deref()).is_some() => uf.union(other, n),
                None => weak.push((other, n, o.name == row.name)),
            }
        }
    }
    // Matches by `VM ID` without an instance UUID or VM UUID on both sides: a pair of
    // inputs whose VM IDs match under other names in the main is two vCenters behind one
    // address, not renames; renames count where at least half of the pair's such matches
    // keep their name.
    let mut agree: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
    let part_of = |n: usize| at.get(n).map_or(0, |a| a.0);
    for &(a, b, same) in &weak {
        let e = agree.entry((part_of(a), part_of(b))).or_default();
        e.0 += 1;
        e.1 += usize::from(same);
    }
    for (a, b, same) in weak {
        let (total, named) = agree
            .get(&(part_of(a), part_of(b)))
            .copied()
            .unwrap_or_default();
        if same || named * 2 >= total {
            uf.union(a, b);
        }
    }
    let mut groups: BTreeMap<usize, Vec<(usize, usize)>> = BTreeMap::new();
    for (n, &(p, i)) in at.iter().enumerate() {
        let group = groups.entry(uf.find(n)).or_default();
        if !group.iter().any(|&(q, _)| q == p) {
            group.push((p, i));
        }
    }
    groups.into_values().filter(|g| g.len() > 1).collect()
}

/// A vMetaData `xlsx creation datetime` as read by [`created_day`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Created {
    /// The date as a day count (Excel's serial day: 1 is 1900-01-01; the fraction is the
    /// time of day, 0 when the text has none).
    Day(f64),
    /// A slashed or dashed date whose first two figures are both 12 or less and differ
    /// (`06/01/2025`): month first (1 June) or day first (6 January) cannot be told apart.
    /// It decides which of two exports is newer only where both readings do.
    Ambiguous {
        /// The day count read month first (`06/01/2025`: 1 June).
        month_first: f64,
        /// The day count read day first (`06/01/2025`: 6 January).
        day_first: f64,
    },
}

impl Created {
    /// The earliest day count the text may mean.
    pub fn earliest(&self) -> f64 {
        match *self {
            Created::Day(d) => d,
            Created::Ambiguous {
                month_first,
                day_first,
            } => month_first.min(day_first),
        }
    }

    /// The latest day count the text may mean.
    pub fn latest(&self) -> f64 {
        match *self {
            Created::Day(d) => d,
            Created::Ambiguous {
                month_first,
                day_first,
            } => month_first.max(day_first),
        }
    }

    /// Whether this date is surely after `other` (every reading of it after every reading
    /// of `other`).
    pub fn is_after(&self, other: &Created) -> bool {
        self.earliest() > other.latest()
    }
}

/// A vMetaData `xlsx creation datetime` as a day count, for comparing two exports' dates.
/// Reads, each with or without a time (`10:22`, `10:22:11`, `5:25:31 PM`, after a blank or
/// a `T`):
///
/// - an Excel serial number (`43194.5`);
/// - a year-first date, `YYYY/MM/DD` (as dsplan writes an `.xlsx` date cell, and RVTools
///   stores the field as one), `YYYY-MM-DD` or `YYYY.MM.DD`;
/// - a dotted `DD.MM.YYYY`: day first, the European form (`01.06.2025` is 1 June);
/// - a slashed or dashed `A/B/YYYY`: day first when `A` is over 12 (`13/4/2018`), month
///   first when `B` is (`4/13/2018`), either way when `A` and `B` are equal (`4/4/2018`),
///   else [`Created::Ambiguous`] with both readings.
///
/// `None` for anything else (a month over 12, a day over 31, a year outside 1900..=9999, an
/// unreadable time).
pub fn created_day(text: &str) -> Option<Created> {
    let text = text.trim();
    if let Ok(serial) = text.parse::<f64>() {
        return (serial.is_finite() && serial > 0.0).then_some(Created::Day(serial));
    }
    let (date, time) = match text.split_once([' ', 'T']) {
        Some((d, t)) => (d, t.trim()),
        None => (text, ""),
    };
    let figures: Vec<(i64, usize)> = date
        .split(['-', '/', '.'])
        .map(|f| Some((f.trim().parse::<i64>().ok()?, f.trim().len())))
        .collect::<Option<_>>()?;
    let dotted = date.contains('.');
    let (y, m, d) = match figures.as_slice() {
        [(y, digits), (m, _), (d, _)] if *digits == 4 || *y > 31 => (*y, *m, *d),
        [(d, _), (m, _), (y, _)] if dotted || *d > 12 => (*y, *m, *d),
        [(m, _), (d, _), (y, _)] if *d > 12 || m == d => (*y, *m, *d),
        [(a, _), (b, _), (y, _)] => {
            // Both readings must be dates for the text to be one.
            let valid = (1..=12).contains(a) && (1..=12).contains(b);
            if !valid || !(1900..=9999).contains(y) {
                return None;
            }
            let time = day_fraction(time)?;
            return Some(Created::Ambiguous {
                month_first: days_from_civil(*y, *a, *b) as f64 + time,
                day_first: days_from_civil(*y, *b, *a) as f64 + time,
            });
        }
        _ => return None,
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=9999).contains(&y) {
        return None;
    }
    Some(Created::Day(
        days_from_civil(y, m, d) as f64 + day_fraction(time)?,
    ))
}

/// Days from 1899-12-30 (Excel's day 0 for serials past February 1900) to `y-m-d`.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    // 1970-01-01 is day 719,468 of this count and Excel day 25,569.
    era * 146_097 + doe - 719_468 + 25_569
}

/// `5:25:31 PM`, `10:22`, `` as a fraction of a day; `None` when unreadable.
fn day_fraction(time: &str) -> Option<f64> {
    if time.is_empty() {
        return Some(0.0);
    }
    let upper = time.to_ascii_uppercase();
    let (clock, pm) = match upper.split_once(' ') {
        Some((c, "PM")) => (c.to_string(), Some(true)),
        Some((c, "AM")) => (c.to_string(), Some(false)),
        Some(_) => return None,
        None => (upper.trim_end_matches('Z').to_string(), None),
    };
    let parts: Vec<f64> = clock
        .split(':')
        .map(|p| p.parse::<f64>().ok())
        .collect::<Option<_>>()?;
    let (mut h, mi, s) = match parts.as_slice() {
        [h, m] => (*h, *m, 0.0),
        [h, m, s] => (*h, *m, *s),
        _ => return None,
    };
    match pm {
        Some(true) if h < 12.0 => h += 12.0,
        Some(false) if h == 12.0 => h = 0.0,
        _ => {}
    }
    (h < 24.0 && mi < 60.0 && s < 61.0).then_some((h * 3600.0 + mi * 60.0 + s) / 86_400.0)
}

/// Gives each VM of one input (`inventory`, as read) that names no vCenter in vInfo, vCPU or
/// vMemory the input's: the one vCenter the input names (its VMs, vHost, vCluster and
/// vDatastore rows), else the one vCenter with a cluster of the VM's cluster name. Each way
/// is one warning with the count and the first VM. So a VM without child rows stays in its
/// cluster, not in one of its own under an unknown vCenter.
pub fn fill_vcenters(inventory: &mut Inventory) {
    if !inventory.vms.iter().any(|vm| vm.vi_sdk_server.is_none()) {
        return;
    }
    // Normalised vCenter -> its first spelling, one copy for every VM given it.
    let mut names: BTreeMap<String, Arc<str>> = BTreeMap::new();
    // Cluster name -> the vCenters (normalised) with a cluster of that name.
    let mut clusters: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut note = |server: Option<&str>, cluster: Option<&str>| {
        if let Some(server) = server {
            let name = normalise_server(server);
            names
                .entry(name.clone())
                .or_insert_with(|| Arc::from(server));
            if let Some(cluster) = cluster {
                clusters
                    .entry(cluster.to_string())
                    .or_default()
                    .insert(name);
            }
        }
    };
    for vm in &inventory.vms {
        note(vm.vi_sdk_server.as_deref(), vm.cluster.as_deref());
    }
    for h in &inventory.hosts {
        note(h.vi_sdk_server.as_deref(), h.cluster.as_deref());
    }
    for c in &inventory.clusters {
        note(c.vi_sdk_server.as_deref(), Some(&c.name));
    }
    for d in &inventory.datastores {
        note(d.vi_sdk_server.as_deref(), None);
    }
    let only = match names.values().collect::<Vec<_>>().as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    };
    // Per way (the one vCenter, the cluster's): the count and the first VM's name, vCenter
    // and origin.
    type Filled = (usize, Option<(String, Arc<str>, Origin)>);
    let mut filled: [Filled; 2] = Default::default();
    for vm in inventory
        .vms
        .iter_mut()
        .filter(|vm| vm.vi_sdk_server.is_none())
    {
        let by_cluster = || {
            let set = clusters.get(vm.cluster.as_deref()?)?;
            let mut all = set.iter();
            match (all.next(), all.next()) {
                (Some(one), None) => names.get(one).cloned(),
                _ => None,
            }
        };
        let (way, server) = match (&only, by_cluster()) {
            (Some(one), _) => (0, one.clone()),
            (None, Some(server)) => (1, server),
            (None, None) => continue,
        };
        vm.vi_sdk_server = Some(server.clone());
        let entry = &mut filled[way];
        entry.0 += 1;
        entry
            .1
            .get_or_insert_with(|| (vm.name.clone(), server, vm.origin.clone()));
    }
    for (way, (n, first)) in filled.into_iter().enumerate() {
        let Some((name, server, origin)) = first else {
            continue;
        };
        let why = if way == 0 {
            "the one vCenter the input names"
        } else {
            "the one vCenter with a cluster of their cluster's name"
        };
        inventory.warnings.push(Warning {
            column: Some("VI SDK Server".to_string()),
            ..Warning::at_row(
                WarningKind::Identity,
                &origin,
                format!(
                    "vCenter of {} VM(s) without one in vInfo, vCPU or vMemory taken as '{}', \
                     {why} (first: '{}'): they stay in their source clusters",
                    crate::numbers::group_thousands(n as f64, 0),
                    crate::numbers::clip(&server),
                    crate::numbers::clip(&name)
                ),
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::Origin;

    fn vm(name: &str, server: &str, uuid: Option<&str>, id: &str, vm_uuid: &str) -> Vm {
        Vm {
            vi_sdk_server: Some(server.into()),
            vi_sdk_uuid: uuid.map(Into::into),
            vm_id: Some(id.to_string()),
            vm_uuid: Some(vm_uuid.to_string()),
            ..Vm::new(name, Origin::default())
        }
    }

    #[test]
    fn server_names_compare_without_case_blanks_or_trailing_dot() {
        assert_eq!(normalise_server(" VC1.Example.Test. "), "vc1.example.test");
        assert_eq!(normalise_server("10.0.0.1"), "10.0.0.1");
    }

    #[test]
    fn one_uuid_or_coinciding_vms_make_one_vcenter_two_uuids_never() {
        // Input 0: vc1 (uuid U) a, b. Input 1: 10.0.0.1 (uuid U) a: one vCenter by UUID.
        // Input 2: vc1-short without UUID, a and b by VM UUID: 2 of 2 shared -> one.
        // Input 3: vc9 without UUID, only c (VM ID vm-1 like a, another name): no evidence.
        // Input 4: vc1 with uuid V: another instance, never joined.
        let p0 = [
            vm("a", "vc1", Some("U"), "vm-1", "ua"),
            vm("b", "vc1", Some("U"), "vm-2", "ub"),
        ];
        let p1 = [vm("a", "10.0.0.1", Some("u"), "vm-1", "ua")];
        let p2 = [
            vm("a", "vc1-short", None, "vm-1", "UA"),
            vm("b", "vc1-short", None, "vm-2", "ub"),
        ];
        let p3 = [vm("c", "vc9", None, "vm-1", "uc")];
        let p4 = [vm("a", "vc1", Some("V"), "vm-1", "ua")];
        let parts: [&[Vm]; 5] = [&p0, &p1, &p2, &p3, &p4];
        let sets = VcenterSets::of(&parts);
        let s = |p, i| sets.vm_set(p, i);
        assert_eq!(s(0, 0), s(1, 0));
        assert_eq!(s(0, 0), s(2, 1));
        assert_ne!(s(0, 0), s(3, 0));
        assert_ne!(s(0, 0), s(4, 0));
        assert_eq!(sets.canonical(s(2, 0).unwrap_or(9)), Some("vc1"));
        // vc1 is the name of two instances: hosts naming it are left as written.
        assert_eq!(sets.canonical_of_name("VC1-SHORT."), Some("vc1"));
        assert_eq!(sets.canonical_of_name("vc1"), None);
        let messages = sets.messages();
        assert_eq!(messages.len(), 1, "{messages:#?}");
        assert!(
            messages[0].starts_with(
                "VI SDK Server 'vc1', '10.0.0.1' and 'vc1-short' taken as one vCenter (the \
                 same VI SDK UUID 'u'; 2 of 2 VMs"
            ),
            "{}",
            messages[0]
        );
        // The VMs shared: a in inputs 0, 1, 2 (not 4: another vCenter); b in 0 and 2.
        assert_eq!(
            shared_vms(&parts, &sets),
            [vec![(0, 0), (1, 0), (2, 0)], vec![(0, 1), (2, 1)]]
        );
    }

    /// The day count of an unambiguous date, else `None`.
    fn day(text: &str) -> Option<f64> {
        match created_day(text) {
            Some(Created::Day(d)) => Some(d),
            _ => None,
        }
    }

    #[test]
    fn creation_dates_read_as_excel_days() {
        // 2018-04-04 is Excel day 43,194; 5:25:31 PM is 62,731 s of 86,400.
        let d = day("4/4/2018 5:25:31 PM").unwrap_or_default();
        assert!((d - (43_194.0 + 62_731.0 / 86_400.0)).abs() < 1e-9, "{d}");
        assert_eq!(day("2018-04-04"), Some(43_194.0));
        assert_eq!(day("13/4/2018"), Some(43_203.0));
        // 4/13/2018: month first, the 13th; 43,194 + 9 days.
        assert_eq!(day("4/13/2018"), Some(43_203.0));
        assert_eq!(day("43194.5"), Some(43_194.5));
        assert_eq!(created_day("yesterday"), None);
        assert_eq!(created_day("2018-13-04"), None);
        assert_eq!(created_day("2025/13/01"), None);
        assert_eq!(created_day("01.13.2025"), None);
    }

    #[test]
    fn year_first_dates_are_read_with_or_without_time() {
        // 2025-01-01 is Excel day 45,658 (2018-04-04 is 43,194; 2018-04-04 to 2025-01-01 is
        // 272 days of 2018 + 365 * 6 + 2 leap days (2020, 2024) = 2,464). 2025-06-01 is
        // 151 days later (31 + 28 + 31 + 30 + 31): 45,809. 10:00:00 is 10 / 24 of a day.
        assert_eq!(day("2025/01/01"), Some(45_658.0));
        assert_eq!(day("2025-01-01"), Some(45_658.0));
        assert_eq!(day("2025/06/01 10:00:00"), Some(45_809.0 + 10.0 / 24.0));
        assert_eq!(day("2025-06-01T10:00"), Some(45_809.0 + 10.0 / 24.0));
        assert_eq!(day("2025.06.01"), Some(45_809.0));
    }

    #[test]
    fn dotted_dates_are_day_first_and_slashed_ones_may_be_ambiguous() {
        // 01.06.2025 is 1 June (45,809), 06.01.2025 is 6 January (45,658 + 5 = 45,663).
        assert_eq!(day("01.06.2025"), Some(45_809.0));
        assert_eq!(day("06.01.2025 10:00:00"), Some(45_663.0 + 10.0 / 24.0));
        // 06/01/2025: 1 June (month first, 45,809) or 6 January (day first, 45,663).
        let june_or_january = Created::Ambiguous {
            month_first: 45_809.0,
            day_first: 45_663.0,
        };
        assert_eq!(created_day("06/01/2025"), Some(june_or_january));
        assert_eq!(
            created_day("6-1-2025 12:00"),
            Some(Created::Ambiguous {
                month_first: 45_809.5,
                day_first: 45_663.5
            })
        );
        assert_eq!(created_day("06/01/2025 25:00"), None);
        // Against 1 January 2025 (45,658) both readings are later: it decides; against
        // 1 March 2025 (45,658 + 31 + 28 = 45,717) it does not, either way round.
        let january = Created::Day(45_658.0);
        let march = Created::Day(45_717.0);
        assert!(june_or_january.is_after(&january) && !january.is_after(&june_or_january));
        assert!(!june_or_january.is_after(&march) && !march.is_after(&june_or_january));
        // Times compare when the days are equal: 10:00 after 09:00 the same day.
        let at = |t: &str| created_day(&format!("2025-06-01 {t}")).unwrap_or(Created::Day(0.0));
        assert!(at("10:00").is_after(&at("09:00")) && !at("09:00").is_after(&at("10:00")));
    }
}

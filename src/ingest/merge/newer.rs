//! The merge's first step: one estate identity across inputs
//! ([`crate::inventory::identity`]). Every spelling of one vCenter is written as its first
//! ([`VcenterSets::canonical`]), so hosts, clusters and datastores of it are kept once by
//! the merge; a VM that two inputs hold is counted once, from the newer export.
//!
//! Which copy of a shared VM is used, per pair of inputs: the newer export's, by vMetaData's
//! `xlsx creation datetime` ([`created_day`]) when both inputs have one and one is surely
//! later (a slashed date that reads both ways, `06/01/2025`, decides only where both
//! readings do: [`Created::is_after`]), else the later given's. Among three or more inputs holding one VM, the copy that is
//! newer than every other; without one (dates known for some inputs only), the last given.
//! One warning per pair (on the input whose copies are not used) says how many VMs they
//! share, how many were renamed, which figures were used and why, and how the copies
//! differ. Copies with the same figures that [`Vm::is_same_vm`] already calls one VM are
//! left to the merge, which keeps the first (nothing to choose between).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::inventory::identity::{Created, VcenterSets, created_day, shared_vms};
use crate::inventory::{DuplicateVm, Inventory, Origin, Vm, VmKey, Warning, WarningKind};

/// What [`one_estate`] found: its warnings and the VM rows it dropped as copies.
#[derive(Debug, Default)]
pub(super) struct OneEstate {
    /// One per vCenter written two ways, one per pair of inputs sharing VMs.
    pub warnings: Vec<Warning>,
    /// The copies not used, each with the row of the copy used.
    pub duplicates: Vec<DuplicateVm>,
}

/// Gives every vCenter one spelling across `parts` and drops from each input the copies of
/// VMs another input holds in a newer export. See the module's rule.
pub(super) fn one_estate(parts: &mut [Inventory]) -> OneEstate {
    let mut out = OneEstate::default();
    // One input: nothing to share (its own rows are the merge's to sort).
    if parts.len() < 2 {
        return out;
    }
    let sets = {
        let views: Vec<&[Vm]> = parts.iter().map(|p| p.vms.as_slice()).collect();
        VcenterSets::of(&views)
    };
    out.warnings.extend(
        sets.messages()
            .into_iter()
            .map(|m| Warning::plan_wide(WarningKind::Identity, m)),
    );
    for (p, part) in parts.iter_mut().enumerate() {
        canonicalise(p, part, &sets);
    }
    let groups = {
        let views: Vec<&[Vm]> = parts.iter().map(|p| p.vms.as_slice()).collect();
        shared_vms(&views, &sets)
    };
    if groups.is_empty() {
        return out;
    }
    let dates: Vec<Option<(Created, String)>> = parts
        .iter()
        .map(|p| {
            let text = p.sources.first()?.created.clone()?;
            Some((created_day(&text)?, text))
        })
        .collect();
    let newer = |a: usize, b: usize| match (&dates[a], &dates[b]) {
        (Some((x, _)), Some((y, _))) if x.is_after(y) || y.is_after(x) => x.is_after(y),
        _ => a > b,
    };
    let mut pairs: BTreeMap<(usize, usize), Pair> = BTreeMap::new();
    for group in groups {
        let winner = group
            .iter()
            .copied()
            .find(|&(w, _)| group.iter().all(|&(o, _)| o == w || newer(w, o)))
            .or_else(|| group.iter().copied().max());
        let Some((wp, wi)) = winner else { continue };
        for &(lp, li) in group.iter().filter(|&&(p, _)| p != wp) {
            let (Some(w), Some(l)) = (vm_at(parts, wp, wi), vm_at(parts, lp, li)) else {
                continue;
            };
            pairs.entry((lp, wp)).or_default().add(li, w, l);
        }
    }
    // Copies with the same figures that the merge's rule already calls one VM: the merge
    // keeps the first.
    pairs.retain(|_, p| p.differs || p.renamed > 0 || !p.old_rule_same);
    let counts: Vec<usize> = parts.iter().map(|p| p.vms.len()).collect();
    let mut gone: BTreeMap<usize, HashMap<usize, Origin>> = BTreeMap::new();
    for (&(lp, _), pair) in &pairs {
        let map = gone.entry(lp).or_default();
        map.extend(pair.shared.iter().cloned());
    }
    let mut children: HashMap<usize, HashMap<usize, usize>> = HashMap::new();
    for (lp, map) in gone {
        if let Some(part) = parts.get_mut(lp) {
            children.insert(lp, drop_copies(part, &map, &mut out.duplicates));
        }
    }
    for ((lp, wp), pair) in pairs {
        let why = why(lp, wp, &dates, newer(wp, lp));
        let dropped = children.get(&lp);
        let rows = pair
            .shared
            .iter()
            .filter_map(|(i, _)| dropped?.get(i))
            .sum();
        out.warnings.push(pair.warning(
            &parts[lp],
            &input_name(&parts[wp]),
            &why,
            (counts[lp], counts[wp]),
            rows,
        ));
    }
    out
}

/// VM `i` of input `p`.
fn vm_at(parts: &[Inventory], p: usize, i: usize) -> Option<&Vm> {
    parts.get(p)?.vms.get(i)
}

/// The name an input goes by in warnings.
fn input_name(part: &Inventory) -> String {
    part.inputs.first().cloned().unwrap_or_default()
}

/// Writes the servers of `part` (input `p`) as their vCenter's first spelling; the disks,
/// partitions and snapshots of a VM whose key changes follow it (when no other VM of the
/// input has its key).
fn canonicalise(p: usize, part: &mut Inventory, sets: &VcenterSets) {
    let mut rekeyed: HashMap<VmKey, Option<VmKey>> = HashMap::new();
    // One copy of each vCenter's spelling for the VMs rewritten.
    let mut strings = crate::ingest::strings::Strings::default();
    for (i, vm) in part.vms.iter_mut().enumerate() {
        let Some(canonical) = sets.vm_set(p, i).and_then(|s| sets.canonical(s)) else {
            continue;
        };
        if vm.vi_sdk_server.as_deref().is_some_and(|s| s != canonical) {
            let old = vm.key();
            vm.vi_sdk_server = Some(strings.share_str(canonical));
            let new = vm.key();
            // A key two VMs share leaves their rows' VM unclear: they keep it.
            rekeyed
                .entry(old)
                .and_modify(|n| *n = None)
                .or_insert(Some(new));
        }
    }
    let unique: HashSet<VmKey> = {
        let mut seen = HashSet::new();
        let mut twice = HashSet::new();
        for vm in &part.vms {
            if !seen.insert(vm.key()) {
                twice.insert(vm.key());
            }
        }
        seen.difference(&twice).cloned().collect()
    };
    let keys = part
        .disks
        .iter_mut()
        .map(|d| &mut d.vm_key)
        .chain(part.partitions.iter_mut().map(|d| &mut d.vm_key))
        .chain(part.snapshots.iter_mut().map(|d| &mut d.vm_key));
    for key in keys {
        if let Some(Some(new)) = rekeyed.get(key)
            && unique.contains(new)
        {
            *key = new.clone();
        }
    }
    let respell = |server: &mut Option<String>| {
        if let Some(s) = server.as_deref()
            && let Some(c) = sets.canonical_of_name(s)
            && c != s
        {
            *server = Some(c.to_string());
        }
    };
    part.hosts
        .iter_mut()
        .for_each(|h| respell(&mut h.vi_sdk_server));
    part.clusters
        .iter_mut()
        .for_each(|c| respell(&mut c.vi_sdk_server));
    part.datastores
        .iter_mut()
        .for_each(|d| respell(&mut d.vi_sdk_server));
}

/// The VMs one input (the loser) shares with another whose copies are used (the winner).
#[derive(Debug)]
struct Pair {
    /// The loser's VMs shared, by index, each with the winner copy's row.
    shared: Vec<(usize, Origin)>,
    /// Whether a shared VM's figures differ between the copies.
    differs: bool,
    /// How many shared VMs' figures differ.
    differing: usize,
    /// The figures that differ, first found first.
    fields: Vec<&'static str>,
    /// Whether [`Vm::is_same_vm`] calls every pair of copies one VM.
    old_rule_same: bool,
    /// Shared VMs named differently in the two inputs, and the first (loser's name,
    /// winner's name).
    renamed: usize,
    first_rename: Option<(String, String)>,
    /// In-use and provisioned MiB of the shared VMs: (loser's copies, winner's copies).
    in_use_mib: (f64, f64),
    provisioned_mib: (f64, f64),
}

impl Default for Pair {
    fn default() -> Pair {
        Pair {
            shared: Vec::new(),
            differs: false,
            differing: 0,
            fields: Vec::new(),
            old_rule_same: true,
            renamed: 0,
            first_rename: None,
            in_use_mib: (0.0, 0.0),
            provisioned_mib: (0.0, 0.0),
        }
    }
}

impl Pair {
    /// Adds the loser's VM `li` (`l`), a copy of the winner's `w`.
    fn add(&mut self, li: usize, w: &Vm, l: &Vm) {
        self.shared.push((li, w.origin.clone()));
        let fields = differing(w, l);
        if !fields.is_empty() {
            self.differs = true;
            self.differing += 1;
            for f in fields {
                if !self.fields.contains(&f) {
                    self.fields.push(f);
                }
            }
        }
        self.old_rule_same &= w.is_same_vm(l);
        if w.name != l.name {
            self.renamed += 1;
            self.first_rename
                .get_or_insert_with(|| (l.name.clone(), w.name.clone()));
        }
        self.in_use_mib.0 += l.in_use_mib.unwrap_or(0.0);
        self.in_use_mib.1 += w.in_use_mib.unwrap_or(0.0);
        self.provisioned_mib.0 += l.provisioned_mib.unwrap_or(0.0);
        self.provisioned_mib.1 += w.provisioned_mib.unwrap_or(0.0);
    }

    /// The pair's warning, on the loser (`part`); `vms`: (the loser's VM count, the
    /// winner's); `children`: the child rows dropped with the copies.
    fn warning(
        &self,
        part: &Inventory,
        winner: &str,
        why: &str,
        vms: (usize, usize),
        children: usize,
    ) -> Warning {
        let n = |v: usize| crate::numbers::group_thousands(v as f64, 0);
        let gib = |mib: f64| format!("{} GiB", crate::numbers::show_number(mib / 1024.0));
        let renamed = match &self.first_rename {
            Some((here, there)) => format!(
                ", {} of them renamed (first: '{}' here is '{}' there)",
                n(self.renamed),
                crate::numbers::clip(here),
                crate::numbers::clip(there)
            ),
            None => String::new(),
        };
        let figures = if self.differs {
            format!(
                "the copies differ ({} of the {} VMs; figures: {}): in use {} here against {} \
                 there, provisioned {} against {}",
                n(self.differing),
                n(self.shared.len()),
                self.fields.join(", "),
                gib(self.in_use_mib.0),
                gib(self.in_use_mib.1),
                gib(self.provisioned_mib.0),
                gib(self.provisioned_mib.1),
            )
        } else {
            format!(
                "the copies' figures are the same (in use {})",
                gib(self.in_use_mib.1)
            )
        };
        let children = match children {
            0 => String::new(),
            c => format!(
                " with their {} child rows (vDisk, vPartition, vSnapshot)",
                n(c)
            ),
        };
        let message = format!(
            "{} VM(s) of this input are VMs of {winner} too (the same vCenter and VM UUID, \
             else VM ID){renamed}: the figures of {winner} are used, {why}; {figures}; VM \
             count {} here against {} there. This input's copies are listed among the \
             excluded VMs as duplicates{children}",
            n(self.shared.len()),
            n(vms.0),
            n(vms.1),
        );
        let sheet = part
            .vms
            .first()
            .map_or_else(|| "vInfo".to_string(), |v| v.origin.sheet.to_string());
        Warning {
            kind: WarningKind::Identity,
            file: input_name(part),
            sheet: Some(sheet),
            row: None,
            column: None,
            value: None,
            message,
            more_alike: 0,
        }
    }
}

/// The figures of a VM that a plan uses, by name in messages: those two copies both
/// carry and that differ (a figure one copy lacks is no difference).
fn differing(w: &Vm, l: &Vm) -> Vec<&'static str> {
    let num = |f: fn(&Vm) -> Option<f64>| matches!((f(w), f(l)), (Some(a), Some(b)) if a != b);
    let text = |f: fn(&Vm) -> Option<&str>| matches!((f(w), f(l)), (Some(a), Some(b)) if a != b);
    let unknown = crate::inventory::PowerState::Unknown;
    let checks = [
        ("in use", num(|v| v.in_use_mib)),
        ("provisioned", num(|v| v.provisioned_mib)),
        ("unshared", num(|v| v.unshared_mib)),
        ("memory", num(|v| v.memory_mib)),
        ("consumed memory", num(|v| v.memory_consumed_mib)),
        (
            "vCPUs",
            matches!((w.cpus, l.cpus), (Some(a), Some(b)) if a != b),
        ),
        (
            "power state",
            w.power_state != l.power_state && w.power_state != unknown && l.power_state != unknown,
        ),
        (
            "template flag",
            matches!((w.template, l.template), (Some(a), Some(b)) if a != b),
        ),
        ("cluster", text(|v| v.cluster.as_deref())),
        ("host", text(|v| v.host.as_deref())),
        ("datacenter", text(|v| v.datacenter.as_deref())),
    ];
    checks
        .into_iter()
        .filter_map(|(name, differ)| differ.then_some(name))
        .collect()
}

/// Why the winner's copies are used: `newer` whether the rule found it newer by date.
fn why(lp: usize, wp: usize, dates: &[Option<(Created, String)>], newer_by_rule: bool) -> String {
    let (l, w) = (
        dates.get(lp).cloned().flatten(),
        dates.get(wp).cloned().flatten(),
    );
    let clip = |d: &(Created, String)| crate::numbers::clip(&d.1);
    match (&l, &w) {
        (Some(ld), Some(wd)) if wd.0.is_after(&ld.0) && newer_by_rule => {
            format!(
                "it is the newer export (vMetaData xlsx creation datetime '{}' against '{}' \
                 here)",
                clip(wd),
                clip(ld)
            )
        }
        _ => {
            let reason = match (&l, &w) {
                (None, None) => "neither input has a vMetaData creation date".to_string(),
                (None, Some(_)) => "this input has no vMetaData creation date".to_string(),
                (Some(_), None) => "it has no vMetaData creation date".to_string(),
                (Some(ld), Some(wd))
                    if matches!(ld.0, Created::Ambiguous { .. })
                        || matches!(wd.0, Created::Ambiguous { .. }) =>
                {
                    format!(
                        "the vMetaData creation dates could not be told apart ('{}' there, \
                         '{}' here: a slashed date with both first figures 12 or less may be \
                         month or day first, and its two readings do not decide)",
                        clip(wd),
                        clip(ld)
                    )
                }
                (Some(l), Some(w)) if l.0 == w.0 => "their creation dates are the same".into(),
                _ => "the creation dates of the inputs holding these VMs do not decide".into(),
            };
            format!(
                "it is given after this input ({reason}: the order of the inputs decides, the \
                 last given taken as the newer)"
            )
        }
    }
}

/// Removes the VMs `gone` (by index, each with the row of the copy used) from `part`,
/// listing each among `duplicates`, with the disks, partitions and snapshots of their keys
/// (a key no VM kept shares). Returns, per VM removed, how many child rows went with it.
fn drop_copies(
    part: &mut Inventory,
    gone: &HashMap<usize, Origin>,
    duplicates: &mut Vec<DuplicateVm>,
) -> HashMap<usize, usize> {
    let mut keys: HashMap<VmKey, usize> = HashMap::new();
    let mut kept_keys: HashSet<VmKey> = HashSet::new();
    let vms = std::mem::take(&mut part.vms);
    for (i, vm) in vms.into_iter().enumerate() {
        match gone.get(&i) {
            Some(copy_of) => {
                keys.insert(vm.key(), i);
                duplicates.push(DuplicateVm {
                    name: vm.name,
                    origin: vm.origin,
                    copy_of: copy_of.clone(),
                });
            }
            None => {
                kept_keys.insert(vm.key());
                part.vms.push(vm);
            }
        }
    }
    let mut rows: HashMap<usize, usize> = HashMap::new();
    let mut keep = |k: &VmKey| match keys.get(k) {
        Some(i) if !kept_keys.contains(k) => {
            *rows.entry(*i).or_default() += 1;
            false
        }
        _ => true,
    };
    part.disks.retain(|d| keep(&d.vm_key));
    part.partitions.retain(|p| keep(&p.vm_key));
    part.snapshots.retain(|s| keep(&s.vm_key));
    rows
}

//! Source clusters: what identifies one ([`ClusterId`]: vCenter, datacenter and name) and
//! how plans name it ([`SourceClusters`]: a label qualified only where a name repeats).
//!
//! A cluster name says nothing across vCenters, nor (conservatively: no page in the
//! project's sources says names are unique per vCenter) across datacenters: three real
//! exports merged each hold a `Cluster1`, and a plan that grouped by the bare name sized
//! them as one cluster (issue 18). Every stage that groups
//! VMs by cluster (host counts, the inventory's table, `split_by_cluster`, the estate's
//! sizing groups, the `clusters` filter) groups by the label, which is one per identity.

use std::collections::{BTreeMap, BTreeSet};

use super::Vm;

/// Identifies a source cluster: the vCenter (`VI SDK Server`), the datacenter and the
/// cluster name, as the VM's vInfo row (or its vCPU/vMemory row) gives them; `None` where
/// the export does not say. Two VMs whose three parts are equal are in one cluster; an
/// unknown part equals only an unknown part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClusterId<'a> {
    /// `Cluster`.
    pub name: &'a str,
    /// `VI SDK Server`.
    pub vcenter: Option<&'a str>,
    /// `Datacenter`.
    pub datacenter: Option<&'a str>,
}

impl Vm {
    /// The VM's source cluster; `None` when it names no cluster.
    pub fn cluster_id(&self) -> Option<ClusterId<'_>> {
        Some(ClusterId {
            name: self.cluster.as_deref()?,
            vcenter: self.vi_sdk_server.as_deref(),
            datacenter: self.datacenter.as_deref(),
        })
    }
}

/// In a label, a vCenter the export does not name.
const UNKNOWN_VCENTER: &str = "unknown vCenter";
/// In a label, a datacenter the export does not name.
const UNKNOWN_DATACENTER: &str = "unknown datacenter";

impl ClusterId<'_> {
    /// `name (vCenter)`.
    fn with_vcenter(&self) -> String {
        format!(
            "{} ({})",
            self.name,
            self.vcenter.unwrap_or(UNKNOWN_VCENTER)
        )
    }

    /// `name (vCenter/datacenter)`.
    fn with_datacenter(&self) -> String {
        format!(
            "{} ({}/{})",
            self.name,
            self.vcenter.unwrap_or(UNKNOWN_VCENTER),
            self.datacenter.unwrap_or(UNKNOWN_DATACENTER)
        )
    }

    /// Whether another cluster's part may be this one's: equal, or either unknown (a
    /// trimmed tab without the column).
    pub(crate) fn compatible(&self, vcenter: Option<&str>, datacenter: Option<&str>) -> bool {
        let agree = |a: Option<&str>, b: Option<&str>| a.is_none() || b.is_none() || a == b;
        agree(self.vcenter, vcenter) && agree(self.datacenter, datacenter)
    }
}

/// The source clusters of a set of VMs, each with its label:
/// - the cluster name, when no other cluster has that name (`Cluster1`: today's names stay);
/// - else `name (vCenter)` (`Cluster1 (vc-a.corp)`), when no other cluster of that
///   vCenter has that name;
/// - else `name (vCenter/datacenter)` (`Cluster1 (vc-a.corp/DC2)`);
///
/// with `unknown vCenter` / `unknown datacenter` for a part the export does not give. A
/// label that another cluster already has (a cluster really named `Cluster1 (vc-a)`)
/// gets ` #2`, ` #3` ... in identity order, so labels are one per identity.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceClusters<'a> {
    labels: BTreeMap<ClusterId<'a>, String>,
}

impl<'a> SourceClusters<'a> {
    /// The clusters `vms` name, labelled. O(VMs log clusters).
    pub fn of(vms: impl IntoIterator<Item = &'a Vm>) -> SourceClusters<'a> {
        let ids: BTreeSet<ClusterId<'a>> = vms.into_iter().filter_map(Vm::cluster_id).collect();
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_vcenter: BTreeMap<(&str, Option<&str>), usize> = BTreeMap::new();
        for id in &ids {
            *by_name.entry(id.name).or_default() += 1;
            *by_vcenter.entry((id.name, id.vcenter)).or_default() += 1;
        }
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut labels = BTreeMap::new();
        for id in ids {
            let label = if by_name[id.name] == 1 {
                id.name.to_string()
            } else if by_vcenter[&(id.name, id.vcenter)] == 1 {
                id.with_vcenter()
            } else {
                id.with_datacenter()
            };
            labels.insert(id, label);
        }
        // Labels are unique by construction unless a name looks like another's label.
        let all: BTreeSet<String> = labels.values().cloned().collect();
        for label in labels.values_mut() {
            if !taken.insert(label.clone()) {
                let free = (2u32..)
                    .map(|n| format!("{label} #{n}"))
                    .find(|l| !all.contains(l) && !taken.contains(l))
                    .unwrap_or_default();
                taken.insert(free.clone());
                *label = free;
            }
        }
        SourceClusters { labels }
    }

    /// The label of `vm`'s cluster; `None` when it names none.
    pub fn label<'s>(&'s self, vm: &'s Vm) -> Option<&'s str> {
        self.label_of(&vm.cluster_id()?)
    }

    /// The label of cluster `id`; `None` when none of the VMs is in it.
    pub fn label_of<'s>(&'s self, id: &ClusterId<'s>) -> Option<&'s str> {
        let labels: &'s BTreeMap<ClusterId<'s>, String> = &self.labels;
        labels.get(id).map(String::as_str)
    }

    /// The clusters and their labels, in identity order (name, then vCenter, then
    /// datacenter).
    pub fn iter(&self) -> impl Iterator<Item = (&ClusterId<'a>, &str)> {
        self.labels.iter().map(|(id, l)| (id, l.as_str()))
    }

    /// How many clusters.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether no VM names a cluster.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The clusters a `clusters` filter name selects, by label, compared trimmed and
    /// case-insensitively: the cluster whose label it is; else those whose bare name it
    /// is (a name shared by clusters of several vCenters or datacenters selects them
    /// all); else those it names as `name (vCenter)` or `name (vCenter/datacenter)`
    /// (the long form of a label that needs no qualifying). So a label always selects its
    /// cluster alone.
    pub fn select(&self, name: &str) -> Vec<&str> {
        let wanted = normalise(name);
        let tiers: [&Tier<'_>; 3] = [
            &|_, label| normalise(label) == wanted,
            &|id, _| normalise(id.name) == wanted,
            &|id, _| {
                normalise(&id.with_vcenter()) == wanted
                    || normalise(&id.with_datacenter()) == wanted
            },
        ];
        for matches in tiers {
            let found: Vec<&str> = self
                .labels
                .iter()
                .filter(|(id, label)| matches(id, label))
                .map(|(_, l)| l.as_str())
                .collect();
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }
}

/// One way [`SourceClusters::select`] matches a cluster (its id and label).
type Tier<'t> = dyn Fn(&ClusterId<'_>, &str) -> bool + 't;

/// How filter names compare: trimmed, lower case.
pub(crate) fn normalise(name: &str) -> String {
    name.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::Origin;

    fn vm(vcenter: Option<&str>, datacenter: Option<&str>, cluster: Option<&str>) -> Vm {
        Vm {
            vi_sdk_server: vcenter.map(Into::into),
            datacenter: datacenter.map(Into::into),
            cluster: cluster.map(Into::into),
            ..Vm::new("x", Origin::default())
        }
    }

    #[test]
    fn labels_are_qualified_only_where_a_name_repeats() {
        // Cluster1 in vc-a/DC1, vc-a/DC2 and vc-b/DC1: vc-a has it twice, so its two get
        // vCenter/datacenter, vc-b's the vCenter alone. Dev and Prod are unique: bare.
        // The VM without a cluster has no label.
        let vms = [
            vm(Some("vc-a"), Some("DC1"), Some("Cluster1")),
            vm(Some("vc-a"), Some("DC2"), Some("Cluster1")),
            vm(Some("vc-b"), Some("DC1"), Some("Cluster1")),
            vm(Some("vc-b"), Some("DC1"), Some("Cluster1")),
            vm(Some("vc-a"), Some("DC1"), Some("Prod")),
            vm(None, None, Some("Dev")),
            vm(Some("vc-a"), Some("DC1"), None),
        ];
        let c = SourceClusters::of(&vms);
        let labels: Vec<Option<&str>> = vms.iter().map(|v| c.label(v)).collect();
        assert_eq!(
            labels,
            [
                Some("Cluster1 (vc-a/DC1)"),
                Some("Cluster1 (vc-a/DC2)"),
                Some("Cluster1 (vc-b)"),
                Some("Cluster1 (vc-b)"),
                Some("Prod"),
                Some("Dev"),
                None,
            ]
        );
        assert_eq!(c.len(), 5);
        // The bare name selects the three Cluster1s; a qualified form one of them, in
        // any case and either form (vc-b's with its datacenter too).
        assert_eq!(c.select("cluster1").len(), 3);
        assert_eq!(c.select(" Cluster1 (VC-A/dc2) "), ["Cluster1 (vc-a/DC2)"]);
        assert_eq!(c.select("Cluster1 (vc-b/DC1)"), ["Cluster1 (vc-b)"]);
        assert!(c.select("Cluster1 (vc-c)").is_empty());
    }

    #[test]
    fn unknown_parts_are_said_and_look_alike_names_stay_apart() {
        // Cluster1 with no vCenter beside vc-a's: `unknown vCenter`. A cluster really named
        // `Cluster1 (vc-a)` takes ` #2` after the label vc-a's Cluster1 gets.
        let vms = [
            vm(None, Some("DC1"), Some("Cluster1")),
            vm(Some("vc-a"), Some("DC1"), Some("Cluster1")),
            vm(Some("vc-b"), Some("DC1"), Some("Cluster1 (vc-a)")),
        ];
        let c = SourceClusters::of(&vms);
        let labels: Vec<Option<&str>> = vms.iter().map(|v| c.label(v)).collect();
        assert_eq!(
            labels,
            [
                Some("Cluster1 (unknown vCenter)"),
                Some("Cluster1 (vc-a)"),
                Some("Cluster1 (vc-a) #2"),
            ]
        );
    }

    proptest::proptest! {
        /// Whatever the names: one label per cluster, never shared, and each label
        /// selects its own cluster alone; a cluster whose name no other has keeps it bare.
        #[test]
        fn labels_are_one_per_cluster_and_select_it(
            parts in proptest::collection::vec(
                (
                    proptest::option::of(proptest::sample::select(vec!["vc-a", "vc-b", "C (vc-a)"])),
                    proptest::option::of(proptest::sample::select(vec!["DC1", "DC2"])),
                    proptest::sample::select(vec!["C", "C (vc-a)", "C (vc-a/DC1)", "D"]),
                ),
                0..12,
            )
        ) {
            let vms: Vec<Vm> = parts.iter().map(|(v, d, c)| vm(*v, *d, Some(c))).collect();
            let c = SourceClusters::of(&vms);
            let ids: BTreeSet<ClusterId<'_>> = vms.iter().filter_map(Vm::cluster_id).collect();
            let labels: BTreeSet<&str> = c.iter().map(|(_, l)| l).collect();
            proptest::prop_assert_eq!(c.len(), ids.len());
            proptest::prop_assert_eq!(labels.len(), ids.len());
            for (id, label) in c.iter() {
                proptest::prop_assert_eq!(c.select(label), vec![label]);
                if ids.iter().filter(|o| o.name == id.name).count() == 1
                    && !ids.iter().any(|o| o.name != id.name && c.label_of(o) == Some(id.name))
                {
                    proptest::prop_assert_eq!(label, id.name);
                }
            }
        }
    }
}

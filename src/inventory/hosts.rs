//! How many hosts a source cluster has, counted one way for the inventory's text, its JSON
//! and the per-cluster plans ([`Inventory::cluster_hosts`]), with the source of each count.
//!
//! vInfo `Host` and vHost `Host` may spell one host differently (`esx-01` in one tab,
//! `ESX-01.corp.example` in the other), so names are compared by their first DNS label,
//! case-insensitively, and the two sources are never added up.

use std::collections::BTreeMap;

use super::{ClusterId, Host, Inventory, SheetWords, SourceClusters};

/// The host count of one source cluster and where it came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterHosts {
    /// Hosts, count; 0 when the inventory has no host data for the cluster.
    pub count: usize,
    /// Where [`ClusterHosts::count`] came from, in words (`vHost rows`, `vInfo Host names
    /// (no vHost tab)`, `vCluster NumHosts`, `no host data`, ...).
    pub source: String,
}

/// A host name's first DNS label, lower-cased: `ESX-01.corp.example` -> `esx-01`; an IP
/// address (`10.0.0.11`) whole.
pub fn host_label(name: &str) -> String {
    let name = name.trim();
    if name.parse::<std::net::IpAddr>().is_ok() {
        return name.to_ascii_lowercase();
    }
    name.split('.').next().unwrap_or("").to_ascii_lowercase()
}

/// The host names one source gives a cluster: label -> first spelling seen.
type Names<'a> = BTreeMap<String, &'a str>;

/// Finds the source cluster (of those the VMs name) a vHost or vCluster row belongs to.
pub(crate) struct ClusterFinder<'a> {
    by_name: BTreeMap<&'a str, Vec<ClusterId<'a>>>,
}

impl<'a> ClusterFinder<'a> {
    /// Over the clusters `ids`.
    pub(crate) fn new(ids: impl IntoIterator<Item = ClusterId<'a>>) -> ClusterFinder<'a> {
        let mut by_name: BTreeMap<&'a str, Vec<ClusterId<'a>>> = BTreeMap::new();
        for id in ids {
            by_name.entry(id.name).or_default().push(id);
        }
        ClusterFinder { by_name }
    }

    /// The cluster of a row naming cluster `name` in `vcenter` and `datacenter` (`None`
    /// where the row's tab does not say): `Found(None)` when no VM's cluster can be it
    /// (the row counts with the VMs without a cluster); the one cluster of that name
    /// whose vCenter and datacenter agree (equal, or unknown on either side), else the one
    /// equal in both; `Ambiguous` when several agree and none or several are equal (the
    /// row is counted nowhere).
    pub(crate) fn find(
        &self,
        vcenter: Option<&str>,
        datacenter: Option<&str>,
        name: Option<&str>,
    ) -> Found<'a> {
        let candidates: Vec<ClusterId<'a>> = name
            .and_then(|n| self.by_name.get(n))
            .map(|ids| {
                ids.iter()
                    .filter(|id| id.compatible(vcenter, datacenter))
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        match candidates.as_slice() {
            [] => Found::Cluster(None),
            [one] => Found::Cluster(Some(*one)),
            several => {
                let exact: Vec<&ClusterId<'a>> = several
                    .iter()
                    .filter(|id| id.vcenter == vcenter && id.datacenter == datacenter)
                    .collect();
                match exact.as_slice() {
                    [one] => Found::Cluster(Some(**one)),
                    _ => Found::Ambiguous,
                }
            }
        }
    }
}

/// What [`ClusterFinder::find`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found<'a> {
    /// The cluster (`None`: no VM's cluster, so with the VMs without one).
    Cluster(Option<ClusterId<'a>>),
    /// Several clusters could be it.
    Ambiguous,
}

impl Inventory {
    /// Per source cluster of the VMs (`None`: the VMs without a cluster), the vHost rows
    /// that belong to it ([`ClusterFinder::find`] by `VI SDK Server`, `Datacenter` and
    /// `Cluster`): a host name is unique within a vCenter, not across vCenters.
    pub(crate) fn vhost_rows_by_cluster<'a>(
        &'a self,
        finder: &ClusterFinder<'a>,
    ) -> BTreeMap<Option<ClusterId<'a>>, Vec<&'a Host>> {
        let mut out: BTreeMap<Option<ClusterId<'a>>, Vec<&'a Host>> = BTreeMap::new();
        for h in &self.hosts {
            let found = finder.find(
                h.vi_sdk_server.as_deref(),
                h.datacenter.as_deref(),
                h.cluster.as_deref(),
            );
            if let Found::Cluster(id) = found {
                out.entry(id).or_default().push(h);
            }
        }
        out
    }

    /// Hosts per source cluster, by its label ([`SourceClusters`]; `None`: the VMs without
    /// a cluster), for every cluster a VM names; the one count the inventory's text and
    /// JSON and the per-cluster plans use. Clusters are told apart by vCenter, datacenter
    /// and name ([`super::ClusterId`]), so two vCenters' `Cluster1` count their own hosts.
    ///
    /// The rule, names compared by [`host_label`]:
    /// - the cluster's vHost rows when vHost has rows for it, and the vInfo `Host` names of
    ///   its VMs all match them (or there are none);
    /// - when some vInfo hosts match no vHost row, the larger of the two counts (one of the
    ///   tabs is incomplete or spells hosts differently; they are not added up), and the
    ///   source says how many did not match, with the first;
    /// - else the distinct vInfo `Host` names of its VMs;
    /// - else vCluster `NumHosts` (the first row of that cluster, matched like vHost rows
    ///   by `VI SDK Server` and name);
    /// - else 0, `no host data`.
    ///
    /// The VMs without a cluster also take the vHost rows of no cluster or of a cluster no
    /// VM names (a vInfo without its `Cluster` column); a row that could be several of the
    /// VMs' clusters (no vCenter or datacenter to tell) is counted in none.
    /// O((VMs + hosts + clusters) log clusters).
    pub fn cluster_hosts(&self) -> BTreeMap<Option<String>, ClusterHosts> {
        let clusters = SourceClusters::of(&self.vms);
        let finder = ClusterFinder::new(clusters.iter().map(|(id, _)| *id));
        let mut vinfo: BTreeMap<Option<ClusterId<'_>>, Names<'_>> = BTreeMap::new();
        for vm in &self.vms {
            let names = vinfo.entry(vm.cluster_id()).or_default();
            if let Some(h) = vm.host.as_deref() {
                names.entry(host_label(h)).or_insert(h);
            }
        }
        let vhost: BTreeMap<Option<ClusterId<'_>>, Names<'_>> = self
            .vhost_rows_by_cluster(&finder)
            .into_iter()
            .map(|(id, rows)| {
                let names = rows
                    .into_iter()
                    .map(|h| (host_label(&h.name), h.name.as_str()))
                    .rev()
                    .collect();
                (id, names)
            })
            .collect();
        let mut vcluster: BTreeMap<ClusterId<'_>, Option<u64>> = BTreeMap::new();
        for c in &self.clusters {
            let found = finder.find(c.vi_sdk_server.as_deref(), None, Some(&c.name));
            if let Found::Cluster(Some(id)) = found {
                vcluster.entry(id).or_insert(c.num_hosts);
            }
        }
        let words = self.sheet_words();
        let has_vhost_tab = self.sources.iter().any(|s| {
            let host_tab = s.words().hosts;
            s.tabs.iter().any(|t| t.eq_ignore_ascii_case(host_tab))
        });
        let empty = Names::new();
        vinfo
            .iter()
            .map(|(key, names)| {
                let rows = vhost.get(key).unwrap_or(&empty);
                let counted = count(rows, names, has_vhost_tab, words).unwrap_or_else(|| {
                    let n = key.and_then(|c| vcluster.get(&c).copied().flatten());
                    match n.filter(|&n| n > 0) {
                        Some(n) => ClusterHosts {
                            count: usize::try_from(n).unwrap_or(usize::MAX),
                            source: "vCluster NumHosts".to_string(),
                        },
                        None => ClusterHosts {
                            count: 0,
                            source: "no host data".to_string(),
                        },
                    }
                });
                let label = key
                    .and_then(|id| clusters.label_of(&id))
                    .map(str::to_string);
                (label, counted)
            })
            .collect()
    }
}

/// The count from vHost rows and vInfo names, the sheets named in `words`; `None` when both
/// are empty.
fn count(
    vhost: &Names<'_>,
    vinfo: &Names<'_>,
    has_vhost_tab: bool,
    words: &SheetWords,
) -> Option<ClusterHosts> {
    let (hosts, vms) = (words.hosts, words.vms);
    let unmatched: Vec<&str> = vinfo
        .iter()
        .filter(|(label, _)| !vhost.contains_key(*label))
        .map(|(_, name)| *name)
        .collect();
    let (count, source) = match (vhost.len(), vinfo.len()) {
        (0, 0) => return None,
        (0, n) if has_vhost_tab => (n, format!("{vms} Host names (no {hosts} rows for it)")),
        (0, n) => (n, format!("{vms} Host names (no {hosts} tab)")),
        (n, 0) => (n, format!("{hosts} rows (its VMs name no host)")),
        (n, _) if unmatched.is_empty() => (n, format!("{hosts} rows ({vms} Host names agree)")),
        (rows, names) => (
            rows.max(names),
            format!(
                "the larger of {rows} {hosts} rows and {names} {vms} Host names: {} {vms} \
                 host(s) match no {hosts} row by first DNS label (first: '{}')",
                unmatched.len(),
                unmatched[0]
            ),
        ),
    };
    Some(ClusterHosts { count, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{LIVE_OPTICS_WORDS, RVTOOLS_WORDS};

    fn names<'a>(list: &[&'a str]) -> Names<'a> {
        list.iter().map(|n| (host_label(n), *n)).collect()
    }

    #[test]
    fn labels_match_short_and_qualified_names() {
        assert_eq!(host_label(" ESX-01.corp.example "), "esx-01");
        // Two hosts known by IP address stay two.
        assert_eq!(host_label("10.0.0.11"), "10.0.0.11");
        // esx-01 (short) and ESX-01.corp (FQDN) are one host: vHost's 2 rows, agreed.
        let c = count(
            &names(&["esx-01", "esx-02"]),
            &names(&["ESX-01.corp"]),
            true,
            &RVTOOLS_WORDS,
        );
        assert_eq!(
            c,
            Some(ClusterHosts {
                count: 2,
                source: "vHost rows (vInfo Host names agree)".into()
            })
        );
    }

    #[test]
    fn a_live_optics_input_is_counted_in_its_own_words() {
        // 2 ESX Hosts rows; the VMs name only one of them: the rows' count, in the sheets'
        // own names.
        let c = count(
            &names(&["esx-01", "esx-02"]),
            &names(&["esx-01"]),
            true,
            &LIVE_OPTICS_WORDS,
        );
        assert_eq!(
            c,
            Some(ClusterHosts {
                count: 2,
                source: "ESX Hosts rows (VMs Host names agree)".into()
            })
        );
    }

    #[test]
    fn names_that_differ_take_the_larger_and_say_so() {
        // 2 vHost rows, 3 vInfo names of which b and c match none: max(2, 3) = 3.
        let c = count(
            &names(&["a", "x"]),
            &names(&["a.d", "b.d", "c.d"]),
            true,
            &RVTOOLS_WORDS,
        );
        let c = c.unwrap_or_default();
        assert_eq!(c.count, 3);
        assert!(
            c.source.contains("2 vInfo host(s) match no vHost row"),
            "{}",
            c.source
        );
        assert!(c.source.contains("(first: 'b.d')"), "{}", c.source);
        // Without a vHost tab, the vInfo names, saying so.
        let c =
            count(&Names::new(), &names(&["a", "b"]), false, &RVTOOLS_WORDS).unwrap_or_default();
        assert_eq!(
            (c.count, c.source.as_str()),
            (2, "vInfo Host names (no vHost tab)")
        );
        assert_eq!(
            count(&Names::new(), &Names::new(), true, &RVTOOLS_WORDS),
            None
        );
    }

    #[test]
    fn host_rows_reach_the_one_cluster_their_vcenter_and_datacenter_allow() {
        let id = |vc: Option<&'static str>, dc: Option<&'static str>| ClusterId {
            name: "C",
            vcenter: vc,
            datacenter: dc,
        };
        let (a1, a2, b1, none) = (
            id(Some("vc-a"), Some("DC1")),
            id(Some("vc-a"), Some("DC2")),
            id(Some("vc-b"), Some("DC1")),
            id(None, None),
        );
        let finder = ClusterFinder::new([a1, a2, b1]);
        // Only vc-b has a C: a row of vc-b without a datacenter is its.
        assert_eq!(
            finder.find(Some("vc-b"), None, Some("C")),
            Found::Cluster(Some(b1))
        );
        assert_eq!(
            finder.find(Some("vc-a"), Some("DC2"), Some("C")),
            Found::Cluster(Some(a2))
        );
        // vc-a has C in two datacenters; DC1 has C in two vCenters: a row saying only one
        // of the two could be either, and is counted in none.
        assert_eq!(finder.find(Some("vc-a"), None, Some("C")), Found::Ambiguous);
        assert_eq!(finder.find(None, Some("DC1"), Some("C")), Found::Ambiguous);
        // Another vCenter's C, or a cluster no VM names: with the VMs without a cluster.
        assert_eq!(
            finder.find(Some("vc-c"), Some("DC1"), Some("C")),
            Found::Cluster(None)
        );
        assert_eq!(
            finder.find(Some("vc-a"), Some("DC1"), Some("D")),
            Found::Cluster(None)
        );
        // Where both agree, the one equal in both wins.
        let finder = ClusterFinder::new([none, a1]);
        assert_eq!(
            finder.find(Some("vc-a"), Some("DC1"), Some("C")),
            Found::Cluster(Some(a1))
        );
        assert_eq!(
            finder.find(None, None, Some("C")),
            Found::Cluster(Some(none))
        );
    }
}

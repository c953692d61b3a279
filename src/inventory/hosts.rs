//! How many hosts a source cluster has, counted one way for the inventory's text, its JSON
//! and the per-cluster plans ([`Inventory::cluster_hosts`]), with the source of each count.
//!
//! vInfo `Host` and vHost `Host` may spell one host differently (`esx-01` in one tab,
//! `ESX-01.corp.example` in the other), so names are compared by their first DNS label,
//! case-insensitively, and the two sources are never added up.

use std::collections::BTreeMap;

use super::Inventory;

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

impl Inventory {
    /// Hosts per source cluster (`None`: the VMs without a cluster), for every cluster a VM
    /// names; the one count the inventory's text and JSON and the per-cluster plans use.
    ///
    /// The rule, names compared by [`host_label`]:
    /// - the cluster's vHost rows when vHost has rows for it, and the vInfo `Host` names of
    ///   its VMs all match them (or there are none);
    /// - when some vInfo hosts match no vHost row, the larger of the two counts (one of the
    ///   tabs is incomplete or spells hosts differently; they are not added up), and the
    ///   source says how many did not match, with the first;
    /// - else the distinct vInfo `Host` names of its VMs;
    /// - else vCluster `NumHosts` (the first row of that name);
    /// - else 0, `no host data`.
    ///
    /// The VMs without a cluster also take the vHost rows of no cluster or of a cluster no
    /// VM names (a vInfo without its `Cluster` column). O(VMs + hosts + clusters).
    pub fn cluster_hosts(&self) -> BTreeMap<Option<&str>, ClusterHosts> {
        let mut vinfo: BTreeMap<Option<&str>, Names<'_>> = BTreeMap::new();
        for vm in &self.vms {
            let names = vinfo.entry(vm.cluster.as_deref()).or_default();
            if let Some(h) = vm.host.as_deref() {
                names.entry(host_label(h)).or_insert(h);
            }
        }
        let mut vhost: BTreeMap<Option<&str>, Names<'_>> = BTreeMap::new();
        for h in &self.hosts {
            let key = h
                .cluster
                .as_deref()
                .filter(|c| vinfo.contains_key(&Some(*c)));
            vhost
                .entry(key)
                .or_default()
                .entry(host_label(&h.name))
                .or_insert(h.name.as_str());
        }
        let mut vcluster: BTreeMap<&str, Option<u64>> = BTreeMap::new();
        for c in &self.clusters {
            vcluster.entry(c.name.as_str()).or_insert(c.num_hosts);
        }
        let has_vhost_tab = self
            .sources
            .iter()
            .any(|s| s.tabs.iter().any(|t| t.eq_ignore_ascii_case("vHost")));
        let empty = Names::new();
        vinfo
            .iter()
            .map(|(key, names)| {
                let rows = vhost.get(key).unwrap_or(&empty);
                let counted = count(rows, names, has_vhost_tab).unwrap_or_else(|| {
                    let n = key.and_then(|c| vcluster.get(c).copied().flatten());
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
                (*key, counted)
            })
            .collect()
    }
}

/// The count from vHost rows and vInfo names; `None` when both are empty.
fn count(vhost: &Names<'_>, vinfo: &Names<'_>, has_vhost_tab: bool) -> Option<ClusterHosts> {
    let unmatched: Vec<&str> = vinfo
        .iter()
        .filter(|(label, _)| !vhost.contains_key(*label))
        .map(|(_, name)| *name)
        .collect();
    let (count, source) = match (vhost.len(), vinfo.len()) {
        (0, 0) => return None,
        (0, n) if has_vhost_tab => (n, "vInfo Host names (no vHost rows for it)".to_string()),
        (0, n) => (n, "vInfo Host names (no vHost tab)".to_string()),
        (n, 0) => (n, "vHost rows (its VMs name no host)".to_string()),
        (n, _) if unmatched.is_empty() => (n, "vHost rows (vInfo Host names agree)".to_string()),
        (rows, names) => (
            rows.max(names),
            format!(
                "the larger of {rows} vHost rows and {names} vInfo Host names: {} vInfo \
                 host(s) match no vHost row by first DNS label (first: '{}')",
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
    fn names_that_differ_take_the_larger_and_say_so() {
        // 2 vHost rows, 3 vInfo names of which b and c match none: max(2, 3) = 3.
        let c = count(&names(&["a", "x"]), &names(&["a.d", "b.d", "c.d"]), true);
        let c = c.unwrap_or_default();
        assert_eq!(c.count, 3);
        assert!(
            c.source.contains("2 vInfo host(s) match no vHost row"),
            "{}",
            c.source
        );
        assert!(c.source.contains("(first: 'b.d')"), "{}", c.source);
        // Without a vHost tab, the vInfo names, saying so.
        let c = count(&Names::new(), &names(&["a", "b"]), false).unwrap_or_default();
        assert_eq!(
            (c.count, c.source.as_str()),
            (2, "vInfo Host names (no vHost tab)")
        );
        assert_eq!(count(&Names::new(), &Names::new(), true), None);
    }
}

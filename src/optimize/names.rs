//! Names that stay unique across the clusters of one plan ([`name_per_cluster`]).
//!
//! One cluster's plan names its datastores `anf-ds-01`, `anf-ds-02` … and its pool
//! `pool-<level>-1`. In a plan of several clusters those names would repeat, and neither
//! Azure nor vCenter accepts that: volume names are unique within a capacity pool (and the
//! estate shares pools across clusters), pool names within a NetApp account, and datastore
//! names within a private cloud's vCenter (one per private cloud). Each cluster's names
//! therefore start with the cluster's own stem.
//!
//! Azure NetApp Files volume names "must be unique within each capacity pool", at least
//! three characters, beginning with a letter, with letters, numbers, `_` and `-` only
//! (learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-create-volumes, section
//! "Create an NFS volume", Volume name); a capacity pool name must be unique for each NetApp
//! account (the same repository's ANF quickstart templates). The page gives no maximum
//! length: the stem keeps at most [`MAX_STEM_CHARS`] characters so
//! `<stem>-pool-flexible-cool-1` (26 more) stays within 64, Azure Resource Manager's
//! common limit for child resource names (conservative).

use std::collections::HashSet;

use crate::plan::ClusterPlan;

/// Longest cluster stem, in characters.
pub(crate) const MAX_STEM_CHARS: usize = 36;

/// A cluster name as a name part: ASCII letters and digits kept, every other run of
/// characters one `-`, no `-` at either end, starting with a letter (`c-` put in front
/// otherwise), at most [`MAX_STEM_CHARS`] characters; `cluster` when nothing is left.
pub(crate) fn stem(cluster: &str) -> String {
    let mut out = crate::numbers::slug(cluster);
    if out.is_empty() {
        return "cluster".to_string();
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, "c-");
    }
    crate::numbers::slug_cut(&out, MAX_STEM_CHARS)
}

/// Gives each cluster's datastores and pools its stem: `anf-ds-01` becomes
/// `<stem>-ds-01`, `pool-premium-1` becomes `<stem>-pool-premium-1`, placements follow.
/// Two clusters whose stems are equal get `-2`, `-3` … on the later ones. A plan of one
/// cluster keeps its names.
pub(crate) fn name_per_cluster(clusters: &mut [ClusterPlan]) {
    if clusters.len() < 2 {
        return;
    }
    let mut taken: HashSet<String> = HashSet::new();
    for c in clusters.iter_mut() {
        let base = stem(&c.cluster);
        let mut s = base.clone();
        let mut n = 1;
        while !taken.insert(s.to_ascii_lowercase()) {
            n += 1;
            s = format!("{base}-{n}");
        }
        rename_cluster(c, &s);
    }
}

/// Renames one cluster's pools, datastores and placements with `stem`.
fn rename_cluster(c: &mut ClusterPlan, stem: &str) {
    let plan = &mut c.plan;
    for p in &mut plan.pools {
        let new = format!("{stem}-{}", p.name);
        for d in plan.datastores.iter_mut().filter(|d| d.pool == p.name) {
            d.pool.clone_from(&new);
        }
        p.name = new;
    }
    let mut renamed: Vec<(String, String)> = Vec::with_capacity(plan.datastores.len());
    for d in &mut plan.datastores {
        let suffix = d.name.strip_prefix("anf-").unwrap_or(&d.name);
        let new = format!("{stem}-{suffix}");
        renamed.push((std::mem::replace(&mut d.name, new.clone()), new));
    }
    for p in &mut plan.placements {
        if let Some((_, new)) = renamed.iter().find(|(old, _)| *old == p.datastore) {
            p.datastore.clone_from(new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_are_valid_name_parts() {
        assert_eq!(stem("avs-Dev"), "avs-Dev");
        assert_eq!(stem("Prod cluster #2"), "Prod-cluster-2");
        assert_eq!(stem("  --x__y--  "), "x-y");
        assert_eq!(stem("2024 DMZ"), "c-2024-DMZ");
        assert_eq!(stem("été"), "t");
        assert_eq!(stem("¿?"), "cluster");
        // 50 letters keep 36.
        assert_eq!(stem(&"a".repeat(50)).len(), MAX_STEM_CHARS);
        // A cut that ends on a separator drops it: 35 letters, '-', more.
        let long = format!("{}-bbbb", "a".repeat(35));
        assert_eq!(stem(&long), "a".repeat(35));
    }
}

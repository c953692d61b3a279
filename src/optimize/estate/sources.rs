//! Where an AVS cluster's host count comes from, in words ([`hosts_source`]): the compute
//! driver, the datastores' targets, vSAN, the AVS minimum, and a private cloud's
//! management reservation.

use std::fmt::Write as _;

use crate::sizing::Driver;

/// Where a cluster's host count comes from, in words.
pub(super) fn hosts_source(c: &crate::sizing::AvsCluster) -> String {
    let mut out = compute_source(c);
    if let Some(r) = &c.management {
        let _ = write!(
            out,
            "; first cluster of {}: the management reservation ({} cores = {} vCPU, {} GiB) \
             {}",
            c.private_cloud,
            r.cores,
            crate::numbers::show_number(r.vcpus),
            crate::numbers::group_thousands(r.memory_gib, 1),
            match r.added_hosts {
                0 => "fits its hosts".to_string(),
                1 => "adds 1 host".to_string(),
                n => format!("adds {n} hosts"),
            }
        );
    }
    out
}

/// Where a cluster's host count comes from, in words, without the management reservation.
pub(super) fn compute_source(c: &crate::sizing::AvsCluster) -> String {
    let why = match c.driver {
        Driver::Vcpu => format!("{} for vCPU", c.hosts_for_vcpu),
        Driver::Memory => format!("{} for memory", c.hosts_for_memory),
        Driver::Storage => {
            return format!(
                "raised to {} {} for the datastores' IOPS and MiB/s: {} hosts' flows and \
                 ceilings meet them, + {} HA ({} for vCPU, {} for memory)",
                c.hosts,
                c.sku,
                c.hosts.saturating_sub(c.ha_hosts),
                c.ha_hosts,
                c.hosts_for_vcpu,
                c.hosts_for_memory
            );
        }
        Driver::Minimum => {
            return format!(
                "sized from compute: {} for vCPU, {} for memory + {} HA, raised to the AVS \
                 minimum of {} {}",
                c.hosts_for_vcpu, c.hosts_for_memory, c.ha_hosts, c.hosts, c.sku
            );
        }
        Driver::VsanPerformance => {
            return format!(
                "raised to {} {} for its vSAN's IOPS and MiB/s: the data it keeps on vSAN \
                 carries its share of the targets with a host down ({} for vCPU, {} for \
                 memory + {} HA)",
                c.hosts, c.sku, c.hosts_for_vcpu, c.hosts_for_memory, c.ha_hosts
            );
        }
        Driver::Vsan => {
            return format!(
                "raised to {} {} to keep more of its VMs' data on its vSAN, cheaper than ANF \
                 datastores for it ({} for vCPU, {} for memory + {} HA)",
                c.hosts, c.sku, c.hosts_for_vcpu, c.hosts_for_memory, c.ha_hosts
            );
        }
    };
    format!(
        "sized from compute: {why} + {} HA = {} {}",
        c.ha_hosts, c.hosts, c.sku
    )
}

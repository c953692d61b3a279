//! The words and cells of the estate's designs section (vSAN alone, ANF for all, hybrid;
//! for the estate and per AVS cluster; the ExpressRoute gateway line) the formats share.

use crate::numbers::group_thousands as g;
use crate::plan::{ClusterDesign, DesignTotal, GatewayLine};
use crate::report::model::estate::usd;

/// The gateway line in words.
pub(in crate::report) fn gateway_text(gw: &GatewayLine) -> String {
    format!(
        "ExpressRoute gateway for the ANF datastores: {}, {} USD/month each (not regional), \
         one per {} private clouds, {} already in place (`existing_er_gateways`); {}",
        gw.sku,
        g(gw.usd_per_month, 2),
        gw.private_clouds_per_gateway,
        gw.existing,
        gw.source
    )
}

/// One estate row's cells: design, hosts, clusters, hosts, ANF, gateways, total, year,
/// vSAN TiB, ANF TiB, VMs on ANF.
pub(in crate::report) fn estate_cells(r: &DesignTotal) -> Vec<String> {
    let label = if r.chosen {
        format!("{} (chosen)", r.design.label())
    } else {
        r.design.label().to_string()
    };
    if !r.feasible {
        let mut row = vec![label];
        row.extend(std::iter::repeat_n("-".to_string(), 10));
        return row;
    }
    vec![
        label,
        g(f64::from(r.hosts), 0),
        g(f64::from(r.clusters), 0),
        usd(r.hosts_usd_per_month),
        g(r.anf_usd_per_month, 2),
        format!("{} ({})", g(r.gateway_usd_per_month, 2), r.gateways),
        usd(r.total_usd_per_month),
        usd(r.total_usd_per_year),
        g(r.vsan_data_tib, 1),
        g(r.anf_data_tib, 1),
        g(r.vms_on_anf as f64, 0),
    ]
}

pub(in crate::report) const ESTATE_HEADER: [&str; 11] = [
    "design",
    "hosts",
    "clusters",
    "hosts USD/month",
    "ANF USD/month",
    "gateways USD/month (count)",
    "total USD/month",
    "total USD/year",
    "vSAN TiB",
    "ANF TiB",
    "VMs on ANF",
];

/// One cluster design's cells: hosts (with their SKU where it is not the estate's `sku`:
/// a first cluster the design moves to another SKU), vSAN GiB, ANF GiB, VMs on ANF, ANF,
/// total.
pub(in crate::report) fn design_cells(d: &ClusterDesign, sku: &str) -> [String; 6] {
    if !d.feasible {
        return std::array::from_fn(|_| "-".to_string());
    }
    let hosts = g(f64::from(d.hosts), 0);
    [
        if d.sku.is_empty() || d.sku == sku {
            hosts
        } else {
            format!("{hosts} {}", d.sku)
        },
        g(d.vsan_data_gib, 0),
        g(d.anf_data_gib, 0),
        g(d.vms_on_anf as f64, 0),
        g(d.anf_usd_per_month, 2),
        usd(d.total_usd_per_month),
    ]
}

/// The gateway line in short: SKU, price, private clouds per gateway and those in place
/// (the sources in [`gateway_text`]).
pub(in crate::report) fn gateway_short_text(gw: &GatewayLine) -> String {
    format!(
        "ExpressRoute gateway: {}, {} USD/month each, one per {} private clouds, {} already \
         in place (`existing_er_gateways`)",
        gw.sku,
        g(gw.usd_per_month, 2),
        gw.private_clouds_per_gateway,
        gw.existing
    )
}

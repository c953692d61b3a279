//! The estate's designs section (vSAN alone, ANF for all, hybrid; for the estate and per
//! AVS cluster; the ExpressRoute gateway line) as text and Markdown.

use std::fmt::Write as _;

use super::estate::usd;
use super::markdown::{cell, name, table};
use crate::numbers::group_thousands as g;
use crate::plan::{ClusterDesign, DesignTotal, EstateDesigns, GatewayLine};

/// The gateway line in words.
pub(super) fn gateway_text(gw: &GatewayLine) -> String {
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
fn estate_cells(r: &DesignTotal) -> Vec<String> {
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

const ESTATE_HEADER: [&str; 11] = [
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
fn design_cells(d: &ClusterDesign, sku: &str) -> [String; 6] {
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
fn gateway_short_text(gw: &GatewayLine) -> String {
    format!(
        "ExpressRoute gateway: {}, {} USD/month each, one per {} private clouds, {} already \
         in place (`existing_er_gateways`)",
        gw.sku,
        g(gw.usd_per_month, 2),
        gw.private_clouds_per_gateway,
        gw.existing
    )
}

/// The designs of an estate of `sku` hosts as text: the estate's rows and the gateway
/// line; with `detail` also the chosen design's reason, the gateway's sources, each AVS
/// cluster's designs and how the hybrid is searched.
pub(super) fn designs_text(s: &mut String, d: &EstateDesigns, sku: &str, detail: bool) {
    let _ = writeln!(
        s,
        "\nDesigns (hosts + ANF + ExpressRoute gateways per month; the cheapest is chosen)"
    );
    let widths = [22, 6, 8, 15, 13, 26, 15, 15, 9, 8, 10];
    let line = |cells: &[String]| {
        let mut l = String::from(" ");
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            if i == 0 {
                let _ = write!(l, " {c:<w$}");
            } else {
                let _ = write!(l, " {c:>w$}");
            }
        }
        l
    };
    let header: Vec<String> = ESTATE_HEADER.iter().map(|h| (*h).to_string()).collect();
    let _ = writeln!(s, "{}", line(&header));
    for r in &d.estate {
        let _ = writeln!(s, "{}  {}", line(&estate_cells(r)), r.note);
    }
    if !detail {
        let _ = writeln!(s, "  {}", gateway_short_text(&d.gateway));
        return;
    }
    let _ = writeln!(s, "  chosen: {}", d.why);
    let _ = writeln!(s, "  {}", gateway_text(&d.gateway));
    let _ = writeln!(
        s,
        "  per AVS cluster (USD/month; hosts, GiB on vSAN, GiB on ANF, VMs on ANF, ANF, \
         total; the gateways counted once, above; ANF with shares of shared pools priced \
         per GiB, the pools' rounding in the estate's rows):"
    );
    for c in &d.clusters {
        let part = |label: &str, x: &ClusterDesign| {
            let [h, v, a, k, anf, t] = design_cells(x, sku);
            format!("{label} {h} hosts, {v} / {a} GiB, {k} VMs on ANF, ANF {anf}, total {t}")
        };
        let _ = writeln!(
            s,
            "  {:<24} {:>3} compute hosts, {} GiB of data, {} VMs, {} TiB raw reserved",
            c.cluster,
            c.compute_hosts,
            g(c.data_gib, 0),
            g(c.vms as f64, 0),
            g(c.reserved_raw_tib, 2)
        );
        for (label, x) in [
            ("vSAN alone: ", &c.vsan),
            ("ANF for all:", &c.anf),
            ("hybrid:     ", &c.hybrid),
        ] {
            let _ = writeln!(s, "    {}", part(label, x));
        }
    }
    let _ = writeln!(s, "  {}", d.note);
}

/// The designs of an estate of `sku` hosts as Markdown.
pub(super) fn designs_markdown(s: &mut String, d: &EstateDesigns, sku: &str) {
    let _ = writeln!(s, "## Designs\n");
    let rows: Vec<Vec<String>> = d.estate.iter().map(estate_cells).collect();
    let mut numeric = vec![true; ESTATE_HEADER.len()];
    numeric[0] = false;
    table(s, &ESTATE_HEADER, &numeric, &rows);
    let _ = writeln!(s, "- **Chosen: {}.**", cell(&d.why));
    let _ = writeln!(s, "- {}.", cell(&gateway_text(&d.gateway)));
    let _ = writeln!(s, "- {}.\n", cell(&d.note));
    let _ = writeln!(s, "### Designs per AVS cluster\n");
    let mut rows = Vec::new();
    for c in &d.clusters {
        for (label, x) in [
            ("vSAN alone", &c.vsan),
            ("ANF for all", &c.anf),
            ("hybrid", &c.hybrid),
        ] {
            let mut row = vec![name(&c.cluster), label.to_string()];
            row.extend(design_cells(x, sku));
            rows.push(row);
        }
    }
    table(
        s,
        &[
            "cluster",
            "design",
            "hosts",
            "vSAN GiB",
            "ANF GiB",
            "VMs on ANF",
            "ANF USD/month",
            "total USD/month",
        ],
        &[false, false, true, true, true, true, true, true],
        &rows,
    );
    let _ = writeln!(
        s,
        "ANF per cluster: shares of shared pools priced per GiB of quota; the pools' rounding \
         up to whole TiB is in the estate's rows.\n"
    );
}

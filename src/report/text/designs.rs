//! The estate's designs section as text: the estate's rows and the gateway line; with the
//! detail the reason, the sources and each AVS cluster's designs.

use std::fmt::Write as _;

use crate::numbers::group_thousands as g;
use crate::plan::{ClusterDesign, EstateDesigns};
use crate::report::model::designs::{
    ESTATE_HEADER, design_cells, estate_cells, gateway_short_text, gateway_text,
};

/// The designs of an estate of `sku` hosts as text: the estate's rows and the gateway
/// line; with `detail` also the chosen design's reason, the gateway's sources, each AVS
/// cluster's designs and how the hybrid is searched.
pub(in crate::report) fn designs_text(s: &mut String, d: &EstateDesigns, sku: &str, detail: bool) {
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

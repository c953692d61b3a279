//! The estate's designs section as Markdown: the estate's rows, the chosen design's
//! reason, the gateway line and each AVS cluster's designs.

use std::fmt::Write as _;

use crate::plan::EstateDesigns;
use crate::report::markdown::{cell, name, table};
use crate::report::model::designs::{ESTATE_HEADER, design_cells, estate_cells, gateway_text};

/// The designs of an estate of `sku` hosts as Markdown.
pub(in crate::report) fn designs_markdown(s: &mut String, d: &EstateDesigns, sku: &str) {
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

//! The estate plan's sections as text (the summary's and the detail's, put together by
//! `text::estate`), each a model section.

use crate::plan::EstatePlan;
use crate::report::model;
use crate::report::text::render::{write_headline, write_section};

/// The headline ([`model::estate_headline::estate_headline`]): its first sentence after
/// `Estate: `, then one indented line each; the host price's source only with
/// `price_source`.
pub(in crate::report) fn summary(s: &mut String, plan: &EstatePlan, price_source: bool) {
    let headline = model::estate_headline::estate_headline(plan, price_source);
    write_headline(s, &headline, "Estate: ", "  ");
}

/// The designs ([`model::designs::estate`]; with `detail`, why the design was chosen, the
/// sources and each AVS cluster's designs, [`model::designs::per_cluster`]).
pub(in crate::report) fn designs(s: &mut String, plan: &EstatePlan, detail: bool) {
    let Some(d) = &plan.designs else {
        return;
    };
    write_section(s, &model::designs::estate(d, detail));
    if detail {
        write_section(s, &model::designs::per_cluster(d, &plan.sizing.sku));
    }
}

/// The AVS clusters ([`model::estate_sections::clusters`]).
pub(in crate::report) fn clusters(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::clusters(plan));
}

/// Every host SKU's estate and total ([`model::estate_sections::skus`]).
pub(in crate::report) fn skus(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::skus(plan));
}

/// The shared capacity pools ([`model::estate_sections::pools`]).
pub(in crate::report) fn pools(s: &mut String, plan: &EstatePlan) {
    if let Some(section) = model::estate_sections::pools(plan) {
        write_section(s, &section);
    }
}

/// The reservations bought once for the estate, when there are any
/// ([`model::estate_sections::estate_reservations`]).
pub(in crate::report) fn reservations(s: &mut String, plan: &EstatePlan) {
    if let Some(section) = model::estate_sections::estate_reservations(plan) {
        write_section(s, &section);
    }
}

/// Excluded VMs, once for the estate ([`model::estate_sections::excluded`]).
pub(in crate::report) fn excluded(s: &mut String, plan: &EstatePlan) {
    write_section(s, &model::estate_sections::excluded(plan));
}

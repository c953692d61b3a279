//! The estate plan's headline as a model section: what every format shows first.

use crate::numbers::{counted, group_thousands as g, plural, size_gib};
use crate::plan::EstatePlan;
use crate::report::model::delivered::{estate_delivers, estate_utilisation};
use crate::report::model::estate::{
    anf_text, hosts_text, peak_months, prices_text, usd, verdict, vsan_hosts_text,
};
use crate::report::model::table::Section;

/// What the plan leaves out in words: `10 VMs, 74.8 TiB (11.9% of the capacity read):
/// larger than any AVS host ...: 1 (74.3 TiB), template: 9 (0.5 TiB)`, sizes below 0.1 TiB
/// in GiB (`template: 1 (20 GiB)`); `None` when nothing.
fn left_out_words(l: &crate::plan::LeftOut, repeated: usize) -> Option<String> {
    // Rows repeating a VM planned once are not left out: said so beside, not counted.
    let repeats = (repeated > 0)
        .then(|| format!("{} counted once", counted(repeated as u64, "duplicate row")));
    if l.vms == 0 {
        return repeats.map(|r| format!("0 VMs; {r}"));
    }
    let reasons: Vec<String> = l
        .reasons
        .iter()
        .map(|r| {
            format!(
                "{}: {} ({})",
                r.reason.describe(),
                g(r.vms as f64, 0),
                size_gib(r.capacity_gib)
            )
        })
        .collect();
    let mut words = format!(
        "{}, {} ({}% of the capacity read): {}",
        counted(l.vms as u64, "VM"),
        size_gib(l.capacity_gib),
        g(l.capacity_pct, 1),
        reasons.join(", ")
    );
    if let Some(r) = repeats {
        words.push_str(&format!("; {r}"));
    }
    Some(words)
}

/// The estate in a few sentences, a section titled `Estate plan` (its figures on the
/// workbook's `Estate`): the VMs, hosts, AVS clusters, private clouds, ANF datastores and
/// region; the hosts by what drives them; the month's cost in parts with the host prices,
/// and the year's; the host price's note (its source only with `price_source`); why the
/// design was chosen; what the estate delivers and uses; a time-phased year; the first
/// month's cool transfer; vSAN alone against the plan.
pub fn estate_headline(plan: &EstatePlan, price_source: bool) -> Section {
    let m = &plan.summary;
    let d = &m.hosts_by_driver;
    let sized_only = if m.total_usd_per_month.is_none() {
        "sized only, no recommendation (no host price): "
    } else {
        ""
    };
    let mut lines = vec![
        format!(
            "{sized_only}{} on {} {} in {}, {}; {}; {} ({})",
            counted(m.vms_placed as u64, "VM"),
            hosts_text(m),
            plural(u64::from(m.hosts), "host"),
            counted(m.clusters as u64, "AVS cluster"),
            counted(m.private_clouds as u64, "private cloud"),
            anf_text(m),
            plan.location,
            plan.region
        ),
        format!(
            "hosts by driver: {} by vCPU, {} by memory, {} at the 3-host minimum, {} raised \
             for the datastores' IOPS and MiB/s, {}{} added to hold data on vSAN (HA reserve \
             included)",
            g(f64::from(d.vcpu), 0),
            g(f64::from(d.memory), 0),
            g(f64::from(d.minimum), 0),
            g(f64::from(d.storage), 0),
            match d.vsan_performance {
                0 => String::new(),
                n => format!("{} added for the vSAN's performance, ", g(f64::from(n), 0)),
            },
            g(f64::from(d.vsan), 0)
        ),
        format!(
            "cost: hosts {} + ANF {} + ExpressRoute gateways {} = {} USD/month ({}); {} \
             USD/year",
            usd(m.hosts_usd_per_month),
            g(m.anf_usd_per_month, 2),
            g(m.gateway_usd_per_month, 2),
            usd(m.total_usd_per_month),
            prices_text(m),
            usd(m.total_usd_per_year)
        ),
    ];
    if !m.host_price_note.is_empty() {
        let note = match (&m.host_price_source, price_source) {
            (Some(source), false) => m.host_price_note.replace(&format!(", from {source}"), ""),
            _ => m.host_price_note.clone(),
        };
        lines.push(format!("host price: {note}"));
    }
    if let Some(d) = &plan.designs {
        if m.total_usd_per_month.is_none() {
            // Without a host price no total decides: nothing is recommended.
            lines.push(format!(
                "design: none recommended: without a {} host price the designs and SKUs \
                 cannot be compared (give `host_price_file`); shown: {}",
                m.host_term, d.why
            ));
        } else {
            lines.push(format!("design: {}", d.why));
        }
    }
    lines.push(format!("delivers: {}", estate_delivers(plan)));
    lines.push(format!("utilisation: {}", estate_utilisation(plan)));
    let repeated = plan
        .excluded
        .iter()
        .filter(|x| x.reason == crate::demand::ExclusionReason::Duplicate)
        .count();
    if let Some(words) = left_out_words(&m.left_out, repeated) {
        lines.push(format!("left out: {words}"));
    }
    if let Some(months) = peak_months(plan) {
        lines.push(format!(
            "time-phased: the monthly ANF figure is the base months'; the year counts the \
             {months} peak month(s) at each cluster's peak layout"
        ));
    }
    if m.first_month_cool_transfer_usd > 0.0 {
        lines.push(format!(
            "first month only: {} USD to move the cold data into the cool tier",
            g(m.first_month_cool_transfer_usd, 2)
        ));
    }
    if let Some(h) = m.vsan_alone_hosts {
        let sku = m.vsan_alone_sku.as_deref().unwrap_or(&m.sku);
        let cheapest = if sku == m.sku {
            String::new()
        } else {
            " (its cheapest SKU)".to_string()
        };
        // `23 av36p`, or `20 av64 + 3 av36p` with first clusters of another SKU.
        let hosts = match &plan.vsan_alone {
            Some(v) => vsan_hosts_text(&v.sizing),
            None => format!("{} {sku}", g(f64::from(h), 0)),
        };
        lines.push(format!(
            "vSAN alone: {hosts} {}{cheapest}, {} USD/month{}",
            plural(u64::from(h), "host"),
            usd(m.vsan_alone_usd_per_month),
            verdict(m)
        ));
    }
    let mut section = Section::of_words("Estate plan", "Estate");
    section.lead = lines;
    section
}

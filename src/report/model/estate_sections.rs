//! The estate plan as model sections: the host SKUs, the shared capacity pools, the sizing
//! assumptions, and the assumptions and prices every cluster's ANF plan shares (shown once
//! for the estate, [`shared_assumptions`] and [`shared_prices`]).

use crate::numbers::{counted, group_thousands as g, plural};
use crate::plan::{Assumption, ClusterPlan, EstatePlan, PriceUsed, ReservationPurchase};
use crate::report::model::delivered;
use crate::report::model::delivered::size_cell;
use crate::report::model::designs;
use crate::report::model::estate::{
    cluster_plan, first_clusters_text, per_host_text, sizing_hosts_text, usd, vsan_hosts_text,
};
use crate::report::model::plan::{self, assumptions_section, prices_section};
use crate::report::model::table::{Cell, Column, Section, Table};

/// Title of the assumptions every cluster's ANF plan shares.
pub const SHARED_ASSUMPTIONS: &str =
    "Assumptions (every cluster's ANF plan; a cluster's own follow its plan)";

/// Title of a cluster's assumptions that are not shared.
pub const OWN_ASSUMPTIONS: &str = "This cluster's assumptions (the others are the estate's)";

/// The model's sections of the estate, in the order the reports show them (a section with
/// nothing to show left out; the designs as `--detail` shows them). The headline
/// ([`crate::report::model::estate_headline`]) comes first; the reports put the estate's
/// warnings and each cluster's plan between them.
pub fn estate_sections(plan: &EstatePlan) -> Vec<Section> {
    let mut out = estate_tables(plan);
    out.extend(clusters_sections(&plan.clusters, &plan.region));
    out.push(excluded(plan));
    out
}

/// The estate's own sections, before its warnings and its clusters' plans: the AVS
/// clusters, performance and utilisation, the designs (as `--detail` shows them) and each
/// cluster's, the host SKUs, the capacity pools, the reservations, vSAN alone and the
/// sizing assumptions.
pub fn estate_tables(plan: &EstatePlan) -> Vec<Section> {
    let mut out = vec![clusters(plan), delivered::performance(plan)];
    if let Some(d) = &plan.designs {
        out.push(designs::estate(d, true));
        out.push(designs::per_cluster(d, &plan.sizing.sku));
    }
    out.push(skus(plan));
    out.extend(pools(plan));
    out.extend(estate_reservations(plan));
    out.extend(vsan_alone(plan));
    out.push(sizing_assumptions(plan));
    out
}

/// The reservations bought once for the estate (`None` without).
pub fn estate_reservations(plan: &EstatePlan) -> Option<Section> {
    reservations(
        &plan.reservations,
        "Bought once for the estate, per region and service level (the pools above are \
         priced pay as you go)",
    )
}

/// The sections of the cluster plans of an estate or per-cluster document: the
/// assumptions and prices they share, once ([`shared`]), then each plan's own sections
/// ([`plan::cluster_sections`]; its assumptions the others do not share).
pub fn clusters_sections(clusters: &[ClusterPlan], region: &str) -> Vec<Section> {
    let mut out = shared(clusters, region);
    let common = shared_assumptions(clusters);
    for c in clusters {
        for mut section in plan::cluster_sections(&c.plan) {
            // A workbook of many clusters holds each cluster's totals in its row on
            // `Clusters` (one plan's, on `Summary`).
            if section.sheet == "Summary" {
                section.sheet = "Clusters";
            }
            out.push(section);
        }
        out.extend(own_assumptions(c, &common));
    }
    out
}

/// The assumptions and prices `clusters`' plans share, once (none without a cluster plan).
pub fn shared(clusters: &[ClusterPlan], region: &str) -> Vec<Section> {
    let mut out = Vec::new();
    let assumptions = shared_assumptions(clusters);
    if !assumptions.is_empty() {
        out.push(assumptions_section(
            SHARED_ASSUMPTIONS,
            assumptions,
            "assumption",
            "source",
        ));
    }
    let title = format!("Prices ({region}; every cluster's ANF plan)");
    out.extend(prices_section(&title, &shared_prices(clusters)));
    out
}

/// The assumptions every cluster's plan states alike (same name, value and note), in the
/// first plan's order; never `hosts`, each cluster's own.
pub fn shared_assumptions(clusters: &[ClusterPlan]) -> Vec<&Assumption> {
    let Some((first, rest)) = clusters.split_first() else {
        return Vec::new();
    };
    first
        .plan
        .assumptions
        .iter()
        .filter(|a| a.name != "hosts")
        .filter(|a| rest.iter().all(|c| c.plan.assumptions.contains(a)))
        .collect()
}

/// The price rows the clusters' plans use, each once, in the order first used.
pub fn shared_prices(clusters: &[ClusterPlan]) -> Vec<PriceUsed> {
    let mut rows: Vec<PriceUsed> = Vec::new();
    for p in clusters.iter().flat_map(|c| &c.plan.prices) {
        if !rows.contains(p) {
            rows.push(p.clone());
        }
    }
    rows
}

/// A cluster's assumptions not among `shared`, under [`OWN_ASSUMPTIONS`] (`None` when all
/// are shared).
pub fn own_assumptions(c: &ClusterPlan, shared: &[&Assumption]) -> Option<Section> {
    let own: Vec<&Assumption> = c
        .plan
        .assumptions
        .iter()
        .filter(|a| !shared.iter().any(|s| s.name == a.name))
        .collect();
    (!own.is_empty()).then(|| assumptions_section(OWN_ASSUMPTIONS, own, "assumption", "source"))
}

/// The estate's sizing settings: name, value, note.
pub fn sizing_assumptions(plan: &EstatePlan) -> Section {
    assumptions_section("Sizing assumptions", &plan.assumptions, "setting", "note")
}

/// Every host SKU on its design: hosts, clusters, private clouds, the month's hosts, ANF,
/// gateways and total, vSAN alone.
pub fn skus(plan: &EstatePlan) -> Section {
    let rows = plan
        .sku_alternatives
        .iter()
        .map(|a| {
            vec![
                Cell::text(a.sku.clone()),
                Cell::text(a.design.label()),
                if a.feasible {
                    Cell::Count(u64::from(a.hosts))
                } else {
                    Cell::Dash
                },
                Cell::Count(a.clusters as u64),
                Cell::Count(a.private_clouds as u64),
                Cell::MaybeUsd(a.hosts_usd_per_month),
                Cell::MaybeUsd(a.anf_usd_per_month),
                Cell::Usd(a.gateway_usd_per_month),
                Cell::MaybeUsd(a.total_usd_per_month),
                a.vsan_alone_hosts
                    .map_or(Cell::Dash, |h| Cell::Count(u64::from(h))),
                Cell::MaybeUsd(a.vsan_alone_usd_per_month),
                Cell::text(a.note.clone()),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("SKU"),
            Column::words("design"),
            Column::figures("hosts", ""),
            Column::figures("clusters", ""),
            Column::figures("private clouds", ""),
            Column::figures("hosts", "USD/month"),
            Column::figures("ANF", "USD/month"),
            Column::figures("gateways", "USD/month"),
            Column::figures("total", "USD/month"),
            Column::figures("vSAN-alone hosts", ""),
            Column::figures("vSAN-alone", "USD/month"),
            Column::words("note"),
        ],
        rows,
    };
    let mut section = Section::of_table("Host SKUs", "SKUs", table);
    section
        .lead
        .push("Each SKU on its design: hosts + ANF + ExpressRoute gateways per month".to_string());
    section
}

/// The capacity pools the clusters' datastores share (none without).
pub fn pools(plan: &EstatePlan) -> Option<Section> {
    if plan.pools.is_empty() {
        return None;
    }
    let rows = plan
        .pools
        .iter()
        .map(|p| {
            vec![
                Cell::text(p.name.clone()),
                Cell::Name(p.account.clone()),
                Cell::text(p.service_level.to_string()),
                Cell::YesNo(p.cool_access),
                Cell::number(f64::from(p.size_tib), 0),
                Cell::number(p.quota_gib as f64, 0),
                Cell::number(p.throughput_mibps, 0),
                Cell::Count(u64::from(p.datastores)),
                Cell::Name(p.clusters.join(", ")),
                Cell::Usd(p.cost_usd_per_month),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("pool"),
            Column::words("NetApp account"),
            Column::words("level"),
            Column::words("cool access"),
            Column::figures("", "TiB"),
            Column::figures("quotas", "GiB"),
            Column::figures("", "MiB/s"),
            Column::figures("datastores", ""),
            Column::words("clusters"),
            Column::figures("", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table("Capacity pools", "Estate pools", table);
    section.notes.push(
        "A pool of shares is its clusters' datastore quotas rounded up to whole TiB once; each \
         cluster pays its quota's share of the pool's hot tier"
            .to_string(),
    );
    Some(section)
}

/// The reservations bought once for the estate (`None` without), per region and service
/// level, what they cost and save; `lead`: the sentence before the table.
pub fn reservations(list: &[ReservationPurchase], lead: &str) -> Option<Section> {
    if list.is_empty() {
        return None;
    }
    let rows = list
        .iter()
        .map(|r| {
            vec![
                Cell::text(r.region.clone()),
                Cell::text(r.service_level.to_string()),
                Cell::text(r.term.clone()),
                Cell::number(r.hot_tib, 1),
                Cell::number(f64::from(r.reserved_tib), 0),
                Cell::text(plan::units_text(&r.units)),
                Cell::Usd(r.pay_as_you_go_usd_per_month),
                Cell::Usd(r.cost_usd_per_month),
                Cell::Usd(r.savings_usd_per_month),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("region"),
            Column::words("level"),
            Column::words("term"),
            Column::figures("hot", "TiB"),
            Column::figures("reserved", "TiB"),
            Column::words("units"),
            Column::figures("pay as you go", "USD/month"),
            Column::figures("reserved", "USD/month"),
            Column::figures("saves", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table("Reservations", "Reservations", table);
    section.lead.push(lead.to_string());
    Some(section)
}

/// The same estate on vSAN alone (`None` without): hosts, clusters, private clouds and
/// cost, then per AVS cluster its compute and vSAN hosts, policy, data and raw capacity.
pub fn vsan_alone(plan: &EstatePlan) -> Option<Section> {
    let v = plan.vsan_alone.as_ref()?;
    let rows = v
        .sizing
        .clusters
        .iter()
        .map(|c| {
            vec![
                Cell::Name(c.cluster.clone()),
                Cell::Count(u64::from(c.compute_hosts)),
                Cell::Count(u64::from(c.hosts)),
                Cell::Count(c.clusters as u64),
                Cell::text(c.policy.clone()),
                Cell::number(c.data_gib, 0),
                Cell::number(c.raw_needed_tib, 1),
                Cell::number(c.reserved_raw_tib, 1),
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("cluster"),
            Column::figures("compute hosts", ""),
            Column::figures("vSAN hosts", ""),
            Column::figures("vSAN clusters", ""),
            Column::words("policy"),
            Column::figures("data", "GiB"),
            Column::figures("raw", "TiB"),
            Column::figures("reserved raw", "TiB"),
        ],
        rows,
    };
    let mut section = Section::of_table("vSAN alone", "vSAN alone", table);
    section.lead.push(format!(
        "{} {} ({} more than the plan's {}), {}, {}, {} USD/month",
        vsan_hosts_text(&v.sizing),
        plural(u64::from(v.sizing.hosts), "host"),
        v.sizing.extra_hosts,
        plan.sizing.hosts,
        counted(u64::from(v.sizing.cluster_count), "cluster"),
        counted(u64::from(v.sizing.private_clouds), "private cloud"),
        usd(v.usd_per_month)
    ));
    section.notes.push(v.note.trim_end_matches('.').to_string());
    Some(section)
}

/// The estate's excluded VMs by reason, once (each cluster's plan lists none).
pub fn excluded(plan: &EstatePlan) -> Section {
    let gib = plan
        .excluded
        .iter()
        .filter_map(|e| e.capacity_gib)
        .fold(0.0, |a, c| a + c);
    plan::excluded_section("Excluded VMs (the estate's)", &plan.excluded, gib, "")
}

/// The AVS clusters: private cloud, hosts and what drives them, VMs, compute, and each
/// cluster's ANF datastores, pools, pool size and cost (`(vSAN)` where the design keeps its
/// data on vSAN, `(no VMs)` and `-` for a private cloud's added first cluster).
pub fn clusters(plan: &EstatePlan) -> Section {
    let rows = plan
        .sizing
        .clusters
        .iter()
        .map(|c| {
            let p = cluster_plan(plan, &c.name);
            let pools = p.map_or_else(
                || {
                    if c.management_only {
                        "(no VMs)"
                    } else {
                        "(vSAN)"
                    }
                    .to_string()
                },
                |p| {
                    let names: Vec<&str> = p.plan.pools.iter().map(|x| x.name.as_str()).collect();
                    names.join(", ")
                },
            );
            let name = if c.sku == plan.sizing.sku {
                c.name.clone()
            } else {
                format!("{} ({})", c.name, c.sku)
            };
            let (ds, tib, usd) = match p {
                Some(p) => (
                    Cell::Count(u64::from(p.plan.totals.datastores)),
                    Cell::text(pool_size_cell(&p.plan)),
                    Cell::Usd(p.plan.totals.cost_usd_per_month),
                ),
                None if c.management_only => (Cell::Dash, Cell::Dash, Cell::Dash),
                None => (Cell::Count(0), Cell::text("0"), Cell::Usd(0.0)),
            };
            vec![
                Cell::Name(name),
                Cell::text(c.private_cloud.clone()),
                Cell::Count(u64::from(c.hosts)),
                Cell::text(c.driver.as_str()),
                Cell::Count(u64::from(c.hosts_for_vcpu)),
                Cell::Count(u64::from(c.hosts_for_memory)),
                Cell::number(c.vms as f64, 0),
                Cell::number(c.vcpus as f64, 0),
                Cell::number(c.memory_gib, 0),
                ds,
                Cell::text(pools),
                tib,
                usd,
            ]
        })
        .collect();
    let table = Table {
        columns: vec![
            Column::words("cluster"),
            Column::words("private cloud"),
            Column::figures("hosts", ""),
            Column::words("driver"),
            Column::figures("by vCPU", ""),
            Column::figures("by memory", ""),
            Column::figures("VMs", ""),
            Column::figures("vCPU", ""),
            Column::figures("memory", "GiB"),
            Column::figures("datastores", ""),
            Column::words("pools"),
            Column::figures("pools", "TiB"),
            Column::figures("ANF", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table("AVS clusters", "Clusters", table);
    let sizing = &plan.sizing;
    section.notes.push(format!(
        "Per host: {}; cluster hosts = max(by vCPU, by memory) + HA, at least 3.{} {}, {} \
         vCPU, {} GiB of memory in {}; {}",
        per_host_text(plan),
        raised_text(sizing),
        sizing_hosts_text(sizing),
        g(sizing.vcpus as f64, 0),
        g(sizing.memory_gib, 0),
        counted(sizing.private_clouds.len() as u64, "private cloud"),
        first_clusters_text(plan)
    ));
    section
}

/// The drivers of clusters a design raised beyond their compute hosts, in words (` Raised
/// beyond them: vsan_performance for the vSAN's IOPS and MiB/s.`), empty when none is.
fn raised_text(sizing: &crate::sizing::EstateSizing) -> String {
    use crate::sizing::Driver;
    let words = [
        (Driver::Storage, "for the datastores' IOPS and MiB/s"),
        (Driver::Vsan, "to hold data on vSAN"),
        (Driver::VsanPerformance, "for the vSAN's IOPS and MiB/s"),
    ];
    let present: Vec<String> = words
        .iter()
        .filter(|(d, _)| sizing.clusters.iter().any(|c| c.driver == *d))
        .map(|(d, w)| format!("{} {w}", d.as_str()))
        .collect();
    if present.is_empty() {
        return String::new();
    }
    format!(" Raised beyond them: {}.", present.join(", "))
}

/// A cluster's pool size cell: its pools' whole TiB, or its shares' GiB (`50 GiB`), or both.
fn pool_size_cell(plan: &crate::plan::Plan) -> String {
    let shares: u32 = plan.pools.iter().map(|p| p.share_gib).sum();
    let tib = plan.totals.pool_size_tib;
    match (tib, shares) {
        (_, 0) => g(f64::from(tib), 0),
        (0, s) => size_cell(0, s),
        (t, s) => format!("{} + {}", g(f64::from(t), 0), size_cell(0, s)),
    }
}

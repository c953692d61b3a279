//! The total of per-cluster plans (`--per-cluster`) as model sections: one row per cluster
//! and the total, what the first month adds and what is not planned; the reservations
//! bought once for the estate.

use crate::numbers::{counted, group_thousands as g};
use crate::plan::ClusterPlans;
use crate::report::model::estate_sections;
use crate::report::model::table::{Cell, Column, Section, Table};

/// The model's sections of per-cluster plans: the clusters'
/// ([`estate_sections::clusters_sections`]), then the total ([`total`]), the estate's
/// reservations ([`reservations`]) and its excluded VMs ([`excluded`]).
pub fn cluster_plans_sections(plans: &ClusterPlans) -> Vec<Section> {
    let region = plans
        .clusters
        .first()
        .map_or("", |c| c.plan.region.as_str());
    let mut out = estate_sections::clusters_sections(&plans.clusters, region);
    out.push(total(plans));
    out.extend(reservations(plans));
    out.extend(excluded(plans));
    out
}

/// The total over the clusters: a sentence with the hosts, datastores, pools' TiB, placed
/// GiB and monthly cost (with the estate's reservations), one row per cluster and the
/// total's row (hosts, datastores, pool TiB, placed GiB, USD/month), then the first
/// month's cool transfer and the VMs no cluster plans, when there are any.
pub fn total(plans: &ClusterPlans) -> Section {
    let t = &plans.total;
    let row = |name: Cell, hosts: u32, ds: u32, tib: u32, gib: f64, usd: f64| {
        vec![
            name,
            Cell::Count(u64::from(hosts)),
            Cell::Count(u64::from(ds)),
            Cell::number(f64::from(tib), 0),
            Cell::number(gib, 1),
            Cell::Usd(usd),
        ]
    };
    let mut rows: Vec<Vec<Cell>> = plans
        .clusters
        .iter()
        .map(|c| {
            let p = &c.plan.totals;
            row(
                Cell::Name(c.cluster.clone()),
                c.hosts,
                p.datastores,
                p.pool_size_tib,
                p.placed_capacity_gib,
                p.cost_usd_per_month,
            )
        })
        .collect();
    rows.push(row(
        Cell::text("total"),
        t.hosts,
        t.datastores,
        t.pool_size_tib,
        t.placed_capacity_gib,
        t.cost_usd_per_month,
    ));
    let table = Table {
        columns: vec![
            Column::words("cluster"),
            Column::figures("hosts", ""),
            Column::figures("datastores", ""),
            Column::figures("pool", "TiB"),
            Column::figures("placed", "GiB"),
            Column::figures("", "USD/month"),
        ],
        rows,
    };
    let mut section = Section::of_table(
        format!("Total over {}", counted(t.clusters as u64, "cluster")),
        "Total",
        table,
    );
    section.lead.push(format!(
        "{}, {}, {} TiB of pools, {} GiB placed, {} USD/month",
        counted(u64::from(t.hosts), "host"),
        counted(u64::from(t.datastores), "datastore"),
        g(f64::from(t.pool_size_tib), 0),
        g(t.placed_capacity_gib, 1),
        g(t.cost_usd_per_month, 2)
    ));
    if t.first_month_cool_transfer_usd > 0.0 {
        section.notes.push(format!(
            "First month only: {} USD to move the cold data into the cool tier",
            g(t.first_month_cool_transfer_usd, 2)
        ));
    }
    if t.vms_without_cluster > 0 {
        section.notes.push(format!(
            "Not planned: {} that name no cluster ({} GiB)",
            counted(t.vms_without_cluster as u64, "VM"),
            g(t.vms_without_cluster_capacity_gib, 1)
        ));
    }
    section
}

/// The reservations bought once for the estate (`None` without), with what they save
/// against the clusters' pay-as-you-go plans.
pub fn reservations(plans: &ClusterPlans) -> Option<Section> {
    let lead = format!(
        "Bought once for the estate (the clusters above are pay as you go; the total counts \
         them, saving {} USD/month)",
        g(plans.total.reservation_savings_usd_per_month, 2)
    );
    estate_sections::reservations(&plans.reservations, &lead)
}

/// The VMs no cluster's plan holds, by reason (`None` when none is excluded).
pub fn excluded(plans: &ClusterPlans) -> Option<Section> {
    (!plans.excluded.is_empty()).then(|| {
        crate::report::model::plan::excluded_section(
            "Excluded VMs of the estate",
            &plans.excluded,
            plans.total.excluded_capacity_gib,
            ", in no cluster's plan",
        )
    })
}

//! Charts of many clusters: one bar per cluster up to [`TOP_CLUSTERS`] + 1 clusters;
//! beyond, the [`TOP_CLUSTERS`] largest (by the chart's ranking value, then name) and one
//! "others (N clusters)" bar summing the rest. Bars run largest first.

use super::draw::{BarSeries, Bars, bar_svg};
use super::style::{BLUE, SKY, TOP_CLUSTERS};
use crate::numbers::group_thousands;
use crate::plan::ClusterPlan;
use crate::report::ReportError;

/// Rows of a chart of clusters: a label and one value per series.
pub struct Ranked {
    /// Category labels, largest first, "others (N clusters)" last where the rule applies.
    pub labels: Vec<String>,
    /// One vector per series, in the order of `labels`.
    pub values: Vec<Vec<f64>>,
}

/// Ranks `rows` (name, values) by `values[rank_by]` (largest first, then name) and folds
/// all but the first [`TOP_CLUSTERS`] into one "others" row when there are more than
/// [`TOP_CLUSTERS`] + 1.
pub fn top_and_others(mut rows: Vec<(String, Vec<f64>)>, rank_by: usize) -> Ranked {
    let key = |r: &(String, Vec<f64>)| r.1.get(rank_by).copied().unwrap_or(0.0);
    rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then_with(|| a.0.cmp(&b.0)));
    let series = rows.first().map_or(0, |r| r.1.len());
    if rows.len() > TOP_CLUSTERS + 1 {
        let rest = rows.split_off(TOP_CLUSTERS);
        let mut sums = vec![0.0; series];
        for (_, v) in &rest {
            for (s, x) in sums.iter_mut().zip(v) {
                *s += x;
            }
        }
        rows.push((format!("others ({} clusters)", rest.len()), sums));
    }
    let values = (0..series)
        .map(|k| {
            rows.iter()
                .map(|r| r.1.get(k).copied().unwrap_or(0.0))
                .collect()
        })
        .collect();
    Ranked {
        labels: rows.into_iter().map(|r| r.0).collect(),
        values,
    }
}

/// The label of `n` clusters ("1 cluster", "30 clusters").
fn clusters_noun(n: usize) -> String {
    if n == 1 {
        "1 cluster".into()
    } else {
        format!("{n} clusters")
    }
}

/// Each cluster's monthly ANF cost, top clusters and others; the title gives the sum and
/// the costliest cluster.
pub fn cost_by_cluster_svg(clusters: &[ClusterPlan]) -> Result<String, ReportError> {
    let rows: Vec<_> = clusters
        .iter()
        .map(|c| (c.cluster.clone(), vec![c.plan.totals.cost_usd_per_month]))
        .collect();
    let sum: f64 = rows.iter().map(|r| r.1[0]).sum();
    let ranked = top_and_others(rows, 0);
    let title = match (ranked.labels.first(), ranked.values.first()) {
        (Some(top), Some(v)) if clusters.len() > 1 => format!(
            "ANF for {} costs {} USD/month; {top} the most ({})",
            clusters_noun(clusters.len()),
            group_thousands(sum, 2),
            group_thousands(v[0], 2)
        ),
        _ => format!("ANF costs {} USD/month", group_thousands(sum, 2)),
    };
    bar_svg(&Bars {
        title: &title,
        value_axis: "USD per month",
        category_axis: "cluster",
        categories: ranked.labels,
        series: vec![BarSeries {
            name: "ANF, USD per month".into(),
            colour: BLUE,
            values: ranked.values.into_iter().next().unwrap_or_default(),
        }],
        marked: Vec::new(),
        category_colours: Vec::new(),
    })
}

/// Pool capacity (TiB shown as GiB; a share of a shared pool, its GiB) and placed data of
/// each cluster, GiB, top clusters by data and others; the title gives the sums.
pub fn cluster_capacity_svg(clusters: &[ClusterPlan]) -> Result<String, ReportError> {
    let pool_gib = |c: &ClusterPlan| {
        let shares: f64 = c.plan.pools.iter().map(|p| f64::from(p.share_gib)).sum();
        f64::from(c.plan.totals.pool_size_tib) * 1024.0 + shares
    };
    let rows: Vec<_> = clusters
        .iter()
        .map(|c| {
            (
                c.cluster.clone(),
                vec![pool_gib(c), c.plan.totals.placed_capacity_gib],
            )
        })
        .collect();
    let pools: f64 = rows.iter().map(|r| r.1[0]).sum();
    let data: f64 = rows.iter().map(|r| r.1[1]).sum();
    let ranked = top_and_others(rows, 1);
    let title = format!(
        "{} {} {} GiB in {} GiB of ANF pools",
        clusters_noun(clusters.len()),
        if clusters.len() == 1 {
            "places"
        } else {
            "place"
        },
        group_thousands(data, 0),
        group_thousands(pools, 0)
    );
    let mut values = ranked.values.into_iter();
    bar_svg(&Bars {
        title: &title,
        value_axis: "GiB",
        category_axis: "cluster",
        categories: ranked.labels,
        series: vec![
            BarSeries {
                name: "pool capacity, GiB".into(),
                colour: SKY,
                values: values.next().unwrap_or_default(),
            },
            BarSeries {
                name: "data placed, GiB".into(),
                colour: BLUE,
                values: values.next().unwrap_or_default(),
            },
        ],
        marked: Vec::new(),
        category_colours: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_nine_rows_keep_eight_and_sum_the_rest() {
        // 12 rows valued 1..=12: the top 8 are 12..=5, others 4 + 3 + 2 + 1 = 10.
        let rows = (1..=12)
            .map(|i| (format!("c{i:02}"), vec![f64::from(i), 1.0]))
            .collect();
        let r = top_and_others(rows, 0);
        assert_eq!(r.labels.len(), 9);
        assert_eq!(r.labels[0], "c12");
        assert_eq!(r.labels[8], "others (4 clusters)");
        assert_eq!(r.values[0][8], 10.0);
        assert_eq!(r.values[1][8], 4.0);
        // Nine rows stay nine: no "others (1 clusters)".
        let rows = (1..=9)
            .map(|i| (format!("c{i}"), vec![f64::from(i)]))
            .collect();
        let r = top_and_others(rows, 0);
        assert!(r.labels.iter().all(|l| !l.starts_with("others")));
    }
}

//! What a plan's saving is counted against (issue 26): vSAN alone and ANF for all each on
//! its cheapest priced SKU, named, never a dearer SKU's figure. The fixture
//! `fixtures/apps-and-files-vinfo.csv` (`examples/make_fixtures.rs`) has two clusters, one
//! compute-heavy and one storage-heavy: AV64's many cores win the plan, AV36P's cheaper
//! vSAN per TiB wins vSAN alone.

use std::path::PathBuf;

use dsplan::plan::{Design, EstatePlan};
use dsplan::{PlanOptions, Planner};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn plan(host_sku: Option<&str>) -> EstatePlan {
    plan_with(host_sku, None)
}

fn plan_with(host_sku: Option<&str>, design: Option<Design>) -> EstatePlan {
    Planner::new()
        .input(root().join("fixtures/apps-and-files-vinfo.csv"))
        .options({
            let mut options = PlanOptions::default().design(design);
            options.host_sku = host_sku.map(Into::into);
            options
        })
        .plan_estate()
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

// Apps: 150 VMs of 16 vCPU, 32 GiB, 700 GiB = 105,000 GiB (102.54 TiB); Files: 6 VMs of 2
// vCPU, 8 GiB, 8,192 GiB = 49,152 GiB (48 TiB). Host prices in eastus: AV36P 9.20 x 730 =
// 6,716.00, AV64 13.22 x 730 = 9,650.60 per host-month. vSAN: raw 19.2e12 / 2^40 = 17.4623
// TiB a host on AV36P, 15.36e12 / 2^40 = 13.9698 on AV64; 25% slack; 20% headroom; the
// first cluster keeps 15.7224 TiB raw for AVS, every other 11.3178; RAID-1 x2 at 3 hosts,
// RAID-6 x1.5 from 6.
//
// vSAN alone on AV36P: Apps is 2,400 vCPU / 144 = 16.7 -> filled into 15 + 1 HA = 16 hosts
// (135 VMs, 94,500 GiB = 92.29 TiB) and 2 + 1 = 3 (15 VMs, 10,500 GiB = 10.25 TiB; balanced
// would be 10 + 10); 16 hosts hold (0.75 x 16 x 17.4623 - 11.3178) / 1.5 / 1.2 = 110.13 TiB
// >= 92.29, 3 hold (0.75 x 3 x 17.4623 - 11.3178) / 2 / 1.2 = 11.66 >= 10.25: no growth.
// Files, the private cloud's first cluster: 7 hosts hold (91.68 - 15.72) / 1.8 = 42.20 <
// 48, 8 hold (104.77 - 15.72) / 1.8 = 49.47 -> 8. 16 + 3 + 8 = 27 hosts x 6,716.00 =
// 181,332.00.
// vSAN alone on AV64: Apps 2,400 / 256 = 9.4 -> 10 + 1 = 11 compute hosts; on vSAN 20 hosts
// in 2 clusters hold (0.75 x 20 x 13.9698 - 2 x 11.3178) / 1.8 = 103.84 TiB >= 102.54 (19
// hold 98.0); its first cluster: Files moved to AV36P, 8 hosts as above (53,728.00, against
// more on AV64 and an added 3-host cluster's 20,148.00): 20 x 9,650.60 + 53,728.00 =
// 246,740.00.
#[test]
fn the_saving_is_counted_against_the_cheapest_vsan_only_estate_named() {
    let p = plan(None);
    let s = &p.summary;
    // AV64's hybrid is the plan: Apps on 11 AV64 hosts, Files moved to 3 AV36P hosts as
    // the private cloud's first cluster, what their vSAN does not keep on ANF.
    assert_eq!((s.sku.as_str(), s.design), ("av64", Design::Hybrid));
    let by: Vec<(&str, u32)> = s
        .hosts_by_sku
        .iter()
        .map(|h| (h.sku.as_str(), h.hosts))
        .collect();
    assert_eq!(by, [("av64", 11), ("av36p", 3)]);
    // 11 x 9,650.60 + 3 x 6,716.00 = 106,156.60 + 20,148.00 = 126,304.60.
    assert_eq!(s.hosts_usd_per_month, Some(126_304.6));
    let total = s.total_usd_per_month.unwrap();
    assert!(close(total, 126_304.6 + s.anf_usd_per_month + 1_365.1));
    // vSAN alone: AV36P's 181,332.00, not AV64's 246,740.00 (both worked above).
    let alt = |sku: &str| p.sku_alternatives.iter().find(|a| a.sku == sku).unwrap();
    assert_eq!(alt("av36p").vsan_alone_usd_per_month, Some(181_332.0));
    assert_eq!(alt("av64").vsan_alone_usd_per_month, Some(246_740.0));
    assert_eq!(s.vsan_alone_sku.as_deref(), Some("av36p"));
    assert_eq!(s.vsan_alone_hosts, Some(27));
    assert_eq!(s.vsan_alone_usd_per_month, Some(181_332.0));
    assert!(close(s.savings_usd_per_month.unwrap(), 181_332.0 - total));
    // The plan's vSAN alone is AV36P's estate, cluster by cluster.
    let v = &p.vsan_alone.as_ref().unwrap().sizing;
    let per: Vec<(&str, &str, u32)> = v
        .clusters
        .iter()
        .map(|c| (c.cluster.as_str(), c.sku.as_str(), c.hosts))
        .collect();
    assert_eq!(
        per,
        [
            ("avs-Apps-1", "av36p", 16),
            ("avs-Apps-2", "av36p", 3),
            ("avs-Files", "av36p", 8)
        ]
    );
    // The words name the SKU the saving is counted against.
    let why = &p.designs.as_ref().unwrap().why;
    let saving = dsplan::numbers::group_thousands(181_332.0 - total, 2);
    assert!(
        why.contains(&format!(
            "saves {saving} USD/month against vSAN alone (on av36p, its cheapest SKU)"
        )),
        "{why}"
    );
    let text = dsplan::report::render_estate_text(&p, dsplan::report::TextDetail::Summary);
    assert!(
        text.contains("vSAN alone: 27 av36p hosts (its cheapest SKU), 181,332.00 USD/month"),
        "{text}"
    );
    // ANF for all is counted on its cheapest SKU too, named in the JSON.
    assert_eq!(s.anf_for_all_sku.as_deref(), Some("av64"));
    let anf = alt("av64");
    assert_eq!(anf.design, Design::Hybrid);
    // With the SKU fixed to AV64 the plan is AV64's (the same hybrid, the same total), its
    // table shows AV64 alone, and the saving is still counted against the cheapest vSAN
    // alone, AV36P's 181,332.00 (worked above), never AV64's own 246,740.00.
    let only = plan(Some("av64"));
    let o = &only.summary;
    assert_eq!((o.sku.as_str(), o.design), ("av64", Design::Hybrid));
    assert!(close(o.total_usd_per_month.unwrap(), total));
    let skus: Vec<&str> = only
        .sku_alternatives
        .iter()
        .map(|a| a.sku.as_str())
        .collect();
    assert_eq!(skus, ["av64"]);
    assert_eq!(o.vsan_alone_usd_per_month, Some(181_332.0));
    assert_eq!(o.vsan_alone_sku.as_deref(), Some("av36p"));
    assert!(close(o.savings_usd_per_month.unwrap(), 181_332.0 - total));
}

#[test]
fn a_sku_rows_note_names_the_first_cluster_it_is_priced_on() {
    // vSAN alone forced: AV64's row is priced on its vSAN alone (worked above), 20 AV64
    // hosts and Files moved to 8 AV36P hosts as the first cluster: 20 x 9,650.60 + 8 x
    // 6,716.00 = 193,012.00 + 53,728.00 = 246,740.00, 28 hosts; its note names those 8
    // AV36P hosts, not Files' 3 compute hosts.
    let p = plan_with(None, Some(Design::Vsan));
    let row = p.sku_alternatives.iter().find(|a| a.sku == "av64").unwrap();
    assert_eq!(row.design, Design::Vsan);
    assert_eq!((row.hosts, row.total_usd_per_month), (28, Some(246_740.0)));
    assert!(
        row.note.ends_with(
            "counts the first cluster each private cloud of av64 hosts needs: avs-Files: 8 \
             av36p (its own VMs)"
        ),
        "{}",
        row.note
    );
    // The same estate planned on AV64: its clusters are those the row is priced on. Apps
    // grows from 11 compute hosts to 20 in 2 clusters of 10, its 150 equal VMs dealt 75 and
    // 75 (75 x 16 = 1,200 vCPU -> ceil(1,200 / 256) = 5 hosts each, 75 x 32 = 2,400 GiB ->
    // ceil(2,400 / 908.97) = 3, + 1 HA = 6 <= 10); Files is the first
    // cluster, 8 AV36P hosts; the first-cluster assumption says so.
    let p = plan_with(Some("av64"), Some(Design::Vsan));
    let per: Vec<(&str, &str, u32, usize)> = p
        .sizing
        .clusters
        .iter()
        .map(|c| (c.name.as_str(), c.sku.as_str(), c.hosts, c.vms))
        .collect();
    assert_eq!(
        per,
        [
            ("avs-Apps", "av64", 10, 75),
            ("avs-Apps-2", "av64", 10, 75),
            ("avs-Files", "av36p", 8, 6)
        ]
    );
    assert_eq!(p.summary.hosts_usd_per_month, Some(246_740.0));
    let first = p
        .assumptions
        .iter()
        .find(|a| a.name == "first_cluster")
        .unwrap();
    assert_eq!(first.value, "avs-Files: 8 av36p (its own VMs)");
}

// `fixtures/small-estate.xlsx` (two source clusters, Prod and Dev, 1.8 TiB in all; every
// cluster at the 3-host minimum) with the SKU fixed to AV64: each cluster's data fits its
// 3 hosts' vSAN, so vSAN alone is the plan: Prod on 3 AV64 hosts, Dev moved to AV36P as the
// private cloud's first cluster (an AV64 cluster cannot be first), 3 x 9,650.60 + 3 x
// 6,716.00 = 28,951.80 + 20,148.00 = 49,099.80 USD/month. The saving is counted against
// the cheapest vSAN alone, AV36P's 6 hosts (6 x 6,716.00 = 40,296.00), but the plan's
// hosts are its own SKU's, not that baseline's.
#[test]
fn a_fixed_sku_on_vsan_alone_shows_its_own_hosts_not_the_baselines() {
    let p = Planner::new()
        .input(root().join("fixtures/small-estate.xlsx"))
        .options(PlanOptions::default().host_sku("av64"))
        .plan_estate()
        .unwrap();
    let s = &p.summary;
    assert_eq!(s.design, Design::Vsan);
    let by: Vec<(&str, u32, Option<f64>)> = s
        .hosts_by_sku
        .iter()
        .map(|h| (h.sku.as_str(), h.hosts, h.usd_per_month))
        .collect();
    assert_eq!(
        by,
        [("av64", 3, Some(28_951.8)), ("av36p", 3, Some(20_148.0))]
    );
    assert_eq!(s.hosts, 6);
    assert_eq!(s.hosts_usd_per_month, Some(49_099.8));
    assert_eq!(s.vsan_alone_sku.as_deref(), Some("av36p"));
    assert_eq!(s.vsan_alone_usd_per_month, Some(40_296.0));
    let text = dsplan::report::render_estate_text(&p, dsplan::report::TextDetail::Summary);
    assert!(text.contains("on 3 av64 + 3 av36p hosts"), "{text}");
    // The design line compares it with the cheapest vSAN alone: 49,099.80 - 40,296.00 =
    // 8,803.80 more; the vSAN-alone line says so for the year (x 12 = 105,645.60).
    let why = &p.designs.as_ref().unwrap().why;
    assert!(
        why.contains("costs 8,803.80 USD/month more than vSAN alone (on av36p, its cheapest SKU)"),
        "{why}"
    );
    assert!(
        text.contains("40,296.00 USD/month, 105,645.60 USD/year less than the plan"),
        "{text}"
    );
}

//! The designs per AVS cluster: each row's ANF is priced on the level and pool the design
//! gives it (the plan's pool where planned) and says which; a cluster a design adds
//! without VMs (`avs-seed-N`) has its rows, so each design's rows add up to its estate
//! row. Figures by hand from `data/avs_hosts.csv`, `data/avs_host_prices.csv` and
//! `data/prices.csv` (East US, x 730 hours):
//! - AV36P 9.20 USD/h = 6,716.00 per host-month; AV64 13.22 USD/h = 9,650.60;
//! - Flexible capacity 0.000151 USD per GiB-hour = 0.11023 per GiB-month (its pools whole
//!   TiB, 128 MiB/s included): 1 TiB = 112.87552; Standard 0.000202 = 0.14746 per
//!   GiB-month, 1 TiB = 151.00;
//! - one ExpressRoute gateway 1,365.10 per month (`data/er_gateway.csv`).

use std::path::PathBuf;

use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::plan::{ClusterDesign, Design, EstatePlan};
use dsplan::{PlanOptions, Planner};

include!("support/estate_fixtures.rs");

/// A design's row of a cluster.
fn of(d: &dsplan::plan::ClusterDesigns, design: Design) -> &ClusterDesign {
    match design {
        Design::Vsan => &d.vsan,
        Design::Anf => &d.anf,
        Design::Hybrid => &d.hybrid,
        other => panic!("a design this test does not know: {other:?}"),
    }
}

/// The rows of `design` added up: hosts, ANF and total (USD per month).
fn sums(p: &EstatePlan, design: Design) -> (u32, f64, f64) {
    let d = p.designs.as_ref().unwrap();
    d.clusters
        .iter()
        .map(|c| of(c, design))
        .fold((0, 0.0, 0.0), |(h, a, t), r| {
            (
                h + r.hosts,
                a + r.anf_usd_per_month,
                t + r.total_usd_per_month.unwrap(),
            )
        })
}

/// The estate's row of `design`: hosts, ANF, gateways and total (USD per month).
fn estate_row(p: &EstatePlan, design: Design) -> (u32, f64, f64, f64) {
    let d = p.designs.as_ref().unwrap();
    let r = d.estate.iter().find(|r| r.design == design).unwrap();
    (
        r.hosts,
        r.anf_usd_per_month,
        r.gateway_usd_per_month,
        r.total_usd_per_month.unwrap(),
    )
}

fn cluster<'a>(p: &'a EstatePlan, name: &str) -> &'a dsplan::plan::ClusterDesigns {
    let d = p.designs.as_ref().unwrap();
    match d.clusters.iter().find(|c| c.cluster == name) {
        Some(c) => c,
        None => panic!("no row for {name}: {:?}", d.clusters),
    }
}

/// 18 VMs x 10 vCPU, 8 GiB, 100 GiB in use: 1,800 GiB, 2,160 GiB of quota at 20% headroom,
/// on AV36P.
fn just_over_two_tib() -> (Inventory, PlanOptions) {
    let options = PlanOptions::default().host_sku("av36p");
    (inventory(vms("small", 18, 10, 8.0, 100.0)), options)
}

#[test]
fn a_row_is_priced_on_the_pool_the_plan_creates_and_names_it() {
    // 2,160 GiB of quota: as a Standard share 2,160 x 0.14746 = 318.51, but a shared pool
    // alone is rounded up to 3 TiB = 453.00; a Flexible pool of its own, 3 TiB x 112.87552
    // = 338.63 is the cheaper pool, and the one the plan creates. Hosts: 180 vCPU / 144 ->
    // 2, with the management reservation (72 vCPU) 252 / 144 -> 2, + 1 HA = 3 AV36P =
    // 20,148.00.
    let (inv, options) = just_over_two_tib();
    let p = plan_anf(inv, options);
    let row = &cluster(&p, "avs-small").anf;
    assert!(close(row.anf_usd_per_month, 338.63), "{row:?}");
    assert_eq!(row.anf_priced_on, "flexible, pool-flexible-1 as planned");
    assert!(close(row.total_usd_per_month.unwrap(), 20_148.0 + 338.63));
    // The estate's row: the same pool, + one gateway: 20,148.00 + 338.63 + 1,365.10 =
    // 21,851.73.
    let (hosts, anf, gateways, total) = estate_row(&p, Design::Anf);
    assert_eq!(hosts, 3);
    assert!(close(anf, 338.63) && close(gateways, 1_365.10));
    assert!(close(total, 21_851.73), "{total}");
    assert!(close(p.summary.anf_usd_per_month, 338.63));

    // The cheapest design is vSAN alone (3 AV36P hold 1,800 GiB: RAID-1, (0.75 x 3 x
    // 17.46 - 15.72) / 2 = 11.78 TiB, within the 20% headroom 11.78 / 1.2 = 9.82 TiB), so
    // ANF for all is not planned: its row is priced as
    // the design sizes its pools, a pool of its own (338.63 against 453.00 shared), and
    // says so.
    let (inv, options) = just_over_two_tib();
    let p = plan_estate(inv, options);
    assert_eq!(p.summary.design, Design::Vsan);
    let row = &cluster(&p, "avs-small").anf;
    assert!(close(row.anf_usd_per_month, 338.63), "{row:?}");
    assert_eq!(row.anf_priced_on, "flexible, own pool of 3 TiB");
    let (_, anf, _, _) = estate_row(&p, Design::Anf);
    assert!(close(anf, 338.63), "{anf}");
    // vSAN alone puts nothing on ANF: no level.
    assert_eq!(cluster(&p, "avs-small").vsan.anf_priced_on, "");
}

#[test]
fn an_added_first_cluster_has_its_rows_and_the_rows_add_up_to_the_estate() {
    // 100 VMs x 10 vCPU, 8 GiB, 100 GiB on AV64: 1,000 / 256 -> 4 by vCPU, 800 / 908.97
    // -> 1 by memory, + 1 HA = 5 AV64 = 5 x 9,650.60 = 48,253.00. AV64 in a Gen 1 private
    // cloud needs a first cluster of another SKU: the estate's only cluster is not moved,
    // so 3 AV36P are added as avs-seed-1 = 3 x 6,716.00 = 20,148.00.
    // ANF: 10,000 GiB x 1.2 = 12,000 GiB -> 12 TiB Flexible = 12 x 112.87552 = 1,354.51.
    // By hand, each design's rows:
    //   vSAN alone: avs-solo 5 (RAID-5 holds 9.77 TiB) 48,253.00 + avs-seed-1 3 av36p
    //     20,148.00 = 8 hosts, 68,401.00 (no ANF, no gateway);
    //   ANF for all: avs-solo 5, 48,253.00 + 1,354.51 = 49,607.51 + avs-seed-1 20,148.00
    //     = 8 hosts, 69,755.51; the estate's 69,755.51 + 1,365.10 gateway = 71,120.61.
    for design in [None, Some(Design::Anf)] {
        let options = PlanOptions::default().host_sku("av64").design(design);
        let p = plan_estate(one_cluster(), options);
        let seed = cluster(&p, "avs-seed-1");
        assert!(seed.added && seed.vms == 0);
        for d in [seed.vsan.clone(), seed.anf.clone()] {
            assert_eq!((d.sku.as_str(), d.hosts), ("av36p", 3), "{d:?}");
            assert_eq!(d.total_usd_per_month, Some(20_148.0));
            assert_eq!(d.anf_usd_per_month, 0.0);
        }
        let solo = cluster(&p, "avs-solo");
        assert!(!solo.added);
        assert!(close(solo.anf.anf_usd_per_month, 1_354.51));

        let (hosts, anf, total) = sums(&p, Design::Vsan);
        assert_eq!(hosts, 8);
        assert!(close(anf, 0.0) && close(total, 68_401.0), "{total}");
        let (e_hosts, _, e_gw, e_total) = estate_row(&p, Design::Vsan);
        assert_eq!((e_hosts, e_gw), (8, 0.0));
        assert!(close(e_total, total));

        let (hosts, anf, total) = sums(&p, Design::Anf);
        assert_eq!(hosts, 8);
        assert!(close(anf, 1_354.51) && close(total, 69_755.51), "{total}");
        let (e_hosts, e_anf, e_gw, e_total) = estate_row(&p, Design::Anf);
        assert_eq!(e_hosts, 8);
        assert!(close(e_anf, 1_354.51) && close(e_gw, 1_365.10));
        assert!(close(e_total, 71_120.61) && close(e_total, total + e_gw));
    }
    // Without a seed the rows are the clusters with VMs only.
    let (inv, options) = just_over_two_tib();
    let p = plan_estate(inv, options);
    assert!(p.designs.unwrap().clusters.iter().all(|c| !c.added));
}

/// One source cluster of 100 VMs x 10 vCPU, 8 GiB, 100 GiB in use.
fn one_cluster() -> Inventory {
    inventory(vms("solo", 100, 10, 8.0, 100.0))
}

/// The workshop export, or `None` (and the skip said) without `../shared`.
fn workshop() -> Option<PathBuf> {
    let input = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/rvtools/sizing-workshop-805vms.xlsx");
    if !input.exists() {
        println!("skipped: {} not found", input.display());
        return None;
    }
    Some(input)
}

#[test]
fn workshop_av48_hybrid_row_is_priced_on_its_flexible_pool() {
    let Some(input) = workshop() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("dsplan-design-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prices = dir.join("hosts.csv");
    std::fs::write(
        &prices,
        "sku,term,usd_per_hour,region,source\nav48,payg,14.00,eastus,test\n",
    )
    .unwrap();
    // vSAN keeps the 20% headroom the ANF datastores keep, which alone would leave 6,467
    // GiB of quota on ANF (a Flexible pool cheaper than any Standard share): the 1.2 dedup
    // ratio of the AVS TCO estimator gives back what the headroom takes, so the hybrid
    // leaves just over 2 TiB on ANF, the case this test is about.
    // Cluster1 (47 VMs, 22,889.90 GiB) on its 3 compute hosts of AV48 (25.6 TB = 23.283064
    // TiB raw each), RAID-1, 25% slack; the hybrid puts the management reservation on DMZ
    // (the earlier of DMZ and Mgmt, whose data fit their 3 hosts either way: 5,972.03 and
    // 6,602.93 GiB <= (0.75 x 3 x 23.283064 - 15.722435) / 2 = 18.332230 TiB = 18,772.20
    // GiB; as the first Cluster1 would keep less on vSAN), so Cluster1 loses 11.317752
    // TiB: (52.386895 - 11.317752) / 2 = 20.534571 TiB = 21,027.40 GiB x 1.2
    // dedup / 1.2 headroom = 21,027.40 GiB kept at most on vSAN; at least 22,889.90 -
    // 21,027.40 = 1,862.50 GiB on ANF, 1,862.50 x 1.2 = 2,235.00 GiB of quota (a 4th host,
    // 14.00 x 730 = 10,220.00, costs more than any ANF it saves). Cluster2's 88,886.99 GiB
    // fit its 13 hosts ((0.75 x 13 x 23.283064 - 11.317752) / 1.5 = 143.79 TiB = 147,245.8
    // GiB): Cluster1's pool is the hybrid's only ANF.
    let options = PlanOptions::default()
        .host_sku("av48")
        .host_price_file(prices)
        .headroom_pct(20.0)
        .vsan_dedup_ratio(1.2);
    let p = match Planner::new().input(&input).options(options).plan_estate() {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(p.summary.design, Design::Hybrid);
    let row = &cluster(&p, "avs-Cluster1").hybrid;
    assert_eq!(row.hosts, 3);
    assert!((cluster(&p, "avs-DMZ").reserved_raw_tib - 17_287e9 / 2f64.powi(40)).abs() < 1e-9);
    // Its VMs on ANF at 20% headroom: under 338.63 / 0.14746 = 2,296 GiB of quota a
    // Standard share (0.14746 per GiB) costs less than a Flexible pool of 3 TiB (338.63),
    // but a shared Standard pool alone is 3 TiB = 453.00: the plan creates the Flexible
    // pool of ceil(quota / 1,024) TiB, and the row is priced on it. (The quota is at least
    // 2,235.00, above; how much more depends on the VMs' sizes.)
    let quota_gib = row.anf_data_gib * 1.2;
    assert!(quota_gib >= 2_235.0, "{quota_gib}");
    assert!(quota_gib > 2_048.0 && quota_gib < 2_296.0, "{quota_gib}");
    let flexible = (quota_gib / 1024.0).ceil() * 1024.0 * 0.000151 * 730.0;
    assert!(close(flexible, 338.63));
    assert!(close(row.anf_usd_per_month, 338.63), "{row:?}");
    assert!(row.anf_priced_on.starts_with("flexible, "), "{row:?}");
    assert!(row.anf_priced_on.ends_with(" as planned"), "{row:?}");
    let (_, anf, _, _) = estate_row(&p, Design::Hybrid);
    assert!(close(anf, 338.63));
    // Hosts 3 + 13 + 3 + 3 = 22 x 14.00 x 730 = 224,840.00; the rows add up to it + the
    // ANF.
    let (hosts, anf, total) = sums(&p, Design::Hybrid);
    assert_eq!(hosts, 22);
    assert!(
        close(anf, 338.63) && close(total, 224_840.0 + 338.63),
        "{total}"
    );
}

#[test]
fn workshop_av64_in_one_cluster_gives_its_seed_cluster_rows() {
    let Some(input) = workshop() else {
        return;
    };
    let options = PlanOptions::default()
        .host_sku("av64")
        .group(dsplan::sizing::Grouping::Estate);
    let p = match Planner::new().input(&input).options(options).plan_estate() {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    // The estate's VMs in one AV64 cluster, which stays AV64: 3 AV36P are added as
    // avs-seed-1 = 20,148.00 in every design.
    let seed = cluster(&p, "avs-seed-1");
    assert!(seed.added);
    for d in [&seed.vsan, &seed.anf, &seed.hybrid] {
        assert_eq!((d.sku.as_str(), d.hosts), ("av36p", 3), "{d:?}");
        assert_eq!(d.total_usd_per_month, Some(20_148.0));
    }
    // Each design's rows add up to its estate row less the gateways: the AV64 cluster's
    // hosts x 9,650.60 + its ANF + 20,148.00.
    for design in [Design::Vsan, Design::Anf, Design::Hybrid] {
        let big = of(cluster(&p, "avs-cluster-1"), design);
        let by_hand = f64::from(big.hosts) * 9_650.60 + big.anf_usd_per_month + 20_148.0;
        let (hosts, _, total) = sums(&p, design);
        let (e_hosts, _, e_gw, e_total) = estate_row(&p, design);
        assert_eq!(hosts, big.hosts + 3);
        assert_eq!(hosts, e_hosts, "{design:?}");
        assert!(close(total, by_hand), "{design:?}: {total} {by_hand}");
        assert!(
            close(total + e_gw, e_total),
            "{design:?}: {total} {e_total}"
        );
    }
}

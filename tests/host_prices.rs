//! Host prices by region (issue 18): each SKU of an estate priced at its region's own
//! pay-as-you-go list price, a SKU without one said so (SKU table and headline), never
//! another region's figure; the built-in table against the estimator's table in
//! `../shared/reference/avs-host-prices-tco-estimator.csv`.
//!
//! The estate (hand-worked from `data/avs_hosts.csv` and `data/limits.csv`): 60 VMs of 10
//! vCPU and 16 GiB in one source cluster: 600 vCPU and 960 GiB. A host runs cores x 4
//! vCPUs; memory never drives (960 GiB + the management reservation's 171.88 GB = 160.08
//! GiB needs at most 3 hosts of any SKU: AV36 491.7 GiB per host). The cluster is its
//! private cloud's first, so it also carries the management reservation's 46 GHz: cores at
//! the SKU's base clock, rounded up, x 4 vCPU. Hosts = ceil((600 + that) / vCPU per host)
//! + 1 HA:
//! - AV36 (144 vCPU; 46 / 2.3 = 20 cores = 80 vCPU): ceil(680 / 144 = 4.72) = 5 -> 6;
//! - AV36P (144; 46 / 2.6 -> 18 cores = 72): ceil(4.67) = 5 -> 6;
//! - AV48 (192; 72): ceil(3.5) = 4 -> 5;
//! - AV52 (208; 46 / 2.7 -> 18 cores = 72): ceil(3.23) = 4 -> 5;
//! - AV64 Gen 2 (256; 46 / 2.8 -> 17 cores = 68): ceil(2.61) = 3 -> 4;
//! - AV64 (Gen 1): its one cluster without the reservation, ceil(600 / 256 = 2.34) = 3 ->
//!   4, plus the first cluster of 3 AV36, AV36P or AV52 hosts its private cloud needs (a
//!   private cloud's only cluster is never moved): 7 hosts, the first cluster's at the
//!   cheapest of those SKUs priced in the region.
//!
//! Hosts USD/month = hosts x USD per host-hour x 730, to the cent.

use std::collections::BTreeMap;
use std::path::PathBuf;

use dsplan::catalog::arm_region_name;
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::plan::EstatePlan;
use dsplan::report::{Format, render_estate_plan};
use dsplan::sizing::{HostTerm, host_price_table};
use dsplan::vsan::VsanCatalog;
use dsplan::{PlanOptions, Planner};

/// The SKUs and their hosts for the estate (module docs).
const HOSTS: [(&str, u32); 6] = [
    ("av36", 6),
    ("av36p", 6),
    ("av48", 5),
    ("av52", 5),
    ("av64", 7),
    ("av64-gen2", 4),
];

fn estate() -> Inventory {
    estate_of(50.0)
}

/// The estate with `in_use_gib` in use per VM.
fn estate_of(in_use_gib: f64) -> Inventory {
    let vms = (0..60)
        .map(|i| Vm {
            power_state: PowerState::PoweredOn,
            template: Some(false),
            cluster: Some("alpha".into()),
            cpus: Some(10),
            memory_mib: Some(16.0 * 1024.0),
            provisioned_mib: Some(in_use_gib * 1024.0),
            in_use_mib: Some(in_use_gib * 1024.0),
            ..Vm::new(
                format!("vm-{i:02}"),
                Origin {
                    file: "estate".into(),
                    sheet: "vInfo".into(),
                    row: i + 2,
                },
            )
        })
        .collect();
    Inventory {
        inputs: vec!["estate".into()],
        vms,
        ..Inventory::default()
    }
}

fn plan(options: PlanOptions) -> EstatePlan {
    Planner::new()
        .inventory(estate())
        .options(options)
        .plan_estate()
        .unwrap()
}

fn in_region(region: &str) -> EstatePlan {
    plan(PlanOptions::default().region(region))
}

/// The estate planned in West Europe on `term` with a host price file of one `row`.
fn with_price_file(row: &str, term: HostTerm) -> EstatePlan {
    let dir = std::env::temp_dir().join(format!(
        "dsplan-host-prices-{}-{}",
        std::process::id(),
        row.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hosts.csv");
    std::fs::write(
        &file,
        format!("sku,term,usd_per_hour,region,source\n{row}\n"),
    )
    .unwrap();
    let p = plan(
        PlanOptions::default()
            .region("westeurope")
            .host_term(term)
            .host_price_file(file),
    );
    let _ = std::fs::remove_dir_all(&dir);
    p
}

/// `hosts x usd_per_hour x 730`, to the cent.
fn month(hosts: u32, usd_per_hour: f64) -> f64 {
    (f64::from(hosts) * usd_per_hour * 730.0 * 100.0).round() / 100.0
}

/// (ARM region, SKU) -> USD per host-hour.
type Prices = BTreeMap<(String, String), f64>;

/// `../shared/reference/avs-host-prices-tco-estimator.csv`: its prices, and the display
/// name of each ARM region; `None` (and a note) without it.
fn reference() -> Option<(Prices, BTreeMap<String, String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference/avs-host-prices-tco-estimator.csv");
    if !path.is_file() {
        println!("skipped: ../shared not found");
        return None;
    }
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let (mut prices, mut names) = (BTreeMap::new(), BTreeMap::new());
    for rec in rdr.records() {
        let rec = rec.unwrap();
        // region_display_name,sku,usd_per_host_hour,term,source
        assert_eq!(&rec[3], "payg");
        let region = arm_region_name(&rec[0]);
        names.insert(region.clone(), rec[0].to_string());
        let old = prices.insert((region, rec[1].to_string()), rec[2].parse::<f64>().unwrap());
        assert_eq!(old, None, "{rec:?} twice");
    }
    Some((prices, names))
}

/// Checks every SKU of `p` against `expected` (SKU -> USD per host-hour; absent: no public
/// price in `region_name`), hosts from the module docs.
fn check_skus(p: &EstatePlan, expected: &BTreeMap<&str, f64>, region_name: &str) {
    assert_eq!(p.sku_alternatives.len(), HOSTS.len());
    for (a, (sku, hosts)) in p.sku_alternatives.iter().zip(HOSTS) {
        assert_eq!((a.sku.as_str(), a.hosts), (sku, hosts), "{a:?}");
        match expected.get(sku) {
            Some(&usd) if sku == "av64" => {
                // 4 AV64 hosts and the 3-host first cluster at the cheapest of AV36, AV36P
                // and AV52 priced in the region (module docs).
                let first = ["av36", "av36p", "av52"]
                    .iter()
                    .filter_map(|s| expected.get(s).copied())
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(a.host_usd_per_hour, Some(usd), "{a:?}");
                let want = month(4, usd) + month(3, first);
                assert_eq!(a.hosts_usd_per_month, Some(want), "{a:?}");
            }
            Some(&usd) => {
                assert_eq!(a.host_usd_per_hour, Some(usd), "{a:?}");
                assert_eq!(a.hosts_usd_per_month, Some(month(hosts, usd)), "{a:?}");
            }
            None => {
                assert_eq!(a.host_usd_per_hour, None, "{a:?}");
                assert_eq!(a.hosts_usd_per_month, None, "{a:?}");
                assert!(
                    a.note
                        .starts_with(&format!("no public price in {region_name}: sized only")),
                    "{a:?}"
                );
            }
        }
    }
    // The chosen SKU's price is the region's own, in the headline.
    let s = &p.summary;
    let usd = expected[s.sku.as_str()];
    assert_eq!(s.host_usd_per_hour, Some(usd));
    assert!(
        s.host_price_note.starts_with(&format!(
            "{region_name} pay-as-you-go price of {}: {usd:.2} USD per host-hour, from \
             data/avs_host_prices.csv row ",
            s.sku
        )),
        "{}",
        s.host_price_note
    );
    assert!(
        !p.warnings.iter().any(|w| w.message.contains("host price")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn west_europe_prices_each_sku_at_west_europes_figure() {
    // data/avs_host_prices.csv, West Europe (the estimator's table): AV36P 10.96, AV52
    // 21.67, AV64 15.76 USD per host-hour; no AV36, AV48 or AV64 Gen 2 row. Hosts x price
    // x 730: AV36P 6 x 10.96 x 730 = 48,004.80; AV52 5 x 21.67 x 730 = 79,095.50; AV64 4 x
    // 15.76 x 730 = 46,019.20 + its first cluster of 3 AV36P (the cheapest of AV36, AV36P and
    // AV52 priced here) 3 x 10.96 x 730 = 24,002.40: 70,021.60. (The old East US fallback
    // would give AV36P 9.20: 40,296.00.)
    let p = in_region("westeurope");
    let expected = BTreeMap::from([("av36p", 10.96), ("av52", 21.67), ("av64", 15.76)]);
    check_skus(&p, &expected, "West Europe");
    let by_sku = |sku: &str| {
        p.sku_alternatives
            .iter()
            .find(|a| a.sku == sku)
            .and_then(|a| a.hosts_usd_per_month)
    };
    assert_eq!(by_sku("av36p"), Some(48_004.8));
    assert_eq!(by_sku("av52"), Some(79_095.5));
    assert_eq!(by_sku("av64"), Some(70_021.6));
    // The headline names the SKUs without a West Europe price, in the text and Markdown.
    let unpriced = "no public price in West Europe for av36, av48, av64-gen2: sized only, \
                    their totals not compared";
    assert!(p.summary.host_price_note.ends_with(unpriced));
    let text = render_estate_plan(&p, Format::Text).unwrap();
    let head: String = text.lines().take(5).collect::<Vec<_>>().join("\n");
    assert!(
        head.contains("  host price: West Europe pay-as-you-go price of "),
        "{head}"
    );
    assert!(head.contains(unpriced), "{head}");
    let md = render_estate_plan(&p, Format::Markdown).unwrap();
    assert!(
        md.contains("- Host price: West Europe pay-as-you-go price of "),
        "{md}"
    );
    // Against the estimator's table itself, where it is at hand.
    if let Some((reference, _)) = reference() {
        for (sku, _) in HOSTS {
            let row = reference.get(&("westeurope".to_string(), sku.to_string()));
            assert_eq!(row, expected.get(sku), "{sku}");
        }
    }
}

#[test]
fn other_regions_price_at_their_own_figures_from_the_reference_rows() {
    // South Central US has AV36 10.03, AV36P 11.04, AV52 21.77, AV64 15.86 (AV36 6 x 10.03
    // x 730 = 43,931.40); East US 2 AV36P 9.20, AV52 18.139, AV64 13.22; Japan East AV36
    // 9.81 and AV64 15.51 only.
    let hand = [
        (
            "southcentralus",
            "South Central US",
            vec![
                ("av36", 10.03),
                ("av36p", 11.04),
                ("av52", 21.77),
                ("av64", 15.86),
            ],
        ),
        (
            "eastus2",
            "East US 2",
            vec![("av36p", 9.2), ("av52", 18.139), ("av64", 13.22)],
        ),
        (
            "japaneast",
            "Japan East",
            vec![("av36", 9.81), ("av64", 15.51)],
        ),
    ];
    let reference = reference();
    for (region, name, prices) in hand {
        let expected: BTreeMap<&str, f64> = prices.into_iter().collect();
        let p = in_region(region);
        check_skus(&p, &expected, name);
        if let Some((rows, names)) = &reference {
            assert_eq!(names[region], name);
            for (sku, _) in HOSTS {
                let row = rows.get(&(region.to_string(), sku.to_string()));
                assert_eq!(row, expected.get(sku), "{region} {sku}");
            }
        }
    }
    let p = in_region("southcentralus");
    let av36 = p.sku_alternatives.iter().find(|a| a.sku == "av36").unwrap();
    assert_eq!(av36.hosts_usd_per_month, Some(43_931.4));
}

#[test]
fn a_sku_without_a_price_in_the_region_says_so_and_takes_no_other_regions_figure() {
    // AV36 has prices in 20 regions (East US 2's neighbour Central US 9.44 among them), none
    // in West Europe: the plan keeps its price unknown and says so in the headline.
    let p = plan(PlanOptions::default().region("westeurope").host_sku("av36"));
    let s = &p.summary;
    assert_eq!((s.sku.as_str(), s.hosts), ("av36", 6));
    assert_eq!(
        (
            s.host_usd_per_hour,
            s.hosts_usd_per_month,
            s.total_usd_per_month
        ),
        (None, None, None)
    );
    assert_eq!(
        s.host_price_note,
        "no public price for av36 in West Europe: give `host_price_file`"
    );
    let text = render_estate_plan(&p, Format::Text).unwrap();
    let head: String = text.lines().take(5).collect::<Vec<_>>().join("\n");
    assert!(
        head.contains(
            "  host price: no public price for av36 in West Europe: give `host_price_file`"
        ),
        "{head}"
    );
    assert!(
        p.sku_alternatives[0]
            .note
            .contains("no public price in West Europe"),
        "{:?}",
        p.sku_alternatives[0]
    );
}

#[test]
fn a_reserved_term_without_a_file_row_says_so_in_the_headline() {
    // Microsoft's reserved-instance page (2024-04-04) gives terms, no prices: every SKU is
    // unpriced on 3y, the SKU with the fewest hosts is shown (AV64 Gen 2 at 4, module
    // docs) and the headline says how to price it.
    let p = plan(
        PlanOptions::default()
            .region("westeurope")
            .host_term(HostTerm::ThreeYear),
    );
    let s = &p.summary;
    assert_eq!((s.sku.as_str(), s.hosts_usd_per_month), ("av64-gen2", None));
    assert!(
        s.host_price_note
            .starts_with("no public 3y price for av64-gen2: give `host_price_file`"),
        "{}",
        s.host_price_note
    );
    assert!(
        s.host_price_note
            .ends_with("no public 3y price for av36, av36p, av48, av52, av64: sized only, their totals not compared"),
        "{}",
        s.host_price_note
    );
}

#[test]
fn a_price_file_row_of_another_region_is_used_saying_whose_it_is() {
    // A 3-year AV36P row for East US at 6.00 USD per host-hour, planning West Europe: used
    // (6 x 6.00 x 730 = 26,280.00), the headline and a warning say it is East US's.
    let p = with_price_file("av36p,3y,6.00,eastus,quote 9", HostTerm::ThreeYear);
    let s = &p.summary;
    assert_eq!(
        (s.sku.as_str(), s.hosts_usd_per_month),
        ("av36p", Some(26_280.0))
    );
    assert!(
        s.host_price_note.starts_with(
            "East US's 3-year reserved price of av36p, not West Europe's: 6.00 USD per \
             host-hour, from "
        ),
        "{}",
        s.host_price_note
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("is East US's, not West Europe's")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn the_vsan_comparison_of_one_cluster_uses_the_regions_price() {
    // One cluster of 3 hosts in West Europe, 60 VMs of 1,000 GiB = 58.59 TiB on vSAN
    // AV36P (19.20 TB = 17.4623 TiB raw per host), auto policy, 25% slack, the 20% headroom
    // (58.59 x 1.2 = 70.31 TiB stored): RAID-1 on 3 hosts needs 70.31 x 2 / 0.75 = 187.5
    // TiB, RAID-5 on 4..5 70.31 x 4/3 / 0.75 = 125 TiB (8 hosts' worth), RAID-6 from 6
    // hosts 70.31 x 1.5 / 0.75 = 140.63 TiB -> ceil(140.63 / 17.4623 = 8.05) = 9 hosts, 6
    // extra at West Europe's 10.96 USD per host-hour: 6 x 10.96 x 730 = 48,004.80. On AV36
    // (no West Europe price) the cost is unknown.
    let run = |vsan_host: &str| {
        Planner::new()
            .inventory(estate_of(1000.0))
            .options(
                PlanOptions::default()
                    .region("westeurope")
                    .hosts(3)
                    .vsan_host(vsan_host),
            )
            .plan()
            .unwrap()
            .vsan_comparison
            .unwrap()
    };
    let v = run("av36p");
    assert_eq!(v.host_usd_per_hour, Some(10.96));
    assert_eq!((v.hosts_needed, v.extra_hosts), (9, 6));
    assert_eq!(v.extra_hosts_usd_per_month, Some(48_004.8));
    assert!(
        v.note
            .starts_with("host price: West Europe pay-as-you-go price of av36p: 10.96"),
        "{}",
        v.note
    );
    let v = run("av36");
    assert_eq!(v.host_usd_per_hour, None);
    assert!(
        v.note
            .starts_with("no public price for av36 in West Europe: pass `vsan_host_usd_per_hour`"),
        "{}",
        v.note
    );
}

#[test]
fn the_built_in_table_is_the_estimators_table_row_for_row() {
    // Every reference row maps (by display name -> ARM name) to one built-in row of the
    // same SKU and price; the built-in table has no other row.
    let Some((reference, _)) = reference() else {
        return;
    };
    let table = host_price_table(&VsanCatalog::builtin().unwrap()).unwrap();
    assert_eq!(reference.len(), 65);
    assert_eq!(table.len(), reference.len());
    for (_, p) in &table {
        assert_eq!(p.term, HostTerm::PayAsYouGo);
        let row = reference.get(&(p.region.clone(), p.sku.clone()));
        assert_eq!(row, Some(&p.usd_per_hour), "{p:?}");
    }
}

#[test]
fn a_file_price_far_from_the_public_one_warns_and_every_priced_sku_is_named() {
    // West Europe with a file's AV64 payg row of 2.00 USD per host-hour: AV64's estate, 4
    // AV64 x 2.00 x 730 = 5,840.00 + its first cluster of 3 AV36P x 10.96 x 730 =
    // 24,002.40: 29,842.40, under AV36P alone (48,004.80), so AV64 is chosen with an AV36P
    // cluster. 2.00 / 15.76 (West Europe's public AV64 price) = 0.127 -> "0.13x", below
    // 1/4: warned, naming both prices. The headline names both SKUs' prices.
    let p = with_price_file("av64,payg,2.00,westeurope,quote 7", HostTerm::PayAsYouGo);
    let s = &p.summary;
    assert_eq!(
        (s.sku.as_str(), s.hosts_usd_per_month),
        ("av64", Some(29_842.4))
    );
    let note = &s.host_price_note;
    assert!(
        note.contains("price of av64: 2.00 USD per host-hour"),
        "{note}"
    );
    assert!(
        note.contains("price of av36p: 10.96 USD per host-hour"),
        "{note}"
    );
    let far: Vec<_> = p
        .warnings
        .iter()
        .filter(|w| w.message.contains("check its units"))
        .collect();
    assert_eq!(far.len(), 1, "{:?}", p.warnings);
    assert!(
        far[0].message.contains("2.00 USD per host-hour")
            && far[0]
                .message
                .contains("is 0.13x the West Europe pay-as-you-go price of 15.76"),
        "{}",
        far[0].message
    );
}

//! Estate plans and their inputs: VMs larger than any AVS host, and where the host price
//! comes from. Figures are worked out by hand from `data/avs_hosts.csv`,
//! `data/avs_host_prices.csv` (East US) and `data/limits.csv` (`esxi_typical_memory_gb`
//! 48):
//! - the most one VM may use on a host: `2 x cores` vCPUs and `(RAM GB - 48) x 10^9 / 2^30`
//!   GiB: AV36 72 / 491.738, AV36P 72 / 670.552, AV48 96 / 908.971, AV52 104 / 1,385.808,
//!   AV64 and AV64 Gen 2 128 / 908.971;
//! - a host runs `cores x 4` vCPUs: AV64 256; AV64 costs 13.22 USD per host-hour, x 730 h
//!   = 9,650.60 USD per host-month.

use std::path::PathBuf;

use dsplan::demand::ExclusionReason;
use dsplan::inventory::{Inventory, Origin, PowerState, Vm};
use dsplan::{ErrorKind, PlanOptions, Planner};

/// A powered-on VM of cluster `alpha` with `cpus` vCPUs, `memory_gib` GiB configured and
/// `in_use_gib` GiB in use (and provisioned).
fn vm(name: &str, cpus: u64, memory_gib: f64, in_use_gib: f64) -> Vm {
    Vm {
        power_state: PowerState::PoweredOn,
        template: Some(false),
        cluster: Some("alpha".into()),
        cpus: Some(cpus),
        memory_mib: Some(memory_gib * 1024.0),
        provisioned_mib: Some(in_use_gib * 1024.0),
        in_use_mib: Some(in_use_gib * 1024.0),
        ..Vm::new(
            name,
            Origin {
                file: "estate".into(),
                sheet: "vInfo".into(),
                row: 2,
            },
        )
    }
}

fn inventory(mut vms: Vec<Vm>) -> Inventory {
    for (i, v) in vms.iter_mut().enumerate() {
        v.origin.row = i + 2;
    }
    Inventory {
        inputs: vec!["estate".into()],
        vms,
        ..Inventory::default()
    }
}

/// 10 VMs of 8 vCPU, 32 GiB, 100 GiB; `wide` (100 vCPU, 64 GiB, 50 GiB: too many vCPUs
/// for AV36, AV36P and AV48 only); `big-cpu` (500 vCPU, 64 GiB, 200 GiB) and `big-mem`
/// (8 vCPU, 10,240 GiB, 300 GiB), which fit no SKU.
fn estate_with_giants() -> Inventory {
    let mut all: Vec<Vm> = (0..10)
        .map(|i| vm(&format!("alpha-{i:02}"), 8, 32.0, 100.0))
        .collect();
    all.push(vm("wide", 100, 64.0, 50.0));
    all.push(vm("big-cpu", 500, 64.0, 200.0));
    all.push(vm("big-mem", 8, 10_240.0, 300.0));
    inventory(all)
}

#[test]
fn vms_larger_than_every_host_are_excluded_and_the_rest_planned() {
    let p = Planner::new()
        .inventory(estate_with_giants())
        .options(PlanOptions::default())
        .plan_estate()
        .unwrap_or_else(|e| panic!("{e}"));
    // big-cpu: 500 vCPUs > 128 (the most, AV64); big-mem: 10,240 GiB > 1,385.808 (the
    // most, AV52): both excluded. wide fits AV52, AV64 and AV64 Gen 2.
    let giants: Vec<(&str, ExclusionReason, Option<f64>)> = p
        .excluded
        .iter()
        .map(|e| (e.name.as_str(), e.reason, e.capacity_gib))
        .collect();
    assert_eq!(
        giants,
        vec![
            ("big-cpu", ExclusionReason::ExceedsAvsHost, Some(200.0)),
            ("big-mem", ExclusionReason::ExceedsAvsHost, Some(300.0)),
        ]
    );
    // Placed: 10 x 100 + 50 = 1,050 GiB; excluded 200 + 300 = 500 GiB; in: 1,550 GiB.
    let s = &p.summary;
    assert_eq!((s.vms_placed, s.vms_excluded), (11, 2));
    assert_eq!(s.placed_capacity_gib, 1_050.0);
    let excluded: f64 = p.excluded.iter().filter_map(|e| e.capacity_gib).sum();
    assert_eq!(s.placed_capacity_gib + excluded, 1_550.0);
    // AV36P (72 threads) cannot run wide: infeasible, saying why. AV64: 10 x 8 + 100 = 180
    // vCPU -> ceil(180 / 256) = 1; 10 x 32 + 64 = 384 GiB -> ceil(384 / 908.971) = 1;
    // max(3, 1 + 1 HA) = 3 hosts x 9,650.60 = 28,951.80 USD per month. In a Gen 1 private
    // cloud AV64 needs a first cluster of AV36, AV36P or AV52 hosts (introduction,
    // 2025-12-19): the estate's only cluster stays on AV64 (wide would not fit AV36P
    // anyway), so a first cluster of 3 AV36P hosts (the priced one; the management
    // reservation's 72 vCPU and 160 GiB need 1 host + 1 HA) is added: 3 x 6,716.00 =
    // 20,148.00; 6 hosts, 49,099.80 USD per month.
    let alt = |sku: &str| p.sku_alternatives.iter().find(|a| a.sku == sku).unwrap();
    assert!(!alt("av36p").feasible);
    assert!(
        alt("av36p").note.contains("'wide'"),
        "{}",
        alt("av36p").note
    );
    assert_eq!((s.sku.as_str(), s.hosts), ("av64", 6));
    let by_sku: Vec<(&str, u32)> = s
        .hosts_by_sku
        .iter()
        .map(|h| (h.sku.as_str(), h.hosts))
        .collect();
    assert_eq!(by_sku, [("av64", 3), ("av36p", 3)]);
    assert_eq!(s.hosts_usd_per_month, Some(49_099.8));
    assert_eq!(p.sizing.vcpus, 180);
    // One warning names both, what they need and what the largest hosts offer.
    let w: Vec<&str> = p
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .filter(|m| m.contains("larger than any AVS host"))
        .collect();
    assert_eq!(w.len(), 1, "{w:?}");
    for needle in [
        "2 VM(s)",
        "'big-cpu' (500 vCPUs, 64.0 GiB)",
        "'big-mem' (8 vCPUs, 10,240.0 GiB)",
        "at most 128 vCPUs (av64",
        "1,385.8 GiB of memory (av52",
    ] {
        assert!(w[0].contains(needle), "'{needle}' not in {}", w[0]);
    }
    let json = serde_json::to_string(&p.excluded).unwrap();
    assert!(json.contains("\"exceeds_avs_host\""), "{json}");
}

/// The message of the estate plan of `inv`, which must fail as infeasible.
fn infeasible_message(inv: Inventory) -> String {
    let e = Planner::new()
        .inventory(inv)
        .options(PlanOptions::default())
        .plan_estate()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Infeasible);
    e.to_string()
}

#[test]
fn an_estate_of_only_giants_is_infeasible_saying_no_sku_fits() {
    let inv = inventory(vec![
        vm("big-cpu", 500, 64.0, 200.0),
        vm("big-mem", 8, 10_240.0, 300.0),
    ]);
    let m = infeasible_message(inv);
    assert!(
        m.contains("no host SKU fits") && m.contains("every VM in scope (2)"),
        "{m}"
    );
    assert!(m.contains("'big-cpu' (500 vCPUs"), "{m}");
}

// `cpu` (128 vCPU, 4 GiB) fits only AV64 and AV64 Gen 2 (2 x 64 cores = 128; AV36 and
// AV36P offer 2 x 36 = 72, AV48 96, AV52 104); `mem` (4 vCPU, 1,300 GiB) only AV52 (1,536
// GB less 48 GB = 1,385.8 GiB; AV64's 1,024 GB less 48 = 909.0 GiB). No SKU holds both, so
// every SKU fails on one of them; the error names each SKU's VM and the way out.
#[test]
fn vms_that_each_fit_a_different_sku_name_every_skus_vm_and_host_sku() {
    let inv = inventory(vec![
        vm("small", 4, 4.0, 50.0),
        vm("cpu", 128, 4.0, 50.0),
        vm("mem", 4, 1_300.0, 50.0),
    ]);
    let m = infeasible_message(inv);
    assert!(m.contains("no single host SKU holds every VM"), "{m}");
    for part in [
        "av36: 'cpu' needs 128 vCPUs",
        "av52: 'cpu' needs 128 vCPUs",
        "av64: 'mem' needs 1300.0 GiB",
        "--host-sku SKU",
    ] {
        assert!(m.contains(part), "{part}: {m}");
    }
}

#[test]
fn with_host_sku_the_vms_too_large_for_it_are_excluded() {
    // host_sku av36p: wide's 100 vCPUs are above its 72 threads, so it is left out too;
    // 10 x 8 = 80 vCPU on 144 per host -> 1, 320 GiB -> 1: max(3, 2) = 3 hosts.
    let p = Planner::new()
        .inventory(estate_with_giants())
        .options(PlanOptions::default().host_sku("av36p"))
        .plan_estate()
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = p.excluded.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["wide", "big-cpu", "big-mem"]);
    assert_eq!((p.summary.vms_placed, p.summary.hosts), (10, 3));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dsplan-estate-inputs-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_host_price_source_is_in_the_summary_and_an_unknown_region_is_warned() {
    let inv = || {
        inventory(
            (0..10)
                .map(|i| vm(&format!("alpha-{i:02}"), 8, 32.0, 100.0))
                .collect(),
        )
    };
    // Built-in: East US's AV36P price is row 2 of data/avs_host_prices.csv (header = 1),
    // 9.20 USD per host-hour.
    let p = Planner::new().inventory(inv()).plan_estate().unwrap();
    assert_eq!(p.summary.sku, "av36p");
    let source = p.summary.host_price_source.clone().unwrap();
    assert!(
        source.starts_with(
            "data/avs_host_prices.csv row 2: the ANF team's AVS + ANF TCO estimator v6.1"
        ),
        "{source}"
    );
    assert!(
        p.summary.host_price_note.starts_with(
            "East US pay-as-you-go price of av36p: 9.20 USD per host-hour, from \
             data/avs_host_prices.csv row 2: "
        ),
        "{}",
        p.summary.host_price_note
    );
    assert!(
        !p.warnings
            .iter()
            .any(|w| w.message.contains("names no region"))
    );
    // From a file without a region: the row and its source text, and a warning.
    let dir = scratch("source");
    let file = dir.join("hosts.csv");
    std::fs::write(
        &file,
        "sku,term,usd_per_hour,region,source\nav36p,payg,8.00,,quote 7 of 2026-01-05\n",
    )
    .unwrap();
    let p = Planner::new()
        .inventory(inv())
        .options(PlanOptions::default().host_price_file(file.clone()))
        .plan_estate()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let source = p.summary.host_price_source.clone().unwrap();
    assert!(
        source.ends_with("hosts.csv row 2: quote 7 of 2026-01-05"),
        "{source}"
    );
    assert_eq!(p.summary.host_usd_per_hour, Some(8.0));
    assert!(
        p.warnings.iter().any(
            |w| w.message.contains("av36p host price") && w.message.contains("names no region")
        ),
        "{:?}",
        p.warnings
    );
    // The summary says whose price it is; its source is the detail's.
    let text = dsplan::report::render_estate_plan(&p, dsplan::report::Format::Text).unwrap();
    assert!(
        text.contains(
            "  host price: a pay-as-you-go price of av36p naming no region (not known to be \
             East US's): 8.00 USD per host-hour; no public price in East US for "
        ) && !text
            .lines()
            .any(|l| l.starts_with("  host price:") && l.contains("quote 7")),
        "{text}"
    );
    let text = dsplan::report::render_estate_text(&p, dsplan::report::TextDetail::Full);
    assert!(
        text.contains(
            "  host price: a pay-as-you-go price of av36p naming no region (not known to be \
             East US's): 8.00 USD per host-hour, from "
        ) && text.contains("quote 7 of 2026-01-05"),
        "{text}"
    );
    let md = dsplan::report::render_estate_plan(&p, dsplan::report::Format::Markdown).unwrap();
    assert!(
        md.contains("- Host price: a pay-as-you-go price of av36p naming no region"),
        "{md}"
    );
}

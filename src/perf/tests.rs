//! Tests of the performance model. Expected values are worked out by hand in the comments
//! (from the published figures), not copied from the program's output.

use proptest::prelude::*;

use super::*;
use crate::catalog::{Catalog, CoolThroughputRule, cool_access_rate_mibps_per_tib};

fn model() -> PerfModel {
    PerfModel::builtin().unwrap()
}

fn fitted(m: &PerfModel, system: &str, parameter: &str) -> f64 {
    m.fitted()
        .iter()
        .find(|f| f.system == system && f.parameter == parameter)
        .map(|f| f.value)
        .unwrap()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a / b - 1.0).abs() <= rel
}

fn profile(block_size_kib: f64, read_pct: f64, random_pct: f64) -> IoProfile {
    IoProfile {
        block_size_kib,
        read_pct,
        random_pct,
    }
}

#[test]
fn calibration_table_every_row_within_tolerance() {
    let m = model();
    let checks = m.calibration();
    println!("{}", format_calibration_table(checks));
    for f in m.fitted() {
        println!(
            "{:<12} {:<26} {:>14.6} rms {:>6.2}%  rows {}",
            f.system,
            f.parameter,
            f.value,
            f.rms_error_pct,
            f.rows.join(", ")
        );
    }
    assert!(checks.len() >= 30);
    for c in checks {
        assert!(c.within_tolerance, "{} off by {:.2}%", c.id, c.error_pct);
    }
}

/// The crate takes the committed fitted values (`src/perf/fitted_params.rs`); a fresh search
/// here must give the same values, bit for bit, and the same profiles and checks.
#[test]
fn committed_fit_equals_a_fresh_fit() {
    let m = model();
    let fresh = fit::fit_builtin().unwrap();
    assert_eq!(m.fitted().len(), fresh.fitted().len());
    for (a, b) in m.fitted().iter().zip(fresh.fitted()) {
        assert_eq!(
            (&a.system, &a.parameter, &a.group, &a.rows),
            (&b.system, &b.parameter, &b.group, &b.rows)
        );
        assert_eq!(
            a.value.to_bits(),
            b.value.to_bits(),
            "{}/{}",
            a.system,
            a.parameter
        );
        assert_eq!(a.rms_error_pct.to_bits(), b.rms_error_pct.to_bits());
    }
    assert_eq!(m, fresh);
}

/// `src/perf/fitted_params.rs` is what a fresh search writes, byte for byte: it fails while
/// the file is stale (data/systems or data/calibration changed, or the fit did);
/// `DSPLAN_BLESS_FIT=1` rewrites it from the search instead.
#[test]
fn fitted_params_file_equals_a_fresh_fit() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/perf/fitted_params.rs");
    let fresh = fit::fitted_params_source(&fit::fit_builtin().unwrap());
    if std::env::var_os("DSPLAN_BLESS_FIT").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == fresh,
        "src/perf/fitted_params.rs is stale (rewrite it with \
         `DSPLAN_BLESS_FIT=1 cargo test --lib fitted_params_file`, then rebuild); a fresh fit \
         gives:\n{fresh}"
    );
}

#[test]
fn fitted_parameters_match_hand_calculations() {
    let m = model();
    // One flow carries the 1 host / 1 datastore figure: 76,000 IOPS, 2,148 MiB/s.
    assert!(close(fitted(&m, "anf-avs", "flow_iops"), 76_000.0, 1e-6));
    assert!(close(fitted(&m, "anf-avs", "flow_mibps"), 2148.0, 1e-6));
    // USL through r(2) = 1.76 and the least-squares r(4) of 2.63 and 198,060 / 76,000 =
    // 2.606053: r4 = (1/2.63 + 1/2.606053) / (1/2.63^2 + 1/2.606053^2) = 2.617922.
    // sigma + 2 kappa = 2/1.76 - 1 = 0.136364; 3 sigma + 12 kappa = 4/2.617922 - 1 = 0.527929
    // -> kappa = (0.527929 - 3 x 0.136364) / 6 = 0.019806, sigma = 0.096752.
    assert!((fitted(&m, "anf-avs", "usl_sigma") - 0.096752).abs() < 2e-4);
    assert!((fitted(&m, "anf-avs", "usl_kappa") - 0.019806).abs() < 1e-4);
    // Random read op time a + b x KiB through 1/460,000 s = 2.173913 us (4 KiB) and
    // 1/293,000 s = 3.412969 us (8 KiB): b = 1.239056 / 4 = 0.309764, a = 0.934857.
    assert!((fitted(&m, "anf-avs", "volume_read_op_per_kib_us") - 0.309764).abs() < 1e-5);
    assert!((fitted(&m, "anf-avs", "volume_read_op_fixed_us") - 0.934857).abs() < 1e-5);
    // Write ratio: the Linux row alone gives 111/293 = 0.3788; the AVS one-datastore sweep
    // (148,980) wants fewer write IOPS, so the compromise lies below 0.3788.
    let w = fitted(&m, "anf-avs", "volume_write_op_ratio");
    assert!(w > 0.30 && w < 0.3788, "{w}");
    // NIC: one ceiling C per host for 2,351, 2,786 and 10,500 / 4 = 2,625 MiB/s; least
    // squares on relative error: C = sum(1/y) / sum(1/y^2) = 2,561.6 MiB/s; 25 GbE =
    // 25e9 / 8 / 2^20 = 2,980.23 MiB/s -> efficiency 0.85954.
    assert!((fitted(&m, "anf-avs", "nic_efficiency") - 0.85954).abs() < 2e-4);
    assert!(close(fitted(&m, "anf-avs", "vm_iops"), 147_000.0, 1e-6));
    assert!(close(
        fitted(&m, "anf-avs", "cool_seq_read_mibps"),
        1742.0,
        1e-6
    ));
    assert!(close(
        fitted(&m, "anf-avs", "cool_random_read_mibps"),
        280.0,
        1e-6
    ));
    assert!(close(
        fitted(&m, "anf-linux", "host_write_mibps"),
        2400.0,
        1e-6
    ));
    // vSAN: ios per transaction = 609e6 B/s x 4 hosts / (4,259 TPS x 16,384 B) = 34.910.
    assert!(close(
        fitted(&m, "vsan-hybrid", "ios_per_transaction"),
        34.910,
        1e-4
    ));
    // Amdahl through 4 -> 8 VMs: 2 (1 + 3s) / (1 + 7s) = 4,259 / 2,830 -> s = 0.109172;
    // one VM = 2,830 x (1 + 3s) / 4 = 939.22 TPS x 34.910 = 32,788 IOPS.
    assert!((fitted(&m, "vsan-hybrid", "usl_sigma") - 0.109172).abs() < 1e-5);
    assert!(close(
        fitted(&m, "vsan-hybrid", "usl_unit_iops"),
        32_788.0,
        1e-4
    ));
    // 12 VMs: hit = 16 x 800 GB x 0.7 / (12 x 875 GB) = 8,960 / 10,500 = 0.853333;
    // 1,250 TPS x 34.910 x (1 - 0.853333) = 6,400 IOPS.
    assert!(close(fitted(&m, "vsan-hybrid", "miss_iops"), 6400.0, 1e-3));
    // AFA: 180,000 / 10 hosts; 45,000 x 64 / 1024 = 2,812.5 MiB/s over 2 x 20 Gb/s =
    // 4,768.37 MiB/s -> 0.589824.
    assert!(close(fitted(&m, "afa-smb3", "host_iops"), 18_000.0, 1e-6));
    assert!(close(
        fitted(&m, "afa-smb3", "link_efficiency"),
        0.589824,
        1e-6
    ));
}

/// The acceptance command: `predict --hosts 1 --datastores D --block-size 8K
/// --random-pct 100` (read 70%).
#[test]
fn datastore_scaling_matches_the_published_curve() {
    let m = model();
    let io = profile(8.0, 70.0, 100.0);
    let at = |d: u32| m.predict(&Layout::new(1, d, 4500.0), &io).unwrap();
    let p1 = at(1);
    // one flow: 76,000 IOPS (the volume allows 1 / (0.7/293,000 + 0.3/101,500) = 187K)
    assert!(close(p1.iops, 76_000.0, 1e-6));
    assert_eq!(p1.bottleneck, Layer::Flow);
    let (p2, p4, p8) = (at(2), at(4), at(8));
    // +76% and +163% within the 15% tolerance of the issue
    assert!(close(p2.iops / p1.iops, 1.76, 0.15 * 0.76));
    assert!(close(p4.iops / p1.iops, 2.63, 0.15 * 1.63));
    // hand: r(2) = 2 / (1 + 0.096752 + 2 x 0.019806) = 1.7600; r(4) = 2.6179
    assert!(close(p2.iops, 76_000.0 * 1.76, 0.002));
    assert!(close(p4.iops, 76_000.0 * 2.6179, 0.002));
    assert_eq!(p4.bottleneck, Layer::Host);
    // 8 flows are past the USL peak sqrt((1 - 0.096752) / 0.019806) = 6.75, so the host
    // holds r(7) = 7 / (1 + 6 x 0.096752 + 42 x 0.019806) = 2.9017: +10.8% over 4.
    assert!(p8.iops >= p4.iops && p8.iops <= p4.iops * 1.15);
    assert!(close(p8.iops, 76_000.0 * 2.9017, 0.002));
    // never falls with more datastores
    let mut last = 0.0;
    for d in 1..=64 {
        let p = at(d);
        assert!(p.iops >= last);
        last = p.iops;
    }
}

#[test]
fn latency_by_littles_law_only_when_outstanding_io_is_given() {
    let m = model();
    let mut l = Layout::new(1, 1, 4500.0);
    let io = profile(8.0, 70.0, 100.0);
    assert_eq!(m.predict(&l, &io).unwrap().latency_ms, None);
    // 76 requests in flight over 76,000 IOPS: 76 / 76,000 s = 1 ms
    l.outstanding_io = Some(76.0);
    let p = m.predict(&l, &io).unwrap();
    assert!((p.latency_ms.unwrap() - 1.0).abs() < 1e-9);
    // vSAN 4 VMs x 32 Sysbench threads: 128 / 2,830 TPS = 45.2 ms (published 45 ms)
    let c = m
        .calibration()
        .iter()
        .find(|c| c.id == "vsan-4vm-latency")
        .unwrap();
    assert!((c.predicted - 128.0 / 2830.0 * 1000.0).abs() < 1e-6);
}

#[test]
fn nconnect_four_is_four_flows() {
    let m = model();
    let io = IoProfile::small_block();
    let mut l = Layout::new(1, 1, 4500.0);
    l.nconnect = 4;
    let a = m.predict(&l, &io).unwrap();
    let b = m.predict(&Layout::new(1, 4, 4500.0), &io).unwrap();
    // 4 flows on one host either way (host: 2.6179 x 76,000 = 198,962 IOPS), but with one
    // datastore a single volume binds first: 8 KiB 70/30 random ceiling
    // 1 / (0.7/293,000 + 0.3/(0.3463 x 293,000)) = 1 / (2.3891e-6 + 2.9563e-6) = 187,078.
    assert!(close(a.iops, 187_078.0, 0.002));
    assert_eq!(a.bottleneck, Layer::Volume);
    assert!(close(b.iops, 76_000.0 * 2.6179, 0.002));
}

#[test]
fn mixes_combine_by_time_not_arithmetic_mean() {
    let m = model();
    let linux = m.system("anf-linux").unwrap();
    // 8 KiB random, 50% read on one volume: 1 / (0.5/293,000 + 0.5/(0.346 x 293,000)) =
    // 1 / (1.7065e-6 + 4.927e-6) = 150,750 IOPS; the arithmetic mean would be ~197,000.
    let p = m
        .predict_system(
            linux,
            &Layout::new(1, 1, 4500.0),
            &profile(8.0, 50.0, 100.0),
        )
        .unwrap();
    assert!(close(p.iops, 150_750.0, 0.005), "{}", p.iops);
    // MiB/s = IOPS x KiB / 1024
    assert!((p.throughput_mibps - p.iops * 8.0 / 1024.0).abs() < 1e-9);
}

#[test]
fn cool_tier_mix_and_retrieval_policies() {
    let m = model();
    let linux = m.system("anf-linux").unwrap();
    let mut l = Layout::new(1, 1, 4500.0);
    l.cool_pct = 100.0;
    // 64 KiB reads, half random: 1 / (0.5/280 + 0.5/1,742) = 482.4 MiB/s, much closer to
    // the random figure than to the sequential one [COOL-PERF].
    let p = m
        .predict_system(linux, &l, &profile(64.0, 100.0, 50.0))
        .unwrap();
    assert!(
        (p.throughput_mibps - 482.4).abs() < 0.5,
        "{}",
        p.throughput_mibps
    );
    assert_eq!(p.bottleneck, Layer::CoolTier);
    // re-warming adds hot writes: Never >= Default >= OnRead (ANF AVS, mixed workload)
    let avs = m.system("anf-avs").unwrap();
    let mut l = Layout::new(4, 1, 4500.0);
    l.cool_pct = 30.0;
    let io = profile(8.0, 70.0, 60.0);
    let mut by = Vec::new();
    for r in [
        RetrievalPolicy::Never,
        RetrievalPolicy::Default,
        RetrievalPolicy::OnRead,
    ] {
        l.retrieval = r;
        by.push(m.predict_system(avs, &l, &io).unwrap().iops);
    }
    assert!(by[0] >= by[1] && by[1] >= by[2] && by[0] > by[2], "{by:?}");
}

#[test]
fn vsan_profile_eight_vms_fit_twelve_spill() {
    let m = model();
    let vsan = m.system("vsan-hybrid").unwrap();
    let io = profile(16.0, 70.0, 100.0);
    let at = |v: u32| {
        let mut l = Layout::new(4, 1, 4500.0);
        l.vms_per_host = Some(v);
        m.predict_system(vsan, &l, &io).unwrap()
    };
    let (p8, p12) = (at(2), at(3));
    // 8 x 875 GB = 7,000 GB <= 8,960 GB read cache; 12 x 875 = 10,500 GB > 8,960
    assert_eq!(p8.working_set_fits_cache, Some(true));
    assert_eq!(p12.working_set_fits_cache, Some(false));
    assert_eq!(p12.bottleneck, Layer::Backend);
    assert_eq!(p8.bottleneck, Layer::Host);
    // collapse: 12 VMs deliver less than 8 (1,250 vs 4,259 TPS, i.e. < 1/3)
    assert!(p12.iops < p8.iops / 3.0);
}

#[test]
fn afa_64k_figure_comes_from_the_link_limit() {
    let m = model();
    let afa = m.system("afa-smb3").unwrap();
    let p = m
        .predict_system(
            afa,
            &Layout::new(10, 1, 4500.0),
            &profile(64.0, 100.0, 100.0),
        )
        .unwrap();
    // 2 x 20 Gb/s x 0.589824 = 2,812.5 MiB/s = 45,000 IOPS at 64 KiB; the array's
    // 750,000 / 16 = 46,875 ops is close behind.
    assert_eq!(p.bottleneck, Layer::Link);
    assert!(close(p.iops, 45_000.0, 1e-6));
    // 4 KiB: the hosts' CPU, 10 x 18,000 = 180,000; the array allows 750,000.
    let p = m
        .predict_system(
            afa,
            &Layout::new(10, 1, 4500.0),
            &profile(4.0, 100.0, 100.0),
        )
        .unwrap();
    assert_eq!(p.bottleneck, Layer::Host);
    assert!(close(p.iops, 180_000.0, 1e-6));
}

#[test]
fn user_profile_inherits_and_overrides() {
    let m = model();
    // An AV64 (100 GbE) host: a VM over 8 datastores is held by its own 2,786 MiB/s
    // (NIC 100e9/8/2^20 x 0.8595 = 10,246; host 2.9017 x 2,148 = 6,233 MiB/s).
    let text = "parameter,value,unit,fit_min,fit_max,source\n\
                inherit,anf-avs,,,,test\n\
                host_nic_gbps,100,Gbit/s,,,AV64\n";
    let av64 = m.profile_from_csv("av64", text).unwrap();
    let mut l = Layout::new(1, 8, 4500.0);
    l.vms_per_host = Some(1);
    l.vmdks_per_vm = Some(8);
    let p = m
        .predict_system(&av64, &l, &IoProfile::large_block())
        .unwrap();
    assert_eq!(p.bottleneck, Layer::Vm);
    assert!(close(p.throughput_mibps, 2786.0, 1e-9));
    assert!(
        m.profile_from_csv(
            "x",
            "parameter,value,unit,fit_min,fit_max,source\nfoo,1,,,,\n"
        )
        .is_err()
    );
    assert!(
        m.profile_from_csv(
            "x",
            "parameter,value,unit,fit_min,fit_max,source\nflow_iops,fit:a,,1,2,\n"
        )
        .is_err()
    );
    assert!(m.system("nope").is_err());
    // the built-in AV64 profile is the same thing
    let p = m
        .predict_system(
            m.system("anf-avs-av64").unwrap(),
            &l,
            &IoProfile::large_block(),
        )
        .unwrap();
    assert_eq!(p.bottleneck, Layer::Vm);
}

#[test]
fn block_sizes_parse() {
    assert_eq!(parse_block_size_kib("8K").unwrap(), 8.0);
    assert_eq!(parse_block_size_kib("64K").unwrap(), 64.0);
    assert_eq!(parse_block_size_kib("4k").unwrap(), 4.0);
    assert_eq!(parse_block_size_kib("8").unwrap(), 8.0);
    assert_eq!(parse_block_size_kib("16KiB").unwrap(), 16.0);
    assert_eq!(parse_block_size_kib("1M").unwrap(), 1024.0);
    for bad in ["0", "0K", "-8K", "", "K", "eightK", "NaN", "inf"] {
        assert!(parse_block_size_kib(bad).is_err(), "{bad}");
    }
}

#[test]
fn service_level_rates_from_the_catalog() {
    let cat = Catalog::builtin().unwrap();
    let spec = |l| cat.service_level(l).unwrap();
    // Premium 10 TiB: 10 x 64 = 640; with cool access (legacy rule) 10 x 36 = 360
    let p = spec(ServiceLevel::Premium);
    let legacy = |s| {
        Some(cool_access_rate_mibps_per_tib(
            s,
            0.8,
            CoolThroughputRule::Legacy,
        ))
    };
    assert_eq!(
        service_level_throughput_mibps(p, 10.0, None, 0.0).unwrap(),
        640.0
    );
    assert_eq!(
        service_level_throughput_mibps(p, 10.0, legacy(p), 0.0).unwrap(),
        360.0
    );
    // Premium 20 TiB, 80% cold, current rule (japaneast): 20 x (0.2 x 64 + 0.8 x 16)
    // = 20 x 25.6 = 512
    let current = cat.cool_access.rule("japaneast", ServiceLevel::Premium);
    let r = cool_access_rate_mibps_per_tib(p, 0.8, current);
    let q = service_level_throughput_mibps(p, 20.0, Some(r), 0.0).unwrap();
    assert!((q - 512.0).abs() < 1e-9, "{q}");
    // Ultra with cool (legacy): 2 x 68 = 136
    let u = spec(ServiceLevel::Ultra);
    assert_eq!(
        service_level_throughput_mibps(u, 2.0, legacy(u), 0.0).unwrap(),
        136.0
    );
    // Flexible 1 TiB: 128 + 500 = 628 <= 640 (cool access keeps it); 128 + 1,000 capped at 640
    let f = spec(ServiceLevel::Flexible);
    assert_eq!(
        service_level_throughput_mibps(f, 1.0, legacy(f), 500.0).unwrap(),
        628.0
    );
    assert_eq!(
        service_level_throughput_mibps(f, 1.0, None, 1000.0).unwrap(),
        640.0
    );
    assert!(service_level_throughput_mibps(p, 1.0, Some(-1.0), 0.0).is_err());
    assert!(service_level_throughput_mibps(p, 1.0, Some(f64::NAN), 0.0).is_err());
    assert!(service_level_throughput_mibps(u, 0.0, None, 0.0).is_err());
}

#[test]
fn invalid_inputs_are_errors() {
    let m = model();
    let io = IoProfile::small_block();
    assert!(m.predict(&Layout::new(0, 1, 4500.0), &io).is_err());
    assert!(m.predict(&Layout::new(1, 0, 4500.0), &io).is_err());
    assert!(m.predict(&Layout::new(1, 1, 0.0), &io).is_err());
    let l = Layout::new(1, 1, 4500.0);
    for bad in [
        profile(0.0, 70.0, 100.0),
        profile(f64::NAN, 70.0, 100.0),
        profile(8.0, 101.0, 100.0),
        profile(8.0, 70.0, 100.5),
        profile(8.0, -1.0, 100.0),
    ] {
        assert!(m.predict(&l, &bad).is_err());
    }
    let mut l2 = l.clone();
    l2.cool_pct = 120.0;
    assert!(m.predict(&l2, &io).is_err());
    let mut l3 = l.clone();
    l3.nconnect = 3;
    assert!(m.predict(&l3, &io).is_err());
    let mut l4 = l;
    l4.vms_per_host = Some(0);
    assert!(m.predict(&l4, &io).is_err());
}

fn any_layout() -> impl Strategy<Value = Layout> {
    (
        1u32..=16,
        1u32..=64,
        prop_oneof![Just(1u32), Just(4u32)],
        proptest::option::of(1u32..=8),
        proptest::option::of(1u32..=8),
        0.0f64..=100.0,
        prop_oneof![
            Just(RetrievalPolicy::Default),
            Just(RetrievalPolicy::OnRead),
            Just(RetrievalPolicy::Never)
        ],
        prop_oneof![Just(4500.0f64), Just(12_800.0f64)],
    )
        .prop_map(|(h, d, n, v, k, cool, r, vol)| {
            let mut l = Layout::new(h, d, vol);
            l.nconnect = n;
            l.vms_per_host = v;
            l.vmdks_per_vm = k;
            l.cool_pct = cool;
            l.retrieval = r;
            l
        })
}

fn any_profile() -> impl Strategy<Value = IoProfile> {
    (0.5f64..=1024.0, 0.0f64..=100.0, 0.0f64..=100.0).prop_map(|(b, r, x)| profile(b, r, x))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// QoS is a pure cap: with Some(q) the prediction is min(without QoS, q at the block size).
    #[test]
    fn qos_is_a_pure_cap(l in any_layout(), io in any_profile(), q in 0.0f64..20_000.0) {
        let m = model();
        let free = m.predict(&l, &io).unwrap();
        let mut capped = l.clone();
        capped.qos_throughput_mibps = Some(q);
        let p = m.predict(&capped, &io).unwrap();
        let expect = free.iops.min(q * 1024.0 / io.block_size_kib);
        prop_assert!((p.iops - expect).abs() <= 1e-9 * expect.max(1.0));
        prop_assert!((p.throughput_mibps - free.throughput_mibps.min(q)).abs() <= 1e-9 * q.max(1.0));
    }

    /// More pool capacity or a higher service level never lowers predicted throughput.
    #[test]
    fn capacity_and_service_level_are_monotone(
        l in any_layout(), io in any_profile(),
        size in 1.0f64..500.0, extra in 0.0f64..500.0, cool in any::<bool>(),
        cold_share in 0.0f64..=1.0, current in any::<bool>(),
    ) {
        let m = model();
        let cat = Catalog::builtin().unwrap();
        let region = if current { "japaneast" } else { "eastus" };
        let at = |level, tib| {
            let spec = cat.service_level(level).unwrap();
            let rule = cat.cool_access.rule(region, level);
            let rate = cool.then(|| cool_access_rate_mibps_per_tib(spec, cold_share, rule));
            let mut x = l.clone();
            x.qos_throughput_mibps = Some(service_level_throughput_mibps(spec, tib, rate, 0.0).unwrap());
            m.predict(&x, &io).unwrap().throughput_mibps
        };
        let levels = [ServiceLevel::Standard, ServiceLevel::Premium, ServiceLevel::Ultra];
        for w in levels.windows(2) {
            prop_assert!(at(w[1], size) >= at(w[0], size));
        }
        for level in levels {
            prop_assert!(at(level, size + extra) >= at(level, size));
        }
    }

    /// No cold data is the same as cool access off, whatever the retrieval policy.
    #[test]
    fn no_cold_data_equals_cool_off(l in any_layout(), io in any_profile()) {
        let m = model();
        let mut off = l.clone();
        off.cool_pct = 0.0;
        off.retrieval = RetrievalPolicy::Default;
        let base = m.predict(&off, &io).unwrap();
        for r in [RetrievalPolicy::OnRead, RetrievalPolicy::Never] {
            let mut x = off.clone();
            x.retrieval = r;
            prop_assert_eq!(&m.predict(&x, &io).unwrap(), &base);
        }
    }

    /// Finite, non-negative predictions for any valid input on every built-in system.
    #[test]
    fn predictions_are_finite_and_non_negative(
        l in any_layout(), io in any_profile(), ws in proptest::option::of(0.0f64..1e6),
    ) {
        let m = model();
        let mut l = l;
        l.working_set_gib = ws;
        for s in m.systems() {
            let p = m.predict_system(s, &l, &io).unwrap();
            prop_assert!(p.iops.is_finite() && p.iops >= 0.0);
            prop_assert!(p.throughput_mibps.is_finite() && p.throughput_mibps >= 0.0);
            prop_assert!(p.layers.iter().any(|c| c.layer == p.bottleneck));
        }
    }

    /// ANF on AVS: more datastores or more hosts never lower the ceiling (the optimizer
    /// relies on it when it scans datastore counts).
    #[test]
    fn more_datastores_or_hosts_never_lower_the_ceiling(l in any_layout(), io in any_profile()) {
        let m = model();
        let base = m.predict(&l, &io).unwrap().iops;
        let mut d = l.clone();
        d.datastores += 1;
        prop_assert!(m.predict(&d, &io).unwrap().iops >= base * (1.0 - 1e-12));
        let mut h = l.clone();
        h.hosts += 1;
        prop_assert!(m.predict(&h, &io).unwrap().iops >= base * (1.0 - 1e-12));
    }

    /// Invalid input is an error, never a prediction.
    #[test]
    fn out_of_range_percentages_are_errors(l in any_layout(), bad in 100.0001f64..1e6) {
        let m = model();
        prop_assert!(m.predict(&l, &profile(8.0, bad, 50.0)).is_err());
        prop_assert!(m.predict(&l, &profile(8.0, 50.0, bad)).is_err());
        let mut c = l.clone();
        c.cool_pct = bad;
        prop_assert!(m.predict(&c, &IoProfile::small_block()).is_err());
    }
}

//! A plan on vSAN alone shows vSAN alone's clusters: the hosts its vSAN needs to hold the
//! data and to carry the targets, in the headline, the AVS clusters (JSON `sizing`, the
//! text table, the workbook's `Sizing`), the hosts by driver and the designs table alike;
//! a cluster grown past 16 hosts is shown as the clusters it becomes.
//!
//! The fixture is `fixtures/file-servers-vinfo.csv`: one source cluster `Files` of 10 VMs,
//! each 4 vCPU, 16 GiB, 1,500 GiB in use (15,000 GiB; no growth or snapshot reserve by
//! default), on AV36P (`--host-sku av36p`), vSAN alone forced. Worked out by hand from
//! `data/avs_hosts.csv`, `data/limits.csv`, `data/vsan_policies.csv` and
//! `data/vsan_performance.csv` (the README's vSAN sections):
//! - compute: the only cluster is its private cloud's first, with the management
//!   reservation (46 / 2.6 GHz = 17.7 -> 18 cores x 4 = 72 vCPU; 171.88 GB = 160.08 GiB):
//!   40 + 72 = 112 vCPU -> ceil(112 / 144) = 1 host, 160 + 160.08 GiB -> ceil(320.08 /
//!   670.55) = 1, + 1 HA = 2 -> the AVS minimum of 3;
//! - capacity: raw 19.2 x 10^12 B = 17,881.39 GiB per host, 25% slack, the first cluster's
//!   17,287 GB = 16,099.8 GiB kept for AVS, policy by size (RAID-1 x2 at 3 hosts, RAID-5
//!   x4/3 at 4..5, RAID-6 x1.5 from 6), at most that / 1.2 (headroom) of data: 3 hosts
//!   (40,233.1 - 16,099.8) / 2 = 12,066.7 -> 10,055.5 < 15,000; 4 hosts (53,644.2 -
//!   16,099.8) / (4/3) = 28,158.3 -> 23,465.2 >= 15,000: its data needs 4 hosts;
//! - performance (MiB/s target: 64 KiB, 70% read, sequential; the cluster carries all of
//!   it), checked with a host down: an AV36P host's NICs carry 25 Gbit/s = 2,980.23 MiB/s
//!   x 0.85954 (the NFS payload share) = 2,561.62 MiB/s, and every device I/O crosses
//!   them once: a guest I/O 0.7 x 1 + 0.3 x 4/3 = 1.1 times on RAID-5, 0.7 + 0.3 x 1.5 =
//!   1.15 on RAID-6 (a sequential write a full stripe). The devices (AV36P 16,000 MB/s read
//!   = 15,258.8 MiB/s, writes at the 2,000 MB/s = 1,907.35 MiB/s cache tier) carry more:
//!   at 4 hosts on RAID-5 0.7 / 61,035 + 0.4 / 7,629.4 -> 15,650 MiB/s.

#![cfg(feature = "xlsx")]

use std::io::Cursor;
use std::path::PathBuf;

use calamine::{Data, DataType, Range, Reader, Xlsx};
use dsplan::plan::{Design, EstatePlan};
use dsplan::report::{TextDetail, render_estate_text};
use dsplan::sizing::Driver;
use dsplan::{PlanOptions, Planner};

include!("support/vinfo_csv.rs");

/// The file servers on vSAN alone (AV36P) at `mibps` MiB/s (0: no target).
fn file_servers_on_vsan(mibps: f64) -> EstatePlan {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/file-servers-vinfo.csv");
    on_vsan(fixture, mibps)
}

/// `input` on vSAN alone (AV36P) at `mibps` MiB/s.
fn on_vsan(input: PathBuf, mibps: f64) -> EstatePlan {
    Planner::new()
        .input(input)
        .options(
            PlanOptions::default()
                .host_sku("av36p")
                .design(Design::Vsan)
                .throughput_mibps(mibps),
        )
        .plan_estate()
        .unwrap()
}

/// Each AVS cluster as (name, private cloud, hosts, driver, VMs).
fn clusters(p: &EstatePlan) -> Vec<(&str, &str, u32, Driver, usize)> {
    p.sizing
        .clusters
        .iter()
        .map(|c| {
            let cloud = c.private_cloud.as_str();
            (c.name.as_str(), cloud, c.hosts, c.driver, c.vms)
        })
        .collect()
}

/// The hosts by driver as (vCPU, memory, minimum, storage, vSAN, vSAN performance).
fn by_driver(p: &EstatePlan) -> (u32, u32, u32, u32, u32, u32) {
    let d = &p.summary.hosts_by_driver;
    let (a, b) = ((d.vcpu, d.memory, d.minimum), (d.storage, d.vsan));
    (a.0, a.1, a.2, b.0, b.1, d.vsan_performance)
}

/// The vSAN-alone row of the designs table: (hosts, clusters, private clouds).
fn vsan_row(p: &EstatePlan) -> (u32, u32, u32) {
    let d = p.designs.as_ref().unwrap();
    let r = d.estate.iter().find(|r| r.design == Design::Vsan).unwrap();
    (r.hosts, r.clusters, r.private_clouds)
}

fn workbook(p: &EstatePlan) -> Xlsx<Cursor<Vec<u8>>> {
    let bytes = dsplan::report::xlsx::estate_xlsx(p).unwrap().bytes;
    Xlsx::new(Cursor::new(bytes)).unwrap()
}

/// A cell as text (numbers without a fraction as integers).
fn cell(range: &Range<Data>, at: (usize, usize)) -> String {
    match range.get(at) {
        Some(Data::Float(f)) if f.fract() == 0.0 => format!("{f}"),
        Some(d) => d.as_string().unwrap_or_else(|| d.to_string()),
        None => String::new(),
    }
}

/// The workbook's `Sizing` cluster rows as (name, private cloud, hosts, driver) and
/// `Estate`'s `hosts` and `hosts added for vSAN performance`.
fn workbook_clusters(p: &EstatePlan) -> (Vec<[String; 4]>, String, String) {
    let mut book = workbook(p);
    let s = book.worksheet_range("Sizing").unwrap();
    let header: Vec<String> = (0..s.width()).map(|c| cell(&s, (0, c))).collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows = (1..s.height())
        .filter(|&r| cell(&s, (r, 0)) == "cluster")
        .map(|r| ["name", "private cloud", "hosts", "driver"].map(|n| cell(&s, (r, col(n)))))
        .collect();
    let e = book.worksheet_range("Estate").unwrap();
    let item = |name: &str| {
        let r = (0..e.height())
            .find(|&r| cell(&e, (r, 0)) == name)
            .unwrap_or_else(|| panic!("no item {name}"));
        cell(&e, (r, 1))
    };
    (
        rows,
        item("hosts"),
        item("hosts added for vSAN performance"),
    )
}

fn strings<const N: usize>(rows: &[[&str; N]]) -> Vec<[String; N]> {
    rows.iter().map(|r| r.map(str::to_string)).collect()
}

#[test]
fn vsan_alone_grown_for_its_performance_shows_its_hosts_everywhere() {
    // 7,500 MiB/s: 4 hosts (what the data needs) are checked at 3 on RAID-5: 3 x 2,561.62
    // / 1.1 = 6,986.2 < 7,500; 5 hosts at 4: 4 x 2,561.62 / 1.1 = 9,314.98 >= 7,500
    // (`dsplan predict --system vsan-av36p --hosts 4 --block-size 64K --random-pct 0`:
    // "9,314.9 MiB/s (bottleneck: network)"). So 5 hosts, raised past the 4 its data needs
    // for its vSAN's performance: 3 compute hosts at the minimum, 2 added for the vSAN's
    // performance; 5 x 9.20 x 730 = 33,580.00 USD/month; vSAN 15,000 GiB over what 5 hosts
    // hold, (67,055.2 - 16,099.8) / (4/3) = 38,216.6 GiB: 39.25%.
    let p = file_servers_on_vsan(7_500.0);
    assert_eq!(p.summary.design, Design::Vsan);
    assert_eq!((p.summary.hosts, p.summary.clusters), (5, 1));
    assert_eq!(p.summary.hosts_usd_per_month, Some(33_580.0));
    assert_eq!(
        clusters(&p),
        [(
            "avs-Files",
            "private-cloud-1",
            5,
            Driver::VsanPerformance,
            10
        )]
    );
    assert_eq!(p.sizing.hosts, 5);
    assert_eq!(by_driver(&p), (0, 0, 3, 0, 0, 2));
    assert_eq!(vsan_row(&p), (5, 1, 1));
    let v = &p.vsan_alone.as_ref().unwrap().sizing.clusters[0];
    assert_eq!((v.compute_hosts, v.hosts_for_capacity, v.hosts), (3, 4, 5));
    let mibps = p.summary.performance.vsan_predicted_throughput_mibps;
    assert!((mibps - 9_314.98).abs() < 0.05, "{mibps}");
    let vsan_pct = p.sizing.clusters[0].utilisation.unwrap().vsan_storage_pct;
    assert!((vsan_pct.unwrap() - 39.25).abs() < 0.01, "{vsan_pct:?}");
    // The text: the headline, the hosts by driver and the AVS clusters table agree.
    let text = render_estate_text(&p, TextDetail::Summary);
    assert!(
        text.starts_with("Estate: 10 VMs on 5 av36p hosts in 1 AVS cluster, 1 private cloud"),
        "{text}"
    );
    assert!(text.contains(
        "3 at the 3-host minimum, 0 raised for the datastores' IOPS and MiB/s, 2 added for the \
         vSAN's performance, 0 added to hold data on vSAN"
    ));
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("avs-Files"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells[..4],
        ["avs-Files", "private-cloud-1", "5", "vsan_performance"]
    );
    assert!(text.contains("Raised beyond them: vsan_performance for the vSAN's IOPS and MiB/s."));
    // The workbook likewise.
    let (rows, hosts, perf) = workbook_clusters(&p);
    let want = [["avs-Files", "private-cloud-1", "5", "vsan_performance"]];
    assert_eq!(rows, strings(&want));
    assert_eq!((hosts.as_str(), perf.as_str()), ("5", "2"));
}

/// 40 file servers of 1 vCPU, 4 GiB, 375 GiB in use (15,000 GiB, as the fixture's 10) in
/// one source cluster `Files`, on vSAN alone (AV36P) at `mibps` MiB/s: each VM carries
/// mibps / 40, within what one VM asks of vSAN at 34,000 (850 <= 2,561.62 / 1.3 = 1,970.5).
fn forty_file_servers_on_vsan(mibps: f64) -> EstatePlan {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vsan_alone_rows");
    std::fs::create_dir_all(&dir).unwrap();
    let vms: Vec<VinfoVm> = (1..=40)
        .map(|i| VinfoVm {
            name: format!("fs-{i:02}"),
            cpus: 1,
            memory_mib: 4096,
            in_use_mib: 384_000,
            cluster: "Files",
            vm_id: format!("vm-{i}"),
        })
        .collect();
    let input = dir.join("forty.csv");
    write_vinfo_csv(&input, "vcenter.example.test", &vms);
    on_vsan(input, mibps)
}

#[test]
fn vsan_alone_past_16_hosts_shows_the_clusters_it_becomes() {
    // 34,000 MiB/s on RAID-6 (from 6 hosts), each cluster of n hosts checked at n - 1:
    // (n - 1) x 2,561.62 / 1.15 = (n - 1) x 2,227.5 MiB/s. 16 hosts (checked at 15):
    // 33,412.4 < 34,000; 17 hosts are clusters of 9 and 8, each carrying its hosts' share:
    // the 9's 34,000 x 9 / 17 = 18,000 > 8 x 2,227.5 = 17,820.0; 18 hosts are two of 9,
    // 17,000 each <= 17,820.0 (the devices at 8 hosts, 0.7 / 122,070 + 0.45 / 15,258.8 ->
    // 28,388 MiB/s, carry more). Each VM's 850 MiB/s is within one VM's 1,970.5 (the 10
    // fixture VMs' 3,400 would not be). So 18 hosts in 2 clusters of 9, both raised for
    // their vSAN's performance, one private cloud (2 clusters, 18 hosts); 18 x 6,716 =
    // 120,888.00 USD/month; 2 x 17,820.0 = 35,639.9 MiB/s delivered. The 40 VMs (equal
    // vCPU, memory and data) are dealt 20 and 20: avs-Files keeps the management
    // reservation (20 + 72 vCPU -> 1 host, 80 + 160.08 GiB -> 1, + 1 HA -> the minimum of
    // 3), avs-Files-2 needs 1 + 1 -> 3: 6 compute hosts at the minimum, 12 added for the
    // vSAN's performance. vSAN: each 7,500 GiB over what 9 hosts hold with the first
    // cluster's reserve (kept in each part, the conservative reading), (9 x 17,881.39 x
    // 0.75 - 16,099.8) / 1.5 = 69,733.1 GiB: 10.76%.
    let p = forty_file_servers_on_vsan(34_000.0);
    assert_eq!((p.summary.hosts, p.summary.clusters), (18, 2));
    assert_eq!(p.summary.private_clouds, 1);
    assert_eq!(p.summary.hosts_usd_per_month, Some(120_888.0));
    let vsan = Driver::VsanPerformance;
    assert_eq!(
        clusters(&p),
        [
            ("avs-Files", "private-cloud-1", 9, vsan, 20),
            ("avs-Files-2", "private-cloud-1", 9, vsan, 20)
        ]
    );
    assert!(p.sizing.clusters[0].management.is_some());
    assert!(p.sizing.clusters[1].management.is_none());
    let cloud = &p.sizing.private_clouds[0];
    assert_eq!((cloud.clusters.len(), cloud.hosts), (2, 18));
    assert_eq!(by_driver(&p), (0, 0, 6, 0, 0, 12));
    assert_eq!(vsan_row(&p), (18, 2, 1));
    let v = &p.vsan_alone.as_ref().unwrap().sizing;
    assert_eq!(
        (
            v.clusters.len(),
            v.clusters[0].hosts,
            v.clusters[0].clusters
        ),
        (1, 18, 2)
    );
    let mibps = p.summary.performance.vsan_predicted_throughput_mibps;
    assert!((mibps - 35_639.9).abs() < 0.1, "{mibps}");
    assert_eq!(p.summary.performance.vsan_clusters, 2);
    for c in &p.sizing.clusters {
        let pct = c.utilisation.unwrap().vsan_storage_pct.unwrap();
        assert!((pct - 10.755).abs() < 0.01, "{}: {pct}", c.name);
    }
    let text = render_estate_text(&p, TextDetail::Summary);
    assert!(text.starts_with("Estate: 40 VMs on 18 av36p hosts in 2 AVS clusters"));
    assert!(text.contains("6 at the 3-host minimum"));
    assert!(text.contains("12 added for the vSAN's performance"));
    let (rows, hosts, perf) = workbook_clusters(&p);
    let want = [
        ["avs-Files", "private-cloud-1", "9", "vsan_performance"],
        ["avs-Files-2", "private-cloud-1", "9", "vsan_performance"],
    ];
    assert_eq!(rows, strings(&want));
    assert_eq!((hosts.as_str(), perf.as_str()), ("18", "12"));
}

#[test]
fn vsan_alone_grown_for_its_data_says_so() {
    // No target: 4 hosts, what the data needs (above): 3 compute hosts at the minimum, 1
    // added to hold data on vSAN; 4 x 6,716 = 26,864.00 USD/month (the README's figure).
    let p = file_servers_on_vsan(0.0);
    assert_eq!(p.summary.hosts_usd_per_month, Some(26_864.0));
    assert_eq!(
        clusters(&p),
        [("avs-Files", "private-cloud-1", 4, Driver::Vsan, 10)]
    );
    assert_eq!(by_driver(&p), (0, 0, 3, 0, 1, 0));
    assert_eq!(vsan_row(&p), (4, 1, 1));
    let text = render_estate_text(&p, TextDetail::Summary);
    assert!(text.contains(
        "3 at the 3-host minimum, 0 raised for the datastores' IOPS and MiB/s, 1 added to hold \
         data on vSAN"
    ));
    assert!(!text.contains("for the vSAN's performance"));
}

#[test]
fn a_first_cluster_added_without_vms_delivers_nothing_to_the_targets() {
    // The file servers on AV64 on vSAN alone (no target): Files on 4 AV64 hosts (RAID-5 at
    // 4..5, checked with a host down at 3) beside the 3 AV36P hosts of the first cluster
    // an AV64 private cloud needs (`avs-seed-1`, no VMs). What vSAN delivers to the VMs'
    // targets is Files' envelope alone: at 8 KiB, 70% read, 80% random, the host path of 3
    // hosts, 3 x 198,060, over 1 + 0.7 + 0.3 x (0.8 x 4 + 0.2 x 4/3) = 2.74 I/Os a guest
    // I/O: 216,854.0 IOPS; the seed's own 3 x 198,060 / 2.3 = 258,339.1 is not added.
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/file-servers-vinfo.csv");
    let p = Planner::new()
        .input(fixture)
        .options(PlanOptions::default().host_sku("av64").design(Design::Vsan))
        .plan_estate()
        .unwrap();
    let names: Vec<(&str, &str, u32)> = p
        .sizing
        .clusters
        .iter()
        .map(|c| (c.name.as_str(), c.sku.as_str(), c.hosts))
        .collect();
    assert_eq!(
        names,
        [("avs-Files", "av64", 4), ("avs-seed-1", "av36p", 3)]
    );
    let perf = &p.summary.performance;
    assert_eq!(perf.vsan_clusters, 1);
    let want = 3.0 * 198_060.0 / 2.74;
    assert!((perf.vsan_predicted_iops - want).abs() < 0.5, "{perf:?}");
}

#[test]
fn a_split_clusters_parts_each_hold_their_own_vms() {
    // One source cluster `Big` of 3 VMs of 40,000 GiB (4 vCPU, 16 GiB each) on AV36P, vSAN
    // alone, no target. Pooled over its parts vSAN alone needs 19 hosts: 2 clusters keeping
    // 16,099.8 GiB raw each, RAID-6, headroom 1.2: (0.75 x 19 x 17,881.39 - 2 x 16,099.8) /
    // 1.5 / 1.2 = 123,672 >= 120,000 (18: 116,222), as 10 + 9. But a VM is whole: dealt
    // largest first to the part least loaded for its hosts, b0 -> the 10 (0.1 vs 0.111),
    // b1 -> the 9 (0.2 vs 0.111), b2 -> the 10 (0.2 vs 0.222): 80,000 GiB on a part whose
    // 10 hosts keep (0.75 x 10 x 17,881.39 - 16,099.8) / 1.8 = 65,561 (the first cluster's
    // reserve kept in each part, the conservative reading); 11 keep 73,012, 12 keep
    // 80,462.6: 12 hosts, full to 80,000 / 96,555.1 = 82.85% (at most 83.3); the 9 keep
    // 58,110.9 >= 40,000: 40,000 / 69,733.1 = 57.36%. 21 hosts x 6,716.00 = 141,036.00.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vsan_alone_rows");
    std::fs::create_dir_all(&dir).unwrap();
    let vms: Vec<VinfoVm> = (0..3)
        .map(|i| VinfoVm {
            name: format!("b{i}"),
            cpus: 4,
            memory_mib: 16_384,
            in_use_mib: 40_960_000,
            cluster: "Big",
            vm_id: format!("vm-{i}"),
        })
        .collect();
    let input = dir.join("big.csv");
    write_vinfo_csv(&input, "vc.example.test", &vms);
    let p = on_vsan(input, 0.0);
    let parts: Vec<(&str, u32, usize)> = p
        .sizing
        .clusters
        .iter()
        .map(|c| (c.name.as_str(), c.hosts, c.vms))
        .collect();
    assert_eq!(parts, [("avs-Big", 12, 2), ("avs-Big-2", 9, 1)]);
    let pct: Vec<f64> = p
        .sizing
        .clusters
        .iter()
        .map(|c| c.utilisation.unwrap().vsan_storage_pct.unwrap())
        .collect();
    assert!(
        (pct[0] - 82.85).abs() < 0.01 && (pct[1] - 57.36).abs() < 0.01,
        "{pct:?}"
    );
    assert_eq!(p.summary.hosts_usd_per_month, Some(141_036.0));
    // The designs table's row of the cluster is at its parts' hosts too.
    let d = p.designs.as_ref().unwrap();
    let row = &d.clusters[0].vsan;
    assert_eq!((row.hosts, row.total_usd_per_month), (21, Some(141_036.0)));
}

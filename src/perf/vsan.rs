//! The vSAN performance envelope of an AVS cluster (`vsan-<sku>` systems): what `N` hosts of
//! one SKU deliver on their own vSAN for a workload, from what limits it physically, layer
//! by layer as the ANF systems ([`super::Layer`]). Microsoft publishes no IOPS or MiB/s for
//! vSAN on AVS hosts (the ANF datastore benchmark page says it does not cover vSAN), so the
//! envelope is built from the hosts' parts (`data/vsan_performance.csv`, one row per SKU
//! with its source) and the storage policy's write cost (`data/vsan_policies.csv`), each an
//! upper bound, the conservative reading where a figure is missing:
//!
//! - every guest I/O costs device I/Os on the hosts holding the object's components: a read
//!   1, a write under RAID-1 one per mirror, under OSA erasure coding a small write reads
//!   and rewrites data and parity (RAID-5 2 + 2, RAID-6 3 + 3) and a large sequential write
//!   is a full stripe (4/3, 1.5 writes per block); ESA has no read-modify-write, counted as
//!   its mirrored performance leg plus the full-stripe capacity leg ([`VsanWriteCost`]);
//! - [`Layer::Host`]: each guest I/O passes the ESXi storage path of the VM's host once and
//!   of each host holding a component it touches once more; a host passes at most
//!   `host_io_ops` I/Os a second (the AV36 measurement of ANF datastores, the only figure of
//!   an AVS host's I/O path: an assumption);
//! - [`Layer::Network`]: vSAN has no data locality, so every device I/O is counted as
//!   crossing the network (the component on another host: the conservative reading), each
//!   host's NIC carrying at most its line rate x the NFS payload share fitted on the same
//!   NICs (`nic_efficiency` of `anf-avs`); the same NICs carry the VMs' NFS traffic, which a
//!   caller adds ([`VsanPrediction::crossings_per_io`], [`VsanPrediction::network_mibps`]);
//! - [`Layer::Backend`]: the devices. Reads come from the capacity tier (an all-flash vSAN
//!   OSA cache tier is a write buffer only); every write lands in the cache tier (OSA) and is
//!   destaged to the capacity tier, so sustained writes run at the slower of the two: the
//!   all-flash form of the hybrid vSAN lesson that throughput falls off once the working
//!   set leaves the cache. Device figures are datasheet figures of the device class the host
//!   table names, the fewest devices of the class's largest size holding the raw capacity
//!   (AVS names no device model: an assumption each row says).
//!
//! Mixes combine by time as in every system (`1 / sum(share / ceiling)`).
//!
//! ```
//! use dsplan::perf::{IoProfile, PerfModel, VsanLayout, VsanWriteCost};
//! let model = PerfModel::builtin()?;
//! // 3 AV36P hosts under RAID-1 FTT-1 (2 writes per guest write), 64 KiB sequential, 70%
//! // read: per I/O 0.7 x 1 + 0.3 x 2 = 1.3 device I/Os cross the network; 3 hosts x 25
//! // Gbit/s x 0.8595 = 3 x 2,561.6 MiB/s of NICs carry 7,684.8 / 1.3 = 5,911 MiB/s.
//! let layout = VsanLayout::new(3, "raid1-ftt1", VsanWriteCost::mirror(2.0));
//! let p = model.predict_vsan("av36p", &layout, &IoProfile::large_block())?;
//! assert!((p.prediction.throughput_mibps - 5_911.4).abs() < 1.0);
//! assert_eq!(p.prediction.bottleneck, dsplan::perf::Layer::Network);
//! # Ok::<(), dsplan::perf::PerfError>(())
//! ```

use serde::{Deserialize, Serialize};

use super::eval::{gbps_to_mibps, mixed};
use super::{IoProfile, Layer, LayerCeiling, PerfError, Prediction};

/// `data/vsan_performance.csv`, compiled in.
pub const VSAN_PERFORMANCE_CSV: &str = include_str!("../../data/vsan_performance.csv");

/// The prefix of a vSAN envelope's system name (`vsan-av36p`).
pub const VSAN_SYSTEM_PREFIX: &str = "vsan-";

/// Bytes per MB (decimal, as datasheets publish) over bytes per MiB.
const MB_PER_MIB: f64 = 1_048_576.0 / 1e6;

/// One AVS host SKU's vSAN parts (a row of `data/vsan_performance.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanHostPerf {
    /// Host SKU (`av36p`), as in `data/avs_hosts.csv`.
    pub sku: String,
    /// `OSA` (cache and capacity tiers) or `ESA` (one tier).
    pub architecture: String,
    /// NIC line rate one host gives vSAN, NFS and VM traffic together, Gbit/s.
    pub host_nic_gbps: f64,
    /// Device I/Os one host's ESXi storage path passes a second.
    pub host_io_ops: f64,
    /// Sequential write of the cache tier of one host, MB/s (decimal; 0: no cache tier).
    pub cache_write_mbps: f64,
    /// Sequential read of the capacity tier of one host, MB/s.
    pub capacity_read_mbps: f64,
    /// Sequential write of the capacity tier of one host, MB/s.
    pub capacity_write_mbps: f64,
    /// Where each figure comes from, and which are assumptions.
    pub source: String,
}

impl VsanHostPerf {
    /// Whether its vSAN is the Express Storage Architecture.
    pub fn is_esa(&self) -> bool {
        self.architecture.eq_ignore_ascii_case("esa")
    }

    /// Sustained writes of one host, MiB/s: the slower of the cache tier (where OSA writes
    /// land) and the capacity tier (where they are destaged).
    pub fn write_mibps(&self) -> f64 {
        let capacity = self.capacity_write_mbps / MB_PER_MIB;
        if self.cache_write_mbps > 0.0 {
            capacity.min(self.cache_write_mbps / MB_PER_MIB)
        } else {
            capacity
        }
    }

    /// Reads of one host's capacity tier, MiB/s.
    pub fn read_mibps(&self) -> f64 {
        self.capacity_read_mbps / MB_PER_MIB
    }
}

/// Device I/Os one guest write costs under a storage policy (`data/vsan_policies.csv`);
/// a guest read costs one device read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VsanWriteCost {
    /// Device reads of a small (random) guest write: its read-modify-write (RAID-5 2,
    /// RAID-6 3 on OSA; 0 for mirrors and on ESA).
    pub random_write_reads: f64,
    /// Device writes of a small guest write.
    pub random_write_writes: f64,
    /// Device writes of a large sequential guest write, per block written (a full stripe).
    pub sequential_write_writes: f64,
}

impl VsanWriteCost {
    /// A mirror of `copies`: every write goes to each copy, no read-modify-write.
    pub fn mirror(copies: f64) -> VsanWriteCost {
        VsanWriteCost {
            random_write_reads: 0.0,
            random_write_writes: copies,
            sequential_write_writes: copies,
        }
    }

    /// Device reads and writes per guest I/O of each class (read random, read sequential,
    /// write random, write sequential).
    fn device_ios(&self) -> ([f64; 4], [f64; 4]) {
        (
            [1.0, 1.0, self.random_write_reads, 0.0],
            [
                0.0,
                0.0,
                self.random_write_writes,
                self.sequential_write_writes,
            ],
        )
    }
}

/// A vSAN cluster to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VsanLayout {
    /// Hosts serving the load (each runs VMs and holds components), at least 1.
    pub hosts: u32,
    /// The storage policy's name (`raid1-ftt1`), for the prediction's words.
    pub policy: String,
    /// Its write cost.
    pub write_cost: VsanWriteCost,
}

impl VsanLayout {
    /// `hosts` hosts under `policy` of `write_cost`.
    pub fn new(hosts: u32, policy: &str, write_cost: VsanWriteCost) -> VsanLayout {
        VsanLayout {
            hosts,
            policy: policy.to_string(),
            write_cost,
        }
    }
}

/// What a vSAN cluster delivers, with what its NICs carry per guest I/O.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsanPrediction {
    /// The prediction, layer by layer (system `vsan-<sku>`).
    pub prediction: Prediction,
    /// Device I/Os crossing the network per guest I/O of the profile (each of the
    /// profile's block size).
    pub crossings_per_io: f64,
    /// What the hosts' NICs carry in all, MiB/s (vSAN crossings and NFS payload
    /// together): hosts x line rate x `nic_efficiency`.
    pub network_mibps: f64,
}

/// Reads `data/vsan_performance.csv`, each row checked.
pub(crate) fn builtin_hosts() -> Result<Vec<VsanHostPerf>, PerfError> {
    let bad = |row: usize, detail: String| PerfError::Profile {
        profile: "vsan_performance.csv".into(),
        row,
        detail,
    };
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(VSAN_PERFORMANCE_CSV.as_bytes());
    let mut out = Vec::new();
    for (i, rec) in rdr.deserialize::<VsanHostPerf>().enumerate() {
        let h = rec.map_err(|e| bad(i + 2, e.to_string()))?;
        let positive = [
            h.host_nic_gbps,
            h.host_io_ops,
            h.capacity_read_mbps,
            h.capacity_write_mbps,
        ];
        let figures = positive.iter().all(|v| v.is_finite() && *v > 0.0)
            && h.cache_write_mbps.is_finite()
            && h.cache_write_mbps >= 0.0;
        if !figures || h.source.trim().is_empty() {
            return Err(bad(
                i + 2,
                format!("{}: every figure positive, with a source", h.sku),
            ));
        }
        if h.is_esa() == (h.cache_write_mbps > 0.0) {
            return Err(bad(
                i + 2,
                format!(
                    "{}: an ESA host has no cache tier, an OSA host has one",
                    h.sku
                ),
            ));
        }
        out.push(h);
    }
    Ok(out)
}

/// Evaluates `host`'s vSAN for `layout` and a validated `io`, its NICs at `nic_efficiency`.
pub(crate) fn evaluate(
    host: &VsanHostPerf,
    nic_efficiency: f64,
    layout: &VsanLayout,
    io: &IoProfile,
) -> Result<VsanPrediction, PerfError> {
    let c = &layout.write_cost;
    for (field, v) in [
        ("random_write_reads", c.random_write_reads),
        ("random_write_writes", c.random_write_writes),
        ("sequential_write_writes", c.sequential_write_writes),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(PerfError::Invalid {
                field,
                value: v.to_string(),
                expected: "a finite number of device I/Os >= 0",
            });
        }
    }
    if layout.hosts == 0 {
        return Err(PerfError::Invalid {
            field: "hosts",
            value: "0".into(),
            expected: "at least 1 host",
        });
    }
    let n = f64::from(layout.hosts);
    let bs = io.block_size_kib;
    let r = io.read_pct / 100.0;
    let x = io.random_pct / 100.0;
    let share = [r * x, r * (1.0 - x), (1.0 - r) * x, (1.0 - r) * (1.0 - x)];
    let (reads, writes) = c.device_ios();
    let ios: [f64; 4] = std::array::from_fn(|k| reads[k] + writes[k]);
    let per_io = |cap: &dyn Fn(usize) -> f64| -> [f64; 4] { std::array::from_fn(cap) };
    // Host: the VM's host once, each component's host once per device I/O.
    let host_cap = per_io(&|k| n * host.host_io_ops / (1.0 + ios[k]));
    // Network: each device I/O crosses it once, a block each.
    let network_mibps = n * gbps_to_mibps(host.host_nic_gbps) * nic_efficiency;
    let net_cap = per_io(&|k| {
        if ios[k] > 0.0 {
            network_mibps * 1024.0 / (ios[k] * bs)
        } else {
            f64::INFINITY
        }
    });
    // Devices: reads from the capacity tier, writes at the sustained write rate.
    let (read_mibps, write_mibps) = (n * host.read_mibps(), n * host.write_mibps());
    let dev_cap = per_io(&|k| {
        let seconds = reads[k] * bs / 1024.0 / read_mibps + writes[k] * bs / 1024.0 / write_mibps;
        if seconds > 0.0 {
            1.0 / seconds
        } else {
            f64::INFINITY
        }
    });
    let layers = [
        (Layer::Host, mixed(&share, &host_cap)),
        (Layer::Network, mixed(&share, &net_cap)),
        (Layer::Backend, mixed(&share, &dev_cap)),
    ];
    let (mut bottleneck, mut iops) = layers[0];
    for &(l, cap) in &layers[1..] {
        if cap < iops {
            (bottleneck, iops) = (l, cap);
        }
    }
    let layers = layers
        .iter()
        .filter(|(_, cap)| cap.is_finite())
        .map(|&(layer, cap)| LayerCeiling {
            layer,
            iops: cap,
            throughput_mibps: cap * bs / 1024.0,
            utilization: if cap > 0.0 { iops / cap } else { 1.0 },
        })
        .collect();
    let crossings_per_io = share.iter().zip(&ios).map(|(s, k)| s * k).sum();
    Ok(VsanPrediction {
        prediction: Prediction {
            iops,
            throughput_mibps: iops * bs / 1024.0,
            bottleneck,
            layers,
            system: format!("{VSAN_SYSTEM_PREFIX}{}", host.sku),
            working_set_fits_cache: None,
            latency_ms: None,
        },
        crossings_per_io,
        network_mibps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::PerfModel;

    fn host(sku: &str) -> VsanHostPerf {
        builtin_hosts()
            .unwrap()
            .into_iter()
            .find(|h| h.sku == sku)
            .unwrap()
    }

    #[test]
    fn every_sku_has_a_row_with_its_source_and_tiers() {
        let rows = builtin_hosts().unwrap();
        let skus: Vec<&str> = rows.iter().map(|h| h.sku.as_str()).collect();
        assert_eq!(skus, ["av36", "av36p", "av48", "av52", "av64", "av64-gen2"]);
        for h in &rows {
            assert!(h.source.contains("assumption"), "{}", h.sku);
            // 25 GbE but AV64's 100 GbE (performance-benchmarks-azure-vmware-solution).
            let nic = if h.sku.starts_with("av64") {
                100.0
            } else {
                25.0
            };
            assert_eq!(h.host_nic_gbps, nic, "{}", h.sku);
        }
        // AV36P: writes at the Optane cache's 2,000 MB/s = 2,000 / 1.048576 = 1,907.35 MiB/s
        // (its capacity tier writes 9,000); reads 16,000 MB/s = 15,258.8 MiB/s.
        let p = host("av36p");
        assert!((p.write_mibps() - 1_907.35).abs() < 0.01);
        assert!((p.read_mibps() - 15_258.79).abs() < 0.01);
        // AV48 (ESA): no cache tier, writes at the capacity tier's 17,200 MB/s.
        assert!((host("av48").write_mibps() - 17_200.0 / 1.048_576).abs() < 1e-9);
    }

    #[test]
    fn small_blocks_bind_on_the_host_path_and_large_on_the_network() {
        let nic = PerfModel::builtin()
            .unwrap()
            .system("anf-avs")
            .unwrap()
            .params
            .nic_efficiency
            .unwrap();
        // 4 AV36P hosts under RAID-5 on OSA (a small write: 2 reads + 2 writes; a full
        // stripe 4/3 writes), 8 KiB, 70% read, 100% random:
        //   host path: reads 1 + 1 = 2 passes, writes 1 + 4 = 5: 4 x 198,060 /
        //   (0.7 x 2 + 0.3 x 5) = 792,240 / 2.9 = 273,186.2 IOPS;
        //   network: 0.7 x 1 + 0.3 x 4 = 1.9 device I/Os of 8 KiB per guest I/O over
        //   4 x 2,980.23 x 0.85954 = 10,246.5 MiB/s: 10,246.5 x 1,024 / 15.2 = 690,289 IOPS;
        //   devices: a read is 8 KiB from 4 x 15,258.8 = 61,035.2 MiB/s (1.28e-7 s), a small
        //   write 2 such reads + 2 writes at 4 x 1,907.35 = 7,629.4 MiB/s (1.024e-6 s each):
        //   0.7 x 1.28e-7 + 0.3 x (2.56e-7 + 2.048e-6) = 7.81e-7 s -> 1,280,400 IOPS.
        //   The host path binds: 273,186 IOPS.
        let cost = VsanWriteCost {
            random_write_reads: 2.0,
            random_write_writes: 2.0,
            sequential_write_writes: 4.0 / 3.0,
        };
        let layout = VsanLayout::new(4, "raid5-ftt1", cost);
        let small = evaluate(&host("av36p"), nic, &layout, &IoProfile::small_block()).unwrap();
        assert!((small.prediction.iops - 273_186.2).abs() < 0.5, "{small:?}");
        assert_eq!(small.prediction.bottleneck, Layer::Host);
        assert!((small.crossings_per_io - 1.9).abs() < 1e-12);
        let net = small
            .prediction
            .layers
            .iter()
            .find(|l| l.layer == Layer::Network)
            .unwrap();
        let want = 4.0 * 25e9 / 8.0 / 1_048_576.0 * nic * 1024.0 / (1.9 * 8.0);
        assert!((net.iops - want).abs() < 1e-6 && (want - 690_289.0).abs() < 1.0);
        // 64 KiB sequential, 70% read: 0.7 x 1 + 0.3 x 4/3 = 1.1 crossings of 64 KiB:
        // 10,246.5 / 1.1 = 9,315.0 MiB/s; devices: 0.7 x 64/1024/61,035.2 + 0.3 x 4/3 x
        // 64/1024/7,629.4 = 7.168e-7 + 3.277e-6 s per I/O -> 250,390 IOPS = 15,649 MiB/s;
        // the network binds.
        let large = evaluate(&host("av36p"), nic, &layout, &IoProfile::large_block()).unwrap();
        assert_eq!(large.prediction.bottleneck, Layer::Network);
        assert!(
            (large.prediction.throughput_mibps - 9_315.0).abs() < 1.0,
            "{large:?}"
        );
        assert_eq!(large.prediction.system, "vsan-av36p");
    }

    #[test]
    fn sustained_writes_bind_on_the_devices_of_av36() {
        // 3 AV36 hosts, RAID-1 (2 writes), 64 KiB sequential writes only: devices write at
        // min(4,160, 1,960) MB/s = 1,869.2 MiB/s a host, 2 per guest write: 3 x 1,869.2 / 2
        // = 2,803.8 MiB/s; the network 3 x 2,561.6 / 2 = 3,842.4 MiB/s.
        let io = IoProfile {
            block_size_kib: 64.0,
            read_pct: 0.0,
            random_pct: 0.0,
        };
        let layout = VsanLayout::new(3, "raid1-ftt1", VsanWriteCost::mirror(2.0));
        let p = evaluate(&host("av36"), 0.859_537, &layout, &io).unwrap();
        assert_eq!(p.prediction.bottleneck, Layer::Backend);
        assert!(
            (p.prediction.throughput_mibps - 2_803.8).abs() < 0.1,
            "{p:?}"
        );
    }

    #[test]
    fn bad_layouts_are_refused() {
        let layout = VsanLayout::new(0, "raid1-ftt1", VsanWriteCost::mirror(2.0));
        assert!(evaluate(&host("av36"), 0.86, &layout, &IoProfile::small_block()).is_err());
        let layout = VsanLayout::new(3, "x", VsanWriteCost::mirror(f64::NAN));
        assert!(evaluate(&host("av36"), 0.86, &layout, &IoProfile::small_block()).is_err());
    }
}

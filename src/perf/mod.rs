//! The performance model: pure functions from a [`Layout`] and an [`IoProfile`] to a
//! [`Prediction`] of achievable IOPS and MiB/s, with the ceiling of each layer and the one
//! that binds.
//!
//! First cut (calibrated from `data/perf_model.csv`):
//! - **Flow**: each host opens `nconnect` TCP flows per datastore, so
//!   `flows = hosts x datastores x nconnect`. One flow carries at most `flow_iops` small-block
//!   IOPS (~76,000 8 KiB IOPS) and `flow_throughput_mibps` (~2,148 MiB/s 64 KiB); both from
//!   the published AVS + ANF measurements (1 host, 1 datastore).
//! - **Volume**: each datastore (ANF volume) carries at most the volume ceiling
//!   (4,500 MiB/s for a regular volume, from `data/limits.csv`).
//! - **QoS**: the service level's throughput assigned to the datastores (manual QoS), MiB/s.
//!
//! IOPS and MiB/s convert through the block size: `MiB/s = IOPS x block_KiB / 1024`.

use serde::{Deserialize, Serialize};

/// `data/perf_model.csv`, compiled in.
pub const PERF_MODEL_CSV: &str = include_str!("../../data/perf_model.csv");

/// Errors of the performance model: invalid layouts or profiles.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PerfError {
    /// A layout or profile field is out of its valid range.
    #[error("invalid {field}: {value} ({expected})")]
    Invalid {
        /// The field (`hosts`, `block_size_kib` ...).
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// The calibration file is malformed.
    #[error("perf_model.csv: {0}")]
    Calibration(String),
}

/// An I/O profile: the shape of the workload.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IoProfile {
    /// Request size, KiB (> 0).
    pub block_size_kib: f64,
    /// Share of reads, percent 0..=100.
    pub read_pct: f64,
    /// Share of random I/O, percent 0..=100.
    pub random_pct: f64,
}

impl IoProfile {
    /// The published small-block shape: 8 KiB, 70% read, 100% random.
    pub fn small_block() -> IoProfile {
        IoProfile {
            block_size_kib: 8.0,
            read_pct: 70.0,
            random_pct: 100.0,
        }
    }

    /// The published large-block shape: 64 KiB sequential, 70% read.
    pub fn large_block() -> IoProfile {
        IoProfile {
            block_size_kib: 64.0,
            read_pct: 70.0,
            random_pct: 0.0,
        }
    }

    /// Checks ranges.
    ///
    /// # Errors
    /// [`PerfError::Invalid`] for a block size that is not positive and finite, or a
    /// percentage outside 0..=100.
    pub fn validate(&self) -> Result<(), PerfError> {
        if !(self.block_size_kib.is_finite() && self.block_size_kib > 0.0) {
            return Err(PerfError::Invalid {
                field: "block_size_kib",
                value: self.block_size_kib.to_string(),
                expected: "a positive number of KiB",
            });
        }
        for (field, v) in [("read_pct", self.read_pct), ("random_pct", self.random_pct)] {
            if !(0.0..=100.0).contains(&v) {
                return Err(PerfError::Invalid {
                    field,
                    value: v.to_string(),
                    expected: "a percentage 0..100",
                });
            }
        }
        Ok(())
    }
}

/// A datastore layout to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// AVS hosts mounting every datastore (>= 1).
    pub hosts: u32,
    /// ANF datastores (volumes) (>= 1).
    pub datastores: u32,
    /// TCP connections per host per datastore (1, or 4 on newer AVS builds).
    pub nconnect: u32,
    /// QoS throughput assigned to all datastores together, MiB/s; `None` = unlimited
    /// (to find the ceiling of the other layers).
    pub qos_throughput_mibps: Option<f64>,
    /// Throughput ceiling of one volume, MiB/s (regular 4,500; large 12,800; from the catalog).
    pub volume_max_throughput_mibps: f64,
}

impl Layout {
    /// `hosts` x `datastores` regular volumes, `nconnect` 1, no QoS limit.
    pub fn new(hosts: u32, datastores: u32, volume_max_throughput_mibps: f64) -> Layout {
        Layout {
            hosts,
            datastores,
            nconnect: 1,
            qos_throughput_mibps: None,
            volume_max_throughput_mibps,
        }
    }

    /// Number of TCP flows: hosts x datastores x nconnect.
    pub fn flows(&self) -> u64 {
        u64::from(self.hosts) * u64::from(self.datastores) * u64::from(self.nconnect)
    }
}

/// A layer of the model that can limit performance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// The TCP flows (hosts x datastores).
    Flow,
    /// The per-volume throughput ceiling.
    Volume,
    /// The service level's throughput (QoS).
    Qos,
}

impl Layer {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Flow => "flow",
            Layer::Volume => "volume",
            Layer::Qos => "qos",
        }
    }
}

/// The ceiling one layer puts on the profile.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LayerCeiling {
    /// Which layer.
    pub layer: Layer,
    /// Most IOPS this layer allows at the profile's block size.
    pub iops: f64,
    /// The same as MiB/s.
    pub throughput_mibps: f64,
}

/// What a layout achieves for a profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Achievable IOPS at the profile's block size.
    pub iops: f64,
    /// Achievable MiB/s (= iops x block_KiB / 1024).
    pub throughput_mibps: f64,
    /// The layer with the lowest ceiling.
    pub bottleneck: Layer,
    /// Every layer's ceiling, in [`Layer`] order.
    pub layers: Vec<LayerCeiling>,
}

/// Calibrated model parameters (`data/perf_model.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerfModel {
    /// Small-block IOPS one flow carries (76,000 at 8 KiB).
    pub flow_iops: f64,
    /// Block size of `flow_iops`, KiB.
    pub flow_iops_block_kib: f64,
    /// MiB/s one flow carries (2,148 at 64 KiB).
    pub flow_throughput_mibps: f64,
    /// Block size of the large-block shape, KiB (64).
    pub large_block_kib: f64,
}

impl PerfModel {
    /// The model calibrated from the compiled-in `data/perf_model.csv`.
    ///
    /// # Errors
    /// [`PerfError::Calibration`] if the file lacks a parameter (a build defect).
    pub fn builtin() -> Result<PerfModel, PerfError> {
        PerfModel::from_csv(PERF_MODEL_CSV)
    }

    /// Parses a `parameter,value,unit,source` table.
    ///
    /// # Errors
    /// [`PerfError::Calibration`] naming the missing or malformed parameter.
    pub fn from_csv(text: &str) -> Result<PerfModel, PerfError> {
        #[derive(Deserialize)]
        struct Row {
            parameter: String,
            value: f64,
        }
        let mut rdr = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let mut rows = Vec::new();
        for r in rdr.deserialize::<Row>() {
            rows.push(r.map_err(|e| PerfError::Calibration(e.to_string()))?);
        }
        let get = |name: &str| {
            rows.iter()
                .find(|r| r.parameter == name)
                .map(|r| r.value)
                .ok_or_else(|| PerfError::Calibration(format!("parameter '{name}' missing")))
        };
        Ok(PerfModel {
            flow_iops: get("flow_iops")?,
            flow_iops_block_kib: get("flow_iops_block_kib")?,
            flow_throughput_mibps: get("flow_throughput_mibps")?,
            large_block_kib: get("large_block_kib")?,
        })
    }

    /// Predicts what `layout` achieves for `profile`.
    ///
    /// # Errors
    /// [`PerfError::Invalid`] for zero hosts or datastores, an `nconnect` other than 1 or 4,
    /// a negative or non-finite QoS or volume ceiling, or an invalid profile.
    pub fn predict(&self, layout: &Layout, profile: &IoProfile) -> Result<Prediction, PerfError> {
        profile.validate()?;
        if layout.hosts == 0 {
            return Err(PerfError::Invalid {
                field: "hosts",
                value: "0".into(),
                expected: "at least 1 host",
            });
        }
        if layout.datastores == 0 {
            return Err(PerfError::Invalid {
                field: "datastores",
                value: "0".into(),
                expected: "at least 1 datastore",
            });
        }
        if layout.nconnect != 1 && layout.nconnect != 4 {
            return Err(PerfError::Invalid {
                field: "nconnect",
                value: layout.nconnect.to_string(),
                expected: "1 or 4",
            });
        }
        if !(layout.volume_max_throughput_mibps.is_finite()
            && layout.volume_max_throughput_mibps > 0.0)
        {
            return Err(PerfError::Invalid {
                field: "volume_max_throughput_mibps",
                value: layout.volume_max_throughput_mibps.to_string(),
                expected: "a positive MiB/s",
            });
        }
        if let Some(q) = layout.qos_throughput_mibps
            && !(q.is_finite() && q >= 0.0)
        {
            return Err(PerfError::Invalid {
                field: "qos_throughput_mibps",
                value: q.to_string(),
                expected: "a non-negative MiB/s",
            });
        }
        let bs = profile.block_size_kib;
        let to_iops = |mibps: f64| mibps * 1024.0 / bs;
        let flows = layout.flows() as f64;
        // A flow's IOPS ceiling holds for small blocks; for large blocks its MiB/s ceiling
        // binds first.
        let flow_iops_one = self.flow_iops.min(to_iops(self.flow_throughput_mibps));
        let mut layers = vec![
            LayerCeiling {
                layer: Layer::Flow,
                iops: flows * flow_iops_one,
                throughput_mibps: flows * flow_iops_one * bs / 1024.0,
            },
            LayerCeiling {
                layer: Layer::Volume,
                iops: to_iops(f64::from(layout.datastores) * layout.volume_max_throughput_mibps),
                throughput_mibps: f64::from(layout.datastores) * layout.volume_max_throughput_mibps,
            },
        ];
        if let Some(q) = layout.qos_throughput_mibps {
            layers.push(LayerCeiling {
                layer: Layer::Qos,
                iops: to_iops(q),
                throughput_mibps: q,
            });
        }
        let mut best = layers[0];
        for l in &layers[1..] {
            if l.iops < best.iops {
                best = *l;
            }
        }
        Ok(Prediction {
            iops: best.iops,
            throughput_mibps: best.throughput_mibps,
            bottleneck: best.layer,
            layers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_host_one_datastore_is_one_flow() {
        let m = PerfModel::builtin().unwrap();
        let p = m
            .predict(&Layout::new(1, 1, 4500.0), &IoProfile::small_block())
            .unwrap();
        // 1 flow x 76,000 IOPS (8 KiB: the flow MiB/s cap 2148*1024/8 = 274,944 is higher)
        assert_eq!(p.iops, 76_000.0);
        assert_eq!(p.bottleneck, Layer::Flow);
        let p = m
            .predict(&Layout::new(1, 1, 4500.0), &IoProfile::large_block())
            .unwrap();
        // 64 KiB: 2,148 MiB/s per flow < 4,500 volume ceiling
        assert!((p.throughput_mibps - 2148.0).abs() < 1e-9);
    }

    #[test]
    fn qos_binds_when_lowest() {
        let m = PerfModel::builtin().unwrap();
        let mut l = Layout::new(4, 2, 4500.0);
        l.qos_throughput_mibps = Some(100.0);
        let p = m.predict(&l, &IoProfile::small_block()).unwrap();
        // 100 MiB/s at 8 KiB = 100*1024/8 = 12,800 IOPS
        assert_eq!(p.iops, 12_800.0);
        assert_eq!(p.bottleneck, Layer::Qos);
    }

    #[test]
    fn invalid_inputs_are_errors() {
        let m = PerfModel::builtin().unwrap();
        assert!(
            m.predict(&Layout::new(0, 1, 4500.0), &IoProfile::small_block())
                .is_err()
        );
        let mut bad = IoProfile::small_block();
        bad.read_pct = 101.0;
        assert!(m.predict(&Layout::new(1, 1, 4500.0), &bad).is_err());
    }
}

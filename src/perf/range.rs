//! The range of layouts a system's published measurements cover (its calibration rows in
//! `data/calibration/*.csv`), and whether a prediction lies beyond it.
//!
//! For `anf-avs` the rows of `data/calibration/anf.csv` cover 1..4 hosts, 1..8 datastores
//! on a host and one TCP connection per datastore \[AVS-PERF\]; AVS datastores also support
//! nconnect 4 \[AVS-BENCH\], but no published figure was measured with it.

use serde::{Deserialize, Serialize};

use super::{Layout, PerfModel};

/// The largest hosts, datastores and nconnect among a system's calibration rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredRange {
    /// System profile (`anf-avs`).
    pub system: String,
    /// Most hosts in a measured layout.
    pub max_hosts: u32,
    /// Most datastores on a host in a measured layout.
    pub max_datastores: u32,
    /// Most TCP connections per host per datastore in a measured layout.
    pub max_nconnect: u32,
}

/// Whether a prediction lies beyond the published measurements, and what they cover.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Extrapolation {
    /// True when the layout is beyond the measured range (the prediction extrapolates the
    /// fitted model).
    #[serde(default)]
    pub extrapolated: bool,
    /// The measured range, in words (`anf-avs measured at 1..4 hosts, 1..8 datastores per
    /// host, nconnect 1`).
    #[serde(default)]
    pub measured_range: String,
    /// What lies beyond it (`8 hosts`, `nconnect 4`); empty when within.
    #[serde(default)]
    pub beyond: Vec<String>,
}

impl Extrapolation {
    /// One sentence for reports when the prediction extrapolates (`None` within the
    /// measured range): what lies beyond, and the range.
    pub fn sentence(&self) -> Option<String> {
        self.extrapolated.then(|| {
            format!(
                "extrapolated: {} beyond the published measurements ({})",
                self.beyond.join(", "),
                self.measured_range
            )
        })
    }
}

impl MeasuredRange {
    /// The range in words.
    pub fn describe(&self) -> String {
        format!(
            "{} measured at 1..{} hosts, 1..{} datastores per host, nconnect {}",
            self.system,
            self.max_hosts,
            self.max_datastores,
            if self.max_nconnect == 1 {
                "1".to_string()
            } else {
                format!("1..{}", self.max_nconnect)
            }
        )
    }

    /// Whether `layout` (hosts, datastores, nconnect) lies within this range.
    pub fn check(&self, layout: &Layout) -> Extrapolation {
        let mut beyond = Vec::new();
        if layout.hosts > self.max_hosts {
            beyond.push(format!("{} hosts", layout.hosts));
        }
        if layout.datastores > self.max_datastores {
            beyond.push(format!("{} datastores per host", layout.datastores));
        }
        if layout.nconnect > self.max_nconnect {
            beyond.push(format!("nconnect {}", layout.nconnect));
        }
        Extrapolation {
            extrapolated: !beyond.is_empty(),
            measured_range: self.describe(),
            beyond,
        }
    }
}

impl PerfModel {
    /// The layouts `system`'s calibration rows cover; `None` when it has none (a profile
    /// inherited from another, such as `anf-avs-av64`, or a user profile).
    pub fn measured_range(&self, system: &str) -> Option<MeasuredRange> {
        let name = system.trim().to_ascii_lowercase();
        let rows: Vec<&Layout> = self
            .calibration_rows()
            .iter()
            .filter(|r| r.system == name)
            .map(|r| r.layout())
            .collect();
        if rows.is_empty() {
            return None;
        }
        let max = |f: fn(&Layout) -> u32| rows.iter().map(|l| f(l)).max().unwrap_or(1);
        Some(MeasuredRange {
            system: name,
            max_hosts: max(|l| l.hosts),
            max_datastores: max(|l| l.datastores),
            max_nconnect: max(|l| l.nconnect),
        })
    }

    /// Whether a prediction for `layout` on `system` extrapolates: beyond the system's
    /// measured range, or on a system with no published measurements of its own.
    pub fn extrapolation(&self, system: &str, layout: &Layout) -> Extrapolation {
        match self.measured_range(system) {
            Some(range) => range.check(layout),
            None => Extrapolation {
                extrapolated: true,
                measured_range: format!(
                    "no published measurements of {system}: its parameters come from \
                     another profile's fit"
                ),
                beyond: vec![format!("system {system}")],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anf_avs_was_measured_at_up_to_4_hosts_8_datastores_nconnect_1() {
        // data/calibration/anf.csv, anf-avs rows: hosts 1 or 4, datastores 1, 2, 4 or 8,
        // no nconnect key (1).
        let m = PerfModel::builtin().unwrap();
        let r = m.measured_range("anf-avs").unwrap();
        assert_eq!((r.max_hosts, r.max_datastores, r.max_nconnect), (4, 8, 1));
        let within = r.check(&Layout::new(4, 4, 4500.0));
        assert!(!within.extrapolated && within.beyond.is_empty());
        let mut l = Layout::new(8, 9, 4500.0);
        l.nconnect = 4;
        let out = r.check(&l);
        assert!(out.extrapolated);
        assert_eq!(
            out.beyond,
            ["8 hosts", "9 datastores per host", "nconnect 4"]
        );
        assert!(
            m.extrapolation("anf-avs-av64", &Layout::new(1, 1, 4500.0))
                .extrapolated
        );
    }
}

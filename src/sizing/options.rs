//! [`SizingOptions`]: how the estate's AVS hosts are sized, and their checks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::defaults;

/// Which memory figure of a VM sizes the hosts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MemoryBasis {
    /// The configured memory (vInfo `Memory`).
    #[default]
    Configured,
    /// The memory the VM consumes on its host (vMemory `Consumed`); a VM without that
    /// figure falls back to its configured memory, with one warning for all of them.
    Consumed,
}

impl fmt::Display for MemoryBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemoryBasis::Configured => "configured",
            MemoryBasis::Consumed => "consumed",
        })
    }
}

impl FromStr for MemoryBasis {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "configured" => Ok(MemoryBasis::Configured),
            "consumed" => Ok(MemoryBasis::Consumed),
            _ => Err(SizingError::Invalid {
                option: "memory_basis",
                value: s.to_string(),
                expected: "configured or consumed".into(),
            }),
        }
    }
}

/// How VMs are grouped into AVS clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Grouping {
    /// Each source cluster becomes one or more AVS clusters (VMs without a source cluster
    /// form a group of their own).
    #[default]
    SourceCluster,
    /// All VMs are packed into as few AVS clusters as possible.
    Estate,
}

impl fmt::Display for Grouping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Grouping::SourceCluster => "source-cluster",
            Grouping::Estate => "estate",
        })
    }
}

impl FromStr for Grouping {
    type Err = SizingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "source-cluster" => Ok(Grouping::SourceCluster),
            "estate" => Ok(Grouping::Estate),
            _ => Err(SizingError::Invalid {
                option: "group",
                value: s.to_string(),
                expected: "source-cluster or estate".into(),
            }),
        }
    }
}

/// Errors of the sizing stage.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SizingError {
    /// A setting is out of range or unknown.
    #[error("invalid `{option}`: {value} ({expected})")]
    Invalid {
        /// The setting's library name (`vcpu_per_core` ...).
        option: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// A VM does not fit one host of the SKU (more vCPUs than the host's hardware threads,
    /// or more memory than the host offers VMs).
    #[error("{0}")]
    VmTooLarge(Box<VmTooLarge>),
    /// The host price file cannot be used: not a regular file, too large, empty, or a
    /// malformed row.
    #[error("`host_price_file` {file}: {detail}")]
    PriceFile {
        /// The file.
        file: String,
        /// The 1-based row at fault (header = 1); `None` when the file as a whole is.
        row: Option<usize>,
        /// What is wrong (naming the row, when there is one).
        detail: String,
    },
    /// A compiled-in data file is malformed (a build defect; tests cover it).
    #[error("{file} row {row}: {detail}")]
    Data {
        /// The file (`data/avs_host_prices.csv`).
        file: &'static str,
        /// The 1-based row (header = 1).
        row: usize,
        /// What is wrong.
        detail: String,
    },
    /// Every VM in scope is larger than one host of every candidate SKU.
    #[error("no host SKU fits: {0}")]
    NoHostFits(String),
}

/// A VM that does not fit one host of a SKU, and where it was read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "VM '{}' ({file}, {sheet} row {row}) needs {need}, more than one {sku} host offers \
     ({have})",
    crate::numbers::clip(.vm)
)]
pub struct VmTooLarge {
    /// The VM's name.
    pub vm: String,
    /// Where it was read.
    pub file: String,
    /// Its sheet.
    pub sheet: String,
    /// Its row.
    pub row: usize,
    /// The host SKU.
    pub sku: String,
    /// What the VM needs, in words with units.
    pub need: String,
    /// What one host offers, in words with units.
    pub have: String,
}

/// How the estate's AVS hosts are sized. `Default` gives the command's defaults
/// ([`crate::defaults`]). `#[non_exhaustive]`: outside this crate, built from
/// [`SizingOptions::default`] and its chaining setters
/// (`SizingOptions::default().vcpu_per_core(6.0)`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct SizingOptions {
    /// vCPUs per physical core (CPU oversubscription; > 0; default 4, the Azure Migrate
    /// AVS assessment's stated default, [`crate::defaults::VCPU_PER_CORE`]).
    pub vcpu_per_core: f64,
    /// Which memory figure sizes the hosts (default configured).
    pub memory_basis: MemoryBasis,
    /// Memory overcommit: host memory is counted `memory_overcommit` times (> 0;
    /// default 1, none).
    pub memory_overcommit: f64,
    /// Hosts per AVS cluster kept free for vSphere HA (0..=13; default 1).
    pub ha_hosts: u32,
    /// How VMs are grouped into AVS clusters (default by source cluster).
    pub group: Grouping,
}

impl Default for SizingOptions {
    fn default() -> Self {
        SizingOptions {
            vcpu_per_core: defaults::VCPU_PER_CORE,
            memory_basis: MemoryBasis::Configured,
            memory_overcommit: defaults::MEMORY_OVERCOMMIT,
            ha_hosts: defaults::HA_HOSTS,
            group: Grouping::SourceCluster,
        }
    }
}

impl SizingOptions {
    /// Checks the settings: `vcpu_per_core` and `memory_overcommit` finite and in
    /// 0.1..=100, `ha_hosts` at most `max_hosts_per_cluster - 1` (a cluster must keep one
    /// host for VMs).
    ///
    /// # Errors
    /// [`SizingError::Invalid`] naming the setting.
    pub fn validate(&self, max_hosts_per_cluster: u32) -> Result<(), SizingError> {
        let (low, high) = defaults::MEMORY_OVERCOMMIT_RANGE;
        for (option, v, range) in [
            ("vcpu_per_core", self.vcpu_per_core, (0.1, 100.0)),
            ("memory_overcommit", self.memory_overcommit, (low, high)),
        ] {
            if !(range.0..=range.1).contains(&v) {
                return Err(SizingError::Invalid {
                    option,
                    value: crate::numbers::show_setting(v),
                    expected: format!("a ratio from {} to {}", range.0, range.1),
                });
            }
        }
        if self.ha_hosts >= max_hosts_per_cluster {
            return Err(SizingError::Invalid {
                option: "ha_hosts",
                value: self.ha_hosts.to_string(),
                expected: format!(
                    "from 0 to {} (an AVS cluster has at most {max_hosts_per_cluster} hosts)",
                    max_hosts_per_cluster.saturating_sub(1)
                ),
            });
        }
        Ok(())
    }
}

crate::setters::setters!(SizingOptions {
    vcpu_per_core: is: f64;
    memory_basis: is: MemoryBasis;
    memory_overcommit: is: f64;
    ha_hosts: is: u32;
    group: is: Grouping;
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal.
    #[test]
    fn setters_set_their_own_field() {
        let by_hand = SizingOptions {
            vcpu_per_core: 6.0,
            memory_basis: MemoryBasis::Consumed,
            memory_overcommit: 1.5,
            ha_hosts: 2,
            group: Grouping::Estate,
        };
        let set = SizingOptions::default()
            .vcpu_per_core(6.0)
            .memory_basis(MemoryBasis::Consumed)
            .memory_overcommit(1.5)
            .ha_hosts(2)
            .group(Grouping::Estate);
        assert_eq!(set, by_hand);
        assert_ne!(set, SizingOptions::default());
    }
}

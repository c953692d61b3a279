//! The estate as read from RVTools: virtual machines with their capacity, plus the
//! data-quality warnings found while reading.
//!
//! Units are normalised to MiB (RVTools "MB" columns are binary MiB; RVTools 4.1.2 only
//! renamed the labels). Data a file does not carry is `None` ("unknown"), never zero.

use serde::{Deserialize, Serialize};

/// Power state of a VM as RVTools reports it in the vInfo `Powerstate` column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerState {
    /// `poweredOn`.
    PoweredOn,
    /// `poweredOff`.
    PoweredOff,
    /// `suspended`.
    Suspended,
    /// The column is missing, empty, or holds a value RVTools does not write.
    Unknown,
}

/// Where a record came from: file, sheet (tab) and 1-based row as a spreadsheet shows it
/// (the header is row 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// Path of the input file as given by the user.
    pub file: String,
    /// Sheet name (`vInfo` ...); for a CSV file the tab its name implies, or `vInfo`.
    pub sheet: String,
    /// 1-based row number; the header row is row 1.
    pub row: usize,
}

/// One virtual machine (a vInfo row).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vm {
    /// VM name (`VM` column), trimmed; never empty.
    pub name: String,
    /// `Powerstate` column.
    pub power_state: PowerState,
    /// `Template` column (text `True`/`False` or a boolean cell); `None` when unknown.
    pub template: Option<bool>,
    /// `Cluster` column; `None` when missing or empty.
    pub cluster: Option<String>,
    /// `Host` column; `None` when missing or empty.
    pub host: Option<String>,
    /// `Provisioned MiB` (`Provisioned MB` before RVTools 4.1.2), in MiB; `None` when unknown.
    pub provisioned_mib: Option<f64>,
    /// `In Use MiB` (`In Use MB` before RVTools 4.1.2), in MiB; `None` when unknown.
    pub in_use_mib: Option<f64>,
    /// Where the row was read.
    pub origin: Origin,
}

/// A data-quality problem found while reading: the reader went on, and the plan reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Input file path.
    pub file: String,
    /// Sheet (tab) name, when the problem is inside one.
    pub sheet: Option<String>,
    /// 1-based row (header = 1), when the problem is in a row.
    pub row: Option<usize>,
    /// Column header, when the problem is in a cell.
    pub column: Option<String>,
    /// The offending cell value as text, when there is one.
    pub value: Option<String>,
    /// What is wrong and what the reader did about it.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(sheet) = &self.sheet {
            write!(f, " [{sheet}]")?;
        }
        if let Some(row) = self.row {
            write!(f, " row {row}")?;
        }
        if let Some(column) = &self.column {
            write!(f, " column '{column}'")?;
        }
        if let Some(value) = &self.value {
            write!(f, " value '{value}'")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Everything read from one or more RVTools inputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Inventory {
    /// Input paths in the order given.
    pub inputs: Vec<String>,
    /// Every VM row with a non-empty name, in input order.
    pub vms: Vec<Vm>,
    /// Data-quality warnings, in the order found.
    pub warnings: Vec<Warning>,
}

/// Counts and totals of an [`Inventory`], as `dsplan inventory` prints them.
///
/// Totals sum the known values only; `*_unknown` counts the VMs whose value is missing,
/// so a reader can tell "0 MiB" from "not reported".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InventorySummary {
    /// All VM rows (templates included).
    pub vm_count: usize,
    /// Rows whose `Template` is true.
    pub template_count: usize,
    /// Non-template VMs powered on.
    pub powered_on_count: usize,
    /// Non-template VMs powered off.
    pub powered_off_count: usize,
    /// Non-template VMs suspended.
    pub suspended_count: usize,
    /// Non-template VMs with an unknown power state.
    pub unknown_power_state_count: usize,
    /// Sum of `Provisioned MiB` over all rows (templates included), MiB.
    pub provisioned_mib: f64,
    /// Sum of `In Use MiB` over all rows (templates included), MiB.
    pub in_use_mib: f64,
    /// Rows without a provisioned value.
    pub provisioned_unknown: usize,
    /// Rows without an in-use value.
    pub in_use_unknown: usize,
    /// Distinct non-empty cluster names, sorted.
    pub clusters: Vec<String>,
    /// Distinct non-empty host names (vInfo `Host`), counted.
    pub host_count: usize,
}

impl Inventory {
    /// Counts and totals over every VM row.
    pub fn summary(&self) -> InventorySummary {
        let mut s = InventorySummary {
            vm_count: self.vms.len(),
            template_count: 0,
            powered_on_count: 0,
            powered_off_count: 0,
            suspended_count: 0,
            unknown_power_state_count: 0,
            provisioned_mib: 0.0,
            in_use_mib: 0.0,
            provisioned_unknown: 0,
            in_use_unknown: 0,
            clusters: Vec::new(),
            host_count: 0,
        };
        let mut clusters = std::collections::BTreeSet::new();
        let mut hosts = std::collections::BTreeSet::new();
        for vm in &self.vms {
            if vm.template == Some(true) {
                s.template_count += 1;
            } else {
                match vm.power_state {
                    PowerState::PoweredOn => s.powered_on_count += 1,
                    PowerState::PoweredOff => s.powered_off_count += 1,
                    PowerState::Suspended => s.suspended_count += 1,
                    PowerState::Unknown => s.unknown_power_state_count += 1,
                }
            }
            match vm.provisioned_mib {
                Some(v) => s.provisioned_mib += v,
                None => s.provisioned_unknown += 1,
            }
            match vm.in_use_mib {
                Some(v) => s.in_use_mib += v,
                None => s.in_use_unknown += 1,
            }
            if let Some(c) = &vm.cluster {
                clusters.insert(c.clone());
            }
            if let Some(h) = &vm.host {
                hosts.insert(h.clone());
            }
        }
        s.clusters = clusters.into_iter().collect();
        s.host_count = hosts.len();
        s
    }
}

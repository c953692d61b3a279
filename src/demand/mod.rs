//! From an [`Inventory`] to the [`Demand`] a plan must meet: which VMs are in scope (every
//! other VM is excluded with a reason), the capacity they need after growth and headroom,
//! and the IOPS and MiB/s targets with their I/O profile.
//!
//! ```
//! use dsplan::demand::{DemandOptions, derive};
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let inventory = dsplan::ingest::read_inputs(&[fixture])?;
//! let demand = derive(&inventory, &DemandOptions::default())?;
//! // tmpl-linux is a template: excluded, with its reason; the 7 other VMs are placed.
//! assert_eq!(demand.placed.len(), 7);
//! assert_eq!(demand.excluded.len(), 1);
//! assert_eq!(demand.excluded[0].name, "tmpl-linux");
//! println!("{}: {}", demand.excluded[0].name, demand.excluded[0].reason.describe());
//! // Nothing lost: in use 1,800 GiB placed + the template's 20 GiB = the 1,820 GiB read.
//! assert_eq!(demand.placed_capacity_gib, 1_800.0);
//! assert_eq!(demand.excluded_capacity_gib, 20.0);
//! // Growth, snapshot reserve and headroom come on top of the data.
//! assert!(demand.required_capacity_gib > demand.placed_capacity_gib);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Architecture invariant: nothing is lost. `capacity in = capacity placed + capacity
//! excluded`, and every VM of the inventory is in exactly one of [`Demand::placed`] and
//! [`Demand::excluded`].

use serde::{Deserialize, Serialize};

mod basis;
mod error;
mod options;
mod per_cluster;
mod scope;

pub use error::DemandError;
pub use options::{CapacityBasis, DemandOptions, Scope};
pub use per_cluster::{ClusterDemand, ClusterDemands, split_by_cluster};

use crate::inventory::{Inventory, Origin, Vm, Warning};

/// MiB per GiB.
const MIB_PER_GIB: f64 = 1024.0;

/// Largest capacity one VM can hold, MiB: 256 virtual disks of 62 TiB each = 15,872 TiB
/// (VMware vSphere configuration maximums: 62 TB per virtual disk, 256 disks per VM with
/// four NVMe or PVSCSI controllers). A figure above it is a data error, not a VM.
pub const MAX_VM_CAPACITY_MIB: f64 = 256.0 * 62.0 * 1024.0 * 1024.0;

/// Why a VM is not part of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExclusionReason {
    /// A template is not a running VM.
    Template,
    /// Powered off, and `exclude_powered_off` is set.
    PoweredOff,
    /// Its cluster is not among the `clusters` filters.
    FilteredCluster,
    /// Its vCenter is not among the `vcenters` filters.
    FilteredVcenter,
    /// Its datacenter is not among the `datacenters` filters.
    FilteredDatacenter,
    /// Suspended, and `exclude_suspended` is set.
    Suspended,
    /// Its capacity is above what any VM can hold ([`MAX_VM_CAPACITY_MIB`]): a data error.
    ImplausibleCapacity,
    /// Neither provisioned nor in-use capacity is known.
    NoCapacityData,
    /// A Site Recovery Manager placeholder (`SRM Placeholder` = True): it stands for a VM
    /// protected at another site and holds no data here.
    SrmPlaceholder,
    /// Larger than one AVS host of every candidate SKU (more vCPUs than `2 x cores`, or
    /// more memory than the host offers VMs): the estate plan leaves it out.
    ExceedsAvsHost,
    /// A copy of a VM already read ([`Vm::is_same_vm`]): the same row written twice, or an
    /// input that repeats another; [`ExcludedVm::duplicate_of`] names the row kept. Its
    /// capacity is counted once, with the VM kept.
    Duplicate,
    /// `per_cluster` plans each source cluster, and the VM names no cluster (the vInfo
    /// `Cluster` cell is empty): planned in no cluster.
    NoCluster,
}

impl ExclusionReason {
    /// A short human text.
    pub fn describe(self) -> &'static str {
        match self {
            ExclusionReason::Template => "template",
            ExclusionReason::PoweredOff => "powered off (`exclude_powered_off`)",
            ExclusionReason::FilteredCluster => "cluster not selected (`clusters`)",
            ExclusionReason::FilteredVcenter => "vCenter not selected (`vcenters`)",
            ExclusionReason::FilteredDatacenter => "datacenter not selected (`datacenters`)",
            ExclusionReason::Suspended => "suspended (`exclude_suspended`)",
            ExclusionReason::ImplausibleCapacity => {
                "capacity above 15,872 TiB, more than a VM can hold (data error)"
            }
            ExclusionReason::NoCapacityData => "no capacity data (provisioned and in-use unknown)",
            ExclusionReason::SrmPlaceholder => "SRM placeholder",
            ExclusionReason::ExceedsAvsHost => {
                "larger than any AVS host of the candidate SKUs (vCPUs or memory)"
            }
            ExclusionReason::Duplicate => "duplicate of a VM already read (counted once)",
            ExclusionReason::NoCluster => "no cluster named (`per_cluster`)",
        }
    }
}

/// A VM in the plan's scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmDemand {
    /// VM name.
    pub name: String,
    /// Source cluster, when known, by its label ([`crate::inventory::SourceClusters`]): the
    /// vInfo `Cluster` name, qualified by vCenter (and datacenter) where clusters of
    /// several vCenters (or datacenters) share the name, `Cluster1 (vc-a)`. Stages that
    /// group by source cluster group by this, one group per (vCenter, datacenter, name).
    pub cluster: Option<String>,
    /// Capacity on the chosen basis, GiB (before growth and headroom).
    pub capacity_gib: f64,
    /// Where the VM was read.
    pub origin: Origin,
    /// Peak IOPS of this VM from a per-VM performance file (`perf`), when known.
    #[serde(default)]
    pub iops: Option<f64>,
    /// Peak MiB/s of this VM from a per-VM performance file (`perf`), when known.
    #[serde(default)]
    pub throughput_mibps: Option<f64>,
    /// Virtual CPUs (vInfo `CPUs`), when known.
    #[serde(default)]
    pub vcpus: Option<u64>,
    /// Configured memory (vInfo `Memory`), MiB, when known.
    #[serde(default)]
    pub memory_mib: Option<f64>,
    /// Memory consumed on the host (vMemory `Consumed`), MiB, when known.
    #[serde(default)]
    pub memory_consumed_mib: Option<f64>,
}

/// A VM left out of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExcludedVm {
    /// VM name.
    pub name: String,
    /// Why.
    pub reason: ExclusionReason,
    /// Capacity on the chosen basis, GiB, when known.
    pub capacity_gib: Option<f64>,
    /// Where the VM was read.
    pub origin: Origin,
    /// For a [`ExclusionReason::Duplicate`]: where the VM kept was read, the row this one
    /// repeats.
    #[serde(default)]
    pub duplicate_of: Option<Origin>,
}

impl ExcludedVm {
    /// The reason in words, with the row a duplicate repeats (`duplicate of a VM already
    /// read (counted once): a.csv [vInfo] row 2`).
    pub fn reason_text(&self) -> String {
        match &self.duplicate_of {
            Some(o) => format!(
                "{}: {} [{}] row {}",
                self.reason.describe(),
                o.file,
                o.sheet,
                o.row
            ),
            None => self.reason.describe().to_string(),
        }
    }
}

/// What the plan must provide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Demand {
    /// The options it was derived with.
    pub options: DemandOptions,
    /// VMs in scope, in inventory order.
    pub placed: Vec<VmDemand>,
    /// VMs left out, with reasons, in inventory order.
    pub excluded: Vec<ExcludedVm>,
    /// Sum of the placed VMs' capacity, GiB.
    pub placed_capacity_gib: f64,
    /// Sum of the excluded VMs' known capacity, GiB.
    pub excluded_capacity_gib: f64,
    /// Capacity the datastores must provide:
    /// `placed x (1 + growth/100) x (1 + snapshot reserve/100) x (1 + headroom/100)`, GiB.
    pub required_capacity_gib: f64,
    /// Warnings raised here (basis fall-backs), besides the inventory's.
    pub warnings: Vec<Warning>,
}

/// Derives the demand from an inventory.
///
/// # Errors
/// [`DemandError::Invalid`] for a negative or non-finite growth, headroom or target;
/// [`DemandError::Profile`] for an invalid I/O profile; [`DemandError::UnknownName`] for
/// a cluster, vCenter or datacenter filter that matches no VM; [`DemandError::NoVmRows`]
/// when the inputs hold no VM; [`DemandError::NothingInScope`] when every VM is excluded.
pub fn derive(inventory: &Inventory, options: &DemandOptions) -> Result<Demand, DemandError> {
    let mut filters = scope::check_options(inventory, options)?;
    let sums = basis::DiskSums::of(inventory, options.capacity_basis);
    // Most VMs are placed: one allocation, not a copy per doubling.
    let mut placed = Vec::with_capacity(inventory.vms.len());
    let mut excluded = Vec::new();
    let mut warnings = Vec::new();
    let mut fallbacks = basis::Fallbacks::default();
    for vm in &inventory.vms {
        match classify(vm, options, &filters, &sums, &mut fallbacks, &mut warnings) {
            Classified::Placed(v) => placed.push(v),
            Classified::Excluded(v) => excluded.push(v),
        }
    }
    excluded.extend(inventory.duplicates.iter().map(|d| ExcludedVm {
        name: d.name.clone(),
        reason: ExclusionReason::Duplicate,
        capacity_gib: None,
        origin: d.origin.clone(),
        duplicate_of: Some(d.copy_of.clone()),
    }));
    placed.shrink_to_fit();
    warnings.append(&mut filters.warnings);
    warnings.extend(fallbacks.warnings(options.capacity_basis, inventory));
    warnings.extend(basis::unshared_warning(inventory, options.capacity_basis));
    crate::inventory::bound_warnings(&mut warnings);
    if inventory.vms.is_empty() && excluded.is_empty() {
        return Err(DemandError::NoVmRows {
            inputs: if inventory.inputs.is_empty() {
                "the input".to_string()
            } else {
                inventory.inputs.join(", ")
            },
        });
    }
    if placed.is_empty() {
        return Err(error::nothing_in_scope(
            inventory.vms.len(),
            &excluded,
            &inventory.warnings,
        ));
    }
    Ok(totals(options, placed, excluded, warnings))
}

/// One VM, placed or excluded.
enum Classified {
    /// In scope.
    Placed(VmDemand),
    /// Left out, with its reason.
    Excluded(ExcludedVm),
}

/// Sizes one VM on the capacity basis (with its fall-back and RDM warnings) and places or
/// excludes it.
fn classify(
    vm: &Vm,
    options: &DemandOptions,
    filters: &scope::Filters<'_>,
    sums: &basis::DiskSums<'_>,
    fallbacks: &mut basis::Fallbacks,
    warnings: &mut Vec<Warning>,
) -> Classified {
    let key = vm.key();
    let sized = sums.size(vm, &key, options.capacity_basis, fallbacks);
    warnings.extend(sized.rdm_warning);
    let capacity_mib = sized.capacity_mib;
    let capacity_gib = capacity_mib.map(|m| m / MIB_PER_GIB);
    let reason = filters.exclusion_reason(vm, options, capacity_mib, warnings);
    match (reason, capacity_gib) {
        (None, Some(capacity_gib)) => Classified::Placed(VmDemand {
            name: vm.name.clone(),
            cluster: filters.cluster_label(vm),
            capacity_gib,
            origin: vm.origin.clone(),
            iops: None,
            throughput_mibps: None,
            vcpus: vm.cpus,
            memory_mib: vm.memory_mib,
            memory_consumed_mib: vm.memory_consumed_mib,
        }),
        (reason, capacity_gib) => Classified::Excluded(ExcludedVm {
            name: vm.name.clone(),
            reason: reason.unwrap_or(ExclusionReason::NoCapacityData),
            // A data error's figure is not capacity: it stays unknown.
            capacity_gib: capacity_gib
                .filter(|_| reason != Some(ExclusionReason::ImplausibleCapacity)),
            origin: vm.origin.clone(),
            duplicate_of: None,
        }),
    }
}

/// The demand with its capacity totals: placed, excluded and required (after growth,
/// snapshot reserve and headroom).
fn totals(
    options: &DemandOptions,
    placed: Vec<VmDemand>,
    excluded: Vec<ExcludedVm>,
    warnings: Vec<Warning>,
) -> Demand {
    // Folds start at +0.0 (an empty f64 `sum()` is -0.0).
    let placed_capacity_gib = placed.iter().fold(0.0, |a, v| a + v.capacity_gib);
    let excluded_capacity_gib = excluded
        .iter()
        .filter_map(|v| v.capacity_gib)
        .fold(0.0, |a, c| a + c);
    let required_capacity_gib = placed_capacity_gib
        * (1.0 + options.growth_pct / 100.0)
        * (1.0 + options.snapshot_reserve_pct / 100.0)
        * (1.0 + options.headroom_pct / 100.0);
    Demand {
        options: options.clone(),
        placed,
        excluded,
        placed_capacity_gib,
        excluded_capacity_gib,
        required_capacity_gib,
        warnings,
    }
}

impl Demand {
    /// When no IOPS or MiB/s target is set, makes the targets the sums of the placed VMs'
    /// per-VM figures (from [`Demand::attach_perf`]; peaks added up, which is conservative)
    /// and returns them as `(IOPS, MiB/s)`; `None` when a target was already set.
    pub fn targets_from_perf(&mut self) -> Option<(f64, f64)> {
        if self.options.iops > 0.0 || self.options.throughput_mibps > 0.0 {
            return None;
        }
        // Folds start at +0.0 (an empty f64 `sum()` is -0.0).
        let iops = self
            .placed
            .iter()
            .filter_map(|v| v.iops)
            .fold(0.0, |a, b| a + b);
        let mibps = self
            .placed
            .iter()
            .filter_map(|v| v.throughput_mibps)
            .fold(0.0, |a, b| a + b);
        self.options.iops = iops;
        self.options.throughput_mibps = mibps;
        Some((iops, mibps))
    }

    /// Joins the rows of a per-VM performance file to the placed VMs (by the inventory VM
    /// each row names) and returns how many VMs got figures. A VM named in several rows
    /// keeps the larger IOPS and the larger MiB/s. Rows of excluded or unknown VMs
    /// are left out (the performance reader already warned about unknown names).
    pub fn attach_perf(&mut self, inventory: &Inventory, perf: &crate::ingest::PerfInput) -> usize {
        let mut origin_of = std::collections::BTreeMap::new();
        for vm in &inventory.vms {
            origin_of.insert(vm.key(), vm.origin.clone());
        }
        let mut index = std::collections::BTreeMap::new();
        for (i, vm) in self.placed.iter().enumerate() {
            index.insert(
                (
                    vm.origin.file.clone(),
                    vm.origin.sheet.clone(),
                    vm.origin.row,
                ),
                i,
            );
        }
        let mut joined = 0;
        for row in &perf.rows {
            let Some(origin) = row.vm_key.as_ref().and_then(|k| origin_of.get(k)) else {
                continue;
            };
            let key = (origin.file.clone(), origin.sheet.clone(), origin.row);
            if let Some(&i) = index.get(&key) {
                let vm = &mut self.placed[i];
                if vm.iops.is_none() && vm.throughput_mibps.is_none() {
                    joined += 1;
                }
                // A VM with several rows keeps the larger figure of each (the conservative
                // reading of repeated peaks).
                let larger = |a: Option<f64>, b: Option<f64>| match (a, b) {
                    (Some(x), Some(y)) => Some(x.max(y)),
                    (x, y) => x.or(y),
                };
                vm.iops = larger(row.iops, vm.iops);
                vm.throughput_mibps = larger(row.throughput_mibps, vm.throughput_mibps);
            }
        }
        joined
    }

    /// The demand of the placed VMs at `indices` (into [`Demand::placed`], in that order;
    /// an index out of range is skipped): the same options, no excluded VMs and no warnings
    /// (the estate's demand keeps those), totals recomputed. The caller sets the targets
    /// (`options.iops`, `options.throughput_mibps`). Costs O(`indices`), not O(estate).
    pub fn subset(&self, indices: &[usize]) -> Demand {
        let placed: Vec<VmDemand> = indices
            .iter()
            .filter_map(|&i| self.placed.get(i).cloned())
            .collect();
        self.with_placed(placed)
    }

    /// The demand of `placed` (VMs of this demand, or copies of them): the same options,
    /// no excluded VMs and no warnings, totals recomputed; [`Demand::subset`] of VMs made
    /// elsewhere, without copying them again.
    pub(crate) fn with_placed(&self, placed: Vec<VmDemand>) -> Demand {
        totals(&self.options, placed, Vec::new(), Vec::new())
    }

    /// [`Demand::subset`] with each VM's capacity replaced: the VM at `indices[j]` gets
    /// `capacity_gib[j]` GiB (on the capacity basis, before growth; the estate's hybrid
    /// search plans VMs at their data rounded up to its unit). An index out of range, or
    /// one without a size, is skipped.
    pub fn subset_sized(&self, indices: &[usize], capacity_gib: &[f64]) -> Demand {
        let placed: Vec<VmDemand> = indices
            .iter()
            .zip(capacity_gib)
            .filter_map(|(&i, &gib)| {
                self.placed.get(i).map(|v| VmDemand {
                    capacity_gib: gib,
                    ..v.clone()
                })
            })
            .collect();
        totals(&self.options, placed, Vec::new(), Vec::new())
    }

    /// The demand without the placed VMs at `indices` (into [`Demand::placed`]; an index
    /// out of range is skipped), which are appended to the excluded VMs with `reason`
    /// (their capacity known): the same options and warnings, totals recomputed, so
    /// `placed + excluded` capacity stays the same.
    pub fn exclude_placed(&self, indices: &[usize], reason: ExclusionReason) -> Demand {
        let out: std::collections::BTreeSet<usize> = indices.iter().copied().collect();
        let mut placed = Vec::new();
        let mut excluded = self.excluded.clone();
        for (i, vm) in self.placed.iter().enumerate() {
            if !out.contains(&i) {
                placed.push(vm.clone());
                continue;
            }
            excluded.push(ExcludedVm {
                name: vm.name.clone(),
                reason,
                capacity_gib: Some(vm.capacity_gib),
                origin: vm.origin.clone(),
                duplicate_of: None,
            });
        }
        totals(&self.options, placed, excluded, self.warnings.clone())
    }

    /// The data the datastores hold after growth, before snapshot reserve and headroom:
    /// `placed x (1 + growth/100)`, GiB (the base of the cold share under cool access).
    pub fn data_capacity_gib(&self) -> f64 {
        self.placed_capacity_gib * (1.0 + self.options.growth_pct / 100.0)
    }
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::PowerState;

    fn vm(name: &str, state: PowerState, template: Option<bool>, prov: f64, used: f64) -> Vm {
        let origin = Origin {
            file: "t.xlsx".into(),
            sheet: "vInfo".into(),
            row: 2,
        };
        Vm {
            power_state: state,
            template,
            cluster: Some("c1".into()),
            provisioned_mib: Some(prov),
            in_use_mib: Some(used),
            ..Vm::new(name, origin)
        }
    }

    #[test]
    fn templates_excluded_powered_off_included_by_default() {
        let inv = Inventory {
            inputs: vec![],
            vms: vec![
                vm("a", PowerState::PoweredOn, Some(false), 2048.0, 1024.0),
                vm("b", PowerState::PoweredOff, Some(false), 4096.0, 3072.0),
                vm("t", PowerState::PoweredOff, Some(true), 10240.0, 10240.0),
            ],
            warnings: vec![],
            ..Inventory::default()
        };
        let d = derive(&inv, &DemandOptions::default()).unwrap();
        // in-use: a 1 GiB + b 3 GiB = 4 GiB placed; template 10 GiB excluded
        assert_eq!(d.placed.len(), 2);
        assert_eq!(d.placed_capacity_gib, 4.0);
        assert_eq!(d.excluded_capacity_gib, 10.0);
        // 4 GiB x 1.0 growth x 1.2 headroom = 4.8 GiB
        assert!((d.required_capacity_gib - 4.8).abs() < 1e-12);
        let opts = DemandOptions {
            exclude_powered_off: true,
            capacity_basis: CapacityBasis::Provisioned,
            headroom_pct: 0.0,
            ..DemandOptions::default()
        };
        let d = derive(&inv, &opts).unwrap();
        // provisioned: only a (2 GiB) placed; b (4 GiB) powered off, t (10 GiB) template
        assert_eq!(d.placed_capacity_gib, 2.0);
        assert_eq!(d.excluded_capacity_gib, 14.0);
        assert_eq!(d.excluded[0].reason, ExclusionReason::PoweredOff);
        assert_eq!(d.excluded[1].reason, ExclusionReason::Template);
    }

    #[test]
    fn missing_basis_falls_back_and_unknown_is_excluded() {
        let mut a = vm("a", PowerState::PoweredOn, None, 2048.0, 0.0);
        a.in_use_mib = None;
        let mut b = vm("b", PowerState::Unknown, None, 0.0, 0.0);
        b.in_use_mib = None;
        b.provisioned_mib = None;
        let inv = Inventory {
            inputs: vec![],
            vms: vec![a, b],
            warnings: vec![],
            ..Inventory::default()
        };
        let d = derive(&inv, &DemandOptions::default()).unwrap();
        assert_eq!(d.placed_capacity_gib, 2.0);
        assert_eq!(d.warnings.len(), 1);
        assert_eq!(d.excluded[0].reason, ExclusionReason::NoCapacityData);
    }

    #[test]
    fn snapshot_reserve_adds_to_the_required_capacity() {
        let inv = Inventory {
            inputs: vec![],
            vms: vec![vm("a", PowerState::PoweredOn, Some(false), 2048.0, 1024.0)],
            warnings: vec![],
            ..Inventory::default()
        };
        let opts = DemandOptions {
            growth_pct: 50.0,
            snapshot_reserve_pct: 10.0,
            headroom_pct: 20.0,
            ..DemandOptions::default()
        };
        let d = derive(&inv, &opts).unwrap();
        // 1 GiB in use x 1.5 growth = 1.5 GiB data; x 1.1 snapshots x 1.2 headroom = 1.98 GiB
        assert!((d.data_capacity_gib() - 1.5).abs() < 1e-12);
        assert!((d.required_capacity_gib - 1.98).abs() < 1e-12);
    }

    #[test]
    fn negative_growth_is_an_error() {
        let opts = DemandOptions {
            growth_pct: -1.0,
            ..DemandOptions::default()
        };
        assert!(derive(&Inventory::default(), &opts).is_err());
    }

    #[test]
    fn cluster_filter_is_trimmed_case_insensitive_and_must_match() {
        let mut b = vm("b", PowerState::PoweredOn, Some(false), 4096.0, 2048.0);
        b.cluster = Some("Prod".into());
        let inv = Inventory {
            vms: vec![
                vm("a", PowerState::PoweredOn, Some(false), 2048.0, 1024.0),
                b,
            ],
            ..Inventory::default()
        };
        let opts = |c: &str| DemandOptions {
            clusters: vec![c.into()],
            headroom_pct: 0.0,
            ..DemandOptions::default()
        };
        // " prod " selects Prod: only b (2 GiB in use); a (cluster c1) is filtered.
        let d = derive(&inv, &opts(" prod ")).unwrap();
        assert_eq!(d.placed_capacity_gib, 2.0);
        assert_eq!(d.excluded[0].reason, ExclusionReason::FilteredCluster);
        let e = derive(&inv, &opts("nope")).unwrap_err().to_string();
        assert!(
            e.contains("nope") && e.contains("Prod") && e.contains("c1"),
            "{e}"
        );
    }

    #[test]
    fn inputs_without_vm_rows_are_named() {
        // Two header-only inputs: 0 VMs read, nothing excluded; the error names both.
        let inv = Inventory {
            inputs: vec!["a/vInfo.csv".into(), "b.xlsx".into()],
            ..Inventory::default()
        };
        let e = derive(&inv, &DemandOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no VM to plan: no VM rows in a/vInfo.csv, b.xlsx (no row with a VM name under \
             the header)"
        );
        let none = derive(&Inventory::default(), &DemandOptions::default()).unwrap_err();
        assert_eq!(
            none,
            DemandError::NoVmRows {
                inputs: "the input".into()
            }
        );
    }

    #[test]
    fn nothing_in_scope_is_an_error_naming_the_reasons() {
        let mut srm = vm("s", PowerState::PoweredOff, Some(false), 1024.0, 0.0);
        srm.srm_placeholder = Some(true);
        let inv = Inventory {
            vms: vec![vm("t", PowerState::PoweredOff, Some(true), 1.0, 1.0), srm],
            ..Inventory::default()
        };
        let e = derive(&inv, &DemandOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no VM to plan: 2 VM(s) read, all excluded (1 SRM placeholder, 1 template); the \
             first: 't' at t.xlsx [vInfo] row 2"
        );
        // A warning on the first excluded VM's row is quoted with its column and value.
        let warned = Inventory {
            warnings: vec![Warning {
                kind: crate::inventory::WarningKind::Value,
                file: "t.xlsx".into(),
                sheet: Some("vInfo".into()),
                row: Some(2),
                column: Some("Memory".into()),
                value: Some("8 192".into()),
                message: "not a number".into(),
                more_alike: 0,
            }],
            ..inv
        };
        let e = derive(&warned, &DemandOptions::default()).unwrap_err();
        assert!(
            e.to_string().ends_with(
                "; the first: 't' at t.xlsx [vInfo] row 2, column 'Memory' value '8 192': not \
                 a number"
            ),
            "{e}"
        );
        let e = derive(&Inventory::default(), &DemandOptions::default()).unwrap_err();
        assert!(e.to_string().contains("no VM rows"));
    }

    #[test]
    fn guest_consumed_and_unshared_bases_with_fallback() {
        use crate::inventory::{Partition, VirtualDisk};
        let mut a = vm("a", PowerState::PoweredOn, Some(false), 10_240.0, 8192.0);
        a.unshared_mib = Some(4096.0);
        let b = vm("b", PowerState::PoweredOn, Some(false), 4096.0, 3072.0);
        let origin = a.origin.clone();
        let part = |consumed: f64| Partition {
            vm: "a".into(),
            vm_key: a.key(),
            disk: None,
            disk_key: None,
            capacity_mib: None,
            consumed_mib: Some(consumed),
            free_mib: None,
            origin: origin.clone(),
        };
        let rdm = VirtualDisk {
            vm: "a".into(),
            vm_key: a.key(),
            disk: None,
            disk_key: None,
            capacity_mib: Some(2048.0 * 1024.0),
            raw: Some(true),
            thin: None,
            disk_mode: None,
            path: None,
            datastore: None,
            controller: None,
            origin: origin.clone(),
        };
        let inv = Inventory {
            partitions: vec![part(1024.0), part(2048.0)],
            disks: vec![rdm],
            vms: vec![a, b],
            ..Inventory::default()
        };
        let with = |basis| DemandOptions {
            capacity_basis: basis,
            headroom_pct: 0.0,
            ..DemandOptions::default()
        };
        // guest-consumed: a = 1,024 + 2,048 MiB = 3 GiB; b has no partitions -> its in-use
        // 3,072 MiB = 3 GiB with a warning. Total 6 GiB.
        let d = derive(&inv, &with(CapacityBasis::GuestConsumed)).unwrap();
        assert_eq!(d.placed_capacity_gib, 6.0);
        assert!(d.warnings.iter().any(|w| w.message
            == "1 VM(s) have no guest-consumed capacity; sized by their \
                                       in-use capacity instead: 'b'"));
        // a's 2 TiB RDM is reported, not planned.
        assert!(
            d.warnings
                .iter()
                .any(|w| w.message.contains("2,048.0 GiB of RDM"))
        );
        // unshared: a = 4 GiB; b none -> in-use 3 GiB. Total 7 GiB.
        let d = derive(&inv, &with(CapacityBasis::Unshared)).unwrap();
        assert_eq!(d.placed_capacity_gib, 7.0);
        // a's in use exceeds its unshared by 8,192 - 4,096 MiB = 4 GiB: said in a warning.
        assert!(
            d.warnings.iter().any(|w| w
                .message
                .contains("1 VM(s) use 4.0 GiB more in use than unshared")),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn scope_switches_and_vcenter_datacenter_filters() {
        let mut t = vm("t", PowerState::PoweredOff, Some(true), 1024.0, 1024.0);
        t.vi_sdk_server = Some("vc1".into());
        t.datacenter = Some("DC1".into());
        let mut s = vm("s", PowerState::Suspended, Some(false), 2048.0, 2048.0);
        s.vi_sdk_server = Some("vc2".into());
        s.datacenter = Some("DC2".into());
        let inv = Inventory {
            vms: vec![t, s],
            ..Inventory::default()
        };
        let opts = |scope: Scope| DemandOptions {
            headroom_pct: 0.0,
            scope,
            ..DemandOptions::default()
        };
        // default: template t out, suspended s (2 GiB) in
        let d = derive(&inv, &opts(Scope::default())).unwrap();
        assert_eq!(d.placed_capacity_gib, 2.0);
        // include templates: t (1 GiB) too
        let inc = Scope {
            include_templates: true,
            ..Scope::default()
        };
        assert_eq!(derive(&inv, &opts(inc)).unwrap().placed_capacity_gib, 3.0);
        // include templates, exclude suspended: only t
        let both = Scope {
            include_templates: true,
            exclude_suspended: true,
            ..Scope::default()
        };
        let d = derive(&inv, &opts(both)).unwrap();
        assert_eq!(d.placed_capacity_gib, 1.0);
        assert_eq!(d.excluded[0].reason, ExclusionReason::Suspended);
        // vCenter VC2 (case-insensitive): s only; datacenter dc1 with templates: t only
        let vc = Scope {
            vcenters: vec!["VC2".into()],
            ..Scope::default()
        };
        assert_eq!(derive(&inv, &opts(vc)).unwrap().placed_capacity_gib, 2.0);
        let dc = Scope {
            datacenters: vec!["dc1".into()],
            include_templates: true,
            ..Scope::default()
        };
        let d = derive(&inv, &opts(dc)).unwrap();
        assert_eq!(d.placed_capacity_gib, 1.0);
        assert_eq!(d.excluded[0].reason, ExclusionReason::FilteredDatacenter);
        let bad = Scope {
            datacenters: vec!["DC9".into()],
            ..Scope::default()
        };
        let e = derive(&inv, &opts(bad)).unwrap_err().to_string();
        assert!(
            e.contains("`datacenters` 'DC9'") && e.contains("DC1, DC2"),
            "{e}"
        );
    }

    #[test]
    fn implausible_sizes_are_excluded_with_a_warning() {
        // 1e300 MiB is far above 256 x 62 TiB = 16,642,998,272 MiB.
        let inv = Inventory {
            vms: vec![
                vm("huge", PowerState::PoweredOn, Some(false), 1e300, 1e300),
                vm("ok", PowerState::PoweredOn, Some(false), 1024.0, 1024.0),
            ],
            ..Inventory::default()
        };
        let d = derive(&inv, &DemandOptions::default()).unwrap();
        assert_eq!(d.placed.len(), 1);
        assert_eq!(d.excluded[0].reason, ExclusionReason::ImplausibleCapacity);
        // 1e300 in the compact form, not 301 digits (issue 12 item 11).
        assert_eq!(
            d.warnings[0].message,
            "VM 'huge' reports 1.0e300 MiB, more than any VM can hold: excluded as a data error"
        );
        assert_eq!(d.excluded[0].capacity_gib, None);
        assert_eq!(MAX_VM_CAPACITY_MIB, 16_642_998_272.0);
    }

    #[test]
    fn excluding_placed_vms_keeps_every_gib_accounted() {
        let inv = Inventory {
            inputs: vec![],
            vms: vec![
                vm("a", PowerState::PoweredOn, Some(false), 2048.0, 1024.0),
                vm("b", PowerState::PoweredOn, Some(false), 4096.0, 3072.0),
                vm("c", PowerState::PoweredOn, Some(false), 8192.0, 5120.0),
                vm("t", PowerState::PoweredOff, Some(true), 10240.0, 10240.0),
            ],
            warnings: vec![],
            ..Inventory::default()
        };
        let d = derive(&inv, &DemandOptions::default()).unwrap();
        // in-use: a 1 + b 3 + c 5 = 9 GiB placed, template 10 GiB excluded. Excluding b:
        // placed a 1 + c 5 = 6 GiB; excluded 10 + 3 = 13 GiB; 6 + 13 = 19 = 9 + 10.
        let r = d.exclude_placed(&[1, 7], ExclusionReason::ExceedsAvsHost);
        let names: Vec<&str> = r.placed.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(r.placed_capacity_gib, 6.0);
        assert_eq!(r.excluded_capacity_gib, 13.0);
        assert_eq!(r.excluded[1].name, "b");
        assert_eq!(r.excluded[1].reason, ExclusionReason::ExceedsAvsHost);
        // Required = placed x (growth, snapshot reserve and headroom factors): 6/9 of the
        // estate's.
        assert!((r.required_capacity_gib - d.required_capacity_gib * 6.0 / 9.0).abs() < 1e-9);
    }
}

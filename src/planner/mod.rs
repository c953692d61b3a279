//! [`Planner`]: the library's front door. It runs the stages for a caller (ingest ->
//! demand -> optimize -> vSAN comparison) and returns the same [`Plan`] the `dsplan plan`
//! command prints.
//!
//! ```
//! use dsplan::{PlanOptions, Planner};
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let plan = Planner::new()
//!     .input(fixture)
//!     .options(
//!         PlanOptions::default()
//!             .hosts(3)
//!             .iops(20_000.0)
//!             .throughput_mibps(500.0),
//!     )
//!     .plan()?;
//! assert_eq!(plan.hosts, 3);
//! assert!(plan.totals.cost_usd_per_month > 0.0);
//! # Ok::<(), dsplan::Error>(())
//! ```

mod live_optics;
mod options;
mod planned;
mod setters;
mod unknowns;

pub use options::PlanOptions;
pub use planned::Planned;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::demand::{self, Demand};
use crate::error::Error;
use crate::ingest::{self, PerfInput, ReadLimits};
use crate::inventory::{Inventory, Warning, WarningKind};
use crate::optimize;
use live_optics::{HeldInput, PEAKS_ADDED, live_optics_perf};

use crate::optimize::EstateOptions;
use crate::perf::PerfModel;
use crate::plan::{ClusterPlans, EstatePlan, Plan};
use crate::sizing::{HostPrices, HostTerm};
use crate::vsan::{self, ListPrice, VsanCatalog};

impl PlanOptions {
    /// These options, once every setting that needs no input is checked: what
    /// [`Planner::check`] checks (ranges, percentages, targets, the I/O profile, hosts,
    /// datastores, peak months, the vSAN comparison's settings, the price file and the
    /// region), so options built from setters are refused where they are built, naming
    /// the setting at fault.
    ///
    /// ```
    /// use dsplan::{ErrorKind, PlanOptions};
    ///
    /// let options = PlanOptions::default().hosts(4).iops(20_000.0).checked()?;
    /// assert_eq!(options.hosts, Some(4));
    /// // An AVS cluster has 3 to 16 hosts.
    /// let err = PlanOptions::default().hosts(99).checked().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Usage);
    /// assert!(err.to_string().contains("`hosts`"), "{err}");
    /// # Ok::<(), dsplan::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Planner::check`].
    pub fn checked(self) -> Result<PlanOptions, Error> {
        let mut planner = Planner::new();
        planner.options(self);
        planner.check()?;
        Ok(planner.options)
    }
}

/// Plans ANF datastores from RVTools exports (or an [`Inventory`] already read) with
/// [`PlanOptions`]. Setters take `&mut self` and return it, so calls chain.
#[derive(Debug, Clone, Default)]
pub struct Planner {
    inputs: Vec<PathBuf>,
    held: Vec<HeldInput>,
    read_limits: ReadLimits,
    inventory: Option<Arc<Inventory>>,
    perf: Option<PerfInput>,
    catalog: Option<Catalog>,
    options: PlanOptions,
    host_price_text: Option<(String, String)>,
    stop: optimize::Stop,
}

impl Planner {
    /// A planner with no input and the command's default options.
    pub fn new() -> Planner {
        Planner::default()
    }

    /// Adds an input: an RVTools `.xlsx`, a folder of `RVTools_tab*.csv` files, a vInfo CSV
    /// or a Live Optics `.xlsx` (whose `VM Performance` sheet is the per-VM performance
    /// input when neither [`Planner::perf_input`] nor [`PlanOptions::perf`] is given, by
    /// [`PlanOptions::perf_basis`]). Several inputs are merged ([`ingest::read_inputs`]).
    pub fn input(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds an input held in memory (an upload, a blob from a store): `name` (its file
    /// name; the extension says the format, as [`ingest::read_input_bytes`] reads it) and
    /// its bytes, read through the same code as a file, within [`Planner::read_limits`].
    /// A Live Optics workbook's `VM Performance` sheet is read from the same bytes: no
    /// file of that name is opened. Inputs given with [`Planner::input`] are read first,
    /// then these, in order, and merged.
    ///
    /// ```
    /// use dsplan::Planner;
    ///
    /// let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    /// let bytes = std::fs::read(fixture)?;
    /// // The name need not exist on the disk: only its extension is read.
    /// let estate = Planner::new()
    ///     .input_bytes("customer-upload.xlsx", bytes)
    ///     .plan_estate()?;
    /// assert_eq!(estate.summary.vms_placed, 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn input_bytes(
        &mut self,
        name: impl Into<String>,
        bytes: impl Into<Arc<[u8]>>,
    ) -> &mut Self {
        self.held.push(HeldInput {
            name: name.into(),
            bytes: bytes.into(),
        });
        self
    }

    /// Bounds on what reading each input may keep: the VMs of one input (default
    /// [`ingest::MAX_VMS_PER_INPUT`]; raise [`ReadLimits::max_vms`] to read a larger
    /// input) and the rows of one tab (a service's uploads: the rows of the inputs of
    /// [`Planner::input_bytes`] count, less the VMs of those before; default unbounded).
    ///
    /// ```
    /// use dsplan::Planner;
    /// use dsplan::ingest::ReadLimits;
    ///
    /// let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    /// // The fixture's 8 VMs are more than a cap of 5: the read ends with the cap named.
    /// let error = Planner::new()
    ///     .input(fixture)
    ///     .read_limits(ReadLimits::default().max_vms(5))
    ///     .plan_estate()
    ///     .unwrap_err();
    /// assert!(error.to_string().contains("more than 5 VMs"), "{error}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_limits(&mut self, limits: ReadLimits) -> &mut Self {
        self.read_limits = limits;
        self
    }

    /// Plans this inventory instead of reading the inputs.
    pub fn inventory(&mut self, inventory: Inventory) -> &mut Self {
        self.inventory = Some(Arc::new(inventory));
        self
    }

    /// Plans this inventory, shared rather than copied: a program that plans one inventory
    /// many times (the web page re-plans an upload at each change of a field) keeps it in
    /// an [`Arc`] and hands each planner a reference to it.
    pub fn shared_inventory(&mut self, inventory: Arc<Inventory>) -> &mut Self {
        self.inventory = Some(inventory);
        self
    }

    /// Uses these per-VM performance figures instead of reading [`PlanOptions::perf`].
    pub fn perf_input(&mut self, perf: PerfInput) -> &mut Self {
        self.perf = Some(perf);
        self
    }

    /// Uses this catalog (service levels, limits, prices) instead of the built-in one or
    /// [`PlanOptions::price_file`].
    pub fn catalog(&mut self, catalog: Catalog) -> &mut Self {
        self.catalog = Some(catalog);
        self
    }

    /// Adds host prices given as the text of a host price file (its columns
    /// `sku,term,usd_per_hour,region,source`), named `file` in errors: they replace the
    /// built-in rows of the same SKU and term as [`PlanOptions::host_price_file`]'s do, and
    /// after them (the web page's typed prices; the estate plan only).
    pub fn host_price_text(&mut self, file: &str, text: &str) -> &mut Self {
        self.host_price_text = Some((file.to_string(), text.to_string()));
        self
    }

    /// Stops the plan once `stopped` answers `true`: it is asked between host SKUs,
    /// clusters and service levels, and the plan ends with an error of kind [`crate::ErrorKind::Stopped`] (a
    /// service stops the plan its user no longer waits for). The default never stops.
    ///
    /// ```
    /// use dsplan::{ErrorKind, Planner};
    ///
    /// let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    /// // Asked before the first cluster is planned: nothing is planned.
    /// let err = Planner::new().input(fixture).stop_when(|| true).plan_estate().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Stopped);
    /// ```
    pub fn stop_when(&mut self, stopped: impl Fn() -> bool + Send + Sync + 'static) -> &mut Self {
        self.stop = optimize::Stop::when(stopped);
        self
    }

    /// Replaces every option.
    pub fn options(&mut self, options: PlanOptions) -> &mut Self {
        self.options = options;
        self
    }

    /// The options, to change one in place.
    pub fn options_mut(&mut self) -> &mut PlanOptions {
        &mut self.options
    }

    /// Checks every setting that can be checked before the inputs are read (ranges,
    /// percentages, targets, the I/O profile, hosts, datastores, peak months, the vSAN
    /// comparison's settings), the price file and the region. Cheap; [`Planner::run`]
    /// checks them again. The filters (`clusters`, `vcenters`, `datacenters`) and the
    /// per-VM performance file need the inventory and are checked when planning.
    ///
    /// # Errors
    /// [`Error::Invalid`], [`Error::Demand`], [`Error::Optimize`] or [`Error::Vsan`] naming
    /// the setting; [`Error::Catalog`] for a bad price file or unknown region.
    pub fn check(&self) -> Result<(), Error> {
        self.checked_catalogs().map(|_| ())
    }

    /// Plans everything in scope as one plan (whatever [`PlanOptions::per_cluster`] says).
    ///
    /// # Errors
    /// Any stage's error; see [`Error::kind`].
    pub fn plan(&self) -> Result<Plan, Error> {
        let prepared = self.prepare()?;
        let mut plan = optimize::optimize(
            &prepared.demand,
            &prepared.catalog,
            &prepared.model,
            &self.optimize_options(),
        )?;
        let list_price = self.vsan_list_price(&prepared)?;
        self.add_vsan_comparison(&mut plan, &prepared, &list_price)?;
        plan.warnings.extend(self.options.unused_estate_settings());
        Ok(plan)
    }

    /// Plans each source cluster on its own (whatever [`PlanOptions::per_cluster`] says).
    ///
    /// # Errors
    /// Any stage's error; see [`Error::kind`].
    pub fn plan_per_cluster(&self) -> Result<ClusterPlans, Error> {
        let prepared = self.prepare()?;
        let split = demand::split_by_cluster(
            &prepared.inventory,
            &self.options.demand_options(),
            prepared.perf.as_ref(),
        )?;
        let mut plans = optimize::optimize_per_cluster(
            &split,
            &prepared.catalog,
            &prepared.model,
            &self.optimize_options(),
            self.options.hosts,
        )?;
        let list_price = self.vsan_list_price(&prepared)?;
        for cluster in &mut plans.clusters {
            self.add_vsan_comparison(&mut cluster.plan, &prepared, &list_price)?;
        }
        // The estate's input and demand warnings (each cluster's plan carries only its
        // own), ahead of the warnings about the clusters' pools together.
        let mut warnings = prepared.demand.warnings;
        warnings.append(&mut plans.total.warnings);
        warnings.extend(self.options.unused_estate_settings());
        plans.total.warnings = warnings;
        Ok(plans)
    }

    /// Plans the whole estate: AVS hosts sized from the VMs' vCPUs and memory on each host
    /// SKU (or [`PlanOptions::host_sku`]), clusters and private clouds, each cluster's
    /// datastores, pools shared across clusters, and the cost against vSAN alone; the SKU
    /// with the lowest total is chosen (whatever [`PlanOptions::hosts`] and
    /// [`PlanOptions::per_cluster`] say).
    ///
    /// # Errors
    /// Any stage's error; see [`Error::kind`].
    pub fn plan_estate(&self) -> Result<EstatePlan, Error> {
        let prepared = self.prepare()?;
        let o = &self.options;
        let vsan_catalog = match prepared.vsan.clone() {
            Some(v) => v,
            None => VsanCatalog::builtin()?,
        };
        let region = &prepared.catalog.region(&o.region)?.region;
        let mut host_prices =
            HostPrices::builtin(region, &vsan_catalog).map_err(optimize::OptimizeError::from)?;
        if let Some(path) = &o.host_price_file {
            host_prices = host_prices
                .with_file(path, &vsan_catalog)
                .map_err(optimize::OptimizeError::from)?;
        }
        if let Some((file, text)) = &self.host_price_text {
            host_prices = host_prices
                .with_text(text, file, &vsan_catalog)
                .map_err(optimize::OptimizeError::from)?;
        }
        let estate = EstateOptions {
            sizing: o.sizing_options(),
            host_sku: o.host_sku.as_ref().map(|s| s.to_string()),
            host_term: o.host_term,
            host_prices,
            vsan: o.vsan_comparison.then(|| o.vsan_options()),
            targets_from_perf: prepared.perf.is_some()
                && o.iops == 0.0
                && o.throughput_mibps == 0.0,
            design: o.design,
            existing_er_gateways: o.existing_er_gateways,
        };
        let mut plan = optimize::optimize_estate(
            &prepared.demand,
            &prepared.catalog,
            &vsan_catalog,
            &prepared.model,
            &self.optimize_options(),
            &estate,
        )?;
        // The estate's input and demand warnings first.
        let mut warnings = prepared.demand.warnings;
        warnings.append(&mut plan.warnings);
        warnings.extend(o.unused_vsan_settings());
        plan.warnings = warnings;
        Ok(plan)
    }

    /// With [`PlanOptions::per_cluster`], [`Planner::plan_per_cluster`]; with
    /// [`PlanOptions::hosts`], [`Planner::plan`] (one cluster of that many hosts); else
    /// [`Planner::plan_estate`].
    ///
    /// # Errors
    /// Any stage's error; see [`Error::kind`].
    pub fn run(&self) -> Result<Planned, Error> {
        if self.options.per_cluster {
            Ok(Planned::PerCluster(Box::new(self.plan_per_cluster()?)))
        } else if self.options.hosts.is_some() {
            Ok(Planned::Single(Box::new(self.plan()?)))
        } else {
            Ok(Planned::Estate(Box::new(self.plan_estate()?)))
        }
    }

    /// The optimizer's options, with this planner's stop.
    fn optimize_options(&self) -> optimize::OptimizeOptions {
        optimize::OptimizeOptions {
            stop: self.stop.clone(),
            ..self.options.optimize_options()
        }
    }

    /// The catalog to plan with (and the vSAN one when the comparison is asked for), after
    /// checking every setting that needs no inventory: the planner's own, each stage's, and
    /// that the catalog prices the region.
    fn checked_catalogs(&self) -> Result<(Catalog, Option<VsanCatalog>), Error> {
        let o = &self.options;
        o.validate()?;
        o.demand_options().validate()?;
        let catalog = match (&self.catalog, &o.price_file) {
            (Some(catalog), _) => catalog.clone(),
            (None, Some(path)) => Catalog::with_price_file(path)?,
            (None, None) => Catalog::builtin()?,
        };
        let mut optimize = o.optimize_options();
        optimize.region = catalog.region(&o.region)?.region.clone();
        optimize.validate(&catalog.limits)?;
        if let Some(peak) = &optimize.peak {
            peak.validate(optimize.reservation)?;
        }
        let vsan = if o.vsan_comparison {
            let vsan = VsanCatalog::builtin()?;
            o.vsan_options().validate(&vsan)?;
            Some(vsan)
        } else {
            None
        };
        self.check_sizing(vsan.as_ref())?;
        Ok((catalog, vsan))
    }

    /// The estate sizing's settings: ranges, `host_sku`, the host price file.
    fn check_sizing(&self, vsan: Option<&VsanCatalog>) -> Result<(), Error> {
        let o = &self.options;
        let hosts = match vsan {
            Some(v) => Cow::Borrowed(v),
            None => Cow::Owned(VsanCatalog::builtin()?),
        };
        let sizing = |e: crate::sizing::SizingError| Error::from(optimize::OptimizeError::from(e));
        o.sizing_options()
            .validate(hosts.limits.max_hosts_per_cluster)
            .map_err(sizing)?;
        if let Some(sku) = &o.host_sku {
            crate::sizing::find_sku(&hosts, sku).map_err(sizing)?;
        }
        if let Some(path) = &o.host_price_file {
            HostPrices::default()
                .with_file(path, &hosts)
                .map_err(sizing)?;
        }
        if let Some((file, text)) = &self.host_price_text {
            HostPrices::default()
                .with_text(text, file, &hosts)
                .map_err(sizing)?;
        }
        Ok(())
    }

    /// The inputs read and merged: the files, then the inputs held in memory.
    fn read(&self) -> Result<Inventory, Error> {
        let held: Vec<(&str, &[u8])> = self
            .held
            .iter()
            .map(|h| (h.name.as_str(), &*h.bytes))
            .collect();
        Ok(ingest::read_paths_and_bytes(
            &self.inputs,
            &held,
            self.read_limits,
        )?)
    }

    /// Everything before the optimizer: checked options, catalog, model, inventory, the
    /// estate's demand with every warning, and the per-VM performance figures joined.
    fn prepare(&self) -> Result<Prepared<'_>, Error> {
        let (catalog, vsan) = self.checked_catalogs()?;
        let model = PerfModel::builtin()?;
        let inventory = match &self.inventory {
            Some(inventory) => Cow::Borrowed(&**inventory),
            None => Cow::Owned(self.read()?),
        };
        let mut demand = demand::derive(&inventory, &self.options.demand_options())?;
        let mut warnings = inventory.warnings.clone();
        warnings.extend(unknowns::unknown_attribute_warnings(
            &inventory,
            &self.options,
        ));
        warnings.append(&mut demand.warnings);
        demand.warnings = warnings;
        let (perf, figures) = match (&self.perf, &self.options.perf) {
            (Some(perf), _) => (Some(perf.clone()), PEAKS_ADDED),
            (None, Some(path)) => (Some(ingest::read_perf_csv(path, &inventory)?), PEAKS_ADDED),
            (None, None) => live_optics_perf(
                &inventory,
                self.options.perf_basis,
                &self.held,
                &mut demand.warnings,
            )?,
        };
        if let Some(perf) = &perf {
            join_perf(&mut demand, &inventory, perf, figures);
        }
        Ok(Prepared {
            catalog,
            vsan,
            model,
            inventory,
            demand,
            perf,
        })
    }

    /// The vSAN comparison host's pay-as-you-go list price in the plan's region (one
    /// cluster's and per-cluster plans: `host_term` and `host_price_file` are the estate's);
    /// unknown when the comparison is not asked for.
    fn vsan_list_price(&self, prepared: &Prepared) -> Result<ListPrice, Error> {
        let Some(vsan_catalog) = &prepared.vsan else {
            return Ok(ListPrice::Unknown(String::new()));
        };
        let region = &prepared.catalog.region(&self.options.region)?.region;
        let prices =
            HostPrices::builtin(region, vsan_catalog).map_err(optimize::OptimizeError::from)?;
        let sku = self.options.vsan_host.trim().to_ascii_lowercase();
        Ok(match prices.price(&sku, HostTerm::PayAsYouGo) {
            Some(p) => ListPrice::Known {
                usd_per_hour: p.usd_per_hour,
                source: prices.describe(&sku, HostTerm::PayAsYouGo),
            },
            None => ListPrice::Unknown(prices.missing_for(&sku, HostTerm::PayAsYouGo)),
        })
    }

    /// Sets `plan.vsan_comparison` when asked for (`prepared.vsan` is then loaded): the
    /// placed data after growth and snapshot reserve, on vSAN hosts beyond the plan's, at
    /// `list_price` unless `vsan_host_usd_per_hour` is given.
    fn add_vsan_comparison(
        &self,
        plan: &mut Plan,
        prepared: &Prepared,
        list_price: &ListPrice,
    ) -> Result<(), Error> {
        let Some(vsan_catalog) = &prepared.vsan else {
            return Ok(());
        };
        let o = &self.options;
        let data_factor = (1.0 + o.growth_pct / 100.0) * (1.0 + o.snapshot_reserve_pct / 100.0);
        plan.vsan_comparison = Some(vsan::compare(
            vsan_catalog,
            plan.totals.placed_capacity_gib * data_factor,
            plan.hosts,
            plan.totals.cost_usd_per_month,
            prepared.catalog.limits.hours_per_month,
            &o.vsan_options(),
            list_price,
        )?);
        plan.assumptions.extend(vsan_assumptions(&o.vsan_options()));
        Ok(())
    }
}

/// The stages' results before the optimizer runs.
struct Prepared<'a> {
    catalog: Catalog,
    /// The vSAN catalog, when the comparison is asked for.
    vsan: Option<VsanCatalog>,
    model: PerfModel,
    inventory: Cow<'a, Inventory>,
    demand: Demand,
    perf: Option<PerfInput>,
}

/// Joins per-VM figures to the demand; without estate targets the targets become their
/// sums, and a warning says so (`figures`: how the figures add up).
fn join_perf(demand: &mut Demand, inventory: &Inventory, perf: &PerfInput, figures: &str) {
    demand.warnings.extend(perf.warnings.iter().cloned());
    let joined = demand.attach_perf(inventory, perf);
    if joined == 0 {
        demand.warnings.push(unmatched_perf_warning(perf));
    }
    if let Some((iops, mibps)) = demand.targets_from_perf() {
        demand.warnings.push(Warning {
            kind: WarningKind::Performance,
            file: perf.file.clone(),
            sheet: None,
            row: None,
            column: None,
            value: None,
            message: format!(
                "targets from the per-VM performance figures (of this file): the sums over \
                 {}, {} IOPS and {} MiB/s ({figures})",
                crate::numbers::counted(joined as u64, "VM"),
                crate::numbers::group_thousands(iops, 0),
                crate::numbers::group_thousands(mibps, 0)
            ),
            more_alike: 0,
        });
    }
    demand.warnings.extend(profile_warning(perf));
}

/// The warning for a per-VM performance file none of whose rows gives a planned VM figures
/// (names not in the inventory, a header only, only excluded VMs or templates): its row count
/// and first names, so an empty target is not blamed on a missing `perf`.
fn unmatched_perf_warning(perf: &PerfInput) -> Warning {
    // The rows kept (they name VMs, none planned) and those dropped as naming none.
    let total = perf.rows.len() + perf.rows_not_joined;
    let names = crate::numbers::first_few(
        perf.rows
            .iter()
            .map(|r| crate::numbers::clip(&r.vm))
            .chain(perf.first_not_joined.iter().cloned())
            .map(|name| format!("'{name}'")),
        total,
    );
    let rows = crate::numbers::group_thousands(total as f64, 0);
    Warning {
        file: perf.file.clone(),
        ..Warning::plan_wide(
            WarningKind::Performance,
            if total == 0 {
                "`perf` has no data rows: no VM gets per-VM figures".to_string()
            } else {
                format!(
                    "`perf` matched no planned VM: none of its {rows} row(s) names a VM in the plan \
                     ({names}); no VM gets per-VM figures"
                )
            },
        )
    }
}

/// A warning when `perf` gives VMs their own `read_pct` or `block_kib`: they are read, but
/// every VM is modelled at the plan's `io_profile`, which the Demand line shows.
fn profile_warning(perf: &PerfInput) -> Option<Warning> {
    let own = perf
        .rows
        .iter()
        .filter(|r| r.read_pct.is_some() || r.block_kib.is_some())
        .count();
    (own > 0).then(|| Warning {
        file: perf.file.clone(),
        ..Warning::plan_wide(
            WarningKind::Performance,
            format!(
                "{} VM row(s) give their own read_pct or block_kib: the plan models every VM at \
                 the IOPS target's I/O profile (`io_profile`, shown in Demand), so these per-VM \
                 figures are not used",
                crate::numbers::group_thousands(own as f64, 0)
            ),
        )
    })
}

/// The vSAN comparison's policy and dedup ratio, with their sources, as assumption rows.
fn vsan_assumptions(o: &vsan::VsanOptions) -> Vec<crate::plan::Assumption> {
    o.assumption_rows()
        .into_iter()
        .map(|(name, value, note)| crate::plan::Assumption {
            name: name.into(),
            value,
            note,
        })
        .collect()
}

//! # dsplan
//!
//! Plans an Azure VMware Solution (AVS) estate on Azure NetApp Files (ANF) NFS datastores
//! from an RVTools (or Live Optics) export: how many AVS hosts of which SKU in how many
//! clusters and private clouds the VMs' vCPUs and memory need, and per cluster how many
//! datastores, of what size, on which service level, for the lowest monthly cost that meets
//! the capacity, IOPS and MiB/s targets, verified against a performance model of flows,
//! hosts, volumes, service levels and the cool tier, and compared with the same estate on
//! vSAN alone.
//!
//! ## From an export to a plan
//!
//! [`Planner`] is the front door: give it one or more RVTools inputs (an `.xlsx`, a folder
//! of `RVTools_tab*.csv` files or a vInfo CSV) or Live Optics workbooks and [`PlanOptions`], and it returns the
//! [`plan::Plan`] the `dsplan plan` command prints. `PlanOptions::default()` holds the
//! command's defaults ([`defaults`]). Inputs are paths ([`Planner::input`]) or bytes held
//! in memory, an upload's ([`Planner::input_bytes`], bounded by [`Planner::read_limits`]),
//! read through the same code.
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
//!
//! // 7 VMs in scope (a template is left out, with its reason), one pool.
//! assert_eq!(plan.totals.vms_placed, 7);
//! assert_eq!(plan.excluded.len(), 1);
//! let pool = &plan.pools[0];
//! println!(
//!     "{} datastore(s) on {} ({} TiB): {:.2} USD/month",
//!     plan.totals.datastores, pool.service_level, pool.size_tib, plan.totals.cost_usd_per_month
//! );
//! // The plan meets its targets when the model re-evaluates it.
//! assert!(plan.performance.small_block.iops >= 20_000.0);
//! assert!(plan.performance.large_block.throughput_mibps >= 500.0);
//! // Render it as the command does.
//! let json = dsplan::report::render_plan(&plan, dsplan::report::Format::Json)?;
//! assert!(json.contains("\"schema_version\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Without a host count, [`Planner::plan_estate`] sizes the whole estate (what `dsplan plan`
//! prints without `--hosts`):
//!
//! ```
//! use dsplan::{PlanOptions, Planner};
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let estate = Planner::new()
//!     .input(fixture)
//!     .options(PlanOptions::default().iops(20_000.0))
//!     .plan_estate()?;
//! // Two source clusters (Dev, Prod), each a 3-host AVS cluster (the minimum; its VMs need
//! // one host for vCPU and memory, plus one for vSphere HA).
//! assert_eq!(estate.sizing.clusters.len(), 2);
//! assert!(estate.sizing.clusters.iter().all(|c| c.hosts == 3));
//! // Hosts and storage priced, against the same estate on vSAN alone.
//! let m = &estate.summary;
//! println!("{} {} hosts: {:?} USD/month", m.hosts, m.sku, m.total_usd_per_month);
//! assert!(m.vsan_alone_hosts.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every failure is an [`Error`] whose [`Error::kind`] says whether the input, a setting or
//! the targets are at fault, or dsplan itself; [`ErrorKind::exit_code`] is the exit code
//! the `dsplan` command gives it.
//!
//! Every plan carries its warnings ([`inventory::Warning`]): what was wrong with the input
//! or is worth knowing about the plan, each with where it was found and its cause,
//! [`Warning::kind`](inventory::Warning::kind) ([`inventory::WarningKind`]: `layout`,
//! `value`, `identity`, `performance`, `price`, `setting`, `azure`, `estate`, `bound`,
//! `plan`), so a program can keep the ones it acts on without reading their sentences:
//!
//! ```
//! use dsplan::prelude::*;
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! let estate = Planner::new().input(fixture).plan_estate()?;
//! // The fixture's VM db-01 has RDM disks, which AVS does not have: a warning about the
//! // source estate, to act on before moving.
//! let estate_notes: Vec<&Warning> = estate
//!     .warnings
//!     .iter()
//!     .filter(|w| w.kind() == WarningKind::Estate)
//!     .collect();
//! assert!(estate_notes.iter().any(|w| w.message.contains("RDM")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`prelude`] brings in the few types a program needs: the planner, its options and
//! answers, the error, the warnings and their kind, and the settings' enums (each parsed
//! from its command-line spelling with `str::parse` and shown with `Display`).
//!
//! ## Features
//!
//! | feature  | adds | pulls in |
//! |----------|------|----------|
//! | `charts` | `report::charts` (SVG charts), `Planned::charts` | plotters |
//! | `xlsx`   | `report::xlsx` (the workbook; implies `charts`, whose palette its charts share) | rust_xlsxwriter |
//! | `web`    | `web` (`dsplan serve`; implies `xlsx`, `charts`) | axum, tokio |
//! | `cli`    | the `dsplan` binary (implies `web`, `xlsx`, `charts`) | clap, indicatif |
//! | `schema` | `report::schema`'s generators (the JSON Schemas) and the types' `JsonSchema` impls | schemars |
//!
//! All five are default features. With `default-features = false` the library keeps every
//! stage and the text, JSON, CSV, Markdown and HTML reports (the HTML without charts), on
//! serde, serde_json, csv, calamine, zip, flate2, encoding_rs, good_lp, thiserror and
//! unicode-width:
//!
//! ```toml
//! [dependencies]
//! dsplan = { version = "0.1", default-features = false }
//! ```
//!
//! ## The stages
//!
//! Data flows one way, and a module uses only those before it:
//! [`ingest`] (RVTools files) -> [`inventory::Inventory`] -> [`demand`] (scope, capacity,
//! targets) -> [`sizing`] (AVS hosts, clusters, private clouds) -> [`optimize`] (good_lp
//! MILPs over the [`catalog`] and the [`perf`] model) -> [`plan::Plan`] and
//! [`plan::EstatePlan`] (with the [`vsan`] comparison) -> [`report`] (text, JSON, CSV, Markdown,
//! HTML, and with its feature the workbook). Each stage is public for callers who need one
//! step alone, and each module's documentation opens with an example.
#![deny(missing_docs)]

pub mod catalog;
pub mod defaults;
pub mod demand;
mod error;
pub mod ingest;
pub mod inventory;
pub mod numbers;
pub mod optimize;
pub mod perf;
pub mod plan;
mod planner;
pub mod prelude;
pub mod report;
mod setters;
pub mod settings;
pub mod sizing;
mod spelling;
pub mod vsan;
#[cfg(feature = "web")]
pub mod web;

pub use error::{Error, ErrorKind};
pub use planner::{PlanOptions, Planned, Planner};

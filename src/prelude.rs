//! The few types most programs need, in one `use`:
//!
//! ```
//! use dsplan::prelude::*;
//!
//! let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
//! // Options from the defaults and a setter each (`PlanOptions` is `#[non_exhaustive]`).
//! let options = PlanOptions::default()
//!     .region("West Europe".parse::<Region>()?)
//!     .host_sku("AV36P".parse::<HostSkuName>()?)
//!     .iops(20_000.0)
//!     .design("hybrid".parse::<Design>()?);
//! match Planner::new().input(fixture).options(options).run()? {
//!     Planned::Estate(estate) => {
//!         let plan: &EstatePlan = &estate;
//!         assert!(plan.summary.hosts >= 3);
//!     }
//!     other => panic!("an estate plan was asked for, not {other:?}"),
//! }
//! // Every failure says whose fault it is.
//! let err = Planner::new().input("no-such-export.xlsx").run().unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::Input);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! - [`Planner`], [`PlanOptions`], [`Planned`]: the front door, its settings, its answer
//!   ([`Planned::render`] writes it in a [`Format`]);
//! - [`Plan`], [`ClusterPlans`], [`EstatePlan`]: the three kinds of plan inside [`Planned`];
//! - [`Error`], [`ErrorKind`]: every failure and whose fault it is;
//! - the settings' enums ([`Design`], [`HostTerm`], [`CapacityBasis`], [`MemoryBasis`],
//!   [`Grouping`], [`PerfBasis`], [`ServiceLevel`], [`ReservationTerm`], [`IoProfile`]),
//!   each read from its command-line spelling with `str::parse` and shown with `Display`;
//! - [`Region`] and [`HostSkuName`]: the region and host SKU settings, parsed from the
//!   names Microsoft's pages write (`West Europe`, `AV64 Gen2`);
//! - [`Inventory`], [`Warning`] and [`WarningKind`]: what was read, what was wrong with it
//!   or is worth knowing about the plan, and the cause of each warning (`Warning::kind`),
//!   shown and parsed like the settings' enums.

pub use crate::catalog::{Region, ReservationTerm, ServiceLevel};
pub use crate::demand::CapacityBasis;
pub use crate::ingest::PerfBasis;
pub use crate::inventory::{Inventory, Warning, WarningKind};
pub use crate::perf::IoProfile;
pub use crate::plan::{ClusterPlans, Design, EstatePlan, Plan};
pub use crate::report::Format;
pub use crate::sizing::{Grouping, HostTerm, MemoryBasis};
pub use crate::vsan::HostSkuName;
pub use crate::{Error, ErrorKind, PlanOptions, Planned, Planner};

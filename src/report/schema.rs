//! JSON Schemas (draft 2020-12) of the plan, inventory and predict JSON, generated from the Rust
//! types with schemars, describing what they serialize. The committed copies live in
//! `schema/` (`cargo run --example write_schema` rewrites them; `tests/schema.rs` fails
//! when they are stale).
//!
//! The file names are always here; the generators (`plan_schema`, `inventory_schema`,
//! `predict_schema`) need the `schema` feature (on by default), which compiles schemars and
//! the `JsonSchema` derives of the serialized types.

#[cfg(feature = "schema")]
mod generate;
#[cfg(feature = "schema")]
pub use generate::{inventory_schema, plan_schema, predict_schema};

/// File name of the plan schema under `schema/`.
pub const PLAN_SCHEMA_FILE: &str = "plan.schema.json";
/// File name of the inventory schema under `schema/`.
pub const INVENTORY_SCHEMA_FILE: &str = "inventory.schema.json";
/// File name of the `dsplan predict --json` schema under `schema/`.
pub const PREDICT_SCHEMA_FILE: &str = "predict.schema.json";

//! Subcommands of the `dsplan` binary that belong to the performance model.

pub mod common;
pub mod predict;
pub mod sweep;

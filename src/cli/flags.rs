//! Library names to flag names: the map lives in [`dsplan::settings`] (the HTML report
//! uses it too); the command rewrites its messages with it.

pub use dsplan::settings::with_flag_names;

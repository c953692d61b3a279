//! The `dsplan` command's subcommands, one file each, all thin layers over the library:
//! `inventory`, `plan` (through [`dsplan::Planner`]), `predict`, `sweep` and `serve` (the
//! local web page, [`dsplan::web`]).
//!
//! Exit codes come from [`dsplan::ErrorKind::exit_code`]: 0 ok, 1 input or usage error, 2 a
//! target cannot be met, 3 an internal error.

pub mod common;
pub mod counts;
pub mod echo;
pub mod flags;
pub mod inventory;
pub mod output;
pub mod plan;
pub mod predict;
pub mod progress;
pub mod serve;
pub mod sweep;

use dsplan::ErrorKind;

/// A failure of a subcommand: its exit code and the message for stderr (flag names, not
/// library names).
#[derive(Debug)]
pub struct Failure {
    /// The process exit code.
    pub code: u8,
    /// What went wrong.
    pub message: String,
}

impl Failure {
    /// An input or usage error (exit code 1).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: ErrorKind::Usage.exit_code(),
            message: message.into(),
        }
    }
}

impl Failure {
    /// A usage error (exit code 1) from a library message, with settings named by their
    /// flags.
    pub fn with_flags(message: String) -> Failure {
        Failure::usage(flags::with_flag_names(&message))
    }
}

impl From<dsplan::Error> for Failure {
    fn from(e: dsplan::Error) -> Failure {
        Failure {
            code: e.kind().exit_code(),
            message: flags::with_flag_names(&e.to_string()),
        }
    }
}

/// Writes `text` to stdout. A reader that went away (`dsplan ... | head`) is not an error:
/// the rest is dropped quietly instead of panicking as `print!` does.
///
/// # Errors
/// Any other write error, as text.
pub fn print_out(text: &str) -> Result<(), String> {
    output::print_bytes(text.as_bytes())
}

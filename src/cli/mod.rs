//! Subcommands of the `dsplan` binary that belong to the performance model.

pub mod common;
pub mod predict;
pub mod sweep;

/// Writes `text` to stdout. A reader that went away (`dsplan ... | head`) is not an error:
/// the rest is dropped quietly instead of panicking as `print!` does.
///
/// # Errors
/// Any other write error, as text.
pub fn print_out(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to stdout: {e}"))
        }
        _ => Ok(()),
    }
}

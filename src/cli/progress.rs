//! A spinner with the elapsed time on stderr while a slow step runs. indicatif draws nothing
//! when stderr is not a terminal, so pipes, files and CI logs stay clean.

use std::path::Path;

/// Runs `step` with a spinner that says it is reading `inputs`.
pub fn reading<T>(inputs: &[impl AsRef<Path>], step: impl FnOnce() -> T) -> T {
    let spinner = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        spinner.set_style(style);
    }
    let names: Vec<String> = inputs
        .iter()
        .map(|p| p.as_ref().display().to_string())
        .collect();
    spinner.set_message(format!("reading {}", names.join(", ")));
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let result = step();
    spinner.finish_and_clear();
    result
}

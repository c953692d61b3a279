//! Where a subcommand's output goes: stdout, or `-o FILE`, never over an input.

use std::path::{Path, PathBuf};

use super::Failure;

/// Whether `-o PATH` means stdout: `-`, the usual spelling.
pub fn is_stdout(output: &Path) -> bool {
    output.as_os_str() == "-"
}

/// Writes `bytes` to `output`, or to stdout when there is no `-o` or it is `-`.
///
/// # Errors
/// A write failure, naming the file.
pub fn emit(bytes: &[u8], output: Option<&PathBuf>) -> Result<(), Failure> {
    match output {
        Some(path) if !is_stdout(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::usage(format!("{}: cannot write: {e}", path.display()))),
        _ => print_bytes(bytes).map_err(Failure::usage),
    }
}

/// Writes `bytes` as they are to stdout (a workbook too). A reader that went away
/// (`dsplan ... | head`) is not an error: the rest is dropped quietly.
///
/// # Errors
/// Any other write error, as text.
pub fn print_bytes(bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to stdout: {e}"))
        }
        _ => Ok(()),
    }
}

/// Refuses an `-o` file inside the `--charts` folder (existing or to be created), where a
/// chart of the same name would replace the plan.
///
/// # Errors
/// A usage failure naming both paths.
pub fn check_outside_charts(
    output: Option<&PathBuf>,
    charts: Option<&PathBuf>,
) -> Result<(), Failure> {
    let (Some(out), Some(dir)) = (output, charts) else {
        return Ok(());
    };
    if is_stdout(out) {
        return Ok(());
    }
    let full = |p: &Path| resolve(p).or_else(|| std::path::absolute(p).ok());
    if let (Some(out_abs), Some(dir_abs)) = (full(out), full(dir))
        && out_abs.starts_with(&dir_abs)
    {
        return Err(Failure::usage(format!(
            "-o {}: inside the --charts folder {}, where the charts are written; write the \
             plan elsewhere",
            out.display(),
            dir.display()
        )));
    }
    Ok(())
}

/// Refuses an output path that is one of the files read (`inputs`) or lies inside an input
/// folder, so `-o` can never overwrite what it reads (also through a symbolic or hard link).
///
/// # Errors
/// A usage failure naming both paths.
pub fn check_output_path(output: Option<&PathBuf>, inputs: &[&Path]) -> Result<(), Failure> {
    check_written_path("-o", "the plan", output, inputs)
}

/// As [`check_output_path`], for the path of `flag`, which writes `what`.
///
/// # Errors
/// A usage failure naming the flag and both paths.
pub fn check_written_path(
    flag: &str,
    what: &str,
    output: Option<&PathBuf>,
    inputs: &[&Path],
) -> Result<(), Failure> {
    let Some(out) = output.filter(|o| !is_stdout(o)) else {
        return Ok(());
    };
    let Some(resolved) = resolve(out) else {
        return Ok(()); // the write itself will report the bad path
    };
    let out_meta = std::fs::metadata(out).ok();
    for input in inputs {
        let Ok(input_abs) = input.canonicalize() else {
            continue;
        };
        if resolved == input_abs
            || (input_abs.is_dir() && resolved.starts_with(&input_abs))
            || out_meta
                .as_ref()
                .zip(std::fs::metadata(input).ok())
                .is_some_and(|(o, i)| same_file(o, &i))
        {
            return Err(Failure::usage(format!(
                "{flag} {}: refusing to write {what} over or into the input {}",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// The absolute path `out` would write: its folder resolved with its file name (it may not
/// exist yet), or, for an existing symbolic link, the file it points to.
fn resolve(out: &Path) -> Option<PathBuf> {
    if let Ok(target) = out.canonicalize() {
        return Some(target);
    }
    let (parent, name) = (out.parent()?, out.file_name()?);
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    parent.canonicalize().map(|p| p.join(name)).ok()
}

/// Whether two metadata describe the same file (a hard link has another path).
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
}

/// Whether two metadata describe the same file (paths are compared elsewhere).
#[cfg(not(unix))]
fn same_file(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    false
}

/// A file written under a temporary name next to its final path and renamed into place by
/// [`PendingFile::commit`]; dropped uncommitted (any failure), the temporary file is removed,
/// so a failed run leaves neither an empty nor a half-written file at `path`.
pub struct PendingFile {
    /// The open temporary file.
    pub file: std::fs::File,
    temp: PathBuf,
    path: PathBuf,
    committed: bool,
}

impl PendingFile {
    /// Creates `path`'s folder and a temporary file beside `path`
    /// (`.NAME.PID.tmp`), so a path that cannot be written fails before any work.
    ///
    /// # Errors
    /// A message naming `flag` and the folder or file that cannot be written.
    pub fn create(flag: &str, path: &Path) -> Result<PendingFile, String> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{flag} {}: cannot create the folder: {e}", dir.display()))?;
        let name = path
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = std::fs::File::create(&temp)
            .map_err(|e| format!("{flag} {}: cannot write: {e}", path.display()))?;
        Ok(PendingFile {
            file,
            temp,
            path: path.to_path_buf(),
            committed: false,
        })
    }

    /// Flushes the temporary file and renames it to the final path.
    ///
    /// # Errors
    /// A message naming the final path.
    pub fn commit(mut self) -> Result<(), String> {
        use std::io::Write;
        self.file
            .flush()
            .and_then(|()| std::fs::rename(&self.temp, &self.path))
            .map_err(|e| format!("{}: cannot write: {e}", self.path.display()))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

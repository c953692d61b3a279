//! Shared by the targets: the readers take paths, so each input is written to a file in a
#![allow(dead_code)] // each target uses part of it
//! per-process scratch directory first.

use std::path::PathBuf;

/// `<temp>/dsplan-fuzz-<pid>/<name>`, its directory created.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dsplan-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// Writes `data` to `scratch(name)` and returns the path.
pub fn write(name: &str, data: &[u8]) -> PathBuf {
    let path = scratch(name);
    let _ = std::fs::write(&path, data);
    path
}

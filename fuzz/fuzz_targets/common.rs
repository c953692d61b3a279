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

/// `seed` (an xlsx) with its part `name` replaced by `bytes` (stored, not deflated); `None`
/// when the seed cannot be copied.
pub fn replace_part(seed: &[u8], name: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::{Cursor, Write};
    let mut seed = zip::ZipArchive::new(Cursor::new(seed)).ok()?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..seed.len() {
        let entry = seed.by_index_raw(i).ok()?;
        if entry.name().ok()? == name {
            drop(entry);
            out.start_file(name, options).ok()?;
            out.write_all(bytes).ok()?;
        } else {
            out.raw_copy_file(entry).ok()?;
        }
    }
    Some(out.finish().ok()?.into_inner())
}

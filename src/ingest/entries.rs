//! Names of files and zip entries, and the byte sources they are read from: the tab a
//! file name implies, extensions, the names a zip's central directory lists. A leaf the
//! readers of workbooks, CSV folders and zips share (`xlsx.rs`, `csvfile.rs`, `csvzip.rs`,
//! `package.rs`, `foreign.rs`).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// A byte source calamine can read: a buffered file, or an upload in memory.
pub(crate) trait ReadSeek: std::io::Read + std::io::Seek {}
impl<T: std::io::Read + std::io::Seek> ReadSeek for T {}

/// The most central-directory bytes read to name entries that share a name: 16 MiB (about
/// 200,000 entries of 80-byte names; an export has a few dozen).
const MAX_DIRECTORY_BYTES: u64 = 16 << 20;

/// The tab a file name implies: `RVTools_tabvInfo.csv` -> `vInfo`.
pub(crate) fn tab_of(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    let lower = stem.to_ascii_lowercase();
    if lower.starts_with("rvtools_tab") && stem.len() > "rvtools_tab".len() {
        Some(stem["rvtools_tab".len()..].to_string())
    } else {
        None
    }
}

/// Extensions of the archives and workbooks a folder or zip may hold instead of its CSV
/// files, named by [`IngestError::NoRvtoolsFiles`].
pub(crate) const NESTED_EXTENSIONS: &[&str] = &["zip", "xlsx", "xlsm", "xls", "7z", "rar", "gz"];

/// Whether `name` ends in one of `extensions` (case-insensitively).
pub(crate) fn has_extension(name: &Path, extensions: &[&str]) -> bool {
    name.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Every name of the central directory, read from `start` (at most
/// [`MAX_DIRECTORY_BYTES`]): each header is 46 bytes, then its name, extra field and
/// comment (lengths at offsets 28, 30, 32).
pub(crate) fn directory_names<R: Read + Seek>(
    reader: &mut R,
    start: u64,
) -> std::io::Result<Vec<String>> {
    let mut raw = Vec::new();
    reader.seek(SeekFrom::Start(start))?;
    reader.take(MAX_DIRECTORY_BYTES).read_to_end(&mut raw)?;
    let mut names = Vec::new();
    let mut at = 0usize;
    while raw.get(at..at + 4) == Some(&[0x50, 0x4b, 0x01, 0x02]) {
        let field = |o: usize| {
            raw.get(at + o..at + o + 2)
                .map_or(0, |b| usize::from(u16::from_le_bytes([b[0], b[1]])))
        };
        let (name_len, extra_len, comment_len) = (field(28), field(30), field(32));
        let Some(name) = raw.get(at + 46..at + 46 + name_len) else {
            break;
        };
        names.push(String::from_utf8_lossy(name).into_owned());
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(names)
}

/// The first name (in sorted order) that `names` holds twice and `keep` accepts.
pub(crate) fn first_repeated(
    mut names: Vec<String>,
    keep: impl Fn(&str) -> bool,
) -> Option<String> {
    names.sort();
    names
        .windows(2)
        .find(|w| w[0] == w[1] && keep(&w[0]))
        .map(|w| w[0].clone())
}

//! A `.zip` of RVTools CSV exports (an upload, or a path given to the command): which
//! entries make which export, and a checked reader for one entry.
//!
//! The rule: each folder of the zip that holds an `RVTools_tabvInfo.csv` is one export, read
//! as its own input and handed to the merge as a separate input (`upload.zip!/vc1/`; the
//! zip's own name when it holds one export). A folder holding one tab twice (two entries of
//! one name, or `RVTools_tabvInfo.csv` beside `RVTools_tabVINFO.csv`) is refused naming both:
//! which of them is the export cannot be told. A folder of tabs without a vInfo, beside
//! folders with one, is refused naming it (its rows would belong to no export).
//!
//! Nothing is inflated until a tab is read ([`ZipEntry::open`]), and then it is streamed:
//! the tabs never read (and every other entry) cost nothing. A read fails once the entry
//! yields more than its declared size (which the part caps bound), and at its end when it
//! yields less or its CRC-32 differs from the zip's.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::ingest::entries::{
    NESTED_EXTENSIONS, ReadSeek, directory_names, first_repeated, has_extension, tab_of,
};
use crate::ingest::{CsvTab, Held, IngestError, package};
use crate::numbers::{clip, group_thousands};

/// Largest sum of the declared uncompressed sizes of the `RVTools_tab*.csv` entries of one
/// zip: 4 GiB. Each entry is also bounded by the xlsx part caps
/// ([`MAX_PART_BYTES`](crate::ingest::MAX_PART_BYTES), and [`MAX_RATIO`](crate::ingest::MAX_RATIO)
/// past [`RATIO_FLOOR_BYTES`](crate::ingest::RATIO_FLOOR_BYTES)): a 100,000-VM export's CSV
/// tabs take about 1 GB together. Only the tabs read are inflated, one at a time and
/// streamed, so this bounds the time a zip can ask for, not memory.
pub const MAX_ZIP_CSV_BYTES: u64 = 4 << 30;

/// Where a zip's bytes are: a file (opened again for each tab read) or memory.
#[derive(Debug, Clone)]
pub(crate) enum ZipSource<'a> {
    /// A file on disk.
    Path(PathBuf),
    /// An upload in memory.
    Bytes(&'a [u8]),
}

impl<'a> ZipSource<'a> {
    fn open(&self) -> std::io::Result<Box<dyn ReadSeek + 'a>> {
        Ok(match self {
            ZipSource::Path(path) => Box::new(std::io::BufReader::new(std::fs::File::open(path)?)),
            ZipSource::Bytes(bytes) => Box::new(std::io::Cursor::new(*bytes)),
        })
    }
}

/// One `RVTools_tab*.csv` entry of a zip, inflated only when read.
#[derive(Debug, Clone)]
pub(crate) struct ZipEntry<'a> {
    source: ZipSource<'a>,
    /// Offset of the entry's data in the zip.
    data_start: u64,
    /// Compressed size (bytes).
    packed: u64,
    /// Declared uncompressed size (bytes).
    size: u64,
    /// Declared CRC-32.
    crc32: u32,
    /// Deflated (else stored).
    deflated: bool,
}

impl<'a> ZipEntry<'a> {
    /// The declared uncompressed size in bytes.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// A reader of the entry's inflated bytes, checked against what the zip declares: it
    /// fails (with an [`EntryDamaged`] inside the `io::Error`) once the entry yields more
    /// than its declared size, and at its end when it yielded less or its CRC-32 differs.
    ///
    /// # Errors
    /// The zip cannot be opened again or seeked.
    pub(crate) fn open(&self) -> std::io::Result<Box<dyn Read + 'a>> {
        let mut raw = self.source.open()?;
        raw.seek(SeekFrom::Start(self.data_start))?;
        let packed = raw.take(self.packed);
        let inflated: Box<dyn Read + 'a> = if self.deflated {
            Box::new(flate2::read::DeflateDecoder::new(packed))
        } else {
            Box::new(packed)
        };
        Ok(Box::new(Checked {
            inner: inflated,
            size: self.size,
            crc32: self.crc32,
            read: 0,
            crc: flate2::Crc::new(),
        }))
    }
}

/// What is wrong with a zip entry's data: the detail of the error that names the entry.
#[derive(Debug)]
pub(crate) struct EntryDamaged(pub(crate) String);

impl std::fmt::Display for EntryDamaged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EntryDamaged {}

/// The [`IngestError`] for an `io::Error` met while reading `file`: an [`EntryDamaged`] is
/// [`IngestError::Malformed`] naming the entry, anything else as [`IngestError::from_io`].
pub(crate) fn read_error(file: &str, sheet: Option<&str>, e: std::io::Error) -> IngestError {
    match e.get_ref().and_then(|i| i.downcast_ref::<EntryDamaged>()) {
        Some(damaged) => IngestError::Malformed {
            file: file.to_string(),
            sheet: sheet.map(str::to_string),
            row: None,
            column: None,
            detail: damaged.0.clone(),
        },
        None => IngestError::from_io(file, e),
    }
}

/// The inflated bytes of an entry, counted and summed.
struct Checked<R> {
    inner: R,
    size: u64,
    crc32: u32,
    read: u64,
    crc: flate2::Crc,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        let damaged = |detail: String| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, EntryDamaged(detail))
        };
        let bytes = |n: u64| group_thousands(n as f64, 0);
        if n == 0 {
            if self.read < self.size {
                return Err(damaged(format!(
                    "the zip entry ends after {} of the {} bytes it declares (a truncated or \
                     damaged zip); zip the export again",
                    bytes(self.read),
                    bytes(self.size)
                )));
            }
            if self.crc.sum() != self.crc32 {
                return Err(damaged(format!(
                    "the zip entry's data has CRC-32 {:08x} where the zip declares {:08x} (a \
                     damaged zip); zip the export again",
                    self.crc.sum(),
                    self.crc32
                )));
            }
            return Ok(0);
        }
        self.read += n as u64;
        if self.read > self.size {
            return Err(damaged(format!(
                "the zip entry holds more than the {} bytes it declares (a damaged or altered \
                 zip); zip the export again",
                bytes(self.size)
            )));
        }
        self.crc.update(buf.get(..n).unwrap_or(&[]));
        Ok(n)
    }
}

/// What a zip holds: its exports, `(input name, tabs)` in folder order (the input is
/// `file` itself when the zip holds one export, else `file!/folder/`), and the zips and
/// workbooks inside it, which are not opened.
pub(crate) struct Exports<'a> {
    /// The exports.
    pub(crate) exports: Vec<(String, Vec<CsvTab<'a>>)>,
    /// The zips and workbooks it holds, by entry name.
    pub(crate) nested: Vec<String>,
}

/// The exports of a zip of RVTools CSV files (see the module documentation).
///
/// # Errors
/// [`IngestError::NotASpreadsheet`] for a zip that cannot be read;
/// [`IngestError::NoRvtoolsFiles`] for a zip without `RVTools_tab*.csv` entries (naming the
/// zips and workbooks it holds); [`IngestError::WorkbookNamedZip`] for one without them
/// that holds `xl/workbook.xml` (an xlsx renamed); [`IngestError::Malformed`] for a tab entry over the caps,
/// encrypted or compressed by another method than deflate, two entries of one tab in a
/// folder, or a folder of tabs without a vInfo beside folders with one.
pub(crate) fn exports<'a>(source: ZipSource<'a>, file: &str) -> Result<Exports<'a>, IngestError> {
    let opened = source.open().map_err(|e| IngestError::from_io(file, e))?;
    let mut zip = zip::ZipArchive::new(opened).map_err(|e| not_a_zip(file, e))?;
    if zip.has_duplicate_names() {
        refuse_duplicate_names(&source, zip.central_directory_start(), file)?;
    }
    let mut folders: BTreeMap<String, Vec<CsvTab<'a>>> = BTreeMap::new();
    let mut nested = Vec::new();
    // Entries that are no RVTools tab, for per-tab CSV files without the prefix.
    let mut others = Vec::new();
    let mut total = 0u64;
    // An xlsx package's main part, for a workbook named `.zip`.
    let mut workbook_part = false;
    for index in 0..zip.len() {
        let entry = zip.by_index_raw(index).map_err(|e| not_a_zip(file, e))?;
        if entry.is_dir() {
            continue;
        }
        workbook_part |= entry
            .name()
            .is_ok_and(|n| n.eq_ignore_ascii_case("xl/workbook.xml"));
        let Some(name) = entry.enclosed_name() else {
            // A path that leaves the zip's folder (`..`): not read, and not dropped in
            // silence when it holds a tab.
            let raw = entry.name().map(|n| n.into_owned()).unwrap_or_default();
            if tab_of(std::path::Path::new(&raw)).is_some() {
                let shown = format!("{file}/{}", clip(&raw));
                let detail = "the entry's path leaves the zip's own folder ('..'), so it is not \
                              read; zip the export again from its folder"
                    .to_string();
                return Err(entry_error(&shown, detail));
            }
            continue;
        };
        let Some(tab) = tab_of(&name).filter(|_| has_extension(&name, &["csv"])) else {
            if has_extension(&name, &["csv"]) {
                others.push(name.display().to_string());
            }
            if has_extension(&name, NESTED_EXTENSIONS) {
                nested.push(clip(&name.display().to_string()));
            }
            continue;
        };
        let shown = format!("{file}/{}", clip(&name.display().to_string()));
        let (size, packed) = (entry.size(), entry.compressed_size());
        package::check_size(file, &shown, None, size, packed)?;
        total = total.saturating_add(size);
        if total > MAX_ZIP_CSV_BYTES {
            let detail = format!(
                "the CSV entries declare more than {} GiB uncompressed together (a zip bomb?)",
                MAX_ZIP_CSV_BYTES >> 30
            );
            return Err(entry_error(&shown, detail));
        }
        let deflated = match entry.compression() {
            _ if entry.encrypted() => {
                let detail = "the zip entry is encrypted (a password-protected zip); zip the \
                              export again without a password"
                    .to_string();
                return Err(entry_error(&shown, detail));
            }
            zip::CompressionMethod::Stored => false,
            zip::CompressionMethod::Deflated => true,
            other => {
                let detail = format!(
                    "the zip entry is compressed with {other:?}, which is not read; zip the \
                     export again with the usual method (deflate)"
                );
                return Err(entry_error(&shown, detail));
            }
        };
        let Some(data_start) = entry.data_start() else {
            return Err(not_a_zip(file, "an entry without data"));
        };
        let folder = name
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        folders.entry(folder).or_default().push(CsvTab {
            tab,
            file: shown,
            data: Held::Zip(ZipEntry {
                source: source.clone(),
                data_start,
                packed,
                size,
                crc32: entry.crc32(),
                deflated,
            }),
        });
    }
    if folders.is_empty() {
        if workbook_part {
            return Err(IngestError::WorkbookNamedZip {
                file: file.to_string(),
            });
        }
        if let Some(f) = super::foreign::of_file_names(others.iter().map(String::as_str)) {
            return Err(f.error(file));
        }
        return Err(IngestError::NoRvtoolsFiles {
            dir: file.to_string(),
            place: "zip".to_string(),
            entries: zip.len(),
            nested,
        });
    }
    let exports = split_exports(file, folders)?;
    Ok(Exports { exports, nested })
}

/// The folders holding a vInfo, each an export; a folder of tabs without one is refused
/// when another has one (all of them make one input, without vInfo, otherwise).
fn split_exports<'a>(
    file: &str,
    folders: BTreeMap<String, Vec<CsvTab<'a>>>,
) -> Result<Vec<(String, Vec<CsvTab<'a>>)>, IngestError> {
    let has_vinfo = |tabs: &[CsvTab<'_>]| tabs.iter().any(|t| t.tab.eq_ignore_ascii_case("vInfo"));
    if !folders.values().any(|tabs| has_vinfo(tabs)) {
        let mut tabs: Vec<CsvTab<'a>> = folders.into_values().flatten().collect();
        tabs.sort_by(|a, b| (&a.tab, &a.file).cmp(&(&b.tab, &b.file)));
        return Ok(vec![(file.to_string(), tabs)]);
    }
    if let Some((folder, tabs)) = folders.iter().find(|(_, tabs)| !has_vinfo(tabs)) {
        let detail = format!(
            "folder '{}' holds RVTools CSV files ({}) but no RVTools_tabvInfo.csv, and other \
             folders hold one: each export's files must sit in one folder beside its vInfo",
            clip(&format!("{folder}/")),
            clip(
                &tabs
                    .iter()
                    .map(|t| t.tab.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
        return Err(entry_error(file, detail));
    }
    let several = folders.len() > 1;
    let mut out = Vec::with_capacity(folders.len());
    let mut taken = std::collections::HashSet::new();
    for (folder, mut tabs) in folders {
        one_file_per_tab(file, &mut tabs)?;
        let name = if several {
            let folder = if folder.is_empty() {
                String::new()
            } else {
                format!("{folder}/")
            };
            export_name(file, &folder, &mut taken)
        } else {
            file.to_string()
        };
        out.push((name, tabs));
    }
    Ok(out)
}

/// The name of the export in `folder` of the zip `file`: `file!/folder/`, a long folder
/// shown by its first and last characters ([`clip_ends`]), and `#2`, `#3` ... after a name
/// an earlier folder of the zip already has (folders alike but in the middle), so each
/// export's name is its own and bounded.
fn export_name(file: &str, folder: &str, taken: &mut std::collections::HashSet<String>) -> String {
    let base = format!("{file}!/{}", clip_ends(folder));
    let mut name = base.clone();
    let mut n = 1;
    while !taken.insert(name.clone()) {
        n += 1;
        name = format!("{base} #{n}");
    }
    name
}

/// Characters kept at each end of a long folder name by [`clip_ends`].
const END_CHARS: usize = crate::numbers::CLIP_CHARS / 2;

/// Text as [`clip`] quotes it, but a long text keeps its last [`END_CHARS`] characters as
/// well as its first: folder names often differ at the end (`export-2025-01/`,
/// `export-2025-02/`).
fn clip_ends(text: &str) -> String {
    let count = text.chars().count();
    if count <= crate::numbers::CLIP_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(END_CHARS).collect();
    let tail: String = text.chars().skip(count - END_CHARS).collect();
    format!(
        "{head}...{tail} ({} characters)",
        crate::numbers::group_thousands(count as f64, 0)
    )
}

/// Sorts one folder's tabs by name and refuses a tab given twice (`RVTools_tabvInfo.csv` and
/// `RVTools_tabVINFO.csv`), naming both files: which is the export cannot be told. `place`
/// is the folder or zip as given, left out of the names shown.
///
/// # Errors
/// [`IngestError::Malformed`] naming the folder or zip and both files.
pub(crate) fn one_file_per_tab(place: &str, tabs: &mut [CsvTab<'_>]) -> Result<(), IngestError> {
    tabs.sort_by(|a, b| {
        (a.tab.to_ascii_lowercase(), &a.file).cmp(&(b.tab.to_ascii_lowercase(), &b.file))
    });
    let Some(pair) = tabs
        .windows(2)
        .find(|w| w[0].tab.eq_ignore_ascii_case(&w[1].tab))
    else {
        return Ok(());
    };
    let prefix = format!("{place}/");
    let shown = |t: &CsvTab<'_>| t.file.strip_prefix(&prefix).unwrap_or(&t.file).to_string();
    let detail = format!(
        "two files of one tab in one folder, {} and {}; an export has one file per tab, so \
         which to read cannot be told: keep one, or put each export in a folder of its own",
        shown(&pair[0]),
        shown(&pair[1])
    );
    Err(entry_error(place, detail))
}

/// Refuses a zip whose central directory lists an `RVTools_tab*.csv` name twice (the `zip`
/// crate keeps one of them), naming it; another name given twice is left alone.
fn refuse_duplicate_names(
    source: &ZipSource<'_>,
    start: u64,
    file: &str,
) -> Result<(), IngestError> {
    let names = source
        .open()
        .and_then(|mut r| directory_names(&mut r, start))
        .unwrap_or_default();
    let listed = !names.is_empty();
    let twice = first_repeated(names, |n| tab_of(Path::new(n)).is_some());
    match twice {
        Some(name) => {
            let shown = format!("{file}/{}", clip(&name));
            let detail = format!(
                "the zip holds two entries named {}; an export has one file per tab, so \
                 which to read cannot be told: zip each export in a folder of its own",
                clip(&name)
            );
            Err(entry_error(&shown, detail))
        }
        None if !listed => Err(not_a_zip(
            file,
            "entries share a name and the central directory cannot be listed",
        )),
        None => Ok(()),
    }
}

fn not_a_zip(file: &str, e: impl std::fmt::Display) -> IngestError {
    IngestError::NotASpreadsheet {
        file: file.to_string(),
        detail: format!(
            "not a readable zip of RVTools CSV files ({})",
            clip(&e.to_string())
        ),
    }
}

fn entry_error(shown: &str, detail: String) -> IngestError {
    IngestError::Malformed {
        file: shown.to_string(),
        sheet: None,
        row: None,
        column: None,
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_folders_keep_both_ends_and_alike_names_are_numbered() {
        // 71 x's then '1/': 73 characters, over the 60 shown whole; 30 kept at each end.
        let long = format!("{}1/", "x".repeat(71));
        let x30 = "x".repeat(30);
        assert_eq!(
            clip_ends(&long),
            format!("{x30}...{}1/ (73 characters)", "x".repeat(28))
        );
        assert_eq!(clip_ends("short/"), "short/");
        let mut taken = std::collections::HashSet::new();
        // Alike but in the middle (position 40 of 73): the same clipped name, numbered.
        let mut other = long.clone().into_bytes();
        other[40] = b'y';
        let other = String::from_utf8(other).unwrap();
        let first = export_name("a.zip", &long, &mut taken);
        let second = export_name("a.zip", &other, &mut taken);
        assert_eq!(second, format!("{first} #2"));
        assert!(
            first.starts_with("a.zip!/xxx") && first.len() < 100,
            "{first}"
        );
    }
}

//! Checks of an xlsx package made before calamine reads it (issue 12, items 17-19).
//!
//! calamine 0.38 trusts what a workbook declares: `Xlsx::new` reserves the shared-string
//! table's `uniqueCount` (2^31 -> a 51 GB allocation, 2^64-1 -> a "capacity overflow"
//! panic), its column-letter parsing overflows `u32` on long cell references (a panic in
//! builds with overflow checks), and quick-xml buffers a whole text run (4 GiB of
//! whitespace between rows -> 4.2 GB RSS). This module opens the zip with the `zip` crate
//! first and refuses what cannot be a real workbook, reading only the central directory
//! and the first [`HEAD_BYTES`] of the shared strings and of each worksheet:
//!
//! - a part whose declared uncompressed size passes [`MAX_PART_BYTES`], or that is larger
//!   than [`RATIO_FLOOR_BYTES`] and inflates more than [`MAX_RATIO`] times (a zip bomb). The
//!   `zip` crate fails a read past the declared size, so the central directory's sizes bound
//!   what calamine can inflate;
//! - a `uniqueCount` larger than the shared-string part could hold (every string costs at
//!   least [`MIN_SHARED_STRING_BYTES`] bytes, `<si/>`);
//! - a cell reference (`r="..."`, `ref="..."`) in a worksheet's head beyond Excel's last
//!   column `XFD` or last row 1,048,576;
//! - a part name listed twice in the central directory (the `zip` crate keeps one of them:
//!   which copy is the workbook cannot be told).
//!
//! Every error names the file and the part, and for a worksheet the sheet's name.

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use crate::ingest::IngestError;
use crate::numbers::clip;

/// Largest declared uncompressed size of one part: 1 GiB. A 100,000-VM RVTools export's
/// vInfo sheet is about 100,000 rows x 90 cells x ~40 bytes of XML = ~360 MB, and its
/// vDisk / vPartition sheets (2-3 rows per VM, ~40 cells) about 500 MB (the real exports in
/// `../shared/rvtools` inflate to 8-9 KB per vInfo row); 1 GiB leaves twice that and
/// refuses the 2 / 4 GiB whitespace bombs.
pub const MAX_PART_BYTES: u64 = 1 << 30;

/// Parts larger than this (64 MiB uncompressed) must not inflate more than [`MAX_RATIO`]
/// times their compressed size.
pub const RATIO_FLOOR_BYTES: u64 = 64 << 20;

/// Largest inflation ratio of a large part: 100. Real sheet XML deflates 8-9 times (the
/// exports in `../shared/rvtools`); a part of whitespace or empty `<c/>` cells ~1,000 times
/// (deflate's ceiling is 1,032).
pub const MAX_RATIO: u64 = 100;

/// The fewest bytes one shared string takes in `sharedStrings.xml` (`<si/>`, 5 bytes).
pub const MIN_SHARED_STRING_BYTES: u64 = 5;

/// How much of the shared strings and of each worksheet is inflated and looked at: 64 KiB.
pub const HEAD_BYTES: u64 = 64 << 10;

/// Excel's last column, `XFD`, as a 1-based index.
const MAX_COLUMN_1: u64 = 16_384;
/// Excel's last row.
const MAX_ROW: u64 = 1_048_576;

/// Checks an xlsx package before calamine opens it (see the module documentation).
///
/// # Errors
/// [`IngestError::NotASpreadsheet`] when the file is not a readable zip archive (truncated,
/// not a zip) or has no `xl/workbook.xml`; [`IngestError::Malformed`] naming the part (and
/// sheet) for a part over the size caps, an impossible `uniqueCount`, or a cell reference
/// beyond `XFD1048576`; [`IngestError::Io`] when the file cannot be read.
pub(crate) fn check(path: &Path, file: &str) -> Result<(), IngestError> {
    let f = File::open(path).map_err(|e| IngestError::from_io(file, e))?;
    check_reader(BufReader::new(f), file)
}

/// [`check`] over any seekable bytes (a file, or an upload in memory).
///
/// # Errors
/// As [`check`].
pub(crate) fn check_reader<R: Read + Seek>(mut reader: R, file: &str) -> Result<(), IngestError> {
    let mut zip = match zip::ZipArchive::new(&mut reader) {
        Ok(zip) => zip,
        Err(e) => {
            // Only a file that is no zip is looked at as text: a CSV named .xlsx is told so.
            let head = first_bytes(&mut reader).unwrap_or_default();
            return Err(IngestError::NotASpreadsheet {
                file: file.to_string(),
                detail: format!(
                    "not a readable xlsx workbook (zip archive: {e}){}",
                    csv_hint(&head)
                ),
            });
        }
    };
    if zip.has_duplicate_names() {
        let start = zip.central_directory_start();
        let reader = zip.into_inner();
        let names = crate::ingest::entries::directory_names(reader, start).unwrap_or_default();
        let name = crate::ingest::entries::first_repeated(names, |_| true)
            .map_or_else(|| "a part".to_string(), |n| format!("'{}'", clip(&n)));
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: format!(
                "the package lists {name} twice (an altered or damaged workbook; which copy \
                 to read cannot be told): save it again from Excel or export it again"
            ),
        });
    }
    let parts = part_list(&mut zip, file)?;
    if !parts
        .iter()
        .any(|(n, _, _)| n.eq_ignore_ascii_case("xl/workbook.xml"))
    {
        return Err(IngestError::NotASpreadsheet {
            file: file.to_string(),
            detail: "a zip archive without xl/workbook.xml, not an xlsx workbook".to_string(),
        });
    }
    let sheets = sheet_names(&mut zip);
    let has_shared_strings = parts
        .iter()
        .any(|(n, _, _)| n.to_ascii_lowercase().ends_with("sharedstrings.xml"));
    for (index, (name, size, packed)) in parts.iter().enumerate() {
        let sheet = sheet_of(&sheets, name);
        check_size(file, name, sheet.as_deref(), *size, *packed)?;
        let lower = name.to_ascii_lowercase();
        if lower.ends_with("sharedstrings.xml") {
            let head = read_head(&mut zip, file, (index, name, sheet.as_deref()))?;
            check_unique_count(file, name, &head, *size)?;
        } else if lower.contains("worksheets/") && lower.ends_with(".xml") {
            let head = read_head(&mut zip, file, (index, name, sheet.as_deref()))?;
            check_references(file, name, sheet.as_deref(), &head)?;
            if !has_shared_strings && let Some(cell) = first_shared_string_cell(&head) {
                let detail = format!(
                    "its cells refer to shared strings (first: {cell}), but the workbook \
                     lacks its shared-strings part (xl/sharedStrings.xml): an incomplete \
                     package; save it again from Excel or export it again from RVTools"
                );
                return Err(part_error(file, name, sheet.as_deref(), detail));
            }
        }
    }
    Ok(())
}

fn part_error(file: &str, part: &str, sheet: Option<&str>, detail: String) -> IngestError {
    IngestError::Malformed {
        file: file.to_string(),
        sheet: sheet.map(str::to_string),
        row: None,
        column: None,
        detail: format!("part {part}: {detail}"),
    }
}

/// `(name, declared uncompressed size, compressed size)` of every part, from the central
/// directory (nothing is inflated).
fn part_list<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    file: &str,
) -> Result<Vec<(String, u64, u64)>, IngestError> {
    let mut parts = Vec::with_capacity(zip.len().min(4096));
    for index in 0..zip.len() {
        let entry = zip
            .by_index_raw(index)
            .map_err(|e| IngestError::NotASpreadsheet {
                file: file.to_string(),
                detail: format!("not a readable xlsx workbook (zip entry {index}: {e})"),
            })?;
        let name = entry.name().map(|n| clip(&n)).unwrap_or_default();
        parts.push((name, entry.size(), entry.compressed_size()));
    }
    Ok(parts)
}

/// Refuses a part over [`MAX_PART_BYTES`] or a large part over [`MAX_RATIO`].
pub(crate) fn check_size(
    file: &str,
    part: &str,
    sheet: Option<&str>,
    size: u64,
    packed: u64,
) -> Result<(), IngestError> {
    let mib = |b: u64| crate::numbers::group_thousands(b as f64 / 1_048_576.0, 0);
    if size > MAX_PART_BYTES {
        let detail = format!(
            "declares {} MiB uncompressed, more than the {} MiB a real export's sheet needs \
             (a zip bomb?)",
            mib(size),
            mib(MAX_PART_BYTES)
        );
        return Err(part_error(file, part, sheet, detail));
    }
    if size > RATIO_FLOOR_BYTES && size / packed.max(1) > MAX_RATIO {
        let detail = format!(
            "inflates {} times ({} MiB from {} bytes), more than the {MAX_RATIO} times real \
             sheet XML can (a zip bomb?)",
            size / packed.max(1),
            mib(size),
            crate::numbers::group_thousands(packed as f64, 0)
        );
        return Err(part_error(file, part, sheet, detail));
    }
    Ok(())
}

/// The first [`HEAD_BYTES`] of the part at `index` (its name and sheet for the message),
/// inflated.
///
/// # Errors
/// [`IngestError::Malformed`] naming the part and its sheet when it cannot be inflated.
/// Bytes read at the start of a workbook to tell a text file named `.xlsx`.
const SNIFF_BYTES: u64 = 512;

/// The first [`SNIFF_BYTES`] bytes of `reader` (fewer when shorter).
fn first_bytes<R: Read + Seek>(reader: &mut R) -> std::io::Result<Vec<u8>> {
    reader.rewind()?;
    let mut head = Vec::new();
    reader.take(SNIFF_BYTES).read_to_end(&mut head)?;
    Ok(head)
}

/// A hint for a file that is not a zip archive but starts as a CSV export does: text
/// without NUL bytes whose first line holds a comma, semicolon or tab (`VM,CPUs,Memory`).
/// Empty when the bytes do not look like that.
fn csv_hint(head: &[u8]) -> String {
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        // A multi-byte character cut at the end of the head is still text.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return String::new(),
    };
    let first = text
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches('\u{feff}');
    if text.contains('\0') || !first.contains([',', ';', '\t']) {
        return String::new();
    }
    format!(
        "; it holds text whose first line reads '{}': a CSV export named .xlsx? Give it a \
         .csv name",
        clip(first)
    )
}

fn read_head<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    file: &str,
    (index, part, sheet): (usize, &str, Option<&str>),
) -> Result<Vec<u8>, IngestError> {
    let mut head = Vec::new();
    let read = zip
        .by_index(index)
        .map_err(std::io::Error::other)
        .and_then(|entry| entry.take(HEAD_BYTES).read_to_end(&mut head));
    match read {
        Ok(_) => Ok(head),
        Err(e) => {
            let detail = format!(
                "cannot be inflated ({e}): a damaged workbook; save it again from Excel or export it again from RVTools"
            );
            Err(part_error(file, part, sheet, detail))
        }
    }
}

/// The value of attribute `attr` in `tag` (bytes after `<name`), quoted with `"` or `'`.
pub(super) fn attribute<'a>(tag: &'a [u8], attr: &[u8]) -> Option<&'a [u8]> {
    let mut from = 0;
    while let Some(at) = find(&tag[from..], attr).map(|i| i + from) {
        from = at + attr.len();
        // `name=` or `prefix:name=`, but not a namespace declaration (`xmlns:r=`).
        let token_start = tag[..at]
            .iter()
            .rposition(u8::is_ascii_whitespace)
            .map_or(0, |i| i + 1);
        let prefix = &tag[token_start..at];
        let before_ok = prefix.is_empty() || (prefix.ends_with(b":") && prefix != b"xmlns:");
        let rest = &tag[from..];
        let rest = rest.trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b"=") else {
            continue;
        };
        let rest = rest.trim_ascii_start();
        let Some((&quote, value)) = rest.split_first() else {
            continue;
        };
        if !before_ok || (quote != b'"' && quote != b'\'') {
            continue;
        }
        let end = value.iter().position(|&b| b == quote)?;
        return Some(&value[..end]);
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Offset of the first start tag whose local name (after any `prefix:`) is `local`.
fn find_tag(xml: &[u8], local: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(open) = xml[at..].iter().position(|&b| b == b'<').map(|i| i + at) {
        let name_len = xml[open + 1..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
            .unwrap_or(xml.len() - open - 1);
        let name = &xml[open + 1..open + 1 + name_len];
        let local_name = name.rsplit(|&b| b == b':').next().unwrap_or(name);
        if local_name == local {
            return Some(open);
        }
        at = open + 1;
    }
    None
}

/// Refuses a `uniqueCount` that the part's size cannot hold.
fn check_unique_count(file: &str, part: &str, head: &[u8], size: u64) -> Result<(), IngestError> {
    let Some(start) = find_tag(head, b"sst") else {
        return if (head.len() as u64) < HEAD_BYTES {
            Ok(()) // no table at all: calamine reads no strings
        } else {
            Err(part_error(
                file,
                part,
                None,
                format!("no <sst> element in the first {} KiB", HEAD_BYTES >> 10),
            ))
        };
    };
    let tag = &head[start..];
    let tag = &tag[..tag.iter().position(|&b| b == b'>').unwrap_or(tag.len())];
    let Some(value) = attribute(tag, b"uniqueCount") else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(value);
    let most = size / MIN_SHARED_STRING_BYTES + 1;
    match text.trim().parse::<u64>() {
        Ok(n) if n <= most => Ok(()),
        // Not a number: calamine does not reserve anything for it.
        Err(_) if !text.trim().bytes().all(|b| b.is_ascii_digit()) || text.trim().is_empty() => {
            Ok(())
        }
        _ => Err(part_error(
            file,
            part,
            None,
            format!(
                "declares uniqueCount=\"{}\" shared strings, but its {} bytes can hold at most \
                 {} (each takes at least {MIN_SHARED_STRING_BYTES} bytes)",
                clip(&text),
                crate::numbers::group_thousands(size as f64, 0),
                crate::numbers::group_thousands(most as f64, 0)
            ),
        )),
    }
}

/// Refuses a cell reference beyond `XFD1048576` in a worksheet's head.
fn check_references(
    file: &str,
    part: &str,
    sheet: Option<&str>,
    head: &[u8],
) -> Result<(), IngestError> {
    for tag in tags(head) {
        for attr in [&b"r"[..], b"ref"] {
            let Some(value) = attribute(tag, attr) else {
                continue;
            };
            for reference in value.split(|&b| b == b':') {
                if !reference_fits(reference) {
                    let shown = clip(&String::from_utf8_lossy(reference));
                    let detail =
                        format!("cell reference '{shown}' is beyond Excel's last cell XFD1048576");
                    return Err(part_error(file, part, sheet, detail));
                }
            }
        }
    }
    Ok(())
}

/// The text of every tag in `xml`, between `<` and the next `>` (or the end).
fn tags(xml: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = xml;
    std::iter::from_fn(move || {
        let open = rest.iter().position(|&b| b == b'<')?;
        rest = &rest[open + 1..];
        let end = rest.iter().position(|&b| b == b'>').unwrap_or(rest.len());
        let (tag, after) = rest.split_at(end);
        rest = after;
        Some(tag)
    })
}

/// The first cell of type `s` (a shared string) in a worksheet's head: `Some` of its
/// reference (empty when it has none), `None` when there is no such cell.
fn first_shared_string_cell(head: &[u8]) -> Option<String> {
    tags(head).find_map(|tag| {
        let name_len = tag
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'/')
            .unwrap_or(tag.len());
        let (name, attrs) = tag.split_at(name_len);
        let is_cell = name.rsplit(|&b| b == b':').next() == Some(b"c");
        (is_cell && attribute(attrs, b"t") == Some(b"s")).then(|| {
            attribute(attrs, b"r").map_or_else(String::new, |r| clip(&String::from_utf8_lossy(r)))
        })
    })
}

/// Whether `A1`-style text (letters then digits; either may be missing, as in `A:A` or
/// `1:1`) stays within `XFD1048576`: at most 3 letters up to `XFD`, and a leading digit run
/// of at most 7 digits up to 1,048,576 (what calamine would parse before it meets anything
/// else; its `u32` arithmetic overflows past 6 letters or 9 digits).
fn reference_fits(reference: &[u8]) -> bool {
    let reference = reference.strip_prefix(b"$").unwrap_or(reference);
    let letters = reference
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let (col, rest) = reference.split_at(letters);
    let rest = rest.strip_prefix(b"$").unwrap_or(rest);
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let col_ok = col
        .iter()
        .try_fold(0u64, |n, b| {
            let n = n * 26 + u64::from(b.to_ascii_uppercase() - b'A') + 1;
            (n <= MAX_COLUMN_1).then_some(n)
        })
        .is_some();
    let row_ok = digits <= 7
        && rest[..digits]
            .iter()
            .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'))
            <= MAX_ROW;
    col_ok && row_ok
}

/// `(part path, sheet name)` for every sheet of `xl/workbook.xml` (read up to
/// [`HEAD_BYTES`] x 16), through `xl/_rels/workbook.xml.rels`; empty when either is
/// unreadable (the messages then name the part only).
pub(super) fn sheet_names<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
) -> Vec<(String, String)> {
    let mut read = |name: &str| {
        let mut out = Vec::new();
        let ok = zip
            .by_name(name)
            .map_err(std::io::Error::other)
            .and_then(|e| e.take(HEAD_BYTES * 16).read_to_end(&mut out));
        ok.map(|_| out).unwrap_or_default()
    };
    let workbook = read("xl/workbook.xml");
    let rels = read("xl/_rels/workbook.xml.rels");
    let mut targets = Vec::new();
    for tag in rels
        .split(|&b| b == b'<')
        .filter(|t| t.starts_with(b"Relationship "))
    {
        if let (Some(id), Some(target)) = (attribute(tag, b"Id"), attribute(tag, b"Target")) {
            let target = String::from_utf8_lossy(target);
            let path = match target.strip_prefix('/') {
                Some(abs) => abs.to_string(),
                None => format!("xl/{target}"),
            };
            targets.push((id.to_vec(), path));
        }
    }
    let mut out = Vec::new();
    for tag in workbook
        .split(|&b| b == b'<')
        .filter(|t| t.starts_with(b"sheet "))
    {
        let (Some(name), Some(id)) = (attribute(tag, b"name"), attribute(tag, b"id")) else {
            continue;
        };
        if let Some((_, path)) = targets.iter().find(|(i, _)| i.as_slice() == id) {
            out.push((path.clone(), unescape(&String::from_utf8_lossy(name))));
        }
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn sheet_of(sheets: &[(String, String)], part: &str) -> Option<String> {
    sheets
        .iter()
        .find(|(p, _)| p.eq_ignore_ascii_case(part))
        .map(|(_, s)| clip(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        // XFD = 24*676 + 6*26 + 4 = 16,384, Excel's last column: fits; XFE does not.
        assert!(reference_fits(b"XFD1048576"));
        assert!(!reference_fits(b"XFE1"));
        assert!(!reference_fits(b"A1048577"));
        assert!(!reference_fits(b"ZZZZZZZ1"));
        assert!(!reference_fits(b"Edatacenter1"));
        assert!(reference_fits(b"$A$1"));
        assert!(reference_fits(b"A"));
        assert!(!reference_fits(b"A99999999999"));
        // calamine reads the letters before it meets the '=' (and overflows on 8 of them).
        assert!(!reference_fits(b"Arksheem="));
    }

    #[test]
    fn attributes() {
        let tag = b"c xmlns:r=\"http://x\" r=\"A1\" xr:uid='x' ref = \"B2\"";
        assert_eq!(attribute(tag, b"r"), Some(&b"A1"[..]));
        assert_eq!(attribute(tag, b"ref"), Some(&b"B2"[..]));
        assert_eq!(
            attribute(b"sheet name=\"a\" r:id=\"rId1\"", b"id"),
            Some(&b"rId1"[..])
        );
    }
}

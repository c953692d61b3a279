//! Which cell the xlsx reader failed on ([`cell_after`]): calamine's cell reader reports a
//! bad value (`<v>0x10</v>` in a numeric cell) without the cell's position, so on that
//! error the worksheet's XML is scanned again, once, for the first cell after the last one
//! read. Only the error path pays for it.

use std::io::{BufRead, BufReader, Read, Seek};

use super::package::{attribute, sheet_names};

/// Bytes kept of each tag (`c r="XFD1048576" s="123" t="inlineStr"` is under 60): the
/// rest of a long tag or text run is skipped, never buffered.
const TAG_HEAD_BYTES: usize = 256;

/// The 0-based (row, column) of a cell reference (`G10` -> (9, 6)); `None` for anything
/// else (no letters, no digits, past `u32`).
fn position(reference: &[u8]) -> Option<(u32, u32)> {
    let letters = reference
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let (col, row) = reference.split_at(letters);
    if col.is_empty() || col.len() > 3 || row.is_empty() || row.len() > 7 {
        return None;
    }
    let col = col.iter().fold(0u32, |n, b| {
        n * 26 + u32::from(b.to_ascii_uppercase() - b'A') + 1
    });
    let row: u32 = std::str::from_utf8(row).ok()?.parse().ok()?;
    Some((row.checked_sub(1)?, col - 1))
}

/// The 0-based (row, column) of a cell reference as text (`G10` -> (9, 6)).
pub(crate) fn position_of(reference: &str) -> Option<(u32, u32)> {
    position(reference.as_bytes())
}

/// The reference (`G10`) of the first cell of sheet `sheet` after the 0-based position
/// `last` (the first cell of the sheet when `None`), found by its `r` attribute in the
/// worksheet part of the xlsx package `reader`; `None` when the package, the sheet or such
/// a cell cannot be found (a cell without `r`).
pub(crate) fn cell_after<R: Read + Seek>(
    reader: R,
    sheet: &str,
    last: Option<(u32, u32)>,
) -> Option<String> {
    let mut zip = zip::ZipArchive::new(reader).ok()?;
    let part = sheet_names(&mut zip)
        .into_iter()
        .find(|(_, name)| name == sheet)?
        .0;
    let entry = zip.by_name(&part).ok()?;
    let mut xml = BufReader::new(entry);
    let mut tag: Vec<u8> = Vec::with_capacity(TAG_HEAD_BYTES);
    let mut in_tag = false;
    loop {
        let buf = xml.fill_buf().ok()?;
        if buf.is_empty() {
            return None;
        }
        let n = buf.len();
        for &b in buf {
            if b == b'<' {
                if in_tag && let Some(found) = later_cell(&tag, last) {
                    return Some(found);
                }
                tag.clear();
                in_tag = true;
            } else if in_tag && tag.len() < TAG_HEAD_BYTES {
                tag.push(b);
            }
        }
        xml.consume(n);
    }
}

/// The reference of `tag` when it opens a cell (`c r="G10" ...`, or with a namespace
/// prefix, `x:c r="G10"`) after `last`.
fn later_cell(tag: &[u8], last: Option<(u32, u32)>) -> Option<String> {
    let name_end = tag
        .iter()
        .position(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
        .unwrap_or(tag.len());
    let tag = match tag[..name_end].iter().position(|&b| b == b':') {
        Some(colon) => &tag[colon + 1..],
        None => tag,
    };
    let is_cell = tag.first() == Some(&b'c')
        && tag
            .get(1)
            .is_none_or(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/');
    if !is_cell {
        return None;
    }
    let reference = attribute(tag, b"r")?;
    let at = position(reference)?;
    last.is_none_or(|l| at > l)
        .then(|| String::from_utf8_lossy(reference).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_read_as_0_based_rows_and_columns() {
        // G = 7th letter -> column 6; row 10 -> 9. XFD = 24 x 676 + 6 x 26 + 4 = 16,384
        // -> 16,383.
        assert_eq!(position(b"G10"), Some((9, 6)));
        assert_eq!(position(b"A1"), Some((0, 0)));
        assert_eq!(position(b"XFD1048576"), Some((1_048_575, 16_383)));
        assert_eq!(position(b"A0"), None);
        assert_eq!(position(b"10"), None);
        assert_eq!(position(b"ABCD1"), None);
    }

    #[test]
    fn the_first_cell_tag_after_the_last_read_is_found() {
        assert_eq!(
            later_cell(b"c r=\"G10\" t=\"n\">", Some((9, 5))),
            Some("G10".into())
        );
        assert_eq!(later_cell(b"c r=\"F10\">", Some((9, 5))), None);
        assert_eq!(later_cell(b"col min=\"1\"", None), None);
        assert_eq!(later_cell(b"c r=\"A1\"/>", None), Some("A1".into()));
        assert_eq!(later_cell(b"x:c r=\"B2\">", None), Some("B2".into()));
        assert_eq!(later_cell(b"x:col min=\"1\"", None), None);
    }
}

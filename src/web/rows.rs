//! Whether an upload's tab has more rows than the server's whole memory budget holds,
//! counted without keeping them: an upload refused for the budget left while other uploads
//! are kept gets 413 (waiting would not help) rather than 503 when it has. Only CSV text is
//! counted (a vInfo `.csv`, a `.zip` of `RVTools_tab*.csv`); a workbook's rows are not
//! known without reading it.

use std::io::Read;

/// Most bytes inflated from a zip while counting: 1 GiB (a tab past the budget's rows is
/// found long before; past this the count gives up and the answer stays "not known").
pub const MAX_COUNTED_BYTES: u64 = 1 << 30;

/// Whether the tab `sheet` of the uploaded `file` (as an ingest error names it: the
/// upload's name, or `<zip name>/<member>` for a zip's member) has more than `limit` data
/// rows: `Some(true)` or `Some(false)` for CSV text, `None` when not known (a workbook, a
/// file not found among `files`, a broken zip, or [`MAX_COUNTED_BYTES`] inflated first).
/// Rows are lines outside double quotes, blank lines skipped, less the header; the count
/// stops one row past `limit` (the header and `limit` + 1 lines), so it takes at most that many rows' time and no memory per
/// row.
pub fn more_rows_than(
    files: &[(String, Vec<u8>)],
    file: &str,
    sheet: &str,
    limit: usize,
) -> Option<bool> {
    let (name, bytes) = files.iter().find(|(name, _)| {
        file == name
            || file.starts_with(&format!("{name}/"))
            || file.starts_with(&format!("{name}!/"))
    })?;
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".csv") {
        return count_lines(&mut bytes.as_slice(), limit.saturating_add(2), u64::MAX)
            .map(|lines| lines.saturating_sub(1) > limit);
    }
    if !lower.ends_with(".zip") {
        return None;
    }
    let member = format!("tab{}.csv", sheet.to_ascii_lowercase());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.as_slice())).ok()?;
    let mut budget = MAX_COUNTED_BYTES;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).ok()?;
        let Ok(name) = entry.name() else {
            continue;
        };
        let base = name.rsplit(['/', '\\']).next().unwrap_or("");
        if !base.to_ascii_lowercase().ends_with(&member) {
            continue;
        }
        let lines = count_lines(&mut entry, limit.saturating_add(2), budget)?;
        if lines.saturating_sub(1) > limit {
            return Some(true);
        }
        budget = budget.saturating_sub(entry.size());
    }
    Some(false)
}

/// Non-blank lines of `reader` outside double quotes, counted up to `stop` lines (then
/// `stop`); `None` past `max_bytes` read or on a read error.
fn count_lines(reader: &mut dyn Read, stop: usize, max_bytes: u64) -> Option<usize> {
    let mut buf = vec![0u8; 64 << 10];
    let (mut lines, mut read, mut quoted, mut blank) = (0usize, 0u64, false, true);
    loop {
        let n = reader.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        read = read.saturating_add(n as u64);
        if read > max_bytes {
            return None;
        }
        for &b in &buf[..n] {
            match b {
                b'"' => {
                    quoted = !quoted;
                    blank = false;
                }
                b'\n' if !quoted => {
                    if !blank {
                        lines += 1;
                        if lines >= stop {
                            return Some(lines);
                        }
                    }
                    blank = true;
                }
                // A CRLF's CR and UTF-16's zero bytes leave a line blank.
                b'\r' | 0 => {}
                _ => blank = false,
            }
        }
    }
    Some(lines + usize::from(!blank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_outside_quotes_are_counted_blank_ones_not() {
        let count = |text: &str| count_lines(&mut text.as_bytes(), usize::MAX, u64::MAX);
        // Header + 2 rows; a quoted line break is inside one row; CRLF and a blank line.
        assert_eq!(count("VM,x\n\"a\nb\",1\r\n\r\nc,2\n"), Some(3));
        // The last row without a line break counts.
        assert_eq!(count("VM\na\nb"), Some(3));
        assert_eq!(count(""), Some(0));
        // Stops at `stop`; gives up past `max_bytes`.
        assert_eq!(
            count_lines(&mut "a\nb\nc\n".as_bytes(), 2, u64::MAX),
            Some(2)
        );
        assert_eq!(count_lines(&mut "a\nb\nc\n".as_bytes(), 9, 3), None);
    }

    #[test]
    fn an_uploads_tab_is_found_in_a_csv_or_a_zip() {
        use std::io::Write as _;
        // Header + 5 rows: more than 4, not more than 5.
        let csv = b"VM,a,b\n,1,1\n,1,1\n,1,1\n,1,1\n,1,1\n".to_vec();
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        zip.start_file(
            "x/RVTools_tabvInfo.csv",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.write_all(&csv).unwrap();
        let zip = zip.finish().unwrap().into_inner();
        let files = vec![
            ("a.csv".to_string(), csv),
            ("e.zip".to_string(), zip),
            ("w.xlsx".to_string(), b"PK".to_vec()),
        ];
        assert_eq!(more_rows_than(&files, "a.csv", "vInfo", 4), Some(true));
        assert_eq!(more_rows_than(&files, "a.csv", "vInfo", 5), Some(false));
        let member = "e.zip/x/RVTools_tabvInfo.csv";
        assert_eq!(more_rows_than(&files, member, "vInfo", 4), Some(true));
        assert_eq!(more_rows_than(&files, member, "vInfo", 5), Some(false));
        // Another tab has no member: no rows past the limit.
        assert_eq!(more_rows_than(&files, member, "vDisk", 0), Some(false));
        // A workbook, or a file not uploaded: not known.
        assert_eq!(more_rows_than(&files, "w.xlsx", "vInfo", 0), None);
        assert_eq!(more_rows_than(&files, "b.csv", "vInfo", 0), None);
    }
}

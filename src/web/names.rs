//! A download's file name: `dsplan-<input stem>-<YYYY-MM-DD>.<ext>`
//! (`dsplan-sizing-workshop-805vms-2026-12-06.xlsx`, `dsplan-Kunde-Müller-2026-12-06.csv`),
//! so downloads of different exports and days do not overwrite each other in a downloads
//! folder, and its `Content-Disposition` (an ASCII `filename=` and the UTF-8 `filename*=`).

use std::time::{SystemTime, UNIX_EPOCH};

/// Longest stem kept from an input's name, characters: 60.
pub const MAX_STEM_CHARS: usize = 60;

/// The file name of a download in `ext` of a plan of `inputs` (the uploaded files' names,
/// in order) made on `date` (`YYYY-MM-DD`): `dsplan-<stem>-<date>.<ext>`. The stem is the
/// first input's name without its directories and extension, its letters and digits kept
/// in any script (`Kunde Müller` -> `Kunde-Müller`; a combining accent after a kept
/// character too), each run of other characters except `-` and `_` made one `-` (so no
/// quote, slash, control or direction character is left), trimmed of `-` at its ends and
/// clipped to [`MAX_STEM_CHARS`]; `plan` when nothing is left. Several inputs add
/// `-and-N-more`. [`ascii_download_name`] is its ASCII form, for the header's `filename=`.
pub fn download_name(inputs: &[String], date: &str, ext: &str) -> String {
    name_keeping(inputs, date, ext, |c, after_kept| {
        c.is_alphanumeric() || (after_kept && ('\u{300}'..='\u{36f}').contains(&c))
    })
}

/// [`download_name`] with ASCII letters and digits alone kept (`Kunde-M-ller`): the
/// `filename=` of `Content-Disposition`, for a client that does not read `filename*`.
pub fn ascii_download_name(inputs: &[String], date: &str, ext: &str) -> String {
    name_keeping(inputs, date, ext, |c, _| c.is_ascii_alphanumeric())
}

/// `Content-Disposition` of a download named `name` ([`download_name`]): `attachment`,
/// `filename="<ascii>"` ([`ascii_download_name`]: every client reads it) and, when `name`
/// has other letters, `filename*=UTF-8''<name percent-encoded>` (RFC 6266, RFC 5987:
/// clients that read it prefer it).
pub fn content_disposition(name: &str, ascii: &str) -> String {
    if name == ascii {
        return format!("attachment; filename=\"{ascii}\"");
    }
    let mut encoded = String::new();
    for b in name.bytes() {
        // RFC 5987 attr-char: ALPHA, DIGIT and !#$&+-.^_`|~ go as they are.
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// [`download_name`] keeping the characters `keep` takes (`keep(c, after_kept)`: whether
/// the character before `c` was kept), besides `-` and `_`.
fn name_keeping(
    inputs: &[String],
    date: &str,
    ext: &str,
    keep: impl Fn(char, bool) -> bool,
) -> String {
    let first = inputs.first().map_or("", |name| {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        base.rsplit_once('.').map_or(base, |(stem, _)| stem)
    });
    let mut stem = String::new();
    let mut after_kept = false;
    for c in first.chars() {
        if c == '-' || c == '_' || keep(c, after_kept) {
            stem.push(c);
            after_kept = c != '-' && c != '_';
        } else {
            if !stem.ends_with('-') {
                stem.push('-');
            }
            after_kept = false;
        }
    }
    let stem: String = stem
        .trim_matches('-')
        .chars()
        .take(MAX_STEM_CHARS)
        .collect();
    let stem = match stem.trim_end_matches('-') {
        "" => "plan",
        s => s,
    };
    let more = match inputs.len() {
        0 | 1 => String::new(),
        n => format!("-and-{}-more", n - 1),
    };
    format!("dsplan-{stem}{more}-{date}.{ext}")
}

/// Today's date in UTC as `YYYY-MM-DD` (the server's clock; the standard library knows no
/// time zone).
pub fn today_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_days(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The date `days` after 1970-01-01 as `YYYY-MM-DD` (proleptic Gregorian; Howard
/// Hinnant's `civil_from_days`).
pub fn date_of_days(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(date_of_days(0), "1970-01-01");
        // 2000 is a leap year: 30 years of 365 days and 7 leap days (72, 76, ..., 96) to
        // 2000-01-01 = 10,957; + 31 (January) + 28 = 2000-02-29.
        assert_eq!(date_of_days(10_957), "2000-01-01");
        assert_eq!(date_of_days(10_957 + 59), "2000-02-29");
        assert_eq!(date_of_days(10_957 + 60), "2000-03-01");
        // 2026-12-06: 2000-01-01 + 26 years (7 leap days: 2000, 04, 08, 12, 16, 20, 24) =
        // 10,957 + 26 x 365 + 7 = 20,454 (2026-01-01), + 334 (Jan to Nov) + 5 = 20,793.
        assert_eq!(date_of_days(20_793), "2026-12-06");
        assert_eq!(date_of_days(-1), "1969-12-31");
        assert_eq!(today_utc().len(), 10);
    }

    #[test]
    fn names_keep_a_safe_stem_and_count_the_other_inputs() {
        let name = |inputs: &[&str]| {
            let inputs: Vec<String> = inputs.iter().map(|s| (*s).to_string()).collect();
            download_name(&inputs, "2026-12-06", "xlsx")
        };
        assert_eq!(
            name(&["sizing-workshop-805vms.xlsx"]),
            "dsplan-sizing-workshop-805vms-2026-12-06.xlsx"
        );
        // Spaces, quotes, dots, non-ASCII letters and directories: one '-' a run.
        assert_eq!(
            name(&["C:\\exports\\RVTools export \"Q3\" v1.2.xlsx"]),
            "dsplan-RVTools-export-Q3-v1-2-2026-12-06.xlsx"
        );
        // Letters of any script are kept (a decomposed ü, u and U+0308, too).
        assert_eq!(name(&["Zürich_DC.csv"]), "dsplan-Zürich_DC-2026-12-06.xlsx");
        assert_eq!(
            name(&["Kunde Mu\u{308}ller (final) v2.csv"]),
            "dsplan-Kunde-Mu\u{308}ller-final-v2-2026-12-06.xlsx"
        );
        assert_eq!(name(&["日本.xlsx"]), "dsplan-日本-2026-12-06.xlsx");
        // A direction override or a control character is not a letter: one '-'.
        assert_eq!(
            name(&["a\u{202e}b\u{7}c.csv"]),
            "dsplan-a-b-c-2026-12-06.xlsx"
        );
        // Nothing kept, or no input: "plan".
        assert_eq!(name(&["«».xlsx"]), "dsplan-plan-2026-12-06.xlsx");
        assert_eq!(name(&[]), "dsplan-plan-2026-12-06.xlsx");
        // Several inputs: the first's stem and how many more.
        assert_eq!(
            name(&["a.csv", "b.csv", "c.zip"]),
            "dsplan-a-and-2-more-2026-12-06.xlsx"
        );
        // Clipped to 60 characters.
        let long = format!("{}.xlsx", "x".repeat(100));
        assert_eq!(
            name(&[&long]),
            format!("dsplan-{}-2026-12-06.xlsx", "x".repeat(60))
        );
    }

    #[test]
    fn the_header_gives_an_ascii_name_and_the_letters_in_utf8() {
        let inputs = vec!["Kunde Müller (final) v2.csv".to_string()];
        let name = download_name(&inputs, "2026-12-06", "md");
        let ascii = ascii_download_name(&inputs, "2026-12-06", "md");
        assert_eq!(name, "dsplan-Kunde-Müller-final-v2-2026-12-06.md");
        assert_eq!(ascii, "dsplan-Kunde-M-ller-final-v2-2026-12-06.md");
        // ü is U+00FC, UTF-8 C3 BC.
        assert_eq!(
            content_disposition(&name, &ascii),
            "attachment; filename=\"dsplan-Kunde-M-ller-final-v2-2026-12-06.md\"; \
             filename*=UTF-8''dsplan-Kunde-M%C3%BCller-final-v2-2026-12-06.md"
        );
        // An ASCII name: the one parameter.
        assert_eq!(
            content_disposition("dsplan-a-2026-12-06.md", "dsplan-a-2026-12-06.md"),
            "attachment; filename=\"dsplan-a-2026-12-06.md\""
        );
    }
}

//! A download's file name: `dsplan-<input stem>-<YYYY-MM-DD>.<ext>`
//! (`dsplan-sizing-workshop-805vms-2026-12-06.xlsx`), so downloads of different exports
//! and days do not overwrite each other in a downloads folder.

use std::time::{SystemTime, UNIX_EPOCH};

/// Longest stem kept from an input's name, characters: 60.
pub const MAX_STEM_CHARS: usize = 60;

/// The file name of a download in `ext` of a plan of `inputs` (the uploaded files' names,
/// in order) made on `date` (`YYYY-MM-DD`): `dsplan-<stem>-<date>.<ext>`. The stem is the
/// first input's name without its directories and extension, each run of characters other
/// than ASCII letters, digits, `-` and `_` made one `-` (a header and every file system
/// take it), trimmed of `-` at its ends and clipped to [`MAX_STEM_CHARS`]; `plan` when
/// nothing is left. Several inputs add `-and-N-more`.
pub fn download_name(inputs: &[String], date: &str, ext: &str) -> String {
    let first = inputs.first().map_or("", |name| {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        base.rsplit_once('.').map_or(base, |(stem, _)| stem)
    });
    let mut stem = String::new();
    for c in first.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            stem.push(c);
        } else if !stem.ends_with('-') {
            stem.push('-');
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
        assert_eq!(name(&["Zürich_DC.csv"]), "dsplan-Z-rich_DC-2026-12-06.xlsx");
        // Nothing safe left, or no input: "plan".
        assert_eq!(name(&["日本.xlsx"]), "dsplan-plan-2026-12-06.xlsx");
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
}

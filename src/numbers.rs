//! Number formatting shared by the library's messages and the renderers (data flows one
//! way: `optimize` and `report` both use this module, neither uses the other).

/// From this magnitude on, [`group_thousands`] writes the compact form (`1.2e15`): a
/// figure of 16 digits or more is absurd for a plan and unreadable in full.
pub const COMPACT_FROM: f64 = 1e15;

/// Formats `value` with `decimals` digits after the point and commas between groups of
/// three digits: `1234567.891` with 2 decimals -> `"1,234,567.89"`. Magnitudes from
/// [`COMPACT_FROM`] on are written compactly with one decimal (`1.2e15`, `-3.0e20`).
/// Non-finite values are written as Rust writes them (`inf`, `NaN`); a negative value that
/// rounds to zero loses its sign.
pub fn group_thousands(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value.abs() >= COMPACT_FROM {
        return format!("{value:.1e}");
    }
    let s = format!("{:.*}", decimals, value.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let mut out = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(&f);
    }
    if value < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

/// A figure as the user gave it: whole numbers without decimals, others with one decimal,
/// grouped by [`group_thousands`] (`50000000` -> `"50,000,000"`, `1.25` -> `"1.2"`).
pub fn show_number(v: f64) -> String {
    if v.fract() == 0.0 {
        group_thousands(v, 0)
    } else {
        group_thousands(v, 1)
    }
}

/// `value` rounded down to `decimals` places (within 1e-6 of the next step counts as that
/// step, so `4499.9999999` is `4500`): the figure an "at most" message may promise.
pub fn floor_to(value: f64, decimals: usize) -> f64 {
    let scale = 10f64.powi(i32::try_from(decimals).unwrap_or(0));
    (value * scale + 1e-6).floor() / scale
}

/// A reachable figure as the infeasible messages and `predict` print it: rounded down to
/// `decimals` places ([`floor_to`]), grouped, without a `.0` tail (`7684.86` with 1 ->
/// `"7,684.8"`, `4500` with 1 -> `"4,500"`, `661584.7` with 0 -> `"661,584"`).
pub fn at_most(value: f64, decimals: usize) -> String {
    let s = group_thousands(floor_to(value, decimals), decimals);
    match s.split_once('.') {
        Some((int, frac)) if !s.contains('e') && frac.chars().all(|c| c == '0') => int.to_string(),
        _ => s,
    }
}

/// A size of data in words with its unit: TiB with one decimal from 0.1 TiB
/// (`1,843.2` GiB -> `"1.8 TiB"`), GiB below, where one decimal of TiB would show 0.0 or
/// lose most of the figure (`20` -> `"20 GiB"`, `0.5` -> `"0.5 GiB"`).
pub fn size_gib(gib: f64) -> String {
    if gib >= 0.1 * 1024.0 {
        format!("{} TiB", group_thousands(gib / 1024.0, 1))
    } else if gib > 0.0 && gib < 0.95 {
        format!("{} GiB", group_thousands(gib, 1))
    } else {
        format!("{} GiB", group_thousands(gib, 0))
    }
}

/// `n` and the noun, plural unless `n` is 1: `counted(1, "flow")` -> `"1 flow"`,
/// `counted(3, "datastore")` -> `"3 datastores"` (thousands grouped).
pub fn counted(n: u64, noun: &str) -> String {
    format!("{} {}", group_thousands(n as f64, 0), plural(n, noun))
}

/// The noun for `n` of it, plural unless `n` is 1: `plural(1, "host")` -> `"host"`,
/// `plural(0, "host")` -> `"hosts"` (for a count written before it in another form, `3
/// av36p hosts`).
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

/// A setting's value as quoted in an error message: as Rust writes it (`0.25`, `1500`), or in
/// exponent form when that is over 20 characters (`1e300`, `1e-300`), so a huge or tiny flag
/// value never fills the screen.
pub fn show_setting(v: f64) -> String {
    let plain = v.to_string();
    if plain.len() > 20 {
        format!("{v:e}")
    } else {
        plain
    }
}

/// A name as a name part (a file-name stem, the start of an Azure resource name): ASCII
/// letters and digits kept, every run of other characters one `-`, no `-` at either end
/// (`Prod East/01` -> `Prod-East-01`, `été` -> `t`, `../..` -> empty). Callers cap the
/// length and say what an empty result becomes.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let kept = out.trim_end_matches('-').len();
    out.truncate(kept);
    out
}

/// [`slug`] cut to at most `max` characters, without a `-` left at the end (a slug is
/// ASCII, so characters are bytes).
pub fn slug_cut(slug: &str, max: usize) -> String {
    slug[..slug.len().min(max)]
        .trim_end_matches('-')
        .to_string()
}

/// Longest text, in characters, quoted whole in a message or warning.
pub const CLIP_CHARS: usize = 60;

/// Text as quoted in messages and warnings: whole up to [`CLIP_CHARS`] characters, else its
/// first [`CLIP_CHARS`] characters, `...` and its length (`"aaaa...aaa... (1,048,576
/// characters)"`), so a 100 MB cell never lands in a message.
pub fn clip(text: &str) -> String {
    let mut chars = text.char_indices();
    let cut = chars.nth(CLIP_CHARS).map(|(i, _)| i);
    let shown = &text[..cut.unwrap_or(text.len())];
    match cut {
        None => shown.to_string(),
        Some(_) => format!(
            "{shown}... ({} characters)",
            group_thousands(text.chars().count() as f64, 0)
        ),
    }
}

/// Longest VM name, in characters, that the text and Markdown reports print whole (see
/// [`clip_name`]).
pub const NAME_SHOWN_CHARS: usize = 60;

/// A name as printed in a text or Markdown table: whole up to [`NAME_SHOWN_CHARS`]
/// characters, else its first [`NAME_SHOWN_CHARS`] characters and `…`, so a 100,000-character
/// VM name stays one readable cell (the JSON and the workbook keep the whole name).
pub fn clip_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.char_indices().nth(NAME_SHOWN_CHARS) {
        None => std::borrow::Cow::Borrowed(name),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", &name[..cut])),
    }
}

/// The first five of `total` items (already worded, e.g. quoted names) joined by `, `, and
/// how many more (`'a', 'b', 'c', 'd', 'e' and 1,234 more`).
pub fn first_few(items: impl Iterator<Item = String>, total: usize) -> String {
    let mut s = items.take(5).collect::<Vec<_>>().join(", ");
    if total > 5 {
        s.push_str(&format!(
            " and {} more",
            group_thousands((total - 5) as f64, 0)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_show_gib_below_a_tenth_of_a_tib() {
        // 0.1 TiB = 102.4 GiB: from there one decimal of TiB; below, whole GiB (one
        // decimal under 1 GiB).
        assert_eq!(size_gib(20.0), "20 GiB");
        assert_eq!(size_gib(0.0), "0 GiB");
        assert_eq!(size_gib(0.5), "0.5 GiB");
        assert_eq!(size_gib(102.3), "102 GiB");
        assert_eq!(size_gib(102.4), "0.1 TiB");
        // 1,800 / 1,024 = 1.758 -> 1.8; 52,000 / 1,024 = 50.781 -> 50.8.
        assert_eq!(size_gib(1_800.0), "1.8 TiB");
        assert_eq!(size_gib(52_000.0), "50.8 TiB");
    }

    #[test]
    fn slugs_keep_ascii_letters_and_digits() {
        assert_eq!(slug("Prod East/01"), "Prod-East-01");
        assert_eq!(slug("--a__b--"), "a-b");
        assert_eq!(slug("../.."), "");
        // "aaaa-bbbb" cut at 5 would end on '-': it is dropped.
        assert_eq!(slug_cut("aaaa-bbbb", 5), "aaaa");
        assert_eq!(slug_cut("ab", 5), "ab");
    }

    #[test]
    fn names_over_60_characters_are_cut_with_an_ellipsis() {
        let sixty = "é".repeat(60);
        assert_eq!(clip_name(&sixty), sixty);
        assert_eq!(clip_name("web-01"), "web-01");
        // 61 characters: the first 60 and one `…` (61 characters shown, 2 x 60 + 3 bytes).
        let sixty_one = format!("{sixty}x");
        let cut = clip_name(&sixty_one);
        assert_eq!(cut, format!("{sixty}…"));
        assert_eq!((cut.chars().count(), cut.len()), (61, 123));
        assert_eq!(clip_name(&"L".repeat(100_000)).chars().count(), 61);
    }

    #[test]
    fn settings_too_long_to_read_are_shown_in_exponent_form() {
        assert_eq!(show_setting(0.25), "0.25");
        assert_eq!(show_setting(1500.0), "1500");
        // 1e300 as Rust writes it is 301 digits; 1e-300 is "0." and 300 digits.
        assert_eq!(show_setting(1e300), "1e300");
        assert_eq!(show_setting(1e-300), "1e-300");
        assert_eq!(show_setting(f64::NAN), "NaN");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(1_234_567.891, 2), "1,234,567.89");
        assert_eq!(group_thousands(999.0, 0), "999");
        assert_eq!(group_thousands(1000.0, 0), "1,000");
        assert_eq!(group_thousands(-1234.5, 1), "-1,234.5");
        assert_eq!(group_thousands(0.0, 2), "0.00");
    }

    #[test]
    fn user_figures_keep_their_decimals() {
        assert_eq!(show_number(50_000_000.0), "50,000,000");
        assert_eq!(show_number(1500.5), "1,500.5");
    }

    #[test]
    fn long_text_is_clipped() {
        assert_eq!(clip("vm-01"), "vm-01");
        let sixty = "x".repeat(60);
        assert_eq!(clip(&sixty), sixty);
        // 1,000 'é' (2 bytes each): the first 60 characters, then the length in characters.
        let long = "é".repeat(1000);
        assert_eq!(
            clip(&long),
            format!("{}... (1,000 characters)", "é".repeat(60))
        );
    }

    #[test]
    fn absurd_figures_are_compact_and_reachable_ones_round_down() {
        // 1.234e15 -> one decimal of the mantissa; 999,999,999,999,999 stays in full.
        assert_eq!(group_thousands(1.234e15, 0), "1.2e15");
        assert_eq!(group_thousands(-3e20, 2), "-3.0e20");
        assert_eq!(
            group_thousands(999_999_999_999_999.0, 0),
            "999,999,999,999,999"
        );
        // predict's 661,584.713 IOPS and 7,684.861 MiB/s (anf-avs, 3 hosts) round down.
        assert_eq!(at_most(661_584.713, 0), "661,584");
        assert_eq!(at_most(7_684.861, 1), "7,684.8");
        assert_eq!(at_most(4_499.999_999_9, 1), "4,500");
        assert_eq!(at_most(2e16, 0), "2.0e16");
        assert_eq!(counted(1, "flow"), "1 flow");
        assert_eq!(counted(1200, "datastore"), "1,200 datastores");
    }
}

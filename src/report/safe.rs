//! Text from the input made safe to show: control characters and bidi overrides escaped for
//! a terminal or a Markdown viewer ([`escape_controls`]), and CSV cells that a spreadsheet
//! would read as a formula quoted ([`csv_text`]).
//!
//! A VM, cluster or folder name is whatever the export holds: an `ESC ] 0 ; ... BEL` in it
//! would retitle the user's terminal, `ESC [ 2 J` clear it, and a right-to-left override
//! (U+202E) reorder what follows it on the line. The text and Markdown reports and the
//! CLI's messages on stderr pass through [`escape_controls`]; the CSV writers pass every
//! text cell from the input through [`csv_text`] (the same escapes, and a leading `'` before
//! a formula; figures dsplan writes itself, such as `-3.5`, are left as numbers). The HTML
//! report escapes them as well (`report::html::escape`).

use std::borrow::Cow;

/// Which layout characters [`escape_controls`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Nothing: a name from the input, where even a line break or a tab is escaped (a name
    /// is one cell on one line).
    Nothing,
    /// The line feed and the tab dsplan writes itself for layout: a whole report or message.
    Layout,
}

/// Whether `c` moves text around rather than showing it: a bidi embedding, override or
/// isolate (U+202A..U+202E, U+2066..U+2069), which reorders the rest of a line.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether [`escape_controls`] escapes `c` (with `keep`).
fn is_unsafe(c: char, keep: Keep) -> bool {
    if keep == Keep::Layout && (c == '\n' || c == '\t') {
        return false;
    }
    // `is_control`: Unicode category Cc, the C0 controls U+0000..U+001F, DEL U+007F and
    // the C1 controls U+0080..U+009F.
    c.is_control() || is_bidi_control(c)
}

/// `text` with every C0 and C1 control character (U+0000..U+001F, U+007F..U+009F) and every
/// bidi override or isolate (U+202A..U+202E, U+2066..U+2069) written as Rust's escape
/// `\u{1b}` (lower-case hex, no leading zeros), except the line feed and tab when `keep` is
/// [`Keep::Layout`]. Other text, wide and combining characters included, is returned as it
/// is (borrowed when there is nothing to escape).
pub fn escape_controls(text: &str, keep: Keep) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c, keep)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c, keep) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape_controls`] of an owned text: the same text back when there is nothing to
/// escape (no copy), else the escaped one.
pub fn escape_controls_owned(text: String, keep: Keep) -> String {
    match escape_controls(&text, keep) {
        Cow::Borrowed(_) => text,
        Cow::Owned(escaped) => escaped,
    }
}

/// Characters that make a spreadsheet read a CSV cell as a formula when they start it
/// (`=`, `+`, `-`, `@`; a tab or carriage return before one is skipped by some importers).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text cell from the input (a cluster, datastore or SKU name, a region) as written to a
/// CSV: its control characters and bidi overrides escaped ([`escape_controls`], a line
/// break too: `cat plan.csv` cannot drive the terminal), and with a leading `'` when it
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return, so a spreadsheet shows
/// `=HYPERLINK(...)` as text instead of running it (the OWASP "CSV injection" rule); any
/// other text as it is. Only for text: a figure such as `-3.5` is written without it.
pub fn csv_text(text: &str) -> Cow<'_, str> {
    let shown = escape_controls(text, Keep::Nothing);
    if text.starts_with(FORMULA_STARTS) {
        Cow::Owned(format!("'{shown}"))
    } else {
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_escaped() {
        // ESC is U+001B, BEL U+0007, the C1 CSI U+009B, RLO U+202E, FSI U+2068.
        let name = "a\u{1b}]0;PWNED\u{7}\u{9b}b\u{202e}c\u{2068}";
        assert_eq!(
            escape_controls(name, Keep::Nothing),
            "a\\u{1b}]0;PWNED\\u{7}\\u{9b}b\\u{202e}c\\u{2068}"
        );
    }

    #[test]
    fn layout_keeps_line_feeds_and_tabs_only_when_asked() {
        let text = "a\tb\nc\rd";
        assert_eq!(escape_controls(text, Keep::Layout), "a\tb\nc\\u{d}d");
        assert_eq!(
            escape_controls(text, Keep::Nothing),
            "a\\u{9}b\\u{a}c\\u{d}d"
        );
    }

    #[test]
    fn plain_and_wide_text_is_borrowed_as_it_is() {
        // U+200F (right-to-left mark) is not an override: it stays, as do wide characters.
        let text = "東京 é \u{200f} vm-01";
        assert!(matches!(
            escape_controls(text, Keep::Nothing),
            Cow::Borrowed(t) if t == text
        ));
    }

    #[test]
    fn formula_starts_get_a_quote_and_other_text_does_not() {
        for (cell, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1+1", "'\\u{9}=1+1"),
            ("\r=1+1", "'\\u{d}=1+1"),
            ("=\u{1b}[2J", "'=\\u{1b}[2J"),
        ] {
            assert_eq!(csv_text(cell), written);
        }
        for cell in ["Cluster-1", "a=b", "", " =1"] {
            assert_eq!(csv_text(cell), cell);
        }
        // Controls are escaped wherever they stand.
        assert_eq!(csv_text("a\u{7}b"), "a\\u{7}b");
        // A negative figure would be quoted too: the CSV writers pass only text cells from
        // the input through `csv_text`, never the figures they format themselves.
        assert_eq!(csv_text("-3.5"), "'-3.5");
    }
}

//! Cell values as the sheet readers hand them over, and their conversion to typed fields.

use std::borrow::Cow;

/// One cell of a tracked column, borrowed from the reader where possible.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Value<'a> {
    /// No value (missing cell, empty string, or only whitespace).
    #[default]
    Empty,
    /// Text, trimmed.
    Text(Cow<'a, str>),
    /// A numeric cell (xlsx number or date serial).
    Number(f64),
    /// A boolean cell.
    Bool(bool),
    /// A spreadsheet error cell (`#N/A` ...).
    Error(String),
}

impl Value<'_> {
    /// Whether the cell carries nothing.
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Value::Empty)
    }

    /// The cell as the user would see it, for warnings.
    pub(crate) fn display(&self) -> String {
        match self {
            Value::Empty => String::new(),
            Value::Text(t) => t.to_string(),
            Value::Number(n) => format_number(*n),
            Value::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
            Value::Error(e) => e.clone(),
        }
    }

    /// Trimmed text of a text cell; numbers and booleans as displayed; `None` when empty.
    pub(crate) fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Value::Empty => None,
            Value::Text(t) => Some(Cow::Borrowed(t.as_ref())),
            other => Some(Cow::Owned(other.display())),
        }
    }
}

/// Builds a [`Value`] from text: trimmed, empty becomes [`Value::Empty`].
pub(crate) fn text_value(s: &str) -> Value<'_> {
    let t = s.trim();
    if t.is_empty() {
        Value::Empty
    } else {
        Value::Text(Cow::Borrowed(t))
    }
}

/// Formats a number without a trailing `.0` for integers.
pub(crate) fn format_number(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// How a text cell writes numbers: which character is the decimal mark (the other of `.`/`,`
/// is the thousands separator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalMark {
    /// `1,234.5` (en-US and the xlsx default).
    Point,
    /// `1.234,5` (de-DE and much of Europe).
    Comma,
}

/// What a numeric text says about the decimal mark of its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarkEvidence {
    /// Not a number, or a number without `.` or `,`.
    None,
    /// Fits both readings (`16.384`, `1,500`): one separator followed by groups of 3 digits.
    Ambiguous,
    /// Only a decimal point reading fits.
    Point,
    /// Only a decimal comma reading fits.
    Comma,
}

/// Classifies a numeric text by the separators it uses.
pub(crate) fn mark_evidence(s: &str) -> MarkEvidence {
    let s = s.trim();
    let body = s.strip_prefix('-').unwrap_or(s);
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return MarkEvidence::None;
    }
    if !body.bytes().any(|b| b.is_ascii_digit()) {
        return MarkEvidence::None;
    }
    let dots = body.matches('.').count();
    let commas = body.matches(',').count();
    match (dots, commas) {
        (0, 0) => MarkEvidence::None,
        (_, 0) => {
            if dots == 1 && !grouped(body, '.') {
                MarkEvidence::Point
            } else if grouped(body, '.') {
                // `1.234` or `1.234.567`: a single one could be a decimal point, several
                // can only be thousands separators.
                if dots == 1 {
                    MarkEvidence::Ambiguous
                } else {
                    MarkEvidence::Comma
                }
            } else {
                MarkEvidence::None
            }
        }
        (0, _) => {
            if commas == 1 && !grouped(body, ',') {
                MarkEvidence::Comma
            } else if grouped(body, ',') {
                if commas == 1 {
                    MarkEvidence::Ambiguous
                } else {
                    MarkEvidence::Point
                }
            } else {
                MarkEvidence::None
            }
        }
        _ => {
            // Both: the last one is the decimal mark.
            let last_dot = body.rfind('.');
            let last_comma = body.rfind(',');
            if last_dot > last_comma {
                MarkEvidence::Point
            } else {
                MarkEvidence::Comma
            }
        }
    }
}

/// `d{1,3}(sep d{3})+` exactly.
fn grouped(body: &str, sep: char) -> bool {
    let mut parts = body.split(sep);
    let Some(first) = parts.next() else {
        return false;
    };
    if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let mut n = 0;
    for p in parts {
        if p.len() != 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        n += 1;
    }
    n > 0
}

/// The spaces a locale may group thousands with: a space, a no-break space (U+00A0) and a
/// narrow no-break space (U+202F, French since CLDR 34).
const SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];

/// Parses a numeric text written with the given decimal mark (thousands separators allowed,
/// only in groups of three: the other mark, or one kind of space). `None` when the text is
/// not such a number.
pub(crate) fn parse_number(s: &str, mark: DecimalMark) -> Option<f64> {
    let s = s.trim();
    if let Ok(v) = s.parse::<f64>() {
        // Plain `1234`, `1234.5`, `1e3`; with a decimal comma a `.` is a thousands
        // separator, so `1.234` must not be read as 1.234.
        if mark == DecimalMark::Point || !s.contains('.') {
            return Some(v);
        }
    }
    let (thousands, decimal) = match mark {
        DecimalMark::Point => (',', '.'),
        DecimalMark::Comma => ('.', ','),
    };
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let (int_part, frac_part) = match body.split_once(decimal) {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if int_part.is_empty() {
        return None;
    }
    // A space groups thousands in French and other locales (`8 192`; a no-break space,
    // U+00A0, or a narrow one, U+202F, in what spreadsheets write): in either mark.
    let thousands = SPACES
        .into_iter()
        .find(|c| int_part.contains(*c))
        .unwrap_or(thousands);
    if int_part.contains(thousands) {
        if !grouped(int_part, thousands) {
            return None;
        }
    } else if !int_part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut plain = String::with_capacity(body.len() + 1);
    if neg {
        plain.push('-');
    }
    plain.extend(int_part.chars().filter(|c| *c != thousands));
    if let Some(f) = frac_part {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        plain.push('.');
        plain.push_str(f);
    }
    plain.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_locales() {
        assert_eq!(parse_number("102,400", DecimalMark::Point), Some(102_400.0));
        assert_eq!(parse_number("102.400", DecimalMark::Comma), Some(102_400.0));
        assert_eq!(
            parse_number("1.234.567,5", DecimalMark::Comma),
            Some(1_234_567.5)
        );
        assert_eq!(
            parse_number("1,234,567.5", DecimalMark::Point),
            Some(1_234_567.5)
        );
        assert_eq!(parse_number("-1", DecimalMark::Comma), Some(-1.0));
        assert_eq!(parse_number("12,5", DecimalMark::Comma), Some(12.5));
        assert_eq!(parse_number("102.4", DecimalMark::Point), Some(102.4));
        assert_eq!(parse_number("12,34", DecimalMark::Point), None);
        assert_eq!(parse_number("1.2.3", DecimalMark::Point), None);
        assert_eq!(parse_number("abc", DecimalMark::Point), None);
        assert_eq!(parse_number("", DecimalMark::Point), None);
        assert_eq!(parse_number(",", DecimalMark::Comma), None);
    }

    #[test]
    fn spaces_group_thousands_in_either_mark() {
        assert_eq!(parse_number("8 192", DecimalMark::Point), Some(8_192.0));
        assert_eq!(parse_number("8 192", DecimalMark::Comma), Some(8_192.0));
        assert_eq!(
            parse_number("102\u{a0}400,5", DecimalMark::Comma),
            Some(102_400.5)
        );
        assert_eq!(
            parse_number("1\u{202f}048\u{202f}576", DecimalMark::Comma),
            Some(1_048_576.0)
        );
        assert_eq!(
            parse_number("-2 048.25", DecimalMark::Point),
            Some(-2_048.25)
        );
        // Not groups of three, or two kinds of separator: not a number.
        assert_eq!(parse_number("12 34", DecimalMark::Point), None);
        assert_eq!(parse_number("1 2", DecimalMark::Comma), None);
        assert_eq!(parse_number("1 234\u{a0}567", DecimalMark::Comma), None);
        assert_eq!(parse_number("1 234.567", DecimalMark::Comma), None);
    }

    #[test]
    fn classifies_evidence() {
        assert_eq!(mark_evidence("16.384"), MarkEvidence::Ambiguous);
        assert_eq!(mark_evidence("16,384"), MarkEvidence::Ambiguous);
        assert_eq!(mark_evidence("8.363.560"), MarkEvidence::Comma);
        assert_eq!(mark_evidence("8,363,560"), MarkEvidence::Point);
        assert_eq!(mark_evidence("12,5"), MarkEvidence::Comma);
        assert_eq!(mark_evidence("12.5"), MarkEvidence::Point);
        assert_eq!(mark_evidence("1.234,5"), MarkEvidence::Comma);
        assert_eq!(mark_evidence("1,234.5"), MarkEvidence::Point);
        assert_eq!(mark_evidence("1234"), MarkEvidence::None);
        assert_eq!(mark_evidence("10.21.17.28"), MarkEvidence::None);
        assert_eq!(mark_evidence("abc"), MarkEvidence::None);
    }
}

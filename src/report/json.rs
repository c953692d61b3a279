//! JSON text as the reports write it: serde_json's pretty text with the noise of f64
//! arithmetic taken out of its numbers (`3564.0000000000005` -> `3564.0`, `881999.9999999999`
//! -> `882000.0`, `0.11023000000000001` -> `0.11023`). Only the text is rounded; the values
//! in memory, and `serde_json::to_string` of them, stay exact.

use serde::Serialize;

/// Significant digits a number keeps: 15, the most that every f64 holds exactly in
/// decimal. The noise of f64 arithmetic (a unit in the last place, a few after many sums)
/// sits in the 16th and 17th digits, so the rounding changes a figure by at most 5 parts in
/// 10^15 of it: no figure's meaning changes (a GiB figure moves by less than 1e-6 GiB below
/// 200 million GiB, a USD figure by less than a cent below 2 trillion USD).
const DIGITS: usize = 15;

/// `value` as pretty JSON ending in a newline, its numbers at most [`DIGITS`] significant
/// digits.
///
/// # Errors
/// serde_json's, for a value it cannot write (a figure that is not finite).
pub(crate) fn pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    Ok(denoise(&serde_json::to_string_pretty(value)?) + "\n")
}

/// `json` with each number written with a fraction or an exponent rounded to [`DIGITS`]
/// significant digits, where that is shorter; strings (names from the input) and whole
/// numbers are copied as they are.
fn denoise(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut chars = json.char_indices().peekable();
    let mut in_string = false;
    let mut escaped = false;
    while let Some((i, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
            out.push(c);
            continue;
        }
        if !(c == '-' || c.is_ascii_digit()) {
            out.push(c);
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek() {
            if !(d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-')) {
                break;
            }
            end = j + d.len_utf8();
            chars.next();
        }
        out.push_str(&rounded(&json[i..end]));
    }
    out
}

/// A number token at [`DIGITS`] significant digits (Rust's shortest form of the rounded
/// f64, `3564.0`), or the token itself when it is whole, no longer or not a number.
fn rounded(token: &str) -> String {
    if !token.contains(['.', 'e', 'E']) {
        return token.to_string();
    }
    let Ok(v) = token.parse::<f64>() else {
        return token.to_string();
    };
    let Ok(r) = format!("{v:.prec$e}", prec = DIGITS - 1).parse::<f64>() else {
        return token.to_string();
    };
    let written = format!("{r:?}");
    if written.len() < token.len() {
        written
    } else {
        token.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_goes_and_exact_figures_stay() {
        assert_eq!(rounded("3564.0000000000005"), "3564.0");
        assert_eq!(rounded("881999.9999999999"), "882000.0");
        assert_eq!(rounded("0.11023000000000001"), "0.11023");
        assert_eq!(rounded("5.156250000000001"), "5.15625");
        // 13 significant digits, exact in binary (7,832,814 MiB / 1024): kept.
        assert_eq!(rounded("7649.232421875"), "7649.232421875");
        // A true fraction keeps 15 significant digits.
        assert_eq!(rounded("0.018575963718820865"), "0.0185759637188209");
        assert_eq!(rounded("12"), "12");
        assert_eq!(rounded("1e300"), "1e300");
    }

    #[test]
    fn strings_are_copied() {
        let json = r#"{"name": "vm 0.30000000000000004 \"1.0000000000000002\"", "x": 0.30000000000000004, "n": -2}"#;
        assert_eq!(
            denoise(json),
            r#"{"name": "vm 0.30000000000000004 \"1.0000000000000002\"", "x": 0.3, "n": -2}"#
        );
    }
}

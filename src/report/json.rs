//! JSON text as the reports write it: serde_json's pretty text with the noise of f64
//! arithmetic taken out of its numbers (`3564.0000000000005` -> `3564.0`, `881999.9999999999`
//! -> `882000.0`, `0.11023000000000001` -> `0.11023`). Each f64 is rounded as serde_json
//! writes it (a [`Formatter`] around its [`PrettyFormatter`]); the values in memory, and
//! `serde_json::to_string` of them, stay exact.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Significant digits a number keeps: 13. The noise of f64 arithmetic sits in the 16th and
/// 17th digits after one operation and creeps to the 15th after many (a per-layer MiB/s of
/// `6444.00000000001`), so 15 digits, the most every f64 holds exactly, leave some of it;
/// 13 take it out and change a figure by at most 5 parts in 10^13 of it: no figure's
/// meaning changes (a GiB figure moves by less than 1e-4 GiB below 200 million GiB, a USD
/// figure by less than half a cent below 10 billion USD).
const DIGITS: usize = 13;

/// `value` as pretty JSON ending in a newline, its numbers at most [`DIGITS`] significant
/// digits.
///
/// # Errors
/// serde_json's, for a value it cannot write (a figure that is not finite).
pub(crate) fn pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Denoised::default());
    value.serialize(&mut ser)?;
    out.push(b'\n');
    // serde_json writes UTF-8 only; a failure here would be its bug, reported as its error.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// `v` rounded to [`DIGITS`] significant digits (`v` itself when not finite).
fn rounded(v: f64) -> f64 {
    use std::io::Write;
    // Written on the stack, not in a String per figure: `-1.234567890123e-308` is 20 bytes.
    let mut buf = [0u8; 40];
    let mut text = io::Cursor::new(&mut buf[..]);
    if write!(text, "{v:.prec$e}", prec = DIGITS - 1).is_err() {
        return v;
    }
    let len = usize::try_from(text.position()).unwrap_or(0);
    buf.get(..len)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(|s| s.parse().ok())
        .unwrap_or(v)
}

/// serde_json's pretty layout, each f64 rounded by [`rounded`] before it is written the
/// way serde_json writes it (shortest form that reads back as the rounded value).
#[derive(Default)]
struct Denoised(PrettyFormatter<'static>);

impl Formatter for Denoised {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        // + 0.0 turns -0.0 (a difference of equal figures) into 0.0.
        self.0.write_f64(writer, rounded(value) + 0.0)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One number as [`pretty`] writes it.
    fn written(v: f64) -> String {
        pretty(&v).unwrap().trim_end().to_string()
    }

    #[test]
    fn noise_goes_and_exact_figures_stay() {
        assert_eq!(written(3564.0000000000005), "3564.0");
        assert_eq!(written(881999.9999999999), "882000.0");
        assert_eq!(written(0.11023000000000001), "0.11023");
        assert_eq!(written(5.156250000000001), "5.15625");
        // 13 significant digits, exact in binary (7,832,814 MiB / 1024): kept.
        assert_eq!(written(7649.232421875), "7649.232421875");
        // Noise crept to the 15th digit goes too.
        assert_eq!(written(6444.00000000001), "6444.0");
        assert_eq!(written(988000.000000001), "988000.0");
        // A true fraction keeps 13 significant digits: 0.018575963718820865 -> 0.01857596371882.
        assert_eq!(written(0.018575963718820865), "0.01857596371882");
        // Cents stay up to 10 billion USD: 9,876,543,210.12 has 12 digits.
        assert_eq!(written(9_876_543_210.12), "9876543210.12");
        // Negative zero is written as zero.
        assert_eq!(written(-0.0), "0.0");
        assert_eq!(written(12.0), "12.0");
        // A huge figure as serde_json writes it.
        assert_eq!(written(1e300), serde_json::to_string(&1e300).unwrap());
    }

    #[test]
    fn strings_and_whole_numbers_are_written_as_they_are() {
        let value = serde_json::json!({
            "name": "vm 0.30000000000000004 \"1.0000000000000002\"",
            "x": 0.30000000000000004,
            "n": -2,
            "list": [1.0000000000000002, 7]
        });
        let text = pretty(&value).unwrap();
        let expected = "{\n  \"list\": [\n    1.0,\n    7\n  ],\n  \"n\": -2,\n  \"name\": \
                        \"vm 0.30000000000000004 \\\"1.0000000000000002\\\"\",\n  \"x\": 0.3\n}\n";
        assert_eq!(text, expected);
        // The layout is serde_json's own pretty layout.
        assert_eq!(
            text.replace("1.0,", "1.0000000000000002,")
                .replace("0.3\n", "0.30000000000000004\n"),
            serde_json::to_string_pretty(&value).unwrap() + "\n"
        );
    }
}

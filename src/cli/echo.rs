//! Long command-line values echoed clipped: clap's "invalid value '...'" and the
//! subcommands' own messages quote a value as given, so a 100 KB `--host-sku` would come
//! back whole on stderr. Every argument longer than [`LONGEST_ECHOED_CHARS`] is replaced in
//! the message by its [`dsplan::numbers::clip`]ped form, as values from files are.

use std::ffi::OsString;

/// Longest argument, in characters, that a message may echo whole: longer than any real
/// path (Linux's `PATH_MAX` is 4,096 bytes) or flag value, so only hostile or mistaken
/// values are clipped.
pub const LONGEST_ECHOED_CHARS: usize = 4_096;

/// `message` with every argument of `args` (and the value of a `--flag=value`) longer than
/// [`LONGEST_ECHOED_CHARS`] characters replaced by its clipped form (its first 60
/// characters, `...` and its length).
pub fn clip_long_args(message: &str, args: &[OsString]) -> String {
    let mut long: Vec<String> = Vec::new();
    for arg in args {
        let arg = arg.to_string_lossy();
        let value = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => value,
            _ => &arg,
        };
        for text in [&*arg, value] {
            if text.chars().nth(LONGEST_ECHOED_CHARS).is_some() {
                long.push(text.to_string());
            }
        }
    }
    // The longest first, so a value is not cut inside the `--flag=value` holding it.
    long.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let mut out = message.to_string();
    for text in long {
        if out.contains(&text) {
            out = out.replace(&text, &dsplan::numbers::clip(&text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_arguments_over_the_limit_are_clipped() {
        // 5,000 r's: over 4,096; the message keeps its first 60 and the length.
        let big = "r".repeat(5_000);
        let short = "/data/export.xlsx".to_string();
        let args: Vec<OsString> = vec![
            "dsplan".into(),
            "--host-sku".into(),
            big.clone().into(),
            format!("--region={big}s").into(),
            short.clone().into(),
        ];
        let message = format!("invalid --host-sku: {big}; region '{big}s'; file {short}");
        let shown = clip_long_args(&message, &args);
        let r60 = "r".repeat(60);
        assert_eq!(
            shown,
            format!(
                "invalid --host-sku: {r60}... (5,000 characters); region '{r60}... (5,001 \
                 characters)'; file {short}"
            )
        );
    }
}

//! HTML escaping of text, input names included.

/// `text` safe as HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as
/// entities; control characters (but line feeds and tabs) and bidi overrides, which would
/// reorder the page's text, shown as `\u{202e}` ([`crate::report::safe::escape_controls`]).
pub fn escape(text: &str) -> String {
    use crate::report::safe::{Keep, escape_controls};
    let text = escape_controls(text, Keep::Layout);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_become_entities() {
        assert_eq!(
            escape(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert_eq!(escape("plain"), "plain");
        // A right-to-left override (U+202E) and ESC are shown, not obeyed.
        assert_eq!(escape("a\u{202e}b\u{1b}"), "a\\u{202e}b\\u{1b}");
    }
}

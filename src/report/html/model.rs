//! A model section's body as HTML: its sentences as paragraphs and its table built from
//! the typed cells (figures right-aligned), every text in customer words and escaped; a
//! name from the input is escaped, never reworded.

use std::fmt::Write as _;

use super::escape::escape;
use crate::numbers::clip_name;
use crate::report::model::headline::capitalised;
use crate::report::model::table::{Cell, Section, Table};
use crate::report::words::customer_words_with;
use crate::settings::flag;

/// The body of `section` as HTML: sentences before, the table, the list, sentences after.
pub(super) fn body_html(section: &Section) -> String {
    let mut s = String::new();
    for l in &section.lead {
        let _ = writeln!(s, "<p>{}.</p>", words(l));
    }
    if let Some(t) = &section.table {
        table_html(&mut s, t, &section.title);
    }
    if !section.items.is_empty() {
        s.push_str("<ul>\n");
        for i in &section.items {
            let item: String = i.iter().map(|c| cell_html(c, false)).collect();
            let _ = writeln!(s, "<li>{item}</li>");
        }
        s.push_str("</ul>\n");
    }
    for n in &section.notes {
        let _ = writeln!(s, "<p>{}.</p>", words(n));
    }
    s
}

/// Characters of a text cell from which it is `long` in the HTML (a sentence, not a name
/// or a figure).
const LONG_CELL_CHARS: usize = 60;

/// Marks around a setting's name while a text is reworded and escaped: private-use
/// characters, which [`escape`] leaves as they are.
const OPEN: char = '\u{e000}';
const CLOSE: char = '\u{e001}';

/// Plan words for a customer ([`crate::report::words::customer_words`]), escaped; each
/// setting by its flag in a [`setting_html`] span.
pub(super) fn words(text: &str) -> String {
    let marked = customer_words_with(text, &|name| {
        flag(name).map(|_| format!("{OPEN}{name}{CLOSE}"))
    });
    let escaped = escape(&marked);
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped.as_str();
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len_utf8()..];
        let marked = after
            .find(CLOSE)
            .and_then(|end| setting_html(&after[..end]).map(|html| (end, html)));
        match marked {
            Some((end, html)) => {
                out.push_str(&html);
                rest = &after[end + CLOSE.len_utf8()..];
            }
            // A mark from the input itself: kept as it is.
            None => {
                out.push(OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A setting (its library name, `host_price_file`) as HTML: its flag in
/// `<span class="setting" data-setting="host_price_file">`, so the web page can name its
/// own control instead (`dsplan serve`); `None` for a name that is not a setting's.
pub(super) fn setting_html(name: &str) -> Option<String> {
    flag(name).map(|f| format!("{SETTING_OPEN}{}\">{}</span>", escape(name), escape(&f)))
}

/// How [`setting_html`]'s span opens, up to the setting's name.
const SETTING_OPEN: &str = "<span class=\"setting\" data-setting=\"";

/// `html` (a report this module wrote) with the text of each setting's span
/// (`<span class="setting" data-setting="NAME">--flag</span>`) replaced by `words` of its
/// library name, escaped; the span kept. The web page's downloads so name its own
/// controls instead of the command's flags.
pub fn with_setting_words(html: &str, words: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(SETTING_OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + SETTING_OPEN.len()..];
        let (Some(q), Some(close)) = (after.find('"'), after.find("</span>")) else {
            out.push_str(&rest[i..]);
            return out;
        };
        let name = &after[..q];
        out.push_str(SETTING_OPEN);
        out.push_str(name);
        out.push_str("\">");
        out.push_str(&escape(&words(name)));
        out.push_str("</span>");
        rest = &after[close + "</span>".len()..];
    }
    out.push_str(rest);
    out
}

/// The table: header, then rows; a `setting` column names each setting by its flag. The
/// table scrolls sideways in a region named `title` that the keyboard can reach (a wide
/// table on a phone), its figures never broken over lines; a text cell of more than
/// [`LONG_CELL_CHARS`] is `long` (kept wide enough to read, rather than squeezed into a
/// tall narrow column by the figures beside it).
fn table_html(s: &mut String, t: &Table, title: &str) {
    let class = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
    let label = escape(&customer_words_with(title, &|_| None));
    let _ = write!(
        s,
        "<div class=\"table-wrap\" role=\"region\" aria-label=\"{label}\" tabindex=\"0\">\
         <table>\n<thead><tr>"
    );
    for c in &t.columns {
        let _ = write!(s, "<th{}>{}</th>", class(c.numeric), words(&c.header()));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    let settings = t.columns.first().is_some_and(|c| c.name == "setting");
    for row in &t.rows {
        s.push_str("<tr>");
        for (i, (cell, col)) in row.iter().zip(&t.columns).enumerate() {
            let text = cell_html(cell, settings && i == 0);
            let long = !col.numeric && cell.shown().chars().count() > LONG_CELL_CHARS;
            let class = if long {
                " class=\"long\""
            } else {
                class(col.numeric)
            };
            let _ = write!(s, "<td{class}>{text}</td>");
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

/// A cell as HTML: a name from the input clipped and escaped, a place in the input
/// escaped, neither reworded; a `setting`
/// (the first column of a settings table) by its flag; the rest in customer words.
fn cell_html(cell: &Cell, setting: bool) -> String {
    match cell {
        Cell::Name(n) => escape(&clip_name(n)),
        Cell::Place(p) => escape(p),
        Cell::Text(t) if setting => setting_html(t).unwrap_or_else(|| escape(&t.replace('_', " "))),
        other => words(&other.shown()),
    }
}

/// A headline's sentences, in customer words: the first in bold, then a list, each
/// starting upper case.
pub(super) fn headline_html(section: &Section) -> String {
    let mut s = String::new();
    let mut lines = section.lead.iter();
    if let Some(first) = lines.next() {
        let _ = writeln!(s, "<p><strong>{}.</strong></p>", words(first));
    }
    s.push_str("<ul>\n");
    for l in lines {
        let _ = writeln!(s, "<li>{}.</li>", words(&capitalised(l)));
    }
    s.push_str("</ul>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_marked_spans_and_the_rest_escaped_words() {
        // `host_price_file` is a setting: its flag in a span naming it; `host_memory` is not
        // one (words); a name from the input after `'` stays as it is, escaped.
        assert_eq!(
            words("give `host_price_file` for host_memory < 'b_c'"),
            "give <span class=\"setting\" data-setting=\"host_price_file\">--host-price-file\
             </span> for host memory &lt; &#39;b_c&#39;"
        );
        // The marks in the input itself: one around a setting's name makes the same
        // harmless span, any other is kept as it is.
        assert_eq!(
            words("\u{e000}iops\u{e001} \u{e000}<x>\u{e001}"),
            "<span class=\"setting\" data-setting=\"iops\">--iops</span> \u{e000}&lt;x&gt;\u{e001}"
        );
        assert_eq!(setting_html("not_a_setting"), None);
    }
}

//! The report's own Markdown (the sections and tables `report/` writes for `--format md`)
//! as HTML, so both formats show the same rows. Only what those renderers write is read:
//! headings, pipe tables with an alignment row, `- ` lists, paragraphs, `**strong**`,
//! `` `code` ``, backslash escapes and the `&lt;` / `&gt;` entities of names. Every text is
//! put in [`customer_words`] and escaped ([`escape`]).

use std::fmt::Write as _;

use super::escape::escape;
use super::model::{RAW, RAW_BREAK};
use crate::report::words::customer_words;
use crate::settings::flag;

/// A Markdown section: its heading (without `#`) and the lines under it.
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// The heading's text, Markdown.
    pub title: String,
    /// The lines below the heading, up to the next heading of the same level.
    pub body: String,
}

/// `markdown` cut at each heading of `level` (`2`: `## `); the text before the first is a
/// section with an empty title.
pub fn sections(markdown: &str, level: usize) -> Vec<Section> {
    let marker = format!("{} ", "#".repeat(level));
    let mut out = vec![Section::default()];
    for line in markdown.lines() {
        if let Some(title) = line.strip_prefix(&marker) {
            out.push(Section {
                title: title.to_string(),
                body: String::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.body.push_str(line);
            last.body.push('\n');
        }
    }
    out
}

/// The blocks of `markdown` as HTML, headings `shift` levels down (`## ` with shift 1:
/// `<h3>`).
pub fn blocks_html(markdown: &str, shift: usize) -> String {
    let mut s = String::new();
    let mut block: Vec<&str> = Vec::new();
    for line in markdown.lines() {
        if let Some(raw) = line.strip_prefix(RAW) {
            block_html(&mut s, &block, shift);
            block.clear();
            s.push_str(&raw.replace(RAW_BREAK, "\n"));
            s.push('\n');
            continue;
        }
        let starts_new = line.is_empty()
            || line.starts_with('#')
            || (line.starts_with("- ") && !block.is_empty() && !block[0].starts_with("- "))
            || (line.starts_with('|') != block.first().is_some_and(|l| l.starts_with('|')));
        if starts_new {
            block_html(&mut s, &block, shift);
            block.clear();
        }
        if !line.is_empty() {
            block.push(line);
        }
    }
    block_html(&mut s, &block, shift);
    s
}

fn block_html(s: &mut String, block: &[&str], shift: usize) {
    let Some(first) = block.first() else {
        return;
    };
    if first.starts_with('#') {
        let level = first.chars().take_while(|c| *c == '#').count();
        let h = (level + shift).min(6);
        let _ = writeln!(s, "<h{h}>{}</h{h}>", inline(first[level..].trim()));
        block_html(s, &block[1..], shift);
    } else if first.starts_with('|') {
        table_html(s, block);
    } else if first.starts_with("- ") {
        s.push_str("<ul>\n");
        for item in list_items(block) {
            let _ = writeln!(s, "<li>{}</li>", inline(&item));
        }
        s.push_str("</ul>\n");
    } else {
        let _ = writeln!(s, "<p>{}</p>", inline(&block.join(" ")));
    }
}

/// List items, each item's continuation lines joined to it.
fn list_items(block: &[&str]) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in block {
        match line.strip_prefix("- ") {
            Some(item) => items.push(item.to_string()),
            None => {
                if let Some(last) = items.last_mut() {
                    last.push(' ');
                    last.push_str(line.trim());
                }
            }
        }
    }
    items
}

/// A pipe table: the header row, the alignment row (`---:` right-aligned), the body.
fn table_html(s: &mut String, rows: &[&str]) {
    let header = cells(rows[0]);
    let right: Vec<bool> = rows
        .get(1)
        .map(|r| {
            cells(r)
                .iter()
                .map(|c| c.trim_end().ends_with(':'))
                .collect()
        })
        .unwrap_or_default();
    let class = |i: usize| {
        if right.get(i).copied().unwrap_or(false) {
            " class=\"num\""
        } else {
            ""
        }
    };
    s.push_str("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for (i, c) in header.iter().enumerate() {
        let _ = write!(s, "<th{}>{}</th>", class(i), inline(c));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    let settings = header.first().is_some_and(|h| h == "setting");
    for row in rows.iter().skip(2) {
        s.push_str("<tr>");
        for (i, c) in cells(row).iter().enumerate() {
            let text = if settings && i == 0 {
                setting_words(c)
            } else {
                inline(c)
            };
            let _ = write!(s, "<td{}>{text}</td>", class(i));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

/// A setting's name in a `setting` column: its flag, or its name in words.
fn setting_words(name: &str) -> String {
    let plain = name.replace('\\', "");
    escape(&flag(&plain).unwrap_or_else(|| plain.replace('_', " ")))
}

/// A table row's cells, split at each `|` not escaped with a backslash.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in inner.chars() {
        if c == '|' && !escaped {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push(c);
        }
        escaped = c == '\\' && !escaped;
    }
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// Inline Markdown as HTML: customer words, `**strong**`, `` `code` ``, backslash escapes,
/// the name entities; the rest escaped.
pub fn inline(markdown: &str) -> String {
    let text = customer_words(markdown)
        .replace("&lt;", "\u{0}lt")
        .replace("&gt;", "\u{0}gt");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut strong = false;
    let mut code = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push_str(&escape(&next.to_string()));
                }
            }
            '\u{0}' => {
                let a = chars.next();
                let _ = chars.next();
                out.push_str(if a == Some('l') { "&lt;" } else { "&gt;" });
            }
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str(if strong { "</strong>" } else { "<strong>" });
                strong = !strong;
            }
            '`' => {
                out.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            _ => out.push_str(&escape(&c.to_string())),
        }
    }
    if strong {
        out.push_str("</strong>");
    }
    if code {
        out.push_str("</code>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_lists_and_names_become_escaped_html() {
        let md = "## Pools\n\n| pool | TiB |\n| --- | ---: |\n| a\\|b &lt;x&gt; | 4 |\n\n\
                  - one\n- **two** data/limits.csv\n\ntext\nmore\n";
        let html = blocks_html(md, 1);
        assert_eq!(
            html,
            "<h3>Pools</h3>\n<div class=\"table-wrap\"><table>\n<thead><tr><th>pool</th>\
             <th class=\"num\">TiB</th></tr></thead>\n<tbody>\n<tr><td>a|b &lt;x&gt;</td>\
             <td class=\"num\">4</td></tr>\n</tbody></table></div>\n<ul>\n<li>one</li>\n\
             <li><strong>two</strong> dsplan&#39;s built-in table of AVS and ANF limits</li>\n\
             </ul>\n<p>text more</p>\n"
        );
    }

    #[test]
    fn sections_cut_at_their_level() {
        let s = sections("# T\nintro\n## A\na\n### A1\n## B\nb\n", 2);
        let titles: Vec<&str> = s.iter().map(|x| x.title.as_str()).collect();
        assert_eq!(titles, ["", "A", "B"]);
        assert_eq!(s[1].body, "a\n### A1\n");
    }
}

//! The document shell: one self-contained HTML file, its style inline (no font, style
//! sheet, image or script fetched from anywhere), printable on A4 and Letter.

use super::escape::escape;

/// The style sheet: screen first, then print (`@page` margins that fit A4 and Letter, a
/// page break before each section, every `<details>` shown open).
const STYLE: &str = "
:root { --ink: #1f2933; --muted: #52606d; --line: #d9e2ec; --band: #f0f4f8; --accent: #0b6bcb; }
* { box-sizing: border-box; }
body { font-family: 'Segoe UI', Helvetica, Arial, sans-serif; color: var(--ink); margin: 0;
  line-height: 1.45; font-size: 15px; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
@media (max-width: 600px) { main { padding: 12px; } }
h1 { font-size: 1.7em; margin: 0 0 4px; }
h2 { font-size: 1.3em; border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 1.1em; margin-top: 20px; }
.subtitle { color: var(--muted); margin: 0 0 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 150px;
  background: var(--band); }
.card .label { color: var(--muted); font-size: 0.85em; }
.card .value { font-size: 1.35em; font-weight: 600; }
.decision { font-size: 1.05em; border-left: 4px solid var(--accent); padding: 4px 12px; }
.table-wrap { overflow-x: auto; max-width: 100%; }
.table-wrap:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 0.88em; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--band); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.long { min-width: 22em; }
.setting { white-space: nowrap; }
tr.chosen td { font-weight: 600; }
.chart svg { max-width: 100%; height: auto; }
figure.chart { margin: 12px 0; page-break-inside: avoid; break-inside: avoid; }
details { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
.muted { color: var(--muted); }
.kind { font-size: 0.85em; border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
@page { size: auto; margin: 15mm; }
@media print {
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  section.page { break-before: page; page-break-before: always; }
  section.first { break-before: auto; page-break-before: auto; }
  details { border: none; padding: 0; }
  details:not([open]) > :not(summary) { display: block; }
  details > summary { list-style: none; }
  .table-wrap { overflow: visible; }
  table { font-size: 8pt; }
  tr, figure { break-inside: avoid; page-break-inside: avoid; }
}
";

/// The whole document: `title` in the head, `body` (HTML) in `<main>`.
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n\
         </body>\n</html>\n",
        escape(title)
    )
}

/// A section of the document, on a page of its own in print (`first`: the page the
/// document starts on).
pub fn section(id: &str, body: &str, first: bool) -> String {
    let class = if first { "page first" } else { "page" };
    format!("<section class=\"{class}\" id=\"{id}\">\n{body}</section>\n")
}

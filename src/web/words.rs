//! The page's words in the plan's downloads: a setting named by the page's control (`Host
//! term`), not by the command's flag (`--host-term`), as the page names it in the report
//! it shows (`page.js`'s `pageName`). The labels are read from `page.html` itself, so the
//! downloads cannot name a control the page does not have.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::settings::{flag, with_names};

/// Settings the page sets without a control of their name, and its words for them (as
/// `page.js`'s `SETTING_WORDS`).
const SETTING_WORDS: [(&str, &str); 4] = [
    ("host_price_file", "Host price"),
    ("price_file", "Host price"),
    ("per_cluster", "Mode (one plan per source cluster)"),
    ("io_profile", "I/O profile"),
];

/// Each setting the page has a control for and the control's label without its units
/// (`max_datastores` -> `Max datastores`): the `data-opt` (or, for `hosts`, the `id`) of
/// each `<label>`'s control in `page.html`, both the whole name and its last part
/// (`io_profile.read_pct` and `read_pct`).
fn labels() -> &'static BTreeMap<String, String> {
    static LABELS: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    LABELS.get_or_init(|| labels_of(super::assets::PAGE))
}

/// [`labels`] of the page `html`.
fn labels_of(html: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in html.split("<label for=\"").skip(1) {
        let Some(open_end) = part.find('>') else {
            continue;
        };
        let inner = &part[open_end + 1..part.find("</label>").unwrap_or(part.len())];
        let text = inner[..inner.find('<').unwrap_or(inner.len())].trim();
        // "Max datastores (per cluster)": the words without their units.
        let label = match text.rfind(" (") {
            Some(i) if text.ends_with(')') => &text[..i],
            _ => text,
        };
        let name = match inner.split("data-opt=\"").nth(1) {
            Some(rest) => &rest[..rest.find('"').unwrap_or(0)],
            None if part.starts_with("hosts\"") => "hosts",
            None => continue,
        };
        if label.is_empty() || name.is_empty() {
            continue;
        }
        out.insert(name.to_string(), label.to_string());
        if let Some((_, last)) = name.rsplit_once('.') {
            out.entry(last.to_string())
                .or_insert_with(|| label.to_string());
        }
    }
    out
}

/// A setting as the page names it: its control's label, its words for a setting it sets
/// without a control, or the name in words and that the page has no control for it.
pub fn page_name(setting: &str) -> String {
    if let Some((_, words)) = SETTING_WORDS.iter().find(|(n, _)| *n == setting) {
        return (*words).to_string();
    }
    match labels().get(setting) {
        Some(label) => label.clone(),
        None => format!(
            "{} (a setting of the dsplan command, not of this page)",
            setting.replace('_', " ")
        ),
    }
}

/// `html` (a report the HTML renderer wrote) with each setting's
/// `<span class="setting" data-setting="NAME">--flag</span>` naming the page's control.
pub fn html_in_page_words(html: &str) -> String {
    crate::report::html::with_setting_words(html, page_name)
}

/// `text` (a text or Markdown report) with each backticked setting (`` `host_term` ``) in
/// the page's words; other backticked text stays.
pub fn text_in_page_words(text: &str) -> String {
    with_names(text, |name| flag(name).map(|_| page_name(name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_the_pages_own_without_units() {
        // page.html: `<label for="max_datastores">Max datastores (per cluster) <input ...
        // data-opt="max_datastores"`, `<label for="block_size_kib">Block size (KiB) <input
        // ... data-opt="io_profile.block_size_kib"`.
        assert_eq!(page_name("max_datastores"), "Max datastores");
        assert_eq!(page_name("host_term"), "Host term");
        assert_eq!(page_name("io_profile.block_size_kib"), "Block size");
        assert_eq!(page_name("block_size_kib"), "Block size");
        assert_eq!(page_name("hosts"), "Hosts");
        assert_eq!(page_name("host_price_file"), "Host price");
        assert_eq!(
            page_name("working_set_gib"),
            "working set gib (a setting of the dsplan command, not of this page)"
        );
    }

    #[test]
    fn the_words_for_settings_without_a_control_are_page_js_s() {
        // page.js names these settings in the report it shows (`SETTING_WORDS`); the
        // downloads must name them alike: the same pairs, no more, no fewer.
        let js = super::super::assets::PAGE_JS;
        let start = js.find("const SETTING_WORDS = {").unwrap();
        let object = &js[start..start + js[start..].find('}').unwrap()];
        for (name, words) in SETTING_WORDS {
            assert!(
                object.contains(&format!("{name}: \"{words}\"")),
                "{name}: {object}"
            );
        }
        assert_eq!(
            object.matches(": \"").count(),
            SETTING_WORDS.len(),
            "{object}"
        );
    }

    #[test]
    fn downloads_name_the_pages_controls_not_flags() {
        let html = "give <span class=\"setting\" data-setting=\"host_price_file\">\
                    --host-price-file</span> or raise <span class=\"setting\" \
                    data-setting=\"max_datastores\">--max-datastores</span>.";
        assert_eq!(
            html_in_page_words(html),
            "give <span class=\"setting\" data-setting=\"host_price_file\">Host price</span> \
             or raise <span class=\"setting\" data-setting=\"max_datastores\">Max \
             datastores</span>."
        );
        assert_eq!(
            text_in_page_words("raise `max_datastores`; `vm-01` stays"),
            "raise Max datastores; `vm-01` stays"
        );
    }
}

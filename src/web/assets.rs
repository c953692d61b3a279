//! The page's files, compiled in: served by `api.rs`, read for its words by `words.rs`.

/// The page: its HTML (inline style, no inline script).
pub(super) const PAGE: &str = include_str!("page.html");

/// The page's script, served as `/page.js` (the CSP allows no inline script).
pub(super) const PAGE_JS: &str = include_str!("page.js");

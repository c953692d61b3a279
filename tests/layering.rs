//! The shape of `src/`: data flows one way (no module imports a later stage), and no file
//! is too long to find one's way in.
//!
//! Stages, earliest first. A module may use its own stage and those before it:
//! `defaults`, `numbers` (shared constants and number formatting), `settings` (setting
//! names to flags), `setters` (the options' chaining setters) -> `catalog` -> `perf`
//! -> `inventory` -> `ingest` -> `demand` -> `vsan` -> `sizing` -> `plan` (the output types the
//! optimizer fills) -> `optimize` -> `report` -> `error` -> `planner` -> `web` (`dsplan serve`) -> the command
//! (`main.rs`, `cli/`).

use std::path::{Path, PathBuf};

/// Module name and its stage number.
const STAGES: [(&str, u32); 19] = [
    ("defaults", 0),
    ("numbers", 0),
    ("settings", 0),
    ("setters", 0),
    ("spelling", 0),
    ("catalog", 1),
    ("perf", 2),
    ("inventory", 3),
    ("ingest", 4),
    ("demand", 5),
    ("vsan", 6),
    ("sizing", 7),
    ("plan", 8),
    ("optimize", 9),
    ("report", 10),
    ("error", 11),
    ("planner", 12),
    ("prelude", 12),
    ("web", 13),
];

/// Names the crate root re-exports, and the module they come from.
const ROOT_REEXPORTS: [(&str, &str); 5] = [
    ("Error", "error"),
    ("ErrorKind", "error"),
    ("Planner", "planner"),
    ("PlanOptions", "planner"),
    ("Planned", "planner"),
];

/// Longest file allowed under `src/`, lines.
const MAX_LINES: usize = 900;

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn stage(module: &str) -> Option<u32> {
    STAGES.iter().find(|(m, _)| *m == module).map(|(_, s)| *s)
}

/// The top-level module a file belongs to (`src/optimize/milp.rs` -> `optimize`); `None`
/// for the crate root and the command, which may use every stage.
fn module_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (!matches!(name.as_str(), "lib" | "main" | "cli")).then_some(name)
}

/// Every module a line of code names through `crate::`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue; // `crate::{...}`, read below
        }
        let module = ROOT_REEXPORTS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(name, |(_, m)| (*m).to_string());
        out.push(module);
    }
    // `use crate::{a, b::C}` lists several modules.
    if let Some(i) = line.find("use crate::{") {
        for part in line[i + "use crate::{".len()..].split(',') {
            let name: String = part
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn no_module_imports_a_later_stage() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut violations = Vec::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let own = stage(&module)
            .unwrap_or_else(|| panic!("{}: module {module} has no stage", file.display()));
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue; // docs may point anywhere
            }
            for used in crate_paths(line) {
                match stage(&used) {
                    Some(s) if s > own => violations.push(format!(
                        "{}:{}: {module} uses the later stage {used}",
                        file.display(),
                        n + 1
                    )),
                    _ => {}
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn every_module_has_a_stage() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for file in &files {
        if let Some(module) = module_of(file) {
            assert!(
                stage(&module).is_some(),
                "{}: add {module} to STAGES",
                file.display()
            );
        }
    }
}

#[test]
fn no_file_under_src_is_over_900_lines() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_checker_sees_imports() {
    // `use crate::{catalog::X, perf}` names two modules; a re-exported name maps to its
    // module.
    assert_eq!(
        crate_paths("use crate::{catalog::Catalog, perf::IoProfile};"),
        ["catalog", "perf"]
    );
    assert_eq!(crate_paths("fn f() -> crate::Error {"), ["error"]);
}

/// A file's module path under `src/` (`src/ingest/csvzip.rs` -> `["ingest", "csvzip"]`,
/// `src/ingest/mod.rs` -> `["ingest"]`, `src/lib.rs` -> `[]`).
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's code without its test module and comment lines.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The leading identifier of `s`.
fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Every module path the code of the module at `own` names through `super::` or
/// `crate::`, as absolute paths of their first segments after the prefix (`super::x::Y`
/// in `ingest::a` -> `["ingest", "x"]`; `use super::{x, y::Z}` -> both).
fn named_paths(own: &[String], is_mod_file: bool, code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(['s', 'c']) {
        rest = &rest[i..];
        // Only at a path's start: not inside another identifier.
        let (base, after): (Vec<String>, &str) = if rest.starts_with("super::") {
            let mut up = 0;
            let mut r = rest;
            while let Some(s) = r.strip_prefix("super::") {
                up += 1;
                r = s;
            }
            // In `x/mod.rs` (or `lib.rs`) `super` is the parent of `x`; in `x/y.rs` it is `x`.
            let keep = own.len().saturating_sub(up + usize::from(is_mod_file));
            (own[..keep].to_vec(), r)
        } else if let Some(r) = rest.strip_prefix("crate::") {
            (Vec::new(), r)
        } else {
            rest = &rest[1..];
            continue;
        };
        if let Some(list) = after.strip_prefix('{') {
            let list = &list[..list.find('}').unwrap_or(list.len())];
            for part in list.split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    let mut p = base.clone();
                    p.push(name);
                    out.push(p);
                }
            }
        } else {
            let mut p = base.clone();
            let mut r = after;
            loop {
                let name = ident(r);
                if name.is_empty() {
                    break;
                }
                p.push(name.clone());
                match r[name.len()..].strip_prefix("::") {
                    Some(next) => r = next,
                    None => break,
                }
            }
            out.push(p);
        }
        rest = after;
    }
    out
}

#[test]
fn no_files_import_each_other_in_a_ring() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    // Each file is a module; a path it names is the deepest module (file) the path starts
    // with (`super::hybrid::AnfOracle` in `estate/oracle.rs` names `estate/hybrid.rs`). A
    // module file and the files of its own folder (its children, who name `super`) are
    // not a ring: only imports between files neither of which holds the other count.
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_path(f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let own = module_path(file);
        let is_mod_file = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs");
        for named in named_paths(&own, is_mod_file, &code_of(file)) {
            let Some(to) = (1..=named.len())
                .rev()
                .map(|n| named[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let nested = own.starts_with(&to) || to.starts_with(&own);
            if !nested {
                edges.entry(own.clone()).or_default().insert(to);
            }
        }
    }
    let mut rings = Vec::new();
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&Vec<String>> = edges[start].iter().collect();
        while let Some(n) = stack.pop() {
            if n == start {
                rings.push(format!("{} reaches itself", start.join("::")));
                break;
            }
            if seen.insert(n) {
                stack.extend(edges.get(n).into_iter().flatten());
            }
        }
    }
    assert!(
        rings.is_empty(),
        "files importing each other in a ring:\n{}",
        rings.join("\n")
    );
}

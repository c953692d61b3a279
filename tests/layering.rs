//! The shape of `src/`: data flows one way (no module imports a later stage), and no file
//! is too long to find one's way in.
//!
//! Stages, earliest first. A module may use its own stage and those before it:
//! `defaults`, `numbers` (shared constants and number formatting), `settings` (setting
//! names to flags) -> `catalog` -> `perf`
//! -> `inventory` -> `ingest` -> `demand` -> `vsan` -> `sizing` -> `plan` (the output types the
//! optimizer fills) -> `optimize` -> `report` -> `error` -> `planner` -> `web` (`dsplan serve`) -> the command
//! (`main.rs`, `cli/`).

use std::path::{Path, PathBuf};

/// Module name and its stage number.
const STAGES: [(&str, u32); 17] = [
    ("defaults", 0),
    ("numbers", 0),
    ("settings", 0),
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

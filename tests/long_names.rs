//! VM names longer than vSphere allows (80 characters): one ingest warning, names clipped
//! to 60 characters + `…` in the text and Markdown reports, whole in the JSON up to the
//! 256 characters kept of any name (`ingest::MAX_NAME_CHARS`; a longer cell is clipped
//! where it is read, with its own warning).

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::PathBuf;

include!("support/command.rs");

/// `fixtures/small-estate-vinfo.csv` with web-01 renamed to 100,000 `L`s (its In Use
/// raised to 151,200 MiB, above its 102,400 Provisioned, so a warning names it) and
/// web-02 renamed to 90 `M`s and made a template (so it is listed as excluded).
fn long_names_csv(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("long_names")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("fixtures/small-estate-vinfo.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert!(lines[1].starts_with("\"web-01\",") && lines[2].starts_with("\"web-02\","));
    lines[1] = lines[1]
        .replacen("\"web-01\"", &format!("\"{}\"", "L".repeat(100_000)), 1)
        .replacen("\"51,200\",\"51,200\"", "\"151,200\",\"51,200\"", 1);
    lines[2] = lines[2]
        .replacen("\"web-02\"", &format!("\"{}\"", "M".repeat(90)), 1)
        .replacen("\"False\",\"False\"", "\"True\",\"False\"", 1);
    let path = dir.join("long.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn run_ok(args: &[&str]) -> String {
    let o = dsplan(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_100000_character_name_is_warned_once_and_clipped_in_text_and_markdown() {
    let input = long_names_csv("reports");
    let input = input.to_str().unwrap();
    let sixty_l = "L".repeat(60);
    // The estate as ANF for all (its placement tables name the VMs; on vSAN alone, the
    // fixture's cheapest design, no table lists them).
    for extra in [
        &["--hosts", "3"][..],
        &["--design", "anf"],
        &["--per-cluster"],
    ] {
        for format in ["text", "md"] {
            let mut args = vec!["plan", input, "--format", format];
            // `--detail`: the estate's text with each cluster's plan, its placement table
            // (Markdown always has them).
            if format == "text" {
                args.push("--detail");
            }
            args.extend_from_slice(extra);
            let out = run_ok(&args);
            // Before: the placement table printed all 100,000 characters (~206 KB); the
            // estate's report is about 30 KB with its assumptions' sources, its designs
            // section, gateway source and its performance and utilisation table with its
            // note on what each cluster's targets and predictions hold.
            assert!(out.len() < 32_000, "{args:?}: {} bytes", out.len());
            assert!(!out.contains(&"L".repeat(61)), "{args:?}");
            assert_eq!(
                out.matches("longer than the 80 characters vSphere allows")
                    .count(),
                1,
                "{args:?}"
            );
            // The placement table shows 60 `L`s and the ellipsis.
            assert!(out.contains(&format!("{sixty_l}…")), "{args:?}");
        }
    }
    // The text's excluded list clips the 90-character template's name to 60 + `…`.
    let text = run_ok(&["plan", input, "--hosts", "3"]);
    assert!(
        text.contains(&format!("{}… [template]", "M".repeat(60))),
        "{text}"
    );
    // The warning: 2 names over 80, each quoted by numbers::clip (60 characters and the
    // length): the 100,000 `L`s were kept as their first 256 when read.
    assert!(text.contains(&format!(
        "2 VM name(s) longer than the 80 characters vSphere allows (is the input damaged?): \
         '{sixty_l}... (256 characters)', '{}... (90 characters)'",
        "M".repeat(60)
    )));
    // The read's own warning gives the cell's length and what was kept.
    assert!(
        text.contains("text of 100,000 characters; its first 256 are kept"),
        "{text}"
    );
}

#[test]
fn the_json_keeps_the_whole_name_up_to_256_characters() {
    let input = long_names_csv("json");
    let out = run_ok(&[
        "plan",
        input.to_str().unwrap(),
        "--hosts",
        "3",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 100,000 `L`s in the cell; the first 256 kept (ingest::MAX_NAME_CHARS).
    let long = "L".repeat(256);
    assert_eq!(dsplan::ingest::MAX_NAME_CHARS, 256);
    let placed = v["placements"].as_array().unwrap();
    assert!(placed.iter().any(|p| p["vm"] == long.as_str()));
    assert!(!out.contains(&"L".repeat(257)));
    let excluded = v["excluded"].as_array().unwrap();
    assert!(
        excluded
            .iter()
            .any(|e| e["name"] == "M".repeat(90).as_str())
    );
    let warnings = v["warnings"].as_array().unwrap();
    let long_warnings = warnings
        .iter()
        .filter(|w| w["message"].as_str().unwrap().contains("vSphere allows"))
        .count();
    assert_eq!(long_warnings, 1);
    // The name is in the JSON once (the placement); warnings quote it clipped.
    assert_eq!(out.matches(&long).count(), 1);
}

#[test]
fn names_of_80_characters_are_not_warned() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("long_names");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("fixtures/small-estate-vinfo.csv")).unwrap();
    let path = dir.join("eighty.csv");
    std::fs::write(
        &path,
        text.replacen("\"web-01\"", &format!("\"{}\"", "é".repeat(80)), 1),
    )
    .unwrap();
    let out = run_ok(&["inventory", path.to_str().unwrap()]);
    assert!(!out.contains("vSphere allows"), "{out}");
}

// Included with `include!` by tests that run `dsplan plan` for its JSON (after
// `support/command.rs` and `support/schema_check.rs`, whose `dsplan`, `stderr` and
// `assert_schema_valid` it uses).

/// `dsplan plan` with `args` as JSON, checked against the schema; the command must succeed.
#[allow(dead_code)]
fn plan_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["plan"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let o = dsplan(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_schema_valid(&json);
    json
}

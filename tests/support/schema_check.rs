// Checks a JSON the test suite emits against the committed schemas under `schema/`
// (`include!`d by the test files that emit JSON, so every plan, inventory and predict JSON
// they produce is validated, not only those of `tests/schema.rs`).

use std::sync::OnceLock;

/// The validator of the committed `schema/<file>`, built once per test binary.
#[allow(dead_code)]
fn schema_validator(file: &str) -> &'static jsonschema::Validator {
    static PLAN: OnceLock<jsonschema::Validator> = OnceLock::new();
    static INVENTORY: OnceLock<jsonschema::Validator> = OnceLock::new();
    static PREDICT: OnceLock<jsonschema::Validator> = OnceLock::new();
    let cell = if file == dsplan::report::schema::INVENTORY_SCHEMA_FILE {
        &INVENTORY
    } else if file == dsplan::report::schema::PREDICT_SCHEMA_FILE {
        &PREDICT
    } else {
        &PLAN
    };
    cell.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; write it with `cargo run --example write_schema`", path.display()));
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        jsonschema::validator_for(&schema).unwrap()
    })
}

/// The validation errors of `json`, one line each (empty when valid).
#[allow(dead_code)]
fn schema_errors(validator: &jsonschema::Validator, json: &serde_json::Value) -> Vec<String> {
    validator
        .iter_errors(json)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Asserts that `json` (a plan of any shape, an inventory, told apart by its `inputs`
/// field, or a `predict` document, by its `layout` and `layers` fields) validates against
/// its committed schema; other JSON is not checked.
#[allow(dead_code)]
fn assert_schema_valid(json: &serde_json::Value) {
    let Some(obj) = json.as_object() else {
        return;
    };
    let file = if obj.contains_key("inputs") && obj.contains_key("summary") {
        dsplan::report::schema::INVENTORY_SCHEMA_FILE
    } else if obj.contains_key("layout") && obj.contains_key("layers") {
        dsplan::report::schema::PREDICT_SCHEMA_FILE
    } else if ["pools", "total", "sku_alternatives"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        dsplan::report::schema::PLAN_SCHEMA_FILE
    } else {
        return;
    };
    let errors = schema_errors(schema_validator(file), json);
    assert!(errors.is_empty(), "JSON against schema/{file}:\n{}", errors.join("\n"));
}

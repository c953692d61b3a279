// Checks a JSON the test suite emits against the committed schemas under `schema/`
// (`include!`d by the test files that emit JSON, so every plan and inventory JSON they
// produce is validated, not only those of `tests/schema.rs`).

use std::sync::OnceLock;

/// The validator of `schema/<file>`, built once per test binary.
fn schema_validator(file: &str, cell: &'static OnceLock<jsonschema::Validator>) -> &'static jsonschema::Validator {
    cell.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        jsonschema::validator_for(&schema).unwrap()
    })
}

/// Asserts that `json` (a plan of any shape, or an inventory: told apart by its
/// `inputs` field) validates against its committed schema; other JSON (`predict`) is not
/// checked.
#[allow(dead_code)]
fn assert_schema_valid(json: &serde_json::Value) {
    static PLAN: OnceLock<jsonschema::Validator> = OnceLock::new();
    static INVENTORY: OnceLock<jsonschema::Validator> = OnceLock::new();
    let Some(obj) = json.as_object() else {
        return;
    };
    let validator = if obj.contains_key("inputs") && obj.contains_key("summary") {
        schema_validator("inventory.schema.json", &INVENTORY)
    } else if ["pools", "total", "sku_alternatives"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        schema_validator("plan.schema.json", &PLAN)
    } else {
        return;
    };
    let errors: Vec<String> = validator
        .iter_errors(json)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "JSON against schema/:\n{}", errors.join("\n"));
}

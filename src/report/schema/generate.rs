//! The schemas generated from the Rust types with schemars (the `schema` feature).

use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Value, json};

use crate::plan::{ClusterPlans, EstatePlan, Plan, SCHEMA_VERSION};
use crate::report::predict::{PREDICT_SCHEMA_VERSION, PredictJson};
use crate::report::{InventoryReport, ReportError};

fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
}

/// Pins `schema_version` of an object schema to `version`, so a JSON of another version
/// fails validation at that field.
fn pin_version(schema: &mut Value, version: u32) {
    if let Some(field) = schema
        .pointer_mut("/properties/schema_version")
        .and_then(Value::as_object_mut)
    {
        field.insert("const".into(), json!(version));
    }
}

fn pretty(schema: &Value) -> Result<String, ReportError> {
    Ok(serde_json::to_string_pretty(schema)? + "\n")
}

/// The schema of `dsplan plan --format json`: any of the three shapes it prints, a
/// [`Plan`] (`hosts` given), [`ClusterPlans`] (`per_cluster`) or an [`EstatePlan`]
/// (otherwise), as pretty JSON ending in a newline.
///
/// # Errors
/// [`ReportError::Json`] if the schema cannot be serialized (not expected).
pub fn plan_schema() -> Result<String, ReportError> {
    let mut generator = generator();
    let shapes = [
        generator.subschema_for::<Plan>(),
        generator.subschema_for::<ClusterPlans>(),
        generator.subschema_for::<EstatePlan>(),
    ];
    let mut definitions = generator.take_definitions(true);
    for name in ["Plan", "ClusterPlans", "EstatePlan"] {
        if let Some(shape) = definitions.get_mut(name) {
            pin_version(shape, SCHEMA_VERSION);
        }
    }
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dsplan plan",
        "description": format!(
            "The JSON of `dsplan plan --format json` (schema_version {SCHEMA_VERSION}): a Plan \
             with `--hosts`, ClusterPlans with `--per-cluster`, an EstatePlan otherwise."
        ),
        "anyOf": shapes,
        "$defs": definitions,
    });
    pretty(&schema)
}

/// The schema of `dsplan inventory --json` ([`InventoryReport`]), as pretty JSON ending in
/// a newline.
///
/// # Errors
/// [`ReportError::Json`] if the schema cannot be serialized (not expected).
pub fn inventory_schema() -> Result<String, ReportError> {
    let schema = generator().into_root_schema_for::<InventoryReport<'static>>();
    let mut schema = serde_json::to_value(schema)?;
    pin_version(&mut schema, SCHEMA_VERSION);
    pretty(&schema)
}

/// The schema of `dsplan predict --json` ([`PredictJson`], `schema_version`
/// [`PREDICT_SCHEMA_VERSION`]), as pretty JSON ending in a newline.
///
/// # Errors
/// [`ReportError::Json`] if the schema cannot be serialized (not expected).
pub fn predict_schema() -> Result<String, ReportError> {
    let schema = generator().into_root_schema_for::<PredictJson<'static>>();
    let mut schema = serde_json::to_value(schema)?;
    pin_version(&mut schema, PREDICT_SCHEMA_VERSION);
    pretty(&schema)
}

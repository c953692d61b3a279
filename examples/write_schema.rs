//! Writes the JSON Schemas of the plan, inventory and predict JSON to `schema/` (run it after
//! changing a serialized type; `tests/schema.rs` fails while the committed copies are
//! stale):
//!
//! ```text
//! cargo run --example write_schema
//! ```

use std::path::Path;

use dsplan::report::schema::{
    INVENTORY_SCHEMA_FILE, PLAN_SCHEMA_FILE, PREDICT_SCHEMA_FILE, inventory_schema, plan_schema,
    predict_schema,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    std::fs::create_dir_all(&dir)?;
    for (file, text) in [
        (PLAN_SCHEMA_FILE, plan_schema()?),
        (INVENTORY_SCHEMA_FILE, inventory_schema()?),
        (PREDICT_SCHEMA_FILE, predict_schema()?),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

//! Fits the built-in performance profiles once, at build time.
//!
//! The fit (`src/perf/fit.rs`: every `fit:` parameter of `data/systems/*.csv` against the
//! published figures in `data/calibration/*.csv`) used to run at every start-up. This script
//! compiles the crate's own `perf`, `catalog`, `defaults` and `numbers` modules (no copy of the fit code), runs the
//! fit and writes `$OUT_DIR/fitted_params.rs`: each fitted value as its `f64` bits, so the
//! crate gets exactly the values the search finds. `src/perf/fit.rs` includes that file
//! when the `dsplan_fitted_at_build` cfg, set here, is on. No network, only `std` and the
//! crate's own dependencies.
#![allow(dead_code, unused_imports, unused_macros)]

#[path = "src/catalog/mod.rs"]
mod catalog;
#[path = "src/defaults.rs"]
mod defaults;
#[path = "src/numbers.rs"]
mod numbers;
#[path = "src/perf/mod.rs"]
mod perf;

use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    for path in [
        "build.rs",
        "data",
        "src/perf",
        "src/catalog",
        "src/defaults.rs",
        "src/numbers.rs",
    ] {
        println!("cargo::rerun-if-changed={path}");
    }
    let model = perf::fit::fit_builtin()
        .map_err(|e| format!("fitting the built-in performance profiles: {e}"))?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("fitted_params.rs");
    let mut src = String::from("&[\n");
    for f in model.fitted() {
        src.push_str(&format!(
            "    ({:?}, {:?}, {:#018x}), // {:?}\n",
            f.system,
            f.parameter,
            f.value.to_bits(),
            f.value
        ));
    }
    src.push_str("]\n");
    std::fs::write(&out, src)?;
    println!("cargo::rustc-cfg=dsplan_fitted_at_build");
    Ok(())
}

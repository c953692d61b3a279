//! The JSON document of `dsplan predict --json`: what one layout achieves, layer by layer.
//! Its schema is [`super::schema::predict_schema`] (`schema/predict.schema.json`).

use serde::Serialize;

use super::ReportError;
use crate::catalog::CoolThroughputRule;
use crate::perf::{Extrapolation, IoProfile, Layer, LayerCeiling, Layout};

/// Version of the [`PredictJson`] shape (its own counter, independent of the plan's
/// [`crate::plan::SCHEMA_VERSION`]).
pub const PREDICT_SCHEMA_VERSION: u32 = 1;

/// The JSON document of `dsplan predict --json`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictJson<'a> {
    /// Version of this document's shape ([`PREDICT_SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// System profile evaluated (`anf-avs`, `vsan-hybrid` ... or a profile file's name).
    pub system: &'a str,
    /// Achievable IOPS.
    pub iops: f64,
    /// Achievable MiB/s.
    pub throughput_mibps: f64,
    /// The binding layer.
    pub bottleneck: Layer,
    /// Every layer's ceiling (IOPS, MiB/s) and utilization (0..=1), in evaluation order.
    pub layers: &'a [LayerCeiling],
    /// Cache-tier systems: whether the working set fits the read cache; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub working_set_fits_cache: Option<bool>,
    /// The layout evaluated.
    pub layout: &'a Layout,
    /// The workload evaluated.
    pub io_profile: &'a IoProfile,
    /// With a service level and a cool percentage: the pool's MiB/s per TiB under cool
    /// access (data/cool_access.csv); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cool_access_rate_mibps_per_tib: Option<f64>,
    /// The cool-access throughput rule applied in the region (`legacy` or
    /// `lower_of_legacy_and_per_volume`); absent when no rate is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cool_access_rule: Option<CoolThroughputRule>,
    /// Whether the layout is beyond the system's published measurements (`extrapolated`,
    /// `measured_range`, `beyond`).
    #[serde(flatten)]
    pub extrapolation: &'a Extrapolation,
}

/// `doc` as pretty JSON ending in a newline.
///
/// # Errors
/// [`ReportError::Json`] if a figure is not finite.
pub fn predict_json(doc: &PredictJson<'_>) -> Result<String, ReportError> {
    Ok(serde_json::to_string_pretty(doc)? + "\n")
}

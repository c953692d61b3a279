//! [`HostSkuName`]: an AVS host SKU as a setting (`av36p`, `AV64`, `AV64 Gen2`).

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::VsanCatalog;
use crate::numbers::clip;

/// An AVS host SKU as a setting (`PlanOptions::host_sku`): the `sku` of a row of
/// `data/avs_hosts.csv` (`av36`, `av36p`, `av48`, `av52`, `av64`, `av64-gen2`).
///
/// `str::parse` accepts the names as Microsoft's pages write them (`AV36P`, `AV64 Gen2`:
/// any case, a space or `_` for `-`), gives the catalog's spelling, and refuses a SKU the
/// built-in catalog does not have, listing those it has. `From<&str>` takes any text (the
/// planner checks it then, with the same list), so a struct literal can write
/// `Some("av64".into())`.
///
/// ```
/// use dsplan::vsan::HostSkuName;
///
/// let sku: HostSkuName = "AV64 Gen2".parse()?;
/// assert_eq!(sku, "av64-gen2");
/// assert_eq!(sku.to_string(), "av64-gen2");
/// let err = "av99".parse::<HostSkuName>().unwrap_err();
/// assert!(err.to_string().contains("av36p"), "{err}");
/// # Ok::<(), dsplan::vsan::UnknownHostSku>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HostSkuName(String);

/// A host SKU the built-in catalog (`data/avs_hosts.csv`) does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown host SKU '{given}' (one of: {known})")]
pub struct UnknownHostSku {
    /// The name given, clipped as messages quote values.
    pub given: String,
    /// The catalog's SKUs, comma-separated.
    pub known: String,
}

impl HostSkuName {
    /// The SKU as held.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `s` in the catalog's spelling: trimmed, lower case, spaces and `_` as `-`.
fn spelled(s: &str) -> String {
    s.trim()
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_lowercase()
}

impl FromStr for HostSkuName {
    type Err = UnknownHostSku;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = spelled(s);
        let known: Vec<String> = VsanCatalog::builtin()
            .map(|c| c.hosts.into_iter().map(|h| h.sku).collect())
            .unwrap_or_default();
        if known.contains(&key) {
            Ok(HostSkuName(key))
        } else {
            Err(UnknownHostSku {
                given: clip(s),
                known: known.join(", "),
            })
        }
    }
}

crate::settings::text_setting!(HostSkuName);

impl PartialEq<str> for HostSkuName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for HostSkuName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

//! [`Region`]: an Azure region as a setting, written as its ARM name or its display name.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::regions::arm_region_name;
use crate::numbers::clip;

/// An Azure region as a setting (`PlanOptions::region`), kept as written: its ARM name
/// (`westeurope`) or its display name (`West Europe`), any case. Two regions are equal
/// when their ARM names are ([`Region::arm_name`]). Whether the catalog prices it and AVS
/// takes ANF datastores there is checked when planning, where the error lists the regions
/// that plan.
///
/// `str::parse` refuses text that cannot be a region's name; `From<&str>` takes any text
/// (the planner's check then names it), so a struct literal can write `"westeurope".into()`.
///
/// ```
/// use dsplan::catalog::Region;
///
/// let r: Region = "West Europe".parse()?;
/// assert_eq!(r.arm_name(), "westeurope");
/// assert_eq!(r, Region::from("westeurope"));
/// assert_eq!(r, "WESTEUROPE");
/// assert_eq!(r.to_string(), "West Europe");
/// assert!("west/europe".parse::<Region>().is_err());
/// # Ok::<(), dsplan::catalog::InvalidRegion>(())
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Region(String);

/// Text that cannot be an Azure region's name: empty, or holding a character other than
/// letters, digits, spaces, `-` and `_`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid region '{given}': an Azure region is written as its ARM name (westeurope) or its \
     display name (West Europe)"
)]
pub struct InvalidRegion {
    /// The text given, clipped as messages quote values.
    pub given: String,
}

impl Region {
    /// The ARM name: lower case, without spaces, `-` or `_` ([`arm_region_name`]).
    pub fn arm_name(&self) -> String {
        arm_region_name(&self.0)
    }

    /// The region as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Region {
    type Err = InvalidRegion;

    /// The region written `s` (trimmed), refused when it cannot be a region's name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let arm = arm_region_name(t);
        if arm.is_empty() || !arm.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(InvalidRegion { given: clip(s) });
        }
        Ok(Region(t.to_string()))
    }
}

crate::settings::text_setting!(Region);

impl PartialEq for Region {
    fn eq(&self, other: &Region) -> bool {
        self.arm_name() == other.arm_name()
    }
}

impl Eq for Region {}

impl PartialEq<str> for Region {
    fn eq(&self, other: &str) -> bool {
        self.arm_name() == arm_region_name(other)
    }
}

impl PartialEq<&str> for Region {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

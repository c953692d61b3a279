//! The regions where Azure NetApp Files volumes can be attached to Azure VMware Solution as
//! datastores (`data/avs_anf_regions.csv`), and region names as users write them.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{CatalogError, parse_rows};

/// `data/avs_anf_regions.csv`, compiled in: the regions the AVS attach page lists for ANF
/// datastores \[ATTACH\] (learn.microsoft.com/azure/azure-vmware/
/// attach-azure-netapp-files-to-azure-vmware-solution-hosts, 2025-10-14: 33 regions).
pub const AVS_ANF_REGIONS_CSV: &str = include_str!("../../data/avs_anf_regions.csv");

/// One region that supports ANF datastores for AVS (a row of `data/avs_anf_regions.csv`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AvsRegion {
    /// ARM name (`westeurope`).
    pub region: String,
    /// Display name as the page lists it (`West Europe`).
    pub display_name: String,
    /// Page and date.
    pub source: String,
}

/// The ARM name of a region written as an ARM name or a display name: trimmed, lower case,
/// without spaces (`"West Europe"` and `"westeurope"` are both `westeurope`; Azure's ARM
/// names are the display names written that way).
pub fn arm_region_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The regions of `data/avs_anf_regions.csv`, in file order.
///
/// # Errors
/// [`CatalogError::Parse`] if the compiled-in file is malformed (a build defect; tests
/// cover it).
pub fn avs_anf_regions() -> Result<Vec<AvsRegion>, CatalogError> {
    parse_rows("avs_anf_regions.csv", AVS_ANF_REGIONS_CSV)
}

/// Whether ANF datastores for AVS are listed for `region` (ARM or display name). The
/// compiled-in list is parsed once per process (every AVS cluster's plan asks, twice: a
/// generated 50,000-VM estate has 204 clusters over the two priced host SKUs).
///
/// # Errors
/// As [`avs_anf_regions`].
pub fn avs_supports_anf_datastores(region: &str) -> Result<bool, CatalogError> {
    static ARM_NAMES: OnceLock<Vec<String>> = OnceLock::new();
    let arm = arm_region_name(region);
    let names = match ARM_NAMES.get() {
        Some(names) => names,
        None => {
            let names = avs_anf_regions()?.into_iter().map(|r| r.region).collect();
            ARM_NAMES.get_or_init(|| names)
        }
    };
    Ok(names.contains(&arm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attach_page_lists_33_regions_each_with_its_source() {
        // 2025-10-14 page: 33 bullet points under "Supported regions".
        let regions = avs_anf_regions().unwrap();
        assert_eq!(regions.len(), 33);
        for r in &regions {
            assert_eq!(r.region, arm_region_name(&r.display_name));
            assert!(r.source.contains("(2025-10-14"), "{}", r.source);
        }
        // The fixtures and tests plan in eastus and westeurope.
        assert!(avs_supports_anf_datastores("eastus").unwrap());
        assert!(avs_supports_anf_datastores("West Europe").unwrap());
        assert!(!avs_supports_anf_datastores("koreacentral").unwrap());
    }

    #[test]
    fn display_names_become_arm_names() {
        assert_eq!(arm_region_name(" West Europe "), "westeurope");
        assert_eq!(arm_region_name("EAST US 2"), "eastus2");
        assert_eq!(arm_region_name("eastus"), "eastus");
    }

    #[test]
    fn every_listed_region_is_priced() {
        let catalog = super::super::Catalog::builtin().unwrap();
        for r in avs_anf_regions().unwrap() {
            assert!(catalog.region(&r.region).is_ok(), "{}", r.region);
        }
    }
}

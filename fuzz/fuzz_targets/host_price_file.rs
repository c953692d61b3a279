//! The host price file (`host_price_file`, `--host-price-file`): read over the built-in
//! prices of `eastus` (the catalog and those prices read once), then every SKU's price
//! looked up.
#![no_main]
mod common;

use std::sync::OnceLock;

use dsplan::sizing::{HostPrices, HostTerm};
use dsplan::vsan::VsanCatalog;

/// The built-in vSAN catalog and `eastus` prices; `None` if they cannot be read.
fn builtin() -> Option<&'static (VsanCatalog, HostPrices)> {
    static BUILTIN: OnceLock<Option<(VsanCatalog, HostPrices)>> = OnceLock::new();
    BUILTIN
        .get_or_init(|| {
            let catalog = VsanCatalog::builtin().ok()?;
            let prices = HostPrices::builtin("eastus", &catalog).ok()?;
            Some((catalog, prices))
        })
        .as_ref()
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((catalog, builtin)) = builtin() else {
        return;
    };
    let path = common::write("host-prices.csv", data);
    if let Ok(prices) = builtin.clone().with_file(&path, catalog) {
        for sku in ["av36", "av36p", "av52", "av48", "av64"] {
            for term in [
                HostTerm::PayAsYouGo,
                HostTerm::OneYear,
                HostTerm::ThreeYear,
                HostTerm::FiveYear,
            ] {
                let _ = prices.price(sku, term);
            }
        }
    }
});

//! What the chosen design is measured against ([`Baselines`]): vSAN alone and ANF for all,
//! each on its cheapest priced SKU (every costed SKU's design of that kind, hosts + ANF +
//! gateways per month), so a saving is never counted against a dearer SKU's figure than
//! the customer could buy. Ties keep the chosen SKU, then the catalog's order.

use super::sku::SkuEstate;
use crate::plan::Design;
use crate::sizing::VsanAlone;

/// One design's cheapest estate over the SKUs.
#[derive(Debug, Clone)]
pub(super) struct Baseline {
    /// Its host SKU.
    pub(super) sku: String,
    /// Hosts + ANF + gateways, USD per month.
    pub(super) usd_per_month: f64,
    /// vSAN alone's estate (`None` for ANF for all).
    pub(super) vsan_alone: Option<VsanAlone>,
}

/// vSAN alone and ANF for all on their cheapest SKUs.
#[derive(Debug, Clone, Default)]
pub(super) struct Baselines {
    pub(super) vsan: Option<Baseline>,
    pub(super) anf: Option<Baseline>,
}

impl Baselines {
    /// The cheapest vSAN alone and ANF for all over `estates` (each with whether it is the
    /// chosen SKU), in catalog order.
    pub(super) fn of<'a>(estates: impl IntoIterator<Item = (bool, &'a SkuEstate)>) -> Baselines {
        let mut out = Baselines::default();
        for (chosen, e) in estates {
            for (design, slot) in [(Design::Vsan, &mut out.vsan), (Design::Anf, &mut out.anf)] {
                let Some(c) = e.cost(design).filter(|c| c.feasible && !c.collapsed) else {
                    continue;
                };
                let Some(total) = c.total else { continue };
                let better = slot.as_ref().is_none_or(|b| {
                    total < b.usd_per_month - 1e-9
                        || (chosen && (total - b.usd_per_month).abs() <= 1e-9)
                });
                if better {
                    *slot = Some(Baseline {
                        sku: e.sizing.sku.clone(),
                        usd_per_month: total,
                        vsan_alone: (design == Design::Vsan)
                            .then(|| e.vsan_alone.clone())
                            .flatten(),
                    });
                }
            }
        }
        out
    }

    /// The baseline of `design` (vSAN alone or ANF for all; `None` for the hybrid).
    pub(super) fn of_design(&self, design: Design) -> Option<&Baseline> {
        match design {
            Design::Vsan => self.vsan.as_ref(),
            Design::Anf => self.anf.as_ref(),
            Design::Hybrid => None,
        }
    }
}

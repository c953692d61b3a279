//! Subscription and account limits a plan runs into when it is built (\[LIMITS\]
//! learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-resource-limits,
//! 2025-06-10; figures in `data/limits.csv`), and the warning for a region not listed for
//! ANF datastores on AVS.

use super::options::{ATTACH_PAGE, OptimizeOptions};
use crate::catalog::{
    Catalog, Limits, RegionPrices, ServiceLevel, arm_region_name, avs_supports_anf_datastores,
};
use crate::inventory::{Warning, WarningKind};
use crate::numbers::group_thousands as g;
use crate::plan::Plan;

/// The page the quota figures come from, and its date.
const LIMITS_PAGE: &str =
    "learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-resource-limits (2025-06-10)";

/// Pool capacity a plan provisions at its largest, TiB, and its pool count: the base pools,
/// or the peak months' pool when that is larger (a time-phased plan resizes its pool).
pub(crate) fn provisioned(plan: &Plan) -> (u32, usize) {
    let base: u32 = plan.pools.iter().map(|p| p.size_tib).sum();
    let peak = plan
        .time_phased
        .as_ref()
        .map_or(0, |t| t.peak.pool_size_tib);
    (base.max(peak), plan.pools.len())
}

/// Warnings when `pool_tib` TiB of pools over `pools` pools (in `region`) exceed the
/// default regional capacity quota or the pools one NetApp account holds. `what` names
/// whose pools they are (`the plan's pools`).
pub(crate) fn quota_warnings(
    limits: &Limits,
    region: &str,
    pool_tib: u32,
    pools: usize,
    what: &str,
) -> Vec<Warning> {
    let mut out = Vec::new();
    let quota = limits.regional_capacity_quota_tib;
    if f64::from(pool_tib) > quota {
        out.push(Warning::plan_wide(
            WarningKind::Azure,
            format!(
                "{what} provision {} TiB in {region}, above the default regional capacity quota \
                 of {} TiB per subscription and region (data/limits.csv, {LIMITS_PAGE}); ask \
                 Azure support to raise the quota (counting the pools the subscription already \
                 has there) before creating the pools",
                g(f64::from(pool_tib), 0),
                g(quota, 0)
            ),
        ));
    }
    let max_pools = limits.max_pools_per_account as usize;
    if pools > max_pools {
        out.push(Warning::plan_wide(
            WarningKind::Azure,
            format!(
                "{what} are {pools} capacity pools, more than the {max_pools} one NetApp account \
                 holds by default (data/limits.csv, {LIMITS_PAGE}): spread them over several \
                 NetApp accounts or ask Azure support to raise the limit"
            ),
        ));
    }
    out
}

/// A warning when the plan's region is not listed for ANF datastores on AVS and
/// `allow_unlisted_region` let it through.
pub(super) fn region_warning(options: &OptimizeOptions) -> Option<Warning> {
    // An unreadable list counts as not listed: the warning errs on the side of checking.
    if avs_supports_anf_datastores(&options.region).unwrap_or(false) {
        return None;
    }
    Some(Warning::plan_wide(
        WarningKind::Azure,
        format!(
            "{} is not listed for ANF datastores on AVS (data/avs_anf_regions.csv, \
             {ATTACH_PAGE}); planned anyway because of `allow_unlisted_region`: confirm that \
             AVS can mount ANF datastores there before ordering",
            arm_region_name(&options.region)
        ),
    ))
}

/// A warning naming the service levels the price list does not sell in the region (no
/// capacity row, or Flexible without its throughput row), which the plan and its
/// alternatives therefore leave out; levels the options did not ask for are not named.
pub(super) fn levels_warning(
    catalog: &Catalog,
    prices: &RegionPrices,
    options: &OptimizeOptions,
) -> Option<Warning> {
    let missing: Vec<&str> = catalog
        .service_levels
        .iter()
        .map(|s| s.service_level)
        .filter(|l| options.service_levels.is_empty() || options.service_levels.contains(l))
        .filter(|l| {
            !prices.capacity_usd_per_gib_month.contains_key(l)
                || (*l == ServiceLevel::Flexible
                    && prices.flexible_throughput_usd_per_mibps_month.is_none())
        })
        .map(ServiceLevel::as_str)
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(Warning::plan_wide(
        WarningKind::Price,
        format!(
            "the price list has no {} price for {}: {} left out of the plan and its \
             alternatives",
            missing.join(", "),
            prices.region,
            if missing.len() == 1 {
                "it is"
            } else {
                "they are"
            }
        ),
    ))
}

/// The account-level warnings of a single plan: an unlisted region, the regional capacity
/// quota and the pools per account.
pub(super) fn plan_account_warnings(
    plan: &Plan,
    limits: &Limits,
    options: &OptimizeOptions,
) -> Vec<Warning> {
    let mut out: Vec<Warning> = region_warning(options).into_iter().collect();
    let (tib, pools) = provisioned(plan);
    out.extend(quota_warnings(
        limits,
        &plan.region,
        tib,
        pools,
        "the plan's pools",
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn quota_warns_above_25_tib_and_25_pools_only() {
        let limits = Catalog::builtin().unwrap().limits;
        // 25 TiB is the quota itself: no warning; 26 TiB is above it.
        assert!(quota_warnings(&limits, "eastus", 25, 1, "x").is_empty());
        let w = quota_warnings(&limits, "eastus", 26, 1, "the plan's pools");
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message.contains("26 TiB in eastus"),
            "{}",
            w[0].message
        );
        assert!(w[0].message.contains("quota of 25 TiB"), "{}", w[0].message);
        // 25 pools fit one account; 26 do not.
        assert!(quota_warnings(&limits, "eastus", 1, 25, "x").is_empty());
        let w = quota_warnings(&limits, "eastus", 1, 26, "x");
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message.contains("26 capacity pools"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn unlisted_region_warns_listed_does_not() {
        let mut o = OptimizeOptions {
            region: "koreacentral".into(),
            allow_unlisted_region: true,
            ..OptimizeOptions::default()
        };
        let w = region_warning(&o).unwrap();
        assert!(w.message.contains("koreacentral"), "{}", w.message);
        o.region = "West Europe".into();
        assert!(region_warning(&o).is_none());
    }
}

//! Reserved capacity bought in whole units of several sizes (100 TiB and 1 PiB,
//! `data/reservations.csv`): the cheapest mix of units for a hot tier, and its price.
//!
//! A reservation covers the hot-tier usage of one service level in one region (not one
//! pool), so the hot TiB given here is the sum over every pool of that level and region the
//! purchase covers. Reserved TiB beyond the hot tier are paid and unused; hot TiB beyond the
//! reserved are paid at the pay-as-you-go price.

use serde::{Deserialize, Serialize};

use super::ReservationDiscount;

/// Most unit sizes one service level and term may have in `data/reservations.csv` (100 TiB
/// and 1 PiB on the reservations page).
pub const MAX_UNIT_SIZES: usize = 2;

/// Tolerance on TiB when a hot tier is compared with whole units.
const TIB_EPS: f64 = 1e-9;

/// Whole reservation units of one size in a mix.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReservedUnits {
    /// Size of one unit, TiB (100 or 1,024).
    pub unit_tib: u32,
    /// Units bought.
    pub count: u32,
    /// Discount of this unit size on the hot-tier price, percent.
    pub discount_pct: f64,
}

impl ReservedUnits {
    /// TiB these units reserve: `unit_tib x count`.
    pub fn tib(&self) -> u32 {
        self.unit_tib.saturating_mul(self.count)
    }
}

/// A mix of reservation units (at most [`MAX_UNIT_SIZES`] sizes), largest unit first;
/// empty for pay as you go.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ReservationMix {
    units: [Option<ReservedUnits>; MAX_UNIT_SIZES],
}

impl ReservationMix {
    /// The unit sizes bought (count > 0), largest unit first.
    pub fn units(&self) -> impl Iterator<Item = &ReservedUnits> {
        self.units.iter().flatten().filter(|u| u.count > 0)
    }

    /// Reserved TiB over every unit size.
    pub fn reserved_tib(&self) -> u32 {
        self.units().map(ReservedUnits::tib).sum()
    }

    /// Discount over the reserved TiB, percent, weighted by TiB (one size: its discount;
    /// 0 for pay as you go). 1 PiB at 34% and 200 TiB at 30%:
    /// `(1,024 x 34 + 200 x 30) / 1,224 = 33.35`.
    pub fn discount_pct(&self) -> f64 {
        let tib = f64::from(self.reserved_tib());
        if tib <= 0.0 {
            return 0.0;
        }
        self.units()
            .map(|u| f64::from(u.tib()) * u.discount_pct)
            .sum::<f64>()
            / tib
    }

    /// Monthly hot-tier cost of `hot_tib` under this mix at `per_tib` USD per TiB-month:
    /// every unit at its discounted price (used or not) plus the hot TiB beyond the
    /// reserved at `per_tib`.
    pub fn cost(&self, hot_tib: f64, per_tib: f64) -> f64 {
        let reserved: f64 = self
            .units()
            .map(|u| f64::from(u.tib()) * per_tib * (1.0 - u.discount_pct / 100.0))
            .sum();
        reserved + (hot_tib - f64::from(self.reserved_tib())).max(0.0) * per_tib
    }

    /// The mix as a list (for the plan's output).
    pub fn to_vec(self) -> Vec<ReservedUnits> {
        self.units().copied().collect()
    }
}

/// Units of `offer` worth trying for `tib` hot TiB: the whole units just below and just
/// above (the cost is convex in the count, lowest at one of them).
fn around(offer: &ReservationDiscount, tib: f64) -> [u32; 2] {
    let units = (tib.max(0.0) / offer.unit_tib - TIB_EPS).max(0.0);
    [units.floor() as u32, units.ceil() as u32]
}

/// The cheapest mix of whole units of `offers` (at most [`MAX_UNIT_SIZES`] sizes of one
/// level and term; more are ignored, smallest last) for `hot_tib` hot TiB at `per_tib` USD
/// per TiB-month, and its monthly cost. Exhaustive: every count of the largest unit from 0
/// to the count that alone covers the hot tier, and for each the whole units of the next
/// size just below and above what is left. Ties keep the mix found first (fewer large
/// units). Offers without a discount are never bought.
pub fn cheapest_mix(
    offers: &[&ReservationDiscount],
    hot_tib: f64,
    per_tib: f64,
) -> (ReservationMix, f64) {
    let mut sizes: Vec<&ReservationDiscount> = offers
        .iter()
        .copied()
        .filter(|o| o.discount_pct > 0.0 && o.unit_tib >= 1.0)
        .collect();
    sizes.sort_by(|a, b| b.unit_tib.total_cmp(&a.unit_tib));
    sizes.truncate(MAX_UNIT_SIZES);
    let mut best = (ReservationMix::default(), hot_tib.max(0.0) * per_tib);
    let unit = |o: &ReservationDiscount, count: u32| ReservedUnits {
        unit_tib: o.unit_tib as u32,
        count,
        discount_pct: o.discount_pct,
    };
    let (big, small) = match sizes.as_slice() {
        [] => return best,
        [one] => (None, *one),
        [big, small, ..] => (Some(*big), *small),
    };
    let big_max = big.map_or(0, |b| around(b, hot_tib)[1]);
    for n_big in 0..=big_max {
        let big_units = big.map(|b| unit(b, n_big));
        let left = hot_tib - f64::from(big_units.map_or(0, |u| u.tib()));
        for n_small in around(small, left) {
            let mix = ReservationMix {
                units: [big_units, Some(unit(small, n_small))],
            };
            let c = mix.cost(hot_tib, per_tib);
            if c < best.1 - 1e-9 {
                best = (mix, c);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{ReservationTerm, ServiceLevel};

    fn offer(unit_tib: f64, discount_pct: f64) -> ReservationDiscount {
        ReservationDiscount {
            service_level: ServiceLevel::Premium,
            term: ReservationTerm::ThreeYear,
            discount_pct,
            unit_tib,
            source: String::new(),
        }
    }

    #[test]
    fn premium_3y_1200_tib_buys_one_pib_and_two_100_tib_units() {
        // Price 1 per TiB-month; 1 PiB at 34% (0.66 / TiB), 100 TiB at 30% (0.70 / TiB).
        //   1 PiB + 2 x 100 TiB: 1,024 x 0.66 + 200 x 0.70 = 675.84 + 140 = 815.84
        //     (24 TiB reserved and unused);
        //   1 PiB + 1 x 100 TiB + 76 pay as you go: 675.84 + 70 + 76 = 821.84;
        //   1 PiB + 176 pay as you go: 851.84; 12 x 100 TiB: 840; 2 PiB: 1,351.68;
        //   none: 1,200.
        let (pib, hundred) = (offer(1024.0, 34.0), offer(100.0, 30.0));
        let (mix, cost) = cheapest_mix(&[&hundred, &pib], 1200.0, 1.0);
        assert!((cost - 815.84).abs() < 1e-9, "{cost}");
        let units = mix.to_vec();
        assert_eq!(units.len(), 2);
        assert_eq!((units[0].unit_tib, units[0].count), (1024, 1));
        assert_eq!((units[1].unit_tib, units[1].count), (100, 2));
        assert_eq!(mix.reserved_tib(), 1224);
        // (1,024 x 34 + 200 x 30) / 1,224 = 40,816 / 1,224 = 33.3464...
        assert!((mix.discount_pct() - 40_816.0 / 1224.0).abs() < 1e-12);
    }

    #[test]
    fn small_tiers_stay_pay_as_you_go_or_take_100_tib_units() {
        let (pib, hundred) = (offer(1024.0, 34.0), offer(100.0, 30.0));
        // 60 TiB: one 100 TiB unit costs 70 > 60 pay as you go -> none.
        let (mix, cost) = cheapest_mix(&[&pib, &hundred], 60.0, 1.0);
        assert_eq!((mix.reserved_tib(), cost), (0, 60.0));
        // 80 TiB: 70 < 80 -> one unit, 20 TiB reserved and unused.
        let (mix, cost) = cheapest_mix(&[&pib, &hundred], 80.0, 1.0);
        assert_eq!(mix.reserved_tib(), 100);
        assert!((cost - 70.0).abs() < 1e-12);
        // 700 TiB: 7 x 100 TiB = 490 < 1 PiB = 675.84 -> 100 TiB units only.
        let (mix, _) = cheapest_mix(&[&pib, &hundred], 700.0, 1.0);
        assert_eq!(mix.to_vec().len(), 1);
        assert_eq!(mix.reserved_tib(), 700);
        // 980 TiB: 1 PiB 675.84 < 10 x 100 TiB = 700 -> one PiB, 44 TiB unused.
        let (mix, cost) = cheapest_mix(&[&pib, &hundred], 980.0, 1.0);
        assert_eq!(mix.reserved_tib(), 1024);
        assert!((cost - 675.84).abs() < 1e-9);
    }

    #[test]
    fn no_offer_is_pay_as_you_go() {
        let (mix, cost) = cheapest_mix(&[], 150.0, 2.0);
        assert_eq!(
            (mix.reserved_tib(), cost, mix.discount_pct()),
            (0, 300.0, 0.0)
        );
    }
}

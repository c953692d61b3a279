//! The sheets of one cluster's plan (`Pools` ... `Prices`), for one plan or, with a
//! leading `cluster` column, for every cluster of an estate or per-cluster plan; and the
//! `Summary` sheet of a single plan.

use super::cells::{
    Cell, Fmt, Sheet, boolean, cell_ref, checked, column_ref, count, dec, int, round2, text,
};
use super::pools::{self, COST, DS_PLACED, SIZE};
use super::prices::{self, PriceCell};
use super::sections::{self as s};
use crate::demand::ExcludedVm;
use crate::inventory::Warning;
use crate::plan::{Assumption, Plan};

/// The per-cluster sheets, filled plan by plan.
pub struct PlanSheets {
    lead: bool,
    pools: Sheet,
    datastores: Sheet,
    performance: Sheet,
    binding: Sheet,
    alternatives: Sheet,
    marginal: Sheet,
    phases: Sheet,
    vsan: Sheet,
    placements: Sheet,
    excluded: Sheet,
    warnings: Sheet,
    assumptions: Sheet,
    prices: Sheet,
    /// Each plan's `Time phases` row holding its year's cost (cluster, data row).
    phase_years: Vec<(String, usize)>,
    /// An estate's shared pools, which its clusters' shares are worked out from.
    shared: pools::SharedPools,
    /// Each plan's capacity price cells, by cluster and tier.
    capacity_prices: Vec<(String, String, PriceCell)>,
    /// Each plan's rows on `Pools` and `Datastores`, in the order the plans were added.
    blocks: Vec<Block>,
}

/// The data rows one plan's pools and datastores take on `Pools` and `Datastores`: a
/// plan's rows are contiguous (0-based data rows, first row and count), so a sum over one
/// cluster is a `SUM` of its own rows, never a match on its name.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Block {
    /// First data row and rows on `Pools`.
    pub pools: (usize, usize),
    /// First data row and rows on `Datastores`.
    pub datastores: (usize, usize),
}

/// A sheet with the `cluster` column first when `lead`.
fn sheet(lead: bool, (name, header): (&'static str, &[&str])) -> Sheet {
    let mut all: Vec<&str> = Vec::new();
    if lead {
        all.push("cluster");
    }
    all.extend_from_slice(header);
    Sheet::new(name, &all)
}

impl PlanSheets {
    /// Empty sheets; `lead`: with the `cluster` column (estate and per-cluster workbooks).
    pub fn new(lead: bool) -> PlanSheets {
        let mut placements = sheet(lead, s::PLACEMENTS);
        placements.vm_col = Some(usize::from(lead));
        let mut excluded = sheet(lead, s::EXCLUDED);
        excluded.vm_col = Some(usize::from(lead));
        PlanSheets {
            lead,
            pools: sheet(lead, ("Pools", &pools::POOLS_HEADER)),
            datastores: sheet(lead, ("Datastores", &pools::DATASTORES_HEADER)),
            performance: sheet(lead, s::PERFORMANCE),
            binding: sheet(lead, s::BINDING),
            alternatives: sheet(lead, s::ALTERNATIVES),
            marginal: sheet(lead, s::MARGINAL),
            phases: sheet(lead, s::PHASES),
            vsan: sheet(lead, s::VSAN),
            placements,
            excluded,
            warnings: sheet(lead, s::WARNINGS),
            assumptions: sheet(lead, s::ASSUMPTIONS),
            prices: sheet(lead, ("Prices", &prices::HEADER)),
            phase_years: Vec::new(),
            shared: pools::SharedPools::default(),
            capacity_prices: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// Empty sheets with the `cluster` column whose shares of `shared` pools are worked
    /// out from those pools' cells (an estate workbook).
    pub fn with_shared(shared: pools::SharedPools) -> PlanSheets {
        PlanSheets {
            shared,
            ..PlanSheets::new(true)
        }
    }

    /// The first capacity price cell of `tier` among the plans of `clusters`.
    pub fn capacity_price(&self, clusters: &[String], tier: &str) -> Option<&PriceCell> {
        clusters.iter().find_map(|c| {
            self.capacity_prices
                .iter()
                .find(|(cl, t, _)| cl == c && t == tier)
                .map(|(_, _, p)| p)
        })
    }

    fn lead_cells(&self, cluster: &str) -> Vec<Cell> {
        if self.lead {
            vec![text(cluster)]
        } else {
            Vec::new()
        }
    }

    /// Adds one plan's rows to every sheet (`cluster` in the leading column).
    pub fn add(&mut self, cluster: &str, plan: &Plan) {
        let lead = self.lead_cells(cluster);
        let price_cells = prices::add_prices(&mut self.prices, &lead, plan);
        for (tier, cell) in &price_cells.capacity {
            let at = (cluster.to_string(), tier.clone(), cell.clone());
            self.capacity_prices.push(at);
        }
        let first = (self.pools.rows.len(), self.datastores.rows.len());
        let pool_rows = pools::add_pools(
            &mut self.pools,
            &lead,
            plan,
            (&price_cells, &mut self.shared),
        );
        pools::add_datastores(&mut self.datastores, &lead, plan, &pool_rows);
        self.blocks.push(Block {
            pools: (first.0, self.pools.rows.len() - first.0),
            datastores: (first.1, self.datastores.rows.len() - first.1),
        });
        s::add_performance(&mut self.performance, &lead, plan);
        s::add_binding(&mut self.binding, &lead, plan);
        s::add_alternatives(&mut self.alternatives, &lead, plan);
        s::add_marginal(&mut self.marginal, &lead, plan);
        if let Some(r) = s::add_phases(&mut self.phases, &lead, plan) {
            self.phase_years.push((cluster.to_string(), r));
        }
        s::add_vsan(&mut self.vsan, &lead, plan);
        s::add_placements(&mut self.placements, &lead, plan);
        self.add_shared(cluster, &plan.excluded, &plan.warnings, &plan.assumptions);
    }

    /// Adds excluded VMs, warnings and assumptions that belong to `owner` (a cluster, or
    /// `(estate)` for the estate's own).
    pub fn add_shared(
        &mut self,
        owner: &str,
        excluded: &[ExcludedVm],
        warnings: &[Warning],
        assumptions: &[Assumption],
    ) {
        let lead = self.lead_cells(owner);
        s::add_excluded(&mut self.excluded, &lead, excluded);
        s::add_warnings(&mut self.warnings, &lead, warnings);
        s::add_assumptions(&mut self.assumptions, &lead, assumptions);
    }

    /// Data rows on `Pools` and `Datastores` (for formulas summing their columns).
    pub fn rows(&self) -> (usize, usize) {
        (self.pools.rows.len(), self.datastores.rows.len())
    }

    /// Each added plan's rows on `Pools` and `Datastores`, in the order they were added.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The absolute reference of `cluster`'s year cost on `Time phases`, if it has one.
    pub fn phase_year(&self, cluster: &str) -> Option<String> {
        self.phase_years
            .iter()
            .find(|(c, _)| c == cluster)
            .map(|(_, r)| cell_ref("Time phases", *r, self.offset() + s::PHASE_YEARLY))
    }

    /// The column offset of the per-cluster sheets (1 with the `cluster` column).
    pub fn offset(&self) -> usize {
        usize::from(self.lead)
    }

    /// The sheets in workbook order.
    pub fn into_sheets(self) -> Vec<Sheet> {
        vec![
            self.pools,
            self.datastores,
            self.performance,
            self.binding,
            self.alternatives,
            self.marginal,
            self.phases,
            self.vsan,
            self.placements,
            self.excluded,
            self.warnings,
            self.assumptions,
            self.prices,
        ]
    }
}

/// A sum of one column of `Pools`/`Datastores` as a checked formula.
pub fn sum_of(sheet: &str, col: usize, rows: usize, values: &[f64], json: f64) -> Cell {
    let computed = round2(values.iter().sum());
    let formula = format!("ROUND(SUM({}),2)", column_ref(sheet, col, rows));
    checked(formula, computed, json, Fmt::Usd).0
}

/// The `pool size TiB` and `capacity placed GiB` rows: sums of the `Pools` size and
/// `Datastores` placed columns (offset `o`) over `plans`, checked against the totals.
pub fn size_and_placed<'a>(
    plans: impl Iterator<Item = &'a Plan> + Clone,
    o: usize,
    (pool_rows, ds_rows): (usize, usize),
    (tib, gib): (u32, f64),
) -> [(&'static str, Cell); 2] {
    let sizes: f64 = plans
        .clone()
        .flat_map(|p| p.pools.iter())
        .map(|p| f64::from(p.size_tib))
        .sum();
    let placed: f64 = plans
        .flat_map(|p| p.datastores.iter())
        .map(|d| d.placed_capacity_gib)
        .sum();
    let size_sum = format!("SUM({})", column_ref("Pools", o + SIZE, pool_rows));
    let placed_sum = format!("SUM({})", column_ref("Datastores", o + DS_PLACED, ds_rows));
    [
        (
            "pool size TiB",
            checked(size_sum, sizes, f64::from(tib), Fmt::Int).0,
        ),
        (
            "capacity placed GiB",
            checked(placed_sum, placed, gib, Fmt::Int).0,
        ),
    ]
}

/// The `Summary` sheet of one plan: region, prices, hosts, totals (pool TiB, placed GiB,
/// cost and first-month transfer as sums of the `Pools`/`Datastores` columns), targets and
/// predictions, the time-phased year.
pub fn summary(plan: &Plan, sheets: &PlanSheets) -> Sheet {
    let (pool_rows, ds_rows) = sheets.rows();
    let o = sheets.offset();
    let t = &plan.totals;
    let perf = &plan.performance;
    let costs: Vec<f64> = plan.pools.iter().map(|p| p.cost_usd_per_month).collect();
    let firsts: Vec<f64> = plan
        .pools
        .iter()
        .map(|p| p.first_month_cool_transfer_usd)
        .collect();
    let mut rows: Vec<(&str, Cell)> = vec![
        ("schema version", int(plan.schema_version)),
        ("region", text(plan.region.clone())),
        ("location", text(plan.location.clone())),
        ("prices effective", text(plan.prices_effective.clone())),
        ("hosts", int(plan.hosts)),
        ("hosts with VMs", int(t.hosts_with_vms)),
        ("datastores", int(t.datastores)),
        ("flows", int(t.flows as f64)),
        ("VMs placed", count(t.vms_placed)),
        ("VMs excluded", count(t.vms_excluded)),
        ("capacity required GiB", int(t.required_capacity_gib)),
        ("capacity excluded GiB", int(t.excluded_capacity_gib)),
        ("QoS throughput MiB/s", dec(t.throughput_mibps)),
        (
            "cost USD/month",
            sum_of("Pools", o + COST, pool_rows, &costs, t.cost_usd_per_month),
        ),
        (
            "first-month cool transfer USD",
            sum_of(
                "Pools",
                o + COST + 1,
                pool_rows,
                &firsts,
                t.first_month_cool_transfer_usd,
            ),
        ),
        ("IOPS target", int(perf.iops_target)),
        ("IOPS predicted", int(perf.small_block.iops)),
        (
            "IOPS bound by",
            text(perf.small_block.bottleneck.to_string()),
        ),
        ("MiB/s target", dec(perf.throughput_target_mibps)),
        ("MiB/s predicted", dec(perf.large_block.throughput_mibps)),
        (
            "MiB/s bound by",
            text(perf.large_block.bottleneck.to_string()),
        ),
        ("extrapolated", boolean(perf.extrapolation.extrapolated)),
    ];
    rows.extend(size_and_placed(
        std::iter::once(plan),
        o,
        (pool_rows, ds_rows),
        (t.pool_size_tib, t.placed_capacity_gib),
    ));
    if let (Some(tp), Some(at)) = (&plan.time_phased, sheets.phase_year("")) {
        let year = Cell::Formula(at, tp.yearly_cost_usd, Fmt::Usd);
        rows.push(("yearly cost USD (time phased)", year));
    }
    let mut sheet = Sheet::new("Summary", &["item", "value"]);
    sheet.rows = rows.into_iter().map(|(k, v)| vec![text(k), v]).collect();
    sheet
}

//! [`Planned`]: what [`super::Planner::run`] returns, and what every kind of plan can be
//! asked without matching on it (its excluded VMs, its warnings, the plan in a format).

use crate::demand::ExcludedVm;
use crate::error::Error;
use crate::inventory::warning_count;
use crate::plan::{ClusterPlans, EstatePlan, Plan};
use crate::report::{self, Format};
#[cfg(feature = "charts")]
use crate::{PlanOptions, catalog::Catalog, perf::PerfModel};

/// What [`crate::Planner::run`] returns: one plan, or one per source cluster with
/// [`crate::PlanOptions::per_cluster`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Planned {
    /// One plan for everything in scope.
    Single(Box<Plan>),
    /// One plan per source cluster, and their total.
    PerCluster(Box<ClusterPlans>),
    /// The whole estate: hosts and clusters sized from compute, datastores per cluster,
    /// shared pools, and the cost against vSAN alone.
    Estate(Box<EstatePlan>),
}

impl Planned {
    /// The SVG charts of this plan (`dsplan plan --charts`, the web page): for one
    /// cluster [`report::charts::plan_charts`], per cluster
    /// [`report::charts::cluster_plans_charts`], for the estate
    /// [`report::charts::estate_charts`], the performance curves drawn with the built-in
    /// model and `options`' nconnect, cold share and datastore range.
    ///
    /// # Errors
    /// [`Error`] if the built-in model or catalog cannot load, or a chart cannot be drawn.
    #[cfg(feature = "charts")]
    pub fn charts(&self, options: &PlanOptions) -> Result<Vec<report::charts::Chart>, Error> {
        let model = PerfModel::builtin()?;
        let catalog = Catalog::builtin()?;
        let inputs = report::charts::PerfInputs {
            model: &model,
            limits: &catalog.limits,
            nconnect: options.nconnect,
            cold_pct: options.cold_pct,
            max_datastores: options.max_datastores,
        };
        Ok(match self {
            Planned::Single(plan) => report::charts::plan_charts(plan, &inputs),
            Planned::PerCluster(plans) => report::charts::cluster_plans_charts(plans, &inputs),
            Planned::Estate(plan) => report::charts::estate_charts(plan, &inputs),
        }?)
    }

    /// The VMs left out of the plan, each once: one plan's or the estate's
    /// `excluded`, or, per cluster, [`ClusterPlans::excluded`] (each cluster's plan lists
    /// none).
    pub fn excluded(&self) -> &[ExcludedVm] {
        match self {
            Planned::Single(plan) => &plan.excluded,
            Planned::PerCluster(plans) => &plans.excluded,
            Planned::Estate(plan) => &plan.excluded,
        }
    }

    /// How many warnings the plan carries, each counted once with the ones it stands for
    /// ([`warning_count`]): per cluster, the estate's and every cluster's own.
    pub fn warning_count(&self) -> usize {
        match self {
            Planned::Single(plan) => warning_count(&plan.warnings),
            Planned::PerCluster(plans) => {
                let per_cluster = plans.clusters.iter().flat_map(|c| &c.plan.warnings);
                warning_count(plans.total.warnings.iter().chain(per_cluster))
            }
            Planned::Estate(plan) => warning_count(&plan.warnings),
        }
    }

    /// The plan in `format` ([`report::render_plan`], [`report::render_cluster_plans`] or
    /// [`report::render_estate_plan`]).
    ///
    /// # Errors
    /// [`Error::Report`] when the plan cannot be written in `format`.
    pub fn render(&self, format: Format) -> Result<String, Error> {
        Ok(match self {
            Planned::Single(plan) => report::render_plan(plan, format),
            Planned::PerCluster(plans) => report::render_cluster_plans(plans, format),
            Planned::Estate(plan) => report::render_estate_plan(plan, format),
        }?)
    }

    /// The plan as an HTML document with `charts` inline ([`report::html`]).
    #[cfg(feature = "charts")]
    pub fn html(&self, charts: &[report::charts::Chart]) -> String {
        match self {
            Planned::Single(plan) => report::html::plan_html(plan, charts),
            Planned::PerCluster(plans) => report::html::cluster_plans_html(plans, charts),
            Planned::Estate(plan) => report::html::estate_html(plan, charts),
        }
    }

    /// The plan as a workbook ([`report::xlsx`]) with `options`.
    ///
    /// # Errors
    /// [`Error::Report`] when the workbook cannot be written.
    #[cfg(feature = "xlsx")]
    pub fn xlsx_with(
        &self,
        options: &report::xlsx::XlsxOptions,
    ) -> Result<report::xlsx::Workbook, Error> {
        Ok(match self {
            Planned::Single(plan) => report::xlsx::plan_xlsx_with(plan, options),
            Planned::PerCluster(plans) => report::xlsx::cluster_plans_xlsx_with(plans, options),
            Planned::Estate(plan) => report::xlsx::estate_xlsx_with(plan, options),
        }?)
    }
}

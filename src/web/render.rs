//! The page's plan: options from JSON (checked as the command checks flags), the plan made
//! by [`Planner`] from a kept inventory, and the plan turned into what the page shows and
//! downloads (the text report, the JSON, Markdown, CSV and workbook renderers of
//! [`crate::report`], the SVG charts of `--charts`). Synchronous: the server runs it in
//! `spawn_blocking`.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::inventory::{Inventory, Warning};
use crate::numbers::group_thousands;
use crate::planner::{PlanOptions, Planned, Planner};
use crate::report::{self, Format};
use crate::sizing::{HostTerm, MAX_USD_PER_HOST_HOUR, MIN_USD_PER_HOST_HOUR};

/// Settings naming a file on the server's disk: the page cannot give them (the server
/// reads nothing from disk for a page).
const PATH_SETTINGS: [&str; 3] = ["perf", "price_file", "host_price_file"];

/// A request's problem with its options: the message names the setting (in backticks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionsError(pub String);

/// Parses the page's options: a JSON object of [`PlanOptions`] fields (missing ones take
/// [`PlanOptions::default`]).
///
/// # Errors
/// [`OptionsError`] naming every unknown field (also one level down, in `io_profile`), a
/// file setting (`PATH_SETTINGS`) given a value, or a value of the wrong type.
pub fn parse_options(value: &Value) -> Result<PlanOptions, OptionsError> {
    let Value::Object(given) = value else {
        return Err(OptionsError("`options` must be a JSON object".to_string()));
    };
    let defaults = serde_json::to_value(PlanOptions::default())
        .map_err(|e| OptionsError(format!("internal: default options: {e}")))?;
    let mut unknown = Vec::new();
    unknown_fields(given, &defaults, "", &mut unknown);
    if !unknown.is_empty() {
        return Err(OptionsError(format!(
            "unknown option(s): {}",
            unknown.join(", ")
        )));
    }
    for name in PATH_SETTINGS {
        if given.get(name).is_some_and(|v| !v.is_null()) {
            return Err(OptionsError(format!(
                "`{name}` names a file on disk; the page reads only what is uploaded \
                 (use `dsplan plan` for it)"
            )));
        }
    }
    let mut given = given.clone();
    vsan_policy_spelling(&mut given);
    serde_json::from_value(Value::Object(given.clone()))
        .map_err(|e| OptionsError(field_error(&given, &defaults, &e)))
}

/// `vsan_policy` as the README and the command spell it (`auto`, `raid5-ftt1`) is turned
/// into its serde form (`"Auto"`, `{"Named": "raid5-ftt1"}`); the serde form is kept (it is
/// what `/api/defaults` gives). An unknown name is left for the planner's check.
fn vsan_policy_spelling(given: &mut serde_json::Map<String, Value>) {
    let Some(Value::String(text)) = given.get("vsan_policy") else {
        return;
    };
    if text == "Auto" {
        return;
    }
    if let Ok(choice) = text.parse::<crate::vsan::PolicyChoice>()
        && let Ok(v) = serde_json::to_value(choice)
    {
        given.insert("vsan_policy".to_string(), v);
    }
}

/// A serde error in words, naming the first field whose value alone fails (serde's own
/// message names only the type: "invalid type: floating point `2.5`, expected u32").
fn field_error(
    given: &serde_json::Map<String, Value>,
    defaults: &Value,
    whole: &serde_json::Error,
) -> String {
    for (key, value) in given {
        let mut one = defaults.clone();
        if let Some(slot) = one.get_mut(key) {
            *slot = value.clone();
        }
        if let Err(e) = serde_json::from_value::<PlanOptions>(one) {
            return format!(
                "`{key}`: {} (got {value})",
                expected_in_words(&e.to_string())
            );
        }
    }
    format!("options: {whole}")
}

/// What serde expected, in words: whole numbers, numbers, text, yes/no, or serde's words.
fn expected_in_words(message: &str) -> String {
    let expected = message
        .split_once("expected ")
        .map_or(message, |(_, e)| e)
        .trim();
    let words = match expected {
        e if ["u8", "u16", "u32", "u64", "usize"]
            .iter()
            .any(|t| e.starts_with(t)) =>
        {
            "a whole number"
        }
        e if e.starts_with("f64") || e.starts_with("f32") => "a number",
        e if e.starts_with("a string") => "text",
        e if e.starts_with("a boolean") => "true or false",
        _ => return message.to_string(),
    };
    words.to_string()
}

/// Keys of `given` that `known` (an object) does not have, as `` `a` `` or `` `a.b` ``.
fn unknown_fields(
    given: &serde_json::Map<String, Value>,
    known: &Value,
    prefix: &str,
    out: &mut Vec<String>,
) {
    for (key, value) in given {
        match known.get(key) {
            None => {
                let names = known.as_object().into_iter().flat_map(|o| o.keys());
                match crate::spelling::nearest(key, names.map(String::as_str)) {
                    Some(near) => out.push(format!("`{prefix}{key}` (did you mean `{near}`?)")),
                    None => out.push(format!("`{prefix}{key}`")),
                }
            }
            Some(Value::Object(_)) => {
                if let Value::Object(inner) = value {
                    let nested = known.get(key).unwrap_or(&Value::Null);
                    unknown_fields(inner, nested, &format!("{prefix}{key}."), out);
                }
            }
            Some(_) => {}
        }
    }
}

/// A host price typed into the page: USD per host-hour of one SKU bought on one term, as a
/// row of a host price file (`host_price_file`).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedHostPrice {
    /// Host SKU (`av36`).
    pub sku: String,
    /// Term: `payg`, `1y`, `3y` or `5y`.
    pub term: String,
    /// USD per host-hour.
    pub usd_per_hour: f64,
}

/// Typed host prices as the text of a host price file (`sku,term,usd_per_hour,region,
/// source`), each row in `region` (the plan's, so the price is the region's own) with the
/// source "typed into the web page".
///
/// # Errors
/// [`crate::Error::Invalid`] when the CSV cannot be written.
pub fn host_price_csv(prices: &[TypedHostPrice], region: &str) -> Result<String, crate::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let usage = |e: &dyn std::fmt::Display| crate::Error::Invalid {
        setting: "host_price_file",
        value: TYPED_PRICES.to_string(),
        expected: format!("rows that can be written as CSV: {e}"),
    };
    w.write_record(["sku", "term", "usd_per_hour", "region", "source"])
        .map_err(|e| usage(&e))?;
    for p in prices {
        w.write_record([
            p.sku.as_str(),
            p.term.as_str(),
            &p.usd_per_hour.to_string(),
            region,
            "typed into the web page",
        ])
        .map_err(|e| usage(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| usage(&e))?;
    String::from_utf8(bytes).map_err(|e| usage(&e))
}

/// Each typed price within the range a host price file takes
/// ([`MIN_USD_PER_HOST_HOUR`] to [`MAX_USD_PER_HOST_HOUR`] USD per host-hour), or an error
/// in the page's words: the SKU and term the price was typed for, not a row of a file.
///
/// # Errors
/// [`crate::Error::Invalid`] for `host_price_file` (the page shows it as its price field).
pub fn check_typed_prices(prices: &[TypedHostPrice]) -> Result<(), crate::Error> {
    let out_of_range = prices
        .iter()
        .find(|p| !(MIN_USD_PER_HOST_HOUR..=MAX_USD_PER_HOST_HOUR).contains(&p.usd_per_hour));
    let Some(p) = out_of_range else {
        return Ok(());
    };
    let parsed = p.term.parse::<HostTerm>();
    let term: &str = match &parsed {
        Ok(term) => term.words(),
        Err(_) => &p.term,
    };
    // Pay as you go has a built-in list price to fall back to; a reserved term has none.
    let instead = if matches!(parsed, Ok(HostTerm::PayAsYouGo)) {
        "clear the price to use the built-in pay-as-you-go list price"
    } else {
        "no price is built in for a reserved term: type the quoted price per host-hour, or \
         choose pay as you go (Host term) for the built-in list price"
    };
    Err(crate::Error::Invalid {
        setting: "host_price_file",
        value: format!(
            "{} USD per host-hour for {}, {term}",
            crate::numbers::clip(&p.usd_per_hour.to_string()),
            p.sku
        ),
        expected: format!(
            "{MIN_USD_PER_HOST_HOUR} to {} USD per host-hour: AVS list prices are 8 to 25 \
             and reserved terms about half; {instead}",
            group_thousands(MAX_USD_PER_HOST_HOUR, 0)
        ),
    })
}

/// The name typed host prices carry in messages.
pub const TYPED_PRICES: &str = "the host prices typed into the page";

/// Plans a kept inventory with `options` and typed host prices: [`Planned::Single`] with
/// `hosts`, [`Planned::PerCluster`] with `per_cluster`, else [`Planned::Estate`] (as
/// `dsplan plan`); stopped once `stop` answers `true` ([`Planner::stop_when`]).
///
/// # Errors
/// Any stage's [`crate::Error`]; one of kind [`crate::ErrorKind::Stopped`] once `stop`
/// answered `true`.
pub fn plan(
    inventory: &Arc<Inventory>,
    options: PlanOptions,
    prices: &[TypedHostPrice],
    stop: impl Fn() -> bool + Send + Sync + 'static,
) -> Result<Planned, crate::Error> {
    let mut planner = Planner::new();
    planner.stop_when(stop);
    if !prices.is_empty() {
        check_typed_prices(prices)?;
        planner.host_price_text(TYPED_PRICES, &host_price_csv(prices, &options.region)?);
    }
    planner.options(options);
    planner.check()?;
    planner.shared_inventory(Arc::clone(inventory));
    planner.run()
}

/// What the page shows for a plan: the headline figures and the HTML report's body.
#[derive(Debug, Clone, Serialize)]
pub struct PlanView {
    /// `estate`, `hosts` or `per_cluster`.
    pub mode: &'static str,
    /// The headline monthly cost, USD: the estate's hosts + ANF + ExpressRoute gateways
    /// (`summary.total_usd_per_month`), `None` when a host SKU of the plan has no price
    /// (the report's card says "unknown" too; the known part is
    /// [`PlanView::anf_part_usd_per_month`]); one cluster's `totals.cost_usd_per_month`;
    /// per cluster, `total.cost_usd_per_month`.
    pub monthly_cost_usd: Option<f64>,
    /// Why the month is unknown, in words (`no host price for av64 on this term: type it
    /// under Host prices`), when `monthly_cost_usd` is `None`.
    pub monthly_unknown_why: Option<String>,
    /// The estate's ANF part of the month, USD: ANF + ExpressRoute gateways
    /// (`summary.anf_usd_per_month + summary.gateway_usd_per_month`, to the cent), known
    /// with or without a host price; `None` for one cluster and per-cluster plans (their
    /// whole figure is ANF).
    pub anf_part_usd_per_month: Option<f64>,
    /// What the monthly figure is (`hosts + ANF`, `hosts + ANF + ExpressRoute gateways`),
    /// or, when it is unknown, what the ANF part is (`ANF`, `ANF + ExpressRoute
    /// gateways`).
    pub monthly_cost_label: String,
    /// A year, USD: the estate's `summary.total_usd_per_year` (`None` when a host SKU has
    /// no price); one cluster's [`crate::plan::Plan::twelve_months_usd`] and its first
    /// month's cool transfer; per cluster, [`crate::plan::ClusterPlans::year_usd`] (the
    /// report's yearly cards, to the cent).
    pub yearly_cost_usd: Option<f64>,
    /// Why the year is unknown, in words (`no host price for av36 on this term`), when
    /// `yearly_cost_usd` is `None`.
    pub yearly_unknown_why: Option<String>,
    /// Whether `peak_months` is set: the monthly figure is then the base months'.
    pub base_months: bool,
    /// The estate's host SKUs without a host price (the figure is ANF only): `av64`, or
    /// `av64 and av36p` when the SKU of its first clusters has none either.
    pub no_host_price_sku: Option<String>,
    /// The decision in a few words: the estate's design, SKU and hosts (`hybrid: 6 x av36p
    /// hosts`, or `hybrid: 17 av64 + 3 av36p hosts` with first clusters of another SKU),
    /// after `none recommended (no host price to compare); shown: ` when designs were
    /// compared without a host price (no total decides); one cluster's or per-cluster
    /// plan's datastores.
    pub decision: String,
    /// The HTML report's body (`--format html` without its page shell, the charts inline,
    /// each AVS cluster's `<details>` closed): a fragment the page inserts.
    pub html: String,
    /// The plan's warnings, one line each, its kind first (`(setting) ...`).
    pub warnings: Vec<String>,
    /// The host prices the estate's plan needs, one row per SKU it has hosts of (the chosen
    /// SKU's first, then its first clusters' SKU: `av64` and `av36p` for AV64 in a Gen 1
    /// private cloud), each for the plan's host term; the page shows one price field per
    /// row. Empty for one cluster and per-cluster plans (they price no hosts).
    pub host_prices: Vec<HostPriceRow>,
}

/// One host SKU the estate's plan has hosts of, and its price on the plan's host term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostPriceRow {
    /// Host SKU (`av64`).
    pub sku: String,
    /// The plan's host term (`payg`, `1y`, `3y`, `5y`).
    pub term: String,
    /// The term in words (`1-year reserved`).
    pub term_words: &'static str,
    /// Its hosts in the plan, HA reserve included.
    pub hosts: u32,
    /// Price of one host, USD per hour: the typed one, else the region's built-in list
    /// price; `None` when neither is known (the plan's figure then leaves these hosts out).
    pub usd_per_hour: Option<f64>,
    /// Those hosts, USD per month (hosts x price x 730 h), when the price is known.
    pub usd_per_month: Option<f64>,
}

/// The estate's host price rows ([`PlanView::host_prices`]): its hosts by SKU (the plan's
/// chosen SKU alone when its hosts are not split by SKU).
fn host_price_rows(m: &crate::plan::EstateSummary) -> Vec<HostPriceRow> {
    let row = |sku: &str, hosts: u32, usd_per_hour: Option<f64>, usd_per_month: Option<f64>| {
        HostPriceRow {
            sku: sku.to_string(),
            term: m.host_term.to_string(),
            term_words: m.host_term.words(),
            hosts,
            usd_per_hour,
            usd_per_month,
        }
    };
    if m.hosts_by_sku.is_empty() {
        return vec![row(
            &m.sku,
            m.hosts,
            m.host_usd_per_hour,
            m.hosts_usd_per_month,
        )];
    }
    m.hosts_by_sku
        .iter()
        .filter(|h| h.hosts > 0)
        .map(|h| row(&h.sku, h.hosts, h.usd_per_hour, h.usd_per_month))
        .collect()
}

/// The page's view of a plan.
///
/// # Errors
/// [`crate::Error::Report`] when a renderer or chart fails; model or catalog errors.
pub fn view(planned: &Planned, options: &PlanOptions) -> Result<PlanView, crate::Error> {
    let (mode, monthly_cost_usd, label, warnings): (_, _, String, &[Warning]) = match planned {
        Planned::Single(p) => (
            "hosts",
            Some(p.totals.cost_usd_per_month),
            "ANF".into(),
            &p.warnings,
        ),
        Planned::PerCluster(p) => (
            "per_cluster",
            Some(p.total.cost_usd_per_month),
            "ANF".into(),
            &p.total.warnings,
        ),
        Planned::Estate(p) => {
            // The gateways are a known cost with or without a host price (the text's
            // `cost:` line adds them alike); without a host price the month is unknown, as
            // the report's card says, and the label names the ANF part shown beside it.
            let s = &p.summary;
            let label = if s.total_usd_per_month.is_some() {
                "hosts + ANF"
            } else {
                "ANF"
            };
            let label = if s.gateway_usd_per_month > 0.0 {
                format!("{label} + ExpressRoute gateways")
            } else {
                label.to_string()
            };
            ("estate", s.total_usd_per_month, label, &p.warnings)
        }
    };
    let anf_part_usd_per_month = match planned {
        Planned::Estate(p) => Some(round_cents(
            p.summary.anf_usd_per_month + p.summary.gateway_usd_per_month,
        )),
        Planned::Single(_) | Planned::PerCluster(_) => None,
    };
    let (yearly_cost_usd, no_host_price_sku) = match planned {
        // As the report's yearly card (`report::model::headline`).
        Planned::Single(p) => (
            Some(round_cents(
                p.twelve_months_usd() + p.totals.first_month_cool_transfer_usd,
            )),
            None,
        ),
        Planned::PerCluster(p) => (Some(round_cents(p.year_usd())), None),
        Planned::Estate(p) => (
            p.summary.total_usd_per_year,
            p.summary
                .total_usd_per_month
                .is_none()
                .then(|| unpriced_skus(&p.summary)),
        ),
    };
    let unknown_why = |figure: Option<f64>, what: &str| match (figure, &no_host_price_sku) {
        (Some(_), _) => None,
        (None, Some(skus)) => Some(format!(
            "no host price for {skus} on this term: type {} under Host prices",
            if skus.contains(" and ") { "them" } else { "it" }
        )),
        (None, None) => Some(format!("the plan gives no {what} figure")),
    };
    let yearly_unknown_why = unknown_why(yearly_cost_usd, "yearly");
    let monthly_unknown_why = unknown_why(monthly_cost_usd, "monthly");
    let document = html_document(planned, options)?;
    Ok(PlanView {
        mode,
        monthly_cost_usd,
        monthly_unknown_why,
        anf_part_usd_per_month,
        monthly_cost_label: label,
        yearly_cost_usd,
        yearly_unknown_why,
        base_months: options.peak_months.is_some(),
        no_host_price_sku,
        decision: decision(planned),
        html: body_of(&document).replace("<details open>", "<details>"),
        warnings: (warnings.iter())
            .map(crate::report::model::warnings::tagged_line)
            .collect(),
        host_prices: match planned {
            Planned::Estate(p) => host_price_rows(&p.summary),
            Planned::Single(_) | Planned::PerCluster(_) => Vec::new(),
        },
    })
}

/// `usd` to the cent, as the reports show it.
fn round_cents(usd: f64) -> f64 {
    (usd * 100.0).round() / 100.0
}

/// The decision in a few words ([`PlanView::decision`]).
fn decision(planned: &Planned) -> String {
    use crate::numbers::{counted, plural};
    let datastores = |n: usize| counted(n as u64, "ANF datastore");
    match planned {
        Planned::Single(p) => format!(
            "{} on {}",
            datastores(p.datastores.len()),
            counted(u64::from(p.hosts), "host")
        ),
        Planned::PerCluster(p) => format!(
            "{} over {}",
            datastores(p.clusters.iter().map(|c| c.plan.datastores.len()).sum()),
            counted(p.clusters.len() as u64, "cluster")
        ),
        Planned::Estate(p) => {
            let m = &p.summary;
            let design = p
                .designs
                .as_ref()
                .map_or(m.design.label(), |d| d.chosen.label());
            // First clusters of another SKU (AV64 in a Gen 1 private cloud): each SKU's
            // hosts, as the report's headline.
            let hosts = if m.hosts_by_sku.len() > 1 {
                report::model::headline::estate_hosts(m)
            } else {
                format!("{} x {}", m.hosts, m.sku)
            };
            let shown = format!("{design}: {hosts} {}", plural(u64::from(m.hosts), "host"));
            // Designs compared without a host price: no total decides, so nothing is
            // recommended (the report's "design: none recommended ...; shown: ...").
            if p.designs.is_some() && m.total_usd_per_month.is_none() {
                format!("none recommended (no host price to compare); shown: {shown}")
            } else {
                shown
            }
        }
    }
}

/// The estate's SKUs with hosts but no price (`av36p`, `av64 and av36p`); the estate's SKU
/// when its hosts are not split by SKU.
fn unpriced_skus(m: &crate::plan::EstateSummary) -> String {
    let skus: Vec<&str> = m
        .hosts_by_sku
        .iter()
        .filter(|h| h.hosts > 0 && h.usd_per_hour.is_none())
        .map(|h| h.sku.as_str())
        .collect();
    if skus.is_empty() {
        m.sku.clone()
    } else {
        skus.join(" and ")
    }
}

/// The plan as `dsplan plan --format html --charts` writes it: one self-contained document
/// with its charts inline.
///
/// # Errors
/// [`crate::Error`] when a chart cannot be drawn.
pub fn html_document(planned: &Planned, options: &PlanOptions) -> Result<String, crate::Error> {
    let charts = planned.charts(options)?;
    Ok(match planned {
        Planned::Single(plan) => report::html::plan_html(plan, &charts),
        Planned::PerCluster(plans) => report::html::cluster_plans_html(plans, &charts),
        Planned::Estate(plan) => report::html::estate_html(plan, &charts),
    })
}

/// What a document holds inside `<main>` (the whole text when it has none).
pub fn body_of(document: &str) -> &str {
    let start = document.find("<main>").map_or(0, |i| i + "<main>".len());
    let end = document.rfind("</main>").unwrap_or(document.len());
    document.get(start..end.max(start)).unwrap_or(document)
}

/// A region the page offers: its ARM name and display name.
#[derive(Debug, Clone, Serialize)]
pub struct RegionChoice {
    /// ARM name (`eastus`), the value sent as `region`.
    pub region: String,
    /// Display name (`East US`): `data/avs_anf_regions.csv`'s where listed there, else the
    /// price table's location.
    pub name: String,
}

/// A host SKU the page offers.
#[derive(Debug, Clone, Serialize)]
pub struct SkuChoice {
    /// SKU name (`av36p`), the value sent as `host_sku`.
    pub sku: String,
    /// Physical cores of one host.
    pub cores: u32,
    /// Memory of one host, GB.
    pub memory_gb: f64,
}

/// The form's lists (`GET /api/choices`), from the built-in catalogs.
#[derive(Debug, Clone, Serialize)]
pub struct Choices {
    /// Regions with ANF prices (`data/prices.csv`), by display name.
    pub regions: Vec<RegionChoice>,
    /// Host SKUs (`data/avs_hosts.csv`), in the table's order.
    pub skus: Vec<SkuChoice>,
    /// Host terms a host price may be given for.
    pub host_terms: Vec<&'static str>,
    /// Lowest host price the server takes, USD per host-hour ([`MIN_USD_PER_HOST_HOUR`]):
    /// the page's price fields' `min`.
    pub min_usd_per_host_hour: f64,
    /// Highest host price the server takes, USD per host-hour ([`MAX_USD_PER_HOST_HOUR`]):
    /// the page's price fields' `max`.
    pub max_usd_per_host_hour: f64,
}

/// The form's lists from the built-in catalogs.
///
/// # Errors
/// [`crate::Error`] if a compiled-in table is malformed (a build defect).
pub fn choices() -> Result<Choices, crate::Error> {
    let catalog = crate::catalog::Catalog::builtin()?;
    let avs = crate::catalog::avs_anf_regions()?;
    let mut regions: Vec<RegionChoice> = catalog
        .prices
        .values()
        .map(|p| RegionChoice {
            region: p.region.clone(),
            name: avs
                .iter()
                .find(|r| r.region == p.region)
                .map_or_else(|| p.location.clone(), |r| r.display_name.clone()),
        })
        .collect();
    regions.sort_by(|a, b| a.name.cmp(&b.name));
    let skus = crate::vsan::VsanCatalog::builtin()?
        .hosts
        .into_iter()
        .map(|h| SkuChoice {
            sku: h.sku,
            cores: h.cores,
            memory_gb: h.memory_gb,
        })
        .collect();
    Ok(Choices {
        regions,
        skus,
        host_terms: vec!["payg", "1y", "3y", "5y"],
        min_usd_per_host_hour: MIN_USD_PER_HOST_HOUR,
        max_usd_per_host_hour: MAX_USD_PER_HOST_HOUR,
    })
}

/// The plan in one of the report's text formats.
///
/// # Errors
/// [`crate::Error::Report`].
pub fn render(planned: &Planned, format: Format) -> Result<String, crate::Error> {
    Ok(match planned {
        Planned::Single(plan) => report::render_plan(plan, format),
        Planned::PerCluster(plans) => report::render_cluster_plans(plans, format),
        Planned::Estate(plan) => report::render_estate_plan(plan, format),
    }?)
}

/// The plan as a workbook, and the warnings of what was cut to fit Excel.
///
/// # Errors
/// [`crate::Error::Report`].
pub fn workbook(planned: &Planned) -> Result<report::xlsx::Workbook, crate::Error> {
    Ok(match planned {
        Planned::Single(plan) => report::xlsx::plan_xlsx(plan),
        Planned::PerCluster(plans) => report::xlsx::cluster_plans_xlsx(plans),
        Planned::Estate(plan) => report::xlsx::estate_xlsx(plan),
    }?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_unknown_fields_and_files_are_refused() {
        let err =
            parse_options(&serde_json::json!({"iops": 1, "iopz": 2, "io_profile": {"bogus": 1}}))
                .unwrap_err();
        // serde_json objects iterate sorted by key: io_profile < iops < iopz.
        // `iopz` is one letter from `iops`: suggested; `bogus` is near no field.
        assert_eq!(
            err.0,
            "unknown option(s): `io_profile.bogus`, `iopz` (did you mean `iops`?)"
        );
        let err = parse_options(&serde_json::json!({"price_file": "/etc/passwd"})).unwrap_err();
        assert!(
            err.0.starts_with("`price_file` names a file on disk"),
            "{}",
            err.0
        );
        let err = parse_options(&serde_json::json!({"iops": "many"})).unwrap_err();
        assert_eq!(err.0, "`iops`: a number (got \"many\")");
        let err = parse_options(&serde_json::json!({"iops": 5, "peak_months": 2.5})).unwrap_err();
        assert_eq!(err.0, "`peak_months`: a whole number (got 2.5)");
        // Missing fields take the defaults; null file settings are fine.
        let got = parse_options(&serde_json::json!({"iops": 20000.0, "perf": null})).unwrap();
        assert_eq!(
            got,
            PlanOptions {
                iops: 20_000.0,
                ..PlanOptions::default()
            }
        );
    }

    #[test]
    fn typed_prices_are_a_price_file_and_the_body_is_main() {
        let prices = [TypedHostPrice {
            sku: "av36, \"x\"".to_string(),
            term: "1y".to_string(),
            usd_per_hour: 7.25,
        }];
        // A comma or quote in a value is quoted as CSV, so it stays one field.
        assert_eq!(
            host_price_csv(&prices, "westeurope").unwrap(),
            "sku,term,usd_per_hour,region,source\n\"av36, \"\"x\"\"\",1y,7.25,westeurope,\
             typed into the web page\n"
        );
        assert_eq!(
            body_of("<html><main>\n<h1>x</h1></main></html>"),
            "\n<h1>x</h1>"
        );
        assert_eq!(body_of("no shell"), "no shell");
        assert_eq!(body_of("</main> then <main>"), "");
    }

    #[test]
    fn the_page_can_force_a_design_and_count_existing_gateways() {
        let got = parse_options(&serde_json::json!({
            "design": "hybrid",
            "existing_er_gateways": 2
        }))
        .unwrap();
        assert_eq!(got.design, Some(crate::plan::Design::Hybrid));
        assert_eq!(got.existing_er_gateways, 2);
        let err = parse_options(&serde_json::json!({"design": "cheapest"})).unwrap_err();
        assert!(err.0.starts_with("`design`"), "{}", err.0);
    }

    #[test]
    fn vsan_policy_takes_the_readme_spelling_and_the_serde_form() {
        use crate::vsan::PolicyChoice;
        for (given, want) in [
            (serde_json::json!("auto"), PolicyChoice::Auto),
            (serde_json::json!("Auto"), PolicyChoice::Auto),
            (
                serde_json::json!("raid5-ftt1"),
                PolicyChoice::Named("raid5-ftt1".to_string()),
            ),
            (
                serde_json::json!({"Named": "raid6-ftt2"}),
                PolicyChoice::Named("raid6-ftt2".to_string()),
            ),
        ] {
            let got = parse_options(&serde_json::json!({ "vsan_policy": given })).unwrap();
            assert_eq!(got.vsan_policy, want, "{given}");
        }
    }
}

//! Each warning kind ([`WarningKind`]) is what a real input or setting produces: a small
//! vInfo CSV built here (or a perf CSV beside it) read or planned, and the warning its
//! cause gives looked up by its sentence, then its kind checked. One test per kind, so a
//! warning that changes kind (or a kind no input reaches any more) fails by name.

use std::path::PathBuf;

use dsplan::ingest::{read_inputs_bytes, read_perf_csv};
use dsplan::inventory::{Inventory, Warning, WarningKind};
use dsplan::prelude::*;
use dsplan::sizing::HostTerm;

/// The header of the vInfo CSVs built here.
const HEADER: &str = "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB,Cluster,VM ID,\
                      VI SDK Server\n";

/// A vInfo row of a powered-on VM of vCenter `vc`: `cpus` vCPUs, 8 GiB of memory, 100 GiB
/// provisioned and in use.
fn row(name: &str, cpus: &str, cluster: &str, id: &str) -> String {
    format!("{name},poweredOn,False,{cpus},8192,102400,102400,{cluster},{id},vc\n")
}

/// Three small VMs in cluster `c1`.
fn small_vms() -> String {
    [
        row("a", "2", "c1", "vm-1"),
        row("b", "2", "c1", "vm-2"),
        row("c", "4", "c1", "vm-3"),
    ]
    .concat()
}

/// The inventory of one vInfo CSV held in memory.
fn read(csv: &str) -> Inventory {
    read_inputs_bytes(&[("RVTools_tabvInfo.csv", csv.as_bytes())]).expect("a readable vInfo")
}

/// The estate plan of one vInfo CSV held in memory, under `options`.
fn plan(csv: &str, options: PlanOptions) -> EstatePlan {
    Planner::new()
        .input_bytes("RVTools_tabvInfo.csv", csv.as_bytes().to_vec())
        .options(options)
        .plan_estate()
        .expect("an estate plan")
}

/// The estate plan of [`small_vms`] under `options`.
fn plan_small(options: PlanOptions) -> EstatePlan {
    plan(&format!("{HEADER}{}", small_vms()), options)
}

/// The warning whose message holds `words`, with every warning listed when none does.
fn warning_with<'a>(warnings: &'a [Warning], words: &str) -> &'a Warning {
    warnings
        .iter()
        .find(|w| w.message.contains(words))
        .unwrap_or_else(|| panic!("no warning says {words:?}: {warnings:#?}"))
}

#[test]
fn a_field_in_two_columns_is_a_layout_warning() {
    // `In Use MiB` and `In Use MB` both in the header: the input's shape.
    let csv = format!(
        "{}{}",
        HEADER.replace("In Use MiB,", "In Use MiB,In Use MB,"),
        "a,poweredOn,False,2,8192,102400,102400,102400,c1,vm-1,vc\n"
    );
    let inv = read(&csv);
    let w = warning_with(&inv.warnings, "two columns hold");
    assert_eq!(w.kind(), WarningKind::Layout, "{w}");
    assert_eq!(w.row, Some(1));
}

#[test]
fn a_column_no_input_has_is_layout_and_its_empty_cells_are_values() {
    // No `In Use MiB` column and no `Template` column: the 3 VMs are sized by their
    // provisioned capacity, and their template flag is unknown. Both are the input's
    // shape: `layout`, about the sheet (no row: no row is wrong), the column named.
    let header = HEADER.replace("In Use MiB,", "").replace("Template,", "");
    let rows = [
        "a,poweredOn,2,8192,102400,c1,vm-1,vc\n",
        "b,poweredOn,2,8192,102400,c1,vm-2,vc\n",
        "c,poweredOn,4,8192,102400,c1,vm-3,vc\n",
    ]
    .concat();
    let estate = plan(&format!("{header}{rows}"), PlanOptions::default());
    let w = warning_with(&estate.warnings, "have no in-use capacity");
    assert_eq!(w.kind(), WarningKind::Layout, "{w}");
    assert!(
        w.message.starts_with("no `In Use MiB` column: 3 VM(s)"),
        "{w}"
    );
    assert_eq!((w.sheet.as_deref(), w.row), (Some("vInfo"), None), "{w}");
    let w = warning_with(&estate.warnings, "template flag is unknown");
    assert_eq!(w.kind(), WarningKind::Layout, "{w}");
    // The columns there, one VM's cells empty: that VM's values, at its row (2: the first
    // data row after the header, 1).
    let rows = [
        "a,poweredOn,,2,8192,102400,,c1,vm-1,vc\n",
        "b,poweredOn,False,2,8192,102400,102400,c1,vm-2,vc\n",
    ]
    .concat();
    let estate = plan(&format!("{HEADER}{rows}"), PlanOptions::default());
    let w = warning_with(&estate.warnings, "have no in-use capacity");
    assert_eq!(w.kind(), WarningKind::Value, "{w}");
    assert_eq!(w.row, Some(2), "{w}");
    let w = warning_with(&estate.warnings, "template flag is unknown");
    assert_eq!(w.kind(), WarningKind::Value, "{w}");
}

#[test]
fn an_unreadable_cell_is_a_value_warning() {
    let csv = format!("{HEADER}{}", row("a", "abc", "c1", "vm-1"));
    let inv = read(&csv);
    let w = warning_with(&inv.warnings, "not a number");
    assert_eq!(w.kind(), WarningKind::Value, "{w}");
    assert_eq!(w.column.as_deref(), Some("CPUs"));
    assert_eq!(w.value.as_deref(), Some("abc"));
}

#[test]
fn one_name_on_two_vms_is_an_identity_warning() {
    // Two VMs named `a` (different VM IDs): both kept, the name warned of.
    let csv = format!(
        "{HEADER}{}{}",
        row("a", "2", "c1", "vm-1"),
        row("a", "2", "c1", "vm-2")
    );
    let inv = read(&csv);
    assert_eq!(inv.vms.len(), 2);
    let w = warning_with(&inv.warnings, "appears 2 times");
    assert_eq!(w.kind(), WarningKind::Identity, "{w}");
}

#[test]
fn a_perf_row_of_no_vm_is_a_performance_warning() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("warning_kinds");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let perf = dir.join("perf.csv");
    std::fs::write(&perf, "vm,iops,throughput_mibps\na,100,5\nghost,50,1\n").expect("write");
    let inv = read(&format!("{HEADER}{}", small_vms()));
    let input = read_perf_csv(&perf, &inv).expect("a readable perf CSV");
    let w = warning_with(&input.warnings, "is not in the inventory");
    assert_eq!(w.kind(), WarningKind::Performance, "{w}");
    assert_eq!(w.value.as_deref(), Some("ghost"));
}

#[test]
fn a_host_term_without_a_public_price_is_a_price_warning() {
    // No public one-year price for the SKU the plan picks: its host cost is unknown.
    let estate = plan_small(PlanOptions::default().host_term(HostTerm::OneYear));
    let w = warning_with(&estate.warnings, "no public 1y price");
    assert_eq!(w.kind(), WarningKind::Price, "{w}");
}

#[test]
fn no_ha_host_is_a_setting_warning() {
    let estate = plan_small(PlanOptions::default().ha_hosts(0));
    let w = warning_with(&estate.warnings, "`ha_hosts` 0");
    assert_eq!(w.kind(), WarningKind::Setting, "{w}");
}

#[test]
fn a_retiring_host_sku_is_an_azure_warning() {
    // AV36P's retirement is announced (data/avs_hosts.csv): a note to check with Azure.
    let estate = plan_small(PlanOptions::default().host_sku("AV36P"));
    let w = warning_with(&estate.warnings, "announced the retirement");
    assert_eq!(w.kind(), WarningKind::Azure, "{w}");
}

#[test]
fn a_vm_larger_than_any_host_is_an_estate_warning() {
    // 700 vCPUs (under vSphere's 768, so read) is more than 2 x the cores of any AVS host
    // (AV64: 64 cores, 128 vCPUs): the VM is left out of the estate.
    let csv = format!(
        "{HEADER}{}{}",
        small_vms(),
        row("huge", "700", "c1", "vm-9")
    );
    let estate = plan(&csv, PlanOptions::default());
    let w = warning_with(&estate.warnings, "larger than any AVS host");
    assert_eq!(w.kind(), WarningKind::Estate, "{w}");
}

#[test]
fn a_clipped_cell_is_a_bound_warning() {
    // A 300-character cluster name: kept to its first 256 characters.
    let long = "c".repeat(300);
    let csv = format!("{HEADER}{}", row("a", "2", &long, "vm-1"));
    let inv = read(&csv);
    assert_eq!(inv.vms[0].cluster.as_deref().map(str::len), Some(256));
    let w = warning_with(&inv.warnings, "text of 300 characters");
    assert_eq!(w.kind(), WarningKind::Bound, "{w}");
    assert_eq!(w.column.as_deref(), Some("Cluster"));
}

#[test]
fn a_cheaper_grouping_is_a_plan_warning() {
    // Two source clusters of one small VM each: each is raised to the 3-host minimum (6
    // hosts), where one packed cluster of the estate holds both on 3.
    let csv = format!(
        "{HEADER}{}{}",
        row("a", "2", "c1", "vm-1"),
        row("b", "2", "c2", "vm-2")
    );
    let estate = plan(&csv, PlanOptions::default());
    let w = warning_with(&estate.warnings, "`group` estate packs the VMs");
    assert_eq!(w.kind(), WarningKind::Plan, "{w}");
}

#[test]
fn the_json_writes_each_kind_by_its_name() {
    // The plan's JSON: every warning has its kind, read back as the kind it was.
    let estate = plan(
        &format!("{HEADER}{}", row("a", "abc", "c1", "vm-1") + &small_vms()),
        PlanOptions::default().ha_hosts(0),
    );
    let json: serde_json::Value = serde_json::from_str(
        &dsplan::report::render_estate_plan(&estate, dsplan::report::Format::Json).expect("JSON"),
    )
    .expect("valid JSON");
    let warnings = json["warnings"].as_array().expect("a warnings list");
    assert_eq!(warnings.len(), estate.warnings.len());
    for (w, j) in estate.warnings.iter().zip(warnings) {
        let kind: WarningKind = j["kind"]
            .as_str()
            .expect("a kind")
            .parse()
            .expect("a kind name");
        assert_eq!(kind, w.kind(), "{j}");
    }
    assert!(warnings.iter().any(|j| j["kind"] == "value"));
    assert!(warnings.iter().any(|j| j["kind"] == "setting"));
}

#[test]
fn the_reports_show_each_kind_beside_its_text() {
    // One unreadable cell (value) and `ha_hosts` 0 (setting): the text and Markdown lines
    // start with the kind in brackets, the HTML gives it a badge.
    let estate = plan(
        &format!("{HEADER}{}", row("a", "abc", "c1", "vm-1") + &small_vms()),
        PlanOptions::default().ha_hosts(0),
    );
    let render = |format| dsplan::report::render_estate_plan(&estate, format).expect("a report");
    let text = dsplan::report::render_estate_text(&estate, dsplan::report::TextDetail::Summary);
    assert!(
        text.lines().any(|l| l.starts_with(
            "  (value) RVTools_tabvInfo.csv [vInfo] row 2 column 'CPUs' value 'abc': not a number"
        )),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("  (setting) `ha_hosts` 0")),
        "{text}"
    );
    let markdown = render(dsplan::report::Format::Markdown);
    assert!(
        markdown
            .lines()
            .any(|l| l.starts_with("- (value) RVTools_tabvInfo.csv")),
        "{markdown}"
    );
    let html = render(dsplan::report::Format::Html);
    assert!(html.contains("<span class=\"kind\">value</span>"), "{html}");
    assert!(
        html.contains("<span class=\"kind\">setting</span>"),
        "{html}"
    );
}

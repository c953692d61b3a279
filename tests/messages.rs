//! What the command tells a user about their own files and plan: a field written in two
//! columns (and what is read from each: `two_spellings`), the round-4 `msg/` findings
//! (spreadsheet-error VM names, an xlsx named .zip, long zip folders: `echoes`), a CSV row split by unquoted thousands separators, headers quoted as the file
//! spells them, unknown figures shown as unknown, counts in the singular for one, JSON
//! figures without f64 noise. Each fixture is a few lines written here, or the project's
//! `fixtures/small-estate.xlsx`.

use std::path::{Path, PathBuf};

use dsplan::ingest::read_inputs;
use dsplan::inventory::Inventory;

#[path = "messages/two_spellings.rs"]
mod two_spellings;

#[path = "messages/echoes.rs"]
mod echoes;

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("messages")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write fixture");
    path
}

fn read(path: &Path) -> Inventory {
    match read_inputs(&[path]) {
        Ok(inv) => inv,
        Err(e) => panic!("{} refused: {e}", path.display()),
    }
}

/// The warnings of `inv` that contain `what`, as text.
fn warnings_with(inv: &Inventory, what: &str) -> Vec<String> {
    inv.warnings
        .iter()
        .map(ToString::to_string)
        .filter(|w| w.contains(what))
        .collect()
}

#[test]
fn a_field_in_two_columns_reads_the_mib_one_and_says_so() {
    let dir = scratch("two_columns");
    // Columns: A VM, B Provisioned MiB, C Provisioned MB, D In Use MB, E In Use MiB. The MiB
    // columns hold 2048 and 1024, the MB ones other figures, so the figure read tells which
    // column was read.
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MiB,Provisioned MB,In Use MB,In Use MiB\nvm1,2048,2000,1000,1024\n",
    );
    let inv = read(&path);
    assert_eq!(inv.vms[0].provisioned_mib, Some(2048.0));
    assert_eq!(inv.vms[0].in_use_mib, Some(1024.0));
    let provisioned = warnings_with(&inv, "two columns hold Provisioned MiB");
    assert_eq!(provisioned.len(), 1, "{:?}", inv.warnings);
    for part in [
        "'Provisioned MiB' (column B)",
        "'Provisioned MB' (column C)",
        "reading 'Provisioned MiB' (column B)",
        "a MiB header is exact",
    ] {
        assert!(
            provisioned[0].contains(part),
            "lacks {part}: {}",
            provisioned[0]
        );
    }
    // The MiB column comes after the MB one: still the one read.
    let in_use = warnings_with(&inv, "two columns hold In Use MiB");
    assert_eq!(in_use.len(), 1, "{:?}", inv.warnings);
    assert!(
        in_use[0].contains("reading 'In Use MiB' (column E)"),
        "{}",
        in_use[0]
    );
    assert!(
        in_use[0].contains("'In Use MB' (column D)"),
        "{}",
        in_use[0]
    );
}

#[test]
fn a_vdisk_field_in_two_columns_is_warned_with_its_reason() {
    let dir = scratch("two_columns_vdisk");
    write(
        &dir,
        "RVTools_tabvInfo.csv",
        "VM,Provisioned MiB,In Use MiB\nvm1,4096,1024\n",
    );
    // Capacity in `Capacity MB` (C) and `vDiskCapacity` (D), no MiB spelling: the preferred
    // spelling of the list is read, `Capacity MB`, 3072 MiB.
    write(
        &dir,
        "RVTools_tabvDisk.csv",
        "VM,Disk,Capacity MB,vDiskCapacity\nvm1,Hard disk 1,3072,3000\n",
    );
    let inv = read(&dir);
    assert_eq!(inv.disks.len(), 1);
    assert_eq!(inv.disks[0].capacity_mib, Some(3072.0));
    let w = warnings_with(&inv, "two columns hold Capacity MiB");
    assert_eq!(w.len(), 1, "{:?}", inv.warnings);
    for part in [
        "'Capacity MB' (column C)",
        "'vDiskCapacity' (column D)",
        "preferred spelling",
    ] {
        assert!(w[0].contains(part), "lacks {part}: {}", w[0]);
    }
}

#[test]
fn one_spelling_of_each_field_gives_no_two_column_warning() {
    let dir = scratch("one_column");
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MB,In Use MiB\nvm1,2048,1024\n",
    );
    let inv = read(&path);
    assert!(
        warnings_with(&inv, "two columns hold").is_empty(),
        "{:?}",
        inv.warnings
    );
}

#[test]
fn unquoted_thousands_separators_are_named_as_the_likely_cause() {
    let dir = scratch("thousands");
    // Header of 3 fields; row 3 writes 1,024 and 51,200 unquoted: 5 fields, 2 extra, which
    // the two split numbers account for.
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MiB,In Use MiB\nvm1,2048,1024\nvm2,51,200,1,024\n",
    );
    let err = read_inputs(&[&path]).expect_err("a ragged row is refused");
    let msg = err.to_string();
    for part in [
        "row 3",
        "ragged row: 5 fields where the header has 3",
        "unquoted thousands separators (as in '51,200', '1,024')",
    ] {
        assert!(msg.contains(part), "lacks {part}: {msg}");
    }
}

#[test]
fn a_comma_in_an_unquoted_name_is_named_as_the_likely_cause() {
    let dir = scratch("comma_in_name");
    // `web, east` splits into 2 fields: 1 extra, and no digit groups to explain it.
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MiB,In Use MiB\nweb, east,2048,1024\n",
    );
    let msg = read_inputs(&[&path]).expect_err("refused").to_string();
    assert!(
        msg.contains("likely a ',' inside an unquoted value (1 extra field(s))"),
        "{msg}"
    );
}

/// The warnings of a perf CSV read against a one-VM inventory (`vm1`), as text.
fn perf_warnings(dir: &Path, perf: &str) -> Vec<String> {
    let inv = read(&write(dir, "vinfo.csv", "VM,In Use MiB\nvm1,1024\n"));
    let path = write(dir, "perf.csv", perf);
    match dsplan::ingest::read_perf_csv(&path, &inv) {
        Ok(p) => p.warnings.iter().map(ToString::to_string).collect(),
        Err(e) => panic!("{} refused: {e}", path.display()),
    }
}

#[test]
fn perf_warnings_quote_the_headers_as_the_file_spells_them() {
    let dir = scratch("perf_headers");
    // 2e7 IOPS and 2e6 MiB/s are beyond one VM (limits 1e7 and 1e6); `vm9` is not in the
    // inventory.
    let w = perf_warnings(
        &dir,
        "Name,Total IOPS,MiBps\nvm1,20000000,2000000\nvm9,1,1\n",
    );
    let find = |part: &str| {
        w.iter()
            .find(|m| m.contains(part))
            .unwrap_or_else(|| panic!("no warning with {part}: {w:?}"))
            .clone()
    };
    assert!(
        find("2e7 IOPS, more than any VM drives")
            .contains("row 2 column 'Total IOPS' value '20000000'")
    );
    assert!(find("2e6 MiB/s, more than any VM drives").contains("row 2 column 'MiBps'"));
    assert!(find("VM 'vm9' is not in the inventory").contains("row 3 column 'Name'"));
    // The lower-case spelling is quoted lower-case.
    let w = perf_warnings(&dir, "VM,iops\nvm1,20000000\n");
    assert!(
        w.iter()
            .any(|m| m.contains("column 'iops'") && m.contains("more than any VM drives")),
        "{w:?}"
    );
    assert!(!w.iter().any(|m| m.contains("'IOPS'")), "{w:?}");
}

#[test]
fn a_header_only_vinfo_shows_consumed_memory_unknown_in_the_table_and_the_line() {
    let dir = scratch("header_only");
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Provisioned MiB,In Use MiB,CPUs,Memory\n",
    );
    let inv = read(&path);
    assert!(inv.vms.is_empty());
    let text =
        dsplan::report::render_inventory(&inv, dsplan::report::Format::Text).expect("text renders");
    let header = text
        .lines()
        .find(|l| l.starts_with("cluster"))
        .unwrap_or_else(|| panic!("no table header: {text}"));
    let total = text
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("no total row: {text}"));
    // The columns are right-aligned under their headers: the consumed cell ends where the
    // `consumed GiB` header ends.
    let end = header.find("consumed GiB").expect("consumed column") + "consumed GiB".len();
    assert!(total[..end].ends_with(" unknown"), "{total}");
    assert!(
        text.contains("consumed unknown (no VM has a vMemory figure)"),
        "{text}"
    );
}

#[test]
fn the_estate_headline_counts_one_of_each_in_the_singular() {
    use dsplan::report::{Format, render_estate_plan};
    let dir = scratch("one_of_each");
    // One small VM (4 vCPUs, 8 GiB, 100 GiB in use): 1 AVS cluster of the 3-host minimum in
    // 1 private cloud; ANF for all puts its data on 1 datastore in 1 pool of 1 account.
    let path = write(
        &dir,
        "vinfo.csv",
        "VM,Powerstate,Cluster,Provisioned MiB,In Use MiB,CPUs,Memory\n\
         vm1,poweredOn,C1,204800,102400,4,8192\n",
    );
    let options = dsplan::PlanOptions::default().design(dsplan::plan::Design::Anf);
    let estate = dsplan::Planner::new()
        .input(&path)
        .options(options)
        .plan_estate()
        .expect("one VM plans");
    let text = render_estate_plan(&estate, Format::Text).expect("text");
    let head = text.lines().next().unwrap_or_default();
    assert!(
        head.starts_with("Estate: 1 VM on 3 ")
            && head.contains(" hosts in 1 AVS cluster, 1 private cloud; 1 datastore in 1 pool (")
            && head.contains(", 1 NetApp account);"),
        "{head}"
    );
    let markdown = render_estate_plan(&estate, Format::Markdown).expect("markdown");
    assert!(markdown.contains("**1 VM on 3 "), "{markdown}");
    let html = render_estate_plan(&estate, Format::Html).expect("html");
    assert!(
        html.contains("Azure NetApp Files datastores for 1 VM, "),
        "lacks the subtitle"
    );
    assert!(html.contains(" 1 VM placed, "), "lacks the placed count");
    for wrong in ["1 VMs", "(s)"] {
        assert!(!head.contains(wrong), "{head}");
    }
}

/// The significant digits of a JSON number token (`0.0185` -> 3, `3564.0000000000005` ->
/// 17); trailing zeros of the fraction and the exponent do not count.
fn significant_digits(token: &str) -> usize {
    let mantissa = token.split(['e', 'E']).next().unwrap_or_default();
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = if mantissa.contains('.') {
        digits.trim_end_matches('0')
    } else {
        &digits
    };
    digits.trim_start_matches('0').len()
}

#[test]
fn plan_json_figures_carry_no_float_noise() {
    use dsplan::report::{Format, render_plan};
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    let plan = dsplan::Planner::new()
        .input(fixture)
        .options(dsplan::PlanOptions::default().hosts(3).growth_pct(10.0))
        .plan()
        .expect("the fixture plans");
    let json = render_plan(&plan, Format::Json).expect("json");
    // The 7 placed VMs (the template left out) hold 1,800 GiB in use (fixture: 50 + 50 +
    // 800 + 100 + 250 + 150 + 400);
    // 10% growth makes 1,980 GiB for the vSAN comparison, which stores it with the 20%
    // headroom, 1,980 x 1.2 = 2,376 GiB, and needs 2,376 x 2 (RAID-1) / (1 - 25% slack) =
    // 6,336 GiB raw = 6.1875 TiB. f64 arithmetic gives 1980.0000000000002 for the data (the
    // raw figure, 1980.0000000000002 / 1,024 x 1.2 x 2 / 0.75, comes out exact, where
    // without the headroom it gave 5.156250000000001); every other figure is checked below.
    assert!(json.contains("\"data_gib\": 1980.0,"), "{json}");
    assert!(json.contains("\"raw_needed_tib\": 6.1875,"), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let mut numbers = Vec::new();
    collect_numbers(&v, &mut numbers);
    assert!(numbers.len() > 100, "{}", numbers.len());
    let noisy: Vec<&String> = numbers
        .iter()
        .filter(|n| significant_digits(n) > 13)
        .collect();
    assert!(noisy.is_empty(), "{noisy:?}");
}

/// Every number of `v`, as serde_json writes it.
fn collect_numbers(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Number(n) => out.push(n.to_string()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_numbers(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| collect_numbers(x, out)),
        _ => {}
    }
}

/// Every sentence of the Markdown report ends with one full stop: the warnings' lead
/// sentence, which ends with its own, got a second one from the renderer before.
#[test]
fn no_markdown_sentence_ends_with_two_full_stops() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/small-estate.xlsx");
    let estate = dsplan::Planner::new()
        .input(fixture)
        .plan_estate()
        .expect("the fixture plans");
    let markdown = dsplan::report::render_estate_plan(&estate, dsplan::report::Format::Markdown)
        .expect("markdown");
    assert!(
        markdown.contains("templates and excluded VMs included.\n"),
        "{markdown}"
    );
    let doubled: Vec<&str> = markdown
        .lines()
        .filter(|l| l.ends_with("..") && !l.ends_with("..."))
        .collect();
    assert!(doubled.is_empty(), "{doubled:?}");
}

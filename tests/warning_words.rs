//! The words of the warnings, each kind rendered once and compared with the sentence
//! written here: one line per cause, a whole sentence, the count of the others alike at
//! its end ("... treated as unknown (and 5 more alike: row 4, row 5, row 6 and 2 more)"),
//! the place named once (a tab not read does not repeat its file and sheet).
//!
//! The warnings the readers emit (grep `Warning {`, `Warning::at_cell`, `Warning::at_row`,
//! `row.warn` under `src/ingest`), and the ones this test makes happen:
//!
//! | cause | where | row(s) of the fixture |
//! |---|---|---|
//! | power state not poweredOn/poweredOff/suspended | `vinfo::power_state` | vInfo 3..8 ('On') |
//! | 0 vCPUs | `vinfo::vcpus` | vInfo 3 |
//! | more than 768 vCPUs | `vinfo::vcpus` | vInfo 4 (1000) |
//! | 0 MiB of memory | `vinfo::memory_mib` | vInfo 3 |
//! | not a number | `table::Row::number` | vInfo 4 ('abc'), vMemory 3 ('lots') |
//! | negative value | `table::Row::non_negative` | vInfo 4 (-5) |
//! | row with values but no VM name | `table::Row::name` | vInfo 9 |
//! | optional tab without its key column | `optional::TabContext::optional` | vDisk (no `VM`) |
//! | weaker join key | `join` | vMemory (no `VM ID`) |
//! | child row naming no VM of vInfo | `join` | vMemory 2 ('ghost') |
//! | In Use above Provisioned | `quality` | vInfo 3 (2000 > 1000) |
//! | host not in vHost | `quality` | vInfo 5 ('h9') |
//! | no figure known at all | `foreign::check_capacity` | a second input |
//!
//! Each line starts with the warning's kind (`(value) `, `(layout) `). The planner's (grep
//! `Warning::plan_wide` under `src/planner`, `src/optimize`, `src/demand`) name no file and
//! print as their kind and message alone: the small estate's plan
//! shows two kinds (an RDM disk left out, clusters raised to the 3-host minimum).

use std::path::{Path, PathBuf};

use dsplan::ingest::read_inputs;
use dsplan::report::{Format, render_inventory};

/// A fresh folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("warning_words")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The lines of the text's `Warnings (N)` section, the title included.
fn warnings_section(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Warnings ("))
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The section's title for `count` warnings.
fn head(count: usize) -> String {
    format!("Warnings ({count})")
}

/// The sentence before the list when some warning is about the input.
const NOTE: &str =
    "  Warnings about the input count every row read, templates and excluded VMs included.";

#[test]
fn every_reader_warning_kind_reads_as_one_whole_line() {
    let dir = scratch("readers");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
    write(
        "RVTools_tabvInfo.csv",
        "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB,Host,Cluster,VI SDK Server\n\
         a,poweredOn,False,2,4096,1000,500,h1,c1,vc\n\
         b,On,False,0,0,1000,2000,h1,c1,vc\n\
         c,On,False,1000,4096,abc,-5,h1,c1,vc\n\
         d,On,False,2,4096,1000,500,h9,c1,vc\n\
         e,On,False,2,4096,1000,500,h1,c1,vc\n\
         f,On,False,2,4096,1000,500,h1,c1,vc\n\
         g,On,False,2,4096,1000,500,h1,c1,vc\n\
         ,poweredOn,False,2,4096,1000,500,h1,c1,vc\n",
    );
    write(
        "RVTools_tabvHost.csv",
        "Host,# Cores,Cluster,VI SDK Server\nh1,32,c1,vc\n",
    );
    write(
        "RVTools_tabvDisk.csv",
        "Disk,Capacity MiB\nHard disk 1,1000\n",
    );
    write(
        "RVTools_tabvMemory.csv",
        "VM,Consumed,VI SDK Server\nghost,100,vc\na,lots,vc\n",
    );
    let inventory = read_inputs(&[&dir]).expect("the export reads");
    let text = render_inventory(&inventory, Format::Text).expect("text");
    let d = dir.display();
    let vinfo = format!("{d}/RVTools_tabvInfo.csv [vInfo]");
    let vmemory = format!("{d}/RVTools_tabvMemory.csv [vMemory]");
    // 18 warnings: 6 power states (rows 3..8), 2 vCPUs, 1 memory, 1 'abc', 1 -5, 1 no name,
    // 1 vDisk, 1 'lots', 1 join key, 1 ghost, 1 In Use, 1 host: 6 + 12 = 18; 13 causes.
    let expected = [
        head(18),
        NOTE.to_string(),
        format!(
            "  (value) {vinfo} row 3 column 'Powerstate' value 'On': expected poweredOn, poweredOff or \
             suspended; power state treated as unknown (and 5 more alike: row 4, row 5, row 6 \
             and 2 more)"
        ),
        format!(
            "  (value) {vinfo} row 3 column 'CPUs' value '0': 0 vCPUs, but a VM has at least one; \
             treated as unknown"
        ),
        format!(
            "  (value) {vinfo} row 3 column 'Memory' value '0': 0 MiB of memory, but a VM has memory \
             to run; treated as unknown"
        ),
        format!(
            "  (value) {vinfo} row 4 column 'Provisioned MiB' value 'abc': not a number; value treated \
             as unknown"
        ),
        format!(
            "  (value) {vinfo} row 4 column 'In Use MiB' value '-5': negative value; treated as unknown"
        ),
        format!(
            "  (value) {vinfo} row 4 column 'CPUs' value '1000': more than 768 vCPUs, the most a VM \
             has in vSphere 8 (configuration maximums); treated as unknown"
        ),
        format!("  (value) {vinfo} row 9: row has values but no VM name; skipped"),
        format!(
            "  (layout) {d}/RVTools_tabvDisk.csv [vDisk] row 1: required column 'VM' not found (tried: \
             VM, vDiskVMName, VM Name); headers found: [Disk, Capacity MiB]; tab not read, its \
             data is unknown"
        ),
        format!(
            "  (value) {vmemory} row 3 column 'Consumed' value 'lots': not a number; value treated as \
             unknown"
        ),
        format!(
            "  (identity) {vmemory}: vMemory rows joined to vInfo by VI SDK Server + VM name (vInfo and \
             vMemory have no `VM ID` or `VM UUID`)"
        ),
        format!(
            "  (identity) {vmemory} row 2 column 'VM' value 'ghost': 1 vMemory row(s) name a VM not in \
             vInfo (first: 'ghost'); their consumed memory is not counted"
        ),
        format!(
            "  (value) {vinfo} row 3 column 'In Use MiB' value '2000': VM 'b': In Use (2000 MiB) \
             exceeds Provisioned (1000 MiB)"
        ),
        format!(
            "  (identity) {vinfo} row 5 column 'Host' value 'h9': 1 vInfo host(s) of 1 VM(s) are not in \
             vHost: 'h9' (1 VM)"
        ),
    ];
    assert_eq!(warnings_section(&text), expected, "{text}");
}

#[test]
fn an_input_without_any_figure_says_so() {
    let dir = scratch("no_figure");
    let path = dir.join("names.csv");
    std::fs::write(&path, "VM,Powerstate\na,poweredOn\nb,poweredOff\n").expect("write");
    let inventory = read_inputs(&[&path]).expect("read");
    let text = render_inventory(&inventory, Format::Text).expect("text");
    let expected = [
        head(1),
        NOTE.to_string(),
        format!(
            "  (layout) {} [vInfo]: no capacity column (missing: Provisioned MiB, In Use MiB) and no \
             VM's vCPU count or memory known, so every figure of this input is unknown; dsplan \
             reads RVTools exports (RVTools.exe -s <vcenter> -c ExportAll2xlsx, or the \
             per-tab CSV export -c ExportAll2csv) and Live Optics' VMware export (its .xlsx)",
            path.display()
        ),
    ];
    assert_eq!(warnings_section(&text), expected, "{text}");
}

#[test]
fn the_planners_warnings_are_their_sentence_alone() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/small-estate.xlsx");
    let plan = dsplan::Planner::new()
        .input(fixture)
        .plan_estate()
        .expect("the small estate plans");
    let text = dsplan::report::render_estate_text(&plan, dsplan::report::TextDetail::Summary);
    let lines: Vec<&str> = text.lines().collect();
    // The fixture's db-01 (vInfo row 4) has a 2,048 GiB RDM disk beside a 1,024 GiB VMDK;
    // its Provisioned MiB is 1,024 GiB, less than the disks' 1,024 + 2,048 = 3,072 GiB, so
    // vInfo does not count the RDM and the VM is planned at its In Use, 800 GiB. Its 2
    // source clusters each need fewer than 3 hosts.
    assert!(
        lines.contains(
            &format!(
                "  (estate) {fixture} [vInfo] row 4: VM 'db-01' has 2,048.0 GiB of RDM disks (vDisk \
                 `Raw`); vInfo does not count them (its `Provisioned MiB`, 1,024.0 GiB, is less \
                 than its disks' 3,072.0 GiB), so they are not planned: planned 800.0 GiB = `In \
                 Use MiB`. AVS has no RDMs: move their data in-guest to a VMDK, or convert them \
                 to VMDKs, and plan that space separately"
            )
            .as_str()
        ),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l
                .starts_with("  (plan) 2 of the 2 AVS clusters are raised to the 3-host minimum;")),
        "{text}"
    );
    assert!(!text.contains("input's cover"), "{text}");
}

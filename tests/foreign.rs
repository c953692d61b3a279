//! Other tools' exports, made here in their documented layouts (see `src/ingest/foreign.rs`
//! for the sources): each is refused by `dsplan inventory` with exit code 1, naming the
//! format and what to give instead, never read as RVTools with every figure unknown.
//!
//! The files are written to `target/tmp/foreign/` (kept, so the command can be run on
//! them by hand): small, a few rows each.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use dsplan::ingest::{IngestError, IngestErrorKind, read_inputs};

include!("support/command.rs");

/// The folder the fixtures are written to.
fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("foreign");
    std::fs::create_dir_all(&d).expect("make the fixtures' folder");
    d
}

/// A workbook of `sheets`, each a header row and data rows (all text but numbers).
fn workbook(name: &str, sheets: &[(&str, &[&[&str]])]) -> PathBuf {
    let mut book = rust_xlsxwriter::Workbook::new();
    for (sheet_name, rows) in sheets {
        let sheet = book.add_worksheet();
        sheet.set_name(*sheet_name).expect("sheet name");
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let (r, c) = (r as u32, c as u16);
                match cell.parse::<f64>() {
                    Ok(n) => sheet.write_number(r, c, n).map(|_| ()),
                    Err(_) => sheet.write_string(r, c, *cell).map(|_| ()),
                }
                .expect("write a cell");
            }
        }
    }
    let path = dir().join(name);
    book.save(&path).expect("save the workbook");
    path
}

/// Runs `dsplan inventory <path>`: its exit code and stderr.
fn inventory(path: &Path) -> (Option<i32>, String) {
    let out = dsplan(&["inventory", &path.display().to_string()]);
    (out.status.code(), stderr(&out))
}

/// The file is refused as `format`, with exit code 1 and the way to an RVTools export.
fn refused_as(path: &Path, format: &str) {
    let err = read_inputs(&[path]).expect_err("a foreign file is refused");
    assert_eq!(err.kind(), IngestErrorKind::ForeignFormat, "{err}");
    let IngestError::ForeignFormat { format: found, .. } = &err else {
        panic!("not ForeignFormat: {err}");
    };
    assert!(found.starts_with(format), "{found}");
    let (code, text) = inventory(path);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains(format), "{text}");
    assert!(text.contains("which dsplan does not read"), "{text}");
    assert!(
        text.contains("RVTools.exe -s <vcenter> -c ExportAll2xlsx"),
        "{text}"
    );
    assert!(text.contains("Live Optics"), "{text}");
}

#[test]
fn a_nutanix_collector_workbook_is_named() {
    // Collector 6.x: Metadata, its own vInfo (VM Name, Power State), vmList with figures.
    let path = workbook(
        "nutanix-collector.xlsx",
        &[
            (
                "Metadata",
                &[&["Collection Version", "Hypervisor"], &["6.1", "AHV"]],
            ),
            (
                "vInfo",
                &[
                    &["VM Name", "Power State", "Cluster Name"],
                    &["app-01", "on", "c1"],
                ],
            ),
            (
                "vmList",
                &[
                    &[
                        "VM Name",
                        "Power State",
                        "vCPUs",
                        "Memory (MiB)",
                        "Consumed (MiB)",
                    ],
                    &["app-01", "on", "4", "8192", "51200"],
                ],
            ),
        ],
    );
    refused_as(
        &path,
        "a Nutanix Collector workbook (sheets vmList, Metadata)",
    );
    // A collection without its Metadata sheet: the words name only the sheet found.
    let bare = workbook(
        "nutanix-vmlist-only.xlsx",
        &[(
            "vmList",
            &[&["VM Name", "vCPUs"][..], &["app-01", "4"][..]][..],
        )],
    );
    refused_as(&bare, "a Nutanix Collector workbook (sheet vmList)");
}

#[test]
fn azure_migrate_reports_are_named() {
    let assessment = workbook(
        "azure-migrate-assessment.xlsx",
        &[
            (
                "Assessment_Summary",
                &[&["Assessment", "Group"], &["a1", "g1"]],
            ),
            (
                "All_Assessed_Machines",
                &[
                    &["Machine", "Azure VM size", "Cores"],
                    &["app-01", "D4s_v5", "4"],
                ],
            ),
            (
                "All_Assessed_Disks",
                &[&["Machine", "Disk"], &["app-01", "scsi0:0"]],
            ),
        ],
    );
    refused_as(
        &assessment,
        "an Azure Migrate assessment report (sheets Assessment_Summary, \
         All_Assessed_Machines, All_Assessed_Disks)",
    );
    let discovery = workbook(
        "AzureMigrate_Discovery_Report.xlsx",
        &[
            (
                "Properties",
                &[&["Tenant ID", "Workflow"], &["t", "Discovery"]],
            ),
            (
                "Discovery_Report",
                &[
                    &["Machine Name", "Cores", "Memory (in MB)"],
                    &["app-01", "4", "8192"],
                ],
            ),
            (
                "vCenter_Host_Report",
                &[&["vCenters", "Hosts"], &["vc1", "4"]],
            ),
        ],
    );
    refused_as(&discovery, "an Azure Migrate discovery report");
    // The assessment's machines sheet saved as CSV: a CSV has no sheets, its file name
    // told it.
    let csv = dir().join("All_Assessed_Machines.csv");
    std::fs::write(&csv, "Machine,Azure VM size,Cores\napp-01,D4s_v5,4\n").expect("write");
    refused_as(
        &csv,
        "a sheet of an Azure Migrate assessment report saved as CSV (its file name, \
         'All_Assessed_Machines.csv', is that report's sheet name)",
    );
}

#[test]
fn an_xlsx_named_csv_is_named_as_a_workbook() {
    // A workbook saved under a .csv name: its bytes start with the zip signature and hold
    // xl/workbook.xml, so the error says it is an xlsx and to name it .xlsx.
    let book = workbook(
        "renamed-workbook.xlsx",
        &[(
            "vInfo",
            &[&["VM", "Powerstate"][..], &["a", "poweredOn"][..]][..],
        )],
    );
    let csv = dir().join("renamed-workbook.csv");
    std::fs::copy(&book, &csv).expect("copy");
    let err = read_inputs(&[&csv]).expect_err("a workbook named .csv is refused");
    assert_eq!(
        err.to_string(),
        format!(
            "{}: not a spreadsheet: an xlsx workbook (a zip holding xl/workbook.xml), not a \
             CSV text file: name it .xlsx to read it as a workbook",
            csv.display()
        )
    );
    // Other binary bytes stay binary data.
    let junk = dir().join("junk.csv");
    std::fs::write(&junk, b"PK\x03\x04\0\0 no workbook part").expect("write");
    let err = read_inputs(&[&junk]).expect_err("binary is refused");
    assert!(
        err.to_string()
            .ends_with("not a spreadsheet: binary data, not a CSV text file"),
        "{err}"
    );
}

#[test]
fn a_powercli_export_csv_is_named() {
    // Windows PowerShell's Export-Csv without -NoTypeInformation: '#TYPE <type>' first.
    let path = dir().join("powercli-vms.csv");
    std::fs::write(
        &path,
        "#TYPE Selected.VMware.VimAutomation.ViCore.Impl.V1.VM.UniversalVirtualMachineImpl\r\n\
         \"Name\",\"PowerState\",\"NumCpu\",\"MemoryMB\"\r\n\
         \"app-01\",\"PoweredOn\",\"4\",\"8192\"\r\n",
    )
    .expect("write");
    refused_as(&path, "a PowerCLI Export-Csv file");
    let (_, text) = inventory(&path);
    assert!(
        text.contains("'#TYPE Selected.VMware.VimAutomation.ViCore.Impl.V1.VM."),
        "{text}"
    );
}

#[test]
fn per_tab_csv_files_without_rvtools_names_are_named() {
    let folder = dir().join("per-tab");
    std::fs::create_dir_all(&folder).expect("make the folder");
    std::fs::write(
        folder.join("vInfo.csv"),
        "VM,Powerstate,Provisioned MiB,In Use MiB\napp-01,poweredOn,10240,5120\n",
    )
    .expect("write");
    std::fs::write(folder.join("vHost.csv"), "Host,# Cores\nh1,32\n").expect("write");
    refused_as(&folder, "per-tab CSV files without RVTools' file names");
    let (_, text) = inventory(&folder);
    assert!(
        text.contains("rename each to RVTools_tab<tab>.csv"),
        "{text}"
    );
    // The same files zipped in a folder of their own.
    use std::io::Write as _;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for name in ["vInfo.csv", "vHost.csv"] {
        zip.start_file(format!("export/{name}"), deflated)
            .expect("zip entry");
        zip.write_all(&std::fs::read(folder.join(name)).expect("read"))
            .expect("zip bytes");
    }
    let zipped = dir().join("per-tab.zip");
    let bytes = zip.finish().expect("zip").into_inner();
    std::fs::write(&zipped, bytes).expect("write the zip");
    refused_as(&zipped, "per-tab CSV files without RVTools' file names");
}

#[test]
fn a_hyper_v_vinfo_without_capacity_names_the_missing_columns() {
    // An RVTools-like vInfo of Hyper-V VMs: CPUs and memory, no storage columns, power
    // states 'Running' and 'Off'.
    let path = workbook(
        "hyper-v-rvtools-layout.xlsx",
        &[(
            "vInfo",
            &[
                &["VM", "Powerstate", "CPUs", "Memory", "Host"],
                &["app-01", "Running", "4", "8192", "hv1"],
                &["app-02", "Off", "2", "4096", "hv1"],
            ],
        )],
    );
    let err = read_inputs(&[&path]).expect_err("no capacity column");
    assert_eq!(err.kind(), IngestErrorKind::MissingColumn, "{err}");
    let (code, text) = inventory(&path);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("2 VMs but no capacity column (missing: Provisioned MiB, In Use MiB)"),
        "{text}"
    );
    assert!(text.contains("looks like a Hyper-V inventory"), "{text}");
}

#[test]
fn a_vinfo_of_empty_figures_is_read_with_a_warning_saying_so() {
    // The columns are there, every figure cell empty: read, one warning naming why.
    let path = dir().join("empty-figures.csv");
    std::fs::write(
        &path,
        "VM,Powerstate,CPUs,Memory,Provisioned MiB,In Use MiB\napp-01,poweredOn,,,,\n",
    )
    .expect("write");
    let (code, _) = inventory(&path);
    let out = dsplan(&["inventory", &path.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code, Some(0));
    assert!(
        text.contains(
            "no VM has a known vCPU count, memory, provisioned or in-use storage (1 VM row \
             read, every such cell empty or unreadable)"
        ),
        "{text}"
    );
}

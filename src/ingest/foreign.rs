//! Exports of other tools, recognised where an input is opened so that they are named as
//! what they are, with what dsplan reads instead, rather than read as RVTools with every
//! figure unknown or refused for a column they were never meant to have.
//!
//! Each recogniser looks at what the tool's documented layout fixes (sheet names, a CSV's
//! first line, file names), never at figures:
//! - Nutanix Collector workbook: a `vmList` sheet beside `Metadata` (and its own `vInfo`,
//!   whose `VM Name` and `Power State` are not RVTools' columns); vmList is the
//!   consolidated per-VM sheet (Nutanix Collector User Guide, "Collector output",
//!   portal.nutanix.com; Collector 4.0 and later).
//! - Azure Migrate assessment report: the portal's "Export assessment" workbook, sheets
//!   `Assessment_Summary`, `All_Assessed_Machines`, `All_Assessed_Disks` (Azure Migrate
//!   documentation, MicrosoftDocs/azure-docs `articles/migrate`; the same sheets as the
//!   CSV files `All_Assessed_Machines.csv`, `All_Assessed_Disks.csv` tools convert them to).
//! - Azure Migrate discovery report: the Azure Migrate Export utility's
//!   `AzureMigrate_Discovery_Report.xlsx`, sheets `Discovery_Report`, `vCenter_Host_Report`,
//!   `Properties` (Azure/azure-migrate-export, `src/Common/DiscoveryReportConstants.cs`).
//! - PowerCLI `Export-Csv`: Windows PowerShell writes the object's type as the first line,
//!   `#TYPE <type name>`, unless `-NoTypeInformation` is given (PowerShell documentation,
//!   `Export-Csv`, `-IncludeTypeInformation`).
//! - Per-tab CSV files without RVTools' prefix: `vInfo.csv`, `vHost.csv`, ... where
//!   RVTools' CSV export (`-c ExportAll2csv`) writes `RVTools_tabvInfo.csv`.
//!
//! None of them carries the provisioned and in-use storage of each VM as RVTools does
//! (Azure Migrate's discovery has no disk sizes, its assessment sizes Azure VMs, a
//! PowerCLI object's properties are whatever the script selected), so each is refused
//! with [`IngestError::ForeignFormat`]. The Azure Migrate CSV import template is read, as
//! `--perf` ([`crate::ingest::read_perf_csv`]). A vInfo without any capacity column (a
//! Hyper-V inventory in RVTools' layout) is refused by [`check_capacity`].

use std::path::Path;

use crate::ingest::IngestError;
use crate::inventory::{Vm, Warning, WarningKind};

/// What dsplan reads, and how to get it: the end of every [`IngestError::ForeignFormat`].
pub const READ_INSTEAD: &str = "dsplan reads RVTools exports (RVTools.exe -s <vcenter> -c \
     ExportAll2xlsx, or the per-tab CSV export -c ExportAll2csv) and Live Optics' VMware \
     export (its .xlsx)";

/// An export of another tool, recognised by its layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Foreign {
    /// A Nutanix Collector workbook (`vmList`, `Metadata`); the sheets of its layout the
    /// workbook has, as it spells them.
    NutanixCollector(Vec<String>),
    /// An Azure Migrate assessment report workbook (`Assessment_Summary`,
    /// `All_Assessed_Machines`, `All_Assessed_Disks`); the sheets of its layout the
    /// workbook has, as it spells them.
    AzureMigrateAssessment(Vec<String>),
    /// One sheet of an Azure Migrate assessment report saved as CSV, told by its file name
    /// (`All_Assessed_Machines.csv`); that file name.
    AzureMigrateAssessmentCsv(String),
    /// An Azure Migrate discovery report (`Discovery_Report`, `vCenter_Host_Report`); the
    /// sheets of its layout the workbook has, as it spells them.
    AzureMigrateDiscovery(Vec<String>),
    /// A PowerCLI `Export-Csv` file; the type name of its `#TYPE` line.
    PowerCliCsv(String),
    /// Per-tab CSV files without the `RVTools_tab` prefix; the first one's name.
    UnprefixedTabs(String),
}

impl Foreign {
    /// The format as the error names it.
    pub(crate) fn format(&self) -> String {
        match self {
            Foreign::NutanixCollector(sheets) => {
                format!("a Nutanix Collector workbook ({})", sheet_words(sheets))
            }
            Foreign::AzureMigrateAssessment(sheets) => format!(
                "an Azure Migrate assessment report ({})",
                sheet_words(sheets)
            ),
            Foreign::AzureMigrateAssessmentCsv(name) => format!(
                "a sheet of an Azure Migrate assessment report saved as CSV (its file name, \
                 '{name}', is that report's sheet name)"
            ),
            Foreign::AzureMigrateDiscovery(sheets) => format!(
                "an Azure Migrate discovery report ({})",
                sheet_words(sheets)
            ),
            Foreign::PowerCliCsv(type_name) => {
                format!("a PowerCLI Export-Csv file (first line '#TYPE {type_name}')")
            }
            Foreign::UnprefixedTabs(first) => format!(
                "per-tab CSV files without RVTools' file names ('{first}' where RVTools writes \
                 'RVTools_tab{first}')"
            ),
        }
    }

    /// Why it is not read and what to do, ending with [`READ_INSTEAD`].
    pub(crate) fn advice(&self) -> String {
        let why = match self {
            Foreign::NutanixCollector(_) => {
                "its vInfo is not RVTools' (no Provisioned MiB or In Use MiB); for the VMware \
                 VMs it collected, export that vCenter with RVTools instead"
            }
            Foreign::AzureMigrateAssessment(_) | Foreign::AzureMigrateAssessmentCsv(_) => {
                "it sizes Azure VMs, not the source VMs' storage; export the assessed vCenter \
                 with RVTools instead (the Azure Migrate CSV import template is read as --perf)"
            }
            Foreign::AzureMigrateDiscovery(_) => {
                "it has no disk capacity per server; export the discovered vCenter with \
                 RVTools instead (the Azure Migrate CSV import template is read as --perf)"
            }
            Foreign::PowerCliCsv(_) => {
                "a script's object properties are not RVTools' columns; export the vCenter \
                 with RVTools instead"
            }
            Foreign::UnprefixedTabs(_) => {
                "if they are RVTools' tabs, rename each to RVTools_tab<tab>.csv \
                 (RVTools_tabvInfo.csv, ...); else export the vCenter with RVTools"
            }
        };
        format!("{why}: {READ_INSTEAD}")
    }

    /// The error refusing `file` as this format.
    pub(crate) fn error(&self, file: &str) -> IngestError {
        IngestError::ForeignFormat {
            file: file.to_string(),
            format: self.format(),
            advice: self.advice(),
        }
    }
}

/// `sheet vmList` or `sheets vmList, Metadata`: the sheets found, as the file spells them.
fn sheet_words(sheets: &[String]) -> String {
    let noun = if sheets.len() == 1 { "sheet" } else { "sheets" };
    let names: Vec<String> = sheets.iter().map(|s| crate::numbers::clip(s)).collect();
    format!("{noun} {}", names.join(", "))
}

/// A name without case, spaces or underscores (how the layouts' names are matched).
fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Whether `names` holds `wanted`, matched without case, spaces or underscores.
fn has(names: &[String], wanted: &str) -> bool {
    let wanted = compact(wanted);
    names.iter().any(|n| compact(n) == wanted)
}

/// The names among `names` that are one of `layout`'s, in `layout`'s order, as `names`
/// spells them.
fn found(names: &[String], layout: &[&str]) -> Vec<String> {
    layout
        .iter()
        .filter_map(|l| names.iter().find(|n| compact(n) == compact(l)).cloned())
        .collect()
}

/// The foreign workbook a workbook's sheet names tell, if any, with the sheets of its
/// layout found. An RVTools workbook has none of these sheets.
pub(crate) fn of_sheets(names: &[String]) -> Option<Foreign> {
    if has(names, "vmList") {
        Some(Foreign::NutanixCollector(found(
            names,
            &["vmList", "Metadata"],
        )))
    } else if has(names, "All_Assessed_Machines") || has(names, "Assessment_Summary") {
        Some(Foreign::AzureMigrateAssessment(found(
            names,
            &[
                "Assessment_Summary",
                "All_Assessed_Machines",
                "All_Assessed_Disks",
            ],
        )))
    } else if has(names, "Discovery_Report") && has(names, "vCenter_Host_Report") {
        Some(Foreign::AzureMigrateDiscovery(found(
            names,
            &["Discovery_Report", "vCenter_Host_Report", "Properties"],
        )))
    } else {
        None
    }
}

/// The foreign CSV a file's first bytes (`head`) or its name tell, if any: a `#TYPE` first
/// line (after a byte-order mark) is PowerCLI's; `All_Assessed_Machines.csv` and its
/// siblings are an Azure Migrate assessment report's sheets, told by the file name alone.
pub(crate) fn of_csv(path: &Path, head: &[u8]) -> Option<Foreign> {
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if let Some(rest) = text.strip_prefix(b"#TYPE") {
        let line = rest
            .split(|&b| b == b'\n' || b == b'\r')
            .next()
            .unwrap_or(b"");
        let type_name = String::from_utf8_lossy(line).trim().to_string();
        return Some(Foreign::PowerCliCsv(crate::numbers::clip(&type_name)));
    }
    let stem = path.file_stem()?.to_str()?.to_string();
    let name = path.file_name()?.to_str()?;
    [
        "All_Assessed_Machines",
        "All_Assessed_Disks",
        "Assessment_Summary",
    ]
    .iter()
    .any(|s| has(std::slice::from_ref(&stem), s))
    .then(|| Foreign::AzureMigrateAssessmentCsv(crate::numbers::clip(name)))
}

/// The first bytes of a CSV file on disk (at most 4 KiB; empty when unreadable: the reader
/// then names the problem).
pub(crate) fn head_of(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(4096).read_to_end(&mut head);
    }
    head
}

/// RVTools' tabs dsplan reads, as a per-tab file without the prefix would name them.
const TABS: &[&str] = &[
    "vInfo",
    "vDisk",
    "vPartition",
    "vHost",
    "vCluster",
    "vDatastore",
    "vSnapshot",
    "vMemory",
    "vCPU",
    "vMetaData",
];

/// Per-tab CSV files without the prefix among a folder's (or zip's) file names: the
/// first such `<tab>.csv` with a `vInfo.csv` among them.
pub(crate) fn of_file_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<Foreign> {
    let mut tabs: Vec<String> = names
        .into_iter()
        .filter_map(|n| {
            let p = Path::new(n);
            let stem = p.file_stem()?.to_str()?;
            let csv = crate::ingest::entries::has_extension(p, &["csv"]);
            (csv && TABS.iter().any(|t| t.eq_ignore_ascii_case(stem)))
                .then(|| p.file_name()?.to_str().map(str::to_string))?
        })
        .collect();
    tabs.sort();
    let vinfo = tabs.iter().find(|t| t.eq_ignore_ascii_case("vinfo.csv"))?;
    Some(Foreign::UnprefixedTabs(vinfo.clone()))
}

/// Hyper-V's VM states (`Get-VM`'s `State`: Running, Off, Saved, Paused, and `On` as
/// inventory scripts write it), none of them a vSphere power state.
const HYPER_V_STATES: &[&str] = &["running", "off", "on", "saved", "paused"];

/// Checks that a vInfo yields some figure, so that no report shows every figure unknown
/// without a reason. `headers` are the vInfo fields found (by field name), `warnings` the
/// reading's (their power-state values tell a Hyper-V export).
///
/// - Without either capacity column (`Provisioned MiB`, `In Use MiB`) and no VM's capacity
///   known otherwise, every VM would be excluded for "no capacity data": refused when the
///   power states are Hyper-V's (another tool's inventory in RVTools' layout).
/// - No VM's vCPUs, memory, provisioned or in-use storage known: read with one warning
///   (`Some`) naming why, the capacity columns missing or every figure cell empty.
///
/// # Errors
/// [`IngestError::NoCapacityColumns`] naming the columns missing and, when the power
/// states are Hyper-V's, that it looks like a Hyper-V export.
pub(crate) fn check_capacity(
    file: &str,
    vms: &[Vm],
    headers: &std::collections::BTreeMap<String, String>,
    warnings: &[Warning],
) -> Result<Option<Warning>, IngestError> {
    let missing: Vec<String> = ["Provisioned MiB", "In Use MiB"]
        .iter()
        .filter(|c| !headers.contains_key(**c))
        .map(|c| c.to_string())
        .collect();
    let any_capacity = vms
        .iter()
        .any(|v| v.provisioned_mib.is_some() || v.in_use_mib.is_some());
    if vms.is_empty() || any_capacity {
        return Ok(None);
    }
    let power = headers.get("Powerstate");
    let hyper_v = warnings.iter().any(|w| {
        w.column.is_some() && w.column.as_ref() == power && {
            let v = w.value.as_deref().unwrap_or("").trim().to_ascii_lowercase();
            HYPER_V_STATES.contains(&v.as_str())
        }
    });
    let warning = |kind: WarningKind, message: String| Warning {
        file: file.to_string(),
        sheet: Some("vInfo".to_string()),
        ..Warning::plan_wide(kind, message)
    };
    let any_figure = vms
        .iter()
        .any(|v| v.cpus.is_some() || v.memory_mib.is_some());
    if any_figure && !(hyper_v && missing.len() == 2) {
        return Ok(None);
    }
    if missing.len() < 2 {
        return Ok(Some({
            warning(
                WarningKind::Value,
                format!(
                    "no VM has a known vCPU count, memory, provisioned or in-use storage ({} \
                     read, every such cell empty or unreadable), so every figure of this input \
                     is unknown",
                    match vms.len() {
                        1 => "1 VM row".to_string(),
                        n => format!("{n} VM rows"),
                    }
                ),
            )
        }));
    }
    if !hyper_v {
        return Ok(Some(warning(
            WarningKind::Layout,
            format!(
                "no capacity column (missing: {}) and no VM's vCPU count or memory known, so \
                 every figure of this input is unknown; {READ_INSTEAD}",
                missing.join(", ")
            ),
        )));
    }
    let hint = "; its power states are Hyper-V's (Running, Off), so it looks like a \
                Hyper-V inventory in RVTools' layout, which has no VMDK capacity to read";
    Err(IngestError::NoCapacityColumns {
        file: file.to_string(),
        sheet: "vInfo".to_string(),
        missing,
        vms: vms.len(),
        hint: format!("{hint}; {READ_INSTEAD}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sheet_names_tell_the_foreign_workbooks_and_not_rvtools() {
        assert_eq!(
            of_sheets(&names(&["Metadata", "vInfo", "vmList", "vDisk"])),
            Some(Foreign::NutanixCollector(names(&["vmList", "Metadata"])))
        );
        // Without a Metadata sheet, the sheets found are the vmList alone (as spelled).
        let nutanix = of_sheets(&names(&["vInfo", "VMList"])).unwrap();
        assert_eq!(nutanix, Foreign::NutanixCollector(names(&["VMList"])));
        assert_eq!(
            nutanix.format(),
            "a Nutanix Collector workbook (sheet VMList)"
        );
        assert_eq!(
            of_sheets(&names(&["Assessment_Summary", "All_Assessed_Machines"])),
            Some(Foreign::AzureMigrateAssessment(names(&[
                "Assessment_Summary",
                "All_Assessed_Machines"
            ])))
        );
        assert_eq!(
            of_sheets(&names(&[
                "Properties",
                "Discovery_Report",
                "vCenter_Host_Report"
            ])),
            Some(Foreign::AzureMigrateDiscovery(names(&[
                "Discovery_Report",
                "vCenter_Host_Report",
                "Properties"
            ])))
        );
        assert_eq!(
            of_sheets(&names(&["vInfo", "vDisk", "vHost", "vMetaData"])),
            None
        );
    }

    #[test]
    fn a_type_line_is_powercli_and_a_header_is_not() {
        let p = Path::new("vms.csv");
        assert_eq!(
            of_csv(p, b"\xEF\xBB\xBF#TYPE Selected.VMware.Vm\r\n\"Name\"\r\n"),
            Some(Foreign::PowerCliCsv("Selected.VMware.Vm".into()))
        );
        assert_eq!(of_csv(p, b"VM,Powerstate\n"), None);
        // A CSV has no sheets: its file name told it, and the words say so.
        let csv = of_csv(Path::new("x/All_Assessed_Machines.csv"), b"Machine,Cores\n").unwrap();
        assert_eq!(
            csv,
            Foreign::AzureMigrateAssessmentCsv("All_Assessed_Machines.csv".into())
        );
        assert_eq!(
            csv.format(),
            "a sheet of an Azure Migrate assessment report saved as CSV (its file name, \
             'All_Assessed_Machines.csv', is that report's sheet name)"
        );
    }

    #[test]
    fn unprefixed_tabs_need_a_vinfo() {
        assert_eq!(
            of_file_names(["vHost.csv", "vInfo.csv", "notes.txt"]),
            Some(Foreign::UnprefixedTabs("vInfo.csv".into()))
        );
        assert_eq!(of_file_names(["vHost.csv", "vDisk.csv"]), None);
        assert_eq!(of_file_names(["vInfo.txt"]), None);
    }
}

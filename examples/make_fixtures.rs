//! Regenerates the project's own fixtures: the RVTools-shaped `fixtures/small-estate.xlsx`
//! and `fixtures/small-estate-vinfo.csv`, and the Live Optics-shaped
//! `fixtures/small-estate-liveoptics.xlsx` (the same VMs, plus a `VM Performance` sheet),
//! and `fixtures/file-servers-vinfo.csv`: one cluster of 10 file servers, each 4 vCPU,
//! 16 GiB and 1,500 GiB in use, more data than its 3 compute hosts' vSAN holds (the
//! README's hybrid example); and `fixtures/apps-and-files-vinfo.csv`: two clusters, one
//! compute-heavy (150 application servers of 16 vCPU, 32 GiB, 700 GiB), one storage-heavy
//! (6 file servers of 2 vCPU, 8 GiB, 8 TiB), where AV64's hybrid is the cheapest estate
//! and AV36P's vSAN alone the cheapest vSAN-only one (the saving is counted against it).
//!
//! Run from the repository root: `cargo run --example make_fixtures`.
//!
//! The estate: 8 VMs over 2 clusters (Prod, Dev) and 4 hosts; sizes are whole GiB written in
//! MiB (x 1024) so the totals are easy to check by hand. See `tests/ingest.rs` for the sums.

use std::error::Error;
use std::fmt::Write as _;

use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, Workbook};

/// Template cell: text like RVTools writes it, or a boolean cell (to exercise both).
#[derive(Clone, Copy)]
enum Tmpl {
    Text(bool),
    Bool(bool),
}

struct FixtureVm {
    name: &'static str,
    power: &'static str,
    template: Tmpl,
    cluster: &'static str,
    host: &'static str,
    provisioned_gib: u64,
    in_use_gib: u64,
    owner: &'static str,
}

const VMS: &[FixtureVm] = &[
    FixtureVm {
        name: "web-01",
        power: "poweredOn",
        template: Tmpl::Text(false),
        cluster: "Prod",
        host: "esx-prod-01",
        provisioned_gib: 100,
        in_use_gib: 50,
        owner: "web team",
    },
    FixtureVm {
        name: "web-02",
        power: "poweredOn",
        template: Tmpl::Text(false),
        cluster: "Prod",
        host: "esx-prod-02",
        provisioned_gib: 100,
        in_use_gib: 50,
        owner: "web team",
    },
    FixtureVm {
        name: "db-01",
        power: "poweredOn",
        template: Tmpl::Bool(false),
        cluster: "Prod",
        host: "esx-prod-01",
        provisioned_gib: 1024,
        in_use_gib: 800,
        owner: "dba",
    },
    FixtureVm {
        name: "app-01",
        power: "poweredOn",
        template: Tmpl::Text(false),
        cluster: "Prod",
        host: "esx-prod-02",
        provisioned_gib: 200,
        in_use_gib: 100,
        owner: "",
    },
    FixtureVm {
        name: "tmpl-linux",
        power: "poweredOff",
        template: Tmpl::Bool(true),
        cluster: "Prod",
        host: "esx-prod-01",
        provisioned_gib: 40,
        in_use_gib: 20,
        owner: "",
    },
    FixtureVm {
        name: "test-01",
        power: "poweredOff",
        template: Tmpl::Text(false),
        cluster: "Dev",
        host: "esx-dev-01",
        provisioned_gib: 500,
        in_use_gib: 250,
        owner: "qa",
    },
    FixtureVm {
        name: "batch-01",
        power: "suspended",
        template: Tmpl::Text(false),
        cluster: "Dev",
        host: "esx-dev-01",
        provisioned_gib: 300,
        in_use_gib: 150,
        owner: "",
    },
    FixtureVm {
        name: "build-01",
        power: "poweredOn",
        template: Tmpl::Text(false),
        cluster: "Dev",
        host: "esx-dev-02",
        provisioned_gib: 800,
        in_use_gib: 400,
        owner: "ci",
    },
];

/// vDisk rows: (VM, disk label, capacity GiB, raw (RDM), datastore). The non-RDM disks of a
/// VM add up to its provisioned GiB; db-01's 2 TiB RDM takes no datastore space.
const DISKS: &[(&str, &str, u64, bool, &str)] = &[
    ("web-01", "Hard disk 1", 100, false, "ds-prod"),
    ("web-02", "Hard disk 1", 100, false, "ds-prod"),
    ("db-01", "Hard disk 1", 100, false, "ds-prod"),
    ("db-01", "Hard disk 2", 924, false, "ds-prod"),
    ("db-01", "Hard disk 3", 2048, true, "ds-prod"),
    ("app-01", "Hard disk 1", 200, false, "ds-prod"),
    ("tmpl-linux", "Hard disk 1", 40, false, "ds-prod"),
    ("test-01", "Hard disk 1", 500, false, "ds-dev"),
    ("batch-01", "Hard disk 1", 300, false, "ds-dev"),
    ("build-01", "Hard disk 1", 800, false, "ds-dev"),
];

/// vDatastore rows: (name, type, capacity GiB, address, URL, hosts).
const DATASTORES: &[(&str, &str, u64, &str, &str, &str)] = &[
    (
        "ds-prod",
        "VMFS",
        4096,
        "",
        "ds:///vmfs/volumes/prod-0001/",
        "esx-prod-01, esx-prod-02",
    ),
    (
        "ds-dev",
        "NFS",
        2048,
        "nfs01.example.test /dev",
        "ds:///vmfs/volumes/dev-0001/",
        "esx-dev-01, esx-dev-02",
    ),
];

/// vMemory rows: (VM, `Consumed` MiB, `Consumed Overhead` MiB), written in this order (not
/// vInfo's); build-01 has no row, so its consumed memory stays unknown. Every VM is
/// configured with 8,192 MiB (`Size MiB`).
const MEMORY: &[(&str, u64, u64)] = &[
    ("batch-01", 1024, 30),
    ("test-01", 0, 0),
    ("tmpl-linux", 0, 0),
    ("app-01", 3072, 40),
    ("db-01", 7168, 60),
    ("web-02", 5120, 40),
    ("web-01", 6144, 40),
];

/// Live Optics per-VM figures: (VM, used (active) memory MiB, peak IOPS, average IOPS,
/// max KB/sec, average KB/sec). KB/sec is written as KiB/s (÷ 1024 = MiB/s).
const LIVE_OPTICS_PERF: &[(&str, u64, u64, u64, u64, u64)] = &[
    ("web-01", 2048, 400, 100, 10_240, 2_048),
    ("web-02", 2048, 400, 100, 10_240, 2_048),
    ("db-01", 6144, 3000, 1200, 102_400, 40_960),
    ("app-01", 4096, 600, 200, 20_480, 5_120),
    ("tmpl-linux", 0, 0, 0, 0, 0),
    ("test-01", 0, 0, 0, 0, 0),
    ("batch-01", 1024, 0, 0, 0, 0),
    ("build-01", 4096, 1000, 300, 51_200, 10_240),
];

/// Live Optics guest figures: (VM, `Guest VM Disk Used` GiB): what the guest's file
/// systems hold, less than the virtual disks' used space.
const LIVE_OPTICS_GUEST_USED: &[(&str, u64)] = &[
    ("web-01", 40),
    ("web-02", 40),
    ("db-01", 700),
    ("app-01", 80),
    ("tmpl-linux", 15),
    ("test-01", 200),
    ("batch-01", 120),
    ("build-01", 300),
];

/// The blank-name row is written after this many VMs (a formatted row without values).
const BLANK_AFTER: usize = 5;

const VINFO_HEADERS: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "SRM Placeholder",
    "CPUs",
    "Memory",
    "Disks",
    "Provisioned MiB",
    "In Use MiB",
    "Unshared MiB",
    "Path",
    "Annotation",
    "Owner",
    "Datacenter",
    "Cluster",
    "Host",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
];

const HOSTS: &[(&str, &str)] = &[
    ("esx-prod-01", "Prod"),
    ("esx-prod-02", "Prod"),
    ("esx-dev-01", "Dev"),
    ("esx-dev-02", "Dev"),
];

fn row_values(i: usize, vm: &FixtureVm) -> Vec<String> {
    let prov = vm.provisioned_gib * 1024;
    let used = vm.in_use_gib * 1024;
    let template = match vm.template {
        Tmpl::Text(b) | Tmpl::Bool(b) => {
            if b {
                "True"
            } else {
                "False"
            }
        }
    };
    vec![
        vm.name.to_string(),
        vm.power.to_string(),
        template.to_string(),
        "False".to_string(),
        "2".to_string(),
        "8192".to_string(),
        DISKS.iter().filter(|d| d.0 == vm.name).count().to_string(),
        prov.to_string(),
        used.to_string(),
        used.to_string(),
        format!(
            "[ds-{}] {}/{}.vmx",
            vm.cluster.to_lowercase(),
            vm.name,
            vm.name
        ),
        String::new(),
        vm.owner.to_string(),
        "DC1".to_string(),
        vm.cluster.to_string(),
        vm.host.to_string(),
        format!("vm-{}", 101 + i),
        format!("42000000-0000-0000-0000-{:012}", 101 + i),
        "vcenter.example.test".to_string(),
    ]
}

fn is_number_column(header: &str) -> bool {
    matches!(
        header,
        "CPUs" | "Memory" | "Disks" | "Provisioned MiB" | "In Use MiB" | "Unshared MiB"
    )
}

fn write_xlsx(path: &str) -> Result<(), Box<dyn Error>> {
    let mut wb = Workbook::new();
    // A fixed creation time, so regenerating gives the same bytes.
    let created = ExcelDateTime::from_ymd(2026, 1, 1)?;
    wb.set_properties(&DocProperties::new().set_creation_datetime(&created));
    let bold = Format::new().set_bold();
    let shaded = Format::new().set_background_color("#DDEBF7");
    let sheet = wb.add_worksheet().set_name("vInfo")?;
    for (c, h) in VINFO_HEADERS.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    let mut r: u32 = 1;
    for (i, vm) in VMS.iter().enumerate() {
        if i == BLANK_AFTER {
            for c in 0..VINFO_HEADERS.len() {
                sheet.write_blank(r, c as u16, &shaded)?;
            }
            r += 1;
        }
        for (c, v) in row_values(i, vm).iter().enumerate() {
            let header = VINFO_HEADERS[c];
            let col = c as u16;
            if header == "Template" {
                match vm.template {
                    Tmpl::Text(b) => {
                        sheet.write_string(r, col, if b { "True" } else { "False" })?
                    }
                    Tmpl::Bool(b) => sheet.write_boolean(r, col, b)?,
                };
            } else if is_number_column(header) {
                sheet.write_number(r, col, v.parse::<f64>()?)?;
            } else if !v.is_empty() {
                sheet.write_string(r, col, v)?;
            }
        }
        r += 1;
    }
    // Formatted but empty rows below the data, as real exports have.
    for extra in 0..20 {
        sheet.write_blank(r + extra, 0, &shaded)?;
    }

    let host_sheet = wb.add_worksheet().set_name("vHost")?;
    for (c, h) in [
        "Host",
        "Datacenter",
        "Cluster",
        "# CPU",
        "# Cores",
        "# Memory",
        "# VMs",
    ]
    .iter()
    .enumerate()
    {
        host_sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    for (i, (host, cluster)) in HOSTS.iter().enumerate() {
        let r = i as u32 + 1;
        let running = VMS
            .iter()
            .filter(|v| v.host == *host && v.power == "poweredOn")
            .count();
        host_sheet.write_string(r, 0, *host)?;
        host_sheet.write_string(r, 1, "DC1")?;
        host_sheet.write_string(r, 2, *cluster)?;
        host_sheet.write_number(r, 3, 2)?;
        host_sheet.write_number(r, 4, 32)?;
        host_sheet.write_number(r, 5, 524_288)?;
        host_sheet.write_number(r, 6, running as f64)?;
    }

    let disk_sheet = wb.add_worksheet().set_name("vDisk")?;
    let disk_headers = [
        "VM",
        "Disk",
        "Disk Key",
        "Capacity MiB",
        "Raw",
        "Disk Mode",
        "Thin",
        "Path",
        "Controller",
        "VM ID",
        "VM UUID",
        "VI SDK Server",
    ];
    for (c, h) in disk_headers.iter().enumerate() {
        disk_sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    for (i, (vm, label, gib, raw, ds)) in DISKS.iter().enumerate() {
        let r = i as u32 + 1;
        let index = VMS.iter().position(|v| v.name == *vm).unwrap_or(0);
        let unit = DISKS[..i].iter().filter(|d| d.0 == *vm).count();
        disk_sheet.write_string(r, 0, *vm)?;
        disk_sheet.write_string(r, 1, *label)?;
        disk_sheet.write_string(r, 2, (2000 + unit).to_string())?;
        disk_sheet.write_number(r, 3, (gib * 1024) as f64)?;
        disk_sheet.write_string(r, 4, if *raw { "True" } else { "False" })?;
        disk_sheet.write_string(
            r,
            5,
            if *raw {
                "independent_persistent"
            } else {
                "persistent"
            },
        )?;
        disk_sheet.write_string(r, 6, if *raw { "False" } else { "True" })?;
        let file = if unit == 0 {
            format!("{vm}.vmdk")
        } else {
            format!("{vm}_{unit}.vmdk")
        };
        disk_sheet.write_string(r, 7, format!("[{ds}] {vm}/{file}"))?;
        disk_sheet.write_string(r, 8, "SCSI controller 0")?;
        disk_sheet.write_string(r, 9, format!("vm-{}", 101 + index))?;
        disk_sheet.write_string(
            r,
            10,
            format!("42000000-0000-0000-0000-{:012}", 101 + index),
        )?;
        disk_sheet.write_string(r, 11, "vcenter.example.test")?;
    }

    let cluster_sheet = wb.add_worksheet().set_name("vCluster")?;
    for (c, h) in [
        "Name",
        "NumHosts",
        "numEffectiveHosts",
        "TotalCpu",
        "NumCpuCores",
        "TotalMemory",
        "VI SDK Server",
    ]
    .iter()
    .enumerate()
    {
        cluster_sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    for (i, name) in ["Prod", "Dev"].iter().enumerate() {
        let r = i as u32 + 1;
        cluster_sheet.write_string(r, 0, *name)?;
        cluster_sheet.write_number(r, 1, 2)?;
        cluster_sheet.write_number(r, 2, 2)?;
        cluster_sheet.write_number(r, 3, 153_600)?;
        cluster_sheet.write_number(r, 4, 64)?;
        cluster_sheet.write_number(r, 5, 1_048_576)?;
        cluster_sheet.write_string(r, 6, "vcenter.example.test")?;
    }

    let ds_sheet = wb.add_worksheet().set_name("vDatastore")?;
    let ds_headers = [
        "Name",
        "Address",
        "Type",
        "Capacity MiB",
        "Provisioned MiB",
        "In Use MiB",
        "Free MiB",
        "# Hosts",
        "Hosts",
        "URL",
        "VI SDK Server",
    ];
    for (c, h) in ds_headers.iter().enumerate() {
        ds_sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    for (i, (name, kind, cap_gib, address, url, hosts)) in DATASTORES.iter().enumerate() {
        let r = i as u32 + 1;
        let prov_gib: u64 = DISKS
            .iter()
            .filter(|d| d.4 == *name && !d.3)
            .map(|d| d.2)
            .sum();
        let used_gib: u64 = VMS
            .iter()
            .filter(|v| DISKS.iter().any(|d| d.0 == v.name && d.4 == *name))
            .map(|v| v.in_use_gib)
            .sum();
        ds_sheet.write_string(r, 0, *name)?;
        if !address.is_empty() {
            ds_sheet.write_string(r, 1, *address)?;
        }
        ds_sheet.write_string(r, 2, *kind)?;
        ds_sheet.write_number(r, 3, (cap_gib * 1024) as f64)?;
        ds_sheet.write_number(r, 4, (prov_gib * 1024) as f64)?;
        ds_sheet.write_number(r, 5, (used_gib * 1024) as f64)?;
        ds_sheet.write_number(r, 6, ((cap_gib - used_gib) * 1024) as f64)?;
        ds_sheet.write_number(r, 7, 2)?;
        ds_sheet.write_string(r, 8, *hosts)?;
        ds_sheet.write_string(r, 9, *url)?;
        ds_sheet.write_string(r, 10, "vcenter.example.test")?;
    }

    write_vmemory(&mut wb, &bold)?;

    let meta = wb.add_worksheet().set_name("vMetaData")?;
    for (c, h) in [
        "RVTools major version",
        "RVTools version",
        "xlsx creation datetime",
        "Server",
    ]
    .iter()
    .enumerate()
    {
        meta.write_string(0, c as u16, *h)?;
    }
    meta.write_string(1, 0, "4.7")?;
    meta.write_string(1, 1, "4.7.1.4")?;
    meta.write_number(1, 2, 46000.5)?;
    meta.write_string(1, 3, "vcenter.example.test")?;
    wb.save(path)?;
    Ok(())
}

/// The vMemory sheet: RVTools 4.x headers (`Size MiB`, `Consumed`), with the
/// `Consumed Overhead` and `Active` columns a reader must not mistake for `Consumed`.
fn write_vmemory(wb: &mut Workbook, bold: &Format) -> Result<(), Box<dyn Error>> {
    let sheet = wb.add_worksheet().set_name("vMemory")?;
    let headers = [
        "VM",
        "Powerstate",
        "Size MiB",
        "Consumed Overhead",
        "Consumed",
        "Active",
        "VM ID",
        "VM UUID",
        "VI SDK Server",
    ];
    for (c, h) in headers.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, bold)?;
    }
    for (i, (vm, consumed, overhead)) in MEMORY.iter().enumerate() {
        let r = i as u32 + 1;
        let index = VMS.iter().position(|v| v.name == *vm).unwrap_or(0);
        sheet.write_string(r, 0, *vm)?;
        sheet.write_string(r, 1, VMS[index].power)?;
        sheet.write_number(r, 2, 8192)?;
        sheet.write_number(r, 3, *overhead as f64)?;
        sheet.write_number(r, 4, *consumed as f64)?;
        sheet.write_number(r, 5, (*consumed / 4) as f64)?;
        sheet.write_string(r, 6, format!("vm-{}", 101 + index))?;
        sheet.write_string(r, 7, format!("42000000-0000-0000-0000-{:012}", 101 + index))?;
        sheet.write_string(r, 8, "vcenter.example.test")?;
    }
    Ok(())
}

/// en-US CSV as RVTools writes it: every field quoted, CRLF, thousands separators.
fn write_csv(path: &str) -> Result<(), Box<dyn Error>> {
    fn quote(s: &str) -> String {
        format!("\"{}\"", s.replace('"', "\"\""))
    }
    let mut text = String::new();
    let header: Vec<String> = VINFO_HEADERS.iter().map(|h| quote(h)).collect();
    write!(text, "{}\r\n", header.join(","))?;
    for (i, vm) in VMS.iter().enumerate() {
        if i == BLANK_AFTER {
            let blanks: Vec<String> = VINFO_HEADERS.iter().map(|_| quote("")).collect();
            write!(text, "{}\r\n", blanks.join(","))?;
        }
        let fields: Vec<String> = row_values(i, vm)
            .iter()
            .enumerate()
            .map(|(c, v)| {
                if is_number_column(VINFO_HEADERS[c]) {
                    quote(&dsplan::numbers::group_thousands(
                        v.parse::<u64>().unwrap_or(0) as f64,
                        0,
                    ))
                } else {
                    quote(v)
                }
            })
            .collect();
        write!(text, "{}\r\n", fields.join(","))?;
    }
    std::fs::write(path, text)?;
    Ok(())
}

/// Writes a header row in bold.
fn header(
    sheet: &mut rust_xlsxwriter::Worksheet,
    names: &[&str],
    bold: &Format,
) -> Result<(), Box<dyn Error>> {
    for (c, h) in names.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, bold)?;
    }
    Ok(())
}

/// The Live Optics workbook: the same VMs (names, power states, 2 vCPUs and 8,192 MiB
/// each, disk sizes, clusters, hosts, keys) and hosts as the RVTools one, with the column
/// names of a Live Optics export (see `src/ingest/liveoptics.rs` for their sources).
fn write_liveoptics(path: &str) -> Result<(), Box<dyn Error>> {
    let mut wb = Workbook::new();
    let created = ExcelDateTime::from_ymd(2026, 1, 1)?;
    wb.set_properties(&DocProperties::new().set_creation_datetime(&created));
    let bold = Format::new().set_bold();
    let details = wb.add_worksheet().set_name("Details")?;
    details.write_string(0, 0, "Project Name")?;
    details.write_string(0, 1, "dsplan small estate")?;

    let vms = wb.add_worksheet().set_name("VMs")?;
    header(
        vms,
        &[
            "VM Name",
            "Power State",
            "Template",
            "Virtual CPU",
            "Provisioned Memory (MiB)",
            "Used Memory (active) (MiB)",
            "Virtual Disk Size (MiB)",
            "Virtual Disk Used (MiB)",
            "VM OS",
            "Consumed Memory (MiB)",
            "Guest VM Disk Capacity (MiB)",
            "Guest VM Disk Used (MiB)",
            "Datacenter",
            "Cluster",
            "Host",
            "vCenter",
            "MOB ID",
            "InstanceUUID",
        ],
        &bold,
    )?;
    for (i, vm) in VMS.iter().enumerate() {
        let r = i as u32 + 1;
        let used_memory = LIVE_OPTICS_PERF
            .iter()
            .find(|p| p.0 == vm.name)
            .map_or(0, |p| p.1);
        let template = matches!(vm.template, Tmpl::Text(true) | Tmpl::Bool(true));
        vms.write_string(r, 0, vm.name)?;
        vms.write_string(r, 1, vm.power)?;
        vms.write_string(r, 2, if template { "TRUE" } else { "FALSE" })?;
        vms.write_number(r, 3, 2)?;
        vms.write_number(r, 4, 8192)?;
        vms.write_number(r, 5, used_memory as f64)?;
        vms.write_number(r, 6, (vm.provisioned_gib * 1024) as f64)?;
        vms.write_number(r, 7, (vm.in_use_gib * 1024) as f64)?;
        vms.write_string(r, 8, "Ubuntu Linux (64-bit)")?;
        // Consumed memory as the RVTools fixture's vMemory `Consumed` (build-01 has no
        // vMemory row there: its cell is left empty here).
        if let Some(m) = MEMORY.iter().find(|m| m.0 == vm.name) {
            vms.write_number(r, 9, m.1 as f64)?;
        }
        vms.write_number(r, 10, (vm.provisioned_gib * 1024) as f64)?;
        let guest_used = LIVE_OPTICS_GUEST_USED
            .iter()
            .find(|g| g.0 == vm.name)
            .map_or(0, |g| g.1);
        vms.write_number(r, 11, (guest_used * 1024) as f64)?;
        vms.write_string(r, 12, "DC1")?;
        vms.write_string(r, 13, vm.cluster)?;
        vms.write_string(r, 14, vm.host)?;
        vms.write_string(r, 15, "vcenter.example.test")?;
        vms.write_string(r, 16, format!("vm-{}", 101 + i))?;
        vms.write_string(r, 17, format!("42000000-0000-0000-0000-{:012}", 101 + i))?;
    }

    let hosts = wb.add_worksheet().set_name("ESX Hosts")?;
    header(
        hosts,
        &[
            "Host Name",
            "Datacenter",
            "Cluster",
            "CPU Sockets",
            "CPU Cores",
            "Memory (KiB)",
        ],
        &bold,
    )?;
    for (i, (host, cluster)) in HOSTS.iter().enumerate() {
        let r = i as u32 + 1;
        hosts.write_string(r, 0, *host)?;
        hosts.write_string(r, 1, "DC1")?;
        hosts.write_string(r, 2, *cluster)?;
        hosts.write_number(r, 3, 2)?;
        hosts.write_number(r, 4, 32)?;
        // 512 GiB = 536,870,912 KiB, as the RVTools vHost's 524,288 MiB.
        hosts.write_number(r, 5, 536_870_912.0)?;
    }

    let perf = wb.add_worksheet().set_name("VM Performance")?;
    header(
        perf,
        &[
            "VM Name",
            "MOB ID",
            "Cluster",
            "Peak IOPS",
            "Average IOPS",
            "Max KB/sec",
            "Average KB/sec",
        ],
        &bold,
    )?;
    for (i, (vm, _, peak, avg, max_kb, avg_kb)) in LIVE_OPTICS_PERF.iter().enumerate() {
        let r = i as u32 + 1;
        let index = VMS.iter().position(|v| v.name == *vm).unwrap_or(0);
        perf.write_string(r, 0, *vm)?;
        perf.write_string(r, 1, format!("vm-{}", 101 + index))?;
        perf.write_string(r, 2, VMS[index].cluster)?;
        perf.write_number(r, 3, *peak as f64)?;
        perf.write_number(r, 4, *avg as f64)?;
        perf.write_number(r, 5, *max_kb as f64)?;
        perf.write_number(r, 6, *avg_kb as f64)?;
    }
    wb.save(path)?;
    Ok(())
}

/// One storage-heavy cluster as a vInfo CSV: 10 file servers of 4 vCPU, 16 GiB and 1,500
/// GiB in use (2,000 GiB provisioned), 15,000 GiB in all.
fn write_file_servers_csv(path: &str) -> Result<(), Box<dyn Error>> {
    let mut text = String::from(
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Datacenter\",\"Cluster\",\"Host\",\"VM ID\",\"VM UUID\",\
         \"VI SDK Server\"\r\n",
    );
    for i in 1..=10u32 {
        write!(
            text,
            "\"fs-{i:02}\",\"poweredOn\",\"False\",\"4\",\"16384\",\"{}\",\"{}\",\"DC1\",\
             \"Files\",\"esx-files-{:02}\",\"vm-{}\",\"42000000-0000-0000-0000-{:012}\",\
             \"vcenter.example.test\"\r\n",
            2000 * 1024,
            1500 * 1024,
            (i - 1) % 3 + 1,
            200 + i,
            200 + i
        )?;
    }
    std::fs::write(path, text)?;
    Ok(())
}

/// Two clusters as a vInfo CSV: `Apps`, 150 VMs of 16 vCPU, 32 GiB and 700 GiB in use
/// (compute-heavy: AV64's 256 vCPU a host against AV36P's 144), and `Files`, 6 VMs of 2
/// vCPU, 8 GiB and 8,192 GiB in use (storage-heavy); provisioned as in use.
fn write_apps_and_files_csv(path: &str) -> Result<(), Box<dyn Error>> {
    let mut text = String::from(
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Cluster\",\"VM ID\",\"VI SDK Server\"\r\n",
    );
    let groups = [
        ("app", "Apps", 150u32, 16u32, 32u32, 700u32),
        ("files", "Files", 6, 2, 8, 8192),
    ];
    let mut id = 0;
    for (stem, cluster, count, cpus, memory_gib, gib) in groups {
        for i in 1..=count {
            id += 1;
            write!(
                text,
                "\"{stem}-{i:03}\",\"poweredOn\",\"False\",\"{cpus}\",\"{}\",\"{}\",\"{}\",\
                 \"{cluster}\",\"vm-{id}\",\"vcenter.example.test\"\r\n",
                memory_gib * 1024,
                gib * 1024,
                gib * 1024
            )?;
        }
    }
    std::fs::write(path, text)?;
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    write_xlsx("fixtures/small-estate.xlsx")?;
    write_csv("fixtures/small-estate-vinfo.csv")?;
    write_liveoptics("fixtures/small-estate-liveoptics.xlsx")?;
    write_file_servers_csv("fixtures/file-servers-vinfo.csv")?;
    write_apps_and_files_csv("fixtures/apps-and-files-vinfo.csv")?;
    println!(
        "wrote fixtures/small-estate.xlsx, fixtures/small-estate-vinfo.csv, \
         fixtures/small-estate-liveoptics.xlsx, fixtures/file-servers-vinfo.csv and \
         fixtures/apps-and-files-vinfo.csv"
    );
    Ok(())
}

//! Ingest of a generated 10,000-VM / 40,000-disk RVTools export (the full RVTools 4.x
//! vInfo and vDisk column sets), as xlsx and as a per-tab CSV folder, beside the plain
//! reads of the same data in the same run: calamine's dense `worksheet_range` of the same
//! sheets, and the `csv` crate's records of the same files.
//!
//! `cargo bench --bench ingest`. The export is generated once into the target directory
//! (`target/tmp/bench-export/`) and reused.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use calamine::{Reader, Xlsx, open_workbook};
use criterion::{Criterion, criterion_group, criterion_main};
use rust_xlsxwriter::Workbook;

const VMS: usize = 10_000;
const DISKS_PER_VM: usize = 4;

/// RVTools 4.x vInfo headers (4.7 order), with two custom attributes before `Datacenter`.
const VINFO: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "SRM Placeholder",
    "Config status",
    "DNS Name",
    "Connection state",
    "Guest state",
    "Heartbeat",
    "Consolidation Needed",
    "PowerOn",
    "Suspended To Memory",
    "Suspend time",
    "Suspend Interval",
    "Creation date",
    "Change Version",
    "CPUs",
    "Overall Cpu Readiness",
    "Memory",
    "Active Memory",
    "NICs",
    "Disks",
    "Total disk capacity MiB",
    "Fixed Passthru HotPlug",
    "min Required EVC Mode Key",
    "Latency Sensitivity",
    "Op Notification Timeout",
    "EnableUUID",
    "CBT",
    "Primary IP Address",
    "Network #1",
    "Network #2",
    "Network #3",
    "Network #4",
    "Network #5",
    "Network #6",
    "Network #7",
    "Network #8",
    "Num Monitors",
    "Video Ram KiB",
    "Resource pool",
    "Folder ID",
    "Folder",
    "vApp",
    "DAS protection",
    "FT State",
    "FT Role",
    "FT Latency",
    "FT Bandwidth",
    "FT Sec. Latency",
    "Vm Failover In Progress",
    "Provisioned MiB",
    "In Use MiB",
    "Unshared MiB",
    "HA Restart Priority",
    "HA Isolation Response",
    "HA VM Monitoring",
    "Cluster rule(s)",
    "Cluster rule name(s)",
    "Boot Required",
    "Boot delay",
    "Boot retry delay",
    "Boot retry enabled",
    "Boot BIOS setup",
    "Reboot PowerOff",
    "EFI Secure boot",
    "Firmware",
    "HW version",
    "HW upgrade status",
    "HW upgrade policy",
    "HW target",
    "Path",
    "Log directory",
    "Snapshot directory",
    "Suspend directory",
    "Annotation",
    "Owner",
    "Backup policy",
    "Datacenter",
    "Cluster",
    "Host",
    "OS according to the configuration file",
    "OS according to the VMware Tools",
    "Customization Info",
    "Guest Detailed Data",
    "VM ID",
    "SMBIOS UUID",
    "VM UUID",
    "VI SDK Server type",
    "VI SDK API Version",
    "VI SDK Server",
    "VI SDK UUID",
];

/// RVTools 4.x vDisk headers.
const VDISK: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "SRM Placeholder",
    "Disk",
    "Disk Key",
    "Disk UUID",
    "Disk Path",
    "Capacity MiB",
    "Raw",
    "Disk Mode",
    "Sharing mode",
    "Thin",
    "Eagerly Scrub",
    "Split",
    "Write Through",
    "Level",
    "Shares",
    "Reservation",
    "Limit",
    "Controller",
    "Label",
    "SCSI Unit #",
    "Unit #",
    "Shared Bus",
    "Path",
    "Raw LUN ID",
    "Raw Comp. Mode",
    "Internal Sort Column",
    "Annotation",
    "Datacenter",
    "Cluster",
    "Host",
    "Folder",
    "OS according to the configuration file",
    "OS according to the VMware Tools",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
    "VI SDK UUID",
];

/// A cell of the generated export.
enum Cell {
    Text(String),
    Num(f64),
}

fn vinfo_cell(header: &str, i: usize) -> Cell {
    let name = format!("vm-{i:05}");
    let cluster = format!("cluster-{}", i % 8);
    match header {
        "VM" | "DNS Name" => Cell::Text(name),
        "Powerstate" => Cell::Text(
            if i.is_multiple_of(10) {
                "poweredOff"
            } else {
                "poweredOn"
            }
            .into(),
        ),
        "Template" | "SRM Placeholder" | "Consolidation Needed" | "CBT" => Cell::Text(
            if i.is_multiple_of(97) {
                "True"
            } else {
                "False"
            }
            .into(),
        ),
        "CPUs" => Cell::Num((1 + i % 8) as f64),
        "Memory" | "Active Memory" => Cell::Num((4096 * (1 + i % 8)) as f64),
        "Disks" => Cell::Num(DISKS_PER_VM as f64),
        "NICs" | "Num Monitors" => Cell::Num(1.0),
        "Provisioned MiB" | "Total disk capacity MiB" => Cell::Num((40_960 * (1 + i % 16)) as f64),
        "In Use MiB" | "Unshared MiB" => Cell::Num((20_480 * (1 + i % 16)) as f64),
        "Video Ram KiB" => Cell::Num(8192.0),
        "Path" => Cell::Text(format!("[ds-{}] {name}/{name}.vmx", i % 20)),
        "Datacenter" => Cell::Text("DC1".into()),
        "Cluster" => Cell::Text(cluster),
        "Host" => Cell::Text(format!("esx-{:03}.example.test", i % 200)),
        "VM ID" => Cell::Text(format!("vm-{}", 1000 + i)),
        "VM UUID" | "SMBIOS UUID" => Cell::Text(format!("4233{i:04x}-0000-0000-0000-{i:012}")),
        "VI SDK Server" => Cell::Text("vcenter.example.test".into()),
        "Primary IP Address" => {
            Cell::Text(format!("10.{}.{}.{}", i / 65536, (i / 256) % 256, i % 256))
        }
        "Annotation" | "Owner" | "Backup policy" => Cell::Text(format!("team {}", i % 30)),
        _ => Cell::Text(format!("{header} value")),
    }
}

fn vdisk_cell(header: &str, i: usize, d: usize) -> Cell {
    let name = format!("vm-{i:05}");
    match header {
        "VM" => Cell::Text(name),
        "Disk" | "Label" => Cell::Text(format!("Hard disk {}", d + 1)),
        "Disk Key" => Cell::Num((2000 + d) as f64),
        "Capacity MiB" => Cell::Num((10_240 * (1 + i % 16)) as f64),
        "Raw" => Cell::Text(
            if i.is_multiple_of(500) && d == 3 {
                "True"
            } else {
                "False"
            }
            .into(),
        ),
        "Thin" => Cell::Text("True".into()),
        "Disk Mode" => Cell::Text("persistent".into()),
        "Path" => Cell::Text(format!("[ds-{}] {name}/{name}_{d}.vmdk", i % 20)),
        "Controller" => Cell::Text("SCSI controller 0".into()),
        "VM ID" => Cell::Text(format!("vm-{}", 1000 + i)),
        "VM UUID" => Cell::Text(format!("4233{i:04x}-0000-0000-0000-{i:012}")),
        "VI SDK Server" => Cell::Text("vcenter.example.test".into()),
        "Cluster" => Cell::Text(format!("cluster-{}", i % 8)),
        "Host" => Cell::Text(format!("esx-{:03}.example.test", i % 200)),
        _ => Cell::Text(format!("{header} value")),
    }
}

fn generate(dir: &Path) -> (PathBuf, PathBuf) {
    let xlsx = dir.join("export-10k.xlsx");
    let csv_dir = dir.join("export-10k-csv");
    if xlsx.exists() && csv_dir.join("RVTools_tabvDisk.csv").exists() {
        return (xlsx, csv_dir);
    }
    std::fs::create_dir_all(&csv_dir).expect("bench dir");
    let mut wb = Workbook::new();
    let mut vinfo_csv = String::new();
    let mut vdisk_csv = String::new();
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let csv_cell = |c: &Cell| match c {
        Cell::Text(t) => quote(t),
        Cell::Num(n) => {
            // en-US thousands separators, as RVTools writes them.
            let digits = format!("{}", *n as i64);
            let mut out = String::new();
            for (k, ch) in digits.chars().enumerate() {
                if k > 0 && (digits.len() - k) % 3 == 0 {
                    out.push(',');
                }
                out.push(ch);
            }
            quote(&out)
        }
    };
    {
        let ws = wb.add_worksheet().set_name("vInfo").expect("sheet");
        let header: Vec<String> = VINFO.iter().map(|h| quote(h)).collect();
        let _ = write!(vinfo_csv, "{}\r\n", header.join(","));
        for (c, h) in VINFO.iter().enumerate() {
            ws.write_string(0, c as u16, *h).expect("write");
        }
        for i in 0..VMS {
            let mut line = Vec::with_capacity(VINFO.len());
            for (c, h) in VINFO.iter().enumerate() {
                let cell = vinfo_cell(h, i);
                match &cell {
                    Cell::Text(t) => ws.write_string(i as u32 + 1, c as u16, t),
                    Cell::Num(n) => ws.write_number(i as u32 + 1, c as u16, *n),
                }
                .expect("write");
                line.push(csv_cell(&cell));
            }
            let _ = write!(vinfo_csv, "{}\r\n", line.join(","));
        }
    }
    {
        let ws = wb.add_worksheet().set_name("vDisk").expect("sheet");
        let header: Vec<String> = VDISK.iter().map(|h| quote(h)).collect();
        let _ = write!(vdisk_csv, "{}\r\n", header.join(","));
        for (c, h) in VDISK.iter().enumerate() {
            ws.write_string(0, c as u16, *h).expect("write");
        }
        let mut r = 1u32;
        for i in 0..VMS {
            for d in 0..DISKS_PER_VM {
                let mut line = Vec::with_capacity(VDISK.len());
                for (c, h) in VDISK.iter().enumerate() {
                    let cell = vdisk_cell(h, i, d);
                    match &cell {
                        Cell::Text(t) => ws.write_string(r, c as u16, t),
                        Cell::Num(n) => ws.write_number(r, c as u16, *n),
                    }
                    .expect("write");
                    line.push(csv_cell(&cell));
                }
                let _ = write!(vdisk_csv, "{}\r\n", line.join(","));
                r += 1;
            }
        }
    }
    wb.save(&xlsx).expect("save xlsx");
    std::fs::write(csv_dir.join("RVTools_tabvInfo.csv"), vinfo_csv).expect("csv");
    std::fs::write(csv_dir.join("RVTools_tabvDisk.csv"), vdisk_csv).expect("csv");
    (xlsx, csv_dir)
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-export");
    let (xlsx, csv_dir) = generate(&dir);
    // Sanity: what the benchmark reads is what it claims.
    let inv = dsplan::ingest::read_inputs(&[&xlsx]).expect("ingest xlsx");
    assert_eq!((inv.vms.len(), inv.disks.len()), (VMS, VMS * DISKS_PER_VM));
    let inv = dsplan::ingest::read_inputs(&[&csv_dir]).expect("ingest csv");
    assert_eq!((inv.vms.len(), inv.disks.len()), (VMS, VMS * DISKS_PER_VM));

    let mut g = c.benchmark_group("ingest 10k VMs 40k disks");
    g.sample_size(10);
    g.bench_function("xlsx: dsplan read_inputs", |b| {
        b.iter(|| black_box(dsplan::ingest::read_inputs(&[&xlsx]).expect("ingest")))
    });
    g.bench_function("xlsx: calamine worksheet_range vInfo + vDisk", |b| {
        b.iter(|| {
            let mut wb: Xlsx<_> = open_workbook(&xlsx).expect("open");
            let info = wb.worksheet_range("vInfo").expect("vInfo");
            let disk = wb.worksheet_range("vDisk").expect("vDisk");
            black_box((info, disk))
        })
    });
    g.bench_function("csv: dsplan read_inputs", |b| {
        b.iter(|| black_box(dsplan::ingest::read_inputs(&[&csv_dir]).expect("ingest")))
    });
    g.bench_function("csv: csv crate StringRecords vInfo + vDisk", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for tab in ["RVTools_tabvInfo.csv", "RVTools_tabvDisk.csv"] {
                let mut rdr = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .from_path(csv_dir.join(tab))
                    .expect("open");
                for rec in rdr.records() {
                    n += rec.expect("record").len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! The synthetic RVTools estate of `examples/make_estate.rs`, shared with `benches/estate.rs`
//! and `tests/estate_scale.rs` (each includes this file with `#[path = "..."] mod`).
//!
//! The output is deterministic (a fixed xorshift sequence). VM `i` (`vm-NNNNN`) is in
//! cluster `i % clusters`, on host `(i / clusters) % hosts` of that cluster. Per VM:
//! - provisioned 40, 100, 250, 500, 1,024 or 2,000 GiB (equally likely), 30 to 90 % of it in
//!   use (mean about 391 GiB in use); `in_use_pib` (P) scales every VM's provisioned and
//!   in-use MiB by one factor so that vInfo's `In Use MiB` adds up to P PiB (to the MiB);
//! - vCPUs 1, 2, 4, 6, 8, 12 or 16 with weights 6, 30, 30, 6, 18, 4, 6 % (84 % have 2 to 8);
//! - memory 2, 4, 4 or 8 GiB per vCPU (equally likely), kept within 2..=128 GiB (so 2 GiB
//!   to 128 GiB; mean about 24 GiB); vMemory `Consumed` 40 to 95 % of it when powered on,
//!   0 when off;
//! - 1 to 4 virtual disks (vDisk splits the provisioned MiB evenly over them);
//! - about 1 VM in 25 powered off and 1 in 100 a template.
//!
//! Hosts per cluster: `hosts_per_cluster` (N), else the larger of 8 and one host per 32 VMs
//! of the cluster, at most 96 (vSphere's cluster maximum). Every host has 2 sockets x 24
//! cores (48 cores, 2,600 MHz) and 768 GiB of memory; vHost's `# VMs`, `# vCPUs` and `vRAM`
//! add up the VMs on it.

use std::error::Error;
use std::fmt::Write as _;

use rust_xlsxwriter::{Workbook, Worksheet};

/// MiB per GiB.
const GIB: u64 = 1024;
/// MiB per PiB.
pub const MIB_PER_PIB: f64 = 1024.0 * 1024.0 * 1024.0;
/// vCPU counts and their weights (percent).
const VCPUS: [(u64, u64); 7] = [(1, 6), (2, 30), (4, 30), (6, 6), (8, 18), (12, 4), (16, 6)];
/// Host hardware: cores per socket, sockets, MHz, memory MiB.
const HOST_CORES_PER_CPU: u64 = 24;
const HOST_CPUS: u64 = 2;
const HOST_MHZ: u64 = 2600;
const HOST_MEMORY_MIB: u64 = 768 * GIB;
const SERVER: &str = "vcenter.example.test";

/// What to generate.
pub struct Spec {
    /// VMs.
    pub vms: usize,
    /// Source clusters (at least 1).
    pub clusters: usize,
    /// PiB in use over all VMs (sizes scaled to it), or the unscaled sizes.
    pub in_use_pib: Option<f64>,
    /// Hosts per cluster, or the default (max(8, VMs per cluster / 32), at most 96).
    pub hosts_per_cluster: Option<usize>,
    /// Whether the workbook has a vDisk tab.
    pub vdisk: bool,
}

impl Spec {
    /// `vms` VMs over `clusters` clusters, unscaled, default hosts, with vDisk.
    pub fn new(vms: usize, clusters: usize) -> Spec {
        Spec {
            vms,
            clusters,
            in_use_pib: None,
            hosts_per_cluster: None,
            vdisk: true,
        }
    }
}

/// What [`write`] wrote.
pub struct Written {
    /// Hosts per cluster.
    pub hosts: usize,
    /// MiB in use over all VMs.
    pub in_use_mib: u64,
}

/// Writes the estate to `out`: a workbook when it ends in `.xlsx`, else a vInfo CSV.
pub fn write(out: &str, spec: &Spec) -> Result<Written, Box<dyn Error>> {
    let hosts = hosts_per_cluster(spec);
    let vms = generate(spec, hosts);
    if out.to_ascii_lowercase().ends_with(".xlsx") {
        write_xlsx(out, &vms, spec, hosts)?;
    } else {
        write_csv(out, &vms)?;
    }
    Ok(Written {
        hosts,
        in_use_mib: vms.iter().map(|v| v.in_use_mib).sum(),
    })
}

/// One generated VM.
pub struct GenVm {
    /// Index (`vm-NNNNN`).
    pub i: usize,
    /// Cluster index (`Cluster-N`).
    pub cluster: usize,
    /// Host index within the cluster.
    pub host: usize,
    /// Powered on.
    pub powered_on: bool,
    /// A template.
    pub template: bool,
    /// vCPUs.
    pub cpus: u64,
    /// Memory configured, MiB.
    pub memory_mib: u64,
    /// Memory consumed, MiB (vMemory `Consumed`).
    pub consumed_mib: u64,
    /// Virtual disks.
    pub disks: u64,
    /// Provisioned, MiB.
    pub provisioned_mib: u64,
    /// In use, MiB.
    pub in_use_mib: u64,
}

impl GenVm {
    pub fn name(&self) -> String {
        format!("vm-{:05}", self.i)
    }
    pub fn vm_id(&self) -> String {
        format!("vm-{}", 1000 + self.i)
    }
    pub fn uuid(&self) -> String {
        format!("42000000-0000-0000-0000-{:012}", self.i)
    }
    pub fn cluster_name(&self) -> String {
        format!("Cluster-{}", self.cluster)
    }
    pub fn host_name(&self) -> String {
        host_name(self.cluster, self.host)
    }
    fn power(&self) -> &'static str {
        if self.powered_on {
            "poweredOn"
        } else {
            "poweredOff"
        }
    }
}

fn host_name(cluster: usize, host: usize) -> String {
    format!("esx-c{cluster}-{host:02}")
}

/// A cell: text, or a whole number (grouped in the CSV, a number in the workbook).
enum Cell {
    Text(String),
    Int(u64),
}

fn t(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

/// Hosts per cluster: as given, else max(8, VMs per cluster / 32), at most 96.
pub fn hosts_per_cluster(spec: &Spec) -> usize {
    spec.hosts_per_cluster
        .unwrap_or_else(|| 8.max(spec.vms.div_ceil(spec.clusters).div_ceil(32)).min(96))
}

/// The VMs, deterministic; sizes scaled to `--in-use-pib` when given.
pub fn generate(spec: &Spec, hosts: usize) -> Vec<GenVm> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| -> u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut vms: Vec<GenVm> = (0..spec.vms)
        .map(|i| {
            let provisioned_mib = [40u64, 100, 250, 500, 1024, 2000][next(6) as usize] * GIB;
            let in_use_mib = provisioned_mib * (30 + next(61)) / 100;
            let mut pick = next(100);
            let cpus = VCPUS
                .iter()
                .find(|(_, w)| {
                    let hit = pick < *w;
                    pick = pick.saturating_sub(*w);
                    hit
                })
                .map_or(2, |(c, _)| *c);
            let per_vcpu = [2u64, 4, 4, 8][next(4) as usize];
            let memory_mib = (cpus * per_vcpu).clamp(2, 128) * GIB;
            let powered_on = next(25) != 0;
            let consumed_pct = 40 + next(56);
            GenVm {
                i,
                cluster: i % spec.clusters,
                host: (i / spec.clusters) % hosts,
                powered_on,
                template: next(100) == 0,
                cpus,
                memory_mib,
                consumed_mib: if powered_on {
                    memory_mib * consumed_pct / 100
                } else {
                    0
                },
                disks: 1 + next(4),
                provisioned_mib,
                in_use_mib,
            }
        })
        .collect();
    if let Some(pib) = spec.in_use_pib {
        scale(&mut vms, pib * MIB_PER_PIB);
    }
    vms
}

/// Scales provisioned and in-use MiB by one factor so that the in-use MiB add up to
/// `target_mib`; the rounding rest goes to the last VM.
fn scale(vms: &mut [GenVm], target_mib: f64) {
    let sum: u64 = vms.iter().map(|v| v.in_use_mib).sum();
    if sum == 0 {
        return;
    }
    let f = target_mib / sum as f64;
    for v in vms.iter_mut() {
        v.in_use_mib = (v.in_use_mib as f64 * f).round() as u64;
        v.provisioned_mib = (v.provisioned_mib as f64 * f).round() as u64;
    }
    let scaled: u64 = vms.iter().map(|v| v.in_use_mib).sum();
    if let Some(last) = vms.last_mut() {
        let target = target_mib.round() as u64;
        last.in_use_mib = (last.in_use_mib + target).saturating_sub(scaled);
        last.provisioned_mib = last.provisioned_mib.max(last.in_use_mib);
    }
}

const VINFO: &[&str] = &[
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

fn vinfo_row(v: &GenVm) -> Vec<Cell> {
    let name = v.name();
    vec![
        t(name.clone()),
        t(v.power()),
        t(if v.template { "True" } else { "False" }),
        t("False"),
        Cell::Int(v.cpus),
        Cell::Int(v.memory_mib),
        Cell::Int(v.disks),
        Cell::Int(v.provisioned_mib),
        Cell::Int(v.in_use_mib),
        Cell::Int(v.in_use_mib),
        t(format!("[ds-c{}] {name}/{name}.vmx", v.cluster)),
        t(""),
        t(format!("team {}", v.i % 10)),
        t("DC1"),
        t(v.cluster_name()),
        t(v.host_name()),
        t(v.vm_id()),
        t(v.uuid()),
        t(SERVER),
    ]
}

const VMEMORY: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "Size MiB",
    "Consumed",
    "Active",
    "Datacenter",
    "Cluster",
    "Host",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
];

fn vmemory_row(v: &GenVm) -> Vec<Cell> {
    vec![
        t(v.name()),
        t(v.power()),
        t(if v.template { "True" } else { "False" }),
        Cell::Int(v.memory_mib),
        Cell::Int(v.consumed_mib),
        Cell::Int(v.consumed_mib / 2),
        t("DC1"),
        t(v.cluster_name()),
        t(v.host_name()),
        t(v.vm_id()),
        t(v.uuid()),
        t(SERVER),
    ]
}

const VDISK: &[&str] = &[
    "VM",
    "Powerstate",
    "Template",
    "Disk",
    "Disk Key",
    "Capacity MiB",
    "Raw",
    "Disk Mode",
    "Thin",
    "Controller",
    "Path",
    "Datacenter",
    "Cluster",
    "Host",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
];

/// vDisk rows of one VM: its provisioned MiB split evenly over its disks.
fn vdisk_rows(v: &GenVm) -> Vec<Vec<Cell>> {
    let name = v.name();
    (0..v.disks)
        .map(|d| {
            let share =
                v.provisioned_mib / v.disks + u64::from(d == 0) * (v.provisioned_mib % v.disks);
            let file = if d == 0 {
                format!("{name}.vmdk")
            } else {
                format!("{name}_{d}.vmdk")
            };
            vec![
                t(name.clone()),
                t(v.power()),
                t(if v.template { "True" } else { "False" }),
                t(format!("Hard disk {}", d + 1)),
                Cell::Int(2000 + d),
                Cell::Int(share),
                t("False"),
                t("persistent"),
                t("True"),
                t(format!("SCSI controller 0 (0:{d})")),
                t(format!("[ds-c{}] {name}/{file}", v.cluster)),
                t("DC1"),
                t(v.cluster_name()),
                t(v.host_name()),
                t(v.vm_id()),
                t(v.uuid()),
                t(SERVER),
            ]
        })
        .collect()
}

const VHOST: &[&str] = &[
    "Host",
    "Datacenter",
    "Cluster",
    "CPU Model",
    "Speed",
    "# CPU",
    "Cores per CPU",
    "# Cores",
    "# Memory",
    "# VMs total",
    "# VMs",
    "# vCPUs",
    "vRAM",
    "ESX Version",
    "VI SDK Server",
];

/// vHost rows: every host of every cluster, with the VMs on it added up.
fn vhost_rows(vms: &[GenVm], clusters: usize, hosts: usize) -> Vec<Vec<Cell>> {
    // (VMs total, VMs powered on, vCPUs, vRAM MiB) per host, index cluster * hosts + host.
    let mut sums = vec![(0u64, 0u64, 0u64, 0u64); clusters * hosts];
    for v in vms {
        let s = &mut sums[v.cluster * hosts + v.host];
        s.0 += 1;
        s.1 += u64::from(v.powered_on && !v.template);
        s.2 += v.cpus;
        s.3 += v.memory_mib;
    }
    let mut rows = Vec::with_capacity(sums.len());
    for (k, s) in sums.iter().enumerate() {
        let (c, h) = (k / hosts, k % hosts);
        rows.push(vec![
            t(host_name(c, h)),
            t("DC1"),
            t(format!("Cluster-{c}")),
            t("Intel(R) Xeon(R) Gold 6348 CPU @ 2.60GHz"),
            Cell::Int(HOST_MHZ),
            Cell::Int(HOST_CPUS),
            Cell::Int(HOST_CORES_PER_CPU),
            Cell::Int(HOST_CPUS * HOST_CORES_PER_CPU),
            Cell::Int(HOST_MEMORY_MIB),
            Cell::Int(s.0),
            Cell::Int(s.1),
            Cell::Int(s.2),
            Cell::Int(s.3),
            t("VMware ESXi 8.0.2 build-22380479"),
            t(SERVER),
        ]);
    }
    rows
}

const VCLUSTER: &[&str] = &[
    "Name",
    "NumHosts",
    "numEffectiveHosts",
    "TotalCpu",
    "NumCpuCores",
    "TotalMemory",
    "VI SDK Server",
];

fn vcluster_rows(clusters: usize, hosts: usize) -> Vec<Vec<Cell>> {
    let n = hosts as u64;
    let cores = HOST_CPUS * HOST_CORES_PER_CPU * n;
    (0..clusters)
        .map(|c| {
            vec![
                t(format!("Cluster-{c}")),
                Cell::Int(n),
                Cell::Int(n),
                Cell::Int(cores * HOST_MHZ),
                Cell::Int(cores),
                Cell::Int(HOST_MEMORY_MIB * n),
                t(SERVER),
            ]
        })
        .collect()
}

/// The vInfo CSV: every field quoted, numbers with thousands separators.
pub fn write_csv(path: &str, vms: &[GenVm]) -> Result<(), Box<dyn Error>> {
    let quoted = |cells: Vec<String>| -> String {
        cells
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut s = quoted(VINFO.iter().map(|h| h.to_string()).collect());
    s.push('\n');
    for v in vms {
        let cells = vinfo_row(v)
            .into_iter()
            .map(|c| match c {
                Cell::Text(s) => s,
                Cell::Int(n) => dsplan::numbers::group_thousands(n as f64, 0),
            })
            .collect();
        let _ = writeln!(s, "{}", quoted(cells));
    }
    std::fs::write(path, s)?;
    Ok(())
}

/// One sheet: the header row, then the rows.
fn write_sheet(
    ws: &mut Worksheet,
    name: &str,
    header: &[&str],
    rows: impl Iterator<Item = Vec<Cell>>,
) -> Result<(), Box<dyn Error>> {
    ws.set_name(name)?;
    for (c, h) in header.iter().enumerate() {
        ws.write_string(0, c as u16, *h)?;
    }
    for (r, row) in rows.enumerate() {
        let r = u32::try_from(r + 1)?;
        for (c, cell) in row.into_iter().enumerate() {
            match cell {
                Cell::Text(s) if s.is_empty() => {}
                Cell::Text(s) => {
                    ws.write_string(r, c as u16, s)?;
                }
                Cell::Int(n) => {
                    ws.write_number(r, c as u16, n as f64)?;
                }
            }
        }
    }
    Ok(())
}

/// The workbook: vInfo, vHost, vCluster, vMemory and (unless `--no-vdisk`) vDisk.
pub fn write_xlsx(
    path: &str,
    vms: &[GenVm],
    spec: &Spec,
    hosts: usize,
) -> Result<(), Box<dyn Error>> {
    let mut wb = Workbook::new();
    write_sheet(
        wb.add_worksheet(),
        "vInfo",
        VINFO,
        vms.iter().map(vinfo_row),
    )?;
    write_sheet(
        wb.add_worksheet(),
        "vMemory",
        VMEMORY,
        vms.iter().map(vmemory_row),
    )?;
    if spec.vdisk {
        write_sheet(
            wb.add_worksheet(),
            "vDisk",
            VDISK,
            vms.iter().flat_map(vdisk_rows),
        )?;
    }
    let host_rows = vhost_rows(vms, spec.clusters, hosts);
    write_sheet(wb.add_worksheet(), "vHost", VHOST, host_rows.into_iter())?;
    let cluster_rows = vcluster_rows(spec.clusters, hosts);
    write_sheet(
        wb.add_worksheet(),
        "vCluster",
        VCLUSTER,
        cluster_rows.into_iter(),
    )?;
    wb.save(path)?;
    Ok(())
}

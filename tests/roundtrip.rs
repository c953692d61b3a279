//! Property tests of the readers (issue 3): generated vInfo tables, columns in any order and
//! any mix of header spellings, written as xlsx and as CSV in both locales (and in
//! Windows-1252), read back to the same VMs; generated vDisk tables the same way; merging
//! an input with itself changes nothing; and arbitrary cell contents never panic.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use dsplan::ingest::read_inputs;
use dsplan::inventory::{Origin, PowerState, VirtualDisk, Vm, VmKey};
use proptest::prelude::*;
use rust_xlsxwriter::Workbook;

static CASE: AtomicUsize = AtomicUsize::new(0);

/// A fresh directory per generated case.
fn case_dir(test: &str) -> PathBuf {
    let n = CASE.fetch_add(1, Ordering::SeqCst);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("roundtrip")
        .join(format!("{test}-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The fields a generated table may carry, each with spellings a reader must accept.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Vm,
    Power,
    Template,
    Cluster,
    Host,
    Provisioned,
    InUse,
}

fn spellings(f: Field) -> &'static [&'static str] {
    match f {
        Field::Vm => &["VM", "vm", " VM ", "vInfoVMName", "VM Name", "VMNAME"],
        Field::Power => &["Powerstate", "POWERSTATE", "Power State", "vInfoPowerstate"],
        Field::Template => &["Template", "template ", "vInfoTemplate"],
        Field::Cluster => &["Cluster", "CLUSTER", "vInfoCluster"],
        Field::Host => &["Host", "host", "vInfoHost"],
        Field::Provisioned => &[
            "Provisioned MiB",
            "Provisioned MB",
            "ProvisionedMiB",
            "provisioned mb",
            "vInfoProvisioned",
        ],
        Field::InUse => &[
            "In Use MiB",
            "In Use MB",
            "InUseMiB",
            "IN USE MB",
            "vInfoInUse",
        ],
    }
}

#[derive(Debug, Clone)]
struct GenVm {
    name: String,
    power: PowerState,
    template: Option<bool>,
    template_as_bool_cell: bool,
    cluster: Option<String>,
    host: Option<String>,
    provisioned_cents: Option<u64>,
    in_use_cents: Option<u64>,
}

#[derive(Debug, Clone)]
struct Table {
    /// Columns in sheet order: a field with its spelling, or a custom attribute.
    columns: Vec<(Option<Field>, String)>,
    vms: Vec<GenVm>,
}

/// Text that survives trimming: no leading/trailing space; may hold delimiters, quotes and
/// non-ASCII letters.
fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9 ,;\"'é.-]{0,10}[A-Za-z0-9]|[A-Za-z0-9]"
}

fn gen_vm() -> impl Strategy<Value = GenVm> {
    (
        text(),
        prop_oneof![
            Just(PowerState::PoweredOn),
            Just(PowerState::PoweredOff),
            Just(PowerState::Suspended),
            Just(PowerState::Unknown),
        ],
        proptest::option::of(any::<bool>()),
        any::<bool>(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(prop_oneof![0u64..100_000, 0u64..100_000_000_000]),
        proptest::option::of(prop_oneof![0u64..100_000, 0u64..100_000_000_000]),
    )
        .prop_map(
            |(name, power, template, template_as_bool_cell, cluster, host, p, u)| GenVm {
                name,
                power,
                template,
                template_as_bool_cell,
                cluster,
                host,
                // Whole MiB half of the time (cents multiple of 100), else two decimals.
                provisioned_cents: p.map(|c| if c % 2 == 0 { c / 100 * 100 } else { c }),
                in_use_cents: u.map(|c| if c % 3 == 0 { c / 100 * 100 } else { c }),
            },
        )
}

fn table() -> impl Strategy<Value = Table> {
    let optional = vec![
        Field::Power,
        Field::Template,
        Field::Cluster,
        Field::Host,
        Field::Provisioned,
        Field::InUse,
    ];
    (
        proptest::sample::subsequence(optional, 0..=6),
        0usize..3,
        proptest::collection::vec(gen_vm(), 0..12),
        any::<u64>(),
    )
        .prop_flat_map(|(fields, customs, vms, seed)| {
            let mut cols: Vec<(Option<Field>, String)> = Vec::new();
            let mut all = vec![Field::Vm];
            all.extend(fields);
            for (i, f) in all.iter().enumerate() {
                let s = spellings(*f);
                let pick = (seed as usize).wrapping_add(i * 7) % s.len();
                cols.push((Some(*f), s[pick].to_string()));
            }
            for i in 0..customs {
                cols.push((None, format!("Custom attribute {i}")));
            }
            (Just(cols).prop_shuffle(), Just(vms))
        })
        .prop_map(|(columns, vms)| Table { columns, vms })
}

fn power_text(p: &PowerState) -> &'static str {
    match p {
        PowerState::PoweredOn => "poweredOn",
        PowerState::PoweredOff => "poweredOff",
        PowerState::Suspended => "suspended",
        PowerState::Unknown => "",
        other => panic!("a power state this test does not write: {other:?}"),
    }
}

/// `cents` written with the locale's separators: grouping every 3 digits, 2 decimals unless
/// whole.
fn locale_number(cents: u64, thousands: char, decimal: char) -> String {
    let whole = (cents / 100).to_string();
    let mut out = String::new();
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.push(thousands);
        }
        out.push(ch);
    }
    if !cents.is_multiple_of(100) {
        out.push(decimal);
        out.push_str(&format!("{:02}", cents % 100));
    }
    out
}

fn mib(cents: u64) -> f64 {
    cents as f64 / 100.0
}

/// What a reader must return for the table read from `file` (sheet `vInfo`). The table has
/// no VM ID, UUID, vCenter or path column, so a row whose name an earlier kept row has is
/// that VM written again (`Vm::is_same_vm`), listed as a duplicate, not among the VMs;
/// unless both rows carry a cluster, host, provisioned or in-use figure and it differs (a
/// name key within one input is one VM only when its figures agree too): then it is
/// another VM of that name, kept with the next key number (2 for the second VM of a name,
/// ...).
fn expected(t: &Table) -> Vec<Vm> {
    let has = |f: Field| t.columns.iter().any(|(c, _)| *c == Some(f));
    // What tells two rows of one name apart within one input: the cluster, the host, the
    // provisioned and in-use figures, as far as the table has them. A field one row lacks
    // says nothing either way.
    type Told = (Option<String>, Option<String>, Option<u64>, Option<u64>);
    let told = |g: &GenVm| -> Told {
        (
            g.cluster.clone().filter(|_| has(Field::Cluster)),
            g.host.clone().filter(|_| has(Field::Host)),
            g.provisioned_cents.filter(|_| has(Field::Provisioned)),
            g.in_use_cents.filter(|_| has(Field::InUse)),
        )
    };
    fn agree<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
    // Per name, what tells apart the VMs kept so far.
    let mut kept: std::collections::HashMap<String, Vec<Told>> = Default::default();
    t.vms
        .iter()
        .enumerate()
        .filter_map(|(i, g)| {
            let c = told(g);
            let list = kept.entry(g.name.clone()).or_default();
            let same = list.iter().any(|k| {
                agree(&k.0, &c.0) && agree(&k.1, &c.1) && agree(&k.2, &c.2) && agree(&k.3, &c.3)
            });
            if same {
                return None;
            }
            list.push(c);
            let key_number = (list.len() > 1).then_some(list.len());
            Some((i, g, key_number))
        })
        .map(|(i, g, key_number)| Vm {
            name: g.name.clone(),
            power_state: if has(Field::Power) {
                g.power.clone()
            } else {
                PowerState::Unknown
            },
            template: g.template.filter(|_| has(Field::Template)),
            cluster: g
                .cluster
                .clone()
                .filter(|_| has(Field::Cluster))
                .map(Into::into),
            host: g.host.clone().filter(|_| has(Field::Host)).map(Into::into),
            provisioned_mib: g
                .provisioned_cents
                .filter(|_| has(Field::Provisioned))
                .map(mib),
            in_use_mib: g.in_use_cents.filter(|_| has(Field::InUse)).map(mib),
            origin: Origin {
                file: "".into(),
                sheet: "vInfo".into(),
                row: i + 2,
            },
            key_number,
            ..Vm::default()
        })
        .collect()
}

fn write_xlsx(t: &Table, path: &Path) {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("vInfo").unwrap();
    for (c, (_, h)) in t.columns.iter().enumerate() {
        ws.write_string(0, c as u16, h).unwrap();
    }
    for (r, g) in t.vms.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, (field, _)) in t.columns.iter().enumerate() {
            let c = c as u16;
            match field {
                Some(Field::Vm) => {
                    ws.write_string(r, c, &g.name).unwrap();
                }
                Some(Field::Power) => {
                    if g.power != PowerState::Unknown {
                        ws.write_string(r, c, power_text(&g.power)).unwrap();
                    }
                }
                Some(Field::Template) => match (g.template, g.template_as_bool_cell) {
                    (Some(b), true) => {
                        ws.write_boolean(r, c, b).unwrap();
                    }
                    (Some(b), false) => {
                        ws.write_string(r, c, if b { "True" } else { "False" })
                            .unwrap();
                    }
                    (None, _) => {}
                },
                Some(Field::Cluster) => {
                    if let Some(s) = &g.cluster {
                        ws.write_string(r, c, s).unwrap();
                    }
                }
                Some(Field::Host) => {
                    if let Some(s) = &g.host {
                        ws.write_string(r, c, s).unwrap();
                    }
                }
                Some(Field::Provisioned) => {
                    if let Some(v) = g.provisioned_cents {
                        ws.write_number(r, c, mib(v)).unwrap();
                    }
                }
                Some(Field::InUse) => {
                    if let Some(v) = g.in_use_cents {
                        ws.write_number(r, c, mib(v)).unwrap();
                    }
                }
                None => {
                    ws.write_string(r, c, "custom; value, 1.234").unwrap();
                }
            }
        }
    }
    wb.save(path).unwrap();
}

/// RVTools-style CSV: every field quoted, CRLF; `european` = `;`, `.` thousands, `,`
/// decimals and a UTF-8 BOM.
fn write_csv(t: &Table, path: &Path, european: bool) {
    let (delim, thousands, decimal) = if european {
        (";", '.', ',')
    } else {
        (",", ',', '.')
    };
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = String::new();
    if european {
        out.push('\u{feff}');
    }
    let header: Vec<String> = t.columns.iter().map(|(_, h)| quote(h)).collect();
    out.push_str(&header.join(delim));
    out.push_str("\r\n");
    for g in &t.vms {
        let fields: Vec<String> = t
            .columns
            .iter()
            .map(|(field, _)| {
                let v = match field {
                    Some(Field::Vm) => g.name.clone(),
                    Some(Field::Power) => power_text(&g.power).to_string(),
                    Some(Field::Template) => match g.template {
                        Some(true) => "True".to_string(),
                        Some(false) => "False".to_string(),
                        None => String::new(),
                    },
                    Some(Field::Cluster) => g.cluster.clone().unwrap_or_default(),
                    Some(Field::Host) => g.host.clone().unwrap_or_default(),
                    Some(Field::Provisioned) => g
                        .provisioned_cents
                        .map(|c| locale_number(c, thousands, decimal))
                        .unwrap_or_default(),
                    Some(Field::InUse) => g
                        .in_use_cents
                        .map(|c| locale_number(c, thousands, decimal))
                        .unwrap_or_default(),
                    None => "custom; value, 1.234".to_string(),
                };
                quote(&v)
            })
            .collect();
        out.push_str(&fields.join(delim));
        out.push_str("\r\n");
    }
    std::fs::write(path, out).unwrap();
}

fn read_vms(path: &Path) -> Vec<Vm> {
    let inv = read_inputs(&[path]).unwrap_or_else(|e| panic!("{e}"));
    inv.vms
        .into_iter()
        .map(|mut v| {
            v.origin.file = "".into();
            v
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn xlsx_and_both_csv_locales_read_back_the_same_vms(t in table()) {
        let dir = case_dir("table");
        let want = expected(&t);
        let xlsx = dir.join("t.xlsx");
        write_xlsx(&t, &xlsx);
        prop_assert_eq!(&read_vms(&xlsx), &want);
        let us = dir.join("us");
        std::fs::create_dir_all(&us).unwrap();
        write_csv(&t, &us.join("RVTools_tabvInfo.csv"), false);
        prop_assert_eq!(&read_vms(&us), &want);
        let eu = dir.join("eu");
        std::fs::create_dir_all(&eu).unwrap();
        write_csv(&t, &eu.join("RVTools_tabvInfo.csv"), true);
        prop_assert_eq!(&read_vms(&eu), &want);
        // The European file again, as a Windows-1252 file without a byte-order mark.
        let cp = dir.join("cp1252");
        std::fs::create_dir_all(&cp).unwrap();
        let utf8 = std::fs::read_to_string(eu.join("RVTools_tabvInfo.csv")).unwrap();
        let (bytes, _, unmappable) =
            encoding_rs::WINDOWS_1252.encode(utf8.trim_start_matches('\u{feff}'));
        prop_assert!(!unmappable);
        std::fs::write(cp.join("RVTools_tabvInfo.csv"), &bytes).unwrap();
        prop_assert_eq!(&read_vms(&cp), &want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Arbitrary bytes as a vInfo CSV (with a plausible header line first, or not): an
    /// inventory or an error, never a panic.
    #[test]
    fn arbitrary_csv_bytes_never_panic(
        header in proptest::bool::ANY,
        body in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        let dir = case_dir("bytes");
        let path = dir.join("vinfo.csv");
        let mut bytes = Vec::new();
        if header {
            bytes.extend_from_slice(b"VM;Powerstate;Template;Provisioned MB;In Use MB\n");
        }
        bytes.extend_from_slice(&body);
        std::fs::write(&path, &bytes).unwrap();
        let _ = read_inputs(&[&path]);
    }

    /// Arbitrary strings in every cell of an xlsx vInfo (and in its headers): never a panic,
    /// and a size cell that is not a number gives a warning, not a value.
    #[test]
    fn arbitrary_xlsx_cells_never_panic(
        headers in proptest::collection::vec(
            prop_oneof![Just("VM".to_string()), Just("Provisioned MB".to_string()),
                        Just("Template".to_string()), Just("Powerstate".to_string()),
                        ".{0,12}"],
            1..6),
        cells in proptest::collection::vec(proptest::collection::vec(".{0,16}", 0..6), 0..8),
    ) {
        let dir = case_dir("cells");
        let path = dir.join("c.xlsx");
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet().set_name("vInfo").unwrap();
        for (c, h) in headers.iter().enumerate() {
            ws.write_string(0, c as u16, h).unwrap();
        }
        for (r, row) in cells.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                ws.write_string(r as u32 + 1, c as u16, v).unwrap();
            }
        }
        wb.save(&path).unwrap();
        if let Ok(inv) = read_inputs(&[&path]) {
            for vm in &inv.vms {
                prop_assert!(vm.provisioned_mib.is_none_or(|v| v.is_finite() && v >= 0.0));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// vDisk tables
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
enum DiskField {
    Vm,
    Disk,
    Capacity,
    Raw,
    Thin,
    Path,
}

fn disk_spellings(f: DiskField) -> &'static [&'static str] {
    match f {
        DiskField::Vm => &["VM", "vDiskVMName", "vm name"],
        DiskField::Disk => &["Disk", "vDiskName", "DISK"],
        DiskField::Capacity => &[
            "Capacity MiB",
            "Capacity MB",
            "CapacityMiB",
            "vDiskCapacityMiB",
            "capacity mb",
        ],
        DiskField::Raw => &["Raw", "vDiskRaw", "RAW"],
        DiskField::Thin => &["Thin", "vDiskThin"],
        DiskField::Path => &["Path", "vDiskPath", " path "],
    }
}

#[derive(Debug, Clone)]
struct GenDisk {
    vm: String,
    disk: Option<String>,
    capacity_cents: Option<u64>,
    raw: Option<bool>,
    thin: Option<bool>,
    bool_cells: bool,
    /// `(datastore, file)` of a `[datastore] folder/file.vmdk` path.
    path: Option<(String, String)>,
}

#[derive(Debug, Clone)]
struct DiskTable {
    columns: Vec<(DiskField, String)>,
    disks: Vec<GenDisk>,
}

fn gen_disk() -> impl Strategy<Value = GenDisk> {
    (
        text(),
        proptest::option::of(text()),
        proptest::option::of(prop_oneof![0u64..100_000, 0u64..1_000_000_000_000]),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<bool>()),
        any::<bool>(),
        proptest::option::of((
            "[A-Za-z0-9][A-Za-z0-9 _-]{0,8}[A-Za-z0-9]",
            "[a-z0-9_]{1,10}",
        )),
    )
        .prop_map(|(vm, disk, c, raw, thin, bool_cells, path)| GenDisk {
            vm,
            disk,
            capacity_cents: c.map(|c| if c % 2 == 0 { c / 100 * 100 } else { c }),
            raw,
            thin,
            bool_cells,
            path,
        })
}

fn disk_table() -> impl Strategy<Value = DiskTable> {
    let optional = vec![
        DiskField::Disk,
        DiskField::Capacity,
        DiskField::Raw,
        DiskField::Thin,
        DiskField::Path,
    ];
    (
        proptest::sample::subsequence(optional, 0..=5),
        proptest::collection::vec(gen_disk(), 0..12),
        any::<u64>(),
    )
        .prop_flat_map(|(fields, disks, seed)| {
            let mut all = vec![DiskField::Vm];
            all.extend(fields);
            let cols: Vec<(DiskField, String)> = all
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let s = disk_spellings(*f);
                    (
                        *f,
                        s[(seed as usize).wrapping_add(i * 5) % s.len()].to_string(),
                    )
                })
                .collect();
            (Just(cols).prop_shuffle(), Just(disks))
        })
        .prop_map(|(columns, disks)| DiskTable { columns, disks })
}

fn path_text(p: &(String, String)) -> String {
    format!("[{}] folder/{}.vmdk", p.0, p.1)
}

fn bool_text(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn expected_disks(t: &DiskTable) -> Vec<VirtualDisk> {
    let has = |f: DiskField| t.columns.iter().any(|(c, _)| *c == f);
    t.disks
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let path = g.path.as_ref().filter(|_| has(DiskField::Path));
            VirtualDisk {
                vm: g.vm.clone(),
                vm_key: VmKey::new(None, None, None, &g.vm),
                disk: g.disk.clone().filter(|_| has(DiskField::Disk)),
                disk_key: None,
                capacity_mib: g
                    .capacity_cents
                    .filter(|_| has(DiskField::Capacity))
                    .map(mib),
                raw: g.raw.filter(|_| has(DiskField::Raw)),
                thin: g.thin.filter(|_| has(DiskField::Thin)),
                disk_mode: None,
                path: path.map(path_text),
                datastore: path.map(|p| p.0.as_str().into()),
                controller: None,
                origin: Origin {
                    file: "".into(),
                    sheet: "vDisk".into(),
                    row: i + 2,
                },
            }
        })
        .collect()
}

/// Cell text of a disk field for CSV (`None` = empty).
fn disk_csv_value(g: &GenDisk, f: DiskField, thousands: char, decimal: char) -> String {
    match f {
        DiskField::Vm => g.vm.clone(),
        DiskField::Disk => g.disk.clone().unwrap_or_default(),
        DiskField::Capacity => g
            .capacity_cents
            .map(|c| locale_number(c, thousands, decimal))
            .unwrap_or_default(),
        DiskField::Raw => g.raw.map(bool_text).unwrap_or_default().to_string(),
        DiskField::Thin => g.thin.map(bool_text).unwrap_or_default().to_string(),
        DiskField::Path => g.path.as_ref().map(path_text).unwrap_or_default(),
    }
}

fn write_disk_xlsx(t: &DiskTable, path: &Path) {
    let mut wb = Workbook::new();
    let info = wb.add_worksheet().set_name("vInfo").unwrap();
    info.write_string(0, 0, "VM").unwrap();
    info.write_string(1, 0, "some-vm").unwrap();
    let ws = wb.add_worksheet().set_name("vDisk").unwrap();
    for (c, (_, h)) in t.columns.iter().enumerate() {
        ws.write_string(0, c as u16, h).unwrap();
    }
    for (r, g) in t.disks.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, (f, _)) in t.columns.iter().enumerate() {
            let c = c as u16;
            match f {
                DiskField::Capacity => {
                    if let Some(v) = g.capacity_cents {
                        ws.write_number(r, c, mib(v)).unwrap();
                    }
                }
                DiskField::Raw | DiskField::Thin if g.bool_cells => {
                    let v = if *f == DiskField::Raw { g.raw } else { g.thin };
                    if let Some(b) = v {
                        ws.write_boolean(r, c, b).unwrap();
                    }
                }
                _ => {
                    let v = disk_csv_value(g, *f, ',', '.');
                    if !v.is_empty() {
                        ws.write_string(r, c, &v).unwrap();
                    }
                }
            }
        }
    }
    wb.save(path).unwrap();
}

fn write_disk_csv(t: &DiskTable, dir: &Path, european: bool) {
    let (delim, thousands, decimal) = if european {
        (";", '.', ',')
    } else {
        (",", ',', '.')
    };
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let bom = if european { "\u{feff}" } else { "" };
    std::fs::write(
        dir.join("RVTools_tabvInfo.csv"),
        format!("{bom}\"VM\"\r\n\"some-vm\"\r\n"),
    )
    .unwrap();
    let mut out = String::from(bom);
    let header: Vec<String> = t.columns.iter().map(|(_, h)| quote(h)).collect();
    out.push_str(&header.join(delim));
    out.push_str("\r\n");
    for g in &t.disks {
        let fields: Vec<String> = t
            .columns
            .iter()
            .map(|(f, _)| quote(&disk_csv_value(g, *f, thousands, decimal)))
            .collect();
        out.push_str(&fields.join(delim));
        out.push_str("\r\n");
    }
    std::fs::write(dir.join("RVTools_tabvDisk.csv"), out).unwrap();
}

fn read_disks(path: &Path) -> Vec<VirtualDisk> {
    let inv = read_inputs(&[path]).unwrap_or_else(|e| panic!("{e}"));
    inv.disks
        .into_iter()
        .map(|mut d| {
            d.origin.file = "".into();
            d
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn vdisk_tables_read_back_the_same_in_every_format(t in disk_table()) {
        let dir = case_dir("disks");
        let want = expected_disks(&t);
        let xlsx = dir.join("d.xlsx");
        write_disk_xlsx(&t, &xlsx);
        prop_assert_eq!(&read_disks(&xlsx), &want);
        for (name, european) in [("us", false), ("eu", true)] {
            let folder = dir.join(name);
            std::fs::create_dir_all(&folder).unwrap();
            write_disk_csv(&t, &folder, european);
            prop_assert_eq!(&read_disks(&folder), &want, "{}", name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Merging is idempotent: the same export given twice is the export once, every row of
    /// the copy is listed as a duplicate, and the copy is one warning.
    #[test]
    fn the_same_input_twice_is_the_input_once(t in table()) {
        let dir = case_dir("twice");
        let xlsx = dir.join("t.xlsx");
        write_xlsx(&t, &xlsx);
        let once = read_inputs(&[&xlsx]).unwrap_or_else(|e| panic!("{e}"));
        let twice = read_inputs(&[&xlsx, &xlsx]).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(&twice.vms, &once.vms);
        // Each row of the second copy is a duplicate (of the VM it repeats, or of the
        // first copy's own duplicate's VM), and the copy is one warning.
        prop_assert_eq!(
            twice.duplicates.len(),
            once.vms.len() + 2 * once.duplicates.len()
        );
        let copies = twice
            .warnings
            .iter()
            .filter(|w| w.message.starts_with("every VM of this input"))
            .count();
        prop_assert_eq!(copies, usize::from(!once.vms.is_empty()));
    }
}

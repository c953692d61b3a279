//! A vInfo without `Powerstate`, `Template`, `Cluster` and `Host` (a real RVTools 4.4.1
//! export trimmed to 11 columns, issue 12 case 12): the VMs' attributes come from vCPU,
//! else vMemory, each field and tab one warning; what stays unknown is one warning per
//! attribute naming the setting it defeats.
//!
//! And a vInfo without the key columns (issue 18, Why 1): a 2025 export whose vInfo keeps
//! `VM` and `VM ID` but not `VI SDK Server`, `VM UUID` or `Powerstate`, while vCPU and
//! vMemory keep them all. The rows join on `VM ID` + VM name, the VMs get their power
//! state (and vCenter) from vCPU, and `exclude_powered_off` acts as on the untrimmed
//! export.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use dsplan::ingest::read_inputs;
use dsplan::inventory::{Inventory, PowerState};

include!("support/command.rs");

/// The VMs: (name, VM ID, power state, template, cluster, host). `mem` has no vCPU row:
/// its attributes are only in vMemory.
const VMS: [(&str, &str, &str, &str, &str, &str); 5] = [
    ("on1", "vm-1", "poweredOn", "False", "cl1", "esx1"),
    ("off1", "vm-2", "poweredOff", "False", "cl1", "esx2"),
    ("off2", "vm-3", "poweredOff", "False", "cl2", "esx3"),
    ("tmpl", "vm-4", "poweredOff", "True", "cl2", "esx3"),
    ("mem", "vm-5", "poweredOff", "False", "cl2", "esx3"),
];

/// An RVTools CSV folder: vInfo with only names, sizes (10,240 MiB each) and keys; a vCPU
/// tab for the first four VMs and a vMemory tab for `mem`, both with the four attribute
/// columns when `attributes`, else without them.
fn folder(test: &str, attributes: bool) -> PathBuf {
    // A fresh folder: the tabs are written anew each run.
    let dir = scratch(test);
    let keys = "VI SDK Server,VM ID,VM UUID";
    let extra = if attributes {
        ",Powerstate,Template,Cluster,Host"
    } else {
        ""
    };
    let mut vinfo = format!("VM,Provisioned MiB,In Use MiB,{keys}\n");
    let mut vcpu = format!("VM,CPUs,{keys}{extra}\n");
    let mut vmemory = format!("VM,Size MiB,Consumed,{keys}{extra}\n");
    for (vm, id, power, template, cluster, host) in VMS {
        vinfo.push_str(&format!("{vm},10240,10240,vc1,{id},u-{id}\n"));
        let attrs = if attributes {
            format!(",{power},{template},{cluster},{host}")
        } else {
            String::new()
        };
        let line = |first: &str| format!("{vm},{first},vc1,{id},u-{id}{attrs}\n");
        if vm == "mem" {
            vmemory.push_str(&line("4096,1024"));
        } else {
            vcpu.push_str(&line("2"));
        }
    }
    for (tab, text) in [("vInfo", vinfo), ("vCPU", vcpu), ("vMemory", vmemory)] {
        std::fs::write(dir.join(format!("RVTools_tab{tab}.csv")), text).expect("write tab");
    }
    dir
}

fn messages(warnings: &[dsplan::inventory::Warning]) -> Vec<&str> {
    warnings.iter().map(|w| w.message.as_str()).collect()
}

#[test]
fn attributes_missing_from_vinfo_come_from_vcpu_else_vmemory() {
    let inv = read_inputs(&[folder("from_tabs", true)]).expect("reads");
    let states: Vec<&PowerState> = inv.vms.iter().map(|vm| &vm.power_state).collect();
    // vCPU: on1 on, off1 off, off2 off, tmpl off; vMemory: mem off.
    assert_eq!(
        states,
        [
            &PowerState::PoweredOn,
            &PowerState::PoweredOff,
            &PowerState::PoweredOff,
            &PowerState::PoweredOff,
            &PowerState::PoweredOff,
        ]
    );
    let templates: Vec<Option<bool>> = inv.vms.iter().map(|vm| vm.template).collect();
    assert_eq!(
        templates,
        [
            Some(false),
            Some(false),
            Some(false),
            Some(true),
            Some(false)
        ]
    );
    let clusters: Vec<Option<&str>> = inv.vms.iter().map(|vm| vm.cluster.as_deref()).collect();
    assert_eq!(
        clusters,
        [
            Some("cl1"),
            Some("cl1"),
            Some("cl2"),
            Some("cl2"),
            Some("cl2")
        ]
    );
    assert_eq!(inv.vms[0].host.as_deref(), Some("esx1"));
    // Per field: 4 VMs from vCPU (on1, off1, off2, tmpl), 1 from vMemory (mem).
    let msgs = messages(&inv.warnings);
    for what in ["power state", "template flag", "cluster", "host"] {
        let column = match what {
            "power state" => "Powerstate",
            "template flag" => "Template",
            "cluster" => "Cluster",
            _ => "Host",
        };
        let cpu = format!(
            "{what} of 4 VM(s) taken from vCPU (vInfo has no {column} column; first: 'on1')"
        );
        let mem = format!(
            "{what} of 1 VM(s) taken from vMemory (vInfo has no {column} column; first: 'mem')"
        );
        assert!(msgs.contains(&cpu.as_str()), "{cpu} not in {msgs:#?}");
        assert!(msgs.contains(&mem.as_str()), "{mem} not in {msgs:#?}");
    }
    assert!(inv.sources[0].tabs.contains(&"vCPU".to_string()));
}

#[test]
fn attributes_missing_everywhere_stay_unknown() {
    let inv = read_inputs(&[folder("nowhere", false)]).expect("reads");
    assert!(
        inv.vms
            .iter()
            .all(|vm| vm.power_state == PowerState::Unknown
                && vm.template.is_none()
                && vm.cluster.is_none()
                && vm.host.is_none())
    );
    assert!(
        !messages(&inv.warnings)
            .iter()
            .any(|m| m.contains("taken from"))
    );
}

/// `plan --hosts 3 --exclude-powered-off --format json` on the folder: (VMs placed,
/// VMs excluded, the warnings' messages).
fn plan(folder: &Path) -> (u64, u64, Vec<String>) {
    let json = plan_json(folder);
    let count = |key: &str| json["totals"][key].as_u64().unwrap_or(u64::MAX);
    let warnings = strings(&json["warnings"], &|w| {
        w["message"].as_str().unwrap_or("").to_string()
    });
    (count("vms_placed"), count("vms_excluded"), warnings)
}

/// Each item of a JSON array through `f`.
fn strings(list: &serde_json::Value, f: &dyn Fn(&serde_json::Value) -> String) -> Vec<String> {
    list.as_array()
        .map(|a| a.iter().map(f).collect())
        .unwrap_or_default()
}

/// The JSON plan of `plan --hosts 3 --exclude-powered-off --format json` on `input`.
fn plan_json(input: &Path) -> serde_json::Value {
    let path = input.to_string_lossy().into_owned();
    let out = dsplan(&[
        "plan",
        &path,
        "--hosts",
        "3",
        "--exclude-powered-off",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn exclude_powered_off_works_from_vcpu_and_says_when_it_cannot() {
    // From the tabs: tmpl is a template (excluded first), off1, off2 and mem are powered
    // off: 4 excluded, on1 placed. Every attribute known: no "cannot" warning.
    let (placed, excluded, warnings) = plan(&folder("plan_from_tabs", true));
    assert_eq!((placed, excluded), (1, 4), "{warnings:#?}");
    assert!(
        !warnings.iter().any(|w| w.contains("cannot")),
        "{warnings:#?}"
    );
    // Nowhere: the 5 VMs' power state and template flag are unknown: all 5 placed, and
    // the two settings that cannot act say so (templates are left out by default).
    let (placed, excluded, warnings) = plan(&folder("plan_nowhere", false));
    assert_eq!((placed, excluded), (5, 0), "{warnings:#?}");
    for expected in [
        "`exclude_powered_off` cannot exclude the 5 VM(s) whose power state is unknown (no \
         Powerstate in vInfo, vCPU or vMemory): they are planned as if powered on",
        "`include_templates` is off, but the 5 VM(s) whose template flag is unknown (no \
         Template in vInfo, vCPU or vMemory) cannot be told from templates: they are planned",
    ] {
        assert!(
            warnings.iter().any(|w| w == expected),
            "{expected}\n{warnings:#?}"
        );
    }
}

/// One VM of [`KEYED_VMS`].
type VmSpec = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    u32,
);

/// The VMs: (vCenter, VM ID, name, power state, template, cluster, host, in-guest
/// consumed MiB). Two vCenters reuse VM IDs vm-1..vm-3 (`web` and `app` are both vm-1), so
/// the `VM ID` alone would join `app`'s rows to `web`.
const KEYED_VMS: [VmSpec; 6] = [
    (
        "vc-a",
        "vm-1",
        "web",
        "poweredOn",
        "False",
        "Prod",
        "esx-a1",
        1_000,
    ),
    (
        "vc-a",
        "vm-2",
        "db",
        "poweredOff",
        "False",
        "Prod",
        "esx-a2",
        2_000,
    ),
    (
        "vc-a",
        "vm-3",
        "tmpl",
        "poweredOff",
        "True",
        "Prod",
        "esx-a1",
        3_000,
    ),
    (
        "vc-b",
        "vm-1",
        "app",
        "poweredOn",
        "False",
        "Dev",
        "esx-b1",
        4_000,
    ),
    (
        "vc-b",
        "vm-2",
        "old",
        "poweredOff",
        "False",
        "Dev",
        "esx-b1",
        5_000,
    ),
    (
        "vc-b",
        "vm-3",
        "sus",
        "suspended",
        "False",
        "Dev",
        "esx-b1",
        6_000,
    ),
];

/// vInfo columns of the untrimmed export; the trimmed one drops [`TRIMMED`].
const VINFO: [&str; 13] = [
    "VM",
    "Powerstate",
    "Template",
    "CPUs",
    "Memory",
    "Provisioned MiB",
    "In Use MiB",
    "Datacenter",
    "Cluster",
    "Host",
    "VM ID",
    "VM UUID",
    "VI SDK Server",
];

/// The columns a 2025 export's vInfo lacked.
const TRIMMED: [&str; 3] = ["VI SDK Server", "VM UUID", "Powerstate"];

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("trimmed_vinfo")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A CSV line of `cells`.
fn line(cells: &[String]) -> String {
    cells.join(",") + "\n"
}

/// An RVTools CSV folder of [`KEYED_VMS`]: vInfo (all [`VINFO`] columns, or without
/// [`TRIMMED`] when `trimmed`), vCPU and vMemory with every attribute and key column, and
/// one vPartition row per VM with its in-guest consumed MiB.
fn export(dir: &Path, name: &str, trimmed: bool) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).expect("create folder");
    let columns: Vec<&str> = VINFO
        .into_iter()
        .filter(|c| !trimmed || !TRIMMED.contains(c))
        .collect();
    let keys = "Datacenter,Cluster,Host,VM ID,VM UUID,VI SDK Server";
    let mut vinfo = line(&columns.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    let mut vcpu = format!("VM,Powerstate,Template,CPUs,{keys}\n");
    let mut vmemory = format!("VM,Powerstate,Template,Size MiB,Consumed,{keys}\n");
    let mut vpartition = format!("VM,Disk,Capacity MiB,Consumed MiB,{keys}\n");
    for (vc, id, vm, power, template, cluster, host, consumed) in KEYED_VMS {
        let uuid = format!("42{vc}-{id}");
        let cell = |c: &str| match c {
            "VM" => vm.to_string(),
            "Powerstate" => power.to_string(),
            "Template" => template.to_string(),
            "CPUs" => "2".to_string(),
            "Memory" => "4096".to_string(),
            "Provisioned MiB" | "In Use MiB" => "10240".to_string(),
            "Datacenter" => "DC1".to_string(),
            "Cluster" => cluster.to_string(),
            "Host" => host.to_string(),
            "VM ID" => id.to_string(),
            "VM UUID" => uuid.clone(),
            _ => vc.to_string(),
        };
        vinfo.push_str(&line(&columns.iter().map(|c| cell(c)).collect::<Vec<_>>()));
        let tail = format!("DC1,{cluster},{host},{id},{uuid},{vc}");
        vcpu.push_str(&format!("{vm},{power},{template},2,{tail}\n"));
        vmemory.push_str(&format!("{vm},{power},{template},4096,1024,{tail}\n"));
        vpartition.push_str(&format!("{vm},C:\\,10240,{consumed},{tail}\n"));
    }
    for (tab, text) in [
        ("vInfo", vinfo),
        ("vCPU", vcpu),
        ("vMemory", vmemory),
        ("vPartition", vpartition),
    ] {
        std::fs::write(folder.join(format!("RVTools_tab{tab}.csv")), text).expect("write tab");
    }
    folder
}

fn read(path: &Path) -> Inventory {
    match read_inputs(&[path]) {
        Ok(inv) => inv,
        Err(e) => panic!("should read {}: {e}", path.display()),
    }
}

/// Per VM name: its power state, in name order.
fn power_states(inv: &Inventory) -> Vec<(String, PowerState)> {
    let mut out: Vec<(String, PowerState)> = inv
        .vms
        .iter()
        .map(|vm| (vm.name.clone(), vm.power_state.clone()))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Per VM name: the in-guest consumed MiB of the vPartition rows joined to it.
fn consumed_by_vm(inv: &Inventory) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = inv
        .vms
        .iter()
        .map(|vm| {
            let key = vm.key();
            let mib = inv
                .partitions
                .iter()
                .filter(|p| p.vm_key == key)
                .filter_map(|p| p.consumed_mib)
                .sum();
            (vm.name.clone(), mib)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn a_vinfo_without_server_uuid_or_powerstate_joins_its_child_rows() {
    let dir = scratch("keys_trimmed");
    let full = read(&export(&dir, "full", false));
    let trimmed = read(&export(&dir, "trimmed", true));
    // The power states of KEYED_VMS, by name: app on, db off, old off, sus suspended, tmpl off,
    // web on; the trimmed vInfo takes them from vCPU.
    let expected = [
        ("app", PowerState::PoweredOn),
        ("db", PowerState::PoweredOff),
        ("old", PowerState::PoweredOff),
        ("sus", PowerState::Suspended),
        ("tmpl", PowerState::PoweredOff),
        ("web", PowerState::PoweredOn),
    ]
    .map(|(n, p)| (n.to_string(), p));
    assert_eq!(power_states(&full), expected);
    assert_eq!(power_states(&trimmed), expected, "{:#?}", trimmed.warnings);
    // The vCenter comes back from vCPU too, so app (vc-b, vm-1) and web (vc-a, vm-1) stay
    // two VMs with their own rows: each VM's partition is its own consumed figure.
    let consumed = [
        ("app", 4_000.0),
        ("db", 2_000.0),
        ("old", 5_000.0),
        ("sus", 6_000.0),
        ("tmpl", 3_000.0),
        ("web", 1_000.0),
    ]
    .map(|(n, c)| (n.to_string(), c));
    assert_eq!(consumed_by_vm(&full), consumed);
    assert_eq!(consumed_by_vm(&trimmed), consumed);
    assert_eq!(trimmed.vms.len(), 6);
    let keys: Vec<String> = trimmed.vms.iter().map(|v| v.key().0).collect();
    assert_eq!(keys[0], "id:vc-a:vm-1");
    assert_eq!(keys[3], "id:vc-b:vm-1");
    // One warning names the key for the tabs joined alike; none says a row names a VM
    // not in vInfo.
    let messages: Vec<&str> = trimmed
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert!(
        messages.contains(
            &"vCPU, vMemory and vPartition rows joined to vInfo by VM ID + VM name (vInfo \
              has no `VI SDK Server` or `VM UUID`)"
        ),
        "{messages:#?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("not in vInfo")),
        "{messages:#?}"
    );
    // The untrimmed export joins on VI SDK Server + VM ID: no such warning.
    assert!(
        !full.warnings.iter().any(|w| w.message.contains("joined")),
        "{:#?}",
        full.warnings
    );
}

/// On `input`, as [`plan_json`]: (VMs placed, VMs excluded, the excluded VMs' names and
/// reasons sorted, the warnings' messages).
fn plan_excluded(input: &Path) -> (u64, u64, Vec<String>, Vec<String>) {
    let json = plan_json(input);
    let count = |key: &str| json["totals"][key].as_u64().unwrap_or(u64::MAX);
    let mut excluded = strings(&json["excluded"], &|e| {
        format!("{} {}", e["name"].as_str().unwrap_or(""), e["reason"])
    });
    excluded.sort();
    let warnings = strings(&json["warnings"], &|w| {
        w["message"].as_str().unwrap_or("").to_string()
    });
    (
        count("vms_placed"),
        count("vms_excluded"),
        excluded,
        warnings,
    )
}

#[test]
fn exclude_powered_off_acts_on_the_trimmed_export_as_on_the_untrimmed() {
    let dir = scratch("keys_plan");
    let (placed, excluded, names, warnings) = plan_excluded(&export(&dir, "full", false));
    // tmpl is a template (excluded first); db and old are powered off: 3 excluded; web,
    // app and sus (suspended, kept by default) placed.
    assert_eq!((placed, excluded), (3, 3), "{warnings:#?}");
    let trimmed = plan_excluded(&export(&dir, "trimmed", true));
    assert_eq!((trimmed.0, trimmed.1), (3, 3), "{:#?}", trimmed.3);
    assert_eq!(trimmed.2, names);
    // Nothing says the power state is unknown: it came from vCPU, and a warning says so.
    assert!(
        trimmed.3.iter().any(|w| w
            == "power state of 6 VM(s) taken from vCPU (vInfo has no Powerstate column; \
                first: 'web')"),
        "{:#?}",
        trimmed.3
    );
    assert!(
        !trimmed.3.iter().any(|w| w.contains("cannot exclude")),
        "{:#?}",
        trimmed.3
    );
}

/// The lab export with its vInfo's `VI SDK Server`, `VM UUID` and `Powerstate` columns
/// dropped, written to `dir` (calamine reads, rust_xlsxwriter writes; every tab dsplan
/// reads is copied, cells as text, numbers and booleans).
fn trimmed_lab(lab: &Path, dir: &Path) -> PathBuf {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut source: Xlsx<_> = open_workbook(lab).expect("open the lab export");
    let mut book = rust_xlsxwriter::Workbook::new();
    for sheet in source.sheet_names() {
        let range = source.worksheet_range(&sheet).expect("read sheet");
        let header: Vec<String> = range
            .rows()
            .next()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        let keep: Vec<usize> = (0..header.len())
            .filter(|&c| sheet != "vInfo" || !TRIMMED.contains(&header[c].trim()))
            .collect();
        let out = book.add_worksheet();
        out.set_name(&sheet).expect("sheet name");
        for (r, row) in range.rows().enumerate() {
            for (to, &from) in keep.iter().enumerate() {
                let (r, to) = (r as u32, to as u16);
                let written = match row.get(from) {
                    Some(Data::String(s)) => out.write_string(r, to, s).map(|_| ()),
                    Some(Data::Float(f)) => out.write_number(r, to, *f).map(|_| ()),
                    Some(Data::Int(i)) => out.write_number(r, to, *i as f64).map(|_| ()),
                    Some(Data::Bool(b)) => out.write_boolean(r, to, *b).map(|_| ()),
                    Some(Data::DateTime(d)) => out.write_number(r, to, d.as_f64()).map(|_| ()),
                    _ => Ok(()),
                };
                written.expect("write cell");
            }
        }
    }
    let path = dir.join("lab-trimmed.xlsx");
    book.save(&path).expect("save");
    path
}

#[test]
fn the_lab_export_trimmed_the_same_way_keeps_its_power_states() {
    let Some(lab) = shared("rvtools-3.10-lab-27vms.xlsx") else {
        return;
    };
    let dir = scratch("keys_lab");
    let original = read(&lab);
    let trimmed = read(&trimmed_lab(&lab, &dir));
    // The trimmed vInfo really lacks the three columns.
    let headers = &trimmed.sources[0].vinfo_headers;
    assert!(
        TRIMMED.iter().all(|c| !headers.contains_key(*c)),
        "{headers:?}"
    );
    // 27 VMs: 26 powered on and one template, as `dsplan inventory` counts the original
    // (tests/ingest.rs counts the lab's vInfo with calamine).
    let on = |inv: &Inventory| {
        inv.vms
            .iter()
            .filter(|v| v.power_state == PowerState::PoweredOn)
            .count()
    };
    assert_eq!((original.vms.len(), on(&original)), (27, 26));
    assert_eq!(power_states(&trimmed), power_states(&original));
    assert!(
        trimmed
            .vms
            .iter()
            .all(|v| v.power_state != PowerState::Unknown && v.vi_sdk_server.is_some()),
    );
    // Every VM of the original keeps its key (the vCenter comes back from vCPU).
    let keys = |inv: &Inventory| {
        let mut k: Vec<String> = inv.vms.iter().map(|v| v.key().0).collect();
        k.sort();
        k
    };
    assert_eq!(keys(&trimmed), keys(&original));
    // And its disks and partitions with it: 64 virtual disks, all joined.
    assert_eq!(trimmed.disks.len(), 64);
    let vm_keys: std::collections::HashSet<String> = keys(&trimmed).into_iter().collect();
    assert!(trimmed.disks.iter().all(|d| vm_keys.contains(&d.vm_key.0)));
    assert_eq!(
        trimmed.summary().memory_consumed_mib,
        original.summary().memory_consumed_mib
    );
}

//! A vInfo without `Powerstate`, `Template`, `Cluster` and `Host` (a real RVTools 4.4.1
//! export trimmed to 11 columns, issue 12 case 12): the VMs' attributes come from vCPU,
//! else vMemory, each field and tab one warning; what stays unknown is one warning per
//! attribute naming the setting it defeats.

use std::path::{Path, PathBuf};

use dsplan::ingest::read_inputs;
use dsplan::inventory::PowerState;

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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("trimmed_vinfo")
        .join(test);
    // A fresh folder: the tabs are written anew each run.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create folder");
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
    let path = folder.to_string_lossy().into_owned();
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
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let count = |key: &str| json["totals"][key].as_u64().unwrap_or(u64::MAX);
    let warnings = json["warnings"]
        .as_array()
        .map(|ws| {
            ws.iter()
                .filter_map(|w| w["message"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (count("vms_placed"), count("vms_excluded"), warnings)
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

//! `dsplan predict`: what one layout achieves, layer by layer.

use dsplan::numbers::{at_most, floor_to, group_thousands};
use dsplan::perf::{LayerCeiling, Prediction, VSAN_SYSTEM_PREFIX};
use dsplan::report::predict::{PredictJson, VsanPredictJson, predict_json};
use dsplan::vsan::{PolicyChoice, VsanCatalog};

use super::common::CommonArgs;

/// `dsplan predict --hosts N --datastores D [...] [--json]`.
#[derive(clap::Args, Debug, Clone)]
pub struct PredictArgs {
    /// Hosts mounting every datastore (a `vsan-<sku>` system: the cluster's hosts).
    #[arg(long, value_parser = super::counts::any_hosts)]
    pub hosts: u32,
    /// Datastores (ANF volumes); needed for every system but the `vsan-<sku>` envelopes.
    #[arg(long, value_parser = super::counts::datastores)]
    pub datastores: Option<u32>,
    /// vSAN storage policy of a `vsan-<sku>` system: auto (by cluster size: RAID-1 FTT-1 at
    /// 3 hosts, RAID-5 FTT-1 at 4..5, RAID-6 FTT-2 from 6), raid1-ftt1, raid5-ftt1 or
    /// raid6-ftt2.
    #[arg(long, default_value = "auto")]
    pub vsan_policy: String,
    /// System, service level and workload.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print JSON (`schema_version`, `iops`, `throughput_mibps`, `bottleneck`, `layers` ...).
    #[arg(long)]
    pub json: bool,
}

/// Evaluates the flags and renders the text or JSON output.
///
/// # Errors
/// A message naming the invalid flag or value.
pub fn render(args: &PredictArgs) -> Result<String, String> {
    super::common::check_hosts("--hosts", args.hosts)?;
    if is_vsan_envelope(&args.common.system) {
        return render_vsan(args);
    }
    let datastores = args.datastores.ok_or_else(|| {
        format!(
            "--datastores is needed for system {} (only the {VSAN_SYSTEM_PREFIX}<sku> \
             envelopes go without)",
            args.common.system
        )
    })?;
    super::common::check_datastores("--datastores", datastores)?;
    let r = args.common.resolve()?;
    let mut layout = r.layout;
    layout.hosts = args.hosts;
    layout.datastores = datastores;
    let p: Prediction = r
        .model
        .predict_system(&r.system, &layout, &r.io)
        .map_err(|e| e.to_string())?;
    // A profile read from a file is never the calibrated one, whatever its name.
    let extrapolation = if r.model.system(&args.common.system).is_ok() {
        r.model.extrapolation(&r.system.name, &layout)
    } else {
        r.model.extrapolation(&args.common.system, &layout)
    };
    if args.json {
        let doc = PredictJson {
            layout: Some(&layout),
            cool_access_rate_mibps_per_tib: r.cool_rate.map(|c| c.1),
            cool_access_rule: r.cool_rate.map(|c| c.0),
            ..PredictJson::of(&p, &r.io, &extrapolation)
        };
        return predict_json(&doc).map_err(|e| e.to_string());
    }
    let mut s = format!(
        "system {}: {} host(s) x {} datastore(s), nconnect {}; {} KiB, {}% read, {}% random",
        p.system,
        layout.hosts,
        layout.datastores,
        layout.nconnect,
        r.io.block_size_kib,
        r.io.read_pct,
        r.io.random_pct
    );
    if layout.cool_pct > 0.0 {
        s.push_str(&format!(
            "; {}% cool, retrieval {}",
            layout.cool_pct, layout.retrieval
        ));
        if let Some((rule, rate)) = r.cool_rate {
            s.push_str(&format!(
                "; cool-access rate {rate} MiB/s per TiB in {} ({})",
                args.common.region.trim().to_ascii_lowercase(),
                rule.describe()
            ));
        }
    }
    s.push('\n');
    s.push_str(&format!(
        "predicted: {} IOPS, {} MiB/s (bottleneck: {})\n",
        at_most(p.iops, 0),
        at_most(p.throughput_mibps, 1),
        p.bottleneck
    ));
    if let Some(sentence) = extrapolation.sentence() {
        s.push_str(&sentence);
        s.push('\n');
    }
    if let Some(fits) = p.working_set_fits_cache {
        s.push_str(if fits {
            "working set fits the read cache\n"
        } else {
            "working set spills out of the read cache\n"
        });
    }
    s.push_str(&layer_table(&p.layers));
    Ok(s)
}

/// Whether `system` names a vSAN envelope of AVS hosts (`vsan-av36p`), not a profile
/// (`vsan-hybrid` is one) or a file.
fn is_vsan_envelope(system: &str) -> bool {
    let s = system.trim().to_ascii_lowercase();
    s.starts_with(VSAN_SYSTEM_PREFIX)
        && dsplan::perf::PerfModel::builtin()
            .is_ok_and(|m| m.system(&s).is_err() && m.vsan_host(&s).is_ok())
}

/// The layers' table: ceiling IOPS, MiB/s and utilization of each.
fn layer_table(layers: &[LayerCeiling]) -> String {
    let mut s = format!(
        "{:<12} {:>14} {:>12} {:>12}\n",
        "layer", "IOPS", "MiB/s", "utilization"
    );
    for l in layers {
        s.push_str(&format!(
            "{:<12} {:>14} {:>12} {:>11.1}%\n",
            l.layer,
            at_most(l.iops, 0),
            group_thousands(floor_to(l.throughput_mibps, 1), 1),
            l.utilization * 100.0
        ));
    }
    s
}

/// `dsplan predict --system vsan-<sku>`: a vSAN cluster of `--hosts` hosts (every one
/// serving), its policy by size or `--vsan-policy`.
fn render_vsan(args: &PredictArgs) -> Result<String, String> {
    let c = &args.common;
    let name = c.system.trim().to_ascii_lowercase();
    if args.datastores.is_some() || c.service_level.is_some() || c.cool_pct > 0.0 {
        return Err(format!(
            "--datastores, --service-level and --cool-pct do not apply to {name}: a vSAN \
             cluster has no datastores, pools or cool tier to count"
        ));
    }
    let io = c.io_profile()?;
    let model = dsplan::perf::PerfModel::builtin().map_err(|e| e.to_string())?;
    let catalog = VsanCatalog::builtin().map_err(|e| e.to_string())?;
    let host = model.vsan_host(&name).map_err(|e| e.to_string())?;
    let choice: PolicyChoice = args
        .vsan_policy
        .parse()
        .map_err(|e| format!("--vsan-policy: {e}"))?;
    let policy = catalog
        .policy(&choice, args.hosts)
        .filter(|p| args.hosts >= p.min_hosts)
        .ok_or_else(|| {
            format!(
                "--hosts {}: no vSAN policy {} for a cluster of that size (RAID-1 FTT-1 \
                 needs 3 hosts, RAID-5 FTT-1 4, RAID-6 FTT-2 6)",
                args.hosts, args.vsan_policy
            )
        })?;
    let layout =
        dsplan::perf::VsanLayout::new(args.hosts, &policy.policy, policy.write_cost(host.is_esa()));
    let v = model
        .predict_vsan(&name, &layout, &io)
        .map_err(|e| e.to_string())?;
    let p = &v.prediction;
    let extrapolation = dsplan::perf::Extrapolation {
        extrapolated: true,
        measured_range: "no published measurement of vSAN on AVS hosts: the envelope is \
                         built from the hosts' parts (data/vsan_performance.csv)"
            .into(),
        beyond: vec![format!("system {name}")],
    };
    if args.json {
        let doc = PredictJson {
            vsan: Some(VsanPredictJson {
                layout: &layout,
                architecture: &host.architecture,
                crossings_per_io: v.crossings_per_io,
                network_mibps: v.network_mibps,
                source: &host.source,
            }),
            ..PredictJson::of(p, &io, &extrapolation)
        };
        return predict_json(&doc).map_err(|e| e.to_string());
    }
    let w = &layout.write_cost;
    let mut s = format!(
        "system {}: {} host(s), vSAN {}, {} (a small write {} device read(s) + {} write(s), \
         a sequential one {} write(s) per block); {} KiB, {}% read, {}% random\n",
        p.system,
        layout.hosts,
        host.architecture,
        layout.policy,
        w.random_write_reads,
        w.random_write_writes,
        group_thousands(w.sequential_write_writes, 2),
        io.block_size_kib,
        io.read_pct,
        io.random_pct
    );
    s.push_str(&format!(
        "predicted: {} IOPS, {} MiB/s (bottleneck: {})\n",
        at_most(p.iops, 0),
        at_most(p.throughput_mibps, 1),
        p.bottleneck
    ));
    s.push_str(&format!(
        "network: {} device I/Os cross it per guest I/O; the NICs carry {} MiB/s in all, \
         the VMs' NFS datastore traffic included\n",
        group_thousands(v.crossings_per_io, 2),
        group_thousands(v.network_mibps, 1)
    ));
    s.push_str(
        "not measured: Microsoft publishes no vSAN figures for AVS hosts; each layer is an \
         upper bound from the hosts' parts, the conservative reading where a figure is \
         missing (data/vsan_performance.csv says which figures are assumptions)\n",
    );
    s.push_str(&layer_table(&p.layers));
    Ok(s)
}

/// Runs `dsplan predict`, writing to stdout.
///
/// # Errors
/// A message naming the invalid flag or value.
pub fn run(args: &PredictArgs) -> Result<(), String> {
    super::print_out(&render(args)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: PredictArgs,
    }

    fn json(argv: &str) -> serde_json::Value {
        let cli = Cli::try_parse_from(argv.split_whitespace()).unwrap();
        serde_json::from_str(&render(&cli.args).unwrap()).unwrap()
    }

    #[test]
    fn acceptance_command_gives_the_published_scaling() {
        let at = |d: u32| {
            json(&format!(
                "x --hosts 1 --datastores {d} --block-size 8K --random-pct 100 --json"
            ))
        };
        let v1 = at(1);
        let i1 = v1["iops"].as_f64().unwrap();
        // ~76,000 (one flow)
        assert!((i1 - 76_000.0).abs() < 1.0);
        assert_eq!(v1["bottleneck"], "flow");
        assert!(v1["throughput_mibps"].as_f64().is_some());
        let r = |d| at(d)["iops"].as_f64().unwrap() / i1;
        // +76% +-15% of the gain; +163% likewise; 8 no more than 15% above 4
        assert!((r(2) - 1.76).abs() < 0.15 * 0.76);
        assert!((r(4) - 2.63).abs() < 0.15 * 1.63);
        assert!(r(8) >= r(4) && r(8) <= r(4) * 1.15);
    }

    #[test]
    fn service_level_and_errors() {
        // Premium 2 TiB = 128 MiB/s; at 8 KiB that is 16,384 IOPS (below the flows).
        let v = json(
            "x --hosts 3 --datastores 2 --service-level premium --size-tib 2 --block-size 8 --json",
        );
        assert_eq!(v["bottleneck"], "qos");
        assert!((v["throughput_mibps"].as_f64().unwrap() - 128.0).abs() < 1e-9);
        for bad in [
            "x --hosts 0 --datastores 1",
            "x --hosts 1 --datastores 1 --block-size 0",
            "x --hosts 1 --datastores 1 --read-pct 101",
            "x --hosts 1 --datastores 1 --service-level ultra",
            "x --hosts 1 --datastores 1 --retrieval sometimes",
            "x --hosts 1 --datastores 1 --system nosuch",
        ] {
            let cli = Cli::try_parse_from(bad.split_whitespace()).unwrap();
            assert!(render(&cli.args).is_err(), "{bad}");
        }
    }

    #[test]
    fn cool_pct_with_a_service_level_uses_the_region_rule() {
        let q = |region: &str| {
            json(&format!(
                "x --hosts 4 --datastores 4 --service-level premium --size-tib 20 --cool-pct 80 \
                 --region {region} --json"
            ))
        };
        // japaneast lists the per-volume rule: min(36, 0.2 x 64 + 0.8 x 16) = 25.6 MiB/s per
        // TiB, so the 20 TiB pool's QoS is 20 x 25.6 = 512 MiB/s.
        let v = q("japaneast");
        assert!((v["cool_access_rate_mibps_per_tib"].as_f64().unwrap() - 25.6).abs() < 1e-9);
        assert_eq!(
            v["cool_access_rule"]["lower_of_legacy_and_per_volume"]["cool_tier_mibps_per_tib"],
            16.0
        );
        let qos = v["layout"]["qos_throughput_mibps"].as_f64().unwrap();
        assert!((qos - 512.0).abs() < 1e-9, "{qos}");
        // eastus (the default) is not listed: the legacy 36, 20 x 36 = 720 MiB/s.
        let e = json(
            "x --hosts 4 --datastores 4 --service-level premium --size-tib 20 --cool-pct 80 --json",
        );
        assert_eq!(e["cool_access_rate_mibps_per_tib"], 36.0);
        assert_eq!(e["cool_access_rule"], "legacy");
        assert_eq!(e["layout"]["qos_throughput_mibps"], 720.0);
        let cli =
            Cli::try_parse_from("x --hosts 1 --datastores 1 --region marsnorth".split_whitespace())
                .unwrap();
        assert!(render(&cli.args).unwrap_err().contains("--region"));
    }

    #[test]
    fn beyond_4_hosts_is_extrapolated_and_4_hosts_is_not() {
        // data/calibration/anf.csv measured anf-avs at 1..4 hosts, 1..8 datastores,
        // nconnect 1.
        let v = json("x --hosts 8 --datastores 4 --json");
        assert_eq!(v["extrapolated"], true);
        assert_eq!(v["beyond"], serde_json::json!(["8 hosts"]));
        assert!(v["measured_range"].as_str().unwrap().contains("1..4 hosts"));
        let v = json("x --hosts 4 --datastores 4 --json");
        assert_eq!(v["extrapolated"], false);
        assert_eq!(v["beyond"], serde_json::json!([]));
        let v = json("x --hosts 4 --datastores 4 --nconnect 4 --json");
        assert_eq!(v["beyond"], serde_json::json!(["nconnect 4"]));
        let v = json("x --hosts 1 --datastores 9 --json");
        assert_eq!(v["beyond"], serde_json::json!(["9 datastores per host"]));
        let text = |argv: &str| {
            let cli = Cli::try_parse_from(argv.split_whitespace()).unwrap();
            render(&cli.args).unwrap()
        };
        assert!(text("x --hosts 8 --datastores 4").contains("extrapolated: 8 hosts beyond"));
        assert!(!text("x --hosts 4 --datastores 4").contains("extrapolated"));
    }

    #[test]
    fn a_vsan_envelope_is_shown_layer_by_layer() {
        // 3 AV36P hosts: RAID-1 FTT-1 by size; 64 KiB sequential, 70% read: 0.7 x 1 + 0.3 x
        // 2 = 1.3 device I/Os cross the NICs per guest I/O; 3 x 25 Gbit/s = 3 x 2,980.23
        // MiB/s x 0.85954 (the NFS payload share fitted on the same NICs) = 7,684.86 MiB/s:
        // 7,684.86 / 1.3 = 5,911.4 MiB/s, the network binding.
        let v = json(
            "x --system vsan-av36p --hosts 3 --block-size 64K --random-pct 0 --read-pct 70 --json",
        );
        assert_eq!(v["bottleneck"], "network");
        assert!(
            (v["throughput_mibps"].as_f64().unwrap() - 5_911.4).abs() < 0.1,
            "{v}"
        );
        assert_eq!(v["vsan"]["layout"]["policy"], "raid1-ftt1");
        assert_eq!(v["extrapolated"], true);
        assert!(v.get("layout").is_none());
        let layers: Vec<&str> = v["layers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["layer"].as_str().unwrap())
            .collect();
        assert_eq!(layers, ["host", "network", "backend"]);
        // 6 hosts: RAID-6 FTT-2; a named policy the size does not allow is refused.
        let v = json("x --system vsan-av36p --hosts 6 --json");
        assert_eq!(v["vsan"]["layout"]["policy"], "raid6-ftt2");
        for bad in [
            "x --system vsan-av36p --hosts 3 --vsan-policy raid6-ftt2",
            "x --system vsan-av36p --hosts 3 --datastores 2",
            "x --system vsan-av99 --hosts 3",
            "x --hosts 3",
        ] {
            let cli = Cli::try_parse_from(bad.split_whitespace()).unwrap();
            assert!(render(&cli.args).is_err(), "{bad}");
        }
        let cli =
            Cli::try_parse_from("x --system vsan-av36p --hosts 4".split_whitespace()).unwrap();
        let text = render(&cli.args).unwrap();
        assert!(
            text.contains("raid5-ftt1") && text.contains("not measured"),
            "{text}"
        );
    }

    #[test]
    fn vsan_text_output_says_spill() {
        let cli = Cli::try_parse_from(
            "x --hosts 4 --datastores 1 --system vsan-hybrid --vms-per-host 3 --block-size 16K"
                .split_whitespace(),
        )
        .unwrap();
        let s = render(&cli.args).unwrap();
        assert!(s.contains("spills"), "{s}");
        assert!(s.contains("bottleneck: backend"), "{s}");
    }
}

//! One job: predicts what one layout achieves, layer by layer, with the performance model
//! alone (`dsplan predict --hosts 3 --datastores 4`): no export, no catalog, no optimizer.
//!
//! ```sh
//! cargo run --example predict_layout               # 3 hosts x 4 datastores
//! cargo run --example predict_layout -- 4 8        # 4 hosts x 8 datastores
//! ```

use std::process::ExitCode;

use dsplan::numbers::group_thousands;
use dsplan::perf::{IoProfile, Layout, PerfModel};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut count = |default: u32| args.next().map_or(Ok(default), |a| a.parse::<u32>());
    let (Ok(hosts), Ok(datastores)) = (count(3), count(4)) else {
        eprintln!("usage: predict_layout [HOSTS] [DATASTORES]");
        return ExitCode::FAILURE;
    };
    let Ok(text) = predict(hosts, datastores).inspect_err(|e| eprintln!("error: {e}")) else {
        return ExitCode::FAILURE;
    };
    print!("{text}");
    ExitCode::SUCCESS
}

fn predict(hosts: u32, datastores: u32) -> Result<String, dsplan::perf::PerfError> {
    let model = PerfModel::builtin()?;
    // Regular volumes: 4,500 MiB/s each (data/limits.csv); QoS unlimited.
    let layout = Layout::new(hosts, datastores, 4_500.0);
    let mut out = String::new();
    for (name, profile) in [
        ("8 KiB random, 70% read", IoProfile::small_block()),
        ("64 KiB sequential, 70% read", IoProfile::large_block()),
    ] {
        let p = model.predict(&layout, &profile)?;
        out.push_str(&format!(
            "{hosts} host(s) x {datastores} datastore(s), {name}: {} IOPS, {} MiB/s \
             (bottleneck: {})\n",
            group_thousands(p.iops, 0),
            group_thousands(p.throughput_mibps, 1),
            p.bottleneck
        ));
        for l in &p.layers {
            out.push_str(&format!(
                "  {:<12} {:>12} IOPS {:>10} MiB/s {:>6.1}% used\n",
                l.layer,
                group_thousands(l.iops, 0),
                group_thousands(l.throughput_mibps, 1),
                l.utilization * 100.0
            ));
        }
    }
    Ok(out)
}

//! Estate plans at 1,000, 10,000 and 50,000 VMs (issue 10): the whole-estate plan
//! (`Planner::plan_estate`, default options: hosts sized from compute on every SKU, each
//! AVS cluster's datastores, shared pools, vSAN alone) beside the inventory read of the same
//! workbook (`dsplan::ingest::read_inputs`) in the same run, so the ratio plan / read is
//! measured in-process. The plan reads the workbook itself, so the ratio is the end-to-end
//! cost over the read (the acceptance asks for at most 1.2 at 10k and 50k VMs).
//!
//! `cargo bench --bench estate`. The estates come from the generator of
//! `examples/make_estate.rs` (`examples/support/estate_gen.rs`), written once into the
//! target directory (`target/tmp/bench-estate/`) and reused: 4 source clusters each;
//! 1,000 VMs unscaled (0.358 PiB in use), 10,000 VMs at 5.5 PiB in use (the estate),
//! 50,000 VMs unscaled (18.642 PiB). Every measurement runs whole iterations (flat
//! sampling, 10 samples): at 50,000 VMs one read takes about 1.2 s and one plan 1.5 s, so
//! criterion's default 100 linear samples would take over an hour; the whole run takes
//! about 3 minutes on 2 cores.
//!
//! Whole-process figures (wall, peak RSS, output bytes, CSV beside xlsx) are in
//! `BENCHMARKS.md`, "Estate plans at 1k, 10k, 50k VMs (issue 10)".

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use dsplan::Planner;
use dsplan::report::{Format, render_estate_plan};

#[path = "../examples/support/estate_gen.rs"]
#[allow(dead_code)]
mod estate_gen;

use estate_gen::Spec;

/// The estates: name, VMs, source clusters, PiB in use (`None`: unscaled).
const ESTATES: [(&str, usize, usize, Option<f64>); 3] = [
    ("1k", 1_000, 4, None),
    ("10k", 10_000, 4, Some(5.5)),
    ("50k", 50_000, 4, None),
];

/// The workbook of one estate, written unless already there.
fn workbook(dir: &Path, name: &str, vms: usize, clusters: usize, pib: Option<f64>) -> PathBuf {
    let suffix = pib.map_or(String::new(), |p| format!("-{p}pib"));
    let path = dir.join(format!("estate-{name}-{clusters}c{suffix}.xlsx"));
    if !path.exists() {
        std::fs::create_dir_all(dir).expect("bench dir");
        let spec = Spec {
            in_use_pib: pib,
            ..Spec::new(vms, clusters)
        };
        let out = path.to_str().expect("UTF-8 target dir");
        estate_gen::write(out, &spec).expect("write estate");
    }
    path
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-estate");
    for (name, vms, clusters, pib) in ESTATES {
        let path = workbook(&dir, name, vms, clusters, pib);
        // Sanity: the read and the plan are of the estate the group names.
        let inv = dsplan::ingest::read_inputs(&[&path]).expect("read estate");
        assert_eq!(inv.vms.len(), vms);
        let plan = Planner::new()
            .input(&path)
            .plan_estate()
            .expect("plan estate");
        let json = render_estate_plan(&plan, Format::Json).expect("JSON");
        eprintln!(
            "{name}: {} VMs placed, {} excluded, {} AVS clusters, {} pools, {} JSON bytes",
            plan.summary.vms_placed,
            plan.summary.vms_excluded,
            plan.summary.clusters,
            plan.summary.pools,
            json.len()
        );

        let mut g = c.benchmark_group(format!("estate {name} VMs xlsx"));
        g.sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            // 10 whole iterations: 15 to 18 s at 50,000 VMs.
            .measurement_time(Duration::from_secs(if vms >= 50_000 { 20 } else { 5 }));
        g.bench_function("read_inputs", |b| {
            b.iter(|| black_box(dsplan::ingest::read_inputs(&[&path]).expect("read")))
        });
        g.bench_function("plan_estate", |b| {
            b.iter(|| black_box(Planner::new().input(&path).plan_estate().expect("plan")))
        });
        g.bench_function("plan_estate + JSON", |b| {
            b.iter(|| {
                let plan = Planner::new().input(&path).plan_estate().expect("plan");
                black_box(render_estate_plan(&plan, Format::Json).expect("JSON"))
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

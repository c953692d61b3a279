//! The layered model: each layer has a ceiling per I/O class (read/write x random/sequential)
//! and a demand per operation in each class; by the utilisation law a layer allows at most
//! `1 / sum(demand_c / ceiling_c)` operations per second (mixes combine by time, i.e. the
//! harmonic weighting of rates), and the layout achieves the lowest of these.

use super::profile::{SystemProfile, UslScope};
use super::{IoProfile, Layer, LayerCeiling, Layout, PerfError, Prediction, RetrievalPolicy};

/// Classes, in this order: read random, read sequential, write random, write sequential.
type Classes = [f64; 4];

const INF: f64 = f64::INFINITY;

/// MiB/s -> IOPS at `bs` KiB.
fn to_iops(mibps: f64, bs: f64) -> f64 {
    mibps * 1024.0 / bs
}

/// Bits per second (Gbit/s) -> MiB/s.
pub(super) fn gbps_to_mibps(gbps: f64) -> f64 {
    gbps * 1e9 / 8.0 / 1_048_576.0
}

/// The lower of an IOPS and a MiB/s ceiling (either may be absent), as IOPS.
fn roof(iops: Option<f64>, mibps: Option<f64>, bs: f64) -> f64 {
    iops.unwrap_or(INF)
        .min(mibps.map_or(INF, |m| to_iops(m, bs)))
}

/// Utilisation law: ops/s a layer with `cap` per class allows for `demand` per op.
pub(super) fn mixed(demand: &Classes, cap: &Classes) -> f64 {
    let mut t = 0.0;
    for c in 0..4 {
        if demand[c] > 0.0 {
            t += demand[c] / cap[c];
        }
    }
    if t > 0.0 { 1.0 / t } else { INF }
}

/// Gunther's Universal Scalability Law: relative capacity of `n` units,
/// `n / (1 + sigma (n-1) + kappa n (n-1))`.
pub fn usl(n: f64, sigma: f64, kappa: f64) -> f64 {
    n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))
}

/// The USL held at its peak: the most any `k <= n` units reach. Past the peak
/// `sqrt((1 - sigma) / kappa)` the published ANF curve shows diminishing returns, not a
/// decline (a host can leave extra flows idle), so the ceiling never falls as `n` grows.
pub fn usl_envelope(n: u64, sigma: f64, kappa: f64) -> f64 {
    if n <= 1 {
        return 1.0;
    }
    let nf = n as f64;
    let peak = if kappa > 0.0 && sigma < 1.0 {
        ((1.0 - sigma) / kappa).sqrt()
    } else if sigma < 1.0 {
        nf
    } else {
        1.0
    };
    let mut best: f64 = 1.0;
    for k in [nf, peak.floor(), peak.ceil()] {
        let k = k.clamp(1.0, nf);
        best = best.max(usl(k, sigma, kappa));
    }
    best
}

/// Evaluates `profile` for a validated layout and profile.
pub(crate) fn evaluate(
    p: &SystemProfile,
    layout: &Layout,
    io: &IoProfile,
) -> Result<Prediction, PerfError> {
    let q = &p.params;
    let bs = io.block_size_kib;
    let r = io.read_pct / 100.0;
    let x = io.random_pct / 100.0;
    let share: Classes = [r * x, r * (1.0 - x), (1.0 - r) * x, (1.0 - r) * (1.0 - x)];
    let hosts = f64::from(layout.hosts);
    let d = u64::from(layout.datastores);
    // VMDKs are spread round-robin over the datastores.
    let (ds_per_host, ds_used) = match (layout.vms_per_host, layout.vmdks_per_vm) {
        (Some(v), Some(k)) => {
            let per_vm = u64::from(v) * u64::from(k);
            (d.min(per_vm), d.min(per_vm * u64::from(layout.hosts)))
        }
        _ => (d, d),
    };
    let flows_per_host = ds_per_host * u64::from(layout.nconnect);
    let vms_total = f64::from(layout.hosts) * f64::from(layout.vms_per_host.unwrap_or(1));
    let cool = layout.cool_pct / 100.0;

    let mut layers: Vec<(Layer, f64)> = Vec::new();
    let mut push = |layer: Layer, demand: &Classes, cap: &Classes| {
        let c = mixed(demand, cap);
        if c.is_finite() {
            layers.push((layer, c));
        }
    };

    // VM layer.
    if let Some(v) = layout.vms_per_host
        && (q.vm_iops.is_some() || q.vm_mibps.is_some())
    {
        let c = hosts * f64::from(v) * roof(q.vm_iops, q.vm_mibps, bs);
        push(Layer::Vm, &share, &[c; 4]);
    }

    // Flow layer and the host contention over flows.
    let flow_one = roof(q.flow_iops, q.flow_mibps, bs);
    let flows_on = p.usl_over == UslScope::Flows && flow_one.is_finite();
    if flows_on {
        let c = hosts * flows_per_host as f64 * flow_one;
        push(Layer::Flow, &share, &[c; 4]);
    }

    // Host layer: contention (USL), NIC, client CPU, client egress.
    let sigma = q.usl_sigma.unwrap_or(0.0);
    let kappa = q.usl_kappa.unwrap_or(0.0);
    let mut per_host = INF;
    if flows_on {
        per_host = per_host.min(usl_envelope(flows_per_host, sigma, kappa) * flow_one);
    }
    if let (Some(g), Some(e)) = (q.host_nic_gbps, q.nic_efficiency) {
        per_host = per_host.min(to_iops(gbps_to_mibps(g) * e, bs));
    }
    if let Some(h) = q.host_iops {
        per_host = per_host.min(h);
    }
    let write_host = per_host.min(q.host_write_mibps.map_or(INF, |m| to_iops(m, bs)));
    let mut host_cap: Classes = [
        hosts * per_host,
        hosts * per_host,
        hosts * write_host,
        hosts * write_host,
    ];
    if p.usl_over == UslScope::Vms
        && let Some(u) = q.usl_unit_iops
    {
        let n = vms_total.max(1.0) as u64;
        let cluster = usl_envelope(n, sigma, kappa) * u;
        for c in &mut host_cap {
            *c = c.min(cluster);
        }
    }
    push(Layer::Host, &share, &host_cap);

    // Volume layer (ANF datastores), with the re-warm writes of the cool tier.
    let rewarm = match layout.retrieval {
        RetrievalPolicy::Default => [1.0, 0.0],
        RetrievalPolicy::OnRead => [1.0, 1.0],
        RetrievalPolicy::Never => [0.0, 0.0],
    };
    let cool_on =
        cool > 0.0 && (q.cool_seq_read_mibps.is_some() || q.cool_random_read_mibps.is_some());
    if q.volume_layer.is_some_and(|v| v > 0.0) {
        let vol = layout.volume_max_throughput_mibps;
        let bw = to_iops(vol, bs);
        let read_ops = match (q.volume_read_op_fixed_us, q.volume_read_op_per_kib_us) {
            (Some(a), Some(b)) if a + b * bs > 0.0 => 1e6 / (a + b * bs),
            _ => INF,
        };
        let write_ops = read_ops * q.volume_write_op_ratio.unwrap_or(1.0);
        let n = ds_used as f64;
        let cap = [n * read_ops.min(bw), n * bw, n * write_ops.min(bw), n * bw];
        let mut demand = share;
        if cool_on {
            demand[2] += share[0] * cool * rewarm[0];
            demand[3] += share[1] * cool * rewarm[1];
        }
        push(Layer::Volume, &demand, &cap);
    }

    // Cool tier: cold reads are served from the cool tier of each volume used.
    if cool_on {
        let n = ds_used as f64;
        let cap = [
            n * roof(None, q.cool_random_read_mibps, bs),
            n * roof(None, q.cool_seq_read_mibps, bs),
            INF,
            INF,
        ];
        let demand = [share[0] * cool, share[1] * cool, 0.0, 0.0];
        push(Layer::CoolTier, &demand, &cap);
    }

    // Array: back-end operations in internal blocks.
    if let Some(a) = q.array_iops {
        let ops_per_request = q
            .array_block_kib
            .filter(|b| *b > 0.0)
            .map_or(1.0, |b| (bs / b).ceil().max(1.0));
        push(Layer::Array, &share, &[a / ops_per_request; 4]);
    }

    // Gateway links.
    if let (Some(g), Some(gb), Some(e)) = (q.gateways, q.gateway_gbps, q.link_efficiency) {
        push(
            Layer::Link,
            &share,
            &[to_iops(g * gbps_to_mibps(gb) * e, bs); 4],
        );
    }

    // Cache tier: the share of I/O that misses the flash cache goes to the back end.
    let mut working_set_fits_cache = None;
    if let (Some(n), Some(gb), Some(f)) =
        (q.cache_devices, q.cache_device_gb, q.read_cache_fraction)
    {
        let cache_gib = n * gb * f * 1e9 / 1_073_741_824.0;
        let ws_gib = layout.working_set_gib.or(q
            .vm_working_set_gb
            .map(|w| w * 1e9 / 1_073_741_824.0 * vms_total));
        if let Some(ws) = ws_gib {
            working_set_fits_cache = Some(ws <= cache_gib);
            let hit = if ws > 0.0 {
                (cache_gib / ws).min(1.0)
            } else {
                1.0
            };
            if let Some(m) = q.miss_iops
                && hit < 1.0
            {
                let miss = 1.0 - hit;
                push(Layer::Backend, &share.map(|s| s * miss), &[m; 4]);
            }
        }
    }

    // Environment.
    if q.env_iops.is_some() || q.env_mibps.is_some() {
        push(
            Layer::Environment,
            &share,
            &[roof(q.env_iops, q.env_mibps, bs); 4],
        );
    }

    // QoS: a pure cap.
    if let Some(qos) = layout.qos_throughput_mibps {
        layers.push((Layer::Qos, to_iops(qos, bs)));
    }

    let Some(&(mut bottleneck, mut iops)) = layers.first() else {
        return Err(PerfError::Invalid {
            field: "system",
            value: p.name.clone(),
            expected: "a profile with at least one finite layer",
        });
    };
    for &(l, c) in &layers[1..] {
        if c < iops {
            iops = c;
            bottleneck = l;
        }
    }
    let layers = layers
        .into_iter()
        .map(|(layer, c)| LayerCeiling {
            layer,
            iops: c,
            throughput_mibps: c * bs / 1024.0,
            utilization: if c > 0.0 { iops / c } else { 1.0 },
        })
        .collect();
    Ok(Prediction {
        iops,
        throughput_mibps: iops * bs / 1024.0,
        bottleneck,
        layers,
        system: p.name.clone(),
        working_set_fits_cache,
        latency_ms: layout
            .outstanding_io
            .filter(|_| iops > 0.0)
            .map(|n| n / iops * 1000.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usl_hand_values() {
        // sigma 0.1, kappa 0.02: n=2 -> 2 / (1 + 0.1 + 0.04) = 1.754386
        assert!((usl(2.0, 0.1, 0.02) - 2.0 / 1.14).abs() < 1e-12);
        // peak at sqrt(0.9/0.02) = 6.708: k=7 -> 7 / (1 + 0.6 + 0.84) = 2.868852;
        // k=6 -> 6 / (1 + 0.5 + 0.6) = 2.857143; n=20 is held at the k=7 value.
        assert!((usl_envelope(20, 0.1, 0.02) - 7.0 / 2.44).abs() < 1e-12);
        assert!(usl(20.0, 0.1, 0.02) < usl_envelope(20, 0.1, 0.02));
        assert_eq!(usl_envelope(1, 0.1, 0.02), 1.0);
        // no contention: linear
        assert_eq!(usl_envelope(8, 0.0, 0.0), 8.0);
    }

    #[test]
    fn mixes_are_harmonic() {
        // 50% at 100 ops/s and 50% at 300 ops/s: 1 / (0.5/100 + 0.5/300) = 150, not 200.
        let c = mixed(&[0.5, 0.0, 0.5, 0.0], &[100.0, INF, 300.0, INF]);
        assert!((c - 150.0).abs() < 1e-9);
    }
}

// Estate fixtures made in memory: VMs of a source cluster, an inventory of them, the estate
// plan (the design the options name, else the cheapest), the estate plan with ANF for all
// unless the options name a design. Included by tests/estate.rs and tests/estate_av64.rs
// (which import `Inventory`, `Origin`, `PowerState`, `Vm`, `Design`, `EstatePlan`,
// `PlanOptions` and `Planner`).

/// A powered-on VM of `cluster` with `cpus` vCPUs, `memory_gib` GiB configured and
/// `in_use_gib` GiB in use (and provisioned).
fn vm(name: &str, cluster: &str, cpus: u64, memory_gib: f64, in_use_gib: f64) -> Vm {
    Vm {
        power_state: PowerState::PoweredOn,
        template: Some(false),
        cluster: Some(cluster.into()),
        cpus: Some(cpus),
        memory_mib: Some(memory_gib * 1024.0),
        provisioned_mib: Some(in_use_gib * 1024.0),
        in_use_mib: Some(in_use_gib * 1024.0),
        ..Vm::new(
            name,
            Origin {
                file: "estate".into(),
                sheet: "vInfo".into(),
                row: 2,
            },
        )
    }
}

/// `n` VMs named `<cluster>-NNN`, all alike.
fn vms(cluster: &str, n: usize, cpus: u64, memory_gib: f64, in_use_gib: f64) -> Vec<Vm> {
    (0..n)
        .map(|i| {
            vm(
                &format!("{cluster}-{i:03}"),
                cluster,
                cpus,
                memory_gib,
                in_use_gib,
            )
        })
        .collect()
}

fn inventory(vms: Vec<Vm>) -> Inventory {
    let mut vms = vms;
    for (i, v) in vms.iter_mut().enumerate() {
        v.origin.row = i + 2;
    }
    Inventory {
        inputs: vec!["estate".into()],
        vms,
        ..Inventory::default()
    }
}

fn plan_estate(inv: Inventory, options: PlanOptions) -> EstatePlan {
    match Planner::new().inventory(inv).options(options).plan_estate() {
        Ok(p) => p,
        Err(e) => panic!("estate plan failed: {e}"),
    }
}

/// The estate plan of `inv`, ANF for all unless `options` names a design: every VM's data
/// on ANF datastores, the ANF side's figures under test.
fn plan_anf(inv: Inventory, options: PlanOptions) -> EstatePlan {
    plan_estate(
        inv,
        {
            let design = options.design.or(Some(Design::Anf));
            options.design(design)
        },
    )
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

/// A source cluster of the workshop export as vInfo gives it, for the VMs the default
/// scope plans (templates and SRM placeholders out, powered-off VMs in).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct WorkshopCluster {
    /// vCPUs (`CPUs`).
    vcpus: f64,
    /// Configured memory, MiB (`Memory`).
    memory_mib: f64,
    /// Capacity in use, MiB (`In Use MiB`, or `In Use MB` in older exports).
    in_use_mib: f64,
}

/// Per source cluster: vCPUs, configured memory and capacity in use of the VMs the default
/// scope plans, read straight from vInfo with calamine.
fn workshop_clusters(path: &std::path::Path) -> BTreeMap<String, WorkshopCluster> {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut wb: Xlsx<_> = open_workbook(path).unwrap();
    let range = wb.worksheet_range("vInfo").unwrap();
    let mut rows = range.rows();
    let header = rows.next().unwrap();
    let col = |name: &str| header.iter().position(|c| *c == name);
    let (vm, cluster, cpus, memory, template) = (
        col("VM").unwrap(),
        col("Cluster").unwrap(),
        col("CPUs").unwrap(),
        col("Memory").unwrap(),
        col("Template").unwrap(),
    );
    let in_use = col("In Use MiB").or_else(|| col("In Use MB")).unwrap();
    let srm = col("SRM Placeholder");
    let truthy = |d: &Data| {
        matches!(d, Data::Bool(true)) || d.to_string().trim().eq_ignore_ascii_case("true")
    };
    let num = |d: &Data| match d {
        Data::Int(i) => *i as f64,
        Data::Float(f) => *f,
        other => other.to_string().trim().parse().unwrap_or(0.0),
    };
    let mut out: BTreeMap<String, WorkshopCluster> = BTreeMap::new();
    for row in rows {
        if row[vm].to_string().trim().is_empty()
            || truthy(&row[template])
            || srm.is_some_and(|s| truthy(&row[s]))
        {
            continue;
        }
        let e = out
            .entry(row[cluster].to_string().trim().to_string())
            .or_default();
        e.vcpus += num(&row[cpus]);
        e.memory_mib += num(&row[memory]);
        e.in_use_mib += num(&row[in_use]);
    }
    out
}

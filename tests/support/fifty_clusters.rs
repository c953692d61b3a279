// Included with `include!` by tests/pools.rs and tests/xlsx.rs: an estate of 50 one-VM
// clusters, written as a vInfo CSV by the test itself.

/// A vInfo CSV under `dir` of 50 powered-on VMs, each alone in its own source cluster
/// (`c01`..`c50`, so 50 AVS clusters of 3 hosts): 2 vCPUs, 8 GiB (8,192 MiB) of memory,
/// 12 GiB (12,288 MiB) in use, 20 GiB provisioned.
fn fifty_one_vm_clusters(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut lines = vec![
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"In Use MiB\",\
         \"Provisioned MiB\",\"Datacenter\",\"Cluster\",\"Host\",\"VM ID\",\"VI SDK Server\""
            .to_string(),
    ];
    for i in 1..=50 {
        lines.push(format!(
            "\"vm-{i:02}\",\"poweredOn\",\"False\",\"2\",\"8192\",\"12288\",\"20480\",\
             \"DC1\",\"c{i:02}\",\"esx-{i:02}\",\"vm-{i}\",\"vc.example.test\""
        ));
    }
    let path = dir.join("fifty-clusters-vinfo.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

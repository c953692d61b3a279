/// One powered-on VM of a made-up vInfo CSV.
struct VinfoVm<'a> {
    name: String,
    cpus: u32,
    memory_mib: u64,
    /// In use and provisioned alike.
    in_use_mib: u64,
    cluster: &'a str,
    vm_id: String,
}

/// `vms` written as a vInfo CSV at `path`, every VM of the vCenter `server`.
fn write_vinfo_csv(path: &std::path::Path, server: &str, vms: &[VinfoVm]) {
    let mut csv = String::from(
        "\"VM\",\"Powerstate\",\"Template\",\"CPUs\",\"Memory\",\"Provisioned MiB\",\
         \"In Use MiB\",\"Cluster\",\"VM ID\",\"VI SDK Server\"\n",
    );
    for v in vms {
        csv.push_str(&format!(
            "\"{}\",\"poweredOn\",\"False\",\"{}\",\"{}\",\"{mib}\",\"{mib}\",\"{}\",\"{}\",\
             \"{server}\"\n",
            v.name,
            v.cpus,
            v.memory_mib,
            v.cluster,
            v.vm_id,
            mib = v.in_use_mib
        ));
    }
    std::fs::write(path, csv).unwrap();
}

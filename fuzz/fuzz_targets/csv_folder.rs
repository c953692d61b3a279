//! A folder of RVTools CSV tabs: the input is split at its first 0xFF byte into vInfo and
//! vHost (vInfo alone without one).
#![no_main]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = common::scratch("folder");
    let _ = std::fs::create_dir_all(&dir);
    let (vinfo, vhost) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let _ = std::fs::write(dir.join("RVTools_tabvInfo.csv"), vinfo);
    let host = dir.join("RVTools_tabvHost.csv");
    match vhost {
        Some(bytes) => {
            let _ = std::fs::write(&host, bytes);
        }
        None => {
            let _ = std::fs::remove_file(&host);
        }
    }
    let _ = dsplan::ingest::read_inputs(&[dir]);
});

//! Reads files as the web page reads uploads (`ingest::read_inputs_bytes`: each file's
//! bytes under its name) and prints the VM count, to measure the upload path alone:
//! `cargo run --release --example read_upload -- export.zip`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut uploads = Vec::new();
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path)?;
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(path);
        uploads.push((name, bytes));
    }
    let inventory = dsplan::ingest::read_inputs_bytes(&uploads)?;
    println!(
        "{} VMs, {} warnings",
        inventory.vms.len(),
        inventory.warnings.len()
    );
    Ok(())
}

//! VM names as vSphere has them: one line. A line break in a name is refused, with the
//! likely cause.

use super::IngestError;

/// Refuses a VM name holding a line break. vSphere names are one line, so in a CSV file the
/// break most often comes from a quote that opens in the name and is never closed: the
/// reader took the rows after it into the name (`"unterminated,poweredOn,...` swallowed the
/// next VM; said when the name holds three separators or more); otherwise the cell itself
/// holds the break. Other columns (Annotation) may hold line breaks and are left alone.
///
/// # Errors
/// [`IngestError::Malformed`] naming the file, sheet, row and column of the first such name.
pub(super) fn check_vm_names(vms: &[crate::inventory::Vm], csv: bool) -> Result<(), IngestError> {
    let Some(vm) = vms.iter().find(|vm| vm.name.contains(['\n', '\r'])) else {
        return Ok(());
    };
    let first_line = vm.name.lines().next().unwrap_or_default();
    // A swallowed row brings its fields along: several separators in the name.
    let separators = vm
        .name
        .chars()
        .filter(|c| matches!(c, ',' | ';' | '\t'))
        .count();
    let why = if csv && separators >= 3 {
        "a quote opened here is not closed, so the rows after it were read into this name"
    } else {
        "a VM name is one line in vSphere: remove the line break from the cell"
    };
    Err(IngestError::Malformed {
        file: vm.origin.file.to_string(),
        sheet: Some(vm.origin.sheet.to_string()),
        row: Some(vm.origin.row),
        column: Some("VM".into()),
        detail: format!(
            "VM name '{}' holds a line break: {why}",
            crate::numbers::clip(first_line)
        ),
    })
}

//! Reading RVTools exports (xlsx, a folder of `RVTools_tab*.csv` files, or a single vInfo
//! CSV) into an [`Inventory`](crate::inventory::Inventory).

use std::path::Path;

use crate::inventory::Inventory;

/// Errors that stop reading an input.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// The input could not be read.
    #[error("{file}: {detail}")]
    Unreadable {
        /// The path.
        file: String,
        /// What went wrong.
        detail: String,
    },
}

/// Reads every input and merges them into one inventory.
///
/// # Errors
/// [`IngestError`] naming the file and the problem.
pub fn read_inputs<P: AsRef<Path>>(paths: &[P]) -> Result<Inventory, IngestError> {
    let _ = paths;
    Err(IngestError::Unreadable {
        file: String::new(),
        detail: "not implemented".into(),
    })
}

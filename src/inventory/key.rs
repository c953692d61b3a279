//! [`VmKey`]: how a VM is known across tabs and inputs.

use serde::{Deserialize, Serialize};

/// Identifies a VM across tabs and inputs: `VI SDK Server` + `VM ID`, else `VI SDK Server`
/// + `VM UUID`, else (older or trimmed exports) `VI SDK Server` + the VM name.
///
/// Written as `id:<server>:<vm id>`, `uuid:<server>:<uuid>` or `name:<server>:<name>`
/// (`<server>` empty when unknown).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VmKey(pub String);

impl VmKey {
    /// Builds the key from the columns a tab carries.
    pub fn new(server: Option<&str>, vm_id: Option<&str>, uuid: Option<&str>, name: &str) -> Self {
        let server = server.unwrap_or("");
        // Joined by hand, not `format!`: every VM, disk and partition row builds one.
        let (kind, value) = match (vm_id, uuid) {
            (Some(id), _) => ("id:", id),
            (None, Some(uuid)) => ("uuid:", uuid),
            (None, None) => ("name:", name),
        };
        let mut key = String::with_capacity(kind.len() + server.len() + 1 + value.len());
        key.push_str(kind);
        key.push_str(server);
        key.push(':');
        key.push_str(value);
        VmKey(key)
    }

    /// Whether the key falls back to the VM name (no `VM ID` / `VM UUID` known).
    pub fn is_name_based(&self) -> bool {
        self.0.starts_with("name:")
    }

    /// Whether the key is a `VM ID` key (`id:<server>:<vm id>`): two rows of one input
    /// with the same such key are one VM written twice.
    pub fn is_id_based(&self) -> bool {
        self.0.starts_with("id:")
    }
}

impl std::fmt::Display for VmKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

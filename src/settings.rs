//! Setting names to flag names. Library messages name a setting by its
//! `PlanOptions` field in backticks (`` `max_datastores` ``); the command and the
//! customer documents (HTML) show its flag instead (`--max-datastores`).

/// Each setting's library name and its flag(s), where the flag is not simply the name with
/// dashes.
const RENAMED: [(&str, &str); 6] = [
    ("clusters", "--cluster"),
    ("vcenters", "--vcenter"),
    ("datacenters", "--datacenter"),
    ("block_size_kib", "--block-size"),
    ("io_profile", "--block-size, --read-pct, --random-pct"),
    ("flexible_purchased_mibps", "--flexible-mibps"),
];

/// Settings whose flag is `--` + the name with dashes (`plan`'s, then `predict`'s and
/// `sweep`'s).
const SAME: [&str; 53] = [
    "hosts",
    "host_sku",
    "vcpu_per_core",
    "memory_basis",
    "memory_overcommit",
    "ha_hosts",
    "group",
    "host_term",
    "host_price_file",
    "per_cluster",
    "iops",
    "throughput_mibps",
    "perf",
    "perf_basis",
    "read_pct",
    "random_pct",
    "region",
    "allow_unlisted_region",
    "price_file",
    "capacity_basis",
    "growth_pct",
    "headroom_pct",
    "snapshot_reserve_pct",
    "cold_pct",
    "cool_retrieval_pct",
    "reservation",
    "peak_months",
    "peak_iops",
    "peak_throughput_mibps",
    "allow_large_volumes",
    "max_datastores",
    "exclude_powered_off",
    "exclude_suspended",
    "include_templates",
    "include_srm_placeholders",
    "vsan_host",
    "vsan_policy",
    "vsan_slack_pct",
    "vsan_dedup_ratio",
    "vsan_host_usd_per_hour",
    "design",
    "existing_er_gateways",
    "detail",
    "datastores",
    "nconnect",
    "size_tib",
    "cool_pct",
    "retrieval",
    "system",
    "vms_per_host",
    "vmdks_per_vm",
    "working_set_gib",
    "outstanding_io",
];

/// The flag of a setting's library name (`host_sku` -> `--host-sku`), if it is one.
pub fn flag(name: &str) -> Option<String> {
    RENAMED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| (*f).to_string())
        .or_else(|| {
            SAME.contains(&name)
                .then(|| format!("--{}", name.replace('_', "-")))
        })
}

/// `message` with every `` `setting` `` replaced by its flag; other backticked text stays.
pub fn with_flag_names(message: &str) -> String {
    with_names(message, flag)
}

/// `message` with every backticked name that `name_of` knows replaced by what it gives
/// (its flag for the command, its control's label for the web page); other backticked
/// text stays.
pub fn with_names(message: &str, name_of: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('`') {
            Some(end) => {
                let name = &after[..end];
                match name_of(name) {
                    Some(f) => out.push_str(&f),
                    None => {
                        out.push('`');
                        out.push_str(name);
                        out.push('`');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `From<&str>`, `From<String>`, `Deref<Target = str>`, `AsRef<str>` and `Display` for a
/// setting that is its text (`struct Region(String)`): a struct literal writes
/// `"westeurope".into()` (checked where planned), and the value reads and shows as its
/// text. Its `FromStr`, which checks, and its equality are its own.
macro_rules! text_setting {
    ($t:ident) => {
        impl From<&str> for $t {
            fn from(s: &str) -> $t {
                $t(s.to_string())
            }
        }

        impl From<String> for $t {
            fn from(s: String) -> $t {
                $t(s)
            }
        }

        impl std::ops::Deref for $t {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $t {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}
pub(crate) use text_setting;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_become_flags_and_other_code_stays() {
        assert_eq!(
            with_flag_names("invalid `max_datastores`: 0; try more `hosts` or `clusters`"),
            "invalid --max-datastores: 0; try more --hosts or --cluster"
        );
        assert_eq!(
            with_flag_names("VM `db-01` and a lone ` tick"),
            "VM `db-01` and a lone ` tick"
        );
        assert_eq!(with_flag_names("no ticks"), "no ticks");
    }
}

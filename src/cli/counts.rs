//! Clap value parsers of the whole-number flags (`--hosts`, `--ha-hosts`,
//! `--max-datastores`, `--datastores`, `--nconnect`, `--peak-months`, `--hosts-list`, ...).
//!
//! Each reads the value as a signed 64-bit integer, so `--hosts -3` is told the flag's real
//! range (`3..=16`) instead of clap's `0..=4294967295` for an unsigned type. Values that fit
//! a `u32` pass on to the library's range checks, which name the setting the same way.

use dsplan::catalog::{Catalog, Limits};

/// The built-in limits (`data/limits.csv`), or the reason they cannot be read.
fn limits() -> Result<Limits, String> {
    Catalog::builtin()
        .map(|c| c.limits)
        .map_err(|e| e.to_string())
}

/// `text` as a whole number that fits a `u32`, else a message with `range` (the flag's
/// valid values and their source).
fn count(text: &str, range: &str) -> Result<u32, String> {
    let n: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a whole number; expected {range}", clip(text)))?;
    u32::try_from(n).map_err(|_| format!("{n}: expected {range}"))
}

/// At most 20 characters of a bad value, with "…" when clipped.
fn clip(text: &str) -> String {
    match text.char_indices().nth(20) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `plan --hosts`: one AVS cluster, `min_hosts..=max_hosts` (3..=16, `data/limits.csv`).
pub fn plan_hosts(text: &str) -> Result<u32, String> {
    let l = limits()?;
    count(
        text,
        &format!(
            "from {} to {} (the hosts of one AVS cluster, data/limits.csv)",
            l.min_hosts, l.max_hosts
        ),
    )
}

/// `predict --hosts` and `sweep --hosts-list`: 1..=`max_hosts` (16) hosts mounting every
/// datastore.
pub fn any_hosts(text: &str) -> Result<u32, String> {
    let l = limits()?;
    count(
        text,
        &format!(
            "from 1 to {} (the hosts of one AVS cluster, data/limits.csv)",
            l.max_hosts
        ),
    )
}

/// `--ha-hosts`: 0..`max_hosts` (0..=15: a cluster keeps at least one host for its VMs).
pub fn ha_hosts(text: &str) -> Result<u32, String> {
    let l = limits()?;
    count(
        text,
        &format!(
            "from 0 to {} (hosts kept free in an AVS cluster of at most {}, data/limits.csv)",
            l.max_hosts.saturating_sub(1),
            l.max_hosts
        ),
    )
}

/// `--max-datastores` and `predict --datastores`: 1..=`max_datastores` (256 per AVS
/// cluster by request, `data/limits.csv`).
pub fn datastores(text: &str) -> Result<u32, String> {
    let l = limits()?;
    count(
        text,
        &format!(
            "from 1 to {} (datastores per AVS cluster, data/limits.csv)",
            l.max_datastores
        ),
    )
}

/// `--nconnect`: 1 or 4.
pub fn nconnect(text: &str) -> Result<u32, String> {
    count(text, "1 or 4 (TCP connections per host per datastore)")
}

/// `--peak-months`: 1..=11 months of the year.
pub fn peak_months(text: &str) -> Result<u32, String> {
    count(text, "from 1 to 11 (peak months of a year)")
}

/// `--vms-per-host`, `--vmdks-per-vm`: a count of at least 1.
pub fn per_count(text: &str) -> Result<u32, String> {
    count(text, "from 1 to 4294967295")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_counts_are_told_the_real_range() {
        // data/limits.csv: min_hosts 3, max_hosts 16, max_datastores 256.
        assert_eq!(
            plan_hosts("-3").unwrap_err(),
            "-3: expected from 3 to 16 (the hosts of one AVS cluster, data/limits.csv)"
        );
        assert!(
            ha_hosts("-1")
                .unwrap_err()
                .starts_with("-1: expected from 0 to 15")
        );
        assert!(
            datastores("-1")
                .unwrap_err()
                .starts_with("-1: expected from 1 to 256")
        );
        // 2^32 = 4,294,967,296 does not fit either.
        assert!(
            any_hosts("4294967296")
                .unwrap_err()
                .contains("from 1 to 16")
        );
        // In u32: passed on to the library's check.
        assert_eq!(plan_hosts("99"), Ok(99));
        assert_eq!(nconnect(" 4"), Ok(4));
        let long = "x".repeat(1000);
        let e = peak_months(&long).unwrap_err();
        assert!(e.len() < 100 && e.contains('…'), "{e}");
    }
}

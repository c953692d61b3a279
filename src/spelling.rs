//! Names a user may have mistyped: the nearest known name, to suggest ("did you mean
//! `iops`?"), by Levenshtein distance.

/// Levenshtein distance of two short strings (names and header cells, clipped before).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let swap = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = swap.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known name nearest `typed`, when it is near enough to be a slip: at most a third
/// of `typed`'s characters away (and at least one), the first of equals in `known`'s order.
/// (The web page's option names use it; the lean library has no caller.)
#[cfg_attr(not(feature = "web"), allow(dead_code))]
pub(crate) fn nearest<'a>(
    typed: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let most = (typed.chars().count() / 3).max(1);
    known
        .into_iter()
        .map(|k| (edit_distance(typed, k), k))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_suggestions() {
        // iopz -> iops: one substitution; kitten -> sitting: 3 (the textbook pair).
        assert_eq!(edit_distance("iopz", "iops"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(nearest("iopz", ["hosts", "iops", "region"]), Some("iops"));
        // "regoin" is 2 from "region" (a transposition is two edits): 6 / 3 = 2 allowed.
        assert_eq!(
            nearest("regoin", ["hosts", "iops", "region"]),
            Some("region")
        );
        // Nothing within a third: no suggestion.
        assert_eq!(nearest("bogus", ["hosts", "iops", "region"]), None);
    }
}

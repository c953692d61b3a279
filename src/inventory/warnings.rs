//! Warnings grouped by cause while they are gathered: past [`KEPT_PER_CAUSE`] warnings of
//! one cause, the rest are counted on the last one kept ([`Warning::more_alike`]), so a
//! file of five million bad rows holds a few warnings and their counts, not five million.
//! The cause is the one the reports group by: the same kind, file, sheet and column, and
//! the message alike but for its figures and quoted names ([`warning_shape`]).

use std::collections::HashMap;

use super::{Warning, WarningKind};

/// Warnings of one cause kept in full (the first ones); the rest are counted.
pub const KEPT_PER_CAUSE: usize = 5;

/// Warnings held before [`push_bounded`] groups them.
const GROUP_FROM: usize = 1024;

/// A message's shape: quoted text (`'...'`, `` `...` ``) as `_` and each number (its
/// digits with the thousands commas and decimal point between them) as `#`, so warnings
/// of one cause about different VMs, rows or figures compare equal: `VM 'a' has 2,048.0
/// GiB` and `VM 'bb' has 7 GiB` are both `VM _ has # GiB`.
pub fn warning_shape(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len());
    let mut quote: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        let in_number = (c == ',' || c == '.')
            && out.ends_with('#')
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '`' => {
                quote = Some(c);
                out.push('_');
            }
            None if c.is_ascii_digit() => {
                if !out.ends_with('#') {
                    out.push('#');
                }
            }
            None if in_number => {}
            None => out.push(c),
        }
    }
    out
}

/// How many warnings `warnings` stand for: each, and the ones of its cause it counts
/// ([`Warning::more_alike`]).
pub fn warning_count<'a>(warnings: impl IntoIterator<Item = &'a Warning>) -> usize {
    warnings.into_iter().map(|w| 1 + w.more_alike).sum()
}

/// Pushes `w`; when `warnings` is full (its length at its capacity, from `GROUP_FROM`),
/// first groups them by cause ([`bound_warnings`]), and when that frees less than half,
/// doubles the room, so each push costs O(1) on average and the warnings held follow the
/// causes, not the rows.
pub fn push_bounded(warnings: &mut Vec<Warning>, w: Warning) {
    let cap = warnings.capacity();
    if warnings.len() >= GROUP_FROM && warnings.len() == cap {
        bound_warnings(warnings);
        if warnings.len() > cap / 2 {
            warnings.reserve(cap);
        }
    }
    warnings.push(w);
}

/// Groups `warnings` by cause, in place and in order: the first [`KEPT_PER_CAUSE`] of each
/// cause stay; each later one is dropped and counted, with its own
/// [`Warning::more_alike`], on the last one kept.
pub fn bound_warnings(warnings: &mut Vec<Warning>) {
    type Cause = (WarningKind, String, Option<String>, Option<String>, String);
    // Cause -> (warnings kept, index of the last kept in the output).
    let mut causes: HashMap<Cause, (usize, usize)> = HashMap::new();
    let mut kept: Vec<Warning> = Vec::with_capacity(warnings.len().min(GROUP_FROM));
    for w in warnings.drain(..) {
        let cause = (
            w.kind,
            w.file.clone(),
            w.sheet.clone(),
            w.column.clone(),
            warning_shape(&w.message),
        );
        let entry = causes.entry(cause).or_insert((0, 0));
        if entry.0 < KEPT_PER_CAUSE {
            entry.0 += 1;
            entry.1 = kept.len();
            kept.push(w);
        } else if let Some(last) = kept.get_mut(entry.1) {
            last.more_alike += 1 + w.more_alike;
        }
    }
    *warnings = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_alike_but_for_names_and_numbers_share_a_shape() {
        assert_eq!(
            warning_shape("VM 'db-01' has 12 disks"),
            warning_shape("VM 'web 7' has 3 disks")
        );
        assert_ne!(
            warning_shape("VM 'a' has 1 disk"),
            warning_shape("VM 'a' is a template")
        );
        // An apostrophe opens a quote that runs to the end: still one shape per text.
        assert_eq!(
            warning_shape("the VM's 2 disks"),
            warning_shape("the VM's 40 disks")
        );
        // A number's commas and point are the number's; a sentence's are its own.
        assert_eq!(warning_shape("VM 'a' has 2,048.0 GiB"), "VM _ has # GiB");
        assert_eq!(
            warning_shape("VM 'bb' has 7 GiB, 2 disks."),
            "VM _ has # GiB, # disks."
        );
    }

    fn row_warning(row: usize, column: &str, message: String) -> Warning {
        Warning {
            kind: super::super::WarningKind::Value,
            file: "a.csv".into(),
            sheet: Some("vInfo".into()),
            row: Some(row),
            column: Some(column.into()),
            value: None,
            message,
            more_alike: 0,
        }
    }

    #[test]
    fn a_cause_keeps_its_first_five_and_counts_the_rest() {
        // 12 rows of one cause (CPUs) and 2 of another (Memory), interleaved: CPUs keeps
        // rows 2..6, the 6th kept is none, its last kept (row 6) counts 12 - 5 = 7 more;
        // Memory keeps both.
        let mut w: Vec<Warning> = (2..14)
            .map(|r| row_warning(r, "CPUs", format!("CPUs '{r}' unreadable")))
            .collect();
        w.insert(3, row_warning(40, "Memory", "bad".into()));
        w.push(row_warning(41, "Memory", "bad".into()));
        bound_warnings(&mut w);
        let rows: Vec<(usize, usize)> = w.iter().map(|w| (w.row.unwrap(), w.more_alike)).collect();
        assert_eq!(
            rows,
            [(2, 0), (3, 0), (4, 0), (40, 0), (5, 0), (6, 7), (41, 0)]
        );
        // Grouping again keeps the counts: 5 + 7 = 12 CPUs warnings still.
        bound_warnings(&mut w);
        let cpus: usize = (w.iter())
            .filter(|w| w.column.as_deref() == Some("CPUs"))
            .map(|w| 1 + w.more_alike)
            .sum();
        assert_eq!(cpus, 12);
    }

    #[test]
    fn warnings_alike_of_two_kinds_are_two_causes() {
        // Seven of one message as values and seven as identities: each kind keeps its
        // first five and counts 2 more on its fifth, 14 in all.
        let mut w: Vec<Warning> = (2..16)
            .map(|r| Warning {
                kind: if r % 2 == 0 {
                    WarningKind::Value
                } else {
                    WarningKind::Identity
                },
                ..row_warning(r, "VM", format!("VM 'v{r}' odd"))
            })
            .collect();
        bound_warnings(&mut w);
        assert_eq!(w.len(), 10);
        for kind in [WarningKind::Value, WarningKind::Identity] {
            let of: Vec<&Warning> = w.iter().filter(|w| w.kind == kind).collect();
            assert_eq!(of.len(), 5, "{kind}");
            assert_eq!(warning_count(of.iter().copied()), 7, "{kind}");
        }
    }

    proptest::proptest! {
        /// Pushing any number of warnings of few causes keeps every one counted, and holds
        /// at most GROUP_FROM (plus the room `push_bounded` doubles to) of them.
        #[test]
        fn pushed_warnings_are_all_counted_in_bounded_room(
            causes in proptest::collection::vec(0..4usize, 0..5000)
        ) {
            let mut w = Vec::new();
            for (r, c) in causes.iter().enumerate() {
                push_bounded(&mut w, row_warning(r, &format!("c{c}"), format!("bad {r}")));
            }
            let counted: usize = w.iter().map(|w| 1 + w.more_alike).sum();
            proptest::prop_assert_eq!(counted, causes.len());
            proptest::prop_assert!(w.len() <= 2 * GROUP_FROM);
            bound_warnings(&mut w);
            proptest::prop_assert!(w.len() <= 4 * KEPT_PER_CAUSE);
        }
    }
}

//! The message of a CSV row whose field count is not its header's, with the likely cause
//! when the row's fields fit one: numbers written with unquoted thousands separators
//! (`1,024` in a comma-delimited file splits into `1` and `024`), or a delimiter inside an
//! unquoted value.

/// Most split numbers quoted as examples in one message.
const EXAMPLES: usize = 3;

/// `ragged row: N fields where the header has W`; for a row with more fields than its
/// header (`width`), the likely cause: thousands separators when `delimiter` is a comma and
/// the row's runs of digit groups (a field of 1 to 3 digits, then fields of exactly 3
/// digits, the last one perhaps with decimals) account for every extra field, naming the
/// first few as the file meant them; else a delimiter inside an unquoted value.
pub(crate) fn ragged_row_detail(record: &csv::ByteRecord, width: usize, delimiter: u8) -> String {
    let base = format!(
        "ragged row: {} fields where the header has {width}",
        record.len()
    );
    let extra = record.len().saturating_sub(width);
    if extra == 0 {
        return base;
    }
    let fields: Vec<&[u8]> = record.iter().map(<[u8]>::trim_ascii).collect();
    let runs = digit_group_runs(&fields);
    let split: usize = runs.iter().map(|(start, end)| end - start).sum();
    if delimiter == b',' && split >= extra {
        // When the runs split more numbers than there are extra fields, where one number
        // ends and the next begins cannot be told (`1,102,400`: Disks 1 and 102,400, or
        // 1,102 and 400): the fields are quoted one by one, not joined into a number.
        let exact = split == extra;
        let examples: Vec<String> = runs
            .iter()
            .take(EXAMPLES)
            .map(|&(start, end)| {
                let parts = fields[start..=end]
                    .iter()
                    .map(|f| String::from_utf8_lossy(f).into_owned());
                if exact {
                    format!("'{}'", parts.collect::<Vec<_>>().join(","))
                } else {
                    let quoted: Vec<String> = parts.map(|p| format!("'{p}'")).collect();
                    format!("the fields {}", quoted.join(" "))
                }
            })
            .collect();
        return format!(
            "{base}; likely numbers written with unquoted thousands separators (as in {}): export \
             the numbers without separators, or quote them",
            examples.join(", ")
        );
    }
    let shown = match delimiter {
        b'\t' => "tab".to_string(),
        d => format!("'{}'", char::from(d)),
    };
    format!(
        "{base}; likely a {shown} inside an unquoted value ({extra} extra field(s)): quote \
         values that hold the delimiter"
    )
}

/// Runs of fields that read as one number split at its thousands separators: `(first,
/// last)` field indices, inclusive, `last > first`; the run splits one number into
/// `last - first + 1` fields.
fn digit_group_runs(fields: &[&[u8]]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < fields.len() {
        let head = fields[i].strip_prefix(b"-").unwrap_or(fields[i]);
        if !(1..=3).contains(&head.len()) || !head.iter().all(u8::is_ascii_digit) {
            i += 1;
            continue;
        }
        let mut last = i;
        while let Some(next) = fields.get(last + 1)
            && is_group(next)
        {
            last += 1;
            if !next.iter().all(u8::is_ascii_digit) {
                break; // the group with decimals ends the number
            }
        }
        if last > i {
            runs.push((i, last));
        }
        i = last + 1;
    }
    runs
}

/// Whether a field is a thousands group: 3 digits, perhaps followed by `.` and digits.
fn is_group(field: &[u8]) -> bool {
    let (digits, decimals) = match field.iter().position(|&b| b == b'.') {
        Some(p) => (&field[..p], Some(&field[p + 1..])),
        None => (field, None),
    };
    digits.len() == 3
        && digits.iter().all(u8::is_ascii_digit)
        && decimals.is_none_or(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fields: &[&str]) -> csv::ByteRecord {
        csv::ByteRecord::from(fields.to_vec())
    }

    #[test]
    fn split_numbers_are_named() {
        // Header of 4 fields; `1,024` and `2,048,576.5` split into 2 and 3: 3 extra fields,
        // the 3 the two runs account for.
        let r = record(&["vm1", "1", "024", "2", "048", "576.5", "x"]);
        let d = ragged_row_detail(&r, 4, b',');
        assert!(
            d.starts_with("ragged row: 7 fields where the header has 4;"),
            "{d}"
        );
        assert!(
            d.contains("unquoted thousands separators (as in '1,024', '2,048,576.5')"),
            "{d}"
        );
    }

    #[test]
    fn groups_that_could_end_anywhere_are_quoted_one_by_one() {
        // Header of 3 (VM, Disks, Provisioned): `1`, `102`, `400` is Disks 1 and 102,400
        // (1 extra field), but the run of 3 groups splits 2: it is not said which number
        // the fields make.
        let r = record(&["vm1", "1", "102", "400"]);
        let d = ragged_row_detail(&r, 3, b',');
        assert!(
            d.contains("unquoted thousands separators (as in the fields '1' '102' '400')"),
            "{d}"
        );
    }

    #[test]
    fn extra_fields_beyond_the_groups_mean_a_delimiter_in_a_value() {
        // 2 extra fields, one digit-group run (1 extra): not the explanation.
        let r = record(&["vm, one, two", "1", "024"]);
        let d = ragged_row_detail(&r, 1, b',');
        assert!(
            d.contains("likely a ',' inside an unquoted value (2 extra field(s))"),
            "{d}"
        );
        // A semicolon file: thousands separators are never its delimiter.
        let r = record(&["vm", "1", "024"]);
        assert!(ragged_row_detail(&r, 2, b';').contains("a ';' inside an unquoted value"));
        assert!(ragged_row_detail(&r, 2, b'\t').contains("a tab inside an unquoted value"));
    }

    #[test]
    fn too_few_fields_name_no_cause() {
        let r = record(&["vm1"]);
        assert_eq!(
            ragged_row_detail(&r, 2, b','),
            "ragged row: 1 fields where the header has 2"
        );
    }
}

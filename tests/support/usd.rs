// Included with `include!` by tests that find a sum of money in the program's output.

/// `value` as the reports write USD: two decimals and a comma every three digits
/// (`40296.0` -> `40,296.00`), written here independently of the program's own formatting.
#[allow(dead_code)]
fn usd(value: f64) -> String {
    let fixed = format!("{value:.2}");
    let (whole, frac) = fixed.split_once('.').unwrap();
    let mut out = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out}.{frac}")
}

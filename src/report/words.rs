//! Customer wording: the report's internal references rewritten for a reader who has no
//! copy of dsplan. A source is named by its page or publisher, not by the `data/` file row
//! that holds it; a setting by its flag (`--host-price-file`) or in words, not by its
//! snake_case library name.

use crate::settings::flag;

/// `text` in customer words:
/// - `data/x.csv row N: ` before a source's own words is dropped (the words stay: "the ANF
///   team's AVS + ANF TCO estimator v6.1, 2025-06-04 ...", "Microsoft Learn page, date");
/// - `(data/x.csv)` and `(data/x.csv, ...)` asides lose the file name; any other
///   `data/x.csv` becomes "dsplan's built-in table of ..." (`table_words`); a file not
///   of dsplan's (an input under a `data/` folder) stays;
/// - a setting's name, backticked or not, becomes its flag (`vcpu_per_core` ->
///   `--vcpu-per-core`); other snake_case words become words (`host_memory` -> `host
///   memory`), except right after `\` or `'` (a name from the input, escaped or quoted,
///   stays as it is);
/// - other backticked text loses its backticks (one escaped with a backslash stays).
pub fn customer_words(text: &str) -> String {
    customer_words_with(text, &flag)
}

/// [`customer_words`] with each setting's name given by `setting` (its library name in,
/// `None` for a name that is not a setting's): the HTML report marks each setting
/// ([`crate::report::html`]) so the page can name its own control instead of the flag.
pub fn customer_words_with(text: &str, setting: &dyn Fn(&str) -> Option<String>) -> String {
    let text = drop_file_references(text);
    let mut out = String::with_capacity(text.len());
    let mut word = Word::default();
    let mut prev = ' ';
    let mut ticked = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            if word.text.is_empty() {
                word.protected = prev == '\\' || prev == '\'';
                word.ticked = ticked && prev == '`';
            }
            word.text.push(c);
            continue;
        }
        word.flush(&mut out, c == '`', setting);
        if c == '`' && prev != '\\' {
            ticked = !ticked;
        } else {
            out.push(c);
        }
        prev = c;
    }
    word.flush(&mut out, false, setting);
    out
}

/// A word being read, and how it stood.
#[derive(Default)]
struct Word {
    text: String,
    /// Right after `\` or `'`: a name from the input.
    protected: bool,
    /// Right after an opening backtick.
    ticked: bool,
}

impl Word {
    /// Appends the word, rewritten unless protected, and empties it; `closed`: a backtick
    /// follows it (with [`Word::ticked`], the whole backticked text: a setting's name may be
    /// one word, `hosts`).
    fn flush(&mut self, out: &mut String, closed: bool, setting: &dyn Fn(&str) -> Option<String>) {
        if self.text.is_empty() {
            return;
        }
        let whole = self.ticked && closed;
        let rewritten = if self.protected {
            None
        } else if is_snake(&self.text) {
            Some(setting(&self.text).unwrap_or_else(|| self.text.replace('_', " ")))
        } else if whole {
            setting(&self.text)
        } else {
            None
        };
        out.push_str(rewritten.as_deref().unwrap_or(&self.text));
        self.text.clear();
        self.protected = false;
        self.ticked = false;
    }
}

/// Lower-case letters and digits in two or more parts joined by `_` (`host_sku`).
fn is_snake(word: &str) -> bool {
    let parts: Vec<&str> = word.split('_').collect();
    parts.len() > 1
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
        && parts[0].starts_with(|c: char| c.is_ascii_lowercase())
}

/// `text` without its `data/x.csv` references (see [`customer_words`]).
fn drop_file_references(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("data/") {
        let (before, at) = rest.split_at(i);
        let inside_a_word = before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '/');
        let known = csv_name_len(&at[5..])
            .filter(|_| !inside_a_word)
            .and_then(|len| table_words(&at[5..1 + len]).map(|words| (len, words)));
        let Some((file_len, words)) = known else {
            out.push_str(before);
            out.push_str("data/");
            rest = &at[5..];
            continue;
        };
        let after = skip_row(&at[5 + file_len..]);
        out.push_str(before);
        rest = reference_dropped(&mut out, after).unwrap_or_else(|| {
            out.push_str(&words);
            after
        });
    }
    out.push_str(rest);
    out
}

/// Drops a file reference `out` has just reached where the words around it carry the
/// sense, returning the text after it; `None` where the file must be named in words.
fn reference_dropped<'a>(out: &mut String, after: &'a str) -> Option<&'a str> {
    if let Some(a) = after.strip_prefix(": ") {
        // A source: its own words follow.
        return Some(a);
    }
    if out.ends_with('(') {
        if let Some(a) = after.strip_prefix(')') {
            out.pop();
            let kept = out.trim_end().len();
            out.truncate(kept);
            return Some(a);
        }
        return Some(after.strip_prefix(", ").unwrap_or(after).trim_start());
    }
    if out.ends_with(", ") || out.ends_with("; ") {
        // One of a list of references: the list's other entries carry the source.
        out.truncate(out.len() - 2);
        return Some(after);
    }
    None
}

/// The length of `name.csv` at the start of `text` (name: letters, digits, `_`, `-`, `/`).
fn csv_name_len(text: &str) -> Option<usize> {
    let name = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/')))
        .unwrap_or(text.len());
    text[name..]
        .starts_with(".csv")
        .then_some(name + 4)
        .filter(|_| name > 0)
}

/// `text` without a leading ` row N` (N digits).
fn skip_row(text: &str) -> &str {
    let Some(rest) = text.strip_prefix(" row ") else {
        return text;
    };
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits == 0 { text } else { &rest[digits..] }
}

/// A built-in table named for a reader: `avs_hosts` -> "dsplan's built-in table of AVS
/// hosts"; `systems/anf-avs` -> "dsplan's built-in performance profile anf-avs"; `None`
/// for a file that is not one of dsplan's (an input's path stays as given).
fn table_words(stem: &str) -> Option<String> {
    if let Some(system) = stem.strip_prefix("systems/") {
        return Some(format!("dsplan's built-in performance profile {system}"));
    }
    let what = match stem {
        "avs_hosts" => "AVS hosts",
        "avs_host_prices" => "AVS host prices",
        "limits" => "AVS and ANF limits",
        "vsan_policies" => "vSAN policies",
        "vsan_performance" => "vSAN parts of AVS hosts",
        "er_gateway" => "ExpressRoute gateways",
        "prices" => "ANF prices",
        "reservations" => "ANF reservations",
        "service_levels" => "ANF service levels",
        "avs_anf_regions" => "AVS and ANF regions",
        "cool_access_regions" | "cool_access_rule" => "ANF cool access",
        _ => return None,
    };
    Some(format!("dsplan's built-in table of {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_lose_their_file_and_row() {
        assert_eq!(
            customer_words(
                "9.20 USD per host-hour, from data/avs_host_prices.csv row 2: the ANF team's \
                 AVS TCO estimator"
            ),
            "9.20 USD per host-hour, from the ANF team's AVS TCO estimator"
        );
        assert_eq!(
            customer_words("RAID-5 there (data/vsan_policies.csv)"),
            "RAID-5 there"
        );
        assert_eq!(
            customer_words("its RAM (data/avs_hosts.csv, published in GB)"),
            "its RAM (published in GB)"
        );
        assert_eq!(
            customer_words("dedup 1:1 (data/vsan_policies.csv, data/avs_hosts.csv raw capacity)"),
            "dedup 1:1 (raw capacity)"
        );
        assert_eq!(
            customer_words("hosts (data/limits.csv): ok; see data/limits.csv"),
            "hosts: ok; see dsplan's built-in table of AVS and ANF limits"
        );
        assert_eq!(
            customer_words("ceilings: data/systems/anf-avs-av64.csv, 100 Gbit/s"),
            "ceilings: dsplan's built-in performance profile anf-avs-av64, 100 Gbit/s"
        );
        assert_eq!(customer_words("metadata/x.csv"), "metadata/x.csv");
        assert_eq!(
            customer_words("data/vinfo.csv row 3: bad"),
            "data/vinfo.csv row 3: bad"
        );
    }

    #[test]
    fn settings_become_flags_or_words_and_input_names_stay() {
        assert_eq!(
            customer_words("| vcpu_per_core | 4 | give `host_price_file` |"),
            "| --vcpu-per-core | 4 | give --host-price-file |"
        );
        assert_eq!(
            customer_words("host_memory, `VM-1`, raid1-ftt1; `group` estate, a group"),
            "host memory, VM-1, raid1-ftt1; --group estate, a group"
        );
        assert_eq!(
            customer_words(r"VM 'app_server_1' and db\_01 x_1"),
            r"VM 'app_server_1' and db\_01 x 1"
        );
        assert_eq!(
            customer_words("Cluster_A RVTools_tabvInfo"),
            "Cluster_A RVTools_tabvInfo"
        );
    }
}

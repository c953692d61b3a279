//! What makes two warnings one cause, for the reports that group them (the estate's text
//! summary and the HTML report): their messages' shape ([`shape`]).

/// A message's shape: quoted text (`'...'`, `` `...` ``) as `_` and each number (its
/// digits with the thousands commas and decimal point between them) as `#`, so warnings
/// of one cause about different VMs, rows or figures compare equal: `VM 'a' has 2,048.0
/// GiB` and `VM 'bb' has 7 GiB` are both `VM _ has # GiB`.
pub(crate) fn shape(message: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_alike_but_for_names_and_numbers_share_a_shape() {
        assert_eq!(
            shape("VM 'db-01' has 12 disks"),
            shape("VM 'web 7' has 3 disks")
        );
        assert_ne!(shape("VM 'a' has 1 disk"), shape("VM 'a' is a template"));
        // An apostrophe opens a quote that runs to the end: still one shape per text.
        assert_eq!(shape("the VM's 2 disks"), shape("the VM's 40 disks"));
        // A number's commas and point are the number's; a sentence's are its own.
        assert_eq!(shape("VM 'a' has 2,048.0 GiB"), "VM _ has # GiB");
        assert_eq!(
            shape("VM 'bb' has 7 GiB, 2 disks."),
            "VM _ has # GiB, # disks."
        );
    }
}

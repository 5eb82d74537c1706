//! Engine text made safe to show: no control characters (which could move a terminal's
//! cursor, ring its bell or break a file's format), and short quotations.

use std::borrow::Cow;

/// `text` with tabs turned into spaces and every other control character into U+FFFD.
#[must_use]
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\t' => ' ',
                c if c.is_control() => '\u{fffd}',
                c => c,
            })
            .collect(),
    )
}

/// At most `max` characters of `text`, ending in `...` when it was longer: engine
/// text quoted in a message.
#[must_use]
pub fn shorten(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}...", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_never_pass() {
        assert_eq!(clean("id name A\tB"), "id name A B");
        assert_eq!(clean("Evil\u{1b}[2J\u{7}"), "Evil\u{fffd}[2J\u{fffd}");
        assert!(matches!(clean("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn long_quotations_are_cut_on_a_character_boundary() {
        assert_eq!(shorten("abcdef", 3), "abc...");
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("ééé", 2), "éé...");
    }
}

//! Safe rendering of manifest-supplied text inside diagnostics.
//!
//! A manifest is untrusted input, and its keys and values end up in messages that are
//! printed to terminals and kept in logs. Two renderers exist:
//!
//! * [`describe_key`] reproduces the peer's `describeKey` exactly (C0/C1 controls become
//!   U+FFFD, the result is clipped at 80 UTF-16 code units plus `…`). It names unknown keys
//!   in warning records, where the peer's output is the contract.
//! * [`sanitize_value`] is stricter and is applied to every other piece of manifest text
//!   embedded in a message: it also removes ANSI escape sequences (as a whole), bidi
//!   controls and zero-width characters, then clips at 80 characters plus `…`.

/// The replacement for every unsafe character.
const REPLACEMENT: char = '\u{FFFD}';

/// How much of one manifest-supplied text a diagnostic repeats.
pub const MAX_RENDERED_CHARS: usize = 80;

/// Marker appended to a clipped rendering.
const ELLIPSIS: char = '…';

/// C0 controls, DEL and C1 controls: the peer's `[\x00-\x1f\x7f-\x9f]`.
fn is_c0_c1(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// Bidi embedding/override/isolate controls and marks (Trojan Source characters).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Zero-width and invisible formatting characters, plus the Unicode line and paragraph
/// separators (which terminals and log viewers may treat as line breaks).
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` must never reach a rendered message: C0/C1 controls, bidi controls, and
/// zero-width or invisible formatting characters.
pub(crate) fn is_unsafe_char(c: char) -> bool {
    is_c0_c1(c) || is_bidi_control(c) || is_invisible(c)
}

/// Peer `describeKey`: C0/C1 controls → U+FFFD, clipped at 80 UTF-16 code units + `…`.
///
/// Length is counted in UTF-16 code units, like JavaScript's `String.length`. Where the
/// peer's cut would split a surrogate pair (leaving a lone surrogate, which a Rust string
/// cannot hold), the dangling half is rendered as U+FFFD.
///
/// ```
/// use gsd_core::sanitize::describe_key;
/// assert_eq!(describe_key("a\u{1b}[31mb"), "a\u{FFFD}[31mb");
/// assert_eq!(describe_key(&"k".repeat(81)), format!("{}…", "k".repeat(80)));
/// ```
pub fn describe_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len().min(4 * MAX_RENDERED_CHARS + 3));
    let mut units = 0usize;
    let total_units: usize = key.chars().map(char::len_utf16).sum();
    for c in key.chars() {
        if total_units > MAX_RENDERED_CHARS && units >= MAX_RENDERED_CHARS {
            break;
        }
        let width = c.len_utf16();
        if total_units > MAX_RENDERED_CHARS && units + width > MAX_RENDERED_CHARS {
            // The peer's cut lands inside a surrogate pair.
            out.push(REPLACEMENT);
            break;
        }
        // Deliberately stricter than the peer, which replaces only C0/C1: bidi and
        // invisible characters are replaced too, so a key cannot reorder or hide text.
        out.push(if is_unsafe_char(c) { REPLACEMENT } else { c });
        units += width;
    }
    if total_units > MAX_RENDERED_CHARS {
        out.push(ELLIPSIS);
    }
    out
}

/// Length in bytes of an ANSI escape sequence starting at `rest` (which starts with ESC),
/// or `None` when ESC does not start a recognised sequence.
fn ansi_sequence_len(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    match bytes.get(1)? {
        // CSI: ESC [ parameters (0x30–0x3F) intermediates (0x20–0x2F) final (0x40–0x7E).
        b'[' => {
            let mut i = 2;
            while i < bytes.len() && (0x20..=0x3F).contains(&bytes[i]) {
                i += 1;
            }
            (i < bytes.len() && (0x40..=0x7E).contains(&bytes[i])).then_some(i + 1)
        }
        // OSC: ESC ] ... terminated by BEL or ESC \ (an unterminated OSC runs to the end).
        b']' => {
            let mut i = 2;
            while i < bytes.len() {
                if bytes[i] == 0x07 {
                    return Some(i + 1);
                }
                if bytes[i] == 0x1B && bytes.get(i + 1) == Some(&b'\\') {
                    return Some(i + 2);
                }
                i += 1;
            }
            Some(bytes.len())
        }
        // Two-byte escapes (ESC followed by 0x40–0x5F, e.g. ESC c).
        b if (0x40..=0x5F).contains(b) => Some(2),
        _ => None,
    }
}

/// Our stricter sanitizer for manifest-supplied text embedded in a message: control
/// characters, whole ANSI escape sequences, bidi controls and zero-width characters each
/// become one U+FFFD; the result is clipped at 80 characters + `…`.
///
/// Text that is at most 80 characters and holds none of those characters is returned
/// unchanged, which is what keeps our messages equal to the peer's on ordinary input.
///
/// ```
/// use gsd_core::sanitize::sanitize_value;
/// assert_eq!(sanitize_value("plain"), "plain");
/// assert_eq!(sanitize_value("a\u{1b}[31mb\u{202E}c"), "a\u{FFFD}b\u{FFFD}c");
/// ```
pub fn sanitize_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_RENDERED_CHARS + 3));
    let mut count = 0usize;
    let mut index = 0usize;
    while index < text.len() {
        if count == MAX_RENDERED_CHARS {
            out.push(ELLIPSIS);
            return out;
        }
        let rest = &text[index..];
        let Some(c) = rest.chars().next() else { break };
        if c == '\u{1b}'
            && let Some(len) = ansi_sequence_len(rest)
        {
            out.push(REPLACEMENT);
            count += 1;
            index += len;
            continue;
        }
        out.push(if is_unsafe_char(c) { REPLACEMENT } else { c });
        count += 1;
        index += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_key_replaces_controls_bidi_and_invisible_characters() {
        assert_eq!(
            describe_key("a\u{0}b\u{7f}c\u{85}d\u{9f}e\u{a0}"),
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{a0}"
        );
        // Deliberately stricter than the peer's describeKey, which keeps these.
        assert_eq!(describe_key("x\u{202E}y\u{200B}z"), "x\u{FFFD}y\u{FFFD}z");
    }

    #[test]
    fn describe_key_clips_at_80_utf16_units() {
        let exact = "k".repeat(80);
        assert_eq!(describe_key(&exact), exact);
        assert_eq!(
            describe_key(&"k".repeat(200)),
            format!("{}…", "k".repeat(80))
        );
        // 79 ASCII + one astral char (2 units) = 81 units: the cut splits the pair.
        let split = format!("{}😀", "k".repeat(79));
        assert_eq!(describe_key(&split), format!("{}\u{FFFD}…", "k".repeat(79)));
        // 40 astral chars = 80 units: not clipped.
        let astral = "😀".repeat(40);
        assert_eq!(describe_key(&astral), astral);
    }

    #[test]
    fn sanitize_value_replaces_whole_ansi_sequences() {
        assert_eq!(
            sanitize_value("\u{1b}[1;31mred\u{1b}[0m"),
            "\u{FFFD}red\u{FFFD}"
        );
        assert_eq!(sanitize_value("\u{1b}]0;title\u{7}x"), "\u{FFFD}x");
        assert_eq!(sanitize_value("\u{1b}"), "\u{FFFD}");
        assert_eq!(sanitize_value("a\nb\tc"), "a\u{FFFD}b\u{FFFD}c");
    }

    #[test]
    fn sanitize_value_replaces_bidi_and_zero_width() {
        assert_eq!(
            sanitize_value("a\u{200B}b\u{FEFF}c\u{2066}d\u{200F}"),
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}"
        );
    }

    #[test]
    fn sanitize_value_clips_at_80_chars() {
        assert_eq!(sanitize_value(&"é".repeat(80)), "é".repeat(80));
        assert_eq!(
            sanitize_value(&"é".repeat(81)),
            format!("{}…", "é".repeat(80))
        );
    }
}

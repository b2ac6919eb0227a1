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
//!   controls and invisible characters (Unicode's default-ignorable code points, the
//!   interlinear annotation controls, U+2028/2029), then clips at 80 characters plus `…`.

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

/// Characters that render as nothing or as a look-alike blank: Unicode's
/// `Default_Ignorable_Code_Point` set less the bidi controls (handled by
/// [`is_bidi_control`]), plus the interlinear annotation controls U+FFF9–FFFB and the line
/// and paragraph separators U+2028/2029 (which terminals and log viewers may treat as line
/// breaks).
///
/// `Default_Ignorable_Code_Point` (`DerivedCoreProperties.txt`): U+00AD, U+034F, U+061C,
/// U+115F–1160, U+17B4–17B5, U+180B–180F, U+200B–200F, U+202A–202E, U+2060–206F, U+3164,
/// U+FE00–FE0F, U+FEFF, U+FFA0, U+FFF0–FFF8, U+1BCA0–1BCA3, U+1D173–1D17A, U+E0000–E0FFF
/// (tags and the variation selectors supplement). U+061C, U+200E–200F, U+202A–202E and
/// U+2066–2069 are among them and are bidi controls.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2028}'..='\u{2029}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206A}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Whether `c` must never reach a rendered message: C0/C1 controls, bidi controls, and
/// invisible characters ([`is_invisible`]: default-ignorable code points and the like).
pub(crate) fn is_unsafe_char(c: char) -> bool {
    // Below U+00A0 only the C0/C1 controls are unsafe: ASCII and Latin-1 text is answered
    // without walking the wider sets.
    if c < '\u{A0}' {
        return is_c0_c1(c);
    }
    is_bidi_control(c) || is_invisible(c)
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
/// characters, whole ANSI escape sequences, bidi controls and invisible characters
/// (default-ignorable code points and the like) each become one U+FFFD; the result is clipped at 80 characters + `…`.
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
    clip_unsafe(text, MAX_RENDERED_CHARS, true)
}

/// [`sanitize_value`] with a caller-chosen clip: `text` with every ANSI escape sequence,
/// control, bidi and invisible character as U+FFFD, clipped past `max_chars` characters
/// with `…`. For messages that repeat more than one value, such as a JSON reader's reason.
///
/// ```
/// use gsd_core::sanitize::sanitize_text;
/// assert_eq!(sanitize_text("unknown field `a\u{1b}]0;x\u{7}`", 100), "unknown field `a\u{FFFD}`");
/// assert_eq!(sanitize_text("abcdef", 3), "abc…");
/// ```
#[must_use]
pub fn sanitize_text(text: &str, max_chars: usize) -> String {
    clip_unsafe(text, max_chars, true)
}

/// `text` with every unsafe character ([`is_unsafe_char`]) as U+FFFD, clipped past
/// `limit` characters with `…`. With `whole_ansi`, a recognised ANSI escape sequence is one
/// U+FFFD (what it would do matters, not its bytes); without it, each of its characters
/// is kept or replaced on its own (a path is shown character for character).
pub(crate) fn clip_unsafe(text: &str, limit: usize, whole_ansi: bool) -> String {
    // At most `limit` characters of four bytes and the ellipsis (a `limit` as large as
    // `usize::MAX` means no clip, never an overflow).
    let mut out = String::with_capacity(text.len().min(limit.saturating_mul(4).saturating_add(3)));
    let mut count = 0usize;
    let mut index = 0usize;
    while index < text.len() {
        if count == limit {
            out.push(ELLIPSIS);
            return out;
        }
        let rest = &text[index..];
        let Some(c) = rest.chars().next() else { break };
        if whole_ansi
            && c == '\u{1b}'
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
    fn any_limit_is_a_limit_never_an_overflow() {
        assert_eq!(sanitize_text("a\u{1b}[2Jb", usize::MAX), "a\u{FFFD}b");
        assert_eq!(sanitize_text("abc", usize::MAX - 2), "abc");
        assert_eq!(sanitize_text("abc", 0), "…");
    }

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

    /// Default-ignorable code points (range ends and a middle) and the other invisibles.
    const HIDDEN: &[char] = &[
        '\u{AD}',
        '\u{34F}',
        '\u{61C}',
        '\u{115F}',
        '\u{1160}',
        '\u{17B4}',
        '\u{17B5}',
        '\u{180B}',
        '\u{180E}',
        '\u{180F}',
        '\u{200B}',
        '\u{200F}',
        '\u{2028}',
        '\u{2029}',
        '\u{202A}',
        '\u{202E}',
        '\u{2060}',
        '\u{2065}',
        '\u{2066}',
        '\u{2069}',
        '\u{206A}',
        '\u{206F}',
        '\u{3164}',
        '\u{FE00}',
        '\u{FE0F}',
        '\u{FEFF}',
        '\u{FFA0}',
        '\u{FFF0}',
        '\u{FFF8}',
        '\u{FFF9}',
        '\u{FFFB}',
        '\u{1BCA0}',
        '\u{1BCA3}',
        '\u{1D173}',
        '\u{1D17A}',
        '\u{E0000}',
        '\u{E0001}',
        '\u{E0068}',
        '\u{E007F}',
        '\u{E0100}',
        '\u{E01EF}',
        '\u{E0FFF}',
    ];
    /// Their neighbours, and other characters that render visibly.
    const SHOWN: &[char] = &[
        ' ',
        '\u{A0}',
        '\u{AC}',
        '\u{AE}',
        '\u{34E}',
        '\u{350}',
        '\u{115E}',
        '\u{1161}',
        '\u{17B3}',
        '\u{17B6}',
        '\u{180A}',
        '\u{1810}',
        '\u{200A}',
        '\u{2027}',
        '\u{202F}',
        '\u{205F}',
        '\u{2070}',
        '\u{3163}',
        '\u{3165}',
        '\u{FDFF}',
        '\u{FE10}',
        '\u{FEFE}',
        '\u{FF9F}',
        '\u{FFA1}',
        '\u{FFEF}',
        '\u{FFFC}',
        '\u{FFFD}',
        '\u{1BC9F}',
        '\u{1BCA4}',
        '\u{1D172}',
        '\u{1D17B}',
        '\u{DFFFF}',
        '\u{E1000}',
        'é',
        '😀',
    ];

    /// Every default-ignorable code point (range ends and a middle), the interlinear
    /// annotation controls and U+2028/2029 are replaced; their neighbours are kept.
    #[test]
    fn invisible_set_is_the_default_ignorable_set() {
        for &c in HIDDEN {
            let text = format!("help{c}x");
            assert!(is_unsafe_char(c), "U+{:04X}", u32::from(c));
            assert_eq!(
                sanitize_value(&text),
                "help\u{FFFD}x",
                "U+{:04X}",
                u32::from(c)
            );
            assert_eq!(
                describe_key(&text),
                "help\u{FFFD}x",
                "U+{:04X}",
                u32::from(c)
            );
        }
        for &c in SHOWN {
            let text = format!("help{c}x");
            assert!(!is_unsafe_char(c), "U+{:04X}", u32::from(c));
            assert_eq!(sanitize_value(&text), text, "U+{:04X}", u32::from(c));
            assert_eq!(describe_key(&text), text, "U+{:04X}", u32::from(c));
        }
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

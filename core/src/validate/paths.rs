//! Our path-safety rules for manifest paths the peer accepts unchecked.
//!
//! The peer validates `destSubpath`, `configHome.name`/`parent`, `localConfigDir` and
//! layout `home` only as non-empty strings, and fragment paths only against a POSIX
//! absolute prefix and `..` segments. A path from a manifest is joined onto a real
//! directory by the installer, so we reject, with our own codes, anything that could
//! leave that directory on any platform: an absolute path (`/x`, `\x`), a drive (`C:\x`,
//! `C:x`), a `..` segment (split on `/` and `\`), or a NUL or other control character; and
//! anything that would print as another path or hide in one: a bidi or invisible
//! character (`crate::sanitize`'s set).

/// Why a manifest path is unsafe, as the tail of a message.
pub(crate) fn path_problem(p: &str) -> Option<&'static str> {
    if p.chars()
        .any(|c| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'))
    {
        return Some("contains a NUL or control character");
    }
    if p.chars().any(crate::sanitize::is_unsafe_char) {
        return Some("contains a bidi or invisible character");
    }
    if p.starts_with('/') || p.starts_with('\\') {
        return Some("is absolute");
    }
    if starts_with_drive(p) {
        return Some("starts with a drive (e.g. C:\\)");
    }
    if p.split(['/', '\\']).any(|segment| segment == "..") {
        return Some("contains a \"..\" segment");
    }
    None
}

/// Whether a path starts with a Windows drive (`C:`, `c:x`), which leaves any directory it
/// is joined onto on that platform.
pub(crate) fn starts_with_drive(p: &str) -> bool {
    let bytes = p.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// Whether a relative path names no entry at all: every `/`-separated segment empty or
/// `.` (`""`, `.`, `./`, `././`), so it resolves to the directory it is joined onto.
pub(crate) fn names_nothing(p: &str) -> bool {
    p.split('/')
        .all(|segment| segment.is_empty() || segment == ".")
}

/// Why a manifest directory *name* (one path segment) is unsafe.
pub(crate) fn name_problem(name: &str) -> Option<&'static str> {
    if let Some(problem) = path_problem(name) {
        return Some(problem);
    }
    if name.contains(['/', '\\']) {
        return Some("contains a path separator (it must be a single directory name)");
    }
    if name == "." {
        return Some("is \".\" (it must name a directory)");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_paths_pass() {
        for p in [
            "skills",
            "skills/gsd",
            ".gemini/config",
            "./fragments/a.md",
            "a..b",
            ".claude",
        ] {
            assert_eq!(path_problem(p), None, "{p}");
        }
    }

    #[test]
    fn unsafe_paths_are_named() {
        assert_eq!(path_problem("/etc"), Some("is absolute"));
        assert_eq!(path_problem("\\\\server\\share"), Some("is absolute"));
        assert_eq!(
            path_problem("C:\\Users"),
            Some("starts with a drive (e.g. C:\\)")
        );
        assert_eq!(path_problem("a/../../b"), Some("contains a \"..\" segment"));
        assert_eq!(path_problem("a\\..\\b"), Some("contains a \"..\" segment"));
        assert_eq!(
            path_problem("a\u{0}b"),
            Some("contains a NUL or control character")
        );
    }

    #[test]
    fn names_are_single_segments() {
        assert_eq!(name_problem(".claude"), None);
        assert_eq!(
            name_problem("a/b"),
            Some("contains a path separator (it must be a single directory name)")
        );
        assert_eq!(name_problem(".."), Some("contains a \"..\" segment"));
        assert_eq!(
            name_problem("."),
            Some("is \".\" (it must name a directory)")
        );
    }

    #[test]
    fn dots_inside_names_and_single_dot_segments_are_not_parent_segments() {
        for p in ["./a", "a/./b", "...", "a../b", "..a", ".gemini/config/"] {
            assert_eq!(path_problem(p), None, "{p}");
        }
        assert_eq!(path_problem("./.."), Some("contains a \"..\" segment"));
        assert_eq!(path_problem("a/.."), Some("contains a \"..\" segment"));
    }

    #[test]
    fn every_control_character_is_refused_including_c1() {
        for c in ['\u{1}', '\n', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}'] {
            let p = format!("a{c}b");
            assert_eq!(
                path_problem(&p),
                Some("contains a NUL or control character"),
                "{p:?}"
            );
        }
        assert_eq!(path_problem("caf\u{e9}"), None);
    }
}

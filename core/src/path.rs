//! POSIX path arithmetic with the exact semantics of Node's `path.posix`.
//!
//! The peer computes every directory with Node's `path` module on Linux, so parity needs
//! the same string results: `join` normalises `.`/`..`/duplicate `/` and keeps one trailing
//! `/`; `resolve` makes a path absolute against a *given* working directory (the core never
//! reads the process cwd); a backslash is an ordinary character. Nothing here touches the
//! disk.

/// How many characters of one caller path an error message repeats: enough for any real
/// path, while a path of megabytes does not make a message of megabytes.
const MAX_QUOTED_CHARS: usize = 1024;

/// `p` in double quotes for an error message, as the peer quotes a path, except that
/// every control, bidi or invisible character becomes U+FFFD (the message cannot act on a
/// terminal, nor reorder or hide the text around it) and a path past
/// [`MAX_QUOTED_CHARS`] is clipped with `…`. Unlike `sanitize_value` it keeps a real path
/// whole: the tail of a path is usually the part the message is about.
pub(crate) fn quoted(p: &str) -> String {
    format!(
        "\"{}\"",
        crate::sanitize::clip_unsafe(p, MAX_QUOTED_CHARS, false)
    )
}

/// Collapses `.`/`..`/empty segments of `path` (Node's `normalizeString`). `..` at the top
/// is kept only when `allow_above_root` (relative paths).
fn normalize_segments(path: &str, allow_above_root: bool) -> String {
    let mut out: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|last| *last != "..") {
                    out.pop();
                } else if allow_above_root {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out.join("/")
}

/// `true` when `path` starts with `/`.
#[must_use]
pub fn is_absolute(path: &str) -> bool {
    path.starts_with('/')
}

/// `path.posix.normalize`.
#[must_use]
pub fn normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let absolute = is_absolute(path);
    let trailing = path.ends_with('/');
    let mut body = normalize_segments(path, !absolute);
    if body.is_empty() {
        if absolute {
            return "/".to_owned();
        }
        return if trailing {
            "./".to_owned()
        } else {
            ".".to_owned()
        };
    }
    if trailing {
        body.push('/');
    }
    if absolute { format!("/{body}") } else { body }
}

/// `path.posix.join(...parts)`: empty parts are skipped, the rest joined with `/` and
/// normalised; no parts (or only empty ones) give `.`.
#[must_use]
pub fn join(parts: &[&str]) -> String {
    // Parts whose segments are all plain (a leading `/` on the first aside) join into a
    // normal path: the result is the parts joined with `/`, in one allocation.
    let mut kept = parts.iter().filter(|p| !p.is_empty());
    let plain = kept.next().is_some_and(|first| {
        plain_segments(first.strip_prefix('/').unwrap_or(first)) && kept.all(|p| plain_segments(p))
    });
    if plain {
        let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
        for part in parts.iter().filter(|p| !p.is_empty()) {
            if !out.is_empty() {
                out.push('/');
            }
            out.push_str(part);
        }
        return out;
    }
    if let Some(out) = join_dotless(parts) {
        return out;
    }
    let joined = parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("/");
    if joined.is_empty() {
        ".".to_owned()
    } else {
        normalize(&joined)
    }
}

/// [`join`] when no segment of the parts is `.` or `..` and one is not empty (a part with a
/// leading, trailing or doubled `/`, such as `~/x` expanded as `home` + `/x`): normalising
/// then only drops the empty segments, keeping a leading `/` and a trailing one, so the
/// result is built in one allocation. `None` otherwise.
fn join_dotless(parts: &[&str]) -> Option<String> {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    let mut kept = parts.iter().filter(|p| !p.is_empty()).peekable();
    let absolute = kept.peek().is_some_and(|first| is_absolute(first));
    let mut trailing = false;
    for part in kept {
        trailing = part.ends_with('/');
        for segment in part.split('/') {
            match segment {
                "" => {}
                "." | ".." => return None,
                segment => {
                    if absolute || !out.is_empty() {
                        out.push('/');
                    }
                    out.push_str(segment);
                }
            }
        }
    }
    if out.is_empty() {
        return None;
    }
    if trailing {
        out.push('/');
    }
    Some(out)
}

/// `path.posix.resolve(...parts)` with `cwd` standing in for `process.cwd()`.
///
/// Parts are taken right to left until one is absolute; `cwd` is used last. When even
/// `cwd` is relative the result is anchored at `/` (the core has no process directory).
/// The result has no trailing `/` (except the root itself).
#[must_use]
pub fn resolve(cwd: &str, parts: &[&str]) -> String {
    // An absolute, already normal last part (a resolved directory resolved again) is its
    // own result.
    if let Some(last) = parts.iter().rev().find(|p| !p.is_empty())
        && is_normal_absolute(last)
    {
        return (*last).to_owned();
    }
    let mut collected: Vec<&str> = Vec::with_capacity(parts.len() + 1);
    for part in parts.iter().rev().chain(std::iter::once(&cwd)) {
        if part.is_empty() {
            continue;
        }
        collected.push(part);
        if is_absolute(part) {
            break;
        }
    }
    // The segments of the parts joined with `/` are the parts' own segments in order, so
    // they are normalised straight from the parts (one allocation for the result).
    let mut segments: Vec<&str> = Vec::with_capacity(16);
    for segment in collected.iter().rev().flat_map(|p| p.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            other => segments.push(other),
        }
    }
    let mut out = String::with_capacity(segments.iter().map(|s| s.len() + 1).sum::<usize>() + 1);
    for segment in &segments {
        out.push('/');
        out.push_str(segment);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Whether `path` is what [`resolve`] returns for it: `/`, or `/` followed by segments
/// that are neither empty, `.` nor `..` (so no trailing `/`).
pub(crate) fn is_normal_absolute(path: &str) -> bool {
    path == "/" || path.strip_prefix('/').is_some_and(plain_segments)
}

/// Whether every `/`-separated segment of `path` is non-empty and neither `.` nor `..` (so
/// `path` is non-empty and has no leading or trailing `/`).
pub(crate) fn plain_segments(path: &str) -> bool {
    plain_segments_of(&[path])
}

/// [`plain_segments`] of the parts' concatenation, without building it: one pass over the
/// bytes (`/` is ASCII, so it never splits a character).
pub(crate) fn plain_segments_of(parts: &[&str]) -> bool {
    scan_segments::<false>(parts)
}

/// [`plain_segments_of`] and no NUL byte, checked in the same pass (a relative path that
/// names a file below its base without normalisation).
pub(crate) fn plain_relative_of(parts: &[&str]) -> bool {
    scan_segments::<true>(parts)
}

fn scan_segments<const NO_NUL: bool>(parts: &[&str]) -> bool {
    // `state` is the length of the current segment while it is all dots and at most two
    // long (0: empty, 1: `.`, 2: `..`), and `SAFE` once it can no longer be any of those;
    // a `/` ending a segment in state 0–2 is an error. One pass, no early exit (paths are
    // short), a loop per part rather than a chained iterator.
    const SAFE: u8 = 3;
    let mut state = 0u8;
    let mut bad = false;
    for part in parts {
        for &b in part.as_bytes() {
            if b == b'/' {
                bad |= state < SAFE;
                state = 0;
            } else if b == b'.' {
                state += u8::from(state < SAFE);
            } else {
                bad |= NO_NUL && b == 0;
                state = SAFE;
            }
        }
    }
    !bad && state == SAFE
}

/// The parts concatenated into one string allocated once (hot paths use it instead of
/// `format!`, whose growing buffer reallocates).
#[must_use]
pub fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        out.push_str(part);
    }
    out
}

/// `path.posix.dirname`.
#[must_use]
pub fn dirname(path: &str) -> String {
    let bytes = path.as_bytes();
    if bytes.is_empty() {
        return ".".to_owned();
    }
    let has_root = bytes[0] == b'/';
    let mut end: Option<usize> = None;
    let mut matched_slash = true;
    for i in (1..bytes.len()).rev() {
        if bytes[i] == b'/' {
            if !matched_slash {
                end = Some(i);
                break;
            }
        } else {
            matched_slash = false;
        }
    }
    match end {
        None => (if has_root { "/" } else { "." }).to_owned(),
        Some(1) if has_root => "//".to_owned(),
        Some(end) => path[..end].to_owned(),
    }
}

/// `path.posix.basename` (without the extension argument).
#[must_use]
pub fn basename(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut start = 0;
    let mut end: Option<usize> = None;
    for i in (0..bytes.len()).rev() {
        if bytes[i] == b'/' {
            if end.is_some() {
                start = i + 1;
                break;
            }
        } else if end.is_none() {
            end = Some(i + 1);
        }
    }
    end.map_or_else(String::new, |end| path[start..end].to_owned())
}

/// Replaces every `\` with `/` (the few places where the peer does this).
#[must_use]
pub fn to_posix(path: &str) -> String {
    path.replace('\\', "/")
}

/// `true` when `target` equals `root` or `target + "/"` starts with `root + "/"` (both
/// already resolved): the peer's containment test, quirk included. For the root `/` that
/// prefix is `//`, which no resolved path has, so only `/` itself is within `/`
/// (`is_within("/", "/etc")` is `false`): a config home of `/` contains no destination, as
/// in the peer.
#[must_use]
pub fn is_within(root: &str, target: &str) -> bool {
    // `target + "/"` starts with `root + "/"`, without building either string.
    target == root
        || (target.len() > root.len()
            && target.starts_with(root)
            && target.as_bytes()[root.len()] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_matches_node() {
        assert_eq!(join(&["/h//", ""]), "/h/");
        assert_eq!(join(&["C:\\Users\\x", ".claude"]), "C:\\Users\\x/.claude");
        assert_eq!(join(&["/home/a b", "~/x"]), "/home/a b/~/x");
        assert_eq!(join(&["/h", "/x"]), "/h/x");
        assert_eq!(join(&["/h", ""]), "/h");
        assert_eq!(join(&["", ""]), ".");
        assert_eq!(join(&["rel", "../../x"]), "../x");
        assert_eq!(join(&["/", ".."]), "/");
        assert_eq!(join(&["a", ".."]), ".");
        assert_eq!(join(&["a/", "../"]), "./");
        // Plain parts join as they are; anything else is normalised.
        assert_eq!(join(&["/h", "", ".claude"]), "/h/.claude");
        assert_eq!(join(&["rel", "a/b"]), "rel/a/b");
        assert_eq!(join(&["/h/", "x"]), "/h/x");
        assert_eq!(join(&["/h", "x/"]), "/h/x/");
        assert_eq!(join(&["//h", "x"]), "/h/x");
        assert_eq!(join(&["/", "x"]), "/x");
    }

    /// The shortcuts of [`join`] (plain parts, parts without `.`/`..` segments) and
    /// [`resolve`] give what the general rule gives (parts drawn from pieces that make every
    /// kind of segment).
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated values by value.
    fn shortcuts_equal_the_general_rule(picks: Vec<(u8, u8)>) -> bool {
        const PIECES: [&str; 10] = ["a", "bc", "", ".", "..", "/", "a/", "/x", "x/./y", "//b"];
        let parts: Vec<String> = picks
            .chunks(2)
            .take(4)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|(a, b)| {
                        [PIECES[usize::from(*a) % 10], PIECES[usize::from(*b) % 10]].concat()
                    })
                    .collect()
            })
            .collect();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        let kept: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
        let general_join = if kept.is_empty() {
            ".".to_owned()
        } else {
            normalize(&kept.join("/"))
        };
        join(&parts) == general_join
            && (!parts.last().is_some_and(|p| is_normal_absolute(p))
                || resolve("/cwd", &parts) == normalize(parts.last().copied().unwrap_or("/")))
    }

    #[test]
    fn resolve_matches_node() {
        assert_eq!(resolve("/cwd", &["/c", "../c/x"]), "/c/x");
        assert_eq!(resolve("/cwd", &["/c", "./skills/"]), "/c/skills");
        assert_eq!(resolve("/cwd", &["rel", "x"]), "/cwd/rel/x");
        assert_eq!(resolve("/cwd", &["/c", "/etc"]), "/etc");
        assert_eq!(resolve("/cwd", &["/"]), "/");
        assert_eq!(resolve("rel", &["x"]), "/rel/x");
        // Already normal absolute paths come back as they are; others are normalised.
        assert_eq!(resolve("/cwd", &["/a/b", ""]), "/a/b");
        for path in ["/a/b/", "//a", "/a/./b", "/a/../b", "/a//b", "/.", "/.."] {
            assert!(!is_normal_absolute(path), "{path}");
        }
        assert_eq!(resolve("/cwd", &["/a/../b/"]), "/b");
        assert_eq!(resolve("/cwd", &["/a//b/."]), "/a/b");
        for (path, plain) in [
            ("a", true),
            ("a/b.c/..d", true),
            ("", false),
            ("/a", false),
            ("a/", false),
            ("a//b", false),
            ("a/./b", false),
            ("a/..", false),
            ("é/ü", true),
            ("...", true),
            ("a/.b/b.", true),
            (".", false),
            ("..", false),
        ] {
            assert_eq!(plain_segments(path), plain, "{path:?}");
            let mid = (0..=path.len() / 2)
                .rev()
                .find(|&i| path.is_char_boundary(i))
                .unwrap_or(0);
            let (head, tail) = path.split_at(mid);
            assert_eq!(
                plain_segments_of(&[head, "", tail]),
                plain,
                "{path:?} in parts"
            );
        }
    }

    /// The one-pass segment check equals splitting on `/`, and with the NUL check also
    /// `contains('\0')` (strings drawn from `/`, `.`, NUL and other characters, cut into
    /// parts anywhere).
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated values by value.
    fn plain_segments_equal_splitting(picks: Vec<u8>, cut: usize) -> bool {
        const CHARS: [char; 6] = ['/', '.', 'a', '.', 'é', '\0'];
        let text: String = picks.iter().map(|p| CHARS[usize::from(*p) % 6]).collect();
        let split = text
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..");
        let relative = split && !text.contains('\0');
        let mid = (0..=cut % (text.len() + 1))
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let (head, tail) = text.split_at(mid);
        plain_segments(&text) == split
            && plain_segments_of(&[head, tail]) == split
            && plain_relative_of(&[head, tail]) == relative
    }

    #[test]
    fn dirname_and_basename_match_node() {
        assert_eq!(dirname("x.json"), ".");
        assert_eq!(dirname("/a/b/c.json"), "/a/b");
        assert_eq!(dirname("/a"), "/");
        assert_eq!(dirname("//a"), "//");
        assert_eq!(dirname("/a/b/"), "/a");
        assert_eq!(dirname(""), ".");
        assert_eq!(basename("/a/b/"), "b");
        assert_eq!(basename("commands/gsd"), "gsd");
        assert_eq!(basename("/"), "");
        assert_eq!(basename(""), "");
    }

    #[test]
    fn containment_uses_a_separator_boundary() {
        assert!(is_within("/c", "/c/x"));
        assert!(!is_within("/c", "/cx"));
        assert!(!is_within("/", "/x"), "the peer's '//' prefix quirk");
    }
}

//! Bounded manifest parsing: size first, then one byte scan (depth, container sizes), then JSON.
//!
//! A third-party manifest is untrusted. Its size is checked before anything else, so the
//! scanner and the parser only run on bounded text. Then:
//!
//! * text under [`super::presized::PRESIZE_FROM_BYTES`] (every real manifest) is read by
//!   the direct reader, which bounds the depth ([`MAX_MANIFEST_DEPTH`]) as it reads and
//!   declines anything unusual (deep, invalid, rare escapes or numbers);
//! * whatever it declines, and all larger text, is scanned first ([`super::presized::scan`]:
//!   no recursion, stops once the bound is passed), so deep text is refused before anything
//!   is built and `serde_json` never recurses past the bound; large text is then parsed with
//!   every large container reserved once at its final size.
//!
//! Valid text nests exactly as deep as its value, so both readers agree on "too deep";
//! `serde_json`'s own recursion guard (128) is never the one that fires.

use serde_json::Value;

use super::{direct, presized};

use crate::error::{Error, ErrorCode};

/// Largest manifest accepted, in bytes (the peer's `MANIFEST_MAX_BYTES`, 8 MiB).
pub const MAX_MANIFEST_BYTES: usize = 8 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted.
///
/// 64 levels: the deepest first-party manifest nests 5, and `serde_json`'s own recursion
/// guard is 128, so this bound is always the one that fires (with our error code) and the
/// parser never recurses deeper than 64 frames.
pub const MAX_MANIFEST_DEPTH: usize = 64;

/// The children of an array or object, walked one at a time.
enum Children<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(serde_json::map::Values<'a>),
}

impl<'a> Children<'a> {
    fn of(value: &'a Value) -> Option<Self> {
        match value {
            Value::Array(items) => Some(Self::Array(items.iter())),
            Value::Object(map) => Some(Self::Object(map.values())),
            _ => None,
        }
    }

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Self::Array(items) => items.next(),
            Self::Object(values) => values.next(),
        }
    }
}

/// Whether a value already in memory nests deeper than `limit` (arrays and objects count).
/// Iterative, so a value built in memory at any depth cannot overflow the stack here; the
/// walk keeps one iterator per open level (never more than `limit + 1`), depth first.
pub(crate) fn value_exceeds_depth(value: &Value, limit: usize) -> bool {
    let Some(root) = Children::of(value) else {
        return false;
    };
    if limit == 0 {
        return true;
    }
    let mut open = Vec::with_capacity(limit.min(16));
    open.push(root);
    while let Some(level) = open.last_mut() {
        match level.next() {
            None => {
                open.pop();
            }
            Some(child) => {
                if let Some(children) = Children::of(child) {
                    if open.len() >= limit {
                        return true;
                    }
                    open.push(children);
                }
            }
        }
    }
    false
}

/// A parse failure; the field at fault is the manifest text itself.
fn fail(code: ErrorCode, message: String) -> Error {
    Error::new(code, message).with_field("manifest")
}

/// Whether `text` nests arrays and objects deeper than `limit`, by one flat pass over its
/// bytes: no recursion, and it stops at the first level past `limit`. Brackets inside
/// strings (escaped quotes included) do not count; text that is not JSON is scanned all
/// the same, so the answer never depends on where a parser would have failed.
///
/// ```
/// use gsd_core::validate::nests_deeper_than;
/// assert!(!nests_deeper_than(r#"{"a":[{"b":"[[[["}]}"#, 3));
/// assert!(nests_deeper_than(r#"{"a":[{"b":[]}]}"#, 3));
/// assert!(nests_deeper_than("[[[[", 3));
/// ```
#[must_use]
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    presized::scan(text, limit).depth > limit
}

/// Parses manifest text with every bound applied before serde runs.
///
/// # Errors
///
/// * [`ErrorCode::ManifestTooLarge`] when `text` is over [`MAX_MANIFEST_BYTES`];
/// * [`ErrorCode::ManifestTooDeep`] when arrays/objects nest deeper than
///   [`MAX_MANIFEST_DEPTH`] (e.g. 100 000 `[`);
/// * [`ErrorCode::ManifestInvalidJson`] when the text is not JSON (the message names the
///   line and column, e.g. `{"id": }`).
pub fn parse_manifest(text: &str) -> Result<Value, Error> {
    check_size(text)?;
    match direct_read::<direct::Owned>(text) {
        Some(value) => Ok(value),
        None => parse_general(text),
    }
}

/// [`parse_manifest`] for validation: the same bounds and errors; the value the direct
/// reader builds, its strings borrowed from `text`, when it answers (every real manifest),
/// else `serde_json`'s value.
pub(super) fn parse_root(text: &str) -> Result<super::Root<'_>, Error> {
    check_size(text)?;
    match direct_read::<direct::View>(text) {
        Some(value) => Ok(super::Root::Read(value)),
        None => parse_general(text).map(super::Root::Parsed),
    }
}

fn check_size(text: &str) -> Result<(), Error> {
    if text.len() > MAX_MANIFEST_BYTES {
        return Err(fail(
            ErrorCode::ManifestTooLarge,
            format!(
                "manifest is {} bytes, over the limit of {MAX_MANIFEST_BYTES} bytes",
                text.len()
            ),
        ));
    }
    Ok(())
}

/// Every real manifest: read directly, each container built once at its size. Text the
/// direct reader does not answer (invalid, too deep, rare escapes and numbers, large)
/// takes [`parse_general`], which owns every error.
fn direct_read<'t, B: direct::Build<'t>>(text: &'t str) -> Option<B::Value> {
    if text.len() < presized::PRESIZE_FROM_BYTES {
        direct::parse::<B>(text, MAX_MANIFEST_DEPTH)
    } else {
        None
    }
}

/// `serde_json`'s parse with the depth bound, for text of at most [`MAX_MANIFEST_BYTES`].
///
/// The flat scan runs first, whatever the size, so `serde_json` never recurses past
/// [`MAX_MANIFEST_DEPTH`] levels (one stack frame each): a caller's thread with a small
/// stack is safe from deep text too.
fn parse_general(text: &str) -> Result<Value, Error> {
    let scan = presized::scan(text, MAX_MANIFEST_DEPTH);
    if scan.depth > MAX_MANIFEST_DEPTH {
        return Err(fail(
            ErrorCode::ManifestTooDeep,
            format!(
                "manifest nests arrays/objects deeper than the limit of {MAX_MANIFEST_DEPTH} levels"
            ),
        ));
    }
    let parsed = if text.len() < presized::PRESIZE_FROM_BYTES {
        serde_json::from_str::<Value>(text)
    } else {
        presized::parse_presized(text, &scan)
    };
    match parsed {
        Ok(value) => Ok(value),
        Err(e) => {
            let reason = e.to_string();
            // serde_json appends " at line L column C"; keep the reason, state the place once.
            let reason = reason
                .split(" at line ")
                .next()
                .unwrap_or(&reason)
                .to_owned();
            Err(fail(
                ErrorCode::ManifestInvalidJson,
                format!(
                    "manifest is not valid JSON at line {}, column {}: {reason}",
                    e.line(),
                    e.column()
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_scan_ignores_brackets_in_strings() {
        assert_eq!(presized::scan(r#"{"a":"[[[{{{\"[["}"#, 100).depth, 1);
        assert_eq!(presized::scan(r#"[[{"a":[1]}]]"#, 100).depth, 4);
        assert_eq!(presized::scan("", 100).depth, 0);
    }

    #[test]
    fn value_depth_equals_the_text_depth() {
        for text in [
            "1",
            "[]",
            "{}",
            r#"[[{"a":[1]}]]"#,
            r#"{"a":"[[[{{{\"[["}"#,
            r#"[1,[2,[3]],{"x":{"y":[]}},[]]"#,
        ] {
            let value: Value = serde_json::from_str(text).expect("json");
            let depth = presized::scan(text, 100).depth;
            assert!(!value_exceeds_depth(&value, depth), "{text}");
            if depth > 0 {
                assert!(value_exceeds_depth(&value, depth - 1), "{text}");
            }
        }
    }

    #[test]
    fn deep_invalid_text_is_too_deep_and_shallow_invalid_text_is_not_json() {
        let deep = format!("{} x", "[".repeat(MAX_MANIFEST_DEPTH + 1));
        assert_eq!(
            parse_manifest(&deep).map_err(|e| e.code()),
            Err(ErrorCode::ManifestTooDeep)
        );
        let deeper = "[".repeat(200);
        assert_eq!(
            parse_manifest(&deeper).map_err(|e| e.code()),
            Err(ErrorCode::ManifestTooDeep)
        );
        let shallow = format!("{} x", "[".repeat(MAX_MANIFEST_DEPTH));
        assert_eq!(
            parse_manifest(&shallow).map_err(|e| e.code()),
            Err(ErrorCode::ManifestInvalidJson)
        );
    }

    #[test]
    fn depth_scan_stops_past_the_limit() {
        assert_eq!(presized::scan(&"[".repeat(1000), 64).depth, 65);
    }

    #[test]
    fn exact_limit_is_accepted_one_more_is_not() {
        let ok = format!(
            "{}{}",
            "[".repeat(MAX_MANIFEST_DEPTH),
            "]".repeat(MAX_MANIFEST_DEPTH)
        );
        assert!(parse_manifest(&ok).is_ok());
        let deep = format!(
            "{}{}",
            "[".repeat(MAX_MANIFEST_DEPTH + 1),
            "]".repeat(MAX_MANIFEST_DEPTH + 1)
        );
        assert_eq!(
            parse_manifest(&deep).map_err(|e| e.code()),
            Err(ErrorCode::ManifestTooDeep)
        );
    }

    /// Small text is parsed first, large text scanned first: the same text padded past
    /// the threshold with trailing whitespace (meaningless to JSON) gets the same outcome.
    #[test]
    fn scanning_first_and_parsing_first_agree() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let members = (0..40)
            .map(|i| format!(r#""k{}":[{i},"a,]}}\""]"#, i % 33))
            .collect::<Vec<_>>()
            .join(",");
        let texts = [
            deep(MAX_MANIFEST_DEPTH),
            deep(MAX_MANIFEST_DEPTH + 1),
            format!("{} x", "[".repeat(MAX_MANIFEST_DEPTH + 1)),
            format!("{} x", "[".repeat(MAX_MANIFEST_DEPTH)),
            format!("{{{members}}}"),
            format!("[{members}]"),
            "[1,2,]".to_owned(),
            format!("[{members}"),
            r#"{"a":1,"a":[2]}"#.to_owned(),
        ];
        let outcome = |text: &str| match parse_manifest(text) {
            Ok(value) => Ok(value),
            Err(e) => Err(e.code()),
        };
        assert!(outcome(&texts[4]).is_ok() && outcome(&texts[5]).is_err());
        for text in texts {
            let padded = format!("{text}{}", " ".repeat(presized::PRESIZE_FROM_BYTES));
            assert!(text.len() < presized::PRESIZE_FROM_BYTES);
            assert_eq!(outcome(&text), outcome(&padded), "{text}");
        }
    }

    #[test]
    fn invalid_json_names_line_and_column() {
        let err = parse_manifest("{\n  \"id\": }")
            .err()
            .map(|e| (e.code(), e.message().to_owned()));
        assert_eq!(
            err,
            Some((
                ErrorCode::ManifestInvalidJson,
                "manifest is not valid JSON at line 2, column 9: expected value".to_owned()
            ))
        );
    }
}

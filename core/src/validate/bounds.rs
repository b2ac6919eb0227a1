//! Bounded manifest parsing: size first, then nesting depth by a byte scan, then JSON.
//!
//! A third-party manifest is untrusted. Checking its size before anything else and its
//! nesting depth with a flat scan (no recursion, no allocation) before serde sees it means
//! a hostile file costs one linear pass at most: it can neither exhaust memory nor the
//! stack, and the parser only ever runs on text that is small and shallow enough.

use serde_json::Value;

use crate::error::{Error, ErrorCode};

/// Largest manifest accepted, in bytes (the peer's `MANIFEST_MAX_BYTES`, 8 MiB).
pub const MAX_MANIFEST_BYTES: usize = 8 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted.
///
/// 64 levels: the deepest first-party manifest nests 5, and `serde_json`'s own recursion
/// guard is 128, so this bound is always the one that fires (with our error code) and the
/// parser never recurses deeper than 64 frames.
pub const MAX_MANIFEST_DEPTH: usize = 64;

/// The deepest array/object nesting in `text`, scanning at most until `limit` is exceeded.
/// Brackets inside strings (including escaped quotes) do not count. Malformed text is
/// scanned all the same; the JSON parser reports it afterwards.
/// Whether a value already in memory nests deeper than `limit` (arrays and objects count).
/// Iterative, so a value built in memory at any depth cannot overflow the stack here.
pub(crate) fn value_exceeds_depth(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth > limit {
            return true;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    false
}

pub(crate) fn nesting_depth(text: &str, limit: usize) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > deepest {
                    deepest = depth;
                    if deepest > limit {
                        return deepest;
                    }
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A parse failure; the field at fault is the manifest text itself.
fn fail(code: ErrorCode, message: String) -> Error {
    Error::new(code, message).with_field("manifest")
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
    if text.len() > MAX_MANIFEST_BYTES {
        return Err(fail(
            ErrorCode::ManifestTooLarge,
            format!(
                "manifest is {} bytes, over the limit of {MAX_MANIFEST_BYTES} bytes",
                text.len()
            ),
        ));
    }
    let depth = nesting_depth(text, MAX_MANIFEST_DEPTH);
    if depth > MAX_MANIFEST_DEPTH {
        return Err(fail(
            ErrorCode::ManifestTooDeep,
            format!(
                "manifest nests arrays/objects deeper than the limit of {MAX_MANIFEST_DEPTH} levels"
            ),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let reason = e.to_string();
        // serde_json appends " at line L column C"; keep the reason, state the place once.
        let reason = reason
            .split(" at line ")
            .next()
            .unwrap_or(&reason)
            .to_owned();
        fail(
            ErrorCode::ManifestInvalidJson,
            format!(
                "manifest is not valid JSON at line {}, column {}: {reason}",
                e.line(),
                e.column()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_scan_ignores_brackets_in_strings() {
        assert_eq!(nesting_depth(r#"{"a":"[[[{{{\"[["}"#, 100), 1);
        assert_eq!(nesting_depth(r#"[[{"a":[1]}]]"#, 100), 4);
        assert_eq!(nesting_depth("", 100), 0);
    }

    #[test]
    fn depth_scan_stops_past_the_limit() {
        assert_eq!(nesting_depth(&"[".repeat(1000), 64), 65);
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

//! Bounded manifest parsing: size first, then JSON, then nesting depth.
//!
//! A third-party manifest is untrusted. Its size is checked before anything else, so the
//! parser only runs on small text, and `serde_json` refuses to recurse past its own guard
//! (128 levels), so it cannot exhaust the stack. The depth bound ([`MAX_MANIFEST_DEPTH`])
//! is then checked on the parsed value (valid text nests exactly as deep as its value);
//! when the text does not parse, a flat byte scan (no recursion, no allocation) decides
//! whether it is reported as too deep or as invalid JSON, exactly as if it had run first.

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

/// The deepest array/object nesting in `text`, scanning at most until `limit` is exceeded.
/// Brackets inside strings (including escaped quotes) do not count. Malformed text is
/// scanned all the same.
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
    // serde_json refuses to nest past its own guard (128), so parsing first is bounded too.
    // Valid text nests exactly as deep as its value; for invalid text the byte scan decides
    // between "too deep" and "not JSON", as if it had run first.
    let too_deep = || {
        fail(
            ErrorCode::ManifestTooDeep,
            format!(
                "manifest nests arrays/objects deeper than the limit of {MAX_MANIFEST_DEPTH} levels"
            ),
        )
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value) if value_exceeds_depth(&value, MAX_MANIFEST_DEPTH) => Err(too_deep()),
        Ok(value) => Ok(value),
        Err(_) if nesting_depth(text, MAX_MANIFEST_DEPTH) > MAX_MANIFEST_DEPTH => Err(too_deep()),
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
        assert_eq!(nesting_depth(r#"{"a":"[[[{{{\"[["}"#, 100), 1);
        assert_eq!(nesting_depth(r#"[[{"a":[1]}]]"#, 100), 4);
        assert_eq!(nesting_depth("", 100), 0);
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
            let depth = nesting_depth(text, 100);
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

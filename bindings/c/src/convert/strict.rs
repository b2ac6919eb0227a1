//! The core's objects-only reading ([`gsd_core::strict`]) with the path of the value at
//! fault tracked, for the C API's error fields (`host.cwd`, `commands[1]`).

use gsd_core::strict::Strict;

pub(crate) use gsd_core::strict::from_str;

/// A shape error with the path of the value at fault (`host.cwd`, `commands[1]`).
pub(crate) type PathError = serde_path_to_error::Error<serde_json::Error>;

/// `T` from a parsed value, its structs objects at every depth; an error carries the path
/// of the value at fault. The path is tracked here only: [`from_str`], the path of valid
/// requests, keeps none.
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, PathError> {
    // The tracker outside, the wrapper inside: each hands the other's deserializers on,
    // so the path is tracked, and structs are objects, at every depth.
    serde_path_to_error::deserialize(Strict(value))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        a: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        inner: Inner,
        #[serde(default)]
        list: Vec<Inner>,
        #[serde(default)]
        map: BTreeMap<String, Option<Inner>>,
    }

    #[test]
    fn arrays_for_structs_are_refused_at_every_depth() {
        // (text, path of the value at fault, reason)
        let cases = [
            (
                r#"[{"a":"x"}]"#,
                ".",
                "invalid type: sequence, expected struct Outer",
            ),
            (
                r#"{"inner":["x"]}"#,
                "inner",
                "invalid type: sequence, expected struct Inner",
            ),
            (
                r#"{"inner":{"a":"x"},"list":[{"a":"y"},["y"]]}"#,
                "list[1]",
                "invalid type: sequence, expected struct Inner",
            ),
            (
                r#"{"inner":{"a":"x"},"map":{"k":["z"]}}"#,
                "map.k",
                "invalid type: sequence, expected struct Inner",
            ),
        ];
        for (text, path, reason) in cases {
            let error = from_str::<Outer>(text).unwrap_err().to_string();
            assert!(error.starts_with(reason), "{text}: {error}");
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let error = from_value::<Outer>(value).unwrap_err();
            assert_eq!(error.inner().to_string(), reason, "{text}");
            assert_eq!(error.path().to_string(), path, "{text}");
        }
        // Plain serde reads the same text by position: the wrapper is what refuses it.
        assert!(serde_json::from_str::<Outer>(r#"[{"a":"x"}]"#).is_ok());
    }

    /// The path tracker and the wrapper compose: every other error inside a record is
    /// found at its path too (a mistyped, unknown or missing member; an entry of a list or
    /// map).
    #[test]
    fn paths_name_the_value_at_fault() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Closed {
            inner: Inner,
        }
        let cases = [
            (r#"{"inner":{"a":1}}"#, "inner.a"),
            (
                r#"{"inner":{"a":"x"},"list":[{"a":"y"},{"a":2}]}"#,
                "list[1].a",
            ),
            (r#"{"inner":{"a":"x"},"map":{"k":{"b":"z"}}}"#, "map.k"),
        ];
        for (text, path) in cases {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let error = from_value::<Outer>(value).unwrap_err();
            assert_eq!(error.path().to_string(), path, "{text}: {error}");
        }
        let value = serde_json::json!({"inner": {"a": "x"}, "extra": 1});
        let error = from_value::<Closed>(value).unwrap_err();
        assert_eq!(
            error.path().to_string(),
            "extra",
            "the unknown member itself"
        );
        let value = serde_json::json!({"inner": ["x"]});
        let error = from_value::<Closed>(value).unwrap_err();
        assert_eq!(
            error.to_string(),
            "inner: invalid type: sequence, expected struct Inner"
        );
    }
}

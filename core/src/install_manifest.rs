//! The install manifest `gsd-file-manifest.json`: its tolerant reader and its v2 writer.
//!
//! Every install writes one manifest into the config directory it installed into. Version 2
//! (ADR-2866 phase 3) records the runtime and the scope next to the package version, the
//! install mode and the hash of every managed file; version 1 lacked `manifestVersion`,
//! `runtime` and `scope` and must stay readable for the life of the format.
//!
//! [`read_install_manifest`] is the peer's `readInstallManifest` over text the edge has
//! read (the core does no IO): anything that is not a JSON object reads as "not installed"
//! (`manifestVersion: null`), every field is taken only when it has the right type, and the
//! declared runtime is length-bounded. Unlike the peer, the reader is bounded: a text longer
//! than [`MAX_MANIFEST_BYTES`] is refused by its length before any parsing, and nesting
//! deeper than [`MAX_MANIFEST_DEPTH`] stops the parse; both read as "not installed" and say
//! so in a [`Diagnostic`].
//!
//! [`InstallManifestDocument`] builds the v2 document the installer writes, with the peer's
//! key order, two-space indent and no trailing newline. The timestamp is the caller's: the
//! core has no clock.

mod js_json;

use crate::js::is_js_space;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::vocab::Scope;

/// File name of the install manifest inside a config directory.
pub const MANIFEST_NAME: &str = "gsd-file-manifest.json";

/// The manifest schema version the writer records (the first one with `runtime`/`scope`).
pub const MANIFEST_SCHEMA_VERSION: u32 = 2;

/// Longest declared runtime reported, in UTF-16 code units; longer values are cut and get `…`.
pub const MAX_REPORTED_RUNTIME_LENGTH: usize = 64;

/// Largest manifest text read, in bytes (16 MiB). A real manifest of a full install is
/// about 100 KiB; the edge may stop reading past this many bytes.
pub const MAX_MANIFEST_BYTES: usize = 16 * 1024 * 1024;

/// Deepest nesting of arrays and objects read. A real manifest nests two levels.
pub const MAX_MANIFEST_DEPTH: usize = 64;

/// Diagnostic code: the manifest text is not JSON (truncated, corrupt, a byte-order mark).
pub const CODE_MANIFEST_CORRUPT: &str = "install_manifest_corrupt";
/// Diagnostic code: the manifest text is longer than [`MAX_MANIFEST_BYTES`].
pub const CODE_MANIFEST_TOO_LARGE: &str = "install_manifest_too_large";
/// Diagnostic code: the manifest nests deeper than [`MAX_MANIFEST_DEPTH`].
pub const CODE_MANIFEST_TOO_DEEP: &str = "install_manifest_too_deep";
/// Diagnostic code: the manifest is JSON but not an object (`null`, an array, a number).
pub const CODE_MANIFEST_NOT_OBJECT: &str = "install_manifest_not_object";

/// What a manifest says, read tolerantly (the peer's `readInstallManifest` value).
///
/// Serialises with the peer's keys and order:
/// `{version, timestamp, mode, files, manifestVersion, runtime, scope}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallManifest {
    /// Package version that wrote the manifest, when it is a string.
    pub version: Option<String>,
    /// Write time as recorded, when it is a string.
    pub timestamp: Option<String>,
    /// Install mode as recorded (`full`, `minimal`, or anything else a writer put there).
    pub mode: Option<String>,
    /// The `files` value: an object of relative path → hash, passed through as read. Like the
    /// peer, an array is passed through too; anything else reads as `{}`.
    pub files: Value,
    /// `null` when there is no manifest object (not installed); otherwise the recorded
    /// version when it is an integer ≥ 1, else `1` (a v1 manifest or junk).
    pub manifest_version: Option<Number>,
    /// Declared runtime id: a non-blank string, cut to 64 UTF-16 code units plus `…`.
    /// Deliberately not checked against the registry (a mismatch is worth reporting).
    pub runtime: Option<String>,
    /// Declared scope, when it is exactly `global` or `local`.
    pub scope: Option<Scope>,
}

impl InstallManifest {
    /// The "not installed" value: every field `null`, `files` `{}`.
    #[must_use]
    pub fn not_installed() -> Self {
        Self {
            version: None,
            timestamp: None,
            mode: None,
            files: Value::Object(Map::new()),
            manifest_version: None,
            runtime: None,
            scope: None,
        }
    }

    /// Whether a manifest object was found (`manifestVersion !== null`).
    #[must_use]
    pub fn is_installed(&self) -> bool {
        self.manifest_version.is_some()
    }

    /// The keys of `files` as JavaScript's `Object.keys` lists them (indices for an array).
    #[must_use]
    pub fn file_keys(&self) -> Vec<String> {
        match &self.files {
            Value::Object(map) => map.keys().cloned().collect(),
            Value::Array(items) => (0..items.len()).map(|i| i.to_string()).collect(),
            _ => Vec::new(),
        }
    }
}

/// The result of reading a manifest: the value plus what was wrong with the text, if anything.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallManifestRead {
    /// The tolerant value (equal to the peer's, except past the documented bounds).
    pub manifest: InstallManifest,
    /// Why the text read as "not installed" although it exists (empty otherwise).
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a manifest the way the peer does, from the text the edge read at
/// `<configDir>/gsd-file-manifest.json` (`None` when the file is absent or unreadable).
///
/// Never fails: unusable text reads as [`InstallManifest::not_installed`], with a
/// diagnostic saying why (`install_manifest_corrupt`, `_too_large`, `_too_deep`,
/// `_not_object`). Invalid UTF-8 is the edge's to replace with U+FFFD (as Node's `utf8`
/// decoding does) before calling.
///
/// # Example
///
/// ```
/// use gsd_core::install_manifest::read_install_manifest;
///
/// let read = read_install_manifest(Some(r#"{"version":"1.0.0","files":{},"runtime":"claude"}"#));
/// assert_eq!(read.manifest.manifest_version.and_then(|v| v.as_u64()), Some(1));
/// assert_eq!(read.manifest.runtime.as_deref(), Some("claude"));
/// assert!(read_install_manifest(None).manifest.manifest_version.is_none());
/// ```
#[must_use]
pub fn read_install_manifest(text: Option<&str>) -> InstallManifestRead {
    let Some(text) = text else {
        return InstallManifestRead {
            manifest: InstallManifest::not_installed(),
            diagnostics: Vec::new(),
        };
    };
    let unreadable = |diagnostic: Diagnostic| InstallManifestRead {
        manifest: InstallManifest::not_installed(),
        diagnostics: vec![diagnostic.with_field(MANIFEST_NAME)],
    };
    if text.len() > MAX_MANIFEST_BYTES {
        return too_large(text.len());
    }
    let value = match js_json::parse(text, MAX_MANIFEST_DEPTH) {
        Ok(value) => value,
        Err(js_json::ParseError::TooDeep) => {
            return unreadable(
                Diagnostic::new(
                    CODE_MANIFEST_TOO_DEEP,
                    Severity::Warning,
                    format!(
                        "install manifest nests deeper than {MAX_MANIFEST_DEPTH} levels; treated as not installed"
                    ),
                )
                .with_detail(serde_json::json!({ "limit": MAX_MANIFEST_DEPTH })),
            );
        }
        Err(js_json::ParseError::Syntax { offset, reason }) => {
            return unreadable(
                Diagnostic::new(
                    CODE_MANIFEST_CORRUPT,
                    Severity::Warning,
                    format!("install manifest is not valid JSON ({reason} at byte {offset}); treated as not installed"),
                )
                .with_detail(serde_json::json!({ "offset": offset })),
            );
        }
    };
    let Value::Object(mut object) = value else {
        let found = match value {
            // JavaScript reads `1e400` as Infinity, which a JSON value holds as null: only
            // the `null` literal itself is null.
            Value::Null
                if !text
                    .trim_start_matches([' ', '\t', '\n', '\r'])
                    .starts_with('n') =>
            {
                "a number"
            }
            Value::Null => "null",
            Value::Array(_) => "an array",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            _ => "a string",
        };
        return unreadable(Diagnostic::new(
            CODE_MANIFEST_NOT_OBJECT,
            Severity::Warning,
            format!("install manifest is {found}, not an object; treated as not installed"),
        ));
    };
    let string = |value: Option<Value>| match value {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    let manifest = InstallManifest {
        version: string(object.remove("version")),
        timestamp: string(object.remove("timestamp")),
        mode: string(object.remove("mode")),
        files: match object.remove("files") {
            Some(files @ (Value::Object(_) | Value::Array(_))) => files,
            _ => Value::Object(Map::new()),
        },
        manifest_version: Some(normalize_manifest_version(object.get("manifestVersion"))),
        runtime: string(object.remove("runtime")).and_then(|raw| normalize_reported_runtime(&raw)),
        scope: object
            .get("scope")
            .and_then(Value::as_str)
            .and_then(Scope::parse),
    };
    InstallManifestRead {
        manifest,
        diagnostics: Vec::new(),
    }
}

/// [`read_install_manifest`] over the raw bytes of the file: the size bound is checked on the
/// bytes, then invalid UTF-8 is replaced by U+FFFD the way Node's `utf8` decoding does.
#[must_use]
pub fn read_install_manifest_bytes(bytes: Option<&[u8]>) -> InstallManifestRead {
    match bytes {
        None => read_install_manifest(None),
        Some(bytes) if bytes.len() > MAX_MANIFEST_BYTES => too_large(bytes.len()),
        Some(bytes) => read_install_manifest(Some(&String::from_utf8_lossy(bytes))),
    }
}

/// Text over the bound, refused by its length: not installed, with the bytes handed over
/// (`detail.bytes`), which a reader that stops one byte past the bound makes a floor.
fn too_large(bytes: usize) -> InstallManifestRead {
    InstallManifestRead {
        manifest: InstallManifest::not_installed(),
        diagnostics: vec![
            Diagnostic::new(
                CODE_MANIFEST_TOO_LARGE,
                Severity::Warning,
                // `bytes` is what the edge handed over, and an edge need read no further
                // than one byte past the bound: the file holds at least that much.
                format!(
                    "install manifest holds at least {bytes} bytes, more than the {MAX_MANIFEST_BYTES} read; treated as not installed"
                ),
            )
            .with_field(MANIFEST_NAME)
            .with_detail(serde_json::json!({ "bytes": bytes, "limit": MAX_MANIFEST_BYTES })),
        ],
    }
}

/// An integer ≥ 1 is a version claim; anything else (absent, `"2"`, `0`, `2.5`) reads as `1`.
fn normalize_manifest_version(raw: Option<&Value>) -> Number {
    match raw {
        Some(Value::Number(n)) => {
            let integral_at_least_one = match (n.as_u64(), n.as_f64()) {
                (Some(u), _) => u >= 1,
                (None, Some(f)) => f >= 1.0 && f.fract() == 0.0,
                (None, None) => false,
            };
            if integral_at_least_one {
                n.clone()
            } else {
                Number::from(1u8)
            }
        }
        _ => Number::from(1u8),
    }
}

/// A non-blank runtime string, cut to [`MAX_REPORTED_RUNTIME_LENGTH`] UTF-16 code units plus
/// `…`. A cut through a surrogate pair leaves half a character in JavaScript; that half is
/// U+FFFD here (what the peer prints for it).
fn normalize_reported_runtime(raw: &str) -> Option<String> {
    if raw.chars().all(is_js_space) {
        return None;
    }
    let units: usize = raw.chars().map(char::len_utf16).sum();
    if units <= MAX_REPORTED_RUNTIME_LENGTH {
        return Some(raw.to_owned());
    }
    let mut out = String::new();
    let mut taken = 0;
    for c in raw.chars() {
        let width = c.len_utf16();
        if taken + width > MAX_REPORTED_RUNTIME_LENGTH {
            if taken < MAX_REPORTED_RUNTIME_LENGTH {
                out.push(char::REPLACEMENT_CHARACTER);
            }
            break;
        }
        out.push(c);
        taken += width;
    }
    out.push('…');
    Some(out)
}

/// The install mode recorded in a manifest (the peer writes anything but `minimal` as `full`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ManifestMode {
    /// The `minimal` install profile.
    Minimal,
    /// Everything (`full`).
    Full,
}

wire_names!(ManifestMode {
    Minimal => "minimal",
    Full => "full",
});

/// The v2 manifest document an install writes.
///
/// Serialises as `{manifestVersion: 2, version, timestamp, mode, runtime, scope, files}`
/// with `files` in the order given (a repeated path keeps its first position and its last
/// hash, as assigning to a JavaScript object does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallManifestDocument {
    /// Package version of the installer.
    pub version: String,
    /// Write time, ISO-8601, supplied by the caller.
    pub timestamp: String,
    /// Install mode.
    pub mode: ManifestMode,
    /// Runtime id installed.
    pub runtime: String,
    /// Scope installed.
    pub scope: Scope,
    /// `/`-separated path relative to the config dir → sha256 hex, in write order.
    pub files: Vec<(String, String)>,
}

impl InstallManifestDocument {
    /// Builds a record as assigning each path to a JavaScript object does: a repeated path
    /// keeps its first position and its last hash, and paths that are array indexes (`"2"`,
    /// `"10"`: canonical integers below 2^32 − 1) come first in ascending order, the others
    /// after them in the order given. So [`Self::to_json`] writes what `JSON.stringify`
    /// writes, and [`read_install_manifest`] reads the files back in the same order.
    #[must_use]
    pub fn new(
        version: impl Into<String>,
        timestamp: impl Into<String>,
        mode: ManifestMode,
        runtime: impl Into<String>,
        scope: Scope,
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        let mut ordered: Vec<(String, String)> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (path, hash) in files {
            if let Some(&at) = index.get(&path) {
                if let Some(slot) = ordered.get_mut(at) {
                    slot.1 = hash;
                }
            } else {
                index.insert(path.clone(), ordered.len());
                ordered.push((path, hash));
            }
        }
        if ordered
            .iter()
            .any(|(path, _)| js_json::array_index(path).is_some())
        {
            // Stable: the other paths keep the order given.
            ordered.sort_by_cached_key(|(path, _)| {
                js_json::array_index(path).map_or((1, 0), |n| (0, n))
            });
        }
        Self {
            version: version.into(),
            timestamp: timestamp.into(),
            mode,
            runtime: runtime.into(),
            scope,
            files: ordered,
        }
    }

    /// The file text: `JSON.stringify(manifest, null, 2)` (two-space indent, no trailing
    /// newline).
    #[must_use]
    pub fn to_json(&self) -> String {
        // Serialising plain strings and maps into a Vec cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl Serialize for InstallManifestDocument {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Files<'a>(&'a [(String, String)]);
        impl Serialize for Files<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (path, hash) in self.0 {
                    map.serialize_entry(path, hash)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(7))?;
        map.serialize_entry("manifestVersion", &MANIFEST_SCHEMA_VERSION)?;
        map.serialize_entry("version", &self.version)?;
        map.serialize_entry("timestamp", &self.timestamp)?;
        map.serialize_entry("mode", &self.mode)?;
        map.serialize_entry("runtime", &self.runtime)?;
        map.serialize_entry("scope", &self.scope)?;
        map.serialize_entry("files", &Files(&self.files))?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> InstallManifest {
        read_install_manifest(Some(text)).manifest
    }

    #[test]
    fn non_objects_read_as_not_installed_with_a_diagnostic() {
        for (text, code) in [
            ("null", CODE_MANIFEST_NOT_OBJECT),
            ("[]", CODE_MANIFEST_NOT_OBJECT),
            ("\"x\"", CODE_MANIFEST_NOT_OBJECT),
            ("{\"version\":", CODE_MANIFEST_CORRUPT),
            ("\u{feff}{}", CODE_MANIFEST_CORRUPT),
        ] {
            let r = read_install_manifest(Some(text));
            assert_eq!(r.manifest, InstallManifest::not_installed(), "{text:?}");
            assert_eq!(r.diagnostics.len(), 1, "{text:?}");
            assert_eq!(r.diagnostics[0].code, code, "{text:?}");
        }
        assert!(read_install_manifest(None).diagnostics.is_empty());
    }

    #[test]
    fn a_manifest_that_is_not_an_object_is_named_by_what_it_is() {
        for (text, found) in [
            ("null", "null"),
            (" \n null", "null"),
            ("1e400", "a number"),
            (" -1e400", "a number"),
            ("5", "a number"),
            ("[]", "an array"),
            ("true", "a boolean"),
            ("\"x\"", "a string"),
        ] {
            let read = read_install_manifest(Some(text));
            assert_eq!(read.diagnostics.len(), 1, "{text}");
            assert_eq!(read.diagnostics[0].code, CODE_MANIFEST_NOT_OBJECT, "{text}");
            assert_eq!(
                read.diagnostics[0].message,
                format!("install manifest is {found}, not an object; treated as not installed"),
                "{text}"
            );
        }
    }

    #[test]
    fn fields_follow_the_spec() {
        // §8.1: v1 (no manifestVersion) reads as 1; junk versions read as 1.
        let m = read(
            r#"{"version":"1.2.3","timestamp":5,"mode":"full","files":[1],"manifestVersion":"2","runtime":"  ","scope":"Global"}"#,
        );
        assert_eq!(m.version.as_deref(), Some("1.2.3"));
        assert_eq!((&m.timestamp, &m.runtime, m.scope), (&None, &None, None));
        assert_eq!(m.files, json!([1]));
        assert_eq!(m.file_keys(), ["0"]);
        assert_eq!(m.manifest_version, Some(Number::from(1u8)));
        for (raw, want) in [
            ("2", json!(2)),
            ("2.0", json!(2)),
            ("2.5", json!(1)),
            ("0", json!(1)),
            ("-5", json!(1)),
            ("1e400", json!(1)),
            ("1e300", json!(1e300)),
        ] {
            let m = read(&format!(
                "{{\"manifestVersion\":{raw},\"scope\":\"local\"}}"
            ));
            assert_eq!(m.manifest_version.map(Value::Number), Some(want), "{raw}");
            assert_eq!(m.scope, Some(Scope::Local));
        }
    }

    #[test]
    fn long_runtimes_are_cut_to_64_utf16_units() {
        let long = "r".repeat(70);
        assert_eq!(
            read(&format!("{{\"runtime\":\"{long}\"}}")).runtime,
            Some(format!("{}…", "r".repeat(64)))
        );
        let exact = "r".repeat(64);
        assert_eq!(
            read(&format!("{{\"runtime\":\"{exact}\"}}")).runtime,
            Some(exact)
        );
        // 63 units then an astral character: JavaScript keeps its high half.
        let astral = format!("{}\u{1F600}", "r".repeat(63));
        assert_eq!(
            read(&format!("{{\"runtime\":\"{astral}\"}}")).runtime,
            Some(format!("{}\u{FFFD}…", "r".repeat(63)))
        );
    }

    #[test]
    fn bounds_refuse_cheaply() {
        let huge = " ".repeat(MAX_MANIFEST_BYTES + 1);
        let r = read_install_manifest(Some(&huge));
        assert_eq!(r.diagnostics[0].code, CODE_MANIFEST_TOO_LARGE);
        let deep = format!(
            "{{\"files\":{}{}}}",
            "[".repeat(MAX_MANIFEST_DEPTH),
            "]".repeat(MAX_MANIFEST_DEPTH)
        );
        let r = read_install_manifest(Some(&deep));
        assert_eq!(r.diagnostics[0].code, CODE_MANIFEST_TOO_DEEP);
        assert_eq!(r.manifest, InstallManifest::not_installed());
    }

    #[test]
    fn writer_uses_the_peer_key_order_and_no_trailing_newline() {
        let record = InstallManifestDocument::new(
            "1.14.0",
            "2026-01-01T00:00:00.000Z",
            ManifestMode::Full,
            "claude",
            Scope::Local,
            [
                ("b".to_owned(), "1".to_owned()),
                ("a".to_owned(), "2".to_owned()),
                ("b".to_owned(), "3".to_owned()),
            ],
        );
        assert_eq!(
            record.to_json(),
            "{\n  \"manifestVersion\": 2,\n  \"version\": \"1.14.0\",\n  \"timestamp\": \"2026-01-01T00:00:00.000Z\",\n  \"mode\": \"full\",\n  \"runtime\": \"claude\",\n  \"scope\": \"local\",\n  \"files\": {\n    \"b\": \"3\",\n    \"a\": \"2\"\n  }\n}"
        );
        let empty = InstallManifestDocument::new(
            "v",
            "t",
            ManifestMode::Minimal,
            "codex",
            Scope::Global,
            [],
        );
        assert!(empty.to_json().contains("\"files\": {}\n}"));
    }
}

//! Validation of one capability manifest, message-exact with the peer's validator.
//!
//! [`parse_manifest`] bounds and parses manifest text; [`validate_capability`] returns the
//! peer's `validateCapability` errors as typed [`Diagnostic`]s (same messages, same order,
//! plus a stable `code` and a dotted `field`); [`warning_records`] returns the peer's
//! `collectReviewerWarningRecords`; [`check_capability`] runs the per-capability part of
//! loading (reserved id prefixes, validation, loop-contract checks, warnings).
//! [`ParsedManifest`] does all of that from text, without building a `serde_json::Value`
//! for every real manifest (what the bindings use).
//!
//! Validation works on the raw JSON value so messages can be rendered exactly as the peer
//! renders them (see `js` for the JavaScript semantics involved). The validators read
//! either value type through the `crate::json::Json` trait: a value whose strings borrow
//! the manifest text (`crate::json`), built by the direct reader, or a `serde_json::Value`,
//! checked where it is (the entry points over a value, and text the direct reader does not
//! answer), so a manifest is never copied into the other form. Every piece of
//! manifest text embedded in a message goes through [`crate::sanitize::sanitize_value`].
//! Where the peer throws, or accepts an unsafe path, we report our own error instead; each
//! such difference is listed in `docs/validation.md`.

mod bounds;
mod contract;
mod direct;
mod envelope;
mod feature;
mod hooks;
#[cfg(test)]
mod json_gen;
use crate::js;
mod lane;
pub(crate) mod paths;
mod presized;
mod reviewer;
mod runtime;
mod runtime_axes;
mod warnings;

use crate::json::{Json, JsonObject, Value};

pub use bounds::{MAX_MANIFEST_BYTES, MAX_MANIFEST_DEPTH, nests_deeper_than, parse_manifest};
pub use warnings::warning_records;

use crate::diagnostic::{Diagnostic, Severity};
use crate::sanitize::sanitize_value;
use crate::vocab::RESERVED_ID_PREFIXES;

/// Stable diagnostic codes used by the validator.
pub mod code {
    /// A value has the wrong JSON type.
    pub const WRONG_TYPE: &str = "wrong_type";
    /// A required field is absent.
    pub const MISSING_FIELD: &str = "missing_field";
    /// `id` is not a kebab-case string.
    pub const INVALID_ID: &str = "invalid_id";
    /// `id` differs from the folder name.
    pub const ID_MISMATCH: &str = "id_mismatch";
    /// A value is not a member of its closed vocabulary.
    pub const INVALID_ENUM: &str = "invalid_enum";
    /// A key or value is `__proto__`, `constructor` or `prototype`.
    pub const RESERVED_NAME: &str = "reserved_name";
    /// A field is not allowed on this role.
    pub const FORBIDDEN_FIELD: &str = "forbidden_field";
    /// A version is not strict `SemVer`.
    pub const INVALID_SEMVER: &str = "invalid_semver";
    /// A version range is not plausible.
    pub const INVALID_RANGE: &str = "invalid_range";
    /// `integrity` is not a `sha512-<base64>` string.
    pub const INVALID_INTEGRITY: &str = "invalid_integrity";
    /// A value is out of range, empty or breaks its grammar.
    pub const INVALID_VALUE: &str = "invalid_value";
    /// A hook script path is not shell-safe.
    pub const UNSAFE_SCRIPT: &str = "unsafe_script";
    /// A path the peer already rejects (absolute, `..`, not a bare basename).
    pub const UNSAFE_PATH: &str = "unsafe_path";
    /// A value is listed twice.
    pub const DUPLICATE: &str = "duplicate";
    /// A key outside a closed set of fields (an error, unlike warnings).
    pub const UNKNOWN_FIELD: &str = "unknown_field";
    /// A field is not permitted with the selected kind or transport.
    pub const NOT_PERMITTED: &str = "not_permitted";
    /// A reference names something the capability does not declare.
    pub const UNDECLARED_REFERENCE: &str = "undeclared_reference";
    /// Fields that exclude each other are combined (or none of a required set is present).
    pub const CONFLICTING_FIELDS: &str = "conflicting_fields";
    /// Gate A: the hooks surface is not allowed for the install surface.
    pub const GATE_A: &str = "gate_a";
    /// Gate B: extended hook events do not match the hook-event dialect.
    pub const GATE_B: &str = "gate_b";
    /// A reviewer lane declares a denied environment key.
    pub const DENIED_ENV_KEY: &str = "denied_env_key";
    /// Third-party id in a first-party namespace (`gsd-`, `gsd-core-`, `anthropic-`).
    pub const RESERVED_ID_PREFIX: &str = "reserved_id_prefix";
    /// A loop-contract rule fails (contribution role, `when`, `pointFrom`).
    pub const CONTRACT: &str = "contract";
    /// Ours: a `null` element in steps/contributions/gates (the peer throws).
    pub const NULL_ELEMENT: &str = "null_element";
    /// Ours: more than [`super::MAX_REPORTED_ERRORS`] errors; the rest are counted in `detail`.
    pub const TOO_MANY_ERRORS: &str = "too_many_errors";
    /// Ours: `configHome.skillsHome` nests deeper than the manifest depth bound.
    pub const TOO_DEEP: &str = "too_deep";
    /// Ours: an artifact-layout `destSubpath` that could escape its config directory.
    pub const UNSAFE_DEST_SUBPATH: &str = "unsafe_dest_subpath";
    /// Ours: a `configHome.name` that is not a single directory name.
    pub const UNSAFE_CONFIG_HOME_NAME: &str = "unsafe_config_home_name";
    /// Ours: a `configHome.parent` that is not a single directory name.
    pub const UNSAFE_CONFIG_HOME_PARENT: &str = "unsafe_config_home_parent";
    /// Ours: a `configHome.probe` candidate that could put the config home outside the
    /// home (or a `probeExists` marker that leaves the probed directory).
    pub const UNSAFE_CONFIG_HOME_PROBE: &str = "unsafe_config_home_probe";
    /// Ours: a `skills` artifact-layout entry whose `converter` is null (the peer's install
    /// plan throws for it).
    pub const SKILLS_WITHOUT_CONVERTER: &str = "skills_without_converter";
    /// Ours: a `localConfigDir` that could escape the project.
    pub const UNSAFE_LOCAL_CONFIG_DIR: &str = "unsafe_local_config_dir";
    /// Ours: an artifact-layout `home` that could escape the user's home.
    pub const UNSAFE_LAYOUT_HOME: &str = "unsafe_layout_home";
    /// Ours: a fragment path with a drive, a leading backslash or a control character.
    pub const UNSAFE_FRAGMENT_PATH: &str = "unsafe_fragment_path";
    /// Ours: an artifact-layout `prefix` that is not part of one plain file name.
    pub const UNSAFE_LAYOUT_PREFIX: &str = "unsafe_layout_prefix";
    /// Ours: a `hostBehaviors.settingsFileByScope` entry that could leave the config
    /// directory, or is not a non-empty string.
    pub const UNSAFE_SETTINGS_FILE: &str = "unsafe_settings_file";
    /// Ours: a `hostBehaviors.agentFileExtension` that is not a string, or not a suffix that
    /// keeps an agent one file name (every plan would refuse it).
    pub const UNSAFE_AGENT_FILE_EXTENSION: &str = "unsafe_agent_file_extension";
    /// Warning: a `runtime.hostBehaviors` key outside the closed vocabulary.
    pub const UNKNOWN_HOST_BEHAVIOR: &str = "unknown_host_behavior";
    /// Warning: the removed `runtime.hostBehaviors.reviewerCli` key.
    pub const REMOVED_HOST_BEHAVIOR: &str = "removed_host_behavior";
    /// Warning: an unknown key inside a `reviewer` body.
    pub const UNKNOWN_REVIEWER_FIELD: &str = "unknown_reviewer_field";
}

/// Collects error diagnostics in the peer's order.
#[derive(Debug)]
pub(crate) struct Sink {
    out: Vec<Diagnostic>,
    capability: String,
    omitted: usize,
}

impl Sink {
    fn new(capability: &str) -> Self {
        Self {
            out: Vec::new(),
            capability: capability.to_owned(),
            omitted: 0,
        }
    }

    /// Appends one error; past [`MAX_REPORTED_ERRORS`] errors are only counted.
    pub(crate) fn push(
        &mut self,
        code: &'static str,
        field: impl std::fmt::Display,
        message: impl Into<String>,
    ) {
        if self.out.len() >= MAX_REPORTED_ERRORS {
            self.omitted += 1;
            return;
        }
        self.out.push(
            Diagnostic::new(code, Severity::Error, message)
                .with_capability(self.capability.clone())
                .with_field(field.to_string()),
        );
    }

    /// The errors, with one summary error when some were only counted.
    fn finish(mut self) -> Vec<Diagnostic> {
        if self.omitted > 0 {
            let message = format!(
                "{} further errors not listed (at most {MAX_REPORTED_ERRORS} are reported)",
                self.omitted
            );
            self.out.push(
                Diagnostic::new(code::TOO_MANY_ERRORS, Severity::Error, message)
                    .with_capability(self.capability.clone())
                    .with_field("")
                    .with_detail(
                        serde_json::json!({"truncated": true, "omittedCount": self.omitted}),
                    ),
            );
        }
        self.out
    }
}

/// How many errors one manifest reports before the rest are summarized (a hostile 8 MiB
/// manifest could otherwise yield millions of them).
pub const MAX_REPORTED_ERRORS: usize = 1000;

/// Text written only when displayed: a message context or field path that a check needs
/// only if it reports an error (most manifests report none).
pub(crate) struct Lazy<F>(F);

impl<F: Fn(&mut std::fmt::Formatter<'_>) -> std::fmt::Result> std::fmt::Display for Lazy<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (self.0)(f)
    }
}

/// A [`Lazy`] text written by `write`.
pub(crate) fn lazy<F: Fn(&mut std::fmt::Formatter<'_>) -> std::fmt::Result>(write: F) -> Lazy<F> {
    Lazy(write)
}

/// `JSON.stringify(v)` of manifest data, sanitized for a message.
pub(crate) fn json<J: Json>(v: Option<&J>) -> String {
    sanitized(js::stringify(v))
}

/// `String(v)` of manifest data, sanitized for a message.
pub(crate) fn text<J: Json>(v: Option<&J>) -> String {
    sanitized(js::to_js_string(v))
}

/// Manifest-supplied text (a key, an id), sanitized for a message.
pub(crate) fn raw(s: &str) -> String {
    if renders_as_itself(s) {
        s.to_owned()
    } else {
        sanitize_value(s)
    }
}

/// [`sanitize_value`] of an owned rendering, kept as it is when it needs no change.
fn sanitized(s: String) -> String {
    if renders_as_itself(&s) {
        s
    } else {
        sanitize_value(&s)
    }
}

/// Whether [`sanitize_value`] returns `s` unchanged because it is short printable ASCII
/// (no control, no escape sequence, nothing to clip): the common case, answered without
/// walking the text character by character.
fn renders_as_itself(s: &str) -> bool {
    s.len() <= crate::sanitize::MAX_RENDERED_CHARS && s.bytes().all(|b| (b' '..=b'~').contains(&b))
}

/// `missing_field` when the value is absent, otherwise `present`.
pub(crate) fn absent_or<J>(v: Option<&J>, present: &'static str) -> &'static str {
    if v.is_none() {
        code::MISSING_FIELD
    } else {
        present
    }
}

/// Whether `s` is one of the reserved JavaScript property names.
pub(crate) fn is_reserved(s: &str) -> bool {
    crate::vocab::RESERVED_NAMES.contains(&s)
}

/// Whether the value is a reserved-name string.
pub(crate) fn is_reserved_value<J: Json>(v: Option<&J>) -> bool {
    js::as_str(v).is_some_and(is_reserved)
}

/// A manifest text parsed for validation, with the bounds and errors of
/// [`parse_manifest`]. Its strings are borrowed from the text (copied only where an escape
/// needs decoding) and its objects are searched without a hash index, so validating through
/// it skips building a `serde_json::Value`, which costs most of a validation. (Text the
/// direct reader hands off — 64 KiB or more, `\u` escapes of surrogates, invalid text — is
/// parsed by `serde_json` as [`parse_manifest`] parses it, then converted.) Each method
/// answers what the function of the same name answers for the parsed value.
///
/// ```
/// use gsd_core::validate::ParsedManifest;
/// let parsed = ParsedManifest::parse(r#"{"id": "Bad"}"#)?;
/// let errors = parsed.validate("bad");
/// assert_eq!(errors[0].message, "id must be a kebab-case string");
/// assert!(parsed.warning_records().is_empty());
/// # Ok::<(), gsd_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ParsedManifest<'t> {
    root: Root<'t>,
    /// The text `root` was read from.
    text: &'t str,
}

/// What [`ParsedManifest`] holds: the value the direct reader built over the text (every
/// real manifest), or, for text it does not answer (64 KiB or more, rare escapes and
/// numbers), `serde_json`'s own value, checked where it is and handed on whole by
/// [`ParsedManifest::into_value`] (a huge manifest is never held in two forms at once).
#[derive(Debug, Clone)]
enum Root<'t> {
    Read(Value<'t>),
    Parsed(serde_json::Value),
}

/// `$body` with `$v` bound to the root, whichever form it has.
macro_rules! on_root {
    ($root:expr, $v:ident => $body:expr) => {
        match $root {
            Root::Read($v) => $body,
            Root::Parsed($v) => $body,
        }
    };
}

impl<'t> ParsedManifest<'t> {
    /// Parses `text` as [`parse_manifest`] does (same bounds, same errors).
    ///
    /// # Errors
    ///
    /// Those of [`parse_manifest`]: `MANIFEST_TOO_LARGE`, `MANIFEST_TOO_DEEP`,
    /// `MANIFEST_INVALID_JSON`.
    pub fn parse(text: &'t str) -> Result<Self, crate::Error> {
        bounds::parse_root(text).map(|root| ParsedManifest { root, text })
    }

    /// [`validate_capability`] of this manifest.
    #[must_use]
    pub fn validate(&self, folder_id: &str) -> Vec<Diagnostic> {
        on_root!(&self.root, v => capability_errors(v, folder_id))
    }

    /// [`validate_body`] of this manifest.
    #[must_use]
    pub fn validate_body(&self, body: Body) -> Vec<Diagnostic> {
        on_root!(&self.root, v => body_errors(body, v))
    }

    /// [`warning_records`] of this manifest.
    #[must_use]
    pub fn warning_records(&self) -> Vec<Diagnostic> {
        on_root!(&self.root, v => warnings::records(v))
    }

    /// [`check_capability`] of this manifest.
    #[must_use]
    pub fn check(&self, folder_id: &str, origin: Origin) -> CapabilityCheck {
        reserved_prefix(folder_id, origin)
            .unwrap_or_else(|| on_root!(&self.root, v => capability_check(v, folder_id)))
    }

    /// The value [`parse_manifest`] returns for the same text.
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        match &self.root {
            Root::Read(v) => v.to_serde(),
            Root::Parsed(v) => v.clone(),
        }
    }

    /// The document a registry keeps ([`crate::doc::JsonDoc`]), with the content of
    /// [`Self::to_value`]. A manifest the direct reader answered is copied from the value
    /// that was validated; a larger one is read again from its text into the document once
    /// `serde_json`'s value is dropped, so the two never coexist (for 800k keys they would
    /// be well over 100 MiB together).
    pub(crate) fn into_doc(self) -> Result<crate::doc::JsonDoc, crate::Error> {
        match self.root {
            Root::Read(v) => crate::doc::JsonDoc::of(&v),
            Root::Parsed(v) => {
                drop(v);
                // The text parsed once already: only the document's own bound can fail.
                crate::doc::JsonDoc::parse(self.text).map_err(|e| {
                    crate::Error::new(crate::ErrorCode::ManifestTooLarge, e.to_string())
                })
            }
        }
    }

    /// [`Self::to_value`], consuming the parsed manifest: text the direct reader did not
    /// answer hands on the value `serde_json` built, without a copy.
    #[must_use]
    pub fn into_value(self) -> serde_json::Value {
        match self.root {
            Root::Read(v) => v.to_serde(),
            Root::Parsed(v) => v,
        }
    }
}

/// Peer `validateCapability(cap, folderId)`: the errors, in the peer's order, as
/// Error-severity diagnostics. Empty means valid. Total: never panics (where the peer
/// throws, on `null` elements of `steps`, `contributions` or `gates`, this returns a
/// `null_element` error instead). Each diagnostic's `capability_id` is `folder_id`; past
/// [`MAX_REPORTED_ERRORS`] errors, one `too_many_errors` summary counts the rest.
///
/// ```
/// let cap = serde_json::json!({"id": "Bad"});
/// let errors = gsd_core::validate::validate_capability(&cap, "bad");
/// assert_eq!(errors[0].code, "invalid_id");
/// assert_eq!(errors[0].message, "id must be a kebab-case string");
/// ```
pub fn validate_capability(manifest: &serde_json::Value, folder_id: &str) -> Vec<Diagnostic> {
    if let Some(too_deep) = too_deep(manifest, folder_id) {
        return vec![too_deep];
    }
    capability_errors(manifest, folder_id)
}

/// [`validate_capability`] on a value within the depth bound.
fn capability_errors<J: Json>(manifest: &J, folder_id: &str) -> Vec<Diagnostic> {
    let mut sink = Sink::new(folder_id);
    envelope::validate(&mut sink, manifest, folder_id);
    sink.finish()
}

/// One step of [`validate_capability`], run on its own by [`validate_body`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// The versioned-manifest envelope: `version`, `engines`, `compatVersions`,
    /// `integrity`, `provenance` (peer `validateVersionEnvelope`).
    Envelope,
    /// The feature body (peer `validateFeatureBody`).
    Feature,
    /// The runtime body (peer `validateRuntimeBody`).
    Runtime,
    /// The reviewer lane body (peer `validateReviewerBody`).
    Reviewer,
}

/// Runs one [`Body`] step of [`validate_capability`] on `manifest`, whatever its role: the
/// errors the peer's per-body validator returns, in its order. The role is not consulted,
/// so a feature manifest checked as [`Body::Runtime`] reports what the peer reports for it.
/// A manifest that is not an object reads as one without fields (as the peer reads a
/// primitive's properties), except `null`: the peer throws there, for every body but the
/// reviewer one, and this returns one `wrong_type` error instead. Same depth guard and
/// error cap as [`validate_capability`]; each diagnostic's `capability_id` is the
/// manifest's string `id` (empty when it has none).
///
/// ```
/// use gsd_core::validate::{Body, validate_body};
/// let errors = validate_body(Body::Envelope, &serde_json::json!({"version": "1.0"}));
/// assert_eq!(errors[0].code, "invalid_semver");
/// ```
pub fn validate_body(body: Body, manifest: &serde_json::Value) -> Vec<Diagnostic> {
    let id = manifest
        .field("id")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    if let Some(too_deep) = too_deep(manifest, id) {
        return vec![too_deep];
    }
    body_errors(body, manifest)
}

/// [`validate_body`] on a value within the depth bound.
fn body_errors<J: Json>(body: Body, manifest: &J) -> Vec<Diagnostic> {
    let id = manifest.field("id").and_then(Json::as_str).unwrap_or("");
    let mut sink = Sink::new(id);
    if manifest.is_null() && body != Body::Reviewer {
        sink.push(code::WRONG_TYPE, "", "capability must be a JSON object");
        return sink.finish();
    }
    let empty = <J::Object as JsonObject>::empty();
    let cap = manifest.as_object().unwrap_or(&empty);
    match body {
        Body::Envelope => envelope::validate_version_envelope(&mut sink, cap),
        Body::Feature => feature::validate(&mut sink, cap),
        Body::Runtime => runtime::validate(&mut sink, cap),
        Body::Reviewer => reviewer::validate(&mut sink, cap),
    }
    sink.finish()
}

/// Depth past which a value built in memory is refused before validation. Text is bounded
/// far lower by [`parse_manifest`] ([`MAX_MANIFEST_DEPTH`]) and the validator bounds its own
/// recursive fields (`skillsHome`) at that depth with a precise field; this outer bound only
/// keeps the validator's rendering of arbitrary values off a stack overflow.
const MAX_IN_MEMORY_DEPTH: usize = 512;

/// A value built in memory (not through [`parse_manifest`]) may nest deeper than the
/// validator's recursion can safely follow: such a manifest is rejected up front.
fn too_deep(manifest: &serde_json::Value, folder_id: &str) -> Option<Diagnostic> {
    if !bounds::value_exceeds_depth(manifest, MAX_IN_MEMORY_DEPTH) {
        return None;
    }
    // Name the top-level field that holds the deep value.
    let field = manifest.as_object().and_then(|map| {
        map.iter()
            .find(|(_, v)| bounds::value_exceeds_depth(v, MAX_IN_MEMORY_DEPTH - 1))
            .map(|(k, _)| sanitize_value(k))
    });
    let diagnostic = Diagnostic::new(
        code::TOO_DEEP,
        Severity::Error,
        format!(
            "{} nests deeper than {MAX_IN_MEMORY_DEPTH} levels",
            field.as_deref().unwrap_or("capability")
        ),
    )
    .with_capability(sanitize_value(folder_id));
    Some(match field {
        Some(field) => diagnostic.with_field(field),
        None => diagnostic,
    })
}

/// Where a manifest being loaded comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Shipped with this library (may use the reserved id prefixes).
    FirstParty,
    /// An installed overlay (may not use `gsd-`, `gsd-core-` or `anthropic-` ids).
    ThirdParty,
}

/// The per-capability outcome of loading one manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CapabilityCheck {
    /// Errors: any error rejects the capability.
    pub errors: Vec<Diagnostic>,
    /// Warnings (only computed for an accepted capability, as the peer's loader does).
    pub warnings: Vec<Diagnostic>,
}

impl CapabilityCheck {
    /// Whether the capability is accepted.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// The per-capability part of the peer's loader, in its order: the reserved id prefix
/// (third-party only), [`validate_capability`], then the loop-contract checks
/// (`validateAgainstContract`: contribution roles, `when` and `pointFrom` references), and
/// for an accepted capability its [`warning_records`]. Cross-capability rules (ownership,
/// `requires`, consumes satisfiability) are not part of this check.
pub fn check_capability(
    manifest: &serde_json::Value,
    folder_id: &str,
    origin: Origin,
) -> CapabilityCheck {
    if let Some(refused) = reserved_prefix(folder_id, origin) {
        return refused;
    }
    if let Some(too_deep) = too_deep(manifest, folder_id) {
        return CapabilityCheck {
            errors: vec![too_deep],
            warnings: Vec::new(),
        };
    }
    capability_check(manifest, folder_id)
}

/// The check of a third-party capability whose id takes a first-party prefix: refused
/// before anything else is read.
fn reserved_prefix(folder_id: &str, origin: Origin) -> Option<CapabilityCheck> {
    let reserved = origin == Origin::ThirdParty
        && RESERVED_ID_PREFIXES
            .iter()
            .any(|p| folder_id.starts_with(p));
    reserved.then(|| CapabilityCheck {
        errors: vec![
            Diagnostic::new(
                code::RESERVED_ID_PREFIX,
                Severity::Error,
                "id uses a reserved first-party prefix (gsd-/gsd-core-/anthropic-)",
            )
            .with_capability(folder_id)
            .with_field("id"),
        ],
        warnings: Vec::new(),
    })
}

/// [`check_capability`] on a value within the depth bound, past the reserved-prefix rule.
fn capability_check<J: Json>(manifest: &J, folder_id: &str) -> CapabilityCheck {
    let mut check = CapabilityCheck {
        errors: capability_errors(manifest, folder_id),
        warnings: Vec::new(),
    };
    if !check.errors.is_empty() {
        return check;
    }
    let mut sink = Sink::new(folder_id);
    contract::validate(&mut sink, manifest, folder_id);
    check.errors = sink.finish();
    if check.errors.is_empty() {
        check.warnings = warnings::records(manifest);
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text the direct reader answers is held as its value; other text (here 64 KiB and
    /// more) as `serde_json`'s, which `into_value` hands on as `parse_manifest` returns it
    /// and which is checked where it is, with the answers of the value path.
    #[test]
    fn large_text_keeps_the_value_serde_json_built() {
        use std::fmt::Write as _;
        let small = r#"{"id":"small","role":"feature","runtime":{"hostBehaviors":{"zz":1}}}"#;
        let large = format!(
            r#"{{"id":"large","role":"runtime","runtime":{{"hostBehaviors":{{{}"zz":1}}}}}}"#,
            (0..8_000).fold(String::new(), |mut keys, i| {
                let _ = write!(keys, "\"k{i}\":{i},");
                keys
            })
        );
        assert!(
            large.len() >= presized::PRESIZE_FROM_BYTES,
            "{}",
            large.len()
        );
        for (text, folder, read) in [(small, "small", true), (large.as_str(), "large", false)] {
            let parsed = ParsedManifest::parse(text).expect("valid JSON");
            assert_eq!(matches!(parsed.root, Root::Read(_)), read, "{folder}");
            let value = parse_manifest(text).expect("valid JSON");
            assert_eq!(parsed.validate(folder), validate_capability(&value, folder));
            assert_eq!(parsed.warning_records(), warning_records(&value));
            let warned = parsed.warning_records().len();
            assert_eq!(warned, if read { 1 } else { 11 }, "{folder}");
            assert_eq!(
                parsed.check(folder, Origin::ThirdParty),
                check_capability(&value, folder, Origin::ThirdParty)
            );
            assert_eq!(parsed.to_value(), value);
            assert_eq!(parsed.into_value().to_string(), value.to_string());
        }
    }

    /// The shortcut renders what `sanitize_value` renders: short printable ASCII as is,
    /// and everything else (controls, escape sequences, non-ASCII, long text) through it.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn shortcut_renders_what_sanitize_value_renders(parts: Vec<(u8, String)>) -> bool {
        const PIECES: [&str; 10] = [
            "a",
            "~",
            " ",
            "\u{1b}[31m",
            "\u{7f}",
            "\u{1f}",
            "\u{202e}",
            "é",
            "\u{200b}",
            "xyz0",
        ];
        let text: String = parts
            .iter()
            .map(|(p, s)| {
                if p % 3 == 0 {
                    s.as_str()
                } else {
                    PIECES[usize::from(*p) % PIECES.len()]
                }
            })
            .collect();
        let long = text.repeat(40);
        // Each piece alone between printable ASCII, and each generated string on its own.
        let each = PIECES.iter().map(|p| format!("ab{p}cd"));
        let given = parts.into_iter().map(|(_, s)| s);
        [text, long, "k".repeat(80), "k".repeat(81)]
            .into_iter()
            .chain(each)
            .chain(given)
            .all(|t| raw(&t) == sanitize_value(&t) && sanitized(t.clone()) == sanitize_value(&t))
    }
}

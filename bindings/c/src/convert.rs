//! JSON in, JSON out: request decoding and result encoding for the C ABI.
//!
//! Requests arrive as UTF-8 JSON text and are decoded with serde into the core's own types
//! (or the small request records below, for calls whose core signature takes several
//! arguments); results leave as compact JSON in a `gsd_bytes`. A request and every record
//! in it is a JSON object (serde would also read an array by position; [`strict`] refuses
//! it). The request's shape is checked first: invalid JSON, an array or other non-object
//! where an object belongs, an unknown, missing or mistyped member is `INVALID_ARGUMENT`
//! naming the argument and serde's reason. A shape error also names the value at fault:
//! its path inside the request (`host.cwd`, `commands[1]`, `host.env.HOME`; an unknown or
//! a missing member names itself, `gsd_core::strict::error_field`) is the error's field
//! and prefixes the reason. The request itself at fault (not JSON, not an object) names no
//! field. Only a well-shaped request has its scope ids
//! checked, by the core's `parse_scope`, so a bad scope is `INVALID_SCOPE` with the core's
//! message.

mod strict;

use std::collections::BTreeMap;

use gsd_core::error::boundary_error;
use gsd_core::{Error, ErrorCode, Host, Registry, Scope, SurfaceFacts, TriggerInput};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::boundary::{bytes_from_vec, gsd_bytes};
use crate::error::Failure;

/// The `INVALID_ARGUMENT` failure of a malformed request; `name` is the C argument name,
/// `field` the path of the value at fault inside the request (`None`: the request itself).
fn not_valid(name: &str, field: Option<String>, reason: &dyn std::fmt::Display) -> Failure {
    // The core's spelling of a shape error: field and reason safe to print and bounded.
    strict::invalid(&format!("{name} is not a valid request"), field, reason).into()
}

/// [`not_valid`] for a shape error found with its path ([`strict::from_value`]).
fn misshapen(name: &str, error: &strict::PathError) -> Failure {
    not_valid(name, gsd_core::strict::error_field(error), error.inner())
}

/// A type a request is decoded into.
///
/// `CHECKS_ITS_SCOPES` says that a successful typed read has already checked every scope
/// member the request could hold: the type refuses unknown members, and each scope member
/// it has is read as a [`Scope`] (which only `global` and `local` are). Then
/// [`decode`] skips reading the text a second time for `scope` / `scopes`, which is most of
/// the work a valid request costs beyond its typed read (its 275 stems scanned again).
/// A type that ignores unknown members keeps the default, and its unread scope members are
/// still checked.
pub(crate) trait Request: DeserializeOwned {
    /// Whether the typed read checks every scope member the text may hold.
    const CHECKS_ITS_SCOPES: bool = false;
}

impl Request for gsd_core::PlanRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

impl Request for Vec<OverlayRequest> {
    const CHECKS_ITS_SCOPES: bool = true;
}

impl Request for Value {}

/// Decodes a JSON request; `name` is the C argument name used in error messages.
///
/// Shape first, scopes second: a request that is not a well-formed `T` (syntax, an array
/// for an object, an unknown, missing or mistyped member) is `INVALID_ARGUMENT` even when
/// it also holds a bad scope; a well-formed one whose `scope` string or `scopes` strings
/// the core's parser refuses is `INVALID_SCOPE`. The scope members are checked whether or
/// not `T` reads them (a type that ignores unknown members still has them checked).
///
/// Only this failure path tracks where in the request it is: a valid request is read with
/// no path bookkeeping at all.
pub(crate) fn decode<T: Request>(text: &str, name: &str) -> Result<T, Failure> {
    // The common case, a valid request, is read straight into its type (no `Value` of the
    // whole request), then skimmed for its `scope` / `scopes` members (every other member
    // skipped unallocated) in case the type left one unread. A failure of either takes the
    // value path below, whose outcome and messages are the reference.
    if let Ok(request) = strict::from_str::<T>(text) {
        if T::CHECKS_ITS_SCOPES {
            return Ok(request);
        }
        // Plain serde here: the read above has checked the text's shape, repeated members
        // included, and the skim only looks for the two scope members.
        let skim = if starts_object(text) {
            serde_json::from_str::<ScopeMembers>(text).ok()
        } else {
            Some(ScopeMembers::default())
        };
        if let Some(members) = skim {
            check_scopes(members.scope.as_ref(), members.scopes.as_ref())?;
            return Ok(request);
        }
    }
    let value = parse(text, name)?;
    // The shape, with every scope string the request holds replaced by a valid one: a
    // failure here is the request's shape, not its scopes.
    let mut shape = value.clone();
    if let Some(fields) = shape.as_object_mut() {
        if let Some(Value::String(id)) = fields.get_mut("scope") {
            Scope::Global.as_str().clone_into(id);
        }
        if let Some(Value::Array(ids)) = fields.get_mut("scopes") {
            for id in ids {
                if let Value::String(id) = id {
                    Scope::Global.as_str().clone_into(id);
                }
            }
        }
    }
    strict::from_value::<T>(shape).map_err(|e| misshapen(name, &e))?;
    check_scopes(value.get("scope"), value.get("scopes"))?;
    strict::from_value(value).map_err(|e| misshapen(name, &e))
}

/// The request as JSON, for the paths that look at it whole. Text that is not JSON names
/// no field; a member its object repeats (which a `Value` would keep the last of, unseen)
/// names that object (`host.env: duplicate field `HOME` at line 1 column 52`).
///
/// Text nested deeper than [`gsd_core::strict::MAX_REQUEST_DEPTH`] is refused first, by a
/// flat scan: the path-tracking read recurses once per level, and a caller's thread may
/// have a small stack. (The typed read of [`decode`] needs no such bound: its recursion
/// follows the request type, a few levels, and stops at the first value of the wrong kind.)
fn parse(text: &str, name: &str) -> Result<Value, Failure> {
    let limit = gsd_core::strict::MAX_REQUEST_DEPTH;
    if gsd_core::validate::nests_deeper_than(text, limit) {
        let reason = format!("it nests arrays/objects deeper than {limit} levels");
        return Err(not_valid(name, None, &reason));
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(gsd_core::strict::Strict(&mut reader)).map_err(
        |e: strict::PathError| match e.inner().classify() {
            serde_json::error::Category::Data => misshapen(name, &e),
            _ => not_valid(name, None, e.inner()),
        },
    )?;
    reader.end().map_err(|e| not_valid(name, None, &e))?;
    Ok(value)
}

/// Whether the first character past JSON whitespace opens an object.
fn starts_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// The members of a request object that name scopes (the rest is skipped).
#[derive(Default, Deserialize)]
struct ScopeMembers {
    #[serde(default)]
    scope: Option<Value>,
    #[serde(default)]
    scopes: Option<Value>,
}

/// Runs the core's exact scope parser over a string `scope` and the string entries of an
/// array `scopes`.
fn check_scopes(scope: Option<&Value>, scopes: Option<&Value>) -> Result<(), Error> {
    if let Some(Value::String(id)) = scope {
        gsd_core::parse_scope(id)?;
    }
    if let Some(Value::Array(ids)) = scopes {
        // Each entry keeps its index, so the error names it (`scopes[1]`); an entry that is
        // not a string is the shape's to refuse, not a scope.
        let ids: Vec<&str> = ids
            .iter()
            .map(|id| id.as_str().unwrap_or(Scope::Global.as_str()))
            .collect();
        gsd_core::parse_scopes(&ids)?;
    }
    Ok(())
}

/// Encodes a result as compact JSON bytes.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Result<gsd_bytes, Failure> {
    serde_json::to_vec(value).map(bytes_from_vec).map_err(|e| {
        boundary_error(
            ErrorCode::Panic,
            format!("internal error: cannot encode the result: {e}"),
        )
        .into()
    })
}

/// A registry handle's diagnostics: the overlay-folder loader's first, then the core's.
pub(crate) fn diagnostics(registry: &crate::gsd_registry) -> Result<gsd_bytes, Failure> {
    let all: Vec<_> = registry
        .edge_diagnostics
        .iter()
        .chain(registry.inner.diagnostics().iter())
        .collect();
    encode(&all)
}

/// The manifest of a registered runtime, or the core's `UNKNOWN_RUNTIME`
/// ([`gsd_core::scope::runtime_capability`]: a capability of another role is named as such).
pub(crate) fn runtime_manifest(registry: &Registry, runtime: &str) -> Result<gsd_bytes, Failure> {
    encode(&gsd_core::scope::runtime_capability(registry, runtime)?.manifest)
}

/// One third-party capability folder, as the caller read it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OverlayRequest {
    /// Folder name (must equal the manifest id).
    folder: String,
    /// `capability.json` text.
    manifest: String,
    /// Other files of the folder: path relative to the folder (with `/`) → text.
    #[serde(default)]
    fragments: BTreeMap<String, String>,
}

/// `gsd_registry_with_overlays`: `[{folder, manifest, fragments?}]` → a new registry.
pub(crate) fn with_overlays(base: &Registry, text: &str) -> Result<Registry, Failure> {
    let requests: Vec<OverlayRequest> = decode(text, "overlays_json")?;
    let overlays: Vec<gsd_core::Overlay> = requests
        .into_iter()
        .map(|r| gsd_core::Overlay {
            folder: r.folder,
            manifest: r.manifest,
            fragments: r.fragments.into_iter().collect(),
        })
        .collect();
    Ok(base.with_overlays(&overlays))
}

/// `gsd_resolve_install_plan`: a `PlanRequest` → `Plan`.
pub(crate) fn install_plan(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let request: gsd_core::PlanRequest = decode(text, "request_json")?;
    encode(&gsd_core::resolve_install_plan(registry, &request)?)
}

/// `gsd_resolve_install_plans`: a `PlanRequest` whose `scope` is replaced by `scopes`
/// (an array of scope ids) → `PlanSet`. Shape first, as in [`decode`]: an object without
/// a `scope` member, with `scopes` an array of strings, and the rest a valid
/// `PlanRequest`; only then are the scope ids parsed (`INVALID_SCOPE`). Shape errors name
/// their field as [`decode`]'s do (`scope`, `scopes[1]`, `host.cwd`).
pub(crate) fn install_plans(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    const NAME: &str = "request_json";
    let mut request = parse(text, NAME)?;
    let Some(fields) = request.as_object() else {
        return Err(not_valid(NAME, None, &"expected an object"));
    };
    if fields.contains_key("scope") {
        return Err(not_valid(
            NAME,
            Some("scope".to_owned()),
            &"unknown field `scope`, expected `scopes` (an array of scopes)",
        ));
    }
    let ids = serde_path_to_error::deserialize::<_, ScopeIds>(&request)
        .map_err(|e| misshapen(NAME, &e))?
        .scopes;
    // Each plan takes its own scope from `scopes`; this one only completes the record.
    if let Some(fields) = request.as_object_mut() {
        fields.remove("scopes");
        fields.insert("scope".to_owned(), Value::from(Scope::Global.as_str()));
    }
    let request: gsd_core::PlanRequest = strict::from_value(request).map_err(|e| {
        // The record is read as a `PlanRequest`, whose `scope` this request spells
        // `scopes`: serde's list of the members it expects says `scopes` too.
        let reason = e.inner().to_string();
        match reason.split_once(", expected one of ") {
            Some((head, expected)) => {
                let expected = expected.replacen("`scope`", "`scopes`", 1);
                not_valid(
                    NAME,
                    gsd_core::strict::error_field(&e),
                    &format!("{head}, expected one of {expected}"),
                )
            }
            None => misshapen(NAME, &e),
        }
    })?;
    let scopes = gsd_core::parse_scopes(&ids)?;
    encode(&gsd_core::resolve_install_plans(
        registry, &request, &scopes,
    )?)
}

/// The `scopes` member of a `gsd_resolve_install_plans` request (the rest is read as a
/// `PlanRequest`).
#[derive(Deserialize)]
struct ScopeIds {
    scopes: Vec<String>,
}

/// Request of `gsd_resolve_scope` and `gsd_scope_probe_paths`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ScopeRequest {
    runtime: String,
    scope: Scope,
    host: Host,
    #[serde(default)]
    explicit_dir: Option<String>,
}

impl Request for ScopeRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

/// `gsd_resolve_scope`: `{runtime, scope, host, explicitDir?}` → `ResolvedScope`.
pub(crate) fn scope(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: ScopeRequest = decode(text, "request_json")?;
    encode(&gsd_core::resolve_scope(
        registry,
        &r.runtime,
        r.scope,
        &r.host,
        r.explicit_dir.as_deref(),
    )?)
}

/// `gsd_scope_probe_paths`: the same request → the host paths resolution may test.
pub(crate) fn scope_probe_paths(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: ScopeRequest = decode(text, "request_json")?;
    encode(&gsd_core::scope_probe_paths(
        registry,
        &r.runtime,
        r.scope,
        &r.host,
        r.explicit_dir.as_deref(),
    )?)
}

/// Request of `gsd_resolve_config_home`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ConfigHomeRequest {
    runtime: String,
    host: Host,
}

impl Request for ConfigHomeRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

/// Result of `gsd_resolve_config_home`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ConfigHomeResult {
    config_home: String,
    provenance: gsd_core::Provenance,
    probe_paths: Vec<String>,
}

/// `gsd_resolve_config_home`: `{runtime, host}` → `{configHome, provenance, probePaths}`.
pub(crate) fn config_home(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: ConfigHomeRequest = decode(text, "request_json")?;
    let descriptor = gsd_core::scope::lookup_runtime(registry, &r.runtime)?;
    let (config_home, provenance) =
        gsd_core::resolve_config_home(&descriptor.config_home, &r.host)?;
    let probe_paths = gsd_core::probe_paths(&descriptor.config_home, &r.host);
    encode(&ConfigHomeResult {
        config_home,
        provenance,
        probe_paths,
    })
}

/// Request of `gsd_resolve_trigger_surface`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TriggerRequest {
    runtime: String,
    scopes: Vec<Scope>,
    #[serde(default)]
    stems: Vec<String>,
    #[serde(default)]
    router_stems: Vec<String>,
    #[serde(default)]
    child_to_routers: BTreeMap<String, Vec<String>>,
}

impl Request for TriggerRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

/// `gsd_resolve_trigger_surface`: `{runtime, scopes, stems?, routerStems?, childToRouters?}`
/// → `Trigger[]`.
pub(crate) fn trigger_surface(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: TriggerRequest = decode(text, "request_json")?;
    let input = TriggerInput {
        stems: r.stems,
        router_stems: r.router_stems,
        child_to_routers: r.child_to_routers,
    };
    encode(&gsd_core::resolve_trigger_surface(
        registry, &r.runtime, &r.scopes, &input,
    )?)
}

/// Result of `gsd_validate_capability`.
#[derive(Debug, Serialize)]
struct Validation {
    valid: bool,
    errors: Vec<gsd_core::Diagnostic>,
    warnings: Vec<gsd_core::Diagnostic>,
}

/// `gsd_validate_capability`: manifest text + folder → `{valid, errors, warnings}`
/// (warnings only for a valid manifest, as a loader would report them).
pub(crate) fn validate(manifest: &str, folder: &str) -> Result<gsd_bytes, Failure> {
    let parsed = gsd_core::ParsedManifest::parse(manifest)?;
    let errors = parsed.validate(folder);
    let warnings = if errors.is_empty() {
        parsed.warning_records()
    } else {
        Vec::new()
    };
    encode(&Validation {
        valid: errors.is_empty(),
        errors,
        warnings,
    })
}

/// Request of `gsd_surface_probe_requests` and `gsd_resolve_installed_surfaces` (a `null`
/// runtime is an absent one: every registered runtime).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SurfaceRequest {
    #[serde(default)]
    runtime: Option<String>,
    host: Host,
    #[serde(default)]
    facts: SurfaceFacts,
}

impl Request for SurfaceRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

/// `gsd_surface_probe_requests`: `{runtime?, host}` → `[{configHome, manifestPath}]`.
pub(crate) fn surface_probes(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: SurfaceRequest = decode(text, "request_json")?;
    encode(&gsd_core::probe_requests(
        registry,
        r.runtime.as_deref(),
        &r.host,
    )?)
}

/// `gsd_resolve_installed_surfaces`: `{runtime?, host, facts?}` → `InstalledSurfaces`.
pub(crate) fn installed_surfaces(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: SurfaceRequest = decode(text, "request_json")?;
    encode(&gsd_core::resolve_installed_surfaces(
        registry,
        r.runtime.as_deref(),
        &r.host,
        &r.facts,
    )?)
}

/// Request of `gsd_build_shadow_report`: a [`SurfaceRequest`] whose runtime is required,
/// so a missing or `null` runtime is a shape error naming `runtime` like any other.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ShadowRequest {
    runtime: String,
    host: Host,
    #[serde(default)]
    facts: SurfaceFacts,
}

impl Request for ShadowRequest {
    const CHECKS_ITS_SCOPES: bool = true;
}

/// `gsd_build_shadow_report`: `{runtime, host, facts?}` → `ShadowReport`.
pub(crate) fn shadow_report(registry: &Registry, text: &str) -> Result<gsd_bytes, Failure> {
    let r: ShadowRequest = decode(text, "request_json")?;
    encode(&gsd_core::build_shadow_report(
        registry, &r.runtime, &r.host, &r.facts,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code<T: Request>(text: &str) -> Result<(), ErrorCode> {
        decode::<T>(text, "request_json")
            .map(drop)
            .map_err(|e| e.code())
    }

    fn message<T: Request>(text: &str) -> String {
        decode::<T>(text, "request_json")
            .map(drop)
            .unwrap_err()
            .message()
            .to_owned()
    }

    /// The field of a failure to decode `text`.
    fn field<T: Request>(text: &str) -> Option<String> {
        decode::<T>(text, "request_json")
            .map(drop)
            .unwrap_err()
            .field()
            .map(str::to_owned)
    }

    /// Message and field of a failing `gsd_resolve_install_plans` request.
    fn plans_failure(text: &str) -> (String, Option<String>) {
        let error = install_plans(Registry::first_party(), text).unwrap_err();
        (error.message().to_owned(), error.field().map(str::to_owned))
    }

    /// A request type that ignores members it does not know (as `decode` may meet).
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Lenient {
        runtime: String,
        scope: Scope,
    }

    impl Request for Lenient {}

    /// serde repeats an unknown key as it is: the message and field show it safely.
    #[test]
    fn caller_text_in_a_shape_error_is_safe_to_print() {
        let text = r#"{"runtime":"claude","scope":"global","host":{"home":"/h","cwd":"/w"},"\u001b[31m\u202ex":1}"#;
        let field = field::<gsd_core::PlanRequest>(text).expect("the unknown member");
        // The name is not an identifier: quoted in brackets, its control character escaped
        // by the quoting (so kept), its bidi character replaced.
        assert_eq!(field, "[\"\\u001b[31m\u{FFFD}x\"]");
        let said = message::<gsd_core::PlanRequest>(text);
        assert!(
            said.starts_with("request_json is not a valid request: [\"\\u001b[31m\u{FFFD}x\"]: unknown field `\u{FFFD}\u{FFFD}x`"),
            "{said}"
        );
        let long = format!(
            r#"{{"runtime":"claude","scope":"global","host":{{"home":"/h","cwd":"/w"}},"{}":1}}"#,
            "k".repeat(5000)
        );
        assert!(message::<gsd_core::PlanRequest>(&long).chars().count() < 1100);
    }

    /// Both paths of `decode` give the outcomes of the value path: a bad scope member is the
    /// core's `INVALID_SCOPE` whether the request is typed or kept as a value, and junk that
    /// is not an object is `INVALID_ARGUMENT`.
    #[test]
    fn scopes_are_checked_on_both_paths() {
        let plan = r#"{"runtime":"claude","scope":"Local","host":{"home":"/h","cwd":"/w"}}"#;
        assert_eq!(
            code::<gsd_core::PlanRequest>(plan),
            Err(ErrorCode::InvalidScope)
        );
        let good = plan.replace("Local", "local");
        assert_eq!(code::<gsd_core::PlanRequest>(&good), Ok(()));
        let lenient = r#"{"runtime":"claude","scope":"local","scopes":["global","Bogus"]}"#;
        assert_eq!(
            code::<Lenient>(lenient),
            Err(ErrorCode::InvalidScope),
            "an unread scopes member is still checked, as on the value path"
        );
        assert_eq!(code::<Lenient>(&lenient.replace("Bogus", "local")), Ok(()));
        assert_eq!(
            code::<Value>(r#"{"scopes":["Local"]}"#),
            Err(ErrorCode::InvalidScope)
        );
        assert_eq!(
            code::<gsd_core::PlanRequest>(r#"["Local"]"#),
            Err(ErrorCode::InvalidArgument)
        );
        let repeated = good.replace(
            "\"scope\":\"local\"",
            "\"scope\":\"local\",\"scope\":\"Nope\"",
        );
        assert_eq!(
            code::<Value>(&repeated),
            Err(ErrorCode::InvalidArgument),
            "a repeated member is a shape error, never read last-wins"
        );
    }

    /// The shape is checked before the scopes: a malformed request is `INVALID_ARGUMENT`
    /// even when it holds a bad scope, on both paths.
    #[test]
    fn shape_comes_before_scopes() {
        assert_eq!(
            message::<TriggerRequest>(r#"{"runtime":"claude","scope":"bogus","scopes":[]}"#),
            "request_json is not a valid request: scope: unknown field `scope`, expected one of `runtime`, `scopes`, `stems`, `routerStems`, `childToRouters`"
        );
        assert_eq!(
            message::<gsd_core::PlanRequest>(r#"{"runtime":"claude","scope":"Global"}"#),
            "request_json is not a valid request: host: missing field `host`"
        );
        assert_eq!(
            message::<ScopeRequest>(r#"{"runtime":"c","scope":"x","host":{"home":"/h","cwd":1}}"#),
            "request_json is not a valid request: host.cwd: invalid type: integer `1`, expected a string"
        );
        assert_eq!(
            message::<TriggerRequest>(r#"{"runtime":"claude","scopes":["Global",1]}"#),
            "request_json is not a valid request: scopes[1]: invalid type: integer `1`, expected a string"
        );
        assert_eq!(
            code::<TriggerRequest>(r#"{"runtime":"claude","scopes":["Global"]}"#),
            Err(ErrorCode::InvalidScope)
        );
    }

    /// A request, and every record in it, is an object: the array form serde would read by
    /// position is refused, whatever scope it holds, and so is an array inside.
    #[test]
    fn arrays_are_not_requests() {
        let host = r#"{"home":"/h","cwd":"/w"}"#;
        for scope in ["global", "Global"] {
            assert_eq!(
                message::<gsd_core::PlanRequest>(&format!(r#"["claude","{scope}",{host}]"#)),
                "request_json is not a valid request: invalid type: sequence, expected struct PlanRequest"
            );
        }
        assert_eq!(
            message::<ScopeRequest>(r#"{"runtime":"claude","scope":"local","host":["/h","/w"]}"#),
            "request_json is not a valid request: host: invalid type: sequence, expected struct Host"
        );
        assert_eq!(
            message::<Vec<OverlayRequest>>(r#"[["acme","{}"]]"#),
            "request_json is not a valid request: [0]: invalid type: sequence, expected struct OverlayRequest"
        );
        assert_eq!(
            code::<Vec<OverlayRequest>>(r#"[{"folder":"acme","manifest":"{}"}]"#),
            Ok(())
        );
    }

    /// A shape error names the value at fault: its path is the error's field and prefixes
    /// the reason; an unknown member is named itself, a missing one by the object lacking it.
    #[test]
    fn shape_errors_name_their_field() {
        let base = r#""runtime":"claude","scope":"global""#;
        let host = r#""home":"/h","cwd":"/w""#;
        let cases = [
            (
                format!(r#"{{{base},"host":{{"home":"/h","cwd":1}}}}"#),
                "host.cwd",
                "invalid type: integer `1`, expected a string",
            ),
            (
                format!(r#"{{{base},"host":{{{host},"env":{{"CLAUDE_CONFIG_DIR":false}}}}}}"#),
                "host.env.CLAUDE_CONFIG_DIR",
                "invalid type: boolean `false`, expected a string",
            ),
            (
                format!(r#"{{{base},"host":{{{host},"existingPaths":[null]}}}}"#),
                "host.existingPaths[0]",
                "invalid type: null, expected a string",
            ),
            (
                format!(r#"{{{base},"host":{{{host}}},"commands":["help",2]}}"#),
                "commands[1]",
                "invalid type: integer `2`, expected a string",
            ),
            (
                format!(r#"{{{base},"host":{{{host},"enviroment":{{}}}}}}"#),
                "host.enviroment",
                "unknown field `enviroment`, expected one of `home`, `cwd`, `env`, `existingPaths`",
            ),
            (
                format!(r#"{{{base},"host":["/h","/w"]}}"#),
                "host",
                "invalid type: sequence, expected struct Host",
            ),
            (
                format!(r#"{{{base},"host":{{"home":"/h"}}}}"#),
                "host.cwd",
                "missing field `cwd`",
            ),
            (
                format!(r#"{{{base},"host":{{{host}}},"profile":{{"skills":"all"}}}}"#),
                "profile.skills",
                "invalid type: string \"all\", expected a sequence",
            ),
        ];
        for (text, at, reason) in &cases {
            assert_eq!(
                message::<gsd_core::PlanRequest>(text),
                format!("request_json is not a valid request: {at}: {reason}"),
                "{text}"
            );
            assert_eq!(
                field::<gsd_core::PlanRequest>(text).as_deref(),
                Some(*at),
                "{text}"
            );
        }
        // the same with a bad scope in it: still the shape, at the same field
        let bad_scope = cases[0].0.replace("global", "Global");
        assert_eq!(
            field::<gsd_core::PlanRequest>(&bad_scope).as_deref(),
            Some("host.cwd")
        );
        assert_eq!(
            field::<TriggerRequest>(r#"{"runtime":"claude","scopes":["Global",1]}"#).as_deref(),
            Some("scopes[1]")
        );
        assert_eq!(
            field::<Vec<OverlayRequest>>(r#"[{"folder":"acme","manifest":7}]"#).as_deref(),
            Some("[0].manifest")
        );
    }

    /// The request itself at fault names no field: not JSON (serde's line and column stay
    /// in the message), not an object; a member of its own that is missing is named.
    #[test]
    fn the_request_itself_names_no_field() {
        let cases = [
            (
                r#"{"runtime": "#,
                "request_json is not a valid request: EOF while parsing a value at line 1 column 12",
            ),
            (
                r#"{"runtime":"claude"} x"#,
                "request_json is not a valid request: trailing characters at line 1 column 22",
            ),
            (
                r#"["claude","global",{"home":"/h","cwd":"/w"}]"#,
                "request_json is not a valid request: invalid type: sequence, expected struct PlanRequest",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(message::<gsd_core::PlanRequest>(text), want, "{text}");
            assert_eq!(field::<gsd_core::PlanRequest>(text), None, "{text}");
        }
        // A member the request lacks is named itself.
        let text = r#"{"runtime":"claude","scope":"Global"}"#;
        assert_eq!(
            message::<gsd_core::PlanRequest>(text),
            "request_json is not a valid request: host: missing field `host`"
        );
        assert_eq!(
            field::<gsd_core::PlanRequest>(text).as_deref(),
            Some("host")
        );
    }

    /// A member its object repeats is refused wherever it is (a JSON value keeps the last
    /// one, so the first, even a mistyped one, would go unseen), naming the object that
    /// holds it and where in the text the repeat is.
    #[test]
    fn a_repeated_member_is_refused() {
        let host = r#""host":{"home":"/h","cwd":"/w"}"#;
        let cases = [
            (
                format!(r#"{{"runtime":1,"runtime":"claude","scope":"global",{host}}}"#),
                None,
                "duplicate field `runtime` at line 1 column 22",
            ),
            (
                format!(r#"{{"runtime":"claude","scope":"local","scope":"global",{host}}}"#),
                None,
                "duplicate field `scope` at line 1 column 43",
            ),
            (
                r#"{"runtime":"claude","scope":"global","host":{"home":"rel","home":"/h","cwd":"/w"}}"#
                    .to_owned(),
                Some("host"),
                "duplicate field `home` at line 1 column 64",
            ),
            (
                r#"{"runtime":"claude","scope":"global","host":{"home":"/h","cwd":"/w","env":{"A":"1","A":"2"}}}"#
                    .to_owned(),
                Some("host.env"),
                "duplicate field `A` at line 1 column 86",
            ),
            (
                format!(r#"{{"runtime":"claude","scope":"global",{host},"profile":{{"skills":[],"skills":"*"}}}}"#),
                Some("profile"),
                "duplicate field `skills` at line 1 column 100",
            ),
        ];
        for (text, at, reason) in &cases {
            let prefix = at.map_or_else(String::new, |f| format!("{f}: "));
            assert_eq!(
                message::<gsd_core::PlanRequest>(text),
                format!("request_json is not a valid request: {prefix}{reason}"),
                "{text}"
            );
            assert_eq!(
                field::<gsd_core::PlanRequest>(text).as_deref(),
                *at,
                "{text}"
            );
        }
        // Every call reads its request the same way.
        let (message, at) = plans_failure(&format!(
            r#"{{"runtime":"claude","scopes":["global"],"scopes":["local"],{host}}}"#
        ));
        assert_eq!(
            message,
            "request_json is not a valid request: duplicate field `scopes` at line 1 column 48"
        );
        assert_eq!(at, None);
        assert_eq!(
            field::<Vec<OverlayRequest>>(
                r#"[{"folder":"a","manifest":"{}","fragments":{"x.md":"","x.md":""}}]"#
            )
            .as_deref(),
            Some("[0].fragments")
        );
    }

    /// A capability that is not a runtime is named as what it is.
    #[test]
    fn a_manifest_of_another_role_is_not_a_runtime_manifest() {
        let registry = Registry::first_party();
        let error = runtime_manifest(registry, "ai-integration")
            .map(drop)
            .unwrap_err();
        assert_eq!(error.code(), ErrorCode::UnknownRuntime);
        assert_eq!(
            error.message(),
            "'ai-integration' is a feature capability, not a runtime"
        );
        assert_eq!(error.field(), Some("runtime"));
        let error = runtime_manifest(registry, "nope").map(drop).unwrap_err();
        assert_eq!(
            error.message(),
            "unknown runtime 'nope' — not present in the capability registry"
        );
        assert!(runtime_manifest(registry, "claude").is_ok());
    }

    /// `gsd_resolve_install_plans` names fields as `decode` does.
    #[test]
    fn install_plans_name_their_field() {
        let host = r#""host":{"home":"/h","cwd":"/w"}"#;
        let at = |text: &str, field: Option<&str>, reason: &str| {
            let (message, got) = plans_failure(text);
            let prefix = field.map_or_else(String::new, |f| format!("{f}: "));
            assert_eq!(
                message,
                format!("request_json is not a valid request: {prefix}{reason}"),
                "{text}"
            );
            assert_eq!(got.as_deref(), field, "{text}");
        };
        at(
            &format!(r#"{{"runtime":"claude","scope":"global",{host}}}"#),
            Some("scope"),
            "unknown field `scope`, expected `scopes` (an array of scopes)",
        );
        at(
            &format!(r#"{{"runtime":"claude","scopes":["Local",1],{host}}}"#),
            Some("scopes[1]"),
            "invalid type: integer `1`, expected a string",
        );
        at(
            &format!(r#"{{"runtime":"claude","scopes":"global",{host}}}"#),
            Some("scopes"),
            "invalid type: string \"global\", expected a sequence",
        );
        at(
            r#"{"runtime":"claude","scopes":["bogus"],"host":{"home":"/h","cwd":1}}"#,
            Some("host.cwd"),
            "invalid type: integer `1`, expected a string",
        );
        at(
            r#"{"runtime":"claude","scopes":["bogus"],"host":["/h","/w"]}"#,
            Some("host"),
            "invalid type: sequence, expected struct Host",
        );
        at(
            &format!(r#"{{"runtime":"claude",{host}}}"#),
            Some("scopes"),
            "missing field `scopes`",
        );
        // The members it lists are this request's: `scopes`, never `scope`.
        at(
            &format!(r#"{{"runtime":"claude","scopes":["global"],{host},"comands":[]}}"#),
            Some("comands"),
            "unknown field `comands`, expected one of `runtime`, `scopes`, `host`, `explicitDir`, `commands`, `agents`, `routerStems`, `childToRouters`, `profile`",
        );
        at(
            &format!(r#"{{"runtime":"claude","scopes":["global"],{host},"`scope`":1}}"#),
            Some("[\"`scope`\"]"),
            "unknown field ``scope``, expected one of `runtime`, `scopes`, `host`, `explicitDir`, `commands`, `agents`, `routerStems`, `childToRouters`, `profile`",
        );
        at(r#"["global"]"#, None, "expected an object");
    }
}

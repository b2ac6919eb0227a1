//! JSON in, JSON out: request decoding and result encoding for the C ABI.
//!
//! Requests arrive as UTF-8 JSON text and are decoded with serde into the core's own types
//! (or the small request records below, for calls whose core signature takes several
//! arguments); results leave as compact JSON in a `gsd_bytes`. Scope ids are checked
//! first with the core's `parse_scope`, so a bad scope is `INVALID_SCOPE` with the core's
//! message; any other malformed request is `INVALID_ARGUMENT` naming the argument and
//! serde's reason (with line and column).

use std::collections::BTreeMap;

use gsd_core::error::boundary_error;
use gsd_core::{Error, ErrorCode, Host, Registry, Scope, SurfaceFacts, TriggerInput};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::boundary::{bytes_from_vec, gsd_bytes};

/// Decodes a JSON request; `name` is the C argument name used in error messages.
pub(crate) fn decode<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, Error> {
    // The common case, an object request, is read twice without building a `Value` of the
    // whole request: a skim that keeps only its `scope` / `scopes` members (every other
    // member is skipped unallocated) for the core's scope parser, then the typed parse.
    // Anything else (not an object, a repeated member, invalid JSON, a typed parse that
    // fails) takes the value path, whose outcome and messages are the reference.
    // (A derived struct also reads a JSON array, by position: only an object is skimmed.)
    let object = text.trim_start().starts_with('{');
    if let Some(members) = object
        .then(|| serde_json::from_str::<ScopeMembers>(text).ok())
        .flatten()
    {
        check_scopes(members.scope.as_ref(), members.scopes.as_ref())?;
        if let Ok(request) = serde_json::from_str(text) {
            return Ok(request);
        }
    }
    let bad = |e: serde_json::Error| {
        boundary_error(
            ErrorCode::InvalidArgument,
            format!("{name} is not a valid request: {e}"),
        )
    };
    let value: Value = serde_json::from_str(text).map_err(bad)?;
    check_scopes(value.get("scope"), value.get("scopes"))?;
    serde_json::from_value(value).map_err(bad)
}

/// The members of a request object that name scopes (the rest is skipped).
#[derive(Deserialize)]
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
        for id in ids.iter().filter_map(Value::as_str) {
            gsd_core::parse_scope(id)?;
        }
    }
    Ok(())
}

/// Encodes a result as compact JSON bytes.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Result<gsd_bytes, Error> {
    serde_json::to_vec(value).map(bytes_from_vec).map_err(|e| {
        boundary_error(
            ErrorCode::Panic,
            format!("internal error: cannot encode the result: {e}"),
        )
    })
}

/// A registry handle's diagnostics: the overlay-folder loader's first, then the core's.
pub(crate) fn diagnostics(registry: &crate::gsd_registry) -> Result<gsd_bytes, Error> {
    let all: Vec<_> = registry
        .edge_diagnostics
        .iter()
        .chain(registry.inner.diagnostics().iter())
        .collect();
    encode(&all)
}

/// The manifest of a registered runtime, or `UNKNOWN_RUNTIME`.
pub(crate) fn runtime_manifest(registry: &Registry, runtime: &str) -> Result<gsd_bytes, Error> {
    gsd_core::scope::lookup_runtime(registry, runtime)?;
    let capability = registry.capability(runtime).ok_or_else(|| {
        boundary_error(
            ErrorCode::UnknownRuntime,
            format!("unknown runtime '{runtime}' — not present in the capability registry"),
        )
    })?;
    encode(&capability.manifest)
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
pub(crate) fn with_overlays(base: &Registry, text: &str) -> Result<Registry, Error> {
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
pub(crate) fn install_plan(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
    let request: gsd_core::PlanRequest = decode(text, "request_json")?;
    encode(&gsd_core::resolve_install_plan(registry, &request)?)
}

/// `gsd_resolve_install_plans`: a `PlanRequest` whose `scope` is replaced by `scopes`
/// (an array of scope ids) → `PlanSet`.
pub(crate) fn install_plans(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
    let bad = |reason: &str| {
        boundary_error(
            ErrorCode::InvalidArgument,
            format!("request_json is not a valid request: {reason}"),
        )
    };
    let mut request: Value = decode(text, "request_json")?;
    let Some(fields) = request.as_object_mut() else {
        return Err(bad("expected an object"));
    };
    if fields.contains_key("scope") {
        return Err(bad(
            "unknown field `scope`, expected `scopes` (an array of scopes)",
        ));
    }
    let scopes = fields
        .remove("scopes")
        .ok_or_else(|| bad("missing field `scopes`"))?;
    let scopes: Vec<Scope> = serde_json::from_value(scopes)
        .map_err(|e| bad(&format!("`scopes` must be an array of scopes: {e}")))?;
    // Each plan takes its own scope from `scopes`; this one only completes the record.
    fields.insert("scope".to_owned(), Value::from(Scope::Global.as_str()));
    let request: gsd_core::PlanRequest =
        serde_json::from_value(request).map_err(|e| bad(&e.to_string()))?;
    encode(&gsd_core::resolve_install_plans(
        registry, &request, &scopes,
    )?)
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

/// `gsd_resolve_scope`: `{runtime, scope, host, explicitDir?}` → `ResolvedScope`.
pub(crate) fn scope(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
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
pub(crate) fn scope_probe_paths(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
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

/// Result of `gsd_resolve_config_home`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ConfigHomeResult {
    config_home: String,
    provenance: gsd_core::Provenance,
    probe_paths: Vec<String>,
}

/// `gsd_resolve_config_home`: `{runtime, host}` → `{configHome, provenance, probePaths}`.
pub(crate) fn config_home(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
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

/// `gsd_resolve_trigger_surface`: `{runtime, scopes, stems?, routerStems?, childToRouters?}`
/// → `Trigger[]`.
pub(crate) fn trigger_surface(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
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
pub(crate) fn validate(manifest: &str, folder: &str) -> Result<gsd_bytes, Error> {
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

/// Request of `gsd_resolve_installed_surfaces` and `gsd_build_shadow_report`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SurfaceRequest {
    #[serde(default)]
    runtime: Option<String>,
    host: Host,
    #[serde(default)]
    facts: SurfaceFacts,
}

/// `gsd_surface_probe_requests`: `{runtime?, host}` → `[{configHome, manifestPath}]`.
pub(crate) fn surface_probes(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
    let r: SurfaceRequest = decode(text, "request_json")?;
    encode(&gsd_core::probe_requests(
        registry,
        r.runtime.as_deref(),
        &r.host,
    )?)
}

/// `gsd_resolve_installed_surfaces`: `{runtime?, host, facts?}` → `InstalledSurfaces`.
pub(crate) fn installed_surfaces(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
    let r: SurfaceRequest = decode(text, "request_json")?;
    encode(&gsd_core::resolve_installed_surfaces(
        registry,
        r.runtime.as_deref(),
        &r.host,
        &r.facts,
    )?)
}

/// `gsd_build_shadow_report`: `{runtime, host, facts?}` → `ShadowReport`.
pub(crate) fn shadow_report(registry: &Registry, text: &str) -> Result<gsd_bytes, Error> {
    let r: SurfaceRequest = decode(text, "request_json")?;
    let runtime = r.runtime.ok_or_else(|| {
        boundary_error(
            ErrorCode::InvalidArgument,
            "request_json is not a valid request: missing field `runtime`",
        )
    })?;
    encode(&gsd_core::build_shadow_report(
        registry, &runtime, &r.host, &r.facts,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code<T: DeserializeOwned>(text: &str) -> Result<(), ErrorCode> {
        decode::<T>(text, "request_json")
            .map(drop)
            .map_err(|e| e.code())
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
        let extra = good.replace("\"host\"", "\"scopes\":[\"global\",\"Bogus\"],\"host\"");
        assert_eq!(
            code::<gsd_core::PlanRequest>(&extra),
            Err(ErrorCode::InvalidScope),
            "an unread scopes member is still checked, as on the value path"
        );
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
            Err(ErrorCode::InvalidScope),
            "last member wins"
        );
    }
}

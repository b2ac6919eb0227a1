//! Node (N-API) binding for gsd-core: exports only. Conversions live in [`convert`],
//! error mapping in [`error`]. Every export is `catch_unwind`, returns one pre-shaped
//! value per call, and fails with a JS `Error` carrying `code` and `field`.
//!
//! `host` arguments are optional: when absent the addon reads the real machine (see
//! [`convert::host`]); when given they are plain data and nothing is read.

// Reason: napi-rs hands JS strings and arrays to exports as owned values; `&str` parameters
// are not available to `#[napi]` functions.
#![allow(clippy::needless_pass_by_value)]
// Reason: a cdylib has no Rust callers; its docs are for the people working on it, who
// read them with `cargo doc --document-private-items`, where these links resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod compat;
mod convert;
mod error;
pub mod inventory;
pub mod plan;
pub mod planner;
mod rows;
mod surface;
mod text;

use gsd_core::{ConfigHome, ParsedManifest, Registry as CoreRegistry};
use napi::Env;
use napi_derive::napi;
use serde_json::Value;

use crate::convert::core;
use crate::text::Text;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use crate::error::JsCode;

/// A capability registry kept native; pass it to the resolvers to use overlays.
#[napi]
#[derive(Debug)]
pub struct Registry {
    inner: CoreRegistry,
}

#[napi]
impl Registry {
    /// The embedded first-party registry (46 capabilities, 19 runtimes).
    #[napi(factory, catch_unwind)]
    pub fn first_party() -> Self {
        Self {
            inner: CoreRegistry::first_party().clone(),
        }
    }

    /// Registered runtime ids, sorted.
    #[napi(catch_unwind)]
    pub fn runtime_ids(&self) -> Vec<String> {
        self.inner.runtime_ids().map(str::to_owned).collect()
    }

    /// Every runtime: `[{ id, descriptor }]`, sorted by id.
    #[napi(
        catch_unwind,
        ts_return_type = "Array<{ id: string; descriptor: any }>"
    )]
    pub fn runtimes(&self, env: Env) -> napi::Result<Value, JsCode> {
        convert::to_value(env, &convert::runtime_entries(&self.inner))
    }

    /// Diagnostics collected while building the registry (rejected overlays etc.), as JSON
    /// text: `index.js` parses it into `Registry.prototype.diagnostics()`. Text crosses in
    /// one piece whatever its size (a registry can hold 500k diagnostics; napi refuses to
    /// convert a value that large property by property).
    #[napi(catch_unwind)]
    pub fn diagnostics_json(&self, env: Env) -> napi::Result<String, JsCode> {
        convert::to_json(env, self.inner.diagnostics())
    }

    /// The registry in the peer's compiled `capability-registry` object shape (data only:
    /// `requiresClosure` is a method of this class).
    /// Returned as JSON text; `index.js` parses it into `Registry.prototype.toPeerJson()`.
    #[napi(catch_unwind)]
    pub fn to_peer_json_text(&self, env: Env) -> napi::Result<String, JsCode> {
        convert::to_json(env, &self.inner.to_peer_json())
    }

    /// Every id reachable from `id` through `requires` (the start id only through a cycle).
    /// An `id` that is not a string is `INVALID_ARGUMENT` on `id` (this method is called on
    /// the registry itself, with no package function to check it first).
    #[napi(catch_unwind)]
    pub fn requires_closure(
        &self,
        env: Env,
        #[napi(ts_arg_type = "string")] id: napi::Unknown<'_>,
    ) -> napi::Result<Vec<String>, JsCode> {
        let kind = id.get_type().unwrap_or(napi::ValueType::Unknown);
        if kind != napi::ValueType::String {
            let kind = format!("{kind:?}").to_lowercase();
            return Err(error::invalid_argument(
                env,
                "id",
                &format!("id must be a capability id (a string), got a value of type {kind}"),
            ));
        }
        let id = <String as napi::bindgen_prelude::FromNapiValue>::from_unknown(id)
            .map_err(|e| error::invalid_argument(env, "id", &format!("id is invalid: {e}")))?;
        Ok(self.inner.requires_closure(&id))
    }

    /// A new registry: this one plus third-party overlay folders
    /// (`[{ folder, manifest, fragments?: { [relativePath]: text } }]`). Rejected overlays
    /// are reported in `diagnostics()`, never thrown.
    #[napi(catch_unwind)]
    pub fn with_overlays(
        &self,
        env: Env,
        #[napi(
            ts_arg_type = "Array<{ folder: string; manifest: string; fragments?: Record<string, string> }>"
        )]
        overlays: Value,
    ) -> napi::Result<Registry, JsCode> {
        let overlays = convert::overlays(env, overlays)?;
        Ok(Registry {
            inner: self.inner.with_overlays(&overlays),
        })
    }
}

/// Answers `true` for a registry this addon made: napi's own conversion of the argument
/// (unwrapping the object, then checking the class's type tag) refuses anything else with
/// an error, which `index.js` catches. An object that merely inherits from
/// `Registry.prototype`, or a Proxy over a real registry, wraps nothing (`instanceof` would
/// pass both). `index.js` asks this once per object it is given as a registry, so a false
/// one is refused with a typed error before napi fails on it inside a resolver.
#[napi(catch_unwind)]
pub fn is_registry(registry: &Registry) -> bool {
    let _ = registry;
    true
}

pub(crate) fn registry_or_default(registry: Option<&Registry>) -> &CoreRegistry {
    match registry {
        Some(r) => &r.inner,
        None => CoreRegistry::first_party(),
    }
}

/// The error code table: every `code` an error of this addon may carry.
#[napi(catch_unwind)]
pub fn error_codes() -> Vec<String> {
    gsd_core::ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect()
}

/// Parses a scope id exactly (`global` | `local`), failing with `INVALID_SCOPE`.
#[napi(catch_unwind)]
pub fn parse_scope(env: Env, scope: String) -> napi::Result<String, JsCode> {
    Ok(core(env, gsd_core::parse_scope(&scope))?
        .as_str()
        .to_owned())
}

/// Every scope, highest precedence first, with its precedence rank: `[{ id, rank }]`.
#[napi(
    catch_unwind,
    ts_return_type = "Array<{ id: 'global' | 'local'; rank: number }>"
)]
pub fn scope_order() -> Value {
    gsd_core::SCOPE_ORDER
        .iter()
        .map(|s| serde_json::json!({ "id": s.as_str(), "rank": s.rank() }))
        .collect()
}

/// The closed vocabularies of the manifest format, by enum name (`configHomeKind`,
/// `installSurface`, ...), each in the peer's declaration order.
#[napi(catch_unwind, ts_return_type = "Record<string, string[]>")]
pub fn vocabulary() -> Value {
    convert::vocabulary()
}

/// Resolves one install scope of a runtime: `{ id, configHome, settingsFile,
/// consentRequired, hostPrecedenceRank, provenance }`.
#[napi(catch_unwind, ts_return_type = "any")]
pub fn resolve_scope(
    env: Env,
    runtime: String,
    scope: String,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
    explicit_dir: Option<String>,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let registry = registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let explicit = explicit_dir.as_deref();
    let host = convert::host(env, host, |h| {
        gsd_core::scope_probe_paths(registry, &runtime, scope, h, explicit)
    })?;
    let resolved = core(
        env,
        gsd_core::resolve_scope(registry, &runtime, scope, &host, explicit),
    )?;
    convert::to_value(env, &resolved)
}

/// The paths `resolveScope` would check on disk for these arguments (empty for `local`, an
/// explicit directory, or an environment override).
#[napi(catch_unwind)]
pub fn scope_probe_paths(
    env: Env,
    runtime: String,
    scope: String,
    #[napi(ts_arg_type = "any")] host: Value,
    explicit_dir: Option<String>,
    registry: Option<&Registry>,
) -> napi::Result<Vec<String>, JsCode> {
    let registry = registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let host = convert::from_value(env, "host", host)?;
    core(
        env,
        gsd_core::scope_probe_paths(registry, &runtime, scope, &host, explicit_dir.as_deref()),
    )
}

/// The global config directory of a runtime and the rule that decided it:
/// `{ configHome, provenance }`.
#[napi(
    catch_unwind,
    ts_return_type = "{ configHome: string; provenance: any }"
)]
pub fn resolve_config_home(
    env: Env,
    runtime: String,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let descriptor = core(
        env,
        gsd_core::scope::lookup_runtime(registry_or_default(registry), &runtime),
    )?;
    config_home_value(env, &descriptor.config_home, host)
}

/// Like `resolveConfigHome`, for a `configHome` descriptor given as data.
#[napi(
    catch_unwind,
    ts_return_type = "{ configHome: string; provenance: any }"
)]
pub fn resolve_config_home_of(
    env: Env,
    #[napi(ts_arg_type = "any")] config_home: Value,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
) -> napi::Result<Value, JsCode> {
    let config_home: ConfigHome = convert::from_value(env, "configHome", config_home)?;
    config_home_value(env, &config_home, host)
}

fn config_home_value(
    env: Env,
    config_home: &ConfigHome,
    host: Option<Value>,
) -> napi::Result<Value, JsCode> {
    let host = convert::host(env, host, |h| Ok(gsd_core::probe_paths(config_home, h)))?;
    let (dir, provenance) = core(env, gsd_core::resolve_config_home(config_home, &host))?;
    Ok(serde_json::json!({ "configHome": dir, "provenance": convert::to_value(env, &provenance)? }))
}

/// Exactly the paths config-home resolution would check for a `configHome` descriptor on
/// `host`, in order (a caller checks these and passes the ones that exist).
#[napi(catch_unwind)]
pub fn config_home_probe_paths(
    env: Env,
    #[napi(ts_arg_type = "any")] config_home: Value,
    #[napi(ts_arg_type = "any")] host: Value,
) -> napi::Result<Vec<String>, JsCode> {
    let config_home: ConfigHome = convert::from_value(env, "configHome", config_home)?;
    let host = convert::from_value(env, "host", host)?;
    Ok(gsd_core::probe_paths(&config_home, &host))
}

/// The artifact layout of a runtime at a scope, rooted at `configDir`.
#[napi(catch_unwind, ts_return_type = "any")]
pub fn resolve_layout(
    env: Env,
    runtime: String,
    config_dir: String,
    scope: String,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let registry = registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let host = convert::host(env, host, |_| Ok(Vec::new()))?;
    let layout = core(
        env,
        gsd_core::resolve_layout(registry, &runtime, &config_dir, scope, &host),
    )?;
    convert::to_value(env, &layout)
}

/// The trigger surface of a runtime across scopes, with `shadowedBy` on every loser, over
/// stems taken as they are (the compat module answers as the peer, whose resolver takes any
/// string). `input` is `{ stems, routerStems?, childToRouters? }`.
#[napi(catch_unwind, ts_return_type = "Array<any>")]
pub fn resolve_trigger_surface(
    env: Env,
    runtime: String,
    scopes: Vec<String>,
    #[napi(ts_arg_type = "any")] input: Value,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let registry = registry_or_default(registry);
    // The runtime is checked before the scopes, as the peer does.
    core(env, gsd_core::scope::lookup_runtime(registry, &runtime))?;
    let scopes = convert::scopes(env, &scopes)?;
    let input: gsd_core::TriggerInput = convert::from_value(env, "input", input)?;
    let triggers = core(
        env,
        gsd_core::resolve_trigger_surface_lenient(registry, &runtime, &scopes, &input),
    )?;
    convert::to_value(env, &triggers)
}

/// `resolveTriggerSurface` with `input` and the result as JSON text (one string crosses
/// each way instead of every stem and every record).
#[napi(catch_unwind)]
pub fn resolve_trigger_surface_json(
    env: Env,
    runtime: String,
    scopes: Vec<String>,
    #[napi(ts_arg_type = "string")] input: Text,
    registry: Option<&Registry>,
) -> napi::Result<String, JsCode> {
    let registry = registry_or_default(registry);
    // The runtime is checked before the scopes, as the peer does.
    core(env, gsd_core::scope::lookup_runtime(registry, &runtime))?;
    let scopes = convert::scopes(env, &scopes)?;
    let input: gsd_core::TriggerInput = convert::from_json(env, "input", &input)?;
    let triggers = core(
        env,
        gsd_core::resolve_trigger_surface(registry, &runtime, &scopes, &input),
    )?;
    convert::to_json(env, &triggers)
}

/// Whether a `commands` entry is namespaced by its directory (`commands/gsd` with prefix
/// `gsd-`), in which case files are named `<stem>.md` instead of `<prefix><stem>.md`.
#[napi(catch_unwind)]
pub fn is_namespaced_by_dir(kind: String, dest_subpath: String, prefix: String) -> bool {
    gsd_core::vocab::ArtifactKindName::parse(&kind)
        .is_some_and(|kind| gsd_core::is_namespaced_by_dir(kind, &dest_subpath, &prefix))
}

/// The file name of a command: `<stem>.md` when namespaced by directory, else `<prefix><stem>.md`.
#[napi(catch_unwind)]
pub fn compose_command_filename(namespaced_by_dir: bool, prefix: String, stem: String) -> String {
    gsd_core::compose_command_filename(namespaced_by_dir, &prefix, &stem)
}

/// The config homes the installed-surface resolver looks at for these inputs, once each:
/// `[{ configHome, manifestPath }]` (lstat both, read the manifest).
#[napi(
    catch_unwind,
    ts_return_type = "Array<{ configHome: string; manifestPath: string }>"
)]
pub fn surface_probe_requests(
    env: Env,
    runtime: Option<String>,
    #[napi(ts_arg_type = "any")] host: Value,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let host: gsd_core::Host = convert::from_value(env, "host", host)?;
    let probes = core(
        env,
        gsd_core::probe_requests(registry_or_default(registry), runtime.as_deref(), &host),
    )?;
    convert::to_value(env, &probes)
}

/// The global config-home probe paths of one runtime, or of every runtime when omitted.
#[napi(catch_unwind)]
pub fn surface_probe_paths(
    env: Env,
    runtime: Option<String>,
    #[napi(ts_arg_type = "any")] host: Value,
    registry: Option<&Registry>,
) -> napi::Result<Vec<String>, JsCode> {
    let registry = registry_or_default(registry);
    let host: gsd_core::Host = convert::from_value(env, "host", host)?;
    let ids: Vec<&str> = runtime
        .as_deref()
        .map_or_else(|| registry.runtime_ids().collect(), |id| vec![id]);
    let mut paths = Vec::new();
    for id in ids {
        match gsd_core::scope_probe_paths(registry, id, gsd_core::Scope::Global, &host, None) {
            Ok(found) => paths.extend(found),
            Err(err) if runtime.is_some() => return Err(error::to_js(env, &err)),
            Err(_) => {}
        }
    }
    Ok(paths)
}

/// Which GSD surfaces are installed, at which scopes, and the triggers they occupy:
/// `{ surfaces, diagnostics }` for one runtime or (omitted) every registered runtime.
/// `facts` (`{ homes: { [configHome]: { configHomeIsSymlink, manifestIsSymlink, manifest,
/// manifestUnreadable } } }`)
/// may be passed as data; otherwise the config homes are read from disk.
#[napi(catch_unwind, ts_return_type = "any")]
pub fn resolve_installed_surfaces(
    env: Env,
    runtime: Option<String>,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
    #[napi(ts_arg_type = "any")] facts: Option<Value>,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let registry = registry_or_default(registry);
    let runtime = runtime.as_deref();
    let (host, facts) = surface::inputs(env, registry, runtime, host, facts)?;
    let surfaces = core(
        env,
        gsd_core::resolve_installed_surfaces(registry, runtime, &host, &facts),
    )?;
    convert::to_value(env, &surfaces)
}

/// The shadow report of a runtime and its rendered lines: `{ report, lines }` (`lines` is
/// empty unless something is shadowed; at most `sampleLimit` trigger lines, default 5).
#[napi(catch_unwind, ts_return_type = "{ report: any; lines: string[] }")]
pub fn build_shadow_report(
    env: Env,
    runtime: String,
    #[napi(ts_arg_type = "any")] host: Option<Value>,
    #[napi(ts_arg_type = "any")] facts: Option<Value>,
    sample_limit: Option<u32>,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let registry = registry_or_default(registry);
    let known = gsd_core::scope::lookup_runtime(registry, &runtime).is_ok();
    let (host, facts) = if known {
        surface::inputs(env, registry, Some(&runtime), host, facts)?
    } else {
        // An unknown runtime reports `resolver_unavailable`; nothing is probed or read.
        (
            convert::host(env, host, |_| Ok(Vec::new()))?,
            gsd_core::SurfaceFacts::default(),
        )
    };
    let report = core(
        env,
        gsd_core::build_shadow_report(registry, &runtime, &host, &facts),
    )?;
    let limit = sample_limit.map_or(gsd_core::shadow::DEFAULT_SAMPLE_LIMIT, |n| n as usize);
    let lines = gsd_core::render_shadow_report(&report, limit);
    Ok(serde_json::json!({ "report": convert::to_value(env, &report)?, "lines": lines }))
}

/// Strips a manifest-supplied string for printing (ANSI, controls, bidi, zero-width).
#[napi(catch_unwind)]
pub fn sanitize_for_render(value: String) -> String {
    gsd_core::sanitize_for_render(&value)
}

/// The config / hooks / sandbox intent of a runtime (runtime-config-adapter axis).
#[napi(catch_unwind, ts_return_type = "any")]
pub fn install_intent(
    env: Env,
    runtime: String,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let intent = core(
        env,
        gsd_core::install_intent(registry_or_default(registry), &runtime),
    )?;
    convert::to_value(env, &intent)
}

/// Spells a GSD command for a runtime (`/gsd-plan-phase`, `$gsd-plan-phase` for codex).
#[napi(catch_unwind)]
pub fn format_gsd_slash(
    command_name: String,
    runtime: Option<String>,
    registry: Option<&Registry>,
) -> String {
    gsd_core::format_gsd_slash(
        registry_or_default(registry),
        &command_name,
        runtime.as_deref(),
    )
}

/// Normalizes a runtime name (trim, lower-case, `_`/whitespace runs → `-`).
#[napi(catch_unwind)]
pub fn normalize_runtime_name(value: String) -> String {
    gsd_core::normalize_runtime_name(&value)
}

/// The canonical runtime id of a name or alias, or `null`.
#[napi(catch_unwind)]
pub fn canonicalize_runtime_name(value: String) -> Option<String> {
    gsd_core::canonicalize_runtime_name(&value).map(str::to_owned)
}

/// The first candidate that normalizes to a non-empty name, canonicalized when known.
#[napi(catch_unwind)]
pub fn resolve_runtime_name_from_candidates(candidates: Vec<String>) -> Option<String> {
    let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
    gsd_core::slash::resolve_runtime_name_from_candidates(&candidates)
}

/// The manifest bounds checked before parsing: `{ maxBytes, maxDepth }`.
#[napi(
    catch_unwind,
    ts_return_type = "{ maxBytes: number; maxDepth: number }"
)]
pub fn manifest_limits() -> Value {
    serde_json::json!({
        "maxBytes": gsd_core::validate::MAX_MANIFEST_BYTES,
        "maxDepth": gsd_core::validate::MAX_MANIFEST_DEPTH,
    })
}

/// The core's refusal of an overlay file over its size bound, for a loader that read the
/// file only to one byte past the bound: `overlay_manifest_too_large` when `path` is null
/// (the folder's `capability.json`), else `overlay_fragment_too_large` naming `path`.
/// `bytes` is the file's size: a whole number, at most 2^53 - 1.
#[napi(
    catch_unwind,
    ts_return_type = "{ code: string; severity: 'error'; capabilityId: string; field?: string; message: string }"
)]
pub fn overlay_size_refusal(
    env: Env,
    folder: String,
    path: Option<String>,
    bytes: f64,
) -> napi::Result<Value, JsCode> {
    const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
    if !(0.0..=MAX_SAFE_INTEGER).contains(&bytes) || bytes.fract() != 0.0 {
        return Err(error::invalid_argument(
            env,
            "bytes",
            &format!("bytes must be a whole number from 0 to 2^53 - 1, got {bytes}"),
        ));
    }
    // In range and whole: the conversion is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let bytes = bytes as u64;
    let refusal = match path {
        None => gsd_core::registry::manifest_too_large(&folder, bytes),
        Some(path) => gsd_core::registry::fragment_too_large(&folder, &path, bytes),
    };
    convert::to_value(env, &refusal)
}

/// Resolves an install profile from its modes (`["core"]`, `["core,audit"]`) over the
/// source files: `{ name, skills: "*" | string[], agents: string[] }`. `sources` is
/// `{ commands: [{ stem, body }], workflows: [{ path, body }] }`.
#[napi(
    catch_unwind,
    ts_return_type = "{ name: string; skills: '*' | string[]; agents: string[] }"
)]
pub fn resolve_profile(
    env: Env,
    modes: Vec<String>,
    #[napi(ts_arg_type = "any")] sources: Value,
    registry: Option<&Registry>,
) -> napi::Result<Value, JsCode> {
    let sources = convert::profile_sources(env, sources)?;
    let manifest = gsd_core::profile::SkillsManifest::build(&sources);
    let modes: Vec<&str> = modes.iter().map(String::as_str).collect();
    let resolved =
        gsd_core::resolve_profile(&modes, &manifest, Some(registry_or_default(registry)));
    Ok(convert::profile_value(&resolved))
}

/// The named install profiles and their base skill lists: `{ core: [...], standard: [...] }`
/// (`full` installs everything and has no list).
#[napi(catch_unwind, ts_return_type = "Record<string, string[]>")]
pub fn profiles() -> Value {
    Value::Object(
        gsd_core::profile::PROFILES
            .iter()
            .map(|(name, list)| {
                (
                    (*name).to_owned(),
                    list.iter().map(|s| Value::from(*s)).collect(),
                )
            })
            .collect(),
    )
}

/// The most restrictive of several profile names (`core` < `standard` < `full`; unknown or
/// composed names count as `full`; none gives `full`).
#[napi(catch_unwind)]
pub fn most_restrictive_profile(names: Vec<String>) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    gsd_core::profile::most_restrictive_profile(&names).to_owned()
}

/// The `requires:` list of a command file's front matter.
#[napi(catch_unwind)]
pub fn parse_requires(text: String) -> Vec<String> {
    gsd_core::profile::parse_requires(&text)
}

/// Parses a manifest text with the size and depth bounds (errors `MANIFEST_*`).
#[napi(catch_unwind, ts_return_type = "any")]
pub fn parse_manifest(
    env: Env,
    #[napi(ts_arg_type = "string")] text: Text,
) -> napi::Result<Value, JsCode> {
    core(env, gsd_core::parse_manifest(&text))
}

/// Validates one capability manifest (text, bounded) against its folder id: the errors, in
/// the peer's order, as diagnostics (empty = valid).
#[napi(catch_unwind, ts_return_type = "Array<any>")]
pub fn validate_capability(
    env: Env,
    #[napi(ts_arg_type = "string")] text: Text,
    folder: String,
) -> napi::Result<Value, JsCode> {
    let parsed = core(env, ParsedManifest::parse(&text))?;
    convert::to_value(env, &parsed.validate(&folder))
}

/// The typed warning records of one capability manifest (text, bounded).
#[napi(catch_unwind, ts_return_type = "Array<any>")]
pub fn warning_records(
    env: Env,
    #[napi(ts_arg_type = "string")] text: Text,
) -> napi::Result<Value, JsCode> {
    let parsed = core(env, ParsedManifest::parse(&text))?;
    convert::to_value(env, &parsed.warning_records())
}

/// The errors and the warning records of one manifest text from one parse, as JSON text
/// `{"errors": [...], "warnings": [...]}`; `null` when there are neither (a valid manifest,
/// the common case, crosses with nothing to serialize or parse).
#[napi(catch_unwind)]
pub fn check_manifest_json(
    env: Env,
    #[napi(ts_arg_type = "string")] text: Text,
    folder: String,
) -> napi::Result<Option<String>, JsCode> {
    #[derive(serde::Serialize)]
    struct Checked {
        errors: Vec<gsd_core::Diagnostic>,
        warnings: Vec<gsd_core::Diagnostic>,
    }
    let parsed = core(env, ParsedManifest::parse(&text))?;
    let checked = Checked {
        errors: parsed.validate(&folder),
        warnings: parsed.warning_records(),
    };
    if checked.errors.is_empty() && checked.warnings.is_empty() {
        return Ok(None);
    }
    convert::to_json(env, &checked).map(Some)
}

/// `warningRecords` with its result as JSON text, `null` when there is none.
#[napi(catch_unwind)]
pub fn warning_records_json(
    env: Env,
    #[napi(ts_arg_type = "string")] text: Text,
) -> napi::Result<Option<String>, JsCode> {
    let parsed = core(env, ParsedManifest::parse(&text))?;
    convert::list_json(env, &parsed.warning_records())
}

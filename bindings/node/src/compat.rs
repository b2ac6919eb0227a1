//! Exports behind the compat modules (`npm/compat/*.cjs`) for the peer exports that have no
//! place in the public API: the installer's global directories by runtime id, the artifact
//! staging plan, the runtime-choice precedence, the intent of a caller-supplied
//! descriptor map and the validator's per-body steps.
//!
//! Every export takes its structured inputs as JSON text and answers JSON text: either
//! `{"ok": <value>}` or `{"error": {"code", "message", "field"}}`. Failures are data here
//! because each compat module turns them into the peer's own error class and message.

use gsd_core::{ConfigHome, Error as CoreError, Host, Registry, StagingRequest};
use napi_derive::napi;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `{"ok": value}`, or the error envelope when serialisation itself fails.
fn ok<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(v) => json!({ "ok": v }).to_string(),
        Err(e) => envelope("INVALID_ARGUMENT", &e.to_string(), None),
    }
}

fn envelope(code: &str, message: &str, field: Option<&str>) -> String {
    json!({ "error": { "code": code, "message": message, "field": field } }).to_string()
}

fn failed(err: &CoreError) -> String {
    envelope(err.code().as_str(), err.message(), err.field())
}

fn answer<T: Serialize>(result: Result<T, CoreError>) -> String {
    match result {
        Ok(v) => ok(&v),
        Err(e) => failed(&e),
    }
}

/// Parses one JSON argument; a malformed one becomes the error envelope naming `field`.
fn parse<T: DeserializeOwned>(text: &str, field: &str) -> Result<T, String> {
    serde_json::from_str(text)
        .map_err(|e| envelope("INVALID_ARGUMENT", &format!("{field}: {e}"), Some(field)))
}

/// Runs `body` over parsed arguments, folding argument errors into the answer.
fn with<F: FnOnce() -> Result<String, String>>(body: F) -> String {
    body().unwrap_or_else(|e| e)
}

/// Probe paths the global config directory and skills base of `runtime` may test.
#[napi(catch_unwind)]
pub fn compat_global_dirs_probe_paths(runtime: String, host: String) -> String {
    with(|| {
        let host: Host = parse(&host, "host")?;
        Ok(ok(&gsd_core::global_dirs_probe_paths(
            Registry::first_party(),
            &runtime,
            &host,
        )))
    })
}

/// The installer's global config directory of `runtime` (`explicitDir` first).
#[napi(catch_unwind)]
pub fn compat_global_config_dir(
    runtime: String,
    explicit_dir: Option<String>,
    host: String,
) -> String {
    with(|| {
        let host: Host = parse(&host, "host")?;
        Ok(answer(gsd_core::global_config_dir(
            Registry::first_party(),
            &runtime,
            explicit_dir.as_deref(),
            &host,
        )))
    })
}

/// The global skills base of `runtime` (`null`: the runtime has no skills directory).
#[napi(catch_unwind)]
pub fn compat_global_skills_base(runtime: String, host: String) -> String {
    with(|| {
        let host: Host = parse(&host, "host")?;
        Ok(answer(gsd_core::global_skills_base(
            Registry::first_party(),
            &runtime,
            &host,
        )))
    })
}

/// One global skill directory of `runtime` (`null`: no skills directory).
#[napi(catch_unwind)]
pub fn compat_global_skill_dir(runtime: String, skill: String, host: String) -> String {
    with(|| {
        let host: Host = parse(&host, "host")?;
        Ok(answer(gsd_core::global_skill_dir(
            Registry::first_party(),
            &runtime,
            &skill,
            &host,
        )))
    })
}

/// One global skill directory spelled for messages (`~` for the home directory).
#[napi(catch_unwind)]
pub fn compat_global_skill_display_path(runtime: String, skill: String, host: String) -> String {
    with(|| {
        let host: Host = parse(&host, "host")?;
        Ok(answer(gsd_core::global_skill_display_path(
            Registry::first_party(),
            &runtime,
            &skill,
            &host,
        )))
    })
}

/// The descriptor a skills base is resolved from (`skillsHome`, else the config home).
#[napi(catch_unwind)]
pub fn compat_skills_base_probe_paths(config_home: String, host: String) -> String {
    with(|| {
        let config_home: ConfigHome = parse(&config_home, "configHome")?;
        let host: Host = parse(&host, "host")?;
        let base = config_home.skills_home.as_deref().unwrap_or(&config_home);
        Ok(ok(&gsd_core::probe_paths(base, &host)))
    })
}

/// `join(resolve(skillsHome ?? configHome), skillsDestSubpath)`.
#[napi(catch_unwind)]
pub fn compat_skills_base_from_descriptor(
    config_home: String,
    host: String,
    skills_dest_subpath: String,
) -> String {
    with(|| {
        let config_home: ConfigHome = parse(&config_home, "configHome")?;
        let host: Host = parse(&host, "host")?;
        Ok(answer(gsd_core::skills_base_from_descriptor(
            &config_home,
            &host,
            &skills_dest_subpath,
        )))
    })
}

/// `destSubpath` confined strictly inside `root` (resolved against `cwd`).
#[napi(catch_unwind)]
pub fn compat_dest_within_root(cwd: String, root: String, dest_subpath: String) -> String {
    answer(gsd_core::layout::dest_within_root(
        &cwd,
        &root,
        &dest_subpath,
    ))
}

/// The staging plan of a layout (`{ runtime, configDir, scope, home, cwd, kinds }`).
#[napi(catch_unwind)]
pub fn compat_staging_plan(request: String) -> String {
    with(|| {
        let request: StagingRequest = parse(&request, "layout")?;
        Ok(ok(&gsd_core::staging_plan(&request)))
    })
}

/// The explicit runtime from `GSD_RUNTIME` and the project config's `runtime` (`null`: none).
#[napi(catch_unwind)]
pub fn compat_explicit_runtime(
    env_runtime: Option<String>,
    config_runtime: Option<String>,
) -> String {
    ok(&gsd_core::explicit_runtime(
        env_runtime.as_deref(),
        config_runtime.as_deref(),
    ))
}

/// The effective runtime: explicit, else the install marker, else `claude`.
#[napi(catch_unwind)]
pub fn compat_resolve_runtime(explicit: Option<String>, marker: Option<String>) -> String {
    ok(&gsd_core::resolve_runtime(
        explicit.as_deref(),
        marker.as_deref(),
    ))
}

/// The install intent of `runtime` in a caller-supplied descriptor map (JSON).
#[napi(catch_unwind)]
pub fn compat_descriptor_intent(descriptors: String, runtime: String) -> String {
    with(|| {
        let descriptors: Value = parse(&descriptors, "runtimeDescriptors")?;
        Ok(answer(gsd_core::descriptor_intent(&descriptors, &runtime)))
    })
}

/// The profile named by a marker file's text (`null`: none).
#[napi(catch_unwind)]
pub fn compat_parse_profile_marker(text: String) -> String {
    ok(&gsd_core::parse_profile_marker(&text))
}

/// Where the effective profile comes from: `{ source: "requested" | "marker" | "full", profile? }`.
#[napi(catch_unwind)]
pub fn compat_effective_profile(requested: bool, marker: Option<String>) -> String {
    ok(&gsd_core::effective_profile(requested, marker.as_deref()))
}

/// Whether a legacy install mode keeps only the minimal skill set.
#[napi(catch_unwind)]
pub fn compat_is_minimal_mode(mode: String) -> bool {
    gsd_core::install_choice::is_minimal_mode(&mode)
}

/// Whether a capability skill stem can name a directory of its own.
#[napi(catch_unwind)]
pub fn compat_is_safe_skill_stem(stem: String) -> bool {
    gsd_core::install_choice::is_safe_skill_stem(&stem)
}

/// The environment variables the core reads from a host over the first-party registry
/// (`skills_base::env_names_read`): the compat modules read exactly these from the
/// caller's `env`, each as the peer does (`env[name]`).
#[napi(catch_unwind)]
pub fn compat_env_names() -> Vec<String> {
    gsd_core::skills_base::env_names_read(gsd_core::Registry::first_party())
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The marker file names, and the skills manifest's key prefix of a command's agents:
/// `{ profile, capabilitySkill, callsAgentsPrefix }`.
#[napi(catch_unwind)]
pub fn compat_profile_markers() -> String {
    ok(&json!({
        "profile": gsd_core::install_choice::PROFILE_MARKER_NAME,
        "capabilitySkill": gsd_core::install_choice::CAPABILITY_SKILL_MARKER,
        "callsAgentsPrefix": gsd_core::profile::CALLS_AGENTS_PREFIX,
    }))
}

/// A capability map crossing as `[[id, requires], …]` in map order.
fn requires_entries(text: &str) -> Result<Vec<gsd_core::RequiresEntry>, String> {
    let pairs: Vec<(String, Option<Value>)> = parse(text, "capMap")?;
    Ok(pairs
        .into_iter()
        .map(|(id, requires)| gsd_core::RequiresEntry { id, requires })
        .collect())
}

/// Every `requires` cycle of a capability map (`[[id, requires], …]`).
#[napi(catch_unwind)]
pub fn compat_detect_requires_cycles(entries: String) -> String {
    with(|| {
        Ok(ok(&gsd_core::detect_requires_cycles(&requires_entries(
            &entries,
        )?)))
    })
}

/// The `requires` closure of `id` (JSON) over a capability map (`[[id, requires], …]`).
#[napi(catch_unwind)]
pub fn compat_requires_closure(id: String, entries: String) -> String {
    with(|| {
        let id: Value = parse(&id, "id")?;
        Ok(ok(&gsd_core::requires_closure_of(
            &id,
            &requires_entries(&entries)?,
        )))
    })
}

/// The run order (indices) of hook entries (`[[capId, produces, consumes], …]`).
#[napi(catch_unwind)]
pub fn compat_order_hook_entries(
    entries: String,
    hook_kind: String,
    point: Option<String>,
) -> String {
    with(|| {
        let rows: Vec<(String, Vec<String>, Vec<String>)> = parse(&entries, "entries")?;
        let point: Option<Value> = match point {
            Some(p) => Some(parse(&p, "point")?),
            None => None,
        };
        let entries: Vec<gsd_core::HookEntry> = rows
            .into_iter()
            .map(|(cap_id, produces, consumes)| gsd_core::HookEntry {
                cap_id,
                produces,
                consumes,
            })
            .collect();
        Ok(answer(gsd_core::order_hook_entries(
            &entries,
            &hook_kind,
            point.as_ref(),
        )))
    })
}

/// The error messages of one per-body step of the validator (`body`: `envelope`,
/// `feature`, `runtime` or `reviewer`) on a manifest given as JSON text (bounded).
#[napi(catch_unwind)]
pub fn compat_validate_body(body: String, manifest: String) -> String {
    with(|| {
        let body = match body.as_str() {
            "envelope" => gsd_core::Body::Envelope,
            "feature" => gsd_core::Body::Feature,
            "runtime" => gsd_core::Body::Runtime,
            "reviewer" => gsd_core::Body::Reviewer,
            other => {
                return Err(envelope(
                    "INVALID_ARGUMENT",
                    &format!(
                        "body must be one of: envelope, feature, runtime, reviewer (got: {other})"
                    ),
                    Some("body"),
                ));
            }
        };
        let manifest = gsd_core::ParsedManifest::parse(&manifest).map_err(|e| failed(&e))?;
        let messages: Vec<String> = manifest
            .validate_body(body)
            .into_iter()
            .map(|d| d.message)
            .collect();
        Ok(ok(&messages))
    })
}

/// The peer's skills manifest `Map` as its entries, `[[key, list], ...]`: per command, in
/// the order given, its stem with its `requires:` list, then `_calls_agents_<stem>` with
/// the agent tokens it and the workflows it names name. `sources` is
/// `{"commands": [{"stem", "body"}], "workflows": [{"path", "body"}]}`.
#[napi(catch_unwind)]
pub fn compat_skills_manifest(sources: String) -> String {
    with(|| {
        let sources: gsd_core::ProfileSources = parse(&sources, "sources")?;
        let manifest = gsd_core::SkillsManifest::build(&sources);
        let mut entries: Vec<(String, &[String])> = Vec::with_capacity(2 * sources.commands.len());
        for command in &sources.commands {
            let stem = &command.stem;
            entries.push((stem.clone(), manifest.requires_of(stem).unwrap_or_default()));
            entries.push((
                format!("{}{stem}", gsd_core::profile::CALLS_AGENTS_PREFIX),
                manifest.agents_of(stem).unwrap_or_default(),
            ));
        }
        Ok(ok(&entries))
    })
}

/// `resolveProfile` over a peer-shaped manifest: `request` is `{"modes": [...], "entries":
/// [[key, [...]], ...], "capabilitySkills": {mode: [...]}}` (the manifest `Map`'s entries,
/// and the skills the caller's registry adds to each mode). Answers `{ name, skills: "*" |
/// [...], agents: [...] }`.
#[napi(catch_unwind)]
pub fn compat_resolve_profile(request: String) -> String {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Request {
        modes: Vec<String>,
        entries: Vec<(String, Vec<String>)>,
        capability_skills: std::collections::HashMap<String, Vec<String>>,
    }
    with(|| {
        let request: Request = parse(&request, "request")?;
        let manifest = gsd_core::SkillsManifest::from_peer_entries(request.entries);
        let modes: Vec<&str> = request.modes.iter().map(String::as_str).collect();
        let resolved = gsd_core::profile::resolve_profile_with(&modes, &manifest, |mode| {
            request
                .capability_skills
                .get(mode)
                .cloned()
                .unwrap_or_default()
        });
        Ok(ok(&crate::convert::profile_value(&resolved)))
    })
}

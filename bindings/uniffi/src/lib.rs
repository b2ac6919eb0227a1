//! uniffi binding for gsd-core (Python, Kotlin, Swift), built with proc-macros only.
//!
//! Exports: the [`Registry`] object, functions returning typed records, and one error
//! enum [`GsdError`] with a variant per core error code. A panic inside the library
//! reaches the foreign side as uniffi's internal error, never as a crash.
//!
//! This file holds the exports only; records live in `types`, the error mapping in `error`.

#![allow(
    clippy::needless_pass_by_value,
    reason = "uniffi lifts foreign arguments into owned values"
)]

mod error;
mod types;

use std::collections::HashMap;
use std::sync::Arc;

use gsd_core::ErrorCode;

pub use error::GsdError;
pub use types::{
    Diagnostic, ErrorCodeEntry, HomeProbe, Host, Overlay, Placement, Plan, PlanRequest, PlanSet,
    ProfileSelection, ResolvedScope, Scope, Severity, ShadowedBy, Trigger, Validation,
};

uniffi::setup_scaffolding!();

/// An immutable capability registry: the embedded first-party capabilities, optionally
/// with overlays. Cheap to share between threads.
#[derive(Debug, uniffi::Object)]
pub struct Registry {
    inner: gsd_core::Registry,
}

#[uniffi::export]
impl Registry {
    /// The embedded first-party registry.
    #[uniffi::constructor]
    pub fn first_party() -> Arc<Self> {
        Arc::new(Self {
            inner: gsd_core::Registry::first_party().clone(),
        })
    }

    /// The registered runtime ids, sorted.
    pub fn runtime_ids(&self) -> Vec<String> {
        self.inner.runtime_ids().map(str::to_owned).collect()
    }

    /// Diagnostics collected while building the registry (e.g. rejected overlays).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.inner
            .diagnostics()
            .iter()
            .map(Diagnostic::from)
            .collect()
    }

    /// A new registry with third-party overlays added. A rejected overlay is left out and
    /// reported in the new registry's `diagnostics()`.
    pub fn with_overlays(&self, overlays: Vec<Overlay>) -> Arc<Self> {
        let overlays: Vec<gsd_core::Overlay> = overlays.into_iter().map(Into::into).collect();
        Arc::new(Self {
            inner: self.inner.with_overlays(&overlays),
        })
    }

    /// The ids of the third-party capabilities admitted from overlays, sorted.
    pub fn third_party_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .inner
            .capabilities()
            .filter(|c| self.inner.is_third_party(&c.id))
            .map(|c| c.id.clone())
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The capability manifest of a registered runtime, as JSON.
    pub fn runtime_manifest_json(&self, runtime: String) -> Result<String, GsdError> {
        let capability = gsd_core::scope::runtime_capability(&self.inner, &runtime)?;
        Ok(capability.manifest.to_string())
    }

    /// The install plan of one runtime at one scope.
    pub fn resolve_install_plan(&self, request: PlanRequest) -> Result<Plan, GsdError> {
        let core = core_request(request)?;
        Ok(Plan::from(&gsd_core::resolve_install_plan(
            &self.inner,
            &core,
        )?))
    }

    /// The install plans of one runtime at several scopes (`scopes`: `global` / `local`,
    /// any order, duplicates ignored; `request.scope` is not used and may be empty), with
    /// the trigger surface across them where cross-scope shadowing shows.
    pub fn resolve_install_plans(
        &self,
        request: PlanRequest,
        scopes: Vec<String>,
    ) -> Result<PlanSet, GsdError> {
        let scopes = parse_scopes(&scopes)?;
        let request = PlanRequest {
            scope: gsd_core::Scope::Global.as_str().to_owned(),
            ..request
        };
        let core = core_request(request)?;
        Ok(PlanSet::from(&gsd_core::resolve_install_plans(
            &self.inner,
            &core,
            &scopes,
        )?))
    }

    /// Resolves one install scope (`scope`: exactly `global` or `local`).
    pub fn resolve_scope(
        &self,
        runtime: String,
        scope: String,
        host: Host,
        explicit_dir: Option<String>,
    ) -> Result<ResolvedScope, GsdError> {
        let scope = gsd_core::parse_scope(&scope)?;
        let resolved = gsd_core::resolve_scope(
            &self.inner,
            &runtime,
            scope,
            &host.into(),
            explicit_dir.as_deref(),
        )?;
        Ok(ResolvedScope::from(&resolved))
    }

    /// The host paths `resolve_scope` may test for the same arguments, in test order.
    pub fn scope_probe_paths(
        &self,
        runtime: String,
        scope: String,
        host: Host,
        explicit_dir: Option<String>,
    ) -> Result<Vec<String>, GsdError> {
        let scope = gsd_core::parse_scope(&scope)?;
        Ok(gsd_core::scope_probe_paths(
            &self.inner,
            &runtime,
            scope,
            &host.into(),
            explicit_dir.as_deref(),
        )?)
    }

    /// The trigger surface of `runtime` across `scopes` for the given command stems.
    pub fn resolve_trigger_surface(
        &self,
        runtime: String,
        scopes: Vec<String>,
        stems: Vec<String>,
        router_stems: Vec<String>,
        child_to_routers: HashMap<String, Vec<String>>,
    ) -> Result<Vec<Trigger>, GsdError> {
        let scopes = parse_scopes(&scopes)?;
        let input = gsd_core::TriggerInput {
            stems,
            router_stems,
            child_to_routers: child_to_routers.into_iter().collect(),
        };
        let triggers = gsd_core::resolve_trigger_surface(&self.inner, &runtime, &scopes, &input)?;
        Ok(triggers.iter().map(Trigger::from).collect())
    }

    /// The config homes whose facts `installed_surfaces_json` and `shadow_report_json`
    /// read, for `runtime` (or every runtime when `None`) on `host`: for each, `lstat` the
    /// home and its manifest, and read the manifest when it is a regular file (the shape
    /// of `facts_json` is in docs/uniffi.md).
    pub fn surface_probe_requests(
        &self,
        runtime: Option<String>,
        host: Host,
    ) -> Result<Vec<HomeProbe>, GsdError> {
        let probes = gsd_core::probe_requests(&self.inner, runtime.as_deref(), &host.into())?;
        Ok(probes.into_iter().map(HomeProbe::from).collect())
    }

    /// Installed surfaces as JSON (`{"surfaces", "diagnostics"}`); `facts_json` is the
    /// `SurfaceFacts` JSON (`{"homes": {...}}`) the caller collected (`"{}"` for none).
    /// `runtime` `None` reports every runtime.
    pub fn installed_surfaces_json(
        &self,
        runtime: Option<String>,
        host: Host,
        facts_json: String,
    ) -> Result<String, GsdError> {
        let facts = surface_facts(&facts_json)?;
        let surfaces = gsd_core::resolve_installed_surfaces(
            &self.inner,
            runtime.as_deref(),
            &host.into(),
            &facts,
        )?;
        Ok(types::json(&surfaces))
    }

    /// The shadow report of `runtime` as JSON; `facts_json` as for `installed_surfaces_json`.
    pub fn shadow_report_json(
        &self,
        runtime: String,
        host: Host,
        facts_json: String,
    ) -> Result<String, GsdError> {
        let facts = surface_facts(&facts_json)?;
        let report = gsd_core::build_shadow_report(&self.inner, &runtime, &host.into(), &facts)?;
        Ok(types::json(&report))
    }
}

/// The core request of a foreign `PlanRequest` (the scope through the core's parser).
fn core_request(request: PlanRequest) -> Result<gsd_core::PlanRequest, GsdError> {
    Ok(gsd_core::PlanRequest {
        runtime: request.runtime,
        scope: gsd_core::parse_scope(&request.scope)?,
        host: request.host.into(),
        explicit_dir: request.explicit_dir,
        commands: request.commands,
        agents: request.agents,
        router_stems: request.router_stems,
        child_to_routers: request.child_to_routers.into_iter().collect(),
        profile: request.profile.map(|p| gsd_core::ProfileSelection {
            skills: p.skills,
            agents: p.agents,
        }),
    })
}

/// Scope ids through the core's exact parser.
fn parse_scopes(scopes: &[String]) -> Result<Vec<gsd_core::Scope>, GsdError> {
    Ok(gsd_core::parse_scopes(scopes)?)
}

/// The `SurfaceFacts` of `facts_json`: objects only at every depth (an array is never read
/// by position), the value at fault named by its path, and caller text in the message
/// rendered safe to print (serde repeats unknown keys as they are).
fn surface_facts(text: &str) -> Result<gsd_core::SurfaceFacts, GsdError> {
    let invalid = |at: Option<String>, reason: String| {
        let reason = gsd_core::sanitize::sanitize_text(&reason, MAX_REASON_CHARS);
        GsdError::InvalidArgument {
            message: match at {
                Some(at) => format!(
                    "facts_json is not valid SurfaceFacts JSON: {}: {reason}",
                    gsd_core::sanitize::sanitize_text(&at, MAX_REASON_CHARS)
                ),
                None => format!("facts_json is not valid SurfaceFacts JSON: {reason}"),
            },
        }
    };
    // The path-tracking read below recurses once per level: deep text is refused first, so
    // a caller's thread with a small stack is safe.
    let limit = gsd_core::strict::MAX_REQUEST_DEPTH;
    if gsd_core::validate::nests_deeper_than(text, limit) {
        return Err(invalid(
            None,
            format!("it nests arrays/objects deeper than {limit} levels"),
        ));
    }
    // Read through `Strict` as text first: a `Value` would keep the last of a repeated
    // member unseen (`{"homes":{},"homes":{...}}`); the repeat is named at its object.
    let mut reader = serde_json::Deserializer::from_str(text);
    let value: serde_json::Value =
        serde_path_to_error::deserialize(gsd_core::strict::Strict(&mut reader)).map_err(
            |e: serde_path_to_error::Error<serde_json::Error>| match e.inner().classify() {
                serde_json::error::Category::Data => {
                    invalid(gsd_core::strict::error_field(&e), e.inner().to_string())
                }
                _ => invalid(None, e.inner().to_string()),
            },
        )?;
    reader.end().map_err(|e| invalid(None, e.to_string()))?;
    serde_path_to_error::deserialize(gsd_core::strict::Strict(value)).map_err(
        |e: serde_path_to_error::Error<serde_json::Error>| {
            invalid(gsd_core::strict::error_field(&e), e.inner().to_string())
        },
    )
}

/// How much of serde's reason (which may repeat a caller's key) a message keeps.
const MAX_REASON_CHARS: usize = 512;

/// Validates one capability manifest (its `capability.json` text and folder name). Bound
/// violations and unparsable text raise `ManifestTooLarge`, `ManifestTooDeep`,
/// `ManifestInvalidJson`; validation findings are returned, not raised.
#[uniffi::export]
pub fn validate_capability(manifest: String, folder: String) -> Result<Validation, GsdError> {
    let parsed = gsd_core::ParsedManifest::parse(&manifest)?;
    let errors = parsed.validate(&folder);
    let warnings = if errors.is_empty() {
        parsed.warning_records()
    } else {
        Vec::new()
    };
    Ok(Validation {
        valid: errors.is_empty(),
        errors: errors.iter().map(Diagnostic::from).collect(),
        warnings: warnings.iter().map(Diagnostic::from).collect(),
    })
}

/// The library version, e.g. `0.1.0`.
#[uniffi::export]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The stable error-code table, in the core's order (for binding coverage tests).
#[uniffi::export]
pub fn error_codes() -> Vec<ErrorCodeEntry> {
    ErrorCode::ALL
        .iter()
        .map(|c| ErrorCodeEntry {
            name: c.as_str().to_owned(),
            status: c.status(),
        })
        .collect()
}

/// Fails with the `GsdError` variant of the code named `name` (e.g. `INVALID_SCOPE`),
/// carrying `message`. Lets foreign tests prove every code reaches them as its own
/// exception type. An unknown name is an `InvalidArgument` failure.
#[uniffi::export]
pub fn raise_error_code(name: String, message: String) -> Result<(), GsdError> {
    let code = ErrorCode::parse(&name).ok_or_else(|| GsdError::InvalidArgument {
        message: format!(
            "unknown error code \"{}\"",
            gsd_core::sanitize::sanitize_value(&name)
        ),
    })?;
    Err(GsdError::from_code(code, message))
}

/// Test-only: panics inside the library, to prove the foreign caller gets uniffi's internal
/// error and keeps running. Built only with the `test-panic` cargo feature.
#[cfg(feature = "test-panic")]
#[uniffi::export]
pub fn test_panic() {
    panic!("test_panic: deliberate panic");
}

//! Typed records of the foreign API and their conversions from core values.
//!
//! Nested values that are not worth a typed mirror travel as JSON strings (fields named
//! `*_json`); everything a caller branches on is typed.

use std::collections::HashMap;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// The input is accepted; something is worth knowing.
    Warning,
    /// Informational.
    Info,
}

impl From<gsd_core::Severity> for Severity {
    fn from(severity: gsd_core::Severity) -> Self {
        match severity {
            gsd_core::Severity::Error => Self::Error,
            gsd_core::Severity::Warning => Self::Warning,
            gsd_core::Severity::Info => Self::Info,
        }
    }
}

/// One typed finding (validation result, shadowing notice, rejected overlay).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Diagnostic {
    /// Stable `snake_case` machine code, e.g. `invalid_enum`.
    pub code: String,
    /// Error, warning or info.
    pub severity: Severity,
    /// The capability the finding is about, when there is one.
    pub capability_id: Option<String>,
    /// The dotted field path at fault, when there is one.
    pub field: Option<String>,
    /// The sanitized human message.
    pub message: String,
    /// Extra typed detail as JSON, when there is some.
    pub detail_json: Option<String>,
}

impl From<&gsd_core::Diagnostic> for Diagnostic {
    fn from(d: &gsd_core::Diagnostic) -> Self {
        Self {
            code: d.code.clone(),
            severity: d.severity.into(),
            capability_id: d.capability_id.clone(),
            field: d.field.clone(),
            message: d.message.clone(),
            detail_json: d.detail_value().map(|v| v.to_string()),
        }
    }
}

/// One config home to look at before asking for installed surfaces: `lstat` it (is it a
/// symbolic link?), and `lstat` and read its manifest when present.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct HomeProbe {
    /// The config home.
    pub config_home: String,
    /// `<config_home>/gsd-file-manifest.json`.
    pub manifest_path: String,
}

impl From<gsd_core::surface::HomeProbe> for HomeProbe {
    fn from(p: gsd_core::surface::HomeProbe) -> Self {
        Self {
            config_home: p.config_home,
            manifest_path: p.manifest_path,
        }
    }
}

/// One row of the stable error-code table shared by every binding.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ErrorCodeEntry {
    /// The code's spelling, e.g. `UNKNOWN_RUNTIME` (the `GsdError` variant is its CamelCase).
    pub name: String,
    /// The numeric status of the C API (`GSD_STATUS_<name>`).
    pub status: u32,
}

/// An install scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Scope {
    /// `global`: the user's config home (precedence rank 2).
    Global,
    /// `local`: the project's config directory (precedence rank 1).
    Local,
}

impl From<gsd_core::Scope> for Scope {
    fn from(scope: gsd_core::Scope) -> Self {
        match scope {
            gsd_core::Scope::Global => Self::Global,
            gsd_core::Scope::Local => Self::Local,
        }
    }
}

/// The wire spelling of a closed-vocabulary value (`"skills"`, `"slash-hyphen"`, ...).
pub(crate) fn wire<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// A nested value as compact JSON.
pub(crate) fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Everything the resolver may know about the machine (plain data; the core does no IO).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Host {
    /// The user's home directory (absolute POSIX path).
    pub home: String,
    /// The working directory (project root for the `local` scope).
    pub cwd: String,
    /// Environment snapshot (only variables a descriptor names are read).
    #[uniffi(default)]
    pub env: HashMap<String, String>,
    /// Probe paths known to exist (see `Registry.scope_probe_paths`).
    #[uniffi(default)]
    pub existing_paths: Vec<String>,
}

impl From<Host> for gsd_core::Host {
    fn from(host: Host) -> Self {
        let mut core = gsd_core::Host::new(host.home, host.cwd);
        core.env = host.env.into_iter().collect();
        core.existing_paths = host.existing_paths.into_iter().collect();
        core
    }
}

/// One resolved install scope.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ResolvedScope {
    /// The scope.
    pub id: Scope,
    /// The config directory artifacts are installed into.
    pub config_home: String,
    /// The settings file name for this scope, if the runtime declares one.
    pub settings_file: Option<String>,
    /// Whether writing into this scope needs the user's consent (`local`).
    pub consent_required: bool,
    /// Host precedence rank: global 2, local 1.
    pub host_precedence_rank: u8,
    /// Which rule decided `config_home`, as JSON (`{"source": ...}`).
    pub provenance_json: String,
}

impl From<&gsd_core::ResolvedScope> for ResolvedScope {
    fn from(s: &gsd_core::ResolvedScope) -> Self {
        Self {
            id: s.id.into(),
            config_home: s.config_home.clone(),
            settings_file: s.settings_file.clone(),
            consent_required: s.consent_required,
            host_precedence_rank: s.host_precedence_rank,
            provenance_json: json(&s.provenance),
        }
    }
}

/// The winner that shadows a trigger candidate.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ShadowedBy {
    /// The winner's kind (`skills` or `commands`).
    pub kind: String,
    /// The winner's scope.
    pub scope: Scope,
}

/// One trigger candidate of a trigger surface.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Trigger {
    /// What the user types (without `/`).
    pub trigger: String,
    /// The artifact kind bearing it (`skills` or `commands`).
    pub kind: String,
    /// The scope it is installed at.
    pub scope: Scope,
    /// Destination relative to the config directory.
    pub dest_path: String,
    /// `direct` or `via-router`.
    pub registration: String,
    /// The router's trigger when `via-router`.
    pub router_trigger: Option<String>,
    /// The winner, when this candidate loses.
    pub shadowed_by: Option<ShadowedBy>,
}

impl From<gsd_core::Trigger<'_>> for Trigger {
    fn from(t: gsd_core::Trigger<'_>) -> Self {
        Self {
            trigger: t.trigger.to_owned(),
            kind: wire(&t.kind),
            scope: t.scope.into(),
            dest_path: t.dest_path.to_owned(),
            registration: wire(&t.registration),
            router_trigger: t.router_trigger.map(str::to_owned),
            shadowed_by: t.shadowed_by.map(|w| ShadowedBy {
                kind: wire(&w.kind),
                scope: w.scope.into(),
            }),
        }
    }
}

/// One file the installer writes.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Placement {
    /// The artifact kind (`commands`, `skills`, `agents`, `kimi-agents`).
    pub kind: String,
    /// The source stem.
    pub stem: String,
    /// Source path relative to the package root.
    pub source: String,
    /// Absolute destination.
    pub destination: String,
    /// Body converter by name, when the file is converted.
    pub converter: Option<String>,
}

impl From<gsd_core::Placement<'_>> for Placement {
    fn from(p: gsd_core::Placement<'_>) -> Self {
        Self {
            kind: wire(&p.kind),
            stem: p.stem.to_owned(),
            source: p.source.to_owned(),
            destination: p.destination.to_owned(),
            converter: p.converter.as_ref().map(wire),
        }
    }
}

/// Install-profile allow-lists; `None` installs everything of that class.
#[derive(Debug, Clone, Default, PartialEq, Eq, uniffi::Record)]
pub struct ProfileSelection {
    /// Command stems to install; `None` = all.
    #[uniffi(default)]
    pub skills: Option<Vec<String>>,
    /// Agent stems to install; `None` = all.
    #[uniffi(default)]
    pub agents: Option<Vec<String>>,
}

/// Everything one install plan is computed from.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PlanRequest {
    /// Runtime id (exact).
    pub runtime: String,
    /// `global` or `local` (exact; anything else raises `GsdError.InvalidScope`).
    pub scope: String,
    /// Host facts.
    pub host: Host,
    /// Explicit config directory (`--config-dir`).
    #[uniffi(default)]
    pub explicit_dir: Option<String>,
    /// Command stems of the source inventory.
    #[uniffi(default)]
    pub commands: Vec<String>,
    /// Agent stems of the source inventory.
    #[uniffi(default)]
    pub agents: Vec<String>,
    /// Router command stems.
    #[uniffi(default)]
    pub router_stems: Vec<String>,
    /// Routed child stem → owning routers, first owner first.
    #[uniffi(default)]
    pub child_to_routers: HashMap<String, Vec<String>>,
    /// Install-profile selection; `None` = full.
    #[uniffi(default)]
    pub profile: Option<ProfileSelection>,
}

/// The install plan for one runtime at one scope. Nested groups that callers rarely
/// branch on travel as JSON strings (`*_json`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Plan {
    /// Runtime id.
    pub runtime: String,
    /// The resolved scope.
    pub scope: ResolvedScope,
    /// `slash-hyphen` or `shell-var`.
    pub command_style: String,
    /// Config-writing intent, as JSON.
    pub config_json: String,
    /// Hook registration facts, as JSON.
    pub hooks_json: String,
    /// Per-agent sandbox primitive (`none`, `codex-agent-sandbox`).
    pub sandbox_tier: String,
    /// GSD coverage tier.
    pub support_tier: u8,
    /// The layout kinds, as JSON.
    pub kinds_json: String,
    /// Every file to write.
    pub placements: Vec<Placement>,
    /// What an uninstall clears, as JSON.
    pub uninstall_json: String,
    /// The trigger surface at this scope.
    pub triggers: Vec<Trigger>,
    /// The install-manifest record, as JSON.
    pub install_manifest_json: String,
    /// Typed findings.
    pub diagnostics: Vec<Diagnostic>,
}

impl From<&gsd_core::Plan> for Plan {
    fn from(p: &gsd_core::Plan) -> Self {
        Self {
            runtime: p.runtime.clone(),
            scope: (&p.scope).into(),
            command_style: wire(&p.command_style),
            config_json: json(&p.config),
            hooks_json: json(&p.hooks),
            sandbox_tier: wire(&p.sandbox_tier),
            support_tier: p.support_tier,
            kinds_json: json(&p.kinds),
            placements: p.placements.iter().map(Placement::from).collect(),
            uninstall_json: json(&p.uninstall),
            triggers: p.triggers.iter().map(Trigger::from).collect(),
            install_manifest_json: json(&p.install_manifest),
            diagnostics: p.diagnostics.iter().map(Diagnostic::from).collect(),
        }
    }
}

/// Plans for several scopes of one runtime, with the trigger surface across them.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PlanSet {
    /// One plan per scope, global first (each equals the single-scope plan).
    pub plans: Vec<Plan>,
    /// The trigger surface across every planned scope (cross-scope shadowing included).
    pub triggers: Vec<Trigger>,
    /// `trigger_shadowed` warnings of the combined surface.
    pub diagnostics: Vec<Diagnostic>,
}

impl From<&gsd_core::PlanSet> for PlanSet {
    fn from(set: &gsd_core::PlanSet) -> Self {
        Self {
            plans: set.plans.iter().map(Plan::from).collect(),
            triggers: set.triggers.iter().map(Trigger::from).collect(),
            diagnostics: set.diagnostics.iter().map(Diagnostic::from).collect(),
        }
    }
}

/// One third-party capability folder, as the caller read it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Overlay {
    /// Folder name (must equal the manifest id).
    pub folder: String,
    /// `capability.json` text.
    pub manifest: String,
    /// Other files of the folder: relative path (with `/`) → text.
    #[uniffi(default)]
    pub fragments: HashMap<String, String>,
}

impl From<Overlay> for gsd_core::Overlay {
    fn from(o: Overlay) -> Self {
        let mut fragments: Vec<(String, String)> = o.fragments.into_iter().collect();
        fragments.sort();
        Self {
            folder: o.folder,
            manifest: o.manifest,
            fragments,
        }
    }
}

/// The outcome of validating one capability manifest.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Validation {
    /// No errors.
    pub valid: bool,
    /// Errors (any error rejects the capability).
    pub errors: Vec<Diagnostic>,
    /// Warnings (only for a valid manifest).
    pub warnings: Vec<Diagnostic>,
}

//! The install plan: one immutable, serializable value composed from scope, layout and
//! trigger resolution for one runtime, one scope and one host.
//!
//! The plan says everything an installer needs to write (every placement with its source,
//! confined destination and converter), what an uninstaller removes, which triggers the
//! user will see and which are shadowed, and the install-manifest record to write. Same
//! request, same bytes.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::diagnostic::{Diagnostic, Severity, ShadowDetail};
use crate::error::{Error, ErrorCode};
use crate::host::Host;
pub use crate::intent::{ConfigIntent, Hooks, InstallIntent, install_intent};
use crate::layout::ArtifactKind;
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::scope::{ResolvedScope, installable, lookup_runtime};
use crate::trigger::{Routes, ShadowedBy, Stems, Trigger, Triggers, has_duplicates, surface_of};
use crate::vocab::{ArtifactKindName, CommandStyle, Nesting, SandboxTier, Scope};
use crate::words;

mod decide;
mod placement;
mod placements;

pub use decide::{
    CODE_CONFIG_HOME_RELATIVE, CODE_OUTSIDE_EXPLICIT_DIR, Inventory, PlanCounts, PlanDecision,
    decide_install_plan,
};
pub use placement::{Routers, derive_routers};
pub(crate) use placement::{agent_suffix_problem, agent_suffix_refusal};
use placement::{is_plain_stem, routing_applies};
pub use placements::{Placement, PlacementIter, Placements};

/// Install-profile allow-lists; `None` installs everything of that class.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileSelection {
    /// Command stems to install (as commands and skills); `None` = all.
    #[serde(default)]
    pub skills: Option<Vec<String>>,
    /// Agent stems to install; `None` = all.
    #[serde(default)]
    pub agents: Option<Vec<String>>,
}

impl From<&crate::ResolvedProfile> for ProfileSelection {
    /// The selection a resolved profile makes: everything for `full` (both lists `None`:
    /// a full profile names no agents, which must not read as "no agents"), else its skills
    /// and the agents they name.
    fn from(profile: &crate::ResolvedProfile) -> Self {
        match &profile.skills {
            crate::profile::ProfileSkills::All => Self::default(),
            crate::profile::ProfileSkills::Only(skills) => Self {
                skills: Some(skills.clone()),
                agents: Some(profile.agents.clone()),
            },
        }
    }
}

/// Everything one plan is computed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanRequest {
    /// Runtime id (exact).
    pub runtime: String,
    /// Install scope.
    pub scope: Scope,
    /// Host facts.
    pub host: Host,
    /// Explicit config directory (`--config-dir`), when given.
    #[serde(default)]
    pub explicit_dir: Option<String>,
    /// Command stems of the source inventory (`commands/gsd/<stem>.md`).
    #[serde(default)]
    pub commands: Vec<String>,
    /// Agent stems of the source inventory (`agents/<stem>.md`).
    #[serde(default)]
    pub agents: Vec<String>,
    /// Router command stems (`ns-*`); see [`derive_routers`].
    #[serde(default)]
    pub router_stems: Vec<String>,
    /// Routed child stem → owning routers, first owner first; a nested skill is placed
    /// under every owner.
    #[serde(default)]
    pub child_to_routers: BTreeMap<String, Vec<String>>,
    /// Install-profile selection; `None` = full.
    #[serde(default)]
    pub profile: Option<ProfileSelection>,
}

impl PlanRequest {
    /// A request for `runtime` at `scope` on `host`, with no explicit directory, no
    /// inventory and no profile (everything); the `with_*` methods add each, by name, so a
    /// request reads as what it holds and a field added later does not break it.
    ///
    /// ```
    /// use gsd_core::{Host, PlanRequest, Registry, Scope, resolve_install_plan};
    ///
    /// let request = PlanRequest::new("claude", Scope::Global, Host::new("/home/u", "/work/p"))
    ///     .with_commands(["help", "plan-phase"])
    ///     .with_agents(["gsd-planner"]);
    /// let plan = resolve_install_plan(Registry::first_party(), &request)?;
    /// assert_eq!(plan.scope.config_home, "/home/u/.claude");
    /// assert_eq!(plan.placements.len(), 3);
    /// # Ok::<(), gsd_core::Error>(())
    /// ```
    #[must_use]
    pub fn new(runtime: impl Into<String>, scope: Scope, host: Host) -> Self {
        Self {
            runtime: runtime.into(),
            scope,
            host,
            explicit_dir: None,
            commands: Vec::new(),
            agents: Vec::new(),
            router_stems: Vec::new(),
            child_to_routers: BTreeMap::new(),
            profile: None,
        }
    }

    /// The request with an explicit config directory (`--config-dir`).
    #[must_use]
    pub fn with_explicit_dir(mut self, dir: impl Into<String>) -> Self {
        self.explicit_dir = Some(dir.into());
        self
    }

    /// The request with these command stems (`commands/gsd/<stem>.md`).
    #[must_use]
    pub fn with_commands<S: Into<String>>(mut self, stems: impl IntoIterator<Item = S>) -> Self {
        self.commands = stems.into_iter().map(Into::into).collect();
        self
    }

    /// The request with these agent stems (`agents/<stem>.md`).
    #[must_use]
    pub fn with_agents<S: Into<String>>(mut self, stems: impl IntoIterator<Item = S>) -> Self {
        self.agents = stems.into_iter().map(Into::into).collect();
        self
    }

    /// The request with the routers [`derive_routers`] found in the command bodies.
    #[must_use]
    pub fn with_routers(mut self, routers: Routers) -> Self {
        self.router_stems = routers.router_stems;
        self.child_to_routers = routers.child_to_routers;
        self
    }

    /// The request with a profile's selection (see `From<&ResolvedProfile>`).
    #[must_use]
    pub fn with_profile(mut self, profile: ProfileSelection) -> Self {
        self.profile = Some(profile);
        self
    }

    /// Reads a request from JSON text as every binding does ([`crate::strict::read`]):
    /// objects only, no repeated or unknown member, and a failure that names the value at
    /// fault. Prefer it to `serde_json::from_str`, whose derived reading also takes an
    /// array by position and keeps the last of a repeated `host.env` entry.
    ///
    /// ```
    /// let request = gsd_core::PlanRequest::from_json(
    ///     r#"{"runtime":"claude","scope":"global","host":{"home":"/h","cwd":"/w"}}"#,
    /// )?;
    /// assert_eq!(request.runtime, "claude");
    /// let err = gsd_core::PlanRequest::from_json(
    ///     r#"{"runtime":"claude","scope":"Global","host":{"home":"/h","cwd":"/w"}}"#,
    /// )
    /// .unwrap_err();
    /// assert_eq!(
    ///     (err.code(), err.field()),
    ///     (gsd_core::ErrorCode::InvalidScope, Some("scope"))
    /// );
    /// # Ok::<(), gsd_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for text that is not such a request, its field the path of the
    /// value at fault (`host.cwd`, `commands[1]`, `host.env.HOME`); in a request otherwise
    /// well formed, `INVALID_SCOPE` (field `scope`) for a scope other than exactly `global`
    /// or `local`, as in every binding.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let err = match crate::strict::read(text, "request") {
            Ok(request) => return Ok(request),
            Err(err) => err,
        };
        // As in the bindings: a `scope` string other than `global` / `local`, in a request
        // otherwise well formed, is the scope parser's own `INVALID_SCOPE`.
        if err.field() == Some("scope")
            && let Ok(serde_json::Value::Object(mut fields)) =
                serde_json::from_str::<serde_json::Value>(text)
            && let Some(serde_json::Value::String(id)) =
                fields.insert("scope".to_owned(), Scope::Global.as_str().into())
        {
            let rest = serde_json::Value::Object(fields).to_string();
            return Err(match crate::strict::read::<Self>(&rest, "request") {
                Ok(_) => crate::scope::parse_scope(&id).err().unwrap_or(err),
                Err(other) => other,
            });
        }
        Err(err)
    }
}

/// One directory the uninstaller clears.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UninstallItem {
    /// The artifact kind.
    pub kind: ArtifactKindName,
    /// Absolute, confined destination directory.
    pub dest_dir: String,
}

/// The `gsd-file-manifest.json` record the install writes (v2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallManifestRecord {
    /// The schema version the writer records ([`crate::install_manifest::MANIFEST_SCHEMA_VERSION`]).
    pub manifest_version: u32,
    /// Runtime id.
    pub runtime: String,
    /// Scope.
    pub scope: Scope,
}

/// The install plan for one runtime at one scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// Runtime id.
    pub runtime: String,
    /// The resolved scope (config directory, settings file, consent, rank, provenance).
    pub scope: ResolvedScope,
    /// `/gsd-x` or `$gsd-x`.
    pub command_style: CommandStyle,
    /// Config-writing intent.
    pub config: ConfigIntent,
    /// Hook registration facts.
    pub hooks: Hooks,
    /// Per-agent sandbox primitive.
    pub sandbox_tier: SandboxTier,
    /// GSD coverage tier.
    pub support_tier: u8,
    /// The layout kinds, in descriptor order.
    pub kinds: Vec<ArtifactKind>,
    /// Every file to write, by kind (layout order) then stem (inventory order).
    pub placements: Placements,
    /// What an uninstall clears.
    pub uninstall: Vec<UninstallItem>,
    /// The trigger surface at this scope.
    pub triggers: Triggers,
    /// The install-manifest record.
    pub install_manifest: InstallManifestRecord,
    /// Typed findings (e.g. `trigger_shadowed`).
    pub diagnostics: Vec<Diagnostic>,
}

/// Plans for several scopes of one runtime, with the trigger surface across them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanSet {
    /// One plan per scope, in `SCOPE_ORDER`.
    pub plans: Vec<Plan>,
    /// The trigger surface across every planned scope (cross-scope shadowing included).
    pub triggers: Triggers,
    /// `trigger_shadowed` warnings of the combined surface.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks one stem: at most [`MAX_STEM_BYTES`] bytes, non-empty, not `.`/`..`, no `/` or
/// `\`, no control, bidi or invisible character (so it can never leave its destination
/// directory, hide in a file name, or make a name no file system holds).
/// `field` names the stem in the error; it is built only on failure.
fn check_stem(stem: &str, field: impl FnOnce() -> String) -> Result<(), Error> {
    if is_plain_stem(stem) {
        return Ok(());
    }
    let field = field();
    let shown = serde_json::to_string(&crate::sanitize::sanitize_value(stem)).unwrap_or_default();
    let message = if stem.len() > MAX_STEM_BYTES {
        format!(
            "{field} is {} bytes long, more than {MAX_STEM_BYTES}: a stem becomes a file or folder name (at most 255 bytes), with room left for the runtime's prefix and extension; it starts {shown}",
            stem.len()
        )
    } else {
        format!(
            "{field} must be a plain file stem (non-empty, not '.' or '..', no '/', '\\', control, bidi or invisible characters), got {shown}"
        )
    };
    Err(Error::new(ErrorCode::InvalidArgument, message).with_field(field))
}

/// The longest stem a plan takes, in bytes. A stem becomes a file or folder name
/// (`gsd-<stem>.md`, `gsd-<stem>/SKILL.md`, `<stem>.prompt.md`), and a name holds at most
/// 255 bytes on Linux and macOS (`NAME_MAX`): a longer stem would make a plan no
/// installer can write.
pub const MAX_STEM_BYTES: usize = 200;

/// The longest layout `prefix` a runtime may declare, in bytes (validation code
/// `unsafe_layout_prefix`): with a stem of [`MAX_STEM_BYTES`] and a suffix of
/// [`MAX_SUFFIX_BYTES`], a name stays within 255 bytes.
pub const MAX_PREFIX_BYTES: usize = 32;

/// The longest `hostBehaviors.agentFileExtension` a plan takes, in bytes (`.agent.md`).
pub const MAX_SUFFIX_BYTES: usize = 16;

/// The host facts a plan stands on: `host.cwd` (every destination is resolved against
/// it) and `host.home` (the global config homes and `~` live under it) must be absolute
/// paths without NUL (a C caller would read a path with one as cut short there). No
/// environment value may hold NUL either (no real environment can: an override read from
/// one becomes a path), nor `explicitDir`.
fn check_host(host: &Host, explicit_dir: Option<&str>) -> Result<(), Error> {
    for (field, value) in [("host.cwd", &host.cwd), ("host.home", &host.home)] {
        if !path::is_absolute(value) || words::contains(value.as_bytes(), 0) {
            return Err(Error::new(
                ErrorCode::InvalidHost,
                format!(
                    "{field} must be an absolute path without NUL, got {}",
                    path::quoted(value)
                ),
            )
            .with_field(field));
        }
    }
    if let Some((name, value)) = host
        .env
        .iter()
        .find(|(_, value)| words::contains(value.as_bytes(), 0))
    {
        // The name is the caller's too: shown the way every other caller text is.
        let name = crate::sanitize::sanitize_value(name);
        return Err(Error::new(
            ErrorCode::InvalidHost,
            format!(
                "host.env.{name} must not contain NUL, got {}",
                path::quoted(value)
            ),
        )
        .with_field(format!("host.env.{name}")));
    }
    if let Some(dir) = explicit_dir.filter(|dir| words::contains(dir.as_bytes(), 0)) {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "explicitDir must not contain NUL, got {}",
                path::quoted(dir)
            ),
        )
        .with_field("explicitDir"));
    }
    Ok(())
}

/// The descriptor of the request's runtime, once its host and stems are known to be sound:
/// what every plan checks before it decides anything.
fn checked_request<'r>(
    registry: &'r Registry,
    request: &PlanRequest,
) -> Result<&'r RuntimeDescriptor, Error> {
    let descriptor = lookup_runtime(registry, &request.runtime)?;
    check_host(&request.host, request.explicit_dir.as_deref())?;
    check_stems(
        &request.commands,
        &request.agents,
        &request.router_stems,
        &request.child_to_routers,
    )?;
    Ok(descriptor)
}

/// Every stem of the inventory must be plain ([`check_stem`]).
fn check_stems(
    commands: &[String],
    agents: &[String],
    router_stems: &[String],
    child_to_routers: &BTreeMap<String, Vec<String>>,
) -> Result<(), Error> {
    check_stem_lists(
        [
            ("commands", commands),
            ("agents", agents),
            ("routerStems", router_stems),
        ],
        child_to_routers,
    )
}

/// Every stem of `lists` (each named for the error, `commands[3]`) and of
/// `child_to_routers` must be plain ([`check_stem`]).
pub(crate) fn check_stem_lists<const N: usize>(
    lists: [(&str, &[String]); N],
    child_to_routers: &BTreeMap<String, Vec<String>>,
) -> Result<(), Error> {
    for (name, list) in lists {
        for (index, stem) in list.iter().enumerate() {
            check_stem(stem, || format!("{name}[{index}]"))?;
        }
    }
    for (child, owners) in child_to_routers {
        check_stem(child, || "childToRouters".to_owned())?;
        for owner in owners {
            check_stem(owner, || format!("childToRouters.{child}"))?;
        }
    }
    Ok(())
}

/// What a plan is computed from besides the runtime, scope and host, borrowed from a
/// [`PlanRequest`] or an [`Inventory`]. Every stem is plain (checked before a view is made).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inputs<'a> {
    /// `host.cwd`, absolute.
    pub(crate) cwd: &'a str,
    pub(crate) commands: &'a [String],
    pub(crate) agents: &'a [String],
    pub(crate) router_stems: &'a [String],
    pub(crate) child_to_routers: &'a BTreeMap<String, Vec<String>>,
    pub(crate) profile: Option<&'a ProfileSelection>,
    /// Whether `commands` and `agents` are known to list no stem twice.
    pub(crate) distinct: (bool, bool),
    /// The number of nested skills placements of the whole `commands` list when routing
    /// applies, counted once by the [`Inventory`] or, for a typed plan whose layout nests
    /// skills, by its [`Routes`].
    pub(crate) nested_skills: Option<usize>,
    /// The routers of each command of the whole `commands` list ([`Routes`]), found once
    /// by the [`Inventory`] or per typed plan whose layout nests skills.
    pub(crate) routes: Option<&'a Routes>,
}

/// Inventory order, duplicates dropped, filtered by an optional allow-list. Borrowed: the
/// stems are copied only into the records that carry them, and a whole list without
/// duplicates is not even listed again. `distinct`: `stems` is known to list no stem twice.
fn select<'a>(stems: &'a [String], allow: Option<&Vec<String>>, distinct: bool) -> Stems<'a> {
    let mut out: Vec<&str> = match allow {
        None if distinct || !has_duplicates(stems) => return Stems::All(stems),
        None => stems.iter().map(String::as_str).collect(),
        Some(allow) => {
            let mut allowed: Vec<&str> = allow.iter().map(String::as_str).collect();
            allowed.sort_unstable();
            stems
                .iter()
                .map(String::as_str)
                .filter(|s| allowed.binary_search(s).is_ok())
                .collect()
        }
    };
    if !distinct && has_duplicates(&out) {
        let mut seen = HashSet::with_capacity(out.len());
        out.retain(|s| seen.insert(*s));
    }
    Stems::Picked(out)
}

/// The router inputs of the trigger surface. Routing is reported only when the profile
/// selects every router, as only then does the installer nest skills (no router stems: no
/// candidate is routed, and the child map is never read).
fn trigger_routers<'a>(inputs: &Inputs<'a>) -> &'a [String] {
    if routing_applies(inputs) {
        inputs.router_stems
    } else {
        &[]
    }
}

/// Diagnostic code: a trigger of the plan (or plan set) is shadowed by another, which the
/// host resolves first (warning, `detail` a [`ShadowDetail`]).
pub const CODE_TRIGGER_SHADOWED: &str = "trigger_shadowed";

/// One `trigger_shadowed` warning per shadowed candidate. The message repeats the trigger
/// safe to print: a trigger of a checked stem (every plan's) as it is, any other (a surface
/// read leniently from disk) with unsafe characters as U+FFFD and clipped past
/// [`MAX_SHOWN_TRIGGER_CHARS`]. The detail keeps the trigger as it is.
pub fn shadow_diagnostics(runtime: &str, triggers: &Triggers) -> Vec<Diagnostic> {
    let mut out = Vec::with_capacity(triggers.shadowed_count());
    for (t, by) in triggers.shadowed() {
        let shown = shown_trigger(t.trigger);
        let message = path::concat(&[
            "trigger '",
            &shown,
            "' of ",
            t.scope.as_str(),
            " ",
            t.kind.as_str(),
            " is shadowed by ",
            by.scope.as_str(),
            " ",
            by.kind.as_str(),
        ]);
        out.push(
            Diagnostic::new(CODE_TRIGGER_SHADOWED, Severity::Warning, message)
                .with_capability(runtime)
                .with_detail(shadow_detail(t, by)),
        );
    }
    out
}

/// How many characters of a trigger a message repeats: more than any checked stem makes
/// (`gsd-` and [`MAX_STEM_BYTES`]).
pub const MAX_SHOWN_TRIGGER_CHARS: usize = 256;

/// A trigger as a message repeats it: itself when it is printable ASCII short enough (the
/// common case, found without looking at a character twice), else rendered safe.
fn shown_trigger(trigger: &str) -> std::borrow::Cow<'_, str> {
    if trigger.len() <= MAX_SHOWN_TRIGGER_CHARS
        && trigger.bytes().all(|b| (0x20..0x7f).contains(&b))
    {
        std::borrow::Cow::Borrowed(trigger)
    } else {
        std::borrow::Cow::Owned(crate::sanitize::sanitize_text(
            trigger,
            MAX_SHOWN_TRIGGER_CHARS,
        ))
    }
}

/// The typed `{trigger, kind, scope, destPath, shadowedBy}` detail of a shadowed trigger.
fn shadow_detail(t: Trigger<'_>, by: ShadowedBy) -> ShadowDetail {
    ShadowDetail {
        trigger: t.trigger.to_owned(),
        kind: t.kind,
        scope: t.scope,
        dest_path: t.dest_path.to_owned(),
        shadowed_by: by,
    }
}

/// Resolves the install plan of `request.runtime` at `request.scope`.
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`], [`ErrorCode::NoConfigHome`] (vscode),
/// [`ErrorCode::InvalidHost`] (a `host.cwd` or `host.home` that is not absolute or holds NUL),
/// [`ErrorCode::InvalidArgument`] (a stem that is empty, `.`/`..`, or contains `/`, `\`, a
/// control, bidi or invisible character; an `explicitDir` with NUL), [`ErrorCode::InvalidDescriptor`],
/// [`ErrorCode::DestinationOutsideConfigHome`].
pub fn resolve_install_plan(registry: &Registry, request: &PlanRequest) -> Result<Plan, Error> {
    let runtime = request.runtime.as_str();
    let descriptor = checked_request(registry, request)?;
    let inputs = request_inputs(request);
    let routes = nested_routes(descriptor, request.scope, &inputs);
    let inputs = Inputs {
        nested_skills: routes.as_ref().map(Routes::nested_count),
        routes: routes.as_ref(),
        ..inputs
    };
    let decision = decide::decide(
        descriptor,
        runtime,
        request.scope,
        &request.host,
        request.explicit_dir.as_deref(),
        inputs,
    )?;
    Ok(decision.into_plan())
}

/// The inputs of a request whose stems were checked.
fn request_inputs(request: &PlanRequest) -> Inputs<'_> {
    Inputs {
        cwd: &request.host.cwd,
        commands: &request.commands,
        agents: &request.agents,
        router_stems: &request.router_stems,
        child_to_routers: &request.child_to_routers,
        profile: request.profile.as_ref(),
        distinct: (false, false),
        nested_skills: None,
        routes: None,
    }
}

/// The routes of a request whose layout nests skills at `scope` under routers that apply,
/// found once for its placements and its trigger surface ([`Routes`]); `None` when
/// nothing is nested, as then no router is looked up.
fn nested_routes(
    descriptor: &RuntimeDescriptor,
    scope: Scope,
    inputs: &Inputs<'_>,
) -> Option<Routes> {
    let nests = descriptor
        .artifact_layout
        .entries(scope)
        .iter()
        .any(|e| e.kind == ArtifactKindName::Skills && e.nesting == Nesting::Nested);
    (nests && routing_applies(inputs)).then(|| {
        Routes::new(
            inputs.commands,
            inputs.router_stems,
            inputs.child_to_routers,
        )
    })
}

/// Resolves one plan per scope (in `SCOPE_ORDER`, duplicates ignored) plus the trigger
/// surface across them, where cross-scope shadowing shows (global beats local).
///
/// # Errors
/// [`ErrorCode::InvalidArgument`] on field `explicitDir` when a non-blank `explicit_dir`
/// comes with both scopes: it wins for each, so both plans would install into one folder;
/// on field `scopes` when the two scopes resolve to one folder otherwise (resolved against
/// `host.cwd`: the project is the home directory, or the runtime's variable names the
/// project's folder).
/// As [`resolve_install_plan`] for each scope. The request's runtime, host and stems are
/// checked even when `scopes` is empty (no plan is made then, but a request a plan would
/// refuse is refused, never answered with an empty set): so is a runtime with no config
/// directory ([`ErrorCode::NoConfigHome`], vscode).
pub fn resolve_install_plans(
    registry: &Registry,
    request: &PlanRequest,
    scopes: &[Scope],
) -> Result<PlanSet, Error> {
    let wanted: Vec<Scope> = Scope::ALL
        .iter()
        .copied()
        .filter(|s| scopes.contains(s))
        .collect();
    if wanted.is_empty() {
        // What every plan would refuse, refused without one: the request, and a runtime
        // with no config directory.
        installable(checked_request(registry, request)?, &request.runtime)?;
    }
    if wanted.len() > 1
        && let Some(dir) = crate::scope::usable_explicit_dir(request.explicit_dir.as_deref())
    {
        // It wins for both scopes: the two plans would write one folder, each its own
        // install manifest over the other's, and report a shadow between themselves. What
        // a plan would refuse first is refused first.
        installable(checked_request(registry, request)?, &request.runtime)?;
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "explicitDir names one config directory for every scope, so both scopes would install into {}; plan one scope with it",
                path::quoted(dir)
            ),
        )
        .with_field("explicitDir"));
    }
    let mut plans = Vec::new();
    for scope in &wanted {
        plans.push(resolve_install_plan(
            registry,
            &PlanRequest {
                scope: *scope,
                ..request.clone()
            },
        )?);
    }
    if let [global, local] = plans.as_slice() {
        one_folder_for_two_scopes(&request.host.cwd, global, local)?;
    }
    let stems = select(
        &request.commands,
        request.profile.as_ref().and_then(|p| p.skills.as_ref()),
        false,
    );
    let descriptor = lookup_runtime(registry, &request.runtime)?;
    let inputs = request_inputs(request);
    let triggers = surface_of(
        descriptor,
        &wanted,
        &stems,
        (trigger_routers(&inputs), &request.child_to_routers),
        true,
    );
    let diagnostics = shadow_diagnostics(&request.runtime, &triggers);
    Ok(PlanSet {
        plans,
        triggers,
        diagnostics,
    })
}

/// Refuses two plans that install into one folder, as resolved against `cwd` (a project
/// whose local config directory is the global one: `cwd` is the home directory, or the
/// runtime's environment variable names the project's folder). Each would write its own
/// install manifest over the other's, and the trigger surface would report a shadow
/// between the two halves of one install. (The installed-surface sweep, reading what is on
/// disk, counts such a folder once, for the global scope; a plan set cannot drop one of
/// the scopes it was asked for.)
fn one_folder_for_two_scopes(cwd: &str, global: &Plan, local: &Plan) -> Result<(), Error> {
    let folder = path::resolve(cwd, &[&global.scope.config_home]);
    if folder != path::resolve(cwd, &[&local.scope.config_home]) {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::InvalidArgument,
        format!(
            "the global and local scopes both resolve to {} (host.cwd holds the global config directory), so both plans would install into one folder; plan one scope",
            path::quoted(&folder)
        ),
    )
    .with_field("scopes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::TriggerKind;

    /// The selection (a borrowed whole list when nothing is filtered or dropped) lists what
    /// the rule says: inventory order, filtered by the allow-list, first of each stem kept;
    /// `distinct` is claimed only when true, as the inventory claims it.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated values by value.
    fn selection_follows_the_rule(picks: Vec<u8>, allow: Option<Vec<u8>>, claim: bool) -> bool {
        const NAMES: [&str; 5] = ["a", "b", "c", "ns-a", "é"];
        let name = |p: &u8| NAMES[usize::from(*p) % NAMES.len()].to_owned();
        let stems: Vec<String> = picks.iter().map(name).collect();
        let allow: Option<Vec<String>> = allow.map(|a| a.iter().map(name).collect());
        let distinct = claim && !has_duplicates(&stems);
        let mut expected: Vec<&str> = Vec::new();
        for stem in &stems {
            let allowed = allow.as_ref().is_none_or(|a| a.contains(stem));
            if allowed && !expected.contains(&stem.as_str()) {
                expected.push(stem);
            }
        }
        let selected = select(&stems, allow.as_ref(), distinct);
        selected.len() == expected.len() && selected.iter().eq(expected.iter().copied())
    }

    /// A misspelt member of any input is an error naming it, never a default in its place
    /// (`existing_paths` for `existingPaths` would silently probe nothing).
    #[test]
    fn inputs_refuse_unknown_members() {
        let host = r#"{"home":"/h","cwd":"/w"}"#;
        let cases = [
            (
                r#"{"home":"/h","cwd":"/w","existing_paths":["/h/.x"]}"#.to_owned(),
                "existing_paths",
            ),
            (
                format!(
                    r#"{{"runtime":"claude","scope":"global","host":{host},"explicit_dir":"/x"}}"#
                ),
                "explicit_dir",
            ),
            (
                format!(
                    r#"{{"runtime":"claude","scope":"global","host":{host},"profile":{{"skill":[]}}}}"#
                ),
                "skill",
            ),
            (r#"{"stems":["a"],"routers":[]}"#.to_owned(), "routers"),
            (r#"{"homes":{},"home":{}}"#.to_owned(), "home"),
            (
                r#"{"homes":{"/h/.claude":{"manifestText":""}}}"#.to_owned(),
                "manifestText",
            ),
        ];
        for (index, (text, member)) in cases.iter().enumerate() {
            let message = match index {
                0 => serde_json::from_str::<Host>(text).err(),
                1 | 2 => serde_json::from_str::<PlanRequest>(text).err(),
                3 => serde_json::from_str::<crate::TriggerInput>(text).err(),
                _ => serde_json::from_str::<crate::SurfaceFacts>(text).err(),
            }
            .map(|e| e.to_string());
            let expected = format!("unknown field `{member}`");
            assert!(
                message.as_deref().is_some_and(|m| m.starts_with(&expected)),
                "{text}: {message:?}"
            );
        }
        assert!(serde_json::from_str::<Host>(host).is_ok());
    }

    /// Caller text in a host error cannot act on a terminal, hide text or flood a log: an
    /// environment name with an escape and a bidi override, a cwd with one, and a home of
    /// 100,000 characters are each named safely.
    #[test]
    fn host_errors_show_caller_text_safely() {
        let host = |home: &str, cwd: &str, env: &[(&str, &str)]| Host {
            home: home.to_owned(),
            cwd: cwd.to_owned(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            existing_paths: std::collections::BTreeSet::new(),
        };
        let err = check_host(&host("/h", "/w", &[("X\u{1b}[31m\u{202e}", "a\0b")]), None)
            .expect_err("NUL in an environment value");
        assert_eq!(err.code(), ErrorCode::InvalidHost);
        assert_eq!(err.field(), Some("host.env.X\u{FFFD}\u{FFFD}"));
        assert_eq!(
            err.message(),
            "host.env.X\u{FFFD}\u{FFFD} must not contain NUL, got \"a\u{FFFD}b\""
        );
        let err = check_host(&host("/h", "rel\u{202e}dir", &[]), None).expect_err("relative cwd");
        assert_eq!(err.field(), Some("host.cwd"));
        assert_eq!(
            err.message(),
            "host.cwd must be an absolute path without NUL, got \"rel\u{FFFD}dir\""
        );
        let long = "x".repeat(100_000);
        let err = check_host(&host(&long, "/w", &[]), None).expect_err("relative home");
        assert_eq!(
            err.message(),
            format!(
                "host.home must be an absolute path without NUL, got \"{}…\"",
                "x".repeat(1024)
            )
        );
        let err = check_host(&host("/h", "/w", &[]), Some("/x\0\u{1b}[2J")).expect_err("NUL");
        assert_eq!(err.field(), Some("explicitDir"));
        assert_eq!(
            err.message(),
            "explicitDir must not contain NUL, got \"/x\u{FFFD}\u{FFFD}[2J\""
        );
    }

    /// A global claude request on `/h`, `/w` for these stems, nothing else set.
    fn claude_request(commands: &[&str], agents: &[&str]) -> PlanRequest {
        PlanRequest::new("claude", Scope::Global, Host::new("/h", "/w"))
            .with_commands(commands.iter().copied())
            .with_agents(agents.iter().copied())
    }

    /// A stem becomes a file or folder name: 200 bytes make one, 202 are refused, named.
    #[test]
    fn a_stem_must_fit_in_a_file_name() {
        let registry = Registry::first_party();
        let longest = "s".repeat(MAX_STEM_BYTES);
        let mut request = claude_request(&[&longest], &[]);
        let plan = resolve_install_plan(registry, &request).expect("200 bytes fit");
        let placement = plan.placements.get(0).expect("one skill");
        let name = placement
            .destination
            .rsplit('/')
            .nth(1)
            .expect("a skill folder");
        assert_eq!(name, format!("gsd-{longest}"));
        // Two bytes per character: 101 characters are 202 bytes.
        request.agents = vec!["é".repeat(101)];
        let err = resolve_install_plan(registry, &request).expect_err("202 bytes");
        assert_eq!(
            (err.code(), err.field()),
            (ErrorCode::InvalidArgument, Some("agents[0]"))
        );
        assert!(
            err.message().starts_with(
                "agents[0] is 202 bytes long, more than 200: a stem becomes a file or folder name"
            ),
            "{}",
            err.message()
        );
        assert!(
            err.message()
                .ends_with(&format!("it starts \"{}…\"", "é".repeat(80)))
        );
    }

    /// An explicit directory wins for every scope: with both, the two plans would install
    /// into one folder, so the set is refused; with one scope it is planned.
    #[test]
    fn an_explicit_dir_plans_one_scope_never_both() {
        let registry = Registry::first_party();
        let mut request = claude_request(&["help"], &["gsd-x"]);
        request.explicit_dir = Some("/cfg".to_owned());
        let err = resolve_install_plans(registry, &request, &[Scope::Local, Scope::Global])
            .expect_err("one folder for two scopes");
        assert_eq!(
            (err.code(), err.field(), err.message()),
            (
                ErrorCode::InvalidArgument,
                Some("explicitDir"),
                "explicitDir names one config directory for every scope, so both scopes would install into \"/cfg\"; plan one scope with it"
            )
        );
        for scope in [Scope::Global, Scope::Local] {
            let set =
                resolve_install_plans(registry, &request, &[scope, scope]).expect("one scope");
            assert_eq!(set.plans.len(), 1);
            assert_eq!(set.plans[0].scope.config_home, "/cfg");
        }
        // What a plan refuses first is still refused first; a blank directory is none.
        request.runtime = "nope".to_owned();
        let both = [Scope::Global, Scope::Local];
        let err = resolve_install_plans(registry, &request, &both).expect_err("unknown runtime");
        assert_eq!(err.code(), ErrorCode::UnknownRuntime);
        request.runtime = "claude".to_owned();
        request.explicit_dir = Some("  ".to_owned());
        assert_eq!(
            resolve_install_plans(registry, &request, &both)
                .unwrap()
                .plans
                .len(),
            2
        );
    }

    /// Two scopes that resolve to one folder (the project is the home directory, or the
    /// runtime's variable names the project's own folder, relative or not) are refused, as
    /// an explicit directory for both is; two folders are planned.
    #[test]
    fn two_scopes_in_one_folder_are_refused_however_they_meet() {
        let registry = Registry::first_party();
        let both = [Scope::Global, Scope::Local];
        let refusal = |host: Host| {
            let request = PlanRequest {
                host,
                ..claude_request(&["help"], &[])
            };
            resolve_install_plans(registry, &request, &both).map(|set| set.plans.len())
        };
        let said = |folder: &str| {
            format!(
                "the global and local scopes both resolve to \"{folder}\" (host.cwd holds the global config directory), so both plans would install into one folder; plan one scope"
            )
        };
        let named = |dir: &str| {
            let mut host = Host::new("/h", "/p");
            host.env
                .insert("CLAUDE_CONFIG_DIR".to_owned(), dir.to_owned());
            host
        };
        for (host, folder) in [
            (Host::new("/h", "/h"), "/h/.claude"),
            (named("/p/.claude"), "/p/.claude"),
            (named(".claude"), "/p/.claude"),
            (named("/p/x/../.claude/"), "/p/.claude"),
        ] {
            let err = refusal(host).expect_err(folder);
            assert_eq!(
                (err.code(), err.field(), err.message()),
                (
                    ErrorCode::InvalidArgument,
                    Some("scopes"),
                    said(folder).as_str()
                )
            );
        }
        for host in [
            Host::new("/h", "/p"),
            Host::new("/h", "/h/sub"),
            named("/h/.claude"),
        ] {
            assert_eq!(refusal(host).expect("two folders"), 2);
        }
    }

    /// Each `with_*` method sets its own field and only it.
    #[test]
    fn the_builder_sets_each_field_by_name() {
        let routers = Routers {
            router_stems: vec!["ns-x".to_owned()],
            child_to_routers: BTreeMap::from([("help".to_owned(), vec!["ns-x".to_owned()])]),
        };
        let profile = ProfileSelection {
            skills: Some(vec!["help".to_owned()]),
            agents: None,
        };
        let built = PlanRequest::new("codex", Scope::Local, Host::new("/h", "/w"))
            .with_explicit_dir("/cfg")
            .with_commands(["help", "ns-x"])
            .with_agents(vec!["gsd-a".to_owned()])
            .with_routers(routers.clone())
            .with_profile(profile.clone());
        assert_eq!(
            built,
            PlanRequest {
                runtime: "codex".to_owned(),
                scope: Scope::Local,
                host: Host::new("/h", "/w"),
                explicit_dir: Some("/cfg".to_owned()),
                commands: vec!["help".to_owned(), "ns-x".to_owned()],
                agents: vec!["gsd-a".to_owned()],
                router_stems: routers.router_stems,
                child_to_routers: routers.child_to_routers,
                profile: Some(profile),
            }
        );
        let bare = PlanRequest::new("codex", Scope::Local, Host::new("/h", "/w"));
        assert_eq!(
            (bare.explicit_dir, bare.commands.len(), bare.profile),
            (None, 0, None)
        );
    }

    /// A resolved profile selects what a plan installs: `full` everything (agents too, though
    /// it names none), `core` its skills and the agents their bodies name.
    #[test]
    fn a_resolved_profile_is_a_selection() {
        let manifest = crate::profile::SkillsManifest::build(&crate::ProfileSources {
            commands: vec![crate::CommandSource {
                stem: "help".to_owned(),
                body: "calls gsd-helper".to_owned(),
            }],
            workflows: Vec::new(),
        });
        let full = crate::profile::resolve_profile(&["full"], &manifest, None);
        assert_eq!(ProfileSelection::from(&full), ProfileSelection::default());
        let core = crate::profile::resolve_profile(&["core"], &manifest, None);
        let crate::profile::ProfileSkills::Only(skills) = &core.skills else {
            panic!("core selects skills");
        };
        let selection = ProfileSelection::from(&core);
        assert_eq!(selection.skills.as_ref(), Some(skills));
        // `help` is in the peer's core list, and its body names the agent.
        assert!(skills.iter().any(|s| s == "help"));
        assert_eq!(selection.agents, Some(vec!["gsd-helper".to_owned()]));
        // Planned, both place the agent: full as everything, core as named.
        let mut request = claude_request(&["help"], &["gsd-helper"]);
        request.profile = Some(ProfileSelection::from(&full));
        let agents = |request: &PlanRequest| {
            resolve_install_plan(Registry::first_party(), request)
                .unwrap()
                .placements
                .iter()
                .filter(|p| p.kind == crate::vocab::ArtifactKindName::Agents)
                .count()
        };
        assert_eq!(agents(&request), 1);
        request.profile = Some(selection);
        assert_eq!(agents(&request), 1);
        // A selection naming no agent places none.
        request.profile = Some(ProfileSelection {
            agents: Some(Vec::new()),
            ..ProfileSelection::from(&core)
        });
        assert_eq!(agents(&request), 0);
    }

    /// No scope makes no plan, but a request a plan would refuse is refused all the same.
    #[test]
    fn plans_for_no_scope_still_check_the_request() {
        let registry = Registry::first_party();
        let mut request = claude_request(&[], &[]);
        let set = resolve_install_plans(registry, &request, &[]).expect("a valid request");
        assert!(set.plans.is_empty() && set.triggers.is_empty());
        request.commands = vec!["help".to_owned(), "../x".to_owned()];
        let err = resolve_install_plans(registry, &request, &[]).expect_err("a bad stem");
        assert_eq!(
            (err.code(), err.field()),
            (ErrorCode::InvalidArgument, Some("commands[1]"))
        );
        request.commands.clear();
        request.host.cwd = "rel".to_owned();
        let err = resolve_install_plans(registry, &request, &[]).expect_err("a relative cwd");
        assert_eq!(
            (err.code(), err.field()),
            (ErrorCode::InvalidHost, Some("host.cwd"))
        );
        request.host.cwd = "/w".to_owned();
        request.runtime = "vscode".to_owned();
        for scopes in [&[][..], &[Scope::Local], &[Scope::Global, Scope::Local]] {
            let err = resolve_install_plans(registry, &request, scopes).expect_err("vscode");
            assert_eq!(
                (err.code(), err.field()),
                (ErrorCode::NoConfigHome, Some("runtime.configHome.kind")),
                "{scopes:?}"
            );
        }
    }

    #[test]
    fn shadow_detail_is_the_documented_object() {
        let t = Trigger {
            trigger: "gsd-help",
            kind: TriggerKind::Commands,
            scope: Scope::Local,
            dest_path: "commands/gsd/help.md",
            registration: crate::trigger::Registration::Direct,
            router_trigger: None,
            shadowed_by: Some(ShadowedBy {
                kind: TriggerKind::Skills,
                scope: Scope::Global,
            }),
        };
        let diagnostics = shadow_diagnostics("claude", &[t].into_iter().collect());
        assert_eq!(
            diagnostics[0].message,
            "trigger 'gsd-help' of local commands is shadowed by global skills"
        );
        // A trigger read leniently (from disk) is repeated safe to print and bounded; the
        // detail keeps it as it is. A checked stem's trigger, non-ASCII too, is as it is.
        for (trigger, shown) in [
            (
                "gsd-\u{1b}]0;x\u{7}a\u{202e}b",
                "gsd-\u{FFFD}a\u{FFFD}b".to_owned(),
            ),
            ("gsd-café", "gsd-café".to_owned()),
            (&*"g".repeat(300), format!("{}…", "g".repeat(256))),
        ] {
            let diagnostics =
                shadow_diagnostics("claude", &[Trigger { trigger, ..t }].into_iter().collect());
            assert_eq!(
                diagnostics[0].message,
                format!("trigger '{shown}' of local commands is shadowed by global skills")
            );
            assert_eq!(
                diagnostics[0]
                    .detail_value()
                    .and_then(|d| d["trigger"].as_str().map(str::to_owned)),
                Some(trigger.to_owned())
            );
        }
        let expected = serde_json::json!({
            "trigger": "gsd-help", "kind": "commands", "scope": "local",
            "destPath": "commands/gsd/help.md",
            "shadowedBy": { "kind": "skills", "scope": "global" },
        });
        assert_eq!(diagnostics[0].detail_value(), Some(expected.clone()));
        assert_eq!(
            serde_json::to_string(&diagnostics[0].detail).ok(),
            serde_json::to_string(&expected).ok(),
            "same key order"
        );
        // Held typed, equal to (and hashed as) the same JSON held as a value.
        let typed = diagnostics[0].detail.clone().expect("a detail");
        assert!(matches!(typed, crate::Detail::TriggerShadowed(_)));
        let json = crate::Detail::from(expected.clone());
        assert_eq!(typed, json);
        assert_eq!(typed, expected);
        let state = std::hash::RandomState::new();
        assert_eq!(
            std::hash::BuildHasher::hash_one(&state, &typed),
            std::hash::BuildHasher::hash_one(&state, &json)
        );
        let other = crate::Detail::from(serde_json::json!({ "trigger": "gsd-help" }));
        assert_ne!(typed, other);
    }
}

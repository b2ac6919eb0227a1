//! Conversions: core values to pre-shaped JS values (serde → JSON value → JS in one
//! crossing), and JS inputs to core values. The default host is read here: this is the
//! only place the addon touches the machine (HOME, cwd, environment, and exactly the probe
//! paths the core lists).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use gsd_core::{Error as CoreError, Host, ProfileSelection, Registry as CoreRegistry};
use napi::Env;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{JsResult, fail, invalid_argument, to_js};

/// Serializes a core value into the JSON value napi hands to JS as a plain object.
pub fn to_value<T: Serialize + ?Sized>(env: Env, value: &T) -> JsResult<Value> {
    serde_json::to_value(value).map_err(|e| {
        invalid_argument(
            env,
            "result",
            &format!("result could not be serialized: {e}"),
        )
    })
}

/// Serializes a core value as JSON text, for JS to `JSON.parse` (one string crosses
/// instead of one N-API call per property).
pub fn to_json<T: Serialize + ?Sized>(env: Env, value: &T) -> JsResult<String> {
    serde_json::to_string(value).map_err(|e| {
        invalid_argument(
            env,
            "result",
            &format!("result could not be serialized: {e}"),
        )
    })
}

/// Maps a core failure to the JS error of the export.
pub fn core<T>(env: Env, result: Result<T, CoreError>) -> JsResult<T> {
    result.map_err(|e| to_js(env, &e))
}

/// Deserializes a JS argument, naming the field at fault ([`field_at`]), as [`from_json`]
/// does: records are objects only, and the message is safe to print.
pub fn from_value<T: for<'de> Deserialize<'de>>(
    env: Env,
    field: &str,
    value: Value,
) -> JsResult<T> {
    serde_path_to_error::deserialize(gsd_core::strict::Strict(value)).map_err(|e| {
        let at = gsd_core::sanitize::sanitize_text(
            &field_at(field, gsd_core::strict::error_field(&e)),
            MAX_REASON_CHARS,
        );
        let reason = gsd_core::sanitize::sanitize_text(&e.inner().to_string(), MAX_REASON_CHARS);
        invalid_argument(env, &at, &format!("{at} is invalid: {reason}"))
    })
}

/// Deserializes a JS argument given as JSON text (`JSON.stringify` on the JS side: one
/// string crosses instead of every property), naming the field at fault ([`field_at`]).
/// The message is the one [`from_value`] gives: serde's position suffix is left out, since
/// the caller never wrote that text.
///
/// Records are objects only ([`gsd_core::strict`]: serde would read an array by position),
/// and what the message repeats of the caller's keys and values is rendered safe to print
/// and bounded ([`gsd_core::sanitize::sanitize_text`]).
pub fn from_json<T: for<'de> Deserialize<'de>>(env: Env, field: &str, text: &str) -> JsResult<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(gsd_core::strict::Strict(&mut reader)).map_err(|e| {
        let at = gsd_core::sanitize::sanitize_text(
            &field_at(field, gsd_core::strict::error_field(&e)),
            MAX_REASON_CHARS,
        );
        let inner = e.inner();
        let full = inner.to_string();
        let suffix = format!(" at line {} column {}", inner.line(), inner.column());
        let mut message = full.strip_suffix(&suffix).unwrap_or(&full);
        // `JSON.stringify` escapes only controls (valid escapes) and lone surrogates, so an
        // escape serde refuses in this text is a lone surrogate of the caller's string. Only
        // those syntax errors, by their exact text: other messages repeat the caller's keys
        // and values, which may hold any word.
        if inner.classify() == serde_json::error::Category::Syntax
            && matches!(
                message,
                "lone leading surrogate in hex escape" | "unexpected end of hex escape"
            )
        {
            message = "it holds a lone surrogate, which UTF-8 cannot carry";
        }
        let message = gsd_core::sanitize::sanitize_text(message, MAX_REASON_CHARS);
        invalid_argument(env, &at, &format!("{at} is invalid: {message}"))
    })
}

/// How much of serde's reason, and of the path it names, a message repeats.
const MAX_REASON_CHARS: usize = 512;

/// A path of the machine in double quotes for a message: each escape sequence, control,
/// bidi and invisible character as one U+FFFD ([`gsd_core::sanitize::sanitize_text`]),
/// clipped past 1,024 characters.
fn quoted(path: &str) -> String {
    format!("\"{}\"", gsd_core::sanitize::sanitize_text(path, 1024))
}

/// The arguments whose members the API names on their own (`commands[2]`, as the core's
/// own errors name them), not under the argument's name.
const BAGS: [&str; 3] = ["options", "input", "inventory"];

/// The field a shape error of argument `argument` names: the argument itself when the
/// error is at its top, else the path to the value at fault inside it, under the
/// argument's name (`host.env.HOME`, `overlays[2].manifest`) or, for an options bag, alone
/// (`commands[1]`).
fn field_at(argument: &str, inner: Option<String>) -> String {
    match inner {
        None => argument.to_owned(),
        Some(inner) if BAGS.contains(&argument) => inner,
        Some(inner) if inner.starts_with('[') => format!("{argument}{inner}"),
        Some(inner) => format!("{argument}.{inner}"),
    }
}

/// A list result as JSON text, or `None` when it is empty (the common case of a valid
/// manifest crosses as `null`, with nothing to serialize or parse).
pub fn list_json<T: Serialize>(env: Env, items: &[T]) -> JsResult<Option<String>> {
    if items.is_empty() {
        return Ok(None);
    }
    to_json(env, items).map(Some)
}

/// One registered runtime as JS sees it: `{ id, descriptor }`.
#[derive(Serialize)]
pub struct RuntimeEntry<'a> {
    /// The runtime id.
    pub id: &'a str,
    /// The typed descriptor (`runtime` body of the capability).
    pub descriptor: &'a gsd_core::RuntimeDescriptor,
}

/// Every runtime of a registry, sorted by id.
pub fn runtime_entries(registry: &CoreRegistry) -> Vec<RuntimeEntry<'_>> {
    registry
        .runtime_ids()
        .filter_map(|id| {
            registry
                .runtime(id)
                .map(|descriptor| RuntimeEntry { id, descriptor })
        })
        .collect()
}

/// The host of a call: the caller's data when given (used as is, nothing is probed), else
/// the real machine with `probes(&host)` checked on disk. When the probe list cannot be
/// computed (e.g. an unknown runtime) nothing is probed and the resolver reports the error.
pub fn host(
    env: Env,
    given: Option<Value>,
    probes: impl FnOnce(&Host) -> Result<Vec<String>, CoreError>,
) -> JsResult<Host> {
    if let Some(value) = given {
        return from_value(env, "host", value);
    }
    let mut host = real_host(env)?;
    if let Ok(paths) = probes(&host) {
        host.existing_paths = existing(paths);
    }
    Ok(host)
}

/// [`host`] for host data given as JSON text.
pub fn host_json(
    env: Env,
    given: Option<String>,
    probes: impl FnOnce(&Host) -> Result<Vec<String>, CoreError>,
) -> JsResult<Host> {
    match given {
        Some(text) => from_json(env, "host", &text),
        None => host(env, None, probes),
    }
}

/// The paths of `paths` that exist on this machine (following symlinks, like `existsSync`).
pub fn existing(paths: Vec<String>) -> BTreeSet<String> {
    paths
        .into_iter()
        .filter(|p| Path::new(p).exists())
        .collect()
}

/// The home directory as Node's `os.homedir()` finds it (`HOME`, or the user's entry in
/// the password database when `HOME` is unset or empty), the working directory and the
/// environment (non-UTF-8 entries are skipped). A home or working directory that cannot
/// be used is refused naming its cause: unset with no password entry, not UTF-8, not
/// absolute (a relative home would put a global config directory wherever the process
/// happens to run), or a working directory that is gone or unreadable.
fn real_host(env: Env) -> JsResult<Host> {
    let invalid = |message: String, field: &str| {
        fail(env, gsd_core::ErrorCode::InvalidHost, &message, Some(field))
    };
    let home = std::env::home_dir()
        .filter(|h| !h.as_os_str().is_empty())
        .ok_or_else(|| {
            invalid(
                "HOME is not set and the user has no home directory in the password database"
                    .to_owned(),
                "host.home",
            )
        })?;
    let home = home.into_os_string().into_string().map_err(|raw| {
        invalid(
            format!(
                "HOME is not valid UTF-8: {}",
                quoted(&raw.to_string_lossy())
            ),
            "host.home",
        )
    })?;
    if !home.starts_with('/') {
        return Err(invalid(
            format!("HOME must be an absolute path, got {}", quoted(&home)),
            "host.home",
        ));
    }
    let cwd = std::env::current_dir()
        .map_err(|err| {
            invalid(
                format!("the working directory cannot be read: {err}"),
                "host.cwd",
            )
        })?
        .into_os_string()
        .into_string()
        .map_err(|raw| {
            invalid(
                format!(
                    "the working directory is not valid UTF-8: {}",
                    quoted(&raw.to_string_lossy())
                ),
                "host.cwd",
            )
        })?;
    let vars: BTreeMap<String, String> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    Ok(Host {
        home,
        cwd,
        env: vars,
        existing_paths: BTreeSet::new(),
    })
}

/// The optional inputs of `resolveInstallPlan` besides runtime, scope and host.
#[derive(Debug, Default)]
pub struct PlanOptions {
    /// Explicit config directory (`--config-dir`).
    pub explicit_dir: Option<String>,
    /// Command stems of the source inventory.
    pub commands: Vec<String>,
    /// Agent stems of the source inventory.
    pub agents: Vec<String>,
    /// Router command stems.
    pub router_stems: Vec<String>,
    /// Routed child stem → owning routers.
    pub child_to_routers: BTreeMap<String, Vec<String>>,
    /// Install-profile selection (`None`: full).
    pub profile: Option<ProfileSelection>,
}

/// [`PlanOptions`] as the caller wrote them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlanInput {
    #[serde(default)]
    explicit_dir: Option<String>,
    #[serde(default)]
    commands: Vec<String>,
    #[serde(default)]
    agents: Vec<String>,
    #[serde(default)]
    router_stems: Vec<String>,
    #[serde(default)]
    child_to_routers: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    profile: Option<ProfileInput>,
}

impl PlanOptions {
    /// The options from their JSON text, every error naming its field.
    pub fn from_json(env: Env, text: &str) -> JsResult<Self> {
        let input: PlanInput = from_json(env, "options", text)?;
        Ok(Self {
            explicit_dir: input.explicit_dir,
            commands: input.commands,
            agents: input.agents,
            router_stems: input.router_stems,
            child_to_routers: input.child_to_routers,
            profile: ProfileInput::selection(env, input.profile)?,
        })
    }
}

/// The options of a plan built from an `Inventory` handle: the stems are in the handle, so
/// `commands`, `agents`, `routerStems` and `childToRouters` are unknown fields here.
#[derive(Debug, Default)]
pub struct DecisionOptions {
    /// Explicit config directory (`--config-dir`).
    pub explicit_dir: Option<String>,
    /// Install-profile selection (`None`: full).
    pub profile: Option<ProfileSelection>,
}

/// [`DecisionOptions`] as the caller wrote them.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DecisionInput {
    #[serde(default)]
    explicit_dir: Option<String>,
    #[serde(default)]
    profile: Option<ProfileInput>,
}

impl DecisionOptions {
    /// The options from their JSON text, every error naming its field.
    pub fn from_json(env: Env, text: &str) -> JsResult<Self> {
        let input: DecisionInput = from_json(env, "options", text)?;
        Ok(Self {
            explicit_dir: input.explicit_dir,
            profile: ProfileInput::selection(env, input.profile)?,
        })
    }
}

/// A plan's `profile` option: the allow-lists `{ skills?, agents? }`, or a `resolveProfile`
/// result `{ name, skills: "*" | [...], agents: [...] }` as it is. `skills: "*"` is the full
/// profile (nothing restricted; `resolveProfile` lists no agents for it); `null` for a list
/// leaves that class unrestricted. `name` is the profile's name: it selects nothing itself,
/// so it must come with `skills` (a result passed whole), and `full` only with `"*"`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProfileInput {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    skills: Option<SkillsInput>,
    #[serde(default)]
    agents: Option<Vec<String>>,
}

impl ProfileInput {
    /// The core's selection for a given profile (`None`: full).
    fn selection(env: Env, given: Option<Self>) -> JsResult<Option<ProfileSelection>> {
        let Some(given) = given else {
            return Ok(None);
        };
        match (given.name.as_deref(), &given.skills) {
            (Some(_), None) => {
                return Err(invalid_argument(
                    env,
                    "profile.skills",
                    "profile.skills is required with profile.name: the name selects nothing itself (pass resolveProfile's result whole)",
                ));
            }
            (Some("full"), Some(SkillsInput::Only(_))) => {
                return Err(invalid_argument(
                    env,
                    "profile.skills",
                    "profile.skills must be \"*\" when profile.name is \"full\"",
                ));
            }
            _ => {}
        }
        match given.skills {
            Some(SkillsInput::All) => match given.agents {
                Some(agents) if !agents.is_empty() => Err(invalid_argument(
                    env,
                    "profile.agents",
                    "profile.agents must be empty or null when profile.skills is \"*\" (the full profile restricts nothing)",
                )),
                _ => Ok(None),
            },
            Some(SkillsInput::Only(skills)) => Ok(Some(ProfileSelection {
                skills: Some(skills),
                agents: given.agents,
            })),
            None => Ok(Some(ProfileSelection {
                skills: None,
                agents: given.agents,
            })),
        }
    }
}

/// `profile.skills`: `"*"` (every skill, as `resolveProfile` spells the full profile) or a
/// list of skill stems.
enum SkillsInput {
    All,
    Only(Vec<String>),
}

impl<'de> Deserialize<'de> for SkillsInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = SkillsInput;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("\"*\" or a list of skill stems")
            }

            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<SkillsInput, E> {
                if value == "*" {
                    Ok(SkillsInput::All)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(value), &self))
                }
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<SkillsInput, A::Error> {
                let mut stems = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(stem) = seq.next_element::<String>()? {
                    stems.push(stem);
                }
                Ok(SkillsInput::Only(stems))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// Parses a list of scope ids (each exactly `global` or `local`); an error names the
/// entry (`scopes[1]`).
pub fn scopes(env: Env, ids: &[String]) -> JsResult<Vec<gsd_core::Scope>> {
    gsd_core::parse_scopes(ids).map_err(|e| fail(env, e.code(), e.message(), e.field()))
}

/// Closed enums by their JSON name: `{ name: [members in the peer's order] }`.
macro_rules! enum_lists {
    ($($key:literal => $ty:ident),* $(,)?) => {
        vec![$(($key, gsd_core::vocab::$ty::ALL.iter().map(|x| Value::from(x.as_str())).collect::<Value>())),*]
    };
}

/// `{ name: [members...] }` for every closed enum and field list a manifest may use.
pub fn vocabulary() -> Value {
    use gsd_core::vocab as v;
    let names = |all: &[&str]| all.iter().map(|x| Value::from(*x)).collect::<Value>();
    let mut entries: Vec<(&str, Value)> = enum_lists![
        "role" => Role,
        "tier" => Tier,
        "scope" => Scope,
        "onError" => OnError,
        "loopPoint" => LoopPoint,
        "configSliceType" => ConfigSliceType,
        "configHomeKind" => ConfigHomeKind,
        "configFormat" => ConfigFormat,
        "commandStyle" => CommandStyle,
        "hooksSurface" => HooksSurface,
        "hookEvents" => HookEvents,
        "extensionEvents" => ExtensionEvents,
        "sandboxTier" => SandboxTier,
        "artifactKind" => ArtifactKindName,
        "nesting" => Nesting,
        "triggerKind" => TriggerKind,
        "installSurface" => InstallSurface,
        "permissionWriter" => PermissionWriter,
        "extendedHookEvent" => ExtendedHookEvent,
        "converter" => ConverterName,
        "embeddingMode" => EmbeddingMode,
        "commandSurface" => CommandSurface,
        "modelMode" => ModelMode,
        "hookBus" => HookBus,
        "stateIo" => StateIo,
        "hostTransport" => HostTransport,
        "hostRuntime" => HostRuntime,
        "subagentToolkit" => SubagentToolkit,
        "effortSurface" => EffortSurface,
        "dispatchIsolation" => DispatchIsolation,
        "laneTransport" => LaneTransport,
        "laneProbeKind" => LaneProbeKind,
        "promptChannel" => PromptChannel,
        "outputChannel" => OutputChannel,
        "effortChannel" => EffortChannel,
        "modelDiscovery" => ModelDiscovery,
        "emptyOutput" => EmptyOutput,
        "evidenceClass" => EvidenceClass,
        "laneHandler" => LaneHandler,
        "effortLevel" => EffortLevel,
    ];
    entries.push((
        "featureFieldsForbiddenOnRuntime",
        names(v::FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME),
    ));
    entries.push((
        "featureFieldsForbiddenOnReviewer",
        names(v::FEATURE_FIELDS_FORBIDDEN_ON_REVIEWER),
    ));
    entries.push(("knownReviewerFields", names(v::KNOWN_REVIEWER_FIELDS)));
    entries.push(("knownHostBehaviors", names(v::KNOWN_HOST_BEHAVIORS)));
    entries.push(("profileRank", names(v::PROFILE_RANK)));
    let precedence = v::DEFAULT_TRIGGER_PRECEDENCE
        .iter()
        .map(|k| Value::from(k.as_str()));
    entries.push(("defaultTriggerPrecedence", precedence.collect()));
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OverlayInput {
    folder: String,
    manifest: String,
    #[serde(default)]
    fragments: BTreeMap<String, String>,
}

/// Overlay folders from `[{ folder, manifest, fragments? }]`.
pub fn overlays(env: Env, value: Value) -> JsResult<Vec<gsd_core::Overlay>> {
    let inputs: Vec<OverlayInput> = from_value(env, "overlays", value)?;
    Ok(inputs
        .into_iter()
        .map(|o| gsd_core::Overlay {
            folder: o.folder,
            manifest: o.manifest,
            fragments: o.fragments.into_iter().collect(),
        })
        .collect())
}

/// Profile sources from `{ commands: [{ stem, body }], workflows: [{ path, body }] }`.
pub fn profile_sources(env: Env, value: Value) -> JsResult<gsd_core::ProfileSources> {
    from_value(env, "sources", value)
}

/// `{ name, skills: "*" | [...], agents: [...] }` (sorted lists).
pub fn profile_value(profile: &gsd_core::ResolvedProfile) -> Value {
    let skills = match &profile.skills {
        gsd_core::profile::ProfileSkills::All => Value::from("*"),
        gsd_core::profile::ProfileSkills::Only(set) => set.iter().cloned().collect(),
    };
    serde_json::json!({ "name": profile.name, "skills": skills, "agents": profile.agents })
}

//! The `role: runtime` body, first half: forbidden feature fields, `configHome` (with
//! `skillsHome`), `configFormat`, `artifactLayout`, the closed axes, `supportTier`,
//! `installSurface`, `writesSharedSettings`, `permissionWriter`, `localConfigDir` and
//! `extendedHookEvents`. The rest lives in [`super::runtime_axes`].

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};
use crate::vocab::Closed;

use super::envelope::string_code;
use super::paths::{name_problem, names_nothing, path_problem};
use super::{MAX_MANIFEST_DEPTH, Sink, absent_or, code, json, raw, runtime_axes, text};
use crate::js::{self, as_object, as_str, non_empty_str, type_of};
use crate::vocab::{
    ArtifactKindName, CommandStyle, ConfigFormat, ConfigHomeKind, ConverterName, ExtendedHookEvent,
    ExtensionEvents, FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME, HookEvents, HooksSurface, InstallSurface,
    Nesting, PermissionWriter, SandboxTier,
};

/// One finding before it reaches the sink (so `skillsHome` can rewrite nested messages).
type Finding = (&'static str, String, String);

/// The peer's `cap.id || '(unknown)'`, rendered for a message.
pub(crate) fn id_label<O: JsonObject>(cap: &O) -> String {
    let id = cap.field("id");
    if js::truthy(id) {
        text(id)
    } else {
        "(unknown)".to_owned()
    }
}

/// Peer `validateConfigHome(capId, ch)`; `cap_id` is already rendered, `field` is the
/// dotted path of `ch`.
#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
fn config_home<J: Json>(cap_id: &str, field: &str, ch: Option<&J>, depth: usize) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let ctx = super::lazy(|w| write!(w, "capability \"{cap_id}\" runtime.configHome"));
    let Some(obj) = as_object(ch) else {
        let got = if matches!(ch.map(Json::kind), Some(Kind::Null)) {
            "null"
        } else {
            type_of(ch)
        };
        out.push((
            absent_or(ch, code::WRONG_TYPE),
            field.to_owned(),
            format!("{ctx} must be an object (got: {got})"),
        ));
        return out;
    };
    let kind = obj.field("kind");
    if super::is_reserved_value(kind) {
        out.push((
            code::RESERVED_NAME,
            format!("{field}.kind"),
            format!("{ctx}.kind \"{}\" is a reserved name", text(kind)),
        ));
    } else if as_str(kind).and_then(ConfigHomeKind::parse).is_none() {
        out.push((
            absent_or(kind, code::INVALID_ENUM),
            format!("{field}.kind"),
            format!(
                "{ctx}.kind must be one of: {} (got: {})",
                ConfigHomeKind::one_of(),
                json(kind)
            ),
        ));
    }
    let kind = as_str(kind);
    let name = obj.field("name");
    if kind != Some("none") {
        if non_empty_str(name).is_none() {
            out.push((
                string_code(name),
                format!("{field}.name"),
                format!("{ctx}.name must be a non-empty string"),
            ));
        }
    } else if name.is_some() && non_empty_str(name).is_none() {
        out.push((
            string_code(name),
            format!("{field}.name"),
            format!("{ctx}.name must be a non-empty string if present when kind is \"none\""),
        ));
    }
    if let Some(problem) = non_empty_str(name).and_then(name_problem) {
        out.push((
            code::UNSAFE_CONFIG_HOME_NAME,
            format!("{field}.name"),
            format!(
                "{ctx}.name {} is not a safe directory name: it {problem}",
                json(name)
            ),
        ));
    }
    let parent = obj.field("parent");
    if kind == Some("dot-home-nested") && non_empty_str(parent).is_none() {
        out.push((
            string_code(parent),
            format!("{field}.parent"),
            format!("{ctx}.parent must be a non-empty string when kind is \"dot-home-nested\""),
        ));
    }
    if let Some(problem) = non_empty_str(parent).and_then(name_problem) {
        out.push((
            code::UNSAFE_CONFIG_HOME_PARENT,
            format!("{field}.parent"),
            format!(
                "{ctx}.parent {} is not a safe directory name: it {problem}",
                json(parent)
            ),
        ));
    }
    let env = obj.field("env");
    match env.map(Json::kind) {
        Some(Kind::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    out.push((
                        code::WRONG_TYPE,
                        format!("{field}.env[{i}]"),
                        format!("{ctx}.env[{i}] must be a string"),
                    ));
                }
            }
        }
        _ => out.push((
            absent_or(env, code::WRONG_TYPE),
            format!("{field}.env"),
            format!(
                "{ctx}.env is required and must be an array of strings (got: {})",
                json(env)
            ),
        )),
    }
    match obj.field("probe").map(Json::kind) {
        None => {}
        Some(Kind::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    out.push((
                        code::WRONG_TYPE,
                        format!("{field}.probe[{i}]"),
                        format!("{ctx}.probe[{i}] must be a string"),
                    ));
                }
            }
        }
        Some(_) => out.push((
            code::WRONG_TYPE,
            format!("{field}.probe"),
            format!("{ctx}.probe must be an array of strings if present"),
        )),
    }
    if let Some(Kind::Array(items)) = obj.field("probe").map(Json::kind) {
        for (i, item) in items.iter().enumerate() {
            if let Some((what, problem)) = item.as_str().and_then(|c| probe_problem(kind, c)) {
                out.push((
                    code::UNSAFE_CONFIG_HOME_PROBE,
                    format!("{field}.probe[{i}]"),
                    format!(
                        "{ctx}.probe[{i}] {} is not a safe {what}: it {problem}",
                        json(Some(item))
                    ),
                ));
            }
        }
    }
    let probe_exists = obj.field("probeExists");
    if probe_exists.is_some() && non_empty_str(probe_exists).is_none() {
        out.push((
            string_code(probe_exists),
            format!("{field}.probeExists"),
            format!(
                "{ctx}.probeExists must be a non-empty string if present (got: {})",
                json(probe_exists)
            ),
        ));
    }
    let probing = matches!(
        kind.and_then(ConfigHomeKind::parse),
        Some(ConfigHomeKind::DotHomeNested | ConfigHomeKind::GenericAgentsRoot)
    );
    if let Some(problem) = non_empty_str(probe_exists)
        .filter(|_| probing)
        .and_then(path_problem)
    {
        out.push((
            code::UNSAFE_CONFIG_HOME_PROBE,
            format!("{field}.probeExists"),
            format!(
                "{ctx}.probeExists {} must stay inside the probed directory: it {problem}",
                json(probe_exists)
            ),
        ));
    }
    if let Some(skills_home) = obj.field("skillsHome") {
        let nested_field = format!("{field}.skillsHome");
        if depth >= MAX_MANIFEST_DEPTH {
            out.push((
                code::TOO_DEEP,
                nested_field,
                format!("{ctx}.skillsHome nests deeper than {MAX_MANIFEST_DEPTH} levels"),
            ));
            return out;
        }
        // The peer validates the nested home under a synthetic id, then rewrites the first
        // occurrence of that prefix (a JavaScript `replace`, `$` patterns included).
        let nested_id = format!("{cap_id}.skillsHome");
        let needle = format!("capability \"{nested_id}\" runtime.configHome");
        let replacement = format!("{ctx}.skillsHome");
        for (c, f, message) in config_home(&nested_id, &nested_field, Some(skills_home), depth + 1)
        {
            out.push((c, f, js::replace_first(&message, &needle, &replacement)));
        }
    }
    out
}

/// Peer `validateArtifactKindEntry` plus our `destSubpath` and layout `home` checks.
#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
fn layout_entry<J: Json>(sink: &mut Sink, cap_id: &str, scope: &str, i: usize, entry: &J) {
    let field = super::lazy(|w| write!(w, "runtime.artifactLayout.{scope}[{i}]"));
    let ctx = super::lazy(|w| write!(w, "capability \"{cap_id}\" {field}"));
    let Some(obj) = entry.as_object() else {
        sink.push(code::WRONG_TYPE, &field, format!("{ctx} must be an object"));
        return;
    };
    let kind = obj.field("kind");
    if super::is_reserved_value(kind) {
        sink.push(
            code::RESERVED_NAME,
            format!("{field}.kind"),
            format!("{ctx}.kind \"{}\" is a reserved name", text(kind)),
        );
    } else if as_str(kind).and_then(ArtifactKindName::parse).is_none() {
        sink.push(
            absent_or(kind, code::INVALID_ENUM),
            format!("{field}.kind"),
            format!(
                "{ctx}.kind must be one of: {} (got: {})",
                ArtifactKindName::one_of(),
                json(kind)
            ),
        );
    }
    let dest = obj.field("destSubpath");
    match non_empty_str(dest) {
        None => sink.push(
            string_code(dest),
            format!("{field}.destSubpath"),
            format!("{ctx}.destSubpath must be a non-empty string"),
        ),
        Some(d) => {
            // "." (or "./", "././") is the config directory itself, which the plan refuses
            // for every artifact: no destination could ever be placed.
            let problem = path_problem(d).or_else(|| {
                names_nothing(d)
                    .then_some("names the config directory itself, not a directory in it")
            });
            if let Some(problem) = problem {
                sink.push(
                    code::UNSAFE_DEST_SUBPATH,
                    format!("{field}.destSubpath"),
                    format!(
                        "{ctx}.destSubpath {} must stay inside the config directory: it {problem}",
                        json(dest)
                    ),
                );
            }
        }
    }
    let nesting = obj.field("nesting");
    if matches!(nesting.map(Json::kind), None | Some(Kind::Null)) {
        sink.push(
            code::MISSING_FIELD,
            format!("{field}.nesting"),
            format!(
                "{ctx}.nesting is required and must be one of: {}",
                Nesting::one_of()
            ),
        );
    } else if as_str(nesting).and_then(Nesting::parse).is_none() {
        sink.push(
            code::INVALID_ENUM,
            format!("{field}.nesting"),
            format!(
                "{ctx}.nesting must be one of: {} (got: {})",
                Nesting::one_of(),
                json(nesting)
            ),
        );
    }
    let prefix = obj.field("prefix");
    if matches!(prefix.map(Json::kind), None | Some(Kind::Null)) {
        sink.push(
            code::MISSING_FIELD,
            format!("{field}.prefix"),
            format!("{ctx}.prefix is required (must be a string, may be empty)"),
        );
    } else if !prefix.is_some_and(Json::is_string) {
        sink.push(
            code::WRONG_TYPE,
            format!("{field}.prefix"),
            format!("{ctx}.prefix must be a string (got: {})", type_of(prefix)),
        );
    } else if let Some(problem) = as_str(prefix).and_then(prefix_problem) {
        sink.push(
            code::UNSAFE_LAYOUT_PREFIX,
            format!("{field}.prefix"),
            format!(
                "{ctx}.prefix {} must be part of one file name: it {problem}",
                json(prefix)
            ),
        );
    }
    let recursive = obj.field("recursive");
    if recursive.is_some() && !recursive.is_some_and(Json::is_boolean) {
        sink.push(
            code::WRONG_TYPE,
            format!("{field}.recursive"),
            format!(
                "{ctx}.recursive must be a boolean if present (got: {})",
                type_of(recursive)
            ),
        );
    }
    match obj.field("converter").map(|v| (v, v.kind())) {
        None => sink.push(
            code::MISSING_FIELD,
            format!("{field}.converter"),
            format!("{ctx}.converter is required (must be a string or null)"),
        ),
        Some((_, Kind::Null)) => {
            // The peer accepts it here and then throws from every install plan.
            if as_str(kind) == Some(ArtifactKindName::Skills.as_str()) {
                sink.push(
                    code::SKILLS_WITHOUT_CONVERTER,
                    format!("{field}.converter"),
                    format!(
                        "{ctx}.converter is null, but a skills entry needs a converter (every install plan would fail)"
                    ),
                );
            }
        }
        Some((_, Kind::String(c))) => {
            if ConverterName::parse(c).is_none() {
                sink.push(
                    code::INVALID_ENUM,
                    format!("{field}.converter"),
                    format!(
                        "{ctx}.converter \"{}\" is not a known ConverterName",
                        raw(c)
                    ),
                );
            }
        }
        Some((other, _)) => sink.push(
            code::WRONG_TYPE,
            format!("{field}.converter"),
            format!(
                "{ctx}.converter must be a string or null (got: {})",
                type_of(Some(other))
            ),
        ),
    }
    if scope == "global"
        && let Some(home) = obj.field("home")
    {
        {
            let problem = match home.as_str() {
                Some("") | None => Some("is not a non-empty string"),
                Some(h) => path_problem(h),
            };
            if let Some(problem) = problem {
                sink.push(
                    code::UNSAFE_LAYOUT_HOME,
                    format!("{field}.home"),
                    format!("{ctx}.home {} must be a relative path inside the home directory: it {problem}", json(Some(home))),
                );
            }
        }
    }
}

/// Peer `validateArtifactLayout`.
fn artifact_layout<J: Json>(sink: &mut Sink, cap_id: &str, layout: Option<&J>) {
    let ctx = super::lazy(|w| write!(w, "capability \"{cap_id}\" runtime.artifactLayout"));
    let Some(obj) = as_object(layout) else {
        sink.push(
            absent_or(layout, code::WRONG_TYPE),
            "runtime.artifactLayout",
            format!("{ctx} must be an object with \"global\" and \"local\" arrays"),
        );
        return;
    };
    for scope in ["global", "local"] {
        let Some(Kind::Array(entries)) = obj.field(scope).map(Json::kind) else {
            sink.push(
                absent_or(obj.field(scope), code::WRONG_TYPE),
                format!("runtime.artifactLayout.{scope}"),
                format!("{ctx}.{scope} must be an array"),
            );
            continue;
        };
        for (i, entry) in entries.iter().enumerate() {
            layout_entry(sink, cap_id, scope, i, entry);
            if scope == "local" && entry.as_object().is_some_and(|e| e.has_field("home")) {
                sink.push(
                    code::FORBIDDEN_FIELD,
                    format!("runtime.artifactLayout.local[{i}].home"),
                    format!("{ctx}.local[{i}].home is not allowed; local artifact layout entries must remain project-scoped"),
                );
            }
        }
    }
}

/// A closed axis of the runtime body (`runtime.<key>`): reserved names first, then the
/// vocabulary with a `JSON.stringify` rendering. Optional axes are skipped when absent.
fn axis<V: Closed, O: JsonObject>(sink: &mut Sink, r: &O, key: &str, optional: bool) {
    let v = r.field(key);
    if optional && v.is_none() {
        return;
    }
    let field = super::lazy(|w| write!(w, "runtime.{key}"));
    if super::is_reserved_value(v) {
        sink.push(
            code::RESERVED_NAME,
            field,
            format!("runtime.{key} \"{}\" is a reserved name", text(v)),
        );
    } else if !as_str(v).is_some_and(V::is_member) {
        sink.push(
            absent_or(v, code::INVALID_ENUM),
            field,
            format!(
                "runtime.{key} must be one of: {} (got: {})",
                V::one_of(),
                json(v)
            ),
        );
    }
}

fn local_config_dir<O: JsonObject>(sink: &mut Sink, r: &O) {
    let kind = as_object(r.field("configHome")).and_then(|ch| as_str(ch.field("kind")));
    let dir = r.field("localConfigDir");
    if kind == Some("none") {
        if !matches!(dir.map(Json::kind), None | Some(Kind::Null)) {
            sink.push(
                code::INVALID_VALUE,
                "runtime.localConfigDir",
                format!("runtime.localConfigDir must be null or absent when configHome.kind is \"none\"; got: {}", json(dir)),
            );
        }
        return;
    }
    match non_empty_str(dir) {
        None => sink.push(
            string_code(dir),
            "runtime.localConfigDir",
            format!(
                "runtime.localConfigDir is required and must be a non-empty string (e.g. \".claude\"); got: {}",
                json(dir)
            ),
        ),
        Some(d) if !d.starts_with('.') => sink.push(
            code::INVALID_VALUE,
            "runtime.localConfigDir",
            format!("runtime.localConfigDir must start with \".\" (a dot-dir); got: {}", json(dir)),
        ),
        Some(d) => {
            if let Some(problem) = path_problem(d) {
                sink.push(
                    code::UNSAFE_LOCAL_CONFIG_DIR,
                    "runtime.localConfigDir",
                    format!("runtime.localConfigDir {} must stay inside the project: it {problem}", json(dir)),
                );
            }
        }
    }
}

/// Why a `configHome.probe` candidate is unsafe for `kind`: what it must be, and the tail
/// of a message saying why it is not; `None` for the kinds that never read a probe list
/// (`dot-home`, `xdg`, `none`), where it has no effect.
///
/// `dot-home-nested` joins each candidate onto `<home>/<parent>`, so it must be one
/// directory name, as `name` must. `generic-agents-root` tilde-expands each candidate and
/// would use an absolute one verbatim (and a relative one against the working directory):
/// only `~/` followed by a confined relative path keeps the config home under the home.
fn probe_problem(kind: Option<&str>, candidate: &str) -> Option<(&'static str, &'static str)> {
    match kind.and_then(ConfigHomeKind::parse) {
        Some(ConfigHomeKind::DotHomeNested) => {
            name_problem(candidate).map(|p| ("directory name", p))
        }
        Some(ConfigHomeKind::GenericAgentsRoot) => {
            let what = "path under the home directory";
            let Some(rest) = candidate.strip_prefix("~/") else {
                return Some((what, "does not start with \"~/\""));
            };
            if let Some(problem) = path_problem(rest) {
                return Some((what, problem));
            }
            names_nothing(rest).then_some((what, "names the home directory itself"))
        }
        _ => None,
    }
}

/// Why a layout `prefix` cannot begin a file name. The prefix is joined to each stem to
/// name a placement and to spell its trigger, so it obeys the stems' rule: no separator
/// (it would add a directory level or climb out of the kind's directory), and no control,
/// bidi or invisible character (a name that prints like another, or not at all).
fn prefix_problem(prefix: &str) -> Option<&'static str> {
    // The message below spells both bounds.
    const _: () =
        assert!(crate::plan::MAX_PREFIX_BYTES == 32 && crate::plan::MAX_STEM_BYTES == 200);
    if prefix.len() > crate::plan::MAX_PREFIX_BYTES {
        return Some(
            "is longer than 32 bytes (with a stem of up to 200 bytes it must fit in a 255-byte file name)",
        );
    }
    if prefix.contains(['/', '\\']) {
        return Some("contains a path separator");
    }
    if prefix.chars().any(crate::sanitize::is_unsafe_char) {
        return Some("contains a control, bidi or invisible character");
    }
    None
}

/// Why a settings file path is unsafe: it must stay inside the config directory and print
/// as what it is ([`path_problem`]), and name a file
/// (its last segment is neither empty, as after a trailing separator, nor `.`/`..`).
fn settings_file_problem(file: &str) -> Option<&'static str> {
    if let Some(problem) = path_problem(file) {
        return Some(problem);
    }
    if matches!(file.rsplit(['/', '\\']).next(), Some("" | ".")) {
        return Some("does not name a file (it ends with a separator or \".\")");
    }
    None
}

/// `hostBehaviors.settingsFileByScope.global` / `.local`: the file the installer writes
/// the host's settings to, joined onto the config directory, so it must stay inside it.
/// The peer hands any value on unchecked; a value that is not a non-empty string would
/// otherwise be read as "no settings file" without a word.
fn settings_files<O: JsonObject>(sink: &mut Sink, r: &O) {
    let Some(by_scope) = r
        .field("hostBehaviors")
        .and_then(|h| h.field("settingsFileByScope"))
    else {
        return;
    };
    for scope in ["global", "local"] {
        // Absent or `null`: no settings file at this scope (the peer's `?? null`).
        let Some(value) = by_scope.field(scope).filter(|v| !v.is_null()) else {
            continue;
        };
        let problem = match non_empty_str(Some(value)) {
            None => "is not a non-empty string",
            Some(file) => match settings_file_problem(file) {
                Some(problem) => problem,
                None => continue,
            },
        };
        sink.push(
            code::UNSAFE_SETTINGS_FILE,
            format!("runtime.hostBehaviors.settingsFileByScope.{scope}"),
            format!(
                "runtime.hostBehaviors.settingsFileByScope.{scope} {} must be a file inside the config directory: it {problem}",
                json(Some(value))
            ),
        );
    }
}

/// `hostBehaviors.agentFileExtension`: the suffix every agent file is renamed to (copilot:
/// `.agent.md`). The peer reads a non-string as "no rename" and joins any string onto each
/// agent stem unchecked; a plan takes only a suffix that keeps the agent one file name
/// (`plan::placement::agent_suffix_problem`), so anything else would fail every plan.
/// `null`, like an absent key, means no rename.
fn agent_file_extension<O: JsonObject>(sink: &mut Sink, r: &O) {
    let Some(value) = r
        .field("hostBehaviors")
        .and_then(|h| h.field("agentFileExtension"))
        .filter(|v| !v.is_null())
    else {
        return;
    };
    let problem = match as_str(Some(value)) {
        None => "is not a string",
        Some(ext) => match crate::plan::agent_suffix_problem(ext) {
            Some(problem) => problem,
            None => return,
        },
    };
    sink.push(
        code::UNSAFE_AGENT_FILE_EXTENSION,
        "runtime.hostBehaviors.agentFileExtension",
        crate::plan::agent_suffix_refusal(&json(Some(value)), problem),
    );
}

/// Peer `validateRuntimeBody`.
#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
pub(super) fn validate<O: JsonObject>(sink: &mut Sink, cap: &O) {
    for field in FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME {
        if cap.has_field(field) {
            sink.push(
                code::FORBIDDEN_FIELD,
                *field,
                format!("role:runtime capability must not have \"{field}\" (feature-only field)"),
            );
        }
    }
    let Some(r) = as_object(cap.field("runtime")) else {
        sink.push(
            absent_or(cap.field("runtime"), code::WRONG_TYPE),
            "runtime",
            "role:runtime capability must have a \"runtime\" object",
        );
        return;
    };
    let cap_id = id_label(cap);
    for (c, f, message) in config_home(&cap_id, "runtime.configHome", r.field("configHome"), 0) {
        sink.push(c, f, message);
    }
    let format_value = r.field("configFormat");
    if as_str(format_value).and_then(ConfigFormat::parse).is_none() {
        sink.push(
            absent_or(format_value, code::INVALID_ENUM),
            "runtime.configFormat",
            format!(
                "runtime.configFormat must be one of: {} (got: {})",
                ConfigFormat::one_of(),
                text(format_value)
            ),
        );
    }
    artifact_layout(sink, &cap_id, r.field("artifactLayout"));
    axis::<CommandStyle, _>(sink, r, "commandStyle", false);
    axis::<HooksSurface, _>(sink, r, "hooksSurface", false);
    axis::<HookEvents, _>(sink, r, "hookEvents", true);
    axis::<ExtensionEvents, _>(sink, r, "extensionEvents", true);
    axis::<SandboxTier, _>(sink, r, "sandboxTier", false);

    let tier = r.field("supportTier");
    if !matches!(js::number(tier), Some(x) if (1.0..=2.0).contains(&x) && x.fract() == 0.0) {
        sink.push(
            absent_or(tier, code::INVALID_VALUE),
            "runtime.supportTier",
            format!("runtime.supportTier must be 1 or 2 (got: {})", text(tier)),
        );
    }
    let surface = r.field("installSurface");
    if as_str(surface).and_then(InstallSurface::parse).is_none() {
        sink.push(
            absent_or(surface, code::INVALID_ENUM),
            "runtime.installSurface",
            format!(
                "runtime.installSurface must be one of: {} (got: {})",
                InstallSurface::one_of(),
                json(surface)
            ),
        );
    }
    let shared = r.field("writesSharedSettings");
    if !shared.is_some_and(Json::is_boolean) {
        sink.push(
            absent_or(shared, code::WRONG_TYPE),
            "runtime.writesSharedSettings",
            format!(
                "runtime.writesSharedSettings must be a boolean (got: {})",
                json(shared)
            ),
        );
    }
    match r.field("permissionWriter").map(|v| (v, v.kind())) {
        None => sink.push(
            code::MISSING_FIELD,
            "runtime.permissionWriter",
            format!(
                "runtime.permissionWriter is required (must be null or one of: {})",
                PermissionWriter::one_of()
            ),
        ),
        Some((_, Kind::Null)) => {}
        Some((v, _)) => {
            if v.as_str().and_then(PermissionWriter::parse).is_none() {
                sink.push(
                    code::INVALID_ENUM,
                    "runtime.permissionWriter",
                    format!(
                        "runtime.permissionWriter must be null or one of: {} (got: {})",
                        PermissionWriter::one_of(),
                        json(Some(v))
                    ),
                );
            }
        }
    }
    local_config_dir(sink, r);
    settings_files(sink, r);
    agent_file_extension(sink, r);
    let value = r.field("extendedHookEvents");
    match value.map(Json::kind) {
        Some(Kind::Array(events)) => {
            for (i, ev) in events.iter().enumerate() {
                if ev.as_str().and_then(ExtendedHookEvent::parse).is_none() {
                    sink.push(
                        code::INVALID_ENUM,
                        format!("runtime.extendedHookEvents[{i}]"),
                        format!(
                            "runtime.extendedHookEvents[{i}] must be one of: {} (got: {})",
                            ExtendedHookEvent::one_of(),
                            json(Some(ev))
                        ),
                    );
                }
            }
        }
        _ => sink.push(
            absent_or(value, code::WRONG_TYPE),
            "runtime.extendedHookEvents",
            format!(
                "runtime.extendedHookEvents must be an array (got: {})",
                json(value)
            ),
        ),
    }
    runtime_axes::validate(sink, r);
}

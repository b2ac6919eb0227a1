//! Loop hooks of a feature body: `hooks[]` (shell-safe scripts), `steps[]`,
//! `contributions[]` and `gates[]` with their fragments.
//!
//! The peer dereferences each steps/contributions/gates element without checking it, so a
//! `null` element makes it throw; we report a `null_element` error for that element and
//! go on. Fragment paths get our extra path-safety check on top of the peer's.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};

use std::collections::HashSet;

use super::paths::path_problem;
use super::{Sink, code, json, raw, text};
use crate::js::as_str;
use crate::vocab::{LoopPoint, OnError};

/// How many declared names an undeclared-reference message lists.
const MAX_LISTED_NAMES: usize = 50;

/// Declared skill or agent names: JavaScript `Set` semantics (unique, insertion order).
#[derive(Debug, Default)]
struct Declared<'a> {
    order: Vec<&'a str>,
    set: HashSet<&'a str>,
}

/// `[A-Za-z0-9._/-]+`, relative, no `..` or `-`-leading segment, no `__pycache__` /
/// `.pytest_cache` segment, no `.pyc`/`.pyo` basename (any case): peer `isSafeHookScriptPath`.
fn is_safe_hook_script(s: &str) -> bool {
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b))
        || s.starts_with('/')
    {
        return false;
    }
    let segments: Vec<&str> = s.split('/').collect();
    if segments.iter().any(|seg| {
        *seg == ".." || seg.starts_with('-') || *seg == "__pycache__" || *seg == ".pytest_cache"
    }) {
        return false;
    }
    let base = s
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    !(base.to_ascii_lowercase().ends_with(".pyc") || base.to_ascii_lowercase().ends_with(".pyo"))
}

fn hook_entries<O: JsonObject>(sink: &mut Sink, cap: &O) {
    let Some(hooks) = cap.field("hooks") else {
        return;
    };
    let Some(items) = hooks.as_array() else {
        sink.push(
            code::WRONG_TYPE,
            "hooks",
            "hooks must be an array of {event, script} objects",
        );
        return;
    };
    for (i, h) in items.iter().enumerate() {
        let field = super::lazy(|w| write!(w, "hooks[{i}]"));
        let Some(h) = h.as_object() else {
            sink.push(
                code::WRONG_TYPE,
                &field,
                format!("{field} must be an object with event and script keys"),
            );
            continue;
        };
        let event = h.field("event");
        if crate::js::non_empty_str(event).is_none() {
            sink.push(
                super::envelope::string_code(event),
                format!("{field}.event"),
                format!("{field}.event must be a non-empty string"),
            );
        }
        let script = h.field("script");
        match crate::js::non_empty_str(script) {
            None => sink.push(
                super::envelope::string_code(script),
                format!("{field}.script"),
                format!("{field}.script must be a non-empty string"),
            ),
            Some(s) if !is_safe_hook_script(s) => sink.push(
                code::UNSAFE_SCRIPT,
                format!("{field}.script"),
                format!(
                    "{field}.script must be a relative path containing only [A-Za-z0-9._/-] (no whitespace, shell \
                     metacharacters (e.g. ; | & $ ` ( ) < > * ? newline), leading \"-\", absolute path, or \"..\" segment) — \
                     it contains unsafe characters: {}",
                    json(script)
                ),
            ),
            Some(_) => {}
        }
        if let Some(matcher) = h.field("matcher") {
            match matcher.as_str() {
                None | Some("") => sink.push(
                    super::envelope::string_code(Some(matcher)),
                    format!("{field}.matcher"),
                    format!("{field}.matcher must be a non-empty string when present"),
                ),
                Some(m) if m.chars().any(|c| (c as u32) < 0x20 || c == '\u{7f}') => sink.push(
                    code::INVALID_VALUE,
                    format!("{field}.matcher"),
                    format!("{field}.matcher must not contain control characters"),
                ),
                Some(_) => {}
            }
        }
    }
}

fn point<J: Json>(sink: &mut Sink, prefix: &str, item: &J) {
    let p = item.field("point");
    if as_str(p).and_then(LoopPoint::parse).is_none() {
        sink.push(
            super::absent_or(p, code::INVALID_ENUM),
            format!("{prefix}.point"),
            format!("{prefix}.point \"{}\" is not a valid loop point", text(p)),
        );
    }
}

fn string_arrays<J: Json>(sink: &mut Sink, prefix: &str, item: &J) {
    for key in ["produces", "consumes"] {
        let value = item.field(key);
        match value.map(Json::kind) {
            Some(Kind::Array(values)) => {
                for (i, v) in values.iter().enumerate() {
                    if !v.is_string() {
                        sink.push(
                            code::WRONG_TYPE,
                            format!("{prefix}.{key}[{i}]"),
                            format!("{prefix}.{key} entries must be strings"),
                        );
                    }
                }
            }
            _ => {
                sink.push(
                    super::absent_or(value, code::WRONG_TYPE),
                    format!("{prefix}.{key}"),
                    format!("{prefix}.{key} must be an array"),
                );
            }
        }
    }
}

fn optional_typed<J: Json>(
    sink: &mut Sink,
    prefix: &str,
    item: &J,
    key: &str,
    ok: fn(&J) -> bool,
    what: &str,
) {
    if let Some(v) = item.field(key)
        && !ok(v)
    {
        {
            sink.push(
                code::WRONG_TYPE,
                format!("{prefix}.{key}"),
                format!("{prefix}.{key} must be {what} if present"),
            );
        }
    }
}

/// Peer `validateFragment` plus our fragment path check.
fn fragment<J: Json>(sink: &mut Sink, prefix: &str, value: Option<&J>) {
    let field = super::lazy(|w| write!(w, "{prefix}.fragment"));
    let Some(f) = value.and_then(Json::as_object) else {
        sink.push(
            super::absent_or(value, code::WRONG_TYPE),
            &field,
            format!("{field} must be an object with path or inline key"),
        );
        return;
    };
    let (path, inline) = (f.field("path"), f.field("inline"));
    if path.is_none() && inline.is_none() {
        sink.push(
            code::MISSING_FIELD,
            &field,
            format!("{field} must have a \"path\" or \"inline\" key"),
        );
    }
    match inline.map(|v| (v, v.kind())) {
        Some((_, Kind::String(""))) => sink.push(
            code::INVALID_VALUE,
            format!("{field}.inline"),
            format!("{field}.inline must be a non-empty string"),
        ),
        Some((v, _)) if !v.is_string() => sink.push(
            code::WRONG_TYPE,
            format!("{field}.inline"),
            format!("{field}.inline must be a string"),
        ),
        _ => {}
    }
    let Some(path) = path else { return };
    let peer_ok = path.as_str().filter(|p| {
        !p.is_empty() && !p.starts_with('/') && !p.split(['/', '\\']).any(|s| s == "..")
    });
    match peer_ok {
        None => sink.push(
            if path.is_string() {
                code::UNSAFE_PATH
            } else {
                code::WRONG_TYPE
            },
            format!("{field}.path"),
            format!("{field}.path must be a relative path with no \"..\" segments"),
        ),
        Some(p) => {
            if let Some(problem) = path_problem(p) {
                sink.push(
                    code::UNSAFE_FRAGMENT_PATH,
                    format!("{field}.path"),
                    format!(
                        "{field}.path {} must stay inside the capability directory: it {problem}",
                        json(Some(path))
                    ),
                );
            }
        }
    }
}

fn on_error_required<J: Json>(sink: &mut Sink, prefix: &str, item: &J) {
    let v = item.field("onError");
    if as_str(v).and_then(OnError::parse).is_none() {
        sink.push(
            super::absent_or(v, code::INVALID_ENUM),
            format!("{prefix}.onError"),
            format!(
                "{prefix}.onError must be \"skip\" or \"halt\" (got: {})",
                text(v)
            ),
        );
    }
}

/// Our error for a `null` element (the peer throws a `TypeError` here).
fn null_element(sink: &mut Sink, prefix: &str) {
    sink.push(
        code::NULL_ELEMENT,
        prefix,
        format!("{prefix} must be an object (got: null)"),
    );
}

fn step<J: Json>(
    sink: &mut Sink,
    prefix: &str,
    s: &J,
    skills: Option<&Declared>,
    agents: Option<&Declared>,
) {
    point(sink, prefix, s);
    let value = s.field("ref");
    match value.map(|v| (v, v.kind())) {
        Some((r, Kind::Object(_) | Kind::Array(_))) => {
            let empty = <J::Object as JsonObject>::empty();
            let r = r.as_object().unwrap_or(&empty);
            let (skill, agent, command) = (r.field("skill"), r.field("agent"), r.field("command"));
            let count = [skill, agent, command]
                .iter()
                .filter(|v| v.is_some())
                .count();
            if count == 0 {
                sink.push(
                    code::MISSING_FIELD,
                    format!("{prefix}.ref"),
                    format!("{prefix}.ref must have a \"skill\", \"agent\", or \"command\" key"),
                );
            } else if count > 1 {
                sink.push(
                    code::CONFLICTING_FIELDS,
                    format!("{prefix}.ref"),
                    format!("{prefix}.ref must have exactly one of \"skill\", \"agent\", or \"command\", not multiple"),
                );
            }
            reference(sink, prefix, "skill", skill, skills);
            reference(sink, prefix, "agent", agent, agents);
            if command.is_some_and(|c| !c.is_string()) {
                sink.push(
                    code::WRONG_TYPE,
                    format!("{prefix}.ref.command"),
                    format!("{prefix}.ref.command must be a string"),
                );
            }
        }
        _ => sink.push(
            super::absent_or(value, code::WRONG_TYPE),
            format!("{prefix}.ref"),
            format!("{prefix}.ref must be an object with skill, agent, or command key"),
        ),
    }
    string_arrays(sink, prefix, s);
    optional_typed(sink, prefix, s, "when", Json::is_string, "a string");
    optional_typed(sink, prefix, s, "pointFrom", Json::is_string, "a string");
    optional_typed(
        sink,
        prefix,
        s,
        "supportsReviewerLanes",
        Json::is_boolean,
        "a boolean",
    );
    if let Some(f) = s.field("fragment") {
        fragment(sink, prefix, Some(f));
    }
    on_error_required(sink, prefix, s);
}

/// `ref.skill` / `ref.agent`: a string, not `gsd-`-prefixed (skills), declared.
fn reference<J: Json>(
    sink: &mut Sink,
    prefix: &str,
    kind: &str,
    v: Option<&J>,
    declared: Option<&Declared>,
) {
    let Some(v) = v else { return };
    let field = super::lazy(|w| write!(w, "{prefix}.ref.{kind}"));
    let Some(name) = v.as_str() else {
        sink.push(
            code::WRONG_TYPE,
            &field,
            format!("{field} must be a string"),
        );
        return;
    };
    let shown = raw(name);
    if kind == "skill" && name.starts_with("gsd-") {
        sink.push(
            code::INVALID_VALUE,
            &field,
            format!(
                "{field} \"{shown}\" must not start with \"gsd-\" (it is an unprefixed stem; the workflow prepends \"gsd-\" \
                 at dispatch — starting with \"gsd-\" would produce \"gsd-{shown}\")"
            ),
        );
    } else if let Some(declared) = declared.filter(|d| !d.set.contains(name)) {
        // The peer lists every declared name; we list at most 50 (then `…`), so a
        // manifest with many names and many bad references stays cheap.
        let mut list: Vec<String> = declared
            .order
            .iter()
            .take(MAX_LISTED_NAMES)
            .map(|d| raw(d))
            .collect();
        if declared.order.len() > MAX_LISTED_NAMES {
            list.push("…".to_owned());
        }
        sink.push(
            code::UNDECLARED_REFERENCE,
            &field,
            format!(
                "{field} \"{shown}\" is not declared in this capability's {kind}s: [{}]",
                list.join(", ")
            ),
        );
    }
}

fn contribution<J: Json>(sink: &mut Sink, prefix: &str, c: &J) {
    point(sink, prefix, c);
    let into = c.field("into");
    if !into.is_some_and(Json::is_string) {
        sink.push(
            super::absent_or(into, code::WRONG_TYPE),
            format!("{prefix}.into"),
            format!("{prefix}.into must be a string (agent role name)"),
        );
    }
    string_arrays(sink, prefix, c);
    fragment(sink, prefix, c.field("fragment"));
    optional_typed(sink, prefix, c, "when", Json::is_string, "a string");
    if let Some(v) = c.field("onError")
        && v.as_str().and_then(OnError::parse).is_none()
    {
        {
            sink.push(
                code::INVALID_ENUM,
                format!("{prefix}.onError"),
                format!("{prefix}.onError must be \"skip\" or \"halt\" if present"),
            );
        }
    }
}

fn gate<J: Json>(sink: &mut Sink, prefix: &str, g: &J) {
    point(sink, prefix, g);
    let blocking = g.field("blocking");
    let value = g.field("check");
    match value.map(|v| (v, v.kind())) {
        Some((check, Kind::Object(_) | Kind::Array(_))) => {
            let has = |k: &str| check.as_object().is_some_and(|o| o.has_field(k));
            let count = ["query", "predicate", "agentVerdict"]
                .iter()
                .filter(|k| has(k))
                .count();
            if count != 1 {
                sink.push(
                    code::CONFLICTING_FIELDS,
                    format!("{prefix}.check"),
                    format!(
                        "{prefix}.check must have exactly one of: query, predicate, agentVerdict"
                    ),
                );
            }
            if has("agentVerdict") && matches!(blocking.map(Json::kind), Some(Kind::Bool(true))) {
                sink.push(
                    code::CONFLICTING_FIELDS,
                    format!("{prefix}.blocking"),
                    format!(
                        "{prefix}.check.agentVerdict forces blocking: false (non-deterministic checks may not halt the loop)"
                    ),
                );
            }
        }
        _ => sink.push(
            super::absent_or(value, code::WRONG_TYPE),
            format!("{prefix}.check"),
            format!("{prefix}.check must be an object"),
        ),
    }
    optional_typed(sink, prefix, g, "when", Json::is_string, "a string");
    if !blocking.is_some_and(Json::is_boolean) {
        sink.push(
            super::absent_or(blocking, code::WRONG_TYPE),
            format!("{prefix}.blocking"),
            format!("{prefix}.blocking must be a boolean"),
        );
    }
    on_error_required(sink, prefix, g);
}

/// `steps`, `contributions`, `gates` (required arrays) and the optional `hooks` array.
pub(super) fn validate<O: JsonObject>(sink: &mut Sink, cap: &O) {
    hook_entries(sink, cap);
    let names = |key: &str| -> Option<Declared> {
        let items = cap.field(key)?.as_array()?;
        let mut declared = Declared::default();
        for name in items.iter().filter_map(Json::as_str) {
            if declared.set.insert(name) {
                declared.order.push(name);
            }
        }
        Some(declared)
    };
    let (skills, agents) = (names("skills"), names("agents"));
    let groups: [(&str, &str); 3] = [
        ("steps", "steps must be an array"),
        ("contributions", "contributions must be an array"),
        ("gates", "gates must be an array"),
    ];
    for (key, message) in groups {
        let Some(Kind::Array(items)) = cap.field(key).map(Json::kind) else {
            sink.push(
                super::absent_or(cap.field(key), code::WRONG_TYPE),
                key,
                message,
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let prefix = format!("{key}[{i}]");
            if item.is_null() {
                null_element(sink, &prefix);
                continue;
            }
            match key {
                "steps" => step(sink, &prefix, item, skills.as_ref(), agents.as_ref()),
                "contributions" => contribution(sink, &prefix, item),
                _ => gate(sink, &prefix, item),
            }
        }
    }
}

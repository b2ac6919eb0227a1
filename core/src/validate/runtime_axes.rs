//! The `role: runtime` body, second half: `hostIntegration` (with `dispatch`),
//! `orchestratorExec`, `harnessIsolationFlag`, gate A (install surface ↔ hooks surface),
//! gate B (extended hook events ↔ hook-event dialect) and `triggerPrecedence`.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};
use crate::vocab::Closed;

use super::{Sink, absent_or, code, json, text};
use crate::js::{self, as_object, as_str, non_empty_str};
use crate::vocab::{
    CommandSurface, DispatchIsolation, EffortSurface, EmbeddingMode, ExtendedHookEvent, HookBus,
    HostRuntime, HostTransport, InstallSurface, ModelMode, StateIo, SubagentToolkit, TriggerKind,
    UNDOCUMENTED,
};

/// A `hostIntegration` axis: reserved names, then the vocabulary or `undocumented`.
fn integration_axis<V: Closed, O: JsonObject>(sink: &mut Sink, obj: &O, path: &str, key: &str) {
    let v = obj.field(key);
    if super::is_reserved_value(v) {
        let field = super::lazy(|w| write!(w, "{path}.{key}"));
        sink.push(
            code::RESERVED_NAME,
            &field,
            format!("{field} \"{}\" is a reserved name", text(v)),
        );
    } else if !as_str(v).is_some_and(|s| s == UNDOCUMENTED || V::is_member(s)) {
        let field = super::lazy(|w| write!(w, "{path}.{key}"));
        sink.push(
            absent_or(v, code::INVALID_ENUM),
            &field,
            format!(
                "{field} must be one of: {} (or \"undocumented\") (got: {})",
                V::one_of(),
                json(v)
            ),
        );
    }
}

/// The reserved-own-key guard of `hostIntegration`, `dispatch` and `orchestratorExec`.
fn reserved_keys<O: JsonObject>(sink: &mut Sink, obj: &O, path: &str) {
    for key in crate::vocab::RESERVED_NAMES {
        if obj.has_field(key) {
            sink.push(
                code::RESERVED_NAME,
                format!("{path}.{key}"),
                format!("{path} must not contain reserved key \"{key}\""),
            );
        }
    }
}

fn bool_or_undocumented<J: Json>(v: Option<&J>) -> bool {
    v.is_some_and(Json::is_boolean) || as_str(v) == Some(UNDOCUMENTED)
}

fn dispatch<O: JsonObject>(sink: &mut Sink, d: &O) {
    const P: &str = "runtime.hostIntegration.dispatch";
    reserved_keys(sink, d, P);
    for key in ["namedDispatch", "nested", "background"] {
        let v = d.field(key);
        if !bool_or_undocumented(v) {
            sink.push(
                absent_or(v, code::WRONG_TYPE),
                format!("{P}.{key}"),
                format!(
                    "{P}.{key} must be a boolean or \"undocumented\" (got: {})",
                    json(v)
                ),
            );
        }
    }
    integration_axis::<SubagentToolkit, _>(sink, d, P, "subagentToolkit");
    let depth = d.field("maxDepth");
    if as_str(depth) != Some(UNDOCUMENTED)
        && !(js::is_integer(depth) && js::number(depth).is_some_and(|x| x >= -1.0))
    {
        sink.push(
            absent_or(depth, code::INVALID_VALUE),
            format!("{P}.maxDepth"),
            format!(
                "{P}.maxDepth must be an integer >= -1 or \"undocumented\" (got: {})",
                json(depth)
            ),
        );
    }
    match d.field("backgroundDispatch") {
        None => sink.push(
            code::MISSING_FIELD,
            format!("{P}.backgroundDispatch"),
            format!("{P}.backgroundDispatch is required (must be a boolean or \"undocumented\")"),
        ),
        Some(v) if !bool_or_undocumented(Some(v)) => sink.push(
            code::WRONG_TYPE,
            format!("{P}.backgroundDispatch"),
            format!(
                "{P}.backgroundDispatch must be a boolean or \"undocumented\" (got: {})",
                json(Some(v))
            ),
        ),
        Some(_) => {}
    }
    if d.has_field("isolation") {
        integration_axis::<DispatchIsolation, _>(sink, d, P, "isolation");
    }
    if let Some(v) = d.field("maxConcurrency") {
        let ok = v.as_str() == Some(UNDOCUMENTED)
            || (js::is_safe_integer(Some(v)) && js::number(Some(v)).is_some_and(|x| x >= 1.0));
        if !ok {
            sink.push(
                code::INVALID_VALUE,
                format!("{P}.maxConcurrency"),
                format!("{P}.maxConcurrency must be a positive safe integer or \"undocumented\" (got: {})", json(Some(v))),
            );
        }
    }
}

fn host_integration<O: JsonObject>(sink: &mut Sink, r: &O) {
    const P: &str = "runtime.hostIntegration";
    let Some(hi) = as_object(r.field("hostIntegration")) else {
        sink.push(
            absent_or(r.field("hostIntegration"), code::WRONG_TYPE),
            P,
            "runtime.hostIntegration is required and must be an object",
        );
        return;
    };
    reserved_keys(sink, hi, P);
    integration_axis::<EmbeddingMode, _>(sink, hi, P, "embeddingMode");
    integration_axis::<CommandSurface, _>(sink, hi, P, "commandSurface");
    integration_axis::<ModelMode, _>(sink, hi, P, "modelMode");
    integration_axis::<HookBus, _>(sink, hi, P, "hookBus");
    integration_axis::<StateIo, _>(sink, hi, P, "stateIO");
    integration_axis::<HostTransport, _>(sink, hi, P, "transport");
    integration_axis::<HostRuntime, _>(sink, hi, P, "runtime");
    if hi.has_field("effortSurface") {
        integration_axis::<EffortSurface, _>(sink, hi, P, "effortSurface");
    }
    match as_object(hi.field("dispatch")) {
        Some(d) => dispatch(sink, d),
        None => sink.push(
            absent_or(hi.field("dispatch"), code::WRONG_TYPE),
            format!("{P}.dispatch"),
            format!("{P}.dispatch must be an object"),
        ),
    }
}

fn orchestrator_exec<O: JsonObject>(sink: &mut Sink, r: &O) {
    const P: &str = "runtime.orchestratorExec";
    let Some(v) = r.field("orchestratorExec") else {
        return;
    };
    let Some(oe) = v.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            P,
            format!("{P} must be an object (got: {})", js::kind_of(Some(v))),
        );
        return;
    };
    reserved_keys(sink, oe, P);
    let command = oe.field("command");
    if super::is_reserved_value(command) {
        sink.push(
            code::RESERVED_NAME,
            format!("{P}.command"),
            format!("{P}.command \"{}\" is a reserved name", text(command)),
        );
    } else if non_empty_str(command).is_none() {
        sink.push(
            super::envelope::string_code(command),
            format!("{P}.command"),
            format!(
                "{P}.command must be a non-empty string (got: {})",
                json(command)
            ),
        );
    }
    if let Some(args) = oe.field("args") {
        let ok = args
            .as_array()
            .is_some_and(|a| a.iter().all(Json::is_string));
        if !ok {
            sink.push(
                code::WRONG_TYPE,
                format!("{P}.args"),
                format!(
                    "{P}.args must be an array of strings (got: {})",
                    json(Some(args))
                ),
            );
        }
    }
    for key in ["cwdFlag", "promptFlag", "modelFlag"] {
        if let Some(v) = oe.field(key)
            && !(v.is_null() || v.is_string())
        {
            {
                sink.push(
                    code::WRONG_TYPE,
                    format!("{P}.{key}"),
                    format!(
                        "{P}.{key} must be a string or null (got: {})",
                        json(Some(v))
                    ),
                );
            }
        }
    }
}

fn gate_a<O: JsonObject>(sink: &mut Sink, r: &O) {
    let (Some(install), Some(hooks)) = (
        as_str(r.field("installSurface")),
        as_str(r.field("hooksSurface")),
    ) else {
        return;
    };
    let Some(surface) = InstallSurface::parse(install) else {
        return;
    };
    let allowed = surface.allowed_hooks_surfaces();
    if !allowed.iter().any(|h| h.as_str() == hooks) {
        let list: Vec<&str> = allowed.iter().map(|h| h.as_str()).collect();
        sink.push(
            code::GATE_A,
            "runtime.hooksSurface",
            format!(
                "runtime.hooksSurface \"{}\" is not valid for installSurface \"{install}\" — allowed: {} (src: \
                 INSTALL_SURFACE_TO_ALLOWED_HOOKS_SURFACES in scripts/gen-capability-registry.cjs)",
                super::raw(hooks),
                list.join(", ")
            ),
        );
    }
}

/// Gate B family: dialect, message label, membership test, required dialect.
type Family = (
    &'static str,
    &'static str,
    fn(ExtendedHookEvent) -> bool,
    &'static str,
);

fn gate_b<O: JsonObject>(sink: &mut Sink, r: &O) {
    let Some(Kind::Array(events)) = r.field("extendedHookEvents").map(Json::kind) else {
        return;
    };
    let hook_events = r.field("hookEvents");
    let known: Vec<ExtendedHookEvent> = events
        .iter()
        .filter_map(|e| e.as_str().and_then(ExtendedHookEvent::parse))
        .collect();
    let families: [Family; 2] = [
        (
            "gemini",
            "Gemini agent-events",
            ExtendedHookEvent::is_gemini_agent_event,
            "gemini",
        ),
        (
            "claude",
            "Claude-family events",
            ExtendedHookEvent::is_claude_family_event,
            "claude",
        ),
    ];
    for (dialect, label, member, must) in families {
        let listed: Vec<&str> = known
            .iter()
            .filter(|e| member(**e))
            .map(|e| e.as_str())
            .collect();
        if !listed.is_empty() && as_str(hook_events) != Some(dialect) {
            sink.push(
                code::GATE_B,
                "runtime.hookEvents",
                format!(
                    "runtime.extendedHookEvents contains {label} ({}) but runtime.hookEvents is \"{}\" — must be \"{must}\"",
                    listed.join(", "),
                    text(hook_events)
                ),
            );
        }
    }
}

fn trigger_precedence<O: JsonObject>(sink: &mut Sink, r: &O) {
    const P: &str = "runtime.triggerPrecedence";
    // Absent: the default (skills, commands) is validated, and it always passes.
    let Some(value) = r.field("triggerPrecedence") else {
        return;
    };
    let Some(items) = value.as_array() else {
        sink.push(
            code::WRONG_TYPE,
            P,
            format!(
                "{P} must be an array of trigger-bearing kind names ({}) (got: {})",
                TriggerKind::one_of(),
                json(Some(value))
            ),
        );
        return;
    };
    if items.is_empty() {
        sink.push(code::INVALID_VALUE, P, format!("{P} must not be empty"));
        return;
    }
    let mut seen: Vec<TriggerKind> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if super::is_reserved_value(Some(item)) {
            sink.push(
                code::RESERVED_NAME,
                format!("{P}[{i}]"),
                format!("{P}[{i}] \"{}\" is a reserved name", text(Some(item))),
            );
            continue;
        }
        match item.as_str().and_then(TriggerKind::parse) {
            None => sink.push(
                code::INVALID_ENUM,
                format!("{P}[{i}]"),
                format!(
                    "{P}[{i}] must be one of: {} (got: {})",
                    TriggerKind::one_of(),
                    json(Some(item))
                ),
            ),
            Some(kind) if seen.contains(&kind) => sink.push(
                code::DUPLICATE,
                format!("{P}[{i}]"),
                format!("{P} contains a duplicate kind: {}", json(Some(item))),
            ),
            Some(kind) => seen.push(kind),
        }
    }
}

/// The second half of peer `validateRuntimeBody`, in its order.
pub(super) fn validate<O: JsonObject>(sink: &mut Sink, r: &O) {
    host_integration(sink, r);
    orchestrator_exec(sink, r);
    let flag = r.field("harnessIsolationFlag");
    if flag.is_some() && non_empty_str(flag).is_none() {
        sink.push(
            super::envelope::string_code(flag),
            "runtime.harnessIsolationFlag",
            format!(
                "runtime.harnessIsolationFlag must be a non-empty string (got: {})",
                json(flag)
            ),
        );
    }
    gate_a(sink, r);
    gate_b(sink, r);
    trigger_precedence(sink, r);
}

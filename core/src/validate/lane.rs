//! The reviewer lane's `probe` and `invoke` (spawn or openai-http, with the lane's
//! environment), peer `validateLaneProbe` / `validateLaneInvoke`.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};
use crate::vocab::Closed;

use super::envelope::string_code;
use super::{Sink, absent_or, code, is_reserved, json, raw};
use crate::js::{self, as_object, as_str, js_entries, non_empty_str};
use crate::vocab::{
    DENIED_LANE_ENV_KEYS, EffortChannel, HTTP_ONLY_INVOKE_FIELDS, KNOWN_PROBE_FIELDS,
    LaneProbeKind, ModelDiscovery, OutputChannel, PromptChannel, SPAWN_ONLY_INVOKE_FIELDS,
};

fn is_env_name(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// `isPositiveIntegerMs`.
pub(super) fn is_positive_ms<J: Json>(v: Option<&J>) -> bool {
    js::is_integer(v) && js::number(v).is_some_and(|x| x > 0.0)
}

/// Peer `validateEnumField`.
pub(super) fn enum_field<V: Closed, J: Json>(
    sink: &mut Sink,
    ctx: &dyn std::fmt::Display,
    label: &str,
    v: Option<&J>,
) -> bool {
    if as_str(v).is_some_and(V::is_member) {
        return true;
    }
    sink.push(
        absent_or(v, code::INVALID_ENUM),
        label,
        format!(
            "{ctx} {label} must be one of: {} (got: {})",
            V::one_of(),
            json(v)
        ),
    );
    false
}

#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
pub(super) fn probe<J: Json>(sink: &mut Sink, ctx: &dyn std::fmt::Display, probe: Option<&J>) {
    let Some(p) = as_object(probe) else {
        sink.push(
            absent_or(probe, code::WRONG_TYPE),
            "reviewer.probe",
            format!(
                "{ctx} reviewer.probe must be an object with a \"kind\" from: {}",
                LaneProbeKind::one_of()
            ),
        );
        return;
    };
    let kind_value = p.field("kind");
    if !enum_field::<LaneProbeKind, _>(sink, ctx, "reviewer.probe.kind", kind_value) {
        return;
    }
    let kind = as_str(kind_value).unwrap_or_default();
    for (key, _) in js_entries(p) {
        if !is_reserved(key) && !KNOWN_PROBE_FIELDS.contains(&key) {
            let key = raw(key);
            sink.push(
                code::UNKNOWN_FIELD,
                format!("reviewer.probe.{key}"),
                format!("{ctx} reviewer.probe.{key} is not a known probe field"),
            );
        }
    }
    let needs_bound = kind == "command-capability" || kind == "http-reachable";
    let binary = p.field("binary");
    if kind == "command-exists" || kind == "command-capability" {
        if non_empty_str(binary).is_none() {
            sink.push(
                string_code(binary),
                "reviewer.probe.binary",
                format!(
                    "{ctx} reviewer.probe.binary must be a non-empty string for kind \"{kind}\""
                ),
            );
        }
    } else if binary.is_some() {
        sink.push(
            code::NOT_PERMITTED,
            "reviewer.probe.binary",
            format!("{ctx} reviewer.probe.binary is not permitted for kind \"{kind}\""),
        );
    }
    let needle = p.field("needle");
    if kind == "command-capability" {
        if non_empty_str(needle).is_none() {
            sink.push(
                string_code(needle),
                "reviewer.probe.needle",
                format!("{ctx} reviewer.probe.needle must be a non-empty string for kind \"command-capability\""),
            );
        }
    } else if needle.is_some() {
        sink.push(
            code::NOT_PERMITTED,
            "reviewer.probe.needle",
            format!("{ctx} reviewer.probe.needle is not permitted for kind \"{kind}\""),
        );
    }
    for key in ["hostConfigKey", "path"] {
        let v = p.field(key);
        if kind == "http-reachable" {
            if non_empty_str(v).is_none() {
                sink.push(
                    string_code(v),
                    format!("reviewer.probe.{key}"),
                    format!("{ctx} reviewer.probe.{key} must be a non-empty string for kind \"http-reachable\""),
                );
            }
        } else if v.is_some() {
            sink.push(
                code::NOT_PERMITTED,
                format!("reviewer.probe.{key}"),
                format!("{ctx} reviewer.probe.{key} is not permitted for kind \"{kind}\""),
            );
        }
    }
    let timeout = p.field("timeoutMs");
    if needs_bound {
        if !is_positive_ms(timeout) {
            sink.push(
                absent_or(timeout, code::INVALID_VALUE),
                "reviewer.probe.timeoutMs",
                format!(
                    "{ctx} reviewer.probe.timeoutMs must be a positive integer of milliseconds for kind \"{kind}\" — an \
                     unbounded probe hangs every /gsd:review invocation (got: {})",
                    json(timeout)
                ),
            );
        }
    } else if timeout.is_some() {
        sink.push(
            code::NOT_PERMITTED,
            "reviewer.probe.timeoutMs",
            format!(
                "{ctx} reviewer.probe.timeoutMs is not permitted for kind \"command-exists\" — no process is started, so \
                 there is nothing to bound"
            ),
        );
    }
}

fn spawn_env<J: Json>(sink: &mut Sink, ctx: &dyn std::fmt::Display, env: &J) {
    let Some(env) = env.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            "reviewer.invoke.env",
            format!("{ctx} reviewer.invoke.env must be an object of environment name/value pairs (got: {})", json(Some(env))),
        );
        return;
    };
    for (key, value) in js_entries(env) {
        let shown = raw(key);
        let field = super::lazy(|w| write!(w, "reviewer.invoke.env.{shown}"));
        if DENIED_LANE_ENV_KEYS.contains(&key.to_uppercase().as_str()) {
            sink.push(
                code::DENIED_ENV_KEY,
                &field,
                format!(
                    "{ctx} reviewer.invoke.env key \"{shown}\" is not permitted (it makes the spawned reviewer run code of \
                     the manifest's choosing; declare an absolute `invoke.binary` instead of reshaping the child's environment)"
                ),
            );
        } else if key == "__proto__" {
            sink.push(
                code::RESERVED_NAME,
                &field,
                format!(
                    "{ctx} reviewer.invoke.env key \"__proto__\" is not permitted (it is silently dropped when the spawn plan \
                     is assembled, so it would never reach the child)"
                ),
            );
        } else if !is_env_name(key) {
            sink.push(
                code::INVALID_VALUE,
                &field,
                format!(
                    "{ctx} reviewer.invoke.env key {} is not a valid environment variable name",
                    json(Some(&crate::json::Value::String(key.into())))
                ),
            );
        }
        if !value.is_string() {
            sink.push(
                code::WRONG_TYPE,
                &field,
                format!(
                    "{ctx} reviewer.invoke.env.{shown} must be a string (got: {})",
                    json(Some(value))
                ),
            );
        }
    }
}

fn spawn_invoke<O: JsonObject>(sink: &mut Sink, ctx: &dyn std::fmt::Display, inv: &O) {
    let binary = inv.field("binary");
    if non_empty_str(binary).is_none() {
        sink.push(
            string_code(binary),
            "reviewer.invoke.binary",
            format!(
                "{ctx} reviewer.invoke.binary must be a non-empty string for transport \"spawn\""
            ),
        );
    }
    let value = inv.field("args");
    match value.map(Json::kind) {
        Some(Kind::Array(args)) => {
            for (i, a) in args.iter().enumerate() {
                if !a.is_string() {
                    sink.push(
                        code::WRONG_TYPE,
                        format!("reviewer.invoke.args[{i}]"),
                        format!("{ctx} reviewer.invoke.args entry {} must be a string", json(Some(a))),
                    );
                }
            }
        }
        _ => sink.push(
            absent_or(value, code::WRONG_TYPE),
            "reviewer.invoke.args",
            format!("{ctx} reviewer.invoke.args must be an array (use [] when the lane takes no arguments)"),
        ),
    }
    let label = "reviewer.invoke.promptChannel";
    enum_field::<PromptChannel, _>(sink, ctx, label, inv.field("promptChannel"));
    let output = inv.field("outputChannel");
    let output_arg = inv.field("outputArg");
    let label = "reviewer.invoke.outputChannel";
    if enum_field::<OutputChannel, _>(sink, ctx, label, output) {
        if as_str(output) == Some("file-arg") {
            if non_empty_str(output_arg).is_none() {
                sink.push(
                    string_code(output_arg),
                    "reviewer.invoke.outputArg",
                    format!("{ctx} reviewer.invoke.outputArg is required (non-empty string) when outputChannel is \"file-arg\""),
                );
            }
        } else if output_arg.is_some() {
            sink.push(
                code::NOT_PERMITTED,
                "reviewer.invoke.outputArg",
                format!(
                    "{ctx} reviewer.invoke.outputArg is only permitted when outputChannel is \"file-arg\" (got outputChannel: {})",
                    json(output)
                ),
            );
        }
    }
    let model_arg = inv.field("modelArg");
    if !matches!(model_arg.map(Json::kind), Some(Kind::Null)) && non_empty_str(model_arg).is_none()
    {
        sink.push(
            string_code(model_arg),
            "reviewer.invoke.modelArg",
            format!(
                "{ctx} reviewer.invoke.modelArg must be a non-empty string or null (got: {})",
                json(model_arg)
            ),
        );
    }
    let label = "reviewer.invoke.effortChannel";
    enum_field::<EffortChannel, _>(sink, ctx, label, inv.field("effortChannel"));
    if let Some(env) = inv.field("env") {
        spawn_env(sink, ctx, env);
    }
}

fn http_invoke<O: JsonObject>(sink: &mut Sink, ctx: &dyn std::fmt::Display, inv: &O) {
    let host = inv.field("hostConfigKey");
    if non_empty_str(host).is_none() {
        sink.push(
            string_code(host),
            "reviewer.invoke.hostConfigKey",
            format!(
                "{ctx} reviewer.invoke.hostConfigKey must be a non-empty dotted config key for transport \"openai-http\" (it \
                 names the config key holding the base URL)"
            ),
        );
    }
    let path = inv.field("path");
    if non_empty_str(path).is_none() {
        sink.push(
            string_code(path),
            "reviewer.invoke.path",
            format!(
                "{ctx} reviewer.invoke.path must be a non-empty string for transport \"openai-http\" (e.g. \"/v1/chat/completions\")"
            ),
        );
    }
    let label = "reviewer.invoke.modelDiscovery";
    enum_field::<ModelDiscovery, _>(sink, ctx, label, inv.field("modelDiscovery"));
    let effort = inv.field("effortChannel");
    if as_str(effort) != Some("none") {
        sink.push(
            absent_or(effort, code::INVALID_VALUE),
            "reviewer.invoke.effortChannel",
            format!("{ctx} reviewer.invoke.effortChannel must be \"none\" for transport \"openai-http\" (got: {})", json(effort)),
        );
    }
}

/// Validates the invoke sub-shape of one transport.
type InvokeValidator<O> = fn(&mut Sink, &dyn std::fmt::Display, &O);

pub(super) fn invoke<J: Json>(
    sink: &mut Sink,
    ctx: &dyn std::fmt::Display,
    transport: Option<&str>,
    invoke: Option<&J>,
) {
    let Some(inv) = as_object(invoke) else {
        sink.push(
            absent_or(invoke, code::WRONG_TYPE),
            "reviewer.invoke",
            format!("{ctx} reviewer.invoke must be an object"),
        );
        return;
    };
    let has_spawn = SPAWN_ONLY_INVOKE_FIELDS.iter().any(|f| inv.has_field(f));
    let has_http = HTTP_ONLY_INVOKE_FIELDS.iter().any(|f| inv.has_field(f));
    if has_spawn && has_http {
        sink.push(
            code::CONFLICTING_FIELDS,
            "reviewer.invoke",
            format!(
                "{ctx} reviewer.invoke mixes spawn-only fields ({}) with openai-http-only fields ({}) — a lane is one \
                 transport or the other",
                SPAWN_ONLY_INVOKE_FIELDS.join(", "),
                HTTP_ONLY_INVOKE_FIELDS.join(", ")
            ),
        );
    }
    let (foreign, validate): (&[&str], InvokeValidator<J::Object>) = match transport {
        Some("spawn") => (HTTP_ONLY_INVOKE_FIELDS, spawn_invoke),
        Some("openai-http") => (SPAWN_ONLY_INVOKE_FIELDS, http_invoke),
        _ => return,
    };
    let name = transport.unwrap_or_default();
    for f in foreign {
        if inv.has_field(f) {
            sink.push(
                code::NOT_PERMITTED,
                format!("reviewer.invoke.{f}"),
                format!("{ctx} reviewer.invoke.{f} is not permitted for transport \"{name}\""),
            );
        }
    }
    validate(sink, ctx, inv);
}

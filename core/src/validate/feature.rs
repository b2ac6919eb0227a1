//! The `role: feature` body, peer `validateFeatureBody`: `runtimeCompat`, `skills`,
//! `commands`, `agents`, `config`, then (in [`super::hooks`]) `hooks`, `steps`,
//! `contributions` and `gates`, then `activationKey` and `taskContentResolver`.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};

use super::envelope::{is_kebab, string_code};
use super::runtime::id_label;
use super::{Sink, absent_or, code, hooks, is_reserved, json, raw, text};
use crate::js::{self, as_object, js_entries, kind_of, non_empty_str};

/// The wildcard runtime id.
const WILDCARD: &str = "*";
/// `taskContentResolver.invoke.timeoutMs` ceiling.
const RESOLVER_TIMEOUT_CEILING_MS: f64 = 120_000.0;

fn runtime_array<O: JsonObject>(
    sink: &mut Sink,
    ctx: &dyn std::fmt::Display,
    rc: &O,
    field: &str,
    allow_wildcard: bool,
) {
    let Some(Kind::Array(items)) = rc.field(field).map(Json::kind) else {
        let tail = if allow_wildcard { " or [\"*\"]" } else { "" };
        sink.push(
            absent_or(rc.field(field), code::WRONG_TYPE),
            format!("runtimeCompat.{field}"),
            format!("{ctx}.{field} must be an array of runtime ids{tail}"),
        );
        return;
    };
    if field == "supported" && items.is_empty() {
        sink.push(
            code::INVALID_VALUE,
            "runtimeCompat.supported",
            format!("{ctx}.supported must be a non-empty array"),
        );
    }
    let mut has_wildcard = false;
    for (i, item) in items.iter().enumerate() {
        let f = super::lazy(|w| write!(w, "runtimeCompat.{field}[{i}]"));
        let Some(entry) = non_empty_str(Some(item)) else {
            sink.push(
                string_code(Some(item)),
                f,
                format!("{ctx}.{field}[{i}] must be a non-empty string"),
            );
            continue;
        };
        if is_reserved(entry) {
            sink.push(
                code::RESERVED_NAME,
                &f,
                format!("{ctx}.{field}[{i}] \"{entry}\" is a reserved name"),
            );
        }
        if entry == WILDCARD {
            if !allow_wildcard {
                sink.push(
                    code::INVALID_VALUE,
                    &f,
                    format!("{ctx}.{field} must not include wildcard \"*\""),
                );
            }
            has_wildcard = true;
        } else if !is_kebab(entry) {
            sink.push(
                code::INVALID_VALUE,
                f,
                format!("{ctx}.{field}[{i}] must be a kebab-case runtime id or \"*\""),
            );
        }
    }
    if has_wildcard && items.len() > 1 {
        sink.push(
            code::CONFLICTING_FIELDS,
            format!("runtimeCompat.{field}"),
            format!("{ctx}.{field} wildcard \"*\" cannot be mixed with runtime ids"),
        );
    }
}

fn runtime_compat<J: Json>(sink: &mut Sink, cap_id: &str, value: Option<&J>) {
    let ctx = super::lazy(|w| write!(w, "capability \"{cap_id}\" runtimeCompat"));
    let Some(rc) = as_object(value) else {
        sink.push(
            absent_or(value, code::WRONG_TYPE),
            "runtimeCompat",
            format!("{ctx} must be an object with supported and unsupported arrays"),
        );
        return;
    };
    runtime_array(sink, &ctx, rc, "supported", true);
    runtime_array(sink, &ctx, rc, "unsupported", false);
    let Some(notes) = rc.field("notes") else {
        return;
    };
    let Some(notes) = notes.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            "runtimeCompat.notes",
            format!("{ctx}.notes must be an object of runtime id to string if present"),
        );
        return;
    };
    for (key, value) in js_entries(notes) {
        let shown = raw(key);
        if key != WILDCARD && !is_kebab(key) {
            sink.push(
                code::INVALID_VALUE,
                format!("runtimeCompat.notes.{shown}"),
                format!("{ctx}.notes key \"{shown}\" must be a kebab-case runtime id or \"*\""),
            );
        }
        if non_empty_str(Some(value)).is_none() {
            sink.push(
                string_code(Some(value)),
                format!("runtimeCompat.notes.{shown}"),
                format!("{ctx}.notes[\"{shown}\"] must be a non-empty string"),
            );
        }
    }
}

/// `skills` or `agents`: an array of strings, reserved names rejected.
fn name_list<O: JsonObject>(sink: &mut Sink, cap: &O, key: &str) {
    let Some(Kind::Array(items)) = cap.field(key).map(Json::kind) else {
        sink.push(
            absent_or(cap.field(key), code::WRONG_TYPE),
            key,
            format!("{key} must be an array of strings"),
        );
        return;
    };
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            None => sink.push(
                code::WRONG_TYPE,
                format!("{key}[{i}]"),
                format!("{key} entries must be strings"),
            ),
            Some(s) if is_reserved(s) => {
                sink.push(
                    code::RESERVED_NAME,
                    format!("{key}[{i}]"),
                    format!("{key} entry \"{s}\" is a reserved name"),
                );
            }
            Some(_) => {}
        }
    }
}

/// `^[A-Za-z0-9._-]+\.cjs$`.
fn is_safe_module(m: &str) -> bool {
    m.strip_suffix(".cjs").is_some_and(|stem| {
        !stem.is_empty()
            && stem
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    })
}

fn command_entry<J: Json>(sink: &mut Sink, cap_id: &str, i: usize, entry: &J) {
    let field = super::lazy(|w| write!(w, "commands[{i}]"));
    let ctx = super::lazy(|w| write!(w, "capability \"{cap_id}\" {field}"));
    let Some(e) = entry.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            &field,
            format!("{ctx} must be an object with family, module, and router"),
        );
        return;
    };
    let family = e.field("family");
    match non_empty_str(family) {
        None => sink.push(
            string_code(family),
            format!("{field}.family"),
            format!("{ctx}.family must be a non-empty string"),
        ),
        Some(f) if is_reserved(f) => {
            sink.push(
                code::RESERVED_NAME,
                format!("{field}.family"),
                format!("{ctx}.family \"{f}\" is a reserved name"),
            );
        }
        Some(_) => {}
    }
    let module = e.field("module");
    match non_empty_str(module) {
        None => sink.push(string_code(module), format!("{field}.module"), format!("{ctx}.module must be a non-empty string")),
        Some(m) if !is_safe_module(m) => sink.push(
            code::UNSAFE_PATH,
            format!("{field}.module"),
            format!(
                "{ctx}.module must be a safe bare basename (pattern: /^[A-Za-z0-9._-]+\\.cjs$/, no path separators, no \
                 \"..\", no NUL bytes, must end in \".cjs\"); got: {}",
                json(module)
            ),
        ),
        Some(_) => {}
    }
    let router = e.field("router");
    if non_empty_str(router).is_none() {
        sink.push(
            string_code(router),
            format!("{field}.router"),
            format!("{ctx}.router must be a non-empty string"),
        );
    }
    match e.field("subcommands").map(Json::kind) {
        None => {}
        Some(Kind::Array(subs)) => {
            for (j, sub) in subs.iter().enumerate() {
                match sub.as_str() {
                    None => sink.push(
                        code::WRONG_TYPE,
                        format!("{field}.subcommands[{j}]"),
                        format!("{ctx}.subcommands[{j}] must be a string"),
                    ),
                    Some("") => sink.push(
                        code::INVALID_VALUE,
                        format!("{field}.subcommands[{j}]"),
                        format!("{ctx}.subcommands[{j}] must be a non-empty string"),
                    ),
                    Some(_) => {}
                }
            }
        }
        Some(_) => sink.push(
            code::WRONG_TYPE,
            format!("{field}.subcommands"),
            format!("{ctx}.subcommands must be an array of strings if present"),
        ),
    }
}

fn config<J: Json>(sink: &mut Sink, value: Option<&J>) {
    let Some(cfg) = as_object(value) else {
        sink.push(
            absent_or(value, code::WRONG_TYPE),
            "config",
            "config must be an object",
        );
        return;
    };
    for (key, val) in js_entries(cfg) {
        let shown = raw(key);
        let field = super::lazy(|w| write!(w, "config.{shown}"));
        if key.is_empty() {
            sink.push(
                code::INVALID_VALUE,
                &field,
                "config keys must be non-empty strings",
            );
        } else if is_reserved(key) {
            sink.push(
                code::RESERVED_NAME,
                &field,
                format!("config key \"{key}\" is a reserved name"),
            );
        }
        match val.as_object() {
            None => {
                let got = if val.is_null() {
                    "null"
                } else {
                    js::type_of(Some(val))
                };
                sink.push(
                    code::WRONG_TYPE,
                    field,
                    format!("config[\"{shown}\"] must be an object (got: {got})"),
                );
            }
            Some(slice) => {
                if non_empty_str(slice.field("type")).is_none() {
                    sink.push(
                        string_code(slice.field("type")),
                        format!("{field}.type"),
                        format!(
                            "config[\"{shown}\"] must have a string \"type\" field (e.g. \"boolean\", \"string\", \"number\", \"enum\")"
                        ),
                    );
                }
            }
        }
    }
}

fn activation_key<O: JsonObject>(sink: &mut Sink, cap: &O) {
    let Some(key) = cap.field("activationKey") else {
        return;
    };
    let cap_id = id_label(cap);
    match key.as_str() {
        None | Some("") => sink.push(
            string_code(Some(key)),
            "activationKey",
            format!("capability \"{cap_id}\" activationKey must be a non-empty string (got: {})", json(Some(key))),
        ),
        Some(k) if is_reserved(k) => sink.push(
            code::RESERVED_NAME,
            "activationKey",
            format!(
                "capability \"{cap_id}\" activationKey \"{k}\" is a reserved JavaScript property name and cannot be used as \
                 an activationKey"
            ),
        ),
        Some(k) => {
            if !cap.field("config").is_some_and(|c| js::has_own_property(c, k)) {
                sink.push(
                    code::UNDECLARED_REFERENCE,
                    "activationKey",
                    format!(
                        "capability \"{cap_id}\" activationKey \"{}\" is not declared in this capability's config slice — \
                         add it to the \"config\" object or use a key that is declared there",
                        raw(k)
                    ),
                );
            }
        }
    }
}

/// Peer `validateTaskContentResolverFields` (total).
#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
fn task_content_resolver<O: JsonObject>(sink: &mut Sink, cap: &O) {
    const P: &str = "taskContentResolver";
    let Some(tcr) = cap.field(P) else { return };
    let id = match cap.field("id").map(Json::kind) {
        Some(Kind::String(s)) => raw(s),
        _ => "(unknown)".to_owned(),
    };
    let ctx = super::lazy(|w| write!(w, "capability \"{id}\""));
    let Some(tcr) = tcr.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            P,
            format!(
                "{ctx} taskContentResolver must be an object (got: {}). Omit the key entirely to declare no resolver — an \
                 explicit null is not an omission.",
                kind_of(Some(tcr))
            ),
        );
        return;
    };
    let prefix = tcr.field("trackerPrefix");
    if !non_empty_str(prefix).is_some_and(is_kebab) {
        sink.push(
            absent_or(prefix, code::INVALID_VALUE),
            "taskContentResolver.trackerPrefix",
            format!(
                "{ctx} taskContentResolver.trackerPrefix must be a non-empty kebab-case string matching /^[a-z][a-z0-9-]*$/ \
                 (got: {})",
                json(prefix)
            ),
        );
    }
    let inv = tcr.field("invoke");
    let Some(inv) = as_object(inv) else {
        sink.push(
            absent_or(inv, code::WRONG_TYPE),
            "taskContentResolver.invoke",
            format!(
                "{ctx} taskContentResolver.invoke must be an object (got: {})",
                kind_of(inv)
            ),
        );
        return;
    };
    let binary = inv.field("binary");
    if non_empty_str(binary).is_none() {
        sink.push(
            string_code(binary),
            "taskContentResolver.invoke.binary",
            format!("{ctx} taskContentResolver.invoke.binary must be a non-empty string"),
        );
    }
    let value = inv.field("args");
    match value.map(Json::kind) {
        Some(Kind::Array(args)) => {
            for (i, a) in args.iter().enumerate() {
                if !a.is_string() {
                    sink.push(
                        code::WRONG_TYPE,
                        format!("taskContentResolver.invoke.args[{i}]"),
                        format!("{ctx} taskContentResolver.invoke.args entries must be strings (got: {})", json(Some(a))),
                    );
                }
            }
            if !args.iter().any(|a| a.as_str() == Some("{{id}}")) {
                sink.push(
                    code::MISSING_FIELD,
                    "taskContentResolver.invoke.args",
                    format!(
                        "{ctx} taskContentResolver.invoke.args must contain a \"{{{{id}}}}\" placeholder — without it the \
                         resolved tracker id could never reach the resolver subprocess"
                    ),
                );
            }
        }
        _ => sink.push(
            absent_or(value, code::WRONG_TYPE),
            "taskContentResolver.invoke.args",
            format!("{ctx} taskContentResolver.invoke.args must be an array of strings"),
        ),
    }
    let timeout = inv.field("timeoutMs");
    let positive = js::is_integer(timeout) && js::number(timeout).is_some_and(|x| x > 0.0);
    if !positive {
        sink.push(
            absent_or(timeout, code::INVALID_VALUE),
            "taskContentResolver.invoke.timeoutMs",
            format!(
                "{ctx} taskContentResolver.invoke.timeoutMs must be a positive integer of milliseconds — an unbounded \
                 resolver call could hang task execution indefinitely (got: {})",
                json(timeout)
            ),
        );
    } else if js::number(timeout).is_some_and(|x| x > RESOLVER_TIMEOUT_CEILING_MS) {
        sink.push(
            code::INVALID_VALUE,
            "taskContentResolver.invoke.timeoutMs",
            format!(
                "{ctx} taskContentResolver.invoke.timeoutMs must not exceed 120000ms — an unbounded-in-practice value \
                 defeats the \"bounded subprocess\" design intent (got: {})",
                text(timeout)
            ),
        );
    }
}

/// Peer `validateFeatureBody`.
pub(super) fn validate<O: JsonObject>(sink: &mut Sink, cap: &O) {
    runtime_compat(sink, &id_label(cap), cap.field("runtimeCompat"));
    name_list(sink, cap, "skills");
    match cap.field("commands").map(Json::kind) {
        None => {}
        Some(Kind::Array(entries)) => {
            // The peer names a command's capability by `cap.id || cap.role`.
            let id = if js::truthy(cap.field("id")) {
                text(cap.field("id"))
            } else {
                text(cap.field("role"))
            };
            for (i, entry) in entries.iter().enumerate() {
                command_entry(sink, &id, i, entry);
            }
        }
        Some(_) => sink.push(
            code::WRONG_TYPE,
            "commands",
            "commands must be an array of {family, module, router} objects",
        ),
    }
    name_list(sink, cap, "agents");
    config(sink, cap.field("config"));
    hooks::validate(sink, cap);
    activation_key(sink, cap);
    task_content_resolver(sink, cap);
}

//! The install intent of a runtime read from a caller-supplied descriptor map (the peer's
//! `resolveInstallPlanFromRuntimes`): the map is plain JSON, looked up by id, and the few
//! axes the installer needs are checked in its order and passed through otherwise.
//!
//! Registry descriptors are validated when a registry is built; this entry point serves
//! callers that hold their own, unvalidated map.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ErrorCode};
use crate::js::{has_own_property, stringify, truthy};
use crate::sanitize::sanitize_value;
use crate::vocab::SandboxTier;

/// The install intent of one runtime, keys in the installer's order. Values other than
/// `sandboxTier` are passed through as the descriptor holds them (`None`: absent).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DescriptorIntent {
    /// The runtime id, as asked.
    pub runtime: String,
    /// `installSurface`, verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub install_surface: Option<Value>,
    /// `writesSharedSettings`, verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes_shared_settings: Option<Value>,
    /// `permissionWriter` (`null` when absent or null).
    pub finish_permission_writer: Value,
    /// `hookEvents`, verbatim (absent stays absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_events: Option<Value>,
    /// A copy of `extendedHookEvents` when it is an array, else `[]`.
    pub extended_hook_events: Vec<Value>,
    /// `hooksSurface`, verbatim (never null).
    pub hooks_surface: Value,
    /// `sandboxTier`, one of the closed vocabulary.
    pub sandbox_tier: SandboxTier,
}

/// A descriptor fault at `field` (a path under the descriptor's `runtime` object).
fn type_error(field: &'static str, message: String) -> Error {
    Error::new(ErrorCode::InvalidDescriptor, message).with_field(field)
}

/// The intent of `runtime` in `descriptors` (`{ <id>: { runtime: <descriptor> } }`).
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`] when the id has no truthy `runtime` descriptor
/// (`Unknown runtime for install plan: <id>`); [`ErrorCode::InvalidDescriptor`] when
/// `hooksSurface` is null or absent (field `runtime.hooksSurface`), or `sandboxTier` is
/// not in the vocabulary (field `runtime.sandboxTier`). Messages repeat the id and the
/// rendered `sandboxTier` through [`sanitize_value`] (controls, ANSI, bidi and invisible
/// characters replaced, clipped at 80 characters), so they are safe to print.
pub fn descriptor_intent(descriptors: &Value, runtime: &str) -> Result<DescriptorIntent, Error> {
    let desc = descriptors
        .as_object()
        .filter(|_| has_own_property(descriptors, runtime))
        .and_then(|m| m.get(runtime))
        .and_then(|entry| entry.get("runtime"))
        .filter(|d| truthy(Some(*d)));
    let Some(desc) = desc else {
        return Err(Error::new(
            ErrorCode::UnknownRuntime,
            format!(
                "Unknown runtime for install plan: {}",
                sanitize_value(runtime)
            ),
        )
        .with_field("runtime"));
    };
    let field = |name: &str| desc.get(name).cloned();
    let hooks_surface = match field("hooksSurface") {
        None | Some(Value::Null) => {
            return Err(type_error(
                "runtime.hooksSurface",
                format!(
                    "runtime.hooksSurface is required for install plan: {}",
                    sanitize_value(runtime)
                ),
            ));
        }
        Some(v) => v,
    };
    let raw_tier = desc.get("sandboxTier");
    let Some(sandbox_tier) = raw_tier
        .and_then(Value::as_str)
        .and_then(SandboxTier::parse)
    else {
        // The rendering is iterative, so a caller-built value of any depth is refused here
        // without recursing; the message repeats at most 80 characters of it.
        return Err(type_error(
            "runtime.sandboxTier",
            format!(
                "Runtime '{}' has a missing or invalid sandboxTier descriptor axis: {}",
                sanitize_value(runtime),
                sanitize_value(&stringify(raw_tier))
            ),
        ));
    };
    Ok(DescriptorIntent {
        runtime: runtime.to_owned(),
        install_surface: field("installSurface"),
        writes_shared_settings: field("writesSharedSettings"),
        finish_permission_writer: field("permissionWriter").unwrap_or(Value::Null),
        hook_events: field("hookEvents"),
        extended_hook_events: match field("extendedHookEvents") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        hooks_surface,
        sandbox_tier,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deep_test::{DEPTH, dismantle, nested, on_small_stack};
    use serde_json::json;

    #[test]
    fn checks_follow_the_spec_order() {
        // peer-spec §6: unknown, then hooksSurface, then sandboxTier (JSON.stringify'd).
        let map = json!({ "x": { "runtime": { "hooksSurface": null } },
                          "y": { "runtime": { "hooksSurface": "s", "sandboxTier": 3 } } });
        assert_eq!(
            descriptor_intent(&map, "z").unwrap_err().message(),
            "Unknown runtime for install plan: z"
        );
        assert_eq!(
            descriptor_intent(&map, "x").unwrap_err().message(),
            "runtime.hooksSurface is required for install plan: x"
        );
        assert_eq!(
            descriptor_intent(&map, "y").unwrap_err().message(),
            "Runtime 'y' has a missing or invalid sandboxTier descriptor axis: 3"
        );
    }

    #[test]
    fn faults_name_the_descriptor_field() {
        let map = json!({ "x": { "runtime": { "hooksSurface": null } },
                          "y": { "runtime": { "hooksSurface": "s", "sandboxTier": 3 } } });
        let field = |id: &str| {
            descriptor_intent(&map, id)
                .unwrap_err()
                .field()
                .map(str::to_owned)
        };
        assert_eq!(field("z").as_deref(), Some("runtime"));
        assert_eq!(field("x").as_deref(), Some("runtime.hooksSurface"));
        assert_eq!(field("y").as_deref(), Some("runtime.sandboxTier"));
    }

    /// Caller text in a message is sanitized and clipped: the runtime id and the rendered
    /// `sandboxTier` carry no ESC, bidi or invisible character, and a long value is cut.
    #[test]
    fn messages_sanitize_the_id_and_the_tier() {
        let hostile = "c\u{1b}[31mla\u{202E}ude\u{200B}\u{E0041}";
        let err = descriptor_intent(&json!({}), hostile).unwrap_err();
        assert_eq!(
            err.message(),
            "Unknown runtime for install plan: c\u{FFFD}la\u{FFFD}ude\u{FFFD}\u{FFFD}"
        );
        let map = json!({ hostile: { "runtime": { "hooksSurface": null } } });
        assert_eq!(
            descriptor_intent(&map, hostile).unwrap_err().message(),
            "runtime.hooksSurface is required for install plan: c\u{FFFD}la\u{FFFD}ude\u{FFFD}\u{FFFD}"
        );
        let tier = format!("none\u{202E}\u{2066}{}", "x".repeat(20_000));
        let map = json!({ "y": { "runtime": { "hooksSurface": "s", "sandboxTier": [tier] } } });
        let err = descriptor_intent(&map, "y").unwrap_err();
        let shown = format!("[\"none\u{FFFD}\u{FFFD}{}…", "x".repeat(80 - 8));
        assert_eq!(
            err.message(),
            format!("Runtime 'y' has a missing or invalid sandboxTier descriptor axis: {shown}")
        );
    }

    /// Was a recursion per level in the `sandboxTier` rendering: a caller-built value 50 000
    /// deep overflowed the stack. Refused now, naming the field, in a thread with a 2 MiB
    /// stack.
    #[test]
    fn a_deep_sandbox_tier_is_refused_without_recursing() {
        let outcome = on_small_stack(|| {
            let tier = nested(DEPTH, Value::Null);
            let mut map = json!({ "y": { "runtime": { "hooksSurface": "s" } } });
            map["y"]["runtime"]["sandboxTier"] = tier;
            let err = descriptor_intent(&map, "y").map(|_| ()).unwrap_err();
            dismantle(map);
            err
        });
        assert_eq!(outcome.code(), ErrorCode::InvalidDescriptor);
        assert_eq!(outcome.field(), Some("runtime.sandboxTier"));
        assert_eq!(
            outcome.message(),
            format!(
                "Runtime 'y' has a missing or invalid sandboxTier descriptor axis: {}…",
                "[".repeat(80)
            )
        );
    }
}

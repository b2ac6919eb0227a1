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

fn type_error(message: String) -> Error {
    Error::new(ErrorCode::InvalidDescriptor, message).with_field("runtime")
}

/// The intent of `runtime` in `descriptors` (`{ <id>: { runtime: <descriptor> } }`).
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`] when the id has no truthy `runtime` descriptor
/// (`Unknown runtime for install plan: <id>`); [`ErrorCode::InvalidDescriptor`] when
/// `hooksSurface` is null or absent, or `sandboxTier` is not in the vocabulary.
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
            format!("Unknown runtime for install plan: {runtime}"),
        )
        .with_field("runtime"));
    };
    let field = |name: &str| desc.get(name).cloned();
    let hooks_surface = match field("hooksSurface") {
        None | Some(Value::Null) => {
            return Err(type_error(format!(
                "runtime.hooksSurface is required for install plan: {runtime}"
            )));
        }
        Some(v) => v,
    };
    let raw_tier = desc.get("sandboxTier");
    let Some(sandbox_tier) = raw_tier
        .and_then(Value::as_str)
        .and_then(SandboxTier::parse)
    else {
        return Err(type_error(format!(
            "Runtime '{runtime}' has a missing or invalid sandboxTier descriptor axis: {}",
            stringify(raw_tier)
        )));
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
}

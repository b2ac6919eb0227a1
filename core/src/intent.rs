//! Install intent: the per-runtime config-writing and hook facts an installer acts on
//! (the peer's `resolveInstallPlan` record), plus the grouped views a [`crate::Plan`] carries.

use serde::Serialize;

use crate::error::{Error, ErrorCode};
use crate::manifest::RuntimeDescriptor;
use crate::registry::Registry;
use crate::vocab::{
    ConfigFormat, ExtendedHookEvent, HookEvents, HooksSurface, InstallSurface, PermissionWriter,
    SandboxTier,
};

/// How the installer writes the runtime's config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigIntent {
    /// Config-writing adapter.
    pub install_surface: InstallSurface,
    /// Config file format.
    pub config_format: ConfigFormat,
    /// Whether a shared `settings.json` is written.
    pub writes_shared_settings: bool,
    /// Finish-time permissions sidecar writer.
    pub permission_writer: Option<PermissionWriter>,
}

impl ConfigIntent {
    /// The config intent of a descriptor.
    #[must_use]
    pub fn of(descriptor: &RuntimeDescriptor) -> Self {
        Self {
            install_surface: descriptor.install_surface,
            config_format: descriptor.config_format,
            writes_shared_settings: descriptor.writes_shared_settings,
            permission_writer: descriptor.permission_writer,
        }
    }
}

/// Where and in which dialect hooks are registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hooks {
    /// Hook registration surface.
    pub surface: HooksSurface,
    /// Event-name dialect, when the host has named hook events.
    pub hook_events: Option<HookEvents>,
    /// Bonus lifecycle events.
    pub extended_hook_events: Vec<ExtendedHookEvent>,
}

impl Hooks {
    /// The hook facts of a descriptor.
    #[must_use]
    pub fn of(descriptor: &RuntimeDescriptor) -> Self {
        Self {
            surface: descriptor.hooks_surface,
            hook_events: descriptor.hook_events,
            extended_hook_events: descriptor.extended_hook_events.clone(),
        }
    }
}

/// The peer's `InstallPlan` record (`resolveInstallPlan`), field for field and in its key
/// order; `hookEvents` is omitted when the descriptor has none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallIntent {
    /// Runtime id.
    pub runtime: String,
    /// Config-writing adapter.
    pub install_surface: InstallSurface,
    /// Whether a shared `settings.json` is written.
    pub writes_shared_settings: bool,
    /// Finish-time permissions sidecar writer.
    pub finish_permission_writer: Option<PermissionWriter>,
    /// Hook event-name dialect (omitted when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_events: Option<HookEvents>,
    /// Bonus lifecycle events.
    pub extended_hook_events: Vec<ExtendedHookEvent>,
    /// Hook registration surface.
    pub hooks_surface: HooksSurface,
    /// Per-agent sandbox primitive.
    pub sandbox_tier: SandboxTier,
}

/// The install intent of `runtime`.
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`] (`unknown runtime for install plan: <id>`).
pub fn install_intent(registry: &Registry, runtime: &str) -> Result<InstallIntent, Error> {
    let descriptor = registry.runtime(runtime).ok_or_else(|| {
        Error::new(
            ErrorCode::UnknownRuntime,
            format!(
                "unknown runtime for install plan: {}",
                crate::sanitize::sanitize_value(runtime)
            ),
        )
        .with_field("runtime")
    })?;
    Ok(InstallIntent {
        runtime: runtime.to_owned(),
        install_surface: descriptor.install_surface,
        writes_shared_settings: descriptor.writes_shared_settings,
        finish_permission_writer: descriptor.permission_writer,
        hook_events: descriptor.hook_events,
        extended_hook_events: descriptor.extended_hook_events.clone(),
        hooks_surface: descriptor.hooks_surface,
        sandbox_tier: descriptor.sandbox_tier,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_runtime_is_named_safe_to_print_and_bounded() {
        let registry = Registry::first_party();
        let error = install_intent(registry, "nope").unwrap_err();
        assert_eq!(error.code(), ErrorCode::UnknownRuntime);
        assert_eq!(error.message(), "unknown runtime for install plan: nope");
        assert_eq!(error.field(), Some("runtime"));
        let error = install_intent(registry, "x\u{1b}]0;pwn\u{7}\u{202e}y").unwrap_err();
        assert_eq!(
            error.message(),
            "unknown runtime for install plan: x\u{FFFD}\u{FFFD}y"
        );
        let long = "r".repeat(1_000_000);
        let error = install_intent(registry, &long).unwrap_err();
        assert_eq!(
            error.message(),
            format!("unknown runtime for install plan: {}…", "r".repeat(80))
        );
    }
}

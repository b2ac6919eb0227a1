//! Typed views of a validated `capability.json`.
//!
//! Validation ([`crate::validate`]) works on the raw JSON value so its messages match the
//! peer's; once a manifest is valid, the parts the resolver reads are deserialized into
//! these types. The raw value stays available for index building and compat output.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::doc::JsonDoc;

use crate::js::Field as _;
use crate::json::Json as _;
use crate::vocab::{
    ArtifactKindName, CommandStyle, ConfigFormat, ConfigHomeKind, ConverterName,
    DEFAULT_TRIGGER_PRECEDENCE, ExtendedHookEvent, ExtensionEvents, HookEvents, HooksSurface,
    InstallSurface, Nesting, PermissionWriter, Role, SandboxTier, Scope, Tier, TriggerKind,
};

/// `runtime.configHome` (and `configHome.skillsHome`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigHome {
    /// How the directory is found.
    pub kind: ConfigHomeKind,
    /// Directory name (e.g. `.claude`, `opencode`); optional only for kind `none`.
    #[serde(default)]
    pub name: Option<String>,
    /// Parent directory under home for `dot-home-nested` (e.g. `.gemini`).
    #[serde(default)]
    pub parent: Option<String>,
    /// Ordered override environment variables.
    #[serde(default)]
    pub env: Vec<String>,
    /// Ordered probe candidates.
    #[serde(default)]
    pub probe: Option<Vec<String>>,
    /// Marker sub-path on a probe candidate.
    #[serde(default)]
    pub probe_exists: Option<String>,
    /// Override when the skills home differs from the config home (kilo).
    #[serde(default)]
    pub skills_home: Option<Box<ConfigHome>>,
}

/// One `artifactLayout.<scope>[i]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutEntry {
    /// Artifact kind.
    pub kind: ArtifactKindName,
    /// Destination under the config dir (or under `home`).
    pub dest_subpath: String,
    /// File / directory prefix (`gsd-`, or `gsd` for kimi-agents).
    pub prefix: String,
    /// `flat` or `nested` (router nesting of skills).
    pub nesting: Nesting,
    /// Whether the host loads the directory recursively.
    #[serde(default)]
    pub recursive: bool,
    /// Body converter by closed name; `None` copies bodies as they are.
    #[serde(default)]
    pub converter: Option<ConverterName>,
    /// Global-only install root relative to the user's home (codex `.agents`).
    #[serde(default)]
    pub home: Option<String>,
}

/// `runtime.artifactLayout`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtifactLayout {
    /// Entries for the global scope, in order.
    pub global: Vec<LayoutEntry>,
    /// Entries for the local scope, in order.
    pub local: Vec<LayoutEntry>,
}

impl ArtifactLayout {
    /// The entries of one scope.
    #[must_use]
    pub fn entries(&self, scope: Scope) -> &[LayoutEntry] {
        match scope {
            Scope::Global => &self.global,
            Scope::Local => &self.local,
        }
    }
}

fn default_trigger_precedence() -> Vec<TriggerKind> {
    DEFAULT_TRIGGER_PRECEDENCE.to_vec()
}

/// The `runtime` body of a `role: runtime` capability: every per-host fact, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeDescriptor {
    /// Where the global config directory lives.
    pub config_home: ConfigHome,
    /// Project-relative config directory for the local scope (`None` for vscode).
    #[serde(default)]
    pub local_config_dir: Option<String>,
    /// Config file format.
    pub config_format: ConfigFormat,
    /// Artifact placements per scope.
    pub artifact_layout: ArtifactLayout,
    /// Host trigger precedence between kinds (first wins); defaults to skills, commands.
    #[serde(default = "default_trigger_precedence")]
    pub trigger_precedence: Vec<TriggerKind>,
    /// `/gsd-x` or `$gsd-x`.
    pub command_style: CommandStyle,
    /// Where hooks are registered.
    pub hooks_surface: HooksSurface,
    /// Hook event-name dialect, when the host has hooks with named events.
    #[serde(default)]
    pub hook_events: Option<HookEvents>,
    /// Per-agent sandbox primitive.
    pub sandbox_tier: SandboxTier,
    /// GSD coverage tier (1 or 2).
    pub support_tier: u8,
    /// Config-writing adapter.
    pub install_surface: InstallSurface,
    /// Whether a shared `settings.json` is written.
    pub writes_shared_settings: bool,
    /// Finish-time permissions sidecar writer.
    #[serde(default)]
    pub permission_writer: Option<PermissionWriter>,
    /// Bonus lifecycle events registered beyond the base set.
    #[serde(default)]
    pub extended_hook_events: Vec<ExtendedHookEvent>,
    /// Extension event bus, when the host has one.
    #[serde(default)]
    pub extension_events: Option<ExtensionEvents>,
    /// Host-integration facts (kept as validated JSON).
    #[serde(default)]
    pub host_integration: serde_json::Value,
    /// Per-host behaviour switches, the known keys only ([`crate::vocab::KNOWN_HOST_BEHAVIORS`],
    /// values kept as JSON, document order). Unknown keys are warned about by the validator
    /// and ignored, so they are not kept here: a manifest with 800k unknown keys costs no
    /// second copy of them (the manifest value in [`Capability::manifest`] still has them).
    #[serde(default, deserialize_with = "known_host_behaviors")]
    pub host_behaviors: Option<serde_json::Map<String, serde_json::Value>>,
    /// Orchestrator exec facts (kept as JSON).
    #[serde(default)]
    pub orchestrator_exec: Option<serde_json::Value>,
    /// Harness isolation flag.
    #[serde(default)]
    pub harness_isolation_flag: Option<String>,
}

/// Deserializes `hostBehaviors` keeping the known keys only; unknown keys' values are
/// skipped without being built.
fn known_host_behaviors<'de, D>(
    deserializer: D,
) -> Result<Option<serde_json::Map<String, serde_json::Value>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    /// A key, borrowed from the input when it can be (no allocation per skipped key).
    struct Key<'de>(std::borrow::Cow<'de, str>);
    impl<'de> Deserialize<'de> for Key<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct KeyVisitor;
            impl<'de> serde::de::Visitor<'de> for KeyVisitor {
                type Value = Key<'de>;

                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a key")
                }

                fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                    Ok(Key(std::borrow::Cow::Borrowed(v)))
                }

                fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                    Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
                }
            }
            d.deserialize_str(KeyVisitor)
        }
    }
    struct Known;
    impl<'de> serde::de::Visitor<'de> for Known {
        type Value = Option<serde_json::Map<String, serde_json::Value>>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut known = serde_json::Map::new();
            while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                if crate::vocab::KNOWN_HOST_BEHAVIORS
                    .binary_search(&key.as_ref())
                    .is_ok()
                {
                    known.insert(key.into_owned(), map.next_value()?);
                } else {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
            Ok(Some(known))
        }
    }
    deserializer.deserialize_option(Known)
}

impl RuntimeDescriptor {
    /// `hostBehaviors.settingsFileByScope[scope]`, when declared. Read on every plan: the
    /// maps hold a few keys, so they are compared, not hashed.
    #[must_use]
    pub fn settings_file(&self, scope: Scope) -> Option<&str> {
        self.host_behaviors
            .as_ref()?
            .field("settingsFileByScope")?
            .field(scope.as_str())?
            .as_str()
    }
}

/// One capability of the registry: envelope facts, the manifest as JSON (fragments
/// materialized), and the typed runtime descriptor for `role: runtime`.
#[derive(Debug, Clone, PartialEq)]
pub struct Capability {
    /// Capability id (equals its folder name).
    pub id: String,
    /// Role.
    pub role: Role,
    /// Tier.
    pub tier: Tier,
    /// Required capability ids.
    pub requires: Vec<String>,
    /// The manifest, fragments inlined, kept in flat buffers ([`JsonDoc`]).
    pub manifest: JsonDoc,
    /// The typed descriptor, for runtime capabilities.
    pub runtime: Option<Arc<RuntimeDescriptor>>,
}

//! The capability registry: first-party capabilities plus overlays, as a persistent value.
//!
//! (Foundation slice: first-party loading and runtime lookup. Overlays, indexes and
//! profiles are built on top of this.)

use std::sync::{Arc, OnceLock};

use imbl::OrdMap;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::embedded::{self, EmbeddedCapability};
use crate::manifest::{Capability, RuntimeDescriptor};
use crate::vocab::{Role, Tier};

/// An immutable registry value. Cloning is cheap (structural sharing).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    capabilities: OrdMap<String, Arc<Capability>>,
    diagnostics: imbl::Vector<Diagnostic>,
}

/// Replaces `fragment.path` with `fragment.inline` read from the embedded folder.
fn materialize_fragments(value: &mut Value, fragments: &[(&str, &str)]) {
    for group in ["steps", "contributions"] {
        let Some(Value::Array(items)) = value.get_mut(group) else {
            continue;
        };
        for item in items {
            let Some(Value::Object(fragment)) = item.get_mut("fragment") else {
                continue;
            };
            if fragment.get("inline").is_some_and(Value::is_string) {
                continue;
            }
            let Some(path) = fragment.get("path").and_then(Value::as_str) else {
                continue;
            };
            let rel = path.trim_start_matches("./");
            if let Some((_, text)) = fragments.iter().find(|(p, _)| *p == rel) {
                fragment.insert("inline".into(), Value::String((*text).to_owned()));
            }
        }
    }
}

fn load_embedded(folder: &EmbeddedCapability) -> Result<Capability, String> {
    let mut value: Value = serde_json::from_str(folder.manifest).map_err(|e| e.to_string())?;
    materialize_fragments(&mut value, folder.fragments);
    capability_from_value(Arc::new(value))
}

/// Builds the typed [`Capability`] from a manifest value that passed validation.
pub(crate) fn capability_from_value(value: Arc<Value>) -> Result<Capability, String> {
    let id = value
        .get("id")
        .and_then(Value::as_str)
        .ok_or("id is missing")?
        .to_owned();
    let role = value
        .get("role")
        .and_then(Value::as_str)
        .and_then(Role::parse)
        .ok_or("role is invalid")?;
    let tier = value
        .get("tier")
        .and_then(Value::as_str)
        .and_then(Tier::parse)
        .ok_or("tier is invalid")?;
    let requires = value
        .get("requires")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let runtime = match (role, value.get("runtime")) {
        (Role::Runtime, Some(body)) => Some(Arc::new(
            RuntimeDescriptor::deserialize_value(body).map_err(|e| format!("runtime body: {e}"))?,
        )),
        _ => None,
    };
    Ok(Capability {
        id,
        role,
        tier,
        requires,
        manifest: value,
        runtime,
    })
}

impl RuntimeDescriptor {
    fn deserialize_value(value: &Value) -> Result<Self, serde_json::Error> {
        serde::Deserialize::deserialize(value)
    }
}

impl Registry {
    /// The embedded first-party registry (built once per process, then shared).
    #[must_use]
    pub fn first_party() -> &'static Registry {
        static FIRST_PARTY: OnceLock<Registry> = OnceLock::new();
        FIRST_PARTY.get_or_init(|| {
            let mut registry = Registry::default();
            for folder in embedded::first_party() {
                match load_embedded(folder) {
                    Ok(cap) => {
                        registry.capabilities.insert(cap.id.clone(), Arc::new(cap));
                    }
                    Err(message) => registry.diagnostics.push_back(
                        Diagnostic::new("embedded_capability_invalid", Severity::Error, message)
                            .with_capability(folder.folder),
                    ),
                }
            }
            registry
        })
    }

    /// A capability by id.
    #[must_use]
    pub fn capability(&self, id: &str) -> Option<&Arc<Capability>> {
        self.capabilities.get(id)
    }

    /// Every capability, sorted by id.
    pub fn capabilities(&self) -> impl Iterator<Item = &Arc<Capability>> {
        self.capabilities.values()
    }

    /// The runtime descriptor of a registered runtime id (exact match).
    #[must_use]
    pub fn runtime(&self, id: &str) -> Option<&RuntimeDescriptor> {
        self.capabilities.get(id)?.runtime.as_deref()
    }

    /// Registered runtime ids, sorted.
    pub fn runtime_ids(&self) -> impl Iterator<Item = &str> {
        self.capabilities
            .values()
            .filter(|c| c.runtime.is_some())
            .map(|c| c.id.as_str())
    }

    /// Diagnostics collected while building the registry (rejected overlays etc.).
    #[must_use]
    pub fn diagnostics(&self) -> &imbl::Vector<Diagnostic> {
        &self.diagnostics
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_party_has_19_runtimes_and_no_diagnostics() {
        let reg = Registry::first_party();
        assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
        assert_eq!(reg.capabilities().count(), 46);
        assert_eq!(reg.runtime_ids().count(), 19);
        let claude = reg.runtime("claude").expect("claude");
        assert_eq!(
            claude.settings_file(crate::vocab::Scope::Local),
            Some("settings.local.json")
        );
    }
}

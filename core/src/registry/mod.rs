//! The capability registry: first-party capabilities plus overlays, as a persistent value.
//!
//! A [`Registry`] is immutable. [`Registry::first_party`] is the embedded set;
//! [`Registry::with_overlays`] returns a new value with third-party capabilities added
//! (rejected ones become diagnostics, never failures). The derived views of the peer's
//! compiled registry ([`Index`]) are computed once per value, on first use.
//!
//! Capabilities keep *map order*: first-party by id, then overlays in the order they were
//! accepted. Cross-validation messages and index key order follow it, as in the peer.

mod admit;
mod overlay;

use std::sync::{Arc, OnceLock};

use imbl::{OrdMap, Vector};
use serde::Deserialize as _;
use serde_json::{Map, Value};

use crate::cross::{self, Member};
use crate::diagnostic::{Diagnostic, Severity};
use crate::doc::{JsonDoc, JsonRef};
use crate::embedded::{self, EmbeddedCapability};
use crate::index::{self, Index};
use crate::js::Field as _;
use crate::manifest::{Capability, RuntimeDescriptor};
use crate::vocab::{Role, Tier};

pub use overlay::{
    FRAGMENT_MAX_BYTES, MANIFEST_MAX_BYTES, Overlay, fragment_too_large, manifest_too_large,
};

/// An immutable registry value. Cloning is cheap (structural sharing).
///
/// `Registry::default()` is the empty registry (no capability, no runtime: every runtime
/// look-up is `UNKNOWN_RUNTIME`); the embedded first-party one is [`Registry::first_party`].
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// By id.
    capabilities: OrdMap<String, Entry>,
    /// The same entries (the same `Arc`s) in map order.
    order: Vector<Entry>,
    diagnostics: Vector<Diagnostic>,
    index: Arc<OnceLock<Index>>,
    /// The runtime capabilities by id length, then id, for [`Registry::runtime`] (built on first use,
    /// shared by clones, dropped when a capability is added).
    runtimes: Arc<OnceLock<Vec<Arc<Capability>>>>,
}

/// A capability of the registry and where it came from.
#[derive(Debug, Clone)]
struct Entry {
    capability: Arc<Capability>,
    third_party: bool,
}

/// Adds `fragment.inline` (after `fragment.path`) from the folder's files, for every
/// step and contribution fragment given by path. Returns the paths that were missing.
pub(crate) fn materialize_fragments(value: &mut Value, fragments: &[(&str, &str)]) -> Vec<String> {
    let mut missing = Vec::new();
    for group in ["steps", "contributions"] {
        let Some(Value::Array(items)) = value.get_mut(group) else {
            continue;
        };
        for item in items {
            let Some(Value::Object(fragment)) = item.get_mut("fragment") else {
                continue;
            };
            if fragment.field("inline").is_some_and(Value::is_string) {
                continue;
            }
            let Some(path) = fragment.field("path").and_then(Value::as_str) else {
                continue;
            };
            let wanted = overlay::normalize(path);
            match fragments
                .iter()
                .find(|(p, _)| wanted.is_some() && overlay::normalize(p) == wanted)
            {
                Some((_, text)) => {
                    fragment.insert("inline".into(), Value::String((*text).to_owned()));
                }
                None => missing.push(path.to_owned()),
            }
        }
    }
    missing
}

/// The kept document of an embedded folder, fragments inlined. Most manifests give no
/// fragment by path and are read straight into their document; the others get their
/// fragment files inlined on a `serde_json` value first. (A value built and freed beside
/// each kept document leaves holes that every later allocation works around: whole plans
/// through the C ABI counted 7% more instructions when all 46 went through a value.)
fn embedded_doc(folder: &EmbeddedCapability) -> Result<JsonDoc, String> {
    let doc = JsonDoc::parse(folder.manifest).map_err(|e| e.to_string())?;
    if !overlay::needs_fragment_text(doc.root()) {
        return Ok(doc);
    }
    drop(doc);
    let mut value: Value = serde_json::from_str(folder.manifest).map_err(|e| e.to_string())?;
    let missing = materialize_fragments(&mut value, folder.fragments);
    if let Some(path) = missing.first() {
        return Err(format!("fragment file {path:?} is missing"));
    }
    JsonDoc::from_value(&value).map_err(|e| e.message().to_owned())
}

/// Builds the typed [`Capability`] from a manifest that passed validation.
pub(crate) fn capability_from_doc(manifest: JsonDoc) -> Result<Capability, String> {
    let root = manifest.root();
    let id = root
        .field("id")
        .and_then(JsonRef::as_str)
        .ok_or("id is missing")?
        .to_owned();
    let role = root
        .field("role")
        .and_then(JsonRef::as_str)
        .and_then(Role::parse)
        .ok_or("role is invalid")?;
    let tier = root
        .field("tier")
        .and_then(JsonRef::as_str)
        .and_then(Tier::parse)
        .ok_or("tier is invalid")?;
    let requires = cross::strings(root, "requires")
        .map(str::to_owned)
        .collect();
    let runtime = match (role, root.field("runtime")) {
        (Role::Runtime, Some(body)) => Some(Arc::new(
            RuntimeDescriptor::deserialize(body).map_err(|e| format!("runtime body: {e}"))?,
        )),
        _ => None,
    };
    Ok(Capability {
        id,
        role,
        tier,
        requires,
        manifest,
        runtime,
    })
}

impl Registry {
    /// The embedded first-party registry (built once per process, then shared).
    #[must_use]
    pub fn first_party() -> &'static Registry {
        static FIRST_PARTY: OnceLock<Registry> = OnceLock::new();
        FIRST_PARTY.get_or_init(|| {
            let mut registry = Registry::default();
            for folder in embedded::first_party() {
                let cap = embedded_doc(folder).and_then(capability_from_doc);
                match cap {
                    Ok(cap) => registry.insert(cap, false),
                    Err(message) => registry.diagnostics.push_back(
                        Diagnostic::new("embedded_capability_invalid", Severity::Error, message)
                            .with_capability(folder.folder),
                    ),
                }
            }
            let members = registry.members();
            let mut found = cross::validate_cross(&members, &[]);
            found.extend(cross::validate_data_flow(&members));
            found.extend(index::validate_hook_order(&members));
            registry.diagnostics.extend(found);
            registry
        })
    }

    fn insert(&mut self, cap: impl Into<Arc<Capability>>, third_party: bool) {
        let entry = Entry {
            capability: cap.into(),
            third_party,
        };
        self.capabilities
            .insert(entry.capability.id.clone(), entry.clone());
        self.order.push_back(entry);
        self.index = Arc::default();
        self.runtimes = Arc::default();
    }

    /// The capabilities in map order, as cross-validation sees them.
    pub(crate) fn members(&self) -> Vec<Member<'_>> {
        self.order
            .iter()
            .map(|e| Member {
                id: &e.capability.id,
                manifest: e.capability.manifest.root(),
                third_party: e.third_party,
            })
            .collect()
    }

    /// A capability by id.
    #[must_use]
    pub fn capability(&self, id: &str) -> Option<&Arc<Capability>> {
        self.capabilities.get(id).map(|e| &e.capability)
    }

    /// Every capability, sorted by id.
    pub fn capabilities(&self) -> impl Iterator<Item = &Arc<Capability>> {
        self.capabilities.values().map(|e| &e.capability)
    }

    /// Capability ids in map order: first-party by id, then accepted overlays.
    pub fn ids_in_map_order(&self) -> impl Iterator<Item = &str> {
        self.order.iter().map(|e| e.capability.id.as_str())
    }

    /// Whether a capability came from an overlay.
    #[must_use]
    pub fn is_third_party(&self, id: &str) -> bool {
        self.capabilities.get(id).is_some_and(|e| e.third_party)
    }

    /// The runtime descriptor of a registered runtime id (exact match).
    #[must_use]
    pub fn runtime(&self, id: &str) -> Option<&RuntimeDescriptor> {
        // Every plan looks its runtime up: the runtimes ordered by id length, then id, are
        // searched mostly by comparing lengths, which costs less than comparing ids along a
        // path of the whole capability map.
        let runtimes = self.runtimes.get_or_init(|| {
            let mut runtimes: Vec<Arc<Capability>> = self
                .capabilities()
                .filter(|c| c.runtime.is_some())
                .cloned()
                .collect();
            runtimes.sort_by(|a, b| (a.id.len(), &a.id).cmp(&(b.id.len(), &b.id)));
            runtimes
        });
        let found = runtimes
            .binary_search_by(|c| (c.id.len(), c.id.as_str()).cmp(&(id.len(), id)))
            .ok()?;
        runtimes.get(found)?.runtime.as_deref()
    }

    /// Registered runtime ids, sorted.
    pub fn runtime_ids(&self) -> impl Iterator<Item = &str> {
        self.capabilities()
            .filter(|c| c.runtime.is_some())
            .map(|c| c.id.as_str())
    }

    /// Diagnostics collected while building the registry (rejected overlays etc.).
    #[must_use]
    pub fn diagnostics(&self) -> &imbl::Vector<Diagnostic> {
        &self.diagnostics
    }

    /// The derived views (computed on first use, then shared by clones of this value).
    #[must_use]
    pub fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::build(&self.members()).0)
    }

    /// `requiresClosure(id)` (see [`Index::requires_closure`]).
    #[must_use]
    pub fn requires_closure(&self, id: &str) -> Vec<String> {
        self.index().requires_closure(id)
    }

    /// The registry in the peer module's object shape and key order: `version`,
    /// `capabilities`, `bySkill`, `byAgent`, `byLoopPoint`, `configKeys`, `configSchema`,
    /// `runtimes`, `commandFamilies`, `capabilityClusters`, `profileMembership`.
    /// (`requiresClosure` is a function in the peer and is left out.)
    #[must_use]
    pub fn to_peer_json(&self) -> Value {
        let members = self.members();
        let manifests = |runtime_only: bool| -> Value {
            let map: Map<String, Value> = members
                .iter()
                .filter(|m| {
                    !runtime_only
                        || m.manifest.field("role").and_then(JsonRef::as_str) == Some("runtime")
                })
                .map(|m| (m.id.to_owned(), m.manifest.to_value()))
                .collect();
            Value::Object(map)
        };
        let mut views = self.index().views_json().into_iter();
        let mut out = Map::new();
        out.insert("version".into(), Value::String("1".into()));
        out.insert("capabilities".into(), manifests(false));
        for (key, value) in views.by_ref().take(5) {
            out.insert(key.into(), value);
        }
        out.insert("runtimes".into(), manifests(true));
        for (key, value) in views {
            out.insert(key.into(), value);
        }
        Value::Object(out)
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

    /// The runtime table answers what the capability map answers, for every id (runtime or
    /// not, unknown, a prefix of one), before and after overlays are added to a registry
    /// whose table was already built.
    #[test]
    fn runtime_lookups_are_the_map_lookups() {
        let reg = Registry::first_party();
        let overlay = Overlay {
            folder: "ext-1".into(),
            manifest: r#"{"id":"ext-1","role":"feature","version":"1.0.0","title":"t","description":"d","tier":"full","requires":[],"runtimeCompat":{"supported":["*"],"unsupported":[]},"skills":[],"agents":[],"config":{},"steps":[],"contributions":[],"gates":[]}"#.into(),
            fragments: Vec::new(),
        };
        let mut runtime = reg
            .capability("claude")
            .expect("claude")
            .manifest
            .to_value();
        runtime["id"] = Value::String("zz-runtime".into());
        runtime["config"] = Value::Object(Map::new());
        if let Some(fields) = runtime.as_object_mut() {
            fields.remove("reviewer");
        }
        let runtime = Overlay {
            folder: "zz-runtime".into(),
            manifest: runtime.to_string(),
            fragments: Vec::new(),
        };
        assert!(reg.runtime("claude").is_some(), "the table is built");
        let with = reg.with_overlays(&[overlay, runtime]);
        assert_eq!(with.capabilities().count(), 48, "{:?}", with.diagnostics());
        assert!(
            with.runtime("zz-runtime").is_some(),
            "an added runtime is found"
        );
        for registry in [reg, &with] {
            let ids: Vec<String> = registry.capabilities().map(|c| c.id.clone()).collect();
            let extra = ["", "claud", "claudez", "zz", "__proto__", "Claude"].map(String::from);
            for id in ids.iter().chain(&extra) {
                let expected = registry.capability(id).and_then(|c| c.runtime.as_deref());
                assert_eq!(
                    registry.runtime(id).map(std::ptr::from_ref),
                    expected.map(std::ptr::from_ref),
                    "{id}"
                );
            }
        }
    }

    #[test]
    fn pattern_mapper_requires_research_only() {
        let reg = Registry::first_party();
        assert_eq!(reg.requires_closure("pattern-mapper"), ["research"]);
        assert!(reg.requires_closure("no-such-id").is_empty());
    }

    #[test]
    fn closure_of_prototype_names_is_empty_where_the_peer_throws() {
        // Deliberate difference (docs/registry.md): the peer's compiled requiresClosure
        // throws a TypeError for these names; an unknown name has no closure here.
        for name in ["__proto__", "constructor", "prototype"] {
            assert!(
                Registry::first_party().requires_closure(name).is_empty(),
                "{name}"
            );
        }
    }

    #[test]
    fn peer_json_keys_follow_the_module_exports() {
        let json = Registry::first_party().to_peer_json();
        let keys: Vec<_> = json
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "version",
                "capabilities",
                "bySkill",
                "byAgent",
                "byLoopPoint",
                "configKeys",
                "configSchema",
                "runtimes",
                "commandFamilies",
                "capabilityClusters",
                "profileMembership"
            ]
        );
    }
}

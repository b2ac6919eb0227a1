//! Arbitrary overlays (folder, manifest bytes, fragment files) → `Registry::with_overlays`.
//!
//! Half of the inputs start from a valid third-party feature manifest with fuzzed fields
//! spliced in, so the fuzzer reaches the cross-capability rules and not only the parser.
//!
//! Invariants: no panic; the result does not depend on the order the overlays arrive in;
//! every rejected overlay leaves an `overlay_rejected` summary; first party is untouched.
#![no_main]

use arbitrary::Arbitrary;
use gsd_core::{Overlay, Registry};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

#[derive(Debug, Arbitrary)]
struct FuzzOverlay {
    folder: String,
    raw: Option<String>,
    requires: Vec<String>,
    skills: Vec<String>,
    config_key: Option<String>,
    tier: u8,
    fragment_path: Option<String>,
    files: Vec<(String, String)>,
}

fn manifest(o: &FuzzOverlay) -> String {
    if let Some(raw) = &o.raw {
        return raw.clone();
    }
    let tier = ["core", "standard", "full"][usize::from(o.tier % 3)];
    let mut value = json!({
        "id": o.folder, "role": "feature", "version": "1.0.0", "title": "t", "description": "d",
        "tier": tier,
        "requires": o.requires, "engines": {"gsd": ">=1.6.0"},
        "runtimeCompat": {"supported": ["*"], "unsupported": []},
        "skills": o.skills, "agents": [], "hooks": [], "config": {},
        "steps": [], "contributions": [], "gates": []
    });
    if let Some(key) = &o.config_key {
        value["config"][key.as_str()] =
            json!({"type": "boolean", "default": false, "description": "d"});
    }
    if let Some(path) = &o.fragment_path {
        value["steps"] = json!([{"point": "plan:pre", "fragment": {"path": path}}]);
    }
    serde_json::to_string(&value).unwrap_or_default()
}

fn summary(registry: &Registry) -> (Vec<String>, Vec<(String, Option<String>)>) {
    let accepted = registry
        .capabilities()
        .filter(|c| registry.is_third_party(&c.id))
        .map(|c| c.id.clone())
        .collect();
    let codes = registry
        .diagnostics()
        .iter()
        .map(|d| (d.code.clone(), d.capability_id.clone()))
        .collect();
    (accepted, codes)
}

fuzz_target!(|input: Vec<FuzzOverlay>| {
    if input.len() > 4 {
        return;
    }
    let overlays: Vec<Overlay> = input
        .iter()
        .map(|o| Overlay {
            folder: o.folder.clone(),
            manifest: manifest(o),
            fragments: o.files.clone(),
        })
        .collect();
    let base = Registry::first_party();
    let registry = base.with_overlays(&overlays);
    let mut reversed = overlays.clone();
    reversed.reverse();
    let (accepted, _) = summary(&registry);
    let (accepted_rev, _) = summary(&base.with_overlays(&reversed));
    let mut a = accepted.clone();
    let mut b = accepted_rev;
    a.sort();
    b.sort();
    assert_eq!(a, b, "acceptance depends on overlay order");
    for o in &overlays {
        if !accepted.contains(&o.folder) {
            assert!(
                registry
                    .diagnostics()
                    .iter()
                    .any(|d| d.code == "overlay_rejected"
                        && d.capability_id.as_deref() == Some(o.folder.as_str())),
                "overlay {:?} neither accepted nor rejected",
                o.folder
            );
        }
    }
    for id in base.ids_in_map_order() {
        assert!(!registry.is_third_party(id));
    }
    let _ = registry.index();
    let _: Value = registry.to_peer_json();
});

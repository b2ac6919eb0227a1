//! Properties of validation: deterministic, and total (never panics) on arbitrary edits of
//! the shipped manifests.

#![allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated inputs by value.

use gsd_core::{embedded, parse_manifest, validate_capability, warning_records};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use serde_json::{Map, Value};

/// An arbitrary JSON value, nested at most a few levels.
#[derive(Debug, Clone)]
struct Json(Value);

fn arbitrary_value(g: &mut Gen, depth: u8) -> Value {
    let pick = u8::arbitrary(g) % if depth == 0 { 5 } else { 7 };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(g)),
        2 => Value::from(i32::arbitrary(g)),
        3 => Value::from(
            *g.choose(&[
                "",
                "claude",
                "global",
                "__proto__",
                "a\u{1b}[31m",
                "../x",
                "skills",
            ])
            .unwrap_or(&""),
        ),
        4 => Value::String(String::arbitrary(g)),
        5 => Value::Array(
            (0..u8::arbitrary(g) % 4)
                .map(|_| arbitrary_value(g, depth - 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..u8::arbitrary(g) % 4 {
                map.insert(String::arbitrary(g), arbitrary_value(g, depth - 1));
            }
            Value::Object(map)
        }
    }
}

impl Arbitrary for Json {
    fn arbitrary(g: &mut Gen) -> Self {
        Json(arbitrary_value(g, 3))
    }
}

/// Keys the validator reads, at the top level and in the runtime body.
const KEYS: &[&str] = &[
    "id",
    "role",
    "version",
    "title",
    "description",
    "tier",
    "requires",
    "engines",
    "runtime",
    "reviewer",
    "config",
    "skills",
    "agents",
    "steps",
    "contributions",
    "gates",
    "hooks",
    "runtimeCompat",
    "commands",
    "activationKey",
    "taskContentResolver",
];
const RUNTIME_KEYS: &[&str] = &[
    "configHome",
    "localConfigDir",
    "configFormat",
    "artifactLayout",
    "triggerPrecedence",
    "commandStyle",
    "hooksSurface",
    "hookEvents",
    "sandboxTier",
    "supportTier",
    "installSurface",
    "writesSharedSettings",
    "permissionWriter",
    "extendedHookEvents",
    "hostIntegration",
    "hostBehaviors",
];

/// One shipped manifest with one field replaced by an arbitrary value.
fn mutated(which: usize, key: usize, value: &Json, in_runtime: bool) -> (Value, &'static str) {
    let all = embedded::first_party();
    let cap = &all[which % all.len()];
    let mut manifest = parse_manifest(cap.manifest).expect("shipped manifests parse");
    let target = if in_runtime {
        manifest.get_mut("runtime")
    } else {
        Some(&mut manifest)
    };
    if let Some(Value::Object(map)) = target {
        let keys = if in_runtime { RUNTIME_KEYS } else { KEYS };
        map.insert(keys[key % keys.len()].to_owned(), value.0.clone());
    }
    (manifest, cap.folder)
}

/// Cases per property: 300 by default; `QUICKCHECK_TESTS` when set, so the at-scale run
/// (`scripts/properties-at-scale.sh`) reaches these properties too.
fn cases() -> u64 {
    std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

#[test]
fn validation_is_deterministic_and_total() {
    fn prop(which: usize, key: usize, value: Json, in_runtime: bool) -> bool {
        let (manifest, folder) = mutated(which, key, &value, in_runtime);
        let copy = manifest.clone();
        validate_capability(&manifest, folder) == validate_capability(&copy, folder)
            && warning_records(&manifest) == warning_records(&copy)
    }
    QuickCheck::new()
        .tests(cases())
        .quickcheck(prop as fn(usize, usize, Json, bool) -> bool);
}

#[test]
fn serialised_manifests_validate_the_same_after_a_round_trip() {
    // Validation depends on the value only, not on how it was produced: text → value →
    // text → value gives the same findings.
    fn prop(which: usize, key: usize, value: Json, in_runtime: bool) -> bool {
        let (manifest, folder) = mutated(which, key, &value, in_runtime);
        let text = serde_json::to_string(&manifest).expect("serialise");
        match parse_manifest(&text) {
            Ok(again) => {
                validate_capability(&again, folder) == validate_capability(&manifest, folder)
            }
            Err(_) => true, // an arbitrary value may exceed a parse bound; that is not this property
        }
    }
    QuickCheck::new()
        .tests(cases())
        .quickcheck(prop as fn(usize, usize, Json, bool) -> bool);
}

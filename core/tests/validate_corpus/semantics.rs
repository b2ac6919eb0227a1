//! Mutations aimed at the JavaScript semantics behind the peer's messages: truthiness of
//! ids, `String.prototype.replace` patterns, key order of index-like keys, number
//! rendering, Unicode case mapping and ASCII-only grammars.

use serde_json::json;

use super::{Corpus, Expect, set};

#[allow(clippy::too_many_lines)] // Reason: a data table of mutations, one line per case.
pub fn semantics_cases(c: &mut Corpus<'_>) {
    // `cap.id || '(unknown)'` and `String(id)` in message prefixes.
    for id in [
        json!(0),
        json!(""),
        json!(true),
        json!(null),
        json!([1, 2]),
        json!({"a": 1}),
        json!(1.5e-7),
    ] {
        let name = format!("id {id} with a configHome error");
        c.mutate("kilo", &name, Expect::Same, |v| {
            set(v, "id", id);
            set(v, "runtime.configHome.env", json!("x"));
            set(v, "runtime.configHome.skillsHome.env", json!(1));
        });
    }
    // The skillsHome rewrite is a JavaScript `replace`: `$` patterns in the id expand.
    for id in ["a$&b", "a$'b", "a$`b", "a$$b", "a$1b", "a$<x>b"] {
        let name = format!("id {id} through the skillsHome rewrite");
        c.mutate("kilo", &name, Expect::Same, |v| {
            set(v, "id", json!(id));
            set(
                v,
                "runtime.configHome.skillsHome",
                json!({"kind": "bogus", "env": [], "skillsHome": {"env": 1}}),
            );
        });
    }
    // Index-like keys come first, ascending; 4294967295 is not an index.
    c.set(
        "claude",
        "compatVersions",
        json!({"b": "x", "4294967295": "y", "10": "z", "4294967294": "w", "01": "v", "1.0.0": ">=1"}),
    );
    c.set(
        "security",
        "config",
        json!({"z": null, "3": null, "1": {"type": 1}, "a": {}}),
    );
    c.set(
        "gemini",
        "reviewer.invoke.env",
        json!({"Z_OK": 1, "2": "x", "1": 2}),
    );
    c.mutate(
        "claude",
        "index-like hostBehaviors and reviewer keys",
        Expect::Same,
        |v| {
            for key in ["zeta", "12", "alpha", "3", "007"] {
                set(v, &format!("runtime.hostBehaviors.{key}"), json!(1));
                set(v, &format!("reviewer.{key}"), json!(1));
            }
        },
    );
    c.set(
        "claude",
        "runtime.configHome",
        json!({"kind": {"b": 1, "0": [true, null]}, "env": []}),
    );
    // Numbers as JavaScript prints them.
    for n in [
        json!(1e21),
        json!(123_456_789_012_345_680_000.0),
        json!(-1.5e-7),
        json!(0.1),
        json!(12_345_678_901_234_567_890_u64),
    ] {
        c.set("claude", "runtime.supportTier", n.clone());
        c.set("claude", "runtime.writesSharedSettings", n.clone());
        c.set("gemini", "reviewer.timeoutFloorMs", n);
    }
    c.set(
        "codex",
        "runtime.hostIntegration.dispatch.maxDepth",
        json!("-1"),
    );
    c.set(
        "codex",
        "runtime.hostIntegration.dispatch.maxDepth",
        json!(-1.0),
    );
    // Unicode: case mapping in the denied-env check, ASCII-only grammars.
    c.set(
        "gemini",
        "reviewer.invoke.env",
        json!({"claſſpath": "x", "ld_preload": "y", "straße": "z"}),
    );
    c.set("claude", "id", json!("clé"));
    c.set("claude", "version", json!("１.2.3"));
    c.set("claude", "engines", json!({"gsd": "\u{a0}>=1"}));
    c.set(
        "security",
        "hooks",
        json!([{"event": "E", "script": "é.js"}]),
    );
    c.set("gemini", "reviewer.slug", json!("ünicode"));
    // Gate B lists every matching event, duplicates included.
    c.set(
        "claude",
        "runtime.extendedHookEvents",
        json!(["AfterAgent", "AfterAgent", "Bogus", "Stop", "Stop"]),
    );
    // A step can reference a skill when `skills` is not an array (no membership check).
    c.mutate(
        "security",
        "steps without a skills array",
        Expect::Same,
        |v| {
            set(v, "skills", json!("x"));
            set(v, "steps[0].ref", json!({"skill": "anything"}));
        },
    );
    // Duplicate keys: the last value wins at the first key's position (JSON.parse and
    // serde_json with preserve_order agree).
    let claude = serde_json::to_string(&c.base["claude"]).expect("text");
    let duplicated = claude.replacen(
        '{',
        r#"{"role":"plugin","compatVersions":{"1.0":"x","b":"y","1.0":"zz"},"#,
        1,
    );
    c.cases.push(super::Case {
        name: "claude: duplicate keys".to_owned(),
        folder: "claude".to_owned(),
        text: duplicated,
        expect: Expect::Same,
    });
    // Every forbidden field on a reviewer at once.
    c.mutate(
        "coderabbit",
        "all feature-only fields on a reviewer",
        Expect::Same,
        |v| {
            for field in [
                "skills",
                "agents",
                "steps",
                "contributions",
                "gates",
                "hooks",
                "activationKey",
                "taskContentResolver",
            ] {
                set(v, field, json!(null));
            }
            set(v, "runtime", json!(false));
        },
    );
}

//! Runtime-body and warning mutations.

use serde_json::json;

use super::{Corpus, Expect, RUNTIME_REQUIRED, set};

#[allow(clippy::too_many_lines)] // Reason: a data table of mutations, one line per case.
pub fn runtime_cases(c: &mut Corpus<'_>) {
    let runtimes: Vec<String> = c
        .base
        .iter()
        .filter(|(_, v)| v["role"] == "runtime")
        .map(|(k, _)| k.clone())
        .collect();
    assert_eq!(runtimes.len(), 19);
    for folder in &runtimes {
        for field in RUNTIME_REQUIRED {
            c.del(folder, &format!("runtime.{field}"));
        }
    }
    for folder in ["claude", "codex", "vscode", "kilo", "antigravity"] {
        for field in RUNTIME_REQUIRED {
            c.set(folder, &format!("runtime.{field}"), json!(42));
        }
        c.set(folder, "runtime", json!(null));
        c.set(folder, "runtime.hostIntegration", json!([]));
    }
    c.del("claude", "runtime");
    // Closed axes: unknown value and reserved name.
    for axis in [
        "commandStyle",
        "hooksSurface",
        "hookEvents",
        "extensionEvents",
        "sandboxTier",
    ] {
        c.each(
            "opencode",
            &format!("runtime.{axis}"),
            &[json!("bogus"), json!("__proto__"), json!(["x"])],
        );
    }
    c.each(
        "claude",
        "runtime.configFormat",
        &[json!("yaml"), json!({"a": 1}), json!(["toml", "x"])],
    );
    c.each(
        "claude",
        "runtime.installSurface",
        &[json!("plugin"), json!("constructor")],
    );
    c.each(
        "claude",
        "runtime.permissionWriter",
        &[json!("bogus"), json!(false)],
    );
    c.each(
        "claude",
        "runtime.supportTier",
        &[json!(3), json!("1"), json!(1.0), json!(2.5)],
    );
    c.each(
        "claude",
        "runtime.writesSharedSettings",
        &[json!("true"), json!(null)],
    );
    c.each(
        "claude",
        "runtime.localConfigDir",
        &[json!("claude"), json!(""), json!(null)],
    );
    c.set("vscode", "runtime.localConfigDir", json!(".vscode"));
    c.each(
        "claude",
        "runtime.extendedHookEvents",
        &[json!("Stop"), json!(["Bogus", 1, "Stop"])],
    );
    // configHome.
    c.each(
        "claude",
        "runtime.configHome",
        &[json!(null), json!([]), json!("x")],
    );
    c.each(
        "claude",
        "runtime.configHome.kind",
        &[json!("bogus"), json!("prototype"), json!(null)],
    );
    c.del("claude", "runtime.configHome.kind");
    c.each("claude", "runtime.configHome.name", &[json!(""), json!(3)]);
    c.del("claude", "runtime.configHome.name");
    c.each("vscode", "runtime.configHome.name", &[json!(""), json!(3)]);
    c.del("vscode", "runtime.configHome.name");
    c.del("antigravity", "runtime.configHome.parent");
    c.set("antigravity", "runtime.configHome.parent", json!(""));
    c.each(
        "claude",
        "runtime.configHome.env",
        &[json!("CLAUDE_CONFIG_DIR"), json!([1, "x", null])],
    );
    c.del("claude", "runtime.configHome.env");
    c.each(
        "claude",
        "runtime.configHome.probe",
        &[json!("x"), json!(["a", 2])],
    );
    c.each(
        "claude",
        "runtime.configHome.probeExists",
        &[json!(""), json!(4)],
    );
    c.each(
        "kilo",
        "runtime.configHome.skillsHome",
        &[
            json!(null),
            json!({}),
            json!({"kind": "bogus", "env": "x"}),
            json!({"kind": "dot-home-nested", "name": ".k", "env": [], "skillsHome": {"kind": "xdg", "env": [1]}}),
        ],
    );
    // artifactLayout.
    c.each(
        "claude",
        "runtime.artifactLayout",
        &[
            json!([]),
            json!({"global": []}),
            json!({"global": "x", "local": {}}),
        ],
    );
    c.each(
        "claude",
        "runtime.artifactLayout.global[0]",
        &[
            json!(null),
            json!("skills"),
            json!({}),
            json!({"kind": "__proto__", "destSubpath": "", "nesting": null, "prefix": 5, "recursive": "yes", "converter": 5}),
            json!({"kind": "bogus", "destSubpath": 1, "nesting": "deep", "prefix": null, "converter": "convertFoo"}),
        ],
    );
    c.del("claude", "runtime.artifactLayout.global[0].converter");
    c.set(
        "claude",
        "runtime.artifactLayout.local[0].home",
        json!(".x"),
    );
    // hostIntegration.
    let axes = [
        "embeddingMode",
        "commandSurface",
        "modelMode",
        "hookBus",
        "stateIO",
        "transport",
        "runtime",
        "effortSurface",
    ];
    for axis in axes {
        c.each(
            "codex",
            &format!("runtime.hostIntegration.{axis}"),
            &[json!("bogus"), json!("__proto__")],
        );
    }
    c.set(
        "codex",
        "runtime.hostIntegration.runtime",
        json!("undocumented"),
    );
    for key in ["__proto__", "constructor", "prototype"] {
        c.set("codex", &format!("runtime.hostIntegration.{key}"), json!(1));
        c.set(
            "codex",
            &format!("runtime.hostIntegration.dispatch.{key}"),
            json!(1),
        );
        c.set(
            "codex",
            &format!("runtime.orchestratorExec.{key}"),
            json!(1),
        );
    }
    c.each(
        "codex",
        "runtime.hostIntegration.dispatch",
        &[json!(null), json!([]), json!({})],
    );
    c.del("codex", "runtime.hostIntegration.dispatch");
    for key in [
        "namedDispatch",
        "nested",
        "background",
        "backgroundDispatch",
    ] {
        c.set(
            "codex",
            &format!("runtime.hostIntegration.dispatch.{key}"),
            json!("yes"),
        );
        c.del("codex", &format!("runtime.hostIntegration.dispatch.{key}"));
    }
    c.each(
        "codex",
        "runtime.hostIntegration.dispatch.subagentToolkit",
        &[json!("bogus"), json!("constructor")],
    );
    c.each(
        "codex",
        "runtime.hostIntegration.dispatch.isolation",
        &[json!("bogus"), json!("prototype")],
    );
    c.each(
        "codex",
        "runtime.hostIntegration.dispatch.maxDepth",
        &[json!(-2), json!(1.5), json!("undocumented"), json!(1e300)],
    );
    c.each(
        "codex",
        "runtime.hostIntegration.dispatch.maxConcurrency",
        &[
            json!(0),
            json!(9_007_199_254_740_993_u64),
            json!(2.0),
            json!("many"),
        ],
    );
    // orchestratorExec and harnessIsolationFlag.
    c.each(
        "codex",
        "runtime.orchestratorExec",
        &[json!("x"), json!([]), json!(null), json!({})],
    );
    c.each(
        "codex",
        "runtime.orchestratorExec.command",
        &[json!(""), json!("__proto__"), json!(5)],
    );
    c.each(
        "codex",
        "runtime.orchestratorExec.args",
        &[json!([1]), json!("x")],
    );
    for key in ["cwdFlag", "promptFlag", "modelFlag"] {
        c.set(
            "codex",
            &format!("runtime.orchestratorExec.{key}"),
            json!(5),
        );
    }
    c.each(
        "claude",
        "runtime.harnessIsolationFlag",
        &[json!(""), json!(false)],
    );
    // Gates A and B.
    c.set("claude", "runtime.hooksSurface", json!("codex-hooks-json"));
    c.set("codex", "runtime.hooksSurface", json!("settings-json"));
    c.set("vscode", "runtime.hooksSurface", json!("bogus-surface"));
    c.set(
        "claude",
        "runtime.extendedHookEvents",
        json!(["BeforeAgent", "Stop", "AfterAgent"]),
    );
    c.del("qwen", "runtime.hookEvents");
    c.set("qwen", "runtime.hookEvents", json!(["x", "y"]));
    // triggerPrecedence.
    c.each(
        "claude",
        "runtime.triggerPrecedence",
        &[
            json!("skills"),
            json!([]),
            json!(["skills", "skills"]),
            json!(["agents"]),
            json!(["__proto__", 1, "commands"]),
        ],
    );
    c.del("claude", "runtime.triggerPrecedence");
    // Feature-only fields on a runtime.
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
        c.set("cursor", field, json!([]));
    }
}

pub fn warning_cases(c: &mut Corpus<'_>) {
    c.set(
        "claude",
        "runtime.hostBehaviors.reviewerCli",
        json!({"binary": "claude"}),
    );
    c.set("claude", "runtime.hostBehaviors.notABehavior", json!(true));
    c.set("claude", "runtime.hostBehaviors.__proto__", json!(true));
    c.mutate(
        "claude",
        "12 unknown hostBehaviors keys",
        Expect::Same,
        |v| {
            for i in 0..12 {
                set(v, &format!("runtime.hostBehaviors.unknown{i}"), json!(i));
            }
            set(v, "runtime.hostBehaviors.7", json!("index keys come first"));
            set(v, "runtime.hostBehaviors.reviewerCli", json!(1));
        },
    );
    c.mutate("codex", "hostile hostBehaviors keys", Expect::Same, |v| {
        let hb = v["runtime"]["hostBehaviors"]
            .as_object_mut()
            .expect("hostBehaviors");
        hb.insert("a\u{1b}[31mred\u{85}.x".to_owned(), json!(1));
        hb.insert("k".repeat(120), json!(1));
    });
    c.set("vscode", "runtime.hostBehaviors", json!({"x": 1}));
    c.set("gemini", "reviewer.extraField", json!(1));
    c.mutate("ollama", "13 unknown reviewer fields", Expect::Same, |v| {
        for i in 0..13 {
            set(v, &format!("reviewer.field{i}"), json!(i));
        }
        set(v, "reviewer.constructor", json!(1));
    });
    c.mutate(
        "cursor",
        "unknown reviewer field with a non-string id",
        Expect::Same,
        |v| {
            set(v, "reviewer.extra", json!(1));
            set(v, "id", json!(7));
        },
    );
}

//! Parity of manifest validation with the peer's `capability-validator.cjs`.
//!
//! A corpus of broken manifests is generated deterministically by applying one mutation
//! each to the shipped manifests in `capabilities/`. All of them go to the peer in one
//! batch (`peer/validate.cjs`); for every case our error messages must equal the peer's,
//! in order, and our warning records must equal the peer's records field for field. The
//! deliberate differences (see `docs/validation.md`) are checked separately: the peer
//! throws or accepts, we report our own code, and everything else still matches.

mod util;

use std::collections::BTreeMap;
use std::fs;

use gsd_core::validate::{Origin, check_capability, validate_capability, warning_records};
use gsd_core::{Diagnostic, parse_manifest};
use serde_json::{Map, Value, json};

/// What a case expects from the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Messages and warnings equal the peer's.
    Same,
    /// Deliberate difference: the peer accepts; we add errors with this code (and
    /// otherwise agree with the peer).
    OursAdds(&'static str),
    /// Deliberate difference: the peer throws; we report errors with this code.
    PeerThrows(&'static str),
}

struct Case {
    name: String,
    folder: String,
    text: String,
    expect: Expect,
}

/// The shipped manifests, by folder.
fn shipped() -> BTreeMap<String, Value> {
    let root = util::repo_root().join("capabilities");
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(&root).expect("read capabilities/") {
        let path = entry.expect("dir entry").path().join("capability.json");
        if path.is_file() {
            let folder = path
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .expect("folder")
                .to_owned();
            let text = fs::read_to_string(&path).expect("read manifest");
            out.insert(
                folder,
                parse_manifest(&text).expect("shipped manifest parses"),
            );
        }
    }
    assert_eq!(out.len(), 46, "46 shipped capabilities");
    out
}

/// Splits `a.b[2].c` into keys and indexes.
fn segments(path: &str) -> Vec<Result<String, usize>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            out.push(Ok(key.to_owned()));
        }
        for index in rest.split('[').filter(|s| !s.is_empty()) {
            out.push(Err(index.trim_end_matches(']').parse().expect("index")));
        }
    }
    out
}

fn parent_mut<'a>(v: &'a mut Value, path: &str) -> (&'a mut Value, Result<String, usize>) {
    let mut segs = segments(path);
    let last = segs.pop().expect("non-empty path");
    let mut cur = v;
    for seg in segs {
        cur = match seg {
            Ok(key) => cur
                .get_mut(&key)
                .unwrap_or_else(|| panic!("no key {key} in {path}")),
            Err(i) => cur
                .get_mut(i)
                .unwrap_or_else(|| panic!("no index {i} in {path}")),
        };
    }
    (cur, last)
}

/// Sets `path` to `value` (the last key is created when absent).
fn set(v: &mut Value, path: &str, value: Value) {
    match parent_mut(v, path) {
        (Value::Object(map), Ok(key)) => {
            map.insert(key, value);
        }
        (Value::Array(items), Err(i)) => items[i] = value,
        _ => panic!("cannot set {path}"),
    }
}

/// Removes `path`.
fn del(v: &mut Value, path: &str) {
    match parent_mut(v, path) {
        (Value::Object(map), Ok(key)) => {
            map.shift_remove(&key);
        }
        (Value::Array(items), Err(i)) => {
            items.remove(i);
        }
        _ => panic!("cannot delete {path}"),
    }
}

struct Corpus<'a> {
    base: &'a BTreeMap<String, Value>,
    cases: Vec<Case>,
}

impl Corpus<'_> {
    fn push_value(&mut self, name: String, folder: &str, value: &Value, expect: Expect) {
        let text = serde_json::to_string(value).expect("serialize");
        self.cases.push(Case {
            name,
            folder: folder.to_owned(),
            text,
            expect,
        });
    }

    fn mutate(&mut self, folder: &str, name: &str, expect: Expect, f: impl FnOnce(&mut Value)) {
        let mut v = self
            .base
            .get(folder)
            .unwrap_or_else(|| panic!("no capability {folder}"))
            .clone();
        f(&mut v);
        self.push_value(format!("{folder}: {name}"), folder, &v, expect);
    }

    /// One case: `path` set to `value`.
    fn set(&mut self, folder: &str, path: &str, value: Value) {
        let name = format!("{path} = {value}");
        self.mutate(folder, &name, Expect::Same, |v| set(v, path, value));
    }

    /// One case: `path` removed.
    fn del(&mut self, folder: &str, path: &str) {
        self.mutate(folder, &format!("delete {path}"), Expect::Same, |v| {
            del(v, path)
        });
    }

    /// One case per value.
    fn each(&mut self, folder: &str, path: &str, values: &[Value]) {
        for value in values {
            self.set(folder, path, value.clone());
        }
    }

    fn ours(&mut self, folder: &str, path: &str, value: Value, code: &'static str) {
        let name = format!("ours: {path} = {value}");
        self.mutate(folder, &name, Expect::OursAdds(code), |v| {
            set(v, path, value)
        });
    }
}

const RUNTIME_REQUIRED: &[&str] = &[
    "configHome",
    "configFormat",
    "artifactLayout",
    "commandStyle",
    "hooksSurface",
    "sandboxTier",
    "supportTier",
    "installSurface",
    "writesSharedSettings",
    "permissionWriter",
    "localConfigDir",
    "extendedHookEvents",
    "hostIntegration",
];

fn envelope_cases(c: &mut Corpus<'_>) {
    let folders: Vec<String> = c.base.keys().cloned().collect();
    for folder in &folders {
        c.del(folder, "id");
        c.set(folder, "role", json!("plugin"));
        c.set(folder, "tier", json!(["full"]));
        c.del(folder, "version");
    }
    c.each(
        "claude",
        "id",
        &[
            json!("Claude"),
            json!("other"),
            json!(5),
            json!(""),
            json!("a_b"),
        ],
    );
    c.each(
        "claude",
        "role",
        &[
            json!(null),
            json!({}),
            json!(["a", "b", null]),
            json!(1.0),
            json!(true),
        ],
    );
    c.del("claude", "role");
    c.each("claude", "title", &[json!(""), json!(7)]);
    c.del("claude", "description");
    c.each(
        "claude",
        "tier",
        &[json!("gold"), json!(1e21), json!(-0.0), json!(0.000_000_15)],
    );
    c.del("claude", "tier");
    c.each(
        "claude",
        "requires",
        &[json!("x"), json!([1, "a", null, {"k": [true]}])],
    );
    c.del("claude", "requires");
    c.each(
        "claude",
        "version",
        &[
            json!("1.0"),
            json!("v1.0.0"),
            json!("01.2.3"),
            json!("1.2.3-01"),
            json!(1.5),
        ],
    );
    c.each(
        "claude",
        "engines",
        &[
            json!("x"),
            json!([]),
            json!({"gsd": "abc"}),
            json!({"gsd": 5}),
            json!({"gsd": "  "}),
        ],
    );
    c.each(
        "claude",
        "compatVersions",
        &[
            json!([]),
            json!({"1.0": ">=1", "1.0.0": "zz", "2": 3, "1.2.3": "*", "0": "x"}),
        ],
    );
    c.each("claude", "integrity", &[json!("sha512-abc"), json!(5)]);
    c.each(
        "claude",
        "provenance",
        &[
            json!(null),
            json!({}),
            json!({"sourceRepo": "", "commit": 5}),
        ],
    );
    for (i, value) in [json!([]), json!(null), json!("capability"), json!(5)]
        .iter()
        .enumerate()
    {
        c.push_value(
            format!("non-object manifest #{i}"),
            "claude",
            value,
            Expect::Same,
        );
    }
}

fn runtime_cases(c: &mut Corpus<'_>) {
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

fn warning_cases(c: &mut Corpus<'_>) {
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

fn reviewer_cases(c: &mut Corpus<'_>) {
    c.each(
        "gemini",
        "reviewer",
        &[json!(null), json!([]), json!("x"), json!({})],
    );
    c.del("gemini", "reviewer");
    c.set("gemini", "runtime", json!({}));
    c.set("gemini", "skills", json!([]));
    c.set("gemini", "taskContentResolver", json!({}));
    c.each(
        "gemini",
        "reviewer.slug",
        &[json!(""), json!("__proto__"), json!("Bad Slug"), json!(5)],
    );
    c.each(
        "gemini",
        "reviewer.flags",
        &[json!("x"), json!([]), json!(["bad", 1, "--a", "--a"])],
    );
    c.each(
        "gemini",
        "reviewer.transport",
        &[json!("grpc"), json!(null)],
    );
    c.each(
        "gemini",
        "reviewer.probe",
        &[json!(null), json!({"kind": "bogus"}), json!({"kind": 1})],
    );
    c.set("gemini", "reviewer.probe.extra", json!(1));
    c.set("gemini", "reviewer.probe.needle", json!("x"));
    c.set("gemini", "reviewer.probe.timeoutMs", json!(100));
    c.set("gemini", "reviewer.probe.hostConfigKey", json!("k"));
    c.set("gemini", "reviewer.probe.path", json!("/p"));
    c.del("gemini", "reviewer.probe.binary");
    c.set("gemini", "reviewer.probe.kind", json!("command-capability"));
    c.set("gemini", "reviewer.probe.kind", json!("http-reachable"));
    c.each(
        "kimi-code",
        "reviewer.probe.timeoutMs",
        &[json!(0), json!(1.5), json!("100")],
    );
    c.del("kimi-code", "reviewer.probe.needle");
    c.each("gemini", "reviewer.invoke", &[json!(null), json!({})]);
    c.set("gemini", "reviewer.invoke.hostConfigKey", json!("k"));
    c.set("gemini", "reviewer.invoke.path", json!("/v1"));
    c.del("gemini", "reviewer.invoke.binary");
    c.each(
        "gemini",
        "reviewer.invoke.args",
        &[json!("x"), json!([1, "a", null])],
    );
    c.each(
        "gemini",
        "reviewer.invoke.promptChannel",
        &[json!("pipe"), json!(0)],
    );
    c.each(
        "gemini",
        "reviewer.invoke.outputChannel",
        &[json!("file-arg"), json!("socket")],
    );
    c.set("gemini", "reviewer.invoke.outputArg", json!("-o"));
    c.del("codex", "reviewer.invoke.outputArg");
    c.del("gemini", "reviewer.invoke.modelArg");
    c.each("gemini", "reviewer.invoke.modelArg", &[json!(""), json!(3)]);
    c.each(
        "gemini",
        "reviewer.invoke.effortChannel",
        &[json!("stdin"), json!(null)],
    );
    c.each(
        "gemini",
        "reviewer.invoke.env",
        &[
            json!([]),
            json!("A=1"),
            json!({"PATH": "/x", "node_options": "--x", "ſhell": 1}),
            json!({"1BAD": "x", "GOOD": 1, "__proto__": "x", "ok_name": "y"}),
        ],
    );
    c.set("ollama", "reviewer.invoke.binary", json!("ollama"));
    c.set("ollama", "reviewer.invoke.env", json!({}));
    c.del("ollama", "reviewer.invoke.hostConfigKey");
    c.set("ollama", "reviewer.invoke.path", json!(""));
    c.set("ollama", "reviewer.invoke.modelDiscovery", json!("guess"));
    c.each(
        "ollama",
        "reviewer.invoke.effortChannel",
        &[json!("argv"), json!(null)],
    );
    c.del("ollama", "reviewer.invoke.effortChannel");
    c.each(
        "gemini",
        "reviewer.timeoutFloorMs",
        &[json!(0), json!(1.5), json!("100"), json!(-1)],
    );
    c.del("gemini", "reviewer.timeoutFloorMs");
    c.set("gemini", "reviewer.emptyOutput", json!("drop"));
    c.each("gemini", "reviewer.reviewsSection", &[json!(""), json!(1)]);
    c.set("gemini", "reviewer.evidenceClass", json!("vibes"));
    c.each(
        "gemini",
        "reviewer.requiresBinaries",
        &[json!("gemini"), json!(["", 1])],
    );
    for key in ["modelConfigKey", "timeoutConfigKey", "effortConfigKey"] {
        c.each("gemini", &format!("reviewer.{key}"), &[json!(""), json!(5)]);
    }
    c.each(
        "gemini",
        "reviewer.defaultEffort",
        &[json!("extreme"), json!("high"), json!(3)],
    );
    c.del("gemini", "reviewer.promptBudgetKey");
    c.set("gemini", "reviewer.promptBudgetKey", json!(""));
    c.del("gemini", "reviewer.handler");
    c.each(
        "gemini",
        "reviewer.handler",
        &[json!("custom"), json!("./handler.js")],
    );
    c.set("claude", "reviewer.slug", json!("Claude!"));
    c.set("claude", "reviewer", json!(null));
}

fn feature_cases(c: &mut Corpus<'_>) {
    c.each("security", "runtimeCompat", &[json!(null), json!([])]);
    c.del("security", "runtimeCompat");
    c.each(
        "security",
        "runtimeCompat.supported",
        &[
            json!([]),
            json!(["*", "claude"]),
            json!(["", 1, "__proto__", "Bad"]),
            json!("claude"),
        ],
    );
    c.each(
        "security",
        "runtimeCompat.unsupported",
        &[json!(["*"]), json!(null)],
    );
    c.each(
        "security",
        "runtimeCompat.notes",
        &[json!("x"), json!({"Bad": "", "*": "ok", "claude": 1})],
    );
    for key in ["skills", "agents"] {
        c.each(
            "security",
            key,
            &[json!("x"), json!([1, "__proto__", "ok"])],
        );
        c.del("security", key);
    }
    c.each("audit", "commands", &[json!("x"), json!([null, 1, {}])]);
    c.set(
        "audit",
        "commands[0]",
        json!({"family": "__proto__", "module": "../x.cjs", "router": "", "subcommands": "x"}),
    );
    c.set("audit", "commands[0].subcommands", json!([1, "", "ok"]));
    c.set("audit", "commands[0].module", json!("x.js"));
    c.mutate("graphify", "commands with an empty id", Expect::Same, |v| {
        set(v, "id", json!(""));
        set(v, "commands[0].router", json!(""));
    });
    c.each("security", "config", &[json!(null), json!([])]);
    c.del("security", "config");
    c.set(
        "security",
        "config",
        json!({"": {"type": "x"}, "a": null, "b": {}, "__proto__": {"type": "boolean"}, "c": [1], "d": {"type": ""}}),
    );
    c.each("security", "hooks", &[json!("x"), json!([null, 1, {}])]);
    for script in [
        "run.sh; rm -rf /",
        "-x.js",
        "../x.js",
        "/abs.js",
        "a/__pycache__/x.js",
        "x.PYC",
        "hooks/a b.js",
        "ok/x.js",
    ] {
        c.set(
            "security",
            "hooks",
            json!([{"event": "PostToolUse", "script": script}]),
        );
    }
    c.set(
        "security",
        "hooks",
        json!([{"event": "", "script": 5, "matcher": ""}]),
    );
    c.set(
        "security",
        "hooks",
        json!([{"event": "E", "script": "h.js", "matcher": "a\u{1}b"}]),
    );
    c.set(
        "security",
        "hooks",
        json!([{"event": "E", "script": "h.js", "matcher": 5}]),
    );
    for key in ["steps", "contributions", "gates"] {
        c.each("security", key, &[json!("x"), json!({})]);
        c.del("security", key);
    }
    let step_values = [
        ("point", json!("discuss:middle")),
        ("point", json!(7)),
        ("ref", json!(null)),
        ("ref", json!({})),
        ("ref", json!([])),
        ("ref", json!({"skill": "a", "agent": "b"})),
        ("ref", json!({"skill": 5})),
        ("ref", json!({"skill": "gsd-x"})),
        ("ref", json!({"skill": "undeclared-skill"})),
        ("ref", json!({"agent": "undeclared-agent"})),
        ("ref", json!({"agent": 1, "command": 2})),
        ("produces", json!("x")),
        ("produces", json!([1, "ok"])),
        ("consumes", json!(null)),
        ("when", json!(5)),
        ("pointFrom", json!(5)),
        ("supportsReviewerLanes", json!("yes")),
        ("fragment", json!(null)),
        ("fragment", json!({})),
        ("fragment", json!({"inline": ""})),
        ("fragment", json!({"inline": 5, "path": 5})),
        ("fragment", json!({"path": "../x.md"})),
        ("fragment", json!({"path": "/etc/passwd"})),
        ("fragment", json!({"path": ""})),
        ("fragment", json!({"path": "a\\..\\b"})),
        ("onError", json!("retry")),
    ];
    for (key, value) in step_values {
        c.set("security", &format!("steps[0].{key}"), value);
    }
    c.del("security", "steps[0].onError");
    c.del("security", "steps[0].produces");
    c.each(
        "security",
        "steps[0]",
        &[json!("step"), json!([]), json!(3)],
    );
    let contribution_values = [
        ("point", json!("nowhere")),
        ("into", json!(5)),
        ("fragment", json!("inline text")),
        ("when", json!(false)),
        ("onError", json!("retry")),
        ("consumes", json!([null])),
    ];
    for (key, value) in contribution_values {
        c.set("security", &format!("contributions[0].{key}"), value);
    }
    c.del("security", "contributions[0].fragment");
    c.del("security", "contributions[0].into");
    let gate_values = [
        ("point", json!(null)),
        ("check", json!(null)),
        ("check", json!({})),
        ("check", json!([])),
        ("check", json!({"query": "a", "predicate": "b"})),
        ("check", json!({"agentVerdict": "x"})),
        ("blocking", json!("yes")),
        ("when", json!(1)),
        ("onError", json!("retry")),
    ];
    for (key, value) in gate_values {
        c.set("security", &format!("gates[0].{key}"), value);
    }
    c.mutate(
        "security",
        "agentVerdict gate that blocks",
        Expect::Same,
        |v| {
            set(v, "gates[0].check", json!({"agentVerdict": "x"}));
            set(v, "gates[0].blocking", json!(true));
        },
    );
    c.del("security", "gates[0].onError");
    c.each(
        "graphify",
        "activationKey",
        &[
            json!(""),
            json!(5),
            json!("__proto__"),
            json!("undeclared.key"),
        ],
    );
    c.mutate(
        "graphify",
        "activationKey length on an array config",
        Expect::Same,
        |v| {
            set(v, "activationKey", json!("length"));
            set(v, "config", json!([]));
        },
    );
    c.each(
        "security",
        "taskContentResolver",
        &[
            json!(null),
            json!([]),
            json!({"trackerPrefix": "Bad", "invoke": null}),
            json!({"trackerPrefix": "jira", "invoke": {"binary": "", "args": [1], "timeoutMs": 0}}),
            json!({"trackerPrefix": "jira", "invoke": {"binary": "j", "args": ["{{id}}"], "timeoutMs": 200_000}}),
            json!({"invoke": {"binary": "j", "args": "x", "timeoutMs": 1.5}}),
        ],
    );
    c.set("security", "reviewer", json!({}));
    // Loop-contract rules (the loader's next step for a valid manifest).
    c.set("security", "contributions[0].into", json!("orchestrator"));
    c.set("security", "steps[0].when", json!("no.such.key"));
    c.set("security", "contributions[0].when", json!("no.such.key"));
    c.set("security", "gates[0].when", json!("no.such.key"));
    for point_from in ["no.such.key", "constructor", "__proto__"] {
        c.set("security", "steps[0].pointFrom", json!(point_from));
    }
    c.mutate(
        "security",
        "pointFrom names a non-enum key",
        Expect::Same,
        |v| {
            set(v, "config.pf", json!({"type": "string"}));
            set(v, "steps[0].pointFrom", json!("pf"));
        },
    );
    c.mutate(
        "security",
        "pointFrom enum lacks the point",
        Expect::Same,
        |v| {
            set(
                v,
                "config.pf",
                json!({"type": "enum", "values": ["ship:post"]}),
            );
            set(v, "steps[0].pointFrom", json!("pf"));
        },
    );
}

/// Deliberate differences: the peer accepts or throws, we report our own code.
fn difference_cases(c: &mut Corpus<'_>) {
    use gsd_core::validate::code;
    for dest in [
        "../escape",
        "/etc",
        "C:\\Users\\x",
        "skills/../../x",
        "a\u{0}b",
    ] {
        c.ours(
            "claude",
            "runtime.artifactLayout.global[0].destSubpath",
            json!(dest),
            code::UNSAFE_DEST_SUBPATH,
        );
    }
    for name in ["../x", "a/b", ".", "C:\\x"] {
        c.ours(
            "claude",
            "runtime.configHome.name",
            json!(name),
            code::UNSAFE_CONFIG_HOME_NAME,
        );
    }
    for parent in ["..", "/root", "a\\b"] {
        c.ours(
            "antigravity",
            "runtime.configHome.parent",
            json!(parent),
            code::UNSAFE_CONFIG_HOME_PARENT,
        );
    }
    for dir in ["..", "../x", ".claude/../../x", ".a\u{7}"] {
        c.ours(
            "claude",
            "runtime.localConfigDir",
            json!(dir),
            code::UNSAFE_LOCAL_CONFIG_DIR,
        );
    }
    for home in [
        json!("../x"),
        json!("/etc"),
        json!(""),
        json!(5),
        json!("C:x"),
    ] {
        c.ours(
            "antigravity",
            "runtime.artifactLayout.global[0].home",
            home,
            code::UNSAFE_LAYOUT_HOME,
        );
    }
    for path in ["C:\\x.md", "\\\\server\\x.md", "a\u{0}b.md", "frag\n.md"] {
        c.ours(
            "security",
            "steps[0].fragment",
            json!({"path": path}),
            code::UNSAFE_FRAGMENT_PATH,
        );
    }
    for key in ["steps", "contributions", "gates"] {
        let name = format!("{key}: [null]");
        c.mutate(
            "security",
            &name,
            Expect::PeerThrows(code::NULL_ELEMENT),
            |v| set(v, key, json!([null])),
        );
    }
    c.mutate(
        "drift",
        "gates: [ok, null]",
        Expect::PeerThrows(code::NULL_ELEMENT),
        |v| {
            let first = v["gates"][0].clone();
            set(v, "gates", json!([first, null, {"point": "bogus"}]));
        },
    );
}

fn messages(ds: &[Diagnostic]) -> Vec<String> {
    ds.iter().map(|d| d.message.clone()).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_owned())
        .collect()
}

/// Our warning as the peer's record shape.
fn as_record(d: &Diagnostic) -> Value {
    let mut rec = Map::new();
    rec.insert("code".into(), json!(d.code));
    rec.insert("capId".into(), json!(d.capability_id));
    rec.insert("field".into(), json!(d.field));
    rec.insert("message".into(), json!(d.message));
    if let Some(Value::Object(detail)) = &d.detail {
        for (k, v) in detail {
            rec.insert(k.clone(), v.clone());
        }
    }
    Value::Object(rec)
}

/// Peer record with keys sorted (field order is not part of the contract).
fn sorted(v: &Value) -> Value {
    let mut entries: Vec<(String, Value)> =
        v.as_object().expect("record").clone().into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Object(entries.into_iter().collect())
}

#[test]
fn validation_matches_the_peer_on_a_mutation_corpus() {
    let base = shipped();
    let mut corpus = Corpus {
        base: &base,
        cases: Vec::new(),
    };
    for (folder, value) in &base {
        corpus.push_value(format!("{folder}: shipped"), folder, value, Expect::Same);
    }
    envelope_cases(&mut corpus);
    runtime_cases(&mut corpus);
    warning_cases(&mut corpus);
    reviewer_cases(&mut corpus);
    feature_cases(&mut corpus);
    difference_cases(&mut corpus);
    let cases = corpus.cases;

    let input = json!({"cases": cases.iter().map(|c| json!({"folder": c.folder, "text": c.text})).collect::<Vec<_>>()});
    let output = util::peer_eval("validate.cjs", &input);
    let results = output["results"].as_array().expect("results");
    assert_eq!(results.len(), cases.len());

    let mut compared = 0usize;
    let mut messages_compared = 0usize;
    let mut differences = 0usize;
    let mut failures = Vec::new();
    for (case, peer) in cases.iter().zip(results) {
        let manifest = parse_manifest(&case.text).expect("corpus manifest parses");
        let ours = validate_capability(&manifest, &case.folder);
        assert!(
            ours.iter().all(|d| !d.code.is_empty() && d.field.is_some()),
            "{}: every error has a code and field",
            case.name
        );
        match case.expect {
            Expect::Same => {
                let Some(peer_errors) = peer["errors"].as_array().map(|_| strings(&peer["errors"]))
                else {
                    failures.push(format!("{}: the peer threw {}", case.name, peer["threw"]));
                    continue;
                };
                messages_compared += peer_errors.len();
                if messages(&ours) != peer_errors {
                    failures.push(format!(
                        "{}:\n  ours: {:#?}\n  peer: {:#?}",
                        case.name,
                        messages(&ours),
                        peer_errors
                    ));
                }
                if peer_errors.is_empty() {
                    let check = check_capability(&manifest, &case.folder, Origin::FirstParty);
                    let peer_contract = strings(&peer["contract"]);
                    if messages(&check.errors) != peer_contract {
                        failures.push(format!(
                            "{} (contract):\n  ours: {:#?}\n  peer: {:#?}",
                            case.name,
                            messages(&check.errors),
                            peer_contract
                        ));
                    }
                }
                compared += 1;
            }
            Expect::OursAdds(code) => {
                let peer_errors = strings(&peer["errors"]);
                let (extra, rest): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
                    ours.iter().partition(|d| d.code == code);
                let rest: Vec<String> = rest.iter().map(|d| d.message.clone()).collect();
                if extra.is_empty() || rest != peer_errors {
                    failures.push(format!(
                        "{} (ours adds {code}):\n  ours: {:#?}\n  peer: {:#?}",
                        case.name,
                        messages(&ours),
                        peer_errors
                    ));
                }
                differences += 1;
            }
            Expect::PeerThrows(code) => {
                if peer["threw"].is_null() || !ours.iter().any(|d| d.code == code) {
                    failures.push(format!(
                        "{} (peer throws, ours {code}): peer {peer}, ours {:#?}",
                        case.name,
                        messages(&ours)
                    ));
                }
                differences += 1;
            }
        }
        let our_records: Vec<Value> = warning_records(&manifest)
            .iter()
            .map(|d| sorted(&as_record(d)))
            .collect();
        let peer_records: Vec<Value> = peer["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .map(sorted)
            .collect();
        if our_records != peer_records {
            failures.push(format!(
                "{} (warnings):\n  ours: {our_records:#?}\n  peer: {peer_records:#?}",
                case.name
            ));
        }
    }
    println!(
        "compared {compared} cases with the peer ({messages_compared} error messages, plus warnings), \
         {differences} deliberate differences"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(compared >= 250, "corpus too small: {compared}");
    assert!(
        messages_compared >= 1000,
        "corpus produces too few errors: {messages_compared}"
    );
}

#[test]
fn shipped_manifests_validate_clean_like_the_peer() {
    let base = shipped();
    let cases: Vec<Value> = base
        .iter()
        .map(|(f, v)| json!({"folder": f, "text": serde_json::to_string(v).expect("text")}))
        .collect();
    let output = util::peer_eval("validate.cjs", &json!({"cases": cases}));
    for ((folder, value), peer) in base
        .iter()
        .zip(output["results"].as_array().expect("results"))
    {
        assert_eq!(peer["errors"], json!([]), "{folder}: peer errors");
        assert_eq!(peer["warnings"], json!([]), "{folder}: peer warnings");
        let check = check_capability(value, folder, Origin::FirstParty);
        assert_eq!(check, Default::default(), "{folder}: ours");
    }
}

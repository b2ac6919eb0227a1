//! Reviewer-body and feature-body mutations.

use serde_json::json;

use super::{Corpus, Expect, set};

#[allow(clippy::too_many_lines)] // Reason: a data table of mutations, one line per case.
pub fn reviewer_cases(c: &mut Corpus<'_>) {
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

#[allow(clippy::too_many_lines)] // Reason: a data table of mutations, one line per case.
pub fn feature_cases(c: &mut Corpus<'_>) {
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

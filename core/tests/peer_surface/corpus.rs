//! The fabricated inputs of the surface parity tests: manifest texts, machines (host facts
//! plus what is found at each config home), sanitizer strings and hand-built reports.

use gsd_core::install_manifest::MAX_MANIFEST_DEPTH;
use gsd_core::shadow::{DEFAULT_SAMPLE_LIMIT, ShadowSide, ShadowedTrigger};
use gsd_core::vocab::{ArtifactKindName, TriggerKind};
use gsd_core::{
    ConfigHomeFacts, Host, ManifestMismatch, Registry, Scope, ShadowReason, ShadowReport,
    SurfaceFacts, compose_command_filename, is_namespaced_by_dir, probe_requests,
};
use serde_json::{Value, json};

/// Key order of every object, depth first (the same walk as `keyOrder` in the script).
pub fn key_order(value: &Value, at: &str, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                key_order(v, &format!("{at}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            out.push(json!([at, map.keys().collect::<Vec<_>>()]));
            for (k, v) in map {
                key_order(v, &format!("{at}.{k}"), out);
            }
        }
        _ => {}
    }
}

pub fn manifest_texts() -> Vec<Option<String>> {
    let v2 = r#"{
  "manifestVersion": 2,
  "version": "1.14.0",
  "timestamp": "2026-01-01T00:00:00.000Z",
  "mode": "full",
  "runtime": "claude",
  "scope": "global",
  "files": {
    "gsd-core/workflows/help.md": "ab12",
    "skills/gsd-help/SKILL.md": "cd34"
  }
}"#;
    let mut texts: Vec<String> = vec![
        v2.to_owned(),
        r#"{"version":"1.0.0","timestamp":"t","mode":"minimal","files":{"commands/gsd-help.md":"x"}}"#.into(),
        "null".into(),
        "[]".into(),
        "[{\"manifestVersion\":2}]".into(),
        "\"manifest\"".into(),
        "42".into(),
        "true".into(),
        String::new(),
        "   \n".into(),
        "{".into(),
        v2[..v2.len() / 2].to_owned(),
        format!("\u{feff}{v2}"),
        r#"{"version":"1",}"#.into(),
        "{'version':'1'}".into(),
        "{\"manifestVersion\": NaN}".into(),
        "// note\n{}".into(),
        r#"{"a":1} {"b":2}"#.into(),
        "{}".into(),
        r#"{"version":1,"timestamp":{"a":1},"mode":["full"],"files":"x"}"#.into(),
        r#"{"files":[1,"a",null]}"#.into(),
        r#"{"files":null}"#.into(),
        r#"{"files":0}"#.into(),
        r#"{"files":true}"#.into(),
        r#"{"files":{"b":1,"10":2,"a":3,"2":4,"b":5,"01":6,"4294967295":7,"4294967294":8}}"#.into(),
        r#"{"files":{"x":{"deep":[1,{"y":[2.5,-0,1e400,1e21,123456789012345678901234]}]}}}"#.into(),
        r#"{"__proto__":{"runtime":"x","manifestVersion":2},"files":{"__proto__":"h"}}"#.into(),
        r#"{"runtime":"a","runtime":"claude","scope":"local","scope":"global"}"#.into(),
        r#"{"runtime":"cl\u0000aude\u001b[31m","scope":"Global"}"#.into(),
        r#"{"runtime":"\ud800x","version":"\udc00\ud83d\ude00"}"#.into(),
        format!("{{\"runtime\":\"{}\"}}", "r".repeat(64)),
        format!("{{\"runtime\":\"{}\"}}", "r".repeat(65)),
        format!("{{\"runtime\":\"{}\"}}", "r".repeat(500)),
        format!("{{\"runtime\":\"{}\u{1F600}tail\"}}", "r".repeat(63)),
        format!("{{\"runtime\":\"{}\"}}", "\u{1F600}".repeat(40)),
        r#"{"runtime":"   "}"#.into(),
        r#"{"runtime":"\t\n\r"}"#.into(),
        "{\"runtime\":\"\u{a0}\u{3000}\u{feff}\"}".into(),
        "{\"runtime\":\"\u{85}\"}".into(),
        "{\"runtime\":\"\u{200b}\"}".into(),
        r#"{"runtime":5,"scope":1}"#.into(),
        r#"{"runtime":null,"scope":null}"#.into(),
        r#"{"scope":" local"}"#.into(),
        r#"{"scope":"project"}"#.into(),
        format!("{}{}", "[".repeat(MAX_MANIFEST_DEPTH), "]".repeat(MAX_MANIFEST_DEPTH)),
        format!("{{\"files\":{}{}}}", "[".repeat(MAX_MANIFEST_DEPTH - 1), "]".repeat(MAX_MANIFEST_DEPTH - 1)),
    ];
    for version in [
        "2",
        "\"2\"",
        "2.5",
        "0",
        "-5",
        "1e400",
        "1e300",
        "true",
        "null",
        "[2]",
        "{}",
        "3",
        "2.0",
        "1E0",
        "9007199254740993",
        "18446744073709551615",
        "1e21",
        "-0",
        "0.9999999999999999999",
    ] {
        texts.push(format!("{{\"manifestVersion\":{version},\"files\":{{}}}}"));
    }
    // Large but under the bound: about 2 MiB of file entries.
    let files: Vec<String> = (0..20_000)
        .map(|i| format!("\"gsd-core/f{i:05}.md\":\"{i:064x}\""))
        .collect();
    texts.push(format!(
        "{{\"manifestVersion\":2,\"runtime\":\"codex\",\"files\":{{{}}}}}",
        files.join(",")
    ));
    let mut all: Vec<Option<String>> = texts.into_iter().map(Some).collect();
    all.push(None);
    all
}

/// Manifest file keys for `stems` at one scope of a runtime, from its own layout.
pub fn files_for(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    stems: &[&str],
) -> serde_json::Map<String, Value> {
    let mut files = serde_json::Map::new();
    files.insert("gsd-core/workflows/help.md".into(), json!("00"));
    let Some(descriptor) = registry.runtime(runtime) else {
        return files;
    };
    for entry in descriptor.artifact_layout.entries(scope) {
        let dest = &entry.dest_subpath;
        for stem in stems {
            let key = match entry.kind {
                ArtifactKindName::Skills => format!("{dest}/{}{stem}/SKILL.md", entry.prefix),
                ArtifactKindName::Commands => {
                    let ns = is_namespaced_by_dir(entry.kind, dest, &entry.prefix);
                    format!(
                        "{dest}/{}",
                        compose_command_filename(ns, &entry.prefix, stem)
                    )
                }
                _ => format!("{dest}/{}{stem}.md", entry.prefix),
            };
            files.insert(key, json!("11"));
        }
        // Keys the stem rules must ignore or fold.
        files.insert(format!("{dest}/{}../escape", entry.prefix), json!("22"));
        files.insert(format!("{dest}/{}Bad/SKILL.md", entry.prefix), json!("22"));
        files.insert(
            format!("{dest}/{}ns-x/skills/plan/SKILL.md", entry.prefix),
            json!("22"),
        );
        files.insert(
            format!("{dest}/{}evil\u{1b}[31m.md", entry.prefix),
            json!("22"),
        );
        for junk in [
            "bAd/SKILL.md",
            "a_b/SKILL.md",
            "x y/SKILL.md",
            "bAd.md",
            "ok.md/extra",
            ".md",
            "help.txt",
            "-lead.md",
            "9lives.md",
        ] {
            files.insert(format!("{dest}/{}{junk}", entry.prefix), json!("33"));
        }
        files.insert(
            format!("{}\\{}win.md", dest.replace('/', "\\"), entry.prefix),
            json!("33"),
        );
        files.insert(
            format!("{dest}/{}win-dir\\SKILL.md", entry.prefix),
            json!("33"),
        );
        files.insert(format!("{dest}/plain.md"), json!("33"));
    }
    files
}

#[allow(clippy::needless_pass_by_value)] // Reason: callers build the map inline.
pub fn manifest(runtime: &str, scope: &str, files: serde_json::Map<String, Value>) -> String {
    serde_json::to_string_pretty(&json!({
        "manifestVersion": 2, "version": "1.14.0", "timestamp": "2026-01-01T00:00:00.000Z",
        "mode": "full", "runtime": runtime, "scope": scope, "files": files,
    }))
    .expect("manifest")
}

pub struct Machine {
    pub label: String,
    pub runtime: Option<String>,
    pub host: Host,
    pub facts: SurfaceFacts,
}

impl Machine {
    pub fn request(&self) -> Value {
        json!({
            "runtime": self.runtime, "home": self.host.home, "cwd": self.host.cwd, "env": self.host.env,
            "existing": self.host.existing_paths, "homes": self.facts.homes,
            "sampleLimits": [0, 1, DEFAULT_SAMPLE_LIMIT, 100],
        })
    }
}

pub const FULL: &[&str] = &[
    "help",
    "plan-phase",
    "0day",
    "a-b-c",
    "z",
    "execute",
    "verify",
];

/// Every runtime at global only, local only, both, neither; plus mismatches, symlinks and
/// partial installs.
#[allow(clippy::too_many_lines)] // Reason: one corpus table, read top to bottom.
pub fn machines(registry: &Registry) -> Vec<Machine> {
    let base = Host::new("/home/u", "/work/proj");
    let mut out = Vec::new();
    let ids: Vec<String> = registry
        .runtime_ids()
        .map(str::to_owned)
        .chain(["nope".to_owned(), "__proto__".to_owned()])
        .collect();
    for id in &ids {
        let homes = probe_requests(registry, Some(id), &base).unwrap_or_default();
        let home_of = |i: usize| homes.get(i).map(|p| p.config_home.clone());
        let (global, local) = (home_of(0), home_of(1).or_else(|| home_of(0)));
        let text = |scope: Scope, stems: &[&str], declared_runtime: &str, declared_scope: &str| {
            ConfigHomeFacts {
                manifest: Some(manifest(
                    declared_runtime,
                    declared_scope,
                    files_for(registry, id, scope, stems),
                )),
                ..ConfigHomeFacts::default()
            }
        };
        let mut add = |label: &str, entries: Vec<(Option<String>, ConfigHomeFacts)>| {
            let mut facts = SurfaceFacts::default();
            for (home, fact) in entries {
                if let Some(home) = home {
                    facts.homes.insert(home, fact);
                }
            }
            out.push(Machine {
                label: format!("{id}: {label}"),
                runtime: Some(id.clone()),
                host: base.clone(),
                facts,
            });
        };
        add("nothing installed", vec![]);
        add(
            "global only",
            vec![(global.clone(), text(Scope::Global, FULL, id, "global"))],
        );
        add(
            "local only",
            vec![(local.clone(), text(Scope::Local, FULL, id, "local"))],
        );
        add(
            "both scopes",
            vec![
                (global.clone(), text(Scope::Global, FULL, id, "global")),
                (local.clone(), text(Scope::Local, FULL, id, "local")),
            ],
        );
        add(
            "global full, local subset",
            vec![
                (global.clone(), text(Scope::Global, FULL, id, "global")),
                (local.clone(), text(Scope::Local, &["help"], id, "local")),
            ],
        );
        add(
            "declared runtime and scope mismatched",
            vec![
                (
                    global.clone(),
                    text(Scope::Global, FULL, "\u{1b}[31mother\u{202e}\n", "local"),
                ),
                (local.clone(), text(Scope::Local, FULL, id, "global")),
            ],
        );
        add(
            "symlinked manifest at global, symlinked home at local",
            vec![
                (
                    global.clone(),
                    ConfigHomeFacts {
                        manifest_is_symlink: true,
                        ..text(Scope::Global, FULL, id, "global")
                    },
                ),
                (
                    local.clone(),
                    ConfigHomeFacts {
                        config_home_is_symlink: true,
                        ..text(Scope::Local, FULL, id, "local")
                    },
                ),
            ],
        );
        add(
            "v1 manifests with array files at local",
            vec![
                (global.clone(), ConfigHomeFacts { manifest: Some(r#"{"version":"1.0.0","files":{"skills/gsd-help/SKILL.md":"a","commands/gsd-help.md":"b"}}"#.into()), ..ConfigHomeFacts::default() }),
                (local.clone(), ConfigHomeFacts { manifest: Some(r#"{"files":["skills/gsd-help/SKILL.md"]}"#.into()), ..ConfigHomeFacts::default() }),
            ],
        );
        add(
            "corrupt manifest at global",
            vec![(
                global.clone(),
                ConfigHomeFacts {
                    manifest: Some("{\"files\":{".into()),
                    ..ConfigHomeFacts::default()
                },
            )],
        );
    }
    // Home equals cwd: both scopes share one config home (deduplicated before triggers).
    let same = Host::new("/home/u", "/home/u");
    for id in ["claude", "codebuddy", "opencode"] {
        let mut facts = SurfaceFacts::default();
        facts.homes.insert(
            format!("/home/u/.{id}"),
            ConfigHomeFacts {
                manifest: Some(manifest(
                    id,
                    "global",
                    files_for(registry, id, Scope::Global, FULL),
                )),
                ..ConfigHomeFacts::default()
            },
        );
        out.push(Machine {
            label: format!("{id}: home is cwd"),
            runtime: Some(id.into()),
            host: same.clone(),
            facts,
        });
    }
    // Environment overrides and probes decide the config homes.
    let mut env_host = base.clone();
    env_host
        .env
        .insert("CLAUDE_CONFIG_DIR".into(), "/custom/claude".into());
    env_host.env.insert("XDG_CONFIG_HOME".into(), "/xdg".into());
    env_host
        .existing_paths
        .insert("/home/u/.gemini/antigravity-ide".into());
    env_host
        .existing_paths
        .insert("/home/u/.agents/skills".into());
    // Config homes the install-plan confinement would refuse, relative ones, tilde forms.
    for (var, value, id) in [
        ("CLAUDE_CONFIG_DIR", "/", "claude"),
        ("CODEX_HOME", "rel/codex", "codex"),
        ("CLAUDE_CONFIG_DIR", "~/x/../y", "claude"),
        ("OPENCODE_CONFIG_DIR", "/a//b/./c/", "opencode"),
    ] {
        let mut odd = base.clone();
        odd.env.insert(var.into(), value.into());
        let mut facts = SurfaceFacts::default();
        for (i, probe) in probe_requests(registry, Some(id), &odd)
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            let scope = if i == 0 { Scope::Global } else { Scope::Local };
            facts.homes.insert(
                probe.config_home,
                ConfigHomeFacts {
                    manifest: Some(manifest(
                        id,
                        scope.as_str(),
                        files_for(registry, id, scope, FULL),
                    )),
                    ..ConfigHomeFacts::default()
                },
            );
        }
        out.push(Machine {
            label: format!("{id}: {var}={value}"),
            runtime: Some(id.into()),
            host: odd,
            facts,
        });
    }
    for id in ["claude", "opencode", "kilo", "antigravity", "kimi"] {
        let mut facts = SurfaceFacts::default();
        for probe in probe_requests(registry, Some(id), &env_host).unwrap_or_default() {
            facts.homes.insert(
                probe.config_home,
                ConfigHomeFacts {
                    manifest: Some(manifest(
                        id,
                        "global",
                        files_for(registry, id, Scope::Global, FULL),
                    )),
                    ..ConfigHomeFacts::default()
                },
            );
        }
        out.push(Machine {
            label: format!("{id}: env and probes"),
            runtime: Some(id.into()),
            host: env_host.clone(),
            facts,
        });
    }
    // The all-runtimes sweep over one machine where every config home has a manifest.
    let mut sweep = SurfaceFacts::default();
    for probe in probe_requests(registry, None, &base).expect("sweep probes") {
        let runtime = registry
            .runtime_ids()
            .find(|id| probe.config_home.ends_with(&format!(".{id}")))
            .unwrap_or("claude");
        sweep.homes.insert(
            probe.config_home,
            ConfigHomeFacts {
                manifest: Some(manifest(
                    runtime,
                    "local",
                    files_for(registry, runtime, Scope::Local, &["help", "plan"]),
                )),
                ..ConfigHomeFacts::default()
            },
        );
    }
    out.push(Machine {
        label: "sweep".into(),
        runtime: None,
        host: base,
        facts: sweep,
    });
    out
}

pub fn tricky_strings() -> Vec<String> {
    let mut out: Vec<String> = [
        "claude",
        "",
        "   ",
        "bad\u{1b}Z",
        "\u{1b}[31mred\u{1b}[0m",
        "\u{1b}[1;2;3 qX",
        "\u{1b}[",
        "\u{1b}[12",
        "\u{1b}[?25h",
        "\u{1b}]0;title\u{7}after",
        "\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\",
        "\u{1b}]unterminated",
        "\u{1b}]x\u{1b}y",
        "\u{1b}[\u{1b}[31mz",
        "a\u{0}b\u{1f}c\u{7f}d\u{80}e\u{9f}f",
        "a\u{85}b",
        "r\u{202e}tl\u{202a}x\u{2066}y\u{2069}",
        "z\u{300}\u{301}\u{36f}a\u{370}",
        "zw\u{200b}\u{200c}\u{200d}\u{feff}j",
        "\u{2060}wj",
        "a\u{a0}\u{a0}\u{a0}b",
        "  lead and trail  ",
        "a\n\n\tb\r\nc",
        "a\u{2028}b\u{2029}c",
        "\u{3000}x\u{1680}y\u{2000}\u{200a}z\u{202f}\u{205f}",
        "a \u{200b} b",
        "\u{200b} a",
        "x\u{1b}[31m \u{1b}[0m y",
        "emoji \u{1F600}\u{FE0F}",
        "\u{1b}\u{1b}[m",
        "\u{9b}31m",
        "a\u{180e}b",
        "\u{2067}\u{202c}",
        "\u{1b}[31;",
        "\u{1b}]\u{7}",
    ]
    .map(str::to_owned)
    .to_vec();
    out.push(format!("{}x", "\u{301}".repeat(100)));
    out
}

pub fn hand_built_reports() -> Vec<(ShadowReport, Option<usize>)> {
    let trigger = |t: &str, wk, ws, sk, ss| ShadowedTrigger {
        trigger: t.into(),
        winner_kind: wk,
        winner_scope: ws,
        shadowed_kind: sk,
        shadowed_scope: ss,
    };
    let one = vec![trigger(
        "gsd-help",
        TriggerKind::Skills,
        Scope::Global,
        TriggerKind::Commands,
        Scope::Local,
    )];
    let many: Vec<ShadowedTrigger> = (0..8)
        .map(|i| {
            trigger(
                &format!("gsd-s{i}"),
                TriggerKind::Skills,
                Scope::Global,
                TriggerKind::Skills,
                Scope::Local,
            )
        })
        .collect();
    let mismatch = |rt: Option<&str>, rm, sc, sm| ManifestMismatch {
        scope: Scope::Local,
        declared_runtime: rt.map(str::to_owned),
        declared_runtime_matches_probe: rm,
        declared_scope: sc,
        declared_scope_matches_probe: sm,
    };
    let report = |triggers: Vec<ShadowedTrigger>, kinds_differ, mismatches| ShadowReport {
        runtime: "claude".into(),
        reason: ShadowReason::ScopeShadowed,
        shadowed: true,
        winner: triggers.first().map(|t| ShadowSide {
            kind: t.winner_kind,
            scope: t.winner_scope,
        }),
        shadowed_side: triggers.first().map(|t| ShadowSide {
            kind: t.shadowed_kind,
            scope: t.shadowed_scope,
        }),
        kinds_differ,
        triggers,
        mismatches,
    };
    let raw_mismatches = vec![
        mismatch(
            Some("\u{1b}[31mcodex\u{202e}\n x"),
            Some(false),
            Some(Scope::Global),
            Some(false),
        ),
        mismatch(None, Some(false), None, Some(false)),
        mismatch(Some("ok"), Some(true), Some(Scope::Local), Some(true)),
    ];
    let mut not_shadowed = report(one.clone(), true, raw_mismatches.clone());
    not_shadowed.reason = ShadowReason::NotShadowed;
    let mut no_winner = report(one.clone(), true, vec![]);
    no_winner.winner = None;
    vec![
        (report(one.clone(), true, vec![]), None),
        (report(one.clone(), false, raw_mismatches.clone()), Some(1)),
        (report(many.clone(), false, vec![]), None),
        (report(many.clone(), true, raw_mismatches), Some(0)),
        (report(many, false, vec![]), Some(8)),
        (not_shadowed, None),
        (no_winner, None),
    ]
}

/// A third-party runtime: claude's descriptor renamed `acme`, prefix `acme-`, commands
/// before skills in its trigger precedence, and its own config directory.
pub fn acme_registry() -> Registry {
    let mut cap: Value =
        serde_json::from_str(include_str!("../../../capabilities/claude/capability.json"))
            .expect("claude");
    let Some(object) = cap.as_object_mut() else {
        return Registry::first_party().clone();
    };
    object.remove("reviewer");
    object.remove("config");
    cap["id"] = json!("acme");
    cap["runtime"]["configHome"] =
        json!({ "kind": "dot-home", "name": ".acme", "env": ["ACME_DIR"] });
    cap["runtime"]["localConfigDir"] = json!(".acme");
    cap["runtime"]["triggerPrecedence"] = json!(["commands", "skills"]);
    for scope in ["global", "local"] {
        if let Some(entries) = cap["runtime"]["artifactLayout"][scope].as_array_mut() {
            for entry in entries {
                entry["prefix"] = json!("acme-");
            }
        }
    }
    let overlay = gsd_core::Overlay {
        folder: "acme".into(),
        manifest: cap.to_string(),
        fragments: Vec::new(),
    };
    Registry::first_party().with_overlays(&[overlay])
}

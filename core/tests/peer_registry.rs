//! Parity with the peer's capability registry (`capability-registry.cjs`), its
//! cross-capability validator and its install profiles. One batched `node` call answers
//! every question; each test compares one part and prints how many values it compared.
//!
//! Our capability texts (descriptions, fragment bodies) are written independently of the
//! peer's, so prose is masked on both sides: structure, values and key order must match.

// Reason: the mutation table's one-line closures read best without trailing semicolons.
#![allow(clippy::semicolon_if_nothing_returned)]
// Reason: the peer lists command files by the exact, case-sensitive `.md` suffix.
#![allow(clippy::case_sensitive_file_extension_comparisons)]

mod util;

use std::path::Path;
use std::sync::OnceLock;

use gsd_core::Registry;
use gsd_core::cross::{Member, validate_cross, validate_data_flow};
use gsd_core::doc::{JsonDoc, JsonRef};
use gsd_core::index::order_hooks;
use gsd_core::profile::{
    CommandSource, ProfileSkills, ProfileSources, SkillsManifest, WorkflowSource,
    most_restrictive_profile, resolve_profile,
};
use gsd_core::vocab::LoopPoint;
use serde_json::{Value, json};

const PROSE: &str = "<prose>";

/// Replaces every `description` string and every `fragment.inline` string.
fn mask(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "description" && v.is_string() {
                    *v = Value::String(PROSE.into());
                } else if key == "fragment" {
                    if let Some(inline @ Value::String(_)) = v.get_mut("inline") {
                        *inline = Value::String(PROSE.into());
                    }
                    mask(v);
                } else {
                    mask(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask),
        _ => {}
    }
}

fn base_caps() -> Vec<Value> {
    let json = Registry::first_party().to_peer_json();
    json["capabilities"]
        .as_object()
        .map(|m| m.values().cloned().collect())
        .unwrap_or_default()
}

fn cap<'a>(caps: &'a mut [Value], id: &str) -> &'a mut Value {
    caps.iter_mut()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no capability {id}"))
}

fn push(caps: &mut [Value], id: &str, key: &str, item: Value) {
    let c = cap(caps, id);
    if !c.get(key).is_some_and(Value::is_array) {
        c[key] = json!([]);
    }
    c[key].as_array_mut().expect("array").push(item);
}

fn set(caps: &mut [Value], id: &str, pointer: &str, value: Value) {
    let c = cap(caps, id);
    let mut target = c;
    let parts: Vec<&str> = pointer.split('.').collect();
    for part in &parts[..parts.len() - 1] {
        if !target.get(*part).is_some_and(Value::is_object) {
            target[*part] = json!({});
        }
        target = &mut target[*part];
    }
    target[parts[parts.len() - 1]] = value;
}

type Mutation = (&'static str, fn(&mut Vec<Value>), &'static [&'static str]);

#[allow(clippy::too_many_lines)] // Reason: a flat table of cases reads best in one place.
fn cross_cases() -> Vec<Mutation> {
    vec![
        ("unchanged", |_| {}, &[]),
        (
            "skill owned twice",
            |c| push(c, "audit", "skills", json!("ai-integration-phase")),
            &[],
        ),
        (
            "skill owned three times",
            |c| {
                push(c, "tdd", "skills", json!("graphify"));
                push(c, "drift", "skills", json!("graphify"));
            },
            &[],
        ),
        (
            "skill twice in reversed map order",
            |c| {
                c.reverse();
                push(c, "ui", "skills", json!("code-review"));
            },
            &[],
        ),
        (
            "agent owned twice",
            |c| push(c, "pattern-mapper", "agents", json!("gsd-phase-researcher")),
            &[],
        ),
        (
            "agent owned by three",
            |c| {
                push(c, "security", "agents", json!("gsd-ui-checker"));
                push(c, "tdd", "agents", json!("gsd-ui-checker"));
            },
            &[],
        ),
        (
            "command family twice",
            |c| {
                push(
                    c,
                    "tdd",
                    "commands",
                    json!({"family": "intel", "module": "m", "router": "r"}),
                )
            },
            &[],
        ),
        (
            "reserved command family ignored",
            |c| {
                push(
                    c,
                    "tdd",
                    "commands",
                    json!({"family": "__proto__", "module": "m", "router": "r"}),
                );
                push(
                    c,
                    "ui",
                    "commands",
                    json!({"family": "__proto__", "module": "m", "router": "r"}),
                );
            },
            &[],
        ),
        (
            "command family on a runtime is not owned",
            |c| push(c, "claude", "commands", json!({"family": "graphify"})),
            &[],
        ),
        (
            "config key twice",
            |c| {
                cap(c, "tdd")["config"]["workflow.research"] =
                    json!({"type": "boolean", "default": true});
            },
            &[],
        ),
        (
            "config key twice across roles",
            |c| {
                let slice = c
                    .iter()
                    .find(|x| x["id"] == "claude")
                    .map(|x| x["config"]["review.models.claude"].clone());
                let codex = cap(c, "codex");
                codex["config"]["review.models.claude"] = slice.unwrap_or(Value::Null);
            },
            &[],
        ),
        (
            "config key in the central schema",
            |_| {},
            &[
                "workflow.research",
                "mempalace.wing",
                "not.a.capability.key",
            ],
        ),
        (
            "reviewer slug twice",
            |c| set(c, "ollama", "reviewer.slug", json!("gemini")),
            &[],
        ),
        (
            "reviewer flag twice",
            |c| {
                if let Some(flags) = cap(c, "codex")["reviewer"]["flags"].as_array_mut() {
                    flags.push(json!("--claude"));
                }
            },
            &[],
        ),
        (
            "reviewer section twice",
            |c| set(c, "lm-studio", "reviewer.reviewsSection", json!("Ollama")),
            &[],
        ),
        (
            "reviewer slug three ways",
            |c| {
                for id in ["ollama", "coderabbit", "gemini"] {
                    set(c, id, "reviewer.slug", json!("same"));
                }
            },
            &[],
        ),
        (
            "tracker prefix twice",
            |c| {
                set(
                    c,
                    "tdd",
                    "taskContentResolver",
                    json!({"trackerPrefix": "JIRA"}),
                );
                set(
                    c,
                    "drift",
                    "taskContentResolver",
                    json!({"trackerPrefix": "JIRA"}),
                );
            },
            &[],
        ),
        (
            "tracker prefix on runtimes",
            |c| {
                set(
                    c,
                    "codex",
                    "taskContentResolver",
                    json!({"trackerPrefix": "GH"}),
                );
                set(
                    c,
                    "claude",
                    "taskContentResolver",
                    json!({"trackerPrefix": "GH"}),
                );
                set(c, "claude", "reviewer.slug", json!("GH"));
            },
            &[],
        ),
        (
            "reserved lane keys ignored",
            |c| {
                set(c, "ollama", "reviewer.slug", json!("__proto__"));
                set(c, "gemini", "reviewer.slug", json!("__proto__"));
                set(c, "gemini", "reviewer.reviewsSection", json!(""));
                set(c, "ollama", "reviewer.reviewsSection", json!(""));
            },
            &[],
        ),
        (
            "unknown requires",
            |c| set(c, "research", "requires", json!(["nope"])),
            &[],
        ),
        (
            "several unknown requires",
            |c| {
                set(c, "claude", "requires", json!(["x", "y"]));
                set(c, "ui", "requires", json!(["research", "zzz"]));
            },
            &[],
        ),
        (
            "runtimeCompat.supported unknown",
            |c| {
                set(
                    c,
                    "tdd",
                    "runtimeCompat.supported",
                    json!(["claude", "nonesuch", "*", ""]),
                )
            },
            &[],
        ),
        (
            "runtimeCompat.unsupported names a reviewer",
            |c| set(c, "ui", "runtimeCompat.unsupported", json!(["gemini"])),
            &[],
        ),
        (
            "runtimeCompat.notes unknown",
            |c| {
                set(
                    c,
                    "drift",
                    "runtimeCompat.notes",
                    json!({"foo": "x", "*": "y", "codex": "z"}),
                )
            },
            &[],
        ),
        (
            "requires two-cycle with tier violation",
            |c| set(c, "research", "requires", json!(["pattern-mapper"])),
            &[],
        ),
        (
            "requires three-cycle",
            |c| {
                set(c, "tdd", "requires", json!(["drift"]));
                set(c, "drift", "requires", json!(["ui"]));
                set(c, "ui", "requires", json!(["tdd"]));
            },
            &[],
        ),
        (
            "requires three-cycle in reversed order",
            |c| {
                c.reverse();
                set(c, "tdd", "requires", json!(["drift"]));
                set(c, "drift", "requires", json!(["ui"]));
                set(c, "ui", "requires", json!(["tdd"]));
            },
            &[],
        ),
        (
            "requires self",
            |c| set(c, "tdd", "requires", json!(["tdd"])),
            &[],
        ),
        (
            "two separate cycles",
            |c| {
                set(c, "tdd", "requires", json!(["drift"]));
                set(c, "drift", "requires", json!(["tdd"]));
                set(c, "intel", "requires", json!(["graphify", "audit"]));
                set(c, "graphify", "requires", json!(["intel"]));
            },
            &[],
        ),
        (
            "cycle reached twice",
            |c| {
                set(c, "audit", "requires", json!(["tdd", "tdd"]));
                set(c, "tdd", "requires", json!(["audit"]));
            },
            &[],
        ),
        (
            "tier core requires full",
            |c| set(c, "claude", "requires", json!(["tdd", "coderabbit"])),
            &[],
        ),
        (
            "tier standard requires full",
            |c| set(c, "gap-analysis", "requires", json!(["ui"])),
            &[],
        ),
        (
            "tier full requires standard is fine",
            |c| set(c, "ui", "requires", json!(["gap-analysis", "claude"])),
            &[],
        ),
        (
            "removed capability still required",
            |c| c.retain(|x| x["id"] != "research"),
            &[],
        ),
        (
            "new capability appended",
            |c| {
                c.push(json!({
                "id": "acme", "role": "feature", "tier": "core", "requires": ["acme", "ui", "ghost"],
                "skills": ["graphify"], "agents": ["gsd-dom-verifier"],
                "commands": [{"family": "refactor", "module": "m", "router": "r"}],
                "config": {"intel.enabled": {}}, "runtimeCompat": {"supported": ["zed"]},
                "taskContentResolver": {"trackerPrefix": "T"},
            }));
            },
            &["intel.enabled"],
        ),
        (
            "everything at once",
            |c| {
                push(c, "tdd", "skills", json!("validate-phase"));
                push(c, "tdd", "agents", json!("gsd-nyquist-auditor"));
                set(c, "qwen", "reviewer.flags", json!(["--qwen", "--codex"]));
                set(c, "security", "requires", json!(["nyquist", "gone"]));
                set(c, "nyquist", "requires", json!(["security"]));
                set(c, "kilo", "requires", json!(["ui"]));
            },
            &["workflow.tdd_mode"],
        ),
    ]
}

fn step(point: &str, produces: &[&str], consumes: &[&str]) -> Value {
    json!({"point": point, "ref": {"skill": "x"}, "produces": produces, "consumes": consumes})
}

fn data_flow_cases() -> Vec<Vec<Value>> {
    let base = base_caps();
    let with = |f: &dyn Fn(&mut Vec<Value>)| {
        let mut caps = base.clone();
        f(&mut caps);
        caps
    };
    vec![
        base.clone(),
        with(&|c| push(c, "tdd", "steps", step("plan:pre", &["RESEARCH.md"], &[]))),
        with(&|c| push(c, "tdd", "steps", step("plan:pre", &[], &["NOPE.md"]))),
        with(&|c| {
            push(
                c,
                "tdd",
                "steps",
                step("plan:pre", &["SELF.md"], &["SELF.md"]),
            )
        }),
        with(&|c| {
            push(
                c,
                "tdd",
                "steps",
                step(
                    "discuss:pre",
                    &[],
                    &["RESEARCH.md", "PLAN.md", "CONTEXT.md"],
                ),
            )
        }),
        with(&|c| {
            push(c, "tdd", "steps", step("verify:pre", &["A.md"], &["B.md"]));
            push(c, "ui", "steps", step("execute:pre", &["B.md"], &["A.md"]));
        }),
        with(&|c| {
            push(c, "tdd", "steps", step("ship:pre", &["Z.md", "Z.md"], &[]));
            push(
                c,
                "drift",
                "steps",
                step("ship:post", &[], &["Z.md", "SUMMARY.md", "UAT.md"]),
            );
        }),
    ]
}

fn topo_cases() -> Vec<Vec<(String, Value)>> {
    let e = |id: &str, produces: &[&str], consumes: &[&str]| {
        (id.to_owned(), step("plan:pre", produces, consumes))
    };
    vec![
        vec![
            e("zeta", &["A"], &[]),
            e("beta", &[], &["A"]),
            e("alpha", &[], &[]),
            e("gamma", &[], &[]),
        ],
        vec![
            e("b", &[], &[]),
            e("B", &[], &[]),
            e("a", &[], &[]),
            e("A", &[], &[]),
        ],
        vec![
            e("c", &["X"], &[]),
            e("b", &["Y"], &["X"]),
            e("a", &[], &["Y"]),
        ],
        vec![
            e("top", &["T"], &[]),
            e("right", &["R"], &["T"]),
            e("left", &["L"], &["T"]),
            e("end", &[], &["L", "R"]),
        ],
        vec![
            e("p", &["A"], &["B"]),
            e("q", &["B"], &["A"]),
            e("r", &[], &[]),
        ],
        vec![e("only", &["A"], &["A"])],
        vec![
            e("ab", &[], &[]),
            e("a-b", &[], &[]),
            e("a_b", &[], &[]),
            e("a1", &[], &[]),
            e("A-b", &[], &[]),
        ],
        vec![
            e("m", &["X"], &[]),
            e("z", &[], &["X"]),
            e("n", &["X"], &[]),
            e("y", &[], &["X"]),
        ],
    ]
}

const PROFILE_MODES: &[&[&str]] = &[
    &["core"],
    &["standard"],
    &["full"],
    &["core,standard"],
    &["nope"],
    &["core", "nope"],
    &[" standard , core "],
    &[],
    &["", " "],
    &["standard,full"],
];

const RESTRICTIVE: &[&[&str]] = &[
    &[],
    &["core"],
    &["standard", "core"],
    &["full"],
    &["core,standard"],
    &["weird", "standard"],
];

/// Deterministic pseudo-random ASCII strings (with a few ignorable control characters).
fn collate_cases() -> Vec<Vec<String>> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet: Vec<char> = (32u8..127)
        .map(char::from)
        .chain(['\t', '\n', '\u{1}'])
        .collect();
    let cased = ['a', 'A', 'b', 'B', '-', '_', '1'];
    (0..30)
        .map(|round| {
            (0..40)
                .map(|_| {
                    let len = usize::try_from(next() % 6).unwrap_or(0) + 1;
                    (0..len)
                        .map(|_| {
                            let pool: &[char] = match round % 3 {
                                0 => &alphabet[13..20],
                                1 => &cased,
                                _ => &alphabet[..],
                            };
                            pool[usize::try_from(next() % pool.len() as u64).unwrap_or(0)]
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

fn read_dir_files(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry"))
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            read_dir_files(root, &entry.path(), out);
        } else if kind.is_file() {
            let rel = entry
                .path()
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((
                rel,
                std::fs::read_to_string(entry.path()).unwrap_or_default(),
            ));
        }
    }
}

/// The peer package's own command and workflow files, as profile input.
fn peer_sources() -> ProfileSources {
    let peer = util::peer_dir();
    let commands_dir = peer.join("commands/gsd");
    let mut commands = Vec::new();
    for entry in std::fs::read_dir(&commands_dir).expect("commands dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().expect("type").is_file() && name.ends_with(".md") {
            let body = std::fs::read_to_string(entry.path()).unwrap_or_default();
            commands.push(CommandSource {
                stem: name[..name.len() - 3].to_owned(),
                body,
            });
        }
    }
    let workflows_dir = peer.join("gsd-core/workflows");
    let mut files = Vec::new();
    read_dir_files(&workflows_dir, &workflows_dir, &mut files);
    let workflows = files
        .into_iter()
        .map(|(path, body)| WorkflowSource { path, body })
        .collect();
    ProfileSources {
        commands,
        workflows,
    }
}

fn feature_overlay(id: &str, body: &Value, fragments: &[(&str, &str)]) -> gsd_core::Overlay {
    let mut cap = json!({
        "id": id, "role": "feature", "version": "1.0.0", "title": id, "description": "an overlay for tests",
        "tier": "full", "requires": [], "engines": {"gsd": ">=1.0.0"},
        "runtimeCompat": {"supported": ["*"], "unsupported": []}, "skills": [], "agents": [], "hooks": [],
        "config": {}, "steps": [], "contributions": [], "gates": [],
    });
    for (k, v) in body.as_object().into_iter().flatten() {
        cap[k] = v.clone();
    }
    gsd_core::Overlay {
        folder: id.to_owned(),
        manifest: cap.to_string(),
        fragments: fragments
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect(),
    }
}

/// First party plus overlays that reach every index: skills, agents, commands, config,
/// steps ordered after first-party producers, contributions and gates sorted by id.
fn overlay_sets() -> Vec<Vec<gsd_core::Overlay>> {
    let gate = json!({"point": "plan:pre", "check": {"query": "verify.codebase-drift"}, "when": "acme.gate", "blocking": false, "onError": "skip"});
    let gates = feature_overlay(
        "acme-gate",
        &json!({
            "skills": ["acme-zeta", "acme-alpha"], "agents": ["acme-gate-agent"],
            "config": {"acme.gate": {"type": "boolean", "default": false, "description": "x"},
                       "acme.mode": {"type": "enum", "default": "a", "values": ["a", "b"], "description": "x"}},
            "commands": [{"family": "acme", "module": "acme-router.cjs", "router": "routeAcme"}],
            "gates": [gate],
        }),
        &[],
    );
    let step = feature_overlay(
        "acme-step",
        &json!({
            "agents": ["acme-step-agent"], "requires": ["research"], "tier": "full",
            "steps": [{"point": "plan:pre", "ref": {"agent": "acme-step-agent"}, "fragment": {"path": "fragments/s.md"},
                       "produces": ["ACME.md"], "consumes": ["RESEARCH.md"], "onError": "skip"}],
        }),
        &[("fragments/s.md", "step text")],
    );
    let contrib = feature_overlay(
        "acme-contrib",
        &json!({
            "contributions": [{"point": "plan:pre", "into": "planner", "fragment": {"inline": "be brief"},
                               "produces": [], "consumes": ["ACME.md"]}],
            "commands": [{"family": "aaa-first", "module": "a.cjs", "router": "routeA"}],
        }),
        &[],
    );
    vec![
        vec![gates.clone()],
        vec![step.clone(), contrib.clone()],
        vec![contrib, gates, step],
    ]
}

fn request() -> Value {
    let base = base_caps();
    let cross: Vec<Value> = cross_cases()
        .into_iter()
        .map(|(_, mutate, central)| {
            let mut caps = base.clone();
            mutate(&mut caps);
            json!({"caps": caps, "centralKeys": central})
        })
        .collect();
    let topo: Vec<Value> = topo_cases()
        .into_iter()
        .map(|case| {
            Value::Array(
                case.into_iter()
                    .map(|(id, step)| json!({"capId": id, "step": step}))
                    .collect(),
            )
        })
        .collect();
    let profiles: Vec<Value> = [false, true]
        .iter()
        .flat_map(|reg| {
            PROFILE_MODES
                .iter()
                .map(move |m| json!({"modes": m, "withRegistry": reg}))
        })
        .collect();
    json!({
        "unknownIds": ["no-such-capability"],
        "cross": cross,
        "dataFlow": data_flow_cases(),
        "topo": topo,
        "profiles": profiles,
        "mostRestrictive": RESTRICTIVE,
        "collate": collate_cases(),
        // The overlays as folders: the peer's own loader composes them (not our merge).
        "built": overlay_sets().iter().map(|set| {
            set.iter().map(|o| json!({"folder": o.folder, "manifest": o.manifest, "fragments": o.fragments})).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
    })
}

fn peer() -> &'static Value {
    static ANSWER: OnceLock<Value> = OnceLock::new();
    ANSWER.get_or_init(|| util::peer_eval("registry.cjs", &request()))
}

/// The kept documents of `caps`, which [`members`] lends.
fn docs(caps: &[Value]) -> Vec<JsonDoc> {
    caps.iter()
        .map(|c| JsonDoc::from_value(c).expect("a small manifest"))
        .collect()
}

fn members(docs: &[JsonDoc]) -> Vec<Member<'_>> {
    docs.iter()
        .map(|d| Member {
            id: d.field("id").and_then(JsonRef::as_str).unwrap_or(""),
            manifest: d.root(),
            third_party: false,
        })
        .collect()
}

fn messages(list: &[gsd_core::Diagnostic]) -> Vec<String> {
    list.iter().map(|d| d.message.clone()).collect()
}

#[test]
fn every_index_equals_the_compiled_peer_registry() {
    let mut theirs = peer()["registry"].clone();
    let mut ours = Registry::first_party().to_peer_json();
    mask(&mut theirs);
    mask(&mut ours);
    let (Some(t), Some(o)) = (theirs.as_object(), ours.as_object()) else {
        panic!("objects")
    };
    assert_eq!(
        o.keys().collect::<Vec<_>>(),
        t.keys().collect::<Vec<_>>(),
        "export order"
    );
    let mut compared = 0;
    for (key, value) in t {
        let text = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
        assert_eq!(text(&o[key]), text(value), "{key} differs (prose masked)");
        compared += value.as_object().map_or(1, serde_json::Map::len);
    }
    println!(
        "compared {} exports, {compared} top-level entries (prose masked)",
        t.len()
    );
}

/// `value` with the keys of every object sorted (arrays keep their order).
fn sorted_deep(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map
                .iter()
                .map(|(k, v)| (k.clone(), sorted_deep(v)))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_deep).collect()),
        other => other.clone(),
    }
}

/// The peer's registry generator (`scripts/gen-capability-registry.cjs`: `loadAndValidate`
/// then `buildRegistry`) composes a capabilities folder: here it reads its own first-party
/// capabilities and the overlays written beside them as folders (validating them,
/// materializing their fragments, checking them across capabilities), and the registry it
/// compiles must equal our merged registry: every value, every list in its order. (Its
/// run-time overlay loader, `capability-loader.cjs`, adds trust, consent and a ledger on
/// disk around the same validation; it is not driven here.) Only the order of object keys
/// differs, by design: the generator reads folders in name order, so an overlay's entries
/// fall among the first party's, while ours follow them in admission order
/// (docs/registry.md, "Map order"); that is checked on its own.
#[test]
fn merged_registry_with_overlays_equals_the_peer_loader_and_builder() {
    let answers = peer()["built"].as_array().expect("built");
    for (set, theirs) in overlay_sets().iter().zip(answers) {
        let folders: Vec<&String> = set.iter().map(|o| &o.folder).collect();
        assert!(
            theirs.get("loadErrors").is_none(),
            "the peer's loader refuses {folders:?}: {}",
            theirs["loadErrors"]
        );
        let registry = Registry::first_party().with_overlays(set);
        assert!(
            registry.diagnostics().is_empty(),
            "{:?}",
            registry.diagnostics()
        );
        let (mut ours, mut theirs) = (registry.to_peer_json(), theirs.clone());
        mask(&mut ours);
        mask(&mut theirs);
        let keys: Vec<String> = theirs
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        assert!(
            keys.len() > 5,
            "the peer's registry has its views: {keys:?}"
        );
        for key in keys {
            let text =
                |v: &Value| serde_json::to_string_pretty(&sorted_deep(v)).unwrap_or_default();
            assert_eq!(
                text(&ours[&key]),
                text(&theirs[&key]),
                "{key} differs with overlays {folders:?}"
            );
        }
        let order: Vec<&str> = ours["capabilities"]
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let first_party = Registry::first_party().capabilities().count();
        let mut after: Vec<&str> = order[first_party..].to_vec();
        let mut given: Vec<&str> = folders.iter().map(|f| f.as_str()).collect();
        after.sort_unstable();
        given.sort_unstable();
        assert_eq!(after, given, "the overlays follow the first party");
    }
    println!(
        "compared {} merged registries with the peer's loader and builder",
        answers.len()
    );
}

#[test]
fn capability_manifests_equal_the_peer_with_prose_masked() {
    let theirs = &peer()["registry"]["capabilities"];
    let mut count = 0;
    for cap in Registry::first_party().capabilities() {
        let mut ours = cap.manifest.to_value();
        let mut peer_cap = theirs[&cap.id].clone();
        mask(&mut ours);
        mask(&mut peer_cap);
        assert_eq!(
            serde_json::to_string(&ours).ok(),
            serde_json::to_string(&peer_cap).ok(),
            "{}",
            cap.id
        );
        count += 1;
    }
    assert_eq!(count, theirs.as_object().map_or(0, serde_json::Map::len));
    println!("compared {count} manifests");
}

/// Every prose text of a manifest: descriptions (capability and config slices) and
/// fragment bodies, keyed by where they sit.
fn prose(cap: &Value) -> Vec<(String, String)> {
    let mut out = vec![(
        "description".to_owned(),
        cap["description"].as_str().unwrap_or("").to_owned(),
    )];
    for (key, slice) in cap["config"].as_object().into_iter().flatten() {
        out.push((
            format!("config.{key}"),
            slice["description"].as_str().unwrap_or("").to_owned(),
        ));
    }
    for group in ["steps", "contributions"] {
        for (i, hook) in cap[group].as_array().into_iter().flatten().enumerate() {
            if let Some(text) = hook["fragment"]["inline"].as_str() {
                out.push((format!("{group}[{i}].fragment"), text.to_owned()));
            }
        }
    }
    out
}

#[test]
fn prose_is_our_own() {
    let theirs = &peer()["registry"]["capabilities"];
    let mut checked = 0;
    for cap in Registry::first_party().capabilities() {
        let peer_prose = prose(&theirs[&cap.id]);
        let ours = prose(&cap.manifest.to_value());
        assert_eq!(ours.len(), peer_prose.len(), "{}", cap.id);
        for ((at, text), (_, peer_text)) in ours.iter().zip(&peer_prose) {
            assert!(
                !text.trim().is_empty() && !text.contains("PLACEHOLDER"),
                "{} {at}",
                cap.id
            );
            assert_ne!(
                text.trim(),
                peer_text.trim(),
                "{} {at} copies the peer",
                cap.id
            );
            checked += 1;
        }
    }
    println!("checked {checked} prose texts");
}

#[test]
fn requires_closure_equals_the_peer() {
    let registry = Registry::first_party();
    let closures = peer()["closures"].as_object().expect("closures");
    for (id, list) in closures {
        let expected: Vec<String> = serde_json::from_value(list.clone()).expect("strings");
        assert_eq!(registry.requires_closure(id), expected, "{id}");
    }
    println!("compared {} closures", closures.len());
}

#[test]
fn cross_validation_messages_equal_the_peer() {
    let base = base_caps();
    let answers = peer()["cross"].as_array().expect("cross");
    let cases = cross_cases();
    assert!(cases.len() >= 30);
    let mut non_empty = 0;
    for ((name, mutate, central), expected) in cases.into_iter().zip(answers) {
        let mut caps = base.clone();
        mutate(&mut caps);
        let expected: Vec<String> = serde_json::from_value(expected.clone()).expect("strings");
        let ours = messages(&validate_cross(&members(&docs(&caps)), central));
        assert_eq!(ours, expected, "case {name:?}");
        non_empty += usize::from(!expected.is_empty());
    }
    println!(
        "compared {} mutated sets ({non_empty} with errors)",
        answers.len()
    );
}

#[test]
fn data_flow_messages_equal_the_peer() {
    let answers = peer()["dataFlow"].as_array().expect("dataFlow");
    for (i, (caps, expected)) in data_flow_cases().iter().zip(answers).enumerate() {
        let expected: Vec<String> = serde_json::from_value(expected.clone()).expect("strings");
        let ours = messages(&validate_data_flow(&members(&docs(caps))));
        // The peer throws on the first duplicate producer; we report it and go on.
        let ours = match ours.iter().find(|m| m.starts_with("duplicate-producer")) {
            Some(first) => vec![first.clone()],
            None => ours,
        };
        assert_eq!(ours, expected, "data-flow case {i}");
    }
    println!("compared {} data-flow sets", answers.len());
}

#[test]
fn hook_order_equals_the_peer_topological_sort() {
    let answers = peer()["topo"].as_array().expect("topo");
    for (case, expected) in topo_cases().iter().zip(answers) {
        let kept: Vec<JsonDoc> = case
            .iter()
            .map(|(_, s)| JsonDoc::from_value(s).expect("small"))
            .collect();
        let hooks: Vec<(&str, JsonRef<'_>)> = case
            .iter()
            .zip(&kept)
            .map(|((id, _), d)| (id.as_str(), d.root()))
            .collect();
        match order_hooks("steps", LoopPoint::PlanPre, &hooks) {
            Ok(ids) => assert_eq!(json!(ids), *expected),
            Err(d) => assert_eq!(json!(d.message), *expected),
        }
    }
    println!("compared {} hook orderings", answers.len());
}

#[test]
fn resolve_profile_equals_the_peer_on_its_own_files() {
    let sources = peer_sources();
    let manifest = SkillsManifest::build(&sources);
    let answers = peer()["profiles"].as_array().expect("profiles");
    let mut i = 0;
    for with_registry in [false, true] {
        for modes in PROFILE_MODES {
            let registry = with_registry.then(Registry::first_party);
            let ours = resolve_profile(modes, &manifest, registry);
            let skills = match &ours.skills {
                ProfileSkills::All => json!("*"),
                ProfileSkills::Only(set) => json!(set),
            };
            let got = json!({"name": ours.name, "skills": skills, "agents": ours.agents});
            assert_eq!(
                got, answers[i],
                "modes {modes:?} (registry: {with_registry})"
            );
            i += 1;
        }
    }
    let restrictive = peer()["mostRestrictive"]
        .as_array()
        .expect("mostRestrictive");
    for (names, expected) in RESTRICTIVE.iter().zip(restrictive) {
        assert_eq!(
            json!(most_restrictive_profile(names)),
            *expected,
            "{names:?}"
        );
    }
    println!(
        "compared {i} profiles and {} most-restrictive answers over {} commands, {} workflow files",
        restrictive.len(),
        sources.commands.len(),
        sources.workflows.len()
    );
}

#[test]
fn collation_equals_javascript_locale_compare() {
    let answers = peer()["collate"].as_array().expect("collate");
    for (mut list, expected) in collate_cases().into_iter().zip(answers) {
        list.sort_by(|a, b| gsd_core::index::locale_compare(a, b));
        assert_eq!(json!(list), *expected);
    }
    println!("compared {} sorted lists", answers.len());
}

//! Exact messages, codes and fields per rule family. Message texts are the peer's as
//! documented in the peer specification (§11.2–11.6); our own rules (unsafe paths,
//! `null` elements, sanitization) are pinned to `docs/validation.md`.

use gsd_core::embedded;
use gsd_core::validate::{Origin, check_capability, code, validate_capability, warning_records};
use gsd_core::{Diagnostic, Severity};
use serde_json::{Value, json};

/// A shipped manifest (compiled in), as a value.
fn shipped(id: &str) -> Value {
    let folder = embedded::first_party()
        .iter()
        .find(|f| f.folder == id)
        .expect("shipped capability");
    serde_json::from_str(folder.manifest).expect("manifest parses")
}

/// `shipped(id)` with `f` applied, validated under its own folder name.
#[track_caller]
fn errors_of(id: &str, f: impl FnOnce(&mut Value)) -> Vec<Diagnostic> {
    let mut v = shipped(id);
    f(&mut v);
    validate_capability(&v, id)
}

#[track_caller]
fn only(errors: &[Diagnostic]) -> (&str, &str, &str) {
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = &errors[0];
    assert_eq!(d.severity, Severity::Error);
    (
        d.code.as_str(),
        d.field.as_deref().unwrap_or_default(),
        d.message.as_str(),
    )
}

#[test]
fn every_shipped_manifest_is_valid_without_warnings() {
    for folder in embedded::first_party() {
        let v: Value = serde_json::from_str(folder.manifest).expect("parses");
        let check = check_capability(&v, folder.folder, Origin::FirstParty);
        assert!(check.is_valid(), "{}: {:#?}", folder.folder, check.errors);
        assert!(
            check.warnings.is_empty(),
            "{}: {:#?}",
            folder.folder,
            check.warnings
        );
    }
}

#[test]
fn a_non_object_is_one_error() {
    for v in [json!(null), json!([]), json!("x"), json!(1)] {
        let errors = validate_capability(&v, "x");
        assert_eq!(
            only(&errors),
            ("wrong_type", "", "capability must be a JSON object")
        );
    }
}

#[test]
fn envelope_renders_values_like_string_concatenation() {
    let cases = [
        (json!("plugin"), "plugin"),
        (json!(["a", "b"]), "a,b"),
        (json!({"a": 1}), "[object Object]"),
        (json!(null), "null"),
        (json!(1e21), "1e+21"),
        (json!(1.0), "1"),
    ];
    for (role, shown) in cases {
        let errors = errors_of("claude", |v| v["role"] = role.clone());
        let message = format!("role must be one of: feature, runtime, reviewer (got: {shown})");
        assert_eq!(only(&errors), ("invalid_enum", "role", message.as_str()));
    }
    let errors = errors_of("claude", |v| {
        v.as_object_mut().map(|m| m.remove("role"));
    });
    assert_eq!(errors[0].code, "missing_field");
    assert_eq!(
        errors[0].message,
        "role must be one of: feature, runtime, reviewer (got: undefined)"
    );
}

#[test]
fn envelope_id_version_and_requires() {
    let errors = errors_of("claude", |v| v["id"] = json!("Claude"));
    assert_eq!(
        only(&errors),
        ("invalid_id", "id", "id must be a kebab-case string")
    );
    let errors = errors_of("claude", |v| v["id"] = json!("other"));
    assert_eq!(
        only(&errors),
        (
            "id_mismatch",
            "id",
            "id \"other\" must equal the folder name \"claude\""
        )
    );
    let errors = errors_of("claude", |v| {
        v.as_object_mut().map(|m| m.remove("version"));
    });
    assert_eq!(
        only(&errors),
        (
            "missing_field",
            "version",
            "version must be a semver string (e.g. \"1.2.3\"); got: undefined"
        )
    );
    let errors = errors_of("claude", |v| v["requires"] = json!([null]));
    assert_eq!(
        only(&errors),
        (
            "wrong_type",
            "requires[0]",
            "requires entries must be strings (got: null)"
        )
    );
    let errors = errors_of("claude", |v| v["engines"] = json!({"gsd": "abc"}));
    assert_eq!(
        only(&errors),
        (
            "invalid_range",
            "engines.gsd",
            "engines.gsd must be a semver range string; got: \"abc\""
        )
    );
}

#[test]
fn runtime_config_home_messages() {
    let errors = errors_of("claude", |v| {
        v["runtime"]["configHome"]["kind"] = json!("bogus");
    });
    assert_eq!(
        only(&errors),
        (
            "invalid_enum",
            "runtime.configHome.kind",
            "capability \"claude\" runtime.configHome.kind must be one of: dot-home, dot-home-nested, xdg, \
             generic-agents-root, none (got: \"bogus\")"
        )
    );
    let errors = errors_of("claude", |v| v["runtime"]["configHome"] = json!(null));
    assert_eq!(
        errors[0].message,
        "capability \"claude\" runtime.configHome must be an object (got: null)"
    );
    let errors = errors_of("kilo", |v| {
        v["runtime"]["configHome"]["skillsHome"]["env"] = json!("x");
    });
    assert_eq!(
        only(&errors),
        (
            "wrong_type",
            "runtime.configHome.skillsHome.env",
            "capability \"kilo\" runtime.configHome.skillsHome.env is required and must be an array of strings (got: \"x\")"
        )
    );
}

#[test]
fn gates_a_and_b() {
    let errors = errors_of("claude", |v| {
        v["runtime"]["hooksSurface"] = json!("codex-hooks-json");
    });
    assert_eq!(
        only(&errors),
        (
            "gate_a",
            "runtime.hooksSurface",
            "runtime.hooksSurface \"codex-hooks-json\" is not valid for installSurface \"settings-json\" — allowed: \
             settings-json, none (src: INSTALL_SURFACE_TO_ALLOWED_HOOKS_SURFACES in scripts/gen-capability-registry.cjs)"
        )
    );
    let errors = errors_of("qwen", |v| {
        v["runtime"].as_object_mut().map(|r| r.remove("hookEvents"));
    });
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, "gate_b");
    assert!(
        errors[0]
            .message
            .ends_with("but runtime.hookEvents is \"undefined\" — must be \"claude\""),
        "{}",
        errors[0].message
    );
}

#[test]
fn trigger_precedence_is_required_with_default() {
    let errors = errors_of("claude", |v| {
        v["runtime"]
            .as_object_mut()
            .map(|r| r.remove("triggerPrecedence"));
    });
    assert!(errors.is_empty(), "{errors:#?}");
    let errors = errors_of("claude", |v| {
        v["runtime"]["triggerPrecedence"] = json!(["skills", "skills"]);
    });
    assert_eq!(
        only(&errors),
        (
            "duplicate",
            "runtime.triggerPrecedence[1]",
            "runtime.triggerPrecedence contains a duplicate kind: \"skills\""
        )
    );
}

#[test]
fn reviewer_fields_that_must_be_present_even_when_null() {
    for (key, tail) in [
        (
            "promptBudgetKey",
            "reviewer.promptBudgetKey must be a dotted config key or null (got: undefined)",
        ),
        (
            "handler",
            "reviewer.handler must be null or one of: antigravity, openai-compatible, opencode (got: undefined).",
        ),
    ] {
        let errors = errors_of("gemini", |v| {
            v["reviewer"].as_object_mut().map(|r| r.remove(key));
        });
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert_eq!(errors[0].code, "missing_field");
        assert!(
            errors[0]
                .message
                .starts_with(&format!("capability \"gemini\" {tail}")),
            "{}",
            errors[0].message
        );
    }
    let errors = errors_of("gemini", |v| {
        v["reviewer"]["invoke"]
            .as_object_mut()
            .map(|r| r.remove("modelArg"));
    });
    assert_eq!(
        only(&errors),
        (
            "missing_field",
            "reviewer.invoke.modelArg",
            "capability \"gemini\" reviewer.invoke.modelArg must be a non-empty string or null (got: undefined)"
        )
    );
}

#[test]
fn null_hook_elements_are_our_error_where_the_peer_throws() {
    for key in ["steps", "contributions", "gates"] {
        let errors = errors_of("security", |v| v[key] = json!([null]));
        let message = format!("{key}[0] must be an object (got: null)");
        assert_eq!(
            only(&errors),
            (
                code::NULL_ELEMENT,
                format!("{key}[0]").as_str(),
                message.as_str()
            )
        );
    }
}

#[test]
fn unsafe_paths_get_our_own_codes() {
    let errors = errors_of("claude", |v| {
        v["runtime"]["artifactLayout"]["global"][0]["destSubpath"] = json!("../x");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_DEST_SUBPATH,
            "runtime.artifactLayout.global[0].destSubpath",
            "capability \"claude\" runtime.artifactLayout.global[0].destSubpath \"../x\" must stay inside the config \
             directory: it contains a \"..\" segment"
        )
    );
    let errors = errors_of("claude", |v| {
        v["runtime"]["configHome"]["name"] = json!("a/b");
    });
    assert_eq!(only(&errors).0, code::UNSAFE_CONFIG_HOME_NAME);
    let errors = errors_of("antigravity", |v| {
        v["runtime"]["configHome"]["parent"] = json!("..");
    });
    assert_eq!(only(&errors).0, code::UNSAFE_CONFIG_HOME_PARENT);
    let errors = errors_of("claude", |v| {
        v["runtime"]["localConfigDir"] = json!(".claude/../../etc");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_LOCAL_CONFIG_DIR,
            "runtime.localConfigDir",
            "runtime.localConfigDir \".claude/../../etc\" must stay inside the project: it contains a \"..\" segment"
        )
    );
    let errors = errors_of("antigravity", |v| {
        v["runtime"]["artifactLayout"]["global"][0]["home"] = json!("/etc");
    });
    assert_eq!(only(&errors).0, code::UNSAFE_LAYOUT_HOME);
    let errors = errors_of("security", |v| {
        v["steps"][0]["fragment"] = json!({"path": "C:\\x.md"});
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_FRAGMENT_PATH,
            "steps[0].fragment.path",
            "steps[0].fragment.path \"C:\\\\x.md\" must stay inside the capability directory: it starts with a drive (e.g. C:\\)"
        )
    );
}

/// An agent file suffix a plan cannot take: each problem named; `null` and copilot's own
/// `.agent.md` are fine.
#[test]
fn agent_file_suffixes_a_plan_cannot_take_get_our_own_code() {
    for (ext, shown, why) in [
        (
            json!("agent.md"),
            "\"agent.md\"",
            "does not start with \".\"",
        ),
        (
            json!("."),
            "\".\"",
            "ends with \".\" (nothing after the dot, or a name Windows would cut short)",
        ),
        (json!(".x/../y"), "\".x/../y\"", "contains a path separator"),
        (
            json!(".agent\u{202E}dm"),
            "\".agent\u{FFFD}dm\"",
            "contains a control, bidi or invisible character",
        ),
        (
            json!(".agent.markdown.x"),
            "\".agent.markdown.x\"",
            "is longer than 16 bytes",
        ),
        (json!(true), "true", "is not a string"),
    ] {
        let errors = errors_of("copilot", |v| {
            v["runtime"]["hostBehaviors"]["agentFileExtension"] = ext.clone();
        });
        assert_eq!(
            only(&errors),
            (
                code::UNSAFE_AGENT_FILE_EXTENSION,
                "runtime.hostBehaviors.agentFileExtension",
                format!("runtime.hostBehaviors.agentFileExtension {shown} must be a file suffix starting with \".\": it {why}").as_str()
            ),
            "{ext}"
        );
    }
    for ext in [Value::Null, json!(".agent.md"), json!(".x")] {
        let errors = errors_of("copilot", |v| {
            v["runtime"]["hostBehaviors"]["agentFileExtension"] = ext.clone();
        });
        assert_eq!(errors, [], "{ext}");
    }
}

/// Our rules for descriptors no plan could use: a layout entry naming the config directory
/// itself, a skills entry without a converter, probe candidates that leave the home.
#[test]
fn unplannable_descriptors_get_our_own_codes() {
    let errors = errors_of("claude", |v| {
        v["runtime"]["artifactLayout"]["global"][0]["converter"] = Value::Null;
    });
    assert_eq!(
        only(&errors),
        (
            code::SKILLS_WITHOUT_CONVERTER,
            "runtime.artifactLayout.global[0].converter",
            "capability \"claude\" runtime.artifactLayout.global[0].converter is null, but a skills entry needs a \
             converter (every install plan would fail)"
        )
    );
    let errors = errors_of("claude", |v| {
        v["runtime"]["artifactLayout"]["local"][1]["destSubpath"] = json!("./");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_DEST_SUBPATH,
            "runtime.artifactLayout.local[1].destSubpath",
            "capability \"claude\" runtime.artifactLayout.local[1].destSubpath \"./\" must stay inside the config \
             directory: it names the config directory itself, not a directory in it"
        )
    );
    // A probe candidate: one directory name under the parent (dot-home-nested), a path
    // under "~/" (generic-agents-root); ignored where the kind reads no probe list.
    let errors = errors_of("antigravity", |v| {
        v["runtime"]["configHome"]["probe"] = json!(["antigravity", "../../etc"]);
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_CONFIG_HOME_PROBE,
            "runtime.configHome.probe[1]",
            "capability \"antigravity\" runtime.configHome.probe[1] \"../../etc\" is not a safe directory name: it contains a \"..\" segment"
        )
    );
    for (probe, why) in [
        ("/etc", "does not start with \"~/\""),
        ("~/../etc", "contains a \"..\" segment"),
        ("~/.", "names the home directory itself"),
    ] {
        let errors = errors_of("kimi", |v| {
            v["runtime"]["configHome"]["probe"] = json!([probe]);
        });
        assert_eq!(
            only(&errors),
            (
                code::UNSAFE_CONFIG_HOME_PROBE,
                "runtime.configHome.probe[0]",
                format!("capability \"kimi\" runtime.configHome.probe[0] \"{probe}\" is not a safe path under the home directory: it {why}").as_str()
            )
        );
    }
    let errors = errors_of("antigravity", |v| {
        v["runtime"]["configHome"]["probeExists"] = json!("../VERSION");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_CONFIG_HOME_PROBE,
            "runtime.configHome.probeExists",
            "capability \"antigravity\" runtime.configHome.probeExists \"../VERSION\" must stay inside the probed directory: it contains a \"..\" segment"
        )
    );
    // kimi-code (dot-home) declares a probe list it never reads: nothing to refuse.
    assert_eq!(
        errors_of("kimi-code", |v| {
            v["runtime"]["configHome"]["probe"] = json!(["/etc", "../x"]);
        }),
        []
    );
}

/// Our rules for values joined into names: a layout prefix and a settings file.
#[test]
fn joined_names_get_our_own_codes() {
    let errors = errors_of("claude", |v| {
        v["runtime"]["artifactLayout"]["global"][0]["prefix"] = json!("../gsd-");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_LAYOUT_PREFIX,
            "runtime.artifactLayout.global[0].prefix",
            "capability \"claude\" runtime.artifactLayout.global[0].prefix \"../gsd-\" must be part of one file \
             name: it contains a path separator"
        )
    );
    // An escape or a bidi control is refused; the message spells the escape as JSON does
    // and shows U+FFFD for the bidi control, so neither acts on a terminal.
    let errors = errors_of("claude", |v| {
        v["runtime"]["artifactLayout"]["local"][0]["prefix"] = json!("gsd\u{1b}[2J\u{202E}-");
    });
    assert_eq!(
        only(&errors),
        (
            code::UNSAFE_LAYOUT_PREFIX,
            "runtime.artifactLayout.local[0].prefix",
            "capability \"claude\" runtime.artifactLayout.local[0].prefix \"gsd\\u001b[2J\u{FFFD}-\" must be part of \
             one file name: it contains a control, bidi or invisible character"
        )
    );
    let errors = errors_of("claude", |v| {
        v["runtime"]["hostBehaviors"]["settingsFileByScope"]["global"] = json!("../../../etc/x");
        v["runtime"]["hostBehaviors"]["settingsFileByScope"]["local"] = json!(5);
    });
    let found: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|d| {
            (
                d.code.as_str(),
                d.field.as_deref().unwrap_or(""),
                d.message.as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                code::UNSAFE_SETTINGS_FILE,
                "runtime.hostBehaviors.settingsFileByScope.global",
                "runtime.hostBehaviors.settingsFileByScope.global \"../../../etc/x\" must be a file inside the config \
                 directory: it contains a \"..\" segment"
            ),
            (
                code::UNSAFE_SETTINGS_FILE,
                "runtime.hostBehaviors.settingsFileByScope.local",
                "runtime.hostBehaviors.settingsFileByScope.local 5 must be a file inside the config directory: it is \
                 not a non-empty string"
            ),
        ]
    );
    let errors = errors_of("claude", |v| {
        v["runtime"]["hostBehaviors"]["settingsFileByScope"]["global"] = json!("config/");
        v["runtime"]["hostBehaviors"]["settingsFileByScope"]["local"] =
            json!("settings\u{202E}.json");
    });
    let found: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        found,
        [
            "runtime.hostBehaviors.settingsFileByScope.global \"config/\" must be a file inside the config directory: \
             it does not name a file (it ends with a separator or \".\")",
            "runtime.hostBehaviors.settingsFileByScope.local \"settings\u{FFFD}.json\" must be a file inside the config \
             directory: it contains a bidi or invisible character",
        ]
    );
}

#[test]
fn manifest_text_in_messages_is_sanitized_and_clipped() {
    let errors = errors_of("claude", |v| v["role"] = json!("a\u{1b}[31mb\u{202E}"));
    assert_eq!(
        errors[0].message,
        "role must be one of: feature, runtime, reviewer (got: a\u{FFFD}b\u{FFFD})"
    );
    let long = "v".repeat(200);
    let errors = errors_of("claude", |v| v["version"] = json!(long));
    let shown = format!("\"{}…", "v".repeat(79));
    assert_eq!(
        errors[0].message,
        format!("version must be a semver string (e.g. \"1.2.3\"); got: {shown}")
    );
}

#[test]
fn warning_records_carry_the_peer_fields_in_detail() {
    let mut v = shipped("claude");
    v["runtime"]["hostBehaviors"]["reviewerCli"] = json!({});
    v["runtime"]["hostBehaviors"]["bad\u{7}key"] = json!(1);
    let records = warning_records(&v);
    assert_eq!(records.len(), 2, "{records:#?}");
    assert_eq!(records[0].code, "removed_host_behavior");
    assert_eq!(
        records[0].field.as_deref(),
        Some("runtime.hostBehaviors.reviewerCli")
    );
    assert_eq!(
        records[0].detail_value(),
        Some(json!({"replacement": "reviewer", "docs": "docs/how-to/ship-a-reviewer-lane.md"}))
    );
    assert_eq!(records[1].code, "unknown_host_behavior");
    assert_eq!(
        records[1].field.as_deref(),
        Some("runtime.hostBehaviors.bad\u{FFFD}key")
    );
    assert_eq!(records[1].capability_id.as_deref(), Some("claude"));

    let mut v = shipped("gemini");
    for i in 0..12 {
        v["reviewer"][format!("x{i}")] = json!(i);
    }
    let records = warning_records(&v);
    assert_eq!(records.len(), 11);
    assert_eq!(records[10].field.as_deref(), Some("reviewer"));
    assert_eq!(
        records[10].message,
        "⚠ capability \"gemini\" declares 2 further unknown reviewer field(s), not listed."
    );
    let detail = records[10].detail_value().expect("detail");
    assert_eq!(detail["omittedCount"], json!(2));
    assert_eq!(detail["truncated"], json!(true));
    assert_eq!(detail["knownFields"].as_array().map(Vec::len), Some(16));
}

#[test]
fn loading_checks_reserved_prefixes_and_the_loop_contract() {
    let mut v = shipped("security");
    v["id"] = json!("gsd-security");
    let check = check_capability(&v, "gsd-security", Origin::ThirdParty);
    assert_eq!(check.errors.len(), 1);
    assert_eq!(check.errors[0].code, code::RESERVED_ID_PREFIX);
    assert_eq!(
        check.errors[0].message,
        "id uses a reserved first-party prefix (gsd-/gsd-core-/anthropic-)"
    );

    let mut v = shipped("security");
    v["steps"][0]["when"] = json!("no.such.key");
    let check = check_capability(&v, "security", Origin::FirstParty);
    assert_eq!(check.errors.len(), 1, "{:#?}", check.errors);
    assert_eq!(check.errors[0].code, code::CONTRACT);
    assert_eq!(
        check.errors[0].message,
        "capability \"security\" step.when \"no.such.key\" is not defined in capability config keys"
    );
}

#[test]
fn a_deeply_nested_skills_home_stops_at_the_depth_bound() {
    let mut home = json!({"kind": "dot-home", "name": ".x", "env": []});
    for _ in 0..200 {
        home = json!({"kind": "dot-home", "name": ".x", "env": [], "skillsHome": home});
    }
    let errors = errors_of("kilo", |v| v["runtime"]["configHome"] = home);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, code::TOO_DEEP);
    let field = format!("runtime.configHome{}", ".skillsHome".repeat(65));
    assert_eq!(errors[0].field.as_deref(), Some(field.as_str()));
}

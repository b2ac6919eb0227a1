//! The shadow report, its renderer and the sanitizer, against the rules and examples of the
//! peer specification (§9) and ADR-2866.

use gsd_core::shadow::{DEFAULT_SAMPLE_LIMIT, ShadowSide, ShadowedTrigger};
use gsd_core::vocab::TriggerKind;
use gsd_core::{
    ConfigHomeFacts, Host, ManifestMismatch, Registry, Scope, ShadowReason, ShadowReport,
    SurfaceFacts, build_shadow_report, render_shadow_report, sanitize_for_render,
};

fn facts(entries: &[(&str, String)]) -> SurfaceFacts {
    let mut facts = SurfaceFacts::default();
    for (home, text) in entries {
        facts.homes.insert(
            (*home).to_owned(),
            ConfigHomeFacts {
                manifest: Some(text.clone()),
                ..ConfigHomeFacts::default()
            },
        );
    }
    facts
}

fn manifest(runtime: &str, scope: &str, keys: &[String]) -> String {
    let files: serde_json::Map<String, serde_json::Value> =
        keys.iter().map(|k| (k.clone(), "0".into())).collect();
    serde_json::json!({ "manifestVersion": 2, "runtime": runtime, "scope": scope, "files": files })
        .to_string()
}

fn skills(stems: &[&str]) -> Vec<String> {
    stems
        .iter()
        .map(|s| format!("skills/gsd-{s}/SKILL.md"))
        .collect()
}

fn commands(stems: &[&str]) -> Vec<String> {
    stems
        .iter()
        .map(|s| format!("commands/gsd-{s}.md"))
        .collect()
}

fn host() -> Host {
    Host::new("/home/u", "/work/p")
}

#[test]
fn sanitize_strips_then_collapses_and_trims() {
    // §9: `bad\x1bZ` → `badZ`; whitespace runs (NBSP included) become one space; trimmed.
    assert_eq!(sanitize_for_render("bad\u{1b}Z"), "badZ");
    assert_eq!(sanitize_for_render("\u{1b}[1;31mclaude\u{1b}[0m"), "claude");
    assert_eq!(sanitize_for_render("\u{1b}]0;title\u{7}x"), "x");
    assert_eq!(sanitize_for_render("\u{1b}]0;t\u{1b}\\x"), "x");
    assert_eq!(sanitize_for_render("a\u{a0}\u{a0} \tb\n"), "a b");
    assert_eq!(
        sanitize_for_render("c\u{200b}o\u{feff}d\u{202e}e\u{301}x\u{9b}"),
        "codex"
    );
    assert_eq!(sanitize_for_render("   "), "");
}

#[test]
fn the_2218_case_reports_the_local_commands_unreachable() {
    // ADR-2866: claude at both scopes — global skills beat local commands of the same name.
    let reg = Registry::first_party();
    let facts = facts(&[
        (
            "/home/u/.claude",
            manifest("claude", "global", &skills(&["help", "plan"])),
        ),
        (
            "/work/p/.claude",
            manifest("claude", "local", &commands(&["help", "plan"])),
        ),
    ]);
    let report = build_shadow_report(reg, "claude", &host(), &facts).expect("report");
    assert_eq!(report.reason, ShadowReason::ScopeShadowed);
    assert_eq!(
        report.winner,
        Some(ShadowSide {
            kind: TriggerKind::Skills,
            scope: Scope::Global
        })
    );
    assert_eq!(
        report.shadowed_side,
        Some(ShadowSide {
            kind: TriggerKind::Commands,
            scope: Scope::Local
        })
    );
    assert!(report.kinds_differ);
    assert_eq!(
        render_shadow_report(&report, DEFAULT_SAMPLE_LIMIT),
        [
            "2 triggers shadowed: the local commands surface is unreachable through those triggers — global skills wins instead.",
            "  - gsd-help: local/commands shadowed by global/skills",
            "  - gsd-plan: local/commands shadowed by global/skills",
        ]
    );
}

#[test]
fn a_stem_installed_at_one_scope_only_is_not_reported() {
    // §9 truth filter: global a, b, c and local a only → only a is shadowed.
    let reg = Registry::first_party();
    let facts = facts(&[
        (
            "/home/u/.codex",
            manifest("codex", "global", &skills(&["a", "b", "c"])),
        ),
        (
            "/work/p/.codex",
            manifest("codex", "local", &skills(&["a"])),
        ),
    ]);
    let report = build_shadow_report(reg, "codex", &host(), &facts).expect("report");
    let triggers: Vec<&str> = report.triggers.iter().map(|t| t.trigger.as_str()).collect();
    assert_eq!(triggers, ["gsd-a"]);
    assert!(!report.kinds_differ);
    assert_eq!(
        render_shadow_report(&report, DEFAULT_SAMPLE_LIMIT)[0],
        "1 trigger shadowed: the local skills entry is overridden by global skills."
    );
}

#[test]
fn mismatches_are_listed_but_rendered_only_with_a_shadow() {
    let reg = Registry::first_party();
    let facts = facts(&[(
        "/home/u/.codex",
        manifest("\u{1b}[31mclaude", "local", &skills(&["a"])),
    )]);
    let report = build_shadow_report(reg, "codex", &host(), &facts).expect("report");
    assert_eq!(report.reason, ShadowReason::NotShadowed);
    assert_eq!(
        report.mismatches,
        [ManifestMismatch {
            scope: Scope::Global,
            declared_runtime: Some("claude".into()),
            declared_runtime_matches_probe: Some(false),
            declared_scope: Some(Scope::Local),
            declared_scope_matches_probe: Some(false),
        }]
    );
    assert!(render_shadow_report(&report, DEFAULT_SAMPLE_LIMIT).is_empty());
}

#[test]
fn unknown_runtimes_and_vscode_are_resolver_unavailable() {
    let reg = Registry::first_party();
    for id in ["vscode", "nope"] {
        let report =
            build_shadow_report(reg, id, &host(), &SurfaceFacts::default()).expect("report");
        assert_eq!(report.reason, ShadowReason::ResolverUnavailable, "{id}");
        assert_eq!(
            serde_json::to_value(&report).expect("json")["reason"],
            "resolver_unavailable"
        );
    }
}

#[test]
fn render_follows_the_spec_templates() {
    let t = |name: &str| ShadowedTrigger {
        trigger: name.into(),
        winner_kind: TriggerKind::Skills,
        winner_scope: Scope::Global,
        shadowed_kind: TriggerKind::Skills,
        shadowed_scope: Scope::Local,
    };
    let side = |scope| {
        Some(ShadowSide {
            kind: TriggerKind::Skills,
            scope,
        })
    };
    let report = ShadowReport {
        runtime: "codex".into(),
        reason: ShadowReason::ScopeShadowed,
        shadowed: true,
        winner: side(Scope::Global),
        shadowed_side: side(Scope::Local),
        kinds_differ: false,
        triggers: vec![t("gsd-a"), t("gsd-b"), t("gsd-c")],
        mismatches: vec![ManifestMismatch {
            scope: Scope::Local,
            declared_runtime: Some("x\u{1b}[0m".into()),
            declared_runtime_matches_probe: Some(false),
            declared_scope: Some(Scope::Global),
            declared_scope_matches_probe: Some(false),
        }],
    };
    assert_eq!(
        render_shadow_report(&report, 1),
        [
            "3 triggers shadowed: the local skills entries are overridden by global skills.",
            "  - gsd-a: local/skills shadowed by global/skills",
            "  ...and 2 more",
            "Note: local scope manifest mismatch — declared runtime \"x\" does not match this runtime; declared scope \"global\" does not match the probed local scope.",
        ]
    );
    let quiet = ShadowReport {
        reason: ShadowReason::NotShadowed,
        ..report
    };
    assert!(render_shadow_report(&quiet, 5).is_empty());
}

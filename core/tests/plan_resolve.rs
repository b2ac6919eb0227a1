//! Install plans checked against the peer specification's per-runtime tables (§7.2, §14.2,
//! §14.4) and the plan's own contract (errors, profile filtering, diagnostics).

use std::collections::BTreeMap;

use gsd_core::{
    ErrorCode, Host, Plan, PlanRequest, ProfileSelection, Registry, Scope, resolve_install_plan,
    resolve_install_plans,
};

fn request(runtime: &str, scope: Scope) -> PlanRequest {
    PlanRequest {
        runtime: runtime.into(),
        scope,
        host: Host::new("/home/u", "/work/p"),
        explicit_dir: None,
        commands: vec!["help".into(), "plan-phase".into()],
        agents: vec!["gsd-executor".into()],
        router_stems: Vec::new(),
        child_to_routers: BTreeMap::new(),
        profile: None,
    }
}

#[track_caller]
fn plan(runtime: &str, scope: Scope) -> Plan {
    resolve_install_plan(Registry::first_party(), &request(runtime, scope)).expect("plan resolves")
}

#[track_caller]
fn plan_err(req: &PlanRequest) -> gsd_core::Error {
    resolve_install_plan(Registry::first_party(), req).expect_err("plan must fail")
}

fn destinations(plan: &Plan) -> Vec<&str> {
    plan.placements.iter().map(|p| p.destination).collect()
}

#[test]
fn claude_local_installs_flat_commands_and_agents() {
    let p = plan("claude", Scope::Local);
    assert_eq!(p.scope.config_home, "/work/p/.claude");
    assert_eq!(
        p.scope.settings_file.as_deref(),
        Some("settings.local.json")
    );
    assert_eq!(
        destinations(&p),
        [
            "/work/p/.claude/commands/gsd-help.md",
            "/work/p/.claude/commands/gsd-plan-phase.md",
            "/work/p/.claude/agents/gsd-executor.md"
        ]
    );
    assert_eq!(
        p.placements.get(0).expect("placement").source,
        "commands/gsd/help.md"
    );
    assert_eq!(
        p.placements.get(2).expect("placement").source,
        "agents/gsd-executor.md"
    );
    let uninstall: Vec<&str> = p.uninstall.iter().map(|u| u.dest_dir.as_str()).collect();
    assert_eq!(
        uninstall,
        ["/work/p/.claude/commands", "/work/p/.claude/agents"]
    );
    assert_eq!(
        serde_json::to_value(&p.install_manifest).ok(),
        Some(serde_json::json!({"manifestVersion": 2, "runtime": "claude", "scope": "local"}))
    );
}

#[test]
fn claude_global_installs_skills_with_a_converter() {
    let p = plan("claude", Scope::Global);
    assert_eq!(
        p.placements.get(0).expect("placement").destination,
        "/home/u/.claude/skills/gsd-help/SKILL.md"
    );
    assert_eq!(
        p.placements
            .get(0)
            .expect("placement")
            .converter
            .map(gsd_core::vocab::ConverterName::as_str),
        Some("convertClaudeCommandToClaudeSkill")
    );
    assert_eq!(p.placements.get(2).expect("placement").converter, None);
    assert!(
        p.diagnostics.is_empty(),
        "one kind per trigger in one scope"
    );
}

#[test]
fn spec_table_destinations() {
    assert_eq!(
        plan("codex", Scope::Global).kinds[0].dest_dir,
        "/home/u/.agents/skills"
    );
    assert_eq!(
        plan("codex", Scope::Global).kinds[1].dest_dir,
        "/home/u/.codex/agents"
    );
    assert_eq!(
        plan("antigravity", Scope::Global).kinds[1].dest_dir,
        "/home/u/.gemini/config/agents"
    );
    assert_eq!(
        plan("kilo", Scope::Global).kinds[0].dest_dir,
        "/home/u/.config/kilo/command"
    );
    assert_eq!(
        plan("hermes", Scope::Local).kinds[0].dest_dir,
        "/work/p/.hermes/skills/gsd"
    );
    assert_eq!(
        plan("copilot", Scope::Local).kinds[0].dest_dir,
        "/work/p/.github/skills"
    );
    assert_eq!(
        destinations(&plan("windsurf", Scope::Local))[0],
        "/work/p/.windsurf/workflows/gsd-help.md"
    );
    assert!(plan("pi", Scope::Global).placements.is_empty());
    assert!(plan("kimi", Scope::Local).placements.is_empty());
}

#[test]
fn same_scope_commands_are_shadowed_by_skills() {
    let p = plan("augment", Scope::Global);
    assert_eq!(p.diagnostics.len(), 2, "one per command stem");
    assert!(p.diagnostics.iter().all(|d| d.code == "trigger_shadowed"));
    assert_eq!(
        p.diagnostics[0].message,
        "trigger 'gsd-help' of global commands is shadowed by global skills"
    );
}

#[test]
fn global_and_local_show_cross_scope_shadowing() {
    let set = resolve_install_plans(
        Registry::first_party(),
        &request("claude", Scope::Local),
        &[Scope::Local, Scope::Global],
    )
    .expect("plans");
    assert_eq!(set.plans.len(), 2);
    assert_eq!(set.plans[0].scope.id, Scope::Global);
    let shadowed: Vec<&str> = set
        .triggers
        .iter()
        .filter(|t| t.shadowed_by.is_some())
        .map(|t| t.dest_path)
        .collect();
    assert_eq!(
        shadowed,
        ["commands/gsd-help.md", "commands/gsd-plan-phase.md"]
    );
    assert_eq!(set.diagnostics.len(), 2);
}

#[test]
fn nested_skills_place_routed_children_under_their_router() {
    let mut req = request("cline", Scope::Global);
    req.commands = vec!["ns-review".into(), "help".into()];
    req.router_stems = vec!["ns-review".into()];
    req.child_to_routers
        .insert("help".into(), vec!["ns-review".into()]);
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(
        destinations(&p)[..2],
        [
            "/home/u/.cline/skills/gsd-ns-review/SKILL.md",
            "/home/u/.cline/skills/gsd-ns-review/skills/help/SKILL.md"
        ]
    );
    assert_eq!(
        p.triggers.get(1).expect("listed").router_trigger,
        Some("gsd-ns-review")
    );
}

#[test]
fn profile_allow_lists_filter_the_inventory() {
    let mut req = request("claude", Scope::Local);
    req.profile = Some(ProfileSelection {
        skills: Some(vec!["help".into()]),
        agents: Some(Vec::new()),
    });
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(destinations(&p), ["/work/p/.claude/commands/gsd-help.md"]);
    assert_eq!(p.triggers.len(), 1);
}

#[test]
fn explicit_dir_and_provenance() {
    let mut req = request("claude", Scope::Global);
    req.explicit_dir = Some("~/cfg".into());
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(p.scope.config_home, "/home/u/cfg");
    assert_eq!(
        serde_json::to_value(&p.scope.provenance).ok(),
        Some(serde_json::json!({"source": "explicitDir", "value": "~/cfg"}))
    );
}

#[test]
fn failures_are_typed_and_name_the_field() {
    let err = plan_err(&request("vscode", Scope::Global));
    assert_eq!(err.code(), ErrorCode::NoConfigHome);
    let err = plan_err(&request("__proto__", Scope::Global));
    assert_eq!(err.code(), ErrorCode::UnknownRuntime);
    let mut req = request("claude", Scope::Local);
    req.host.cwd = "rel".into();
    assert_eq!(plan_err(&req).field(), Some("host.cwd"));
    assert_eq!(plan_err(&req).code(), ErrorCode::InvalidHost);
    for bad in ["../x", "a/b", "", "..", "a\0b", "a\\b"] {
        let mut req = request("claude", Scope::Local);
        req.commands = vec!["help".into(), bad.into()];
        let err = plan_err(&req);
        assert_eq!(err.code(), ErrorCode::InvalidArgument, "{bad:?}");
        assert_eq!(err.field(), Some("commands[1]"), "{bad:?}");
    }
}

/// A stem carrying any default-ignorable code point (or an interlinear annotation control)
/// is refused as a zero-width space is: it would name a file and a trigger that look like
/// another. The message repeats the stem with the character replaced.
#[test]
fn stems_with_invisible_characters_are_refused() {
    for bad in [
        "help\u{200B}",
        "help\u{E0068}\u{E0069}",
        "he\u{AD}lp",
        "help\u{FE0F}",
        "\u{3164}",
        "help\u{206A}",
        "help\u{2065}",
        "help\u{34F}",
        "help\u{115F}",
        "help\u{FFF9}",
    ] {
        let mut req = request("claude", Scope::Local);
        req.commands = vec!["help".into(), bad.into()];
        let err = plan_err(&req);
        assert_eq!(err.code(), ErrorCode::InvalidArgument, "{bad:?}");
        assert_eq!(err.field(), Some("commands[1]"), "{bad:?}");
        assert!(
            !err.message().contains(bad) && err.message().contains('\u{FFFD}'),
            "{bad:?}: {}",
            err.message()
        );
    }
}

/// Spec §5.1: a routed child is copied under every owning router, and only when the profile
/// selects every router; a bounded profile stays flat and reports direct triggers.
#[test]
fn nested_children_go_under_every_owner_only_when_every_router_is_selected() {
    let mut req = request("trae", Scope::Local);
    req.commands = vec!["ns-a".into(), "ns-b".into(), "spec".into(), "help".into()];
    req.router_stems = vec!["ns-a".into(), "ns-b".into()];
    req.child_to_routers
        .insert("spec".into(), vec!["ns-a".into(), "ns-b".into()]);
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(
        destinations(&p)[..5],
        [
            "/work/p/.trae/skills/gsd-ns-a/SKILL.md",
            "/work/p/.trae/skills/gsd-ns-b/SKILL.md",
            "/work/p/.trae/skills/gsd-ns-a/skills/spec/SKILL.md",
            "/work/p/.trae/skills/gsd-ns-b/skills/spec/SKILL.md",
            "/work/p/.trae/skills/gsd-help/SKILL.md",
        ]
    );
    req.profile = Some(ProfileSelection {
        skills: Some(vec!["ns-a".into(), "spec".into()]),
        agents: None,
    });
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(
        destinations(&p)[..2],
        [
            "/work/p/.trae/skills/gsd-ns-a/SKILL.md",
            "/work/p/.trae/skills/gsd-spec/SKILL.md",
        ]
    );
    assert!(p.triggers.iter().all(|t| t.router_trigger.is_none()));
}

/// Spec §5.1 (kimi-agents stager), §14.2 (kimi root `<HOME>/.config/agents/agents`) and §12
/// (agents renamed to `agentFileExtension`).
#[test]
fn kimi_writes_a_root_agent_and_copilot_renames_agents() {
    let mut req = request("kimi", Scope::Global);
    req.agents = vec![
        "gsd-planner.compact".into(),
        "gsd-planner".into(),
        "Helper".into(),
    ];
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    let kimi: Vec<(&str, &str)> = p
        .placements
        .iter()
        .filter(|x| x.kind == gsd_core::vocab::ArtifactKindName::KimiAgents)
        .map(|x| (x.destination, x.source))
        .collect();
    assert_eq!(
        kimi,
        [
            ("/home/u/.config/agents/agents/gsd.yaml", "agents/"),
            ("/home/u/.config/agents/agents/gsd.md", "agents/"),
            (
                "/home/u/.config/agents/agents/subagents/gsd-planner.yaml",
                "agents/gsd-planner.md"
            ),
            (
                "/home/u/.config/agents/agents/subagents/gsd-planner.md",
                "agents/gsd-planner.md"
            ),
        ]
    );
    let mut req = request("copilot", Scope::Local);
    req.agents = vec!["gsd-planner".into(), "gsd-planner.compact".into()];
    let p = resolve_install_plan(Registry::first_party(), &req).expect("plan");
    assert_eq!(
        destinations(&p)[2..],
        [
            "/work/p/.github/agents/gsd-planner.agent.md",
            "/work/p/.github/agents/gsd-planner.compact.agent.md",
        ]
    );
}

/// A config directory that came out relative (an environment override or `explicitDir`)
/// installs under the working directory, for a global install too, as the peer installs:
/// the plan says so, naming the input it came from.
#[test]
fn a_relative_config_directory_is_planned_under_cwd_and_said() {
    let registry = Registry::first_party();
    let mut from_env = request("claude", Scope::Global);
    from_env
        .host
        .env
        .insert("CLAUDE_CONFIG_DIR".into(), "cfg".into());
    let mut explicit = request("claude", Scope::Global);
    explicit.explicit_dir = Some("C:\\Users\\u\\.claude".into());
    for (req, field, home) in [
        (&from_env, "host.env.CLAUDE_CONFIG_DIR", "cfg"),
        (&explicit, "explicitDir", "C:/Users/u/.claude"),
    ] {
        let p = resolve_install_plan(registry, req).expect("plan resolves");
        assert_eq!(p.scope.config_home, home);
        let resolved = format!("/work/p/{home}");
        assert!(
            destinations(&p)
                .iter()
                .all(|d| d.starts_with(&format!("{resolved}/")))
        );
        let notes: Vec<_> = p
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.field.as_deref()))
            .collect();
        assert_eq!(notes, [("config_home_relative", Some(field))], "{field}");
        assert_eq!(
            p.diagnostics[0].detail_value(),
            Some(serde_json::json!({ "configHome": home, "resolved": resolved }))
        );
    }
    // An absolute one, and the default, say nothing.
    let mut absolute = request("claude", Scope::Global);
    absolute.explicit_dir = Some("/cfg".into());
    assert!(
        resolve_install_plan(registry, &absolute)
            .unwrap()
            .diagnostics
            .is_empty()
    );
    assert!(plan("claude", Scope::Global).diagnostics.is_empty());
}

/// A path in a plan warning is shown whole, as an error message shows it (a long path's
/// tail is what it is about), with every control character made harmless.
#[test]
fn a_plan_warning_shows_a_long_path_whole_and_harmless() {
    let registry = Registry::first_party();
    let long = format!("{}/cfg\u{1b}[31m", "d".repeat(120));
    let mut req = request("claude", Scope::Global);
    req.host
        .env
        .insert("CLAUDE_CONFIG_DIR".into(), long.clone());
    let p = resolve_install_plan(registry, &req).expect("plan resolves");
    let shown = format!("{}/cfg\u{FFFD}[31m", "d".repeat(120));
    assert_eq!(
        p.diagnostics[0].message,
        format!(
            "the config directory \"{shown}\" is relative: the install goes under the working directory, into \"/work/p/{shown}\""
        )
    );
}

/// An explicit config directory holds what the runtime roots in its config directory; a
/// kind its layout roots in the home directory still goes there, as the peer installs it,
/// and the plan says so for each such kind. The three are the global layout entries with a
/// `home` root in the peer's registry (`plan.test.mjs` compares every runtime with the
/// peer's layout).
#[test]
fn kinds_an_explicit_directory_does_not_hold_are_said() {
    let registry = Registry::first_party();
    let mut said = Vec::new();
    for runtime in registry.runtime_ids() {
        let mut req = request(runtime, Scope::Global);
        req.explicit_dir = Some("/tmp/sandbox".into());
        let Ok(p) = resolve_install_plan(registry, &req) else {
            continue;
        };
        for d in p
            .diagnostics
            .iter()
            .filter(|d| d.code == "placement_outside_explicit_dir")
        {
            assert_eq!(d.field.as_deref(), Some("explicitDir"));
            let detail = d.detail_value().unwrap();
            said.push(format!(
                "{runtime} {} {}",
                detail["kind"], detail["destDir"]
            ));
        }
    }
    assert_eq!(
        said,
        [
            r#"antigravity "skills" "/home/u/.gemini/config/skills""#,
            r#"antigravity "agents" "/home/u/.gemini/config/agents""#,
            r#"codex "skills" "/home/u/.agents/skills""#,
        ]
    );
}

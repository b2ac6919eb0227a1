//! The installed-surface resolver against the rules of the peer specification (§8.2).

use gsd_core::{
    ConfigHomeFacts, Host, Registry, Scope, SurfaceFacts, probe_requests,
    resolve_installed_surfaces,
};

fn host() -> Host {
    Host::new("/home/u", "/work/p")
}

fn with(home: &str, text: &str) -> SurfaceFacts {
    let mut facts = SurfaceFacts::default();
    facts.homes.insert(
        home.into(),
        ConfigHomeFacts {
            manifest: Some(text.into()),
            ..ConfigHomeFacts::default()
        },
    );
    facts
}

#[test]
fn nested_skills_contribute_only_the_router_stem() {
    let text = r#"{"files":{"skills/gsd-ns-x/skills/plan-phase/SKILL.md":"0","skills/gsd-ns-x/SKILL.md":"0","skills/gsd-help/a.md":"0","skills/gsd-help/b.md":"0"}}"#;
    let out = resolve_installed_surfaces(
        Registry::first_party(),
        Some("qwen"),
        &host(),
        &with("/home/u/.qwen", text),
    )
    .expect("qwen");
    let global = &out.surfaces[0].scopes[0];
    assert_eq!((global.scope, global.installed), (Scope::Global, true));
    assert_eq!(global.stems, ["help", "ns-x"]);
    // v1 manifest: version 1, nothing declared, nothing to compare.
    assert_eq!(
        global
            .manifest_version
            .as_ref()
            .and_then(serde_json::Number::as_u64),
        Some(1)
    );
    assert_eq!(
        (
            global.declared_runtime_matches_probe,
            global.declared_scope_matches_probe
        ),
        (None, None)
    );
}

#[test]
fn symlinks_are_not_followed() {
    let text = r#"{"manifestVersion":2,"files":{"skills/gsd-help/SKILL.md":"0"}}"#;
    for facts in [
        ConfigHomeFacts {
            config_home_is_symlink: true,
            manifest: Some(text.into()),
            ..ConfigHomeFacts::default()
        },
        ConfigHomeFacts {
            manifest_is_symlink: true,
            manifest: Some(text.into()),
            ..ConfigHomeFacts::default()
        },
    ] {
        let mut all = SurfaceFacts::default();
        all.homes.insert("/home/u/.codex".into(), facts);
        all.homes
            .insert("/work/p/.codex".into(), ConfigHomeFacts::default());
        let out = resolve_installed_surfaces(Registry::first_party(), Some("codex"), &host(), &all)
            .expect("codex");
        let global = &out.surfaces[0].scopes[0];
        assert!(!global.installed && global.stems.is_empty() && global.manifest_version.is_none());
        assert!(out.surfaces[0].triggers.is_empty());
        assert_eq!(out.diagnostics[0].code, "install_surface_symlink");
    }
}

#[test]
fn one_config_home_for_both_scopes_resolves_triggers_once() {
    // home == cwd: both scopes probe the same directory; the global one is kept for triggers.
    let same = Host::new("/h", "/h");
    let text = r#"{"manifestVersion":2,"files":{"skills/gsd-help/SKILL.md":"0"}}"#;
    let out = resolve_installed_surfaces(
        Registry::first_party(),
        Some("codex"),
        &same,
        &with("/h/.codex", text),
    )
    .expect("codex");
    let surface = &out.surfaces[0];
    assert!(
        surface
            .scopes
            .iter()
            .all(|s| s.installed && s.config_home == "/h/.codex")
    );
    assert_eq!(surface.triggers.len(), 1);
    assert_eq!(
        (
            surface.triggers.get(0).expect("listed").scope,
            surface.triggers.get(0).expect("listed").shadowed_by
        ),
        (Scope::Global, None)
    );
}

#[test]
fn the_sweep_skips_vscode_and_a_named_vscode_fails() {
    let reg = Registry::first_party();
    let out =
        resolve_installed_surfaces(reg, None, &host(), &SurfaceFacts::default()).expect("sweep");
    let ids: Vec<&str> = out.surfaces.iter().map(|s| s.runtime.as_str()).collect();
    assert_eq!(ids.len(), 18);
    assert!(!ids.contains(&"vscode") && ids.windows(2).all(|w| w[0] < w[1]));
    // Facts were missing for every home: each probed home says so once.
    assert_eq!(
        out.diagnostics.len(),
        probe_requests(reg, None, &host()).expect("probes").len()
    );
    let err = resolve_installed_surfaces(reg, Some("vscode"), &host(), &SurfaceFacts::default())
        .expect_err("vscode");
    assert_eq!(err.code(), gsd_core::ErrorCode::NoConfigHome);
}

#[test]
fn a_corrupt_manifest_reads_as_not_installed_with_a_diagnostic() {
    let out = resolve_installed_surfaces(
        Registry::first_party(),
        Some("codex"),
        &host(),
        &with("/home/u/.codex", "{\"files\":"),
    )
    .expect("codex");
    assert!(!out.surfaces[0].scopes[0].installed);
    let corrupt = out
        .diagnostics
        .iter()
        .find(|d| d.code == "install_manifest_corrupt")
        .expect("diagnostic");
    assert_eq!(
        corrupt
            .detail_value()
            .as_ref()
            .and_then(|d| d.get("configHome"))
            .and_then(|v| v.as_str()),
        Some("/home/u/.codex")
    );
}

/// A manifest that is there but could not be read (a directory, a FIFO, no permission)
/// reads as not installed, as the peer reads it, and the reason is said, cleaned.
#[test]
fn an_unreadable_manifest_reads_as_not_installed_and_says_why() {
    let mut facts = SurfaceFacts::default();
    facts.homes.insert(
        "/home/u/.codex".into(),
        ConfigHomeFacts {
            manifest_unreadable: Some("a directory\u{1b}[31m".into()),
            ..ConfigHomeFacts::default()
        },
    );
    let out = resolve_installed_surfaces(Registry::first_party(), Some("codex"), &host(), &facts)
        .expect("codex");
    assert!(!out.surfaces[0].scopes[0].installed);
    let said: Vec<_> = out
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code.as_str(),
                d.severity,
                d.field.as_deref(),
                d.message.as_str(),
                d.detail_value(),
            )
        })
        .collect();
    assert_eq!(
        said[0],
        (
            "install_manifest_unreadable",
            gsd_core::Severity::Warning,
            Some("gsd-file-manifest.json"),
            "the install manifest cannot be read (a directory\u{FFFD}); read as not installed",
            Some(
                serde_json::json!({ "configHome": "/home/u/.codex", "reason": "a directory\u{1b}[31m" })
            )
        )
    );
    // Facts as data spell it `manifestUnreadable`; absent, it is not written back.
    let text = serde_json::to_string(&facts).expect("facts serialize");
    assert_eq!(
        text,
        r#"{"homes":{"/home/u/.codex":{"configHomeIsSymlink":false,"manifestIsSymlink":false,"manifest":null,"manifestUnreadable":"a directory\u001b[31m"}}}"#
    );
    let back: SurfaceFacts = serde_json::from_str(&text).expect("facts read back");
    assert_eq!(back, facts);
    assert!(
        !serde_json::to_string(&ConfigHomeFacts::default())
            .unwrap()
            .contains("manifestUnreadable")
    );
}

#[test]
fn host_probe_paths_list_the_probe_candidates_first() {
    // §3.1 dot-home-nested with probeExists: markers of every candidate, then the candidates.
    let paths = gsd_core::host_probe_paths(Registry::first_party(), Some("antigravity"), &host())
        .expect("paths");
    assert_eq!(
        paths,
        [
            "/home/u/.gemini/antigravity/gsd-core/VERSION",
            "/home/u/.gemini/antigravity-ide/gsd-core/VERSION",
            "/home/u/.gemini/antigravity-cli/gsd-core/VERSION",
            "/home/u/.gemini/antigravity",
            "/home/u/.gemini/antigravity-ide",
            "/home/u/.gemini/antigravity-cli",
        ]
    );
    // With a candidate present, the config home (and so the manifest probed) moves.
    let mut on_disk = host();
    on_disk
        .existing_paths
        .insert("/home/u/.gemini/antigravity-cli".into());
    let homes =
        probe_requests(Registry::first_party(), Some("antigravity"), &on_disk).expect("probes");
    assert_eq!(homes[0].config_home, "/home/u/.gemini/antigravity-cli");
    let sweep = gsd_core::host_probe_paths(Registry::first_party(), None, &host()).expect("sweep");
    assert!(
        sweep.contains(&"/home/u/.agents/skills".to_owned()),
        "kimi's marker probe"
    );
}

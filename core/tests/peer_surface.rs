//! Parity with the live peer for the install manifest reader and writer, the installed-surface
//! resolver, the shadow report, its renderer and `sanitizeForRender`.
//!
//! Every expected value is the peer's answer on the same input (`peer/surface.cjs`). The
//! deliberate differences (the reader's size and depth bounds) are asserted by name at the end.

#[path = "peer_surface/corpus.rs"]
mod corpus;
mod util;

use std::collections::{BTreeMap, BTreeSet};

use corpus::{
    Machine, acme_registry, files_for, hand_built_reports, key_order, machines, manifest,
    manifest_texts, tricky_strings,
};
use gsd_core::install_manifest::{MAX_MANIFEST_BYTES, MAX_MANIFEST_DEPTH};
use gsd_core::shadow::{DEFAULT_SAMPLE_LIMIT, ShadowSide};
use gsd_core::vocab::TriggerKind;
use gsd_core::{
    ConfigHomeFacts, Host, InstallManifestDocument, ManifestMode, Registry, Scope, SurfaceFacts,
    build_shadow_report, probe_requests, read_install_manifest, read_install_manifest_bytes,
    render_shadow_report, resolve_installed_surfaces, sanitize_for_render,
};
use serde_json::{Value, json};

#[test]
fn read_install_manifest_equals_the_peer() {
    let texts = manifest_texts();
    let peer = util::peer_eval("surface.cjs", &json!({ "manifests": texts }));
    let answers = peer["manifests"].as_array().expect("manifests");
    assert_eq!(answers.len(), texts.len());
    let mut compared = 0;
    for (text, answer) in texts.iter().zip(answers) {
        let ours = serde_json::to_value(read_install_manifest(text.as_deref()).manifest)
            .expect("serialize");
        let shown: String = text
            .as_deref()
            .unwrap_or("<absent>")
            .chars()
            .take(120)
            .collect();
        assert_eq!(ours, answer["value"], "value for {shown:?}");
        let mut order = Vec::new();
        key_order(&ours, "$", &mut order);
        assert_eq!(
            Value::Array(order),
            answer["order"],
            "key order for {shown:?}"
        );
        compared += 1;
    }
    println!("readInstallManifest: {compared} manifest texts compared with the peer");
    assert!(compared >= 40);
}

#[test]
fn read_install_manifest_bytes_decodes_invalid_utf8_as_node_does() {
    let cases: Vec<Vec<u8>> = [
        &b"{\"runtime\":\"cl\xffaude\",\"manifestVersion\":2}"[..],
        b"{\"runtime\":\"a\xe2\x82\",\"scope\":\"local\"}",
        b"{\"runtime\":\"\xc0\xaf\xed\xa0\x80\xf0\x9f\x98\"}",
        b"{\"runtime\":\"\x80\xbf\xf8\x88\x80\x80\x80\"}",
        b"\xef\xbb\xbf{\"runtime\":\"x\"}",
        b"{\"files\":{\"skills/gsd-\xfe/SKILL.md\":\"0\"}}",
    ]
    .iter()
    .map(|b| b.to_vec())
    .collect();
    let peer = util::peer_eval("surface.cjs", &json!({ "manifestBytes": cases }));
    for (bytes, want) in cases
        .iter()
        .zip(peer["manifestBytes"].as_array().expect("answers"))
    {
        let ours = read_install_manifest_bytes(Some(bytes)).manifest;
        assert_eq!(
            serde_json::to_value(ours).expect("json"),
            *want,
            "{bytes:?}"
        );
    }
}

#[test]
fn installed_surfaces_and_shadow_reports_equal_the_peer() {
    let registry = Registry::first_party();
    let machines = machines(registry);
    let requests: Vec<Value> = machines.iter().map(Machine::request).collect();
    let peer = util::peer_eval("surface.cjs", &json!({ "machines": requests }));
    let answers = peer["machines"].as_array().expect("machines");
    assert_eq!(answers.len(), machines.len());
    let (mut surfaces, mut reports, mut lines, mut shadowed) = (0, 0, 0, 0);
    for (m, answer) in machines.iter().zip(answers) {
        let label = &m.label;
        match resolve_installed_surfaces(registry, m.runtime.as_deref(), &m.host, &m.facts) {
            Ok(ours) => {
                assert_eq!(
                    serde_json::to_value(&ours.surfaces).expect("json"),
                    answer["surfaces"],
                    "surfaces: {label}"
                );
            }
            Err(error) => {
                assert_eq!(
                    answer["surfaces"]["error"]["name"], "TypeError",
                    "{label}: we failed with {error:?}"
                );
            }
        }
        surfaces += 1;
        let Some(runtime) = m.runtime.as_deref() else {
            continue;
        };
        let report = build_shadow_report(registry, runtime, &m.host, &m.facts).expect("report");
        assert_eq!(
            serde_json::to_value(&report).expect("json"),
            answer["report"],
            "report: {label}"
        );
        reports += 1;
        shadowed += usize::from(report.shadowed);
        for (limit, want) in [0, 1, DEFAULT_SAMPLE_LIMIT, 100]
            .into_iter()
            .zip(answer["lines"].as_array().expect("lines"))
        {
            assert_eq!(
                json!(render_shadow_report(&report, limit)),
                *want,
                "lines (limit {limit}): {label}"
            );
            lines += 1;
        }
    }
    println!(
        "installed surfaces: {surfaces} machines, {reports} shadow reports ({shadowed} shadowed), {lines} renderings compared with the peer"
    );
    assert!(shadowed > 20, "the corpus must exercise shadowing");
}

#[test]
fn the_2218_case_and_same_scope_case_read_as_the_peer_words_them() {
    // Spelled out for the two cases ADR-2866 names; values are the peer's answer.
    let registry = Registry::first_party();
    let host = Host::new("/home/u", "/work/proj");
    let mut machines = Vec::new();
    for (id, both) in [("claude", true), ("codebuddy", false)] {
        let mut facts = SurfaceFacts::default();
        let global = format!("/home/u/.{id}");
        facts.homes.insert(
            global,
            ConfigHomeFacts {
                manifest: Some(manifest(
                    id,
                    "global",
                    files_for(registry, id, Scope::Global, &["help"]),
                )),
                ..ConfigHomeFacts::default()
            },
        );
        if both {
            facts.homes.insert(
                format!("/work/proj/.{id}"),
                ConfigHomeFacts {
                    manifest: Some(manifest(
                        id,
                        "local",
                        files_for(registry, id, Scope::Local, &["help"]),
                    )),
                    ..ConfigHomeFacts::default()
                },
            );
        }
        machines.push(Machine {
            label: id.into(),
            runtime: Some(id.into()),
            host: host.clone(),
            facts,
        });
    }
    let requests: Vec<Value> = machines.iter().map(Machine::request).collect();
    let peer = util::peer_eval("surface.cjs", &json!({ "machines": requests }));
    for (m, answer) in machines
        .iter()
        .zip(peer["machines"].as_array().expect("machines"))
    {
        let report = build_shadow_report(
            registry,
            m.runtime.as_deref().unwrap_or_default(),
            &m.host,
            &m.facts,
        )
        .expect("report");
        let ours = render_shadow_report(&report, DEFAULT_SAMPLE_LIMIT);
        assert_eq!(json!(ours), answer["lines"][2], "{}", m.label);
        let headline = ours.first().cloned().unwrap_or_default();
        if m.label == "claude" {
            assert!(
                report.kinds_differ && headline.contains("unreachable"),
                "{headline}"
            );
        } else {
            // Same scope, different kinds: every global command is hidden by the global skill.
            let side = (report.shadowed_side, report.winner);
            assert_eq!(
                side,
                (
                    Some(ShadowSide {
                        kind: TriggerKind::Commands,
                        scope: Scope::Global
                    }),
                    Some(ShadowSide {
                        kind: TriggerKind::Skills,
                        scope: Scope::Global
                    })
                )
            );
            assert!(
                headline.contains("the global commands surface"),
                "{headline}"
            );
        }
    }
}

#[test]
fn unknown_runtimes_and_vscode_fail_as_the_peer_does() {
    let registry = Registry::first_party();
    let host = Host::new("/home/u", "/work/proj");
    for id in ["vscode", "nope", "", "__proto__", " claude"] {
        let request = json!({ "runtime": id, "home": "/home/u", "cwd": "/work/proj", "env": {}, "existing": [], "homes": {} });
        let peer = util::peer_eval("surface.cjs", &json!({ "machines": [request] }));
        let answer = &peer["machines"][0];
        assert_eq!(answer["surfaces"]["error"]["name"], "TypeError", "{id:?}");
        let error = resolve_installed_surfaces(registry, Some(id), &host, &SurfaceFacts::default())
            .expect_err(id);
        assert!(
            matches!(
                error.code(),
                gsd_core::ErrorCode::UnknownRuntime | gsd_core::ErrorCode::NoConfigHome
            ),
            "{id:?}"
        );
        let report =
            build_shadow_report(registry, id, &host, &SurfaceFacts::default()).expect("report");
        assert_eq!(
            serde_json::to_value(&report).expect("json"),
            answer["report"],
            "{id:?}"
        );
    }
}

#[test]
fn sanitize_for_render_equals_the_peer() {
    let mut strings = tricky_strings();
    // Invisible characters beyond the peer's set, alone and between words.
    for c in [
        '\u{AD}',
        '\u{34F}',
        '\u{115F}',
        '\u{3164}',
        '\u{FE0F}',
        '\u{FFF9}',
        '\u{E0041}',
    ] {
        strings.push(format!("cl{c}aude x"));
        strings.push(format!("{c} a {c}"));
    }
    let peer = util::peer_eval("surface.cjs", &json!({ "sanitize": strings }));
    let answers = peer["sanitize"].as_array().expect("sanitize");
    // Deliberate difference: we also remove the bidi marks U+061C, U+200E and U+200F and
    // the invisible (default-ignorable) characters the peer's set misses; the peer keeps
    // them. (The ones it removes or collapses itself never reach its answer.)
    let beyond_peer = util::is_invisible;
    for (s, want) in strings.iter().zip(answers) {
        let ours = sanitize_for_render(s);
        let peer = want.as_str().expect("peer string");
        let expected: String = peer.chars().filter(|&c| !beyond_peer(c)).collect();
        let expected = expected
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let expected = if peer.chars().any(beyond_peer) {
            expected
        } else {
            peer.to_owned()
        };
        assert_eq!(ours, expected, "{s:?}");
        assert_eq!(sanitize_for_render(&ours), ours, "idempotent for {s:?}");
    }
    println!(
        "sanitizeForRender: {} strings compared with the peer",
        strings.len()
    );
}

#[test]
fn render_shadow_report_equals_the_peer_on_hand_built_reports() {
    let cases = hand_built_reports();
    let requests: Vec<Value> = cases
        .iter()
        .map(|(r, limit)| json!({ "report": r, "sampleLimit": limit }))
        .collect();
    let peer = util::peer_eval("surface.cjs", &json!({ "renders": requests }));
    for ((report, limit), want) in cases
        .iter()
        .zip(peer["renders"].as_array().expect("renders"))
    {
        assert_eq!(
            json!(render_shadow_report(
                report,
                limit.unwrap_or(DEFAULT_SAMPLE_LIMIT)
            )),
            *want,
            "{report:?}"
        );
    }
}

#[test]
fn the_v2_document_equals_what_the_peer_installer_writes() {
    let writes = json!([
        { "runtime": "claude", "mode": "minimal", "scope": "local", "files": [["gsd-core/b.md", "b"], ["gsd-core/a/x.md", "x"], ["gsd-core/USER-PROFILE.md", "u"], ["commands/gsd-help.md", "h"]] },
        { "runtime": "codex", "mode": "full", "scope": "global", "files": [["gsd-core/VERSION", "1"]] },
        { "runtime": "opencode", "mode": "full", "scope": "weird", "files": [] },
    ]);
    let peer = util::peer_eval("surface.cjs", &json!({ "writes": writes }));
    for text in peer["writes"].as_array().expect("writes") {
        let text = text.as_str().expect("text");
        let value: Value = serde_json::from_str(text).expect("peer wrote JSON");
        let files = value["files"]
            .as_object()
            .expect("files")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()));
        let mode = if value["mode"] == "minimal" {
            ManifestMode::Minimal
        } else {
            ManifestMode::Full
        };
        let scope = if value["scope"] == "local" {
            Scope::Local
        } else {
            Scope::Global
        };
        let ours = InstallManifestDocument::new(
            value["version"].as_str().unwrap_or_default(),
            value["timestamp"].as_str().unwrap_or_default(),
            mode,
            value["runtime"].as_str().unwrap_or_default(),
            scope,
            files,
        );
        assert_eq!(ours.to_json(), text);
        assert_reads_back(&ours, scope);
    }
}

#[test]
fn the_v2_document_orders_its_files_as_a_javascript_object_does() {
    // Paths that are array indexes come first, in ascending order; a repeated path keeps
    // its first place and its last hash. Asked of JavaScript itself.
    let lists = json!([
        [
            ["b.md", "1"],
            ["2", "2"],
            ["10", "3"],
            ["01", "4"],
            ["1", "5"],
            ["b.md", "6"],
            ["4294967295", "7"],
            ["4294967294", "8"],
            ["-1", "9"],
            ["0", "10"]
        ],
        [["z", "1"], ["a", "2"], ["z", "3"]],
        [],
    ]);
    let js = util::peer_eval("surface.cjs", &json!({ "assigns": lists }));
    let answers = js["assigns"].as_array().expect("assigns");
    assert_eq!(answers.len(), 3);
    for (pairs, answer) in lists.as_array().expect("lists").iter().zip(answers) {
        let files = pairs.as_array().expect("pairs").iter().map(|pair| {
            (
                pair[0].as_str().unwrap_or_default().to_owned(),
                pair[1].as_str().unwrap_or_default().to_owned(),
            )
        });
        let ours = InstallManifestDocument::new(
            "1.14.0",
            "t",
            ManifestMode::Full,
            "claude",
            Scope::Global,
            files,
        );
        assert_eq!(json!(ours.files), *answer);
        assert_reads_back(&ours, Scope::Global);
    }
}

/// What we write, we read back as installed (version 2) at the declared scope, with the
/// files in the order written.
fn assert_reads_back(ours: &InstallManifestDocument, scope: Scope) {
    let back = read_install_manifest(Some(&ours.to_json())).manifest;
    let read: Vec<&str> = back
        .files
        .as_object()
        .expect("files")
        .keys()
        .map(String::as_str)
        .collect();
    let written: Vec<&str> = ours.files.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(read, written);
    assert_eq!(
        (back.manifest_version.and_then(|v| v.as_u64()), back.scope),
        (Some(2), Some(scope))
    );
}

#[test]
fn deliberate_difference_the_reader_is_bounded() {
    // The peer parses any depth and any size; we stop at MAX_MANIFEST_DEPTH and
    // MAX_MANIFEST_BYTES and read "not installed" with a diagnostic (docs/surfaces.md).
    let deep = format!(
        "{{\"files\":{}{}}}",
        "[".repeat(MAX_MANIFEST_DEPTH),
        "]".repeat(MAX_MANIFEST_DEPTH)
    );
    let peer = util::peer_eval("surface.cjs", &json!({ "manifests": [deep] }));
    assert_eq!(
        peer["manifests"][0]["value"]["manifestVersion"],
        json!(1),
        "the peer reads a deep manifest as installed"
    );
    let ours = read_install_manifest(Some(&deep));
    assert_eq!(ours.manifest.manifest_version, None);
    assert_eq!(ours.diagnostics[0].code, "install_manifest_too_deep");

    // Refused by its length, before parsing: the text is also cut short (invalid JSON),
    // which is not what is reported. (The cost is measured by the `bounded` bench.)
    let huge = format!(
        "{{\"files\":{{}},\"pad\":\"{}",
        "x".repeat(64 * 1024 * 1024)
    );
    let ours = read_install_manifest(Some(&huge));
    assert_eq!(ours.manifest.manifest_version, None);
    assert_eq!(ours.diagnostics[0].code, "install_manifest_too_large");
    assert!(huge.len() > MAX_MANIFEST_BYTES);
    // A reader stops one byte past the bound, so the size said is a floor.
    assert_eq!(
        ours.diagnostics[0].message,
        format!(
            "install manifest holds at least {} bytes, more than the 16777216 read; treated as not installed",
            huge.len()
        )
    );
}

#[test]
fn probe_requests_name_each_config_home_once() {
    let registry = Registry::first_party();
    let host = Host::new("/home/u", "/work/proj");
    let probes = probe_requests(registry, None, &host).expect("probes");
    let homes: BTreeSet<&str> = probes.iter().map(|p| p.config_home.as_str()).collect();
    assert_eq!(homes.len(), probes.len(), "each config home once");
    // 18 installable runtimes × 2 scopes, minus kimi's local `.kimi-code` shared with kimi-code.
    assert_eq!(probes.len(), 35);
    let claude: BTreeMap<&str, &str> = probe_requests(registry, Some("claude"), &host)
        .expect("claude")
        .iter()
        .map(|p| (p.config_home.as_str(), p.manifest_path.as_str()))
        .map(|(a, b)| {
            (
                Box::leak(a.to_owned().into_boxed_str()) as &str,
                Box::leak(b.to_owned().into_boxed_str()) as &str,
            )
        })
        .collect();
    assert_eq!(
        claude,
        BTreeMap::from([
            ("/home/u/.claude", "/home/u/.claude/gsd-file-manifest.json"),
            (
                "/work/proj/.claude",
                "/work/proj/.claude/gsd-file-manifest.json"
            ),
        ])
    );
}

#[test]
fn deliberate_difference_overlay_runtimes_resolve() {
    // The peer resolves config homes against its own first-party registry even when a
    // registry is injected, so an overlay runtime is "unknown" to its resolver. We resolve
    // it (docs/surfaces.md); first-party runtimes read the same under the overlay registry.
    let registry = acme_registry();
    assert!(
        registry.runtime("acme").is_some(),
        "{:?}",
        registry.diagnostics()
    );
    let host = Host::new("/home/u", "/work/proj");
    let machine = |id: &str| {
        let mut facts = SurfaceFacts::default();
        for (home, scope) in [
            (format!("/home/u/.{id}"), Scope::Global),
            (format!("/work/proj/.{id}"), Scope::Local),
        ] {
            let text = manifest(
                id,
                scope.as_str(),
                files_for(&registry, id, scope, &["help", "plan"]),
            );
            facts.homes.insert(
                home,
                ConfigHomeFacts {
                    manifest: Some(text),
                    ..ConfigHomeFacts::default()
                },
            );
        }
        Machine {
            label: id.into(),
            runtime: Some(id.into()),
            host: host.clone(),
            facts,
        }
    };
    let machines = [machine("acme"), machine("claude")];
    let requests: Vec<Value> = machines
        .iter()
        .map(|m| {
            let mut request = m.request();
            request["registry"] = registry.to_peer_json();
            request
        })
        .collect();
    let peer = util::peer_eval("surface.cjs", &json!({ "machines": requests }));
    let answers = peer["machines"].as_array().expect("machines");

    assert_eq!(
        answers[0]["surfaces"]["error"]["name"], "TypeError",
        "the peer cannot resolve acme"
    );
    assert_eq!(answers[0]["report"]["reason"], "resolver_unavailable");
    let ours = build_shadow_report(&registry, "acme", &host, &machines[0].facts).expect("report");
    // Scope rank decides before kind precedence: global skills beat local commands.
    assert_eq!(
        ours.triggers
            .iter()
            .map(|t| t.trigger.as_str())
            .collect::<Vec<_>>(),
        ["acme-help", "acme-plan"]
    );
    assert_eq!(
        ours.winner,
        Some(ShadowSide {
            kind: TriggerKind::Skills,
            scope: Scope::Global
        })
    );
    assert_eq!(
        ours.shadowed_side,
        Some(ShadowSide {
            kind: TriggerKind::Commands,
            scope: Scope::Local
        })
    );

    let claude = resolve_installed_surfaces(&registry, Some("claude"), &host, &machines[1].facts)
        .expect("claude");
    assert_eq!(
        serde_json::to_value(&claude.surfaces).expect("json"),
        answers[1]["surfaces"]
    );
    let report =
        build_shadow_report(&registry, "claude", &host, &machines[1].facts).expect("report");
    assert_eq!(
        serde_json::to_value(&report).expect("json"),
        answers[1]["report"]
    );
}

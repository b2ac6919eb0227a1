//! Placements against the live peer: for every runtime × scope × profile (`full`,
//! `standard`, `core`), the set of absolute destinations of our plan equals
//! * the files the peer's staging (`createRuntimeArtifactInstallPlan` over the package's own
//!   commands and agents) hands to its installer, named as the installer's copy step names
//!   them, and
//! * the files the peer's real installer (`installRuntimeArtifacts`, which takes the
//!   OpenCode/Kilo family through its own writers) leaves under each kind's directory.
//!
//! The inventory is the peer package itself: command stems from `commands/gsd/*.md`, agent
//! stems from `agents/*.md` (compact variants included), the router structure derived by
//! [`gsd_core::derive_routers`] from the `ns-*` router bodies, and the profile selection the
//! peer's `resolveProfile` returns.
//!
//! Deliberate difference: `vscode` has `configHome.kind: none`; the peer lays out nothing
//! for it (empty layout) while we refuse to plan it (`NO_CONFIG_HOME`, before any explicit
//! directory). The test asserts both halves of that difference.

mod util;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use gsd_core::profile::CommandSource;
use gsd_core::{
    ErrorCode, Host, PlanCounts, PlanRequest, ProfileSelection, Registry, Scope,
    decide_install_plan, derive_routers, resolve_install_plan,
};
use serde_json::{Value, json};

fn peer() -> &'static Value {
    static PEER: OnceLock<Value> = OnceLock::new();
    PEER.get_or_init(|| {
        util::peer_eval(
            "placements.cjs",
            &json!({ "profiles": ["full", "standard", "core"] }),
        )
    })
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("peer case lacks string {key}: {value}"))
}

/// Our request for one peer case, built from the peer's own inventory and profile.
fn request_for(case: &Value) -> PlanRequest {
    let package = &peer()["package"];
    let routers: Vec<CommandSource> = package["routers"]
        .as_object()
        .expect("router bodies")
        .iter()
        .map(|(stem, body)| CommandSource {
            stem: stem.clone(),
            body: body.as_str().unwrap_or_default().to_owned(),
        })
        .collect();
    let routers = derive_routers(&routers);
    let profile = &peer()["profiles"][text(case, "profile")];
    let selection = (!profile["skills"].is_null()).then(|| ProfileSelection {
        skills: Some(strings(&profile["skills"])),
        agents: Some(strings(&profile["agents"])),
    });
    PlanRequest {
        runtime: text(case, "runtime").to_owned(),
        scope: Scope::parse(text(case, "scope")).expect("peer scope"),
        host: Host::new(text(case, "home"), text(case, "cwd")),
        explicit_dir: Some(text(case, "configDir").to_owned()),
        commands: strings(&package["commands"]),
        agents: strings(&package["agents"]),
        router_stems: routers.router_stems,
        child_to_routers: routers.child_to_routers,
        profile: selection,
    }
}

fn label(case: &Value) -> String {
    format!(
        "{} {} {}",
        text(case, "runtime"),
        text(case, "scope"),
        text(case, "profile")
    )
}

#[test]
fn the_peer_inventory_is_the_real_package() {
    let package = &peer()["package"];
    let commands = strings(&package["commands"]);
    let agents = strings(&package["agents"]);
    assert_eq!(commands.len(), 72, "commands/gsd/*.md of 1.14.0");
    assert_eq!(
        agents.len(),
        64,
        "agents/*.md of 1.14.0, compact variants included"
    );
    assert!(agents.contains(&"gsd-planner".to_owned()));
    assert!(agents.contains(&"gsd-ui-checker.compact".to_owned()));
    let routers: Vec<&String> = package["routers"]
        .as_object()
        .expect("routers")
        .keys()
        .collect();
    assert_eq!(
        routers,
        [
            "ns-context",
            "ns-ideate",
            "ns-manage",
            "ns-project",
            "ns-review",
            "ns-workflow"
        ]
    );
}

/// Compares our plan for `request` with one peer destination set; `kind_dirs` (the plan
/// items' `(kind, destDir)`) when the peer reported them. Returns the differences found.
fn compare(
    what: &str,
    request: &PlanRequest,
    theirs: &BTreeSet<String>,
    kind_dirs: Option<&[(String, String)]>,
) -> Vec<String> {
    let plan = match resolve_install_plan(Registry::first_party(), request) {
        Ok(plan) => plan,
        Err(err) if request.runtime == "vscode" => {
            // Deliberate difference (module doc): the peer lays out nothing.
            assert_eq!(err.code(), ErrorCode::NoConfigHome, "{what}");
            assert!(theirs.is_empty(), "{what}: peer places {theirs:?}");
            return Vec::new();
        }
        Err(err) => return vec![format!("{what}: our plan failed: {err}")],
    };
    let mut differences = Vec::new();
    let ours: Vec<&str> = plan.placements.iter().map(|p| p.destination).collect();
    let our_set: BTreeSet<String> = ours.iter().map(|d| (*d).to_owned()).collect();
    if our_set.len() != ours.len() {
        differences.push(format!("{what}: duplicate destinations in our plan"));
    }
    let our_dirs: Vec<(String, String)> = plan
        .kinds
        .iter()
        .map(|k| (k.kind.as_str().to_owned(), k.dest_dir.clone()))
        .collect();
    if kind_dirs.is_some_and(|dirs| dirs != our_dirs.as_slice()) {
        differences.push(format!(
            "{what}: kind directories differ: ours {our_dirs:?}, peer {kind_dirs:?}"
        ));
    }
    if &our_set != theirs {
        let missing: Vec<_> = theirs.difference(&our_set).take(5).collect();
        let extra: Vec<_> = our_set.difference(theirs).take(5).collect();
        differences.push(format!(
            "{what}: {} ours vs {} peer; missing {missing:?}; extra {extra:?}",
            our_set.len(),
            theirs.len()
        ));
    }
    differences
}

/// Two peer views per case: the staged plan items named as the copy step names them, and
/// the files the real `installRuntimeArtifacts` left under each kind's directory (in a
/// config directory and home of its own).
#[test]
fn every_case_places_exactly_what_the_peer_installs() {
    let cases = peer()["cases"].as_array().expect("cases");
    assert_eq!(
        cases.len(),
        Registry::first_party().runtime_ids().count() * 2 * 3,
        "19 runtimes × 2 scopes × 3 profiles"
    );
    let mut matched = 0;
    let mut differences = Vec::new();
    for case in cases {
        assert_eq!(
            case["ok"],
            true,
            "peer staging failed for {}: {case}",
            label(case)
        );
        let items = case["items"].as_array().expect("items");
        let staged: BTreeSet<String> = items
            .iter()
            .flat_map(|i| strings(&i["installed"]))
            .collect();
        let kind_dirs: Vec<(String, String)> = items
            .iter()
            .map(|i| (text(i, "kind").to_owned(), text(i, "destDir").to_owned()))
            .collect();
        let mut found = compare(
            &format!("{} (staged)", label(case)),
            &request_for(case),
            &staged,
            Some(&kind_dirs),
        );
        let install = &case["install"];
        let written: BTreeSet<String> = strings(&install["written"]).into_iter().collect();
        let mut request = request_for(case);
        request.host = Host::new(text(install, "home"), text(case, "cwd"));
        request.explicit_dir = Some(text(install, "configDir").to_owned());
        found.extend(compare(
            &format!("{} (installed)", label(case)),
            &request,
            &written,
            None,
        ));
        if found.is_empty() {
            matched += 1;
        }
        differences.extend(found);
    }
    assert!(
        differences.is_empty(),
        "{matched}/{} cases match; differences:\n{}",
        cases.len(),
        differences.join("\n")
    );
    assert_eq!(matched, cases.len());
}

#[test]
fn nested_skills_are_duplicated_under_every_owning_router_only_for_full_selections() {
    let cases = peer()["cases"].as_array().expect("cases");
    let find = |runtime: &str, scope: &str, profile: &str| {
        cases
            .iter()
            .find(|c| c["runtime"] == runtime && c["scope"] == scope && c["profile"] == profile)
            .expect("case")
    };
    let skills_of = |case: &Value| -> Vec<String> {
        let item = case["items"]
            .as_array()
            .expect("items")
            .iter()
            .find(|i| i["kind"] == "skills")
            .expect("skills item");
        strings(&item["files"])
    };
    // The peer's own staging, as evidence for the rule our plan reproduces.
    let full = skills_of(find("augment", "local", "full"));
    assert!(full.contains(&"gsd-ns-ideate/skills/spec-phase/SKILL.md".to_owned()));
    assert!(full.contains(&"gsd-ns-workflow/skills/spec-phase/SKILL.md".to_owned()));
    let standard = skills_of(find("augment", "local", "standard"));
    assert!(standard.contains(&"gsd-plan-phase/SKILL.md".to_owned()));
    assert!(standard.iter().all(|f| !f.contains("/skills/")));

    let registry = Registry::first_party();
    let plan = resolve_install_plan(registry, &request_for(find("hermes", "global", "full")))
        .expect("hermes plan");
    let config = text(find("hermes", "global", "full"), "configDir");
    let spec: Vec<&str> = plan
        .placements
        .iter()
        .filter(|p| p.stem == "spec-phase")
        .map(|p| p.destination)
        .collect();
    assert_eq!(
        spec,
        [
            format!("{config}/skills/gsd/gsd-ns-ideate/skills/spec-phase/SKILL.md"),
            format!("{config}/skills/gsd/gsd-ns-workflow/skills/spec-phase/SKILL.md"),
        ]
    );
    let triggers: BTreeMap<&str, Option<&str>> = plan
        .triggers
        .iter()
        .map(|t| (t.trigger, t.router_trigger))
        .collect();
    assert_eq!(triggers["gsd-spec-phase"], Some("gsd-ns-ideate"));

    let core = resolve_install_plan(registry, &request_for(find("hermes", "global", "core")))
        .expect("hermes core plan");
    assert!(core.triggers.iter().all(|t| t.router_trigger.is_none()));
}

/// The decided plan over a checked [`Inventory`] of the real package is the resolved plan,
/// for every runtime × scope × profile of the peer's cases: its head is the plan without
/// its large sections, its counts are their lengths, each section on demand is the plan's,
/// and `into_plan` is the whole plan.
#[test]
fn decided_plans_over_the_package_inventory_are_the_resolved_plans() {
    let registry = Registry::first_party();
    let mut planned = 0;
    for case in peer()["cases"].as_array().expect("cases") {
        let request = request_for(case);
        let inventory = util::inventory_of(&request).expect("the package's stems are plain");
        let decided = decide_install_plan(
            registry,
            &request.runtime,
            request.scope,
            &request.host,
            request.explicit_dir.as_deref(),
            &inventory,
            request.profile.as_ref(),
        );
        let Ok(plan) = resolve_install_plan(registry, &request) else {
            let expected = resolve_install_plan(registry, &request).err();
            assert_eq!(decided.err(), expected, "{}", label(case));
            continue;
        };
        let decision = decided.expect("decides where the plan resolves");
        assert_eq!(
            decision.counts(),
            PlanCounts {
                placements: plan.placements.len(),
                triggers: plan.triggers.len(),
                diagnostics: plan.diagnostics.len(),
            },
            "{}",
            label(case)
        );
        let mut head = plan.clone();
        head.placements.clear();
        head.triggers.clear();
        head.diagnostics.clear();
        assert_eq!(decision.head(), &head, "{}", label(case));
        assert_eq!(decision.placements(), plan.placements, "{}", label(case));
        assert_eq!(decision.triggers(), plan.triggers, "{}", label(case));
        assert_eq!(decision.diagnostics(), plan.diagnostics, "{}", label(case));
        assert_eq!(decision.into_plan(), plan, "{}", label(case));
        planned += 1;
    }
    // vscode cannot be planned (2 scopes × 3 profiles); every other case is.
    assert_eq!(
        planned,
        (Registry::first_party().runtime_ids().count() - 1) * 6
    );
}

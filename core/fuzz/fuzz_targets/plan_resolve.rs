//! Plan resolution with arbitrary host facts and request fields: `resolve_scope`,
//! `scope_probe_paths`, `probe_requests`, `resolve_install_plan`, `resolve_install_plans`.
//!
//! Invariants: no panic; every error names a field; every placement of a plan lies strictly
//! inside its kind's directory and no destination keeps a `..` segment.
#![no_main]

use std::collections::{BTreeMap, BTreeSet};

use arbitrary::Arbitrary;
use gsd_core::{
    Host, Plan, PlanRequest, ProfileSelection, Registry, Scope, parse_scope, probe_requests,
    resolve_install_plan, resolve_install_plans, resolve_scope, scope_probe_paths,
};
use libfuzzer_sys::fuzz_target;

/// Environment variables some descriptor reads, so fuzzed values reach the resolvers.
const ENV_NAMES: &[&str] = &[
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "XDG_CONFIG_HOME",
    "OPENCODE_CONFIG_DIR",
    "OPENCODE_CONFIG",
    "GEMINI_CONFIG_DIR",
    "KILO_CONFIG_DIR",
    "COPILOT_CONFIG_DIR",
    "CURSOR_CONFIG_DIR",
    "HOME",
];

/// Skills and agents allow-lists.
type FuzzProfile = (Option<Vec<String>>, Option<Vec<String>>);

#[derive(Debug, Arbitrary)]
struct Input {
    runtime_pick: u8,
    runtime_raw: String,
    scope_raw: String,
    scope_pick: bool,
    home: String,
    cwd: String,
    env: Vec<(u8, String)>,
    env_raw: Vec<(String, String)>,
    existing: Vec<String>,
    explicit_dir: Option<String>,
    commands: Vec<String>,
    agents: Vec<String>,
    router_stems: Vec<String>,
    child_to_routers: BTreeMap<String, Vec<String>>,
    profile: Option<FuzzProfile>,
    both_scopes: bool,
}

fn check_plan(plan: &Plan) {
    for kind in &plan.kinds {
        assert!(
            !kind.dest_dir.split('/').any(|s| s == ".."),
            "{:?}",
            kind.dest_dir
        );
    }
    for p in &plan.placements {
        let dir = plan
            .kinds
            .iter()
            .find(|k| k.kind == p.kind)
            .map(|k| k.dest_dir.as_str())
            .expect("placement of a planned kind");
        assert!(
            p.destination.starts_with(dir)
                && p.destination[dir.len()..].starts_with('/')
                && p.destination.len() > dir.len() + 1,
            "{:?} escapes {dir:?}",
            p.destination
        );
        assert!(
            !p.destination.split('/').any(|s| s == ".."),
            "{:?}",
            p.destination
        );
    }
}

fuzz_target!(|input: Input| {
    let registry = Registry::first_party();
    let ids: Vec<&str> = registry.runtime_ids().collect();
    let runtime = if input.runtime_pick.is_multiple_of(4) {
        input.runtime_raw.clone()
    } else {
        ids[usize::from(input.runtime_pick) % ids.len()].to_owned()
    };
    let scope = if input.scope_pick {
        match parse_scope(&input.scope_raw) {
            Ok(scope) => scope,
            Err(error) => {
                assert_eq!(error.field(), Some("scope"));
                return;
            }
        }
    } else {
        Scope::Global
    };
    let mut host = Host::new(input.home, input.cwd);
    for (pick, value) in input.env {
        host.env.insert(
            ENV_NAMES[usize::from(pick) % ENV_NAMES.len()].to_owned(),
            value,
        );
    }
    host.env.extend(input.env_raw);
    host.existing_paths = input.existing.into_iter().collect::<BTreeSet<_>>();
    let field_named = |e: &gsd_core::Error| {
        assert!(
            e.field().is_some_and(|f| !f.is_empty()),
            "{} has no field",
            e.code()
        );
    };
    for s in [Scope::Global, Scope::Local] {
        if let Err(e) = resolve_scope(registry, &runtime, s, &host, input.explicit_dir.as_deref()) {
            field_named(&e);
        }
        if let Err(e) =
            scope_probe_paths(registry, &runtime, s, &host, input.explicit_dir.as_deref())
        {
            field_named(&e);
        }
    }
    if let Err(e) = probe_requests(registry, Some(&runtime), &host) {
        field_named(&e);
    }
    let request = PlanRequest {
        runtime,
        scope,
        host,
        explicit_dir: input.explicit_dir,
        commands: input.commands,
        agents: input.agents,
        router_stems: input.router_stems,
        child_to_routers: input.child_to_routers,
        profile: input
            .profile
            .map(|(skills, agents)| ProfileSelection { skills, agents }),
    };
    match resolve_install_plan(registry, &request) {
        Ok(plan) => check_plan(&plan),
        Err(e) => field_named(&e),
    }
    if input.both_scopes {
        match resolve_install_plans(registry, &request, &[Scope::Local, Scope::Global]) {
            Ok(set) => set.plans.iter().for_each(check_plan),
            Err(e) => field_named(&e),
        }
    }
});

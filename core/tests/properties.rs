//! Properties of plan and trigger resolution over arbitrary inventories.
//!
//! Stem policy under test: a stem that is empty, `.`/`..`, or contains `/`, `\` or NUL is
//! rejected with `INVALID_ARGUMENT`; every accepted stem yields destinations strictly inside
//! their kind's root directory.

use std::collections::BTreeMap;

use gsd_core::{
    ErrorCode, Host, Plan, PlanRequest, Registry, Scope, TriggerInput, resolve_install_plan,
    resolve_trigger_surface, resolve_trigger_surface_lenient,
};
use quickcheck::{Arbitrary, Gen};
use quickcheck_macros::quickcheck;

fn registry() -> &'static Registry {
    Registry::first_party()
}

fn runtime_at(index: u8) -> String {
    let ids: Vec<&str> = registry().runtime_ids().collect();
    ids[usize::from(index) % ids.len()].to_owned()
}

/// A stem assembled from pieces that include path separators, dots, NUL and non-ASCII.
#[derive(Debug, Clone)]
struct Stem(String);

impl Arbitrary for Stem {
    fn arbitrary(g: &mut Gen) -> Self {
        const PIECES: &[&str] = &[
            "help",
            "plan-phase",
            "ns-review",
            "x",
            "..",
            ".",
            "/",
            "\\",
            "\0",
            "a/b",
            "ü",
            " ",
            "-",
            "gsd-",
            "~",
        ];
        let count = usize::arbitrary(g) % 4 + 1;
        Stem(
            (0..count)
                .map(|_| *g.choose(PIECES).unwrap_or(&"x"))
                .collect(),
        )
    }
}

fn plain(stem: &str) -> bool {
    !(stem.is_empty() || stem == "." || stem == ".." || stem.contains(['/', '\\', '\0']))
}

fn request(
    runtime: String,
    scope: Scope,
    commands: Vec<String>,
    agents: Vec<String>,
) -> PlanRequest {
    PlanRequest {
        runtime,
        scope,
        host: Host::new("/home/u", "/work/p"),
        explicit_dir: None,
        commands,
        agents,
        router_stems: vec!["ns-review".into()],
        child_to_routers: BTreeMap::from([("help".into(), vec!["ns-review".into()])]),
        profile: None,
    }
}

fn scope_of(global: bool) -> Scope {
    if global { Scope::Global } else { Scope::Local }
}

#[quickcheck]
fn same_request_gives_identical_bytes(runtime: u8, global: bool, stems: Vec<Stem>) -> bool {
    let stems: Vec<String> = stems
        .into_iter()
        .map(|s| s.0)
        .filter(|s| plain(s))
        .collect();
    let req = request(runtime_at(runtime), scope_of(global), stems.clone(), stems);
    let once = resolve_install_plan(registry(), &req).map(|p| serde_json::to_vec(&p).ok());
    let twice = resolve_install_plan(registry(), &req.clone()).map(|p| serde_json::to_vec(&p).ok());
    once == twice
}

#[quickcheck]
fn destinations_stay_inside_their_root(runtime: u8, global: bool, stems: Vec<Stem>) -> bool {
    let stems: Vec<String> = stems.into_iter().map(|s| s.0).collect();
    let all_plain = stems.iter().all(|s| plain(s));
    match resolve_install_plan(
        registry(),
        &request(runtime_at(runtime), scope_of(global), stems.clone(), stems),
    ) {
        Ok(plan) => all_plain && placements_confined(&plan),
        Err(err) if err.code() == ErrorCode::NoConfigHome => runtime_at(runtime) == "vscode",
        Err(err) => !all_plain && err.code() == ErrorCode::InvalidArgument,
    }
}

fn placements_confined(plan: &Plan) -> bool {
    plan.placements.iter().all(|placement| {
        plan.kinds
            .iter()
            .filter(|k| k.kind == placement.kind)
            .any(|k| {
                placement
                    .destination
                    .starts_with(&format!("{}/", k.dest_dir))
                    && !placement.destination.contains("/../")
            })
    })
}

fn scopes_from(mask: u8) -> Vec<Scope> {
    Scope::ALL
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, s)| s)
        .collect()
}

#[quickcheck]
fn every_trigger_group_has_one_winner_named_by_every_loser(
    runtime: u8,
    mask: u8,
    stems: Vec<Stem>,
) -> bool {
    let input = TriggerInput {
        stems: stems.into_iter().map(|s| s.0).collect(),
        ..TriggerInput::default()
    };
    let (runtime, scopes) = (runtime_at(runtime), scopes_from(mask));
    let Ok(surface) = resolve_trigger_surface_lenient(registry(), &runtime, &scopes, &input) else {
        return false;
    };
    // The checked resolver answers as the lenient one over the same stems each kept once
    // (it keeps a repeated stem once, as a plan does) when every stem is plain, and refuses
    // the first stem that is not.
    let checked = resolve_trigger_surface(registry(), &runtime, &scopes, &input);
    let first_not_plain = input.stems.iter().position(|s| !plain(s));
    let mut once: Vec<String> = Vec::new();
    for stem in &input.stems {
        if !once.contains(stem) {
            once.push(stem.clone());
        }
    }
    let distinct = TriggerInput {
        stems: once,
        ..TriggerInput::default()
    };
    let agreed = match (checked, first_not_plain) {
        (Ok(checked), None) => {
            resolve_trigger_surface_lenient(registry(), &runtime, &scopes, &distinct)
                .is_ok_and(|lenient| checked == lenient)
        }
        (Err(err), Some(index)) => {
            err.code() == gsd_core::ErrorCode::InvalidArgument
                && err.field() == Some(format!("stems[{index}]").as_str())
        }
        _ => false,
    };
    if !agreed {
        return false;
    }
    let mut groups: BTreeMap<&str, Vec<gsd_core::Trigger<'_>>> = BTreeMap::new();
    for t in &surface {
        groups.entry(t.trigger).or_default().push(t);
    }
    groups.values().all(|group| {
        let winners: Vec<_> = group.iter().filter(|t| t.shadowed_by.is_none()).collect();
        // Repeated stems emit identical candidates; a group still has exactly one winner.
        winners.len() == 1
            && group.iter().filter(|t| t.shadowed_by.is_some()).all(|t| {
                t.shadowed_by
                    .is_some_and(|by| by.kind == winners[0].kind && by.scope == winners[0].scope)
            })
    })
}

#[quickcheck]
fn adding_stems_never_changes_existing_entries(
    runtime: u8,
    mask: u8,
    first: Vec<Stem>,
    more: Vec<Stem>,
) -> bool {
    let first: Vec<String> = first.into_iter().map(|s| s.0).collect();
    let more: Vec<String> = more
        .into_iter()
        .map(|s| s.0)
        .filter(|s| !first.contains(s))
        .collect();
    let runtime = runtime_at(runtime);
    let scopes = scopes_from(mask);
    let small = TriggerInput {
        stems: first.clone(),
        ..TriggerInput::default()
    };
    let large = TriggerInput {
        stems: first.iter().chain(&more).cloned().collect(),
        ..TriggerInput::default()
    };
    let (Ok(a), Ok(b)) = (
        resolve_trigger_surface_lenient(registry(), &runtime, &scopes, &small),
        resolve_trigger_surface_lenient(registry(), &runtime, &scopes, &large),
    ) else {
        return false;
    };
    let triggers_kept = a.iter().all(|t| b.contains(&t));
    let plain_first: Vec<String> = first.into_iter().filter(|s| plain(s)).collect();
    let plain_more: Vec<String> = more.into_iter().filter(|s| plain(s)).collect();
    let small_plan = resolve_install_plan(
        registry(),
        &request(
            runtime.clone(),
            Scope::Local,
            plain_first.clone(),
            plain_first.clone(),
        ),
    );
    let all: Vec<String> = plain_first.into_iter().chain(plain_more).collect();
    let large_plan = resolve_install_plan(
        registry(),
        &request(runtime, Scope::Local, all.clone(), all),
    );
    let placements_kept = match (small_plan, large_plan) {
        (Ok(s), Ok(l)) => s.placements.iter().all(|p| l.placements.contains(&p)),
        (Err(s), Err(l)) => s == l,
        _ => false,
    };
    triggers_kept && placements_kept
}

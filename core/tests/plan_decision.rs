//! The decided plan ([`decide_install_plan`] over an [`Inventory`]) raises the errors
//! [`resolve_install_plan`] raises, where it raises them, and gives the same plan for
//! inventories the package's own (in `peer_placements`) does not cover: repeated stems,
//! allow-lists, routed children.

mod util;

use std::collections::BTreeMap;

use gsd_core::{
    Error, ErrorCode, Host, PlanCounts, PlanRequest, ProfileSelection, Registry, Scope,
    decide_install_plan, resolve_install_plan,
};

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn request(runtime: &str, scope: Scope, cwd: &str, commands: &[&str]) -> PlanRequest {
    PlanRequest {
        runtime: runtime.into(),
        scope,
        host: Host::new("/home/u", cwd),
        explicit_dir: None,
        commands: strings(commands),
        agents: strings(&["gsd-a", "gsd-a.compact", "gsd-b", "gsd-a"]),
        router_stems: strings(&["ns-x", "ns-y"]),
        child_to_routers: BTreeMap::from([
            ("plan".to_owned(), strings(&["ns-x", "ns-y", "ns-x"])),
            ("help".to_owned(), strings(&["ns-y"])),
            ("ns-y".to_owned(), strings(&["ns-x"])),
        ]),
        profile: None,
    }
}

/// The decision's whole plan, or the first error of checking the inventory or deciding.
/// The decision's counts must be the lengths of its plan's sections.
fn decided(request: &PlanRequest) -> Result<gsd_core::Plan, Error> {
    let inventory = util::inventory_of(request)?;
    let decision = decide_install_plan(
        Registry::first_party(),
        &request.runtime,
        request.scope,
        &request.host,
        request.explicit_dir.as_deref(),
        &inventory,
        request.profile.as_ref(),
    )?;
    let counts = decision.counts();
    let plan = decision.into_plan();
    assert_eq!(
        counts,
        PlanCounts {
            placements: plan.placements.len(),
            triggers: plan.triggers.len(),
            diagnostics: plan.diagnostics.len(),
        },
        "{request:?}"
    );
    Ok(plan)
}

#[test]
fn every_runtime_and_inventory_shape_plans_the_same() {
    let profiles = [
        None,
        Some(ProfileSelection {
            skills: Some(strings(&["help", "plan"])),
            agents: Some(strings(&["gsd-b"])),
        }),
        Some(ProfileSelection {
            skills: Some(strings(&["ns-x", "ns-y", "plan", "help"])),
            agents: None,
        }),
    ];
    let mut planned = 0;
    for runtime in Registry::first_party().runtime_ids() {
        for scope in [Scope::Global, Scope::Local] {
            for commands in [
                &["help", "ns-x", "plan", "help"][..],
                &["plan", "help"],
                &["ns-x", "plan", "ns-y", "help", "other"],
                &[],
            ] {
                for profile in &profiles {
                    let mut request = request(runtime, scope, "/work/p", commands);
                    request.profile.clone_from(profile);
                    let expected = resolve_install_plan(Registry::first_party(), &request);
                    planned += usize::from(expected.is_ok());
                    assert_eq!(
                        decided(&request),
                        expected,
                        "{runtime} {scope:?} {commands:?}"
                    );
                }
            }
        }
    }
    assert_eq!(planned, 18 * 2 * 4 * 3, "every runtime but vscode plans");
}

#[test]
fn errors_are_the_resolved_plans_errors() {
    let cases = [
        request("nope", Scope::Global, "/work/p", &["help"]),
        request("vscode", Scope::Local, "/work/p", &["help"]),
        request("claude", Scope::Local, "work/p", &["help"]),
        request("claude", Scope::Local, "/work/p", &["help", "../up"]),
        request("claude", Scope::Local, "/work/p", &["help", ""]),
    ];
    let codes: Vec<ErrorCode> = cases
        .iter()
        .map(|request| {
            let expected = resolve_install_plan(Registry::first_party(), request)
                .expect_err("each case fails");
            assert_eq!(
                decided(request).err(),
                Some(expected.clone()),
                "{request:?}"
            );
            expected.code()
        })
        .collect();
    assert_eq!(
        codes,
        [
            ErrorCode::UnknownRuntime,
            ErrorCode::NoConfigHome,
            ErrorCode::InvalidHost,
            ErrorCode::InvalidArgument,
            ErrorCode::InvalidArgument,
        ]
    );
    let bad = util::inventory_of(&request("claude", Scope::Local, "/w", &["ok", "a/b"]))
        .expect_err("a stem with a separator");
    assert_eq!(bad.field(), Some("commands[1]"));
}

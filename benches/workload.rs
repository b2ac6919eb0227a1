//! One workload, run a given number of times, for instruction counting under
//! `valgrind --tool=callgrind` (stable on a busy machine, unlike wall-clock time).
//!
//! `workload <case> <n> <reps>` with case one of `validate`, `overlays`, `overlays-index`
//! (the registry plus its derived index views), `plan-claude`,
//! `plan-all`, `decide-claude`, `decide-all` (the decided plan over a checked inventory,
//! no section spelled out; `n` decisions per repetition; `decide-claude-triggers`,
//! `decide-all-triggers`: with the trigger surface spelled out), `host-json` (`n` host facts
//! parsed from JSON, as the Node binding parses them per plan), `plan-claude-json` (request parsed from JSON, plan written as JSON: the work
//! the C ABI adds), `triggers` (`n` = overlays or stems; ignored otherwise).
//! `workload print-request <runtime> <global|local>` prints one plan request as JSON (the
//! input of `benches/c/plan_bench.c`). Setup is the same for every `reps`, so the
//! instruction count of one repetition is `(count(reps = 2) - count(reps = 1))`:
//! `scripts/bench.sh` does exactly that.
//! Without arguments (as `cargo bench` runs it) it does nothing.

mod common;

use std::hint::black_box;

use gsd_core::{
    Overlay, ParsedManifest, PlanRequest, Registry, Scope, TriggerInput, parse_manifest,
    resolve_install_plan, resolve_trigger_surface, validate_capability, warning_records,
};

fn print_request(args: &[String]) {
    let scope = match args.get(2).map(String::as_str) {
        Some("local") => Scope::Local,
        _ => Scope::Global,
    };
    let runtime = args.get(1).map_or("claude", String::as_str);
    let request = common::plan_request(&common::inventory(), runtime, scope, 1);
    println!("{}", serde_json::to_string(&request).expect("request JSON"));
}

/// The 46 first-party manifests, each parsed, validated and asked for its warning records:
/// through `ParsedManifest` (what the bindings do), or (`value`) through the public
/// `serde_json::Value` path.
fn validate(value: bool, reps: usize) {
    let texts: Vec<(&str, &str)> = gsd_core::embedded::first_party()
        .iter()
        .map(|c| (c.folder, c.manifest))
        .collect();
    for _ in 0..reps {
        for (folder, text) in &texts {
            if value {
                let value = parse_manifest(black_box(text)).expect("valid JSON");
                black_box(validate_capability(&value, folder));
                black_box(warning_records(&value));
            } else {
                let parsed = ParsedManifest::parse(black_box(text)).expect("valid JSON");
                black_box(parsed.validate(folder));
                black_box(parsed.warning_records());
            }
        }
    }
}

/// The decided plan over an inventory checked once (what the Node binding does per call):
/// every check and count, no section spelled out (`triggers`: the trigger records spelled
/// out as `PlanDecision::triggers` returns them; the Node binding now writes its trigger
/// rows from the parts instead).
/// `n` decisions of every request per repetition: one decision is ~10k instructions, so a
/// single one would leave the count at the mercy of the allocator's state.
fn decide(registry: &Registry, claude_only: bool, triggers: bool, n: usize, reps: usize) {
    let inv = common::inventory();
    let inventory = common::checked_inventory(&inv);
    let runtimes = if claude_only {
        vec!["claude".to_owned()]
    } else {
        common::installable_runtimes(registry)
    };
    let requests: Vec<PlanRequest> = runtimes
        .iter()
        .flat_map(|r| [Scope::Global, Scope::Local].map(|s| common::plan_request(&inv, r, s, 1)))
        .collect();
    for _ in 0..reps * n.max(1) {
        for r in &requests {
            let decision = gsd_core::decide_install_plan(
                registry,
                &r.runtime,
                r.scope,
                black_box(&r.host),
                None,
                &inventory,
                None,
            )
            .expect("decision");
            if triggers {
                black_box(decision.triggers());
            } else {
                black_box(decision.counts());
            }
        }
    }
}

/// Host facts parsed from JSON text as the Node binding parses them per plan (`n` texts
/// with distinct values per repetition).
fn host_json(n: usize, reps: usize) {
    let texts: Vec<String> = (0..n.max(1))
        .map(|i| {
            format!(
                r#"{{"home":"/home/bench-{i}","cwd":"/work/project-{i}","env":{{"XDG_CONFIG_HOME":"/home/bench-{i}/.config-{i}"}},"existingPaths":[]}}"#
            )
        })
        .collect();
    for _ in 0..reps {
        for text in &texts {
            let host: gsd_core::Host = serde_json::from_str(black_box(text)).expect("host JSON");
            black_box(host);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("print-request") {
        print_request(&args);
        return;
    }
    let (Some(case), Some(n), Some(reps)) = (
        args.first(),
        args.get(1).and_then(|a| a.parse::<usize>().ok()),
        args.get(2).and_then(|a| a.parse::<usize>().ok()),
    ) else {
        eprintln!(
            "usage: workload <validate|validate-value|overlays|overlays-index|plan-claude|plan-all|decide-claude|decide-all|decide-claude-triggers|decide-all-triggers|host-json|plan-claude-json|triggers> <n> <reps>"
        );
        return;
    };
    let registry = Registry::first_party();
    match case.as_str() {
        "validate" => validate(false, reps),
        "validate-value" => validate(true, reps),
        "overlays" => {
            let overlays: Vec<Overlay> = (0..n).map(common::synthetic_overlay).collect();
            for _ in 0..reps {
                let built = registry.with_overlays(black_box(&overlays));
                assert_eq!(
                    built.capabilities().count(),
                    46 + n,
                    "every synthetic overlay is accepted: {:?}",
                    built.diagnostics().iter().take(3).collect::<Vec<_>>()
                );
                black_box(built);
            }
        }
        "overlays-index" => {
            // As `overlays`, plus the derived index views (built lazily on first use).
            let overlays: Vec<Overlay> = (0..n).map(common::synthetic_overlay).collect();
            for _ in 0..reps {
                let built = registry.with_overlays(black_box(&overlays));
                black_box(built.index().config_keys().len());
            }
        }
        "plan-claude" | "plan-all" => {
            let inv = common::inventory();
            let runtimes = if case == "plan-claude" {
                vec!["claude".to_owned()]
            } else {
                common::installable_runtimes(registry)
            };
            let requests: Vec<PlanRequest> = runtimes
                .iter()
                .flat_map(|r| {
                    [Scope::Global, Scope::Local].map(|s| common::plan_request(&inv, r, s, 1))
                })
                .collect();
            for _ in 0..reps {
                for r in &requests {
                    black_box(resolve_install_plan(registry, black_box(r)).expect("plan"));
                }
            }
        }
        "decide-claude" | "decide-all" => {
            decide(registry, case == "decide-claude", false, n, reps);
        }
        "decide-claude-triggers" | "decide-all-triggers" => {
            decide(registry, case == "decide-claude-triggers", true, n, reps);
        }
        "host-json" => host_json(n, reps),
        "plan-claude-json" => {
            let inv = common::inventory();
            let texts: Vec<String> = [Scope::Global, Scope::Local]
                .map(|s| {
                    serde_json::to_string(&common::plan_request(&inv, "claude", s, 1))
                        .expect("request JSON")
                })
                .into();
            for _ in 0..reps {
                for text in &texts {
                    black_box(common::plan_json(registry, black_box(text)));
                }
            }
        }
        "triggers" => {
            let input = TriggerInput {
                stems: common::synthetic_stems(n),
                ..TriggerInput::default()
            };
            for _ in 0..reps {
                black_box(
                    resolve_trigger_surface(
                        registry,
                        "claude",
                        &[Scope::Global, Scope::Local],
                        black_box(&input),
                    )
                    .expect("surface"),
                );
            }
        }
        other => eprintln!("unknown case {other}"),
    }
}

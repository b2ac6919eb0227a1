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
//! input of `benches/c/plan_bench.c`). `workload time-plan-json <rounds> <request.json>...`
//! times the `plan-claude-json` work on those requests as `plan_bench` times the C ABI
//! (the same calibration, rounds and output line), so `scripts/bench.sh` can run the two in
//! turn for P6's wall-clock ratio. `workload scale-wall <overlays|triggers> <rounds>` times
//! P5's two sizes (1k and 10k) in turn in one process and prints the growth of the time per
//! item, with the part spent dropping the result. Setup is the same for every `reps`, so the
//! instruction count of one repetition is `(count(reps = 2) - count(reps = 1))`:
//! `scripts/bench.sh` does exactly that.
//! Without arguments (as `cargo bench` runs it) it does nothing.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

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
/// `n` decisions of every request per repetition: one decision is 5,903 (claude) and 6,289
/// (all runtimes) instructions in the guard's baseline (~11,000 before change 14), so a
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

/// Wall time of the native JSON plan path, in the form of `benches/c/plan_bench.c`: passes
/// calibrated to about 100 ms a round, one warm-up round, then `rounds` rounds; the median,
/// lowest and highest time of a pass over every request.
fn time_plan_json(args: &[String]) {
    let rounds = args
        .get(1)
        .and_then(|a| a.parse::<usize>().ok())
        .unwrap_or(15)
        .max(1);
    let texts: Vec<String> = args
        .iter()
        .skip(2)
        .map(|path| std::fs::read_to_string(path).expect("request file"))
        .collect();
    assert!(
        !texts.is_empty(),
        "usage: workload time-plan-json <rounds> <request.json>..."
    );
    let registry = Registry::first_party();
    let pass = || {
        for text in &texts {
            black_box(common::plan_json(registry, black_box(text)));
        }
    };
    let started = std::time::Instant::now();
    pass();
    let one = started.elapsed().as_nanos().max(1);
    let passes = u32::try_from(100_000_000 / one).unwrap_or(1).max(1);
    for _ in 0..passes {
        pass();
    }
    let mut samples: Vec<f64> = (0..rounds)
        .map(|_| {
            let started = std::time::Instant::now();
            for _ in 0..passes {
                pass();
            }
            started.elapsed().as_secs_f64() * 1e9 / f64::from(passes)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!(
        "native-json plans={} rounds={rounds} passes={passes} median_ns={:.0} min_ns={:.0} max_ns={:.0}",
        texts.len(),
        samples[rounds / 2],
        samples[0],
        samples[rounds - 1]
    );
}

/// The inputs of one P5 workload at its two sizes (1k, 10k).
enum Scale {
    Overlays([Vec<Overlay>; 2]),
    Triggers([TriggerInput; 2]),
}

impl Scale {
    /// One timed pass at size `k`: the time spent making the result and the time spent
    /// dropping it.
    fn pass(&self, registry: &Registry, k: usize) -> (Duration, Duration) {
        fn timed<T>(build: impl FnOnce() -> T) -> (Duration, Duration) {
            let started = Instant::now();
            let result = black_box(build());
            let building = started.elapsed();
            drop(result);
            (building, started.elapsed().saturating_sub(building))
        }
        match self {
            Scale::Overlays(sizes) => timed(|| registry.with_overlays(black_box(&sizes[k]))),
            Scale::Triggers(sizes) => timed(|| {
                let scopes = [Scope::Global, Scope::Local];
                resolve_trigger_surface(registry, "claude", &scopes, black_box(&sizes[k]))
                    .expect("surface")
            }),
        }
    }
}

/// P5 in wall time with the two sizes measured in one process, in turn: criterion times
/// 1k and 10k seconds apart, and this machine's speed drifts between them by more than the
/// 1.2x target. Each round times 1k, 10k, 10k, 1k (a drift within the round cancels), every
/// batch the same number of items (ten passes of 1k against one of 10k), and yields one
/// growth figure: 10k's time per item over 1k's. Prints the median, lowest and highest
/// growth over the rounds, the median time per item at each size, and how much of it was
/// spent dropping the result.
fn scale_wall(args: &[String]) {
    let case = args.get(1).map_or("", String::as_str);
    assert!(
        matches!(case, "overlays" | "triggers"),
        "usage: workload scale-wall <overlays|triggers> <rounds>"
    );
    let rounds = args
        .get(2)
        .and_then(|a| a.parse::<usize>().ok())
        .unwrap_or(11)
        .max(1);
    let registry = Registry::first_party();
    let sizes = [1_000_u32, 10_000];
    let scale = if case == "overlays" {
        Scale::Overlays(sizes.map(|n| (0..n as usize).map(common::synthetic_overlay).collect()))
    } else {
        Scale::Triggers(sizes.map(|n| TriggerInput {
            stems: common::synthetic_stems(n as usize),
            ..TriggerInput::default()
        }))
    };
    // Passes of 10k per batch (1k makes ten times as many): about 100 ms a batch.
    let (made, dropped) = scale.pass(registry, 1);
    let one = (made + dropped).as_nanos().max(1);
    let passes = u32::try_from(100_000_000 / one).unwrap_or(1).max(1);
    // One batch at size k: (ns per item, of which spent dropping).
    let batch = |k: usize| {
        let reps = passes * if k == 0 { 10 } else { 1 };
        let (mut made, mut dropped) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..reps {
            let (m, d) = scale.pass(registry, k);
            made += m;
            dropped += d;
        }
        let items = f64::from(reps) * f64::from(sizes[k]);
        let ns = |t: Duration| t.as_secs_f64() * 1e9 / items;
        (ns(made + dropped), ns(dropped))
    };
    batch(0);
    batch(1);
    let mut growth = Vec::with_capacity(rounds);
    let mut per = [Vec::new(), Vec::new()];
    let mut drops = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        let (a1, b1, b2, a2) = (batch(0), batch(1), batch(1), batch(0));
        let (small, large) = (f64::midpoint(a1.0, a2.0), f64::midpoint(b1.0, b2.0));
        growth.push(large / small);
        per[0].push(small);
        per[1].push(large);
        drops[0].push(f64::midpoint(a1.1, a2.1));
        drops[1].push(f64::midpoint(b1.1, b2.1));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let g = median(&mut growth);
    println!(
        "scale-wall case={case} rounds={rounds} passes={passes} growth_median={g:.3} growth_min={:.3} growth_max={:.3} per_item_1k_ns={:.1} per_item_10k_ns={:.1} drop_1k_ns={:.1} drop_10k_ns={:.1}",
        growth[0],
        growth[rounds - 1],
        median(&mut per[0]),
        median(&mut per[1]),
        median(&mut drops[0]),
        median(&mut drops[1]),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("print-request") => return print_request(&args),
        Some("time-plan-json") => return time_plan_json(&args),
        Some("scale-wall") => return scale_wall(&args),
        _ => {}
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

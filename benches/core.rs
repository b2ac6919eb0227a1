//! Criterion benches for the native core (the figures live in docs/performance.md).
//!
//! Run: `cargo bench -p gsd-core --bench core` (add `-- --quick` for a short run, or a
//! filter such as `-- registry_with_overlays`).
//!
//! Groups:
//! - `validate`: parse + validate + warning records of the 46 first-party manifests;
//! - `registry_with_overlays/{1000,10000}`: the first-party registry plus N synthetic
//!   overlays (throughput = overlays, so per-overlay cost growth reads off directly);
//! - `plan`: whole plans over the peer package's real inventory (72 command stems, its
//!   agents and routers) for claude and for every installable runtime, both scopes, and
//!   claude from request JSON to plan JSON (the work the C ABI adds; compare with
//!   `benches/c/plan_bench.c`);
//! - `trigger_surface/{1000,10000}`: claude's surface across both scopes for N stems.

mod common;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gsd_core::{
    Overlay, ParsedManifest, PlanRequest, Registry, Scope, TriggerInput, decide_install_plan,
    parse_manifest, resolve_install_plan, resolve_trigger_surface, validate_capability,
    warning_records,
};

fn capability_texts() -> Vec<(String, String)> {
    gsd_core::embedded::first_party()
        .iter()
        .map(|c| (c.folder.to_owned(), c.manifest.to_owned()))
        .collect()
}

fn bench_validation(c: &mut Criterion) {
    let texts = capability_texts();
    assert_eq!(texts.len(), 46, "the first-party set has 46 capabilities");
    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Elements(texts.len() as u64));
    // What the bindings do: text through `ParsedManifest`.
    group.bench_function("46 manifests", |b| {
        b.iter(|| {
            for (folder, text) in &texts {
                let parsed = ParsedManifest::parse(black_box(text)).expect("valid JSON");
                black_box(parsed.validate(folder));
                black_box(parsed.warning_records());
            }
        });
    });
    // The public `serde_json::Value` path.
    group.bench_function("46 manifests, serde value", |b| {
        b.iter(|| {
            for (folder, text) in &texts {
                let value = parse_manifest(black_box(text)).expect("valid JSON");
                black_box(validate_capability(&value, folder));
                black_box(warning_records(&value));
            }
        });
    });
    group.finish();
}

fn bench_overlays(c: &mut Criterion) {
    let base = Registry::first_party();
    let mut group = c.benchmark_group("registry_with_overlays");
    group.sample_size(10);
    for n in [1_000_usize, 10_000] {
        let overlays: Vec<Overlay> = (0..n).map(common::synthetic_overlay).collect();
        let built = base.with_overlays(&overlays);
        assert_eq!(
            built.capabilities().count(),
            46 + n,
            "every synthetic overlay is accepted: {:?}",
            built.diagnostics().iter().take(3).collect::<Vec<_>>()
        );
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &overlays, |b, overlays| {
            b.iter(|| black_box(base.with_overlays(black_box(overlays))));
        });
    }
    group.finish();
}

fn bench_plans(c: &mut Criterion) {
    let registry = Registry::first_party();
    let inv = common::inventory();
    let runtimes = common::installable_runtimes(registry);
    assert_eq!(runtimes.len(), 18, "19 runtimes, vscode has no config home");
    let claude: Vec<PlanRequest> = [Scope::Global, Scope::Local]
        .into_iter()
        .map(|s| common::plan_request(&inv, "claude", s, 1))
        .collect();
    let all: Vec<PlanRequest> = runtimes
        .iter()
        .flat_map(|r| [Scope::Global, Scope::Local].map(|s| common::plan_request(&inv, r, s, 1)))
        .collect();
    let mut group = c.benchmark_group("plan");
    group.throughput(Throughput::Elements(claude.len() as u64));
    group.bench_function("claude x 2 scopes", |b| {
        b.iter(|| {
            for r in &claude {
                black_box(resolve_install_plan(registry, black_box(r)).expect("plan"));
            }
        });
    });
    let claude_json: Vec<String> = claude
        .iter()
        .map(|r| serde_json::to_string(r).expect("request JSON"))
        .collect();
    group.bench_function("claude x 2 scopes, JSON in and out", |b| {
        b.iter(|| {
            for text in &claude_json {
                black_box(common::plan_json(registry, black_box(text)));
            }
        });
    });
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("18 runtimes x 2 scopes", |b| {
        b.iter(|| {
            for r in &all {
                black_box(resolve_install_plan(registry, black_box(r)).expect("plan"));
            }
        });
    });
    group.finish();
    bench_decisions(c, &common::checked_inventory(&inv), &claude, &all);
}

fn decide<'a>(
    registry: &'a Registry,
    inventory: &'a gsd_core::Inventory,
    r: &'a PlanRequest,
) -> gsd_core::PlanDecision<'a> {
    decide_install_plan(
        registry, &r.runtime, r.scope, &r.host, None, inventory, None,
    )
    .expect("decision")
}

/// The decided plan over an inventory checked once (what the Node binding computes per
/// call), alone and with its trigger surface spelled out.
fn bench_decisions(
    c: &mut Criterion,
    inventory: &gsd_core::Inventory,
    claude: &[PlanRequest],
    all: &[PlanRequest],
) {
    let registry = Registry::first_party();
    let mut group = c.benchmark_group("decide");
    for (name, requests) in [
        ("claude x 2 scopes", claude),
        ("18 runtimes x 2 scopes", all),
    ] {
        group.throughput(Throughput::Elements(requests.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for r in requests {
                    black_box(decide(registry, inventory, black_box(r)).counts());
                }
            });
        });
        group.bench_function(format!("{name}, triggers spelled out"), |b| {
            b.iter(|| {
                for r in requests {
                    black_box(decide(registry, inventory, black_box(r)).triggers());
                }
            });
        });
    }
    group.finish();
}

fn bench_triggers(c: &mut Criterion) {
    let registry = Registry::first_party();
    let mut group = c.benchmark_group("trigger_surface");
    for n in [1_000_usize, 10_000] {
        let input = TriggerInput {
            stems: common::synthetic_stems(n),
            ..TriggerInput::default()
        };
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &input, |b, input| {
            b.iter(|| {
                black_box(
                    resolve_trigger_surface(
                        registry,
                        "claude",
                        &[Scope::Global, Scope::Local],
                        black_box(input),
                    )
                    .expect("surface"),
                )
            });
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_validation,
    bench_overlays,
    bench_plans,
    bench_triggers
);
criterion_main!(benches);

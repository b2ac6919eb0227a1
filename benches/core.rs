//! Criterion benches for the native core (the figures live in docs/performance.md).
//!
//! Run: `cargo bench -p gsd-core --bench core` (add `-- --quick` for a short run).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gsd_core::{
    Host, Overlay, PlanRequest, Registry, Scope, TriggerInput, parse_manifest,
    resolve_install_plan, resolve_trigger_surface, validate_capability, warning_records,
};

/// The 72 real command stems of the peer package when it is installed, else 72 synthetic ones.
fn command_stems() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../npm/node_modules/@opengsd/gsd-core/commands/gsd");
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".md")
                        .map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default();
    if stems.is_empty() {
        stems = (0..72).map(|i| format!("command-{i}")).collect();
    }
    stems.sort();
    stems
}

fn capability_texts() -> Vec<(String, String)> {
    gsd_core::embedded::first_party()
        .iter()
        .map(|c| (c.folder.to_owned(), c.manifest.to_owned()))
        .collect()
}

fn bench_validation(c: &mut Criterion) {
    let texts = capability_texts();
    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function(
        "46 first-party manifests (parse + validate + warnings)",
        |b| {
            b.iter(|| {
                for (folder, text) in &texts {
                    let value = parse_manifest(black_box(text)).expect("valid JSON");
                    black_box(validate_capability(&value, folder));
                    black_box(warning_records(&value));
                }
            });
        },
    );
    group.finish();
}

fn synthetic_overlay(i: usize) -> Overlay {
    let id = format!("ext-{i}");
    let manifest = format!(
        r#"{{"id":"{id}","role":"feature","version":"1.0.0","title":"Ext {i}","description":"Synthetic overlay {i}.","tier":"full","requires":[],"runtimeCompat":{{"supported":["*"]}},"skills":["ext-skill-{i}"],"agents":[],"config":{{"ext.key_{i}":{{"type":"boolean","default":true,"description":"Key {i}."}}}},"steps":[],"contributions":[],"gates":[]}}"#
    );
    Overlay {
        folder: id,
        manifest,
        fragments: Vec::new(),
    }
}

fn bench_overlays(c: &mut Criterion) {
    let base = Registry::first_party();
    let mut group = c.benchmark_group("registry_with_overlays");
    group.sample_size(10);
    for n in [1_000_usize, 10_000] {
        let overlays: Vec<Overlay> = (0..n).map(synthetic_overlay).collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &overlays, |b, overlays| {
            b.iter(|| black_box(base.with_overlays(overlays)));
        });
    }
    group.finish();
}

fn bench_plans(c: &mut Criterion) {
    let registry = Registry::first_party();
    let stems = command_stems();
    let agents: Vec<String> = (0..33).map(|i| format!("gsd-agent-{i}")).collect();
    let runtimes: Vec<String> = registry
        .runtime_ids()
        .filter(|id| *id != "vscode")
        .map(str::to_owned)
        .collect();
    let request = |runtime: &str, scope: Scope| PlanRequest {
        runtime: runtime.to_owned(),
        scope,
        host: Host::new("/home/bench", "/work/project"),
        explicit_dir: None,
        commands: stems.clone(),
        agents: agents.clone(),
        router_stems: Vec::new(),
        child_to_routers: std::collections::BTreeMap::new(),
        profile: None,
    };
    let claude = [
        request("claude", Scope::Global),
        request("claude", Scope::Local),
    ];
    let all: Vec<PlanRequest> = runtimes
        .iter()
        .flat_map(|r| [request(r, Scope::Global), request(r, Scope::Local)])
        .collect();
    let mut group = c.benchmark_group("plan");
    group.bench_function("claude, both scopes, 72 stems", |b| {
        b.iter(|| {
            for r in &claude {
                black_box(resolve_install_plan(registry, black_box(r)).expect("plan"));
            }
        });
    });
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("18 installable runtimes x 2 scopes, 72 stems", |b| {
        b.iter(|| {
            for r in &all {
                black_box(resolve_install_plan(registry, black_box(r)).expect("plan"));
            }
        });
    });
    group.finish();
}

fn bench_triggers(c: &mut Criterion) {
    let registry = Registry::first_party();
    let mut group = c.benchmark_group("trigger_surface_claude_both_scopes");
    for n in [1_000_usize, 10_000] {
        let input = TriggerInput {
            stems: (0..n).map(|i| format!("stem-{i}")).collect(),
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
                        input,
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

//! Bounded cost of hostile inputs: time and peak heap of the big cases of the hostile
//! corpus (`tests/hostile/generated.json`, `install_manifest.json`), against the targets
//! of docs/reliability.md. A plain program (not a test): it prints one table.
//!
//! `cargo bench -p gsd-core --bench bounded [-- RUNS]` (default 5 runs per case; the
//! median and the minimum are reported). Peak heap is measured by a counting global
//! allocator installed in this binary only: for each run the peak of live heap bytes
//! above what was live before the operation (the input text itself is built before and
//! not counted), and the input's own size next to it, so "input + peak" is the total.
//! `-- --json` prints the peaks as one object for the CI guard (`benches/guard.mjs`): they
//! repeat exactly from run to run.

#![allow(clippy::cast_precision_loss)] // Reason: byte counts are printed in MiB with one decimal.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use gsd_core::install_manifest::read_install_manifest;
use gsd_core::validate::{Origin, check_capability};
use gsd_core::{
    Host, Overlay, Registry, SurfaceFacts, build_shadow_report, parse_manifest, warning_records,
};
use serde_json::{Map, Value, json};

// Reason: this bench reports the peak only; `memory.rs` reads the other counts.
#[allow(dead_code)]
#[path = "counting.rs"]
mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const MIB: f64 = 1024.0 * 1024.0;

/// One case: a name, the targets (milliseconds, mebibytes; `None` when there is
/// none), the input builder, and the operation returning a one-line outcome.
#[derive(Debug)]
struct Case {
    name: &'static str,
    target_ms: Option<f64>,
    target_mib: Option<f64>,
    /// Whether the memory target includes the input text itself.
    target_counts_input: bool,
    build: fn(&Value) -> Input,
    run: fn(&Input) -> String,
}

#[derive(Debug)]
enum Input {
    Text(String),
    Overlays(Vec<Overlay>),
}

impl Input {
    fn bytes(&self) -> usize {
        match self {
            Input::Text(t) => t.len(),
            Input::Overlays(list) => list
                .iter()
                .map(|o| o.manifest.len() + o.fragments.iter().map(|(_, t)| t.len()).sum::<usize>())
                .sum(),
        }
    }

    fn text(&self) -> &str {
        match self {
            Input::Text(t) => t,
            Input::Overlays(_) => "",
        }
    }

    fn overlays(&self) -> &[Overlay] {
        match self {
            Input::Overlays(list) => list,
            Input::Text(_) => &[],
        }
    }
}

// The corpus's own input builder (bases, generated keys), shared with the hostile tests.
// Reason: this bench uses a few of its helpers; the rest serve core/tests/hostile.rs.
#[allow(dead_code)]
#[path = "../core/tests/hostile/input.rs"]
mod input;

use input::base36;

fn bases() -> Value {
    input::corpus_file("bases.json")
}

fn runtime_with_host_behaviors(bases: &Value, n: usize) -> String {
    let mut manifest = bases["runtime"].clone();
    let mut keys = Map::with_capacity(n);
    for i in 0..n {
        keys.insert(base36(i), json!(1));
    }
    manifest["runtime"]["hostBehaviors"] = Value::Object(keys);
    serde_json::to_string(&manifest).expect("serializable")
}

fn feature_with_requires(bases: &Value, n: usize) -> String {
    let mut manifest = bases["feature"].clone();
    manifest["requires"] = Value::Array(
        (0..n)
            .map(|i| Value::String(format!("r{}", base36(i))))
            .collect(),
    );
    serde_json::to_string(&manifest).expect("serializable")
}

/// Facts for claude with `n` skills installed globally and the same `n` stems as local
/// commands: every local trigger is shadowed by a global skill.
fn both_scopes_facts(n: usize) -> String {
    let manifest = |scope: &str, file: &dyn Fn(usize) -> String| {
        let files: Map<String, Value> = (0..n).map(|i| (file(i), json!("x"))).collect();
        json!({"manifestVersion": 2, "runtime": "claude", "scope": scope, "files": files})
            .to_string()
    };
    let global = manifest("global", &|i| format!("skills/gsd-s{i}/SKILL.md"));
    let local = manifest("local", &|i| format!("commands/gsd-s{i}.md"));
    json!({"homes": {
        "/home/u/.claude": {"manifest": global},
        "/work/p/.claude": {"manifest": local},
    }})
    .to_string()
}

/// A case of `parse_manifest` alone, with no target: the parser's hostile shapes.
fn parse_case(name: &'static str, build: fn(&Value) -> Input) -> Case {
    Case {
        name,
        target_ms: None,
        target_mib: None,
        target_counts_input: false,
        build,
        run: |i| outcome_of_parse(parse_manifest(i.text())),
    }
}

const EIGHT_MIB: usize = 8 * 1024 * 1024;

/// An object of about 8 MiB: the members `first`, then `"a":1` over and over.
fn repeated_key_after(first: &str) -> Input {
    let member = "\"a\":1,";
    let n = (EIGHT_MIB - 16 - first.len()) / member.len();
    Input::Text(format!("{{{first}{}\"a\":1}}", member.repeat(n)))
}

fn overlay(folder: &str, manifest: String) -> Input {
    Input::Overlays(vec![Overlay {
        folder: folder.to_owned(),
        manifest,
        fragments: Vec::new(),
    }])
}

fn outcome_of_parse(result: Result<Value, gsd_core::Error>) -> String {
    match result {
        Ok(_) => "parsed".to_owned(),
        Err(e) => format!("{} ({})", e.code(), e.field().unwrap_or("-")),
    }
}

fn validate_outcome(text: &str, folder: &str) -> String {
    match parse_manifest(text) {
        Err(e) => format!("{} ({})", e.code(), e.field().unwrap_or("-")),
        Ok(value) => {
            let check = check_capability(&value, folder, Origin::ThirdParty);
            let records = warning_records(&value).len();
            format!(
                "{} errors, {} warnings, warning_records {records}",
                check.errors.len(),
                check.warnings.len()
            )
        }
    }
}

fn overlay_outcome(overlays: &[Overlay]) -> String {
    let base = Registry::first_party();
    let registry = base.with_overlays(overlays);
    let added: Vec<&str> = registry
        .diagnostics()
        .iter()
        .skip(base.diagnostics().len())
        .map(|d| d.code.as_str())
        .collect();
    let joined = overlays.iter().all(|o| registry.is_third_party(&o.folder));
    let first = added.first().copied().unwrap_or("-");
    format!(
        "{}, {} diagnostics (first: {first})",
        if joined { "accepted" } else { "rejected" },
        added.len()
    )
}

#[allow(clippy::too_many_lines)] // Reason: one table of cases, read top to bottom.
fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "parse: 9 MiB manifest",
            target_ms: Some(50.0),
            target_mib: None,
            target_counts_input: false,
            build: |_| {
                Input::Text(format!(
                    "{{\"id\":\"acme\",\"description\":\"{}\"}}",
                    "a".repeat(9 * 1024 * 1024)
                ))
            },
            run: |i| outcome_of_parse(parse_manifest(i.text())),
        },
        Case {
            name: "overlay: 9 MiB manifest",
            target_ms: Some(50.0),
            target_mib: None,
            target_counts_input: false,
            build: |_| {
                overlay(
                    "acme-big",
                    format!(
                        "{{\"id\":\"acme-big\",\"d\":\"{}\"}}",
                        "a".repeat(9 * 1024 * 1024)
                    ),
                )
            },
            run: |i| overlay_outcome(i.overlays()),
        },
        parse_case("parse: 100k-deep arrays", |_| {
            Input::Text("[".repeat(100_000))
        }),
        parse_case("parse: 100k-deep objects", |_| {
            Input::Text(format!(
                "{}1{}",
                "{\"a\":".repeat(100_000),
                "}".repeat(100_000)
            ))
        }),
        parse_case("parse: 8 MiB of empty members {,,,}", |_| {
            Input::Text(format!("{{{}}}", ",".repeat(EIGHT_MIB - 2)))
        }),
        parse_case("parse: 8 MiB of one repeated key", |_| {
            repeated_key_after("")
        }),
        parse_case("parse: 8 MiB, 1,024 keys then one repeated", |_| {
            let first = (0..1024).fold(String::new(), |mut out, i| {
                let _ = write!(out, "\"k{i}\":1,");
                out
            });
            repeated_key_after(&first)
        }),
        parse_case(
            "parse: 8 MiB array [1,1,1,...] (the costliest text per byte)",
            |_| Input::Text(format!("[{}1]", "1,".repeat(EIGHT_MIB / 2 - 2))),
        ),
        Case {
            name: "validate: 800k hostBehaviors keys",
            target_ms: Some(1000.0),
            target_mib: Some(100.0),
            target_counts_input: false,
            build: |b| Input::Text(runtime_with_host_behaviors(b, 800_000)),
            run: |i| validate_outcome(i.text(), "acme-cli"),
        },
        Case {
            name: "overlay: 800k hostBehaviors keys",
            target_ms: Some(1000.0),
            target_mib: Some(100.0),
            target_counts_input: false,
            build: |b| overlay("acme-cli", runtime_with_host_behaviors(b, 800_000)),
            run: |i| overlay_outcome(i.overlays()),
        },
        Case {
            name: "validate: 500k requires",
            target_ms: None,
            target_mib: None,
            target_counts_input: false,
            build: |b| Input::Text(feature_with_requires(b, 500_000)),
            run: |i| validate_outcome(i.text(), "acme-notes"),
        },
        Case {
            name: "overlay: 500k requires",
            target_ms: None,
            target_mib: None,
            target_counts_input: false,
            build: |b| overlay("acme-notes", feature_with_requires(b, 500_000)),
            run: |i| overlay_outcome(i.overlays()),
        },
        Case {
            name: "install manifest: 64 MiB",
            target_ms: None,
            target_mib: Some(200.0),
            target_counts_input: true,
            build: |_| {
                Input::Text(format!(
                    "{{\"files\":{{\"a\":\"{}\"}}}}",
                    "x".repeat(64 * 1024 * 1024)
                ))
            },
            run: |i| {
                let read = read_install_manifest(Some(i.text()));
                let code = read.diagnostics.first().map_or("-", |d| d.code.as_str());
                format!("installed {}, {code}", read.manifest.is_installed())
            },
        },
        Case {
            // Every stem shadowed: before the per-scope stem sets, each shadowed trigger
            // searched both scopes' stem lists, quadratic (101.5 s for this input).
            name: "shadow report: 100k stems in both claude scopes",
            target_ms: None,
            target_mib: None,
            target_counts_input: false,
            build: |_| Input::Text(both_scopes_facts(100_000)),
            run: |i| {
                let facts: SurfaceFacts = serde_json::from_str(i.text()).expect("facts");
                let host = Host::new("/home/u", "/work/p");
                let report = build_shadow_report(Registry::first_party(), "claude", &host, &facts)
                    .expect("a report");
                format!("{} shadowed", report.triggers.len())
            },
        },
        Case {
            name: "install manifest: 100k-deep",
            target_ms: None,
            target_mib: None,
            target_counts_input: false,
            build: |_| Input::Text(format!("{{\"files\":{}", "[".repeat(100_000))),
            run: |i| {
                let read = read_install_manifest(Some(i.text()));
                let code = read.diagnostics.first().map_or("-", |d| d.code.as_str());
                format!("installed {}, {code}", read.manifest.is_installed())
            },
        },
    ]
}

#[derive(Debug)]
struct Measured {
    median: Duration,
    min: Duration,
    peak_bytes: usize,
    outcome: String,
}

fn measure(case: &Case, input: &Input, runs: usize) -> Measured {
    let mut times = Vec::with_capacity(runs);
    let mut peak_bytes = 0;
    let mut outcome = String::new();
    for _ in 0..runs {
        let started = Instant::now();
        let (result, usage) = counting::measure(|| black_box((case.run)(black_box(input))));
        let elapsed = started.elapsed();
        peak_bytes = peak_bytes.max(usage.peak);
        times.push(elapsed);
        outcome = result;
    }
    times.sort();
    Measured {
        median: times[times.len() / 2],
        min: times[0],
        peak_bytes,
        outcome,
    }
}

fn verdict(case: &Case, m: &Measured, input_bytes: usize) -> String {
    let mut parts = Vec::new();
    let ms = m.median.as_secs_f64() * 1000.0;
    if let Some(target) = case.target_ms {
        parts.push(format!(
            "time {} (< {target} ms)",
            if ms < target { "met" } else { "NOT met" }
        ));
    }
    if let Some(target) = case.target_mib {
        let counted = m.peak_bytes
            + if case.target_counts_input {
                input_bytes
            } else {
                0
            };
        let mib = counted as f64 / MIB;
        parts.push(format!(
            "memory {} (< {target} MiB{})",
            if mib < target { "met" } else { "NOT met" },
            if case.target_counts_input {
                ", input included"
            } else {
                ""
            }
        ));
    }
    if parts.is_empty() {
        "no target".to_owned()
    } else {
        parts.join("; ")
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number is the run count; `--json` prints one
    // object (per case its peak heap and input bytes, for `benches/guard.mjs`) instead of
    // the table.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let runs = args
        .iter()
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(if json { 1 } else { 5 })
        .max(1);
    let bases = bases();
    // Warm the embedded first-party registry so its one-time build is not measured.
    black_box(Registry::first_party());
    if !json {
        println!(
            "| case | input MiB | median ms | min ms | peak heap MiB (above input) | outcome | target |"
        );
        println!("|---|---|---|---|---|---|---|");
    }
    let mut figures = Map::new();
    for case in cases() {
        let input = (case.build)(&bases);
        let input_bytes = input.bytes();
        let m = measure(&case, &input, runs);
        if json {
            figures.insert(
                case.name.to_owned(),
                json!({
                    "peak": m.peak_bytes,
                    "input": input_bytes,
                    "targetMiB": case.target_mib,
                    "targetCountsInput": case.target_counts_input,
                }),
            );
        } else {
            println!(
                "| {} | {:.1} | {:.3} | {:.3} | {:.1} | {} | {} |",
                case.name,
                input_bytes as f64 / MIB,
                m.median.as_secs_f64() * 1000.0,
                m.min.as_secs_f64() * 1000.0,
                m.peak_bytes as f64 / MIB,
                m.outcome,
                verdict(&case, &m, input_bytes)
            );
        }
        drop(input);
    }
    if json {
        println!("{}", Value::Object(figures));
    } else {
        println!(
            "\n{runs} runs per case; release build; peak heap counted by the bench's global allocator."
        );
    }
}

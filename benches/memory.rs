//! Heap use of the core's main workloads: for each, the allocations it makes, the bytes
//! still held by what it returns, and its peak above what was live before it, counted by
//! a global allocator installed in this binary only (`counting.rs`). A plain program, not a
//! test: it prints one table. Counts do not depend on the machine's load; they move only
//! with the code (and, by a few bytes, with `serde_json`'s randomly seeded maps).
//!
//! `cargo bench -p gsd-core --bench memory [-- --json]` (`--json`: one object, per workload
//! its per-element figures, for `benches/guard.mjs`)
//!
//! Inputs are those of the other benches (`common/mod.rs`): the first-party registry, the
//! peer package's inventory (72 command stems, 64 agent stems, 6 routers), synthetic
//! overlays.

#![allow(clippy::cast_precision_loss)] // Reason: byte counts are printed per element with one decimal.

mod common;

#[path = "counting.rs"]
mod counting;

use std::hint::black_box;

use counting::{Usage, measure};
use gsd_core::{
    Overlay, ParsedManifest, PlanRequest, Registry, Scope, decide_install_plan,
    resolve_install_plan,
};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// One line of the table: what was measured, over how many elements, and the usage.
struct Row {
    name: String,
    elements: usize,
    element: &'static str,
    usage: Usage,
}

fn row(name: impl Into<String>, elements: usize, element: &'static str, usage: Usage) -> Row {
    Row {
        name: name.into(),
        elements,
        element,
        usage,
    }
}

/// Plan requests of `runtimes` at both scopes.
fn requests(inv: &common::Inventory, runtimes: &[String]) -> Vec<PlanRequest> {
    runtimes
        .iter()
        .flat_map(|r| [Scope::Global, Scope::Local].map(|s| common::plan_request(inv, r, s, 1)))
        .collect()
}

fn main() {
    // First, before anything else touches it: the embedded first-party registry, built once
    // per process and kept for its lifetime.
    let (registry, built) = measure(Registry::first_party);
    let mut rows = vec![row(
        "first-party registry (built once)",
        1,
        "registry",
        built,
    )];

    let texts: Vec<(&str, &str)> = gsd_core::embedded::first_party()
        .iter()
        .map(|c| (c.folder, c.manifest))
        .collect();
    let ((), usage) = measure(|| {
        for (folder, text) in &texts {
            let parsed = ParsedManifest::parse(black_box(text)).expect("valid JSON");
            black_box(parsed.validate(folder));
            black_box(parsed.warning_records());
        }
    });
    rows.push(row(
        "validate 46 manifests (text, warning records)",
        texts.len(),
        "manifest",
        usage,
    ));

    for n in [1_000, 10_000] {
        let overlays: Vec<Overlay> = (0..n).map(common::synthetic_overlay).collect();
        let (with, usage) = measure(|| registry.with_overlays(&overlays));
        assert_eq!(
            with.capabilities().count(),
            registry.capabilities().count() + n,
            "every synthetic overlay is accepted"
        );
        rows.push(row(format!("registry + {n} overlays"), n, "overlay", usage));
        drop(with);
    }

    let inv = common::inventory();
    let inventory = common::checked_inventory(&inv);
    let claude = requests(&inv, &["claude".to_owned()]);
    let all = requests(&inv, &common::installable_runtimes(registry));
    for (label, list) in [("claude", &claude), ("18 runtimes", &all)] {
        let (decisions, usage) = measure(|| {
            list.iter()
                .map(|r| {
                    decide_install_plan(
                        registry, &r.runtime, r.scope, &r.host, None, &inventory, None,
                    )
                    .expect("decision")
                })
                .collect::<Vec<_>>()
        });
        rows.push(row(
            format!("decided plan, {label} x 2 scopes"),
            list.len(),
            "plan",
            usage,
        ));
        let (triggers, usage) = measure(|| {
            decisions
                .iter()
                .map(gsd_core::PlanDecision::triggers)
                .collect::<Vec<_>>()
        });
        rows.push(row(
            format!("decided plan, {label} x 2 scopes, trigger records spelled out"),
            list.len(),
            "plan",
            usage,
        ));
        drop(triggers);
        drop(decisions);
        let (plans, usage) = measure(|| {
            list.iter()
                .map(|r| resolve_install_plan(registry, r).expect("plan"))
                .collect::<Vec<_>>()
        });
        rows.push(row(
            format!("whole plan, {label} x 2 scopes"),
            list.len(),
            "plan",
            usage,
        ));
        drop(plans);
    }

    if std::env::args().any(|a| a == "--json") {
        print_json(&rows);
    } else {
        print_table(&rows);
    }
}

/// A figure per element.
fn per(row: &Row, value: usize) -> f64 {
    value as f64 / row.elements as f64
}

fn print_table(rows: &[Row]) {
    println!(
        "| workload | elements | allocations per element | bytes kept per element | peak of the whole operation |"
    );
    println!("|---|---|---|---|---|");
    for r in rows {
        println!(
            "| {} | {} {}{} | {:.1} | {:.1} | {:.1} KiB |",
            r.name,
            r.elements,
            r.element,
            if r.elements == 1 { "" } else { "s" },
            per(r, r.usage.allocations),
            per(r, r.usage.retained),
            r.usage.peak as f64 / 1024.0,
        );
    }
}

fn print_json(rows: &[Row]) {
    let figures: serde_json::Map<String, serde_json::Value> = rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                serde_json::json!({
                    "elements": r.elements,
                    "allocations": per(r, r.usage.allocations),
                    "kept": per(r, r.usage.retained),
                    "peak": r.usage.peak,
                }),
            )
        })
        .collect();
    println!("{}", serde_json::Value::Object(figures));
}

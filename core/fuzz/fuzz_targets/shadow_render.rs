//! `sanitize_for_render` on arbitrary text and `render_shadow_report` on arbitrary report
//! data.
//!
//! Invariants: the sanitizer is idempotent, never lengthens, and leaves no ANSI ESC, C0/C1
//! control, bidi embedding/override/isolate, combining mark U+0300–U+036F, zero-width
//! character, doubled or edge whitespace; the renderer never panics, prints at most
//! `min(n, limit)` trigger lines plus the headline, the `...and k more` line and one note
//! per mismatch, and — given triggers as the builder makes them (safe stems) and any
//! declared runtime — prints no control character.
#![no_main]

use arbitrary::Arbitrary;
use gsd_core::shadow::{ShadowSide, ShadowedTrigger};
use gsd_core::vocab::TriggerKind;
use gsd_core::{
    ManifestMismatch, Scope, ShadowReason, ShadowReport, render_shadow_report, sanitize_for_render,
};
use libfuzzer_sys::fuzz_target;

/// Scope, declared runtime, runtime matches, declared scope, scope matches.
type FuzzMismatch = (
    bool,
    Option<String>,
    Option<bool>,
    Option<bool>,
    Option<bool>,
);

#[derive(Debug, Arbitrary)]
struct Input {
    text: String,
    runtime: String,
    reason: u8,
    shadowed: bool,
    first: Option<(bool, bool, bool, bool)>,
    triggers: Vec<(String, bool, bool, bool, bool)>,
    mismatches: Vec<FuzzMismatch>,
    limit: u8,
}

fn kind(b: bool) -> TriggerKind {
    if b {
        TriggerKind::Skills
    } else {
        TriggerKind::Commands
    }
}

fn scope(b: bool) -> Scope {
    if b { Scope::Global } else { Scope::Local }
}

fn removed(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{0300}'..='\u{036F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{FEFF}'
    )
}

/// The stem alphabet of installed triggers (`[a-z0-9-]`), as the surface resolver keeps them.
fn stem(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fuzz_target!(|input: Input| {
    let once = sanitize_for_render(&input.text);
    assert_eq!(sanitize_for_render(&once), once, "not idempotent");
    assert!(once.chars().count() <= input.text.chars().count());
    assert!(!once.chars().any(removed), "{once:?}");
    assert!(!once.contains("  ") && once.trim() == once, "{once:?}");

    let triggers: Vec<ShadowedTrigger> = input
        .triggers
        .iter()
        .map(|(t, wk, ws, sk, ss)| ShadowedTrigger {
            trigger: format!("gsd-{}", stem(t)),
            winner_kind: kind(*wk),
            winner_scope: scope(*ws),
            shadowed_kind: kind(*sk),
            shadowed_scope: scope(*ss),
        })
        .collect();
    let mismatches: Vec<ManifestMismatch> = input
        .mismatches
        .iter()
        .map(|(s, runtime, rm, ds, sm)| ManifestMismatch {
            scope: scope(*s),
            declared_runtime: runtime.clone(),
            declared_runtime_matches_probe: *rm,
            declared_scope: ds.map(scope),
            declared_scope_matches_probe: *sm,
        })
        .collect();
    let reason = match input.reason % 3 {
        0 => ShadowReason::NotShadowed,
        1 => ShadowReason::ScopeShadowed,
        _ => ShadowReason::ResolverUnavailable,
    };
    let (winner, shadowed_side) = match input.first {
        Some((wk, ws, sk, ss)) => (
            Some(ShadowSide {
                kind: kind(wk),
                scope: scope(ws),
            }),
            Some(ShadowSide {
                kind: kind(sk),
                scope: scope(ss),
            }),
        ),
        None => (None, None),
    };
    let report = ShadowReport {
        runtime: input.runtime,
        reason,
        shadowed: input.shadowed,
        winner,
        shadowed_side,
        kinds_differ: winner.map(|w| w.kind) != shadowed_side.map(|s| s.kind),
        triggers,
        mismatches,
    };
    let limit = usize::from(input.limit);
    let lines = render_shadow_report(&report, limit);
    let n = report.triggers.len();
    assert!(lines.len() <= 1 + n.min(limit) + 1 + report.mismatches.len());
    for line in &lines {
        assert!(
            !line
                .chars()
                .any(|c| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')),
            "{line:?}"
        );
    }
});

//! The cross-scope shadow report: which installed triggers are unreachable, and its text.
//!
//! A projection over [`crate::surface::resolve_installed_surfaces`] (the peer's
//! `install-shadow-report`): [`build_shadow_report`] keeps only the triggers whose
//! `shadowedBy` is set *and* whose stem really exists at both the winning and the losing
//! scope (the resolver unions stems across scopes, so it also proposes triggers for files
//! that exist at one scope only), sorts them by trigger, and lists every scope whose
//! manifest declares another runtime or scope. [`render_shadow_report`] turns a report into
//! the peer's plain lines; [`sanitize_for_render`] is the guard applied to every value from
//! a manifest before it is printed.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::error::Error;
use crate::host::Host;
use crate::js::is_js_space;
use crate::registry::Registry;
use crate::surface::{
    InstalledRuntimeSurface, InstalledScope, SurfaceFacts, is_input_contract_error,
    resolve_installed_surfaces, trigger_entries,
};
use crate::vocab::{ArtifactKindName, Scope, TriggerKind};

/// Why a report says what it says (the peer's `SHADOW_REASON` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShadowReason {
    /// `not_shadowed`: nothing installed at one scope hides anything at another.
    NotShadowed,
    /// `scope_shadowed`: at least one installed trigger is hidden by another.
    ScopeShadowed,
    /// `resolver_unavailable`: the runtime is unknown or has no config directory.
    ResolverUnavailable,
}

wire_names!(ShadowReason {
    NotShadowed => "not_shadowed",
    ScopeShadowed => "scope_shadowed",
    ResolverUnavailable => "resolver_unavailable",
});

/// One side of a shadow: the kind and scope of an artifact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ShadowSide {
    /// `commands` or `skills`.
    pub kind: TriggerKind,
    /// Where it is installed.
    pub scope: Scope,
}

/// One trigger hidden by an artifact of the same name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowedTrigger {
    /// The trigger (`gsd-help`).
    pub trigger: String,
    /// Kind of the artifact the host picks.
    pub winner_kind: TriggerKind,
    /// Scope of the artifact the host picks.
    pub winner_scope: Scope,
    /// Kind of the hidden artifact.
    pub shadowed_kind: TriggerKind,
    /// Scope of the hidden artifact.
    pub shadowed_scope: Scope,
}

/// A scope whose manifest declares a runtime or scope other than the one probed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestMismatch {
    /// The probed scope.
    pub scope: Scope,
    /// The declared runtime, sanitized for printing.
    pub declared_runtime: Option<String>,
    /// Whether it equals the probed runtime (`None` when undeclared).
    pub declared_runtime_matches_probe: Option<bool>,
    /// The declared scope.
    pub declared_scope: Option<Scope>,
    /// Whether it equals the probed scope (`None` when undeclared).
    pub declared_scope_matches_probe: Option<bool>,
}

/// The shadow report of one runtime (the peer's `ShadowReport`, same keys and order).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowReport {
    /// The runtime asked about.
    pub runtime: String,
    /// Outcome.
    pub reason: ShadowReason,
    /// Whether any trigger is shadowed.
    pub shadowed: bool,
    /// Kind and scope of the winner of the first shadowed trigger.
    pub winner: Option<ShadowSide>,
    /// Kind and scope of the loser of the first shadowed trigger.
    pub shadowed_side: Option<ShadowSide>,
    /// Whether winner and loser differ in kind (the loser is then unreachable, not overridden).
    pub kinds_differ: bool,
    /// Every shadowed trigger, sorted by trigger (UTF-16 code-unit order).
    pub triggers: Vec<ShadowedTrigger>,
    /// Scopes whose manifest declares another runtime or scope.
    pub mismatches: Vec<ManifestMismatch>,
}

/// Default number of trigger lines [`render_shadow_report`] prints.
pub const DEFAULT_SAMPLE_LIMIT: usize = 5;

/// Strips a manifest-supplied string for printing: ANSI CSI/OSC sequences, then C0, DEL and
/// C1 controls, bidi embeddings/overrides/isolates, combining marks U+0300–U+036F and
/// zero-width characters; then every whitespace run (NBSP included) becomes one space and
/// the ends are trimmed. Idempotent; never truncates.
///
/// ```
/// use gsd_core::shadow::sanitize_for_render;
/// assert_eq!(sanitize_for_render("\u{1b}[31mcla\u{202e}ude\u{a0}\u{a0}x\n"), "claude x");
/// assert_eq!(sanitize_for_render("bad\u{1b}Z"), "badZ");
/// ```
#[must_use]
pub fn sanitize_for_render(value: &str) -> String {
    let without_ansi = strip_ansi(value);
    let kept = without_ansi.chars().filter(|&c| !is_stripped(c));
    let mut out = String::with_capacity(value.len());
    let mut pending_space = false;
    for c in kept {
        if is_js_space(c) {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// Characters removed outright (after the ANSI pass).
fn is_stripped(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{300}'..='\u{36f}'
            | '\u{200b}'..='\u{200d}'
            | '\u{feff}'
            // Beyond the peer's set (deliberate): the remaining bidi marks and the
            // invisible operators, so they cannot reorder or hide rendered text.
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2060}'..='\u{2064}'
    ) || (crate::sanitize::is_unsafe_char(c) && !is_js_space(c))
    // And every other character the messages' sanitizer refuses (the default-ignorable
    // code points: soft hyphen, variation selectors, tags, Hangul fillers...), except the
    // ones JavaScript counts as whitespace, which collapse into a space as the peer's do.
}

/// Removes `ESC [ params intermediates final` and `ESC ] … (BEL | ESC \)` sequences,
/// scanning left to right; an incomplete sequence is left (its ESC goes with the controls).
fn strip_ansi(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\u{1b}'
            && let Some(end) = ansi_sequence_end(&chars, i)
        {
            i = end;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The index just past the escape sequence starting at `start`, if one does.
fn ansi_sequence_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start + 1;
    match chars.get(i)? {
        '[' => {
            i += 1;
            while chars.get(i).is_some_and(|c| ('0'..='?').contains(c)) {
                i += 1;
            }
            while chars.get(i).is_some_and(|c| (' '..='/').contains(c)) {
                i += 1;
            }
            chars
                .get(i)
                .filter(|c| ('@'..='~').contains(*c))
                .map(|_| i + 1)
        }
        ']' => {
            i += 1;
            while chars.get(i).is_some_and(|&c| c != '\u{7}' && c != '\u{1b}') {
                i += 1;
            }
            match (chars.get(i)?, chars.get(i + 1)) {
                ('\u{7}', _) => Some(i + 1),
                ('\u{1b}', Some('\\')) => Some(i + 2),
                _ => None,
            }
        }
        _ => None,
    }
}

fn sanitize_option(value: Option<&str>) -> Option<String> {
    value.map(sanitize_for_render)
}

/// Builds the shadow report of `runtime` from the same inputs as
/// [`resolve_installed_surfaces`].
///
/// # Errors
/// Only errors outside the input-contract class (see [`resolve_installed_surfaces`]); an
/// unknown runtime or vscode gives `reason: resolver_unavailable`.
pub fn build_shadow_report(
    registry: &Registry,
    runtime: &str,
    host: &Host,
    facts: &SurfaceFacts,
) -> Result<ShadowReport, Error> {
    match resolve_installed_surfaces(registry, Some(runtime), host, facts) {
        Ok(resolved) => match resolved.surfaces.first() {
            Some(surface) => Ok(shadow_report_of(registry, surface)),
            None => Ok(unavailable(runtime)),
        },
        Err(error) if is_input_contract_error(&error) => Ok(unavailable(runtime)),
        Err(error) => Err(error),
    }
}

fn unavailable(runtime: &str) -> ShadowReport {
    ShadowReport {
        runtime: runtime.to_owned(),
        reason: ShadowReason::ResolverUnavailable,
        shadowed: false,
        winner: None,
        shadowed_side: None,
        kinds_differ: false,
        triggers: Vec::new(),
        mismatches: Vec::new(),
    }
}

/// The prefix of the first layout entry of `kind` in a scope record's own layout (`None`
/// when it cannot be resolved).
fn prefix_for(
    registry: &Registry,
    runtime: &str,
    record: &InstalledScope,
    kind: TriggerKind,
) -> Option<String> {
    let wanted = match kind {
        TriggerKind::Commands => ArtifactKindName::Commands,
        TriggerKind::Skills => ArtifactKindName::Skills,
    };
    trigger_entries(registry, runtime, &record.config_home, record.scope)?
        .into_iter()
        .find(|(k, _, _)| *k == wanted)
        .map(|(_, _, prefix)| prefix)
}

/// `trigger` minus `prefix`, when the prefix is known, matches and leaves a stem.
fn stem_of<'t>(trigger: &'t str, prefix: Option<&str>) -> Option<&'t str> {
    trigger
        .strip_prefix(prefix?)
        .filter(|stem| !stem.is_empty())
}

/// The report for an already-resolved surface (the per-scope truth filter, sorting,
/// mismatches and the first-trigger winner).
#[must_use]
pub fn shadow_report_of(registry: &Registry, surface: &InstalledRuntimeSurface) -> ShadowReport {
    let runtime = surface.runtime.as_str();
    let record_of = |scope: Scope| surface.scopes.iter().find(|r| r.scope == scope);
    let mut prefixes: Vec<((Scope, TriggerKind), Option<String>)> = Vec::new();
    let mut prefix_of = |scope: Scope, kind: TriggerKind| -> Option<String> {
        if let Some((_, cached)) = prefixes.iter().find(|(key, _)| *key == (scope, kind)) {
            return cached.clone();
        }
        let prefix =
            record_of(scope).and_then(|record| prefix_for(registry, runtime, record, kind));
        prefixes.push(((scope, kind), prefix.clone()));
        prefix
    };
    // Each scope's stems as a set, built at the first shadowed trigger that asks: a trigger
    // looks its two stems up once each, so the report is linear in the stems (a manifest
    // from a cloned repository may list hundreds of thousands).
    let mut stem_sets: BTreeMap<Scope, HashSet<&str>> = BTreeMap::new();
    let mut has = |scope: Scope, stem: &str| -> bool {
        stem_sets
            .entry(scope)
            .or_insert_with(|| {
                record_of(scope)
                    .map(|r| r.stems.iter().map(String::as_str).collect())
                    .unwrap_or_default()
            })
            .contains(stem)
    };
    let mut triggers = Vec::new();
    for t in &surface.triggers {
        let Some(by) = &t.shadowed_by else { continue };
        let winner_prefix = prefix_of(by.scope, by.kind);
        let shadowed_prefix = prefix_of(t.scope, t.kind);
        let (Some(winner_stem), Some(shadowed_stem)) = (
            stem_of(t.trigger, winner_prefix.as_deref()),
            stem_of(t.trigger, shadowed_prefix.as_deref()),
        ) else {
            continue;
        };
        if has(by.scope, winner_stem) && has(t.scope, shadowed_stem) {
            triggers.push(ShadowedTrigger {
                trigger: t.trigger.to_owned(),
                winner_kind: by.kind,
                winner_scope: by.scope,
                shadowed_kind: t.kind,
                shadowed_scope: t.scope,
            });
        }
    }
    triggers.sort_by(|a, b| a.trigger.encode_utf16().cmp(b.trigger.encode_utf16()));
    let mismatches = surface
        .scopes
        .iter()
        .filter(|r| {
            r.declared_runtime_matches_probe == Some(false)
                || r.declared_scope_matches_probe == Some(false)
        })
        .map(|r| ManifestMismatch {
            scope: r.scope,
            declared_runtime: sanitize_option(r.declared_runtime.as_deref()),
            declared_runtime_matches_probe: r.declared_runtime_matches_probe,
            declared_scope: r.declared_scope,
            declared_scope_matches_probe: r.declared_scope_matches_probe,
        })
        .collect();
    let Some(first) = triggers.first() else {
        return ShadowReport {
            reason: ShadowReason::NotShadowed,
            mismatches,
            ..unavailable(runtime)
        };
    };
    let winner = ShadowSide {
        kind: first.winner_kind,
        scope: first.winner_scope,
    };
    let shadowed_side = ShadowSide {
        kind: first.shadowed_kind,
        scope: first.shadowed_scope,
    };
    ShadowReport {
        runtime: runtime.to_owned(),
        reason: ShadowReason::ScopeShadowed,
        shadowed: true,
        winner: Some(winner),
        shadowed_side: Some(shadowed_side),
        kinds_differ: winner.kind != shadowed_side.kind,
        triggers,
        mismatches,
    }
}

/// Renders a report as the peer's plain lines (no colour, no indent of the headline);
/// nothing unless `reason` is `scope_shadowed`. At most `sample_limit` trigger lines are
/// printed, then `...and <k> more`, then one note per manifest mismatch.
#[must_use]
pub fn render_shadow_report(report: &ShadowReport, sample_limit: usize) -> Vec<String> {
    let (ShadowReason::ScopeShadowed, Some(winner), Some(loser)) =
        (report.reason, report.winner, report.shadowed_side)
    else {
        return Vec::new();
    };
    let count = report.triggers.len();
    let plural = if count == 1 { "" } else { "s" };
    let mut lines = Vec::with_capacity(count.min(sample_limit) + 2 + report.mismatches.len());
    lines.push(if report.kinds_differ {
        format!(
            "{count} trigger{plural} shadowed: the {} {} surface is unreachable through {} — {} {} wins instead.",
            loser.scope,
            loser.kind,
            if count == 1 { "that trigger" } else { "those triggers" },
            winner.scope,
            winner.kind
        )
    } else {
        format!(
            "{count} trigger{plural} shadowed: the {} {} {} overridden by {} {}.",
            loser.scope,
            loser.kind,
            if count == 1 { "entry is" } else { "entries are" },
            winner.scope,
            winner.kind
        )
    });
    let shown = count.min(sample_limit);
    for t in &report.triggers[..shown] {
        lines.push(format!(
            "  - {}: {}/{} shadowed by {}/{}",
            t.trigger, t.shadowed_scope, t.shadowed_kind, t.winner_scope, t.winner_kind
        ));
    }
    if count > shown {
        lines.push(format!("  ...and {} more", count - shown));
    }
    for m in &report.mismatches {
        let mut parts = Vec::new();
        if m.declared_runtime_matches_probe == Some(false) {
            let runtime = sanitize_option(m.declared_runtime.as_deref());
            parts.push(format!(
                "declared runtime \"{}\" does not match this runtime",
                runtime.as_deref().unwrap_or("null")
            ));
        }
        if m.declared_scope_matches_probe == Some(false) {
            parts.push(format!(
                "declared scope \"{}\" does not match the probed {} scope",
                m.declared_scope.map_or("null", Scope::as_str),
                m.scope
            ));
        }
        lines.push(format!(
            "Note: {} scope manifest mismatch — {}.",
            m.scope,
            parts.join("; ")
        ));
    }
    lines
}

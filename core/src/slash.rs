//! Runtime names and slash-command spelling.
//!
//! A runtime name from a user or a config file is normalised (trimmed, lower-cased, runs of
//! `_`/whitespace turned into `-`) and canonicalised through a fixed alias table
//! (`claude-code` → `claude`). [`format_gsd_slash`] spells a GSD command the way the
//! runtime's `commandStyle` wants it: `/gsd-x` or, for shell-var runtimes, `$gsd-x`.

use crate::js::is_js_space;
use crate::registry::Registry;
use crate::vocab::CommandStyle;

/// Canonical runtime id → its aliases (the canonical id itself included), as shipped.
pub const RUNTIME_ALIASES: &[(&str, &[&str])] = &[
    ("claude", &["claude", "claude-code", "claude-cli"]),
    ("opencode", &["opencode", "open-code", "opencode-cli"]),
    ("kilo", &["kilo", "kilo-cli"]),
    (
        "codex",
        &[
            "codex",
            "codex-app",
            "codex-cli",
            "codex_desktop",
            "codex-desktop",
        ],
    ),
    ("copilot", &["copilot", "copilot-cli", "github-copilot"]),
    (
        "antigravity",
        &["antigravity", "antigravity-cli", "antigravity-agent"],
    ),
    ("cursor", &["cursor", "cursor-cli", "cursor-nightly"]),
    (
        "windsurf",
        &["windsurf", "windsurf-cli", "windsurf-next", "devin-desktop"],
    ),
    ("augment", &["augment", "augment-code", "augment-cli"]),
    ("trae", &["trae", "trae-cli"]),
    ("qwen", &["qwen", "qwen-code", "qwen-cli"]),
    ("hermes", &["hermes", "hermes-agent", "hermes-cli"]),
    ("kimi", &["kimi"]),
    ("kimi-code", &["kimi-code", "kimicode", "kimi_code"]),
    ("codebuddy", &["codebuddy", "codebuddy-cli"]),
    ("cline", &["cline", "cline-cli"]),
];

/// Trims (JavaScript whitespace), lower-cases, and turns every run of `_`/whitespace into `-`.
#[must_use]
pub fn normalize_runtime_name(value: &str) -> String {
    let lowered = value.trim_matches(is_js_space).to_lowercase();
    let mut out = String::with_capacity(lowered.len());
    let mut in_run = false;
    for c in lowered.chars() {
        if c == '_' || is_js_space(c) {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// The canonical runtime id for a name or alias, or `None` (pi, zcode, vscode and gemini are
/// not in the alias table).
#[must_use]
pub fn canonicalize_runtime_name(value: &str) -> Option<&'static str> {
    let wanted = normalize_runtime_name(value);
    RUNTIME_ALIASES
        .iter()
        .find(|(canonical, aliases)| {
            normalize_runtime_name(canonical) == wanted
                || aliases.iter().any(|a| normalize_runtime_name(a) == wanted)
        })
        .map(|(canonical, _)| *canonical)
}

/// The first candidate that normalises to a non-empty name, canonicalised when known,
/// otherwise returned normalised (`Future_Thing` → `future-thing`).
#[must_use]
pub fn resolve_runtime_name_from_candidates(candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .map(|c| normalize_runtime_name(c))
        .find(|n| !n.is_empty())
        .map(|normalized| canonicalize_runtime_name(&normalized).map_or(normalized, str::to_owned))
}

/// Strips one leading `[/$]?gsd[-:]` (the `gsd` in any ASCII case).
fn strip_gsd_prefix(name: &str) -> &str {
    let rest = name.strip_prefix(['/', '$']).unwrap_or(name);
    let Some(head) = rest.get(..3) else {
        return name;
    };
    if !head.eq_ignore_ascii_case("gsd") {
        return name;
    }
    rest[3..].strip_prefix(['-', ':']).unwrap_or(name)
}

/// Spells a GSD command for `runtime` (default `claude`; lower-cased and canonicalised, an
/// unknown name is kept). One leading `/gsd:`, `/gsd-`, `$gsd-` or `gsd:` (any case) is
/// stripped; the first whitespace-free token is the command and the rest is kept verbatim.
/// Shell-var runtimes get `$gsd-<token lower-cased><tail>`, others `/gsd-<token><tail>`.
/// An empty or whitespace-only remainder gives `""`.
#[must_use]
pub fn format_gsd_slash(registry: &Registry, command_name: &str, runtime: Option<&str>) -> String {
    if command_name.is_empty() {
        return String::new();
    }
    let bare = strip_gsd_prefix(command_name);
    if bare.is_empty() || bare.chars().all(is_js_space) {
        return String::new();
    }
    let (token, tail) = match bare.char_indices().find(|(_, c)| is_js_space(*c)) {
        Some((0, _)) | None => (bare, ""),
        Some((at, _)) => bare.split_at(at),
    };
    let runtime_text = runtime
        .filter(|r| !r.is_empty())
        .unwrap_or("claude")
        .to_lowercase();
    let id = canonicalize_runtime_name(&runtime_text).map_or(runtime_text.clone(), str::to_owned);
    let style = registry.runtime(&id).map(|d| d.command_style);
    if style == Some(CommandStyle::ShellVar) {
        format!("$gsd-{}{tail}", token.to_lowercase())
    } else {
        format!("/gsd-{token}{tail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        let reg = Registry::first_party();
        assert_eq!(
            format_gsd_slash(reg, "/gsd:Plan-Phase 1", Some("codex")),
            "$gsd-plan-phase 1"
        );
        assert_eq!(
            format_gsd_slash(reg, "/gsd:Plan-Phase 3", Some("claude")),
            "/gsd-Plan-Phase 3"
        );
        assert_eq!(format_gsd_slash(reg, "gsd:gsd:x", None), "/gsd-gsd:x");
        assert_eq!(format_gsd_slash(reg, "/gsd:", None), "");
        assert_eq!(format_gsd_slash(reg, "x", Some("Codex-CLI")), "$gsd-x");
    }

    #[test]
    fn names_normalise_and_canonicalise() {
        assert_eq!(normalize_runtime_name("  Future_Thing  "), "future-thing");
        assert_eq!(canonicalize_runtime_name("Codex_Desktop"), Some("codex"));
        assert_eq!(canonicalize_runtime_name("pi"), None);
        assert_eq!(
            resolve_runtime_name_from_candidates(&["", "  ", "Future_Thing"]),
            Some("future-thing".into())
        );
    }
}

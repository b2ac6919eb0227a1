//! Which runtime a project's GSD output is spelled for, when no runtime is given: the
//! explicit sources (`GSD_RUNTIME`, then the project config's `runtime`), then the install's
//! runtime marker, then `claude`.
//!
//! The caller reads the sources (environment, `.planning/config.json`, the marker file);
//! the precedence and the name normalisation are decided here.

use crate::slash::resolve_runtime_name_from_candidates;

/// The runtime used when no source names one.
pub const DEFAULT_RUNTIME: &str = "claude";

/// The explicit runtime: the first of `env_runtime` (`GSD_RUNTIME`) and `config_runtime`
/// (the project config's `runtime`, when it is a string) that normalises to a non-empty
/// name, canonicalised when it is a known alias; `None` when neither names one.
#[must_use]
pub fn explicit_runtime(env_runtime: Option<&str>, config_runtime: Option<&str>) -> Option<String> {
    env_runtime
        .and_then(|v| resolve_runtime_name_from_candidates(&[v]))
        .or_else(|| config_runtime.and_then(|v| resolve_runtime_name_from_candidates(&[v])))
}

/// The effective runtime: `explicit` (already resolved by [`explicit_runtime`]), else the
/// install marker's text normalised the same way, else [`DEFAULT_RUNTIME`].
#[must_use]
pub fn resolve_runtime(explicit: Option<&str>, marker: Option<&str>) -> String {
    if let Some(e) = explicit.filter(|e| !e.is_empty()) {
        return e.to_owned();
    }
    marker
        .and_then(|m| resolve_runtime_name_from_candidates(&[m]))
        .unwrap_or_else(|| DEFAULT_RUNTIME.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_explicit_then_marker_then_claude() {
        // peer-spec §4: GSD_RUNTIME > config.runtime > install marker > 'claude'.
        assert_eq!(
            explicit_runtime(Some("  "), Some("Codex_CLI")).as_deref(),
            Some("codex")
        );
        assert_eq!(explicit_runtime(None, None), None);
        assert_eq!(resolve_runtime(None, Some(" kimi_code ")), "kimi-code");
        assert_eq!(resolve_runtime(Some("cursor"), Some("codex")), "cursor");
        assert_eq!(resolve_runtime(None, Some("")), "claude");
    }
}

//! What an install uses when the caller does not say: the runtime GSD output is spelled for
//! (`GSD_RUNTIME`, then the project config's `runtime`, then the install's runtime marker,
//! then `claude`) and the install profile (an explicit `--profile`, then the profile marker an
//! earlier install left in the config directory, then `full`), plus the small judgements
//! around them: a marker file's text, the legacy `minimal` mode, and whether a capability
//! skill stem is safe to use as a directory name.
//!
//! The caller reads the sources (environment, `.planning/config.json`, marker files); the
//! precedence, the name normalisation and the judgement of the text happen here.

use crate::js::is_js_space;
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

/// The marker file an install writes into the runtime config directory (its profile name).
pub const PROFILE_MARKER_NAME: &str = ".gsd-profile";

/// The file marking a skill directory as installed from a capability.
pub const CAPABILITY_SKILL_MARKER: &str = ".gsd-capability-skill";

/// Whether a legacy install mode keeps only the minimal skill set (`minimal`, `core-only`).
#[must_use]
pub fn is_minimal_mode(mode: &str) -> bool {
    mode == "minimal" || mode == "core-only"
}

/// The profile named by a marker file's text: trimmed; `None` when empty or when it is not
/// made of ASCII letters, digits, `,`, `_` and `-` only.
#[must_use]
pub fn parse_profile_marker(text: &str) -> Option<String> {
    let name = text.trim_matches(is_js_space);
    let plausible = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b',' | b'_' | b'-'));
    (!name.is_empty() && plausible).then(|| name.to_owned())
}

/// Where the effective profile of an install comes from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "source", content = "profile")]
pub enum ProfileSource {
    /// The explicit name the caller gave (`--profile=`, `--minimal`), used as given.
    Requested,
    /// The profile marker of an earlier install (`gsd update`), when it names a profile
    /// other than `full`.
    Marker(String),
    /// Neither: the full profile.
    Full,
}

/// The effective profile: an explicit name wins; otherwise a marker naming a profile other
/// than `full`; otherwise `full`. `marker` is the parsed marker ([`parse_profile_marker`]);
/// the caller reads it only when no name is requested.
#[must_use]
pub fn effective_profile(requested: bool, marker: Option<&str>) -> ProfileSource {
    if requested {
        return ProfileSource::Requested;
    }
    match marker {
        Some(m) if !m.is_empty() && m != "full" => ProfileSource::Marker(m.to_owned()),
        _ => ProfileSource::Full,
    }
}

/// Whether a capability skill stem can name a directory of its own: non-empty, no NUL, not
/// `.` or `..`, no `/` or `\`, not absolute.
#[must_use]
pub fn is_safe_skill_stem(stem: &str) -> bool {
    !stem.is_empty()
        && !stem.contains('\0')
        && stem != "."
        && stem != ".."
        && !stem.contains(['/', '\\'])
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

    #[test]
    fn marker_text_and_precedence() {
        assert_eq!(parse_profile_marker(" core\n").as_deref(), Some("core"));
        assert_eq!(
            parse_profile_marker("core,review").as_deref(),
            Some("core,review")
        );
        assert_eq!(parse_profile_marker("../x"), None);
        assert_eq!(parse_profile_marker("   "), None);
        assert_eq!(
            effective_profile(true, Some("core")),
            ProfileSource::Requested
        );
        assert_eq!(effective_profile(false, Some("full")), ProfileSource::Full);
        assert_eq!(
            effective_profile(false, Some("core")),
            ProfileSource::Marker("core".into())
        );
    }

    #[test]
    fn skill_stems() {
        assert!(is_safe_skill_stem("gsd-plan"));
        for bad in ["", ".", "..", "a/b", "a\\b", "/abs", "a\0b"] {
            assert!(!is_safe_skill_stem(bad), "{bad:?}");
        }
    }
}

//! Which install profile an install uses and which skills it keeps, beyond resolving a
//! profile's membership ([`crate::profile`]): the profile marker an earlier install left in
//! the config directory, the precedence between an explicit `--profile` and that marker,
//! the legacy `minimal` mode, and whether a capability skill stem is safe to use as a
//! directory name.
//!
//! The caller reads and writes the marker file; its text is judged here.

use crate::js::is_js_space;

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

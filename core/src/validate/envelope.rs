//! The common envelope (`id`, `role`, `title`, `description`, `tier`, `requires`), the
//! versioned-manifest envelope (`version`, `engines`, `compatVersions`, `integrity`,
//! `provenance`) and the dispatch to the role body, in the peer's order.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};

use super::{Sink, absent_or, code, feature, json, raw, reviewer, runtime, text};
use crate::js::{self, as_object, as_str};
use crate::vocab::{FEATURE_FIELDS_FORBIDDEN_ON_REVIEWER, Role, Tier};

/// `^[a-z][a-z0-9-]*$`.
pub(crate) fn is_kebab(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Code for a failed "must be a non-empty string" check.
pub(crate) fn string_code<J: Json>(v: Option<&J>) -> &'static str {
    match v.map(Json::kind) {
        None => code::MISSING_FIELD,
        Some(Kind::String(_)) => code::INVALID_VALUE,
        Some(_) => code::WRONG_TYPE,
    }
}

fn is_numeric_identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

fn is_alnum_hyphen(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The peer's strict `SemVer` 2.0.0 grammar (`SEMVER_RE`).
pub(crate) fn is_semver(s: &str) -> bool {
    let (rest, build) = match s.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (s, None),
    };
    if let Some(build) = build
        && !build.split('.').all(is_alnum_hyphen)
    {
        return false;
    }
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    // Exactly three numeric identifiers.
    let mut parts = core.split('.');
    if !(0..3).all(|_| parts.next().is_some_and(is_numeric_identifier)) || parts.next().is_some() {
        return false;
    }
    match pre {
        None => true,
        Some(pre) => pre.split('.').all(|id| {
            is_alnum_hyphen(id)
                && (is_numeric_identifier(id) || !id.bytes().all(|b| b.is_ascii_digit()))
        }),
    }
}

/// The peer's `isPlausibleRange`: only `[0-9A-Za-z.\-+ |<>=~^*()]`, not blank, and a digit
/// or a bare wildcard.
pub(crate) fn is_plausible_range<J: Json>(v: Option<&J>) -> bool {
    let Some(s) = as_str(v) else { return false };
    let t = s.trim_matches(' ');
    if t.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-+ |<>=~^*()".contains(&b))
    {
        return false;
    }
    t.bytes().any(|b| b.is_ascii_digit()) || matches!(t, "*" | "x" | "X")
}

/// `^sha512-[A-Za-z0-9+/]{86}==$`.
fn is_sha512_integrity(s: &str) -> bool {
    s.strip_prefix("sha512-")
        .and_then(|rest| rest.strip_suffix("=="))
        .is_some_and(|body| {
            body.len() == 86
                && body
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        })
}

/// Peer `validateVersionEnvelope`.
pub(super) fn validate_version_envelope<O: JsonObject>(sink: &mut Sink, cap: &O) {
    let version = cap.field("version");
    if !as_str(version).is_some_and(is_semver) {
        sink.push(
            absent_or(version, code::INVALID_SEMVER),
            "version",
            format!(
                "version must be a semver string (e.g. \"1.2.3\"); got: {}",
                json(version)
            ),
        );
    }
    if let Some(engines) = cap.field("engines") {
        match engines.as_object() {
            None => sink.push(
                code::WRONG_TYPE,
                "engines",
                "engines must be an object (e.g. { \"gsd\": \">=1.6.0\" })",
            ),
            Some(engines) => {
                let gsd = engines.field("gsd");
                if gsd.is_some() && !is_plausible_range(gsd) {
                    sink.push(
                        code::INVALID_RANGE,
                        "engines.gsd",
                        format!(
                            "engines.gsd must be a semver range string; got: {}",
                            json(gsd)
                        ),
                    );
                }
            }
        }
    }
    if let Some(compat) = cap.field("compatVersions") {
        match compat.as_object() {
            None => sink.push(
                code::WRONG_TYPE,
                "compatVersions",
                "compatVersions must be an object mapping capability versions to gsd version ranges",
            ),
            Some(compat) => {
                for (k, v) in js::js_entries(compat) {
                    let key = raw(k);
                    if !is_semver(k) {
                        sink.push(
                            code::INVALID_SEMVER,
                            format!("compatVersions.{key}"),
                            format!("compatVersions key \"{key}\" must be a semver string"),
                        );
                    }
                    if !is_plausible_range(Some(v)) {
                        sink.push(
                            code::INVALID_RANGE,
                            format!("compatVersions.{key}"),
                            format!("compatVersions[\"{key}\"] must be a semver range string"),
                        );
                    }
                }
            }
        }
    }
    if let Some(integrity) = cap.field("integrity")
        && !integrity.as_str().is_some_and(is_sha512_integrity)
    {
        {
            sink.push(
                code::INVALID_INTEGRITY,
                "integrity",
                "integrity must be a \"sha512-<base64>\" string",
            );
        }
    }
    if let Some(provenance) = cap.field("provenance") {
        match provenance.as_object() {
            None => sink.push(
                code::WRONG_TYPE,
                "provenance",
                "provenance must be an object { sourceRepo, commit }",
            ),
            Some(p) => {
                for (key, label) in [
                    ("sourceRepo", "provenance.sourceRepo"),
                    ("commit", "provenance.commit"),
                ] {
                    let v = p.field(key);
                    if js::non_empty_str(v).is_none() {
                        sink.push(
                            string_code(v),
                            label,
                            format!("{label} must be a non-empty string"),
                        );
                    }
                }
            }
        }
    }
}

/// Peer `validateCapability` (the whole per-capability rule set, dispatching to bodies).
#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order; splitting hides the order.
pub(super) fn validate<J: Json>(sink: &mut Sink, cap: &J, folder_id: &str) {
    let Some(obj) = as_object(Some(cap)) else {
        sink.push(code::WRONG_TYPE, "", "capability must be a JSON object");
        return;
    };

    let id = obj.field("id");
    match as_str(id) {
        Some(s) if is_kebab(s) => {
            if s != folder_id {
                sink.push(
                    code::ID_MISMATCH,
                    "id",
                    format!(
                        "id \"{}\" must equal the folder name \"{}\"",
                        raw(s),
                        raw(folder_id)
                    ),
                );
            }
        }
        _ => sink.push(code::INVALID_ID, "id", "id must be a kebab-case string"),
    }

    let role_value = obj.field("role");
    let role = as_str(role_value).and_then(Role::parse);
    if role.is_none() {
        sink.push(
            absent_or(role_value, code::INVALID_ENUM),
            "role",
            format!(
                "role must be one of: {} (got: {})",
                Role::one_of(),
                text(role_value)
            ),
        );
    }
    for key in ["title", "description"] {
        let v = obj.field(key);
        if js::non_empty_str(v).is_none() {
            sink.push(
                string_code(v),
                key,
                format!("{key} must be a non-empty string"),
            );
        }
    }
    let tier = obj.field("tier");
    if as_str(tier).and_then(Tier::parse).is_none() {
        sink.push(
            absent_or(tier, code::INVALID_ENUM),
            "tier",
            format!(
                "tier must be one of: {} (got: {})",
                Tier::one_of(),
                text(tier)
            ),
        );
    }
    let value = obj.field("requires");
    match value.map(Json::kind) {
        Some(Kind::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    sink.push(
                        code::WRONG_TYPE,
                        format!("requires[{i}]"),
                        format!(
                            "requires entries must be strings (got: {})",
                            json(Some(item))
                        ),
                    );
                }
            }
        }
        _ => sink.push(
            absent_or(value, code::WRONG_TYPE),
            "requires",
            "requires must be an array of capability ids",
        ),
    }

    validate_version_envelope(sink, obj);

    match role {
        Some(Role::Feature) => {
            feature::validate(sink, obj);
            if obj.has_field("reviewer") {
                sink.push(
                    code::FORBIDDEN_FIELD,
                    "reviewer",
                    "role:feature capability must not have a \"reviewer\" body (admissible on role runtime or reviewer only)",
                );
            }
        }
        Some(Role::Runtime) => {
            runtime::validate(sink, obj);
            reviewer::validate(sink, obj);
            if obj.has_field("taskContentResolver") {
                sink.push(
                    code::FORBIDDEN_FIELD,
                    "taskContentResolver",
                    "role:runtime capability must not have a \"taskContentResolver\" body (feature-only field)",
                );
            }
        }
        Some(Role::Reviewer) => {
            if !obj.has_field("reviewer") {
                sink.push(
                    code::MISSING_FIELD,
                    "reviewer",
                    "role:reviewer capability must have a \"reviewer\" body — the role asserts a lane",
                );
            }
            if obj.has_field("runtime") {
                sink.push(
                    code::FORBIDDEN_FIELD,
                    "runtime",
                    "role:reviewer capability must not have a \"runtime\" body (it is not an install target)",
                );
            }
            for field in FEATURE_FIELDS_FORBIDDEN_ON_REVIEWER {
                if obj.has_field(field) {
                    sink.push(
                        code::FORBIDDEN_FIELD,
                        *field,
                        format!("role:reviewer capability must not have \"{field}\" (feature-only field)"),
                    );
                }
            }
            reviewer::validate(sink, obj);
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_grammar_matches_the_peer_examples() {
        for ok in [
            "1.2.3",
            "0.0.0",
            "1.2.3-dev.0",
            "1.2.3-rc.1",
            "1.2.3+build.5",
            "1.2.3-0a.-",
            "1.2.3-x-y+z",
        ] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in [
            "1.0",
            "1.2.3.4",
            "1.2.3.",
            ".1.2",
            "1..3",
            "",
            "v1.0.0",
            "01.2.3",
            "1.2.3-01",
            "1.2.3-..",
            "1.2.3-",
            "1.2.3+",
            "1.2.3 ",
            "1.2.3-a b",
            "1.2.3-é",
        ] {
            assert!(!is_semver(bad), "{bad}");
        }
    }

    #[test]
    fn range_shape_matches_the_peer() {
        let ok = |s: &str| is_plausible_range(Some(&crate::json::Value::String(s.into())));
        assert!(ok(">=1.6.0"));
        assert!(ok(" * "));
        assert!(ok("x"));
        assert!(ok("^1 || ~2"));
        assert!(!ok("abcx"));
        assert!(!ok("()x"));
        assert!(!ok("   "));
        assert!(!ok(">=1;rm"));
        assert!(!ok("\t1"));
        assert!(!is_plausible_range(Some(&crate::json::Value::Number(
            1.into()
        ))));
    }

    #[test]
    fn kebab_is_exact() {
        assert!(is_kebab("a-1"));
        assert!(!is_kebab("1a"));
        assert!(!is_kebab("A"));
        assert!(!is_kebab(""));
        assert!(!is_kebab("a_b"));
    }
}

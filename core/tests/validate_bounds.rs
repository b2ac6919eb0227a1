//! Bounds: hostile manifest text is rejected (or summarized) cheaply, before it can cost
//! memory, stack or unbounded diagnostics.

use std::fmt::Write as _;

use gsd_core::validate::{
    MAX_MANIFEST_BYTES, MAX_MANIFEST_DEPTH, MAX_REPORTED_ERRORS, Origin, ParsedManifest,
    check_capability, parse_manifest, validate_capability, warning_records,
};
use gsd_core::{ErrorCode, Severity};
use serde_json::json;

/// Refused by its length before any reading: the text is also invalid JSON and nested past
/// the depth bound, and neither of those is what is reported. (How little the refusal
/// costs is measured by the `bounded` bench, docs/reliability.md.)
#[test]
fn nine_mib_is_too_large_before_it_is_read() {
    let text = format!(
        "{}{{\"id\": \"{}",
        "[".repeat(100),
        "x".repeat(9 * 1024 * 1024)
    );
    assert!(text.len() > MAX_MANIFEST_BYTES);
    let err = parse_manifest(&text).expect_err("9 MiB is over the bound");
    assert_eq!(err.code(), ErrorCode::ManifestTooLarge);
    assert_eq!(err.field(), Some("manifest"));
    assert_eq!(
        err.message(),
        format!(
            "manifest is {} bytes, over the limit of 8388608 bytes",
            text.len()
        )
    );
}

#[test]
fn exactly_the_size_bound_is_parsed() {
    let padding = MAX_MANIFEST_BYTES - "{\"a\":\"\"}".len();
    let text = format!("{{\"a\":\"{}\"}}", "y".repeat(padding));
    assert_eq!(text.len(), MAX_MANIFEST_BYTES);
    assert!(parse_manifest(&text).is_ok());
}

/// A recursive reader would need a frame per level, far more than this 256 KiB thread
/// has for 100 000 levels; the scan refuses the text at level 65 without recursing.
#[test]
fn hundred_thousand_deep_nesting_is_too_deep_without_recursion() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(hundred_thousand_levels)
        .expect("spawn")
        .join()
        .expect("no stack overflow");
}

fn hundred_thousand_levels() {
    for open in ["[", "{\"a\":"] {
        let text = open.repeat(100_000);
        let err = parse_manifest(&text).expect_err("100k levels");
        assert_eq!(err.code(), ErrorCode::ManifestTooDeep);
        assert_eq!(
            err.message(),
            format!(
                "manifest nests arrays/objects deeper than the limit of {MAX_MANIFEST_DEPTH} levels"
            )
        );
    }
}

#[test]
fn brackets_inside_strings_do_not_count_as_depth() {
    let text = format!("{{\"id\": \"{}\"}}", "[{".repeat(50_000));
    assert!(parse_manifest(&text).is_ok());
    let escaped = format!("{{\"id\": \"\\\"{}\"}}", "[".repeat(1000));
    assert!(parse_manifest(&escaped).is_ok());
}

#[test]
fn invalid_json_is_reported_with_line_and_column() {
    let err = parse_manifest("{\n  \"id\": \"x\",\n  \"role\" \"runtime\"\n}")
        .expect_err("missing colon");
    assert_eq!(err.code(), ErrorCode::ManifestInvalidJson);
    // Line 3, column 10 is the `"` of `"runtime"`, where the colon is missing.
    assert!(
        err.message()
            .starts_with("manifest is not valid JSON at line 3, column 10: "),
        "{}",
        err.message()
    );
    let err = parse_manifest("").expect_err("empty");
    assert_eq!(err.code(), ErrorCode::ManifestInvalidJson);
}

/// Four letters from a 52-letter alphabet: 800 000 distinct keys that are neither array
/// indexes nor known host behaviors.
fn key(mut n: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut out = String::with_capacity(4);
    for _ in 0..4 {
        out.push(char::from(ALPHABET[n % ALPHABET.len()]));
        n /= ALPHABET.len();
    }
    out
}

#[test]
fn eight_hundred_thousand_host_behavior_keys_yield_at_most_eleven_records() {
    const KEYS: usize = 800_000;
    let mut body = String::with_capacity(8 * 1024 * 1024);
    body.push_str(r#"{"id":"flood","role":"runtime","runtime":{"hostBehaviors":{"#);
    for i in 0..KEYS {
        if i > 0 {
            body.push(',');
        }
        let _ = write!(body, "\"{}\":0", key(i));
    }
    body.push_str("}}}");
    assert!(body.len() < MAX_MANIFEST_BYTES, "{} bytes", body.len());

    let manifest = parse_manifest(&body).expect("under the bounds");
    let records = warning_records(&manifest);
    assert_eq!(records.len(), 11);
    assert!(
        records
            .iter()
            .all(|r| r.code == "unknown_host_behavior" && r.severity == Severity::Warning)
    );
    assert_eq!(
        records[0].field.as_deref(),
        Some("runtime.hostBehaviors.aaaa")
    );
    let summary = &records[10];
    assert_eq!(summary.field.as_deref(), Some("runtime.hostBehaviors"));
    assert_eq!(
        summary.detail_value(),
        Some(json!({"truncated": true, "omittedCount": KEYS - 10}))
    );
    assert_eq!(
        summary.message,
        "⚠ capability \"flood\" declares 799990 further unknown runtime.hostBehaviors key(s), not listed. \
         A manifest this far outside the vocabulary is likely built for a different GSD version."
    );
    // Validation does not look at hostBehaviors, and stays bounded too.
    assert!(!validate_capability(&manifest, "flood").is_empty());
}

#[test]
fn numbers_outside_the_double_range_are_invalid_json() {
    // JSON.parse reads 1e400 as Infinity; we refuse the manifest instead (docs/validation.md).
    let err = parse_manifest(r#"{"runtime": {"supportTier": 1e400}}"#).expect_err("out of range");
    assert_eq!(err.code(), ErrorCode::ManifestInvalidJson);
    assert!(
        err.message()
            .starts_with("manifest is not valid JSON at line 1, column "),
        "{}",
        err.message()
    );
}

#[test]
fn millions_of_errors_are_capped_with_a_summary() {
    const N: usize = 1_000_000;
    let mut text = String::with_capacity(2 * N + 64);
    text.push_str(r#"{"id":"flood","requires":["#);
    for i in 0..N {
        text.push_str(if i == 0 { "1" } else { ",1" });
    }
    text.push_str("]}");
    assert!(text.len() < MAX_MANIFEST_BYTES);
    let manifest = parse_manifest(&text).expect("under the bounds");
    let errors = validate_capability(&manifest, "flood");
    assert_eq!(errors.len(), MAX_REPORTED_ERRORS + 1);
    // role, title, description and tier come first, then the entries.
    assert_eq!(
        errors[4].message,
        "requires entries must be strings (got: 1)"
    );
    let summary = &errors[MAX_REPORTED_ERRORS];
    assert_eq!(summary.code, "too_many_errors");
    // 1M entry errors + 5 envelope errors (role, title, description, tier, version).
    let omitted = N + 5 - MAX_REPORTED_ERRORS;
    assert_eq!(
        summary.detail_value(),
        Some(json!({"truncated": true, "omittedCount": omitted}))
    );
    assert_eq!(
        summary.message,
        format!("{omitted} further errors not listed (at most 1000 are reported)")
    );
}

#[test]
fn many_bad_references_against_many_names_list_the_first_fifty() {
    const SKILLS: usize = 20_000;
    const STEPS: usize = 20_000;
    let skills: Vec<String> = (0..SKILLS).map(|i| format!("s{i}")).collect();
    let step = json!({"point": "plan:pre", "ref": {"skill": "missing"}, "produces": [], "consumes": [], "onError": "skip"});
    let manifest = json!({
        "id": "refs", "role": "feature", "title": "t", "description": "d", "tier": "core", "requires": [],
        "version": "1.0.0", "runtimeCompat": {"supported": ["*"], "unsupported": []},
        "skills": skills, "agents": [], "config": {}, "steps": vec![step; STEPS], "contributions": [], "gates": [],
    });
    let errors = validate_capability(&manifest, "refs");
    assert_eq!(errors.len(), MAX_REPORTED_ERRORS + 1);
    let listed: Vec<String> = (0..50).map(|i| format!("s{i}")).collect();
    assert_eq!(
        errors[0].message,
        format!(
            "steps[0].ref.skill \"missing\" is not declared in this capability's skills: [{}, …]",
            listed.join(", ")
        )
    );
}

/// `ParsedManifest` (strings borrowed, no hash index) answers exactly what the
/// `serde_json::Value` path answers: the same value or the same error, and the same
/// errors, warnings and loader check (both origins, folder = the manifest's id, so accepted
/// manifests reach the contract rules and the warnings step), on text each reader handles
/// and text it defers (escapes, surrogates, repeated keys in small and large objects, big
/// numbers, depth, size, text past the direct reader's size). Both paths run the same
/// validator (the value path views its input first), so this holds the readers and the
/// view to each other; `peer_validate` holds the validator to the peer.
#[test]
fn parsed_manifest_answers_what_the_value_path_answers() {
    let many_keys = (0..40).fold(String::new(), |mut out, i| {
        let _ = write!(out, "\"k{}\":{i},", i % 30);
        out
    });
    let large_valid = format!(
        "{{\"id\":\"big\",\"role\":\"feature\",\"pad\":\"{}\"}}",
        "p".repeat(70 * 1024)
    );
    let texts = [
        r#"{"id":"Bad"}"#.to_owned(),
        r#"{"id":"a\u00e9\n","id":"b","role":"reviewer","reviewer":{"x":1,"y":2}}"#.to_owned(),
        r#"{"id":"\ud83d\ude00","role":"runtime","runtime":{"hostBehaviors":{"zz":1,"reviewerCli":"c"}}}"#.to_owned(),
        format!("{{{many_keys}\"id\":\"many\"}}"),
        r#"{"id":"n","version":1e400}"#.to_owned(),
        r#"{"id":"n","version":-1.5e3,"requires":[18446744073709551616]}"#.to_owned(),
        "[".repeat(MAX_MANIFEST_DEPTH + 1),
        "[".repeat(MAX_MANIFEST_DEPTH) + &"]".repeat(MAX_MANIFEST_DEPTH),
        r#"{"id": }"#.to_owned(),
        "null".to_owned(),
        large_valid,
        format!("{{\"a\":\"{}\"}}", "z".repeat(MAX_MANIFEST_BYTES)),
    ];
    let first_party = gsd_core::embedded::first_party();
    let reviewer = first_party
        .iter()
        .find(|c| c.folder == "antigravity")
        .expect("antigravity ships a reviewer body");
    let mut with_warnings: serde_json::Value =
        serde_json::from_str(reviewer.manifest).expect("first-party manifest");
    with_warnings["reviewer"]["bogusField"] = json!(1);
    let with_warnings = with_warnings.to_string();
    let texts = texts
        .iter()
        .chain([&with_warnings])
        .map(String::as_str)
        .chain(first_party.iter().map(|c| c.manifest));
    let (mut accepted, mut warned) = (0, 0);
    for text in texts {
        let head: String = text.chars().take(60).collect();
        match (ParsedManifest::parse(text), parse_manifest(text)) {
            (Ok(parsed), Ok(value)) => {
                assert_eq!(parsed.to_value().to_string(), value.to_string(), "{head}");
                let folder = value
                    .get("id")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("fold");
                assert_eq!(
                    parsed.validate(folder),
                    validate_capability(&value, folder),
                    "{head}"
                );
                assert_eq!(parsed.warning_records(), warning_records(&value), "{head}");
                for origin in [Origin::FirstParty, Origin::ThirdParty] {
                    let check = check_capability(&value, folder, origin);
                    assert_eq!(parsed.check(folder, origin), check, "{head}");
                    accepted += usize::from(check.is_valid());
                    warned += usize::from(!check.warnings.is_empty());
                }
            }
            (Err(ours), Err(theirs)) => {
                assert_eq!(
                    (ours.code(), ours.message()),
                    (theirs.code(), theirs.message()),
                    "{head}"
                );
            }
            (ours, theirs) => panic!("{head}: {ours:?} against {theirs:?}"),
        }
    }
    // Every first-party manifest is accepted as first-party (the contract rules and the
    // warnings step ran); the one with an unknown reviewer field has warnings.
    assert!(accepted > first_party.len(), "{accepted} accepted checks");
    assert!(warned >= 1, "{warned} checks with warnings");
}

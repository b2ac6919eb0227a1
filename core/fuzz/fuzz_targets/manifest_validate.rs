//! Manifest text → `parse_manifest` → `check_capability` (both origins) and `warning_records`,
//! and the same text through `ParsedManifest` (the borrowed value every binding validates).
//!
//! Invariants: no panic; a parse failure is one of the three manifest codes and names the
//! field `manifest`; no diagnostic message or field carries a C0/C1 control (ESC included);
//! each warning loop yields at most 10 + 1 records; the same text padded with trailing
//! spaces past 64 KiB (which `parse_manifest` scans before parsing, where shorter text is
//! parsed first) gets the same outcome: the same value, or the same error code;
//! `ParsedManifest` gives the same value or the same error (code and message), and the same
//! loader checks and warning records, as the `serde_json::Value` path.
#![no_main]

use gsd_core::ErrorCode;
use gsd_core::validate::{Origin, ParsedManifest, check_capability, warning_records};
use libfuzzer_sys::fuzz_target;

fn controls_free(text: &str) -> bool {
    !text
        .chars()
        .any(|c| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'))
}

/// Past the size from which `parse_manifest` scans first (64 KiB).
const PADDED_LEN: usize = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = gsd_core::parse_manifest(&text);
    if text.len() < PADDED_LEN {
        let padded = format!("{text}{}", " ".repeat(PADDED_LEN - text.len()));
        let outcome = |r: &Result<serde_json::Value, gsd_core::Error>| match r {
            Ok(value) => Ok(value.clone()),
            Err(e) => Err(e.code()),
        };
        assert_eq!(
            outcome(&parsed),
            outcome(&gsd_core::parse_manifest(&padded))
        );
    }
    let text_path = ParsedManifest::parse(&text);
    match (&text_path, &parsed) {
        (Ok(view), Ok(value)) => assert_eq!(view.to_value().to_string(), value.to_string()),
        (Err(a), Err(b)) => assert_eq!((a.code(), a.message()), (b.code(), b.message())),
        (a, b) => panic!("text path {a:?}, value path {b:?}"),
    }
    let value = match parsed {
        Ok(value) => value,
        Err(error) => {
            assert!(matches!(
                error.code(),
                ErrorCode::ManifestTooLarge
                    | ErrorCode::ManifestTooDeep
                    | ErrorCode::ManifestInvalidJson
            ));
            assert_eq!(error.field(), Some("manifest"));
            assert!(controls_free(error.message()), "{:?}", error.message());
            return;
        }
    };
    let folder = value
        .get("id")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("fuzz-folder")
        .to_owned();
    let view = text_path.expect("parsed as the value path parsed");
    assert_eq!(view.warning_records(), warning_records(&value));
    for origin in [Origin::FirstParty, Origin::ThirdParty] {
        let check = check_capability(&value, &folder, origin);
        assert_eq!(view.check(&folder, origin), check);
        for d in check.errors.iter().chain(&check.warnings) {
            assert!(controls_free(&d.message), "{:?}", d.message);
            assert!(
                d.field.as_deref().is_none_or(controls_free),
                "{:?}",
                d.field
            );
        }
    }
    let warnings = warning_records(&value);
    let host = warnings
        .iter()
        .filter(|d| d.code == "unknown_host_behavior")
        .count();
    let reviewer = warnings
        .iter()
        .filter(|d| d.code == "unknown_reviewer_field")
        .count();
    assert!(
        host <= 11 && reviewer <= 11,
        "{host} / {reviewer} warning records"
    );
});

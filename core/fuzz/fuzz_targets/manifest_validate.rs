//! Manifest text → `parse_manifest` → `check_capability` (both origins) and `warning_records`.
//!
//! Invariants: no panic; a parse failure is one of the three manifest codes and names the
//! field `manifest`; no diagnostic message or field carries a C0/C1 control (ESC included);
//! each warning loop yields at most 10 + 1 records; the same text padded with trailing
//! spaces past 64 KiB (which `parse_manifest` scans before parsing, where shorter text is
//! parsed first) gets the same outcome: the same value, or the same error code.
#![no_main]

use gsd_core::ErrorCode;
use gsd_core::validate::{Origin, check_capability, warning_records};
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
        assert_eq!(outcome(&parsed), outcome(&gsd_core::parse_manifest(&padded)));
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
    for origin in [Origin::FirstParty, Origin::ThirdParty] {
        let check = check_capability(&value, &folder, origin);
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

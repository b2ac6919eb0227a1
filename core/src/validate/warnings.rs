//! Non-fatal findings: the peer's `collectReviewerWarningRecords` as Warning diagnostics.
//!
//! Unknown `runtime.hostBehaviors` keys and unknown `reviewer` fields are warnings, never
//! errors. Both loops walk manifest-supplied keys, so each reports at most 10 keys and then
//! one summary record with `omittedCount`; key names go through
//! [`crate::sanitize::describe_key`]. The walk only counts past the tenth key, so even a
//! manifest with hundreds of thousands of keys yields at most 11 records per loop.

use serde_json::{Value, json};

use crate::json::{Json, JsonObject};

use super::{code, is_reserved, raw};
use crate::diagnostic::{Diagnostic, Severity};
use crate::js::{self, as_object, first_js_keys};
use crate::sanitize::describe_key;
use crate::vocab::{KNOWN_HOST_BEHAVIORS, KNOWN_REVIEWER_FIELDS, REMOVED_REVIEWER_CLI_FIELD};

/// How many unknown keys one loop reports before summarizing (`MAX_REPORTED_UNKNOWN_KEYS`).
const MAX_REPORTED_UNKNOWN_KEYS: usize = 10;

/// Where the removed `reviewerCli` notice points.
const REVIEWER_LANE_DOCS: &str = "docs/how-to/ship-a-reviewer-lane.md";

fn warning(
    code: &'static str,
    cap_id: &str,
    field: String,
    message: String,
    detail: Option<Value>,
) -> Diagnostic {
    let d = Diagnostic::new(code, Severity::Warning, message)
        .with_capability(cap_id)
        .with_field(field);
    match detail {
        Some(detail) => d.with_detail(detail),
        None => d,
    }
}

/// Unknown keys of `map` (JavaScript key order), split into the first ten and a count of
/// the rest. Only the reported keys are held, however many keys the map has.
fn unknown_keys<O: JsonObject>(map: &O, known: impl Fn(&str) -> bool) -> (Vec<&str>, usize) {
    first_js_keys(map, MAX_REPORTED_UNKNOWN_KEYS, |key| {
        !is_reserved(key) && !known(key)
    })
}

fn host_behavior_warnings<O: JsonObject>(
    out: &mut Vec<Diagnostic>,
    cap_id: &str,
    shown_id: &str,
    hb: &O,
) {
    if hb.member("reviewerCli").is_some() {
        out.push(warning(
            code::REMOVED_HOST_BEHAVIOR,
            cap_id,
            REMOVED_REVIEWER_CLI_FIELD.to_owned(),
            format!(
                "⚠ capability \"{shown_id}\" {REMOVED_REVIEWER_CLI_FIELD} was removed (ADR-2782 D9) — ignored, and it \
                 contributes no reviewer lane. Declare a `reviewer` body instead; see {REVIEWER_LANE_DOCS}"
            ),
            Some(json!({"replacement": "reviewer", "docs": REVIEWER_LANE_DOCS})),
        ));
    }
    let (reported, omitted) = unknown_keys(hb, |k| {
        k == "reviewerCli" || KNOWN_HOST_BEHAVIORS.binary_search(&k).is_ok()
    });
    for key in reported {
        let safe = describe_key(key);
        out.push(warning(
            code::UNKNOWN_HOST_BEHAVIOR,
            cap_id,
            format!("runtime.hostBehaviors.{safe}"),
            format!(
                "⚠ capability \"{shown_id}\" runtime.hostBehaviors.{safe} is not a known host behavior in this GSD \
                 version — ignored. Adding one is a reviewed first-party change (ADR-1016)."
            ),
            None,
        ));
    }
    if omitted > 0 {
        out.push(warning(
            code::UNKNOWN_HOST_BEHAVIOR,
            cap_id,
            "runtime.hostBehaviors".to_owned(),
            format!(
                "⚠ capability \"{shown_id}\" declares {omitted} further unknown runtime.hostBehaviors key(s), not \
                 listed. A manifest this far outside the vocabulary is likely built for a different GSD version."
            ),
            Some(json!({"truncated": true, "omittedCount": omitted})),
        ));
    }
}

fn reviewer_warnings<O: JsonObject>(
    out: &mut Vec<Diagnostic>,
    cap_id: &str,
    shown_id: &str,
    reviewer: &O,
) {
    let (reported, omitted) = unknown_keys(reviewer, |k| KNOWN_REVIEWER_FIELDS.contains(&k));
    if reported.is_empty() && omitted == 0 {
        return;
    }
    let known_list = KNOWN_REVIEWER_FIELDS.join(", ");
    for key in reported {
        let safe = describe_key(key);
        out.push(warning(
            code::UNKNOWN_REVIEWER_FIELD,
            cap_id,
            format!("reviewer.{safe}"),
            format!(
                "⚠ capability \"{shown_id}\" reviewer.{safe} is not a known reviewer field in this GSD version — \
                 ignored. Known fields: {known_list}"
            ),
            Some(json!({"knownFields": KNOWN_REVIEWER_FIELDS})),
        ));
    }
    if omitted > 0 {
        out.push(warning(
            code::UNKNOWN_REVIEWER_FIELD,
            cap_id,
            "reviewer".to_owned(),
            format!("⚠ capability \"{shown_id}\" declares {omitted} further unknown reviewer field(s), not listed."),
            Some(json!({"knownFields": KNOWN_REVIEWER_FIELDS, "truncated": true, "omittedCount": omitted})),
        ));
    }
}

/// Peer `collectReviewerWarningRecords`: Warning diagnostics for the removed
/// `runtime.hostBehaviors.reviewerCli`, unknown `hostBehaviors` keys and unknown `reviewer`
/// fields, each loop capped at 10 records plus one summary (`detail.omittedCount`).
/// `capability_id` is the manifest `id` when it is a string, else `(unknown)`; the peer's
/// extra record fields (`replacement`, `docs`, `truncated`, `omittedCount`, `knownFields`)
/// are in `detail`. Total: any value is accepted.
pub fn warning_records(manifest: &Value) -> Vec<Diagnostic> {
    records(manifest)
}

/// [`warning_records`] over either value type.
pub(crate) fn records<J: Json>(manifest: &J) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(cap) = as_object(Some(manifest)) else {
        return out;
    };
    let cap_id = js::as_str(cap.member("id")).unwrap_or("(unknown)");
    let shown_id = raw(cap_id);
    if let Some(hb) =
        as_object(cap.member("runtime")).and_then(|r| as_object(r.member("hostBehaviors")))
    {
        host_behavior_warnings(&mut out, cap_id, &shown_id, hb);
    }
    if let Some(reviewer) = as_object(cap.member("reviewer")) {
        reviewer_warnings(&mut out, cap_id, &shown_id, reviewer);
    }
    out
}

//! The `reviewer` lane body (on `role: runtime` and `role: reviewer`), peer
//! `validateReviewerBody`: slug, flags, transport, probe, invoke (spawn or openai-http),
//! timeouts, output handling, config keys, effort and handler.

use crate::js::Field as _;
use crate::json::{Json, JsonObject, Kind};

use super::envelope::string_code;
use super::lane::{enum_field, invoke, is_positive_ms, probe};
use super::{Sink, absent_or, code, is_reserved, json, raw};
use crate::js::{as_str, kind_of, non_empty_str};
use crate::vocab::{EffortLevel, EmptyOutput, EvidenceClass, LaneHandler, LaneTransport};

/// `LANE_SLUG_RE` as the peer prints it.
const LANE_SLUG_RE: &str = "/^[a-z0-9][a-z0-9_-]*$/";
/// `LANE_FLAG_RE` as the peer prints it.
const LANE_FLAG_RE: &str = "/^--[a-z0-9][a-z0-9-]*$/";

fn is_lane_slug(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'-')
}

fn is_lane_flag(s: &str) -> bool {
    s.strip_prefix("--").is_some_and(|rest| {
        let mut b = rest.bytes();
        b.next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    })
}

/// An optional dotted config key: absent, null or a non-empty string.
fn optional_key<O: JsonObject>(
    sink: &mut Sink,
    ctx: &dyn std::fmt::Display,
    r: &O,
    key: &str,
    absent_ok: bool,
) {
    let v = r.field(key);
    let ok = matches!(v.map(Json::kind), Some(Kind::Null))
        || (absent_ok && v.is_none())
        || non_empty_str(v).is_some();
    if !ok {
        sink.push(
            string_code(v),
            format!("reviewer.{key}"),
            format!(
                "{ctx} reviewer.{key} must be a dotted config key or null (got: {})",
                json(v)
            ),
        );
    }
}

fn flags<J: Json>(sink: &mut Sink, ctx: &dyn std::fmt::Display, flags: Option<&J>) {
    let Some(Kind::Array(items)) = flags.map(Json::kind) else {
        sink.push(
            absent_or(flags, code::WRONG_TYPE),
            "reviewer.flags",
            format!("{ctx} reviewer.flags must be an array of CLI flags"),
        );
        return;
    };
    if items.is_empty() {
        sink.push(
            code::INVALID_VALUE,
            "reviewer.flags",
            format!(
                "{ctx} reviewer.flags must declare at least one flag — a lane nobody can name cannot be explicitly \
                 selected, so ADR-2782 D4's explicit-selection rule is unreachable for it"
            ),
        );
        return;
    }
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (i, flag) in items.iter().enumerate() {
        match flag.as_str() {
            Some(f) if is_lane_flag(f) => {
                if seen.contains(f) {
                    sink.push(
                        code::DUPLICATE,
                        format!("reviewer.flags[{i}]"),
                        format!("{ctx} reviewer.flags lists \"{}\" more than once", raw(f)),
                    );
                }
                seen.insert(f);
            }
            _ => sink.push(
                code::INVALID_VALUE,
                format!("reviewer.flags[{i}]"),
                format!("{ctx} reviewer.flags entry {} must match {LANE_FLAG_RE} (e.g. \"--lm-studio\")", json(Some(flag))),
            ),
        }
    }
}

#[allow(clippy::too_many_lines)] // Reason: one check per peer rule, in the peer's order.
fn body<O: JsonObject>(sink: &mut Sink, ctx: &dyn std::fmt::Display, r: &O) {
    let slug = r.field("slug");
    match non_empty_str(slug) {
        None => sink.push(string_code(slug), "reviewer.slug", format!("{ctx} reviewer.slug must be a non-empty string")),
        Some(s) if is_reserved(s) => {
            sink.push(code::RESERVED_NAME, "reviewer.slug", format!("{ctx} reviewer.slug \"{s}\" is a reserved name"));
        }
        Some(s) if !is_lane_slug(s) => sink.push(
            code::INVALID_VALUE,
            "reviewer.slug",
            format!(
                "{ctx} reviewer.slug \"{}\" must match {LANE_SLUG_RE} (lower-case; \"_\" and \"-\" permitted — a slug is not \
                 a capability id and not a flag)",
                raw(s)
            ),
        ),
        Some(_) => {}
    }
    flags(sink, ctx, r.field("flags"));
    let transport = r.field("transport");
    enum_field::<LaneTransport, _>(sink, ctx, "reviewer.transport", transport);
    probe(sink, ctx, r.field("probe"));
    invoke(sink, ctx, as_str(transport), r.field("invoke"));
    let floor = r.field("timeoutFloorMs");
    if !is_positive_ms(floor) {
        sink.push(
            absent_or(floor, code::INVALID_VALUE),
            "reviewer.timeoutFloorMs",
            format!("{ctx} reviewer.timeoutFloorMs must be a positive integer of milliseconds (got: {})", json(floor)),
        );
    }
    let empty = r.field("emptyOutput");
    enum_field::<EmptyOutput, _>(sink, ctx, "reviewer.emptyOutput", empty);
    let section = r.field("reviewsSection");
    if non_empty_str(section).is_none() {
        sink.push(
            string_code(section),
            "reviewer.reviewsSection",
            format!("{ctx} reviewer.reviewsSection must be a non-empty string"),
        );
    }
    let evidence = r.field("evidenceClass");
    enum_field::<EvidenceClass, _>(sink, ctx, "reviewer.evidenceClass", evidence);
    let value = r.field("requiresBinaries");
    match value.map(Json::kind) {
        Some(Kind::Array(bins)) => {
            for (i, bin) in bins.iter().enumerate() {
                if non_empty_str(Some(bin)).is_none() {
                    sink.push(
                        string_code(Some(bin)),
                        format!("reviewer.requiresBinaries[{i}]"),
                        format!("{ctx} reviewer.requiresBinaries entry {} must be a non-empty string", json(Some(bin))),
                    );
                }
            }
        }
        _ => sink.push(
            absent_or(value, code::WRONG_TYPE),
            "reviewer.requiresBinaries",
            format!(
                "{ctx} reviewer.requiresBinaries must be an array (use [] when the lane needs no external tool on PATH). \
                 Note the name: the envelope's \"requires\" is capability ids"
            ),
        ),
    }
    for key in ["modelConfigKey", "timeoutConfigKey", "effortConfigKey"] {
        optional_key(sink, ctx, r, key, true);
    }
    let effort = r.field("defaultEffort");
    let declared = !matches!(effort.map(Json::kind), None | Some(Kind::Null));
    if declared && as_str(effort).and_then(EffortLevel::parse).is_none() {
        let levels: Vec<&str> = EffortLevel::ALL.iter().map(|l| l.as_str()).collect();
        sink.push(
            code::INVALID_ENUM,
            "reviewer.defaultEffort",
            format!(
                "{ctx} reviewer.defaultEffort must be one of {} or null (got: {})",
                levels.join("/"),
                json(effort)
            ),
        );
    }
    if declared
        && matches!(
            r.field("effortConfigKey").map(Json::kind),
            None | Some(Kind::Null)
        )
    {
        sink.push(
            code::MISSING_FIELD,
            "reviewer.effortConfigKey",
            format!("{ctx} reviewer.defaultEffort is declared without an effortConfigKey, so the level could never be overridden"),
        );
    }
    optional_key(sink, ctx, r, "promptBudgetKey", false);
    let handler = r.field("handler");
    if !matches!(handler.map(Json::kind), Some(Kind::Null))
        && as_str(handler).and_then(LaneHandler::parse).is_none()
    {
        sink.push(
            absent_or(handler, code::INVALID_ENUM),
            "reviewer.handler",
            format!(
                "{ctx} reviewer.handler must be null or one of: {} (got: {}). Handlers are first-party module NAMES, never \
                 paths and never third-party code — a lane needing a shape the vocabulary lacks files an issue naming the \
                 missing primitive (ADR-2782 D6)",
                LaneHandler::one_of(),
                json(handler)
            ),
        );
    }
}

/// Peer `validateReviewerBody`: absent body is fine; anything else must be a valid lane.
pub(super) fn validate<O: JsonObject>(sink: &mut Sink, cap: &O) {
    let Some(r) = cap.field("reviewer") else {
        return;
    };
    let id = match cap.field("id").map(Json::kind) {
        Some(Kind::String(s)) => raw(s),
        _ => "(unknown)".to_owned(),
    };
    let ctx = super::lazy(|w| write!(w, "capability \"{id}\""));
    let Some(r) = r.as_object() else {
        sink.push(
            code::WRONG_TYPE,
            "reviewer",
            format!(
                "{ctx} reviewer must be an object (got: {}). Omit the key entirely to declare no lane — an explicit null is \
                 not an omission.",
                kind_of(Some(r))
            ),
        );
        return;
    };
    body(sink, &ctx, r);
}

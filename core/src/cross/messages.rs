//! The diagnostics of cross-capability validation, one constructor per rule, so the
//! whole-set validators and the incremental overlay check emit identical records.

use crate::diagnostic::{Diagnostic, Severity};
use crate::vocab::{LoopPoint, Tier};

fn error(code: &str, id: &str, field: &str, message: String) -> Diagnostic {
    Diagnostic::new(code, Severity::Error, message)
        .with_capability(id)
        .with_field(field)
}

/// A skill or agent claimed by a second feature (`kind` is `skill` or `agent`).
pub(crate) fn owner(kind: &str, name: &str, first: &str, id: &str) -> Diagnostic {
    let (code, field) = if kind == "skill" {
        ("skill_owner_conflict", "skills")
    } else {
        ("agent_owner_conflict", "agents")
    };
    let message = format!("{kind} \"{name}\" is owned by both \"{first}\" and \"{id}\"");
    error(code, id, field, message)
}

/// A command family claimed by a second feature.
pub(crate) fn family_owner(family: &str, first: &str, id: &str) -> Diagnostic {
    let message = format!("command family \"{family}\" is owned by both \"{first}\" and \"{id}\"");
    error("command_family_owner_conflict", id, "commands", message)
}

/// A config key declared by a second capability.
pub(crate) fn config_owner(key: &str, first: &str, id: &str) -> Diagnostic {
    let message = format!("config key \"{key}\" is owned by both \"{first}\" and \"{id}\"");
    error(
        "config_key_owner_conflict",
        id,
        &format!("config.{key}"),
        message,
    )
}

/// A config key that the central schema also declares.
pub(crate) fn config_central(key: &str, id: &str) -> Diagnostic {
    let message = format!(
        "config key \"{key}\" is declared in capability \"{id}\" AND exists in the central config-schema — migration mid-flight: remove from central config-schema before adding to the capability"
    );
    error(
        "config_key_in_central_schema",
        id,
        &format!("config.{key}"),
        message,
    )
}

/// The label and field of each reviewer-lane uniqueness set, in the peer's order.
pub(crate) const LANE_SETS: [(&str, &str); 4] = [
    ("slug", "reviewer.slug"),
    ("flag", "reviewer.flags"),
    ("reviewsSection", "reviewer.reviewsSection"),
    (
        "taskContentResolver.trackerPrefix",
        "taskContentResolver.trackerPrefix",
    ),
];

/// A lane key claimed by several capabilities; `ids` sorted, at least two.
pub(crate) fn lane(label: &str, field: &str, key: &str, ids: &[&str]) -> Diagnostic {
    let names: Vec<String> = ids.iter().map(|i| format!("\"{i}\"")).collect();
    let message = format!(
        "reviewer {label} \"{key}\" is declared by {}",
        names.join(" and ")
    );
    error(
        "reviewer_lane_collision",
        ids.last().copied().unwrap_or(""),
        field,
        message,
    )
}

/// Sorts lane-collision diagnostics as JavaScript sorts their messages (UTF-16 units).
pub(crate) fn sort_lanes(list: &mut [Diagnostic]) {
    list.sort_by(|a, b| a.message.encode_utf16().cmp(b.message.encode_utf16()));
}

/// A required id that is not in the set.
pub(crate) fn requires_unknown(id: &str, req: &str) -> Diagnostic {
    let message = format!("capability \"{id}\" requires \"{req}\" which does not exist");
    error("requires_unknown", id, "requires", message)
}

/// A required id that is a third-party overlay's which was not loaded (ours: the overlay
/// loader's, where `requires_unknown` would say it does not exist).
pub(crate) fn requires_not_loaded(id: &str, req: &str) -> Diagnostic {
    let message = format!("capability \"{id}\" requires \"{req}\", an overlay that was not loaded");
    error("requires_not_loaded", id, "requires", message)
}

/// A `runtimeCompat.supported|unsupported` entry that is not a runtime capability.
pub(crate) fn compat_unknown(id: &str, field: &str, runtime: &str) -> Diagnostic {
    let message = format!(
        "capability \"{id}\" runtimeCompat.{field} references unknown runtime \"{runtime}\""
    );
    error(
        "runtime_compat_unknown_runtime",
        id,
        &format!("runtimeCompat.{field}"),
        message,
    )
}

/// A `requires` cycle, as the DFS stack that closes it.
pub(crate) fn cycle(start: &str, path: &[&str]) -> Diagnostic {
    let message = format!("requires cycle detected: {}", path.join(" → "));
    error("requires_cycle", start, "requires", message)
}

/// A capability requiring one of a higher tier.
pub(crate) fn tier(id: &str, tier: Tier, req: &str, req_tier: Tier) -> Diagnostic {
    let message = format!(
        "tier-monotone violation: capability \"{id}\" (tier: {tier}) requires \"{req}\" (tier: {req_tier}) — a capability may not require a higher-tier capability"
    );
    error("tier_monotone_violation", id, "requires", message)
}

/// A third-party id with a reserved first-party prefix.
pub(crate) fn reserved(id: &str, prefix: &str) -> Diagnostic {
    let message = format!(
        "capability \"{id}\" uses the reserved first-party id prefix \"{prefix}\" (gsd-/gsd-core-/anthropic-)"
    );
    error("reserved_id_prefix", id, "id", message)
}

/// Two or more steps producing one artifact at one loop point; `ids` sorted, distinct.
pub(crate) fn duplicate_producer(artifact: &str, point: usize, ids: &[&str]) -> Diagnostic {
    let name = LoopPoint::ALL.get(point).map_or("?", |p| p.as_str());
    let message = format!(
        "duplicate-producer invariant violated: artifact \"{artifact}\" is produced by two or more capability steps at the same Loop Extension Point \"{name}\" (capabilities: {}). Two capability steps producing the same artifact at the same Loop Extension Point makes data-flow resolution ambiguous and is rejected at gen time.",
        ids.join(", ")
    );
    error(
        "duplicate_producer",
        ids.last().copied().unwrap_or(""),
        "steps",
        message,
    )
}

/// Why a step's consumed artifact is unavailable.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Unavailable {
    /// No host artifact and no producer at all.
    Never,
    /// Only the consuming step itself produces it.
    OnlySelf,
    /// The earliest other producer is at this later point index.
    Later(usize),
}

/// A consumed artifact that is not available at the step's point.
pub(crate) fn consumes(
    id: &str,
    point: LoopPoint,
    step: usize,
    artifact: &str,
    why: Unavailable,
) -> Diagnostic {
    let prefix =
        format!("capability \"{id}\" step at point \"{point}\" consumes \"{artifact}\" which is");
    let field = format!("steps[{step}].consumes");
    let (code, message) = match why {
        Unavailable::Never => (
            "consumes_never_produced",
            format!("{prefix} never produced by any host artifact or capability hook"),
        ),
        Unavailable::OnlySelf => (
            "consumes_own_output",
            format!(
                "{prefix} only produced by this step itself (a step cannot consume its own output)"
            ),
        ),
        Unavailable::Later(p) => (
            "consumes_produced_later",
            format!(
                "{prefix} only produced after this point (earliest available at POINT_ORDER index {p} = \"{}\")",
                LoopPoint::ALL.get(p).map_or("?", |x| x.as_str())
            ),
        ),
    };
    error(code, id, &field, message)
}

//! Peer `validateAgainstContract`: the per-capability loop-contract rules a loader runs on
//! a capability that passed validation (contribution roles per loop point; `when` keys
//! and `pointFrom` enum keys declared in the capability's own `config`).

use crate::js::Field as _;
use std::collections::{HashMap, HashSet};

use crate::json::{Json, JsonObject};

use super::{Sink, code, raw, text};
use crate::js::as_str;
use crate::vocab::LoopPoint;

fn items<'v, O: JsonObject>(cap: &'v O, key: &str) -> &'v [O::Value] {
    cap.field(key).and_then(Json::as_array).unwrap_or(&[])
}

fn when_declared<O: JsonObject>(sink: &mut Sink, prefix: &str, cap: &O, group: &str, label: &str) {
    let config = cap.field("config").and_then(Json::as_object);
    for item in items(cap, group) {
        let Some(when) = as_str(item.field("when")) else {
            continue;
        };
        if config.is_some_and(|c| !c.has_field(when)) {
            sink.push(
                code::CONTRACT,
                format!("{group}.when"),
                format!(
                    "{prefix} {label}.when \"{}\" is not defined in capability config keys",
                    raw(when)
                ),
            );
        }
    }
}

fn point_from<O: JsonObject>(sink: &mut Sink, prefix: &str, cap: &O) {
    let config = cap.field("config").and_then(Json::as_object);
    let empty = O::empty();
    let mut indexed: HashMap<&str, Option<HashSet<&str>>> = HashMap::default();
    for step in items(cap, "steps") {
        let Some(key) = as_str(step.field("pointFrom")) else {
            continue;
        };
        let shown = raw(key);
        // A property read: an absent `__proto__` finds Object.prototype (an object with
        // no `type`); other inherited names find functions, which count as undeclared.
        let slice = match config.and_then(|c| c.field(key)) {
            Some(v) => v.as_object(),
            None if key == "__proto__" && config.is_some() => Some(&empty),
            None => None,
        };
        let Some(slice) = slice else {
            sink.push(
                code::CONTRACT,
                "steps.pointFrom",
                format!(
                    "{prefix} step.pointFrom \"{shown}\" is not defined in capability config keys"
                ),
            );
            continue;
        };
        if as_str(slice.field("type")) != Some("enum") {
            sink.push(
                code::CONTRACT,
                "steps.pointFrom",
                format!(
                    "{prefix} step.pointFrom \"{shown}\" must reference an enum config key (got type: {})",
                    text(slice.field("type"))
                ),
            );
            continue;
        }
        // Validation guarantees `point` is a loop-point string, so `values.includes(point)`
        // is string membership; each slice's values are indexed once, not per step.
        let point = step.field("point");
        let values = indexed.entry(key).or_insert_with(|| {
            slice
                .field("values")
                .and_then(Json::as_array)
                .map(|vs| vs.iter().filter_map(Json::as_str).collect())
        });
        let listed = values
            .as_ref()
            .is_some_and(|set| as_str(point).is_some_and(|p| set.contains(p)));
        if !listed {
            sink.push(
                code::CONTRACT,
                "steps.pointFrom",
                format!(
                    "{prefix} step.pointFrom \"{shown}\" enum values do not include this step's own point \"{}\" — the step \
                     could never activate",
                    text(point)
                ),
            );
        }
    }
}

/// Runs the contract rules for a capability that passed [`super::validate_capability`].
pub(super) fn validate<J: Json>(sink: &mut Sink, cap: &J, cap_id: &str) {
    let Some(cap) = cap.as_object() else { return };
    if as_str(cap.field("role")) != Some("feature") {
        return;
    }
    let prefix = format!("capability \"{}\"", raw(cap_id));
    for contrib in items(cap, "contributions") {
        let Some(point) = as_str(contrib.field("point")).and_then(LoopPoint::parse) else {
            continue;
        };
        let roles = point.agent_roles();
        let into = contrib.field("into");
        if !as_str(into).is_some_and(|i| roles.contains(&i)) {
            sink.push(
                code::CONTRACT,
                "contributions.into",
                format!(
                    "{prefix} contribution.into \"{}\" at point \"{}\" is not in the step's agentRoles [{}]",
                    text(into),
                    point.as_str(),
                    roles.join(", ")
                ),
            );
        }
    }
    when_declared(sink, &prefix, cap, "steps", "step");
    point_from(sink, &prefix, cap);
    when_declared(sink, &prefix, cap, "contributions", "contribution");
    when_declared(sink, &prefix, cap, "gates", "gate");
}

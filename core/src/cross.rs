//! Invariants over the merged capability set (first-party ∪ overlays).
//!
//! One capability can be valid on its own and still break the set it joins: two owners
//! for one skill, a `requires` cycle, a reviewer lane reusing another lane's flag. These
//! rules run over the whole set, in *map order* (first-party by id, then overlays in the
//! order they were accepted), and report in the peer's order with the peer's message
//! text, so the same broken set reads the same from either implementation.
//!
//! [`validate_cross`] is the peer's `validateCrossCapability` plus one rule of ours:
//! third-party ids may not use a reserved first-party prefix
//! ([`RESERVED_ID_PREFIXES`]). [`validate_data_flow`] checks what steps produce and
//! consume across loop points (the peer's `validateConsumesGlobal`, whose
//! duplicate-producer case the peer throws; here it is a diagnostic like the others) and
//! that every loop point can be ordered.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::vocab::{
    HOST_ARTIFACT_EARLIEST_POINT, LoopPoint, RESERVED_ID_PREFIXES, RESERVED_NAMES, Role, Tier,
};

/// One capability of the merged set, as cross-validation sees it.
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    /// Capability id (the map key).
    pub id: &'a str,
    /// The validated manifest.
    pub manifest: &'a Value,
    /// Whether the capability comes from an overlay (third party).
    pub third_party: bool,
}

fn error(code: &str, id: &str, field: &str, message: String) -> Diagnostic {
    Diagnostic::new(code, Severity::Error, message)
        .with_capability(id)
        .with_field(field)
}

fn role(member: &Member<'_>) -> Option<Role> {
    member
        .manifest
        .get("role")
        .and_then(Value::as_str)
        .and_then(Role::parse)
}

fn strings<'v>(value: &'v Value, key: &str) -> impl Iterator<Item = &'v str> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn is_reserved(name: &str) -> bool {
    RESERVED_NAMES.contains(&name)
}

/// The peer's `validateCrossCapability(capMap, centralKeys)` over `members` (map order),
/// followed by the reserved-prefix rule for third-party ids. `central_keys` are the exact
/// keys of the central config schema; an empty slice skips that check.
#[must_use]
pub fn validate_cross(members: &[Member<'_>], central_keys: &[&str]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    ownership(members, &mut out);
    config_keys(members, central_keys, &mut out);
    lane_collisions(members, &mut out);
    requires_exist(members, &mut out);
    runtime_compat(members, &mut out);
    requires_cycles(members, &mut out);
    tier_monotone(members, &mut out);
    reserved_prefixes(members, &mut out);
    out
}

fn ownership(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let mut skills: HashMap<&str, &str> = HashMap::new();
    let mut agents: HashMap<&str, &str> = HashMap::new();
    let mut families: HashMap<&str, &str> = HashMap::new();
    for m in members.iter().filter(|m| role(m) == Some(Role::Feature)) {
        for (kind, key, owners, code) in [
            ("skill", "skills", &mut skills, "skill_owner_conflict"),
            ("agent", "agents", &mut agents, "agent_owner_conflict"),
        ] {
            for name in strings(m.manifest, key) {
                if let Some(first) = owners.get(name) {
                    let message = format!(
                        "{kind} \"{name}\" is owned by both \"{first}\" and \"{}\"",
                        m.id
                    );
                    out.push(error(code, m.id, key, message));
                } else {
                    owners.insert(name, m.id);
                }
            }
        }
        let commands = m
            .manifest
            .get("commands")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for family in commands.filter_map(|c| c.get("family").and_then(Value::as_str)) {
            if family.is_empty() || is_reserved(family) {
                continue;
            }
            if let Some(first) = families.get(family) {
                let message = format!(
                    "command family \"{family}\" is owned by both \"{first}\" and \"{}\"",
                    m.id
                );
                out.push(error(
                    "command_family_owner_conflict",
                    m.id,
                    "commands",
                    message,
                ));
            } else {
                families.insert(family, m.id);
            }
        }
    }
}

fn config_keys(members: &[Member<'_>], central_keys: &[&str], out: &mut Vec<Diagnostic>) {
    let mut owners: HashMap<&str, &str> = HashMap::new();
    for m in members {
        let Some(Value::Object(config)) = m.manifest.get("config") else {
            continue;
        };
        for key in config.keys() {
            let field = format!("config.{key}");
            if let Some(first) = owners.get(key.as_str()) {
                let message = format!(
                    "config key \"{key}\" is owned by both \"{first}\" and \"{}\"",
                    m.id
                );
                out.push(error("config_key_owner_conflict", m.id, &field, message));
            } else {
                owners.insert(key, m.id);
            }
            if central_keys.contains(&key.as_str()) {
                let message = format!(
                    "config key \"{key}\" is declared in capability \"{}\" AND exists in the central config-schema — migration mid-flight: remove from central config-schema before adding to the capability",
                    m.id
                );
                out.push(error("config_key_in_central_schema", m.id, &field, message));
            }
        }
    }
}

/// Claims of one uniqueness set: key → claimants, in first-claim order.
#[derive(Default)]
struct Claims<'a> {
    keys: Vec<&'a str>,
    claimants: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Claims<'a> {
    fn claim(&mut self, key: Option<&'a Value>, id: &'a str) {
        let Some(key) = key.and_then(Value::as_str) else {
            return;
        };
        if key.is_empty() || is_reserved(key) {
            return;
        }
        let list = self.claimants.entry(key).or_insert_with(|| {
            self.keys.push(key);
            Vec::new()
        });
        if !list.contains(&id) {
            list.push(id);
        }
    }
}

fn lane_collisions(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let (mut slugs, mut flags, mut sections, mut prefixes) = (
        Claims::default(),
        Claims::default(),
        Claims::default(),
        Claims::default(),
    );
    for m in members {
        if let Some(tcr @ Value::Object(_)) = m.manifest.get("taskContentResolver") {
            prefixes.claim(tcr.get("trackerPrefix"), m.id);
        }
        let Some(lane @ Value::Object(_)) = m.manifest.get("reviewer") else {
            continue;
        };
        slugs.claim(lane.get("slug"), m.id);
        sections.claim(lane.get("reviewsSection"), m.id);
        for flag in lane
            .get("flags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            flags.claim(Some(flag), m.id);
        }
    }
    let mut found: Vec<(String, String, &str)> = Vec::new();
    for (claims, label, field) in [
        (&slugs, "slug", "reviewer.slug"),
        (&flags, "flag", "reviewer.flags"),
        (&sections, "reviewsSection", "reviewer.reviewsSection"),
        (
            &prefixes,
            "taskContentResolver.trackerPrefix",
            "taskContentResolver.trackerPrefix",
        ),
    ] {
        for key in &claims.keys {
            let mut ids = claims.claimants[key].clone();
            if ids.len() < 2 {
                continue;
            }
            ids.sort_unstable();
            let names = ids
                .iter()
                .map(|i| format!("\"{i}\""))
                .collect::<Vec<_>>()
                .join(" and ");
            let message = format!("reviewer {label} \"{key}\" is declared by {names}");
            found.push((message, ids[ids.len() - 1].to_owned(), field));
        }
    }
    // JS sorts the message strings by UTF-16 code units; for these strings that is
    // byte order except outside the BMP, which `encode_utf16` handles exactly.
    found.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    for (message, id, field) in found {
        out.push(error("reviewer_lane_collision", &id, field, message));
    }
}

fn requires_exist(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let ids: HashSet<&str> = members.iter().map(|m| m.id).collect();
    for m in members {
        for req in strings(m.manifest, "requires") {
            if !ids.contains(req) {
                let message = format!(
                    "capability \"{}\" requires \"{req}\" which does not exist",
                    m.id
                );
                out.push(error("requires_unknown", m.id, "requires", message));
            }
        }
    }
}

fn runtime_compat(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let runtimes: HashSet<&str> = members
        .iter()
        .filter(|m| role(m) == Some(Role::Runtime))
        .map(|m| m.id)
        .collect();
    for m in members.iter().filter(|m| role(m) == Some(Role::Feature)) {
        let Some(compat @ Value::Object(_)) = m.manifest.get("runtimeCompat") else {
            continue;
        };
        for field in ["supported", "unsupported"] {
            for id in strings(compat, field).filter(|id| *id != "*" && !id.is_empty()) {
                if !runtimes.contains(id) {
                    let message = format!(
                        "capability \"{}\" runtimeCompat.{field} references unknown runtime \"{id}\"",
                        m.id
                    );
                    out.push(error(
                        "runtime_compat_unknown_runtime",
                        m.id,
                        &format!("runtimeCompat.{field}"),
                        message,
                    ));
                }
            }
        }
        if let Some(Value::Object(notes)) = compat.get("notes") {
            for id in notes.keys().filter(|id| *id != "*") {
                if !runtimes.contains(id.as_str()) {
                    let message = format!(
                        "capability \"{}\" runtimeCompat.notes references unknown runtime \"{id}\"",
                        m.id
                    );
                    out.push(error(
                        "runtime_compat_unknown_runtime",
                        m.id,
                        "runtimeCompat.notes",
                        message,
                    ));
                }
            }
        }
    }
}

/// DFS colouring of the `requires` graph, in map order (`detectRequiresCycles`).
fn requires_cycles(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    let index: HashMap<&str, usize> = members.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    let mut colour = vec![Colour::White; members.len()];
    // Iterative DFS: a frame is (node, position in its requires list).
    for start in 0..members.len() {
        if colour[start] != Colour::White {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        colour[start] = Colour::Grey;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let requires: Vec<&str> = strings(members[node].manifest, "requires").collect();
            let Some(req) = requires.get(*next) else {
                colour[node] = Colour::Black;
                stack.pop();
                continue;
            };
            *next += 1;
            let Some(&target) = index.get(req) else {
                continue;
            };
            match colour[target] {
                Colour::Grey => {
                    let mut path: Vec<&str> = stack.iter().map(|(n, _)| members[*n].id).collect();
                    path.push(members[target].id);
                    let message = format!("requires cycle detected: {}", path.join(" → "));
                    out.push(error(
                        "requires_cycle",
                        members[start].id,
                        "requires",
                        message,
                    ));
                }
                Colour::White => {
                    colour[target] = Colour::Grey;
                    stack.push((target, 0));
                }
                Colour::Black => {}
            }
        }
    }
}

fn tier_monotone(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let tier_of = |m: &Member<'_>| {
        m.manifest
            .get("tier")
            .and_then(Value::as_str)
            .and_then(Tier::parse)
    };
    let by_id: HashMap<&str, &Member<'_>> = members.iter().map(|m| (m.id, m)).collect();
    for m in members {
        let Some(tier) = tier_of(m) else { continue };
        for req in strings(m.manifest, "requires") {
            let Some(req_tier) = by_id.get(req).and_then(|r| tier_of(r)) else {
                continue;
            };
            if req_tier.rank() > tier.rank() {
                let message = format!(
                    "tier-monotone violation: capability \"{}\" (tier: {tier}) requires \"{req}\" (tier: {req_tier}) — a capability may not require a higher-tier capability",
                    m.id
                );
                out.push(error("tier_monotone_violation", m.id, "requires", message));
            }
        }
    }
}

fn reserved_prefixes(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    for m in members.iter().filter(|m| m.third_party) {
        if let Some(prefix) = RESERVED_ID_PREFIXES.iter().find(|p| m.id.starts_with(**p)) {
            let message = format!(
                "capability \"{}\" uses the reserved first-party id prefix \"{prefix}\" (gsd-/gsd-core-/anthropic-)",
                m.id
            );
            out.push(error("reserved_id_prefix", m.id, "id", message));
        }
    }
}

/// One step of a feature capability, located.
struct StepRef<'a> {
    id: &'a str,
    index: usize,
    point: LoopPoint,
    step: &'a Value,
}

fn feature_steps<'a>(members: &'a [Member<'a>]) -> Vec<StepRef<'a>> {
    let mut steps = Vec::new();
    for m in members.iter().filter(|m| role(m) == Some(Role::Feature)) {
        for (index, step) in m
            .manifest
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let point = step
                .get("point")
                .and_then(Value::as_str)
                .and_then(LoopPoint::parse);
            if let Some(point) = point {
                steps.push(StepRef {
                    id: m.id,
                    index,
                    point,
                    step,
                });
            }
        }
    }
    steps
}

/// Where an artifact is produced: (loop-point index, capability id, step index).
type Producer<'a> = (usize, &'a str, usize);

/// Data flow across loop points (the peer's `validateConsumesGlobal`): no two steps
/// produce one artifact at one point, and every consumed artifact is a host artifact
/// available by then or produced by a *different* step at or before that point.
#[must_use]
pub fn validate_data_flow(members: &[Member<'_>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let steps = feature_steps(members);
    // artifact → producers (point index, capability, step index), in discovery order.
    let mut producers: Vec<(&str, Vec<Producer<'_>>)> = Vec::new();
    for s in &steps {
        for artifact in strings(s.step, "produces").filter(|a| !is_reserved(a)) {
            let entry = (s.point.index(), s.id, s.index);
            match producers.iter_mut().find(|(a, _)| *a == artifact) {
                Some((_, list)) => list.push(entry),
                None => producers.push((artifact, vec![entry])),
            }
        }
    }
    for (artifact, list) in &producers {
        let mut by_point: BTreeMap<usize, Vec<(&str, usize)>> = BTreeMap::new();
        for (point, id, index) in list {
            by_point.entry(*point).or_default().push((id, *index));
        }
        for (point, group) in by_point {
            let distinct: HashSet<_> = group.iter().collect();
            if distinct.len() >= 2 {
                let mut ids: Vec<&str> = group.iter().map(|(id, _)| *id).collect();
                ids.sort_unstable();
                ids.dedup();
                let name = LoopPoint::ALL[point].as_str();
                let message = format!(
                    "duplicate-producer invariant violated: artifact \"{artifact}\" is produced by two or more capability steps at the same Loop Extension Point \"{name}\" (capabilities: {}). Two capability steps producing the same artifact at the same Loop Extension Point makes data-flow resolution ambiguous and is rejected at gen time.",
                    ids.join(", ")
                );
                out.push(error(
                    "duplicate_producer",
                    ids[ids.len() - 1],
                    "steps",
                    message,
                ));
            }
        }
    }
    for s in &steps {
        let at = s.point.index();
        let prefix = format!(
            "capability \"{}\" step at point \"{}\" consumes",
            s.id, s.point
        );
        let field = format!("steps[{}].consumes", s.index);
        for artifact in strings(s.step, "consumes") {
            let host = HOST_ARTIFACT_EARLIEST_POINT
                .iter()
                .find(|(a, _)| *a == artifact);
            if host.is_some_and(|(_, p)| *p <= at) {
                continue;
            }
            let Some((_, list)) = producers.iter().find(|(a, _)| *a == artifact) else {
                let message = format!(
                    "{prefix} \"{artifact}\" which is never produced by any host artifact or capability hook"
                );
                out.push(error("consumes_never_produced", s.id, &field, message));
                continue;
            };
            let earliest = list
                .iter()
                .filter(|(_, id, index)| !(*id == s.id && *index == s.index))
                .map(|(point, _, _)| *point)
                .min();
            match earliest {
                None => {
                    let message = format!(
                        "{prefix} \"{artifact}\" which is only produced by this step itself (a step cannot consume its own output)"
                    );
                    out.push(error("consumes_own_output", s.id, &field, message));
                }
                Some(p) if p > at => {
                    let message = format!(
                        "{prefix} \"{artifact}\" which is only produced after this point (earliest available at POINT_ORDER index {p} = \"{}\")",
                        LoopPoint::ALL[p]
                    );
                    out.push(error("consumes_produced_later", s.id, &field, message));
                }
                Some(_) => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn members(values: &[Value]) -> Vec<Member<'_>> {
        values
            .iter()
            .map(|v| Member {
                id: v["id"].as_str().unwrap_or(""),
                manifest: v,
                third_party: false,
            })
            .collect()
    }

    #[test]
    fn cycle_message_lists_the_path_in_map_order() {
        let caps = [
            json!({"id": "a", "role": "feature", "tier": "full", "requires": ["b"]}),
            json!({"id": "b", "role": "feature", "tier": "full", "requires": ["a"]}),
        ];
        let found = validate_cross(&members(&caps), &[]);
        let messages: Vec<_> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, ["requires cycle detected: a → b → a"]);
    }

    #[test]
    fn lane_collisions_name_every_claimant_sorted() {
        let caps = [
            json!({"id": "zed", "role": "reviewer", "reviewer": {"slug": "x", "flags": ["--x"]}}),
            json!({"id": "alpha", "role": "reviewer", "reviewer": {"slug": "x", "flags": ["--x"]}}),
        ];
        let found = validate_cross(&members(&caps), &[]);
        let messages: Vec<_> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "reviewer flag \"--x\" is declared by \"alpha\" and \"zed\"",
                "reviewer slug \"x\" is declared by \"alpha\" and \"zed\"",
            ]
        );
    }

    #[test]
    fn reserved_prefix_applies_to_third_party_only() {
        let caps = [json!({"id": "gsd-thing", "role": "feature", "tier": "full"})];
        let mut list = members(&caps);
        assert!(validate_cross(&list, &[]).is_empty());
        list[0].third_party = true;
        let found = validate_cross(&list, &[]);
        assert_eq!(found[0].code, "reserved_id_prefix");
        assert_eq!(found[0].field.as_deref(), Some("id"));
    }

    #[test]
    fn duplicate_producers_at_one_point_are_reported() {
        let step = json!({"point": "plan:pre", "produces": ["X.md"]});
        let caps = [
            json!({"id": "b", "role": "feature", "steps": [step.clone()]}),
            json!({"id": "a", "role": "feature", "steps": [step]}),
        ];
        let found = validate_data_flow(&members(&caps));
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("(capabilities: a, b)"),
            "{}",
            found[0].message
        );
    }
}

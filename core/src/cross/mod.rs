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
//! duplicate-producer case the peer throws; here it is a diagnostic like the others).
//! [`MergedSet`] gives the same answers for one candidate joining a set that is already
//! clean, in time proportional to the candidate.

mod flow;
mod incremental;
pub(crate) mod messages;
mod names;

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Diagnostic;
use crate::doc::JsonRef;
use crate::vocab::{RESERVED_ID_PREFIXES, RESERVED_NAMES, Role, Tier};

pub use flow::validate_data_flow;
pub use incremental::MergedSet;
pub(crate) use names::Names;

/// One capability of the merged set, as cross-validation sees it.
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    /// Capability id (the map key).
    pub id: &'a str,
    /// The validated manifest.
    pub manifest: JsonRef<'a>,
    /// Whether the capability comes from an overlay (third party).
    pub third_party: bool,
}

pub(crate) fn role(member: &Member<'_>) -> Option<Role> {
    member
        .manifest
        .field("role")
        .and_then(JsonRef::as_str)
        .and_then(Role::parse)
}

pub(crate) fn tier(member: &Member<'_>) -> Option<Tier> {
    member
        .manifest
        .field("tier")
        .and_then(JsonRef::as_str)
        .and_then(Tier::parse)
}

pub(crate) fn strings<'v>(value: JsonRef<'v>, key: &str) -> impl Iterator<Item = &'v str> {
    value
        .field(key)
        .and_then(JsonRef::as_array)
        .into_iter()
        .flatten()
        .filter_map(JsonRef::as_str)
}

pub(crate) fn is_reserved(name: &str) -> bool {
    RESERVED_NAMES.contains(&name)
}

/// Command families a feature declares (non-empty, not reserved), in order.
pub(crate) fn families(value: JsonRef<'_>) -> impl Iterator<Item = &str> {
    value
        .field("commands")
        .and_then(JsonRef::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.field("family").and_then(JsonRef::as_str))
        .filter(|f| !f.is_empty() && !is_reserved(f))
}

/// The lane keys a capability claims, per uniqueness set (see [`messages::LANE_SETS`]).
pub(crate) fn lane_claims(value: JsonRef<'_>) -> [Vec<&str>; 4] {
    fn keep(v: Option<JsonRef<'_>>) -> Option<&str> {
        v.and_then(JsonRef::as_str)
            .filter(|k| !k.is_empty() && !is_reserved(k))
    }
    let mut sets: [Vec<&str>; 4] = Default::default();
    if let Some(tcr) = value
        .field("taskContentResolver")
        .and_then(JsonRef::as_object)
    {
        sets[3].extend(keep(tcr.get("trackerPrefix")));
    }
    if let Some(lane) = value.field("reviewer").and_then(JsonRef::as_object) {
        sets[0].extend(keep(lane.get("slug")));
        sets[2].extend(keep(lane.get("reviewsSection")));
        for flag in lane
            .get("flags")
            .and_then(JsonRef::as_array)
            .into_iter()
            .flatten()
        {
            sets[1].extend(keep(Some(flag)));
        }
    }
    sets
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
    let mut family_owner: HashMap<&str, &str> = HashMap::new();
    for m in members.iter().filter(|m| role(m) == Some(Role::Feature)) {
        for (kind, key, owners) in [
            ("skill", "skills", &mut skills),
            ("agent", "agents", &mut agents),
        ] {
            for name in strings(m.manifest, key) {
                match owners.get(name) {
                    Some(first) => out.push(messages::owner(kind, name, first, m.id)),
                    None => {
                        owners.insert(name, m.id);
                    }
                }
            }
        }
        for family in families(m.manifest) {
            match family_owner.get(family) {
                Some(first) => out.push(messages::family_owner(family, first, m.id)),
                None => {
                    family_owner.insert(family, m.id);
                }
            }
        }
    }
}

fn config_keys(members: &[Member<'_>], central_keys: &[&str], out: &mut Vec<Diagnostic>) {
    let mut owners: HashMap<&str, &str> = HashMap::new();
    for m in members {
        let Some(config) = m.manifest.field("config").and_then(JsonRef::as_object) else {
            continue;
        };
        for key in config.keys() {
            match owners.get(key) {
                Some(first) => out.push(messages::config_owner(key, first, m.id)),
                None => {
                    owners.insert(key, m.id);
                }
            }
            if central_keys.contains(&key) {
                out.push(messages::config_central(key, m.id));
            }
        }
    }
}

/// Claims of one lane set: keys in first-claim order, and each key's claimants.
type Claims<'a> = (Vec<&'a str>, HashMap<&'a str, Vec<&'a str>>);

fn lane_collisions(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    // Per set: key → claimants in first-claim order (keys in first-claim order too).
    let mut claims: [Claims<'_>; 4] = Default::default();
    for m in members {
        for (set, keys) in lane_claims(m.manifest).into_iter().enumerate() {
            let (order, by_key) = &mut claims[set];
            for key in keys {
                let list = by_key.entry(key).or_insert_with(|| {
                    order.push(key);
                    Vec::new()
                });
                if !list.contains(&m.id) {
                    list.push(m.id);
                }
            }
        }
    }
    let mut found = Vec::new();
    for ((order, by_key), (label, field)) in claims.iter().zip(messages::LANE_SETS) {
        for key in order {
            let mut ids = by_key.get(key).cloned().unwrap_or_default();
            if ids.len() >= 2 {
                ids.sort_unstable();
                found.push(messages::lane(label, field, key, &ids));
            }
        }
    }
    messages::sort_lanes(&mut found);
    out.extend(found);
}

fn requires_exist(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let ids: HashSet<&str> = members.iter().map(|m| m.id).collect();
    for m in members {
        for req in strings(m.manifest, "requires").filter(|r| !ids.contains(r)) {
            out.push(messages::requires_unknown(m.id, req));
        }
    }
}

/// Unknown runtime ids in one feature's `runtimeCompat` (`known` says what is a runtime).
pub(crate) fn compat_problems(
    m: &Member<'_>,
    known: &dyn Fn(&str) -> bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(compat) = m.manifest.field("runtimeCompat").filter(|c| c.is_object()) else {
        return;
    };
    for field in ["supported", "unsupported"] {
        for id in strings(compat, field).filter(|id| *id != "*" && !id.is_empty()) {
            if !known(id) {
                out.push(messages::compat_unknown(m.id, field, id));
            }
        }
    }
    if let Some(notes) = compat.field("notes").and_then(JsonRef::as_object) {
        for id in notes.keys().filter(|id| *id != "*" && !known(id)) {
            out.push(messages::compat_unknown(m.id, "notes", id));
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
        compat_problems(m, &|id| runtimes.contains(id), out);
    }
}

/// The `requires` cycles of the members, in map order (`detectRequiresCycles`), by the
/// walk [`crate::requires_graph`] shares.
fn requires_cycles(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let index: HashMap<&str, usize> = members.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    let edges: Vec<Vec<usize>> = members
        .iter()
        .map(|m| {
            strings(m.manifest, "requires")
                .filter_map(|r| index.get(r).copied())
                .collect()
        })
        .collect();
    for (start, path) in crate::requires_graph::cycles(&edges) {
        let path: Vec<&str> = path.into_iter().map(|n| members[n].id).collect();
        out.push(messages::cycle(members[start].id, &path));
    }
}

fn tier_monotone(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    let tiers: HashMap<&str, Tier> = members
        .iter()
        .filter_map(|m| Some((m.id, tier(m)?)))
        .collect();
    for m in members {
        let Some(own) = tier(m) else { continue };
        for req in strings(m.manifest, "requires") {
            if let Some(req_tier) = tiers.get(req).filter(|t| t.rank() > own.rank()) {
                out.push(messages::tier(m.id, own, req, *req_tier));
            }
        }
    }
}

fn reserved_prefixes(members: &[Member<'_>], out: &mut Vec<Diagnostic>) {
    for m in members.iter().filter(|m| m.third_party) {
        if let Some(prefix) = RESERVED_ID_PREFIXES.iter().find(|p| m.id.starts_with(**p)) {
            out.push(messages::reserved(m.id, prefix));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::doc::JsonDoc;

    use super::*;

    fn docs(values: &[Value]) -> Vec<JsonDoc> {
        values
            .iter()
            .map(|v| JsonDoc::from_value(v).expect("small"))
            .collect()
    }

    fn members(docs: &[JsonDoc]) -> Vec<Member<'_>> {
        docs.iter()
            .map(|d| Member {
                id: d.field("id").and_then(JsonRef::as_str).unwrap_or(""),
                manifest: d.root(),
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
        let found = validate_cross(&members(&docs(&caps)), &[]);
        let messages: Vec<_> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, ["requires cycle detected: a → b → a"]);
    }

    #[test]
    fn half_a_million_requires_are_checked_in_one_sweep() {
        // Quadratic work here (rebuilding the list per step) took hours at this size.
        let mut requires: Vec<String> = (0..500_000).map(|i| format!("r{i}")).collect();
        requires.extend(["b".to_owned(), "a".to_owned()]);
        let caps = [
            json!({"id": "a", "role": "feature", "tier": "full", "requires": requires}),
            json!({"id": "b", "role": "feature", "tier": "full", "requires": []}),
        ];
        let found = validate_cross(&members(&docs(&caps)), &[]);
        let unknown = found
            .iter()
            .filter(|d| d.code == "requires_unknown")
            .count();
        assert_eq!(unknown, 500_000);
        assert_eq!(
            found[0].message,
            "capability \"a\" requires \"r0\" which does not exist"
        );
        let cycles: Vec<_> = found
            .iter()
            .filter(|d| d.code == "requires_cycle")
            .collect();
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].message, "requires cycle detected: a → a");
    }

    #[test]
    fn a_long_requires_chain_does_not_exhaust_the_stack() {
        let n = 100_000;
        let caps: Vec<Value> = (0..n)
            .map(|i| json!({"id": format!("c{i}"), "role": "feature", "tier": "full", "requires": [format!("c{}", (i + 1) % n)]}))
            .collect();
        let found = validate_cross(&members(&docs(&caps)), &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "requires_cycle");
        assert!(
            found[0]
                .message
                .starts_with("requires cycle detected: c0 → c1 → c2 → ")
        );
        assert!(found[0].message.ends_with(" → c99999 → c0"));
    }

    #[test]
    fn lane_collisions_name_every_claimant_sorted() {
        let caps = [
            json!({"id": "zed", "role": "reviewer", "reviewer": {"slug": "x", "flags": ["--x"]}}),
            json!({"id": "alpha", "role": "reviewer", "reviewer": {"slug": "x", "flags": ["--x"]}}),
        ];
        let found = validate_cross(&members(&docs(&caps)), &[]);
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
        let kept = docs(&caps);
        let mut list = members(&kept);
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
        let found = validate_data_flow(&members(&docs(&caps)));
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("(capabilities: a, b)"),
            "{}",
            found[0].message
        );
    }
}

//! Cross-validation of one candidate against a set that is already clean.
//!
//! Accepting overlays one at a time and re-validating the whole merged set each time
//! costs O(n) per overlay. When the set is known to be clean (first party is, and an
//! overlay only joins if it keeps it so), every error of *set + candidate* involves the
//! candidate, so [`MergedSet::check`] finds them from indexes kept up to date by
//! [`MergedSet::add`], with the same records, in the same order, as
//! `validate_cross` + `validate_data_flow` + hook ordering over the whole set.

use std::collections::{HashMap, HashSet};

use super::flow::{self, Producer, StepRef};
use super::{Member, Names, Role, families, lane_claims, messages, role, strings, tier};
use crate::diagnostic::Diagnostic;
use crate::doc::JsonRef;
use crate::index::order_hooks;
use crate::vocab::{LoopPoint, RESERVED_ID_PREFIXES, Tier};

/// Indexes of a clean merged set. They borrow every name from the members' manifests,
/// which outlive the set: admitting thousands of overlays copies no name and allocates
/// no string, and dropping the set frees a few tables, not a block per name. Each table
/// keeps its names' hashes beside them, so none has to be sized in advance.
#[derive(Debug, Clone, Default)]
pub struct MergedSet<'a> {
    ids: Names<'a, ()>,
    runtimes: Names<'a, ()>,
    tiers: Names<'a, Tier>,
    skill_owner: Names<'a, &'a str>,
    agent_owner: Names<'a, &'a str>,
    family_owner: Names<'a, &'a str>,
    config_owner: Names<'a, &'a str>,
    lanes: [Names<'a, &'a str>; 4],
    producers: Names<'a, Vec<Producer<'a>>>,
    artifact_rank: Names<'a, usize>,
    hooks: Vec<[Vec<(&'a str, JsonRef<'a>)>; 2]>,
}

impl<'a> MergedSet<'a> {
    /// Indexes `members` (map order), which must be clean.
    #[must_use]
    pub fn new(members: &[Member<'a>]) -> MergedSet<'a> {
        let mut set = MergedSet {
            hooks: LoopPoint::ALL.iter().map(|_| Default::default()).collect(),
            ..MergedSet::default()
        };
        for m in members {
            set.add(m);
        }
        set
    }

    /// Whether a capability id is in the set.
    #[must_use]
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// Adds a member that [`MergedSet::check`] accepted.
    pub fn add(&mut self, m: &Member<'a>) {
        let owner = m.id;
        self.ids.insert(m.id);
        if let Some(t) = tier(m) {
            self.tiers.set(m.id, t);
        }
        let feature = role(m) == Some(Role::Feature);
        if role(m) == Some(Role::Runtime) {
            self.runtimes.insert(m.id);
        }
        if feature {
            for s in strings(m.manifest, "skills") {
                self.skill_owner.keep_first(s, owner);
            }
            for a in strings(m.manifest, "agents") {
                self.agent_owner.keep_first(a, owner);
            }
            for f in families(m.manifest) {
                self.family_owner.keep_first(f, owner);
            }
        }
        if let Some(config) = m.manifest.field("config").and_then(JsonRef::as_object) {
            for key in config.keys() {
                self.config_owner.keep_first(key, owner);
            }
        }
        for (set, keys) in lane_claims(m.manifest).into_iter().enumerate() {
            for key in keys {
                self.lanes[set].keep_first(key, owner);
            }
        }
        for s in flow::steps_of(m) {
            for artifact in flow::produced(s.step) {
                let next = self.artifact_rank.len();
                self.artifact_rank.keep_first(artifact, next);
                let entry = (s.point.index(), m.id, s.index);
                self.producers.entry(artifact, Vec::new).push(entry);
            }
        }
        if feature {
            for (slot, group) in ["steps", "contributions"].into_iter().enumerate() {
                for hook in m
                    .manifest
                    .field(group)
                    .and_then(JsonRef::as_array)
                    .into_iter()
                    .flatten()
                {
                    let point = hook
                        .field("point")
                        .and_then(JsonRef::as_str)
                        .and_then(LoopPoint::parse);
                    if let Some(list) = point.and_then(|p| self.hooks.get_mut(p.index())) {
                        list[slot].push((m.id, hook));
                    }
                }
            }
        }
    }

    /// Every error the whole-set validators would report for this set plus `m`.
    #[must_use]
    pub fn check(&self, m: &Member<'_>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        self.ownership(m, &mut out);
        if let Some(config) = m.manifest.field("config").and_then(JsonRef::as_object) {
            for key in config.keys() {
                if let Some(first) = self.config_owner.get(key) {
                    out.push(messages::config_owner(key, first, m.id));
                }
            }
        }
        self.lanes(m, &mut out);
        let requires: Vec<&str> = strings(m.manifest, "requires").collect();
        for req in requires
            .iter()
            .filter(|r| **r != m.id && !self.ids.contains(r))
        {
            out.push(messages::requires_unknown(m.id, req));
        }
        if role(m) == Some(Role::Feature) {
            super::compat_problems(m, &|id| self.runtimes.contains(id), &mut out);
        }
        for _ in requires.iter().filter(|r| **r == m.id) {
            out.push(messages::cycle(m.id, &[m.id, m.id]));
        }
        if let Some(own) = tier(m) {
            for req in &requires {
                let req_tier = if *req == m.id {
                    Some(own)
                } else {
                    self.tiers.get(req)
                };
                if let Some(t) = req_tier.filter(|t| t.rank() > own.rank()) {
                    out.push(messages::tier(m.id, own, req, t));
                }
            }
        }
        let reserved = RESERVED_ID_PREFIXES.iter().find(|p| m.id.starts_with(**p));
        if let Some(prefix) = reserved.filter(|_| m.third_party) {
            out.push(messages::reserved(m.id, prefix));
        }
        self.data_flow(m, &mut out);
        self.hook_order(m, &mut out);
        out
    }

    /// The ids whose absence gives `m` a `requires_unknown` or (for a feature) a
    /// `runtime_compat_unknown_runtime` error, in order, repeats included. Only a member
    /// with one of these ids joining can remove those errors; a compat id that is in the
    /// set but is not a runtime is left out, since no later member can change it.
    pub fn missing_ids<'s, 'm: 's>(&'s self, m: &Member<'m>) -> impl Iterator<Item = &'m str> + 's {
        let id = m.id;
        let requires =
            strings(m.manifest, "requires").filter(move |r| *r != id && !self.ids.contains(r));
        let compat = match m.manifest.field("runtimeCompat") {
            Some(compat) if compat.is_object() && role(m) == Some(Role::Feature) => Some(compat),
            _ => None,
        };
        let listed = compat.into_iter().flat_map(|compat| {
            let fields = ["supported", "unsupported"]
                .into_iter()
                .flat_map(move |field| strings(compat, field))
                .filter(|id| *id != "*" && !id.is_empty());
            let notes = compat
                .field("notes")
                .and_then(JsonRef::as_object)
                .map(|notes| notes.keys().filter(|id| *id != "*"));
            fields.chain(notes.into_iter().flatten())
        });
        requires.chain(listed.filter(move |id| !self.ids.contains(id)))
    }

    fn ownership(&self, m: &Member<'_>, out: &mut Vec<Diagnostic>) {
        if role(m) != Some(Role::Feature) {
            return;
        }
        for (kind, key, owners) in [
            ("skill", "skills", &self.skill_owner),
            ("agent", "agents", &self.agent_owner),
        ] {
            let mut mine: HashSet<&str> = HashSet::new();
            for name in strings(m.manifest, key) {
                match owners.get(name) {
                    Some(first) => out.push(messages::owner(kind, name, first, m.id)),
                    None if !mine.insert(name) => out.push(messages::owner(kind, name, m.id, m.id)),
                    None => {}
                }
            }
        }
        let mut mine: HashSet<&str> = HashSet::new();
        for family in families(m.manifest) {
            match self.family_owner.get(family) {
                Some(first) => out.push(messages::family_owner(family, first, m.id)),
                None if !mine.insert(family) => {
                    out.push(messages::family_owner(family, m.id, m.id));
                }
                None => {}
            }
        }
    }

    fn lanes(&self, m: &Member<'_>, out: &mut Vec<Diagnostic>) {
        let mut found = Vec::new();
        for (set, keys) in lane_claims(m.manifest).into_iter().enumerate() {
            let (label, field) = messages::LANE_SETS[set];
            let mut seen: HashSet<&str> = HashSet::new();
            for key in keys.into_iter().filter(|k| seen.insert(k)) {
                if let Some(other) = self.lanes[set].get(key).filter(|o| *o != m.id) {
                    let mut ids = [other, m.id];
                    ids.sort_unstable();
                    found.push(messages::lane(label, field, key, &ids));
                }
            }
        }
        messages::sort_lanes(&mut found);
        out.extend(found);
    }

    fn data_flow(&self, m: &Member<'_>, out: &mut Vec<Diagnostic>) {
        let steps: Vec<StepRef<'_>> = flow::steps_of(m);
        if steps.is_empty() {
            return;
        }
        let existing = |artifact: &str| -> Vec<Producer<'_>> {
            self.producers.get(artifact).unwrap_or_default()
        };
        // The candidate's artifacts, ranked after the set's in discovery order.
        let mut ranked: Vec<(usize, &str)> = Vec::new();
        let mut own: HashMap<&str, Vec<Producer<'_>>> = HashMap::new();
        for s in &steps {
            for artifact in flow::produced(s.step) {
                if !own.contains_key(artifact) {
                    let rank = self
                        .artifact_rank
                        .get(artifact)
                        .unwrap_or(self.artifact_rank.len() + ranked.len());
                    ranked.push((rank, artifact));
                }
                own.entry(artifact)
                    .or_default()
                    .push((s.point.index(), s.id, s.index));
            }
        }
        ranked.sort_unstable();
        for (_, artifact) in &ranked {
            let mut all = existing(artifact);
            all.extend(own.get(artifact).into_iter().flatten().copied());
            flow::duplicates(artifact, &all, out);
        }
        let producers_of = |artifact: &str| {
            let mut all = existing(artifact);
            all.extend(own.get(artifact).into_iter().flatten().copied());
            all
        };
        for s in &steps {
            flow::consumes(s, &producers_of, out);
        }
    }

    fn hook_order(&self, m: &Member<'_>, out: &mut Vec<Diagnostic>) {
        if role(m) != Some(Role::Feature) {
            return;
        }
        for (point, lists) in LoopPoint::ALL.iter().zip(&self.hooks) {
            for (slot, group) in ["steps", "contributions"].into_iter().enumerate() {
                let mine: Vec<JsonRef<'_>> = m
                    .manifest
                    .field(group)
                    .and_then(JsonRef::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|h| h.field("point").and_then(JsonRef::as_str) == Some(point.as_str()))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let mut entries: Vec<(&str, JsonRef<'_>)> = lists[slot].clone();
                entries.extend(mine.into_iter().map(|h| (m.id, h)));
                if let Err(cycle) = order_hooks(group, *point, &entries) {
                    out.push(*cycle);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::Registry;
    use crate::cross::{validate_cross, validate_data_flow};
    use crate::doc::JsonDoc;
    use crate::index::validate_hook_order;

    fn full(members: &[Member<'_>]) -> Vec<Diagnostic> {
        let mut found = validate_cross(members, &[]);
        found.extend(validate_data_flow(members));
        found.extend(validate_hook_order(members));
        found
    }

    fn feature(id: &str, body: &Value) -> Value {
        let mut cap = json!({"id": id, "role": "feature", "tier": "full", "requires": [], "skills": [], "agents": []});
        for (k, v) in body.as_object().into_iter().flatten() {
            cap[k] = v.clone();
        }
        cap
    }

    fn step(point: &str, produces: &[&str], consumes: &[&str]) -> Value {
        json!({"point": point, "produces": produces, "consumes": consumes})
    }

    fn candidates() -> Vec<Value> {
        vec![
            feature("c", &json!({})),
            feature(
                "c",
                &json!({"skills": ["graphify", "x", "x", "code-review"], "agents": ["gsd-ui-checker", "a", "a"]}),
            ),
            feature(
                "c",
                &json!({"commands": [{"family": "intel"}, {"family": "new"}, {"family": "new"}, {"family": ""}]}),
            ),
            feature(
                "c",
                &json!({"config": {"workflow.research": {}, "own.key": {}}}),
            ),
            json!({"id": "c", "role": "reviewer", "tier": "full", "reviewer": {"slug": "gemini", "flags": ["--codex", "--codex", "--new"], "reviewsSection": "Ollama"}}),
            feature(
                "c",
                &json!({"taskContentResolver": {"trackerPrefix": "T"}, "skills": ["graphify"]}),
            ),
            feature(
                "c",
                &json!({"requires": ["ghost", "research", "c", "c", "claude"], "tier": "core"}),
            ),
            feature(
                "c",
                &json!({"tier": "standard", "requires": ["ui", "gap-analysis"]}),
            ),
            feature(
                "c",
                &json!({"runtimeCompat": {"supported": ["claude", "nope", "*", "gemini"], "unsupported": ["x"], "notes": {"*": 1, "y": 2, "codex": 3}}}),
            ),
            feature(
                "c",
                &json!({"steps": [step("plan:pre", &["RESEARCH.md", "NEW.md"], &["NEW.md", "GONE.md"])]}),
            ),
            feature(
                "c",
                &json!({"steps": [step("plan:pre", &["A.md"], &[]), step("plan:pre", &["A.md"], &[]), step("discuss:pre", &[], &["A.md", "PLAN.md"])]}),
            ),
            feature(
                "c",
                &json!({"steps": [step("execute:pre", &["B.md"], &["C.md"]), step("execute:pre", &["C.md"], &["B.md"])]}),
            ),
            feature(
                "c",
                &json!({"contributions": [step("plan:pre", &["P.md"], &["Q.md"]), step("plan:pre", &["Q.md"], &["P.md"])]}),
            ),
            json!({"id": "gsd-c", "role": "feature", "tier": "full", "requires": []}),
            json!({"id": "c", "role": "runtime", "tier": "core", "requires": ["tdd"], "config": {"intel.enabled": {}}}),
        ]
    }

    #[test]
    fn checking_one_candidate_equals_validating_the_whole_set() {
        let registry = Registry::first_party();
        let base = registry.members();
        let merged = MergedSet::new(&base);
        let mut with_errors = 0;
        for candidate in candidates() {
            let kept = JsonDoc::from_value(&candidate).expect("small");
            for third_party in [false, true] {
                let id = candidate["id"].as_str().unwrap_or("");
                let member = Member {
                    id,
                    manifest: kept.root(),
                    third_party,
                };
                let mut all = base.clone();
                all.push(member);
                let expected = full(&all);
                with_errors += usize::from(!expected.is_empty());
                assert_eq!(merged.check(&member), expected, "{candidate}");
            }
        }
        assert!(
            with_errors >= 26,
            "only {with_errors} candidates break the set"
        );
    }

    #[test]
    fn added_members_are_seen_by_later_checks() {
        let registry = Registry::first_party();
        let mut all = registry.members();
        let mut merged = MergedSet::new(&all);
        let first = feature(
            "b",
            &json!({"skills": ["s"], "steps": [step("plan:post", &["B.md"], &[])]}),
        );
        let first = JsonDoc::from_value(&first).expect("small");
        let b = Member {
            id: "b",
            manifest: first.root(),
            third_party: true,
        };
        assert!(merged.check(&b).is_empty());
        merged.add(&b);
        all.push(b);
        for candidate in [
            feature("c", &json!({"skills": ["s"], "requires": ["b"]})),
            feature(
                "c",
                &json!({"steps": [step("plan:post", &["B.md"], &[]), step("plan:pre", &[], &["B.md"])]}),
            ),
        ] {
            let candidate = JsonDoc::from_value(&candidate).expect("small");
            let member = Member {
                id: "c",
                manifest: candidate.root(),
                third_party: true,
            };
            let mut with = all.clone();
            with.push(member);
            let expected = full(&with);
            assert!(!expected.is_empty());
            assert_eq!(merged.check(&member), expected, "{candidate}");
        }
    }
}

//! What the registry being built already claims, kept up to date while overlays join, so
//! admitting one overlay costs time in proportion to that overlay, not to the registry.
//!
//! [`Registry::with_overlays`](super::Registry::with_overlays) used to rebuild the derived
//! index and rerun every set-wide rule over the whole merged set for each overlay, which
//! made N overlays cost O(N²) or worse. The set-wide rules (`cross::validate_cross`,
//! `cross::validate_data_flow`, `index::validate_hook_order`) are unchanged and still
//! decide every case this module cannot prove clean.
//!
//! The proof: when the set so far has no set-wide error, a newcomer can only add an error
//! through something it declares itself, and only if that declaration meets one already
//! made. [`Admission::clean`] checks exactly those meeting points against the sets kept
//! here (the same filters as each rule), and answers `false` (run the full rules) for
//! anything it does not model: a newcomer with steps or contributions, a reserved or
//! already-registered id, a self-requirement, or a base set that was not clean.

use std::collections::HashSet;

use serde_json::Value;

use crate::cross::{self, Member};
use crate::index;
use crate::vocab::{RESERVED_ID_PREFIXES, RESERVED_NAMES, Role, Tier};

fn reserved(name: &str) -> bool {
    RESERVED_NAMES.contains(&name)
}

fn strings<'v>(value: &'v Value, key: &str) -> impl Iterator<Item = &'v str> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn role(manifest: &Value) -> Option<Role> {
    manifest
        .get("role")
        .and_then(Value::as_str)
        .and_then(Role::parse)
}

fn tier(manifest: &Value) -> Option<Tier> {
    manifest
        .get("tier")
        .and_then(Value::as_str)
        .and_then(Tier::parse)
}

fn config_keys(manifest: &Value) -> impl Iterator<Item = &str> {
    match manifest.get("config") {
        Some(Value::Object(map)) => Some(map.keys().map(String::as_str)),
        _ => None,
    }
    .into_iter()
    .flatten()
}

/// `commands[].family` of a feature, as the ownership rule reads it (non-empty, not
/// reserved).
fn owned_families(manifest: &Value) -> impl Iterator<Item = &str> {
    command_entries(manifest)
        .filter_map(|c| c.get("family").and_then(Value::as_str))
        .filter(|f| !f.is_empty() && !reserved(f))
}

/// `commands[].family` as the index lists it (family, module and router all non-empty
/// strings; family not reserved).
fn indexed_families(manifest: &Value) -> impl Iterator<Item = &str> {
    command_entries(manifest).filter_map(|c| {
        let text = |k: &str| c.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
        let family = text("family")?;
        (text("module").is_some() && text("router").is_some() && !reserved(family))
            .then_some(family)
    })
}

fn command_entries(manifest: &Value) -> impl Iterator<Item = &Value> {
    manifest
        .get("commands")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn claim<'v>(out: &mut Vec<(usize, &'v str)>, set: usize, key: Option<&'v Value>) {
    if let Some(key) = key.and_then(Value::as_str)
        && !key.is_empty()
        && !reserved(key)
    {
        out.push((set, key));
    }
}

/// Reviewer-lane and tracker-prefix claims, as `lane_collisions` takes them:
/// `(set, key)` with set 0 slug, 1 flag, 2 reviewsSection, 3 trackerPrefix.
fn lane_claims(manifest: &Value) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    if let Some(tcr @ Value::Object(_)) = manifest.get("taskContentResolver") {
        claim(&mut out, 3, tcr.get("trackerPrefix"));
    }
    if let Some(lane @ Value::Object(_)) = manifest.get("reviewer") {
        claim(&mut out, 0, lane.get("slug"));
        claim(&mut out, 2, lane.get("reviewsSection"));
        for flag in lane
            .get("flags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            claim(&mut out, 1, Some(flag));
        }
    }
    out
}

fn extend<'a>(set: &mut HashSet<String>, names: impl Iterator<Item = &'a str>) {
    set.extend(names.map(str::to_owned));
}

fn has_hooks(manifest: &Value) -> bool {
    ["steps", "contributions"].iter().any(|k| {
        manifest
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    })
}

/// Every name in `names` is new to `taken` and appears once.
fn all_fresh<'a>(taken: &HashSet<String>, names: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = HashSet::new();
    names
        .into_iter()
        .all(|n| !taken.contains(n) && seen.insert(n))
}

/// The claims of the registry being built (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Admission {
    /// The set so far passed every set-wide rule; otherwise [`Admission::clean`] never
    /// answers `true`.
    usable: bool,
    ids: HashSet<String>,
    runtimes: HashSet<String>,
    tiers: std::collections::HashMap<String, Tier>,
    /// Ownership rule: every skill / agent / family string of a feature.
    skills: HashSet<String>,
    agents: HashSet<String>,
    families: HashSet<String>,
    /// Config-key rule: every config key of every member.
    config: HashSet<String>,
    /// Lane-collision rule: slug, flag, reviewsSection, trackerPrefix.
    lanes: [HashSet<String>; 4],
    /// The index's views (non-reserved member ids and names), for first-party-wins.
    index_skills: HashSet<String>,
    index_agents: HashSet<String>,
    index_config: HashSet<String>,
    index_families: HashSet<String>,
}

impl Admission {
    /// The claims of `members` (map order); usable when the set has no set-wide error.
    pub(super) fn of(members: &[Member<'_>]) -> Self {
        let usable = cross::validate_cross(members, &[]).is_empty()
            && cross::validate_data_flow(members).is_empty()
            && index::validate_hook_order(members).is_empty();
        let mut admission = Admission {
            usable,
            ..Admission::default()
        };
        for m in members {
            admission.add(m.id, m.manifest);
        }
        admission
    }

    /// Records a member that joined the set.
    pub(super) fn add(&mut self, id: &str, manifest: &Value) {
        self.ids.insert(id.to_owned());
        let role = role(manifest);
        if role == Some(Role::Runtime) {
            self.runtimes.insert(id.to_owned());
        }
        if let Some(tier) = tier(manifest) {
            self.tiers.insert(id.to_owned(), tier);
        }
        extend(&mut self.config, config_keys(manifest));
        for (set, key) in lane_claims(manifest) {
            self.lanes[set].insert(key.to_owned());
        }
        if role == Some(Role::Feature) {
            extend(&mut self.skills, strings(manifest, "skills"));
            extend(&mut self.agents, strings(manifest, "agents"));
            extend(&mut self.families, owned_families(manifest));
        }
        if reserved(id) {
            return;
        }
        extend(
            &mut self.index_config,
            config_keys(manifest).filter(|k| !reserved(k)),
        );
        if role == Some(Role::Feature) {
            extend(
                &mut self.index_skills,
                strings(manifest, "skills").filter(|s| !reserved(s)),
            );
            extend(
                &mut self.index_agents,
                strings(manifest, "agents").filter(|s| !reserved(s)),
            );
            extend(&mut self.index_families, indexed_families(manifest));
        }
    }

    /// Whether the registry's index already lists `name` under `field` (`skills`,
    /// `agents`, `config`, or `commands` for command families).
    pub(super) fn indexed(&self, field: &str, name: &str) -> bool {
        match field {
            "skills" => self.index_skills.contains(name),
            "agents" => self.index_agents.contains(name),
            "config" => self.index_config.contains(name),
            _ => self.index_families.contains(name),
        }
    }

    /// `true` only when adding a third-party capability `(id, manifest)` as the last
    /// member provably leaves every set-wide rule without an error; `false` means "run
    /// the rules" (it does not mean the capability is rejected).
    pub(super) fn clean(&self, id: &str, manifest: &Value) -> bool {
        if !self.usable
            || reserved(id)
            || self.ids.contains(id)
            || RESERVED_ID_PREFIXES.iter().any(|p| id.starts_with(p))
        {
            return false;
        }
        let role = role(manifest);
        if role == Some(Role::Feature)
            && (has_hooks(manifest)
                || !all_fresh(&self.skills, strings(manifest, "skills"))
                || !all_fresh(&self.agents, strings(manifest, "agents"))
                || !all_fresh(&self.families, owned_families(manifest))
                || !self.compat_known(manifest))
        {
            return false;
        }
        if config_keys(manifest).any(|k| self.config.contains(k))
            || lane_claims(manifest)
                .iter()
                .any(|(set, key)| self.lanes[*set].contains(*key))
        {
            return false;
        }
        let own_tier = tier(manifest);
        strings(manifest, "requires").all(|req| {
            req != id
                && self.ids.contains(req)
                && match (own_tier, self.tiers.get(req)) {
                    (Some(mine), Some(theirs)) => theirs.rank() <= mine.rank(),
                    _ => true,
                }
        })
    }

    /// Every runtime a feature's `runtimeCompat` names is registered.
    fn compat_known(&self, manifest: &Value) -> bool {
        let Some(compat @ Value::Object(_)) = manifest.get("runtimeCompat") else {
            return true;
        };
        let listed = ["supported", "unsupported"]
            .iter()
            .flat_map(|f| strings(compat, f))
            .filter(|id| *id != "*" && !id.is_empty());
        let noted = match compat.get("notes") {
            Some(Value::Object(notes)) => Some(notes.keys().map(String::as_str)),
            _ => None,
        }
        .into_iter()
        .flatten()
        .filter(|id| *id != "*");
        listed.chain(noted).all(|id| self.runtimes.contains(id))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::Admission;
    use crate::cross::{self, Member};
    use crate::index;
    use crate::registry::Registry;

    fn feature(id: &str, extra: &Value) -> Value {
        let mut cap = json!({"id": id, "role": "feature", "tier": "full", "requires": []});
        if let (Some(cap), Some(extra)) = (cap.as_object_mut(), extra.as_object()) {
            cap.extend(extra.clone());
        }
        cap
    }

    /// The full set-wide rules over first party + `cap` (as the last, third-party member).
    fn full_rules(cap: &Value) -> usize {
        let registry = Registry::first_party();
        let mut members = registry.members();
        let id = cap.get("id").and_then(Value::as_str).unwrap_or("");
        members.push(Member {
            id,
            manifest: cap,
            third_party: true,
        });
        cross::validate_cross(&members, &[]).len()
            + cross::validate_data_flow(&members).len()
            + index::validate_hook_order(&members).len()
    }

    /// `(manifest, whether the full rules reject it)`: one clean newcomer per role and one
    /// newcomer per way of meeting an existing claim.
    fn cases() -> Vec<(Value, bool)> {
        let step = json!({"point": "plan:pre", "produces": ["X.md"]});
        vec![
            (
                feature(
                    "ext-a",
                    &json!({"skills": ["ext-a"], "config": {"ext.a": {}}}),
                ),
                false,
            ),
            (
                json!({"id": "ext-rt", "role": "runtime", "tier": "full"}),
                false,
            ),
            (
                feature(
                    "ext-b",
                    &json!({"runtimeCompat": {"supported": ["claude"], "notes": {"codex": "x"}}}),
                ),
                false,
            ),
            (feature("ext-c", &json!({"requires": ["graphify"]})), false),
            (feature("ext-d", &json!({"skills": ["graphify"]})), true),
            (
                feature("ext-e", &json!({"agents": ["gsd-code-reviewer"]})),
                true,
            ),
            (
                feature("ext-f", &json!({"config": {"graphify.enabled": {}}})),
                true,
            ),
            (feature("ext-g", &json!({"skills": ["same", "same"]})), true),
            (
                feature("ext-h", &json!({"agents": ["twice", "twice"]})),
                true,
            ),
            (
                feature("ext-i", &json!({"requires": ["no-such-capability"]})),
                true,
            ),
            (feature("ext-j", &json!({"requires": ["ext-j"]})), true),
            (
                feature("ext-k", &json!({"tier": "core", "requires": ["graphify"]})),
                true,
            ),
            (
                feature(
                    "ext-l",
                    &json!({"runtimeCompat": {"supported": ["no-such-runtime"]}}),
                ),
                true,
            ),
            (
                feature(
                    "ext-m",
                    &json!({"runtimeCompat": {"unsupported": ["nope"]}}),
                ),
                true,
            ),
            (
                feature("ext-n", &json!({"runtimeCompat": {"notes": {"nope": "x"}}})),
                true,
            ),
            (
                feature("ext-o", &json!({"commands": [{"family": "graphify"}]})),
                true,
            ),
            (
                feature(
                    "ext-p",
                    &json!({"commands": [{"family": "f"}, {"family": "f"}]}),
                ),
                true,
            ),
            (
                json!({"id": "ext-q", "role": "reviewer", "reviewer": {"slug": "claude"}}),
                true,
            ),
            (
                json!({"id": "ext-r", "role": "reviewer", "reviewer": {"flags": ["--codex"]}}),
                true,
            ),
            (
                json!({"id": "ext-s", "role": "reviewer", "reviewer": {"reviewsSection": "Qwen"}}),
                true,
            ),
            (feature("gsd-t", &json!({})), true),
            (
                feature("ext-u", &json!({"steps": [step.clone(), step]})),
                true,
            ),
        ]
    }

    #[test]
    fn clean_is_only_said_of_newcomers_the_full_rules_accept() {
        let admission = Admission::of(&Registry::first_party().members());
        let cases = cases();
        for (cap, rejected) in &cases {
            let id = cap["id"].as_str().unwrap_or("");
            assert_eq!(
                full_rules(cap) > 0,
                *rejected,
                "{id}: the case is mislabelled"
            );
            assert_eq!(admission.clean(id, cap), !*rejected, "{id}");
        }
    }

    #[test]
    fn newcomers_with_hooks_or_known_ids_always_take_the_full_rules() {
        let admission = Admission::of(&Registry::first_party().members());
        let step = json!({"point": "plan:pre", "produces": ["Fresh.md"]});
        assert_eq!(
            full_rules(&feature("ext-v", &json!({"steps": [step.clone()]}))),
            0
        );
        assert!(!admission.clean("ext-v", &feature("ext-v", &json!({"steps": [step]}))));
        assert!(!admission.clean("graphify", &feature("graphify", &json!({}))));
        assert!(!admission.clean("__proto__", &feature("__proto__", &json!({}))));
    }

    #[test]
    fn a_base_with_set_wide_errors_is_never_trusted() {
        let a = feature("a", &json!({"skills": ["x"]}));
        let b = feature("b", &json!({"skills": ["x"]}));
        let members = [
            Member {
                id: "a",
                manifest: &a,
                third_party: false,
            },
            Member {
                id: "b",
                manifest: &b,
                third_party: false,
            },
        ];
        let admission = Admission::of(&members);
        assert!(!admission.clean("c", &feature("c", &json!({}))));
    }

    #[test]
    fn claims_recorded_by_add_block_later_newcomers() {
        let mut admission = Admission::of(&Registry::first_party().members());
        let first = feature("ext-1", &json!({"skills": ["s"], "config": {"k": {}}}));
        assert!(admission.clean("ext-1", &first));
        admission.add("ext-1", &first);
        assert!(admission.indexed("skills", "s"));
        assert!(admission.indexed("config", "k"));
        assert!(!admission.clean("ext-2", &feature("ext-2", &json!({"skills": ["s"]}))));
        assert!(!admission.clean("ext-1", &feature("ext-1", &json!({}))));
        assert!(admission.clean("ext-3", &feature("ext-3", &json!({"requires": ["ext-1"]}))));
    }
}

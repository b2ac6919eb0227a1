//! Derived views of a registry, equal to the peer's compiled `capability-registry.cjs`.
//!
//! An [`Index`] is computed once per [`Registry`](crate::Registry) value (on first use)
//! from the capabilities in map order. Every view keeps the peer's key order, so
//! [`Registry::to_peer_json`](crate::Registry::to_peer_json) can emit the peer module's object shape byte for byte; lookups
//! by key go through the typed accessors.

mod order;

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::cross::Member;
use crate::diagnostic::{Diagnostic, Severity};
use crate::doc::JsonRef;
use crate::vocab::{LoopPoint, PROFILE_RANK, RESERVED_NAMES, Role, Tier};

use order::{HookAt, topo_sort};
pub use order::{js_sort_compare, locale_compare};

/// A step, contribution or gate placed at a loop point, with its owning capability (what
/// [`Index::hooks_at`] lists; [`crate::HookEntry`] is the produces/consumes view that
/// [`crate::order_hook_entries`] orders).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedHook {
    /// The capability that declares the hook.
    pub cap_id: String,
    /// The hook object as declared (fragments materialized).
    pub hook: Value,
}

/// Hooks registered at one loop point, in execution order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PointHooks {
    /// Steps, topologically ordered by produces/consumes.
    pub steps: Vec<PlacedHook>,
    /// Contributions, topologically ordered by produces/consumes.
    pub contributions: Vec<PlacedHook>,
    /// Gates, ordered by capability id.
    pub gates: Vec<PlacedHook>,
}

/// One `configSchema` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigSchemaEntry {
    /// Owning capability.
    pub owner: String,
    /// Slice type (`boolean`, `string`, `number`, `enum`).
    pub value_type: Value,
    /// Default value, when declared.
    pub default: Option<Value>,
    /// Human description.
    pub description: Option<Value>,
    /// Allowed values of an `enum` slice.
    pub values: Option<Value>,
}

/// One `commandFamilies` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFamily {
    /// Owning capability.
    pub cap_id: String,
    /// Module name.
    pub module: String,
    /// Router name.
    pub router: String,
}

/// One `profileMembership` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileMembership {
    /// The capability's tier.
    pub tier: Tier,
    /// Profiles that include it: the suffix of `core, standard, full` from its tier.
    pub profiles: Vec<&'static str>,
}

/// The derived views of one registry value.
#[derive(Debug, Clone, Default)]
pub struct Index {
    by_skill: Keyed<String>,
    by_agent: Keyed<String>,
    by_loop_point: Vec<(LoopPoint, PointHooks)>,
    config_keys: Keyed<String>,
    config_schema: Keyed<ConfigSchemaEntry>,
    runtimes: Vec<String>,
    command_families: Keyed<CommandFamily>,
    capability_clusters: Vec<(String, Vec<String>)>,
    profile_membership: Vec<(String, ProfileMembership)>,
    requires: HashMap<String, Vec<String>>,
}

/// An ordered map with JavaScript object assignment: a new key is appended, an existing
/// key keeps its place and takes the new value. Lookups are by hash.
#[derive(Debug, Clone)]
struct Keyed<T> {
    items: Vec<(String, T)>,
    at: HashMap<String, usize>,
}

impl<T> Default for Keyed<T> {
    fn default() -> Self {
        Keyed {
            items: Vec::new(),
            at: HashMap::new(),
        }
    }
}

impl<T> Keyed<T> {
    fn assign(&mut self, key: &str, value: T) {
        if let Some(slot) = self.at.get(key).and_then(|i| self.items.get_mut(*i)) {
            slot.1 = value;
        } else {
            self.at.insert(key.to_owned(), self.items.len());
            self.items.push((key.to_owned(), value));
        }
    }

    fn get(&self, key: &str) -> Option<&T> {
        self.at
            .get(key)
            .and_then(|i| self.items.get(*i))
            .map(|(_, v)| v)
    }

    /// Sorts keys as JavaScript's default `sort` does.
    fn sort_js(&mut self) {
        self.items.sort_by(|a, b| js_sort_compare(&a.0, &b.0));
        self.at = self
            .items
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.clone(), i))
            .collect();
    }
}

impl<T> std::ops::Deref for Keyed<T> {
    type Target = [(String, T)];

    fn deref(&self) -> &Self::Target {
        &self.items
    }
}

fn reserved(name: &str) -> bool {
    RESERVED_NAMES.contains(&name)
}

impl Index {
    /// Builds every view from the merged set in map order. Produces/consumes cycles
    /// (which cross-validation rejects before a capability is accepted) keep input
    /// order and are reported as diagnostics.
    pub(crate) fn build(members: &[Member<'_>]) -> (Index, Vec<Diagnostic>) {
        let mut index = Index::default();
        let mut problems = Vec::new();
        let mut at_point: Vec<[Vec<HookAt<'_>>; 3]> =
            LoopPoint::ALL.iter().map(|_| Default::default()).collect();
        for m in members.iter().filter(|m| !reserved(m.id)) {
            let cap = m.manifest;
            index.requires.insert(
                m.id.to_owned(),
                crate::cross::strings(cap, "requires")
                    .map(str::to_owned)
                    .collect(),
            );
            index.config(m);
            let role = cap
                .field("role")
                .and_then(JsonRef::as_str)
                .and_then(Role::parse);
            match role {
                Some(Role::Feature) => {
                    for skill in crate::cross::strings(cap, "skills").filter(|s| !reserved(s)) {
                        index.by_skill.assign(skill, m.id.to_owned());
                    }
                    for agent in crate::cross::strings(cap, "agents").filter(|s| !reserved(s)) {
                        index.by_agent.assign(agent, m.id.to_owned());
                    }
                    for (slot, group) in ["steps", "contributions", "gates"].into_iter().enumerate()
                    {
                        for hook in cap
                            .field(group)
                            .and_then(JsonRef::as_array)
                            .into_iter()
                            .flatten()
                        {
                            let point = hook
                                .field("point")
                                .and_then(JsonRef::as_str)
                                .and_then(LoopPoint::parse);
                            if let Some(point) = point {
                                at_point[point.index()][slot].push(HookAt { cap_id: m.id, hook });
                            }
                        }
                    }
                    index.families(m);
                }
                Some(Role::Runtime) => index.runtimes.push(m.id.to_owned()),
                _ => {}
            }
            index.cluster(m);
        }
        for (point, [steps, contributions, gates]) in LoopPoint::ALL.iter().zip(at_point) {
            let mut hooks = PointHooks::default();
            for (kind, list, out) in [
                ("steps", steps, &mut hooks.steps),
                ("contributions", contributions, &mut hooks.contributions),
            ] {
                let ordered = topo_sort(&list).unwrap_or_else(|ids| {
                    problems.push(hook_cycle(kind, *point, &ids));
                    list.clone()
                });
                out.extend(ordered.into_iter().map(|h| PlacedHook {
                    cap_id: h.cap_id.to_owned(),
                    hook: h.hook.to_value(),
                }));
            }
            let mut gates = gates;
            gates.sort_by(|a, b| locale_compare(a.cap_id, b.cap_id));
            hooks.gates = gates
                .into_iter()
                .map(|h| PlacedHook {
                    cap_id: h.cap_id.to_owned(),
                    hook: h.hook.to_value(),
                })
                .collect();
            index.by_loop_point.push((*point, hooks));
        }
        index.command_families.sort_js();
        index
            .capability_clusters
            .sort_by(|a, b| js_sort_compare(&a.0, &b.0));
        index
            .profile_membership
            .sort_by(|a, b| js_sort_compare(&a.0, &b.0));
        (index, problems)
    }

    fn config(&mut self, m: &Member<'_>) {
        let Some(config) = m.manifest.field("config").and_then(JsonRef::as_object) else {
            return;
        };
        for (key, slice) in config.iter().filter(|(k, _)| !reserved(k)) {
            self.config_keys.assign(key, m.id.to_owned());
            let value_type = slice.field("type").map_or(Value::Null, JsonRef::to_value);
            let values = match slice.field("values") {
                Some(v) if v.is_array() && value_type == "enum" => Some(v.to_value()),
                _ => None,
            };
            let entry = ConfigSchemaEntry {
                owner: m.id.to_owned(),
                value_type,
                default: slice.field("default").map(JsonRef::to_value),
                description: slice.field("description").map(JsonRef::to_value),
                values,
            };
            self.config_schema.assign(key, entry);
        }
    }

    fn families(&mut self, m: &Member<'_>) {
        for cmd in m
            .manifest
            .field("commands")
            .and_then(JsonRef::as_array)
            .into_iter()
            .flatten()
        {
            let text = |k: &str| {
                cmd.field(k)
                    .and_then(JsonRef::as_str)
                    .filter(|s| !s.is_empty())
            };
            let (Some(family), Some(module), Some(router)) =
                (text("family"), text("module"), text("router"))
            else {
                continue;
            };
            if reserved(family) {
                continue;
            }
            let entry = CommandFamily {
                cap_id: m.id.to_owned(),
                module: module.to_owned(),
                router: router.to_owned(),
            };
            self.command_families.assign(family, entry);
        }
    }

    fn cluster(&mut self, m: &Member<'_>) {
        let Some(skills) = m
            .manifest
            .field("skills")
            .and_then(JsonRef::as_array)
            .filter(|s| s.len() > 0)
        else {
            return;
        };
        let mut stems: Vec<String> = skills
            .filter_map(JsonRef::as_str)
            .map(str::to_owned)
            .collect();
        stems.sort_by(|a, b| js_sort_compare(a, b));
        self.capability_clusters.push((m.id.to_owned(), stems));
        let tier = m
            .manifest
            .field("tier")
            .and_then(JsonRef::as_str)
            .and_then(Tier::parse);
        if let Some(tier) = tier {
            let start = PROFILE_RANK
                .iter()
                .position(|p| *p == tier.as_str())
                .unwrap_or(PROFILE_RANK.len());
            let profiles = PROFILE_RANK[start..].to_vec();
            self.profile_membership
                .push((m.id.to_owned(), ProfileMembership { tier, profiles }));
        }
    }

    /// `bySkill`: skill stem → owning feature capability, in the peer's order.
    #[must_use]
    pub fn by_skill(&self) -> &[(String, String)] {
        &self.by_skill
    }

    /// The feature capability owning a skill stem.
    #[must_use]
    pub fn skill_owner(&self, stem: &str) -> Option<&str> {
        self.by_skill.get(stem).map(String::as_str)
    }

    /// `byAgent`: agent name → owning feature capability.
    #[must_use]
    pub fn by_agent(&self) -> &[(String, String)] {
        &self.by_agent
    }

    /// The feature capability owning an agent.
    #[must_use]
    pub fn agent_owner(&self, agent: &str) -> Option<&str> {
        self.by_agent.get(agent).map(String::as_str)
    }

    /// `byLoopPoint`: every loop point in loop order with its ordered hooks.
    #[must_use]
    pub fn by_loop_point(&self) -> &[(LoopPoint, PointHooks)] {
        &self.by_loop_point
    }

    /// The hooks at one loop point.
    #[must_use]
    pub fn hooks_at(&self, point: LoopPoint) -> &PointHooks {
        static NONE: PointHooks = PointHooks {
            steps: Vec::new(),
            contributions: Vec::new(),
            gates: Vec::new(),
        };
        self.by_loop_point
            .iter()
            .find(|(p, _)| *p == point)
            .map_or(&NONE, |(_, hooks)| hooks)
    }

    /// `configKeys`: dotted config key → owning capability.
    #[must_use]
    pub fn config_keys(&self) -> &[(String, String)] {
        &self.config_keys
    }

    /// `configSchema`: dotted config key → schema entry.
    #[must_use]
    pub fn config_schema(&self) -> &[(String, ConfigSchemaEntry)] {
        &self.config_schema
    }

    /// The schema entry of one config key.
    #[must_use]
    pub fn config_entry(&self, key: &str) -> Option<&ConfigSchemaEntry> {
        self.config_schema.get(key)
    }

    /// Runtime capability ids, in map order.
    #[must_use]
    pub fn runtime_ids(&self) -> &[String] {
        &self.runtimes
    }

    /// `commandFamilies`, sorted by family.
    #[must_use]
    pub fn command_families(&self) -> &[(String, CommandFamily)] {
        &self.command_families
    }

    /// `capabilityClusters`: capabilities with skills → sorted skill stems, by id.
    #[must_use]
    pub fn capability_clusters(&self) -> &[(String, Vec<String>)] {
        &self.capability_clusters
    }

    /// `profileMembership`, by capability id.
    #[must_use]
    pub fn profile_membership(&self) -> &[(String, ProfileMembership)] {
        &self.profile_membership
    }

    /// `requiresClosure(id)`: every id reachable through `requires`, breadth first, in
    /// discovery order. The start id appears only when a cycle leads back to it; an
    /// unknown id has an empty closure.
    #[must_use]
    pub fn requires_closure(&self, id: &str) -> Vec<String> {
        // `order` is the answer and the queue at once: ids are visited in the order found.
        let mut found = std::collections::HashSet::new();
        let mut order: Vec<&str> = Vec::new();
        let mut next = 0;
        let mut current = id;
        loop {
            for req in self.requires.get(current).into_iter().flatten() {
                if found.insert(req.as_str()) {
                    order.push(req);
                }
            }
            let Some(&id) = order.get(next) else { break };
            current = id;
            next += 1;
        }
        order.into_iter().map(str::to_owned).collect()
    }

    /// The views as the peer module's JSON (without `version`, `capabilities`, `runtimes`).
    pub(crate) fn views_json(&self) -> Vec<(&'static str, Value)> {
        let pairs = |list: &[(String, String)]| -> Value {
            Value::Object(
                list.iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect(),
            )
        };
        let entry = |e: &PlacedHook| -> Value {
            let mut obj = Map::new();
            obj.insert("capId".into(), Value::String(e.cap_id.clone()));
            if let Value::Object(hook) = &e.hook {
                for (k, v) in hook {
                    obj.insert(k.clone(), v.clone());
                }
            }
            Value::Object(obj)
        };
        let loop_points: Map<String, Value> = self
            .by_loop_point
            .iter()
            .map(|(p, h)| {
                let list = |l: &[PlacedHook]| Value::Array(l.iter().map(entry).collect());
                let body = json!({"steps": list(&h.steps), "contributions": list(&h.contributions), "gates": list(&h.gates)});
                (p.as_str().to_owned(), body)
            })
            .collect();
        let schema: Map<String, Value> = self
            .config_schema
            .iter()
            .map(|(k, e)| {
                let mut obj = Map::new();
                obj.insert("owner".into(), Value::String(e.owner.clone()));
                obj.insert("type".into(), e.value_type.clone());
                if let Some(d) = &e.default {
                    obj.insert("default".into(), d.clone());
                }
                if let Some(d) = &e.description {
                    obj.insert("description".into(), d.clone());
                }
                if let Some(v) = &e.values {
                    obj.insert("values".into(), v.clone());
                }
                (k.clone(), Value::Object(obj))
            })
            .collect();
        let families: Map<String, Value> = self
            .command_families
            .iter()
            .map(|(k, f)| {
                (
                    k.clone(),
                    json!({"capId": f.cap_id, "module": f.module, "router": f.router}),
                )
            })
            .collect();
        let clusters: Map<String, Value> = self
            .capability_clusters
            .iter()
            .map(|(k, s)| (k.clone(), json!(s)))
            .collect();
        let membership: Map<String, Value> = self
            .profile_membership
            .iter()
            .map(|(k, m)| {
                (
                    k.clone(),
                    json!({"tier": m.tier.as_str(), "profiles": m.profiles}),
                )
            })
            .collect();
        vec![
            ("bySkill", pairs(&self.by_skill)),
            ("byAgent", pairs(&self.by_agent)),
            ("byLoopPoint", Value::Object(loop_points)),
            ("configKeys", pairs(&self.config_keys)),
            ("configSchema", Value::Object(schema)),
            ("commandFamilies", Value::Object(families)),
            ("capabilityClusters", Value::Object(clusters)),
            ("profileMembership", Value::Object(membership)),
        ]
    }
}

/// The peer's produces/consumes cycle message for one loop point.
pub(crate) fn hook_cycle(kind: &str, point: LoopPoint, ids: &[&str]) -> Diagnostic {
    let message = format!(
        "produces/consumes cycle detected in {kind} at point \"{point}\" among capabilities [{}]: a cycle in hook produces/consumes prevents deterministic ordering",
        ids.join(", ")
    );
    let mut diag = Diagnostic::new("hook_order_cycle", Severity::Error, message).with_field(kind);
    if let Some(first) = ids.first() {
        diag = diag.with_capability(*first);
    }
    diag
}

/// Checks that every loop point of the merged set can be ordered (no produces/consumes
/// cycle among its steps or contributions).
#[must_use]
pub fn validate_hook_order(members: &[Member<'_>]) -> Vec<Diagnostic> {
    Index::build(members).1
}

/// Orders the hooks of one kind (`steps` or `contributions`) at one loop point as the
/// peer's builder does; returns the capability ids in order, or the cycle diagnostic.
pub fn order_hooks<'a>(
    kind: &str,
    point: LoopPoint,
    hooks: &[(&'a str, JsonRef<'a>)],
) -> Result<Vec<&'a str>, Box<Diagnostic>> {
    let entries: Vec<HookAt<'a>> = hooks
        .iter()
        .map(|&(cap_id, hook)| HookAt { cap_id, hook })
        .collect();
    topo_sort(&entries)
        .map(|sorted| sorted.iter().map(|h| h.cap_id).collect())
        .map_err(|ids| Box::new(hook_cycle(kind, point, &ids)))
}

#[cfg(test)]
mod tests {
    use crate::Registry;
    use crate::vocab::LoopPoint;

    #[test]
    fn first_party_index_sizes_match_the_spec() {
        // peer-spec §1: 10 skills, 15 agents, 88 config keys, 14 families, 8 clusters.
        let index = Registry::first_party().index();
        assert_eq!(index.by_skill().len(), 10);
        assert_eq!(index.by_agent().len(), 15);
        assert_eq!(index.config_keys().len(), 88);
        assert_eq!(index.config_schema().len(), 88);
        assert_eq!(index.command_families().len(), 14);
        assert_eq!(index.capability_clusters().len(), 8);
        assert_eq!(index.by_loop_point().len(), 12);
        assert_eq!(index.runtime_ids().len(), 19);
        assert!(
            index
                .profile_membership()
                .iter()
                .all(|(_, m)| m.profiles == ["full"])
        );
    }

    #[test]
    fn lookups_find_owners_and_loop_points() {
        let index = Registry::first_party().index();
        assert_eq!(index.agent_owner("gsd-phase-researcher"), Some("research"));
        assert_eq!(index.skill_owner("graphify"), Some("graphify"));
        assert_eq!(
            index
                .config_entry("workflow.research")
                .map(|e| e.owner.as_str()),
            Some("research")
        );
        let plan_pre = index.hooks_at(LoopPoint::PlanPre);
        assert!(plan_pre.steps.iter().any(|s| s.cap_id == "research"));
    }
}

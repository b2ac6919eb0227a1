//! The trigger surface: which `/gsd-<name>` triggers a runtime exposes at which scopes, and
//! which candidate wins when several artifacts answer to the same trigger.
//!
//! Winner per trigger: higher scope rank first (global beats local), then the runtime's
//! `triggerPrecedence` kind order; ties keep the first-emitted candidate. Every loser names
//! its winner in `shadowed_by`. Pure: stems are taken as given.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::layout::is_namespaced_by_dir;
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::scope::{SCOPE_ORDER, lookup_runtime};
use crate::vocab::{Nesting, Scope, TriggerKind};

/// The source inventory the trigger surface is computed over.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TriggerInput {
    /// Command stems (file names under `commands/gsd/` without `.md`), in caller order.
    #[serde(default)]
    pub stems: Vec<String>,
    /// Stems that are routers (`ns-*`).
    #[serde(default)]
    pub router_stems: Vec<String>,
    /// For each routed child stem, the routers that own it (first owner first).
    #[serde(default)]
    pub child_to_routers: BTreeMap<String, Vec<String>>,
}

/// How the host reaches a trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Registration {
    /// Registered by the host directly.
    Direct,
    /// Reached only through a router skill.
    ViaRouter,
}

/// The winner that shadows a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShadowedBy {
    /// Winner's kind.
    pub kind: TriggerKind,
    /// Winner's scope.
    pub scope: Scope,
}

/// One trigger candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trigger {
    /// What the user types (without `/`): `prefix + stem`.
    pub trigger: String,
    /// The artifact kind bearing it.
    pub kind: TriggerKind,
    /// The scope it is installed at.
    pub scope: Scope,
    /// Destination relative to the config directory (`\` read as `/`); for `via-router`
    /// skills this is still the flat path, as the peer reports it.
    pub dest_path: String,
    /// Direct or via a router.
    pub registration: Registration,
    /// The router's trigger when `via-router`.
    pub router_trigger: Option<String>,
    /// The winner, when this candidate loses; `None` for winners.
    pub shadowed_by: Option<ShadowedBy>,
}

/// A list of stems as the plan reads it: a whole list borrowed as it was given (no copy),
/// or stems picked from one (a profile's selection, duplicates dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stems<'a> {
    /// Every stem of a list, in its order.
    All(&'a [String]),
    /// Stems picked from a list, in its order.
    Picked(Vec<&'a str>),
}

impl<'a> Stems<'a> {
    /// The number of stems.
    pub(crate) fn len(&self) -> usize {
        match self {
            Stems::All(list) => list.len(),
            Stems::Picked(list) => list.len(),
        }
    }

    /// The stems, in order.
    pub(crate) fn iter(&self) -> StemIter<'_, 'a> {
        match self {
            Stems::All(list) => StemIter::All(list.iter()),
            Stems::Picked(list) => StemIter::Picked(list.iter()),
        }
    }

    /// Whether some stem is listed twice ([`has_duplicates`]).
    pub(crate) fn has_duplicates(&self) -> bool {
        match self {
            Stems::All(list) => has_duplicates(list),
            Stems::Picked(list) => has_duplicates(list),
        }
    }
}

impl<'s, 'a> IntoIterator for &'s Stems<'a> {
    type Item = &'a str;
    type IntoIter = StemIter<'s, 'a>;

    fn into_iter(self) -> StemIter<'s, 'a> {
        self.iter()
    }
}

/// The iterator of [`Stems::iter`].
pub(crate) enum StemIter<'s, 'a> {
    All(std::slice::Iter<'a, String>),
    Picked(std::slice::Iter<'s, &'a str>),
}

impl<'a> Iterator for StemIter<'_, 'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            StemIter::All(iter) => iter.next().map(String::as_str),
            StemIter::Picked(iter) => iter.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            StemIter::All(iter) => iter.size_hint(),
            StemIter::Picked(iter) => iter.size_hint(),
        }
    }
}

fn via_router<'a>(
    stem: &str,
    child_to_routers: &'a BTreeMap<String, Vec<String>>,
    routers: &BTreeSet<&str>,
) -> Option<&'a str> {
    if routers.is_empty() || routers.contains(stem) {
        return None;
    }
    let first = child_to_routers.get(stem)?.first()?;
    routers.contains(first.as_str()).then_some(first.as_str())
}

fn precedence_index(precedence: &[TriggerKind], kind: TriggerKind) -> usize {
    precedence
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(usize::MAX)
}

/// Resolves the trigger surface of `runtime` at `scopes` (order and duplicates of `scopes`
/// do not matter: candidates follow [`SCOPE_ORDER`], then layout entries, then stems).
///
/// # Errors
/// [`crate::ErrorCode::UnknownRuntime`].
pub fn resolve_trigger_surface(
    registry: &Registry,
    runtime: &str,
    scopes: &[Scope],
    input: &TriggerInput,
) -> Result<Vec<Trigger>, Error> {
    let descriptor = lookup_runtime(registry, runtime)?;
    Ok(surface_of(
        descriptor,
        scopes,
        &Stems::All(&input.stems),
        (&input.router_stems, &input.child_to_routers),
        false,
    ))
}

/// [`resolve_trigger_surface`] of a known runtime over borrowed inputs (the plan passes its
/// selected stems without copying them into a [`TriggerInput`]). `distinct`: the caller
/// already knows no stem is listed twice.
pub(crate) fn surface_of(
    descriptor: &RuntimeDescriptor,
    scopes: &[Scope],
    stems: &Stems<'_>,
    routers: (&[String], &BTreeMap<String, Vec<String>>),
    distinct: bool,
) -> Vec<Trigger> {
    let (router_stems, child_to_routers) = routers;
    let routers: BTreeSet<&str> = router_stems.iter().map(String::as_str).collect();
    let entries: usize = SCOPE_ORDER
        .iter()
        .filter(|s| scopes.contains(s))
        .map(|s| descriptor.artifact_layout.entries(*s).len())
        .sum();
    let mut surfaces = Vec::with_capacity(entries * stems.len());
    for scope in SCOPE_ORDER.iter().filter(|s| scopes.contains(s)) {
        for entry in descriptor.artifact_layout.entries(*scope) {
            let Some(kind) = TriggerKind::of(entry.kind) else {
                continue;
            };
            let dest = path::to_posix(&entry.dest_subpath);
            let namespaced = is_namespaced_by_dir(entry.kind, &entry.dest_subpath, &entry.prefix);
            let prefix = entry.prefix.as_str();
            // `compose_command_filename`, as parts.
            let file_prefix = if namespaced { "" } else { prefix };
            for stem in stems {
                let dest_path = match kind {
                    TriggerKind::Skills => path::concat(&[&dest, "/", prefix, stem]),
                    TriggerKind::Commands => path::concat(&[&dest, "/", file_prefix, stem, ".md"]),
                };
                let router = (entry.nesting == Nesting::Nested)
                    .then(|| via_router(stem, child_to_routers, &routers))
                    .flatten();
                surfaces.push(Trigger {
                    trigger: path::concat(&[prefix, stem]),
                    kind,
                    scope: *scope,
                    dest_path,
                    registration: if router.is_some() {
                        Registration::ViaRouter
                    } else {
                        Registration::Direct
                    },
                    router_trigger: router.map(|r| path::concat(&[prefix, r])),
                    shadowed_by: None,
                });
            }
        }
    }
    if per_stem_rule(descriptor, scopes, stems, distinct).1 {
        assign_aligned_winners(&mut surfaces, stems.len(), &descriptor.trigger_precedence);
    } else {
        assign_winners(&mut surfaces, &descriptor.trigger_precedence);
    }
    surfaces
}

/// The number of candidates and of shadowed candidates [`surface_of`] returns for the same
/// arguments, without building them when its per-stem rule applies: every trigger-bearing
/// entry emits one candidate per stem, and with one prefix and distinct stems each stem's
/// candidates (one per entry) have one winner, so every entry but one loses per stem.
pub(crate) fn surface_counts(
    descriptor: &RuntimeDescriptor,
    scopes: &[Scope],
    stems: &Stems<'_>,
    routers: (&[String], &BTreeMap<String, Vec<String>>),
    distinct: bool,
) -> (usize, usize) {
    let (bearing, per_stem) = per_stem_rule(descriptor, scopes, stems, distinct);
    if per_stem {
        return (
            bearing * stems.len(),
            bearing.saturating_sub(1) * stems.len(),
        );
    }
    let surface = surface_of(descriptor, scopes, stems, routers, distinct);
    let shadowed = surface.iter().filter(|t| t.shadowed_by.is_some()).count();
    (surface.len(), shadowed)
}

/// The number of trigger-bearing entries at `scopes`, and whether winners can be settled
/// per stem ([`assign_aligned_winners`]): every such entry has the same prefix and no stem
/// is listed twice, so two candidates share a trigger exactly when they share a stem.
fn per_stem_rule(
    descriptor: &RuntimeDescriptor,
    scopes: &[Scope],
    stems: &Stems<'_>,
    distinct: bool,
) -> (usize, bool) {
    let mut bearing = SCOPE_ORDER
        .iter()
        .filter(|s| scopes.contains(s))
        .flat_map(|s| descriptor.artifact_layout.entries(*s))
        .filter(|e| TriggerKind::of(e.kind).is_some())
        .map(|e| e.prefix.as_str());
    let Some(first) = bearing.next() else {
        return (0, true);
    };
    let mut count = 1;
    let mut one_prefix = true;
    for prefix in bearing {
        count += 1;
        one_prefix &= prefix == first;
    }
    (count, one_prefix && (distinct || !stems.has_duplicates()))
}

/// Whether `stems` lists some stem twice (a sort of the borrowed list, no hashing).
pub(crate) fn has_duplicates<S: AsRef<str>>(stems: &[S]) -> bool {
    // Inventories are usually listed in order: strictly increasing means no duplicates.
    if stems.windows(2).all(|w| w[0].as_ref() < w[1].as_ref()) {
        return false;
    }
    let mut sorted: Vec<&str> = stems.iter().map(AsRef::as_ref).collect();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

/// Whether candidate `a` beats the current winner `b` (strictly: ties keep `b`).
fn beats(a: &Trigger, b: &Trigger, precedence: &[TriggerKind]) -> bool {
    if a.scope.rank() == b.scope.rank() {
        precedence_index(precedence, a.kind) < precedence_index(precedence, b.kind)
    } else {
        a.scope.rank() > b.scope.rank()
    }
}

/// [`assign_winners`] when every trigger-bearing entry has the same prefix and the stems
/// are distinct: then two candidates share a trigger exactly when they share a stem, so
/// stem `i`'s candidates are `i`, `n + i`, `2n + i`, ... (one per entry, in emission
/// order) and each group is settled in place, without a map of triggers.
fn assign_aligned_winners(surfaces: &mut [Trigger], n: usize, precedence: &[TriggerKind]) {
    // No trigger-bearing entry: no candidates at all.
    for i in 0..n.min(surfaces.len()) {
        let mut winner = i;
        for candidate in (i + n..surfaces.len()).step_by(n) {
            if beats(&surfaces[candidate], &surfaces[winner], precedence) {
                winner = candidate;
            }
        }
        let by = ShadowedBy {
            kind: surfaces[winner].kind,
            scope: surfaces[winner].scope,
        };
        for candidate in (i..surfaces.len()).step_by(n) {
            if candidate != winner {
                surfaces[candidate].shadowed_by = Some(by);
            }
        }
    }
}

/// Marks every loser with its trigger's winner. One pass finds each trigger's winner (the
/// first candidate, replaced only by a strictly better later one); a second pass marks the
/// rest, so no per-trigger list is built.
fn assign_winners(surfaces: &mut [Trigger], precedence: &[TriggerKind]) {
    let mut winners: HashMap<&str, usize> = HashMap::with_capacity(surfaces.len());
    for (candidate, surface) in surfaces.iter().enumerate() {
        let winner = winners.entry(surface.trigger.as_str()).or_insert(candidate);
        if beats(surface, &surfaces[*winner], precedence) {
            *winner = candidate;
        }
    }
    let marks: Vec<(usize, ShadowedBy)> = surfaces
        .iter()
        .enumerate()
        .filter_map(|(index, surface)| {
            let winner = *winners.get(surface.trigger.as_str())?;
            (winner != index).then(|| {
                let w = &surfaces[winner];
                (
                    index,
                    ShadowedBy {
                        kind: w.kind,
                        scope: w.scope,
                    },
                )
            })
        })
        .collect();
    for (index, by) in marks {
        surfaces[index].shadowed_by = Some(by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(list: &[&str]) -> TriggerInput {
        TriggerInput {
            stems: list.iter().map(|s| (*s).to_owned()).collect(),
            ..TriggerInput::default()
        }
    }

    #[test]
    fn claude_global_skill_shadows_local_command() {
        let reg = Registry::first_party();
        let surface = resolve_trigger_surface(
            reg,
            "claude",
            &[Scope::Local, Scope::Global],
            &stems(&["help"]),
        )
        .expect("surface");
        assert_eq!(surface.len(), 2);
        assert_eq!(
            (surface[0].scope, surface[0].kind),
            (Scope::Global, TriggerKind::Skills)
        );
        assert_eq!(surface[0].dest_path, "skills/gsd-help");
        assert_eq!(surface[0].shadowed_by, None);
        assert_eq!(surface[1].dest_path, "commands/gsd-help.md");
        assert_eq!(
            surface[1].shadowed_by,
            Some(ShadowedBy {
                kind: TriggerKind::Skills,
                scope: Scope::Global
            })
        );
    }

    #[test]
    fn aligned_winners_equal_the_general_rule() {
        let reg = Registry::first_party();
        let input = stems(&["help", "plan", "ns-x", "update"]);
        for runtime in reg.runtime_ids() {
            let descriptor = reg.runtime(runtime).expect("runtime");
            for scopes in [&[Scope::Global, Scope::Local][..], &[Scope::Local]] {
                let fast = surface_of(
                    descriptor,
                    scopes,
                    &Stems::All(&input.stems),
                    (&[], &BTreeMap::new()),
                    true,
                );
                let mut slow = fast.clone();
                for t in &mut slow {
                    t.shadowed_by = None;
                }
                assign_winners(&mut slow, &descriptor.trigger_precedence);
                assert_eq!(fast, slow, "{runtime}");
            }
        }
    }

    /// The counts equal the lengths of the surface they stand for, on the per-stem rule and
    /// on the general one (repeated stems; a runtime whose entries carry different prefixes).
    #[test]
    fn surface_counts_are_the_surface_lengths() {
        let reg = Registry::first_party();
        let routers = (
            vec!["ns-a".to_owned()],
            BTreeMap::from([("plan".to_owned(), vec!["ns-a".to_owned()])]),
        );
        let mut descriptors: Vec<RuntimeDescriptor> = reg
            .runtime_ids()
            .filter_map(|id| reg.runtime(id).cloned())
            .collect();
        let mut mixed = reg.runtime("claude").cloned().expect("claude");
        for entry in &mut mixed.artifact_layout.global {
            if entry.kind == crate::vocab::ArtifactKindName::Commands {
                // `gs` + `d-help` is the skills' `gsd-` + `help`: two stems share a trigger.
                entry.prefix = "gs".into();
            }
        }
        descriptors.push(mixed);
        let stem_sets: [&[&str]; 4] = [
            &[],
            &["help", "plan", "ns-a"],
            &["help", "help", "plan"],
            &["d-help", "help", "gsd-x"],
        ];
        let mut general = 0;
        for descriptor in &descriptors {
            for scopes in [
                &[Scope::Global, Scope::Local][..],
                &[Scope::Local],
                &[Scope::Global],
            ] {
                for stems in stem_sets {
                    for distinct in [false, true] {
                        if distinct && has_duplicates(stems) {
                            continue;
                        }
                        let routers = (routers.0.as_slice(), &routers.1);
                        let stems = &Stems::Picked(stems.to_vec());
                        let surface = surface_of(descriptor, scopes, stems, routers, distinct);
                        let shadowed = surface.iter().filter(|t| t.shadowed_by.is_some()).count();
                        assert_eq!(
                            surface_counts(descriptor, scopes, stems, routers, distinct),
                            (surface.len(), shadowed),
                            "{scopes:?} {stems:?}"
                        );
                        general +=
                            usize::from(!per_stem_rule(descriptor, scopes, stems, distinct).1);
                    }
                }
            }
        }
        assert!(general > 0, "the general rule is exercised");
    }

    #[test]
    fn duplicate_stems_take_the_general_rule() {
        let reg = Registry::first_party();
        let surface = resolve_trigger_surface(
            reg,
            "claude",
            &[Scope::Global, Scope::Local],
            &stems(&["help", "help"]),
        )
        .expect("surface");
        let winners = surface.iter().filter(|t| t.shadowed_by.is_none()).count();
        assert_eq!(
            winners, 1,
            "one winner per trigger, even for a repeated stem"
        );
    }

    #[test]
    fn nested_children_register_via_their_first_router() {
        let reg = Registry::first_party();
        let mut input = stems(&["ns-a", "child", "loose"]);
        input.router_stems = vec!["ns-a".into(), "ns-b".into()];
        input
            .child_to_routers
            .insert("child".into(), vec!["ns-b".into(), "ns-a".into()]);
        let surface =
            resolve_trigger_surface(reg, "cline", &[Scope::Global], &input).expect("surface");
        assert_eq!(surface[0].registration, Registration::Direct);
        assert_eq!(surface[1].registration, Registration::ViaRouter);
        assert_eq!(surface[1].router_trigger.as_deref(), Some("gsd-ns-b"));
        assert_eq!(surface[2].registration, Registration::Direct);
    }
}

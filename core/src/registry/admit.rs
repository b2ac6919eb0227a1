//! The order in which pending overlays join: the pass rule, without the passes.
//!
//! The rule (see `overlay`): try the pending overlays in sorted order, admitting each one
//! that joins cleanly, and repeat the pass until one admits nothing; the rest are
//! rejected with the reasons of that last pass. Run literally, a requires chain sorted
//! against its dependencies admits one overlay per pass, so n overlays cost n passes of
//! n checks.
//!
//! A check that failed can only succeed later once the set has changed in a way that
//! matters to it. Admitting members never removes a conflict, a cycle, a tier or
//! duplicate-producer error; it can only supply a missing id (`requires`, runtime
//! compatibility) or a producer of a consumed artifact. So a failed overlay waits for
//! those: it is checked again, at the place the passes would check it next, only when all
//! its missing ids have joined and, if it had a data-flow error, some member producing
//! one of its consumed artifacts joined. Every other check the passes would make fails
//! again, so the admissions, their order and the final reasons are the same, with each
//! overlay checked about once.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::cross::{Member, MergedSet, strings};
use crate::diagnostic::Diagnostic;
use crate::doc::JsonRef;

/// What a failed overlay waits for (valid while `generation` is its current one).
#[derive(Debug, Default)]
struct Wait {
    generation: u32,
    missing: usize,
    needs_producer: bool,
    produced: bool,
}

/// Artifacts consumed by any step or contribution of a manifest.
fn consumed(manifest: JsonRef<'_>) -> impl Iterator<Item = &str> {
    ["steps", "contributions"]
        .into_iter()
        .filter_map(move |group| manifest.field(group).and_then(JsonRef::as_array))
        .flatten()
        .flat_map(|hook| strings(hook, "consumes"))
}

/// Artifacts produced by any step or contribution of a manifest.
fn produced(manifest: JsonRef<'_>) -> impl Iterator<Item = &str> {
    ["steps", "contributions"]
        .into_iter()
        .filter_map(move |group| manifest.field(group).and_then(JsonRef::as_array))
        .flatten()
        .flat_map(|hook| strings(hook, "produces"))
}

/// A failed check: the problems, and the distinct ids whose absence causes some of them
/// ([`blockers`]); `None` when one of those ids is no pending overlay's, so that it can
/// never join.
pub(super) type Failure<'m> = (Vec<Diagnostic>, Option<HashSet<&'m str>>);

/// The distinct ids `m` misses ([`MergedSet::missing_ids`]) if all of them are ids of
/// pending overlays; `None` (stopping at the first) when one is not.
pub(super) fn blockers<'m>(
    merged: &MergedSet,
    m: &Member<'m>,
    pending: &HashSet<&str>,
) -> Option<HashSet<&'m str>> {
    let mut distinct = HashSet::new();
    for id in merged.missing_ids(m) {
        if !pending.contains(id) {
            return None;
        }
        distinct.insert(id);
    }
    Some(distinct)
}

/// The outcome of the pass rule.
pub(super) struct Admission {
    /// Admitted indexes, in admission order.
    pub order: Vec<usize>,
    /// Per index: the problems of its last check when nothing joined after it (so they
    /// are the problems against the final set); `None` for the admitted and for those
    /// the caller must check once more against the final set.
    pub last_problems: Vec<Option<Vec<Diagnostic>>>,
}

/// Runs the pass rule over `members` (sorted order). `check` tells whether one member
/// can join now; `join` admits it.
pub(super) fn admission_order<'m>(
    members: &[Member<'m>],
    check: &mut dyn FnMut(usize) -> Result<(), Failure<'m>>,
    join: &mut dyn FnMut(usize),
) -> Admission {
    let n = members.len();
    let mut admitted = Vec::new();
    let mut waits: Vec<Wait> = (0..n).map(|_| Wait::default()).collect();
    let mut by_id: HashMap<&str, Vec<(usize, u32)>> = HashMap::new();
    let mut by_artifact: HashMap<&str, Vec<(usize, u32)>> = HashMap::new();
    // (pass, index): the next place the passes would check an overlay.
    let mut queue: BTreeSet<(usize, usize)> = (0..n).map(|k| (0, k)).collect();
    let mut done = vec![false; n];
    // Per index: its last problems and how many had joined when they were found.
    let mut last: Vec<Option<(usize, Vec<Diagnostic>)>> = (0..n).map(|_| None).collect();
    while let Some((pass, k)) = queue.pop_first() {
        let (problems, missing) = match check(k) {
            Ok(()) => (Vec::new(), Some(HashSet::new())),
            Err(failure) => failure,
        };
        if problems.is_empty() {
            done[k] = true;
            join(k);
            admitted.push(k);
            let m = &members[k];
            let mut woken = Vec::new();
            for &(j, generation) in by_id.get(m.id).into_iter().flatten() {
                let w = &mut waits[j];
                if !done[j] && w.generation == generation && w.missing > 0 {
                    w.missing -= 1;
                    woken.push(j);
                }
            }
            for artifact in produced(m.manifest) {
                for &(j, generation) in by_artifact.get(artifact).into_iter().flatten() {
                    let w = &mut waits[j];
                    if !done[j] && w.generation == generation {
                        w.produced = true;
                        woken.push(j);
                    }
                }
            }
            for j in woken {
                let w = &mut waits[j];
                let ready = w.missing == 0 && (!w.needs_producer || w.produced);
                if ready && !done[j] {
                    w.generation += 1;
                    queue.insert((if j > k { pass } else { pass + 1 }, j));
                }
            }
            continue;
        }
        // Failed: wait for what could change the answer, or for nothing.
        let m = &members[k];
        let needs_producer = problems.iter().any(|d| d.code.starts_with("consumes_"));
        last[k] = Some((admitted.len(), problems));
        // An id that no pending overlay has never joins: this one stays rejected.
        let Some(missing) = missing else { continue };
        let w = &mut waits[k];
        w.generation += 1;
        w.missing = missing.len();
        w.needs_producer = needs_producer;
        w.produced = false;
        if missing.is_empty() && !needs_producer {
            continue;
        }
        for id in missing {
            by_id.entry(id).or_default().push((k, w.generation));
        }
        if needs_producer {
            for artifact in consumed(m.manifest) {
                by_artifact
                    .entry(artifact)
                    .or_default()
                    .push((k, w.generation));
            }
        }
    }
    let joined = admitted.len();
    let last_problems = last
        .into_iter()
        .zip(&done)
        .map(|(found, done)| match found {
            Some((at, problems)) if at == joined && !done => Some(problems),
            _ => None,
        })
        .collect();
    Admission {
        order: admitted,
        last_problems,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::overlay::by_passes;
    use crate::{Overlay, Registry};

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            usize::try_from(self.0 % n as u64).unwrap_or(0)
        }

        fn some<'a>(&mut self, pool: &[&'a str]) -> Vec<&'a str> {
            (0..self.below(3))
                .map(|_| pool[self.below(pool.len())])
                .collect()
        }
    }

    const IDS: &[&str] = &["acme-a", "acme-b", "acme-c", "acme-d", "acme-e", "acme-f"];
    const POINTS: &[&str] = &["discuss:pre", "plan:pre", "plan:post", "execute:post"];
    const ARTIFACTS: &[&str] = &["A1.md", "A2.md", "A3.md", "RESEARCH.md"];

    fn overlay(rng: &mut Rng, id: &str) -> Overlay {
        let mut requires: Vec<&str> = Vec::new();
        if rng.below(3) > 0 {
            requires.push(IDS[rng.below(IDS.len())]);
        }
        if rng.below(8) == 0 {
            requires.push("ghost");
        }
        let tier = ["core", "standard", "full"][rng.below(3)];
        let mut cap = json!({
            "id": id, "role": "feature", "version": "1.0.0", "title": "Acme",
            "description": "d", "tier": tier,
            "requires": requires, "engines": {"gsd": ">=1.0.0"},
            "runtimeCompat": {"supported": ["*"], "unsupported": []},
            "skills": [id], "agents": [], "hooks": [],
            "config": {}, "steps": [], "contributions": [], "gates": [],
        });
        let steps: Vec<Value> = (0..rng.below(3))
            .map(|_| {
                json!({"point": POINTS[rng.below(POINTS.len())], "ref": {"skill": id},
                    "fragment": {"inline": "do it"}, "onError": "skip",
                    "produces": rng.some(ARTIFACTS),
                    "consumes": if rng.below(3) == 0 { rng.some(ARTIFACTS) } else { vec![] }})
            })
            .collect();
        cap["steps"] = Value::Array(steps);
        Overlay {
            folder: id.to_owned(),
            manifest: cap.to_string(),
            fragments: Vec::new(),
        }
    }

    fn snapshot(reg: &Registry) -> (Vec<String>, Vec<String>) {
        let ids = reg.ids_in_map_order().map(str::to_owned).collect();
        let diagnostics = reg
            .diagnostics()
            .iter()
            .map(|d| serde_json::to_string(d).unwrap_or_default())
            .collect();
        (ids, diagnostics)
    }

    #[test]
    fn admission_equals_the_literal_passes() {
        let base = Registry::first_party();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut joined, mut rejected, mut reordered) = (0, 0, 0);
        for _ in 0..300 {
            let list: Vec<Overlay> = IDS.iter().map(|id| overlay(&mut rng, id)).collect();
            let fast = base.with_overlays(&list);
            let slow = by_passes(base, &list);
            assert_eq!(snapshot(&fast), snapshot(&slow), "{list:#?}");
            let added: Vec<&str> = fast
                .ids_in_map_order()
                .skip(base.ids_in_map_order().count())
                .collect();
            joined += added.len();
            reordered += usize::from(!added.is_sorted());
            rejected += fast
                .diagnostics()
                .iter()
                .filter(|d| d.code == "overlay_rejected")
                .count();
        }
        assert!(
            joined > 200 && rejected > 300 && reordered > 20,
            "{joined} joined, {rejected} rejected, {reordered} out of sorted order"
        );
    }

    #[test]
    fn a_reversed_chain_joins_whole_in_dependency_order() {
        let ids: Vec<String> = (0..300).map(|i| format!("acme-c{i:03}")).collect();
        let list: Vec<Overlay> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let requires: Vec<&str> = ids.get(i + 1).map(String::as_str).into_iter().collect();
                let cap = json!({
                    "id": id, "role": "feature", "version": "1.0.0", "title": "t",
                    "description": "d", "tier": "full", "requires": requires,
                    "engines": {"gsd": ">=1.0.0"},
                    "runtimeCompat": {"supported": ["*"], "unsupported": []}, "skills": [], "agents": [], "hooks": [],
                    "config": {}, "steps": [], "contributions": [], "gates": [],
                });
                Overlay {
                    folder: id.clone(),
                    manifest: cap.to_string(),
                    fragments: Vec::new(),
                }
            })
            .collect();
        let base = Registry::first_party();
        let fast = base.with_overlays(&list);
        assert!(
            fast.diagnostics().is_empty(),
            "{:?}",
            fast.diagnostics().front()
        );
        let joined: Vec<&str> = fast
            .ids_in_map_order()
            .skip(base.ids_in_map_order().count())
            .collect();
        let reversed: Vec<&str> = ids.iter().rev().map(String::as_str).collect();
        assert_eq!(joined, reversed);
        assert_eq!(snapshot(&fast), snapshot(&by_passes(base, &list)));
    }
}

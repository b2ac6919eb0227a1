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
//!
//! The first pass checks every overlay, in order, against the set as it grows, which is
//! what preparing them does too: the caller checks each one as soon as it is prepared,
//! while its manifest is still in cache ([`Passes`] records the outcome), and only the
//! checks after the first pass come from the queue. A candidate waits for another by its
//! index among the sorted candidates; one that failed on its own (it does not parse or
//! validate) never joins, so whoever waits for it is never checked again, as when the
//! id is no candidate's at all.

use std::collections::{BTreeSet, HashMap};

use crate::cross::{Member, MergedSet, messages, strings};
use crate::diagnostic::Diagnostic;
use crate::doc::JsonRef;
use crate::registry::Overlay;

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

/// The distinct candidates `m` waits for: the indexes, in `candidates` (sorted by
/// folder, which is each one's id), of the ids it misses ([`MergedSet::missing_ids`]);
/// `None` (stopping at the first) when one of those ids is no candidate's, so that it can
/// never join.
pub(super) fn blockers(
    merged: &MergedSet<'_>,
    m: &Member<'_>,
    candidates: &[&Overlay],
) -> Option<Vec<usize>> {
    let mut distinct = Vec::new();
    for id in merged.missing_ids(m) {
        let k = candidate_index(candidates, id)?;
        if !distinct.contains(&k) {
            distinct.push(k);
        }
    }
    Some(distinct)
}

/// The index of the candidate whose folder (its id) is `id`; `candidates` are sorted by
/// folder.
fn candidate_index(candidates: &[&Overlay], id: &str) -> Option<usize> {
    candidates
        .binary_search_by(|o| o.folder.as_str().cmp(id))
        .ok()
}

/// The outcome of the pass rule.
pub(super) struct Admission {
    /// Admitted indexes, in admission order.
    pub order: Vec<usize>,
    /// Per index: whether it was admitted.
    pub joined: Vec<bool>,
    /// Per index: the problems of its last check when nothing joined after it (so they
    /// are the problems against the final set); `None` for the admitted, for those never
    /// checked, and for those the caller must check once more against the final set.
    pub last_problems: Vec<Option<Vec<Diagnostic>>>,
}

/// The pass rule over `n` candidates (sorted order), fed with the outcome of each check.
///
/// The first pass checks every candidate in order, so the caller runs it itself, each
/// check right after the candidate is prepared, while its manifest is still in cache;
/// [`Passes::next`] then gives the later checks, in the order the passes would make them.
pub(super) struct Passes {
    waits: Vec<Wait>,
    /// Candidates waiting for the candidate of that index to join.
    by_id: HashMap<usize, Vec<(usize, u32)>>,
    /// Candidates waiting for a producer of that artifact to join (rare: only a
    /// data-flow error waits for one).
    by_artifact: HashMap<String, Vec<(usize, u32)>>,
    /// (pass, index): the next place the passes would check a candidate, after the first.
    queue: BTreeSet<(usize, usize)>,
    done: Vec<bool>,
    admitted: Vec<usize>,
    /// Per index: its last problems and how many had joined when they were found.
    last: Vec<Option<(usize, Vec<Diagnostic>)>>,
}

impl Passes {
    pub(super) fn new(n: usize) -> Passes {
        Passes {
            waits: (0..n).map(|_| Wait::default()).collect(),
            by_id: HashMap::new(),
            by_artifact: HashMap::new(),
            queue: BTreeSet::new(),
            done: vec![false; n],
            admitted: Vec::new(),
            last: (0..n).map(|_| None).collect(),
        }
    }

    /// The next check after the first pass: `(pass, index)`.
    pub(super) fn next(&mut self) -> Option<(usize, usize)> {
        self.queue.pop_first()
    }

    /// Candidate `k`, checked in `pass`, joined (the caller has added it to the set).
    pub(super) fn joined(&mut self, pass: usize, k: usize, m: &Member<'_>) {
        self.done[k] = true;
        self.admitted.push(k);
        let mut woken = Vec::new();
        for &(j, generation) in self.by_id.get(&k).into_iter().flatten() {
            let w = &mut self.waits[j];
            if !self.done[j] && w.generation == generation && w.missing > 0 {
                w.missing -= 1;
                woken.push(j);
            }
        }
        if !self.by_artifact.is_empty() {
            for artifact in produced(m.manifest) {
                for &(j, generation) in self.by_artifact.get(artifact).into_iter().flatten() {
                    let w = &mut self.waits[j];
                    if !self.done[j] && w.generation == generation {
                        w.produced = true;
                        woken.push(j);
                    }
                }
            }
        }
        for j in woken {
            let w = &mut self.waits[j];
            let ready = w.missing == 0 && (!w.needs_producer || w.produced);
            if ready && !self.done[j] {
                w.generation += 1;
                // In the first pass only candidates before `k` have been checked, so every
                // one woken then is checked again in the second.
                self.queue.insert((if j > k { pass } else { pass + 1 }, j));
            }
        }
    }

    /// Candidate `k` failed with `problems`; `missing` are its [`blockers`]. It waits
    /// for what could change the answer, or for nothing.
    pub(super) fn failed(
        &mut self,
        k: usize,
        m: &Member<'_>,
        problems: Vec<Diagnostic>,
        missing: Option<Vec<usize>>,
    ) {
        let needs_producer = problems.iter().any(|d| d.code.starts_with("consumes_"));
        self.last[k] = Some((self.admitted.len(), problems));
        // An id that is no candidate's never joins: this one stays rejected.
        let Some(missing) = missing else { return };
        let w = &mut self.waits[k];
        w.generation += 1;
        w.missing = missing.len();
        w.needs_producer = needs_producer;
        w.produced = false;
        if missing.is_empty() && !needs_producer {
            return;
        }
        for id in missing {
            self.by_id.entry(id).or_default().push((k, w.generation));
        }
        if needs_producer {
            for artifact in consumed(m.manifest) {
                self.by_artifact
                    .entry(artifact.to_owned())
                    .or_default()
                    .push((k, w.generation));
            }
        }
    }

    pub(super) fn finish(self) -> Admission {
        let joined = self.admitted.len();
        let last_problems = self
            .last
            .into_iter()
            .zip(&self.done)
            .map(|(found, done)| match found {
                Some((at, problems)) if at == joined && !done => Some(problems),
                _ => None,
            })
            .collect();
        Admission {
            order: self.admitted,
            joined: self.done,
            last_problems,
        }
    }
}

/// How many ids of a `requires` cycle among rejected overlays a message spells out; a
/// longer cycle is shown by its first step, then `…` and the id it closes on.
const MAX_CYCLE_NAMES: usize = 16;

/// How many overlays the search for a short cycle through one overlay may visit.
const CYCLE_SEARCH_BUDGET: usize = 4096;

/// Names, among the reasons of the rejected candidates, each `requires_unknown` whose id
/// is another overlay's that was not loaded: a candidate that did not join, or a folder
/// `ambiguous` names (sorted: several different overlays claimed it). `reasons[k]` holds
/// candidate `k`'s reasons against the final set (`None`: it joined, or failed on its own
/// and has its reasons elsewhere); `registered` says whether an id is in the registry the
/// overlays were added to.
///
/// Where such requirements close a cycle (`acme-a` requires `acme-b`, which requires
/// `acme-a`), no order could ever admit them: each reason on a cycle (its two ends in one
/// strongly connected component) becomes the `requires_cycle` the merged set would report,
/// its path starting at the overlay it is about and running through the id it names, back
/// by a shortest way when one of at most [`MAX_CYCLE_NAMES`] ids is found, else shown as
/// `a → b → … → a`. Any other becomes `requires_not_loaded`. The rest of the reasons are
/// untouched, in place, so the `overlay_rejected` summaries list the new codes where the
/// old ones were. Linear in the requirements, plus a bounded search per overlay on a cycle.
pub(super) fn name_unloaded_requires<'m>(
    registered: &dyn Fn(&str) -> bool,
    candidates: &[&Overlay],
    ambiguous: &[&str],
    joined: &[bool],
    member: &dyn Fn(usize) -> Option<Member<'m>>,
    reasons: &mut [Option<Vec<Diagnostic>>],
) {
    let index_of = |id: &str| candidate_index(candidates, id);
    let folder = |k: usize| candidates[k].folder.as_str();
    // Per rejected candidate: (position of the reason, the candidate it names).
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); candidates.len()];
    for (k, why) in reasons.iter_mut().enumerate() {
        let (Some(why), Some(m)) = (why, member(k)) else {
            continue;
        };
        // The checker reports one `requires_unknown` per entry missing from the final
        // set, in the entries' order: the two lists pair up.
        let missing = strings(m.manifest, "requires")
            .filter(|r| *r != m.id && !registered(r) && !index_of(r).is_some_and(|j| joined[j]));
        let unknown: Vec<usize> = why
            .iter()
            .enumerate()
            .filter(|(_, d)| d.code == "requires_unknown")
            .map(|(at, _)| at)
            .collect();
        for (at, req) in unknown.into_iter().zip(missing) {
            if let Some(j) = index_of(req) {
                edges[k].push((at, j));
            } else if ambiguous.binary_search(&req).is_ok() {
                why[at] = messages::requires_not_loaded(m.id, req);
            }
        }
    }
    if edges.iter().all(Vec::is_empty) {
        return;
    }
    let successors: Vec<Vec<usize>> = edges
        .iter()
        .map(|list| {
            let mut next: Vec<usize> = list.iter().map(|&(_, j)| j).collect();
            next.sort_unstable();
            next.dedup();
            next
        })
        .collect();
    let component = strongly_connected(&successors);
    let mut sizes = vec![0usize; candidates.len()];
    for &c in &component {
        sizes[c] += 1;
    }
    let on_cycle = |a: usize, b: usize| component[a] == component[b] && sizes[component[a]] > 1;
    // Each cycle edge backwards, to search from an overlay back to itself.
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); candidates.len()];
    for (a, next) in successors.iter().enumerate() {
        for &b in next.iter().filter(|&&b| on_cycle(a, b)) {
            predecessors[b].push(a);
        }
    }
    for (k, list) in edges.into_iter().enumerate() {
        let Some(why) = reasons[k].as_mut() else {
            continue;
        };
        let toward = if list.iter().any(|&(_, j)| on_cycle(k, j)) {
            hops_toward(k, &predecessors)
        } else {
            HashMap::new()
        };
        for (at, j) in list {
            why[at] = if on_cycle(k, j) {
                let mut path = vec![folder(k), folder(j)];
                let mut node = j;
                let mut found = true;
                while node != k {
                    let Some(&next) = toward.get(&node) else {
                        found = false;
                        break;
                    };
                    path.push(folder(next));
                    node = next;
                }
                if !found || path.len() > MAX_CYCLE_NAMES + 1 {
                    path.truncate(2);
                    path.extend(["…", folder(k)]);
                }
                messages::cycle(folder(k), &path)
            } else {
                messages::requires_not_loaded(folder(k), folder(j))
            };
        }
    }
}

/// From every overlay a breadth-first search backwards from `target` reaches (at most
/// [`MAX_CYCLE_NAMES`] steps and [`CYCLE_SEARCH_BUDGET`] overlays), the next overlay on a
/// shortest way to `target`.
fn hops_toward(target: usize, predecessors: &[Vec<usize>]) -> HashMap<usize, usize> {
    let mut next: HashMap<usize, usize> = HashMap::new();
    let mut frontier = vec![target];
    for _ in 0..MAX_CYCLE_NAMES {
        let mut further = Vec::new();
        for &node in &frontier {
            for &before in &predecessors[node] {
                if before != target && !next.contains_key(&before) {
                    if next.len() >= CYCLE_SEARCH_BUDGET {
                        return next;
                    }
                    next.insert(before, node);
                    further.push(before);
                }
            }
        }
        if further.is_empty() {
            break;
        }
        frontier = further;
    }
    next
}

/// The strongly connected component of every node of a graph (`successors[node]`), as a
/// component number per node (Tarjan's algorithm, iterative: one frame per level).
fn strongly_connected(successors: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = successors.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next_index = 0;
    let mut next_component = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next successor to look at)
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut at)) = frames.last_mut() {
            if let Some(&child) = successors[node].get(*at) {
                *at += 1;
                if index[child] == UNSEEN {
                    index[child] = next_index;
                    low[child] = next_index;
                    next_index += 1;
                    stack.push(child);
                    on_stack[child] = true;
                    frames.push((child, 0));
                } else if on_stack[child] {
                    low[node] = low[node].min(index[child]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = next_component;
                    if member == node {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
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
        // Now and then a runtime named by the id of another overlay: it joins as a
        // feature, never as a runtime, so the compatibility error stays once it has.
        let supported = if rng.below(10) == 0 {
            vec!["claude", IDS[rng.below(IDS.len())]]
        } else {
            vec!["*"]
        };
        let mut cap = json!({
            "id": id, "role": "feature", "version": "1.0.0", "title": "Acme",
            "description": "d", "tier": tier,
            "requires": requires, "engines": {"gsd": ">=1.0.0"},
            "runtimeCompat": {"supported": supported, "unsupported": []},
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
        // Now and then one that fails on its own, before admission, which others may
        // still require.
        let manifest = match rng.below(12) {
            0 => String::from("{\"id\": "),
            1 => {
                cap["tier"] = json!("bogus");
                cap.to_string()
            }
            _ => cap.to_string(),
        };
        Overlay {
            folder: id.to_owned(),
            manifest,
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
        let (mut unreadable, mut invalid, mut ambiguous, mut unknown_runtime) = (0, 0, 0, 0);
        for _ in 0..500 {
            let mut list: Vec<Overlay> = IDS.iter().map(|id| overlay(&mut rng, id)).collect();
            // Now and then an exact duplicate (counted once) or a different overlay with
            // the same folder (all of that folder's are rejected, however many require it).
            let k = rng.below(IDS.len());
            match rng.below(8) {
                0 => list.push(list[k].clone()),
                1 => list.push(Overlay {
                    manifest: format!("{} ", list[k].manifest),
                    ..list[k].clone()
                }),
                _ => {}
            }
            let fast = base.with_overlays(&list);
            let count = |code: &str| fast.diagnostics().iter().filter(|d| d.code == code).count();
            unreadable += count("overlay_manifest_invalid");
            invalid += count("invalid_enum");
            ambiguous += count("overlay_folder_ambiguous");
            unknown_runtime += count("runtime_compat_unknown_runtime");
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
            joined > 300
                && rejected > 500
                && reordered > 30
                && unreadable > 100
                && invalid > 100
                && ambiguous > 30
                && unknown_runtime > 100,
            "{joined} joined, {rejected} rejected, {reordered} out of sorted order, \
             {unreadable} unreadable, {invalid} with an invalid tier, {ambiguous} ambiguous, \
             {unknown_runtime} naming a runtime that is not one"
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

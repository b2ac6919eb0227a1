//! The trigger surface: which `/gsd-<name>` triggers a runtime exposes at which scopes, and
//! which candidate wins when several artifacts answer to the same trigger.
//!
//! Winner per trigger: higher scope rank first (global beats local), then the runtime's
//! `triggerPrecedence` kind order; ties keep the first-emitted candidate. Every loser names
//! its winner in `shadowed_by`. Pure: stems are taken as given.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::layout::is_namespaced_by_dir;
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::scope::{SCOPE_ORDER, lookup_runtime};
use crate::vocab::{Nesting, Scope, TriggerKind};

mod list;

pub use list::{Trigger, TriggerIter, Triggers};

/// The source inventory the trigger surface is computed over.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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

impl TriggerInput {
    /// Reads a trigger input from JSON text as every binding does ([`crate::strict::read`]):
    /// objects only, no repeated or unknown member, a failure naming the value at fault.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for text that is not a trigger input (`stems[1]`, ...).
    pub fn from_json(text: &str) -> Result<Self, crate::Error> {
        crate::strict::read(text, "trigger input")
    }
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

wire_names!(Registration {
    Direct => "direct",
    ViaRouter => "via-router",
});

/// The winner that shadows a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShadowedBy {
    /// Winner's kind.
    pub kind: TriggerKind,
    /// Winner's scope.
    pub scope: Scope,
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

    /// Stem `index`.
    pub(crate) fn get(&self, index: usize) -> &'a str {
        match self {
            Stems::All(list) => list[index].as_str(),
            Stems::Picked(list) => list[index],
        }
    }

    /// Whether these are every stem of `list` itself, in its order (the very slice).
    pub(crate) fn is_all_of(&self, list: &[String]) -> bool {
        matches!(self, Stems::All(all) if std::ptr::eq(*all, list))
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

/// The router a routed child's trigger names: its first listed owner, when that owner is
/// a router and the stem is not one itself (`None` when no router is given).
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

/// The routers of each command, found once for a whole list as indices into the router
/// stems: the one its trigger names ([`via_router`]) and the ones a nested skills kind
/// places it under (`owners_of` in `plan/placement.rs`). An [`crate::plan::Inventory`]
/// finds them when it is made, and a typed plan whose layout nests skills finds them once
/// per call, so that neither its trigger surface nor its placements look a router up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Routes {
    /// The router index command `i`'s trigger names.
    named: Vec<Option<usize>>,
    /// The distinct routers owning command `i`, first owner first (none for a router):
    /// `owners[ends[i - 1]..ends[i]]`.
    owners: Vec<usize>,
    ends: Vec<usize>,
}

impl Routes {
    /// The routes of `commands` over `router_stems` and `child_to_routers`, as
    /// [`via_router`] and `owners_of` find them one stem at a time.
    pub(crate) fn new(
        commands: &[String],
        router_stems: &[String],
        child_to_routers: &BTreeMap<String, Vec<String>>,
    ) -> Self {
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, router) in router_stems.iter().enumerate() {
            index.entry(router.as_str()).or_insert(i);
        }
        let mut named = Vec::with_capacity(commands.len());
        let mut owners = Vec::new();
        let mut ends = Vec::with_capacity(commands.len());
        for stem in commands {
            let listed = if index.contains_key(stem.as_str()) {
                None
            } else {
                child_to_routers.get(stem)
            };
            let start = owners.len();
            for owner in listed.into_iter().flatten() {
                if let Some(&r) = index.get(owner.as_str())
                    && !owners[start..].contains(&r)
                {
                    owners.push(r);
                }
            }
            let first = listed.and_then(|list| list.first());
            named.push(first.and_then(|f| index.get(f.as_str()).copied()));
            ends.push(owners.len());
        }
        Routes {
            named,
            owners,
            ends,
        }
    }

    /// The router command `i`'s trigger names, if any.
    pub(crate) fn named<'r>(&self, i: usize, router_stems: &'r [String]) -> Option<&'r str> {
        let r = (*self.named.get(i)?)?;
        router_stems.get(r).map(String::as_str)
    }

    /// The routers command `i` is placed under, as indices into the router stems.
    pub(crate) fn owners(&self, i: usize) -> &[usize] {
        let start = i
            .checked_sub(1)
            .map_or(0, |p| self.ends.get(p).copied().unwrap_or(0));
        let end = self.ends.get(i).copied().unwrap_or(start);
        self.owners.get(start..end).unwrap_or_default()
    }

    /// How many skills placements a nested kind writes for the whole list: one per owning
    /// router, else one.
    pub(crate) fn nested_count(&self) -> usize {
        (0..self.ends.len())
            .map(|i| self.owners(i).len().max(1))
            .sum()
    }
}

/// Commands, routers and owner lists over a few names, from quickcheck's numbers: stems
/// that are routers, owners that are not, repeated owners and routers, and children of
/// nobody all occur. Shared by the properties of [`Routes`] here and in `plan/placement.rs`.
#[cfg(test)]
pub(crate) fn routing_case(
    commands: &[u8],
    routers: &[u8],
    owned: &[(u8, Vec<u8>)],
) -> (Vec<String>, Vec<String>, BTreeMap<String, Vec<String>>) {
    const NAMES: [&str; 6] = ["a", "b", "ns-a", "ns-b", "ns-c", "x"];
    let name = |n: &u8| NAMES[usize::from(*n) % NAMES.len()].to_owned();
    let child_to_routers = owned
        .iter()
        .map(|(child, owners)| (name(child), owners.iter().map(name).collect()))
        .collect();
    (
        commands.iter().map(name).collect(),
        routers.iter().map(name).collect(),
        child_to_routers,
    )
}

fn precedence_index(precedence: &[TriggerKind], kind: TriggerKind) -> usize {
    precedence
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(usize::MAX)
}

/// Resolves the trigger surface of `runtime` at `scopes` (order and duplicates of `scopes`
/// do not matter: candidates follow [`SCOPE_ORDER`], then layout entries, then stems).
/// Every stem must be a plain file stem, as a plan's must: a stem becomes a destination.
/// A stem listed twice is kept once, at its first position, as a plan keeps it (one file
/// cannot shadow itself).
///
/// # Errors
/// [`crate::ErrorCode::UnknownRuntime`]; [`crate::ErrorCode::InvalidArgument`] naming the
/// first stem that is not plain (`stems[2]`, `routerStems[0]`, `childToRouters`,
/// `childToRouters.<child>`).
pub fn resolve_trigger_surface(
    registry: &Registry,
    runtime: &str,
    scopes: &[Scope],
    input: &TriggerInput,
) -> Result<Triggers, Error> {
    let descriptor = lookup_runtime(registry, runtime)?;
    crate::plan::check_stem_lists(
        [
            ("stems", &input.stems),
            ("routerStems", &input.router_stems),
        ],
        &input.child_to_routers,
    )?;
    // The check for repeats is the one the surface would make anyway; telling it the
    // stems are distinct afterwards keeps it from making it twice.
    let stems = if has_duplicates(&input.stems) {
        let mut seen = HashSet::with_capacity(input.stems.len());
        Stems::Picked(
            input
                .stems
                .iter()
                .map(String::as_str)
                .filter(|s| seen.insert(*s))
                .collect(),
        )
    } else {
        Stems::All(&input.stems)
    };
    Ok(surface_of(
        descriptor,
        scopes,
        &stems,
        (&input.router_stems, &input.child_to_routers),
        true,
    ))
}

/// [`resolve_trigger_surface`] over stems taken as they are, as the peer's resolver takes
/// any string: for a layer that must answer as the peer does, and for stems read back
/// from an install on disk (which are reported, never written to).
///
/// # Errors
/// [`crate::ErrorCode::UnknownRuntime`].
pub fn resolve_trigger_surface_lenient(
    registry: &Registry,
    runtime: &str,
    scopes: &[Scope],
    input: &TriggerInput,
) -> Result<Triggers, Error> {
    Ok(surface_over(
        lookup_runtime(registry, runtime)?,
        scopes,
        input,
    ))
}

/// The trigger surface of a known runtime over `input`'s stems as given.
fn surface_over(
    descriptor: &RuntimeDescriptor,
    scopes: &[Scope],
    input: &TriggerInput,
) -> Triggers {
    surface_of(
        descriptor,
        scopes,
        &Stems::All(&input.stems),
        (&input.router_stems, &input.child_to_routers),
        false,
    )
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
) -> Triggers {
    TriggerSurface::new(descriptor, scopes, stems, routers, None, distinct).to_triggers()
}

/// One trigger-bearing layout entry of a [`TriggerSurface`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct SurfaceEntry<'a> {
    kind: TriggerKind,
    scope: Scope,
    prefix: &'a str,
    /// `dest_path` up to the stem: the entry's posix destination, `/`, and the file prefix
    /// (none for commands namespaced by their directory).
    dest_head: String,
    /// `dest_path` after the stem: `.md` for commands, nothing for skills.
    dest_ext: &'static str,
    nested: bool,
}

/// Which candidates lose, and to whom.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shadowing {
    /// Per entry: every stem's candidates are one per entry with the same prefix, so the
    /// same entry wins for every stem ([`per_stem_rule`]).
    PerEntry(Vec<Option<ShadowedBy>>),
    /// Per candidate, in emission order (the general rule, [`assign_winners`]).
    PerCandidate(Vec<Option<ShadowedBy>>),
}

/// The trigger surface as parts: every candidate's values are borrowed pieces
/// ([`TriggerParts`]) and none of its strings is built until asked for. The candidates are
/// the layout's trigger-bearing entries (in [`SCOPE_ORDER`], then layout order) times the
/// stems (in order), entry by entry; [`Self::to_triggers`] spells them out as
/// [`resolve_trigger_surface`] returns them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TriggerSurface<'a> {
    entries: Vec<SurfaceEntry<'a>>,
    stems: Stems<'a>,
    /// Each stem's router (`Some` for a routed child), for nested entries; empty when no
    /// entry is nested.
    routers: Vec<Option<&'a str>>,
    shadowing: Shadowing,
}

/// One trigger candidate as the pieces [`Trigger`] spells its strings from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TriggerParts<'s> {
    /// The index of the candidate's layout entry among the surface's trigger-bearing
    /// entries: candidates of one entry share `prefix`, `kind`, `scope`, `dest_head` and
    /// `dest_ext`.
    pub entry: usize,
    /// The layout entry's prefix: the trigger is `prefix + stem`, the router's trigger
    /// `prefix + router`.
    pub prefix: &'s str,
    /// The command stem.
    pub stem: &'s str,
    /// The artifact kind bearing it.
    pub kind: TriggerKind,
    /// The scope it is installed at.
    pub scope: Scope,
    /// The destination is `dest_head + stem + dest_ext`.
    pub dest_head: &'s str,
    /// See [`Self::dest_head`].
    pub dest_ext: &'static str,
    /// The router's stem when the candidate is reached through one.
    pub router: Option<&'s str>,
    /// The winner, when this candidate loses.
    pub shadowed_by: Option<ShadowedBy>,
}

impl TriggerParts<'_> {
    /// Direct or via a router.
    #[must_use]
    pub fn registration(&self) -> Registration {
        if self.router.is_some() {
            Registration::ViaRouter
        } else {
            Registration::Direct
        }
    }
}

impl<'a> TriggerSurface<'a> {
    /// The surface of `descriptor` at `scopes` over `stems` (see [`surface_of`]).
    ///
    /// `table`, when given, holds the routes of `stems` over these very routers, found once
    /// ([`Routes`]); the surface then looks no router up.
    pub(crate) fn new(
        descriptor: &'a RuntimeDescriptor,
        scopes: &[Scope],
        stems: &Stems<'a>,
        routers: (&'a [String], &'a BTreeMap<String, Vec<String>>),
        table: Option<&Routes>,
        distinct: bool,
    ) -> Self {
        let (router_stems, child_to_routers) = routers;
        let mut entries = Vec::new();
        for scope in SCOPE_ORDER.iter().filter(|s| scopes.contains(s)) {
            for entry in descriptor.artifact_layout.entries(*scope) {
                let Some(kind) = TriggerKind::of(entry.kind) else {
                    continue;
                };
                let prefix = entry.prefix.as_str();
                // `compose_command_filename`, as parts.
                let (file_prefix, dest_ext) = match kind {
                    TriggerKind::Skills => (prefix, ""),
                    TriggerKind::Commands
                        if is_namespaced_by_dir(entry.kind, &entry.dest_subpath, prefix) =>
                    {
                        ("", ".md")
                    }
                    TriggerKind::Commands => (prefix, ".md"),
                };
                let dest = path::to_posix(&entry.dest_subpath);
                entries.push(SurfaceEntry {
                    kind,
                    scope: *scope,
                    prefix,
                    dest_head: path::concat(&[&dest, "/", file_prefix]),
                    dest_ext,
                    nested: entry.nesting == Nesting::Nested,
                });
            }
        }
        let routers = if !entries.iter().any(|e| e.nested) {
            Vec::new()
        } else if let Some(table) = table.filter(|_| !router_stems.is_empty()) {
            (0..stems.len())
                .map(|i| table.named(i, router_stems))
                .collect()
        } else {
            let set: BTreeSet<&str> = router_stems.iter().map(String::as_str).collect();
            stems
                .iter()
                .map(|stem| via_router(stem, child_to_routers, &set))
                .collect()
        };
        let precedence = &descriptor.trigger_precedence;
        let shadowing = if per_stem_rule(descriptor, scopes, stems, distinct).1 {
            Shadowing::PerEntry(entry_winners(&entries, precedence))
        } else {
            Shadowing::PerCandidate(assign_winners(&entries, stems, precedence))
        };
        TriggerSurface {
            entries,
            stems: stems.clone(),
            routers,
            shadowing,
        }
    }

    /// The number of candidates.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len() * self.stems.len()
    }

    /// The number of stems: candidate `i` is stem `i % stem_count` of entry
    /// `i / stem_count`.
    #[must_use]
    pub fn stem_count(&self) -> usize {
        self.stems.len()
    }

    /// Whether the surface's stems are `list` itself: the very slice, every stem in its
    /// order (not a copy, nor a profile's pick from it). A binding that already holds the
    /// list can then name each candidate's stem by position instead of sending it.
    #[must_use]
    pub fn stems_are(&self, list: &[String]) -> bool {
        self.stems.is_all_of(list)
    }

    /// Whether there is no candidate.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of candidates that lose to another.
    #[must_use]
    pub fn shadowed(&self) -> usize {
        match &self.shadowing {
            Shadowing::PerEntry(by) => by.iter().flatten().count() * self.stems.len(),
            Shadowing::PerCandidate(by) => by.iter().flatten().count(),
        }
    }

    /// Calls `visit` with every candidate as parts, in emission order (only the stem,
    /// the router and the winner change between two candidates of one entry).
    pub fn for_each<'s>(&'s self, mut visit: impl FnMut(&TriggerParts<'s>)) {
        let mut index = 0;
        for (entry, e) in self.entries.iter().enumerate() {
            let mut parts = TriggerParts {
                entry,
                prefix: e.prefix,
                stem: "",
                kind: e.kind,
                scope: e.scope,
                dest_head: &e.dest_head,
                dest_ext: e.dest_ext,
                router: None,
                shadowed_by: match &self.shadowing {
                    Shadowing::PerEntry(by) => by[entry],
                    Shadowing::PerCandidate(_) => None,
                },
            };
            for (stem, name) in self.stems.iter().enumerate() {
                parts.stem = name;
                if e.nested {
                    parts.router = self.routers[stem];
                }
                if let Shadowing::PerCandidate(by) = &self.shadowing {
                    parts.shadowed_by = by[index];
                }
                visit(&parts);
                index += 1;
            }
        }
    }

    /// Every candidate spelled out, in emission order ([`Triggers::push_parts`]).
    #[must_use]
    pub fn to_triggers(&self) -> Triggers {
        let mut out = Triggers::with_capacity(self.len(), self.text_len());
        self.for_each(|p| out.push_parts(p));
        out
    }

    /// The bytes of every string [`Self::to_triggers`] spells: per candidate the trigger
    /// (prefix + stem), the destination (head + stem + extension) and, when routed, the
    /// router's trigger (prefix + router).
    fn text_len(&self) -> usize {
        let stems: usize = self.stems.iter().map(str::len).sum();
        let (routed, routers) = self
            .routers
            .iter()
            .flatten()
            .fold((0, 0), |(n, bytes), r| (n + 1, bytes + r.len()));
        self.entries
            .iter()
            .map(|e| {
                let fixed = e.prefix.len() + e.dest_head.len() + e.dest_ext.len();
                let routing = if e.nested {
                    routed * e.prefix.len() + routers
                } else {
                    0
                };
                self.stems.len() * fixed + 2 * stems + routing
            })
            .sum()
    }
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
    let surface = TriggerSurface::new(descriptor, scopes, stems, routers, None, distinct);
    (surface.len(), surface.shadowed())
}

/// The number of trigger-bearing entries at `scopes`, and whether winners can be settled
/// per stem ([`entry_winners`]): every such entry has the same prefix and no stem
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

/// Whether `stems` lists some stem twice: one pass when the list is ordered, else a set of
/// the borrowed stems (linear in the length; a sort, used before, grew as `n log n` and
/// was the only per-stem cost of a surface that grew with the number of stems).
pub(crate) fn has_duplicates<S: AsRef<str>>(stems: &[S]) -> bool {
    // Inventories are usually listed in order: strictly increasing means no duplicates.
    if stems.windows(2).all(|w| w[0].as_ref() < w[1].as_ref()) {
        return false;
    }
    let mut seen = HashSet::with_capacity(stems.len());
    !stems.iter().all(|s| seen.insert(s.as_ref()))
}

/// Whether a candidate of `a` (scope, kind) beats the current winner's `b` (strictly: ties
/// keep `b`).
fn beats(a: (Scope, TriggerKind), b: (Scope, TriggerKind), precedence: &[TriggerKind]) -> bool {
    if a.0.rank() == b.0.rank() {
        precedence_index(precedence, a.1) < precedence_index(precedence, b.1)
    } else {
        a.0.rank() > b.0.rank()
    }
}

/// [`assign_winners`] when every trigger-bearing entry has the same prefix and the stems
/// are distinct: then two candidates share a trigger exactly when they share a stem, so
/// each stem's candidates are one per entry, in entry order, and since a candidate beats
/// another by its entry's scope and kind alone, the same entry wins for every stem. One
/// pass over the entries settles every stem.
fn entry_winners(
    entries: &[SurfaceEntry<'_>],
    precedence: &[TriggerKind],
) -> Vec<Option<ShadowedBy>> {
    let key = |e: &SurfaceEntry<'_>| (e.scope, e.kind);
    let Some(first) = entries.first() else {
        return Vec::new();
    };
    let mut winner = first;
    for entry in &entries[1..] {
        if beats(key(entry), key(winner), precedence) {
            winner = entry;
        }
    }
    let by = ShadowedBy {
        kind: winner.kind,
        scope: winner.scope,
    };
    entries
        .iter()
        .map(|e| (!std::ptr::eq(e, winner)).then_some(by))
        .collect()
}

/// Each candidate's winner, when it loses, in emission order. One pass finds each
/// trigger's winner (the first candidate, replaced only by a strictly better later one); a
/// second pass marks the rest, so no per-trigger list is built.
fn assign_winners(
    entries: &[SurfaceEntry<'_>],
    stems: &Stems<'_>,
    precedence: &[TriggerKind],
) -> Vec<Option<ShadowedBy>> {
    let n = stems.len();
    let entry_of = |candidate: usize| &entries[candidate / n];
    let key = |candidate: usize| (entry_of(candidate).scope, entry_of(candidate).kind);
    let triggers: Vec<String> = (0..entries.len() * n)
        .map(|c| path::concat(&[entry_of(c).prefix, stems.get(c % n)]))
        .collect();
    let mut winners: HashMap<&str, usize> = HashMap::with_capacity(triggers.len());
    for (candidate, trigger) in triggers.iter().enumerate() {
        let winner = winners.entry(trigger.as_str()).or_insert(candidate);
        if beats(key(candidate), key(*winner), precedence) {
            *winner = candidate;
        }
    }
    triggers
        .iter()
        .enumerate()
        .map(|(candidate, trigger)| {
            let winner = winners[trigger.as_str()];
            (winner != candidate).then(|| {
                let (scope, kind) = key(winner);
                ShadowedBy { kind, scope }
            })
        })
        .collect()
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

    /// JSON text is read strictly: each list as given, and a wrong value or a repeated
    /// member named where it is.
    #[test]
    fn a_trigger_input_reads_from_json_strictly() {
        let input = TriggerInput::from_json(
            r#"{"stems":["help"],"routerStems":["ns-x"],"childToRouters":{"help":["ns-x"]}}"#,
        )
        .expect("a trigger input");
        assert_eq!(input.stems, ["help"]);
        assert_eq!(input.child_to_routers["help"], ["ns-x"]);
        for (text, field) in [
            (r#"{"stems":["a",1]}"#, Some("stems[1]")),
            (r#"{"stems":[],"stems":["b"]}"#, None),
            (r#"{"stem":[]}"#, Some("stem")),
        ] {
            let err = TriggerInput::from_json(text).unwrap_err();
            assert_eq!(
                (err.code(), err.field()),
                (crate::ErrorCode::InvalidArgument, field),
                "{text}"
            );
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
            (
                surface.get(0).expect("listed").scope,
                surface.get(0).expect("listed").kind
            ),
            (Scope::Global, TriggerKind::Skills)
        );
        assert_eq!(surface.get(0).expect("listed").dest_path, "skills/gsd-help");
        assert_eq!(surface.get(0).expect("listed").shadowed_by, None);
        assert_eq!(
            surface.get(1).expect("listed").dest_path,
            "commands/gsd-help.md"
        );
        assert_eq!(
            surface.get(1).expect("listed").shadowed_by,
            Some(ShadowedBy {
                kind: TriggerKind::Skills,
                scope: Scope::Global
            })
        );
    }

    #[test]
    fn stems_are_the_very_list_only() {
        let descriptor = Registry::first_party().runtime("claude").expect("claude");
        let list = stems(&["help", "plan"]).stems;
        let routers = (&[][..], &BTreeMap::new());
        let surface = |stems: &Stems<'_>| {
            TriggerSurface::new(descriptor, &[Scope::Global], stems, routers, None, false)
                .stems_are(&list)
        };
        assert!(surface(&Stems::All(&list)));
        // An equal copy, a prefix of the list, or the same stems picked: not the list.
        assert!(!surface(&Stems::All(&list.clone())));
        assert!(!surface(&Stems::All(&list[..1])));
        assert!(!surface(&Stems::Picked(vec!["help", "plan"])));
    }

    /// The scope sets a surface is resolved at.
    const SCOPE_SETS: [&[Scope]; 3] = [
        &[Scope::Global, Scope::Local],
        &[Scope::Local],
        &[Scope::Global],
    ];

    /// The surface of every first-party runtime at every scope set over `input`, with its
    /// runtime id and descriptor.
    fn every_surface(
        input: &TriggerInput,
        distinct: bool,
    ) -> Vec<(
        &str,
        &RuntimeDescriptor,
        &'static [Scope],
        TriggerSurface<'_>,
    )> {
        let reg = Registry::first_party();
        let routers = (input.router_stems.as_slice(), &input.child_to_routers);
        let mut out = Vec::new();
        for runtime in reg.runtime_ids() {
            let descriptor = reg.runtime(runtime).expect("runtime");
            for scopes in SCOPE_SETS {
                let stems = Stems::All(&input.stems);
                let surface =
                    TriggerSurface::new(descriptor, scopes, &stems, routers, None, distinct);
                out.push((runtime, descriptor, scopes, surface));
            }
        }
        out
    }

    /// The per-entry rule marks the candidates the general rule marks, for every runtime
    /// and scope set, over distinct stems (with a router and its routed child).
    #[test]
    fn entry_winners_equal_the_general_rule() {
        let mut input = stems(&["help", "plan", "ns-x", "update"]);
        input.router_stems = vec!["ns-x".to_owned()];
        input.child_to_routers = BTreeMap::from([("plan".to_owned(), vec!["ns-x".to_owned()])]);
        let mut shadowed = 0;
        for (runtime, descriptor, scopes, surface) in every_surface(&input, true) {
            assert!(
                matches!(surface.shadowing, Shadowing::PerEntry(_)),
                "{runtime}"
            );
            let mut fast = Vec::new();
            surface.for_each(|p| fast.push(p.shadowed_by));
            let general = assign_winners(
                &surface.entries,
                &surface.stems,
                &descriptor.trigger_precedence,
            );
            assert_eq!(fast, general, "{runtime} {scopes:?}");
            shadowed += surface.shadowed();
        }
        assert!(shadowed > 0, "some runtime shadows a trigger");
    }

    /// The room [`TriggerSurface::to_triggers`] reserves is exactly the bytes it writes,
    /// for every runtime and scope set, routed children included.
    #[test]
    fn reserved_text_is_the_spelled_text() {
        let mut input = stems(&["help", "plan", "ns-x", "update", "ns-long-router"]);
        input.router_stems = vec!["ns-x".to_owned(), "ns-long-router".to_owned()];
        input.child_to_routers = BTreeMap::from([
            ("plan".to_owned(), vec!["ns-x".to_owned()]),
            ("update".to_owned(), vec!["ns-long-router".to_owned()]),
        ]);
        let mut routed = 0;
        for (runtime, _, scopes, surface) in every_surface(&input, false) {
            let spelled: usize = surface
                .to_triggers()
                .iter()
                .map(|t| {
                    routed += usize::from(t.router_trigger.is_some());
                    t.trigger.len() + t.dest_path.len() + t.router_trigger.map_or(0, str::len)
                })
                .sum();
            assert_eq!(surface.text_len(), spelled, "{runtime} {scopes:?}");
        }
        assert!(routed > 0, "some runtime routes a child");
    }

    /// Spelled out, the parts give the values the peer's rules give: the trigger is the
    /// prefix and the stem, a command's destination its file (`.md`, no prefix when its
    /// directory names it), a skill's its directory, and a routed child names its router.
    #[test]
    fn parts_spell_the_candidates() {
        let reg = Registry::first_party();
        let mut input = stems(&["help", "child"]);
        input.router_stems = vec!["ns-a".into()];
        input
            .child_to_routers
            .insert("child".into(), vec!["ns-a".into()]);
        let spelled = |runtime: &str| {
            resolve_trigger_surface(reg, runtime, &[Scope::Global, Scope::Local], &input)
                .expect("surface")
                .iter()
                .map(|t| {
                    let owned = |s: &str| s.to_owned();
                    (
                        owned(t.trigger),
                        owned(t.dest_path),
                        t.router_trigger.map(owned),
                    )
                })
                .collect::<Vec<_>>()
        };
        let some = |s: &str| Some(s.to_owned());
        let row = |t: &str, d: &str, r: Option<String>| (t.to_owned(), d.to_owned(), r);
        assert_eq!(
            spelled("claude"),
            [
                row("gsd-help", "skills/gsd-help", None),
                row("gsd-child", "skills/gsd-child", None),
                row("gsd-help", "commands/gsd-help.md", None),
                row("gsd-child", "commands/gsd-child.md", None),
            ]
        );
        assert_eq!(
            spelled("cline"),
            [
                row("gsd-help", "skills/gsd-help", None),
                row("gsd-child", "skills/gsd-child", some("gsd-ns-a")),
            ]
        );
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
            for scopes in SCOPE_SETS {
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
        assert_eq!(
            surface.get(0).expect("listed").registration,
            Registration::Direct
        );
        assert_eq!(
            surface.get(1).expect("listed").registration,
            Registration::ViaRouter
        );
        assert_eq!(
            surface.get(1).expect("listed").router_trigger,
            Some("gsd-ns-b")
        );
        assert_eq!(
            surface.get(2).expect("listed").registration,
            Registration::Direct
        );
    }

    /// A stem listed twice is one trigger, never its own shadow; the lenient resolver keeps
    /// the peer's answer, which lists it twice.
    #[test]
    fn a_repeated_stem_is_one_trigger() {
        let reg = Registry::first_party();
        let input = stems(&["help", "plan", "help"]);
        let once = stems(&["help", "plan"]);
        let scopes = [Scope::Global];
        let surface = resolve_trigger_surface(reg, "claude", &scopes, &input).expect("surface");
        let expected = resolve_trigger_surface(reg, "claude", &scopes, &once).expect("surface");
        assert_eq!(surface.len(), 2);
        assert_eq!(surface, expected);
        assert!(surface.iter().all(|t| t.shadowed_by.is_none()));
        let lenient =
            resolve_trigger_surface_lenient(reg, "claude", &scopes, &input).expect("surface");
        assert_eq!(lenient.len(), 3);
        assert!(lenient.get(2).expect("listed").shadowed_by.is_some());
    }

    /// The routes found once are the routers looked up one stem at a time, for any
    /// commands, routers and owner lists over a few names: so stems that are routers,
    /// children whose first owner is not a router, repeated owners, repeated routers, and
    /// children of nobody all occur.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn routes_found_once_are_the_routes_looked_up(
        commands: Vec<u8>,
        routers: Vec<u8>,
        owned: Vec<(u8, Vec<u8>)>,
    ) -> bool {
        let (commands, routers, child_to_routers) = routing_case(&commands, &routers, &owned);
        let table = Routes::new(&commands, &routers, &child_to_routers);
        let set: BTreeSet<&str> = routers.iter().map(String::as_str).collect();
        commands
            .iter()
            .enumerate()
            .all(|(i, stem)| table.named(i, &routers) == via_router(stem, &child_to_routers, &set))
            && table.named(commands.len(), &routers).is_none()
    }
}

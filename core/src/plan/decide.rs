//! The plan decided before it is spelled out.
//!
//! [`decide_install_plan`] does every check and every choice of a plan — scope, layout,
//! which stems are planned, which destinations are confined, how many placements,
//! triggers and shadowed triggers there are — and raises every error
//! [`super::resolve_install_plan`] would raise. What it leaves for later is spelling the
//! large sections out as records (one string per destination, per trigger, per
//! diagnostic): [`PlanDecision::placements`], [`PlanDecision::triggers`] and
//! [`PlanDecision::diagnostics`] build them on demand, and [`PlanDecision::into_plan`]
//! builds the whole [`Plan`]. `resolve_install_plan` is `decide` followed by `into_plan`,
//! so both give the same plan by construction.
//!
//! An [`Inventory`] holds the source stems checked once, for callers that plan many times
//! over the same package (a binding keeps one behind a handle).

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, Severity};
use crate::error::Error;
use crate::home::Provenance;
use crate::host::Host;
use crate::intent::{ConfigIntent, Hooks};
use crate::layout::{ArtifactKind, ConfinedRoot, kinds_of};
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::scope::{ResolvedScope, lookup_runtime, scope_of};
use crate::trigger::{Routes, Stems, TriggerSurface, Triggers, has_duplicates, surface_counts};
use crate::vocab::{ArtifactKindName, Scope};

use super::placement::{agent_file_extension, placements_checked, placements_plain, plain_count};
use super::{
    Inputs, InstallManifestRecord, Placements, Plan, ProfileSelection, UninstallItem, check_host,
    check_stems, select, shadow_diagnostics, trigger_routers,
};

/// The bytes [`PlanDecision::placements`] reserves per placement for its stem (twice: as
/// the stem, and in the source), beyond the root: a little over the first-party stems' 18.
const AVERAGE_STEM: usize = 20;
/// The bytes of a source beyond its stem (`commands/gsd/`, `.md`).
const SOURCE_PARTS: usize = 16;
/// The bytes of a destination beyond its root and stem (`/`, a prefix, `/SKILL.md`).
const DEST_PARTS: usize = 16;

/// The source inventory of a package, every stem checked once: command stems
/// (`commands/gsd/<stem>.md`), agent stems (`agents/<stem>.md`), router stems (`ns-*`) and
/// the routed children of each router, as in [`super::PlanRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inventory {
    commands: Vec<String>,
    agents: Vec<String>,
    router_stems: Vec<String>,
    child_to_routers: BTreeMap<String, Vec<String>>,
    /// Whether `commands` and `agents` list no stem twice.
    distinct: (bool, bool),
    /// See [`Inputs::nested_skills`].
    nested_skills: Option<usize>,
    /// See [`Inputs::routes`]: found when `commands` lists no stem twice and there are
    /// routers.
    routes: Option<Routes>,
}

impl Inventory {
    /// Checks every stem as [`super::resolve_install_plan`] does and keeps them.
    ///
    /// # Errors
    /// [`crate::ErrorCode::InvalidArgument`] naming the first stem that is empty, `.`/`..`,
    /// or contains `/`, `\`, a control, bidi or invisible character (`commands[3]`,
    /// `childToRouters.<child>`, ...).
    pub fn new(
        commands: Vec<String>,
        agents: Vec<String>,
        router_stems: Vec<String>,
        child_to_routers: BTreeMap<String, Vec<String>>,
    ) -> Result<Self, Error> {
        check_stems(&commands, &agents, &router_stems, &child_to_routers)?;
        let distinct = (!has_duplicates(&commands), !has_duplicates(&agents));
        let routes = (distinct.0 && !router_stems.is_empty())
            .then(|| Routes::new(&commands, &router_stems, &child_to_routers));
        // Without routers every stem is placed once.
        let nested_skills = distinct
            .0
            .then(|| routes.as_ref().map_or(commands.len(), Routes::nested_count));
        Ok(Self {
            commands,
            agents,
            router_stems,
            child_to_routers,
            distinct,
            nested_skills,
            routes,
        })
    }

    /// Command stems, in the given order.
    #[must_use]
    pub fn commands(&self) -> &[String] {
        &self.commands
    }

    /// Agent stems, in the given order.
    #[must_use]
    pub fn agents(&self) -> &[String] {
        &self.agents
    }

    /// Router command stems.
    #[must_use]
    pub fn router_stems(&self) -> &[String] {
        &self.router_stems
    }

    /// Routed child stem → owning routers.
    #[must_use]
    pub fn child_to_routers(&self) -> &BTreeMap<String, Vec<String>> {
        &self.child_to_routers
    }

    fn inputs<'a>(&'a self, cwd: &'a str, profile: Option<&'a ProfileSelection>) -> Inputs<'a> {
        Inputs {
            cwd,
            commands: &self.commands,
            agents: &self.agents,
            router_stems: &self.router_stems,
            child_to_routers: &self.child_to_routers,
            profile,
            distinct: self.distinct,
            nested_skills: self.nested_skills,
            routes: self.routes.as_ref(),
        }
    }
}

/// The lengths of a plan's large sections.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanCounts {
    /// `placements.len()`.
    pub placements: usize,
    /// `triggers.len()`.
    pub triggers: usize,
    /// `diagnostics.len()`.
    pub diagnostics: usize,
}

/// A decided plan: every check done, the large sections spelled out on demand.
#[derive(Debug)]
pub struct PlanDecision<'a> {
    descriptor: &'a RuntimeDescriptor,
    inputs: Inputs<'a>,
    commands: Stems<'a>,
    agents: Stems<'a>,
    agent_ext: &'a str,
    /// The placements of every kind some destination of which needed resolving, by index
    /// into `head.kinds`, built (and checked) at decision time; every other kind's
    /// destinations are its root plus plain relative parts, built on demand. Usually empty
    /// (nothing allocated).
    checked: Vec<(usize, Placements)>,
    head: Plan,
    counts: PlanCounts,
}

/// Diagnostic code: the config directory came out relative (from `explicitDir` or an
/// environment override), so the install goes under the working directory.
pub const CODE_CONFIG_HOME_RELATIVE: &str = "config_home_relative";
/// Diagnostic code: an explicit config directory does not hold one of the layout's kind
/// directories (the runtime roots it in the home directory).
pub const CODE_OUTSIDE_EXPLICIT_DIR: &str = "placement_outside_explicit_dir";

/// Whether [`where_notes`] may have something to say: only a config directory the caller
/// chose (`explicitDir`, an environment override) can be relative or leave a kind out.
/// Checked inline, so the common plan pays no call for it.
#[inline]
fn has_notes(scope: &ResolvedScope) -> bool {
    matches!(
        scope.provenance,
        Provenance::ExplicitDir { .. } | Provenance::EnvVar { .. }
    )
}

/// What [`where_notes`] warns about, found without writing a message (a decision only
/// counts them): whether the config directory is relative, and the kinds an explicit one
/// does not hold. `None` when the directory is not the caller's choice.
struct WhereFacts<'k> {
    /// `true` when the config directory is relative.
    relative: bool,
    /// The config directory resolved against `cwd`.
    root: String,
    /// The kinds outside an explicit config directory (none for an environment override).
    outside: Vec<&'k ArtifactKind>,
}

impl<'k> WhereFacts<'k> {
    fn of(scope: &ResolvedScope, kinds: &'k [ArtifactKind], cwd: &str) -> Option<Self> {
        let explicit = match scope.provenance {
            Provenance::ExplicitDir { .. } => true,
            Provenance::EnvVar { .. } => false,
            _ => return None,
        };
        let root = path::resolve(cwd, &[&scope.config_home]);
        let outside = if explicit {
            kinds
                .iter()
                .filter(|k| !path::is_within(&root, &k.dest_dir))
                .collect()
        } else {
            Vec::new()
        };
        Some(Self {
            relative: !path::is_absolute(&scope.config_home),
            root,
            outside,
        })
    }

    /// How many notes they make.
    fn count(&self) -> usize {
        usize::from(self.relative) + self.outside.len()
    }
}

/// Warnings on where a plan installs that the caller may not expect, both as the peer
/// installs: a config directory that is relative (its files go under `cwd`, for a global
/// install too), and kind directories an explicit config directory does not hold (a
/// layout rooted in the home directory, codex's and antigravity's).
fn where_notes(scope: &ResolvedScope, kinds: &[ArtifactKind], cwd: &str) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let Some(facts) = WhereFacts::of(scope, kinds, cwd) else {
        return notes;
    };
    // The field names the input the directory came from.
    let field = match &scope.provenance {
        Provenance::EnvVar { name, .. } => format!("host.env.{name}"),
        _ => "explicitDir".to_owned(),
    };
    let home = &scope.config_home;
    if facts.relative {
        let resolved = &facts.root;
        notes.push(
            Diagnostic::new(
                CODE_CONFIG_HOME_RELATIVE,
                Severity::Warning,
                format!(
                    "the config directory {} is relative: the install goes under the working directory, into {}",
                    path::quoted(home),
                    path::quoted(resolved)
                ),
            )
            .with_field(field.clone())
            .with_detail(serde_json::json!({ "configHome": home, "resolved": resolved })),
        );
    }
    for kind in facts.outside {
        notes.push(
            Diagnostic::new(
                CODE_OUTSIDE_EXPLICIT_DIR,
                Severity::Warning,
                format!(
                    "the {} directory {} is outside the explicit config directory {}: the runtime's layout roots it in the home directory",
                    kind.kind,
                    path::quoted(&kind.dest_dir),
                    path::quoted(&facts.root)
                ),
            )
            .with_field(field.clone())
            .with_detail(serde_json::json!({ "kind": kind.kind, "destDir": kind.dest_dir })),
        );
    }
    notes
}

/// Decides the install plan of `runtime` at `scope` over a checked [`Inventory`].
///
/// # Errors
/// As [`super::resolve_install_plan`], except stem errors, which [`Inventory::new`] raised.
pub fn decide_install_plan<'a>(
    registry: &'a Registry,
    runtime: &'a str,
    scope: Scope,
    host: &'a Host,
    explicit_dir: Option<&'a str>,
    inventory: &'a Inventory,
    profile: Option<&'a ProfileSelection>,
) -> Result<PlanDecision<'a>, Error> {
    let descriptor = lookup_runtime(registry, runtime)?;
    check_host(host, explicit_dir)?;
    decide(
        descriptor,
        runtime,
        scope,
        host,
        explicit_dir,
        inventory.inputs(&host.cwd, profile),
    )
}

/// [`decide_install_plan`] of a known runtime over checked inputs.
pub(super) fn decide<'a>(
    descriptor: &'a RuntimeDescriptor,
    runtime: &str,
    scope: Scope,
    host: &Host,
    explicit_dir: Option<&str>,
    inputs: Inputs<'a>,
) -> Result<PlanDecision<'a>, Error> {
    let resolved = scope_of(descriptor, runtime, scope, host, explicit_dir)?;
    let layout_kinds = kinds_of(descriptor, runtime, &resolved.config_home, scope, host)?;
    let profile = inputs.profile;
    let commands = select(
        inputs.commands,
        profile.and_then(|p| p.skills.as_ref()),
        inputs.distinct.0,
    );
    let agents = select(
        inputs.agents,
        profile.and_then(|p| p.agents.as_ref()),
        inputs.distinct.1,
    );
    let mut agent_ext = ".md";
    let mut checked = Vec::new();
    let mut placements = 0;
    for (index, kind) in layout_kinds.iter().enumerate() {
        if kind.kind == ArtifactKindName::Agents {
            agent_ext = agent_file_extension(descriptor)?;
        }
        // Every `dest_dir` of the layout is absolute and normal.
        let root = ConfinedRoot::resolved(inputs.cwd, &kind.dest_dir);
        if let Some(count) = plain_count(&root, kind, agent_ext, &inputs, &commands, &agents) {
            placements += count;
        } else {
            let mut out = Placements::default();
            placements_checked(
                &mut out, &root, kind, agent_ext, &inputs, &commands, &agents,
            )?;
            placements += out.len();
            checked.push((index, out));
        }
    }
    // Only counted here, without writing a message; the notes are written when asked for.
    let notes = if has_notes(&resolved) {
        WhereFacts::of(&resolved, &layout_kinds, inputs.cwd).map_or(0, |facts| facts.count())
    } else {
        0
    };
    let (triggers, diagnostics) = surface_counts(
        descriptor,
        &[scope],
        &commands,
        (trigger_routers(&inputs), inputs.child_to_routers),
        true,
    );
    let head = Plan {
        runtime: runtime.to_owned(),
        command_style: descriptor.command_style,
        config: ConfigIntent::of(descriptor),
        hooks: Hooks::of(descriptor),
        sandbox_tier: descriptor.sandbox_tier,
        support_tier: descriptor.support_tier,
        uninstall: layout_kinds
            .iter()
            .map(|k| UninstallItem {
                kind: k.kind,
                dest_dir: k.dest_dir.clone(),
            })
            .collect(),
        kinds: layout_kinds,
        placements: Placements::default(),
        triggers: Triggers::default(),
        install_manifest: InstallManifestRecord {
            manifest_version: crate::install_manifest::MANIFEST_SCHEMA_VERSION,
            runtime: runtime.to_owned(),
            scope,
        },
        diagnostics: Vec::new(),
        scope: resolved,
    };
    Ok(PlanDecision {
        descriptor,
        inputs,
        commands,
        agents,
        agent_ext,
        checked,
        counts: PlanCounts {
            placements,
            triggers,
            diagnostics: notes + diagnostics,
        },
        head,
    })
}

impl PlanDecision<'_> {
    /// The plan without its large sections: every field is final except `placements`,
    /// `triggers` and `diagnostics`, which are empty here (see [`Self::counts`]).
    #[must_use]
    pub fn head(&self) -> &Plan {
        &self.head
    }

    /// The lengths the large sections will have.
    #[must_use]
    pub fn counts(&self) -> PlanCounts {
        self.counts
    }

    /// Every file to write, by kind (layout order) then stem (inventory order).
    #[must_use]
    pub fn placements(&self) -> Placements {
        // Room for a stem, a source and a destination under the longest root per placement,
        // so the buffer seldom grows.
        let root = self.head.kinds.iter().map(|k| k.dest_dir.len()).max();
        let per_placement = 2 * AVERAGE_STEM + SOURCE_PARTS + root.unwrap_or(0) + DEST_PARTS;
        let mut out = Placements::with_capacity(
            self.counts.placements,
            self.counts.placements * per_placement,
        );
        for (index, kind) in self.head.kinds.iter().enumerate() {
            match self.checked.iter().find(|(i, _)| *i == index) {
                Some((_, list)) => out.append(list),
                None => placements_plain(
                    &mut out,
                    &ConfinedRoot::resolved(self.inputs.cwd, &kind.dest_dir),
                    kind,
                    self.agent_ext,
                    &self.inputs,
                    &self.commands,
                    &self.agents,
                ),
            }
        }
        out
    }

    /// The trigger surface at the plan's scope.
    #[must_use]
    pub fn triggers(&self) -> Triggers {
        self.trigger_surface().to_triggers()
    }

    /// The trigger surface at the plan's scope as parts: [`Self::triggers`] without its
    /// strings built (a binding writes them straight into what it sends).
    #[must_use]
    pub fn trigger_surface(&self) -> TriggerSurface<'_> {
        TriggerSurface::new(
            self.descriptor,
            &[self.head.install_manifest.scope],
            &self.commands,
            (trigger_routers(&self.inputs), self.inputs.child_to_routers),
            self.inputs
                .routes
                .filter(|_| self.commands.is_all_of(self.inputs.commands)),
            true,
        )
    }

    /// The plan's diagnostics: where it installs what a caller may not expect
    /// (`config_home_relative`, `placement_outside_explicit_dir`), then one
    /// `trigger_shadowed` warning per shadowed trigger.
    #[must_use]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.notes();
        all.extend(shadow_diagnostics(&self.head.runtime, &self.triggers()));
        all
    }

    /// What the plan says about where it installs ([`where_notes`]). Usually empty.
    fn notes(&self) -> Vec<Diagnostic> {
        if has_notes(&self.head.scope) {
            where_notes(&self.head.scope, &self.head.kinds, self.inputs.cwd)
        } else {
            Vec::new()
        }
    }

    /// The whole plan.
    #[must_use]
    pub fn into_plan(self) -> Plan {
        let placements = self.placements();
        let triggers = self.triggers();
        let mut diagnostics = self.notes();
        diagnostics.extend(shadow_diagnostics(&self.head.runtime, &triggers));
        Plan {
            placements,
            triggers,
            diagnostics,
            ..self.head
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::placement::placements_checked;

    /// A layout mixing kinds whose destinations need resolving (a prefix with `..` or `//`)
    /// with plain ones: the decision keeps the resolved placements of the first by kind
    /// index and spells the others out on demand, in layout order, and the whole list is
    /// every kind resolved one after the other.
    #[test]
    fn checked_kinds_keep_their_place_in_the_layout() {
        let registry = Registry::first_party();
        let mut descriptor = registry.runtime("claude").cloned().expect("claude");
        let plain = descriptor.artifact_layout.local[0].clone();
        let odd = |kind: ArtifactKindName, prefix: &str| crate::manifest::LayoutEntry {
            kind,
            prefix: prefix.into(),
            ..plain.clone()
        };
        descriptor.artifact_layout.local = vec![
            odd(ArtifactKindName::Commands, "gsd-"),
            odd(ArtifactKindName::Commands, "x/../gsd-"),
            odd(ArtifactKindName::Agents, "gsd-"),
            odd(ArtifactKindName::Commands, "a//"),
            odd(ArtifactKindName::Commands, ""),
        ];
        let host = Host::new("/h", "/w");
        let inventory = Inventory::new(
            ["help", "plan"].map(String::from).to_vec(),
            ["gsd-a"].map(String::from).to_vec(),
            Vec::new(),
            BTreeMap::new(),
        )
        .expect("inventory");
        let decision = decide(
            &descriptor,
            "claude",
            Scope::Local,
            &host,
            None,
            inventory.inputs(&host.cwd, None),
        )
        .expect("decision");
        let indices: Vec<usize> = decision.checked.iter().map(|(i, _)| *i).collect();
        assert_eq!(indices, [1, 3], "the odd prefixes are resolved");
        let mut expected = Placements::default();
        for kind in &decision.head.kinds {
            placements_checked(
                &mut expected,
                &ConfinedRoot::new(&host.cwd, &kind.dest_dir),
                kind,
                ".md",
                &decision.inputs,
                &decision.commands,
                &decision.agents,
            )
            .expect("placements");
        }
        assert_eq!(expected.len(), 9);
        assert_eq!(
            expected.get(2).expect("third").destination,
            "/w/.claude/commands/gsd-help.md"
        );
        assert_eq!(decision.counts().placements, expected.len());
        assert_eq!(decision.placements(), expected);
    }
}

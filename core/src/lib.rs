//! gsd-core decides how GSD is installed into an AI coding host CLI.
//!
//! Every per-runtime difference is data: a `role: "runtime"` capability descriptor over a
//! closed vocabulary ([`vocab`]). The core turns *(runtime × scope × registry × host facts)*
//! into one immutable [`Plan`] value. It does no IO: the host (home, cwd, environment,
//! which probe paths exist) is plain data passed in, and the caller performs the writes.
//!
//! # Example
//!
//! A global install plan for Claude Code, for a package of two commands and one agent:
//!
//! ```
//! use gsd_core::{Host, PlanRequest, Registry, Scope, resolve_install_plan};
//!
//! let registry = Registry::first_party();
//! let request = PlanRequest {
//!     runtime: "claude".to_owned(),
//!     scope: "global".parse::<Scope>()?,
//!     host: Host::new("/home/u", "/work/project"),
//!     explicit_dir: None,
//!     commands: vec!["help".to_owned(), "plan-phase".to_owned()],
//!     agents: vec!["gsd-planner".to_owned()],
//!     router_stems: Vec::new(),
//!     child_to_routers: Default::default(),
//!     profile: None,
//! };
//! let plan = resolve_install_plan(registry, &request)?;
//! assert_eq!(plan.scope.config_home, "/home/u/.claude");
//! // Claude Code takes commands as skills: one folder per command, plus the agent.
//! let destinations: Vec<&str> = plan.placements.iter().map(|p| p.destination).collect();
//! assert_eq!(
//!     destinations,
//!     [
//!         "/home/u/.claude/skills/gsd-help/SKILL.md",
//!         "/home/u/.claude/skills/gsd-plan-phase/SKILL.md",
//!         "/home/u/.claude/agents/gsd-planner.md",
//!     ]
//! );
//! // Each command occupies one trigger, and nothing here shadows another.
//! let triggers: Vec<&str> = plan.triggers.iter().map(|t| t.trigger).collect();
//! assert_eq!(triggers, ["gsd-help", "gsd-plan-phase"]);
//! assert!(plan.triggers.iter().all(|t| t.shadowed_by.is_none()));
//! # Ok::<(), gsd_core::Error>(())
//! ```
//!
//! Every per-runtime fact is read from the runtime's descriptor:
//!
//! ```
//! use gsd_core::{Registry, Scope};
//!
//! let registry = Registry::first_party();
//! let claude = registry.runtime("claude").expect("claude is a first-party runtime");
//! assert_eq!(claude.settings_file(Scope::Global), Some("settings.json"));
//! ```
#![deny(missing_docs)]

/// `as_str` (the wire spelling, as serde writes the value) and `Display` by it, for a
/// closed enum outside the vocabulary (whose enums get theirs from `vocab`).
macro_rules! wire_names {
    ($name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $name {
            /// The wire spelling, as the value serializes.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub mod cross;
#[cfg(test)]
mod deep_test;
pub mod descriptor_intent;
pub mod diagnostic;
pub mod doc;
pub mod embedded;
pub mod error;
pub mod home;
pub mod hook_order;
pub mod host;
pub mod index;
pub mod install_choice;
pub mod install_manifest;
pub mod intent;
mod js;
mod json;
pub mod layout;
pub mod manifest;
mod packed;
pub mod path;
pub mod plan;
pub mod profile;
pub mod registry;
pub mod requires_graph;
pub mod sanitize;
pub mod scope;
pub mod shadow;
pub mod skills_base;
pub mod slash;
pub mod staging;
pub mod strict;
pub mod surface;
pub mod trigger;
pub mod validate;
pub mod vocab;
mod words;

pub use cross::{validate_cross, validate_data_flow};
pub use descriptor_intent::{DescriptorIntent, descriptor_intent};
pub use diagnostic::{Detail, Diagnostic, Severity, ShadowDetail};
pub use error::{Error, ErrorCode};
pub use home::{Provenance, probe_paths, resolve_config_home};
pub use hook_order::{HookEntry, order_hook_entries};
pub use host::Host;
pub use index::{Index, PlacedHook, PointHooks};
pub use install_choice::{
    ProfileSource, effective_profile, explicit_runtime, parse_profile_marker, resolve_runtime,
};
pub use install_manifest::{
    InstallManifest, InstallManifestDocument, InstallManifestRead, ManifestMode,
    read_install_manifest, read_install_manifest_bytes,
};
pub use intent::{ConfigIntent, Hooks, InstallIntent, install_intent};
pub use layout::{
    ArtifactKind, Layout, compose_command_filename, is_namespaced_by_dir, resolve_layout,
};
pub use manifest::{ArtifactLayout, Capability, ConfigHome, LayoutEntry, RuntimeDescriptor};
pub use plan::{
    InstallManifestRecord, Inventory, Placement, PlacementIter, Placements, Plan, PlanCounts,
    PlanDecision, PlanRequest, PlanSet, ProfileSelection, Routers, UninstallItem,
    decide_install_plan, derive_routers, resolve_install_plan, resolve_install_plans,
};
pub use profile::{
    CommandSource, ProfileSkills, ProfileSources, ResolvedProfile, SkillsManifest, WorkflowSource,
    resolve_profile,
};
pub use registry::{Overlay, Registry};
pub use requires_graph::{RequiresEntry, detect_requires_cycles, requires_closure_of};
pub use scope::{
    ResolvedScope, SCOPE_ORDER, parse_scope, parse_scopes, resolve_scope, scope_probe_paths,
};
pub use shadow::{
    ManifestMismatch, ShadowReason, ShadowReport, ShadowSide, ShadowedTrigger, build_shadow_report,
    render_shadow_report, sanitize_for_render,
};
pub use skills_base::{
    global_config_dir, global_dirs_probe_paths, global_skill_dir, global_skill_display_path,
    global_skills_base, skills_base_from_descriptor,
};
pub use slash::{canonicalize_runtime_name, format_gsd_slash, normalize_runtime_name};
pub use staging::{StagingPlan, StagingRequest, staging_plan};
pub use surface::{
    ConfigHomeFacts, HomeProbe, InstalledRuntimeSurface, InstalledScope, InstalledSurfaces,
    SurfaceFacts, host_probe_paths, probe_requests, resolve_installed_surfaces,
};
pub use trigger::{
    Registration, ShadowedBy, Trigger, TriggerInput, TriggerIter, TriggerParts, TriggerSurface,
    Triggers, resolve_trigger_surface, resolve_trigger_surface_lenient,
};
pub use validate::{
    Body, ParsedManifest, parse_manifest, validate_body, validate_capability, warning_records,
};
pub use vocab::Scope;

#[cfg(test)]
mod wire_name_tests {
    use super::*;
    use install_manifest::ManifestMode as M;
    use shadow::ShadowReason as R;
    use staging::BodyRewrite as B;

    /// Each `wire_names!` spelling is the one serde writes, and `Display` prints it.
    #[test]
    fn as_str_and_display_are_the_serialized_spelling() {
        fn check<T: serde::Serialize + std::fmt::Display>(value: &T, spelled: &str) {
            assert_eq!(serde_json::to_value(value).unwrap(), spelled);
            assert_eq!(value.to_string(), spelled);
        }
        for v in [Severity::Info, Severity::Warning, Severity::Error] {
            check(&v, v.as_str());
        }
        for v in [R::NotShadowed, R::ScopeShadowed, R::ResolverUnavailable] {
            check(&v, v.as_str());
        }
        for v in [Registration::Direct, Registration::ViaRouter] {
            check(&v, v.as_str());
        }
        for v in [B::CommandBodies, B::SkillBodies] {
            check(&v, v.as_str());
        }
        for v in [M::Minimal, M::Full] {
            check(&v, v.as_str());
        }
    }
}

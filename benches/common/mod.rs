//! Inputs shared by the criterion benches and the callgrind workload: the peer package's
//! real source inventory and synthetic overlays.

#![allow(dead_code)] // Reason: each bench target uses a different subset of these helpers.

use std::collections::BTreeMap;
use std::path::PathBuf;

use gsd_core::{Host, Overlay, PlanRequest, Registry, Scope};

/// The source inventory an installer reads from the GSD package.
pub struct Inventory {
    /// `commands/gsd/*.md` stems, sorted.
    pub commands: Vec<String>,
    /// `agents/*.md` stems, sorted.
    pub agents: Vec<String>,
    /// `ns-*` router stems.
    pub routers: Vec<String>,
    /// Routed child → owning routers (from each router's `requires: [..]`).
    pub child_to_routers: BTreeMap<String, Vec<String>>,
}

fn package_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../npm/node_modules/@opengsd/gsd-core")
}

fn markdown_stems(dir: &PathBuf) -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".md")
                        .map(str::to_owned)
                })
                .collect()
        })
        .unwrap_or_default();
    stems.sort();
    stems
}

/// `requires: [a, b]` of a command's front matter.
fn front_matter_requires(text: &str) -> Vec<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("requires:"))
        .and_then(|rest| {
            let rest = rest.trim();
            rest.strip_prefix('[')?.strip_suffix(']').map(|inner| {
                inner
                    .split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
        })
        .unwrap_or_default()
}

/// The peer package's inventory (72 commands, 64 agents, 6 routers in 1.14.0). Panics when
/// the package is not installed: the figures are only comparable on the real inputs.
pub fn inventory() -> Inventory {
    let root = package_root();
    let commands_dir = root.join("commands/gsd");
    let commands = markdown_stems(&commands_dir);
    assert!(
        !commands.is_empty(),
        "peer package not installed at {}: run (cd npm && npm ci)",
        root.display()
    );
    let agents = markdown_stems(&root.join("agents"));
    let routers: Vec<String> = commands
        .iter()
        .filter(|s| s.starts_with("ns-"))
        .cloned()
        .collect();
    let mut child_to_routers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for router in &routers {
        let text =
            std::fs::read_to_string(commands_dir.join(format!("{router}.md"))).unwrap_or_default();
        for child in front_matter_requires(&text) {
            child_to_routers
                .entry(child)
                .or_default()
                .push(router.clone());
        }
    }
    Inventory {
        commands,
        agents,
        routers,
        child_to_routers,
    }
}

/// Every runtime that has an installable config directory (all but vscode).
pub fn installable_runtimes(registry: &Registry) -> Vec<String> {
    registry
        .runtime_ids()
        .filter(|id| {
            registry
                .runtime(id)
                .is_some_and(|d| d.config_home.kind != gsd_core::vocab::ConfigHomeKind::None)
        })
        .map(str::to_owned)
        .collect()
}

/// The plan request of one runtime at one scope over the real inventory.
/// The inventory checked once, as a binding keeps it behind a handle.
#[allow(dead_code)] // Reason: not every bench binary that includes this module uses it.
pub fn checked_inventory(inv: &Inventory) -> gsd_core::Inventory {
    gsd_core::Inventory::new(
        inv.commands.clone(),
        inv.agents.clone(),
        inv.routers.clone(),
        inv.child_to_routers.clone(),
    )
    .expect("the package's stems are plain")
}

pub fn plan_request(inv: &Inventory, runtime: &str, scope: Scope, salt: usize) -> PlanRequest {
    let home = format!("/home/bench-{salt}");
    let mut host = Host::new(home.clone(), format!("/work/project-{salt}"));
    host.env
        .insert("XDG_CONFIG_HOME".into(), format!("{home}/.config-{salt}"));
    PlanRequest {
        runtime: runtime.to_owned(),
        scope,
        host,
        explicit_dir: None,
        commands: inv.commands.clone(),
        agents: inv.agents.clone(),
        router_stems: inv.routers.clone(),
        child_to_routers: inv.child_to_routers.clone(),
        profile: None,
    }
}

/// A plan from request JSON to plan JSON: the work a JSON boundary (the C ABI) adds to
/// [`gsd_core::resolve_install_plan`].
pub fn plan_json(registry: &Registry, request: &str) -> String {
    let request: PlanRequest = serde_json::from_str(request).expect("request JSON");
    let plan = gsd_core::resolve_install_plan(registry, &request).expect("plan");
    serde_json::to_string(&plan).expect("plan JSON")
}

/// A valid third-party feature overlay that owns one skill and one config key.
pub fn synthetic_overlay(i: usize) -> Overlay {
    let id = format!("ext-{i}");
    let manifest = format!(
        r#"{{"id":"{id}","role":"feature","version":"1.0.0","title":"Ext {i}","description":"Synthetic overlay {i}.","tier":"full","requires":[],"runtimeCompat":{{"supported":["*"],"unsupported":[]}},"skills":["ext-skill-{i}"],"agents":[],"config":{{"ext.key_{i}":{{"type":"boolean","default":true,"description":"Key {i}."}}}},"steps":[],"contributions":[],"gates":[]}}"#
    );
    Overlay {
        folder: id,
        manifest,
        fragments: Vec::new(),
    }
}

/// `n` synthetic trigger stems.
pub fn synthetic_stems(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("stem-{i}")).collect()
}

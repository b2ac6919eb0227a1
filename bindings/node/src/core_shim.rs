//! Temporary stand-in for the core's `Inventory` / `decide_install_plan` (removed once the
//! core exports them): computes the whole plan eagerly.

use std::collections::BTreeMap;

use gsd_core::{
    Diagnostic, Error, Host, Placement, Plan, PlanRequest, ProfileSelection, Registry, Scope,
    Trigger,
};

#[derive(Debug)]
pub struct Inventory {
    commands: Vec<String>,
    agents: Vec<String>,
    router_stems: Vec<String>,
    child_to_routers: BTreeMap<String, Vec<String>>,
}

impl Inventory {
    pub fn new(
        commands: Vec<String>,
        agents: Vec<String>,
        router_stems: Vec<String>,
        child_to_routers: BTreeMap<String, Vec<String>>,
    ) -> Result<Inventory, Error> {
        let inv = Inventory {
            commands,
            agents,
            router_stems,
            child_to_routers,
        };
        let request = inv.request("claude", Scope::Global, &Host::new("/h", "/w"), None, None);
        gsd_core::resolve_install_plan(Registry::first_party(), &request)?;
        Ok(inv)
    }

    fn request(
        &self,
        runtime: &str,
        scope: Scope,
        host: &Host,
        explicit_dir: Option<&str>,
        profile: Option<&ProfileSelection>,
    ) -> PlanRequest {
        PlanRequest {
            runtime: runtime.to_owned(),
            scope,
            host: host.clone(),
            explicit_dir: explicit_dir.map(str::to_owned),
            commands: self.commands.clone(),
            agents: self.agents.clone(),
            router_stems: self.router_stems.clone(),
            child_to_routers: self.child_to_routers.clone(),
            profile: profile.cloned(),
        }
    }
}

pub struct PlanCounts {
    pub placements: usize,
    pub triggers: usize,
    pub diagnostics: usize,
}

pub struct PlanDecision {
    plan: Plan,
    head: Plan,
}

pub fn decide_install_plan(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    host: &Host,
    explicit_dir: Option<&str>,
    inventory: &Inventory,
    profile: Option<&ProfileSelection>,
) -> Result<PlanDecision, Error> {
    let request = inventory.request(runtime, scope, host, explicit_dir, profile);
    let plan = gsd_core::resolve_install_plan(registry, &request)?;
    let mut head = plan.clone();
    head.placements.clear();
    head.triggers.clear();
    head.diagnostics.clear();
    Ok(PlanDecision { plan, head })
}

impl PlanDecision {
    pub fn head(&self) -> &Plan {
        &self.head
    }
    pub fn counts(&self) -> PlanCounts {
        PlanCounts {
            placements: self.plan.placements.len(),
            triggers: self.plan.triggers.len(),
            diagnostics: self.plan.diagnostics.len(),
        }
    }
    pub fn placements(&self) -> Vec<Placement> {
        self.plan.placements.clone()
    }
    pub fn triggers(&self) -> Vec<Trigger> {
        self.plan.triggers.clone()
    }
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.plan.diagnostics.clone()
    }
    #[allow(dead_code)]
    pub fn into_plan(self) -> Plan {
        self.plan
    }
}

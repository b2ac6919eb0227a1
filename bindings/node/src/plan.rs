//! The install plan across the boundary, built for a cheap crossing.
//!
//! Inputs arrive as JSON text (`JSON.stringify` on the JS side, one `serde_json::from_str`
//! here) instead of being walked property by property through napi. The plan leaves as
//! JSON texts, one for its small fields together (the head) and one per large section
//! (placements, triggers, ...): JS parses the head at once and each section on first read.
//! Nothing stays native: a handle per plan would be freed only when Node runs its
//! finalizers, which a synchronous loop of plans never lets it do.
//!
//! A plan over an [`Inventory`] handle crosses in two steps instead: [`plan_head`] returns
//! the small fields, `kinds` and `uninstall`, and the *lengths* of the three large lists
//! (placements, triggers, diagnostics); JS keeps the call's inputs (texts and handles),
//! and the first read of a list calls [`plan_section`], which decides the plan again from
//! the same inputs (cheap: the core builds no list to decide) and returns that one list.

use gsd_core::{Host, Plan, PlanRequest, Registry as CoreRegistry};
use napi::Env;
use napi_derive::napi;
use serde::Serialize;

use crate::convert::{self, core};

use crate::error::{JsCode, JsResult, invalid_argument};
use crate::inventory::Inventory;

/// The plan's fields in serialization order, and whether each is a large section that JS
/// parses on first access (`true`) or a small one that crosses in the head (`false`).
pub const PLAN_FIELDS: [(&str, bool); 13] = [
    ("runtime", false),
    ("scope", false),
    ("commandStyle", false),
    ("config", false),
    ("hooks", false),
    ("sandboxTier", false),
    ("supportTier", false),
    ("kinds", true),
    ("placements", true),
    ("uninstall", true),
    ("triggers", true),
    ("installManifest", false),
    ("diagnostics", true),
];

/// One field of the plan as JSON text, by its JS name (`None` for an unknown name).
fn field(env: Env, plan: &Plan, name: &str) -> JsResult<Option<String>> {
    // Destructured in full so a field added to `Plan` fails to compile here until it is
    // listed in `PLAN_FIELDS` and below.
    let Plan {
        runtime,
        scope,
        command_style,
        config,
        hooks,
        sandbox_tier,
        support_tier,
        kinds,
        placements,
        uninstall,
        triggers,
        install_manifest,
        diagnostics,
    } = plan;
    let text = match name {
        "runtime" => convert::to_json(env, runtime)?,
        "scope" => convert::to_json(env, scope)?,
        "commandStyle" => convert::to_json(env, command_style)?,
        "config" => convert::to_json(env, config)?,
        "hooks" => convert::to_json(env, hooks)?,
        "sandboxTier" => convert::to_json(env, sandbox_tier)?,
        "supportTier" => convert::to_json(env, support_tier)?,
        "kinds" => convert::to_json(env, kinds)?,
        "placements" => convert::to_json(env, placements)?,
        "uninstall" => convert::to_json(env, uninstall)?,
        "triggers" => convert::to_json(env, triggers)?,
        "installManifest" => convert::to_json(env, install_manifest)?,
        "diagnostics" => convert::to_json(env, diagnostics)?,
        _ => return Ok(None),
    };
    Ok(Some(text))
}

/// The plan as texts: first the head (the small fields as one JSON object, in field
/// order), then each large section's JSON in field order.
fn sections(env: Env, plan: &Plan) -> JsResult<Vec<String>> {
    let mut head = String::with_capacity(1024);
    let mut out = vec![String::new()];
    head.push('{');
    for (name, large) in PLAN_FIELDS {
        let text = field(env, plan, name)?.ok_or_else(|| {
            invalid_argument(env, "section", &format!("no plan field named {name:?}"))
        })?;
        if large {
            out.push(text);
            continue;
        }
        if head.len() > 1 {
            head.push(',');
        }
        head.push_str(&convert::to_json(env, name)?);
        head.push(':');
        head.push_str(&text);
    }
    head.push('}');
    out[0] = head;
    Ok(out)
}

/// The plan's fields in serialization order: `[[name, large]]`, where a large section
/// crosses as its own text and is parsed on first access.
#[napi(catch_unwind, ts_return_type = "Array<[string, boolean]>")]
pub fn plan_fields() -> serde_json::Value {
    PLAN_FIELDS
        .iter()
        .map(|(name, large)| serde_json::json!([name, large]))
        .collect()
}

/// The install plan of a runtime at a scope as JSON texts: `[head, ...large sections]` (see
/// `planFields`). `host` is host data as JSON text (absent: the real machine); `options`
/// is JSON text of `{ explicitDir?, commands?, agents?, routerStems?, childToRouters?,
/// profile? }`.
#[napi(catch_unwind)]
pub fn resolve_install_plan_sections(
    env: Env,
    runtime: String,
    scope: String,
    host: Option<String>,
    options: Option<String>,
    registry: Option<&crate::Registry>,
) -> napi::Result<Vec<String>, JsCode> {
    let registry: &CoreRegistry = crate::registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let options: convert::PlanOptions = match options {
        Some(text) => convert::from_json(env, "options", &text)?,
        None => convert::PlanOptions::default(),
    };
    let explicit = options.explicit_dir.as_deref();
    let host = convert::host_json(env, host, |h| {
        gsd_core::scope_probe_paths(registry, &runtime, scope, h, explicit)
    })?;
    let request = PlanRequest {
        runtime,
        scope,
        host,
        explicit_dir: options.explicit_dir,
        commands: options.commands,
        agents: options.agents,
        router_stems: options.router_stems,
        child_to_routers: options.child_to_routers,
        profile: options.profile,
    };
    let plan = core(env, gsd_core::resolve_install_plan(registry, &request))?;
    sections(env, &plan)
}

/// The large lists a plan over an [`Inventory`] reads on first access; the head carries
/// their lengths in their place.
pub const LAZY_FIELDS: [&str; 3] = ["placements", "triggers", "diagnostics"];

/// The head of a plan over an inventory as it crosses: the plan's fields in
/// [`PLAN_FIELDS`] order, each of [`LAZY_FIELDS`] replaced by its length. The fields that
/// depend on neither the host nor the inventory (the runtime's constants: `runtime`,
/// `commandStyle`, `config`, `hooks`, `sandboxTier`, `supportTier`, `installManifest`)
/// are left out (`None`) when the caller already holds them for this registry, runtime
/// and scope.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Head<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    runtime: Option<&'a str>,
    scope: &'a gsd_core::ResolvedScope,
    #[serde(skip_serializing_if = "Option::is_none")]
    command_style: Option<gsd_core::vocab::CommandStyle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<&'a gsd_core::ConfigIntent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hooks: Option<&'a gsd_core::Hooks>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sandbox_tier: Option<gsd_core::vocab::SandboxTier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    support_tier: Option<u8>,
    kinds: &'a [gsd_core::ArtifactKind],
    placements: usize,
    uninstall: &'a [gsd_core::UninstallItem],
    triggers: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    install_manifest: Option<&'a gsd_core::InstallManifestRecord>,
    diagnostics: usize,
}

impl<'a> Head<'a> {
    /// The head of a decided plan: `head` without its large lists (empty there), `counts`
    /// their lengths; the runtime's constants only when `constants` is set.
    fn new(head: &'a Plan, counts: gsd_core::PlanCounts, constants: bool) -> Self {
        // Destructured in full so a field added to `Plan` fails to compile here.
        let Plan {
            runtime,
            scope,
            command_style,
            config,
            hooks,
            sandbox_tier,
            support_tier,
            kinds,
            placements: _,
            uninstall,
            triggers: _,
            install_manifest,
            diagnostics: _,
        } = head;
        Head {
            runtime: constants.then_some(runtime.as_str()),
            scope,
            command_style: constants.then_some(*command_style),
            config: constants.then_some(config),
            hooks: constants.then_some(hooks),
            sandbox_tier: constants.then_some(*sandbox_tier),
            support_tier: constants.then_some(*support_tier),
            kinds,
            placements: counts.placements,
            uninstall,
            triggers: counts.triggers,
            install_manifest: constants.then_some(install_manifest),
            diagnostics: counts.diagnostics,
        }
    }
}

/// The options of a plan over an inventory (`{ explicitDir?, profile? }` as JSON text).
fn decision_options(env: Env, options: Option<String>) -> JsResult<convert::DecisionOptions> {
    match options {
        Some(text) => convert::from_json(env, "options", &text),
        None => Ok(convert::DecisionOptions::default()),
    }
}

/// The head of the install plan of a runtime at a scope over an inventory handle:
/// `[head]`, or `[head, host]` when `host` is omitted. `head` is the plan's JSON object
/// with `placements`, `triggers` and `diagnostics` replaced by their lengths (read them
/// with `planSection`). `host` is host data as JSON text; when it is omitted the real
/// machine is read here, once, and returned as JSON text, so the sections are decided
/// for the very host the head describes. `options` is JSON text of
/// `{ explicitDir?, profile? }`. Without `constants` the head leaves out the fields that
/// depend only on the registry, the runtime and the scope (`runtime`, `commandStyle`,
/// `config`, `hooks`, `sandboxTier`, `supportTier`, `installManifest`), which the caller
/// keeps from an earlier head.
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // Reason: a plan's inputs plus the `constants` switch.
pub fn plan_head(
    env: Env,
    runtime: String,
    scope: String,
    host: Option<String>,
    options: Option<String>,
    inventory: &Inventory,
    constants: bool,
    registry: Option<&crate::Registry>,
) -> napi::Result<Vec<String>, JsCode> {
    let registry: &CoreRegistry = crate::registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let options = decision_options(env, options)?;
    let explicit = options.explicit_dir.as_deref();
    let real = host.is_none();
    let host: Host = convert::host_json(env, host, |h| {
        gsd_core::scope_probe_paths(registry, &runtime, scope, h, explicit)
    })?;
    let decision = core(
        env,
        gsd_core::decide_install_plan(
            registry,
            &runtime,
            scope,
            &host,
            explicit,
            &inventory.inner,
            options.profile.as_ref(),
        ),
    )?;
    let mut out = vec![convert::to_json(
        env,
        &Head::new(decision.head(), decision.counts(), constants),
    )?];
    if real {
        out.push(convert::to_json(env, &host)?);
    }
    Ok(out)
}

/// One large list of a plan over an inventory, as JSON text: `section` is one of
/// `placements`, `triggers` (both as rows, see [`crate::rows`]) and `diagnostics`
/// (records). The other arguments are those `planHead` was
/// given, with `host` always present (the text `planHead` returned for the real machine).
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // Reason: the inputs of `planHead` plus the section name.
pub fn plan_section(
    env: Env,
    section: String,
    runtime: String,
    scope: String,
    host: String,
    options: Option<String>,
    inventory: &Inventory,
    registry: Option<&crate::Registry>,
) -> napi::Result<String, JsCode> {
    let registry: &CoreRegistry = crate::registry_or_default(registry);
    let scope = core(env, gsd_core::parse_scope(&scope))?;
    let options = decision_options(env, options)?;
    let host: Host = convert::from_json(env, "host", &host)?;
    let decision = core(
        env,
        gsd_core::decide_install_plan(
            registry,
            &runtime,
            scope,
            &host,
            options.explicit_dir.as_deref(),
            &inventory.inner,
            options.profile.as_ref(),
        ),
    )?;
    match section.as_str() {
        "placements" => convert::to_json(env, &crate::rows::placements(&decision.placements())),
        "triggers" => convert::to_json(env, &crate::rows::triggers(&decision.triggers())),
        "diagnostics" => convert::to_json(env, &decision.diagnostics()),
        _ => Err(invalid_argument(
            env,
            "section",
            &format!("section must be one of {LAZY_FIELDS:?}, got {section:?}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_fields_are_the_serialized_keys_in_order() {
        let request = PlanRequest {
            runtime: "claude".to_owned(),
            scope: gsd_core::Scope::Global,
            host: gsd_core::Host {
                home: "/home/u".to_owned(),
                cwd: "/work/p".to_owned(),
                ..gsd_core::Host::default()
            },
            explicit_dir: None,
            commands: vec!["plan-phase".to_owned()],
            agents: Vec::new(),
            router_stems: Vec::new(),
            child_to_routers: std::collections::BTreeMap::new(),
            profile: None,
        };
        let plan = gsd_core::resolve_install_plan(CoreRegistry::first_party(), &request)
            .expect("claude plans at global scope");
        let serialized = serde_json::to_value(&plan).expect("a plan serializes");
        let keys: Vec<&str> = serialized
            .as_object()
            .expect("a plan is an object")
            .keys()
            .map(String::as_str)
            .collect();
        let listed: Vec<&str> = PLAN_FIELDS.iter().map(|(name, _)| *name).collect();
        assert_eq!(keys, listed);

        let counts = gsd_core::PlanCounts {
            placements: plan.placements.len(),
            triggers: plan.triggers.len(),
            diagnostics: plan.diagnostics.len(),
        };
        let head = serde_json::to_value(Head::new(&plan, counts, true)).expect("a head serializes");
        let head = head.as_object().expect("a head is an object");
        let head_keys: Vec<&str> = head.keys().map(String::as_str).collect();
        assert_eq!(head_keys, listed);
        for (name, value) in head {
            if LAZY_FIELDS.contains(&name.as_str()) {
                assert_eq!(
                    value.as_u64(),
                    serialized[name].as_array().map(|l| l.len() as u64)
                );
            } else {
                assert_eq!(value, &serialized[name], "{name}");
            }
        }
        let lean = serde_json::to_value(Head::new(&plan, counts, false)).expect("serializes");
        let lean_keys: Vec<&str> = lean
            .as_object()
            .expect("a head is an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            lean_keys,
            [
                "scope",
                "kinds",
                "placements",
                "uninstall",
                "triggers",
                "diagnostics"
            ]
        );
    }
}

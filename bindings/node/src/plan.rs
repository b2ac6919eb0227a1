//! The install plan across the boundary, built for a cheap crossing.
//!
//! Inputs arrive as JSON text (`JSON.stringify` on the JS side, one `serde_json::from_str`
//! here) instead of being walked property by property through napi. The plan leaves as
//! JSON texts, one for its small fields together (the head) and one per large section
//! (placements, triggers, ...): JS parses the head at once and each section on first read.
//! Nothing stays native: a handle per plan would be freed only when Node runs its
//! finalizers, which a synchronous loop of plans never lets it do.
//!
//! A plan over an [`Inventory`] handle crosses lazily instead: [`plan_head`] decides the
//! plan (every check, so every error raises at call time) and returns only the *lengths*
//! of the lists (placements, triggers, diagnostics, kinds and uninstall); [`plan_head_first`] adds
//! the runtime's constants (once per registry, runtime and scope) and the real host's data
//! (when none was given). JS keeps the call's inputs (texts and handles), and the first
//! read of `scope`, `kinds` or `uninstall` (together), or of a list, calls
//! [`plan_section`], which decides the plan again from the same inputs (cheap: the core
//! builds no list to decide) and returns that one part.

use gsd_core::{Host, Plan, PlanRequest, Registry as CoreRegistry};
use napi::Env;
use napi_derive::napi;
use serde::Serialize;

use crate::convert::{self, core};

use crate::error::{JsCode, JsResult, invalid_argument};
use crate::inventory::Inventory;
use crate::text::Text;

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
    let options = match options {
        Some(text) => convert::PlanOptions::from_json(env, &text)?,
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

/// What the first head of a registry, runtime and scope carries beside the lengths: the
/// fields that depend on neither the host nor the inventory (the runtime's constants:
/// `runtime`, `commandStyle`, `config`, `hooks`, `sandboxTier`, `supportTier`,
/// `installManifest`), in [`PLAN_FIELDS`] order. Later heads leave them out: JS keeps them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Constants<'a> {
    runtime: &'a str,
    command_style: gsd_core::vocab::CommandStyle,
    config: &'a gsd_core::ConfigIntent,
    hooks: &'a gsd_core::Hooks,
    sandbox_tier: gsd_core::vocab::SandboxTier,
    support_tier: u8,
    install_manifest: &'a gsd_core::InstallManifestRecord,
}

impl<'a> Constants<'a> {
    /// The runtime's constants of a decided plan.
    fn of(head: &'a Plan) -> Self {
        // Destructured in full so a field added to `Plan` fails to compile here.
        let Plan {
            runtime,
            scope: _,
            command_style,
            config,
            hooks,
            sandbox_tier,
            support_tier,
            kinds: _,
            placements: _,
            uninstall: _,
            triggers: _,
            install_manifest,
            diagnostics: _,
        } = head;
        Constants {
            runtime,
            command_style: *command_style,
            config,
            hooks,
            sandbox_tier: *sandbox_tier,
            support_tier: *support_tier,
            install_manifest,
        }
    }
}

/// The fields of a plan over an inventory that depend on the host but are not lists of
/// records: `scope`, `kinds` and `uninstall`, read together on first access of any of
/// them (section `head` of [`plan_section`]).
#[derive(Serialize)]
struct HostFields<'a> {
    scope: &'a gsd_core::ResolvedScope,
    kinds: &'a [gsd_core::ArtifactKind],
    uninstall: &'a [gsd_core::UninstallItem],
}

impl<'a> HostFields<'a> {
    /// The host-dependent small fields of a decided plan.
    fn of(head: &'a Plan) -> Self {
        HostFields {
            scope: &head.scope,
            kinds: &head.kinds,
            uninstall: &head.uninstall,
        }
    }
}

/// The options of a plan over an inventory (`{ explicitDir?, profile? }` as JSON text).
fn decision_options(env: Env, options: Option<String>) -> JsResult<convert::DecisionOptions> {
    match options {
        Some(text) => convert::DecisionOptions::from_json(env, &text),
        None => Ok(convert::DecisionOptions::default()),
    }
}

/// The parsed inputs of `planHead` / `planSection`: scope, options and host data.
fn plan_inputs(
    env: Env,
    scope: &str,
    options: Option<String>,
    host: &str,
) -> JsResult<(gsd_core::Scope, convert::DecisionOptions, Host)> {
    Ok((
        core(env, gsd_core::parse_scope(scope))?,
        decision_options(env, options)?,
        convert::from_json(env, "host", host)?,
    ))
}

/// The core's decision of a plan over an inventory (every check of the plan; an error
/// raises here with its code and field).
pub(crate) fn decide<'a>(
    env: Env,
    registry: &'a CoreRegistry,
    runtime: &'a str,
    scope: gsd_core::Scope,
    host: &'a Host,
    options: &'a convert::DecisionOptions,
    inventory: &'a gsd_core::Inventory,
) -> JsResult<gsd_core::PlanDecision<'a>> {
    core(
        env,
        gsd_core::decide_install_plan(
            registry,
            runtime,
            scope,
            host,
            options.explicit_dir.as_deref(),
            inventory,
            options.profile.as_ref(),
        ),
    )
}

/// The lengths a plan over an inventory crosses with: `[placements, triggers,
/// diagnostics, kinds]` (`kinds` is also the length of `uninstall`, one item per kind).
pub(crate) fn lengths(env: Env, decision: &gsd_core::PlanDecision<'_>) -> JsResult<Vec<u32>> {
    let counts = decision.counts();
    let kinds = decision.head().kinds.len();
    [
        counts.placements,
        counts.triggers,
        counts.diagnostics,
        kinds,
    ]
    .into_iter()
    .map(|n| {
        u32::try_from(n).map_err(|_| {
            invalid_argument(
                env,
                "result",
                &format!("a plan list of {n} records is too long"),
            )
        })
    })
    .collect()
}

/// The bits of each length in the one number [`plan_head`] returns, in the order of
/// [`lengths`]: placements, triggers and diagnostics below 65,536 each, kinds below 32 (53
/// bits in all, so the number is an exact integer in a JS double).
const PACKED_BITS: [u32; 4] = [16, 16, 16, 5];

/// The lengths packed in one number (`placements + triggers·2¹⁶ + diagnostics·2³² +
/// kinds·2⁴⁸`), or `-1` when one does not fit its bits. One number crosses napi for about
/// a sixth of the cost of an array of four.
pub(crate) fn packed(lengths: &[u32]) -> f64 {
    let mut out = 0.0;
    let mut scale = 1.0;
    for (&n, bits) in lengths.iter().zip(PACKED_BITS) {
        if n >= 1 << bits {
            return -1.0;
        }
        out += f64::from(n) * scale;
        scale *= f64::from(1_u32 << bits);
    }
    out
}

/// The lengths of the install plan of a runtime at a scope over an inventory handle,
/// packed in one number (see [`packed`]; `-1` when a length is too large to pack: ask
/// [`plan_head_first`], which returns them as a list), after every check of the plan (an
/// error raises here). Nothing else crosses: the runtime's constants come from an earlier
/// [`plan_head_first`], and `scope`, `kinds`, `uninstall` and the lists themselves from
/// `planSection` on first access. `host` is host data as JSON text; `options` is JSON text
/// of `{ explicitDir?, profile? }`.
#[napi(catch_unwind)]
pub fn plan_head(
    env: Env,
    runtime: String,
    scope: String,
    #[napi(ts_arg_type = "string")] host: Text,
    options: Option<String>,
    inventory: &Inventory,
    registry: Option<&crate::Registry>,
) -> napi::Result<f64, JsCode> {
    let registry: &CoreRegistry = crate::registry_or_default(registry);
    let (scope, options, host) = plan_inputs(env, &scope, options, &host)?;
    let inventory = &inventory.inner;
    let decision = decide(env, registry, &runtime, scope, &host, &options, inventory)?;
    Ok(packed(&lengths(env, &decision)?))
}

/// [`plan_head`] for the calls that need more than the lengths: the first of a registry,
/// runtime and scope (`constants` set), or one without host data (`host` omitted: the real
/// machine is read here, once). Returns `[lengths, constants, host]` as JSON texts:
/// `lengths` is `[placements, triggers, diagnostics, kinds]` (`kinds`: the length of
/// `kinds` and of `uninstall`), `constants` the runtime's
/// constants as a JSON object in plan field order (`""` without `constants`), `host` the
/// host data read (`""` when `host` was given), so the lazy fields are decided for the
/// very host the lengths describe.
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // Reason: a plan's inputs plus the `constants` switch.
pub fn plan_head_first(
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
    let inventory = &inventory.inner;
    let decision = decide(env, registry, &runtime, scope, &host, &options, inventory)?;
    Ok(vec![
        convert::to_json(env, &lengths(env, &decision)?)?,
        if constants {
            convert::to_json(env, &Constants::of(decision.head()))?
        } else {
            String::new()
        },
        if real {
            convert::to_json(env, &host)?
        } else {
            String::new()
        },
    ])
}

/// One lazy part of a plan over an inventory, as JSON text: `section` is one of
/// `placements`, `triggers` (both as rows, see [`crate::rows`]: fields text starting with
/// NUL for placements and segments text for triggers when every value allows it, JSON
/// rows otherwise; the segments start with U+0003 and leave the stems out when they are
/// the inventory's `commands`, in order, which the caller holds, and with U+0002
/// otherwise), `diagnostics` (records),
/// or `head`: `{ scope, kinds, uninstall }` together. The other arguments are those
/// `planHead` was given, with `host` always present (the text `planHeadFirst` returned for
/// the real machine).
#[napi(catch_unwind)]
#[allow(clippy::too_many_arguments)] // Reason: the inputs of `planHead` plus the section name.
pub fn plan_section(
    env: Env,
    section: String,
    runtime: String,
    scope: String,
    #[napi(ts_arg_type = "string")] host: Text,
    options: Option<String>,
    inventory: &Inventory,
    registry: Option<&crate::Registry>,
) -> napi::Result<String, JsCode> {
    let registry: &CoreRegistry = crate::registry_or_default(registry);
    let (scope, options, host) = plan_inputs(env, &scope, options, &host)?;
    let inventory = &inventory.inner;
    let decision = decide(env, registry, &runtime, scope, &host, &options, inventory)?;
    section_text(env, &decision, &section, inventory.commands())
}

/// One lazy part of a decided plan as text (see [`plan_section`]: segments, fields or JSON).
pub(crate) fn section_text(
    env: Env,
    decision: &gsd_core::PlanDecision<'_>,
    section: &str,
    held_stems: &[String],
) -> JsResult<String> {
    match section {
        "placements" => {
            let list = decision.placements();
            match crate::rows::placement_fields(&list) {
                Some(fields) => Ok(fields),
                None => convert::to_json(env, &crate::rows::placements(&list)),
            }
        }
        "triggers" => {
            let surface = decision.trigger_surface();
            match crate::rows::trigger_segments(&surface, held_stems) {
                Some(segments) => Ok(segments),
                None => convert::to_json(env, &crate::rows::triggers(&surface.to_triggers())),
            }
        }
        "diagnostics" => convert::to_json(env, &decision.diagnostics()),
        "head" => convert::to_json(env, &HostFields::of(decision.head())),
        _ => Err(invalid_argument(
            env,
            "section",
            &format!("section must be \"head\" or one of {LAZY_FIELDS:?}, got {section:?}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_lengths_are_exact_or_refused() {
        assert!(
            (packed(&[208, 144, 72, 3])
                - (208.0
                    + 144.0 * 65_536.0
                    + 72.0 * 4_294_967_296.0
                    + 3.0 * 281_474_976_710_656.0))
                .abs()
                < 0.5
        );
        let max = packed(&[65_535, 65_535, 65_535, 31]);
        assert!((max - (2_f64.powi(53) - 1.0)).abs() < 0.5, "{max}");
        assert!(packed(&[0, 0, 0, 0]).abs() < 0.5);
        for too_large in [
            [65_536, 0, 0, 0],
            [0, 65_536, 0, 0],
            [0, 0, 65_536, 0],
            [0, 0, 0, 32],
        ] {
            assert!((packed(&too_large) + 1.0).abs() < 0.5, "{too_large:?}");
        }
    }

    #[test]
    fn plan_fields_are_the_serialized_keys_in_order_and_each_crosses_once() {
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

        // The constants and the host fields are the plan's other fields, in field order.
        let constants = serde_json::to_value(Constants::of(&plan)).expect("serializes");
        let fields = serde_json::to_value(HostFields::of(&plan)).expect("serializes");
        let mut split: Vec<&str> = constants
            .as_object()
            .expect("an object")
            .keys()
            .chain(fields.as_object().expect("an object").keys())
            .map(String::as_str)
            .chain(LAZY_FIELDS)
            .collect();
        for (name, value) in constants
            .as_object()
            .expect("an object")
            .iter()
            .chain(fields.as_object().expect("an object"))
        {
            assert_eq!(value, &serialized[name], "{name}");
        }
        split.sort_unstable();
        let mut all = listed.clone();
        all.sort_unstable();
        assert_eq!(split, all, "every field crosses exactly once");
        let constant_keys: Vec<&str> = constants
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        let in_order: Vec<&str> = listed
            .iter()
            .copied()
            .filter(|name| constant_keys.contains(name))
            .collect();
        assert_eq!(constant_keys, in_order, "constants in plan field order");
    }
}

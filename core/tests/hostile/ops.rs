//! Running one corpus case through the public API and collecting what it produced.
//!
//! Every operation returns an [`Observed`]: the typed error (if any), every diagnostic,
//! every rendered line, and a JSON view of the value for `values` expectations.

use gsd_core::install_manifest::read_install_manifest;
use gsd_core::validate::{Origin, check_capability};
use gsd_core::{
    Diagnostic, Error, Host, Overlay, PlanRequest, Registry, SurfaceFacts, build_shadow_report,
    canonicalize_runtime_name, normalize_runtime_name, parse_manifest, parse_scope, parse_scopes,
    render_shadow_report, resolve_install_plan, resolve_install_plans, resolve_installed_surfaces,
    resolve_scope, sanitize_for_render,
};
use serde_json::{Value, json};

use super::input::{generate_text, manifest_text, manifest_value};

/// What one case produced.
#[derive(Debug, Default)]
pub struct Observed {
    /// The typed failure, when the operation failed.
    pub error: Option<Error>,
    /// Every diagnostic in the result.
    pub diagnostics: Vec<Diagnostic>,
    /// Text meant for a terminal (rendered report lines).
    pub lines: Vec<String>,
    /// A JSON view of the value, for `values` expectations.
    pub value: Value,
    /// Ids of third-party capabilities that joined (overlay cases).
    pub accepted: Vec<String>,
}

impl Observed {
    fn failed(error: Error) -> Self {
        Self {
            error: Some(error),
            ..Self::default()
        }
    }
}

fn host_of(input: &Value) -> Host {
    input.get("host").map_or_else(
        || Host::new("/home/u", "/work/p"),
        |h| serde_json::from_value(h.clone()).expect("corpus host deserializes"),
    )
}

fn overlays_of(input: &Value, bases: &Value) -> Vec<Overlay> {
    let Some(list) = input.get("overlays").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .map(|o| {
            let manifest = manifest_text(o, bases);
            let folder = o.get("folder").and_then(Value::as_str).map_or_else(
                || {
                    manifest_value(o, bases)["id"]
                        .as_str()
                        .expect("overlay needs a folder or a string id")
                        .to_owned()
                },
                str::to_owned,
            );
            let fragments = o
                .get("fragments")
                .and_then(Value::as_array)
                .map(|fs| {
                    fs.iter()
                        .map(|f| {
                            let text = f[1]
                                .as_str()
                                .map_or_else(|| generate_text(&f[1]["generate"]), str::to_owned);
                            (f[0].as_str().expect("fragment path").to_owned(), text)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Overlay {
                folder,
                manifest,
                fragments,
            }
        })
        .collect()
}

/// The registry of a case: first party plus the case's overlays, and what they added.
fn registry_of(input: &Value, bases: &Value) -> (Registry, Vec<Diagnostic>, Vec<String>) {
    let base = Registry::first_party();
    let before = base.diagnostics().len();
    let overlays = overlays_of(input, bases);
    if overlays.is_empty() {
        return (base.clone(), Vec::new(), Vec::new());
    }
    let registry = base.with_overlays(&overlays);
    let added = registry
        .diagnostics()
        .iter()
        .skip(before)
        .cloned()
        .collect();
    let accepted = registry
        .capabilities()
        .filter(|c| registry.is_third_party(&c.id))
        .map(|c| c.id.clone())
        .collect();
    (registry, added, accepted)
}

fn op_parse(input: &Value, bases: &Value) -> Observed {
    match parse_manifest(&manifest_text(input, bases)) {
        Ok(_) => Observed::default(),
        Err(e) => Observed::failed(e),
    }
}

fn op_validate(input: &Value, bases: &Value) -> Observed {
    // Always through the text, so big generated manifests also meet the bounds.
    let value = match parse_manifest(&manifest_text(input, bases)) {
        Ok(v) => v,
        Err(e) => return Observed::failed(e),
    };
    let folder = input.get("folder").and_then(Value::as_str).map_or_else(
        || value["id"].as_str().unwrap_or("x").to_owned(),
        str::to_owned,
    );
    let origin = match input.get("origin").and_then(Value::as_str) {
        Some("first") => Origin::FirstParty,
        _ => Origin::ThirdParty,
    };
    let check = check_capability(&value, &folder, origin);
    let summary = json!({"errorCount": check.errors.len(), "warningCount": check.warnings.len()});
    let mut diagnostics = check.errors;
    diagnostics.extend(check.warnings);
    Observed {
        diagnostics,
        value: summary,
        ..Observed::default()
    }
}

fn op_overlay(input: &Value, bases: &Value) -> Observed {
    let (_, diagnostics, accepted) = registry_of(input, bases);
    Observed {
        diagnostics,
        accepted,
        ..Observed::default()
    }
}

fn scope_arg(input: &Value) -> Result<gsd_core::Scope, Error> {
    parse_scope(
        input
            .get("scope")
            .and_then(Value::as_str)
            .unwrap_or("global"),
    )
}

fn op_scope(input: &Value, bases: &Value) -> Observed {
    let (registry, diagnostics, accepted) = registry_of(input, bases);
    let outcome = scope_arg(input).and_then(|scope| {
        resolve_scope(
            &registry,
            input["runtime"].as_str().expect("runtime"),
            scope,
            &host_of(input),
            input.get("explicitDir").and_then(Value::as_str),
        )
    });
    let mut observed = match outcome {
        Ok(resolved) => Observed {
            value: serde_json::to_value(resolved).expect("serializable"),
            ..Observed::default()
        },
        Err(e) => Observed::failed(e),
    };
    observed.diagnostics = diagnostics;
    observed.accepted = accepted;
    observed
}

fn plan_request(input: &Value) -> Result<PlanRequest, Error> {
    let mut request = input["request"].clone();
    let scope = parse_scope(request["scope"].as_str().unwrap_or("global"))?;
    request["scope"] = json!(scope.as_str());
    for key in ["commands", "agents"] {
        if let Some(list) = request.get(key) {
            request[key] = super::input::materialize(list);
        }
    }
    if request.get("host").is_none() {
        request["host"] = json!({"home": "/home/u", "cwd": "/work/p"});
    }
    Ok(serde_json::from_value(request).expect("corpus request deserializes"))
}

fn op_plan(input: &Value, bases: &Value) -> Observed {
    let (registry, mut diagnostics, accepted) = registry_of(input, bases);
    let request = match plan_request(input) {
        Ok(r) => r,
        Err(e) => return Observed::failed(e),
    };
    let outcome = if let Some(scopes) = input.get("scopes").and_then(Value::as_array) {
        let scopes: Vec<&str> = scopes
            .iter()
            .map(|s| s.as_str().unwrap_or_default())
            .collect();
        parse_scopes(&scopes)
            .and_then(|scopes| resolve_install_plans(&registry, &request, &scopes))
            .map(|set| {
                diagnostics.extend(set.diagnostics.iter().cloned());
                for plan in &set.plans {
                    diagnostics.extend(plan.diagnostics.iter().cloned());
                }
                serde_json::to_value(set).expect("serializable")
            })
    } else {
        resolve_install_plan(&registry, &request).map(|plan| {
            diagnostics.extend(plan.diagnostics.iter().cloned());
            serde_json::to_value(plan).expect("serializable")
        })
    };
    let mut observed = match outcome {
        Ok(value) => Observed {
            value,
            ..Observed::default()
        },
        Err(e) => Observed::failed(e),
    };
    observed.diagnostics.extend(diagnostics);
    observed.accepted = accepted;
    observed
}

fn op_install_manifest(input: &Value) -> Observed {
    let text = match (input.get("text"), input.get("generateText")) {
        (Some(Value::String(s)), _) => Some(s.clone()),
        (_, Some(spec)) => Some(generate_text(spec)),
        _ => None,
    };
    let read = read_install_manifest(text.as_deref());
    let mut value = serde_json::to_value(&read.manifest).expect("serializable");
    value["installed"] = json!(read.manifest.is_installed());
    Observed {
        diagnostics: read.diagnostics,
        value,
        ..Observed::default()
    }
}

fn facts_of(input: &Value) -> SurfaceFacts {
    input
        .get("facts")
        .map(|f| serde_json::from_value(f.clone()).expect("corpus facts deserialize"))
        .unwrap_or_default()
}

fn op_surface(input: &Value) -> Observed {
    let runtime = input.get("runtime").and_then(Value::as_str);
    match resolve_installed_surfaces(
        Registry::first_party(),
        runtime,
        &host_of(input),
        &facts_of(input),
    ) {
        Ok(surfaces) => Observed {
            value: serde_json::to_value(&surfaces).expect("serializable"),
            diagnostics: surfaces.diagnostics,
            ..Observed::default()
        },
        Err(e) => Observed::failed(e),
    }
}

fn op_shadow(input: &Value) -> Observed {
    let runtime = input["runtime"].as_str().expect("runtime");
    match build_shadow_report(
        Registry::first_party(),
        runtime,
        &host_of(input),
        &facts_of(input),
    ) {
        Ok(report) => Observed {
            lines: render_shadow_report(&report, 5),
            value: serde_json::to_value(&report).expect("serializable"),
            ..Observed::default()
        },
        Err(e) => Observed::failed(e),
    }
}

fn op_render(input: &Value) -> Observed {
    let output = sanitize_for_render(input["value"].as_str().expect("value"));
    Observed {
        lines: vec![output.clone()],
        value: json!({ "output": output }),
        ..Observed::default()
    }
}

fn op_runtime_name(input: &Value) -> Observed {
    let name = input["value"].as_str().expect("value");
    Observed {
        value: json!({
            "canonical": canonicalize_runtime_name(name),
            "normalized": normalize_runtime_name(name),
        }),
        ..Observed::default()
    }
}

/// Runs one case's operation.
pub fn run(op: &str, input: &Value, bases: &Value) -> Observed {
    match op {
        "parse" => op_parse(input, bases),
        "validate" => op_validate(input, bases),
        "overlay" => op_overlay(input, bases),
        "scope" => op_scope(input, bases),
        "plan" => op_plan(input, bases),
        "install_manifest" => op_install_manifest(input),
        "surface" => op_surface(input),
        "shadow" => op_shadow(input),
        "render" => op_render(input),
        "runtime_name" => op_runtime_name(input),
        other => panic!("unknown op {other}"),
    }
}

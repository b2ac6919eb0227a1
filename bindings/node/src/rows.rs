//! Plan records as rows: each record's values in its field order, without keys, for the
//! lists JS fills on first access. `JSON.parse` of keyed objects is most of the cost of a
//! list on the JS side (the 72 trigger records of a claude plan: 12.5 KB of JSON, about
//! 5.7 KB as rows, parsed in about half the time); `index.js` rebuilds each record as an
//! object literal with the keys in the same order, so the values equal the plan's.
//!
//! When no value holds a NUL or U+0001, the rows cross as *fields* instead of JSON:
//! one text that starts with NUL, then every value of every row, each followed by NUL,
//! with `null` written as U+0001 (see [`placement_fields`], [`trigger_fields`]). JS splits
//! it with one `String.prototype.split` (about 2.5x faster than `JSON.parse` of the same
//! rows, measured on the 72 trigger rows of a claude plan), and nothing is escaped here.

use gsd_core::{Placement, Trigger};
use serde::Serialize;

/// A placement as `[kind, stem, source, destination, converter]`.
type PlacementRow<'a> = (
    gsd_core::vocab::ArtifactKindName,
    &'a str,
    &'a str,
    &'a str,
    Option<gsd_core::vocab::ConverterName>,
);

/// A trigger as `[trigger, kind, scope, destPath, registration, routerTrigger,
/// shadowedBy.kind, shadowedBy.scope]` (the last two `null` for a winner).
type TriggerRow<'a> = (
    &'a str,
    gsd_core::vocab::TriggerKind,
    gsd_core::Scope,
    &'a str,
    gsd_core::Registration,
    Option<&'a str>,
    Option<gsd_core::vocab::TriggerKind>,
    Option<gsd_core::Scope>,
);

/// One placement as a row.
fn placement_row(p: &Placement) -> PlacementRow<'_> {
    // Destructured in full so a field added to `Placement` fails to compile here.
    let Placement {
        kind,
        stem,
        source,
        destination,
        converter,
    } = p;
    (*kind, stem, source, destination, *converter)
}

/// One trigger as a row.
fn trigger_row(t: &Trigger) -> TriggerRow<'_> {
    // Destructured in full so a field added to `Trigger` fails to compile here.
    let Trigger {
        trigger,
        kind,
        scope,
        dest_path,
        registration,
        router_trigger,
        shadowed_by,
    } = t;
    (
        trigger,
        *kind,
        *scope,
        dest_path,
        *registration,
        router_trigger.as_deref(),
        shadowed_by.map(|b| b.kind),
        shadowed_by.map(|b| b.scope),
    )
}

/// The rows of a list of placements.
pub fn placements(list: &[Placement]) -> impl Serialize + '_ {
    list.iter().map(placement_row).collect::<Vec<_>>()
}

/// The rows of a list of triggers.
pub fn triggers(list: &[Trigger]) -> impl Serialize + '_ {
    list.iter().map(trigger_row).collect::<Vec<_>>()
}

/// What `null` is written as in fields text.
const NULL: char = '\u{1}';

/// Fields text under construction: `None` once a value cannot be written (it holds NUL or
/// U+0001), so the caller sends JSON rows instead.
struct Fields(Option<String>);

impl Fields {
    fn with_capacity(bytes: usize) -> Self {
        let mut text = String::with_capacity(bytes);
        text.push('\0');
        Fields(Some(text))
    }

    fn value(&mut self, value: Option<&str>) {
        let Some(text) = &mut self.0 else { return };
        match value {
            Some(v) if v.contains(['\0', NULL]) => self.0 = None,
            Some(v) => {
                text.push_str(v);
                text.push('\0');
            }
            None => {
                text.push(NULL);
                text.push('\0');
            }
        }
    }
}

/// The kebab-case name serde gives a [`gsd_core::Registration`].
fn registration_name(registration: gsd_core::Registration) -> &'static str {
    match registration {
        gsd_core::Registration::Direct => "direct",
        gsd_core::Registration::ViaRouter => "via-router",
    }
}

/// The placement rows as fields text (five per placement), or `None` when a value holds
/// NUL or U+0001.
pub fn placement_fields(list: &[Placement]) -> Option<String> {
    let mut out = Fields::with_capacity(list.len() * 96);
    for p in list {
        let (kind, stem, source, destination, converter) = placement_row(p);
        out.value(Some(kind.as_str()));
        out.value(Some(stem));
        out.value(Some(source));
        out.value(Some(destination));
        out.value(converter.map(gsd_core::vocab::ConverterName::as_str));
    }
    out.0
}

/// The trigger rows as fields text (eight per trigger), or `None` when a value holds NUL
/// or U+0001.
pub fn trigger_fields(list: &[Trigger]) -> Option<String> {
    let mut out = Fields::with_capacity(list.len() * 80);
    for t in list {
        let (trigger, kind, scope, dest_path, registration, router, by_kind, by_scope) =
            trigger_row(t);
        out.value(Some(trigger));
        out.value(Some(kind.as_str()));
        out.value(Some(scope.as_str()));
        out.value(Some(dest_path));
        out.value(Some(registration_name(registration)));
        out.value(router);
        out.value(by_kind.map(gsd_core::vocab::TriggerKind::as_str));
        out.value(by_scope.map(gsd_core::Scope::as_str));
    }
    out.0
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// The plan of `runtime` at `scope` for home `home` over a small inventory with a
    /// router and its routed child.
    fn plan_of(
        runtime: &str,
        scope: gsd_core::Scope,
        home: &str,
    ) -> Result<gsd_core::Plan, gsd_core::Error> {
        let request = gsd_core::PlanRequest {
            runtime: runtime.to_owned(),
            scope,
            host: gsd_core::Host::new(home, "/work/p"),
            explicit_dir: None,
            commands: ["plan-phase", "help", "ns-workflow", "child-a"]
                .map(str::to_owned)
                .to_vec(),
            agents: vec!["gsd-planner".to_owned()],
            router_stems: vec!["ns-workflow".to_owned()],
            child_to_routers: [("child-a".to_owned(), vec!["ns-workflow".to_owned()])].into(),
            profile: None,
        };
        gsd_core::resolve_install_plan(gsd_core::Registry::first_party(), &request)
    }

    /// Rows read back from fields text, `width` values each.
    fn from_fields(text: &str, width: usize) -> Vec<Value> {
        let body = text
            .strip_prefix('\0')
            .expect("fields text starts with NUL");
        let body = body.strip_suffix('\0').unwrap_or(body);
        let values: Vec<Value> = if body.is_empty() {
            Vec::new()
        } else {
            body.split('\0')
                .map(|v| {
                    if v == "\u{1}" {
                        Value::Null
                    } else {
                        Value::String(v.to_owned())
                    }
                })
                .collect()
        };
        assert_eq!(values.len() % width, 0);
        values
            .chunks(width)
            .map(|row| Value::Array(row.to_vec()))
            .collect()
    }

    #[test]
    fn fields_are_the_json_rows_for_every_runtime_and_scope() {
        let registry = gsd_core::Registry::first_party();
        let mut checked = 0;
        let mut shadowed = 0;
        let mut routed = 0;
        let mut converted = 0;
        for runtime in registry.runtime_ids() {
            for scope in [gsd_core::Scope::Global, gsd_core::Scope::Local] {
                let Ok(plan) = plan_of(runtime, scope, "/home/u") else {
                    continue;
                };
                let triggers = super::trigger_fields(&plan.triggers).expect("plain values");
                assert_eq!(
                    Value::Array(from_fields(&triggers, 8)),
                    serde_json::to_value(super::triggers(&plan.triggers)).expect("serializes"),
                    "{runtime} {scope:?}"
                );
                let placements = super::placement_fields(&plan.placements).expect("plain values");
                assert_eq!(
                    Value::Array(from_fields(&placements, 5)),
                    serde_json::to_value(super::placements(&plan.placements)).expect("serializes"),
                    "{runtime} {scope:?}"
                );
                shadowed += plan
                    .triggers
                    .iter()
                    .filter(|t| t.shadowed_by.is_some())
                    .count();
                routed += plan
                    .triggers
                    .iter()
                    .filter(|t| t.router_trigger.is_some())
                    .count();
                converted += plan
                    .placements
                    .iter()
                    .filter(|p| p.converter.is_some())
                    .count();
                checked += 1;
            }
        }
        assert!(checked >= 36, "{checked}");
        assert!(
            shadowed > 0 && routed > 0 && converted > 0,
            "{shadowed} {routed} {converted}"
        );
    }

    #[test]
    fn a_value_holding_nul_or_u0001_refuses_fields() {
        let plan =
            |home: &str| plan_of("claude", gsd_core::Scope::Global, home).expect("claude plans");
        assert!(super::placement_fields(&plan("/home/u").placements).is_some());
        for home in ["/home/a\0b", "/home/a\u{1}b"] {
            let plan = plan(home);
            assert!(plan.placements[0].destination.starts_with(home));
            assert_eq!(super::placement_fields(&plan.placements), None, "{home:?}");
        }
        assert_eq!(super::trigger_fields(&[]).as_deref(), Some("\0"));
    }

    /// The values of a keyed record in key order, nested objects flattened.
    fn values(record: &Value, out: &mut Vec<Value>) {
        for value in record.as_object().expect("a record is an object").values() {
            match value {
                Value::Object(_) => values(value, out),
                other => out.push(other.clone()),
            }
        }
    }

    #[test]
    fn rows_are_the_records_values_in_field_order() {
        let mut plan = plan_of("cline", gsd_core::Scope::Global, "/home/u")
            .expect("cline plans at global scope");
        // A shadowed trigger, so the flattened `shadowedBy` is checked too.
        let mut shadowed = plan.triggers[0].clone();
        shadowed.shadowed_by = Some(gsd_core::ShadowedBy {
            kind: shadowed.kind,
            scope: gsd_core::Scope::Local,
        });
        plan.triggers.push(shadowed);
        assert!(plan.triggers.iter().any(|t| t.router_trigger.is_some()));
        let cases = [
            (
                serde_json::to_value(&plan.triggers).expect("serializes"),
                serde_json::to_value(super::triggers(&plan.triggers)).expect("serializes"),
            ),
            (
                serde_json::to_value(&plan.placements).expect("serializes"),
                serde_json::to_value(super::placements(&plan.placements)).expect("serializes"),
            ),
        ];
        for (records, rows) in cases {
            let records = records.as_array().expect("a list");
            let rows = rows.as_array().expect("a list");
            assert_eq!(records.len(), rows.len());
            assert!(!rows.is_empty());
            for (record, row) in records.iter().zip(rows) {
                let mut expected = Vec::new();
                values(record, &mut expected);
                let row = row.as_array().expect("a row");
                // A winner's `shadowedBy` is one `null` in the record, two in the row.
                let row: Vec<Value> = if record.get("shadowedBy") == Some(&Value::Null) {
                    assert_eq!(row.last(), Some(&Value::Null));
                    row[..row.len() - 1].to_vec()
                } else {
                    row.clone()
                };
                assert_eq!(row, expected);
            }
        }
    }
}

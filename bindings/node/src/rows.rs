//! Plan records as rows: each record's values in its field order, without keys, for the
//! lists JS fills on first access. `JSON.parse` of keyed objects is most of the cost of a
//! list on the JS side (the 72 trigger records of a claude plan: 12.5 KB of JSON, about
//! 5.7 KB as rows, parsed in about half the time); `index.js` rebuilds each record as an
//! object literal with the keys in the same order, so the values equal the plan's.

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

/// The rows of a list of placements.
pub fn placements(list: &[Placement]) -> impl Serialize + '_ {
    list.iter()
        .map(|p| {
            // Destructured in full so a field added to `Placement` fails to compile here.
            let Placement {
                kind,
                stem,
                source,
                destination,
                converter,
            } = p;
            let row: PlacementRow<'_> = (*kind, stem, source, destination, *converter);
            row
        })
        .collect::<Vec<_>>()
}

/// The rows of a list of triggers.
pub fn triggers(list: &[Trigger]) -> impl Serialize + '_ {
    list.iter()
        .map(|t| {
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
            let row: TriggerRow<'_> = (
                trigger,
                *kind,
                *scope,
                dest_path,
                *registration,
                router_trigger.as_deref(),
                shadowed_by.map(|b| b.kind),
                shadowed_by.map(|b| b.scope),
            );
            row
        })
        .collect::<Vec<_>>()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

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
        let request = gsd_core::PlanRequest {
            runtime: "cline".to_owned(),
            scope: gsd_core::Scope::Global,
            host: gsd_core::Host::new("/home/u", "/work/p"),
            explicit_dir: None,
            commands: ["plan-phase", "help", "ns-workflow", "child-a"]
                .map(str::to_owned)
                .to_vec(),
            agents: vec!["gsd-planner".to_owned()],
            router_stems: vec!["ns-workflow".to_owned()],
            child_to_routers: [("child-a".to_owned(), vec!["ns-workflow".to_owned()])].into(),
            profile: None,
        };
        let mut plan = gsd_core::resolve_install_plan(gsd_core::Registry::first_party(), &request)
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

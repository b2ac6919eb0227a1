//! Diagnostics: typed findings that travel inside results (never failures).

use std::hash::{Hash, Hasher};

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::trigger::ShadowedBy;
use crate::vocab::{Scope, TriggerKind};

/// How serious a finding is. Ordered by seriousness, `Info < Warning < Error`, so the
/// worst of several findings is their `max()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational.
    Info,
    /// The input is accepted, something is worth knowing (unknown key, shadowed trigger).
    Warning,
    /// The input is rejected (a validation error).
    Error,
}

wire_names!(Severity {
    Info => "info",
    Warning => "warning",
    Error => "error",
});

/// One typed finding. `code` is a stable `snake_case` machine code; `message` is sanitized
/// (no control, ANSI, bidi or zero-width characters) and safe to print.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Stable machine code, e.g. `unknown_host_behavior`, `invalid_enum`, `scope_shadowed`.
    pub code: String,
    /// Error, warning or info.
    pub severity: Severity,
    /// The capability the finding is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capability_id: Option<String>,
    /// The dotted field path at fault, when there is one (e.g. `runtime.configHome.kind`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The human message (for validation errors: the peer's message text).
    pub message: String,
    /// Extra typed detail (e.g. `omittedCount`, `replacement`, `knownFields`); serializes
    /// as its JSON ([`Detail::to_value`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Detail>,
}

/// A diagnostic's extra detail: any JSON, or the one detail a plan makes by the hundred
/// (a shadowed trigger's), held typed so that each does not build a JSON map of owned keys
/// and values. Serializes as the JSON it stands for; two details are equal when their JSON
/// is ([`Self::to_value`]), whichever way each is held.
#[derive(Debug, Clone)]
pub enum Detail {
    /// Any JSON value.
    Json(Value),
    /// A `trigger_shadowed` warning's detail.
    TriggerShadowed(ShadowDetail),
}

/// The detail of a `trigger_shadowed` warning: `{trigger, kind, scope, destPath,
/// shadowedBy: {kind, scope}}` in JSON, in this order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowDetail {
    /// The shadowed trigger (without `/`).
    pub trigger: String,
    /// The shadowed candidate's kind.
    pub kind: TriggerKind,
    /// The shadowed candidate's scope.
    pub scope: Scope,
    /// The shadowed candidate's destination relative to its config directory.
    pub dest_path: String,
    /// The winner.
    pub shadowed_by: ShadowedBy,
}

impl Detail {
    /// The detail as a JSON value (what it serializes to).
    #[must_use]
    pub fn to_value(&self) -> Value {
        match self {
            Detail::Json(value) => value.clone(),
            // What its `Serialize` derive writes. Strings and closed-vocabulary names into a
            // `Value` cannot fail (no map key that is not a string, no custom error).
            Detail::TriggerShadowed(detail) => serde_json::to_value(detail).unwrap_or_default(),
        }
    }

    /// The JSON value, when the detail is held as one.
    #[must_use]
    pub fn as_json(&self) -> Option<&Value> {
        match self {
            Detail::Json(value) => Some(value),
            Detail::TriggerShadowed(_) => None,
        }
    }
}

impl From<Value> for Detail {
    fn from(value: Value) -> Self {
        Detail::Json(value)
    }
}

impl From<ShadowDetail> for Detail {
    fn from(detail: ShadowDetail) -> Self {
        Detail::TriggerShadowed(detail)
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Detail::Json(a), Detail::Json(b)) => json_eq(a, b),
            (Detail::TriggerShadowed(a), Detail::TriggerShadowed(b)) => a == b,
            _ => json_eq(&self.to_value(), &other.to_value()),
        }
    }
}

impl Eq for Detail {}

impl PartialEq<Value> for Detail {
    fn eq(&self, other: &Value) -> bool {
        match self {
            Detail::Json(value) => json_eq(value, other),
            Detail::TriggerShadowed(_) => json_eq(&self.to_value(), other),
        }
    }
}

impl Hash for Detail {
    /// The hash of the JSON, so that equal details hash alike whichever way they are held.
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Detail::Json(value) => hash_json(value, state),
            Detail::TriggerShadowed(_) => hash_json(&self.to_value(), state),
        }
    }
}

/// `a == b` as `serde_json::Value` compares (object members in any order), with an explicit
/// stack: a caller-built detail may nest to any depth, and `Value`'s own comparison
/// recurses once per level.
fn json_eq(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (key, x) in x {
                    let Some(y) = y.get(key) else { return false };
                    pending.push((x, y));
                }
            }
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
                return false;
            }
            (a, b) if a != b => return false,
            _ => {}
        }
    }
    true
}

/// Feeds `value` to `state` consistently with [`json_eq`] (object members in key order),
/// with an explicit stack, so a value of any depth hashes without recursing.
fn hash_json<H: Hasher>(value: &Value, state: &mut H) {
    /// A value still to hash, or an object key.
    enum Item<'v> {
        Value(&'v Value),
        Key(&'v str),
    }
    let mut pending = vec![Item::Value(value)];
    while let Some(item) = pending.pop() {
        let value = match item {
            Item::Key(key) => {
                key.hash(state);
                continue;
            }
            Item::Value(value) => value,
        };
        std::mem::discriminant(value).hash(state);
        match value {
            Value::Null => {}
            Value::Bool(b) => b.hash(state),
            Value::Number(n) => n.hash(state),
            Value::String(s) => s.hash(state),
            Value::Array(items) => {
                items.len().hash(state);
                pending.extend(items.iter().rev().map(Item::Value));
            }
            Value::Object(map) => {
                map.len().hash(state);
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                members.sort_unstable_by(|a, b| b.0.cmp(a.0));
                for (key, value) in members {
                    pending.push(Item::Value(value));
                    pending.push(Item::Key(key));
                }
            }
        }
    }
}

impl Serialize for Detail {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Detail::Json(value) => value.serialize(serializer),
            Detail::TriggerShadowed(detail) => detail.serialize(serializer),
        }
    }
}

impl Diagnostic {
    /// A diagnostic with no capability, field or detail.
    #[must_use]
    pub fn new(code: impl Into<String>, severity: Severity, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            severity,
            capability_id: None,
            field: None,
            message: message.into(),
            detail: None,
        }
    }

    /// Sets the capability id.
    #[must_use]
    pub fn with_capability(mut self, id: impl Into<String>) -> Self {
        self.capability_id = Some(id.into());
        self
    }

    /// Sets the field path.
    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Sets the detail (a JSON value or a [`ShadowDetail`]).
    #[must_use]
    pub fn with_detail(mut self, detail: impl Into<Detail>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// The detail as JSON, when there is one ([`Detail::to_value`]).
    #[must_use]
    pub fn detail_value(&self) -> Option<Value> {
        self.detail.as_ref().map(Detail::to_value)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::hash_map::DefaultHasher;

    use serde_json::json;

    use super::*;
    use crate::deep_test::{DEPTH, dismantle, on_small_stack};

    #[test]
    fn severity_orders_by_seriousness_and_prints_its_wire_spelling() {
        let found = [Severity::Warning, Severity::Error, Severity::Info];
        assert_eq!(found.iter().max(), Some(&Severity::Error));
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
        for severity in found {
            assert_eq!(
                serde_json::to_value(severity).unwrap(),
                serde_json::Value::from(severity.to_string())
            );
        }
    }

    fn hash_of(detail: &Detail) -> u64 {
        let mut state = DefaultHasher::new();
        detail.hash(&mut state);
        state.finish()
    }

    /// Equal details hash alike, whichever way each is held and in whatever order an
    /// object's members were inserted; different ones compare unequal.
    #[test]
    fn equal_details_hash_alike() {
        let shadow = ShadowDetail {
            trigger: "help".into(),
            kind: TriggerKind::Skills,
            scope: Scope::Global,
            dest_path: "skills/help".into(),
            shadowed_by: ShadowedBy {
                kind: TriggerKind::Commands,
                scope: Scope::Local,
            },
        };
        let typed = Detail::from(shadow.clone());
        let json = Detail::Json(serde_json::to_value(&shadow).unwrap_or_default());
        assert_eq!(typed, json);
        assert_eq!(hash_of(&typed), hash_of(&json));
        let a = Detail::Json(json!({"a": [1, {"x": null, "y": -0.0}], "b": "s"}));
        let b = Detail::Json(json!({"b": "s", "a": [1, {"y": 0.0, "x": null}]}));
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        for other in [
            json!({"b": "s", "a": [1, {"y": 0.0}]}),
            json!({"b": "s", "a": [1, {"y": 0.0, "z": null}]}),
            json!({"b": "s", "a": [{"y": 0.0, "x": null}, 1]}),
            json!({"b": "s", "a": [1, {"y": 0.0, "x": null}, 2]}),
            json!({"b": "s", "a": [1.0, {"y": 0.0, "x": null}]}),
            json!(["s", [1, {"y": 0.0, "x": null}]]),
        ] {
            assert_ne!(a, Detail::Json(other.clone()), "{other}");
            assert!(a != other, "{other}");
        }
        assert!(a == json!({"b": "s", "a": [1, {"y": 0.0, "x": null}]}));
    }

    /// Was a recursion per level (`Value`'s `Hash` and `==`): a detail nested 50 000 deep
    /// overflowed the stack. Run in a thread with a 2 MiB stack.
    #[test]
    fn deep_details_hash_and_compare_without_recursing() {
        let outcome = on_small_stack(|| {
            let deep = |leaf: Value| {
                let mut v = leaf;
                for i in 0..DEPTH {
                    v = if i % 2 == 0 {
                        Value::Array(vec![v])
                    } else {
                        // Not `json!`: it serializes a value given to it, recursively.
                        Value::Object(serde_json::Map::from_iter([("k".to_owned(), v)]))
                    };
                }
                Detail::Json(v)
            };
            let (a, b, c) = (deep(json!(1)), deep(json!(1)), deep(json!(2)));
            let outcome = (hash_of(&a) == hash_of(&b), a == b, a == c);
            for detail in [a, b, c] {
                if let Detail::Json(v) = detail {
                    dismantle(v);
                }
            }
            outcome
        });
        assert_eq!(outcome, (true, true, false));
    }
}

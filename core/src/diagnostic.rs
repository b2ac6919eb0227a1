//! Diagnostics: typed findings that travel inside results (never failures).

use std::hash::{Hash, Hasher};

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::trigger::ShadowedBy;
use crate::vocab::{Scope, TriggerKind};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is rejected (a validation error).
    Error,
    /// The input is accepted, something is worth knowing (unknown key, shadowed trigger).
    Warning,
    /// Informational.
    Info,
}

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
            (Detail::Json(a), Detail::Json(b)) => a == b,
            (Detail::TriggerShadowed(a), Detail::TriggerShadowed(b)) => a == b,
            _ => self.to_value() == other.to_value(),
        }
    }
}

impl Eq for Detail {}

impl PartialEq<Value> for Detail {
    fn eq(&self, other: &Value) -> bool {
        match self {
            Detail::Json(value) => value == other,
            Detail::TriggerShadowed(_) => self.to_value() == *other,
        }
    }
}

impl Hash for Detail {
    /// The hash of the JSON, so that equal details hash alike whichever way they are held.
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Detail::Json(value) => value.hash(state),
            Detail::TriggerShadowed(_) => self.to_value().hash(state),
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

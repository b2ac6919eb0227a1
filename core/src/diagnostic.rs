//! Diagnostics: typed findings that travel inside results (never failures).

use serde::Serialize;

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
    /// Extra typed detail (e.g. `omittedCount`, `replacement`, `knownFields`), as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
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

    /// Sets the typed detail.
    #[must_use]
    pub fn with_detail(mut self, detail: serde_json::Value) -> Self {
        self.detail = Some(detail);
        self
    }
}

//! Typed records of the foreign API and their conversions from core values.
//!
//! Nested values that are not worth a typed mirror travel as JSON strings (fields named
//! `*_json`); everything a caller branches on is typed.

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// The input is accepted; something is worth knowing.
    Warning,
    /// Informational.
    Info,
}

impl From<gsd_core::Severity> for Severity {
    fn from(severity: gsd_core::Severity) -> Self {
        match severity {
            gsd_core::Severity::Error => Self::Error,
            gsd_core::Severity::Warning => Self::Warning,
            gsd_core::Severity::Info => Self::Info,
        }
    }
}

/// One typed finding (validation result, shadowing notice, rejected overlay).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Diagnostic {
    /// Stable snake_case machine code, e.g. `invalid_enum`.
    pub code: String,
    /// Error, warning or info.
    pub severity: Severity,
    /// The capability the finding is about, when there is one.
    pub capability_id: Option<String>,
    /// The dotted field path at fault, when there is one.
    pub field: Option<String>,
    /// The sanitized human message.
    pub message: String,
    /// Extra typed detail as JSON, when there is some.
    pub detail_json: Option<String>,
}

impl From<&gsd_core::Diagnostic> for Diagnostic {
    fn from(d: &gsd_core::Diagnostic) -> Self {
        Self {
            code: d.code.clone(),
            severity: d.severity.into(),
            capability_id: d.capability_id.clone(),
            field: d.field.clone(),
            message: d.message.clone(),
            detail_json: d.detail.as_ref().map(serde_json::Value::to_string),
        }
    }
}

/// One row of the stable error-code table shared by every binding.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ErrorCodeEntry {
    /// The code's spelling, e.g. `UNKNOWN_RUNTIME` (the `GsdError` variant is its CamelCase).
    pub name: String,
    /// The numeric status of the C API (`GSD_STATUS_<name>`).
    pub status: u32,
}

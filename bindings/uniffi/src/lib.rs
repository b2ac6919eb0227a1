//! uniffi binding for gsd-core (Python, Kotlin, Swift), built with proc-macros only.
//!
//! Exports: the [`Registry`] object, functions returning typed records, and one error
//! enum [`GsdError`] with a variant per core error code. A panic inside the library
//! reaches the foreign side as uniffi's internal error, never as a crash.
//!
//! This file holds the exports only; records live in `types`, the error mapping in `error`.

mod error;
mod types;

use std::sync::Arc;

use gsd_core::ErrorCode;

pub use error::GsdError;
pub use types::{Diagnostic, ErrorCodeEntry, Severity};

uniffi::setup_scaffolding!();

/// An immutable capability registry: the embedded first-party capabilities, optionally
/// with overlays. Cheap to share between threads.
#[derive(Debug, uniffi::Object)]
pub struct Registry {
    inner: gsd_core::Registry,
}

#[uniffi::export]
impl Registry {
    /// The embedded first-party registry.
    #[uniffi::constructor]
    pub fn first_party() -> Arc<Self> {
        Arc::new(Self { inner: gsd_core::Registry::first_party().clone() })
    }

    /// The registered runtime ids, sorted.
    pub fn runtime_ids(&self) -> Vec<String> {
        self.inner.runtime_ids().map(str::to_owned).collect()
    }

    /// Diagnostics collected while building the registry (e.g. rejected overlays).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.inner.diagnostics().iter().map(Diagnostic::from).collect()
    }

    /// The capability manifest of a registered runtime, as JSON.
    pub fn runtime_manifest_json(&self, runtime: String) -> Result<String, GsdError> {
        match self.inner.capability(&runtime) {
            Some(capability) if capability.runtime.is_some() => Ok(capability.manifest.to_string()),
            _ => Err(GsdError::UnknownRuntime {
                message: format!("unknown runtime '{runtime}' — not present in the capability registry"),
            }),
        }
    }
}

/// The library version, e.g. `0.1.0`.
#[uniffi::export]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The stable error-code table, in the core's order (for binding coverage tests).
#[uniffi::export]
pub fn error_codes() -> Vec<ErrorCodeEntry> {
    ErrorCode::ALL.iter().map(|c| ErrorCodeEntry { name: c.as_str().to_owned(), status: c.status() }).collect()
}

/// Fails with the `GsdError` variant of the code named `name` (e.g. `INVALID_SCOPE`),
/// carrying `message`. Lets foreign tests prove every code reaches them as its own
/// exception type. An unknown name is an `InvalidArgument` failure.
#[uniffi::export]
pub fn raise_error_code(name: String, message: String) -> Result<(), GsdError> {
    let code = ErrorCode::parse(&name)
        .ok_or_else(|| GsdError::InvalidArgument { message: format!("unknown error code {name:?}") })?;
    Err(GsdError::from_code(code, message))
}

//! Errors: one stable code table shared by every binding.
//!
//! A failure is an [`Error`]: a stable [`ErrorCode`], a human message (lower-case, names
//! the field and the offending value), and optionally the field at fault. Diagnostics
//! (validation findings, shadowing notices) are *not* errors: they travel inside results.

use std::fmt;

/// Declares the code table once: variant, wire string, C status number, doc.
macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal, $status:literal;)+) => {
        /// Stable machine code of a failure. The string spelling and the numeric status are
        /// part of the public contract of every binding and are never reused. The enum is
        /// deliberately exhaustive: a new code must fail to compile in every binding's
        /// mapping until it is mapped there.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant),+
        }

        impl ErrorCode {
            /// Every code, for binding coverage tests.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The `SCREAMING_SNAKE` spelling (`err.code` in Node, `GsdError` name in uniffi).
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $text),+ }
            }

            /// The numeric status used by the C ABI (`gsd_status`); 0 is reserved for OK.
            #[must_use]
            pub const fn status(self) -> u32 {
                match self { $(ErrorCode::$variant => $status),+ }
            }

            /// Looks a code up by its spelling.
            #[must_use]
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some(ErrorCode::$variant),)+ _ => None }
            }
        }
    };
}

error_codes! {
    /// A required argument was missing (a NULL pointer at the C boundary).
    NullArgument = "NULL_ARGUMENT", 1;
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = "INVALID_UTF8", 2;
    /// A panic was caught at a binding boundary (a bug in this library).
    Panic = "PANIC", 3;
    /// An argument had the wrong shape or value (names the field and value).
    InvalidArgument = "INVALID_ARGUMENT", 4;
    /// The runtime id is not registered.
    UnknownRuntime = "UNKNOWN_RUNTIME", 100;
    /// The runtime has no installable config directory (`configHome.kind: none`).
    NoConfigHome = "NO_CONFIG_HOME", 101;
    /// The scope id is not exactly `global` or `local`.
    InvalidScope = "INVALID_SCOPE", 102;
    /// A destination would fall outside its config directory.
    DestinationOutsideConfigHome = "DESTINATION_OUTSIDE_CONFIG_HOME", 103;
    /// The host facts are malformed (e.g. a relative home).
    InvalidHost = "INVALID_HOST", 104;
    /// A runtime descriptor in the registry cannot be resolved (e.g. a skills kind without converter).
    InvalidDescriptor = "INVALID_DESCRIPTOR", 105;
    /// A manifest exceeds the size bound.
    ManifestTooLarge = "MANIFEST_TOO_LARGE", 200;
    /// A manifest exceeds the nesting bound.
    ManifestTooDeep = "MANIFEST_TOO_DEEP", 201;
    /// A manifest is not valid JSON.
    ManifestInvalidJson = "MANIFEST_INVALID_JSON", 202;
    /// Reserved, never returned: validation findings are diagnostics, not an error. Kept
    /// so the code table (and the C status numbers) stays stable.
    ManifestInvalid = "MANIFEST_INVALID", 203;
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure with a stable code. Opaque so kinds can grow without breaking callers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    code: ErrorCode,
    message: String,
    field: Option<String>,
}

impl Error {
    /// Builds an error (crate-internal: callers only read errors).
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            field: None,
        }
    }

    /// Attaches the name of the field at fault.
    #[must_use]
    pub(crate) fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The stable code.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human message (also the `Display` text).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The input field at fault, when one is known (e.g. `scope`, `runtime`, `host.home`).
    #[must_use]
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }
}

/// Builds an [`Error`] from outside the crate: for bindings that must report boundary
/// failures (NULL pointers, bad UTF-8, caught panics) in the same code table.
#[must_use]
pub fn boundary_error(code: ErrorCode, message: impl Into<String>) -> Error {
    Error::new(code, message)
}

/// Shorthand result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_statuses_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::parse(code.as_str()), Some(*code));
            assert_ne!(code.status(), 0, "0 is OK");
            assert!(
                seen.insert(code.status()),
                "status {} reused",
                code.status()
            );
        }
    }
}

//! The C spelling of the error table: `gsd_status` numbers and the opaque `gsd_error`.
//!
//! Numbers come from [`ErrorCode::status`]; `0` is OK. A value is never reused: a removed
//! code stays here as a `reserved` comment. `tests/header.rs` checks that the header lists
//! every [`ErrorCode`] under the same name and number.

use std::ffi::{CStr, CString};

use gsd_core::{Error, ErrorCode};

/// Result of every fallible `gsd_*` function. `GSD_STATUS_OK` (0) means success; any other
/// value names the failure, and the matching `gsd_error` (when `out_error` was given)
/// carries the message. Ranges: 1-99 boundary failures, 100-199 resolution failures,
/// 200-299 manifest failures.
#[allow(
    non_camel_case_types,
    reason = "C naming: the type is `gsd_status` in the header"
)]
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum gsd_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = 2,
    /// A panic was caught inside the library (a bug in gsd-core); the process is intact.
    Panic = 3,
    /// An argument had the wrong shape or value (bad JSON, wrong field type, too long).
    InvalidArgument = 4,
    /// The runtime id is not registered.
    UnknownRuntime = 100,
    /// The runtime has no installable config directory (`configHome.kind: none`).
    NoConfigHome = 101,
    /// The scope id is not exactly `global` or `local`.
    InvalidScope = 102,
    /// A destination would fall outside its config directory.
    DestinationOutsideConfigHome = 103,
    /// The host facts are malformed (e.g. a relative home).
    InvalidHost = 104,
    /// A runtime descriptor in the registry cannot be resolved.
    InvalidDescriptor = 105,
    /// A manifest exceeds the size bound.
    ManifestTooLarge = 200,
    /// A manifest exceeds the nesting bound.
    ManifestTooDeep = 201,
    /// A manifest is not valid JSON.
    ManifestInvalidJson = 202,
    /// Reserved, never returned: validation findings are diagnostics, not a failure.
    ManifestInvalid = 203,
}

impl gsd_status {
    /// Every status except `Ok`, for lookups by number.
    const FAILURES: &'static [gsd_status] = &[
        Self::NullArgument,
        Self::InvalidUtf8,
        Self::Panic,
        Self::InvalidArgument,
        Self::UnknownRuntime,
        Self::NoConfigHome,
        Self::InvalidScope,
        Self::DestinationOutsideConfigHome,
        Self::InvalidHost,
        Self::InvalidDescriptor,
        Self::ManifestTooLarge,
        Self::ManifestTooDeep,
        Self::ManifestInvalidJson,
        Self::ManifestInvalid,
    ];

    /// The status for a core error code (same number as [`ErrorCode::status`]).
    ///
    /// A code added to the core but not yet listed here maps to `Panic` and fails
    /// `every_error_code_has_a_status` below, so it cannot ship unnoticed.
    #[must_use]
    pub fn from_code(code: ErrorCode) -> Self {
        Self::from_number(code.status()).unwrap_or(Self::Panic)
    }

    /// The failure status with this number, if there is one.
    #[must_use]
    pub fn from_number(number: u32) -> Option<Self> {
        Self::FAILURES.iter().copied().find(|s| *s as u32 == number)
    }

    /// The core code of a failure status (`None` for `Ok`).
    #[must_use]
    pub fn code(self) -> Option<ErrorCode> {
        ErrorCode::ALL
            .iter()
            .copied()
            .find(|c| c.status() == self as u32)
    }
}

/// A static, NUL-terminated description of a status number (also for unknown numbers).
#[must_use]
pub fn status_text(number: u32) -> &'static CStr {
    let Some(status) = gsd_status::from_number(number) else {
        return if number == 0 {
            c"ok"
        } else {
            c"unknown status"
        };
    };
    match status {
        gsd_status::Ok => c"ok",
        gsd_status::NullArgument => c"a required argument was NULL",
        gsd_status::InvalidUtf8 => c"a string argument was not valid UTF-8",
        gsd_status::Panic => c"internal error: a panic was caught inside gsd-core",
        gsd_status::InvalidArgument => c"an argument had the wrong shape or value",
        gsd_status::UnknownRuntime => c"the runtime id is not registered",
        gsd_status::NoConfigHome => c"the runtime has no installable config directory",
        gsd_status::InvalidScope => c"the scope must be exactly 'global' or 'local'",
        gsd_status::DestinationOutsideConfigHome => {
            c"a destination would fall outside its config directory"
        }
        gsd_status::InvalidHost => c"the host facts are malformed",
        gsd_status::InvalidDescriptor => c"a runtime descriptor in the registry cannot be resolved",
        gsd_status::ManifestTooLarge => c"the manifest exceeds the size bound",
        gsd_status::ManifestTooDeep => c"the manifest exceeds the nesting bound",
        gsd_status::ManifestInvalidJson => c"the manifest is not valid JSON",
        gsd_status::ManifestInvalid => {
            c"reserved, never returned: validation findings are diagnostics"
        }
    }
}

/// Failure detail: the status, its stable code name, a message and the field at fault.
/// Created only through the `out_error` of a `gsd_*` call; read with `gsd_error_code`,
/// `gsd_error_code_name`, `gsd_error_message` and `gsd_error_field`; free with
/// `gsd_error_free`.
#[allow(
    non_camel_case_types,
    reason = "C naming: the type is `gsd_error` in the header"
)]
#[derive(Debug)]
pub struct gsd_error {
    pub(crate) status: gsd_status,
    pub(crate) code: &'static CStr,
    pub(crate) message: CString,
    pub(crate) field: Option<CString>,
}

/// Makes a C string from text that may hold NUL bytes (they become `\0`, visibly).
pub(crate) fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', "\\0")).unwrap_or_default()
}

/// A failure on its way to C: a core error, and the field at fault when the binding names
/// one the core error does not carry.
///
/// The core builds errors with a field only inside itself (`Error::with_field` is
/// crate-private; `boundary_error` takes a code and a message), so a failure found here,
/// such as the path of a mistyped request member, keeps its field beside the error. Every
/// core error converts with `?` (its own field, if any, is kept).
#[derive(Debug)]
pub(crate) struct Failure {
    error: Error,
    field: Option<String>,
}

impl Failure {
    /// A core error naming `field` (in place of the core's own field, if any).
    pub(crate) fn at(error: Error, field: Option<String>) -> Self {
        Self { error, field }
    }

    /// The stable code.
    pub(crate) fn code(&self) -> ErrorCode {
        self.error.code()
    }

    /// The human message.
    pub(crate) fn message(&self) -> &str {
        self.error.message()
    }

    /// The input field at fault: the binding's, else the core's.
    pub(crate) fn field(&self) -> Option<&str> {
        self.field.as_deref().or_else(|| self.error.field())
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Self { error, field: None }
    }
}

impl gsd_error {
    /// The C form of a failure.
    pub(crate) fn from_failure(failure: &Failure) -> Self {
        Self {
            status: gsd_status::from_code(failure.code()),
            code: code_name(failure.code()),
            message: c_text(failure.message()),
            field: failure.field().map(c_text),
        }
    }
}

/// The NUL-terminated spelling of a code (the same text as [`ErrorCode::as_str`]).
fn code_name(code: ErrorCode) -> &'static CStr {
    CODE_NAMES
        .iter()
        .find(|(c, _)| *c == code.as_str())
        .map_or(c"PANIC", |(_, name)| *name)
}

/// `ErrorCode::as_str` spellings with their static C strings.
const CODE_NAMES: &[(&str, &CStr)] = &[
    ("NULL_ARGUMENT", c"NULL_ARGUMENT"),
    ("INVALID_UTF8", c"INVALID_UTF8"),
    ("PANIC", c"PANIC"),
    ("INVALID_ARGUMENT", c"INVALID_ARGUMENT"),
    ("UNKNOWN_RUNTIME", c"UNKNOWN_RUNTIME"),
    ("NO_CONFIG_HOME", c"NO_CONFIG_HOME"),
    ("INVALID_SCOPE", c"INVALID_SCOPE"),
    (
        "DESTINATION_OUTSIDE_CONFIG_HOME",
        c"DESTINATION_OUTSIDE_CONFIG_HOME",
    ),
    ("INVALID_HOST", c"INVALID_HOST"),
    ("INVALID_DESCRIPTOR", c"INVALID_DESCRIPTOR"),
    ("MANIFEST_TOO_LARGE", c"MANIFEST_TOO_LARGE"),
    ("MANIFEST_TOO_DEEP", c"MANIFEST_TOO_DEEP"),
    ("MANIFEST_INVALID_JSON", c"MANIFEST_INVALID_JSON"),
    ("MANIFEST_INVALID", c"MANIFEST_INVALID"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_has_a_status_and_a_name() {
        for code in ErrorCode::ALL {
            let status = gsd_status::from_code(*code);
            assert_eq!(status as u32, code.status(), "{code}");
            assert_eq!(status.code(), Some(*code));
            assert_eq!(code_name(*code).to_str(), Ok(code.as_str()));
        }
        assert_eq!(
            gsd_status::FAILURES.len(),
            ErrorCode::ALL.len(),
            "a status without a core code"
        );
        assert_eq!(gsd_status::Ok.code(), None);
    }

    #[test]
    fn status_text_covers_unknown_numbers() {
        assert_eq!(status_text(0), c"ok");
        assert_eq!(status_text(100), c"the runtime id is not registered");
        assert_eq!(status_text(99), c"unknown status");
        assert_eq!(status_text(u32::MAX), c"unknown status");
    }

    #[test]
    fn nul_bytes_in_messages_stay_visible() {
        assert_eq!(c_text("a\0b").as_bytes(), b"a\\0b");
    }
}

//! `GsdError`: the one error enum of the foreign API, one variant per core `ErrorCode`.
//!
//! Python raises `GsdError.UnknownRuntime`, `GsdError.InvalidScope`, ... (each with a
//! `message`), Kotlin and Swift get sealed classes / enums of the same shape.

use gsd_core::{Error, ErrorCode};

/// Every failure of the foreign API. The variant is the stable code; `message` names the
/// field and the offending value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum GsdError {
    /// A required argument was missing.
    #[error("{message}")]
    NullArgument {
        /// The human message.
        message: String,
    },
    /// A string argument was not valid UTF-8.
    #[error("{message}")]
    InvalidUtf8 {
        /// The human message.
        message: String,
    },
    /// A panic was caught inside the library (a bug in gsd-core).
    #[error("{message}")]
    Panic {
        /// The human message.
        message: String,
    },
    /// An argument had the wrong shape or value.
    #[error("{message}")]
    InvalidArgument {
        /// The human message.
        message: String,
    },
    /// The runtime id is not registered.
    #[error("{message}")]
    UnknownRuntime {
        /// The human message.
        message: String,
    },
    /// The runtime has no installable config directory (`configHome.kind: none`).
    #[error("{message}")]
    NoConfigHome {
        /// The human message.
        message: String,
    },
    /// The scope id is not exactly `global` or `local`.
    #[error("{message}")]
    InvalidScope {
        /// The human message.
        message: String,
    },
    /// A destination would fall outside its config directory.
    #[error("{message}")]
    DestinationOutsideConfigHome {
        /// The human message.
        message: String,
    },
    /// The host facts are malformed.
    #[error("{message}")]
    InvalidHost {
        /// The human message.
        message: String,
    },
    /// A runtime descriptor in the registry cannot be resolved.
    #[error("{message}")]
    InvalidDescriptor {
        /// The human message.
        message: String,
    },
    /// A manifest exceeds the size bound.
    #[error("{message}")]
    ManifestTooLarge {
        /// The human message.
        message: String,
    },
    /// A manifest exceeds the nesting bound.
    #[error("{message}")]
    ManifestTooDeep {
        /// The human message.
        message: String,
    },
    /// A manifest is not valid JSON.
    #[error("{message}")]
    ManifestInvalidJson {
        /// The human message.
        message: String,
    },
    /// Reserved, never returned: validation findings are diagnostics, not a failure.
    #[error("{message}")]
    ManifestInvalid {
        /// The human message.
        message: String,
    },
}

impl GsdError {
    /// The core code of this variant (an exhaustive match: a new variant must be mapped).
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::NullArgument { .. } => ErrorCode::NullArgument,
            Self::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
            Self::Panic { .. } => ErrorCode::Panic,
            Self::InvalidArgument { .. } => ErrorCode::InvalidArgument,
            Self::UnknownRuntime { .. } => ErrorCode::UnknownRuntime,
            Self::NoConfigHome { .. } => ErrorCode::NoConfigHome,
            Self::InvalidScope { .. } => ErrorCode::InvalidScope,
            Self::DestinationOutsideConfigHome { .. } => ErrorCode::DestinationOutsideConfigHome,
            Self::InvalidHost { .. } => ErrorCode::InvalidHost,
            Self::InvalidDescriptor { .. } => ErrorCode::InvalidDescriptor,
            Self::ManifestTooLarge { .. } => ErrorCode::ManifestTooLarge,
            Self::ManifestTooDeep { .. } => ErrorCode::ManifestTooDeep,
            Self::ManifestInvalidJson { .. } => ErrorCode::ManifestInvalidJson,
            Self::ManifestInvalid { .. } => ErrorCode::ManifestInvalid,
        }
    }

    /// The variant for a core code, carrying `message`.
    #[must_use]
    pub fn from_code(code: ErrorCode, message: String) -> Self {
        match code {
            ErrorCode::NullArgument => Self::NullArgument { message },
            ErrorCode::InvalidUtf8 => Self::InvalidUtf8 { message },
            ErrorCode::Panic => Self::Panic { message },
            ErrorCode::InvalidArgument => Self::InvalidArgument { message },
            ErrorCode::UnknownRuntime => Self::UnknownRuntime { message },
            ErrorCode::NoConfigHome => Self::NoConfigHome { message },
            ErrorCode::InvalidScope => Self::InvalidScope { message },
            ErrorCode::DestinationOutsideConfigHome => {
                Self::DestinationOutsideConfigHome { message }
            }
            ErrorCode::InvalidHost => Self::InvalidHost { message },
            ErrorCode::InvalidDescriptor => Self::InvalidDescriptor { message },
            ErrorCode::ManifestTooLarge => Self::ManifestTooLarge { message },
            ErrorCode::ManifestTooDeep => Self::ManifestTooDeep { message },
            ErrorCode::ManifestInvalidJson => Self::ManifestInvalidJson { message },
            ErrorCode::ManifestInvalid => Self::ManifestInvalid { message },
        }
    }
}

impl From<Error> for GsdError {
    fn from(error: Error) -> Self {
        Self::from_code(error.code(), error.message().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_round_trips() {
        for code in ErrorCode::ALL {
            let error = GsdError::from_code(*code, "m".to_owned());
            assert_eq!(error.code(), *code);
            assert_eq!(error.to_string(), "m");
        }
    }
}

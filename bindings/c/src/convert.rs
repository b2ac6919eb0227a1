//! JSON in, JSON out: request decoding and result encoding for the C ABI.
//!
//! Requests arrive as UTF-8 JSON bytes and are decoded with serde into the core's own
//! request types; results leave as compact JSON in a `gsd_bytes`. A malformed request is an
//! `INVALID_ARGUMENT` error whose message names the argument and serde's reason (with the
//! line and column).

use gsd_core::error::boundary_error;
use gsd_core::{Error, ErrorCode, Registry};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::boundary::{bytes_from_vec, gsd_bytes};

/// Decodes a JSON request; `name` is the C argument name used in the error message.
pub(crate) fn decode<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, Error> {
    serde_json::from_str(text)
        .map_err(|e| boundary_error(ErrorCode::InvalidArgument, format!("{name} is not a valid request: {e}")))
}

/// Encodes a result as compact JSON bytes.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Result<gsd_bytes, Error> {
    serde_json::to_vec(value)
        .map(bytes_from_vec)
        .map_err(|e| boundary_error(ErrorCode::Panic, format!("internal error: cannot encode the result: {e}")))
}

/// The registered runtime ids, sorted, as a JSON array.
pub(crate) fn runtime_ids(registry: &Registry) -> Vec<&str> {
    registry.runtime_ids().collect()
}

/// The manifest of a registered runtime, or `UNKNOWN_RUNTIME`.
pub(crate) fn runtime_manifest<'r>(registry: &'r Registry, runtime: &str) -> Result<&'r serde_json::Value, Error> {
    match registry.capability(runtime) {
        Some(capability) if capability.runtime.is_some() => Ok(&capability.manifest),
        _ => Err(boundary_error(
            ErrorCode::UnknownRuntime,
            format!("unknown runtime '{runtime}' — not present in the capability registry"),
        )),
    }
}

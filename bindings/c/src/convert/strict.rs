//! The core's objects-only reading ([`gsd_core::strict`]) with the path of the value at
//! fault tracked, for the C API's error fields (`host.cwd`, `commands[1]`).

use gsd_core::strict::Strict;

pub(crate) use gsd_core::strict::{from_str, invalid};

/// A shape error with the path of the value at fault (`host.cwd`, `commands[1]`).
pub(crate) type PathError = serde_path_to_error::Error<serde_json::Error>;

/// `T` from a parsed value, its structs objects at every depth; an error carries the path
/// of the value at fault. The path is tracked here only: [`from_str`], the path of valid
/// requests, keeps none.
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, PathError> {
    // The tracker outside, the wrapper inside: each hands the other's deserializers on,
    // so the path is tracked, and structs are objects, at every depth.
    serde_path_to_error::deserialize(Strict(value))
}

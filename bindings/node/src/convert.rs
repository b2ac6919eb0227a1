//! Conversions: core values to pre-shaped JS values (serde → JSON value → JS in one
//! crossing), and JS inputs to core values.

use napi::Env;
use serde::Serialize;
use serde_json::Value;

use crate::error::{JsResult, invalid_argument};

/// Serializes a core value into the JSON value napi hands to JS as a plain object.
pub fn to_value<T: Serialize + ?Sized>(env: &Env, value: &T) -> JsResult<Value> {
    serde_json::to_value(value)
        .map_err(|e| invalid_argument(env, "result", &format!("result could not be serialized: {e}")))
}

/// One registered runtime as JS sees it: `{ id, descriptor }`.
#[derive(Serialize)]
pub struct RuntimeEntry<'a> {
    /// The runtime id.
    pub id: &'a str,
    /// The typed descriptor (`runtime` body of the capability).
    pub descriptor: &'a gsd_core::RuntimeDescriptor,
}

/// Every runtime of a registry, sorted by id.
pub fn runtime_entries(registry: &gsd_core::Registry) -> Vec<RuntimeEntry<'_>> {
    registry
        .runtime_ids()
        .filter_map(|id| registry.runtime(id).map(|descriptor| RuntimeEntry { id, descriptor }))
        .collect()
}

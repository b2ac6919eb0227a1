//! Node (N-API) binding for gsd-core: exports only. Conversions live in [`convert`],
//! error mapping in [`error`]. Every export is `catch_unwind`, returns one pre-shaped
//! value per call, and fails with a JS `Error` carrying `code` and `field`.

mod convert;
mod error;

use napi::Env;
use napi_derive::napi;
use serde_json::Value;

use crate::error::JsCode;

/// A capability registry kept native; pass it to the resolvers to use overlays.
#[napi]
#[derive(Debug)]
pub struct Registry {
    inner: gsd_core::Registry,
}

#[napi]
impl Registry {
    /// The embedded first-party registry (46 capabilities, 19 runtimes).
    #[napi(factory, catch_unwind)]
    pub fn first_party() -> Self {
        Self { inner: gsd_core::Registry::first_party().clone() }
    }

    /// Registered runtime ids, sorted.
    #[napi(catch_unwind)]
    pub fn runtime_ids(&self) -> Vec<String> {
        self.inner.runtime_ids().map(str::to_owned).collect()
    }

    /// Every runtime: `[{ id, descriptor }]`, sorted by id.
    #[napi(catch_unwind, ts_return_type = "Array<{ id: string; descriptor: any }>")]
    pub fn runtimes(&self, env: Env) -> napi::Result<Value, JsCode> {
        convert::to_value(&env, &convert::runtime_entries(&self.inner))
    }

    /// Diagnostics collected while building the registry (rejected overlays etc.).
    #[napi(catch_unwind, ts_return_type = "Array<any>")]
    pub fn diagnostics(&self, env: Env) -> napi::Result<Value, JsCode> {
        convert::to_value(&env, self.inner.diagnostics())
    }
}

/// The error code table: every `code` an error of this addon may carry.
#[napi(catch_unwind)]
pub fn error_codes() -> Vec<String> {
    gsd_core::ErrorCode::ALL.iter().map(|c| c.as_str().to_owned()).collect()
}


//! Error mapping: a core [`gsd_core::Error`] becomes a JS `Error` whose `code` is the
//! stable [`ErrorCode::as_str`] spelling and whose `field` names the input at fault.

use gsd_core::{Error as CoreError, ErrorCode};
use napi::Env;
use napi::bindgen_prelude::{JsError, Object};

/// The status carried by every error this addon raises: the core's code table.
#[derive(Debug, Clone, Copy)]
pub struct JsCode(pub ErrorCode);

impl AsRef<str> for JsCode {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

/// The result type of every export: failures carry a [`JsCode`].
pub type JsResult<T> = napi::Result<T, JsCode>;

/// Builds the failure of an export from a code, a message and the field at fault.
///
/// napi-rs turns a returned error into `Error { code, message }`. To attach `field`
/// (`null` when unknown) the error object is built and thrown here; napi then re-throws
/// that pending exception instead of synthesizing a second one.
pub fn fail(env: Env, code: ErrorCode, message: &str, field: Option<&str>) -> napi::Error<JsCode> {
    let built = JsError::from(napi::Error::new(JsCode(code), message)).into_unknown(env);
    // SAFETY: `built` was just created by napi_create_error in this env, so it is an object.
    if let Ok(mut object) = unsafe { built.cast::<Object>() }
        && object.set("field", field.map(str::to_owned)).is_ok()
    {
        // If throwing fails, napi still throws an error built from the returned value.
        let _ = env.throw(object);
    }
    napi::Error::new(JsCode(code), message)
}

/// Converts a core error into the failure the export returns.
pub fn to_js(env: Env, err: &CoreError) -> napi::Error<JsCode> {
    fail(env, err.code(), err.message(), err.field())
}

/// An argument whose shape this boundary rejects before the core sees it.
pub fn invalid_argument(env: Env, field: &str, message: &str) -> napi::Error<JsCode> {
    fail(env, ErrorCode::InvalidArgument, message, Some(field))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_code_crosses_with_its_own_spelling() {
        let mut seen = std::collections::BTreeSet::new();
        for code in ErrorCode::ALL {
            let status = JsCode(*code);
            assert_eq!(status.as_ref(), code.as_str());
            assert!(
                seen.insert(status.as_ref().to_owned()),
                "{code} spelled twice"
            );
        }
        assert_eq!(seen.len(), ErrorCode::ALL.len());
    }
}

//! [`Text`]: a JS string argument read into UTF-8 with one pass over it when it is ASCII.
//!
//! napi-rs reads a `String` argument with two calls of `napi_get_value_string_utf8`: the
//! first only measures the UTF-8 length (a whole pass over the string in V8), the second
//! copies. A manifest or a plan request is ASCII in practice, and then its UTF-8 length is
//! its length in UTF-16 units, which V8 knows without a pass. [`Text`] asks for that
//! length, copies once into a buffer of that size, and keeps the copy when it is the
//! whole string: exactly `units` bytes written, all ASCII (each such byte is one UTF-16
//! unit, so `units` of them are every unit). Any other string (a non-ASCII character, a
//! lone surrogate, which V8 writes as U+FFFD) is read again the way napi-rs reads it.

use std::ptr;

use napi::bindgen_prelude::{FromNapiValue, TypeName, ValidateNapiValue};
use napi::{Result, ValueType, sys};

/// A JS string argument as UTF-8 (declared `string` in TypeScript).
#[derive(Debug)]
pub struct Text(pub String);

impl TypeName for Text {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for Text {}

impl FromNapiValue for Text {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let mut units = 0;
        // SAFETY: a null buffer asks only for the length (in UTF-16 units); `env` and
        // `value` are the ones napi handed to the export.
        let status = unsafe {
            sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &raw mut units)
        };
        if status == sys::Status::napi_ok
            // SAFETY: napi answered for a string.
            && let Some(text) = unsafe { ascii(env, value, units) }
        {
            return Ok(Text(text));
        }
        // Not a string (napi-rs names the value in its error), or not ASCII.
        // SAFETY: the same arguments napi handed to the export.
        unsafe { String::from_napi_value(env, value) }.map(Text)
    }
}

/// The string `value` of `units` UTF-16 units, copied once, when it is ASCII.
///
/// # Safety
/// `env` and `value` are those napi handed to an export, `value` a string.
unsafe fn ascii(env: sys::napi_env, value: sys::napi_value, units: usize) -> Option<String> {
    // One byte more than the content: napi always writes a terminating NUL.
    let mut bytes = vec![0u8; units + 1];
    let mut written = 0;
    // SAFETY: `bytes` holds `units + 1` bytes, the size passed; napi writes at most
    // that many (the content, cut at a character boundary, then NUL).
    let status = unsafe {
        sys::napi_get_value_string_utf8(
            env,
            value,
            bytes.as_mut_ptr().cast(),
            units + 1,
            &raw mut written,
        )
    };
    if status != sys::Status::napi_ok || written != units {
        return None;
    }
    bytes.truncate(written);
    if !bytes.is_ascii() {
        return None;
    }
    // SAFETY: every byte is ASCII (checked just above), and ASCII is UTF-8; checking it
    // again with `String::from_utf8` would be a second pass over the text.
    Some(unsafe { String::from_utf8_unchecked(bytes) })
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

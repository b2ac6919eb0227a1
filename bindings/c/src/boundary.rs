//! Every raw-pointer operation of the C ABI, one helper per ownership kind.
//!
//! * `export` is the whole body of an exported function around its per-call closure:
//!   `guard` runs it inside `catch_unwind`, `finish` turns the outcome into a `gsd_status`,
//!   writing `out_error` only on failure.
//! * `borrow_handle` / `into_handle` / `free_handle` move opaque handles across.
//! * `read_str` / `read_bytes` copy caller input (pointer plus length); `write_out`
//!   writes an out-parameter; `bytes_from_vec` / `bytes_free` own `gsd_bytes`.
//!
//! Exported functions contain no raw-pointer code of their own.

use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

use gsd_core::error::boundary_error;
use gsd_core::{ErrorCode, Registry};

use crate::error::{Failure, gsd_error, gsd_status};
use crate::gsd_registry;

/// Bytes owned by the library: `len` bytes at `ptr`, followed by one NUL byte that is not
/// counted in `len` (so JSON output can be read as a C string). Free with `gsd_bytes_free`,
/// passing the struct unchanged.
#[allow(
    non_camel_case_types,
    reason = "C naming: the type is `gsd_bytes` in the header"
)]
#[repr(C)]
#[derive(Debug)]
pub struct gsd_bytes {
    /// First byte, or NULL for an empty (already freed) value.
    pub ptr: *mut u8,
    /// Number of bytes, not counting the trailing NUL.
    pub len: usize,
}

/// Shorthand for a body's result.
pub(crate) type Outcome = Result<(), Failure>;

/// Runs an exported function's body, turning a panic into a `PANIC` error.
pub(crate) fn guard(body: impl FnOnce() -> Outcome) -> Outcome {
    // The bodies write their out-parameters only as their last step, so a panic leaves
    // nothing half-written that the caller could observe; asserting unwind safety is sound.
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        Err(boundary_error(
            ErrorCode::Panic,
            "internal error: a panic was caught inside gsd-core",
        )
        .into())
    })
}

/// Reports an outcome as a status, writing a `gsd_error` to `out_error` (when it is not
/// NULL) only on failure.
///
/// # Safety
/// `out_error` must be NULL or valid for a write of one pointer.
pub(crate) unsafe fn finish(out_error: *mut *mut gsd_error, outcome: Outcome) -> gsd_status {
    match outcome {
        Ok(()) => gsd_status::Ok,
        Err(error) => {
            let detail = gsd_error::from_failure(&error);
            let status = detail.status;
            if !out_error.is_null() {
                // SAFETY: the caller guarantees a non-NULL `out_error` is writable.
                unsafe { out_error.write(into_handle(detail)) };
            }
            status
        }
    }
}

/// A failure of the argument `name` itself: its field is the C parameter's name.
fn argument(code: ErrorCode, name: &str, message: String) -> Failure {
    Failure::at(boundary_error(code, message), Some(name.to_owned()))
}

/// The error for a NULL pointer argument.
fn null(name: &str) -> Failure {
    argument(
        ErrorCode::NullArgument,
        name,
        format!("{name} must not be NULL"),
    )
}

/// Checks that an out-parameter is not NULL (before any work is done).
pub(crate) fn require_out<T>(out: *mut T, name: &str) -> Result<(), Failure> {
    if out.is_null() {
        Err(null(name))
    } else {
        Ok(())
    }
}

/// Borrows a handle the caller passed in.
///
/// # Safety
/// `handle` must be NULL or a live pointer returned by this library for type `T`, not
/// freed, and not mutated by another thread for the returned lifetime.
pub(crate) unsafe fn borrow_handle<'a, T>(handle: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: forwarded from the caller's contract; `as_ref` handles NULL.
    unsafe { handle.as_ref() }.ok_or_else(|| null(name))
}

/// Moves a value to the heap and hands its ownership to the caller.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// A new registry handle for the caller, with the edge diagnostics it carries.
pub(crate) fn new_registry(
    inner: Registry,
    edge_diagnostics: Vec<gsd_core::Diagnostic>,
) -> *mut gsd_registry {
    into_handle(gsd_registry {
        inner,
        edge_diagnostics,
    })
}

/// Takes back and drops a handle; NULL is a no-op.
///
/// # Safety
/// `handle` must be NULL or a pointer returned by [`into_handle`] for type `T` that has not
/// been freed yet.
pub(crate) unsafe fn free_handle<T>(handle: *mut T) {
    if !handle.is_null() {
        // SAFETY: the caller guarantees the pointer came from `Box::into_raw` and is live.
        drop(unsafe { Box::from_raw(handle) });
    }
}

/// Copies `len` bytes the caller passed in. `ptr` must not be NULL, even when `len` is 0.
///
/// # Safety
/// A non-NULL `ptr` must be valid for reads of `len` bytes.
pub(crate) unsafe fn read_bytes(
    ptr: *const c_char,
    len: usize,
    name: &str,
) -> Result<Vec<u8>, Failure> {
    if ptr.is_null() {
        return Err(null(name));
    }
    if isize::try_from(len).is_err() {
        return Err(argument(
            ErrorCode::InvalidArgument,
            name,
            format!("{name}: length {len} is too large"),
        ));
    }
    // SAFETY: `ptr` is non-NULL, the caller guarantees `len` readable bytes, and `len`
    // fits in isize as `from_raw_parts` requires.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }.to_vec())
}

/// Copies a UTF-8 string the caller passed in as pointer plus length.
///
/// # Safety
/// As [`read_bytes`].
pub(crate) unsafe fn read_str(
    ptr: *const c_char,
    len: usize,
    name: &str,
) -> Result<String, Failure> {
    // SAFETY: forwarded from the caller's contract.
    let bytes = unsafe { read_bytes(ptr, len, name) }?;
    String::from_utf8(bytes).map_err(|e| {
        argument(
            ErrorCode::InvalidUtf8,
            name,
            format!(
                "{name} is not valid UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Writes an out-parameter.
///
/// # Safety
/// `out` must be non-NULL (checked earlier with [`require_out`]) and valid for a write.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) {
    // SAFETY: forwarded from the caller's contract.
    unsafe { out.write(value) };
}

/// Turns owned bytes into a `gsd_bytes` with a trailing NUL that `len` does not count.
pub(crate) fn bytes_from_vec(mut bytes: Vec<u8>) -> gsd_bytes {
    let len = bytes.len();
    bytes.push(0);
    let ptr = Box::into_raw(bytes.into_boxed_slice()).cast::<u8>();
    gsd_bytes { ptr, len }
}

/// Frees a `gsd_bytes` and resets it to `{NULL, 0}`; NULL or an empty value is a no-op.
///
/// # Safety
/// `bytes` must be NULL or point to a `gsd_bytes` that is either `{NULL, _}` or exactly as
/// returned by this library and not yet freed.
pub(crate) unsafe fn bytes_free(bytes: *mut gsd_bytes) {
    // SAFETY: forwarded from the caller's contract; `as_mut` handles NULL.
    let Some(bytes) = (unsafe { bytes.as_mut() }) else {
        return;
    };
    if bytes.ptr.is_null() {
        return;
    }
    let whole = std::ptr::slice_from_raw_parts_mut(bytes.ptr, bytes.len + 1);
    // SAFETY: `ptr`/`len + 1` describe the boxed slice made by `bytes_from_vec`.
    drop(unsafe { Box::from_raw(whole) });
    bytes.ptr = std::ptr::null_mut();
    bytes.len = 0;
}

/// The whole body of every export that writes one out-parameter: the panic guard, the
/// NULL check of `out` (before any work), the out-parameter write (only on success, as the
/// last step) and the error report. `body` does the per-call work: it borrows handles and
/// copies inputs (through [`borrow_handle`] and [`read_str`]) and returns the value to write.
///
/// # Safety
/// `out` must be NULL or valid for a write of one `T`; `out_error` NULL or valid for a
/// write of one pointer.
pub(crate) unsafe fn export<T>(
    (out, out_name): (*mut T, &str),
    out_error: *mut *mut gsd_error,
    body: impl FnOnce() -> Result<T, Failure>,
) -> gsd_status {
    let outcome = guard(|| {
        require_out(out, out_name)?;
        let value = body()?;
        // SAFETY: `out` is non-NULL (checked) and writable (contract above).
        unsafe { write_out(out, value) };
        Ok(())
    });
    // SAFETY: `out_error` is NULL or writable (contract above).
    unsafe { finish(out_error, outcome) }
}

/// [`export`] for the common shape: borrow a registry, copy one JSON request
/// (`request_json`), write JSON bytes.
///
/// # Safety
/// `registry` must be NULL or live; `request` NULL or readable for `request_len` bytes;
/// `out_json` NULL or writable; `out_error` NULL or writable.
pub(crate) unsafe fn registry_json_export(
    registry: *const gsd_registry,
    request: *const c_char,
    request_len: usize,
    out_json: (*mut gsd_bytes, &str),
    out_error: *mut *mut gsd_error,
    body: impl FnOnce(&Registry, &str) -> Result<gsd_bytes, Failure>,
) -> gsd_status {
    let body = || {
        // SAFETY: `registry` is NULL or live (contract above).
        let registry = unsafe { borrow_handle(registry, "registry") }?;
        // SAFETY: `request` is NULL or readable for `request_len` bytes (contract above).
        let request = unsafe { read_str(request, request_len, "request_json") }?;
        body(&registry.inner, &request)
    };
    // SAFETY: `out_json` and `out_error` are forwarded from the contract above.
    unsafe { export(out_json, out_error, body) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_double_free_is_a_no_op() {
        let mut bytes = bytes_from_vec(b"{}".to_vec());
        assert_eq!(bytes.len, 2);
        // SAFETY: `bytes` was just made by `bytes_from_vec`; its trailing NUL is in bounds.
        assert_eq!(unsafe { *bytes.ptr.add(2) }, 0);
        // SAFETY: as above; the second call sees `{NULL, 0}`.
        unsafe {
            bytes_free(&raw mut bytes);
            bytes_free(&raw mut bytes);
            bytes_free(std::ptr::null_mut());
        }
        assert!(bytes.ptr.is_null());
    }

    #[test]
    fn read_str_rejects_null_and_bad_utf8() {
        // SAFETY: NULL is handled before any read.
        let err = unsafe { read_str(std::ptr::null(), 0, "runtime") }.unwrap_err();
        assert_eq!(
            (err.code(), err.message()),
            (ErrorCode::NullArgument, "runtime must not be NULL")
        );
        let bad = [b'c', 0xff];
        // SAFETY: `bad` is readable for its length.
        let err = unsafe { read_str(bad.as_ptr().cast(), bad.len(), "runtime") }.unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidUtf8);
        assert_eq!(
            err.message(),
            "runtime is not valid UTF-8 (invalid byte at offset 1)"
        );
    }

    #[test]
    fn a_panicking_body_reports_panic() {
        let mut error: *mut gsd_error = std::ptr::null_mut();
        let outcome = guard(|| panic!("boom"));
        // SAFETY: `error` is a writable local.
        let status = unsafe { finish(&raw mut error, outcome) };
        assert_eq!(status, gsd_status::Panic);
        // SAFETY: `call` wrote a handle made by `Box::into_raw`.
        let detail = unsafe { Box::from_raw(error) };
        assert_eq!(detail.code, c"PANIC");
    }
}

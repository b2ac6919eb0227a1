//! C ABI for gsd-core.
//!
//! Conventions (rustls-ffi style), stated once here and on every function:
//!
//! * Every fallible function returns a `gsd_status`; `GSD_STATUS_OK` is 0.
//! * Out-parameters are written only on success; `out_error` (always optional, may be
//!   NULL) is written only on failure and must then be freed with `gsd_error_free`.
//! * Handles (`gsd_registry`, `gsd_error`) are created and freed by the library; each has
//!   one `_free` that accepts NULL. Freeing twice is a caller bug.
//! * Inputs are copied, never retained. Strings and JSON cross as pointer plus length and
//!   must be UTF-8 (checked: `GSD_STATUS_INVALID_UTF8`). A NULL pointer is
//!   `GSD_STATUS_NULL_ARGUMENT`, even when its length is 0.
//! * No panic crosses the boundary: a caught panic is `GSD_STATUS_PANIC`.
//!
//! This file holds the exports only, each one closure handed to `boundary::export`.
//! Raw-pointer work is in `boundary`, JSON in `convert`, the status table in `error`, the
//! overlay-folder reader (the one place that touches the file system) in `overlay_dir`.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod boundary;
mod convert;
mod error;
mod overlay_dir;

use std::ffi::c_char;

use gsd_core::{Diagnostic, Registry};

pub use boundary::gsd_bytes;
pub use error::{gsd_error, gsd_status};

/// An immutable capability registry (first-party capabilities, optionally with overlays).
/// Create with `gsd_registry_first_party`; free with `gsd_registry_free`. A registry may be
/// shared by several threads for reading.
#[allow(
    non_camel_case_types,
    reason = "C naming: the type is `gsd_registry` in the header"
)]
#[derive(Debug)]
pub struct gsd_registry {
    pub(crate) inner: Registry,
    /// Findings of the overlay-folder loader (`gsd_registry_with_overlay_dir`), reported
    /// before the registry's own diagnostics.
    pub(crate) edge_diagnostics: Vec<Diagnostic>,
}

/// The library version, e.g. `"0.1.0"`: a static NUL-terminated string (never free it).
#[unsafe(no_mangle)]
pub extern "C" fn gsd_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// A static NUL-terminated description of a status number (never free it). Unknown
/// numbers give `"unknown status"`.
#[unsafe(no_mangle)]
pub extern "C" fn gsd_status_str(status: u32) -> *const c_char {
    error::status_text(status).as_ptr()
}

/// The status of an error. A NULL `error` gives `GSD_STATUS_NULL_ARGUMENT`.
///
/// # Safety
/// `error` must be NULL or a live `gsd_error` from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_error_code(error: *const gsd_error) -> gsd_status {
    // SAFETY: the caller passes NULL or a live handle (contract above).
    unsafe { error.as_ref() }.map_or(gsd_status::NullArgument, |e| e.status)
}

/// The stable code name of an error, e.g. `"UNKNOWN_RUNTIME"` (the status name without
/// the `GSD_STATUS_` prefix): a static NUL-terminated string. NULL for a NULL `error`.
///
/// # Safety
/// `error` must be NULL or a live `gsd_error` from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_error_code_name(error: *const gsd_error) -> *const c_char {
    // SAFETY: the caller passes NULL or a live handle (contract above).
    unsafe { error.as_ref() }.map_or(std::ptr::null(), |e| e.code.as_ptr())
}

/// The human message of an error (UTF-8, NUL-terminated). Caller text repeated in it is
/// rendered safe to print, a NUL among it as U+FFFD (`explicitDir must not contain NUL,
/// got "/a\u{FFFD}b"`); a NUL left in the message would be written as the two characters
/// `\0`, so the message is never cut short. Borrowed: valid until `gsd_error_free(error)`.
/// NULL for a NULL `error`.
///
/// # Safety
/// `error` must be NULL or a live `gsd_error` from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_error_message(error: *const gsd_error) -> *const c_char {
    // SAFETY: the caller passes NULL or a live handle (contract above).
    unsafe { error.as_ref() }.map_or(std::ptr::null(), |e| e.message.as_ptr())
}

/// The input field at fault (e.g. `"scope"`, `"host.home"`), when one is known; otherwise
/// NULL. For a request of the wrong shape (`GSD_STATUS_INVALID_ARGUMENT`) it is the path
/// of the value at fault inside the request (`"host.cwd"`, `"commands[1]"`,
/// `"host.env.HOME"`; an unknown or a missing member names itself: `"host.cwd"`,
/// `"runtime"`), NULL when the request as a whole is at fault (not JSON, not an object).
/// A failure of an argument itself (NULL, not UTF-8, a length past `PTRDIFF_MAX`, a `dir`
/// that cannot be an overlay root) names the C parameter: `"request_json"`, `"registry"`,
/// `"out_plan"`, `"dir"`. Borrowed: valid until `gsd_error_free(error)`.
///
/// # Safety
/// `error` must be NULL or a live `gsd_error` from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_error_field(error: *const gsd_error) -> *const c_char {
    // SAFETY: the caller passes NULL or a live handle (contract above).
    unsafe { error.as_ref() }
        .and_then(|e| e.field.as_ref())
        .map_or(std::ptr::null(), |f| f.as_ptr())
}

/// Frees an error written to an `out_error`. NULL is a no-op.
///
/// # Safety
/// `error` must be NULL or a `gsd_error` from this library that was not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_error_free(error: *mut gsd_error) {
    // SAFETY: the caller passes NULL or a live handle it owns (contract above).
    unsafe { boundary::free_handle(error) }
}

/// Frees bytes returned by this library and resets `*bytes` to `{NULL, 0}`, so a second
/// call is harmless. NULL, or a `gsd_bytes` whose `ptr` is NULL, is a no-op.
///
/// # Safety
/// `bytes` must be NULL or point to a `gsd_bytes` that is `{NULL, _}` or exactly as this
/// library wrote it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_bytes_free(bytes: *mut gsd_bytes) {
    // SAFETY: forwarded from the contract above.
    unsafe { boundary::bytes_free(bytes) }
}

/// Creates a handle to the embedded first-party registry (cheap: the data is shared).
///
/// On success writes a new `gsd_registry` to `out_registry`; free it with
/// `gsd_registry_free`. `out_error` may be NULL.
///
/// # Safety
/// `out_registry` must be valid for a write; `out_error` must be NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_first_party(
    out_registry: *mut *mut gsd_registry,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        Ok(boundary::new_registry(
            Registry::first_party().clone(),
            Vec::new(),
        ))
    };
    // SAFETY: `out_registry` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_registry, "out_registry"), out_error, body) }
}

/// Frees a registry. NULL is a no-op. Values already returned from it stay valid.
///
/// # Safety
/// `registry` must be NULL or a `gsd_registry` from this library that was not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_free(registry: *mut gsd_registry) {
    // SAFETY: the caller passes NULL or a live handle it owns (contract above).
    unsafe { boundary::free_handle(registry) }
}

/// The registered runtime ids, sorted, as a JSON array of strings.
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed for the call only.
///
/// # Safety
/// `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
/// `out_error` must be NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_runtime_ids(
    registry: *const gsd_registry,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `registry` is NULL or live (contract above).
        let registry = unsafe { boundary::borrow_handle(registry, "registry") }?;
        convert::encode(&registry.inner.runtime_ids().collect::<Vec<_>>())
    };
    // SAFETY: `out_json` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_json, "out_json"), out_error, body) }
}

/// The diagnostics collected while building the registry (e.g. rejected overlays), as a
/// JSON array of `{code, severity, capabilityId?, field?, message, detail?}` records.
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed for the call only.
///
/// # Safety
/// `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
/// `out_error` must be NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_diagnostics(
    registry: *const gsd_registry,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `registry` is NULL or live (contract above).
        let registry = unsafe { boundary::borrow_handle(registry, "registry") }?;
        convert::diagnostics(registry)
    };
    // SAFETY: `out_json` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_json, "out_json"), out_error, body) }
}

/// The capability manifest of a registered runtime (`runtime`: UTF-8 id, pointer plus
/// length), as JSON. An unregistered id fails with `GSD_STATUS_UNKNOWN_RUNTIME`, and so
/// does the id of a capability of another role, whose message says which
/// (`'ai-integration' is a feature capability, not a runtime`).
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `runtime` copied for the call only.
///
/// # Safety
/// `registry` must be NULL or a live `gsd_registry`; `runtime` must be NULL or readable
/// for `runtime_len` bytes; `out_json` must be valid for a write; `out_error` must be NULL
/// or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_runtime_manifest(
    registry: *const gsd_registry,
    runtime: *const c_char,
    runtime_len: usize,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `registry` is NULL or live (contract above).
        let registry = unsafe { boundary::borrow_handle(registry, "registry") }?;
        // SAFETY: `runtime` is NULL or readable for `runtime_len` bytes (contract above).
        let runtime = unsafe { boundary::read_str(runtime, runtime_len, "runtime") }?;
        convert::runtime_manifest(&registry.inner, &runtime)
    };
    // SAFETY: `out_json` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_json, "out_json"), out_error, body) }
}

/// A new registry: `base` plus third-party capability overlays. `overlays_json` is a
/// JSON array of `{"folder": "<id>", "manifest": "<capability.json text>",
/// "fragments": {"<relative path>": "<text>"}}` (fragments optional). A rejected overlay
/// does not fail the call: it is left out and its reasons appear in
/// `gsd_registry_diagnostics` of the new registry. Malformed JSON is
/// `GSD_STATUS_INVALID_ARGUMENT`.
///
/// On success writes a new `gsd_registry` to `out_registry`; free it with
/// `gsd_registry_free` (independently of `base`). `out_error` may be NULL. `base` is
/// borrowed and `overlays_json` copied for the call only.
///
/// # Safety
/// `base` must be NULL or a live `gsd_registry`; `overlays_json` must be NULL or readable for
/// `overlays_json_len` bytes; `out_registry` must be valid for a write; `out_error` must be
/// NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_with_overlays(
    base: *const gsd_registry,
    overlays_json: *const c_char,
    overlays_json_len: usize,
    out_registry: *mut *mut gsd_registry,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `base` is NULL or live (contract above).
        let base = unsafe { boundary::borrow_handle(base, "base") }?;
        // SAFETY: `overlays_json` is NULL or readable for its length (contract above).
        let text =
            unsafe { boundary::read_str(overlays_json, overlays_json_len, "overlays_json") }?;
        let inner = convert::with_overlays(&base.inner, &text)?;
        Ok(boundary::new_registry(inner, base.edge_diagnostics.clone()))
    };
    // SAFETY: `out_registry` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_registry, "out_registry"), out_error, body) }
}

/// Resolves the install plan of one runtime at one scope. `request_json` is a JSON
/// `PlanRequest`: `{"runtime", "scope": "global"|"local", "host": {"home", "cwd", "env"?,
/// "existingPaths"?}, "explicitDir"?, "commands"?, "agents"?, "routerStems"?,
/// "childToRouters"?, "profile"?}`. Failures: `GSD_STATUS_UNKNOWN_RUNTIME`,
/// `GSD_STATUS_INVALID_SCOPE`, `GSD_STATUS_NO_CONFIG_HOME`, `GSD_STATUS_INVALID_HOST`,
/// `GSD_STATUS_DESTINATION_OUTSIDE_CONFIG_HOME`, `GSD_STATUS_INVALID_ARGUMENT` (bad JSON,
/// or a request of the wrong shape: not an object, or a member that is unknown, missing or
/// of the wrong type; the shape is checked before the scope, so a malformed request holding
/// a bad scope is `GSD_STATUS_INVALID_ARGUMENT`). Every request of this API is a JSON object, and so is
/// every record in it (`host`, `profile`, `facts`): an array in their place is refused.
///
/// On success writes the `Plan` as JSON to `out_plan`; free it with `gsd_bytes_free`.
/// `out_error` may be NULL. `registry` is borrowed and `request_json` copied for the call.
///
/// # Safety
/// `registry` must be NULL or a live `gsd_registry`; `request_json` must be NULL or readable
/// for `request_json_len` bytes; `out_plan` must be valid for a write; `out_error` must be
/// NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_install_plan(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_plan: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_plan, "out_plan"),
            out_error,
            convert::install_plan,
        )
    }
}

/// Resolves the install plans of one runtime at several scopes at once: `request_json` is
/// the request of `gsd_resolve_install_plan` with `"scopes": ["global"|"local", ..]` (any
/// order, duplicates ignored) instead of `"scope"`; the result is a `PlanSet`: `plans` (one
/// per scope, global first, each equal to the single-scope plan), `triggers` (the surface
/// across the scopes, cross-scope shadowing included) and `diagnostics`
/// (`trigger_shadowed`). Failures as for `gsd_resolve_install_plan`; a `scope` member or a
/// missing or malformed `scopes` is `GSD_STATUS_INVALID_ARGUMENT`, and so is a non-blank
/// `explicitDir` with both scopes (field `explicitDir`: it wins for each scope, so both
/// plans would install into one folder), or two scopes that resolve to one folder against
/// `host.cwd` otherwise (field `scopes`: the project is the home directory, or the
/// runtime's variable names the project's folder).
///
/// On success writes the JSON to `out_plans`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_install_plans(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_plans: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_plans, "out_plans"),
            out_error,
            convert::install_plans,
        )
    }
}

/// Resolves one install scope: `request_json` is `{"runtime", "scope", "host",
/// "explicitDir"?}`; the result is `{"id", "configHome", "settingsFile", "consentRequired",
/// "hostPrecedenceRank", "provenance"}`.
///
/// On success writes the JSON to `out_scope`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_scope(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_scope: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_scope, "out_scope"),
            out_error,
            convert::scope,
        )
    }
}

/// The host paths whose existence `gsd_resolve_scope` may test for the same request (a
/// JSON array of strings, in test order): the caller checks exactly these and passes the
/// ones that exist as `host.existingPaths`.
///
/// On success writes the JSON to `out_paths`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_scope_probe_paths(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_paths: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_paths, "out_paths"),
            out_error,
            convert::scope_probe_paths,
        )
    }
}

/// Resolves a runtime's global config directory from its `configHome` descriptor:
/// `request_json` is `{"runtime", "host"}`; the result is `{"configHome", "provenance",
/// "probePaths"}`. vscode (kind `none`) fails with `GSD_STATUS_NO_CONFIG_HOME`.
///
/// On success writes the JSON to `out_home`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_config_home(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_home: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_home, "out_home"),
            out_error,
            convert::config_home,
        )
    }
}

/// Resolves the trigger surface of a runtime across scopes: `request_json` is
/// `{"runtime", "scopes": [..], "stems"?, "routerStems"?, "childToRouters"?}`; the result is
/// an array of `{"trigger", "kind", "scope", "destPath", "registration", "routerTrigger",
/// "shadowedBy"}` (every loser names its winner in `shadowedBy`).
///
/// On success writes the JSON to `out_triggers`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_trigger_surface(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_triggers: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_triggers, "out_triggers"),
            out_error,
            convert::trigger_surface,
        )
    }
}

/// Validates one capability manifest (`manifest`: the `capability.json` text; `folder`: the
/// folder name it was read from). The manifest is bounded before it is parsed:
/// `GSD_STATUS_MANIFEST_TOO_LARGE`, `GSD_STATUS_MANIFEST_TOO_DEEP` and
/// `GSD_STATUS_MANIFEST_INVALID_JSON` are failures; validation findings are not: the result
/// is `{"valid": bool, "errors": [Diagnostic], "warnings": [Diagnostic]}` (warnings only
/// for a valid manifest).
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. Both inputs are copied for the call only.
///
/// # Safety
/// `manifest` and `folder` must be NULL or readable for their lengths; `out_json` must be
/// valid for a write; `out_error` must be NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_validate_capability(
    manifest: *const c_char,
    manifest_len: usize,
    folder: *const c_char,
    folder_len: usize,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `manifest` is NULL or readable for `manifest_len` bytes (contract above).
        let manifest = unsafe { boundary::read_str(manifest, manifest_len, "manifest") }?;
        // SAFETY: `folder` is NULL or readable for `folder_len` bytes (contract above).
        let folder = unsafe { boundary::read_str(folder, folder_len, "folder") }?;
        convert::validate(&manifest, &folder)
    };
    // SAFETY: `out_json` and `out_error` are NULL or writable (contract above).
    unsafe { boundary::export((out_json, "out_json"), out_error, body) }
}

/// What the caller must look at before `gsd_resolve_installed_surfaces`: `request_json` is
/// `{"runtime"?, "host"}` (no runtime: every registered runtime); the result is an array of
/// `{"configHome", "manifestPath"}`, each once. The caller `lstat`s both paths and reads the
/// manifest, and passes what it found as `facts`.
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_surface_probe_requests(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_json, "out_json"),
            out_error,
            convert::surface_probes,
        )
    }
}

/// Which GSD surfaces are installed: `request_json` is `{"runtime"?, "host", "facts"?:
/// {"homes": {"<configHome>": {"configHomeIsSymlink"?, "manifestIsSymlink"?, "manifest"?,
/// "manifestUnreadable"?}}}}` (`manifestUnreadable`: why the manifest could not be read,
/// reported as `install_manifest_unreadable`); the result is `{"surfaces": [..],
/// "diagnostics": [..]}`.
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_resolve_installed_surfaces(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_json, "out_json"),
            out_error,
            convert::installed_surfaces,
        )
    }
}

/// The shadow report of one runtime: `request_json` is `{"runtime", "host", "facts"?}` (as
/// for `gsd_resolve_installed_surfaces`, with a required runtime); the result is
/// `{"runtime", "reason", "shadowed", "winner", "shadowedSide", "kindsDiffer", "triggers",
/// "mismatches"}`.
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed and `request_json` copied for the call only.
///
/// # Safety
/// As `gsd_resolve_install_plan`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_build_shadow_report(
    registry: *const gsd_registry,
    request_json: *const c_char,
    request_json_len: usize,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    // SAFETY: forwarded from the contract above.
    unsafe {
        boundary::registry_json_export(
            registry,
            request_json,
            request_json_len,
            (out_json, "out_json"),
            out_error,
            convert::shadow_report,
        )
    }
}

/// Test-only: panics inside the library, to prove the caller gets `GSD_STATUS_PANIC` (and
/// a `PANIC` error in `out_error`) while the process keeps running. Built only with the
/// `test-panic` cargo feature; declared in the header under `GSD_TEST_PANIC`.
///
/// # Safety
/// `out_error` must be NULL or valid for a write.
#[cfg(feature = "test-panic")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_test_panic(out_error: *mut *mut gsd_error) -> gsd_status {
    let outcome = boundary::guard(|| panic!("gsd_test_panic: deliberate panic"));
    // SAFETY: `out_error` is NULL or writable (contract above).
    unsafe { boundary::finish(out_error, outcome) }
}

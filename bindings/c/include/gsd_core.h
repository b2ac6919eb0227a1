/*
 * gsd_core.h: C API of gsd-core.
 *
 * Generated from bindings/c/src by cbindgen; do not edit. See docs/c-api.md.
 *
 * Ownership in one paragraph: the library allocates and frees every object it returns.
 * Handles (gsd_registry, gsd_error) have exactly one _free function each, which accepts
 * NULL. Out-parameters are written only on success, except out_error, which is written
 * only on failure (and may be NULL when the caller does not want details). Inputs are
 * copied, never retained. Strings cross as pointer plus length and must be UTF-8 (a
 * file-system path, the overlay root of gsd_registry_with_overlay_dir, may be any bytes
 * but NUL).
 */

#ifndef GSD_CORE_H
#define GSD_CORE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The version of this header. gsd_version() gives the version of the library loaded; a
 * program can refuse to run when the two differ:
 *     if (strcmp(gsd_version(), GSD_CORE_VERSION) != 0) ...
 * Before 1.0 any minor version may change the ABI.
 */
#define GSD_CORE_VERSION "0.1.0"
#define GSD_CORE_VERSION_MAJOR 0
#define GSD_CORE_VERSION_MINOR 1
#define GSD_CORE_VERSION_PATCH 0

/**
 * Result of every fallible `gsd_*` function. `GSD_STATUS_OK` (0) means success; any other
 * value names the failure, and the matching `gsd_error` (when `out_error` was given)
 * carries the message. Ranges: 1-99 boundary failures, 100-199 resolution failures,
 * 200-299 manifest failures.
 */
enum gsd_status
#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L
  : uint32_t
#endif // defined(__cplusplus) || __STDC_VERSION__ >= 202311L
 {
  /**
   * Success.
   */
  GSD_STATUS_OK = 0,
  /**
   * A required pointer argument was NULL.
   */
  GSD_STATUS_NULL_ARGUMENT = 1,
  /**
   * A string argument was not valid UTF-8.
   */
  GSD_STATUS_INVALID_UTF8 = 2,
  /**
   * A panic was caught inside the library (a bug in gsd-core); the process is intact.
   */
  GSD_STATUS_PANIC = 3,
  /**
   * An argument had the wrong shape or value (bad JSON, wrong field type, too long).
   */
  GSD_STATUS_INVALID_ARGUMENT = 4,
  /**
   * The runtime id is not registered.
   */
  GSD_STATUS_UNKNOWN_RUNTIME = 100,
  /**
   * The runtime has no installable config directory (`configHome.kind: none`).
   */
  GSD_STATUS_NO_CONFIG_HOME = 101,
  /**
   * The scope id is not exactly `global` or `local`.
   */
  GSD_STATUS_INVALID_SCOPE = 102,
  /**
   * A destination would fall outside its config directory.
   */
  GSD_STATUS_DESTINATION_OUTSIDE_CONFIG_HOME = 103,
  /**
   * The host facts are malformed (e.g. a relative home).
   */
  GSD_STATUS_INVALID_HOST = 104,
  /**
   * A runtime descriptor in the registry cannot be resolved.
   */
  GSD_STATUS_INVALID_DESCRIPTOR = 105,
  /**
   * A manifest exceeds the size bound.
   */
  GSD_STATUS_MANIFEST_TOO_LARGE = 200,
  /**
   * A manifest exceeds the nesting bound.
   */
  GSD_STATUS_MANIFEST_TOO_DEEP = 201,
  /**
   * A manifest is not valid JSON.
   */
  GSD_STATUS_MANIFEST_INVALID_JSON = 202,
  /**
   * Reserved, never returned: validation findings are diagnostics, not a failure.
   */
  GSD_STATUS_MANIFEST_INVALID = 203,
};
#ifndef __cplusplus
#if __STDC_VERSION__ >= 202311L
typedef enum gsd_status gsd_status;
#else
typedef uint32_t gsd_status;
#endif // __STDC_VERSION__ >= 202311L
#endif // __cplusplus

/**
 * Failure detail: the status, its stable code name, a message and the field at fault.
 * Created only through the `out_error` of a `gsd_*` call; read with `gsd_error_code`,
 * `gsd_error_code_name`, `gsd_error_message` and `gsd_error_field`; free with
 * `gsd_error_free`.
 */
typedef struct gsd_error gsd_error;

/**
 * An immutable capability registry (first-party capabilities, optionally with overlays).
 * Create with `gsd_registry_first_party`; free with `gsd_registry_free`. A registry may be
 * shared by several threads for reading.
 */
typedef struct gsd_registry gsd_registry;

/**
 * Bytes owned by the library: `len` bytes at `ptr`, followed by one NUL byte that is not
 * counted in `len` (so JSON output can be read as a C string). Free with `gsd_bytes_free`,
 * passing the struct unchanged.
 */
typedef struct {
  /**
   * First byte, or NULL for an empty (already freed) value.
   */
  uint8_t *ptr;
  /**
   * Number of bytes, not counting the trailing NUL.
   */
  size_t len;
} gsd_bytes;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * The library version, e.g. `"0.1.0"`: a static NUL-terminated string (never free it).
 */
const char *gsd_version(void);

/**
 * A static NUL-terminated description of a status number (never free it). Unknown
 * numbers give `"unknown status"`.
 */
const char *gsd_status_str(uint32_t status);

/**
 * The status of an error. A NULL `error` gives `GSD_STATUS_NULL_ARGUMENT`.
 *
 * # Safety
 * `error` must be NULL or a live `gsd_error` from this library.
 */
gsd_status gsd_error_code(const gsd_error *error);

/**
 * The stable code name of an error, e.g. `"UNKNOWN_RUNTIME"` (the status name without
 * the `GSD_STATUS_` prefix): a static NUL-terminated string. NULL for a NULL `error`.
 *
 * # Safety
 * `error` must be NULL or a live `gsd_error` from this library.
 */
const char *gsd_error_code_name(const gsd_error *error);

/**
 * The human message of an error (UTF-8, NUL-terminated). Caller text repeated in it is
 * rendered safe to print, a NUL among it as U+FFFD (`explicitDir must not contain NUL,
 * got "/a\u{FFFD}b"`); a NUL left in the message would be written as the two characters
 * `\0`, so the message is never cut short. Borrowed: valid until `gsd_error_free(error)`.
 * NULL for a NULL `error`.
 *
 * # Safety
 * `error` must be NULL or a live `gsd_error` from this library.
 */
const char *gsd_error_message(const gsd_error *error);

/**
 * The input field at fault (e.g. `"scope"`, `"host.home"`), when one is known; otherwise
 * NULL. For a request of the wrong shape (`GSD_STATUS_INVALID_ARGUMENT`) it is the path
 * of the value at fault inside the request (`"host.cwd"`, `"commands[1]"`,
 * `"host.env.HOME"`; an unknown or a missing member names itself: `"host.cwd"`,
 * `"runtime"`), NULL when the request as a whole is at fault (not JSON, not an object).
 * A failure of an argument itself (NULL, not UTF-8, a length past `PTRDIFF_MAX`, a `dir`
 * that cannot be an overlay root) names the C parameter: `"request_json"`, `"registry"`,
 * `"out_plan"`, `"dir"`. Borrowed: valid until `gsd_error_free(error)`.
 *
 * # Safety
 * `error` must be NULL or a live `gsd_error` from this library.
 */
const char *gsd_error_field(const gsd_error *error);

/**
 * Frees an error written to an `out_error`. NULL is a no-op.
 *
 * # Safety
 * `error` must be NULL or a `gsd_error` from this library that was not freed yet.
 */
void gsd_error_free(gsd_error *error);

/**
 * Frees bytes returned by this library and resets `*bytes` to `{NULL, 0}`, so a second
 * call is harmless. NULL, or a `gsd_bytes` whose `ptr` is NULL, is a no-op.
 *
 * # Safety
 * `bytes` must be NULL or point to a `gsd_bytes` that is `{NULL, _}` or exactly as this
 * library wrote it.
 */
void gsd_bytes_free(gsd_bytes *bytes);

/**
 * Creates a handle to the embedded first-party registry (cheap: the data is shared).
 *
 * On success writes a new `gsd_registry` to `out_registry`; free it with
 * `gsd_registry_free`. `out_error` may be NULL.
 *
 * # Safety
 * `out_registry` must be valid for a write; `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_registry_first_party(gsd_registry **out_registry, gsd_error **out_error);

/**
 * Frees a registry. NULL is a no-op. Values already returned from it stay valid.
 *
 * # Safety
 * `registry` must be NULL or a `gsd_registry` from this library that was not freed yet.
 */
void gsd_registry_free(gsd_registry *registry);

/**
 * The registered runtime ids, sorted, as a JSON array of strings.
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed for the call only.
 *
 * # Safety
 * `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
 * `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_registry_runtime_ids(const gsd_registry *registry,
                                    gsd_bytes *out_json,
                                    gsd_error **out_error);

/**
 * The diagnostics collected while building the registry (e.g. rejected overlays), as a
 * JSON array of `{code, severity, capabilityId?, field?, message, detail?}` records.
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed for the call only.
 *
 * # Safety
 * `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
 * `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_registry_diagnostics(const gsd_registry *registry,
                                    gsd_bytes *out_json,
                                    gsd_error **out_error);

/**
 * The capability manifest of a registered runtime (`runtime`: UTF-8 id, pointer plus
 * length), as JSON. An unregistered id fails with `GSD_STATUS_UNKNOWN_RUNTIME`, and so
 * does the id of a capability of another role, whose message says which
 * (`'ai-integration' is a feature capability, not a runtime`).
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `runtime` copied for the call only.
 *
 * # Safety
 * `registry` must be NULL or a live `gsd_registry`; `runtime` must be NULL or readable
 * for `runtime_len` bytes; `out_json` must be valid for a write; `out_error` must be NULL
 * or valid for a write.
 */
gsd_status gsd_registry_runtime_manifest(const gsd_registry *registry,
                                         const char *runtime,
                                         size_t runtime_len,
                                         gsd_bytes *out_json,
                                         gsd_error **out_error);

/**
 * A new registry: `base` plus third-party capability overlays. `overlays_json` is a
 * JSON array of `{"folder": "<id>", "manifest": "<capability.json text>",
 * "fragments": {"<relative path>": "<text>"}}` (fragments optional). A rejected overlay
 * does not fail the call: it is left out and its reasons appear in
 * `gsd_registry_diagnostics` of the new registry. Malformed JSON is
 * `GSD_STATUS_INVALID_ARGUMENT`.
 *
 * On success writes a new `gsd_registry` to `out_registry`; free it with
 * `gsd_registry_free` (independently of `base`). `out_error` may be NULL. `base` is
 * borrowed and `overlays_json` copied for the call only.
 *
 * # Safety
 * `base` must be NULL or a live `gsd_registry`; `overlays_json` must be NULL or readable for
 * `overlays_json_len` bytes; `out_registry` must be valid for a write; `out_error` must be
 * NULL or valid for a write.
 */
gsd_status gsd_registry_with_overlays(const gsd_registry *base,
                                      const char *overlays_json,
                                      size_t overlays_json_len,
                                      gsd_registry **out_registry,
                                      gsd_error **out_error);

/**
 * Resolves the install plan of one runtime at one scope. `request_json` is a JSON
 * `PlanRequest`: `{"runtime", "scope": "global"|"local", "host": {"home", "cwd", "env"?,
 * "existingPaths"?}, "explicitDir"?, "commands"?, "agents"?, "routerStems"?,
 * "childToRouters"?, "profile"?}`. Failures: `GSD_STATUS_UNKNOWN_RUNTIME`,
 * `GSD_STATUS_INVALID_SCOPE`, `GSD_STATUS_NO_CONFIG_HOME`, `GSD_STATUS_INVALID_HOST`,
 * `GSD_STATUS_DESTINATION_OUTSIDE_CONFIG_HOME`, `GSD_STATUS_INVALID_ARGUMENT` (bad JSON,
 * or a request of the wrong shape: not an object, or a member that is unknown, missing or
 * of the wrong type; the shape is checked before the scope, so a malformed request holding
 * a bad scope is `GSD_STATUS_INVALID_ARGUMENT`). Every request of this API is a JSON object, and so is
 * every record in it (`host`, `profile`, `facts`): an array in their place is refused.
 *
 * On success writes the `Plan` as JSON to `out_plan`; free it with `gsd_bytes_free`.
 * `out_error` may be NULL. `registry` is borrowed and `request_json` copied for the call.
 *
 * # Safety
 * `registry` must be NULL or a live `gsd_registry`; `request_json` must be NULL or readable
 * for `request_json_len` bytes; `out_plan` must be valid for a write; `out_error` must be
 * NULL or valid for a write.
 */
gsd_status gsd_resolve_install_plan(const gsd_registry *registry,
                                    const char *request_json,
                                    size_t request_json_len,
                                    gsd_bytes *out_plan,
                                    gsd_error **out_error);

/**
 * Resolves the install plans of one runtime at several scopes at once: `request_json` is
 * the request of `gsd_resolve_install_plan` with `"scopes": ["global"|"local", ..]` (any
 * order, duplicates ignored) instead of `"scope"`; the result is a `PlanSet`: `plans` (one
 * per scope, global first, each equal to the single-scope plan), `triggers` (the surface
 * across the scopes, cross-scope shadowing included) and `diagnostics`
 * (`trigger_shadowed`). Failures as for `gsd_resolve_install_plan`; a `scope` member or a
 * missing or malformed `scopes` is `GSD_STATUS_INVALID_ARGUMENT`, and so is a non-blank
 * `explicitDir` with both scopes (field `explicitDir`: it wins for each scope, so both
 * plans would install into one folder), or two scopes that resolve to one folder against
 * `host.cwd` otherwise (field `scopes`: the project is the home directory, or the
 * runtime's variable names the project's folder).
 *
 * On success writes the JSON to `out_plans`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_resolve_install_plans(const gsd_registry *registry,
                                     const char *request_json,
                                     size_t request_json_len,
                                     gsd_bytes *out_plans,
                                     gsd_error **out_error);

/**
 * Resolves one install scope: `request_json` is `{"runtime", "scope", "host",
 * "explicitDir"?}`; the result is `{"id", "configHome", "settingsFile", "consentRequired",
 * "hostPrecedenceRank", "provenance"}`.
 *
 * On success writes the JSON to `out_scope`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_resolve_scope(const gsd_registry *registry,
                             const char *request_json,
                             size_t request_json_len,
                             gsd_bytes *out_scope,
                             gsd_error **out_error);

/**
 * The host paths whose existence `gsd_resolve_scope` may test for the same request (a
 * JSON array of strings, in test order): the caller checks exactly these and passes the
 * ones that exist as `host.existingPaths`.
 *
 * On success writes the JSON to `out_paths`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_scope_probe_paths(const gsd_registry *registry,
                                 const char *request_json,
                                 size_t request_json_len,
                                 gsd_bytes *out_paths,
                                 gsd_error **out_error);

/**
 * Resolves a runtime's global config directory from its `configHome` descriptor:
 * `request_json` is `{"runtime", "host"}`; the result is `{"configHome", "provenance",
 * "probePaths"}`. vscode (kind `none`) fails with `GSD_STATUS_NO_CONFIG_HOME`.
 *
 * On success writes the JSON to `out_home`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_resolve_config_home(const gsd_registry *registry,
                                   const char *request_json,
                                   size_t request_json_len,
                                   gsd_bytes *out_home,
                                   gsd_error **out_error);

/**
 * Resolves the trigger surface of a runtime across scopes: `request_json` is
 * `{"runtime", "scopes": [..], "stems"?, "routerStems"?, "childToRouters"?}`; the result is
 * an array of `{"trigger", "kind", "scope", "destPath", "registration", "routerTrigger",
 * "shadowedBy"}` (every loser names its winner in `shadowedBy`).
 *
 * On success writes the JSON to `out_triggers`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_resolve_trigger_surface(const gsd_registry *registry,
                                       const char *request_json,
                                       size_t request_json_len,
                                       gsd_bytes *out_triggers,
                                       gsd_error **out_error);

/**
 * Validates one capability manifest (`manifest`: the `capability.json` text; `folder`: the
 * folder name it was read from). The manifest is bounded before it is parsed:
 * `GSD_STATUS_MANIFEST_TOO_LARGE`, `GSD_STATUS_MANIFEST_TOO_DEEP` and
 * `GSD_STATUS_MANIFEST_INVALID_JSON` are failures; validation findings are not: the result
 * is `{"valid": bool, "errors": [Diagnostic], "warnings": [Diagnostic]}` (warnings only
 * for a valid manifest).
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. Both inputs are copied for the call only.
 *
 * # Safety
 * `manifest` and `folder` must be NULL or readable for their lengths; `out_json` must be
 * valid for a write; `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_validate_capability(const char *manifest,
                                   size_t manifest_len,
                                   const char *folder,
                                   size_t folder_len,
                                   gsd_bytes *out_json,
                                   gsd_error **out_error);

/**
 * What the caller must look at before `gsd_resolve_installed_surfaces`: `request_json` is
 * `{"runtime"?, "host"}` (no runtime: every registered runtime); the result is an array of
 * `{"configHome", "manifestPath"}`, each once. The caller `lstat`s both paths and reads the
 * manifest, and passes what it found as `facts`.
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_surface_probe_requests(const gsd_registry *registry,
                                      const char *request_json,
                                      size_t request_json_len,
                                      gsd_bytes *out_json,
                                      gsd_error **out_error);

/**
 * Which GSD surfaces are installed: `request_json` is `{"runtime"?, "host", "facts"?:
 * {"homes": {"<configHome>": {"configHomeIsSymlink"?, "manifestIsSymlink"?, "manifest"?,
 * "manifestUnreadable"?}}}}` (`manifestUnreadable`: why the manifest could not be read,
 * reported as `install_manifest_unreadable`); the result is `{"surfaces": [..],
 * "diagnostics": [..]}`.
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_resolve_installed_surfaces(const gsd_registry *registry,
                                          const char *request_json,
                                          size_t request_json_len,
                                          gsd_bytes *out_json,
                                          gsd_error **out_error);

/**
 * The shadow report of one runtime: `request_json` is `{"runtime", "host", "facts"?}` (as
 * for `gsd_resolve_installed_surfaces`, with a required runtime); the result is
 * `{"runtime", "reason", "shadowed", "winner", "shadowedSide", "kindsDiffer", "triggers",
 * "mismatches"}`.
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed and `request_json` copied for the call only.
 *
 * # Safety
 * As `gsd_resolve_install_plan`.
 */
gsd_status gsd_build_shadow_report(const gsd_registry *registry,
                                   const char *request_json,
                                   size_t request_json_len,
                                   gsd_bytes *out_json,
                                   gsd_error **out_error);

#if defined(GSD_TEST_PANIC)
/**
 * Test-only: panics inside the library, to prove the caller gets `GSD_STATUS_PANIC` (and
 * a `PANIC` error in `out_error`) while the process keeps running. Built only with the
 * `test-panic` cargo feature; declared in the header under `GSD_TEST_PANIC`.
 *
 * # Safety
 * `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_test_panic(gsd_error **out_error);
#endif

/**
 * A new registry: `base` plus the third-party capability folders found under the
 * overlay root directory `dir` (a path: pointer plus length, any bytes except NUL; not
 * required to be UTF-8). The folders are read from disk here, at the edge (the core does
 * no IO), by these rules: entries in bytewise name order; the root must be a real
 * directory; a root entry that is a symlink is refused, one that is not a directory is
 * ignored (never opened); inside a folder nothing is followed or opened unless it is a
 * regular file: a symlink, a FIFO/socket/device, a directory named `capability.json`, more
 * than 1024 files, more than 1024 directories, a depth past 16, a name or file that is
 * not UTF-8, a folder name holding a control, bidi or zero-width character or a
 * backslash, or an unreadable file refuses the folder; so do more than 32 MiB of files in one folder, or a folder that
 * would take the folders read from the root past 256 MiB (both known from `lstat` before
 * anything is opened; bytes read are counted as well). Refusals are diagnostics
 * (`overlay_symlink_refused`, `overlay_not_regular_file`, `overlay_manifest_missing`,
 * `overlay_too_many_files`, `overlay_too_large`, `overlay_not_utf8`, `overlay_unsafe_name`,
 * `overlay_unreadable`; severity error, `capabilityId` the folder, `field` the relative
 * path at fault; names escaped, never raw) that `gsd_registry_diagnostics` of the new
 * registry lists first, before the registry's own (e.g. an admitted folder that fails
 * validation).
 * A root that is missing, a symlink (also when spelled with a trailing `/` or `/.`) or not
 * a directory fails the call with `GSD_STATUS_INVALID_ARGUMENT` naming the path.
 *
 * On success writes a new `gsd_registry` to `out_registry`; free it with
 * `gsd_registry_free` (independently of `base`). `out_error` may be NULL. `base` is
 * borrowed and `dir` copied for the call only.
 *
 * # Safety
 * `base` must be NULL or a live `gsd_registry`; `dir` must be NULL or readable for
 * `dir_len` bytes; `out_registry` must be valid for a write; `out_error` must be NULL or
 * valid for a write.
 */
gsd_status gsd_registry_with_overlay_dir(const gsd_registry *base,
                                         const char *dir,
                                         size_t dir_len,
                                         gsd_registry **out_registry,
                                         gsd_error **out_error);

/**
 * The ids of the third-party capabilities admitted into the registry (from overlays),
 * sorted, as a JSON array of strings (`[]` for the first-party registry).
 *
 * On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
 * may be NULL. `registry` is borrowed for the call only.
 *
 * # Safety
 * `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
 * `out_error` must be NULL or valid for a write.
 */
gsd_status gsd_registry_third_party_ids(const gsd_registry *registry,
                                        gsd_bytes *out_json,
                                        gsd_error **out_error);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* GSD_CORE_H */

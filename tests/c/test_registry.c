/*
 * test_registry.c: the boundary rules of the C API, on the registry entry points.
 *
 * Success and every failure path: NULL arguments, invalid UTF-8, an unknown runtime,
 * out-parameters left untouched on failure, NULL-tolerant and repeatable frees, status
 * texts, and (with GSD_TEST_PANIC) a panic reported as GSD_STATUS_PANIC.
 * Expected values come from the capability tables of the specification, not from output.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* The 19 first-party runtime ids, sorted (design document, runtime list). */
static const char *const EXPECTED_RUNTIME_IDS =
    "[\"antigravity\",\"augment\",\"claude\",\"cline\",\"codebuddy\",\"codex\",\"copilot\","
    "\"cursor\",\"hermes\",\"kilo\",\"kimi\",\"kimi-code\",\"opencode\",\"pi\",\"qwen\","
    "\"trae\",\"vscode\",\"windsurf\",\"zcode\"]";

/* A sentinel the library must leave alone on failure. */
static uint8_t sentinel_byte;
#define SENTINEL_BYTES {&sentinel_byte, 7}

static void test_version_and_status_texts(void) {
    CHECK(str_eq(gsd_version(), GSD_EXPECTED_VERSION));
    /* The header describes the library it ships with (the package version, from Cargo). */
    CHECK(str_eq(GSD_CORE_VERSION, GSD_EXPECTED_VERSION));
    /* The three numbers begin the version string (a pre-release or build suffix follows). */
    char parts[32];
    int n = snprintf(parts, sizeof parts, "%d.%d.%d", GSD_CORE_VERSION_MAJOR, GSD_CORE_VERSION_MINOR,
                     GSD_CORE_VERSION_PATCH);
    CHECK(n > 0 && strncmp(GSD_EXPECTED_VERSION, parts, (size_t)n) == 0);
    CHECK(strchr("-+", GSD_EXPECTED_VERSION[n]) != NULL);
    CHECK(str_eq(gsd_status_str(GSD_STATUS_OK), "ok"));
    CHECK(str_eq(gsd_status_str(GSD_STATUS_UNKNOWN_RUNTIME), "the runtime id is not registered"));
    CHECK(str_eq(gsd_status_str(GSD_STATUS_PANIC), "internal error: a panic was caught inside gsd-core"));
    CHECK(str_eq(gsd_status_str(99), "unknown status"));
    CHECK(str_eq(gsd_status_str(UINT32_MAX), "unknown status"));
    CHECK(str_eq(gsd_status_str(GSD_STATUS_MANIFEST_INVALID), "reserved, never returned: validation findings are diagnostics"));
}

static void test_first_party_runtime_ids(void) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
    gsd_bytes ids = {NULL, 0};
    gsd_bytes diagnostics = {NULL, 0};

    CHECK(gsd_registry_first_party(&registry, &err) == GSD_STATUS_OK);
    CHECK(registry != NULL);
    CHECK(err == NULL);
    if (registry == NULL) goto cleanup;

    CHECK(gsd_registry_runtime_ids(registry, &ids, &err) == GSD_STATUS_OK);
    CHECK(bytes_eq(&ids, EXPECTED_RUNTIME_IDS));
    CHECK(ids.ptr != NULL && ids.ptr[ids.len] == '\0');

    CHECK(gsd_registry_diagnostics(registry, &diagnostics, &err) == GSD_STATUS_OK);
    CHECK(bytes_eq(&diagnostics, "[]"));
    CHECK(err == NULL);

cleanup:
#if !defined(GSD_LEAK_ON_PURPOSE) /* negative control for the leak checkers */
    gsd_bytes_free(&ids);
#endif
    gsd_bytes_free(&diagnostics);
    gsd_registry_free(registry);
    gsd_error_free(err);
}

static void test_runtime_manifest(void) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
    gsd_bytes manifest = {NULL, 0};

    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    CHECK(gsd_registry_runtime_manifest(registry, STR("claude"), &manifest, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&manifest, "\"id\":\"claude\""));
    /* spec 14.1: claude's configHome is dot-home `.claude` overridden by CLAUDE_CONFIG_DIR */
    CHECK(bytes_contain(&manifest, "\"kind\":\"dot-home\""));
    CHECK(bytes_contain(&manifest, "\"name\":\".claude\""));
    CHECK(bytes_contain(&manifest, "\"CLAUDE_CONFIG_DIR\""));

cleanup:
    gsd_bytes_free(&manifest);
    gsd_registry_free(registry);
    gsd_error_free(err);
}

static void test_unknown_runtime_and_bad_utf8(void) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
    gsd_bytes out = SENTINEL_BYTES;
    gsd_status status;
    static const char bad_utf8[] = {'c', 'l', (char)0xff, 'd'};

    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }

    /* gemini survives only as a reviewer lane: not a runtime, and said to be what it is */
    status = gsd_registry_runtime_manifest(registry, STR("gemini"), &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME");
    CHECK_MESSAGE(err, "'gemini' is a reviewer capability, not a runtime");
    CHECK(str_eq(gsd_error_field(err), "runtime"));
    CHECK(out.ptr == &sentinel_byte && out.len == 7);
    gsd_error_free(err);
    err = NULL;

    /* ids are exact: no trimming, no case folding */
    status = gsd_registry_runtime_manifest(registry, STR("Claude"), &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME");
    gsd_error_free(err);
    err = NULL;

    status = gsd_registry_runtime_manifest(registry, bad_utf8, sizeof bad_utf8, &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_INVALID_UTF8, "INVALID_UTF8");
    CHECK_MESSAGE(err, "runtime is not valid UTF-8 (invalid byte at offset 2)");
    CHECK(out.ptr == &sentinel_byte && out.len == 7);
    gsd_error_free(err);
    err = NULL;

    /* a length that stops before the id's end is a different id */
    status = gsd_registry_runtime_manifest(registry, "claude", 5, &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME");
    CHECK_MESSAGE(err, "unknown runtime 'claud' — not present in the capability registry");

    /* out_error may be NULL: the status alone still reports the failure */
    CHECK(gsd_registry_runtime_manifest(registry, STR("nope"), &out, NULL) == GSD_STATUS_UNKNOWN_RUNTIME);
    CHECK(out.ptr == &sentinel_byte);

cleanup:
    gsd_registry_free(registry);
    gsd_error_free(err);
}

static void test_null_arguments(void) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
    gsd_bytes out = SENTINEL_BYTES;
    gsd_status status;

    status = gsd_registry_first_party(NULL, &err);
    CHECK_ERROR(status, err, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT");
    CHECK_MESSAGE(err, "out_registry must not be NULL");
    CHECK(str_eq(gsd_error_field(err), "out_registry"));
    gsd_error_free(err);
    err = NULL;

    status = gsd_registry_runtime_ids(NULL, &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT");
    CHECK_MESSAGE(err, "registry must not be NULL");
    CHECK(out.ptr == &sentinel_byte);
    gsd_error_free(err);
    err = NULL;

    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    status = gsd_registry_runtime_ids(registry, NULL, &err);
    CHECK_ERROR(status, err, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT");
    CHECK_MESSAGE(err, "out_json must not be NULL");
    gsd_error_free(err);
    err = NULL;

    /* a NULL string is NULL_ARGUMENT even with length 0 */
    status = gsd_registry_runtime_manifest(registry, NULL, 0, &out, &err);
    CHECK_ERROR(status, err, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT");
    CHECK_MESSAGE(err, "runtime must not be NULL");
    CHECK(out.ptr == &sentinel_byte);

cleanup:
    gsd_registry_free(registry);
    gsd_error_free(err);
}

static void test_frees_accept_null_and_repeat(void) {
    gsd_registry *registry = NULL;
    gsd_bytes ids = {NULL, 0};

    gsd_registry_free(NULL);
    gsd_error_free(NULL);
    gsd_bytes_free(NULL);
    gsd_bytes_free(&ids); /* {NULL, 0}: a no-op */

    CHECK(gsd_error_code(NULL) == GSD_STATUS_NULL_ARGUMENT);
    CHECK(gsd_error_code_name(NULL) == NULL);
    CHECK(gsd_error_message(NULL) == NULL);
    CHECK(gsd_error_field(NULL) == NULL);

    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    CHECK(gsd_registry_runtime_ids(registry, &ids, NULL) == GSD_STATUS_OK);
    gsd_bytes_free(&ids);
    CHECK(ids.ptr == NULL && ids.len == 0);
    gsd_bytes_free(&ids); /* freed bytes are reset, so a second free is harmless */

cleanup:
    gsd_bytes_free(&ids);
    gsd_registry_free(registry);
}

static void test_registries_are_independent(void) {
    gsd_registry *first = NULL;
    gsd_registry *second = NULL;
    gsd_bytes ids = {NULL, 0};

    CHECK(gsd_registry_first_party(&first, NULL) == GSD_STATUS_OK);
    CHECK(gsd_registry_first_party(&second, NULL) == GSD_STATUS_OK);
    if (first == NULL || second == NULL) goto cleanup;
    CHECK(first != second);
    gsd_registry_free(first);
    first = NULL;
    CHECK(gsd_registry_runtime_ids(second, &ids, NULL) == GSD_STATUS_OK);
    CHECK(bytes_eq(&ids, EXPECTED_RUNTIME_IDS));

cleanup:
    gsd_bytes_free(&ids);
    gsd_registry_free(first);
    gsd_registry_free(second);
}

#if defined(GSD_TEST_PANIC)
static void test_panic_is_caught(void) {
    gsd_error *err = NULL;
    gsd_status status = gsd_test_panic(&err);
    CHECK_ERROR(status, err, GSD_STATUS_PANIC, "PANIC");
    CHECK_MESSAGE(err, "internal error: a panic was caught inside gsd-core");
    gsd_error_free(err);
    /* the process lives and the library still works */
    CHECK(gsd_test_panic(NULL) == GSD_STATUS_PANIC);
    CHECK(str_eq(gsd_version(), GSD_EXPECTED_VERSION));
}
#endif

int main(void) {
    test_version_and_status_texts();
    test_first_party_runtime_ids();
    test_runtime_manifest();
    test_unknown_runtime_and_bad_utf8();
    test_null_arguments();
    test_frees_accept_null_and_repeat();
    test_registries_are_independent();
#if defined(GSD_TEST_PANIC)
    test_panic_is_caught();
#endif
    return CHECK_SUMMARY();
}

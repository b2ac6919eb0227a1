/*
 * test_validate.c: capability validation, overlays, installed surfaces and the shadow report
 * through the C API. Expected messages and values come from the specification (sections 9
 * and 11), not from output.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define HOST "\"host\":{\"home\":\"/home/u\",\"cwd\":\"/work/p\"}"

static uint8_t sentinel_byte;

static void expect_manifest_failure(const char *text, size_t len, gsd_status status, const char *name) {
    gsd_bytes out = {&sentinel_byte, 1};
    gsd_error *err = NULL;
    gsd_status got = gsd_validate_capability(text, len, STR("x"), &out, &err);
    CHECK_ERROR(got, err, status, name);
    CHECK(out.ptr == &sentinel_byte);
    gsd_error_free(err);
}

static void test_validation(gsd_registry *registry) {
    gsd_bytes manifest = {NULL, 0};
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;
    char *huge = NULL;
    char deep[201];

    /* spec 11.2: every shipped manifest validates with no errors and no warnings */
    CHECK(gsd_registry_runtime_manifest(registry, STR("codex"), &manifest, &err) == GSD_STATUS_OK);
    if (manifest.ptr == NULL) goto cleanup;
    CHECK(gsd_validate_capability((const char *)manifest.ptr, manifest.len, STR("codex"), &out, &err) ==
          GSD_STATUS_OK);
    CHECK(bytes_eq(&out, "{\"valid\":true,\"errors\":[],\"warnings\":[]}"));
    gsd_bytes_free(&out);

    /* spec 11.2: the id must equal the folder name */
    CHECK(gsd_validate_capability((const char *)manifest.ptr, manifest.len, STR("other"), &out, &err) ==
          GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"valid\":false"));
    CHECK(bytes_contain(&out, "id \\\"codex\\\" must equal the folder name \\\"other\\\""));
    gsd_bytes_free(&out);

    /* spec 11.2: a non-object is rejected with exactly one message */
    CHECK(gsd_validate_capability(STR("[]"), STR("x"), &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "capability must be a JSON object"));
    gsd_bytes_free(&out);

    /* bounded before parsing: too large, too deep, not JSON */
    huge = malloc(8 * 1024 * 1024 + 2);
    if (huge == NULL) goto cleanup;
    memset(huge, ' ', 8 * 1024 * 1024 + 1);
    huge[0] = '{';
    expect_manifest_failure(huge, 8 * 1024 * 1024 + 1, GSD_STATUS_MANIFEST_TOO_LARGE, "MANIFEST_TOO_LARGE");
    memset(deep, '[', 200);
    deep[200] = '\0';
    expect_manifest_failure(deep, 200, GSD_STATUS_MANIFEST_TOO_DEEP, "MANIFEST_TOO_DEEP");
    expect_manifest_failure(STR("{\"id\": }"), GSD_STATUS_MANIFEST_INVALID_JSON, "MANIFEST_INVALID_JSON");
    expect_manifest_failure(NULL, 0, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT");
    expect_manifest_failure("\xc3", 1, GSD_STATUS_INVALID_UTF8, "INVALID_UTF8");

cleanup:
    CHECK(err == NULL);
    free(huge);
    gsd_bytes_free(&manifest);
    gsd_bytes_free(&out);
    gsd_error_free(err);
}

static void test_overlays(gsd_registry *registry) {
    gsd_registry *next = NULL;
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;
    gsd_registry *untouched = (gsd_registry *)&sentinel_byte;

    /* a rejected overlay is not a failure: it becomes diagnostics of the new registry */
    CHECK(gsd_registry_with_overlays(registry, STR("[{\"folder\":\"my-tool\",\"manifest\":\"[]\"}]"), &next, &err) ==
          GSD_STATUS_OK);
    if (next == NULL) goto cleanup;
    CHECK(gsd_registry_diagnostics(next, &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"severity\":\"error\""));
    CHECK(bytes_contain(&out, "\"code\":\"overlay_rejected\""));
    CHECK(bytes_contain(&out, "\"capabilityId\":\"my-tool\""));
    gsd_bytes_free(&out);
    /* the base registry is unchanged */
    CHECK(gsd_registry_diagnostics(registry, &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_eq(&out, "[]"));
    gsd_bytes_free(&out);

    CHECK(gsd_registry_with_overlays(registry, STR("{\"folder\":1}"), &untouched, &err) ==
          GSD_STATUS_INVALID_ARGUMENT);
    CHECK(str_eq(gsd_error_code_name(err), "INVALID_ARGUMENT"));
    CHECK(gsd_error_field(err) == NULL); /* not an array: the argument itself is at fault */
    CHECK(untouched == (gsd_registry *)&sentinel_byte);
    gsd_error_free(err);
    err = NULL;

    /* a shape error inside names the value at fault by its path */
    CHECK(gsd_registry_with_overlays(registry, STR("[{\"folder\":\"my-tool\",\"manifest\":7}]"), &untouched,
                                     &err) == GSD_STATUS_INVALID_ARGUMENT);
    CHECK(str_eq(gsd_error_field(err), "[0].manifest"));
    CHECK_MESSAGE(err,
                  "overlays_json is not a valid request: [0].manifest: invalid type: integer `7`, expected a string");
    CHECK(untouched == (gsd_registry *)&sentinel_byte);

cleanup:
    gsd_bytes_free(&out);
    gsd_registry_free(next);
    gsd_error_free(err);
}

static void test_surfaces_and_shadow_report(gsd_registry *registry) {
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;

    /* what to look at: both claude config homes and their manifests */
    CHECK(gsd_surface_probe_requests(registry, STR("{\"runtime\":\"claude\"," HOST "}"), &out, &err) ==
          GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/home/u/.claude\""));
    CHECK(bytes_contain(&out, "\"configHome\":\"/work/p/.claude\""));
    CHECK(bytes_contain(&out, "gsd-file-manifest.json"));
    gsd_bytes_free(&out);

    /* nothing on disk: nothing installed */
    CHECK(gsd_resolve_installed_surfaces(registry, STR("{\"runtime\":\"claude\"," HOST "}"), &out, &err) ==
          GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"installed\":false"));
    CHECK(!bytes_contain(&out, "\"installed\":true"));
    gsd_bytes_free(&out);

    /* spec 9: no installed triggers -> not_shadowed; an unknown runtime -> resolver_unavailable */
    CHECK(gsd_build_shadow_report(registry, STR("{\"runtime\":\"claude\"," HOST "}"), &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"reason\":\"not_shadowed\""));
    CHECK(bytes_contain(&out, "\"shadowed\":false"));
    gsd_bytes_free(&out);
    CHECK(gsd_build_shadow_report(registry, STR("{\"runtime\":\"gemini\"," HOST "}"), &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"reason\":\"resolver_unavailable\""));
    gsd_bytes_free(&out);

    CHECK(gsd_resolve_installed_surfaces(registry, STR("{\"runtime\":\"gemini\"," HOST "}"), &out, &err) ==
          GSD_STATUS_UNKNOWN_RUNTIME);
    CHECK(str_eq(gsd_error_code_name(err), "UNKNOWN_RUNTIME"));
    gsd_error_free(err);
    err = NULL;

    /* the shadow report requires its runtime: null is a mistyped member named as such,
       absent a missing one (the request itself at fault, no field) */
    CHECK(gsd_build_shadow_report(registry, STR("{\"runtime\":null," HOST "}"), &out, &err) ==
          GSD_STATUS_INVALID_ARGUMENT);
    CHECK(str_eq(gsd_error_field(err), "runtime"));
    CHECK(str_eq(gsd_error_message(err),
                 "request_json is not a valid request: runtime: invalid type: null, expected a string"));
    gsd_error_free(err);
    err = NULL;
    CHECK(gsd_build_shadow_report(registry, STR("{" HOST "}"), &out, &err) == GSD_STATUS_INVALID_ARGUMENT);
    CHECK(str_eq(gsd_error_field(err), "runtime"));
    CHECK(str_eq(gsd_error_message(err), "request_json is not a valid request: runtime: missing field `runtime`"));
    /* the surface calls take an absent or null runtime as every registered runtime */
    CHECK(gsd_surface_probe_requests(registry, STR("{\"runtime\":null," HOST "}"), &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/home/u/.codex\""));
    gsd_bytes_free(&out);

    gsd_bytes_free(&out);
    gsd_error_free(err);
}

int main(void) {
    gsd_registry *registry = NULL;
    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    test_validation(registry);
    test_overlays(registry);
    test_surfaces_and_shadow_report(registry);
cleanup:
    gsd_registry_free(registry);
    return CHECK_SUMMARY();
}

/*
 * test_plans.c: gsd_resolve_install_plans (several scopes at once) through the C API,
 * success and every failure path. The set's plans are cross-checked against the
 * single-scope plans of gsd_resolve_install_plan byte for byte; the cross-scope shadowing
 * facts come from the specification (a global skill beats the local command of the same
 * trigger, #2218), as core/tests/plan_resolve.rs and the peer parity test assert them.
 */
#include <stdint.h>

#include "check.h"

#define HOST "\"host\":{\"home\":\"/home/u\",\"cwd\":\"/work/p\"}"
#define INVENTORY "\"commands\":[\"help\",\"plan-phase\"],\"agents\":[\"gsd-executor\"]"

static uint8_t sentinel_byte;

/* Number of (non-overlapping) occurrences of needle in library bytes. */
static int count_in(const gsd_bytes *bytes, const char *needle) {
    int n = 0;
    const char *at = bytes->ptr == NULL ? NULL : (const char *)bytes->ptr;
    while (at != NULL && (at = strstr(at, needle)) != NULL) {
        n++;
        at += strlen(needle);
    }
    return n;
}

/* The single-scope plan of claude at `scope`, as JSON (empty on failure). */
static gsd_bytes single_plan(gsd_registry *registry, const char *scope) {
    char request[256];
    gsd_bytes plan = {NULL, 0};
    snprintf(request, sizeof request, "{\"runtime\":\"claude\",\"scope\":\"%s\"," HOST "," INVENTORY "}", scope);
    CHECK(gsd_resolve_install_plan(registry, STR(request), &plan, NULL) == GSD_STATUS_OK);
    return plan;
}

static void test_set_equals_single_scope_plans(gsd_registry *registry) {
    /* scopes given local first, with a duplicate: the set is still global, local */
    const char *request = "{\"runtime\":\"claude\",\"scopes\":[\"local\",\"global\",\"local\"]," HOST "," INVENTORY "}";
    gsd_bytes set = {NULL, 0};
    gsd_bytes global = single_plan(registry, "global");
    gsd_bytes local = single_plan(registry, "local");
    gsd_error *err = NULL;
    size_t prefix_len = strlen("{\"plans\":[");

    CHECK(gsd_resolve_install_plans(registry, STR(request), &set, &err) == GSD_STATUS_OK);
    CHECK(err == NULL);
    if (set.ptr == NULL || global.ptr == NULL || local.ptr == NULL) goto cleanup;
    /* {"plans":[<global plan>,<local plan>],"triggers":... with each plan byte-identical */
    CHECK(set.len > prefix_len + global.len + 1 + local.len);
    CHECK(memcmp(set.ptr, "{\"plans\":[", prefix_len) == 0);
    CHECK(memcmp(set.ptr + prefix_len, global.ptr, global.len) == 0);
    CHECK(set.ptr[prefix_len + global.len] == ',');
    CHECK(memcmp(set.ptr + prefix_len + global.len + 1, local.ptr, local.len) == 0);
    CHECK(memcmp(set.ptr + prefix_len + global.len + 1 + local.len, "],\"triggers\":[", 14) == 0);

    /* spec (#2218): across scopes the global skills shadow the local commands of the same
       trigger: exactly the two local commands lose, each naming its winner */
    CHECK(count_in(&set, "\"shadowedBy\":{\"kind\":\"skills\",\"scope\":\"global\"}") == 4);
    CHECK(count_in(&set, "\"shadowedBy\":{") == 4); /* 2 losers, each repeated in its warning */
    CHECK(bytes_contain(&set, "\"trigger\":\"gsd-help\",\"kind\":\"commands\",\"scope\":\"local\","
                              "\"destPath\":\"commands/gsd-help.md\""));
    CHECK(bytes_contain(&set, "\"destPath\":\"commands/gsd-plan-phase.md\",\"registration\":\"direct\","
                              "\"routerTrigger\":null,\"shadowedBy\":{\"kind\":\"skills\",\"scope\":\"global\"}"));
    /* the single-scope plans see no shadowing at all (one kind per scope for claude) */
    CHECK(count_in(&global, "\"shadowedBy\":{") == 0);
    CHECK(count_in(&local, "\"shadowedBy\":{") == 0);
    /* one trigger_shadowed warning per losing trigger, in the set's own diagnostics */
    CHECK(count_in(&set, "\"code\":\"trigger_shadowed\"") == 2);
    CHECK(bytes_contain(&set, "\"message\":\"trigger 'gsd-help' of local commands is shadowed by global skills\""));

cleanup:
    gsd_bytes_free(&set);
    gsd_bytes_free(&global);
    gsd_bytes_free(&local);
    gsd_error_free(err);
}

static void test_one_scope_set(gsd_registry *registry) {
    const char *request = "{\"runtime\":\"claude\",\"scopes\":[\"global\"]," HOST "," INVENTORY "}";
    gsd_bytes set = {NULL, 0};
    gsd_bytes global = single_plan(registry, "global");

    CHECK(gsd_resolve_install_plans(registry, STR(request), &set, NULL) == GSD_STATUS_OK);
    if (set.ptr != NULL && global.ptr != NULL) {
        CHECK(set.len > 10 + global.len);
        CHECK(memcmp(set.ptr + 10, global.ptr, global.len) == 0);
        CHECK(memcmp(set.ptr + 10 + global.len, "],", 2) == 0);
        CHECK(bytes_contain(&set, "\"diagnostics\":[]}"));
    }
    gsd_bytes_free(&set);
    gsd_bytes_free(&global);
}

/* One failing request: status, code name, optional message, out left untouched. */
static void expect_failure(gsd_registry *registry, const char *request, size_t len, gsd_status status,
                           const char *name, const char *message) {
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;
    gsd_status got = gsd_resolve_install_plans(registry, request, len, &out, &err);
    CHECK_ERROR(got, err, status, name);
    if (message != NULL) CHECK_MESSAGE(err, message);
    CHECK(out.ptr == &sentinel_byte && out.len == 3);
    gsd_error_free(err);
}

#define FAIL(request, status, name, message) expect_failure(registry, STR(request), status, name, message)

static void test_failures(gsd_registry *registry) {
    static const char bad_utf8[] = "{\"runtime\":\"cl\xff\"}";
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;

    FAIL("{\"runtime\":\"gemini\",\"scopes\":[\"global\"]," HOST "}", GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME",
         "unknown runtime 'gemini' — not present in the capability registry");
    /* spec 2: scope ids are exact, also inside scopes */
    FAIL("{\"runtime\":\"claude\",\"scopes\":[\"global\",\"Local\"]," HOST "}", GSD_STATUS_INVALID_SCOPE,
         "INVALID_SCOPE", "id must be one of 'global' | 'local', got \"Local\"");
    /* spec 2 step 3: vscode has configHome.kind none */
    FAIL("{\"runtime\":\"vscode\",\"scopes\":[\"global\"]," HOST "}", GSD_STATUS_NO_CONFIG_HOME, "NO_CONFIG_HOME",
         NULL);
    FAIL("{\"runtime\":\"claude\",\"scopes\":[\"global\"],\"host\":{\"home\":\"/h\",\"cwd\":\"rel\"}}",
         GSD_STATUS_INVALID_HOST, "INVALID_HOST", NULL);
    FAIL("{\"runtime\":\"claude\",\"scope\":\"global\"," HOST "}", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         "request_json is not a valid request: unknown field `scope`, expected `scopes` (an array of scopes)");
    FAIL("{\"runtime\":\"claude\"," HOST "}", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         "request_json is not a valid request: missing field `scopes`");
    FAIL("{\"runtime\":\"claude\",\"scopes\":\"global\"," HOST "}", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         NULL);
    FAIL("{\"runtime\":\"claude\",\"scopes\":[1]," HOST "}", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", NULL);
    /* no scopes: an empty set, not an error */
    CHECK(gsd_resolve_install_plans(registry, STR("{\"runtime\":\"claude\",\"scopes\":[]," HOST "}"), &out, NULL) ==
          GSD_STATUS_OK);
    CHECK(bytes_eq(&out, "{\"plans\":[],\"triggers\":[],\"diagnostics\":[]}"));
    gsd_bytes_free(&out);
    out.ptr = &sentinel_byte;
    FAIL("[\"global\"]", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         "request_json is not a valid request: expected an object");
    FAIL("{\"scopes\":[\"global\"]," HOST "}", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         "request_json is not a valid request: missing field `runtime`");
    FAIL("{\"runtime\": ", GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", NULL);
    expect_failure(registry, NULL, 0, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "request_json must not be NULL");
    expect_failure(NULL, STR("{}"), GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "registry must not be NULL");
    expect_failure(registry, bad_utf8, sizeof bad_utf8 - 1, GSD_STATUS_INVALID_UTF8, "INVALID_UTF8",
                   "request_json is not valid UTF-8 (invalid byte at offset 14)");

    CHECK(gsd_resolve_install_plans(registry, STR("{}"), NULL, &err) == GSD_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE(err, "out_plans must not be NULL");
    gsd_error_free(err);
    /* out_error may be NULL: the status alone reports the failure */
    CHECK(gsd_resolve_install_plans(registry, STR("{\"runtime\":\"nope\",\"scopes\":[\"local\"]," HOST "}"), &out,
                                    NULL) == GSD_STATUS_UNKNOWN_RUNTIME);
    CHECK(out.ptr == &sentinel_byte);
}

int main(void) {
    gsd_registry *registry = NULL;
    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    test_set_equals_single_scope_plans(registry);
    test_one_scope_set(registry);
    test_failures(registry);
cleanup:
    gsd_registry_free(registry);
    return CHECK_SUMMARY();
}

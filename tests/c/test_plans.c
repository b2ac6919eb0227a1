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

/* One request of the wrong shape: INVALID_ARGUMENT, the exact message, and the field (the
   path of the value at fault; NULL: the request itself), out left untouched. */
static void expect_shape_failure(gsd_registry *registry, const char *request, const char *field,
                                 const char *message) {
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;
    gsd_status got = gsd_resolve_install_plans(registry, STR(request), &out, &err);
    CHECK_ERROR(got, err, GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT");
    CHECK_MESSAGE(err, message);
    if (field != NULL) {
        CHECK(str_eq(gsd_error_field(err), field));
    } else {
        CHECK(gsd_error_field(err) == NULL);
    }
    CHECK(out.ptr == &sentinel_byte && out.len == 3);
    gsd_error_free(err);
}

#define SHAPE(request, field, message) expect_shape_failure(registry, request, field, message)

static void test_failures(gsd_registry *registry) {
    static const char bad_utf8[] = "{\"runtime\":\"cl\xff\"}";
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;

    FAIL("{\"runtime\":\"gemini\",\"scopes\":[\"global\"]," HOST "}", GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME",
         "unknown runtime 'gemini' — not present in the capability registry");
    /* spec 2: scope ids are exact, also inside scopes */
    FAIL("{\"runtime\":\"claude\",\"scopes\":[\"global\",\"Local\"]," HOST "}", GSD_STATUS_INVALID_SCOPE,
         "INVALID_SCOPE", "id must be one of 'global' | 'local', got \"Local\"");
    {
        /* the field names the entry at fault */
        static const char local[] = "{\"runtime\":\"claude\",\"scopes\":[\"global\",\"Local\"]," HOST "}";
        CHECK(gsd_resolve_install_plans(registry, local, sizeof local - 1, &out, &err) == GSD_STATUS_INVALID_SCOPE);
        CHECK(str_eq(gsd_error_field(err), "scopes[1]"));
        gsd_error_free(err);
        err = NULL;
    }
    /* spec 2 step 3: vscode has configHome.kind none */
    FAIL("{\"runtime\":\"vscode\",\"scopes\":[\"global\"]," HOST "}", GSD_STATUS_NO_CONFIG_HOME, "NO_CONFIG_HOME",
         NULL);
    FAIL("{\"runtime\":\"claude\",\"scopes\":[\"global\"],\"host\":{\"home\":\"/h\",\"cwd\":\"rel\"}}",
         GSD_STATUS_INVALID_HOST, "INVALID_HOST", NULL);
    /* a project at the home directory: both scopes would install into ~/.claude */
    FAIL("{\"runtime\":\"claude\",\"scopes\":[\"local\",\"global\"],\"host\":{\"home\":\"/h\",\"cwd\":\"/h\"}}",
         GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT",
         "the global and local scopes both resolve to \"/h/.claude\" (host.cwd holds the global config "
         "directory), so both plans would install into one folder; plan one scope");
    SHAPE("{\"runtime\":\"claude\",\"scope\":\"global\"," HOST "}", "scope",
          "request_json is not a valid request: scope: unknown field `scope`, expected `scopes` (an array of scopes)");
    /* the shape is checked before the scopes: a `scope` member is INVALID_ARGUMENT even when
       its value is not a scope, and so is any malformed request holding a bad scope */
    SHAPE("{\"runtime\":\"claude\",\"scope\":\"bogus\",\"scopes\":[\"local\"]," HOST "}", "scope",
          "request_json is not a valid request: scope: unknown field `scope`, expected `scopes` (an array of scopes)");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"bogus\"]}", "host",
          "request_json is not a valid request: host: missing field `host`");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"Local\",1]," HOST "}", "scopes[1]",
          "request_json is not a valid request: scopes[1]: invalid type: integer `1`, expected a string");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"bogus\"],\"host\":[\"/h\",\"/w\"]}", "host",
          "request_json is not a valid request: host: invalid type: sequence, expected struct Host");
    SHAPE("[\"claude\",[\"Global\"],{\"home\":\"/h\",\"cwd\":\"/w\"}]", NULL,
          "request_json is not a valid request: expected an object");
    SHAPE("{\"runtime\":\"claude\"," HOST "}", "scopes", "request_json is not a valid request: scopes: missing field `scopes`");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":\"global\"," HOST "}", "scopes",
          "request_json is not a valid request: scopes: invalid type: string \"global\", expected a sequence");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[1]," HOST "}", "scopes[0]",
          "request_json is not a valid request: scopes[0]: invalid type: integer `1`, expected a string");
    /* the rest of the request names its field as gsd_resolve_install_plan does */
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"global\"],\"host\":{\"home\":\"/h\",\"cwd\":1}}", "host.cwd",
          "request_json is not a valid request: host.cwd: invalid type: integer `1`, expected a string");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"global\"]," HOST ",\"commands\":[\"help\",null]}", "commands[1]",
          "request_json is not a valid request: commands[1]: invalid type: null, expected a string");
    SHAPE("{\"runtime\":\"claude\",\"scopes\":[\"global\"],\"host\":{\"home\":\"/h\",\"cwd\":\"/w\",\"enviroment\":{}}}",
          "host.enviroment",
          "request_json is not a valid request: host.enviroment: unknown field `enviroment`, expected one of `home`, "
          "`cwd`, `env`, `existingPaths`");
    /* no scopes: an empty set, not an error */
    CHECK(gsd_resolve_install_plans(registry, STR("{\"runtime\":\"claude\",\"scopes\":[]," HOST "}"), &out, NULL) ==
          GSD_STATUS_OK);
    CHECK(bytes_eq(&out, "{\"plans\":[],\"triggers\":[],\"diagnostics\":[]}"));
    gsd_bytes_free(&out);
    out.ptr = &sentinel_byte;
    SHAPE("[\"global\"]", NULL, "request_json is not a valid request: expected an object");
    SHAPE("{\"scopes\":[\"global\"]," HOST "}", "runtime", "request_json is not a valid request: runtime: missing field `runtime`");
    SHAPE("{\"runtime\": ", NULL, "request_json is not a valid request: EOF while parsing a value at line 1 column 12");
    expect_failure(registry, NULL, 0, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "request_json must not be NULL");
    expect_failure(NULL, STR("{}"), GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT", "registry must not be NULL");
    expect_failure(registry, bad_utf8, sizeof bad_utf8 - 1, GSD_STATUS_INVALID_UTF8, "INVALID_UTF8",
                   "request_json is not valid UTF-8 (invalid byte at offset 14)");

    CHECK(gsd_resolve_install_plans(registry, STR("{}"), NULL, &err) == GSD_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE(err, "out_plans must not be NULL");
    CHECK(str_eq(gsd_error_field(err), "out_plans"));
    gsd_error_free(err);
    /* A failure of an argument itself names the argument as its field. */
    {
        static const struct {
            int null_registry;
            const char *request;
            size_t len;
            const char *field;
            const char *message;
        } cases[] = {
            {0, NULL, 0, "request_json", "request_json must not be NULL"},
            {1, "{}", 2, "registry", "registry must not be NULL"},
            {0, bad_utf8, sizeof bad_utf8 - 1, "request_json", "request_json is not valid UTF-8 (invalid byte at offset 14)"},
            {0, "{}", (size_t)-1, "request_json", "request_json: length 18446744073709551615 is too large"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            gsd_bytes unused = {NULL, 0};
            CHECK(gsd_resolve_install_plans(cases[i].null_registry ? NULL : registry, cases[i].request, cases[i].len,
                                            &unused, &err) != GSD_STATUS_OK);
            CHECK_MESSAGE(err, cases[i].message);
            CHECK(str_eq(gsd_error_field(err), cases[i].field));
            gsd_error_free(err);
        }
    }
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

/*
 * test_resolve.c: install plans, scopes, config homes and trigger surfaces through the C
 * API, success and failure paths. Expected values come from the specification's tables
 * (config homes 14.1/14.2, layouts 14.4, scope rules section 2), not from output.
 */
#include <stdint.h>

#include "check.h"

#define HOST "\"host\":{\"home\":\"/home/u\",\"cwd\":\"/work/p\"}"

static uint8_t sentinel_byte;

/* Runs a registry+JSON entry point and returns its status; *out holds the JSON on success. */
typedef gsd_status (*json_fn)(const gsd_registry *, const char *, size_t, gsd_bytes *, gsd_error **);

static void test_claude_global_plan(gsd_registry *registry) {
    gsd_bytes plan = {NULL, 0};
    gsd_error *err = NULL;
    const char *request = "{\"runtime\":\"claude\",\"scope\":\"global\"," HOST ","
                          "\"commands\":[\"help\"],\"agents\":[\"gsd-executor\"]}";

    CHECK(gsd_resolve_install_plan(registry, STR(request), &plan, &err) == GSD_STATUS_OK);
    if (err != NULL) fprintf(stderr, "  error: %s\n", gsd_error_message(err));
    /* spec 14.2: claude global config home is <HOME>/.claude; settings file settings.json */
    CHECK(bytes_contain(&plan, "\"configHome\":\"/home/u/.claude\""));
    CHECK(bytes_contain(&plan, "\"settingsFile\":\"settings.json\""));
    CHECK(bytes_contain(&plan, "\"consentRequired\":false"));
    CHECK(bytes_contain(&plan, "\"hostPrecedenceRank\":2"));
    /* spec 14.4: claude global installs skills (gsd- prefix) and agents under the config home */
    CHECK(bytes_contain(&plan, "\"destDir\":\"/home/u/.claude/skills\""));
    CHECK(bytes_contain(&plan, "\"destDir\":\"/home/u/.claude/agents\""));
    CHECK(bytes_contain(&plan, "\"converter\":\"convertClaudeCommandToClaudeSkill\""));
    CHECK(bytes_contain(&plan, "\"trigger\":\"gsd-help\""));
    CHECK(bytes_contain(&plan, "\"destination\":\"/home/u/.claude/agents/gsd-executor.md\""));
    /* spec 14.3: claude uses slash-hyphen commands and support tier 1 */
    CHECK(bytes_contain(&plan, "\"commandStyle\":\"slash-hyphen\""));
    CHECK(bytes_contain(&plan, "\"supportTier\":1"));

    gsd_bytes_free(&plan);
    gsd_error_free(err);
}

static void test_scope_and_config_home(gsd_registry *registry) {
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;

    /* spec 2: local = join(cwd, localConfigDir), settings.local.json, consent, rank 1 */
    CHECK(gsd_resolve_scope(registry, STR("{\"runtime\":\"claude\",\"scope\":\"local\"," HOST "}"), &out, &err) ==
          GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"id\":\"local\""));
    CHECK(bytes_contain(&out, "\"configHome\":\"/work/p/.claude\""));
    CHECK(bytes_contain(&out, "\"settingsFile\":\"settings.local.json\""));
    CHECK(bytes_contain(&out, "\"consentRequired\":true"));
    CHECK(bytes_contain(&out, "\"hostPrecedenceRank\":1"));
    gsd_bytes_free(&out);

    /* spec 2: an explicit "~/x" directory wins for both scopes and expands against home */
    CHECK(gsd_resolve_scope(registry,
                            STR("{\"runtime\":\"codex\",\"scope\":\"local\",\"explicitDir\":\"~/x\"," HOST "}"),
                            &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/home/u/x\""));
    gsd_bytes_free(&out);

    /* spec 3.1: dot-home honours its env override with tilde expansion */
    CHECK(gsd_resolve_config_home(registry,
                                  STR("{\"runtime\":\"claude\",\"host\":{\"home\":\"/home/u\",\"cwd\":\"/w\","
                                      "\"env\":{\"CLAUDE_CONFIG_DIR\":\"~/alt\"}}}"),
                                  &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/home/u/alt\""));
    gsd_bytes_free(&out);

    /* spec 14.2: kilo (xdg) defaults to <HOME>/.config/kilo; XDG_CONFIG_HOME moves it */
    CHECK(gsd_resolve_config_home(registry, STR("{\"runtime\":\"kilo\"," HOST "}"), &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/home/u/.config/kilo\""));
    gsd_bytes_free(&out);
    CHECK(gsd_resolve_config_home(registry,
                                  STR("{\"runtime\":\"kilo\",\"host\":{\"home\":\"/home/u\",\"cwd\":\"/w\","
                                      "\"env\":{\"XDG_CONFIG_HOME\":\"/xdg\"}}}"),
                                  &out, &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "\"configHome\":\"/xdg/kilo\""));
    gsd_bytes_free(&out);

    /* spec 14.1: antigravity probes ~/.gemini/antigravity* for gsd-core/VERSION */
    CHECK(gsd_scope_probe_paths(registry, STR("{\"runtime\":\"antigravity\",\"scope\":\"global\"," HOST "}"), &out,
                                &err) == GSD_STATUS_OK);
    CHECK(bytes_contain(&out, "/home/u/.gemini/antigravity/gsd-core/VERSION"));
    CHECK(bytes_contain(&out, "/home/u/.gemini/antigravity-cli"));
    gsd_bytes_free(&out);

    CHECK(err == NULL);
    gsd_error_free(err);
}

static void test_trigger_surface(gsd_registry *registry) {
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;
    const char *request = "{\"runtime\":\"claude\",\"scopes\":[\"global\",\"local\"],\"stems\":[\"help\"]}";

    CHECK(gsd_resolve_trigger_surface(registry, STR(request), &out, &err) == GSD_STATUS_OK);
    /* global skill gsd-help wins over the local command gsd-help (scope rank first) */
    CHECK(bytes_contain(&out, "\"trigger\":\"gsd-help\",\"kind\":\"skills\",\"scope\":\"global\""));
    CHECK(bytes_contain(&out, "\"shadowedBy\":{\"kind\":\"skills\",\"scope\":\"global\"}"));
    gsd_bytes_free(&out);
    gsd_error_free(err);
}

/* One failing request: checks status, code name, optional message, untouched out. */
static void expect_failure(json_fn fn, gsd_registry *registry, const char *request, gsd_status status,
                           const char *name, const char *message) {
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;
    gsd_status got = fn(registry, request, request == NULL ? 0 : strlen(request), &out, &err);
    CHECK_ERROR(got, err, status, name);
    if (message != NULL) CHECK_MESSAGE(err, message);
    CHECK(out.ptr == &sentinel_byte && out.len == 3);
    gsd_error_free(err);
}

static void test_failures(gsd_registry *registry) {
    static const char bad_utf8[] = "{\"runtime\":\"cl\xff\"}";
    gsd_bytes out = {&sentinel_byte, 3};
    gsd_error *err = NULL;

    expect_failure(gsd_resolve_install_plan, registry, "{\"runtime\":\"gemini\",\"scope\":\"global\"," HOST "}",
                   GSD_STATUS_UNKNOWN_RUNTIME, "UNKNOWN_RUNTIME",
                   "unknown runtime 'gemini' — not present in the capability registry");
    /* spec 2: the scope id is exact, no case folding */
    expect_failure(gsd_resolve_install_plan, registry, "{\"runtime\":\"claude\",\"scope\":\"GLOBAL\"," HOST "}",
                   GSD_STATUS_INVALID_SCOPE, "INVALID_SCOPE",
                   "id must be one of 'global' | 'local', got \"GLOBAL\"");
    expect_failure(gsd_resolve_trigger_surface, registry, "{\"runtime\":\"claude\",\"scopes\":[\"project\"]}",
                   GSD_STATUS_INVALID_SCOPE, "INVALID_SCOPE", NULL);
    /* spec 2 step 3: vscode has configHome.kind none */
    expect_failure(gsd_resolve_scope, registry, "{\"runtime\":\"vscode\",\"scope\":\"global\"," HOST "}",
                   GSD_STATUS_NO_CONFIG_HOME, "NO_CONFIG_HOME", NULL);
    expect_failure(gsd_resolve_config_home, registry, "{\"runtime\":\"vscode\"," HOST "}", GSD_STATUS_NO_CONFIG_HOME,
                   "NO_CONFIG_HOME", NULL);
    expect_failure(gsd_resolve_install_plan, registry, "{\"runtime\": ", GSD_STATUS_INVALID_ARGUMENT,
                   "INVALID_ARGUMENT", NULL);
    expect_failure(gsd_resolve_scope, registry, "{\"runtime\":\"claude\",\"scope\":\"global\"}",
                   GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT", NULL);
    expect_failure(gsd_resolve_install_plan, registry, NULL, GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT",
                   "request_json must not be NULL");
    expect_failure(gsd_resolve_install_plan, NULL, "{}", GSD_STATUS_NULL_ARGUMENT, "NULL_ARGUMENT",
                   "registry must not be NULL");

    CHECK(gsd_resolve_install_plan(registry, bad_utf8, sizeof bad_utf8 - 1, &out, &err) == GSD_STATUS_INVALID_UTF8);
    CHECK(str_eq(gsd_error_code_name(err), "INVALID_UTF8"));
    CHECK(out.ptr == &sentinel_byte);
    gsd_error_free(err);
    err = NULL;

    CHECK(gsd_resolve_install_plan(registry, STR("{}"), NULL, &err) == GSD_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE(err, "out_plan must not be NULL");
    gsd_error_free(err);
}

/* The request's shape is checked before its scopes: a malformed request is INVALID_ARGUMENT
   even when it also holds a bad scope, its field the path of the value at fault (NULL for
   the request itself); only a well-formed one gets INVALID_SCOPE (field "scope", or
   "scopes[i]" for an entry of a list).
   Requests and their records are JSON objects: an array read by position is refused,
   whatever its scope. */
static void test_shape_before_scope(gsd_registry *registry) {
    static const struct {
        json_fn fn;
        const char *request;
        gsd_status status;
        const char *message;
        const char *field;
    } cases[] = {
        /* gsd_resolve_trigger_surface has no `scope` member: unknown, not a bad scope */
        {gsd_resolve_trigger_surface, "{\"runtime\":\"claude\",\"scope\":\"bogus\",\"scopes\":[\"global\"]}",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: scope: unknown field `scope`, expected one of `runtime`, `scopes`, "
         "`stems`, `routerStems`, `childToRouters`",
         "scope"},
        {gsd_resolve_trigger_surface, "{\"runtime\":\"claude\",\"scopes\":[\"Global\"],\"stems\":\"help\"}",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: stems: invalid type: string \"help\", expected a sequence", "stems"},
        {gsd_resolve_install_plan, "{\"runtime\":\"claude\",\"scope\":\"Global\"}", GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: host: missing field `host`", "host"},
        /* a missing member is named itself, under the object that lacks it */
        {gsd_resolve_scope, "{\"runtime\":\"claude\",\"scope\":\"bogus\",\"host\":{\"home\":\"/h\"}}",
         GSD_STATUS_INVALID_ARGUMENT, "request_json is not a valid request: host.cwd: missing field `cwd`", "host.cwd"},
        /* the array form, by position, is not a request */
        {gsd_resolve_install_plan, "[\"claude\",\"global\",{\"home\":\"/h\",\"cwd\":\"/w\"}]",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: invalid type: sequence, expected struct PlanRequest", NULL},
        {gsd_resolve_install_plan, "[\"claude\",\"Global\",{\"home\":\"/h\",\"cwd\":\"/w\"}]",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: invalid type: sequence, expected struct PlanRequest", NULL},
        {gsd_resolve_scope, " \n[\"claude\",\"local\",{\"home\":\"/h\",\"cwd\":\"/w\"}]",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: invalid type: sequence, expected struct ScopeRequest", NULL},
        {gsd_resolve_trigger_surface, "[\"claude\",[\"global\"]]", GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: invalid type: sequence, expected struct TriggerRequest", NULL},
        /* ... at any depth: host is an object too */
        {gsd_resolve_install_plan, "{\"runtime\":\"claude\",\"scope\":\"global\",\"host\":[\"/h\",\"/w\"]}",
         GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: host: invalid type: sequence, expected struct Host", "host"},
        {gsd_resolve_config_home, "{\"runtime\":\"claude\",\"host\":[\"/h\",\"/w\"]}", GSD_STATUS_INVALID_ARGUMENT,
         "request_json is not a valid request: host: invalid type: sequence, expected struct Host", "host"},
        /* well-formed: the scope decides */
        {gsd_resolve_install_plan, "{\"runtime\":\"claude\",\"scope\":\"Global\"," HOST "}", GSD_STATUS_INVALID_SCOPE,
         "id must be one of 'global' | 'local', got \"Global\"", "scope"},
        {gsd_resolve_trigger_surface, "{\"runtime\":\"claude\",\"scopes\":[\"global\",\"bogus\"]}",
         GSD_STATUS_INVALID_SCOPE, "id must be one of 'global' | 'local', got \"bogus\"", "scopes[1]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsd_bytes out = {&sentinel_byte, 3};
        gsd_error *err = NULL;
        gsd_status got = cases[i].fn(registry, STR(cases[i].request), &out, &err);
        CHECK(got == cases[i].status);
        if (got != cases[i].status) fprintf(stderr, "  case %zu: status %u\n", i, (unsigned)got);
        CHECK(gsd_error_code(err) == cases[i].status);
        CHECK_MESSAGE(err, cases[i].message);
        if (cases[i].field != NULL) {
            CHECK(str_eq(gsd_error_field(err), cases[i].field));
        } else {
            CHECK(gsd_error_field(err) == NULL);
        }
        CHECK(out.ptr == &sentinel_byte && out.len == 3);
        gsd_error_free(err);
    }
}

/* A shape error names the value at fault: gsd_error_field is its path inside the request
   (members joined by '.', list entries as [i]; an unknown member is named itself), and the
   message carries the same path before serde's reason. Invalid JSON names no field and
   keeps serde's line and column. */
static void test_shape_error_fields(gsd_registry *registry) {
#define PLAN_HEAD "{\"runtime\":\"claude\",\"scope\":\"global\","
#define HOST_MEMBERS "\"home\":\"/home/u\",\"cwd\":\"/work/p\""
    static const struct {
        json_fn fn;
        const char *request;
        const char *field;
        const char *message;
    } cases[] = {
        /* a mistyped host member */
        {gsd_resolve_install_plan, PLAN_HEAD "\"host\":{\"home\":\"/home/u\",\"cwd\":1}}", "host.cwd",
         "request_json is not a valid request: host.cwd: invalid type: integer `1`, expected a string"},
        {gsd_resolve_config_home,
         "{\"runtime\":\"claude\",\"host\":{" HOST_MEMBERS ",\"env\":{\"CLAUDE_CONFIG_DIR\":7}}}",
         "host.env.CLAUDE_CONFIG_DIR",
         "request_json is not a valid request: host.env.CLAUDE_CONFIG_DIR: invalid type: integer `7`, expected a "
         "string"},
        {gsd_resolve_scope,
         "{\"runtime\":\"claude\",\"scope\":\"local\",\"host\":{" HOST_MEMBERS ",\"existingPaths\":[true]}}",
         "host.existingPaths[0]",
         "request_json is not a valid request: host.existingPaths[0]: invalid type: boolean `true`, expected a "
         "string"},
        /* a non-string in commands */
        {gsd_resolve_install_plan, PLAN_HEAD HOST ",\"commands\":[\"help\",1]}", "commands[1]",
         "request_json is not a valid request: commands[1]: invalid type: integer `1`, expected a string"},
        /* an unknown host member: the member itself */
        {gsd_resolve_install_plan, PLAN_HEAD "\"host\":{" HOST_MEMBERS ",\"enviroment\":{}}}", "host.enviroment",
         "request_json is not a valid request: host.enviroment: unknown field `enviroment`, expected one of "
         "`home`, `cwd`, `env`, `existingPaths`"},
        /* an array in place of host */
        {gsd_resolve_install_plan, PLAN_HEAD "\"host\":[\"/home/u\",\"/work/p\"]}", "host",
         "request_json is not a valid request: host: invalid type: sequence, expected struct Host"},
        {gsd_surface_probe_requests, "{\"host\":[\"/home/u\",\"/work/p\"]}", "host",
         "request_json is not a valid request: host: invalid type: sequence, expected struct Host"},
        /* a non-string in scopes, next to a bad scope: the shape still decides */
        {gsd_resolve_trigger_surface, "{\"runtime\":\"claude\",\"scopes\":[\"Global\",1]}", "scopes[1]",
         "request_json is not a valid request: scopes[1]: invalid type: integer `1`, expected a string"},
        /* invalid JSON: no field, serde's line and column */
        {gsd_resolve_install_plan, PLAN_HEAD "\n\"host\":{\"home\":}}", NULL,
         "request_json is not a valid request: expected value at line 2 column 16"},
    };
#undef PLAN_HEAD
#undef HOST_MEMBERS
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gsd_bytes out = {&sentinel_byte, 3};
        gsd_error *err = NULL;
        gsd_status got = cases[i].fn(registry, STR(cases[i].request), &out, &err);
        CHECK_ERROR(got, err, GSD_STATUS_INVALID_ARGUMENT, "INVALID_ARGUMENT");
        CHECK_MESSAGE(err, cases[i].message);
        if (cases[i].field != NULL) {
            CHECK(str_eq(gsd_error_field(err), cases[i].field));
            if (!str_eq(gsd_error_field(err), cases[i].field))
                fprintf(stderr, "  case %zu: field %s\n", i, gsd_error_field(err) ? gsd_error_field(err) : "(NULL)");
        } else {
            CHECK(gsd_error_field(err) == NULL);
        }
        CHECK(out.ptr == &sentinel_byte && out.len == 3);
        gsd_error_free(err);
    }
}

static void test_error_fields(gsd_registry *registry) {
    gsd_bytes out = {NULL, 0};
    gsd_error *err = NULL;

    CHECK(gsd_resolve_scope(registry, STR("{\"runtime\":\"claude\",\"scope\":\"\"," HOST "}"), &out, &err) ==
          GSD_STATUS_INVALID_SCOPE);
    CHECK(str_eq(gsd_error_field(err), "scope"));
    CHECK_MESSAGE(err, "id must be one of 'global' | 'local', got \"\"");
    gsd_error_free(err);
    err = NULL;

    /* no trimming: " claude" is not claude */
    CHECK(gsd_resolve_scope(registry, STR("{\"runtime\":\" claude\",\"scope\":\"local\"," HOST "}"), &out,
                            &err) == GSD_STATUS_UNKNOWN_RUNTIME);
    CHECK(str_eq(gsd_error_field(err), "runtime"));
    CHECK(out.ptr == NULL);
    gsd_error_free(err);
}

int main(void) {
    gsd_registry *registry = NULL;
    if (gsd_registry_first_party(&registry, NULL) != GSD_STATUS_OK) {
        CHECK(!"first-party registry");
        goto cleanup;
    }
    test_claude_global_plan(registry);
    test_scope_and_config_home(registry);
    test_trigger_surface(registry);
    test_failures(registry);
    test_shape_before_scope(registry);
    test_shape_error_fields(registry);
    test_error_fields(registry);
cleanup:
    gsd_registry_free(registry);
    return CHECK_SUMMARY();
}

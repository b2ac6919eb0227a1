/*
 * test_small_stack.c: every call that reads JSON text answers deeply nested text with an
 * error status on a thread whose stack is 64 KiB (docs/c-api.md, "Threads and stack";
 * 256 KiB for a debug library), never a stack overflow. Text nested to serde_json's own limit (128) needed some 140 KiB
 * before the nesting bounds (32 levels for a request, 64 for a manifest) were checked first.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "check.h"

/* The contract is for the release library; an unoptimized one has frames about four times
 * larger (the deepest request overflowed 128 KiB), and gets 256 KiB. */
#ifdef GSD_DEBUG_LIBRARY
#define STACK_BYTES (256 * 1024)
#else
#define STACK_BYTES (64 * 1024)
#endif
#define HOST "\"host\":{\"home\":\"/h\",\"cwd\":\"/w\"}"

/* `prefix`, `depth` times `[`, as many `]` less `missing`, `suffix`: malloc'ed. */
static char *nested(const char *prefix, int depth, int missing, const char *suffix) {
    size_t len = strlen(prefix) + 2 * (size_t)depth + strlen(suffix) + 1;
    char *text = malloc(len);
    char *at = text;
    if (text == NULL) return NULL;
    at += sprintf(at, "%s", prefix);
    for (int i = 0; i < depth; i++) *at++ = '[';
    for (int i = 0; i < depth - missing; i++) *at++ = ']';
    sprintf(at, "%s", suffix);
    return text;
}

typedef enum { PLAN, PLANS, SCOPE, PROBE, HOME, TRIGGERS, SURFACE_PROBES, SURFACES, SHADOW, OVERLAYS, VALIDATE } call;

typedef struct {
    call which;
    const char *text;
    gsd_registry *registry;
    gsd_status status;
    char message[256];
} job;

static void *run(void *arg) {
    job *j = arg;
    gsd_bytes out = {NULL, 0};
    gsd_registry *derived = NULL;
    gsd_error *err = NULL;
    size_t len = strlen(j->text);
    switch (j->which) {
    case PLAN: j->status = gsd_resolve_install_plan(j->registry, j->text, len, &out, &err); break;
    case PLANS: j->status = gsd_resolve_install_plans(j->registry, j->text, len, &out, &err); break;
    case SCOPE: j->status = gsd_resolve_scope(j->registry, j->text, len, &out, &err); break;
    case PROBE: j->status = gsd_scope_probe_paths(j->registry, j->text, len, &out, &err); break;
    case HOME: j->status = gsd_resolve_config_home(j->registry, j->text, len, &out, &err); break;
    case TRIGGERS: j->status = gsd_resolve_trigger_surface(j->registry, j->text, len, &out, &err); break;
    case SURFACE_PROBES: j->status = gsd_surface_probe_requests(j->registry, j->text, len, &out, &err); break;
    case SURFACES: j->status = gsd_resolve_installed_surfaces(j->registry, j->text, len, &out, &err); break;
    case SHADOW: j->status = gsd_build_shadow_report(j->registry, j->text, len, &out, &err); break;
    case OVERLAYS: j->status = gsd_registry_with_overlays(j->registry, j->text, len, &derived, &err); break;
    case VALIDATE: j->status = gsd_validate_capability(j->text, len, STR("acme-x"), &out, &err); break;
    }
    snprintf(j->message, sizeof j->message, "%s", err == NULL ? "" : gsd_error_message(err));
    gsd_error_free(err);
    gsd_bytes_free(&out);
    gsd_registry_free(derived);
    return NULL;
}

/* Runs one call on a fresh 64 KiB-stack thread; a stack overflow ends the whole test. */
static void on_small_stack(job *j) {
    pthread_attr_t attr;
    pthread_t thread;
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, STACK_BYTES) == 0);
    CHECK(pthread_create(&thread, &attr, run, j) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
}

static void expect(gsd_registry *registry, call which, char *text, gsd_status status, const char *message) {
    job j = {which, text, registry, GSD_STATUS_OK, ""};
    CHECK(text != NULL);
    if (text == NULL) return;
    on_small_stack(&j);
    CHECK(j.status == status);
    CHECK(str_eq(j.message, message));
    if (j.status != status || !str_eq(j.message, message))
        fprintf(stderr, "  call %d on %.60s...: status %u, message: %s\n", (int)which, text, j.status, j.message);
    free(text);
}

#define TOO_DEEP(name) name " is not a valid request: it nests arrays/objects deeper than 32 levels"

static void test_requests_nested_past_the_bound(gsd_registry *registry) {
    static const call requests[] = {PLAN, PLANS, SCOPE, PROBE, HOME, TRIGGERS, SURFACE_PROBES, SURFACES, SHADOW};
    static const int depths[] = {33, 128, 200};
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
            int depth = depths[d];
            /* an unknown member, a mistyped known one, and text that is not JSON at all */
            expect(registry, requests[i], nested("{\"deep\":", depth, 0, "}"), GSD_STATUS_INVALID_ARGUMENT,
                   TOO_DEEP("request_json"));
            expect(registry, requests[i], nested("{\"runtime\":\"claude\",\"host\":{\"home\":\"/h\",\"env\":", depth, 0, "}}"),
                   GSD_STATUS_INVALID_ARGUMENT, TOO_DEEP("request_json"));
            expect(registry, requests[i], nested("", depth, 1, ""), GSD_STATUS_INVALID_ARGUMENT, TOO_DEEP("request_json"));
        }
    }
    expect(registry, OVERLAYS, nested("[{\"folder\":", 128, 0, "}]"), GSD_STATUS_INVALID_ARGUMENT,
           TOO_DEEP("overlays_json"));
    /* 32 levels are read as usual: the shape error names the member */
    expect(registry, PLAN, nested("{\"runtime\":", 31, 0, "}"), GSD_STATUS_INVALID_ARGUMENT,
           "request_json is not a valid request: runtime: invalid type: sequence, expected a string");
}

static void test_manifests_nested_past_the_bound(gsd_registry *registry) {
    const char *too_deep = "manifest nests arrays/objects deeper than the limit of 64 levels";
    /* valid JSON and JSON cut short, each past the bound: refused before any parse */
    for (int depth = 64; depth <= 4096; depth *= 4) {
        expect(registry, VALIDATE, nested("{\"id\":", depth, 0, "}"), GSD_STATUS_MANIFEST_TOO_DEEP, too_deep);
        expect(registry, VALIDATE, nested("{\"id\":", depth, 1, "}"), GSD_STATUS_MANIFEST_TOO_DEEP, too_deep);
    }
    /* within the bound, text cut short is parsed and refused as not JSON */
    expect(registry, VALIDATE, nested("{\"id\":", 62, 1, "}"), GSD_STATUS_MANIFEST_INVALID_JSON,
           "manifest is not valid JSON at line 1, column 130: expected `,` or `]`");
    /* an overlay's manifest goes through the same bounded reader */
    expect(registry, OVERLAYS, nested("[{\"folder\":\"acme-x\",\"manifest\":\"{\\\"id\\\":", 200, 1, "}\"}]"),
           GSD_STATUS_OK, "");
    /* the install manifest inside surface facts is bounded by its own reader (64 levels) */
    expect(registry, SURFACES,
           nested("{\"runtime\":\"claude\"," HOST ",\"facts\":{\"homes\":{\"/h/.claude\":{\"manifest\":\"", 4096, 0,
                  "\"}}}}"),
           GSD_STATUS_OK, "");
}

int main(void) {
    gsd_registry *registry = NULL;
    gsd_error *err = NULL;
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer's own frames do not fit a 64 KiB stack: the plain build (and
     * valgrind) run this test. */
    puts("skipped under AddressSanitizer");
    return 0;
#endif
    CHECK(gsd_registry_first_party(&registry, &err) == GSD_STATUS_OK);
    if (registry == NULL) return 1;
    test_requests_nested_past_the_bound(registry);
    test_manifests_nested_past_the_bound(registry);
    gsd_registry_free(registry);
    return CHECK_SUMMARY();
}

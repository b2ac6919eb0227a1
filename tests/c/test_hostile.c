/*
 * test_hostile.c: a representative subset of the hostile-input corpus (tests/hostile/, one JSON file per area)
 * through the C API: the first case of each category (corpus file, operation, expected
 * outcome), chosen and built by tests/c/hostile_subset.py, which writes the cases to the
 * file named by GSD_HOSTILE_CASES (scripts/test-bindings.sh does it). The expectations are
 * the case file's own: the error code and the field it names, expected diagnostics (code,
 * severity, capability, field), absent codes, counts, validity, accepted / rejected
 * overlays, values; plus, for every case: no crash, and no raw control, bidi or zero-width
 * character in the error message or in any message or field of the result.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* One case as read from the record file (pointers into the file's buffer). */
typedef struct {
    const char *key;
    size_t key_len;
    const char *data;
    size_t len;
} record;

typedef struct {
    const record *records;
    size_t count;
} hostile_case;

static const char *current_case = "";

/* Reports a failed expectation with the case name, then counts it. */
#define EXPECT(cond)                                                                          \
    do {                                                                                      \
        if (!(cond)) fprintf(stderr, "  case %s:\n", current_case);                           \
        CHECK(cond);                                                                          \
    } while (0)

static int key_is(const record *r, const char *key) {
    return r->key_len == strlen(key) && memcmp(r->key, key, r->key_len) == 0;
}

/* The first record with `key`, or NULL. */
static const record *find(const hostile_case *c, const char *key) {
    for (size_t i = 0; i < c->count; i++)
        if (key_is(&c->records[i], key)) return &c->records[i];
    return NULL;
}

/* A record's data as a NUL-terminated copy (caller frees). */
static char *text_of(const record *r) {
    char *s = malloc(r->len + 1);
    if (s == NULL) abort();
    memcpy(s, r->data, r->len);
    s[r->len] = '\0';
    return s;
}

static int record_eq(const record *r, const char *text) {
    return r != NULL && r->len == strlen(text) && memcmp(r->data, text, r->len) == 0;
}

/* Whether a code point may not appear raw in a message: C0/C1 controls, DEL, bidi
   controls, zero-width characters and the BOM (the set core/tests/hostile.rs checks). */
static int forbidden(uint32_t c) {
    return c <= 0x1f || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || (c >= 0x200b && c <= 0x200d) ||
           (c >= 0x2060 && c <= 0x2064) || c == 0xfeff;
}

/* Decodes one UTF-8 code point at *p (advancing it); invalid bytes decode as themselves. */
static uint32_t next_utf8(const unsigned char **p) {
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (extra == 0) {
        *p = s + 1;
        return c;
    }
    c &= 0x3f >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *p = s + 1;
            return s[0];
        }
        c = (c << 6) | (s[i] & 0x3f);
    }
    *p = s + extra + 1;
    return c;
}

static uint32_t hex4(const unsigned char *s) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char h = s[i];
        v = v * 16 + (uint32_t)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v;
}

/* Checks a plain C string (an error message): returns its length in code points, and
   counts a failure for each forbidden character. */
static size_t check_plain(const char *text, const char *what) {
    size_t chars = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (p != NULL && *p) {
        uint32_t c = next_utf8(&p);
        chars++;
        if (forbidden(c)) {
            fprintf(stderr, "  case %s: %s carries raw U+%04X: %s\n", current_case, what, (unsigned)c, text);
            CHECK(!"raw control, bidi or zero-width character");
        }
    }
    return chars;
}

/* Checks every JSON string value of `key` ("message" or "field") in `json`: decodes its
   escapes and counts a failure for each forbidden raw character (escaped ones in the JSON,
   like \u001b, were raw in the value, so they count too). Returns the longest value, in
   code points. */
static size_t check_json_values(const char *json, const char *key) {
    char pattern[32];
    size_t longest = 0;
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    for (const char *at = strstr(json, pattern); at != NULL; at = strstr(at, pattern)) {
        const unsigned char *p = (const unsigned char *)at + strlen(pattern);
        size_t chars = 0;
        while (*p && *p != '"') {
            uint32_t c;
            if (*p == '\\') {
                if (p[1] == 'u' && p[2] && p[3] && p[4] && p[5]) {
                    c = hex4(p + 2);
                    p += 6;
                } else {
                    c = p[1] == 'n' ? '\n' : p[1] == 't' ? '\t' : p[1] == 'r' ? '\r' : p[1] == 'b' ? '\b'
                        : p[1] == 'f' ? '\f' : p[1];
                    p += 2;
                }
            } else {
                c = next_utf8(&p);
            }
            chars++;
            if (forbidden(c)) {
                fprintf(stderr, "  case %s: %s value carries U+%04X\n", current_case, key, (unsigned)c);
                CHECK(!"raw control, bidi or zero-width character");
            }
        }
        if (chars > longest) longest = chars;
        at = (const char *)p;
    }
    return longest;
}

/* Whether one diagnostic object of `json` contains every needle (needles separated by
   '\n'). A diagnostic object starts at `{"code":"` and runs to the next one. */
static int has_diagnostic(const char *json, const record *needles) {
    const char *start = strstr(json, "{\"code\":\"");
    while (start != NULL) {
        const char *next = strstr(start + 1, "{\"code\":\"");
        size_t len = next == NULL ? strlen(start) : (size_t)(next - start);
        int all = 1;
        size_t i = 0;
        while (all && i < needles->len) {
            const char *nl = memchr(needles->data + i, '\n', needles->len - i);
            size_t n = nl == NULL ? needles->len - i : (size_t)(nl - (needles->data + i));
            int found = 0;
            for (size_t j = 0; !found && n <= len && j + n <= len; j++)
                found = memcmp(start + j, needles->data + i, n) == 0;
            all = found;
            i += n + 1;
        }
        if (all) return 1;
        start = next;
    }
    return 0;
}

static int count_diagnostics(const char *json) {
    int n = 0;
    for (const char *at = strstr(json, "{\"code\":\""); at != NULL; at = strstr(at + 1, "{\"code\":\"")) n++;
    return n;
}

static int contains(const char *haystack, const record *r) {
    char *needle = text_of(r);
    int found = haystack != NULL && strstr(haystack, needle) != NULL;
    free(needle);
    return found;
}

/* Runs the case's call; returns its status. *result is the JSON result, *registry_json the
   diagnostics the case's overlays added, *ids the admitted third-party ids. */
static gsd_status run_call(const hostile_case *c, gsd_registry *base, gsd_bytes *result, gsd_bytes *registry_json,
                           gsd_bytes *ids, gsd_error **err) {
    const record *call = find(c, "call");
    const record *overlays = find(c, "overlays");
    const record *request = find(c, "request");
    gsd_registry *registry = NULL;
    gsd_status status;

    if (record_eq(call, "validate")) {
        const record *manifest = find(c, "manifest");
        const record *folder = find(c, "folder");
        if (manifest == NULL || folder == NULL) return GSD_STATUS_INVALID_ARGUMENT;
        return gsd_validate_capability(manifest->data, manifest->len, folder->data, folder->len, result, err);
    }
    status = overlays == NULL
                 ? gsd_registry_with_overlays(base, STR("[]"), &registry, err)
                 : gsd_registry_with_overlays(base, overlays->data, overlays->len, &registry, err);
    if (status != GSD_STATUS_OK) return status;
    CHECK(gsd_registry_diagnostics(registry, registry_json, NULL) == GSD_STATUS_OK);
    CHECK(gsd_registry_third_party_ids(registry, ids, NULL) == GSD_STATUS_OK);
    if (record_eq(call, "overlays")) {
        status = GSD_STATUS_OK;
    } else if (request == NULL) {
        status = GSD_STATUS_INVALID_ARGUMENT;
    } else if (record_eq(call, "scope")) {
        status = gsd_resolve_scope(registry, request->data, request->len, result, err);
    } else if (record_eq(call, "plan")) {
        status = gsd_resolve_install_plan(registry, request->data, request->len, result, err);
    } else if (record_eq(call, "plans")) {
        status = gsd_resolve_install_plans(registry, request->data, request->len, result, err);
    } else if (record_eq(call, "surface")) {
        status = gsd_resolve_installed_surfaces(registry, request->data, request->len, result, err);
    } else if (record_eq(call, "shadow")) {
        status = gsd_build_shadow_report(registry, request->data, request->len, result, err);
    } else {
        fprintf(stderr, "  case %s: unknown call\n", current_case);
        status = GSD_STATUS_INVALID_ARGUMENT;
    }
    gsd_registry_free(registry);
    return status;
}

static void run_case(const hostile_case *c, gsd_registry *base) {
    gsd_bytes result = {NULL, 0}, registry_json = {NULL, 0}, ids = {NULL, 0};
    gsd_error *err = NULL;
    const record *want_error = find(c, "error");
    const record *want_field = find(c, "field");
    char *seen;
    size_t seen_len, longest = 0;
    gsd_status status = run_call(c, base, &result, &registry_json, &ids, &err);

    /* Everything the case produced, as one text: the result, then the registry's findings. */
    seen_len = result.len + 1 + registry_json.len;
    seen = malloc(seen_len + 1);
    if (seen == NULL) abort();
    snprintf(seen, seen_len + 1, "%s\n%s", result.ptr ? (const char *)result.ptr : "",
             registry_json.ptr ? (const char *)registry_json.ptr : "");

    if (status != GSD_STATUS_OK) {
        const char *message = gsd_error_message(err);
        const char *field = gsd_error_field(err);
        EXPECT(want_error != NULL && record_eq(want_error, gsd_error_code_name(err)));
        if (want_error == NULL || !record_eq(want_error, gsd_error_code_name(err)))
            fprintf(stderr, "  got %s: %s\n", gsd_error_code_name(err), message);
        /* every error names the field at fault */
        EXPECT(field != NULL && *field != '\0');
        if (want_field != NULL) EXPECT(record_eq(want_field, field == NULL ? "" : field));
        longest = check_plain(message, "error message");
        if (field != NULL) check_plain(field, "error field");
    } else {
        EXPECT(want_error == NULL);
    }
    {
        size_t m = check_json_values(seen, "message");
        if (m > longest) longest = m;
        check_json_values(seen, "field");
    }

    for (size_t i = 0; i < c->count; i++) {
        const record *r = &c->records[i];
        if (key_is(r, "diag")) {
            EXPECT(has_diagnostic(seen, r));
        } else if (key_is(r, "absent")) {
            EXPECT(!contains(seen, r));
        } else if (key_is(r, "count")) {
            EXPECT(count_diagnostics(seen) == atoi(r->data));
        } else if (key_is(r, "max")) {
            EXPECT(count_diagnostics(seen) <= atoi(r->data));
        } else if (key_is(r, "valid")) {
            EXPECT(strstr(seen, record_eq(r, "true") ? "\"valid\":true" : "\"valid\":false") != NULL);
        } else if (key_is(r, "accepted")) {
            EXPECT(ids.ptr != NULL && contains((const char *)ids.ptr, r));
        } else if (key_is(r, "rejected")) {
            char needles[512];
            record rejected = {"diag", 4, needles, 0};
            EXPECT(ids.ptr != NULL && !contains((const char *)ids.ptr, r));
            rejected.len = (size_t)snprintf(needles, sizeof needles, "{\"code\":\"overlay_rejected\",\n\"capabilityId\":%.*s",
                                            (int)r->len, r->data);
            EXPECT(rejected.len < sizeof needles && has_diagnostic(seen, &rejected));
        } else if (key_is(r, "value")) {
            EXPECT(contains(seen, r));
        } else if (key_is(r, "contains")) {
            EXPECT(contains(seen, r) || (err != NULL && contains(gsd_error_message(err), r)));
        } else if (key_is(r, "maxchars")) {
            EXPECT(longest <= (size_t)atoi(r->data));
        }
    }
    free(seen);
    gsd_error_free(err);
    gsd_bytes_free(&result);
    gsd_bytes_free(&registry_json);
    gsd_bytes_free(&ids);
}

/* Reads the whole record file. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buffer = NULL;
    long size;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buffer = malloc((size_t)size + 1);
        if (buffer != NULL && fread(buffer, 1, (size_t)size, f) == (size_t)size) {
            buffer[size] = '\0';
            *len = (size_t)size;
        } else {
            free(buffer);
            buffer = NULL;
        }
    }
    fclose(f);
    return buffer;
}

/* Splits the buffer into records; returns how many (at most `max`), 0 on a format error. */
static size_t parse_records(char *buffer, size_t len, record *records, size_t max) {
    size_t n = 0, i = 0;
    while (i < len && n < max) {
        char *space = memchr(buffer + i, ' ', len - i);
        char *end;
        unsigned long size;
        if (space == NULL) return 0;
        size = strtoul(space + 1, &end, 10);
        if (*end != '\n' || (size_t)(end + 1 - buffer) + size + 1 > len) return 0;
        records[n].key = buffer + i;
        records[n].key_len = (size_t)(space - (buffer + i));
        records[n].data = end + 1;
        records[n].len = size;
        end[1 + size] = '\0'; /* the record's trailing newline becomes its terminator */
        i = (size_t)(end + 1 - buffer) + size + 1;
        n++;
    }
    return n;
}

int main(void) {
    const char *path = getenv("GSD_HOSTILE_CASES");
    size_t len = 0, count, cases = 0, declared = 0;
    char *buffer = path == NULL ? NULL : read_file(path, &len);
    record *records = NULL;
    gsd_registry *base = NULL;

    if (buffer == NULL) {
        fprintf(stderr, "GSD_HOSTILE_CASES must name the file written by tests/c/hostile_subset.py\n");
        CHECK(!"hostile cases file");
        return CHECK_SUMMARY();
    }
    records = malloc(sizeof *records * 4096);
    if (records == NULL) abort();
    count = parse_records(buffer, len, records, 4096);
    CHECK(count > 0);
    CHECK(gsd_registry_first_party(&base, NULL) == GSD_STATUS_OK);
    /* the last record declares how many cases the file holds */
    CHECK(count > 0 && key_is(&records[count - 1], "total"));
    if (count > 0 && key_is(&records[count - 1], "total")) declared = (size_t)atoi(records[--count].data);
    for (size_t i = 0; base != NULL && i < count;) {
        hostile_case c = {&records[i], 1};
        if (!key_is(&records[i], "case")) {
            CHECK(!"a case starts with a case record");
            break;
        }
        while (i + c.count < count && !key_is(&records[i + c.count], "case")) c.count++;
        current_case = records[i].data;
        run_case(&c, base);
        cases++;
        i += c.count;
    }
    CHECK(cases == declared);
    /* the subset is representative: one case per category the bindings can run */
    CHECK(cases >= 30);
    printf("%zu hostile cases run\n", cases);
    gsd_registry_free(base);
    free(records);
    free(buffer);
    return CHECK_SUMMARY();
}

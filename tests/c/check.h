/*
 * check.h: a tiny assertion harness for the C tests of gsd-core.
 *
 * CHECK records a pass or a failure and keeps going, so one run reports every broken
 * expectation; each test frees what it owns on every path (goto cleanup). main() ends
 * with CHECK_SUMMARY, which prints "N passed, M failed" and returns non-zero on failure.
 */
#ifndef GSD_TEST_CHECK_H
#define GSD_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "gsd_core.h"

static int check_passed = 0;
static int check_failed = 0;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            check_passed++;                                                           \
        } else {                                                                      \
            check_failed++;                                                           \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__,     \
                    __func__, #cond);                                                 \
        }                                                                             \
    } while (0)

/* A string argument as (pointer, length), the form every gsd_* text input takes. */
#define STR(s) (s), strlen(s)

/* True when a NUL-terminated C string (may be NULL) equals the expected text. */
static inline int str_eq(const char *actual, const char *expected) {
    return actual != NULL && strcmp(actual, expected) == 0;
}

/* True when library bytes (NUL-terminated past len) contain the needle. */
static inline int bytes_contain(const gsd_bytes *bytes, const char *needle) {
    return bytes->ptr != NULL && strstr((const char *)bytes->ptr, needle) != NULL;
}

/* True when library bytes equal the expected text exactly. */
static inline int bytes_eq(const gsd_bytes *bytes, const char *expected) {
    return bytes->ptr != NULL && bytes->len == strlen(expected) &&
           memcmp(bytes->ptr, expected, bytes->len) == 0;
}

/* Checks a failure: the status and the error's status and code name. */
#define CHECK_ERROR(status, err, expected_status, expected_name)                       \
    do {                                                                              \
        CHECK((status) == (expected_status));                                         \
        CHECK((err) != NULL);                                                         \
        CHECK(gsd_error_code(err) == (expected_status));                              \
        CHECK(str_eq(gsd_error_code_name(err), (expected_name)));                     \
    } while (0)

/* Checks an error's message exactly, printing the actual one when it differs. */
#define CHECK_MESSAGE(err, expected)                                                  \
    do {                                                                              \
        CHECK(str_eq(gsd_error_message(err), (expected)));                            \
        if (!str_eq(gsd_error_message(err), (expected))) {                            \
            fprintf(stderr, "  message was: %s\n", gsd_error_message(err));           \
        }                                                                             \
    } while (0)

#define CHECK_SUMMARY()                                                               \
    (printf("%d passed, %d failed\n", check_passed, check_failed), check_failed != 0)

#endif /* GSD_TEST_CHECK_H */

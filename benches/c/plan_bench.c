/*
 * Times whole plans through the C ABI: gsd_resolve_install_plan (JSON request in, JSON plan
 * out) plus gsd_bytes_free, on the request files given (one PlanRequest JSON per file, as
 * printed by `workload print-request`). Prints the median and min/max ns per pass over all
 * files, over ROUNDS rounds; compare with criterion's plan group and the callgrind
 * counts (scripts/bench.sh does both).
 *
 *   plan_bench [-r ROUNDS] [-n PASSES_PER_ROUND] req.json...
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gsd_core.h"

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); return NULL; }
    char *buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[size] = '\0'; *len = (size_t)size; }
    return buf;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One pass: every request once. Returns 0 on success. */
static int pass(const gsd_registry *reg, char **reqs, size_t *lens, int count, size_t *bytes) {
    for (int i = 0; i < count; i++) {
        gsd_bytes plan = {0};
        gsd_error *err = NULL;
        gsd_status st = gsd_resolve_install_plan(reg, reqs[i], lens[i], &plan, &err);
        if (st != GSD_STATUS_OK) {
            fprintf(stderr, "plan %d failed: %s\n", i, gsd_error_message(err));
            gsd_error_free(err);
            return 1;
        }
        *bytes += plan.len;
        gsd_bytes_free(&plan);
    }
    return 0;
}

int main(int argc, char **argv) {
    int rounds = 15, passes = 0, first = 1;
    while (first + 1 < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-r") == 0) rounds = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "-n") == 0) passes = atoi(argv[first + 1]);
        else break;
        first += 2;
    }
    int count = argc - first;
    if (count <= 0 || rounds <= 0) {
        fprintf(stderr, "usage: plan_bench [-r ROUNDS] [-n PASSES] req.json...\n");
        return 2;
    }
    char **reqs = calloc((size_t)count, sizeof *reqs);
    size_t *lens = calloc((size_t)count, sizeof *lens);
    double *samples = calloc((size_t)rounds, sizeof *samples);
    gsd_registry *reg = NULL;
    gsd_error *err = NULL;
    int rc = 1;
    size_t bytes = 0;
    if (!reqs || !lens || !samples) goto cleanup;
    for (int i = 0; i < count; i++) {
        reqs[i] = read_file(argv[first + i], &lens[i]);
        if (!reqs[i]) { fprintf(stderr, "cannot read %s\n", argv[first + i]); goto cleanup; }
    }
    if (gsd_registry_first_party(&reg, &err) != GSD_STATUS_OK) {
        fprintf(stderr, "registry: %s\n", gsd_error_message(err));
        gsd_error_free(err);
        goto cleanup;
    }
    /* Calibrate: enough passes for about 100 ms per round (or -n). */
    if (passes <= 0) {
        double t0 = now_ns();
        if (pass(reg, reqs, lens, count, &bytes)) goto cleanup;
        double one = now_ns() - t0;
        passes = one > 0 ? (int)(1e8 / one) : 1000;
        if (passes < 1) passes = 1;
    }
    for (int p = 0; p < passes; p++) /* warm-up round */
        if (pass(reg, reqs, lens, count, &bytes)) goto cleanup;
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (int p = 0; p < passes; p++)
            if (pass(reg, reqs, lens, count, &bytes)) goto cleanup;
        samples[r] = (now_ns() - t0) / passes;
    }
    qsort(samples, (size_t)rounds, sizeof *samples, cmp_double);
    bytes = 0;
    if (pass(reg, reqs, lens, count, &bytes)) goto cleanup;
    printf("c-abi plans=%d rounds=%d passes=%d median_ns=%.0f min_ns=%.0f max_ns=%.0f json_bytes_per_pass=%zu\n",
           count, rounds, passes, samples[rounds / 2], samples[0], samples[rounds - 1], bytes);
    rc = 0;
cleanup:
    gsd_registry_free(reg);
    if (reqs) for (int i = 0; i < count; i++) free(reqs[i]);
    free(reqs);
    free(lens);
    free(samples);
    return rc;
}

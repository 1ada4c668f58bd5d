/* kit_test.c - shared test helpers and the results file the grader reads.
 *
 * Criterion runs each test in its own worker process; the report hook below
 * runs in the runner after all of them and writes one line per test to the
 * file named by $KIT_RESULTS (when set):
 *     suite <TAB> test <TAB> status <TAB> message
 * status is pass, fail, crash, timeout or skip; message is the skip reason or
 * the first failed assertion. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit_test.h"

const size_t kit_test_sizes[] = {0, 1, 31, 32, 33, 1023, 1025, (1u << 20) + 7, 1u << 24};
const size_t kit_test_nsizes = sizeof kit_test_sizes / sizeof kit_test_sizes[0];
const size_t kit_tuning_sizes[] = {1, 33, 4101, (1u << 20) + 7};
const size_t kit_tuning_nsizes = sizeof kit_tuning_sizes / sizeof kit_tuning_sizes[0];

void kit_expect_table(const kit_ladder *L)
{
    size_t i, j;
    cr_assert_gt(L->count, 0, "%s is empty", L->id);
    for (i = 0; i < L->count; i++) {
        const kit_step_info *s = L->step(L, i);
        cr_assert(s->name && *s->name && s->what && *s->what && s->file && s->param,
                  "%s step %zu lacks a field", L->id, i);
        cr_assert(s->kind == KIT_STEP_YARDSTICK || s->describe, "%s %s: no describe", L->id, s->name);
        if (strncmp(s->file, "$(IMPL)/", 8) == 0) {
            char path[256];
            snprintf(path, sizeof path, "solutions/%s", s->file + 8);
            cr_assert(s->exercise != NULL, "%s is built from $(IMPL) but names no exercise", s->name);
            cr_assert_eq(access(path, R_OK), 0, "%s: %s missing", s->name, path);
        } else {
            cr_assert_eq(access(s->file, R_OK), 0, "%s: %s missing", s->name, s->file);
        }
        for (j = 0; j < i; j++) /* tuning tables share a name and differ in param */
            cr_assert(strcmp(L->step(L, j)->name, s->name) != 0 ||
                          strcmp(L->step(L, j)->param, s->param) != 0,
                      "%s: %s (%s) listed twice", L->id, s->name, s->param);
    }
}

void kit_expect_step(const kit_ladder *L, size_t i, size_t n, kit_pattern p, uint64_t seed)
{
    char msg[KIT_MSG], who[256];
    int ok = 0;
    cudaError_t e;
    const kit_step_info *s;
    cr_assert_lt(i, L->count, "%s has no step %zu", L->id, i);
    s = L->step(L, i);
    snprintf(who, sizeof who, "%s %s%s%s%s, n=%zu, %s input", L->id, s->name,
             s->param && *s->param ? " (" : "", s->param ? s->param : "",
             s->param && *s->param ? ")" : "", n, kit_pattern_name(p));
    e = kit_ladder_verify(L, i, n, p, seed, &ok, msg, sizeof msg);
    cr_assert(e == cudaSuccess, "%s: CUDA error: %s", who, cudaGetErrorString(e));
    cr_assert(ok, "%s: %s", who, msg);
}

void kit_expect_step_sizes(const kit_ladder *L, size_t i, const size_t *sizes, size_t nsizes,
                           const kit_pattern *patterns, size_t npatterns, uint64_t seed0)
{
    size_t k, p;
    for (k = 0; k < nsizes; k++)
        for (p = 0; p < npatterns; p++) kit_expect_step(L, i, sizes[k], patterns[p], seed0 + k);
}

void kit_expect_ladder(const kit_ladder *L, const size_t *sizes, size_t nsizes,
                       const kit_pattern *patterns, size_t npatterns)
{
    size_t i;
    for (i = 0; i < L->count; i++)
        kit_expect_step_sizes(L, i, sizes, nsizes, patterns, npatterns, 1000);
}

/* One field of the results file: no tabs or newlines inside. */
static void put_field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static const char *status_of(const struct criterion_test_stats *t)
{
    if (t->timed_out) return "timeout";
    if (t->crashed) return "crash";
    if (t->test_status == CR_STATUS_SKIPPED) return "skip";
    if (t->test_status == CR_STATUS_FAILED) return "fail";
    return "pass";
}

static const char *message_of(const struct criterion_test_stats *t)
{
    const struct criterion_assert_stats *a;
    if (t->message && *t->message) return t->message;
    for (a = t->asserts; a; a = a->next)
        if (!a->passed && a->message) return a->message;
    if (t->crashed) return t->signal ? "the test process crashed (signal)" : "the test process crashed";
    if (t->timed_out) return "the test exceeded its time limit";
    return "";
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    const char *path = getenv("KIT_RESULTS");
    const struct criterion_suite_stats *s;
    const struct criterion_test_stats *t;
    FILE *f;
    if (!path || !*path) return;
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "kit tests: cannot write %s\n", path);
        return;
    }
    for (s = stats->suites; s; s = s->next)
        for (t = s->tests; t; t = t->next) {
            fprintf(f, "%s\t%s\t%s\t", s->suite->name, t->test->name, status_of(t));
            put_field(f, message_of(t));
            fputc('\n', f);
        }
    fclose(f);
}

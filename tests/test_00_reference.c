/* test_00_reference.c - the shared harness itself (CPU only). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_test.h"

TestSuite(ch00_reference, .timeout = KIT_CPU_TIMEOUT);

Test(ch00_reference, parse_sizes)
{
    static const struct { const char *s; size_t n; } good[] = {
        {"0", 0},          {"1000", 1000},    {"2^24", 1u << 24}, {"2^20+7", (1u << 20) + 7},
        {"2^10-1", 1023},  {"1<<20", 1u << 20}, {"3<<4", 48},     {"16M", 16u << 20},
        {"4k", 4096},
    };
    static const char *const bad[] = {"", "x", "2^", "3^4", "2^99", "12q", "-5", "2^4-100", "1<<"};
    char msg[KIT_MSG];
    size_t i, n;
    for (i = 0; i < sizeof good / sizeof *good; i++) {
        cr_assert(kit_parse_size(good[i].s, &n, msg, sizeof msg), "'%s' rejected: %s", good[i].s, msg);
        cr_assert_eq(n, good[i].n, "'%s' parsed as %zu", good[i].s, n);
    }
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_not(kit_parse_size(bad[i], &n, msg, sizeof msg), "'%s' accepted", bad[i]);
        cr_assert(strstr(msg, "bad size") != NULL, "no message for '%s'", bad[i]);
    }
}

Test(ch00_reference, size_strings)
{
    char buf[32];
    cr_assert_str_eq(kit_size_str(1u << 24, buf, sizeof buf), "2^24");
    cr_assert_str_eq(kit_size_str((1u << 20) + 7, buf, sizeof buf), "2^20+7");
    cr_assert_str_eq(kit_size_str(1000, buf, sizeof buf), "1000");
    cr_assert_str_eq(kit_size_str(0, buf, sizeof buf), "0");
}

Test(ch00_reference, patterns_are_seeded_and_shaped)
{
    enum { N = 4099 };
    static uint32_t a[N], b[N];
    size_t i;
    int k, distinct;
    for (k = 0; k < KIT_PATTERN_COUNT; k++) {
        kit_pattern p;
        cr_assert(kit_pattern_parse(kit_pattern_name((kit_pattern)k), &p));
        cr_assert_eq((int)p, k);
        kit_fill_u32(a, N, (kit_pattern)k, 42);
        kit_fill_u32(b, N, (kit_pattern)k, 42);
        cr_assert(memcmp(a, b, sizeof a) == 0, "%s is not reproducible", kit_pattern_name(p));
    }
    cr_assert_not(kit_pattern_parse("nope", &(kit_pattern){0}));
    kit_fill_u32(a, N, KIT_UNIFORM, 1);
    kit_fill_u32(b, N, KIT_UNIFORM, 2);
    cr_assert(memcmp(a, b, sizeof a) != 0, "seeds 1 and 2 gave the same data");
    kit_fill_u32(a, N, KIT_ZEROS, 9);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], 0u);
    kit_fill_u32(a, N, KIT_LINEAR, 9);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], (uint32_t)i);
    kit_fill_u32(a, N, KIT_SORTED, 9);
    for (i = 1; i < N; i++) cr_assert_geq(a[i], a[i - 1], "sorted breaks at %zu", i);
    cr_assert_gt(a[N - 1], a[0]);
    kit_fill_u32(a, N, KIT_REVERSE, 9);
    for (i = 1; i < N; i++) cr_assert_leq(a[i], a[i - 1], "reverse breaks at %zu", i);
    kit_fill_u32(a, N, KIT_FEW_UNIQUE, 9);
    for (i = 0, distinct = 0; i < N; i++) {
        size_t j;
        for (j = 0; j < i && a[j] != a[i]; j++) {}
        distinct += j == i;
    }
    cr_assert(distinct > 1 && distinct <= 16, "few-unique has %d values", distinct);
    kit_fill_u32(a, N, KIT_ALTERNATING, 9);
    cr_assert(a[0] == 0 && a[1] == 0xFFFFFFFFu && a[2] == 0);
    {
        /* low entropy: about 1/8 of the bits set */
        size_t bits = 0;
        kit_fill_u32(a, N, KIT_LOW_ENTROPY, 3);
        for (i = 0; i < N; i++) bits += (size_t)__builtin_popcount(a[i]);
        cr_assert(bits > N * 32 / 16 && bits < N * 32 / 5, "low-entropy has %zu bits set", bits);
    }
}

Test(ch00_reference, permutation)
{
    enum { N = 10007 };
    static uint32_t p[N], q[N];
    static unsigned char seen[N];
    size_t i, moved = 0;
    kit_permutation(p, N, 5);
    kit_permutation(q, N, 5);
    cr_assert(memcmp(p, q, sizeof p) == 0);
    for (i = 0; i < N; i++) {
        cr_assert_lt(p[i], N);
        cr_assert_not(seen[p[i]], "%u appears twice", p[i]);
        seen[p[i]] = 1;
        moved += p[i] != i;
    }
    cr_assert_gt(moved, N / 2);
    kit_permutation(p, 0, 5); /* n = 0 is fine */
}

Test(ch00_reference, compare_reports_first_mismatch)
{
    uint32_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6};
    uint8_t c[3] = {1, 2, 3}, d[3] = {1, 2, 4};
    char msg[KIT_MSG];
    cr_assert(kit_cmp_u32(a, b, 6, msg, sizeof msg));
    cr_assert(kit_cmp_u32(a, b, 0, msg, sizeof msg));
    b[2] = 9;
    b[4] = 9;
    cr_assert_not(kit_cmp_u32(a, b, 6, msg, sizeof msg));
    cr_assert(strstr(msg, "at 2:") && strstr(msg, "2 of 6"), "message: %s", msg);
    cr_assert_not(kit_cmp_u8(c, d, 3, msg, sizeof msg));
    cr_assert(strstr(msg, "at 2: got 4, want 3") || strstr(msg, "at 2: got 3, want 4"), "%s", msg);
}

Test(ch00_reference, float_tolerance_and_nan)
{
    float want[3] = {1000.f, 0.f, -2.f}, got[3] = {1000.05f, 1e-7f, -2.f};
    char msg[KIT_MSG];
    cr_assert(kit_cmp_f32(got, want, 3, 1e-4, msg, sizeof msg), "%s", msg);
    got[0] = 1001.f;
    cr_assert_not(kit_cmp_f32(got, want, 3, 1e-4, msg, sizeof msg));
    got[0] = 1000.f;
    got[2] = NAN;
    cr_assert_not(kit_cmp_f32(got, want, 3, 1.0, msg, sizeof msg), "NaN passed");
}

Test(ch00_reference, poison_guard)
{
    uint32_t g[4];
    char msg[KIT_MSG];
    memset(g, KIT_POISON_BYTE, sizeof g);
    cr_assert(kit_all_poison_u32(g, 4, msg, sizeof msg));
    g[3] = 0;
    cr_assert_not(kit_all_poison_u32(g, 4, msg, sizeof msg));
    cr_assert(strstr(msg, "word 3") != NULL, "%s", msg);
}

Test(ch00_reference, median_and_min)
{
    double v[5] = {5, 1, 4, 2, 3}, w[4] = {4, 1, 3, 2};
    cr_assert_float_eq(kit_median(v, 5), 3.0, 1e-12);
    cr_assert_float_eq(kit_median(w, 4), 2.5, 1e-12);
    cr_assert_float_eq(v[0], 1.0, 1e-12, "median leaves the minimum first");
}

static void spin(void *arg) { (*(volatile int *)arg)++; }

Test(ch00_reference, cpu_timing_counts_runs)
{
    volatile int calls = 0;
    kit_timing t;
    kit_time_cpu(spin, (void *)&calls, 7, 10.0, &t);
    cr_assert_eq(calls, 7);
    cr_assert_eq(t.reps, 7);
    cr_assert(t.ms_min <= t.ms_median && t.ms_min >= 0.0);
}

Test(ch00_reference, csv_rows_have_every_column)
{
    kit_bench b;
    kit_timing t = {2.0, 1.5, 3};
    char line[512], path[] = "/tmp/kit_csv_XXXXXX";
    int fd = mkstemp(path), fields = 1, rows = 0;
    FILE *f;
    char *p;
    cr_assert(fd >= 0);
    memset(&b, 0, sizeof b);
    b.chapter = "01";
    b.csv = fdopen(fd, "w+");
    b.gpu = 1;
    b.copy_gbps = 100.0;
    snprintf(b.gpu_name, sizeof b.gpu_name, "Test, GPU");
    fprintf(b.csv, "%s\n", KIT_CSV_HEADER);
    kit_bench_row(&b, "s0", "a=1,b=2", 1000, 8000.0, 1000.0, &t, "ok");
    kit_bench_row(&b, "s1", "", 1000, 8000.0, 1000.0, NULL, "FAILED");
    cr_assert_eq(b.rows, 2);
    cr_assert_eq(b.failed, 1);
    f = b.csv;
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        for (fields = 1, p = line; *p; p++) fields += *p == ',';
        cr_assert_eq(fields, 12, "row %d has %d fields: %s", rows, fields, line);
        rows++;
    }
    cr_assert_eq(rows, 3);
    fclose(f);
    remove(path);
}

Test(ch00_reference, gpu_probe_explains_itself)
{
    char why[KIT_MSG];
    if (!kit_gpu_available(why, sizeof why))
        cr_assert(strncmp(why, "no CUDA device", 14) == 0, "reason: %s", why);
    else
        cr_assert_eq(why[0], '\0');
}

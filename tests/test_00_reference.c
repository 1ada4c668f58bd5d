/* test_00_reference.c - the shared harness itself (CPU only). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit_test.h"

TestSuite(ch00_reference, .timeout = KIT_CPU_TIMEOUT);

Test(ch00_reference, parse_sizes)
{
    static const struct { const char *s; size_t n; } good[] = {
        {"0", 0},          {"1000", 1000},    {"2^24", 1u << 24}, {"2^20+7", (1u << 20) + 7},
        {"2^10-1", 1023},  {"1<<20", 1u << 20}, {"3<<4", 48},     {"16M", 16u << 20},
        {"4k", 4096},      {"2^4-16", 0},     {"2^20-1048576", 0}, {"1<<3-8", 0},
        {"2^62+0", 1ull << 62},
    };
    static const char *const bad[] = {"", "x", "2^", "3^4", "2^99", "12q", "-5", "2^4-100", "2^4-17", "1<<",
                                        "17179869184G", "2^64", "1<<70", "2^62+18446744073709551615",
                                        "18446744073709551616", "99999999999999999999M"};
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

Test(ch00_reference, name_lists)
{
    cr_assert(kit_name_in_list(NULL, "qnn"), "no list means every name");
    cr_assert(kit_name_in_list("qnn", "qnn"));
    cr_assert(kit_name_in_list("k,qnn,build", "qnn"));
    cr_assert(kit_name_in_list("nanoflann,nanoflann-mt", "nanoflann-mt"));
    cr_assert(kit_name_in_list("nanoflann-mt,nanoflann", "nanoflann"), "a later whole entry");
    cr_assert_not(kit_name_in_list("nanoflann-mt", "nanoflann"), "a prefix is not a name");
    cr_assert_not(kit_name_in_list("knn8", "knn"), "a prefix is not a name");
    cr_assert_not(kit_name_in_list("allknn", "knn"), "a suffix is not a name");
    cr_assert_not(kit_name_in_list("", "qnn"));
    cr_assert_not(kit_name_in_list("a,b", "a,b,c"));
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

/* the multiset sort equals qsort, one chunk and threaded (past 2^22 words), with many repeats */
Test(ch00_reference, sort_u32_equals_qsort)
{
    static const size_t sizes[] = {0, 1, 2, 2047, 2049, 100003, ((size_t)1 << 22) + 3};
    size_t s, i;
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const size_t n = sizes[s];
        uint32_t *a = malloc(n * 4 + 4), *t = malloc(n * 4 + 4), *q = malloc(n * 4 + 4);
        uint64_t st = 12345 + n;
        cr_assert(a && t && q);
        for (i = 0; i < n; i++) { /* every fourth value from a small range: many repeats */
            const uint64_t r = kit_rand64(&st);
            a[i] = (i & 3) ? (uint32_t)r : (uint32_t)(r % 97) << 20;
        }
        memcpy(q, a, n * 4);
        qsort(q, n, 4, kit_test_cmp_u32);
        cr_assert_eq(kit_sort_u32(a, t, n), 0);
        cr_assert(n == 0 || memcmp(a, q, n * 4) == 0, "n = %zu: differs from qsort", n);
        free(a), free(t), free(q);
    }
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

/* a CSV row: every column of the header, by name */
Test(ch00_reference, csv_rows_have_every_column)
{
    kit_bench b;
    kit_timing t = {2.0, 1.5, 3};
    kit_row r;
    char line[1024], dir[] = "/tmp/kit_csv_XXXXXX", path[1100];
    int fields = 1, rows = 0, header = 0;
    FILE *f;
    char *p;
    cr_assert(mkdtemp(dir) != NULL);
    memset(&b, 0, sizeof b);
    b.chapter = "01";
    b.outdir = dir;
    b.gpu = 0;
    for (p = (char *)KIT_CSV_HEADER; *p; p++) header += *p == ',';
    cr_assert_eq(kit_bench_begin(&b, "x"), cudaSuccess);
    memset(&r, 0, sizeof r);
    r.step = "s0";
    r.param = "a=1,b=2";
    r.input = "uniform";
    r.shape = "k=8 dim=3";
    r.phase = "query";
    r.unit = "queries/s";
    r.verified = "ok";
    r.n = 1000;
    r.bytes = 8000;
    r.items = 1000;
    r.t = &t;
    kit_bench_row(&b, &r);
    r.t = NULL;
    r.verified = "FAILED";
    kit_bench_row(&b, &r);
    cr_assert_eq(b.rows, 2);
    cr_assert_eq(b.failed, 1);
    snprintf(path, sizeof path, "%s/x.csv", dir);
    cr_assert_neq(access(path, F_OK), 0, "the CSV appears before the experiment ends");
    kit_bench_end(&b, 1);
    cr_assert_eq(access(path, F_OK), 0, "kept CSV not renamed into place");
    f = fopen(path, "r");
    cr_assert(f);
    while (fgets(line, sizeof line, f)) {
        for (fields = 0, p = line; *p; p++) fields += *p == ',';
        cr_assert_eq(fields, header, "row %d has %d separators, the header %d: %s", rows, fields, header, line);
        if (rows == 1) cr_assert(strstr(line, ",uniform,1000,k=8 dim=3,query,8000,2.000000,1.500000,") != NULL, "%s", line);
        rows++;
    }
    cr_assert_eq(rows, 3);
    fclose(f);
    /* an experiment that fails leaves the committed CSV as it was */
    cr_assert_eq(kit_bench_begin(&b, "x"), cudaSuccess);
    kit_bench_end(&b, 0);
    f = fopen(path, "r");
    cr_assert(f);
    for (rows = 0; fgets(line, sizeof line, f);) rows++;
    fclose(f);
    cr_assert_eq(rows, 3, "a failed experiment overwrote the CSV");
    remove(path);
    rmdir(dir);
}

/* a toy problem with an axis, a phase pair and a per-problem metric, host only */
static size_t toy_out_count(const kit_shape *sh) { return (size_t)sh->v[0]; }
static void toy_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in,
                     uint64_t seed)
{
    (void)P;
    kit_fill_u32((uint32_t *)h->buf[0], sh->n, (kit_pattern)in->arg, seed);
}
static void toy_ref(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    size_t k;
    (void)P;
    for (k = 0; k < (size_t)sh->v[0]; k++) ((uint32_t *)h->buf[1])[k] = k < sh->n ? ((uint32_t *)h->buf[0])[k] : 0;
}
static const kit_buffer toy_bufs[] = {{"points", KIT_IN, 4, NULL}, {"best", KIT_OUT, 4, toy_out_count}};
static const kit_axis toy_axes[] = {{"k", "neighbours", 8, 1, 32, NULL}};
static const kit_cpu toy_cpu[] = {{"serial", toy_ref}};
static const kit_problem toy = {"toy", toy_bufs, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, toy_axes, 1,
                                "queries", NULL, {"build", "query"}, 0, toy_fill, toy_ref, NULL, toy_cpu, 1, NULL};
static const kit_step_info toy_info = {"t0", "", "toy", "reference/ladder.c", NULL, KIT_STEP_GPU, NULL};
static const kit_step_info *toy_step(const kit_ladder *L, size_t i) { (void)L; (void)i; return &toy_info; }
static double toy_bytes(const kit_ladder *L, size_t i, const kit_shape *sh) { (void)L; (void)i; return 4.0 * sh->n; }
static const kit_ladder toy_ladder = {"toy", "toy", 1, NULL, &toy, toy_step, toy_bytes, NULL, NULL, NULL, 0, NULL};

Test(ch00_reference, shapes_inputs_and_host_contexts)
{
    kit_shape sh = kit_shape_default(&toy, 100);
    kit_bench b;
    kit_ctx *c = NULL;
    char buf[128];
    cr_assert_eq(sh.v[0], 8.0);
    cr_assert_str_eq(kit_shape_str(&toy, &sh, buf, sizeof buf), "k=8");
    cr_assert_eq(kit_nphases(&toy), 2);
    cr_assert_str_eq(kit_phase_name(&toy, 1), "query");
    cr_assert(kit_input_find(&toy, "few-unique") == &kit_pattern_inputs[KIT_FEW_UNIQUE]);
    cr_assert(kit_input_find(&toy, "nope") == NULL);
    memset(&b, 0, sizeof b);
    b.axes = "k=32";
    sh = kit_bench_shape(&b, &toy, 50);
    cr_assert_eq(sh.v[0], 32.0);
    cr_assert_eq(kit_buf_count(&toy, 1, &sh), 32);
    cr_assert_eq(kit_shape_get(&toy, &sh, "k", 0), 32.0);
    cr_assert_eq(kit_shape_get(&toy, &sh, "dim", 3), 3.0);
    cr_assert_eq(kit_step_max_n(&toy_ladder, 0), SIZE_MAX);
    /* a host-only context: inputs, reference and the CPU baseline, no CUDA call */
    cr_assert_eq(kit_ctx_new(&toy_ladder, &sh, kit_input_find(&toy, "linear"), 1, 0, &c), cudaSuccess);
    cr_assert_eq(((const uint32_t *)kit_ctx_want(c)->buf[1])[31], 31u);
    cr_assert_eq(((const uint32_t *)kit_ctx_want(c)->buf[1])[20], 20u);
    kit_ctx_cpu(c, 0);
    cr_assert_eq(((const uint32_t *)kit_ctx_inputs(c)->buf[1])[7], 7u);
    kit_ctx_free(c);
}

/* bytes that depend on the data: kit_ctx_bytes asks bytes_data() with the reference, else bytes() */
static double toy_bytes_data(const kit_ladder *L, size_t i, const kit_shape *sh, const kit_host *want)
{
    (void)L;
    (void)sh;
    return 1000.0 * (double)i + (double)((const uint32_t *)want->buf[1])[3]; /* from the reference */
}
static const kit_ladder toy_data_ladder = {"toy-data", "toy", 1, NULL, &toy, toy_step, toy_bytes, NULL, NULL,
                                           NULL, 0, NULL, toy_bytes_data};

Test(ch00_reference, bytes_from_the_data)
{
    const kit_shape sh = kit_shape_default(&toy, 100);
    kit_ctx *c = NULL;
    cr_assert_eq(kit_ctx_new(&toy_ladder, &sh, kit_input_find(&toy, "linear"), 1, 0, &c), cudaSuccess);
    cr_assert_eq(kit_ctx_bytes(c, 0), 400.0, "no bytes_data: bytes() of the shape");
    kit_ctx_free(c);
    cr_assert_eq(kit_ctx_new(&toy_data_ladder, &sh, kit_input_find(&toy, "linear"), 1, 0, &c), cudaSuccess);
    cr_assert_eq(kit_ctx_bytes(c, 0), 3.0, "bytes_data() reads the reference (best[3] = 3 on linear)");
    cr_assert_eq(kit_ctx_bytes(c, 2), 2003.0, "bytes_data() gets the step");
    kit_ctx_free(c);
}

/* CPU baselines with a size limit, an untimed prepare(), a phase, a param and one absent from
 * the build; a sweep over listed sizes (no GPU: CPU rows only); the budget's cost ratio */
static int toy_prepared, toy_runs_unprepared, toy_prepares;
static void toy_prepare(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    (void)P, (void)h, (void)sh;
    toy_prepared = 1;
    toy_prepares++;
}
static void toy_query(const kit_problem *P, kit_host *h, const kit_shape *sh)
{
    if (!toy_prepared) toy_runs_unprepared++;
    toy_ref(P, h, sh);
}
static const kit_cpu toy_cpus2[] = {
    {"serial", toy_ref},
    {"small", toy_ref, 100},
    {"query", toy_query, 0, toy_prepare, "query", "an index searched"},
    {"missing", NULL, 0, NULL, "query", "not built: no library"},
};
static const kit_problem toy2 = {"toy2", toy_bufs, 2, kit_pattern_inputs, KIT_PATTERN_COUNT, toy_axes, 1,
                                 "queries", NULL, {"build", "query"}, 0, toy_fill, toy_ref, NULL, toy_cpus2, 4, NULL};
static double toy_cost(const kit_ladder *L, size_t i, const kit_shape *sh)
{
    (void)L, (void)i;
    return (double)sh->n * (double)sh->n;
}
static const kit_ladder toy_ladder2 = {"toy2", "toy2", 1, NULL, &toy2, toy_step, toy_bytes, NULL, NULL, NULL,
                                       0, NULL, NULL, toy_cost};

/* toy_ladder2 swept over the three sizes into cpu.csv at path (no GPU: its CPU rows), opened */
static FILE *cpu_sweep(kit_bench *b, const size_t *sizes, const char *path)
{
    FILE *f;
    cr_assert_eq(kit_bench_begin(b, "cpu"), cudaSuccess);
    cr_assert_eq(kit_ladder_sweep_sizes(b, &toy_ladder2, sizes, 3, "linear", 1, 0), cudaSuccess);
    kit_bench_end(b, 1);
    f = fopen(path, "r");
    cr_assert(f, "%s not written", path);
    return f;
}

Test(ch00_reference, cpu_baselines_sizes_and_costs)
{
    static const size_t sizes[] = {10, 1000, 77};
    kit_bench b;
    kit_shape full = kit_shape_default(&toy2, 1000), part = kit_shape_default(&toy2, 10);
    kit_ctx *c = NULL;
    kit_timing t;
    char line[1024], dir[] = "/tmp/kit_cpu_XXXXXX", path[1100];
    int rows = 0, small = 0, query = 0, missing = 0, serial = 0;
    FILE *f;
    /* the budget's estimate: n^2 for toy_ladder2, n without a cost function */
    cr_assert_float_eq(kit_ladder_cost_ratio(&toy_ladder2, 0, &full, &part), 10000.0, 1e-9);
    cr_assert_float_eq(kit_ladder_cost_ratio(&toy_ladder, 0, &full, &part), 100.0, 1e-9);
    /* prepare() runs before every timing, untimed; an absent baseline runs nothing */
    cr_assert_eq(kit_ctx_new(&toy_ladder2, &full, kit_input_find(&toy2, "linear"), 1, 0, &c), cudaSuccess);
    toy_runs_unprepared = toy_prepared = toy_prepares = 0;
    kit_ctx_time_cpu(c, 2, 4, 10.0, &t);
    cr_assert_eq(t.reps, 4);
    cr_assert_eq(toy_runs_unprepared, 0, "the timed run came without its prepare()");
    cr_assert_eq(toy_prepares, 1, "prepare() ran %d times for 4 timed runs: once, untimed", toy_prepares);
    toy_prepared = 0;
    kit_ctx_cpu(c, 2);
    cr_assert_eq(toy_runs_unprepared, 0, "kit_ctx_cpu ran without prepare()");
    kit_ctx_time_cpu(c, 3, 5, 10.0, &t);
    cr_assert_eq(t.reps, 0, "an absent baseline was timed");
    kit_ctx_cpu(c, 3); /* no crash */
    kit_ctx_free(c);
    /* a sweep over listed sizes writes CPU rows with their phase and param, within max_n */
    cr_assert(mkdtemp(dir) != NULL);
    memset(&b, 0, sizeof b);
    b.chapter = "00";
    b.outdir = dir;
    b.gpu = 0;
    b.quick = 1;
    b.cpu_mode = KIT_CPU_MEASURE; /* every row timed now (a cache entry would change the param) */
    snprintf(path, sizeof path, "%s/cpu.csv", dir);
    snprintf(line, sizeof line, "%s/cache.tsv", dir);
    setenv("KIT_CPU_CACHE", line, 1); /* this test's own cache, removed below */
    f = cpu_sweep(&b, sizes, path);
    while (fgets(line, sizeof line, f)) {
        rows++;
        if (strncmp(line, "00,cpu-small,", 13) == 0) {
            small++;
            cr_assert(strstr(line, ",1000,") == NULL, "cpu-small (max_n 100) timed at n = 1000: %s", line);
        }
        if (strncmp(line, "00,cpu-query,an index searched,linear,", 38) == 0) {
            query++;
            cr_assert(strstr(line, ",query,") != NULL && strstr(line, ",ok,") != NULL, "%s", line);
        }
        if (strncmp(line, "00,cpu-missing,not built: no library,linear,", 44) == 0) {
            missing++;
            cr_assert(strstr(line, ",query,") != NULL && strstr(line, ",absent,") != NULL, "%s", line);
        }
        if (strncmp(line, "00,cpu-serial,serial CPU baseline,linear,", 41) == 0) {
            serial++;
            cr_assert(strstr(line, ",run,") != NULL, "%s", line);
        }
    }
    fclose(f);
    cr_assert_eq(serial, 3, "one serial row per size (n = 10, 1000, 77)");
    cr_assert_eq(small, 2, "cpu-small at n = 10 and 77 only");
    cr_assert_eq(query, 3);
    cr_assert_eq(missing, 3);
    cr_assert_eq(rows, 1 + 3 + 2 + 3 + 3, "header + rows");
    remove(path);
    /* an experiment that times one phase: only the baselines of that phase get rows */
    cr_assert_eq(kit_phase_index(&toy2, "query"), 1);
    cr_assert_eq(kit_phase_index(&toy2, "build"), 0);
    cr_assert_eq(kit_phase_index(&toy2, "run"), -1);
    cr_assert_eq(kit_phase_index(&toy, NULL), -1);
    b.phase = "query";
    f = cpu_sweep(&b, sizes, path);
    for (rows = 0, query = 0; fgets(line, sizeof line, f);) {
        rows++;
        if (strstr(line, ",query,")) query++;
        cr_assert(strncmp(line, "00,cpu-serial,", 14) != 0 && strncmp(line, "00,cpu-small,", 13) != 0,
                  "a baseline of another phase was timed by a query-only experiment: %s", line);
    }
    fclose(f);
    cr_assert_eq(query, 3 + 3, "cpu-query and cpu-missing at three sizes");
    cr_assert_eq(rows, 1 + 6, "header and the query rows");
    remove(path);
    /* an experiment that names its CPU rows: only those (of its phase) get rows */
    b.cpus = "missing,serial";
    f = cpu_sweep(&b, sizes, path);
    for (rows = 0; fgets(line, sizeof line, f);) {
        rows++;
        cr_assert(rows == 1 || strncmp(line, "00,cpu-missing,", 15) == 0,
                  "a CPU row the experiment did not name (or of another phase): %s", line);
    }
    fclose(f);
    cr_assert_eq(rows, 1 + 3, "header and cpu-missing at three sizes");
    b.cpus = NULL;
    b.phase = NULL;
    remove(path);
    remove(getenv("KIT_CPU_CACHE"));
    rmdir(dir);
}

/* The CPU rows' cache: found for its machine and build only, never when too old, a corrupt line
 * skipped with a warning, the largest smaller size for an estimate, and the row's choice between
 * cached, estimated and measured. */
static int cache_get(const char *path, const kit_cpu_key *k, const char *m, const char *b, double *ms)
{
    long long when = 0;
    return kit_cpu_cache_get(path, k, m, b, ms, &when);
}

Test(ch00_reference, cpu_cache_entries)
{
    char dir[] = "/tmp/kit_cache_XXXXXX", path[1100], errp[1100], text[4096], line[2048];
    kit_cpu_key k = {"00", "toy2", "serial", "linear", "k=4", 1000};
    double ms = 0;
    size_t n = 0;
    FILE *f;
    int saved, fd;
    cr_assert(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/sub/cache.tsv", dir); /* its folder is made on the first write */
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 0, "an absent file holds nothing");
    cr_assert_eq(kit_cpu_cache_put(path, &k, "M1", "B1", 12.5), 0);
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 1);
    cr_assert_float_eq(ms, 12.5, 1e-12);
    cr_assert_eq(cache_get(path, &k, "M2", "B1", &ms), 0, "another machine's entry was used");
    cr_assert_eq(cache_get(path, &k, "M1", "B2", &ms), 0, "another build's entry was used");
    k.input = "random";
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 0, "another input's entry was used");
    k.input = "linear";
    k.n = 1001;
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 0, "another size's entry was used");
    /* the newest entry wins; the largest smaller size is the estimate's base */
    k.n = 1000;
    cr_assert_eq(kit_cpu_cache_put(path, &k, "M1", "B1", 13.0), 0);
    k.n = 4000;
    cr_assert_eq(kit_cpu_cache_put(path, &k, "M1", "B1", 60.0), 0);
    k.n = 1000;
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 1);
    cr_assert_float_eq(ms, 13.0, 1e-12);
    k.n = 100000;
    cr_assert_eq(kit_cpu_cache_below(path, &k, "M1", "B1", &n, &ms), 1);
    cr_assert_eq(n, 4000);
    cr_assert_float_eq(ms, 60.0, 1e-12);
    k.n = 1000;
    cr_assert_eq(kit_cpu_cache_below(path, &k, "M1", "B1", &n, &ms), 0, "nothing below the smallest size");
    /* corrupt lines: a torn one, a foreign format, and a valid line with its time changed */
    f = fopen(path, "r");
    cr_assert(f);
    cr_assert(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    {
        char *ms_field = strstr(line, "\t12.5\t");
        cr_assert(ms_field != NULL, "the first entry: %s", line);
        ms_field[2] = '9'; /* 12.5 -> 19.5, the checksum unchanged */
    }
    f = fopen(path, "a");
    cr_assert(f);
    fputs("kitcpu1\tM1\tB1\t00\ttoy2\n", f);
    fputs("not a cache line at all\n", f);
    fputs(line, f);
    fclose(f);
    snprintf(errp, sizeof errp, "%s/stderr.txt", dir);
    fflush(stderr);
    saved = dup(2);
    fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    ms = 0;
    fd = cache_get(path, &k, "M1", "B1", &ms);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    cr_assert_eq(fd, 1);
    cr_assert_float_eq(ms, 13.0, 1e-12, "a tampered line was used: %g", ms);
    f = fopen(errp, "r");
    cr_assert(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    cr_assert(strstr(text, "3 corrupt line(s) ignored") != NULL, "the warning: '%s'", text);
    /* too old: with a limit of about 0.09 s, an entry of over a second ago is no longer used */
    setenv("KIT_CPU_CACHE_DAYS", "0.000001", 1);
    {
        const struct timespec pause = {1, 200000000L}; /* times are whole seconds */
        nanosleep(&pause, NULL);
    }
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 0, "a stale entry was used");
    unsetenv("KIT_CPU_CACHE_DAYS");
    cr_assert_eq(cache_get(path, &k, "M1", "B1", &ms), 1);
    /* the cost models */
    cr_assert_float_eq(kit_cpu_scale(KIT_COST_N, 2.0, 1000, 4000), 8.0, 1e-9);
    cr_assert_float_eq(kit_cpu_scale(KIT_COST_N2, 2.0, 1000, 4000), 32.0, 1e-9);
    cr_assert_float_eq(kit_cpu_scale(KIT_COST_NLOGN, 2.0, 1024, 4096), 2.0 * 4 * 12.0 / 10.0, 1e-9);
    remove(errp);
    remove(path);
    snprintf(path, sizeof path, "%s/sub", dir);
    rmdir(path);
    rmdir(dir);
}

Test(ch00_reference, cpu_rows_cached_estimated_measured)
{
    char dir[] = "/tmp/kit_rows_XXXXXX", path[1100], shape[256];
    const kit_shape sh = kit_shape_default(&toy2, 1000);
    kit_ctx *c = NULL;
    kit_cpu_time ct;
    kit_cpu_key k = {"00", "toy2", "serial", "linear", NULL, 1000};
    double ms;
    cr_assert(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/cache.tsv", dir);
    setenv("KIT_CPU_CACHE", path, 1);
    cr_assert_str_eq(kit_cpu_cache_path(), path);
    k.shape = kit_shape_str(&toy2, &sh, shape, sizeof shape);
    cr_assert_eq(kit_ctx_new(&toy_ladder2, &sh, kit_input_find(&toy2, "linear"), 1, 0, &c), cudaSuccess);
    /* nothing known: measured, and kept */
    kit_ctx_cpu_row(c, "00", 0, KIT_CPU_CACHED, 2, 1.0, &ct);
    cr_assert_eq(ct.how, KIT_CPU_MEASURED);
    cr_assert(ct.t.reps >= 1);
    cr_assert_eq(cache_get(path, &k, kit_cpu_machine(), kit_cpu_build(), &ms), 1, "the measurement was not kept");
    /* known: taken from the cache, nothing run */
    kit_cpu_cache_put(path, &k, kit_cpu_machine(), kit_cpu_build(), 777.0);
    kit_ctx_cpu_row(c, "00", 0, KIT_CPU_CACHED, 2, 1.0, &ct);
    cr_assert_eq(ct.how, KIT_CPU_FROM_CACHE);
    cr_assert_float_eq(ct.t.ms_median, 777.0, 1e-9);
    cr_assert(ct.when > 0);
    /* measure: timed now whatever the cache holds */
    kit_ctx_cpu_row(c, "00", 0, KIT_CPU_MEASURE, 2, 1.0, &ct);
    cr_assert_eq(ct.how, KIT_CPU_MEASURED);
    cr_assert(ct.t.ms_median < 777.0);
    /* none, and an absent baseline: no row */
    kit_ctx_cpu_row(c, "00", 0, KIT_CPU_NONE, 2, 1.0, &ct);
    cr_assert_eq(ct.how, KIT_CPU_ABSENT);
    kit_ctx_cpu_row(c, "00", 3, KIT_CPU_CACHED, 2, 1.0, &ct);
    cr_assert_eq(ct.how, KIT_CPU_ABSENT);
    kit_ctx_free(c);
    /* a larger size whose time a smaller one predicts beyond the budget: estimated (linear model) */
    {
        const kit_shape big = kit_shape_default(&toy2, 4000);
        k.n = 2000;
        k.shape = kit_shape_str(&toy2, &big, shape, sizeof shape);
        kit_cpu_cache_put(path, &k, kit_cpu_machine(), kit_cpu_build(), 5000.0);
        cr_assert_eq(kit_ctx_new(&toy_ladder2, &big, kit_input_find(&toy2, "linear"), 1, 0, &c), cudaSuccess);
        cr_assert_float_eq(kit_ctx_cpu_guess(c, "00", 0), 10.0, 1e-9, "5 s at 2000 -> 10 s at 4000");
        kit_ctx_cpu_row(c, "00", 0, KIT_CPU_CACHED, 2, 1.0, &ct);
        cr_assert_eq(ct.how, KIT_CPU_ESTIMATED);
        cr_assert_eq(ct.from_n, 2000);
        cr_assert_float_eq(ct.t.ms_median, 10000.0, 1e-6);
        /* within the budget it is measured instead */
        kit_ctx_cpu_row(c, "00", 0, KIT_CPU_CACHED, 2, 60.0, &ct);
        cr_assert_eq(ct.how, KIT_CPU_MEASURED);
        kit_ctx_free(c);
    }
    unsetenv("KIT_CPU_CACHE");
    remove(path);
    rmdir(dir);
}

Test(ch00_reference, gpu_probe_explains_itself)
{
    char why[KIT_MSG];
    if (!kit_gpu_available(why, sizeof why))
        cr_assert(strncmp(why, "no CUDA device", 14) == 0, "reason: %s", why);
    else
        cr_assert_eq(why[0], '\0');
}

/* ------------------------------------------------ the generators, value for value */

/* SplitMix64 written out again, apart from kit_rand64: the tests below pin every generator to
 * the words it must write, so a generator that skips a word or draws from a smaller pool fails
 * here even though every check that reads its buffer would agree with it */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z;
    *s += 0x9E3779B97F4A7C15ull;
    z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

Test(ch00_reference, rand64_is_splitmix64)
{
    /* the published first outputs of SplitMix64 from state 0 */
    static const uint64_t want[3] = {0xE220A8397B1DCDAFull, 0x6E789E6AA1B965F4ull, 0x06C45D188009454Full};
    uint64_t st = 0, mine = 0;
    int k;
    for (k = 0; k < 3; k++) cr_assert_eq(kit_rand64(&st), want[k], "output %d of state 0", k);
    for (st = 12345, mine = 12345, k = 0; k < 1000; k++) cr_assert_eq(kit_rand64(&st), splitmix(&mine));
}

Test(ch00_reference, uniform_writes_every_word)
{
    static const size_t sizes[] = {0, 1, 2, 5, 6, 4099};
    static uint32_t a[4100];
    size_t k, i;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        const size_t n = sizes[k];
        uint64_t st = 77 + k, r = 0;
        for (i = 0; i < 4100; i++) a[i] = 0xA5A5A5A5u;
        kit_fill_u32(a, n, KIT_UNIFORM, 77 + k);
        for (i = 0; i < n; i++) {
            /* two words per draw, low half first; an odd n's last word has a draw of its own */
            if (i % 2 == 0) r = splitmix(&st);
            const uint32_t w = (i % 2 == 0) ? (uint32_t)r : (uint32_t)(r >> 32);
            cr_assert_eq(a[i], w, "uniform n=%zu: word %zu is %08x, want %08x", n, i, a[i], w);
        }
        cr_assert_eq(a[n], 0xA5A5A5A5u, "uniform n=%zu wrote past its end", n);
    }
}

Test(ch00_reference, every_pattern_pinned)
{
    enum { N = 4099 };
    static uint32_t a[N];
    uint32_t pool[16], v, step;
    unsigned seen = 0;
    uint64_t st;
    size_t i;
    int k;

    kit_fill_u32(a, N, KIT_FEW_UNIQUE, 9); /* 16 values drawn first, then an index per word */
    st = 9;
    for (k = 0; k < 16; k++) pool[k] = (uint32_t)splitmix(&st);
    for (i = 0; i < N; i++) {
        const unsigned j = (unsigned)(splitmix(&st) & 15u);
        cr_assert_eq(a[i], pool[j], "few-unique word %zu", i);
        seen |= 1u << j;
    }
    cr_assert_eq(seen, 0xFFFFu, "few-unique at n = %d uses every one of its 16 values", N);

    kit_fill_u32(a, N, KIT_IDENTICAL, 4);
    st = 4;
    v = (uint32_t)splitmix(&st);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], v, "identical word %zu", i);

    kit_fill_u32(a, N, KIT_LOW_ENTROPY, 3); /* the AND of three draws per word */
    st = 3;
    for (i = 0; i < N; i++) {
        const uint64_t x = splitmix(&st), y = splitmix(&st), z = splitmix(&st);
        cr_assert_eq(a[i], (uint32_t)(x & y & z), "low-entropy word %zu", i);
    }

    kit_fill_u32(a, N, KIT_SORTED, 9); /* a walk of steps in [0, step] from 0 */
    st = 9;
    step = (uint32_t)(0xFFFFFFFFull / (N + 1));
    for (i = 0, v = 0; i < N; i++) {
        v += (uint32_t)(splitmix(&st) % (2ull * step + 1)) / 2u;
        cr_assert_eq(a[i], v, "sorted word %zu", i);
    }
    kit_fill_u32(a, N, KIT_REVERSE, 9); /* the same walk, written from the end */
    st = 9;
    for (i = 0, v = 0; i < N; i++) {
        v += (uint32_t)(splitmix(&st) % (2ull * step + 1)) / 2u;
        cr_assert_eq(a[N - 1 - i], v, "reverse word %zu", N - 1 - i);
    }

    kit_fill_u32(a, N, KIT_ALTERNATING, 9);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], (i & 1) ? 0xFFFFFFFFu : 0u, "alternating word %zu", i);
}

Test(ch00_reference, permutation_pinned)
{
    enum { N = 1000 };
    static uint32_t p[N], q[N];
    uint64_t st = 5;
    size_t i;
    /* Fisher-Yates from the end: position i - 1 swaps with a draw modulo i */
    for (i = 0; i < N; i++) q[i] = (uint32_t)i;
    for (i = N; i > 1; i--) {
        const size_t j = (size_t)(splitmix(&st) % i);
        const uint32_t t = q[i - 1];
        q[i - 1] = q[j];
        q[j] = t;
    }
    kit_permutation(p, N, 5);
    for (i = 0; i < N; i++) cr_assert_eq(p[i], q[i], "permutation position %zu", i);
}

/* ------------------------------------------------------- the options' bounds */

/* a chapter program with the toy ladder (its axis k in [1, 32]) and no experiment: `bench --exp
 * none` stops at the experiment's name once every option was taken, so an accepted value says
 * "unknown experiment" and a refused one its range, and nothing runs */
static const kit_ladder *const toy_ladders[] = {&toy_ladder};
static const kit_chapter toy_chapter = {"99", "99-toy", "toy", toy_ladders, 1, NULL, 0, 1000, 1};

/* kit_chapter_main(toy, "ch99", args..., NULL) with its stderr in err; its exit status */
static int toy_main(char *err, size_t len, const char *a0, const char *a1, const char *a2)
{
    char *argv[8] = {"ch99", "bench", "--exp", "none", (char *)a0, (char *)a1, (char *)a2, NULL};
    int argc = 4, saved, rc;
    FILE *f = tmpfile();
    size_t got;
    cr_assert(f);
    while (argc < 7 && argv[argc]) argc++;
    fflush(stderr);
    saved = dup(2);
    dup2(fileno(f), 2);
    rc = kit_chapter_main(&toy_chapter, argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    got = fread(err, 1, len - 1, f);
    err[got] = '\0';
    fclose(f);
    return rc;
}

Test(ch00_reference, every_option_bound)
{
    /* each bounded option of `bench` and its documented range (reference/cli.c) */
    static const struct { const char *flag; int lo, hi; } opt[] = {
        {"--reps", 1, 1000}, {"--warmup", 0, 100}, {"--max-log2", 10, 34}, {"--k", 1, 32},
    };
    char err[4096], v[32];
    size_t k;
    int d;
    for (k = 0; k < sizeof opt / sizeof *opt; k++) {
        const int axis = !strcmp(opt[k].flag, "--k");
        for (d = 0; d < 4; d++) {
            const int x = d == 0 ? opt[k].lo - 1 : d == 1 ? opt[k].lo : d == 2 ? opt[k].hi : opt[k].hi + 1;
            const int ok = d == 1 || d == 2;
            int rc;
            snprintf(v, sizeof v, "%d", x);
            rc = toy_main(err, sizeof err, opt[k].flag, v, NULL);
            cr_assert_eq(rc, 2, "bench %s %s: exit %d", opt[k].flag, v, rc);
            if (ok)
                cr_assert(strstr(err, "unknown experiment 'none'") != NULL, "bench %s %s refused: %s", opt[k].flag,
                          v, err);
            else if (axis)
                cr_assert(strstr(err, "want a number in [1, 32]") != NULL, "bench %s %s accepted: %s", opt[k].flag,
                          v, err);
            else {
                char range[64];
                snprintf(range, sizeof range, "from %d to %d", opt[k].lo, opt[k].hi);
                cr_assert(strstr(err, range) != NULL, "bench %s %s accepted or misworded: %s", opt[k].flag, v, err);
            }
        }
        /* not a whole number, and no value at all */
        cr_assert_eq(toy_main(err, sizeof err, opt[k].flag, "3x", NULL), 2);
        cr_assert(strstr(err, "unknown experiment") == NULL, "bench %s 3x accepted: %s", opt[k].flag, err);
        cr_assert_eq(toy_main(err, sizeof err, opt[k].flag, NULL, NULL), 2);
        cr_assert(strstr(err, "unknown experiment") == NULL, "bench %s with no value accepted: %s", opt[k].flag, err);
    }
}

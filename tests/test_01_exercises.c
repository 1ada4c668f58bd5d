/* test_01_exercises.c - chapter 01's exercises: ex01_loadbalance (row_dask_balance, the rows of
 * the Row DASk, CPU) and ex01_block_dask (the s1 kernel, GPU).  The CPU tests compare with the
 * rule by hand and with its invariants; the GPU tests run the step against the CPU reference. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "kit_test.h"
#include "loadbalance.h"

/* the copy inputs the chapter's tests run (test_01_copy.c uses them too) */
const char *const copy_inputs[] = {"uniform", "zeros", "linear", "alternating", NULL};
#define NPAT 4

/* ----------------------------------------------------- ex01_loadbalance */

/* ex01_loadbalance (CPU): row_dask_balance in $(IMPL)/01-copy/loadbalance.h */
TestSuite(ex01_loadbalance, .timeout = KIT_CPU_TIMEOUT);

/* the student's rows 0 .. R-1 of m blocks: start s[r], count c[r] (run in a KIT_STUDENT block) */
static void balance_rows(uint64_t m, uint32_t R, uint64_t *s, uint64_t *c)
{
    uint32_t r;
    for (r = 0; r < R; r++) {
        s[r] = ~0ull;
        c[r] = ~0ull;
        row_dask_balance(m, R, r, &s[r], &c[r]);
    }
}

/* rows contiguous and in order, covering [0, m), counts differ by at most one
 * (s, c: what balance_rows gave) */
static void expect_balanced(uint64_t m, uint32_t R, const uint64_t *s, const uint64_t *c)
{
    uint64_t next = 0, lo = ~0ull, hi = 0;
    uint32_t r;
    for (r = 0; r < R; r++) {
        cr_assert_eq(s[r], next, "row_dask_balance(nblocks=%llu, nrows=%u, row=%u): *start = %llu, want %llu",
                     (unsigned long long)m, R, r, (unsigned long long)s[r], (unsigned long long)next);
        next = s[r] + c[r];
        if (c[r] < lo) lo = c[r];
        if (c[r] > hi) hi = c[r];
    }
    cr_assert_eq(next, m, "row_dask_balance(nblocks=%llu, nrows=%u, row=0..%u): the rows cover %llu blocks, want %llu",
                 (unsigned long long)m, R, R - 1, (unsigned long long)next, (unsigned long long)m);
    cr_assert_leq(hi - lo, 1,
                  "row_dask_balance(nblocks=%llu, nrows=%u, row=0..%u): *count from %llu to %llu, want counts that differ by at most 1",
                  (unsigned long long)m, R, R - 1, (unsigned long long)lo, (unsigned long long)hi);
}

Test(ex01_loadbalance, example_23_over_5)
{
    static const uint64_t want_count[5] = {4, 5, 5, 5, 4}, want_start[5] = {0, 4, 9, 14, 19};
    uint64_t s[5] = {0}, c[5] = {0};
    uint32_t r;
    KIT_STUDENT {
        for (r = 0; r < 5; r++) row_dask_balance(23, 5, r, &s[r], &c[r]);
    }
    KIT_FROM_RUNNER(s, sizeof s);
    KIT_FROM_RUNNER(c, sizeof c);
    for (r = 0; r < 5; r++)
        cr_assert(s[r] == want_start[r] && c[r] == want_count[r],
                  "row_dask_balance(nblocks=23, nrows=5, row=%u): *start = %llu, *count = %llu, want %llu and %llu", r,
                  (unsigned long long)s[r], (unsigned long long)c[r], (unsigned long long)want_start[r],
                  (unsigned long long)want_count[r]);
}

Test(ex01_loadbalance, covers_in_order)
{
    enum { RMAX = 40, MMAX = 200 };
    const size_t rows = (size_t)RMAX * (RMAX + 1) / 2 * (MMAX + 1); /* every (R, m), R rows each */
    uint64_t *s = malloc(rows * sizeof *s), *c = malloc(rows * sizeof *c), m;
    size_t at;
    uint32_t R;
    cr_assert(s && c);
    KIT_STUDENT {
        for (R = 1, at = 0; R <= RMAX; R++)
            for (m = 0; m <= MMAX; m++, at += R) balance_rows(m, R, s + at, c + at);
    }
    KIT_FROM_RUNNER(s, rows * sizeof *s);
    KIT_FROM_RUNNER(c, rows * sizeof *c);
    for (R = 1, at = 0; R <= RMAX; R++)
        for (m = 0; m <= MMAX; m++, at += R) expect_balanced(m, R, s + at, c + at);
    free(s);
    free(c);
}

Test(ex01_loadbalance, avoids_first_and_last)
{
    uint32_t R, r;
    uint64_t m, *s, *c;
    size_t rows = 0, at;
    for (R = 3; R <= 24; R++) rows += (size_t)R * (4 * (size_t)R + 1); /* m = R .. 5R, R rows each */
    s = malloc(rows * sizeof *s);
    c = malloc(rows * sizeof *c);
    cr_assert(s && c);
    KIT_STUDENT {
        for (R = 3, at = 0; R <= 24; R++)
            for (m = R; m <= 5 * (uint64_t)R; m++, at += R) balance_rows(m, R, s + at, c + at);
    }
    KIT_FROM_RUNNER(c, rows * sizeof *c);
    for (R = 3, at = 0; R <= 24; R++)
        for (m = R; m <= 5 * (uint64_t)R; m++, at += R) {
            uint64_t base = m / R, left = m % R, c0 = c[at], cl = c[at + R - 1];
            if (left == 0) continue;
            cr_assert_eq(cl, base, "row_dask_balance(nblocks=%llu, nrows=%u, row=%u) (the last row): *count = %llu, want %llu",
                         (unsigned long long)m, R, R - 1, (unsigned long long)cl, (unsigned long long)base);
            cr_assert_eq(c0, left + 2 <= R ? base : base + 1,
                         "row_dask_balance(nblocks=%llu, nrows=%u, row=0) (the first row): *count = %llu, want %llu",
                         (unsigned long long)m, R, (unsigned long long)c0,
                         (unsigned long long)(left + 2 <= R ? base : base + 1));
            for (r = 1; r + 1 < R; r++) {
                const uint64_t cnt = c[at + r];
                if (left + 2 <= R)
                    cr_assert_eq(cnt, r <= left ? base + 1 : base,
                                 "row_dask_balance(nblocks=%llu, nrows=%u, row=%u): *count = %llu, want %llu",
                                 (unsigned long long)m, R, r, (unsigned long long)cnt,
                                 (unsigned long long)(r <= left ? base + 1 : base));
            }
        }
    free(s);
    free(c);
}

Test(ex01_loadbalance, large_counts)
{
    enum { R = 2112 };
    static uint64_t s1[R], c1[R], s2[R], c2[R];
    uint64_t s = 0, c = 0;
    KIT_STUDENT {
        balance_rows((1ull << 40) + 12345, R, s1, c1);
        balance_rows(3, R, s2, c2); /* fewer blocks than rows */
        row_dask_balance((1ull << 40) + 12345, R, R - 1, &s, &c);
    }
    KIT_FROM_RUNNER(s1, sizeof s1);
    KIT_FROM_RUNNER(c1, sizeof c1);
    KIT_FROM_RUNNER(s2, sizeof s2);
    KIT_FROM_RUNNER(c2, sizeof c2);
    KIT_FROM_RUNNER(&s, sizeof s);
    KIT_FROM_RUNNER(&c, sizeof c);
    expect_balanced((1ull << 40) + 12345, R, s1, c1);
    expect_balanced(3, R, s2, c2);
    cr_assert_eq(s + c, (1ull << 40) + 12345,
                 "row_dask_balance(nblocks=%llu, nrows=%u, row=%u): *start + *count = %llu, want %llu",
                 (1ull << 40) + 12345, R, R - 1, (unsigned long long)(s + c), (1ull << 40) + 12345);
}

/* ------------------------------------------------------ ex01_block_dask */

/* ex01_block_dask (GPU): the s1 kernel in $(IMPL)/01-copy/s1_block_dask.cu */
TestSuite(ex01_block_dask, .timeout = KIT_GPU_TIMEOUT);

#define S1 1 /* index of s1_block_dask in the ladder */

Test(ex01_block_dask, whole_blocks)
{
    static const size_t n[] = {512, 4096, 1u << 20};
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < 3; k++) kit_expect_n(&copy_ladder, S1, n[k], "uniform", k);
}

Test(ex01_block_dask, odd_sizes)
{
    static const size_t n[] = {1, 31, 33, 511, 513, 1023, 1025, (1u << 20) + 7};
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < sizeof n / sizeof *n; k++) kit_expect_n(&copy_ladder, S1, n[k], "uniform", k);
}

Test(ex01_block_dask, large_and_patterns)
{
    size_t p;
    KIT_REQUIRE_GPU();
    for (p = 0; p < NPAT; p++) {
        kit_expect_n(&copy_ladder, S1, 1u << 24, copy_inputs[p], p);
        kit_expect_n(&copy_ladder, S1, (1u << 24) + 1, copy_inputs[p], p);
    }
}

Test(ex01_block_dask, tiny_and_empty)
{
    KIT_REQUIRE_GPU();
    kit_expect_n(&copy_ladder, S1, 2, "linear", 0);
    kit_expect_n(&copy_ladder, S1, 0, "uniform", 0); /* must write nothing */
    kit_expect_n(&copy_ladder, S1, 3, "alternating", 0);
}

/* ------------------------------------------------------------ speed tests */

#include "kit_speed.h"

/* ex01_loadbalance's speed: an input is LB_PROBLEMS (nblocks, nrows) pairs, its output every row's
 * start and count (two planes of LB_PROBLEMS x LB_ROWS words; rows past nrows are 0) */
enum { LB_PROBLEMS = 256, LB_ROWS = 256 };
typedef struct lb_problem {
    uint64_t nblocks;
    uint32_t nrows, pad;
} lb_problem;

static void lb_fill(void *in, uint64_t seed)
{
    lb_problem *p = in;
    size_t k;
    for (k = 0; k < LB_PROBLEMS; k++) {
        const uint64_t r = kit_rand64(&seed);
        p[k].nrows = 3 + (uint32_t)(r % (LB_ROWS - 2));
        p[k].nblocks = (r >> 32) % 4 == 0 ? kit_rand64(&seed) % p[k].nrows : kit_rand64(&seed) % (1ull << 40);
        p[k].pad = 0;
    }
}

static int lb_run(const void *in, void *out, void *stream)
{
    const lb_problem *p = in;
    uint64_t *s = out, *c = s + (size_t)LB_PROBLEMS * LB_ROWS;
    uint32_t k, r;
    (void)stream;
    for (k = 0; k < LB_PROBLEMS; k++, s += LB_ROWS, c += LB_ROWS) {
        if (p[k].nrows == 0 || p[k].nrows > LB_ROWS) return 1; /* not an input lb_fill makes */
        for (r = 0; r < p[k].nrows; r++) row_dask_balance(p[k].nblocks, p[k].nrows, r, &s[r], &c[r]);
        for (; r < LB_ROWS; r++) s[r] = c[r] = 0;
    }
    return 0;
}

/* balanced and in order (expect_balanced), the left-over run off the first and last rows */
static int lb_check(const void *in, const void *out, char *why, size_t len)
{
    const lb_problem *p = in;
    const uint64_t *s = out, *c = s + (size_t)LB_PROBLEMS * LB_ROWS;
    uint32_t k;
    (void)why;
    (void)len;
    for (k = 0; k < LB_PROBLEMS; k++, s += LB_ROWS, c += LB_ROWS) {
        const uint64_t m = p[k].nblocks, R = p[k].nrows, base = m / R, left = m % R;
        expect_balanced(m, (uint32_t)R, s, c);
        if (left == 0) continue;
        cr_assert(c[R - 1] == base && c[0] == (left + 2 <= R ? base : base + 1),
                  "m=%llu R=%llu: first and last rows have %llu and %llu blocks, want %llu and %llu",
                  (unsigned long long)m, (unsigned long long)R, (unsigned long long)c[0],
                  (unsigned long long)c[R - 1], (unsigned long long)(left + 2 <= R ? base : base + 1),
                  (unsigned long long)base);
    }
    return 0;
}

static const kit_speed_spec lb_speed = {
    .exercise = "ex01_loadbalance",
    .reference = "the solution's row_dask_balance",
    .unit = "rows",
    .where = KIT_SPEED_CPU,
    .in_bytes = LB_PROBLEMS * sizeof(lb_problem),
    .out_bytes = 2 * (size_t)LB_PROBLEMS * LB_ROWS * sizeof(uint64_t),
    .items = (size_t)LB_PROBLEMS * LB_ROWS,
    .floor_bytes = 2 * (size_t)LB_PROBLEMS * LB_ROWS * sizeof(uint64_t), /* the rows written */
    .fill = lb_fill,
    .run = lb_run,
    .check = lb_check,
};

Test(ex01_loadbalance, speed, .timeout = KIT_CPU_TIMEOUT)
{
    kit_speed_test(&lb_speed);
}

/* ex01_block_dask's speed: copy 2^22 words per input with the student's s1 kernel (device
 * pointers), against the kit's s1_block_dask built from the solution */
enum { BD_WORDS = 1 << 22 };

static void bd_fill(void *in, uint64_t seed)
{
    kit_fill_u32(in, BD_WORDS, KIT_UNIFORM, seed);
}

static int bd_run(const void *in, void *out, void *stream)
{
    return (int)copy_s1_block_dask(in, out, BD_WORDS, NULL, (cudaStream_t)stream);
}

static int bd_check(const void *in, const void *out, char *why, size_t len)
{
    const uint32_t *a = in, *b = out;
    size_t i;
    for (i = 0; i < BD_WORDS; i++)
        if (a[i] != b[i]) {
            snprintf(why, len, "word %zu is %u, want %u", i, b[i], a[i]);
            return 1;
        }
    return 0;
}

static const kit_speed_spec bd_speed = {
    .exercise = "ex01_block_dask",
    .reference = "s1_block_dask",
    .unit = "words",
    .where = KIT_SPEED_GPU,
    .in_bytes = BD_WORDS * sizeof(uint32_t),
    .out_bytes = BD_WORDS * sizeof(uint32_t),
    .items = BD_WORDS,
    .floor_bytes = 2 * BD_WORDS * sizeof(uint32_t), /* read once, written once */
    .fill = bd_fill,
    .run = bd_run,
    .check = bd_check,
};

Test(ex01_block_dask, speed, .timeout = KIT_GPU_TIMEOUT)
{
    KIT_REQUIRE_GPU();
    kit_speed_test(&bd_speed);
}

/* test_02_exercises.c - chapter 02's exercises: ex02_sklansky (sklansky_scan8 / sklansky_reduce8,
 * the 8-element Sklansky scan of affine maps, CPU), ex02_warp_reduce (block_reduce_shfl in the r6
 * reduce, GPU) and ex02_block_scan (block_scan_exclusive in the s2 scan, GPU).  The CPU tests
 * compare with the serial scan of the maps; the GPU tests run the step against the CPU reference. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sklansky8.h" /* the student's header first: it sees none of the kit's below */

#include "kit_test.h"
#include "reduce_scan.h"

/* the inputs the chapter's tests run, and the maps' equality (test_02_reduce_scan.c uses them too) */
const char *const inputs4[] = {"uniform", "zeros", "linear", "alternating", NULL};
#define NPAT 4

int affine_eq(rs_affine x, rs_affine y) { return x.a == y.a && x.b == y.b; }

/* -------------------------------------------------------- ex02_sklansky */

/* ex02_sklansky (CPU): sklansky_scan8 / sklansky_reduce8 in $(IMPL)/02-reduce-scan/sklansky8.h */
TestSuite(ex02_sklansky, .timeout = KIT_CPU_TIMEOUT);

#define TRIALS 2000

static void random_maps(rs_affine v[8], uint64_t *st)
{
    int i;
    for (i = 0; i < 8; i++) {
        v[i].a = (uint32_t)kit_rand64(st) | 1u;
        v[i].b = (uint32_t)kit_rand64(st);
    }
}

Test(ex02_sklansky, scan_random_maps)
{
    static rs_affine v[TRIALS][8], got[TRIALS][8];
    uint64_t st = KIT_SEED(2024);
    int k, i;
    for (k = 0; k < TRIALS; k++) random_maps(v[k], &st);
    KIT_TO_RUNNER(v, sizeof v);
    KIT_STUDENT {
        memcpy(got, v, sizeof got);
        for (k = 0; k < TRIALS; k++) sklansky_scan8(got[k]);
    }
    KIT_FROM_RUNNER(got, sizeof got);
    for (k = 0; k < TRIALS; k++) {
        rs_affine want[8];
        KIT_JUDGE rs_cpu_scan_affine(v[k], want, 8, 0);
        for (i = 0; i < 8; i++)
            cr_assert(affine_eq(got[k][i], want[i]),
                      "sklansky_scan8(v) on random maps (trial %d of seed %llu; v[0] was (%u, %u), v[%d] was "
                      "(%u, %u)): v[%d] = (%u, %u), want (%u, %u)",
                      k, (unsigned long long)KIT_SEED(2024), v[k][0].a, v[k][0].b, i, v[k][i].a, v[k][i].b, i,
                      got[k][i].a, got[k][i].b, want[i].a, want[i].b);
    }
}

/* x -> (2i+3) x + (i*i+7), composed in order: reversing a pair changes the result */
Test(ex02_sklansky, scan_keeps_the_order)
{
    rs_affine v[8], want[8], got[8];
    int i;
    for (i = 0; i < 8; i++) {
        v[i].a = 2u * (uint32_t)i + 3u;
        v[i].b = (uint32_t)(i * i) + 7u;
    }
    KIT_JUDGE rs_cpu_scan_affine(v, want, 8, 0);
    cr_assert(!affine_eq(rs_affine_then(v[1], v[0]), want[1]), "the test needs a non-commuting pair");
    KIT_STUDENT {
        memcpy(got, v, sizeof got);
        sklansky_scan8(got);
    }
    KIT_FROM_RUNNER(got, sizeof got);
    for (i = 0; i < 8; i++)
        cr_assert(affine_eq(got[i], want[i]),
                  "sklansky_scan8(v) on v[j] = (2j + 3, j*j + 7): v[%d] = (%u, %u), want (%u, %u): is the earlier "
                  "map on the left?",
                  i, got[i].a, got[i].b, want[i].a, want[i].b);
}

Test(ex02_sklansky, reduce_random_maps)
{
    static rs_affine v[TRIALS][8], got[TRIALS];
    uint64_t st = KIT_SEED(7);
    int k;
    for (k = 0; k < TRIALS; k++) random_maps(v[k], &st);
    KIT_TO_RUNNER(v, sizeof v);
    KIT_STUDENT {
        for (k = 0; k < TRIALS; k++) got[k] = sklansky_reduce8(v[k]);
    }
    KIT_FROM_RUNNER(got, sizeof got);
    for (k = 0; k < TRIALS; k++) {
        rs_affine want[8];
        KIT_JUDGE rs_cpu_scan_affine(v[k], want, 8, 0);
        cr_assert(affine_eq(got[k], want[7]),
                  "sklansky_reduce8(v) on random maps (trial %d of seed %llu; v[0] = (%u, %u), v[7] = (%u, %u)): "
                  "(%u, %u), want (%u, %u)",
                  k, (unsigned long long)KIT_SEED(7), v[k][0].a, v[k][0].b, v[k][7].a, v[k][7].b, got[k].a,
                  got[k].b, want[7].a, want[7].b);
    }
}

/* ----------------------------------------------------- ex02_warp_reduce */

/* ex02_warp_reduce (GPU): block_reduce_shfl in $(IMPL)/02-reduce-scan/r6_warp_shuffle.cu */
TestSuite(ex02_warp_reduce, .timeout = KIT_GPU_TIMEOUT);

#define R6 6 /* index of r6_warp_shuffle in the reduce ladder */

Test(ex02_warp_reduce, odd_sizes)
{
    static const size_t n[] = {33, 255, 257, 1023, 1025, 12345, (1u << 20) + 7};
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < sizeof n / sizeof *n; k++) kit_expect_n(&rs_reduce_ladder, R6, n[k], "uniform", k);
}

Test(ex02_warp_reduce, large_inputs)
{
    static const size_t n[] = {1u << 16, 1u << 22, 1u << 24};
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < sizeof n / sizeof *n; k++) {
        kit_expect_n(&rs_reduce_ladder, R6, n[k], "uniform", k);
        kit_expect_n(&rs_reduce_ladder, R6, n[k], "linear", k);
    }
}

Test(ex02_warp_reduce, float_sums)
{
    static const size_t n[] = {100, 4097, (1u << 20) + 7, 1u << 24};
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < sizeof n / sizeof *n; k++) kit_expect_n(&rs_reduce_f32_ladder, R6, n[k], "uniform", k);
}

Test(ex02_warp_reduce, alternating_words)
{
    KIT_REQUIRE_GPU();
    kit_expect_n(&rs_reduce_ladder, R6, (1u << 24) + 1, "alternating", 0);
    kit_expect_n(&rs_reduce_ladder, R6, 999, "alternating", 0);
}

/* ------------------------------------------------------ ex02_block_scan */

/* ex02_block_scan (GPU): block_scan_exclusive in $(IMPL)/02-reduce-scan/s2_warp_scan.cu */
TestSuite(ex02_block_scan, .timeout = KIT_GPU_TIMEOUT);

#define S2 2 /* index of s2_warp_scan in the scan ladder */
static const size_t s2_sizes[] = {31, 33, 1025, 4097, (1u << 20) + 7};
#define NS2 (sizeof s2_sizes / sizeof *s2_sizes)

Test(ex02_block_scan, exclusive_sums)
{
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < NS2; k++) kit_expect_n(&rs_scan_ladder, S2, s2_sizes[k], "uniform", k);
}

Test(ex02_block_scan, inclusive_sums)
{
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < NS2; k++) kit_expect_n(&rs_scan_incl_ladder, S2, s2_sizes[k], "uniform", k);
}

Test(ex02_block_scan, affine_maps)
{
    size_t k;
    KIT_REQUIRE_GPU();
    for (k = 0; k < NS2; k++) {
        kit_expect_n(&rs_scan_affine_ladder, S2, s2_sizes[k], "uniform", k);
        kit_expect_n(&rs_scan_affine_incl_ladder, S2, s2_sizes[k], "uniform", k);
    }
}

Test(ex02_block_scan, large_and_patterns)
{
    size_t p;
    KIT_REQUIRE_GPU();
    for (p = 0; p < NPAT; p++) {
        if (strcmp(inputs4[p], "zeros") == 0) continue; /* a stub would pass on zeros */
        kit_expect_n(&rs_scan_ladder, S2, (1u << 24) + 1, inputs4[p], p);
    }
}

/* ------------------------------------------------------------ speed tests */

#include "kit_speed.h"

/* ex02_sklansky's speed: an input is SK_GROUPS runs of eight maps, its output their inclusive scans */
enum { SK_GROUPS = 1 << 14 };

static void sk_fill(void *in, uint64_t seed)
{
    rs_affine *v = in;
    size_t g;
    for (g = 0; g < SK_GROUPS; g++) random_maps(v + 8 * g, &seed);
}

static int sk_run(const void *in, void *out, void *stream)
{
    rs_affine *v = out;
    size_t g;
    (void)stream;
    memcpy(out, in, SK_GROUPS * 8 * sizeof *v);
    for (g = 0; g < SK_GROUPS; g++) sklansky_scan8(v + 8 * g);
    return 0;
}

static int sk_check(const void *in, const void *out, char *why, size_t len)
{
    const rs_affine *v = in, *got = out;
    size_t g;
    int i;
    for (g = 0; g < SK_GROUPS; g++) {
        rs_affine want[8] = {{0}}; /* the runner never checks: KIT_JUDGE leaves it as it is */
        KIT_JUDGE rs_cpu_scan_affine(v + 8 * g, want, 8, 0);
        for (i = 0; i < 8; i++)
            if (!affine_eq(got[8 * g + i], want[i])) {
                snprintf(why, len, "run %zu, v[%d] = (%u, %u), want (%u, %u)", g, i, got[8 * g + i].a,
                         got[8 * g + i].b, want[i].a, want[i].b);
                return 1;
            }
    }
    return 0;
}

static const kit_speed_spec sk_speed = {
    .exercise = "ex02_sklansky",
    .reference = "the solution's sklansky_scan8",
    .unit = "maps",
    .where = KIT_SPEED_CPU,
    .in_bytes = SK_GROUPS * 8 * sizeof(rs_affine),
    .out_bytes = SK_GROUPS * 8 * sizeof(rs_affine),
    .items = SK_GROUPS * 8,
    .floor_bytes = 2 * SK_GROUPS * 8 * sizeof(rs_affine), /* read once, written once */
    .fill = sk_fill,
    .run = sk_run,
    .check = sk_check,
};

Test(ex02_sklansky, speed, .timeout = KIT_CPU_TIMEOUT)
{
    kit_speed_test(&sk_speed);
}

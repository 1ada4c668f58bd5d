/* test_02_reduce_scan.c - chapter 02: the CPU baselines and the operators,
 * every reduce step (uint32 and float) and every scan step (uint32 and affine
 * maps, inclusive and exclusive) against them, the tuning tables, the contract of every
 * step, repeated runs on the same scratch, n = 2^28 (the exercises: test_02_exercises.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_test.h"
#include "reduce_scan.h"

/* test_02_exercises.c */
extern const char *const inputs4[];
int affine_eq(rs_affine x, rs_affine y);

#define N28 ((size_t)1 << 28)

/* ------------------------------------------------------------------ CPU */

TestSuite(ch02_cpu, .timeout = KIT_CPU_TIMEOUT);

Test(ch02_cpu, reduce_known_sums)
{
    static const size_t sizes[] = {0, 1, 31, 1025, (1u << 20) + 7};
    size_t k;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        const size_t n = sizes[k];
        uint32_t *u = malloc((n + 1) * 4);
        float *f = malloc((n + 1) * 4);
        uint64_t want = (uint64_t)n * (n ? n - 1 : 0) / 2; /* 0 + 1 + ... + n-1 */
        cr_assert(u && f);
        kit_fill_u32(u, n, KIT_LINEAR, 1);
        cr_assert_eq(rs_cpu_reduce_u32(u, n), (uint32_t)want, "linear n=%zu", n);
        kit_fill_u32(u, n, KIT_ALTERNATING, 1); /* 0, ~0, 0, ~0: n/2 times -1 */
        cr_assert_eq(rs_cpu_reduce_u32(u, n), (uint32_t)(0u - (uint32_t)(n / 2)), "alternating n=%zu", n);
        rs_fill_f32(f, n, KIT_LINEAR, 1);
        cr_assert(rs_cpu_reduce_f64(f, n) == (double)want, "float linear n=%zu", n);
        free(u);
        free(f);
    }
}

Test(ch02_cpu, exclusive_is_inclusive_shifted)
{
    enum { N = 3001 };
    static uint32_t in[N], inc[N], exc[N];
    static rs_affine ain[N], ainc[N], aexc[N];
    size_t i;
    kit_fill_u32(in, N, KIT_UNIFORM, 5);
    rs_fill_affine(ain, N, KIT_UNIFORM, 6);
    rs_cpu_scan_u32(in, inc, N, 0);
    rs_cpu_scan_u32(in, exc, N, 1);
    rs_cpu_scan_affine(ain, ainc, N, 0);
    rs_cpu_scan_affine(ain, aexc, N, 1);
    cr_assert_eq(exc[0], 0u);
    cr_assert(affine_eq(aexc[0], rs_affine_identity()));
    for (i = 1; i < N; i++) {
        cr_assert_eq(exc[i], inc[i - 1], "uint32 at %zu", i);
        cr_assert(affine_eq(aexc[i], ainc[i - 1]), "affine at %zu", i);
        cr_assert(affine_eq(ainc[i], rs_affine_then(ainc[i - 1], ain[i])), "affine at %zu", i);
    }
    cr_assert_eq(inc[N - 1], rs_cpu_reduce_u32(in, N));
    rs_cpu_scan_u32(in, in, N, 1); /* in place */
    cr_assert_eq(memcmp(in, exc, sizeof in), 0, "in-place exclusive scan");
}

Test(ch02_cpu, affine_is_associative_not_commutative)
{
    uint64_t st = 99;
    int k, differ = 0;
    const rs_affine e = rs_affine_identity();
    for (k = 0; k < 10000; k++) {
        rs_affine f, g, h;
        f.a = (uint32_t)kit_rand64(&st) | 1u; f.b = (uint32_t)kit_rand64(&st);
        g.a = (uint32_t)kit_rand64(&st) | 1u; g.b = (uint32_t)kit_rand64(&st);
        h.a = (uint32_t)kit_rand64(&st) | 1u; h.b = (uint32_t)kit_rand64(&st);
        cr_assert(affine_eq(rs_affine_then(rs_affine_then(f, g), h), rs_affine_then(f, rs_affine_then(g, h))));
        cr_assert(affine_eq(rs_affine_then(e, f), f) && affine_eq(rs_affine_then(f, e), f));
        /* (f then g)(x) = g(f(x)) */
        cr_assert_eq(rs_affine_then(f, g).b, g.a * f.b + g.b);
        differ += !affine_eq(rs_affine_then(f, g), rs_affine_then(g, f));
    }
    cr_assert_gt(differ, 9900, "the operator should almost never commute (%d of 10000 differ)", differ);
}

Test(ch02_cpu, inputs_of_each_type)
{
    enum { N = 4097 };
    static float f[N];
    static rs_affine a[N];
    size_t i;
    rs_fill_f32(f, N, KIT_UNIFORM, 3);
    rs_fill_affine(a, N, KIT_ZEROS, 3);
    for (i = 0; i < N; i++) {
        cr_assert(f[i] >= 0.0f && f[i] < 1.0f, "float %zu = %g", i, f[i]);
        cr_assert(affine_eq(a[i], rs_affine_identity()), "zeros give identity maps");
    }
    rs_fill_affine(a, N, KIT_UNIFORM, 3);
    for (i = 0; i < N; i++) cr_assert(a[i].a & 1u, "a is odd");
    cr_assert(rs_f32_tolerance(1) < 1e-5 && rs_f32_tolerance((size_t)1 << 24) < 1e-3);
    cr_assert_gt(rs_f32_tolerance((size_t)1 << 24), rs_f32_tolerance(1 << 10));
}

/* The step tables are the single source for bench, demo, tests and README. */
Test(ch02_cpu, step_tables_are_consistent)
{
    size_t l, i;
    for (l = 0; l < RS_NLADDERS; l++) kit_expect_table(rs_ladders[l]);
    kit_expect_table(&rs_reduce_best_ladder);
    kit_expect_table(&rs_scan_best_ladder);
    /* every main step has every type: run functions and scratch sizes */
    for (i = 0; i < RS_REDUCE_NSTEPS; i++)
        cr_assert(rs_reduce_steps[i].run_u32 && rs_reduce_steps[i].run_f32 && rs_reduce_steps[i].scratch_bytes,
                  "reduce step %zu", i);
    for (i = 0; i < RS_SCAN_NSTEPS; i++)
        cr_assert(rs_scan_steps[i].run_u32 && rs_scan_steps[i].run_affine && rs_scan_steps[i].scratch_bytes,
                  "scan step %zu", i);
    cr_assert_str_eq(rs_reduce_steps[RS_REDUCE_BEST].info.name, "r8_hopper");
    cr_assert_str_eq(rs_scan_steps[RS_SCAN_BEST].info.name, "s4_lookback");
    cr_assert_eq(rs_reduce_pairs_ladder.count, 64);
    cr_assert_eq(rs_scan_pairs_ladder.count, 64);
    /* the pair tables are ordered (nWarps - 1) * 8 + (nWork - 1), as the plots read them */
    for (i = 0; i < RS_PAIRS; i++) {
        char want[64];
        snprintf(want, sizeof want, "nWarps=%zu nWork=%zu", i / 8 + 1, i % 8 + 1);
        cr_assert_str_eq(rs_brown_reduce_pairs[i].info.param, want);
        cr_assert_str_eq(rs_brown_scan_pairs[i].info.param, want);
    }
}

/* reduce_scan.h's size limits are the step tables' max_n (the contract suite asks for the refusal
 * of max_n + 1): grids of at most 2^31 - 1 blocks */
Test(ch02_cpu, largest_n_is_the_headers)
{
    static const size_t per_block_reduce[RS_REDUCE_NSTEPS] = {256, 256, 256, 512, 512}; /* r0..r4; 0: none */
    static const size_t per_block_scan[RS_SCAN_NSTEPS] = {512, 512, 1024};             /* s0..s2 */
    const size_t g = 2147483647u;
    size_t i, l;
    for (i = 0; i < RS_REDUCE_NSTEPS; i++)
        cr_assert_eq(kit_step_max_n(&rs_reduce_ladder, i), per_block_reduce[i] ? per_block_reduce[i] * g : SIZE_MAX,
                     "%s", rs_reduce_steps[i].info.name);
    for (i = 0; i < RS_SCAN_NSTEPS; i++) {
        const size_t want = i == RS_SCAN_BEST ? 4096 * g - 1 : per_block_scan[i] ? per_block_scan[i] * g : SIZE_MAX;
        cr_assert_eq(kit_step_max_n(&rs_scan_ladder, i), want, "%s", rs_scan_steps[i].info.name);
        cr_assert_eq(kit_step_max_n(&rs_scan_affine_ladder, i), want, "%s (affine)", rs_scan_steps[i].info.name);
    }
    for (i = 0; i < RS_S4_NVARIANTS; i++) { /* uint32 tiles of tbs x items, lo <= 3 */
        int tbs = 0, items = 0;
        cr_assert_eq(sscanf(rs_s4_variants[i].info.param, "tbs=%d items=%d", &tbs, &items), 2);
        cr_assert_eq(rs_s4_ladder.step(&rs_s4_ladder, i)->max_n, (size_t)tbs * (size_t)items * g - 3, "s4 %s",
                     rs_s4_variants[i].info.param);
    }
    for (l = 6; l < RS_NLADDERS - 1; l++) /* Brown's tables and r8's: no limit */
        for (i = 0; i < rs_ladders[l]->count; i++)
            cr_assert_eq(kit_step_max_n(rs_ladders[l], i), SIZE_MAX, "%s %s", rs_ladders[l]->id,
                         rs_ladders[l]->step(rs_ladders[l], i)->param);
}

/* The CPU baselines run through every type and mode on a host-only context (no device
 * memory) and agree with the reference; the bytes each ladder counts per element. */
Test(ch02_cpu, host_only_ladders)
{
    static const struct {
        const kit_ladder *L;
        double bytes_per_elem;
    } all[] = {{&rs_reduce_ladder, 4},     {&rs_reduce_f32_ladder, 4},  {&rs_scan_ladder, 8},
               {&rs_scan_incl_ladder, 8},  {&rs_scan_affine_ladder, 16}, {&rs_scan_affine_incl_ladder, 16}};
    size_t l;
    for (l = 0; l < sizeof all / sizeof *all; l++) {
        const kit_ladder *L = all[l].L;
        const kit_shape sh = kit_shape_default(L->P, 1025), sh1000 = kit_shape_default(L->P, 1000);
        const size_t out_bytes = kit_buf_count(L->P, 1, &sh) * L->P->bufs[1].elem;
        kit_ctx *ctx = NULL;
        const void *got, *want;
        cr_assert_eq(kit_ctx_new(L, &sh, kit_input_find(L->P, "uniform"), 1, 0, &ctx), cudaSuccess,
                     "%s", L->id);
        cr_assert_eq(L->P->ncpu, 1, "%s", L->id);
        cr_assert_str_eq(L->P->cpu[0].name, "serial");
        kit_ctx_cpu(ctx, 0);
        got = kit_ctx_inputs(ctx)->buf[1];
        want = kit_ctx_want(ctx)->buf[1];
        if (L->P == &rs_reduce_f32_problem) /* serial float vs the double sum: n * eps32 */
            cr_assert(fabs(*(const float *)got - *(const float *)want) <= 1e-4 * *(const float *)want,
                      "%s: %.9g vs %.9g", L->id, *(const float *)got, *(const float *)want);
        else
            cr_assert_eq(memcmp(got, want, out_bytes), 0, "%s: the serial baseline differs", L->id);
        kit_ctx_free(ctx);
        cr_assert_eq(L->bytes(L, 0, &sh1000), all[l].bytes_per_elem * 1000, "%s bytes", L->id);
    }
}

/* ------------------------------------------------------------------ GPU */

TestSuite(ch02_gpu, .timeout = KIT_GPU_TIMEOUT);

static void expect_sizes_patterns(const kit_ladder *L, size_t i)
{
    kit_expect_step_sizes(L, i, kit_test_sizes, kit_test_nsizes, inputs4, 11);
}

/* one test per reduce step: uint32 and float, sizes x patterns */
#define REDUCE_TEST(step_, i)                                                                   \
    Test(ch02_gpu, reduce_##step_)                                                              \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        cr_assert_str_eq(rs_reduce_ladder.step(&rs_reduce_ladder, i)->name, #step_);            \
        expect_sizes_patterns(&rs_reduce_ladder, i);                                            \
        expect_sizes_patterns(&rs_reduce_f32_ladder, i);                                        \
    }

REDUCE_TEST(r0_interleaved, 0)
REDUCE_TEST(r1_strided, 1)
REDUCE_TEST(r2_sequential, 2)
REDUCE_TEST(r3_first_add, 3)
REDUCE_TEST(r4_warp_unroll, 4)
REDUCE_TEST(r5_many_items, 5)
REDUCE_TEST(r6_warp_shuffle, 6)
REDUCE_TEST(r7_row_dask, 7)
REDUCE_TEST(r8_hopper, 8)
REDUCE_TEST(cub_reduce, 9)

/* two tests per scan step: uint32 (exclusive, inclusive) and affine maps
 * (exclusive, inclusive), sizes x patterns */
#define SCAN_TEST(step_, i)                                                                     \
    Test(ch02_gpu, scan_##step_##_u32)                                                          \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        cr_assert_str_eq(rs_scan_ladder.step(&rs_scan_ladder, i)->name, #step_);                \
        expect_sizes_patterns(&rs_scan_ladder, i);                                              \
        expect_sizes_patterns(&rs_scan_incl_ladder, i);                                         \
    }                                                                                           \
    Test(ch02_gpu, scan_##step_##_affine)                                                       \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        expect_sizes_patterns(&rs_scan_affine_ladder, i);                                       \
        expect_sizes_patterns(&rs_scan_affine_incl_ladder, i);                                  \
    }

SCAN_TEST(s0_hillis_steele, 0)
SCAN_TEST(s1_blelloch, 1)
SCAN_TEST(s2_warp_scan, 2)
SCAN_TEST(s3_row_dask, 3)
SCAN_TEST(s4_lookback, 4)
SCAN_TEST(cub_scan, 5)

/* Set up once, then check every step of L (twice when twice: the second run
 * finds the scratch as the first left it). */
static void expect_all_steps(const kit_ladder *L, size_t n, const char *input, int twice)
{
    const kit_shape sh = kit_shape_default(L->P, n);
    kit_ctx *ctx = NULL;
    char msg[KIT_MSG];
    size_t i;
    int r;
    cudaError_t e = kit_ctx_new(L, &sh, kit_input_find(L->P, input), 4242, 1, &ctx);
    cr_assert_eq(e, cudaSuccess, "%s n=%zu: setup: %s", L->id, n, cudaGetErrorString(e));
    for (i = 0; i < L->count; i++)
        for (r = 0; r <= twice; r++) {
            int ok = 0;
            e = kit_ctx_check(ctx, i, 0, &ok, msg, sizeof msg);
            cr_assert_eq(e, cudaSuccess, "%s %s n=%zu run %d: CUDA error: %s", L->id,
                         L->step(L, i)->name, n, r + 1, cudaGetErrorString(e));
            cr_assert(ok, "%s %s n=%zu run %d: %s", L->id, L->step(L, i)->name, n, r + 1, msg);
        }
    kit_ctx_free(ctx);
}

/* n = 2^28 (GPU only): every step of every type and mode, uniform input */
Test(ch02_gpu, reduce_2_28) { KIT_REQUIRE_GPU(); expect_all_steps(&rs_reduce_ladder, N28, "uniform", 0); }
Test(ch02_gpu, reduce_f32_2_28) { KIT_REQUIRE_GPU(); expect_all_steps(&rs_reduce_f32_ladder, N28, "uniform", 0); }
Test(ch02_gpu, scan_2_28) { KIT_REQUIRE_GPU(); expect_all_steps(&rs_scan_ladder, N28, "uniform", 0); }
Test(ch02_gpu, scan_incl_2_28) { KIT_REQUIRE_GPU(); expect_all_steps(&rs_scan_incl_ladder, N28, "uniform", 0); }
Test(ch02_gpu, scan_affine_2_28) { KIT_REQUIRE_GPU(); expect_all_steps(&rs_scan_affine_ladder, N28, "uniform", 0); }

/* A second run on the scratch the first one left (tickets, tile status words). */
Test(ch02_gpu, scratch_reuse)
{
    KIT_REQUIRE_GPU();
    expect_all_steps(&rs_reduce_ladder, (1u << 20) + 7, "uniform", 1);
    expect_all_steps(&rs_reduce_f32_ladder, (1u << 20) + 7, "uniform", 1);
    expect_all_steps(&rs_scan_ladder, (1u << 20) + 7, "uniform", 1);
    expect_all_steps(&rs_scan_affine_incl_ladder, (1u << 20) + 7, "uniform", 1);
}

/* The best reduce gives the same float bits on every run (fixed grouping). */
Test(ch02_gpu, float_reduce_is_deterministic)
{
    const size_t n = (1u << 24) + 3;
    const rs_reduce_step *st = &rs_reduce_steps[RS_REDUCE_BEST];
    float *h, *d_in = NULL, *d_out = NULL, got[8];
    void *scratch = NULL;
    int r;
    KIT_REQUIRE_GPU();
    h = malloc(n * sizeof *h);
    cr_assert(h);
    rs_fill_f32(h, n, KIT_UNIFORM, 17);
    cr_assert_eq(cudaMalloc((void **)&d_in, n * sizeof *h), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_out, sizeof got), cudaSuccess);
    cr_assert_eq(cudaMalloc(&scratch, st->scratch_bytes(n)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, h, n * sizeof *h, cudaMemcpyHostToDevice), cudaSuccess);
    for (r = 0; r < 8; r++) cr_assert_eq(st->run_f32(d_in, d_out + r, n, scratch, 0), cudaSuccess);
    cr_assert_eq(kit_fetch(got, d_out, sizeof got, 0), cudaSuccess);
    for (r = 1; r < 8; r++) cr_assert(memcmp(&got[r], &got[0], sizeof got[0]) == 0, "run %d: %.9g vs %.9g", r, got[r], got[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(scratch);
    free(h);
}

/* tuning tables: uint32 (scans exclusive) at a few odd sizes */
KIT_TABLE_TEST(ch02_gpu, reduce_pairs, rs_reduce_pairs_ladder)
KIT_TABLE_TEST(ch02_gpu, scan_pairs, rs_scan_pairs_ladder)
KIT_TABLE_TEST(ch02_gpu, reduce_bank, rs_reduce_bank_ladder)
KIT_TABLE_TEST(ch02_gpu, scan_bank, rs_scan_bank_ladder)
KIT_TABLE_TEST(ch02_gpu, reduce_curves, rs_reduce_curves_ladder)
KIT_TABLE_TEST(ch02_gpu, scan_curves, rs_scan_curves_ladder)
KIT_TABLE_TEST(ch02_gpu, reduce_tune, rs_r8_ladder)
KIT_TABLE_TEST(ch02_gpu, scan_tune, rs_s4_ladder)

/* the contract of every step of every table (reference/contract.c) */
KIT_CONTRACT_TESTS(ch02_contract, rs_ladders, RS_NLADDERS, RS_NMAIN)

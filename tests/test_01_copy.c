/* test_01_copy.c - chapter 01: CPU baselines, every GPU step and tuning
 * variant against them, the Row DASk on unaligned ranges (the exercises: test_01_exercises.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "kit_test.h"

extern const char *const copy_inputs[]; /* test_01_exercises.c */

/* ------------------------------------------------------------------ CPU */

TestSuite(ch01_cpu, .timeout = KIT_CPU_TIMEOUT);

Test(ch01_cpu, loop_equals_memcpy)
{
    static const size_t sizes[] = {0, 1, 31, 33, 1025, (1u << 16) + 3};
    size_t k;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        uint32_t *in = malloc((n + 1) * 4), *a = malloc((n + 1) * 4), *b = malloc((n + 1) * 4);
        char msg[KIT_MSG];
        cr_assert(in && a && b);
        kit_fill_u32(in, n, KIT_UNIFORM, n);
        memset(a, 0xA5, (n + 1) * 4);
        memset(b, 0x5A, (n + 1) * 4);
        copy_cpu_loop(in, a, n);
        copy_cpu_memcpy(in, b, n);
        cr_assert(kit_cmp_u32(a, in, n, msg, sizeof msg), "loop, n=%zu: %s", n, msg);
        cr_assert(kit_cmp_u32(b, in, n, msg, sizeof msg), "memcpy, n=%zu: %s", n, msg);
        cr_assert_eq(a[n], 0xA5A5A5A5u, "loop wrote past n=%zu", n);
        free(in);
        free(a);
        free(b);
    }
}

Test(ch01_cpu, gather_undoes_scatter)
{
    enum { N = 5003 };
    static uint32_t in[N], idx[N], mid[N], back[N];
    char msg[KIT_MSG];
    kit_fill_u32(in, N, KIT_UNIFORM, 3);
    kit_permutation(idx, N, 4);
    map_cpu_scatter(in, idx, mid, N);
    map_cpu_gather(mid, idx, back, N);
    cr_assert(kit_cmp_u32(back, in, N, msg, sizeof msg), "%s", msg);
    cr_assert_eq(mid[idx[7]], in[7]);
}

/* The step table is the single source for bench, demo, tests and README:
 * check it is complete and consistent. */
Test(ch01_cpu, step_tables_are_consistent)
{
    size_t l;
    for (l = 0; l < COPY_NLADDERS; l++) kit_expect_table(copy_ladders[l]);
    cr_assert_eq(copy_ladder.count, COPY_NSTEPS);
    cr_assert_eq(copy_ilp_ladder.count, 80);
    cr_assert_eq(copy_tbs_ladder.count, 32);
}

/* copy.h's size limits are the step tables' max_n (the contract suite asks for the refusal of
 * max_n + 1): one block per data block, at most 2^31 - 1 blocks */
Test(ch01_cpu, largest_n_is_the_headers)
{
    const size_t g = 2147483647u;
    size_t i;
    cr_assert_eq(kit_step_max_n(&copy_ladder, 0), 32 * g, "s0");
    for (i = 1; i <= 3; i++)
        cr_assert_eq(kit_step_max_n(&copy_ladder, i), 512 * g, "%s", copy_steps[i].info.name);
    cr_assert_eq(kit_step_max_n(&copy_ladder, 4), SIZE_MAX, "s4: no limit");
    cr_assert_eq(kit_step_max_n(&copy_ladder, 5), SIZE_MAX, "s5: no limit");
    cr_assert_eq(kit_step_max_n(&copy_ladder, 6), 1024 * g, "s6 (tbs 256, nvec 1)");
    cr_assert_eq(kit_step_max_n(&copy_ladder, 7), SIZE_MAX, "cudaMemcpy: no limit");
    for (i = 0; i < COPY_ILP_NVARIANTS; i++) /* nWork 1..16, 5 batches each, 128 threads */
        cr_assert_eq(kit_step_max_n(&copy_ilp_ladder, i), 128 * (i / 5 + 1) * g, "%s", copy_ilp_variants[i].info.param);
    for (i = 0; i < COPY_TBS_NVARIANTS; i++) /* 32 (i + 1) threads x nWork 4 */
        cr_assert_eq(kit_step_max_n(&copy_tbs_ladder, i), 32 * (i + 1) * 4 * g, "%s", copy_tbs_variants[i].info.param);
    for (i = 0; i < COPY_RES_NVARIANTS; i++)
        cr_assert_eq(kit_step_max_n(&copy_res_ladder, i), 512 * g, "%s", copy_res_variants[i].info.param);
    for (i = 0; i < COPY_HOPPER_NVARIANTS; i++) { /* tbs 128 << (i / 8), nvec 1 << (i % 4) */
        const size_t vec = 4 * ((size_t)128 << (i / 8)) * ((size_t)1 << (i % 4));
        const size_t want = vec < 1024 ? vec * g + 3 : 1024 * g;
        cr_assert_eq(kit_step_max_n(&copy_hopper_ladder, i), want, "%s", copy_hopper_variants[i].info.param);
    }
    for (i = 0; i < copy_map_ladder.count; i++)
        cr_assert_eq(kit_step_max_n(&copy_map_ladder, i), 1024 * g, "map %s", copy_map_ladder.step(&copy_map_ladder, i)->name);
}

/* ------------------------------------------------------------------ GPU */

TestSuite(ch01_gpu, .timeout = KIT_GPU_TIMEOUT);

/* one test per ladder step: sizes x patterns */
#define STEP_TEST(step_, i)                                                                     \
    Test(ch01_gpu, step_)                                                                       \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        cr_assert_str_eq(copy_ladder.step(&copy_ladder, i)->name, #step_);                     \
        kit_expect_step_sizes(&copy_ladder, i, kit_test_sizes, kit_test_nsizes, copy_inputs, 7); \
    }

STEP_TEST(s0_simple, 0)
STEP_TEST(s1_block_dask, 1)
STEP_TEST(s2_unroll, 2)
STEP_TEST(s3_batch, 3)
STEP_TEST(s4_column_dask, 4)
STEP_TEST(s5_row_dask, 5)
STEP_TEST(s6_hopper, 6)
STEP_TEST(cudaMemcpy, 7)

/* the contract of every step of every table (reference/contract.c) */
KIT_CONTRACT_TESTS(ch01_contract, copy_ladders, COPY_NLADDERS, 1)

KIT_TABLE_TEST(ch01_gpu, ilp_variants, copy_ilp_ladder)
KIT_TABLE_TEST(ch01_gpu, blocksize_variants, copy_tbs_ladder)
KIT_TABLE_TEST(ch01_gpu, residency_variants, copy_res_ladder)
KIT_TABLE_TEST(ch01_gpu, hopper_variants, copy_hopper_ladder)

Test(ch01_gpu, map_primitives)
{
    static const char *const p[] = {"uniform", "linear", NULL};
    KIT_REQUIRE_GPU();
    kit_expect_ladder(&copy_map_ladder, kit_test_sizes, kit_test_nsizes, p);
}

/* Forced residency really yields 1..16 resident blocks per SM. */
Test(ch01_gpu, residency_is_forced)
{
    size_t i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < copy_res_ladder.count; i++) {
        kit_kernel_desc d;
        int per_sm = 0;
        const char *why;
        const cudaError_t e = copy_res_ladder.step(&copy_res_ladder, i)->describe(&d);
        if (e != cudaSuccess && (why = kit_unsupported())) { /* more than this GPU's SM holds */
            fprintf(stderr, "forced=%zu skipped: cannot run on this GPU: %s\n", i + 1, why);
            continue;
        }
        cr_assert_eq(e, cudaSuccess);
        cr_assert_eq(kit_occupancy(&per_sm, d.func, d.block_threads, d.dyn_smem), cudaSuccess);
        cr_assert_eq(per_sm, (int)i + 1, "forced=%zu gives %d blocks/SM", i + 1, per_sm);
    }
}

/* Row DASk on [start, stop]: inside copied, outside untouched. */
static void expect_row_range(size_t total, size_t start, size_t stop)
{
    uint32_t *h_in = malloc(total * 4), *h_out = malloc(total * 4);
    uint32_t *d_in = NULL, *d_out = NULL;
    char msg[KIT_MSG];
    cr_assert(h_in && h_out);
    kit_fill_u32(h_in, total, KIT_UNIFORM, start ^ stop);
    cr_assert_eq(cudaMalloc((void **)&d_in, total * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_out, total * 4), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, h_in, total * 4, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(kit_poison(d_out, total * 4, 0), cudaSuccess);
    cr_assert_eq(copy_row_dask_range(d_in, d_out, start, stop, 0), cudaSuccess);
    cr_assert_eq(kit_fetch(h_out, d_out, total * 4, 0), cudaSuccess);
    if (stop >= start) {
        cr_assert(kit_all_poison_u32(h_out, start, msg, sizeof msg), "[%zu,%zu] before: %s", start, stop, msg);
        cr_assert(kit_cmp_u32(h_out + start, h_in + start, stop - start + 1, msg, sizeof msg),
                  "[%zu,%zu]: %s", start, stop, msg);
        cr_assert(kit_all_poison_u32(h_out + stop + 1, total - stop - 1, msg, sizeof msg),
                  "[%zu,%zu] after: %s", start, stop, msg);
    } else {
        cr_assert(kit_all_poison_u32(h_out, total, msg, sizeof msg), "empty range wrote: %s", msg);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
}

Test(ch01_gpu, row_dask_unaligned_ranges)
{
    static const size_t r[][2] = {
        {0, 0},     {1, 1},      {5, 40},     {31, 32},      {32, 543},    {33, 1000},
        {3, 511},   {3, 514},    {100, 99},   {7, 1048579},  {511, 2048},  {0, 1048575},
        {17, 3000000}, {1023, 1023 + 512 * 5}, {9, 9 + 512 * 2112 * 2 + 1},
    };
    size_t i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < sizeof r / sizeof *r; i++) expect_row_range(r[i][1] + 70, r[i][0], r[i][1]);
}

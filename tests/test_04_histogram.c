/* test_04_histogram.c - chapter 04: the byte inputs and images, the CPU
 * baselines, every GPU step and tuning variant against them (all inputs, odd
 * sizes, unaligned pointers, counter-overflow paths), the contract of every
 * step (the exercises: test_04_exercises.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "histogram.h"
#include "kit_test.h"

/* the chapter's sizes: empty, shorter than a word, odd, a whole-block size, 2^20+7, 2^24 */
static const size_t hist_sizes[] = {0, 1, 3, 4, 5, 255, 1023, (1u << 20) + 7, 1u << 24};
#define NSIZES (sizeof hist_sizes / sizeof *hist_sizes)

/* a[0..n) as the problem fills it for input in (test_04_exercises.c) */
void fill(uint8_t *a, size_t n, const kit_input *in, uint64_t seed);

static uint64_t count_distinct(const uint8_t *a, size_t n)
{
    uint32_t h[HIST_BINS];
    uint64_t d = 0;
    int b;
    hist_cpu_simple(a, n, h);
    for (b = 0; b < HIST_BINS; b++) d += h[b] != 0;
    return d;
}

/* ------------------------------------------------------------------ CPU */

TestSuite(ch04_cpu, .timeout = KIT_CPU_TIMEOUT);

Test(ch04_cpu, unroll4_equals_simple)
{
    static const size_t sizes[] = {0, 1, 3, 4, 5, 7, 255, 1023, 65543};
    size_t k, x;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (x = 0; x < HIST_NINPUTS; x++) {
            const size_t n = sizes[k];
            uint8_t *a = malloc(n + 1);
            uint32_t s[HIST_BINS], u[HIST_BINS], total = 0;
            char msg[KIT_MSG];
            int b;
            cr_assert(a);
            fill(a, n, &hist_inputs[x], 40 + k);
            memset(u, 0xA5, sizeof u);
            hist_cpu_simple(a, n, s);
            hist_cpu_unroll4(a, n, u);
            cr_assert(kit_cmp_u32(u, s, HIST_BINS, msg, sizeof msg), "n=%zu %s: %s", n,
                      hist_inputs[x].name, msg);
            for (b = 0; b < HIST_BINS; b++) total += s[b];
            cr_assert_eq(total, n, "the bins of n=%zu add up to %u", n, total);
            free(a);
        }
}

Test(ch04_cpu, simple_counts_by_hand)
{
    static const uint8_t a[] = {0, 255, 7, 7, 0, 7, 128};
    uint32_t h[HIST_BINS];
    hist_cpu_simple(a, sizeof a, h);
    cr_assert(h[0] == 2 && h[7] == 3 && h[128] == 1 && h[255] == 1 && h[1] == 0);
}

Test(ch04_cpu, byte_patterns)
{
    enum { N = 100003 };
    static uint8_t a[N], b[N];
    uint32_t h[HIST_BINS];
    size_t i;
    int bit, ones = 0;
    kit_fill_u8(a, N, KIT_ZEROS, 1);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], 0);
    kit_fill_u8(a, N, KIT_LINEAR, 1);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], (uint8_t)i);
    kit_fill_u8(a, N, KIT_ALTERNATING, 1);
    cr_assert(a[0] == 0 && a[1] == 0xFF && a[N - 1] == 0);
    kit_fill_u8(a, N, KIT_IDENTICAL, 9);
    cr_assert_eq(count_distinct(a, N), 1);
    kit_fill_u8(a, N, KIT_FEW_UNIQUE, 9);
    cr_assert_leq(count_distinct(a, N), 16);
    kit_fill_u8(a, N, KIT_SORTED, 9);
    for (i = 1; i < N; i++) cr_assert_geq(a[i], a[i - 1], "sorted at %zu", i);
    cr_assert(a[0] == 0 && a[N - 1] == 255);
    kit_fill_u8(a, N, KIT_REVERSE, 9);
    for (i = 1; i < N; i++) cr_assert_leq(a[i], a[i - 1], "reverse at %zu", i);
    /* uniform: every bin within 5 standard deviations of n / 256 */
    kit_fill_u8(a, N, KIT_UNIFORM, 5);
    hist_cpu_simple(a, N, h);
    for (i = 0; i < HIST_BINS; i++)
        cr_assert(h[i] > N / 256 - 5 * 20 && h[i] < N / 256 + 5 * 20, "uniform bin %zu: %u", i, h[i]);
    /* low entropy: each bit is 1 with probability 1/8 */
    kit_fill_u8(a, N, KIT_LOW_ENTROPY, 5);
    for (i = 0; i < N; i++)
        for (bit = 0; bit < 8; bit++) ones += (a[i] >> bit) & 1;
    cr_assert(ones > 8 * N / 8 * 0.95 && ones < 8 * N / 8 * 1.05, "low-entropy: %d one bits", ones);
    /* same seed, same bytes; another seed, other bytes */
    kit_fill_u8(a, N, KIT_UNIFORM, 77);
    kit_fill_u8(b, N, KIT_UNIFORM, 77);
    cr_assert_eq(memcmp(a, b, N), 0);
    kit_fill_u8(b, N, KIT_UNIFORM, 78);
    cr_assert_neq(memcmp(a, b, N), 0);
    /* a shorter fill is a prefix of a longer one */
    kit_fill_u8(b, 13, KIT_UNIFORM, 77);
    cr_assert_eq(memcmp(a, b, 13), 0);
}

Test(ch04_cpu, images)
{
    const size_t n = (size_t)1 << 22; /* 2048 x 2048 grey = 2 x 2 tiles of the 1024 base */
    uint8_t *a = malloc(n), *b = malloc(n);
    uint32_t h[HIST_BINS];
    uint64_t diff = 0, dark = 0;
    size_t i, x, y;
    cr_assert(a && b);

    hist_fill_image_u8(a, n, HIST_IMAGE_GRADIENT, 3);
    hist_fill_image_u8(b, n, HIST_IMAGE_GRADIENT, 3);
    cr_assert_eq(memcmp(a, b, n), 0, "same seed, same image");
    for (i = 1; i < 2048; i++) diff += (uint64_t)abs((int)a[i] - (int)a[i - 1]);
    cr_assert_lt(diff / 2047, 8, "gradient: neighbours differ by %llu on average", (unsigned long long)(diff / 2047));
    cr_assert_geq(count_distinct(a, n), 150, "gradient: a broad histogram");
    for (y = 0; y < 2048; y += 511) /* tiled: pixel (x, y) = pixel (x mod 1024, y mod 1024) */
        for (x = 0; x < 1024; x += 7)
            cr_assert(a[y * 2048 + x] == a[y * 2048 + x + 1024] &&
                      a[y * 2048 + x] == a[((y + 1024) % 2048) * 2048 + x], "tile at (%zu, %zu)", x, y);

    hist_fill_image_u8(a, n, HIST_IMAGE_DARK, 3);
    hist_cpu_simple(a, n, h);
    for (i = 0; i < 24; i++) dark += h[i];
    cr_assert_gt(dark, n / 2, "dark: most pixels are dark (%llu of %zu)", (unsigned long long)dark, n);
    cr_assert_geq(count_distinct(a, n), 100, "dark: bright blobs too");

    hist_fill_image_u8(a, n, HIST_IMAGE_RGBA0, 3);
    for (i = 3; i < n; i += 4) cr_assert_eq(a[i], 0, "alpha of pixel %zu", i / 4);
    hist_cpu_simple(a, n, h);
    cr_assert_geq(h[0], n / 4);
    cr_assert_geq(count_distinct(a, n), 150);

    hist_fill_image_u8(a, 5, HIST_IMAGE_RGBA0, 3); /* tiny and odd sizes are fine */
    cr_assert_eq(a[3], 0);
    free(a);
    free(b);
}

/* the problem's named inputs: found by name, and each fills what its generator makes */
Test(ch04_cpu, input_names)
{
    static const char *const names[HIST_NINPUTS] = {"uniform",     "zeros",          "linear",
                                                    "low-entropy", "image-gradient", "image-dark",
                                                    "image-rgba0"};
    static const kit_pattern patterns[4] = {KIT_UNIFORM, KIT_ZEROS, KIT_LINEAR, KIT_LOW_ENTROPY};
    static const hist_image images[3] = {HIST_IMAGE_GRADIENT, HIST_IMAGE_DARK, HIST_IMAGE_RGBA0};
    enum { N = 70001 };
    static uint8_t a[N], b[N];
    size_t x;
    cr_assert_eq(hist_problem.inputs, hist_inputs);
    cr_assert_eq(hist_problem.ninputs, HIST_NINPUTS);
    for (x = 0; x < HIST_NINPUTS; x++) {
        const kit_input *in = kit_input_find(&hist_problem, names[x]);
        cr_assert_eq(in, &hist_inputs[x], "input %s", names[x]);
        fill(a, N, in, 17);
        if (x < 4) kit_fill_u8(b, N, patterns[x], 17);
        else hist_fill_image_u8(b, N, images[x - 4], 17);
        cr_assert_eq(memcmp(a, b, N), 0, "input %s: not its generator's bytes", names[x]);
    }
    cr_assert_eq(kit_input_find(&hist_problem, "image-nonsense"), NULL);
}

/* The step tables are the single source for bench, demo, tests and README. */
Test(ch04_cpu, step_tables_are_consistent)
{
    size_t l, i, timing = 0;
    for (l = 0; l <= HIST_NLADDERS; l++) {
        const kit_ladder *L = l < HIST_NLADDERS ? hist_ladders[l] : &hist_s7_cub_ladder;
        const hist_step *t = (const hist_step *)L->table;
        kit_expect_table(L);
        cr_assert_eq(L->P, &hist_problem, "%s: another problem", L->id);
        for (i = 0; i < L->count; i++) {
            const kit_step_info *s = L->step(L, i);
            cr_assert(t[i].run, "%s %s: no run", L->id, s->name);
            if (s->flags & KIT_TIMING_ONLY) {
                cr_assert(L == &hist_rowsum_ladder, "%s %s: timing-only outside the row-sum table", L->id,
                          s->name);
                cr_assert(strstr(s->param, "rowsum=off") != NULL, "%s (%s)", s->name, s->param);
                timing++;
            }
        }
    }
    cr_assert_eq(timing, 2);
    cr_assert_eq(hist_ladders[0], &hist_ladder);
    cr_assert_eq(hist_ladder.count, HIST_NSTEPS);
    cr_assert_eq(hist_steps[HIST_NSTEPS - 1].info.kind, KIT_STEP_YARDSTICK);
    cr_assert_str_eq(hist_steps[4].info.name, "s4_trish");
    cr_assert_str_eq(hist_steps[HIST_NSTEPS - 2].info.name, "s7_runs");
    cr_assert(hist_s7_cub_ladder.count == 2 && hist_s7_cub_ladder.table == &hist_steps[HIST_NSTEPS - 2],
              "hist_s7_cub_ladder is not the main ladder's s7 and CUB");
    for (i = 0; i < HIST_RUNS_NVARIANTS; i++) /* the `runs` figure tells variants from the step by this */
        cr_assert(strstr(hist_runs_variants[i].info.param, "x16B") == NULL, "%s", hist_runs_variants[i].info.param);
    cr_assert(strstr(hist_steps[HIST_NSTEPS - 2].info.param, "x16B") != NULL);
    cr_assert_eq(access("solutions/04-histogram/trish_bin.cuh", R_OK), 0);
    cr_assert_eq(access("solutions/04-histogram/trish_rowsum.cuh", R_OK), 0);
}

/* ------------------------------------------------------------------ GPU */

TestSuite(ch04_gpu, .timeout = KIT_GPU_TIMEOUT);

/* one test per ladder step: every size x every input */
#define STEP_TEST(step_, i)                                                                     \
    Test(ch04_gpu, step_)                                                                       \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        cr_assert_str_eq(hist_steps[i].info.name, #step_);                                      \
        kit_expect_step_sizes(&hist_ladder, i, hist_sizes, NSIZES, NULL, 11);                   \
    }

STEP_TEST(s0_global_atomics, 0)
STEP_TEST(s1_block_atomics, 1)
STEP_TEST(s2_warp_atomics, 2)
STEP_TEST(s3_thread16, 3)
STEP_TEST(s4_trish, 4)
STEP_TEST(s5_trish_hopper, 5)
STEP_TEST(s6_wide_ilp, 6)
STEP_TEST(s7_runs, 7)
STEP_TEST(cub_histogram_even, 8)

/* the contract of every step of every table (reference/contract.c) */
KIT_CONTRACT_TESTS(ch04_contract, hist_ladders, HIST_NLADDERS, 1)

/* tuning variants: a few sizes, uniform and all zeros (a full grid) */
static const size_t variant_sizes[] = {5, 4101, (1u << 20) + 7};

static void expect_table(const kit_ladder *L)
{
    static const char *const inputs[] = {"uniform", "zeros", NULL};
    size_t i;
    for (i = 0; i < L->count; i++) kit_expect_step_sizes(L, i, variant_sizes, 3, inputs, 5);
}

Test(ch04_gpu, trish_k_variants)
{
    KIT_REQUIRE_GPU();
    expect_table(&hist_trish_k_ladder);
}

Test(ch04_gpu, trish_residency_variants)
{
    KIT_REQUIRE_GPU();
    expect_table(&hist_trish_res_ladder);
}

Test(ch04_gpu, hopper_variants)
{
    KIT_REQUIRE_GPU();
    expect_table(&hist_hopper_ladder);
}

Test(ch04_gpu, wide_variants)
{
    KIT_REQUIRE_GPU();
    expect_table(&hist_wide_ladder);
}

/* L with the kit's byte patterns as its inputs instead of the chapter's: sorted, reverse,
 * identical, alternating and few-unique are not inputs of the histogram problem, but they
 * are the long runs s7 merges (the problem's fill makes them: they carry no image) */
static const kit_ladder *on_patterns(const kit_ladder *L, kit_problem *P, kit_ladder *out)
{
    *P = hist_problem;
    P->inputs = kit_pattern_inputs;
    P->ninputs = KIT_PATTERN_COUNT;
    *out = *L;
    out->P = P;
    return out;
}

/* s7 is data-dependent by design: its variants on every input, and on the long-run
 * patterns (sorted / reverse: runs of n/256 bytes across vectors and data blocks;
 * identical; alternating; few-unique), at odd sizes. */
Test(ch04_gpu, runs_variants)
{
    static const char *const runs_inputs[] = {"sorted", "reverse", "identical", "alternating",
                                              "few-unique", NULL};
    kit_problem P;
    kit_ladder variants, ladder;
    size_t i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < HIST_RUNS_NVARIANTS; i++)
        kit_expect_step_sizes(&hist_runs_ladder, i, variant_sizes, 3, NULL, 31);
    on_patterns(&hist_runs_ladder, &P, &variants);
    for (i = 0; i < HIST_RUNS_NVARIANTS; i++)
        kit_expect_step_sizes(&variants, i, variant_sizes + 1, 2, runs_inputs, 31);
    kit_expect_step_sizes(on_patterns(&hist_ladder, &P, &ladder), HIST_NSTEPS - 2, variant_sizes, 3,
                          runs_inputs, 31);
}

/* Runs of random lengths (1 .. 3000 bytes) and values, at aligned and odd
 * offsets, on the full grid and on 1 or 2 blocks (runs carried across many
 * data blocks): every s7 variant and the ladder's s7. */
Test(ch04_gpu, runs_random_lengths)
{
    static const size_t offs[] = {0, 3};
    static const unsigned grids[] = {0, 1, 2};
    const size_t n = (1u << 20) + 29, total = n + 16;
    uint8_t *h = malloc(total), *d_in = NULL;
    uint32_t want[HIST_BINS], got[HIST_BINS], *d_bins = NULL;
    void *scratch = NULL;
    uint64_t st = 5;
    size_t i, o, g, at = 0;
    char msg[KIT_MSG];
    KIT_REQUIRE_GPU();
    cr_assert(h);
    while (at < total) {
        const uint64_t r = kit_rand64(&st);
        size_t len = (r >> 8) % 8 == 0 ? 1 + (r >> 16) % 3000 : 1 + (r >> 16) % 40;
        if (len > total - at) len = total - at;
        memset(h + at, (int)(r & 0xFFu), len);
        at += len;
    }
    cr_assert_eq(cudaMalloc((void **)&d_in, total), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d_bins, sizeof got), cudaSuccess);
    cr_assert_eq(cudaMalloc(&scratch, hist_partials_scratch(total)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, h, total, cudaMemcpyHostToDevice), cudaSuccess);
    for (g = 0; g < sizeof grids / sizeof *grids; g++) {
        hist_set_grid_limit(grids[g]);
        for (i = 0; i <= HIST_RUNS_NVARIANTS; i++) {
            const hist_step *step = i < HIST_RUNS_NVARIANTS ? &hist_runs_variants[i] : &hist_steps[HIST_NSTEPS - 2];
            for (o = 0; o < sizeof offs / sizeof *offs; o++) {
                hist_cpu_simple(h + offs[o], n, want);
                cr_assert_eq(kit_poison(d_bins, sizeof got, 0), cudaSuccess);
                cr_assert_eq(step->run(d_in + offs[o], n, d_bins, scratch, 0), cudaSuccess, "%s (%s)",
                             step->info.name, step->info.param);
                cr_assert_eq(kit_fetch(got, d_bins, sizeof got, 0), cudaSuccess);
                cr_assert(kit_cmp_u32(got, want, HIST_BINS, msg, sizeof msg), "%s (%s), offset %zu, grid limit %u: %s",
                          step->info.name, step->info.param, offs[o], grids[g], msg);
            }
        }
    }
    hist_set_grid_limit(0);
    cudaFree(d_in);
    cudaFree(d_bins);
    cudaFree(scratch);
    free(h);
}

/* Few blocks: every thread bins hundreds of KB, so TRISH row-sums and 16-bit
 * flushes happen many times; all zeros drives one counter per thread to its
 * limit between two of them (and carries one s7 run through every data block). */
static void expect_small_grids(const kit_ladder *L, const size_t *sizes, size_t nsizes)
{
    static const char *const inputs[] = {"zeros", "uniform", "image-rgba0", NULL};
    static const unsigned grids[] = {1, 3};
    size_t i, g;
    for (g = 0; g < 2; g++) {
        hist_set_grid_limit(grids[g]);
        for (i = 0; i < L->count; i++) kit_expect_step_sizes(L, i, sizes, nsizes, inputs, 3);
    }
    hist_set_grid_limit(0);
}

Test(ch04_gpu, overflow_paths_ladder)
{
    static const size_t sizes[] = {(1u << 20) + 7, 1u << 24};
    KIT_REQUIRE_GPU();
    expect_small_grids(&hist_ladder, sizes, 2);
}

Test(ch04_gpu, overflow_paths_variants)
{
    static const size_t sizes[] = {(1u << 18) + 13};
    KIT_REQUIRE_GPU();
    expect_small_grids(&hist_trish_k_ladder, sizes, 1);
    expect_small_grids(&hist_hopper_ladder, sizes, 1);
    expect_small_grids(&hist_wide_ladder, sizes, 1);
    expect_small_grids(&hist_runs_ladder, sizes, 1);
}

/* Any alignment: the steps read 4- or 16-byte units from the first aligned address and
 * count the loose bytes at both ends separately.  Each run under the contract
 * (reference/contract.c): the input 1 .. 15 bytes past a 256-byte boundary, guards around
 * the input, the bins and the scratch, the input unchanged, a second run on dirty scratch. */
Test(ch04_gpu, unaligned_inputs)
{
    static const size_t offs[] = {1, 2, 3, 5, 8, 13, 15};
    static const size_t sizes[] = {1, 2, 17, 100, 4099, (1u << 20) + 7};
    size_t i, o, k;
    KIT_REQUIRE_GPU();
    for (i = 0; i < HIST_NSTEPS; i++)
        for (o = 0; o < sizeof offs / sizeof *offs; o++)
            for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                const kit_shape sh = kit_shape_default(&hist_problem, sizes[k]);
                const kit_contract_opts opt = {0, offs[o], 0, 0};
                char msg[KIT_MSG];
                int ok = 0;
                cudaError_t e = kit_contract_step(&hist_ladder, i, &sh, &hist_inputs[0], 21, &opt, &ok,
                                                  msg, sizeof msg);
                cr_assert(e == cudaSuccess && ok, "%s", msg);
            }
}

/* counts are 32-bit: 2^32 bytes or more is refused before anything runs */
Test(ch04_gpu, refuses_too_large)
{
    size_t i;
    KIT_REQUIRE_GPU();
    for (i = 0; i < HIST_NSTEPS; i++)
        cr_assert_eq(hist_steps[i].run(NULL, (size_t)1 << 32, NULL, NULL, 0), cudaErrorInvalidValue,
                     "%s", hist_steps[i].info.name);
}

/* forced residency really yields R resident blocks per SM */
static void expect_forced(const hist_step *table, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++) {
        const char *f = strstr(table[i].info.param, "forced=");
        kit_kernel_desc d;
        int per_sm = 0, want;
        cudaError_t e;
        const char *why;
        if (!f || (want = atoi(f + 7)) == 0) continue;
        e = table[i].info.describe(&d);
        if (e != cudaSuccess && (why = kit_unsupported())) { /* more than this GPU's SM holds */
            fprintf(stderr, "%s (%s) skipped: cannot run on this GPU: %s\n", table[i].info.name, table[i].info.param, why);
            continue;
        }
        cr_assert_eq(e, cudaSuccess);
        cr_assert_eq(kit_occupancy(&per_sm, d.func, d.block_threads, d.dyn_smem), cudaSuccess);
        cr_assert_eq(per_sm, want, "%s (%s): %d blocks/SM", table[i].info.name, table[i].info.param,
                     per_sm);
    }
}

Test(ch04_gpu, residency_is_forced)
{
    KIT_REQUIRE_GPU();
    expect_forced(hist_trish_res_variants, HIST_TRISH_RES_NVARIANTS);
    expect_forced(hist_hopper_variants, HIST_HOPPER_NVARIANTS);
}

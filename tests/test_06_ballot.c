/* test_06_ballot.c - chapter 06: the CPU baselines and flag patterns, every step of the
 * flags -> offsets ladder and its tuning table, every warp and block primitive (probes)
 * at every block size the chapter uses, the block radix sort and the micro-benchmarks.
 * The exercises are graded in test_06_exercises.c. */
#include <stdlib.h>
#include <string.h>

#include "ballot.h"
#include "kit_test.h"

/* probe inputs: random, all-zero, all-one (segments of 1), alternating (segments of 2),
 * random flags with segments of 32..200 */
static const char *const probe_inputs[] = {"random", "zeros", "all-heads", "pairs",
                                           "long-segments", NULL};

/* odd sizes: partial last warps and blocks everywhere */
static const size_t probe_sizes[] = {0, 1, 31, 32, 33, 1023, 1025, 4097, (1u << 20) + 7};
#define NPSIZE (sizeof probe_sizes / sizeof probe_sizes[0])

static const int block_sizes[] = {128, 256, 512, 1024};
#define NBLOCK (sizeof block_sizes / sizeof block_sizes[0])

/* the block primitives of the probe table (each at every block size) */
static const char *const block_prims[] = {
    "block_scan32",      "block_scan32_shfl", "block_bin_scan",       "block_bin_scan_shfl",
    "block_bin_scan_bp", "syncthreads_count", "block_reduce32",       "block_reduce32_shfl",
    "block_reduce32_redux", "block_split",
};
#define NBLOCK_PRIMS (sizeof block_prims / sizeof block_prims[0])

/* ------------------------------------------------------------------ CPU */

TestSuite(ch06_cpu, .timeout = KIT_CPU_TIMEOUT);

Test(ch06_cpu, four_directions_by_hand)
{
    static const uint8_t f[5] = {1, 0, 1, 1, 0};
    static const uint32_t want[4][5] = {
        {0, 1, 1, 2, 3}, /* forward exclusive */
        {1, 1, 2, 3, 3}, /* forward inclusive */
        {3, 2, 2, 1, 0}, /* reverse inclusive */
        {2, 2, 1, 0, 0}, /* reverse exclusive */
    };
    static const int rev[4] = {0, 0, 1, 1}, incl[4] = {0, 1, 1, 0};
    uint32_t out[5];
    char msg[KIT_MSG];
    int d;
    for (d = 0; d < 4; d++) {
        ballot_cpu_scan(f, out, 5, 0, rev[d], incl[d]);
        cr_assert(kit_cmp_u32(out, want[d], 5, msg, sizeof msg), "direction %d: %s", d, msg);
    }
}

Test(ch06_cpu, groups_restart_and_directions_agree)
{
    enum { N = 1000 };
    static uint8_t f[N], r[N];
    static uint32_t a[N], b[N], c[N];
    size_t i, g0;
    char msg[KIT_MSG];
    ballot_fill_flags(f, N, BALLOT_FLAGS_RANDOM, 5);
    for (i = 0; i < N; i++) r[i] = f[N - 1 - i];
    /* group 32 = the whole-array scan of each 32-element chunk */
    ballot_cpu_scan(f, a, N, 32, 0, 0);
    for (g0 = 0; g0 < N; g0 += 32) {
        size_t len = N - g0 < 32 ? N - g0 : 32;
        ballot_cpu_scan(f + g0, b, len, 0, 0, 0);
        cr_assert(kit_cmp_u32(a + g0, b, len, msg, sizeof msg), "group at %zu: %s", g0, msg);
    }
    /* reverse = forward on the reversed array, read backwards; incl - excl = flag */
    ballot_cpu_scan(f, a, N, 0, 1, 1);
    ballot_cpu_scan(r, b, N, 0, 0, 1);
    ballot_cpu_scan(f, c, N, 0, 1, 0);
    for (i = 0; i < N; i++) {
        cr_assert_eq(a[i], b[N - 1 - i], "reverse at %zu", i);
        cr_assert_eq(a[i] - c[i], f[i], "incl - excl at %zu", i);
    }
}

/* on every input of the flags -> offsets problem, made by its fill */
Test(ch06_cpu, swar_equals_serial)
{
    static const size_t sizes[] = {0, 1, 7, 8, 9, 31, 33, 1023, 1025, (1u << 16) + 3};
    const kit_problem *P = &ballot_scan_problem;
    size_t k, p;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (p = 0; p < P->ninputs; p++) {
            const size_t n = sizes[k];
            const kit_shape sh = kit_shape_default(P, n);
            uint8_t *f = malloc(n + 1);
            uint32_t *a = malloc((n + 1) * 4), *b = malloc((n + 1) * 4);
            char msg[KIT_MSG];
            kit_host h;
            cr_assert(f && a && b);
            memset(&h, 0, sizeof h);
            h.buf[0] = f;
            P->fill(P, &h, &sh, &P->inputs[p], 9 + k);
            ballot_cpu_scan(f, a, n, 0, 0, 0);
            ballot_cpu_offsets_swar(f, b, n);
            cr_assert(kit_cmp_u32(b, a, n, msg, sizeof msg), "n=%zu %s: %s", n,
                      P->inputs[p].name, msg);
            free(f);
            free(a);
            free(b);
        }
}

Test(ch06_cpu, segmented_scan)
{
    enum { N = 777 };
    static uint8_t f[N], h[N], none[N], all[N];
    static uint32_t a[N], b[N], c[N];
    size_t i;
    char msg[KIT_MSG];
    ballot_fill_flags(f, N, BALLOT_FLAGS_RANDOM, 3);
    ballot_fill_heads(h, N, BALLOT_HEADS_RANDOM, 4);
    ballot_fill_heads(none, N, BALLOT_HEADS_NONE, 0);
    ballot_fill_heads(all, N, BALLOT_HEADS_ALL, 0);
    /* no heads: the grouped scan */
    ballot_cpu_segscan(f, none, a, N, 32, 1);
    ballot_cpu_scan(f, b, N, 32, 0, 1);
    cr_assert(kit_cmp_u32(a, b, N, msg, sizeof msg), "no heads: %s", msg);
    /* every element a head: the flag itself */
    ballot_cpu_segscan(f, all, a, N, 0, 1);
    for (i = 0; i < N; i++) cr_assert_eq(a[i], f[i], "segments of 1 at %zu", i);
    /* inclusive - exclusive = flag; a head restarts the count */
    ballot_cpu_segscan(f, h, a, N, 32, 1);
    ballot_cpu_segscan(f, h, c, N, 32, 0);
    for (i = 0; i < N; i++) {
        cr_assert_eq(a[i] - c[i], f[i], "at %zu", i);
        if (h[i] || i % 32 == 0) cr_assert_eq(c[i], 0u, "head at %zu", i);
    }
}

Test(ch06_cpu, bitplanes_equal_generic_scan)
{
    enum { N = 3001 };
    static uint32_t v[N], a[N], b[N];
    char msg[KIT_MSG];
    int bits;
    kit_fill_u32(v, N, KIT_UNIFORM, 11);
    for (bits = 1; bits <= 32; bits++) {
        const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1u;
        ballot_cpu_scan_bitplanes(v, a, N, bits);
        ballot_cpu_scan_u32(v, b, N, 0, mask, 0);
        cr_assert(kit_cmp_u32(a, b, N, msg, sizeof msg), "bits=%d: %s", bits, msg);
    }
}

Test(ch06_cpu, split_and_tile_sort)
{
    enum { N = 2500, G = 512 };
    static uint8_t f[N];
    static uint32_t v[N], a[N], b[N];
    size_t g0, i;
    char msg[KIT_MSG];
    ballot_fill_flags(f, N, BALLOT_FLAGS_RANDOM, 2);
    for (i = 0; i < N; i++) v[i] = (uint32_t)i; /* stability shows as increasing indices */
    ballot_cpu_split(f, v, a, N, G);
    for (g0 = 0; g0 < N; g0 += G) {
        const size_t g1 = g0 + G < N ? g0 + G : N;
        for (i = g0; i + 1 < g1; i++) {
            const uint32_t x = a[i], y = a[i + 1];
            cr_assert(x >= g0 && x < g1, "element %u left its group", x);
            cr_assert(f[x] < f[y] || (f[x] == f[y] && x < y), "split order at %zu", i);
        }
    }
    kit_fill_u32(v, N, KIT_UNIFORM, 8);
    ballot_cpu_sort_tiles(v, a, N, G);
    memcpy(b, v, sizeof v);
    for (g0 = 0; g0 < N; g0 += G) qsort(b + g0, (N - g0 < G ? N - g0 : G), 4, kit_test_cmp_u32);
    cr_assert(kit_cmp_u32(a, b, N, msg, sizeof msg), "tile sort: %s", msg);
}

Test(ch06_cpu, flag_and_head_patterns)
{
    enum { N = 100000 };
    static uint8_t f[N], h[N];
    size_t i, ones = 0, last = 0;
    ballot_fill_flags(f, N, BALLOT_FLAGS_ONES, 0);
    for (i = 0; i < N; i++) cr_assert_eq(f[i], 1);
    ballot_fill_flags(f, N, BALLOT_FLAGS_ALTERNATING, 0);
    for (i = 0; i < N; i++) cr_assert_eq(f[i], (uint8_t)(i & 1));
    ballot_fill_flags(f, N, BALLOT_FLAGS_SPARSE, 1);
    for (i = 0; i < N; i++) ones += f[i];
    cr_assert(ones > N / 20 && ones < N / 12, "sparse: %zu ones of %d", ones, N);
    ballot_fill_flags(f, N, BALLOT_FLAGS_RANDOM, 1);
    for (ones = 0, i = 0; i < N; i++) {
        cr_assert(f[i] <= 1);
        ones += f[i];
    }
    cr_assert(ones > N * 45 / 100 && ones < N * 55 / 100, "random: %zu ones", ones);
    ballot_fill_heads(h, N, BALLOT_HEADS_LONG, 1);
    cr_assert_eq(h[0], 1);
    for (i = 1; i < N; i++)
        if (h[i]) {
            cr_assert(i - last >= 32 && i - last <= 200, "segment of %zu at %zu", i - last, i);
            last = i;
        }
}

/* every named input makes what its name says */
Test(ch06_cpu, named_inputs)
{
    enum { N = 100000 };
    static uint8_t f[N], h[N];
    static uint32_t v[N];
    const kit_problem *P = &ballot_scan_problem, *Q = &ballot_probe_problem;
    const kit_shape sh = kit_shape_default(P, N);
    const kit_input *in;
    kit_host host;
    size_t x, i, ones;
    memset(&host, 0, sizeof host);
    host.buf[0] = f;
    /* flags -> offsets: 0/1 flags, as many ones as the input says */
    for (x = 0; x < P->ninputs; x++) {
        in = &P->inputs[x];
        P->fill(P, &host, &sh, in, 3);
        for (ones = 0, i = 0; i < N; i++) {
            cr_assert(f[i] <= 1, "%s: flag %u at %zu", in->name, f[i], i);
            ones += f[i];
        }
        cr_assert((double)ones > (in->value - 0.02) * N && (double)ones < (in->value + 0.02) * N + 1,
                  "%s: %zu ones of %d, want about %g", in->name, ones, N, in->value);
    }
    /* probes: all-heads is all-one flags, every element a head, one value repeated */
    host.buf[1] = h;
    host.buf[2] = v;
    in = kit_input_find(Q, "all-heads");
    cr_assert(in != NULL);
    Q->fill(Q, &host, &sh, in, 3);
    for (i = 0; i < N; i++) cr_assert(f[i] == 1 && h[i] == 1 && v[i] == v[0]);
    in = kit_input_find(Q, "sparse-no-heads");
    cr_assert(in != NULL);
    Q->fill(Q, &host, &sh, in, 3);
    for (ones = 0, i = 0; i < N; i++) {
        cr_assert(h[i] == 0 && (i == 0 || v[i] <= v[i - 1]));
        ones += f[i];
    }
    cr_assert(ones > N / 20 && ones < N / 12, "sparse-no-heads: %zu ones of %d", ones, N);
    in = kit_input_find(Q, "pairs");
    cr_assert(in != NULL);
    Q->fill(Q, &host, &sh, in, 3);
    for (i = 0; i < N; i++) cr_assert(f[i] == (i & 1) && h[i] == !(i & 1));
}

Test(ch06_cpu, micro_reference)
{
    static uint32_t tile[BALLOT_TILE_WORDS * 1024], acc[1024];
    uint32_t want;
    int t, it;
    for (t = 0; t < BALLOT_TILE_WORDS * 1024; t++) tile[t] = 0xFFFFFFFFu; /* every value is 1 */
    ballot_cpu_micro(BALLOT_MR_COUNT, 512, 1, tile, acc);
    for (want = 0, it = 0; it < BALLOT_ITER; it++) want = want * BALLOT_TOTAL_MUL + 512;
    cr_assert_eq(acc[77], want);
    ballot_cpu_micro(BALLOT_MS_BINSHFL, 512, 1, tile, acc);
    for (want = 0, it = 0; it < BALLOT_ITER; it++) want = want * BALLOT_TOTAL_MUL + 300;
    cr_assert_eq(acc[300], want);
    ballot_cpu_micro(BALLOT_MW_BITPLANE, 256, 3, tile, acc); /* values 7 */
    for (want = 0, it = 0; it < BALLOT_ITER; it++) want = want * BALLOT_TOTAL_MUL + 7 * 5;
    cr_assert_eq(acc[69], want); /* lane 5 of warp 2 */
}

/* The step table is the single source for bench, demo, tests and README. */
Test(ch06_cpu, step_tables_are_consistent)
{
    size_t l;
    for (l = 0; l < BALLOT_NLADDERS; l++) kit_expect_table(ballot_ladders[l]);
    cr_assert_eq(ballot_ladders[0], &ballot_ladder);
    cr_assert_eq(ballot_ladder.count, BALLOT_NSTEPS);
    cr_assert_eq(ballot_lookback_ladder.count, 36);
    cr_assert_eq(ballot_probe_ladder.count, BALLOT_PROBE_NVARIANTS);
    cr_assert_eq(ballot_sort_ladder.count, BALLOT_SORT_NVARIANTS);
    cr_assert_eq(ballot_mreduce_ladder.count, BALLOT_MREDUCE_NVARIANTS);
    cr_assert_eq(ballot_mscan_ladder.count, BALLOT_MSCAN_NVARIANTS);
    cr_assert_eq(ballot_mbits_ladder.count, BALLOT_MBITS_NVARIANTS);
}

/* every block primitive is probed at every block size the chapter uses */
Test(ch06_cpu, probes_cover_every_block_size)
{
    static const char *const sorts[] = {"sort_ballot", "sort_scan32_shfl", "sort_scan32_smem"};
    size_t p, b;
    for (b = 0; b < NBLOCK; b++) {
        char param[64];
        snprintf(param, sizeof param, "tbs=%d", block_sizes[b]);
        for (p = 0; p < NBLOCK_PRIMS; p++)
            cr_assert_geq(ballot_probe_find(&ballot_probe_ladder, block_prims[p], param), 0,
                          "%s %s", block_prims[p], param);
        snprintf(param, sizeof param, "tbs=%d keys/thread=1", block_sizes[b]);
        for (p = 0; p < sizeof sorts / sizeof *sorts; p++)
            cr_assert_geq(ballot_probe_find(&ballot_sort_ladder, sorts[p], param), 0, "%s %s",
                          sorts[p], param);
    }
}

/* ------------------------------------------------------------------ GPU */

TestSuite(ch06_gpu, .timeout = KIT_GPU_TIMEOUT);

/* one test per ladder step: every kit size (up to 2^24) x every flag input */
#define STEP_TEST(step_, i)                                                                     \
    Test(ch06_gpu, step_)                                                                       \
    {                                                                                           \
        KIT_REQUIRE_GPU();                                                                      \
        cr_assert_str_eq(ballot_ladder.step(&ballot_ladder, i)->name, #step_);                  \
        kit_expect_step_sizes(&ballot_ladder, i, kit_test_sizes, kit_test_nsizes, NULL, 7);     \
    }

STEP_TEST(s0_rts32, 0)
STEP_TEST(s1_rts_ballot, 1)
STEP_TEST(s2_rows, 2)
STEP_TEST(s3_lookback, 3)
STEP_TEST(cub_exclusive_sum, 4)

/* the tuning table: many tiles (look-back windows of 32 and more), partial last tiles */
static void expect_lookback_block(int tbs)
{
    static const size_t sizes[] = {1, 33, 4101, (1u << 20) + 7, (1u << 22) + 3};
    static const char *const inputs[] = {"random", "ones", "sparse"};
    char prefix[32];
    size_t i, k, p, found = 0;
    snprintf(prefix, sizeof prefix, "tbs=%d ", tbs);
    for (i = 0; i < ballot_lookback_ladder.count; i++) {
        if (strncmp(ballot_lookback_ladder.step(&ballot_lookback_ladder, i)->param, prefix,
                    strlen(prefix)) != 0)
            continue;
        found++;
        for (k = 0; k < sizeof sizes / sizeof *sizes; k++)
            for (p = 0; p < 3; p++) kit_expect_n(&ballot_lookback_ladder, i, sizes[k], inputs[p], k);
    }
    cr_assert_eq(found, 12, "tbs=%d: %zu variants", tbs, found);
}

Test(ch06_gpu, lookback_variants_128) { KIT_REQUIRE_GPU(); expect_lookback_block(128); }
Test(ch06_gpu, lookback_variants_256) { KIT_REQUIRE_GPU(); expect_lookback_block(256); }
Test(ch06_gpu, lookback_variants_512) { KIT_REQUIRE_GPU(); expect_lookback_block(512); }

/* the probes whose name and param match (param NULL: any), over the given sizes x inputs
 * (a NULL-terminated list of names); in test_06_exercises.c, which the graded suites share */
void ch06_expect_probes(const kit_ladder *L, const char *name, const char *param, const size_t *sizes,
                        size_t nsizes, const char *const *inputs);

#define PROBES(name, param) \
    ch06_expect_probes(&ballot_probe_ladder, name, param, probe_sizes, NPSIZE, probe_inputs)

Test(ch06_gpu, warp_scans_32bit)
{
    KIT_REQUIRE_GPU();
    PROBES("warp_scan_smem", NULL);
    PROBES("warp_scan_shfl", NULL);
}

Test(ch06_gpu, warp_binary_ptx_masks)
{
    KIT_REQUIRE_GPU();
    PROBES("warp_bin_count", NULL);
    PROBES("warp_bin_fwd_excl", NULL); /* 1D and 24 x 4 blocks */
    PROBES("warp_bin_fwd_incl", NULL);
    PROBES("warp_bin_rev_incl", NULL);
    PROBES("warp_bin_rev_excl", NULL);
}

Test(ch06_gpu, warp_bitplanes)
{
    KIT_REQUIRE_GPU();
    PROBES("warp_bitplane", NULL); /* bits 1, 3, 4, 8, 32 */
}

/* the exercises' probes (they fail on the untouched skeletons; graded below) */
Test(ch06_gpu, exercise_probes)
{
    KIT_REQUIRE_GPU();
    PROBES("lm_fwd_excl", NULL);
    PROBES("lm_fwd_incl", NULL);
    PROBES("lm_rev_incl", NULL);
    PROBES("lm_rev_excl", NULL);
    PROBES("seg_incl", NULL);
    PROBES("bitplane_prefix", NULL);
}

static void expect_block_primitives(int tbs)
{
    char param[32];
    size_t p;
    snprintf(param, sizeof param, "tbs=%d", tbs);
    for (p = 0; p < NBLOCK_PRIMS; p++) PROBES(block_prims[p], param);
}

Test(ch06_gpu, block_primitives_128) { KIT_REQUIRE_GPU(); expect_block_primitives(128); }
Test(ch06_gpu, block_primitives_256) { KIT_REQUIRE_GPU(); expect_block_primitives(256); }
Test(ch06_gpu, block_primitives_512) { KIT_REQUIRE_GPU(); expect_block_primitives(512); }
Test(ch06_gpu, block_primitives_1024) { KIT_REQUIRE_GPU(); expect_block_primitives(1024); }

Test(ch06_gpu, block_radix_sort)
{
    static const size_t sizes[] = {0, 1, 31, 33, 1025, 4097, (1u << 20) + 7};
    static const char *const keys[] = {"uniform", "zeros", "identical", "sorted", "reverse",
                                       "few-unique", NULL};
    KIT_REQUIRE_GPU();
    kit_expect_ladder(&ballot_sort_ladder, sizes, sizeof sizes / sizeof *sizes, keys);
}

/* the micro-benchmarks compute what the CPU says, in every block */
Test(ch06_gpu, micro_benchmarks)
{
    static const size_t sizes[] = {1, 33, 16385, 3 * 16384 + 5, 1u << 20};
    static const char *const tiles[] = {"uniform", "zeros", "identical", "alternating", NULL};
    const size_t ns = sizeof sizes / sizeof *sizes;
    KIT_REQUIRE_GPU();
    kit_expect_ladder(&ballot_mreduce_ladder, sizes, ns, tiles);
    kit_expect_ladder(&ballot_mscan_ladder, sizes, ns, tiles);
    kit_expect_ladder(&ballot_mbits_ladder, sizes, ns, tiles);
}

/* a misaligned pointer is refused, not read out of bounds */
/* flags at any byte and offsets at any 4-byte address are taken (the contract suite
 * checks the results); offsets that are not 4-byte aligned and n >= 2^32 are refused
 * before any launch */
Test(ch06_gpu, refuses_what_it_cannot_take)
{
    uint8_t *flags = NULL;
    uint32_t *out = NULL;
    void *scratch = NULL;
    KIT_REQUIRE_GPU();
    cr_assert_eq(cudaMalloc((void **)&flags, 4096), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&out, 4 * 4096), cudaSuccess);
    cr_assert_eq(cudaMalloc(&scratch, ballot_s3_scratch(4000) + ballot_s2_scratch(4000)), cudaSuccess);
    cr_assert_eq(ballot_s3_lookback(flags, (uint32_t *)((char *)out + 2), 4000, scratch, 0),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(ballot_s2_rows(flags, (uint32_t *)((char *)out + 2), 4000, scratch, 0),
                 cudaErrorMisalignedAddress);
    cr_assert_eq(ballot_s3_lookback(flags, out, (size_t)1 << 32, scratch, 0), cudaErrorInvalidValue);
    cr_assert_eq(ballot_s2_rows(flags, out, (size_t)1 << 33, scratch, 0), cudaErrorInvalidValue);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(flags);
    cudaFree(out);
    cudaFree(scratch);
}

/* the contract of every step of every table (reference/contract.c) */
KIT_CONTRACT_TESTS(ch06_contract, ballot_ladders, BALLOT_NLADDERS, 1)
